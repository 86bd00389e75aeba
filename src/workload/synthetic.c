/* SPDX-License-Identifier: MIT */
/*
 * synthetic.c — workload kind `synthetic`: N tasks looping over a
 * configurable mix of CPU work, a shared lock and block I/O.  It models no
 * real program; it is the test vehicle for the run driver, determinism and
 * the report path, and a quick way to load the engine.
 *
 * One loop iteration is one transaction:
 *
 *   think  sleep, exponential with mean `think`, or exactly `think` with
 *          think_dist=fixed (not part of the latency)
 *   ---- latency starts ----
 *   compute  charge `compute` of CPU time
 *   lock     with probability lock_share: take one of `locks` locks (chosen
 *            uniformly), hold it for `lock_hold` of CPU time
 *   io       with probability io_share: one read or write (write with
 *            probability io_write) of io_size bytes at a uniformly chosen,
 *            io_size-aligned offset below io_span on `device`, waiting
 *            for completion
 *   ---- latency ends; recorded in wl_stats ----
 *   cond_resched (a sync point, so a task without think time or I/O
 *   still lets time pass and others run)
 *
 * Every task draws from its own RNG stream ("synthetic[:NAME]", task
 * number), so runs are reproducible and independent of task scheduling.
 * Attribution: the CPU, wait and I/O time of each step lands on the path
 * nodes "compute", "lock" and "io" under the task kind "synthetic[:NAME]".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bdev.h"
#include "sim/rng.h"
#include "workload/synthetic.h"

enum syn_lock_kind { SYN_MUTEX, SYN_SPINLOCK };

struct syn_config {
	uint64_t	tasks;
	uint64_t	think;		/* ns, mean */
	int		think_dist;	/* enum syn_think_dist */
	uint64_t	compute;	/* ns per transaction */
	uint64_t	lock_share;	/* ppm of transactions */
	uint64_t	locks;
	uint64_t	lock_hold;	/* ns */
	int		lock_kind;
	uint64_t	io_share;	/* ppm of transactions */
	uint64_t	io_write;	/* ppm of I/Os */
	uint64_t	io_size;	/* bytes */
	uint64_t	io_span;	/* bytes */
	char		*device;
};

static const char *const lock_kind_names[] = { "mutex", "spinlock", NULL };

enum syn_think_dist { SYN_THINK_EXP, SYN_THINK_FIXED };
static const char *const think_dist_names[] = { "exponential", "fixed", NULL };

#define C(f) offsetof(struct syn_config, f)
static const struct opt_def syn_options[] = {
	{ "tasks", OPT_UINT, C(tasks), "4", 1, 1000000, NULL, 0,
	  "number of tasks (--scale 1/N divides it)" },
	{ "think", OPT_TIME, C(think), "1ms", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "mean think time before each transaction (exponential), 0 = none; bare numbers are us" },
	{ "think_dist", OPT_ENUM, C(think_dist), "exponential", 0, 0, think_dist_names, 0,
	  "think time's distribution: exponential with mean `think`, or fixed (always `think`, "
	  "as a loop's nanosleep; scenarios/duty-local.ini)" },
	{ "compute", OPT_TIME, C(compute), "50us", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "CPU time per transaction; bare numbers are us" },
	{ "lock_share", OPT_PERCENT, C(lock_share), "50%", 0, 1000000, NULL, 0,
	  "share of transactions that take a lock" },
	{ "locks", OPT_UINT, C(locks), "1", 1, 4096, NULL, 0,
	  "number of locks; a transaction takes one chosen uniformly" },
	{ "lock_hold", OPT_TIME, C(lock_hold), "20us", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "CPU time spent holding the lock; bare numbers are us" },
	{ "lock_kind", OPT_ENUM, C(lock_kind), "mutex", 0, 0, lock_kind_names, 0,
	  "mutex (waiters sleep) or spinlock (waiters spin on their CPU)" },
	{ "io_share", OPT_PERCENT, C(io_share), "0%", 0, 1000000, NULL, 0,
	  "share of transactions that do one block I/O (needs device=)" },
	{ "io_write", OPT_PERCENT, C(io_write), "50%", 0, 1000000, NULL, 0,
	  "share of I/Os that are writes" },
	{ "io_size", OPT_SIZE, C(io_size), "16k", 512, 1ULL << 30, NULL, 0,
	  "bytes per I/O, a multiple of 512" },
	{ "io_span", OPT_SIZE, C(io_span), "1g", 512, 0, NULL, 0,
	  "I/O offsets are uniform below this, aligned to io_size" },
	{ "device", OPT_STRING, C(device), "", 0, 0, NULL, 0,
	  "the [device NAME] the I/O goes to" },
	OPT_END
};

struct syn_state;

struct syn_task {
	struct syn_state	*st;
	struct sim_rng		rng;
};

struct syn_state {
	struct syn_config	cfg;		/* copy; device borrowed from the scenario */
	struct sim		*sim;
	struct bdev		*bdev;
	struct wl_stats		*stats;
	char			*kind_name;
	char			**lock_names;
	struct sim_mutex	*mutexes;
	struct sim_spinlock	*spinlocks;
	struct syn_task		*tasks;
};

static void syn_transaction(struct sim *sim, struct syn_task *t)
{
	const struct syn_state *st = t->st;
	const struct syn_config *c = &st->cfg;
	sim_time_t start;

	if (c->think)
		sim_sleep(sim, c->think_dist == SYN_THINK_FIXED ? c->think
				: (sim_time_t)rng_exp(&t->rng, (double)c->think));
	start = sim_now(sim);
	sim_path_push(sim, "compute");
	sim_charge(sim, c->compute);
	sim_path_pop(sim);
	if (c->lock_share && rng_below(&t->rng, 1000000) < c->lock_share) {
		uint64_t k = c->locks > 1 ? rng_below(&t->rng, c->locks) : 0;

		sim_path_push(sim, "lock");
		if (c->lock_kind == SYN_SPINLOCK) {
			sim_spin_lock(sim, &st->spinlocks[k]);
			sim_charge(sim, c->lock_hold);
			sim_spin_unlock(sim, &st->spinlocks[k]);
		} else {
			sim_mutex_lock(sim, &st->mutexes[k]);
			sim_charge(sim, c->lock_hold);
			sim_mutex_unlock(sim, &st->mutexes[k]);
		}
		sim_path_pop(sim);
	}
	if (c->io_share && rng_below(&t->rng, 1000000) < c->io_share) {
		uint64_t slots = c->io_span / c->io_size;
		uint64_t off = (slots > 1 ? rng_below(&t->rng, slots) : 0) * c->io_size;
		enum bio_op op = rng_below(&t->rng, 1000000) < c->io_write ? BIO_WRITE : BIO_READ;

		sim_path_push(sim, "io");
		bdev_io_wait(sim, st->bdev, op, off, c->io_size);
		sim_path_pop(sim);
	}
	wl_stats_tx(st->stats, sim_now(sim), sim_now(sim) - start);
	sim_cond_resched(sim);
}

static void syn_task_fn(struct sim *sim, void *arg)
{
	for (;;)
		syn_transaction(sim, arg);
}

/*
 * A transaction must be able to take virtual time, or the tasks loop
 * forever at one instant and the run never reaches its duration (think,
 * compute, lock_share and io_share all 0 once hung at time 0 even with
 * duration=1ms).  Time passes when it thinks, computes, holds a lock, or
 * does I/O on a device that takes time; transactions are steps of the
 * model, so one that costs nothing is refused rather than counted
 * infinitely often.  `dev` is the device (NULL: unknown, assume it takes
 * time).
 */
static int check_progress(const struct syn_config *c, const struct bdev_config *dev,
			  char *err, size_t errlen)
{
	bool io_takes_time = c->io_share && (!dev || dev->lat_mean_ns || dev->iops ||
					      dev->bandwidth || dev->total_iops || dev->total_bandwidth);

	if (c->think || c->compute || (c->lock_share && c->lock_hold) || io_takes_time)
		return 0;
	snprintf(err, errlen, "a transaction would take no virtual time (think and compute are 0, "
		 "no lock is held, %s), so the run could never reach its duration: set think or "
		 "compute above 0", c->io_share ? "the device has no latency or rate limit" : "no I/O");
	return -1;
}

static int syn_validate(const void *config, char *err, size_t errlen)
{
	const struct syn_config *c = config;

	if (c->io_share && (!c->device || !c->device[0])) {
		snprintf(err, errlen, "io_share is above 0%% but no device= is given");
		return -1;
	}
	if (c->io_size % 512) {
		snprintf(err, errlen, "io_size must be a multiple of 512 bytes");
		return -1;
	}
	if (c->io_span < c->io_size) {
		snprintf(err, errlen, "io_span must be at least io_size");
		return -1;
	}
	return check_progress(c, NULL, err, errlen);
}

/* Tasks and the span of the I/O offsets shrink n-fold, as the device's
 * size does (the span stays a multiple of io_size). */
static int syn_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct syn_config *c = config;
	uint64_t span = c->io_span / n / c->io_size * c->io_size;

	(void)err;
	(void)errlen;
	c->tasks = c->tasks / n ? c->tasks / n : 1;
	c->io_span = span >= c->io_size ? span : c->io_size;
	return 0;
}

static int syn_validate_env(const void *config, const struct wl_check_env *env, const char **bad_key,
			    char *err, size_t errlen)
{
	const struct syn_config *c = config;
	const struct bdev_config *d = c->io_share ? env->device(env->ctx, c->device) : NULL;

	if (d && d->size_bytes && c->io_span > d->size_bytes) {
		*bad_key = "io_span";
		snprintf(err, errlen, "io_span (%llu bytes) is beyond the end of device '%s' (%llu bytes)",
			 (unsigned long long)c->io_span, c->device, (unsigned long long)d->size_bytes);
		return -1;
	}
	return check_progress(c, d, err, errlen);
}

static void syn_destroy(void *state)
{
	struct syn_state *st = state;

	if (!st)
		return;
	/* The sim is gone (workload.h: destroy runs after sim_destroy), and
	 * with it its list of our locks: they are just memory now. */
	for (uint64_t k = 0; k < st->cfg.locks && st->lock_names; k++)
		free(st->lock_names[k]);
	free(st->lock_names);
	free(st->mutexes);
	free(st->spinlocks);
	free(st->tasks);
	free(st->kind_name);
	free(st);
}

static void *syn_start_env(const struct wl_env *env, const void *config, const char *instance,
			   struct wl_stats *stats, char *err, size_t errlen)
{
	const struct syn_config *c = config;
	struct syn_state *st = calloc(1, sizeof(*st));
	struct sim *sim = env->sim;
	int kind;

	if (!st)
		SIM_BUG("out of memory");
	st->cfg = *c;
	st->sim = sim;
	st->stats = stats;
	if (c->io_share && !(st->bdev = wl_env_device(env, c->device, err, errlen))) {
		free(st);
		return NULL;
	}
	st->kind_name = wl_kind_name("synthetic", instance);
	st->lock_names = calloc(c->locks, sizeof(*st->lock_names));
	st->tasks = calloc(c->tasks, sizeof(*st->tasks));
	if (!st->lock_names || !st->tasks)
		SIM_BUG("out of memory");
	if (c->lock_kind == SYN_SPINLOCK)
		st->spinlocks = calloc(c->locks, sizeof(*st->spinlocks));
	else
		st->mutexes = calloc(c->locks, sizeof(*st->mutexes));
	if (!st->spinlocks && !st->mutexes)
		SIM_BUG("out of memory");
	for (uint64_t k = 0; k < c->locks; k++) {
		size_t nl = strlen(st->kind_name) + 32;

		st->lock_names[k] = malloc(nl);
		if (!st->lock_names[k])
			SIM_BUG("out of memory");
		snprintf(st->lock_names[k], nl, "%s.lock%llu", st->kind_name, (unsigned long long)k);
		if (st->spinlocks)
			sim_spin_init(sim, &st->spinlocks[k], st->lock_names[k]);
		else
			sim_mutex_init(sim, &st->mutexes[k], st->lock_names[k]);
	}
	kind = sim_task_kind(sim, st->kind_name);
	for (uint64_t i = 0; i < c->tasks; i++) {
		char name[96];
		struct sim_task_config tc = { .name = name, .kind = kind, .cpu = SIM_CPU_ANY };

		snprintf(name, sizeof(name), "%s/%llu", st->kind_name, (unsigned long long)i);
		st->tasks[i].st = st;
		rng_init(&st->tasks[i].rng, sim_seed(sim), rng_stream_id(st->kind_name, i));
		sim_task_create(sim, &tc, syn_task_fn, &st->tasks[i], 0);
	}
	return st;
}

static void syn_report(void *state, struct wl_report *out)
{
	struct syn_state *st = state;

	out->has_transactions = true;
	out->stats = st->stats;
	wl_report_figure(out, "transactions_per_task",
			 (double)st->stats->transactions / (double)st->cfg.tasks, "");
}

static uint64_t syn_nr_tasks(const void *config, const char **key)
{
	const struct syn_config *c = config;

	*key = "tasks";
	return c->tasks;
}

const struct workload_type synthetic_workload = {
	.kind = "synthetic",
	.help = "N tasks looping over CPU work, a lock and block I/O (engine test vehicle)",
	.options = syn_options,
	.config_size = sizeof(struct syn_config),
	.multiple = true,
	.validate = syn_validate,
	.validate_env = syn_validate_env,
	.scale = syn_scale,
	.nr_tasks = syn_nr_tasks,
	.start_env = syn_start_env,
	.report = syn_report,
	.destroy = syn_destroy,
};
