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

#include "mm/types.h"

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

#endif /* SLOWPATH_MM_LIST_H */
