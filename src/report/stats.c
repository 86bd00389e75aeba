/* SPDX-License-Identifier: MIT */
/*
 * stats.c — mmtests' summary statistics and Welch's t-test (stats.h has
 * the definitions).  Means, variances and the Student t tail come from
 * GSL; the harmonic mean and the best-NN% mean are a few lines here.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/load.h"
#include "report/stats.h"

double rpt_hmean(const double *x, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += 1.0 / x[i];
	}
	return (double)n / s;
}

double rpt_bamean(const double *x, size_t n, double percent, enum rpt_better better)
{
	double *s, sum = 0;
	size_t k;

	if (n == 0 || better == RPT_BETTER_NONE)
		return NAN;
	k = (size_t)floor((double)n * percent / 100.0);
	if (k < 1)
		k = 1;
	s = xzalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);		/* ascending */
	for (size_t i = 0; i < k; i++)
		sum += better == RPT_BETTER_HIGHER ? s[n - 1 - i] : s[i];
	free(s);
	return sum / (double)k;
}

void rpt_stats_compute(const double *x, size_t n, enum rpt_better better, struct rpt_stats *out)
{
	out->n = n;
	if (n == 0) {
		out->min = out->max = out->amean = out->hmean = NAN;
		out->stddev = out->coeffvar = out->bamean95 = NAN;
		return;
	}
	gsl_stats_minmax(&out->min, &out->max, x, 1, n);
	out->amean = gsl_stats_mean(x, 1, n);
	out->hmean = rpt_hmean(x, n);
	out->stddev = n > 1 ? gsl_stats_sd_m(x, 1, n, out->amean) : 0.0;
	if (out->stddev == 0)
		out->coeffvar = 0;
	else
		out->coeffvar = out->amean != 0 ? out->stddev / out->amean * 100.0 : NAN;
	out->bamean95 = rpt_bamean(x, n, 95, better);
}

double rpt_pdiff(double base, double v)
{
	if (base == 0 && v == 0)
		return 0;
	if (base == 0)
		return copysign(INFINITY, v);
	return v * 100.0 / base - 100.0;
}

double rpt_pndiff(double base, double v)
{
	if (base == 0 && v == 0)
		return 0;
	if (base == 0)
		return copysign(INFINITY, -v);
	return 100.0 - v * 100.0 / base;
}

void rpt_welch_test(const double *a, size_t na, const double *b, size_t nb, double alpha,
		    struct rpt_welch *out)
{
	double ma, mb, va, vb, se2, qa, qb;

	memset(out, 0, sizeof(*out));
	out->t = out->df = out->p = NAN;
	if (na < 2 || nb < 2)
		return;
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	va = gsl_stats_variance_m(a, 1, na, ma);
	vb = gsl_stats_variance_m(b, 1, nb, mb);
	qa = va / (double)na;
	qb = vb / (double)nb;
	se2 = qa + qb;
	if (!(se2 > 0))
		return;
	out->valid = true;
	out->t = (mb - ma) / sqrt(se2);
	/* Welch–Satterthwaite degrees of freedom. */
	out->df = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	out->significant = out->p < alpha;
}
