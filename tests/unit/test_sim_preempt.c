/* SPDX-License-Identifier: MIT */
/* Tests of the preemption models (none, voluntary, full, lazy) on the EEVDF
 * run queue, against the model's original slice scheduler: exact schedules
 * on one CPU with zero engine costs, a 4 ms tick and EEVDF's base slice
 * for one CPU (0.75 ms). */
#include "harness.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC
#define MS SIM_NSEC_PER_MSEC

/* A sim of `cfg` with the scheduler's own costs zero. */
static struct sim *sim_model_cfg(struct sim_config cfg)
{
	struct cost_table c;

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_spin_handoff] = 0;
	cfg.costs = &c;
	return sim_create(&cfg);
}

static struct sim *sim_model(unsigned int ncpus, int preempt)
{
	return sim_model_cfg((struct sim_config){
		.ncpus = ncpus, .seed = 1, .preempt = preempt, .tick_ns = 4 * MS,
	});
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

/* Run the waker and `fn` as the worker (program g) on one CPU under
 * `preempt`; when the waker got the CPU. */
static sim_time_t waker_runs_at(int preempt, sim_task_fn fn, struct prog *g)
{
	struct sim *sim = sim_model(1, preempt);
	sim_time_t w = 0;

	sim_mutex_init(sim, &g->mutex, "test_mutex");
	sim_spin_init(sim, &g->spin, "test_spin");
	st_task(sim, "waker", 0, true, waker, g, 0);
	st_task(sim, "worker", 0, true, fn, g, 0);
	sim_run(sim, SIM_TIME_NEVER);
	for (unsigned int i = 0; i < g->log.n; i++)
		if (g->log.tag[i] == 'w')
			w = g->log.t[i];
	sim_destroy(sim);
	return w;
}

static sim_time_t woken_runs_at(int preempt, bool kernel, bool spin_section, unsigned int steps)
{
	struct prog g = { .kernel = kernel, .spin_section = spin_section, .steps = steps };

	return waker_runs_at(preempt, worker, &g);
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
 * Expect none, voluntary and full to switch at the first sync point after
 * the wake-up (500 us: the wake-up's reschedule IPI returns to user and
 * preempts there); lazy at the tick (4000 us: the lazy bit comes without
 * an IPI and acts on the next return to user, which for a task that makes
 * no system call is the tick's); the slice scheduler still at 3000 us. */
TEST(preempt_models_user_mode_wakeup)
{
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_FULL, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_VOLUNTARY, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_NONE, false, false, 50), 500 * US);
	ASSERT_U64_EQ(woken_runs_at(SIM_PREEMPT_LAZY, false, false, 50), 4000 * US);
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

/* A worker whose whole 10 ms is one stretch of inline work (a single
 * charge, one sync at the end), optionally in kernel mode and under a
 * kernel spinlock. */
static void stretch_worker(struct sim *sim, void *p)
{
	struct prog *g = p;

	if (g->kernel)
		sim_kernel_enter(sim);
	if (g->spin_section)
		sim_spin_lock(sim, &g->spin);
	sim_charge(sim, 10 * MS);
	sim_sync(sim);
	if (g->spin_section)
		sim_spin_unlock(sim, &g->spin);
	if (g->kernel)
		sim_kernel_exit(sim);
	st_log_add(&g->log, sim_now(sim), 'k');
}

/* A task queued behind the worker from the start: notes when it runs. */
static void queued(struct sim *sim, void *p)
{
	struct prog *g = p;

	st_log_add(&g->log, sim_now(sim), 'w');
}

/* When the other task runs: the waker (wakes at 500 us) or, with
 * `from_start`, a task created at 0 behind the worker; the worker's own
 * end goes to *worker_end. */
static sim_time_t other_runs_at(int preempt, bool kernel, bool spin_section, bool from_start,
				sim_time_t *worker_end)
{
	struct sim *sim = sim_model(1, preempt);
	struct prog g = { .kernel = kernel, .spin_section = spin_section };
	sim_time_t w = 0;

	sim_spin_init(sim, &g.spin, "test_spin");
	if (!from_start)
		st_task(sim, "waker", 0, true, waker, &g, 0);
	st_task(sim, "worker", 0, true, stretch_worker, &g, 0);
	if (from_start)
		st_task(sim, "queued", 0, true, queued, &g, 0);
	sim_run(sim, SIM_TIME_NEVER);
	for (unsigned int i = 0; i < g.log.n; i++) {
		if (g.log.tag[i] == 'w')
			w = g.log.t[i];
		else
			*worker_end = g.log.t[i];
	}
	sim_destroy(sim);
	return w;
}

static sim_time_t stretch_cut_at(int preempt, bool kernel, bool spin_section, bool from_start)
{
	sim_time_t end = 0, w = other_runs_at(preempt, kernel, spin_section, from_start, &end);

	return end == 10 * MS ? w : 0;	/* the worker's 10 ms, wherever cut: else 0 fails the test */
}

/* A test of ticks inside a stretch of inline work: the worker's 10 ms are
 * one charge, so no sync point falls inside.  With a task queued behind it
 * from the start, the tick at 4 ms finds the worker's deadline passed.
 * Expect the queued task to run at: 4000 us in user mode under every
 * kernel model (the tick's return to user) and in kernel mode under full;
 * 8000 us in kernel mode under lazy (the tick at 4 ms sets the lazy bit,
 * the one at 8 ms promotes it to a full request); 10000 us in kernel mode
 * under none and voluntary (the return to user at the stretch's end), under
 * the slice scheduler (its slice is looked at only at sync points), and
 * with a spinlock held over the stretch under full and lazy (the release).
 * With the waker instead, its wake-up at 500 us already sets the lazy bit
 * (the worker is past its first deadline), so under lazy the first tick
 * promotes it: 4000 us.  In every case the worker ends at 10000 us. */
TEST(preempt_tick_inside_a_stretch)
{
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_NONE, false, false, true), 4000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_LAZY, false, false, true), 4000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_FULL, false, false, true), 4000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_FULL, true, false, true), 4000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_LAZY, true, false, true), 8000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_NONE, true, false, true), 10000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_VOLUNTARY, true, false, true), 10000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_SLICE, true, false, true), 10000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_FULL, true, true, true), 10000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_LAZY, true, true, true), 10000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_LAZY, true, false, false), 4000 * US);
	ASSERT_U64_EQ(stretch_cut_at(SIM_PREEMPT_NONE, true, false, false), 10000 * US);
}

/* A user-mode worker of 100-us steps that takes a 10-us page fault (kernel
 * entry and exit) at 600 us, then runs to 2 ms. */
static void faulting_worker(struct sim *sim, void *p)
{
	struct prog *g = p;

	for (unsigned int i = 1; i <= 20; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		if (i == 6) {
			sim_kernel_enter(sim);
			sim_charge(sim, 10 * US);
			sim_sync(sim);
			sim_kernel_exit(sim);
		}
	}
	st_log_add(&g->log, sim_now(sim), 'k');
}

static sim_time_t woken_runs_at_fault(int preempt)
{
	struct prog g = { 0 };

	return waker_runs_at(preempt, faulting_worker, &g);
}

/* A test of where a lazy request lands in user mode: the waker wakes at
 * 500 us and the worker is past its deadline.  Expect none and full to
 * switch at 500 us (the IPI's return to user), lazy at the end of the
 * fault (610 us: the first return to user after the request; a
 * PostgreSQL spinlock taken before the fault would still be held there). */
TEST(preempt_lazy_request_lands_on_the_fault_exit)
{
	ASSERT_U64_EQ(woken_runs_at_fault(SIM_PREEMPT_NONE), 500 * US);
	ASSERT_U64_EQ(woken_runs_at_fault(SIM_PREEMPT_FULL), 500 * US);
	ASSERT_U64_EQ(woken_runs_at_fault(SIM_PREEMPT_LAZY), 610 * US);
}

/* faulting_worker holding a user-space spinlock (PostgreSQL's s_lock)
 * from 400 us until after its fault's return (610 us). */
static void locked_faulting_worker(struct sim *sim, void *p)
{
	struct prog *g = p;

	for (unsigned int i = 1; i <= 20; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		if (i == 4 && !sim_uspin_lock_for(sim, &g->spin, 0))
			SIM_BUG("test: the user spinlock is free");
		if (i == 6) {
			sim_kernel_enter(sim);
			sim_charge(sim, 10 * US);
			sim_sync(sim);
			sim_kernel_exit(sim);
			sim_uspin_unlock(sim, &g->spin);
		}
	}
	st_log_add(&g->log, sim_now(sim), 'k');
}

/* The waker, running 50 us once woken. */
static void busy_waker(struct sim *sim, void *p)
{
	waker(sim, p);
	sim_charge(sim, 50 * US);
}

/* A test of the s_lock holder preemption counts: the waker wakes at
 * 500 us while the worker holds a user spinlock over a fault (400 to
 * 610 us), and runs 50 us.  Expect one preemption of a holder under each
 * model: under none and full at 500 us in user mode (the IPI), under lazy
 * at the fault's exit (a return to user), and none counted at a tick or
 * in kernel mode; and one run-queue wait of a holder, the waker's 50 us. */
TEST(preempt_counts_user_spinlock_holders)
{
	static const int models[] = { SIM_PREEMPT_NONE, SIM_PREEMPT_FULL, SIM_PREEMPT_LAZY };

	for (unsigned int m = 0; m < 3; m++) {
		struct sim *sim = sim_model(1, models[m]);
		struct prog g = { 0 };
		bool lazy = models[m] == SIM_PREEMPT_LAZY;

		sim_mutex_init(sim, &g.mutex, "test_mutex");
		sim_spin_init(sim, &g.spin, "test_uspin");
		st_task(sim, "waker", 0, true, busy_waker, &g, 0);
		st_task(sim, "worker", 0, true, locked_faulting_worker, &g, 0);
		sim_run(sim, SIM_TIME_NEVER);
		ASSERT_U64_EQ(sim_uspin_holder_runq_waits(sim), 1);
		ASSERT_U64_EQ(sim_uspin_holder_runq_ns(sim), 50 * US);
		ASSERT_U64_EQ(sim_uspin_holder_preempts(sim, SIM_USPIN_PREEMPT_IPI), lazy ? 0 : 1);
		ASSERT_U64_EQ(sim_uspin_holder_preempts(sim, SIM_USPIN_PREEMPT_RETURN), lazy ? 1 : 0);
		ASSERT_U64_EQ(sim_uspin_holder_preempts(sim, SIM_USPIN_PREEMPT_TICK), 0);
		ASSERT_U64_EQ(sim_uspin_holder_preempts(sim, SIM_USPIN_PREEMPT_KERNEL), 0);
		sim_destroy(sim);
	}
}

/* ---- a user-space spinner preempted mid-spin ---- */

struct spin_case {
	struct st_log	log;
	struct sim_spinlock spin;
	sim_time_t	hold;		/* the holder's time with the lock, from 0 */
	sim_time_t	budget;		/* the spinner's spin budget (CPU time) */
	sim_time_t	irq_at;		/* an interrupt of 10 us on CPU 0, 0 = none */
	bool		got;		/* the spinner's result */
};

/* Holder, on CPU 1: takes the lock at 0, runs `hold` in 100-us steps, releases. */
static void spin_holder(struct sim *sim, void *p)
{
	struct spin_case *c = p;

	if (!sim_uspin_lock_for(sim, &c->spin, 0))
		SIM_BUG("test: the user spinlock is free");
	for (sim_time_t t = 0; t < c->hold; t += 100 * US) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
	sim_uspin_unlock(sim, &c->spin);
}

/* Spinner, on CPU 0: spins for the lock from 0 with its budget; logs 's'
 * when it stops spinning. */
static void spin_spinner(struct sim *sim, void *p)
{
	struct spin_case *c = p;

	c->got = sim_uspin_lock_for(sim, &c->spin, c->budget);
	st_log_add(&c->log, sim_now(sim), 's');
	if (c->got)
		sim_uspin_unlock(sim, &c->spin);
}

/* Woken at 1000 us on CPU 0; logs 'w' when it runs, then runs 50 us. */
static void spin_waker(struct sim *sim, void *p)
{
	struct spin_case *c = p;

	sim_sleep_until(sim, 1000 * US);
	st_log_add(&c->log, sim_now(sim), 'w');
	sim_charge(sim, 50 * US);
}

static void spin_irq_handler(struct sim *sim, void *p)
{
	(void)p;
	sim_charge(sim, 10 * US);
}

static void spin_irq_cb(struct sim *sim, void *p)
{
	(void)p;
	sim_irq_raise(sim, 0, spin_irq_handler, NULL);
}

static sim_time_t spin_log_at(const struct spin_case *c, int tag)
{
	for (unsigned int i = 0; i < c->log.n; i++)
		if (c->log.tag[i] == tag)
			return c->log.t[i];
	return SIM_TIME_NEVER;
}

/* Run a spin case under `preempt` (two CPUs); the spinner's preemptions
 * by where in `pre`, its spin time in `spun`. */
static void spin_case_run(int preempt, struct spin_case *c, uint64_t pre[SIM_USPIN_PREEMPT_KINDS],
			  uint64_t *spun)
{
	struct sim *sim = sim_model(2, preempt);
	struct sim_task *s;
	struct sim_task_stats st;

	sim_spin_init(sim, &c->spin, "test_uspin");
	st_task(sim, "holder", 1, true, spin_holder, c, 0);
	st_task(sim, "waker", 0, true, spin_waker, c, 0);	/* runs first: to sleep */
	s = st_task(sim, "spinner", 0, true, spin_spinner, c, 0);
	if (c->irq_at)
		sim_call_at(sim, c->irq_at, spin_irq_cb, NULL);
	sim_run(sim, SIM_TIME_NEVER);
	for (int k = 0; k < SIM_USPIN_PREEMPT_KINDS; k++)
		pre[k] = sim_uspin_spinner_preempts(sim, (enum sim_uspin_preempt)k);
	sim_task_stats(s, &st);
	*spun = st.spin_ns;
	sim_destroy(sim);
}

/* A test of the reschedule IPI against the lazy bit (two CPUs: base slice
 * 1.5 ms): the holder keeps the lock 0..2000 us on CPU 1; the spinner spins
 * for it on CPU 0 with a 5 ms budget; a task woken on CPU 0 at 1000 us
 * finds the spinner past its first half slice (750 us) and asks for a
 * reschedule.  Expect under none and full the IPI to preempt the spinner
 * at 1000 us: the woken task runs 1000..1050, the spinner spins on from
 * 1050 and is handed the lock at the release (2000 us), 1950 us of
 * spinning.  Under lazy no IPI: the spinner spins the whole 2000 us and
 * the woken task waits until it ends (2000). */
TEST(preempt_user_spinner_by_wakeup_ipi)
{
	static const int models[] = { SIM_PREEMPT_NONE, SIM_PREEMPT_FULL, SIM_PREEMPT_LAZY };

	for (unsigned int m = 0; m < 3; m++) {
		struct spin_case c = { .hold = 2000 * US, .budget = 5 * MS };
		bool lazy = models[m] == SIM_PREEMPT_LAZY;
		uint64_t pre[SIM_USPIN_PREEMPT_KINDS], spun;

		spin_case_run(models[m], &c, pre, &spun);
		ASSERT_TRUE(c.got);
		ASSERT_U64_EQ(spin_log_at(&c, 's'), 2000 * US);
		ASSERT_U64_EQ(spin_log_at(&c, 'w'), lazy ? 2000 * US : 1000 * US);
		ASSERT_U64_EQ(spun, lazy ? 2000 * US : 1950 * US);
		ASSERT_U64_EQ(pre[SIM_USPIN_PREEMPT_IPI], lazy ? 0 : 1);
		ASSERT_U64_EQ(pre[SIM_USPIN_PREEMPT_TICK], 0);
		ASSERT_U64_EQ(pre[SIM_USPIN_PREEMPT_RETURN], 0);
	}
}

/* A test of the budget as CPU time: the holder keeps the lock 4 ms, the
 * spinner's budget is 1.5 ms.  Expect under none the spinner, off its CPU
 * 1000..1050 us, to give up at 1550 us; under lazy at 1500 us. */
TEST(preempt_user_spinner_budget_is_cpu_time)
{
	struct spin_case none = { .hold = 4 * MS, .budget = 1500 * US };
	struct spin_case lazy = { .hold = 4 * MS, .budget = 1500 * US };
	uint64_t pre[SIM_USPIN_PREEMPT_KINDS], spun;

	spin_case_run(SIM_PREEMPT_NONE, &none, pre, &spun);
	ASSERT_TRUE(!none.got);
	ASSERT_U64_EQ(spin_log_at(&none, 's'), 1550 * US);
	ASSERT_U64_EQ(spun, 1500 * US);
	ASSERT_U64_EQ(pre[SIM_USPIN_PREEMPT_IPI], 1);
	spin_case_run(SIM_PREEMPT_LAZY, &lazy, pre, &spun);
	ASSERT_TRUE(!lazy.got);
	ASSERT_U64_EQ(spin_log_at(&lazy, 's'), 1500 * US);
	ASSERT_U64_EQ(spun, 1500 * US);
	ASSERT_U64_EQ(pre[SIM_USPIN_PREEMPT_IPI], 0);
}

/* A test of the lazy bit's two landing places: the holder keeps the lock
 * 6 ms, the spinner's budget is 10 ms, the wake-up at 1000 us sets the
 * lazy bit.  Expect the tick at 4 ms to preempt the spinner (the woken task
 * runs at 4000 us) and, with an interrupt of 10 us on CPU 0 at 1500 us,
 * that interrupt's return to user (the woken task runs at 1510 us); the
 * spinner is handed the lock at 6000 us either way. */
/* Run the lazy spin case `c` and check that the woken task ran at
 * `woken_at`, the spinner got the lock at 6000 us, and it was preempted
 * once, at `where`. */
static void lazy_spinner_preempted_once(struct spin_case *c, sim_time_t woken_at,
					enum sim_uspin_preempt where)
{
	uint64_t pre[SIM_USPIN_PREEMPT_KINDS], spun;

	spin_case_run(SIM_PREEMPT_LAZY, c, pre, &spun);
	ASSERT_TRUE(c->got);
	ASSERT_U64_EQ(spin_log_at(c, 'w'), woken_at);
	ASSERT_U64_EQ(spin_log_at(c, 's'), 6000 * US);
	for (int k = 0; k < SIM_USPIN_PREEMPT_KINDS; k++)
		ASSERT_U64_EQ(pre[k], k == (int)where ? 1 : 0);
}

TEST(preempt_lazy_user_spinner_at_tick_or_interrupt)
{
	struct spin_case tick = { .hold = 6 * MS, .budget = 10 * MS };
	struct spin_case irq = { .hold = 6 * MS, .budget = 10 * MS, .irq_at = 1500 * US };

	lazy_spinner_preempted_once(&tick, 4000 * US, SIM_USPIN_PREEMPT_TICK);
	lazy_spinner_preempted_once(&irq, 1510 * US, SIM_USPIN_PREEMPT_RETURN);
}

/* ---- a request from a later wake-up of a batch ---- */

struct batch_case {
	struct st_log	log;
	struct sim_spinlock spin;
	struct sim_waitq q;
	unsigned int	lock_step;	/* the holder holds the lock over this 100-us step */
};

/* Holder, on CPU 0, in user mode: 30 steps of 100 us, a sync after each;
 * the user spinlock held over step `lock_step` (taken at its start,
 * released at its end). */
static void batch_holder(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	for (unsigned int i = 1; i <= 30; i++) {
		if (i == c->lock_step && !sim_uspin_lock_for(sim, &c->spin, 0))
			SIM_BUG("test: the user spinlock is free");
		sim_charge(sim, 100 * US);
		sim_sync(sim);
		if (i == c->lock_step)
			sim_uspin_unlock(sim, &c->spin);
	}
}

/* Sleepers on the wait queue: "far" (pinned to CPU 1) queued first, then
 * "near" (pinned to CPU 0); each logs its tag when it runs. */
static void batch_sleeper(struct sim *sim, void *p)
{
	struct batch_case *c = p;
	int tag = strcmp(sim_task_name(sim_current(sim)), "near") ? 'f' : 'n';

	sim_wait(sim, &c->q, SIM_TIME_NEVER);
	st_log_add(&c->log, sim_now(sim), tag);
}

/* The waker, on CPU 1: at 950 us wakes the whole queue (200 us per
 * wake-up: "far" at 950 us, "near" at 1150 us). */
static void batch_waker(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	sim_sleep_until(sim, 950 * US);
	sim_wake_all(sim, &c->q);
}

/* A model on `ncpus` CPUs whose wake-ups cost the waker `wakeup_us` and
 * whose context switches cost `switch_us`, every other engine cost 0;
 * the case's spinlock and wait queue initialised. */
static struct sim *case_sim(unsigned int ncpus, int preempt, uint64_t wakeup_us,
			    uint64_t switch_us, struct batch_case *c)
{
	struct cost_table ct;
	struct sim_config cfg = {
		.ncpus = ncpus, .seed = 1, .preempt = preempt, .tick_ns = 4 * MS,
	};
	struct sim *sim;

	cost_table_init(&ct);
	ct.ps[COST_context_switch] = switch_us * US * 1000;	/* ps */
	ct.ps[COST_wakeup] = wakeup_us * US * 1000;
	ct.ps[COST_spin_handoff] = 0;
	ct.ps[COST_pg_tas_handoff] = 0;
	cfg.costs = &ct;
	sim = sim_create(&cfg);
	sim_spin_init(sim, &c->spin, "test_uspin");
	sim_waitq_init(&c->q, "test_batch");
	return sim;
}

/* The batch cases: wake-ups of 200 us (the batch's instants), free
 * context switches. */
static struct sim *batch_sim(unsigned int ncpus, int preempt, struct batch_case *c)
{
	return case_sim(ncpus, preempt, 200, 0, c);
}

static struct sim *batch_run(int preempt, struct batch_case *c)
{
	struct sim *sim = batch_sim(2, preempt, c);

	st_task(sim, "far", 1, true, batch_sleeper, c, 0);
	st_task(sim, "near", 0, true, batch_sleeper, c, 0);
	st_task(sim, "waker", 1, true, batch_waker, c, 0);
	st_task(sim, "holder", 0, true, batch_holder, c, 0);
	sim_run(sim, SIM_TIME_NEVER);
	return sim;
}

/* When the case's log has its `nth` entry (from 0) tagged `tag`. */
static sim_time_t case_log_at(const struct batch_case *c, int tag, unsigned int nth)
{
	for (unsigned int i = 0; i < c->log.n; i++)
		if (c->log.tag[i] == tag && nth-- == 0)
			return c->log.t[i];
	return SIM_TIME_NEVER;
}


/* A test of a request's instant (two CPUs: base slice 1.5 ms).  A waker
 * on CPU 1 wakes two sleepers at 950 us in one call; each wake-up costs
 * it 200 us, so "near" (pinned to CPU 0) is woken at 1150 us, although
 * the engine runs both wake-ups at 950.  The holder on CPU 0, past its
 * first half slice, gets the request of near's wake-up: from 1150 us on.
 * Expect, under none and full, "far" to run when the waker ends (1350 us:
 * the waker, new on its CPU, keeps it to parity), and
 *   - lock held over 1000..1100: the acquisition (1000) and the release
 *     (1100) come before the request and do not act on it; the holder is
 *     preempted at 1200 without the lock: near runs at 1200, no holder
 *     preempted;
 *   - lock held over 1100..1200: the request lands inside the section and
 *     acts at its end, before the release: one holder preempted on the
 *     IPI, near runs at 1200.
 * (Acting on the request from the engine's 950 us would preempt the
 * holder at 1000, before near's wake-up, and leave CPU 0 idle to 1150.) */
TEST(preempt_request_acts_from_its_wakeup_instant)
{
	static const int models[] = { SIM_PREEMPT_NONE, SIM_PREEMPT_FULL };

	for (unsigned int m = 0; m < 2; m++) {
		for (unsigned int step = 11; step <= 12; step++) {
			struct batch_case c = { .lock_step = step };
			struct sim *sim = batch_run(models[m], &c);

			ASSERT_U64_EQ(case_log_at(&c, 'f', 0), 1350 * US);
			ASSERT_U64_EQ(case_log_at(&c, 'n', 0), 1200 * US);
			ASSERT_U64_EQ(sim_uspin_holder_preempts(sim, SIM_USPIN_PREEMPT_IPI),
				      step == 12 ? 1 : 0);
			sim_destroy(sim);
		}
	}
}

/* Spinner, on CPU 0, in user mode: ten steps of 100 us, then spins for
 * the lock (5 ms budget); logs 's' when it stops spinning. */
static void batch_spinner(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	for (unsigned int i = 1; i <= 10; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
	if (sim_uspin_lock_for(sim, &c->spin, 5 * MS)) {
		st_log_add(&c->log, sim_now(sim), 's');
		sim_uspin_unlock(sim, &c->spin);
	}
}

/* Holder, on CPU 1: the lock over 0..2000 us. */
static void batch_lock_holder(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	if (!sim_uspin_lock_for(sim, &c->spin, 0))
		SIM_BUG("test: the user spinlock is free");
	sim_charge(sim, 2 * MS);
	sim_sync(sim);
	sim_uspin_unlock(sim, &c->spin);
}

/* A test of a request made for later than the spin's start (three CPUs:
 * base slice 1.5 ms).  The waker on CPU 2 wakes "far" (CPU 2) and "near"
 * (CPU 0) at 950 us in one call, near at 1150 us; the spinner on CPU 0,
 * past its first half slice, gets near's request before it starts to
 * spin at 1000 us.  Expect under none and full the request's IPI at
 * 1150 us to preempt the spinner mid-spin (near runs at 1150, one
 * spinner preemption on the IPI) and the spinner to be handed the lock
 * at its release (2000 us); without a check at the request's instant
 * the spinner would spin on to the release. */
TEST(preempt_user_spinner_by_a_later_request)
{
	static const int models[] = { SIM_PREEMPT_NONE, SIM_PREEMPT_FULL };

	for (unsigned int m = 0; m < 2; m++) {
		struct batch_case c = { 0 };
		struct sim *sim = batch_sim(3, models[m], &c);

		st_task(sim, "far", 2, true, batch_sleeper, &c, 0);
		st_task(sim, "near", 0, true, batch_sleeper, &c, 0);
		st_task(sim, "waker", 2, true, batch_waker, &c, 0);
		st_task(sim, "holder", 1, true, batch_lock_holder, &c, 0);
		st_task(sim, "spinner", 0, true, batch_spinner, &c, 0);
		sim_run(sim, SIM_TIME_NEVER);
		ASSERT_U64_EQ(case_log_at(&c, 'n', 0), 1150 * US);
		ASSERT_U64_EQ(case_log_at(&c, 's', 0), 2000 * US);
		ASSERT_U64_EQ(sim_uspin_spinner_preempts(sim, SIM_USPIN_PREEMPT_IPI), 1);
		sim_destroy(sim);
	}
}

/* Holder, on CPU 0, in user mode: 60 steps of 100 us, a sync after each
 * but the one before step `lock_step` (so that the lock's acquisition is
 * the sync point); the user spinlock held over step `lock_step`; logs 'a'
 * when it has the lock and 'r' when it released it. */
static void loop_holder(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	for (unsigned int i = 1; i <= 60; i++) {
		if (i == c->lock_step) {
			if (!sim_uspin_lock_for(sim, &c->spin, 0))
				SIM_BUG("test: the user spinlock is free");
			st_log_add(&c->log, sim_now(sim), 'a');
		}
		sim_charge(sim, 100 * US);
		if (i + 1 != c->lock_step)
			sim_sync(sim);
		if (i == c->lock_step) {
			sim_uspin_unlock(sim, &c->spin);
			st_log_add(&c->log, sim_now(sim), 'r');
		}
	}
}

/* "near", on CPU 0: logs 'n' each time it runs, then waits on the queue
 * (woken once: its second wait lasts to the end of the run). */
static void loop_near(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	for (int i = 0; i < 2; i++) {
		st_log_add(&c->log, sim_now(sim), 'n');
		sim_wait(sim, &c->q, SIM_TIME_NEVER);
	}
}

/* The waker, on CPU 1: woken at 4050 us, wakes near at 4150 (after its
 * own switch in). */
static void loop_waker(struct sim *sim, void *p)
{
	struct batch_case *c = p;

	sim_sleep_until(sim, 4050 * US);
	sim_sync(sim);
	sim_wake_all(sim, &c->q);
}

/* A test of the test for a request after a preemption (two CPUs: base
 * slice 1.5 ms; context switches of 100 us).  The holder runs from 0 in
 * user mode and takes the spinlock at 4000 us, a sync point with no other
 * before it since 3900; "near" is queued on its CPU from the start.  The
 * tick at 4000 us preempts the holder before it takes the lock (its slice
 * is over); near runs (4000..4100, its switch in), then waits, with the
 * lag it was owed.  The holder pays its switch back in over 4100..4200,
 * and the waker on CPU 1 wakes near at 4150 us: placed with that lag, near
 * is eligible and the holder is not, so the holder gets a request.
 * Expect, under none, full and lazy, the holder to test it at 4200 on its
 * way back (exit_to_user_mode_loop), before it takes the lock: near runs
 * again at 4300 (switch in paid), the holder takes the lock at 4400
 * and releases it at 4500, and no holder is preempted.  A holder that
 * took the lock at 4200 without the test would be preempted holding it at
 * its next sync point (4300) and near would run at 4400 only. */
TEST(preempt_request_during_the_switch_back_in)
{
	static const int models[] = { SIM_PREEMPT_NONE, SIM_PREEMPT_FULL, SIM_PREEMPT_LAZY };

	for (unsigned int m = 0; m < 3; m++) {
		struct batch_case c = { .lock_step = 40 };
		struct sim *sim = case_sim(2, models[m], 0, 100, &c);
		uint64_t held = 0;

		st_task(sim, "holder", 0, true, loop_holder, &c, 0);
		st_task(sim, "near", 0, true, loop_near, &c, 0);
		st_task(sim, "waker", 1, true, loop_waker, &c, 0);
		sim_run(sim, SIM_TIME_NEVER);
		ASSERT_U64_EQ(case_log_at(&c, 'n', 0), 4100 * US);
		ASSERT_U64_EQ(case_log_at(&c, 'n', 1), 4300 * US);
		ASSERT_U64_EQ(case_log_at(&c, 'a', 0), 4400 * US);
		ASSERT_U64_EQ(case_log_at(&c, 'r', 0), 4500 * US);
		for (int k = 0; k < SIM_USPIN_PREEMPT_KINDS; k++)
			held += sim_uspin_holder_preempts(sim, k);
		ASSERT_U64_EQ(held, 0);
		sim_destroy(sim);
	}
}

/* wake_ipi across CPUs: W (CPU 0) wakes S onto CPU 1, where the worker runs */
struct xcpu {
	struct prog	g;
	struct sim_waitq q;
	sim_time_t	s_ran, w_after;
	uint64_t	idle_wakeups;
};

static void xcpu_sleeper(struct sim *sim, void *p)
{
	struct xcpu *x = p;

	sim_wait(sim, &x->q, SIM_TIME_NEVER);
	x->s_ran = sim_now(sim);
}

static void xcpu_waker(struct sim *sim, void *p)
{
	struct xcpu *x = p;

	sim_sleep_until(sim, 1000 * US);
	sim_wake_one(sim, &x->q);
	x->w_after = sim_now(sim);
}

static uint64_t xcpu_ipis(int preempt, struct xcpu *x)
{
	struct cost_table c;
	struct sim_config cfg = { .ncpus = 2, .seed = 1, .preempt = preempt, .tick_ns = 4 * MS };
	struct sim *sim;
	uint64_t n;

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_spin_handoff] = 0;
	c.ps[COST_wake_ipi] = 7 * US * 1000;
	cfg.costs = &c;
	sim = sim_create(&cfg);
	x->g.steps = 50;
	sim_waitq_init(&x->q, "xcpu");
	st_task(sim, "S", 1, true, xcpu_sleeper, x, 0);
	st_task(sim, "worker", 1, true, worker, &x->g, 0);
	st_task(sim, "W", 0, true, xcpu_waker, x, 0);
	sim_run(sim, SIM_TIME_NEVER);
	n = sim_wake_ipis(sim);
	x->idle_wakeups = sim_idle_wakeups(sim);
	sim_destroy(sim);
	return n;
}

/* A test of the reschedule IPI of a wake-up across CPUs (wake_ipi 7 us,
 * other engine costs zero, 2 CPUs).  A user-mode worker runs 5 ms on
 * CPU 1 in 100-us steps; W on CPU 0 wakes S, pinned to CPU 1, at 1 ms,
 * when the worker is past its first (half) slice, so the wake-up asks it
 * to reschedule.  Expect under none the full bit and its IPI: one IPI, W's
 * clock at 1007 us, S on CPU 1 at the worker's next sync point (1100 us);
 * under lazy only the lazy bit, no IPI (W at 1000 us) and S at the tick
 * (4000 us).  Neither wake-up found CPU 1 idle. */
TEST(preempt_wakeup_ipi_only_for_the_full_bit)
{
	struct xcpu none = { 0 }, lazy = { 0 };

	ASSERT_U64_EQ(xcpu_ipis(SIM_PREEMPT_NONE, &none), 1);
	ASSERT_U64_EQ(none.w_after, 1007 * US);
	ASSERT_U64_EQ(none.s_ran, 1100 * US);
	ASSERT_U64_EQ(xcpu_ipis(SIM_PREEMPT_LAZY, &lazy), 0);
	ASSERT_U64_EQ(lazy.w_after, 1000 * US);
	ASSERT_U64_EQ(lazy.s_ran, 4000 * US);
	/* only W's own timer found an idle CPU (its CPU 0) */
	ASSERT_U64_EQ(none.idle_wakeups, 1);
	ASSERT_U64_EQ(lazy.idle_wakeups, 1);
}

/* ---- task_hot in newidle balancing ---------------------------------------------- */

struct hot {
	sim_time_t	b_exit;		/* when B, alone on CPU 1, exits */
	sim_time_t	a_second;	/* out: when A's second run started */
	unsigned int	a_cpu;		/* out: on which CPU */
};

/* A: 400 us of CPU, a sleep until 600 us, then 100 us more. */
static void hot_a(struct sim *sim, void *p)
{
	struct hot *h = p;

	sim_charge(sim, 400 * US);
	sim_sync(sim);
	sim_sleep_until(sim, 600 * US);
	h->a_second = sim_now(sim);
	h->a_cpu = sim_cpu(sim);
	sim_charge(sim, 100 * US);
	sim_sync(sim);
}

/* B, pinned to CPU 1: runs until b_exit, then exits. */
static void hot_b(struct sim *sim, void *p)
{
	struct hot *h = p;

	sim_charge(sim, h->b_exit);
	sim_sync(sim);
}

/* H, pinned to CPU 0: 1.5 ms of user-mode CPU in 100-us steps. */
static void hot_h(struct sim *sim, void *p)
{
	(void)p;
	for (int i = 0; i < 15; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

static uint64_t hot_run(sim_time_t migration_cost, struct hot *h)
{
	struct sim *sim = sim_model_cfg((struct sim_config){
		.ncpus = 2, .seed = 1, .preempt = SIM_PREEMPT_NONE, .tick_ns = 4 * MS,
		.migration_cost = migration_cost,
	});
	uint64_t fails;

	st_task(sim, "A", 0, false, hot_a, h, 0);
	st_task(sim, "B", 1, true, hot_b, h, 0);
	st_task(sim, "H", 0, true, hot_h, h, 100 * US);
	sim_run(sim, SIM_TIME_NEVER);
	fails = sim_newidle_hot_fails(sim);
	sim_destroy(sim);
	return fails;
}

/* A test of task_hot in newidle balancing (preempt=none, 2 CPUs, a 4 ms
 * tick, engine costs zero).  A runs on CPU 0 from 0 to 400 us; H, pinned
 * to CPU 0 and started at 100 us (CPU 1 runs B), queues there and runs
 * from 400 to 1 900 us.  A wakes at 600 us onto CPU 0's queue (no CPU is
 * idle; H's slice is protected, so the wake-up does not preempt it, and
 * no tick comes before H ends).  When B exits:
 *   - at 800 us with migration_cost 500 us: A left CPU 0 400 us ago, it is
 *     cache-hot, CPU 1 stays idle (one failed newidle balance), and A runs
 *     on CPU 0 when H exits at 1 900 us;
 *   - at 800 us with migration_cost 0: CPU 1 pulls A at once (800 us);
 *   - at 1 000 us with migration_cost 500 us: A left CPU 0 600 us ago, it
 *     is cold, and CPU 1 pulls it at 1 000 us. */
TEST(preempt_newidle_leaves_a_cache_hot_task)
{
	struct hot hot = { .b_exit = 800 * US }, none = { .b_exit = 800 * US },
		   cold = { .b_exit = 1000 * US };

	ASSERT_U64_EQ(hot_run(500 * US, &hot), 1);
	ASSERT_EQ(hot.a_cpu, 0);
	ASSERT_U64_EQ(hot.a_second, 1900 * US);
	ASSERT_U64_EQ(hot_run(0, &none), 0);
	ASSERT_EQ(none.a_cpu, 1);
	ASSERT_U64_EQ(none.a_second, 800 * US);
	ASSERT_U64_EQ(hot_run(500 * US, &cold), 0);
	ASSERT_EQ(cold.a_cpu, 1);
	ASSERT_U64_EQ(cold.a_second, 1000 * US);
}

/* ---- periodic and nohz-idle balancing --------------------------------------------- */

struct bal {
	sim_time_t	first_on1;	/* out: first instant an unpinned task ran on CPU 1 */
	struct sim_balance_stats at_move;	/* out: the balance statistics then */
	sim_time_t	wake_at;	/* A and C: their sleep ends here (0: no sleep) */
	unsigned int	steps;		/* A and C: 100-us steps after it */
};

/* A or C: 100 us, a sleep until wake_at, then `steps` steps of 100 us;
 * notes the first step that starts on CPU 1. */
static void bal_worker(struct sim *sim, void *p)
{
	struct bal *b = p;

	sim_charge(sim, 100 * US);
	sim_sync(sim);
	if (b->wake_at)
		sim_sleep_until(sim, b->wake_at);
	for (unsigned int i = 0; i < b->steps; i++) {
		if (sim_cpu(sim) == 1 && b->first_on1 == SIM_TIME_NEVER) {
			b->first_on1 = sim_now(sim);
			sim_balance_stats(sim, &b->at_move);
		}
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

/* A pinned task: 40 ms of user-mode CPU in 100-us steps. */
static void bal_pinned(struct sim *sim, void *p)
{
	(void)p;
	for (int i = 0; i < 400; i++) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

static struct sim_balance_stats bal_run(struct sim_config cfg, bool busy1, struct bal *b)
{
	struct sim_balance_stats st;
	struct sim *sim;

	cfg.ncpus = 2;
	cfg.seed = 1;
	cfg.preempt = SIM_PREEMPT_NONE;
	cfg.tick_ns = 4 * MS;
	sim = sim_model_cfg(cfg);
	b->first_on1 = SIM_TIME_NEVER;
	st_task(sim, "A", 0, false, bal_worker, b, 0);
	st_task(sim, "C", 0, false, bal_worker, b, 0);
	st_task(sim, "H", 0, true, bal_pinned, NULL, 0);
	if (busy1)
		st_task(sim, "B", 1, true, bal_pinned, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
	sim_balance_stats(sim, &st);
	sim_destroy(sim);
	return st;
}

/* nohz-idle balancing (preempt=none, 2 CPUs, a 4 ms tick, engine costs
 * zero, llc_cpus 1 so that wake-ups stay on their previous CPU).  A and C
 * run 100 us each on CPU 0, sleep until 1 ms and wake onto CPU 0's queue,
 * where the pinned H runs; CPU 1 never runs anything, so no newidle
 * balance looks at CPU 0.  At CPU 0's tick at 4 ms three tasks are
 * runnable there and CPU 1 idles: the tick kicks the nohz balancer, and
 * CPU 1's balance wants half of CPU 0's three, one task.
 *   - migration_cost 100 ms (every task that ran is hot): the kicks at 4
 *     and 8 ms (CPU 1's interval, 2 ms, is one jiffy) fail; at 12 ms
 *     nr_balance_failed (2) exceeds cache_nice_tries (1) and a hot task
 *     moves: the first run on CPU 1 is at 12 ms, after two failures.
 *   - migration_cost 0: the first kick moves one, at 4 ms.
 *   - periodic_balance off: nothing ever runs on CPU 1 (no CPU goes
 *     newly idle while tasks wait).
 *   - llc_cpus 0 (one cache): A wakes at 1 ms onto idle CPU 1. */
TEST(preempt_nohz_balance_moves_a_hot_task_after_two_failures)
{
	struct bal b = { .wake_at = 1 * MS, .steps = 150 };
	struct sim_balance_stats st;

	st = bal_run((struct sim_config){ .migration_cost = 100 * MS, .periodic_balance = true,
					  .llc_cpus = 1 }, false, &b);
	ASSERT_U64_EQ(b.first_on1, 12 * MS);
	ASSERT_U64_EQ(b.at_move.nohz_kicks, 3);
	ASSERT_U64_EQ(b.at_move.failed, 2);
	ASSERT_U64_EQ(b.at_move.moved, 1);
	ASSERT_U64_EQ(b.at_move.runs, 3);

	st = bal_run((struct sim_config){ .migration_cost = 0, .periodic_balance = true,
					  .llc_cpus = 1 }, false, &b);
	ASSERT_U64_EQ(b.first_on1, 4 * MS);
	ASSERT_U64_EQ(b.at_move.failed, 0);
	ASSERT_U64_EQ(b.at_move.moved, 1);

	st = bal_run((struct sim_config){ .migration_cost = 100 * MS, .periodic_balance = false,
					  .llc_cpus = 1 }, false, &b);
	ASSERT_U64_EQ(b.first_on1, SIM_TIME_NEVER);
	ASSERT_U64_EQ(st.runs, 0);

	st = bal_run((struct sim_config){ .migration_cost = 100 * MS, .periodic_balance = true,
					  .llc_cpus = 0 }, false, &b);
	ASSERT_U64_EQ(b.first_on1, 1 * MS);
}

/* Busy balancing: as above with migration_cost 0, no sleep, and B pinned
 * to CPU 1, so no CPU idles and nothing is kicked.  CPU 1 balances at its
 * own tick once last_balance (0) + its busy interval has passed: 2 ms x
 * busy_factor 16 = 8 jiffies, less one, 28 ms.  CPU 0 has three runnable
 * tasks, CPU 1 one, the average two: one task moves, and as a wake-up
 * would it preempts B at once (B's deadline was just renewed by the tick;
 * the newcomer's lag from CPU 0's queue puts it first): the first run of
 * A or C on CPU 1 is at 28 ms.  Without periodic balancing, at 40 ms, when
 * B exits and CPU 1 pulls from CPU 0's queue (newidle).  (After the
 * move CPU 1 may go idle beside CPU 0's queue: llc_cpus 1 weighs util,
 * "preempt_newidle_weighs_util".) */
TEST(preempt_busy_balance_at_the_tick)
{
	struct bal b = { .wake_at = 0, .steps = 300 };
	struct sim_balance_stats st;

	st = bal_run((struct sim_config){ .periodic_balance = true, .llc_cpus = 1 }, true, &b);
	ASSERT_U64_EQ(b.first_on1, 28 * MS);
	ASSERT_U64_EQ(b.at_move.nohz_kicks, 0);
	ASSERT_U64_EQ(b.at_move.moved, 1);
	ASSERT_U64_EQ(b.at_move.failed, 0);

	st = bal_run((struct sim_config){ .periodic_balance = false, .llc_cpus = 1 }, true, &b);
	ASSERT_U64_EQ(b.first_on1, 40 * MS);
	ASSERT_U64_EQ(st.runs, 0);
}

/*
 * The util rule of calculate_imbalance (migrate_util; llc_cpus 1, so the
 * one domain has no SD_SHARE_LLC), with migration_cost 0 so that no task
 * is cache-hot and periodic balancing off unless said.  Q runs alone on
 * CPU 0 from 0; P, pinned to CPU 0, wakes at 60 ms and runs to 160 ms, so
 * from 60 ms CPU 0 has two runnable tasks and its runnable signal passes
 * 117 % of a CPU (overloaded) about 35 ms later.  W runs on CPU 1 and
 * exits at 102 ms; CPU 1's newidle balance then looks at Q, queued behind P
 * (P took CPU 0 at its tick at 100 ms).
 *   - W busy from 0 to 100 ms: CPU 1's util is about 1024 x (1 - 2^-3),
 *     ~890, its spare capacity ~130, and Q's util (~600: alone for 60 ms,
 *     then half the CPU) does not fit: CPU 1 idles and Q never runs there.
 *   - the same with one cache for both CPUs (llc_cpus 0, the count rule):
 *     Q moves at 102 ms.
 *   - W light (5 ms from 0 and from 97 ms): CPU 1's util is ~190, Q fits and
 *     moves at 102 ms.
 *   - W busy, periodic balancing on: once CPU 1 idles, CPU 0's ticks
 *     kick the nohz balancer every 4 ms.  A kick that finds Q queued fails
 *     (Q's util is over CPU 1's spare capacity), one that finds P queued
 *     and Q running finds every candidate pinned and resets the failure
 *     count; meanwhile CPU 1's util decays and its spare grows (161 at
 *     104 ms, 579 at 136 ms), until at 136 ms, the ninth kick, Q fits and
 *     moves, after four failures of idle balances and one of CPU 1's own
 *     busy balance at 88 ms: W alone, its util still under capacity /
 *     1.17, leaves CPU 1 spare capacity (group_has_spare), so that balance
 *     weighs util too, and Q does not fit.
 */
struct utilcase {
	bool		light;
	sim_time_t	q_first_on1;
	struct sim_balance_stats at_move;
};

static void util_q(struct sim *sim, void *p)
{
	struct utilcase *u = p;

	for (int i = 0; i < 1600; i++) {
		if (sim_cpu(sim) == 1 && u->q_first_on1 == SIM_TIME_NEVER) {
			u->q_first_on1 = sim_now(sim);
			sim_balance_stats(sim, &u->at_move);
		}
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

static void util_p(struct sim *sim, void *p)
{
	(void)p;
	sim_sleep_until(sim, 60 * MS);
	while (sim_now(sim) < 160 * MS) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

static void util_w(struct sim *sim, void *p)
{
	const struct utilcase *u = p;

	if (u->light) {
		sim_charge(sim, 5 * MS);
		sim_sync(sim);
		sim_sleep_until(sim, 97 * MS);
	}
	while (sim_now(sim) < 102 * MS) {
		sim_charge(sim, 100 * US);
		sim_sync(sim);
	}
}

static uint64_t util_run(struct sim_config cfg, struct utilcase *u)
{
	struct sim *sim;
	uint64_t fails;

	cfg.ncpus = 2;
	cfg.seed = 1;
	cfg.preempt = SIM_PREEMPT_NONE;
	cfg.tick_ns = 4 * MS;
	cfg.migration_cost = 0;
	sim = sim_model_cfg(cfg);
	u->q_first_on1 = SIM_TIME_NEVER;
	st_task(sim, "Q", 0, false, util_q, u, 0);
	st_task(sim, "P", 0, true, util_p, u, 0);
	st_task(sim, "W", 1, true, util_w, u, 0);
	sim_run(sim, SIM_TIME_NEVER);
	fails = sim_newidle_util_fails(sim);
	sim_destroy(sim);
	return fails;
}

TEST(preempt_newidle_weighs_util)
{
	struct utilcase u = { .light = false };

	ASSERT_U64_EQ(util_run((struct sim_config){ .llc_cpus = 1 }, &u), 1);
	ASSERT_U64_EQ(u.q_first_on1, SIM_TIME_NEVER);

	ASSERT_U64_EQ(util_run((struct sim_config){ .llc_cpus = 0 }, &u), 0);
	ASSERT_U64_EQ(u.q_first_on1, 102 * MS);

	u.light = true;
	ASSERT_U64_EQ(util_run((struct sim_config){ .llc_cpus = 1 }, &u), 0);
	ASSERT_U64_EQ(u.q_first_on1, 102 * MS);

	u.light = false;
	util_run((struct sim_config){ .llc_cpus = 1, .periodic_balance = true }, &u);
	ASSERT_U64_EQ(u.q_first_on1, 136 * MS);
	ASSERT_U64_EQ(u.at_move.failed, 5);
	ASSERT_U64_EQ(u.at_move.nohz_kicks, 9);
	ASSERT_U64_EQ(u.at_move.moved, 1);
}

/* Four 50-us steps in user mode, a sync after each; logs 'd' at the end. */
static void four_steps(struct sim *sim, void *p)
{
	struct st_log *log = p;

	for (unsigned int k = 0; k < 4; k++) {
		sim_charge(sim, 50 * US);
		sim_sync(sim);
	}
	st_log_add(log, sim_now(sim), 'd');
}

/* A test of RUN_TO_PARITY (one CPU, base slice 0.75 ms): a and b start at
 * 0, a first.  Both are new, placed at the average with half a slice to
 * their deadlines (375 us), so b's deadline ties a's and b, queued, wins
 * a pick on the tie.  Expect with run_to_parity (the kernel's default) a
 * to keep its CPU for its whole 200 us (a protected owner is not
 * preempted by a wake-up while it is eligible): a ends at 200, b at 400;
 * with no_run_to_parity b's arrival preempts a at its first sync point:
 * b runs 50..250, a ends at 400, one preemption of a. */
TEST(preempt_run_to_parity_protects_the_slice)
{
	for (int off = 0; off < 2; off++) {
		struct st_log la = { 0 }, lb = { 0 };
		struct sim *sim = sim_model_cfg((struct sim_config){
			.ncpus = 1, .seed = 1, .preempt = SIM_PREEMPT_NONE, .tick_ns = 4 * MS,
			.no_run_to_parity = off,
		});
		struct sim_task *a = st_task(sim, "a", 0, true, four_steps, &la, 0);
		struct sim_task_stats sa;

		st_task(sim, "b", 0, true, four_steps, &lb, 0);
		sim_run(sim, SIM_TIME_NEVER);
		sim_task_stats(a, &sa);
		ASSERT_EQ(la.n, 1);
		ASSERT_EQ(lb.n, 1);
		ASSERT_U64_EQ(la.t[0], off ? 400 * US : 200 * US);
		ASSERT_U64_EQ(lb.t[0], off ? 250 * US : 400 * US);
		ASSERT_U64_EQ(sa.preempts, off ? 1 : 0);
		ASSERT_U64_EQ(sa.blocks, 0);
		sim_destroy(sim);
	}
}

static void sleeps_twice(struct sim *sim, void *p)
{
	(void)p;
	sim_sleep(sim, 100 * US);
	sim_charge(sim, 10 * US);
	sim_sync(sim);
	sim_sleep(sim, 100 * US);
}

/* A test of the context-switch counts (/proc's voluntary and nonvoluntary
 * ctxt_switches): a task that sleeps twice alone on its CPU.  Expect two
 * blocks, no preemption and three switches in (start, two wake-ups). */
TEST(preempt_counts_voluntary_switches)
{
	struct sim *sim = sim_model(1, SIM_PREEMPT_NONE);
	struct sim_task *t = st_task(sim, "s", 0, true, sleeps_twice, NULL, 0);
	struct sim_task_stats st;

	sim_run(sim, SIM_TIME_NEVER);
	sim_task_stats(t, &st);
	ASSERT_U64_EQ(st.blocks, 2);
	ASSERT_U64_EQ(st.preempts, 0);
	ASSERT_U64_EQ(st.switches, 3);
	sim_destroy(sim);
}

/* DELAY_DEQUEUE's programs: `a` runs 300 us, sleeps `a_sleep`, runs 100 us
 * and logs its CPU ('0' + cpu) at the end; `b` runs `b_first` in 50-us
 * steps, sleeps 50 us if it ran less than 1 ms, then runs up to 1 ms in
 * all, and logs 'b'. */
struct delaycase {
	struct st_log	log;
	sim_time_t	a_sleep, b_first;
};

static void delay_a(struct sim *sim, void *p)
{
	struct delaycase *d = p;

	sim_charge(sim, 300 * US);
	sim_sync(sim);
	sim_sleep(sim, d->a_sleep);
	sim_charge(sim, 100 * US);
	sim_sync(sim);
	st_log_add(&d->log, sim_now(sim), (int)('0' + sim_cpu(sim)));
}

static void delay_b(struct sim *sim, void *p)
{
	struct delaycase *d = p;

	for (sim_time_t ran = 0; ran < 1000 * US; ran += 50 * US) {
		if (ran == d->b_first)
			sim_sleep(sim, 50 * US);
		sim_charge(sim, 50 * US);
		sim_sync(sim);
	}
	st_log_add(&d->log, sim_now(sim), 'b');
}

static struct sim *delay_run(struct delaycase *d, bool delay)
{
	struct cost_table c;
	struct sim *sim;

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_idle_exit] = 0;
	c.ps[COST_wake_ipi] = 0;
	sim = sim_create(&(struct sim_config){
		.ncpus = 2, .seed = 1, .preempt = SIM_PREEMPT_NONE, .tick_ns = 4 * MS,
		.delay_dequeue = delay, .costs = &c,
	});
	d->log.n = 0;
	st_task(sim, "a", 0, false, delay_a, d, 0);
	st_task(sim, "b", 0, true, delay_b, d, 0);
	sim_run(sim, SIM_TIME_NEVER);
	return sim;
}

/* A test of DELAY_DEQUEUE (two CPUs, CPU 1 idle throughout, base slice
 * 0.75 ms): a and b start on CPU 0 at 0, a first (both new, deadlines
 * tied at 375 us; RUN_TO_PARITY keeps a).  a sleeps at 300 us, its
 * vruntime 300 above the average 150: not eligible.  Without the feature
 * it leaves the queue, and its wake-up at 400 us finds CPU 0 busy with b
 * and CPU 1 idle: a ends on CPU 1 at 500 us, b at 1 300 us.  With it, a
 * stays queued on CPU 0; at 400 us its vruntime 300 is still above the
 * average 200 (b has run 100 us), so the wake-up leaves it on CPU 0
 * (ttwu_runnable) behind b, whose slice RUN_TO_PARITY protects: a ends on
 * CPU 0 at 1 400 us, after b at 1 300 us. */
TEST(preempt_delay_dequeue_wakes_in_place)
{
	for (int on = 0; on < 2; on++) {
		struct delaycase d = { .a_sleep = 100 * US, .b_first = 2000 * US };
		struct sim *sim = delay_run(&d, on);

		ASSERT_EQ(d.log.n, 2);
		ASSERT_EQ(d.log.tag[0], on ? 'b' : '1');
		ASSERT_U64_EQ(d.log.t[0], on ? 1300 * US : 500 * US);
		ASSERT_EQ(d.log.tag[1], on ? '0' : 'b');
		ASSERT_U64_EQ(d.log.t[1], on ? 1400 * US : 1300 * US);
		ASSERT_U64_EQ(sim_delayed_dequeues(sim), on ? 1 : 0);
		ASSERT_U64_EQ(sim_delayed_wakeups(sim), on ? 1 : 0);
		ASSERT_U64_EQ(sim_delayed_picks(sim), 0);
		sim_destroy(sim);
	}
}

/* The delayed sleep ended by a pick: as above, but b sleeps 50 us after
 * 200 us (at 500 us, eligible: vruntime 200 against the average 250, so it
 * leaves the queue), and a sleeps 400 us.  At b's sleep EEVDF picks the
 * delayed a, alone and so eligible, which leaves the queue and CPU 0
 * idles; b's wake-up at 550 us finds its CPU idle, and a's at 700 us finds
 * CPU 0 busy and goes to the idle CPU 1 by the usual selection: a ends on
 * CPU 1 at 800 us, b at 1 350 us. */
TEST(preempt_delay_dequeue_ends_at_a_pick)
{
	struct delaycase d = { .a_sleep = 400 * US, .b_first = 200 * US };
	struct sim *sim = delay_run(&d, true);

	ASSERT_EQ(d.log.n, 2);
	ASSERT_EQ(d.log.tag[0], '1');
	ASSERT_U64_EQ(d.log.t[0], 800 * US);
	ASSERT_EQ(d.log.tag[1], 'b');
	ASSERT_U64_EQ(d.log.t[1], 1350 * US);
	ASSERT_U64_EQ(sim_delayed_dequeues(sim), 1);
	ASSERT_U64_EQ(sim_delayed_wakeups(sim), 0);
	ASSERT_U64_EQ(sim_delayed_picks(sim), 1);
	sim_destroy(sim);
}
