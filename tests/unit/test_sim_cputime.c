/* SPDX-License-Identifier: MIT */
/* Tests of /proc/stat's split of CPU time (sim_cpu_stats: system_ns,
 * irq_cpu_ns, iowait_ns; sim_nr_running, sim_nr_iowait): user against
 * kernel mode, interrupt context, the scheduler's own costs, spinning on
 * kernel and user-space locks, and iowait as tick_nohz_stop_idle decides
 * it.  Every time below is computed by hand. */
#include "harness.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC

/* A cost table with every cost 0 but `id`, at `ns`. */
static void only_cost(struct cost_table *c, int id, uint64_t ns)
{
	cost_table_init(c);
	for (int i = 0; i < NR_COSTS; i++)
		c->ps[i] = 0;
	c->ps[id] = ns * 1000;
}

struct ct_case {
	struct sim	*sim;
	struct sim_waitq wq;
	struct sim_spinlock lock;
	struct sim_cpu_stats at[4];	/* snapshots of CPU 0 (and 1) taken by `snap` */
	unsigned int	nr_at;
	unsigned int	running[4], iowait[4];
};

static void snap(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_cpu_stats(sim, 0, &c->at[c->nr_at]);
	c->running[c->nr_at] = sim_nr_running(sim);
	c->iowait[c->nr_at] = sim_nr_iowait(sim);
	c->nr_at++;
}

/* 100 us in user mode, 50 in a system call, then asleep for I/O. */
static void io_task(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_charge(sim, 100 * US);
	sim_kernel_enter(sim);
	sim_charge(sim, 50 * US);
	sim_kernel_exit(sim);
	sim_wait_io(sim, &c->wq, SIM_TIME_NEVER);
	sim_charge(sim, 30 * US);
	sim_sync(sim);
}

static void completion(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_charge(sim, 20 * US);
	sim_wake_one(sim, &c->wq);
}

static void raise_cb(struct sim *sim, void *p)
{
	sim_irq_raise(sim, 0, completion, p);
}

/* A test of the split on one CPU: user 100 + 30, system 50, then asleep
 * for I/O from 150; the completion interrupt at 200 charges 20 and wakes
 * the task, which runs 220..250.  Expect at 175 the open stretch's 25 us
 * as iowait with one task blocked; at 400: busy 200 = user 130 + system
 * 50 + interrupt 20, idle 200 of which iowait 50 (the stretch 150..200
 * ended by the interrupt while the task still slept; 250..400 idle). */
TEST(cputime_user_system_irq_and_iowait)
{
	struct ct_case c = { 0 };

	c.sim = st_sim_exact(1);
	sim_waitq_init(&c.wq, "io");
	st_task(c.sim, "io", 0, true, io_task, &c, 0);
	sim_call_at(c.sim, 175 * US, snap, &c);
	sim_call_at(c.sim, 200 * US, raise_cb, &c);
	sim_call_at(c.sim, 400 * US, snap, &c);
	sim_run(c.sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c.nr_at, 2);
	ASSERT_U64_EQ(c.at[0].iowait_ns, 25 * US);
	ASSERT_U64_EQ(c.iowait[0], 1);
	ASSERT_U64_EQ(c.running[0], 0);
	ASSERT_U64_EQ(c.at[1].busy_ns, 200 * US);
	ASSERT_U64_EQ(c.at[1].system_ns, 50 * US);
	ASSERT_U64_EQ(c.at[1].irq_cpu_ns, 20 * US);
	ASSERT_U64_EQ(c.at[1].idle_ns, 200 * US);
	ASSERT_U64_EQ(c.at[1].iowait_ns, 50 * US);
	ASSERT_U64_EQ(c.iowait[1], 0);
	sim_destroy(c.sim);
}

static void waker(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_charge(sim, 100 * US);
	sim_wake_one(sim, &c->wq);
	sim_sync(sim);
}

static void io_sleeper(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_wait_io(sim, &c->wq, SIM_TIME_NEVER);
	sim_charge(sim, 10 * US);
	sim_sync(sim);
}

/* A test of the wake-up's order: a task sleeps for I/O on CPU 0 from 0
 * and a task on CPU 1 wakes it at 100.  try_to_wake_up takes it off
 * CPU 0's nr_iowait before it is put there, so CPU 0's stretch 0..100
 * ends with nr_iowait 0 and is idle time: expect iowait 0 on CPU 0 and
 * its one task to show as running at 105. */
TEST(cputime_wake_from_another_cpu_ends_idle_not_iowait)
{
	struct ct_case c = { 0 };

	c.sim = st_sim_exact(2);
	sim_waitq_init(&c.wq, "io");
	st_task(c.sim, "sleeper", 0, true, io_sleeper, &c, 0);
	st_task(c.sim, "waker", 1, true, waker, &c, 0);
	sim_call_at(c.sim, 50 * US, snap, &c);
	sim_call_at(c.sim, 105 * US, snap, &c);
	sim_run(c.sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c.nr_at, 2);
	ASSERT_U64_EQ(c.at[0].iowait_ns, 50 * US);	/* open stretch, as get_cpu_iowait_time_us */
	ASSERT_U64_EQ(c.iowait[0], 1);
	ASSERT_U64_EQ(c.at[1].iowait_ns, 0);
	ASSERT_U64_EQ(c.iowait[1], 0);
	ASSERT_U64_EQ(c.running[1], 1);
	sim_destroy(c.sim);
}

static void kholder(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_spin_lock(sim, &c->lock);
	sim_charge(sim, 50 * US);
	sim_spin_unlock(sim, &c->lock);
	sim_sync(sim);
}

static void kspinner(struct sim *sim, void *p)
{
	struct ct_case *c = p;

	sim_charge(sim, 10 * US);
	sim_spin_lock(sim, &c->lock);
	sim_spin_unlock(sim, &c->lock);
	sim_charge(sim, 5 * US);
	sim_sync(sim);
}

/* A test of a kernel spinlock: its holder's 50 us (lock held: kernel
 * mode) and a spinner's wait 10..50 are system time, the spinner's own
 * 10 + 5 us outside the lock user time.  Expect at 100: CPU 0 system 50
 * of busy 50; CPU 1 busy 55, system 40. */
TEST(cputime_kernel_spinlock_is_system_time)
{
	struct ct_case c = { 0 };
	struct sim_cpu_stats st;

	c.sim = st_sim_exact(2);
	sim_spin_init(c.sim, &c.lock, "k");
	st_task(c.sim, "holder", 0, true, kholder, &c, 0);
	st_task(c.sim, "spinner", 1, true, kspinner, &c, 0);
	sim_run(c.sim, 100 * US);
	sim_cpu_stats(c.sim, 0, &st);
	ASSERT_U64_EQ(st.busy_ns, 50 * US);
	ASSERT_U64_EQ(st.system_ns, 50 * US);
	sim_cpu_stats(c.sim, 1, &st);
	ASSERT_U64_EQ(st.busy_ns, 55 * US);
	ASSERT_U64_EQ(st.system_ns, 40 * US);
	sim_destroy(c.sim);
}

static void user_work(struct sim *sim, void *p)
{
	(void)p;
	sim_charge(sim, 10 * US);
	sim_sync(sim);
}

/* A test of the scheduler's own cost: with context_switch at 2 us and
 * nothing else costed, a task that runs 10 us in user mode leaves busy
 * 12, system 2 (the switch onto the CPU is kernel work). */
TEST(cputime_context_switch_is_system_time)
{
	struct cost_table costs;
	struct sim *sim;
	struct sim_cpu_stats st;

	only_cost(&costs, COST_context_switch, 2 * US);
	sim = sim_create(&(struct sim_config){ .ncpus = 1, .seed = 1, .costs = &costs });
	st_task(sim, "t", 0, true, user_work, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
	sim_cpu_stats(sim, 0, &st);
	ASSERT_U64_EQ(st.busy_ns, 12 * US);
	ASSERT_U64_EQ(st.system_ns, 2 * US);
	ASSERT_U64_EQ(st.irq_cpu_ns, 0);
	sim_destroy(sim);
}

struct refill_case {
	struct sim_waitq wq;
	sim_time_t	done[2];
};

/* 10 us, a sleep of 100 us, 10 us again. */
static void sleeper_twice(struct sim *sim, void *p)
{
	struct refill_case *c = p;

	sim_charge(sim, 10 * US);
	sim_sleep(sim, 100 * US);
	sim_charge(sim, 10 * US);
	sim_sync(sim);
	c->done[0] = sim_now(sim);
}

static void other_task(struct sim *sim, void *p)
{
	struct refill_case *c = p;

	sim_charge(sim, 20 * US);
	sim_sync(sim);
	c->done[1] = sim_now(sim);
}

/* A test of switch_refill (5 us, nothing else costed) on one CPU: A runs
 * 0..10 and sleeps to 110; B, started at 50, runs 50..70 (the CPU's
 * previous owner was A: B pays 5, so 50..75); A, put back at 110 after B
 * ran there, pays 5 too: 110..125, user time.  Expect 2 refill switches,
 * busy 10 + 25 + 15 = 50 us, none of it system time.  Without B, A finds
 * its caches warm after the idle stretch: no refill, done at 120. */
TEST(cputime_switch_refill_after_another_task)
{
	struct cost_table costs;
	struct sim_cpu_stats st;
	struct refill_case c = { 0 };
	struct sim *sim;

	only_cost(&costs, COST_switch_refill, 5 * US);
	sim = sim_create(&(struct sim_config){ .ncpus = 1, .seed = 1, .costs = &costs });
	st_task(sim, "a", 0, true, sleeper_twice, &c, 0);
	st_task(sim, "b", 0, true, other_task, &c, 50 * US);
	sim_run(sim, SIM_TIME_NEVER);
	sim_cpu_stats(sim, 0, &st);
	ASSERT_U64_EQ(sim_refill_switches(sim), 2);
	ASSERT_U64_EQ(c.done[1], 75 * US);
	ASSERT_U64_EQ(c.done[0], 125 * US);
	ASSERT_U64_EQ(st.busy_ns, 50 * US);
	ASSERT_U64_EQ(st.system_ns, 0);
	sim_destroy(sim);

	memset(&c, 0, sizeof(c));
	sim = sim_create(&(struct sim_config){ .ncpus = 1, .seed = 1, .costs = &costs });
	st_task(sim, "a", 0, true, sleeper_twice, &c, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(sim_refill_switches(sim), 0);
	ASSERT_U64_EQ(c.done[0], 120 * US);
	sim_destroy(sim);
}

static void busy_300(struct sim *sim, void *p)
{
	(void)p;
	sim_charge(sim, 300 * US);
	sim_sync(sim);
}

/* A test of wake_remote_busy (7 us, nothing else costed): a task asleep
 * on CPU 0 is woken at 100 by a task on CPU 1.  While another task runs
 * on CPU 0 the wake-up queues it on a busy CPU's run queue: the waker
 * pays 7 us of system time (CPU 1 busy 107, system 7) and one such
 * wake-up is counted.  With CPU 0 idle the wake-up is an idle one (wake_ipi
 * and idle_exit, both 0 here): nothing charged, none counted.  A waker
 * on the sleeper's own busy CPU pays nothing either. */
TEST(cputime_wake_remote_busy_charges_the_waker)
{
	struct cost_table costs;
	struct sim_cpu_stats st;

	only_cost(&costs, COST_wake_remote_busy, 7 * US);
	for (int busy = 0; busy < 2; busy++) {
		struct ct_case c = { 0 };

		c.sim = sim_create(&(struct sim_config){ .ncpus = 2, .seed = 1, .costs = &costs });
		sim_waitq_init(&c.wq, "w");
		st_task(c.sim, "sleeper", 0, true, io_sleeper, &c, 0);
		if (busy)
			st_task(c.sim, "busy", 0, true, busy_300, &c, 0);
		st_task(c.sim, "waker", 1, true, waker, &c, 0);
		sim_run(c.sim, SIM_TIME_NEVER);
		sim_cpu_stats(c.sim, 1, &st);
		ASSERT_U64_EQ(sim_remote_busy_wakeups(c.sim), busy ? 1 : 0);
		ASSERT_U64_EQ(st.busy_ns, busy ? 107 * US : 100 * US);
		ASSERT_U64_EQ(st.system_ns, busy ? 7 * US : 0);
		sim_destroy(c.sim);
	}

	struct ct_case c = { 0 };

	c.sim = sim_create(&(struct sim_config){ .ncpus = 2, .seed = 1, .costs = &costs });
	sim_waitq_init(&c.wq, "w");
	st_task(c.sim, "sleeper", 0, true, io_sleeper, &c, 0);
	st_task(c.sim, "waker", 0, true, waker, &c, 0);
	sim_run(c.sim, SIM_TIME_NEVER);
	sim_cpu_stats(c.sim, 0, &st);
	ASSERT_U64_EQ(sim_remote_busy_wakeups(c.sim), 0);
	ASSERT_U64_EQ(st.busy_ns, 110 * US);
	ASSERT_U64_EQ(st.system_ns, 0);
	sim_destroy(c.sim);
}

/* 10 us at each of its instants (absolute, in us; 0 ends the list) */
struct stints {
	sim_time_t at[4];
};

static void stint_task(struct sim *sim, void *p)
{
	const struct stints *s = p;

	for (int i = 0; i < 4 && (i == 0 || s->at[i]); i++) {
		if (sim_now(sim) < s->at[i] * US)
			sim_sleep(sim, s->at[i] * US - sim_now(sim));
		sim_charge(sim, 10 * US);
		sim_sync(sim);
	}
}

static struct sim *mm_sim(unsigned int slots, struct cost_table *costs)
{
	only_cost(costs, COST_mm_switch, 1 * US);
	costs->ps[COST_mm_switch_miss] = 10 * US * 1000;
	return sim_create(&(struct sim_config){ .ncpus = 1, .seed = 1, .costs = costs,
						 .mm_slots = slots });
}

/* A test of switch_mm_in on one CPU (mm_switch 1 us, mm_switch_miss 10
 * us, nothing else costed): processes A, B, C, each an address space of
 * its own, run 10 us stints in the order A B A B C A (A at 0, 100, 200;
 * B at 20, 120; C at 140).  Every stint follows another process's, so
 * all six load an address space: 6 us of mm_switch.  With two slots the
 * CPU keeps A and B, so only the first A, the first B, C and the last A
 * (C evicted it) miss: 4 x 10 us.  Busy 60 + 6 + 40 = 106 us, 46 of it
 * system time.  With unlimited slots (0) nothing misses: busy 66, system
 * 6.  Two threads of one process (one mm) alternating load it once. */
TEST(cputime_mm_switch_and_slots)
{
	static const struct stints a = { { 0, 100, 200, 0 } }, b = { { 20, 120, 0, 0 } },
				   c = { { 140, 0, 0, 0 } };
	struct cost_table costs;
	struct sim_cpu_stats st;

	for (unsigned int slots = 0; slots <= 2; slots += 2) {
		struct sim *sim = mm_sim(slots, &costs);

		st_task(sim, "A", 0, true, stint_task, (void *)&a, 0);
		st_task(sim, "B", 0, true, stint_task, (void *)&b, 20 * US);
		st_task(sim, "C", 0, true, stint_task, (void *)&c, 140 * US);
		sim_run(sim, SIM_TIME_NEVER);
		sim_cpu_stats(sim, 0, &st);
		ASSERT_U64_EQ(sim_mm_switches(sim), 6);
		ASSERT_U64_EQ(sim_mm_switch_misses(sim), slots ? 4 : 0);
		ASSERT_U64_EQ(st.busy_ns, slots ? 106 * US : 66 * US);
		ASSERT_U64_EQ(st.system_ns, slots ? 46 * US : 6 * US);
		sim_destroy(sim);
	}

	struct sim *sim = mm_sim(2, &costs);
	uint32_t mm = sim_mm_new(sim);
	struct sim_task_config tc = { .name = "t", .kind = sim_task_kind(sim, "test"), .cpu = 0,
				      .pinned = true, .mm = mm };

	sim_task_create(sim, &tc, stint_task, (void *)&a, 0);
	sim_task_create(sim, &tc, stint_task, (void *)&b, 20 * US);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(sim_mm_switches(sim), 1);
	ASSERT_U64_EQ(sim_mm_switch_misses(sim), 1);
	sim_destroy(sim);
}
