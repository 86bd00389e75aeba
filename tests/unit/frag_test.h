/* SPDX-License-Identifier: MIT */
/*
 * frag_test.h — building exact fragmented zones for the slow-path,
 * compaction and reclaim tests: a pattern string is repeated over a pfn
 * range, one character per page:
 *
 *   .  free (left in the buddy allocator)
 *   K  unmovable kernel page        P  page-table page
 *   F  clean page-cache folio       D  dirty page-cache folio
 *   W  page-cache folio under writeback
 *   L  clean page-cache folio held locked (a writer is using it)
 *   U  unevictable page-cache folio
 *   A  anonymous folio              S  shmem folio
 *
 * Page-cache folios belong to one XFS-like mapping (gfp without __GFP_FS,
 * non-blocking migrate_folio), anon and shmem to one mapping each; all
 * LRU folios end up on the LRU lists (the per-CPU batches are drained).
 * Header-only, included after mm_test.h.
 */
#ifndef SLOWPATH_TEST_FRAG_TEST_H
#define SLOWPATH_TEST_FRAG_TEST_H

#include "mm/folio_lock.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/writeback.h"
#include "mm_test.h"

#define XFS_MAPPING_GFP	(GFP_HIGHUSER_MOVABLE & ~__GFP_FS)

struct frag {
	struct machine		*m;
	struct address_space	*file, *anon, *shmem;
	unsigned long		file_index, anon_index, shmem_index;
};

static inline void frag_init(struct frag *f, struct machine *m)
{
	memset(f, 0, sizeof(*f));
	f->m = m;
	f->file = mapping_create(m, MAPPING_FILE, XFS_MAPPING_GFP, 0, 9,
				 AS_WRITEBACK_CAPABLE | AS_MIGRATE_NONBLOCKING, NULL, "file");
	f->anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "anon");
	f->shmem = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 9,
				  AS_MIGRATE_NONBLOCKING, NULL, "shmem");
}

/* ---- a machine with one fragmented zone ---------------------------------- */

/* 64 MiB, one Normal zone, 2 CPUs, min_free_kbytes 1024 */
static const char *const frag_kv64[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
					 "vm.min_free_kbytes=1024", NULL };

struct frag_env {
	struct mm_env		e;
	struct frag		f;
	struct mm_policy	pol;
	struct machine		*m;
	struct zone		*zone;
};

static inline bool frag_pattern(struct frag *f, pfn_t start, pfn_t end, const char *pattern);

/* A machine from `kv` (NULL: frag_kv64) under `policy` (NULL: baseline)
 * whose Normal zone is `pattern` repeated (NULL: all free); the engine
 * runs on CPU 0.  NULL if something failed. */
static inline struct machine *frag_env_create(struct frag_env *v, const char *const *kv,
					      const struct mm_policy *policy, const char *pattern)
{
	if (policy)
		v->pol = *policy;
	v->m = mm_env_create_policy(&v->e, kv ? kv : frag_kv64, policy ? &v->pol : NULL);
	if (!v->m)
		return NULL;
	sim_set_engine_cpu(v->e.sim, 0);
	frag_init(&v->f, v->m);
	v->zone = mm_zone(v->m, ZONE_NORMAL);
	if (pattern && !frag_pattern(&v->f, (pfn_t)v->zone->zone_start_pfn, (pfn_t)zone_end_pfn(v->zone),
				     pattern))
		return NULL;
	return v->m;
}

static inline uint64_t ev(struct machine *m, enum vm_event_item i)
{
	return sum_vm_event(m, i);
}

static inline uint64_t st(struct machine *m, enum sim_stat_item i)
{
	return sim_stat_read(m, i);
}

/* Make the free block at pfn (of `order`, naturally aligned, all pages
 * free) the role `c`.  Returns false if a page was not free. */
static inline bool frag_take(struct frag *f, pfn_t pfn, unsigned int order, char c)
{
	struct machine *m = f->m;
	struct address_space *mapping = NULL;
	unsigned long *index = NULL;
	struct page *page;

	for (pfn_t p = pfn; p < pfn + (1u << order); p++)
		if (!take_page_off_buddy(m, p))
			return false;
	page = pfn_to_page(m, pfn);
	/* join the order-0 pieces into one block of `order` */
	for (pfn_t p = pfn + 1; p < pfn + (1u << order); p++)
		set_page_type_order(pfn_to_page(m, p), PGTY_TAIL, 0);
	set_page_type_order(page, PGTY_ALLOC, order);
	switch (c) {
	case 'K':
		set_page_type_order(page, PGTY_KERNEL, order);
		return true;
	case 'P':
		set_page_type_order(page, PGTY_PGTABLE, order);
		return true;
	case 'A':
		mapping = f->anon;
		index = &f->anon_index;
		break;
	case 'S':
		mapping = f->shmem;
		index = &f->shmem_index;
		break;
	default:
		mapping = f->file;
		index = &f->file_index;
		break;
	}
	*index = (*index + (1UL << order) - 1) & ~((1UL << order) - 1);
	if (__filemap_add_folio(m, mapping, pfn, *index))
		return false;
	*index += 1UL << order;
	switch (c) {
	case 'D': folio_mark_dirty(m, pfn); break;
	case 'W':			/* dirtied, then writeback started */
		folio_mark_dirty(m, pfn);
		folio_clear_dirty_for_io(m, pfn);
		folio_start_writeback(m, pfn);
		break;
	case 'U': page->flags |= PG_unevictable; break;
	case 'L': folio_trylock(m, pfn); break;
	default: break;
	}
	folio_add_lru(m, pfn);
	return true;
}

/* Apply `pattern` (order-0 pages) repeatedly over [start, end). */
static inline bool frag_pattern(struct frag *f, pfn_t start, pfn_t end, const char *pattern)
{
	size_t n = strlen(pattern);

	for (pfn_t p = start; p < end; p++) {
		char c = pattern[(p - start) % n];

		if (c != '.' && !frag_take(f, p, 0, c))
			return false;
	}
	lru_add_drain_all(f->m);
	return true;
}

/* Run fn(m, arg) inside an engine task (task context: it may sleep and
 * take contended locks), then run the engine until `until` ns. */
struct frag_task_call {
	void		(*fn)(struct machine *m, void *arg);
	struct machine	*m;
	void		*arg;
	bool		done;
};

static inline void frag_task_trampoline(struct sim *sim, void *a)
{
	struct frag_task_call *c = a;

	(void)sim;
	c->fn(c->m, c->arg);
	c->done = true;
}

static inline struct sim_task *frag_task(struct machine *m, struct frag_task_call *c, const char *name,
					  int cpu, sim_time_t start)
{
	struct sim_task_config cfg = {
		.name = name, .kind = sim_task_kind(machine_sim(m), "test"), .cpu = cpu,
	};

	c->m = m;
	c->done = false;
	return sim_task_create(machine_sim(m), &cfg, frag_task_trampoline, c, start);
}

#endif
