/* SPDX-License-Identifier: MIT */
/*
 * test_mm_shadow.c — the model driven side by side with a naive shadow
 * under random operation programs (as SQLite tests its bitvec against a shadow).
 *
 * The shadow is deliberately simple: one bit per frame ("owned") and a
 * list of live allocations (head pfn, order).  It does not choose blocks
 * or predict failures — the kernel's choices (watermarks, pcp caching,
 * fallbacks) are what is under test — but it knows exactly which frames
 * are owned, so after every operation:
 *
 *   - an allocation the model returns must be naturally aligned, inside a
 *     zone the gfp may use, and made only of frames the shadow has free;
 *   - every frame the model holds in an allocated block is owned in the
 *     shadow by the live allocation with that head and order, and every
 *     free (buddy or pcp) frame is unowned;
 *   - free pages counted by the model (NR_FREE_PAGES, exact, plus pages on
 *     the pcp lists) equal managed pages minus the shadow's owned pages;
 *   - mm_check() passes.
 *
 * Programs: allocate (order 0..10, seven gfp masks, any CPU, sometimes
 * with the pcp lock held so the buddy path runs, sometimes with slow-path
 * style alloc_flags: min watermark, HIGHATOMIC, NON_BLOCK, OOM, no
 * watermarks), free, drain (all / one zone / local), vmstat_update,
 * sysctl changes (min_free_kbytes, watermark_scale_factor,
 * watermark_boost_factor, percpu_pagelist_high_fraction,
 * lowmem_reserve_ratio, defrag_mode), HIGHATOMIC unreserve, clearing the
 * watermark boost (kswapd's job, not modelled yet).
 *
 * SHADOW_OPS=<n> overrides the total operation count (default 1 000 000).
 */
#include "mm_test.h"
#include "sim/rng.h"

struct live {
	pfn_t		pfn;
	unsigned int	order;
};

struct shadow {
	pfn_t		nr_pfns;
	uint8_t		*owned;		/* bit per frame */
	uint8_t		*reserved;	/* bit per frame: never managed */
	struct live	*live;
	size_t		n, cap;
	long		owned_pages;
	long		managed;
};

static bool bit(const uint8_t *b, pfn_t p) { return b[p >> 3] & (1u << (p & 7)); }
static void set_bit8(uint8_t *b, pfn_t p) { b[p >> 3] |= (uint8_t)(1u << (p & 7)); }
static void clear_bit8(uint8_t *b, pfn_t p) { b[p >> 3] &= (uint8_t)~(1u << (p & 7)); }

static void shadow_init(struct shadow *s, const struct machine *m)
{
	memset(s, 0, sizeof(*s));
	s->nr_pfns = m->nr_pfns;
	s->owned = calloc((m->nr_pfns >> 3) + 1, 1);
	s->reserved = calloc((m->nr_pfns >> 3) + 1, 1);
	for (pfn_t p = 0; p < m->nr_pfns; p++)
		if (page_type(pfn_to_page(m, p)) == PGTY_RESERVED)
			set_bit8(s->reserved, p);
	s->managed = (long)m->totalram_pages;
}

static void shadow_release(struct shadow *s)
{
	free(s->owned);
	free(s->reserved);
	free(s->live);
}

/* Record an allocation; fails if any frame is already owned or reserved. */
static int shadow_alloc(struct shadow *s, pfn_t pfn, unsigned int order, char *why, size_t wl)
{
	for (pfn_t p = pfn; p < pfn + (1u << order); p++)
		if (p >= s->nr_pfns || bit(s->owned, p) || bit(s->reserved, p)) {
			snprintf(why, wl, "model handed out pfn %u (order-%u block at %u) which the shadow "
				 "has %s", p, order, pfn, p >= s->nr_pfns ? "not at all" :
				 bit(s->owned, p) ? "owned" : "reserved");
			return -1;
		}
	for (pfn_t p = pfn; p < pfn + (1u << order); p++)
		set_bit8(s->owned, p);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->live = realloc(s->live, s->cap * sizeof(*s->live));
	}
	s->live[s->n++] = (struct live){ pfn, order };
	s->owned_pages += 1L << order;
	return 0;
}

static struct live shadow_take(struct shadow *s, size_t i)
{
	struct live l = s->live[i];

	for (pfn_t p = l.pfn; p < l.pfn + (1u << l.order); p++)
		clear_bit8(s->owned, p);
	s->live[i] = s->live[--s->n];
	s->owned_pages -= 1L << l.order;
	return l;
}

/* Ownership and free counts, model vs shadow.  0 or -1 with why. */
static int shadow_compare(const struct machine *m, const struct shadow *s, char *why, size_t wl)
{
	long model_free = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &m->node.node_zones[z];

		if (!populated_zone(zone))
			continue;
		model_free += zone_page_state_exact(zone, NR_FREE_PAGES);
		for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
			model_free += zone->per_cpu_pageset[cpu].count;
		for (pfn_t p = (pfn_t)zone->zone_start_pfn; p < zone_end_pfn(zone);) {
			const struct page *page = pfn_to_page(m, p);
			enum page_type t = page_type(page);
			unsigned int n = t == PGTY_RESERVED ? 1 : 1u << page_order(page);
			bool owned = t >= PGTY_KERNEL;

			if (t == PGTY_RESERVED) {
				if (!bit(s->reserved, p) || bit(s->owned, p)) {
					snprintf(why, wl, "pfn %u reserved in the model only", p);
					return -1;
				}
				p++;
				continue;
			}
			/* whole bytes of the bitmaps at a time where the block allows */
			if (n >= 8 && !(p & 7)) {
				const uint8_t want = owned ? 0xff : 0x00;
				pfn_t q = p;

				for (; q < p + n; q += 8)
					if (s->owned[q >> 3] != want || s->reserved[q >> 3])
						break;
				if (q == p + n) {
					p += n;
					continue;
				}
			}
			for (pfn_t q = p; q < p + n; q++)
				if (bit(s->owned, q) != owned || bit(s->reserved, q)) {
					snprintf(why, wl, "pfn %u: model says %s (%s block at %u, order %u), shadow "
						 "says %s", q, owned ? "owned" : "free",
						 owned ? "allocated" : t == PGTY_PCP ? "pcp" : "buddy", p,
						 page_order(page), bit(s->owned, q) ? "owned" : "free");
					return -1;
				}
			p += n;
		}
	}
	if (model_free != s->managed - s->owned_pages) {
		snprintf(why, wl, "model has %ld free pages (buddy + pcp), shadow %ld", model_free,
			 s->managed - s->owned_pages);
		return -1;
	}
	return 0;
}

/* ---- random programs --------------------------------------------------------- */

static const gfp_t gfps[] = {
	GFP_KERNEL, GFP_HIGHUSER_MOVABLE, GFP_KERNEL | __GFP_RECLAIMABLE, GFP_ATOMIC,
	GFP_NOWAIT, GFP_DMA, GFP_PGTABLE_USER, GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NORETRY,
	GFP_DMA32 | __GFP_MOVABLE,
};

static const unsigned int slow_flags[] = {
	ALLOC_WMARK_MIN | ALLOC_HIGHATOMIC | ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_KSWAPD,
	ALLOC_WMARK_MIN | ALLOC_KSWAPD,
	ALLOC_NO_WATERMARKS,
	ALLOC_WMARK_MIN | ALLOC_OOM,
	ALLOC_WMARK_HIGH | ALLOC_NOFRAGMENT,
};

static unsigned int pick_order(struct sim_rng *r)
{
	unsigned int x = (unsigned int)rng_below(r, 100);

	if (x < 50)
		return 0;
	if (x < 80)
		return 1 + (unsigned int)rng_below(r, 3);	/* 1..3 */
	if (x < 90)
		return 4 + (unsigned int)rng_below(r, 5);	/* 4..8 */
	return x < 97 ? 9 : 10;
}

struct program {
	const char	*const *machine;	/* machine + sysctl key=value */
	uint64_t	ops;
};

/* planting modes */
enum plant { PLANT_NONE, PLANT_SHADOW, PLANT_MODEL };

static void random_sysctl(struct mm_env *e, struct sim_rng *r)
{
	static const uint64_t mfk[] = { 0, 128, 1024, 4096 };
	static const uint64_t wsf[] = { 1, 10, 100, 500 };
	static const uint64_t boost[] = { 0, 15000, 150000 };
	static const uint64_t frac[] = { 0, 8, 100, 1000 };
	static const char *const ratios[] = { "256 256 32", "32 32 32", "1 1 1 0" };

	e->sysctl.min_free_kbytes = mfk[rng_below(r, 4)];
	e->sysctl.watermark_scale_factor = wsf[rng_below(r, 4)];
	e->sysctl.watermark_boost_factor = boost[rng_below(r, 3)];
	e->sysctl.percpu_pagelist_high_fraction = frac[rng_below(r, 4)];
	e->sysctl.defrag_mode = rng_below(r, 8) == 0;
	free(e->sysctl.lowmem_reserve_ratio);
	e->sysctl.lowmem_reserve_ratio = strdup(ratios[rng_below(r, 3)]);
}

/* Run one program.  Returns 0, or -1 with the first mismatch in why. */
static uint64_t reached[NR_SIM_STAT_ITEMS];	/* sim_* counters summed over programs */

static int run_program(const struct program *prog, uint64_t seed, enum plant plant, uint64_t plant_at,
		       uint64_t *allocs_ok, char *why, size_t wl)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, prog->machine);
	struct shadow s;
	struct sim_rng r;
	char buf[4096];
	int rc = 0;

	if (!m) {
		snprintf(why, wl, "machine: %s", e.err);
		mm_env_destroy(&e);
		return -1;
	}
	mm_set_check_interval(m, 0);	/* checked explicitly below, after every operation */
	shadow_init(&s, m);
	rng_init(&r, seed, rng_stream_id("mm_shadow", 0));
	for (uint64_t op = 0; op < prog->ops && !rc; op++) {
		unsigned int x = (unsigned int)rng_below(&r, 1000);

		sim_set_engine_cpu(e.sim, (unsigned int)rng_below(&r, m->nr_cpus));
		if (x < 440) {				/* allocate */
			unsigned int order = pick_order(&r);
			gfp_t gfp = gfps[rng_below(&r, sizeof(gfps) / sizeof(gfps[0]))];
			bool hold = rng_below(&r, 10) == 0;
			bool slow = rng_below(&r, 12) == 0;
			enum zone_type zi = gfp_zone(gfp) > ZONE_NORMAL ? ZONE_NORMAL : gfp_zone(gfp);
			struct zone *hz = mm_zone(m, zi);
			pfn_t pfn;

			if (hold && hz->per_cpu_pageset)
				mm_hold_pcp(m, zi, 1);
			if (slow) {
				struct alloc_context ac;
				unsigned int fl = 0;

				prepare_alloc_pages(m, gfp, order, &ac, &fl);
				pfn = get_page_from_freelist(m, gfp, order,
							     slow_flags[rng_below(&r, sizeof(slow_flags) / sizeof(slow_flags[0]))], &ac);
			} else if (hold) {
				/* with this CPU's pcp lock held, the slow path's
				 * drain would wait for it: no direct reclaim */
				pfn = __alloc_pages(m, gfp & ~(gfp_t)__GFP_DIRECT_RECLAIM, order, NULL);
			} else {
				pfn = __alloc_pages(m, gfp, order, NULL);
			}
			if (hold && hz->per_cpu_pageset)
				mm_hold_pcp(m, zi, 0);
			if (pfn != PFN_NONE) {
				struct zone *zone = page_zone(m, pfn);

				(*allocs_ok)++;
				if (pfn & ((1u << order) - 1)) {
					snprintf(why, wl, "order-%u block at unaligned pfn %u", order, pfn);
					rc = -1;
				} else if (zone_idx(zone) > gfp_zone(gfp)) {
					snprintf(why, wl, "gfp %#x got pfn %u from zone %s", gfp, pfn, zone->name);
					rc = -1;
				} else if (page_type(pfn_to_page(m, pfn)) != PGTY_ALLOC ||
					   page_order(pfn_to_page(m, pfn)) != order) {
					snprintf(why, wl, "pfn %u: head not an allocated order-%u block", pfn, order);
					rc = -1;
				} else {
					rc = shadow_alloc(&s, pfn, order, why, wl);
				}
			}
		} else if (x < 880 && s.n) {		/* free */
			size_t i = (size_t)rng_below(&r, s.n);
			bool hold = rng_below(&r, 10) == 0;
			struct live l = shadow_take(&s, i);
			enum zone_type zi = zone_idx(page_zone(m, l.pfn));

			if (hold)
				mm_hold_pcp(m, zi, 1);
			__free_pages(m, l.pfn, l.order);
			if (hold)
				mm_hold_pcp(m, zi, 0);
		} else if (x < 900 && s.n) {		/* free a burst */
			for (size_t k = s.n / 2; k > 0 && s.n; k--) {
				struct live l = shadow_take(&s, (size_t)rng_below(&r, s.n));

				__free_pages(m, l.pfn, l.order);
			}
		} else if (x < 930) {			/* drains */
			unsigned int d = (unsigned int)rng_below(&r, 3);

			if (d == 0)
				drain_all_pages(m, NULL);
			else if (d == 1)
				drain_all_pages(m, m->zonelist[rng_below(&r, m->nr_zonelist)]);
			else
				drain_local_pages(m, NULL);
		} else if (x < 960) {
			vmstat_update(m, (unsigned int)rng_below(&r, m->nr_cpus));
		} else if (x < 975) {
			random_sysctl(&e, &r);
			if (machine_apply_sysctl(m, &e.sysctl, buf, sizeof(buf))) {
				snprintf(why, wl, "sysctl: %s", buf);
				rc = -1;
			}
		} else if (x < 990) {
			struct alloc_context ac;
			unsigned int fl = 0;

			prepare_alloc_pages(m, gfps[rng_below(&r, 3)], 0, &ac, &fl);
			(void)unreserve_highatomic_pageblock(m, &ac, rng_below(&r, 2) == 0);
		} else {
			for (unsigned int i = 0; i < m->nr_zonelist; i++)
				m->zonelist[i]->watermark_boost = 0;	/* kswapd's job */
		}

		if (!rc && plant != PLANT_NONE && op == plant_at) {
			if (plant == PLANT_SHADOW && s.n) {
				/* forget one live allocation in the shadow only */
				(void)shadow_take(&s, 0);
			} else if (plant == PLANT_MODEL && s.n) {
				/* free one block inside the model only, consistently */
				struct live l = s.live[0];

				free_one_page(m, page_zone(m, l.pfn), l.pfn, l.order, FPI_NONE);
			}
		}
		if (!rc && mm_check_msg(m, buf, sizeof(buf))) {
			snprintf(why, wl, "seed %" PRIu64 " op %" PRIu64 ": mm_check: %s", seed, op, buf);
			rc = -1;
		}
		if (!rc && shadow_compare(m, &s, buf, sizeof(buf))) {
			snprintf(why, wl, "seed %" PRIu64 " op %" PRIu64 ": %s", seed, op, buf);
			rc = -1;
		}
	}
	for (int i = 0; i < NR_SIM_STAT_ITEMS; i++)
		reached[i] += sim_stat_read(m, (enum sim_stat_item)i);
	shadow_release(&s);
	mm_env_destroy(&e);
	return rc;
}

static const char *const m_small[] = { "memory=16m", "zones=DMA:4m,Normal:rest", "cpus=3", NULL };
static const char *const m_three[] = { "memory=24m", "zones=DMA:8m,DMA32:8m,Normal:rest", "cpus=4",
				       "reserved=3m", NULL };
static const char *const m_nomob[] = { "memory=8m", "zones=Normal:rest", "cpus=2", NULL };
static const char *const m_big[] = { "memory=256m", "zones=Normal:rest", "cpus=2", NULL };

/*
 * A test that the model and the shadow agree under random programs:
 * 1 M operations over 56 seeds and four machines (16 MiB DMA+Normal with 3
 * CPUs; 24 MiB DMA+DMA32+Normal with reserved memory and 4 CPUs;
 * 8 MiB, where grouping by mobility is disabled; 256 MiB, large enough for
 * HIGHATOMIC reserves), mm_check after every operation.  Expect no
 * mismatch and no violation, and a fair share of successful allocations
 * and of fallback claims/steals, drains and refills (the programs do
 * reach the interesting paths).
 */
TEST(random_programs_match_shadow)
{
	const char *env = getenv("SHADOW_OPS");
	uint64_t total = env ? strtoull(env, NULL, 10) : 1000000;
	uint64_t done = 0, allocs_ok = 0;
	char why[8192];
	int seed = 0;

	while (done < total) {
		const struct program progs[] = {
			{ m_small, 40000 }, { m_three, 20000 }, { m_nomob, 10000 }, { m_big, 1500 },
		};
		const struct program *p = &progs[seed % 4];
		struct program q = *p;

		if (q.ops > total - done)
			q.ops = total - done;
		if (run_program(&q, (uint64_t)seed + 1, PLANT_NONE, 0, &allocs_ok, why, sizeof(why))) {
			harness_fail(__FILE__, __LINE__, "%s", why);
			return;
		}
		done += q.ops;
		seed++;
	}
	ASSERT_TRUE(allocs_ok > total / 5);
	if (total >= 100000) {
		static const enum sim_stat_item must[] = {
			SIM_DRAIN_ALL_PAGES, SIM_PCP_REFILL, SIM_PCP_FREE_BULK,
			SIM_PCP_TRYLOCK_FAIL, SIM_RMQUEUE_CLAIM, SIM_RMQUEUE_STEAL, SIM_CLAIM_REFUSED,
			SIM_WATERMARK_BOOST, SIM_NOFRAGMENT_RETRY, SIM_ZONE_BELOW_HIGH,
			SIM_HIGHATOMIC_RESERVE, SIM_HIGHATOMIC_UNRESERVE, SIM_FASTPATH_FAIL,
		};

		for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
			if (!reached[must[i]])
				harness_fail(__FILE__, __LINE__, "programs never reached %s",
					     sim_stat_names[must[i]]);
	}
}

/*
 * A test that the comparison catches a corruption planted in the shadow
 * only (a live allocation forgotten): the model is consistent (mm_check
 * passes) but ownership differs.  Expect a mismatch naming a pfn the
 * model says is owned.
 */
TEST(shadow_catches_planted_shadow_corruption)
{
	struct program p = { m_small, 2000 };
	uint64_t allocs = 0;
	char why[8192];

	ASSERT_EQ(run_program(&p, 7, PLANT_SHADOW, 500, &allocs, why, sizeof(why)), -1);
	ASSERT_TRUE(strstr(why, "op 500:") != NULL);
	ASSERT_TRUE(strstr(why, "model says owned") != NULL);
	ASSERT_TRUE(strstr(why, "mm_check") == NULL);
}

/*
 * A test that the comparison catches a model corruption that mm_check
 * cannot see: a block freed inside the model behind its owner's back
 * leaves a perfectly consistent allocator, but the shadow still owns the
 * pages.  Expect mm_check silent and a mismatch ("model says free").
 */
TEST(shadow_catches_planted_model_corruption)
{
	struct program p = { m_small, 2000 };
	uint64_t allocs = 0;
	char why[8192];

	ASSERT_EQ(run_program(&p, 7, PLANT_MODEL, 500, &allocs, why, sizeof(why)), -1);
	ASSERT_TRUE(strstr(why, "op 500:") != NULL);
	ASSERT_TRUE(strstr(why, "model says free") != NULL);
	ASSERT_TRUE(strstr(why, "mm_check") == NULL);
}

/* A test that the programs are deterministic: the same seed gives the same
 * number of successful allocations and the same counters.  Expect equal
 * results for two runs of seed 3. */
TEST(programs_deterministic)
{
	struct program p = { m_three, 3000 };
	uint64_t a = 0, b = 0;
	char why[8192];

	ASSERT_EQ(run_program(&p, 3, PLANT_NONE, 0, &a, why, sizeof(why)), 0);
	ASSERT_EQ(run_program(&p, 3, PLANT_NONE, 0, &b, why, sizeof(why)), 0);
	ASSERT_EQ(a, b);
	ASSERT_TRUE(a > 0);
}
