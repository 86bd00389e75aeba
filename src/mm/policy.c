/* SPDX-License-Identifier: MIT */
/*
 * policy.c — the table of policy variants (docs/slowpath.md; the exact deltas
 * are docs/slowpath.md, policy variants).  Each row sets only the switches its patch
 * changes; everything else keeps the baseline value.
 */
#include <string.h>

#include "mm/policy.h"

const struct mm_policy mm_policies[] = {
	{ .name = "baseline", .spec = "P1",
	  .summary = "v6.6..v7.3-rc1: large chunks; __filemap_get_folio adds NORETRY|NOWARN above the min order and walks down" },
	{ .name = "pre-large-chunks", .spec = "P0",
	  .summary = "before 5d8edfb900d5: iomap copies one page per iteration, buffered writes never ask for order > 0",
	  .small_chunks = true },
	{ .name = "iomap-opportunistic", .spec = "V1",
	  .summary = "iomap clears __GFP_DIRECT_RECLAIM for costly hints: no direct reclaim, compaction or drain",
	  .iomap_costly_noreclaim = true },
	{ .name = "filemap-costly-noreclaim", .spec = "V2",
	  .summary = "__filemap_get_folio: costly orders lose __GFP_DIRECT_RECLAIM, orders 1-3 keep NORETRY",
	  .filemap_rule = FILEMAP_COSTLY_NORECLAIM },
	{ .name = "noretry-skip-drain", .spec = "Va",
	  .summary = "costly NORETRY attempts skip the post-reclaim unreserve/drain/retry step",
	  .noretry_skip_drain = true },
	{ .name = "noretry-no-compaction", .spec = "Vb",
	  .summary = "gfp_compaction_allowed() is false for NORETRY requests unless __GFP_THISNODE",
	  .noretry_no_compaction = true },
	{ .name = "noretry-nonblocking", .spec = "V6",
	  .summary = "costly NORETRY attempts never block: no direct compaction, reclaim or drain; kswapd/kcompactd still woken",
	  .costly_noretry_noreclaim = true, .thisnode_exempt = true },
	{ .name = "kcompactd-background", .spec = "V4",
	  .summary = "costly NORETRY attempts wake kcompactd and fail at once",
	  .costly_noretry_kcompactd = true },
	{ .name = "slowpath-entry-noreclaim", .spec = "V5",
	  .summary = "__alloc_pages_slowpath clears __GFP_DIRECT_RECLAIM on entry for costly NORETRY requests",
	  .costly_noretry_noreclaim = true },
	{ .name = "filemap-noreclaim-above-min", .spec = "V3a",
	  .summary = "__filemap_get_folio: every attempt above the min order clears __GFP_DIRECT_RECLAIM",
	  .filemap_rule = FILEMAP_NORECLAIM_ABOVE_MIN },
	{ .name = "filemap-first-attempt-noretry", .spec = "V3b",
	  .summary = "first (largest) attempt keeps NORETRY and its full slow path; later orders drop direct reclaim",
	  .filemap_rule = FILEMAP_FIRST_ATTEMPT_NORETRY },
};

const unsigned int mm_nr_policies = sizeof(mm_policies) / sizeof(mm_policies[0]);

const struct mm_policy *mm_policy_find(const char *name)
{
	for (unsigned int i = 0; i < mm_nr_policies; i++)
		if (strcmp(mm_policies[i].name, name) == 0)
			return &mm_policies[i];
	return NULL;
}

const char *kernel_gen_name(enum kernel_gen k)
{
	switch (k) {
	case KERNEL_6_6:	return "6.6";
	case KERNEL_6_12:	return "6.12";
	default:		return "2026";
	}
}
