/* SPDX-License-Identifier: MIT */
/*
 * migrate.c — moving folios to new pages for compaction (mm/migrate.c,
 * Linux 6.12.117; compact_zone, mm/compaction.c step 5c).
 *
 * migrate_pages(from, get_new, put_new, ...) takes each isolated folio:
 *   1. If its owner let it go while it was isolated (the isolation
 *      registry's orphan mark, the model's "refcount 1: freed from under
 *      us"), free it: a success.
 *   2. Get a destination (compaction_alloc: the free scanner's pages);
 *      none left -> -ENOMEM, the rest stay isolated for the caller.
 *   3. Lock the folio: async mode only try-locks (-EAGAIN, retried a few
 *      passes in the kernel, a failure here since nothing can change
 *      within one stretch of model time); direct compactors never sleep
 *      for it; kcompactd (sync-light) would, the model fails it too.
 *   4. Writeback: only MIGRATE_SYNC would wait for it; the model fails it
 *      in every mode (-EBUSY; nothing modelled migrates synchronously).
 *      Dirty folios whose mapping cannot migrate without writeback fail
 *      outside MIGRATE_SYNC (fallback_migrate_folio).
 *   5. Move: the destination takes the folio's identity and index slots
 *      (folio_migrate_mapping), its flags, and goes on the LRU; the
 *      source is freed (where a block of the compactor's order may be
 *      captured).  Cost: migrate_folio per folio, migrate_copy per page,
 *      rmap_walk for mapped folios (anon; page cache and shmem with a
 *      map count).
 * Failed folios stay on `from`; pgmigrate_success / pgmigrate_fail count
 * pages, thp_migration_* count PMD-sized folios.
 *
 * Simplifications: no NUMA or hugetlb migration, no splitting of large
 * folios that cannot be migrated whole, no batching of the TLB flush (its
 * saving is in the per-folio cost), no retry passes and no waiting for a
 * folio lock (see step 3).
 */
#include <errno.h>

#include "mm/compaction.h"
#include "mm/folio_lock.h"
#include "mm/pagemap.h"
#include "mm/swap.h"

static enum node_stat_item isolated_item(const struct page *page)
{
	return folio_is_file_lru(page) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON;
}

/* putback_movable_pages() (6.12): every folio on the list goes back (or
 * is freed if its owner let it go while it was isolated). */
void putback_movable_pages(struct machine *m, struct pfn_list *list)
{
	while (!pfn_list_empty(list)) {
		pfn_t pfn = list->head;

		pfn_list_del(m->mem_map, list, pfn);
		folio_putback_lru(m, pfn);
	}
}

/* folio_mapcount(): how many page-table entries map the folio.  An
 * anonymous folio is its owner's, once; page cache and shmem count their
 * pages' map counts (memory.c's side table). */
unsigned long folio_mapcount_model(const struct machine *m, pfn_t pfn)
{
	const struct page *page = pfn_to_page(m, pfn);
	const struct address_space *mapping = page_mapping_of(m, pfn);
	unsigned long n = 0;

	if (page_type(page) == PGTY_ANON)
		return 1;
	if (!mapping)
		return 0;
	for (unsigned long i = 0; i < folio_nr_pages(page); i++)
		n += page_mapcount(mapping, page->index + i);
	return n;
}

/* folio_mapped(): is the folio mapped by a process? */
bool folio_mapped_model(const struct machine *m, pfn_t pfn)
{
	return folio_mapcount_model(m, pfn) != 0;
}

/*
 * The rmap walks over a mapped page-cache or shmem folio (rmap_walk_file,
 * mm/rmap.c, 6.12): each visits the VMAs of the mapping's i_mmap tree
 * (nr_i_mmap: every VMA of the object, each taken to span the folio) and
 * looks the folio up in that process's page table (rmap_vma); a VMA that
 * maps it also has its PTE changed (rmap_pte).  try_to_migrate stops once
 * no mapping is left (folio_not_mapped): with j of the V VMAs mapping it at
 * random places in the tree, after V*j/(j+1) visits on average (the model
 * does not keep the tree's order); folio_referenced and
 * remove_migration_ptes visit all V.  `walks` of the second kind, plus the
 * first when `until_unmapped`; `mapped` is the folio's map count
 * (folio_mapcount_model).  PostgreSQL's shared buffers are mapped by
 * every backend: a migrated buffer page costs two walks over ~1 000 VMAs.
 * Not modelled: a process touching the folio meanwhile waits on the
 * migration entry (migration_entry_wait).
 */
void rmap_walk_file_charge(struct machine *m, pfn_t pfn, unsigned long mapped, unsigned int walks,
			   bool until_unmapped)
{
	const struct address_space *mapping = page_mapping_of(m, pfn);
	unsigned long visits, v;

	if (!mapping || page_type(pfn_to_page(m, pfn)) == PGTY_ANON)
		return;
	v = mapping->nr_i_mmap;
	visits = (unsigned long)walks * v;
	if (until_unmapped) {
		unsigned long j = mapped < v ? mapped : v;

		visits += (v * j + j) / (j + 1);	/* ceil(V*j/(j+1)) for j >= 1 */
	}
	mm_charge(m, COST_rmap_vma, visits);
	mm_charge(m, COST_rmap_pte, (walks + until_unmapped) * mapped);
	sim_stat_add(m, SIM_RMAP_VMA_VISITS, visits);
}

/*
 * One folio: 0 on success (the source is gone), -EAGAIN / -EBUSY on a
 * failure that leaves it isolated, -ENOMEM when no destination exists.
 */
static int migrate_one(struct machine *m, pfn_t src, new_folio_t get_new, free_folio_t put_new,
		       void *priv, enum migrate_mode mode)
{
	struct page *s = pfn_to_page(m, src);
	struct address_space *mapping;
	unsigned int order = page_order(s);
	unsigned long mapped;
	pfn_t dst;

	if (!s->mapping)		/* being torn down by its owner: leave it */
		return -EAGAIN;
	dst = get_new(m, src, priv);
	if (dst == PFN_NONE)
		return -ENOMEM;
	/* get_new may have run the free scanner, which can sync: recheck */
	if (folio_isolation_orphaned(m, src)) {
		put_new(m, dst, priv);
		return 1;
	}
	if (!s->mapping) {
		put_new(m, dst, priv);
		return -EAGAIN;
	}
	/* a locked folio is in use (being inserted or written): async and
	 * direct compaction fail it; kcompactd's sync-light mode would wait
	 * for the lock, the model fails it too (folio lock holders never
	 * expect a waiter, see folio_lock.h) */
	if (!folio_trylock(m, src)) {
		put_new(m, dst, priv);
		return -EAGAIN;
	}
	/* writeback: MIGRATE_SYNC would wait for it; the model fails it in
	 * every mode (no modelled caller migrates synchronously under I/O) */
	if (s->flags & PG_writeback) {
		folio_unlock(m, src);
		put_new(m, dst, priv);
		return -EBUSY;
	}
	mapping = folio_mapping_for_kernel(m, src);
	if ((s->flags & PG_dirty) && mapping && !(mapping->flags & AS_MIGRATE_NONBLOCKING) &&
	    mode != MIGRATE_SYNC) {
		folio_unlock(m, src);
		put_new(m, dst, priv);
		return -EBUSY;
	}

	/* move: identity, index slots and flags to dst; dst onto the LRU */
	mm_charge(m, COST_migrate_folio, 1);
	mm_charge(m, COST_migrate_copy, 1UL << order);
	mapped = folio_mapcount_model(m, src);
	if (mapped) {
		mm_charge(m, COST_rmap_walk, 1);
		/* try_to_migrate, then remove_migration_ptes */
		rmap_walk_file_charge(m, src, mapped, 1, true);
	}
	folio_migrate_mapping(m, dst, src);
	folio_unlock(m, src);
	folio_add_lru(m, dst);

	/* the source is freed */
	(void)folio_isolation_put(m, src);
	mod_node_page_state(&m->node, isolated_item(pfn_to_page(m, dst)), -(long)(1UL << order));
	s->flags = 0;
	free_unref_page(m, src, order);
	return 0;
}

/*
 * migrate_pages() — models mm/migrate.c:migrate_pages() (6.12) for
 * compaction; see the file comment for the steps and simplifications.
 */
int migrate_pages(struct machine *m, struct pfn_list *from, new_folio_t get_new,
		  free_folio_t put_new, void *priv, enum migrate_mode mode,
		  enum migrate_reason reason, unsigned int *nr_succeeded)
{
	struct pfn_list failed;
	unsigned long succeeded = 0, failed_pages = 0, thp_succeeded = 0, thp_failed = 0;
	int nr_failed = 0, rc = 0;

	(void)reason;
	pfn_list_init(&failed);
	sim_path_push(m->sim, "migrate_pages");
	while (!pfn_list_empty(from)) {
		pfn_t src = from->head;
		struct page *s = pfn_to_page(m, src);
		unsigned int order = page_order(s);
		bool thp = order >= HPAGE_PMD_ORDER;
		int r;

		pfn_list_del(m->mem_map, from, src);
		r = folio_isolation_orphaned(m, src) ? 1 : migrate_one(m, src, get_new, put_new, priv, mode);
		if (r == 1) {		/* freed from under us: done */
			(void)folio_isolation_put(m, src);
			folio_free_orphan(m, src);
			succeeded += 1UL << order;
		} else if (r == 0) {
			succeeded += 1UL << order;
			thp_succeeded += thp;
		} else if (r == -ENOMEM) {
			pfn_list_add(m->mem_map, from, src);
			rc = -ENOMEM;
			break;
		} else {
			pfn_list_add_tail(m->mem_map, &failed, src);
			failed_pages += 1UL << order;
			thp_failed += thp;
			nr_failed++;
		}
	}
	/* permanent failures go back on `from` for the caller's putback */
	pfn_list_splice(m->mem_map, &failed, from);
	count_vm_events(m, PGMIGRATE_SUCCESS, succeeded);
	count_vm_events(m, PGMIGRATE_FAIL, failed_pages);
	count_vm_events(m, THP_MIGRATION_SUCCESS, thp_succeeded);
	count_vm_events(m, THP_MIGRATION_FAIL, thp_failed);
	if (nr_succeeded)
		*nr_succeeded = (unsigned int)succeeded;
	sim_path_pop(m->sim);
	if (rc)
		return rc;
	return pfn_list_empty(from) ? 0 : nr_failed;
}
