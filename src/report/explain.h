/* SPDX-License-Identifier: MIT */
/*
 * explain.h — the attribution views behind `slowpath explain` and the HTML
 * report: a call-path tree with Children/Self percentages like
 * `perf report --children`, and a baseline-vs-new tree like `perf diff`
 * (docs/report.md).
 */
#ifndef SLOWPATH_REPORT_EXPLAIN_H
#define SLOWPATH_REPORT_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "report/load.h"

struct rpt_explain_opts {
	unsigned int	times;		/* bit mask of 1 << enum rpt_time */
	double		percent_limit;	/* hide paths below this share */
	const char	*kind;		/* only this task kind, or NULL */
	const char	*focus;		/* root the tree at this function, or NULL */
};

/* "work" (cpu+spin+sleep+io+runq: the default), "all" (work + idle),
 * "wait" (work - cpu) or a comma list of cpu,spin,sleep,io,runq,idle. */
int rpt_explain_parse_times(const char *s, unsigned int *mask);
void rpt_explain_opts_default(struct rpt_explain_opts *o);

/* Returns -1 (nothing printed) when o->kind names no kind in p or
 * o->focus no function. */
int rpt_explain_print(FILE *f, const struct rpt_set *s, const struct rpt_profile *p,
		      const struct rpt_explain_opts *o, bool html);
int rpt_explain_print_diff(FILE *f, const struct rpt_set *sa, const struct rpt_profile *a,
			   const struct rpt_set *sb, const struct rpt_profile *b,
			   const struct rpt_explain_opts *o, bool html);

#endif
