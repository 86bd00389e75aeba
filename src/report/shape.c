/* SPDX-License-Identifier: MIT */
/*
 * shape.c — the free-memory shape of result folders side by side
 * (`slowpath compare --shape`, docs/fragmentation-check.md).
 *
 * The indices are the kernel's, as /sys/kernel/debug/extfrag prints them
 * (mm/vmstat.c, Linux 6.12): for a zone and an order,
 *
 *   free_pages      = sum over orders o of nr_free[o] * 2^o
 *   blocks_total    = sum over o of nr_free[o]
 *   blocks_suitable = sum over o >= order of nr_free[o] * 2^(o - order)
 *
 *   unusable_index  = (free_pages - blocks_suitable * 2^order) * 1000 / free_pages
 *                     (integer division; 1000 when nothing is free)
 *   extfrag_index   = 1000 - (1000 + free_pages * 1000 / 2^order) / blocks_total
 *                     (integer divisions; 0 when nothing is free, -1000 when
 *                     a block of the order is free: the allocation would
 *                     succeed and the index means nothing)
 *
 * both in thousandths, printed "%d.%03d".  nr_free is buddyinfo's count.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/shape.h"
#include "sim/xalloc.h"

/* ---- the indices ---------------------------------------------------------- */

void rpt_contig_info(const uint64_t *free_blocks, unsigned int nr_orders, unsigned int order,
		     struct rpt_contig_info *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int o = 0; o < nr_orders; o++) {
		out->free_blocks_total += free_blocks[o];
		out->free_pages += free_blocks[o] << o;
		if (o >= order)
			out->free_blocks_suitable += free_blocks[o] << (o - order);
	}
}

int rpt_unusable_index(unsigned int order, const struct rpt_contig_info *info)
{
	if (info->free_pages == 0)
		return 1000;
	return (int)((info->free_pages - (info->free_blocks_suitable << order)) * 1000u /
		     info->free_pages);
}

int rpt_extfrag_index(unsigned int order, const struct rpt_contig_info *info)
{
	uint64_t requested = (uint64_t)1 << order;

	if (!info->free_blocks_total)
		return 0;
	if (info->free_blocks_suitable)
		return RPT_EXTFRAG_SUCCEEDS;
	return 1000 - (int)((1000 + info->free_pages * 1000u / requested) / info->free_blocks_total);
}

/* ---- loading ----------------------------------------------------------------- */

static void fail(char *err, size_t errlen, const char *fmt, const char *a, unsigned int line,
		 const char *b)
{
	snprintf(err, errlen, fmt, a, line, b);
}

static struct rpt_shape_zone *zone_get(struct rpt_shape *s, const char *name)
{
	for (unsigned int i = 0; i < s->nr_zones; i++)
		if (strcmp(s->z[i].zone, name) == 0)
			return &s->z[i];
	if (s->nr_zones == PROC_MAX_ZONES)
		return NULL;
	snprintf(s->z[s->nr_zones].zone, sizeof(s->z[0].zone), "%s", name);
	for (unsigned int o = 0; o < PROC_MAX_ORDERS; o++)
		s->z[s->nr_zones].extfrag[o] = -1;
	return &s->z[s->nr_zones++];
}

/* Indices of sample k of a monitor selected by the window? */
static bool in_window(const struct proc_monitor *m, size_t k, double from, double to)
{
	double t = m->s[k].time - m->s[0].time;

	if (to < 0)
		return k + 1 == m->n;
	return t >= from - 1e-9 && t <= to + 1e-9;
}

static int load_buddy(const char *dir, double from, double to, struct rpt_shape *out,
		      char *err, size_t errlen)
{
	struct proc_buddyinfo *bi = xzalloc(sizeof(*bi));
	struct proc_monitor m;
	char *path;
	int rc = rpt_read_monitor(dir, "proc-buddyinfo", &path, &m, err, errlen);

	if (rc == 0)
		snprintf(err, errlen, "%s: no such file (the free-memory shape needs it)", path);
	if (rc <= 0) {
		rc = -1;
		goto out;
	}
	rc = 0;
	for (size_t k = 0; k < m.n; k++) {
		struct rpt_shape_zone *seen[PROC_MAX_ZONES];
		uint64_t sum[PROC_MAX_ZONES][PROC_MAX_ORDERS];
		unsigned int nseen = 0;

		if (!in_window(&m, k, from, to))
			continue;
		if (proc_parse_buddyinfo(path, m.s[k].text, bi, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
			break;
		}
		memset(sum, 0, sizeof(sum));
		for (unsigned int i = 0; i < bi->nr; i++) {
			struct rpt_shape_zone *z = zone_get(out, bi->z[i].zone);
			unsigned int j;

			if (!z)
				continue;
			for (j = 0; j < nseen && seen[j] != z; j++)
				;
			if (j == nseen)
				seen[nseen++] = z;
			if (bi->z[i].nr_orders > z->nr_orders)
				z->nr_orders = bi->z[i].nr_orders;
			for (unsigned int o = 0; o < bi->z[i].nr_orders; o++)
				sum[j][o] += bi->z[i].free[o];
		}
		for (unsigned int j = 0; j < nseen; j++) {
			struct rpt_shape_zone *z = seen[j];

			for (unsigned int o = 0; o < z->nr_orders; o++) {
				struct rpt_contig_info ci;
				int e;

				rpt_contig_info(sum[j], z->nr_orders, o, &ci);
				z->blocks[o] += (double)sum[j][o];
				z->unusable[o] += rpt_unusable_index(o, &ci) / 1000.0;
				e = rpt_extfrag_index(o, &ci);
				if (e != RPT_EXTFRAG_SUCCEEDS) {
					z->extfrag[o] = (z->extfrag_n[o] ? z->extfrag[o] : 0) + e / 1000.0;
					z->extfrag_n[o]++;
				}
			}
		}
		out->samples++;
		out->last_time = m.s[k].time - m.s[0].time;
	}
	if (!rc && !out->samples) {
		snprintf(err, errlen, "%s: no sample between %g s and %g s after the first", path,
			 from, to);
		rc = -1;
	}
	for (unsigned int i = 0; !rc && i < out->nr_zones; i++) {
		struct rpt_shape_zone *z = &out->z[i];

		for (unsigned int o = 0; o < z->nr_orders; o++) {
			z->blocks[o] /= out->samples;
			z->unusable[o] /= out->samples;
			if (z->extfrag_n[o])
				z->extfrag[o] /= z->extfrag_n[o];
		}
	}
	proc_monitor_release(&m);
out:
	free(path);
	free(bi);
	return rc;
}

static int load_types(const char *dir, double from, double to, struct rpt_shape *out,
		      char *err, size_t errlen)
{
	struct proc_pagetypeinfo *pi = xzalloc(sizeof(*pi));
	struct proc_monitor m;
	char *path;
	unsigned int n = 0;
	int rc = rpt_read_monitor(dir, "proc-pagetypeinfo", &path, &m, err, errlen);

	if (rc <= 0)
		goto out;
	rc = 0;
	for (size_t k = 0; k < m.n; k++) {
		if (!in_window(&m, k, from, to))
			continue;
		if (proc_parse_pagetypeinfo(path, m.s[k].text, pi, err, errlen)) {
			rpt_rebase_error(err, errlen, path, m.s[k].first_line);
			rc = -1;
			break;
		}
		if (!n) {
			out->nr_types = pi->nr_types;
			memcpy(out->types, pi->types, sizeof(out->types));
		} else if (pi->nr_types != out->nr_types) {
			fail(err, errlen, "%s:%u: %s", path, m.s[k].first_line,
			     "a different number of migratetypes than the first sample");
			rc = -1;
			break;
		}
		for (unsigned int i = 0; i < pi->nr; i++) {
			struct rpt_shape_zone *z = zone_get(out, pi->z[i].zone);

			for (unsigned int t = 0; z && t < pi->nr_types; t++)
				for (unsigned int o = 0; o < pi->nr_orders && o < PROC_MAX_ORDERS; o++)
					z->type_blocks[t][o] += (double)pi->z[i].free[t][o];
		}
		n++;
	}
	for (unsigned int i = 0; !rc && n && i < out->nr_zones; i++)
		for (unsigned int t = 0; t < out->nr_types; t++)
			for (unsigned int o = 0; o < PROC_MAX_ORDERS; o++)
				out->z[i].type_blocks[t][o] /= n;
	out->has_types = !rc && n;
	proc_monitor_release(&m);
out:
	free(path);
	free(pi);
	return rc < 0 ? -1 : 0;
}

int rpt_shape_load(const char *dir, double from, double to, struct rpt_shape *out,
		   char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->from = from;
	out->to = to;
	if (load_buddy(dir, from, to, out, err, errlen))
		return -1;
	return load_types(dir, from, to, out, err, errlen);
}

/* ---- windows ------------------------------------------------------------------ */

/* ---- printing ------------------------------------------------------------------- */

#define LABEL_W 22
#define COL_W	9

static const char *set_label(const struct rpt_set *s)
{
	return s->name;
}

static const struct rpt_shape_zone *find_zone(const struct rpt_shape *s, const char *name)
{
	for (unsigned int i = 0; i < s->nr_zones; i++)
		if (strcmp(s->z[i].zone, name) == 0)
			return &s->z[i];
	return NULL;
}

static int find_type(const struct rpt_shape *s, const char *name)
{
	for (unsigned int t = 0; t < s->nr_types; t++)
		if (strcmp(s->types[t], name) == 0)
			return (int)t;
	return -1;
}

static void order_header(FILE *f, const char *title, unsigned int orders, const char *extra)
{
	fprintf(f, "%-*s", LABEL_W, title);
	for (unsigned int o = 0; o < orders; o++)
		fprintf(f, " %*u", COL_W, o);
	if (extra)
		fprintf(f, " %*s", COL_W + 2, extra);
	fputc('\n', f);
}

static void cell(FILE *f, const char *fmt, double v, bool have)
{
	char buf[32];

	if (!have || isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), fmt, v);
	if (have && !isnan(v) && !strpbrk(buf, "123456789"))
		snprintf(buf, sizeof(buf), fmt, 0.0);	/* no "-0" */
	fprintf(f, " %*s", COL_W, buf);
}

/* Relative difference in percent, as compare's pdiff: (v - base) / base. */
static double pct(double base, double v)
{
	if (base == 0)
		return v == 0 ? 0 : NAN;
	return (v - base) * 100.0 / base;
}

/* Free blocks per order of one set and zone: buddyinfo (type < 0) or one
 * migratetype of pagetypeinfo; NULL when the set lacks it. */
static const double *blocks_of(const struct rpt_shape *sh, const struct rpt_shape_zone *z,
			       const char *type)
{
	int ti;

	if (!z)
		return NULL;
	if (!type)
		return z->blocks;
	if (!sh->has_types || (ti = find_type(sh, type)) < 0)
		return NULL;
	return z->type_blocks[ti];
}

static double pages_of(const double *b, unsigned int orders)
{
	double p = 0;

	for (unsigned int o = 0; o < orders; o++)
		p += ldexp(b[o], (int)o);
	return p;
}

/* A table of free blocks per order (and free pages) for every set, with
 * each set's difference from the first in percent. */
static void print_blocks(FILE *f, const struct rpt_set *sets, int nr_sets,
			 const struct rpt_shape *sh, const char *zone, const char *type,
			 unsigned int orders, const char *title)
{
	const double *base = blocks_of(&sh[0], find_zone(&sh[0], zone), type);
	char label[64];

	bool any = false;

	for (int s = 0; s < nr_sets; s++) {
		const double *b = blocks_of(&sh[s], find_zone(&sh[s], zone), type);

		for (unsigned int o = 0; b && o < orders; o++)
			any |= b[o] != 0;
	}
	if (!any) {
		fprintf(f, "%s: none free in any result\n", title);
		return;
	}
	order_header(f, title, orders, "free pages");
	for (int s = 0; s < nr_sets; s++) {
		const double *b = blocks_of(&sh[s], find_zone(&sh[s], zone), type);

		fprintf(f, "  %-*.*s", LABEL_W - 2, LABEL_W - 2, set_label(&sets[s]));
		for (unsigned int o = 0; o < orders; o++)
			cell(f, "%.0f", b ? b[o] : NAN, b != NULL);
		fprintf(f, " ");
		cell(f, "%.0f", b ? pages_of(b, orders) : NAN, b != NULL);
		fputc('\n', f);
		if (s == 0 || !base || !b)
			continue;
		snprintf(label, sizeof(label), "  %s %%diff", set_label(&sets[s]));
		fprintf(f, "%-*.*s", LABEL_W, LABEL_W, label);
		for (unsigned int o = 0; o < orders; o++)
			cell(f, "%+.0f", pct(base[o], b[o]), true);
		fprintf(f, " ");
		cell(f, "%+.1f", pct(pages_of(base, orders), pages_of(b, orders)), true);
		fputc('\n', f);
	}
}

static void print_zone(FILE *f, const struct rpt_set *sets, int nr_sets, const struct rpt_shape *sh,
		       const char *zone)
{
	const struct rpt_shape_zone *base = find_zone(&sh[0], zone);
	unsigned int orders = 0;
	char label[64];

	for (int s = 0; s < nr_sets; s++) {
		const struct rpt_shape_zone *z = find_zone(&sh[s], zone);

		if (z && z->nr_orders > orders)
			orders = z->nr_orders;
	}
	fprintf(f, "\nzone %s\n", zone);
	print_blocks(f, sets, nr_sets, sh, zone, NULL, orders, "free blocks (buddyinfo)");
	for (unsigned int t = 0; sh[0].has_types && t < sh[0].nr_types; t++) {
		char title[64];

		snprintf(title, sizeof(title), "free %s", sh[0].types[t]);
		print_blocks(f, sets, nr_sets, sh, zone, sh[0].types[t], orders, title);
	}
	order_header(f, "unusable_index", orders, NULL);
	for (int s = 0; s < nr_sets; s++) {
		const struct rpt_shape_zone *z = find_zone(&sh[s], zone);

		fprintf(f, "  %-*.*s", LABEL_W - 2, LABEL_W - 2, set_label(&sets[s]));
		for (unsigned int o = 0; o < orders; o++)
			cell(f, "%.3f", z ? z->unusable[o] : NAN, z && o < z->nr_orders);
		fputc('\n', f);
		if (s == 0 || !base || !z)
			continue;
		snprintf(label, sizeof(label), "  %s diff", set_label(&sets[s]));
		fprintf(f, "%-*.*s", LABEL_W, LABEL_W, label);
		for (unsigned int o = 0; o < orders; o++)
			cell(f, "%+.3f", z->unusable[o] - base->unusable[o],
			     o < z->nr_orders && o < base->nr_orders);
		fputc('\n', f);
	}
	order_header(f, "extfrag_index", orders, NULL);
	for (int s = 0; s < nr_sets; s++) {
		const struct rpt_shape_zone *z = find_zone(&sh[s], zone);

		fprintf(f, "  %-*.*s", LABEL_W - 2, LABEL_W - 2, set_label(&sets[s]));
		for (unsigned int o = 0; o < orders; o++)
			cell(f, "%.3f", z && z->extfrag_n[o] ? z->extfrag[o] : -1.0,
			     z && o < z->nr_orders);
		fputc('\n', f);
	}
}

/* Fixed-point: rounded to 6 decimals; non-finite values are null. */
static json_t *jnum(double v)
{
	if (!isfinite(v))
		return json_null();
	v = round(v * 1e6) / 1e6;
	return json_real(v == 0 ? 0.0 : v);
}

static json_t *jorders(const double *v, unsigned int n, double scale)
{
	json_t *a = json_array();

	for (unsigned int o = 0; o < n; o++)
		json_array_append_new(a, jnum(v[o] * scale));
	return a;
}

static json_t *json_window(const struct rpt_set *sets, int nr_sets, const struct rpt_shape *sh,
			   bool last)
{
	json_t *w = json_object(), *zones = json_array();

	if (last) {
		json_object_set_new(w, "window", json_string("last"));
	} else {
		json_object_set_new(w, "from", jnum(sh[0].from));
		json_object_set_new(w, "to", sh[0].to >= 1e300 ? json_string("end") : jnum(sh[0].to));
	}
	for (unsigned int i = 0; i < sh[0].nr_zones; i++) {
		const char *zone = sh[0].z[i].zone;
		json_t *zo = json_object(), *per = json_array();

		json_object_set_new(zo, "zone", json_string(zone));
		for (int s = 0; s < nr_sets; s++) {
			const struct rpt_shape_zone *z = find_zone(&sh[s], zone);
			json_t *r = json_object(), *types = json_object();
			double ext[PROC_MAX_ORDERS];

			json_object_set_new(r, "name", json_string(set_label(&sets[s])));
			json_object_set_new(r, "samples", json_integer(sh[s].samples));
			json_object_set_new(r, "last_time", jnum(sh[s].last_time));
			if (!z) {
				json_array_append_new(per, r);
				continue;
			}
			json_object_set_new(r, "free_blocks", jorders(z->blocks, z->nr_orders, 1));
			json_object_set_new(r, "free_pages", jnum(pages_of(z->blocks, z->nr_orders)));
			for (unsigned int t = 0; sh[s].has_types && t < sh[s].nr_types; t++) {
				json_t *to = json_object();

				json_object_set_new(to, "free_blocks",
						    jorders(z->type_blocks[t], z->nr_orders, 1));
				json_object_set_new(to, "free_pages",
						    jnum(pages_of(z->type_blocks[t], z->nr_orders)));
				json_object_set_new(types, sh[s].types[t], to);
			}
			json_object_set_new(r, "types", types);
			json_object_set_new(r, "unusable_index", jorders(z->unusable, z->nr_orders, 1));
			for (unsigned int o = 0; o < z->nr_orders; o++)
				ext[o] = z->extfrag_n[o] ? z->extfrag[o] : -1.0;
			json_object_set_new(r, "extfrag_index", jorders(ext, z->nr_orders, 1));
			json_array_append_new(per, r);
		}
		json_object_set_new(zo, "results", per);
		json_array_append_new(zones, zo);
	}
	json_object_set_new(w, "zones", zones);
	return w;
}

int rpt_shape_print(FILE *f, const struct rpt_set *sets, int nr_sets,
		    const struct rpt_window *w, unsigned int nr_w, bool json,
		    char *err, size_t errlen)
{
	struct rpt_shape *sh = xzalloc((size_t)nr_sets * sizeof(*sh));
	json_t *root = NULL, *wins = NULL;
	int rc = 0;

	if (json) {
		root = json_object();
		wins = json_array();
		json_object_set_new(root, "schema", json_string("slowpath-shape/1"));
	}

	for (unsigned int k = 0; k <= nr_w && !rc; k++) {
		double from = k < nr_w ? w[k].from : 0, to = k < nr_w ? w[k].to : -1;

		for (int s = 0; s < nr_sets && !rc; s++)
			rc = rpt_shape_load(sets[s].runs[0].dir, from, isinf(to) ? 1e300 : to, &sh[s],
					    err, errlen);
		if (rc)
			break;
		if (json) {
			if (k < nr_w)
				json_array_append_new(wins, json_window(sets, nr_sets, sh, false));
			else
				json_object_set_new(root, "last", json_window(sets, nr_sets, sh, true));
			continue;
		}
		if (k < nr_w) {
			fprintf(f, "\nFree-memory shape, mean over %g-", from);
			if (isinf(to))
				fprintf(f, "end");
			else
				fprintf(f, "%g", to);
			fprintf(f, " s after the first sample (samples:");
		} else {
			fprintf(f, "\nFree-memory shape at the last sample (time:");
		}
		for (int s = 0; s < nr_sets; s++)
			if (k < nr_w)
				fprintf(f, " %s=%u", set_label(&sets[s]), sh[s].samples);
		if (k == nr_w)
			for (int s = 0; s < nr_sets; s++)
				fprintf(f, " %s=%g s", set_label(&sets[s]), sh[s].last_time);
		fprintf(f, ")\n");
		for (unsigned int i = 0; i < sh[0].nr_zones; i++) {
			bool everywhere = true;

			for (int s = 1; s < nr_sets; s++)
				everywhere &= find_zone(&sh[s], sh[0].z[i].zone) != NULL;
			if (everywhere)
				print_zone(f, sets, nr_sets, sh, sh[0].z[i].zone);
		}
	}
	if (json) {
		json_object_set_new(root, "windows", wins);
		if (!rc) {
			rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(15)) ? 1 : 0;
			fputc('\n', f);
		}
		json_decref(root);
	}
	free(sh);
	return rc;
}
