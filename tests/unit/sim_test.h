/* SPDX-License-Identifier: MIT */
/*
 * sim_test.h — helpers shared by the engine's unit tests: build a sim with
 * or without the engine's own costs, start tasks, record (time, tag)
 * logs, and run code in a child process to check that it hits SIM_BUG.
 */
#ifndef SLOWPATH_TEST_SIM_TEST_H
#define SLOWPATH_TEST_SIM_TEST_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim.h"

/* A sim whose engine costs (context switch, wake-up, hand-offs) are zero,
 * so constructed schedules have exact, hand-computable times; `cfg` gives
 * the rest of its configuration (ncpus at least). */
static inline struct sim *st_sim_exact_cfg(struct sim_config cfg)
{
	struct cost_table c;

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_spin_handoff] = 0;
	c.ps[COST_pg_tas_handoff] = 0;
	cfg.costs = &c;
	return sim_create(&cfg);
}

static inline struct sim *st_sim_exact(unsigned int ncpus)
{
	return st_sim_exact_cfg((struct sim_config){ .ncpus = ncpus, .seed = 1 });
}

static inline struct sim_task *st_task(struct sim *sim, const char *name, int cpu, bool pinned,
				       sim_task_fn fn, void *arg, sim_time_t start)
{
	struct sim_task_config cfg = {
		.name = name, .kind = sim_task_kind(sim, "test"), .cpu = cpu, .pinned = pinned,
	};

	return sim_task_create(sim, &cfg, fn, arg, start);
}

/* A log of (time, tag) records appended by tasks and callbacks. */
#define ST_LOG_MAX 256
struct st_log {
	unsigned int	n;
	sim_time_t	t[ST_LOG_MAX];
	int		tag[ST_LOG_MAX];
};

static inline void st_log_add(struct st_log *l, sim_time_t t, int tag)
{
	if (l->n < ST_LOG_MAX) {
		l->t[l->n] = t;
		l->tag[l->n] = tag;
		l->n++;
	}
}

/* Run fn(arg) in a child; true if it died of SIGABRT (SIM_BUG aborts). */
static inline bool st_dies(void (*fn)(void *), void *arg)
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* keep the expected "BUG" message out of the test log */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn(arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

#endif
