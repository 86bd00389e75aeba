/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "harness.h"
#include "report/stats.h"

/* A test that the summary statistics match values computed by hand for
 * 1..5.  Expect mean 3, sample stddev sqrt(2.5), CoeffVar 52.7046%,
 * Hmean 5/(1+1/2+1/3+1/4+1/5) = 2.189781, BAmean-95 of the best 4 samples
 * (3.5 higher-is-better, 2.5 lower-is-better), min 1, max 5. */
TEST(stats_by_hand)
{
	const double x[] = { 3, 1, 5, 2, 4 };
	struct rpt_stats st;

	rpt_stats_compute(x, 5, RPT_BETTER_HIGHER, &st);
	ASSERT_EQ(st.n, 5);
	ASSERT_NEAR(st.min, 1, 0);
	ASSERT_NEAR(st.max, 5, 0);
	ASSERT_NEAR(st.amean, 3, 1e-12);
	ASSERT_NEAR(st.stddev, sqrt(2.5), 1e-12);
	ASSERT_NEAR(st.coeffvar, 52.704627669473, 1e-9);
	ASSERT_NEAR(st.hmean, 2.189781021897810, 1e-12);
	ASSERT_NEAR(st.bamean95, 3.5, 1e-12);
	rpt_stats_compute(x, 5, RPT_BETTER_LOWER, &st);
	ASSERT_NEAR(st.bamean95, 2.5, 1e-12);
	ASSERT_NEAR(rpt_bamean(x, 5, 50, RPT_BETTER_HIGHER), 4.5, 1e-12);
	ASSERT_NEAR(rpt_bamean(x, 5, 99, RPT_BETTER_HIGHER), 3.5, 1e-12);
	ASSERT_TRUE(isnan(rpt_bamean(x, 5, 95, RPT_BETTER_NONE)));
}

/* A test of the single-sample and empty cases mmtests prints for a plain
 * folder.  Expect n = 1: stddev 0, CoeffVar 0, BAmean = the sample;
 * n = 0: NaN everywhere; Hmean NaN when a sample is not positive. */
TEST(stats_degenerate)
{
	const double one[] = { 42 }, withzero[] = { 3, 0, 2 };
	struct rpt_stats st;

	rpt_stats_compute(one, 1, RPT_BETTER_HIGHER, &st);
	ASSERT_NEAR(st.stddev, 0, 0);
	ASSERT_NEAR(st.coeffvar, 0, 0);
	ASSERT_NEAR(st.bamean95, 42, 0);
	ASSERT_NEAR(st.hmean, 42, 1e-12);
	rpt_stats_compute(NULL, 0, RPT_BETTER_HIGHER, &st);
	ASSERT_TRUE(isnan(st.amean) && isnan(st.stddev) && isnan(st.min));
	ASSERT_TRUE(isnan(rpt_hmean(withzero, 3)));
}

/* A test of mmtests' percentage differences.  Expect pdiff(100, 110) = 10,
 * pndiff(100, 110) = -10 (worse when lower is better), 0 for 0 vs 0 and
 * +-inf when only the baseline is 0. */
TEST(stats_pdiff)
{
	ASSERT_NEAR(rpt_pdiff(100, 110), 10, 1e-12);
	ASSERT_NEAR(rpt_pndiff(100, 110), -10, 1e-12);
	ASSERT_NEAR(rpt_pdiff(200, 50), -75, 1e-12);
	ASSERT_NEAR(rpt_pndiff(200, 50), 75, 1e-12);
	ASSERT_NEAR(rpt_pdiff(0, 0), 0, 0);
	ASSERT_NEAR(rpt_pndiff(0, 0), 0, 0);
	ASSERT_TRUE(isinf(rpt_pdiff(0, 5)) && rpt_pdiff(0, 5) > 0);
	ASSERT_TRUE(isinf(rpt_pndiff(0, 5)) && rpt_pndiff(0, 5) < 0);
}

/* A test that the Student t tail we rely on is GSL's and right where it is
 * known in closed form.  Expect Q(1; 1) = 1/4 (Cauchy) and
 * Q(2; 2) = 1/2 - 1/sqrt(6). */
TEST(stats_tdist_closed_form)
{
	ASSERT_NEAR(gsl_cdf_tdist_Q(1.0, 1.0), 0.25, 1e-12);
	ASSERT_NEAR(gsl_cdf_tdist_Q(2.0, 2.0), 0.5 - 1.0 / sqrt(6.0), 1e-12);
}

/* A test of Welch's t-test against hand arithmetic: a = 1..5, b = 2,4..10.
 * Expect t = 3/sqrt(2.5) = 1.897367, df = 6.25/1.0625 = 5.882353, and a
 * two-sided p = 0.10753 (numerical integration of the t density, done
 * apart from GSL): not significant. */
TEST(stats_welch_by_hand)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	struct rpt_welch w;

	rpt_welch_test(a, 5, b, 5, RPT_ALPHA, &w);
	ASSERT_TRUE(w.valid);
	ASSERT_NEAR(w.t, 1.8973665961010275, 1e-12);
	ASSERT_NEAR(w.df, 5.882352941176471, 1e-12);
	ASSERT_NEAR(w.p, 0.1075, 5e-5);
	ASSERT_FALSE(w.significant);
}

/* A test against R's documented example t.test(extra ~ group, data =
 * sleep): "t = -1.8608, df = 17.776, p-value = 0.07939".  Expect the same
 * |t|, df and p to the printed precision, not significant at 0.05. */
TEST(stats_welch_r_sleep)
{
	const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct rpt_welch w;

	rpt_welch_test(g2, 10, g1, 10, RPT_ALPHA, &w);
	ASSERT_TRUE(w.valid);
	ASSERT_NEAR(w.t, -1.8608, 5e-5);
	ASSERT_NEAR(w.df, 17.776, 5e-4);
	ASSERT_NEAR(w.p, 0.07939, 5e-6);
	ASSERT_FALSE(w.significant);
}

/* A test that clearly separated samples are significant and that
 * significance is never claimed when it cannot be computed.  Expect
 * significant for 70k vs 155k TPS over 3 samples each; invalid with one
 * sample on a side, or with zero variance on both sides. */
TEST(stats_welch_validity)
{
	const double base[] = { 70120.5, 69480.25, 71033.75 };
	const double nb[] = { 154870.0, 156012.75, 155240.25 };
	const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6 };
	struct rpt_welch w;

	rpt_welch_test(base, 3, nb, 3, RPT_ALPHA, &w);
	ASSERT_TRUE(w.valid && w.significant);
	ASSERT_TRUE(w.p < 1e-4);
	rpt_welch_test(base, 3, nb, 1, RPT_ALPHA, &w);
	ASSERT_FALSE(w.valid || w.significant);
	rpt_welch_test(same, 3, other, 3, RPT_ALPHA, &w);
	ASSERT_FALSE(w.valid || w.significant);
}
