/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_TESTS 1024

static struct { const char *name; harness_fn fn; } tests[MAX_TESTS];
static int nr_tests;
int harness_failed;

void harness_register(const char *name, harness_fn fn)
{
	if (nr_tests == MAX_TESTS) {
		fprintf(stderr, "harness: too many tests\n");
		exit(2);
	}
	tests[nr_tests].name = name;
	tests[nr_tests].fn = fn;
	nr_tests++;
}

void harness_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	harness_failed = 1;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int passed = 0, failed = 0;

	/* Constructors run in an unspecified order across files but in
	 * definition order within one translation unit on gcc and clang;
	 * sort by name for a stable order regardless. */
	for (int i = 1; i < nr_tests; i++)
		for (int j = i; j > 0 && strcmp(tests[j - 1].name, tests[j].name) > 0; j--) {
			const char *n = tests[j].name;
			harness_fn f = tests[j].fn;

			tests[j].name = tests[j - 1].name;
			tests[j].fn = tests[j - 1].fn;
			tests[j - 1].name = n;
			tests[j - 1].fn = f;
		}
	for (int i = 0; i < nr_tests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		harness_failed = 0;
		tests[i].fn();
		fflush(stderr);
		printf("%s %s\n", harness_failed ? "FAIL" : "ok  ", tests[i].name);
		fflush(stdout);
		if (harness_failed)
			failed++;
		else
			passed++;
	}
	printf("%s: %d passed, %d failed\n", prog, passed, failed);
	return failed ? 1 : 0;
}
