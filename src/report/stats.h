/* SPDX-License-Identifier: MIT */
/*
 * stats.h — the statistics of `slowpath compare`, as mmtests defines them
 *, plus Welch's two-sample t-test for the
 * significance marker.  GSL does the arithmetic where it has a routine.
 *
 * Definitions (samples x_1..x_n, one per iteration):
 *   Min, Max      smallest, largest sample
 *   Amean         arithmetic mean
 *   Hmean         harmonic mean n / sum(1/x_i); NaN unless every x_i > 0
 *   Stddev        sample standard deviation (n - 1 in the denominator);
 *                 0 for n = 1
 *   CoeffVar      Stddev / Amean * 100 (percent); 0 when Stddev is 0
 *   BAmean-NN     arithmetic mean of the best floor(n * NN / 100) samples
 *                 (at least one); "best" = highest when higher is better,
 *                 lowest when lower is better
 *   pdiff         new / base * 100 - 100 (higher is better)
 *   pndiff        100 - new / base * 100 (lower is better: stddev,
 *                 coeffvar, latency), so a positive value is always an
 *                 improvement; 0 when both are 0, +-inf when only base is 0
 */
#ifndef SLOWPATH_REPORT_STATS_H
#define SLOWPATH_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum rpt_better {
	RPT_BETTER_NONE = 0,	/* no direction (a share, a count): pdiff, no BAmean */
	RPT_BETTER_HIGHER = 1,
	RPT_BETTER_LOWER = -1,
};

struct rpt_stats {
	size_t	n;		/* samples */
	double	min, max, amean, hmean, stddev, coeffvar, bamean95;
};

/* NaN in every field when n == 0. */
void rpt_stats_compute(const double *x, size_t n, enum rpt_better better, struct rpt_stats *out);
double rpt_bamean(const double *x, size_t n, double percent, enum rpt_better better);
double rpt_hmean(const double *x, size_t n);
double rpt_pdiff(double base, double v);
double rpt_pndiff(double base, double v);

/*
 * Welch's unequal-variance t-test of H0 "equal means", two-sided.
 * valid is false (and nothing is significant) when either side has fewer
 * than two samples or both variances are zero: significance is then not
 * computable and is never claimed.
 */
struct rpt_welch {
	bool	valid;
	double	t, df, p;
	bool	significant;	/* valid && p < alpha */
};
void rpt_welch_test(const double *a, size_t na, const double *b, size_t nb, double alpha,
		    struct rpt_welch *out);

#define RPT_ALPHA 0.05

#endif
