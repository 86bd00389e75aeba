/* SPDX-License-Identifier: MIT */
/*
 * page_alloc.c — the buddy allocator, migratetype fallback, per-CPU page
 * lists, watermarks, the allocation fast path and the slow path
 * (mm/page_alloc.c, Linux 6.12.117, and the 2026 mm tree's slow path,
 * docs/slowpath.md).
 *
 * The mechanism, in the order an allocation meets it:
 *
 *  1. __alloc_pages(): gfp -> highest zone, migratetype, alloc_flags
 *     (ALLOC_WMARK_LOW, ALLOC_KSWAPD, ALLOC_NOFRAGMENT for Normal-zone
 *     requests), then get_page_from_freelist().  If that fails,
 *     __alloc_pages_slowpath() runs one of two flows built from the same
 *     steps (slowpath_init, slowpath_restart, slowpath_retry_freelist,
 *     direct reclaim and compaction, slowpath_should_retry,
 *     slowpath_nopage): slowpath_flow_6_12(), with an initial compaction
 *     before the retry loop, or slowpath_flow_2026(), whose first pass
 *     compacts without reclaiming (compact_first).  The policy variants
 *     act inside those steps (policy.h).
 *  2. get_page_from_freelist(): walk the zonelist (Normal, DMA32, DMA)
 *     from the preferred zone.  Per zone: the ZONE_BELOW_HIGH probe at the
 *     high watermark, then the real check at the requested watermark
 *     (zone_watermark_fast), then rmqueue().  If every zone fails and
 *     NOFRAGMENT was set, walk again without it.
 *  3. rmqueue(): orders 0-3 and 9 try this CPU's pcp list first
 *     (rmqueue_pcplist, a trylock; an empty list is refilled by
 *     rmqueue_bulk under one zone->lock hold), else rmqueue_buddy() under
 *     zone->lock.  Both use __rmqueue's mode ladder:
 *        __rmqueue_smallest (own type, smallest order up)
 *        -> __rmqueue_claim (fallback types, largest order down; take over
 *           the whole pageblock when allowed: try_to_claim_block)
 *        -> __rmqueue_steal (only without NOFRAGMENT: smallest fallback
 *           block, pageblock type unchanged)
 *  4. Freeing: free_unref_page() puts orders 0-3 and 9 on this CPU's pcp
 *     list (free_unref_page_commit); when the list reaches its dynamic
 *     high limit free_pcppages_bulk() returns pages round-robin from the
 *     list tails to the buddy lists under zone->lock, each through
 *     __free_one_page(), which merges with free buddies.
 *
 * Free lists of one zone (struct free_area, one per order):
 *
 *   order 0  [UNMOVABLE] -> pfn -> pfn      [MOVABLE] -> pfn   ...
 *   order 1  [UNMOVABLE] -> ...             [MOVABLE] -> ...
 *   ...
 *   order 10 [UNMOVABLE]                    [MOVABLE] -> pfn -> pfn ...
 *
 * A free block is 2^order naturally aligned frames; its head frame is
 * PGTY_BUDDY with the order and index = the list's migratetype, the other
 * frames are PGTY_TAIL.  A block sits on the list of its pageblock's
 * migratetype (the kernel's invariant since 6.10).  Pages on pcp lists
 * are PGTY_PCP heads and are not counted in NR_FREE_PAGES.
 *
 * Simplifications (each also noted at its function):
 *  - One node, no cpusets, no memory policies: the zonelist is the
 *    populated zones of node 0, highest first; NUMA counters count every
 *    allocation as numa_hit + numa_local.
 *  - No CMA, no memory hot(un)plug, no page isolation users yet
 *    (MIGRATE_ISOLATE lists exist and are honoured where the kernel
 *    tests them), no KASAN/debug_pagealloc guard pages, no page
 *    reporting, no free-page shuffling, no unaccepted memory, no
 *    deferred struct-page init.
 *  - No compaction capture (compaction issue), no memcg charging, no
 *    page refcounts: a block is freed when its owner frees it.
 *  - zone_reclaim_mode/node_reclaim is not modelled (one node).
 *  - The slow path has no cpuset or zonelist retry (one node, no
 *    cpusets), no stall warning or warn_alloc output, no OOM victims;
 *    out_of_memory() kills nothing, and __GFP_NOFAIL gives up after
 *    NOFAIL_MAX_PASSES passes.  kswapd and direct reclaim are vmscan.c,
 *    compaction compaction.c, dirty limits page-writeback.c.
 */
#include <string.h>

#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/swap.h"
#include "mm/trace.h"
#include "mm/vmscan.h"
#include "sim/hostmem.h"

/* ---- pageblocks ------------------------------------------------------------ */

/* set_pageblock_migratetype() (6.12) plus the model-only per-zone counts. */
void set_pageblock_migratetype(struct machine *m, pfn_t pfn, int migratetype)
{
	uint8_t *pb = &m->pageblock[pfn_to_pageblock(pfn)];
	int old = *pb & PB_MIGRATETYPE_MASK;
	struct zone *zone;

	if (old == migratetype)
		return;
	zone = page_zone(m, pfn);
	zone->nr_pageblocks[old]--;
	zone->nr_pageblocks[migratetype]++;
	*pb = (uint8_t)((*pb & ~PB_MIGRATETYPE_MASK) | (unsigned int)migratetype);
}

/* change_pageblock_range(): retype every pageblock a block of start_order spans. */
static void change_pageblock_range(struct machine *m, pfn_t pfn, unsigned int start_order,
				   int migratetype)
{
	unsigned int nr_pageblocks = 1u << (start_order - pageblock_order);

	while (nr_pageblocks--) {
		set_pageblock_migratetype(m, pfn, migratetype);
		pfn += pageblock_nr_pages;
	}
}

/* ---- free lists (account_freepages, __add_to_free_list, ...) ---------------- */

/*
 * account_freepages() (6.12): NR_FREE_PAGES and nr_free_highatomic follow
 * the buddy lists; isolated pageblocks do not count.
 */
static inline void account_freepages(struct zone *zone, long nr_pages, int migratetype)
{
	if (is_migrate_isolate(migratetype))
		return;
	__mod_zone_page_state(zone, NR_FREE_PAGES, nr_pages);
	if (is_migrate_highatomic(migratetype))
		zone->nr_free_highatomic += (unsigned long)nr_pages;
}

/*
 * __add_to_free_list() + set_buddy_order() (6.12).  NR_FREE_PAGES_BLOCKS
 * (free pages in blocks of order >= pageblock_order) is the 6.15 counter
 * /proc/vmstat shows since; it is kept here exactly as 6.15 keeps it.
 */
static inline void __add_to_free_list(struct machine *m, struct zone *zone, pfn_t pfn,
				      unsigned int order, int migratetype, bool tail)
{
	struct free_area *area = &zone->free_area[order];
	struct page *page = pfn_to_page(m, pfn);

	SIM_ASSERT_INTERNAL(get_pfnblock_migratetype(m, pfn) == migratetype);
	set_page_type_order(page, PGTY_BUDDY, order);
	page->index = (uint32_t)migratetype;
	page->flags = 0;
	pageblock_sample_set(m, pfn, false, true);
	if (tail)
		pfn_slots_add_tail(m->mem_map, &area->free_list[migratetype], pfn);
	else
		pfn_slots_add(m->mem_map, &area->free_list[migratetype], pfn);
	area->nr_free++;
	area->nr_free_mt[migratetype]++;
	if (order >= pageblock_order && !is_migrate_isolate(migratetype))
		__mod_zone_page_state(zone, NR_FREE_PAGES_BLOCKS, 1L << order);
}

/* move_to_free_list() (6.12): to the tail of another type's list. */
static inline void move_to_free_list(struct machine *m, struct zone *zone, pfn_t pfn,
				     unsigned int order, int old_mt, int new_mt)
{
	struct free_area *area = &zone->free_area[order];

	SIM_ASSERT_INTERNAL(get_pfnblock_migratetype(m, pfn) == old_mt);
	pfn_slots_del(m->mem_map, &area->free_list[old_mt], pfn);
	pfn_slots_add_tail(m->mem_map, &area->free_list[new_mt], pfn);
	area->nr_free_mt[old_mt]--;
	area->nr_free_mt[new_mt]++;
	pfn_to_page(m, pfn)->index = (uint32_t)new_mt;
	account_freepages(zone, -(1L << order), old_mt);
	account_freepages(zone, 1L << order, new_mt);
	if (order >= pageblock_order && is_migrate_isolate(old_mt) != is_migrate_isolate(new_mt))
		__mod_zone_page_state(zone, NR_FREE_PAGES_BLOCKS,
				      is_migrate_isolate(old_mt) ? 1L << order : -(1L << order));
	mm_charge(m, COST_freepage_move, 1);
}

/*
 * __del_page_from_free_list() (6.12).  The frame loses its buddy state;
 * it reads as a tail until the caller makes it the head of something.
 */
static inline void __del_page_from_free_list(struct machine *m, struct zone *zone, pfn_t pfn,
					     unsigned int order, int migratetype)
{
	struct free_area *area = &zone->free_area[order];

	SIM_ASSERT_INTERNAL(get_pfnblock_migratetype(m, pfn) == migratetype);
	pfn_slots_del(m->mem_map, &area->free_list[migratetype], pfn);
	set_page_type_order(pfn_to_page(m, pfn), PGTY_TAIL, 0);
	pageblock_sample_set(m, pfn, false, false);
	area->nr_free--;
	area->nr_free_mt[migratetype]--;
	if (order >= pageblock_order && !is_migrate_isolate(migratetype))
		__mod_zone_page_state(zone, NR_FREE_PAGES_BLOCKS, -(1L << order));
}

static inline void del_page_from_free_list(struct machine *m, struct zone *zone, pfn_t pfn,
					   unsigned int order, int migratetype)
{
	__del_page_from_free_list(m, zone, pfn, order, migratetype);
	account_freepages(zone, -(1L << order), migratetype);
}

void take_free_block_off_buddy(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
			       int migratetype)
{
	del_page_from_free_list(m, zone, pfn, order, migratetype);
}

static inline pfn_t get_page_from_free_area(const struct free_area *area, int migratetype)
{
	return pfn_slots_head(&area->free_list[migratetype]);
}

/* page_is_buddy() (mm/internal.h): a free buddy-list head of this order.
 * Zones are MAX_PAGE_ORDER-aligned, so the zone test always passes. */
static inline bool page_is_buddy(const struct machine *m, pfn_t pfn, unsigned int order)
{
	return pfn_to_page(m, pfn)->type_order == ((PGTY_BUDDY << 4) | order);
}

/*
 * buddy_merge_likely() (6.12): a freed block goes to the list tail if the
 * buddy of the block one order up is free, so it stays there to merge.
 */
static bool buddy_merge_likely(const struct machine *m, pfn_t pfn, pfn_t buddy_pfn,
			       unsigned int order)
{
	pfn_t higher;

	if (order >= MAX_PAGE_ORDER - 1)
		return false;
	higher = buddy_pfn & pfn;
	return page_is_buddy(m, higher ^ (1u << (order + 1)), order + 1);
}

/*
 * __free_one_page() — models mm/page_alloc.c:__free_one_page() (6.12),
 * __free_one_page, mm/page_alloc.c: account, then merge with the free buddy while there is one;
 * at order >= pageblock_order refuse to merge a non-mergeable type
 * (HIGHATOMIC, ISOLATE) with another type and retype a mergeable buddy's
 * pageblocks to ours; insert at the tail when the next merge is likely
 * or the caller asks (FPI_TO_TAIL); a block a direct compactor of this
 * task waits for is captured (compaction_capture).  Simplified: no guard
 * pages, no shuffling.
 */
void __free_one_page(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
		     int migratetype, unsigned int fpi_flags)
{
	pfn_t buddy_pfn = 0;
	bool to_tail;

	SIM_ASSERT_INTERNAL((pfn & ((1u << order) - 1)) == 0);
	SIM_ASSERT_INTERNAL(zone_spans_pfn(zone, pfn));
	mm_charge(m, COST_buddy_free, 1);
	account_freepages(zone, 1L << order, migratetype);

	while (order < MAX_PAGE_ORDER) {
		int buddy_mt = migratetype;

		if (unlikely(m->capc_list) && compaction_capture(m, zone, pfn, order, migratetype)) {
			account_freepages(zone, -(1L << order), migratetype);
			return;
		}
		buddy_pfn = pfn ^ (1u << order);
		if (!page_is_buddy(m, buddy_pfn, order))
			break;
		if (unlikely(order >= pageblock_order)) {
			buddy_mt = get_pfnblock_migratetype(m, buddy_pfn);
			if (migratetype != buddy_mt &&
			    (!migratetype_is_mergeable(migratetype) ||
			     !migratetype_is_mergeable(buddy_mt)))
				break;
		}
		__del_page_from_free_list(m, zone, buddy_pfn, order, buddy_mt);
		if (unlikely(buddy_mt != migratetype))
			change_pageblock_range(m, buddy_pfn, order, migratetype);
		/* the higher of the two heads becomes a tail of the merged block */
		set_page_type_order(pfn_to_page(m, pfn | buddy_pfn), PGTY_TAIL, 0);
		pfn &= buddy_pfn;
		order++;
		mm_charge(m, COST_buddy_merge, 1);
	}

	if (fpi_flags & FPI_TO_TAIL)
		to_tail = true;
	else
		to_tail = buddy_merge_likely(m, pfn, buddy_pfn, order);
	__add_to_free_list(m, zone, pfn, order, migratetype, to_tail);
}

/*
 * split_large_buddy() (6.12): a block larger than a pageblock is freed in
 * pageblock-sized pieces, each under its own pageblock's migratetype.
 */
static void split_large_buddy(struct machine *m, struct zone *zone, pfn_t pfn,
			      unsigned int order, unsigned int fpi)
{
	pfn_t end = pfn + (1u << order);

	if (order > pageblock_order)
		order = pageblock_order;
	do {
		__free_one_page(m, zone, pfn, order, get_pfnblock_migratetype(m, pfn), fpi);
		pfn += 1u << order;
	} while (pfn != end);
}

/* free_one_page() (6.12): straight to the buddy lists under zone->lock. */
void free_one_page(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
		   unsigned int fpi_flags)
{
	sim_spin_lock(m->sim, &zone->lock);
	split_large_buddy(m, zone, pfn, order, fpi_flags);
	sim_spin_unlock(m->sim, &zone->lock);
	__count_vm_events(m, PGFREE, 1UL << order);
}

/*
 * expand() (6.12): split a block of order `high` down to `low`, putting
 * the upper halves at the head of the lists of `migratetype` (largest
 * first, so the lower addresses are handed out first).  Returns the pages
 * added; the caller accounts them.
 */
static unsigned int expand(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int low,
			   unsigned int high, int migratetype)
{
	unsigned int size = 1u << high;
	unsigned int nr_added = 0;

	while (high > low) {
		high--;
		size >>= 1;
		__add_to_free_list(m, zone, pfn + size, high, migratetype, false);
		nr_added += size;
		mm_charge(m, COST_buddy_split, 1);
	}
	return nr_added;
}

static inline void page_del_and_expand(struct machine *m, struct zone *zone, pfn_t pfn,
				       unsigned int low, unsigned int high, int migratetype)
{
	long nr_pages = 1L << high;

	__del_page_from_free_list(m, zone, pfn, high, migratetype);
	nr_pages -= expand(m, zone, pfn, low, high, migratetype);
	account_freepages(zone, -nr_pages, migratetype);
}

#define RMQUEUE_PREFETCH	8

/*
 * __rmqueue_smallest() (6.12): the first block of `migratetype` at the
 * requested order or above, split down.  Caller holds zone->lock.
 */
static pfn_t __rmqueue_smallest(struct machine *m, struct zone *zone, unsigned int order,
				int migratetype)
{
	for (unsigned int current_order = order; current_order < NR_PAGE_ORDERS; current_order++) {
		const struct pfn_slots *fl = &zone->free_area[current_order].free_list[migratetype];
		pfn_t pfn = pfn_slots_head(fl);

		if (pfn == PFN_NONE)
			continue;
		/* host prefetch, no model effect: the frame a few heads on,
		 * which a refill (rmqueue_bulk) will take next */
		if (fl->end - fl->first > RMQUEUE_PREFETCH) {
			pfn_t ahead = pfn_slots_get(fl, fl->first + RMQUEUE_PREFETCH);

			if (ahead != PFN_NONE) {
				host_prefetch(pfn_to_page(m, ahead));
				host_prefetch(&m->pageblock_samples[2 * pfn_to_pageblock(ahead)]);
			}
		}
		page_del_and_expand(m, zone, pfn, order, current_order, migratetype);
		trace_count(m, TP_MM_PAGE_ALLOC_ZONE_LOCKED);
		return pfn;
	}
	return PFN_NONE;
}

/* fallbacks[] (6.12; mm/page_alloc.c) */
static const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE   },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE   },
};

/*
 * __move_freepages_block() (6.12): move every free block of the pageblock
 * at start_pfn to new_mt's lists and retype the pageblock.  The kernel
 * visits every pfn that is not in a free block; that walk is charged.
 */
static int __move_freepages_block(struct machine *m, struct zone *zone, pfn_t start_pfn,
				  int old_mt, int new_mt)
{
	pfn_t end_pfn = start_pfn + pageblock_nr_pages;
	int pages_moved = 0, blocks = 0;

	SIM_ASSERT_INTERNAL((start_pfn & (pageblock_nr_pages - 1)) == 0);
	for (pfn_t pfn = start_pfn; pfn < end_pfn;) {
		const struct page *page = pfn_to_page(m, pfn);
		unsigned int order = page_order(page);

		switch (page_type(page)) {
		case PGTY_BUDDY:
			move_to_free_list(m, zone, pfn, order, old_mt, new_mt);
			pfn += 1u << order;
			pages_moved += 1 << order;
			blocks++;
			break;
		case PGTY_RESERVED:
		case PGTY_TAIL:
			pfn++;
			break;
		default:		/* allocated or pcp head: skip its pages */
			pfn += 1u << order;
			break;
		}
	}
	mm_charge(m, COST_pageblock_scan, (uint64_t)(pageblock_nr_pages - (unsigned)pages_moved + (unsigned)blocks));
	set_pageblock_migratetype(m, start_pfn, new_mt);
	return pages_moved;
}

/*
 * prep_move_freepages_block() (6.12): the pageblock around pfn, if it lies
 * inside the zone, and (optionally) its free pages and "movable-looking"
 * pages (PageLRU, counted per page, so an LRU folio counts all its pages;
 * __PageMovable non-LRU pages are not modelled).
 */
static bool prep_move_freepages_block(struct machine *m, struct zone *zone, pfn_t pfn,
				      pfn_t *start_pfn, int *num_free, int *num_movable)
{
	pfn_t start = pageblock_start_pfn(pfn);
	pfn_t end = start + pageblock_nr_pages;
	int blocks = 0;

	if (!zone_spans_pfn(zone, start) || !zone_spans_pfn(zone, end - 1))
		return false;
	*start_pfn = start;
	if (!num_free)
		return true;
	*num_free = 0;
	*num_movable = 0;
	for (pfn = start; pfn < end;) {
		const struct page *page = pfn_to_page(m, pfn);
		unsigned int nr = 1u << page_order(page);

		switch (page_type(page)) {
		case PGTY_BUDDY:
			*num_free += (int)nr;
			blocks++;
			pfn += nr;
			break;
		case PGTY_RESERVED:
		case PGTY_TAIL:
			pfn++;
			break;
		default:
			if (page->flags & PG_lru)
				*num_movable += (int)nr;
			pfn += nr;
			break;
		}
	}
	mm_charge(m, COST_pageblock_scan, (uint64_t)(pageblock_nr_pages - (unsigned)*num_free + (unsigned)blocks));
	return true;
}

int move_freepages_block(struct machine *m, struct zone *zone, pfn_t pfn, int old_mt, int new_mt)
{
	pfn_t start_pfn;

	if (!prep_move_freepages_block(m, zone, pfn, &start_pfn, NULL, NULL))
		return -1;
	return __move_freepages_block(m, zone, start_pfn, old_mt, new_mt);
}

/*
 * __isolate_free_page() (6.12): compaction takes a free block as if it
 * were allocated: the zone must stay above min + the block's size (an
 * order-0 check with a raised watermark stands in for the high-order
 * one); a block of at least half a pageblock turns its pageblocks
 * MOVABLE.  The head becomes a PGTY_ALLOC block (the kernel's "post
 * allocation" page with its order in page_private).  Caller holds
 * zone->lock.
 */
int __isolate_free_page(struct machine *m, pfn_t pfn, unsigned int order)
{
	struct zone *zone = page_zone(m, pfn);
	int mt = get_pfnblock_migratetype(m, pfn);
	struct page *page = pfn_to_page(m, pfn);

	SIM_ASSERT_INTERNAL(page_type(page) == PGTY_BUDDY && page_order(page) == order);
	if (!is_migrate_isolate(mt)) {
		unsigned long watermark = zone->_watermark[WMARK_MIN] + (1UL << order);

		if (!zone_watermark_ok(zone, 0, watermark, 0, ALLOC_CMA))
			return 0;
	}
	del_page_from_free_list(m, zone, pfn, order, mt);
	if (order >= pageblock_order - 1) {
		pfn_t endpage = pfn + (1u << order) - 1;

		for (pfn_t p = pfn; p < endpage; p += pageblock_nr_pages) {
			int bmt = get_pfnblock_migratetype(m, p);

			if (migratetype_is_mergeable(bmt))
				move_freepages_block(m, zone, p, bmt, MIGRATE_MOVABLE);
		}
	}
	set_page_type_order(page, PGTY_ALLOC, order);
	page->next = page->prev = PFN_NONE;
	page->index = 0;
	page->mapping = 0;
	page->flags = 0;
	return 1 << order;
}

/*
 * can_steal_fallback() (6.12.117, mm/page_alloc.c; asked by
 * find_suitable_fallback for __rmqueue_claim): may a fallback at this free
 * block's order try to take the whole pageblock?  Blocks of order >= 4
 * always; UNMOVABLE and RECLAIMABLE requesters always.
 */
static bool can_steal_fallback(const struct machine *m, unsigned int order, int start_mt)
{
	if (order >= pageblock_order)
		return true;
	if (order >= pageblock_order / 2 ||
	    start_mt == MIGRATE_RECLAIMABLE ||
	    start_mt == MIGRATE_UNMOVABLE ||
	    m->t.page_group_by_mobility_disabled)
		return true;
	return false;
}

static unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

/*
 * boost_watermark() (6.12; mm/page_alloc.c): each fallback that looks at a
 * partially used foreign pageblock adds a pageblock to watermark_boost,
 * up to watermark_boost_factor/10000 of the high watermark.  Not in zones
 * smaller than four pageblocks.  (kdump kernels are not modelled.)
 */
static bool boost_watermark(struct machine *m, struct zone *zone)
{
	unsigned long max_boost;

	if (!m->t.watermark_boost_factor)
		return false;
	if ((unsigned long)pageblock_nr_pages * 4 > zone_managed_pages(zone))
		return false;
	max_boost = mult_frac(zone->_watermark[WMARK_HIGH],
			      (unsigned long)m->t.watermark_boost_factor, 10000);
	if (!max_boost)
		return false;
	if (max_boost < pageblock_nr_pages)
		max_boost = pageblock_nr_pages;
	zone->watermark_boost += pageblock_nr_pages;
	if (zone->watermark_boost > max_boost)
		zone->watermark_boost = max_boost;
	sim_stat_inc(m, SIM_WATERMARK_BOOST);
	return true;
}

/*
 * try_to_claim_block() — models 6.12.117's try_to_steal_block()
 * (mm/page_alloc.c, called by __rmqueue_claim; upstream 6.15 renamed it
 * try_to_claim_block).  Given the first free block of `current_order` on a
 * fallback list:
 *   1. HIGHATOMIC pageblock: refuse.
 *   2. current_order >= pageblock_order: retype the pageblock(s), split
 *      the block down for the requester; no boost.
 *   3. else boost the watermark (ZONE_BOOSTED_WATERMARK if the request
 *      may wake kswapd), count the pageblock's free and movable-looking
 *      pages; if free + alike >= half a pageblock, move all free pages to
 *      the requester's lists, retype, and allocate from them.
 * Caller holds zone->lock.
 */
static pfn_t try_to_claim_block(struct machine *m, struct zone *zone, pfn_t pfn,
				unsigned int current_order, unsigned int order, int start_type,
				unsigned int alloc_flags)
{
	int free_pages, movable_pages, alike_pages;
	int block_type = get_pfnblock_migratetype(m, pfn);
	pfn_t start_pfn;

	if (is_migrate_highatomic(block_type))
		return PFN_NONE;

	if (current_order >= pageblock_order) {
		unsigned int nr_added;

		del_page_from_free_list(m, zone, pfn, current_order, block_type);
		change_pageblock_range(m, pfn, current_order, start_type);
		nr_added = expand(m, zone, pfn, order, current_order, start_type);
		account_freepages(zone, (long)nr_added, start_type);
		return pfn;
	}

	if (boost_watermark(m, zone) && (alloc_flags & ALLOC_KSWAPD))
		zone_set_flag(zone, ZONE_BOOSTED_WATERMARK);

	if (!prep_move_freepages_block(m, zone, pfn, &start_pfn, &free_pages, &movable_pages))
		return PFN_NONE;

	if (start_type == MIGRATE_MOVABLE) {
		alike_pages = movable_pages;
	} else if (block_type == MIGRATE_MOVABLE) {
		/* UNMOVABLE/RECLAIMABLE into a MOVABLE block: everything that
		 * is neither free nor movable counts as alike */
		alike_pages = (int)pageblock_nr_pages - (free_pages + movable_pages);
	} else {
		alike_pages = 0;	/* UNMOVABLE <-> RECLAIMABLE: be conservative */
	}

	if (free_pages + alike_pages >= (1 << (pageblock_order - 1)) ||
	    m->t.page_group_by_mobility_disabled) {
		__move_freepages_block(m, zone, start_pfn, block_type, start_type);
		return __rmqueue_smallest(m, zone, order, start_type);
	}
	sim_stat_inc(m, SIM_CLAIM_REFUSED);
	return PFN_NONE;
}

/*
 * find_suitable_fallback() (6.12): the first fallback type with a block at
 * this order, and whether a claim may be tried (can_steal_fallback).
 */
static int find_suitable_fallback(const struct machine *m, const struct free_area *area,
				  unsigned int order, int migratetype, bool only_stealable,
				  bool *can_steal)
{
	if (area->nr_free == 0)
		return -1;
	*can_steal = false;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int fallback_mt = fallbacks[migratetype][i];

		if (free_area_empty(area, fallback_mt))
			continue;
		if (can_steal_fallback(m, order, migratetype))
			*can_steal = true;
		if (!only_stealable)
			return fallback_mt;
		if (*can_steal)
			return fallback_mt;
	}
	return -1;
}

/*
 * __rmqueue_claim() (6.12 stable = 6.15 structure): fallback types from
 * the largest order down to the request order (to pageblock_order only
 * under ALLOC_NOFRAGMENT); stop at the first order that may not claim.
 */
static pfn_t __rmqueue_claim(struct machine *m, struct zone *zone, unsigned int order,
			     int start_migratetype, unsigned int alloc_flags)
{
	int min_order = (int)order;
	bool can_steal;

	if (order < pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = pageblock_order;

	for (int current_order = MAX_PAGE_ORDER; current_order >= min_order; --current_order) {
		const struct free_area *area = &zone->free_area[current_order];
		int fallback_mt = find_suitable_fallback(m, area, (unsigned int)current_order,
							 start_migratetype, false, &can_steal);
		pfn_t pfn;

		if (fallback_mt == -1)
			continue;
		if (!can_steal)
			break;
		pfn = get_page_from_free_area(area, fallback_mt);
		pfn = try_to_claim_block(m, zone, pfn, (unsigned int)current_order, order,
					 start_migratetype, alloc_flags);
		if (pfn != PFN_NONE) {
			sim_stat_inc(m, SIM_RMQUEUE_CLAIM);
			trace_count(m, TP_MM_PAGE_ALLOC_EXTFRAG);
			return pfn;
		}
	}
	return PFN_NONE;
}

/*
 * __rmqueue_steal() (6.12 stable): the smallest fallback block, split for
 * the request; the pageblock keeps its type (a mixed block).
 */
static pfn_t __rmqueue_steal(struct machine *m, struct zone *zone, unsigned int order,
			     int start_migratetype)
{
	bool can_steal;

	for (unsigned int current_order = order; current_order < NR_PAGE_ORDERS; current_order++) {
		const struct free_area *area = &zone->free_area[current_order];
		int fallback_mt = find_suitable_fallback(m, area, current_order, start_migratetype,
							 false, &can_steal);
		pfn_t pfn;

		if (fallback_mt == -1)
			continue;
		pfn = get_page_from_free_area(area, fallback_mt);
		page_del_and_expand(m, zone, pfn, order, current_order, fallback_mt);
		sim_stat_inc(m, SIM_RMQUEUE_STEAL);
		trace_count(m, TP_MM_PAGE_ALLOC_EXTFRAG);
		return pfn;
	}
	return PFN_NONE;
}

enum rmqueue_mode {
	RMQUEUE_NORMAL,
	RMQUEUE_CMA,
	RMQUEUE_CLAIM,
	RMQUEUE_STEAL,
};

/*
 * __rmqueue() (6.12 stable; mm/page_alloc.c step 3): the mode ladder, resuming
 * at *mode, which remembers where the previous page of an rmqueue_bulk
 * batch was found.  No CMA.  Caller holds zone->lock.
 * K6.6 and 6.12.0 differ (mm/page_alloc.c; docs/mm.md "Fallback and
 * stealing"): one __rmqueue_fallback() searched largest
 * order first, a MOVABLE request that could not claim there switched to a
 * smallest-first search, steal_suitable_fallback() boosted the watermark
 * once per fallback below pageblock order (single-page steals included)
 * and chose between whole-block conversion and a single-page steal by the
 * same half-a-pageblock rule; rmqueue_bulk had no remembered mode.
 */
static pfn_t __rmqueue(struct machine *m, struct zone *zone, unsigned int order, int migratetype,
		       unsigned int alloc_flags, enum rmqueue_mode *mode)
{
	pfn_t pfn;

	switch (*mode) {
	case RMQUEUE_NORMAL:
		pfn = __rmqueue_smallest(m, zone, order, migratetype);
		if (pfn != PFN_NONE)
			return pfn;
		/* fall through */
	case RMQUEUE_CMA:	/* no CMA areas */
	case RMQUEUE_CLAIM:
		pfn = __rmqueue_claim(m, zone, order, migratetype, alloc_flags);
		if (pfn != PFN_NONE) {
			*mode = RMQUEUE_NORMAL;
			return pfn;
		}
		/* fall through */
	case RMQUEUE_STEAL:
		if (!(alloc_flags & ALLOC_NOFRAGMENT)) {
			pfn = __rmqueue_steal(m, zone, order, migratetype);
			if (pfn != PFN_NONE) {
				*mode = RMQUEUE_STEAL;
				return pfn;
			}
		}
	}
	return PFN_NONE;
}

static inline void set_pcp_page(struct machine *m, pfn_t pfn, unsigned int order, unsigned int pindex)
{
	struct page *page = pfn_to_page(m, pfn);

	set_page_type_order(page, PGTY_PCP, order);
	page->next = page->prev = PFN_NONE;	/* on a ring, not linked */
	page->index = pindex;
	page->mapping = 0;
	page->flags = 0;
}

/*
 * rmqueue_bulk() (6.12): `count` blocks for a pcp list under one
 * zone->lock hold, appended in the order found (physical order after a
 * split).  Returns the number obtained.
 */
static int rmqueue_bulk(struct machine *m, struct zone *zone, unsigned int order,
			unsigned long count, struct per_cpu_pages *pcp, unsigned int pindex,
			int migratetype, unsigned int alloc_flags)
{
	enum rmqueue_mode rmqm = RMQUEUE_NORMAL;
	unsigned long i;

	sim_path_push(m->sim, "rmqueue_bulk");
	sim_spin_lock(m->sim, &zone->lock);
	for (i = 0; i < count; ++i) {
		pfn_t pfn = __rmqueue(m, zone, order, migratetype, alloc_flags, &rmqm);

		if (unlikely(pfn == PFN_NONE))
			break;
		set_pcp_page(m, pfn, order, pindex);
		pfn_ring_add_tail(&pcp->lists[pindex], pfn);
	}
	mm_charge(m, COST_buddy_page, i);
	/* the kernel's caller adds to pcp->count under the pcp lock; the
	 * model does it before the zone->lock unlock (a sync point), so
	 * nothing running meanwhile sees lists and count disagree */
	pcp->count += (int)(i << order);
	sim_spin_unlock(m->sim, &zone->lock);
	sim_path_pop(m->sim);
	sim_stat_inc(m, SIM_PCP_REFILL);
	sim_stat_add(m, SIM_PCP_REFILL_PAGES, (uint64_t)i << order);
	return (int)i;
}

/*
 * Host prefetch, no model effect.  free_pcppages_bulk takes frames from the
 * ring's tail; two stages ahead of it: the frame FREE_PREFETCH_FAR from the
 * tail and its buddy (the line __free_one_page tests first) and its
 * pageblock's summary word (mmzone.h), and for the
 * frame FREE_PREFETCH_NEAR from the tail, whose lines should have arrived,
 * the free-list slot of its buddy if that is free (the merge unlinks it).
 * Reads model state only as a hint: it may change before the frame's turn.
 */
#define FREE_PREFETCH_FAR	16
#define FREE_PREFETCH_NEAR	8

static inline void free_pcppages_prefetch(const struct machine *m, const struct zone *zone,
					  const struct pfn_ring *list, unsigned int order)
{
	if (list->n > FREE_PREFETCH_FAR) {
		pfn_t far = pfn_ring_at(list, list->n - 1 - FREE_PREFETCH_FAR);

		host_prefetch(pfn_to_page(m, far));
		host_prefetch(pfn_to_page(m, far ^ (1u << order)));
		host_prefetch(&m->pageblock_samples[2 * pfn_to_pageblock(far)]);
	}
	if (list->n > FREE_PREFETCH_NEAR) {
		pfn_t near = pfn_ring_at(list, list->n - 1 - FREE_PREFETCH_NEAR) ^ (1u << order);
		const struct page *buddy = pfn_to_page(m, near);

		if (page_is_buddy(m, near, order) && buddy->index < MIGRATE_TYPES) {
			const struct pfn_slots *fl = &zone->free_area[order].free_list[buddy->index];

			if (fl->v)
				host_prefetch(pfn_slots_slot_of(m->mem_map, fl, near));
		}
	}
}

/*
 * free_pcppages_bulk() (6.12): return `count` pages, round-robin over the
 * lists starting with pindex, each from the list tail, to the buddy lists
 * under one zone->lock hold.
 */
static void free_pcppages_bulk(struct machine *m, struct zone *zone, int count,
			       struct per_cpu_pages *pcp, int pindex)
{
	int freed = 0;

	if (count > pcp->count)
		count = pcp->count;
	if (count <= 0)
		return;
	pindex = pindex - 1;

	sim_path_push(m->sim, "free_pcppages_bulk");
	sim_spin_lock(m->sim, &zone->lock);
	while (count > 0) {
		struct pfn_ring *list;
		unsigned int order;
		int nr_pages, tries = 0;

		do {
			if (++pindex > NR_PCP_LISTS - 1)
				pindex = 0;
			list = &pcp->lists[pindex];
			tries++;
			SIM_ASSERT(tries <= NR_PCP_LISTS + 1);	/* count says pages exist */
		} while (pfn_ring_empty(list));

		order = pindex_to_order((unsigned int)pindex);
		nr_pages = 1 << order;
		do {
			pfn_t pfn;
			int mt;

			free_pcppages_prefetch(m, zone, list, order);
			pfn = pfn_ring_del_tail(list);
			mt = get_pfnblock_migratetype(m, pfn);
			count -= nr_pages;
			pcp->count -= nr_pages;
			freed += nr_pages;
			__free_one_page(m, zone, pfn, order, mt, FPI_NONE);
			trace_count(m, TP_MM_PAGE_PCPU_DRAIN);
		} while (count > 0 && !pfn_ring_empty(list));
	}
	sim_spin_unlock(m->sim, &zone->lock);
	sim_path_pop(m->sim);
	sim_stat_inc(m, SIM_PCP_FREE_BULK);
	sim_stat_add(m, SIM_PCP_FREE_BULK_PAGES, (uint64_t)freed);
}

/* ---- watermarks ---------------------------------------------------------------- */

/* __zone_watermark_unusable_free() (6.12): no CMA. */
static inline long __zone_watermark_unusable_free(const struct zone *z, unsigned int order,
						  unsigned int alloc_flags)
{
	long unusable_free = (1L << order) - 1;

	if (likely(!(alloc_flags & ALLOC_RESERVES)))
		unusable_free += (long)z->nr_free_highatomic;
	return unusable_free;
}

/*
 * __zone_watermark_ok() (6.12; mm/page_alloc.c): free pages above mark plus the
 * lowmem reserve, with reserve discounts; for order > 0 also a free block
 * of a usable type at that order or above.
 */
bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
			 int highest_zoneidx, unsigned int alloc_flags, long free_pages)
{
	long min = (long)mark;

	free_pages -= __zone_watermark_unusable_free(z, order, alloc_flags);

	if (unlikely(alloc_flags & ALLOC_RESERVES)) {
		if (alloc_flags & ALLOC_MIN_RESERVE) {
			min -= min / 2;
			if (alloc_flags & ALLOC_NON_BLOCK)
				min -= min / 4;
		}
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
	}

	if (free_pages <= min + z->lowmem_reserve[highest_zoneidx])
		return false;
	if (!order)
		return true;

	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++) {
		const struct free_area *area = &z->free_area[o];

		if (!area->nr_free)
			continue;
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (!free_area_empty(area, mt))
				return true;
		if ((alloc_flags & (ALLOC_HIGHATOMIC | ALLOC_OOM)) &&
		    !free_area_empty(area, MIGRATE_HIGHATOMIC))
			return true;
	}
	return false;
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
				   (long)zone_page_state(z, NR_FREE_PAGES));
}

/*
 * zone_watermark_fast() (6.12): an order-0 shortcut on the cheap
 * (possibly lagging) NR_FREE_PAGES, then __zone_watermark_ok; order-0
 * __GFP_HIGH requests at the min watermark retry ignoring the boost.
 */
static bool zone_watermark_fast(struct zone *z, unsigned int order, unsigned long mark,
				int highest_zoneidx, unsigned int alloc_flags, gfp_t gfp)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);

	(void)gfp;
	if (!order) {
		long usable_free = free_pages;
		long reserved = __zone_watermark_unusable_free(z, 0, alloc_flags);

		usable_free -= usable_free < reserved ? usable_free : reserved;
		if (usable_free > (long)mark + z->lowmem_reserve[highest_zoneidx])
			return true;
	}
	if (__zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages))
		return true;
	if (unlikely(!order && (alloc_flags & ALLOC_MIN_RESERVE) && z->watermark_boost &&
		     (alloc_flags & ALLOC_WMARK_MASK) == WMARK_MIN)) {
		mark = z->_watermark[WMARK_MIN];
		return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages);
	}
	return false;
}

/* zone_watermark_ok_safe() (6.12): the exact count below percpu_drift_mark. */
bool zone_watermark_ok_safe(struct zone *z, unsigned int order, unsigned long mark,
			    int highest_zoneidx)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);

	if (z->percpu_drift_mark && free_pages < (long)z->percpu_drift_mark)
		free_pages = (long)zone_page_state_snapshot(z, NR_FREE_PAGES);
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, 0, free_pages);
}

/* ---- HIGHATOMIC reserves (reserve_highatomic_pageblock, mm/page_alloc.c) -------------------------------------------- */

/*
 * reserve_highatomic_pageblock() (6.12): after a successful ALLOC_HIGHATOMIC
 * allocation, retype its pageblock (or the whole >= pageblock block)
 * HIGHATOMIC, up to ~1 % of the zone rounded up to pageblocks.
 */
void reserve_highatomic_pageblock(struct machine *m, pfn_t pfn, unsigned int order,
				  struct zone *zone)
{
	unsigned long max_managed;
	int mt;

	if (zone_managed_pages(zone) / 100 < pageblock_nr_pages)
		return;
	max_managed = (zone_managed_pages(zone) / 100 + pageblock_nr_pages - 1) &
		      ~(unsigned long)(pageblock_nr_pages - 1);
	if (zone->nr_reserved_highatomic >= max_managed)
		return;

	sim_spin_lock(m->sim, &zone->lock);
	if (zone->nr_reserved_highatomic >= max_managed)
		goto out_unlock;
	mt = get_pfnblock_migratetype(m, pfn);
	if (!migratetype_is_mergeable(mt))
		goto out_unlock;
	if (order < pageblock_order) {
		if (move_freepages_block(m, zone, pfn, mt, MIGRATE_HIGHATOMIC) == -1)
			goto out_unlock;
		zone->nr_reserved_highatomic += pageblock_nr_pages;
	} else {
		change_pageblock_range(m, pfn, order, MIGRATE_HIGHATOMIC);
		zone->nr_reserved_highatomic += 1UL << order;
	}
	sim_stat_inc(m, SIM_HIGHATOMIC_RESERVE);
out_unlock:
	sim_spin_unlock(m->sim, &zone->lock);
}

/*
 * unreserve_highatomic_pageblock() (6.12): for each zone of the request
 * (skipping zones holding at most one reserved pageblock unless force),
 * convert the pageblock of the lowest-order free HIGHATOMIC block to the
 * request's migratetype; true after the first conversion.
 */
bool unreserve_highatomic_pageblock(struct machine *m, const struct alloc_context *ac, bool force)
{
	for (unsigned int i = 0; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];

		if (zone_idx(zone) > ac->highest_zoneidx)
			continue;
		if (!force && zone->nr_reserved_highatomic <= pageblock_nr_pages)
			continue;

		sim_spin_lock(m->sim, &zone->lock);
		for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
			pfn_t pfn = get_page_from_free_area(&zone->free_area[order], MIGRATE_HIGHATOMIC);
			int mt, ret;

			if (pfn == PFN_NONE)
				continue;
			mt = get_pfnblock_migratetype(m, pfn);
			if (is_migrate_highatomic(mt)) {
				unsigned long size = 1UL << order;

				if (size < pageblock_nr_pages)
					size = pageblock_nr_pages;
				if (size > zone->nr_reserved_highatomic)
					size = zone->nr_reserved_highatomic;
				zone->nr_reserved_highatomic -= size;
			}
			if (order < pageblock_order) {
				ret = move_freepages_block(m, zone, pfn, mt, ac->migratetype);
			} else {
				move_to_free_list(m, zone, pfn, order, mt, ac->migratetype);
				change_pageblock_range(m, pfn, order, ac->migratetype);
				ret = 1;
			}
			SIM_ASSERT(ret != -1);
			if (ret > 0) {
				sim_spin_unlock(m->sim, &zone->lock);
				sim_stat_inc(m, SIM_HIGHATOMIC_UNRESERVE);
				return true;
			}
		}
		sim_spin_unlock(m->sim, &zone->lock);
	}
	return false;
}

/* ---- per-CPU lists: allocation (rmqueue_pcplist, mm/page_alloc.c) ---------------------------------------- */

/* The kernel's __clamp() (include/linux/minmax.h): `hi` wins when the
 * limits cross (a small zone can have high_min > high_max). */
static inline int kclamp(int val, int lo, int hi)
{
	return val >= hi ? hi : val <= lo ? lo : val;
}

/* zone_statistics() (6.12): one node, so every allocation is a local hit. */
static inline void zone_statistics(struct zone *preferred_zone, struct zone *z, long nr_account)
{
	(void)preferred_zone;
	__count_numa_events(z, NUMA_HIT, (unsigned long)nr_account);
	__count_numa_events(z, NUMA_LOCAL, (unsigned long)nr_account);
}

/*
 * nr_pcp_alloc() (6.12; K6.6 refilled a fixed batch, no alloc_factor and
 * no high auto-tuning): the refill size.  Order 0: batch << alloc_factor,
 * capped at max(high - count - batch, batch); alloc_factor grows while
 * refills are uncapped.  high grows by the refill unless the zone is below
 * its high watermark.  Order > 0: batch >> order, at least 2.
 */
static int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order)
{
	int high, base_batch, batch, max_nr_alloc;
	int high_max, high_min;

	base_batch = pcp->batch;
	high_min = pcp->high_min;
	high_max = pcp->high_max;
	high = pcp->high = kclamp(pcp->high, high_min, high_max);

	if (unlikely(high < base_batch))
		return 1;

	if (order)
		batch = base_batch;
	else
		batch = base_batch << pcp->alloc_factor;

	if (high_min != high_max && !zone_test_flag(zone, ZONE_BELOW_HIGH))
		high = pcp->high = high + batch < high_max ? high + batch : high_max;

	if (!order) {
		max_nr_alloc = high - pcp->count - base_batch;
		if (max_nr_alloc < base_batch)
			max_nr_alloc = base_batch;
		if (batch <= max_nr_alloc && pcp->alloc_factor < CONFIG_PCP_BATCH_SCALE_MAX)
			pcp->alloc_factor++;
		if (batch > max_nr_alloc)
			batch = max_nr_alloc;
	}

	if (batch > 1) {
		batch >>= order;
		if (batch < 2)
			batch = 2;
	}
	return batch;
}

/* __rmqueue_pcplist() (6.12): refill an empty list, then take its head. */
static pfn_t __rmqueue_pcplist(struct machine *m, struct zone *zone, unsigned int order,
			       int migratetype, unsigned int alloc_flags,
			       struct per_cpu_pages *pcp, unsigned int pindex)
{
	struct pfn_ring *list = &pcp->lists[pindex];
	pfn_t pfn;

	if (pfn_ring_empty(list)) {
		int batch = nr_pcp_alloc(pcp, zone, order);
		rmqueue_bulk(m, zone, order, (unsigned long)batch, pcp, pindex, migratetype, alloc_flags);
		if (unlikely(pfn_ring_empty(list)))
			return PFN_NONE;
	}
	pfn = pfn_ring_del_head(list);
	pcp->count -= 1 << order;
	return pfn;
}

/*
 * rmqueue_pcplist() (6.12): trylock this CPU's pcp for the zone; a failed
 * trylock (a remote drain holds it) returns nothing and the caller falls
 * through to the buddy path.
 */
static pfn_t rmqueue_pcplist(struct machine *m, struct zone *preferred_zone, struct zone *zone,
			     unsigned int order, int migratetype, unsigned int alloc_flags)
{
	struct per_cpu_pages *pcp = &zone->per_cpu_pageset[mm_this_cpu(m)];
	pfn_t pfn;

	if (!sim_spin_trylock(m->sim, &pcp->lock)) {
		sim_stat_inc(m, SIM_PCP_TRYLOCK_FAIL);
		return PFN_NONE;
	}
	mm_charge(m, COST_pcp_alloc, 1);
	pcp->free_count >>= 1;
	pfn = __rmqueue_pcplist(m, zone, order, migratetype, alloc_flags, pcp,
				order_to_pindex(migratetype, order));
	/* The unlock is a sync point where other tasks (and mm_check) run:
	 * the block is already allocated, so it must not read as a pcp page
	 * (prep_new_page finishes it). */
	if (pfn != PFN_NONE)
		set_page_type_order(pfn_to_page(m, pfn), PGTY_ALLOC, order);
	sim_spin_unlock(m->sim, &pcp->lock);
	if (pfn != PFN_NONE) {
		__count_zid_vm_events(m, PGALLOC_DMA, zone_idx(zone), 1UL << order);
		zone_statistics(preferred_zone, zone, 1);
	}
	return pfn;
}

/*
 * rmqueue_buddy() (6.12): under zone->lock, HIGHATOMIC lists first for
 * ALLOC_HIGHATOMIC, then __rmqueue, then HIGHATOMIC as a last resort for
 * ALLOC_OOM / ALLOC_NON_BLOCK.
 */
static pfn_t rmqueue_buddy(struct machine *m, struct zone *preferred_zone, struct zone *zone,
			   unsigned int order, unsigned int alloc_flags, int migratetype)
{
	pfn_t pfn = PFN_NONE;

	sim_spin_lock(m->sim, &zone->lock);
	if (alloc_flags & ALLOC_HIGHATOMIC)
		pfn = __rmqueue_smallest(m, zone, order, MIGRATE_HIGHATOMIC);
	if (pfn == PFN_NONE) {
		enum rmqueue_mode rmqm = RMQUEUE_NORMAL;

		pfn = __rmqueue(m, zone, order, migratetype, alloc_flags, &rmqm);
		if (pfn == PFN_NONE && (alloc_flags & (ALLOC_OOM | ALLOC_NON_BLOCK)))
			pfn = __rmqueue_smallest(m, zone, order, MIGRATE_HIGHATOMIC);
		if (pfn == PFN_NONE) {
			sim_spin_unlock(m->sim, &zone->lock);
			return PFN_NONE;
		}
	}
	mm_charge(m, COST_buddy_page, 1);
	/* allocated before the unlock's sync point (see rmqueue_pcplist) */
	set_page_type_order(pfn_to_page(m, pfn), PGTY_ALLOC, order);
	sim_spin_unlock(m->sim, &zone->lock);
	__count_zid_vm_events(m, PGALLOC_DMA, zone_idx(zone), 1UL << order);
	zone_statistics(preferred_zone, zone, 1);
	return pfn;
}

/*
 * rmqueue() (6.12): pcp first for pcp orders, else the buddy lists; then,
 * if a fallback boosted the watermark and the request may wake kswapd,
 * clear the flag and wake kswapd for the zone at order 0.
 */
pfn_t rmqueue(struct machine *m, struct zone *preferred_zone, struct zone *zone,
	      unsigned int order, gfp_t gfp, unsigned int alloc_flags, int migratetype)
{
	pfn_t pfn = PFN_NONE;

	(void)gfp;
	if (likely(pcp_allowed_order(order)))
		pfn = rmqueue_pcplist(m, preferred_zone, zone, order, migratetype, alloc_flags);
	if (pfn == PFN_NONE)
		pfn = rmqueue_buddy(m, preferred_zone, zone, order, alloc_flags, migratetype);

	if ((alloc_flags & ALLOC_KSWAPD) && unlikely(zone_test_flag(zone, ZONE_BOOSTED_WATERMARK))) {
		zone_clear_flag(zone, ZONE_BOOSTED_WATERMARK);
		wakeup_kswapd(zone, 0, 0, zone_idx(zone));
	}
	return pfn;
}

/* ---- the fast path (__alloc_pages_noprof, mm/page_alloc.c; get_page_from_freelist, mm/page_alloc.c) ----------------------------------------------- */

/*
 * alloc_flags_nofragment() (6.12, CONFIG_ZONE_DMA32=y, one node):
 * ALLOC_KSWAPD from the gfp, plus ALLOC_NOFRAGMENT when the preferred
 * zone is ZONE_NORMAL.
 */
unsigned int alloc_flags_nofragment(struct machine *m, struct zone *zone, gfp_t gfp)
{
	unsigned int alloc_flags = gfp & __GFP_KSWAPD_RECLAIM;

	(void)m;
	if (!zone)
		return alloc_flags;
	if (zone_idx(zone) != ZONE_NORMAL)
		return alloc_flags;
	return alloc_flags | ALLOC_NOFRAGMENT;
}

/*
 * prep_new_page() (6.12): the head becomes an allocated block.  Zeroing
 * (__GFP_ZERO, init_on_alloc) and compound setup (__GFP_COMP) are charged
 * per page.  Not modelled: refcount, page owner, pfmemalloc marking.
 */
static void prep_new_page(struct machine *m, pfn_t pfn, unsigned int order, gfp_t gfp,
			  unsigned int alloc_flags)
{
	struct page *page = pfn_to_page(m, pfn);

	(void)alloc_flags;
	set_page_type_order(page, PGTY_ALLOC, order);
	page->next = page->prev = PFN_NONE;
	page->index = 0;
	page->mapping = 0;
	page->flags = 0;
	if (gfp & __GFP_ZERO)
		mm_charge(m, COST_clear_page, 1UL << order);
	if (order && (gfp & __GFP_COMP))
		mm_charge(m, COST_compound_tail, (1UL << order) - 1);
}

/*
 * get_page_from_freelist() — models mm/page_alloc.c:get_page_from_freelist()
 * (6.12; get_page_from_freelist, mm/page_alloc.c): the zone walk with the ZONE_BELOW_HIGH probe, the
 * watermark check, rmqueue, HIGHATOMIC reservation, and the second pass
 * without ALLOC_NOFRAGMENT (suppressed under vm.defrag_mode, as 6.15).
 * Simplified: no cpusets, one node (no remote-node NOFRAGMENT retry), no
 * node_reclaim, no deferred pages or unaccepted memory.  K6.6 had no
 * ZONE_BELOW_HIGH probe (added in 6.7).
 */
pfn_t get_page_from_freelist(struct machine *m, gfp_t gfp, unsigned int order,
			     unsigned int alloc_flags, const struct alloc_context *ac)
{
	struct zone *preferred_zone;
	bool no_fallback;

	if (ac->no_zone)
		return PFN_NONE;
	preferred_zone = m->zonelist[ac->preferred_zoneref];
retry:
	no_fallback = alloc_flags & ALLOC_NOFRAGMENT;
	{
		struct pglist_data *last_pgdat = NULL;
		bool last_pgdat_dirty_ok = false;

		for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
			struct zone *zone = m->zonelist[i];
			unsigned long mark;
			pfn_t pfn;

			if (zone_idx(zone) > ac->highest_zoneidx)
				continue;
			if (ac->spread_dirty_pages) {
				if (last_pgdat != zone->zone_pgdat) {
					last_pgdat = zone->zone_pgdat;
					last_pgdat_dirty_ok = node_dirty_ok(zone->zone_pgdat);
				}
				if (!last_pgdat_dirty_ok)
					continue;
			}

			if (!zone_test_flag(zone, ZONE_BELOW_HIGH)) {
				mark = high_wmark_pages(zone);
				if (zone_watermark_fast(zone, order, mark, (int)ac->highest_zoneidx,
							alloc_flags, gfp))
					goto try_this_zone;
				zone_set_flag(zone, ZONE_BELOW_HIGH);
				sim_stat_inc(m, SIM_ZONE_BELOW_HIGH);
			}

			mark = wmark_pages(zone, (enum zone_watermarks)(alloc_flags & ALLOC_WMARK_MASK));
			if (!zone_watermark_fast(zone, order, mark, (int)ac->highest_zoneidx,
						 alloc_flags, gfp)) {
				if (alloc_flags & ALLOC_NO_WATERMARKS)
					goto try_this_zone;
				mm_charge(m, COST_freelist_walk, 1);
				continue;
			}
try_this_zone:
			pfn = rmqueue(m, preferred_zone, zone, order, gfp, alloc_flags, ac->migratetype);
			if (pfn != PFN_NONE) {
				prep_new_page(m, pfn, order, gfp, alloc_flags);
				if (unlikely(alloc_flags & ALLOC_HIGHATOMIC))
					reserve_highatomic_pageblock(m, pfn, order, zone);
				return pfn;
			}
			mm_charge(m, COST_freelist_walk, 1);
		}
	}

	if (no_fallback && !m->t.defrag_mode) {
		alloc_flags &= ~(unsigned int)ALLOC_NOFRAGMENT;
		sim_stat_inc(m, SIM_NOFRAGMENT_RETRY);
		goto retry;
	}
	return PFN_NONE;
}

/*
 * prepare_alloc_pages() (6.12): highest zone, migratetype, preferred zone.
 * Not modelled: cpusets, fail_page_alloc, CMA (ALLOC_CMA is never set).
 */
bool prepare_alloc_pages(struct machine *m, gfp_t gfp, unsigned int order,
			 struct alloc_context *ac, unsigned int *alloc_flags)
{
	unsigned int i;

	(void)order;
	(void)alloc_flags;
	SIM_ASSERT((gfp & (__GFP_MOVABLE | __GFP_RECLAIMABLE)) !=
		   (__GFP_MOVABLE | __GFP_RECLAIMABLE));
	ac->highest_zoneidx = gfp_zone(gfp);
	ac->migratetype = m->t.page_group_by_mobility_disabled ? MIGRATE_UNMOVABLE
							       : gfp_migratetype(gfp);
	ac->spread_dirty_pages = gfp & __GFP_WRITE;
	for (i = 0; i < m->nr_zonelist; i++)
		if (zone_idx(m->zonelist[i]) <= ac->highest_zoneidx)
			break;
	ac->preferred_zoneref = i;
	ac->no_zone = i == m->nr_zonelist;
	return true;
}

/* ---- the slow path (__alloc_pages_slowpath, mm/page_alloc.c; the 2026 __alloc_pages_slowpath, docs/slowpath.md) ------------------------------------------ */

/*
 * gfp_to_alloc_flags() (6.12; __alloc_pages_slowpath, mm/page_alloc.c step 2): min watermark, cpuset,
 * __GFP_HIGH -> ALLOC_MIN_RESERVE, __GFP_KSWAPD_RECLAIM -> ALLOC_KSWAPD;
 * requests that cannot reclaim get ALLOC_NON_BLOCK (and ALLOC_HIGHATOMIC
 * for high-order __GFP_HIGH), and non-blocking __GFP_HIGH drops the cpuset
 * check.  6.15 defrag_mode adds ALLOC_NOFRAGMENT.  Not
 * modelled: real-time tasks' ALLOC_MIN_RESERVE, CMA.
 */
static unsigned int gfp_to_alloc_flags(const struct machine *m, gfp_t gfp, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	_Static_assert(__GFP_HIGH == ALLOC_MIN_RESERVE, "gfp_to_alloc_flags relies on it");
	alloc_flags |= gfp & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM);
	if (!(gfp & __GFP_DIRECT_RECLAIM)) {
		if (!(gfp & __GFP_NOMEMALLOC)) {
			alloc_flags |= ALLOC_NON_BLOCK;
			if (order > 0 && (alloc_flags & ALLOC_MIN_RESERVE))
				alloc_flags |= ALLOC_HIGHATOMIC;
		}
		if (alloc_flags & ALLOC_MIN_RESERVE)
			alloc_flags &= ~(unsigned int)ALLOC_CPUSET;
	}
	if (m->t.defrag_mode)
		alloc_flags |= ALLOC_NOFRAGMENT;
	return alloc_flags;
}

/* __gfp_pfmemalloc_flags() (6.12): reserves for __GFP_MEMALLOC and for the
 * reclaimers themselves (PF_MEMALLOC: kswapd in the model).  OOM victims
 * are not modelled. */
static unsigned int __gfp_pfmemalloc_flags(const struct machine *m, gfp_t gfp)
{
	if (gfp & __GFP_NOMEMALLOC)
		return 0;
	if (gfp & __GFP_MEMALLOC)
		return ALLOC_NO_WATERMARKS;
	if (current_is_kswapd(m))
		return ALLOC_NO_WATERMARKS;
	return 0;
}

/*
 * wake_all_kswapds() (6.12; __alloc_pages_slowpath, mm/page_alloc.c step 4): one wakeup_kswapd per node
 * of the zonelist (one node here).  6.15 defrag_mode asks kswapd for at
 * least pageblock order (defrag_mode kswapd/kcompactd assistance).
 */
static void wake_all_kswapds(struct machine *m, unsigned int order, gfp_t gfp,
			     const struct alloc_context *ac)
{
	unsigned int reclaim_order = order;

	if (m->t.defrag_mode && reclaim_order < pageblock_order)
		reclaim_order = pageblock_order;
	mm_trace(m, "wake_all_kswapds order=%u", reclaim_order);
	for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];

		if (zone_idx(zone) > ac->highest_zoneidx || !managed_zone(zone))
			continue;
		wakeup_kswapd(zone, gfp, reclaim_order, ac->highest_zoneidx);
		break;		/* one node: the first eligible zone's pgdat */
	}
}

/* get_page_from_freelist() with a trace line (the slow path's attempts). */
static pfn_t slowpath_freelist(struct machine *m, gfp_t gfp, unsigned int order,
			       unsigned int alloc_flags, const struct alloc_context *ac, const char *why)
{
	pfn_t pfn = get_page_from_freelist(m, gfp, order, alloc_flags, ac);

	mm_trace(m, "get_page_from_freelist (%s) order=%u flags=%s -> %s", why, order,
		 mm_trace_alloc_flags(m, alloc_flags), pfn == PFN_NONE ? "none" : "page");
	return pfn;
}

/* The K2026 order promotion (the 2026 __alloc_pages_slowpath, docs/slowpath.md, UNCONFIRMED): non-movable
 * requests under ALLOC_NOFRAGMENT reclaim and compact for a pageblock. */
static unsigned int promoted_order(const struct machine *m, unsigned int order, unsigned int alloc_flags,
				   const struct alloc_context *ac)
{
	if (mm_pol(m)->kernel == KERNEL_2026 && (alloc_flags & ALLOC_NOFRAGMENT) &&
	    ac->migratetype != MIGRATE_MOVABLE && order < pageblock_order)
		return pageblock_order;
	return order;
}

/*
 * __alloc_pages_direct_compact() — models mm/page_alloc.c (6.12;
 * __alloc_pages_direct_compact, mm/page_alloc.c): try_to_compact_pages at `prio`; SKIPPED counts nothing (K2026:
 * DEFERRED neither); otherwise compact_stall, then the captured block or
 * a freelist attempt: success resets the zone's deferral and counts
 * compact_success, failure compact_fail.  PSI and delay accounting are not
 * modelled.  Under the K2026 order promotion the compaction target is the
 * pageblock and no capture of the smaller request is attempted.
 */
static pfn_t __alloc_pages_direct_compact(struct machine *m, gfp_t gfp, unsigned int order,
					  unsigned int alloc_flags, const struct alloc_context *ac,
					  enum compact_priority prio, enum compact_result *compact_result)
{
	const bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	unsigned int corder = promoted_order(m, order, alloc_flags, ac);
	bool failed = false;
	pfn_t page = PFN_NONE;

	if (!order)
		return PFN_NONE;
	sim_stat_inc(m, SIM_DIRECT_COMPACT);
	if (costly)
		sim_stat_inc(m, SIM_DIRECT_COMPACT_COSTLY);
	sim_path_push(m->sim, "__alloc_pages_direct_compact");
	*compact_result = try_to_compact_pages(m, gfp, corder, alloc_flags, ac, prio, &page);
	if (page != PFN_NONE && corder != order) {
		trace_count(m, TP_MM_PAGE_FREE);
		free_one_page(m, page_zone(m, page), page, corder, FPI_NONE);
		page = PFN_NONE;
	}
	mm_trace(m, "__alloc_pages_direct_compact order=%u prio=%s -> %s%s", corder, compact_prio_name(prio),
		 compact_result_name(*compact_result), page != PFN_NONE ? " (captured)" : "");
	if (*compact_result == COMPACT_SKIPPED ||
	    (mm_pol(m)->kernel == KERNEL_2026 && *compact_result == COMPACT_DEFERRED)) {
		page = PFN_NONE;
		goto out;
	}
	count_vm_event(m, COMPACTSTALL);
	if (costly)
		sim_stat_inc(m, SIM_COMPACT_STALL_COSTLY);
	if (page != PFN_NONE)
		prep_new_page(m, page, order, gfp, alloc_flags);
	else
		page = slowpath_freelist(m, gfp, order, alloc_flags, ac, "after compaction");
	if (page != PFN_NONE) {
		struct zone *zone = page_zone(m, page);

		zone->compact_blockskip_flush = false;
		compaction_defer_reset(zone, (int)order, true);
		count_vm_event(m, COMPACTSUCCESS);
	} else {
		count_vm_event(m, COMPACTFAIL);
		failed = true;
	}
out:
	sim_path_pop(m->sim);
	if (failed)
		sim_cond_resched(m->sim);
	return page;
}

/* __perform_reclaim() (6.12): cond_resched, try_to_free_pages, cond_resched.
 * PSI, fs_reclaim lockdep annotations and cpuset pressure are not modelled. */
static unsigned long __perform_reclaim(struct machine *m, gfp_t gfp, unsigned int order,
				       const struct alloc_context *ac)
{
	unsigned long progress;

	sim_cond_resched(m->sim);
	progress = try_to_free_pages(m, ac, order, gfp);
	sim_cond_resched(m->sim);
	return progress;
}

/*
 * __alloc_pages_direct_reclaim() — models mm/page_alloc.c (6.12;
 * __alloc_pages_direct_reclaim, mm/page_alloc.c): reclaim; no progress -> NULL (no drain); else a freelist attempt
 * and, if it fails, once: unreserve_highatomic_pageblock(ac, false),
 * drain_all_pages(NULL), another attempt.  Policy Va (noretry_skip_drain)
 * skips that post-reclaim step for costly __GFP_NORETRY requests.
 */
static pfn_t __alloc_pages_direct_reclaim(struct machine *m, gfp_t gfp, unsigned int order,
					  unsigned int alloc_flags, const struct alloc_context *ac,
					  unsigned long *did_some_progress)
{
	const bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	pfn_t page = PFN_NONE;
	bool drained = false;

	sim_stat_inc(m, SIM_DIRECT_RECLAIM);
	if (costly)
		sim_stat_inc(m, SIM_DIRECT_RECLAIM_COSTLY);
	sim_path_push(m->sim, "__alloc_pages_direct_reclaim");
	*did_some_progress = __perform_reclaim(m, gfp, promoted_order(m, order, alloc_flags, ac), ac);
	if (!*did_some_progress)
		goto out;
retry:
	page = slowpath_freelist(m, gfp, order, alloc_flags, ac, drained ? "after drain" : "after reclaim");
	if (page == PFN_NONE && !drained) {
		if (mm_pol(m)->noretry_skip_drain && costly && (gfp & __GFP_NORETRY)) {
			mm_trace(m, "noretry-skip-drain: no unreserve/drain/retry");
			goto out;
		}
		unreserve_highatomic_pageblock(m, ac, false);
		mm_trace(m, "drain_all_pages(NULL)");
		sim_stat_inc(m, SIM_DIRECT_DRAIN);
		if (costly)
			sim_stat_inc(m, SIM_DIRECT_DRAIN_COSTLY);
		__drain_all_pages(m, NULL, false);
		drained = true;
		goto retry;
	}
out:
	sim_path_pop(m->sim);
	return page;
}

/*
 * should_reclaim_retry() — models mm/page_alloc.c (6.12).
 * cond_resched at the end; the workqueue-worker sleep is not modelled.
 */
static bool should_reclaim_retry(struct machine *m, gfp_t gfp, unsigned int order,
				 const struct alloc_context *ac, unsigned int alloc_flags,
				 bool did_some_progress, int *no_progress_loops)
{
	bool ret = false;

	(void)gfp;
	if (did_some_progress && order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		(*no_progress_loops)++;
	if (*no_progress_loops > MAX_RECLAIM_RETRIES)
		goto out;
	for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];
		unsigned long available;

		if (zone_idx(zone) > ac->highest_zoneidx)
			continue;
		available = zone_reclaimable_pages(zone);
		available += zone_page_state_snapshot(zone, NR_FREE_PAGES);
		if (__zone_watermark_ok(zone, order, min_wmark_pages(zone), (int)ac->highest_zoneidx,
					alloc_flags, (long)available)) {
			ret = true;
			break;
		}
	}
	sim_cond_resched(m->sim);
out:
	if (!ret)
		ret = unreserve_highatomic_pageblock(m, ac, true);
	mm_trace(m, "should_reclaim_retry no_progress_loops=%d -> %d", *no_progress_loops, ret);
	return ret;
}

/* should_compact_retry() — models mm/page_alloc.c (6.12). */
static bool should_compact_retry(struct machine *m, const struct alloc_context *ac, unsigned int order,
				 unsigned int alloc_flags, enum compact_result compact_result,
				 enum compact_priority *compact_priority, int *compaction_retries)
{
	int max_retries = MAX_COMPACT_RETRIES, min_priority;
	bool ret = false;

	if (!order)
		return false;
	if (compact_result == COMPACT_SKIPPED) {
		ret = compaction_zonelist_suitable(m, ac, (int)order, alloc_flags);
		goto out;
	}
	if (compact_result == COMPACT_SUCCESS) {
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			max_retries /= 4;
		if (++(*compaction_retries) <= max_retries) {
			ret = true;
			goto out;
		}
	}
	min_priority = order > PAGE_ALLOC_COSTLY_ORDER ? MIN_COMPACT_COSTLY_PRIORITY : MIN_COMPACT_PRIORITY;
	if ((int)*compact_priority > min_priority) {
		(*compact_priority)--;
		*compaction_retries = 0;
		ret = true;
	}
out:
	mm_trace(m, "should_compact_retry result=%s -> %d prio=%s", compact_result_name(compact_result), ret,
		 compact_prio_name(*compact_priority));
	return ret;
}

/* __alloc_pages_cpuset_fallback() (6.12): no cpusets, one attempt. */
static pfn_t __alloc_pages_cpuset_fallback(struct machine *m, gfp_t gfp, unsigned int order,
					   unsigned int alloc_flags, const struct alloc_context *ac)
{
	return slowpath_freelist(m, gfp, order, alloc_flags | ALLOC_CPUSET, ac, "cpuset fallback");
}

/*
 * __alloc_pages_may_oom() — models mm/page_alloc.c (6.12) as
 * an outcome: oom_lock trylock (held elsewhere: report progress and sleep
 * a jiffy), a freelist attempt at the high watermark without direct
 * reclaim, then the bail-outs (costly order, __GFP_RETRY_MAYFAIL,
 * __GFP_THISNODE, lowmem-only requests: sim_oom_skipped).  Where the
 * kernel would call out_of_memory() the model kills nothing: it counts
 * sim_oom and reports no progress, so the request fails (oom_kill stays
 * 0).  A __GFP_NOFAIL request gets the kernel's no-watermark attempt.
 */
static pfn_t __alloc_pages_may_oom(struct machine *m, gfp_t gfp, unsigned int order,
				   const struct alloc_context *ac, unsigned long *did_some_progress)
{
	pfn_t page;

	*did_some_progress = 0;
	mm_charge(m, COST_oom_check, 1);
	if (!sim_mutex_trylock(m->sim, &m->oom_lock)) {
		*did_some_progress = 1;
		if (sim_current(m->sim))
			sim_sleep(m->sim, jiffies_ns(m, 1));
		return PFN_NONE;
	}
	page = slowpath_freelist(m, (gfp | __GFP_HARDWALL) & ~__GFP_DIRECT_RECLAIM, order,
				 ALLOC_WMARK_HIGH | ALLOC_CPUSET, ac, "oom, high watermark");
	if (page != PFN_NONE)
		goto out;
	if (order > PAGE_ALLOC_COSTLY_ORDER || (gfp & (__GFP_RETRY_MAYFAIL | __GFP_THISNODE)) ||
	    ac->highest_zoneidx < ZONE_NORMAL) {
		sim_stat_inc(m, SIM_OOM_SKIPPED);
		mm_trace(m, "__alloc_pages_may_oom: no OOM kill for this request");
		goto out;
	}
	sim_stat_inc(m, SIM_OOM);
	mm_trace(m, "__alloc_pages_may_oom: out_of_memory (not modelled: nothing is killed)");
	if (gfp & __GFP_NOFAIL) {
		*did_some_progress = 1;
		page = __alloc_pages_cpuset_fallback(m, gfp, order, ALLOC_NO_WATERMARKS, ac);
	}
out:
	sim_mutex_unlock(m->sim, &m->oom_lock);
	return page;
}

/* __GFP_NOFAIL: the kernel loops until it gets a page.  The model gives up
 * after this many passes through nopage (sim_nofail_giveup) so a run can
 * never hang; a result that counts any has simulated a livelock. */
#define NOFAIL_MAX_PASSES	64

/*
 * The locals of one __alloc_pages_slowpath() call.  The 6.12 flow and the
 * 2026 flow below are built from the same steps and share this state, as
 * the kernel's one function shares its locals across restart and retry.
 */
struct slowpath {
	gfp_t gfp;			/* after the V5/V6 entry change */
	unsigned int order;
	struct alloc_context *ac;
	const struct mm_policy *pol;
	bool costly;			/* order > PAGE_ALLOC_COSTLY_ORDER */
	bool costly_noretry;		/* costly and __GFP_NORETRY (the original gfp) */
	bool can_direct_reclaim, can_compact, nofail;
	unsigned int alloc_flags;
	enum compact_priority compact_priority;
	enum compact_result compact_result;
	unsigned long did_some_progress;
	int compaction_retries, no_progress_loops, nofail_passes;
};

/* What a step tells its flow to do next. */
enum slowpath_next {
	SLOWPATH_NOPAGE,		/* go to nopage */
	SLOWPATH_RETRY,			/* go to retry */
	SLOWPATH_GOT_PAGE,		/* return the page */
};

/*
 * The entry of __alloc_pages_slowpath() (mm/page_alloc.c, 6.12):
 * the model's counters, then policy V5/V6 (costly_noretry_noreclaim),
 * which clears __GFP_DIRECT_RECLAIM for costly __GFP_NORETRY before
 * anything is derived from the gfp (V6 keeps it for __GFP_THISNODE when
 * thisnode_exempt), then can_direct_reclaim, can_compact and nofail.
 */
static void slowpath_init(struct machine *m, struct slowpath *sp, gfp_t gfp, unsigned int order,
			  struct alloc_context *ac)
{
	const struct mm_policy *pol = mm_pol(m);

	memset(sp, 0, sizeof(*sp));
	sp->order = order;
	sp->ac = ac;
	sp->pol = pol;
	sp->costly = order > PAGE_ALLOC_COSTLY_ORDER;
	sp->costly_noretry = sp->costly && (gfp & __GFP_NORETRY);
	sim_stat_inc(m, SIM_SLOWPATH);
	sim_stat_inc_order(m, SIM_SLOWPATH_ORDER_0, order);
	if (sp->costly_noretry) {
		sim_stat_inc(m, SIM_COSTLY_NORETRY);
		sim_stat_inc(m, (enum sim_stat_item)(SIM_COSTLY_NORETRY_ORDER_4 + (order - 4)));
	}
	mm_trace(m, "__alloc_pages_slowpath order=%u gfp=%s flow=%s", order, mm_trace_gfp(m, gfp),
		 pol->kernel == KERNEL_2026 ? "2026" : "6.12");

	if (pol->costly_noretry_noreclaim && sp->costly_noretry &&
	    !(pol->thisnode_exempt && (gfp & __GFP_THISNODE))) {
		gfp &= ~(gfp_t)__GFP_DIRECT_RECLAIM;
		sim_stat_inc(m, SIM_POLICY_NORECLAIM);
		mm_trace(m, "policy %s: costly __GFP_NORETRY loses __GFP_DIRECT_RECLAIM", pol->name);
	}
	sp->gfp = gfp;
	sp->can_direct_reclaim = gfp & __GFP_DIRECT_RECLAIM;
	sp->can_compact = gfp_compaction_allowed(m, gfp);
	sp->nofail = gfp & __GFP_NOFAIL;
}

/*
 * The restart label (mm/page_alloc.c, 6.12): retry counters and
 * compaction state reset, alloc_flags from the gfp.  Returns false when
 * no zone can serve the request (nopage).  Cpuset and zonelist races,
 * which send the kernel back here, are not modelled.
 */
static bool slowpath_restart(struct machine *m, struct slowpath *sp)
{
	mm_charge(m, COST_slowpath_entry, 1);
	sp->compaction_retries = 0;
	sp->no_progress_loops = 0;
	sp->compact_result = COMPACT_SKIPPED;
	sp->compact_priority = DEF_COMPACT_PRIORITY;
	sp->alloc_flags = gfp_to_alloc_flags(m, sp->gfp, sp->order);
	return !sp->ac->no_zone;
}

/* Costly and non-movable high-order requests compact before they reclaim:
 * 6.12's initial compaction, 2026's compact_first. */
static bool slowpath_compact_early(const struct slowpath *sp)
{
	return sp->costly || (sp->order > 0 && sp->ac->migratetype != MIGRATE_MOVABLE);
}

/* The retry label's attempt (mm/page_alloc.c, 6.12): wake kswapd,
 * reserve access for PF_MEMALLOC and __GFP_MEMALLOC, a freelist attempt. */
static pfn_t slowpath_retry_freelist(struct machine *m, struct slowpath *sp)
{
	unsigned int reserve_flags;

	if (sp->alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(m, sp->order, sp->gfp, sp->ac);
	reserve_flags = __gfp_pfmemalloc_flags(m, sp->gfp);
	if (reserve_flags)
		sp->alloc_flags = reserve_flags | (sp->alloc_flags & ALLOC_KSWAPD);
	return slowpath_freelist(m, sp->gfp, sp->order, sp->alloc_flags, sp->ac, "retry");
}

/* Direct reclaim and direct compaction with the slow path's state. */
static pfn_t slowpath_direct_reclaim(struct machine *m, struct slowpath *sp)
{
	return __alloc_pages_direct_reclaim(m, sp->gfp, sp->order, sp->alloc_flags, sp->ac,
					    &sp->did_some_progress);
}

static pfn_t slowpath_direct_compact(struct machine *m, struct slowpath *sp, enum compact_priority prio)
{
	return __alloc_pages_direct_compact(m, sp->gfp, sp->order, sp->alloc_flags, sp->ac, prio,
					    &sp->compact_result);
}

/*
 * Policy V4 (costly_noretry_kcompactd): a costly __GFP_NORETRY request
 * wakes kcompactd for the preferred zone's node instead of reclaiming or
 * compacting itself; its flow then goes to nopage.
 */
static void slowpath_kcompactd_handoff(struct machine *m, const struct slowpath *sp)
{
	sim_stat_inc(m, SIM_POLICY_KCOMPACTD);
	mm_trace(m, "policy %s: costly __GFP_NORETRY wakes kcompactd and fails", sp->pol->name);
	wakeup_kcompactd(m->zonelist[sp->ac->preferred_zoneref]->zone_pgdat, (int)sp->order,
			 (int)sp->ac->highest_zoneidx);
}

/*
 * What follows direct reclaim and compaction in both flows (6.12):
 * __GFP_NORETRY and costly requests without
 * __GFP_RETRY_MAYFAIL give up; otherwise should_reclaim_retry(), then
 * should_compact_retry(), then 6.15 defrag_mode's one fallback-allowing
 * pass, then the OOM outcome.  *page is set for SLOWPATH_GOT_PAGE.
 */
static enum slowpath_next slowpath_should_retry(struct machine *m, struct slowpath *sp, pfn_t *page)
{
	const gfp_t gfp = sp->gfp;

	if (gfp & __GFP_NORETRY)
		return SLOWPATH_NOPAGE;
	if (sp->costly && (!sp->can_compact || !(gfp & __GFP_RETRY_MAYFAIL)))
		return SLOWPATH_NOPAGE;
	if (should_reclaim_retry(m, gfp, sp->order, sp->ac, sp->alloc_flags, sp->did_some_progress > 0,
				 &sp->no_progress_loops)) {
		sim_stat_inc(m, SIM_RECLAIM_RETRY);
		sim_stat_inc(m, SIM_SLOWPATH_RETRY);
		return SLOWPATH_RETRY;
	}
	if (sp->did_some_progress > 0 && sp->can_compact &&
	    should_compact_retry(m, sp->ac, sp->order, sp->alloc_flags, sp->compact_result,
				 &sp->compact_priority, &sp->compaction_retries)) {
		sim_stat_inc(m, SIM_COMPACT_RETRY);
		sim_stat_inc(m, SIM_SLOWPATH_RETRY);
		return SLOWPATH_RETRY;
	}
	/* 6.15 defrag_mode: reclaim and compaction failed to prevent the
	 * fallback; allow it once */
	if (m->t.defrag_mode && (sp->alloc_flags & ALLOC_NOFRAGMENT)) {
		sp->alloc_flags &= ~(unsigned int)ALLOC_NOFRAGMENT;
		sim_stat_inc(m, SIM_SLOWPATH_RETRY);
		return SLOWPATH_RETRY;
	}
	*page = __alloc_pages_may_oom(m, gfp, sp->order, sp->ac, &sp->did_some_progress);
	if (*page != PFN_NONE)
		return SLOWPATH_GOT_PAGE;
	if (sp->did_some_progress) {
		sp->no_progress_loops = 0;
		sim_stat_inc(m, SIM_SLOWPATH_RETRY);
		return SLOWPATH_RETRY;
	}
	return SLOWPATH_NOPAGE;
}

/*
 * The nopage label (mm/page_alloc.c, 6.12): a request that may fail
 * fails; a __GFP_NOFAIL request that can reclaim tries the cpuset fallback
 * with ALLOC_MIN_RESERVE and goes round again, at most NOFAIL_MAX_PASSES
 * times (sim_nofail_giveup).  *page is set for SLOWPATH_GOT_PAGE.
 */
static enum slowpath_next slowpath_nopage(struct machine *m, struct slowpath *sp, pfn_t *page)
{
	if (!sp->nofail || !sp->can_direct_reclaim)
		return SLOWPATH_NOPAGE;
	*page = __alloc_pages_cpuset_fallback(m, sp->gfp, sp->order, ALLOC_MIN_RESERVE, sp->ac);
	if (*page != PFN_NONE)
		return SLOWPATH_GOT_PAGE;
	if (++sp->nofail_passes >= NOFAIL_MAX_PASSES) {
		sim_stat_inc(m, SIM_NOFAIL_GIVEUP);
		return SLOWPATH_NOPAGE;
	}
	sim_cond_resched(m->sim);
	sim_stat_inc(m, SIM_SLOWPATH_RETRY);
	return SLOWPATH_RETRY;
}

/*
 * The 6.12 flow of __alloc_pages_slowpath() (Linux 6.12.117): wake kswapd and
 * try the min watermark; an initial ASYNC compaction for costly and
 * non-movable high orders, after which a costly __GFP_NORETRY request
 * fails if compaction was SKIPPED or DEFERRED, or the request is
 * __GFP_THISNODE, and otherwise keeps ASYNC priority; then the retry loop
 * of reclaim, compaction and the retry decisions.  Policy V4 hands off to
 * kcompactd before the initial compaction.
 */
static pfn_t slowpath_flow_6_12(struct machine *m, struct slowpath *sp)
{
	enum slowpath_next next;
	pfn_t page = PFN_NONE;

	if (!slowpath_restart(m, sp))
		goto nopage;
	if (sp->alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(m, sp->order, sp->gfp, sp->ac);
	page = slowpath_freelist(m, sp->gfp, sp->order, sp->alloc_flags, sp->ac, "min watermark");
	if (page != PFN_NONE)
		return page;

	if (sp->pol->costly_noretry_kcompactd && sp->costly_noretry && sp->can_direct_reclaim) {
		slowpath_kcompactd_handoff(m, sp);
		goto nopage;
	}
	if (sp->can_direct_reclaim && sp->can_compact && slowpath_compact_early(sp) &&
	    !__gfp_pfmemalloc_flags(m, sp->gfp)) {
		page = slowpath_direct_compact(m, sp, INIT_COMPACT_PRIORITY);
		if (page != PFN_NONE)
			return page;
		if (sp->costly_noretry) {
			if (sp->compact_result == COMPACT_SKIPPED || sp->compact_result == COMPACT_DEFERRED) {
				mm_trace(m, "costly __GFP_NORETRY: compaction %s, fail",
					 compact_result_name(sp->compact_result));
				goto nopage;
			}
			if (sp->gfp & __GFP_THISNODE)
				goto nopage;
			sp->compact_priority = INIT_COMPACT_PRIORITY;
		}
	}

retry:
	page = slowpath_retry_freelist(m, sp);
	if (page != PFN_NONE)
		return page;
	if (!sp->can_direct_reclaim || current_is_kswapd(m))	/* PF_MEMALLOC: no recursion */
		goto nopage;
	page = slowpath_direct_reclaim(m, sp);
	if (page != PFN_NONE)
		return page;
	page = slowpath_direct_compact(m, sp, sp->compact_priority);
	if (page != PFN_NONE)
		return page;
	next = slowpath_should_retry(m, sp, &page);
	if (next == SLOWPATH_RETRY)
		goto retry;
	if (next == SLOWPATH_GOT_PAGE)
		return page;
nopage:
	if (slowpath_nopage(m, sp, &page) == SLOWPATH_RETRY)
		goto retry;
	return page;
}

/*
 * The 2026 flow of __alloc_pages_slowpath() (the mid-2026 mm tree, partly
 * unconfirmed: docs/slowpath.md §2), as it differs
 * from 6.12: can_compact needs can_direct_reclaim; there is no initial
 * compaction before the loop: instead a compact_first pass (ASYNC) runs
 * compaction without reclaim, fails only for __GFP_NORETRY|__GFP_THISNODE
 * (and, under the k2026_noretry_bail switch, for a costly __GFP_NORETRY
 * request whose compaction was SKIPPED or DEFERRED), and goes round once
 * more with reclaim (priority back to SYNC_LIGHT unless __GFP_NORETRY).
 * A request that cannot reclaim under defrag_mode first retries once
 * without ALLOC_NOFRAGMENT.  Policy V4 hands off to kcompactd after the
 * no-reclaim and PF_MEMALLOC checks, before any reclaim or compaction.
 */
static pfn_t slowpath_flow_2026(struct machine *m, struct slowpath *sp)
{
	bool compact_first = false, nofrag_retry_done = false;
	enum slowpath_next next;
	pfn_t page = PFN_NONE;

	sp->can_compact = sp->can_compact && sp->can_direct_reclaim;
	if (!slowpath_restart(m, sp))
		goto nopage;
	compact_first = sp->can_compact && slowpath_compact_early(sp);
	if (compact_first)
		sp->compact_priority = COMPACT_PRIO_ASYNC;

retry:
	page = slowpath_retry_freelist(m, sp);
	if (page != PFN_NONE)
		return page;
	if (!sp->can_direct_reclaim) {
		if (m->t.defrag_mode && (sp->alloc_flags & ALLOC_NOFRAGMENT) && !nofrag_retry_done) {
			sp->alloc_flags &= ~(unsigned int)ALLOC_NOFRAGMENT;
			nofrag_retry_done = true;
			goto retry;
		}
		goto nopage;
	}
	if (current_is_kswapd(m))	/* PF_MEMALLOC: no reclaim recursion */
		goto nopage;
	if (sp->pol->costly_noretry_kcompactd && sp->costly_noretry) {
		slowpath_kcompactd_handoff(m, sp);
		goto nopage;
	}
	if (!compact_first) {
		page = slowpath_direct_reclaim(m, sp);
		if (page != PFN_NONE)
			return page;
	}
	page = slowpath_direct_compact(m, sp, sp->compact_priority);
	if (page != PFN_NONE)
		return page;
	if (compact_first) {
		if (sp->pol->k2026_noretry_bail && sp->costly_noretry &&
		    (sp->compact_result == COMPACT_SKIPPED || sp->compact_result == COMPACT_DEFERRED))
			goto nopage;
		if ((sp->gfp & __GFP_NORETRY) && (sp->gfp & __GFP_THISNODE))
			goto nopage;
		if (!(sp->gfp & __GFP_NORETRY))
			sp->compact_priority = DEF_COMPACT_PRIORITY;
		compact_first = false;
		sim_stat_inc(m, SIM_SLOWPATH_RETRY);
		goto retry;
	}
	next = slowpath_should_retry(m, sp, &page);
	if (next == SLOWPATH_RETRY)
		goto retry;
	if (next == SLOWPATH_GOT_PAGE)
		return page;
nopage:
	if (slowpath_nopage(m, sp, &page) == SLOWPATH_RETRY)
		goto retry;
	return page;
}

/*
 * __alloc_pages_slowpath() — models mm/page_alloc.c (6.12), and the 2026
 * mm tree's compact_first flow (docs/slowpath.md) when the policy's
 * kernel is KERNEL_2026 (6.6 shares the 6.12 flow).  The policy variants
 * act at the places their patches change: V5/V6 in slowpath_init(), V4
 * in slowpath_kcompactd_handoff() (called where each flow places it), Va
 * in __alloc_pages_direct_reclaim(), Vb in gfp_compaction_allowed().
 * Not modelled: cpusets and their retry cookies, memory policies, the
 * stall warning (check_alloc_stall_warn), warn_alloc output, OOM victims.
 * __GFP_NOFAIL is bounded (NOFAIL_MAX_PASSES).
 */
static pfn_t __alloc_pages_slowpath(struct machine *m, gfp_t gfp, unsigned int order,
				    struct alloc_context *ac)
{
	struct slowpath sp;
	pfn_t page;

	sim_path_push(m->sim, "__alloc_pages_slowpath");
	slowpath_init(m, &sp, gfp, order, ac);
	if (sp.pol->kernel == KERNEL_2026)
		page = slowpath_flow_2026(m, &sp);
	else
		page = slowpath_flow_6_12(m, &sp);
	if (page == PFN_NONE) {
		sim_stat_inc(m, SIM_SLOWPATH_FAIL);
		sim_stat_inc_order(m, SIM_SLOWPATH_FAIL_ORDER_0, order);
		if (sp.costly_noretry) {
			sim_stat_inc(m, SIM_COSTLY_NORETRY_FAIL);
			sim_stat_inc(m, (enum sim_stat_item)(SIM_COSTLY_NORETRY_FAIL_ORDER_4 + (order - 4)));
		}
	}
	mm_trace(m, "__alloc_pages_slowpath order=%u -> %s", order, page == PFN_NONE ? "fail" : "page");
	sim_path_pop(m->sim);
	return page;
}

/*
 * __alloc_pages() — models __alloc_pages_noprof() (6.12; mm/page_alloc.c).
 * Simplified: no scoped gfp context (callers pass the effective gfp), no
 * memcg charging (__GFP_ACCOUNT), no cpusets.
 */
pfn_t __alloc_pages(struct machine *m, gfp_t gfp, unsigned int order, struct alloc_info *info)
{
	unsigned int alloc_flags = ALLOC_WMARK_LOW;
	struct alloc_context ac = { 0 };
	struct alloc_info dummy;
	pfn_t pfn;

	if (!info)
		info = &dummy;
	info->fast_path = info->slow_path = false;
	if (order > MAX_PAGE_ORDER)
		return PFN_NONE;
	m->mm_busy++;		/* mm_check waits for the end (mmzone.h) */

	prepare_alloc_pages(m, gfp, order, &ac, &alloc_flags);
	alloc_flags |= alloc_flags_nofragment(m, ac.no_zone ? NULL : m->zonelist[ac.preferred_zoneref],
					      gfp);
	mm_trace(m, "__alloc_pages order=%u gfp=%s", order, mm_trace_gfp(m, gfp));
	pfn = get_page_from_freelist(m, gfp, order, alloc_flags, &ac);
	if (likely(pfn != PFN_NONE)) {
		info->fast_path = true;
		goto out;
	}
	mm_trace(m, "get_page_from_freelist (fast path) order=%u flags=%s -> none", order,
		 mm_trace_alloc_flags(m, alloc_flags));
	sim_stat_inc(m, SIM_FASTPATH_FAIL);
	ac.spread_dirty_pages = false;
	info->slow_path = true;
	pfn = __alloc_pages_slowpath(m, gfp, order, &ac);
out:
	trace_count(m, TP_MM_PAGE_ALLOC);
	if (pfn != PFN_NONE) {
		info->zone = zone_idx(page_zone(m, pfn));
		mm_trace(m, "__alloc_pages order=%u -> pfn %u (%s)", order, pfn, zone_names[info->zone]);
	}
	m->mm_busy--;
	mm_op_done(m);
	return pfn;
}

pfn_t alloc_pages(struct machine *m, gfp_t gfp, unsigned int order, enum page_type type)
{
	pfn_t pfn;

	SIM_ASSERT(type >= PGTY_KERNEL && type < NR_PAGE_TYPES);
	pfn = __alloc_pages(m, gfp, order, NULL);
	if (pfn != PFN_NONE)
		set_page_type_order(pfn_to_page(m, pfn), type, order);
	return pfn;
}

/* ---- per-CPU lists: freeing (free_unref_page_commit, mm/page_alloc.c) -------------------------------------------- */

/* nr_pcp_free() (6.12): how many pages one over-high free returns. */
static int nr_pcp_free(const struct per_cpu_pages *pcp, int batch, int high, bool free_high)
{
	int min_nr_free, max_nr_free, n;

	if (unlikely(free_high)) {
		n = batch << CONFIG_PCP_BATCH_SCALE_MAX;
		return pcp->count < n ? pcp->count : n;
	}
	if (unlikely(high < batch))
		return 1;
	min_nr_free = batch;
	max_nr_free = high - batch;
	return kclamp(pcp->free_count, min_nr_free, max_nr_free);
}

/*
 * nr_pcp_high() (6.12; K6.6 used a fixed high = low watermark / CPUs and a
 * free_factor that grew the free batch): the current flush limit,
 * adjusting pcp->high:
 * shrink after high-order batch frees, under reclaim, and while the zone
 * is below its high watermark; grow when frees keep hitting the limit.
 */
static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high)
{
	int high, high_min, high_max;

	high_min = pcp->high_min;
	high_max = pcp->high_max;
	high = pcp->high = kclamp(pcp->high, high_min, high_max);

	if (unlikely(!high))
		return 0;

	if (unlikely(free_high)) {
		int h = high - (batch << CONFIG_PCP_BATCH_SCALE_MAX);

		pcp->high = h > high_min ? h : high_min;
		return 0;
	}

	if (zone_test_flag(zone, ZONE_RECLAIM_ACTIVE)) {
		int free_count = pcp->free_count > batch ? pcp->free_count : batch;
		int h = high - free_count;

		pcp->high = h > high_min ? h : high_min;
		return (batch << 2) < pcp->high ? (batch << 2) : pcp->high;
	}

	if (high_min == high_max)
		return high;

	if (zone_test_flag(zone, ZONE_BELOW_HIGH)) {
		int free_count = pcp->free_count > batch ? pcp->free_count : batch;
		int h = high - free_count;

		pcp->high = h > high_min ? h : high_min;
		high = pcp->count > high_min ? pcp->count : high_min;
	} else if (pcp->count >= high) {
		int need_high = pcp->free_count + batch;

		if (pcp->high < need_high)
			pcp->high = kclamp(need_high, high_min, high_max);
	}
	return high;
}

/*
 * free_unref_page_commit() (6.12; mm/page_alloc.c): add to the list head, track
 * high-order batch freeing (free_high), and flush with
 * free_pcppages_bulk() once count reaches nr_pcp_high(); after a flush a
 * zone back above its high watermark loses ZONE_BELOW_HIGH.
 * PCPF_FREE_HIGH_BATCH is never set: it needs a per-CPU data-cache slice
 * above 3 x batch pages (Graviton4: 36 MiB L3 / 96 CPUs = 96 pages < 189).
 * K6.6: free_high was any order-1..3 free while free_factor was non-zero;
 * no ZONE_BELOW_HIGH (both arrived with the 6.7 pcp auto-tuning series).
 */
static void free_unref_page_commit(struct machine *m, struct zone *zone, struct per_cpu_pages *pcp,
				   pfn_t pfn, int migratetype, unsigned int order)
{
	unsigned int pindex;
	bool free_high = false;
	int high, batch;

	mm_charge(m, COST_pcp_free, 1);
	pcp->alloc_factor >>= 1;
	__count_vm_events(m, PGFREE, 1UL << order);
	pindex = order_to_pindex(migratetype, order);
	set_pcp_page(m, pfn, order, pindex);
	pfn_ring_add(&pcp->lists[pindex], pfn);
	pcp->count += 1 << order;

	batch = pcp->batch;
	if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
		free_high = (pcp->free_count >= batch &&
			     (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) &&
			     (!(pcp->flags & PCPF_FREE_HIGH_BATCH) || pcp->count >= batch));
		pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	} else if (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) {
		pcp->flags &= (uint8_t)~PCPF_PREV_FREE_HIGH_ORDER;
	}
	if (pcp->free_count < (batch << CONFIG_PCP_BATCH_SCALE_MAX))
		pcp->free_count = (short)(pcp->free_count + (1 << order));
	high = nr_pcp_high(pcp, zone, batch, free_high);
	if (pcp->count >= high) {
		free_pcppages_bulk(m, zone, nr_pcp_free(pcp, batch, high, free_high), pcp, (int)pindex);
		if (zone_test_flag(zone, ZONE_BELOW_HIGH) &&
		    zone_watermark_ok(zone, 0, high_wmark_pages(zone), ZONE_MOVABLE, 0))
			zone_clear_flag(zone, ZONE_BELOW_HIGH);
	}
}

/*
 * free_unref_page() (6.12): pcp orders go to this CPU's pcp list (HIGHATOMIC
 * pageblocks' pages on the MOVABLE list, ISOLATE straight to the buddy);
 * a failed pcp trylock frees straight to the buddy lists.
 */
void free_unref_page(struct machine *m, pfn_t pfn, unsigned int order)
{
	struct zone *zone = page_zone(m, pfn);
	struct per_cpu_pages *pcp;
	int migratetype;

	trace_count(m, TP_MM_PAGE_FREE);	/* free_pages_prepare, either way */
	if (!pcp_allowed_order(order)) {
		free_one_page(m, zone, pfn, order, FPI_NONE);	/* __free_pages_ok */
		return;
	}
	migratetype = get_pfnblock_migratetype(m, pfn);
	if (unlikely(migratetype >= MIGRATE_PCPTYPES)) {
		if (unlikely(is_migrate_isolate(migratetype))) {
			free_one_page(m, zone, pfn, order, FPI_NONE);
			return;
		}
		migratetype = MIGRATE_MOVABLE;
	}
	pcp = &zone->per_cpu_pageset[mm_this_cpu(m)];
	if (sim_spin_trylock(m->sim, &pcp->lock)) {
		free_unref_page_commit(m, zone, pcp, pfn, migratetype, order);
		sim_spin_unlock(m->sim, &pcp->lock);
	} else {
		sim_stat_inc(m, SIM_PCP_TRYLOCK_FAIL);
		free_one_page(m, zone, pfn, order, FPI_NONE);
	}
}

/*
 * __free_pages() (6.12): the model has no refcounts, so this is the last
 * reference — unless reclaim or compaction has the folio isolated, whose
 * reference then is the last one (the isolator frees it).
 * free_pages_prepare()'s bad-page checks become assertions: the pfn must
 * be the head of an allocated block of this order, off the LRU and not
 * under writeback.
 */
void __free_pages(struct machine *m, pfn_t pfn, unsigned int order)
{
	const struct page *page;

	SIM_ASSERT(pfn < m->nr_pfns);
	page = pfn_to_page(m, pfn);
	if (unlikely(page_type(page) < PGTY_KERNEL || page_order(page) != order ||
		     (page->flags & (PG_lru | PG_writeback))))
		SIM_BUG("__free_pages: pfn %u is not a freeable order-%u block (type %d order %u flags %#x)",
			pfn, order, page_type(page), page_order(page), page->flags);
	m->mm_busy++;
	if (unlikely(m->isolated.nr) && folio_isolation_held(m, pfn)) {
		/* reclaim or compaction holds it: the owner's reference goes,
		 * the isolator's put frees it */
		if (page->mapping)
			SIM_BUG("__free_pages: isolated folio at pfn %u freed while still in mapping %u",
				pfn, page->mapping);
		folio_isolation_orphan(m, pfn);
		sim_stat_inc(m, SIM_ISOLATED_FREE_DEFERRED);
		m->mm_busy--;
		mm_op_done(m);
		return;
	}
	free_unref_page(m, pfn, order);
	m->mm_busy--;
	mm_op_done(m);
}

void free_pages(struct machine *m, pfn_t pfn, unsigned int order)
{
	__free_pages(m, pfn, order);
}

/* ---- per-CPU lists: decay and drains (free_unref_page_commit, mm/page_alloc.c step 7) ---------------------- */

/*
 * decay_pcp_high() (6.12): from the vmstat worker once per stat_interval:
 * lower high towards high_min by an eighth (at most count - batch<<5 below
 * count) and free what is above it in batch-sized chunks.
 */
bool decay_pcp_high(struct machine *m, struct zone *zone, struct per_cpu_pages *pcp)
{
	int high_min = pcp->high_min, batch = pcp->batch, to_drain;
	bool todo = false;

	if (pcp->high > high_min) {
		int a = pcp->count - (batch << CONFIG_PCP_BATCH_SCALE_MAX);
		int b = pcp->high - (pcp->high >> 3);
		int h = a > b ? a : b;

		pcp->high = h > high_min ? h : high_min;
		if (pcp->high > high_min)
			todo = true;
	}

	to_drain = pcp->count - pcp->high;
	while (to_drain > 0) {
		int chunk = to_drain < batch ? to_drain : batch;

		sim_spin_lock(m->sim, &pcp->lock);
		free_pcppages_bulk(m, zone, chunk, pcp, 0);
		sim_spin_unlock(m->sim, &pcp->lock);
		todo = true;
		to_drain -= chunk;
	}
	return todo;
}

/*
 * drain_pages_zone() (6.12): empty one CPU's pcp for a zone, in chunks of
 * batch << CONFIG_PCP_BATCH_SCALE_MAX, each under the pcp lock and one
 * zone->lock hold.  Runs in the caller (no IPI, no work item, since 6.2).
 */
void drain_pages_zone(struct machine *m, unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
	int count;

	sim_path_push(m->sim, "drain_pages_zone");
	do {
		sim_spin_lock(m->sim, &pcp->lock);
		count = pcp->count;
		if (count) {
			int chunk = pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX;
			int to_drain = count < chunk ? count : chunk;
			int before = pcp->count;

			free_pcppages_bulk(m, zone, to_drain, pcp, 0);
			sim_stat_add(m, SIM_DRAIN_PAGES, (uint64_t)(before - pcp->count));
			count -= to_drain;
		}
		sim_spin_unlock(m->sim, &pcp->lock);
	} while (count > 0);
	sim_path_pop(m->sim);
}

static void drain_pages(struct machine *m, unsigned int cpu)
{
	for (unsigned int i = 0; i < m->nr_zonelist; i++)
		drain_pages_zone(m, cpu, m->zonelist[m->nr_zonelist - 1 - i]);
}

/* drain_local_pages() (6.12): this CPU, one zone or all. */
void drain_local_pages(struct machine *m, struct zone *zone)
{
	unsigned int cpu = mm_this_cpu(m);

	if (zone)
		drain_pages_zone(m, cpu, zone);
	else
		drain_pages(m, cpu);
	mm_op_done(m);
}

/*
 * __drain_all_pages() — models mm/page_alloc.c:__drain_all_pages() (6.2+,
 * 6.12; __drain_all_pages, mm/page_alloc.c).  A drain of all zones (zone == NULL) gives up at once
 * if another drain holds pcpu_drain_mutex; a zone drain waits for it.
 * The drainer reads every CPU's pcp counts (pcp_drain_cpu per CPU) and
 * empties the lists of CPUs that have pages, itself, each chunk under
 * the remote pcp lock and zone->lock (per-page costs in
 * free_pcppages_bulk/__free_one_page).  The refills that follow on every
 * CPU are not charged here: they happen, and cost, in later rmqueue_bulk
 * calls.  Attributed to the call path "drain_all_pages".
 */
void __drain_all_pages(struct machine *m, struct zone *zone, bool force_all_cpus)
{
	bool *cpus_with_pcps;

	sim_path_push(m->sim, "drain_all_pages");
	if (unlikely(!sim_mutex_trylock(m->sim, &m->pcpu_drain_mutex))) {
		if (!zone) {
			sim_stat_inc(m, SIM_DRAIN_SKIPPED);
			goto out;
		}
		sim_mutex_lock(m->sim, &m->pcpu_drain_mutex);
	}

	cpus_with_pcps = m->drain_cpumask;
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		bool has_pcps = false;

		mm_charge(m, COST_pcp_drain_cpu, 1);
		if (force_all_cpus) {
			has_pcps = true;
		} else if (zone) {
			has_pcps = zone->per_cpu_pageset[cpu].count != 0;
		} else {
			for (unsigned int i = 0; i < m->nr_zonelist && !has_pcps; i++)
				has_pcps = m->zonelist[m->nr_zonelist - 1 - i]->per_cpu_pageset[cpu].count != 0;
		}
		cpus_with_pcps[cpu] = has_pcps;
	}

	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!cpus_with_pcps[cpu])
			continue;
		sim_stat_inc(m, SIM_DRAIN_CPUS);
		if (zone)
			drain_pages_zone(m, cpu, zone);
		else
			drain_pages(m, cpu);
	}
	sim_mutex_unlock(m->sim, &m->pcpu_drain_mutex);
	sim_stat_inc(m, SIM_DRAIN_ALL_PAGES);
out:
	sim_path_pop(m->sim);
}

void drain_all_pages(struct machine *m, struct zone *zone)
{
	__drain_all_pages(m, zone, false);
	mm_op_done(m);
}

/* ---- taking a given page (mm/page_alloc.c, memory-failure helpers) ---------------- */

/* break_down_buddy_pages() (6.12): split a free block around `target`,
 * returning every other piece to the free lists. */
static void break_down_buddy_pages(struct machine *m, struct zone *zone, pfn_t pfn, pfn_t target,
				   unsigned int low, unsigned int high, int migratetype)
{
	unsigned int size = 1u << high;

	while (high > low) {
		pfn_t current_buddy;

		high--;
		size >>= 1;
		if (target >= pfn + size) {
			current_buddy = pfn;
			pfn += size;
		} else {
			current_buddy = pfn + size;
		}
		__add_to_free_list(m, zone, current_buddy, high, migratetype, false);
		account_freepages(zone, 1L << high, migratetype);
	}
}

/*
 * take_page_off_buddy() (6.12): remove the one page `pfn` from whatever
 * free block holds it (memory-failure uses it for poisoned pages; the
 * model's tests use it to build exact states).  The page becomes an
 * order-0 PGTY_ALLOC block.  Returns false if the page is not free in
 * the buddy lists.
 */
bool take_page_off_buddy(struct machine *m, pfn_t pfn)
{
	struct zone *zone = page_zone(m, pfn);
	bool ret = false;

	sim_spin_lock(m->sim, &zone->lock);
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		pfn_t head = pfn & ~((1u << order) - 1);
		const struct page *page_head = pfn_to_page(m, head);
		enum page_type t = page_type(page_head);

		if (t == PGTY_BUDDY && page_order(page_head) >= order) {
			unsigned int head_order = page_order(page_head);
			int mt = get_pfnblock_migratetype(m, head);

			del_page_from_free_list(m, zone, head, head_order, mt);
			break_down_buddy_pages(m, zone, head, pfn, 0, head_order, mt);
			prep_new_page(m, pfn, 0, 0, 0);
			ret = true;
			break;
		}
		if (t != PGTY_TAIL)	/* an allocated or pcp block holds it */
			break;
	}
	sim_spin_unlock(m->sim, &zone->lock);
	return ret;
}

/* wakeup_kswapd() is in vmscan.c, node_dirty_ok() in page-writeback.c (the
 * kernel's places for them). */
