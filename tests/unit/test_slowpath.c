/* SPDX-License-Identifier: MIT */
/*
 * test_slowpath.c — __alloc_pages_slowpath: the walk-throughs W1 and W2 of
 * docs/slowpath.md, walk-throughs as golden step traces for both flows (6.12, 2026),
 * and the counters each walk-through must move.
 *
 * The state (w_state): a 64 MiB machine, one Normal zone, every 4 pages
 * "kernel page, free, clean page-cache folio, free": half the zone is free
 * but no free block is larger than one page, and the page cache cannot be
 * migrated by a gfp without __GFP_FS (the XFS page-cache gfp).
 *
 * Regenerate the traces on purpose with
 *     UPDATE_GOLDEN=1 build/dbg/tests/test_slowpath
 * and review the diff (tests/golden/6001-slowpath-walkthroughs/expected/).
 */
#include "frag_test.h"
#include "mm/compaction.h"
#include "mm/trace.h"

#define W_DIR	"tests/golden/6001-slowpath-walkthroughs/expected/"
#define PAGECACHE_GFP(order) \
	(XFS_MAPPING_GFP | __GFP_WRITE | __GFP_COMP | ((order) ? __GFP_NORETRY | __GFP_NOWARN : 0))

static const char *const w_kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2", NULL };

/* The walk-through state under `policy` and kernel generation `k`. */
static struct machine *w_state(struct frag_env *w, const char *policy, enum kernel_gen k, const char *pattern)
{
	struct mm_policy pol = *mm_policy_find(policy);

	pol.kernel = k;
	return frag_env_create(w, w_kv, &pol, pattern);
}

/* One allocation with the step trace on; the trace as a string. */
static char *traced_alloc(struct machine *m, gfp_t gfp, unsigned int order, pfn_t *pfn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	mm_trace_start(m, f);
	*pfn = __alloc_pages(m, gfp, order, NULL);
	mm_trace_stop(m);
	fclose(f);
	return buf;
}

/*
 * A test of W1 in the 6.12 flow (docs/slowpath.md, walk-throughs): a costly (order 4) page-cache
 * attempt with __GFP_NORETRY on the fragmented zone.  Expect failure after
 * exactly: two kswapd wake requests, two async compactions (both counted as
 * stalls and failures: the page cache cannot be isolated without __GFP_FS),
 * one reclaim call counted as allocstall_movable that scans nothing
 * (compaction_ready) and returns 1, one drain_all_pages, and the golden
 * trace.
 */
TEST(w1_costly_noretry_6_12)
{
	struct frag_env w;
	struct machine *m = w_state(&w, "baseline", KERNEL_6_12, "K.F.");
	pfn_t pfn;
	char *trace;

	ASSERT_TRUE(m != NULL);
	trace = traced_alloc(m, PAGECACHE_GFP(4), 4, &pfn);
	ASSERT_EQ(pfn, PFN_NONE);
	ASSERT_EQ(st(m, SIM_WAKEUP_KSWAPD), 2);
	ASSERT_EQ(ev(m, COMPACTSTALL), 2);
	ASSERT_EQ(ev(m, COMPACTFAIL), 2);
	ASSERT_EQ(ev(m, COMPACTSUCCESS), 0);
	ASSERT_EQ(ev(m, ALLOCSTALL_MOVABLE), 1);
	ASSERT_EQ(ev(m, PGSCAN_DIRECT), 0);
	ASSERT_EQ(st(m, SIM_RECLAIM_COMPACTION_READY), 1);
	ASSERT_EQ(st(m, SIM_DIRECT_DRAIN), 1);
	ASSERT_EQ(st(m, SIM_DRAIN_ALL_PAGES), 1);
	ASSERT_EQ(st(m, SIM_COSTLY_NORETRY_FAIL_ORDER_4), 1);
	ASSERT_TRUE(ev(m, COMPACTMIGRATE_SCANNED) > 0);
	ASSERT_EQ(ev(m, COMPACTISOLATED), 0);
	mm_check_golden(__FILE__, __LINE__, W_DIR "w1-6.12", trace);
	free(trace);
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/*
 * A test of W1 in the 2026 flow (the 2026 __alloc_pages_slowpath, docs/slowpath.md): compaction first (async),
 * then one more pass with reclaim, drain and async compaction.  Expect the
 * same counter totals as 6.12 here (two compactions, one reclaim, one
 * drain) reached in a different order, and the golden trace.
 */
TEST(w1_costly_noretry_2026)
{
	struct frag_env w;
	struct machine *m = w_state(&w, "baseline", KERNEL_2026, "K.F.");
	pfn_t pfn;
	char *trace;

	ASSERT_TRUE(m != NULL);
	trace = traced_alloc(m, PAGECACHE_GFP(4), 4, &pfn);
	ASSERT_EQ(pfn, PFN_NONE);
	ASSERT_EQ(st(m, SIM_WAKEUP_KSWAPD), 2);
	ASSERT_EQ(ev(m, COMPACTSTALL), 2);
	ASSERT_EQ(ev(m, ALLOCSTALL_MOVABLE), 1);
	ASSERT_EQ(st(m, SIM_DIRECT_DRAIN), 1);
	mm_check_golden(__FILE__, __LINE__, W_DIR "w1-2026", trace);
	free(trace);
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/*
 * A test of W2 in the 6.12 flow (docs/slowpath.md, walk-throughs): the same request at order 2.
 * No initial compaction (movable, non-costly); one pass: kswapd wake,
 * direct reclaim scanning from priority 12 (clean page cache is freed, but
 * a kernel page in every 4 keeps order-2 blocks from forming), a drain,
 * SYNC_LIGHT compaction (which defers the zone), fail on __GFP_NORETRY.
 * Expect allocstall_movable 1, pgscan_direct and pgsteal_direct > 0, one
 * compaction stall, one deferral, and the golden trace.
 */
TEST(w2_noncostly_noretry_6_12)
{
	struct frag_env w;
	struct machine *m = w_state(&w, "baseline", KERNEL_6_12, "K.F.");
	pfn_t pfn;
	char *trace;

	ASSERT_TRUE(m != NULL);
	trace = traced_alloc(m, PAGECACHE_GFP(2), 2, &pfn);
	ASSERT_EQ(pfn, PFN_NONE);
	ASSERT_EQ(st(m, SIM_WAKEUP_KSWAPD), 2);
	ASSERT_EQ(ev(m, ALLOCSTALL_MOVABLE), 1);
	ASSERT_TRUE(ev(m, PGSCAN_DIRECT) > 0);
	ASSERT_TRUE(ev(m, PGSTEAL_DIRECT) > 0);
	ASSERT_EQ(st(m, SIM_DIRECT_DRAIN), 1);
	ASSERT_EQ(ev(m, COMPACTSTALL), 1);
	ASSERT_EQ(st(m, SIM_COMPACT_DEFER), 1);
	mm_check_golden(__FILE__, __LINE__, W_DIR "w2-6.12", trace);
	free(trace);
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/*
 * A test of W2 in the 2026 flow: a movable order-2 request has no
 * compact_first, so the pass is the same as 6.12's retry loop.  Expect
 * the same counters as w2_noncostly_noretry_6_12 and the golden trace.
 */
TEST(w2_noncostly_noretry_2026)
{
	struct frag_env w;
	struct machine *m = w_state(&w, "baseline", KERNEL_2026, "K.F.");
	pfn_t pfn;
	char *trace;

	ASSERT_TRUE(m != NULL);
	trace = traced_alloc(m, PAGECACHE_GFP(2), 2, &pfn);
	ASSERT_EQ(pfn, PFN_NONE);
	ASSERT_EQ(st(m, SIM_WAKEUP_KSWAPD), 1);
	ASSERT_EQ(ev(m, ALLOCSTALL_MOVABLE), 1);
	ASSERT_EQ(st(m, SIM_DIRECT_DRAIN), 1);
	ASSERT_EQ(ev(m, COMPACTSTALL), 1);
	mm_check_golden(__FILE__, __LINE__, W_DIR "w2-2026", trace);
	free(trace);
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/* ---- policy variants against baseline (docs/slowpath.md, policy variants table) ------------------------ */

struct counts {
	uint64_t stalls;	/* direct compaction runs (compact_stall) */
	uint64_t compact_calls;	/* __alloc_pages_direct_compact calls, skipped ones included */
	uint64_t reclaims;	/* direct reclaim calls (allocstall_*) */
	uint64_t scanned;	/* pgscan_direct */
	uint64_t drains;	/* drain_all_pages(NULL) after direct reclaim */
	uint64_t kswapd;	/* wakeup_kswapd calls */
	uint64_t kcompactd;	/* wakeup_kcompactd calls */
	bool	 ok;		/* the allocation succeeded */
};

/* Build the state, run one allocation under `policy` and `kernel`. */
static void variant_run(const char *policy, enum kernel_gen k, bool bail, const char *pattern, gfp_t gfp,
			unsigned int order, struct counts *c)
{
	struct frag_env w;
	struct machine *m;
	pfn_t pfn;

	memset(c, 0, sizeof(*c));
	w.pol = *mm_policy_find(policy);
	w.pol.kernel = k;
	w.pol.k2026_noretry_bail = bail;
	m = mm_env_create_policy(&w.e, w_kv, &w.pol);
	if (!m)
		return;
	w.m = m;
	sim_set_engine_cpu(w.e.sim, 0);
	frag_init(&w.f, m);
	if (!frag_pattern(&w.f, 0, m->nr_pfns, pattern)) {
		mm_env_destroy(&w.e);
		return;
	}
	pfn = __alloc_pages(m, gfp, order, NULL);
	c->ok = pfn != PFN_NONE;
	c->stalls = ev(m, COMPACTSTALL);
	c->compact_calls = st(m, SIM_DIRECT_COMPACT);
	c->reclaims = ev(m, ALLOCSTALL_MOVABLE) + ev(m, ALLOCSTALL_NORMAL);
	c->scanned = ev(m, PGSCAN_DIRECT);
	c->drains = st(m, SIM_DIRECT_DRAIN);
	c->kswapd = st(m, SIM_WAKEUP_KSWAPD);
	c->kcompactd = st(m, SIM_WAKEUP_KCOMPACTD);
	if (mm_check(m))
		c->ok = !c->ok;		/* make the caller's expectations fail loudly */
	mm_env_destroy(&w.e);
}

#define ASSERT_COUNTS(c, st_, re_, dr_, ks_, kc_) do {			\
	ASSERT_EQ((c).stalls, st_);					\
	ASSERT_EQ((c).reclaims, re_);					\
	ASSERT_EQ((c).drains, dr_);					\
	ASSERT_EQ((c).kswapd, ks_);					\
	ASSERT_EQ((c).kcompactd, kc_);					\
} while (0)

/* Fragmented: compaction runs and fails.  Short of memory: compaction is
 * skipped (free pages below low + compact_gap), reclaim can free page cache. */
#define FRAGMENTED	"K.F."
#define LOW_MEMORY	"KFFK"

/*
 * A test of the baseline row (P1) in both flows, the state where the
 * first compaction is SKIPPED, and the UNCONFIRMED 2026 bail switch.
 * Expect 6.12 fragmented: 2 compactions, 1 reclaim, 1 drain, 2 kswapd
 * wakes; 6.12 skipped: compaction not counted, no reclaim, no drain, 1
 * wake (the early bail); 2026 skipped without the bail: reclaim, a drain
 * and a second compaction — now counted, reclaim having freed enough for
 * it to run — happen anyway (2 wakes); with the bail switch as 6.12.
 */
TEST(variant_baseline_rows)
{
	struct counts c;

	variant_run("baseline", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 2, 1, 1, 2, 0);
	variant_run("baseline", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 2, 1, 1, 2, 0);
	variant_run("baseline", KERNEL_6_12, false, LOW_MEMORY, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 0, 0, 0, 1, 0);
	ASSERT_EQ(c.compact_calls, 1);
	variant_run("baseline", KERNEL_2026, false, LOW_MEMORY, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 1, 1, 1, 2, 0);
	ASSERT_EQ(c.compact_calls, 2);
	ASSERT_TRUE(c.scanned > 0);
	variant_run("baseline", KERNEL_2026, true, LOW_MEMORY, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 0, 0, 0, 1, 0);
}

/*
 * A test of noretry-skip-drain (Va): costly NORETRY keeps both async
 * compactions and the reclaim call but loses the drain; a non-costly
 * NORETRY request still drains.  Expect (2, 1, 0, 2) against baseline's
 * (2, 1, 1, 2) at order 4, and baseline's counts at order 2.
 */
TEST(variant_noretry_skip_drain)
{
	struct counts c, b;

	variant_run("noretry-skip-drain", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 2, 1, 0, 2, 0);
	variant_run("noretry-skip-drain", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 2, 1, 0, 2, 0);
	variant_run("baseline", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(2), 2, &b);
	variant_run("noretry-skip-drain", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(2), 2, &c);
	ASSERT_COUNTS(c, b.stalls, b.reclaims, b.drains, b.kswapd, b.kcompactd);
	ASSERT_EQ(c.drains, 1);
}

/*
 * A test of noretry-no-compaction (Vb): NORETRY requests without
 * __GFP_THISNODE cannot compact, so the costly attempt counts no stall,
 * and reclaim no longer short-circuits on compaction_ready: it scans
 * (pgscan_direct > 0) and, having freed pages that still form no order-4
 * block, drains.  The non-costly order-2 attempt loses its SYNC_LIGHT
 * compaction too.  A THISNODE request keeps compaction.
 */
TEST(variant_noretry_no_compaction)
{
	struct counts c;

	variant_run("noretry-no-compaction", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 0, 1, 1, 2, 0);
	ASSERT_TRUE(c.scanned > 0);
	variant_run("noretry-no-compaction", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_EQ(c.stalls, 0);
	ASSERT_EQ(c.reclaims, 1);
	ASSERT_TRUE(c.scanned > 0);
	variant_run("noretry-no-compaction", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(2), 2, &c);
	ASSERT_EQ(c.stalls, 0);
	ASSERT_EQ(c.reclaims, 1);
	variant_run("noretry-no-compaction", KERNEL_6_12, false, FRAGMENTED,
		    PAGECACHE_GFP(4) | __GFP_THISNODE, 4, &c);
	ASSERT_EQ(c.stalls, 1);		/* the THP-style local attempt: compaction only */
	ASSERT_EQ(c.reclaims, 0);
}

/*
 * A test of kcompactd-background (V4): costly NORETRY wakes kcompactd and
 * fails before any direct reclaim or compaction.  Expect no stall, no
 * reclaim, no drain, one kswapd wake and one explicit kcompactd wake in
 * both flows; order 2 unchanged from baseline.
 */
TEST(variant_kcompactd_background)
{
	struct counts c, b;

	variant_run("kcompactd-background", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 0, 0, 0, 1, 1);
	ASSERT_EQ(c.compact_calls, 0);
	variant_run("kcompactd-background", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 0, 0, 0, 1, 1);
	variant_run("baseline", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(2), 2, &b);
	variant_run("kcompactd-background", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(2), 2, &c);
	ASSERT_COUNTS(c, b.stalls, b.reclaims, b.drains, b.kswapd, b.kcompactd);
}

/*
 * A test of slowpath-entry-noreclaim (V5) and noretry-nonblocking (V6):
 * costly NORETRY becomes a non-blocking attempt — no stall, reclaim or
 * drain; kswapd woken twice in 6.12, once in 2026.  With __GFP_THISNODE,
 * V6 (thisnode_exempt) keeps direct reclaim and so the 6.12 initial
 * compaction (one stall, then the THISNODE bail), V5 does not.
 */
TEST(variant_slowpath_entry_noreclaim_and_nonblocking)
{
	struct counts c;

	variant_run("slowpath-entry-noreclaim", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 0, 0, 0, 2, 0);
	ASSERT_EQ(c.compact_calls, 0);
	variant_run("slowpath-entry-noreclaim", KERNEL_2026, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 0, 0, 0, 1, 0);
	variant_run("noretry-nonblocking", KERNEL_6_12, false, FRAGMENTED, PAGECACHE_GFP(4), 4, &c);
	ASSERT_COUNTS(c, 0, 0, 0, 2, 0);
	variant_run("noretry-nonblocking", KERNEL_6_12, false, FRAGMENTED,
		    PAGECACHE_GFP(4) | __GFP_THISNODE, 4, &c);
	ASSERT_EQ(c.stalls, 1);
	ASSERT_EQ(c.reclaims, 0);
	variant_run("slowpath-entry-noreclaim", KERNEL_6_12, false, FRAGMENTED,
		    PAGECACHE_GFP(4) | __GFP_THISNODE, 4, &c);
	ASSERT_EQ(c.stalls, 0);
	ASSERT_EQ(c.compact_calls, 0);
}

/*
 * A test of the non-blocking attempt the page-cache variants (V1, V2,
 * V3a, V3b) hand the allocator for costly orders — the gfp without
 * __GFP_DIRECT_RECLAIM: no stall, reclaim or drain, kswapd woken twice
 * (6.12) — and of the V1 risk in the docs/slowpath.md, policy variants table: its order-0 attempt can
 * fail where baseline's reclaims.  Short of memory, expect the order-0
 * request without direct reclaim to fail and with it to succeed (after
 * as many reclaim passes as it takes to lift the zone above its min
 * watermark: freed pages first sit on the pcp lists, uncounted).
 */
TEST(variant_nonblocking_attempts_of_the_pagecache_variants)
{
	struct counts c;

	variant_run("baseline", KERNEL_6_12, false, FRAGMENTED,
		    PAGECACHE_GFP(4) & ~(gfp_t)__GFP_DIRECT_RECLAIM, 4, &c);
	ASSERT_FALSE(c.ok);
	ASSERT_COUNTS(c, 0, 0, 0, 2, 0);
	variant_run("baseline", KERNEL_6_12, false, LOW_MEMORY,
		    PAGECACHE_GFP(0) & ~(gfp_t)__GFP_DIRECT_RECLAIM, 0, &c);
	ASSERT_FALSE(c.ok);
	variant_run("baseline", KERNEL_6_12, false, LOW_MEMORY, PAGECACHE_GFP(0), 0, &c);
	ASSERT_TRUE(c.ok);
	ASSERT_TRUE(c.reclaims >= 1);
}
