/* SPDX-License-Identifier: MIT */
/* Tests of the preemption models (none, voluntary, full, lazy) on the EEVDF
 * run queue, against the model's original slice scheduler: exact schedules
 * on one CPU with zero engine costs, a 4 ms tick and EEVDF's base slice
 * for one CPU (0.75 ms). */
#include "harness.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC
#define MS SIM_NSEC_PER_MSEC

static struct sim *sim_model(unsigned int ncpus, int preempt)
{
	struct cost_table c;
	struct sim_config cfg = {
		.ncpus = ncpus, .seed = 1, .preempt = preempt, .tick_ns = 4 * MS,
	};

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_spin_handoff] = 0;
	cfg.costs = &c;
	return sim_create(&cfg);
}

struct prog {
	struct st_log	log;
	struct sim_mutex mutex;
	struct sim_spinlock spin;
	bool		kernel;		/* the worker runs in kernel mode (a long syscall) */
	bool		spin_section;	/* holds the spinlock over 400..800 us */
	unsigned int	steps;		/* 100-us steps of the worker */
};

/* The worker: `steps` steps of 100 us, a sync after each; a mutex taken and
 * released after step 7 (700 us: a might_sleep point), cond_resched after
 * step 10 (1000 us). */
static void worker(struct sim *sim, void *p)
{
	struct prog *g = p;

	if (g->kernel)
		sim_kernel_enter(sim);
	for (unsigned int i = 1; i <= g->steps; i++) {
		if (g->spin_section && i == 5)
			sim_spin_lock(sim, &g->spin);
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		if (g->spin_section && i == 8)
			sim_spin_unlock(sim, &g->spin);
		if (i == 7) {
			sim_mutex_lock(sim, &g->mutex);
			sim_mutex_unlock(sim, &g->mutex);
		}
		if (i == 10)
			sim_cond_resched(sim);
	}
	if (g->kernel)
		sim_kernel_exit(sim);
	st_log_add(&g->log, sim_now(sim), 'k');
}

/* The waker: sleeps until 500 us, then notes when it got the CPU. */
static void waker(struct sim *sim, void *p)
{
	struct prog *g = p;

	sim_sleep_until(sim, 500 * US);
	st_log_add(&g->log, sim_now(sim), 'w');
}

static sim_time_t woken_runs_at(int preempt, bool kernel, bool spin_section, unsigned int steps)
{
	struct sim *sim = sim_model(1, preempt);
	struct prog g = { .kernel = kernel, .spin_section = spin_section, .steps = steps };
	sim_time_t w = 0;

	sim_mutex_init(sim, &g.mutex, "test_mutex");
	sim_spin_init(sim, &g.spin, "test_spin");
	st_task(sim, "waker", 0, true, waker, &g, 0);
	st_task(sim, "worker", 0, true, worker, &g, 0);
	sim_run(sim, SIM_TIME_NEVER);
	for (unsigned int i = 0; i < g.log.n; i++)
		if (g.log.tag[i] == 'w')
			w = g.log.t[i];
	sim_destroy(sim);
	return w;
}

/* A test of where a kernel-mode task yields to a woken one.  The worker
 * enters the kernel at 0 and runs 5 ms in 100-us steps; the waker wakes
 * at 500 us.  EEVDF places it at the queue's average with its lag (0) and
 * the worker, past its first half slice, gets a reschedule request.
 * Expect the waker to run at: full 500 us (the next sync point), voluntary
 * 700 us (the mutex's might_sleep), none 1000 us (cond_resched), lazy
 * 4000 us (the lazy bit waits for the tick to become a full request), and
 * under the original slice scheduler 3000 us (the worker's 3 ms slice). */
TEST(preempt_models_kernel_mode_wakeup)
{
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_FULL, true, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_VOLUNTARY, true, false, 50), 700 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_NONE, true, false, 50), 1000 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_LAZY, true, false, 50), 4000 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_SLICE, true, false, 50), 3000 * US);
}

/* A test of user mode: the same worker without entering the kernel.
 * Expect every preemption model to switch at the first sync point after
 * the wake-up (500 us: a user-mode task is preempted on the interrupt's
 * return to user, for either bit under lazy), the slice scheduler still
 * at 3000 us. */
TEST(preempt_models_user_mode_wakeup)
{
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_FULL, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_VOLUNTARY, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_NONE, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_LAZY, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_SLICE, false, false, 50), 3000 * US);
}

/* A test of spinlocks under full preemption: the kernel-mode worker holds
 * a spinlock over 400..800 us.  Expect the waker, woken at 500 us, to run
 * at the release (800 us), not before; under lazy the tick still decides
 * (4000 us). */
TEST(preempt_full_waits_for_spin_unlock)
{
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_FULL, true, true, 50), 800 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_LAZY, true, true, 50), 4000 * US);
}

/* A test of the return to user: the kernel-mode worker leaves the kernel
 * after 2 ms (20 steps; its cond_resched at 1000 us is no preemption
 * point under lazy).  Expect lazy to switch at the kernel exit (2000 us),
 * before any tick, and none at its cond_resched (1000 us). */
TEST(preempt_return_to_user_is_a_preemption_point)
{
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_LAZY, true, false, 20), 2000 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_NONE, true, false, 20), 1000 * US);
}

struct hog {
	struct st_log	log;
	int		tag;
};

static void hog_fn(struct sim *sim, void *p)
{
	struct hog *h = p;

	for (int i = 0; i < 30; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		st_log_add(&h->log, sim_now(sim), h->tag);
	}
}

/* A test of EEVDF time sharing by the tick: two user-mode hogs of 3 ms in
 * 100-us steps on one CPU under full preemption.  The first runs from 0
 * (deadline 375 us: half a slice, as a new task); the second is queued
 * at 0.  Nothing preempts until the first tick (4 ms), where the first
 * hog has run 3 ms and finished.  Expect the first hog's steps at 100 ..
 * 3000 us and the second's at 3100 .. 6000 us: without wake-ups, only the
 * tick reschedules, and a hog shorter than a tick is never cut. */
TEST(preempt_tick_is_the_only_slice_end)
{
	struct sim *sim = sim_model(1, SIM_PREEMPT_FULL);
	struct hog a = { .tag = 'a' }, b = { .tag = 'b' };

	st_task(sim, "a", 0, true, hog_fn, &a, 0);
	st_task(sim, "b", 0, true, hog_fn, &b, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(a.log.n, 30);
	ASSERT_U64_EQ(b.log.n, 30);
	ASSERT_U64_EQ(a.log.t[0], 100 * US);
	ASSERT_U64_EQ(a.log.t[29], 3000 * US);
	ASSERT_U64_EQ(b.log.t[0], 3100 * US);
	ASSERT_U64_EQ(b.log.t[29], 6000 * US);
	sim_destroy(sim);
}

static void long_hog_fn(struct sim *sim, void *p)
{
	struct hog *h = p;

	for (int i = 0; i < 100; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		st_log_add(&h->log, sim_now(sim), h->tag);
	}
}

/* A test of the tick's slice end: two user-mode hogs of 10 ms.  The first
 * runs until the tick at 4 ms finds its deadline passed and another task
 * waiting; the second (vruntime 0, eligible) then runs until the tick at
 * 8 ms, and so on.  Expect the first hog's 39th step to end at 3900 us and
 * its 40th step's sync (at 4000) to return only at 8000, after the second
 * hog ran 4000..8000 (first step 4100, 39th 7900); the first hog's 41st
 * step ends at 8100. */
TEST(preempt_tick_shares_the_cpu)
{
	struct sim *sim = sim_model(1, SIM_PREEMPT_FULL);
	struct hog a = { .tag = 'a' }, b = { .tag = 'b' };

	st_task(sim, "a", 0, true, long_hog_fn, &a, 0);
	st_task(sim, "b", 0, true, long_hog_fn, &b, 0);
	sim_run(sim, 10 * MS);
	ASSERT_TRUE(a.log.n >= 41);
	ASSERT_U64_EQ(a.log.t[38], 3900 * US);
	ASSERT_U64_EQ(a.log.t[39], 8000 * US);	/* its sync at 4000 returned after b's turn */
	ASSERT_U64_EQ(b.log.t[0], 4100 * US);
	ASSERT_U64_EQ(b.log.t[38], 7900 * US);
	ASSERT_U64_EQ(a.log.t[40], 8100 * US);
	sim_destroy(sim);
}
