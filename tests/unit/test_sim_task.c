/* SPDX-License-Identifier: MIT */
/* Tests of tasks on virtual CPUs: the lazy-charge time model and its fast
 * path, sleeps, time slices, wake-up placement, the run/stop interface. */
#include "harness.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC
#define MS SIM_NSEC_PER_MSEC

struct ff {
	sim_time_t	seen[3];
	uint64_t	ev_before, ev_after, fast_before, fast_after;
	struct sim_task	*cur;
};

static void ff_task(struct sim *sim, void *p)
{
	struct ff *f = p;

	f->cur = sim_current(sim);
	f->seen[0] = sim_now(sim);
	f->ev_before = sim_events(sim);
	f->fast_before = sim_fast_syncs(sim);
	sim_charge(sim, 1000);
	f->seen[1] = sim_now(sim);
	sim_sync(sim);
	f->seen[2] = sim_now(sim);
	f->ev_after = sim_events(sim);
	f->fast_after = sim_fast_syncs(sim);
}

/* A test of the sync fast path: a lone task charging 1000 ns and syncing
 * with nothing else queued.  Expect its local time to include the pending
 * charge before the sync, the clock to reach 1100 with no event run, and
 * one fast sync counted. */
TEST(task_sync_fast_forward)
{
	struct sim *sim = st_sim_exact(1);
	struct ff f = { 0 };
	struct sim_task *t = st_task(sim, "ff", SIM_CPU_ANY, false, ff_task, &f, 100);
	struct sim_task_stats st;

	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(f.cur == t);
	ASSERT_U64_EQ(f.seen[0], 100);
	ASSERT_U64_EQ(f.seen[1], 1100);
	ASSERT_U64_EQ(f.seen[2], 1100);
	ASSERT_U64_EQ(f.ev_after, f.ev_before);
	ASSERT_U64_EQ(f.fast_after, f.fast_before + 1);
	ASSERT_U64_EQ(sim_now(sim), 1100);
	ASSERT_TRUE(sim_task_exited(t));
	sim_task_stats(t, &st);
	ASSERT_U64_EQ(st.cpu_ns, 1000);
	sim_destroy(sim);
}

struct slow {
	struct st_log	log;
};

static void slow_cb(struct sim *sim, void *p)
{
	struct slow *s = p;

	st_log_add(&s->log, sim_now(sim), 'c');
}

static void slow_task(struct sim *sim, void *p)
{
	struct slow *s = p;

	sim_charge(sim, 1000);
	sim_sync(sim);
	st_log_add(&s->log, sim_now(sim), 't');
}

/* A test of the sync slow path: a task at 0 charges 1000 ns while
 * callbacks are queued for 500 and 1000.  Expect both callbacks to run
 * first (1000 ties with the task's resume, and the callback was queued
 * earlier), then the task at 1000. */
TEST(task_sync_yields_to_earlier_events)
{
	struct sim *sim = st_sim_exact(1);
	struct slow s = { 0 };

	sim_call_at(sim, 500, slow_cb, &s);
	sim_call_at(sim, 1000, slow_cb, &s);
	st_task(sim, "slow", SIM_CPU_ANY, false, slow_task, &s, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(s.log.n, 3);
	ASSERT_EQ(s.log.tag[0], 'c');
	ASSERT_U64_EQ(s.log.t[0], 500);
	ASSERT_EQ(s.log.tag[1], 'c');
	ASSERT_U64_EQ(s.log.t[1], 1000);
	ASSERT_EQ(s.log.tag[2], 't');
	ASSERT_U64_EQ(s.log.t[2], 1000);
	sim_destroy(sim);
}

static void sleeper(struct sim *sim, void *p)
{
	struct st_log *l = p;

	sim_sleep(sim, 700);
	st_log_add(l, sim_now(sim), 1);
	sim_sleep_until(sim, 500);	/* in the past: no sleep */
	st_log_add(l, sim_now(sim), 2);
	sim_charge(sim, 50);
	sim_sleep(sim, 100);		/* the charge is synced first */
	st_log_add(l, sim_now(sim), 3);
}

/* A test of timer sleeps.  Expect wake-up at 700, no sleep for a time in
 * the past, and a sleep after a charge to start at the synced time
 * (700 + 50 + 100 = 850); sleep_ns 800 in the task's statistics. */
TEST(task_sleep)
{
	struct sim *sim = st_sim_exact(1);
	struct st_log l = { 0 };
	struct sim_task *t = st_task(sim, "sleeper", SIM_CPU_ANY, false, sleeper, &l, 0);
	struct sim_task_stats st;

	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(l.n, 3);
	ASSERT_U64_EQ(l.t[0], 700);
	ASSERT_U64_EQ(l.t[1], 700);
	ASSERT_U64_EQ(l.t[2], 850);
	sim_task_stats(t, &st);
	ASSERT_U64_EQ(st.sleep_ns, 800);
	ASSERT_U64_EQ(st.cpu_ns, 50);
	sim_destroy(sim);
}

struct stepper {
	struct st_log	*log;
	int		tag;
	int		steps;
	sim_time_t	step;
	int		cpu_seen;
	sim_time_t	started;
};

static void stepper_fn(struct sim *sim, void *p)
{
	struct stepper *s = p;

	s->cpu_seen = (int)sim_cpu(sim);
	s->started = sim_now(sim);
	for (int i = 0; i < s->steps; i++) {
		sim_charge(sim, s->step);
		if (s->log)	/* local time: the end of this step */
			st_log_add(s->log, sim_now(sim), s->tag);
		if (i + 1 < s->steps)
			sim_sync(sim);	/* may be preempted here; exit syncs the last */
	}
}

/* A test of time slices on one CPU: two tasks of six 1 ms steps each,
 * slice 3 ms, each step logged with its end time.  Expect steps ending
 * A 1-3 ms, B 4-6 ms, A 7-9 ms, B 10-12 ms; run-queue
 * wait 3 ms for A and 6 ms for B; four switches; the CPU busy 12 ms. */
TEST(task_time_slices_round_robin)
{
	struct sim *sim = st_sim_exact(1);
	struct st_log l = { 0 };
	struct stepper a = { &l, 'A', 6, MS, 0, 0 }, b = { &l, 'B', 6, MS, 0, 0 };
	struct sim_task *ta = st_task(sim, "A", 0, false, stepper_fn, &a, 0);
	struct sim_task *tb = st_task(sim, "B", 0, false, stepper_fn, &b, 0);
	const char order[] = "AAABBBAAABBB";
	struct sim_task_stats sa, sb;
	struct sim_cpu_stats cs;

	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(l.n, 12);
	for (int i = 0; i < 12; i++) {
		ASSERT_EQ(l.tag[i], order[i]);
		ASSERT_U64_EQ(l.t[i], (sim_time_t)(i + 1) * MS);
	}
	sim_task_stats(ta, &sa);
	sim_task_stats(tb, &sb);
	ASSERT_U64_EQ(sa.runq_ns, 3 * MS);
	ASSERT_U64_EQ(sb.runq_ns, 6 * MS);
	ASSERT_U64_EQ(sa.switches, 2);
	ASSERT_U64_EQ(sb.switches, 2);
	sim_cpu_stats(sim, 0, &cs);
	ASSERT_U64_EQ(cs.busy_ns, 12 * MS);
	ASSERT_U64_EQ(cs.idle_ns, 0);
	ASSERT_U64_EQ(cs.switches, 4);
	sim_destroy(sim);
}

/* A test that the engine's own costs are charged: with default costs a
 * task put on a CPU pays `context_switch` before its first step.  Expect
 * its first step to end at context_switch + 1000 ns and the charge to
 * appear in its cpu_ns. */
TEST(task_context_switch_cost_charged)
{
	struct sim_config cfg = { .ncpus = 1, .seed = 1 };
	struct sim *sim = sim_create(&cfg);
	struct st_log l = { 0 };
	struct stepper a = { &l, 'A', 1, 1000, 0, 0 };
	struct sim_task *t = st_task(sim, "A", 0, false, stepper_fn, &a, 0);
	uint64_t cs = cost_ns(sim_costs(sim), COST_context_switch, 1);
	struct sim_task_stats st;

	ASSERT_TRUE(cs > 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(l.t[0], cs + 1000);
	sim_task_stats(t, &st);
	ASSERT_U64_EQ(st.cpu_ns, cs + 1000);
	sim_destroy(sim);
}

/* A test of wake-up placement and newidle pulling on 3 CPUs.
 *   T0 (cpu 0) and T1, T2 (prefer cpu 0) start at 0: T0 gets CPU 0, T1 the
 *   lowest idle CPU 1, T2 CPU 2 (T2 exits at 0.5 ms).
 *   T3 (prefers 1) at 0: no idle CPU -> CPU 1's queue; when T2 exits at
 *   0.5 ms, CPU 2 pulls it: it runs there 0.5-1.5 ms.
 *   T4 (pinned to 1) and T5 (prefers 1, not pinned) at 1 ms: every CPU is
 *   busy, both queue on CPU 1.  At 1.5 ms CPU 2 goes idle and pulls the
 *   first task that may move, T5 (T4 is pinned and stays): T5 runs on
 *   CPU 2 at 1.5 ms; T4 runs on CPU 1 at 3 ms when T1's slice ends.
 * Expect those CPUs and start times. */
TEST(task_wakeup_placement)
{
	struct sim *sim = st_sim_exact(3);
	struct stepper s[6] = {
		{ NULL, 0, 10, MS, -1, 0 }, { NULL, 1, 10, MS, -1, 0 }, { NULL, 2, 1, MS / 2, -1, 0 },
		{ NULL, 3, 1, MS, -1, 0 }, { NULL, 4, 1, MS, -1, 0 }, { NULL, 5, 1, MS, -1, 0 },
	};
	struct sim_task *t4;
	struct sim_task_stats st;

	st_task(sim, "T0", 0, false, stepper_fn, &s[0], 0);
	st_task(sim, "T1", 0, false, stepper_fn, &s[1], 0);
	st_task(sim, "T2", 0, false, stepper_fn, &s[2], 0);
	st_task(sim, "T3", 1, false, stepper_fn, &s[3], 0);
	t4 = st_task(sim, "T4", 1, true, stepper_fn, &s[4], MS);
	st_task(sim, "T5", 1, false, stepper_fn, &s[5], MS);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(s[0].cpu_seen, 0);
	ASSERT_EQ(s[1].cpu_seen, 1);
	ASSERT_EQ(s[2].cpu_seen, 2);
	ASSERT_EQ(s[3].cpu_seen, 2);
	ASSERT_U64_EQ(s[3].started, MS / 2);
	ASSERT_EQ(s[4].cpu_seen, 1);
	ASSERT_U64_EQ(s[4].started, 3 * MS);
	ASSERT_EQ(s[5].cpu_seen, 2);
	ASSERT_U64_EQ(s[5].started, MS + MS / 2);
	sim_task_stats(t4, &st);
	ASSERT_U64_EQ(st.runq_ns, 2 * MS);
	sim_destroy(sim);
}

/* A test of sim_run's `until` with a task mid-way: a task of ten 1 ms
 * steps, run until 4.5 ms, then to the end.  Expect the first run to stop
 * with the clock at 4 ms (the task's sync does not skip past `until`),
 * the second to finish at 10 ms. */
TEST(task_run_until_splits_a_task)
{
	struct sim *sim = st_sim_exact(1);
	struct stepper a = { NULL, 0, 10, MS, 0, 0 };
	struct sim_task *t = st_task(sim, "A", 0, false, stepper_fn, &a, 0);

	sim_run(sim, 4 * MS + MS / 2);
	ASSERT_U64_EQ(sim_now(sim), 4 * MS);
	ASSERT_FALSE(sim_task_exited(t));
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(sim_now(sim), 10 * MS);
	ASSERT_TRUE(sim_task_exited(t));
	sim_destroy(sim);
}

static void stopper(struct sim *sim, void *p)
{
	int *phase = p;

	sim_charge(sim, 100);
	sim_stop(sim);
	sim_sync(sim);		/* goes through the queue: the run ends here */
	*phase = 1;
	sim_charge(sim, 100);
	sim_sync(sim);
	*phase = 2;
}

/* A test of sim_stop from a task.  Expect sim_run to return at the task's
 * next sync (phase 0) and a second sim_run to finish the task (phase 2). */
TEST(task_stop_from_task)
{
	struct sim *sim = st_sim_exact(1);
	int phase = 0;

	st_task(sim, "stopper", 0, false, stopper, &phase, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(phase, 0);
	ASSERT_U64_EQ(sim_now(sim), 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(phase, 2);
	ASSERT_U64_EQ(sim_now(sim), 200);
	sim_destroy(sim);
}

struct spawner {
	int	done;
	size_t	sizes[3];
};

static void child_fn(struct sim *sim, void *p)
{
	struct spawner *s = p;
	volatile char buf[16 * 1024];	/* use a good part of the stack */

	buf[0] = 1;
	buf[sizeof(buf) - 1] = 2;
	sim_charge(sim, 10 + (uint64_t)buf[0] + (uint64_t)buf[sizeof(buf) - 1]);
	sim_sleep(sim, 10);
	s->done++;
}

static void spawner_fn(struct sim *sim, void *p)
{
	struct spawner *s = p;

	for (int i = 0; i < 300; i++) {
		struct sim_task_config cfg = {
			.name = "child", .kind = sim_task_kind_of(sim_current(sim)),
			.cpu = SIM_CPU_ANY, .stack_size = s->sizes[i % 3],
		};

		sim_task_create(sim, &cfg, child_fn, s, sim_now(sim));
		sim_sleep(sim, 5);
	}
}

/* A test of task creation from a task and of stack reuse: 300 children of
 * mixed stack sizes, each using 16 KiB of stack, sleeping and exiting.
 * Expect all 300 to finish and ids to follow creation order. */
TEST(task_create_many_from_task)
{
	struct sim *sim = st_sim_exact(2);
	struct spawner s = { 0, { 0, 128 * 1024, 100 * 1000 } };

	st_task(sim, "spawner", SIM_CPU_ANY, false, spawner_fn, &s, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(s.done, 300);
	ASSERT_EQ(sim_nr_tasks(sim), 301);
	for (uint32_t i = 0; i < 301; i++) {
		ASSERT_EQ(sim_task_id(sim_task_get(sim, i)), i);
		ASSERT_TRUE(sim_task_exited(sim_task_get(sim, i)));
	}
	ASSERT_STR_EQ(sim_task_name(sim_task_get(sim, 1)), "child");
	sim_destroy(sim);
}

static void sleep_in_engine(void *p)
{
	sim_sleep(p, 10);
}

static void sleep_holding_spin_fn(struct sim *sim, void *p)
{
	struct sim_spinlock *l = p;

	sim_spin_lock(sim, l);
	sim_sleep(sim, 10);
}

static void sleep_holding_spin(void *p)
{
	struct sim *sim = p;
	struct sim_spinlock l;

	sim_spin_init(sim, &l, NULL);
	st_task(sim, "bad", 0, false, sleep_holding_spin_fn, &l, 0);
	sim_run(sim, SIM_TIME_NEVER);
}

/* A test that blocking where the model forbids it is a bug: sleeping in
 * engine context, and sleeping while holding a spinlock ("scheduling while
 * atomic").  Expect SIM_BUG (abort) in both. */
TEST(task_forbidden_blocking_is_a_bug)
{
	struct sim *sim = st_sim_exact(1);

	ASSERT_TRUE(st_dies(sleep_in_engine, sim));
	ASSERT_TRUE(st_dies(sleep_holding_spin, sim));
	sim_destroy(sim);
}

/* A test of CPU accounting with idle time: the sleeper program (sleep
 * 700, charge 50, sleep 100) on CPU 0 of a 2-CPU machine.  Expect CPU 0
 * busy 50 ns and idle 800 ns at the end (850), CPU 1 idle 850 ns, and
 * three switches on CPU 0 (the start and two wake-ups). */
TEST(task_cpu_busy_idle_accounting)
{
	struct sim *sim = st_sim_exact(2);
	struct st_log l = { 0 };
	struct sim_cpu_stats c0, c1;

	st_task(sim, "A", 0, false, sleeper, &l, 0);
	sim_run(sim, SIM_TIME_NEVER);
	sim_cpu_stats(sim, 0, &c0);
	sim_cpu_stats(sim, 1, &c1);
	ASSERT_U64_EQ(sim_now(sim), 850);
	ASSERT_U64_EQ(c0.busy_ns, 50);
	ASSERT_U64_EQ(c0.idle_ns, 800);
	ASSERT_U64_EQ(c1.busy_ns, 0);
	ASSERT_U64_EQ(c1.idle_ns, 850);
	ASSERT_U64_EQ(c0.switches, 3);
	sim_destroy(sim);
}

static void forever(struct sim *sim, void *p)
{
	struct sim_waitq *q = p;

	sim_charge(sim, 100);
	sim_wait(sim, q, SIM_TIME_NEVER);
}

/* A test of ending a run with tasks still alive, as the run driver does at
 * the end of a scenario: four tasks block forever on a wait queue, a fifth
 * is mid-way through its steps when the run stops at 2.5 ms.  Expect
 * sim_destroy to free everything (the sanitizer build checks for leaks
 * and bad frees) and the tasks not to be marked exited. */
TEST(task_destroy_with_live_tasks)
{
	struct sim *sim = st_sim_exact(2);
	struct sim_waitq q;
	struct stepper s = { NULL, 0, 10, SIM_NSEC_PER_MSEC, 0, 0 };

	sim_waitq_init(&q, "never");
	for (int i = 0; i < 4; i++)
		st_task(sim, "blocked", SIM_CPU_ANY, false, forever, &q, 0);
	st_task(sim, "busy", 0, false, stepper_fn, &s, 0);
	sim_run(sim, 2 * SIM_NSEC_PER_MSEC + SIM_NSEC_PER_MSEC / 2);
	ASSERT_TRUE(sim_waitq_active(&q));
	for (uint32_t i = 0; i < sim_nr_tasks(sim); i++)
		ASSERT_FALSE(sim_task_exited(sim_task_get(sim, i)));
	sim_destroy(sim);
}

/* wake_ipi / idle_exit: a waker on CPU 0 and sleepers pinned to CPUs 0 and 1 */
struct ipi {
	struct sim_waitq q0, q1;
	sim_time_t	woke1, woke0, after_wake, timer_woke;
	uint64_t	ipis_after_first, ipis_after_local;
};

static void ipi_sleeper1(struct sim *sim, void *p)
{
	struct ipi *x = p;

	sim_wait(sim, &x->q1, SIM_TIME_NEVER);
	x->woke1 = sim_now(sim);
	sim_sleep(sim, 100 * US);	/* a timer, on its own (idle) CPU */
	x->timer_woke = sim_now(sim);
}

static void ipi_sleeper0(struct sim *sim, void *p)
{
	struct ipi *x = p;

	sim_wait(sim, &x->q0, SIM_TIME_NEVER);
	x->woke0 = sim_now(sim);
}

static void ipi_waker(struct sim *sim, void *p)
{
	struct ipi *x = p;

	sim_charge(sim, 10 * US);
	sim_wake_one(sim, &x->q1);	/* CPU 1 is idle: an IPI */
	x->after_wake = sim_now(sim);
	x->ipis_after_first = sim_wake_ipis(sim);
	sim_wake_one(sim, &x->q0);	/* its own CPU: queued, nothing sent */
	x->ipis_after_local = sim_wake_ipis(sim);
	sim_charge(sim, 20 * US);
}

/* A test of the costs of waking a task on another, idle CPU, on 2 CPUs
 * with wake_ipi 5 us and idle_exit 3 us (other engine costs zero, slice
 * scheduler).  W (CPU 0) runs 10 us, wakes S1 (pinned to CPU 1, idle):
 * W pays the IPI, its clock goes to 15 us, and S1 starts at 10 + 5 + 3 =
 * 18 us with 8 us of run-queue wait (the IPI's and the idle exit's).  W then wakes S0 (pinned to its own
 * CPU 0): nothing is sent, no IPI counted, W's clock unchanged; S0 runs
 * when W ends at 35 us.  S1 sleeps 100 us on a timer: woken from the
 * engine onto its idle CPU, it pays idle_exit only: 118 + 3 = 121 us.
 * Expect those instants, 1 IPI, and 2 wake-ups onto an idle CPU (the
 * tasks' first starts are none). */
TEST(task_wake_ipi_and_idle_exit)
{
	struct cost_table c;
	struct sim_config cfg = { .ncpus = 2, .seed = 1 };
	struct sim *sim;
	struct ipi x = { 0 };
	struct sim_task *s1;
	struct sim_task_stats st;

	cost_table_init(&c);
	c.ps[COST_context_switch] = 0;
	c.ps[COST_wakeup] = 0;
	c.ps[COST_wake_ipi] = 5 * US * 1000;
	c.ps[COST_idle_exit] = 3 * US * 1000;
	cfg.costs = &c;
	sim = sim_create(&cfg);
	sim_waitq_init(&x.q0, "q0");
	sim_waitq_init(&x.q1, "q1");
	s1 = st_task(sim, "S1", 1, true, ipi_sleeper1, &x, 0);
	st_task(sim, "S0", 0, true, ipi_sleeper0, &x, 0);
	st_task(sim, "W", 0, true, ipi_waker, &x, 1);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(x.after_wake, 1 + 15 * US);
	ASSERT_U64_EQ(x.woke1, 1 + 18 * US);
	ASSERT_U64_EQ(x.ipis_after_first, 1);
	ASSERT_U64_EQ(x.ipis_after_local, 1);
	ASSERT_U64_EQ(x.woke0, 1 + 35 * US);
	ASSERT_U64_EQ(x.timer_woke, 1 + 121 * US);
	ASSERT_U64_EQ(sim_wake_ipis(sim), 1);
	ASSERT_U64_EQ(sim_idle_wakeups(sim), 2);
	sim_task_stats(s1, &st);
	ASSERT_U64_EQ(st.runq_ns, (5 + 3) * US + 3 * US);
	sim_destroy(sim);
}
