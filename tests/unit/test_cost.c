/* SPDX-License-Identifier: MIT */
#include "harness.h"
#include "sim/cost.h"
#include "sim/rng.h"

/* A test that the decimal ns parser stores exact picoseconds and rejects
 * malformed text.  Expect 0.08 -> 80 ps, "1." -> 1000 ps, junk -> -1. */
TEST(cost_parse_ns)
{
	uint64_t ps = 0;

	ASSERT_EQ(cost_parse_ns("90", &ps), 0);
	ASSERT_U64_EQ(ps, 90000);
	ASSERT_EQ(cost_parse_ns("0.08", &ps), 0);
	ASSERT_U64_EQ(ps, 80);
	ASSERT_EQ(cost_parse_ns("1.", &ps), 0);
	ASSERT_U64_EQ(ps, 1000);
	ASSERT_EQ(cost_parse_ns(".5", &ps), 0);
	ASSERT_U64_EQ(ps, 500);
	ASSERT_EQ(cost_parse_ns("0.0001", &ps), -1);
	ASSERT_EQ(cost_parse_ns("", &ps), -1);
	ASSERT_EQ(cost_parse_ns(".", &ps), -1);
	ASSERT_EQ(cost_parse_ns("1e3", &ps), -1);
	ASSERT_EQ(cost_parse_ns("-1", &ps), -1);
	ASSERT_EQ(cost_parse_ns("99999999999999999999", &ps), -1);
}

/* A test that every default in costs.def parses and has a unit and a
 * source.  Expect no row with an empty unit/source or unparsable value. */
TEST(cost_table_rows_complete)
{
	struct cost_table t;

	cost_table_init(&t);
	for (int i = 0; i < NR_COSTS; i++) {
		uint64_t ps;

		ASSERT_EQ(cost_parse_ns(cost_info[i].default_text, &ps), 0);
		ASSERT_U64_EQ(ps, t.ps[i]);
		ASSERT_TRUE(cost_info[i].unit[0] != '\0');
		ASSERT_TRUE(cost_info[i].source[0] != '\0');
		ASSERT_EQ(cost_lookup(cost_info[i].name), i);
	}
	ASSERT_EQ(cost_lookup("no_such_cost"), -1);
}

/* A test that RNG streams depend only on (seed, stream id): the same pair
 * repeats, a different stream or seed differs.  Expect equal first draws
 * for equal pairs and different draws otherwise. */
TEST(rng_streams_independent)
{
	struct sim_rng a, b, c, d;

	rng_init(&a, 42, rng_stream_id("backend", 1));
	rng_init(&b, 42, rng_stream_id("backend", 1));
	rng_init(&c, 42, rng_stream_id("backend", 2));
	rng_init(&d, 43, rng_stream_id("backend", 1));
	for (int i = 0; i < 100; i++) {
		uint64_t x = rng_next(&a);

		ASSERT_U64_EQ(x, rng_next(&b));
		ASSERT_TRUE(x != rng_next(&c));
		ASSERT_TRUE(x != rng_next(&d));
	}
	for (int i = 0; i < 10000; i++)
		ASSERT_TRUE(rng_below(&a, 7) < 7);
}
