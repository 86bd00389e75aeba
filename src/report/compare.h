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

#include "report/emitter.h"
#include "report/load.h"
#include "report/stats.h"

/* The statistics rows, in the order the text prints them. */
enum rpt_cmp_stat {
	RPT_ST_MIN, RPT_ST_MAX, RPT_ST_AMEAN, RPT_ST_HMEAN, RPT_ST_STDDEV, RPT_ST_COEFFVAR,
	RPT_ST_BAMEAN95, RPT_NR_ST
};
extern const char *const rpt_cmp_stat_names[RPT_NR_ST];	/* "Min", ... */

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

/* One cell of the statistics block: what every format prints. */
struct rpt_cmp_cell {
	double		v;		/* the statistic */
	double		diff;		/* % vs the baseline (0 for it): pdiff or pndiff */
	bool		sig;		/* Welch's test rejects equal means */
};

/* One row of the statistics block ("Amean tps"). */
struct rpt_cmp_line {
	size_t		metric;		/* index into m[] */
	enum rpt_cmp_stat stat;
	struct rpt_cmp_cell *cell;	/* [set] */
	bool		shown;		/* printed without --all */
};

struct rpt_cmp_row {			/* Ops and per-million rows: one value per set */
	char		*label;		/* borrowed for per-million rows */
	double		*v;		/* [set] mean per iteration */
	bool		shown;		/* printed without --all */
};

/* rpt_cmp_build flags */
#define RPT_CMP_ALL	0x1u	/* every row shown, not only those that differ */

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
	/* What the formats print, derived once from the above: */
	struct rpt_cmp_line *lines;	/* statistics rows */
	size_t		nr_lines;
	struct rpt_cmp_row *pm_rows;	/* per-million rows: Amean of pm[] */
	struct rpt_cmp_row *io;		/* iostat -x rows from proc-diskstats: mean per set */
	size_t		nr_io;
	struct rpt_cmp_row *tp;		/* trace-counts rows: hits/s, mean per set */
	size_t		nr_tp;
	struct rpt_cmp_row *cpu;	/* proc-stat rows (RPT_LOAD_CPU), mean per set */
	size_t		nr_cpu;
	bool		all;		/* RPT_CMP_ALL */
};

/*
 * Rows shown without RPT_CMP_ALL: those where some set's printed value
 * differs from the baseline's or the difference is significant (every
 * row when there is one set); of a metric with at most one sample per
 * set, Min, Max, Stddev, CoeffVar and BAmean-95 are never shown (they
 * repeat Amean or are 0).
 */
void rpt_cmp_build(struct rpt_cmp *c, struct rpt_set *sets, int nr_sets, unsigned int flags);
void rpt_cmp_release(struct rpt_cmp *c);
/* The row "Amean tps" (stat, metric name), or NULL. */
const struct rpt_cmp_line *rpt_cmp_find_line(const struct rpt_cmp *c, enum rpt_cmp_stat stat,
					     const char *metric);

/* mmtests layout, as text or as HTML tables (rpt_emitter). */
void rpt_cmp_print_text(FILE *f, const struct rpt_cmp *c, bool html);
/* Header rows, then the given statistics lines, Ops rows and per-million
 * rows, as one table (the HTML report's summary). */
void rpt_cmp_emit_rows(struct rpt_emitter *e, const struct rpt_cmp *c,
		       const struct rpt_cmp_line *const *lines, size_t nr_lines,
		       const struct rpt_cmp_row *const *ops, size_t nr_ops,
		       const struct rpt_cmp_row *const *pm, size_t nr_pm);
void rpt_cmp_print_lkp(FILE *f, const struct rpt_cmp *c);
int rpt_cmp_print_json(FILE *f, const struct rpt_cmp *c);

#endif
