/* SPDX-License-Identifier: MIT */
/*
 * mm_check.c — the invariant checker and dump_page() (the model's
 * counterpart of CONFIG_DEBUG_VM's VM_BUG_ON_PAGE checks, gathered in one
 * full pass, as mimalloc's and SQLite's integrity checks are).
 *
 * mm_check() verifies, for every populated zone:
 *   free lists   every entry is a PGTY_BUDDY head of the list's order and
 *                migratetype, naturally aligned, inside the zone, on a
 *                pageblock of that migratetype (all pageblocks it spans),
 *                linked consistently both ways; per-list and per-order
 *                counts equal the walked lengths;
 *   counters     NR_FREE_PAGES (exact, with per-CPU diffs) = pages on
 *                non-ISOLATE lists; NR_FREE_PAGES_BLOCKS = those in blocks
 *                of order >= pageblock_order; nr_free_highatomic = pages on
 *                HIGHATOMIC lists; global counters = the sum of the zones'
 *                and node's; every per-CPU diff fits an s8 threshold;
 *   pcp lists    every entry is a PGTY_PCP head of the list's order with
 *                index = its list; count = pages on the lists; batch >= 1,
 *                alloc_factor <= 5, and 0 <= count, high below a bound:
 *                the largest high_max the zone ever had (a sysctl change
 *                does not flush, so a stale cache may exceed the new
 *                limits) plus one refill per list and one free batch
 *                (refills may overshoot high, frees never grow count past
 *                the limit they hit);
 *   frames       walking the zone block by block, every frame is exactly
 *                one of: reserved, the head of a free / pcp / allocated
 *                block (free and pcp heads are on a list), or a tail of
 *                the block before it; reserved frames number present -
 *                managed;
 *   merging      below pageblock_order no free block has a free buddy of
 *                its order (both halves lie in one pageblock, so
 *                __free_one_page always merges them).  At pageblock_order
 *                and above the kernel itself can leave mergeable buddies
 *                apart: a HIGHATOMIC (or isolated) pageblock refused the
 *                merge, and unreserve_highatomic_pageblock() retypes it
 *                later without merging; those orders are not checked;
 *   pageblocks   nr_pageblocks[] equals a recount; nr_reserved_highatomic
 *                is one pageblock per HIGHATOMIC pageblock;
 *   watermarks   min <= low <= high <= promo;
 *   slab         (slab=on, slub.c slab_check) every slab record matches
 *                its head page, the partial/full lists match inuse, and
 *                NR_SLAB_*_B equal the pages the caches hold.
 *
 * The first violation is reported with a dump_page() of the frames around
 * it.  Cost is O(frames): run every event only on small machines
 * (mm_set_check_interval).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "mm/pagemap.h"
#include "mm/slub.h"
#include "mm/swap.h"

static const char *const page_type_names[NR_PAGE_TYPES] = {
	"reserved", "buddy", "pcp", "tail", "kernel", "reclaimable", "pgtable",
	"file", "shmem", "anon", "hugetlb", "alloc"
};

void dump_page(const struct machine *m, pfn_t pfn, const char *reason, FILE *out)
{
	const struct page *p;
	unsigned int t;

	if (pfn >= m->nr_pfns) {
		fprintf(out, "page: pfn:%u beyond the machine (%u frames)%s%s\n", pfn, m->nr_pfns,
			reason ? ": " : "", reason ? reason : "");
		return;
	}
	p = pfn_to_page(m, pfn);
	t = page_type(p);
	fprintf(out, "page: pfn:%u type:%s order:%u next:%d prev:%d index:%u mapping:%u flags:%#x "
		"pageblock:%s%s zone:%s%s%s\n",
		pfn, t < NR_PAGE_TYPES ? page_type_names[t] : "?", page_order(p),
		p->next == PFN_NONE ? -1 : (int)p->next, p->prev == PFN_NONE ? -1 : (int)p->prev,
		p->index, p->mapping, p->flags,
		migratetype_names[get_pfnblock_migratetype(m, pfn) % MIGRATE_TYPES],
		get_pageblock_skip(m, pfn) ? "+skip" : "", page_zone(m, pfn)->name,
		reason ? ": " : "", reason ? reason : "");
}

struct checker {
	const struct machine *m;
	char	*buf;
	size_t	len;
	uint8_t	*listed;	/* bit per pfn: head found on a free or pcp list */
};

SIM_PRINTF(3, 4)
static int violation(struct checker *c, pfn_t pfn, const char *fmt, ...)
{
	size_t used;
	va_list ap;
	FILE *f;

	if (!c->buf || !c->len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->buf, c->len, fmt, ap);
	va_end(ap);
	used = strlen(c->buf);
	if (pfn == PFN_NONE || used + 2 >= c->len)
		return -1;
	f = fmemopen(c->buf + used, c->len - used, "w");
	if (!f)
		return -1;
	fputc('\n', f);
	for (pfn_t q = pfn >= 2 ? pfn - 2 : 0; q <= pfn + 2 && q < c->m->nr_pfns; q++)
		dump_page(c->m, q, q == pfn ? "<- here" : NULL, f);
	fclose(f);
	return -1;
}

static bool test_and_set(uint8_t *bits, pfn_t pfn)
{
	bool was = bits[pfn >> 3] & (1u << (pfn & 7));

	bits[pfn >> 3] |= (uint8_t)(1u << (pfn & 7));
	return was;
}

static bool test_and_clear(uint8_t *bits, pfn_t pfn)
{
	bool was = bits[pfn >> 3] & (1u << (pfn & 7));

	bits[pfn >> 3] &= (uint8_t)~(1u << (pfn & 7));
	return was;
}

/* The name of a free list (free_area[order], migratetype `index`) or of
 * `cpu`'s pcp list `index`, for a violation's message only: the checker
 * walks thousands of lists after every operation, and formatting each
 * name up front dominated its time in sanitizer builds. */
static const char *list_name(char *buf, size_t len, enum page_type type, unsigned int cpu,
			     unsigned int order, uint32_t index)
{
	if (type == PGTY_PCP)
		snprintf(buf, len, "cpu %u pcp list %u", cpu, index);
	else
		snprintf(buf, len, "free_area[%u] %s list", order, migratetype_names[index]);
	return buf;
}

/*
 * One entry of a free list or a pcp ring: a `type` head of `order` with
 * `index`, naturally aligned, inside the zone, on no other list; a free
 * block also on pageblocks of its list's migratetype (block_mt >= 0).
 */
static int check_entry(struct checker *c, const struct zone *zone, pfn_t pfn, unsigned int cpu,
		       enum page_type type, unsigned int order, uint32_t index, int block_mt)
{
	const struct machine *m = c->m;
	const struct page *p;
	char name[64];
#define LIST_NAME list_name(name, sizeof(name), type, cpu, order, index)

	if (!zone_spans_pfn(zone, pfn))
		return violation(c, pfn < m->nr_pfns ? pfn : PFN_NONE,
				 "zone %s %s: pfn %u outside the zone", zone->name, LIST_NAME, pfn);
	p = pfn_to_page(m, pfn);
	if (page_type(p) != type || page_order(p) != order || p->index != index)
		return violation(c, pfn, "zone %s %s: pfn %u is not a %s head of order %u with "
				 "index %u", zone->name, LIST_NAME, pfn, page_type_names[type], order, index);
	if (pfn & ((1u << order) - 1))
		return violation(c, pfn, "zone %s %s: pfn %u not aligned to its order", zone->name,
				 LIST_NAME, pfn);
	for (pfn_t b = pfn; block_mt >= 0 && b < pfn + (1u << order); b += pageblock_nr_pages)
		if (get_pfnblock_migratetype(m, b) != block_mt)
			return violation(c, b, "zone %s %s: block at pfn %u lies in a %s pageblock",
					 zone->name, LIST_NAME, pfn,
					 migratetype_names[get_pfnblock_migratetype(m, b)]);
	if (test_and_set(c->listed, pfn))
		return violation(c, pfn, "pfn %u is on two lists (or twice on one)", pfn);
	return 0;
#undef LIST_NAME
}

/*
 * Walk one free list: every entry as check_entry() says, in the slot its
 * page records, the ends of the ring entries and the count right.  Returns
 * the number of entries in *n.
 */
static int check_slots(struct checker *c, const struct zone *zone, const struct pfn_slots *list,
		       unsigned int order, int migratetype, unsigned long *n)
{
	const struct machine *m = c->m;
	uint32_t span = list->end - list->first;
	char name[64];
#define LIST_NAME list_name(name, sizeof(name), PGTY_BUDDY, 0, order, (uint32_t)migratetype)

	*n = 0;
	if (span > (list->v ? list->mask + 1 : 0) || list->n > span)
		return violation(c, PFN_NONE, "zone %s %s: ring of %u entries over %u slots, capacity %u",
				 zone->name, LIST_NAME, list->n, span, list->v ? list->mask + 1 : 0);
	if (list->n && (pfn_slots_get(list, list->first) == PFN_NONE ||
			pfn_slots_get(list, list->end - 1) == PFN_NONE))
		return violation(c, PFN_NONE, "zone %s %s: a hole at an end of the ring", zone->name,
				 LIST_NAME);
	for (uint32_t seq = list->first; seq != list->end; seq++) {
		pfn_t pfn = pfn_slots_get(list, seq);
		const struct page *p;

		if (pfn == PFN_NONE)
			continue;
		if (check_entry(c, zone, pfn, 0, PGTY_BUDDY, order, (uint32_t)migratetype, migratetype))
			return -1;
		p = pfn_to_page(m, pfn);
		if (p->next != seq || p->prev != PFN_NONE)
			return violation(c, pfn, "zone %s %s: pfn %u in slot %u records slot %u (prev %d)",
					 zone->name, LIST_NAME, pfn, seq, p->next,
					 p->prev == PFN_NONE ? -1 : (int)p->prev);
		++*n;
	}
	if (*n != list->n)
		return violation(c, PFN_NONE, "zone %s %s: %lu entries in the ring, its count says %u",
				 zone->name, LIST_NAME, *n, list->n);
	return 0;
#undef LIST_NAME
}

/* One pcp ring: every entry as check_entry() says, unlinked. */
static int check_ring(struct checker *c, const struct zone *zone, const struct pfn_ring *ring,
		      unsigned int cpu, unsigned int order, uint32_t pindex)
{
	char name[64];

	if (ring->n > (ring->v ? ring->mask + 1 : 0) || ring->first > ring->mask)
		return violation(c, PFN_NONE, "zone %s %s: ring of %u entries, capacity %u, first %u",
				 zone->name, list_name(name, sizeof(name), PGTY_PCP, cpu, order, pindex),
				 ring->n, ring->v ? ring->mask + 1 : 0, ring->first);
	for (uint32_t i = 0; i < ring->n; i++) {
		pfn_t pfn = pfn_ring_at(ring, i);
		const struct page *p;

		if (check_entry(c, zone, pfn, cpu, PGTY_PCP, order, pindex, -1))
			return -1;
		p = pfn_to_page(c->m, pfn);
		if (p->next != PFN_NONE || p->prev != PFN_NONE)
			return violation(c, pfn, "zone %s %s: pfn %u carries list links", zone->name,
					 list_name(name, sizeof(name), PGTY_PCP, cpu, order, pindex), pfn);
	}
	return 0;
}

static int check_free_lists(struct checker *c, const struct zone *zone)
{
	long free_pages = 0, free_blocks_pages = 0, free_highatomic = 0;

	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		const struct free_area *area = &zone->free_area[order];
		unsigned long nr_free = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			unsigned long n;
			long pages;
			char name[64];

			if (check_slots(c, zone, &area->free_list[mt], order, mt, &n))
				return -1;
			if (n != area->nr_free_mt[mt])
				return violation(c, PFN_NONE, "zone %s %s: %lu blocks on the list, nr_free_mt "
						 "says %lu", zone->name,
						 list_name(name, sizeof(name), PGTY_BUDDY, 0, order, (uint32_t)mt),
						 n, area->nr_free_mt[mt]);
			pages = (long)n << order;
			if (!is_migrate_isolate(mt))
				free_pages += pages;
			if (!is_migrate_isolate(mt) && order >= pageblock_order)
				free_blocks_pages += pages;
			if (is_migrate_highatomic(mt))
				free_highatomic += pages;
			nr_free += n;
		}
		if (nr_free != area->nr_free)
			return violation(c, PFN_NONE, "zone %s free_area[%u]: %lu blocks on the lists, "
					 "nr_free says %lu", zone->name, order, nr_free, area->nr_free);
	}
	if (zone_page_state_exact(zone, NR_FREE_PAGES) != free_pages)
		return violation(c, PFN_NONE, "zone %s: NR_FREE_PAGES is %ld, the free lists hold %ld "
				 "pages", zone->name, zone_page_state_exact(zone, NR_FREE_PAGES), free_pages);
	if (zone_page_state_exact(zone, NR_FREE_PAGES_BLOCKS) != free_blocks_pages)
		return violation(c, PFN_NONE, "zone %s: NR_FREE_PAGES_BLOCKS is %ld, the free lists "
				 "hold %ld pages in blocks >= pageblock_order", zone->name,
				 zone_page_state_exact(zone, NR_FREE_PAGES_BLOCKS), free_blocks_pages);
	if ((long)zone->nr_free_highatomic != free_highatomic)
		return violation(c, PFN_NONE, "zone %s: nr_free_highatomic is %lu, the HIGHATOMIC "
				 "lists hold %ld pages", zone->name, zone->nr_free_highatomic,
				 free_highatomic);
	return 0;
}

static int check_pcp(struct checker *c, const struct zone *zone)
{
	const struct machine *m = c->m;

	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
		long pages = 0, bound;

		for (unsigned int pindex = 0; pindex < NR_PCP_LISTS; pindex++) {
			unsigned int order = pindex_to_order(pindex);

			if (check_ring(c, zone, &pcp->lists[pindex], cpu, order, pindex))
				return -1;
			pages += (long)pcp->lists[pindex].n << order;
		}
		if (pages != pcp->count)
			return violation(c, PFN_NONE, "zone %s cpu %u: pcp count %d, the lists hold %ld pages",
					 zone->name, cpu, pcp->count, pages);
		bound = (long)(zone->pcp_high_max_seen > pcp->high_max ? zone->pcp_high_max_seen
									: pcp->high_max) +
			((long)pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX) +
			NR_PCP_LISTS * (long)(pcp->batch > (2 << HPAGE_PMD_ORDER) ? pcp->batch
										    : (2 << HPAGE_PMD_ORDER));
		if (pcp->count < 0 || pcp->count > bound || pcp->high < 0 || pcp->high > bound ||
		    pcp->batch < 1 || pcp->alloc_factor > CONFIG_PCP_BATCH_SCALE_MAX)
			return violation(c, PFN_NONE, "zone %s cpu %u: pcp out of bounds: count %d high %d "
					 "high_min %d high_max %d batch %d alloc_factor %u", zone->name, cpu,
					 pcp->count, pcp->high, pcp->high_min, pcp->high_max, pcp->batch,
					 pcp->alloc_factor);
	}
	return 0;
}

static int check_frames(struct checker *c, const struct zone *zone)
{
	const struct machine *m = c->m;
	pfn_t end = (pfn_t)zone_end_pfn(zone);
	unsigned long reserved = 0;

	for (pfn_t pfn = (pfn_t)zone->zone_start_pfn; pfn < end;) {
		const struct page *p = pfn_to_page(m, pfn);
		enum page_type t = page_type(p);
		unsigned int order = page_order(p);
		bool listed = test_and_clear(c->listed, pfn);

		if (t >= NR_PAGE_TYPES)
			return violation(c, pfn, "pfn %u: unknown page type %d", pfn, t);
		if (t == PGTY_TAIL)
			return violation(c, pfn, "pfn %u: a tail frame where a block should start "
					 "(no head covers it)", pfn);
		if (t == PGTY_RESERVED) {
			if (order || listed)
				return violation(c, pfn, "pfn %u: reserved frame with order %u%s", pfn, order,
						 listed ? " on a list" : "");
			reserved++;
			pfn++;
			continue;
		}
		if (order > MAX_PAGE_ORDER || (pfn & ((1u << order) - 1)) || pfn + (1u << order) > end)
			return violation(c, pfn, "pfn %u: block of order %u misaligned or past the zone end",
					 pfn, order);
		if ((t == PGTY_BUDDY || t == PGTY_PCP) && !listed)
			return violation(c, pfn, "pfn %u: %s head of order %u is on no list", pfn,
					 page_type_names[t], order);
		if (t != PGTY_BUDDY && t != PGTY_PCP && listed)
			return violation(c, pfn, "pfn %u: %s block is on a free or pcp list", pfn,
					 page_type_names[t]);
		/* (list walks accepted only buddy/pcp-typed frames, so a tail
		 * cannot be on a list) */
		for (pfn_t q = pfn + 1; q < pfn + (1u << order); q++)
			if (page_type(pfn_to_page(m, q)) != PGTY_TAIL)
				return violation(c, q, "pfn %u: inside the order-%u %s block at pfn %u but "
						 "not a tail", q, order, page_type_names[t], pfn);
		if (t == PGTY_BUDDY && order < pageblock_order) {
			pfn_t buddy = pfn ^ (1u << order);
			const struct page *b = pfn_to_page(m, buddy);

			if (page_type(b) == PGTY_BUDDY && page_order(b) == order)
				return violation(c, pfn, "free buddies at pfn %u and %u (order %u) were not "
						 "merged", pfn, buddy, order);
		}
		pfn += 1u << order;
	}
	if (reserved != zone->present_pages - zone->managed_pages)
		return violation(c, PFN_NONE, "zone %s: %lu reserved frames, present - managed is %lu",
				 zone->name, reserved, zone->present_pages - zone->managed_pages);
	return 0;
}

/* The pageblock's summary of its sampled frames (mmzone.h) against them. */
static int check_pageblock_samples(struct checker *c, const struct zone *zone, pfn_t start)
{
	const struct machine *m = c->m;
	const uint64_t *w = &m->pageblock_samples[2 * pfn_to_pageblock(start)];
	uint64_t source = 0, buddy = 0;

	for (unsigned int i = 0; i < pageblock_nr_pages >> PAGEBLOCK_SAMPLE_SHIFT; i++) {
		const struct page *page = pfn_to_page(m, start + (i << PAGEBLOCK_SAMPLE_SHIFT));

		source |= (uint64_t)pageblock_sample_source(page) << i;
		buddy |= (uint64_t)(page_type(page) == PGTY_BUDDY) << i;
	}
	if (w[0] != source || w[1] != buddy)
		return violation(c, start, "zone %s: pageblock at pfn %u: sampled LRU heads %016llx, "
				 "free heads %016llx; the summary says %016llx, %016llx", zone->name, start,
				 (unsigned long long)source, (unsigned long long)buddy,
				 (unsigned long long)w[0], (unsigned long long)w[1]);
	return 0;
}

static int check_pageblocks(struct checker *c, const struct zone *zone)
{
	const struct machine *m = c->m;
	unsigned long count[MIGRATE_TYPES] = { 0 };

	for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn += pageblock_nr_pages) {
		if (page_zone(m, (pfn_t)pfn) != zone)
			return violation(c, (pfn_t)pfn, "pageblock at pfn %lu not marked as zone %s", pfn,
					 zone->name);
		count[get_pfnblock_migratetype(m, (pfn_t)pfn)]++;
		if (check_pageblock_samples(c, zone, (pfn_t)pfn))
			return -1;
	}
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		if (count[mt] != zone->nr_pageblocks[mt])
			return violation(c, PFN_NONE, "zone %s: %lu %s pageblocks, nr_pageblocks says %lu",
					 zone->name, count[mt], migratetype_names[mt], zone->nr_pageblocks[mt]);
	if (zone->nr_reserved_highatomic != count[MIGRATE_HIGHATOMIC] * pageblock_nr_pages)
		return violation(c, PFN_NONE, "zone %s: nr_reserved_highatomic %lu for %lu HIGHATOMIC "
				 "pageblocks", zone->name, zone->nr_reserved_highatomic,
				 count[MIGRATE_HIGHATOMIC]);
	if (!(zone->_watermark[WMARK_MIN] <= zone->_watermark[WMARK_LOW] &&
	      zone->_watermark[WMARK_LOW] <= zone->_watermark[WMARK_HIGH] &&
	      zone->_watermark[WMARK_HIGH] <= zone->_watermark[WMARK_PROMO]))
		return violation(c, PFN_NONE, "zone %s: watermarks out of order", zone->name);
	return 0;
}

static int check_counters(struct checker *c)
{
	const struct machine *m = c->m;

	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		int64_t sum = 0;

		for (int z = 0; z < MAX_NR_ZONES; z++) {
			const struct zone *zone = &m->node.node_zones[z];

			sum += zone->vm_stat[i];
			if (zone->per_cpu_zonestats)
				for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
					int d = zone->per_cpu_zonestats[cpu].vm_stat_diff[i];

					if (d > 125 || d < -125)
						return violation(c, PFN_NONE, "zone %s cpu %u: %s diff %d exceeds "
								 "any threshold", zone->name, cpu,
								 zone_stat_names[i], d);
				}
		}
		if (sum != m->vm_zone_stat[i])
			return violation(c, PFN_NONE, "global %s is %" PRId64 ", the zones sum to %" PRId64,
					 zone_stat_names[i], m->vm_zone_stat[i], sum);
	}
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (m->node.vm_stat[i] != m->vm_node_stat[i])
			return violation(c, PFN_NONE, "global %s is %" PRId64 ", the node has %" PRId64,
					 node_stat_names[i], m->vm_node_stat[i], m->node.vm_stat[i]);
	return 0;
}

/*
 * LRU lists: every entry is a PG_lru folio head of an LRU type, on the
 * list its flags select, linked both ways; the per-list page counts equal
 * the walk and the node's exact NR_*_ANON/FILE, NR_UNEVICTABLE counters.
 * Folios in the per-CPU lru_add batches are LRU-type heads without PG_lru
 * or PG_isolated.
 */
/*
 * MGLRU generations (swap.h struct lru_gen_folio): min_seq <= max_seq per
 * type, between MIN_NR_GENS and MAX_NR_GENS generations (file no more
 * than anon, seq_is_valid); every list entry a PG_lru, !PG_active,
 * !PG_unevictable, !PG_isolated head of the list's type and zone whose
 * stored gen is the list's; lists of generations outside a type's window
 * empty; per-gen/type/zone page counts equal the walks; as many frames
 * carry a gen as the lists hold (so each such frame is on its list, once).
 * The compat active/inactive pages per list go to compat[] for the node
 * counter check.
 */
static int check_lru_gen(struct checker *c, unsigned long compat[NR_LRU_LISTS])
{
	const struct machine *m = c->m;
	const struct lruvec *lruvec = &m->node.__lruvec;
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long folios = 0, tagged = 0;

	if (!lrugen->enabled)
		return 0;
	for (int type = 0; type < ANON_AND_FILE; type++) {
		unsigned long nr_gens = lrugen->max_seq - lrugen->min_seq[type] + 1;

		if (lrugen->min_seq[type] > lrugen->max_seq || nr_gens < MIN_NR_GENS || nr_gens > MAX_NR_GENS)
			return violation(c, PFN_NONE, "lru_gen type %d: min_seq %lu, max_seq %lu", type,
					 lrugen->min_seq[type], lrugen->max_seq);
	}
	if (lrugen->max_seq - lrugen->min_seq[LRU_GEN_FILE] > lrugen->max_seq - lrugen->min_seq[LRU_GEN_ANON])
		return violation(c, PFN_NONE, "lru_gen: file has more generations than anon");
	for (int lru = 0; lru < LRU_UNEVICTABLE; lru++)
		if (!pfn_list_empty(&lruvec->lists[lru]))
			return violation(c, lruvec->lists[lru].head, "MGLRU on, classic LRU list %d not empty", lru);
	for (int gen = 0; gen < MAX_NR_GENS; gen++) {
		bool active = lru_gen_is_active(lruvec, gen);

		for (int type = 0; type < ANON_AND_FILE; type++) {
			bool live = false;

			for (unsigned long seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++)
				live |= lru_gen_from_seq(seq) == gen;
			for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
				const struct pfn_list *list = &lrugen->folios[gen][type][zone];
				unsigned long pages = 0;
				pfn_t prev = PFN_NONE;

				for (pfn_t pfn = list->head; pfn != PFN_NONE; pfn = m->mem_map[pfn].next) {
					const struct page *page;

					if (pfn >= m->nr_pfns)
						return violation(c, PFN_NONE, "lru_gen list %d/%d/%d links beyond memory",
								 gen, type, zone);
					page = &m->mem_map[pfn];
					if ((page_type(page) != PGTY_FILE && page_type(page) != PGTY_SHMEM &&
					     page_type(page) != PGTY_ANON) ||
					    (page->flags & (PG_lru | PG_active | PG_unevictable | PG_isolated)) != PG_lru ||
					    folio_is_file_lru(page) != type || (int)zone_idx(page_zone(m, pfn)) != zone ||
					    folio_lru_gen(m, pfn) != gen || page->prev != prev)
						return violation(c, pfn, "lru_gen list %d/%d/%d holds a frame that does "
								 "not belong there", gen, type, zone);
					if (test_and_set(c->listed, pfn))
						return violation(c, pfn, "frame on an lru_gen list and on another list");
					pages += 1UL << page_order(page);
					folios++;
					prev = pfn;
				}
				if (prev != list->tail)
					return violation(c, PFN_NONE, "lru_gen list %d/%d/%d tail is %u, the walk ended at %u",
							 gen, type, zone, list->tail, prev);
				if (lrugen->nr_pages[gen][type][zone] != (long)pages)
					return violation(c, PFN_NONE, "lru_gen nr_pages[%d][%d][%d] is %ld, the list holds %lu",
							 gen, type, zone, lrugen->nr_pages[gen][type][zone], pages);
				if (pages && !live)
					return violation(c, list->head, "lru_gen generation %d of type %d is outside "
							 "[min_seq, max_seq] but holds folios", gen, type);
				compat[(type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON) + (active ? LRU_ACTIVE : 0)] += pages;
			}
		}
	}
	for (pfn_t pfn = 0; pfn < m->nr_pfns; pfn++)
		tagged += (m->lru_gen_flags[pfn] & LRU_GEN_MASK) != 0;
	if (tagged != folios)
		return violation(c, PFN_NONE, "%lu frames carry an lru_gen generation, the lists hold %lu folios",
				 tagged, folios);
	return 0;
}

static int check_lru(struct checker *c)
{
	const struct machine *m = c->m;
	const struct lruvec *lruvec = &m->node.__lruvec;
	unsigned long compat[NR_LRU_LISTS] = { 0 };

	if (check_lru_gen(c, compat))
		return -1;
	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		unsigned long pages = 0;
		pfn_t prev = PFN_NONE;

		for (pfn_t pfn = lruvec->lists[lru].head; pfn != PFN_NONE; pfn = m->mem_map[pfn].next) {
			const struct page *page = &m->mem_map[pfn];
			enum page_type t = page_type(page);

			if (pfn >= m->nr_pfns)
				return violation(c, PFN_NONE, "LRU list %d links to pfn %u beyond memory", lru, pfn);
			if ((t != PGTY_FILE && t != PGTY_SHMEM && t != PGTY_ANON) || !(page->flags & PG_lru) ||
			    (int)folio_lru_list(page) != lru || page->prev != prev)
				return violation(c, pfn, "LRU list %d holds a frame that does not belong there", lru);
			if (test_and_set(c->listed, pfn))
				return violation(c, pfn, "frame on an LRU list and on another list");
			pages += 1UL << page_order(page);
			prev = pfn;
		}
		if (prev != lruvec->lists[lru].tail)
			return violation(c, PFN_NONE, "LRU list %d tail is %u, the walk ended at %u",
					 lru, lruvec->lists[lru].tail, prev);
		if (pages != lruvec->nr_pages[lru])
			return violation(c, PFN_NONE, "LRU list %d counts %lu pages, the walk found %lu",
					 lru, lruvec->nr_pages[lru], pages);
		if ((int64_t)(pages + compat[lru]) !=
		    node_page_state_exact(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru)))
			return violation(c, PFN_NONE, "%s is %" PRId64 ", LRU list holds %lu pages (+%lu in generations)",
					 node_stat_names[NR_INACTIVE_ANON + lru],
					 node_page_state_exact(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru)),
					 pages, compat[lru]);
	}
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct folio_batch *fb = &m->fbatches[cpu].lru_add;

		for (unsigned int i = 0; i < fb->nr; i++) {
			const struct page *page = &m->mem_map[fb->pfns[i]];

			if (page->flags & (PG_lru | PG_isolated))
				return violation(c, fb->pfns[i], "cpu %u lru_add batch holds a folio already on an LRU", cpu);
		}
	}
	return 0;
}

int mm_check_msg(const struct machine *m, char *buf, size_t len)
{
	struct checker c = { .m = m, .buf = buf, .len = len };
	int rc = 0;

	if (buf && len)
		buf[0] = '\0';
	c.listed = calloc((m->nr_pfns >> 3) + 1, 1);
	if (!c.listed)
		SIM_BUG("out of memory in mm_check");
	for (int z = 0; z < MAX_NR_ZONES && !rc; z++) {
		const struct zone *zone = &m->node.node_zones[z];

		if (!populated_zone(zone))
			continue;
		rc = check_free_lists(&c, zone);
		if (!rc)
			rc = check_pcp(&c, zone);
		if (!rc)
			rc = check_frames(&c, zone);
		if (!rc)
			rc = check_pageblocks(&c, zone);
	}
	if (!rc)
		rc = check_counters(&c);
	if (!rc)
		rc = check_lru(&c);
	if (!rc && mapping_check(m, buf, len))
		rc = -1;
	if (!rc && slab_check(m, buf, len))
		rc = -1;
	free(c.listed);
	return rc;
}

int mm_check(const struct machine *m)
{
	char buf[4096];

	if (mm_check_msg(m, buf, sizeof(buf)) == 0)
		return 0;
	fprintf(stderr, "mm_check: %s\n", buf);
	return -1;
}

void mm_debug_check(struct machine *m)
{
	char buf[4096];

	m->mm_ops++;
	if (!m->check_every || m->mm_ops % m->check_every || m->mm_busy)
		return;
	if (mm_check_msg(m, buf, sizeof(buf)))
		SIM_BUG("mm_check after mm operation %" PRIu64 ": %s", m->mm_ops, buf);
}
