/* SPDX-License-Identifier: MIT */
/*
 * html.h — the HTML report of loaded result sets, for `slowpath report`
 * and `slowpath sweep` (its aggregate).  Layout in docs/report.md.
 */
#ifndef SLOWPATH_REPORT_HTML_H
#define SLOWPATH_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "report/load.h"

/*
 * Plots into plots (NULL: a temporary folder, removed afterwards) unless
 * no_plots (no_gnuplot: data and scripts only), with the extra plots of
 * `report --plot` (plot.h), then the page into out (NULL: no page),
 * written to out.tmp and renamed.  Returns 0, 2 for bad input or 1 for a
 * failure (gnuplot, writing), with the message in err.
 */
int rpt_html_report(const char *out, struct rpt_set *sets, int nr, const char *plots, bool no_plots,
		    bool no_gnuplot, char *const *extra, size_t nr_extra, const char *title,
		    char *err, size_t errlen);

#endif
