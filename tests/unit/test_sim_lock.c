/* SPDX-License-Identifier: MIT */
/* Tests of spinlocks, mutexes, rwsems and wait queues: waiting semantics
 * (spinners burn their CPU, sleepers free it), FIFO hand-off, exact
 * contention statistics on constructed schedules, rwsem writer preference,
 * wait-queue timeouts, engine context. */
#include "harness.h"
#include "sim_test.h"
#include "sim/rng.h"

enum { SPIN, MUTEX };

struct lk {
	int			type;
	struct sim_spinlock	s;
	struct sim_mutex	m;
	struct sim_rwsem	rw;
	struct st_log		log;
	int			started_cpu;
};

static void lk_lock(struct sim *sim, struct lk *k)
{
	if (k->type == SPIN)
		sim_spin_lock(sim, &k->s);
	else
		sim_mutex_lock(sim, &k->m);
}

static void lk_unlock(struct sim *sim, struct lk *k)
{
	if (k->type == SPIN)
		sim_spin_unlock(sim, &k->s);
	else
		sim_mutex_unlock(sim, &k->m);
}

static const struct sim_lock_stats *lk_stats(struct lk *k)
{
	return k->type == SPIN ? &k->s.stats : &k->m.stats;
}

static void holder_1ms(struct sim *sim, void *p)
{
	struct lk *k = p;

	lk_lock(sim, k);
	sim_charge(sim, SIM_NSEC_PER_MSEC);
	lk_unlock(sim, k);
}

static void contender_100ns(struct sim *sim, void *p)
{
	struct lk *k = p;

	lk_lock(sim, k);
	sim_charge(sim, 100);
	lk_unlock(sim, k);
}

static void bystander(struct sim *sim, void *p)
{
	struct lk *k = p;

	k->started_cpu = (int)sim_cpu(sim);
	st_log_add(&k->log, sim_now(sim), 'C');
}

/* Shared schedule: A (CPU 0) holds the lock 0..1 ms; B (CPU 1) asks at
 * 100 ns and holds it 100 ns; C, pinned to CPU 1, becomes runnable at
 * 200 ns. */
static void run_spin_vs_mutex(struct lk *k, struct sim_task_stats *b_stats,
			      struct sim_cpu_stats *cpu1, sim_time_t *end)
{
	struct sim *sim = st_sim_exact(2);
	struct sim_task *b;

	sim_spin_init(sim, &k->s, "L");
	sim_mutex_init(sim, &k->m, "L");
	st_task(sim, "A", 0, false, holder_1ms, k, 0);
	b = st_task(sim, "B", 1, false, contender_100ns, k, 100);
	st_task(sim, "C", 1, true, bystander, k, 200);
	sim_run(sim, SIM_TIME_NEVER);
	sim_task_stats(b, b_stats);
	sim_cpu_stats(sim, 1, cpu1);
	*end = sim_now(sim);
	sim_destroy(sim);
}

/* A test that a spinning waiter keeps its CPU: B spins on CPU 1 from
 * 100 ns to 1 ms, so C (pinned to CPU 1) cannot run until B has taken the
 * lock, held it 100 ns and exited.  Expect C to start at 1 ms + 100 ns,
 * B's spin 999900 ns, CPU 1 spin 999900 and busy 1000000 ns, and lock
 * statistics: 2 acquisitions, 1 contended, wait 999900, hold 1000100. */
TEST(lock_spinner_burns_its_cpu)
{
	struct lk k = { .type = SPIN, .started_cpu = -1 };
	struct sim_task_stats bs;
	struct sim_cpu_stats c1;
	sim_time_t end;

	run_spin_vs_mutex(&k, &bs, &c1, &end);
	ASSERT_EQ(k.log.n, 1);
	ASSERT_U64_EQ(k.log.t[0], SIM_NSEC_PER_MSEC + 100);
	ASSERT_EQ(k.started_cpu, 1);
	ASSERT_U64_EQ(bs.spin_ns, 999900);
	ASSERT_U64_EQ(bs.sleep_ns, 0);
	ASSERT_U64_EQ(c1.spin_ns, 999900);
	ASSERT_U64_EQ(c1.busy_ns, 1000000);
	ASSERT_U64_EQ(lk_stats(&k)->acquisitions, 2);
	ASSERT_U64_EQ(lk_stats(&k)->contended, 1);
	ASSERT_U64_EQ(lk_stats(&k)->wait_ns, 999900);
	ASSERT_U64_EQ(lk_stats(&k)->hold_ns, 1000100);
}

/* A test that a mutex waiter sleeps and frees its CPU: the same schedule
 * with a mutex.  Expect C to run on CPU 1 at 200 ns, B's sleep 999900 ns
 * and no spin anywhere, CPU 1 busy only B's 100 ns, and the same lock
 * statistics as the spinlock's. */
TEST(lock_mutex_sleeper_frees_its_cpu)
{
	struct lk k = { .type = MUTEX, .started_cpu = -1 };
	struct sim_task_stats bs;
	struct sim_cpu_stats c1;
	sim_time_t end;

	run_spin_vs_mutex(&k, &bs, &c1, &end);
	ASSERT_EQ(k.log.n, 1);
	ASSERT_U64_EQ(k.log.t[0], 200);
	ASSERT_EQ(k.started_cpu, 1);
	ASSERT_U64_EQ(bs.spin_ns, 0);
	ASSERT_U64_EQ(bs.sleep_ns, 999900);
	ASSERT_U64_EQ(c1.spin_ns, 0);
	ASSERT_U64_EQ(c1.busy_ns, 100);
	ASSERT_U64_EQ(end, SIM_NSEC_PER_MSEC + 100);
	ASSERT_U64_EQ(lk_stats(&k)->acquisitions, 2);
	ASSERT_U64_EQ(lk_stats(&k)->contended, 1);
	ASSERT_U64_EQ(lk_stats(&k)->wait_ns, 999900);
	ASSERT_U64_EQ(lk_stats(&k)->hold_ns, 1000100);
}

struct fifo {
	struct lk	*k;
	int		tag;
	sim_time_t	hold;
	bool		try_first;
};

static void fifo_fn(struct sim *sim, void *p)
{
	struct fifo *f = p;

	if (f->try_first && sim_spin_trylock(sim, &f->k->s))
		SIM_BUG("trylock should fail");
	lk_lock(sim, f->k);
	st_log_add(&f->k->log, sim_now(sim), f->tag);
	sim_charge(sim, f->hold);
	lk_unlock(sim, f->k);
}

/* A test of FIFO hand-off and exact statistics for a spinlock with three
 * waiters: A (0 ns) holds 1000; B (100) and C (200) hold 500; D (300)
 * first fails a trylock, then waits and holds 0.  Expect grants A@0 B@1000
 * C@1500 D@2000; acquisitions 4, contended 3, wait 900+1300+1700 = 3900,
 * hold 2000, trylock_fail 1. */
TEST(lock_spin_fifo_handoff_stats)
{
	struct sim *sim = st_sim_exact(4);
	struct lk k = { .type = SPIN };
	struct fifo f[4] = {
		{ &k, 'A', 1000, false }, { &k, 'B', 500, false },
		{ &k, 'C', 500, false }, { &k, 'D', 0, true },
	};
	const sim_time_t t_expect[4] = { 0, 1000, 1500, 2000 };

	sim_spin_init(sim, &k.s, "zone->lock");
	for (int i = 0; i < 4; i++)
		st_task(sim, "w", i, false, fifo_fn, &f[i], (sim_time_t)i * 100);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(k.log.n, 4);
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(k.log.tag[i], 'A' + i);
		ASSERT_U64_EQ(k.log.t[i], t_expect[i]);
	}
	ASSERT_U64_EQ(k.s.stats.acquisitions, 4);
	ASSERT_U64_EQ(k.s.stats.contended, 3);
	ASSERT_U64_EQ(k.s.stats.wait_ns, 3900);
	ASSERT_U64_EQ(k.s.stats.hold_ns, 2000);
	ASSERT_U64_EQ(k.s.stats.trylock_fail, 1);
	ASSERT_FALSE(sim_spin_is_locked(&k.s));
	sim_destroy(sim);
}

/* A test that the spinlock hand-off is charged: with default costs, B gets
 * the lock from A and pays `spin_handoff` on top of its own work.  Expect
 * B's cpu_ns = context_switch + spin_handoff + 100. */
TEST(lock_spin_handoff_cost)
{
	struct sim_config cfg = { .ncpus = 2, .seed = 1 };
	struct sim *sim = sim_create(&cfg);
	struct lk k = { .type = SPIN };
	struct sim_task *b;
	struct sim_task_stats bs;
	const struct cost_table *c = sim_costs(sim);

	sim_spin_init(sim, &k.s, "L");
	st_task(sim, "A", 0, false, holder_1ms, &k, 0);
	b = st_task(sim, "B", 1, false, contender_100ns, &k, 100);
	sim_run(sim, SIM_TIME_NEVER);
	sim_task_stats(b, &bs);
	ASSERT_TRUE(cost_ns(c, COST_spin_handoff, 1) > 0);
	ASSERT_U64_EQ(bs.cpu_ns, cost_ns(c, COST_context_switch, 1) +
				 cost_ns(c, COST_spin_handoff, 1) + 100);
	ASSERT_U64_EQ(k.s.stats.contended, 1);
	sim_destroy(sim);
}

struct rw {
	struct lk	*k;
	int		tag;
	bool		write;
	sim_time_t	hold;
};

static void rw_fn(struct sim *sim, void *p)
{
	struct rw *r = p;

	if (r->write)
		sim_down_write(sim, &r->k->rw);
	else
		sim_down_read(sim, &r->k->rw);
	st_log_add(&r->k->log, sim_now(sim), r->tag);
	sim_charge(sim, r->hold);
	if (r->write)
		sim_up_write(sim, &r->k->rw);
	else
		sim_up_read(sim, &r->k->rw);
}

/* The log holds exactly these n (tag, time) records, in order. */
static bool log_is(const struct st_log *log, unsigned int n, const int *tag, const sim_time_t *t)
{
	if (log->n != n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (log->tag[i] != tag[i] || log->t[i] != t[i])
			return false;
	return true;
}

/* A test of rwsem writer preference: R1 reads 0..1000; W asks to write at
 * 100; R2 and R3 ask to read at 200 and 300.  A waiting writer blocks new
 * readers, so R2 and R3 must not join R1.  Expect grants R1@0 W@1000
 * (holding 500) R2@1500 R3@1500; acquisitions 4, contended 3, wait
 * 900+1300+1200 = 3400, hold (any mode) 1000+500+100 = 1600. */
TEST(lock_rwsem_waiting_writer_blocks_readers)
{
	struct sim *sim = st_sim_exact(4);
	struct lk k = { 0 };
	struct rw r[4] = {
		{ &k, 1, false, 1000 }, { &k, 'W', true, 500 },
		{ &k, 2, false, 100 }, { &k, 3, false, 100 },
	};
	const int tag_expect[4] = { 1, 'W', 2, 3 };
	const sim_time_t t_expect[4] = { 0, 1000, 1500, 1500 };

	sim_rwsem_init(sim, &k.rw, "mmap_lock");
	for (int i = 0; i < 4; i++)
		st_task(sim, "rw", i, false, rw_fn, &r[i], (sim_time_t)i * 100);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(log_is(&k.log, 4, tag_expect, t_expect));
	ASSERT_U64_EQ(k.rw.stats.acquisitions, 4);
	ASSERT_U64_EQ(k.rw.stats.contended, 3);
	ASSERT_U64_EQ(k.rw.stats.wait_ns, 3400);
	ASSERT_U64_EQ(k.rw.stats.hold_ns, 1600);
	ASSERT_EQ(k.rw.readers, 0);
	ASSERT_EQ(k.rw.writer, 0);
	sim_destroy(sim);
}

/* A test of the reader wake-up on a writer's release: W1 writes 0..1000;
 * R1 (100) reads, W2 (200) writes, R2 (300) reads.  As rwsem_mark_wake
 * does, the release wakes every queued reader, W2 keeping its place.
 * Expect R1@1000 R2@1000 (100 each), then W2@1100. */
TEST(lock_rwsem_release_wakes_all_readers)
{
	struct sim *sim = st_sim_exact(4);
	struct lk k = { 0 };
	struct rw r[4] = {
		{ &k, 'V', true, 1000 }, { &k, 1, false, 100 },
		{ &k, 'W', true, 100 }, { &k, 2, false, 100 },
	};
	const int tag_expect[4] = { 'V', 1, 2, 'W' };
	const sim_time_t t_expect[4] = { 0, 1000, 1000, 1100 };

	sim_rwsem_init(sim, &k.rw, NULL);
	for (int i = 0; i < 4; i++)
		st_task(sim, "rw", i, false, rw_fn, &r[i], (sim_time_t)i * 100);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(log_is(&k.log, 4, tag_expect, t_expect));
	sim_destroy(sim);
}

/* st_sim_exact with rwsem_steal: rwsems as kernel/locking/rwsem.c */
static struct sim *st_sim_exact_steal(unsigned int ncpus)
{
	return st_sim_exact_cfg((struct sim_config){ .ncpus = ncpus, .seed = 1, .rwsem_steal = true });
}

/* A task that keeps its CPU busy for `hold` ns without the lock. */
static void hog_fn(struct sim *sim, void *p)
{
	sim_charge(sim, ((struct rw *)p)->hold);
}

/* The steal schedule: V (CPU 0) writes 0..1000; W (pinned to CPU 1) asks
 * to write at 100 and sleeps; B (pinned to CPU 1) keeps CPU 1 busy
 * 500..2500; S (CPU 0) asks to write at 1050, holding 500.  V's release
 * at 1000 wakes W, which cannot run before 2500. */
static void run_rwsem_steal_schedule(struct sim *sim, struct lk *k)
{
	static struct rw r[4];

	r[0] = (struct rw){ k, 'V', true, 1000 };
	r[1] = (struct rw){ k, 'W', true, 100 };
	r[2] = (struct rw){ k, 'B', false, 2000 };
	r[3] = (struct rw){ k, 'S', true, 500 };
	sim_rwsem_init(sim, &k->rw, NULL);
	st_task(sim, "V", 0, false, rw_fn, &r[0], 0);
	st_task(sim, "W", 1, true, rw_fn, &r[1], 100);
	st_task(sim, "B", 1, true, hog_fn, &r[2], 500);
	st_task(sim, "S", 0, false, rw_fn, &r[3], 1050);
	sim_run(sim, SIM_TIME_NEVER);
}

/* A test of rwsem lock stealing (rwsem_steal) on the schedule above:
 * V's release only wakes W, so S, running at 1050, takes the free lock
 * and W takes it when it runs at 2500.  Expect V@0 S@1050 W@2500; one
 * contended acquisition (W, 2400 ns from its request); and under the
 * model's FIFO hand-off instead W granted at 1000 (running at 2500) and
 * S after it: V@0 W@2500 S@2600. */
TEST(lock_rwsem_steal_woken_writer_loses_to_a_running_one)
{
	const int tag_steal[3] = { 'V', 'S', 'W' }, tag_fifo[3] = { 'V', 'W', 'S' };
	const sim_time_t t_steal[3] = { 0, 1050, 2500 }, t_fifo[3] = { 0, 2500, 2600 };

	for (int steal = 0; steal < 2; steal++) {
		struct sim *sim = steal ? st_sim_exact_steal(2) : st_sim_exact(2);
		struct lk k = { 0 };

		run_rwsem_steal_schedule(sim, &k);
		ASSERT_TRUE(log_is(&k.log, 3, steal ? tag_steal : tag_fifo, steal ? t_steal : t_fifo));
		ASSERT_U64_EQ(k.rw.stats.acquisitions, 3);
		ASSERT_U64_EQ(k.rw.stats.contended, steal ? 1 : 2);
		if (steal)
			ASSERT_U64_EQ(k.rw.stats.wait_ns, 2400);
		ASSERT_EQ(k.rw.writer, 0);
		ASSERT_TRUE(!k.rw.handoff && !k.rw.woken);
		sim_destroy(sim);
	}
}

/* A test of the hand-off after RWSEM_WAIT_TIMEOUT (4 ms at the default
 * HZ 250), in ms: V (CPU 0) writes 0..1; W (pinned to CPU 1) asks at 0.1;
 * B keeps CPU 1 busy 0.5..5; S (CPU 0) asks at 1.05 and, the lock free
 * while W waits for its CPU, takes it until 6.  W runs at 5, finds it
 * held after 4.9 ms of waiting and reserves it.  B2 keeps CPU 1 busy
 * 5.5..7.5; R (CPU 0) asks to write at 6.5.  Expect S's release at 6 to
 * grant the lock to W (running at 7.5) although R, running at 6.5, could
 * have taken it: V@0 S@1.05 W@7.5 R@7.6; contended 2, waits W 5.9 ms
 * (request to grant) and R 1.1 ms. */
TEST(lock_rwsem_handoff_after_the_wait_timeout)
{
	const sim_time_t ms = SIM_NSEC_PER_MSEC, us = SIM_NSEC_PER_USEC;
	struct sim *sim = st_sim_exact_steal(2);
	struct lk k = { 0 };
	struct rw r[6] = {
		{ &k, 'V', true, 1 * ms }, { &k, 'W', true, 100 * us },
		{ &k, 'B', false, 4500 * us }, { &k, 'S', true, 4950 * us },
		{ &k, 'b', false, 2 * ms }, { &k, 'R', true, 100 * us },
	};
	const int tag_expect[4] = { 'V', 'S', 'W', 'R' };
	const sim_time_t t_expect[4] = { 0, 1050 * us, 7500 * us, 7600 * us };

	sim_rwsem_init(sim, &k.rw, NULL);
	st_task(sim, "V", 0, false, rw_fn, &r[0], 0);
	st_task(sim, "W", 1, true, rw_fn, &r[1], 100 * us);
	st_task(sim, "B", 1, true, hog_fn, &r[2], 500 * us);
	st_task(sim, "S", 0, false, rw_fn, &r[3], 1050 * us);
	st_task(sim, "B2", 1, true, hog_fn, &r[4], 5500 * us);
	st_task(sim, "R", 0, false, rw_fn, &r[5], 6500 * us);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(log_is(&k.log, 4, tag_expect, t_expect));
	ASSERT_U64_EQ(k.rw.stats.acquisitions, 4);
	ASSERT_U64_EQ(k.rw.stats.contended, 2);
	ASSERT_U64_EQ(k.rw.stats.wait_ns, 5900 * us + 1100 * us);
	ASSERT_TRUE(!k.rw.handoff && !k.rw.woken && !k.rw.writer);
	sim_destroy(sim);
}

struct rw_random {
	struct sim_rwsem	*rw;
	struct sim_rng		rng;
	unsigned int		*done;
	uint32_t		*writers_in, *readers_in;
	bool			*overlap;
};

/* 100 random operations: read or write the rwsem, hold 0-50 us, sleep or
 * compute 0-50 us between them; flags any reader/writer overlap. */
static void rw_random_fn(struct sim *sim, void *p)
{
	struct rw_random *r = p;

	for (int i = 0; i < 100; i++) {
		bool write = rng_below(&r->rng, 2);
		sim_time_t hold = rng_below(&r->rng, 50) * SIM_NSEC_PER_USEC;

		if (write) {
			sim_down_write(sim, r->rw);
			if (*r->writers_in || *r->readers_in)
				*r->overlap = true;
			(*r->writers_in)++;
		} else {
			sim_down_read(sim, r->rw);
			if (*r->writers_in)
				*r->overlap = true;
			(*r->readers_in)++;
		}
		sim_charge(sim, hold);
		if (write) {
			(*r->writers_in)--;
			sim_up_write(sim, r->rw);
		} else {
			(*r->readers_in)--;
			sim_up_read(sim, r->rw);
		}
		if (rng_below(&r->rng, 2))
			sim_sleep(sim, rng_below(&r->rng, 50) * SIM_NSEC_PER_USEC);
		else
			sim_charge(sim, rng_below(&r->rng, 50) * SIM_NSEC_PER_USEC);
	}
	(*r->done)++;
}

/* A test that random programs finish under both rwsem rules: 100 tasks on
 * 2 CPUs, 100 operations each, queues long enough that writers wait past
 * RWSEM_WAIT_TIMEOUT and hand-offs happen, with the engine's own costs
 * (a woken writer's context switch is a window for other releases).
 * Expect every task to finish, never a writer beside anybody, the lock
 * free with nobody queued, reserved or woken at the end. */
TEST(lock_rwsem_random_programs_finish)
{
	for (int steal = 0; steal < 2; steal++) {
		struct sim_config cfg = { .ncpus = 2, .seed = 7, .rwsem_steal = steal };
		struct sim *sim = sim_create(&cfg);
		struct sim_rwsem rw;
		struct rw_random r[100];
		unsigned int done = 0;
		uint32_t writers_in = 0, readers_in = 0;
		bool overlap = false;

		sim_rwsem_init(sim, &rw, "random");
		for (int i = 0; i < 100; i++) {
			r[i] = (struct rw_random){ .rw = &rw, .done = &done, .writers_in = &writers_in,
						   .readers_in = &readers_in, .overlap = &overlap };
			rng_init(&r[i].rng, 7, (uint64_t)i);
			st_task(sim, "rw", i % 2, false, rw_random_fn, &r[i], (sim_time_t)i * 1000);
		}
		sim_run(sim, SIM_TIME_NEVER);
		ASSERT_EQ(done, 100);
		ASSERT_TRUE(!overlap);
		ASSERT_TRUE(!rw.writer && !rw.readers && !rw.waiters.head && !rw.handoff && !rw.woken);
		ASSERT_U64_EQ(rw.stats.acquisitions, 100 * 100);
		sim_rwsem_release(sim, &rw);
		sim_destroy(sim);
	}
}

struct race {
	struct sim_rwsem	*rw;
	struct st_log		*log;
	sim_time_t		before;		/* compute (writer) or sleep (waiter) this long first */
	sim_time_t		hold;
	int			tag;
};

static void race_write(struct sim *sim, struct race *r)
{
	sim_down_write(sim, r->rw);
	st_log_add(r->log, sim_now(sim), r->tag);
	sim_charge(sim, r->hold);
	sim_up_write(sim, r->rw);
}

static void race_writer(struct sim *sim, void *p)
{
	sim_charge(sim, ((struct race *)p)->before);
	race_write(sim, p);
}

static void race_waiter(struct sim *sim, void *p)
{
	sim_sleep_until(sim, ((struct race *)p)->before);
	race_write(sim, p);
}

/* A test of releases while a woken writer is still switching in
 * (rwsem_steal, context switches of 10 us, 5 CPUs, in ms): A (CPU 0)
 * writes 0..5.  B (CPU 1) asks at 0.1 and C (CPU 2) at 0.2; a hog keeps
 * CPU 2 busy 1..10.  A's release wakes B, which starts 10 us later.
 * Meanwhile D (CPU 3, computing since 4) takes the free lock at 5.003
 * for 1 us, and E (CPU 4) takes it at 5.005 for 2 ms.  B, still the
 * woken first waiter, finds it held after 4.9 ms of waiting, reserves it
 * and sleeps at the head; D's release must not have woken C meanwhile,
 * or C, running at 10 with the lock free but reserved, would queue in
 * front of B with nobody left to wake either.  Expect E's release to
 * hand the lock to B, then C to take it when it runs: A D E B C, all
 * done, the lock free and nobody waiting. */
TEST(lock_rwsem_release_while_the_woken_writer_switches_in)
{
	const sim_time_t ms = SIM_NSEC_PER_MSEC, us = SIM_NSEC_PER_USEC;
	struct cost_table c;
	struct sim_config cfg = { .ncpus = 5, .seed = 1, .rwsem_steal = true, .costs = &c };
	struct sim *sim;
	struct sim_rwsem rw;
	struct st_log log = { 0 };
	struct race r[5] = {
		{ &rw, &log, 0, 5 * ms, 'A' },
		{ &rw, &log, 100 * us, 100 * us, 'B' },
		{ &rw, &log, 200 * us, 100 * us, 'C' },
		{ &rw, &log, 1003 * us, 1 * us, 'D' },
		{ &rw, &log, 1005 * us, 2 * ms, 'E' },
	};
	struct rw hog = { NULL, 'h', false, 9 * ms };
	const int tags[5] = { 'A', 'D', 'E', 'B', 'C' };

	cost_table_init(&c);
	c.ps[COST_context_switch] = 10 * 1000 * 1000;	/* 10 us */
	c.ps[COST_wakeup] = 0;
	sim = sim_create(&cfg);
	sim_rwsem_init(sim, &rw, "race");
	st_task(sim, "A", 0, true, race_writer, &r[0], 0);
	st_task(sim, "B", 1, true, race_waiter, &r[1], 0);
	st_task(sim, "C", 2, true, race_waiter, &r[2], 0);
	st_task(sim, "hog", 2, true, hog_fn, &hog, 1 * ms);
	st_task(sim, "D", 3, true, race_writer, &r[3], 4 * ms);
	st_task(sim, "E", 4, true, race_writer, &r[4], 4 * ms);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 5);
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(log.tag[i], tags[i]);
	ASSERT_TRUE(!rw.writer && !rw.waiters.head && !rw.handoff && !rw.woken);
	sim_rwsem_release(sim, &rw);
	sim_destroy(sim);
}

struct wq {
	struct sim_waitq q;
	struct st_log	log;
	sim_time_t	timeout;
	int		tag;
	bool		after_sleep;
};

static void wq_waiter(struct sim *sim, void *p)
{
	struct wq *w = p;
	bool woken = sim_wait(sim, &w->q, w->timeout);

	st_log_add(&w->log, sim_now(sim), woken ? 'W' : 'T');
	if (w->after_sleep) {
		sim_sleep(sim, 2000);
		st_log_add(&w->log, sim_now(sim), 'S');
	}
}

static void wq_wake_cb(struct sim *sim, void *p)
{
	struct wq *w = p;

	w->tag = (int)sim_wake_one(sim, &w->q);
}

/* A test of wait-queue timeouts.  T1 waits 1000 ns and nobody wakes it;
 * T2 waits with the same timeout but is woken at 300, then sleeps 2000.
 * Expect T1 to time out at 1000 (false), T2 to be woken at 300 (true) and
 * its stale timeout at 1000 not to cut its sleep short (2300). */
TEST(lock_waitq_timeout)
{
	struct sim *sim = st_sim_exact(2);
	struct wq w1 = { .timeout = 1000 }, w2 = { .timeout = 1000, .after_sleep = true };

	sim_waitq_init(&w1.q, "w1");
	sim_waitq_init(&w2.q, "w2");
	st_task(sim, "T1", 0, false, wq_waiter, &w1, 0);
	st_task(sim, "T2", 1, false, wq_waiter, &w2, 0);
	sim_call_at(sim, 300, wq_wake_cb, &w2);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(w1.log.n, 1);
	ASSERT_EQ(w1.log.tag[0], 'T');
	ASSERT_U64_EQ(w1.log.t[0], 1000);
	ASSERT_EQ(w2.tag, 1);
	ASSERT_EQ(w2.log.n, 2);
	ASSERT_EQ(w2.log.tag[0], 'W');
	ASSERT_U64_EQ(w2.log.t[0], 300);
	ASSERT_EQ(w2.log.tag[1], 'S');
	ASSERT_U64_EQ(w2.log.t[1], 2300);
	ASSERT_FALSE(sim_waitq_active(&w1.q));
	sim_destroy(sim);
}

struct wall {
	struct sim_waitq *q;
	struct st_log	*log;
	int		tag;
};

static void wall_fn(struct sim *sim, void *p)
{
	struct wall *w = p;

	sim_charge(sim, (uint64_t)w->tag * 10);
	sim_wait(sim, w->q, SIM_TIME_NEVER);
	st_log_add(w->log, sim_now(sim), w->tag);
}

static void wall_cb(struct sim *sim, void *p)
{
	struct wall *w = p;

	w->tag = (int)sim_wake_all(sim, w->q);
}

/* A test of sim_wake_all on one CPU: three tasks run one after another,
 * charge 30, 10 and 20 ns and wait (so they begin to wait at 30, 40 and
 * 60 in the order tag 3, 1, 2); a callback wakes all at 100.  Expect 3
 * woken and the tasks to run in the order they began to wait. */
TEST(lock_waitq_wake_all_fifo)
{
	struct sim *sim = st_sim_exact(1);
	struct sim_waitq q;
	struct st_log log = { 0 };
	struct wall w[3] = { { &q, &log, 3 }, { &q, &log, 1 }, { &q, &log, 2 } };
	struct wall cb = { &q, &log, 0 };

	sim_waitq_init(&q, "q");
	for (int i = 0; i < 3; i++)
		st_task(sim, "w", 0, false, wall_fn, &w[i], 0);
	sim_call_at(sim, 100, wall_cb, &cb);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(cb.tag, 3);
	ASSERT_EQ(log.n, 3);
	ASSERT_EQ(log.tag[0], 3);
	ASSERT_EQ(log.tag[1], 1);
	ASSERT_EQ(log.tag[2], 2);
	ASSERT_U64_EQ(log.t[0], 100);
	sim_destroy(sim);
}

/* A test of engine context: uncontended lock operations succeed and
 * count, in registration order for reports; anonymous locks are not
 * listed; a released lock leaves the list.  Expect the list "a", "c" for
 * spinlocks, "m" for mutexes, one acquisition and one trylock failure. */
TEST(lock_engine_context_and_registry)
{
	struct sim *sim = st_sim_exact(1);
	struct sim_spinlock a, b, c;
	struct sim_mutex m;
	struct sim_rwsem s;
	const struct sim_spinlock *it;

	sim_spin_init(sim, &a, "a");
	sim_spin_init(sim, &b, "b");
	sim_spin_init(sim, &c, "c");
	sim_spin_release(sim, &b);
	sim_mutex_init(sim, &m, "m");
	sim_rwsem_init(sim, &s, "s");
	sim_spin_lock(sim, &a);
	ASSERT_TRUE(sim_spin_is_locked(&a));
	ASSERT_FALSE(sim_spin_trylock(sim, &a));
	sim_spin_unlock(sim, &a);
	ASSERT_TRUE(sim_mutex_trylock(sim, &m));
	sim_mutex_unlock(sim, &m);
	sim_down_read(sim, &s);
	sim_down_read(sim, &s);
	sim_up_read(sim, &s);
	sim_up_read(sim, &s);
	sim_down_write(sim, &s);
	sim_up_write(sim, &s);
	ASSERT_U64_EQ(a.stats.acquisitions, 1);
	ASSERT_U64_EQ(a.stats.trylock_fail, 1);
	ASSERT_U64_EQ(m.stats.acquisitions, 1);
	ASSERT_U64_EQ(s.stats.acquisitions, 3);
	it = sim_spinlocks(sim);
	ASSERT_STR_EQ(it->name, "a");
	it = it->next_registered;
	ASSERT_STR_EQ(it->name, "c");
	ASSERT_TRUE(it->next_registered == NULL);
	ASSERT_STR_EQ(sim_mutexes(sim)->name, "m");
	ASSERT_STR_EQ(sim_rwsems(sim)->name, "s");
	sim_destroy(sim);
}

static void engine_spin_contended(void *p)
{
	struct sim *sim = p;
	struct sim_spinlock l;

	sim_spin_init(sim, &l, NULL);
	sim_spin_lock(sim, &l);
	sim_spin_lock(sim, &l);
}

static void engine_mutex_contended(void *p)
{
	struct sim *sim = p;
	struct sim_mutex m;

	sim_mutex_init(sim, &m, NULL);
	sim_mutex_lock(sim, &m);
	sim_mutex_lock(sim, &m);
}

static void engine_unlock_free(void *p)
{
	struct sim *sim = p;
	struct sim_mutex m;

	sim_mutex_init(sim, &m, NULL);
	sim_mutex_unlock(sim, &m);
}

/* A test that waiting in engine context, and releasing a lock one does not
 * hold, are bugs.  Expect SIM_BUG (abort) in each case. */
TEST(lock_engine_context_blocking_is_a_bug)
{
	struct sim *sim = st_sim_exact(1);

	ASSERT_TRUE(st_dies(engine_spin_contended, sim));
	ASSERT_TRUE(st_dies(engine_mutex_contended, sim));
	ASSERT_TRUE(st_dies(engine_unlock_free, sim));
	sim_destroy(sim);
}

struct uspin_case {
	struct sim_spinlock lock;
	struct st_log	log;
	sim_time_t	spin_ns;	/* the waiter's spin budget */
	uint64_t	lock_spin_ns;	/* the lock's spin_ns after the run */
};

/* Holds the user spinlock from 0 to 100 us, sleeping 60 us of it (a
 * stalled page fault), which a kernel spinlock forbids. */
static void uspin_holder(struct sim *sim, void *p)
{
	struct uspin_case *c = p;

	ASSERT_TRUE(sim_uspin_lock_for(sim, &c->lock, 0));
	sim_charge(sim, 40 * SIM_NSEC_PER_USEC);
	sim_sleep(sim, 60 * SIM_NSEC_PER_USEC);
	sim_uspin_unlock(sim, &c->lock);
	st_log_add(&c->log, sim_now(sim), 'u');
}

static void uspin_waiter(struct sim *sim, void *p)
{
	struct uspin_case *c = p;
	bool got;

	sim_sleep(sim, 10 * SIM_NSEC_PER_USEC);
	got = sim_uspin_lock_for(sim, &c->lock, c->spin_ns);
	st_log_add(&c->log, sim_now(sim), got ? 'g' : 'f');
	if (got)
		sim_uspin_unlock(sim, &c->lock);
}

static struct sim_task_stats uspin_run(struct uspin_case *c)
{
	struct sim *sim = st_sim_exact(2);
	struct sim_task *w;
	struct sim_task_stats st;

	sim_spin_init(sim, &c->lock, "test_uspin");
	st_task(sim, "holder", 0, true, uspin_holder, c, 0);
	w = st_task(sim, "waiter", 1, true, uspin_waiter, c, 0);
	sim_run(sim, SIM_TIME_NEVER);
	sim_task_stats(w, &st);
	c->lock_spin_ns = c->lock.stats.spin_ns;
	sim_destroy(sim);
	return st;
}

/* A test of user-space spinlocks (PostgreSQL's slock_t): the holder keeps
 * the lock 0..100 us and sleeps 60 us of it; a waiter on another CPU
 * tries at 10 us.  With a 200-us spin budget expect it to be handed the
 * lock at the release (100 us) after spinning 90 us on its CPU; with a
 * 50-us budget expect it to give up at 60 us after spinning 50 us, and
 * the holder to release at 100 us either way.  The lock's spin_ns counts
 * the spin both times, whether it ended with the lock or not. */
TEST(lock_user_spinlock_spins_then_gives_up)
{
	struct uspin_case a = { .spin_ns = 200 * SIM_NSEC_PER_USEC };
	struct uspin_case b = { .spin_ns = 50 * SIM_NSEC_PER_USEC };
	struct sim_task_stats st;

	st = uspin_run(&a);
	ASSERT_U64_EQ(a.log.n, 2);
	ASSERT_TRUE(a.log.tag[0] == 'u' && a.log.tag[1] == 'g');
	ASSERT_U64_EQ(a.log.t[0], 100 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(a.log.t[1], 100 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(st.spin_ns, 90 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(a.lock_spin_ns, 90 * SIM_NSEC_PER_USEC);
	st = uspin_run(&b);
	ASSERT_U64_EQ(b.log.n, 2);
	ASSERT_TRUE(b.log.tag[0] == 'f' && b.log.tag[1] == 'u');
	ASSERT_U64_EQ(b.log.t[0], 60 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(b.log.t[1], 100 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(st.spin_ns, 50 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(b.lock_spin_ns, 50 * SIM_NSEC_PER_USEC);
}

struct tas_case {
	struct sim_spinlock lock;
	struct st_log	log;
};

/* Takes the user spinlock at its start time, holds it 10 us (100 us for
 * the first, who finds it free), releases it and logs the release. */
static void tas_task(struct sim *sim, void *p)
{
	struct tas_case *c = p;
	bool first = sim_now(sim) == 0;

	ASSERT_TRUE(sim_uspin_lock_for(sim, &c->lock, SIM_NSEC_PER_SEC));
	sim_charge(sim, (first ? 100 : 10) * SIM_NSEC_PER_USEC);
	sim_uspin_unlock(sim, &c->lock);
	st_log_add(&c->log, sim_now(sim), 'u');
}

static void tas_run(struct tas_case *c, uint64_t handoff_ps)
{
	struct cost_table costs;
	struct sim_config cfg = { .ncpus = 4, .seed = 1 };
	struct sim *sim;

	cost_table_init(&costs);
	costs.ps[COST_context_switch] = 0;
	costs.ps[COST_wakeup] = 0;
	costs.ps[COST_spin_handoff] = 0;
	costs.ps[COST_pg_tas_handoff] = handoff_ps;
	cfg.costs = &costs;
	sim = sim_create(&cfg);
	sim_spin_init(sim, &c->lock, "test_tas");
	st_task(sim, "holder", 0, true, tas_task, c, 0);
	st_task(sim, "w1", 1, true, tas_task, c, 10 * SIM_NSEC_PER_USEC);
	st_task(sim, "w2", 2, true, tas_task, c, 20 * SIM_NSEC_PER_USEC);
	st_task(sim, "w3", 3, true, tas_task, c, 30 * SIM_NSEC_PER_USEC);
	sim_run(sim, SIM_TIME_NEVER);
	sim_destroy(sim);
}

/* A test of the test-and-set hand-off (PostgreSQL's slock_t): the lock is
 * held 0..100 us, three tasks on other CPUs start spinning at 10, 20 and
 * 30 us and each holds it 10 us once handed it.  With pg_tas_handoff at
 * 1 us per other spinner, w1 is handed the lock with two others spinning
 * (+2 us), w2 with one (+1 us), w3 with none: expect releases at 100,
 * 112, 123 and 133 us; with the cost at 0, at 100, 110, 120 and 130 us. */
TEST(lock_user_spinlock_handoff_pays_per_spinner)
{
	static const uint64_t with[4] = { 100, 112, 123, 133 }, without[4] = { 100, 110, 120, 130 };
	struct tas_case a = { 0 }, b = { 0 };

	tas_run(&a, 1000 * 1000);
	tas_run(&b, 0);
	ASSERT_U64_EQ(a.log.n, 4);
	ASSERT_U64_EQ(b.log.n, 4);
	for (unsigned int i = 0; i < 4; i++) {
		ASSERT_U64_EQ(a.log.t[i], with[i] * SIM_NSEC_PER_USEC);
		ASSERT_U64_EQ(b.log.t[i], without[i] * SIM_NSEC_PER_USEC);
	}
	ASSERT_EQ(a.lock.uspinners, 0);
}
