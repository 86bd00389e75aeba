/* SPDX-License-Identifier: MIT */
/*
 * run_files.c — tps.csv, latency-hist.csv, locks.csv, proc-slabinfo and
 * profile.json of a simulated run (run_files.h, docs/results.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "mm/slub.h"
#include "report/result.h"
#include "report/run_files.h"

/* tps.csv: interval_end_s,tps,lat_avg_ms,lat_max_ms over the measured phase. */
int rpt_write_tps_csv(const char *dir, const struct wl_stats *st, sim_time_t ramp,
		      sim_time_t duration, sim_time_t interval, char *err, size_t errlen)
{
	struct rpt_file rf;
	sim_time_t window = duration - ramp;
	uint64_t n = (window + interval - 1) / interval;

	if (rpt_file_open(&rf, dir, "tps.csv", err, errlen))
		return -1;
	fprintf(rf.f, "interval_end_s,tps,lat_avg_ms,lat_max_ms\n");
	for (uint64_t k = 0; k < n; k++) {
		sim_time_t lo = ramp + k * interval;
		sim_time_t hi = lo + interval < duration ? lo + interval : duration;
		uint64_t tx = k < st->nr_intervals ? st->interval_tx[k] : 0;
		uint64_t sum = k < st->nr_intervals ? st->interval_lat_sum[k] : 0;
		uint64_t max = k < st->nr_intervals ? st->interval_lat_max[k] : 0;

		fprintf(rf.f, "%.3f,%.3f,%.6f,%.6f\n", (double)hi / 1e9,
			(double)tx * 1e9 / (double)(hi - lo), tx ? (double)sum / (double)tx / 1e6 : 0.0,
			(double)max / 1e6);
	}
	return rpt_file_commit(&rf, err, errlen);
}

int rpt_write_csv_table(const char *dir, const char *name, const char *const *cols,
			const unsigned char *decimals, unsigned int ncols, size_t nrows, const double *cells,
			char *err, size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, name, err, errlen))
		return -1;
	for (unsigned int c = 0; c < ncols; c++)
		fprintf(rf.f, "%s%s", c ? "," : "", cols[c]);
	fputc('\n', rf.f);
	for (size_t r = 0; r < nrows; r++) {
		for (unsigned int c = 0; c < ncols; c++) {
			double v = cells[r * ncols + c];

			if (c)
				fputc(',', rf.f);
			if (!isnan(v))
				fprintf(rf.f, "%.*f", decimals[c], v);
		}
		fputc('\n', rf.f);
	}
	return rpt_file_commit(&rf, err, errlen);
}

/* One locks.csv row; the name is quoted (RFC 4180) when it needs to be. */
static void lock_row(FILE *f, const char *name, const struct sim_lock_stats *st)
{
	if (strpbrk(name, ",\"\n")) {
		fputc('"', f);
		for (const char *p = name; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(name, f);
	}
	fprintf(f, ",%llu,%llu,%llu,%llu\n", (unsigned long long)st->acquisitions,
		(unsigned long long)st->contended, (unsigned long long)st->wait_ns,
		(unsigned long long)st->hold_ns);
}

/*
 * latency-hist.csv: the histogram wl_stats keeps (log-linear, HDR-style:
 * exact below 128 ns, then 64 buckets per power of two, each within 1/64
 * of its values; workload.c), its non-empty buckets only.  hi_ns is the
 * bucket's inclusive upper bound; the last (overflow) bucket's is the
 * largest latency seen.  The counts sum to the measured transactions.
 */
int rpt_write_latency_hist(const char *dir, const struct wl_stats *st, char *err, size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, "latency-hist.csv", err, errlen))
		return -1;
	fprintf(rf.f, "lo_ns,hi_ns,count\n");
	for (unsigned int b = 0; b < WL_LAT_BUCKETS; b++) {
		sim_time_t lo, hi;

		if (!st->lat_hist[b])
			continue;
		wl_lat_bucket_bounds(b, &lo, &hi);
		if (b == WL_LAT_BUCKETS - 1)
			hi = st->lat_max_ns > lo ? st->lat_max_ns : lo;
		fprintf(rf.f, "%llu,%llu,%llu\n", (unsigned long long)lo, (unsigned long long)hi,
			(unsigned long long)st->lat_hist[b]);
	}
	return rpt_file_commit(&rf, err, errlen);
}

int rpt_write_slabinfo(const char *dir, const struct machine *m, char *err, size_t errlen)
{
	struct rpt_file rf;

	if (!slab_enabled(m))
		return 0;
	if (rpt_file_open(&rf, dir, "proc-slabinfo", err, errlen))
		return -1;
	mm_show_slabinfo(m, rf.f);
	return rpt_file_commit(&rf, err, errlen);
}

/* locks.csv: every named spinlock, then every named mutex, in registration order. */
int rpt_write_locks_csv(const char *dir, const struct sim *sim, char *err, size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, "locks.csv", err, errlen))
		return -1;
	fprintf(rf.f, "name,acquisitions,contended,wait_ns,hold_ns\n");
	for (const struct sim_spinlock *l = sim_spinlocks(sim); l; l = l->next_registered)
		lock_row(rf.f, l->name, &l->stats);
	for (const struct sim_mutex *l = sim_mutexes(sim); l; l = l->next_registered)
		lock_row(rf.f, l->name, &l->stats);
	return rpt_file_commit(&rf, err, errlen);
}

static json_t *profile_node(const struct sim_path_node *nodes, uint32_t i)
{
	const struct sim_path_node *nd = &nodes[i];
	json_t *o = json_object(), *self = json_object(), *children = json_array();

	json_object_set_new(o, "name", json_string(nd->name));
	json_object_set_new(o, "calls", json_integer((json_int_t)nd->calls));
	json_object_set_new(self, "cpu", json_integer((json_int_t)nd->cpu_ns));
	json_object_set_new(self, "spin", json_integer((json_int_t)nd->spin_ns));
	json_object_set_new(self, "sleep", json_integer((json_int_t)nd->sleep_ns));
	json_object_set_new(self, "io", json_integer((json_int_t)nd->io_ns));
	json_object_set_new(self, "runq", json_integer((json_int_t)nd->runq_ns));
	json_object_set_new(o, "self", self);
	for (uint32_t c = nd->first_child; c; c = nodes[c].next_sibling)
		json_array_append_new(children, profile_node(nodes, c));
	json_object_set_new(o, "children", children);
	return o;
}

/* profile.json, schema slowpath-profile/1 (docs/results.md). */
int rpt_write_profile(const char *dir, const struct sim *sim, char *err, size_t errlen)
{
	const struct sim_path_node *nodes;
	struct sim_path_node *window;	/* from ramp_time, when there is one */
	sim_time_t from;
	uint32_t nr = sim_path_window(sim, &window, &from);
	json_t *root = json_object(), *kinds = json_array();
	struct rpt_file rf;
	int rc;

	if (!nr)
		nr = sim_path_nodes(sim, &nodes);
	else
		nodes = window;
	json_object_set_new(root, "schema", json_string("slowpath-profile/1"));
	json_object_set_new(root, "unit", json_string("ns"));
	if (window)
		json_object_set_new(root, "from_ns", json_integer((json_int_t)from));
	for (int k = 0; k < sim_nr_task_kinds(sim) && (uint32_t)k < nr; k++) {
		json_t *kind = json_object();
		uint64_t tasks = 0;

		for (uint32_t t = 0; t < sim_nr_tasks(sim); t++)
			tasks += sim_task_kind_of(sim_task_get(sim, t)) == k;
		json_object_set_new(kind, "kind", json_string(sim_task_kind_name(sim, k)));
		json_object_set_new(kind, "tasks", json_integer((json_int_t)tasks));
		json_object_set_new(kind, "root", profile_node(nodes, (uint32_t)k));
		json_array_append_new(kinds, kind);
	}
	json_object_set_new(root, "kinds", kinds);
	free(window);
	if (rpt_file_open(&rf, dir, "profile.json", err, errlen)) {
		json_decref(root);
		return -1;
	}
	rc = json_dumpf(root, rf.f, JSON_INDENT(1)) || fputc('\n', rf.f) == EOF;
	json_decref(root);
	if (rc) {
		rpt_file_abort(&rf);
		snprintf(err, errlen, "%s/profile.json: cannot write JSON", dir);
		return -1;
	}
	return rpt_file_commit(&rf, err, errlen);
}

