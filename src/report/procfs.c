/* SPDX-License-Identifier: MIT */
/*
 * procfs.c — parsers for the kernel's /proc memory files and for mmtests
 * monitor files (contract: procfs.h).
 *
 * The formats are the ones mm/vmstat.c and fs/proc/meminfo.c print
 * (Linux 6.12 source read; 6.18 captures in ../shared/fixtures):
 *
 *   vmstat        "name value\n" per counter
 *   meminfo       "Name:   value kB\n" (HugePages_* without a unit)
 *   buddyinfo     "Node %d, zone %8s " then one "%6lu " per order
 *   pagetypeinfo  per node with memory:
 *                   Page block order: 9
 *                   Pages per block:  512
 *                   <blank>
 *                   Free pages count per migrate type at order   0 1 ... 10
 *                   Node    0, zone   Normal, type    Unmovable  n0 ... n10
 *                   ...                                  (">" marks a capped count)
 *                   <blank>
 *                   Number of blocks type     Unmovable Movable ...
 *                   Node 0, zone   Normal    b0 b1 ...
 *                 and, with CONFIG_PAGE_OWNER, a "Number of mixed blocks" table
 *   zoneinfo      per zone "Node %d, zone %8s", the first populated zone
 *                 of a node carrying "  per-node stats" lines, then
 *                 "  pages free N", watermark lines, "protection: (...)",
 *                 zone stats, "  pagesets" (per CPU: "cpu:", "count:" and
 *                 "high:" summed per zone), node_unreclaimable,
 *                 start_pfn.  Unpopulated zones stop after "protection".
 *   stat          (fs/proc/stat.c) "cpu  u n s i ..." then "cpuN ..." per
 *                 online CPU, 4 to 10 USER_HZ tick columns, then "intr
 *                 TOTAL n...", "ctxt N", "btime", "processes",
 *                 "procs_running", "procs_blocked", "softirq TOTAL n..."
 *
 * Every parser works on a NUL-terminated text, line by line, keeps the
 * line number, and fails with "<path>:<line>: message" (lower case, the
 * offending text in quotes, escaped and shortened).  Every /proc file ends
 * with a newline, so a last line without one is reported as truncated;
 * structural checks at the end catch files cut at a line boundary (a zone
 * without its "managed" line, a pagetypeinfo without its block table).
 * Unknown keys in known places (a new zoneinfo watermark, a new pageset
 * field) are accepted, so a newer kernel does not stop a recording; text
 * that fits no known line shape is an error.
 *
 * Outputs: vmstat/meminfo append to the caller's counters (zeroed or
 * released before the call; on error they may hold a prefix).  The
 * buddyinfo, pagetypeinfo and zoneinfo structs are overwritten; release a
 * zoneinfo with proc_zoneinfo_release() whatever the return value.
 * Several nodes: the zoneinfo "per-node stats" of all nodes are summed by
 * name (result.json has no per-node view).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/procfs.h"

/* ---- lines, tokens, errors -------------------------------------------- */

struct proc_lines {
	const char	*path;
	const char	*p;		/* next unread byte */
	unsigned int	lineno;		/* of the line last returned */
	const char	*line;		/* last line returned, without '\n' */
	size_t		len;
	char		*err;
	size_t		errlen;
};

static void lines_init(struct proc_lines *l, const char *path, const char *text,
		       char *err, size_t errlen)
{
	l->path = path ? path : "(input)";
	l->p = text ? text : "";
	l->lineno = 0;
	l->line = NULL;
	l->len = 0;
	l->err = err;
	l->errlen = errlen;
}

/* Quote at most 40 bytes of s[0..n) into buf, escaping what is not printable. */
static const char *quote(const char *s, size_t n, char *buf, size_t buflen)
{
	size_t o = 0, i;

	if (buflen < 8)
		return "";
	buf[o++] = '\'';
	for (i = 0; i < n && o + 6 < buflen; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == 40) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
			buf[o++] = (char)c;
		} else {
			o += (size_t)snprintf(buf + o, buflen - o, "\\x%02x", c);
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

__attribute__((format(printf, 3, 4)))
static int lines_error_at(struct proc_lines *l, unsigned int lineno, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!l->err || l->errlen == 0)
		return -1;
	n = snprintf(l->err, l->errlen, "%s:%u: ", l->path, lineno);
	if (n < 0 || (size_t)n >= l->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(l->err + n, l->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

#define lines_error(l, ...) lines_error_at((l), (l)->lineno, __VA_ARGS__)

/* Next line: 1 and l->line/len set, 0 at the end, -1 on a line that is not
 * terminated by '\n' (the file was cut). */
static int lines_next(struct proc_lines *l)
{
	const char *nl;

	if (*l->p == '\0')
		return 0;
	l->lineno++;
	l->line = l->p;
	nl = strchr(l->p, '\n');
	if (!nl) {
		char q[64];

		l->len = strlen(l->p);
		l->p += l->len;
		return lines_error(l, "line %s has no newline (truncated file)",
				   quote(l->line, l->len, q, sizeof(q)));
	}
	l->len = (size_t)(nl - l->p);
	l->p = nl + 1;
	return 1;
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* A cursor over one line. */
struct proc_cur {
	const char	*s, *end;
};

static void cur_init(struct proc_cur *c, const struct proc_lines *l)
{
	c->s = l->line;
	c->end = l->line + l->len;
}

static void cur_skip_ws(struct proc_cur *c)
{
	while (c->s < c->end && (*c->s == ' ' || *c->s == '\t'))
		c->s++;
}

static unsigned int cur_indent(const struct proc_lines *l)
{
	unsigned int n = 0;

	while (n < l->len && l->line[n] == ' ')
		n++;
	return n;
}

static bool cur_at_end(struct proc_cur *c)
{
	cur_skip_ws(c);
	return c->s == c->end;
}

/* Next whitespace-delimited token (may be empty at the end of the line). */
static size_t cur_token(struct proc_cur *c, const char **tok)
{
	cur_skip_ws(c);
	*tok = c->s;
	while (c->s < c->end && *c->s != ' ' && *c->s != '\t')
		c->s++;
	return (size_t)(c->s - *tok);
}

/* Consume the literal word `w` (after whitespace); false if it is not next. */
static bool cur_word(struct proc_cur *c, const char *w)
{
	size_t n = strlen(w);

	cur_skip_ws(c);
	if ((size_t)(c->end - c->s) < n || memcmp(c->s, w, n) != 0)
		return false;
	c->s += n;
	return true;
}

static bool tok_eq(const char *t, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(t, w, n) == 0;
}

/* Decimal digits [0-9]+ (optionally with a leading '-' when `sign`) that
 * fill the token exactly.  0 or -ERANGE / -EINVAL. */
static int parse_i64(const char *t, size_t n, bool sign, int64_t *out)
{
	bool neg = false;
	uint64_t v = 0;
	size_t i = 0;

	if (sign && n > 0 && t[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		unsigned int d;

		if (t[i] < '0' || t[i] > '9')
			return -EINVAL;
		d = (unsigned int)(t[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int parse_u64(const char *t, size_t n, uint64_t *out)
{
	int64_t v;
	int rc = parse_i64(t, n, false, &v);

	if (rc == 0)
		*out = (uint64_t)v;
	return rc;
}

/* A number token or a precise error naming `what`. */
static int want_u64(struct proc_lines *l, struct proc_cur *c, const char *what, uint64_t *out)
{
	const char *t;
	size_t n = cur_token(c, &t);
	char q[64];
	int rc;

	if (n == 0)
		return lines_error(l, "missing %s", what);
	rc = parse_u64(t, n, out);
	if (rc == -ERANGE)
		return lines_error(l, "%s %s out of range", what, quote(t, n, q, sizeof(q)));
	if (rc)
		return lines_error(l, "invalid %s %s", what, quote(t, n, q, sizeof(q)));
	return 0;
}

static int want_end(struct proc_lines *l, struct proc_cur *c)
{
	char q[64];

	if (cur_at_end(c))
		return 0;
	return lines_error(l, "unexpected text %s", quote(c->s, (size_t)(c->end - c->s), q, sizeof(q)));
}

/* ---- a name index for duplicate detection and summing ----------------- */

/* Open addressing over indices into an rpt_counters; only ever looked up,
 * never iterated, so its order cannot reach any output. */
struct proc_index {
	uint32_t	*slot;		/* index + 1; 0 = empty */
	size_t		cap;		/* power of two */
	size_t		n;
};

static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static void index_release(struct proc_index *ix)
{
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}

/* Position of `name` in c, or -1; *slot receives where to insert it. */
static long index_find(const struct proc_index *ix, const struct rpt_counters *c,
		       const char *name, size_t n, size_t *slot)
{
	size_t mask = ix->cap - 1, i = (size_t)name_hash(name, n) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t v = ix->slot[i];

		if (v == 0) {
			*slot = i;
			return -1;
		}
		if (strlen(c->v[v - 1].name) == n && memcmp(c->v[v - 1].name, name, n) == 0)
			return (long)(v - 1);
	}
}

static int index_grow(struct proc_index *ix, const struct rpt_counters *c)
{
	size_t cap = ix->cap ? ix->cap * 2 : 256;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	free(ix->slot);
	ix->slot = slot;
	ix->cap = cap;
	for (size_t k = 0; k < c->n; k++) {
		size_t s;

		if (index_find(ix, c, c->v[k].name, strlen(c->v[k].name), &s) < 0)
			ix->slot[s] = (uint32_t)(k + 1);
	}
	return 0;
}

/* Adds name=value to c; returns 1 if added, 0 if the name existed (then
 * *pos is its position), -ENOMEM. */
static int index_add(struct proc_index *ix, struct rpt_counters *c, const char *name, size_t n,
		     int64_t value, size_t *pos)
{
	char buf[128];
	size_t s;
	long at;

	if ((ix->n + 1) * 2 > ix->cap && index_grow(ix, c))
		return -ENOMEM;
	at = index_find(ix, c, name, n, &s);
	if (at >= 0) {
		*pos = (size_t)at;
		return 0;
	}
	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, name, n);
	buf[n] = '\0';
	rpt_counters_add(c, buf, value);
	ix->slot[s] = (uint32_t)c->n;
	ix->n++;
	*pos = c->n - 1;
	return 1;
}

/* Counter names: printable, no spaces, at most 127 bytes. */
static int check_name(struct proc_lines *l, const char *t, size_t n, const char *what)
{
	char q[64];

	if (n == 0)
		return lines_error(l, "missing %s", what);
	if (n > 127)
		return lines_error(l, "%s %s too long", what, quote(t, n, q, sizeof(q)));
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)t[i] <= 0x20 || (unsigned char)t[i] >= 0x7f)
			return lines_error(l, "invalid character in %s %s", what, quote(t, n, q, sizeof(q)));
	return 0;
}

/* Adds one counter line's name and value, rejecting duplicates. */
static int add_unique(struct proc_lines *l, struct proc_index *ix, struct rpt_counters *out,
		      const char *name, size_t n, int64_t v)
{
	char q[64];
	size_t pos;
	int rc = index_add(ix, out, name, n, v, &pos);

	if (rc < 0)
		return lines_error(l, "out of memory");
	if (rc == 0)
		return lines_error(l, "duplicate counter %s", quote(name, n, q, sizeof(q)));
	return 0;
}

/* Parses a counter's value and adds the counter (add_unique). */
static int add_value(struct proc_lines *l, struct proc_index *ix, struct rpt_counters *out,
		     const char *name, size_t nn, const char *val, size_t vn)
{
	char q[64];
	int64_t v;
	int rc = parse_i64(val, vn, true, &v);

	if (rc)
		return lines_error(l, "%s value %s for %s", rc == -ERANGE ? "out-of-range" : "invalid",
				   quote(val, vn, q, sizeof(q)), quote(name, nn, q + 32, 32));
	return add_unique(l, ix, out, name, nn, v);
}

/*
 * A file of one counter per line (vmstat, meminfo): `parse_line` reads a
 * non-blank line into `out`; blank lines are skipped; no counter at all
 * is an error naming `what`.
 */
static int parse_counter_lines(const char *path, const char *text, struct rpt_counters *out,
			       char *err, size_t errlen, const char *what,
			       int (*parse_line)(struct proc_lines *l, struct proc_index *ix,
						 struct rpt_counters *out))
{
	struct proc_index ix = { 0 };
	struct proc_lines l;
	unsigned int nr = 0;
	int rc;

	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		if (is_blank(l.line, l.len))
			continue;
		if ((rc = parse_line(&l, &ix, out)))
			break;
		nr++;
	}
	index_release(&ix);
	if (rc < 0)
		return -1;
	if (nr == 0)
		return lines_error_at(&l, 1, "no %s (empty file)", what);
	return 0;
}

/* ---- vmstat ------------------------------------------------------------ */

/* "name value" */
static int vmstat_line(struct proc_lines *l, struct proc_index *ix, struct rpt_counters *out)
{
	struct proc_cur c;
	const char *name, *val;
	size_t nn, vn;
	char q[64];
	int rc;

	cur_init(&c, l);
	nn = cur_token(&c, &name);
	vn = cur_token(&c, &val);
	if (vn == 0)
		return lines_error(l, "expected 'name value', got %s", quote(l->line, l->len, q, sizeof(q)));
	if ((rc = check_name(l, name, nn, "counter name")) || (rc = want_end(l, &c)))
		return rc;
	return add_value(l, ix, out, name, nn, val, vn);
}

int proc_parse_vmstat(const char *path, const char *text, struct rpt_counters *out,
		      char *err, size_t errlen)
{
	return parse_counter_lines(path, text, out, err, errlen, "counters", vmstat_line);
}

/* ---- diskstats --------------------------------------------------------- */

/* Element n of the array *v (capacity *cap, elements of `size` bytes),
 * grown when full and zeroed; NULL with an error on l when memory runs
 * out. */
static void *grow_one(struct proc_lines *l, void **v, size_t n, size_t *cap, size_t size)
{
	char *e;

	if (n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		void *nv = realloc(*v, nc * size);

		if (!nv) {
			lines_error(l, "out of memory");
			return NULL;
		}
		*v = nv;
		*cap = nc;
	}
	e = (char *)*v + n * size;
	memset(e, 0, size);
	return e;
}

/* "%4d %7d %s" then 11, 15 or 17 counters. */
static int diskstats_line(struct proc_lines *l, struct proc_diskstats *out, size_t *cap)
{
	struct proc_diskstats_disk *d;
	struct proc_cur c;
	const char *name;
	uint64_t major, minor;
	size_t nn;
	char q[64];
	int rc;

	cur_init(&c, l);
	if ((rc = want_u64(l, &c, "major number", &major)) ||
	    (rc = want_u64(l, &c, "minor number", &minor)))
		return rc;
	if (major > UINT32_MAX || minor > UINT32_MAX)
		return lines_error(l, "device number %llu:%llu out of range",
				   (unsigned long long)major, (unsigned long long)minor);
	nn = cur_token(&c, &name);
	if ((rc = check_name(l, name, nn, "disk name")))
		return rc;
	if (nn >= sizeof(out->d[0].name))
		return lines_error(l, "disk name %s too long", quote(name, nn, q, sizeof(q)));
	for (size_t i = 0; i < out->n; i++)
		if (tok_eq(name, nn, out->d[i].name))
			return lines_error(l, "disk %s listed twice", quote(name, nn, q, sizeof(q)));
	if (!(d = grow_one(l, (void **)&out->d, out->n, cap, sizeof(*d))))
		return -1;
	d->major = (unsigned int)major;
	d->minor = (unsigned int)minor;
	memcpy(d->name, name, nn);
	while (!cur_at_end(&c)) {
		if (d->nr_fields == DS_NR_FIELDS)
			return lines_error(l, "more than %d counters after disk %s", DS_NR_FIELDS,
					   quote(name, nn, q, sizeof(q)));
		if ((rc = want_u64(l, &c, "counter", &d->f[d->nr_fields])))
			return rc;
		d->nr_fields++;
	}
	if (d->nr_fields != 11 && d->nr_fields != 15 && d->nr_fields != 17)
		return lines_error(l, "disk %s has %u counters, expected 11, 15 or 17",
				   quote(name, nn, q, sizeof(q)), d->nr_fields);
	out->n++;
	return 0;
}

int proc_parse_diskstats(const char *path, const char *text, struct proc_diskstats *out,
			 char *err, size_t errlen)
{
	struct proc_lines l;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		if (is_blank(l.line, l.len))
			continue;
		if ((rc = diskstats_line(&l, out, &cap)))
			break;
	}
	if (rc < 0) {
		proc_diskstats_release(out);
		return -1;
	}
	return 0;
}

double proc_diskstats_delta(const struct proc_diskstats_disk *x,
			    const struct proc_diskstats_disk *y, int f)
{
	double d = (double)y->f[f] - (double)x->f[f];
	bool ms = f == DS_RD_MS || f == DS_WR_MS || f == DS_IO_MS || f == DS_QUEUE_MS ||
		  f == DS_DC_MS || f == DS_FL_MS;

	if (ms && d < 0 && x->f[f] <= UINT32_MAX && y->f[f] <= UINT32_MAX)
		d += 4294967296.0;
	return d;
}

const struct proc_diskstats_disk *proc_diskstats_find(const struct proc_diskstats *ds,
						      const char *name)
{
	for (size_t i = 0; i < ds->n; i++)
		if (strcmp(ds->d[i].name, name) == 0)
			return &ds->d[i];
	return NULL;
}

void proc_diskstats_release(struct proc_diskstats *ds)
{
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

/* ---- stat -------------------------------------------------------------- */

/*
 * The lines of /proc/stat after the CPU lines, in show_stat()'s order:
 * name, whether the file must have it, whether it is a total followed by
 * any number of counts (one per interrupt or softirq), and its field.
 */
#define STAT_LINES(X)				\
	X(intr,		 false, true)		\
	X(ctxt,		 true,  false)		\
	X(btime,	 false, false)		\
	X(processes,	 false, false)		\
	X(procs_running, false, false)		\
	X(procs_blocked, false, false)		\
	X(softirq,	 false, true)

enum stat_line {
#define X(name, req, list) SL_##name,
	STAT_LINES(X)
#undef X
	NR_STAT_LINES
};

static const struct {
	const char	*name;
	bool		required;
	bool		list;
	size_t		offset;
} stat_lines[NR_STAT_LINES] = {
#define X(nm, req, list) { #nm, req, list, offsetof(struct proc_stat, nm) },
	STAT_LINES(X)
#undef X
};

struct stat_state {
	unsigned int	cpu_line;	/* line of "cpu", 0 before it */
	unsigned int	nr_fields;	/* its tick columns */
	unsigned int	last_cpu;	/* N of the last "cpuN" */
	size_t		cap;		/* of out->percpu */
	unsigned int	seen[NR_STAT_LINES];	/* line of each, 0 = not yet */
};

/* The tick columns after "cpu" or "cpuN" (name[0..nn)): 4 to 10. */
static int stat_ticks(struct proc_lines *l, struct proc_cur *c, const char *name, size_t nn,
		      uint64_t *f, unsigned int *nr)
{
	char q[64];
	int rc;

	*nr = 0;
	while (!cur_at_end(c)) {
		if (*nr == STAT_NR_CPU_FIELDS)
			return lines_error(l, "more than %d tick columns after %s", STAT_NR_CPU_FIELDS,
					   quote(name, nn, q, sizeof(q)));
		if ((rc = want_u64(l, c, "tick count", &f[*nr])))
			return rc;
		(*nr)++;
	}
	if (*nr < 4)
		return lines_error(l, "%s has %u tick columns, expected 4 to %d",
				   quote(name, nn, q, sizeof(q)), *nr, STAT_NR_CPU_FIELDS);
	return 0;
}

/* "cpuN ...": N after the last one; as many columns as the "cpu" line. */
static int stat_percpu(struct proc_lines *l, struct proc_cur *c, struct proc_stat *out,
		       struct stat_state *st, const char *name, size_t nn)
{
	uint64_t (*f)[STAT_NR_CPU_FIELDS];
	uint64_t n;
	unsigned int nr;
	char q[64];
	int rc = parse_u64(name + 3, nn - 3, &n);

	if (rc || n >= UINT32_MAX)
		return lines_error(l, "invalid CPU number in %s", quote(name, nn, q, sizeof(q)));
	if (out->nr_cpus > 0 && n <= st->last_cpu)
		return lines_error(l, "%s after 'cpu%u' (CPU numbers must increase)",
				   quote(name, nn, q, sizeof(q)), st->last_cpu);
	if (!(f = grow_one(l, (void **)&out->percpu, out->nr_cpus, &st->cap, sizeof(*f))))
		return -1;
	if ((rc = stat_ticks(l, c, name, nn, *f, &nr)))
		return rc;
	if (nr != st->nr_fields)
		return lines_error(l, "%s has %u tick columns, the 'cpu' line %u",
				   quote(name, nn, q, sizeof(q)), nr, st->nr_fields);
	st->last_cpu = (unsigned int)n;
	out->nr_cpus++;
	return 0;
}

/* intr, ctxt, ...: one number, or a total and its counts. */
static int stat_named(struct proc_lines *l, struct proc_cur *c, struct proc_stat *out,
		      struct stat_state *st, enum stat_line k)
{
	char what[48];
	uint64_t v;
	int rc;

	if (st->seen[k])
		return lines_error(l, "duplicate '%s' line (first on line %u)", stat_lines[k].name,
				   st->seen[k]);
	st->seen[k] = l->lineno;
	snprintf(what, sizeof(what), "'%s' %s", stat_lines[k].name,
		 stat_lines[k].list ? "total" : "value");
	if ((rc = want_u64(l, c, what, (uint64_t *)((char *)out + stat_lines[k].offset))))
		return rc;
	if (!stat_lines[k].list)
		return want_end(l, c);
	snprintf(what, sizeof(what), "'%s' count", stat_lines[k].name);
	while (!cur_at_end(c))
		if ((rc = want_u64(l, c, what, &v)))
			return rc;
	return 0;
}

static int stat_line(struct proc_lines *l, struct proc_stat *out, struct stat_state *st)
{
	struct proc_cur c;
	const char *name;
	size_t nn;
	char q[64];
	int rc;

	cur_init(&c, l);
	nn = cur_token(&c, &name);
	if ((rc = check_name(l, name, nn, "line name")))
		return rc;
	if (!st->cpu_line && !tok_eq(name, nn, "cpu"))
		return lines_error(l, "expected the 'cpu' line first, got %s",
				   quote(l->line, l->len, q, sizeof(q)));
	if (tok_eq(name, nn, "cpu")) {
		if (st->cpu_line)
			return lines_error(l, "duplicate 'cpu' line (first on line %u)", st->cpu_line);
		st->cpu_line = l->lineno;
		return stat_ticks(l, &c, name, nn, out->cpu, &st->nr_fields);
	}
	if (nn > 3 && memcmp(name, "cpu", 3) == 0 && name[3] >= '0' && name[3] <= '9')
		return stat_percpu(l, &c, out, st, name, nn);
	for (int k = 0; k < NR_STAT_LINES; k++)
		if (tok_eq(name, nn, stat_lines[k].name))
			return stat_named(l, &c, out, st, (enum stat_line)k);
	return 0;	/* a line of a newer kernel */
}

int proc_parse_stat(const char *path, const char *text, struct proc_stat *out, char *err,
		    size_t errlen)
{
	struct stat_state st = { 0 };
	struct proc_lines l;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		if (is_blank(l.line, l.len))
			continue;
		if ((rc = stat_line(&l, out, &st)))
			break;
	}
	if (rc == 0 && !st.cpu_line)
		rc = lines_error_at(&l, 1, "no 'cpu' line (empty file)");
	for (int k = 0; rc == 0 && k < NR_STAT_LINES; k++)
		if (stat_lines[k].required && !st.seen[k])
			rc = lines_error(&l, "file ends without a '%s' line (truncated?)", stat_lines[k].name);
	if (rc < 0) {
		proc_stat_release(out);
		return -1;
	}
	return 0;
}

void proc_stat_release(struct proc_stat *st)
{
	free(st->percpu);
	memset(st, 0, sizeof(*st));
}

/* ---- debugfs-wbt ----------------------------------------------------- */

enum { WBT_COLUMNS = 19, WBT_SCALE_STEP = 8 };

static int wbt_line(struct proc_lines *l, struct debugfs_wbt *out, size_t *cap)
{
	struct debugfs_wbt_line *w;
	struct proc_cur c;
	const char *t;
	size_t n;
	char q[64];
	int rc;

	if (!(w = grow_one(l, (void **)&out->v, out->n, cap, sizeof(*w))))
		return -1;
	cur_init(&c, l);
	n = cur_token(&c, &t);
	if ((rc = check_name(l, t, n, "device name")))
		return rc;
	if (n >= sizeof(w->device))
		return lines_error(l, "device name %s too long", quote(t, n, q, sizeof(q)));
	memcpy(w->device, t, n);
	for (int col = 1; col < WBT_COLUMNS; col++) {
		int64_t v;

		n = cur_token(&c, &t);
		if (n == 0)
			return lines_error(l, "%d columns, the header has %d", col, WBT_COLUMNS);
		if (tok_eq(t, n, "-"))
			continue;
		rc = parse_i64(t, n, col == WBT_SCALE_STEP, &v);
		if (rc)
			return lines_error(l, "%s value %s in column %d",
					   rc == -ERANGE ? "out-of-range" : "invalid", quote(t, n, q, sizeof(q)),
					   col + 1);
		if (col == 2)
			w->wb_normal = (uint64_t)v;
		else if (col == 3)
			w->wb_background = (uint64_t)v;
		else if (col == 4)
			w->inflight = (uint64_t)v;
	}
	if ((rc = want_end(l, &c)))
		return rc;
	out->n++;
	return 0;
}

int debugfs_parse_wbt(const char *path, const char *text, struct debugfs_wbt *out,
		      char *err, size_t errlen)
{
	struct proc_lines l;
	size_t cap = 0;
	bool header = false;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		char q[64];

		if (is_blank(l.line, l.len))
			continue;
		if (!header) {
			if (l.len != strlen(DEBUGFS_WBT_HEADER) || memcmp(l.line, DEBUGFS_WBT_HEADER, l.len) != 0) {
				rc = lines_error(&l, "expected the header '# device member wb_normal ...', got %s",
						 quote(l.line, l.len, q, sizeof(q)));
				break;
			}
			header = true;
			continue;
		}
		if ((rc = wbt_line(&l, out, &cap)))
			break;
	}
	if (rc == 0 && !header)
		rc = lines_error_at(&l, 1, "no header (empty sample)");
	if (rc < 0) {
		debugfs_wbt_release(out);
		return -1;
	}
	return 0;
}

void debugfs_wbt_release(struct debugfs_wbt *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* ---- trace-counts ----------------------------------------------------- */

static int trace_line(struct proc_lines *l, struct trace_counts *out)
{
	struct proc_cur c;
	const char *t, *v;
	size_t n, vn;
	int64_t count;
	int i, rc;
	char q[64];

	cur_init(&c, l);
	n = cur_token(&c, &t);
	for (i = 0; i < RPT_NR_TRACE_EVENTS; i++)
		if (tok_eq(t, n, rpt_trace_events[i]))
			break;
	if (i == RPT_NR_TRACE_EVENTS)
		return lines_error(l, "unknown tracepoint %s", quote(t, n, q, sizeof(q)));
	if (out->present[i])
		return lines_error(l, "tracepoint %s given twice", rpt_trace_events[i]);
	vn = cur_token(&c, &v);
	if (vn == 0)
		return lines_error(l, "missing count for %s", rpt_trace_events[i]);
	rc = parse_i64(v, vn, false, &count);
	if (rc)
		return lines_error(l, "%s count %s for %s", rc == -ERANGE ? "out-of-range" : "invalid",
				   quote(v, vn, q, sizeof(q)), rpt_trace_events[i]);
	if ((rc = want_end(l, &c)))
		return rc;
	out->count[i] = (uint64_t)count;
	out->present[i] = true;
	return 0;
}

int trace_parse_counts(const char *path, const char *text, struct trace_counts *out,
		       char *err, size_t errlen)
{
	struct proc_lines l;
	bool any = false;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		if (is_blank(l.line, l.len))
			continue;
		if ((rc = trace_line(&l, out)))
			break;
		any = true;
	}
	if (rc == 0 && !any)
		rc = lines_error_at(&l, 1, "no tracepoint counts (empty sample)");
	return rc < 0 ? -1 : 0;
}

/* ---- meminfo ----------------------------------------------------------- */

/* "Name: value [kB]" */
static int meminfo_line(struct proc_lines *l, struct proc_index *ix, struct rpt_counters *out)
{
	struct proc_cur c;
	const char *colon, *val, *unit;
	size_t nn, vn, un;
	char q[64];
	int rc;

	colon = memchr(l->line, ':', l->len);
	if (!colon)
		return lines_error(l, "expected 'Name: value [kB]', got %s", quote(l->line, l->len, q, sizeof(q)));
	nn = (size_t)(colon - l->line);
	if ((rc = check_name(l, l->line, nn, "field name")))
		return rc;
	cur_init(&c, l);
	c.s = colon + 1;
	vn = cur_token(&c, &val);
	un = cur_token(&c, &unit);
	if (vn == 0)
		return lines_error(l, "missing value for %s", quote(l->line, nn, q, sizeof(q)));
	if (un != 0 && !tok_eq(unit, un, "kB"))
		return lines_error(l, "unknown unit %s (only 'kB')", quote(unit, un, q, sizeof(q)));
	if ((rc = want_end(l, &c)))
		return rc;
	return add_value(l, ix, out, l->line, nn, val, vn);
}

int proc_parse_meminfo(const char *path, const char *text, struct rpt_counters *out,
		       char *err, size_t errlen)
{
	return parse_counter_lines(path, text, out, err, errlen, "fields", meminfo_line);
}

/* ---- "Node N, zone NAME" ----------------------------------------------- */

#define PROC_MAX_NODE	65535

/* Parses "Node <n>, zone <name>" and stops after the name (and a comma
 * directly after it when `comma_after` is set). */
static int parse_node_zone(struct proc_lines *l, struct proc_cur *c, int *node, char *zone,
			   bool comma_after)
{
	const char *t;
	size_t n;
	uint64_t v;
	char q[64];

	if (!cur_word(c, "Node"))
		return lines_error(l, "expected 'Node N, zone NAME', got %s",
				   quote(l->line, l->len, q, sizeof(q)));
	n = cur_token(c, &t);
	if (n == 0 || t[n - 1] != ',')
		return lines_error(l, "expected 'Node N,' got %s", quote(l->line, l->len, q, sizeof(q)));
	if (parse_u64(t, n - 1, &v) || v > PROC_MAX_NODE)
		return lines_error(l, "invalid node number %s", quote(t, n - 1, q, sizeof(q)));
	*node = (int)v;
	if (!cur_word(c, "zone"))
		return lines_error(l, "expected 'zone' after 'Node %d,'", *node);
	n = cur_token(c, &t);
	if (comma_after) {
		if (n == 0 || t[n - 1] != ',')
			return lines_error(l, "expected ',' after the zone name in %s",
					   quote(l->line, l->len, q, sizeof(q)));
		n--;
	}
	if (n == 0)
		return lines_error(l, "missing zone name");
	if (n >= 16)
		return lines_error(l, "zone name %s too long", quote(t, n, q, sizeof(q)));
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)t[i]) && t[i] != '_')
			return lines_error(l, "invalid zone name %s", quote(t, n, q, sizeof(q)));
	memcpy(zone, t, n);
	zone[n] = '\0';
	return 0;
}

/* ---- buddyinfo --------------------------------------------------------- */

int proc_parse_buddyinfo(const char *path, const char *text, struct proc_buddyinfo *out,
			 char *err, size_t errlen)
{
	struct proc_lines l;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		struct proc_buddyinfo_zone *z;
		struct proc_cur c;
		unsigned int o = 0;

		if (is_blank(l.line, l.len))
			continue;
		if (out->nr == PROC_MAX_ZONES)
			return lines_error(&l, "more than %d zones", PROC_MAX_ZONES);
		z = &out->z[out->nr];
		cur_init(&c, &l);
		if (parse_node_zone(&l, &c, &z->node, z->zone, false))
			return -1;
		for (unsigned int k = 0; k < out->nr; k++)
			if (out->z[k].node == z->node && strcmp(out->z[k].zone, z->zone) == 0)
				return lines_error(&l, "duplicate row for node %d zone '%s'", z->node, z->zone);
		while (!cur_at_end(&c)) {
			if (o == PROC_MAX_ORDERS)
				return lines_error(&l, "more than %d orders", PROC_MAX_ORDERS);
			if (want_u64(&l, &c, "free block count", &z->free[o]))
				return -1;
			o++;
		}
		if (o == 0)
			return lines_error(&l, "no free block counts for node %d zone '%s'", z->node, z->zone);
		if (out->nr > 0 && o != out->z[0].nr_orders)
			return lines_error(&l, "%u orders for node %d zone '%s', %u on the lines above",
					   o, z->node, z->zone, out->z[0].nr_orders);
		z->nr_orders = o;
		out->nr++;
	}
	if (rc < 0)
		return -1;
	if (out->nr == 0)
		return lines_error_at(&l, 1, "no zones (empty file)");
	return 0;
}

/* ---- pagetypeinfo ------------------------------------------------------ */

enum ptype_section { PT_NONE, PT_FREE, PT_BLOCKS, PT_MIXED };

struct ptype_state {
	enum ptype_section sec;
	bool		have_order;
	unsigned int	cols[PROC_MAX_MT];	/* block table column -> type index */
	unsigned int	nr_cols;
	uint32_t	free_rows[PROC_MAX_ZONES];	/* bit per type index */
	bool		block_row[PROC_MAX_ZONES];
};

static int ptype_type_index(struct proc_lines *l, struct proc_pagetypeinfo *out,
			    const char *t, size_t n, unsigned int *idx)
{
	char q[64];

	for (unsigned int i = 0; i < out->nr_types; i++)
		if (tok_eq(t, n, out->types[i])) {
			*idx = i;
			return 0;
		}
	if (n == 0 || n >= sizeof(out->types[0]))
		return lines_error(l, "invalid migrate type name %s", quote(t, n, q, sizeof(q)));
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)t[i]) && t[i] != '_' && t[i] != '-')
			return lines_error(l, "invalid migrate type name %s", quote(t, n, q, sizeof(q)));
	if (out->nr_types == PROC_MAX_MT)
		return lines_error(l, "more than %d migrate types", PROC_MAX_MT);
	memcpy(out->types[out->nr_types], t, n);
	out->types[out->nr_types][n] = '\0';
	*idx = out->nr_types++;
	return 0;
}

static int ptype_zone(struct proc_lines *l, struct proc_pagetypeinfo *out, int node,
		      const char *zone, unsigned int *idx)
{
	for (unsigned int i = 0; i < out->nr; i++)
		if (out->z[i].node == node && strcmp(out->z[i].zone, zone) == 0) {
			*idx = i;
			return 0;
		}
	if (out->nr == PROC_MAX_ZONES)
		return lines_error(l, "more than %d zones", PROC_MAX_ZONES);
	out->z[out->nr].node = node;
	memcpy(out->z[out->nr].zone, zone, sizeof(out->z[0].zone));
	*idx = out->nr++;
	return 0;
}

/* "Free pages count per migrate type at order   0 1 2 ..." */
static int ptype_free_header(struct proc_lines *l, struct proc_cur *c,
			     struct proc_pagetypeinfo *out, struct ptype_state *st)
{
	unsigned int o = 0;

	while (!cur_at_end(c)) {
		uint64_t v;

		if (o == PROC_MAX_ORDERS)
			return lines_error(l, "more than %d orders", PROC_MAX_ORDERS);
		if (want_u64(l, c, "order", &v))
			return -1;
		if (v != o)
			return lines_error(l, "order column %u is labelled %llu", o, (unsigned long long)v);
		o++;
	}
	if (o == 0)
		return lines_error(l, "no order columns");
	if (out->nr_orders && o != out->nr_orders)
		return lines_error(l, "%u order columns, %u in an earlier header", o, out->nr_orders);
	out->nr_orders = o;
	st->sec = PT_FREE;
	return 0;
}

/* "Number of blocks type   Unmovable Movable ..." (also the mixed table) */
static int ptype_block_header(struct proc_lines *l, struct proc_cur *c,
			      struct proc_pagetypeinfo *out, struct ptype_state *st,
			      enum ptype_section sec)
{
	st->nr_cols = 0;
	while (!cur_at_end(c)) {
		const char *t;
		size_t n = cur_token(c, &t);
		unsigned int idx;

		if (st->nr_cols == PROC_MAX_MT)
			return lines_error(l, "more than %d migrate types", PROC_MAX_MT);
		if (ptype_type_index(l, out, t, n, &idx))
			return -1;
		for (unsigned int k = 0; k < st->nr_cols; k++)
			if (st->cols[k] == idx)
				return lines_error(l, "migrate type '%s' listed twice", out->types[idx]);
		st->cols[st->nr_cols++] = idx;
	}
	if (st->nr_cols == 0)
		return lines_error(l, "no migrate type columns");
	st->sec = sec;
	return 0;
}

/* "Node    0, zone   Normal, type    Unmovable  n0 n1 ..." */
static int ptype_free_row(struct proc_lines *l, struct proc_cur *c,
			  struct proc_pagetypeinfo *out, struct ptype_state *st)
{
	char zone[16];
	const char *t;
	size_t n;
	unsigned int zi, ti, o = 0;
	int node;

	if (parse_node_zone(l, c, &node, zone, true))
		return -1;
	if (!cur_word(c, "type"))
		return lines_error(l, "expected 'type' after the zone name");
	n = cur_token(c, &t);
	if (ptype_type_index(l, out, t, n, &ti) || ptype_zone(l, out, node, zone, &zi))
		return -1;
	if (st->free_rows[zi] & (1u << ti))
		return lines_error(l, "duplicate row for node %d zone '%s' type '%s'",
				   node, zone, out->types[ti]);
	st->free_rows[zi] |= 1u << ti;
	while (!cur_at_end(c)) {
		uint64_t v;

		if (o == out->nr_orders)
			return lines_error(l, "more than %u counts (the header has %u orders)",
					   out->nr_orders, out->nr_orders);
		if (*c->s == '>')	/* a count capped by the kernel: value as printed */
			c->s++;
		if (want_u64(l, c, "free count", &v))
			return -1;
		out->z[zi].free[ti][o++] = v;
	}
	if (o != out->nr_orders)
		return lines_error(l, "%u counts for node %d zone '%s' type '%s', the header has %u orders",
				   o, node, zone, out->types[ti], out->nr_orders);
	return 0;
}

/* "Node 0, zone   Normal   b0 b1 ..." in the block (or mixed) table */
static int ptype_block_row(struct proc_lines *l, struct proc_cur *c,
			   struct proc_pagetypeinfo *out, struct ptype_state *st)
{
	char zone[16];
	unsigned int zi, k = 0;
	int node;

	if (parse_node_zone(l, c, &node, zone, false))
		return -1;
	if (ptype_zone(l, out, node, zone, &zi))
		return -1;
	if (st->sec == PT_BLOCKS) {
		if (st->block_row[zi])
			return lines_error(l, "duplicate block row for node %d zone '%s'", node, zone);
		st->block_row[zi] = true;
	}
	while (!cur_at_end(c)) {
		uint64_t v;

		if (k == st->nr_cols)
			return lines_error(l, "more than %u block counts (the header has %u types)",
					   st->nr_cols, st->nr_cols);
		if (want_u64(l, c, "block count", &v))
			return -1;
		if (st->sec == PT_BLOCKS)
			out->z[zi].blocks[st->cols[k]] = v;
		k++;
	}
	if (k != st->nr_cols)
		return lines_error(l, "%u block counts for node %d zone '%s', the header has %u types",
				   k, node, zone, st->nr_cols);
	return 0;
}

int proc_parse_pagetypeinfo(const char *path, const char *text, struct proc_pagetypeinfo *out,
			    char *err, size_t errlen)
{
	struct ptype_state st = { .sec = PT_NONE };
	struct proc_lines l;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		struct proc_cur c;
		uint64_t v;
		char q[64];

		if (is_blank(l.line, l.len))
			continue;
		cur_init(&c, &l);
		if (cur_word(&c, "Page block order:")) {
			if (want_u64(&l, &c, "page block order", &v) || want_end(&l, &c))
				return -1;
			if (v >= 32 || (st.have_order && v != out->pageblock_order))
				return lines_error(&l, "page block order %llu (earlier %u)",
						   (unsigned long long)v, out->pageblock_order);
			out->pageblock_order = (unsigned int)v;
			st.have_order = true;
			st.sec = PT_NONE;
		} else if (cur_word(&c, "Pages per block:")) {
			if (want_u64(&l, &c, "pages per block", &v) || want_end(&l, &c))
				return -1;
			if (!st.have_order || v != 1ull << out->pageblock_order)
				return lines_error(&l, "pages per block %llu does not match page block order %u",
						   (unsigned long long)v, out->pageblock_order);
		} else if (cur_word(&c, "Free pages count per migrate type at order")) {
			if (ptype_free_header(&l, &c, out, &st))
				return -1;
		} else if (cur_word(&c, "Number of blocks type")) {
			if (ptype_block_header(&l, &c, out, &st, PT_BLOCKS))
				return -1;
		} else if (cur_word(&c, "Number of mixed blocks")) {
			if (ptype_block_header(&l, &c, out, &st, PT_MIXED))
				return -1;
		} else if (l.len >= 4 && memcmp(l.line, "Node", 4) == 0) {
			if (st.sec == PT_FREE) {
				if (ptype_free_row(&l, &c, out, &st))
					return -1;
			} else if (st.sec == PT_BLOCKS || st.sec == PT_MIXED) {
				if (ptype_block_row(&l, &c, out, &st))
					return -1;
			} else {
				return lines_error(&l, "zone row before any table header");
			}
		} else {
			return lines_error(&l, "unexpected line %s", quote(l.line, l.len, q, sizeof(q)));
		}
	}
	if (rc < 0)
		return -1;
	if (out->nr == 0)
		return lines_error_at(&l, l.lineno ? l.lineno : 1, "no zones (empty or truncated file)");
	for (unsigned int i = 0; i < out->nr; i++) {
		uint32_t all = (1u << out->nr_types) - 1;

		if (st.free_rows[i] != all)
			return lines_error_at(&l, l.lineno, "file ends with node %d zone '%s' missing "
					      "free counts for some migrate types (truncated?)",
					      out->z[i].node, out->z[i].zone);
		if (!st.block_row[i])
			return lines_error_at(&l, l.lineno, "file ends without a 'Number of blocks' row "
					      "for node %d zone '%s' (truncated?)",
					      out->z[i].node, out->z[i].zone);
	}
	return 0;
}

/* ---- zoneinfo ---------------------------------------------------------- */

enum zi_mode { ZI_NONE, ZI_NODE_STATS, ZI_ZONE, ZI_PAGESETS, ZI_TAIL };

/* Watermark and size lines after "pages free"; the required ones must be
 * present in every zone, the others are accepted when they are. */
#define ZI_FIELDS(X)					\
	X(boost,   false)				\
	X(min,     true)				\
	X(low,     true)				\
	X(high,    true)				\
	X(promo,   false)				\
	X(spanned, true)				\
	X(present, true)				\
	X(managed, true)

enum zi_field {
#define X(name, req) ZF_##name,
	ZI_FIELDS(X)
#undef X
	NR_ZI_FIELDS
};

static const struct {
	const char	*name;
	bool		required;
	size_t		offset;
} zi_fields[NR_ZI_FIELDS] = {
#define X(nm, req) { #nm, req, offsetof(struct proc_zoneinfo_zone, nm) },
	ZI_FIELDS(X)
#undef X
};

struct zi_state {
	enum zi_mode	mode;
	struct proc_index node_ix;
	struct proc_index zone_ix;	/* stats of the current zone */
	struct proc_index block_ix;	/* names in the current per-node block */
	struct rpt_counters block;	/* (for duplicates within one node) */
	uint32_t	seen;		/* bit per zi_field */
	bool		have_free, have_protection, populated, have_start_pfn;
	unsigned int	zone_line;
};

/* Close the current zone: everything a complete zone block has. */
static int zi_finish_zone(struct proc_lines *l, struct proc_zoneinfo *out, struct zi_state *st,
			  unsigned int lineno)
{
	struct proc_zoneinfo_zone *z;

	if (out->nr == 0)
		return 0;
	z = &out->z[out->nr - 1];
	if (!st->have_free)
		return lines_error_at(l, lineno, "node %d zone '%s' (line %u) has no 'pages free' line",
				      z->node, z->zone, st->zone_line);
	for (int f = 0; f < NR_ZI_FIELDS; f++)
		if (zi_fields[f].required && !(st->seen & (1u << f)))
			return lines_error_at(l, lineno, "node %d zone '%s' (line %u) has no '%s' line",
					      z->node, z->zone, st->zone_line, zi_fields[f].name);
	if (!st->have_protection)
		return lines_error_at(l, lineno, "node %d zone '%s' (line %u) has no 'protection' line",
				      z->node, z->zone, st->zone_line);
	/* populated_zone() is present_pages != 0: such a zone goes on with
	 * its stats, pagesets and start_pfn */
	if ((st->populated || z->present != 0) && !st->have_start_pfn)
		return lines_error_at(l, lineno, "node %d zone '%s' (line %u) ends before 'start_pfn'",
				      z->node, z->zone, st->zone_line);
	index_release(&st->zone_ix);
	return 0;
}

/* "        protection: (0, 3019, 24090)" */
static int zi_protection(struct proc_lines *l, struct proc_cur *c)
{
	char q[64];

	cur_skip_ws(c);
	if (c->s == c->end || *c->s != '(')
		return lines_error(l, "expected '(' after 'protection:'");
	c->s++;
	for (;;) {
		const char *t;
		int64_t v;

		cur_skip_ws(c);
		t = c->s;
		while (c->s < c->end && *c->s != ',' && *c->s != ')' && *c->s != ' ')
			c->s++;
		if (parse_i64(t, (size_t)(c->s - t), true, &v))
			return lines_error(l, "invalid protection value %s", quote(t, (size_t)(c->s - t), q, sizeof(q)));
		cur_skip_ws(c);
		if (c->s == c->end)
			return lines_error(l, "protection list has no ')'");
		if (*c->s == ')') {
			c->s++;
			return want_end(l, c);
		}
		if (*c->s != ',')
			return lines_error(l, "expected ',' or ')' in the protection list");
		c->s++;
	}
}

/* "name value" into the node or zone stats; node stats of several nodes
 * are summed. */
static int zi_stat(struct proc_lines *l, struct proc_cur *c, struct proc_zoneinfo *out,
		   struct zi_state *st, const char *name, size_t nn)
{
	const char *val;
	size_t vn = cur_token(c, &val), pos;
	int64_t v;
	char q[64];
	int rc;

	if (vn == 0)
		return lines_error(l, "expected 'name value', got %s", quote(l->line, l->len, q, sizeof(q)));
	if (check_name(l, name, nn, "counter name") || want_end(l, c))
		return -1;
	rc = parse_i64(val, vn, true, &v);
	if (rc)
		return lines_error(l, "%s value %s for %s", rc == -ERANGE ? "out-of-range" : "invalid",
				   quote(val, vn, q, sizeof(q)), quote(name, nn, q + 32, 32));
	if (st->mode == ZI_NODE_STATS) {
		if (add_unique(l, &st->block_ix, &st->block, name, nn, v))
			return -1;
		rc = index_add(&st->node_ix, &out->node_stats, name, nn, v, &pos);
		if (rc < 0)
			return lines_error(l, "out of memory");
		if (rc == 0 && __builtin_add_overflow(out->node_stats.v[pos].value, v,
						      &out->node_stats.v[pos].value))
			return lines_error(l, "sum of %s over the nodes out of range",
					   quote(name, nn, q, sizeof(q)));
		return 0;
	}
	return add_unique(l, &st->zone_ix, &out->z[out->nr - 1].stats, name, nn, v);
}

/* One indented line inside a zone block. */
static int zi_line(struct proc_lines *l, struct proc_zoneinfo *out, struct zi_state *st)
{
	struct proc_zoneinfo_zone *z = &out->z[out->nr - 1];
	unsigned int indent = cur_indent(l);
	struct proc_cur c;
	const char *t;
	size_t n;
	char q[64];
	uint64_t v;

	cur_init(&c, l);
	if (cur_word(&c, "per-node stats")) {
		if (st->have_free || out->nr == 0)
			return lines_error(l, "'per-node stats' after 'pages free'");
		st->mode = ZI_NODE_STATS;
		index_release(&st->block_ix);
		rpt_counters_release(&st->block);
		return want_end(l, &c);
	}
	if (cur_word(&c, "pages free")) {
		if (st->have_free)
			return lines_error(l, "second 'pages free' line in node %d zone '%s'", z->node, z->zone);
		if (want_u64(l, &c, "free page count", &z->free) || want_end(l, &c))
			return -1;
		st->have_free = true;
		st->mode = ZI_ZONE;
		return 0;
	}
	if (cur_word(&c, "protection:")) {
		if (!st->have_free)
			return lines_error(l, "'protection' before 'pages free'");
		st->have_protection = true;
		return zi_protection(l, &c);
	}
	if (cur_word(&c, "pagesets")) {
		if (!st->have_protection)
			return lines_error(l, "'pagesets' before 'protection'");
		st->mode = ZI_PAGESETS;
		st->populated = true;
		return want_end(l, &c);
	}
	n = cur_token(&c, &t);
	if (n > 1 && t[n - 1] == ':') {
		/* "cpu: 0", "count: 3", "vm stats threshold: 4" (multi-word),
		 * "node_unreclaimable:  0", "start_pfn:  1" */
		if (st->mode == ZI_NONE || st->mode == ZI_NODE_STATS)
			return lines_error(l, "unexpected line %s before 'pages free'",
					   quote(l->line, l->len, q, sizeof(q)));
		if (tok_eq(t, n, "start_pfn:")) {
			st->have_start_pfn = true;
			st->mode = ZI_TAIL;
		} else if (tok_eq(t, n, "node_unreclaimable:")) {
			st->mode = ZI_TAIL;
		}
		if (want_u64(l, &c, "value", &v) || want_end(l, &c))
			return -1;
		if (st->mode == ZI_PAGESETS && tok_eq(t, n, "cpu:"))
			z->pcp_cpus++;
		else if (st->mode == ZI_PAGESETS && tok_eq(t, n, "count:"))
			z->pcp_count += v;
		else if (st->mode == ZI_PAGESETS && tok_eq(t, n, "high:"))
			z->pcp_high += v;
		return 0;
	}
	if (tok_eq(t, n, "vm") && cur_word(&c, "stats threshold:"))
		return want_u64(l, &c, "threshold", &v) ? -1 : want_end(l, &c);
	switch (st->mode) {
	case ZI_NODE_STATS:
		return zi_stat(l, &c, out, st, t, n);
	case ZI_ZONE:
		if (st->have_protection) {
			st->populated = true;
			return zi_stat(l, &c, out, st, t, n);
		}
		for (int f = 0; f < NR_ZI_FIELDS; f++)
			if (tok_eq(t, n, zi_fields[f].name)) {
				uint64_t *dst = (uint64_t *)((char *)z + zi_fields[f].offset);

				if (st->seen & (1u << f))
					return lines_error(l, "second '%s' line in node %d zone '%s'",
							   zi_fields[f].name, z->node, z->zone);
				st->seen |= 1u << f;
				return want_u64(l, &c, zi_fields[f].name, dst) ? -1 : want_end(l, &c);
			}
		/* a field a newer kernel added among the watermarks ("cma") */
		if (indent != 8 || check_name(l, t, n, "field name"))
			return indent != 8 ? lines_error(l, "unexpected line %s",
							 quote(l->line, l->len, q, sizeof(q))) : -1;
		return want_u64(l, &c, "value", &v) ? -1 : want_end(l, &c);
	case ZI_PAGESETS:
	case ZI_TAIL:
	case ZI_NONE:
		break;
	}
	return lines_error(l, "unexpected line %s", quote(l->line, l->len, q, sizeof(q)));
}

int proc_parse_zoneinfo(const char *path, const char *text, struct proc_zoneinfo *out,
			char *err, size_t errlen)
{
	struct zi_state st = { .mode = ZI_NONE };
	struct proc_lines l;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	while ((rc = lines_next(&l)) > 0) {
		if (is_blank(l.line, l.len))
			continue;
		if (l.line[0] != ' ') {
			struct proc_zoneinfo_zone *z;
			struct proc_cur c;

			if (zi_finish_zone(&l, out, &st, l.lineno)) {
				rc = -1;
				break;
			}
			if (out->nr == PROC_MAX_ZONES) {
				rc = lines_error(&l, "more than %d zones", PROC_MAX_ZONES);
				break;
			}
			z = &out->z[out->nr];
			cur_init(&c, &l);
			if (parse_node_zone(&l, &c, &z->node, z->zone, false) || want_end(&l, &c)) {
				rc = -1;
				break;
			}
			for (unsigned int k = 0; k < out->nr; k++)
				if (out->z[k].node == z->node && strcmp(out->z[k].zone, z->zone) == 0) {
					rc = lines_error(&l, "duplicate block for node %d zone '%s'",
							 z->node, z->zone);
					break;
				}
			if (rc < 0)
				break;
			out->nr++;
			st.mode = ZI_NONE;
			st.seen = 0;
			st.have_free = st.have_protection = st.populated = st.have_start_pfn = false;
			st.zone_line = l.lineno;
			continue;
		}
		if (out->nr == 0) {
			char q[64];

			rc = lines_error(&l, "expected 'Node N, zone NAME', got %s",
					 quote(l.line, l.len, q, sizeof(q)));
			break;
		}
		if (zi_line(&l, out, &st)) {
			rc = -1;
			break;
		}
	}
	if (rc == 0) {
		if (out->nr == 0)
			rc = lines_error_at(&l, 1, "no zones (empty file)");
		else
			rc = zi_finish_zone(&l, out, &st, l.lineno);
	}
	index_release(&st.node_ix);
	index_release(&st.zone_ix);
	index_release(&st.block_ix);
	rpt_counters_release(&st.block);
	return rc < 0 ? -1 : 0;
}

void proc_zoneinfo_release(struct proc_zoneinfo *zi)
{
	for (unsigned int i = 0; i < zi->nr && i < PROC_MAX_ZONES; i++)
		rpt_counters_release(&zi->z[i].stats);
	rpt_counters_release(&zi->node_stats);
	memset(zi, 0, sizeof(*zi));
}

/* ---- monitor files ----------------------------------------------------- */

/* "time: <t>" with t a finite, non-negative decimal number (integer epoch
 * seconds from mmtests, or fractional virtual seconds). */
static int monitor_time(struct proc_lines *l, struct proc_cur *c, double *t)
{
	const char *tok;
	size_t n = cur_token(c, &tok), dots = 0;
	char buf[48], q[64];

	if (n == 0)
		return lines_error(l, "missing time after 'time:'");
	for (size_t i = 0; i < n; i++) {
		if (tok[i] == '.')
			dots++;
		else if (tok[i] < '0' || tok[i] > '9')
			dots = 2;
	}
	if (dots > 1 || n >= sizeof(buf) || tok[0] == '.' || tok[n - 1] == '.')
		return lines_error(l, "invalid time %s", quote(tok, n, q, sizeof(q)));
	memcpy(buf, tok, n);
	buf[n] = '\0';
	*t = strtod(buf, NULL);
	if (!isfinite(*t))
		return lines_error(l, "invalid time %s", quote(tok, n, q, sizeof(q)));
	return want_end(l, c);
}

int proc_parse_monitor(const char *path, const char *text, struct proc_monitor *out,
		       char *err, size_t errlen)
{
	struct proc_lines l;
	size_t cap = 0;
	const char *body = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	lines_init(&l, path, text, err, errlen);
	for (;;) {
		const char *line_start = l.p;
		bool is_time;

		rc = lines_next(&l);
		if (rc < 0)
			break;
		is_time = rc > 0 && l.len >= 5 && memcmp(l.line, "time:", 5) == 0;
		if ((rc == 0 || is_time) && out->n > 0) {
			/* close the previous sample: its text runs up to here */
			struct proc_monitor_sample *s = &out->s[out->n - 1];
			size_t len = (size_t)(line_start - body);

			s->text = malloc(len + 1);
			if (!s->text) {
				rc = lines_error(&l, "out of memory");
				break;
			}
			memcpy(s->text, body, len);
			s->text[len] = '\0';
		}
		if (rc == 0)
			break;
		if (!is_time) {
			char q[64];

			if (out->n == 0) {
				rc = lines_error(&l, "expected 'time: <seconds>', got %s",
						 quote(l.line, l.len, q, sizeof(q)));
				break;
			}
			continue;
		}
		if (out->n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct proc_monitor_sample *s = realloc(out->s, ncap * sizeof(*s));

			if (!s) {
				rc = lines_error(&l, "out of memory");
				break;
			}
			out->s = s;
			cap = ncap;
		}
		{
			struct proc_monitor_sample *s = &out->s[out->n++];
			struct proc_cur c;

			memset(s, 0, sizeof(*s));
			s->first_line = l.lineno + 1;
			body = l.p;
			cur_init(&c, &l);
			c.s += 5;
			if (monitor_time(&l, &c, &s->time)) {
				rc = -1;
				break;
			}
		}
	}
	if (rc < 0) {
		proc_monitor_release(out);
		return -1;
	}
	if (out->n == 0)
		return lines_error_at(&l, 1, "no samples (empty file)");
	return 0;
}

void proc_monitor_release(struct proc_monitor *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->s[i].text);
	free(m->s);
	memset(m, 0, sizeof(*m));
}
