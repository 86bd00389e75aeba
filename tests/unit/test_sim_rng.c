/* SPDX-License-Identifier: MIT */
/* Tests of the RNG: the generator against its published reference output,
 * independence of streams derived from (seed, stream id), the normal
 * deviate used by the device latency model. */
#include <math.h>

#include "harness.h"
#include "sim/rng.h"

/* A test of xoshiro256** against the reference implementation's output
 * for the state {1, 2, 3, 4}.  Expect 11520, 0, 1509978240,
 * 1215971899390074240, 1216172134540287360, 607988272756665600. */
TEST(rng_xoshiro_reference_vector)
{
	struct sim_rng r = { { 1, 2, 3, 4 } };
	const uint64_t expect[6] = {
		11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL,
		1216172134540287360ULL, 607988272756665600ULL,
	};

	for (int i = 0; i < 6; i++)
		ASSERT_U64_EQ(rng_next(&r), expect[i]);
}

/* A test that neighbouring streams are statistically independent: the
 * Pearson correlation of 100000 uniform draws from streams ("backend", i)
 * and ("backend", i + 1), for i = 0..7, and between the same stream under
 * seeds 1 and 2.  Expect |r| < 0.02 every time (for independent streams
 * the standard error is 1/sqrt(n) ~ 0.003; the draws are fixed, so this
 * cannot flake). */
TEST(rng_neighbour_streams_uncorrelated)
{
	const int n = 100000;

	for (int i = 0; i < 9; i++) {
		struct sim_rng a, b;
		double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, r;

		if (i < 8) {
			rng_init(&a, 1, rng_stream_id("backend", (uint64_t)i));
			rng_init(&b, 1, rng_stream_id("backend", (uint64_t)i + 1));
		} else {
			rng_init(&a, 1, rng_stream_id("backend", 0));
			rng_init(&b, 2, rng_stream_id("backend", 0));
		}
		for (int k = 0; k < n; k++) {
			double x = rng_double(&a), y = rng_double(&b);

			sa += x;
			sb += y;
			saa += x * x;
			sbb += y * y;
			sab += x * y;
		}
		r = (n * sab - sa * sb) / sqrt((n * saa - sa * sa) * (n * sbb - sb * sb));
		ASSERT_NEAR(r, 0.0, 0.02);
	}
}

/* A test that stream ids separate names and instances.  Expect distinct
 * ids for ("backend", 0..999), ("kswapd", 0) and ("backend0", 0). */
TEST(rng_stream_ids_distinct)
{
	uint64_t ids[1002];
	int n = 0;

	for (int i = 0; i < 1000; i++)
		ids[n++] = rng_stream_id("backend", (uint64_t)i);
	ids[n++] = rng_stream_id("kswapd", 0);
	ids[n++] = rng_stream_id("backend0", 0);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			ASSERT_TRUE(ids[i] != ids[j]);
}

/* A test of the normal deviate: 200000 draws.  Expect mean ~0 (+-0.01),
 * variance ~1 (+-0.02) and about 1 % of draws beyond 2.326. */
TEST(rng_normal_moments)
{
	struct sim_rng r;
	double s = 0, ss = 0;
	int tail = 0;
	const int n = 200000;

	rng_init(&r, 9, rng_stream_id("normal", 0));
	for (int i = 0; i < n; i++) {
		double x = rng_normal(&r);

		s += x;
		ss += x * x;
		tail += x > 2.3263478740408408;
	}
	ASSERT_NEAR(s / n, 0.0, 0.01);
	ASSERT_NEAR(ss / n - (s / n) * (s / n), 1.0, 0.02);
	ASSERT_NEAR((double)tail / n, 0.01, 0.001);
}
