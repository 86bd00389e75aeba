/* SPDX-License-Identifier: MIT */
/*
 * memory_internal.h — what memory.c, shmem.c, hugetlb.c and huge_memory.c
 * share: page-table page allocation and the hugetlb PMD-sharing records.
 */
#ifndef SLOWPATH_MM_MEMORY_INTERNAL_H
#define SLOWPATH_MM_MEMORY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/memory.h"

/* pagetable_alloc(GFP_PGTABLE_USER, 0) for `mm` (NULL: a shared PMD owned
 * by a hugetlb file), and its free; the ctor/dtor move NR_PAGETABLE. */
pfn_t pgtable_alloc(struct machine *m, struct mm_struct *mm);
void pgtable_free(struct machine *m, struct mm_struct *mm, pfn_t pfn);
void pgtable_ctor(struct machine *m, pfn_t pfn);
void pgtable_dtor(struct machine *m, pfn_t pfn);

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);

/* One shared PMD page of a hugetlb file: the PMD table for the file's
 * `fidx`-th GiB, used by every process that maps that GiB whole. */
struct hugetlb_pmd_share {
	struct hugetlb_file *file;	/* owner, and the slot it sits in */
	unsigned long	fidx;
	pfn_t		pfn;
	uint32_t	refs;		/* processes using it */
	uint64_t	bits[PTRS_PER_PT / 64];	/* populated 2 MiB entries */
};

/* huge_pmd_share(): the share for GiB `fidx` of the file, created (with a
 * new PMD page) by its first user; NULL when that page cannot be had. */
struct hugetlb_pmd_share *huge_pmd_share(struct hugetlb_file *f, unsigned long fidx);
void hugetlb_share_get(struct hugetlb_pmd_share *share);
/* huge_pmd_unshare(): the last user frees the PMD page. */
void hugetlb_share_put(struct machine *m, struct hugetlb_pmd_share *share);
static inline pfn_t hugetlb_share_pfn(const struct hugetlb_pmd_share *s) { return s->pfn; }
static inline uint64_t *hugetlb_share_bits(struct hugetlb_pmd_share *s) { return s->bits; }
static inline bool hugetlb_share_mapped(const struct hugetlb_pmd_share *s, unsigned int i)
{
	return s->bits[i / 64] & (1ULL << (i % 64));
}
/* The file's 2 MiB page `hidx`, taken from the pool (and zeroed) if
 * absent; PFN_NONE when the pool is empty. */
pfn_t hugetlb_file_get_page(struct hugetlb_file *f, unsigned long hidx);

#endif
