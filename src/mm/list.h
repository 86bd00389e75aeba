/* SPDX-License-Identifier: MIT */
/*
 * list.h — intrusive doubly linked lists of page frames, linked by pfn.
 *
 * The kernel threads struct page onto list_head pointers (buddy_list,
 * pcp_list, lru).  The model links frames through struct page.next/prev,
 * which hold pfns, with PFN_NONE as the end marker, so the frame array
 * stays 16 bytes per frame and identical across builds (types.h).
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

#endif /* SLOWPATH_MM_LIST_H */
