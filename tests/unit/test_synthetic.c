/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "harness.h"
#include "sim/bdev.h"
#include "workload/synthetic.h"

struct run {
	struct wl_stats	stats;
	uint64_t	events;
	uint64_t	transactions;
	sim_time_t	p50, p99;
	double		per_task;
};

static void *make_config(const char *const *kv)
{
	void *cfg = calloc(1, synthetic_workload.config_size);
	char err[256];

	if (opt_apply_defaults(synthetic_workload.options, cfg))
		return NULL;
	for (; kv && kv[0]; kv += 2)
		if (opt_parse_value(opt_find(synthetic_workload.options, kv[0]), cfg, kv[1], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return NULL;
		}
	return cfg;
}

/* Run the synthetic workload alone on `ncpus` CPUs for `secs` seconds. */
static int run(const char *const *kv, uint64_t seed, unsigned int ncpus, unsigned int secs,
	       const struct bdev_config *dev, struct run *out)
{
	struct sim_config sc = { .ncpus = ncpus, .seed = seed };
	struct sim *sim = sim_create(&sc);
	void *cfg = make_config(kv), *st;
	struct bdev *b = NULL;
	const char *name = dev ? dev->name : NULL;
	struct wl_env env = { NULL, sim, &b, &name, dev ? 1 : 0, NULL };
	struct wl_report rep = { 0 };
	char err[256];

	if (!cfg)
		return -1;
	if (dev)
		b = bdev_create(sim, dev);
	if (synthetic_workload.validate(cfg, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	wl_stats_init(&out->stats, 0, SIM_NSEC_PER_SEC);
	st = synthetic_workload.start_env(&env, cfg, "", &out->stats, err, sizeof(err));
	if (!st) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	out->events = sim_run(sim, (sim_time_t)secs * SIM_NSEC_PER_SEC);
	synthetic_workload.report(st, &rep);
	out->transactions = out->stats.transactions;
	out->p50 = wl_stats_quantile(&out->stats, 0.5);
	out->p99 = wl_stats_quantile(&out->stats, 0.99);
	out->per_task = rep.figures[0].value;
	sim_destroy(sim);
	synthetic_workload.destroy(st);
	opt_release(synthetic_workload.options, cfg);
	free(cfg);
	return 0;
}

/* A test of the plain CPU mix: 4 tasks, 1 ms think, 50 us compute, no
 * locks, 4 CPUs, 1 s.  Expect about 4 / 1.05 ms = 3800 transactions (the
 * think time is random: +-10 %) and, with a CPU each, every latency 50 us:
 * p50 and p99 within the histogram's 1 %. */
TEST(cpu_only)
{
	static const char *const kv[] = { "lock_share", "0%", NULL };
	struct run r;

	ASSERT_EQ(run(kv, 1, 4, 1, NULL, &r), 0);
	ASSERT_TRUE(r.transactions > 3400 && r.transactions < 4200);
	ASSERT_NEAR(r.p50, 50000, 500);
	ASSERT_NEAR(r.p99, 50000, 500);
	ASSERT_NEAR(r.per_task, (double)r.transactions / 4, 1e-9);
	wl_stats_release(&r.stats);
}

/* A test of think_dist=fixed: the plain CPU mix of cpu_only with the 1 ms
 * think time fixed.  Nothing is drawn at random then, so two seeds give
 * the same count, each task loops at most every 1.05 ms (at most 953
 * transactions each in 1 s, the engine's costs add a little) and all four
 * alike, as they run on their own CPUs. */
TEST(think_fixed)
{
	static const char *const kv[] = { "lock_share", "0%", "think_dist", "fixed", NULL };
	struct run a, b;

	ASSERT_EQ(run(kv, 1, 4, 1, NULL, &a), 0);
	ASSERT_EQ(run(kv, 2, 4, 1, NULL, &b), 0);
	ASSERT_U64_EQ(a.transactions, b.transactions);
	ASSERT_TRUE(a.transactions <= 4 * 953 && a.transactions >= 4 * 900);
	ASSERT_U64_EQ(a.transactions % 4, 0);
	wl_stats_release(&a.stats);
	wl_stats_release(&b.stats);
}

/* A test that one lock serialises: 8 tasks without think time all take
 * the one mutex for 20 us of CPU.  Expect at most 1 s / 20 us = 50000
 * transactions (plus one in flight per task), and a p99 latency of at
 * least 7 hold times (7 others queue ahead). */
TEST(lock_serialises)
{
	static const char *const kv[] = { "tasks", "8", "think", "0", "compute", "0",
					  "lock_share", "100%", "lock_hold", "20us", NULL };
	struct run r;

	ASSERT_EQ(run(kv, 1, 8, 1, NULL, &r), 0);
	ASSERT_TRUE(r.transactions <= 50000 + 8);
	ASSERT_TRUE(r.transactions > 20000);
	ASSERT_TRUE(r.p99 >= 7 * 20000);
	wl_stats_release(&r.stats);
}

/* A test of the I/O step: every transaction computes 50 us and reads
 * 16 KiB from a device with a constant 500 us latency and no rate limit.
 * Expect p50 and p99 at 550 us within the histogram's 1 %. */
TEST(io_latency)
{
	static const char *const kv[] = { "lock_share", "0%", "io_share", "100%", "io_write", "0%",
					  "device", "d0", NULL };
	struct bdev_config dev = { .name = "d0", .lat_mean_ns = 500000, .members = 1,
				   .size_bytes = 1ULL << 40 };
	struct run r;

	ASSERT_EQ(run(kv, 1, 4, 1, &dev, &r), 0);

	ASSERT_TRUE(r.transactions > 1000);
	ASSERT_NEAR(r.p50, 550000, 5500);
	ASSERT_NEAR(r.p99, 550000, 5500);
	wl_stats_release(&r.stats);
}

/* A test of determinism: the same seed gives identical histograms and
 * event counts; another seed gives other numbers.  Expect equality, then
 * a different transaction count or histogram. */
TEST(seed_determinism)
{
	static const char *const kv[] = { "tasks", "6", "locks", "2", NULL };
	struct run a, b, c;

	ASSERT_EQ(run(kv, 5, 2, 1, NULL, &a), 0);
	ASSERT_EQ(run(kv, 5, 2, 1, NULL, &b), 0);
	ASSERT_EQ(run(kv, 6, 2, 1, NULL, &c), 0);
	ASSERT_U64_EQ(a.events, b.events);
	ASSERT_U64_EQ(a.transactions, b.transactions);
	ASSERT_EQ(memcmp(a.stats.lat_hist, b.stats.lat_hist, sizeof(a.stats.lat_hist)), 0);
	ASSERT_TRUE(a.transactions != c.transactions ||
		    memcmp(a.stats.lat_hist, c.stats.lat_hist, sizeof(a.stats.lat_hist)) != 0);
	wl_stats_release(&a.stats);
	wl_stats_release(&b.stats);
	wl_stats_release(&c.stats);
}

/* A test of the config checks and --scale.  Expect the messages for I/O
 * without a device and a misaligned size, tasks divided (at least 1),
 * and a start error naming a missing device. */
TEST(validate_scale_and_missing_device)
{
	static const char *const nodev[] = { "io_share", "1%", NULL };
	static const char *const odd[] = { "io_size", "1000", NULL };
	static const char *const missing[] = { "io_share", "1%", "device", "md9", NULL };
	void *c = make_config(nodev);
	char err[256];
	struct sim_config sc = { .ncpus = 1 };
	struct sim *sim;
	struct wl_stats stats;
	struct wl_env env = { 0 };

	ASSERT_EQ(synthetic_workload.validate(c, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "io_share is above 0% but no device= is given");
	opt_release(synthetic_workload.options, c);
	free(c);
	c = make_config(odd);
	ASSERT_EQ(synthetic_workload.validate(c, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "io_size must be a multiple of 512 bytes");
	ASSERT_EQ(synthetic_workload.scale(c, 3, err, sizeof(err)), 0);
	ASSERT_U64_EQ(*(uint64_t *)c, 1);	/* tasks is the first field: 4 / 3 */
	ASSERT_EQ(synthetic_workload.scale(c, 8, err, sizeof(err)), 0);
	ASSERT_U64_EQ(*(uint64_t *)c, 1);
	opt_release(synthetic_workload.options, c);
	free(c);
	c = make_config(missing);
	sim = sim_create(&sc);
	env.sim = sim;
	wl_stats_init(&stats, 0, 0);
	ASSERT_TRUE(synthetic_workload.start_env(&env, c, "x", &stats, err, sizeof(err)) == NULL);
	ASSERT_STR_EQ(err, "device 'md9' does not exist (no [device md9] section)");
	sim_destroy(sim);
	opt_release(synthetic_workload.options, c);
	free(c);
}
