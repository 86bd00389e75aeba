/* SPDX-License-Identifier: MIT */
/* test_mm_pcp.c — per-CPU page lists: refill sizing, free batching, high
 * auto-tuning, free_high, ZONE_BELOW_HIGH, decay, drains (the pcp lists, mm/page_alloc.c). */
#include "mm_test.h"

/* 256 MiB Normal zone: batch 15. */
static struct machine *pcp_machine(struct mm_env *e, const char *cpus, const char *extra)
{
	const char *kv[] = { "memory=256m", "zones=Normal:rest", cpus, extra, NULL };

	return mm_env_create(e, kv);
}

static struct per_cpu_pages *pcp_of(struct machine *m, unsigned int cpu)
{
	return &mm_zone(m, ZONE_NORMAL)->per_cpu_pageset[cpu];
}

/*
 * A test of nr_pcp_alloc (rmqueue_pcplist, mm/page_alloc.c): consecutive order-0 refills double
 * (batch << alloc_factor, alloc_factor up to CONFIG_PCP_BATCH_SCALE_MAX)
 * while uncapped, pcp->high grows by each refill, and free_count halves on
 * every allocation.  Expect refills of 15, 30, 60, 120, 240, 480, 480
 * pages for 1425 allocations, high = high_min + 1425, and pages cached on
 * the pcp not counted in NR_FREE_PAGES.  One free then halves
 * alloc_factor to 2.
 */
TEST(refill_doubles)
{
	static const unsigned long expect[] = { 15, 30, 60, 120, 240, 480, 480 };
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", NULL);
	struct per_cpu_pages *pcp;
	unsigned int nrefill = 0;
	uint64_t last = 0;
	pfn_t first = PFN_NONE, pfn = PFN_NONE;
	int high_min;

	ASSERT_TRUE(m != NULL);
	pcp = pcp_of(m, 0);
	ASSERT_EQ(pcp->batch, 15);
	high_min = pcp->high_min;
	for (int i = 0; i < 1425; i++) {
		pfn = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL);
		ASSERT_TRUE(pfn != PFN_NONE);
		if (first == PFN_NONE)
			first = pfn;
		if (sim_stat_read(m, SIM_PCP_REFILL_PAGES) != last) {
			ASSERT_TRUE(nrefill < 7);
			ASSERT_EQ(sim_stat_read(m, SIM_PCP_REFILL_PAGES) - last, expect[nrefill]);
			last = sim_stat_read(m, SIM_PCP_REFILL_PAGES);
			nrefill++;
		}
	}
	ASSERT_EQ(nrefill, 7);
	ASSERT_EQ(pcp->count, 0);
	ASSERT_EQ(pcp->alloc_factor, CONFIG_PCP_BATCH_SCALE_MAX);
	ASSERT_EQ(pcp->high, high_min + 1425);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 65536 - 1425);
	/* a refill hands out pages in physical order from the list head */
	ASSERT_EQ(first, 0);
	__free_pages(m, pfn, 0);
	ASSERT_EQ(pcp->alloc_factor, 2);
	ASSERT_EQ(pcp->count, 1);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 65536 - 1425);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of free batching with a manual high (percpu_pagelist_high_fraction
 * 1000: high_min = high_max = 65): when a free brings count to 65,
 * free_pcppages_bulk returns clamp(free_count, batch, high - batch) = 50
 * pages, starting with the list just freed to and taking from list tails,
 * round-robin.  10 UNMOVABLE pages are freed last: expect all 10 of them
 * and the 40 oldest MOVABLE pages back in the buddy, the 15 newest MOVABLE
 * pages left on the pcp.
 */
TEST(free_bulk_round_robin_from_tails)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", "vm.percpu_pagelist_high_fraction=1000");
	struct per_cpu_pages *pcp;
	pfn_t mov[55], unmov[10];

	ASSERT_TRUE(m != NULL);
	pcp = pcp_of(m, 0);
	ASSERT_EQ(pcp->high_min, 65);
	ASSERT_EQ(pcp->high_max, 65);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	for (int i = 0; i < 55; i++)
		ASSERT_TRUE((mov[i] = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL)) != PFN_NONE);
	for (int i = 0; i < 10; i++)
		ASSERT_TRUE((unmov[i] = __alloc_pages(m, GFP_KERNEL, 0, NULL)) != PFN_NONE);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_EQ(get_pfnblock_migratetype(m, unmov[0]), MIGRATE_UNMOVABLE);
	for (int i = 0; i < 55; i++)
		__free_pages(m, mov[i], 0);
	for (int i = 0; i < 9; i++)
		__free_pages(m, unmov[i], 0);
	ASSERT_EQ(pcp->count, 64);
	ASSERT_EQ(sim_stat_read(m, SIM_PCP_FREE_BULK), 0);
	__free_pages(m, unmov[9], 0);
	ASSERT_EQ(sim_stat_read(m, SIM_PCP_FREE_BULK), 1);
	ASSERT_EQ(sim_stat_read(m, SIM_PCP_FREE_BULK_PAGES), 50);
	ASSERT_EQ(pcp->count, 15);
	for (int i = 0; i < 10; i++)
		ASSERT_TRUE(page_type(pfn_to_page(m, unmov[i])) != PGTY_PCP);
	for (int i = 0; i < 40; i++)
		ASSERT_TRUE(page_type(pfn_to_page(m, mov[i])) != PGTY_PCP);
	for (int i = 40; i < 55; i++)
		ASSERT_EQ(page_type(pfn_to_page(m, mov[i])), PGTY_PCP);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of free_high (free_unref_page_commit, mm/page_alloc.c step 2): consecutive order-1 frees with
 * free_count >= batch flush the whole pcp (nr_pcp_high returns 0).
 * Expect count 16 after 8 order-1 frees (free_count 16), 0 after the 9th,
 * and an order-0 free clearing PCPF_PREV_FREE_HIGH_ORDER.
 */
TEST(free_high_flushes_high_order)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", "vm.percpu_pagelist_high_fraction=1000");
	struct per_cpu_pages *pcp;
	pfn_t blk[12], p0;

	ASSERT_TRUE(m != NULL);
	pcp = pcp_of(m, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	for (int i = 0; i < 12; i++)
		ASSERT_TRUE((blk[i] = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 1, NULL)) != PFN_NONE);
	p0 = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	for (int i = 0; i < 8; i++)
		__free_pages(m, blk[i], 1);
	ASSERT_EQ(pcp->count, 16);
	ASSERT_TRUE(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
	__free_pages(m, blk[8], 1);
	ASSERT_EQ(pcp->count, 0);
	__free_pages(m, p0, 0);
	ASSERT_FALSE(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
	ASSERT_EQ(pcp->count, 1);
	for (int i = 9; i < 12; i++)
		__free_pages(m, blk[i], 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of ZONE_BELOW_HIGH (get_page_from_freelist, mm/page_alloc.c step 4): the allocation-time
 * probe sets it when the zone fails its high watermark; while set, refills
 * do not raise pcp->high and frees shrink it towards high_min and flush at
 * max(count, high_min); a flush that leaves the zone above its high
 * watermark clears it.  Expect the flag set by the probe, high back at
 * high_min, and the flag cleared once enough pages are freed.
 */
TEST(zone_below_high)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", NULL);
	struct zone *zone;
	struct per_cpu_pages *pcp;
	pfn_t *taken;
	long n = 0;
	int high_before;

	ASSERT_TRUE(m != NULL);
	mm_set_check_interval(m, 256);	/* ~60 k frees on a 64 k-frame machine */
	zone = mm_zone(m, ZONE_NORMAL);
	pcp = pcp_of(m, 0);
	taken = calloc(65536, sizeof(*taken));
	/* grow pcp->high a little first */
	__free_pages(m, __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL), 0);
	ASSERT_FALSE(zone_test_flag(zone, ZONE_BELOW_HIGH));
	high_before = pcp->high;
	ASSERT_TRUE(high_before > pcp->high_min);
	for (pfn_t p = 0; p < 65536 && mm_free_pages(m, ZONE_NORMAL) > (long)high_wmark_pages(zone) - 100; p++)
		if (take_page_off_buddy(m, p))
			taken[n++] = p;
	ASSERT_TRUE(__alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL) != PFN_NONE);
	ASSERT_TRUE(zone_test_flag(zone, ZONE_BELOW_HIGH));
	ASSERT_EQ(sim_stat_read(m, SIM_ZONE_BELOW_HIGH), 1);
	/* frees now shrink high and flush early; the flag goes once above high */
	while (n > 0 && zone_test_flag(zone, ZONE_BELOW_HIGH))
		__free_pages(m, taken[--n], 0);
	ASSERT_FALSE(zone_test_flag(zone, ZONE_BELOW_HIGH));
	ASSERT_TRUE(zone_page_state(zone, NR_FREE_PAGES) > high_wmark_pages(zone));
	ASSERT_EQ(pcp->high, pcp->high_min);
	while (n > 0)
		__free_pages(m, taken[--n], 0);
	free(taken);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of decay_pcp_high (free_unref_page_commit, mm/page_alloc.c step 7), run by vmstat_update:
 * high falls to max(count - batch<<5, high - high/8, high_min) each
 * interval and whatever exceeds it is freed in batch-sized chunks.
 * Expect, from high 8000 with 2000 pages cached and high_min 100, the
 * sequence computed by that rule, count never above high afterwards, and
 * high_min reached in the end.
 */
TEST(decay_pcp_high)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", NULL);
	struct per_cpu_pages *pcp;
	pfn_t *pages = calloc(2000, sizeof(pfn_t));

	ASSERT_TRUE(m != NULL);
	pcp = pcp_of(m, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	for (int i = 0; i < 2000; i++)
		pages[i] = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	pcp->high_min = 100;
	pcp->high = 8000;
	for (int i = 0; i < 2000; i++)
		__free_pages(m, pages[i], 0);
	ASSERT_EQ(pcp->count, 2000);
	for (int round = 0; round < 60; round++) {
		int h = pcp->high, c = pcp->count;
		int a = c - (15 << 5), b = h - (h >> 3);
		int want = a > b ? a : b;

		if (want < 100)
			want = 100;
		if (h <= 100)
			want = h;
		vmstat_update(m, 0);
		ASSERT_EQ(pcp->high, want);
		ASSERT_TRUE(pcp->count <= pcp->high);
	}
	ASSERT_EQ(pcp->high, 100);
	ASSERT_EQ(pcp->count, 100);
	free(pages);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of __drain_all_pages (mm/page_alloc.c): the drainer visits every CPU
 * (pcp_drain_cpu each), empties the lists of CPUs with pages in chunks of
 * batch << 5 under the remote pcp lock, pages return to the buddy (and to
 * NR_FREE_PAGES), and the next allocation on each CPU refills.  Expect
 * 3 of 4 CPUs drained, 3 chunks for a CPU holding 1000 pages, at least
 * 4 x pcp_drain_cpu + pages x buddy_free ns charged, one refill per CPU
 * afterwards.
 */
TEST(drain_all_pages_drains_and_charges)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=4", NULL);
	const struct cost_table *costs;
	pfn_t *pages = calloc(1000, sizeof(pfn_t));
	uint64_t ns0, bulk0;
	long cached, free0;

	ASSERT_TRUE(m != NULL);
	costs = sim_costs(e.sim);
	for (unsigned int cpu = 0; cpu < 3; cpu++) {
		sim_set_engine_cpu(e.sim, cpu);
		ASSERT_TRUE(__alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL) != PFN_NONE);
	}
	/* CPU 0 also caches 1000 freed pages */
	sim_set_engine_cpu(e.sim, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	for (int i = 0; i < 1000; i++)
		pages[i] = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	for (int i = 0; i < 1000; i++)
		__free_pages(m, pages[i], 0);
	ASSERT_TRUE(pcp_of(m, 0)->count > 960);
	ASSERT_EQ(pcp_of(m, 3)->count, 0);
	cached = mm_pcp_pages(m, ZONE_NORMAL);
	free0 = mm_free_pages(m, ZONE_NORMAL);
	ns0 = sim_engine_ns(e.sim);
	bulk0 = sim_stat_read(m, SIM_PCP_FREE_BULK);

	drain_all_pages(m, NULL);
	ASSERT_EQ(mm_pcp_pages(m, ZONE_NORMAL), 0);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), free0 + cached);
	ASSERT_EQ(sim_stat_read(m, SIM_DRAIN_ALL_PAGES), 1);
	ASSERT_EQ(sim_stat_read(m, SIM_DRAIN_CPUS), 3);
	ASSERT_EQ(sim_stat_read(m, SIM_DRAIN_PAGES), (uint64_t)cached);
	ASSERT_EQ(sim_stat_read(m, SIM_PCP_FREE_BULK) - bulk0, 3 + 2);
	ASSERT_TRUE(sim_engine_ns(e.sim) - ns0 >= cost_ns(costs, COST_pcp_drain_cpu, 4) +
					    cost_ns(costs, COST_buddy_free, (uint64_t)cached));
	ASSERT_MM_OK(m);

	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		uint64_t r = sim_stat_read(m, SIM_PCP_REFILL);

		sim_set_engine_cpu(e.sim, cpu);
		ASSERT_TRUE(__alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL) != PFN_NONE);
		ASSERT_EQ(sim_stat_read(m, SIM_PCP_REFILL), r + 1);
	}
	free(pages);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of the kmem tracepoint counts (vmstat.h MM_TRACEPOINTS) against
 * the kernel's firing points: mm_page_alloc once per __alloc_pages,
 * mm_page_alloc_zone_locked once per block __rmqueue_smallest takes (a
 * refill's order-0 pages one by one, its order-2 blocks one by one, an
 * order-4 request from the buddy lists once), mm_page_free once per block
 * freed, and mm_page_pcpu_drain once per block free_pcppages_bulk returns,
 * not per page.  Expect each delta exactly.
 */
TEST(kmem_tracepoints_count_blocks)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", NULL);
	struct per_cpu_pages *pcp;
	pfn_t p0[100], p2, p4;
	uint64_t tp[NR_MM_TRACEPOINTS], refill, blocks = 0, pages = 0;

#define TP_DELTA(x) (m->tracepoint[x] - tp[x])
	ASSERT_TRUE(m != NULL);
	pcp = pcp_of(m, 0);
	memcpy(tp, m->tracepoint, sizeof(tp));
	refill = sim_stat_read(m, SIM_PCP_REFILL_PAGES);
	for (int i = 0; i < 100; i++)
		ASSERT_TRUE((p0[i] = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL)) != PFN_NONE);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC), 100);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC_ZONE_LOCKED), sim_stat_read(m, SIM_PCP_REFILL_PAGES) - refill);

	memcpy(tp, m->tracepoint, sizeof(tp));
	refill = sim_stat_read(m, SIM_PCP_REFILL_PAGES);
	ASSERT_TRUE((p2 = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 2, NULL)) != PFN_NONE);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC), 1);
	ASSERT_TRUE(sim_stat_read(m, SIM_PCP_REFILL_PAGES) - refill >= 8);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC_ZONE_LOCKED), (sim_stat_read(m, SIM_PCP_REFILL_PAGES) - refill) / 4);

	memcpy(tp, m->tracepoint, sizeof(tp));
	refill = sim_stat_read(m, SIM_PCP_REFILL_PAGES);
	ASSERT_TRUE((p4 = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 4, NULL)) != PFN_NONE);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC), 1);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC_ZONE_LOCKED), 1);
	ASSERT_U64_EQ(sim_stat_read(m, SIM_PCP_REFILL_PAGES), refill);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_PCPU_DRAIN), 0);

	memcpy(tp, m->tracepoint, sizeof(tp));
	for (int i = 0; i < 100; i++)
		__free_pages(m, p0[i], 0);
	__free_pages(m, p2, 2);
	__free_pages(m, p4, 4);	/* not a pcp order: straight to the buddy lists */
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_FREE), 102);

	for (unsigned int i = 0; i < NR_PCP_LISTS; i++) {
		blocks += pcp->lists[i].n;
		pages += (uint64_t)pcp->lists[i].n << pindex_to_order(i);
	}
	ASSERT_TRUE(blocks > 0 && pages > blocks);	/* order-2 blocks are there */
	ASSERT_U64_EQ(pages, (uint64_t)pcp->count);
	memcpy(tp, m->tracepoint, sizeof(tp));
	drain_all_pages(m, NULL);
	ASSERT_EQ(pcp->count, 0);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_PCPU_DRAIN), blocks);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_FREE), 0);
	ASSERT_U64_EQ(TP_DELTA(TP_MM_PAGE_ALLOC), 0);
#undef TP_DELTA
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that a drain of all zones gives up at once while another drain
 * holds pcpu_drain_mutex (6.2+), and that a zone drain drains only its
 * zone.  Expect sim_drain_skipped 1 and the pcps untouched; then only
 * Normal's pcps emptied, DMA's kept.
 */
TEST(drain_skip_and_zone_drain)
{
	static const char *const kv[] = { "memory=256m", "zones=DMA:64m,Normal:rest", "cpus=2", NULL };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, kv);
	long normal, dma;

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(__alloc_pages(m, GFP_KERNEL, 0, NULL) != PFN_NONE);
	ASSERT_TRUE(__alloc_pages(m, GFP_DMA, 0, NULL) != PFN_NONE);
	normal = mm_pcp_pages(m, ZONE_NORMAL);
	dma = mm_pcp_pages(m, ZONE_DMA);
	ASSERT_TRUE(normal > 0 && dma > 0);

	ASSERT_TRUE(sim_mutex_trylock(e.sim, &m->pcpu_drain_mutex));
	drain_all_pages(m, NULL);
	sim_mutex_unlock(e.sim, &m->pcpu_drain_mutex);
	ASSERT_EQ(sim_stat_read(m, SIM_DRAIN_SKIPPED), 1);
	ASSERT_EQ(sim_stat_read(m, SIM_DRAIN_ALL_PAGES), 0);
	ASSERT_EQ(mm_pcp_pages(m, ZONE_NORMAL), normal);

	drain_all_pages(m, mm_zone(m, ZONE_NORMAL));
	ASSERT_EQ(mm_pcp_pages(m, ZONE_NORMAL), 0);
	ASSERT_EQ(mm_pcp_pages(m, ZONE_DMA), dma);
	drain_local_pages(m, NULL);
	ASSERT_EQ(mm_pcp_pages(m, ZONE_DMA), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that a failed pcp trylock (a drain holds the lock) sends both
 * allocation and free to the buddy lists under zone->lock.  Expect no pcp
 * pages, two trylock failures, and the zone lock taken for both.
 */
TEST(trylock_failure_falls_through)
{
	struct mm_env e;
	struct machine *m = pcp_machine(&e, "cpus=1", NULL);
	uint64_t zl;
	pfn_t pfn;

	ASSERT_TRUE(m != NULL);
	zl = mm_zone(m, ZONE_NORMAL)->lock.stats.acquisitions;
	mm_hold_pcp(m, ZONE_NORMAL, 1);
	pfn = __alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, NULL);
	ASSERT_TRUE(pfn != PFN_NONE);
	__free_pages(m, pfn, 0);
	mm_hold_pcp(m, ZONE_NORMAL, 0);
	ASSERT_EQ(pcp_of(m, 0)->count, 0);
	ASSERT_EQ(sim_stat_read(m, SIM_PCP_TRYLOCK_FAIL), 2);
	ASSERT_EQ(mm_zone(m, ZONE_NORMAL)->lock.stats.acquisitions - zl, 2);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL), 65536);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * The pcp lists are pfn_rings (list.h): the same frames in the same order
 * as the linked pfn_list they replaced.  A random program of the four
 * operations a pcp list sees (add at the head, add at the tail, take the
 * head, take the tail) runs on both, through growth and wrap-around of
 * the ring; after every step head, tail, length and the whole order agree.
 */
TEST(pfn_ring_is_the_list)
{
	enum { FRAMES = 4096, STEPS = 200000 };
	struct page *map = calloc(FRAMES, sizeof(*map));
	bool *on = calloc(FRAMES, sizeof(*on));
	struct pfn_list list;
	struct pfn_ring ring;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	uint32_t n = 0, grown = 0, wrapped = 0;

	ASSERT_TRUE(map && on);
	pfn_list_init(&list);
	pfn_ring_init(&ring);
	for (int step = 0; step < STEPS; step++) {
		unsigned int op;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* drift between filling (to ~3000) and emptying */
		op = (unsigned int)(x % 8) + ((step / 20000) % 2 ? 2u : 0u);
		if (op < 6 && n < FRAMES) {
			pfn_t pfn = (pfn_t)((x >> 8) % FRAMES);
			uint32_t cap = ring.v ? ring.mask + 1 : 0;

			while (on[pfn])
				pfn = (pfn + 1) % FRAMES;
			on[pfn] = true;
			if (op % 2) {
				pfn_list_add(map, &list, pfn);
				pfn_ring_add(&ring, pfn);
			} else {
				pfn_list_add_tail(map, &list, pfn);
				pfn_ring_add_tail(&ring, pfn);
			}
			n++;
			grown += (ring.mask + 1) != cap;
		} else if (n) {
			pfn_t want = op % 2 ? list.head : list.tail, got;

			pfn_list_del(map, &list, want);
			got = op % 2 ? pfn_ring_del_head(&ring) : pfn_ring_del_tail(&ring);
			ASSERT_EQ(got, want);
			on[got] = false;
			n--;
		}
		wrapped += n && ring.first + n > ring.mask + 1;
		ASSERT_EQ(ring.n, n);
		ASSERT_EQ(pfn_ring_head(&ring), list.head);
		ASSERT_EQ(pfn_ring_tail(&ring), list.tail);
		if (step % 997 == 0) {
			pfn_t p = list.head;

			for (uint32_t i = 0; i < n; i++, p = map[p].next)
				ASSERT_EQ(pfn_ring_at(&ring, i), p);
			ASSERT_EQ(p, PFN_NONE);
		}
	}
	ASSERT_TRUE(grown >= 8);	/* 16 .. 4096 */
	ASSERT_TRUE(wrapped > 0);
	pfn_ring_release(&ring);
	ASSERT_TRUE(ring.v == NULL && ring.n == 0);
	free(map);
	free(on);
}

/* The linked list's rotation that makes `pfn` the head (compaction.c's
 * move_freelist_head before the free lists became rings). */
static void list_rotate_to_head(struct page *map, struct pfn_list *l, pfn_t pfn)
{
	pfn_t new_tail;

	if (pfn == l->head)
		return;
	new_tail = map[pfn].prev;
	map[l->tail].next = l->head;
	map[l->head].prev = l->tail;
	map[new_tail].next = PFN_NONE;
	map[pfn].prev = PFN_NONE;
	l->head = pfn;
	l->tail = new_tail;
}

/*
 * The buddy free lists' rings with holes (list.h pfn_slots) against a
 * linked list, by a random program: adds at both ends, deletions from
 * anywhere (a merging buddy leaves from the middle), and the rotations of
 * compaction's free-list searches.  The two keep their own frame arrays,
 * since both use struct page.next/prev.
 */
TEST(pfn_slots_is_the_list)
{
	enum { FRAMES = 4096, STEPS = 300000 };
	struct page *lmap = calloc(FRAMES, sizeof(*lmap)), *smap = calloc(FRAMES, sizeof(*smap));
	pfn_t *on = calloc(FRAMES, sizeof(*on));	/* the frames on the lists, any order */
	struct pfn_list list;
	struct pfn_slots slots;
	uint64_t x = 0x2545f4914f6cdd1dULL;
	uint32_t n = 0, grown = 0, relaid = 0, holes = 0;

	ASSERT_TRUE(lmap && smap && on);
	pfn_list_init(&list);
	pfn_slots_init(&slots);
	for (int step = 0; step < STEPS; step++) {
		unsigned int op;
		uint32_t cap = slots.v ? slots.mask + 1 : 0;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* drift between filling (to ~3000) and emptying */
		op = (unsigned int)(x % 10) + ((step / 25000) % 2 ? 3u : 0u);
		if (op < 6 && n < FRAMES) {
			pfn_t pfn = (pfn_t)((x >> 8) % FRAMES);

			while (lmap[pfn].type_order)
				pfn = (pfn + 1) % FRAMES;
			lmap[pfn].type_order = 1;	/* marks "on the list" */
			on[n++] = pfn;
			/* full span, at least half holes: laid out again */
			relaid += cap && slots.end - slots.first == cap && slots.n <= cap / 2;
			if (op % 2) {
				pfn_list_add(lmap, &list, pfn);
				pfn_slots_add(smap, &slots, pfn);
			} else {
				pfn_list_add_tail(lmap, &list, pfn);
				pfn_slots_add_tail(smap, &slots, pfn);
			}
		} else if (n && op < 11) {
			uint32_t i = (uint32_t)((x >> 8) % n);
			pfn_t pfn = on[i];

			on[i] = on[--n];
			lmap[pfn].type_order = 0;
			pfn_list_del(lmap, &list, pfn);
			pfn_slots_del(smap, &slots, pfn);
		} else if (n) {
			pfn_t pfn = on[(x >> 8) % n];

			if (op == 11) {		/* move_freelist_head */
				list_rotate_to_head(lmap, &list, pfn);
				pfn_slots_rotate_to_head(smap, &slots, pfn);
			} else {		/* move_freelist_tail */
				if (pfn != list.tail)
					list_rotate_to_head(lmap, &list, lmap[pfn].next);
				pfn_slots_rotate_to_tail(smap, &slots, pfn);
			}
		}
		grown += slots.v && slots.mask + 1 > cap;
		holes += slots.n < slots.end - slots.first;
		ASSERT_EQ(slots.n, n);
		ASSERT_EQ(pfn_slots_head(&slots), list.head);
		ASSERT_EQ(pfn_slots_tail(&slots), list.tail);
		if (step % 499 == 0) {
			pfn_t p = list.head;
			uint32_t seen = 0;

			for (uint32_t seq = slots.first; seq != slots.end; seq++) {
				pfn_t q = pfn_slots_get(&slots, seq);

				if (q == PFN_NONE)
					continue;
				ASSERT_EQ(q, p);
				ASSERT_EQ(smap[q].next, seq);
				p = lmap[p].next;
				seen++;
			}
			ASSERT_EQ(p, PFN_NONE);
			ASSERT_EQ(seen, n);
		}
	}
	ASSERT_TRUE(grown >= 8);	/* 16 .. 4096 */
	ASSERT_TRUE(relaid > 0);
	ASSERT_TRUE(holes > STEPS / 2);
	pfn_slots_release(&slots);
	ASSERT_TRUE(slots.v == NULL && slots.n == 0);
	free(lmap);
	free(smap);
	free(on);
}
