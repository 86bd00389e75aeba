/* SPDX-License-Identifier: MIT */
/*
 * compaction.c — memory compaction: suitability and fragmentation index,
 * deferral, the migrate and free scanners over pageblocks with skip hints
 * and cached positions, isolation, capture, and kcompactd with proactive
 * compaction (mm/compaction.c and mm/vmstat.c, Linux 6.12.117).
 *
 * The mechanism.  compact_zone() moves movable folios from the bottom of
 * a zone to free pages at its top, so free pages coalesce at the bottom:
 *
 *   zone_start                                                 zone_end
 *   |  migrate scanner ->                         <- free scanner      |
 *   [pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb][pb]...
 *        ^ migrate_pfn (cached per mode)           ^ free_pfn (cached)
 *
 *   1. compaction_suit_allocation_order: done already (SUCCESS), hopeless
 *      (SKIPPED: too few free pages, or the fragmentation index says the
 *      failure is lack of memory), or CONTINUE.
 *   2. The migrate scanner (isolate_migratepages) takes the next pageblock
 *      upward that is not skip-marked (and, for async direct compaction,
 *      of the request's migratetype class) and isolates up to 32 pages of
 *      folios from it (isolate_migratepages_block, mm/compaction.c rules).
 *   3. migrate_pages() moves them into free pages the free scanner
 *      (isolate_freepages) takes from pageblocks downward from the top,
 *      skipping unsuitable and skip-marked blocks.
 *   4. Freed source pages merge in the buddy allocator; a block of the
 *      requested order freed by the compactor itself is captured.
 *   5. __compact_finished stops when the scanners meet (COMPLETE or
 *      PARTIAL_SKIPPED), when a free block of the order exists at a
 *      pageblock boundary (SUCCESS), or on lock contention (CONTENDED).
 *   Blocks that yield nothing get their skip bit; the bits stay until
 *   kswapd goes to sleep after a direct compactor's scanners met, or
 *   deferral restarts compaction.
 *
 * Data: compact_control lives on the compactor's stack; its isolated
 * folios are linked through struct page.next/prev (they are off the LRU,
 * PG_isolated) and its isolated free blocks (PGTY_ALLOC heads) likewise,
 * one list per order, so nothing is allocated per page.
 *
 * Time: per pfn examined by either scanner (compact_migrate_scan,
 * compact_free_scan) — per pfn the loop visits, not per pfn counted: like
 * the kernel's nr_scanned, compact_{migrate,free}_scanned also count every
 * pfn of a free block, a hugetlb page or a skipped compound page that the
 * loop steps over in one move, which costs no per-pfn work — per
 * pageblock the free scanner visits (compact_free_block), per free-list
 * entry the fast searches look at (compact_fast_search), per folio
 * isolated (compact_isolate), per folio migrated plus per page copied
 * (migrate.c), and zone->lock / lru_lock hold and contention through the
 * engine's locks.
 *
 * Simplifications (each also noted at its function):
 *  - cond_resched() and the lock drop every COMPACT_CLUSTER_MAX pfns are
 *    taken once per pageblock (the model's sync points cost events);
 *    contention is still detected on every lock acquisition.
 *  - No fatal signals, no hugetlb isolation, no __PageMovable driver
 *    pages, no alloc_contig/CMA users; "pinned anonymous page" (refcount
 *    above mapcount) is approximated by a locked folio.
 *  - need_resched() never cuts try_to_compact_pages short.
 *  - Migration succeeds unless the folio is locked, under writeback (not
 *    MIGRATE_SYNC), dirty without a non-blocking migrate_folio (not
 *    MIGRATE_SYNC), or no destination page can be found.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "mm/compaction.h"
#include "mm/folio_lock.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/trace.h"
#include "mm/vmscan.h"
#include "sim/hostmem.h"

#define block_start_pfn(pfn, order)	((pfn) & ~((1UL << (order)) - 1))
#define block_end_pfn(pfn, order)	(((pfn) + (1UL << (order))) & ~((1UL << (order)) - 1))
#define pageblock_end_pfn(pfn)		block_end_pfn((unsigned long)(pfn), pageblock_order)
#define pageblock_aligned(pfn)		(((pfn) & (pageblock_nr_pages - 1)) == 0)

/* isolate_mode_t bits (include/linux/mmzone.h) */
#define ISOLATE_ASYNC_MIGRATE	0x4
#define ISOLATE_UNEVICTABLE	0x8

/* struct compact_control (mm/internal.h, 6.12) */
struct compact_control {
	struct machine	*m;
	struct pfn_list	freepages[NR_PAGE_ORDERS];	/* isolated free blocks by order */
	struct pfn_list	migratepages;			/* isolated folios */
	unsigned long	nr_freepages;
	unsigned long	nr_migratepages;
	unsigned long	free_pfn;
	unsigned long	migrate_pfn;
	unsigned long	fast_start_pfn;
	struct zone	*zone;
	unsigned long	total_migrate_scanned;
	unsigned long	total_free_scanned;
	unsigned short	fast_search_fail;
	short		search_order;
	gfp_t		gfp_mask;
	int		order;				/* -1: whole-zone (compact_memory, proactive) */
	int		migratetype;
	unsigned int	alloc_flags;
	int		highest_zoneidx;
	enum migrate_mode mode;
	bool		ignore_skip_hint;
	bool		no_set_skip_hint;
	bool		ignore_block_suitable;
	bool		direct_compaction;
	bool		proactive_compaction;
	bool		whole_zone;
	bool		contended;
	bool		finish_pageblock;
};

typedef enum {
	ISOLATE_ABORT,
	ISOLATE_NONE,
	ISOLATE_SUCCESS,
} isolate_migrate_t;

static inline bool is_via_compact_memory(int order)
{
	return order == -1;
}

bool gfp_compaction_allowed(const struct machine *m, gfp_t gfp)
{
	if (!(gfp & __GFP_IO))
		return false;
	/* Vb (docs/slowpath.md, policy variants): NORETRY requests may not compact unless THISNODE */
	if (m->policy->noretry_no_compaction && (gfp & __GFP_NORETRY) && !(gfp & __GFP_THISNODE))
		return false;
	return true;
}

/* ---- fragmentation index (mm/vmstat.c) ------------------------------------ */

struct contig_page_info {
	unsigned long free_pages;
	unsigned long free_blocks_total;
	unsigned long free_blocks_suitable;
};

/* fill_contig_page_info() (6.12): free pages and blocks from nr_free. */
static void fill_contig_page_info(const struct zone *zone, unsigned int suitable_order,
				  struct contig_page_info *info)
{
	info->free_pages = info->free_blocks_total = info->free_blocks_suitable = 0;
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		unsigned long blocks = zone->free_area[order].nr_free;

		info->free_blocks_total += blocks;
		info->free_pages += blocks << order;
		if (order >= suitable_order)
			info->free_blocks_suitable += blocks << (order - suitable_order);
	}
}

/* __fragmentation_index() (6.12; compaction_suitable, mm/compaction.c): -1000 if the request would
 * succeed, 0 with no free blocks, else 1000 - (1000 + 1000 free/2^order)
 * / free blocks: towards 0 = lack of memory, towards 1000 = fragmentation. */
int fragmentation_index(const struct zone *zone, unsigned int order)
{
	struct contig_page_info info;
	unsigned long requested = 1UL << order;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_blocks_total)
		return 0;
	if (info.free_blocks_suitable)
		return -1000;
	return (int)(1000 - (1000 + (info.free_pages * 1000UL) / requested) / info.free_blocks_total);
}

/* extfrag_for_order() (6.12): % of free pages in blocks smaller than order. */
unsigned int extfrag_for_order(const struct zone *zone, unsigned int order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_pages)
		return 0;
	return (unsigned int)((info.free_pages - (info.free_blocks_suitable << order)) * 100 /
			      info.free_pages);
}

/* ---- deferral (defer_compaction, mm/compaction.c) -------------------------------------------------------- */

void defer_compaction(struct zone *zone, int order)
{
	zone->compact_considered = 0;
	zone->compact_defer_shift++;
	if (order < zone->compact_order_failed)
		zone->compact_order_failed = order;
	if (zone->compact_defer_shift > COMPACT_MAX_DEFER_SHIFT)
		zone->compact_defer_shift = COMPACT_MAX_DEFER_SHIFT;
	sim_stat_inc(zone->machine, SIM_COMPACT_DEFER);
	mm_trace(zone->machine, "defer_compaction zone=%s order=%d shift=%u", zone->name, order,
		 zone->compact_defer_shift);
}

bool compaction_deferred(struct zone *zone, int order)
{
	unsigned long defer_limit = 1UL << zone->compact_defer_shift;

	if (order < zone->compact_order_failed)
		return false;
	if (++zone->compact_considered >= defer_limit) {
		zone->compact_considered = (unsigned int)defer_limit;
		return false;
	}
	return true;
}

void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	if (alloc_success) {
		zone->compact_considered = 0;
		zone->compact_defer_shift = 0;
	}
	if (order >= zone->compact_order_failed)
		zone->compact_order_failed = order + 1;
}

bool compaction_restarting(struct zone *zone, int order)
{
	if (order < zone->compact_order_failed)
		return false;
	return zone->compact_defer_shift == COMPACT_MAX_DEFER_SHIFT &&
	       zone->compact_considered >= 1UL << zone->compact_defer_shift;
}

/* ---- skip hints and cached positions ------------------------------------------ */

static inline bool isolation_suitable(const struct compact_control *cc, unsigned long pfn)
{
	return cc->ignore_skip_hint || !get_pageblock_skip(cc->m, (pfn_t)pfn);
}

static void reset_cached_positions(struct zone *zone)
{
	zone->compact_cached_migrate_pfn[0] = zone->zone_start_pfn;
	zone->compact_cached_migrate_pfn[1] = zone->zone_start_pfn;
	zone->compact_cached_free_pfn = pageblock_start_pfn((pfn_t)(zone_end_pfn(zone) - 1));
}

/*
 * The cached scanner positions start at the zone's ends.  The kernel
 * leaves them zero until the first compaction resets them, which has the
 * same effect for every zone that does not start at pfn 0; the model's
 * first zone does start there, where a zero free position would read as
 * "scanners met".
 */
void compaction_zone_init(struct zone *zone)
{
	reset_cached_positions(zone);
}

/* pageblock_skip_persistent(): a block starting with a compound page of at
 * least pageblock order keeps its skip bit (nothing to gain there). */
static bool pageblock_skip_persistent(const struct machine *m, unsigned long pfn)
{
	const struct page *page = pfn_to_page(m, (pfn_t)pfn);
	enum page_type t = page_type(page);

	return t != PGTY_BUDDY && t != PGTY_PCP && t != PGTY_TAIL && t != PGTY_RESERVED &&
	       page_order(page) >= pageblock_order;
}

/*
 * __reset_isolation_pfn() (6.12): clear one pageblock's skip bit if a
 * sample of its pages (every 8th) shows an LRU page (migration source) or
 * a free page (migration target).
 */
static bool __reset_isolation_pfn(struct zone *zone, unsigned long pfn, bool check_source,
				  bool check_target)
{
	struct machine *m = zone->machine;
	unsigned long block_pfn, end;
	unsigned int samples, visited;
	const uint64_t *w;
	uint64_t found;

	if (pageblock_skip_persistent(m, pfn))
		return false;
	if (check_source && check_target && !get_pageblock_skip(m, (pfn_t)pfn))
		return true;
	if (!check_source && check_target &&
	    get_pfnblock_migratetype(m, (pfn_t)pfn) != MIGRATE_MOVABLE)
		return false;
	block_pfn = pageblock_start_pfn((pfn_t)pfn);
	if (block_pfn < zone->zone_start_pfn)
		block_pfn = zone->zone_start_pfn;
	end = pageblock_end_pfn(block_pfn) - 1;
	if (end > zone_end_pfn(zone) - 1)
		end = zone_end_pfn(zone) - 1;
	/*
	 * The kernel tests every 8th frame from the block's start, a source
	 * (an LRU folio) or a target (a free block) ending the walk; the
	 * pageblock's summary of those frames (mmzone.h) gives the first
	 * one without reading them.  Each frame visited is charged, one by
	 * one as the walk would.
	 */
	samples = (unsigned int)((end - block_pfn) >> PAGEBLOCK_SAMPLE_SHIFT) + 1;
	w = &m->pageblock_samples[2 * pfn_to_pageblock((pfn_t)block_pfn)];
	found = (check_source ? w[0] : 0) | (check_target ? w[1] : 0);
	if (samples < 64)
		found &= (1ULL << samples) - 1;
	visited = found ? (unsigned int)__builtin_ctzll(found) + 1 : samples;
	mm_charge_each(m, COST_compact_migrate_scan, visited);
	if (!found)
		return false;
	clear_pageblock_skip(m, (pfn_t)(block_pfn + ((uint64_t)(visited - 1) << PAGEBLOCK_SAMPLE_SHIFT)));
	return true;
}

/*
 * Host prefetch, no model effect: pageblock_skip_persistent() reads the
 * struct page each scanner starts its block at (the migrate side's first,
 * the free side's last), a host cache miss the hardware cannot foresee
 * (the blocks are 8 KiB of mem_map apart), so the walk asks for them a
 * few blocks ahead.  (The sampled frames are not read: the pageblock's
 * summary stands for them.)
 */
#define RESET_PREFETCH_BLOCKS	8

static inline void reset_isolation_prefetch(const struct zone *zone, unsigned long migrate_pfn,
					    unsigned long free_pfn)
{
	const unsigned long ahead = RESET_PREFETCH_BLOCKS * pageblock_nr_pages;
	const struct machine *m = zone->machine;

	if (free_pfn - migrate_pfn <= 2 * ahead)
		return;
	host_prefetch(pfn_to_page(m, (pfn_t)(migrate_pfn + ahead)));
	host_prefetch(pfn_to_page(m, (pfn_t)(free_pfn - ahead)));
}

/*
 * __reset_isolation_suitable() (6.12): after a direct compactor's scanners
 * met (compact_blockskip_flush), walk the zone from both ends clearing
 * skip bits of blocks that now look useful, and restart the scanners at
 * the outermost such blocks.
 */
static void __reset_isolation_suitable(struct zone *zone)
{
	unsigned long migrate_pfn = zone->zone_start_pfn;
	unsigned long free_pfn = zone_end_pfn(zone) - 1;
	unsigned long reset_migrate = free_pfn, reset_free = migrate_pfn;
	bool source_set = false, free_set = false;

	if (!zone->compact_blockskip_flush)
		return;
	zone->compact_blockskip_flush = false;
	for (; migrate_pfn < free_pfn; migrate_pfn += pageblock_nr_pages, free_pfn -= pageblock_nr_pages) {
		reset_isolation_prefetch(zone, migrate_pfn, free_pfn);
		if (__reset_isolation_pfn(zone, migrate_pfn, true, source_set) &&
		    migrate_pfn < reset_migrate) {
			source_set = true;
			reset_migrate = migrate_pfn;
			zone->compact_init_migrate_pfn = reset_migrate;
			zone->compact_cached_migrate_pfn[0] = reset_migrate;
			zone->compact_cached_migrate_pfn[1] = reset_migrate;
		}
		if (__reset_isolation_pfn(zone, free_pfn, free_set, true) && free_pfn > reset_free) {
			free_set = true;
			reset_free = free_pfn;
			zone->compact_init_free_pfn = reset_free;
			zone->compact_cached_free_pfn = reset_free;
		}
	}
	if (reset_migrate >= reset_free) {
		zone->compact_cached_migrate_pfn[0] = migrate_pfn;
		zone->compact_cached_migrate_pfn[1] = migrate_pfn;
		zone->compact_cached_free_pfn = free_pfn;
	}
}

void reset_isolation_suitable(pg_data_t *pgdat)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (populated_zone(zone))
			__reset_isolation_suitable(zone);
	}
}

static bool test_and_set_skip(struct compact_control *cc, unsigned long pfn)
{
	bool skip;

	if (cc->ignore_skip_hint)
		return false;
	skip = get_pageblock_skip(cc->m, (pfn_t)pfn);
	if (!skip && !cc->no_set_skip_hint)
		set_pageblock_skip(cc->m, (pfn_t)pfn);
	return skip;
}

static void update_cached_migrate(struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;

	if (cc->no_set_skip_hint)
		return;
	pfn = pageblock_end_pfn(pfn);
	if (pfn > zone->compact_cached_migrate_pfn[0])
		zone->compact_cached_migrate_pfn[0] = pfn;
	if (cc->mode != MIGRATE_ASYNC && pfn > zone->compact_cached_migrate_pfn[1])
		zone->compact_cached_migrate_pfn[1] = pfn;
}

static void update_pageblock_skip(struct compact_control *cc, unsigned long pfn_in_block,
				  unsigned long pfn)
{
	if (cc->no_set_skip_hint)
		return;
	set_pageblock_skip(cc->m, (pfn_t)pfn_in_block);
	if (pfn < cc->zone->compact_cached_free_pfn)
		cc->zone->compact_cached_free_pfn = pfn;
}

/*
 * compact_lock_irqsave() (6.12): async compaction try-locks and records
 * contention (the run then aborts at the end of the block); it takes the
 * lock either way.
 */
static void compact_lock(struct compact_control *cc, struct sim_spinlock *lock)
{
	struct sim *sim = cc->m->sim;

	if (cc->mode == MIGRATE_ASYNC && !cc->contended) {
		if (sim_spin_trylock(sim, lock))
			return;
		cc->contended = true;
	}
	sim_spin_lock(sim, lock);
}

/* ---- the free scanner ------------------------------------------------------------ */

static inline bool block_is_folio_head(const struct page *page)
{
	enum page_type t = page_type(page);

	return t == PGTY_FILE || t == PGTY_SHMEM || t == PGTY_ANON;
}

/* An allocated block's head (any owner), i.e. a "compound" head when its
 * order is above 0.  Buddy, pcp, tail and reserved frames are not. */
static inline bool block_is_allocated_head(const struct page *page)
{
	return page_type(page) >= PGTY_KERNEL;
}

/*
 * isolate_freepages_block() (6.12): take free buddy blocks from
 * [*start_pfn, end_pfn) with the given stride onto cc->freepages, each
 * through __isolate_free_page (which refuses below min watermark + the
 * block); stop once there are as many free pages as pages to migrate.
 * zone->lock is taken at the first free block and held to the end of the
 * block (the kernel drops it every 32 pfns).
 */
static unsigned long isolate_freepages_block(struct compact_control *cc, unsigned long *start_pfn,
					     unsigned long end_pfn, unsigned int stride, bool strict)
{
	struct machine *m = cc->m;
	unsigned long nr_scanned = 0, nr_visited = 0, total_isolated = 0;
	unsigned long blockpfn = *start_pfn;
	bool locked = false;

	if (strict)
		stride = 1;
	for (; blockpfn < end_pfn; blockpfn += stride) {
		struct page *page = pfn_to_page(m, (pfn_t)blockpfn);
		unsigned int order;
		unsigned long isolated;

		nr_scanned++;
		nr_visited++;
		if (block_is_allocated_head(page) && page_order(page) > 0) {
			order = page_order(page);
			if (blockpfn + (1UL << order) <= end_pfn) {
				blockpfn += (1UL << order) - 1;
				nr_scanned += (1UL << order) - 1;
			}
			goto isolate_fail;
		}
		if (page_type(page) != PGTY_BUDDY)
			goto isolate_fail;
		if (!locked) {
			compact_lock(cc, &cc->zone->lock);
			locked = true;
			if (page_type(page) != PGTY_BUDDY)
				goto isolate_fail;
		}
		order = page_order(page);
		isolated = (unsigned long)__isolate_free_page(m, (pfn_t)blockpfn, order);
		if (!isolated)
			break;
		pfn_list_add_tail(m->mem_map, &cc->freepages[order], (pfn_t)blockpfn);
		nr_scanned += isolated - 1;
		total_isolated += isolated;
		cc->nr_freepages += isolated;
		if (!strict && cc->nr_migratepages <= cc->nr_freepages) {
			blockpfn += isolated;
			break;
		}
		blockpfn += isolated - 1;
		continue;
isolate_fail:
		if (strict)
			break;
	}
	if (locked)
		sim_spin_unlock(m->sim, &cc->zone->lock);
	if (blockpfn > end_pfn)
		blockpfn = end_pfn;
	*start_pfn = blockpfn;
	if (strict && blockpfn < end_pfn)
		total_isolated = 0;
	cc->total_free_scanned += nr_scanned;
	mm_charge(m, COST_compact_free_scan, nr_visited);
	if (total_isolated)
		count_vm_events(m, COMPACTISOLATED, total_isolated);
	return total_isolated;
}

/* suitable_migration_source() (6.12): async direct compaction scans only
 * blocks of the request's migratetype class (MOVABLE for movable). */
static bool suitable_migration_source(const struct compact_control *cc, unsigned long pfn)
{
	int block_mt;

	if (pageblock_skip_persistent(cc->m, pfn))
		return false;
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	block_mt = get_pfnblock_migratetype(cc->m, (pfn_t)pfn);
	if (cc->migratetype == MIGRATE_MOVABLE)
		return block_mt == MIGRATE_MOVABLE;	/* is_migrate_movable: no CMA */
	return block_mt == cc->migratetype;
}

/* suitable_migration_target() (6.12): a MOVABLE block whose first page is
 * not already a free block of the target order. */
static bool suitable_migration_target(const struct compact_control *cc, unsigned long pfn)
{
	const struct page *page = pfn_to_page(cc->m, (pfn_t)pfn);

	if (page_type(page) == PGTY_BUDDY) {
		int order = cc->order > 0 ? cc->order : pageblock_order;

		if ((int)page_order(page) >= order)
			return false;
	}
	if (cc->ignore_block_suitable)
		return true;
	return get_pfnblock_migratetype(cc->m, (pfn_t)pfn) == MIGRATE_MOVABLE;
}

static inline unsigned int freelist_scan_limit(const struct compact_control *cc)
{
	unsigned int shift = cc->fast_search_fail < 63 ? cc->fast_search_fail : 63;

	return (unsigned int)((COMPACT_CLUSTER_MAX >> (shift > 31 ? 31 : shift)) + 1);
}

static inline bool compact_scanners_met(const struct compact_control *cc)
{
	return (cc->free_pfn >> pageblock_order) <= (cc->migrate_pfn >> pageblock_order);
}

/* move_freelist_head(): rotate so that `pfn` becomes the list head (the
 * entries before it go to the tail) — a future reverse search skips the
 * entries just examined. */
static void move_freelist_head(struct page *map, struct pfn_slots *l, pfn_t pfn)
{
	pfn_slots_rotate_to_head(map, l, pfn);
}

/* move_freelist_tail(): rotate so that `pfn` becomes the last entry (the
 * entries up to it go to the tail) — a future forward search skips them;
 * the same rotation as making the entry after it the head. */
static void move_freelist_tail(struct page *map, struct pfn_slots *l, pfn_t pfn)
{
	pfn_slots_rotate_to_tail(map, l, pfn);
}

/* fast_isolate_around() (6.12): after the fast search, take more free
 * pages from the same pageblock (not in async direct compaction). */
static void fast_isolate_around(struct compact_control *cc, unsigned long pfn)
{
	unsigned long start_pfn, end_pfn;

	if (cc->nr_freepages >= cc->nr_migratepages)
		return;
	if (cc->direct_compaction && cc->mode == MIGRATE_ASYNC)
		return;
	start_pfn = pageblock_start_pfn((pfn_t)pfn);
	if (start_pfn < cc->zone->zone_start_pfn)
		start_pfn = cc->zone->zone_start_pfn;
	end_pfn = pageblock_end_pfn(pfn);
	if (end_pfn > zone_end_pfn(cc->zone))
		end_pfn = zone_end_pfn(cc->zone);
	isolate_freepages_block(cc, &start_pfn, end_pfn, 1, false);
	if (start_pfn == end_pfn && !cc->no_set_skip_hint)
		set_pageblock_skip(cc->m, (pfn_t)(end_pfn - 1));
}

static int next_search_order(struct compact_control *cc, int order)
{
	order--;
	if (order < 0)
		order = cc->order - 1;
	if (order == cc->search_order) {
		cc->search_order--;
		if (cc->search_order < 0)
			cc->search_order = (short)(cc->order - 1);
		return -1;
	}
	return order;
}

/*
 * fast_isolate_freepages() (6.12): search the MOVABLE free lists below the
 * request's order, from the tail, for a block in the top quarter of the
 * space between the scanners (the top half if that fails), take it, and
 * rotate the list so the next search starts elsewhere.
 */
static void fast_isolate_freepages(struct compact_control *cc)
{
	struct machine *m = cc->m;
	unsigned int limit = freelist_scan_limit(cc) >> 1;
	unsigned long nr_scanned = 0, nr_entries = 0, low_pfn, min_pfn, highest = 0, distance;
	pfn_t page = PFN_NONE;
	bool scan_start = false;
	int order;

	if (limit < 1)
		limit = 1;
	if (cc->order <= 0)
		return;
	if (cc->free_pfn >= cc->zone->compact_init_free_pfn) {
		limit = pageblock_nr_pages >> 1;
		scan_start = true;
	}
	distance = cc->free_pfn - cc->migrate_pfn;
	low_pfn = pageblock_start_pfn((pfn_t)(cc->free_pfn - (distance >> 2)));
	min_pfn = pageblock_start_pfn((pfn_t)(cc->free_pfn - (distance >> 1)));
	if (min_pfn > low_pfn)
		low_pfn = min_pfn;
	/* min_t(unsigned int, ...): a negative search order counts as huge */
	if (cc->search_order < 0 || cc->search_order > cc->order - 1)
		cc->search_order = (short)(cc->order - 1);

	for (order = cc->search_order; page == PFN_NONE && order >= 0;
	     order = next_search_order(cc, order)) {
		struct free_area *area = &cc->zone->free_area[order];
		struct pfn_slots *freelist = &area->free_list[MIGRATE_MOVABLE];
		unsigned int order_scanned = 0;
		unsigned long high_pfn = 0;
		pfn_t freepage, stop = PFN_NONE;

		if (!area->nr_free)
			continue;
		sim_spin_lock(m->sim, &cc->zone->lock);
		/* from the tail back, by slot: holes are no entries */
		for (uint32_t seq = freelist->end; seq != freelist->first;) {
			unsigned long pfn;

			if ((freepage = pfn_slots_get(freelist, --seq)) == PFN_NONE)
				continue;
			pfn = freepage;

			order_scanned++;
			nr_scanned++;
			nr_entries++;
			if (pfn >= highest) {
				highest = pageblock_start_pfn((pfn_t)pfn);
				if (highest < cc->zone->zone_start_pfn)
					highest = cc->zone->zone_start_pfn;
			}
			if (pfn >= low_pfn) {
				cc->fast_search_fail = 0;
				cc->search_order = (short)order;
				page = freepage;
				stop = freepage;
				break;
			}
			if (pfn >= min_pfn && pfn > high_pfn) {
				high_pfn = pfn;
				limit >>= 1;
			}
			if (order_scanned >= limit) {
				stop = freepage;
				break;
			}
		}
		if (page == PFN_NONE && high_pfn) {
			page = (pfn_t)high_pfn;
			stop = page;
		}
		if (stop != PFN_NONE)
			move_freelist_head(m->mem_map, freelist, stop);
		if (page != PFN_NONE) {
			unsigned long nr_isolated = (unsigned long)__isolate_free_page(m, page, (unsigned int)order);

			if (nr_isolated) {
				nr_scanned += nr_isolated - 1;
				cc->nr_freepages += nr_isolated;
				pfn_list_add_tail(m->mem_map, &cc->freepages[order], page);
				count_vm_events(m, COMPACTISOLATED, nr_isolated);
			} else {
				order = cc->search_order + 1;
				page = PFN_NONE;
			}
		}
		sim_spin_unlock(m->sim, &cc->zone->lock);
		if (cc->nr_freepages >= cc->nr_migratepages)
			break;
		if (order_scanned >= limit)
			limit = limit >> 1 ? limit >> 1 : 1;
	}
	mm_charge(m, COST_compact_fast_search, nr_entries);

	if (page == PFN_NONE) {
		cc->fast_search_fail++;
		if (scan_start) {
			if (highest >= min_pfn) {
				page = (pfn_t)highest;
				cc->free_pfn = highest;
			} else if (cc->direct_compaction && min_pfn < zone_end_pfn(cc->zone)) {
				page = (pfn_t)min_pfn;
				if (!suitable_migration_target(cc, min_pfn))
					page = PFN_NONE;
				cc->free_pfn = min_pfn;
			}
		}
	}
	if (highest && highest >= cc->zone->compact_cached_free_pfn) {
		highest -= pageblock_nr_pages;
		cc->zone->compact_cached_free_pfn = highest;
	}
	cc->total_free_scanned += nr_scanned;
	if (page == PFN_NONE)
		return;
	fast_isolate_around(cc, page);
}

/*
 * isolate_freepages() (6.12; compact_zone, mm/compaction.c step 7): the fast search, then
 * pageblocks downward from free_pfn, never below the migrate scanner's
 * block; MOVABLE, not skip-marked blocks only; async samples with a
 * stride of 32 pfns that shrinks to 1 once a block yields pages.
 */
static void isolate_freepages(struct compact_control *cc)
{
	struct machine *m = cc->m;
	struct zone *zone = cc->zone;
	unsigned long block_start_pfn, isolate_start_pfn, block_end_pfn, low_pfn;
	unsigned int stride;

	sim_path_push(m->sim, "isolate_freepages");
	fast_isolate_freepages(cc);
	if (cc->nr_freepages)
		goto out;

	isolate_start_pfn = cc->free_pfn;
	block_start_pfn = pageblock_start_pfn((pfn_t)isolate_start_pfn);
	block_end_pfn = block_start_pfn + pageblock_nr_pages;
	if (block_end_pfn > zone_end_pfn(zone))
		block_end_pfn = zone_end_pfn(zone);
	low_pfn = pageblock_end_pfn(cc->migrate_pfn);
	stride = cc->mode == MIGRATE_ASYNC ? COMPACT_CLUSTER_MAX : 1;

	for (; block_start_pfn >= low_pfn;
	     block_end_pfn = block_start_pfn, block_start_pfn -= pageblock_nr_pages,
	     isolate_start_pfn = block_start_pfn) {
		unsigned long nr_isolated;

		if (!(block_start_pfn % (COMPACT_CLUSTER_MAX * pageblock_nr_pages)))
			sim_cond_resched(m->sim);
		mm_charge(m, COST_compact_free_block, 1);
		if (block_start_pfn < zone->zone_start_pfn)
			break;
		if (!suitable_migration_target(cc, block_start_pfn))
			continue;
		if (!isolation_suitable(cc, block_start_pfn))
			continue;
		nr_isolated = isolate_freepages_block(cc, &isolate_start_pfn, block_end_pfn, stride, false);
		if (isolate_start_pfn == block_end_pfn)
			update_pageblock_skip(cc, block_start_pfn, block_start_pfn - pageblock_nr_pages);
		if (cc->nr_freepages >= cc->nr_migratepages) {
			if (isolate_start_pfn >= block_end_pfn)
				isolate_start_pfn = block_start_pfn - pageblock_nr_pages;
			break;
		} else if (isolate_start_pfn < block_end_pfn) {
			break;
		}
		if (nr_isolated) {
			stride = 1;
			continue;
		}
		stride = stride << 1 < COMPACT_CLUSTER_MAX ? stride << 1 : COMPACT_CLUSTER_MAX;
	}
	cc->free_pfn = isolate_start_pfn;
out:
	sim_path_pop(m->sim);
}

/*
 * compaction_alloc() (6.12): the destination for a folio of `order`: the
 * first isolated free block of that order or above, split down, the
 * upper halves kept on the lower-order lists; the free scanner runs (once)
 * when nothing fits.
 */
static pfn_t compaction_alloc(struct machine *m, pfn_t src, void *priv)
{
	struct compact_control *cc = priv;
	unsigned int order = page_order(pfn_to_page(m, src));
	bool has_isolated_pages = false;
	unsigned int start_order;
	pfn_t freepage;

again:
	for (start_order = order; start_order < NR_PAGE_ORDERS; start_order++)
		if (!pfn_list_empty(&cc->freepages[start_order]))
			break;
	if (start_order == NR_PAGE_ORDERS) {
		if (has_isolated_pages)
			return PFN_NONE;
		isolate_freepages(cc);
		has_isolated_pages = true;
		goto again;
	}
	freepage = cc->freepages[start_order].head;
	pfn_list_del(m->mem_map, &cc->freepages[start_order], freepage);
	while (start_order > order) {
		pfn_t half;

		start_order--;
		half = freepage + (1u << start_order);
		set_page_type_order(pfn_to_page(m, half), PGTY_ALLOC, start_order);
		pfn_list_add(m->mem_map, &cc->freepages[start_order], half);
	}
	set_page_type_order(pfn_to_page(m, freepage), PGTY_ALLOC, order);
	m->mem_map[freepage].next = m->mem_map[freepage].prev = PFN_NONE;
	cc->nr_freepages -= 1UL << order;
	cc->nr_migratepages -= 1UL << order;
	return freepage;
}

/* compaction_free() (6.12): an unused destination goes back to the list. */
static void compaction_free(struct machine *m, pfn_t dst, void *priv)
{
	struct compact_control *cc = priv;
	unsigned int order = page_order(pfn_to_page(m, dst));

	set_page_type_order(pfn_to_page(m, dst), PGTY_ALLOC, order);
	m->mem_map[dst].flags = 0;
	m->mem_map[dst].mapping = 0;
	pfn_list_add(m->mem_map, &cc->freepages[order], dst);
	cc->nr_freepages += 1UL << order;
	cc->nr_migratepages += 1UL << order;
}

/* release_free_list() (6.12): the unused isolated free blocks go back
 * through __free_pages (orders 0-3 to this CPU's pcp lists).  Returns the
 * highest pfn released. */
static unsigned long release_free_list(struct compact_control *cc)
{
	struct machine *m = cc->m;
	unsigned long high_pfn = 0;

	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		while (!pfn_list_empty(&cc->freepages[order])) {
			pfn_t pfn = cc->freepages[order].head;

			pfn_list_del(m->mem_map, &cc->freepages[order], pfn);
			free_unref_page(m, pfn, order);
			if (pfn > high_pfn)
				high_pfn = pfn;
		}
	}
	return high_pfn;
}

/* ---- the migrate scanner ------------------------------------------------------------ */

/* too_many_isolated() (compaction.c, 6.12): isolated pages above half the
 * LRU (an eighth of it for __GFP_FS callers). */
static bool too_many_isolated(struct compact_control *cc)
{
	pg_data_t *pgdat = cc->zone->zone_pgdat;
	unsigned long active, inactive, isolated;

	inactive = node_page_state(pgdat, NR_INACTIVE_FILE) + node_page_state(pgdat, NR_INACTIVE_ANON);
	active = node_page_state(pgdat, NR_ACTIVE_FILE) + node_page_state(pgdat, NR_ACTIVE_ANON);
	isolated = node_page_state(pgdat, NR_ISOLATED_FILE) + node_page_state(pgdat, NR_ISOLATED_ANON);
	if (cc->gfp_mask & __GFP_FS) {
		inactive >>= 3;
		active >>= 3;
	}
	return isolated > (inactive + active) / 2;
}

/* skip_isolation_on_order() (6.12) */
static bool skip_isolation_on_order(int order, int target_order)
{
	if (!is_via_compact_memory(target_order) && order >= target_order)
		return true;
	return order >= pageblock_order;
}

/* Take an LRU folio off its list for migration (the lruvec_del_folio
 * part of isolate_migratepages_block; the caller holds lru_lock). */
static void isolate_lru_folio_for_migration(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	lruvec_del_folio(m, folio_lruvec(m, pfn), pfn);
	folio_isolation_get(m, pfn);
	page->flags |= PG_isolated;
	__mod_node_page_state(&m->node, folio_is_file_lru(page) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON,
			      (long)folio_nr_pages(page));
}

/*
 * isolate_migratepages_block() — models mm/compaction.c (6.12;
 * isolate_migratepages_block, mm/compaction.c): isolate the migratable folios of [low_pfn, end_pfn), a range
 * within one pageblock, onto cc->migratepages.  Per pfn: the skip bit
 * (first pfn only), free blocks skipped whole, compound pages of the
 * target order or larger skipped, non-LRU pages fail, mapped folios fail
 * without __GFP_FS, unevictable ones unless allowed, writeback ones in
 * async mode, dirty ones in async mode unless their mapping migrates
 * without blocking; locked folios fail (a pinned page in the kernel).
 * Async direct compaction abandons an order-aligned chunk at its first
 * failure (skip-on-failure).  The first isolation sets the block's skip
 * bit (test_and_set_skip) so concurrent compactors leave it alone.
 * Simplified: cond_resched and the lock drop every 32 pfns happen once
 * per call; tail pages of a failed large folio are counted and stepped
 * over at once (the kernel visits and fails each).
 */
static int isolate_migratepages_block(struct compact_control *cc, unsigned long low_pfn,
				      unsigned long end_pfn, unsigned int mode)
{
	struct machine *m = cc->m;
	pg_data_t *pgdat = cc->zone->zone_pgdat;
	struct lruvec *lruvec = &pgdat->__lruvec;
	unsigned long nr_scanned = 0, nr_visited = 0, nr_isolated = 0, nr_folios = 0;
	unsigned long next_skip_pfn = 0, valid_page = ULONG_MAX;
	bool locked = false, skip_on_failure = false, skip_updated = false;
	int ret = 0;

	cc->migrate_pfn = low_pfn;
	while (unlikely(too_many_isolated(cc))) {
		if (cc->nr_migratepages)
			return -EAGAIN;
		if (cc->mode == MIGRATE_ASYNC)
			return -EAGAIN;
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_ISOLATED);
		if (!sim_current(m->sim))
			return -EAGAIN;		/* engine context cannot wait */
	}
	sim_cond_resched(m->sim);
	sim_path_push(m->sim, "isolate_migratepages_block");

	if (cc->direct_compaction && cc->mode == MIGRATE_ASYNC) {
		skip_on_failure = true;
		next_skip_pfn = block_end_pfn(low_pfn, cc->order);
	}

	for (; low_pfn < end_pfn; low_pfn++) {
		struct page *page;
		struct address_space *mapping;
		enum page_type t;
		unsigned int order;

		if (skip_on_failure && low_pfn >= next_skip_pfn) {
			if (nr_isolated)
				break;
			next_skip_pfn = block_end_pfn(low_pfn, cc->order);
		}
		nr_scanned++;
		nr_visited++;
		page = pfn_to_page(m, (pfn_t)low_pfn);

		if (valid_page == ULONG_MAX &&
		    (pageblock_aligned(low_pfn) || low_pfn == cc->zone->zone_start_pfn)) {
			if (!isolation_suitable(cc, low_pfn)) {
				low_pfn = end_pfn;
				goto isolate_abort;
			}
			valid_page = low_pfn;
		}

		t = page_type(page);
		order = page_order(page);
		if (t == PGTY_HUGETLB) {
			low_pfn += (1UL << order) - 1;
			nr_scanned += (1UL << order) - 1;
			goto isolate_fail;
		}
		if (t == PGTY_BUDDY) {
			if (order > 0) {
				low_pfn += (1UL << order) - 1;
				nr_scanned += (1UL << order) - 1;
			}
			continue;
		}
		if (block_is_allocated_head(page) && order > 0 && skip_isolation_on_order((int)order, cc->order)) {
			low_pfn += (1UL << order) - 1;
			nr_scanned += (1UL << order) - 1;
			goto isolate_fail;
		}
		/* not an LRU folio head: tails, pcp pages, kernel, page tables, ... */
		if (!block_is_folio_head(page) || !(page->flags & PG_lru))
			goto isolate_fail_block;

		mapping = folio_mapping_for_kernel(m, (pfn_t)low_pfn);
		/* Only anonymous memory migrates in GFP_NOFS context */
		if (!(cc->gfp_mask & __GFP_FS) && mapping)
			goto isolate_fail_block;
		if (!(mode & ISOLATE_UNEVICTABLE) && (page->flags & PG_unevictable))
			goto isolate_fail_block;
		if ((mode & ISOLATE_ASYNC_MIGRATE) && (page->flags & PG_writeback))
			goto isolate_fail_block;
		if (((mode & ISOLATE_ASYNC_MIGRATE) && (page->flags & PG_dirty)) ||
		    (mapping && (page->flags & PG_unevictable))) {
			/* the kernel try-locks the folio to read its mapping */
			if (folio_test_locked(m, (pfn_t)low_pfn))
				goto isolate_fail_block;
			if ((mode & ISOLATE_ASYNC_MIGRATE) && (page->flags & PG_dirty) && mapping &&
			    !(mapping->flags & AS_MIGRATE_NONBLOCKING))
				goto isolate_fail_block;
		}
		/* a folio someone holds locked stands for a pinned/referenced one */
		if (folio_test_locked(m, (pfn_t)low_pfn))
			goto isolate_fail_block;

		if (!locked) {
			compact_lock(cc, &lruvec->lru_lock);
			locked = true;
			if (!skip_updated && valid_page != ULONG_MAX) {
				skip_updated = true;
				if (test_and_set_skip(cc, valid_page) && !cc->finish_pageblock) {
					low_pfn = end_pfn;
					goto isolate_abort;
				}
			}
			/* the world may have moved while we waited for the lock */
			if (!block_is_folio_head(page) || !(page->flags & PG_lru))
				goto isolate_fail_block;
		}
		isolate_lru_folio_for_migration(m, (pfn_t)low_pfn);
		if (order)
			low_pfn += (1UL << order) - 1;
		pfn_list_add_tail(m->mem_map, &cc->migratepages, (pfn_t)(low_pfn - ((1UL << order) - 1)));
		cc->nr_migratepages += 1UL << order;
		nr_isolated += 1UL << order;
		nr_folios++;
		nr_scanned += (1UL << order) - 1;
		if (cc->nr_migratepages >= COMPACT_CLUSTER_MAX && !cc->finish_pageblock && !cc->contended) {
			++low_pfn;
			break;
		}
		continue;

isolate_fail_block:
		if (locked) {
			sim_spin_unlock(m->sim, &lruvec->lru_lock);
			locked = false;
		}
		/* the rest of a failed block fails pfn by pfn in the kernel */
		if (!skip_on_failure && block_is_allocated_head(page) && order > 0) {
			unsigned long extra = (1UL << order) - 1;

			if (low_pfn + extra >= end_pfn)
				extra = end_pfn - low_pfn - 1;
			low_pfn += extra;
			nr_scanned += extra;
			nr_visited += extra;
		}
isolate_fail:
		if (!skip_on_failure)
			continue;
		if (nr_isolated) {
			if (locked) {
				sim_spin_unlock(m->sim, &lruvec->lru_lock);
				locked = false;
			}
			putback_movable_pages(m, &cc->migratepages);
			cc->nr_migratepages = 0;
			nr_isolated = 0;
		}
		if (low_pfn < next_skip_pfn) {
			low_pfn = next_skip_pfn - 1;
			next_skip_pfn += 1UL << cc->order;
		}
	}
	if (low_pfn > end_pfn)
		low_pfn = end_pfn;

isolate_abort:
	if (locked)
		sim_spin_unlock(m->sim, &lruvec->lru_lock);
	if (low_pfn == end_pfn && (!nr_isolated || cc->finish_pageblock)) {
		if (!cc->no_set_skip_hint && valid_page != ULONG_MAX && !skip_updated)
			set_pageblock_skip(m, (pfn_t)valid_page);
		update_cached_migrate(cc, low_pfn);
	}
	cc->total_migrate_scanned += nr_scanned;
	mm_charge(m, COST_compact_migrate_scan, nr_visited);
	mm_charge(m, COST_compact_isolate, nr_folios);
	if (nr_isolated)
		count_vm_events(m, COMPACTISOLATED, nr_isolated);
	cc->migrate_pfn = low_pfn;
	sim_path_pop(m->sim);
	return ret;
}

static inline void update_fast_start_pfn(struct compact_control *cc, unsigned long pfn)
{
	if (cc->fast_start_pfn == ULONG_MAX)
		return;
	if (!cc->fast_start_pfn)
		cc->fast_start_pfn = pfn;
	if (pfn < cc->fast_start_pfn)
		cc->fast_start_pfn = pfn;
}

static inline unsigned long reinit_migrate_pfn(struct compact_control *cc)
{
	if (!cc->fast_start_pfn || cc->fast_start_pfn == ULONG_MAX)
		return cc->migrate_pfn;
	cc->migrate_pfn = cc->fast_start_pfn;
	cc->fast_start_pfn = ULONG_MAX;
	return cc->migrate_pfn;
}

/*
 * fast_find_migrateblock() (6.12): for costly movable requests (and
 * kcompactd), start the migrate scanner at a pageblock that already has
 * free pages (from the MOVABLE free lists of orders 3..order-1) in the
 * first half (first eighth when resuming) of the space.
 */
static unsigned long fast_find_migrateblock(struct compact_control *cc)
{
	struct machine *m = cc->m;
	unsigned int limit = freelist_scan_limit(cc), nr_scanned = 0;
	unsigned long distance, pfn = cc->migrate_pfn, high_pfn;
	bool found_block = false;

	if (cc->ignore_skip_hint)
		return pfn;
	if (cc->finish_pageblock)
		return pfn;
	if (pfn != cc->zone->zone_start_pfn && pfn != pageblock_start_pfn((pfn_t)pfn))
		return pfn;
	if (cc->order <= PAGE_ALLOC_COSTLY_ORDER)
		return pfn;
	if (cc->direct_compaction && cc->migratetype != MIGRATE_MOVABLE)
		return pfn;

	distance = (cc->free_pfn - cc->migrate_pfn) >> 1;
	if (cc->migrate_pfn != cc->zone->zone_start_pfn)
		distance >>= 2;
	high_pfn = pageblock_start_pfn((pfn_t)(cc->migrate_pfn + distance));

	for (int order = cc->order - 1; order >= PAGE_ALLOC_COSTLY_ORDER && !found_block && nr_scanned < limit;
	     order--) {
		struct free_area *area = &cc->zone->free_area[order];
		struct pfn_slots *freelist = &area->free_list[MIGRATE_MOVABLE];

		if (!area->nr_free)
			continue;
		sim_spin_lock(m->sim, &cc->zone->lock);
		/* from the head on, by slot: holes are no entries */
		for (uint32_t seq = freelist->first; seq != freelist->end; seq++) {
			pfn_t freepage = pfn_slots_get(freelist, seq);

			if (freepage == PFN_NONE)
				continue;
			if (nr_scanned++ >= limit) {
				move_freelist_tail(m->mem_map, freelist, freepage);
				break;
			}
			if (freepage < high_pfn) {
				if (get_pageblock_skip(m, freepage))
					continue;
				move_freelist_tail(m->mem_map, freelist, freepage);
				update_fast_start_pfn(cc, freepage);
				pfn = pageblock_start_pfn(freepage);
				if (pfn < cc->zone->zone_start_pfn)
					pfn = cc->zone->zone_start_pfn;
				cc->fast_search_fail = 0;
				found_block = true;
				break;
			}
		}
		sim_spin_unlock(m->sim, &cc->zone->lock);
	}
	cc->total_migrate_scanned += nr_scanned;
	mm_charge(m, COST_compact_fast_search, nr_scanned);
	if (!found_block) {
		cc->fast_search_fail++;
		pfn = reinit_migrate_pfn(cc);
	}
	return pfn;
}

/*
 * isolate_migratepages() (6.12; compact_zone, mm/compaction.c step 5a): from the fast-search
 * start or the migrate cursor, the first pageblock below the free cursor
 * that is not skip-marked and, for async direct compaction, of a suitable
 * migratetype; isolate from it.
 */
static isolate_migrate_t isolate_migratepages(struct compact_control *cc)
{
	struct machine *m = cc->m;
	unsigned long block_start_pfn, block_end_pfn, low_pfn;
	const unsigned int isolate_mode =
		(m->t.compact_unevictable_allowed ? ISOLATE_UNEVICTABLE : 0) |
		(cc->mode != MIGRATE_SYNC ? ISOLATE_ASYNC_MIGRATE : 0);
	bool fast_find_block;
	isolate_migrate_t ret;

	sim_path_push(m->sim, "isolate_migratepages");
	low_pfn = fast_find_migrateblock(cc);
	block_start_pfn = pageblock_start_pfn((pfn_t)low_pfn);
	if (block_start_pfn < cc->zone->zone_start_pfn)
		block_start_pfn = cc->zone->zone_start_pfn;
	fast_find_block = low_pfn != cc->migrate_pfn && !cc->fast_search_fail;
	block_end_pfn = pageblock_end_pfn(low_pfn);

	for (; block_end_pfn <= cc->free_pfn;
	     fast_find_block = false, cc->migrate_pfn = low_pfn = block_end_pfn,
	     block_start_pfn = block_end_pfn, block_end_pfn += pageblock_nr_pages) {
		if (!(low_pfn % (COMPACT_CLUSTER_MAX * pageblock_nr_pages)))
			sim_cond_resched(m->sim);
		if ((pageblock_aligned(low_pfn) || low_pfn == cc->zone->zone_start_pfn) &&
		    !fast_find_block && !isolation_suitable(cc, block_start_pfn)) {
			mm_charge(m, COST_compact_migrate_scan, 1);
			continue;
		}
		if (!suitable_migration_source(cc, block_start_pfn)) {
			mm_charge(m, COST_compact_migrate_scan, 1);
			update_cached_migrate(cc, block_end_pfn);
			continue;
		}
		if (isolate_migratepages_block(cc, low_pfn, block_end_pfn, isolate_mode)) {
			ret = ISOLATE_ABORT;
			goto out;
		}
		break;
	}
	ret = cc->nr_migratepages ? ISOLATE_SUCCESS : ISOLATE_NONE;
out:
	sim_path_pop(m->sim);
	return ret;
}

/* ---- proactive compaction score (kcompactd, mm/compaction.c) ---------------------------------------------- */

static bool kswapd_is_running(pg_data_t *pgdat)
{
	return pgdat->kswapd && !sim_waitq_active(&pgdat->kswapd_wait);
}

static unsigned int fragmentation_score_zone(const struct zone *zone)
{
	return extfrag_for_order(zone, COMPACTION_HPAGE_ORDER);
}

static unsigned int fragmentation_score_zone_weighted(const struct zone *zone)
{
	unsigned long score = zone->present_pages * fragmentation_score_zone(zone);

	return (unsigned int)(score / (zone->zone_pgdat->node_present_pages + 1));
}

unsigned int fragmentation_score_node(pg_data_t *pgdat)
{
	unsigned int score = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (populated_zone(&pgdat->node_zones[z]))
			score += fragmentation_score_zone_weighted(&pgdat->node_zones[z]);
	return score;
}

static unsigned int fragmentation_score_wmark(const struct machine *m, bool low)
{
	unsigned int wmark_low = 100u - (unsigned int)m->t.compaction_proactiveness;

	if (wmark_low < 5)
		wmark_low = 5;
	return low ? wmark_low : (wmark_low + 10 < 100 ? wmark_low + 10 : 100);
}

static bool should_proactive_compact_node(pg_data_t *pgdat)
{
	struct machine *m = pgdat->machine;

	if (!m->t.compaction_proactiveness || kswapd_is_running(pgdat))
		return false;
	return fragmentation_score_node(pgdat) > fragmentation_score_wmark(m, false);
}

/* ---- finishing and suitability -------------------------------------------------------- */

/*
 * find_suitable_fallback(area, order, mt, only_stealable=true) as
 * __compact_finished uses it: some fallback type has a block at this order
 * and a claim may be tried from it (can_steal_fallback, mm/page_alloc.c).
 */
static bool fallback_claimable(const struct machine *m, const struct free_area *area,
			       unsigned int order, int migratetype)
{
	static const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
		[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE   },
		[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
		[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE   },
	};
	bool can_steal;

	if (!area->nr_free || migratetype >= MIGRATE_PCPTYPES)
		return false;
	can_steal = order >= pageblock_order / 2 || migratetype != MIGRATE_MOVABLE ||
		    m->t.page_group_by_mobility_disabled;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++)
		if (!free_area_empty(area, fallbacks[migratetype][i]) && can_steal)
			return true;
	return false;
}

/*
 * __compact_finished() (6.12; compact_zone, mm/compaction.c step 8, with the 6.15 defrag_mode
 * rule for kcompactd, defrag_mode watermarks).
 */
static enum compact_result __compact_finished(struct compact_control *cc)
{
	struct machine *m = cc->m;
	const int migratetype = cc->migratetype;
	enum compact_result ret;

	if (compact_scanners_met(cc)) {
		reset_cached_positions(cc->zone);
		if (cc->direct_compaction)
			cc->zone->compact_blockskip_flush = true;
		return cc->whole_zone ? COMPACT_COMPLETE : COMPACT_PARTIAL_SKIPPED;
	}
	if (cc->proactive_compaction) {
		if (kswapd_is_running(cc->zone->zone_pgdat))
			return COMPACT_PARTIAL_SKIPPED;
		ret = fragmentation_score_zone(cc->zone) > fragmentation_score_wmark(m, true)
			? COMPACT_CONTINUE : COMPACT_SUCCESS;
		goto out;
	}
	if (is_via_compact_memory(cc->order))
		return COMPACT_CONTINUE;
	if (!pageblock_aligned(cc->migrate_pfn))
		return COMPACT_CONTINUE;

	/* 6.15 defrag_mode: kcompactd works until the high watermark is met
	 * in whole free pageblocks */
	if (m->t.defrag_mode && !cc->direct_compaction) {
		if (__zone_watermark_ok(cc->zone, (unsigned int)cc->order, high_wmark_pages(cc->zone),
					cc->highest_zoneidx, cc->alloc_flags,
					(long)zone_page_state(cc->zone, NR_FREE_PAGES_BLOCKS)))
			return COMPACT_SUCCESS;
		return COMPACT_CONTINUE;
	}

	ret = COMPACT_NO_SUITABLE_PAGE;
	for (unsigned int order = (unsigned int)cc->order; order < NR_PAGE_ORDERS; order++) {
		const struct free_area *area = &cc->zone->free_area[order];

		if (!free_area_empty(area, migratetype))
			return COMPACT_SUCCESS;
		if (fallback_claimable(m, area, order, migratetype))
			return COMPACT_SUCCESS;
	}
out:
	if (cc->contended)
		ret = COMPACT_CONTENDED;
	return ret;
}

static enum compact_result compact_finished(struct compact_control *cc)
{
	enum compact_result ret = __compact_finished(cc);

	return ret == COMPACT_NO_SUITABLE_PAGE ? COMPACT_CONTINUE : ret;
}

/* __compaction_suitable() (6.12): order-0 free above low (costly) or min
 * watermark plus compact_gap, for the request's zone index. */
static bool __compaction_suitable(struct zone *zone, int order, int highest_zoneidx,
				  unsigned long wmark_target)
{
	unsigned long watermark = order > PAGE_ALLOC_COSTLY_ORDER ? low_wmark_pages(zone)
								  : min_wmark_pages(zone);

	watermark += compact_gap((unsigned int)order);
	return __zone_watermark_ok(zone, 0, watermark, highest_zoneidx, ALLOC_CMA, (long)wmark_target);
}

/* compaction_suitable() (6.12; mm/compaction.c): the free-page test, and for
 * costly orders the fragmentation index against vm.extfrag_threshold. */
bool compaction_suitable(struct zone *zone, int order, int highest_zoneidx)
{
	bool suitable = __compaction_suitable(zone, order, highest_zoneidx,
					      zone_page_state(zone, NR_FREE_PAGES));

	if (suitable && order > PAGE_ALLOC_COSTLY_ORDER) {
		int fragindex = fragmentation_index(zone, (unsigned int)order);

		if (fragindex >= 0 && fragindex <= zone->machine->t.extfrag_threshold)
			suitable = false;
	}
	return suitable;
}

/* compaction_zonelist_suitable() (6.12): would some zone pass if 1/order
 * of its reclaimable pages were freed? (should_compact_retry) */
bool compaction_zonelist_suitable(struct machine *m, const struct alloc_context *ac, int order,
				  unsigned int alloc_flags)
{
	(void)alloc_flags;
	for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];
		unsigned long available;

		if (zone_idx(zone) > ac->highest_zoneidx)
			continue;
		available = zone_reclaimable_pages(zone) / (unsigned long)order;
		available += zone_page_state_snapshot(zone, NR_FREE_PAGES);
		if (__compaction_suitable(zone, order, (int)ac->highest_zoneidx, available))
			return true;
	}
	return false;
}

/* compaction_suit_allocation_order() (6.12) */
static enum compact_result compaction_suit_allocation_order(struct zone *zone, unsigned int order,
							    int highest_zoneidx, unsigned int alloc_flags)
{
	unsigned long watermark = wmark_pages(zone, (enum zone_watermarks)(alloc_flags & ALLOC_WMARK_MASK));

	if (zone_watermark_ok(zone, order, watermark, highest_zoneidx, alloc_flags))
		return COMPACT_SUCCESS;
	if (!compaction_suitable(zone, (int)order, highest_zoneidx))
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

/* ---- compact_zone ----------------------------------------------------------------------- */

/*
 * compact_zone() — models mm/compaction.c:compact_zone() (6.12):
 * suitability, restart after deferral, scanner start points (whole zone
 * or the cached positions), then isolate / migrate until
 * compact_finished; a failed migration inside a block in async or
 * sync-light mode rescans the rest of the block (finish_pageblock) so it
 * gets its skip bit; leaving an order-aligned block that was migrated
 * from drains the local LRU batch and pcp lists so freed pages merge.
 * On exit the unused free pages go back and the scan totals are counted
 * for every caller.
 */
static enum compact_result compact_zone(struct compact_control *cc, struct capture_control *capc)
{
	struct machine *m = cc->m;
	struct zone *zone = cc->zone;
	unsigned long start_pfn = zone->zone_start_pfn, end_pfn = zone_end_pfn(zone);
	unsigned long last_migrated_pfn;
	const bool sync = cc->mode != MIGRATE_ASYNC;
	bool update_cached;
	unsigned int nr_succeeded = 0;
	enum compact_result ret;

	sim_path_push(m->sim, "compact_zone");
	mm_charge(m, COST_compact_setup, 1);
	cc->total_migrate_scanned = cc->total_free_scanned = 0;
	cc->nr_migratepages = cc->nr_freepages = 0;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		pfn_list_init(&cc->freepages[o]);
	pfn_list_init(&cc->migratepages);
	cc->migratetype = gfp_migratetype(cc->gfp_mask);

	if (!is_via_compact_memory(cc->order)) {
		ret = compaction_suit_allocation_order(zone, (unsigned int)cc->order, cc->highest_zoneidx,
						       cc->alloc_flags);
		if (ret != COMPACT_CONTINUE) {
			mm_trace(m, "compact_zone zone=%s order=%d -> %s (suitability)", zone->name,
				 cc->order, compact_result_name(ret));
			goto done;
		}
	}

	if (compaction_restarting(zone, cc->order)) {
		sim_stat_inc(m, SIM_COMPACT_RESTART);
		__reset_isolation_suitable(zone);
	}

	cc->fast_start_pfn = 0;
	if (cc->whole_zone) {
		cc->migrate_pfn = start_pfn;
		cc->free_pfn = pageblock_start_pfn((pfn_t)(end_pfn - 1));
	} else {
		cc->migrate_pfn = zone->compact_cached_migrate_pfn[sync];
		cc->free_pfn = zone->compact_cached_free_pfn;
		if (cc->free_pfn < start_pfn || cc->free_pfn >= end_pfn) {
			cc->free_pfn = pageblock_start_pfn((pfn_t)(end_pfn - 1));
			zone->compact_cached_free_pfn = cc->free_pfn;
		}
		if (cc->migrate_pfn < start_pfn || cc->migrate_pfn >= end_pfn) {
			cc->migrate_pfn = start_pfn;
			zone->compact_cached_migrate_pfn[0] = cc->migrate_pfn;
			zone->compact_cached_migrate_pfn[1] = cc->migrate_pfn;
		}
		if (cc->migrate_pfn <= zone->compact_init_migrate_pfn)
			cc->whole_zone = true;
	}
	last_migrated_pfn = 0;
	update_cached = !sync && zone->compact_cached_migrate_pfn[0] == zone->compact_cached_migrate_pfn[1];
	trace_count(m, TP_MM_COMPACTION_BEGIN);

	lru_add_drain(m);

	while ((ret = compact_finished(cc)) == COMPACT_CONTINUE) {
		unsigned long iteration_start_pfn = cc->migrate_pfn;
		int err;

		cc->finish_pageblock = false;
		if (pageblock_start_pfn((pfn_t)last_migrated_pfn) ==
		    pageblock_start_pfn((pfn_t)iteration_start_pfn))
			cc->finish_pageblock = true;
rescan:
		switch (isolate_migratepages(cc)) {
		case ISOLATE_ABORT:
			ret = COMPACT_CONTENDED;
			putback_movable_pages(m, &cc->migratepages);
			cc->nr_migratepages = 0;
			goto out;
		case ISOLATE_NONE:
			if (update_cached)
				zone->compact_cached_migrate_pfn[1] = zone->compact_cached_migrate_pfn[0];
			goto check_drain;
		case ISOLATE_SUCCESS:
			update_cached = false;
			last_migrated_pfn = pageblock_start_pfn((pfn_t)(cc->migrate_pfn - 1));
			if (last_migrated_pfn < start_pfn)
				last_migrated_pfn = start_pfn;
		}

		err = migrate_pages(m, &cc->migratepages, compaction_alloc, compaction_free, cc,
				    cc->mode, MR_COMPACTION, &nr_succeeded);
		cc->nr_migratepages = 0;
		if (err) {
			putback_movable_pages(m, &cc->migratepages);
			if (err == -ENOMEM && !compact_scanners_met(cc)) {
				ret = COMPACT_CONTENDED;
				goto out;
			}
			if (!pageblock_aligned(cc->migrate_pfn) && !cc->ignore_skip_hint &&
			    !cc->finish_pageblock && cc->mode < MIGRATE_SYNC) {
				cc->finish_pageblock = true;
				if (cc->order == COMPACTION_HPAGE_ORDER)
					last_migrated_pfn = 0;
				goto rescan;
			}
		}
		if (capc && capc->page != PFN_NONE) {
			ret = COMPACT_SUCCESS;
			break;
		}
check_drain:
		if (cc->order > 0 && last_migrated_pfn) {
			unsigned long current_block_start = block_start_pfn(cc->migrate_pfn, cc->order);

			if (last_migrated_pfn < current_block_start) {
				/* lru_add_drain_cpu_zone() */
				lru_add_drain(m);
				drain_pages_zone(m, mm_this_cpu(m), zone);
				last_migrated_pfn = 0;
			}
		}
	}

out:
	if (cc->nr_freepages > 0) {
		unsigned long free_pfn = release_free_list(cc);

		cc->nr_freepages = 0;
		free_pfn = pageblock_start_pfn((pfn_t)free_pfn);
		if (free_pfn > zone->compact_cached_free_pfn)
			zone->compact_cached_free_pfn = free_pfn;
	}
	count_vm_events(m, COMPACTMIGRATE_SCANNED, cc->total_migrate_scanned);
	count_vm_events(m, COMPACTFREE_SCANNED, cc->total_free_scanned);
	if (ret == COMPACT_CONTENDED)
		sim_stat_inc(m, SIM_COMPACT_CONTENDED);
	mm_trace(m, "compact_zone zone=%s order=%d mode=%s -> %s (migrate_scanned=%lu free_scanned=%lu)",
		 zone->name, cc->order, cc->mode == MIGRATE_ASYNC ? "async" :
		 cc->mode == MIGRATE_SYNC_LIGHT ? "sync_light" : "sync", compact_result_name(ret),
		 cc->total_migrate_scanned, cc->total_free_scanned);
	SIM_ASSERT(pfn_list_empty(&cc->migratepages));
done:
	sim_path_pop(m->sim);
	return ret;
}

/* ---- capture --------------------------------------------------------------------------- */

/*
 * compaction_capture() with task_capc() (mm/page_alloc.c, 6.12): a block
 * freed by a direct compactor (never a kernel thread: kcompactd passes no
 * capture control; engine-context tests count as one "current") in the
 * zone it
 * compacts, of exactly the requested order, not ISOLATE, and not a
 * MOVABLE block below pageblock order for a non-movable request, goes to
 * the compactor.
 */
bool compaction_capture(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
			int migratetype)
{
	struct sim_task *cur = sim_current(m->sim);	/* NULL: engine context (tests) */
	struct capture_control *capc;

	for (capc = m->capc_list; capc; capc = capc->next)
		if (capc->task == cur)
			break;
	if (!capc || capc->page != PFN_NONE || capc->cc->zone != zone)
		return false;
	if ((int)order != capc->cc->order)
		return false;
	if (is_migrate_isolate(migratetype))
		return false;
	if (order < pageblock_order && migratetype == MIGRATE_MOVABLE &&
	    capc->cc->migratetype != MIGRATE_MOVABLE)
		return false;
	capc->page = pfn;
	set_page_type_order(pfn_to_page(m, pfn), PGTY_ALLOC, order);
	sim_stat_inc(m, SIM_COMPACT_CAPTURE);
	return true;
}

/*
 * compact_zone_order() (6.12): one zone for a direct compactor: async or
 * sync-light, SYNC_FULL scanning the whole zone ignoring skip bits and
 * block suitability; a capture control is published while it runs.
 */
static enum compact_result compact_zone_order(struct machine *m, struct zone *zone, int order,
					      gfp_t gfp, enum compact_priority prio,
					      unsigned int alloc_flags, int highest_zoneidx,
					      pfn_t *capture)
{
	struct compact_control cc = {
		.m = m,
		.order = order,
		.search_order = (short)order,
		.gfp_mask = gfp,
		.zone = zone,
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.alloc_flags = alloc_flags,
		.highest_zoneidx = highest_zoneidx,
		.direct_compaction = true,
		.whole_zone = prio == MIN_COMPACT_PRIORITY,
		.ignore_skip_hint = prio == MIN_COMPACT_PRIORITY,
		.ignore_block_suitable = prio == MIN_COMPACT_PRIORITY,
	};
	struct capture_control capc = {
		.cc = &cc,
		.task = sim_current(m->sim),
		.page = PFN_NONE,
		.next = m->capc_list,
	};
	struct capture_control **pp;
	enum compact_result ret;

	m->capc_list = &capc;
	ret = compact_zone(&cc, &capc);
	for (pp = &m->capc_list; *pp != &capc; pp = &(*pp)->next)
		;
	*pp = capc.next;
	*capture = capc.page;
	if (*capture != PFN_NONE)
		ret = COMPACT_SUCCESS;
	return ret;
}

/*
 * try_to_compact_pages() — models mm/compaction.c (6.12): each
 * zone of the request in zonelist order, skipping deferred zones below
 * SYNC_FULL; the maximum result wins; SUCCESS stops (soft defer reset);
 * a non-async COMPLETE/PARTIAL_SKIPPED defers the zone.
 */
enum compact_result try_to_compact_pages(struct machine *m, gfp_t gfp, unsigned int order,
					 unsigned int alloc_flags, const struct alloc_context *ac,
					 enum compact_priority prio, pfn_t *capture)
{
	enum compact_result rc = COMPACT_SKIPPED;

	*capture = PFN_NONE;
	if (!gfp_compaction_allowed(m, gfp))
		return COMPACT_SKIPPED;
	sim_path_push(m->sim, "try_to_compact_pages");
	for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];
		enum compact_result status;

		if (zone_idx(zone) > ac->highest_zoneidx)
			continue;
		if (prio > MIN_COMPACT_PRIORITY && compaction_deferred(zone, (int)order)) {
			if (rc < COMPACT_DEFERRED)
				rc = COMPACT_DEFERRED;
			mm_trace(m, "compaction_deferred zone=%s order=%u considered=%u shift=%u",
				 zone->name, order, zone->compact_considered, zone->compact_defer_shift);
			continue;
		}
		status = compact_zone_order(m, zone, (int)order, gfp, prio, alloc_flags,
					    (int)ac->highest_zoneidx, capture);
		if (status > rc)
			rc = status;
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(zone, (int)order, false);
			break;
		}
		if (prio != COMPACT_PRIO_ASYNC &&
		    (status == COMPACT_COMPLETE || status == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(zone, (int)order);
	}
	sim_path_pop(m->sim);
	if (rc == COMPACT_SKIPPED)
		sim_stat_inc(m, SIM_COMPACT_SKIPPED);
	else if (rc == COMPACT_DEFERRED)
		sim_stat_inc(m, SIM_COMPACT_DEFERRED);
	return rc;
}

/* ---- whole-node and kcompactd ------------------------------------------------------------ */

/*
 * compact_node() (6.12): every populated zone, whole, ignoring skip bits,
 * GFP_KERNEL (so page cache and shmem can move); SYNC for compact_memory,
 * SYNC_LIGHT for proactive runs, which also count compact_daemon_*.
 */
void compact_node(pg_data_t *pgdat, bool proactive)
{
	struct machine *m = pgdat->machine;

	sim_path_push(m->sim, "compact_node");
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		struct compact_control cc = {
			.m = m,
			.order = -1,
			.mode = proactive ? MIGRATE_SYNC_LIGHT : MIGRATE_SYNC,
			.ignore_skip_hint = true,
			.whole_zone = true,
			.gfp_mask = GFP_KERNEL,
			.proactive_compaction = proactive,
			.highest_zoneidx = MAX_NR_ZONES - 1,
		};

		if (!populated_zone(zone))
			continue;
		cc.zone = zone;
		compact_zone(&cc, NULL);
		if (proactive) {
			count_vm_events(m, KCOMPACTD_MIGRATE_SCANNED, cc.total_migrate_scanned);
			count_vm_events(m, KCOMPACTD_FREE_SCANNED, cc.total_free_scanned);
		}
	}
	sim_path_pop(m->sim);
}

static bool kcompactd_work_requested(pg_data_t *pgdat)
{
	return pgdat->kcompactd_max_order > 0 || pgdat->proactive_compact_trigger;
}

static bool kcompactd_node_suitable(pg_data_t *pgdat)
{
	int highest_zoneidx = pgdat->kcompactd_highest_zoneidx;

	for (int z = 0; z <= highest_zoneidx && z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		if (compaction_suit_allocation_order(zone, (unsigned int)pgdat->kcompactd_max_order,
						     highest_zoneidx, ALLOC_WMARK_MIN) == COMPACT_CONTINUE)
			return true;
	}
	return false;
}

/*
 * kcompactd_do_work() (6.12; mm/compaction.c): SYNC_LIGHT, GFP_KERNEL, skip bits
 * honoured; per zone up to the requested index: skip deferred or
 * unsuitable zones, compact; SUCCESS soft-resets deferral; COMPLETE or
 * PARTIAL_SKIPPED drains that zone's pcp lists on every CPU (waiting for
 * the drain mutex) and defers.
 */
static void kcompactd_do_work(pg_data_t *pgdat)
{
	struct machine *m = pgdat->machine;
	struct compact_control cc = {
		.m = m,
		.order = pgdat->kcompactd_max_order,
		.search_order = (short)pgdat->kcompactd_max_order,
		.highest_zoneidx = pgdat->kcompactd_highest_zoneidx,
		.mode = MIGRATE_SYNC_LIGHT,
		.gfp_mask = GFP_KERNEL,
	};

	sim_path_push(m->sim, "kcompactd_do_work");
	count_vm_event(m, KCOMPACTD_WAKE);
	mm_trace(m, "kcompactd_do_work order=%d highest_zoneidx=%d", cc.order, cc.highest_zoneidx);
	for (int z = 0; z <= cc.highest_zoneidx && z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		enum compact_result status;

		if (!populated_zone(zone))
			continue;
		if (compaction_deferred(zone, cc.order))
			continue;
		if (compaction_suit_allocation_order(zone, (unsigned int)cc.order, z, ALLOC_WMARK_MIN) !=
		    COMPACT_CONTINUE)
			continue;
		cc.zone = zone;
		status = compact_zone(&cc, NULL);
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(zone, cc.order, false);
		} else if (status == COMPACT_PARTIAL_SKIPPED || status == COMPACT_COMPLETE) {
			drain_all_pages(m, zone);
			defer_compaction(zone, cc.order);
		}
		count_vm_events(m, KCOMPACTD_MIGRATE_SCANNED, cc.total_migrate_scanned);
		count_vm_events(m, KCOMPACTD_FREE_SCANNED, cc.total_free_scanned);
	}
	if (pgdat->kcompactd_max_order <= cc.order)
		pgdat->kcompactd_max_order = 0;
	if (pgdat->kcompactd_highest_zoneidx >= cc.highest_zoneidx)
		pgdat->kcompactd_highest_zoneidx = pgdat->nr_zones - 1;
	sim_path_pop(m->sim);
}

/*
 * wakeup_kcompactd() (6.12; mm/compaction.c): record the order and zone; wake
 * the thread only if it sleeps and some zone could use compaction.
 */
void wakeup_kcompactd(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	struct machine *m = pgdat->machine;

	if (!order)
		return;
	sim_stat_inc(m, SIM_WAKEUP_KCOMPACTD);
	if (pgdat->kcompactd_max_order < order)
		pgdat->kcompactd_max_order = order;
	if (pgdat->kcompactd_highest_zoneidx > highest_zoneidx)
		pgdat->kcompactd_highest_zoneidx = highest_zoneidx;
	if (!sim_waitq_active(&pgdat->kcompactd_wait)) {
		mm_trace(m, "wakeup_kcompactd order=%d: not sleeping", order);
		return;
	}
	if (!kcompactd_node_suitable(pgdat)) {
		mm_trace(m, "wakeup_kcompactd order=%d: no suitable zone", order);
		return;
	}
	mm_trace(m, "wakeup_kcompactd order=%d: woken", order);
	sim_stat_inc(m, SIM_KCOMPACTD_WAKE);
	sim_wake_all(m->sim, &pgdat->kcompactd_wait);
}

/* wait_event_freezable_timeout(): true if the condition held (possibly at
 * once), false if the timeout passed with it false. */
static bool kcompactd_wait_event(pg_data_t *pgdat, sim_time_t timeout)
{
	struct sim *sim = pgdat->machine->sim;
	sim_time_t deadline = timeout == SIM_TIME_NEVER ? SIM_TIME_NEVER : sim_now(sim) + timeout;

	while (!kcompactd_work_requested(pgdat)) {
		sim_time_t now = sim_now(sim);

		if (deadline != SIM_TIME_NEVER && now >= deadline)
			return false;
		if (!sim_wait(sim, &pgdat->kcompactd_wait,
			      deadline == SIM_TIME_NEVER ? SIM_TIME_NEVER : deadline - now))
			return kcompactd_work_requested(pgdat);
	}
	return true;
}

/*
 * kcompactd() — the per-node compaction daemon (6.12; mm/compaction.c): sleep
 * until woken with work or for the 500 ms proactive timer (forever when
 * vm.compaction_proactiveness is 0); on work run kcompactd_do_work; on the
 * timer compact the node proactively while its fragmentation score is
 * above the high threshold, backing off 64 periods when a run does not
 * lower it.  Not modelled: freezing.
 */
static void kcompactd(struct sim *sim, void *arg)
{
	pg_data_t *pgdat = arg;
	struct machine *m = pgdat->machine;
	const sim_time_t default_timeout = msecs_to_jiffies_ns(m, HPAGE_FRAG_CHECK_INTERVAL_MSEC);
	sim_time_t timeout = default_timeout;

	pgdat->kcompactd_max_order = 0;
	pgdat->kcompactd_highest_zoneidx = pgdat->nr_zones - 1;
	for (;;) {
		sim_path_assert_empty(sim);
		if (!m->t.compaction_proactiveness)
			timeout = SIM_TIME_NEVER;
		if (kcompactd_wait_event(pgdat, timeout) && !pgdat->proactive_compact_trigger) {
			kcompactd_do_work(pgdat);
			mm_op_done(m);
			timeout = default_timeout;
			continue;
		}
		timeout = default_timeout;
		if (should_proactive_compact_node(pgdat)) {
			unsigned int prev_score = fragmentation_score_node(pgdat), score;

			sim_stat_inc(m, SIM_KCOMPACTD_PROACTIVE);
			compact_node(pgdat, true);
			mm_op_done(m);
			score = fragmentation_score_node(pgdat);
			if (score >= prev_score)
				timeout = default_timeout << COMPACT_MAX_DEFER_SHIFT;
		}
		pgdat->proactive_compact_trigger = false;
	}
}

/* kcompactd_run(): start the node's kcompactd (any CPU of the node). */
void kcompactd_run(struct machine *m)
{
	struct sim_task_config cfg = {
		.kthread = true,
		.name = "kcompactd0",
		.kind = sim_task_kind(m->sim, "kcompactd"),
		.cpu = SIM_CPU_ANY,
	};

	if (m->node.kcompactd)
		return;
	m->node.kcompactd = sim_task_create(m->sim, &cfg, kcompactd, &m->node, sim_now(m->sim));
}
