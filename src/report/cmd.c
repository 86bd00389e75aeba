/* SPDX-License-Identifier: MIT */
/*
 * cmd.c — what the report commands (compare, explain, report) share when
 * they parse argv with getopt_long: one form for a missing value, an
 * unknown option and a bad value, the same as `slowpath run` prints, and
 * exit status 2 for each.
 */
#include <getopt.h>
#include <stdio.h>

#include "report/cmd.h"

int rpt_opt_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		fprintf(stderr, "slowpath %s: option '%s' needs a value (see slowpath %s --help)\n",
			cmd, argv[optind - 1], cmd);
	else
		fprintf(stderr, "slowpath %s: unknown option '%s' (see slowpath %s --help)\n",
			cmd, argv[optind - 1], cmd);
	return 2;
}

int rpt_opt_bad(const char *cmd, const char *opt, const char *val, const char *expected)
{
	fprintf(stderr, "slowpath %s: bad %s '%s': expected %s (see slowpath %s --help)\n",
		cmd, opt, val, expected, cmd);
	return 2;
}
