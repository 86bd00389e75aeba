/* SPDX-License-Identifier: MIT */
/*
 * debug.h — assertion tiers and SIM_BUG.
 *
 * SIM_DEBUG (set by the build, see Makefile):
 *   0  no checks
 *   1  cheap SIM_ASSERT (release builds)
 *   2  + SIM_ASSERT_INTERNAL (per-operation consistency)
 *   3  + SIM_CHECK_EXPENSIVE: the full mm_check() after every event
 *      (debug and sanitizer test builds)
 *
 * SIM_BUG() reports an invariant violation (a bug in slowpath, never a user
 * mistake) and aborts.  User mistakes are reported with file:line and exit
 * status 2 by the CLI instead.
 */
#ifndef SLOWPATH_SIM_DEBUG_H
#define SLOWPATH_SIM_DEBUG_H

#include <stddef.h>

#ifndef SIM_DEBUG
#define SIM_DEBUG 1
#endif

#if defined(__GNUC__)
#define SIM_NORETURN __attribute__((noreturn))
#define SIM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define SIM_NORETURN
#define SIM_PRINTF(a, b)
#define likely(x)   (x)
#define unlikely(x) (x)
#endif

SIM_NORETURN SIM_PRINTF(3, 4)
void sim_bug(const char *file, int line, const char *fmt, ...);

/* Format a user-facing error message into err[errlen] (when err is not
 * NULL) and return -1, for "return sim_errf(err, len, ...)". */
SIM_PRINTF(3, 4)
int sim_errf(char *err, size_t errlen, const char *fmt, ...);

#define SIM_BUG(...) sim_bug(__FILE__, __LINE__, __VA_ARGS__)

#if SIM_DEBUG >= 1
#define SIM_ASSERT(c) do { if (unlikely(!(c))) SIM_BUG("assertion failed: %s", #c); } while (0)
#else
#define SIM_ASSERT(c) do { (void)sizeof(c); } while (0)
#endif

#if SIM_DEBUG >= 2
#define SIM_ASSERT_INTERNAL(c) SIM_ASSERT(c)
#else
#define SIM_ASSERT_INTERNAL(c) do { (void)sizeof(c); } while (0)
#endif

#define SIM_CHECK_EXPENSIVE (SIM_DEBUG >= 3)

#endif
