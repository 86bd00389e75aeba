/* SPDX-License-Identifier: MIT */
/*
 * hugetlb.c — the 2 MiB hugetlb pool, hugetlb files and PMD sharing
 * (mm/hugetlb.c, Linux 6.12; NR_HUGETLB as 6.13+ counts it).
 *
 * Pool: hugetlb_pool_init() does what writing vm.nr_hugepages at start
 * does (set_max_huge_pages -> alloc_pool_huge_folio ->
 * alloc_buddy_hugetlb_folio): order-9 allocations with
 *   htlb_alloc_mask = GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN
 *   (2 MiB pages are migratable on arm64), | __GFP_THISNODE,
 *   | __GFP_RETRY_MAYFAIL (alloc_try_hard: the first attempt on a node),
 * counting htlb_buddy_alloc_success / _fail, stopping at the first
 * failure as set_max_huge_pages does.  On fragmented memory the pool
 * falls short: sim_hugetlb_pool_wanted / sim_hugetlb_pool_shortfall and
 * hugetlb_pool_pages() report it.  Pool pages are PGTY_HUGETLB heads,
 * counted in NR_HUGETLB (pages) whether free or in use, as 6.13+ does
 * (account_new_hugetlb_folio); meminfo's HugePages_* follow the hstate.
 *
 * Files: a hugetlbfs file or SHM_HUGETLB segment holds pool pages by
 * 2 MiB index; a fault takes a free pool page (zeroed: 512 x clear_page)
 * when the index has none; the pages go back to the pool when the file's
 * last reference goes.
 *
 * PMD sharing (huge_pmd_share, CONFIG_HUGETLB_PMD_PAGE_TABLE_SHARING):
 * one PMD page per GiB of the file, used by every process whose VMA
 * covers that whole PUD-aligned GiB; allocated by the first such fault
 * (GFP_PGTABLE_USER, counted once in NR_PAGETABLE) and freed by the last
 * huge_pmd_unshare.
 *
 * Simplifications: no reservations (HugePages_Rsvd is 0: mmap does not
 * reserve), no surplus/overcommit pages, no gigantic pages, no
 * demotion, no freeing of pool pages back to the buddy during a run.
 */
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "mm/memory.h"
#include "mm/memory_internal.h"
#include "mm/mmzone.h"
#include "mm/vmstat.h"

struct hugetlb_file {
	struct machine			*m;
	unsigned long			nr_pages;	/* 2 MiB pages it can hold */
	pfn_t				*pages;		/* [nr_pages], PFN_NONE = hole */
	struct hugetlb_pmd_share	**shares;	/* [nr_gib] */
	unsigned long			nr_gib;
	unsigned int			refs;
	struct hugetlb_file		*list_prev, *list_next;	/* machine's hugetlb_list */
};

static void hugetlb_file_free(struct hugetlb_file *f)
{
	struct machine *m = f->m;

	if (f->list_prev)
		f->list_prev->list_next = f->list_next;
	else
		m->hugetlb_list = f->list_next;
	if (f->list_next)
		f->list_next->list_prev = f->list_prev;
	for (unsigned long g = 0; g < f->nr_gib; g++)
		free(f->shares[g]);
	free(f->pages);
	free(f->shares);
	free(f);
}

static struct hstate *hstate_get(struct machine *m)
{
	if (!m->hstate) {
		m->hstate = calloc(1, sizeof(*m->hstate));
		if (!m->hstate)
			SIM_BUG("out of memory for the hugetlb pool");
		pfn_list_init(&m->hstate->hugepage_freelist);
	}
	return m->hstate;
}

void hugetlb_pool_init(struct machine *m)
{
	struct hstate *h = hstate_get(m);
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN | __GFP_THISNODE |
		    __GFP_RETRY_MAYFAIL;

	h->requested = m->t.nr_hugepages;
	sim_stat_add(m, SIM_HUGETLB_POOL_WANTED, h->requested);
	while (h->nr_huge_pages < h->requested) {
		pfn_t pfn = __alloc_pages(m, gfp, HPAGE_PMD_ORDER, NULL);

		if (pfn == PFN_NONE) {
			count_vm_event(m, HTLB_BUDDY_PGALLOC_FAIL);
			break;
		}
		count_vm_event(m, HTLB_BUDDY_PGALLOC);
		set_page_type_order(pfn_to_page(m, pfn), PGTY_HUGETLB, HPAGE_PMD_ORDER);
		pfn_list_add_tail(m->mem_map, &h->hugepage_freelist, pfn);
		h->nr_huge_pages++;
		h->free_huge_pages++;
		mod_node_page_state(&m->node, NR_HUGETLB, HPAGE_PMD_NR);
	}
	sim_stat_add(m, SIM_HUGETLB_POOL_SHORTFALL, h->requested - h->nr_huge_pages);
}

void hugetlb_release(struct machine *m)
{
	while (m->hugetlb_list)
		hugetlb_file_free(m->hugetlb_list);
	free(m->hstate);
	m->hstate = NULL;
}

unsigned long hugetlb_pool_pages(const struct machine *m)
{
	return m->hstate ? m->hstate->nr_huge_pages : 0;
}

unsigned long hugetlb_free_pages(const struct machine *m)
{
	return m->hstate ? m->hstate->free_huge_pages : 0;
}

struct hugetlb_file *hugetlb_file_create(struct machine *m, unsigned long size, const char *name)
{
	struct hugetlb_file *f = calloc(1, sizeof(*f));

	(void)name;
	if (!f)
		SIM_BUG("out of memory for a hugetlb file");
	f->m = m;
	f->nr_pages = (size + (HPAGE_PMD_NR * PAGE_SIZE) - 1) / (HPAGE_PMD_NR * PAGE_SIZE);
	f->nr_gib = (size + ((1UL << 30) - 1)) >> 30;
	f->pages = malloc((f->nr_pages ? f->nr_pages : 1) * sizeof(pfn_t));
	f->shares = calloc(f->nr_gib ? f->nr_gib : 1, sizeof(*f->shares));
	if (!f->pages || !f->shares)
		SIM_BUG("out of memory for a hugetlb file");
	for (unsigned long i = 0; i < f->nr_pages; i++)
		f->pages[i] = PFN_NONE;
	f->refs = 1;
	f->list_next = m->hugetlb_list;
	if (m->hugetlb_list)
		m->hugetlb_list->list_prev = f;
	m->hugetlb_list = f;
	return f;
}

void hugetlb_file_get(struct hugetlb_file *f)
{
	f->refs++;
}

void hugetlb_file_put(struct hugetlb_file *f)
{
	struct machine *m = f->m;
	struct hstate *h = hstate_get(m);

	SIM_ASSERT(f->refs > 0);
	if (--f->refs)
		return;
	for (unsigned long i = 0; i < f->nr_pages; i++) {
		if (f->pages[i] == PFN_NONE)
			continue;
		/* free_huge_folio -> enqueue_hugetlb_folio */
		pfn_list_add_tail(m->mem_map, &h->hugepage_freelist, f->pages[i]);
		h->free_huge_pages++;
	}
	for (unsigned long g = 0; g < f->nr_gib; g++)
		SIM_ASSERT(!f->shares[g]);	/* every mapper has unshared */
	hugetlb_file_free(f);
}

pfn_t hugetlb_file_get_page(struct hugetlb_file *f, unsigned long hidx)
{
	struct machine *m = f->m;
	struct hstate *h = hstate_get(m);
	pfn_t pfn;

	SIM_ASSERT(hidx < f->nr_pages);
	if (f->pages[hidx] != PFN_NONE)
		return f->pages[hidx];
	if (pfn_list_empty(&h->hugepage_freelist))
		return PFN_NONE;
	/* alloc_hugetlb_folio -> dequeue_hugetlb_folio_nodemask */
	pfn = h->hugepage_freelist.head;
	pfn_list_del(m->mem_map, &h->hugepage_freelist, pfn);
	pfn_to_page(m, pfn)->next = pfn_to_page(m, pfn)->prev = PFN_NONE;
	h->free_huge_pages--;
	mm_charge(m, COST_hugetlb_dequeue, 1);
	mm_charge(m, COST_clear_page, HPAGE_PMD_NR);	/* clear_huge_page */
	f->pages[hidx] = pfn;
	return pfn;
}

struct hugetlb_pmd_share *huge_pmd_share(struct hugetlb_file *f, unsigned long fidx)
{
	struct machine *m = f->m;
	struct hugetlb_pmd_share *s;
	pfn_t pfn;

	SIM_ASSERT(fidx < f->nr_gib);
	if ((s = f->shares[fidx])) {
		s->refs++;
		sim_stat_inc(m, SIM_HUGETLB_PMD_SHARED);
		return s;
	}
	pfn = pgtable_alloc(m, NULL);
	if (pfn == PFN_NONE)
		return NULL;
	if ((s = f->shares[fidx])) {
		/* another process installed it while we waited in the allocator */
		pgtable_free(m, NULL, pfn);
		s->refs++;
		sim_stat_inc(m, SIM_HUGETLB_PMD_SHARED);
		return s;
	}
	pgtable_ctor(m, pfn);
	s = calloc(1, sizeof(*s));
	if (!s)
		SIM_BUG("out of memory for a shared PMD");
	s->file = f;
	s->fidx = fidx;
	s->pfn = pfn;
	s->refs = 1;
	f->shares[fidx] = s;
	return s;
}

void hugetlb_share_get(struct hugetlb_pmd_share *share)
{
	share->refs++;
}

void hugetlb_share_put(struct machine *m, struct hugetlb_pmd_share *share)
{
	SIM_ASSERT(share->refs > 0);
	if (--share->refs)
		return;
	/* the last user frees the PMD page */
	pgtable_dtor(m, share->pfn);
	pgtable_free(m, NULL, share->pfn);
	share->file->shares[share->fidx] = NULL;
	free(share);
}
