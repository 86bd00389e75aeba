/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "sim/rng.h"
#include "workload/workload.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A test that histogram buckets tile the value range without gaps or
 * overlaps and are at most 1/64 of their values wide.  Expect contiguous
 * bounds, both bounds mapping to their bucket, width <= lo/64. */
TEST(buckets_tile_the_range)
{
	sim_time_t prev_hi = 0, lo, hi;

	for (unsigned int b = 0; b < WL_LAT_BUCKETS - 1; b++) {
		wl_lat_bucket_bounds(b, &lo, &hi);
		if (b)
			ASSERT_U64_EQ(lo, prev_hi + 1);
		ASSERT_TRUE(hi >= lo);
		if (lo >= 128)
			ASSERT_TRUE((hi - lo + 1) * 64 <= lo);
		ASSERT_EQ(wl_lat_bucket(lo), b);
		ASSERT_EQ(wl_lat_bucket(hi), b);
		prev_hi = hi;
	}
	wl_lat_bucket_bounds(WL_LAT_BUCKETS - 1, &lo, &hi);
	ASSERT_U64_EQ(lo, prev_hi + 1);
	ASSERT_TRUE(lo > 100ULL * SIM_NSEC_PER_SEC);	/* exact beyond 100 s */
	ASSERT_EQ(wl_lat_bucket(UINT64_MAX), WL_LAT_BUCKETS - 1);
}

/* A test that quantiles are within 1 % of the exact order statistic for
 * latencies spread log-uniformly from 1 us to 9 s.  Expect |error| <= 1 %
 * at p50, p95, p99 and p99.9, p100 equal to the exact maximum, and the mean
 * exact. */
TEST(quantiles_within_one_percent)
{
	enum { N = 200000 };
	struct wl_stats *s = malloc(sizeof(*s));
	uint64_t *v = malloc(N * sizeof(*v));
	struct sim_rng r;
	static const double qs[] = { 0.5, 0.95, 0.99, 0.999 };
	uint64_t sum = 0;

	ASSERT_TRUE(s && v);
	wl_stats_init(s, 0, SIM_NSEC_PER_SEC);
	rng_init(&r, 1, rng_stream_id("test", 0));
	for (int i = 0; i < N; i++) {
		v[i] = (uint64_t)(1000.0 * exp(16.0 * rng_double(&r)));
		sum += v[i];
		wl_stats_tx(s, (sim_time_t)i * 1000, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t exact = v[(size_t)ceil(qs[k] * N) - 1];
		double got = (double)wl_stats_quantile(s, qs[k]);

		ASSERT_NEAR(got / (double)exact, 1.0, 0.01);
	}
	ASSERT_U64_EQ(wl_stats_quantile(s, 1.0), v[N - 1]);
	ASSERT_U64_EQ(s->lat_max_ns, v[N - 1]);
	ASSERT_U64_EQ(s->lat_sum_ns, sum);
	ASSERT_U64_EQ(s->transactions, N);
	wl_stats_release(s);
	free(v);
	free(s);
}

/* A test of the measurement window and the per-interval series: nothing
 * before measure_start counts, intervals are counted from it, the series
 * grows past its first allocation.  Expect the counts, sums and maxima. */
TEST(intervals_and_ramp)
{
	struct wl_stats *s = malloc(sizeof(*s));
	const sim_time_t sec = SIM_NSEC_PER_SEC;

	wl_stats_init(s, 10 * sec, sec);
	wl_stats_tx(s, 9 * sec, 5);			/* during ramp: ignored */
	wl_stats_tx(s, 10 * sec, 100);			/* interval 0 */
	wl_stats_tx(s, 10 * sec + sec / 2, 300);	/* interval 0 */
	wl_stats_tx(s, 12 * sec, 50);			/* interval 2 */
	wl_stats_tx(s, 210 * sec, 7);			/* interval 200 */
	ASSERT_U64_EQ(s->transactions, 4);
	ASSERT_EQ(s->nr_intervals, 201);
	ASSERT_U64_EQ(s->interval_tx[0], 2);
	ASSERT_U64_EQ(s->interval_lat_sum[0], 400);
	ASSERT_U64_EQ(s->interval_lat_max[0], 300);
	ASSERT_U64_EQ(s->interval_tx[1], 0);
	ASSERT_U64_EQ(s->interval_tx[2], 1);
	ASSERT_U64_EQ(s->interval_tx[200], 1);
	ASSERT_U64_EQ(wl_stats_quantile(s, 0.5), 50);
	ASSERT_U64_EQ(s->lat_max_ns, 300);
	wl_stats_release(s);
	wl_stats_init(s, 0, 0);
	ASSERT_U64_EQ(s->interval_ns, sec);
	ASSERT_U64_EQ(wl_stats_quantile(s, 0.99), 0);
	wl_stats_release(s);
	free(s);
}

/* A test that merging two recorders equals recording everything in one.
 * Expect identical totals, histograms and series. */
TEST(merge_equals_single)
{
	struct wl_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	struct sim_rng r;

	wl_stats_init(a, 0, SIM_NSEC_PER_MSEC);
	wl_stats_init(b, 0, SIM_NSEC_PER_MSEC);
	wl_stats_init(all, 0, SIM_NSEC_PER_MSEC);
	rng_init(&r, 7, rng_stream_id("merge", 0));
	for (int i = 0; i < 5000; i++) {
		sim_time_t now = rng_below(&r, 300 * SIM_NSEC_PER_MSEC), lat = rng_below(&r, 1000000);

		wl_stats_tx(i % 3 ? a : b, now, lat);
		wl_stats_tx(all, now, lat);
	}
	wl_stats_merge(a, b);
	ASSERT_U64_EQ(a->transactions, all->transactions);
	ASSERT_U64_EQ(a->lat_sum_ns, all->lat_sum_ns);
	ASSERT_U64_EQ(a->lat_max_ns, all->lat_max_ns);
	ASSERT_EQ(memcmp(a->lat_hist, all->lat_hist, sizeof(a->lat_hist)), 0);
	ASSERT_EQ(a->nr_intervals, all->nr_intervals);
	for (uint32_t k = 0; k < a->nr_intervals; k++) {
		ASSERT_U64_EQ(a->interval_tx[k], all->interval_tx[k]);
		ASSERT_U64_EQ(a->interval_lat_sum[k], all->interval_lat_sum[k]);
		ASSERT_U64_EQ(a->interval_lat_max[k], all->interval_lat_max[k]);
	}
	wl_stats_release(a);
	wl_stats_release(b);
	wl_stats_release(all);
	free(a);
	free(b);
	free(all);
}

/* A test of figures: they are kept in order with their units.  Expect the
 * two figures as added and "" for a NULL unit. */
TEST(report_figures)
{
	struct wl_report r = { 0 };

	wl_report_figure(&r, "iops_per_cpu", 12.5, "IOPS");
	wl_report_figure(&r, "pagetables_share", 0.4, NULL);
	ASSERT_EQ(r.nr_figures, 2);
	ASSERT_STR_EQ(r.figures[0].name, "iops_per_cpu");
	ASSERT_STR_EQ(r.figures[0].unit, "IOPS");
	ASSERT_STR_EQ(r.figures[1].unit, "");
	ASSERT_NEAR(r.figures[1].value, 0.4, 0);
}
