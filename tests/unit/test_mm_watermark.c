/* SPDX-License-Identifier: MIT */
/* test_mm_watermark.c — __zone_watermark_ok, zone_watermark_fast's boost
 * exception, lowmem reserves, the ZONE_BELOW_HIGH probe, HIGHATOMIC
 * reserves (watermarks, mm/page_alloc.c). */
#include "mm_test.h"

static struct machine *wm_machine(struct mm_env *e)
{
	static const char *const kv[] = { "memory=256m", "zones=DMA:64m,Normal:rest", "cpus=1", NULL };

	return mm_env_create(e, kv);
}

/*
 * A test of the reserve discounts of __zone_watermark_ok (mm/page_alloc.c step
 * 2) at mark 1000 for order 0 and free pages given: none for plain or
 * ALLOC_NON_BLOCK requests; __GFP_HIGH (ALLOC_MIN_RESERVE) halves the
 * mark; non-blocking __GFP_HIGH takes a further quarter; OOM halves again.
 * Expect each request to pass at threshold + 1 and fail at threshold.
 */
TEST(reserve_discounts)
{
	struct mm_env e;
	struct machine *m = wm_machine(&e);
	struct zone *z;
	static const struct { unsigned int flags; long threshold; } cases[] = {
		{ 0, 1000 },
		{ ALLOC_NON_BLOCK, 1000 },
		{ ALLOC_MIN_RESERVE, 500 },
		{ ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK, 375 },
		{ ALLOC_OOM, 500 },
		{ ALLOC_MIN_RESERVE | ALLOC_OOM, 250 },
	};

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_TRUE(__zone_watermark_ok(z, 0, 1000, ZONE_NORMAL, cases[i].flags, cases[i].threshold + 1));
		ASSERT_FALSE(__zone_watermark_ok(z, 0, 1000, ZONE_NORMAL, cases[i].flags, cases[i].threshold));
	}
	mm_env_destroy(&e);
}

/*
 * A test of the order > 0 part of __zone_watermark_ok (mm/page_alloc.c steps 1,
 * 5): 2^order - 1 pages are unusable, and a free block of that order or
 * above must exist on an UNMOVABLE/MOVABLE/RECLAIMABLE list (any type), or
 * on HIGHATOMIC for ALLOC_HIGHATOMIC/ALLOC_OOM.  Expect the checks below
 * on a zone whose only free block of order >= 3 is HIGHATOMIC.
 */
TEST(high_order_needs_a_block)
{
	struct mm_env e;
	struct machine *m = wm_machine(&e);
	struct zone *z;
	long f;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	f = mm_free_pages(m, ZONE_NORMAL);
	ASSERT_TRUE(__zone_watermark_ok(z, 10, 0, ZONE_NORMAL, 0, f));
	ASSERT_FALSE(__zone_watermark_ok(z, 3, 100, ZONE_NORMAL, 0, 107));
	ASSERT_TRUE(__zone_watermark_ok(z, 3, 100, ZONE_NORMAL, 0, 108));
	/* leave only order 0..2 MOVABLE blocks and one HIGHATOMIC order-3 block */
	for (pfn_t p = 16384; p < 65536; p++)
		if ((p & 7) != 0 && !(p >= 16384 + 512 && p < 16384 + 520))
			(void)take_page_off_buddy(m, p);
	for (pfn_t p = 16384 + 512; p < 16384 + 1024; p++)
		if (p >= 16384 + 520)
			(void)take_page_off_buddy(m, p);
	ASSERT_EQ(move_freepages_block(m, z, 16384 + 512, MIGRATE_MOVABLE, MIGRATE_HIGHATOMIC), 8);
	z->nr_reserved_highatomic += pageblock_nr_pages;
	ASSERT_MM_OK(m);
	f = mm_free_pages(m, ZONE_NORMAL);
	ASSERT_FALSE(__zone_watermark_ok(z, 3, 0, ZONE_NORMAL, ALLOC_NON_BLOCK, f));
	ASSERT_TRUE(__zone_watermark_ok(z, 3, 0, ZONE_NORMAL, ALLOC_HIGHATOMIC, f));
	ASSERT_TRUE(__zone_watermark_ok(z, 3, 0, ZONE_NORMAL, ALLOC_OOM, f));
	ASSERT_TRUE(__zone_watermark_ok(z, 0, 0, ZONE_NORMAL, 0, f));
	mm_env_destroy(&e);
}

/*
 * A test of lowmem_reserve (__setup_per_zone_wmarks, mm/page_alloc.c step 5, __zone_watermark_ok, mm/page_alloc.c step 3): a GFP_KERNEL
 * request looking at DMA must leave DMA's protection for Normal (Normal
 * managed / 256) on top of the mark.  Expect DMA's reserve 192 for Normal
 * and the check to fail by exactly that margin.
 */
TEST(lowmem_reserve_protects_dma)
{
	struct mm_env e;
	struct machine *m = wm_machine(&e);
	struct zone *dma;

	ASSERT_TRUE(m != NULL);
	dma = mm_zone(m, ZONE_DMA);
	ASSERT_EQ(dma->lowmem_reserve[ZONE_NORMAL], 49152 / 256);
	ASSERT_EQ(dma->lowmem_reserve[ZONE_DMA], 0);
	ASSERT_TRUE(__zone_watermark_ok(dma, 0, 100, ZONE_DMA, 0, 101));
	ASSERT_FALSE(__zone_watermark_ok(dma, 0, 100, ZONE_NORMAL, 0, 100 + 192));
	ASSERT_TRUE(__zone_watermark_ok(dma, 0, 100, ZONE_NORMAL, 0, 101 + 192));
	mm_env_destroy(&e);
}

/*
 * A test that watermarks include the boost, and of zone_watermark_fast's
 * exception: order-0 __GFP_HIGH requests at the min watermark ignore the
 * boost.  Normal keeps min/2 + 100 free pages and a boost of 2 x min, so
 * the boosted, discounted mark (1.5 min) fails and the unboosted one
 * (min/2) passes.  Expect (DMA serving what Normal refuses) an order-0
 * ALLOC_WMARK_MIN|ALLOC_MIN_RESERVE request from Normal, and order 1 with
 * the same flags or order 0 without ALLOC_MIN_RESERVE from DMA.
 */
TEST(boost_ignored_for_high_min)
{
	struct mm_env e;
	struct machine *m = wm_machine(&e);
	struct zone *z;
	struct alloc_context ac;
	unsigned int flags = 0;
	long min;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	min = (long)z->_watermark[WMARK_MIN];
	for (pfn_t p = 16384; mm_free_pages(m, ZONE_NORMAL) > min / 2 + 100; p++)
		(void)take_page_off_buddy(m, p);
	z->watermark_boost = 2 * (unsigned long)min;
	ASSERT_EQ(min_wmark_pages(z), 3 * (unsigned long)min);
	prepare_alloc_pages(m, GFP_KERNEL, 0, &ac, &flags);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	mm_hold_pcp(m, ZONE_DMA, 1);
	ASSERT_TRUE(get_page_from_freelist(m, GFP_KERNEL, 1, ALLOC_WMARK_MIN | ALLOC_MIN_RESERVE, &ac) < 16384);
	ASSERT_TRUE(get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_WMARK_MIN, &ac) < 16384);
	ASSERT_TRUE(get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_WMARK_MIN | ALLOC_MIN_RESERVE, &ac) >= 16384);
	mm_hold_pcp(m, ZONE_DMA, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of HIGHATOMIC reserves (reserve_highatomic_pageblock, mm/page_alloc.c): high-order ALLOC_HIGHATOMIC
 * allocations reserve their pageblock, up to 1 % of the zone rounded up to
 * pageblocks (256 MiB Normal 192 MiB: 491 pages -> none; 256 MiB Normal
 * only: 655 -> 1024 pages = 2 pageblocks); unreserve_highatomic_pageblock
 * keeps the last pageblock unless forced.  Requests go through the buddy
 * path (pcp lock held) so the reserved pageblock's free pages are all on
 * the free lists.  Expect 2 reserved pageblocks after 3 requests (the
 * second is served from the first reserve), no third; a normal unreserve
 * releases one pageblock (its free pages move to the requester's type),
 * a second normal one keeps the last, a forced one releases it once it
 * has a free block.
 */
TEST(highatomic_reserve_unreserve)
{
	static const char *const kv[] = { "memory=256m", "zones=Normal:rest", "cpus=1", NULL };
	const unsigned int flags = ALLOC_WMARK_MIN | ALLOC_HIGHATOMIC | ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE;
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct alloc_context ac;
	unsigned int f0 = 0;
	struct zone *z;
	pfn_t a, b, c;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	prepare_alloc_pages(m, GFP_ATOMIC, 2, &ac, &f0);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	a = get_page_from_freelist(m, GFP_ATOMIC, 2, flags, &ac);
	ASSERT_TRUE(a != PFN_NONE);
	ASSERT_EQ(get_pfnblock_migratetype(m, a), MIGRATE_HIGHATOMIC);
	ASSERT_EQ(z->nr_reserved_highatomic, 512);
	ASSERT_EQ(z->nr_free_highatomic, 508);
	/* the next request is served from the reserve itself */
	b = get_page_from_freelist(m, GFP_ATOMIC, 2, flags, &ac);
	ASSERT_EQ(pageblock_start_pfn(b), pageblock_start_pfn(a));
	ASSERT_EQ(z->nr_reserved_highatomic, 512);
	/* an allocation that must come from elsewhere reserves a second block */
	c = get_page_from_freelist(m, GFP_ATOMIC, 9, flags, &ac);
	ASSERT_TRUE(c != PFN_NONE && pageblock_start_pfn(c) != pageblock_start_pfn(a));
	ASSERT_EQ(z->nr_reserved_highatomic, 1024);
	ASSERT_EQ(sim_stat_read(m, SIM_HIGHATOMIC_RESERVE), 2);
	ASSERT_MM_OK(m);
	/* at the limit nothing more is reserved */
	ASSERT_TRUE(get_page_from_freelist(m, GFP_ATOMIC, 10, flags, &ac) != PFN_NONE);
	ASSERT_EQ(z->nr_reserved_highatomic, 1024);
	mm_hold_pcp(m, ZONE_NORMAL, 0);

	/* the order-9 block's pageblock has no free pages: unreserve the other */
	ac.migratetype = MIGRATE_UNMOVABLE;
	ASSERT_TRUE(unreserve_highatomic_pageblock(m, &ac, false));
	ASSERT_EQ(z->nr_reserved_highatomic, 512);
	ASSERT_EQ(get_pfnblock_migratetype(m, a), MIGRATE_UNMOVABLE);
	ASSERT_EQ(z->nr_free_highatomic, 0);
	ASSERT_FALSE(unreserve_highatomic_pageblock(m, &ac, false));
	/* forced, but no free HIGHATOMIC block left to find */
	ASSERT_FALSE(unreserve_highatomic_pageblock(m, &ac, true));
	__free_pages(m, c, 9);	/* lands on the MOVABLE pcp list (HIGHATOMIC pages are cached as MOVABLE) */
	drain_all_pages(m, NULL);
	ASSERT_EQ(z->nr_free_highatomic, 512);
	ASSERT_TRUE(unreserve_highatomic_pageblock(m, &ac, true));
	ASSERT_EQ(z->nr_reserved_highatomic, 0);
	ASSERT_EQ(sim_stat_read(m, SIM_HIGHATOMIC_UNRESERVE), 2);
	ASSERT_MM_OK(m);

	/* a zone whose 1 % is below a pageblock never reserves */
	mm_env_destroy(&e);
	{
		static const char *const kv2[] = { "memory=128m", "zones=Normal:rest", "cpus=1", NULL };

		m = mm_env_create(&e, kv2);
		ASSERT_TRUE(m != NULL);
		prepare_alloc_pages(m, GFP_ATOMIC, 2, &ac, &f0);
		ASSERT_TRUE(get_page_from_freelist(m, GFP_ATOMIC, 2, flags, &ac) != PFN_NONE);
		ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->nr_reserved_highatomic, 0);
		mm_env_destroy(&e);
	}
}

/*
 * A test that the watermark check in the zone walk skips a zone below its
 * mark and charges a failed zone iteration.  Normal below its low
 * watermark, DMA plenty.  Expect a GFP_KERNEL allocation from DMA and
 * freelist_walk charged once for Normal.
 */
TEST(zone_walk_skips_low_zone)
{
	struct mm_env e;
	struct machine *m = wm_machine(&e);
	struct zone *z;
	struct alloc_info info;
	uint64_t ns;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	for (pfn_t p = 16384; mm_free_pages(m, ZONE_NORMAL) > (long)low_wmark_pages(z) - 10; p++)
		(void)take_page_off_buddy(m, p);
	ns = sim_engine_ns(e.sim);
	mm_hold_pcp(m, ZONE_DMA, 1);
	ASSERT_TRUE(__alloc_pages(m, GFP_KERNEL, 0, &info) != PFN_NONE);
	mm_hold_pcp(m, ZONE_DMA, 0);
	ASSERT_EQ(info.zone, ZONE_DMA);
	ASSERT_TRUE(zone_test_flag(z, ZONE_BELOW_HIGH));
	ASSERT_TRUE(sim_engine_ns(e.sim) - ns >= cost_ns(sim_costs(e.sim), COST_freelist_walk, 1));
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}
