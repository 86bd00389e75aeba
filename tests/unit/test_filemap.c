/* SPDX-License-Identifier: MIT */
/*
 * test_filemap.c — __filemap_get_folio's order choice and fallback loop
 * (__filemap_get_folio, mm/filemap.c; write size to folio order, docs/pagecache.md; docs/slowpath.md, policy variants), the iomap write loop before and after
 * 5d8edfb900d5, readahead, truncation and the reclaim hook.
 */
#include <errno.h>

#include "mm/fs.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/writeback.h"
#include "mm_test.h"
#include "sim_test.h"
#include "sim/bdev.h"

static const char *const small[] = { "memory=256m", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };

#define XFS_GFP	(GFP_HIGHUSER_MOVABLE & ~__GFP_FS)

static struct address_space *xfs_mapping(struct machine *m)
{
	return mapping_create(m, MAPPING_FILE, XFS_GFP, 0, MAX_PAGECACHE_ORDER,
			      AS_WRITEBACK_CAPABLE | AS_MIGRATE_NONBLOCKING, NULL, "f");
}

static uint64_t attempts(struct machine *m, unsigned int order)
{
	return sim_stat_read(m, (enum sim_stat_item)(SIM_PAGECACHE_ATTEMPT_ORDER0 + order));
}

static uint64_t allocs(struct machine *m, unsigned int order)
{
	return sim_stat_read(m, (enum sim_stat_item)(SIM_PAGECACHE_ALLOC_ORDER0 + order));
}

/* Leave only order-0 free blocks: take every free page at order 0 (below
 * the watermarks too), then give back every other one (no two free
 * buddies can merge). */
static void fragment_to_order0(struct machine *m)
{
	pfn_t *held = malloc(sizeof(pfn_t) * m->nr_pfns);
	unsigned long n = mm_take_all_order0(m, held);

	for (unsigned long i = 0; i < n; i++)
		if (held[i] & 1)
			free_pages(m, held[i], 0);
	free(held);
	drain_all_pages(m, NULL);
}

/* A test of the order choice of every alignment case of __filemap_get_folio, mm/filemap.c step
 * 4-5 with a free machine (every attempt succeeds at once): the hint
 * from the length, the mapping's max-order clamp, and the reduction to
 * the index's trailing zeros.  Expect the folio order shown in each row
 * and exactly one attempt per lookup. */
TEST(filemap_order_choice_alignment)
{
	static const struct { unsigned long len, index; unsigned int order; } rows[] = {
		{ 4096, 5000, 0 },		/* one page: no hint */
		{ 8192, 2, 1 },			/* 8 KiB at an 8 KiB boundary */
		{ 8192, 7, 0 },			/* misaligned: ffs(7) = 0 */
		{ 12288, 4, 1 },		/* 12 KiB -> floor(log2) = order 1 */
		{ 16384, 8, 2 },
		{ 65536, 16, 4 },		/* 64 KiB aligned: costly order 4 */
		{ 65536, 40, 3 },		/* 64 KiB at idx 40: ffs = 3 */
		{ 1 << 20, 256, 8 },		/* 1 MiB aligned */
		{ 1 << 20, 768, 8 },		/* 768 = 3 << 8 */
		{ 4 << 20, 1024, 9 },		/* clamped to the max order 9 */
		{ 4 << 20, 1536, 9 },		/* 1536 = 3 << 9 */
		{ 2 << 20, 2560 + 64, 6 },	/* ffs(2624) = 6 */
	};
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;

	ASSERT_TRUE(m);
	mapping = xfs_mapping(m);
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t before = attempts(m, rows[i].order);
		int err = 1;
		pfn_t pfn = __filemap_get_folio(m, mapping, rows[i].index,
						FGP_WRITEBEGIN | FGP_NOFS | fgf_set_order(rows[i].len),
						XFS_GFP, &err);

		ASSERT_EQ(err, 0);
		ASSERT_TRUE(pfn != PFN_NONE);
		ASSERT_EQ(page_order(pfn_to_page(m, pfn)), rows[i].order);
		ASSERT_EQ(pfn_to_page(m, pfn)->index, rows[i].index);
		ASSERT_EQ(attempts(m, rows[i].order), before + 1);
	}
	/* a lookup inside an existing folio returns it and allocates nothing */
	{
		uint64_t total = 0;
		int err;
		pfn_t pfn;

		for (unsigned int o = 0; o <= 9; o++)
			total += attempts(m, o);
		pfn = __filemap_get_folio(m, mapping, 260, FGP_WRITEBEGIN | fgf_set_order(4096), XFS_GFP, &err);
		ASSERT_EQ(pfn_to_page(m, pfn)->index, 256);
		for (unsigned int o = 0; o <= 9; o++)
			total -= attempts(m, o);
		ASSERT_EQ(total, 0);
	}
	/* a mapping limited to order 2 clamps a 64 KiB hint */
	{
		struct address_space *small_max = mapping_create(m, MAPPING_FILE, XFS_GFP, 0, 2,
								 AS_WRITEBACK_CAPABLE, NULL, "max2");
		int err;
		pfn_t pfn = __filemap_get_folio(m, small_max, 16, FGP_WRITEBEGIN | fgf_set_order(65536),
						XFS_GFP, &err);

		ASSERT_EQ(page_order(pfn_to_page(m, pfn)), 2);
	}
	/* without FGP_CREAT a miss is -ENOENT */
	{
		int err = 0;

		ASSERT_EQ(__filemap_get_folio(m, mapping, 99999, 0, XFS_GFP, &err), PFN_NONE);
		ASSERT_EQ(err, -ENOENT);
	}
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the fallback loop on a machine with only order-0 free
 * blocks: an order-4 request at an aligned index walks 4, 3, 2, 1, 0
 * (6.12), one attempt each, and gets an order-0 folio; under 6.6 order 1
 * is skipped (4, 3, 2, 0).  Expect the per-order attempt counters to
 * show exactly these walks and only order 0 obtained. */
TEST(filemap_fallback_walk_6_12_and_6_6)
{
	for (int k = 0; k < 2; k++) {
		struct mm_policy pol = mm_policies[0];
		struct mm_env e;
		struct machine *m = mm_env_create(&e, small);
		struct address_space *mapping;
		int err;
		pfn_t pfn;

		ASSERT_TRUE(m);
		mm_set_check_interval(m, 0);
		pol.kernel = k ? KERNEL_6_6 : KERNEL_6_12;
		m->policy = &pol;
		fragment_to_order0(m);
		mapping = xfs_mapping(m);
		pfn = __filemap_get_folio(m, mapping, 64, FGP_WRITEBEGIN | FGP_NOFS | fgf_set_order(65536),
					  XFS_GFP, &err);
		ASSERT_EQ(err, 0);
		ASSERT_EQ(page_order(pfn_to_page(m, pfn)), 0);
		ASSERT_EQ(attempts(m, 4), 1);
		ASSERT_EQ(attempts(m, 3), 1);
		ASSERT_EQ(attempts(m, 2), 1);
		ASSERT_EQ(attempts(m, 1), k ? 0 : 1);
		ASSERT_EQ(attempts(m, 0), 1);
		ASSERT_EQ(allocs(m, 0), 1);
		ASSERT_EQ(allocs(m, 4) + allocs(m, 3) + allocs(m, 2) + allocs(m, 1), 0);
		/* an 8 KiB write under 6.6: order 1 becomes order 0 at once */
		pfn = __filemap_get_folio(m, mapping, 128, FGP_WRITEBEGIN | fgf_set_order(8192), XFS_GFP, &err);
		ASSERT_EQ(page_order(pfn_to_page(m, pfn)), 0);
		ASSERT_EQ(attempts(m, 1), k ? 0 : 2);
		ASSERT_EQ(mm_check(m), 0);
		mm_env_destroy(&e);
	}
}

/* A test of the insertion race: when a smaller folio already sits inside
 * the range of the preferred order, filemap_add_folio fails with -EEXIST,
 * the new folio is freed and the loop allocates again one order lower
 * (__filemap_get_folio, mm/filemap.c step 5c); at the order that fits beside it the insert
 * succeeds.  Expect order 3 (EEXIST: it would cover 12) then order 2
 * (8..11, inserted) for an order-3 request at index 8 with index 12
 * already cached. */
TEST(filemap_eexist_walks_down)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct address_space *mapping;
	int err;
	pfn_t pfn;

	ASSERT_TRUE(m);
	mapping = xfs_mapping(m);
	pfn = __filemap_get_folio(m, mapping, 12, FGP_WRITEBEGIN, XFS_GFP, &err);
	ASSERT_EQ(page_order(pfn_to_page(m, pfn)), 0);
	pfn = __filemap_get_folio(m, mapping, 8, FGP_WRITEBEGIN | fgf_set_order(32768), XFS_GFP, &err);
	ASSERT_EQ(err, 0);
	ASSERT_EQ(page_order(pfn_to_page(m, pfn)), 2);
	ASSERT_EQ(pfn_to_page(m, pfn)->index, 8);
	ASSERT_EQ(attempts(m, 3), 1);
	ASSERT_EQ(attempts(m, 2), 1);
	ASSERT_EQ(sim_stat_read(m, SIM_PAGECACHE_EEXIST), 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test of the per-attempt gfp of every variant (__filemap_get_folio, mm/filemap.c step 6)
 * for the XFS base gfp with __GFP_WRITE.  Expect, for orders 9 (costly),
 * 2 (non-costly) and 0 (the min order), the flag sets the spec gives. */
TEST(filemap_attempt_gfp_rules)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	struct mm_policy pol = mm_policies[0];
	gfp_t base = XFS_GFP | __GFP_WRITE;
	gfp_t nr = __GFP_NORETRY | __GFP_NOWARN;

	ASSERT_TRUE(m);
	m->policy = &pol;
	/* P1 */
	ASSERT_EQ(filemap_attempt_gfp(m, base, 9, 0, true), base | nr);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 2, 0, false), base | nr);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 0, 0, false), base);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 2, 2, true), base);	/* min order 2 */
	/* P1 on 6.6: "order > 0", min order ignored */
	pol.kernel = KERNEL_6_6;
	ASSERT_EQ(filemap_attempt_gfp(m, base, 2, 2, true), base | nr);
	pol.kernel = KERNEL_6_12;
	/* V2 */
	pol.filemap_rule = FILEMAP_COSTLY_NORECLAIM;
	ASSERT_EQ(filemap_attempt_gfp(m, base, 9, 0, true), (base | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 4, 0, false), (base | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 3, 0, false), base | nr);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 0, 0, false), base);
	/* V3a */
	pol.filemap_rule = FILEMAP_NORECLAIM_ABOVE_MIN;
	ASSERT_EQ(filemap_attempt_gfp(m, base, 9, 0, true), (base | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 1, 0, false), (base | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 0, 0, false), base);
	/* V3b: first attempt keeps direct reclaim, later ones lose it */
	pol.filemap_rule = FILEMAP_FIRST_ATTEMPT_NORETRY;
	ASSERT_EQ(filemap_attempt_gfp(m, base, 9, 0, true), base | nr);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 8, 0, false), (base | nr) & ~__GFP_DIRECT_RECLAIM);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 0, 0, false), base);
	ASSERT_EQ(filemap_attempt_gfp(m, base, 0, 0, true), base);
	mm_env_destroy(&e);
}

/* ---- the iomap write loop --------------------------------------------------------- */

struct fs_env {
	struct mm_env	e;
	struct mm_policy pol;
	struct bdev	*dev;
	struct super_block *sb;
};

static struct machine *fs_env_create(struct fs_env *f, const char *const *kv, enum kernel_gen k,
				     const char *policy)
{
	struct bdev_config bc = {
		.name = "vol", .lat_mean_ns = 200 * SIM_NSEC_PER_USEC, .flush_ns = 300 * SIM_NSEC_PER_USEC,
		.members = 1, .bandwidth = 400ULL << 20,
	};
	struct machine *m = mm_env_create(&f->e, kv ? kv : small);

	if (!m)
		return NULL;
	f->pol = *mm_policy_find(policy);
	f->pol.kernel = k;
	m->policy = &f->pol;
	f->dev = bdev_create(f->e.sim, &bc);
	f->sb = fs_mount(m, f->dev, "vol", 0);
	return m;
}

/* Orders of the folios covering [first, first + n) pages, in index order. */
static int folio_orders(struct machine *m, struct inode *inode, unsigned long first, unsigned long n,
			unsigned int *out, int max)
{
	int k = 0;

	for (unsigned long i = first; i < first + n && k < max;) {
		pfn_t pfn = filemap_lookup(m, inode->i_mapping, i);

		if (pfn == PFN_NONE)
			return -1;
		out[k++] = page_order(pfn_to_page(m, pfn));
		i = pfn_to_page(m, pfn)->index + folio_nr_pages(pfn_to_page(m, pfn));
	}
	return k;
}

/* A test of write size to folio order, docs/pagecache.md's table through the whole write path (pwrite ->
 * iomap_write_iter -> __filemap_get_folio), for 6.12 and 6.6: 8 KiB at
 * an 8 KiB boundary, 16 KiB, 64 KiB, 1 MiB aligned, 4 MiB, and the
 * 128 KiB write at idx 258.  Expect the folio orders of the table
 * (6.12: 1 | 2 | 4 | 8 | 9 9 | 1 2 3 4 1; 6.6: 0 0 | 2 | 4 | 8 | 9 9 |
 * 0 0 2 3 4 0 0). */
TEST(iomap_write_orders_spec_table)
{
	static const struct { uint64_t pos, len; unsigned int o612[8], n612, o66[8], n66; } rows[] = {
		{ 8192ULL * 1000, 8192, { 1 }, 1, { 0, 0 }, 2 },
		{ 16384ULL * 1000, 16384, { 2 }, 1, { 2 }, 1 },
		{ 65536ULL * 1000, 65536, { 4 }, 1, { 4 }, 1 },
		{ 1ULL << 30, 1 << 20, { 8 }, 1, { 8 }, 1 },
		{ 2ULL << 30, 4 << 20, { 9, 9 }, 2, { 9, 9 }, 2 },
		{ 258ULL * 4096 + (3ULL << 30), 128 << 10, { 1, 2, 3, 4, 1 }, 5, { 0, 0, 2, 3, 4, 0, 0 }, 7 },
	};

	for (int k = 0; k < 2; k++) {
		struct fs_env f;
		struct machine *m = fs_env_create(&f, (const char *const[]){ "memory=512m", "zones=DMA:16m,Normal:rest", "cpus=2", NULL },
						  k ? KERNEL_6_6 : KERNEL_6_12, "baseline");
		struct inode *inode;

		ASSERT_TRUE(m);
		mm_set_check_interval(m, 0);
		inode = fs_create(f.sb, "wal");
		for (unsigned int r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
			unsigned int got[16];
			const unsigned int *want = k ? rows[r].o66 : rows[r].o612;
			unsigned int nwant = k ? rows[r].n66 : rows[r].n612;
			int n;

			ASSERT_EQ(ksys_pwrite64(m, inode, rows[r].pos, rows[r].len), (long)rows[r].len);
			n = folio_orders(m, inode, (unsigned long)(rows[r].pos >> PAGE_SHIFT),
					 (unsigned long)(rows[r].len >> PAGE_SHIFT), got, 16);
			ASSERT_EQ(n, (int)nwant);
			for (unsigned int i = 0; i < nwant; i++)
				ASSERT_EQ(got[i], want[i]);
		}
		ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_DIRTY), (long)inode->i_mapping->nrpages);
		ASSERT_EQ(mm_check(m), 0);
		mm_env_destroy(&f.e);
	}
}

/* A test of the pre-5d8edfb900d5 loop (P0, "pre-large-chunks"): the same
 * 1 MiB aligned write copies one page per iteration and asks only for
 * order 0.  Expect 256 order-0 attempts and folios, none above order 0. */
TEST(iomap_write_small_chunks_p0)
{
	struct fs_env f;
	struct machine *m = fs_env_create(&f, NULL, KERNEL_6_12, "pre-large-chunks");
	struct inode *inode;

	ASSERT_TRUE(m);
	inode = fs_create(f.sb, "data");
	ASSERT_EQ(ksys_pwrite64(m, inode, 1 << 20, 1 << 20), 1 << 20);
	ASSERT_EQ(attempts(m, 0), 256);
	ASSERT_EQ(allocs(m, 0), 256);
	for (unsigned int o = 1; o <= 9; o++)
		ASSERT_EQ(attempts(m, o), 0);
	ASSERT_EQ(inode->i_mapping->nrpages, 256);
	mm_env_destroy(&f.e);
}

/* A test of V1 ("iomap-opportunistic", docs/slowpath.md, policy variants) against the baseline on
 * a machine with only order-0 free blocks: a 64 KiB aligned write's first
 * iteration has hint 4 (costly), so its whole walk 4..0 runs without
 * __GFP_DIRECT_RECLAIM; the following iterations have hints <= 3 and keep
 * it.  Expect 5 non-blocking attempts under V1, 0 under the baseline, and
 * the same folios (all order 0) and bytes written in both. */
TEST(iomap_v1_costly_hint_noreclaim)
{
	for (int v1 = 0; v1 < 2; v1++) {
		struct fs_env f;
		struct machine *m = fs_env_create(&f, NULL, KERNEL_6_12,
						  v1 ? "iomap-opportunistic" : "baseline");
		struct inode *inode;

		ASSERT_TRUE(m);
		mm_set_check_interval(m, 0);
		fragment_to_order0(m);
		inode = fs_create(f.sb, "wal");
		ASSERT_EQ(ksys_pwrite64(m, inode, 0, 65536), 65536);
		ASSERT_EQ(sim_stat_read(m, SIM_PAGECACHE_NONBLOCKING), v1 ? 5 : 0);
		ASSERT_EQ(inode->i_mapping->nrpages, 16);
		ASSERT_EQ(allocs(m, 0), 16);
		mm_env_destroy(&f.e);
	}
}

/* ---- readahead, truncation, reclaim hook --------------------------------------------- */

struct rd_arg {
	struct machine	*m;
	struct inode	*inode;
	long		ret[8];
};

static void sequential_reader(struct sim *sim, void *p)
{
	struct rd_arg *a = p;

	(void)sim;
	for (int i = 0; i < 4; i++)
		a->ret[i] = ksys_pread64(a->m, a->inode, (uint64_t)i * 16384, 16384);
}

/* A test of readahead on a preallocated 1 MiB file with nothing cached:
 * four sequential 16 KiB reads from offset 0.  The first read opens a
 * window of get_init_ra_size(4, 32) = 8 pages of order-2 folios; the
 * miss at page 8 continues it with get_next_ra_size(8, 32) = 16 pages at
 * order min(2 + 2, ilog2 16) = 4, lowered to 3 by the alignment of pages
 * 8 and 16.  Expect every read to return 16 KiB, 24 pages read by
 * readahead, pgpgin 96 KiB, order 2 at page 0 and order 3 at page 8. */
TEST(readahead_sequential_window)
{
	struct fs_env f;
	struct machine *m = fs_env_create(&f, NULL, KERNEL_6_12, "baseline");
	struct rd_arg a = { 0 };
	struct inode *inode;

	ASSERT_TRUE(m);
	inode = fs_create(f.sb, "table");
	ASSERT_EQ(vfs_fallocate(m, inode, 0, 1 << 20), 0);
	a.m = m;
	a.inode = inode;
	st_task(f.e.sim, "reader", SIM_CPU_ANY, false, sequential_reader, &a, 0);
	sim_run(f.e.sim, SIM_NSEC_PER_SEC);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(a.ret[i], 16384);
	ASSERT_EQ(sim_stat_read(m, SIM_READAHEAD_PAGES), 24);
	ASSERT_EQ(sum_vm_event(m, PGPGIN) / 2, 96);
	ASSERT_EQ(page_order(pfn_to_page(m, filemap_lookup(m, inode->i_mapping, 0))), 2);
	ASSERT_EQ(page_order(pfn_to_page(m, filemap_lookup(m, inode->i_mapping, 8))), 3);
	ASSERT_EQ(inode->i_mapping->nrpages, 24);
	ASSERT_MM_OK(m);
	mm_env_destroy(&f.e);
}

/* A test of truncation and the reclaim hook: four 256 KiB writes (four
 * order-6 folios), truncate to 256 KiB drops the three beyond it (dirty
 * accounting undone), and remove_mapping frees a clean isolated folio but
 * refuses a dirty one.  Expect nr_file_pages, nr_dirty and
 * nr_zone_write_pending to follow exactly. */
TEST(truncate_and_remove_mapping)
{
	struct fs_env f;
	struct machine *m = fs_env_create(&f, NULL, KERNEL_6_12, "baseline");
	struct inode *inode;
	pfn_t pfn;

	ASSERT_TRUE(m);
	inode = fs_create(f.sb, "data");
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(ksys_pwrite64(m, inode, (uint64_t)i << 18, 1 << 18), 1 << 18);
	ASSERT_EQ(page_order(pfn_to_page(m, filemap_lookup(m, inode->i_mapping, 0))), 6);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_DIRTY), 256);
	ASSERT_EQ(do_truncate(m, inode, 256 << 10), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_DIRTY), 64);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), 64);
	ASSERT_EQ(zone_page_state_exact(mm_zone(m, ZONE_DMA), NR_ZONE_WRITE_PENDING) +
		  zone_page_state_exact(mm_zone(m, ZONE_NORMAL), NR_ZONE_WRITE_PENDING), 64);
	/* reclaim hook: dirty folio refused */
	lru_add_drain_all(m);
	pfn = filemap_lookup(m, inode->i_mapping, 0);
	ASSERT_TRUE(folio_isolate_lru(m, pfn));
	ASSERT_FALSE(remove_mapping(m, pfn));
	folio_cancel_dirty(m, pfn);
	ASSERT_TRUE(remove_mapping(m, pfn));
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), 64 - 64);
	/* the caller settles NR_ISOLATED_FILE, as shrink_inactive_list does */
	mod_node_page_state(&m->node, NR_ISOLATED_FILE, -64);
	ASSERT_EQ(do_unlinkat(m, inode), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&f.e);
}

/* A test of the page cache's tracepoints as the model counts them (6.12:
 * filemap:mm_filemap_add_to_page_cache fires once per folio in
 * __filemap_add_folio, mm_filemap_delete_from_page_cache once per folio
 * in __filemap_remove_folio): four 256 KiB writes add four order-6
 * folios, truncation to 256 KiB deletes three, reclaim's remove_mapping
 * one more; a shmem mapping's insertion goes unseen, as 6.12's
 * shmem_add_to_page_cache does not fire it.  Expect adds 4 and deletes
 * 0, 3, 4 after each step, and no add for the shmem folio. */
TEST(filemap_tracepoints_per_folio)
{
	struct fs_env f;
	struct machine *m = fs_env_create(&f, NULL, KERNEL_6_12, "baseline");
	struct address_space *shm;
	struct inode *inode;
	uint64_t add0, del0;
	pfn_t pfn;
	int err;

	ASSERT_TRUE(m);
	add0 = m->tracepoint[TP_MM_FILEMAP_ADD];
	del0 = m->tracepoint[TP_MM_FILEMAP_DELETE];
	inode = fs_create(f.sb, "data");
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(ksys_pwrite64(m, inode, (uint64_t)i << 18, 1 << 18), 1 << 18);
	ASSERT_U64_EQ(m->tracepoint[TP_MM_FILEMAP_ADD] - add0, 4);
	ASSERT_U64_EQ(m->tracepoint[TP_MM_FILEMAP_DELETE] - del0, 0);
	ASSERT_EQ(do_truncate(m, inode, 256 << 10), 0);
	ASSERT_U64_EQ(m->tracepoint[TP_MM_FILEMAP_DELETE] - del0, 3);
	lru_add_drain_all(m);
	pfn = filemap_lookup(m, inode->i_mapping, 0);
	ASSERT_TRUE(folio_isolate_lru(m, pfn));
	folio_cancel_dirty(m, pfn);
	ASSERT_TRUE(remove_mapping(m, pfn));
	mod_node_page_state(&m->node, NR_ISOLATED_FILE, -64);
	ASSERT_U64_EQ(m->tracepoint[TP_MM_FILEMAP_DELETE] - del0, 4);
	ASSERT_EQ(mm_tracepoint_count(m, "filemap:mm_filemap_delete_from_page_cache"),
		  (int64_t)m->tracepoint[TP_MM_FILEMAP_DELETE]);
	/* shmem: inserted, not counted */
	shm = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL, "shm");
	ASSERT_TRUE(shm);
	ASSERT_TRUE(__filemap_get_folio(m, shm, 0, FGP_CREAT | FGP_WRITE, shm->gfp_mask, &err) != PFN_NONE);
	ASSERT_U64_EQ(m->tracepoint[TP_MM_FILEMAP_ADD] - add0, 4);
	ASSERT_EQ(do_unlinkat(m, inode), 0);
	mm_env_destroy(&f.e);
}
