/* SPDX-License-Identifier: MIT */
/*
 * test_mm_fallback.c — migratetype fallback, case by case after
 * mm/page_alloc.c (6.12.117): __rmqueue_claim, can_steal_fallback,
 * try_to_steal_block (the model's try_to_claim_block: whole block, "free +
 * alike >= half a block", boost), __rmqueue_steal,
 * ALLOC_NOFRAGMENT, HIGHATOMIC, and rmqueue_bulk's remembered mode.
 *
 * Each state is built on a small machine by taking exact pages out of
 * the buddy lists (take_page_off_buddy) so that only the pageblock under
 * test has free memory:
 *
 *   pfn 0                 512                                  end
 *   | pageblock 0 (test)  | every other page taken (allocated) ... |
 *   [taken: kernel or LRU][free blocks of known orders]
 */
#include "mm_test.h"

/* Normal-only machine, one CPU, watermarks of a page or two (min_free_kbytes
 * 4 -> WMARK_MIN 1), so the few free pages of a test state pass them. */
static struct machine *fb_machine(struct mm_env *e, const char *memory)
{
	const char *kv[] = { memory, "zones=Normal:rest", "cpus=1", "vm.min_free_kbytes=4",
			     "vm.watermark_scale_factor=1", NULL };

	return mm_env_create(e, kv);
}

/* Take [start, end) out of the buddy lists as owner pages; LRU pages are
 * FILE folios with PG_lru (what try_to_claim_block counts as movable). */
static void take_range(struct machine *m, pfn_t start, pfn_t end, enum page_type type, bool lru)
{
	for (pfn_t p = start; p < end; p++) {
		struct page *page = pfn_to_page(m, p);

		if (!take_page_off_buddy(m, p))
			SIM_BUG("take_range: pfn %u not free", p);
		set_page_type_order(page, type, 0);
		page->flags = lru ? PG_lru : 0;
		pageblock_sample_update(m, p);
	}
}

static void set_block_type(struct machine *m, pfn_t start, int mt)
{
	struct zone *zone = page_zone(m, start);

	if (move_freepages_block(m, zone, start, get_pfnblock_migratetype(m, start), mt) < 0)
		SIM_BUG("set_block_type");
	if (mt == MIGRATE_HIGHATOMIC)
		zone->nr_reserved_highatomic += pageblock_nr_pages;
}

/* Allocate through the buddy path (this CPU's pcp lock held, as during a
 * remote drain), so one request shows one __rmqueue. */
static pfn_t alloc_buddy(struct machine *m, gfp_t gfp, unsigned int order)
{
	pfn_t pfn;

	mm_hold_pcp(m, ZONE_NORMAL, 1);
	pfn = __alloc_pages(m, gfp, order, NULL);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	return pfn;
}

static uint64_t stat(struct machine *m, enum sim_stat_item i)
{
	return sim_stat_read(m, i);
}

/*
 * A test of claiming a partially used MOVABLE pageblock for an UNMOVABLE
 * request (try_to_steal_block, mm/page_alloc.c, steps 3-5): pageblock 0
 * holds 100 kernel pages and 412 free
 * pages (orders 2, 3, 4, 7, 8).  The NOFRAGMENT pass may only claim whole
 * pageblocks and fails; the second pass claims from the largest order:
 * free 412 + alike (non-movable) 100 >= 256.  Expect the pageblock retyped
 * UNMOVABLE with all its free pages on UNMOVABLE lists, pfn 100 (the
 * smallest UNMOVABLE block after the move), one boost of a pageblock, and
 * the boost's kswapd wake.
 */
TEST(claim_partial_block_unmovable)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	take_range(m, 0, 100, PGTY_KERNEL, false);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 412);
	pfn = alloc_buddy(m, GFP_KERNEL, 0);
	ASSERT_EQ(pfn, 100);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
	ASSERT_EQ(zone->free_area[8].nr_free_mt[MIGRATE_UNMOVABLE], 1);
	ASSERT_EQ(zone->free_area[8].nr_free_mt[MIGRATE_MOVABLE], 0);
	ASSERT_EQ(stat(m, SIM_NOFRAGMENT_RETRY), 1);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 0);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 1);
	ASSERT_EQ(zone->watermark_boost, 512);
	ASSERT_EQ(stat(m, SIM_WAKEUP_KSWAPD), 1);
	ASSERT_FALSE(zone_test_flag(zone, ZONE_BOOSTED_WATERMARK));
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of a refused claim followed by a steal (__rmqueue_claim,
 * __rmqueue_steal, mm/page_alloc.c): pageblock 0 holds
 * 300 LRU pages and 212 free pages (orders 2, 4, 6, 7).  For an UNMOVABLE
 * request alike = 512 - free - movable = 0, so free + alike < 256 at every
 * order tried; every attempt below pageblock order boosts first.  Expect
 * four refused claims (orders 7, 6, 4, 2), four boosts (capped at one
 * pageblock here), then __rmqueue_steal takes the smallest block: pfn 300,
 * pageblock left MOVABLE.
 */
TEST(refused_claim_then_steal)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	take_range(m, 0, 300, PGTY_FILE, true);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	pfn = alloc_buddy(m, GFP_KERNEL, 0);
	ASSERT_EQ(pfn, 300);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_MOVABLE);
	ASSERT_EQ(stat(m, SIM_CLAIM_REFUSED), 4);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 4);
	ASSERT_EQ(zone->watermark_boost, 512);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 1);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 0);
	/* the rest of the split block stays on the MOVABLE lists */
	ASSERT_EQ(zone->free_area[0].nr_free_mt[MIGRATE_MOVABLE], 1);
	ASSERT_EQ(zone->free_area[1].nr_free_mt[MIGRATE_MOVABLE], 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of can_steal_fallback for a MOVABLE requester (mm/page_alloc.c: only free
 * blocks of order >= pageblock_order/2 = 4 may be claimed): pageblock 0 is
 * UNMOVABLE with free blocks of order 3 (pfn 8) and 0 (pfn 20) only.
 * Expect the claim loop to stop at order 3 without trying (no boost), and
 * the steal to take the smallest block, pfn 20, leaving the pageblock
 * UNMOVABLE.
 */
TEST(movable_small_fallback_steals)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	take_range(m, 0, 8, PGTY_KERNEL, false);
	take_range(m, 16, 20, PGTY_KERNEL, false);
	take_range(m, 21, 512, PGTY_KERNEL, false);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	set_block_type(m, 0, MIGRATE_UNMOVABLE);
	pfn = alloc_buddy(m, GFP_HIGHUSER_MOVABLE, 0);
	ASSERT_EQ(pfn, 20);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 0);
	ASSERT_EQ(stat(m, SIM_CLAIM_REFUSED), 0);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of a MOVABLE requester at a fallback block of order 4: allowed to
 * try, and "alike" counts only movable (LRU) pages.  Pageblock 0 is
 * UNMOVABLE with one free order-4 block at pfn 16.  With 300 LRU pages in
 * the pageblock (16 + 300 >= 256) expect a claim: pageblock MOVABLE, pfn
 * 16.  With kernel pages instead (16 + 0 < 256) expect a refused claim, a
 * boost, and a steal of pfn 16 with the pageblock left UNMOVABLE.
 */
TEST(movable_claim_counts_movable_pages)
{
	for (int lru = 1; lru >= 0; lru--) {
		struct mm_env e;
		struct machine *m = fb_machine(&e, "memory=16m");
		pfn_t pfn;

		ASSERT_TRUE(m != NULL);
		take_range(m, 0, 16, PGTY_KERNEL, false);
		take_range(m, 32, 332, lru ? PGTY_FILE : PGTY_KERNEL, lru);
		take_range(m, 332, 512, PGTY_KERNEL, false);
		take_range(m, 512, 4096, PGTY_KERNEL, false);
		/* pfns 16..31 free: one order-4 block */
		set_block_type(m, 0, MIGRATE_UNMOVABLE);
		ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->free_area[4].nr_free_mt[MIGRATE_UNMOVABLE], 1);
		pfn = alloc_buddy(m, GFP_HIGHUSER_MOVABLE, 0);
		ASSERT_EQ(pfn, 16);
		ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 1);
		if (lru) {
			ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_MOVABLE);
			ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
		} else {
			ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
			ASSERT_EQ(stat(m, SIM_CLAIM_REFUSED), 1);
			ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 1);
		}
		ASSERT_MM_OK(m);
		mm_env_destroy(&e);
	}
}

/*
 * A test of whole-block claiming (try_to_steal_block, mm/page_alloc.c,
 * step 2): the only free memory is
 * one order-10 MOVABLE block (pfn 1024).  An UNMOVABLE request claims it
 * in the NOFRAGMENT pass already (order >= pageblock_order), retyping both
 * pageblocks and splitting the block on the UNMOVABLE lists, without a
 * boost.  Expect pfn 1024, both pageblocks UNMOVABLE, no retry, no boost.
 */
TEST(claim_whole_block_no_boost)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	take_range(m, 0, 1024, PGTY_KERNEL, false);
	take_range(m, 2048, 4096, PGTY_KERNEL, false);
	pfn = alloc_buddy(m, GFP_KERNEL, 0);
	ASSERT_EQ(pfn, 1024);
	ASSERT_EQ(get_pfnblock_migratetype(m, 1024), MIGRATE_UNMOVABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, 1536), MIGRATE_UNMOVABLE);
	ASSERT_EQ(zone->free_area[9].nr_free_mt[MIGRATE_UNMOVABLE], 1);
	ASSERT_EQ(stat(m, SIM_NOFRAGMENT_RETRY), 0);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 0);
	ASSERT_EQ(zone->watermark_boost, 0);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that the claim tries the largest fallback block first: pageblock
 * 0 has a free order-8 block (256 free, rest kernel), pageblock 1 a free
 * order-5 block.  Expect the UNMOVABLE request to claim pageblock 0 and
 * leave pageblock 1 MOVABLE.
 */
TEST(claim_largest_first)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	take_range(m, 0, 256, PGTY_KERNEL, false);
	take_range(m, 512, 544, PGTY_KERNEL, false);
	take_range(m, 576, 4096, PGTY_KERNEL, false);
	pfn = alloc_buddy(m, GFP_KERNEL, 0);
	ASSERT_TRUE(pfn >= 256 && pfn < 512);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, 512), MIGRATE_MOVABLE);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of UNMOVABLE <-> RECLAIMABLE fallback, where "alike" is 0 (the
 * kernel cannot tell the two kinds apart): pageblock 0 is RECLAIMABLE.
 * With 212 free pages (orders 2..7) expect refused claims and a steal
 * (pageblock stays RECLAIMABLE); with 260 free pages expect a claim
 * (pageblock UNMOVABLE).  Pageblock 1 is MOVABLE with one free order-2
 * block: at order 2 both types have a block and RECLAIMABLE comes first in
 * fallbacks[UNMOVABLE], so pageblock 1 stays untouched in both cases.
 */
TEST(unmovable_reclaimable_alike_zero)
{
	for (int n_free = 212; n_free <= 260; n_free += 48) {
		struct mm_env e;
		struct machine *m = fb_machine(&e, "memory=16m");

		ASSERT_TRUE(m != NULL);
		take_range(m, 0, (pfn_t)(512 - n_free), PGTY_RECLAIMABLE, false);
		take_range(m, 512, 1020, PGTY_FILE, true);
		take_range(m, 1024, 4096, PGTY_KERNEL, false);
		set_block_type(m, 0, MIGRATE_RECLAIMABLE);
		ASSERT_TRUE(alloc_buddy(m, GFP_KERNEL, 0) < 512);
		ASSERT_EQ(get_pfnblock_migratetype(m, 0),
			  n_free >= 256 ? MIGRATE_UNMOVABLE : MIGRATE_RECLAIMABLE);
		ASSERT_EQ(get_pfnblock_migratetype(m, 512), MIGRATE_MOVABLE);
		ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), n_free >= 256 ? 1 : 0);
		ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), n_free >= 256 ? 0 : 1);
		ASSERT_MM_OK(m);
		mm_env_destroy(&e);
	}
}

/*
 * A test that ALLOC_NOFRAGMENT spreads a Normal-zone request to a lower
 * zone before fragmenting Normal: Normal has only partially used MOVABLE
 * pageblocks, DMA has whole free MOVABLE blocks.  Expect the UNMOVABLE
 * request served from DMA by a whole-block claim in the first pass, and
 * Normal's pageblocks untouched.
 */
TEST(nofragment_prefers_lower_zone_whole_block)
{
	static const char *const kv[] = { "memory=16m", "zones=DMA:8m,Normal:rest", "cpus=1",
					  "vm.min_free_kbytes=128", "vm.watermark_scale_factor=1", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct alloc_info info;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	for (pfn_t b = 2048; b < 4096; b += 512)
		take_range(m, b, b + 100, PGTY_KERNEL, false);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	mm_hold_pcp(m, ZONE_DMA, 1);
	pfn = __alloc_pages(m, GFP_KERNEL, 0, &info);
	mm_hold_pcp(m, ZONE_DMA, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_EQ(info.zone, ZONE_DMA);
	ASSERT_TRUE(pfn < 2048);
	ASSERT_EQ(stat(m, SIM_NOFRAGMENT_RETRY), 0);
	for (pfn_t b = 2048; b < 4096; b += 512)
		ASSERT_EQ(get_pfnblock_migratetype(m, b), MIGRATE_MOVABLE);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->nr_pageblocks[MIGRATE_UNMOVABLE], 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that vm.defrag_mode (6.15) suppresses the second, fragmenting
 * pass: the state of claim_partial_block_unmovable fails the fast path,
 * and a __GFP_NORETRY request gives up in the slow path before 6.15's
 * last-resort retry without ALLOC_NOFRAGMENT.  Expect PFN_NONE, no
 * NOFRAGMENT retry, one slow-path failure.
 */
TEST(defrag_mode_no_second_pass)
{
	const char *kv[] = { "memory=16m", "zones=Normal:rest", "cpus=1", "vm.min_free_kbytes=128",
			     "vm.watermark_scale_factor=1", "vm.defrag_mode=1", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);

	ASSERT_TRUE(m != NULL);
	take_range(m, 0, 100, PGTY_KERNEL, false);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	ASSERT_EQ(alloc_buddy(m, GFP_KERNEL | __GFP_NORETRY, 0), PFN_NONE);
	ASSERT_EQ(stat(m, SIM_NOFRAGMENT_RETRY), 0);
	ASSERT_EQ(stat(m, SIM_FASTPATH_FAIL), 1);
	ASSERT_EQ(stat(m, SIM_SLOWPATH_FAIL), 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that HIGHATOMIC pageblocks are never a fallback source and are
 * reached only as a last resort by ALLOC_NON_BLOCK/ALLOC_OOM (or first by
 * ALLOC_HIGHATOMIC).  All free memory is one HIGHATOMIC pageblock.  Expect
 * failure with ALLOC_NO_WATERMARKS alone, success with ALLOC_NON_BLOCK
 * added, and HIGHATOMIC pages subtracted as unusable from the free count
 * for requests without reserve rights.
 */
TEST(highatomic_last_resort_only)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=16m");
	struct alloc_context ac;
	unsigned int flags = 0;
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	set_block_type(m, 0, MIGRATE_HIGHATOMIC);
	ASSERT_EQ(zone->nr_free_highatomic, 512);
	ASSERT_FALSE(__zone_watermark_ok(zone, 0, 0, ZONE_NORMAL, 0, 512));
	ASSERT_TRUE(__zone_watermark_ok(zone, 0, 0, ZONE_NORMAL, ALLOC_NON_BLOCK, 512));
	prepare_alloc_pages(m, GFP_KERNEL, 0, &ac, &flags);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	pfn = get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_NO_WATERMARKS, &ac);
	ASSERT_EQ(pfn, PFN_NONE);
	pfn = get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_NO_WATERMARKS | ALLOC_NON_BLOCK, &ac);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_EQ(pfn, 0);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_HIGHATOMIC);
	ASSERT_EQ(zone->nr_free_highatomic, 511);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of boost_watermark's conditions (mm/page_alloc.c): no boost in a zone of
 * fewer than four pageblocks, none with watermark_boost_factor=0, and the
 * cap at high x factor / 10000 (at least one pageblock).  Expect 0, 0, and
 * with factor 1000000 on a 64 MiB zone (high 48 -> cap 4800) 512 per event
 * up to the cap.
 */
TEST(boost_conditions)
{
	const char *tiny[] = { "memory=4m", "zones=Normal:rest", "cpus=1", "vm.min_free_kbytes=128",
			       "vm.watermark_scale_factor=1", NULL };
	const char *off[] = { "memory=16m", "zones=Normal:rest", "cpus=1", "vm.min_free_kbytes=128",
			      "vm.watermark_scale_factor=1", "vm.watermark_boost_factor=0", NULL };
	const char *big[] = { "memory=64m", "zones=Normal:rest", "cpus=1", "vm.min_free_kbytes=128",
			      "vm.watermark_scale_factor=1", "vm.watermark_boost_factor=1000000", NULL };
	struct mm_env e;
	struct machine *m;
	struct zone *zone;

	m = mm_env_create(&e, tiny);
	ASSERT_TRUE(m != NULL);
	take_range(m, 0, 100, PGTY_KERNEL, false);
	take_range(m, 512, 1024, PGTY_KERNEL, false);
	ASSERT_TRUE(alloc_buddy(m, GFP_KERNEL, 0) != PFN_NONE);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->watermark_boost, 0);
	mm_env_destroy(&e);

	m = mm_env_create(&e, off);
	ASSERT_TRUE(m != NULL);
	take_range(m, 0, 100, PGTY_KERNEL, false);
	take_range(m, 512, 4096, PGTY_KERNEL, false);
	ASSERT_TRUE(alloc_buddy(m, GFP_KERNEL, 0) != PFN_NONE);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->watermark_boost, 0);
	mm_env_destroy(&e);

	m = mm_env_create(&e, big);
	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	ASSERT_EQ(zone->_watermark[WMARK_HIGH], 48);
	take_range(m, 0, 300, PGTY_FILE, true);
	take_range(m, 512, 16384, PGTY_KERNEL, false);
	{
		unsigned int flags = 0;
		struct alloc_context ac;

		prepare_alloc_pages(m, GFP_KERNEL, 0, &ac, &flags);
		mm_hold_pcp(m, ZONE_NORMAL, 1);
		for (int i = 0; i < 20; i++) {
			uint64_t n;

			ASSERT_TRUE(get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_NO_WATERMARKS, &ac) != PFN_NONE);
			n = stat(m, SIM_WATERMARK_BOOST);
			ASSERT_EQ(zone->watermark_boost, n * 512 < 4800 ? n * 512 : 4800);
		}
		mm_hold_pcp(m, ZONE_NORMAL, 0);
	}
	ASSERT_TRUE(stat(m, SIM_WATERMARK_BOOST) >= 10);
	ASSERT_EQ(zone->watermark_boost, 4800);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that rmqueue_bulk remembers the mode that worked (mm/page_alloc.c step 3,
 * last paragraph): with the refused-claim state of refused_claim_then_steal
 * (64 MiB, batch 3), an UNMOVABLE order-0 allocation through the pcp list
 * refills 6 pages (the failed NOFRAGMENT refill already raised
 * alloc_factor); only the first page walks the claim ladder (4 refused
 * claims, 4 boosts), the other five go straight to __rmqueue_steal.
 * Expect 6 steals, 4 refusals, pfn 300, five pages left on the pcp list.
 */
TEST(bulk_remembers_steal_mode)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=64m");
	struct per_cpu_pages *pcp;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	pcp = &mm_zone(m, ZONE_NORMAL)->per_cpu_pageset[0];
	ASSERT_EQ(pcp->batch, 3);
	take_range(m, 0, 300, PGTY_FILE, true);
	take_range(m, 512, 16384, PGTY_KERNEL, false);
	pfn = __alloc_pages(m, GFP_KERNEL, 0, NULL);
	ASSERT_EQ(pfn, 300);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 6);
	ASSERT_EQ(stat(m, SIM_CLAIM_REFUSED), 4);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 4);
	ASSERT_EQ(pcp->count, 5);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_MOVABLE);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that after a successful claim rmqueue_bulk returns to the
 * NORMAL mode: the claim_partial_block state on 64 MiB; one refill of 6.
 * Expect exactly one claim, no steal, all six pages from pageblock 0,
 * which is UNMOVABLE.
 */
TEST(bulk_back_to_normal_after_claim)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=64m");
	struct per_cpu_pages *pcp;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	pcp = &mm_zone(m, ZONE_NORMAL)->per_cpu_pageset[0];
	take_range(m, 0, 100, PGTY_KERNEL, false);
	take_range(m, 512, 16384, PGTY_KERNEL, false);
	pfn = __alloc_pages(m, GFP_KERNEL, 0, NULL);
	ASSERT_EQ(pfn, 100);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 0);
	ASSERT_EQ(stat(m, SIM_PCP_REFILL_PAGES), 6);
	ASSERT_EQ(pcp->count, 5);
	for (uint32_t i = 0; i < pcp->lists[0].n; i++)
		ASSERT_TRUE(pfn_ring_at(&pcp->lists[0], i) < 512);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of where whole-pageblock conversions come from under a steady
 * stream of page-table pages (docs/mm.md "Fallback and stealing"): an
 * UNMOVABLE order-0 request through the pcp list, on a zone whose only
 * free memory is one free order-10 MOVABLE block (pfns 1024-2047) and a
 * partially used MOVABLE pageblock 0 (212 kernel pages, 300 free, so the
 * half-block rule would let the second pass claim it).  rmqueue_bulk runs
 * with ALLOC_NOFRAGMENT, so __rmqueue_claim looks at orders 10 and 9 only
 * and try_to_steal_block takes the order-10 block whole: both of its
 * pageblocks become UNMOVABLE (change_pageblock_range), no boost, no
 * kswapd wake, no second pass.  The refill's other two pages come from the
 * claimed block through __rmqueue_smallest (mode back to NORMAL).  Expect
 * pfn 1024, pcp holding 1025 and 1026, pageblocks 1024 and 1536 UNMOVABLE,
 * pageblock 0 MOVABLE and untouched (300 free pages on MOVABLE lists), the
 * order-10 block's other 1021 pages on UNMOVABLE lists.
 */
TEST(bulk_nofragment_claims_free_order10_block)
{
	struct mm_env e;
	struct machine *m = fb_machine(&e, "memory=64m");
	struct per_cpu_pages *pcp;
	struct zone *zone;
	unsigned long unmovable_free = 0, movable_free = 0;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	pcp = &zone->per_cpu_pageset[0];
	ASSERT_EQ(pcp->batch, 3);
	take_range(m, 0, 212, PGTY_KERNEL, false);
	take_range(m, 512, 1024, PGTY_KERNEL, false);
	take_range(m, 2048, 16384, PGTY_KERNEL, false);
	ASSERT_EQ(zone->free_area[10].nr_free_mt[MIGRATE_MOVABLE], 1);
	pfn = __alloc_pages(m, GFP_KERNEL, 0, NULL);
	ASSERT_EQ(pfn, 1024);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_CLAIM), 1);
	ASSERT_EQ(stat(m, SIM_RMQUEUE_STEAL), 0);
	ASSERT_EQ(stat(m, SIM_CLAIM_REFUSED), 0);
	ASSERT_EQ(stat(m, SIM_NOFRAGMENT_RETRY), 0);
	ASSERT_EQ(stat(m, SIM_WATERMARK_BOOST), 0);
	ASSERT_EQ(zone->watermark_boost, 0);
	ASSERT_EQ(stat(m, SIM_WAKEUP_KSWAPD), 0);
	ASSERT_EQ(stat(m, SIM_PCP_REFILL_PAGES), 3);
	ASSERT_EQ(pcp->count, 2);
	ASSERT_EQ(pfn_ring_head(&pcp->lists[0]), 1025);
	ASSERT_EQ(pfn_ring_at(&pcp->lists[0], 1), 1026);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_MOVABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, 1024), MIGRATE_UNMOVABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, 1536), MIGRATE_UNMOVABLE);
	ASSERT_EQ(zone->nr_pageblocks[MIGRATE_UNMOVABLE], 2);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unmovable_free += zone->free_area[o].nr_free_mt[MIGRATE_UNMOVABLE] << o;
		movable_free += zone->free_area[o].nr_free_mt[MIGRATE_MOVABLE] << o;
	}
	ASSERT_EQ(unmovable_free, 1021);
	ASSERT_EQ(movable_free, 300);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}
