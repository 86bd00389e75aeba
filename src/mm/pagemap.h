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
#include "sim/hostmem.h"

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

/* xarray marks (XA_MARK_0/1 as PAGECACHE_TAG_DIRTY/WRITEBACK), set on the
 * index of a folio's head only.  Kept per chunk as a bitmap with a count,
 * so tagged walks skip untagged chunks (the kernel's xas_find_marked). */
enum pagecache_tag {
	PAGECACHE_TAG_DIRTY,
	PAGECACHE_TAG_WRITEBACK,
	NR_PAGECACHE_TAGS
};

struct page_index_tags {
	uint64_t	bits[NR_PAGECACHE_TAGS][PAGE_INDEX_CHUNK / 64];
	uint16_t	count[NR_PAGECACHE_TAGS];
};

/* The machine's pools for the index's per-chunk records (host huge pages:
 * the shared buffers' page cache has tens of thousands of chunks, each
 * touched at random). */
struct page_index_pools {
	struct host_pool	pfns;		/* pfn_t[PAGE_INDEX_CHUNK] */
	struct host_pool	mapcounts;	/* uint16_t[PAGE_INDEX_CHUNK] */
	struct host_pool	tags;		/* struct page_index_tags */
};

struct page_index {
	struct page_index_pools *pools;	/* the machine's */
	pfn_t		**chunk;	/* [nr_chunks], NULL = all empty */
	uint16_t	*used;		/* [nr_chunks] slots in use per chunk */
	struct page_index_tags **tags;	/* [nr_chunks], NULL = no tag set */
	uint16_t	**mapcount;	/* [nr_chunks], per-page PTE mappings (shared
					 * mappings only; NULL = none mapped) */
	uint32_t	nr_chunks;
};

#define PT_REGION_CHUNKS	32	/* 64 KiB fault-around chunks per 2 MiB region */

struct pt_region_count {
	uint16_t		users;				/* processes holding its table */
	uint16_t		chunk[PT_REGION_CHUNKS];	/* processes holding each chunk */
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
	unsigned long		nr_tagged[NR_PAGECACHE_TAGS];	/* folios carrying each tag */
	unsigned long		nrmapped;	/* pages with mapcount > 0 */
	unsigned int		nr_i_mmap;	/* VMAs mapping it (its i_mmap tree's size;
						 * each taken to span every page) */
	struct sim_waitq	writeback_wait;	/* folio_wait_writeback() sleepers (the
						 * kernel's per-folio bit waitqueues) */
	void			*host;		/* owner object (inode, file, mm) */
	/* fault_model=drawn (memory.c): per 2 MiB region of the object, the
	 * processes holding a PTE table for it and per 64 KiB chunk those
	 * that faulted there; regions start at indices congruent to
	 * pt_users_phase modulo 512.  nr_drawn_windows: processes with a
	 * drawn window on it. */
	struct pt_region_count	*pt_users;
	unsigned long		nr_pt_users;
	unsigned int		pt_users_phase;
	unsigned int		nr_drawn_windows;
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

/* ---- tags (xa marks) ------------------------------------------------------ */

void pagecache_tag_set(struct address_space *mapping, unsigned long index, enum pagecache_tag tag);
void pagecache_tag_clear(struct address_space *mapping, unsigned long index, enum pagecache_tag tag);
bool pagecache_tag_get(const struct address_space *mapping, unsigned long index,
		       enum pagecache_tag tag);
/* First index >= start and <= end carrying `tag`, or ULONG_MAX (the
 * kernel's filemap_get_folios_tag / xas_find_marked walk). */
unsigned long pagecache_tag_next(const struct address_space *mapping, unsigned long start,
				 unsigned long end, enum pagecache_tag tag);
static inline bool mapping_tagged(const struct address_space *mapping, enum pagecache_tag tag)
{
	return mapping->nr_tagged[tag] != 0;
}

/* ---- per-page map counts of shared mappings (memory.c) -------------------- */

/* The kernel keeps folio->_mapcount; the model keeps a side table per
 * mapping (2 bytes per page of chunks that have mapped pages).  Returns
 * the new count.  NR_FILE_MAPPED follows 0 <-> 1 transitions (the
 * kernel's folio_add_file_rmap_ptes/folio_remove_rmap_ptes, per page). */
unsigned int page_mapcount_inc(struct machine *m, struct address_space *mapping, unsigned long index);
unsigned int page_mapcount_dec(struct machine *m, struct address_space *mapping, unsigned long index);
unsigned int page_mapcount(const struct address_space *mapping, unsigned long index);
/* do_fault_around's filemap_map_pages(): map the cached, unmapped pages
 * of [index, index + nr) into one 16-page chunk of a PTE mirror, whose
 * present bits for them are bits first .. first + nr - 1 of *mask;
 * returns the number mapped (filemap.c). */
unsigned int filemap_map_pages(struct machine *m, struct address_space *mapping, unsigned long index,
			       unsigned int nr, uint16_t *mask, unsigned int first);

/* ---- __filemap_get_folio and friends (filemap.c, mm/filemap.c) ---------- */

/* fgf_t (include/linux/pagemap.h, 6.12).  The preferred order lives in
 * bits 26..31 as in the kernel. */
typedef unsigned int fgf_t;
#define FGP_ACCESSED	0x01u
#define FGP_LOCK	0x02u
#define FGP_CREAT	0x04u
#define FGP_WRITE	0x08u
#define FGP_NOFS	0x10u
#define FGP_NOWAIT	0x20u
#define FGP_FOR_MMAP	0x40u
#define FGP_STABLE	0x80u
#define FGF_GET_ORDER(fgf)	((unsigned int)(fgf) >> 26)
#define FGP_WRITEBEGIN	(FGP_LOCK | FGP_WRITE | FGP_CREAT | FGP_STABLE)

/* filemap_get_order()/fgf_set_order(): floor(log2(size)) - PAGE_SHIFT,
 * 0 below two pages; the order is not clamped here (filemap does). */
static inline unsigned int filemap_get_order(unsigned long size)
{
	unsigned int shift = 63u - (unsigned int)__builtin_clzl(size | 1);

	return shift <= PAGE_SHIFT ? 0 : shift - PAGE_SHIFT;
}

static inline fgf_t fgf_set_order(unsigned long size)
{
	unsigned int order = filemap_get_order(size);

	return order ? (fgf_t)(order << 26) : 0;
}

/* mapping_can_writeback() */
static inline bool mapping_can_writeback(const struct address_space *mapping)
{
	return mapping->flags & AS_WRITEBACK_CAPABLE;
}

/*
 * filemap_alloc_folio() (6.12: folio_alloc -> __alloc_pages with
 * __GFP_COMP): one attempt of order `order`, counted in
 * sim_pagecache_attempt_order<N> and, on success, sim_pagecache_alloc_order<N>.
 * Returns the head pfn (PGTY_ALLOC) or PFN_NONE.
 */
pfn_t filemap_alloc_folio(struct machine *m, gfp_t gfp, unsigned int order);

/*
 * __filemap_get_folio() (mm/filemap.c steps 3-5, ; the gfp rule of each
 * attempt follows m->policy->filemap_rule, docs/slowpath.md, policy variants, and the kernel
 * generation m->policy->kernel).  Returns the head pfn of the folio
 * covering `index` (found or created), or PFN_NONE with *err = -ENOENT
 * (no FGP_CREAT), -ENOMEM (every order failed) or -EAGAIN (FGP_NOWAIT).
 * A found folio is returned whatever its order: no allocation happens.
 */
pfn_t __filemap_get_folio(struct machine *m, struct address_space *mapping, unsigned long index,
			  fgf_t fgp_flags, gfp_t gfp, int *err);

/*
 * The per-attempt gfp of __filemap_get_folio's fallback loop: base gfp
 * `gfp`, this attempt's `order`, the mapping's min order, whether it is
 * the loop's first attempt.  Exposed for tests; __filemap_get_folio, mm/filemap.c step 6 and docs/slowpath.md, policy variants.
 * For V3b (FILEMAP_FIRST_ATTEMPT_NORETRY) the result depends on the
 * attempt's position, hence `first`.
 */
gfp_t filemap_attempt_gfp(const struct machine *m, gfp_t gfp, unsigned int order,
			  unsigned int min_order, bool first);

/*
 * Reclaim's hook (vmscan.c calls it; the kernel's remove_mapping() +
 * the final folio put).  Frees a clean, unmapped, not-under-writeback
 * page-cache folio that reclaim has isolated (PG_isolated set, off the
 * LRU): removes it from its mapping's index and counters (NR_FILE_PAGES)
 * and frees the block.  PG_isolated is cleared but NR_ISOLATED_FILE is
 * left to the caller, as shrink_inactive_list() settles it for the whole
 * batch.  Returns false (and changes nothing) when the folio is dirty,
 * under writeback, or mapped by a process, or is not a page-cache folio
 * (shmem and anon folios need swap, which is not modelled).
 */
bool remove_mapping(struct machine *m, pfn_t pfn);

/*
 * truncate_inode_pages_range(): drop every folio of `mapping` that lies
 * wholly inside [lstart, lend] (byte offsets, lend inclusive), waiting for
 * writeback first (task context when any folio is under writeback).  Dirty
 * folios are cancelled (their dirty accounting undone).  Partial folios
 * at the edges stay (the kernel zeroes the partial range; no data is
 * modelled).  Mapped pages are a bug here: callers unmap first.
 */
void truncate_inode_pages_range(struct machine *m, struct address_space *mapping,
				uint64_t lstart, uint64_t lend);

/* Debug: verify every mapping's index against the frames (mm_check). */
int mapping_check(const struct machine *m, char *buf, size_t len);

#endif /* SLOWPATH_MM_PAGEMAP_H */
