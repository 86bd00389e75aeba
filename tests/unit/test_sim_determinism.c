/* SPDX-License-Identifier: MIT */
/* Tests of determinism: the same multi-task program (tasks, locks, I/O,
 * random sleeps) run twice gives the same full event trace; another seed
 * gives another trace; RNG streams are per actor, so adding an actor does
 * not change what the others draw. */
#include "harness.h"
#include "sim/bdev.h"
#include "sim/rng.h"
#include "sim_test.h"

struct prog {
	struct sim_spinlock	lock;
	struct sim_mutex	mutex;
	struct sim_rwsem	rw;
	struct sim_waitq	wq;
	struct bdev		*dev;
};

#define MAX_ACTORS 16
#define NDRAWS 32

struct actor {
	struct prog	*p;
	struct sim_rng	rng;
	uint64_t	draws[NDRAWS];	/* the first draws, for the independence test */
	unsigned int	ndraws;
};

static uint64_t draw(struct actor *a, uint64_t n)
{
	uint64_t x = rng_below(&a->rng, n);

	if (a->ndraws < NDRAWS)
		a->draws[a->ndraws++] = x;
	return x;
}

static void actor_fn(struct sim *sim, void *arg)
{
	struct actor *a = arg;
	struct prog *p = a->p;

	for (int it = 0; it < 60; it++) {
		sim_path_push(sim, "iteration");
		sim_charge(sim, 500 + draw(a, 10000));
		switch (draw(a, 7)) {
		case 0:
			sim_spin_lock(sim, &p->lock);
			sim_charge(sim, draw(a, 3000));
			sim_spin_unlock(sim, &p->lock);
			break;
		case 1:
			sim_mutex_lock(sim, &p->mutex);
			bdev_io_wait(sim, p->dev, BIO_WRITE, draw(a, 4096) * 4096, 4096 * (1 + draw(a, 64)));
			sim_mutex_unlock(sim, &p->mutex);
			break;
		case 2:
			bdev_io_wait(sim, p->dev, BIO_FLUSH, 0, 0);
			break;
		case 3:
			if (draw(a, 4) == 0) {
				sim_down_write(sim, &p->rw);
				sim_charge(sim, 2000);
				sim_up_write(sim, &p->rw);
			} else {
				sim_down_read(sim, &p->rw);
				sim_charge(sim, 1000);
				sim_up_read(sim, &p->rw);
			}
			break;
		case 4:
			if (!sim_wait(sim, &p->wq, draw(a, 40000)))
				sim_charge(sim, 10);
			break;
		case 5:
			sim_wake_one(sim, &p->wq);
			sim_cond_resched(sim);
			break;
		default:
			sim_sleep(sim, draw(a, 50000));
			break;
		}
		sim_path_pop(sim);
	}
}

struct trace_hash {
	uint64_t	h;
	uint64_t	n;
};

static void hash_event(void *ctx, sim_time_t t, uint64_t seq, uint32_t task_ref)
{
	struct trace_hash *th = ctx;
	uint64_t x[3] = { t, seq, task_ref };

	for (int i = 0; i < 3; i++) {
		th->h ^= x[i];
		th->h *= 0x100000001b3ULL;
		th->h ^= th->h >> 29;
	}
	th->n++;
}

struct run_info {
	uint64_t	outcome;	/* hash of the final clock, locks and tasks */
	uint64_t	events, resumes, direct;
};

/* Run `nactors` actors (stream ids "actor", i) on 3 CPUs with `seed`;
 * returns the trace hash combined with the final clock and lock stats
 * (0 with `traced` false: no trace hook, whose presence makes every task
 * switch go through the engine). */
static uint64_t run_prog_opt(uint64_t seed, int nactors, struct actor *actors, uint64_t *nevents,
			     bool traced, struct run_info *ri)
{
	struct sim_config cfg = { .ncpus = 3, .seed = seed };
	struct sim *sim = sim_create(&cfg);
	struct bdev_config bc = {
		.name = "md0", .iops = 20000, .bandwidth = 500ULL << 20, .lat_mean_ns = 400000,
		.lat_p99_ns = 1200000, .flush_ns = 300000, .members = 3, .chunk_bytes = 65536,
		.io_unit_bytes = 262144,
	};
	struct prog p;
	struct trace_hash th = { 0xcbf29ce484222325ULL, 0 };
	int kind = sim_task_kind(sim, "actor");
	struct sim_task *tasks[MAX_ACTORS];

	sim_spin_init(sim, &p.lock, "lock");
	sim_mutex_init(sim, &p.mutex, "mutex");
	sim_rwsem_init(sim, &p.rw, "rw");
	sim_waitq_init(&p.wq, "wq");
	p.dev = bdev_create(sim, &bc);
	if (traced)
		sim_set_trace(sim, hash_event, &th);
	for (int i = 0; i < nactors; i++) {
		struct sim_task_config tc = { .name = "actor", .kind = kind, .cpu = SIM_CPU_ANY };

		actors[i].p = &p;
		actors[i].ndraws = 0;
		rng_init(&actors[i].rng, seed, rng_stream_id("actor", (uint64_t)i));
		tasks[i] = sim_task_create(sim, &tc, actor_fn, &actors[i], 0);
	}
	sim_run(sim, SIM_TIME_NEVER);
	hash_event(&th, sim_now(sim), p.lock.stats.wait_ns, (uint32_t)p.mutex.stats.contended);
	*nevents = th.n;
	if (ri) {
		struct trace_hash o = { 0xcbf29ce484222325ULL, 0 };

		hash_event(&o, sim_now(sim), p.lock.stats.wait_ns, (uint32_t)p.mutex.stats.contended);
		for (int i = 0; i < nactors; i++) {
			struct sim_task_stats ts;

			sim_task_stats(tasks[i], &ts);
			hash_event(&o, ts.cpu_ns, ts.runq_ns, (uint32_t)ts.switches);
			hash_event(&o, ts.sleep_ns, ts.spin_ns, (uint32_t)ts.io_ns);
		}
		ri->outcome = o.h;
		ri->events = sim_events(sim);
		ri->resumes = sim_resumes(sim);
		ri->direct = sim_direct_resumes(sim);
	}
	sim_destroy(sim);
	return th.h;
}

static uint64_t run_prog(uint64_t seed, int nactors, struct actor *actors, uint64_t *nevents)
{
	return run_prog_opt(seed, nactors, actors, nevents, true, NULL);
}

/* A test of whole-run determinism: 8 actors doing compute, a spinlock, a
 * mutex around I/O, flushes, an rwsem, a wait queue with random timeouts
 * and random sleeps, twice with seed 1 and once with seed 2.  Expect equal
 * trace hashes (and event counts) for the two seed-1 runs, a different
 * hash for seed 2, and a non-trivial number of events. */
TEST(determinism_same_seed_same_trace)
{
	struct actor a[MAX_ACTORS];
	uint64_t n1, n2, n3;
	uint64_t h1 = run_prog(1, 8, a, &n1);
	uint64_t h2 = run_prog(1, 8, a, &n2);
	uint64_t h3 = run_prog(2, 8, a, &n3);

	ASSERT_TRUE(n1 > 500);
	ASSERT_U64_EQ(n1, n2);
	ASSERT_U64_EQ(h1, h2);
	ASSERT_TRUE(h1 != h3);
}

/* A test of RNG stream independence inside a run: the same program with 8
 * and with 9 actors.  The schedules differ (the trace hashes do), but each
 * of the first 8 actors draws exactly the same numbers, since a stream
 * depends only on (seed, stream id).  Expect equal draws, different
 * traces. */
TEST(determinism_adding_an_actor_keeps_others_numbers)
{
	static struct actor a8[MAX_ACTORS], a9[MAX_ACTORS];
	uint64_t n8, n9;
	uint64_t h8 = run_prog(3, 8, a8, &n8);
	uint64_t h9 = run_prog(3, 9, a9, &n9);

	ASSERT_TRUE(h8 != h9);
	for (int i = 0; i < 8; i++) {
		ASSERT_EQ(a8[i].ndraws, NDRAWS);
		for (int d = 0; d < NDRAWS; d++)
			ASSERT_U64_EQ(a8[i].draws[d], a9[i].draws[d]);
	}
}

/* A test that switching from task to task directly (task.c direct_next)
 * changes nothing but the host stack a task is entered from: the 8-actor
 * program run without a trace hook, where most switches go straight from
 * the yielding task to the next, and with one, where every switch goes
 * through the engine.  Expect the same events, resumes, final clock, lock
 * and per-task statistics; more than a third of the switches direct in
 * the first run (230 of 498 when written; none in ASan builds, which
 * always go through the engine) and none in the second. */
TEST(determinism_direct_switch_is_host_layout_only)
{
	struct actor a[MAX_ACTORS];
	struct run_info d, e;
	uint64_t n;

	run_prog_opt(4, 8, a, &n, false, &d);
	run_prog_opt(4, 8, a, &n, true, &e);
	ASSERT_TRUE(d.events > 500);
	ASSERT_U64_EQ(d.events, e.events);
	ASSERT_U64_EQ(d.resumes, e.resumes);
	ASSERT_U64_EQ(d.outcome, e.outcome);
	if (sim_direct_switch_built())
		ASSERT_TRUE(d.direct * 3 > d.resumes);
	else
		ASSERT_U64_EQ(d.direct, 0);	/* ASan builds */
	ASSERT_U64_EQ(e.direct, 0);
}
