/* SPDX-License-Identifier: MIT */
/*
 * plot.c — gnuplot plots of result sets (plot.h, docs/report.md).
 *
 * For every plot the data goes to "<plot>-<set>.dat" (plain columns) and
 * the drawing to "<plot>.gp"; "plots.gp" loads each one twice, once per
 * terminal (svg, pngcairo).  gnuplot runs once, in the plot folder, as a
 * child process without a shell.  Nothing host- or time-dependent is
 * written, so the same sets give the same files.
 *
 * A set with iterations contributes the mean over its iterations when all
 * of them sampled at the same times (simulated runs do), else its first
 * iteration; the plot's note says which.  Monitor times are shifted so the
 * first sample is 0 (recorded monitors print epoch seconds).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/load.h"
#include "report/plot.h"
#include "report/procfs.h"
#include "report/result.h"

#define fail rpt_errf

/* ---- tables: samples x columns ------------------------------------------- */

struct tab {
	size_t	n, m;		/* rows (samples), columns */
	double	*t;		/* [n] */
	double	*v;		/* [n * m] */
	char	**names;	/* [m] */
};

static void tab_init(struct tab *t, size_t n, size_t m)
{
	t->n = n;
	t->m = m;
	t->t = xzalloc((n ? n : 1) * sizeof(double));
	t->v = xzalloc((n * m > 0 ? n * m : 1) * sizeof(double));
	t->names = xzalloc((m ? m : 1) * sizeof(char *));
}

static void tab_release(struct tab *t)
{
	for (size_t j = 0; t->names && j < t->m; j++)
		free(t->names[j]);
	free(t->names);
	free(t->t);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static bool tab_same_shape(const struct tab *a, const struct tab *b)
{
	if (a->n != b->n || a->m != b->m)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->t[i] != b->t[i])
			return false;
	for (size_t j = 0; j < a->m; j++)
		if (strcmp(a->names[j], b->names[j]) != 0)
			return false;
	return true;
}

/* Mean of runs' tables when they line up, else a copy of the first.
 * Returns the number of runs averaged (0 when no run had data). */
static unsigned int tab_combine(struct tab *runs, const bool *have, unsigned int nr, struct tab *out)
{
	unsigned int first = nr, used = 0;
	bool same = true;

	for (unsigned int r = 0; r < nr; r++)
		if (have[r]) {
			if (first == nr)
				first = r;
			else
				same &= tab_same_shape(&runs[first], &runs[r]);
			used++;
		}
	if (first == nr)
		return 0;
	tab_init(out, runs[first].n, runs[first].m);
	memcpy(out->t, runs[first].t, runs[first].n * sizeof(double));
	for (size_t j = 0; j < out->m; j++)
		out->names[j] = xstrdup(runs[first].names[j]);
	if (!same || used == 1) {
		memcpy(out->v, runs[first].v, out->n * out->m * sizeof(double));
		return same ? 1 : 0;
	}
	for (size_t k = 0; k < out->n * out->m; k++) {
		double s = 0;

		for (unsigned int r = 0; r < nr; r++)
			if (have[r])
				s += runs[r].v[k];
		out->v[k] = s / used;
	}
	return used;
}

/* ---- reading monitors ------------------------------------------------------ */

/* Stall counters plotted over time: per-second rates between samples. */
static const char *const stall_counters[] = {
	"allocstall", "compact_stall", "compact_fail", "pgscan_direct", "sim_drain_all_pages",
};
#define NR_STALL (sizeof(stall_counters) / sizeof(stall_counters[0]))

static double counter_value(const struct rpt_counters *c, const char *name, bool *found)
{
	if (strcmp(name, "allocstall") == 0) {
		double s = 0;

		*found = false;
		for (size_t i = 0; i < c->n; i++)
			if (strncmp(c->v[i].name, "allocstall_", 11) == 0) {
				s += (double)c->v[i].value;
				*found = true;
			}
		return s;
	}
	return (double)rpt_counters_get(c, name, found);
}

/*
 * The proc-vmstat columns: the stall counters, then the counters asked for
 * with --plot.  Event counters are plotted as per-second rates; a counter
 * that is a level (vmstat_is_level) as its value.
 */
struct vm_cols {
	const char	**names;
	bool		*level;
	size_t		n;
};

/* Node and zone items ("nr_*") are levels, except the two cumulative ones. */
static bool vmstat_is_level(const char *name)
{
	return strncmp(name, "nr_", 3) == 0 && strcmp(name, "nr_written") != 0 &&
	       strcmp(name, "nr_dirtied") != 0;
}

static int load_vmstat_rates(const char *dir, const struct vm_cols *cols, struct tab *t, bool *have,
			     char *err, size_t errlen)
{
	struct proc_monitor m;
	double *prev = NULL;
	char *path;
	int rc = rpt_read_monitor(dir, "proc-vmstat", &path, &m, err, errlen);
	const size_t nc = cols->n;

	*have = false;
	if (rc <= 0) {
		free(path);
		return rc;
	}
	*have = m.n >= 2;
	tab_init(t, m.n > 1 ? m.n - 1 : 0, nc);
	for (size_t j = 0; j < nc; j++)
		t->names[j] = xstrdup(cols->names[j]);
	prev = xzalloc(nc * sizeof(double));
	for (size_t k = 0; k < m.n; k++) {
		struct rpt_counters c = { 0 };

		if (proc_parse_vmstat(path, m.s[k].text, &c, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rpt_counters_release(&c);
			rc = -1;
			break;
		}
		if (k > 0 && !(m.s[k].time > m.s[k - 1].time)) {
			fail(err, errlen, "%s:%u: time %g does not increase", path,
			     m.s[k].first_line - 1, m.s[k].time);
			rpt_counters_release(&c);
			rc = -1;
			break;
		}
		for (size_t j = 0; j < nc; j++) {
			bool found;
			double v = counter_value(&c, cols->names[j], &found);

			if (!found)
				v = NAN;
			if (k > 0) {
				t->t[k - 1] = m.s[k].time - m.s[0].time;
				t->v[(k - 1) * nc + j] = cols->level[j] ? v :
					(v - prev[j]) / (m.s[k].time - m.s[k - 1].time);
			}
			prev[j] = v;
		}
		rpt_counters_release(&c);
	}
	free(prev);
	free(path);
	proc_monitor_release(&m);
	if (rc < 0)
		*have = false;
	return rc < 0 ? -1 : 0;
}

static int load_buddyinfo(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct proc_buddyinfo *bi = xzalloc(sizeof(*bi));
	struct proc_monitor m;
	char *path;
	unsigned int orders = 0;
	int rc = rpt_read_monitor(dir, "proc-buddyinfo", &path, &m, err, errlen);

	*have = false;
	if (rc <= 0)
		goto out_nomon;
	/* the widest zone row sets the number of orders */
	for (size_t k = 0; k < m.n && rc > 0; k++) {
		if (proc_parse_buddyinfo(path, m.s[k].text, bi, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
			break;
		}
		for (unsigned int z = 0; z < bi->nr; z++)
			if (bi->z[z].nr_orders > orders)
				orders = bi->z[z].nr_orders;
	}
	if (rc > 0) {
		tab_init(t, m.n, orders);
		for (unsigned int o = 0; o < orders; o++) {
			char name[16];

			snprintf(name, sizeof(name), "%u", o);
			t->names[o] = xstrdup(name);
		}
		for (size_t k = 0; k < m.n; k++) {
			proc_parse_buddyinfo(path, m.s[k].text, bi, err, errlen);
			t->t[k] = m.s[k].time - m.s[0].time;
			for (unsigned int o = 0; o < orders; o++) {
				double pages = 0;

				for (unsigned int z = 0; z < bi->nr; z++)
					if (o < bi->z[z].nr_orders)
						pages += ldexp((double)bi->z[z].free[o], (int)o);
				t->v[k * orders + o] = pages;
			}
		}
		*have = true;
	}
	proc_monitor_release(&m);
out_nomon:
	free(path);
	free(bi);
	return rc < 0 ? -1 : 0;
}

static int load_pagetypeinfo(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct proc_pagetypeinfo *pi = xzalloc(sizeof(*pi));
	struct proc_monitor m;
	char *path;
	int rc = rpt_read_monitor(dir, "proc-pagetypeinfo", &path, &m, err, errlen);

	*have = false;
	if (rc <= 0)
		goto out_nomon;
	for (size_t k = 0; k < m.n; k++) {
		double total = 0, blocks[PROC_MAX_MT] = { 0 };

		if (proc_parse_pagetypeinfo(path, m.s[k].text, pi, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
			break;
		}
		if (k == 0) {
			tab_init(t, m.n, pi->nr_types);
			for (unsigned int j = 0; j < pi->nr_types; j++)
				t->names[j] = xstrdup(pi->types[j]);
		} else if (pi->nr_types != t->m) {
			fail(err, errlen, "%s:%u: %u migratetypes, the first sample had %zu", path,
			     m.s[k].first_line, pi->nr_types, t->m);
			rc = -1;
			break;
		}
		for (unsigned int z = 0; z < pi->nr; z++)
			for (unsigned int j = 0; j < pi->nr_types; j++) {
				blocks[j] += (double)pi->z[z].blocks[j];
				total += (double)pi->z[z].blocks[j];
			}
		t->t[k] = m.s[k].time - m.s[0].time;
		for (unsigned int j = 0; j < pi->nr_types; j++)
			t->v[k * t->m + j] = total > 0 ? blocks[j] * 100.0 / total : 0;
	}
	*have = rc > 0;
	if (rc < 0 && t->names)
		tab_release(t);
	proc_monitor_release(&m);
out_nomon:
	free(path);
	free(pi);
	return rc < 0 ? -1 : 0;
}

/*
 * proc-zoneinfo's per-CPU lists of the zone with the most managed pages
 * in the first sample (Normal on the machines we model): per sample the
 * pages held ("count") and the limit ("high"), as means over its CPUs.
 */
static int load_pcp(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct proc_zoneinfo *zi = xzalloc(sizeof(*zi));
	struct proc_monitor m;
	char *path, zone[40] = "";
	int node = -1;
	int rc = rpt_read_monitor(dir, "proc-zoneinfo", &path, &m, err, errlen);

	*have = false;
	if (rc <= 0)
		goto out_nomon;
	tab_init(t, m.n, 2);
	for (size_t k = 0; k < m.n && rc > 0; k++) {
		const struct proc_zoneinfo_zone *z = NULL;

		if (proc_parse_zoneinfo(path, m.s[k].text, zi, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
		} else {
			for (unsigned int i = 0; i < zi->nr; i++) {
				const struct proc_zoneinfo_zone *c = &zi->z[i];

				if (k == 0 ? c->pcp_cpus && (!z || c->managed > z->managed) :
					     c->node == node && strcmp(c->zone, zone) == 0)
					z = c;
			}
			if (k == 0 && z) {
				node = z->node;
				snprintf(zone, sizeof(zone), "%s", z->zone);
			}
			t->t[k] = m.s[k].time - m.s[0].time;
			t->v[k * 2] = z && z->pcp_cpus ? (double)z->pcp_count / (double)z->pcp_cpus : NAN;
			t->v[k * 2 + 1] = z && z->pcp_cpus ? (double)z->pcp_high / (double)z->pcp_cpus : NAN;
		}
		proc_zoneinfo_release(zi);
	}
	if (rc > 0 && node >= 0) {
		char name[64];

		snprintf(name, sizeof(name), "count %s", zone);
		t->names[0] = xstrdup(name);
		snprintf(name, sizeof(name), "high %s", zone);
		t->names[1] = xstrdup(name);
		*have = true;
	} else {
		tab_release(t);
	}
	proc_monitor_release(&m);
out_nomon:
	free(path);
	free(zi);
	return rc < 0 ? -1 : 0;
}

/*
 * debugfs-wbt: per sample, the writes in flight under the throttles and
 * the limit of normal writeback (wb_normal), as means over the lines (a
 * model's members, a recording's throttled disks).
 */
static int load_wbt(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct proc_monitor m;
	char *path;
	int rc = rpt_read_monitor(dir, "debugfs-wbt", &path, &m, err, errlen);

	*have = false;
	if (rc <= 0) {
		free(path);
		return rc;
	}
	tab_init(t, m.n, 2);
	t->names[0] = xstrdup("inflight");
	t->names[1] = xstrdup("wb_normal");
	for (size_t k = 0; k < m.n && rc > 0; k++) {
		struct debugfs_wbt w;
		double in = 0, lim = 0;

		if (debugfs_parse_wbt(path, m.s[k].text, &w, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
			break;
		}
		for (size_t i = 0; i < w.n; i++) {
			in += (double)w.v[i].inflight;
			lim += (double)w.v[i].wb_normal;
		}
		t->t[k] = m.s[k].time - m.s[0].time;
		t->v[k * 2] = w.n ? in / (double)w.n : NAN;
		t->v[k * 2 + 1] = w.n ? lim / (double)w.n : NAN;
		debugfs_wbt_release(&w);
	}
	if (rc > 0)
		*have = true;
	else
		tab_release(t);
	free(path);
	proc_monitor_release(&m);
	return rc < 0 ? -1 : 0;
}

static void load_tps(const struct rpt_run *r, struct tab *t, bool *have)
{
	*have = r->has_series && r->series.n > 0;
	if (!*have)
		return;
	tab_init(t, r->series.n, 1);
	t->names[0] = xstrdup("tps");
	memcpy(t->t, r->series.t, r->series.n * sizeof(double));
	memcpy(t->v, r->series.tps, r->series.n * sizeof(double));
}

/* Read DIR/NAME (waits.csv, wal.csv): NULL with *found false when there
 * is no such file, NULL with err when it cannot be read, else its text
 * (the caller parses it, then frees it) and *path (freed by the caller). */
static char *read_interval_csv(const char *dir, const char *name, char **path, bool *found,
			       char *err, size_t errlen)
{
	size_t plen = strlen(dir) + strlen(name) + 2, len;
	char *text;

	*path = xzalloc(plen);
	snprintf(*path, plen, "%s/%s", dir, name);
	*found = access(*path, F_OK) == 0;
	if (!*found)
		return NULL;
	text = rpt_read_file(*path, &len, err, errlen);
	return text;
}

/* waits.csv (report/result.h, load.h): no file, have false */
static int load_waits(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct rpt_waits wt;
	bool found;
	char *path, *text = read_interval_csv(dir, "waits.csv", &path, &found, err, errlen);
	int rc = found ? -1 : 0;

	*have = false;
	if (text && rpt_waits_parse(path, text, &wt, err, errlen) == 0) {
		rc = 0;
		if (wt.n) {
			t->n = wt.n;
			t->m = wt.m;
			t->t = wt.t;
			t->v = wt.v;
			t->names = wt.names;
			*have = true;
		} else {
			rpt_waits_release(&wt);
		}
	}
	free(text);
	free(path);
	return rc;
}

/*
 * wal.csv (report/result.h): pg_stat_wal's growth per interval, as rates:
 * column 0 the WAL written in MB/s, column 1 the full-page images per
 * second.  An interval's length is the time since the row before; the
 * first row's is the second row's (a recording's first second starts
 * before the clock's 0), or its end for a lone row.  No file: have false.
 */
static int load_wal(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct rpt_waits wt;
	size_t fpi, bytes;
	bool found;
	char *path, *text = read_interval_csv(dir, "wal.csv", &path, &found, err, errlen);
	int rc = found ? -1 : 0;

	*have = false;
	if (text && rpt_wal_parse(path, text, &wt, &fpi, &bytes, err, errlen) == 0) {
		rc = 0;
		if (wt.n) {
			tab_init(t, wt.n, 2);
			t->names[0] = xstrdup("wal_mb_per_s");
			t->names[1] = xstrdup("fpi_per_s");
			for (size_t i = 0; i < wt.n; i++) {
				double dt = i ? wt.t[i] - wt.t[i - 1] : wt.n > 1 ? wt.t[1] - wt.t[0] : wt.t[0];

				t->t[i] = wt.t[i];
				t->v[i * 2] = dt > 0 ? wt.v[i * wt.m + bytes] / dt / 1e6 : NAN;
				t->v[i * 2 + 1] = dt > 0 ? wt.v[i * wt.m + fpi] / dt : NAN;
			}
			*have = true;
		}
		rpt_waits_release(&wt);
	}
	free(text);
	free(path);
	return rc;
}

/*
 * proc-diskstats: iostat's aqu-sz and w_await per interval of the disk
 * whose weighted ms grew most over the whole file (the first in file
 * order on a tie): a model's striped device, a recording's busiest disk.
 * names[0] and names[1] hold "aqu-sz DISK" and "w_await DISK".
 */
static int load_diskstats(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct rpt_diskstats dd;
	const struct proc_diskstats *ds;
	struct proc_monitor m;
	const char *disk = NULL;
	double most = -1;
	char name[64];
	int rc = rpt_read_diskstats(dir, &dd, err, errlen);

	*have = false;
	if (rc <= 0) {
		rpt_diskstats_release(&dd);
		return rc;
	}
	m = *dd.m;
	ds = dd.ds;
	for (size_t i = 0; m.n >= 2 && i < ds[m.n - 1].n; i++) {
		const struct proc_diskstats_disk *y = &ds[m.n - 1].d[i];
		const struct proc_diskstats_disk *x = proc_diskstats_find(&ds[0], y->name);

		if (x && proc_diskstats_delta(x, y, DS_QUEUE_MS) > most) {
			most = proc_diskstats_delta(x, y, DS_QUEUE_MS);
			disk = y->name;
		}
	}
	if (disk && most > 0) {
		tab_init(t, m.n - 1, 2);
		snprintf(name, sizeof(name), "aqu-sz %s", disk);
		t->names[0] = xstrdup(name);
		snprintf(name, sizeof(name), "w_await %s", disk);
		t->names[1] = xstrdup(name);
		for (size_t k = 1; k < m.n; k++) {
			const struct proc_diskstats_disk *x = proc_diskstats_find(&ds[k - 1], disk);
			const struct proc_diskstats_disk *y = proc_diskstats_find(&ds[k], disk);
			double dt = m.s[k].time - m.s[k - 1].time;

			t->t[k - 1] = m.s[k].time - m.s[0].time;
			t->v[(k - 1) * 2] = t->v[(k - 1) * 2 + 1] = NAN;
			if (x && y) {
				double q = proc_diskstats_delta(x, y, DS_QUEUE_MS);
				double w = (double)y->f[DS_WR_IOS] - (double)x->f[DS_WR_IOS];

				t->v[(k - 1) * 2] = q >= 0 ? q / 1000 / dt : NAN;
				if (w > 0)
					t->v[(k - 1) * 2 + 1] =
						proc_diskstats_delta(x, y, DS_WR_MS) / w;
			}
		}
		*have = true;
	}
	rpt_diskstats_release(&dd);
	return 0;
}

/*
 * trace-counts: per interval between samples, the hits per second of
 * kmem:mm_page_pcpu_drain (blocks freed from the per-CPU lists to the
 * buddy lists), kmem:mm_page_alloc_zone_locked (blocks taken off the
 * buddy lists under zone->lock, most of them refilling the per-CPU
 * lists) and the page cache's folios added and deleted
 * (filemap:mm_filemap_add_to_page_cache, _delete_from_page_cache).  NaN
 * where a sample lacks the tracepoint.
 */
static int load_trace_rates(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	enum { NEV = 4 };
	static const char *const ev[NEV] = {
		"kmem:mm_page_pcpu_drain", "kmem:mm_page_alloc_zone_locked",
		"filemap:mm_filemap_add_to_page_cache", "filemap:mm_filemap_delete_from_page_cache",
	};
	struct rpt_trace_counts tt;
	int idx[NEV] = { 0 };
	int rc = rpt_read_trace_counts(dir, &tt, err, errlen);

	*have = false;
	if (rc > 0 && tt.m->n >= 2) {
		const struct proc_monitor *m = tt.m;

		for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++)
			for (int e = 0; e < NEV; e++)
				if (strcmp(rpt_trace_events[i], ev[e]) == 0)
					idx[e] = i;
		tab_init(t, m->n - 1, NEV);
		for (int e = 0; e < NEV; e++)
			t->names[e] = xstrdup(strchr(ev[e], ':') + 1);
		for (size_t k = 1; k < m->n; k++) {
			const struct trace_counts *a = &tt.tc[k - 1], *b = &tt.tc[k];
			double dt = m->s[k].time - m->s[k - 1].time;

			t->t[k - 1] = m->s[k].time - m->s[0].time;
			for (int e = 0; e < NEV; e++) {
				int i = idx[e];

				t->v[(k - 1) * NEV + (size_t)e] =
					a->present[i] && b->present[i] && b->count[i] >= a->count[i] ?
					(double)(b->count[i] - a->count[i]) / dt : NAN;
			}
		}
		*have = true;
	}
	rpt_trace_counts_release(&tt);
	return rc < 0 ? -1 : 0;
}

/*
 * proc-stat: per interval, the CPUs busy (all of the "cpu" line's time but
 * idle and iowait, over the interval, in CPUs; steal counts as busy) and
 * the kernel's share of that busy time (system, irq and softirq, %).  NaN
 * where a column falls or nothing was counted.
 */
static int load_cpu_series(const char *dir, struct tab *t, bool *have, char *err, size_t errlen)
{
	struct rpt_stat ss;
	int rc = rpt_read_stat(dir, &ss, err, errlen);

	*have = false;
	if (rc > 0 && ss.m->n >= 2) {
		const struct proc_monitor *m = ss.m;

		tab_init(t, m->n - 1, 2);
		t->names[0] = xstrdup("busy");
		t->names[1] = xstrdup("kernel");
		for (size_t k = 1; k < m->n; k++) {
			const struct proc_stat *a = &ss.st[k - 1], *b = &ss.st[k];
			double dt = m->s[k].time - m->s[k - 1].time, d[STAT_GUEST], all = 0, busy, kern;
			bool falls = false;

			for (int c = 0; c < STAT_GUEST; c++) {	/* guest time is inside user's */
				falls |= b->cpu[c] < a->cpu[c];
				d[c] = (double)(b->cpu[c] - a->cpu[c]);
				all += d[c];
			}
			busy = all - d[STAT_IDLE] - d[STAT_IOWAIT];
			kern = d[STAT_SYSTEM] + d[STAT_IRQ] + d[STAT_SOFTIRQ];
			t->t[k - 1] = m->s[k].time - m->s[0].time;
			t->v[(k - 1) * 2] = falls || all <= 0 ? NAN : busy / 100.0 / dt;
			t->v[(k - 1) * 2 + 1] = falls || busy <= 0 ? NAN : 100.0 * kern / busy;
		}
		*have = true;
	}
	rpt_stat_release(&ss);
	return rc < 0 ? -1 : 0;
}

enum source {
	SRC_TPS, SRC_VMSTAT, SRC_BUDDY, SRC_PAGETYPE, SRC_WAITS, SRC_WAL, SRC_DISK, SRC_WBT, SRC_PCP,
	SRC_TRACE, SRC_CPU, NR_SRC
};

/* Per set and source: the combined table and how it was combined. */
struct set_data {
	struct tab	tab[NR_SRC];
	unsigned int	used[NR_SRC];	/* runs averaged; 0 = first iteration only or none */
	bool		have[NR_SRC];
};

static int load_set(const struct rpt_set *s, const struct vm_cols *cols, struct set_data *d,
		    char *err, size_t errlen)
{
	unsigned int nr = s->nr_runs;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	for (int src = 0; src < NR_SRC && rc == 0; src++) {
		struct tab *runs = xzalloc(nr * sizeof(*runs));
		bool *have = xzalloc(nr * sizeof(*have));

		for (unsigned int r = 0; r < nr && rc == 0; r++) {
			const char *dir = s->runs[r].dir;

			switch (src) {
			case SRC_TPS:
				load_tps(&s->runs[r], &runs[r], &have[r]);
				break;
			case SRC_VMSTAT:
				rc = load_vmstat_rates(dir, cols, &runs[r], &have[r], err, errlen);
				break;
			case SRC_BUDDY:
				rc = load_buddyinfo(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_PAGETYPE:
				rc = load_pagetypeinfo(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_WAITS:
				rc = load_waits(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_WAL:
				rc = load_wal(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_DISK:
				rc = load_diskstats(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_PCP:
				rc = load_pcp(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_WBT:
				rc = load_wbt(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_TRACE:
				rc = load_trace_rates(dir, &runs[r], &have[r], err, errlen);
				break;
			case SRC_CPU:
				rc = load_cpu_series(dir, &runs[r], &have[r], err, errlen);
				break;
			}
		}
		if (rc == 0) {
			bool any = false;

			for (unsigned int r = 0; r < nr; r++)
				any |= have[r];
			if (any) {
				d->used[src] = tab_combine(runs, have, nr, &d->tab[src]);
				d->have[src] = true;
			}
		}
		for (unsigned int r = 0; r < nr; r++)
			if (runs[r].t)
				tab_release(&runs[r]);
		free(runs);
		free(have);
	}
	return rc;
}

static void set_data_release(struct set_data *d)
{
	for (int src = 0; src < NR_SRC; src++)
		if (d->have[src])
			tab_release(&d->tab[src]);
}

/* ---- writing ----------------------------------------------------------------- */

struct writer {
	const char	*dir;
	const struct rpt_set *sets;
	int		nr_sets;
	struct vm_cols	vm;		/* NR_STALL stall counters, then --plot counters */
	char		**figures;	/* --plot names that are figures */
	size_t		nr_figures;
	struct set_data	*data;
	FILE		*master;
	struct rpt_plots *out;
	char		*err;
	size_t		errlen;
};

/* A gnuplot single-quoted string: ' is doubled. */
static void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static FILE *open_in(struct writer *w, const char *name, struct rpt_file *rf)
{
	if (rpt_file_open(rf, w->dir, name, w->err, w->errlen))
		return NULL;
	return rf->f;
}

static int commit(struct writer *w, struct rpt_file *rf)
{
	return rpt_file_commit(rf, w->err, w->errlen);
}

static void fmt_g(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v == 0 ? 0.0 : v);	/* counts, exactly */
	else
		fprintf(f, "%.6g", v);
}

/* Register a plot and write its part of plots.gp (both terminals). */
static void add_plot(struct writer *w, const char *name, const char *title, const char *note,
		     int width, int height)
{
	struct rpt_plots *p = w->out;

	rpt_grow(&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n].name = xstrdup(name);
	p->v[p->n].title = xstrdup(title);
	p->v[p->n].note = xstrdup(note);
	p->n++;
	fprintf(w->master,
		"set terminal svg size %d,%d noenhanced font 'Sans,11' background rgb 'white'\n"
		"set output '%s.svg'\nload '%s.gp'\n"
		"set terminal pngcairo size %d,%d noenhanced font 'Sans,10' background rgb 'white'\n"
		"set output '%s.png'\nload '%s.gp'\nunset output\n",
		width, height, name, name, width, height, name, name);
}

static void note_for(struct writer *w, enum source src, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int s = 0; s < w->nr_sets; s++) {
		const struct set_data *d = &w->data[s];

		if (!d->have[src])
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s: %s%s%s", n ? "; " : "",
				      w->sets[s].name,
				      w->sets[s].nr_runs == 1 ? "one run" :
				      d->used[src] > 1 ? "mean of its iterations" : "iteration 1",
				      src == SRC_DISK ? ", disk " : src == SRC_PCP ? ", zone " : "",
				      src == SRC_DISK || src == SRC_PCP ?
				      strchr(d->tab[src].names[0], ' ') + 1 : "");
	}
}

static int any_have(struct writer *w, enum source src)
{
	int n = 0;

	for (int s = 0; s < w->nr_sets; s++)
		n += w->data[s].have[src];
	return n;
}

/* One data file per set: column 1 time, then the given table columns. */
static int write_series(struct writer *w, const char *plot, int s, const struct tab *t,
			const size_t *cols, size_t nc)
{
	struct rpt_file rf;
	char name[256];
	FILE *f;

	snprintf(name, sizeof(name), "%s-%d.dat", plot, s + 1);
	if (!(f = open_in(w, name, &rf)))
		return -1;
	fprintf(f, "# %s: ", plot);
	fputs(w->sets[s].name, f);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		fmt_g(f, t->t[i]);
		for (size_t c = 0; c < nc; c++) {
			fputc(' ', f);
			fmt_g(f, t->v[i * t->m + cols[c]]);
		}
		fputc('\n', f);
	}
	return commit(w, &rf);
}

/* A line plot with one line per set from column 2 of <plot>-<set>.dat. */
static int line_plot(struct writer *w, const char *plot, enum source src, size_t col,
		     const char *title, const char *ylabel, const char *style)
{
	struct rpt_file rf;
	char gp[256], note[1024];
	FILE *f;
	bool first = true;

	for (int s = 0; s < w->nr_sets; s++)
		if (w->data[s].have[src] && write_series(w, plot, s, &w->data[s].tab[src], &col, 1))
			return -1;
	snprintf(gp, sizeof(gp), "%s.gp", plot);
	if (!(f = open_in(w, gp, &rf)))
		return -1;
	fputs("reset\nset grid\nset key outside bottom center horizontal\nset bmargin 5.5\n"
	      "set xlabel 'time since the first sample (s)'\nset ylabel ", f);
	gp_quote(f, ylabel);
	fputs("\nset title ", f);
	gp_quote(f, title);
	fputs("\nset yrange [0:*]\nplot ", f);
	for (int s = 0; s < w->nr_sets; s++) {
		if (!w->data[s].have[src])
			continue;
		fprintf(f, "%s'%s-%d.dat' using 1:2 with %s lw 2 title ", first ? "" : ", \\\n     ",
			plot, s + 1, style);
		gp_quote(f, w->sets[s].name);
		first = false;
	}
	fputc('\n', f);
	if (commit(w, &rf))
		return -1;
	note_for(w, src, note, sizeof(note));
	add_plot(w, plot, title, note, 900, 420);
	return 0;
}

static int plot_tps(struct writer *w)
{
	if (!any_have(w, SRC_TPS))
		return 0;
	return line_plot(w, "tps", SRC_TPS, 0, "Transactions per second over time (tps.csv)",
			 "TPS per interval", "fsteps");
}

/* The monitors' and CSV files' time series, two plots a source, in the
 * order they are drawn. */
static const struct series_plot {
	const char	*name;
	enum source	src;
	size_t		col;
	const char	*title, *ylabel, *style;
} series_plots[] = {
	{ "wal-mb", SRC_WAL, 0, "WAL written over time (wal.csv: wal_bytes)", "MB per second", "fsteps" },
	{ "wal-fpi", SRC_WAL, 1, "Full-page images over time (wal.csv: wal_fpi)", "images per second",
	  "fsteps" },
	{ "disk-aqu-sz", SRC_DISK, 0, "Requests in flight on the busiest disk (proc-diskstats: iostat's aqu-sz)",
	  "requests (mean per interval)", "fsteps" },
	{ "disk-w-await", SRC_DISK, 1, "Write time on the busiest disk (proc-diskstats: iostat's w_await)",
	  "ms per write", "fsteps" },
	{ "wbt-inflight", SRC_WBT, 0,
	  "Writes in flight under writeback throttling (debugfs-wbt: inflight, mean per throttle)",
	  "requests", "fsteps" },
	{ "wbt-normal", SRC_WBT, 1,
	  "Writeback throttling's limit for normal writeback (debugfs-wbt: wb_normal, mean)",
	  "requests", "fsteps" },
	{ "pcp-high", SRC_PCP, 1, "Per-CPU free lists' limit (proc-zoneinfo pagesets: high, mean per CPU)",
	  "pages per CPU", "lines" },
	{ "pcp-count", SRC_PCP, 0,
	  "Pages on the per-CPU free lists (proc-zoneinfo pagesets: count, mean per CPU)",
	  "pages per CPU", "lines" },
	{ "pcpu-drain", SRC_TRACE, 0,
	  "Blocks freed from the per-CPU lists (trace-counts: kmem:mm_page_pcpu_drain)",
	  "per second", "fsteps" },
	{ "zone-locked", SRC_TRACE, 1,
	  "Blocks taken off the buddy lists (trace-counts: kmem:mm_page_alloc_zone_locked)",
	  "per second", "fsteps" },
	{ "pagecache-add", SRC_TRACE, 2,
	  "Folios added to the page cache (trace-counts: filemap:mm_filemap_add_to_page_cache)",
	  "per second", "fsteps" },
	{ "pagecache-delete", SRC_TRACE, 3,
	  "Folios deleted from the page cache (trace-counts: filemap:mm_filemap_delete_from_page_cache)",
	  "per second", "fsteps" },
	{ "cpu-busy", SRC_CPU, 0, "CPUs busy over time (proc-stat: all but idle and iowait)",
	  "CPUs (mean per interval)", "fsteps" },
	{ "cpu-kernel", SRC_CPU, 1,
	  "The kernel's share of the busy CPU time (proc-stat: system, irq, softirq)",
	  "% of busy time", "fsteps" },
};

/* Whether some set has a number in column col of source src. */
static bool any_value(const struct writer *w, enum source src, size_t col)
{
	for (int s = 0; s < w->nr_sets; s++) {
		const struct tab *t = &w->data[s].tab[src];

		if (w->data[s].have[src] && col < t->m)
			for (size_t i = 0; i < t->n; i++)
				if (!isnan(t->v[i * t->m + col]))
					return true;
	}
	return false;
}

/* The series plots of sources first..last that some set has a number for
 * (a recording made before the recorder counted a tracepoint has none). */
static int plot_series(struct writer *w, enum source first, enum source last)
{
	for (size_t i = 0; i < sizeof(series_plots) / sizeof(series_plots[0]); i++) {
		const struct series_plot *p = &series_plots[i];

		if (p->src < first || p->src > last || !any_have(w, p->src) ||
		    !any_value(w, p->src, p->col))
			continue;
		if (line_plot(w, p->name, p->src, p->col, p->title, p->ylabel, p->style))
			return -1;
	}
	return 0;
}

static int plot_stalls(struct writer *w)
{
	for (size_t j = 0; j < w->vm.n; j++) {
		const char *name = w->vm.names[j];
		char plot[300], title[400];
		bool any = false;

		for (int s = 0; s < w->nr_sets; s++) {
			const struct tab *t = &w->data[s].tab[SRC_VMSTAT];

			if (w->data[s].have[SRC_VMSTAT])
				for (size_t i = 0; i < t->n; i++)
					any |= !isnan(t->v[i * t->m + j]);
		}
		if (!any)
			continue;
		snprintf(plot, sizeof(plot), "%s-%s", j < NR_STALL ? "stall" : "vmstat", name);
		snprintf(title, sizeof(title), "%s%s %s over time (proc-vmstat)", name,
			 strcmp(name, "allocstall") == 0 ? " (sum over zones)" : "",
			 w->vm.level[j] ? "" : "per second");
		if (line_plot(w, plot, SRC_VMSTAT, j, title, w->vm.level[j] ? name : "events per second",
			      w->vm.level[j] ? "lines" : "fsteps"))
			return -1;
	}
	return 0;
}

/* Buckets of every run's latency-hist.csv merged by bucket (same bounds
 * in every simulated run), ascending; false when a run with latencies
 * has no histogram. */
struct hist_bucket {
	double	lo, hi, count;
};

static int bucket_cmp(const void *a, const void *b)
{
	const struct hist_bucket *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : x->hi < y->hi ? -1 : x->hi > y->hi;
}

static bool merged_hist(const struct rpt_set *set, struct hist_bucket **out, size_t *n)
{
	size_t cap = 0, k = 0;

	*out = NULL;
	*n = 0;
	for (unsigned int r = 0; r < set->nr_runs; r++) {
		const struct rpt_lat_hist *h = &set->runs[r].lat_hist;

		if (!set->runs[r].has_latency)
			continue;
		if (!set->runs[r].has_lat_hist) {
			free(*out);
			*out = NULL;
			*n = 0;
			return false;
		}
		for (size_t i = 0; i < h->n; i++) {
			rpt_grow(out, &cap, *n + 1, sizeof(**out));
			(*out)[(*n)++] = (struct hist_bucket){ h->lo[i], h->hi[i], h->count[i] };
		}
	}
	if (!*n)
		return false;
	qsort(*out, *n, sizeof(**out), bucket_cmp);
	for (size_t i = 1; i < *n; i++) {
		if ((*out)[i].lo == (*out)[k].lo) {
			(*out)[k].count += (*out)[i].count;
			if ((*out)[i].hi > (*out)[k].hi)	/* the overflow bucket's bound: its max */
				(*out)[k].hi = (*out)[i].hi;
		} else {
			(*out)[++k] = (*out)[i];
		}
	}
	*n = k + 1;
	return true;
}

/*
 * Latency CDF.  From latency-hist.csv when every run of the set has one:
 * the fraction of all measured transactions (the set's iterations pooled)
 * at or below each bucket's upper bound.  Older folders and recorded runs
 * have only result.json's quantiles: the CDF through p50, p95, p99, max.
 */
static int plot_latency_cdf(struct writer *w)
{
	static const double q[5] = { 0.0, 0.50, 0.95, 0.99, 1.0 };
	struct rpt_file rf;
	FILE *f;
	char note[1024];
	size_t n = 0;
	bool first = true, any_hist = false;
	bool *from_hist = xzalloc((size_t)w->nr_sets * sizeof(*from_hist));
	int rc = -1;

	for (int s = 0; s < w->nr_sets; s++) {
		const struct rpt_set *set = &w->sets[s];
		double lat[5] = { 0 };
		unsigned int used = 0;
		struct hist_bucket *hb;
		size_t nb;
		char name[64];

		for (unsigned int r = 0; r < set->nr_runs; r++)
			if (set->runs[r].has_latency) {
				for (int i = 1; i < 5; i++)
					lat[i] += set->runs[r].latency[i];
				used++;
			}
		from_hist[s] = false;
		if (!used)
			continue;
		snprintf(name, sizeof(name), "latency-cdf-%d.dat", s + 1);
		if (!(f = open_in(w, name, &rf)))
			goto out;
		fprintf(f, "# latency_ms fraction: %s\n", set->name);
		if (merged_hist(set, &hb, &nb)) {
			double total = 0, cum = 0;

			for (size_t i = 0; i < nb; i++)
				total += hb[i].count;
			if (hb[0].lo > 0) {	/* the step up from 0 (log x: not at 0 ns) */
				fmt_g(f, hb[0].lo / 1e6);
				fputs(" 0.000000\n", f);
			}
			for (size_t i = 0; i < nb; i++) {
				cum += hb[i].count;
				fmt_g(f, hb[i].hi / 1e6);
				fprintf(f, " %.6f\n", total > 0 ? cum / total : 0.0);
			}
			free(hb);
			any_hist = from_hist[s] = true;
			n += (size_t)snprintf(note + n, n < sizeof(note) ? sizeof(note) - n : 0, "%s%s: %s",
					      n ? "; " : "", set->name,
					      used > 1 ? "latency-hist.csv, its iterations pooled" :
					      "latency-hist.csv");
			if (commit(w, &rf))
				goto out;
			continue;
		}
		for (int i = 1; i < 5; i++) {
			fmt_g(f, lat[i] / used);
			fprintf(f, " %.2f\n", q[i]);
		}
		if (commit(w, &rf))
			goto out;
		n += (size_t)snprintf(note + n, n < sizeof(note) ? sizeof(note) - n : 0, "%s%s: %s",
				      n ? "; " : "", set->name,
				      used > 1 ? "mean quantiles of its iterations" : "one run");
	}
	if (n == 0) {
		rc = 0;
		goto out;
	}
	if (!(f = open_in(w, "latency-cdf.gp", &rf)))
		goto out;
	fputs("reset\nset grid\nset key outside bottom center horizontal\nset bmargin 5.5\nset logscale x\n"
	      "set xlabel 'transaction latency (ms, log scale)'\nset ylabel 'fraction of transactions'\n", f);
	fputs(any_hist ? "set yrange [0:1.02]\nset ytics 0.1\n"
	      "set title 'Latency CDF of every measured transaction (latency-hist.csv)'\nplot " :
	      "set yrange [0.4:1.02]\nset ytics 0.1\n"
	      "set title 'Latency CDF through p50, p95, p99 and max (result.json latency_ms)'\nplot ", f);
	for (int s = 0; s < w->nr_sets; s++) {
		char name[64];
		struct stat st;

		snprintf(name, sizeof(name), "%s/latency-cdf-%d.dat", w->dir, s + 1);
		if (stat(name, &st) != 0)
			continue;
		fprintf(f, "%s'latency-cdf-%d.dat' using 1:2 with %s title ",
			first ? "" : ", \\\n     ", s + 1,
			from_hist[s] ? "steps lw 2" : "linespoints lw 2 pt 7");
		gp_quote(f, w->sets[s].name);
		first = false;
	}
	fputc('\n', f);
	if (commit(w, &rf))
		goto out;
	add_plot(w, "latency-cdf", any_hist ? "Latency CDF" : "Latency CDF (p50, p95, p99, max)", note,
		 900, 420);
	rc = 0;
out:
	free(from_hist);
	return rc;
}

/* Free pages per order: one heat-map panel per set, boxes from one sample
 * to the next, colour log10(free pages + 1). */
static int plot_buddy_heatmap(struct writer *w)
{
	struct rpt_file rf;
	FILE *f;
	char note[1024];
	int panels = any_have(w, SRC_BUDDY), row = 0;

	if (!panels)
		return 0;
	for (int s = 0; s < w->nr_sets; s++) {
		const struct tab *t = &w->data[s].tab[SRC_BUDDY];
		char name[64];

		if (!w->data[s].have[SRC_BUDDY])
			continue;
		snprintf(name, sizeof(name), "buddyinfo-heatmap-%d.dat", s + 1);
		if (!(f = open_in(w, name, &rf)))
			return -1;
		fputs("# xlow xhigh order free_pages: ", f);
		fputs(w->sets[s].name, f);
		fputc('\n', f);
		for (size_t i = 0; i < t->n; i++) {
			double lo = t->t[i], hi;

			if (i + 1 < t->n)
				hi = t->t[i + 1];
			else
				hi = t->n > 1 ? 2 * t->t[i] - t->t[i - 1] : t->t[i] + 1;
			for (size_t o = 0; o < t->m; o++) {
				fmt_g(f, lo);
				fputc(' ', f);
				fmt_g(f, hi);
				fprintf(f, " %zu ", o);
				fmt_g(f, t->v[i * t->m + o]);
				fputc('\n', f);
			}
		}
		if (commit(w, &rf))
			return -1;
	}
	if (!(f = open_in(w, "buddyinfo-heatmap.gp", &rf)))
		return -1;
	fprintf(f, "reset\nset palette defined (0 '#f7fbff', 1 '#9ecae1', 2 '#4292c6', 3 '#08519c', "
		"4 '#08306b')\nset cblabel 'log10(free 4 KiB pages + 1)'\nset cbrange [0:*]\n"
		"set ylabel 'order'\nset ytics 1\nset style fill solid 1.0 noborder\n"
		"set multiplot layout %d,1 title 'Free pages per order over time (proc-buddyinfo, all zones)'\n",
		panels);
	for (int s = 0; s < w->nr_sets; s++) {
		if (!w->data[s].have[SRC_BUDDY])
			continue;
		row++;
		fprintf(f, "set title ");
		gp_quote(f, w->sets[s].name);
		fprintf(f, "\nset yrange [-0.5:%zu.5]\n", w->data[s].tab[SRC_BUDDY].m - 1);
		fprintf(f, row == panels ? "set xlabel 'time since the first sample (s)'\n" : "unset xlabel\n");
		fprintf(f, "plot 'buddyinfo-heatmap-%d.dat' using (($1+$2)/2):3:1:2:($3-0.5):($3+0.5):"
			"(log10($4+1)) with boxxyerror fillcolor palette notitle\n", s + 1);
	}
	fputs("unset multiplot\n", f);
	if (commit(w, &rf))
		return -1;
	note_for(w, SRC_BUDDY, note, sizeof(note));
	add_plot(w, "buddyinfo-heatmap", "Free pages per order over time (heat map)", note,
		 900, 120 + 230 * panels);
	return 0;
}

/* A stacked-area panel per set of a source whose columns are shares in
 * % (each row's columns sum to 100): PLOT.gp and PLOT-<set>.dat. */
static int stacked_panels(struct writer *w, enum source src, const char *plot, const char *caption,
			  const char *title, const char *ylabel, const char *what)
{
	struct rpt_file rf;
	FILE *f;
	char note[1024], gp[300];
	int panels = any_have(w, src), row = 0;

	if (!panels)
		return 0;
	for (int s = 0; s < w->nr_sets; s++) {
		const struct tab *t = &w->data[s].tab[src];
		char name[300];

		if (!w->data[s].have[src])
			continue;
		snprintf(name, sizeof(name), "%s-%d.dat", plot, s + 1);
		if (!(f = open_in(w, name, &rf)))
			return -1;
		fprintf(f, "# time then cumulative %% of %s:", what);
		for (size_t j = 0; j < t->m; j++)
			fprintf(f, " %s", t->names[j]);
		fputc('\n', f);
		for (size_t i = 0; i < t->n; i++) {
			double cum = 0;

			fmt_g(f, t->t[i]);
			for (size_t j = 0; j < t->m; j++) {
				cum += t->v[i * t->m + j];
				fputc(' ', f);
				fmt_g(f, cum);
			}
			fputc('\n', f);
		}
		if (commit(w, &rf))
			return -1;
	}
	snprintf(gp, sizeof(gp), "%s.gp", plot);
	if (!(f = open_in(w, gp, &rf)))
		return -1;
	fputs("reset\nset ylabel ", f);
	gp_quote(f, ylabel);
	fprintf(f, "\nset yrange [0:100]\nset grid front\n"
		"set key outside right\nset style fill solid 0.85 noborder\n"
		"set multiplot layout %d,1 title ", panels);
	gp_quote(f, title);
	fputc('\n', f);
	for (int s = 0; s < w->nr_sets; s++) {
		const struct tab *t = &w->data[s].tab[src];

		if (!w->data[s].have[src])
			continue;
		row++;
		fprintf(f, "set title ");
		gp_quote(f, w->sets[s].name);
		fputc('\n', f);
		fprintf(f, row == panels ? "set xlabel 'time since the first sample (s)'\n" : "unset xlabel\n");
		fputs("plot ", f);
		for (size_t j = 0; j < t->m; j++) {
			fprintf(f, "%s'%s-%d.dat' using 1:", j ? ", \\\n     " : "", plot, s + 1);
			if (j == 0)
				fputs("(0)", f);
			else
				fprintf(f, "%zu", j + 1);
			fprintf(f, ":%zu with filledcurves lc %zu title ", j + 2, j + 1);
			gp_quote(f, t->names[j]);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	if (commit(w, &rf))
		return -1;
	note_for(w, src, note, sizeof(note));
	add_plot(w, plot, caption, note, 900, 120 + 230 * panels);
	return 0;
}

/* Pageblock migratetype mix: one stacked-area panel per set. */
static int plot_migratetype_mix(struct writer *w)
{
	return stacked_panels(w, SRC_PAGETYPE, "migratetype-mix", "Pageblock migratetype mix over time",
			      "Pageblock migratetype mix over time (proc-pagetypeinfo)", "% of pageblocks",
			      "pageblocks");
}

/* Where PostgreSQL's backends spent each interval, by wait event
 * (waits.csv): one stacked-area panel per set. */
static int plot_waits(struct writer *w)
{
	return stacked_panels(w, SRC_WAITS, "wait-events", "Where the backends' time went, by wait event",
			      "Where the backends' time went, by wait event (waits.csv)",
			      "% of the client backends' time", "the backends' time");
}

/* A figure (result.json "figures") across the sets: one bar per set, the
 * mean over its iterations. */
static int plot_figure(struct writer *w, const char *fig)
{
	char plot[300], file[320], title[400], note[1024] = "";
	struct rpt_file rf;
	size_t n = 0;
	FILE *f;

	/* a file stem: figure names come from result.json */
	snprintf(plot, sizeof(plot), "figure-%s", fig);
	for (char *c = plot; *c; c++)
		if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '-'))
			*c = '_';
	snprintf(file, sizeof(file), "%s.dat", plot);
	if (!(f = open_in(w, file, &rf)))
		return -1;
	fprintf(f, "# set name mean: %s\n", fig);
	for (int s = 0; s < w->nr_sets; s++) {
		const struct rpt_set *set = &w->sets[s];
		unsigned int used;
		double mean = rpt_set_named_mean(set, offsetof(struct rpt_run, figures), fig, &used);

		fprintf(f, "%d \"", s + 1);
		for (const char *c = set->name; *c; c++)
			fputc(*c == '"' ? '\'' : *c, f);
		fputs("\" ", f);
		fmt_g(f, mean);
		fputc('\n', f);
		n += (size_t)snprintf(note + n, n < sizeof(note) ? sizeof(note) - n : 0, "%s%s: %s",
				      n ? "; " : "", set->name, !used ? "none" :
				      used > 1 ? "mean of its iterations" : "one run");
	}
	if (commit(w, &rf))
		return -1;
	snprintf(file, sizeof(file), "%s.gp", plot);
	if (!(f = open_in(w, file, &rf)))
		return -1;
	fprintf(f, "reset\nset grid ytics\nset style fill solid 0.6 border -1\nset boxwidth 0.6\n"
		"set yrange [0:*]\nset xrange [0.4:%d.6]\nset ylabel ", w->nr_sets);
	gp_quote(f, fig);
	snprintf(title, sizeof(title), "%s per set (result.json figures)", fig);
	fputs("\nset title ", f);
	gp_quote(f, title);
	fprintf(f, "\nplot '%s.dat' using 1:3:xtic(2) with boxes notitle\n", plot);
	if (commit(w, &rf))
		return -1;
	add_plot(w, plot, title, note, 900, 420);
	return 0;
}

int rpt_plots_write(const char *dir, const struct rpt_set *sets, int nr_sets,
		    char *const *extra, size_t nr_extra, struct rpt_plots *out,
		    char *err, size_t errlen)
{
	struct writer w = { .dir = dir, .sets = sets, .nr_sets = nr_sets, .out = out,
			    .err = err, .errlen = errlen };
	struct rpt_file master;
	int rc = -1, loaded = 0;

	memset(out, 0, sizeof(*out));
	w.vm.names = xzalloc((NR_STALL + nr_extra) * sizeof(*w.vm.names));
	w.vm.level = xzalloc((NR_STALL + nr_extra) * sizeof(*w.vm.level));
	w.figures = xzalloc((nr_extra ? nr_extra : 1) * sizeof(*w.figures));
	for (size_t j = 0; j < NR_STALL; j++) {
		w.vm.names[w.vm.n] = stall_counters[j];
		w.vm.level[w.vm.n++] = false;
	}
	for (size_t j = 0; j < nr_extra; j++) {
		if (rpt_plot_source(sets, nr_sets, extra[j]) == RPT_PLOT_FIGURE) {
			w.figures[w.nr_figures++] = extra[j];
			continue;
		}
		w.vm.names[w.vm.n] = extra[j];
		w.vm.level[w.vm.n++] = vmstat_is_level(extra[j]);
	}
	if (rpt_mkdir_p(dir, err, errlen))
		goto out;
	w.data = xzalloc((size_t)nr_sets * sizeof(*w.data));
	for (; loaded < nr_sets; loaded++)
		if (load_set(&sets[loaded], &w.vm, &w.data[loaded], err, errlen))
			goto out;
	if (rpt_file_open(&master, dir, "plots.gp", err, errlen))
		goto out;
	w.master = master.f;
	fputs("# slowpath plots: run `gnuplot plots.gp` in this folder\n", w.master);
	if (plot_tps(&w) || plot_waits(&w) || plot_series(&w, SRC_WAL, SRC_WBT) ||
	    plot_latency_cdf(&w) || plot_stalls(&w) || plot_series(&w, SRC_PCP, SRC_CPU) ||
	    plot_buddy_heatmap(&w) || plot_migratetype_mix(&w)) {
		rpt_file_abort(&master);
		goto out;
	}
	for (size_t j = 0; j < w.nr_figures; j++)
		if (plot_figure(&w, w.figures[j])) {
			rpt_file_abort(&master);
			goto out;
		}
	rc = rpt_file_commit(&master, err, errlen);
out:
	if (w.data) {
		for (int s = 0; s < loaded; s++)
			set_data_release(&w.data[s]);
		if (loaded < nr_sets)
			set_data_release(&w.data[loaded]);
	}
	free(w.data);
	free(w.vm.names);
	free(w.vm.level);
	free(w.figures);
	return rc;
}

enum rpt_plot_src rpt_plot_source(const struct rpt_set *sets, int nr_sets, const char *name)
{
	bool fig = false;

	for (int s = 0; s < nr_sets; s++)
		for (unsigned int r = 0; r < sets[s].nr_runs; r++) {
			if (rpt_named_find(&sets[s].runs[r].vmstat, name) ||
			    (strcmp(name, "allocstall") == 0))
				return RPT_PLOT_VMSTAT;
			fig |= rpt_named_find(&sets[s].runs[r].figures, name) != NULL;
		}
	return fig ? RPT_PLOT_FIGURE : RPT_PLOT_NONE;
}

int rpt_plots_run_gnuplot(const char *dir, char *err, size_t errlen)
{
	size_t ln = strlen(dir) + 32;
	char *log = xzalloc(ln);
	pid_t pid;
	int status;

	snprintf(log, ln, "%s/gnuplot.log", dir);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(log);
		return fail(err, errlen, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		FILE *lf = fopen(log, "w");
		char *const argv[] = { "gnuplot", "plots.gp", NULL };

		if (!lf || chdir(dir) != 0)
			_exit(126);
		dup2(fileno(lf), STDERR_FILENO);
		dup2(fileno(lf), STDOUT_FILENO);
		execvp("gnuplot", argv);
		fprintf(lf, "cannot run gnuplot: %s\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(log);
			return fail(err, errlen, "waitpid: %s", strerror(errno));
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			fail(err, errlen, "gnuplot not found (install gnuplot-nox: scripts/install-deps.sh)");
		else
			fail(err, errlen, "gnuplot failed in %s (see %s)", dir, log);
		free(log);
		return -1;
	}
	free(log);
	return 0;
}

int rpt_plots_make(const char *dir, const struct rpt_set *sets, int nr_sets,
		   char *const *extra, size_t nr_extra, struct rpt_plots *out, char *err, size_t errlen)
{
	if (rpt_plots_write(dir, sets, nr_sets, extra, nr_extra, out, err, errlen))
		return -1;
	if (rpt_plots_run_gnuplot(dir, err, errlen))
		return -2;
	return 0;
}

void rpt_plots_release(struct rpt_plots *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].title);
		free(p->v[i].note);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}
