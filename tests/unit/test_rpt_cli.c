/* SPDX-License-Identifier: MIT */
/*
 * test_rpt_cli.c — tests of the report commands' argument and input
 * handling, and the command driver the 8xxx suites run until
 * src/cli/main.c dispatches to the report commands:
 *
 *   build/dbg/tests/test_rpt_cli compare|explain|report ARGS...
 *
 * runs that command and exits with its status (glibc hands argc/argv to
 * constructors, which run before the harness's main()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "report/cmd.h"

__attribute__((constructor)) static void rpt_driver(int argc, char **argv, char **envp)
{
	int rc;

	(void)envp;
	if (argc < 2)
		return;
	if (strcmp(argv[1], "compare") == 0)
		rc = rpt_cmd_compare(argc - 1, argv + 1);
	else if (strcmp(argv[1], "explain") == 0)
		rc = rpt_cmd_explain(argc - 1, argv + 1);
	else if (strcmp(argv[1], "report") == 0)
		rc = rpt_cmd_report(argc - 1, argv + 1);
	else
		return;
	fflush(stdout);
	exit(rc);
}

static int run(int (*cmd)(int, char **), const char *a0, const char *a1, const char *a2)
{
	char *argv[4] = { (char *)a0, (char *)a1, (char *)a2, NULL };
	int argc = a2 ? 3 : a1 ? 2 : 1;
	FILE *saved_out = stdout, *saved_err = stderr;
	int rc;

	/* Silence the commands' output; only the status is checked. */
	stdout = fopen("/dev/null", "w");
	stderr = stdout;
	rc = cmd(argc, argv);
	fclose(stdout);
	stdout = saved_out;
	stderr = saved_err;
	return rc;
}

/* A test that usage mistakes and unreadable input give exit status 2,
 * never a crash.  Expect 2 for an unknown option, no folder, a missing
 * folder and a file that is not a result folder, for each command. */
TEST(rpt_cli_bad_usage)
{
	ASSERT_EQ(run(rpt_cmd_compare, "compare", NULL, NULL), 2);
	ASSERT_EQ(run(rpt_cmd_compare, "compare", "--bogus", "x"), 2);
	ASSERT_EQ(run(rpt_cmd_compare, "compare", "/nonexistent/dir", NULL), 2);
	ASSERT_EQ(run(rpt_cmd_compare, "compare", "--format=html", "tests/fixtures/results/base"), 2);
	ASSERT_EQ(run(rpt_cmd_explain, "explain", NULL, NULL), 2);
	ASSERT_EQ(run(rpt_cmd_explain, "explain", "/nonexistent/dir", NULL), 2);
	ASSERT_EQ(run(rpt_cmd_report, "report", "tests/fixtures/results/base", NULL), 2);
	ASSERT_EQ(run(rpt_cmd_compare, "compare", "--help", NULL), 0);
}
