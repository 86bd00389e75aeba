/* SPDX-License-Identifier: MIT */
/*
 * pfnset.h — a small set of pfns with one tag byte each: open addressing,
 * linear probing, capacity a power of two at least twice the entries,
 * deletion by backward shift (no tombstones).  For the model's per-folio
 * state that struct page has no room for and that only a handful of
 * folios carry at a time: the locked folios (folio_lock.c) and the folios
 * reclaim or compaction holds isolated (swap.c).  Nothing iterates a set,
 * so its order never reaches output.
 */
#ifndef SLOWPATH_MM_PFNSET_H
#define SLOWPATH_MM_PFNSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/types.h"

struct pfn_set {
	pfn_t		*slots;		/* [cap], PFN_NONE = empty */
	uint8_t		*tags;		/* [cap] */
	uint32_t	cap;
	uint32_t	nr;
};

void pfn_set_init(struct pfn_set *s);
void pfn_set_release(struct pfn_set *s);
bool pfn_set_add(struct pfn_set *s, pfn_t pfn);		/* false if present */
bool pfn_set_del(struct pfn_set *s, pfn_t pfn);		/* false if absent */
bool pfn_set_has(const struct pfn_set *s, pfn_t pfn);
uint8_t *pfn_set_tag(struct pfn_set *s, pfn_t pfn);	/* NULL if absent */
size_t pfn_set_bytes(const struct pfn_set *s);

#endif
