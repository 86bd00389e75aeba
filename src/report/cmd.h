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

#endif
