/* SPDX-License-Identifier: MIT */
/*
 * initial_state.c — a machine that starts as fragmented as a recorded one
 * ([machine] initial_state=DIR; docs/initial-state.md).  Model-only: the
 * kernel never loads a fragmentation state, it reaches one by running.
 * The entry point replaces boot's "everything free, every pageblock
 * MOVABLE" (memblock_free_all, mm_init.c) with the recorded shape, before
 * any kernel thread or workload runs.
 *
 * Input (struct mm_initial_state, filled by the CLI from /proc/pagetypeinfo
 * and /proc/meminfo): per zone, free blocks per migratetype and order and
 * pageblocks per migratetype; weights of what allocated memory is.
 *
 * Steps, per populated zone:
 *   1. Scale.  U = the zone's whole managed pageblocks, R = the recorded
 *      zone's pageblocks.  Pageblocks per type: cumulative rounding of
 *      count x U/R in migratetype order, so they sum to U exactly.  Free
 *      blocks of each type: from order 10 down, count x U/R rounded down,
 *      the fraction carried as pages into the next lower order; so the
 *      type's free pages are floor(recorded free pages x U/R).
 *   2. Fit.  A type needs 2 pageblocks per free order-10 block, 1 per free
 *      order-9 block and enough partly used pageblocks for its free blocks
 *      below order 9 (found by the packing of step 4 run dry).  A type
 *      short of pageblocks (after scaling down, 1 HighAtomic block of a
 *      big zone rounds to 0 while its free pages do not) takes them from
 *      the others' spare ones, MOVABLE first; the moves are reported in
 *      the scaled state.  Not enough spare pageblocks: an error.
 *   3. Place pageblocks, in 4 MiB chunks (two pageblocks, one order-10
 *      block): a free order-10 block; a free order-9 pageblock beside a
 *      partly used one (so the two never merge); two partly used ones.
 *      Chunk kinds and types are spread evenly over the zone (item j of n
 *      at (2j+1)/2n), a fixed order, no randomness.
 *
 *        chunk:  | free 10 (2 x Movable)  | free 9 Mov | part Unm | part Mov | part Rec |
 *
 *   4. Pack each type's free blocks below order 9 into its partly used
 *      pageblocks, largest first, into the smallest region that takes
 *      them without losing capacity.  A region is an aligned 2^k-page
 *      piece: "open" (may become one free block) or "must hold an
 *      allocated page" (its buddy is free, so it must not become free
 *      whole).  Placing a block of order k in a region of order m splits
 *      it the buddy way: the block, its buddy of order k (must hold an
 *      allocated page), open regions of orders k+1..m-1.  A partly used
 *      pageblock starts as one order-9 region that must hold a page:
 *
 *        pageblock: [ free 8 | free 7 | free 6 | ... | free 0 | used ]
 *
 *   5. Build: take every free block off the buddy lists, set the
 *      pageblock types (HIGHATOMIC ones counted in
 *      nr_reserved_highatomic), free the planned blocks through
 *      __free_one_page (none may merge: a merge is a bug here), then make
 *      every other managed frame an order-0 allocation by its pageblock's
 *      type, in pfn order:
 *        MOVABLE      page cache (PGTY_FILE: clean folios of one model-only
 *                     file, on the inactive file LRU, so reclaim can drop
 *                     them and compaction migrate them) or anonymous memory
 *                     (PGTY_ANON of one model-only anon mapping: migratable,
 *                     not reclaimable, as without swap), in the ratio file :
 *                     anon, spread evenly;
 *        UNMOVABLE    page tables (PGTY_PGTABLE, NR_PAGETABLE) or kernel
 *                     memory (PGTY_KERNEL, nr_slab_unreclaimable), ratio
 *                     pgtable : kernel;
 *        RECLAIMABLE  PGTY_RECLAIMABLE (nr_slab_reclaimable);
 *        HIGHATOMIC   PGTY_KERNEL (atomic allocations, uncounted);
 *      managed frames in a pageblock that holds reserved frames are
 *      PGTY_KERNEL; such a pageblock stays MOVABLE and is not laid out.
 *
 * Simplifications: allocated memory is order-0 pages (the recording says
 * nothing about the orders of allocated blocks); the page cache belongs
 * to no inode (nothing reads, writes or dirties it: it is clean); the
 * anonymous memory and page tables belong to no process (nothing frees
 * them); kernel pages are never freed; no page is on a pcp list; within a
 * pageblock the free blocks sit at its start, largest first; the
 * allocated content's amounts follow from the free shape (managed minus
 * free), meminfo gives only its split.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/initial_state.h"
#include "mm/internal.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "sim/xalloc.h"

_Static_assert(MM_IS_NR_ZONES == MAX_NR_ZONES, "mm_initial_state zones follow enum zone_type");

#define SMALL_ORDERS	PAGEBLOCK_ORDER		/* orders 0..8 live inside one pageblock */

struct is_free_block {
	pfn_t	pfn;
	uint8_t	order;
	uint8_t	mt;
};

struct is_vec {
	struct is_free_block *v;
	size_t	n, cap;
};

/* The plan of one zone. */
struct is_plan {
	uint64_t	blocks[MIGRATE_TYPES];
	uint64_t	free[MIGRATE_TYPES][NR_PAGE_ORDERS];
	uint64_t	moved;		/* pageblocks moved between types by step 2 */
	uint64_t	dropped;	/* free pages step 2 had to leave allocated */
	unsigned long	usable;		/* whole managed pageblocks laid out */
	uint8_t		*pbtype;	/* [usable]; NULL in a dry run */
	struct is_vec	fb;		/* planned free blocks; empty in a dry run */
};

static void vec_push(struct is_vec *v, pfn_t pfn, unsigned int order, int mt)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 1024;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = (struct is_free_block){ pfn, (uint8_t)order, (uint8_t)mt };
}

/* ---- step 1: scaling ----------------------------------------------------------- */

static void scale_blocks(const uint64_t rec[MIGRATE_TYPES], uint64_t r, uint64_t u,
			 uint64_t out[MIGRATE_TYPES])
{
	unsigned __int128 cum = 0;
	uint64_t done = 0;

	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		uint64_t upto;

		cum += rec[mt];
		upto = (uint64_t)(cum * u / r);
		out[mt] = upto - done;
		done = upto;
	}
}

static void scale_free(const uint64_t rec[NR_PAGE_ORDERS], uint64_t r, uint64_t u,
		       uint64_t out[NR_PAGE_ORDERS])
{
	unsigned __int128 carry = 0;	/* pages x r */

	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		unsigned __int128 want = (unsigned __int128)rec[o] * ((uint64_t)1 << o) * u + carry;
		unsigned __int128 unit = (unsigned __int128)r << o;

		out[o] = (uint64_t)(want / unit);
		carry = want - (unsigned __int128)out[o] * unit;
	}
}

/* ---- step 4: packing small free blocks ------------------------------------------- */

struct region_queue {
	pfn_t	*v;
	size_t	head, n, cap;
};

struct packer {
	struct region_queue q[PAGEBLOCK_ORDER + 1][2];	/* [order][must hold a page] */
};

static void rq_push(struct region_queue *q, pfn_t pfn)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 256;
		q->v = xrealloc(q->v, q->cap * sizeof(*q->v));
	}
	q->v[q->n++] = pfn;
}

static bool rq_empty(const struct region_queue *q)
{
	return q->head == q->n;
}

static pfn_t rq_pop(struct region_queue *q)
{
	return q->v[q->head++];
}

static void packer_release(struct packer *p)
{
	for (int o = 0; o <= PAGEBLOCK_ORDER; o++)
		for (int f = 0; f < 2; f++)
			free(p->q[o][f].v);
}

/*
 * Place free[0..8] blocks of type mt into the partly used pageblocks
 * pbs[0..n) (first pfns; consecutive fake pfns in a dry run).  0, or -1
 * when they do not fit.  Emits into out when it is not NULL.
 */
static int pack_small(const uint64_t free[NR_PAGE_ORDERS], const pfn_t *pbs, uint64_t n, int mt,
		      struct is_vec *out)
{
	struct packer p;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	for (uint64_t i = 0; i < n; i++)
		rq_push(&p.q[PAGEBLOCK_ORDER][1], pbs ? pbs[i] : (pfn_t)(i << PAGEBLOCK_ORDER));
	for (int k = SMALL_ORDERS - 1; k >= 0 && !rc; k--) {
		for (uint64_t c = 0; c < free[k]; c++) {
			int m = -1, f = 0;
			pfn_t r;

			if (!rq_empty(&p.q[k][0]))
				m = k;
			/* splitting a region that must hold a page loses no capacity,
			 * splitting an open one loses a page */
			for (int j = k + 1; j <= PAGEBLOCK_ORDER && m < 0; j++)
				if (!rq_empty(&p.q[j][1])) {
					m = j;
					f = 1;
				}
			for (int j = k + 1; j <= PAGEBLOCK_ORDER && m < 0; j++)
				if (!rq_empty(&p.q[j][0]))
					m = j;
			if (m < 0) {
				rc = -1;
				break;
			}
			r = rq_pop(&p.q[m][f]);
			if (out)
				vec_push(out, r, (unsigned int)k, mt);
			if (m > k) {
				rq_push(&p.q[k][1], r + (1u << k));
				for (int j = k + 1; j < m; j++)
					rq_push(&p.q[j][0], r + (1u << j));
			}
		}
	}
	packer_release(&p);
	return rc;
}

static uint64_t small_blocks(const uint64_t free[NR_PAGE_ORDERS])
{
	uint64_t n = 0;

	for (int o = 0; o < SMALL_ORDERS; o++)
		n += free[o];
	return n;
}

/* Fewest partly used pageblocks that hold the type's free blocks below
 * pageblock order (binary search; each block alone in a pageblock always
 * fits). */
static uint64_t min_partial_blocks(const uint64_t free[NR_PAGE_ORDERS])
{
	uint64_t pages = 0, lo, hi = small_blocks(free);

	if (!hi)
		return 0;
	for (int o = 0; o < SMALL_ORDERS; o++)
		pages += free[o] << o;
	lo = (pages + PAGEBLOCK_NR_PAGES - 2) / (PAGEBLOCK_NR_PAGES - 1);
	if (lo > hi)
		lo = hi;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pack_small(free, NULL, mid, 0, NULL) == 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Pageblocks a type's free blocks need. */
static uint64_t need_blocks(const uint64_t free[NR_PAGE_ORDERS])
{
	return 2 * free[MAX_PAGE_ORDER] + free[PAGEBLOCK_ORDER] + min_partial_blocks(free);
}

/* Leave about `pages` free pages of a type allocated, smallest blocks
 * first (at least one block); returns the pages. */
static uint64_t drop_free(uint64_t free[NR_PAGE_ORDERS], uint64_t pages)
{
	uint64_t done = 0;

	for (int o = 0; o < NR_PAGE_ORDERS && (done < pages || !done); o++)
		while (free[o] && (done < pages || !done)) {
			free[o]--;
			done += 1ull << o;
		}
	return done;
}

/* ---- step 3: spreading ------------------------------------------------------------ */

/*
 * Spread n[0..k) items of k kinds evenly over one sequence: item j of kind
 * i sits at (2j+1)/(2 n[i]); equal places go in kind order.  out[] gets
 * the kinds, sum(n) entries.
 */
static void spread(const uint64_t *n, unsigned int k, uint8_t *out)
{
	uint64_t next[MIGRATE_TYPES] = { 0 }, total = 0;

	SIM_ASSERT(k <= MIGRATE_TYPES);
	for (unsigned int i = 0; i < k; i++)
		total += n[i];
	for (uint64_t pos = 0; pos < total; pos++) {
		int best = -1;

		for (unsigned int i = 0; i < k; i++) {
			if (next[i] == n[i])
				continue;
			if (best < 0 || (unsigned __int128)(2 * next[i] + 1) * n[best] <
					(unsigned __int128)(2 * next[best] + 1) * n[i])
				best = (int)i;
		}
		out[pos] = (uint8_t)best;
		next[best]++;
	}
}

static uint8_t *spread_types(const uint64_t n[MIGRATE_TYPES], uint64_t *total)
{
	uint8_t *seq;

	*total = 0;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		*total += n[mt];
	seq = xmalloc(*total ? *total : 1);
	spread(n, MIGRATE_TYPES, seq);
	return seq;
}

/* ---- steps 1-4 for one zone --------------------------------------------------------- */

static const char *const mt_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"
};

static int plan_zone(const struct mm_initial_state_zone *rec, const char *zname, pfn_t start,
		     unsigned long managed, bool build, struct is_plan *p, char *err, size_t errlen)
{
	uint64_t r = 0, u = managed >> PAGEBLOCK_ORDER, need[MIGRATE_TYPES], part[MIGRATE_TYPES];
	uint64_t nr_free9 = 0, nr_part = 0, rec_pages = 0, rec_free = 0, free_pages = 0;
	uint64_t max_drop;
	static const int donors[] = { MIGRATE_MOVABLE, MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE,
				      MIGRATE_HIGHATOMIC };

	memset(p, 0, sizeof(*p));
	p->usable = (unsigned long)u;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		r += rec->blocks[mt];
	if (!r)
		return sim_errf(err, errlen, "%s: zone '%s' has no pageblocks in 'Number of blocks type'",
				rec->where, zname);
	if (!u)
		return sim_errf(err, errlen, "%s: zone '%s' of the scenario has no whole managed pageblock "
				"to lay the recording out in", rec->where, zname);
	/* step 1 */
	scale_blocks(rec->blocks, r, u, p->blocks);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		scale_free(rec->free[mt], r, u, p->free[mt]);
	if (p->blocks[MIGRATE_ISOLATE] || small_blocks(p->free[MIGRATE_ISOLATE]) ||
	    p->free[MIGRATE_ISOLATE][PAGEBLOCK_ORDER] || p->free[MIGRATE_ISOLATE][MAX_PAGE_ORDER])
		return sim_errf(err, errlen, "%s: zone '%s': Isolate pageblocks or free pages reached the "
				"model (the CLI folds them into Movable)", rec->where, zname);
	/* step 2 */
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		rec_pages += rec->blocks[mt] << PAGEBLOCK_ORDER;
		for (int o = 0; o < NR_PAGE_ORDERS; o++) {
			rec_free += rec->free[mt][o] << o;
			free_pages += p->free[mt][o] << o;
		}
	}
	if (rec_free > rec_pages)
		return sim_errf(err, errlen, "%s: zone '%s' lists %" PRIu64 " free pages in %" PRIu64
				" pageblock%s (%" PRIu64 " pages): the file contradicts itself", rec->where,
				zname, rec_free, r, r == 1 ? "" : "s", rec_pages);
	max_drop = free_pages / 100 > 2 * PAGEBLOCK_NR_PAGES ? free_pages / 100 : 2 * PAGEBLOCK_NR_PAGES;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		need[mt] = need_blocks(p->free[mt]);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		for (;;) {
			uint64_t short_by = need[mt] > p->blocks[mt] ? need[mt] - p->blocks[mt] : 0;

			for (size_t d = 0; d < sizeof(donors) / sizeof(donors[0]) && short_by; d++) {
				int from = donors[d];
				uint64_t spare = p->blocks[from] > need[from] ? p->blocks[from] - need[from] : 0;
				uint64_t take = spare < short_by ? spare : short_by;

				if (from == mt)
					continue;
				p->blocks[from] -= take;
				p->blocks[mt] += take;
				p->moved += take;
				short_by -= take;
			}
			if (!short_by)
				break;
			p->dropped += drop_free(p->free[mt], short_by * (PAGEBLOCK_NR_PAGES / 2));
			if (p->dropped > max_drop)
				return sim_errf(err, errlen, "%s: zone '%s': the recording scaled to the "
						"scenario's %" PRIu64 " pageblocks does not fit: its %s free "
						"blocks need more pageblocks than the other types can spare "
						"(over %" PRIu64 " free pages would have to go); give the zone "
						"more memory ([machine] zones=)", rec->where, zname, u,
						mt_names[mt], max_drop);
			need[mt] = need_blocks(p->free[mt]);
		}
	}
	/* a free order-9 pageblock needs a partly used buddy: else a free one
	 * becomes used */
	for (;;) {
		nr_part = nr_free9 = 0;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			part[mt] = p->blocks[mt] - 2 * p->free[mt][MAX_PAGE_ORDER] -
				   p->free[mt][PAGEBLOCK_ORDER];
			nr_part += part[mt];
			nr_free9 += p->free[mt][PAGEBLOCK_ORDER];
		}
		if (nr_part >= nr_free9)
			break;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			if (p->free[MIGRATE_TYPES - 1 - mt][PAGEBLOCK_ORDER]) {
				p->free[MIGRATE_TYPES - 1 - mt][PAGEBLOCK_ORDER]--;
				break;
			}
		p->dropped += PAGEBLOCK_NR_PAGES;
		if (p->dropped > max_drop)
			return sim_errf(err, errlen, "%s: zone '%s': %" PRIu64 " free order-9 pageblocks "
					"(scaled) need as many partly used pageblocks beside them (else they "
					"would merge), the scaled recording leaves %" PRIu64, rec->where,
					zname, nr_free9, nr_part);
	}
	if (!build)
		return 0;

	/* step 3 */
	{
		uint64_t n10[MIGRATE_TYPES], n9[MIGRATE_TYPES], t10, t9, tp, kinds[3];
		uint8_t *seq10, *seq9, *seqp, *chunks;
		uint64_t i10 = 0, i9 = 0, ip = 0, nchunks, pb = 0;
		pfn_t **pbs = xcalloc(MIGRATE_TYPES, sizeof(*pbs));
		uint64_t npbs[MIGRATE_TYPES] = { 0 };

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			n10[mt] = p->free[mt][MAX_PAGE_ORDER];
			n9[mt] = p->free[mt][PAGEBLOCK_ORDER];
			pbs[mt] = xmalloc((part[mt] ? part[mt] : 1) * sizeof(pfn_t));
		}
		seq10 = spread_types(n10, &t10);
		seq9 = spread_types(n9, &t9);
		seqp = spread_types(part, &tp);
		kinds[0] = t10;
		kinds[1] = t9;
		kinds[2] = (tp - t9) / 2;
		nchunks = kinds[0] + kinds[1] + kinds[2];
		chunks = xmalloc(nchunks ? nchunks : 1);
		spread(kinds, 3, chunks);
		p->pbtype = xmalloc(u);

#define PARTIAL(at) do {						\
		int mt_ = seqp[ip++];					\
		p->pbtype[(at)] = (uint8_t)mt_;				\
		pbs[mt_][npbs[mt_]++] = start + (pfn_t)((at) << PAGEBLOCK_ORDER); \
	} while (0)
		for (uint64_t c = 0; c < nchunks; c++, pb += 2) {
			pfn_t pfn = start + (pfn_t)(pb << PAGEBLOCK_ORDER);

			if (chunks[c] == 0) {
				int mt = seq10[i10++];

				p->pbtype[pb] = p->pbtype[pb + 1] = (uint8_t)mt;
				vec_push(&p->fb, pfn, MAX_PAGE_ORDER, mt);
			} else if (chunks[c] == 1) {
				int mt = seq9[i9];
				uint64_t f = pb + (i9 & 1), q = pb + !(i9 & 1);

				i9++;
				p->pbtype[f] = (uint8_t)mt;
				vec_push(&p->fb, start + (pfn_t)(f << PAGEBLOCK_ORDER), PAGEBLOCK_ORDER, mt);
				PARTIAL(q);
			} else {
				PARTIAL(pb);
				PARTIAL(pb + 1);
			}
		}
		if (pb < u)		/* an odd pageblock before reserved frames */
			PARTIAL(pb);
#undef PARTIAL
		SIM_ASSERT(ip == tp && i10 == t10 && i9 == t9 && pb + (pb < u) >= u);
		/* step 4 */
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			if (pack_small(p->free[mt], pbs[mt], npbs[mt], mt, &p->fb))
				SIM_BUG("initial_state: zone %s %s: free blocks do not fit in %" PRIu64
					" pageblocks after the dry run said they would", zname, mt_names[mt],
					npbs[mt]);
			free(pbs[mt]);
		}
		free(pbs);
		free(seq10);
		free(seq9);
		free(seqp);
		free(chunks);
	}
	return 0;
}

static void plan_release(struct is_plan *p)
{
	free(p->pbtype);
	free(p->fb.v);
	memset(p, 0, sizeof(*p));
}

/* The zones of the recording and of the scenario must be the same ones. */
static int match_zones(const struct mm_initial_state *st, const unsigned long spanned[MAX_NR_ZONES],
		       char *err, size_t errlen)
{
	char have[64] = "";
	size_t len = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (spanned[z])
			len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%s", len ? ", " : "",
						zone_names[z]);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		if (st->zone[z].present && !spanned[z])
			return sim_errf(err, errlen, "%s: zone '%s' of the recording is not among the "
					"scenario's zones (%s); give [machine] zones= the recording's zones",
					st->zone[z].where, zone_names[z], have);
		if (!st->zone[z].present && spanned[z])
			return sim_errf(err, errlen, "%s: the scenario's zone '%s' is not in the recording; "
					"give [machine] zones= the recording's zones", st->source,
					zone_names[z]);
	}
	return 0;
}

int machine_initial_state_check(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
				const struct mm_initial_state *st, struct mm_initial_state *scaled,
				char *err, size_t errlen)
{
	unsigned long start[MAX_NR_ZONES], spanned[MAX_NR_ZONES], managed[MAX_NR_ZONES];

	if (machine_zone_geometry(cfg, sysctl, start, spanned, managed, err, errlen) ||
	    match_zones(st, spanned, err, errlen))
		return -1;
	if (scaled)
		*scaled = *st;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct is_plan p;

		if (!spanned[z])
			continue;
		if (plan_zone(&st->zone[z], zone_names[z], (pfn_t)start[z], managed[z], false, &p, err,
			      errlen))
			return -1;
		if (scaled) {
			memcpy(scaled->zone[z].blocks, p.blocks, sizeof(p.blocks));
			memcpy(scaled->zone[z].free, p.free, sizeof(p.free));
			scaled->zone[z].moved_blocks = p.moved;
			scaled->zone[z].dropped_pages = p.dropped;
		}
	}
	return 0;
}

/* ---- step 5: building ---------------------------------------------------------------- */

static int cmp_free_block(const void *a, const void *b)
{
	const struct is_free_block *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* Empty the zone's buddy lists: every managed frame becomes a bare tail. */
static void empty_zone(struct machine *m, struct zone *zone)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			while (!pfn_slots_empty(&zone->free_area[o].free_list[mt]))
				take_free_block_off_buddy(m, zone, pfn_slots_head(&zone->free_area[o].free_list[mt]),
							  o, mt);
}

/* Allocated content: what each managed, non-free frame becomes. */
struct is_fill {
	struct address_space	*file, *anon;
	uint64_t		file_w, anon_w, pgtable_w, kernel_w;
	uint64_t		nr_movable, nr_unmovable;	/* pages so far, for the ratios */
	unsigned long		file_index, anon_index;
	long			nr_anon, nr_pgtable, nr_slab, nr_slab_reclaimable;
};

/* Bresenham: is the i-th item of a stream the `a` share of a : b? */
static bool share_pick(uint64_t i, uint64_t a, uint64_t b)
{
	unsigned __int128 t = (unsigned __int128)a + b;

	if (!a)
		return false;
	return (unsigned __int128)(i + 1) * a / t > (unsigned __int128)i * a / t;
}

static void fill_frame(struct machine *m, struct is_fill *f, pfn_t pfn, int mt, bool laid_out)
{
	struct page *page = pfn_to_page(m, pfn);
	int ret;

	page->next = page->prev = PFN_NONE;
	page->index = 0;
	page->mapping = 0;
	page->flags = 0;
	if (!laid_out) {
		set_page_type_order(page, PGTY_KERNEL, 0);
		return;
	}
	switch (mt) {
	case MIGRATE_MOVABLE: {
		bool anon = f->file_w + f->anon_w ? share_pick(f->nr_movable, f->anon_w, f->file_w) : false;

		f->nr_movable++;
		set_page_type_order(page, PGTY_ALLOC, 0);
		if (anon) {
			if (!f->anon)
				f->anon = mapping_create(m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL,
							 "initial_state anon");
			ret = filemap_add_folio(m, f->anon, pfn, f->anon_index++);
			f->nr_anon++;
		} else {
			if (!f->file)
				f->file = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE, 0, 0, 0, NULL,
							 "initial_state page cache");
			ret = filemap_add_folio(m, f->file, pfn, f->file_index++);
		}
		if (ret)
			SIM_BUG("initial_state: inserting pfn %u into its mapping failed (%d)", pfn, ret);
		break;
	}
	case MIGRATE_UNMOVABLE:
		if (share_pick(f->nr_unmovable++, f->pgtable_w, f->kernel_w)) {
			set_page_type_order(page, PGTY_PGTABLE, 0);
			f->nr_pgtable++;
		} else {
			set_page_type_order(page, PGTY_KERNEL, 0);
			f->nr_slab++;
		}
		break;
	case MIGRATE_RECLAIMABLE:
		set_page_type_order(page, PGTY_RECLAIMABLE, 0);
		f->nr_slab_reclaimable++;
		break;
	default:
		set_page_type_order(page, PGTY_KERNEL, 0);
		break;
	}
}

static void build_zone(struct machine *m, struct zone *zone, const struct is_plan *p,
		       struct is_fill *f)
{
	pfn_t start = (pfn_t)zone->zone_start_pfn, end = start + (pfn_t)zone->managed_pages;
	pfn_t laid_end = start + (pfn_t)(p->usable << PAGEBLOCK_ORDER);

	sim_spin_lock(m->sim, &zone->lock);
	empty_zone(m, zone);
	for (unsigned long b = 0; b < p->usable; b++) {
		pfn_t pfn = start + (pfn_t)(b << PAGEBLOCK_ORDER);

		set_pageblock_migratetype(m, pfn, p->pbtype[b]);
		if (p->pbtype[b] == MIGRATE_HIGHATOMIC)
			zone->nr_reserved_highatomic += pageblock_nr_pages;
	}
	for (size_t i = 0; i < p->fb.n; i++) {
		const struct is_free_block *b = &p->fb.v[i];
		const struct page *head = pfn_to_page(m, b->pfn);

		__free_one_page(m, zone, b->pfn, b->order, b->mt, FPI_TO_TAIL);
		if (head->type_order != ((PGTY_BUDDY << 4) | b->order))
			SIM_BUG("initial_state: zone %s: the free block at pfn %u order %u merged",
				zone->name, b->pfn, b->order);
	}
	sim_spin_unlock(m->sim, &zone->lock);
	for (pfn_t pfn = start; pfn < end;) {
		const struct page *page = pfn_to_page(m, pfn);

		if (page_type(page) == PGTY_BUDDY) {
			pfn += 1u << page_order(page);
			continue;
		}
		fill_frame(m, f, pfn, get_pfnblock_migratetype(m, pfn), pfn < laid_end);
		pfn++;
	}
}

int machine_load_initial_state(struct machine *m, const struct mm_initial_state *st,
			       char *err, size_t errlen)
{
	unsigned long spanned[MAX_NR_ZONES];
	struct is_plan plan[MAX_NR_ZONES];
	struct is_fill fill;
	int rc = 0;

	SIM_ASSERT(!m->started);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		spanned[z] = m->node.node_zones[z].spanned_pages;
	if (match_zones(st, spanned, err, errlen))
		return -1;
	memset(plan, 0, sizeof(plan));
	for (int z = 0; z < MAX_NR_ZONES && !rc; z++) {
		const struct zone *zone = &m->node.node_zones[z];

		if (populated_zone(zone))
			rc = plan_zone(&st->zone[z], zone->name, (pfn_t)zone->zone_start_pfn,
				       zone->managed_pages, true, &plan[z], err, errlen);
	}
	if (rc) {
		for (int z = 0; z < MAX_NR_ZONES; z++)
			plan_release(&plan[z]);
		return -1;
	}
	memset(&fill, 0, sizeof(fill));
	fill.file_w = st->file;
	fill.anon_w = st->anon;
	fill.pgtable_w = st->pgtable;
	fill.kernel_w = st->kernel;
	if (!st->file && !st->anon)
		fill.file_w = 1;
	if (!st->pgtable && !st->kernel)
		fill.kernel_w = 1;
	m->charging = false;		/* like boot: the state is there at time 0 */
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &m->node.node_zones[z];

		if (populated_zone(zone)) {
			qsort(plan[z].fb.v, plan[z].fb.n, sizeof(*plan[z].fb.v), cmp_free_block);
			build_zone(m, zone, &plan[z], &fill);
		}
		plan_release(&plan[z]);
	}
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		lru_add_drain_cpu(m, cpu);
	__mod_node_page_state(&m->node, NR_ANON_MAPPED, fill.nr_anon);
	__mod_node_page_state(&m->node, NR_PAGETABLE, fill.nr_pgtable);
	__mod_node_page_state(&m->node, NR_SLAB_UNRECLAIMABLE_B, fill.nr_slab * (long)PAGE_SIZE);
	__mod_node_page_state(&m->node, NR_SLAB_RECLAIMABLE_B, fill.nr_slab_reclaimable * (long)PAGE_SIZE);
	m->initial_slab_pages[0] = fill.nr_slab_reclaimable;
	m->initial_slab_pages[1] = fill.nr_slab;
	m->charging = true;
	mm_op_done(m);
	return 0;
}
