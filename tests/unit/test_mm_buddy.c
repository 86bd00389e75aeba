/* SPDX-License-Identifier: MIT */
/* test_mm_buddy.c — free lists, split (expand), merge (__free_one_page),
 * tail placement, split_large_buddy, mergeability at pageblock order. */
#include "mm_test.h"

/* 16 MiB, Normal only, one CPU: pfns 0..4095, four order-10 blocks. */
static struct machine *small(struct mm_env *e)
{
	static const char *const kv[] = { "memory=16m", "zones=Normal:rest", "cpus=1",
					  "vm.min_free_kbytes=128", "vm.watermark_scale_factor=1", NULL };

	return mm_env_create(e, kv);
}

static unsigned long nr_free(struct machine *m, unsigned int order)
{
	return mm_zone(m, ZONE_NORMAL)->free_area[order].nr_free;
}

/* A test that an order-4 request splits the first order-10 block and
 * frees it back whole.  Expect pfn 0, one free block at each order 4..9
 * plus three order-10 blocks, the halves' heads typed buddy; after the
 * free, four order-10 blocks and pfn 0 back at the list head. */
TEST(split_and_merge)
{
	struct mm_env e;
	struct machine *m = small(&e);
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	ASSERT_EQ(pfn_slots_head(&zone->free_area[10].free_list[MIGRATE_MOVABLE]), 0);
	pfn = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 4, NULL);
	ASSERT_EQ(pfn, 0);
	ASSERT_EQ(page_type(pfn_to_page(m, 0)), PGTY_ALLOC);
	ASSERT_EQ(page_order(pfn_to_page(m, 0)), 4);
	for (unsigned int o = 4; o < 10; o++) {
		ASSERT_EQ(nr_free(m, o), 1);
		ASSERT_EQ(pfn_slots_head(&zone->free_area[o].free_list[MIGRATE_MOVABLE]), 1u << o);
		ASSERT_EQ(page_type(pfn_to_page(m, 1u << o)), PGTY_BUDDY);
	}
	ASSERT_EQ(nr_free(m, 10), 3);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 4096 - 16);
	ASSERT_EQ(sum_vm_event(m, PGALLOC_NORMAL), 16);
	ASSERT_MM_OK(m);

	__free_pages(m, pfn, 4);
	for (unsigned int o = 0; o < 10; o++)
		ASSERT_EQ(nr_free(m, o), 0);
	ASSERT_EQ(nr_free(m, 10), 4);
	ASSERT_EQ(pfn_slots_head(&zone->free_area[10].free_list[MIGRATE_MOVABLE]), 0);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 4096);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test that take_page_off_buddy() carves single pages out of free
 * blocks, and that freeing re-merges only with free buddies.  Expect the
 * pieces of 1024..2047 around pfn 1025 (1024 o0, 1026 o1, 1028 o2, ...)
 * and a clean check throughout. */
TEST(take_page_off_buddy_pieces)
{
	struct mm_env e;
	struct machine *m = small(&e);

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(take_page_off_buddy(m, 1025));
	ASSERT_FALSE(take_page_off_buddy(m, 1025));
	ASSERT_EQ(page_type(pfn_to_page(m, 1025)), PGTY_ALLOC);
	ASSERT_EQ(page_type(pfn_to_page(m, 1024)), PGTY_BUDDY);
	ASSERT_EQ(page_order(pfn_to_page(m, 1024)), 0);
	for (unsigned int o = 1; o < 10; o++) {
		ASSERT_EQ(page_type(pfn_to_page(m, 1024 + (1u << o))), PGTY_BUDDY);
		ASSERT_EQ(page_order(pfn_to_page(m, 1024 + (1u << o))), o);
	}
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 4095);
	ASSERT_MM_OK(m);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	__free_pages(m, 1025, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_EQ(nr_free(m, 10), 4);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the tail-placement rule (buddy_merge_likely): a merged block
 * goes to the list tail when the buddy of the next order up is free, to
 * the head otherwise.  Pages 0..3 taken, 1026 free at order 1.  Expect
 * freeing 1 to put it at the order-0 head (its order-1 buddy 2 is taken);
 * freeing 0 then makes order-1 block 0 whose order-2 buddy 4 is free:
 * tail of the order-1 list, behind 1026. */
TEST(tail_placement)
{
	struct mm_env e;
	struct machine *m = small(&e);
	struct free_area *area;

	ASSERT_TRUE(m != NULL);
	area = mm_zone(m, ZONE_NORMAL)->free_area;
	ASSERT_TRUE(take_page_off_buddy(m, 1025));
	for (pfn_t p = 0; p < 4; p++)
		ASSERT_TRUE(take_page_off_buddy(m, p));
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	__free_pages(m, 1, 0);
	ASSERT_EQ(pfn_slots_head(&area[0].free_list[MIGRATE_MOVABLE]), 1);
	ASSERT_EQ(pfn_slots_tail(&area[0].free_list[MIGRATE_MOVABLE]), 1024);
	ASSERT_EQ(pfn_slots_head(&area[1].free_list[MIGRATE_MOVABLE]), 1026);
	__free_pages(m, 0, 0);
	ASSERT_EQ(page_order(pfn_to_page(m, 0)), 1);
	ASSERT_EQ(pfn_slots_head(&area[1].free_list[MIGRATE_MOVABLE]), 1026);
	ASSERT_EQ(pfn_slots_tail(&area[1].free_list[MIGRATE_MOVABLE]), 0);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of split_large_buddy and merging across pageblocks: an order-10
 * block whose second pageblock became UNMOVABLE while allocated is freed
 * as two order-9 pieces, each under its pageblock's type, and the second
 * merges with the first (both types mergeable), retyping the first
 * pageblock.  Expect one order-10 UNMOVABLE block and both pageblocks
 * UNMOVABLE. */
TEST(split_large_buddy_merges_mergeable_types)
{
	struct mm_env e;
	struct machine *m = small(&e);
	struct zone *zone;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	pfn = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 10, NULL);
	ASSERT_EQ(pfn, 0);
	set_pageblock_migratetype(m, 512, MIGRATE_UNMOVABLE);
	__free_pages(m, pfn, 10);
	ASSERT_EQ(page_order(pfn_to_page(m, 0)), 10);
	ASSERT_EQ(zone->free_area[10].nr_free_mt[MIGRATE_UNMOVABLE], 1);
	ASSERT_EQ(get_pfnblock_migratetype(m, 0), MIGRATE_UNMOVABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, 512), MIGRATE_UNMOVABLE);
	ASSERT_EQ(zone->nr_pageblocks[MIGRATE_UNMOVABLE], 2);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test that HIGHATOMIC (and ISOLATE) pageblocks do not merge with other
 * types at pageblock order, and that ISOLATE free pages are not counted
 * as free.  Expect two order-9 blocks (MOVABLE, HIGHATOMIC) after freeing
 * an order-10 block whose second half is HIGHATOMIC, nr_free_highatomic
 * 512; an isolated order-9 block on the ISOLATE list outside
 * NR_FREE_PAGES and NR_FREE_PAGES_BLOCKS. */
TEST(no_merge_across_unmergeable_types)
{
	struct mm_env e;
	struct machine *m = small(&e);
	struct zone *zone;
	long before;
	pfn_t pfn, iso;

	ASSERT_TRUE(m != NULL);
	zone = mm_zone(m, ZONE_NORMAL);
	pfn = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 10, NULL);
	set_pageblock_migratetype(m, pfn + 512, MIGRATE_HIGHATOMIC);
	zone->nr_reserved_highatomic += pageblock_nr_pages;
	__free_pages(m, pfn, 10);
	ASSERT_EQ(zone->free_area[9].nr_free_mt[MIGRATE_MOVABLE], 1);
	ASSERT_EQ(zone->free_area[9].nr_free_mt[MIGRATE_HIGHATOMIC], 1);
	ASSERT_EQ(zone->nr_free_highatomic, 512);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 4096);
	ASSERT_MM_OK(m);

	iso = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 10, NULL);
	ASSERT_EQ(iso, 1024);
	set_pageblock_migratetype(m, iso, MIGRATE_ISOLATE);
	before = mm_free_pages(m, ZONE_NORMAL);
	__free_pages(m, iso, 10);
	ASSERT_EQ(zone->free_area[9].nr_free_mt[MIGRATE_ISOLATE], 1);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), before + 512);
	ASSERT_EQ(zone_page_state_exact(zone, NR_FREE_PAGES_BLOCKS), before + 512);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test that orders 4..8 and 10 never use the pcp lists and order 9 does
 * (refill of max(batch >> 9, 2) = 2 blocks on a 256 MiB zone, batch 15).
 * Expect an order-5 allocation to leave every pcp empty and an order-9
 * allocation to leave one order-9 block cached. */
TEST(pcp_orders)
{
	static const char *const kv[] = { "memory=256m", "zones=Normal:rest", "cpus=1", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct per_cpu_pages *pcp;
	pfn_t a, b;

	ASSERT_TRUE(m != NULL);
	pcp = &mm_zone(m, ZONE_NORMAL)->per_cpu_pageset[0];
	ASSERT_EQ(pcp->batch, 15);
	a = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 5, NULL);
	ASSERT_TRUE(a != PFN_NONE);
	ASSERT_EQ(pcp->count, 0);
	b = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 9, NULL);
	ASSERT_TRUE(b != PFN_NONE);
	ASSERT_EQ(pcp->count, 512);
	ASSERT_EQ(page_type(pfn_to_page(m, pfn_ring_head(&pcp->lists[NR_LOWORDER_PCP_LISTS + 1]))), PGTY_PCP);
	ASSERT_TRUE(pcp_allowed_order(0) && pcp_allowed_order(3) && pcp_allowed_order(9));
	ASSERT_FALSE(pcp_allowed_order(4) || pcp_allowed_order(8) || pcp_allowed_order(10));
	ASSERT_EQ(order_to_pindex(MIGRATE_UNMOVABLE, 9), NR_LOWORDER_PCP_LISTS);
	ASSERT_EQ(order_to_pindex(MIGRATE_RECLAIMABLE, 9), NR_LOWORDER_PCP_LISTS);
	ASSERT_EQ(order_to_pindex(MIGRATE_RECLAIMABLE, 3), 11);
	__free_pages(m, a, 5);
	__free_pages(m, b, 9);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}
