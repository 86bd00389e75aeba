/* SPDX-License-Identifier: MIT */
/*
 * compare.h — the comparison model behind `slowpath compare` and the HTML
 * report: statistics rows per metric, vmstat "Ops" rows and the
 * per-million-nr_written rows, computed once and rendered as mmtests text,
 * LKP text, JSON or HTML (docs/report.md).
 */
#ifndef SLOWPATH_REPORT_COMPARE_H
#define SLOWPATH_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "report/load.h"
#include "report/stats.h"

struct rpt_cmp_metric {
	char		*name;		/* row label: "tps", "latency_p95_ms", ... */
	char		*lkp_name;	/* "slowpath.tps", "figures.x", ... */
	char		*unit;
	enum rpt_better	better;
	bool		throughput;	/* has an Hmean row */
	double		**x;		/* [set][i] samples */
	size_t		*n;		/* [set] */
	struct rpt_stats *st;		/* [set] */
	struct rpt_welch *w_amean;	/* [set] vs set 0 (set 0: invalid) */
	struct rpt_welch *w_hmean;	/* on reciprocals */
};

struct rpt_cmp_row {			/* Ops and per-million rows: one value per set */
	char		*label;
	double		*v;		/* [set] mean per iteration */
};

struct rpt_cmp {
	struct rpt_set	*sets;		/* borrowed */
	int		nr_sets;
	struct rpt_cmp_metric *m;
	size_t		nr_m;
	struct rpt_cmp_row *ops;
	size_t		nr_ops;
	struct rpt_cmp_metric *pm;	/* per 10^6 nr_written (lower is better) */
	size_t		nr_pm;
	struct rpt_cmp_metric *vm;	/* every vmstat counter (LKP, JSON) */
	size_t		nr_vm;
};

void rpt_cmp_build(struct rpt_cmp *c, struct rpt_set *sets, int nr_sets);
void rpt_cmp_release(struct rpt_cmp *c);

/* mmtests layout; html escapes text and marks significant cells with
 * <span class="sig">. */
void rpt_cmp_print_text(FILE *f, const struct rpt_cmp *c, bool html);
void rpt_cmp_print_lkp(FILE *f, const struct rpt_cmp *c);
int rpt_cmp_print_json(FILE *f, const struct rpt_cmp *c);

/* Escape <, >, & and " for HTML. */
void rpt_html_escape(FILE *f, const char *s);

#endif
