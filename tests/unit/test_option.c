/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "harness.h"
#include "sim/option.h"

struct cfg {
	bool		b;
	uint64_t	u;
	int64_t		i;
	uint64_t	size;
	uint64_t	t;
	uint64_t	t_s;
	uint64_t	pct;
	int		e;
	char		*str;
	uint64_t	ranged;
	uint64_t	minonly;
	uint64_t	cost;
	uint32_t	u32;
	uint32_t	after_u32;	/* must survive writes to u32 */
};

static const char *const colours[] = { "red", "green", "blue", NULL };

#define F(x) offsetof(struct cfg, x)
static const struct opt_def table[] = {
	{ "b", OPT_BOOL, F(b), "1", 0, 0, NULL, 0, "a bool" },
	{ "u", OPT_UINT, F(u), "0x10", 0, 0, NULL, 0, "a uint" },
	{ "i", OPT_INT, F(i), "-5", (uint64_t)-100, 100, NULL, 0, "an int" },
	{ "size", OPT_SIZE, F(size), "4k", 0, 0, NULL, 0, "a size" },
	{ "t", OPT_TIME, F(t), "10ms", 0, 0, NULL, 0, "a time in ns" },
	{ "t_s", OPT_TIME, F(t_s), "60", 0, 0, NULL, 1000000000ULL, "a time, bare = s" },
	{ "pct", OPT_PERCENT, F(pct), "25%", 0, 0, NULL, 0, "a share" },
	{ "e", OPT_ENUM, F(e), "green", 0, 0, colours, 0, "an enum" },
	{ "str", OPT_STRING, F(str), "hello", 0, 0, NULL, 0, "a string" },
	{ "ranged", OPT_SIZE, F(ranged), NULL, 4ULL << 20, 1ULL << 40, NULL, 0, "a bounded size" },
	{ "minonly", OPT_UINT, F(minonly), "1", 1, 0, NULL, 0, "at least 1" },
	{ "cost", OPT_COST, F(cost), "0.08", 0, 0, NULL, 0, "ns per unit" },
	{ "u32", OPT_U32, F(u32), "12", 1, 0, NULL, 0, "a 32-bit count" },
	OPT_END
};

static char err[512];

static int set(struct cfg *c, const char *key, const char *value)
{
	err[0] = '\0';
	return opt_parse_value(opt_find(table, key), c, value, err, sizeof(err));
}

static const char *fmt(const struct cfg *c, const char *key)
{
	static char buf[128];

	opt_format_value(opt_find(table, key), c, buf, sizeof(buf));
	return buf;
}

/* A test that every default of the table applies, and that release frees
 * strings.  Expect the values the defaults spell, NULL string after release. */
TEST(defaults_apply)
{
	struct cfg c = { 0 };

	ASSERT_EQ(opt_apply_defaults(table, &c), 0);
	ASSERT_TRUE(c.b);
	ASSERT_U64_EQ(c.u, 16);
	ASSERT_EQ(c.i, -5);
	ASSERT_U64_EQ(c.size, 4096);
	ASSERT_U64_EQ(c.t, 10000000);
	ASSERT_U64_EQ(c.t_s, 60000000000ULL);
	ASSERT_U64_EQ(c.pct, 250000);
	ASSERT_EQ(c.e, 1);
	ASSERT_STR_EQ(c.str, "hello");
	ASSERT_U64_EQ(c.ranged, 0);
	opt_release(table, &c);
	ASSERT_TRUE(c.str == NULL);
}

/* A test of size syntax: suffixes k m g t in powers of 1024, any case,
 * optional b/ib, exact fractions.  Expect the byte counts below. */
TEST(size_suffixes)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "size", "0"), 0);
	ASSERT_U64_EQ(c.size, 0);
	ASSERT_EQ(set(&c, "size", "512"), 0);
	ASSERT_U64_EQ(c.size, 512);
	ASSERT_EQ(set(&c, "size", "512b"), 0);
	ASSERT_U64_EQ(c.size, 512);
	ASSERT_EQ(set(&c, "size", "4k"), 0);
	ASSERT_U64_EQ(c.size, 4096);
	ASSERT_EQ(set(&c, "size", "64KiB"), 0);
	ASSERT_U64_EQ(c.size, 65536);
	ASSERT_EQ(set(&c, "size", "2M"), 0);
	ASSERT_U64_EQ(c.size, 2ULL << 20);
	ASSERT_EQ(set(&c, "size", "1.5g"), 0);
	ASSERT_U64_EQ(c.size, 3ULL << 29);
	ASSERT_EQ(set(&c, "size", "384gb"), 0);
	ASSERT_U64_EQ(c.size, 384ULL << 30);
	ASSERT_EQ(set(&c, "size", "2t"), 0);
	ASSERT_U64_EQ(c.size, 2ULL << 40);
	ASSERT_EQ(set(&c, "size", ".5k"), 0);
	ASSERT_U64_EQ(c.size, 512);
	ASSERT_EQ(set(&c, "size", "16777215t"), 0);
	ASSERT_U64_EQ(c.size, 16777215ULL << 40);
}

/* A test of every way a size can be wrong.  Expect -1 and the exact
 * message for each. */
TEST(size_errors)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "size", "4x"), -1);
	ASSERT_STR_EQ(err, "invalid size '4x' for 'size' (expected a number with an optional k, m, g or t suffix)");
	ASSERT_EQ(set(&c, "size", "4 k"), -1);
	ASSERT_EQ(set(&c, "size", "k"), -1);
	ASSERT_EQ(set(&c, "size", "4ki"), -1);
	ASSERT_EQ(set(&c, "size", "4kbb"), -1);
	ASSERT_EQ(set(&c, "size", "1.2.3"), -1);
	ASSERT_EQ(set(&c, "size", "."), -1);
	ASSERT_EQ(set(&c, "size", ""), -1);
	ASSERT_STR_EQ(err, "empty value for 'size'");
	ASSERT_EQ(set(&c, "size", "-1k"), -1);
	ASSERT_STR_EQ(err, "size '-1k' for 'size' must not be negative");
	ASSERT_EQ(set(&c, "size", "0.3k"), -1);
	ASSERT_STR_EQ(err, "size '0.3k' for 'size' is not a whole number of bytes");
	ASSERT_EQ(set(&c, "size", "16777216t"), -1);
	ASSERT_STR_EQ(err, "size '16777216t' for 'size' is too large");
	ASSERT_EQ(set(&c, "size", "99999999999999999999"), -1);
	ASSERT_STR_EQ(err, "size '99999999999999999999' for 'size' is too large or too precise");
	ASSERT_EQ(set(&c, "ranged", "1m"), -1);
	ASSERT_STR_EQ(err, "size '1m' for 'ranged' is out of range (4m..1t)");
	ASSERT_EQ(set(&c, "ranged", "1025g"), -1);
	ASSERT_STR_EQ(err, "size '1025g' for 'ranged' is out of range (4m..1t)");
	ASSERT_EQ(set(&c, "ranged", "1t"), 0);
	ASSERT_EQ(set(&c, "ranged", "4m"), 0);
}

/* A test of time syntax: ns us ms s m h, bare numbers in the option's
 * unit, exact fractions.  Expect the nanosecond values below. */
TEST(time_suffixes)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "t", "250"), 0);
	ASSERT_U64_EQ(c.t, 250);
	ASSERT_EQ(set(&c, "t", "250ns"), 0);
	ASSERT_U64_EQ(c.t, 250);
	ASSERT_EQ(set(&c, "t", "1.5us"), 0);
	ASSERT_U64_EQ(c.t, 1500);
	ASSERT_EQ(set(&c, "t", "10ms"), 0);
	ASSERT_U64_EQ(c.t, 10000000);
	ASSERT_EQ(set(&c, "t", "2s"), 0);
	ASSERT_U64_EQ(c.t, 2000000000ULL);
	ASSERT_EQ(set(&c, "t", "5m"), 0);
	ASSERT_U64_EQ(c.t, 300000000000ULL);
	ASSERT_EQ(set(&c, "t", "0.5h"), 0);
	ASSERT_U64_EQ(c.t, 1800000000000ULL);
	ASSERT_EQ(set(&c, "t_s", "1200"), 0);
	ASSERT_U64_EQ(c.t_s, 1200000000000ULL);
	ASSERT_EQ(set(&c, "t_s", "0.25"), 0);
	ASSERT_U64_EQ(c.t_s, 250000000ULL);
	ASSERT_EQ(set(&c, "t_s", "7ms"), 0);
	ASSERT_U64_EQ(c.t_s, 7000000ULL);
}

/* A test of every way a time can be wrong.  Expect -1 and exact messages. */
TEST(time_errors)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "t", "5x"), -1);
	ASSERT_STR_EQ(err, "invalid time '5x' for 't' (expected a number with an optional ns, us, ms, s, m or h suffix)");
	ASSERT_EQ(set(&c, "t", "5S"), -1);
	ASSERT_EQ(set(&c, "t", "5 s"), -1);
	ASSERT_EQ(set(&c, "t", "5d"), -1);
	ASSERT_EQ(set(&c, "t", "1.5ns"), -1);
	ASSERT_STR_EQ(err, "time '1.5ns' for 't' is not a whole number of nanoseconds");
	ASSERT_EQ(set(&c, "t", "6000000h"), -1);
	ASSERT_STR_EQ(err, "time '6000000h' for 't' is too large");
	ASSERT_EQ(set(&c, "t", "-1s"), -1);
	ASSERT_STR_EQ(err, "time '-1s' for 't' must not be negative");
}

/* A test of percentages: "N%" or a fraction in [0, 1], stored as ppm.
 * Expect exact ppm values and precise errors for ambiguity and precision. */
TEST(percentages)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "pct", "25%"), 0);
	ASSERT_U64_EQ(c.pct, 250000);
	ASSERT_EQ(set(&c, "pct", "0.25"), 0);
	ASSERT_U64_EQ(c.pct, 250000);
	ASSERT_EQ(set(&c, "pct", "1"), 0);
	ASSERT_U64_EQ(c.pct, 1000000);
	ASSERT_EQ(set(&c, "pct", "150%"), 0);
	ASSERT_U64_EQ(c.pct, 1500000);
	ASSERT_EQ(set(&c, "pct", "0.0001%"), 0);
	ASSERT_U64_EQ(c.pct, 1);
	ASSERT_EQ(set(&c, "pct", "12.3456%"), 0);
	ASSERT_U64_EQ(c.pct, 123456);
	ASSERT_EQ(set(&c, "pct", "25"), -1);
	ASSERT_STR_EQ(err, "percentage '25' for 'pct' is ambiguous: write '25%', or a fraction not above 1");
	ASSERT_EQ(set(&c, "pct", "0.00001%"), -1);
	ASSERT_STR_EQ(err, "percentage '0.00001%' for 'pct' is finer than 0.0001%");
	ASSERT_EQ(set(&c, "pct", "25%%"), -1);
	ASSERT_STR_EQ(err, "invalid percentage '25%%' for 'pct' (expected '25%' or a fraction such as 0.25)");
	ASSERT_EQ(set(&c, "pct", "-5%"), -1);
	ASSERT_STR_EQ(err, "percentage '-5%' for 'pct' must not be negative");
}

/* A test of integers: decimal, hex, signed, range and overflow.  Expect
 * values and exact messages. */
TEST(integers)
{
	struct cfg c = { 0 };

	ASSERT_EQ(set(&c, "u", "18446744073709551615"), 0);
	ASSERT_U64_EQ(c.u, UINT64_MAX);
	ASSERT_EQ(set(&c, "u", "0xfF"), 0);
	ASSERT_U64_EQ(c.u, 255);
	ASSERT_EQ(set(&c, "u", "18446744073709551616"), -1);
	ASSERT_STR_EQ(err, "number '18446744073709551616' for 'u' is too large");
	ASSERT_EQ(set(&c, "u", "-1"), -1);
	ASSERT_STR_EQ(err, "number '-1' for 'u' must not be negative");
	ASSERT_EQ(set(&c, "u", "12k"), -1);
	ASSERT_STR_EQ(err, "invalid number '12k' for 'u' (expected a decimal or 0x hexadecimal integer)");
	ASSERT_EQ(set(&c, "u", "0x"), -1);
	ASSERT_EQ(set(&c, "i", "-100"), 0);
	ASSERT_EQ(c.i, -100);
	ASSERT_EQ(set(&c, "i", "100"), 0);
	ASSERT_EQ(c.i, 100);
	ASSERT_EQ(set(&c, "i", "-101"), -1);
	ASSERT_STR_EQ(err, "number '-101' for 'i' is out of range (-100..100)");
	ASSERT_EQ(set(&c, "minonly", "0"), -1);
	ASSERT_STR_EQ(err, "number '0' for 'minonly' is out of range (at least 1)");
}

/* A test of booleans, enums and strings.  Expect every accepted spelling
 * and the exact messages for the rest. */
TEST(bool_enum_string)
{
	struct cfg c = { 0 };
	static const char *const truthy[] = { "1", "true", "YES", "on" };
	static const char *const falsy[] = { "0", "False", "no", "off" };

	for (int k = 0; k < 4; k++) {
		ASSERT_EQ(set(&c, "b", truthy[k]), 0);
		ASSERT_TRUE(c.b);
		ASSERT_EQ(set(&c, "b", falsy[k]), 0);
		ASSERT_FALSE(c.b);
	}
	ASSERT_EQ(set(&c, "b", "maybe"), -1);
	ASSERT_STR_EQ(err, "invalid boolean 'maybe' for 'b' (use 1/0, true/false, yes/no or on/off)");
	ASSERT_EQ(set(&c, "e", "blue"), 0);
	ASSERT_EQ(c.e, 2);
	ASSERT_EQ(set(&c, "e", "Blue"), -1);
	ASSERT_STR_EQ(err, "invalid value 'Blue' for 'e' (expected one of: red, green, blue)");
	ASSERT_EQ(set(&c, "str", "a"), 0);
	ASSERT_EQ(set(&c, "str", ""), 0);
	ASSERT_STR_EQ(c.str, "");
	ASSERT_EQ(set(&c, "str", "x y"), 0);
	ASSERT_STR_EQ(c.str, "x y");
	opt_release(table, &c);
}

/* A test that formatting prints the largest exact unit and re-parses to
 * the same value.  Expect the texts below and equal values after a round trip. */
TEST(format_round_trip)
{
	struct cfg c = { 0 }, d = { 0 };
	static const char *const keys[] = { "b", "u", "i", "size", "t", "t_s", "pct", "e", "str" };

	ASSERT_EQ(opt_apply_defaults(table, &c), 0);
	ASSERT_STR_EQ(fmt(&c, "size"), "4k");
	ASSERT_STR_EQ(fmt(&c, "t"), "10ms");
	ASSERT_STR_EQ(fmt(&c, "t_s"), "1m");
	ASSERT_STR_EQ(fmt(&c, "pct"), "25%");
	ASSERT_STR_EQ(fmt(&c, "e"), "green");
	ASSERT_STR_EQ(fmt(&c, "b"), "1");
	ASSERT_STR_EQ(fmt(&c, "i"), "-5");
	ASSERT_EQ(set(&c, "size", "1.5g"), 0);
	ASSERT_STR_EQ(fmt(&c, "size"), "1536m");
	ASSERT_EQ(set(&c, "size", "4097"), 0);
	ASSERT_STR_EQ(fmt(&c, "size"), "4097");
	ASSERT_EQ(set(&c, "t", "1500ns"), 0);
	ASSERT_STR_EQ(fmt(&c, "t"), "1500ns");
	ASSERT_EQ(set(&c, "t_s", "0"), 0);
	ASSERT_STR_EQ(fmt(&c, "t_s"), "0");
	ASSERT_EQ(set(&c, "pct", "12.3456%"), 0);
	ASSERT_STR_EQ(fmt(&c, "pct"), "12.3456%");
	ASSERT_EQ(set(&c, "pct", "0.5%"), 0);
	ASSERT_STR_EQ(fmt(&c, "pct"), "0.5%");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char text[128];

		opt_format_value(opt_find(table, keys[k]), &c, text, sizeof(text));
		ASSERT_EQ(set(&d, keys[k], text), 0);
	}
	ASSERT_EQ(memcmp(&c, &d, offsetof(struct cfg, str)), 0);
	ASSERT_STR_EQ(c.str, d.str);
	opt_release(table, &c);
	opt_release(table, &d);
}

/* A test of range rendering.  Expect "a..b", "at least a", or "" (no range). */
TEST(format_range)
{
	char buf[64];

	opt_format_range(opt_find(table, "ranged"), buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "4m..1t");
	opt_format_range(opt_find(table, "minonly"), buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "at least 1");
	opt_format_range(opt_find(table, "u"), buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "");
	opt_format_range(opt_find(table, "e"), buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "");
	ASSERT_TRUE(opt_find(table, "nope") == NULL);
}

/* A test of cost values: decimal ns to picoseconds and back, with the
 * cost table's parser.  Expect exact ps, the shortest text, and the error
 * message for more than 3 decimals. */
TEST(costs)
{
	struct cfg c = { 0 };

	ASSERT_EQ(opt_apply_defaults(table, &c), 0);
	ASSERT_U64_EQ(c.cost, 80);
	ASSERT_STR_EQ(fmt(&c, "cost"), "0.08");
	ASSERT_EQ(set(&c, "cost", "2000"), 0);
	ASSERT_U64_EQ(c.cost, 2000000);
	ASSERT_STR_EQ(fmt(&c, "cost"), "2000");
	ASSERT_EQ(set(&c, "cost", "1.5"), 0);
	ASSERT_STR_EQ(fmt(&c, "cost"), "1.5");
	ASSERT_EQ(set(&c, "cost", "0.001"), 0);
	ASSERT_STR_EQ(fmt(&c, "cost"), "0.001");
	ASSERT_EQ(set(&c, "cost", "0.0001"), -1);
	ASSERT_STR_EQ(err, "invalid cost '0.0001' for 'cost' (expected nanoseconds, a decimal with at most 3 fraction digits)");
	ASSERT_EQ(set(&c, "cost", "5ns"), -1);
	opt_release(table, &c);
}

/* A test that a 32-bit field is written as 32 bits: its neighbour keeps
 * its value, 2^32 is refused.  Expect the exact values and message. */
TEST(u32_fields)
{
	struct cfg c = { 0 };

	c.after_u32 = 0xdeadbeef;
	ASSERT_EQ(opt_apply_defaults(table, &c), 0);
	ASSERT_EQ(c.u32, 12);
	ASSERT_EQ(set(&c, "u32", "4294967295"), 0);
	ASSERT_U64_EQ(c.u32, 4294967295u);
	ASSERT_U64_EQ(c.after_u32, 0xdeadbeef);
	ASSERT_STR_EQ(fmt(&c, "u32"), "4294967295");
	ASSERT_EQ(set(&c, "u32", "4294967296"), -1);
	ASSERT_STR_EQ(err, "number '4294967296' for 'u32' is too large");
	ASSERT_EQ(set(&c, "u32", "0"), -1);
	ASSERT_STR_EQ(err, "number '0' for 'u32' is out of range (at least 1)");
	opt_release(table, &c);
}
