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
#include <stddef.h>
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

static bool drawn_covers_gib(const struct mm_struct *mm, unsigned long addr);
static bool flat_covers_gib(const struct mm_struct *mm, unsigned long addr);

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
		struct pt_pte *pte = pte_rec_new(mm, addr);

		sim_stat_inc(mm->m, SIM_PTE_PAGES_ALLOC);
		pte->table = true;
		rec = &pte->pfn;
	} else if (level == PT_PMD && (drawn_covers_gib(mm, addr) || flat_covers_gib(mm, addr))) {
		/* every entry is a region of the flat window, whose records
		 * are the window's, or of a drawn window (drawn faults, below),
		 * which has none: no pte[] (pmd_pte) */
		struct pt_pmd *pmd = xzalloc(offsetof(struct pt_pmd, pte));

		pmd->thin = true;
		rec = &pmd->pfn;
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

/* One 2 MiB region of a drawn window (below, "drawn faults"). */
struct pt_drawn {
	pfn_t		pfn;		/* its PTE table page, when `table` */
	uint16_t	nr;		/* map counts this process added through that
					 * table: the pages it maps, plus any it faulted
					 * twice (so it can pass 512) */
	uint16_t	table;		/* 1: the table exists */
};

/* pmd->pte[] of a region kept in a drawn window: the record is there,
 * this marker only says the slot is taken; nothing reads or writes it. */
static struct pt_pte drawn_table_marker;
#define DRAWN_TABLE	(&drawn_table_marker)

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
 *
 * When the workload says how many processes will map the pool
 * (mm_flat_expect), their windows share one array laid out region by
 * region: region r of the process in slot s is record r * nr_slots + s.
 * A page every backend touches (a btree root, the current WAL page, the
 * history table's last page) then has its 1024 records side by side in
 * 32 KiB that stays in the host's cache and TLB, instead of one line in
 * each of 1024 arrays of several MiB; a random page costs one miss
 * either way.  (A 1/4-scale pgbench run took 0.65 of the CPU time, the
 * full-scale steady state 0.98: docs/engine.md.)  A
 * process that finds no free slot gets an array of its own; a slot comes
 * back at exit with its records already cleared, as free_pgtables clears
 * every record it frees.
 */
#define FLAT_MIN_REGIONS	64	/* 128 MiB: smaller VMAs stay as they are */

struct flat_matrix {
	const void	*object;	/* the shmem object or inode */
	unsigned long	index;		/* object index of the first region */
	unsigned long	regions;
	uint32_t	nr_slots, used;	/* slots, slots handed out at least once */
	uint32_t	*free_slots;	/* slots given back, LIFO */
	uint32_t	nr_free;
	struct pt_pte	*base;
	struct flat_matrix *next;
};

void mm_flat_expect(struct machine *m, unsigned int nr)
{
	m->flat_expect = nr;
}

/* A slot for mm's window of `regions` over `object` from `index`: in the
 * matrix of that geometry (made at the first request, with
 * m->flat_expect slots), or none. */
static bool flat_matrix_get(struct mm_struct *mm, const void *object, unsigned long index,
			    unsigned long regions)
{
	struct machine *m = mm->m;
	struct flat_matrix *fm;

	for (fm = m->flat_matrices; fm; fm = fm->next)
		if (fm->object == object && fm->index == index && fm->regions == regions)
			break;
	if (!fm) {
		if (m->flat_expect < 2)
			return false;
		fm = xzalloc(sizeof(*fm));
		fm->base = host_huge_alloc(regions * m->flat_expect * sizeof(struct pt_pte));
		if (!fm->base) {
			free(fm);
			return false;
		}
		fm->object = object;
		fm->index = index;
		fm->regions = regions;
		fm->nr_slots = m->flat_expect;
		fm->free_slots = xzalloc(fm->nr_slots * sizeof(*fm->free_slots));
		fm->next = m->flat_matrices;
		m->flat_matrices = fm;
	}
	if (fm->nr_free)
		mm->flat_slot = fm->free_slots[--fm->nr_free];
	else if (fm->used < fm->nr_slots)
		mm->flat_slot = fm->used++;
	else
		return false;
	mm->flat = fm->base + mm->flat_slot;
	mm->flat_stride = fm->nr_slots;
	mm->flat_matrix = fm;
	return true;
}

/* Give back the spilled blocks of `n` window records about to go with
 * their array (a sequential pass, made only while some block is in use). */
static void flat_recs_free_bits(struct machine *m, struct pt_pte *recs, size_t n)
{
	for (size_t i = 0; i < n && m->pte_spills; i++)
		pte_bits_free(m, &recs[i]);
}

static void flat_matrices_release(struct machine *m)
{
	while (m->flat_matrices) {
		struct flat_matrix *fm = m->flat_matrices;

		m->flat_matrices = fm->next;
		flat_recs_free_bits(m, fm->base, fm->regions * fm->nr_slots);
		host_huge_free(fm->base, fm->regions * fm->nr_slots * sizeof(struct pt_pte));
		free(fm->free_slots);
		free(fm);
	}
}

static bool drawn_setup(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long start,
			unsigned long end);

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
	if (mm->m->drawn_faults && drawn_setup(mm, vma, start, end))
		return;
	if (flat_matrix_get(mm, vma->shmem ? (const void *)vma->shmem : (const void *)vma->file,
			    vma->vm_pgoff + ((start - vma->vm_start) >> PAGE_SHIFT), (end - start) >> PMD_SHIFT)) {
		mm->flat_start = start;
		mm->flat_end = end;
		return;
	}
	bytes = ((end - start) >> PMD_SHIFT) * sizeof(struct pt_pte);
	p = host_huge_alloc(bytes);
	if (!p)
		return;
	mm->flat = p;
	mm->flat_stride = 1;
	mm->flat_start = start;
	mm->flat_end = end;
}

static bool flat_covers(const struct mm_struct *mm, unsigned long addr)
{
	return addr - mm->flat_start < mm->flat_end - mm->flat_start;
}

/* The window's record of the region at `addr` (covered, window present). */
static struct pt_pte *flat_rec(const struct mm_struct *mm, unsigned long addr)
{
	return &mm->flat[((addr - mm->flat_start) >> PMD_SHIFT) * mm->flat_stride];
}

/* The whole GiB of one PMD table at `addr` lies in the flat window: the
 * table's entries are the window's records, so its host record needs no
 * pte[] array (a "thin" pt_pmd; 4 KiB less per table, 0.4 GB for 1024
 * backends on 94 GiB). */
static bool flat_covers_gib(const struct mm_struct *mm, unsigned long addr)
{
	unsigned long start = addr & ~(PUD_SIZE - 1);

	return mm->flat && start >= mm->flat_start && start + PUD_SIZE <= mm->flat_end;
}

/* pmd->pte[] for the region at `addr`: the PTE table's record, or NULL.
 * A thin table of the flat window answers from the window; one of a
 * drawn window has no records (its regions never get here). */
static struct pt_pte *pmd_pte(const struct mm_struct *mm, const struct pt_pmd *pmd, unsigned long addr)
{
	if (pmd->thin) {
		struct pt_pte *rec;

		if (mm->drawn)
			return NULL;
		rec = flat_rec(mm, addr);
		return rec->table ? rec : NULL;
	}
	return pmd->pte[pmd_index(addr)];
}

/* A zeroed pt_pte record for the table at `addr`. */
static struct pt_pte *pte_rec_new(struct mm_struct *mm, unsigned long addr)
{
	if (mm->flat && flat_covers(mm, addr))
		return flat_rec(mm, addr);	/* zero while unused */
	return xzalloc(sizeof(struct pt_pte));
}

/* Give a record back; one in the window is cleared for reuse unless the
 * whole window is about to go (teardown: its array's release gives its
 * records' spilled blocks back, flat_recs_free_bits). */
static void pte_rec_free(struct mm_struct *mm, struct pt_pte *rec, bool teardown)
{
	if (!rec || rec == DRAWN_TABLE)
		return;
	if (mm->flat && rec >= mm->flat &&
	    rec < mm->flat + ((mm->flat_end - mm->flat_start) >> PMD_SHIFT) * mm->flat_stride) {
		if (!teardown) {
			pte_bits_free(mm->m, rec);
			memset(rec, 0, sizeof(*rec));
		}
		return;
	}
	pte_bits_free(mm->m, rec);
	free(rec);
}

static void flat_release(struct mm_struct *mm)
{
	if (mm->drawn) {
		host_huge_free(mm->drawn, ((mm->flat_end - mm->flat_start) >> PMD_SHIFT) * sizeof(struct pt_drawn));
		free(mm->drawn_recent);
		free(mm->drawn_chunks);
		mm->drawn_chunks = NULL;
		mm->drawn = NULL;
		mm->drawn_recent = NULL;
		mm->flat_start = mm->flat_end = 0;
	}
	if (!mm->flat)
		return;
	if (mm->flat_matrix) {
		mm->flat_matrix->free_slots[mm->flat_matrix->nr_free++] = mm->flat_slot;
		mm->flat_matrix = NULL;
	} else {
		flat_recs_free_bits(mm->m, mm->flat, (mm->flat_end - mm->flat_start) >> PMD_SHIFT);
		host_huge_free(mm->flat, ((mm->flat_end - mm->flat_start) >> PMD_SHIFT) * sizeof(struct pt_pte));
	}
	mm->flat = NULL;
	mm->flat_start = mm->flat_end = 0;
}

/* ---- drawn faults ([global] fault_model=drawn) ------------------------------------ */

/*
 * An approximation, chosen by a scenario key and off by default
 * (docs/engine.md "Drawn faults"): inside the flat window — the whole
 * 2 MiB regions of one large shared shmem/file VMA, PostgreSQL's buffer
 * pool — a process keeps, per region, only its PTE table page, the
 * number of pages it maps through it and which of the region's 32 chunks
 * it faulted in (12 bytes instead of a 32-byte pt_pte: 0.6 GB instead of
 * 1.6 GB for 1024 backends on 94 GiB).  The object keeps, per region, how
 * many processes hold a table for it and each chunk (pt_users), and each
 * page keeps its map count as in the exact model.
 *
 * What stays exact: a process without a table for the region faults, and
 * the fault allocates the table (pte_alloc_one, GFP_PGTABLE_USER) as the
 * kernel does, so the sequence of page-table allocations per process and
 * region is the exact model's for the same touches; a page nobody maps
 * faults; the fault path itself (fault-around, shmem_get_folio,
 * filemap_map_pages' charges, the map count, NR_FILE_MAPPED, rss).
 *
 * What is kept per process and 64 KiB chunk (the fault-around window):
 * one bit, set when the process faults there (it holds the chunk); the
 * object counts each chunk's holders.  A process that does not hold the
 * chunk of a touched page does not map it and faults, as in the exact
 * model.  What is drawn: whether a holder maps the page.  It does when
 * the page's map count has reached the chunk's holders (every holder
 * maps it: the common case, since a read fault maps the whole cached
 * chunk), when its count for the region reached 512 (it maps it all),
 * when its own recent fault mapped the page (below), and otherwise when
 * its rank for the chunk — a hash of its key and the chunk, uniform in
 * [0, 1) and fixed for the run (drawn_rank) — is below mapcount /
 * holders.  So only chunks their holders map in part are drawn: pages
 * allocated after a holder's fault, and pages mapped by write faults,
 * which map one page.  The pages fault-around looks at are decided the
 * same way.  Per region, the processes' counts sum to at least the pages'
 * map counts, and no map count is above its chunk's holders
 * (mm_drawn_check), which is what exit needs: unmapping a region takes
 * `nr` map counts from the pages of its chunks (drawn_unmap).
 *
 * A process's own recent faults stay exact: DRAWN_RECENT slots, hashed by
 * 64 KiB chunk, each remember which pages of one chunk the process's
 * faults mapped (the faulting page and fault-around's), and those count
 * as mapped without a draw; without them a page one process wrote in a
 * chunk others hold is drawn against those others and faults again.
 *
 * (The first version, e32a88d, kept no chunk bits and drew every page of
 * a region against all its table holders.  A process that had faulted a
 * chunk in then had a rank that said it did not map it, and faulted
 * again whenever its recent slots had let the chunk go: +22 % pgfault at
 * 1/4 scale.  docs/engine.md "Drawn faults" has both measurements.)
 *
 * What is lost: which process maps which pages of a chunk its holders
 * map in part.  One process can fault twice on such a page while another
 * never faults on it.  The measured errors are in docs/engine.md "Drawn
 * faults".  Regions are keyed on the object's page index, so every drawn
 * window of an object must start at the same index modulo 512 (forked
 * processes do); a window that does not keeps the exact mirror.
 */
static unsigned long object_index(const struct vm_area_struct *vma, unsigned long addr);
static struct address_space *vma_mapping(const struct vm_area_struct *vma);
static pfn_t fault_get_folio(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long index,
			     bool *major);

/* do_fault_around()'s window: the aligned fault_around_bytes around
 * `addr`, clipped to the VMA and the PTE table.  False when empty. */
static bool fault_around_window(const struct vm_area_struct *vma, unsigned long addr, unsigned long *from,
				unsigned long *to)
{
	unsigned long pmd_start = addr & ~(PMD_SIZE - 1);

	*from = addr & ~((unsigned long)FAULT_AROUND_PAGES * PAGE_SIZE - 1);
	*to = *from + FAULT_AROUND_PAGES * PAGE_SIZE;
	if (*from < vma->vm_start)
		*from = vma->vm_start;
	if (*from < pmd_start)
		*from = pmd_start;
	if (*to > vma->vm_end)
		*to = vma->vm_end;
	if (*to > pmd_start + PMD_SIZE)
		*to = pmd_start + PMD_SIZE;
	return *from < *to;
}

/* `n` more pages of `mapping` mapped by the mm (MM_SHMEMPAGES / MM_FILEPAGES). */
static void mm_add_rss_mapped(struct mm_struct *mm, const struct address_space *mapping, unsigned long n)
{
	if (mapping->kind == MAPPING_SHMEM)
		mm->rss_shmem += n;
	else
		mm->rss_file += n;
}

#define DRAWN_RECENT	512	/* a process's recently touched chunks, kept exactly */

struct drawn_recent {
	uint32_t	chunk;		/* index / FAULT_AROUND_PAGES + 1, 0 = empty */
	uint32_t	mask;		/* its pages known mapped */
};

static bool drawn_covers(const struct mm_struct *mm, unsigned long addr)
{
	return mm->drawn && addr - mm->flat_start < mm->flat_end - mm->flat_start;
}

/* The whole GiB of one PMD table at `addr` lies in the drawn window: the
 * table's host record needs no pte[] array (a "thin" pt_pmd; 4 KiB less
 * per table, 0.4 GB for 1024 backends on 94 GiB). */
static bool drawn_covers_gib(const struct mm_struct *mm, unsigned long addr)
{
	unsigned long start = addr & ~(PUD_SIZE - 1);

	return mm->drawn && start >= mm->flat_start && start + PUD_SIZE <= mm->flat_end;
}

static struct pt_drawn *drawn_rec(const struct mm_struct *mm, unsigned long addr)
{
	return &mm->drawn[(addr - mm->flat_start) >> PMD_SHIFT];
}

/* The object index of `addr` inside the window. */
static unsigned long drawn_index(const struct mm_struct *mm, unsigned long addr)
{
	return mm->flat_index + ((addr - mm->flat_start) >> PAGE_SHIFT);
}

/* The object's counts for the region holding `index` (table holders, and
 * processes mapping a page there), the array grown (zeroed) as needed. */
static struct pt_region_count *drawn_region(struct address_space *mapping, unsigned long index)
{
	unsigned long r = (index - mapping->pt_users_phase) >> (PMD_SHIFT - PAGE_SHIFT);

	if (r >= mapping->nr_pt_users) {
		unsigned long n = r + 1 > 2 * mapping->nr_pt_users ? r + 1 : 2 * mapping->nr_pt_users;
		struct pt_region_count *u = realloc(mapping->pt_users, n * sizeof(*u));

		if (!u)
			SIM_BUG("out of memory for the drawn window's table counts");
		memset(u + mapping->nr_pt_users, 0, (n - mapping->nr_pt_users) * sizeof(*u));
		mapping->pt_users = u;
		mapping->nr_pt_users = n;
	}
	return &mapping->pt_users[r];
}

/* flat_setup() under fault_model=drawn: a drawn window over [start,
 * end), or false (keep the exact window) when the object's regions are
 * keyed at another phase or the host memory cannot be had. */
static bool drawn_setup(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long start,
			unsigned long end)
{
	struct address_space *mapping = vma_mapping(vma);
	unsigned long index = object_index(vma, start), regions = (end - start) >> PMD_SHIFT;
	void *p;

	if (!mapping->pt_users)
		mapping->pt_users_phase = (unsigned int)(index % PTRS_PER_PT);
	if (index % PTRS_PER_PT != mapping->pt_users_phase)
		return false;
	p = host_huge_alloc(regions * sizeof(struct pt_drawn));
	if (!p)
		return false;
	(void)drawn_region(mapping, index + (regions - 1) * PTRS_PER_PT);
	mapping->nr_drawn_windows++;
	mm->drawn = p;
	mm->drawn_recent = xzalloc(DRAWN_RECENT * sizeof(struct drawn_recent));
	mm->drawn_chunks = xzalloc(regions * sizeof(uint32_t));
	mm->flat_start = start;
	mm->flat_end = end;
	mm->flat_mapping = mapping;
	mm->flat_index = index;
	rng_init(&mm->rng, sim_seed(mm->m->sim), rng_stream_id("drawn_faults", mm->id));
	mm->drawn_key = rng_next(&mm->rng);
	return true;
}

/* The process's recent-pages slot for the 64 KiB chunk holding `index`. */
static struct drawn_recent *drawn_recent_slot(const struct mm_struct *mm, unsigned long index)
{
	unsigned long chunk = index / FAULT_AROUND_PAGES;

	return &mm->drawn_recent[(uint32_t)(chunk * 0x9e3779b97f4a7c15ULL >> 32) % DRAWN_RECENT];
}

static bool drawn_recent_has(const struct mm_struct *mm, unsigned long index)
{
	const struct drawn_recent *r = drawn_recent_slot(mm, index);

	return r->chunk == index / FAULT_AROUND_PAGES + 1 && (r->mask & (1U << (index % FAULT_AROUND_PAGES)));
}

/* Remember pages of one chunk as mapped: `mask` over the chunk's pages. */
static void drawn_recent_add(const struct mm_struct *mm, unsigned long index, uint32_t mask)
{
	struct drawn_recent *r = drawn_recent_slot(mm, index);

	if (r->chunk != index / FAULT_AROUND_PAGES + 1) {
		r->chunk = (uint32_t)(index / FAULT_AROUND_PAGES + 1);
		r->mask = 0;
	}
	r->mask |= mask;
}

/* The process's fixed rank for the 64 KiB chunk holding `index`, uniform
 * in [0, 2^32): a hash of its key and the chunk, so it draws nothing from
 * a stream and is the same at every touch. */
static uint32_t drawn_rank(const struct mm_struct *mm, unsigned long index)
{
	uint64_t x = mm->drawn_key + index / FAULT_AROUND_PAGES;

	return (uint32_t)(rng_splitmix64(&x) >> 32);
}

_Static_assert(PTRS_PER_PT / FAULT_AROUND_PAGES == PT_REGION_CHUNKS, "chunks per region");

/* The 64 KiB chunk of its region that page `index` lies in. */
static unsigned int drawn_chunk(const struct mm_struct *mm, unsigned long index)
{
	return (unsigned int)((index - mm->flat_index) % PTRS_PER_PT / FAULT_AROUND_PAGES);
}

/* The process faulted in chunk `c` of region `r`: it holds the chunk. */
static void drawn_chunk_hold(struct mm_struct *mm, unsigned long r, unsigned int c)
{
	if (mm->drawn_chunks[r] & (1U << c))
		return;
	mm->drawn_chunks[r] |= 1U << c;
	drawn_region(mm->flat_mapping, mm->flat_index + r * PTRS_PER_PT)->chunk[c]++;
}

/* Does this process map page `index` of region `r` (whose object counts
 * are `rc`)?  The tests are ordered by where their data lives on the
 * host: the process's chunk mask for the region, the shared map count and
 * holders; its 8-byte region record and recent slots are read only for a
 * chunk its holders map in part. */
static bool drawn_mapped(struct mm_struct *mm, unsigned long r, unsigned long index,
			 const struct pt_region_count *rc)
{
	unsigned int c = drawn_chunk(mm, index), mc, holders;

	if (!(mm->drawn_chunks[r] & (1U << c)))
		return false;
	mc = page_mapcount(mm->flat_mapping, index);
	if (!mc)
		return false;
	holders = rc->chunk[c];
	if (mc >= holders || mm->drawn[r].nr >= PTRS_PER_PT || drawn_recent_has(mm, index))
		return true;
	return (uint64_t)drawn_rank(mm, index) * holders < (uint64_t)mc << 32;
}

/* `mapped` more pages in region `r` of the process. */
static void drawn_add(struct mm_struct *mm, unsigned long r, unsigned int mapped)
{
	if (!mapped)
		return;
	if (mm->drawn[r].nr + mapped > UINT16_MAX)
		SIM_BUG("drawn region %lu: more than %u map counts", r, UINT16_MAX);
	mm->drawn[r].nr = (uint16_t)(mm->drawn[r].nr + mapped);
	mm_add_rss_mapped(mm, mm->flat_mapping, mapped);
}

/* __pte_alloc() for a region of the drawn window. */
static int drawn_pte_alloc(struct mm_struct *mm, struct pt_pmd *pmd, unsigned long addr)
{
	struct pt_drawn *d = drawn_rec(mm, addr);
	pfn_t pfn;

	if (d->table)
		return 0;
	pfn = pgtable_new(mm);
	if (pfn == PFN_NONE)
		return -ENOMEM;
	sim_stat_inc(mm->m, SIM_PTE_PAGES_ALLOC);
	d->pfn = pfn;
	d->table = 1;
	d->nr = 0;
	mm->nr_ptes++;
	if (!pmd->thin)
		pmd->pte[pmd_index(addr)] = DRAWN_TABLE;
	drawn_region(mm->flat_mapping, drawn_index(mm, addr))->users++;
	return 0;
}

/* do_fault_around() in a drawn region: the window's pages are drawn
 * mapped or not (the faulting page is not), then filemap_map_pages maps
 * the cached ones that are not, as in the exact model.  True when the
 * faulting page got mapped. */
static bool drawn_fault_around(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	struct address_space *mapping = mm->flat_mapping;
	unsigned long from, to;
	const struct pt_region_count *rc = drawn_region(mapping, drawn_index(mm, addr));
	unsigned int mapped;
	unsigned long r = (addr - mm->flat_start) >> PMD_SHIFT;
	uint16_t present = 0, drawn;	/* the chunk's bits: the window is aligned to 16 pages */

	(void)fault_around_window(vma, addr, &from, &to);	/* never empty: holds addr */
	for (unsigned long a = from; a < to; a += PAGE_SIZE)
		if (a != addr && drawn_mapped(mm, r, drawn_index(mm, a), rc))
			present |= (uint16_t)(1u << (pte_index(a) % PTE_CHUNK_PAGES));
	drawn = present;
	mapped = filemap_map_pages(mm->m, mapping, drawn_index(mm, from),
				   (unsigned int)((to - from) >> PAGE_SHIFT), &present, pte_index(from) % PTE_CHUNK_PAGES);
	drawn_add(mm, r, mapped);
	drawn_chunk_hold(mm, r, drawn_chunk(mm, drawn_index(mm, addr)));
	/* what this fault mapped is this process's own: remembered */
	drawn_recent_add(mm, drawn_index(mm, from),
			 (uint32_t)(((unsigned int)(present & ~drawn) >> (pte_index(from) % PTE_CHUNK_PAGES)) &
				    ((1u << ((to - from) >> PAGE_SHIFT)) - 1)) << (drawn_index(mm, from) % FAULT_AROUND_PAGES));
	return (present >> (pte_index(addr) % PTE_CHUNK_PAGES)) & 1;
}

/* do_read_fault / do_shared_fault for a page drawn unmapped (the caller
 * decided; handle_mm_fault does not ask again). */
static int drawn_fault(struct mm_struct *mm, struct vm_area_struct *vma, struct pt_pmd *pmd,
		       unsigned long addr, bool write, bool *major)
{
	struct address_space *mapping = mm->flat_mapping;
	unsigned long index = drawn_index(mm, addr), r = (addr - mm->flat_start) >> PMD_SHIFT;
	unsigned int c = drawn_chunk(mm, index);
	pfn_t pfn;

	if (drawn_pte_alloc(mm, pmd, addr))
		return -ENOMEM;
	if (!write && drawn_fault_around(mm, vma, addr))
		return 0;
	pfn = fault_get_folio(mm, vma, index, major);
	if (pfn == PFN_NONE)
		return -ENOMEM;
	/* a map count stays within its chunk's holders, this process included */
	if (page_mapcount(mapping, index) <
	    (unsigned int)drawn_region(mapping, index)->chunk[c] + (~mm->drawn_chunks[r] >> c & 1U)) {
		page_mapcount_inc(mm->m, mapping, index);
		drawn_add(mm, r, 1);
	}
	drawn_chunk_hold(mm, r, c);
	if (write)
		folio_mark_dirty(mm->m, pfn);
	return 0;
}

/* zap_pte_range() for a drawn region: map counts come off the pages of
 * the chunks the process holds — first from every page all the chunk's
 * holders map (it must lose one, or its count would pass the holders
 * left), then `nr` in all, each page taken with probability mapcount /
 * holders on the first passes and surely after; if its chunks have none
 * left (another exit took counts there that were its), from any chunk of
 * the region until the region has none left.  Double faults (one process
 * faulting on a page it was drawn to hold) mean the processes' counts may
 * sum to more than the pages' map counts, never less. */
static void drawn_unmap(struct mm_struct *mm, unsigned long addr)
{
	struct machine *m = mm->m;
	struct address_space *mapping = mm->flat_mapping;
	struct pt_drawn *d = drawn_rec(mm, addr);
	unsigned long first = drawn_index(mm, addr & ~(PMD_SIZE - 1));
	unsigned long r = (addr - mm->flat_start) >> PMD_SHIFT;
	struct pt_region_count *rc = drawn_region(mapping, first);
	uint32_t held = mm->drawn_chunks[r];
	unsigned int left = d->nr, found = 1;

	for (unsigned int k = 0; k < PTRS_PER_PT; k++) {
		unsigned int c = k / FAULT_AROUND_PAGES;

		if ((held & (1U << c)) && page_mapcount(mapping, first + k) >= rc->chunk[c]) {
			page_mapcount_dec(m, mapping, first + k);
			mm_charge(m, COST_zap_pte, 1);
			left -= left > 0;
		}
	}
	for (unsigned int pass = 0; left && (found || pass <= 5); pass++) {
		found = 0;
		for (unsigned int k = 0; k < PTRS_PER_PT && left; k++) {
			unsigned int c = k / FAULT_AROUND_PAGES, mc = page_mapcount(mapping, first + k);

			if (!mc || (pass < 5 && !(held & (1U << c))))
				continue;
			found++;
			if (pass < 4 && rng_below(&mm->rng, rc->chunk[c]) >= mc)
				continue;
			page_mapcount_dec(m, mapping, first + k);
			mm_charge(m, COST_zap_pte, 1);
			left--;
		}
	}
	for (unsigned int c = 0; c < PT_REGION_CHUNKS; c++)
		rc->chunk[c] = (uint16_t)(rc->chunk[c] - !!(held & (1U << c)));
	mm->drawn_chunks[r] = 0;
	d->nr = 0;
}

/* free_pgtables() for a drawn region's table. */
static pfn_t drawn_table_free(struct mm_struct *mm, unsigned long addr)
{
	struct pt_drawn *d = drawn_rec(mm, addr);
	pfn_t pfn = d->pfn;

	drawn_region(mm->flat_mapping, drawn_index(mm, addr))->users--;
	d->table = 0;
	d->pfn = 0;
	return pfn;
}

int mm_drawn_check(struct machine *m, char *err, size_t errlen)
{
	for (struct mm_struct *mm = m->mm_list; mm; mm = mm->list_next) {
		unsigned long regions = (mm->flat_end - mm->flat_start) >> PMD_SHIFT;

		if (!mm->drawn)
			continue;
		for (unsigned long r = 0; r < regions; r++) {
			const struct pt_drawn *d = &mm->drawn[r];

			/* a process maps pages in a region iff it holds a chunk there */
			if ((!d->table && d->nr) || (mm->drawn_chunks[r] != 0) != (d->nr > 0)) {
				snprintf(err, errlen, "mm %u region %lu: %u pages mapped, table %u",
					 mm->id, r, d->nr, d->table);
				return -1;
			}
		}
	}
	/* per object region: the holders and the counts of every drawn window */
	for (uint32_t id = 1; id < m->nr_mapping_slots; id++) {
		struct address_space *mapping = m->mappings[id];

		if (!mapping || !mapping->pt_users)
			continue;
		for (unsigned long r = 0; r < mapping->nr_pt_users; r++) {
			unsigned long first = mapping->pt_users_phase + r * PTRS_PER_PT, sum_nr = 0, sum_mc = 0;
			unsigned int holders = 0, windows = 0, chunk[PT_REGION_CHUNKS] = { 0 };

			for (struct mm_struct *mm = m->mm_list; mm; mm = mm->list_next) {
				unsigned long a;

				if (!mm->drawn || mm->flat_mapping != mapping)
					continue;
				windows++;
				if (first < mm->flat_index)
					continue;
				a = mm->flat_start + ((first - mm->flat_index) << PAGE_SHIFT);
				if (!drawn_covers(mm, a) || !drawn_rec(mm, a)->table)
					continue;
				holders++;
				for (unsigned int c = 0; c < PT_REGION_CHUNKS; c++)
					chunk[c] += mm->drawn_chunks[(a - mm->flat_start) >> PMD_SHIFT] >> c & 1U;
				sum_nr += drawn_rec(mm, a)->nr;
			}
			if (windows != mapping->nr_drawn_windows) {
				snprintf(err, errlen, "%s region at index %lu: %u windows counted %u",
					 mapping->name, first, windows, mapping->nr_drawn_windows);
				return -1;
			}
			for (unsigned int c = 0; c < PT_REGION_CHUNKS; c++) {
				if (chunk[c] != mapping->pt_users[r].chunk[c]) {
					snprintf(err, errlen, "%s region at index %lu chunk %u: %u holders counted %u",
						 mapping->name, first, c, chunk[c], mapping->pt_users[r].chunk[c]);
					return -1;
				}
			}
			for (unsigned int k = 0; k < PTRS_PER_PT; k++) {
				unsigned int mc = page_mapcount(mapping, first + k);

				if (mc > mapping->pt_users[r].chunk[k / FAULT_AROUND_PAGES]) {
					snprintf(err, errlen, "%s index %lu: map count %u above the %u holders of its chunk",
						 mapping->name, first + k, mc, mapping->pt_users[r].chunk[k / FAULT_AROUND_PAGES]);
					return -1;
				}
				sum_mc += mc;
			}
			if (holders != mapping->pt_users[r].users || sum_nr < sum_mc) {
				snprintf(err, errlen, "%s region at index %lu: %u holders counted %u, "
					 "mapped %lu against map counts %lu", mapping->name, first, holders,
					 mapping->pt_users[r].users, sum_nr, sum_mc);
				return -1;
			}
		}
	}
	return 0;
}

/* __pte_alloc() -> pte_alloc_one() */
static struct pt_pte *pte_alloc(struct mm_struct *mm, struct pt_pmd *pmd, unsigned long addr)
{
	struct pt_pte **slot;

	if (pmd->thin) {	/* the flat window's record (drawn regions never get here) */
		struct pt_pte *rec = pmd_pte(mm, pmd, addr);

		return rec ? rec : pgtable_populate(mm, PT_PTE, addr);
	}
	slot = &pmd->pte[pmd_index(addr)];
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

static struct address_space *vma_mapping(const struct vm_area_struct *vma);

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
	if (vma_mapping(&mm->vmas[i]))		/* vma_interval_tree_insert into i_mmap */
		vma_mapping(&mm->vmas[i])->nr_i_mmap++;
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
	pte_set(mm->m, pte, i);
	page_mapcount_inc(mm->m, mapping, index);
	mm_add_rss_mapped(mm, mapping, 1);
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
	unsigned long from, to;
	unsigned int c;
	uint16_t mask;

	if (!fault_around_window(vma, addr, &from, &to))
		return;
	c = pte_index(from) / PTE_CHUNK_PAGES;	/* the window lies in one chunk */
	mask = pte_chunk(pte, c);
	mm_add_rss_mapped(mm, mapping, filemap_map_pages(mm->m, mapping, object_index(vma, from),
							 (unsigned int)((to - from) >> PAGE_SHIFT),
							 &mask, pte_index(from) % PTE_CHUNK_PAGES));
	pte_chunk_store(mm->m, pte, c, mask);
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
		if (pte_present(pte, i))
			return 0;
	}
	pfn = fault_get_folio(mm, vma, index, major);
	if (pfn == PFN_NONE)
		return -ENOMEM;
	if (!pte_present(pte, i))
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
		pte_set(m, pte, i);	/* the zero page */
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
	pte_set(m, pte, i);
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
	pte = pmd_pte(mm, pmd, addr);
	if (!pte || pte->deposited || !pte_present(pte, pte_index(addr)))
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
	if (mm->flat && flat_covers(mm, addr)) {
		pte = flat_rec(mm, addr);
		if (pte->table) {
			/* its PUD, PMD and PTE tables exist and no huge PMD maps
			 * it: the walk below would find this record (host
			 * shortcut, three host misses fewer) */
			ret = do_fault(mm, vma, pte, addr, write, &major);
			goto major;
		}
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
	if (drawn_covers(mm, addr)) {
		ret = drawn_fault(mm, vma, pmd, addr, write, &major);
		goto major;
	}
	if (vma_is_anonymous(vma) && write && !pmd_pte(mm, pmd, addr) &&
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
major:
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
	struct vm_area_struct *vma;
	int ret;

	if (drawn_covers(mm, addr)) {
		unsigned long index = drawn_index(mm, addr);
		const struct pt_region_count *rc = drawn_region(mm->flat_mapping, index);
		unsigned int holders = rc->chunk[drawn_chunk(mm, index)];

		/* every drawn window holds this page's chunk and maps the page:
		 * no per-process state needs reading (the answer drawn_mapped
		 * gives) */
		if (holders == mm->flat_mapping->nr_drawn_windows &&
		    page_mapcount(mm->flat_mapping, index) >= holders)
			return 0;
		if (drawn_mapped(mm, (addr - mm->flat_start) >> PMD_SHIFT, index, rc))
			return 0;
	} else if (!(mm->flat && flat_covers(mm, addr))) {
		/* (in the flat window mm_touch's test already said "not
		 * present", which is pte_mapped's answer there) */
		vma = find_vma(mm, addr);
		if (vma && pte_mapped(mm, vma, addr, write))
			return 0;
	}
	sim_kernel_enter(mm->m->sim);	/* the fault's exception entry */
	ret = handle_mm_fault(mm, addr, write);
	sim_kernel_exit(mm->m->sim);
	if (!ret && drawn_covers(mm, addr))	/* its own fault: remembered */
		drawn_recent_add(mm, drawn_index(mm, addr), 1U << (drawn_index(mm, addr) % FAULT_AROUND_PAGES));
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
	/* on the machine's list before anything that can sleep: a run that
	 * ends inside the slab allocations below still frees it */
	mm->list_next = m->mm_list;
	if (m->mm_list)
		m->mm_list->list_prev = mm;
	m->mm_list = mm;
	sim_rwsem_init(m->sim, &mm->mmap_lock, NULL);
	process_slab_alloc(mm);
	mm->id = ++m->nr_mm_ids;
	pfn_list_init(&mm->pt_pages);
	mm->mmap_base = MMAP_BASE;
	snprintf(name, sizeof(name), "anon-mm%u", mm->id);
	mm->anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, HPAGE_PMD_ORDER,
				  AS_MIGRATE_NONBLOCKING, mm, name);
	if (!mm->anon)
		SIM_BUG("out of mapping ids for %s", name);
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
		if (!pmd_pte(src, spmd, a) && !bit_test(spmd->huge, pmd_index(a)))
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

		if (drawn_covers(mm, a)) {
			if (drawn_rec(mm, a)->table)
				drawn_unmap(mm, a);
			continue;
		}
		if (!pmd || pmd->share)
			continue;
		pte = pmd_pte(mm, pmd, a);
		if (!pte || !mapping)
			continue;
		for (unsigned long p = a > vma->vm_start ? a : vma->vm_start;
		     p < a + PMD_SIZE && p < vma->vm_end; p += PAGE_SIZE) {
			unsigned int i = pte_index(p);

			if (!pte_present(pte, i))
				continue;
			pte_clear(m, pte, i);
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
				unsigned long a = ((unsigned long)g << PGDIR_SHIFT) | ((unsigned long)u << PUD_SHIFT) |
						  ((unsigned long)e << PMD_SHIFT);
				bool drawn_thin = pmd->thin && mm->drawn;
				struct pt_pte *rec = drawn_thin ? NULL : pmd_pte(mm, pmd, a);
				pfn_t pfn;

				if (drawn_thin ? !drawn_rec(mm, a)->table : !rec)
					continue;
				if (drawn_thin || rec == DRAWN_TABLE)
					pfn = drawn_table_free(mm, a);
				else
					pfn = rec->pfn;
				pgtable_dtor(m, pfn);
				pgtable_free(m, mm, pfn);
				if (!drawn_thin) {
					pte_rec_free(mm, rec, false);	/* a window's record is cleared */
					if (!pmd->thin)
						pmd->pte[e] = NULL;
				}
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
	if (mm->drawn)
		mm->flat_mapping->nr_drawn_windows--;
	free_anon_pages(mm);
	free_pgtables(mm);
	/* fput / shm detach after the tables (shared PMDs are unshared first) */
	for (uint32_t i = 0; i < mm->nr_vmas; i++) {
		if (vma_mapping(&mm->vmas[i]))	/* vma_interval_tree_remove */
			vma_mapping(&mm->vmas[i])->nr_i_mmap--;
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
	if (SIM_CHECK_EXPENSIVE && mm->flat && mm->flat_matrix) {
		/* the slot goes back for the next process: free_pgtables cleared it */
		static const struct pt_pte zero;

		for (unsigned long a = mm->flat_start; a < mm->flat_end; a += PMD_SIZE)
			SIM_ASSERT(!memcmp(flat_rec(mm, a), &zero, sizeof(zero)));
	}
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
			for (unsigned int e = 0; e < PTRS_PER_PT && !pmd->thin; e++)
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
	flat_matrices_release(m);
	pte_spill_release(m);
}
