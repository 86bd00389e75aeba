/* SPDX-License-Identifier: MIT */
/*
 * plot.h — plots of result sets through gnuplot (SVG and PNG): TPS over
 * time, latency CDF, stall counters over time, free pages per order over
 * time (heat map from proc-buddyinfo), pageblock migratetype mix over time
 * (proc-pagetypeinfo).  One plot per metric across all sets.  The data
 * files and the gnuplot script stay in the plot folder, so a plot can be
 * re-run or restyled by hand (docs/report.md).
 */
#ifndef SLOWPATH_REPORT_PLOT_H
#define SLOWPATH_REPORT_PLOT_H

#include <stddef.h>

#include "report/load.h"

struct rpt_plot {
	char	*name;		/* file stem: "tps", "stall-compact_stall", ... */
	char	*title;
	char	*note;		/* what the data is (means, iteration 1, ...) */
};

struct rpt_plots {
	struct rpt_plot *v;
	size_t	n, cap;
};

/*
 * Write DIR/<name>.dat files and DIR/plots.gp, then run gnuplot (no shell)
 * in DIR to produce <name>.svg and <name>.png.  The sets need
 * RPT_LOAD_SERIES; monitors are read here.  extra: names given with
 * `report --plot`, each a vmstat counter (plotted over time from the
 * proc-vmstat monitor, "vmstat-<name>") or a figure (a bar per set,
 * "figure-<name>"); check them with rpt_plot_source() first.  Returns 0,
 * -1 with err for bad input (a malformed monitor file), -2 with err when
 * gnuplot fails.
 */
int rpt_plots_make(const char *dir, const struct rpt_set *sets, int nr_sets,
		   char *const *extra, size_t nr_extra, struct rpt_plots *out, char *err, size_t errlen);
/* Only the data files and the script, no gnuplot (for golden tests). */
int rpt_plots_write(const char *dir, const struct rpt_set *sets, int nr_sets,
		    char *const *extra, size_t nr_extra, struct rpt_plots *out,
		    char *err, size_t errlen);

/* What a --plot name is in the sets: a vmstat counter (result.json
 * "vmstat"), else a figure, else nothing. */
enum rpt_plot_src { RPT_PLOT_NONE, RPT_PLOT_VMSTAT, RPT_PLOT_FIGURE };
enum rpt_plot_src rpt_plot_source(const struct rpt_set *sets, int nr_sets, const char *name);
int rpt_plots_run_gnuplot(const char *dir, char *err, size_t errlen);
void rpt_plots_release(struct rpt_plots *p);

#endif
