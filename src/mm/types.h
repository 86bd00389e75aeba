/* SPDX-License-Identifier: MIT */
/*
 * types.h — vocabulary and the page-frame record of the mm model.
 *
 * Glossary (used exactly so everywhere in src/mm/):
 *   pfn        page frame number: index of a 4 KiB frame in the machine's
 *              frame array (32 bits: up to 16 TiB of simulated memory).
 *   page       one 4 KiB frame.  "page" never means a block.
 *   block      2^order naturally aligned pages handled as one unit by the
 *              buddy allocator (free) or by its owner (allocated).
 *   folio      an allocated block owned by the page cache, shmem or anon
 *              memory; its head page carries the owner and the LRU links.
 *   order      log2 of a block's page count, 0..MAX_PAGE_ORDER.
 *   pageblock  2^pageblock_order pages (2 MiB) sharing one migratetype
 *              and one compaction skip bit.
 *   zone       a pfn range of one node with its own free lists,
 *              watermarks and per-CPU lists.
 *
 * The page-frame record (struct page) is 16 bytes — the budget in
 * the project's speed target — laid out field by field below.  Lists link by 32-bit pfn
 * (PFN_NONE terminates), never by pointer, so runs are byte-identical
 * across builds and address-space layouts.
 */
#ifndef SLOWPATH_MM_TYPES_H
#define SLOWPATH_MM_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t pfn_t;
#define PFN_NONE		UINT32_MAX

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define MAX_PAGE_ORDER		10		/* arm64 4K default; NR_PAGE_ORDERS = 11 */
#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)
#define PAGE_ALLOC_COSTLY_ORDER	3
#define PAGEBLOCK_ORDER		9		/* min(HPAGE_PMD_ORDER, MAX_PAGE_ORDER) */
#define PAGEBLOCK_NR_PAGES	(1U << PAGEBLOCK_ORDER)
#define MAX_PAGECACHE_ORDER	9		/* min(11, HPAGE_PMD_ORDER) with THP */

/* Migratetypes in the kernel's enum order (include/linux/mmzone.h, 6.12,
 * CONFIG_CMA off, CONFIG_MEMORY_ISOLATION on). */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,			/* number of types on the pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

/*
 * What a frame currently is.  Exactly one per frame (mm_check verifies).
 * Only the head page of a block carries the block's type; its other pages
 * are PGTY_TAIL.
 */
enum page_type {
	PGTY_RESERVED = 0,	/* hole, firmware, memmap: never managed */
	PGTY_BUDDY,		/* head of a free block on a zone free_area list */
	PGTY_PCP,		/* head of a free block on a per-CPU list */
	PGTY_TAIL,		/* non-head page of any block */
	PGTY_KERNEL,		/* unmovable kernel allocation (slab, stacks, misc) */
	PGTY_RECLAIMABLE,	/* reclaimable kernel allocation (dentry/inode slab) */
	PGTY_PGTABLE,		/* page-table page (PTE/PMD), unmovable */
	PGTY_FILE,		/* page-cache folio head (file LRU) */
	PGTY_SHMEM,		/* shmem/tmpfs folio head (anon LRU, swap-backed) */
	PGTY_ANON,		/* anonymous folio head (anon LRU) */
	PGTY_HUGETLB,		/* hugetlb pool page head (free in pool or mapped) */
	PGTY_ALLOC,		/* allocated without an owner (tests, drivers, fio buffers) */
	NR_PAGE_TYPES
};

/* Per-page flag bits (struct page.flags).  Meaningful on heads only. */
enum pageflags {
	PG_lru		= 1u << 0,	/* on an LRU list (next/prev are LRU links) */
	PG_active	= 1u << 1,
	PG_referenced	= 1u << 2,
	PG_dirty	= 1u << 3,
	PG_writeback	= 1u << 4,
	PG_unevictable	= 1u << 5,
	PG_isolated	= 1u << 6,	/* isolated from its LRU by compaction or reclaim */
	PG_reclaim	= 1u << 7,	/* reclaim wants it freed after writeback */
};

/*
 * struct page — 16 bytes per 4 KiB frame.
 *
 *   offset size field       meaning
 *   0      4    next        list link: free_area list (PGTY_BUDDY), pcp list
 *                           (PGTY_PCP), LRU list (PG_lru), or the owner's
 *                           private list (page tables of one mm); PFN_NONE ends
 *   4      4    prev        the other direction of the same list
 *   8      4    index       PGTY_FILE/SHMEM/ANON: page index of the folio head
 *                           in its mapping; PGTY_PGTABLE: owning mm id;
 *                           PGTY_BUDDY: migratetype of the list it is on;
 *                           PGTY_PCP: pcp list index; others: owner-defined
 *   12     2    mapping     mapping id (file, shmem object, anon mapping);
 *                           0 = none; mm keeps the id -> object table
 *   14     1    type_order  high nibble: enum page_type; low nibble: order of
 *                           the block (valid on heads)
 *   15     1    flags       enum pageflags
 *
 * The kernel spends 64 bytes per struct page; everything it keeps that the
 * model needs but this record cannot hold (refcounts, mapcounts, memcg)
 * is either not modelled or kept per owner object.
 */
struct page {
	uint32_t next;
	uint32_t prev;
	uint32_t index;
	uint16_t mapping;
	uint8_t  type_order;
	uint8_t  flags;
};

_Static_assert(sizeof(struct page) == 16, "struct page must stay 16 bytes");

static inline enum page_type page_type(const struct page *p)
{
	return (enum page_type)(p->type_order >> 4);
}

static inline unsigned int page_order(const struct page *p)
{
	return p->type_order & 0xf;
}

static inline void set_page_type_order(struct page *p, enum page_type t, unsigned int order)
{
	p->type_order = (uint8_t)(((unsigned)t << 4) | (order & 0xf));
}

#endif /* SLOWPATH_MM_TYPES_H */
