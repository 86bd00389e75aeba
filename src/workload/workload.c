/* SPDX-License-Identifier: MIT */
/*
 * workload.c — the workload registry and the transaction statistics every
 * workload reports the same way.
 *
 * Latency histogram (log-linear, in the manner of HdrHistogram):
 *
 *   bucket 0..127        one bucket per ns value 0..127 (exact)
 *   bucket 128 + 64k + j value v with msb(v) = 7 + k, whose top seven bits
 *                        are 64 + j: 64 equal buckets per power of two
 *
 * A bucket in octave [2^e, 2^(e+1)) is 2^(e-6) wide, at most 1/64 of any
 * value in it, so its midpoint is within 1/128 (0.8 %) of every value it
 * holds.  With WL_LAT_BUCKETS = 2048 buckets the exact range reaches
 * 2^37 ns (137 s); longer latencies land in the last bucket, and the
 * quantile is capped by the exact maximum.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/debug.h"
#include "workload/fio.h"
#include "workload/forker.h"
#include "workload/fragment.h"
#include "workload/pgbench.h"
#include "workload/synthetic.h"
#include "workload/writer.h"
#include "workload/workload.h"

#define LIN_BITS	7			/* values below 2^7 are exact */
#define SUB_BITS	6			/* 2^6 buckets per octave above */
#define LIN_BUCKETS	(1u << LIN_BITS)
#define SUB_BUCKETS	(1u << SUB_BITS)

/* The registry, in the fixed order `slowpath check` and reports use. */
const struct workload_type *const workload_types[] = {
	&synthetic_workload,
	&fio_workload,
	&writer_workload,
	&forker_workload,
	&pgbench_workload,
	&fragment_workload,
	NULL
};

const struct workload_type *workload_find(const char *kind)
{
	for (unsigned int i = 0; workload_types[i]; i++)
		if (strcmp(workload_types[i]->kind, kind) == 0)
			return workload_types[i];
	return NULL;
}

struct bdev *wl_env_bdev(const struct wl_env *env, const char *name)
{
	for (unsigned int i = 0; i < env->nr_bdevs; i++)
		if (strcmp(env->bdev_names[i], name) == 0)
			return env->bdevs[i];
	return NULL;
}

struct bdev *wl_env_device(const struct wl_env *env, const char *name, char *err, size_t errlen)
{
	struct bdev *bdev = wl_env_bdev(env, name);

	if (!bdev)
		snprintf(err, errlen, "device '%s' does not exist (no [device %s] section)", name, name);
	return bdev;
}

char *wl_kind_name(const char *kind, const char *instance)
{
	size_t len = strlen(kind) + 1 + strlen(instance) + 1;
	char *name = malloc(len);

	if (!name)
		SIM_BUG("out of memory");
	snprintf(name, len, instance[0] ? "%s:%s" : "%s", kind, instance);
	return name;
}

/* ---- histogram ------------------------------------------------------------ */

unsigned int wl_lat_bucket(sim_time_t ns)
{
	unsigned int e, b;

	if (ns < LIN_BUCKETS)
		return (unsigned int)ns;
	e = 63u - (unsigned int)__builtin_clzll(ns);
	b = LIN_BUCKETS + (e - LIN_BITS) * SUB_BUCKETS +
	    (unsigned int)(ns >> (e - SUB_BITS)) - SUB_BUCKETS;
	return b < WL_LAT_BUCKETS ? b : WL_LAT_BUCKETS - 1;
}

void wl_lat_bucket_bounds(unsigned int b, sim_time_t *lo, sim_time_t *hi)
{
	unsigned int e, j;

	if (b < LIN_BUCKETS) {
		*lo = *hi = b;
		return;
	}
	e = LIN_BITS + (b - LIN_BUCKETS) / SUB_BUCKETS;
	j = (b - LIN_BUCKETS) % SUB_BUCKETS;
	*lo = (sim_time_t)(SUB_BUCKETS + j) << (e - SUB_BITS);
	*hi = *lo + ((sim_time_t)1 << (e - SUB_BITS)) - 1;
	if (b == WL_LAT_BUCKETS - 1)
		*hi = SIM_TIME_NEVER;	/* the overflow bucket */
}

/* ---- statistics ----------------------------------------------------------------- */

void wl_stats_init(struct wl_stats *s, sim_time_t measure_start, sim_time_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->measure_start = measure_start;
	s->interval_ns = interval_ns ? interval_ns : SIM_NSEC_PER_SEC;
}

void wl_stats_release(struct wl_stats *s)
{
	free(s->interval_tx);
	free(s->interval_lat_sum);
	free(s->interval_lat_max);
	memset(s, 0, sizeof(*s));
}

static void grow_intervals(struct wl_stats *s, uint32_t need)
{
	uint32_t cap = s->cap_intervals ? s->cap_intervals : 64;

	while (cap < need)
		cap *= 2;
	s->interval_tx = realloc(s->interval_tx, cap * sizeof(uint64_t));
	s->interval_lat_sum = realloc(s->interval_lat_sum, cap * sizeof(uint64_t));
	s->interval_lat_max = realloc(s->interval_lat_max, cap * sizeof(uint64_t));
	if (!s->interval_tx || !s->interval_lat_sum || !s->interval_lat_max)
		SIM_BUG("out of memory for %u intervals", cap);
	for (uint32_t i = s->cap_intervals; i < cap; i++)
		s->interval_tx[i] = s->interval_lat_sum[i] = s->interval_lat_max[i] = 0;
	s->cap_intervals = cap;
}

void wl_stats_tx(struct wl_stats *s, sim_time_t now, sim_time_t latency_ns)
{
	uint64_t k;

	if (now < s->measure_start)
		return;
	s->transactions++;
	s->lat_sum_ns += latency_ns;
	if (latency_ns > s->lat_max_ns)
		s->lat_max_ns = latency_ns;
	s->lat_hist[wl_lat_bucket(latency_ns)]++;
	k = (now - s->measure_start) / s->interval_ns;
	if (k >= UINT32_MAX)
		SIM_BUG("interval %llu out of range", (unsigned long long)k);
	if (k >= s->cap_intervals)
		grow_intervals(s, (uint32_t)k + 1);
	if (k >= s->nr_intervals)
		s->nr_intervals = (uint32_t)k + 1;
	s->interval_tx[k]++;
	s->interval_lat_sum[k] += latency_ns;
	if (latency_ns > s->interval_lat_max[k])
		s->interval_lat_max[k] = latency_ns;
}

sim_time_t wl_stats_quantile(const struct wl_stats *s, double q)
{
	uint64_t rank, seen = 0;

	if (!s->transactions)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	rank = (uint64_t)ceil(q * (double)s->transactions);
	if (rank < 1)
		rank = 1;
	for (unsigned int b = 0; b < WL_LAT_BUCKETS; b++) {
		seen += s->lat_hist[b];
		if (seen >= rank) {
			sim_time_t lo, hi, mid;

			wl_lat_bucket_bounds(b, &lo, &hi);
			mid = hi == SIM_TIME_NEVER ? s->lat_max_ns : lo + (hi - lo) / 2;
			return mid < s->lat_max_ns ? mid : s->lat_max_ns;
		}
	}
	return s->lat_max_ns;
}

void wl_stats_merge(struct wl_stats *into, const struct wl_stats *from)
{
	into->transactions += from->transactions;
	into->lat_sum_ns += from->lat_sum_ns;
	if (from->lat_max_ns > into->lat_max_ns)
		into->lat_max_ns = from->lat_max_ns;
	for (unsigned int b = 0; b < WL_LAT_BUCKETS; b++)
		into->lat_hist[b] += from->lat_hist[b];
	if (from->nr_intervals > into->cap_intervals)
		grow_intervals(into, from->nr_intervals);
	if (from->nr_intervals > into->nr_intervals)
		into->nr_intervals = from->nr_intervals;
	for (uint32_t k = 0; k < from->nr_intervals; k++) {
		into->interval_tx[k] += from->interval_tx[k];
		into->interval_lat_sum[k] += from->interval_lat_sum[k];
		if (from->interval_lat_max[k] > into->interval_lat_max[k])
			into->interval_lat_max[k] = from->interval_lat_max[k];
	}
}

void wl_report_figure(struct wl_report *r, const char *name, double value, const char *unit)
{
	if (r->nr_figures == WL_MAX_FIGURES)
		SIM_BUG("more than %d figures (adding '%s')", WL_MAX_FIGURES, name);
	r->figures[r->nr_figures].name = name;
	r->figures[r->nr_figures].value = value;
	r->figures[r->nr_figures].unit = unit ? unit : "";
	r->nr_figures++;
}
