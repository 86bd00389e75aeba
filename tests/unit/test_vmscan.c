/* SPDX-License-Identifier: MIT */
/*
 * test_vmscan.c — reclaim (mm/vmscan.c): direct reclaim of clean, dirty
 * and writeback page cache, kswapd balancing, boosts, order-aware
 * reclaim and sleeping, wakeup_kswapd's rules, and throttling.
 */
#include "frag_test.h"
#include "mm/compaction.h"
#include "mm/vmscan.h"

static unsigned long reclaim(struct machine *m, gfp_t gfp, unsigned int order)
{
	struct alloc_context ac;
	unsigned int fl = 0;

	prepare_alloc_pages(m, gfp, order, &ac, &fl);
	return try_to_free_pages(m, &ac, order, gfp);
}

static long free_pages_now(struct machine *m)
{
	return mm_free_pages(m, ZONE_NORMAL);
}

/*
 * A test of direct reclaim of clean page cache (do_try_to_free_pages, mm/vmscan.c): a zone of
 * clean page-cache folios (one page in 16 free).  Expect at least 32 pages
 * reclaimed starting at priority 12 (list size >> 12 per pass), counted in
 * allocstall_normal (GFP_KERNEL's zone), pgscan_direct >= pgsteal_direct =
 * pgsteal_file = the reclaimed pages, those pages gone from the mapping
 * and the file counters, and the isolated counts back at zero.
 */
TEST(direct_reclaim_frees_clean_page_cache)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "FFFFFFFFFFFFFFF.");
	unsigned long before, got;

	ASSERT_TRUE(m != NULL);
	before = v.f.file->nrpages;
	got = reclaim(m, GFP_KERNEL, 0);
	ASSERT_TRUE(got >= SWAP_CLUSTER_MAX);
	ASSERT_EQ(ev(m, ALLOCSTALL_NORMAL), 1);
	ASSERT_EQ(ev(m, PGSTEAL_DIRECT), got);
	ASSERT_EQ(ev(m, PGSTEAL_FILE), got);
	ASSERT_TRUE(ev(m, PGSCAN_DIRECT) >= got);
	ASSERT_EQ(ev(m, PGSTEAL_KSWAPD), 0);
	ASSERT_EQ(v.f.file->nrpages, before - got);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), (long)(before - got));
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_FILE), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of dirty and writeback folios in reclaim (shrink_folio_list, mm/vmscan.c): direct
 * reclaim never writes or waits.  Dirty folios get PG_reclaim, count in
 * nr_vmscan_immediate_reclaim and are activated; writeback folios get
 * PG_reclaim and are activated; locked folios are skipped; nothing is
 * freed.  Expect 0 reclaimed, the immediate-reclaim count equal to the
 * dirty pages scanned, and every scanned folio back on an LRU list.
 */
TEST(dirty_and_writeback_folios_are_rotated)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "DWDL");
	unsigned long dirty_reclaim = 0, wb_reclaim = 0;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(reclaim(m, GFP_KERNEL, 0), 0);
	ASSERT_EQ(ev(m, PGSTEAL_DIRECT), 0);
	ASSERT_TRUE(ev(m, PGSCAN_DIRECT) > 0);
	for (pfn_t p = 0; p < m->nr_pfns; p++) {
		const struct page *page = pfn_to_page(m, p);

		if (page_type(page) != PGTY_FILE)
			continue;
		ASSERT_TRUE(page->flags & PG_lru);
		if ((page->flags & PG_dirty) && (page->flags & PG_reclaim))
			dirty_reclaim++;
		if ((page->flags & PG_writeback) && (page->flags & PG_reclaim))
			wb_reclaim++;
	}
	ASSERT_TRUE(dirty_reclaim > 0);
	ASSERT_TRUE(wb_reclaim > 0);
	ASSERT_TRUE(node_page_state_exact(&m->node, NR_VMSCAN_IMMEDIATE) >= (long)dirty_reclaim);
	ASSERT_TRUE(ev(m, PGACTIVATE) > 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of reclaim skipping compaction-ready zones for costly orders
 * (do_try_to_free_pages, mm/vmscan.c step 3): half the zone free in single pages, the rest clean
 * page cache and kernel pages.  Expect an order-4 reclaim to scan nothing
 * and return 1 (compaction ready), an order-2 reclaim to reclaim.
 */
TEST(compaction_ready_short_circuits_costly_reclaim)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "K.F.");

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(reclaim(m, XFS_MAPPING_GFP, 4), 1);
	ASSERT_EQ(ev(m, PGSCAN_DIRECT), 0);
	ASSERT_EQ(st(m, SIM_RECLAIM_COMPACTION_READY), 1);
	ASSERT_EQ(ev(m, ALLOCSTALL_MOVABLE), 1);
	ASSERT_TRUE(reclaim(m, XFS_MAPPING_GFP, 2) > 1);
	ASSERT_TRUE(ev(m, PGSCAN_DIRECT) > 0);
	mm_env_destroy(&v.e);
}

/* ---- kswapd --------------------------------------------------------------------- */

static void start_threads(struct machine *m)
{
	machine_start(m);
	sim_run(machine_sim(m), SIM_NSEC_PER_MSEC);
}

static bool kswapd_sleeping(struct machine *m)
{
	return sim_waitq_active(&m->node.kswapd_wait);
}

/* Take free pages off the buddy lists until the zone is below `mark`. */
static void consume_below(struct machine *m, struct zone *zone, unsigned long mark)
{
	drain_all_pages(m, NULL);
	for (pfn_t p = (pfn_t)zone->zone_start_pfn; p < zone_end_pfn(zone) && free_pages_now(m) >= (long)mark; p++)
		if (take_page_off_buddy(m, p))
			set_page_type_order(pfn_to_page(m, p), PGTY_KERNEL, 0);
}

/*
 * A test of kswapd balancing a node and going back to sleep (kswapd/balance_pgdat, mm/vmscan.c):
 * the zone is full of clean page cache.  kswapd, started on the
 * unbalanced node, first tries to sleep, cannot, and reclaims until the
 * zone meets its high watermark; then it sleeps.  Taking the zone below
 * its low watermark again and waking it (order 0) repeats that.  Expect
 * pageoutrun >= 2, pgsteal_kswapd > 0, no direct reclaim, free pages
 * above the high watermark each time, ZONE_RECLAIM_ACTIVE cleared, and
 * kswapd asleep at the end.
 */
TEST(kswapd_balances_and_sleeps)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "FFFFFFFFFFFFFFFF");

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(free_pages_now(m) < (long)low_wmark_pages(v.zone));
	machine_start(m);
	sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
	ASSERT_TRUE(ev(m, PAGEOUTRUN) >= 1);
	ASSERT_TRUE(kswapd_sleeping(m));
	drain_all_pages(m, NULL);
	ASSERT_TRUE(free_pages_now(m) > (long)high_wmark_pages(v.zone));

	consume_below(m, v.zone, low_wmark_pages(v.zone));
	wakeup_kswapd(v.zone, GFP_KERNEL, 0, ZONE_NORMAL);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 1);
	sim_run(machine_sim(m), 3 * SIM_NSEC_PER_SEC);
	ASSERT_TRUE(ev(m, PAGEOUTRUN) >= 2);
	ASSERT_TRUE(ev(m, PGSTEAL_KSWAPD) > 0);
	ASSERT_EQ(ev(m, PGSTEAL_DIRECT), 0);
	drain_all_pages(m, NULL);
	ASSERT_TRUE(free_pages_now(m) > (long)high_wmark_pages(v.zone));
	ASSERT_FALSE(zone_test_flag(v.zone, ZONE_RECLAIM_ACTIVE));
	ASSERT_TRUE(kswapd_sleeping(m));
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of order-aware kswapd (balance_pgdat, mm/vmscan.c): plenty of free single pages
 * but no order-4 block, and a kernel page in every 4 so reclaim cannot
 * make one; a wake-up for order 4 makes kswapd reclaim compact_gap(4) = 32
 * pages, drop to order 0 (balanced), sleep, and wake kcompactd for order
 * 4.  Expect a bounded kswapd steal (well under the high watermark), a
 * kcompactd wake-up and compact_daemon_wake >= 1.
 */
TEST(kswapd_order_aware_hands_off_to_kcompactd)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "K.F.");

	ASSERT_TRUE(m != NULL);
	start_threads(m);
	ASSERT_FALSE(pgdat_balanced(&m->node, 4, ZONE_NORMAL));
	wakeup_kswapd(v.zone, GFP_HIGHUSER_MOVABLE, 4, ZONE_MOVABLE);
	sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
	ASSERT_TRUE(ev(m, PGSTEAL_KSWAPD) >= compact_gap(4));
	ASSERT_TRUE(ev(m, PGSTEAL_KSWAPD) < high_wmark_pages(v.zone));
	ASSERT_TRUE(st(m, SIM_WAKEUP_KCOMPACTD) >= 1);
	ASSERT_TRUE(ev(m, KCOMPACTD_WAKE) >= 1);
	ASSERT_TRUE(kswapd_sleeping(m));
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of boosted reclaim (boost_watermark, mm/page_alloc.c; kswapd/balance_pgdat, mm/vmscan.c step 3): a zone balanced at
 * its plain watermarks but carrying a watermark boost.  kswapd, woken,
 * reclaims at least the boost without writeback, subtracts it, and wakes
 * kcompactd for pageblock order.  Expect sim_kswapd_boost_reclaim 1,
 * watermark_boost 0 afterwards, and a kcompactd wake request.
 */
TEST(kswapd_works_off_the_watermark_boost)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "FF..");

	ASSERT_TRUE(m != NULL);
	start_threads(m);
	v.zone->watermark_boost = 4 * pageblock_nr_pages;
	wakeup_kswapd(v.zone, GFP_KERNEL, 0, ZONE_NORMAL);
	sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
	ASSERT_EQ(st(m, SIM_KSWAPD_BOOST_RECLAIM), 1);
	ASSERT_EQ(v.zone->watermark_boost, 0);
	ASSERT_TRUE(ev(m, PGSTEAL_KSWAPD) > 0);
	ASSERT_TRUE(st(m, SIM_WAKEUP_KCOMPACTD) >= 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of kswapd_try_to_sleep's counters (kswapd/balance_pgdat, mm/vmscan.c step 2): woken
 * during its 100 ms nap it counts kswapd_low_wmark_hit_quickly; not
 * balanced after the nap (memory taken meanwhile, here nothing
 * reclaimable) it counts kswapd_high_wmark_hit_quickly.
 */
TEST(kswapd_hit_quickly_counters)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "FFFFFFFFFFFFFFFF");

	ASSERT_TRUE(m != NULL);
	start_threads(m);
	wakeup_kswapd(v.zone, GFP_KERNEL, 0, ZONE_NORMAL);
	/* kswapd reclaims, then naps: wake it again inside the nap */
	sim_run(machine_sim(m), sim_now(machine_sim(m)) + 50 * SIM_NSEC_PER_MSEC);
	ASSERT_TRUE(kswapd_sleeping(m));
	sim_wake_all(machine_sim(m), &m->node.kswapd_wait);
	sim_run(machine_sim(m), sim_now(machine_sim(m)) + SIM_NSEC_PER_SEC);
	ASSERT_EQ(ev(m, KSWAPD_LOW_WMARK_HIT_QUICKLY), 1);
	mm_env_destroy(&v.e);

	/* nothing reclaimable: never balanced, kswapd gives up after 16 tries */
	m = frag_env_create(&v, NULL, NULL, "KKKKKKKKKKKKKKKK");
	ASSERT_TRUE(m != NULL);
	start_threads(m);
	wakeup_kswapd(v.zone, GFP_KERNEL, 0, ZONE_NORMAL);
	sim_run(machine_sim(m), sim_now(machine_sim(m)) + 10 * SIM_NSEC_PER_SEC);
	ASSERT_TRUE(ev(m, KSWAPD_HIGH_WMARK_HIT_QUICKLY) >= 1);
	ASSERT_EQ(m->node.kswapd_failures, MAX_RECLAIM_RETRIES);
	ASSERT_TRUE(kswapd_sleeping(m));
	mm_env_destroy(&v.e);
}

/*
 * A test of wakeup_kswapd's rules (mm/vmscan.c): it always records the
 * order; a kswapd that is not sleeping is not woken; on a node balanced
 * for the order and not boosted, kswapd is not woken and a request
 * without __GFP_DIRECT_RECLAIM wakes kcompactd instead (one with it does
 * not); an unbalanced node wakes kswapd; a hopeless node (16 failures)
 * does not.
 */
TEST(wakeup_kswapd_rules)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "AA......");

	ASSERT_TRUE(m != NULL);
	wakeup_kswapd(v.zone, GFP_KERNEL, 3, ZONE_NORMAL);	/* no kswapd task yet */
	ASSERT_EQ(m->node.kswapd_order, 3);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 0);
	start_threads(m);
	/* balanced for order 1 (free pairs), not for order 4 (anon in every chunk) */
	ASSERT_TRUE(pgdat_balanced(&m->node, 1, ZONE_NORMAL));
	wakeup_kswapd(v.zone, GFP_HIGHUSER_MOVABLE, 1, ZONE_MOVABLE);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 0);
	ASSERT_EQ(st(m, SIM_WAKEUP_KCOMPACTD), 0);
	wakeup_kswapd(v.zone, GFP_HIGHUSER_MOVABLE & ~__GFP_DIRECT_RECLAIM, 1, ZONE_MOVABLE);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 0);
	ASSERT_EQ(st(m, SIM_WAKEUP_KCOMPACTD), 1);
	m->node.kswapd_failures = MAX_RECLAIM_RETRIES;
	wakeup_kswapd(v.zone, GFP_HIGHUSER_MOVABLE, 4, ZONE_MOVABLE);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 0);
	m->node.kswapd_failures = 0;
	wakeup_kswapd(v.zone, GFP_HIGHUSER_MOVABLE, 4, ZONE_MOVABLE);
	ASSERT_EQ(st(m, SIM_KSWAPD_WAKE), 1);
	mm_env_destroy(&v.e);
}

/* ---- throttling ------------------------------------------------------------------ */

struct throttle_arg {
	enum vmscan_throttle_state reason;
	sim_time_t slept;
};

static void do_throttle(struct machine *m, void *arg)
{
	struct throttle_arg *a = arg;
	sim_time_t t0 = sim_now(machine_sim(m));

	reclaim_throttle(&m->node, a->reason);
	a->slept = sim_now(machine_sim(m)) - t0;
}

/*
 * A test of reclaim_throttle's timeouts (do_try_to_free_pages, mm/vmscan.c step 6, docs/references.md
 * should_reclaim_retry, mm/page_alloc.c): a user task sleeps HZ/10 = 100 ms for writeback and HZ/50 = 20 ms
 * for too many isolated pages; no-progress throttling is skipped when
 * little is waiting for writeback; a kernel thread never sleeps.
 */
TEST(reclaim_throttle_timeouts)
{
	static const struct { enum vmscan_throttle_state r; sim_time_t ns; } cases[] = {
		{ VMSCAN_THROTTLE_WRITEBACK, 100 * SIM_NSEC_PER_MSEC },
		{ VMSCAN_THROTTLE_ISOLATED, 20 * SIM_NSEC_PER_MSEC },
		{ VMSCAN_THROTTLE_NOPROGRESS, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct frag_env v;
		struct machine *m = frag_env_create(&v, NULL, NULL, "FF..");
		struct throttle_arg a = { .reason = cases[i].r };
		struct frag_task_call c = { .fn = do_throttle, .arg = &a };

		ASSERT_TRUE(m != NULL);
		frag_task(m, &c, "reclaimer", 0, 0);
		sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
		ASSERT_TRUE(c.done);
		ASSERT_TRUE(a.slept >= cases[i].ns && a.slept < cases[i].ns + SIM_NSEC_PER_MSEC);
		ASSERT_EQ(st(m, SIM_RECLAIM_THROTTLE), cases[i].ns ? 1 : 0);
		mm_env_destroy(&v.e);
	}
	{
		struct frag_env v;
		struct machine *m = frag_env_create(&v, NULL, NULL, "FF..");
		struct throttle_arg a = { .reason = VMSCAN_THROTTLE_WRITEBACK };
		struct frag_task_call c = { .fn = do_throttle, .arg = &a };
		struct sim_task_config cfg = { .name = "kthread", .kind = mm_kthread_kind(m, "flush"),
					       .cpu = 0 };

		ASSERT_TRUE(m != NULL);
		c.m = m;
		sim_task_create(machine_sim(m), &cfg, frag_task_trampoline, &c, 0);
		sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
		ASSERT_TRUE(c.done);
		ASSERT_TRUE(a.slept < SIM_NSEC_PER_MSEC);
		ASSERT_EQ(st(m, SIM_RECLAIM_THROTTLE), 0);
		mm_env_destroy(&v.e);
	}
}

struct end_wb_arg {
	unsigned int	nr;		/* folios whose writeback ends */
};

static void do_end_writeback(struct machine *m, void *arg)
{
	struct end_wb_arg *a = arg;
	unsigned int done = 0;

	for (pfn_t p = 0; p < m->nr_pfns && done < a->nr; p++)
		if (page_type(pfn_to_page(m, p)) == PGTY_FILE &&
		    (pfn_to_page(m, p)->flags & PG_writeback)) {
			folio_end_writeback(m, p);
			done++;
		}
}

/*
 * A test of the early wake of writeback throttling (do_try_to_free_pages, mm/vmscan.c step 6,
 * __acct_reclaim_writeback): a reclaimer sleeps in
 * reclaim_throttle(WRITEBACK) at t=0; at 10 ms writeback ends for some
 * folios.  Expect it woken at 10 ms once more than SWAP_CLUSTER_MAX pages
 * per throttled task were written (40 folios), and the full HZ/10 sleep
 * when only 16 were; pages are counted in nr_throttled_written only while
 * a task is throttled.
 */
TEST(writeback_throttle_woken_by_written_pages)
{
	static const struct { unsigned int nr; sim_time_t lo, hi; } cases[] = {
		{ 40, 10 * SIM_NSEC_PER_MSEC, 11 * SIM_NSEC_PER_MSEC },
		{ 16, 100 * SIM_NSEC_PER_MSEC, 101 * SIM_NSEC_PER_MSEC },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct frag_env v;
		struct machine *m = frag_env_create(&v, NULL, NULL, "WWWW.");
		struct throttle_arg a = { .reason = VMSCAN_THROTTLE_WRITEBACK };
		struct end_wb_arg e = { .nr = cases[i].nr };
		struct frag_task_call c = { .fn = do_throttle, .arg = &a };
		struct frag_task_call w = { .fn = do_end_writeback, .arg = &e };

		ASSERT_TRUE(m != NULL);
		frag_task(m, &c, "reclaimer", 0, 0);
		frag_task(m, &w, "bio_endio", 1, 10 * SIM_NSEC_PER_MSEC);
		sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
		ASSERT_TRUE(c.done && w.done);
		ASSERT_TRUE(a.slept >= cases[i].lo && a.slept < cases[i].hi);
		/* counted only while someone is throttled */
		ASSERT_TRUE(node_page_state_exact(&m->node, NR_THROTTLED_WRITTEN) >
			    (cases[i].nr > SWAP_CLUSTER_MAX ? (long)SWAP_CLUSTER_MAX : (long)cases[i].nr - 1));
		ASSERT_EQ(m->node.nr_writeback_throttled, 0);
		ASSERT_MM_OK(m);
		mm_env_destroy(&v.e);
	}
}

/*
 * A test of kswapd throttling on writeback (shrink_folio_list, mm/vmscan.c): the LRU is all
 * folios under writeback.  kswapd's first pass marks them PG_reclaim and
 * flags the node PGDAT_WRITEBACK; meeting them again counts them as
 * immediate and kswapd sleeps in reclaim_throttle(WRITEBACK).  Expect at
 * least one writeback throttle and no pages stolen.
 */
TEST(kswapd_throttles_on_writeback)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "WWWWWWWWWWWWWWWW");

	ASSERT_TRUE(m != NULL);
	start_threads(m);
	wakeup_kswapd(v.zone, GFP_KERNEL, 0, ZONE_NORMAL);
	sim_run(machine_sim(m), 3 * SIM_NSEC_PER_SEC);
	ASSERT_TRUE(st(m, SIM_RECLAIM_THROTTLE_WRITEBACK) >= 1);
	ASSERT_EQ(ev(m, PGSTEAL_KSWAPD), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

struct alloc_arg {
	gfp_t		gfp;
	pfn_t		pfn;
	sim_time_t	took;
};

static void do_alloc(struct machine *m, void *arg)
{
	struct alloc_arg *a = arg;
	sim_time_t t0 = sim_now(machine_sim(m));

	a->pfn = __alloc_pages(m, a->gfp, 0, NULL);
	a->took = sim_now(machine_sim(m)) - t0;
}

/*
 * A test of throttle_direct_reclaim (do_try_to_free_pages, mm/vmscan.c step 2): free pages below
 * half the min watermark with reclaimable page cache and no kswapd to
 * help: a GFP_NOFS allocation is throttled (pgscan_direct_throttle) on
 * every reclaim attempt while the reserve stays short, each time for the
 * full second (HZ) a caller without __GFP_FS may wait, reclaiming for
 * itself in between.  Expect success, and about one second per throttle.
 */
TEST(direct_reclaim_throttled_on_pfmemalloc_reserve)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, NULL, NULL, "FFFFFFFFFFFFFFFF");
	struct alloc_arg a = { .gfp = GFP_NOFS };
	struct frag_task_call c = { .fn = do_alloc, .arg = &a };
	uint64_t throttled;

	ASSERT_TRUE(m != NULL);
	frag_task(m, &c, "allocator", 0, 0);
	sim_run(machine_sim(m), 60 * SIM_NSEC_PER_SEC);
	ASSERT_TRUE(c.done);
	ASSERT_TRUE(a.pfn != PFN_NONE);
	throttled = ev(m, PGSCAN_DIRECT_THROTTLE);
	ASSERT_TRUE(throttled >= 1);
	ASSERT_TRUE(a.took >= throttled * SIM_NSEC_PER_SEC &&
		    a.took < throttled * (SIM_NSEC_PER_SEC + 100 * SIM_NSEC_PER_MSEC));
	free_pages(m, a.pfn, 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}
