/* SPDX-License-Identifier: MIT */
/*
 * test_compaction.c — compaction (mm/compaction.c, mm/migrate.c): the
 * fragmentation index, deferral, the scanners meeting, skip bits set and
 * honoured, what may be isolated, lock contention, capture, kcompactd and
 * proactive compaction.
 */
#include "frag_test.h"
#include "mm/compaction.h"
#include "mm/trace.h"
#include "mm/vmscan.h"

static enum compact_result compact(struct machine *m, gfp_t gfp, unsigned int order,
				   enum compact_priority prio, pfn_t *capture)
{
	struct alloc_context ac;
	unsigned int fl = 0;
	pfn_t dummy;

	prepare_alloc_pages(m, gfp, order, &ac, &fl);
	return try_to_compact_pages(m, gfp, order, ALLOC_WMARK_MIN, &ac, prio, capture ? capture : &dummy);
}

static unsigned long skip_bits(struct machine *m, const struct zone *zone)
{
	unsigned long n = 0;

	for (unsigned long p = zone->zone_start_pfn; p < zone_end_pfn(zone); p += pageblock_nr_pages)
		n += get_pageblock_skip(m, (pfn_t)p);
	return n;
}

/* A free block of at least `order` on any list of the zone. */
static bool has_free_block(const struct zone *zone, unsigned int order)
{
	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++)
		if (zone->free_area[o].nr_free)
			return true;
	return false;
}

/*
 * A test of the fragmentation index and extfrag on exact free lists
 * (compaction_suitable, mm/compaction.c): with every other page free (order-0 blocks only) the index
 * for order 4 is 1000 - (1000 + 1000 x free/16) / free_blocks; a free
 * block of the order gives -1000; no free blocks gives 0; extfrag for
 * order 9 is 100 % when nothing is in 2 MiB blocks.
 */
TEST(fragmentation_index_values)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, "K.");
	unsigned long free_pages;

	ASSERT_TRUE(m != NULL);
	free_pages = c.zone->free_area[0].nr_free;
	ASSERT_EQ(free_pages, 8192);
	ASSERT_EQ(fragmentation_index(c.zone, 4),
		  (int)(1000 - (1000 + free_pages * 1000 / 16) / free_pages));
	ASSERT_EQ(fragmentation_index(c.zone, 0), -1000);
	ASSERT_EQ(extfrag_for_order(c.zone, 9), 100);
	mm_env_destroy(&c.e);

	m = frag_env_create(&c, NULL, NULL, "K");
	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(fragmentation_index(c.zone, 4), 0);
	ASSERT_EQ(extfrag_for_order(c.zone, 9), 0);
	mm_env_destroy(&c.e);
}

/*
 * A test of deferral (mm/compaction.c): after k consecutive defer_compaction
 * calls the next 2^k - 1 compaction_deferred() checks say "deferred" and
 * the 2^k-th does not; the shift caps at 6 (63 skipped); orders below
 * compact_order_failed are never deferred; a real success resets the
 * shift; compaction_restarting holds at the cap once the wait is over.
 */
TEST(deferral_backoff)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, NULL);
	struct zone *z;

	ASSERT_TRUE(m != NULL);
	z = c.zone;
	for (int k = 1; k <= 8; k++) {
		unsigned int expect = k < COMPACT_MAX_DEFER_SHIFT ? (unsigned int)k : COMPACT_MAX_DEFER_SHIFT;
		int deferred = 0;

		defer_compaction(z, 4);
		ASSERT_EQ(z->compact_defer_shift, expect);
		while (compaction_deferred(z, 4))
			deferred++;
		ASSERT_EQ(deferred, (1 << expect) - 1);
		ASSERT_FALSE(compaction_deferred(z, 2));	/* below order_failed */
	}
	ASSERT_TRUE(compaction_restarting(z, 4));
	compaction_defer_reset(z, 4, true);
	ASSERT_EQ(z->compact_defer_shift, 0);
	ASSERT_EQ(z->compact_order_failed, 5);
	ASSERT_FALSE(compaction_restarting(z, 4));
	mm_env_destroy(&c.e);
}

/*
 * A test of the scanners meeting with nothing to gain (compact_zone, mm/compaction.c): half
 * the zone kernel pages and page cache, half free in single pages; a
 * __GFP_FS-less async compaction isolates nothing.  Expect COMPLETE (whole
 * zone), the cached positions reset to the zone's ends,
 * compact_blockskip_flush set, a skip bit on every pageblock the migrate
 * scanner walked, a second run that scans nothing because of them, a
 * SYNC_FULL run that ignores them, and reset_isolation_suitable (kswapd
 * going to sleep) clearing them — it samples every 8th page, which the
 * pattern places on a page-cache folio (migrate side) and a free page
 * (free side).
 */
TEST(scanners_meet_and_skip_bits_are_honoured)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, "F.K.K.K..K.K.K.K");
	unsigned long blocks = c.zone->spanned_pages / pageblock_nr_pages;
	uint64_t scanned;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(compact(m, XFS_MAPPING_GFP, 4, COMPACT_PRIO_ASYNC, NULL), COMPACT_COMPLETE);
	ASSERT_EQ(c.zone->compact_cached_migrate_pfn[0], c.zone->zone_start_pfn);
	ASSERT_EQ(c.zone->compact_cached_free_pfn, zone_end_pfn(c.zone) - pageblock_nr_pages);
	ASSERT_TRUE(c.zone->compact_blockskip_flush);
	ASSERT_EQ(skip_bits(m, c.zone), blocks - 1);	/* the free scanner's block is not walked */
	ASSERT_EQ(ev(m, COMPACTISOLATED), 0);
	scanned = ev(m, COMPACTMIGRATE_SCANNED);
	ASSERT_TRUE(scanned > 0);
	ASSERT_EQ(compact(m, XFS_MAPPING_GFP, 4, COMPACT_PRIO_ASYNC, NULL), COMPACT_COMPLETE);
	ASSERT_EQ(ev(m, COMPACTMIGRATE_SCANNED), scanned);
	/* SYNC_FULL ignores the skip bits */
	ASSERT_EQ(compact(m, XFS_MAPPING_GFP, 4, COMPACT_PRIO_SYNC_FULL, NULL), COMPACT_COMPLETE);
	ASSERT_TRUE(ev(m, COMPACTMIGRATE_SCANNED) > scanned);
	/* kswapd going to sleep clears them (blocks with LRU pages) */
	reset_isolation_suitable(&m->node);
	ASSERT_FALSE(c.zone->compact_blockskip_flush);
	ASSERT_EQ(skip_bits(m, c.zone), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}

/*
 * A test of a compaction that works: every 4th page anonymous, the rest
 * free except a kernel page per pageblock's last chunk.  A GFP_KERNEL-like
 * sync-light run for order 4 migrates anon folios to the top of the zone
 * until an order-4 block is free.  Expect SUCCESS (or a capture),
 * pgmigrate_success > 0, isolated pages counted by both scanners, every
 * migrated folio still in its mapping at its index, and mm_check clean.
 */
TEST(compaction_migrates_to_success)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, "A...");
	enum compact_result r;
	pfn_t cap = PFN_NONE;

	ASSERT_TRUE(m != NULL);
	ASSERT_FALSE(has_free_block(c.zone, 3));
	r = compact(m, GFP_HIGHUSER_MOVABLE, 4, COMPACT_PRIO_SYNC_LIGHT, &cap);
	ASSERT_EQ(r, COMPACT_SUCCESS);
	ASSERT_TRUE(cap != PFN_NONE || has_free_block(c.zone, 4));
	ASSERT_TRUE(ev(m, PGMIGRATE_SUCCESS) > 0);
	ASSERT_EQ(ev(m, PGMIGRATE_FAIL), 0);
	ASSERT_TRUE(ev(m, COMPACTISOLATED) >= 2 * ev(m, PGMIGRATE_SUCCESS));
	ASSERT_TRUE(ev(m, COMPACTFREE_SCANNED) > 0);
	for (unsigned long i = 0; i < c.f.anon_index; i++) {
		pfn_t pfn = filemap_lookup(m, c.f.anon, i);

		ASSERT_TRUE(pfn != PFN_NONE);
		ASSERT_EQ(page_type(pfn_to_page(m, pfn)), PGTY_ANON);
		ASSERT_EQ(pfn_to_page(m, pfn)->index, i);
	}
	if (cap != PFN_NONE)
		free_pages(m, cap, 4);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}

/*
 * A test of capture (compact_zone, mm/compaction.c step 5d): one anonymous page in each
 * order-4 chunk, the rest of the chunk free (the chunk's first page is a
 * free page, where the async free scanner's 32-page stride looks).  Async
 * direct compaction
 * migrates the first chunk's page; the local pcp drain when the migrate
 * scanner leaves the chunk merges the freed page into an order-4 block,
 * which goes straight to the compactor.  Expect SUCCESS with a captured
 * order-4 block, counted in sim_compact_capture, not on any free list.
 */
TEST(capture_hands_the_block_to_the_compactor)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, ".A..............");
	pfn_t cap = PFN_NONE;

	ASSERT_TRUE(m != NULL);
	ASSERT_FALSE(has_free_block(c.zone, 4));
	ASSERT_EQ(compact(m, GFP_HIGHUSER_MOVABLE, 4, COMPACT_PRIO_ASYNC, &cap), COMPACT_SUCCESS);
	ASSERT_TRUE(cap != PFN_NONE);
	ASSERT_EQ(page_type(pfn_to_page(m, cap)), PGTY_ALLOC);
	ASSERT_EQ(page_order(pfn_to_page(m, cap)), 4);
	ASSERT_EQ(sim_stat_read(m, SIM_COMPACT_CAPTURE), 1);
	free_pages(m, cap, 4);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}

/*
 * One pageblock of `pattern` at the bottom of the zone; the pageblocks
 * between full of kernel pages and UNMOVABLE (so async compaction passes
 * them by); the top pageblock half free in single pages, for migration
 * targets.  No free block above order 0 anywhere except what `pattern`
 * leaves.
 */
static struct machine *isolation_env(struct frag_env *c, const char *pattern, const char *const *kv)
{
	struct machine *m = frag_env_create(c, kv, NULL, NULL);
	pfn_t end;

	if (!m)
		return NULL;
	end = (pfn_t)zone_end_pfn(c->zone);
	if (!frag_pattern(&c->f, 0, pageblock_nr_pages, pattern) ||
	    !frag_pattern(&c->f, pageblock_nr_pages, end - pageblock_nr_pages, "K") ||
	    !frag_pattern(&c->f, end - pageblock_nr_pages, end, "K."))
		return NULL;
	for (pfn_t p = pageblock_nr_pages; p < end - pageblock_nr_pages; p += pageblock_nr_pages)
		set_pageblock_migratetype(m, p, MIGRATE_UNMOVABLE);
	return m;
}

struct refusal {
	const char	*pattern;	/* first pageblock; '.' free */
	gfp_t		gfp;
	enum compact_priority prio;
	bool		isolated;	/* expected */
	const char	*why;
};

/*
 * A test of what may be isolated (isolate_migratepages_block, mm/compaction.c): one pageblock holding one
 * kind of folio every other page, compacted for order 1 so each chunk has
 * one candidate.  Expect isolation of: anonymous folios with or without
 * __GFP_FS; clean page cache with __GFP_FS; dirty XFS-like page cache in
 * async mode (non-blocking migrate_folio).  Expect none of: kernel and
 * page-table pages; page cache without __GFP_FS; writeback folios in async
 * mode; locked folios; unevictable folios with
 * vm.compact_unevictable_allowed=0.
 */
TEST(isolation_refusals)
{
	static const struct refusal cases[] = {
		{ "A.", XFS_MAPPING_GFP, COMPACT_PRIO_ASYNC, true, "anon without __GFP_FS" },
		{ "A.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_SYNC_LIGHT, true, "anon" },
		{ "F.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_SYNC_LIGHT, true, "page cache with __GFP_FS" },
		{ "D.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_ASYNC, true, "dirty page cache, async, XFS" },
		{ "K.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_SYNC_LIGHT, false, "kernel pages" },
		{ "P.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_SYNC_LIGHT, false, "page tables" },
		{ "F.", XFS_MAPPING_GFP, COMPACT_PRIO_SYNC_LIGHT, false, "page cache without __GFP_FS" },
		{ "S.", XFS_MAPPING_GFP, COMPACT_PRIO_SYNC_LIGHT, false, "shmem without __GFP_FS" },
		{ "W.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_ASYNC, false, "writeback, async" },
		{ "L.", GFP_HIGHUSER_MOVABLE, COMPACT_PRIO_SYNC_LIGHT, false, "locked folio" },
	};
	static const char *const no_unevictable[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
						      "vm.compact_unevictable_allowed=0", "vm.min_free_kbytes=1024", NULL };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct frag_env c;
		struct machine *m = isolation_env(&c, cases[i].pattern, NULL);

		ASSERT_TRUE(m != NULL);
		compact(m, cases[i].gfp, 1, cases[i].prio, NULL);
		if ((ev(m, COMPACTISOLATED) > 0) != cases[i].isolated)
			harness_fail(__FILE__, __LINE__, "case '%s': isolated %" PRIu64 " pages",
				     cases[i].why, (uint64_t)ev(m, COMPACTISOLATED));
		ASSERT_MM_OK(m);
		mm_env_destroy(&c.e);
		ASSERT_OK_SO_FAR();
	}
	{
		struct frag_env c;
		struct machine *m = isolation_env(&c, "U.", no_unevictable);

		ASSERT_TRUE(m != NULL);
		compact(m, GFP_HIGHUSER_MOVABLE, 1, COMPACT_PRIO_SYNC_LIGHT, NULL);
		ASSERT_EQ(ev(m, COMPACTISOLATED), 0);
		mm_env_destroy(&c.e);
	}
	{
		struct frag_env c;
		struct machine *m = isolation_env(&c, "U.", NULL);

		ASSERT_TRUE(m != NULL);
		compact(m, GFP_HIGHUSER_MOVABLE, 1, COMPACT_PRIO_SYNC_LIGHT, NULL);
		ASSERT_TRUE(ev(m, COMPACTISOLATED) > 0);
		mm_env_destroy(&c.e);
	}
}

/*
 * A test of skip-on-failure (isolate_migratepages_block, mm/compaction.c): async direct compaction for order
 * 4 abandons a 16-page chunk at its first unisolatable page.  A pageblock
 * whose chunks each start with a kernel page is scanned one pfn per chunk
 * (32 per pageblock) in async mode, all 512 in sync-light mode.
 */
TEST(async_skip_on_failure)
{
	struct frag_env c;
	struct machine *m = isolation_env(&c, "KA.AKA.AKA.AKA.A", NULL);

	ASSERT_TRUE(m != NULL);
	compact(m, GFP_HIGHUSER_MOVABLE, 4, COMPACT_PRIO_ASYNC, NULL);
	ASSERT_EQ(ev(m, COMPACTMIGRATE_SCANNED), pageblock_nr_pages / 16);
	ASSERT_EQ(ev(m, COMPACTISOLATED), 0);
	mm_env_destroy(&c.e);

	m = isolation_env(&c, "KA.AKA.AKA.AKA.A", NULL);
	ASSERT_TRUE(m != NULL);
	compact(m, GFP_HIGHUSER_MOVABLE, 4, COMPACT_PRIO_SYNC_LIGHT, NULL);
	ASSERT_TRUE(ev(m, COMPACTMIGRATE_SCANNED) >= pageblock_nr_pages);
	ASSERT_TRUE(ev(m, COMPACTISOLATED) > 0);
	mm_env_destroy(&c.e);
}

/*
 * A test of what the migrate scanner is charged for: the pfns it visits,
 * not the pfns compact_migrate_scanned counts.  Like the kernel's
 * nr_scanned (isolate_migratepages_block, 6.12), the counter includes
 * every pfn of a free block the loop steps over in one move, which costs
 * no per-pfn work.  Every 16 pages of the zone hold one kernel page and
 * free blocks of orders 0-3 (pfns 1, 2-3, 4-7, 8-15): a sync-light pass
 * counts 16 pfns per 16 and visits 5 (the kernel page and the four free
 * heads); 64 MiB with min_free_kbytes 1024 gives ~31 pageblocks.  Expect the time charged for the pass to cover 5/16 of the
 * counted pfns at compact_migrate_scan, and to stay below what charging
 * every counted pfn would add: the rest is set-up, the fast search and
 * the locks.
 */
TEST(migrate_scanner_is_charged_per_pfn_visited)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, "K...............");
	const struct cost_table *costs;
	uint64_t t0, charged, counted, visit_ns, skipped_ns;

	ASSERT_TRUE(m != NULL);
	costs = sim_costs(machine_sim(m));
	t0 = sim_engine_ns(machine_sim(m));
	compact(m, GFP_HIGHUSER_MOVABLE, 4, COMPACT_PRIO_SYNC_LIGHT, NULL);
	charged = sim_engine_ns(machine_sim(m)) - t0;
	counted = ev(m, COMPACTMIGRATE_SCANNED);
	ASSERT_TRUE(counted >= pageblock_nr_pages);
	ASSERT_EQ(ev(m, COMPACTISOLATED), 0);
	/* the pass may end inside a period, where the scanners meet */
	visit_ns = cost_ns(costs, COST_compact_migrate_scan, counted / 16 * 5);
	skipped_ns = cost_ns(costs, COST_compact_migrate_scan, counted / 16 * 11);
	ASSERT_TRUE(charged >= visit_ns);
	ASSERT_TRUE(charged < visit_ns + cost_ns(costs, COST_compact_migrate_scan, 5) + skipped_ns);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}

/* ---- contention, kcompactd (tasks) -------------------------------------------- */

struct holder_arg {
	sim_time_t	hold;
};

static void hold_lru_lock(struct machine *m, void *arg)
{
	struct holder_arg *h = arg;

	sim_spin_lock(machine_sim(m), &m->node.__lruvec.lru_lock);
	sim_charge(machine_sim(m), h->hold);
	sim_spin_unlock(machine_sim(m), &m->node.__lruvec.lru_lock);
}

struct compact_arg {
	gfp_t			gfp;
	unsigned int		order;
	enum compact_priority	prio;
	enum compact_result	result;
};

static void run_compact(struct machine *m, void *arg)
{
	struct compact_arg *a = arg;

	a->result = compact(m, a->gfp, a->order, a->prio, NULL);
}

/*
 * A test of contention (compact_zone, mm/compaction.c step 8): async compaction that
 * finds lru_lock held (trylock fails) still takes it, but the run stops
 * as CONTENDED at the end of the pageblock; sync-light waits and goes on.
 * Another task holds lru_lock for 1 ms when the compactor first needs it.
 */
TEST(async_compaction_aborts_on_lru_lock_contention)
{
	for (int sync = 0; sync <= 1; sync++) {
		struct frag_env c;
		struct machine *m = frag_env_create(&c, NULL, NULL, ".A..");
		struct holder_arg h = { .hold = SIM_NSEC_PER_MSEC };
		struct compact_arg a = { .gfp = GFP_HIGHUSER_MOVABLE, .order = 4,
					 .prio = sync ? COMPACT_PRIO_SYNC_LIGHT : COMPACT_PRIO_ASYNC };
		struct frag_task_call th = { .fn = hold_lru_lock, .arg = &h };
		struct frag_task_call tc = { .fn = run_compact, .arg = &a };

		ASSERT_TRUE(m != NULL);
		frag_task(m, &th, "holder", 1, 0);
		frag_task(m, &tc, "compactor", 0, 1000);
		sim_run(machine_sim(m), SIM_NSEC_PER_SEC);
		ASSERT_TRUE(tc.done);
		if (sync) {
			ASSERT_EQ(a.result, COMPACT_SUCCESS);
		} else {
			ASSERT_EQ(a.result, COMPACT_CONTENDED);
			ASSERT_EQ(sim_stat_read(m, SIM_COMPACT_CONTENDED), 1);
		}
		ASSERT_MM_OK(m);
		mm_env_destroy(&c.e);
	}
}

/*
 * A test of kcompactd (mm/compaction.c): with the kernel threads running, a
 * wakeup_kcompactd for order 4 on a zone where anonymous pages block
 * every order-4 chunk makes kcompactd run compact_zone in sync-light mode
 * with GFP_KERNEL.  Expect compact_daemon_wake 1, compact_daemon_migrate_
 * scanned equal to what compact_migrate_scanned moved, an order-4 free
 * block afterwards, and kcompactd asleep again.  A second wake-up on a
 * zone with free order-4 blocks finds nothing suitable and does not wake.
 */
TEST(kcompactd_compacts_when_woken)
{
	struct frag_env c;
	struct machine *m = frag_env_create(&c, NULL, NULL, "A...");

	ASSERT_TRUE(m != NULL);
	machine_start(m);
	sim_run(machine_sim(m), SIM_NSEC_PER_MSEC);		/* threads go to sleep */
	ASSERT_TRUE(sim_waitq_active(&m->node.kcompactd_wait));
	wakeup_kcompactd(&m->node, 4, ZONE_NORMAL);
	ASSERT_EQ(sim_stat_read(m, SIM_KCOMPACTD_WAKE), 1);
	sim_run(machine_sim(m), 100 * SIM_NSEC_PER_MSEC);
	ASSERT_EQ(ev(m, KCOMPACTD_WAKE), 1);
	ASSERT_TRUE(ev(m, KCOMPACTD_MIGRATE_SCANNED) > 0);
	ASSERT_EQ(ev(m, KCOMPACTD_MIGRATE_SCANNED), ev(m, COMPACTMIGRATE_SCANNED));
	ASSERT_TRUE(ev(m, PGMIGRATE_SUCCESS) > 0);
	ASSERT_TRUE(has_free_block(c.zone, 4));
	ASSERT_TRUE(sim_waitq_active(&m->node.kcompactd_wait));
	wakeup_kcompactd(&m->node, 4, ZONE_NORMAL);
	ASSERT_EQ(sim_stat_read(m, SIM_KCOMPACTD_WAKE), 1);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}

/*
 * A test of proactive compaction (kcompactd, mm/compaction.c): with
 * vm.compaction_proactiveness=90 (thresholds 20/10) and a zone whose free
 * pages are all in small blocks (fragmentation score 100), kcompactd's
 * 500 ms timer runs compact_node(proactive) without being woken.  Expect
 * sim_kcompactd_proactive >= 1, compact_daemon_migrate_scanned > 0 and the
 * node's score lower afterwards.
 */
TEST(proactive_compaction_on_the_timer)
{
	static const char *const kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
					  "vm.compaction_proactiveness=90", "vm.min_free_kbytes=1024", NULL };
	struct frag_env c;
	struct machine *m = frag_env_create(&c, kv, NULL, "A...");
	unsigned int before;

	ASSERT_TRUE(m != NULL);
	before = fragmentation_score_node(&m->node);
	ASSERT_TRUE(before > 20);
	machine_start(m);
	sim_run(machine_sim(m), 2 * SIM_NSEC_PER_SEC);
	ASSERT_TRUE(sim_stat_read(m, SIM_KCOMPACTD_PROACTIVE) >= 1);
	ASSERT_TRUE(ev(m, KCOMPACTD_MIGRATE_SCANNED) > 0);
	ASSERT_EQ(ev(m, KCOMPACTD_WAKE), 0);
	ASSERT_TRUE(fragmentation_score_node(&m->node) < before);
	ASSERT_MM_OK(m);
	mm_env_destroy(&c.e);
}
