/* SPDX-License-Identifier: MIT */
/*
 * scndiff.h — the scenario keys whose resolved values set each compared
 * result apart from the baseline (scndiff.c).
 */
#ifndef SLOWPATH_REPORT_SCNDIFF_H
#define SLOWPATH_REPORT_SCNDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "report/load.h"

struct rpt_scn_key {			/* borrowed from the sets' rpt_scn_file */
	const char *key;	/* "[sysctl] vm.watermark_scale_factor" */
	const char *value;	/* this set's value; NULL: the key is not in its file */
	const char *base;	/* the baseline's value; NULL: not in the baseline's */
};

struct rpt_scn_diff {
	bool		present;	/* both this set and the baseline have a scenario.ini */
	struct rpt_scn_key *keys;	/* in the baseline file's order, then this set's */
	size_t		nr;
};

/* One entry per set, from the scenario.ini each set was loaded with; [0]
 * (the baseline) has no keys.  Never NULL. */
struct rpt_scn_diff *rpt_scn_diff(const struct rpt_set *sets, int nr_sets);
void rpt_scn_diff_release(struct rpt_scn_diff *d, int nr_sets);

#endif
