/* SPDX-License-Identifier: MIT */
/*
 * pte_bits.c — a PTE page's present bits as struct pt_pte keeps them
 * (memory.h): by 16-page chunk, with the partly present chunks' masks
 * inline and a 64-byte block of all 512 bits when there are more of
 * them.  Host layout only: every answer is the plain bitmap's
 * (test_memory.c runs a random program against one).
 */
#include <stdlib.h>
#include <string.h>

#include "mm/mmzone.h"
#include "mm/memory.h"
#include "sim/debug.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"

/*
 * The 64-byte blocks of the tables that spilled come from a host_pool
 * (sim/hostmem.h), made at the first spill; m->pte_spills counts those in
 * use, so that teardown knows whether any record still holds one.
 */
static uint64_t *pte_spill_alloc(struct machine *m)
{
	uint64_t *b;

	if (!m->pte_spill) {
		m->pte_spill = xmalloc(sizeof(*m->pte_spill));
		host_pool_init(m->pte_spill, PTRS_PER_PT / 8);
	}
	b = host_pool_alloc(m->pte_spill);
	if (!b)
		SIM_BUG("out of memory for a PTE mirror's block");
	m->pte_spills++;
	return b;
}

void pte_spill_release(struct machine *m)
{
	if (!m->pte_spill)
		return;
	SIM_ASSERT(m->pte_spills == 0);
	host_pool_release(m->pte_spill);
	free(m->pte_spill);
	m->pte_spill = NULL;
}

/* Chunk c's 16 present bits. */
uint16_t pte_chunk(const struct pt_pte *pte, unsigned int c)
{
	uint32_t bit = 1u << c;

	if (pte->full & bit)
		return 0xffff;
	if (!(pte->any & bit))
		return 0;
	if (pte->nr_part == PTE_SPILLED)
		return (uint16_t)(pte->spill[c / 4] >> (c % 4 * 16));
	return pte->part[__builtin_popcount(pte->any & ~pte->full & (bit - 1))];
}

/* Keep all 512 bits in a block of their own from now on. */
static void pte_spill(struct machine *m, struct pt_pte *pte)
{
	uint64_t *b = pte_spill_alloc(m);	/* zeroed */

	for (unsigned int c = 0; c < PTRS_PER_PT / PTE_CHUNK_PAGES; c++)
		b[c / 4] |= (uint64_t)pte_chunk(pte, c) << (c % 4 * 16);
	pte->spill = b;
	pte->nr_part = PTE_SPILLED;
}

/* Set chunk c's 16 present bits to `mask`. */
void pte_chunk_store(struct machine *m, struct pt_pte *pte, unsigned int c, uint16_t mask)
{
	uint32_t bit = 1u << c, partial = pte->any & ~pte->full;
	bool was_part = partial & bit, is_part = mask && mask != 0xffff;

	if (!was_part && is_part && pte->nr_part == PTE_PART_INLINE)
		pte_spill(m, pte);
	if (pte->nr_part == PTE_SPILLED) {
		uint64_t *w = &pte->spill[c / 4];

		*w = (*w & ~(0xffffULL << (c % 4 * 16))) | (uint64_t)mask << (c % 4 * 16);
	} else {
		unsigned int k = (unsigned int)__builtin_popcount(partial & (bit - 1));
		uint16_t *part = pte->part;

		if (was_part && is_part) {
			part[k] = mask;
		} else if (was_part) {
			memmove(&part[k], &part[k + 1], (pte->nr_part - k - 1) * sizeof(*part));
			pte->nr_part--;
		} else if (is_part) {
			memmove(&part[k + 1], &part[k], (pte->nr_part - k) * sizeof(*part));
			part[k] = mask;
			pte->nr_part++;
		}
	}
	pte->any = mask ? pte->any | bit : pte->any & ~bit;
	pte->full = mask == 0xffff ? pte->full | bit : pte->full & ~bit;
}

void pte_set(struct machine *m, struct pt_pte *pte, unsigned int i)
{
	unsigned int c = i / PTE_CHUNK_PAGES;

	pte_chunk_store(m, pte, c, (uint16_t)(pte_chunk(pte, c) | 1u << (i % PTE_CHUNK_PAGES)));
}

void pte_clear(struct machine *m, struct pt_pte *pte, unsigned int i)
{
	unsigned int c = i / PTE_CHUNK_PAGES;

	pte_chunk_store(m, pte, c, (uint16_t)(pte_chunk(pte, c) & ~(1u << (i % PTE_CHUNK_PAGES))));
}

/* A record's host memory beyond itself goes back (before it is cleared or freed). */
void pte_bits_free(struct machine *m, struct pt_pte *pte)
{
	if (pte->nr_part == PTE_SPILLED) {
		host_pool_free(m->pte_spill, pte->spill);
		m->pte_spills--;
		pte->spill = NULL;
		pte->nr_part = 0;
	}
}
