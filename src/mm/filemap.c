/* SPDX-License-Identifier: MIT */
/*
 * filemap.c — the page cache: mappings, the index of folios, insertion and
 * removal (mm/filemap.c, Linux 6.12).  See pagemap.h for the structures.
 *
 * This file holds the owner-side core every later piece uses: the
 * mapping table, lookup, __filemap_add_folio / filemap_add_folio,
 * __filemap_remove_folio and folio_migrate_mapping.  The folio-order
 * policy of __filemap_get_folio() and the read/write paths build on it.
 *
 * Simplifications: see pagemap.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/folio_lock.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "mm/writeback.h"
#include "sim/xalloc.h"

#define MAX_MAPPINGS	65535u

/* ---- the mapping table -------------------------------------------------------- */

struct address_space *mapping_create(struct machine *m, enum mapping_kind kind, gfp_t gfp_mask,
				     unsigned int min_order, unsigned int max_order,
				     uint32_t flags, void *host, const char *name)
{
	struct address_space *mapping;
	uint32_t id;

	SIM_ASSERT(min_order <= max_order && max_order <= MAX_PAGECACHE_ORDER);
	/* lowest free id: deterministic, independent of allocation addresses */
	for (id = 1; id < m->nr_mapping_slots && m->mappings[id]; id++)
		;
	if (id > MAX_MAPPINGS)
		return NULL;
	if (id >= m->nr_mapping_slots) {
		uint32_t n = m->nr_mapping_slots ? m->nr_mapping_slots * 2 : 64;

		if (n > MAX_MAPPINGS + 1)
			n = MAX_MAPPINGS + 1;
		m->mappings = xrecalloc(m->mappings, m->nr_mapping_slots, n, sizeof(*m->mappings));
		m->nr_mapping_slots = n;
	}
	mapping = calloc(1, sizeof(*mapping));
	if (!mapping)
		SIM_BUG("out of memory creating a mapping");
	if (!m->index_pools) {
		m->index_pools = xcalloc(1, sizeof(*m->index_pools));
		host_pool_init(&m->index_pools->pfns, PAGE_INDEX_CHUNK * sizeof(pfn_t));
		host_pool_init(&m->index_pools->mapcounts, PAGE_INDEX_CHUNK * sizeof(uint16_t));
		host_pool_init(&m->index_pools->tags, sizeof(struct page_index_tags));
	}
	mapping->i_pages.pools = m->index_pools;
	mapping->id = (uint16_t)id;
	mapping->kind = (uint8_t)kind;
	mapping->min_order = (uint8_t)min_order;
	mapping->max_order = (uint8_t)max_order;
	mapping->flags = flags | (max_order > 0 ? AS_LARGE_FOLIO_SUPPORT : 0);
	mapping->gfp_mask = gfp_mask;
	mapping->host = host;
	snprintf(mapping->name, sizeof(mapping->name), "%s", name ? name : "");
	sim_waitq_init(&mapping->writeback_wait, "folio_wait_writeback");
	m->mappings[id] = mapping;
	m->nr_mappings++;
	return mapping;
}

static void page_index_release(struct page_index *pi)
{
	struct page_index_pools *pools = pi->pools;

	for (uint32_t i = 0; i < pi->nr_chunks; i++) {
		host_pool_free(&pools->pfns, pi->chunk[i]);
		host_pool_free(&pools->tags, pi->tags[i]);
		host_pool_free(&pools->mapcounts, pi->mapcount[i]);
	}
	free(pi->chunk);
	free(pi->used);
	free(pi->tags);
	free(pi->mapcount);
	memset(pi, 0, sizeof(*pi));
}

void mapping_destroy(struct machine *m, struct address_space *mapping)
{
	if (!mapping)
		return;
	if (mapping->nrpages)
		SIM_BUG("mapping_destroy: mapping %u (%s) still holds %lu pages",
			mapping->id, mapping->name, mapping->nrpages);
	SIM_ASSERT(m->mappings[mapping->id] == mapping);
	m->mappings[mapping->id] = NULL;
	m->nr_mappings--;
	page_index_release(&mapping->i_pages);
	free(mapping->pt_users);
	free(mapping);
}

/* machine_destroy(): mappings may still hold pages (the run ended). */
void mapping_table_release(struct machine *m)
{
	for (uint32_t id = 1; id < m->nr_mapping_slots; id++) {
		struct address_space *mapping = m->mappings[id];

		if (!mapping)
			continue;
		page_index_release(&mapping->i_pages);
		free(mapping->pt_users);
		free(mapping);
	}
	free(m->mappings);
	m->mappings = NULL;
	m->nr_mapping_slots = m->nr_mappings = 0;
	if (m->index_pools) {
		host_pool_release(&m->index_pools->pfns);
		host_pool_release(&m->index_pools->mapcounts);
		host_pool_release(&m->index_pools->tags);
		free(m->index_pools);
		m->index_pools = NULL;
	}
}

struct address_space *page_mapping_of(const struct machine *m, pfn_t pfn)
{
	const struct page *page = &m->mem_map[pfn];

	if (!page->mapping || page->mapping >= m->nr_mapping_slots)
		return NULL;
	return m->mappings[page->mapping];
}

struct address_space *folio_mapping_for_kernel(const struct machine *m, pfn_t pfn)
{
	struct address_space *mapping = page_mapping_of(m, pfn);

	return mapping && mapping->kind != MAPPING_ANON ? mapping : NULL;
}

/* ---- the index --------------------------------------------------------------- */

static pfn_t index_get(const struct page_index *pi, unsigned long index)
{
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	if (c >= pi->nr_chunks || !pi->chunk[c])
		return PFN_NONE;
	return pi->chunk[c][index & (PAGE_INDEX_CHUNK - 1)];
}

static pfn_t *index_slot(struct page_index *pi, unsigned long index)
{
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	if (c >= pi->nr_chunks) {
		uint32_t n = pi->nr_chunks ? pi->nr_chunks : 4;

		while (n <= c)
			n *= 2;
		pi->chunk = xrecalloc(pi->chunk, pi->nr_chunks, n, sizeof(*pi->chunk));
		pi->used = xrecalloc(pi->used, pi->nr_chunks, n, sizeof(*pi->used));
		pi->tags = xrecalloc(pi->tags, pi->nr_chunks, n, sizeof(*pi->tags));
		pi->mapcount = xrecalloc(pi->mapcount, pi->nr_chunks, n, sizeof(*pi->mapcount));
		pi->nr_chunks = n;
	}
	if (!pi->chunk[c]) {
		pi->chunk[c] = host_pool_alloc(&pi->pools->pfns);
		if (!pi->chunk[c])
			SIM_BUG("out of memory for a page-cache index chunk");
		for (unsigned int i = 0; i < PAGE_INDEX_CHUNK; i++)
			pi->chunk[c][i] = PFN_NONE;
	}
	return &pi->chunk[c][index & (PAGE_INDEX_CHUNK - 1)];
}

static void index_set(struct page_index *pi, unsigned long index, pfn_t pfn)
{
	pfn_t *slot = index_slot(pi, index);

	SIM_ASSERT_INTERNAL(*slot == PFN_NONE);
	*slot = pfn;
	pi->used[index >> PAGE_INDEX_CHUNK_SHIFT]++;
}

static void index_clear(struct page_index *pi, unsigned long index)
{
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	SIM_ASSERT_INTERNAL(c < pi->nr_chunks && pi->chunk[c]);
	pi->chunk[c][index & (PAGE_INDEX_CHUNK - 1)] = PFN_NONE;
	if (--pi->used[c] == 0) {
		host_pool_free(&pi->pools->pfns, pi->chunk[c]);
		pi->chunk[c] = NULL;
		/* an emptied chunk has no tags and no mapped pages left */
		SIM_ASSERT_INTERNAL(!pi->tags[c] || (!pi->tags[c]->count[0] && !pi->tags[c]->count[1]));
		host_pool_free(&pi->pools->tags, pi->tags[c]);
		pi->tags[c] = NULL;
		host_pool_free(&pi->pools->mapcounts, pi->mapcount[c]);
		pi->mapcount[c] = NULL;
	}
}

pfn_t filemap_lookup(struct machine *m, const struct address_space *mapping, unsigned long index)
{
	mm_charge(m, COST_xa_lookup, 1);
	return index_get(&mapping->i_pages, index);
}

/* ---- insertion and removal ----------------------------------------------------- */

static enum page_type mapping_page_type(const struct address_space *mapping)
{
	switch (mapping->kind) {
	case MAPPING_FILE:	return PGTY_FILE;
	case MAPPING_SHMEM:	return PGTY_SHMEM;
	default:		return PGTY_ANON;
	}
}

/* __lruvec_stat_mod_folio() for the page-cache counters. */
static void account_page_cache(struct machine *m, const struct address_space *mapping, long nr)
{
	if (mapping->kind == MAPPING_ANON)
		return;
	__mod_node_page_state(&m->node, NR_FILE_PAGES, nr);
	if (mapping->kind == MAPPING_SHMEM)
		__mod_node_page_state(&m->node, NR_SHMEM, nr);
}

/*
 * __filemap_add_folio() (6.12): the xas_store of a multi-index entry
 * fails with -EEXIST when any slot of the range is taken (the kernel
 * also accepts replacing shadow entries; the model keeps none).
 */
int __filemap_add_folio(struct machine *m, struct address_space *mapping, pfn_t pfn,
			unsigned long index)
{
	struct page *page = pfn_to_page(m, pfn);
	unsigned long nr = folio_nr_pages(page);

	SIM_ASSERT((index & (nr - 1)) == 0);
	SIM_ASSERT(page_order(page) >= mapping->min_order);
	for (unsigned long i = 0; i < nr; i++)
		if (index_get(&mapping->i_pages, index + i) != PFN_NONE)
			return -EEXIST;
	for (unsigned long i = 0; i < nr; i++)
		index_set(&mapping->i_pages, index + i, pfn);
	mm_charge(m, COST_xa_slot, nr);
	set_page_type_order(page, mapping_page_type(mapping), page_order(page));
	page->mapping = mapping->id;
	page->index = (uint32_t)index;
	folio_set_lru_gen_flags(m, pfn, 0);	/* a new folio: no MGLRU refs */
	mapping->nrpages += nr;
	account_page_cache(m, mapping, (long)nr);
	if (mapping->kind == MAPPING_FILE)
		trace_count(m, TP_MM_FILEMAP_ADD);
	return 0;
}

int filemap_add_folio(struct machine *m, struct address_space *mapping, pfn_t pfn,
		      unsigned long index)
{
	int ret = __filemap_add_folio(m, mapping, pfn, index);

	if (ret == 0)
		folio_add_lru(m, pfn);
	return ret;
}

void __filemap_remove_folio(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	unsigned long nr = folio_nr_pages(page);

	SIM_ASSERT(mapping);
	SIM_ASSERT(!(page->flags & PG_lru));
	if (mapping->kind != MAPPING_ANON)
		trace_count(m, TP_MM_FILEMAP_DELETE);
	for (unsigned long i = 0; i < nr; i++)
		index_clear(&mapping->i_pages, page->index + i);
	mm_charge(m, COST_xa_slot, nr);
	mapping->nrpages -= nr;
	account_page_cache(m, mapping, -(long)nr);
	page->mapping = 0;
}

void folio_migrate_mapping(struct machine *m, pfn_t dst, pfn_t src)
{
	struct page *s = pfn_to_page(m, src), *d = pfn_to_page(m, dst);
	struct address_space *mapping = page_mapping_of(m, src);
	unsigned long nr = folio_nr_pages(s);

	SIM_ASSERT(mapping);
	SIM_ASSERT(page_order(d) == page_order(s));
	for (unsigned long i = 0; i < nr; i++) {
		pfn_t *slot = index_slot(&mapping->i_pages, s->index + i);

		SIM_ASSERT_INTERNAL(*slot == src);
		*slot = dst;
	}
	mm_charge(m, COST_xa_slot, nr);
	set_page_type_order(d, page_type(s), page_order(s));
	d->mapping = s->mapping;
	d->index = s->index;
	d->flags = (uint8_t)(s->flags & ~(PG_lru | PG_isolated));
	if ((s->flags & PG_dirty) && folio_nr_pages(s) > 1) {	/* the dirty range follows */
		pfn_to_page(m, dst + 1)->next = pfn_to_page(m, src + 1)->next;
		pfn_to_page(m, dst + 1)->prev = pfn_to_page(m, src + 1)->prev;
	}
	/* folio_migrate_flags(): PG_workingset follows; no generation */
	folio_set_lru_gen_flags(m, dst, (uint8_t)(folio_lru_gen_flags(m, src) & LRU_GEN_WORKINGSET));
	s->mapping = 0;
	s->flags &= (uint8_t)(PG_lru | PG_isolated);
}

/* ---- tags --------------------------------------------------------------------- */

static struct page_index_tags *tags_of(const struct page_index *pi, unsigned long index)
{
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	return c < pi->nr_chunks ? pi->tags[c] : NULL;
}

void pagecache_tag_set(struct address_space *mapping, unsigned long index, enum pagecache_tag tag)
{
	struct page_index *pi = &mapping->i_pages;
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;
	unsigned int i = index & (PAGE_INDEX_CHUNK - 1);
	struct page_index_tags *t;

	SIM_ASSERT(c < pi->nr_chunks && pi->chunk[c]);
	if (!pi->tags[c]) {
		pi->tags[c] = host_pool_alloc(&pi->pools->tags);
		if (!pi->tags[c])
			SIM_BUG("out of memory for page-cache tags");
	}
	t = pi->tags[c];
	if (t->bits[tag][i / 64] & (1ULL << (i % 64)))
		return;
	t->bits[tag][i / 64] |= 1ULL << (i % 64);
	t->count[tag]++;
	mapping->nr_tagged[tag]++;
}

void pagecache_tag_clear(struct address_space *mapping, unsigned long index, enum pagecache_tag tag)
{
	struct page_index_tags *t = tags_of(&mapping->i_pages, index);
	unsigned int i = index & (PAGE_INDEX_CHUNK - 1);

	if (!t || !(t->bits[tag][i / 64] & (1ULL << (i % 64))))
		return;
	t->bits[tag][i / 64] &= ~(1ULL << (i % 64));
	t->count[tag]--;
	mapping->nr_tagged[tag]--;
}

bool pagecache_tag_get(const struct address_space *mapping, unsigned long index,
		       enum pagecache_tag tag)
{
	const struct page_index_tags *t = tags_of(&mapping->i_pages, index);
	unsigned int i = index & (PAGE_INDEX_CHUNK - 1);

	return t && (t->bits[tag][i / 64] & (1ULL << (i % 64)));
}

unsigned long pagecache_tag_next(const struct address_space *mapping, unsigned long start,
				 unsigned long end, enum pagecache_tag tag)
{
	const struct page_index *pi = &mapping->i_pages;

	if (!mapping->nr_tagged[tag])
		return ULONG_MAX;
	for (unsigned long c = start >> PAGE_INDEX_CHUNK_SHIFT; c < pi->nr_chunks; c++) {
		const struct page_index_tags *t = pi->tags[c];
		unsigned long base = c << PAGE_INDEX_CHUNK_SHIFT;
		unsigned int from = base < start ? (unsigned int)(start - base) : 0;

		if (base > end)
			break;
		if (!t || !t->count[tag])
			continue;
		for (unsigned int w = from / 64; w < PAGE_INDEX_CHUNK / 64; w++) {
			uint64_t bits = t->bits[tag][w];

			if (w == from / 64)
				bits &= ~0ULL << (from % 64);
			if (bits) {
				unsigned long idx = base + w * 64 + (unsigned int)__builtin_ctzll(bits);

				return idx <= end ? idx : ULONG_MAX;
			}
		}
	}
	return ULONG_MAX;
}

/* ---- map counts -------------------------------------------------------------------- */

static uint16_t *mapcount_slot(struct address_space *mapping, unsigned long index, bool create)
{
	struct page_index *pi = &mapping->i_pages;
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	if (c >= pi->nr_chunks || !pi->chunk[c])
		return NULL;
	if (!pi->mapcount[c]) {
		if (!create)
			return NULL;
		pi->mapcount[c] = host_pool_alloc(&pi->pools->mapcounts);
		if (!pi->mapcount[c])
			SIM_BUG("out of memory for map counts");
	}
	return &pi->mapcount[c][index & (PAGE_INDEX_CHUNK - 1)];
}

unsigned int page_mapcount_inc(struct machine *m, struct address_space *mapping, unsigned long index)
{
	uint16_t *mc = mapcount_slot(mapping, index, true);

	SIM_ASSERT(mc && *mc < UINT16_MAX);
	if ((*mc)++ == 0) {
		mapping->nrmapped++;
		__mod_node_page_state(&m->node, NR_FILE_MAPPED, 1);
	}
	return *mc;
}

/*
 * filemap_map_pages() (mm/filemap.c, 6.12) for the model's PTE mirror:
 * map the cached pages of indices [index, index + nr) whose present bit
 * (bit first + k of the 16-page chunk's *mask) is clear, one at a time
 * as the kernel's loop does: an xa lookup per page not mapped yet, then
 * for a cached page the PTE (present bit), its map count and a pte_set.
 * The window lies in one chunk (first + nr <= 16).  The charges are the
 * same per-page amounts as `nr` separate lookups would make, added once
 * (a stretch of inline work is one sum).  Returns the pages mapped; the
 * caller counts them in the mm's rss.
 */
unsigned int filemap_map_pages(struct machine *m, struct address_space *mapping, unsigned long index,
			       unsigned int nr, uint16_t *mask, unsigned int first)
{
	const struct page_index *pi = &mapping->i_pages;
	unsigned int lookups = 0, mapped = 0;
	unsigned long c = ULONG_MAX;
	const pfn_t *chunk = NULL;
	uint16_t *mc = NULL;

	SIM_ASSERT(first + nr <= 8 * sizeof(*mask));
	for (unsigned int k = 0; k < nr; k++) {
		unsigned long idx = index + k;
		unsigned int b = first + k, i = idx & (PAGE_INDEX_CHUNK - 1);

		if (*mask & (1u << b))
			continue;
		lookups++;
		if (idx >> PAGE_INDEX_CHUNK_SHIFT != c) {
			c = idx >> PAGE_INDEX_CHUNK_SHIFT;
			chunk = c < pi->nr_chunks ? pi->chunk[c] : NULL;
			mc = NULL;
		}
		if (!chunk || chunk[i] == PFN_NONE)
			continue;
		*mask = (uint16_t)(*mask | 1u << b);
		if (!mc) {
			(void)mapcount_slot(mapping, idx, true);	/* creates the chunk's counts */
			mc = pi->mapcount[c];
		}
		SIM_ASSERT(mc[i] < UINT16_MAX);
		if (mc[i]++ == 0) {
			mapping->nrmapped++;
			__mod_node_page_state(&m->node, NR_FILE_MAPPED, 1);
		}
		mapped++;
	}
	mm_charge_each(m, COST_xa_lookup, lookups);
	mm_charge_each(m, COST_pte_set, mapped);
	return mapped;
}

unsigned int page_mapcount_dec(struct machine *m, struct address_space *mapping, unsigned long index)
{
	uint16_t *mc = mapcount_slot(mapping, index, false);

	SIM_ASSERT(mc && *mc > 0);
	if (--(*mc) == 0) {
		mapping->nrmapped--;
		__mod_node_page_state(&m->node, NR_FILE_MAPPED, -1);
	}
	return *mc;
}

unsigned int page_mapcount(const struct address_space *mapping, unsigned long index)
{
	const struct page_index *pi = &mapping->i_pages;
	unsigned long c = index >> PAGE_INDEX_CHUNK_SHIFT;

	if (c >= pi->nr_chunks || !pi->mapcount[c])
		return 0;
	return pi->mapcount[c][index & (PAGE_INDEX_CHUNK - 1)];
}

static bool folio_mapped_in(const struct address_space *mapping, const struct page *head)
{
	if (!mapping->nrmapped)
		return false;
	for (unsigned long i = 0; i < folio_nr_pages(head); i++)
		if (page_mapcount(mapping, head->index + i))
			return true;
	return false;
}

/* ---- __filemap_get_folio ------------------------------------------------------------ */

pfn_t filemap_alloc_folio(struct machine *m, gfp_t gfp, unsigned int order)
{
	pfn_t pfn;

	SIM_ASSERT(order <= MAX_PAGECACHE_ORDER);
	sim_path_push(m->sim, "filemap_alloc_folio");
	sim_stat_inc(m, (enum sim_stat_item)(SIM_PAGECACHE_ATTEMPT_ORDER0 + order));
	if (!(gfp & __GFP_DIRECT_RECLAIM))
		sim_stat_inc(m, SIM_PAGECACHE_NONBLOCKING);
	pfn = __alloc_pages(m, gfp | __GFP_COMP, order, NULL);
	if (pfn != PFN_NONE)
		sim_stat_inc(m, (enum sim_stat_item)(SIM_PAGECACHE_ALLOC_ORDER0 + order));
	sim_path_pop(m->sim);
	return pfn;
}

/*
 * The gfp of one attempt of the fallback loop (__filemap_get_folio, mm/filemap.c step 6):
 *   P1  (6.12/2026)  order > min:  + __GFP_NORETRY | __GFP_NOWARN
 *   P1  (6.6)        order > 0:    + __GFP_NORETRY | __GFP_NOWARN
 *   V2               order > min:  + __GFP_NOWARN; costly: - __GFP_DIRECT_RECLAIM,
 *                                  else + __GFP_NORETRY
 *   V3a              order > min:  - __GFP_DIRECT_RECLAIM, + __GFP_NOWARN
 *   V3b              first attempt: + NORETRY | NOWARN (full slow path);
 *                    later orders above min: also - __GFP_DIRECT_RECLAIM;
 *                    the min order: the unchanged gfp
 * The min order always uses the unchanged gfp.
 */
gfp_t filemap_attempt_gfp(const struct machine *m, gfp_t gfp, unsigned int order,
			  unsigned int min_order, bool first)
{
	const struct mm_policy *pol = mm_pol(m);

	if (pol->kernel == KERNEL_6_6)
		min_order = 0;		/* 6.6 has no min-order support: "order > 0" */
	if (order <= min_order)
		return gfp;
	switch (pol->filemap_rule) {
	case FILEMAP_COSTLY_NORECLAIM:
		gfp |= __GFP_NOWARN;
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			return gfp & ~__GFP_DIRECT_RECLAIM;
		return gfp | __GFP_NORETRY;
	case FILEMAP_NORECLAIM_ABOVE_MIN:
		return (gfp | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM;
	case FILEMAP_FIRST_ATTEMPT_NORETRY:
		gfp |= __GFP_NORETRY | __GFP_NOWARN;
		return first ? gfp : gfp & ~__GFP_DIRECT_RECLAIM;
	case FILEMAP_NORETRY_ABOVE_MIN:
	default:
		return gfp | __GFP_NORETRY | __GFP_NOWARN;
	}
}

/*
 * __filemap_get_folio() — models mm/filemap.c:__filemap_get_folio() of
 * 6.12 (__filemap_get_folio, mm/filemap.c), with the 6.6 loop (order 1 turned into 0,
 * __filemap_get_folio, mm/filemap.c step 7) when m->policy->kernel is KERNEL_6_6.  The 2026 kernel's
 * __filemap_get_folio_mpol has the 6.12 order loop (large folios, mm/filemap.c).
 * Simplified: no folio lock (FGP_LOCK is a no-op: folio locks are
 * uncontended in the workloads modelled, the i_rwsem serialises writers),
 * FGP_STABLE never waits (XFS on the modelled devices has no stable-page
 * requirement), no memcg charge in filemap_add_folio.
 */
pfn_t __filemap_get_folio(struct machine *m, struct address_space *mapping, unsigned long index,
			  fgf_t fgp_flags, gfp_t gfp, int *err)
{
	const struct mm_policy *pol = mm_pol(m);
	int dummy;
	pfn_t pfn;

	if (!err)
		err = &dummy;
	sim_path_push(m->sim, "__filemap_get_folio");
repeat:
	pfn = filemap_lookup(m, mapping, index);
	if (pfn != PFN_NONE) {
		if (fgp_flags & FGP_ACCESSED)
			folio_mark_accessed(m, pfn);
		*err = 0;
		goto out;
	}
	if (!(fgp_flags & FGP_CREAT)) {
		*err = -ENOENT;
		goto out;
	}
	{
		bool k66 = pol->kernel == KERNEL_6_6;
		unsigned int min_order = k66 ? 0 : mapping->min_order;
		unsigned int max_order = k66 ? (mapping->max_order ? MAX_PAGECACHE_ORDER : 0)
					     : mapping->max_order;
		unsigned int order = FGF_GET_ORDER(fgp_flags);
		bool first = true;
		int e = -ENOMEM;

		if (order < min_order)
			order = min_order;
		index &= ~((1UL << min_order) - 1);	/* mapping_align_index() */
		if ((fgp_flags & FGP_WRITE) && mapping_can_writeback(mapping))
			gfp |= __GFP_WRITE;
		if (fgp_flags & FGP_NOFS)
			gfp &= ~__GFP_FS;
		if (fgp_flags & FGP_NOWAIT) {
			gfp &= ~GFP_KERNEL;
			gfp |= GFP_NOWAIT | __GFP_NOWARN;
		}
		if (order > max_order)
			order = max_order;
		if (index & ((1UL << order) - 1))
			order = (unsigned int)__builtin_ctzl(index);
		for (;;) {
			gfp_t alloc_gfp;

			if (k66 && order == 1)
				order = 0;
			alloc_gfp = filemap_attempt_gfp(m, gfp, order, min_order, first);
			first = false;
			e = -ENOMEM;
			pfn = filemap_alloc_folio(m, alloc_gfp, order);
			if (pfn != PFN_NONE) {
				if (fgp_flags & FGP_ACCESSED)
					pfn_to_page(m, pfn)->flags |= PG_referenced;
				/* slowpath glue: the new folio is locked while it is
				 * inserted (filemap_add_folio may sync on lru_lock), so
				 * reclaim and migration leave it alone until we return */
				folio_trylock(m, pfn);
				e = filemap_add_folio(m, mapping, pfn, index);
				folio_unlock(m, pfn);
				if (e == 0)
					break;
				sim_stat_inc(m, SIM_PAGECACHE_EEXIST);
				free_pages(m, pfn, order);
				pfn = PFN_NONE;
			}
			if (order-- <= min_order)
				break;
		}
		if (e == -EEXIST)
			goto repeat;
		if (e) {
			sim_stat_inc(m, SIM_PAGECACHE_ENOMEM);
			*err = (fgp_flags & FGP_NOWAIT) ? -EAGAIN : e;
			pfn = PFN_NONE;
			goto out;
		}
		*err = 0;
	}
out:
	sim_path_pop(m->sim);
	return pfn;
}

/* ---- buffered read ---------------------------------------------------------------- */

/*
 * filemap_read() (6.12): for each page of the range, find the folio
 * (filemap_get_pages); on a miss run readahead (page_cache_sync_ra) and
 * look again; mark it accessed and copy to the user buffer.  Returns the
 * bytes read (short at EOF), or -ENOMEM when a page could not be brought
 * in.  Simplified: readahead is synchronous (readahead.c); no
 * page_cache_async_ra marker; folio_mark_accessed is called for every
 * folio copied from (the kernel skips repeated reads of the same folio
 * within one call, which a read never makes here).
 */
long filemap_read(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned long index, last;
	uint64_t end;
	long ret;

	if (pos >= inode->i_size || !len)
		return 0;
	if (len > inode->i_size - pos)
		len = inode->i_size - pos;
	end = pos + len;
	ret = (long)len;
	sim_path_push(m->sim, "filemap_read");
	index = (unsigned long)(pos >> PAGE_SHIFT);
	last = (unsigned long)((end - 1) >> PAGE_SHIFT);
	while (index <= last) {
		pfn_t pfn = filemap_lookup(m, mapping, index);
		const struct page *head;
		uint64_t fstart, fend, from, to;

		if (pfn == PFN_NONE) {
			page_cache_sync_ra(m, inode, index, last - index + 1);
			pfn = filemap_lookup(m, mapping, index);
			/* filemap_get_pages(): readahead's NORETRY allocations
			 * may all have failed; fall back to one min-order folio
			 * allocated with the mapping's gfp */
			while (pfn == PFN_NONE && filemap_create_folio(m, inode, index) != -ENOMEM)
				pfn = filemap_lookup(m, mapping, index);
			if (pfn == PFN_NONE) {
				ret = index == (unsigned long)(pos >> PAGE_SHIFT) ? -ENOMEM
					: (long)(((uint64_t)index << PAGE_SHIFT) - pos);
				goto out;
			}
		}
		head = pfn_to_page(m, pfn);
		folio_mark_accessed(m, pfn);
		fstart = (uint64_t)head->index << PAGE_SHIFT;
		fend = fstart + ((uint64_t)folio_nr_pages(head) << PAGE_SHIFT);
		from = pos > fstart ? pos : fstart;
		to = end < fend ? end : fend;
		mm_charge(m, COST_read_folio_copy, 1);
		mm_charge(m, COST_copy_user, (to - from + 1023) >> 10);
		index = (unsigned long)(fend >> PAGE_SHIFT);
	}
	inode->ra.prev_index = last;
out:
	sim_path_pop(m->sim);
	return ret;
}

/* ---- removal for reclaim and truncation --------------------------------------------- */

bool remove_mapping(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	unsigned int order = page_order(page);

	if (page_type(page) != PGTY_FILE || !mapping || !(page->flags & PG_isolated))
		return false;
	if (page->flags & (PG_dirty | PG_writeback | PG_lru))
		return false;
	if (folio_mapped_in(mapping, page))
		return false;
	__filemap_remove_folio(m, pfn);
	page->flags = 0;
	free_pages(m, pfn, order);
	return true;
}

/* The next folio head of `mapping` at an index >= start and <= end. */
static pfn_t filemap_next_folio(const struct address_space *mapping, unsigned long *index,
				unsigned long end)
{
	const struct page_index *pi = &mapping->i_pages;

	for (unsigned long c = *index >> PAGE_INDEX_CHUNK_SHIFT; c < pi->nr_chunks; c++) {
		unsigned long base = c << PAGE_INDEX_CHUNK_SHIFT;
		unsigned int from = base < *index ? (unsigned int)(*index - base) : 0;

		if (base > end)
			break;
		if (!pi->chunk[c])
			continue;
		for (unsigned int i = from; i < PAGE_INDEX_CHUNK && base + i <= end; i++) {
			if (pi->chunk[c][i] != PFN_NONE) {
				*index = base + i;
				return pi->chunk[c][i];
			}
		}
	}
	return PFN_NONE;
}

/*
 * truncate_inode_pages_range() (mm/truncate.c, 6.12).  Simplified: folios
 * straddling lstart or lend are kept whole (the kernel splits or zeroes
 * them; no data is modelled); no shadow entries.
 */
void truncate_inode_pages_range(struct machine *m, struct address_space *mapping,
				uint64_t lstart, uint64_t lend)
{
	unsigned long start = (unsigned long)((lstart + PAGE_SIZE - 1) >> PAGE_SHIFT);
	unsigned long end = lend == UINT64_MAX ? ULONG_MAX - 1 : (unsigned long)((lend + 1) >> PAGE_SHIFT);
	unsigned long index = start;
	pfn_t pfn;

	if (end == 0)
		return;
	end--;		/* last whole page */
	if (!mapping->nrpages || start > end)
		return;
	sim_path_push(m->sim, "truncate_inode_pages_range");
	while ((pfn = filemap_next_folio(mapping, &index, end)) != PFN_NONE) {
		struct page *page = pfn_to_page(m, pfn);
		unsigned long head = page->index, nr = folio_nr_pages(page);

		if (head < start || head + nr - 1 > end) {	/* partial: keep */
			index = head + nr;
			continue;
		}
		if (page->flags & PG_writeback) {
			folio_wait_writeback(m, pfn);
			continue;	/* look again: it may have changed */
		}
		SIM_ASSERT(!folio_mapped_in(mapping, page));
		if (page->flags & PG_dirty)
			folio_cancel_dirty(m, pfn);
		folio_lru_forget(m, pfn);
		__filemap_remove_folio(m, pfn);
		page->flags = 0;
		mm_charge(m, COST_truncate_folio, 1);
		free_pages(m, pfn, page_order(page));
		index = head + nr;
	}
	sim_path_pop(m->sim);
}

/* ---- checking ------------------------------------------------------------------- */

int mapping_check(const struct machine *m, char *buf, size_t len)
{
	for (uint32_t id = 1; id < m->nr_mapping_slots; id++) {
		const struct address_space *mapping = m->mappings[id];
		unsigned long pages = 0, tagged[NR_PAGECACHE_TAGS] = { 0 };

		if (!mapping)
			continue;
		if (mapping->id != id) {
			snprintf(buf, len, "mapping slot %u holds mapping id %u", id, mapping->id);
			return -1;
		}
		for (uint32_t c = 0; c < mapping->i_pages.nr_chunks; c++) {
			unsigned int used = 0;

			if (!mapping->i_pages.chunk[c])
				continue;
			for (unsigned int i = 0; i < PAGE_INDEX_CHUNK; i++) {
				unsigned long index = ((unsigned long)c << PAGE_INDEX_CHUNK_SHIFT) + i;
				pfn_t pfn = mapping->i_pages.chunk[c][i];
				const struct page *head;

				if (pfn == PFN_NONE)
					continue;
				used++;
				pages++;
				head = &m->mem_map[pfn];
				if (pfn >= m->nr_pfns || head->mapping != id ||
				    index < head->index || index >= head->index + (1UL << page_order(head))) {
					snprintf(buf, len, "mapping %u (%s) index %lu -> pfn %u, which is not "
						 "a folio of this mapping covering that index",
						 id, mapping->name, index, pfn);
					return -1;
				}
				if (index != head->index)
					continue;
				/* the head's slot carries the xarray marks of its flags */
				if (mapping_can_writeback(mapping) &&
				    (!!(head->flags & PG_dirty) != pagecache_tag_get(mapping, index, PAGECACHE_TAG_DIRTY) ||
				     !!(head->flags & PG_writeback) !=
					     pagecache_tag_get(mapping, index, PAGECACHE_TAG_WRITEBACK))) {
					snprintf(buf, len, "mapping %u (%s) folio at %lu (pfn %u): flags %#x "
						 "disagree with its dirty/writeback marks", id, mapping->name,
						 index, pfn, head->flags);
					return -1;
				}
				for (int t = 0; t < NR_PAGECACHE_TAGS; t++)
					tagged[t] += pagecache_tag_get(mapping, index, (enum pagecache_tag)t);
			}
			if (used != mapping->i_pages.used[c]) {
				snprintf(buf, len, "mapping %u chunk %u: %u slots used, counted %u",
					 id, c, used, mapping->i_pages.used[c]);
				return -1;
			}
		}
		if (pages != mapping->nrpages) {
			snprintf(buf, len, "mapping %u (%s): nrpages %lu, index holds %lu",
				 id, mapping->name, mapping->nrpages, pages);
			return -1;
		}
		for (int t = 0; t < NR_PAGECACHE_TAGS; t++) {
			if (tagged[t] != mapping->nr_tagged[t]) {
				snprintf(buf, len, "mapping %u (%s): %lu folios counted with mark %d, "
					 "%lu found", id, mapping->name, mapping->nr_tagged[t], t, tagged[t]);
				return -1;
			}
		}
	}
	return 0;
}
