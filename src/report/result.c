/* SPDX-License-Identifier: MIT */
/*
 * result.c — the result folder writer (docs/results.md, schema
 * slowpath-result/1), shared by simulated and recorded runs.
 *
 * JSON comes from jansson; objects keep insertion order, so keys appear in
 * the order docs/results.md lists them.  Counters are written as JSON
 * integers.  Other numbers are rounded to a fixed number of decimals per
 * key and printed with 15 significant digits, which gives the shortest
 * text for the rounded value ("0.1", not "0.10000000000000001") and is
 * the same on every run of the same build.  Non-finite values (a bug
 * upstream) are written as null rather than as invalid JSON.
 *
 * Every file goes to NAME.tmp first and is renamed into place when it is
 * complete, so a folder never holds a half-written file under its final
 * name; result.json is written last by the callers.
 *
 * This file knows nothing of the model (mm/, sim/): the recorder links it
 * without them.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_statistics_double.h>
#include <jansson.h>

#include "report/result.h"
#include "sim/debug.h"
#include "sim/xalloc.h"

#define SCHEMA		"slowpath-result/1"
#define JSON_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(15))

/* ---- counters ---------------------------------------------------------- */

void rpt_counters_add(struct rpt_counters *c, const char *name, int64_t value)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	c->v[c->n].name = xstrdup(name);
	c->v[c->n].value = value;
	c->n++;
}

int64_t rpt_counters_get(const struct rpt_counters *c, const char *name, bool *found)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0) {
			if (found)
				*found = true;
			return c->v[i].value;
		}
	if (found)
		*found = false;
	return 0;
}

void rpt_counters_release(struct rpt_counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* ---- result ------------------------------------------------------------- */

void rpt_result_add_figure(struct rpt_result *r, const char *name, double value, const char *unit)
{
	if (r->nr_figures == r->cap_figures) {
		r->cap_figures = r->cap_figures ? 2 * r->cap_figures : 8;
		r->figures = xrealloc(r->figures, r->cap_figures * sizeof(*r->figures));
	}
	r->figures[r->nr_figures].name = xstrdup(name);
	r->figures[r->nr_figures].value = value;
	r->figures[r->nr_figures].unit = xstrdup(unit ? unit : "");
	r->nr_figures++;
}

void rpt_result_add_missing(struct rpt_result *r, const char *text)
{
	r->missing = xrealloc(r->missing, (r->nr_missing + 1) * sizeof(*r->missing));
	r->missing[r->nr_missing++] = xstrdup(text);
}

void rpt_result_release(struct rpt_result *r)
{
	rpt_counters_release(&r->vmstat);
	rpt_counters_release(&r->vmstat_end);
	rpt_counters_release(&r->zones_managed);
	for (size_t i = 0; i < r->nr_figures; i++) {
		free(r->figures[i].name);
		free(r->figures[i].unit);
	}
	free(r->figures);
	for (size_t i = 0; i < r->nr_missing; i++)
		free(r->missing[i]);
	free(r->missing);
	memset(r, 0, sizeof(*r));
}

/* ---- JSON helpers ---------------------------------------------------------- */

/* A number rounded to `decimals` places; null when not finite. */
static json_t *jnum(double v, int decimals)
{
	double m = 1;

	if (!isfinite(v))
		return json_null();
	for (int i = 0; i < decimals; i++)
		m *= 10;
	v = round(v * m) / m;
	if (v == 0)
		v = 0;		/* no "-0.0" */
	return json_real(v);
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if none. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, c = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, c = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, c = p[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3fu);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

/*
 * A JSON string of any bytes: JSON strings are UTF-8, so a byte that is
 * not part of valid UTF-8 (a scenario path in Latin-1, say) is written as
 * the four characters \xNN, as git and Python's backslashreplace do,
 * instead of the string becoming null.
 */
static json_t *jstr(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), used = 0;
	json_t *v = json_stringn((const char *)p, n);
	char *buf;

	if (v)
		return v;
	buf = xrealloc(NULL, 4 * n + 1);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_seq(p + i, n - i);

		if (len && p[i]) {
			memcpy(buf + used, p + i, len);
			used += len;
			i += len;
		} else {
			used += (size_t)snprintf(buf + used, 5, "\\x%02x", p[i]);
			i++;
		}
	}
	v = json_stringn(buf, used);
	free(buf);
	return v;
}

/*
 * Seeds are u64; JSON integers in jansson are int64.  The seed is set as
 * this placeholder string and the dumped text gets the decimal number in
 * its place (write_json), so 2^64-1 is written as 18446744073709551615,
 * not -1.
 */
#define SEED_PLACEHOLDER	"@slowpath-seed@"

static json_t *jseed(uint64_t seed, char *text, size_t len)
{
	snprintf(text, len, "%llu", (unsigned long long)seed);
	return json_string(SEED_PLACEHOLDER);
}

static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v ? v : json_null());
}

static json_t *counters_json(const struct rpt_counters *c)
{
	json_t *o = json_object();

	for (size_t i = 0; i < c->n; i++)
		set(o, c->v[i].name, json_integer(c->v[i].value));
	return o;
}

/*
 * Stall counters normalised per 10^6 pages written back, as the seeds
 * quote them.  "allocstall" sums every allocstall_<zone> counter.  Keys are
 * emitted only for counters the result has; the object is empty when
 * nothing was written back.
 */
const char *const rpt_per_million_keys[] = {
	"allocstall", "compact_stall", "compact_fail", "compact_success",
	"pgscan_direct", "pgsteal_direct", "sim_drain_all_pages", NULL
};

bool rpt_per_million(const struct rpt_counters *vm, const char *key, double *out)
{
	bool found, have = false;
	int64_t written = rpt_counters_get(vm, "nr_written", &found), v = 0;

	if (!found || written <= 0)
		return false;
	if (strcmp(key, "allocstall") == 0) {
		for (size_t i = 0; i < vm->n; i++)
			if (strncmp(vm->v[i].name, "allocstall_", 11) == 0) {
				v += vm->v[i].value;
				have = true;
			}
	} else {
		v = rpt_counters_get(vm, key, &have);
	}
	*out = (double)v * 1e6 / (double)written;
	return have;
}

static json_t *per_million_json(const struct rpt_counters *vm)
{
	json_t *o = json_object();

	for (int k = 0; rpt_per_million_keys[k]; k++) {
		double v;

		if (rpt_per_million(vm, rpt_per_million_keys[k], &v))
			set(o, rpt_per_million_keys[k], jnum(v, 3));
	}
	return o;
}

static json_t *latency_json(const struct rpt_latency *l)
{
	json_t *o = json_object();

	set(o, "avg", jnum(l->avg, 6));
	set(o, "p50", jnum(l->p50, 6));
	set(o, "p95", jnum(l->p95, 6));
	set(o, "p99", jnum(l->p99, 6));
	set(o, "max", jnum(l->max, 6));
	return o;
}

static bool is_recorded(const struct rpt_result *r)
{
	return r->source && strcmp(r->source, "recorded") == 0;
}

static void scale_text(char *buf, size_t len, unsigned int n)
{
	snprintf(buf, len, "1/%u", n ? n : 1);
}

static json_t *result_json(const struct rpt_result *r, char *seed, size_t seedlen)
{
	json_t *o = json_object();
	json_t *figs = json_object(), *units = json_object(), *machine = json_object();
	char scale[32];
	bool any_unit = false;

	scale_text(scale, sizeof(scale), r->scale_n);
	set(o, "schema", jstr(SCHEMA));
	set(o, "source", jstr(r->source ? r->source : "simulated"));
	set(o, "scenario", jstr(r->scenario));
	set(o, "policy", jstr(r->policy));
	set(o, "seed", jseed(r->seed, seed, seedlen));
	set(o, "scale", jstr(scale));
	set(o, "iteration", json_integer(r->iteration ? r->iteration : 1));
	set(o, "virtual_seconds", jnum(r->virtual_seconds, 9));
	set(o, "measure_seconds", jnum(r->measure_seconds, 9));
	set(o, "wall_seconds", jnum(r->wall_seconds, 3));
	set(o, "events", json_integer((json_int_t)r->events));
	set(o, "events_per_second",
	    jnum(r->wall_seconds > 0 ? (double)r->events / r->wall_seconds : 0, 0));
	set(o, "vmstat", counters_json(&r->vmstat));
	set(o, "vmstat_end", counters_json(&r->vmstat_end));
	if (r->has_transactions) {
		set(o, "transactions", json_integer((json_int_t)r->transactions));
		set(o, "tps", jnum(r->tps, 3));
		set(o, "latency_ms", latency_json(&r->latency));
	}
	set(o, "per_million_written", per_million_json(&r->vmstat));
	for (size_t i = 0; i < r->nr_figures; i++) {
		set(figs, r->figures[i].name, jnum(r->figures[i].value, 6));
		set(units, r->figures[i].name, jstr(r->figures[i].unit));
		any_unit |= r->figures[i].unit[0] != '\0';
	}
	set(o, "figures", figs);
	if (any_unit)
		set(o, "figure_units", units);
	else
		json_decref(units);
	set(machine, "memory_bytes", json_integer((json_int_t)r->memory_bytes));
	set(machine, "cpus", json_integer(r->cpus));
	set(machine, "zones", counters_json(&r->zones_managed));
	set(o, "machine", machine);
	if (is_recorded(r)) {
		json_t *miss = json_array();

		set(o, "kernel_release", jstr(r->kernel_release));
		set(o, "command", jstr(r->command));
		set(o, "exit_status", json_integer(r->exit_status));
		set(o, "start_epoch", json_integer(r->start_epoch));
		set(o, "interval_seconds", jnum(r->interval_seconds, 3));
		set(o, "samples", json_integer((json_int_t)r->samples));
		for (size_t i = 0; i < r->nr_missing; i++)
			json_array_append_new(miss, jstr(r->missing[i]));
		set(o, "missing", miss);
	}
	return o;
}

/* Write root to DIR/NAME; `seed` replaces the seed placeholder (jseed). */
static int write_json(const char *dir, const char *name, json_t *root, const char *seed,
		      char *err, size_t errlen)
{
	struct rpt_file rf;
	char *text = json_dumps(root, JSON_FLAGS), *at;
	bool bad;

	json_decref(root);
	if (!text)
		return sim_errf(err, errlen, "%s/%s: cannot write JSON", dir, name);
	if (rpt_file_open(&rf, dir, name, err, errlen)) {
		free(text);
		return -1;
	}
	/* a string value cannot contain an unescaped '"': only the key matches */
	at = strstr(text, "\"seed\": \"" SEED_PLACEHOLDER "\"");
	if (at) {
		fwrite(text, 1, (size_t)(at - text) + 8, rf.f);
		fputs(seed, rf.f);
		fputs(at + 8 + strlen(SEED_PLACEHOLDER) + 2, rf.f);
	} else {
		fputs(text, rf.f);
	}
	free(text);
	bad = fputc('\n', rf.f) == EOF;
	if (bad) {
		rpt_file_abort(&rf);
		return sim_errf(err, errlen, "%s/%s: cannot write JSON", dir, name);
	}
	return rpt_file_commit(&rf, err, errlen);
}

int rpt_result_write(const char *dir, const struct rpt_result *r, char *err, size_t errlen)
{
	char seed[24];

	return write_json(dir, "result.json", result_json(r, seed, sizeof(seed)), seed, err, errlen);
}

/* ---- aggregate over iterations ---------------------------------------------- */

/* mean/stddev/min/max of n values; integers print min/max as integers. */
static json_t *stats_json(const double *v, unsigned int n, bool integer, int decimals)
{
	json_t *o = json_object();
	double mn = gsl_stats_min(v, 1, n), mx = gsl_stats_max(v, 1, n);

	set(o, "mean", jnum(gsl_stats_mean(v, 1, n), decimals));
	set(o, "stddev", jnum(n > 1 ? gsl_stats_sd(v, 1, n) : 0, decimals));
	if (integer) {
		set(o, "min", json_integer((json_int_t)mn));
		set(o, "max", json_integer((json_int_t)mx));
	} else {
		set(o, "min", jnum(mn, decimals));
		set(o, "max", jnum(mx, decimals));
	}
	return o;
}

/* Aggregate a counter list over iterations: the names of iteration 1, in
 * its order, that every iteration has. */
static json_t *counters_stats(const struct rpt_result *it, unsigned int n, size_t off, double *buf)
{
	const struct rpt_counters *first = (const void *)((const char *)&it[0] + off);
	json_t *o = json_object();

	for (size_t i = 0; i < first->n; i++) {
		bool all = true;

		for (unsigned int k = 0; k < n && all; k++) {
			const struct rpt_counters *c = (const void *)((const char *)&it[k] + off);

			buf[k] = (double)rpt_counters_get(c, first->v[i].name, &all);
		}
		if (all)
			set(o, first->v[i].name, stats_json(buf, n, true, 3));
	}
	return o;
}

static bool figure_value(const struct rpt_result *r, const char *name, double *v)
{
	for (size_t i = 0; i < r->nr_figures; i++)
		if (strcmp(r->figures[i].name, name) == 0) {
			*v = r->figures[i].value;
			return true;
		}
	return false;
}

#define EACH_ITER(expr) do { for (unsigned int k = 0; k < n; k++) buf[k] = (double)(expr); } while (0)

int rpt_result_write_aggregate(const char *dir, const struct rpt_result *it, unsigned int n,
			       char *err, size_t errlen)
{
	json_t *o, *agg, *figs;
	double *buf, wall = 0;
	uint64_t events = 0;
	char seed[24];
	char scale[32];
	bool tx = true;
	int rc;

	if (n == 0)
		return sim_errf(err, errlen, "%s: no iterations to aggregate", dir);
	buf = xrealloc(NULL, n * sizeof(*buf));
	for (unsigned int k = 0; k < n; k++) {
		wall += it[k].wall_seconds;
		events += it[k].events;
		tx &= it[k].has_transactions;
	}
	scale_text(scale, sizeof(scale), it[0].scale_n);
	o = json_object();
	set(o, "schema", jstr(SCHEMA));
	set(o, "source", jstr(it[0].source ? it[0].source : "simulated"));
	set(o, "scenario", jstr(it[0].scenario));
	set(o, "policy", jstr(it[0].policy));
	set(o, "seed", jseed(it[0].seed, seed, sizeof(seed)));
	set(o, "scale", jstr(scale));
	set(o, "iterations", json_integer(n));
	set(o, "wall_seconds", jnum(wall, 3));
	set(o, "events", json_integer((json_int_t)events));
	agg = json_object();
	EACH_ITER(it[k].virtual_seconds);
	set(agg, "virtual_seconds", stats_json(buf, n, false, 9));
	EACH_ITER(it[k].measure_seconds);
	set(agg, "measure_seconds", stats_json(buf, n, false, 9));
	EACH_ITER(it[k].events);
	set(agg, "events", stats_json(buf, n, true, 3));
	if (tx) {
		json_t *lat = json_object();

		EACH_ITER(it[k].transactions);
		set(agg, "transactions", stats_json(buf, n, true, 3));
		EACH_ITER(it[k].tps);
		set(agg, "tps", stats_json(buf, n, false, 3));
		EACH_ITER(it[k].latency.avg);
		set(lat, "avg", stats_json(buf, n, false, 6));
		EACH_ITER(it[k].latency.p50);
		set(lat, "p50", stats_json(buf, n, false, 6));
		EACH_ITER(it[k].latency.p95);
		set(lat, "p95", stats_json(buf, n, false, 6));
		EACH_ITER(it[k].latency.p99);
		set(lat, "p99", stats_json(buf, n, false, 6));
		EACH_ITER(it[k].latency.max);
		set(lat, "max", stats_json(buf, n, false, 6));
		set(agg, "latency_ms", lat);
	}
	set(agg, "vmstat", counters_stats(it, n, offsetof(struct rpt_result, vmstat), buf));
	figs = json_object();
	for (size_t i = 0; i < it[0].nr_figures; i++) {
		bool all = true;

		for (unsigned int k = 0; k < n && all; k++)
			all = figure_value(&it[k], it[0].figures[i].name, &buf[k]);
		if (all)
			set(figs, it[0].figures[i].name, stats_json(buf, n, false, 6));
	}
	set(agg, "figures", figs);
	set(o, "aggregate", agg);
	free(buf);
	rc = write_json(dir, "result.json", o, seed, err, errlen);
	return rc;
}

/* ---- files ---------------------------------------------------------------------- */

static char *path_join(const char *dir, const char *name, const char *suffix)
{
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = xrealloc(NULL, n);

	snprintf(p, n, "%s%s%s%s", dir, *dir ? "/" : "", name, suffix);
	return p;
}

int rpt_file_open(struct rpt_file *rf, const char *dir, const char *name, char *err, size_t errlen)
{
	rf->final_path = path_join(dir, name, "");
	rf->tmp_path = path_join(dir, name, ".tmp");
	rf->f = fopen(rf->tmp_path, "w");
	if (!rf->f) {
		int e = errno;

		sim_errf(err, errlen, "%s: %s", rf->tmp_path, strerror(e));
		free(rf->final_path);
		free(rf->tmp_path);
		rf->final_path = rf->tmp_path = NULL;
		return -1;
	}
	return 0;
}

int rpt_file_open_path(struct rpt_file *rf, const char *path, char *err, size_t errlen)
{
	struct stat st;

	memset(rf, 0, sizeof(*rf));
	if (!*path)
		return sim_errf(err, errlen, "empty output file name");
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return sim_errf(err, errlen, "%s: is a directory", path);
	rf->final_path = xstrdup(path);
	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		rf->tmp_path = path_join("", path, ".tmp");
	rf->f = fopen(rf->tmp_path ? rf->tmp_path : path, "w");
	if (!rf->f) {
		int e = errno;

		sim_errf(err, errlen, "%s: %s", rf->tmp_path ? rf->tmp_path : path, strerror(e));
		free(rf->final_path);
		free(rf->tmp_path);
		memset(rf, 0, sizeof(*rf));
		return -1;
	}
	return 0;
}

int rpt_file_commit(struct rpt_file *rf, char *err, size_t errlen)
{
	int rc = 0;
	bool bad = ferror(rf->f) != 0;

	if (!rf->tmp_path) {		/* written in place */
		errno = 0;
		bad = fflush(rf->f) != 0 || ferror(rf->f);
		if (fclose(rf->f) != 0 || bad)
			rc = sim_errf(err, errlen, "%s: %s", rf->final_path, strerror(errno ? errno : EIO));
	} else if (fclose(rf->f) != 0 || bad) {
		rc = sim_errf(err, errlen, "%s: %s", rf->tmp_path, bad ? "write error" : strerror(errno));
		unlink(rf->tmp_path);
	} else if (rename(rf->tmp_path, rf->final_path) != 0) {
		rc = sim_errf(err, errlen, "%s: cannot rename to '%s': %s", rf->tmp_path, rf->final_path,
			  strerror(errno));
		unlink(rf->tmp_path);
	}
	free(rf->tmp_path);
	free(rf->final_path);
	memset(rf, 0, sizeof(*rf));
	return rc;
}

void rpt_file_abort(struct rpt_file *rf)
{
	if (rf->f)
		fclose(rf->f);
	if (rf->tmp_path)
		unlink(rf->tmp_path);
	free(rf->tmp_path);
	free(rf->final_path);
	memset(rf, 0, sizeof(*rf));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int rpt_remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int rpt_mkdir_p(const char *dir, char *err, size_t errlen)
{
	char *p;
	struct stat st;

	if (!*dir)
		return sim_errf(err, errlen, "empty directory name");
	p = xstrdup(dir);

	for (char *s = p + 1; ; s++) {
		bool last = *s == '\0';

		if (*s != '/' && !last)
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			sim_errf(err, errlen, "%s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		if (last)
			break;
		*s = '/';
	}
	free(p);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return sim_errf(err, errlen, "%s: not a directory", dir);
	return 0;
}

/* ---- monitors -------------------------------------------------------------------- */

/* In the order of the kernel's include/trace/events/{kmem,compaction,
 * vmscan}.h names; the model counts each where vmstat.h MM_TRACEPOINTS
 * says. */
const char *const rpt_trace_events[RPT_NR_TRACE_EVENTS] = {
	"kmem:mm_page_alloc",
	"kmem:mm_page_free",
	"kmem:mm_page_alloc_zone_locked",
	"kmem:mm_page_pcpu_drain",
	"kmem:mm_page_alloc_extfrag",
	"compaction:mm_compaction_begin",
	"vmscan:mm_vmscan_direct_reclaim_begin",
	"vmscan:mm_vmscan_wakeup_kswapd",
	"vmscan:mm_vmscan_kswapd_wake",
	"filemap:mm_filemap_add_to_page_cache",
	"filemap:mm_filemap_delete_from_page_cache",
};

void rpt_monitor_sample(FILE *f, const char *time_text, const char *text)
{
	size_t n = strlen(text);

	fprintf(f, "time: %s\n", time_text);
	fwrite(text, 1, n, f);
	if (n && text[n - 1] != '\n')
		fputc('\n', f);
}

void rpt_format_monitor_time(char *buf, size_t len, uint64_t ns, bool whole)
{
	if (whole)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000000000ULL));
	else
		snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000000000ULL),
			 (unsigned long long)(ns % 1000000000ULL / 1000000ULL));
}
