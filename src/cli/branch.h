/* SPDX-License-Identifier: MIT */
/*
 * branch.h — `slowpath run --branch-at TIME --branch NAME:KEY=VALUE,...`:
 * the branches' specifications, checked against the scenario before
 * anything runs (docs/branches.md).  The forking itself is run.c's.
 */
#ifndef SLOWPATH_CLI_BRANCH_H
#define SLOWPATH_CLI_BRANCH_H

#include <stddef.h>

#include "cli/cli.h"
#include "cli/scenario.h"
#include "sim/sim.h"

struct run_branch {
	char		*name;		/* DIR/NAME */
	const char	*changes;	/* the KEY=VALUE list as given; "" for none */
	struct scenario	*s;		/* the scenario with the branch's changes applied */
};

/*
 * Check --branch-at and every --branch against `base` (the scenario as
 * --set, --policy, --seed and --scale made it): the instant lies inside
 * the run on a sample step, the names are distinct folder names, each
 * branch's keys parse and change only [costs], [policy] and the
 * [sysctl] keys a running kernel takes (branch.c), and no
 * workload streams a file of its own during the run.  0 with the
 * branches in *out (none when --branch-at is not given), or 2 after
 * printing the error.
 */
int branch_setup(const struct scn_schema *schema, const struct cli_args *a, const struct scenario *base,
		 sim_time_t *at, struct run_branch **out, size_t *n);
void branch_release(struct run_branch *b, size_t n);

#endif
