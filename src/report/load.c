/* SPDX-License-Identifier: MIT */
/*
 * load.c — reading result folders: result.json, tps.csv, latency-hist.csv
 * and profile.json (docs/results.md).  Written against the documented
 * schema with jansson; every malformed input is reported as "<path>[:<line>]: message" and never
 * crashes.  Iterated folders (DIR/iter-N) are read in numeric order, never
 * in directory order.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/load.h"
#include "report/procfs.h"

const char *const rpt_time_names[RPT_NR_TIMES] = { "cpu", "spin", "sleep", "io", "runq", "idle" };
const char *const rpt_latency_names[5] = { "avg", "p50", "p95", "p99", "max" };

#define PROFILE_MAX_DEPTH 256

void rpt_grow(void *v, size_t *cap, size_t want, size_t sz)
{
	void **pv = v;
	size_t c = *cap;

	if (want <= c)
		return;
	c = c ? c : 8;
	while (c < want)
		c *= 2;
	*pv = xrecalloc(*pv, *cap, c, sz);
	*cap = c;
}

int rpt_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

#define fail rpt_errf

char *rpt_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		rpt_grow(&buf, &cap, n + 65536 + 1, 1);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fail(err, errlen, "%s: read error", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		fail(err, errlen, "%s: binary data (NUL byte)", path);
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

/* ---- named lists --------------------------------------------------------- */

void rpt_named_set(struct rpt_named_list *l, const char *name, double value, const char *unit)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return;
	rpt_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].name = xstrdup(name);
	l->v[l->n].value = value;
	l->v[l->n].unit = unit ? xstrdup(unit) : NULL;
	l->n++;
}

const struct rpt_named *rpt_named_find(const struct rpt_named_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

void rpt_named_release(struct rpt_named_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].unit);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- JSON helpers ---------------------------------------------------------- */

static json_t *load_json(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	size_t len;
	char *text = rpt_read_file(path, &len, err, errlen);
	json_t *root;

	if (!text)
		return NULL;
	/* Integers as reals: every number is read as a double anyway, and a
	 * u64 above INT64_MAX (a seed) must not fail the whole file. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
	free(text);
	if (!root) {
		fail(err, errlen, "%s:%d: %s", path, je.line, je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		fail(err, errlen, "%s: top level is not an object", path);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* Optional number: absent -> *present = false; wrong type -> error. */
static int get_num(const char *path, json_t *o, const char *key, double *out, bool *present,
		   char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (present)
		*present = v != NULL && !json_is_null(v);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return fail(err, errlen, "%s: '%s' is not a number", path, key);
	*out = json_number_value(v);
	if (!isfinite(*out))
		return fail(err, errlen, "%s: '%s' is not finite", path, key);
	return 0;
}

static int get_str(const char *path, json_t *o, const char *key, char **out, bool required,
		   char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		if (required)
			return fail(err, errlen, "%s: missing key '%s'", path, key);
		return 0;
	}
	if (!json_is_string(v))
		return fail(err, errlen, "%s: '%s' is not a string", path, key);
	*out = xstrdup(json_string_value(v));
	return 0;
}

/* Object of name -> number into l, in file order. */
static int get_counters(const char *path, json_t *o, const char *key, struct rpt_named_list *l,
			char *err, size_t errlen)
{
	json_t *obj = json_object_get(o, key), *v;
	const char *name;

	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return fail(err, errlen, "%s: '%s' is not an object", path, key);
	json_object_foreach(obj, name, v) {
		if (!json_is_number(v))
			return fail(err, errlen, "%s: '%s.%s' is not a number", path, key, name);
		rpt_named_set(l, name, json_number_value(v), NULL);
	}
	return 0;
}

/* "figures": name -> number, with units in "figure_units": name -> string. */
static int get_figures(const char *path, json_t *o, struct rpt_named_list *l, char *err, size_t errlen)
{
	json_t *obj = json_object_get(o, "figures"), *units = json_object_get(o, "figure_units"), *v;
	const char *name;

	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return fail(err, errlen, "%s: 'figures' is not an object", path);
	if (units && !json_is_null(units) && !json_is_object(units))
		return fail(err, errlen, "%s: 'figure_units' is not an object", path);
	json_object_foreach(obj, name, v) {
		json_t *u = units ? json_object_get(units, name) : NULL;

		if (!json_is_number(v))
			return fail(err, errlen, "%s: 'figures.%s' is not a number", path, name);
		if (u && !json_is_string(u))
			return fail(err, errlen, "%s: 'figure_units.%s' is not a string", path, name);
		rpt_named_set(l, name, json_number_value(v), u ? json_string_value(u) : NULL);
	}
	return 0;
}

/* "slowpath-result/N" with N >= 1; later versions only add keys. */
static int check_schema(const char *path, json_t *root, const char *prefix, char *err, size_t errlen)
{
	json_t *v = json_object_get(root, "schema");
	const char *s;
	size_t pl = strlen(prefix);
	char *end;
	long ver;

	if (!json_is_string(v))
		return fail(err, errlen, "%s: missing key 'schema' (not a %s file?)", path, prefix);
	s = json_string_value(v);
	if (strncmp(s, prefix, pl) != 0 || s[pl] != '/')
		return fail(err, errlen, "%s: schema '%s' is not %s/N", path, s, prefix);
	errno = 0;
	ver = strtol(s + pl + 1, &end, 10);
	if (errno || *end || end == s + pl + 1 || ver < 1)
		return fail(err, errlen, "%s: schema '%s' has no valid version", path, s);
	return 0;
}

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = xzalloc(la + lb + 2);

	memcpy(p, a, la);
	if (la && a[la - 1] != '/')
		p[la++] = '/';
	memcpy(p + la, b, lb + 1);
	return p;
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- CSV files of numbers: tps.csv, latency-hist.csv ---------------------- */

#define CSV_MAX_FIELDS	4

/*
 * A header line, then rows of nf numbers (finite; >= 0 when nonneg), each
 * handed to row(); text is modified in place.  Errors at path:line.
 */
static int csv_numbers(const char *path, char *text, const char *header, int nf, bool nonneg,
		       int (*row)(void *ctx, const double *f, const char *path, unsigned int lineno,
				  char *err, size_t errlen),
		       void *ctx, char *err, size_t errlen)
{
	char *line = text, *next;
	unsigned int lineno = 0;

	for (; line && *line; line = next) {
		double f[CSV_MAX_FIELDS];
		char *p;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (lineno == 1) {
			if (strcmp(line, header) != 0)
				return fail(err, errlen, "%s:1: header is not '%s'", path, header);
			continue;
		}
		p = line;
		for (int i = 0; i < nf; i++) {
			char *end;

			errno = 0;
			f[i] = strtod(p, &end);
			if (end == p || errno || !isfinite(f[i]) || (nonneg && f[i] < 0) ||
			    (i < nf - 1 && *end != ',') || (i == nf - 1 && *end != '\0'))
				return fail(err, errlen, "%s:%u: field %d: expected a number in '%s'",
					    path, lineno, i + 1, line);
			p = end + 1;
		}
		if (row(ctx, f, path, lineno, err, errlen))
			return -1;
	}
	if (lineno == 0)
		return fail(err, errlen, "%s: empty file (no header)", path);
	return 0;
}

static int series_row(void *ctx, const double *f, const char *path, unsigned int lineno,
		      char *err, size_t errlen)
{
	struct rpt_series *s = ctx;

	if (s->n && f[0] <= s->t[s->n - 1])
		return fail(err, errlen, "%s:%u: interval_end_s %g does not increase",
			    path, lineno, f[0]);
	if (s->n == s->cap) {
		size_t c = s->cap ? 2 * s->cap : 64;

		s->t = xrealloc(s->t, c * sizeof(double));
		s->tps = xrealloc(s->tps, c * sizeof(double));
		s->lat_avg = xrealloc(s->lat_avg, c * sizeof(double));
		s->lat_max = xrealloc(s->lat_max, c * sizeof(double));
		s->cap = c;
	}
	s->t[s->n] = f[0];
	s->tps[s->n] = f[1];
	s->lat_avg[s->n] = f[2];
	s->lat_max[s->n] = f[3];
	s->n++;
	return 0;
}

int rpt_series_parse(const char *path, char *text, struct rpt_series *s, char *err, size_t errlen)
{
	return csv_numbers(path, text, "interval_end_s,tps,lat_avg_ms,lat_max_ms", 4, false,
			   series_row, s, err, errlen);
}

void rpt_series_release(struct rpt_series *s)
{
	free(s->t);
	free(s->tps);
	free(s->lat_avg);
	free(s->lat_max);
	memset(s, 0, sizeof(*s));
}

/* A table of interval_end_s and named columns of numbers >= 0 (waits.csv,
 * wal.csv); `what` names a column in messages. */
static int interval_table_parse(const char *path, char *text, const char *what, struct rpt_waits *w,
				char *err, size_t errlen)
{
	char *line, *next, *p, *names[RPT_WAITS_MAX_COLS];
	size_t rows = 0;
	unsigned int lineno = 1;

	memset(w, 0, sizeof(*w));
	for (p = text; *p; p++)
		rows += *p == '\n';
	next = strchr(text, '\n');
	if (next)
		*next++ = '\0';
	if (strncmp(text, "interval_end_s,", 15) != 0)
		return fail(err, errlen, "%s:1: header does not start 'interval_end_s,'", path);
	for (p = text + 15; p; w->m++) {
		char *c = strchr(p, ',');

		if (c)
			*c++ = '\0';
		if (w->m == RPT_WAITS_MAX_COLS)
			return fail(err, errlen, "%s:1: more than %d %ss", path, RPT_WAITS_MAX_COLS, what);
		if (!*p || strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(p))
			return fail(err, errlen, "%s:1: invalid %s name '%s'", path, what, p);
		names[w->m] = p;
		p = c;
	}
	w->t = xzalloc((rows ? rows : 1) * sizeof(double));
	w->v = xzalloc((rows ? rows : 1) * w->m * sizeof(double));
	w->names = xzalloc(w->m * sizeof(char *));
	for (size_t j = 0; j < w->m; j++)
		w->names[j] = xstrdup(names[j]);
	for (line = next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		p = line;
		for (size_t j = 0; j <= w->m; j++) {
			char *end;
			double v;

			errno = 0;
			v = strtod(p, &end);
			if (end == p || errno || !isfinite(v) || v < 0 || (j < w->m && *end != ',') ||
			    (j == w->m && *end != '\0')) {
				fail(err, errlen, "%s:%u: field %zu: expected a number >= 0 in '%s'", path, lineno,
				     j + 1, line);
				goto bad;
			}
			if (j == 0 && w->n && v <= w->t[w->n - 1]) {
				fail(err, errlen, "%s:%u: interval_end_s %g does not increase", path, lineno, v);
				goto bad;
			}
			if (j == 0)
				w->t[w->n] = v;
			else
				w->v[w->n * w->m + j - 1] = v;
			p = end + 1;
		}
		w->n++;
	}
	return 0;
bad:
	rpt_waits_release(w);
	return -1;
}

int rpt_waits_parse(const char *path, char *text, struct rpt_waits *w, char *err, size_t errlen)
{
	return interval_table_parse(path, text, "wait event", w, err, errlen);
}

int rpt_wal_parse(const char *path, char *text, struct rpt_waits *w, size_t *fpi_col, size_t *bytes_col,
		  char *err, size_t errlen)
{
	static const char *const need[] = { "wal_fpi", "wal_bytes" };
	size_t *col[] = { fpi_col, bytes_col };

	if (interval_table_parse(path, text, "column", w, err, errlen))
		return -1;
	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		size_t j = 0;

		while (j < w->m && strcmp(w->names[j], need[k]) != 0)
			j++;
		if (j == w->m) {
			rpt_waits_release(w);
			return fail(err, errlen, "%s:1: no column '%s'", path, need[k]);
		}
		*col[k] = j;
	}
	return 0;
}

void rpt_waits_release(struct rpt_waits *w)
{
	for (size_t j = 0; j < w->m && w->names; j++)
		free(w->names[j]);
	free(w->names);
	free(w->t);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

static int hist_row(void *ctx, const double *f, const char *path, unsigned int lineno,
		    char *err, size_t errlen)
{
	struct rpt_lat_hist *h = ctx;

	if (f[1] < f[0] || (h->n && f[0] <= h->hi[h->n - 1]))
		return fail(err, errlen, "%s:%u: bucket %g..%g out of order", path, lineno, f[0], f[1]);
	if (h->n == h->cap) {
		size_t c = h->cap ? 2 * h->cap : 64;

		h->lo = xrealloc(h->lo, c * sizeof(double));
		h->hi = xrealloc(h->hi, c * sizeof(double));
		h->count = xrealloc(h->count, c * sizeof(double));
		h->cap = c;
	}
	h->lo[h->n] = f[0];
	h->hi[h->n] = f[1];
	h->count[h->n] = f[2];
	h->n++;
	return 0;
}

int rpt_lat_hist_parse(const char *path, char *text, struct rpt_lat_hist *h, char *err, size_t errlen)
{
	return csv_numbers(path, text, "lo_ns,hi_ns,count", 3, true, hist_row, h, err, errlen);
}

void rpt_lat_hist_release(struct rpt_lat_hist *h)
{
	free(h->lo);
	free(h->hi);
	free(h->count);
	memset(h, 0, sizeof(*h));
}

/* ---- profile.json -------------------------------------------------------- */

void rpt_profile_init(struct rpt_profile *p)
{
	memset(p, 0, sizeof(*p));
	rpt_grow(&p->v, &p->cap, 1, sizeof(*p->v));
	p->v[0].name = xstrdup("");
	p->n = 1;
}

uint32_t rpt_profile_child(struct rpt_profile *p, uint32_t parent, const char *name, bool create)
{
	struct rpt_prof_node *nd;
	uint32_t c;

	for (c = p->v[parent].first_child; c != RPT_PROF_NONE; c = p->v[c].next_sibling)
		if (strcmp(p->v[c].name, name) == 0)
			return c;
	if (!create)
		return RPT_PROF_NONE;
	rpt_grow(&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	c = (uint32_t)p->n++;
	nd = &p->v[c];
	memset(nd, 0, sizeof(*nd));
	nd->name = xstrdup(name);
	nd->parent = parent;
	if (p->v[parent].last_child != RPT_PROF_NONE)
		p->v[p->v[parent].last_child].next_sibling = c;
	else
		p->v[parent].first_child = c;
	p->v[parent].last_child = c;
	return c;
}

void rpt_profile_merge_at(struct rpt_profile *dst, uint32_t d, const struct rpt_profile *src,
			  uint32_t s, double scale)
{
	dst->v[d].tasks += scale * src->v[s].tasks;
	dst->v[d].calls += scale * src->v[s].calls;
	for (int t = 0; t < RPT_NR_TIMES; t++)
		dst->v[d].self[t] += scale * src->v[s].self[t];
	for (uint32_t c = src->v[s].first_child; c != RPT_PROF_NONE; c = src->v[c].next_sibling) {
		uint32_t dc = rpt_profile_child(dst, d, src->v[c].name, true);

		rpt_profile_merge_at(dst, dc, src, c, scale);
	}
}

void rpt_profile_merge(struct rpt_profile *dst, const struct rpt_profile *src, double scale)
{
	rpt_profile_merge_at(dst, 0, src, 0, scale);
}

/* Children always have higher indices than their parent, so one backward
 * pass accumulates totals bottom-up. */
void rpt_profile_totals(struct rpt_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		memcpy(p->v[i].total, p->v[i].self, sizeof(p->v[i].total));
	for (size_t i = p->n; i-- > 1;)
		for (int t = 0; t < RPT_NR_TIMES; t++)
			p->v[p->v[i].parent].total[t] += p->v[i].total[t];
}

void rpt_profile_release(struct rpt_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].name);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int parse_prof_node(const char *path, json_t *j, struct rpt_profile *p, uint32_t idx,
			   int depth, char *err, size_t errlen)
{
	json_t *self, *children, *c;
	double v;
	bool present;
	size_t i;

	if (depth > PROFILE_MAX_DEPTH)
		return fail(err, errlen, "%s: call path deeper than %d", path, PROFILE_MAX_DEPTH);
	if (get_num(path, j, "calls", &v, &present, err, errlen))
		return -1;
	if (present)
		p->v[idx].calls += v;
	self = json_object_get(j, "self");
	if (self) {
		if (!json_is_object(self))
			return fail(err, errlen, "%s: node '%s': 'self' is not an object",
				    path, p->v[idx].name);
		for (int t = 0; t < RPT_NR_PROFILE_TIMES; t++) {
			if (get_num(path, self, rpt_time_names[t], &v, &present, err, errlen))
				return -1;
			if (present && v < 0)
				return fail(err, errlen, "%s: node '%s': negative '%s'",
					    path, p->v[idx].name, rpt_time_names[t]);
			if (present)
				p->v[idx].self[t] += v;
		}
	}
	children = json_object_get(j, "children");
	if (!children)
		return 0;
	if (!json_is_array(children))
		return fail(err, errlen, "%s: node '%s': 'children' is not an array",
			    path, p->v[idx].name);
	json_array_foreach(children, i, c) {
		json_t *name = json_object_get(c, "name");
		uint32_t ci;

		if (!json_is_object(c) || !json_is_string(name))
			return fail(err, errlen, "%s: node '%s': child %zu has no 'name'",
				    path, p->v[idx].name, i);
		/* A repeated name under one parent merges into one node. */
		ci = rpt_profile_child(p, idx, json_string_value(name), true);
		if (parse_prof_node(path, c, p, ci, depth + 1, err, errlen))
			return -1;
	}
	return 0;
}

int rpt_profile_parse(const char *path, const char *text, struct rpt_profile *out,
		      char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *kinds, *k;
	size_t i;
	int rc = -1;

	rpt_profile_init(out);
	root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		fail(err, errlen, "%s:%d: %s", path, je.line, je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		fail(err, errlen, "%s: top level is not an object", path);
		goto out;
	}
	if (check_schema(path, root, "slowpath-profile", err, errlen))
		goto out;
	if (!json_is_string(json_object_get(root, "unit")) ||
	    strcmp(json_string_value(json_object_get(root, "unit")), "ns") != 0) {
		fail(err, errlen, "%s: 'unit' must be \"ns\"", path);
		goto out;
	}
	if (get_num(path, root, "from_ns", &out->from_ns, &out->has_from, err, errlen))
		goto out;
	if (out->has_from && out->from_ns < 0) {
		fail(err, errlen, "%s: 'from_ns' is negative", path);
		goto out;
	}
	kinds = json_object_get(root, "kinds");
	if (!json_is_array(kinds)) {
		fail(err, errlen, "%s: 'kinds' is not an array", path);
		goto out;
	}
	json_array_foreach(kinds, i, k) {
		json_t *kind = json_object_get(k, "kind"), *kroot = json_object_get(k, "root");
		uint32_t ki;
		double tasks = 0;

		if (!json_is_object(k) || !json_is_string(kind) || !json_is_object(kroot)) {
			fail(err, errlen, "%s: kinds[%zu] needs 'kind' (string) and 'root' (object)",
			     path, i);
			goto out;
		}
		if (get_num(path, k, "tasks", &tasks, NULL, err, errlen))
			goto out;
		ki = rpt_profile_child(out, 0, json_string_value(kind), true);
		out->v[ki].tasks += tasks;
		if (parse_prof_node(path, kroot, out, ki, 1, err, errlen))
			goto out;
	}
	rpt_profile_totals(out);
	rc = 0;
out:
	json_decref(root);
	return rc;
}

/* ---- result folders -------------------------------------------------------- */

static int load_result_json(struct rpt_run *r, const char *path, char *err, size_t errlen)
{
	json_t *root = load_json(path, err, errlen), *lat;
	double v;
	bool present;
	int rc = -1;

	if (!root)
		return -1;
	if (check_schema(path, root, "slowpath-result", err, errlen))
		goto out;
	if (get_str(path, root, "source", &r->source, true, err, errlen))
		goto out;
	if (strcmp(r->source, "simulated") != 0 && strcmp(r->source, "recorded") != 0) {
		fail(err, errlen, "%s: source '%s' is neither \"simulated\" nor \"recorded\"",
		     path, r->source);
		goto out;
	}
	if (get_str(path, root, "policy", &r->policy, false, err, errlen) ||
	    get_str(path, root, "scenario", &r->scenario, false, err, errlen) ||
	    get_str(path, root, "kernel_release", &r->kernel_release, false, err, errlen))
		goto out;
	if (get_num(path, root, "seed", &v, &present, err, errlen))
		goto out;
	/* a double: exact up to 2^53 (scenario.ini has the exact seed) */
	r->seed = !present || !(v > 0) ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
	if (get_num(path, root, "iteration", &v, &present, err, errlen))
		goto out;
	r->iteration = present && v > 0 ? (unsigned int)v : 1;
	r->virtual_seconds = NAN;
	r->measure_seconds = NAN;
	if (get_num(path, root, "virtual_seconds", &r->virtual_seconds, NULL, err, errlen) ||
	    get_num(path, root, "measure_seconds", &r->measure_seconds, NULL, err, errlen) ||
	    get_num(path, root, "tps", &r->tps, &r->has_tps, err, errlen))
		goto out;
	lat = json_object_get(root, "latency_ms");
	if (lat && !json_is_null(lat)) {
		if (!json_is_object(lat)) {
			fail(err, errlen, "%s: 'latency_ms' is not an object", path);
			goto out;
		}
		r->has_latency = true;
		for (int i = 0; i < 5; i++) {
			r->latency[i] = NAN;
			if (get_num(path, lat, rpt_latency_names[i], &r->latency[i], NULL, err, errlen))
				goto out;
		}
	}
	if (get_counters(path, root, "vmstat", &r->vmstat, err, errlen) ||
	    get_counters(path, root, "per_million_written", &r->per_million, err, errlen) ||
	    get_figures(path, root, &r->figures, err, errlen))
		goto out;
	rc = 0;
out:
	json_decref(root);
	return rc;
}

static int parse_series_file(const char *path, char *text, void *out, char *err, size_t errlen)
{
	return rpt_series_parse(path, text, out, err, errlen);
}

static int parse_hist_file(const char *path, char *text, void *out, char *err, size_t errlen)
{
	return rpt_lat_hist_parse(path, text, out, err, errlen);
}

static int parse_profile_file(const char *path, char *text, void *out, char *err, size_t errlen)
{
	return rpt_profile_parse(path, text, out, err, errlen);
}

/* DIR/NAME, when it exists, through parse into out; *have tells whether it
 * did.  A file that exists but does not parse is an error. */
static int load_optional(const char *dir, const char *name,
			 int (*parse)(const char *, char *, void *, char *, size_t),
			 void *out, bool *have, char *err, size_t errlen)
{
	char *path = path_join(dir, name), *text;
	int rc = 0;

	*have = false;
	if (file_exists(path)) {
		text = rpt_read_file(path, NULL, err, errlen);
		rc = text ? parse(path, text, out, err, errlen) : -1;
		free(text);
		*have = rc == 0;
	}
	free(path);
	return rc;
}

static int load_iostat(struct rpt_run *r, const char *dir, char *err, size_t errlen);
static int load_trace(struct rpt_run *r, const char *dir, char *err, size_t errlen);
static int load_cpu(struct rpt_run *r, const char *dir, char *err, size_t errlen);

int rpt_run_load(struct rpt_run *r, const char *dir, unsigned int flags, char *err, size_t errlen)
{
	char *path;
	int rc;

	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(dir);
	path = path_join(dir, "result.json");
	if (!file_exists(path)) {
		fail(err, errlen, "%s: no result.json (not a result folder, or an incomplete run)", dir);
		free(path);
		return -1;
	}
	rc = load_result_json(r, path, err, errlen);
	free(path);
	if (rc)
		return -1;
	if ((flags & RPT_LOAD_SERIES) &&
	    (load_optional(dir, "tps.csv", parse_series_file, &r->series, &r->has_series, err, errlen) ||
	     load_optional(dir, "latency-hist.csv", parse_hist_file, &r->lat_hist, &r->has_lat_hist,
			   err, errlen)))
		return -1;
	if ((flags & RPT_LOAD_PROFILE) &&
	    load_optional(dir, "profile.json", parse_profile_file, &r->profile, &r->has_profile,
			  err, errlen))
		return -1;
	if ((flags & RPT_LOAD_IOSTAT) && load_iostat(r, dir, err, errlen))
		return -1;
	if ((flags & RPT_LOAD_TRACE) && load_trace(r, dir, err, errlen))
		return -1;
	if ((flags & RPT_LOAD_CPU) && load_cpu(r, dir, err, errlen))
		return -1;
	return 0;
}

void rpt_run_release(struct rpt_run *r)
{
	free(r->dir);
	free(r->source);
	free(r->policy);
	free(r->scenario);
	free(r->kernel_release);
	rpt_named_release(&r->vmstat);
	rpt_named_release(&r->per_million);
	rpt_named_release(&r->figures);
	rpt_named_release(&r->iostat);
	rpt_named_release(&r->tracepoints);
	rpt_named_release(&r->cpu);
	rpt_series_release(&r->series);
	rpt_lat_hist_release(&r->lat_hist);
	if (r->profile.v)
		rpt_profile_release(&r->profile);
	memset(r, 0, sizeof(*r));
}

static char *base_name(const char *path)
{
	size_t n = strlen(path);
	const char *b;
	char *s;

	while (n > 1 && path[n - 1] == '/')
		n--;
	b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	s = xzalloc((size_t)(path + n - b) + 1);
	memcpy(s, b, (size_t)(path + n - b));
	return s;
}

int rpt_set_load(struct rpt_set *s, const char *path, unsigned int flags, char *err, size_t errlen)
{
	char *rj = path_join(path, "result.json");
	json_t *root = NULL, *it;
	long long n = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->name = base_name(path);
	if (!file_exists(rj)) {
		char *i1 = path_join(path, "iter-1/result.json");
		bool partial = file_exists(i1);

		free(i1);
		fail(err, errlen, partial ?
		     "%s: no result.json beside iter-*/ (an incomplete run?)" :
		     "%s: no result.json (not a result folder, or an incomplete run)", path);
		goto out;
	}
	root = load_json(rj, err, errlen);
	if (!root || check_schema(rj, root, "slowpath-result", err, errlen))
		goto out;
	it = json_object_get(root, "iterations");
	if (it && !json_is_null(it)) {
		double d = json_is_number(it) ? json_number_value(it) : 0;

		if (!(d >= 1 && d <= 100000) || d != (double)(json_int_t)d) {
			fail(err, errlen, "%s: 'iterations' is not a positive integer", rj);
			goto out;
		}
		n = (json_int_t)d;
	}
	if (rpt_scn_file_read(path, &s->scenario, err, errlen))
		goto out;
	if (n == 0) {
		s->nr_runs = 1;
		s->runs = xzalloc(sizeof(*s->runs));
		rc = rpt_run_load(&s->runs[0], path, flags, err, errlen);
		goto out;
	}
	s->iterated = true;
	s->runs = xzalloc((size_t)n * sizeof(*s->runs));
	for (long long i = 1; i <= n; i++) {
		char sub[32], *d;

		snprintf(sub, sizeof(sub), "iter-%lld", i);
		d = path_join(path, sub);
		rc = rpt_run_load(&s->runs[s->nr_runs], d, flags, err, errlen);
		free(d);
		s->nr_runs++;
		if (rc)
			goto out;
	}
	rc = 0;
out:
	if (root)
		json_decref(root);
	free(rj);
	return rc;
}

/*
 * A set made of separate result folders, one sample each: a sweep column,
 * whose seeds are its iterations.  label is the set's path as shown (the
 * column's folder relative to the sweep folder, so the same sweep built in
 * two places reads the same), name its name.
 */
int rpt_set_load_runs(struct rpt_set *s, const char *label, const char *name, char *const *dirs,
		      unsigned int n, unsigned int flags, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(label);
	s->name = xstrdup(name);
	s->iterated = n > 1;
	s->runs = xzalloc((n ? n : 1) * sizeof(*s->runs));
	for (unsigned int i = 0; i < n; i++) {
		int rc = rpt_run_load(&s->runs[s->nr_runs], dirs[i], flags, err, errlen);

		s->nr_runs++;
		if (rc)
			return -1;
	}
	if (n == 0)
		return fail(err, errlen, "%s: no result folder", label);
	return rpt_scn_file_read(dirs[0], &s->scenario, err, errlen);
}

void rpt_set_release(struct rpt_set *s)
{
	for (unsigned int i = 0; i < s->nr_runs; i++)
		rpt_run_release(&s->runs[i]);
	free(s->runs);
	free(s->path);
	free(s->name);
	rpt_scn_file_release(&s->scenario);
	memset(s, 0, sizeof(*s));
}

bool rpt_set_profile(const struct rpt_set *s, struct rpt_profile *out)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_runs; i++)
		n += s->runs[i].has_profile;
	rpt_profile_init(out);
	if (n == 0)
		return false;
	for (unsigned int i = 0; i < s->nr_runs; i++)
		if (s->runs[i].has_profile)
			rpt_profile_merge(out, &s->runs[i].profile, 1.0 / n);
	rpt_profile_totals(out);
	return true;
}

double rpt_set_named_mean(const struct rpt_set *s, size_t list_off, const char *name,
			  unsigned int *used)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_runs; i++) {
		const struct rpt_named_list *l = (const void *)((const char *)&s->runs[i] + list_off);
		const struct rpt_named *nm = rpt_named_find(l, name);

		if (nm) {
			sum += nm->value;
			n++;
		}
	}
	if (used)
		*used = n;
	return n ? sum / n : NAN;
}

int rpt_sets_load(struct rpt_set *sets, int n, char **paths, unsigned int flags,
		  char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		if (rpt_set_load(&sets[i], paths[i], flags, err, errlen)) {
			rpt_sets_release(sets, i + 1);
			return -1;
		}
	}
	return 0;
}

void rpt_sets_release(struct rpt_set *sets, int n)
{
	for (int i = 0; i < n; i++)
		rpt_set_release(&sets[i]);
}

int rpt_sets_rename(struct rpt_set *sets, int n, const char *list, char *err, size_t errlen)
{
	char *copy = xstrdup(list), *p = copy, *tok;
	int i = 0;

	while ((tok = strsep(&p, ",")) != NULL) {
		if (i == n || !*tok) {
			free(copy);
			return fail(err, errlen, "--names '%s': %s", list,
				    i == n ? "more names than results" : "empty name");
		}
		free(sets[i].name);
		sets[i++].name = xstrdup(tok);
	}
	free(copy);
	if (i != n)
		return fail(err, errlen, "--names '%s': %d names for %d results", list, i, n);
	return 0;
}

/* ---- windows of a folder's time ------------------------------------------------ */

static bool parse_secs(const char *s, const char *end, double *v)
{
	char buf[32], *e;

	if (end - s <= 0 || (size_t)(end - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	if (strcmp(buf, "end") == 0) {
		*v = INFINITY;
		return true;
	}
	*v = strtod(buf, &e);
	return *e == '\0' && isfinite(*v) && *v >= 0 && strspn(buf, "0123456789.") == strlen(buf);
}

int rpt_parse_windows(const char *spec, struct rpt_window *w, unsigned int max,
			    unsigned int *n, char *err, size_t errlen)
{
	const char *p = spec;

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', (size_t)(end - p));

		if (*n == max) {
			snprintf(err, errlen, "at most %u window%s", max, max == 1 ? "" : "s");
			return -1;
		}
		if (!dash || !parse_secs(p, dash, &w[*n].from) || !parse_secs(dash + 1, end, &w[*n].to) ||
		    isinf(w[*n].from) || w[*n].to < w[*n].from) {
			snprintf(err, errlen, "'%.*s' is not a window FROM-TO in seconds (TO >= FROM, "
				 "or 'end')", (int)(end - p), p);
			return -1;
		}
		(*n)++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* ---- monitor files (proc-vmstat, proc-buddyinfo, ...) ---------------------- */

/* Error offsets inside a sample become line numbers of the whole file. */
void rpt_rebase_error(char *err, size_t errlen, const char *path, unsigned int first_line)
{
	size_t pl = strlen(path);
	char *end, rest[512];
	unsigned long rel;

	if (strncmp(err, path, pl) != 0 || err[pl] != ':')
		return;
	rel = strtoul(err + pl + 1, &end, 10);
	if (end == err + pl + 1 || *end != ':')
		return;
	snprintf(rest, sizeof(rest), "%s", end);
	snprintf(err, errlen, "%s:%lu%s", path, rel + first_line - 1, rest);
}

/* 1 loaded, 0 no such file, -1 error. */
int rpt_read_monitor(const char *dir, const char *file, char **path, struct proc_monitor *m,
			char *err, size_t errlen)
{
	size_t n = strlen(dir) + strlen(file) + 2;
	struct stat st;
	char *text;
	int rc;

	*path = xzalloc(n);
	snprintf(*path, n, "%s/%s", dir, file);
	memset(m, 0, sizeof(*m));
	if (stat(*path, &st) != 0)
		return 0;
	text = rpt_read_file(*path, NULL, err, errlen);
	if (!text)
		return -1;
	rc = proc_parse_monitor(*path, text, m, err, errlen);
	free(text);
	return rc ? -1 : 1;
}

/* ---- tracepoint hits from trace-counts ------------------------------------------- */

static bool span_samples(const struct rpt_run *r, const struct proc_monitor *m, size_t *k0,
			 size_t *k1);
static int no_span(const struct rpt_run *r, const char *path, char *err, size_t errlen);

/* Adapters to one parser signature for read_parsed_monitor(). */
static int parse_trace_item(const char *path, const char *text, void *out, char *err, size_t errlen)
{
	return trace_parse_counts(path, text, out, err, errlen);
}

static int parse_diskstats_item(const char *path, const char *text, void *out, char *err, size_t errlen)
{
	return proc_parse_diskstats(path, text, out, err, errlen);
}

/*
 * DIR/FILE as a monitor whose samples `parse` reads into an array of
 * `size`-byte items (*items, [m->n], zeroed first), times increasing.
 * 1 loaded, 0 no such file, -1 error ("path:line: ..."); *path, *m and
 * *items are the caller's to free whatever the return value.
 */
static int read_parsed_monitor(const char *dir, const char *file, char **path, struct proc_monitor *m,
			       void **items, size_t size,
			       int (*parse)(const char *, const char *, void *, char *, size_t),
			       char *err, size_t errlen)
{
	int rc = rpt_read_monitor(dir, file, path, m, err, errlen);

	*items = NULL;
	if (rc <= 0)
		return rc;
	*items = xzalloc((m->n ? m->n : 1) * size);
	for (size_t k = 0; k < m->n; k++) {
		const struct proc_monitor_sample *s = &m->s[k];

		if (parse(*path, s->text, (char *)*items + k * size, err, errlen)) {
			rpt_rebase_error(err, errlen, *path, s->first_line);
			return -1;
		}
		if (k > 0 && !(s->time > m->s[k - 1].time)) {
			fail(err, errlen, "%s:%u: time %g does not increase", *path, s->first_line - 1,
			     s->time);
			return -1;
		}
	}
	return 1;
}

int rpt_read_trace_counts(const char *dir, struct rpt_trace_counts *out, char *err, size_t errlen)
{
	void *items;
	int rc;

	out->m = xzalloc(sizeof(*out->m));
	rc = read_parsed_monitor(dir, "trace-counts", &out->path, out->m, &items, sizeof(*out->tc),
				 parse_trace_item, err, errlen);
	out->tc = items;
	return rc;
}

void rpt_trace_counts_release(struct rpt_trace_counts *t)
{
	free(t->tc);
	free(t->path);
	if (t->m)
		proc_monitor_release(t->m);
	free(t->m);
	memset(t, 0, sizeof(*t));
}

/*
 * The rate of a tracepoint is its count's growth from the span's first
 * sample to its last (span_samples), over their distance.  A tracepoint
 * missing from either sample gives no row.
 */
static int load_trace(struct rpt_run *r, const char *dir, char *err, size_t errlen)
{
	struct rpt_trace_counts tt;
	size_t k0, k1;
	int rc = rpt_read_trace_counts(dir, &tt, err, errlen);

	if (rc > 0 && span_samples(r, tt.m, &k0, &k1)) {
		const struct trace_counts *a = &tt.tc[k0], *b = &tt.tc[k1];
		double dt = tt.m->s[k1].time - tt.m->s[k0].time;

		for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++)
			if (a->present[i] && b->present[i] && b->count[i] >= a->count[i])
				rpt_named_set(&r->tracepoints, rpt_trace_events[i],
					      (double)(b->count[i] - a->count[i]) / dt, NULL);
	} else if (rc > 0 && r->windowed) {
		rc = no_span(r, tt.path, err, errlen);
	}
	rpt_trace_counts_release(&tt);
	return rc < 0 ? -1 : 0;
}

/* ---- CPU time from proc-stat -------------------------------------------------------- */

#define RPT_USER_HZ	100.0	/* /proc/stat's tick: USER_HZ, 100 on every architecture */

static int parse_stat_item(const char *path, const char *text, void *out, char *err, size_t errlen)
{
	return proc_parse_stat(path, text, out, err, errlen);
}

const char *const rpt_cpu_rows[] = {
	"user%", "nice%", "system%", "irq%", "softirq%", "steal%", "iowait%", "idle%", "cpus_busy",
	"ctxt/s", "busy_us_per_tx", "user_us_per_tx", "kernel_us_per_tx", NULL,
};

int rpt_read_stat(const char *dir, struct rpt_stat *out, char *err, size_t errlen)
{
	void *items;
	int rc;

	out->m = xzalloc(sizeof(*out->m));
	rc = read_parsed_monitor(dir, "proc-stat", &out->path, out->m, &items, sizeof(*out->st),
				 parse_stat_item, err, errlen);
	out->st = items;
	return rc;
}

void rpt_stat_release(struct rpt_stat *s)
{
	for (size_t k = 0; s->st && k < s->m->n; k++)
		proc_stat_release(&s->st[k]);
	free(s->st);
	free(s->path);
	if (s->m)
		proc_monitor_release(s->m);
	free(s->m);
	memset(s, 0, sizeof(*s));
}

/*
 * The rows of RPT_LOAD_CPU from the "cpu" line's growth between the
 * span's first and last samples (span_samples), as mpstat's all-CPU line
 * gives them; guest time is inside user time already (account_guest_time)
 * so it is not added again.  A column that falls gives no rows.
 */
static int load_cpu(struct rpt_run *r, const char *dir, char *err, size_t errlen)
{
	static const int col[8] = { STAT_USER, STAT_NICE, STAT_SYSTEM, STAT_IRQ, STAT_SOFTIRQ,
				    STAT_STEAL, STAT_IOWAIT, STAT_IDLE };
	struct rpt_stat ss;
	size_t k0, k1;
	int rc = rpt_read_stat(dir, &ss, err, errlen);

	if (rc > 0 && span_samples(r, ss.m, &k0, &k1)) {
		const struct proc_stat *a = &ss.st[k0], *b = &ss.st[k1];
		double d[8], total = 0, dt = ss.m->s[k1].time - ss.m->s[k0].time, busy, ncpu;
		bool falls = b->ctxt < a->ctxt;

		for (int i = 0; i < 8; i++) {
			falls |= b->cpu[col[i]] < a->cpu[col[i]];
			d[i] = (double)(b->cpu[col[i]] - a->cpu[col[i]]);
			total += d[i];
		}
		if (!falls && total > 0) {
			/* CPUs: the cpuN lines, or the ticks' rate where a file has none */
			ncpu = b->nr_cpus ? b->nr_cpus : total / RPT_USER_HZ / dt;
			busy = total - d[6] - d[7];
			for (int i = 0; i < 8; i++)
				rpt_named_set(&r->cpu, rpt_cpu_rows[i], 100.0 * d[i] / total, NULL);
			rpt_named_set(&r->cpu, "cpus_busy", ncpu * busy / total, NULL);
			rpt_named_set(&r->cpu, "ctxt/s", (double)(b->ctxt - a->ctxt) / dt, NULL);
			if (r->has_tps && r->tps > 0) {
				/* CPU-seconds a second over transactions a second */
				double per = 1e6 / RPT_USER_HZ / dt / r->tps;

				rpt_named_set(&r->cpu, "busy_us_per_tx", busy * per, NULL);
				rpt_named_set(&r->cpu, "user_us_per_tx", (d[0] + d[1]) * per, NULL);
				rpt_named_set(&r->cpu, "kernel_us_per_tx", (d[2] + d[3] + d[4]) * per, NULL);
			}
		}
	} else if (rc > 0 && r->windowed) {
		rc = no_span(r, ss.path, err, errlen);
	}
	rpt_stat_release(&ss);
	return rc < 0 ? -1 : 0;
}

/* ---- iostat -x from proc-diskstats ---------------------------------------------- */

/*
 * sysstat's iostat -x, from two samples of /proc/diskstats, the span's
 * (span_samples: the measured phase's or a window's).  Every sample is
 * checked.  A disk is listed when it is in both samples and did I/O
 * between them.
 */
int rpt_read_diskstats(const char *dir, struct rpt_diskstats *out, char *err, size_t errlen)
{
	void *items;
	int rc;

	out->m = xzalloc(sizeof(*out->m));
	rc = read_parsed_monitor(dir, "proc-diskstats", &out->path, out->m, &items, sizeof(*out->ds),
				 parse_diskstats_item, err, errlen);
	out->ds = items;
	return rc;
}

void rpt_diskstats_release(struct rpt_diskstats *d)
{
	for (size_t k = 0; d->ds && k < d->m->n; k++)
		proc_diskstats_release(&d->ds[k]);
	free(d->ds);
	free(d->path);
	if (d->m)
		proc_monitor_release(d->m);
	free(d->m);
	memset(d, 0, sizeof(*d));
}

/* The monitor sample the measured phase starts at: the first at or after
 * virtual_seconds - measure_seconds past the first sample (the first
 * sample itself for a recording); SIZE_MAX if none. */
static size_t measured_first_sample(const struct rpt_run *r, const struct proc_monitor *m)
{
	double start;

	if (m->n == 0)
		return SIZE_MAX;
	start = m->s[0].time;
	if (isfinite(r->virtual_seconds) && isfinite(r->measure_seconds) &&
	    r->virtual_seconds > r->measure_seconds)
		start += r->virtual_seconds - r->measure_seconds;
	for (size_t k = 0; k < m->n; k++)
		if (m->s[k].time >= start - 1e-9)
			return k;
	return SIZE_MAX;
}

/*
 * The two samples of m a run's rows come from: the measured phase's first
 * and the last sample, or, for a windowed run, the first and last whose
 * time since the monitor's first sample lies in the window.  False when
 * there are not two.
 */
static bool span_samples(const struct rpt_run *r, const struct proc_monitor *m, size_t *k0,
			 size_t *k1)
{
	size_t a = SIZE_MAX, b = SIZE_MAX;

	if (m->n == 0)
		return false;
	if (!r->windowed) {
		a = measured_first_sample(r, m);
		b = m->n - 1;
	} else {
		double from = m->s[0].time + r->window.from, to = m->s[0].time + r->window.to;

		for (size_t k = 0; k < m->n; k++)
			if (m->s[k].time >= from - 1e-9 && m->s[k].time <= to + 1e-9) {
				if (a == SIZE_MAX)
					a = k;
				b = k;
			}
	}
	if (a == SIZE_MAX || a >= b)
		return false;
	*k0 = a;
	*k1 = b;
	return true;
}

static void window_text(const struct rpt_window *w, char *buf, size_t len)
{
	if (isinf(w->to))
		snprintf(buf, len, "%g-end", w->from);
	else
		snprintf(buf, len, "%g-%g", w->from, w->to);
}

/* A monitor file without two samples in the run's window. */
static int no_span(const struct rpt_run *r, const char *path, char *err, size_t errlen)
{
	char w[64];

	window_text(&r->window, w, sizeof(w));
	return fail(err, errlen, "%s: fewer than two samples in the window %s s (seconds after the "
		    "first sample)", path, w);
}

static int load_iostat(struct rpt_run *r, const char *dir, char *err, size_t errlen)
{
	static const char *const cols[] = {
		"r/s", "w/s", "rkB/s", "wkB/s", "r_await", "w_await", "wareq-sz", "f/s", "f_await",
		"aqu-sz", "%util",
	};
	struct rpt_diskstats dd;
	const struct proc_diskstats *ds;
	struct proc_monitor m;
	size_t k0, k1;
	int rc = rpt_read_diskstats(dir, &dd, err, errlen);

	if (rc <= 0) {
		rpt_diskstats_release(&dd);
		return rc;
	}
	m = *dd.m;
	ds = dd.ds;
	if (!span_samples(r, &m, &k0, &k1)) {
		rc = r->windowed ? no_span(r, dd.path, err, errlen) : 0;
	} else {
		const struct proc_diskstats *a = &ds[k0], *b = &ds[k1];
		double dt = m.s[k1].time - m.s[k0].time;

		for (size_t i = 0; i < b->n; i++) {
			const struct proc_diskstats_disk *y = &b->d[i];
			const struct proc_diskstats_disk *x = proc_diskstats_find(a, y->name);
			double d[DS_NR_FIELDS], v[11];
			bool any = false, down = false;

			if (!x)
				continue;
			for (int f = 0; f < DS_NR_FIELDS; f++) {
				/* counters that went down (a disk re-created) give no rows */
				d[f] = f == DS_IN_FLIGHT ? 0 : proc_diskstats_delta(x, y, f);
				down |= d[f] < 0;
				any |= d[f] > 0 && (f == DS_RD_IOS || f == DS_WR_IOS || f == DS_DC_IOS ||
						    f == DS_FL_IOS);
			}
			if (down || !any)
				continue;
			v[0] = d[DS_RD_IOS] / dt;
			v[1] = d[DS_WR_IOS] / dt;
			v[2] = d[DS_RD_SECTORS] / 2 / dt;
			v[3] = d[DS_WR_SECTORS] / 2 / dt;
			v[4] = d[DS_RD_IOS] > 0 ? d[DS_RD_MS] / d[DS_RD_IOS] : 0;
			v[5] = d[DS_WR_IOS] > 0 ? d[DS_WR_MS] / d[DS_WR_IOS] : 0;
			v[6] = d[DS_WR_IOS] > 0 ? d[DS_WR_SECTORS] / 2 / d[DS_WR_IOS] : 0;
			v[7] = d[DS_FL_IOS] / dt;
			v[8] = d[DS_FL_IOS] > 0 ? d[DS_FL_MS] / d[DS_FL_IOS] : 0;
			v[9] = d[DS_QUEUE_MS] / 1000 / dt;
			v[10] = d[DS_IO_MS] / 10 / dt;
			for (int c = 0; c < 11; c++) {
				char name[96];

				snprintf(name, sizeof(name), "%s %s", y->name, cols[c]);
				rpt_named_set(&r->iostat, name, v[c], NULL);
			}
		}
	}
	rpt_diskstats_release(&dd);
	return rc < 0 ? -1 : 0;
}

/* ---- a window's rows ------------------------------------------------------------ */

/*
 * tps, latency avg and max over tps.csv's intervals that lie wholly in the
 * window (an interval runs from the previous end, the first from 0): tps
 * weighted by the intervals' lengths, the mean latency by their
 * transactions.  No tps.csv: no tps and no latency rows.
 */
static int window_series(struct rpt_run *r, char *err, size_t errlen)
{
	struct rpt_series se = { 0 };
	double len = 0, tx = 0, lat = 0, max = -INFINITY;
	bool have, lat_ok = true;
	int rc = load_optional(r->dir, "tps.csv", parse_series_file, &se, &have, err, errlen);

	r->has_tps = false;
	r->has_latency = false;
	if (rc || !have)
		goto out;
	for (size_t i = 0; i < se.n; i++) {
		double start = i ? se.t[i - 1] : 0, d = se.t[i] - start, x = se.tps[i] * d;

		if (start < r->window.from - 1e-9 || se.t[i] > r->window.to + 1e-9 || !(d > 0))
			continue;
		len += d;
		tx += x;
		lat += x * se.lat_avg[i];
		lat_ok &= isfinite(se.lat_avg[i]) && isfinite(se.lat_max[i]);
		max = fmax(max, se.lat_max[i]);
	}
	if (!(len > 0)) {
		char w[64], *path = path_join(r->dir, "tps.csv");

		window_text(&r->window, w, sizeof(w));
		rc = fail(err, errlen, "%s: no whole interval in the window %s s", path, w);
		free(path);
		goto out;
	}
	r->has_tps = true;
	r->tps = tx / len;
	if (lat_ok && tx > 0) {
		r->has_latency = true;
		for (int i = 0; i < 5; i++)
			r->latency[i] = NAN;
		r->latency[0] = lat / tx;
		r->latency[4] = max;
	}
out:
	rpt_series_release(&se);
	return rc;
}

static int parse_vmstat_item(const char *path, const char *text, void *out, char *err, size_t errlen)
{
	return proc_parse_vmstat(path, text, out, err, errlen);
}

/*
 * vmstat and the per-million rows as the counters' growth between the
 * window's first and last proc-vmstat samples (every counter in both, in
 * the last sample's order), as result.json's are over the measured phase;
 * measure_seconds becomes their distance.  No proc-vmstat: neither.
 */
static int window_vmstat(struct rpt_run *r, char *err, size_t errlen)
{
	struct proc_monitor m;
	struct rpt_counters *c, d = { 0 };
	char *path;
	size_t k0, k1;
	void *items;
	int rc = read_parsed_monitor(r->dir, "proc-vmstat", &path, &m, &items, sizeof(*c),
				     parse_vmstat_item, err, errlen);

	c = items;
	rpt_named_release(&r->vmstat);
	rpt_named_release(&r->per_million);
	r->measure_seconds = NAN;
	if (rc > 0 && !span_samples(r, &m, &k0, &k1)) {
		rc = no_span(r, path, err, errlen);
	} else if (rc > 0) {
		for (size_t i = 0; i < c[k1].n; i++) {
			bool found;
			int64_t a = rpt_counters_get(&c[k0], c[k1].v[i].name, &found);

			if (found)
				rpt_counters_add(&d, c[k1].v[i].name, c[k1].v[i].value - a);
		}
		for (size_t i = 0; i < d.n; i++)
			rpt_named_set(&r->vmstat, d.v[i].name, (double)d.v[i].value, NULL);
		for (int k = 0; rpt_per_million_keys[k]; k++) {
			double v;

			if (rpt_per_million(&d, rpt_per_million_keys[k], &v))
				rpt_named_set(&r->per_million, rpt_per_million_keys[k], v, NULL);
		}
		r->measure_seconds = m.s[k1].time - m.s[k0].time;
	}
	rpt_counters_release(&d);
	for (size_t k = 0; c && k < m.n; k++)
		rpt_counters_release(&c[k]);
	free(c);
	free(path);
	proc_monitor_release(&m);
	return rc < 0 ? -1 : 0;
}

int rpt_sets_window(struct rpt_set *sets, int n, const struct rpt_window *w, unsigned int flags,
		    char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		for (unsigned int k = 0; k < sets[i].nr_runs; k++) {
			struct rpt_run *r = &sets[i].runs[k];

			r->windowed = true;
			r->window = *w;
			rpt_named_release(&r->figures);
			rpt_named_release(&r->iostat);
			rpt_named_release(&r->tracepoints);
			rpt_named_release(&r->cpu);
			if (window_series(r, err, errlen) || window_vmstat(r, err, errlen) ||
			    ((flags & RPT_LOAD_IOSTAT) && load_iostat(r, r->dir, err, errlen)) ||
			    ((flags & RPT_LOAD_TRACE) && load_trace(r, r->dir, err, errlen)) ||
			    ((flags & RPT_LOAD_CPU) && load_cpu(r, r->dir, err, errlen)))
				return -1;
		}
	return 0;
}
