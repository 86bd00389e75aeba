/* SPDX-License-Identifier: MIT */
/*
 * shmem.c — shmem objects: shared anonymous memory and SysV/POSIX shared
 * memory (mm/shmem.c, Linux 6.12).
 *
 * An object is a MAPPING_SHMEM mapping (gfp GFP_HIGHUSER_MOVABLE, order
 * 0, AS_MIGRATE_NONBLOCKING: shmem's migrate_folio never blocks on a
 * clean or dirty folio).  shmem_get_folio (SGP_CACHE) allocates a missing
 * page with the mapping's gfp, zeroes it (clear_highpage), adds it to the
 * index (NR_FILE_PAGES and NR_SHMEM) and to the anon LRU (swap-backed).
 * Without a swap device such pages are unevictable in effect: reclaim
 * (vmscan.c) does not scan anon lists when there is no swap.
 *
 * Simplifications: no shmem THP (shmem_enabled=never, the reference
 * machine's setting), no swap, no size limit (the object's size is only
 * checked by assertion), no memcg charge.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "mm/internal.h"
#include "mm/memory.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/vmstat.h"

struct shmem_object {
	struct machine		*m;
	struct address_space	*mapping;
	unsigned long		size;		/* bytes */
	unsigned int		refs;
	struct shmem_object	*list_prev, *list_next;	/* machine's shmem_list */
};

static void shmem_unlist(struct shmem_object *obj)
{
	struct machine *m = obj->m;

	if (obj->list_prev)
		obj->list_prev->list_next = obj->list_next;
	else
		m->shmem_list = obj->list_next;
	if (obj->list_next)
		obj->list_next->list_prev = obj->list_prev;
}

/* machine_destroy: objects still referenced when the run ended (their
 * mappings go with the machine's mapping table). */
void shmem_release_all(struct machine *m)
{
	while (m->shmem_list) {
		struct shmem_object *obj = m->shmem_list;

		shmem_unlist(obj);
		free(obj);
	}
}

struct shmem_object *shmem_create(struct machine *m, unsigned long size, const char *name)
{
	struct shmem_object *obj = calloc(1, sizeof(*obj));

	if (!obj)
		SIM_BUG("out of memory for a shmem object");
	obj->m = m;
	obj->size = size;
	obj->refs = 1;
	obj->list_next = m->shmem_list;
	if (m->shmem_list)
		m->shmem_list->list_prev = obj;
	m->shmem_list = obj;
	obj->mapping = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 0,
				      AS_MIGRATE_NONBLOCKING, obj, name);
	if (!obj->mapping)
		SIM_BUG("out of mapping ids for shmem %s", name);
	return obj;
}

struct address_space *shmem_mapping(struct shmem_object *obj)
{
	return obj->mapping;
}

void shmem_get(struct shmem_object *obj)
{
	obj->refs++;
}

/* shmem_evict_inode -> shmem_truncate_range(0, -1) on the last put. */
void shmem_put(struct shmem_object *obj)
{
	struct machine *m = obj->m;

	SIM_ASSERT(obj->refs > 0);
	if (--obj->refs)
		return;
	truncate_inode_pages_range(m, obj->mapping, 0, UINT64_MAX);
	mapping_destroy(m, obj->mapping);
	shmem_unlist(obj);
	free(obj);
}

pfn_t shmem_get_folio(struct shmem_object *obj, unsigned long index)
{
	struct machine *m = obj->m;
	pfn_t pfn = filemap_lookup(m, obj->mapping, index);

	if (pfn != PFN_NONE)
		return pfn;
	SIM_ASSERT(((uint64_t)index << PAGE_SHIFT) < obj->size);
	sim_path_push(m->sim, "shmem_alloc_folio");
	pfn = alloc_pages(m, obj->mapping->gfp_mask, 0, PGTY_ALLOC);
	sim_path_pop(m->sim);
	if (pfn == PFN_NONE)
		return PFN_NONE;
	mm_charge(m, COST_clear_page, 1);
	if (filemap_add_folio(m, obj->mapping, pfn, index) == -EEXIST) {
		/* another task faulted it in while the allocation waited on a
		 * lock: use theirs (shmem_get_folio_gfp retries the lookup) */
		sim_stat_inc(m, SIM_PAGECACHE_EEXIST);
		free_pages(m, pfn, 0);
		pfn = filemap_lookup(m, obj->mapping, index);
	}
	return pfn;
}
