/* SPDX-License-Identifier: MIT */
/*
 * bench.h — what every benchmark program shares: the host clock (wall time
 * is measured in bench/ and nowhere else) and setting an option of a
 * table (sysctls, machine keys) by name, exiting 2 with the message when
 * the value does not parse.
 */
#ifndef SLOWPATH_BENCH_H
#define SLOWPATH_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/option.h"

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* program_invocation_short_name needs _GNU_SOURCE; each program names itself */
static inline void bench_set(const char *prog, const struct opt_def *table, void *base,
			     const char *key, const char *value)
{
	const struct opt_def *o = opt_find(table, key);
	char err[256];

	if (!o) {
		fprintf(stderr, "%s: no option '%s'\n", prog, key);
		exit(2);
	}
	if (opt_parse_value(o, base, value, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", prog, key, err);
		exit(2);
	}
}

#endif
