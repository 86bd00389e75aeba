/* SPDX-License-Identifier: MIT */
/* test_mm_init.c — machine construction, the [machine] options, and the
 * tunables derived at boot (mm_init.c). */
#include "mm_test.h"

/* A test that a small machine boots with all managed memory free in the
 * largest aligned blocks, reserved memory at the top of the first zone
 * above DMA, one pgfree per managed page, and a clean mm_check.  Expect
 * DMA 16m = 4 order-10 blocks; Normal 48m - 1m reserved = 11 x order 10
 * + 1 x order 9 + 1 x order 8. */
TEST(boot_state)
{
	static const char *const kv[] = { "memory=64m", "zones=DMA:16m,Normal:rest", "cpus=4",
					  "reserved=1m", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);

	ASSERT_TRUE(m != NULL);
	ASSERT_MM_OK(m);
	ASSERT_EQ(mm_nr_zones(m), 2);
	ASSERT_STR_EQ(mm_zone_name(m, 0), "DMA");
	ASSERT_STR_EQ(mm_zone_name(m, 1), "Normal");
	ASSERT_EQ(mm_zone_managed_pages(m, 0), 4096);
	ASSERT_EQ(mm_zone_managed_pages(m, 1), 12288 - 256);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->zone_start_pfn, 4096);
	ASSERT_EQ(mm_zone(m, ZONE_DMA)->free_area[10].nr_free, 4);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->free_area[10].nr_free, 11);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->free_area[9].nr_free, 1);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->free_area[8].nr_free, 1);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 12032);
	ASSERT_EQ(global_zone_page_state(m, NR_FREE_PAGES), 4096 + 12032);
	ASSERT_EQ(sum_vm_event(m, PGFREE), 4096 + 12032);
	ASSERT_EQ(zone_page_state(mm_zone(m, ZONE_NORMAL), NR_FREE_PAGES_BLOCKS), 11 * 1024 + 512);
	/* reserved frames sit at the top of Normal */
	ASSERT_EQ(page_type(pfn_to_page(m, 16383)), PGTY_RESERVED);
	ASSERT_EQ(page_type(pfn_to_page(m, 16383 - 256)), PGTY_TAIL);
	/* every pageblock starts MOVABLE; no CPU time was charged for booting */
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->nr_pageblocks[MIGRATE_MOVABLE], 24);
	ASSERT_EQ(sim_engine_ns(e.sim), 0);
	ASSERT_EQ(m->nr_memmap_boot_pages, 512);
	mm_env_destroy(&e);
}

static void expect_config_error(const char *const *kv, const char *needle)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);

	if (m) {
		harness_fail(__FILE__, __LINE__, "machine created, expected error containing '%s'", needle);
		mm_env_destroy(&e);
		return;
	}
	if (!strstr(e.err, needle))
		harness_fail(__FILE__, __LINE__, "error '%s' does not contain '%s'", e.err, needle);
	mm_env_destroy(&e);
}

/* A test that bad machine descriptions are refused with a message naming
 * the problem and the offending text, never a crash or a silent default.
 * Expect each case below to fail machine_create with its message. */
TEST(config_errors)
{
	static const char *const nodes[] = { "memory=64m", "zones=Normal:rest", "cpus=2", "nodes=2", NULL };
	static const char *const name[] = { "memory=64m", "zones=DMA:16m,Highmem:rest", "cpus=2", NULL };
	static const char *const order[] = { "memory=64m", "zones=Normal:16m,DMA:rest", "cpus=2", NULL };
	static const char *const align[] = { "memory=64m", "zones=DMA:6m,Normal:rest", "cpus=2", NULL };
	static const char *const rest2[] = { "memory=64m", "zones=DMA:rest,Normal:rest", "cpus=2", NULL };
	static const char *const sum[] = { "memory=64m", "zones=DMA:16m,Normal:32m", "cpus=2", NULL };
	static const char *const over[] = { "memory=64m", "zones=DMA:48m,Normal:32m", "cpus=2", NULL };
	static const char *const size[] = { "memory=64m", "zones=DMA:4x,Normal:rest", "cpus=2", NULL };
	static const char *const nocolon[] = { "memory=64m", "zones=DMA", "cpus=2", NULL };
	static const char *const movable[] = { "memory=64m", "zones=Movable:rest", "cpus=2", NULL };
	static const char *const resv[] = { "memory=64m", "zones=DMA:16m,Normal:rest", "cpus=2",
					    "reserved=60m", NULL };
	static const char *const ratio[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
					     "vm.lowmem_reserve_ratio=256 x", NULL };
	static const char *const frac[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
					    "vm.percpu_pagelist_high_fraction=4", NULL };

	expect_config_error(nodes, "nodes=2: NUMA is not modelled");
	expect_config_error(name, "unknown zone 'Highmem'");
	expect_config_error(order, "zone 'DMA' out of order");
	expect_config_error(align, "size '6m' of zone 'DMA' is not a multiple of 4m");
	expect_config_error(rest2, "more than one 'rest'");
	expect_config_error(sum, "zones add up to 50331648 bytes but memory is 67108864");
	expect_config_error(over, "zones add up to more than memory");
	expect_config_error(size, "'4x'");
	expect_config_error(nocolon, "invalid zone 'DMA'");
	expect_config_error(movable, "no memory outside ZONE_MOVABLE");
	expect_config_error(resv, "reserved=62914560: no zone");
	expect_config_error(ratio, "invalid value '256 x' for 'vm.lowmem_reserve_ratio'");
	expect_config_error(frac, "'vm.percpu_pagelist_high_fraction' (0, or at least 8)");
}

/* A test that the engine's CPU count must match the machine's.  Expect a
 * message naming both numbers. */
TEST(config_cpus_mismatch)
{
	struct mm_env e;
	struct sim_config sc = { .ncpus = 3 };
	static const char *const kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2", NULL };

	ASSERT_EQ(mm_env_config(&e, kv), 0);
	e.sim = sim_create(&sc);
	e.m = machine_create(e.sim, &e.cfg, &e.sysctl, NULL, e.err, sizeof(e.err));
	ASSERT_TRUE(e.m == NULL);
	ASSERT_TRUE(strstr(e.err, "cpus=2: the engine was built with 3 CPUs") != NULL);
	mm_env_destroy(&e);
}

/* Recompute the boot-time tunables of `m` as if its zones managed the
 * given page counts (watermarks start at 0, as at boot). */
static void reboot_with_managed(struct machine *m, const unsigned long managed[MAX_NR_ZONES])
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = mm_zone(m, (enum zone_type)i);

		zone->managed_pages = managed[i];
		memset(zone->_watermark, 0, sizeof(zone->_watermark));
		zone->percpu_drift_mark = 0;
		zone->pageset_batch = zone->pageset_high_min = zone->pageset_high_max = 0;
	}
	m->t.user_min_free_kbytes = -1;
	m->t.min_free_kbytes = 0;
	init_per_zone_wmark_min(m);
}

/* A test that the watermark, lowmem-reserve, pcp and threshold arithmetic
 * reproduces a real kernel: the 6.18 fixture machine (2 CPUs, DMA 3840,
 * DMA32 772918, Normal 5394266 managed pages, THP madvise).  Expect the
 * fixture's zoneinfo values exactly: min_free_kbytes 67584 (khugepaged's
 * recommendation), min/low/high/promo, protection, batch/high_min/high_max
 * and "vm stats threshold". */
TEST(fixture_machine_tunables)
{
	static const char *const kv[] = { "memory=32m", "zones=DMA:4m,DMA32:8m,Normal:rest", "cpus=2", NULL };
	static const unsigned long managed[MAX_NR_ZONES] = { 3840, 772918, 5394266, 0, 0 };
	static const unsigned long wm[MAX_NR_ZONES][4] = {
		{ 10, 13, 16, 19 }, { 2116, 2888, 3660, 4432 }, { 14769, 20163, 25557, 30951 },
		{ 32, 32, 32, 32 }, { 0, 0, 0, 0 },
	};
	static const long prot[3][MAX_NR_ZONES] = {
		{ 0, 3019, 24090, 24090, 24090 }, { 0, 0, 21071, 21071, 21071 }, { 0, 0, 0, 0, 0 },
	};
	static const int pcp[3][3] = { { 1, 6, 240 }, { 63, 1444, 48307 }, { 63, 10081, 337141 } };
	static const int threshold[3] = { 4, 24, 36 };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);

	ASSERT_TRUE(m != NULL);
	reboot_with_managed(m, managed);
	ASSERT_EQ(m->t.min_free_kbytes, 67584);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int w = 0; w < 4; w++)
			ASSERT_EQ(mm_zone(m, (enum zone_type)z)->_watermark[w], wm[z][w]);
	for (int z = 0; z < 3; z++) {
		struct zone *zone = mm_zone(m, (enum zone_type)z);

		for (int j = 0; j < MAX_NR_ZONES; j++)
			ASSERT_EQ(zone->lowmem_reserve[j], prot[z][j]);
		for (unsigned int cpu = 0; cpu < 2; cpu++) {
			ASSERT_EQ(zone->per_cpu_pageset[cpu].batch, pcp[z][0]);
			ASSERT_EQ(zone->per_cpu_pageset[cpu].high_min, pcp[z][1]);
			ASSERT_EQ(zone->per_cpu_pageset[cpu].high_max, pcp[z][2]);
			ASSERT_EQ(zone->per_cpu_zonestats[cpu].stat_threshold, threshold[z]);
		}
	}
	mm_env_destroy(&e);
}

/* A test that the reference machine (96 CPUs; DMA 4 GiB, Normal 380 GiB
 * minus a 6 GiB memmap) gets the worked constants of docs/calibration.md from the
 * kernel's formulas.  Expect min_free_kbytes 79635 (≈ 79 MB), Normal min
 * 19697 (≈ 19.6 k), gap 98041 (≈ 98 k), low/high ≈ 118 k / 216 k, batch 63,
 * high_min ≈ 1.2 k, high_max ≈ 128 k, threshold 125, no drift mark, and a
 * maximum boost of 1.5 x high (≈ 323 k). */
TEST(reference_machine_tunables)
{
	static const char *const kv[] = { "memory=8m", "zones=DMA:4m,Normal:rest", "cpus=96", NULL };
	static const unsigned long managed[MAX_NR_ZONES] = { 1048576, 0, 98041856, 0, 0 };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct zone *normal;

	ASSERT_TRUE(m != NULL);
	reboot_with_managed(m, managed);
	normal = mm_zone(m, ZONE_NORMAL);
	ASSERT_EQ(m->t.min_free_kbytes, 79635);
	ASSERT_EQ(normal->_watermark[WMARK_MIN], 19697);
	ASSERT_EQ(normal->_watermark[WMARK_LOW] - normal->_watermark[WMARK_MIN], 98041);
	ASSERT_EQ(normal->_watermark[WMARK_LOW], 117738);
	ASSERT_EQ(normal->_watermark[WMARK_HIGH], 215779);
	ASSERT_EQ(normal->per_cpu_pageset[0].batch, 63);
	ASSERT_EQ(normal->per_cpu_pageset[95].high_min, 1226);
	ASSERT_EQ(normal->per_cpu_pageset[95].high_max, 127658);
	ASSERT_EQ(normal->per_cpu_zonestats[0].stat_threshold, 125);
	ASSERT_EQ(m->node.per_cpu_nodestats[0].stat_threshold, 125);
	ASSERT_EQ(normal->percpu_drift_mark, 0);
	ASSERT_EQ(calculate_pressure_threshold(normal), 125);
	ASSERT_EQ(normal->_watermark[WMARK_HIGH] * 15000 / 10000, 323668);
	mm_env_destroy(&e);
}

/* A test that a 4 GiB machine with the reference zone layout puts all
 * memory in ZONE_DMA (as arm64 does) and still serves GFP_KERNEL and
 * GFP_HIGHUSER_MOVABLE from it, without ALLOC_NOFRAGMENT (the preferred
 * zone is not Normal).  Expect both allocations in DMA and a clean check. */
TEST(small_machine_all_dma)
{
	static const char *const kv[] = { "memory=4g", "cpus=2", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct alloc_info info;
	pfn_t a, b;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(mm_nr_zones(m), 1);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->present_pages, 0);
	ASSERT_EQ(alloc_flags_nofragment(m, m->zonelist[0], GFP_KERNEL), ALLOC_KSWAPD);
	a = __alloc_pages(m, GFP_KERNEL, 0, &info);
	ASSERT_TRUE(a != PFN_NONE);
	ASSERT_EQ(info.zone, ZONE_DMA);
	ASSERT_TRUE(info.fast_path);
	b = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 3, &info);
	ASSERT_TRUE(b != PFN_NONE);
	ASSERT_EQ(info.zone, ZONE_DMA);
	__free_pages(m, a, 0);
	__free_pages(m, b, 3);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test that gfp_zone() and gfp_migratetype() follow include/linux/gfp.h
 * and the flag values are the kernel's.  Expect the table below. */
TEST(gfp_helpers)
{
	ASSERT_EQ(gfp_zone(GFP_KERNEL), ZONE_NORMAL);
	ASSERT_EQ(gfp_zone(GFP_HIGHUSER_MOVABLE), ZONE_MOVABLE);
	ASSERT_EQ(gfp_zone(GFP_HIGHUSER), ZONE_NORMAL);
	ASSERT_EQ(gfp_zone(GFP_KERNEL | __GFP_MOVABLE), ZONE_NORMAL);
	ASSERT_EQ(gfp_zone(GFP_DMA), ZONE_DMA);
	ASSERT_EQ(gfp_zone(GFP_DMA32 | __GFP_MOVABLE), ZONE_DMA32);
	ASSERT_EQ(gfp_migratetype(GFP_KERNEL), MIGRATE_UNMOVABLE);
	ASSERT_EQ(gfp_migratetype(GFP_HIGHUSER_MOVABLE), MIGRATE_MOVABLE);
	ASSERT_EQ(gfp_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE), MIGRATE_RECLAIMABLE);
	ASSERT_EQ(GFP_KERNEL, 0xcc0);
	ASSERT_EQ(GFP_ATOMIC, 0x820);
	ASSERT_EQ(GFP_NOWAIT, 0x2800);
	ASSERT_EQ(GFP_HIGHUSER_MOVABLE, 0x100cca);
	ASSERT_EQ(GFP_TRANSHUGE_LIGHT, 0x1c20ca);
	ASSERT_EQ(__GFP_NORETRY, 0x10000);
	ASSERT_EQ(ALLOC_NOFRAGMENT, 0x100);
}

/* A test that changing sysctls at run time recomputes what the kernel's
 * handlers recompute.  Expect: a higher watermark_scale_factor widens the
 * gap and raises pcp high_min; min_free_kbytes moves WMARK_MIN and clears
 * the boost; a new lowmem_reserve_ratio changes DMA's protection; 0 again
 * restores the boot min_free_kbytes. */
TEST(apply_sysctl)
{
	static const char *const kv[] = { "memory=256m", "zones=DMA:64m,Normal:rest", "cpus=4", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	struct zone *normal;
	unsigned long low0, min0, hmin0;
	int boot_mfk;

	ASSERT_TRUE(m != NULL);
	normal = mm_zone(m, ZONE_NORMAL);
	low0 = normal->_watermark[WMARK_LOW];
	min0 = normal->_watermark[WMARK_MIN];
	hmin0 = (unsigned long)normal->per_cpu_pageset[0].high_min;
	boot_mfk = m->t.min_free_kbytes;

	e.sysctl.watermark_scale_factor = 1000;
	ASSERT_EQ(machine_apply_sysctl(m, &e.sysctl, e.err, sizeof(e.err)), 0);
	ASSERT_EQ(normal->_watermark[WMARK_LOW] - normal->_watermark[WMARK_MIN], 49152 / 10);
	ASSERT_TRUE(normal->_watermark[WMARK_LOW] > low0);
	ASSERT_TRUE((unsigned long)normal->per_cpu_pageset[0].high_min > hmin0);

	normal->watermark_boost = 512;
	e.sysctl.min_free_kbytes = 16384;
	ASSERT_EQ(machine_apply_sysctl(m, &e.sysctl, e.err, sizeof(e.err)), 0);
	ASSERT_EQ(m->t.min_free_kbytes, 16384);
	ASSERT_EQ(normal->_watermark[WMARK_MIN], 4096 * 49152 / 65536);
	ASSERT_EQ(normal->watermark_boost, 0);

	free(e.sysctl.lowmem_reserve_ratio);
	e.sysctl.lowmem_reserve_ratio = strdup("128");
	ASSERT_EQ(machine_apply_sysctl(m, &e.sysctl, e.err, sizeof(e.err)), 0);
	ASSERT_EQ(mm_zone(m, ZONE_DMA)->lowmem_reserve[ZONE_NORMAL], 49152 / 128);

	e.sysctl.min_free_kbytes = 0;
	e.sysctl.watermark_scale_factor = 10;
	ASSERT_EQ(machine_apply_sysctl(m, &e.sysctl, e.err, sizeof(e.err)), 0);
	ASSERT_EQ(m->t.min_free_kbytes, boot_mfk);
	ASSERT_EQ(normal->_watermark[WMARK_MIN], min0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* A test that writing transparent_hugepage/enabled at run time does what
 * start_stop_khugepaged() does (6.12): turning PMD THP on raises
 * min_free_kbytes to the recommended value, as at boot with THP on; off
 * recomputes it from lowmem; a larger value the user wrote stays.  Expect:
 * never -> madvise gives the madvise machine's boot value and watermarks;
 * madvise -> never goes back below it; with min_free_kbytes written above
 * the recommendation, THP on keeps it. */
TEST(apply_sysctl_thp)
{
	static const char *const kv_on[] = { "memory=256m", "zones=DMA:64m,Normal:rest", "cpus=4", NULL };
	static const char *const kv_off[] = { "memory=256m", "zones=DMA:64m,Normal:rest", "cpus=4",
					      "/sys/kernel/mm/transparent_hugepage/enabled=never", NULL };
	struct mm_env on, off;
	struct machine *mon = mm_env_create(&on, kv_on), *moff = mm_env_create(&off, kv_off);
	int mfk_on, mfk_off;

	ASSERT_TRUE(mon != NULL && moff != NULL);
	mfk_on = mon->t.min_free_kbytes;
	mfk_off = moff->t.min_free_kbytes;
	ASSERT_TRUE(mfk_on > mfk_off);

	off.sysctl.thp_enabled = THP_MADVISE;
	ASSERT_EQ(machine_apply_sysctl(moff, &off.sysctl, off.err, sizeof(off.err)), 0);
	ASSERT_EQ(moff->t.min_free_kbytes, mfk_on);
	ASSERT_EQ(mm_zone(moff, ZONE_NORMAL)->_watermark[WMARK_MIN],
		  mm_zone(mon, ZONE_NORMAL)->_watermark[WMARK_MIN]);
	ASSERT_EQ(mm_zone(moff, ZONE_NORMAL)->per_cpu_pageset[0].high_min,
		  mm_zone(mon, ZONE_NORMAL)->per_cpu_pageset[0].high_min);

	off.sysctl.thp_enabled = THP_NEVER;
	ASSERT_EQ(machine_apply_sysctl(moff, &off.sysctl, off.err, sizeof(off.err)), 0);
	ASSERT_TRUE(moff->t.min_free_kbytes < mfk_on);
	ASSERT_TRUE(moff->t.min_free_kbytes <= mfk_off);

	off.sysctl.min_free_kbytes = (uint64_t)mfk_on * 2;
	ASSERT_EQ(machine_apply_sysctl(moff, &off.sysctl, off.err, sizeof(off.err)), 0);
	off.sysctl.thp_enabled = THP_ALWAYS;
	ASSERT_EQ(machine_apply_sysctl(moff, &off.sysctl, off.err, sizeof(off.err)), 0);
	ASSERT_EQ(moff->t.min_free_kbytes, mfk_on * 2);
	ASSERT_MM_OK(moff);
	mm_env_destroy(&on);
	mm_env_destroy(&off);
}

/* A test that machine_footprint_estimate(), which a sweep's Slurm memory
 * request starts from, bounds what machine_create() really holds without
 * overshooting it by more than the pcp arrays of unpopulated zones.
 * Expect estimate >= footprint, and the difference below 64 KiB plus the
 * per-CPU pcp and zone-stat size of the zones that are absent. */
TEST(footprint_estimate)
{
	static const char *const kv1[] = { "memory=64m", "zones=DMA:16m,Normal:rest", "cpus=4", NULL };
	static const char *const kv2[] = { "memory=256m", "zones=Normal:rest", "cpus=8", NULL };
	const char *const *kvs[] = { kv1, kv2 };

	for (int i = 0; i < 2; i++) {
		struct mm_env e;
		struct machine *m = mm_env_create(&e, kvs[i]);
		size_t est, real, slack;

		ASSERT_TRUE(m != NULL);
		est = machine_footprint_estimate(&e.cfg);
		real = machine_footprint(m);
		slack = (size_t)e.cfg.cpus * MAX_NR_ZONES *
			(sizeof(struct per_cpu_pages) + sizeof(struct per_cpu_zonestat));
		ASSERT_TRUE(est >= real);
		ASSERT_TRUE(est - real <= slack + 65536);
		ASSERT_TRUE(real >= (size_t)(e.cfg.memory >> PAGE_SHIFT) * sizeof(struct page));
		mm_env_destroy(&e);
	}
}

/* A test that [machine] hz is the kernel's CONFIG_HZ: one jiffy is
 * TICK_NSEC, (NSEC_PER_SEC + HZ/2) / HZ, and HZ/10 is 100 ms at any HZ.
 * Expect 4 ms jiffies at the default 250, 1 ms at 1000, 3333333 ns at 300. */
TEST(hz_sets_the_jiffy)
{
	static const char *const def[] = { "memory=64m", "zones=Normal:rest", "cpus=2", NULL };
	static const char *const k1[] = { "memory=64m", "zones=Normal:rest", "cpus=2", "hz=1000", NULL };
	static const char *const k3[] = { "memory=64m", "zones=Normal:rest", "cpus=2", "hz=300", NULL };
	const char *const *kvs[] = { def, k1, k3 };
	static const uint64_t hz[] = { 250, 1000, 300 }, tick[] = { 4000000, 1000000, 3333333 };

	for (int i = 0; i < 3; i++) {
		struct mm_env e;
		struct machine *m = mm_env_create(&e, kvs[i]);

		ASSERT_TRUE(m != NULL);
		ASSERT_EQ(mm_hz(m), hz[i]);
		ASSERT_EQ(jiffies_ns(m, 1), tick[i]);
		ASSERT_EQ(jiffies_ns(m, 5), 5 * tick[i]);
		ASSERT_EQ(hz_div_ns(m, 10), hz[i] / 10 * tick[i]);
		mm_env_destroy(&e);
	}
}
