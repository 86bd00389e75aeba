/* SPDX-License-Identifier: MIT */
/*
 * gfp.h — allocation flags with the kernel's bit values
 * (include/linux/gfp_types.h and include/linux/gfp.h, Linux 6.12).
 *
 * Config assumptions for the bit numbering (arm64 distribution kernel):
 * CONFIG_KASAN_HW_TAGS off (so __GFP_SKIP_ZERO and __GFP_SKIP_KASAN are
 * 0), CONFIG_LOCKDEP off (__GFP_NOLOCKDEP is 0), CONFIG_SLAB_OBJ_EXT on
 * (memcg: __GFP_NO_OBJ_EXT is bit 24).  The values matter only for
 * printing masks; the model tests bits by name.
 */
#ifndef SLOWPATH_MM_GFP_H
#define SLOWPATH_MM_GFP_H

#include <stdbool.h>

#include "mm/mmzone.h"
#include "mm/types.h"

typedef unsigned int gfp_t;

#define ___GFP_DMA		0x01u
#define ___GFP_HIGHMEM		0x02u
#define ___GFP_DMA32		0x04u
#define ___GFP_MOVABLE		0x08u
#define ___GFP_RECLAIMABLE	0x10u
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_ZERO		0x100u
/* 0x200u unused */
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define ___GFP_WRITE		0x1000u
#define ___GFP_NOWARN		0x2000u
#define ___GFP_RETRY_MAYFAIL	0x4000u
#define ___GFP_NOFAIL		0x8000u
#define ___GFP_NORETRY		0x10000u
#define ___GFP_MEMALLOC		0x20000u
#define ___GFP_COMP		0x40000u
#define ___GFP_NOMEMALLOC	0x80000u
#define ___GFP_HARDWALL		0x100000u
#define ___GFP_THISNODE		0x200000u
#define ___GFP_ACCOUNT		0x400000u
#define ___GFP_ZEROTAGS		0x800000u
#define ___GFP_NO_OBJ_EXT	0x1000000u
#define ___GFP_SKIP_ZERO	0u
#define ___GFP_SKIP_KASAN	0u
#define ___GFP_NOLOCKDEP	0u

#define __GFP_DMA		___GFP_DMA
#define __GFP_HIGHMEM		___GFP_HIGHMEM
#define __GFP_DMA32		___GFP_DMA32
#define __GFP_MOVABLE		___GFP_MOVABLE
#define GFP_ZONEMASK		(__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE)
#define __GFP_RECLAIMABLE	___GFP_RECLAIMABLE
#define __GFP_WRITE		___GFP_WRITE
#define __GFP_HARDWALL		___GFP_HARDWALL
#define __GFP_THISNODE		___GFP_THISNODE
#define __GFP_ACCOUNT		___GFP_ACCOUNT
#define __GFP_NO_OBJ_EXT	___GFP_NO_OBJ_EXT
#define __GFP_HIGH		___GFP_HIGH
#define __GFP_MEMALLOC		___GFP_MEMALLOC
#define __GFP_NOMEMALLOC	___GFP_NOMEMALLOC
#define __GFP_IO		___GFP_IO
#define __GFP_FS		___GFP_FS
#define __GFP_DIRECT_RECLAIM	___GFP_DIRECT_RECLAIM
#define __GFP_KSWAPD_RECLAIM	___GFP_KSWAPD_RECLAIM
#define __GFP_RECLAIM		(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM)
#define __GFP_RETRY_MAYFAIL	___GFP_RETRY_MAYFAIL
#define __GFP_NOFAIL		___GFP_NOFAIL
#define __GFP_NORETRY		___GFP_NORETRY
#define __GFP_NOWARN		___GFP_NOWARN
#define __GFP_COMP		___GFP_COMP
#define __GFP_ZERO		___GFP_ZERO
#define __GFP_ZEROTAGS		___GFP_ZEROTAGS
#define __GFP_SKIP_ZERO		___GFP_SKIP_ZERO
#define __GFP_SKIP_KASAN	___GFP_SKIP_KASAN
#define __GFP_NOLOCKDEP		___GFP_NOLOCKDEP

#define __GFP_BITS_SHIFT	25
#define __GFP_BITS_MASK		((1u << __GFP_BITS_SHIFT) - 1)

#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER		(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA			__GFP_DMA
#define GFP_DMA32		__GFP_DMA32
#define GFP_HIGHUSER		(GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE	(GFP_HIGHUSER | __GFP_MOVABLE | __GFP_SKIP_KASAN)
#define GFP_TRANSHUGE_LIGHT	((GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOMEMALLOC | \
				  __GFP_NOWARN) & ~__GFP_RECLAIM)
#define GFP_TRANSHUGE		(GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)
/* include/asm-generic/pgalloc.h */
#define GFP_PGTABLE_KERNEL	(GFP_KERNEL | __GFP_ZERO)
#define GFP_PGTABLE_USER	(GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)

/*
 * gfp_migratetype() (include/linux/gfp.h): __GFP_MOVABLE -> MOVABLE,
 * __GFP_RECLAIMABLE -> RECLAIMABLE, neither -> UNMOVABLE.  The kernel
 * also returns UNMOVABLE when grouping by mobility is disabled; that is a
 * machine property here, applied by prepare_alloc_pages().
 */
static inline int gfp_migratetype(gfp_t gfp)
{
	return (int)((gfp & (__GFP_RECLAIMABLE | __GFP_MOVABLE)) >> 3);
}

static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_DIRECT_RECLAIM;
}

/*
 * gfp_zone() (include/linux/gfp.h GFP_ZONE_TABLE): the highest zone a
 * request may use.  __GFP_MOVABLE counts as a zone modifier only together
 * with __GFP_HIGHMEM (GFP_HIGHUSER_MOVABLE -> ZONE_MOVABLE, even when that
 * zone is empty).  Invalid combinations (GFP_ZONE_BAD) are a bug.
 */
static inline enum zone_type gfp_zone(gfp_t gfp)
{
	switch (gfp & GFP_ZONEMASK) {
	case 0:
	case __GFP_MOVABLE:
	case __GFP_HIGHMEM:		/* no CONFIG_HIGHMEM: HIGHMEM -> NORMAL */
		return ZONE_NORMAL;
	case __GFP_DMA:
	case __GFP_MOVABLE | __GFP_DMA:
		return ZONE_DMA;
	case __GFP_DMA32:
	case __GFP_MOVABLE | __GFP_DMA32:
		return ZONE_DMA32;
	case __GFP_MOVABLE | __GFP_HIGHMEM:
		return ZONE_MOVABLE;
	default:
		SIM_BUG("gfp_zone: invalid zone modifier combination %#x", gfp & GFP_ZONEMASK);
	}
}

/* ---- the page allocator's public entry points (mm/page_alloc.c) ------- */

/*
 * What an allocation went through, for callers that attribute or count
 * (optional out-parameter of __alloc_pages; pass NULL to ignore).
 */
struct alloc_info {
	enum zone_type	zone;		/* zone the block came from */
	unsigned int	alloc_flags;	/* flags of the successful attempt */
	bool		fast_path;	/* satisfied by the first get_page_from_freelist */
	bool		slow_path;	/* went through __alloc_pages_slowpath() */
};

/*
 * __alloc_pages() — models __alloc_pages_noprof() (6.12): the fast path
 * (one get_page_from_freelist pass at the low watermark, NOFRAGMENT
 * first), then __alloc_pages_slowpath().  Returns the pfn of a naturally
 * aligned block of 2^order pages, its head typed PGTY_ALLOC, or PFN_NONE.
 * Runs on the engine's current CPU (sim_cpu()).
 */
pfn_t __alloc_pages(struct machine *m, gfp_t gfp, unsigned int order, struct alloc_info *info);
/* __free_pages(): free a block obtained from __alloc_pages (any owner type). */
void __free_pages(struct machine *m, pfn_t pfn, unsigned int order);

/* alloc_pages(): __alloc_pages() and give the head the owner's type
 * (PGTY_KERNEL, PGTY_PGTABLE, PGTY_FILE, ...); mapping/index/flags zero. */
pfn_t alloc_pages(struct machine *m, gfp_t gfp, unsigned int order, enum page_type type);
/* free_pages(): free by head pfn; the order is read from the head and
 * must equal `order` (the kernel trusts the caller; the model checks). */
void free_pages(struct machine *m, pfn_t pfn, unsigned int order);

#endif /* SLOWPATH_MM_GFP_H */
