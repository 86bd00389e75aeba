/* SPDX-License-Identifier: MIT */
/*
 * main.c — the slowpath command: a dispatch table of subcommands.
 *
 *   slowpath run SCENARIO [options]     simulate, write a result folder
 *   slowpath sweep SWEEP.ini [options]  a matrix of runs and their aggregate
 *   slowpath check SCENARIO [options]   print the resolved scenario
 *   slowpath costs                      the cost table
 *   slowpath policies                   the policy variants
 *   slowpath record|probe|compare|explain|report   (other modules; see the table)
 *
 * Exit status: 0 success, 2 bad input (scenario, command line), 1 a
 * failure while running or writing results.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "record/record.h"
#include "report/cmd.h"


struct command {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;
};


/*
 * The commands, in the order `slowpath --help` lists them.  The last five
 * belong to other modules:
 *   record   rec_main()         src/record/record.h
 *   probe    rec_probe_main()   src/record/record.h
 *   compare  rpt_cmd_compare()  src/report/cmd.h
 *   explain  rpt_cmd_explain()  src/report/cmd.h
 *   report   rpt_cmd_report()   src/report/cmd.h
 * Each gets argv[0] = its command name.  A NULL function would mean "not
 * in this build".
 */
static const struct command commands[] = {
	{ "run",	cli_cmd_run,	"simulate a scenario and write a result folder" },
	{ "sweep",	cli_cmd_sweep,	"run a matrix of policies x seeds x settings, locally or on Slurm" },
	{ "check",	cli_cmd_check,	"print the fully resolved scenario, defaults included" },
	{ "costs",	cli_cmd_costs,	"print the cost table with units and sources" },
	{ "policies",	cli_cmd_policies, "print the allocator policy variants" },
	{ "record",	rec_main,		"record a real kernel's counters into a result folder" },
	{ "probe",	rec_probe_main,		"measure this host's costs for a twin (wake-ups across CPUs)" },
	{ "compare",	rpt_cmd_compare,		"compare result folders side by side with statistics" },
	{ "explain",	rpt_cmd_explain,		"show where the stall time went (attribution tree)" },
	{ "report",	rpt_cmd_report,		"write an HTML report with plots" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: slowpath <command> [options]\n"
		     "       slowpath <command> --help\n"
		     "       slowpath --version\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s%s\n", commands[i].name, commands[i].summary,
			commands[i].fn ? "" : " (not in this build)");
	fprintf(out, "\nScenario files: docs/scenario-format.md; results: docs/results.md\n");
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("slowpath %s (commit %s)\n", SLOWPATH_VERSION, SLOWPATH_COMMIT);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *sub[] = { argv[2], (char *)"--help", NULL };

			for (size_t i = 0; i < NR_COMMANDS; i++)
				if (strcmp(commands[i].name, argv[2]) == 0 && commands[i].fn)
					return commands[i].fn(2, sub);
		}
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(commands[i].name, argv[1]) != 0)
			continue;
		if (!commands[i].fn) {
			fprintf(stderr, "slowpath: '%s' is not in this build\n", argv[1]);
			return 2;
		}
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "slowpath: unknown command '%s' (see slowpath --help)\n", argv[1]);
	return 2;
}
