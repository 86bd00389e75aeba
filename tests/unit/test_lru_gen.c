/* SPDX-License-Identifier: MIT */
/*
 * test_lru_gen.c — the multi-gen LRU (swap.c, vmscan.c; MGLRU of Linux
 * 6.12, docs/mm.md "MGLRU"): placement, fd accesses, aging, eviction from
 * the oldest generation, tier protection, min_ttl_ms, and a randomized
 * program against a shadow of the generation numbers.
 */
#include "frag_test.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmscan.h"
#include "sim/rng.h"

static unsigned long reclaim(struct machine *m, gfp_t gfp, unsigned int order)
{
	struct alloc_context ac;
	unsigned int fl = 0;

	prepare_alloc_pages(m, gfp, order, &ac, &fl);
	return try_to_free_pages(m, &ac, order, gfp);
}

/* A machine with MGLRU on (the frame byte allocated before any folio). */
static struct machine *lru_gen_env(struct frag_env *v, unsigned long min_ttl_ms)
{
	struct machine *m = frag_env_create(v, NULL, NULL, NULL);

	if (m)
		lru_gen_init(m, min_ttl_ms);
	return m;
}

static struct lru_gen_folio *lrugen_of(struct machine *m)
{
	return &m->node.__lruvec.lrugen;
}

/* Add `n` order-0 folios of `mapping` from index `first`, drained onto
 * the lists; their pfns into out[] if given. */
static void add_folios(struct machine *m, struct address_space *mapping, unsigned long first, unsigned long n,
		       pfn_t *out)
{
	for (unsigned long i = 0; i < n; i++) {
		pfn_t pfn = alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, PGTY_ALLOC);

		if (pfn == PFN_NONE || filemap_add_folio(m, mapping, pfn, first + i) != 0)
			SIM_BUG("add_folios: no folio for index %lu", first + i);
		if (out)
			out[i] = pfn;
	}
	lru_add_drain(m);
}

static unsigned long gen_pages(struct machine *m, int gen, int type)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		n += (unsigned long)lrugen_of(m)->nr_pages[gen][type][z];
	return n;
}

/*
 * A test of lru_gen_add_folio's placement (include/linux/mm_inline.h,
 * 6.12) on a fresh lruvec (max_seq 3, min_seq 0/0): a file folio read
 * through a file descriptor goes to the second oldest generation
 * (min_seq + 1), an anon folio (faulted: PG_active) to the youngest
 * (max_seq), a shmem folio (anon type, no swap cache) to max_seq - 1.
 * Expect gens 1, 3 and 2, PG_active cleared, the file pages counted
 * inactive and the anon and shmem pages active (the two youngest
 * generations), and the classic lists empty.
 */
TEST(placement_of_new_folios)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct address_space *file, *anon, *shm;
	pfn_t f, a, s;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(lrugen_of(m)->max_seq, 3);
	file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "anon");
	shm = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "shm");
	add_folios(m, file, 0, 1, &f);
	add_folios(m, anon, 0, 1, &a);
	add_folios(m, shm, 0, 1, &s);
	ASSERT_EQ(folio_lru_gen(m, f), 1);
	ASSERT_EQ(folio_lru_gen(m, a), 3);
	ASSERT_EQ(folio_lru_gen(m, s), 2);
	ASSERT_FALSE(pfn_to_page(m, a)->flags & PG_active);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_FILE), 1);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ACTIVE_FILE), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ACTIVE_ANON), 2);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_ANON), 0);
	for (int lru = 0; lru < LRU_UNEVICTABLE; lru++)
		ASSERT_TRUE(pfn_list_empty(&m->node.__lruvec.lists[lru]));
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of aging (try_to_inc_max_seq / inc_max_seq / inc_min_seq, 6.12)
 * without swap: 8 file and 8 anon pages, then 4 aging steps.  Each step
 * finds both types at MAX_NR_GENS, so min_seq of each advances with
 * max_seq: file folios move with the oldest generation (they stay
 * oldest), anon folios are not moved (anon cannot be evicted), which
 * after four steps puts them in the generation that became the youngest
 * again — the kernel's cold/hot inversion.  Expect max_seq 3 + k and
 * min_seq k after step k, never more than 4 generations, the anon pages
 * inactive after steps 2 and 3 and active again after step 4, the file
 * pages always inactive, and the checker content throughout.
 */
TEST(aging_keeps_four_generations)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct lru_gen_folio *lrugen = lrugen_of(m);
	struct address_space *file, *anon;
	pfn_t f[8], a[8];

	ASSERT_TRUE(m != NULL);
	file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "anon");
	add_folios(m, file, 0, 8, f);
	add_folios(m, anon, 0, 8, a);
	for (unsigned long k = 1; k <= 4; k++) {
		ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lrugen->max_seq, false));
		ASSERT_FALSE(try_to_inc_max_seq(m, lruvec, lrugen->max_seq - 1, false));	/* stale seq */
		ASSERT_EQ(lrugen->max_seq, 3 + k);
		ASSERT_EQ(lrugen->min_seq[LRU_GEN_FILE], k);
		ASSERT_EQ(lrugen->min_seq[LRU_GEN_ANON], k);
		ASSERT_EQ(folio_lru_gen(m, f[0]), lru_gen_from_seq(lrugen->min_seq[LRU_GEN_FILE] > 1 ?
								   lrugen->min_seq[LRU_GEN_FILE] : 1));
		ASSERT_EQ(folio_lru_gen(m, a[0]), 3);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_FILE), 8);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_ACTIVE_ANON), k == 1 || k == 4 ? 8 : 0);
		ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_ANON), k == 1 || k == 4 ? 0 : 8);
		ASSERT_EQ(lrugen->timestamps[lru_gen_from_seq(lrugen->max_seq)], sim_now(machine_sim(m)));
		ASSERT_MM_OK(m);
	}
	ASSERT_EQ(lrugen->nr_aging, 4);
	mm_env_destroy(&v.e);
}

/*
 * A test that eviction takes the oldest generation first (evict_folios /
 * scan_folios, 6.12): 256 clean file pages A, one aging step, then 256
 * more B, which land one generation younger (min_seq + 1).  Direct
 * reclaim for 32 pages.  Expect at least 32 pages reclaimed, every one of
 * them from A (all of B still cached), pgscan_direct >= pgsteal_direct =
 * pgsteal_file = the reclaimed pages, nothing isolated at the end, and
 * no anon scanning.
 */
TEST(eviction_takes_the_oldest_generation_first)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct address_space *a, *b;
	unsigned long got;

	ASSERT_TRUE(m != NULL);
	a = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "a");
	b = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "b");
	add_folios(m, a, 0, 256, NULL);
	ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lruvec->lrugen.max_seq, false));
	add_folios(m, b, 0, 256, NULL);
	ASSERT_EQ(gen_pages(m, lru_gen_from_seq(lruvec->lrugen.min_seq[LRU_GEN_FILE]), LRU_GEN_FILE), 256);
	ASSERT_EQ(gen_pages(m, lru_gen_from_seq(lruvec->lrugen.min_seq[LRU_GEN_FILE] + 1), LRU_GEN_FILE), 256);
	got = reclaim(m, GFP_KERNEL, 0);
	ASSERT_TRUE(got >= SWAP_CLUSTER_MAX);
	ASSERT_EQ(b->nrpages, 256);
	ASSERT_EQ(a->nrpages, 256 - got);
	ASSERT_EQ(ev(m, PGSTEAL_DIRECT), got);
	ASSERT_EQ(ev(m, PGSTEAL_FILE), got);
	ASSERT_TRUE(ev(m, PGSCAN_DIRECT) >= got);
	ASSERT_EQ(ev(m, PGSCAN_ANON), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_FILE), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A test of tiers (folio_inc_refs, mm/swap.c; sort_folio, 6.12): 64 clean
 * file pages in the oldest generation; one is read through a file
 * descriptor five times (PG_referenced, PG_workingset, refs 1..3: refs
 * at the maximum, tier 3), another twice (PG_referenced + PG_workingset:
 * tier 1).  Without refaults the PID controller protects no lower tier,
 * so only the first is protected.  Expect it moved to the next
 * generation and still cached (nr_protected 1 page), the twice-read one
 * evicted with the rest, i.e. 63 pages reclaimed by one direct reclaim
 * that scans the whole generation.
 */
TEST(fd_accesses_protect_by_tier)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct address_space *a;
	pfn_t pf[64];
	int old_gen;

	ASSERT_TRUE(m != NULL);
	a = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "a");
	add_folios(m, a, 0, 64, pf);
	old_gen = folio_lru_gen(m, pf[0]);
	for (int i = 0; i < 5; i++)
		folio_mark_accessed(m, pf[10]);
	folio_mark_accessed(m, pf[20]);
	folio_mark_accessed(m, pf[20]);
	ASSERT_EQ(folio_lru_refs(m, pf[10]), 1 << LRU_REFS_WIDTH);
	ASSERT_EQ(folio_lru_refs(m, pf[20]), 1);
	ASSERT_TRUE(pfn_to_page(m, pf[20])->flags & PG_referenced);
	/* the 64 pages sit in generation min_seq + 1: one aging step makes
	 * it the oldest one (min_seq advances past the empty generation) */
	ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lruvec->lrugen.max_seq, false));
	ASSERT_EQ(lru_gen_from_seq(lruvec->lrugen.min_seq[LRU_GEN_FILE]), old_gen);
	ASSERT_EQ(reclaim(m, GFP_KERNEL, 0), 63);
	ASSERT_EQ(a->nrpages, 1);
	ASSERT_EQ(filemap_lookup(m, a, 10), pf[10]);
	ASSERT_EQ(filemap_lookup(m, a, 20), PFN_NONE);
	ASSERT_EQ(lruvec->lrugen.nr_protected, 1);
	ASSERT_EQ(folio_lru_gen(m, pf[10]), (old_gen + 1) % MAX_NR_GENS);
	ASSERT_EQ(folio_lru_refs(m, pf[10]), 0);	/* folio_inc_gen clears the refs */
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/* Take free pages off the buddy lists until the zone is below `mark`. */
static void consume_below(struct machine *m, struct zone *zone, unsigned long mark)
{
	drain_all_pages(m, NULL);
	for (pfn_t p = (pfn_t)zone->zone_start_pfn;
	     p < zone_end_pfn(zone) && mm_free_pages(m, ZONE_NORMAL) >= (long)mark; p++)
		if (take_page_off_buddy(m, p))
			set_page_type_order(pfn_to_page(m, p), PGTY_KERNEL, 0);
}

/*
 * A test of min_ttl_ms (lru_gen_age_node, 6.12): the zone full of clean
 * page cache added at time 0 and kswapd started at once.  With
 * min_ttl_ms=1000 its first aging check finds the oldest generation
 * younger than a second — the kernel would call the OOM killer; the
 * model counts it — and eviction still goes on (6.12's min_ttl does not
 * stop it).  With min_ttl_ms=0 there is no check.  Expect
 * nr_min_ttl_oom >= 1 and pgsteal_kswapd > 0 in the first machine,
 * nr_min_ttl_oom 0 and pgsteal_kswapd > 0 in the second.
 */
TEST(min_ttl_reports_a_young_working_set)
{
	for (int pass = 0; pass < 2; pass++) {
		struct frag_env v;
		struct machine *m = lru_gen_env(&v, pass == 0 ? 1000 : 0);
		struct address_space *a;

		ASSERT_TRUE(m != NULL);
		a = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "a");
		for (unsigned long i = 0; mm_free_pages(m, ZONE_NORMAL) > (long)low_wmark_pages(v.zone) + 64; i++)
			add_folios(m, a, i, 1, NULL);
		consume_below(m, v.zone, low_wmark_pages(v.zone));
		machine_start(m);
		sim_run(machine_sim(m), SIM_NSEC_PER_SEC / 2);
		ASSERT_TRUE(ev(m, PAGEOUTRUN) >= 1);
		ASSERT_TRUE(ev(m, PGSTEAL_KSWAPD) > 0);
		if (pass == 0)
			ASSERT_TRUE(lrugen_of(m)->nr_min_ttl_oom >= 1);
		else
			ASSERT_EQ(lrugen_of(m)->nr_min_ttl_oom, 0);
		ASSERT_MM_OK(m);
		mm_env_destroy(&v.e);
	}
}

/*
 * A test that compaction's isolation and putback keep generations
 * (lru_gen_del_folio for migration, 6.12): a folio of an active
 * generation taken off for migration carries PG_active and returns to
 * the youngest generation; one of an inactive generation returns by
 * placement.  Expect gens max_seq and min_seq + 1 after the putbacks and
 * NR_ISOLATED_FILE back at 0.
 */
TEST(isolate_and_putback_keep_generations)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lru_gen_folio *lrugen = lrugen_of(m);
	struct address_space *file;
	pfn_t f[2];

	ASSERT_TRUE(m != NULL);
	file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	add_folios(m, file, 0, 2, f);
	folio_activate(m, f[0]);	/* classic activation path: to the youngest generation */
	ASSERT_EQ(folio_lru_gen(m, f[0]), lru_gen_from_seq(lrugen->max_seq));
	ASSERT_TRUE(folio_isolate_lru(m, f[0]));
	ASSERT_TRUE(folio_isolate_lru(m, f[1]));
	ASSERT_TRUE(pfn_to_page(m, f[0])->flags & PG_active);
	ASSERT_FALSE(pfn_to_page(m, f[1])->flags & PG_active);
	ASSERT_EQ(folio_lru_gen(m, f[0]), -1);
	folio_putback_lru(m, f[0]);
	folio_putback_lru(m, f[1]);
	lru_add_drain(m);
	ASSERT_EQ(folio_lru_gen(m, f[0]), lru_gen_from_seq(lrugen->max_seq));
	ASSERT_EQ(folio_lru_gen(m, f[1]), lru_gen_from_seq(lrugen->min_seq[LRU_GEN_FILE] + 1));
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_FILE), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}

/*
 * A randomized program against a shadow model of the generations: 1500
 * random steps of adding file, anon and shmem folios (orders 0 and 2),
 * reading a random file folio through its descriptor, aging, and
 * (every 100 steps) checking every folio.  The shadow keeps each
 * folio's sequence number by the rules alone: placement (file: min_seq
 * + 1, or min_seq when only two generations are left; anon: max_seq;
 * shmem: max_seq - 1), aging (max_seq + 1; a type at four generations
 * drops its oldest: file folios there move up one, anon folios stay),
 * and refs (PG_referenced, PG_workingset, then up to 3).  Expect the
 * model's gen and refs of every folio to equal the shadow's, per-type
 * page totals to match, and mm_check content after every operation.
 */
#define SHADOW_MAX 2048
TEST(randomized_against_shadow)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct lru_gen_folio *lrugen = lrugen_of(m);
	struct address_space *maps[3];
	struct { pfn_t pfn; int type; unsigned long seq; int accesses; } sh[SHADOW_MAX];
	unsigned long next_index[3] = { 0 }, sh_min[2] = { 0, 0 }, sh_max = 3;
	int n = 0;
	struct sim_rng rng;

	ASSERT_TRUE(m != NULL);
	rng_init(&rng, 7, rng_stream_id("test_lru_gen", 0));
	maps[0] = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	maps[1] = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "anon");
	maps[2] = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "shm");
	for (int step = 0; step < 1500; step++) {
		uint64_t r = rng_next(&rng) % 100;

		if (r < 45 && n < SHADOW_MAX) {
			int kind = (int)(rng_next(&rng) % 3);
			unsigned int order = rng_next(&rng) % 4 == 0 ? 2 : 0;
			pfn_t pfn = alloc_pages(m, GFP_HIGHUSER_MOVABLE, order, PGTY_ALLOC);
			unsigned long idx = next_index[kind];

			ASSERT_TRUE(pfn != PFN_NONE);
			next_index[kind] += 4;	/* aligned for order 2 */
			ASSERT_EQ(filemap_add_folio(m, maps[kind], pfn, idx), 0);
			lru_add_drain(m);
			sh[n].pfn = pfn;
			sh[n].type = kind == 0 ? LRU_GEN_FILE : LRU_GEN_ANON;
			sh[n].accesses = 0;
			if (kind == 1)
				sh[n].seq = sh_max;
			else if (kind == 2)
				sh[n].seq = sh_max - 1;
			else
				sh[n].seq = sh_min[1] + MIN_NR_GENS >= sh_max ? sh_min[1] : sh_min[1] + 1;
			n++;
		} else if (r < 85 && n) {
			int i = (int)(rng_next(&rng) % (uint64_t)n);

			if (sh[i].type == LRU_GEN_FILE) {
				folio_mark_accessed(m, sh[i].pfn);
				sh[i].accesses++;
			}
		} else {
			ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lrugen->max_seq, false));
			for (int t = 1; t >= 0; t--) {
				if (sh_max - sh_min[t] + 1 < MAX_NR_GENS)
					continue;
				if (t == LRU_GEN_FILE)
					for (int i = 0; i < n; i++)
						if (sh[i].type == t && sh[i].seq == sh_min[t]) {
							sh[i].seq++;
							sh[i].accesses = 0;	/* folio_inc_gen clears refs */
						}
				sh_min[t]++;
			}
			sh_max++;
		}
		if (step % 100 == 99 || step == 1499) {
			unsigned long pages[2] = { 0, 0 };

			ASSERT_EQ(lrugen->max_seq, sh_max);
			ASSERT_EQ(lrugen->min_seq[0], sh_min[0]);
			ASSERT_EQ(lrugen->min_seq[1], sh_min[1]);
			for (int i = 0; i < n; i++) {
				int want_refs = sh[i].accesses <= 1 ? 0 : sh[i].accesses - 1 > 4 ? 4 : sh[i].accesses - 1;

				ASSERT_EQ(folio_lru_gen(m, sh[i].pfn), lru_gen_from_seq(sh[i].seq));
				ASSERT_EQ(folio_lru_refs(m, sh[i].pfn), want_refs);
				pages[sh[i].type] += folio_nr_pages(pfn_to_page(m, sh[i].pfn));
			}
			ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_FILE) +
				  node_page_state_exact(&m->node, NR_ACTIVE_FILE), (long)pages[1]);
			ASSERT_EQ(node_page_state_exact(&m->node, NR_INACTIVE_ANON) +
				  node_page_state_exact(&m->node, NR_ACTIVE_ANON), (long)pages[0]);
			ASSERT_MM_OK(m);
		}
	}
	mm_env_destroy(&v.e);
}

/*
 * A randomized program of reclaim under MGLRU: file folios added in
 * bursts between aging steps, random fd reads, and direct reclaims.
 * Expect every folio a reclaim frees to have been outside the youngest
 * generation just before it, the counters to add up (pgsteal_direct =
 * pages freed, nothing isolated afterwards) and mm_check content after
 * every operation.
 */
TEST(randomized_reclaim_spares_the_youngest)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct address_space *file;
	pfn_t *pfns = calloc(4096, sizeof(*pfns));
	unsigned long n = 0, freed = 0;
	struct sim_rng rng;

	ASSERT_TRUE(m != NULL && pfns != NULL);
	rng_init(&rng, 11, rng_stream_id("test_lru_gen", 1));
	file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	for (int step = 0; step < 60; step++) {
		uint64_t r = rng_next(&rng) % 10;

		if (r < 5 && n + 64 <= 4096) {
			add_folios(m, file, n, 64, pfns + n);
			n += 64;
		} else if (r < 7) {
			for (int k = 0; k < 32 && n; k++) {
				unsigned long i = rng_next(&rng) % n;

				if (pfns[i] != PFN_NONE && filemap_lookup(m, file, i) == pfns[i])
					folio_mark_accessed(m, pfns[i]);
			}
		} else if (r < 8) {
			ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lruvec->lrugen.max_seq, false));
		} else {
			int young = lru_gen_from_seq(lruvec->lrugen.max_seq);
			bool *was_young = calloc(n + 1, sizeof(bool));
			unsigned long got, gone = 0;

			for (unsigned long i = 0; i < n; i++)
				was_young[i] = pfns[i] != PFN_NONE && filemap_lookup(m, file, i) == pfns[i] &&
					      folio_lru_gen(m, pfns[i]) == young;
			got = reclaim(m, GFP_KERNEL, 0);
			for (unsigned long i = 0; i < n; i++)
				if (filemap_lookup(m, file, i) == PFN_NONE && pfns[i] != PFN_NONE) {
					ASSERT_FALSE(was_young[i]);
					pfns[i] = PFN_NONE;
					gone++;
				}
			ASSERT_EQ(gone, got);
			freed += got;
			free(was_young);
		}
		ASSERT_MM_OK(m);
	}
	ASSERT_TRUE(freed > 0);
	ASSERT_EQ(ev(m, PGSTEAL_DIRECT), freed);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_ISOLATED_FILE), 0);
	free(pfns);
	mm_env_destroy(&v.e);
}


/*
 * A test that mm_check catches broken generations: a folio whose stored
 * gen disagrees with its list, a per-gen page count off by one, and a
 * min_seq that leaves five generations.  Expect each corruption
 * reported, and the machine content again once it is undone.
 */
TEST(check_catches_generation_corruption)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lru_gen_folio *lrugen;
	struct address_space *file;
	char buf[4096];
	pfn_t f;
	uint8_t saved;

	ASSERT_TRUE(m != NULL);
	mm_set_check_interval(m, 0);
	lrugen = lrugen_of(m);
	file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "file");
	add_folios(m, file, 0, 4, NULL);
	f = filemap_lookup(m, file, 2);
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), 0);
	saved = folio_lru_gen_flags(m, f);
	folio_set_lru_gen_flags(m, f, (uint8_t)((saved & ~LRU_GEN_MASK) | 4u));	/* gen 3 */
	ASSERT_TRUE(mm_check_msg(m, buf, sizeof(buf)) != 0);
	ASSERT_TRUE(strstr(buf, "lru_gen list") != NULL);
	folio_set_lru_gen_flags(m, f, saved);
	lrugen->nr_pages[1][LRU_GEN_FILE][ZONE_NORMAL]++;
	ASSERT_TRUE(mm_check_msg(m, buf, sizeof(buf)) != 0);
	ASSERT_TRUE(strstr(buf, "nr_pages") != NULL);
	lrugen->nr_pages[1][LRU_GEN_FILE][ZONE_NORMAL]--;
	lrugen->max_seq++;
	ASSERT_TRUE(mm_check_msg(m, buf, sizeof(buf)) != 0);
	lrugen->max_seq--;
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), 0);
	mm_env_destroy(&v.e);
}

/*
 * A test of page-table accesses under MGLRU (shrink_folio_list's rmap
 * check standing in for lru_gen_look_around; evict_folios' putback,
 * 6.12): 64 clean file pages in the oldest generation, one of them mapped
 * by a process (map count 1; the model has no accessed bits, so a mapped
 * folio counts as young).  Direct reclaim.  Expect the mapped page kept
 * and moved to the youngest generation (max_seq, refs cleared), the 63
 * others reclaimed, and no shmem or anon page scanned (no swap).
 */
TEST(mapped_folio_goes_to_the_youngest_generation)
{
	struct frag_env v;
	struct machine *m = lru_gen_env(&v, 0);
	struct lruvec *lruvec = &m->node.__lruvec;
	struct address_space *a, *shm;
	pfn_t pf[64];

	ASSERT_TRUE(m != NULL);
	a = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "a");
	shm = mapping_create(m, MAPPING_SHMEM, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "shm");
	add_folios(m, a, 0, 64, pf);
	add_folios(m, shm, 0, 16, NULL);
	ASSERT_EQ(page_mapcount_inc(m, a, 5), 1);
	ASSERT_TRUE(try_to_inc_max_seq(m, lruvec, lruvec->lrugen.max_seq, false));
	ASSERT_EQ(reclaim(m, GFP_KERNEL, 0), 63);
	ASSERT_EQ(filemap_lookup(m, a, 5), pf[5]);
	ASSERT_EQ(folio_lru_gen(m, pf[5]), lru_gen_from_seq(lruvec->lrugen.max_seq));
	ASSERT_EQ(shm->nrpages, 16);
	ASSERT_EQ(ev(m, PGSCAN_ANON), 0);
	ASSERT_EQ(page_mapcount_dec(m, a, 5), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&v.e);
}
