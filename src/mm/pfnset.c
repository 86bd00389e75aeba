/* SPDX-License-Identifier: MIT */
/* pfnset.c — see pfnset.h. */
#include <stdlib.h>

#include "mm/pfnset.h"
#include "sim/debug.h"

static inline uint32_t pfn_hash(pfn_t pfn)
{
	return (uint32_t)(((uint64_t)pfn * 0x9e3779b97f4a7c15ULL) >> 32);
}

static void alloc_slots(struct pfn_set *s, uint32_t cap)
{
	s->cap = cap;
	s->slots = malloc(cap * sizeof(pfn_t));
	s->tags = calloc(cap, 1);
	if (!s->slots || !s->tags)
		SIM_BUG("out of memory for a pfn set of %u", cap);
	for (uint32_t i = 0; i < cap; i++)
		s->slots[i] = PFN_NONE;
}

void pfn_set_init(struct pfn_set *s)
{
	s->nr = 0;
	alloc_slots(s, 64);
}

void pfn_set_release(struct pfn_set *s)
{
	free(s->slots);
	free(s->tags);
	s->slots = NULL;
	s->tags = NULL;
	s->cap = s->nr = 0;
}

static uint32_t find_slot(const struct pfn_set *s, pfn_t pfn)
{
	uint32_t mask = s->cap - 1, i = pfn_hash(pfn) & mask;

	while (s->slots[i] != PFN_NONE && s->slots[i] != pfn)
		i = (i + 1) & mask;
	return i;
}

static void grow(struct pfn_set *s)
{
	pfn_t *old = s->slots;
	uint8_t *old_tags = s->tags;
	uint32_t old_cap = s->cap;

	alloc_slots(s, old_cap * 2);
	for (uint32_t i = 0; i < old_cap; i++) {
		if (old[i] != PFN_NONE) {
			uint32_t j = find_slot(s, old[i]);

			s->slots[j] = old[i];
			s->tags[j] = old_tags[i];
		}
	}
	free(old);
	free(old_tags);
}

bool pfn_set_has(const struct pfn_set *s, pfn_t pfn)
{
	return s->nr && s->slots[find_slot(s, pfn)] == pfn;
}

uint8_t *pfn_set_tag(struct pfn_set *s, pfn_t pfn)
{
	uint32_t i;

	if (!s->nr)
		return NULL;
	i = find_slot(s, pfn);
	return s->slots[i] == pfn ? &s->tags[i] : NULL;
}

bool pfn_set_add(struct pfn_set *s, pfn_t pfn)
{
	uint32_t i;

	if ((s->nr + 1) * 2 > s->cap)
		grow(s);
	i = find_slot(s, pfn);
	if (s->slots[i] == pfn)
		return false;
	s->slots[i] = pfn;
	s->tags[i] = 0;
	s->nr++;
	return true;
}

bool pfn_set_del(struct pfn_set *s, pfn_t pfn)
{
	uint32_t mask = s->cap - 1, i = find_slot(s, pfn), j;

	if (s->slots[i] != pfn)
		return false;
	s->slots[i] = PFN_NONE;
	s->nr--;
	/* backward shift: move later entries of the probe run into the hole
	 * unless their home slot lies cyclically within (hole, j] */
	for (j = (i + 1) & mask; s->slots[j] != PFN_NONE; j = (j + 1) & mask) {
		uint32_t home = pfn_hash(s->slots[j]) & mask;
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);

		if (!stays) {
			s->slots[i] = s->slots[j];
			s->tags[i] = s->tags[j];
			s->slots[j] = PFN_NONE;
			i = j;
		}
	}
	return true;
}

size_t pfn_set_bytes(const struct pfn_set *s)
{
	return (size_t)s->cap * (sizeof(pfn_t) + 1);
}
