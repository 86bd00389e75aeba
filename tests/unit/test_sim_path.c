/* SPDX-License-Identifier: MIT */
/* Tests of call-path attribution: exact node figures on a constructed
 * program, node totals equal task totals on a mixed workload, interning by
 * content with first-seen child order, late kind registration. */
#include "harness.h"
#include "sim/bdev.h"
#include "sim/rng.h"
#include "sim_test.h"

static int find_child(const struct sim_path_node *nodes, uint32_t parent, const char *name)
{
	for (uint32_t c = nodes[parent].first_child; c; c = nodes[c].next_sibling)
		if (strcmp(nodes[c].name, name) == 0)
			return (int)c;
	return -1;
}

static void exact_prog(struct sim *sim, void *p)
{
	(void)p;
	sim_path_push(sim, "a");
	sim_charge(sim, 300);
	sim_path_push(sim, "b");
	sim_sleep(sim, 1000);
	sim_path_pop(sim);
	sim_path_pop(sim);
	sim_charge(sim, 50);
	sim_path_push(sim, "a");
	sim_charge(sim, 7);
	sim_path_pop(sim);
}

/* A test of exact attribution: root -> a (300 + 7 ns CPU, 2 calls) ->
 * b (1000 ns sleep), root itself 50 ns CPU.  Expect exactly those node
 * figures under the kind's root, named after the kind. */
TEST(path_exact_figures)
{
	struct sim *sim = st_sim_exact(1);
	const struct sim_path_node *n;
	int a, b;

	st_task(sim, "t", 0, false, exact_prog, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(sim_path_nodes(sim, &n), 3);
	ASSERT_STR_EQ(n[0].name, "test");
	ASSERT_U64_EQ(n[0].cpu_ns, 50);
	a = find_child(n, 0, "a");
	ASSERT_TRUE(a > 0);
	b = find_child(n, (uint32_t)a, "b");
	ASSERT_TRUE(b > 0);
	ASSERT_U64_EQ(n[a].cpu_ns, 307);
	ASSERT_U64_EQ(n[a].calls, 2);
	ASSERT_U64_EQ(n[a].sleep_ns, 0);
	ASSERT_U64_EQ(n[b].sleep_ns, 1000);
	ASSERT_U64_EQ(n[b].cpu_ns, 0);
	ASSERT_EQ(n[b].parent, a);
	ASSERT_EQ(n[a].parent, 0);
	sim_destroy(sim);
}

static void order_prog(struct sim *sim, void *p)
{
	const char *x_copy = p;	/* same text as "x", another address */

	sim_path_push(sim, "x");
	sim_path_pop(sim);
	sim_path_push(sim, "y");
	sim_path_pop(sim);
	sim_path_push(sim, x_copy);
	sim_path_pop(sim);
	sim_path_push(sim, "w");
	sim_path_pop(sim);
}

/* A test of interning: names are compared by content, so a copy of "x" at
 * another address is the same node; children keep first-seen order.
 * Expect root children x (2 calls), y, w in that order. */
TEST(path_interning_and_child_order)
{
	struct sim *sim = st_sim_exact(1);
	char x_copy[2] = { 'x', 0 };
	const struct sim_path_node *n;
	uint32_t c;

	st_task(sim, "t", 0, false, order_prog, x_copy, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(sim_path_nodes(sim, &n), 4);
	c = n[0].first_child;
	ASSERT_STR_EQ(n[c].name, "x");
	ASSERT_U64_EQ(n[c].calls, 2);
	c = n[c].next_sibling;
	ASSERT_STR_EQ(n[c].name, "y");
	c = n[c].next_sibling;
	ASSERT_STR_EQ(n[c].name, "w");
	ASSERT_EQ(n[c].next_sibling, 0);
	sim_destroy(sim);
}

struct late {
	struct sim	*sim;
	int		phase;
};

static void late_prog(struct sim *sim, void *p)
{
	struct late *l = p;

	sim_path_push(sim, "outer");
	sim_path_push(sim, "inner");
	sim_charge(sim, 10);
	sim_sleep(sim, 100);	/* a second kind is registered meanwhile */
	sim_charge(sim, 20);
	sim_path_pop(sim);
	sim_path_push(sim, "inner2");
	sim_charge(sim, 5);
	sim_path_pop(sim);
	sim_path_pop(sim);
	l->phase = 1;
}

static void late_register(struct sim *sim, void *p)
{
	(void)p;
	sim_task_kind(sim, "kswapd");
}

/* A test of registering a task kind after nodes exist: roots must stay at
 * indices 0..kinds-1, so existing nodes are renumbered, including the
 * path stack of a task that is sleeping inside them.  Expect node 1 to be
 * the new root "kswapd", and test -> outer -> {inner (30 ns CPU, 100 ns
 * sleep), inner2 (5 ns)} intact. */
TEST(path_late_kind_registration)
{
	struct sim *sim = st_sim_exact(1);
	struct late l = { sim, 0 };
	const struct sim_path_node *n;
	int outer, inner, inner2;

	st_task(sim, "t", 0, false, late_prog, &l, 0);
	sim_call_at(sim, 50, late_register, NULL);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(l.phase, 1);
	ASSERT_EQ(sim_nr_task_kinds(sim), 2);
	ASSERT_EQ(sim_path_nodes(sim, &n), 5);
	ASSERT_STR_EQ(n[0].name, "test");
	ASSERT_STR_EQ(n[1].name, "kswapd");
	ASSERT_EQ(n[1].kind, 1);
	ASSERT_EQ(n[1].first_child, 0);
	outer = find_child(n, 0, "outer");
	ASSERT_TRUE(outer > 1);
	inner = find_child(n, (uint32_t)outer, "inner");
	inner2 = find_child(n, (uint32_t)outer, "inner2");
	ASSERT_TRUE(inner > 1 && inner2 > 1);
	ASSERT_EQ(n[inner].parent, outer);
	ASSERT_U64_EQ(n[inner].cpu_ns, 30);
	ASSERT_U64_EQ(n[inner].sleep_ns, 100);
	ASSERT_U64_EQ(n[inner2].cpu_ns, 5);
	ASSERT_U64_EQ(n[inner].calls, 1);
	sim_destroy(sim);
}

/* ---- the measured window (ramp_time) --------------------------------------- */

static void window_start(struct sim *sim, void *p)
{
	(void)p;
	sim_path_window_start(sim);
}

static void window_spinner(struct sim *sim, void *p)
{
	struct sim_spinlock *l = p;

	sim_path_push(sim, "spin");
	sim_charge(sim, 100);
	sim_spin_lock(sim, l);
	sim_spin_unlock(sim, l);
	sim_path_pop(sim);
}

static void window_holder(struct sim *sim, void *p)
{
	struct sim_spinlock *l = p;

	sim_path_push(sim, "hold");
	sim_spin_lock(sim, l);
	sim_charge(sim, 1000);
	sim_spin_unlock(sim, l);
	sim_path_pop(sim);
}

/* A test of the window's figures.  CPU 0 runs exact_prog (a: 300 ns CPU,
 * b: asleep 300-1300, then root 50 ns and a 7 ns) and task q, queued there
 * at 0, which runs at 300, charges 100 and spins on a lock from 400; on
 * CPU 1 a holder takes the lock at 350 and charges 1000 before letting go.
 * The window starts at 800.  Expect, whole run: a 307 ns, b 1000 ns of
 * sleep, q's 300 ns of run queue on the root and 950 ns of spin; in the
 * window: a 7 ns and one call, b 500 ns of sleep (800-1300) and no call,
 * the root 50 ns and no run-queue time, 550 ns of spin (800-1350), and
 * none of the holder's CPU (charged at 350, before the window). */
TEST(path_window_figures)
{
	struct sim *sim = st_sim_exact(2);
	struct sim_spinlock lock;
	const struct sim_path_node *n;
	struct sim_path_node *w;
	sim_time_t at;
	int a, b, spin, hold;

	sim_spin_init(sim, &lock, "window");
	st_task(sim, "t", 0, true, exact_prog, NULL, 0);
	st_task(sim, "q", 0, true, window_spinner, &lock, 0);
	st_task(sim, "h", 1, true, window_holder, &lock, 350);
	sim_call_at(sim, 800, window_start, NULL);
	ASSERT_EQ(sim_path_window(sim, &w, &at), 0);
	ASSERT_TRUE(w == NULL);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(sim_path_window(sim, &w, &at), sim_path_nodes(sim, &n));
	ASSERT_U64_EQ(at, 800);
	a = find_child(n, 0, "a");
	b = find_child(n, (uint32_t)a, "b");
	spin = find_child(n, 0, "spin");
	hold = find_child(n, 0, "hold");
	ASSERT_TRUE(a > 0 && b > 0 && spin > 0 && hold > 0);
	/* whole run, as path_exact_figures, plus the others */
	ASSERT_U64_EQ(n[a].cpu_ns, 307);
	ASSERT_U64_EQ(n[b].sleep_ns, 1000);
	ASSERT_U64_EQ(n[0].runq_ns, 300);
	ASSERT_U64_EQ(n[spin].spin_ns, 950);
	ASSERT_U64_EQ(n[hold].cpu_ns, 1000);
	/* the window from 800, the same tree */
	ASSERT_EQ(w[b].parent, a);
	ASSERT_STR_EQ(w[spin].name, "spin");
	ASSERT_U64_EQ(w[a].cpu_ns, 7);
	ASSERT_U64_EQ(w[a].calls, 1);
	ASSERT_U64_EQ(w[b].sleep_ns, 500);
	ASSERT_U64_EQ(w[b].calls, 0);
	ASSERT_U64_EQ(w[0].cpu_ns, 50);
	ASSERT_U64_EQ(w[0].runq_ns, 0);
	ASSERT_U64_EQ(w[spin].spin_ns, 550);
	ASSERT_U64_EQ(w[hold].cpu_ns, 0);	/* charged at 350 */
	free(w);
	sim_destroy(sim);
}

static void window_end(struct sim *sim, void *p)
{
	(void)sim;
	(void)p;
}

static void window_sleeper(struct sim *sim, void *p)
{
	(void)p;
	sim_path_push(sim, "wait");
	sim_sleep(sim, 10000);
	sim_path_pop(sim);
}

/* A test of a window that ends with a task still asleep: the open sleep
 * counts up to the end on both sides.  Expect, for a task asleep from 0 to
 * 10000 and a run stopped by an event at 5000 with the window from 2000, 3000 ns of
 * sleep in the window (the whole run's tree has none: the sleep never
 * ended). */
TEST(path_window_open_at_the_end)
{
	struct sim *sim = st_sim_exact(1);
	const struct sim_path_node *n;
	struct sim_path_node *w;
	sim_time_t at;
	int wait;

	st_task(sim, "s", 0, false, window_sleeper, NULL, 0);
	sim_call_at(sim, 2000, window_start, NULL);
	sim_call_at(sim, 5000, window_end, NULL);	/* the clock stops at the last event */
	sim_run(sim, 5000);
	ASSERT_EQ(sim_path_window(sim, &w, &at), sim_path_nodes(sim, &n));
	wait = find_child(n, 0, "wait");
	ASSERT_TRUE(wait > 0);
	ASSERT_U64_EQ(n[wait].sleep_ns, 0);
	ASSERT_U64_EQ(w[wait].sleep_ns, 3000);
	free(w);
	sim_destroy(sim);
}

/* A test of the window's copy across a late kind registration: the copy
 * is renumbered with the tree.  Expect the new root to have no figures in
 * the window, and "inner" (10 ns CPU, asleep 10-110, 20 ns CPU) 70 ns of
 * sleep and 20 ns of CPU in the window from 40. */
TEST(path_window_late_kind)
{
	struct sim *sim = st_sim_exact(1);
	struct late l = { sim, 0 };
	const struct sim_path_node *n;
	struct sim_path_node *w;
	sim_time_t at;
	int outer, inner;

	st_task(sim, "t", 0, false, late_prog, &l, 0);
	sim_call_at(sim, 40, window_start, NULL);
	sim_call_at(sim, 50, late_register, NULL);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(sim_path_window(sim, &w, &at), sim_path_nodes(sim, &n));
	ASSERT_STR_EQ(w[1].name, "kswapd");
	ASSERT_U64_EQ(w[1].cpu_ns + w[1].sleep_ns + w[1].calls, 0);
	outer = find_child(n, 0, "outer");
	inner = find_child(n, (uint32_t)outer, "inner");
	ASSERT_TRUE(inner > 1);
	ASSERT_U64_EQ(n[inner].cpu_ns, 30);
	ASSERT_U64_EQ(w[inner].cpu_ns, 20);
	ASSERT_U64_EQ(w[inner].sleep_ns, 70);
	ASSERT_U64_EQ(w[inner].calls, 0);
	free(w);
	sim_destroy(sim);
}

/* ---- attribution sums on a mixed workload -------------------------------- */

struct mix {
	struct sim_spinlock	zone_lock;
	struct sim_mutex	wal;
	struct sim_rwsem	mmap;
	struct sim_waitq	wq;
	struct bdev		*dev;
};

struct mix_task {
	struct mix	*m;
	int		i;
	struct sim_rng	rng;
};

static void mix_worker(struct sim *sim, void *p)
{
	struct mix_task *mt = p;
	struct mix *m = mt->m;

	for (int it = 0; it < 40; it++) {
		sim_path_push(sim, "step");
		sim_charge(sim, 1000 + rng_below(&mt->rng, 20000));
		switch (rng_below(&mt->rng, 6)) {
		case 0:
			sim_path_push(sim, "alloc");
			sim_spin_lock(sim, &m->zone_lock);
			sim_charge(sim, rng_below(&mt->rng, 5000));
			sim_spin_unlock(sim, &m->zone_lock);
			sim_path_pop(sim);
			break;
		case 1:
			sim_path_push(sim, "commit");
			sim_mutex_lock(sim, &m->wal);
			sim_charge(sim, rng_below(&mt->rng, 8000));
			bdev_io_wait(sim, m->dev, BIO_WRITE, rng_below(&mt->rng, 1024) * 8192, 8192);
			sim_mutex_unlock(sim, &m->wal);
			sim_path_pop(sim);
			break;
		case 2:
			sim_down_read(sim, &m->mmap);
			sim_charge(sim, 3000);
			sim_up_read(sim, &m->mmap);
			break;
		case 3:
			sim_down_write(sim, &m->mmap);
			sim_charge(sim, 2000);
			sim_up_write(sim, &m->mmap);
			break;
		case 4:
			sim_wait(sim, &m->wq, 50000);
			break;
		default:
			sim_sleep(sim, rng_below(&mt->rng, 30000));
			break;
		}
		sim_path_pop(sim);
	}
}

static void mix_waker(struct sim *sim, void *p)
{
	struct mix_task *mt = p;

	for (int it = 0; it < 60; it++) {
		sim_sleep(sim, 20000);
		sim_path_push(sim, "wake");
		sim_wake_all(sim, &mt->m->wq);
		sim_path_pop(sim);
	}
}

/* A test that attribution adds up: 10 workers and a waker on 3 CPUs with
 * default costs (context switches, wake-ups, hand-offs charged), mixing
 * compute, a spinlock, a mutex around I/O, an rwsem, a wait queue with
 * timeout and sleeps.  Expect, for each kind, node totals = task totals
 * for cpu, spin, sleep, io and runq; CPU busy = all tasks' cpu + spin;
 * and some of every kind of time to have occurred (so the check is not
 * vacuous). */
TEST(path_attribution_sums)
{
	struct sim_config cfg = { .ncpus = 3, .seed = 11 };
	struct sim *sim = sim_create(&cfg);
	struct bdev_config bc = {
		.name = "md0", .iops = 32000, .lat_mean_ns = 500000, .lat_p99_ns = 800000,
		.flush_ns = 500000, .members = 4, .chunk_bytes = 512 * 1024,
	};
	struct mix m;
	struct mix_task mt[11];
	int kw = sim_task_kind(sim, "backend"), kk = sim_task_kind(sim, "waker");
	uint64_t node_sum[2][5] = { { 0 } }, task_sum[2][5] = { { 0 } };
	uint64_t busy = 0, cpu_spin = 0;
	const struct sim_path_node *n;
	uint32_t nn;

	sim_spin_init(sim, &m.zone_lock, "zone->lock");
	sim_mutex_init(sim, &m.wal, "WALWriteLock");
	sim_rwsem_init(sim, &m.mmap, "mmap_lock");
	sim_waitq_init(&m.wq, "wq");
	m.dev = bdev_create(sim, &bc);
	for (int i = 0; i < 11; i++) {
		struct sim_task_config tc = { .name = "t", .kind = i < 10 ? kw : kk, .cpu = SIM_CPU_ANY };

		mt[i].m = &m;
		mt[i].i = i;
		rng_init(&mt[i].rng, 11, rng_stream_id("backend", (uint64_t)i));
		sim_task_create(sim, &tc, i < 10 ? mix_worker : mix_waker, &mt[i], (sim_time_t)i * 10);
	}
	sim_run(sim, SIM_TIME_NEVER);
	nn = sim_path_nodes(sim, &n);
	for (uint32_t i = 0; i < nn; i++) {
		int k = n[i].kind == kw ? 0 : 1;

		node_sum[k][0] += n[i].cpu_ns;
		node_sum[k][1] += n[i].spin_ns;
		node_sum[k][2] += n[i].sleep_ns;
		node_sum[k][3] += n[i].io_ns;
		node_sum[k][4] += n[i].runq_ns;
	}
	for (uint32_t i = 0; i < sim_nr_tasks(sim); i++) {
		struct sim_task *t = sim_task_get(sim, i);
		struct sim_task_stats st;
		int k = sim_task_kind_of(t) == kw ? 0 : 1;

		ASSERT_TRUE(sim_task_exited(t));
		sim_task_stats(t, &st);
		task_sum[k][0] += st.cpu_ns;
		task_sum[k][1] += st.spin_ns;
		task_sum[k][2] += st.sleep_ns;
		task_sum[k][3] += st.io_ns;
		task_sum[k][4] += st.runq_ns;
		cpu_spin += st.cpu_ns + st.spin_ns;
	}
	for (int k = 0; k < 2; k++)
		for (int f = 0; f < 5; f++)
			ASSERT_U64_EQ(node_sum[k][f], task_sum[k][f]);
	for (int f = 0; f < 5; f++)
		ASSERT_TRUE(task_sum[0][f] > 0);
	for (unsigned int c = 0; c < sim_ncpus(sim); c++) {
		struct sim_cpu_stats cs;

		sim_cpu_stats(sim, c, &cs);
		busy += cs.busy_ns;
	}
	ASSERT_U64_EQ(busy, cpu_spin);
	ASSERT_TRUE(m.zone_lock.stats.contended > 0);
	ASSERT_TRUE(m.wal.stats.contended > 0);
	sim_destroy(sim);
}

static void deep_prog(struct sim *sim, void *p)
{
	(void)p;
	for (int i = 0; i < 40; i++)
		sim_path_push(sim, "deeper");
}

static void too_deep(void *p)
{
	struct sim *sim = st_sim_exact(1);

	(void)p;
	st_task(sim, "t", 0, false, deep_prog, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
}

static void pop_prog(struct sim *sim, void *p)
{
	(void)p;
	sim_path_pop(sim);
}

static void pop_empty(void *p)
{
	struct sim *sim = st_sim_exact(1);

	(void)p;
	st_task(sim, "t", 0, false, pop_prog, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
}

/* A test of the path stack's limits and of engine context.  Expect
 * SIM_BUG for 40 nested pushes (limit 32) and for a pop without push;
 * push/pop in engine context are no-ops (no node created). */
TEST(path_limits_and_engine_context)
{
	struct sim *sim = st_sim_exact(1);
	const struct sim_path_node *n;

	ASSERT_TRUE(st_dies(too_deep, NULL));
	ASSERT_TRUE(st_dies(pop_empty, NULL));
	sim_path_push(sim, "engine");
	sim_path_pop(sim);
	sim_path_pop(sim);
	ASSERT_EQ(sim_path_nodes(sim, &n), 0);
	sim_destroy(sim);
}

enum leak_case { BALANCED, LEAK_AT_EXIT, LEAK_AT_LOOP_TOP };

/* Pushes "leak" and never pops it, then exits, or first reaches the top
 * of its loop (sim_path_assert_empty) with it open. */
static void leak_prog(struct sim *sim, void *p)
{
	const enum leak_case *c = p;

	sim_path_push(sim, "balanced");
	sim_sleep(sim, 10);
	sim_path_pop(sim);
	sim_path_push(sim, "leak");
	sim_charge(sim, 5);
	if (*c == LEAK_AT_LOOP_TOP)
		sim_path_assert_empty(sim);
}

/* Blocks inside nested paths, checks at the top of each pass. */
static void balanced_prog(struct sim *sim, void *p)
{
	(void)p;
	for (int i = 0; i < 3; i++) {
		sim_path_assert_empty(sim);
		sim_path_push(sim, "a");
		sim_path_push(sim, "b");
		sim_sleep(sim, 10);
		sim_path_pop(sim);
		sim_path_pop(sim);
	}
}

static void run_case(void *p)
{
	const enum leak_case *c = p;
	struct sim *sim = st_sim_exact(1);

	st_task(sim, "t", 0, false, *c == BALANCED ? balanced_prog : leak_prog, p, 0);
	sim_run(sim, SIM_TIME_NEVER);
	sim_destroy(sim);
}

/* A test of the balance check (SIM_DEBUG >= 1 builds).  Expect SIM_BUG
 * for a task that exits with a path pushed and never popped, and for one
 * that reaches sim_path_assert_empty (the top of a main loop) with it
 * open; a balanced task that blocks inside nested paths passes both
 * checks.  With SIM_DEBUG=0 there is no check: nothing dies. */
TEST(path_unbalanced_push_is_caught)
{
	enum leak_case c[] = { BALANCED, LEAK_AT_EXIT, LEAK_AT_LOOP_TOP };

	ASSERT_FALSE(st_dies(run_case, &c[0]));
	ASSERT_EQ(st_dies(run_case, &c[1]), SIM_DEBUG >= 1);
	ASSERT_EQ(st_dies(run_case, &c[2]), SIM_DEBUG >= 1);
}
