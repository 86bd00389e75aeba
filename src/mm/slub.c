/* SPDX-License-Identifier: MIT */
/*
 * slub.c — the slab allocator (mm/slub.c, mm/slab_common.c, Linux 6.12)
 * and the page fragments sockets copy payload into (net/core/sock.c
 * skb_page_frag_refill, net/core/skbuff.c), as far as they take and give
 * back pages: which order a cache's slabs have, when a slab page is
 * allocated, with which gfp and migratetype, when it goes back to the
 * buddy, and how NR_SLAB_RECLAIMABLE_B / NR_SLAB_UNRECLAIMABLE_B move.
 * Only with `[kernel] slab=on` (kmem_cache_init); off, m->slab is NULL and
 * every entry point returns at once.
 *
 * A cache (struct kmem_cache) and its one node (kmem_cache_node):
 *
 *   kmem_cache "dentry"  size 192  oo = order 0 / 21 objects  min = order 0 / 21
 *     partial: [slab 7: 20/21] <-> [slab 3: 5/21] <-> [slab 9: 0/21]   (nr_partial 3)
 *     full:    [slab 1: 21/21] <-> [slab 2: 21/21]
 *
 *   slab record (struct slab): head pfn, order, objects, inuse, a bitmap
 *   of the objects in use, links in its cache's partial or full list.
 *   The head page (PGTY_KERNEL, or PGTY_RECLAIMABLE for
 *   SLAB_RECLAIM_ACCOUNT caches) carries the record id in `index`.
 *
 * kmem_cache_alloc(s, gfp), as modelled:
 *   1. charge slab_alloc; take the first slab of the partial list; if the
 *      list is empty, new_slab() -> allocate_slab():
 *        a. flags = gfp's reclaim/constraint bits | s->allocflags
 *           (__GFP_COMP, __GFP_RECLAIMABLE for SLAB_RECLAIM_ACCOUNT);
 *        b. the preferred order s->oo with __GFP_NOWARN | __GFP_NORETRY
 *           (no __GFP_NOFAIL); when that order is above the minimum and
 *           the caller may reclaim, also __GFP_NOMEMALLOC and without
 *           __GFP_RECLAIM (no direct reclaim, no kswapd wake);
 *        c. on failure the minimum order s->min (get_order(size)) with
 *           the caller's flags; stat ORDER_FALLBACK;
 *        d. account_slab: NR_SLAB_*_B += PAGE_SIZE << order; the new slab
 *           goes to the head of the partial list;
 *   2. the lowest free object index of that slab; a slab that is now
 *      full moves to the full list.
 * kmem_cache_free(s, obj):
 *   1. charge slab_free; clear the object; a full slab goes to the tail
 *      of the partial list (add_partial DEACTIVATE_TO_TAIL);
 *   2. a slab left empty is discarded (discard_slab -> free_slab:
 *      unaccount_slab, __free_pages) when the node already has at least
 *      min_partial partial slabs, as __slab_free does; otherwise it
 *      stays on the partial list, pinning its pages.
 * kmalloc(size): the kmalloc-N cache of kmalloc_size_roundup(size)
 * (8, 16, 32, 64, 96, 128, 192, 256, 512, 1k, 2k, 4k, 8k); above 8 KiB
 * kmalloc_large: the buddy directly, __GFP_COMP, counted in
 * NR_SLAB_UNRECLAIMABLE_B as ___kmalloc_large_node does.
 * calculate_order / calc_slab_order / min_partial: as 6.12 (see the
 * functions).
 *
 * Simplifications:
 *   - No per-CPU slabs and no per-CPU partial lists: every CPU allocates
 *     from the first slab on the node's partial list and frees into its
 *     slab directly, as if slub_cpu_partial were 0 and the cpu slab were
 *     always the head of the partial list.  The pages held are then those
 *     of the node lists only: the kernel additionally holds one cpu slab
 *     and up to cpu_partial_slabs per CPU per cache, so the model holds
 *     fewer pages on large machines.  No cmpxchg fast path, no locks: the
 *     costs (slab_alloc, slab_free, slab_new) stand for them.
 *   - Objects are handles; the free list is a bitmap taken lowest index
 *     first (no freelist order, no CONFIG_SLAB_FREELIST_RANDOM).
 *   - One node; no memcg accounting (__GFP_ACCOUNT is ignored, so the
 *     kmalloc-cg-N caches are the kmalloc-N ones), no kmalloc-rcl/dma
 *     variants, no slab merging (each named cache is its own cache), no
 *     debug, KASAN, RCU-freed slabs, shrinkers (reclaimable slab is never
 *     reclaimed), kfence, or ctor.
 *   - A named cache's size is its slot size from slab_caches.def; its
 *     alignment is 8 (kmem_cache_create may pass more).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/slub.h"
#include "mm/trace.h"
#include "mm/vmstat.h"
#include "sim/xalloc.h"

#define SLAB_NONE	UINT32_MAX

enum slab_list { SLAB_ON_PARTIAL, SLAB_ON_FULL };

struct slab {
	struct kmem_cache *cache;	/* NULL: record free */
	pfn_t		pfn;		/* head page */
	uint8_t		order;
	uint8_t		list;		/* enum slab_list */
	uint16_t	objects;	/* slab->objects */
	uint16_t	inuse;		/* slab->inuse */
	uint32_t	prev, next;	/* record ids in the cache's list, SLAB_NONE ends */
	uint64_t	*used;		/* bit per object */
};

struct slab_list_head {
	uint32_t	head, tail;
	unsigned long	nr;
};

struct kmem_cache {
	struct machine	*m;
	char		name[32];
	unsigned int	object_size;	/* as asked */
	unsigned int	size;		/* slot: object_size aligned */
	unsigned int	align;
	unsigned int	flags;		/* SLAB_* */
	unsigned int	order, objects;		/* s->oo */
	unsigned int	min_order, min_objects;	/* s->min */
	gfp_t		allocflags;
	unsigned long	min_partial;
	/* the one kmem_cache_node */
	struct slab_list_head partial, full;
	unsigned long	nr_slabs, total_objects, inuse_objects;
	unsigned long	order_fallback;	/* stat(ORDER_FALLBACK) */
};

struct frag_orphan {
	pfn_t		pfn;
	unsigned int	order, refs;
};

#define NR_KMALLOC	13
static const unsigned int kmalloc_sizes[NR_KMALLOC] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192
};
static const char *const kmalloc_names[NR_KMALLOC] = {
	"kmalloc-8", "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-96", "kmalloc-128",
	"kmalloc-192", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k", "kmalloc-4k",
	"kmalloc-8k"
};

struct slab_state {
	struct kmem_cache **caches;	/* creation order; slabinfo prints them reversed */
	unsigned int	nr_caches, cap_caches;
	struct kmem_cache *kmalloc_caches[NR_KMALLOC];
	struct kmem_cache *named[NR_SLAB_CACHES];
	struct slab	*slabs;		/* records by id */
	uint32_t	nr_records, cap_records;
	uint32_t	*free_ids;	/* stack of unused record ids */
	uint32_t	nr_free_ids;
	unsigned long	large_pages;	/* kmalloc_large pages held */
	struct frag_orphan *orphans;	/* page frags no task owns, in orphaning order */
	unsigned int	nr_orphans, cap_orphans;
};

static const struct {
	const char	*name;
	unsigned int	size, flags;
} named_caches[NR_SLAB_CACHES] = {
#define SLAB_CACHE(id, name_, size_, flags_, source) [SC_##id] = { name_, size_, flags_ },
#include "mm/slab_caches.def"
#undef SLAB_CACHE
};

/* ---- sizes and orders (mm/slub.c 6.12) -------------------------------------------- */

static unsigned int fls_u(unsigned int x)
{
	unsigned int r = 0;

	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

static unsigned int ilog2_u(unsigned int x)
{
	return x ? fls_u(x) - 1 : 0;
}

/* get_order(): the smallest order whose block holds `size` bytes. */
static unsigned int get_order_bytes(unsigned long size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

unsigned int order_objects(unsigned int order, unsigned int size)
{
	return (unsigned int)((PAGE_SIZE << order) / size);
}

/* calc_slab_order() (6.12): the smallest order in [min_order, max_order]
 * that wastes at most 1/fract_leftover of the slab; max_order + 1 if none. */
static unsigned int calc_slab_order(unsigned int size, unsigned int min_order, unsigned int max_order,
				    unsigned int fract_leftover)
{
	unsigned int order;

	for (order = min_order; order <= max_order; order++) {
		unsigned int slab_size = (unsigned int)(PAGE_SIZE << order);

		if (slab_size % size <= slab_size / fract_leftover)
			break;
	}
	return order;
}

/*
 * calculate_order() (6.12) with slub_min_objects 0 (boot default), so
 * min_objects = 4 * (fls(nr_cpus) + 1) (num_present_cpus; the kernel
 * uses nr_cpu_ids when that is 1, which here is the same number),
 * capped by what fits in a slub_max_order slab; min_order from
 * min_objects; then the waste loop 1/16, 1/8, 1/4, 1/2 from min_order up
 * to slub_max_order; else get_order(size).
 */
unsigned int calculate_order(unsigned int size, unsigned int nr_cpus)
{
	unsigned int min_objects = 4 * (fls_u(nr_cpus ? nr_cpus : 1) + 1);
	unsigned int max_objects = order_objects(SLUB_MAX_ORDER, size);
	unsigned int min_order;

	if (max_objects < 1)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = max_objects;
	min_order = get_order_bytes((unsigned long)min_objects * size);	/* slub_min_order 0 */
	if (order_objects(min_order, size) > MAX_OBJS_PER_PAGE)
		return get_order_bytes((unsigned long)size * MAX_OBJS_PER_PAGE) - 1;
	for (unsigned int fraction = 16; fraction > 1; fraction /= 2) {
		unsigned int order = calc_slab_order(size, min_order, SLUB_MAX_ORDER, fraction);

		if (order <= SLUB_MAX_ORDER)
			return order;
	}
	return get_order_bytes(size);
}

size_t kmalloc_size_roundup(size_t size)
{
	if (size == 0)
		return 0;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE << get_order_bytes(size);
	for (unsigned int i = 0; i < NR_KMALLOC; i++)
		if (size <= kmalloc_sizes[i])
			return kmalloc_sizes[i];
	return KMALLOC_MAX_CACHE_SIZE;
}

/* ---- caches ------------------------------------------------------------------------- */

bool slab_enabled(const struct machine *m)
{
	return m->slab != NULL;
}

const char *kmem_cache_name(const struct kmem_cache *s)
{
	return s->name;
}

/*
 * kmem_cache_create() -> calculate_sizes() + kmem_cache_open() (6.12):
 * size = object size aligned to 8 and to `align` (SLAB_HWCACHE_ALIGN:
 * the 64-byte line, or half/quarter of it for small objects as
 * calculate_alignment does); oo from calculate_order, min from
 * get_order(size); allocflags __GFP_COMP (| __GFP_RECLAIMABLE);
 * min_partial = clamp(ilog2(size) / 2, MIN_PARTIAL, MAX_PARTIAL).
 */
struct kmem_cache *kmem_cache_create(struct machine *m, const char *name, unsigned int size,
				     unsigned int align, unsigned int flags)
{
	struct slab_state *st = m->slab;
	struct kmem_cache *s;
	unsigned int a = 8;

	SIM_ASSERT(st && size > 0 && size <= (PAGE_SIZE << SLUB_MAX_ORDER));
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = 64;

		while (size <= ralign / 2)
			ralign /= 2;
		if (ralign > a)
			a = ralign;
	}
	if (align > a)
		a = align;
	s = xzalloc(sizeof(*s));
	s->m = m;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->object_size = size;
	s->align = a;
	s->size = (size + a - 1) / a * a;
	s->flags = flags;
	s->order = calculate_order(s->size, m->nr_cpus);
	s->objects = order_objects(s->order, s->size);
	s->min_order = get_order_bytes(s->size);
	s->min_objects = order_objects(s->min_order, s->size);
	s->allocflags = __GFP_COMP | ((flags & SLAB_RECLAIM_ACCOUNT) ? __GFP_RECLAIMABLE : 0);
	s->min_partial = ilog2_u(s->size) / 2;
	if (s->min_partial > SLUB_MAX_PARTIAL)
		s->min_partial = SLUB_MAX_PARTIAL;
	if (s->min_partial < SLUB_MIN_PARTIAL)
		s->min_partial = SLUB_MIN_PARTIAL;
	s->partial.head = s->partial.tail = SLAB_NONE;
	s->full.head = s->full.tail = SLAB_NONE;
	if (st->nr_caches == st->cap_caches) {
		st->cap_caches = st->cap_caches ? st->cap_caches * 2 : 32;
		st->caches = xrealloc(st->caches, st->cap_caches * sizeof(*st->caches));
	}
	st->caches[st->nr_caches++] = s;
	return s;
}

/* create_kmalloc_caches() then the named caches of slab_caches.def. */
void kmem_cache_init(struct machine *m)
{
	struct slab_state *st;

	if (m->slab)
		return;
	st = xzalloc(sizeof(*st));
	m->slab = st;
	for (unsigned int i = 0; i < NR_KMALLOC; i++)
		st->kmalloc_caches[i] = kmem_cache_create(m, kmalloc_names[i], kmalloc_sizes[i], 0, 0);
	for (unsigned int i = 0; i < NR_SLAB_CACHES; i++)
		st->named[i] = kmem_cache_create(m, named_caches[i].name, named_caches[i].size, 0,
						 named_caches[i].flags);
}

struct kmem_cache *slab_cache(const struct machine *m, enum slab_cache_id id)
{
	return m->slab ? m->slab->named[id] : NULL;
}

/* ---- slab records and lists -------------------------------------------------------- */

static struct slab *slab_rec(const struct slab_state *st, uint32_t id)
{
	SIM_ASSERT(id < st->nr_records);
	return &st->slabs[id];
}

static uint32_t slab_rec_new(struct slab_state *st)
{
	if (st->nr_free_ids)
		return st->free_ids[--st->nr_free_ids];
	if (st->nr_records == st->cap_records) {
		st->cap_records = st->cap_records ? st->cap_records * 2 : 256;
		st->slabs = xrealloc(st->slabs, st->cap_records * sizeof(*st->slabs));
		st->free_ids = xrealloc(st->free_ids, st->cap_records * sizeof(*st->free_ids));
	}
	memset(&st->slabs[st->nr_records], 0, sizeof(st->slabs[0]));
	return st->nr_records++;
}

static void slab_rec_free(struct slab_state *st, uint32_t id)
{
	struct slab *slab = slab_rec(st, id);

	free(slab->used);
	memset(slab, 0, sizeof(*slab));
	st->free_ids[st->nr_free_ids++] = id;
}

static struct slab_list_head *slab_list_of(struct kmem_cache *s, const struct slab *slab)
{
	return slab->list == SLAB_ON_PARTIAL ? &s->partial : &s->full;
}

static void slab_list_del(struct slab_state *st, struct kmem_cache *s, uint32_t id)
{
	struct slab *slab = slab_rec(st, id);
	struct slab_list_head *l = slab_list_of(s, slab);

	if (slab->prev != SLAB_NONE)
		slab_rec(st, slab->prev)->next = slab->next;
	else
		l->head = slab->next;
	if (slab->next != SLAB_NONE)
		slab_rec(st, slab->next)->prev = slab->prev;
	else
		l->tail = slab->prev;
	slab->prev = slab->next = SLAB_NONE;
	l->nr--;
}

static void slab_list_add(struct slab_state *st, struct kmem_cache *s, uint32_t id,
			  enum slab_list which, bool tail)
{
	struct slab *slab = slab_rec(st, id);
	struct slab_list_head *l;

	slab->list = (uint8_t)which;
	l = slab_list_of(s, slab);
	if (tail) {
		slab->prev = l->tail;
		slab->next = SLAB_NONE;
		if (l->tail != SLAB_NONE)
			slab_rec(st, l->tail)->next = id;
		else
			l->head = id;
		l->tail = id;
	} else {
		slab->next = l->head;
		slab->prev = SLAB_NONE;
		if (l->head != SLAB_NONE)
			slab_rec(st, l->head)->prev = id;
		else
			l->tail = id;
		l->head = id;
	}
	l->nr++;
}

/* ---- slab pages ----------------------------------------------------------------------- */

static enum node_stat_item slab_stat_item(const struct kmem_cache *s)
{
	return (s->flags & SLAB_RECLAIM_ACCOUNT) ? NR_SLAB_RECLAIMABLE_B : NR_SLAB_UNRECLAIMABLE_B;
}

/* alloc_slab_page(): the pages, typed as the cache's kind. */
static pfn_t alloc_slab_page(struct machine *m, const struct kmem_cache *s, gfp_t gfp, unsigned int order)
{
	return alloc_pages(m, gfp, order,
			   (s->flags & SLAB_RECLAIM_ACCOUNT) ? PGTY_RECLAIMABLE : PGTY_KERNEL);
}

/*
 * allocate_slab() (6.12, steps 1a-1d of the head comment).  Returns the
 * new slab's record id, accounted but on no list, or SLAB_NONE.
 */
static uint32_t allocate_slab(struct kmem_cache *s, gfp_t flags)
{
	struct machine *m = s->m;
	struct slab_state *st = m->slab;
	unsigned int order = s->order, objects = s->objects;
	gfp_t alloc_gfp;
	struct slab *slab;
	uint32_t id;
	pfn_t pfn;

	flags |= s->allocflags;
	alloc_gfp = (flags | __GFP_NOWARN | __GFP_NORETRY) & ~__GFP_NOFAIL;
	if ((alloc_gfp & __GFP_DIRECT_RECLAIM) && s->order > s->min_order)
		alloc_gfp = (alloc_gfp | __GFP_NOMEMALLOC) & ~__GFP_RECLAIM;
	pfn = alloc_slab_page(m, s, alloc_gfp, order);
	if (pfn == PFN_NONE) {
		order = s->min_order;
		objects = s->min_objects;
		pfn = alloc_slab_page(m, s, flags, order);
		if (pfn == PFN_NONE)
			return SLAB_NONE;
		s->order_fallback++;
		mm_trace(m, "allocate_slab %s: order %u failed, fell back to order %u", s->name, s->order,
			 order);
	}
	mm_charge(m, COST_slab_new, objects);
	m->mm_busy++;		/* the record and the counter move together for mm_check */
	id = slab_rec_new(st);
	slab = slab_rec(st, id);
	slab->cache = s;
	slab->pfn = pfn;
	slab->order = (uint8_t)order;
	slab->objects = (uint16_t)objects;
	slab->inuse = 0;
	slab->prev = slab->next = SLAB_NONE;
	slab->used = xzalloc(((objects + 63) / 64) * sizeof(uint64_t));
	pfn_to_page(m, pfn)->index = id;
	s->nr_slabs++;
	s->total_objects += objects;
	/* account_slab() */
	mod_node_page_state(&m->node, slab_stat_item(s), (long)(PAGE_SIZE << order));
	m->mm_busy--;
	return id;
}

/* mm/internal.h (6.12) */
#define GFP_RECLAIM_MASK	(__GFP_RECLAIM | __GFP_HIGH | __GFP_IO | __GFP_FS | __GFP_NOWARN | \
				 __GFP_RETRY_MAYFAIL | __GFP_NOFAIL | __GFP_NORETRY | __GFP_MEMALLOC | \
				 __GFP_NOMEMALLOC | __GFP_NOLOCKDEP)
#define GFP_CONSTRAINT_MASK	(__GFP_HARDWALL | __GFP_THISNODE)

/* new_slab(): the caller's gfp reduced to its reclaim and constraint bits
 * (a __GFP_ZERO or zone modifier of the caller does not reach the pages). */
static uint32_t new_slab(struct kmem_cache *s, gfp_t gfp)
{
	uint32_t id;

	sim_path_push(s->m->sim, "new_slab");
	id = allocate_slab(s, gfp & (GFP_RECLAIM_MASK | GFP_CONSTRAINT_MASK));
	sim_path_pop(s->m->sim);
	return id;
}

/* discard_slab() -> free_slab() -> __free_slab(): unaccount_slab and the
 * pages back to the buddy.  The slab is on no list. */
static void discard_slab(struct kmem_cache *s, uint32_t id)
{
	struct machine *m = s->m;
	struct slab_state *st = m->slab;
	struct slab *slab = slab_rec(st, id);
	pfn_t pfn = slab->pfn;
	unsigned int order = slab->order;

	SIM_ASSERT(slab->inuse == 0);
	m->mm_busy++;
	s->nr_slabs--;
	s->total_objects -= slab->objects;
	mod_node_page_state(&m->node, slab_stat_item(s), -(long)(PAGE_SIZE << order));
	pfn_to_page(m, pfn)->index = 0;
	slab_rec_free(st, id);
	m->mm_busy--;
	free_pages(m, pfn, order);
}

/* ---- objects ------------------------------------------------------------------------- */

static unsigned int slab_first_free(const struct slab *slab)
{
	for (unsigned int w = 0; w < (slab->objects + 63u) / 64; w++) {
		uint64_t free_bits = ~slab->used[w];

		if (free_bits) {
			unsigned int i = w * 64 + (unsigned int)__builtin_ctzll(free_bits);

			SIM_ASSERT(i < slab->objects);
			return i;
		}
	}
	SIM_BUG("slab at pfn %u has no free object but is on the partial list", slab->pfn);
}

/* slab_alloc_node(): steps 1-2 of kmem_cache_alloc in the head comment. */
kobj_t kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp)
{
	struct machine *m = s->m;
	struct slab_state *st = m->slab;
	struct slab *slab;
	unsigned int idx;
	uint32_t id;

	mm_charge(m, COST_slab_alloc, 1);
	id = s->partial.head;
	if (id == SLAB_NONE) {
		id = new_slab(s, gfp);
		if (id == SLAB_NONE)
			return 0;
		slab_list_add(st, s, id, SLAB_ON_PARTIAL, false);
		/* another task may have filled it while the allocation slept:
		 * take whatever slab now heads the list */
		id = s->partial.head;
		SIM_ASSERT(id != SLAB_NONE);
	}
	slab = slab_rec(st, id);
	idx = slab_first_free(slab);
	slab->used[idx / 64] |= 1ULL << (idx % 64);
	slab->inuse++;
	s->inuse_objects++;
	if (slab->inuse == slab->objects) {
		slab_list_del(st, s, id);
		slab_list_add(st, s, id, SLAB_ON_FULL, true);
	}
	return ((kobj_t)(id + 1) << 16) | idx;
}

/* __slab_free() without the cpu slab: steps 1-2 of kmem_cache_free. */
void kmem_cache_free(struct kmem_cache *s, kobj_t obj)
{
	struct machine *m = s->m;
	struct slab_state *st = m->slab;
	uint32_t id = (uint32_t)(obj >> 16) - 1;
	unsigned int idx = (unsigned int)(obj & 0xffff);
	struct slab *slab;
	bool was_full;

	if (!obj)
		return;
	SIM_ASSERT(!(obj & KOBJ_LARGE));
	slab = slab_rec(st, id);
	if (slab->cache != s || idx >= slab->objects || !(slab->used[idx / 64] & (1ULL << (idx % 64))))
		SIM_BUG("kmem_cache_free(%s): object %#" PRIx64 " is not allocated from this cache",
			s->name, obj);
	mm_charge(m, COST_slab_free, 1);
	slab->used[idx / 64] &= ~(1ULL << (idx % 64));
	slab->inuse--;
	s->inuse_objects--;
	was_full = slab->list == SLAB_ON_FULL;
	if (slab->inuse == 0 && s->partial.nr >= s->min_partial) {
		/* the kernel's test: nr_partial counts this slab when it is on
		 * the partial list (it cannot be full and empty unless it has one
		 * object, and then it is not counted) */
		slab_list_del(st, s, id);
		discard_slab(s, id);
		return;
	}
	if (was_full) {
		slab_list_del(st, s, id);
		slab_list_add(st, s, id, SLAB_ON_PARTIAL, true);
	}
}

static unsigned int kmalloc_index(size_t size)
{
	for (unsigned int i = 0; i < NR_KMALLOC; i++)
		if (size <= kmalloc_sizes[i])
			return i;
	SIM_BUG("kmalloc_index: %zu bytes is above KMALLOC_MAX_CACHE_SIZE", size);
}

/* __kmalloc_noprof() / ___kmalloc_large_node() (6.12). */
kobj_t kmalloc(struct machine *m, size_t size, gfp_t gfp)
{
	unsigned int order;
	pfn_t pfn;

	if (!m->slab || !size)
		return 0;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmem_cache_alloc(m->slab->kmalloc_caches[kmalloc_index(size)], gfp);
	order = get_order_bytes(size);
	sim_path_push(m->sim, "kmalloc_large");
	pfn = alloc_pages(m, gfp | __GFP_COMP, order, PGTY_KERNEL);
	sim_path_pop(m->sim);
	if (pfn == PFN_NONE)
		return 0;
	m->mm_busy++;
	m->slab->large_pages += 1UL << order;
	mod_node_page_state(&m->node, NR_SLAB_UNRECLAIMABLE_B, (long)(PAGE_SIZE << order));
	m->mm_busy--;
	return KOBJ_LARGE | pfn;
}

void kfree(struct machine *m, kobj_t obj)
{
	struct slab_state *st = m->slab;

	if (!st || !obj)
		return;
	if (obj & KOBJ_LARGE) {
		pfn_t pfn = (pfn_t)(obj & ~KOBJ_LARGE);
		unsigned int order = page_order(pfn_to_page(m, pfn));

		m->mm_busy++;
		st->large_pages -= 1UL << order;
		mod_node_page_state(&m->node, NR_SLAB_UNRECLAIMABLE_B, -(long)(PAGE_SIZE << order));
		m->mm_busy--;
		free_pages(m, pfn, order);
		return;
	}
	kmem_cache_free(slab_rec(st, (uint32_t)(obj >> 16) - 1)->cache, obj);
}

kobj_t slab_alloc_named(struct machine *m, enum slab_cache_id id, gfp_t gfp)
{
	return m->slab ? kmem_cache_alloc(m->slab->named[id], gfp) : 0;
}

void slab_free_named(struct machine *m, enum slab_cache_id id, kobj_t obj)
{
	if (m->slab && obj)
		kmem_cache_free(m->slab->named[id], obj);
}

/* ---- /proc/slabinfo (mm/slab_common.c cache_show, mm/slub.c get_slabinfo) ---- */

void get_slabinfo(const struct kmem_cache *s, struct slabinfo *info)
{
	memset(info, 0, sizeof(*info));
	info->active_objs = s->inuse_objects;
	info->num_objs = s->total_objects;
	info->active_slabs = info->num_slabs = s->nr_slabs;
	info->objsize = s->size;
	info->objects_per_slab = s->objects;
	info->cache_order = s->order;
	info->nr_partial = s->partial.nr;
	info->nr_full = s->full.nr;
	info->order_fallback = s->order_fallback;
	info->min_order = s->min_order;
	info->min_partial = (unsigned int)s->min_partial;
	info->allocflags = s->allocflags;
}

void mm_show_slabinfo(const struct machine *m, FILE *out)
{
	const struct slab_state *st = m->slab;

	if (!st)
		return;
	fputs("slabinfo - version: 2.1\n", out);
	fputs("# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
	      " : tunables <limit> <batchcount> <sharedfactor>"
	      " : slabdata <active_slabs> <num_slabs> <sharedavail>\n", out);
	for (unsigned int i = st->nr_caches; i-- > 0;) {
		struct slabinfo si;

		get_slabinfo(st->caches[i], &si);
		fprintf(out, "%-17s %6lu %6lu %6u %4u %4d : tunables %4u %4u %4u : slabdata %6lu %6lu %6lu\n",
			st->caches[i]->name, si.active_objs, si.num_objs, si.objsize, si.objects_per_slab,
			1 << si.cache_order, 0u, 0u, 0u, si.active_slabs, si.num_slabs, 0UL);
	}
}

/* ---- page fragments (net/core/sock.c, 6.12) --------------------------------------- */

#define SKB_FRAG_PAGE_ORDER	3	/* get_order(32768) */

static void frag_orphan_add(struct slab_state *st, pfn_t pfn, unsigned int order, unsigned int refs)
{
	if (st->nr_orphans == st->cap_orphans) {
		st->cap_orphans = st->cap_orphans ? st->cap_orphans * 2 : 16;
		st->orphans = xrealloc(st->orphans, st->cap_orphans * sizeof(*st->orphans));
	}
	st->orphans[st->nr_orphans++] = (struct frag_orphan){ pfn, order, refs };
}

/* The owner lets go of its page: freed now if no skb points into it. */
static void page_frag_drop(struct machine *m, struct page_frag *pfrag)
{
	if (pfrag->pfn == PFN_NONE)
		return;
	if (pfrag->refs)
		frag_orphan_add(m->slab, pfrag->pfn, pfrag->order, pfrag->refs);
	else
		free_pages(m, pfrag->pfn, pfrag->order);
	pfrag->pfn = PFN_NONE;
	pfrag->refs = 0;
	pfrag->offset = 0;
}

/*
 * skb_page_frag_refill() (net/core/sock.c, 6.12): room left -> true; the
 * page only ours (page_ref_count 1: no skb holds it) -> reuse from
 * offset 0; else put_page and a new page: SKB_FRAG_PAGE_ORDER first,
 * without direct reclaim and with __GFP_COMP | __GFP_NOWARN |
 * __GFP_NORETRY, then one order-0 page with the caller's gfp.
 * (net_high_order_alloc_disable is off, its default.)
 */
bool skb_page_frag_refill(struct machine *m, unsigned int sz, struct page_frag *pfrag, gfp_t gfp)
{
	pfn_t pfn;

	if (!m->slab)
		return true;
	if (pfrag->pfn != PFN_NONE) {
		if (pfrag->refs == 0) {
			pfrag->offset = 0;
			return true;
		}
		if (pfrag->offset + sz <= (PAGE_SIZE << pfrag->order))
			return true;
		page_frag_drop(m, pfrag);
	}
	sim_path_push(m->sim, "skb_page_frag_refill");
	pfn = alloc_pages(m, (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY,
			  SKB_FRAG_PAGE_ORDER, PGTY_KERNEL);
	if (pfn != PFN_NONE) {
		pfrag->order = SKB_FRAG_PAGE_ORDER;
		pfrag->refills_order3++;
	} else {
		pfn = alloc_pages(m, gfp, 0, PGTY_KERNEL);
		pfrag->order = 0;
		if (pfn != PFN_NONE)
			pfrag->refills_order0++;
	}
	sim_path_pop(m->sim);
	pfrag->pfn = pfn;
	pfrag->offset = 0;
	pfrag->refs = 0;
	return pfn != PFN_NONE;
}

void page_frag_release(struct machine *m, struct page_frag *pfrag)
{
	if (m->slab)
		page_frag_drop(m, pfrag);
}

/* tcp_sendmsg_locked's allocations for one small message: the skb
 * (tcp_stream_alloc_skb -> __alloc_skb: skbuff_head_cache + a small
 * head), then the payload copied into the task's page fragment. */
int alloc_skb_frag(struct machine *m, struct page_frag *pfrag, unsigned int len, gfp_t gfp,
		   struct sk_buff *skb)
{
	memset(skb, 0, sizeof(*skb));
	skb->frag_pfn = PFN_NONE;
	if (!m->slab)
		return 0;
	skb->skb = slab_alloc_named(m, SC_skbuff_head_cache, gfp);
	if (!skb->skb)
		return -ENOMEM;
	skb->head = slab_alloc_named(m, SC_skbuff_small_head, gfp);
	if (!skb->head)
		goto fail;
	if (len && pfrag) {
		if (!skb_page_frag_refill(m, len, pfrag, gfp))
			goto fail;
		pfrag->offset += len;
		pfrag->refs++;
		skb->frag = pfrag;
		skb->frag_pfn = pfrag->pfn;
	}
	return 0;
fail:
	slab_free_named(m, SC_skbuff_small_head, skb->head);
	slab_free_named(m, SC_skbuff_head_cache, skb->skb);
	memset(skb, 0, sizeof(*skb));
	return -ENOMEM;
}

void consume_skb(struct machine *m, struct sk_buff *skb)
{
	struct slab_state *st = m->slab;

	if (!st)
		return;
	if (skb->frag) {
		if (skb->frag->pfn == skb->frag_pfn) {
			SIM_ASSERT(skb->frag->refs > 0);
			skb->frag->refs--;
		} else {
			unsigned int i;

			for (i = 0; i < st->nr_orphans && st->orphans[i].pfn != skb->frag_pfn; i++)
				;
			SIM_ASSERT(i < st->nr_orphans);
			if (--st->orphans[i].refs == 0) {
				struct frag_orphan o = st->orphans[i];

				memmove(&st->orphans[i], &st->orphans[i + 1],
					(st->nr_orphans - i - 1) * sizeof(*st->orphans));
				st->nr_orphans--;
				free_pages(m, o.pfn, o.order);
			}
		}
	}
	slab_free_named(m, SC_skbuff_small_head, skb->head);
	slab_free_named(m, SC_skbuff_head_cache, skb->skb);
	memset(skb, 0, sizeof(*skb));
	skb->frag_pfn = PFN_NONE;
}

/* ---- checks -------------------------------------------------------------------------- */

static int slab_fail(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

unsigned long slab_pages(const struct machine *m, bool reclaimable)
{
	const struct slab_state *st = m->slab;
	unsigned long pages = 0;

	if (!st)
		return 0;
	for (uint32_t id = 0; id < st->nr_records; id++) {
		const struct slab *slab = &st->slabs[id];

		if (slab->cache && !!(slab->cache->flags & SLAB_RECLAIM_ACCOUNT) == reclaimable)
			pages += 1UL << slab->order;
	}
	if (!reclaimable)
		pages += st->large_pages;
	return pages;
}

/* One list of cache `s`: links, membership, and what it adds up to. */
static int check_slab_list(const struct slab_state *st, const struct kmem_cache *s,
			   const struct slab_list_head *l, enum slab_list which, unsigned long *slabs,
			   unsigned long *objs, unsigned long *inuse, char *buf, size_t len)
{
	unsigned long n = 0;
	uint32_t prev = SLAB_NONE;

	for (uint32_t id = l->head; id != SLAB_NONE; id = st->slabs[id].next) {
		const struct slab *slab = &st->slabs[id];
		unsigned int bits = 0;

		if (id >= st->nr_records || slab->cache != s || slab->list != which || slab->prev != prev)
			return slab_fail(buf, len, "slab: %s: record %u badly linked", s->name, id);
		for (unsigned int w = 0; w < (slab->objects + 63u) / 64; w++)
			bits += (unsigned int)__builtin_popcountll(slab->used[w]);
		if (bits != slab->inuse || slab->inuse > slab->objects ||
		    (which == SLAB_ON_FULL) != (slab->inuse == slab->objects))
			return slab_fail(buf, len, "slab: %s: record %u inuse %u of %u (bitmap %u) on the %s list",
					 s->name, id, slab->inuse, slab->objects, bits,
					 which == SLAB_ON_FULL ? "full" : "partial");
		*slabs += 1;
		*objs += slab->objects;
		*inuse += slab->inuse;
		prev = id;
		if (++n > st->nr_records)
			return slab_fail(buf, len, "slab: %s: list loops", s->name);
	}
	if (n != l->nr || prev != l->tail)
		return slab_fail(buf, len, "slab: %s: list count %lu, walked %lu", s->name, l->nr, n);
	return 0;
}

int slab_check(const struct machine *m, char *buf, size_t len)
{
	const struct slab_state *st = m->slab;
	long want[2];

	if (!st)
		return 0;
	for (uint32_t id = 0; id < st->nr_records; id++) {
		const struct slab *slab = &st->slabs[id];
		const struct page *page;

		if (!slab->cache)
			continue;
		page = pfn_to_page(m, slab->pfn);
		if (page_type(page) != ((slab->cache->flags & SLAB_RECLAIM_ACCOUNT) ? PGTY_RECLAIMABLE : PGTY_KERNEL) ||
		    page_order(page) != slab->order || page->index != id)
			return slab_fail(buf, len, "slab: %s: record %u: head pfn %u is type %d order %u index %u",
					 slab->cache->name, id, slab->pfn, page_type(page), page_order(page),
					 page->index);
	}
	for (unsigned int i = 0; i < st->nr_caches; i++) {
		const struct kmem_cache *s = st->caches[i];
		unsigned long slabs = 0, objs = 0, inuse = 0;

		if (check_slab_list(st, s, &s->partial, SLAB_ON_PARTIAL, &slabs, &objs, &inuse, buf, len) ||
		    check_slab_list(st, s, &s->full, SLAB_ON_FULL, &slabs, &objs, &inuse, buf, len))
			return -1;
		if (slabs != s->nr_slabs || objs != s->total_objects || inuse != s->inuse_objects)
			return slab_fail(buf, len, "slab: %s: counts %lu slabs %lu objects %lu in use, lists %lu %lu %lu",
					 s->name, s->nr_slabs, s->total_objects, s->inuse_objects, slabs, objs,
					 inuse);
	}
	/* plus the initial state's slab pages, which no cache holds */
	want[0] = (long)slab_pages(m, true) + m->initial_slab_pages[0];
	want[1] = (long)slab_pages(m, false) + m->initial_slab_pages[1];
	if (node_page_state_exact(&m->node, NR_SLAB_RECLAIMABLE_B) != want[0] ||
	    node_page_state_exact(&m->node, NR_SLAB_UNRECLAIMABLE_B) != want[1])
		return slab_fail(buf, len, "slab: nr_slab_reclaimable %ld, unreclaimable %ld pages; slabs hold %ld, %ld",
				 node_page_state_exact(&m->node, NR_SLAB_RECLAIMABLE_B),
				 node_page_state_exact(&m->node, NR_SLAB_UNRECLAIMABLE_B), want[0], want[1]);
	return 0;
}

void slab_release(struct machine *m)
{
	struct slab_state *st = m->slab;

	if (!st)
		return;
	for (uint32_t id = 0; id < st->nr_records; id++)
		free(st->slabs[id].used);
	for (unsigned int i = 0; i < st->nr_caches; i++)
		free(st->caches[i]);
	free(st->caches);
	free(st->slabs);
	free(st->free_ids);
	free(st->orphans);
	free(st);
	m->slab = NULL;
}
