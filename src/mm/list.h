/* SPDX-License-Identifier: MIT */
/*
 * list.h — lists of page frames: linked by pfn (pfn_list: the LRU lists
 * and private lists), rings of pfns (pfn_ring: the pcp lists) and rings
 * of pfns with holes (pfn_slots: the buddy free lists).
 *
 * The kernel threads struct page onto list_head pointers (buddy_list,
 * pcp_list, lru).  pfn_list links frames through struct page.next/prev,
 * which hold pfns, with PFN_NONE as the end marker, so the frame array
 * stays 16 bytes per frame and identical across builds (types.h).  The
 * rings keep the same order with a host layout that lets a walk see the
 * frames ahead of it (below).
 *
 *     struct pfn_list            frames (mem_map[pfn])
 *     +------+------+            +-----------+     +-----------+
 *     | head | tail |----------->| next prev |<--->| next prev |---> PFN_NONE
 *     +------+------+            +-----------+     +-----------+
 *
 * Every operation is O(1).  A frame is on at most one list at a time;
 * which list is recorded by its owner (page type + index, see types.h).
 */
#ifndef SLOWPATH_MM_LIST_H
#define SLOWPATH_MM_LIST_H

#include <stdbool.h>
#include <stdlib.h>

#include "mm/types.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"

struct pfn_list {
	pfn_t	head;		/* first frame, PFN_NONE when empty */
	pfn_t	tail;		/* last frame, PFN_NONE when empty */
};

static inline void pfn_list_init(struct pfn_list *l)
{
	l->head = l->tail = PFN_NONE;
}

static inline bool pfn_list_empty(const struct pfn_list *l)
{
	return l->head == PFN_NONE;
}

/* list_add(): insert at the head. */
static inline void pfn_list_add(struct page *map, struct pfn_list *l, pfn_t pfn)
{
	struct page *p = &map[pfn];

	p->prev = PFN_NONE;
	p->next = l->head;
	if (l->head != PFN_NONE)
		map[l->head].prev = pfn;
	else
		l->tail = pfn;
	l->head = pfn;
}

/* list_add_tail(): insert at the tail. */
static inline void pfn_list_add_tail(struct page *map, struct pfn_list *l, pfn_t pfn)
{
	struct page *p = &map[pfn];

	p->next = PFN_NONE;
	p->prev = l->tail;
	if (l->tail != PFN_NONE)
		map[l->tail].next = pfn;
	else
		l->head = pfn;
	l->tail = pfn;
}

/* list_del(): unlink a frame known to be on l. */
static inline void pfn_list_del(struct page *map, struct pfn_list *l, pfn_t pfn)
{
	struct page *p = &map[pfn];

	if (p->prev != PFN_NONE)
		map[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != PFN_NONE)
		map[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->next = p->prev = PFN_NONE;
}

/* list_splice(): move every frame of `from`, in order, to the head of
 * `to`; `from` ends empty. */
static inline void pfn_list_splice(struct page *map, struct pfn_list *from, struct pfn_list *to)
{
	if (pfn_list_empty(from))
		return;
	if (pfn_list_empty(to)) {
		*to = *from;
	} else {
		map[from->tail].next = to->head;
		map[to->head].prev = from->tail;
		to->head = from->head;
	}
	pfn_list_init(from);
}

/*
 * pfn_ring — a list that gains and loses frames only at its ends, kept as
 * a ring of pfns instead of links in the frames.  The pcp lists are such
 * lists (list_add, list_add_tail, taking the head or the tail); the kernel
 * links their struct pages, and so did the model, which made a drain of
 * 100 000 pages cached on 96 CPUs a chain of dependent host cache misses.
 * Here a walk knows the frames ahead of it without reading them.  Order
 * and contents are those of the linked list; only the host layout differs.
 *
 *     v: [ . . h x x x x t . . ]   head at `first`, n entries, wrapping
 */
struct pfn_ring {
	pfn_t		*v;	/* [mask + 1]; NULL until the first add */
	uint32_t	mask;	/* capacity - 1, capacity a power of two */
	uint32_t	first;	/* index of the head */
	uint32_t	n;	/* frames on the list */
};

static inline void pfn_ring_init(struct pfn_ring *r)
{
	r->v = NULL;
	r->mask = r->first = r->n = 0;
}

static inline void pfn_ring_release(struct pfn_ring *r)
{
	free(r->v);
	pfn_ring_init(r);
}

static inline bool pfn_ring_empty(const struct pfn_ring *r)
{
	return r->n == 0;
}

/* The i-th frame from the head (i < n). */
static inline pfn_t pfn_ring_at(const struct pfn_ring *r, uint32_t i)
{
	return r->v[(r->first + i) & r->mask];
}

static inline pfn_t pfn_ring_head(const struct pfn_ring *r)
{
	return r->n ? pfn_ring_at(r, 0) : PFN_NONE;
}

static inline pfn_t pfn_ring_tail(const struct pfn_ring *r)
{
	return r->n ? pfn_ring_at(r, r->n - 1) : PFN_NONE;
}

/* Double the capacity (16 at first), the frames in order from index 0. */
static inline void pfn_ring_grow(struct pfn_ring *r)
{
	uint32_t cap = r->v ? 2 * (r->mask + 1) : 16;
	pfn_t *v = xmalloc(cap * sizeof(*v));

	for (uint32_t i = 0; i < r->n; i++)
		v[i] = pfn_ring_at(r, i);
	free(r->v);
	r->v = v;
	r->mask = cap - 1;
	r->first = 0;
}

/* list_add(): insert at the head. */
static inline void pfn_ring_add(struct pfn_ring *r, pfn_t pfn)
{
	if (!r->v || r->n == r->mask + 1)
		pfn_ring_grow(r);
	r->first = (r->first - 1) & r->mask;
	r->v[r->first] = pfn;
	r->n++;
}

/* list_add_tail(): insert at the tail. */
static inline void pfn_ring_add_tail(struct pfn_ring *r, pfn_t pfn)
{
	if (!r->v || r->n == r->mask + 1)
		pfn_ring_grow(r);
	r->v[(r->first + r->n) & r->mask] = pfn;
	r->n++;
}

/* Take the head off (the ring is not empty). */
static inline pfn_t pfn_ring_del_head(struct pfn_ring *r)
{
	pfn_t pfn = r->v[r->first];

	r->first = (r->first + 1) & r->mask;
	r->n--;
	return pfn;
}

/* Take the tail off (the ring is not empty). */
static inline pfn_t pfn_ring_del_tail(struct pfn_ring *r)
{
	r->n--;
	return r->v[(r->first + r->n) & r->mask];
}

/*
 * pfn_slots — a list that gains frames at its ends and loses them
 * anywhere: the buddy free lists, where __free_one_page takes a merging
 * buddy out of the middle of its list.  The kernel links their struct
 * pages; a refill (rmqueue_bulk) then learns each next head only by
 * reading the page it has just taken, one dependent host cache miss per
 * page over a cold mem_map.  Here the frames sit in a ring of pfns in list
 * order, so a walk knows the frames ahead of it without reading them.  A
 * frame that leaves from the middle leaves a hole (PFN_NONE); the ends
 * are always frames.  Each frame on the ring keeps the sequence number of
 * its slot in struct page.next (its prev is PFN_NONE), so list_del is
 * O(1).  Sequence numbers are uint32_t and wrap; slot = seq & mask.
 *
 *     v: [ . f x _ x x _ x e . ]   f = first (head), e = end (past the
 *                                   tail), _ = holes
 *
 * When the span end - first fills the ring, it doubles (every frame keeps
 * its sequence number: no frame is written) unless holes are at least
 * half of it; then the frames are laid out again without holes and each
 * gets a new number (one write per frame, paid for by the deletions that
 * made the holes).  Order and contents are those of the linked list; only
 * the host layout differs.
 */
struct pfn_slots {
	pfn_t		*v;	/* [mask + 1]; NULL until the first add */
	uint32_t	mask;	/* capacity - 1, capacity a power of two */
	uint32_t	first;	/* sequence number of the head's slot */
	uint32_t	end;	/* sequence number past the tail's slot */
	uint32_t	n;	/* frames on the list */
};

static inline void pfn_slots_init(struct pfn_slots *r)
{
	r->v = NULL;
	r->mask = r->first = r->end = r->n = 0;
}

/* A ring's array: from 2 MiB on in host huge pages, since a free list of
 * millions of order-0 frames is touched at random by merges (host layout
 * only). */
#define PFN_SLOTS_HUGE	(1u << 19)	/* slots: 2 MiB */

static inline pfn_t *pfn_slots_alloc(uint32_t cap)
{
	pfn_t *v;

	if (cap < PFN_SLOTS_HUGE)
		return xmalloc(cap * sizeof(*v));
	v = host_huge_alloc((size_t)cap * sizeof(*v));
	if (!v)
		xalloc_die((size_t)cap * sizeof(*v));
	return v;
}

static inline void pfn_slots_free(pfn_t *v, uint32_t cap)
{
	if (cap < PFN_SLOTS_HUGE)
		free(v);
	else
		host_huge_free(v, (size_t)cap * sizeof(*v));
}

static inline void pfn_slots_release(struct pfn_slots *r)
{
	if (r->v)
		pfn_slots_free(r->v, r->mask + 1);
	pfn_slots_init(r);
}

static inline bool pfn_slots_empty(const struct pfn_slots *r)
{
	return r->n == 0;
}

/* The frame in slot `seq`, or PFN_NONE for a hole. */
static inline pfn_t pfn_slots_get(const struct pfn_slots *r, uint32_t seq)
{
	return r->v[seq & r->mask];
}

static inline pfn_t pfn_slots_head(const struct pfn_slots *r)
{
	return r->n ? pfn_slots_get(r, r->first) : PFN_NONE;
}

static inline pfn_t pfn_slots_tail(const struct pfn_slots *r)
{
	return r->n ? pfn_slots_get(r, r->end - 1) : PFN_NONE;
}

/* The address of the slot `pfn` sits in (for host prefetches). */
static inline const pfn_t *pfn_slots_slot_of(const struct page *map, const struct pfn_slots *r,
					     pfn_t pfn)
{
	return &r->v[map[pfn].next & r->mask];
}

/* The span has filled the ring: double it, or lay the frames out again
 * from sequence number 0 when holes are at least half of the span. */
static inline void pfn_slots_make_room(struct page *map, struct pfn_slots *r)
{
	uint32_t span = r->end - r->first, cap, j = 0;
	bool relay = r->v && r->n <= span / 2;
	pfn_t *v;

	cap = !r->v ? 16 : relay ? r->mask + 1 : 2 * (r->mask + 1);
	v = pfn_slots_alloc(cap);
	for (uint32_t i = 0; i < cap; i++)
		v[i] = PFN_NONE;
	for (uint32_t s = r->first; s != r->end; s++) {
		pfn_t pfn = pfn_slots_get(r, s);

		if (!relay) {
			v[s & (cap - 1)] = pfn;
		} else if (pfn != PFN_NONE) {
			v[j] = pfn;
			map[pfn].next = j++;
		}
	}
	if (r->v)
		pfn_slots_free(r->v, r->mask + 1);
	r->v = v;
	r->mask = cap - 1;
	if (relay) {
		r->first = 0;
		r->end = j;
	}
}

/* list_add(): insert at the head. */
static inline void pfn_slots_add(struct page *map, struct pfn_slots *r, pfn_t pfn)
{
	if (!r->v || r->end - r->first == r->mask + 1)
		pfn_slots_make_room(map, r);
	r->first--;
	r->v[r->first & r->mask] = pfn;
	map[pfn].next = r->first;
	map[pfn].prev = PFN_NONE;
	r->n++;
}

/* list_add_tail(): insert at the tail. */
static inline void pfn_slots_add_tail(struct page *map, struct pfn_slots *r, pfn_t pfn)
{
	if (!r->v || r->end - r->first == r->mask + 1)
		pfn_slots_make_room(map, r);
	r->v[r->end & r->mask] = pfn;
	map[pfn].next = r->end++;
	map[pfn].prev = PFN_NONE;
	r->n++;
}

/* list_del(): take a frame known to be on r off it. */
static inline void pfn_slots_del(struct page *map, struct pfn_slots *r, pfn_t pfn)
{
	uint32_t seq = map[pfn].next;

	r->v[seq & r->mask] = PFN_NONE;
	map[pfn].next = map[pfn].prev = PFN_NONE;
	if (!--r->n) {
		r->first = r->end = 0;
		return;
	}
	if (seq == r->first)
		while (pfn_slots_get(r, r->first) == PFN_NONE)
			r->first++;
	if (seq == r->end - 1)
		while (pfn_slots_get(r, r->end - 1) == PFN_NONE)
			r->end--;
}

/* Rotate the list so that `pfn` is its head, the frames before it going
 * to the tail in order; moves the shorter side. */
static inline void pfn_slots_rotate_to_head(struct page *map, struct pfn_slots *r, pfn_t pfn)
{
	if (map[pfn].next - r->first <= r->end - map[pfn].next) {
		for (pfn_t h; (h = pfn_slots_head(r)) != pfn;) {
			pfn_slots_del(map, r, h);
			pfn_slots_add_tail(map, r, h);
		}
	} else {
		pfn_t t;

		do {
			t = pfn_slots_tail(r);
			pfn_slots_del(map, r, t);
			pfn_slots_add(map, r, t);
		} while (t != pfn);
	}
}

/* Rotate the list so that `pfn` is its tail, the frames after it coming
 * first; moves the shorter side. */
static inline void pfn_slots_rotate_to_tail(struct page *map, struct pfn_slots *r, pfn_t pfn)
{
	if (map[pfn].next - r->first < r->end - map[pfn].next) {
		pfn_t h;

		do {
			h = pfn_slots_head(r);
			pfn_slots_del(map, r, h);
			pfn_slots_add_tail(map, r, h);
		} while (h != pfn);
	} else {
		for (pfn_t t; (t = pfn_slots_tail(r)) != pfn;) {
			pfn_slots_del(map, r, t);
			pfn_slots_add(map, r, t);
		}
	}
}

#endif /* SLOWPATH_MM_LIST_H */
