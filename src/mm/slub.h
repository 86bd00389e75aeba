/* SPDX-License-Identifier: MIT */
/*
 * slub.h — the slab allocator model (mm/slub.c, mm/slab_common.c, Linux
 * 6.12), behind `[kernel] slab=on` (off by default: the machine then has
 * no slab state, every entry point below that takes a machine is a no-op
 * returning 0, and results are what they were before the model existed).
 *
 * Objects are model handles (kobj_t), not addresses: 0 is NULL; a slab
 * object is (slab record id + 1) << 16 | object index; a kmalloc_large
 * block is KOBJ_LARGE | head pfn.  The slab record id is kept in the head
 * page's `index` (the kernel keeps struct slab in the struct page).
 */
#ifndef SLOWPATH_MM_SLUB_H
#define SLOWPATH_MM_SLUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mm/gfp.h"
#include "mm/types.h"

struct machine;
struct kmem_cache;

typedef uint64_t kobj_t;
#define KOBJ_LARGE		(1ULL << 63)

/* Cache flags the model reads (the kernel's names; the values are the
 * model's own, only tested by name). */
#define SLAB_RECLAIM_ACCOUNT	0x1u	/* allocflags |= __GFP_RECLAIMABLE; NR_SLAB_RECLAIMABLE_B */
#define SLAB_HWCACHE_ALIGN	0x2u	/* align to the 64-byte cache line */

/* mm/slub.c constants (6.12) */
#define SLUB_MAX_ORDER		3	/* slub_max_order = PAGE_ALLOC_COSTLY_ORDER */
#define SLUB_MIN_PARTIAL	5	/* MIN_PARTIAL */
#define SLUB_MAX_PARTIAL	10	/* MAX_PARTIAL */
#define MAX_OBJS_PER_PAGE	32767
#define KMALLOC_MAX_CACHE_SIZE	8192	/* 2 * PAGE_SIZE: larger kmallocs go to the buddy */

/* The named caches of slab_caches.def. */
enum slab_cache_id {
#define SLAB_CACHE(id, name, size, flags, source) SC_##id,
#include "mm/slab_caches.def"
#undef SLAB_CACHE
	NR_SLAB_CACHES
};

/*
 * calculate_order() (6.12) for a slot of `size` bytes on a machine with
 * `nr_cpus` CPUs: slub_min_objects = 4 * (fls(nr_cpus) + 1), slub_max_order
 * 3, the 1/16 -> 1/2 waste loop.  Exposed for the tests.
 */
unsigned int calculate_order(unsigned int size, unsigned int nr_cpus);
/* order_objects(): objects of `size` in a slab of 2^order pages. */
unsigned int order_objects(unsigned int order, unsigned int size);
/* kmalloc_size_roundup() (mm/slab_common.c): the size kmalloc really
 * gives for `size` (8 .. 8192 by the kmalloc-N caches; above, whole
 * pages of the order kmalloc_large takes). */
size_t kmalloc_size_roundup(size_t size);

/* slab=on: create the kmalloc-N caches and the named caches (boot order:
 * kmalloc first).  Call once, after machine_create, before any user. */
void kmem_cache_init(struct machine *m);
bool slab_enabled(const struct machine *m);

struct kmem_cache *kmem_cache_create(struct machine *m, const char *name, unsigned int size,
				     unsigned int align, unsigned int flags);
/* The cache of a slab_caches.def row (NULL with slab=off). */
struct kmem_cache *slab_cache(const struct machine *m, enum slab_cache_id id);
kobj_t kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *s, kobj_t obj);
kobj_t kmalloc(struct machine *m, size_t size, gfp_t gfp);
void kfree(struct machine *m, kobj_t obj);

/* Convenience for feeders: allocate/free from a named cache; 0 / no-op
 * when the slab model is off. */
kobj_t slab_alloc_named(struct machine *m, enum slab_cache_id id, gfp_t gfp);
void slab_free_named(struct machine *m, enum slab_cache_id id, kobj_t obj);

/* What one cache holds (get_slabinfo) and its layout. */
struct slabinfo {
	unsigned long	active_objs, num_objs, active_slabs, num_slabs;
	unsigned int	objsize, objects_per_slab, cache_order;
	unsigned long	nr_partial, nr_full, order_fallback;
	unsigned int	min_order, min_partial;
	gfp_t		allocflags;
};
void get_slabinfo(const struct kmem_cache *s, struct slabinfo *info);
const char *kmem_cache_name(const struct kmem_cache *s);

/* /proc/slabinfo (version 2.1), caches newest first as the kernel lists
 * them.  Prints nothing with slab=off. */
void mm_show_slabinfo(const struct machine *m, FILE *out);

/* ---- page fragments (net/core/sock.c skb_page_frag_refill) ------------- */

/*
 * A task's page fragment (current->task_frag, which sk_page_frag() hands
 * TCP for a blocking socket): the page, how far it is used, and how many
 * skbs still reference it (the kernel's page refcount minus the owner's).
 */
struct page_frag {
	pfn_t		pfn;		/* PFN_NONE: no page yet */
	unsigned int	order;		/* 3 (SKB_FRAG_PAGE_ORDER) or 0 */
	unsigned int	offset;		/* bytes used */
	unsigned int	refs;		/* skbs in flight pointing into it */
	unsigned long	refills_order3, refills_order0;
};
/*
 * skb_page_frag_refill(sz, pfrag, gfp) (6.12): true if `pfrag` has `sz`
 * bytes left, reusing the page when no skb references it any more, else
 * a new page: order 3 with (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP |
 * __GFP_NOWARN | __GFP_NORETRY, falling back to order 0 with `gfp`.
 * With slab=off nothing is allocated and it returns true.
 */
bool skb_page_frag_refill(struct machine *m, unsigned int sz, struct page_frag *pfrag, gfp_t gfp);
/* The task is gone: drop its reference (the page goes with its last skb). */
void page_frag_release(struct machine *m, struct page_frag *pfrag);

/*
 * One modelled skb: struct sk_buff from skbuff_head_cache, its linear
 * head from skbuff_small_head, `len` payload bytes in the sender's page
 * fragment.  alloc_skb_frag returns 0, or -ENOMEM (nothing held).
 */
struct sk_buff {
	kobj_t		skb, head;
	struct page_frag *frag;		/* NULL when the payload is not in a frag */
	pfn_t		frag_pfn;	/* the page the payload is in */
};
int alloc_skb_frag(struct machine *m, struct page_frag *pfrag, unsigned int len, gfp_t gfp,
		   struct sk_buff *skb);
/* consume_skb(): free head, skb, and the payload's page reference. */
void consume_skb(struct machine *m, struct sk_buff *skb);

/* ---- checks and teardown ------------------------------------------------------ */

/* Slab state consistency (mm_check): every slab record matches its head
 * page (type, order, index), list membership matches inuse, per-cache
 * counts match the lists, and NR_SLAB_{RECLAIMABLE,UNRECLAIMABLE}_B equal
 * the pages the caches (and kmalloc_large) hold.  0 or -1 with a message. */
int slab_check(const struct machine *m, char *buf, size_t len);
/* Pages held by slabs of each kind (tests). */
unsigned long slab_pages(const struct machine *m, bool reclaimable);
/* machine_destroy: host memory only. */
void slab_release(struct machine *m);

#endif /* SLOWPATH_MM_SLUB_H */
