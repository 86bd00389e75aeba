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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmstat.h"

#define MAX_MAPPINGS	65535u

static void *xrealloc_zero(void *p, size_t old_n, size_t new_n, size_t size)
{
	char *q = realloc(p, new_n * size);

	if (!q)
		SIM_BUG("out of memory growing a table to %zu entries", new_n);
	memset(q + old_n * size, 0, (new_n - old_n) * size);
	return q;
}

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
		m->mappings = xrealloc_zero(m->mappings, m->nr_mapping_slots, n, sizeof(*m->mappings));
		m->nr_mapping_slots = n;
	}
	mapping = calloc(1, sizeof(*mapping));
	if (!mapping)
		SIM_BUG("out of memory creating a mapping");
	mapping->id = (uint16_t)id;
	mapping->kind = (uint8_t)kind;
	mapping->min_order = (uint8_t)min_order;
	mapping->max_order = (uint8_t)max_order;
	mapping->flags = flags | (max_order > 0 ? AS_LARGE_FOLIO_SUPPORT : 0);
	mapping->gfp_mask = gfp_mask;
	mapping->host = host;
	snprintf(mapping->name, sizeof(mapping->name), "%s", name ? name : "");
	m->mappings[id] = mapping;
	m->nr_mappings++;
	return mapping;
}

static void page_index_release(struct page_index *pi)
{
	for (uint32_t i = 0; i < pi->nr_chunks; i++)
		free(pi->chunk[i]);
	free(pi->chunk);
	free(pi->used);
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
		free(mapping);
	}
	free(m->mappings);
	m->mappings = NULL;
	m->nr_mapping_slots = m->nr_mappings = 0;
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
		pi->chunk = xrealloc_zero(pi->chunk, pi->nr_chunks, n, sizeof(*pi->chunk));
		pi->used = xrealloc_zero(pi->used, pi->nr_chunks, n, sizeof(*pi->used));
		pi->nr_chunks = n;
	}
	if (!pi->chunk[c]) {
		pi->chunk[c] = malloc(PAGE_INDEX_CHUNK * sizeof(pfn_t));
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
		free(pi->chunk[c]);
		pi->chunk[c] = NULL;
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
	mapping->nrpages += nr;
	account_page_cache(m, mapping, (long)nr);
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
	s->mapping = 0;
	s->flags &= (uint8_t)(PG_lru | PG_isolated);
}

/* ---- checking ------------------------------------------------------------------- */

int mapping_check(const struct machine *m, char *buf, size_t len)
{
	for (uint32_t id = 1; id < m->nr_mapping_slots; id++) {
		const struct address_space *mapping = m->mappings[id];
		unsigned long pages = 0;

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
	}
	return 0;
}
