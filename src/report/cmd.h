/* SPDX-License-Identifier: MIT */
/*
 * cmd.h — the report commands, for src/cli/main.c to dispatch to.
 * argv[0] is the command name ("compare", "explain", "report"); the
 * options follow.  Return value is the process exit status: 0 success,
 * 2 bad usage or bad input (message on stderr), 1 an internal failure
 * such as gnuplot not running.  Formats: docs/report.md.
 */
#ifndef SLOWPATH_REPORT_CMD_H
#define SLOWPATH_REPORT_CMD_H

int rpt_cmd_compare(int argc, char **argv);
int rpt_cmd_explain(int argc, char **argv);
int rpt_cmd_report(int argc, char **argv);

/*
 * Option errors, for getopt_long loops run with opterr = 0 and an
 * optstring starting with ':': c is getopt's ':' (missing value) or '?'
 * (unknown option).  Both print "slowpath CMD: ..." and return 2.
 */
int rpt_opt_error(const char *cmd, int c, char **argv);
/* "slowpath CMD: bad OPT 'VAL': expected EXPECTED"; returns 2. */
int rpt_opt_bad(const char *cmd, const char *opt, const char *val, const char *expected);

#endif
