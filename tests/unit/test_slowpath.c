/* SPDX-License-Identifier: MIT */
/*
 * test_slowpath.c — __alloc_pages_slowpath: the walk-throughs W1 and W2 of
 * kernel-mm-spec.md §0.7 as golden step traces for both flows (6.12, 2026),
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

struct w_env {
	struct mm_env	e;
	struct frag	f;
	struct mm_policy pol;
	struct machine	*m;
};

static struct machine *w_state(struct w_env *w, const char *policy, enum kernel_gen k, const char *pattern)
{
	struct zone *zone;

	w->pol = *mm_policy_find(policy);
	w->pol.kernel = k;
	w->m = mm_env_create_policy(&w->e, w_kv, &w->pol);
	if (!w->m)
		return NULL;
	sim_set_engine_cpu(w->e.sim, 0);
	frag_init(&w->f, w->m);
	zone = mm_zone(w->m, ZONE_NORMAL);
	if (!frag_pattern(&w->f, (pfn_t)zone->zone_start_pfn, (pfn_t)zone_end_pfn(zone), pattern))
		return NULL;
	return w->m;
}

static void w_destroy(struct w_env *w)
{
	mm_env_destroy(&w->e);
}

static uint64_t ev(struct machine *m, enum vm_event_item i)
{
	return sum_vm_event(m, i);
}

static uint64_t st(struct machine *m, enum sim_stat_item i)
{
	return sim_stat_read(m, i);
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
 * A test of W1 in the 6.12 flow (spec §0.7): a costly (order 4) page-cache
 * attempt with __GFP_NORETRY on the fragmented zone.  Expect failure after
 * exactly: two kswapd wake requests, two async compactions (both counted as
 * stalls and failures: the page cache cannot be isolated without __GFP_FS),
 * one reclaim call counted as allocstall_movable that scans nothing
 * (compaction_ready) and returns 1, one drain_all_pages, and the golden
 * trace.
 */
TEST(w1_costly_noretry_6_12)
{
	struct w_env w;
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
	w_destroy(&w);
}

/*
 * A test of W1 in the 2026 flow (spec §0.6): compaction first (async),
 * then one more pass with reclaim, drain and async compaction.  Expect the
 * same counter totals as 6.12 here (two compactions, one reclaim, one
 * drain) reached in a different order, and the golden trace.
 */
TEST(w1_costly_noretry_2026)
{
	struct w_env w;
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
	w_destroy(&w);
}

/*
 * A test of W2 in the 6.12 flow (spec §0.7): the same request at order 2.
 * No initial compaction (movable, non-costly); one pass: kswapd wake,
 * direct reclaim scanning from priority 12 (clean page cache is freed, but
 * a kernel page in every 4 keeps order-2 blocks from forming), a drain,
 * SYNC_LIGHT compaction (which defers the zone), fail on __GFP_NORETRY.
 * Expect allocstall_movable 1, pgscan_direct and pgsteal_direct > 0, one
 * compaction stall, one deferral, and the golden trace.
 */
TEST(w2_noncostly_noretry_6_12)
{
	struct w_env w;
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
	w_destroy(&w);
}

/*
 * A test of W2 in the 2026 flow: a movable order-2 request has no
 * compact_first, so the pass is the same as 6.12's retry loop.  Expect
 * the same counters as w2_noncostly_noretry_6_12 and the golden trace.
 */
TEST(w2_noncostly_noretry_2026)
{
	struct w_env w;
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
	w_destroy(&w);
}
