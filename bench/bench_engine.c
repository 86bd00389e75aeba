/* SPDX-License-Identifier: MIT */
/*
 * bench_engine.c — engine throughput (make bench; release build).
 *
 *  1. Bare event queue: the "hold" model (pop the minimum, push it back a
 *     random increment later) with 1200 and 100000 pending events, for a
 *     binary and a 4-ary heap built from the same code (evq.h).  The
 *     figure the project's speed target quotes is 74 ns per pop+push for a bare binary
 *     heap with ~1200 pending events.
 *  2. Synthetic workloads on the real engine: N tasks on C CPUs, each
 *     looping over steps drawn from its own RNG stream: compute (charge +
 *     sync), a spinlock section on one of 16 "zone locks", a mutex section
 *     (a "WAL lock") and 8 KiB writes to a 12-member RAID0 (blocking).
 *     Reported: events/s, ns per event, virtual-CPU context switches/s,
 *     coroutine resumes, fast syncs.  Shapes: the full-scale machine
 *     (1024 tasks on 96 CPUs), a small one (16 on 4), and one task on one
 *     CPU doing compute steps, with and without the sync fast path.
 *
 * Wall-clock time is read here only; the model never reads it.  ns/event
 * reads 0 where (almost) no event ran: the fast path did all the work,
 * and ns/step is the figure to compare.
 *
 *   build/rel/bench/bench_engine [scale [full]]
 *   scale multiplies the work (default 1); "full" runs only the full-scale
 *   mix (for profiling). 
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bdev.h"
#include "sim/internal.h"
#include "sim/rng.h"
#include "bench.h"

/* ---- 1. bare queue --------------------------------------------------------- */

static void noop(struct sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
}

/* One timed pass; bench_queue keeps the best of several (the machine is
 * shared, so the minimum is the least disturbed figure). */
static double queue_pass(unsigned int arity, uint32_t pending, uint64_t ops)
{
	struct sim_evq q;
	struct sim_rng rng;
	struct sim_event e;
	uint64_t sink = 0;
	double t0, t1;

	sim_evq_init(&q);
	rng_init(&rng, 1, rng_stream_id("bench-queue", pending));
	for (uint32_t i = 0; i < pending; i++)
		sim_evq_push(&q, rng_below(&rng, 1000000), noop, NULL);
	t0 = now_s();
	if (arity == 2) {
		for (uint64_t i = 0; i < ops; i++) {
			sim_evq_pop_d(&q, &e, 2);
			sink += e.seq;
			sim_evq_push_d(&q, e.time + 1 + (rng_next(&rng) & 0xfffff), noop, NULL, 2);
		}
	} else {
		for (uint64_t i = 0; i < ops; i++) {
			sim_evq_pop_d(&q, &e, 4);
			sink += e.seq;
			sim_evq_push_d(&q, e.time + 1 + (rng_next(&rng) & 0xfffff), noop, NULL, 4);
		}
	}
	t1 = now_s();
	sim_evq_release(&q);
	if (sink == 42)
		printf(" ");
	return (t1 - t0) * 1e9 / (double)ops;
}

static double bench_queue(unsigned int arity, uint32_t pending, uint64_t ops)
{
	double best = 1e30;

	for (int rep = 0; rep < 5; rep++) {
		double ns = queue_pass(arity, pending, ops / 5);

		if (ns < best)
			best = ns;
	}
	return best;
}

/* ---- 2. synthetic workload ----------------------------------------------------- */

struct world {
	struct sim_spinlock	zone_lock[16];
	struct sim_mutex	wal;
	struct bdev		*md;
	sim_time_t		end;
	int			compute_only;
};

struct worker {
	struct world	*w;
	struct sim_rng	rng;
	uint64_t	steps;
};

static void worker_fn(struct sim *sim, void *arg)
{
	struct worker *k = arg;
	struct world *w = k->w;

	while (sim_now(sim) < w->end) {
		uint64_t r = w->compute_only ? 0 : rng_below(&k->rng, 100);

		k->steps++;
		sim_charge(sim, 2000 + rng_below(&k->rng, 8000));
		if (r < 70) {
			sim_sync(sim);
		} else if (r < 88) {
			struct sim_spinlock *l = &w->zone_lock[rng_below(&k->rng, 16)];

			sim_spin_lock(sim, l);
			sim_charge(sim, 300);
			sim_spin_unlock(sim, l);
		} else if (r < 92) {
			sim_mutex_lock(sim, &w->wal);
			sim_charge(sim, 1500);
			sim_mutex_unlock(sim, &w->wal);
		} else {
			bdev_io_wait(sim, w->md, BIO_WRITE, rng_below(&k->rng, 1 << 20) * 8192, 8192);
		}
	}
}

static void bench_workload(const char *label, unsigned int ncpus, unsigned int ntasks,
			   sim_time_t duration, int compute_only, bool fast_off)
{
	struct sim_config cfg = { .ncpus = ncpus, .seed = 1 };
	struct sim *sim = sim_create(&cfg);
	struct bdev_config bc = {
		.name = "md0", .iops = 32000, .bandwidth = 4000ULL << 20, .lat_mean_ns = 500000,
		.lat_p99_ns = 800000, .flush_ns = 500000, .members = 12, .chunk_bytes = 512 << 10,
		.io_unit_bytes = 256 << 10, .total_iops = 120000, .total_bandwidth = 3750000000ULL,
	};
	struct world w;
	struct worker *k = calloc(ntasks, sizeof(*k));
	int kind = sim_task_kind(sim, "backend");
	uint64_t switches = 0, steps = 0, ev;
	double t0, t1, secs;

	for (int i = 0; i < 16; i++)
		sim_spin_init(sim, &w.zone_lock[i], "zone->lock");
	sim_mutex_init(sim, &w.wal, "WALWriteLock");
	w.md = bdev_create(sim, &bc);
	w.end = duration;
	w.compute_only = compute_only;
	sim->fast_sync_off = fast_off;
	for (unsigned int i = 0; i < ntasks; i++) {
		struct sim_task_config tc = { .name = "backend", .kind = kind, .cpu = SIM_CPU_ANY };

		k[i].w = &w;
		rng_init(&k[i].rng, 1, rng_stream_id("backend", i));
		sim_task_create(sim, &tc, worker_fn, &k[i], 0);
	}
	t0 = now_s();
	ev = sim_run(sim, SIM_TIME_NEVER);
	t1 = now_s();
	secs = t1 - t0;
	for (unsigned int c = 0; c < ncpus; c++) {
		struct sim_cpu_stats cs;

		sim_cpu_stats(sim, c, &cs);
		switches += cs.switches;
	}
	for (unsigned int i = 0; i < ntasks; i++)
		steps += k[i].steps;
	printf("%-34s %5u %5u %9.2f M %8.2f M/s %7.1f ns %8.2f M/s %7.2f M %7.2f M %7.1f ns\n",
	       label, ncpus, ntasks, (double)ev / 1e6, (double)ev / secs / 1e6,
	       ev >= 1000 ? secs * 1e9 / (double)ev : 0.0, (double)switches / secs / 1e6,
	       (double)sim->resumes / 1e6, (double)sim->fast_syncs / 1e6,
	       secs * 1e9 / (double)steps);
	free(k);
	sim_destroy(sim);
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	uint64_t qops = (uint64_t)(20e6 * scale);
	sim_time_t sec = (sim_time_t)(SIM_NSEC_PER_SEC * scale);

	if (scale <= 0) {
		fprintf(stderr, "usage: bench_engine [scale > 0 [full]]\n");
		return 2;
	}
	if (argc > 2 && strcmp(argv[2], "full") == 0) {
		bench_workload("full-scale mix (96 CPUs, 1024)", 96, 1024, sec / 2, 0, false);
		return 0;
	}
	printf("bare event queue, hold model (pop min + push later), ns per pop+push, best of 5:\n");
	printf("  %-10s %10s %10s\n", "pending", "binary", "4-ary");
	for (uint32_t pending = 1200; pending <= 100000; pending = pending == 1200 ? 100000 : 200000)
		printf("  %-10u %10.1f %10.1f\n", pending, bench_queue(2, pending, qops),
		       bench_queue(4, pending, qops));
	printf("\nengine, synthetic workload (compute / zone-lock / WAL mutex / RAID0 write):\n");
	printf("%-34s %5s %5s %11s %12s %10s %12s %9s %9s %10s\n", "workload", "cpus", "tasks",
	       "events", "events/s", "ns/event", "ctxsw/s", "resumes", "fastsync", "ns/step");
	bench_workload("full-scale mix (96 CPUs, 1024)", 96, 1024, sec / 2, 0, false);
	bench_workload("small mix (4 CPUs, 16)", 4, 16, sec * 4, 0, false);
	bench_workload("compute, 1 task, fast sync", 1, 1, sec * 10, 1, false);
	bench_workload("compute, 1 task, no fast sync", 1, 1, sec * 10, 1, true);
	bench_workload("compute, 96 CPUs x 96 tasks", 96, 96, sec / 10, 1, false);
	bench_workload("compute, 96x96, no fast sync", 96, 96, sec / 10, 1, true);
	return 0;
}
