/* SPDX-License-Identifier: MIT */
/*
 * pagemap.h — owners of movable user memory: struct address_space for
 * page-cache files, shmem objects and (in the model) anonymous memory,
 * and the page-cache index that maps a page index to the folio covering
 * it (include/linux/pagemap.h, include/linux/fs.h, mm/filemap.c; 6.12).
 *
 * The kernel's i_pages xarray stores one multi-index entry per folio; the
 * model stores the head pfn in every slot the folio covers, in a
 * two-level array of 1024-slot chunks allocated on demand:
 *
 *   i_pages.chunk[index >> 10][index & 1023] = head pfn | PFN_NONE
 *
 * Lookup is O(1); inserting or removing an order-k folio touches 2^k slots
 * (charged as the kernel's xas_store of a multi-index entry would be,
 * per slot).  Folio heads record their owner as struct page.mapping (the
 * mapping id) and .index (the head's page index), types.h.
 *
 * Anonymous memory in the kernel has no address_space (folio->mapping
 * points to an anon_vma); the model gives each process's anonymous
 * memory a mapping of kind MAPPING_ANON indexed by virtual page number so
 * that exit, reclaim and migration find it the same way.  Code that
 * models kernel checks on folio_mapping() must treat MAPPING_ANON as "no
 * mapping" (folio_mapping_for_kernel()).
 *
 * Simplifications: no memcg charge on insertion; no shadow (workingset)
 * entries; no xarray node allocation (the kernel's filemap_add_folio can
 * fail allocating an xa_node — it practically never does).
 */
#ifndef SLOWPATH_MM_PAGEMAP_H
#define SLOWPATH_MM_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/gfp.h"
#include "mm/types.h"

struct machine;

enum mapping_kind {
	MAPPING_FILE,		/* regular file page cache (file LRU) */
	MAPPING_SHMEM,		/* shmem/tmpfs object (anon LRU, swap-backed) */
	MAPPING_ANON,		/* a process's anonymous memory (model-only owner) */
};

/* address_space flags (AS_* in pagemap.h, plus model-only ones) */
enum mapping_flags {
	AS_UNEVICTABLE		= 1u << 0,	/* mapping_set_unevictable (ramfs, SHM_LOCK) */
	AS_LARGE_FOLIO_SUPPORT	= 1u << 1,	/* folio order range above 0 */
	/* a_ops->migrate_folio can migrate a dirty folio without blocking
	 * (filemap_migrate_folio; XFS/iomap and shmem have it) */
	AS_MIGRATE_NONBLOCKING	= 1u << 2,
	AS_WRITEBACK_CAPABLE	= 1u << 3,	/* mapping_can_writeback(): dirty accounting */
};

#define PAGE_INDEX_CHUNK_SHIFT	10
#define PAGE_INDEX_CHUNK	(1u << PAGE_INDEX_CHUNK_SHIFT)

struct page_index {
	pfn_t		**chunk;	/* [nr_chunks], NULL = all empty */
	uint16_t	*used;		/* [nr_chunks] slots in use per chunk */
	uint32_t	nr_chunks;
};

struct address_space {
	uint16_t		id;		/* struct page.mapping of its folios */
	uint8_t			kind;		/* enum mapping_kind */
	uint8_t			min_order;	/* mapping_min_folio_order() */
	uint8_t			max_order;	/* mapping_max_folio_order() */
	uint32_t		flags;		/* enum mapping_flags */
	gfp_t			gfp_mask;	/* mapping_gfp_mask(); XFS: GFP_HIGHUSER_MOVABLE & ~__GFP_FS */
	unsigned long		nrpages;	/* pages in the page cache */
	struct page_index	i_pages;
	void			*host;		/* owner object (inode, file, mm) */
	char			name[48];	/* for reports and errors */
};

/*
 * Create an empty mapping (id = lowest free id; at most 65535 live).
 * Returns NULL when every id is in use.
 */
struct address_space *mapping_create(struct machine *m, enum mapping_kind kind, gfp_t gfp_mask,
				     unsigned int min_order, unsigned int max_order,
				     uint32_t flags, void *host, const char *name);
/* Destroy an empty mapping (nrpages must be 0); its id becomes free. */
void mapping_destroy(struct machine *m, struct address_space *mapping);
void mapping_table_release(struct machine *m);	/* machine_destroy */

/* The owner of a folio head (NULL for pages without a mapping). */
struct address_space *page_mapping_of(const struct machine *m, pfn_t pfn);

/* folio_mapping() as the kernel's checks see it: NULL for anonymous
 * memory (MAPPING_ANON) and for non-folio pages. */
struct address_space *folio_mapping_for_kernel(const struct machine *m, pfn_t pfn);

/* filemap_get_entry(): head pfn of the folio covering `index`, or PFN_NONE. */
pfn_t filemap_lookup(struct machine *m, const struct address_space *mapping, unsigned long index);

/*
 * __filemap_add_folio(): insert an allocated block (head at `pfn`, order
 * from the head, naturally aligned `index`) as a folio of `mapping`.
 * Sets the head's type (PGTY_FILE/SHMEM/ANON by mapping kind), mapping
 * and index, counts NR_FILE_PAGES (+ NR_SHMEM for shmem) for page-cache
 * kinds.  Returns 0, or -EEXIST if any covered slot is occupied (nothing
 * changed).  Does not add the folio to an LRU: filemap_add_folio() does.
 */
int __filemap_add_folio(struct machine *m, struct address_space *mapping, pfn_t pfn,
			unsigned long index);
/* filemap_add_folio(): __filemap_add_folio() then folio_add_lru(). */
int filemap_add_folio(struct machine *m, struct address_space *mapping, pfn_t pfn,
		      unsigned long index);

/*
 * __filemap_remove_folio(): remove a folio from its mapping's index and
 * counters; the head keeps its type and order (the caller frees it, after
 * taking it off the LRU).  The head's mapping field becomes 0.
 */
void __filemap_remove_folio(struct machine *m, pfn_t pfn);

/*
 * folio_migrate_mapping() (mm/migrate.c, 6.12): make the block at `dst`
 * (already allocated with the same order) take over the identity of the
 * folio at `src`: head type, mapping, index and flags (PG_lru,
 * PG_isolated excepted, they stay with the caller's bookkeeping), the
 * index slots.  `src` keeps its type so the caller can free it.
 */
void folio_migrate_mapping(struct machine *m, pfn_t dst, pfn_t src);

/* Debug: verify every mapping's index against the frames (mm_check). */
int mapping_check(const struct machine *m, char *buf, size_t len);

#endif /* SLOWPATH_MM_PAGEMAP_H */
