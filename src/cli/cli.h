/* SPDX-License-Identifier: MIT */
/*
 * cli.h — the subcommands and what they share (commands.c, run.c).
 */
#ifndef SLOWPATH_CLI_CLI_H
#define SLOWPATH_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct scenario;
struct scn_schema;

#define SLOWPATH_VERSION "0.1.0-dev"
/* `git rev-parse --short=12 HEAD` at build time (build/commit.c, Makefile) */
extern const char slowpath_commit[];
#define SLOWPATH_COMMIT slowpath_commit

/* Options of run and check. */
struct cli_args {
	const char	*scenario;	/* the SCENARIO argument */
	const char	*policy;	/* --policy, or NULL */
	const char	*seed;		/* --seed, or NULL */
	const char	**sets;		/* --set, in order */
	size_t		nr_sets;
	unsigned int	scale;		/* --scale 1/N; 1 = none */
	unsigned int	iterations;	/* --iterations (run) */
	const char	*out;		/* --out (run), or NULL */
	const char	*branch_at;	/* --branch-at (run), or NULL */
	const char	**branches;	/* --branch (run), in order */
	size_t		nr_branches;
	unsigned int	jobs;		/* -j/--jobs (run --branch): branches at once */
};

/* Parse argv (argv[0] = the subcommand).  0 ok; 1 --help printed; 2 usage
 * error printed. */
int cli_parse_args(int argc, char **argv, bool with_run, struct cli_args *a,
		   void (*help)(FILE *out));
void cli_args_release(struct cli_args *a);
/* Parse, --set, --policy, --seed, --scale, validate; NULL after printing
 * the error ("file:line: message"). */
struct scenario *cli_load_scenario(const struct scn_schema *schema, const struct cli_args *a);
/* The same with the message in err, nothing printed. */
struct scenario *cli_load_scenario_err(const struct scn_schema *schema, const struct cli_args *a,
				       char *err, size_t errlen);

void cli_run_help(FILE *out);

int cli_cmd_run(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_costs(int argc, char **argv);
int cli_cmd_policies(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);

#endif
