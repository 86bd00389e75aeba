/* SPDX-License-Identifier: MIT */
/*
 * memory.c — address spaces, page tables, page faults, fork and exit
 * (mm/memory.c, kernel/fork.c, mm/mmap.c, mm/pgtable-generic.c,
 * include/asm-generic/pgalloc.h; Linux 6.12, arm64 4K).  memory.h has
 * the layout; copy_page_range, mm/memory.c and PostgreSQL process model the behaviour that matters.
 *
 * handle_mm_fault(mm, addr, write), as modelled:
 *   1. count pgfault; find the VMA (none: -EFAULT).
 *   2. hugetlb VMA: hugetlb_fault — PUD table, then the PMD table, shared
 *      through huge_pmd_share when the VMA covers the whole PUD-aligned
 *      GiB and is VM_MAYSHARE (CONFIG_HUGETLB_PMD_PAGE_TABLE_SHARING on
 *      arm64 4K); the 2 MiB page from the file or the pool (-EBUSY when
 *      the pool is empty: SIGBUS).
 *   3. otherwise PUD and PMD tables (pud_alloc, pmd_alloc), then:
 *      - private anonymous, THP allowed, write, PMD empty: do_huge_pmd_
 *        anonymous_page (huge_memory.c gfp, order 9 + a deposited PTE
 *        table); on failure thp_fault_fallback and on to the PTE path;
 *      - PTE table (pte_alloc: order 0, GFP_PGTABLE_USER);
 *      - private anonymous: do_anonymous_page — a read maps the zero page,
 *        a write allocates a zeroed GFP_HIGHUSER_MOVABLE page (also when
 *        the PTE mapped the zero page: the write-protect fault);
 *      - shmem/file read: do_read_fault with fault-around (16 pages = 64
 *        KiB, fault_around_bytes, aligned, clipped to the VMA and the PTE
 *        table; maps only pages already in the page cache), then the
 *        faulting page from shmem_get_folio / the page cache (a file miss
 *        reads it: pgmajfault);
 *      - shmem/file write: do_shared_fault, one page, marked dirty.
 * fork (dup_mmap + copy_page_range): VMAs are duplicated; hugetlb VMAs
 * get the parent's tables (shared PMDs are shared again, own PMDs
 * copied); private VMAs with an anon_vma get page tables for every PTE
 * table the parent has in them; shared file/shmem VMAs get nothing (the
 * child refaults, copy_page_range, mm/memory.c).
 * exit (exit_mmap): unmap every VMA (map counts, NR_FILE_MAPPED,
 * NR_ANON_MAPPED), free private anonymous folios, free every page table
 * (free_pgtables), drop shmem/hugetlb references.
 * With [kernel] slab=on (slub.c) a process also holds slab objects: one
 * vm_area_struct per VMA, and task_struct, files_struct, sighand_struct,
 * signal_struct and mm_struct (a process is one task), taken at execve
 * (mm_create) and fork, given back at exit.
 *
 * Simplifications:
 *   - Copy-on-write of anonymous pages across fork is not modelled: the
 *     child gets page tables for the parent's anonymous ranges but no
 *     mappings in them, and faults in its own pages.  (PostgreSQL backends
 *     allocate their private memory after fork; the shared buffer pool is
 *     a shared mapping, which the kernel does not copy either.)
 *   - Private file mappings and mTHP (anonymous orders 1-8) are not
 *     modelled; shmem never uses huge pages (shmem_enabled=never).
 *   - THP read faults map the 4 KiB zero page (the kernel maps the huge
 *     zero page); khugepaged does not run.
 *   - No VMA merging/splitting, no munmap of part of a VMA, no mprotect;
 *     the per-VMA lock and mmap_lock are not contended in the model (a
 *     process is one task).
 *   - TLB flushes are not charged separately (part of zap_pte).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/memory.h"
#include "mm/memory_internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/slub.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "mm/writeback.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"

#define FAULT_AROUND_PAGES	16	/* fault_around_bytes = 64 KiB */

static void mm_free_host(struct mm_struct *mm);

static unsigned int pgd_index(unsigned long a) { return (unsigned int)(a >> PGDIR_SHIFT) & 511; }
static unsigned int pud_index(unsigned long a) { return (unsigned int)(a >> PUD_SHIFT) & 511; }
static unsigned int pmd_index(unsigned long a) { return (unsigned int)(a >> PMD_SHIFT) & 511; }
static unsigned int pte_index(unsigned long a) { return (unsigned int)(a >> PAGE_SHIFT) & 511; }

static bool bit_test(const uint64_t *b, unsigned int i) { return b[i / 64] & (1ULL << (i % 64)); }
static void bit_set(uint64_t *b, unsigned int i) { b[i / 64] |= 1ULL << (i % 64); }
static void bit_clear(uint64_t *b, unsigned int i) { b[i / 64] &= ~(1ULL << (i % 64)); }

/* ---- page-table pages -------------------------------------------------------------- */

/*
 * pagetable_alloc(GFP_PGTABLE_USER, 0) (include/linux/mm.h, 6.12): an
 * order-0, UNMOVABLE, zeroed page.  `owner` 0 means a page owned by a
 * hugetlb file (a shared PMD); otherwise it goes on the mm's list.
 * Counting in NR_PAGETABLE is the ctor's job (pgtable_ctor below).
 */
pfn_t pgtable_alloc(struct machine *m, struct mm_struct *mm)
{
	pfn_t pfn;

	sim_path_push(m->sim, "pagetable_alloc");
	pfn = alloc_pages(m, GFP_PGTABLE_USER, 0, PGTY_PGTABLE);
	sim_path_pop(m->sim);
	if (pfn == PFN_NONE) {
		sim_stat_inc(m, SIM_PGTABLE_ALLOC_FAIL);
		return PFN_NONE;
	}
	pfn_to_page(m, pfn)->index = mm ? mm->id : 0;
	if (mm)
		pfn_list_add_tail(m->mem_map, &mm->pt_pages, pfn);
	return pfn;
}

void pgtable_free(struct machine *m, struct mm_struct *mm, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	SIM_ASSERT(page_type(page) == PGTY_PGTABLE);
	if (mm)
		pfn_list_del(m->mem_map, &mm->pt_pages, pfn);
	page->next = page->prev = PFN_NONE;
	page->index = 0;
	free_pages(m, pfn, 0);
}

/* pagetable_{pte,pmd,pud}_ctor / _dtor: lruvec_stat_add_folio(NR_PAGETABLE). */
void pgtable_ctor(struct machine *m, pfn_t pfn)
{
	(void)pfn;
	mod_node_page_state(&m->node, NR_PAGETABLE, 1);
}

void pgtable_dtor(struct machine *m, pfn_t pfn)
{
	(void)pfn;
	mod_node_page_state(&m->node, NR_PAGETABLE, -1);
}

/* A new table page for `mm`, counted (the pagetable_*_ctor). */
static pfn_t pgtable_new(struct mm_struct *mm)
{
	pfn_t pfn = pgtable_alloc(mm->m, mm);

	if (pfn != PFN_NONE)
		pgtable_ctor(mm->m, pfn);
	return pfn;
}

enum pt_level { PT_PUD, PT_PMD, PT_PTE };

static struct pt_pte *pte_rec_new(struct mm_struct *mm, unsigned long addr);

/*
 * What __pud_alloc(), __pmd_alloc() and __pte_alloc() -> pte_alloc_one()
 * share: a table page for an empty slot (pgtable_new: allocated and
 * counted by the ctor), the host record of that level holding its pfn
 * (every record starts with it) and the mm's count of that level's pages.
 * Returns the record, or NULL when the page allocation failed.
 */
static void *pgtable_populate(struct mm_struct *mm, enum pt_level level, unsigned long addr)
{
	unsigned long *nr[] = { [PT_PUD] = &mm->nr_puds, [PT_PMD] = &mm->nr_pmds, [PT_PTE] = &mm->nr_ptes };
	pfn_t pfn = pgtable_new(mm), *rec;

	if (pfn == PFN_NONE)
		return NULL;
	if (level == PT_PTE) {
		sim_stat_inc(mm->m, SIM_PTE_PAGES_ALLOC);
		rec = &pte_rec_new(mm, addr)->pfn;
	} else {
		rec = xzalloc(level == PT_PUD ? sizeof(struct pt_pud) : sizeof(struct pt_pmd));
	}
	*rec = pfn;
	(*nr[level])++;
	return rec;
}

/* __pud_alloc() */
static struct pt_pud *pud_alloc(struct mm_struct *mm, unsigned long addr)
{
	struct pt_pud **slot = &mm->pud[pgd_index(addr)];

	if (!*slot)
		*slot = pgtable_populate(mm, PT_PUD, addr);
	return *slot;
}

/* __pmd_alloc() (own PMD page) */
static struct pt_pmd *pmd_alloc(struct mm_struct *mm, struct pt_pud *pud, unsigned long addr)
{
	struct pt_pmd **slot = &pud->pmd[pud_index(addr)];

	if (!*slot)
		*slot = pgtable_populate(mm, PT_PMD, addr);
	return *slot;
}

/* ---- the flat window (host memory layout only) ------------------------------------ */

/*
 * PostgreSQL's 1024 backends each map the ~94 GiB buffer pool, and every
 * buffer access asks the mirror whether the page is mapped in this
 * process.  Walking pud -> pmd -> pte pointers costs three cache misses
 * per access on the host (the pmd header, the pte pointer, the record);
 * with the records of the shared pool in one array indexed by 2 MiB
 * region it costs one.  The window covers only whole 2 MiB regions
 * inside one shared shmem/file VMA (no THP, no hugetlb, no anonymous
 * write-protect case there), so a set present bit in it means exactly
 * what pte_mapped() would answer.  The array comes from
 * host_huge_alloc (reserved, resident where written, host huge pages);
 * it changes no simulated result (a failed reservation just means no
 * window).
 */
#define FLAT_MIN_REGIONS	64	/* 128 MiB: smaller VMAs stay as they are */

static void flat_setup(struct mm_struct *mm, const struct vm_area_struct *vma)
{
	unsigned long start = (vma->vm_start + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	unsigned long end = vma->vm_end & ~(PMD_SIZE - 1);
	size_t bytes;
	void *p;

	if (mm->flat || mm->m->no_flat_window || !(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_HUGETLB) ||
	    !(vma->shmem || vma->file) || end <= start ||
	    (end - start) >> PMD_SHIFT < FLAT_MIN_REGIONS)
		return;
	bytes = ((end - start) >> PMD_SHIFT) * sizeof(struct pt_pte);
	p = host_huge_alloc(bytes);
	if (!p)
		return;
	mm->flat = p;
	mm->flat_start = start;
	mm->flat_end = end;
}

static bool flat_covers(const struct mm_struct *mm, unsigned long addr)
{
	return addr - mm->flat_start < mm->flat_end - mm->flat_start;
}

/* A zeroed pt_pte record for the table at `addr`. */
static struct pt_pte *pte_rec_new(struct mm_struct *mm, unsigned long addr)
{
	if (mm->flat && flat_covers(mm, addr))
		return &mm->flat[(addr - mm->flat_start) >> PMD_SHIFT];	/* zero while unused */
	return xzalloc(sizeof(struct pt_pte));
}

/* Give a record back; one in the window is cleared for reuse unless the
 * whole window is about to go (teardown). */
static void pte_rec_free(struct mm_struct *mm, struct pt_pte *rec, bool teardown)
{
	if (!rec)
		return;
	if (mm->flat && rec >= mm->flat &&
	    rec < mm->flat + ((mm->flat_end - mm->flat_start) >> PMD_SHIFT)) {
		if (!teardown)
			memset(rec, 0, sizeof(*rec));
		return;
	}
	free(rec);
}

static void flat_release(struct mm_struct *mm)
{
	if (!mm->flat)
		return;
	host_huge_free(mm->flat, ((mm->flat_end - mm->flat_start) >> PMD_SHIFT) * sizeof(struct pt_pte));
	mm->flat = NULL;
	mm->flat_start = mm->flat_end = 0;
}

/* __pte_alloc() -> pte_alloc_one() */
static struct pt_pte *pte_alloc(struct mm_struct *mm, struct pt_pmd *pmd, unsigned long addr)
{
	struct pt_pte **slot = &pmd->pte[pmd_index(addr)];

	if (!*slot)
		*slot = pgtable_populate(mm, PT_PTE, addr);
	return *slot;
}

static struct pt_pmd *pmd_lookup(const struct mm_struct *mm, unsigned long addr)
{
	const struct pt_pud *pud = mm->pud[pgd_index(addr)];

	return pud ? pud->pmd[pud_index(addr)] : NULL;
}

/* ---- VMAs ----------------------------------------------------------------------------- */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	uint32_t lo = 0, hi = mm->nr_vmas;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (mm->vmas[mid].vm_end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < mm->nr_vmas && mm->vmas[lo].vm_start <= addr)
		return &mm->vmas[lo];
	return NULL;
}

/* vm_area_alloc() / vm_area_dup(): the VMA's vm_area_struct (slab=on;
 * a failed allocation leaves the VMA without one rather than failing the
 * mmap, a simplification), taken before the array can move. */
static struct vm_area_struct *vma_insert(struct mm_struct *mm, const struct vm_area_struct *v)
{
	uint64_t obj = slab_alloc_named(mm->m, SC_vm_area_struct, GFP_KERNEL);
	uint32_t i = 0;

	if (mm->nr_vmas == mm->cap_vmas) {
		mm->cap_vmas = mm->cap_vmas ? mm->cap_vmas * 2 : 8;
		mm->vmas = realloc(mm->vmas, mm->cap_vmas * sizeof(*mm->vmas));
		if (!mm->vmas)
			SIM_BUG("out of memory for VMAs");
	}
	while (i < mm->nr_vmas && mm->vmas[i].vm_start < v->vm_start)
		i++;
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nr_vmas - i) * sizeof(*mm->vmas));
	mm->vmas[i] = *v;
	mm->vmas[i].slab = obj;
	mm->nr_vmas++;
	return &mm->vmas[i];
}

static bool vma_is_anonymous(const struct vm_area_struct *vma)
{
	return !vma->shmem && !vma->file && !vma->hugetlb;
}

/* Index in mm->anon of the private page at `addr` (vm_pgoff holds the
 * VMA's base index there, chosen so 2 MiB-aligned addresses get
 * 512-aligned indices). */
static unsigned long anon_index(const struct vm_area_struct *vma, unsigned long addr)
{
	return vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
}

static unsigned long object_index(const struct vm_area_struct *vma, unsigned long addr)
{
	return vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
}

static struct address_space *vma_mapping(const struct vm_area_struct *vma)
{
	if (vma->shmem)
		return shmem_mapping(vma->shmem);
	if (vma->file)
		return vma->file->i_mapping;
	return NULL;
}

unsigned long mm_mmap(struct mm_struct *mm, unsigned long len, unsigned long vm_flags,
		      struct shmem_object *shmem, struct inode *file, struct hugetlb_file *hugetlb,
		      unsigned long pgoff, unsigned long align)
{
	struct machine *m = mm->m;
	struct vm_area_struct v = { 0 };
	unsigned long start;

	SIM_ASSERT((!!shmem + !!file + !!hugetlb) <= 1);
	SIM_ASSERT(!(shmem || file) || (vm_flags & VM_SHARED));
	if (align < PAGE_SIZE)
		align = PAGE_SIZE;
	if (hugetlb && align < PMD_SIZE)
		align = PMD_SIZE;
	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (hugetlb)
		len = (len + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	if (!len || len > mm->mmap_base)
		return 0;
	start = (mm->mmap_base - len) & ~(align - 1);
	sim_path_push(m->sim, "do_mmap");
	mm_charge(m, COST_vma_op, 1);
	v.vm_start = start;
	v.vm_end = start + len;
	v.vm_flags = vm_flags | (hugetlb ? VM_HUGETLB : 0) | ((vm_flags & VM_SHARED) ? VM_MAYSHARE : 0);
	v.shmem = shmem;
	v.file = file;
	v.hugetlb = hugetlb;
	if (shmem)
		shmem_get(shmem);
	if (hugetlb)
		hugetlb_file_get(hugetlb);
	if (!shmem && !file && !hugetlb) {
		/* a private anonymous range: its own stretch of mm->anon indices */
		v.vm_pgoff = ((mm->anon_next + 511) & ~511UL) + ((start >> PAGE_SHIFT) & 511);
		mm->anon_next = v.vm_pgoff + (len >> PAGE_SHIFT);
	} else {
		v.vm_pgoff = pgoff;
	}
	flat_setup(mm, vma_insert(mm, &v));
	mm->mmap_base = start;
	sim_path_pop(m->sim);
	return start;
}

/* ---- faults ------------------------------------------------------------------------------ */

/* Map `index` of a shared mapping at PTE slot `i` (set_pte_at + rmap). */
static void map_shared_page(struct mm_struct *mm, struct address_space *mapping, struct pt_pte *pte,
			    unsigned int i, unsigned long index)
{
	bit_set(pte->present, i);
	page_mapcount_inc(mm->m, mapping, index);
	if (mapping->kind == MAPPING_SHMEM)
		mm->rss_shmem++;
	else
		mm->rss_file++;
}

/* The folio of a file/shmem mapping at `index`, brought in if absent.
 * *major is set when it had to be read. */
static pfn_t fault_get_folio(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long index,
			     bool *major)
{
	struct machine *m = mm->m;
	pfn_t pfn;

	if (vma->shmem)
		return shmem_get_folio(vma->shmem, index);
	pfn = filemap_lookup(m, vma->file->i_mapping, index);
	if (pfn != PFN_NONE)
		return pfn;
	/* filemap_fault: a miss reads it (synchronous readahead) */
	*major = true;
	sim_path_push(m->sim, "filemap_fault");
	page_cache_sync_ra(m, vma->file, index, 1);
	sim_path_pop(m->sim);
	return filemap_lookup(m, vma->file->i_mapping, index);
}

/* do_fault_around() -> filemap_map_pages(): map the cached pages of the
 * aligned 16-page window around addr that are not mapped yet. */
static void do_fault_around(struct mm_struct *mm, struct vm_area_struct *vma, struct pt_pte *pte,
			    unsigned long addr)
{
	struct address_space *mapping = vma_mapping(vma);
	unsigned long from = addr & ~((unsigned long)FAULT_AROUND_PAGES * PAGE_SIZE - 1);
	unsigned long to = from + FAULT_AROUND_PAGES * PAGE_SIZE;
	unsigned long pmd_start = addr & ~(PMD_SIZE - 1);
	unsigned int mapped;

	if (from < vma->vm_start)
		from = vma->vm_start;
	if (from < pmd_start)
		from = pmd_start;
	if (to > vma->vm_end)
		to = vma->vm_end;
	if (to > pmd_start + PMD_SIZE)
		to = pmd_start + PMD_SIZE;
	if (from >= to)
		return;
	mapped = filemap_map_pages(mm->m, mapping, object_index(vma, from),
				   (unsigned int)((to - from) >> PAGE_SHIFT), pte->present, pte_index(from));
	if (mapping->kind == MAPPING_SHMEM)
		mm->rss_shmem += mapped;
	else
		mm->rss_file += mapped;
}

/* do_read_fault / do_shared_fault for shmem and file VMAs. */
static int do_fault(struct mm_struct *mm, struct vm_area_struct *vma, struct pt_pte *pte,
		    unsigned long addr, bool write, bool *major)
{
	struct address_space *mapping = vma_mapping(vma);
	unsigned int i = pte_index(addr);
	unsigned long index = object_index(vma, addr);
	pfn_t pfn;

	if (!write) {
		do_fault_around(mm, vma, pte, addr);
		if (bit_test(pte->present, i))
			return 0;
	}
	pfn = fault_get_folio(mm, vma, index, major);
	if (pfn == PFN_NONE)
		return -ENOMEM;
	if (!bit_test(pte->present, i))
		map_shared_page(mm, mapping, pte, i, index);
	if (write)
		folio_mark_dirty(mm->m, pfn);
	return 0;
}

/* do_anonymous_page() + the write-protect fault on the zero page. */
static int do_anonymous_page(struct mm_struct *mm, struct vm_area_struct *vma, struct pt_pte *pte,
			     unsigned long addr, bool write)
{
	struct machine *m = mm->m;
	unsigned int i = pte_index(addr);
	unsigned long index = anon_index(vma, addr);
	pfn_t pfn;
	int ret;

	if (!write) {
		bit_set(pte->present, i);	/* the zero page */
		return 0;
	}
	if (filemap_lookup(m, mm->anon, index) != PFN_NONE)
		return 0;			/* mapped and writable already */
	sim_path_push(m->sim, "alloc_anon_folio");
	pfn = alloc_pages(m, GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0, PGTY_ALLOC);
	sim_path_pop(m->sim);
	if (pfn == PFN_NONE)
		return -ENOMEM;
	vma->anon_vma = true;
	ret = filemap_add_folio(m, mm->anon, pfn, index);
	SIM_ASSERT(ret == 0);
	mod_node_page_state(&m->node, NR_ANON_MAPPED, 1);
	mm->rss_anon++;
	bit_set(pte->present, i);
	return 0;
}

/* do_huge_pmd_anonymous_page() (6.12, write faults): the folio first,
 * then the PTE table deposited for a later split.  Returns 0, or
 * -EAGAIN for VM_FAULT_FALLBACK. */
static int do_huge_pmd_anonymous_page(struct mm_struct *mm, struct vm_area_struct *vma,
				      struct pt_pmd *pmd, unsigned long addr)
{
	struct machine *m = mm->m;
	unsigned long haddr = addr & ~(PMD_SIZE - 1);
	struct pt_pte *deposit;
	pfn_t pfn;
	int ret;

	sim_path_push(m->sim, "do_huge_pmd_anonymous_page");
	pfn = __alloc_pages(m, vma_thp_gfp_mask(m, vma), HPAGE_PMD_ORDER, NULL);
	if (pfn == PFN_NONE) {
		count_vm_event(m, THP_FAULT_FALLBACK);
		ret = -EAGAIN;
		goto out;
	}
	deposit = pte_alloc(mm, pmd, haddr);
	if (!deposit) {
		free_pages(m, pfn, HPAGE_PMD_ORDER);
		ret = -ENOMEM;
		goto out;
	}
	deposit->deposited = true;
	mm_charge(m, COST_clear_page, HPAGE_PMD_NR);	/* clear_huge_page */
	vma->anon_vma = true;
	ret = filemap_add_folio(m, mm->anon, pfn, anon_index(vma, haddr));
	SIM_ASSERT(ret == 0);
	mod_node_page_state(&m->node, NR_ANON_MAPPED, HPAGE_PMD_NR);
	mod_node_page_state(&m->node, NR_ANON_THPS, HPAGE_PMD_NR);
	mm->rss_anon += HPAGE_PMD_NR;
	bit_set(pmd->huge, pmd_index(haddr));
	count_vm_event(m, THP_FAULT_ALLOC);
out:
	sim_path_pop(m->sim);
	return ret;
}

/* Is `addr` mapped, writable for a write? (the MMU's view) */
static bool pte_mapped(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr, bool write)
{
	const struct pt_pmd *pmd = pmd_lookup(mm, addr);
	const struct pt_pte *pte;

	if (!pmd)
		return false;
	if (pmd->share)
		return hugetlb_share_mapped(pmd->share, pmd_index(addr));
	if (bit_test(pmd->huge, pmd_index(addr)))
		return true;
	pte = pmd->pte[pmd_index(addr)];
	if (!pte || pte->deposited || !bit_test(pte->present, pte_index(addr)))
		return false;
	if (write && vma_is_anonymous(vma) &&
	    filemap_lookup(mm->m, mm->anon, anon_index(vma, addr)) == PFN_NONE)
		return false;		/* the zero page: write-protected */
	return true;
}

/* hugetlb_fault() (6.12). */
static int hugetlb_fault(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	struct machine *m = mm->m;
	unsigned long haddr = addr & ~(PMD_SIZE - 1);
	struct pt_pud *pud = pud_alloc(mm, addr);
	struct pt_pmd **slot;
	uint64_t *bits;
	unsigned long hidx = (vma->vm_pgoff + ((haddr - vma->vm_start) >> PAGE_SHIFT)) >> HPAGE_PMD_ORDER;

	if (!pud)
		return -ENOMEM;
	slot = &pud->pmd[pud_index(addr)];
	if (!*slot) {
		/* huge_pte_alloc -> want_pmd_share ? huge_pmd_share : pmd_alloc */
		unsigned long pud_start = addr & ~(PUD_SIZE - 1);

		if ((vma->vm_flags & VM_MAYSHARE) && pud_start >= vma->vm_start &&
		    pud_start + PUD_SIZE <= vma->vm_end) {
			unsigned long fidx = (vma->vm_pgoff + ((pud_start - vma->vm_start) >> PAGE_SHIFT)) >>
					     (PUD_SHIFT - PAGE_SHIFT);
			struct hugetlb_pmd_share *share = huge_pmd_share(vma->hugetlb, fidx);

			if (!share)
				return -ENOMEM;
			*slot = xzalloc(sizeof(**slot));
			(*slot)->share = share;
			(*slot)->pfn = hugetlb_share_pfn(share);
		} else if (!pmd_alloc(mm, pud, addr)) {
			return -ENOMEM;
		}
	}
	bits = (*slot)->share ? hugetlb_share_bits((*slot)->share) : (*slot)->huge;
	if (bit_test(bits, pmd_index(addr)))
		return 0;
	/* hugetlb_no_page: the file's page, or a new one from the pool */
	if (hugetlb_file_get_page(vma->hugetlb, hidx) == PFN_NONE)
		return -EBUSY;
	bit_set(bits, pmd_index(addr));
	(void)m;
	return 0;
}

int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write)
{
	struct machine *m = mm->m;
	struct vm_area_struct *vma;
	struct pt_pud *pud;
	struct pt_pmd *pmd;
	struct pt_pte *pte;
	bool major = false;
	int ret;

	sim_path_push(m->sim, "handle_mm_fault");
	count_vm_event(m, PGFAULT);
	mm_charge(m, COST_fault_entry, 1);
	vma = find_vma(mm, addr);
	if (!vma) {
		ret = -EFAULT;
		goto out;
	}
	if (vma->vm_flags & VM_HUGETLB) {
		ret = hugetlb_fault(mm, vma, addr);
		goto out;
	}
	ret = -ENOMEM;
	pud = pud_alloc(mm, addr);
	if (!pud)
		goto out;
	pmd = pmd_alloc(mm, pud, addr);
	if (!pmd)
		goto out;
	if (bit_test(pmd->huge, pmd_index(addr))) {
		ret = 0;		/* a THP maps it */
		goto out;
	}
	if (vma_is_anonymous(vma) && write && !pmd->pte[pmd_index(addr)] &&
	    thp_vma_allowable(m, vma, addr)) {
		ret = do_huge_pmd_anonymous_page(mm, vma, pmd, addr);
		if (ret != -EAGAIN)
			goto out;
	}
	pte = pte_alloc(mm, pmd, addr);
	if (!pte)
		goto out;
	if (vma_is_anonymous(vma))
		ret = do_anonymous_page(mm, vma, pte, addr, write);
	else
		ret = do_fault(mm, vma, pte, addr, write, &major);
	if (major)
		count_vm_event(m, PGMAJFAULT);
out:
	sim_path_pop(m->sim);
	mm_op_done(m);
	return ret;
}

/* mm_touch() past its inline test of the flat window (memory.h). */
int mm_touch_slow(struct mm_struct *mm, unsigned long addr, bool write)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	int ret;

	if (vma && pte_mapped(mm, vma, addr, write))
		return 0;
	sim_kernel_enter(mm->m->sim);	/* the fault's exception entry */
	ret = handle_mm_fault(mm, addr, write);
	sim_kernel_exit(mm->m->sim);
	return ret;
}

/* ---- process lifecycle ------------------------------------------------------------------ */

/* The slab objects of a new process (slab=on), in kernel/fork.c's order:
 * copy_process -> dup_task_struct (task_struct), copy_files,
 * copy_sighand, copy_signal, then dup_mm / mm_alloc (mm_struct); all
 * GFP_KERNEL.  A failed allocation leaves 0 (not modelled as a failed
 * fork).  execve (mm_create) takes the same set. */
static const enum slab_cache_id process_caches[5] = {
	SC_task_struct, SC_files_cache, SC_sighand_cache, SC_signal_cache, SC_mm_struct
};

static void process_slab_alloc(struct mm_struct *mm)
{
	for (unsigned int i = 0; i < 5; i++)
		mm->slab_objs[i] = slab_alloc_named(mm->m, process_caches[i], GFP_KERNEL);
}

/* exit: exit_mm (mm_struct), exit_files, __exit_signal (signal and
 * sighand), and the task_struct last (put_task_struct). */
static void process_slab_free(struct mm_struct *mm)
{
	for (unsigned int i = 5; i-- > 0;) {
		slab_free_named(mm->m, process_caches[i], mm->slab_objs[i]);
		mm->slab_objs[i] = 0;
	}
}

static struct mm_struct *mm_alloc(struct machine *m)
{
	struct mm_struct *mm = xzalloc(sizeof(*mm));
	char name[32];

	mm->m = m;
	process_slab_alloc(mm);
	mm->id = ++m->nr_mm_ids;
	mm->list_next = m->mm_list;
	if (m->mm_list)
		m->mm_list->list_prev = mm;
	m->mm_list = mm;
	pfn_list_init(&mm->pt_pages);
	mm->mmap_base = MMAP_BASE;
	snprintf(name, sizeof(name), "anon-mm%u", mm->id);
	mm->anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, HPAGE_PMD_ORDER,
				  AS_MIGRATE_NONBLOCKING, mm, name);
	if (!mm->anon)
		SIM_BUG("out of mapping ids for %s", name);
	sim_rwsem_init(m->sim, &mm->mmap_lock, NULL);
	mm->pgd = PFN_NONE;
	/* pgd_alloc(): arm64 6.12 takes a whole page, not counted in NR_PAGETABLE */
	mm->pgd = pgtable_alloc(m, mm);
	if (mm->pgd == PFN_NONE) {
		mm_exit(mm);
		return NULL;
	}
	return mm;
}

struct mm_struct *mm_create(struct machine *m)
{
	struct mm_struct *mm = mm_alloc(m);
	struct vm_area_struct v = { 0 };

	if (!mm)
		return NULL;
	v.vm_start = STACK_TOP - STACK_SIZE;
	v.vm_end = STACK_TOP;
	v.vm_flags = VM_READ | VM_WRITE | VM_GROWSDOWN;
	v.vm_pgoff = 0;
	vma_insert(mm, &v);
	mm->anon_next = STACK_SIZE >> PAGE_SHIFT;
	/* the new image runs on its stack: the top page is touched */
	if (handle_mm_fault(mm, STACK_TOP - PAGE_SIZE, true)) {
		mm_exit(mm);
		return NULL;
	}
	return mm;
}

/* copy_page_range() for one VMA that needs it. */
static int copy_page_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *dvma,
			   const struct vm_area_struct *svma)
{
	for (unsigned long a = svma->vm_start & ~(PMD_SIZE - 1); a < svma->vm_end; a += PMD_SIZE) {
		const struct pt_pmd *spmd = pmd_lookup(src, a);
		struct pt_pud *pud;
		struct pt_pmd *dpmd;

		if (!spmd)
			continue;
		if (svma->vm_flags & VM_HUGETLB) {
			/* copy_hugetlb_page_range: shared PMDs are shared again */
			if (!bit_test(spmd->share ? hugetlb_share_bits(spmd->share) : spmd->huge, pmd_index(a)))
				continue;
			if (!(pud = pud_alloc(dst, a)))
				return -ENOMEM;
			if (spmd->share) {
				if (!pud->pmd[pud_index(a)]) {
					pud->pmd[pud_index(a)] = xzalloc(sizeof(struct pt_pmd));
					pud->pmd[pud_index(a)]->share = spmd->share;
					pud->pmd[pud_index(a)]->pfn = spmd->pfn;
					hugetlb_share_get(spmd->share);
				}
				continue;
			}
			if (!(dpmd = pmd_alloc(dst, pud, a)))
				return -ENOMEM;
			bit_set(dpmd->huge, pmd_index(a));
			continue;
		}
		/* private anonymous: the tables, not the mappings (no COW model) */
		if (!spmd->pte[pmd_index(a)] && !bit_test(spmd->huge, pmd_index(a)))
			continue;
		if (!(pud = pud_alloc(dst, a)) || !(dpmd = pmd_alloc(dst, pud, a)))
			return -ENOMEM;
		if (!pte_alloc(dst, dpmd, a))
			return -ENOMEM;
		mm_charge(dst->m, COST_pte_set, PTRS_PER_PT);
	}
	(void)dvma;
	return 0;
}

struct mm_struct *mm_fork(struct mm_struct *parent)
{
	struct machine *m = parent->m;
	struct mm_struct *mm;

	sim_path_push(m->sim, "dup_mm");
	mm_charge(m, COST_fork_mm, 1);
	mm = mm_alloc(m);
	if (!mm)
		goto out;
	mm->mmap_base = parent->mmap_base;
	mm->anon_next = parent->anon_next;
	for (uint32_t i = 0; i < parent->nr_vmas; i++) {
		const struct vm_area_struct *svma = &parent->vmas[i];
		struct vm_area_struct *dvma = vma_insert(mm, svma);

		dvma->anon_vma = false;
		flat_setup(mm, dvma);
		if (svma->shmem)
			shmem_get(svma->shmem);
		if (svma->hugetlb)
			hugetlb_file_get(svma->hugetlb);
		/* vma_needs_copy(): hugetlb, or an anon_vma; shared file/shmem: no */
		if ((svma->vm_flags & VM_HUGETLB) || svma->anon_vma) {
			dvma->anon_vma = svma->anon_vma;
			if (copy_page_range(mm, parent, dvma, svma)) {
				mm_exit(mm);
				mm = NULL;
				goto out;
			}
		}
	}
out:
	sim_path_pop(m->sim);
	return mm;
}

/* zap the pages of one VMA and drop its object reference. */
static void unmap_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct machine *m = mm->m;
	struct address_space *mapping = vma_mapping(vma);

	for (unsigned long a = vma->vm_start & ~(PMD_SIZE - 1); a < vma->vm_end; a += PMD_SIZE) {
		struct pt_pmd *pmd = pmd_lookup(mm, a);
		struct pt_pte *pte;

		if (!pmd || pmd->share)
			continue;
		pte = pmd->pte[pmd_index(a)];
		if (!pte || !mapping)
			continue;
		for (unsigned long p = a > vma->vm_start ? a : vma->vm_start;
		     p < a + PMD_SIZE && p < vma->vm_end; p += PAGE_SIZE) {
			unsigned int i = pte_index(p);

			if (!bit_test(pte->present, i))
				continue;
			bit_clear(pte->present, i);
			page_mapcount_dec(m, mapping, object_index(vma, p));
			mm_charge(m, COST_zap_pte, 1);
		}
	}
}

/* Free every private anonymous folio of the mm. */
static void free_anon_pages(struct mm_struct *mm)
{
	struct machine *m = mm->m;
	struct address_space *anon = mm->anon;
	unsigned long index = 0;

	while (anon->nrpages) {
		pfn_t pfn = PFN_NONE;
		struct page *page;
		unsigned long nr;

		for (; pfn == PFN_NONE; index++)
			pfn = filemap_lookup(m, anon, index);
		page = pfn_to_page(m, pfn);
		nr = folio_nr_pages(page);
		index = page->index + nr;
		folio_lru_forget(m, pfn);
		__filemap_remove_folio(m, pfn);
		page->flags = 0;
		mod_node_page_state(&m->node, NR_ANON_MAPPED, -(long)nr);
		if (nr == HPAGE_PMD_NR)
			mod_node_page_state(&m->node, NR_ANON_THPS, -(long)nr);
		mm_charge(m, COST_zap_pte, 1);
		free_pages(m, pfn, page_order(page));
	}
}

/* free_pgtables(): every table the mm owns; shared PMDs are unshared. */
static void free_pgtables(struct mm_struct *mm)
{
	struct machine *m = mm->m;

	for (unsigned int g = 0; g < PTRS_PER_PT; g++) {
		struct pt_pud *pud = mm->pud[g];

		if (!pud)
			continue;
		for (unsigned int u = 0; u < PTRS_PER_PT; u++) {
			struct pt_pmd *pmd = pud->pmd[u];

			if (!pmd)
				continue;
			if (pmd->share) {
				hugetlb_share_put(m, pmd->share);	/* huge_pmd_unshare */
				free(pmd);
				continue;
			}
			for (unsigned int e = 0; e < PTRS_PER_PT; e++) {
				if (!pmd->pte[e])
					continue;
				pgtable_dtor(m, pmd->pte[e]->pfn);
				pgtable_free(m, mm, pmd->pte[e]->pfn);
				pte_rec_free(mm, pmd->pte[e], false);
				mm->nr_ptes--;
			}
			pgtable_dtor(m, pmd->pfn);
			pgtable_free(m, mm, pmd->pfn);
			free(pmd);
			mm->nr_pmds--;
		}
		pgtable_dtor(m, pud->pfn);
		pgtable_free(m, mm, pud->pfn);
		free(pud);
		mm->pud[g] = NULL;
		mm->nr_puds--;
	}
}

void mm_exit(struct mm_struct *mm)
{
	struct machine *m;

	if (!mm)
		return;
	m = mm->m;
	sim_path_push(m->sim, "exit_mmap");
	for (uint32_t i = 0; i < mm->nr_vmas; i++)
		unmap_vma(mm, &mm->vmas[i]);
	free_anon_pages(mm);
	free_pgtables(mm);
	/* fput / shm detach after the tables (shared PMDs are unshared first) */
	for (uint32_t i = 0; i < mm->nr_vmas; i++) {
		if (mm->vmas[i].shmem)
			shmem_put(mm->vmas[i].shmem);
		if (mm->vmas[i].hugetlb)
			hugetlb_file_put(mm->vmas[i].hugetlb);
	}
	if (mm->pgd != PFN_NONE)
		pgtable_free(m, mm, mm->pgd);
	SIM_ASSERT(pfn_list_empty(&mm->pt_pages));
	for (uint32_t i = 0; i < mm->nr_vmas; i++) {	/* remove_vma -> vm_area_free */
		slab_free_named(m, SC_vm_area_struct, mm->vmas[i].slab);
		mm->vmas[i].slab = 0;
	}
	process_slab_free(mm);
	mapping_destroy(m, mm->anon);
	mm_free_host(mm);
	sim_path_pop(m->sim);
	mm_op_done(m);
}

/* ---- machine teardown ---------------------------------------------------------------- */

/* Free the host memory of the model's tables and the struct itself; the
 * simulated pages are the machine's business. */
static void mm_free_host(struct mm_struct *mm)
{
	struct machine *m = mm->m;

	for (unsigned int g = 0; g < PTRS_PER_PT; g++) {
		struct pt_pud *pud = mm->pud[g];

		if (!pud)
			continue;
		for (unsigned int u = 0; u < PTRS_PER_PT; u++) {
			struct pt_pmd *pmd = pud->pmd[u];

			if (!pmd)
				continue;
			for (unsigned int e = 0; e < PTRS_PER_PT; e++)
				pte_rec_free(mm, pmd->pte[e], true);
			free(pmd);
		}
		free(pud);
	}
	if (mm->list_prev)
		mm->list_prev->list_next = mm->list_next;
	else
		m->mm_list = mm->list_next;
	if (mm->list_next)
		mm->list_next->list_prev = mm->list_prev;
	sim_rwsem_release(m->sim, &mm->mmap_lock);
	flat_release(mm);
	free(mm->vmas);
	free(mm);
}

/* machine_destroy: processes still alive when the run ended. */
void memory_release_all(struct machine *m)
{
	while (m->mm_list)
		mm_free_host(m->mm_list);
}
