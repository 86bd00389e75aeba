/* SPDX-License-Identifier: MIT */
/*
 * policy.c — the table of policy variants.  Descriptions follow DESIGN.md
 * §6; the switch values that implement each delta are filled in by the
 * slow-path model (kernel-mm-spec.md §14 gives the exact deltas).
 */
#include <string.h>

#include "mm/policy.h"

const struct mm_policy mm_policies[] = {
	{ "baseline", "P1",
	  "v6.6..v7.3-rc1: large chunks; __filemap_get_folio adds NORETRY|NOWARN above the min order and walks down",
	  .large_chunks = true },
	{ "pre-large-chunks", "P0",
	  "before 5d8edfb900d5: iomap copies one page per iteration, buffered writes never ask for order > 0",
	  .large_chunks = false },
	{ "iomap-opportunistic", "V1",
	  "iomap clears __GFP_DIRECT_RECLAIM for costly hints: no direct reclaim, compaction or drain",
	  .large_chunks = true },
	{ "filemap-costly-noreclaim", "V2",
	  "__filemap_get_folio: costly orders lose __GFP_DIRECT_RECLAIM, orders 1-3 keep NORETRY",
	  .large_chunks = true },
	{ "noretry-skip-drain", "Va",
	  "costly NORETRY attempts skip the post-reclaim unreserve/drain/retry step",
	  .large_chunks = true },
	{ "noretry-no-compaction", "Vb",
	  "gfp_compaction_allowed() is false for NORETRY requests unless __GFP_THISNODE",
	  .large_chunks = true },
	{ "noretry-nonblocking", "V6",
	  "costly NORETRY attempts never block: no direct compaction, reclaim or drain; kswapd/kcompactd still woken",
	  .large_chunks = true },
	{ "kcompactd-background", "V4",
	  "costly NORETRY attempts wake kcompactd and fail at once",
	  .large_chunks = true },
	{ "slowpath-entry-noreclaim", "V5",
	  "__alloc_pages_slowpath clears __GFP_DIRECT_RECLAIM on entry for costly NORETRY requests",
	  .large_chunks = true },
	{ "filemap-noreclaim-above-min", "V3a",
	  "__filemap_get_folio: every attempt above the min order clears __GFP_DIRECT_RECLAIM",
	  .large_chunks = true },
	{ "filemap-first-attempt-noretry", "V3b",
	  "first (largest) attempt keeps NORETRY and its full slow path; later orders drop direct reclaim",
	  .large_chunks = true },
};

const unsigned int mm_nr_policies = sizeof(mm_policies) / sizeof(mm_policies[0]);

const struct mm_policy *mm_policy_find(const char *name)
{
	for (unsigned int i = 0; i < mm_nr_policies; i++)
		if (strcmp(mm_policies[i].name, name) == 0)
			return &mm_policies[i];
	return NULL;
}
