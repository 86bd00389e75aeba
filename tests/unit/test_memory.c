/* SPDX-License-Identifier: MIT */
/*
 * test_memory.c — page tables, faults, fork and exit (memory.c), shmem,
 * the hugetlb pool and PMD sharing (hugetlb.c), anonymous THP
 * (huge_memory.c).
 *
 * The per-process page-table baseline (docs/pagecache.md): a process
 * image has a PGD page (not in nr_page_table_pages on arm64 6.12) and a
 * touched stack, whose PUD, PMD and PTE pages count: 3 pages.  A child of
 * fork gets the same 3 (the stack is private with an anon_vma, so
 * copy_page_range copies its tables).
 */
#include <errno.h>

#include "mm/memory.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm_test.h"
#include "mm/compaction.h"
#include "sim/rng.h"

#define GiB (1UL << 30)
#define MiB (1UL << 20)

static const char *const mid[] = { "memory=1g", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };

static long pgtables(struct machine *m)
{
	return node_page_state_exact(&m->node, NR_PAGETABLE);
}

/* Pages not free (buddy + pcp) — what a run still holds. */
static long used_pages(struct machine *m)
{
	long free = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		free += mm_free_pages(m, (enum zone_type)z) + mm_pcp_pages(m, (enum zone_type)z);
	return (long)m->totalram_pages - free;
}

/* A test of the per-process baseline and fork's copy rules: a fresh
 * process has 3 counted page-table pages (PUD, PMD, PTE of its stack) and
 * a PGD; fork copies the stack's tables (private, anon_vma) but nothing
 * of a shared anonymous (shmem) mapping.  Expect nr_page_table_pages 3
 * after mm_create, 6 after one fork, and no shmem page mapped in the
 * child. */
TEST(baseline_and_fork_copy_rules)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct mm_struct *parent, *child;
	struct shmem_object *shm;
	unsigned long addr;

	ASSERT_TRUE(m);
	parent = mm_create(m);
	ASSERT_TRUE(parent);
	ASSERT_EQ(pgtables(m), 3);
	ASSERT_EQ(mm_pgtable_pages(parent), 3);
	ASSERT_EQ(sum_vm_event(m, PGFAULT), 1);
	shm = shmem_create(m, 64 * MiB, "shm");
	addr = mm_mmap(parent, 64 * MiB, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, PMD_SIZE);
	ASSERT_TRUE(addr);
	shmem_put(shm);			/* the mapping holds it now */
	ASSERT_EQ(mm_touch(parent, addr, true), 0);
	ASSERT_EQ(pgtables(m), 3 + 2);	/* a PMD and a PTE page: below the stack's GiB */
	child = mm_fork(parent);
	ASSERT_TRUE(child);
	ASSERT_EQ(mm_pgtable_pages(child), 3);
	ASSERT_EQ(pgtables(m), 5 + 3);
	ASSERT_EQ(child->rss_shmem, 0);
	/* the child refaults the shared page: no allocation, a new mapping */
	ASSERT_EQ(mm_touch(child, addr, false), 0);
	ASSERT_EQ(shmem_mapping(shm)->nrpages, 1);
	ASSERT_EQ(page_mapcount(shmem_mapping(shm), 0), 2);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_MAPPED), 1);
	mm_exit(child);
	ASSERT_EQ(pgtables(m), 5);
	mm_exit(parent);
	ASSERT_EQ(pgtables(m), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_SHMEM), 0);
	ASSERT_EQ(used_pages(m), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the fork-pagetables shape: a parent maps S = 512 MiB
 * of shared anonymous memory at a 1 GiB-aligned address, P = 6 children
 * each touch every 2 MiB of it.  Expect nr_page_table_pages =
 * 3 (parent) + P x (3 + S/2 MiB + S/1 GiB rounded up) = 3 + 6 x 260,
 * one PTE page per 2 MiB per child, shmem pages allocated once (256,
 * first toucher) and fault-around mapping 16 pages per fault; after the
 * children exit, 3 again. */
TEST(fork_pagetables_shape_shmem)
{
	const unsigned long S = 512 * MiB;
	const unsigned int P = 6;
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct mm_struct *parent, *child[6];
	struct shmem_object *shm;
	unsigned long addr;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 0);
	parent = mm_create(m);
	shm = shmem_create(m, S, "sb");
	addr = mm_mmap(parent, S, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, GiB);
	ASSERT_EQ(addr & (GiB - 1), 0);
	shmem_put(shm);
	for (unsigned int i = 0; i < P; i++) {
		child[i] = mm_fork(parent);
		ASSERT_TRUE(child[i]);
		for (unsigned long a = addr; a < addr + S; a += PMD_SIZE)
			ASSERT_EQ(mm_touch(child[i], a, false), 0);
	}
	ASSERT_EQ(pgtables(m), 3 + P * (3 + S / PMD_SIZE + 1));
	ASSERT_EQ(sim_stat_read(m, SIM_PTE_PAGES_ALLOC), 1 + P * (1 + S / PMD_SIZE));
	ASSERT_EQ(shmem_mapping(shm)->nrpages, S / PMD_SIZE);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_SHMEM), S / PMD_SIZE);
	/* child 0 allocated each page and mapped it; later children found it
	 * cached and fault-around mapped it (only it: its neighbours are absent) */
	ASSERT_EQ(child[1]->rss_shmem, S / PMD_SIZE);
	ASSERT_EQ(sum_vm_event(m, PGFAULT), 1 + P * (S / PMD_SIZE));
	for (unsigned int i = 0; i < P; i++)
		mm_exit(child[i]);
	ASSERT_EQ(pgtables(m), 3);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_MAPPED), 0);
	mm_exit(parent);
	ASSERT_EQ(used_pages(m), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the rmap walks' reach over a shmem folio (rmap_walk_file:
 * every VMA of the object's i_mmap tree): the object's VMA count follows
 * mmap, fork and exit (1, then 6 with five children, 4 after two exit);
 * page 0, written by the parent and read by three children, is mapped 4
 * times.  A walk that stops once it is unmapped (try_to_migrate) visits
 * ceil(6 x 4 / 5) = 5 VMAs on average, one over all of them (remove_
 * migration_ptes, folio_referenced) 6; an unmapped page's full walk 6 too.
 * Expect those visit counts in sim_rmap_vma_visits. */
TEST(rmap_walks_visit_the_objects_vmas)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct mm_struct *parent, *child[5];
	struct shmem_object *shm;
	struct address_space *map;
	unsigned long addr;
	pfn_t pfn;

	ASSERT_TRUE(m);
	parent = mm_create(m);
	shm = shmem_create(m, 2 * MiB, "sb");
	map = shmem_mapping(shm);
	addr = mm_mmap(parent, 2 * MiB, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, PMD_SIZE);
	shmem_put(shm);
	ASSERT_EQ(map->nr_i_mmap, 1);
	ASSERT_EQ(mm_touch(parent, addr, true), 0);
	for (unsigned int i = 0; i < 5; i++) {
		child[i] = mm_fork(parent);
		ASSERT_TRUE(child[i]);
		if (i < 3)
			ASSERT_EQ(mm_touch(child[i], addr, false), 0);
	}
	ASSERT_EQ(map->nr_i_mmap, 6);
	ASSERT_EQ(page_mapcount(map, 0), 4);
	pfn = filemap_lookup(m, map, 0);
	ASSERT_TRUE(pfn != PFN_NONE);
	rmap_walk_file_charge(m, pfn, folio_mapcount_model(m, pfn), 1, true);
	ASSERT_U64_EQ(sim_stat_read(m, SIM_RMAP_VMA_VISITS), 5 + 6);
	rmap_walk_file_charge(m, pfn, folio_mapcount_model(m, pfn), 1, false);
	ASSERT_U64_EQ(sim_stat_read(m, SIM_RMAP_VMA_VISITS), 11 + 6);
	ASSERT_EQ(mm_touch(parent, addr + PAGE_SIZE, true), 0);	/* page 1: the parent's only */
	pfn = filemap_lookup(m, map, 1);
	rmap_walk_file_charge(m, pfn, folio_mapcount_model(m, pfn), 1, true);
	ASSERT_U64_EQ(sim_stat_read(m, SIM_RMAP_VMA_VISITS), 17 + 6 + 3);	/* ceil(6 x 1 / 2) = 3 */
	mm_exit(child[3]);
	mm_exit(child[0]);
	ASSERT_EQ(map->nr_i_mmap, 4);
	for (unsigned int i = 1; i < 5; i++)
		if (i != 3)
			mm_exit(child[i]);
	mm_exit(parent);
	ASSERT_EQ(used_pages(m), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of fault-around on a read fault: after one process wrote 64 KiB
 * of a shared mapping (16 faults, no fault-around for writes), another
 * process's read of one page maps all 16 cached pages of the aligned
 * 64 KiB window with one fault.  Expect pgfault +1 and 16 PTEs. */
TEST(fault_around_maps_cached_window)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct mm_struct *a, *b;
	struct shmem_object *shm;
	unsigned long addr;
	uint64_t faults;

	ASSERT_TRUE(m);
	a = mm_create(m);
	shm = shmem_create(m, 4 * MiB, "shm");
	addr = mm_mmap(a, 4 * MiB, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, PMD_SIZE);
	b = mm_fork(a);
	for (unsigned long p = 0; p < 16; p++)
		ASSERT_EQ(mm_touch(a, addr + p * PAGE_SIZE, true), 0);
	faults = sum_vm_event(m, PGFAULT);
	ASSERT_EQ(mm_touch(b, addr + 5 * PAGE_SIZE, false), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT), faults + 1);
	ASSERT_EQ(b->rss_shmem, 16);
	for (unsigned long p = 0; p < 16; p++)
		ASSERT_EQ(mm_touch(b, addr + p * PAGE_SIZE, false), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT), faults + 1);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_MAPPED), 16);
	mm_exit(b);
	mm_exit(a);
	shmem_put(shm);
	ASSERT_EQ(used_pages(m), 0);
	mm_env_destroy(&e);
}

/* A test of anonymous faults: a read maps the zero page (no allocation),
 * a later write to it faults again and allocates a zeroed page; a second
 * write does not fault.  Expect 2 faults, nr_anon_pages 1. */
TEST(anon_zero_page_then_write)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct mm_struct *mm;
	unsigned long addr;
	uint64_t f0;

	ASSERT_TRUE(m);
	mm = mm_create(m);
	addr = mm_mmap(mm, 1 * MiB, VM_READ | VM_WRITE, NULL, NULL, NULL, 0, 0);
	f0 = sum_vm_event(m, PGFAULT);
	ASSERT_EQ(mm_touch(mm, addr, false), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_MAPPED), 1);	/* the stack page */
	ASSERT_EQ(mm_touch(mm, addr, true), 0);
	ASSERT_EQ(mm_touch(mm, addr, true), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT), f0 + 2);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_MAPPED), 2);
	ASSERT_EQ(mm_touch(mm, 4096, false), -EFAULT);
	mm_exit(mm);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_MAPPED), 0);
	ASSERT_EQ(used_pages(m), 0);
	mm_env_destroy(&e);
}

/* A test of the hugetlb shape with PMD sharing: a 1.1 GiB pool (550
 * pages) from vm.nr_hugepages at start; a 1 GiB SHM_HUGETLB segment at a
 * 1 GiB-aligned address; 6 children touch every 2 MiB.  The first child
 * faults 512 pages in and allocates the one shared PMD page; each other
 * child takes one fault, which installs its PUD entry to the shared PMD
 * (huge_pmd_share), and finds every 2 MiB entry populated.  Expect 512 + 5
 * faults, nr_page_table_pages 3 + 6 x 3 + 1, 38 free pool pages,
 * sim_hugetlb_pmd_shared 5; a later fork inherits the shared PMD and
 * faults nothing; after every process exits, the pool is whole again and
 * nr_page_table_pages 0. */
TEST(hugetlb_pmd_sharing)
{
	static const char *const kv[] = { "memory=2g", "zones=DMA:16m,Normal:rest", "cpus=2",
					   "vm.nr_hugepages=550", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct mm_struct *parent, *child[6];
	struct hugetlb_file *f;
	unsigned long addr;
	uint64_t f0;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 0);
	machine_start(m);
	ASSERT_EQ(hugetlb_pool_pages(m), 550);
	ASSERT_EQ(sum_vm_event(m, HTLB_BUDDY_PGALLOC), 550);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_HUGETLB), 550 * 512);
	parent = mm_create(m);
	f = hugetlb_file_create(m, GiB, "sb");
	addr = mm_mmap(parent, GiB, VM_READ | VM_WRITE | VM_SHARED, NULL, NULL, f, 0, GiB);
	hugetlb_file_put(f);
	f0 = sum_vm_event(m, PGFAULT);
	for (unsigned int i = 0; i < 6; i++) {
		child[i] = mm_fork(parent);
		for (unsigned long a = addr; a < addr + GiB; a += PMD_SIZE)
			ASSERT_EQ(mm_touch(child[i], a, true), 0);
	}
	ASSERT_EQ(sum_vm_event(m, PGFAULT) - f0, 512 + 5);
	ASSERT_EQ(pgtables(m), 3 + 6 * 3 + 1);
	ASSERT_EQ(hugetlb_free_pages(m), 550 - 512);
	ASSERT_EQ(sim_stat_read(m, SIM_HUGETLB_PMD_SHARED), 5);
	/* a fork now inherits the shared PMD: no faults at all */
	{
		struct mm_struct *late = mm_fork(child[0]);

		ASSERT_EQ(pgtables(m), 3 + 7 * 3 + 1);
		for (unsigned long a = addr; a < addr + GiB; a += PMD_SIZE)
			ASSERT_EQ(mm_touch(late, a, false), 0);
		ASSERT_EQ(sum_vm_event(m, PGFAULT) - f0, 512 + 5);
		mm_exit(late);
	}
	for (unsigned int i = 0; i < 6; i++)
		mm_exit(child[i]);
	mm_exit(parent);
	ASSERT_EQ(pgtables(m), 0);
	ASSERT_EQ(hugetlb_free_pages(m), 550);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the hugetlb pool falling short on fragmented memory: every
 * page is taken at order 0, then 20 whole pageblocks and every other page
 * elsewhere are freed, so only 20 free order-9 blocks exist.  Asking for
 * 100 huge pages gets those 20 (less one if a pcp refill parked a block
 * on the per-CPU order-9 list), then the first failure stops the loop (as
 * set_max_huge_pages does).  Expect htlb_buddy_alloc_success = pool
 * size, htlb_buddy_alloc_fail 1, sim_hugetlb_pool_shortfall = 100 - pool. */
TEST(hugetlb_pool_shortfall)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	unsigned int freed_blocks = 0;
	pfn_t *held;
	unsigned long n;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 0);
	held = malloc(sizeof(pfn_t) * m->nr_pfns);
	n = mm_take_all_order0(m, held);
	/* whole pageblocks 100..119 (all their pages were taken above) */
	for (unsigned long i = 0; i < n; i++) {
		unsigned long pb = held[i] >> PAGEBLOCK_ORDER;

		if ((pb >= 100 && pb < 120) || (held[i] & 1))
			free_pages(m, held[i], 0);
	}
	drain_all_pages(m, NULL);
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
		freed_blocks += (unsigned int)mm_zone(m, (enum zone_type)z)->free_area[9].nr_free +
				2 * (unsigned int)mm_zone(m, (enum zone_type)z)->free_area[10].nr_free;
	ASSERT_EQ(freed_blocks, 20);
	m->t.nr_hugepages = 100;
	hugetlb_pool_init(m);
	/* an order-9 refill of the pcp list may park one of the 20 blocks
	 * there, where the order-9 watermark check does not see it */
	ASSERT_EQ(hugetlb_pool_pages(m) + (unsigned long)mm_pcp_pages(m, ZONE_NORMAL) / 512, 20);
	ASSERT_TRUE(hugetlb_pool_pages(m) >= 19);
	ASSERT_EQ(sum_vm_event(m, HTLB_BUDDY_PGALLOC), hugetlb_pool_pages(m));
	ASSERT_EQ(sum_vm_event(m, HTLB_BUDDY_PGALLOC_FAIL), 1);
	ASSERT_EQ(sim_stat_read(m, SIM_HUGETLB_POOL_WANTED), 100);
	ASSERT_EQ(sim_stat_read(m, SIM_HUGETLB_POOL_SHORTFALL), 100 - hugetlb_pool_pages(m));
	free(held);
	mm_env_destroy(&e);
}

/* A test of the THP gfp per defrag mode (vma_thp_gfp_mask, 6.12) for a
 * VMA with and without MADV_HUGEPAGE.  Expect the table in huge_memory.c. */
TEST(thp_defrag_gfp)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct vm_area_struct plain = { .vm_flags = 0 }, madv = { .vm_flags = VM_HUGEPAGE };

	ASSERT_TRUE(m);
	m->t.thp_defrag = THP_DEFRAG_ALWAYS;
	ASSERT_EQ(vma_thp_gfp_mask(m, &plain), GFP_TRANSHUGE | __GFP_NORETRY);
	ASSERT_EQ(vma_thp_gfp_mask(m, &madv), GFP_TRANSHUGE);
	m->t.thp_defrag = THP_DEFRAG_DEFER;
	ASSERT_EQ(vma_thp_gfp_mask(m, &madv), GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM);
	m->t.thp_defrag = THP_DEFRAG_DEFER_MADVISE;
	ASSERT_EQ(vma_thp_gfp_mask(m, &plain), GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM);
	ASSERT_EQ(vma_thp_gfp_mask(m, &madv), GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM);
	m->t.thp_defrag = THP_DEFRAG_MADVISE;
	ASSERT_EQ(vma_thp_gfp_mask(m, &plain), GFP_TRANSHUGE_LIGHT);
	ASSERT_EQ(vma_thp_gfp_mask(m, &madv), GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM);
	m->t.thp_defrag = THP_DEFRAG_NEVER;
	ASSERT_EQ(vma_thp_gfp_mask(m, &madv), GFP_TRANSHUGE_LIGHT);
	mm_env_destroy(&e);
}

/* A test of anonymous THP faults: with enabled=always a write fault in a
 * 4 MiB anonymous VMA aligned to 2 MiB maps an order-9 folio with a
 * deposited PTE table (counted in nr_page_table_pages); with
 * enabled=never the same fault maps one 4 KiB page; with enabled=madvise
 * only a MADV_HUGEPAGE VMA gets it.  (Under "always" the new process's
 * stack, an anonymous VMA too, already got a THP at its first fault.)
 * Expect, relative to the fresh process: thp_fault_alloc +1, 512 more
 * nr_anon_pages and a second touch in the same 2 MiB without a fault in
 * the THP cases; one page per touched page otherwise; 2 more page-table
 * pages (PMD + PTE or deposited PTE) in every case. */
TEST(thp_anon_fault_modes)
{
	for (int mode = 0; mode < 4; mode++) {
		static const char *const names[] = { "always", "never", "madvise", "madvise" };
		char kv_mode[96];
		const char *kv[] = { "memory=1g", "zones=DMA:16m,Normal:rest", "cpus=2", kv_mode, NULL };
		bool thp = mode == 0 || mode == 3;
		struct mm_env e;
		struct machine *m;
		struct mm_struct *mm;
		unsigned long addr;
		long anon0, pt0;
		uint64_t alloc0, f0;

		snprintf(kv_mode, sizeof(kv_mode), "/sys/kernel/mm/transparent_hugepage/enabled=%s", names[mode]);
		m = mm_env_create(&e, kv);
		ASSERT_TRUE(m);
		mm = mm_create(m);
		anon0 = node_page_state_exact(&m->node, NR_ANON_MAPPED);
		pt0 = pgtables(m);
		alloc0 = sum_vm_event(m, THP_FAULT_ALLOC);
		addr = mm_mmap(mm, 4 * MiB, VM_READ | VM_WRITE | (mode == 3 ? VM_HUGEPAGE : 0),
			       NULL, NULL, NULL, 0, PMD_SIZE);
		ASSERT_EQ(mm_touch(mm, addr + 12345, true), 0);
		ASSERT_EQ(sum_vm_event(m, THP_FAULT_ALLOC) - alloc0, thp);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_MAPPED) - anon0, thp ? 512 : 1);
		ASSERT_EQ(pgtables(m) - pt0, 2);
		f0 = sum_vm_event(m, PGFAULT);
		ASSERT_EQ(mm_touch(mm, addr + 4096 * 100, true), 0);
		ASSERT_EQ(sum_vm_event(m, PGFAULT) - f0, !thp);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_MAPPED) - anon0, thp ? 512 : 2);
		mm_exit(mm);
		ASSERT_EQ(used_pages(m), 0);
		ASSERT_EQ(pgtables(m), 0);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_ANON_THPS), 0);
		ASSERT_MM_OK(m);
		mm_env_destroy(&e);
	}
}

/* The flat window is host layout only.  A test of that: three machines run
 * the same random program — a parent with a 300 MiB shared shmem mapping
 * (a flat window over its whole 2 MiB regions) and a private anonymous
 * mapping placed right below it (sharing the window's edge region, where
 * records stay separate and the zero-page write fault applies), forks,
 * read and write touches at random addresses of both, exits — one with
 * a window per process, one with every PTE mirror separate
 * (no_flat_window), one with the windows in a shared matrix of 4 slots
 * (mm_flat_expect), so that some children get a slot another process
 * gave back at exit and some find none and get a window of their own.
 * Expect every mm_touch result, pgfault, NR_PAGETABLE, NR_FILE_MAPPED,
 * NR_ANON_MAPPED and each process's rss to agree after every step, and
 * both the reuse and the fallback to have happened. */
/* struct pt_pte's present bits (pte_bits.c) against a plain 512-bit
 * bitmap: a random program of single-slot sets and clears and of whole
 * chunk stores (what fault-around writes), biased so that tables pass
 * through every form — empty, a few partly present chunks kept inline,
 * more than PTE_PART_INLINE of them (spilled to a block), all present —
 * and are freed and reused.  After every step each slot and each chunk
 * reads as the bitmap says, and `any`, `full` and nr_part agree with it. */
TEST(pte_bits_are_the_bitmap)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mid);
	struct pt_pte pte[4];
	uint64_t ref[4][PTRS_PER_PT / 64];
	struct sim_rng rng;
	unsigned long spills = 0, frees = 0;

	ASSERT_TRUE(m);
	memset(pte, 0, sizeof(pte));
	memset(ref, 0, sizeof(ref));
	rng_init(&rng, 42, 0);
	for (int step = 0; step < 300000; step++) {
		unsigned int t = (unsigned int)rng_below(&rng, 4), op = (unsigned int)rng_below(&rng, 100);
		/* a table's slots come from few chunks, so chunks fill and empty */
		unsigned int spread = 1u + (unsigned int)rng_below(&rng, 32);
		unsigned int c = (unsigned int)rng_below(&rng, spread), i;
		bool was_spilled = pte[t].nr_part == PTE_SPILLED;

		i = c * PTE_CHUNK_PAGES + (unsigned int)rng_below(&rng, PTE_CHUNK_PAGES);
		if (op < 45) {
			pte_set(m, &pte[t], i);
			ref[t][i / 64] |= 1ULL << (i % 64);
		} else if (op < 85) {
			pte_clear(m, &pte[t], i);
			ref[t][i / 64] &= ~(1ULL << (i % 64));
		} else if (op < 99) {
			uint16_t mask = (uint16_t)rng_below(&rng, 3) == 0 ? 0xffff : (uint16_t)rng_below(&rng, 0x10000);

			pte_chunk_store(m, &pte[t], c, mask);
			ref[t][c / 4] = (ref[t][c / 4] & ~(0xffffULL << (c % 4 * 16))) | (uint64_t)mask << (c % 4 * 16);
		} else {
			pte_bits_free(m, &pte[t]);
			memset(&pte[t], 0, sizeof(pte[t]));
			memset(ref[t], 0, sizeof(ref[t]));
			frees++;
		}
		spills += !was_spilled && pte[t].nr_part == PTE_SPILLED;
		{
			uint32_t any = 0, full = 0;
			unsigned int part = 0;

			for (unsigned int k = 0; k < PTRS_PER_PT; k++)
				ASSERT_EQ(pte_present(&pte[t], k), (ref[t][k / 64] >> (k % 64)) & 1);
			for (unsigned int k = 0; k < PTRS_PER_PT / PTE_CHUNK_PAGES; k++) {
				uint16_t want = (uint16_t)(ref[t][k / 4] >> (k % 4 * 16));

				ASSERT_EQ(pte_chunk(&pte[t], k), want);
				any |= (uint32_t)(want != 0) << k;
				full |= (uint32_t)(want == 0xffff) << k;
				part += want && want != 0xffff;
			}
			ASSERT_EQ(pte[t].any, any);
			ASSERT_EQ(pte[t].full, full);
			if (pte[t].nr_part != PTE_SPILLED)
				ASSERT_EQ(pte[t].nr_part, part);
		}
	}
	ASSERT_TRUE(spills > 100);
	ASSERT_TRUE(frees > 100);
	for (int t = 0; t < 4; t++)
		pte_bits_free(m, &pte[t]);
	mm_env_destroy(&e);
}

TEST(flat_window_is_host_layout_only)
{
	static const char *const kv[] = { "memory=2g", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };
	struct mm_env e[3];
	struct machine *m[3];
	struct mm_struct *mm[3][8] = { { 0 } };
	unsigned long shm_addr[3], anon_addr[3];
	struct sim_rng rng;
	unsigned int windows = 0, reused = 0, own = 0, slots_seen = 0;

	for (int k = 0; k < 3; k++) {
		struct shmem_object *shm;

		m[k] = mm_env_create(&e[k], kv);
		ASSERT_TRUE(m[k]);
		mm_set_check_interval(m[k], 0);
		m[k]->no_flat_window = k == 1;
		if (k == 2)
			mm_flat_expect(m[k], 4);
		mm[k][0] = mm_create(m[k]);
		ASSERT_TRUE(mm[k][0]);
		shm = shmem_create(m[k], 300 * MiB + 12345, "pool");
		shm_addr[k] = mm_mmap(mm[k][0], 300 * MiB + 12345, VM_READ | VM_WRITE | VM_SHARED, shm, NULL,
				      NULL, 0, PAGE_SIZE);
		shmem_put(shm);
		anon_addr[k] = mm_mmap(mm[k][0], 3 * MiB, VM_READ | VM_WRITE, NULL, NULL, NULL, 0, PAGE_SIZE);
		ASSERT_TRUE(shm_addr[k] && anon_addr[k]);
		ASSERT_EQ(anon_addr[k] + 3 * MiB, shm_addr[k]);	/* adjacent */
	}
	ASSERT_EQ(shm_addr[0], shm_addr[1]);
	ASSERT_EQ(shm_addr[0], shm_addr[2]);
	ASSERT_TRUE(mm[0][0]->flat != NULL);
	ASSERT_TRUE(mm[1][0]->flat == NULL);
	ASSERT_TRUE(mm[2][0]->flat_matrix != NULL);
	ASSERT_EQ(mm[2][0]->flat_slot, 0);
	ASSERT_EQ(mm[2][0]->flat_stride, 4);
	slots_seen = 1;
	ASSERT_TRUE((shm_addr[0] & (PMD_SIZE - 1)) != 0);	/* an edge region outside the window */
	rng_init(&rng, 7, 1);
	for (unsigned int step = 0; step < 20000; step++) {
		unsigned int op = (unsigned int)rng_below(&rng, 100);
		unsigned int i = (unsigned int)rng_below(&rng, 8);
		bool write = rng_below(&rng, 2);
		unsigned long off;

		if (op < 2) {				/* fork from the parent */
			if (mm[0][i] || i == 0)
				continue;
			for (int k = 0; k < 3; k++)
				mm[k][i] = mm_fork(mm[k][0]);
			windows += mm[0][i]->flat != NULL;
			if (!mm[2][i]->flat_matrix) {
				own += mm[2][i]->flat != NULL;
			} else {
				reused += slots_seen >> mm[2][i]->flat_slot & 1;
				slots_seen |= 1U << mm[2][i]->flat_slot;
			}
			continue;
		}
		if (op < 3) {				/* exit */
			if (!mm[0][i] || i == 0)
				continue;
			for (int k = 0; k < 3; k++) {
				mm_exit(mm[k][i]);
				mm[k][i] = NULL;
			}
			continue;
		}
		if (!mm[0][i])
			continue;
		/* touch: mostly the pool, some of the anonymous range and its
		 * neighbourhood of the edge region */
		if (op < 80)
			off = shm_addr[0] + (unsigned long)rng_below(&rng, 300 * MiB + 12345);
		else
			off = anon_addr[0] + (unsigned long)rng_below(&rng, 3 * MiB);
		ASSERT_EQ(mm_touch(mm[0][i], off, write), mm_touch(mm[1][i], off, write));
		ASSERT_EQ(mm_touch(mm[2][i], off, write), mm_touch(mm[1][i], off, write));
		ASSERT_EQ(sum_vm_event(m[0], PGFAULT), sum_vm_event(m[1], PGFAULT));
		ASSERT_EQ(sum_vm_event(m[2], PGFAULT), sum_vm_event(m[1], PGFAULT));
		ASSERT_EQ(pgtables(m[0]), pgtables(m[1]));
		ASSERT_EQ(pgtables(m[2]), pgtables(m[1]));
		ASSERT_EQ(mm[0][i]->rss_shmem, mm[1][i]->rss_shmem);
		ASSERT_EQ(mm[2][i]->rss_shmem, mm[1][i]->rss_shmem);
		ASSERT_EQ(mm[0][i]->rss_anon, mm[1][i]->rss_anon);
		ASSERT_EQ(mm[2][i]->rss_anon, mm[1][i]->rss_anon);
	}
	ASSERT_TRUE(windows > 0);
	ASSERT_TRUE(reused > 0);
	ASSERT_TRUE(own > 0);
	ASSERT_EQ(node_page_state_exact(&m[0]->node, NR_FILE_MAPPED),
		  node_page_state_exact(&m[1]->node, NR_FILE_MAPPED));
	ASSERT_EQ(node_page_state_exact(&m[0]->node, NR_ANON_MAPPED),
		  node_page_state_exact(&m[1]->node, NR_ANON_MAPPED));
	ASSERT_EQ(node_page_state_exact(&m[2]->node, NR_FILE_MAPPED),
		  node_page_state_exact(&m[1]->node, NR_FILE_MAPPED));
	ASSERT_EQ(node_page_state_exact(&m[2]->node, NR_ANON_MAPPED),
		  node_page_state_exact(&m[1]->node, NR_ANON_MAPPED));
	for (int k = 0; k < 3; k++) {
		for (int i = 7; i >= 0; i--)
			if (mm[k][i])
				mm_exit(mm[k][i]);
		ASSERT_EQ(pgtables(m[k]), 0);
		ASSERT_EQ(used_pages(m[k]), 0);
		ASSERT_MM_OK(m[k]);
		mm_env_destroy(&e[k]);
	}
}

/* ---- [global] fault_model=drawn (memory.c "drawn faults") ------------------------ */

#define ASSERT_DRAWN_OK(m) do {						\
	char _err[256];							\
	if (mm_drawn_check(m, _err, sizeof(_err))) {			\
		harness_fail(__FILE__, __LINE__, "mm_drawn_check: %s", _err); \
		return;							\
	}								\
} while (0)

/*
 * The drawn model keeps the page-table pages exact and its counts whole.
 * A test of that: two machines, one exact and one drawn, run the same
 * random program — a parent with a 2.3 GiB shared pool (a whole GiB of
 * it in the window, whose PMD table's host record is thin), 15 forked
 * children, exits and re-forks, and touches of three kinds: a few hot
 * pages every process reads, each process's own page (written), and
 * uniform reads and writes over the pool.  Expect after every step the
 * same NR_PAGETABLE on both (a table is allocated at a process's first
 * touch of a 2 MiB region either way) and mm_drawn_check to hold (per
 * region the processes' counts sum to the pages' map counts, no map count
 * above the table holders); at the end the drawn model's pgfault within
 * 10 % of the exact one's, and after every process exits no page table,
 * no mapped page and no used page left on either.
 */
TEST(drawn_faults_tables_exact_counts_whole)
{
	static const char *const kv[] = { "memory=2g", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };
	const unsigned long pool = 2 * GiB + 300 * MiB;
	struct mm_env e[2];
	struct machine *m[2];
	struct mm_struct *mm[2][16] = { { 0 } };
	unsigned long base = 0;
	struct sim_rng rng;
	unsigned long faults[2];
	unsigned int thin;

	for (int k = 0; k < 2; k++) {
		struct shmem_object *shm;

		m[k] = mm_env_create(&e[k], kv);
		ASSERT_TRUE(m[k]);
		mm_set_check_interval(m[k], 0);
		m[k]->drawn_faults = k == 1;
		mm[k][0] = mm_create(m[k]);
		ASSERT_TRUE(mm[k][0]);
		shm = shmem_create(m[k], pool, "pool");
		base = mm_mmap(mm[k][0], pool, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, PAGE_SIZE);
		shmem_put(shm);
		ASSERT_TRUE(base);
	}
	ASSERT_TRUE(mm[0][0]->flat != NULL && mm[0][0]->drawn == NULL);
	ASSERT_TRUE(mm[1][0]->flat == NULL && mm[1][0]->drawn != NULL);
	for (int i = 1; i < 16; i++)
		for (int k = 0; k < 2; k++)
			mm[k][i] = mm_fork(mm[k][0]);
	rng_init(&rng, 11, 1);
	thin = 0;
	for (unsigned int step = 0; step < 60000; step++) {
		unsigned int op = (unsigned int)rng_below(&rng, 1000);
		unsigned int i = 1 + (unsigned int)rng_below(&rng, 15);
		unsigned long addr;
		bool write = false;

		if (op < 2) {				/* a child exits, another takes its place */
			for (int k = 0; k < 2; k++) {
				mm_exit(mm[k][i]);
				mm[k][i] = mm_fork(mm[k][0]);
			}
			ASSERT_DRAWN_OK(m[1]);
			continue;
		}
		if (op < 400)				/* hot: 8 pages everyone reads */
			addr = base + (1 + rng_below(&rng, 8) * 97) * PAGE_SIZE;
		else if (op < 550) {			/* the process's own page */
			addr = base + pool - (1 + i) * PAGE_SIZE;
			write = true;
		} else {				/* uniform over the pool */
			addr = base + rng_below(&rng, pool >> PAGE_SHIFT) * PAGE_SIZE;
			write = op < 600;
		}
		for (int k = 0; k < 2; k++)
			ASSERT_EQ(mm_touch(mm[k][i], addr, write), 0);
		ASSERT_EQ(pgtables(m[0]), pgtables(m[1]));
		if (step % 1000 == 0)
			ASSERT_DRAWN_OK(m[1]);
	}
	ASSERT_DRAWN_OK(m[1]);
	for (unsigned int g = 0; g < PTRS_PER_PT; g++)
		for (unsigned int u = 0; mm[1][1]->pud[g] && u < PTRS_PER_PT; u++)
			thin += mm[1][1]->pud[g]->pmd[u] && mm[1][1]->pud[g]->pmd[u]->thin;
	ASSERT_TRUE(thin > 0);
	faults[0] = sum_vm_event(m[0], PGFAULT);
	faults[1] = sum_vm_event(m[1], PGFAULT);
	printf("# pgfault exact %lu drawn %lu\n", faults[0], faults[1]);
	ASSERT_TRUE(faults[1] * 10 >= faults[0] * 9 && faults[1] * 10 <= faults[0] * 11);
	for (int k = 0; k < 2; k++) {
		for (int i = 15; i >= 0; i--)
			mm_exit(mm[k][i]);
		ASSERT_EQ(pgtables(m[k]), 0);
		ASSERT_EQ(node_page_state_exact(&m[k]->node, NR_FILE_MAPPED), 0);
		ASSERT_EQ(used_pages(m[k]), 0);
		ASSERT_MM_OK(m[k]);
		mm_env_destroy(&e[k]);
	}
}

/* A drawn machine (env `mid`) whose parent maps a 256 MiB shmem pool at
 * a 2 MiB-aligned base and forks n - 1 children: mm[0..n-1].  Returns
 * the base, or 0 if any step failed. */
static unsigned long drawn_pool_setup(struct mm_env *e, struct machine **mp, struct mm_struct **mm, int n,
				      struct shmem_object **shm)
{
	struct machine *m = mm_env_create(e, mid);
	unsigned long base;

	*mp = m;
	if (!m)
		return 0;
	m->drawn_faults = true;
	mm[0] = mm_create(m);
	if (!mm[0])
		return 0;
	*shm = shmem_create(m, 256 * MiB, "pool");
	base = mm_mmap(mm[0], 256 * MiB, VM_READ | VM_WRITE | VM_SHARED, *shm, NULL, NULL, 0, PMD_SIZE);
	if (!base || !mm[0]->drawn)
		return 0;
	for (int i = 1; i < n; i++) {
		mm[i] = mm_fork(mm[0]);
		if (!mm[i] || !mm[i]->drawn)
			return 0;
	}
	return base;
}

/* Every process exits, the pool goes; the caller checks the machine. */
static void drawn_pool_teardown(struct mm_struct **mm, int n, struct shmem_object *shm)
{
	for (int i = n - 1; i >= 0; i--)
		mm_exit(mm[i]);
	shmem_put(shm);
}

/*
 * In a chunk that its holders map only in part, the draw still tells a
 * process's own pages from the others'.  A test: the parent and 15
 * children each write one page of their own, all in the same 64 KiB chunk
 * (a write fault maps one page, so every process holds the chunk and maps
 * one page of it).  Then each reads its own page: no fault (the exact
 * model has none: the process's own fault is remembered).  Then each
 * reads the next process's page: the exact model faults 16 times (the
 * first read fault of each maps the whole chunk); expect at least 8 drawn
 * faults, map counts never above the 16 holders, and the checks whole.
 */
TEST(drawn_faults_partial_chunk)
{
	struct mm_env e;
	struct machine *m;
	struct mm_struct *mm[16];
	struct shmem_object *shm;
	unsigned long base = drawn_pool_setup(&e, &m, mm, 16, &shm), chunk, before, cross;

	ASSERT_TRUE(base);
	chunk = base + 5 * PMD_SIZE + 64 * PAGE_SIZE;
	for (int i = 0; i < 16; i++)
		ASSERT_EQ(mm_touch(mm[i], chunk + (unsigned long)i * PAGE_SIZE, true), 0);
	ASSERT_DRAWN_OK(m);
	before = sum_vm_event(m, PGFAULT);
	for (int i = 0; i < 16; i++)
		ASSERT_EQ(mm_touch(mm[i], chunk + (unsigned long)i * PAGE_SIZE, false), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT) - before, 0);
	before = sum_vm_event(m, PGFAULT);
	for (int i = 0; i < 16; i++) {
		ASSERT_EQ(mm_touch(mm[i], chunk + (unsigned long)((i + 1) % 16) * PAGE_SIZE, false), 0);
		for (int k = 0; k < 16; k++)
			ASSERT_TRUE(page_mapcount(shmem_mapping(shm), (chunk - base) / PAGE_SIZE + (unsigned long)k) <= 16);
	}
	cross = sum_vm_event(m, PGFAULT) - before;
	printf("# cross reads: %lu drawn faults (exact 16)\n", cross);
	ASSERT_TRUE(cross >= 8 && cross <= 16);
	ASSERT_DRAWN_OK(m);
	drawn_pool_teardown(mm, 16, shm);
	ASSERT_EQ(pgtables(m), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A hot page faults at most once per table holder, and a page nobody
 * maps always faults.  A test: the parent and 12 children each take the
 * region's table by writing a page of their own in it, then the children
 * read one hot page of the same region 50 times each, round robin.
 * Expect: 13 table holders, the hot page's map count never above 13 and
 * at least 6 (the exact model has 12: each child once), and no fault at
 * all in the last 40 rounds;
 * then 20 reads by each process of its own page: no fault; then a
 * write to a page of the hot chunk nobody maps: one fault, although every
 * window now holds the chunk.
 */
TEST(drawn_faults_hot_page_once_per_holder)
{
	struct mm_env e;
	struct machine *m;
	struct mm_struct *mm[13];
	struct shmem_object *shm;
	unsigned long base = drawn_pool_setup(&e, &m, mm, 13, &shm), hot, late;

	ASSERT_TRUE(base);
	hot = base + 8 * PMD_SIZE + 300 * PAGE_SIZE;
	ASSERT_EQ(mm_touch(mm[0], base + 8 * PMD_SIZE, true), 0);	/* the parent too */
	for (int i = 1; i <= 12; i++)
		ASSERT_EQ(mm_touch(mm[i], base + 8 * PMD_SIZE + (unsigned long)i * 32 * PAGE_SIZE, true), 0);
	ASSERT_EQ(shmem_mapping(shm)->pt_users[8 + shmem_mapping(shm)->pt_users_phase / PTRS_PER_PT].users, 13);
	late = 0;
	for (int round = 0; round < 50; round++) {
		for (int i = 1; i <= 12; i++) {
			unsigned long before = sum_vm_event(m, PGFAULT);

			ASSERT_EQ(mm_touch(mm[i], hot, false), 0);
			if (round >= 10)
				late += sum_vm_event(m, PGFAULT) - before;
			ASSERT_TRUE(page_mapcount(shmem_mapping(shm), (hot - base) >> PAGE_SHIFT) <= 13);
		}
	}
	ASSERT_TRUE(page_mapcount(shmem_mapping(shm), (hot - base) >> PAGE_SHIFT) >= 6);
	ASSERT_EQ(late, 0);
	/* each process's own page, which it faulted in: never again */
	late = sum_vm_event(m, PGFAULT);
	for (int round = 0; round < 20; round++)
		for (int i = 1; i <= 12; i++)
			ASSERT_EQ(mm_touch(mm[i], base + 8 * PMD_SIZE + (unsigned long)i * 32 * PAGE_SIZE, false), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT) - late, 0);
	/* once the parent has read it too, every window holds the hot page's
	 * chunk (the shortcut that reads no per-process state applies), yet a
	 * page of that chunk nobody maps faults */
	ASSERT_EQ(mm_touch(mm[0], hot, false), 0);
	ASSERT_EQ(shmem_mapping(shm)->pt_users[8 + shmem_mapping(shm)->pt_users_phase / PTRS_PER_PT]
		  .chunk[300 / 16], 13);
	late = sum_vm_event(m, PGFAULT);
	ASSERT_EQ(mm_touch(mm[3], hot + PAGE_SIZE, true), 0);
	ASSERT_EQ(sum_vm_event(m, PGFAULT) - late, 1);
	ASSERT_DRAWN_OK(m);
	drawn_pool_teardown(mm, 13, shm);
	ASSERT_EQ(pgtables(m), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}
