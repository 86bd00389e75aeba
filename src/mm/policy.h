/* SPDX-License-Identifier: MIT */
/*
 * policy.h — allocator policy switches and the named presets of them
 * (docs/slowpath.md describes each variant, docs/policies.md the keys).  The code consults each
 * switch exactly where the real patch differs, and nowhere else.
 *
 * Every switch is a field of struct mm_policy and a [policy] scenario key
 * (MM_POLICY_SWITCHES below: one row each).  A named policy (mm_policies[]
 * in policy.c: name, spec tag, one-line summary, switch values) is a
 * preset of those keys: [policy] preset=NAME takes every switch the
 * scenario does not set itself from the preset, so a variant that has no
 * name is written in a scenario file (preset=baseline plus
 * noretry_skip_drain=1).  `slowpath policies` prints the presets with
 * their keys; docs/policies.md shows how to add a switch.
 *
 * The kernel generation (6.6, 6.12 or the 2026 mm tree) and
 * k2026_noretry_bail are not switches of a variant: they are separate
 * [policy] keys (kernel=, noretry_bail_2026=) that no preset sets, so that
 * variants are compared on one base.
 *
 * Every switch's zero value is the baseline (P1), so a preset names only
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

extern const char *const filemap_gfp_rule_names[];	/* [policy] filemap_rule= values */

struct mm_policy {
	const char *name;		/* "baseline", "noretry-nonblocking", ...; in a run: the
					 * preset plus the keys that differ from it
					 * ("baseline+noretry_skip_drain=1") */
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

	/* ---- base, not part of a variant: [policy] kernel= and noretry_bail_2026= ---- */
	enum kernel_gen kernel;
	bool k2026_noretry_bail;	/* KERNEL_2026 only: keep 6.12's early bail-out of a costly
					 * NORETRY request whose first compaction was SKIPPED or
					 * DEFERRED (the 2026 __alloc_pages_slowpath, docs/slowpath.md: UNCONFIRMED; the
					 * transliteration has no bail, so the default is off) */
};

/*
 * The switches: X(field, option type, value names for OPT_ENUM, help).
 * The [policy] key of a switch is its field name; its default is the zero
 * value (baseline).  Adding a row adds the key, its `slowpath check`,
 * `slowpath policies` and preset handling; the code that consults the
 * field is the rest of the work (docs/policies.md).
 */
#define MM_POLICY_SWITCHES(X)								\
	X(small_chunks, OPT_BOOL, NULL,							\
	  "P0: iomap copies at most one page per iteration and asks for order 0 "	\
	  "(iomap_write_iter before 5d8edfb900d5)")					\
	X(iomap_costly_noreclaim, OPT_BOOL, NULL,					\
	  "V1: iomap_get_folio clears __GFP_DIRECT_RECLAIM when the iteration's "	\
	  "order hint is costly (> 3)")							\
	X(filemap_rule, OPT_ENUM, filemap_gfp_rule_names,				\
	  "__filemap_get_folio's gfp for attempts above the min order: "		\
	  "noretry_above_min (P1), costly_noreclaim (V2), noreclaim_above_min (V3a), "	\
	  "first_attempt_noretry (V3b)")						\
	X(noretry_skip_drain, OPT_BOOL, NULL,						\
	  "Va: __alloc_pages_direct_reclaim skips unreserve + drain + retry for "	\
	  "costly __GFP_NORETRY")							\
	X(noretry_no_compaction, OPT_BOOL, NULL,					\
	  "Vb: gfp_compaction_allowed() is false for __GFP_NORETRY without "		\
	  "__GFP_THISNODE")								\
	X(costly_noretry_kcompactd, OPT_BOOL, NULL,					\
	  "V4: the slow path wakes kcompactd and fails a costly __GFP_NORETRY "	\
	  "request before direct reclaim or compaction")				\
	X(costly_noretry_noreclaim, OPT_BOOL, NULL,					\
	  "V5/V6: the slow path clears __GFP_DIRECT_RECLAIM on entry for costly "	\
	  "__GFP_NORETRY")								\
	X(thisnode_exempt, OPT_BOOL, NULL,						\
	  "V6: costly_noretry_noreclaim spares __GFP_THISNODE requests "		\
	  "(UNCONFIRMED which way the merged patch went)")

extern const struct mm_policy mm_policies[];
extern const unsigned int mm_nr_policies;

const struct mm_policy *mm_policy_find(const char *name);
/* Is `key` a switch (a row of MM_POLICY_SWITCHES)? */
bool mm_policy_is_switch(const char *key);
/* dst's switch `key` := src's; false if `key` is no switch. */
bool mm_policy_copy_switch(struct mm_policy *dst, const struct mm_policy *src, const char *key);
/* Do a and b agree on switch `key`?  (true if `key` is no switch) */
bool mm_policy_same_switch(const struct mm_policy *a, const struct mm_policy *b, const char *key);
const char *kernel_gen_name(enum kernel_gen k);

#endif
