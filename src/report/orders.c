/* SPDX-License-Identifier: MIT */
/*
 * orders.c — `slowpath compare --orders`: the page cache's folio
 * allocations per order and what became of them, from the model-only
 * vmstat counters of result.json (src/mm/vmstat.h: sim_pagecache_attempt,
 * sim_pagecache_alloc, sim_slowpath, sim_slowpath_fail, one per order).
 * filemap_alloc_folio() tries the largest order the write allows and
 * falls back order by order; a costly attempt (order > 3) that reaches the
 * slow path is where the WALWriteLock holder stalls in the motivating
 * case (docs/calibration.md).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report/orders.h"

#define NR_ORDERS	11

static double counter(const struct rpt_set *s, const char *what, unsigned int order)
{
	char name[64];

	snprintf(name, sizeof(name), "sim_%s_order%u", what, order);
	return rpt_set_named_mean(s, offsetof(struct rpt_run, vmstat), name, NULL);
}

void rpt_order_row(const struct rpt_set *s, unsigned int order, struct rpt_order_row *out)
{
	out->attempts = counter(s, "pagecache_attempt", order);
	out->allocated = counter(s, "pagecache_alloc", order);
	out->slowpath = counter(s, "slowpath", order);
	out->slowpath_fail = counter(s, "slowpath_fail", order);
}

/* a / b in percent; NaN when either is missing or b is 0. */
static double pct(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : 100.0 * a / b;
}

static void put_count(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %12s", "-");
	else
		fprintf(f, " %12.0f", v);
}

static void put_pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %8.2f%%", v);
}

static bool order_used(const struct rpt_set *sets, int nr_sets, unsigned int o)
{
	for (int s = 0; s < nr_sets; s++) {
		struct rpt_order_row r;

		rpt_order_row(&sets[s], o, &r);
		if ((!isnan(r.attempts) && r.attempts > 0) || (!isnan(r.slowpath) && r.slowpath > 0))
			return true;
	}
	return false;
}

static json_t *jnum_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static int print_json(FILE *f, const struct rpt_set *sets, int nr_sets)
{
	json_t *root = json_object(), *orders = json_array();
	int rc;

	json_object_set_new(root, "schema", json_string("slowpath-orders/1"));
	for (unsigned int o = 0; o < NR_ORDERS; o++) {
		json_t *jo, *per;

		if (!order_used(sets, nr_sets, o))
			continue;
		jo = json_object();
		per = json_array();
		json_object_set_new(jo, "order", json_integer(o));
		json_object_set_new(jo, "costly", json_boolean(o > 3));
		for (int s = 0; s < nr_sets; s++) {
			struct rpt_order_row r;
			json_t *js = json_object();

			rpt_order_row(&sets[s], o, &r);
			json_object_set_new(js, "name", json_string(sets[s].name));
			json_object_set_new(js, "attempts", jnum_or_null(r.attempts));
			json_object_set_new(js, "allocated", jnum_or_null(r.allocated));
			json_object_set_new(js, "fell_back_pct",
					    jnum_or_null(pct(r.attempts - r.allocated, r.attempts)));
			json_object_set_new(js, "slowpath", jnum_or_null(r.slowpath));
			json_object_set_new(js, "slowpath_fail", jnum_or_null(r.slowpath_fail));
			json_object_set_new(js, "slowpath_per_attempt_pct",
					    jnum_or_null(pct(r.slowpath, r.attempts)));
			json_array_append_new(per, js);
		}
		json_object_set_new(jo, "results", per);
		json_array_append_new(orders, jo);
	}
	json_object_set_new(root, "orders", orders);
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) ? 1 : 0;
	fputc('\n', f);
	json_decref(root);
	return rc;
}

int rpt_orders_print(FILE *f, const struct rpt_set *sets, int nr_sets, bool json)
{
	int w = 10;

	if (json)
		return print_json(f, sets, nr_sets);
	for (int s = 0; s < nr_sets; s++) {
		int n = (int)strlen(sets[s].name);

		if (n > w)
			w = n;
	}
	fprintf(f, "Page-cache folio allocations per order (measured phase; the slow-path\n"
		   "columns count every caller of that order, sp/att = slow-path entries per\n"
		   "page-cache attempt)\n");
	fprintf(f, "%5s  %-*s %12s %9s %12s %12s %9s\n", "order", w, "", "attempts", "fell back",
		"slowpath", "sp failed", "sp/att");
	for (unsigned int o = 0; o < NR_ORDERS; o++) {
		if (!order_used(sets, nr_sets, o))
			continue;
		for (int s = 0; s < nr_sets; s++) {
			struct rpt_order_row r;

			rpt_order_row(&sets[s], o, &r);
			if (s == 0)
				fprintf(f, "%4u%c  ", o, o > 3 ? '*' : ' ');
			else
				fprintf(f, "%5s  ", "");
			fprintf(f, "%-*s", w, sets[s].name);
			put_count(f, r.attempts);
			put_pct(f, pct(r.attempts - r.allocated, r.attempts));
			put_count(f, r.slowpath);
			put_count(f, r.slowpath_fail);
			put_pct(f, pct(r.slowpath, r.attempts));
			fputc('\n', f);
		}
	}
	fprintf(f, "(* costly: order > PAGE_ALLOC_COSTLY_ORDER)\n");
	return 0;
}
