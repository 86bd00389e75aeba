/* SPDX-License-Identifier: MIT */
/*
 * memory.h — processes' address spaces: mm_struct, VMAs, page tables,
 * faults, fork and exit (include/linux/mm_types.h, mm/memory.c,
 * kernel/fork.c, mm/mmap.c), shmem objects (mm/shmem.c), the hugetlb
 * pool and hugetlb files (mm/hugetlb.c) and THP for anonymous memory
 * (mm/huge_memory.c).  Linux 6.12, arm64 with 4 KiB pages, 48-bit VA,
 * four page-table levels.  docs/pagecache.md "Processes and page tables".
 *
 * Page-table layout (arm64 4K, CONFIG_PGTABLE_LEVELS=4):
 *
 *   PGD page (512 x 512 GiB) -> PUD page (512 x 1 GiB) -> PMD page
 *   (512 x 2 MiB) -> PTE page (512 x 4 KiB)
 *
 * Every page-table page is an order-0 GFP_PGTABLE_USER allocation
 * (UNMOVABLE, zeroed, __GFP_ACCOUNT) typed PGTY_PGTABLE with the mm id in
 * struct page.index, linked on the mm's list through next/prev.  PUD, PMD
 * and PTE pages count in NR_PAGETABLE (pagetable_{pud,pmd,pte}_ctor); the
 * PGD does not (arm64 6.12 pgd_alloc uses __get_free_page without a
 * ctor).  A shared hugetlb PMD page (huge_pmd_share) belongs to the
 * hugetlb file and is counted once however many processes use it.
 *
 * The model's host-side mirror of the tables: per mm a 512-entry PGD
 * array of pt_pud, each with 512 pt_pmd pointers, each with 512 pt_pte
 * pointers; a pt_pte holds the table's 512 present bits by 16-page chunk
 * (32 bytes of host memory per simulated PTE page, below).  The pt_pte
 * records of one large shared VMA live in a flat per-mm array instead of
 * separate allocations (the flat window, memory.c); the pointers still
 * lead to them.
 */
#ifndef SLOWPATH_MM_MEMORY_H
#define SLOWPATH_MM_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/pagemap.h"
#include "mm/types.h"
#include "sim/rng.h"
#include "sim/sim.h"

struct machine;
struct inode;

#define PTRS_PER_PT	512
#define PMD_SHIFT	21
#define PUD_SHIFT	30
#define PGDIR_SHIFT	39
#define PMD_SIZE	(1UL << PMD_SHIFT)
#define PUD_SIZE	(1UL << PUD_SHIFT)
#define TASK_SIZE	(1UL << 48)
/* Where the model puts things: the stack just below TASK_SIZE, mmap()
 * regions top-down from MMAP_BASE, one GiB below the top.  The kernel's
 * mmap_base() is TASK_SIZE minus a gap of at least 128 MiB (stack rlimit
 * + guard) minus a random offset (ASLR), so the stack's GiB (its PMD
 * table) is seldom shared with mappings; the model makes that certain so
 * the per-process page-table baseline is a fixed 3 pages
 * (docs/pagecache.md). */
#define STACK_TOP	TASK_SIZE
#define STACK_SIZE	(8UL << 20)
#define MMAP_BASE	(TASK_SIZE - (1UL << 30))

/* vm_flags (include/linux/mm.h) */
#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_SHARED	0x00000008UL
#define VM_MAYSHARE	0x00000080UL
#define VM_GROWSDOWN	0x00000100UL
#define VM_HUGETLB	0x00400000UL
#define VM_HUGEPAGE	0x20000000UL	/* MADV_HUGEPAGE */
#define VM_NOHUGEPAGE	0x40000000UL	/* MADV_NOHUGEPAGE */

struct pt_drawn;
struct drawn_recent;
struct shmem_object;
struct hugetlb_file;
struct hugetlb_pmd_share;

struct vm_area_struct {
	unsigned long		vm_start, vm_end;	/* bytes, [start, end) */
	unsigned long		vm_flags;
	unsigned long		vm_pgoff;	/* page offset of vm_start in the object */
	struct shmem_object	*shmem;		/* shared anonymous / shmem */
	struct inode		*file;		/* file mapping (MAPPING_FILE) */
	struct hugetlb_file	*hugetlb;	/* MAP_HUGETLB / hugetlbfs */
	bool			anon_vma;	/* private anonymous pages were faulted */
	uint64_t		slab;		/* its vm_area_struct object (kobj_t, slab=on) */
};

/*
 * One PTE page's present bits, host layout only.  A fault maps the cached
 * pages of a whole aligned 16-page chunk at once (fault-around), so a
 * chunk is mostly all present or all absent: `any` and `full` say which,
 * one bit per chunk, and only a chunk that is partly present keeps its
 * 16-bit mask, in part[] in chunk order (its slot is the number of
 * partly present chunks before it).  A table with more partly present
 * chunks than part[] holds keeps all 512 bits in a 64-byte block
 * (`spill`, from the machine's host_pool, pte_bits.c) and `nr_part` says
 * PTE_SPILLED.  32 bytes instead of the 72 of a plain bitmap: the
 * processes' windows onto PostgreSQL's buffer pool hold 49 M of them at
 * full scale.  An all-zero record is an empty table.
 */
#define PTE_CHUNK_PAGES	16
#define PTE_PART_INLINE	8
#define PTE_SPILLED	0xff

struct pt_pte {			/* one PTE page */
	pfn_t		pfn;
	bool		deposited;	/* THP: the preallocated table of a huge PMD */
	bool		table;		/* in use (a flat window's record is zero until then) */
	uint8_t		nr_part;	/* entries of part[] in use, or PTE_SPILLED */
	uint8_t		pad;
	uint32_t	any;		/* chunks with a present page */
	uint32_t	full;		/* chunks whose 16 pages are all present */
	union {
		uint16_t	part[PTE_PART_INLINE];	/* the partly present chunks' masks */
		uint64_t	*spill;			/* all 512 bits (PTE_SPILLED) */
	};
};

/* Chunk c's 16 present bits; set them to `mask`; set or clear slot i
 * (pte_bits.c).  A record's spilled block goes back with pte_bits_free
 * before the record is cleared or freed, and every block with the
 * machine (pte_spill_release). */
uint16_t pte_chunk(const struct pt_pte *pte, unsigned int c);
void pte_chunk_store(struct machine *m, struct pt_pte *pte, unsigned int c, uint16_t mask);
void pte_set(struct machine *m, struct pt_pte *pte, unsigned int i);
void pte_clear(struct machine *m, struct pt_pte *pte, unsigned int i);
void pte_bits_free(struct machine *m, struct pt_pte *pte);
void pte_spill_release(struct machine *m);

/* Is PTE slot i present?  Without a branch on the chunk's form (whether
 * a chunk is whole or partly present is as good as random, and a
 * mispredicted branch behind the record's cache miss costs more than
 * the loads): the part[] entry is read whichever form the chunk has. */
static inline bool pte_present(const struct pt_pte *pte, unsigned int i)
{
	unsigned int c = i / PTE_CHUNK_PAGES;
	uint32_t partial = pte->any & ~pte->full;

	if (__builtin_expect(pte->nr_part == PTE_SPILLED, 0))
		return (pte->spill[i / 64] >> (i % 64)) & 1;
	return ((pte->full >> c) |
		((partial >> c) & (uint32_t)(pte->part[__builtin_popcount(partial & ((1u << c) - 1)) %
							PTE_PART_INLINE] >> (i % PTE_CHUNK_PAGES)))) & 1;
}

struct pt_pmd {			/* one PMD page (1 GiB) */
	pfn_t		pfn;		/* own page, or the share's */
	bool		thin;		/* all of it in a drawn window: no pte[] (memory.c) */
	struct hugetlb_pmd_share *share;	/* shared hugetlb PMD, or NULL */
	uint64_t	huge[PTRS_PER_PT / 64];	/* entries mapping a 2 MiB page (own PMDs) */
	struct pt_pte	*pte[PTRS_PER_PT];	/* absent when thin */
};

struct pt_pud {			/* one PUD page (512 GiB) */
	pfn_t		pfn;
	struct pt_pmd	*pmd[PTRS_PER_PT];
};

struct mm_struct {
	struct machine		*m;
	uint32_t		id;		/* struct page.index of its page-table pages */
	struct vm_area_struct	*vmas;		/* sorted by vm_start */
	uint32_t		nr_vmas, cap_vmas;
	struct address_space	*anon;		/* private anonymous pages, by virtual page number */
	pfn_t			pgd;
	struct pt_pud		*pud[PTRS_PER_PT];
	struct pfn_list		pt_pages;	/* every page-table page it owns */
	unsigned long		nr_ptes, nr_pmds, nr_puds;	/* pages it owns (shared PMDs not) */
	unsigned long		rss_anon, rss_file, rss_shmem;	/* pages mapped (MM_*PAGES) */
	unsigned long		mmap_base;	/* next top-down mmap address */
	unsigned long		anon_next;	/* next free index in `anon` for a new VMA */
	struct sim_rwsem	mmap_lock;
	struct mm_struct	*list_prev, *list_next;	/* machine's mm_list */
	/* slab=on (slub.c): the process's objects, kobj_t handles, 0 = none:
	 * its mm_struct, and the task's task_struct, files_struct,
	 * signal_struct and sighand_struct (a process is one task here) */
	uint64_t		slab_objs[5];
	/* Host-side only, no simulated effect: the PTE mirrors of the whole
	 * 2 MiB regions inside the first large shared shmem/file VMA sit in
	 * one array indexed by region (flat[(addr - flat_start) >> PMD_SHIFT]),
	 * so mm_touch() tests a present bit with one load instead of walking
	 * pud -> pmd -> pte pointers (memory.c, "the flat window"). */
	unsigned long		flat_start, flat_end;
	struct pt_pte		*flat;
	unsigned long		flat_stride;	/* records between two regions' (memory.c;
						 * the matrix's slots, kept here for mm_touch) */
	struct flat_matrix	*flat_matrix;	/* the shared array it has a slot in, or NULL */
	uint32_t		flat_slot;	/* that slot */
	/* [global] fault_model=drawn (memory.c, "drawn faults"): the window
	 * is kept as one small record per 2 MiB region instead (`flat` is
	 * NULL), with the object it maps, the object index at flat_start and
	 * the process's own random stream for the draws. */
	struct pt_drawn		*drawn;
	struct address_space	*flat_mapping;
	unsigned long		flat_index;
	struct drawn_recent	*drawn_recent;	/* recently touched 64 KiB chunks (memory.c) */
	uint32_t		*drawn_chunks;	/* per region: the 64 KiB chunks it faulted in */
	struct sim_rng		rng;
	uint64_t		drawn_key;
};

/* ---- processes ---------------------------------------------------------------- */

/* A new process image (execve): PGD, the stack VMA (8 MiB, private
 * anonymous, growing down) with its top page touched (it runs on it).
 * Returns NULL when the PGD or the stack's tables cannot be allocated. */
struct mm_struct *mm_create(struct machine *m);
/* fork(): dup_mmap + copy_page_range rules (mm/memory.c): VMAs are copied;
 * page tables are copied for hugetlb VMAs and private VMAs with an
 * anon_vma, not for shared file/shmem VMAs (the child refaults them).
 * Returns NULL if a page-table allocation fails. */
struct mm_struct *mm_fork(struct mm_struct *parent);
/* exit_mmap(): unmap everything, free private pages and every page table;
 * drops the mm's references on shmem objects and hugetlb files. */
void mm_exit(struct mm_struct *mm);

/* A host-layout hint: about `nr` processes will map the next large shared
 * mapping that gets a flat window (memory.c), so their windows are laid
 * out interleaved, region by region, in one array of `nr` slots.  It
 * changes no simulated result.  0 or 1: one array per process. */
void mm_flat_expect(struct machine *m, unsigned int nr);

/* mmap() of `len` bytes (rounded up to pages; to 2 MiB for hugetlb):
 * the object is one of shmem / file / hugetlb, or none for private
 * anonymous memory.  `align` (power of two >= 4 KiB) aligns the start; the
 * kernel aligns hugetlb to 2 MiB (hugetlb_get_unmapped_area), THP-sized
 * anonymous ranges to 2 MiB.  Returns the address, or 0 on failure. */
unsigned long mm_mmap(struct mm_struct *mm, unsigned long len, unsigned long vm_flags,
		      struct shmem_object *shmem, struct inode *file, struct hugetlb_file *hugetlb,
		      unsigned long pgoff, unsigned long align);

/*
 * A user access to `addr` (model-only entry: what the CPU's MMU does):
 * if the page is mapped (with write permission for writes) nothing
 * happens; otherwise handle_mm_fault() runs.  Returns 0, or -EFAULT
 * (no VMA: SIGSEGV), -ENOMEM (VM_FAULT_OOM), -EBUSY (hugetlb pool empty:
 * SIGBUS).  Task context when the fault needs I/O (file mappings).
 */
int mm_touch_slow(struct mm_struct *mm, unsigned long addr, bool write);
static inline int mm_touch(struct mm_struct *mm, unsigned long addr, bool write)
{
	unsigned long off = addr - mm->flat_start;

	/* the flat window (memory.c): one load answers for a present shared page */
	if (off < mm->flat_end - mm->flat_start && mm->flat &&
	    pte_present(&mm->flat[(off >> PMD_SHIFT) * mm->flat_stride], (off >> PAGE_SHIFT) % PTRS_PER_PT))
		return 0;
	return mm_touch_slow(mm, addr, write);
}
/* A host cache hint, no effect on the model: load the flat window's
 * record for `addr` ahead of the mm_touch that will test it. */
static inline void mm_touch_prefetch(const struct mm_struct *mm, unsigned long addr)
{
	unsigned long off = addr - mm->flat_start;

	if (off < mm->flat_end - mm->flat_start && mm->flat)
		__builtin_prefetch(&mm->flat[(off >> PMD_SHIFT) * mm->flat_stride]);
}
/* handle_mm_fault() (counts pgfault; pgmajfault when it read the page). */
int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write);

/* fault_model=drawn: the checks of docs/engine.md "Drawn faults" over
 * every window of the machine — per region, the processes' mapped counts
 * sum to at least the object's page map counts, a count is at most 512
 * and a map count at most the processes holding a table there.  Returns 0, or -1
 * with a message in err.  (Tests call it; O(every window).) */
int mm_drawn_check(struct machine *m, char *err, size_t errlen);

/* Page-table pages this mm owns (PUD+PMD+PTE; the PGD is extra). */
static inline unsigned long mm_pgtable_pages(const struct mm_struct *mm)
{
	return mm->nr_ptes + mm->nr_pmds + mm->nr_puds;
}

/* ---- shmem (shmem.c) -------------------------------------------------------------- */

/* A shmem object (shmem_file_setup / shmem_zero_setup): a MAPPING_SHMEM
 * mapping with gfp GFP_HIGHUSER_MOVABLE, order 0 (shmem THP not
 * modelled), pages on the anon LRU, unevictable in effect without swap.
 * Reference-counted by its VMAs plus the creator's reference. */
struct shmem_object *shmem_create(struct machine *m, unsigned long size, const char *name);
void shmem_get(struct shmem_object *obj);
/* Drop a reference; the last one frees every page. */
void shmem_put(struct shmem_object *obj);
struct address_space *shmem_mapping(struct shmem_object *obj);
/* shmem_get_folio_gfp(SGP_CACHE): the folio at `index`, allocated and
 * zeroed if absent.  PFN_NONE when the allocation failed. */
pfn_t shmem_get_folio(struct shmem_object *obj, unsigned long index);

/* ---- hugetlb (hugetlb.c) ------------------------------------------------------------ */

struct hstate {
	unsigned long	nr_huge_pages;		/* pool size */
	unsigned long	free_huge_pages;
	unsigned long	requested;		/* vm.nr_hugepages at start */
	struct pfn_list	hugepage_freelist;	/* free pool pages, linked by next/prev */
};

/* A hugetlbfs file / SHM_HUGETLB segment of `size` bytes (2 MiB pages). */
struct hugetlb_file *hugetlb_file_create(struct machine *m, unsigned long size, const char *name);
void hugetlb_file_get(struct hugetlb_file *f);
void hugetlb_file_put(struct hugetlb_file *f);
/* Pool pages obtained at start / still free. */
unsigned long hugetlb_pool_pages(const struct machine *m);
unsigned long hugetlb_free_pages(const struct machine *m);

/* ---- THP (huge_memory.c) ------------------------------------------------------------ */

/* vma_thp_gfp_mask() (6.12): the gfp of an anonymous THP fault from
 * transparent_hugepage/defrag and the VMA's MADV_HUGEPAGE. */
gfp_t vma_thp_gfp_mask(const struct machine *m, const struct vm_area_struct *vma);
/* thp_vma_allowable_order for PMD order on an anonymous fault. */
bool thp_vma_allowable(const struct machine *m, const struct vm_area_struct *vma, unsigned long addr);

#endif /* SLOWPATH_MM_MEMORY_H */
