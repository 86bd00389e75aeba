/* SPDX-License-Identifier: MIT */
/*
 * orders.h — `slowpath compare --orders`: what became of the page cache's
 * folio allocations at each order, side by side for several result
 * folders (docs/report.md "Folio orders").
 */
#ifndef SLOWPATH_REPORT_ORDERS_H
#define SLOWPATH_REPORT_ORDERS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/load.h"

/* The outcomes at one order for one set: means over the set's runs of
 * the measured-phase vmstat deltas (NaN where no run has the counter). */
struct rpt_order_row {
	double	attempts;	/* sim_pagecache_attempt_orderN: filemap_alloc_folio at N */
	double	allocated;	/* sim_pagecache_alloc_orderN: ... that got a folio of N */
	double	slowpath;	/* sim_slowpath_orderN: __alloc_pages_slowpath entries, any caller */
	double	slowpath_fail;	/* sim_slowpath_fail_orderN: ... that returned no page */
};

void rpt_order_row(const struct rpt_set *s, unsigned int order, struct rpt_order_row *out);

/*
 * Per order (0..10) that any set attempted, the sets' rows side by side,
 * the first set the baseline: attempts, the share that fell back to a
 * smaller order, the slow-path entries and failures at that order (every
 * caller: page tables, slab and hugetlb pages count too) and, as the
 * issue's audit put it, slow-path entries per page-cache attempt.  Text,
 * or JSON with schema "slowpath-orders/1".  0, or 1 when writing failed.
 */
int rpt_orders_print(FILE *f, const struct rpt_set *sets, int nr_sets, bool json);

#endif
