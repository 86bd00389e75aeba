/* SPDX-License-Identifier: MIT */
/*
 * test_mm_lru.c — the LRU lists (swap.c) and the page-cache core
 * (filemap.c): mappings, the index, add/remove/migrate.
 */
#include <errno.h>

#include "mm/compaction.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm_test.h"

static const char *const small[] = { "memory=256m", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };

static pfn_t alloc_folio(struct machine *m, unsigned int order)
{
	return alloc_pages(m, GFP_HIGHUSER_MOVABLE, order, PGTY_ALLOC);
}

/* A test that folios added to the page cache sit in the per-CPU lru_add
 * batch until it fills (31) or a large folio arrives, then move to the
 * inactive file list with counters following.  Expect 30 order-0 folios
 * off the LRU, the 31st flushing all 31, and an order-2 folio going
 * straight through with the batch. */
TEST(lru_add_batching)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	struct lruvec *lruvec;

	ASSERT_TRUE(m);
	lruvec = &m->node.__lruvec;
	mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE & ~__GFP_FS, 0, 9,
				 AS_WRITEBACK_CAPABLE, NULL, "data");
	ASSERT_TRUE(mapping);
	for (unsigned long i = 0; i < 30; i++) {
		pfn_t pfn = alloc_folio(m, 0);

		ASSERT_EQ(filemap_add_folio(m, mapping, pfn, i), 0);
		ASSERT_FALSE(pfn_to_page(m, pfn)->flags & PG_lru);
	}
	ASSERT_EQ(lruvec->nr_pages[LRU_INACTIVE_FILE], 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, alloc_folio(m, 0), 30), 0);
	ASSERT_EQ(lruvec->nr_pages[LRU_INACTIVE_FILE], 31);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_FILE), 31);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), 31);
	ASSERT_EQ(filemap_add_folio(m, mapping, alloc_folio(m, 0), 31), 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, alloc_folio(m, 2), 32), 0);
	ASSERT_EQ(lruvec->nr_pages[LRU_INACTIVE_FILE], 36);
	ASSERT_EQ(mapping->nrpages, 36);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test that the index finds a large folio from every index it covers
 * and refuses overlapping insertions with -EEXIST without changing
 * anything.  Expect lookups 64..79 to return the order-4 head, an order-3
 * insert at 72 to fail, and an order-0 insert at 80 to succeed. */
TEST(index_lookup_and_eexist)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	pfn_t big, small_folio, clash;

	ASSERT_TRUE(m);
	mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "f");
	big = alloc_folio(m, 4);
	ASSERT_EQ(filemap_add_folio(m, mapping, big, 64), 0);
	for (unsigned long i = 64; i < 80; i++)
		ASSERT_EQ(filemap_lookup(m, mapping, i), big);
	ASSERT_EQ(filemap_lookup(m, mapping, 63), PFN_NONE);
	ASSERT_EQ(filemap_lookup(m, mapping, 80), PFN_NONE);
	clash = alloc_folio(m, 3);
	ASSERT_EQ(filemap_add_folio(m, mapping, clash, 72), -EEXIST);
	ASSERT_EQ(pfn_to_page(m, clash)->mapping, 0);
	free_pages(m, clash, 3);
	small_folio = alloc_folio(m, 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, small_folio, 80), 0);
	ASSERT_EQ(mapping->nrpages, 17);
	ASSERT_EQ(page_type(pfn_to_page(m, big)), PGTY_FILE);
	ASSERT_EQ(pfn_to_page(m, big)->index, 64);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test of an owner freeing a folio that an isolator holds: isolate from
 * the LRU, the owner removes it from the mapping and frees it (deferred:
 * the isolator holds the last reference), the isolator's putback frees
 * it.  Expect the isolated count to stay until the putback, then the
 * counters back at zero, the index empty, the pages free again and
 * mm_check clean. */
TEST(remove_and_free)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	unsigned long free_before;
	pfn_t pfn;

	ASSERT_TRUE(m);
	mapping = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "shm");
	lru_add_drain(m);
	free_before = (unsigned long)zone_page_state_exact(&m->node.node_zones[ZONE_NORMAL], NR_FREE_PAGES);
	pfn = alloc_folio(m, 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, pfn, 7), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_SHMEM), 1);
	lru_add_drain(m);
	ASSERT_EQ(m->node.__lruvec.nr_pages[LRU_INACTIVE_ANON], 1);
	ASSERT_TRUE(folio_isolate_lru(m, pfn));
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_ANON), 1);
	ASSERT_FALSE(folio_isolate_lru(m, pfn));
	/* the owner lets go while the folio is isolated: the isolator frees it */
	folio_lru_forget(m, pfn);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_ANON), 1);
	__filemap_remove_folio(m, pfn);
	free_pages(m, pfn, 0);
	ASSERT_EQ(sim_stat_read(m, SIM_ISOLATED_FREE_DEFERRED), 1);
	ASSERT_EQ(page_type(pfn_to_page(m, pfn)), PGTY_SHMEM);
	folio_putback_lru(m, pfn);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_ANON), 0);
	drain_all_pages(m, NULL);
	ASSERT_EQ(mapping->nrpages, 0);
	ASSERT_EQ(filemap_lookup(m, mapping, 7), PFN_NONE);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_SHMEM), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), 0);
	ASSERT_EQ(zone_page_state_exact(&m->node.node_zones[ZONE_NORMAL], NR_FREE_PAGES), (long)free_before);
	mapping_destroy(m, mapping);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test of activation and rotation: the second mark_accessed activates;
 * rotation (6.12 lru_move_tail) moves an inactive folio to the inactive
 * tail, and an active one too, clearing PG_active (shrink_folio_list
 * activates the folios it marks for immediate reclaim); a dirty one stays.
 * Expect list membership and pgactivate/pgrotated counts to follow. */
TEST(activate_and_rotate)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	struct lruvec *lruvec;
	pfn_t a, b;

	ASSERT_TRUE(m);
	lruvec = &m->node.__lruvec;
	mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "f");
	a = alloc_folio(m, 0);
	b = alloc_folio(m, 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, a, 0), 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, b, 1), 0);
	lru_add_drain(m);
	/* b was added last: head of the inactive list */
	ASSERT_EQ(lruvec->lists[LRU_INACTIVE_FILE].head, b);
	folio_rotate_reclaimable(m, b);
	ASSERT_EQ(lruvec->lists[LRU_INACTIVE_FILE].tail, b);
	folio_mark_accessed(m, a);
	ASSERT_EQ(lruvec->nr_pages[LRU_ACTIVE_FILE], 0);
	folio_mark_accessed(m, a);
	ASSERT_EQ(lruvec->nr_pages[LRU_ACTIVE_FILE], 1);
	ASSERT_TRUE(pfn_to_page(m, a)->flags & PG_active);
	ASSERT_FALSE(pfn_to_page(m, a)->flags & PG_referenced);
	folio_rotate_reclaimable(m, a);		/* active: deactivated, to the tail */
	ASSERT_EQ(lruvec->lists[LRU_INACTIVE_FILE].tail, a);
	ASSERT_EQ(lruvec->nr_pages[LRU_ACTIVE_FILE], 0);
	ASSERT_FALSE(pfn_to_page(m, a)->flags & PG_active);
	ASSERT_EQ(sum_vm_event(m, PGACTIVATE), 1);
	ASSERT_EQ(sum_vm_event(m, PGROTATED), 2);
	pfn_to_page(m, b)->flags |= PG_dirty;	/* redirtied: stays where it is */
	folio_rotate_reclaimable(m, b);
	pfn_to_page(m, b)->flags &= (uint8_t)~PG_dirty;
	ASSERT_EQ(lruvec->lists[LRU_INACTIVE_FILE].tail, a);
	ASSERT_EQ(sum_vm_event(m, PGROTATED), 2);
	ASSERT_EQ(lruvec->nr_pages[LRU_INACTIVE_FILE], 2);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test of folio_migrate_mapping: the destination takes over the
 * identity and the index slots of the source.  Expect lookups to return
 * the destination, the source unowned, and mm_check clean once the source
 * is freed and the destination is on the LRU. */
TEST(migrate_mapping)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	pfn_t src, dst;

	ASSERT_TRUE(m);
	mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "f");
	src = alloc_folio(m, 1);
	ASSERT_EQ(filemap_add_folio(m, mapping, src, 10), 0);
	lru_add_drain(m);
	pfn_to_page(m, src)->flags |= PG_dirty;
	ASSERT_TRUE(folio_isolate_lru(m, src));
	dst = alloc_folio(m, 1);
	folio_migrate_mapping(m, dst, src);
	ASSERT_EQ(filemap_lookup(m, mapping, 10), dst);
	ASSERT_EQ(filemap_lookup(m, mapping, 11), dst);
	ASSERT_TRUE(pfn_to_page(m, dst)->flags & PG_dirty);
	ASSERT_EQ(pfn_to_page(m, dst)->index, 10);
	ASSERT_EQ(pfn_to_page(m, src)->mapping, 0);
	folio_lru_forget(m, src);		/* the isolator holds it */
	free_pages(m, src, 1);			/* deferred */
	folio_putback_lru(m, src);		/* the isolator's put frees it */
	folio_add_lru(m, dst);
	lru_add_drain(m);
	ASSERT_EQ(m->node.__lruvec.nr_pages[LRU_INACTIVE_FILE], 2);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test that mm_check catches a corrupted index and a corrupted LRU
 * count.  Expect a non-zero result for each planted corruption. */
TEST(check_catches_lru_and_index_corruption)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	char buf[4096];
	pfn_t pfn;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 0);
	mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "f");
	pfn = alloc_folio(m, 0);
	ASSERT_EQ(filemap_add_folio(m, mapping, pfn, 3), 0);
	lru_add_drain(m);
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), 0);
	m->node.__lruvec.nr_pages[LRU_INACTIVE_FILE]++;
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), -1);
	m->node.__lruvec.nr_pages[LRU_INACTIVE_FILE]--;
	pfn_to_page(m, pfn)->index = 4;
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), -1);
	ASSERT_TRUE(strstr(buf, "mapping") != NULL);
	pfn_to_page(m, pfn)->index = 3;
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), 0);
	mm_env_destroy(&e);
}

/* A test that mapping ids are reused lowest-first.  Expect ids 1,2,3, then
 * after destroying 2 the next mapping gets 2 again. */
TEST(mapping_ids_lowest_first)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *a, *b, *c, *d;

	ASSERT_TRUE(m);
	a = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "a");
	b = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "b");
	c = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "c");
	ASSERT_EQ(a->id, 1);
	ASSERT_EQ(b->id, 2);
	ASSERT_EQ(c->id, 3);
	mapping_destroy(m, b);
	d = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "d");
	ASSERT_EQ(d->id, 2);
	mm_env_destroy(&e);
}
