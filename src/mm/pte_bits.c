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
#include "sim/xalloc.h"

/*
 * The 64-byte blocks of the tables that spilled: taken from blocks of
 * PTE_SPILL_BATCH, handed back to a free list, all freed with the machine
 * (memory_release_all).
 */
#define PTE_SPILL_BATCH	4096

struct pte_spill_pool {
	uint64_t	*free;		/* free blocks, linked through their first word */
	void		**batches;
	size_t		nr_batches, cap_batches;
};

static uint64_t *pte_spill_alloc(struct machine *m)
{
	struct pte_spill_pool *p = m->pte_spill;
	uint64_t *b;

	if (!p)
		p = m->pte_spill = xzalloc(sizeof(*p));
	if (!p->free) {
		uint64_t *batch = xmalloc(PTE_SPILL_BATCH * PTRS_PER_PT / 8);

		if (p->nr_batches == p->cap_batches) {
			p->cap_batches = p->cap_batches ? 2 * p->cap_batches : 16;
			p->batches = xrealloc(p->batches, p->cap_batches * sizeof(*p->batches));
		}
		p->batches[p->nr_batches++] = batch;
		for (size_t k = 0; k < PTE_SPILL_BATCH; k++) {
			uint64_t *blk = batch + k * (PTRS_PER_PT / 64);

			*(uint64_t **)(void *)blk = p->free;
			p->free = blk;
		}
	}
	b = p->free;
	p->free = *(uint64_t **)(void *)b;
	return b;
}

void pte_spill_release(struct machine *m)
{
	struct pte_spill_pool *p = m->pte_spill;

	if (!p)
		return;
	for (size_t k = 0; k < p->nr_batches; k++)
		free(p->batches[k]);
	free(p->batches);
	free(p);
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
	uint64_t *b = pte_spill_alloc(m);

	for (unsigned int c = 0; c < PTRS_PER_PT / PTE_CHUNK_PAGES; c++) {
		if (c % 4 == 0)
			b[c / 4] = 0;
		b[c / 4] |= (uint64_t)pte_chunk(pte, c) << (c % 4 * 16);
	}
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
		*(uint64_t **)(void *)pte->spill = m->pte_spill->free;
		m->pte_spill->free = pte->spill;
		pte->spill = NULL;
		pte->nr_part = 0;
	}
}
