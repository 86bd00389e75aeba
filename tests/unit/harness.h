/* SPDX-License-Identifier: MIT */
/*
 * harness.h — the unit-test harness (kept tiny and in-tree, as git's and the kernel's tools/testing harnesses are).
 *
 *   TEST(name) { ... ASSERT_EQ(a, b); ... }
 *
 * Each test file is its own program; main() is in harness.c and runs every
 * TEST in the order they appear.  A failed ASSERT prints file, line, the
 * expression and both values, marks the test failed and returns from it.
 * The last line of output is "<program>: N passed, M failed" (read by
 * tests/run-tests.sh).  `./test_x name` runs only tests whose name contains
 * `name`.
 */
#ifndef SLOWPATH_TEST_HARNESS_H
#define SLOWPATH_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef void (*harness_fn)(void);
void harness_register(const char *name, harness_fn fn);
void harness_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int harness_failed;	/* set by harness_fail for the current test */

#define TEST(name)							\
	static void test_##name(void);					\
	__attribute__((constructor)) static void register_##name(void)	\
	{ harness_register(#name, test_##name); }			\
	static void test_##name(void)

#define ASSERT_TRUE(c) do {						\
	if (!(c)) { harness_fail(__FILE__, __LINE__, "%s", #c); return; } \
} while (0)

#define ASSERT_FALSE(c) ASSERT_TRUE(!(c))

#define ASSERT_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		harness_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
			     #a, #b, _a, _b);				\
		return;							\
	}								\
} while (0)

#define ASSERT_U64_EQ(a, b) do {					\
	uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);		\
	if (_a != _b) {							\
		harness_fail(__FILE__, __LINE__, "%s == %s (%" PRIu64 " != %" PRIu64 ")", \
			     #a, #b, _a, _b);				\
		return;							\
	}								\
} while (0)

#define ASSERT_STR_EQ(a, b) do {					\
	const char *_a = (a), *_b = (b);				\
	if (strcmp(_a, _b) != 0) {					\
		harness_fail(__FILE__, __LINE__, "%s == %s\n--- got:\n%s\n--- expected:\n%s", \
			     #a, #b, _a, _b);				\
		return;							\
	}								\
} while (0)

#define ASSERT_NEAR(a, b, eps) do {					\
	double _a = (double)(a), _b = (double)(b);			\
	if (!(_a - _b <= (eps) && _b - _a <= (eps))) {			\
		harness_fail(__FILE__, __LINE__, "%s ~= %s (%g vs %g, eps %g)", \
			     #a, #b, _a, _b, (double)(eps));		\
		return;							\
	}								\
} while (0)

/* Propagate failure out of a helper function called by a test. */
#define ASSERT_OK_SO_FAR() do { if (harness_failed) return; } while (0)

#endif
