/* SPDX-License-Identifier: MIT */
/*
 * policy.h — allocator policy variants (docs/slowpath.md,
 * docs/slowpath.md, policy variants).  A policy is a named preset of switches; the code consults each
 * switch exactly where the real patch differs, and nowhere else.  The rows
 * (name, spec tag, one-line description, switch values) are mm_policies[]
 * in policy.c; `slowpath policies` prints them.
 *
 * The kernel generation (6.6, 6.12 or the 2026 mm tree) is not part of a
 * variant: it is chosen separately ([policy] kernel=) so that variants are
 * compared on one base.  The run driver copies the chosen row and applies
 * the [policy] overrides (kernel=, thisnode_exempt=) to the copy.
 *
 * Every switch's zero value is the baseline (P1), so a row names only
 * what its patch changes.
 */
#ifndef SLOWPATH_MM_POLICY_H
#define SLOWPATH_MM_POLICY_H

#include <stdbool.h>

enum kernel_gen {
	KERNEL_6_12,	/* __alloc_pages_slowpath, mm/page_alloc.c; __filemap_get_folio, mm/filemap.c — the reference (and the zero value) */
	KERNEL_6_6,	/* filemap: order 1 skipped, NORETRY for order > 0; slow path as 6.12 (__alloc_pages_slowpath, mm/page_alloc.c) */
	KERNEL_2026,	/* the 2026 __alloc_pages_slowpath, docs/slowpath.md: compact_first flow in __alloc_pages_slowpath */
};

/* How __filemap_get_folio() builds the gfp of each attempt above the
 * mapping's minimum order (docs/slowpath.md, policy variants). */
enum filemap_gfp_rule {
	FILEMAP_NORETRY_ABOVE_MIN,	/* P1: + __GFP_NORETRY|__GFP_NOWARN */
	FILEMAP_COSTLY_NORECLAIM,	/* V2: + NOWARN; costly: - DIRECT_RECLAIM, else + NORETRY */
	FILEMAP_NORECLAIM_ABOVE_MIN,	/* V3a: - DIRECT_RECLAIM, + NOWARN */
	FILEMAP_FIRST_ATTEMPT_NORETRY,	/* V3b: first attempt NORETRY|NOWARN with full slow path,
					 * later orders above min - DIRECT_RECLAIM, min order: original gfp */
};

struct mm_policy {
	const char *name;		/* "baseline", "noretry-nonblocking", ... */
	const char *spec;		/* docs/slowpath.md, policy variants tag: "P1", "V6", ... */
	const char *summary;		/* one line for `slowpath policies` */

	/* ---- iomap / filemap (iomap.c, filemap.c) ---- */
	bool small_chunks;		/* P0: iomap copies at most one page per iteration
					 * (before 5d8edfb900d5) and asks for order 0 */
	bool iomap_costly_noreclaim;	/* V1: iomap_get_folio clears __GFP_DIRECT_RECLAIM when the
					 * iteration's hinted order is > PAGE_ALLOC_COSTLY_ORDER */
	enum filemap_gfp_rule filemap_rule;

	/* ---- page allocator (page_alloc.c) ---- */
	bool noretry_skip_drain;	/* Va: costly NORETRY skips unreserve + drain + retry
					 * after direct reclaim */
	bool noretry_no_compaction;	/* Vb: gfp_compaction_allowed() false for NORETRY
					 * unless __GFP_THISNODE */
	bool costly_noretry_kcompactd;	/* V4: costly NORETRY wakes kcompactd and fails before
					 * direct reclaim/compaction */
	bool costly_noretry_noreclaim;	/* V5/V6: __alloc_pages_slowpath clears
					 * __GFP_DIRECT_RECLAIM on entry for costly NORETRY */
	bool thisnode_exempt;		/* V6 switch: __GFP_THISNODE requests keep direct
					 * reclaim (UNCONFIRMED which way the merged patch went) */

	/* ---- base, not part of a variant (set by the run driver) ---- */
	enum kernel_gen kernel;
	bool k2026_noretry_bail;	/* KERNEL_2026 only: keep 6.12's early bail-out of a costly
					 * NORETRY request whose first compaction was SKIPPED or
					 * DEFERRED (the 2026 __alloc_pages_slowpath, docs/slowpath.md: UNCONFIRMED; the
					 * transliteration has no bail, so the default is off) */
};

extern const struct mm_policy mm_policies[];
extern const unsigned int mm_nr_policies;

const struct mm_policy *mm_policy_find(const char *name);
const char *kernel_gen_name(enum kernel_gen k);

#endif
