/* SPDX-License-Identifier: MIT */
/* Tests of the hung-task detector (sim_check_hung_tasks, khungtaskd's
 * check in kernel/hung_task.c): which sleeps count as uninterruptible,
 * when a task is first reported, that running again restarts its clock,
 * and that a check changes nothing in the model. */
#include "harness.h"
#include "sim_test.h"

#define SEC SIM_NSEC_PER_SEC

struct hung_case {
	struct sim	*sim;
	struct sim_waitq never;		/* nobody wakes it */
	struct sim_waitq idle;
	struct sim_mutex lock;
	unsigned int	seen;
	char		names[8][32];
	sim_time_t	blocked[8];
	const char	*where[8];
};

/* D state: block I/O that never completes, inside a named path. */
static void io_waiter(struct sim *sim, void *p)
{
	struct hung_case *c = p;

	sim_path_push(sim, "folio_wait_writeback");
	sim_wait_io(sim, &c->never, SIM_TIME_NEVER);
	sim_path_pop(sim);
}

/* S state: holds the mutex and sleeps on a plain wait queue for good. */
static void holder(struct sim *sim, void *p)
{
	struct hung_case *c = p;

	sim_mutex_lock(sim, &c->lock);
	sim_wait(sim, &c->idle, SIM_TIME_NEVER);
	sim_mutex_unlock(sim, &c->lock);
}

/* D state: waits for the holder's mutex (starts after the holder). */
static void mutex_waiter(struct sim *sim, void *p)
{
	struct hung_case *c = p;

	sim_mutex_lock(sim, &c->lock);
	sim_mutex_unlock(sim, &c->lock);
}

/* D state too, but it runs every second: never reported. */
static void periodic(struct sim *sim, void *p)
{
	struct hung_case *c = p;

	for (;;)
		sim_wait_io(sim, &c->never, SEC);
}

static void record(void *ctx, const struct sim_hung_task *h)
{
	struct hung_case *c = ctx;
	const struct sim_path_node *nodes;

	sim_path_nodes(c->sim, &nodes);
	if (c->seen < 8) {
		snprintf(c->names[c->seen], sizeof(c->names[0]), "%s", h->comm);
		c->blocked[c->seen] = h->blocked_ns;
		c->where[c->seen] = nodes[h->path].name;
	}
	c->seen++;
}

static void nothing(struct sim *sim, void *p)
{
	(void)sim;
	(void)p;
}

/* The checks read sim_now(): an event at `when` puts the clock there, as
 * the run loop's sample event does. */
static void run_to(struct sim *sim, sim_time_t when)
{
	sim_call_at(sim, when, nothing, NULL);
	sim_run(sim, when);
}

/* An I/O waiter on CPU 0 and a mutex waiter on CPU 2 (D), the mutex's
 * holder asleep on a wait queue on CPU 1 (S). */
static struct hung_case *hung_case_new(void)
{
	struct hung_case *c = calloc(1, sizeof(*c));

	c->sim = st_sim_exact(4);
	sim_waitq_init(&c->never, "never");
	sim_waitq_init(&c->idle, "idle");
	sim_mutex_init(c->sim, &c->lock, "test_mutex");
	st_task(c->sim, "io", 0, true, io_waiter, c, 0);
	st_task(c->sim, "holder", 1, true, holder, c, 0);
	st_task(c->sim, "waiter", 2, true, mutex_waiter, c, 1);
	return c;
}

static unsigned int check_at(struct hung_case *c, sim_time_t when)
{
	run_to(c->sim, when);
	c->seen = 0;
	return sim_check_hung_tasks(c->sim, 10 * SEC, record, c);
}

/* A test of khungtaskd's rule with a 10-s timeout: four tasks block at
 * time 0 — an I/O waiter and a mutex waiter (D), the mutex's holder
 * asleep on a wait queue (S) and a D sleeper that runs every second.
 * Expect the check at 5 s to record the switch counts, the one at 10 s to
 * report nothing (5 s since), the one at 15 s to report exactly the I/O
 * and mutex waiters, blocked 10 s, the I/O waiter inside
 * folio_wait_writeback, and the one at 20 s to report them again. */
TEST(hung_task_reports_uninterruptible_sleepers_after_the_timeout)
{
	struct hung_case *c = hung_case_new();

	st_task(c->sim, "periodic", 3, true, periodic, c, 0);
	ASSERT_U64_EQ(check_at(c, 5 * SEC), 0);
	ASSERT_U64_EQ(check_at(c, 10 * SEC), 0);
	ASSERT_U64_EQ(check_at(c, 15 * SEC), 2);
	ASSERT_STR_EQ(c->names[0], "io");
	ASSERT_U64_EQ(c->blocked[0], 10 * SEC);
	ASSERT_STR_EQ(c->where[0], "folio_wait_writeback");
	ASSERT_STR_EQ(c->names[1], "waiter");
	ASSERT_U64_EQ(c->blocked[1], 10 * SEC);
	ASSERT_U64_EQ(check_at(c, 20 * SEC), 2);
	ASSERT_U64_EQ(c->blocked[0], 15 * SEC);
	sim_destroy(c->sim);
	free(c);
}

static void wake_idle(struct sim *sim, void *p)
{
	struct hung_case *c = p;

	sim_wake_all(sim, &c->idle);
}

/* A test that running restarts the clock: as above, but the holder is
 * woken at 12 s and releases the mutex, so the waiter runs and exits.
 * Expect the check at 15 s to report only the I/O waiter. */
TEST(hung_task_forgets_a_task_that_ran)
{
	struct hung_case *c = hung_case_new();

	sim_call_at(c->sim, 12 * SEC, wake_idle, c);
	ASSERT_U64_EQ(check_at(c, 5 * SEC), 0);
	ASSERT_U64_EQ(check_at(c, 15 * SEC), 1);
	ASSERT_STR_EQ(c->names[0], "io");
	sim_destroy(c->sim);
	free(c);
}


struct lockup_case {
	struct sim	*sim;
	struct sim_spinlock lock;
	unsigned int	seen;
	unsigned int	cpu[4];
	char		names[4][32];
	sim_time_t	spun[4];
};

static void long_holder(struct sim *sim, void *p)
{
	struct lockup_case *c = p;

	sim_spin_lock(sim, &c->lock);
	sim_charge(sim, 30 * SEC);
	sim_spin_unlock(sim, &c->lock);
}

static void lock_taker(struct sim *sim, void *p)
{
	struct lockup_case *c = p;

	sim_spin_lock(sim, &c->lock);
	sim_spin_unlock(sim, &c->lock);
}

static void locking_irq(struct sim *sim, void *p)
{
	lock_taker(sim, p);
}

static void raise_on_2(struct sim *sim, void *p)
{
	sim_irq_raise(sim, 2, locking_irq, p);
}

static void record_lockup(void *ctx, const struct sim_hung_task *h)
{
	struct lockup_case *c = ctx;

	if (c->seen < 4) {
		c->cpu[c->seen] = h->cpu;
		snprintf(c->names[c->seen], sizeof(c->names[0]), "%s", h->comm);
		c->spun[c->seen] = h->blocked_ns;
	}
	c->seen++;
}

static unsigned int lockups_at(struct lockup_case *c, sim_time_t when)
{
	run_to(c->sim, when);
	c->seen = 0;
	return sim_check_hard_lockups(c->sim, 10 * SEC, record_lockup, c);
}

/* A test of the hard-lockup rule with a 10-s threshold: CPU 1 holds a
 * spinlock 0..30 s; CPU 0's owner spins for it from 1 s and an interrupt
 * on CPU 2 from 2 s.  Expect nothing at 5 s, CPUs 0 and 2 at 12 s (spun
 * 11 and 10 s, the second in irq/2), nothing more at 20 s (reported once
 * per episode) nor at 40 s (the spins ended at 30 s). */
TEST(hard_lockup_reports_a_cpu_spinning_past_the_threshold_once)
{
	struct lockup_case *c = calloc(1, sizeof(*c));

	c->sim = st_sim_exact(3);
	sim_spin_init(c->sim, &c->lock, "test_lock");
	st_task(c->sim, "holder", 1, true, long_holder, c, 0);
	st_task(c->sim, "spinner", 0, true, lock_taker, c, 1 * SEC);
	sim_call_at(c->sim, 2 * SEC, raise_on_2, c);
	ASSERT_U64_EQ(lockups_at(c, 5 * SEC), 0);
	ASSERT_U64_EQ(lockups_at(c, 12 * SEC), 2);
	ASSERT_U64_EQ(c->cpu[0], 0);
	ASSERT_STR_EQ(c->names[0], "spinner");
	ASSERT_U64_EQ(c->spun[0], 11 * SEC);
	ASSERT_U64_EQ(c->cpu[1], 2);
	ASSERT_STR_EQ(c->names[1], "irq/2");
	ASSERT_U64_EQ(c->spun[1], 10 * SEC);
	ASSERT_U64_EQ(lockups_at(c, 20 * SEC), 0);
	ASSERT_U64_EQ(lockups_at(c, 40 * SEC), 0);
	sim_destroy(c->sim);
	free(c);
}
