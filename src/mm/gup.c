/* SPDX-License-Identifier: MIT */
/*
 * gup.c — get_user_pages-fast and pin_user_pages-fast, their release, and
 * the FOLL_PIN accounting (mm/gup.c, Linux 6.12).
 *
 * What a pin does to a folio (try_grab_folio_fast, FOLL_PIN):
 *
 *   small folio:  _refcount += refs (try_get_folio)           one atomic
 *                 _refcount += refs * (1024 - 1)              one atomic
 *   large folio:  _refcount += refs (try_get_folio)           one atomic
 *                 _pincount += refs                           one atomic
 *   then          smp_mb__after_atomic()                      a full barrier
 *                 node_stat_mod_folio(NR_FOLL_PIN_ACQUIRED, refs)
 *
 *   and the release (gup_put_folio, FOLL_PIN):
 *                 node_stat_mod_folio(NR_FOLL_PIN_RELEASED, refs)
 *   large folio:  _pincount -= refs                           one atomic
 *   small folio:  refs *= 1024
 *                 _refcount -= refs (folio_put_refs)          one atomic
 *
 * FOLL_GET (get_user_pages_fast, the pre-6.3 O_DIRECT path) is the one
 * try_get_folio atomic, released by put_page: nothing is counted.
 *
 * node_stat_mod_folio() is mod_node_page_state() (vmstat.c): a per-CPU
 * cmpxchg on an s8 diff; when the diff passes the node threshold (<= 125,
 * refresh_zone_stat_thresholds, mm/vmstat.c) the whole value is folded with two atomics on cache lines
 * every CPU shares (pgdat->vm_stat[] and vm_node_stat[]; both FOLL_PIN
 * items sit on one line), and vmstat.c makes those lines contended
 * resources.  So with refs = 1 a CPU folds every threshold + 1 pins and
 * every threshold + 1 unpins: 2 folds x 2 shared atomics per
 * (threshold + 1) pinned pages.
 *
 * The walk (gup_fast -> gup_fast_pte_range / gup_fast_pmd_leaf):
 *
 *   PTE-mapped buffer:  one step per page, try_grab_folio_fast(page, 1)
 *   PMD-mapped buffer:  one step per 2 MiB folio in range,
 *                       try_grab_folio_fast(head, pages in range)
 *   each grabbed folio: folio_set_referenced() (an atomic bit set)
 *
 * The accounting mode (enum foll_pin_accounting, [machine]
 * foll_pin_accounting) replaces node_stat_mod_folio for the two FOLL_PIN
 * items: `node` and `none` call mod_node_page_state (before 6.3 FOLL_PIN
 * already counted: `none` changes only what the block layer asks for,
 * direct-io.c), `nostat` counts nothing, `percpu` adds to a per-CPU event
 * count (per_cpu_nodestat.foll_pin_events, one percpu_add, summed by the
 * vmstat readers).
 *
 * Costs: gup_fast_walk per call, gup_fast_pte per PTE or
 * gup_fast_pmd_leaf per PMD leaf, atomic_local per refcount/pincount/flag
 * atomic, smp_mb per pinned folio, and what vmstat.c charges.
 *
 * Simplifications: the buffer is always mapped, present and writable, so
 * GUP-fast never falls back to the slow path (no faults, no
 * FOLL_LONGTERM migration, no COW unsharing); the PTE re-check never
 * fails; no zero page, no devmap, no hugetlb-specific paths (a PMD-mapped
 * buffer behaves as a PMD-mapped THP); one node.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mm/gup.h"
#include "mm/internal.h"

const char *const foll_pin_accounting_names[NR_FOLL_PIN_ACCT + 1] = {
	[FOLL_PIN_ACCT_NODE] = "node",
	[FOLL_PIN_ACCT_NONE] = "none",
	[FOLL_PIN_ACCT_NOSTAT] = "nostat",
	[FOLL_PIN_ACCT_PERCPU] = "percpu",
	[NR_FOLL_PIN_ACCT] = NULL,
};

/* ---- the buffer ------------------------------------------------------------------- */

void user_buffer_discard(struct user_buffer *ub)
{
	free(ub->folio_pfn);
	free(ub->refcount);
	free(ub->pincount);
	free(ub->block_pfn);
	memset(ub, 0, sizeof(*ub));
}

static void user_buffer_release(struct machine *m, struct user_buffer *ub)
{
	for (unsigned long b = 0; b < ub->nr_blocks; b++)
		free_pages(m, ub->block_pfn[b], ub->block_order);
	user_buffer_discard(ub);
}

int user_buffer_alloc(struct machine *m, struct user_buffer *ub, unsigned long nr_pages,
		      unsigned int folio_order)
{
	unsigned long per_block;

	SIM_ASSERT(nr_pages > 0);
	SIM_ASSERT(folio_order == 0 || folio_order == HPAGE_PMD_ORDER);
	memset(ub, 0, sizeof(*ub));
	ub->folio_order = folio_order;
	ub->nr_folios = (nr_pages + (1UL << folio_order) - 1) >> folio_order;
	ub->nr_pages = ub->nr_folios << folio_order;
	ub->block_order = folio_order;
	while (!folio_order && ub->block_order < MAX_PAGE_ORDER && (1UL << ub->block_order) < ub->nr_pages)
		ub->block_order++;
	per_block = 1UL << ub->block_order;
	ub->folio_pfn = calloc(ub->nr_folios, sizeof(*ub->folio_pfn));
	ub->refcount = calloc(ub->nr_folios, sizeof(*ub->refcount));
	ub->pincount = calloc(ub->nr_folios, sizeof(*ub->pincount));
	ub->block_pfn = calloc((ub->nr_pages + per_block - 1) / per_block, sizeof(*ub->block_pfn));
	if (!ub->folio_pfn || !ub->refcount || !ub->pincount || !ub->block_pfn)
		SIM_BUG("out of memory");
	while (ub->nr_blocks < (ub->nr_pages + per_block - 1) / per_block) {
		pfn_t pfn = alloc_pages(m, GFP_HIGHUSER_MOVABLE, ub->block_order, PGTY_ALLOC);

		if (pfn == PFN_NONE) {
			user_buffer_release(m, ub);
			return -ENOMEM;
		}
		ub->block_pfn[ub->nr_blocks++] = pfn;
	}
	for (unsigned long f = 0; f < ub->nr_folios; f++) {
		unsigned long page = f << folio_order;

		ub->folio_pfn[f] = ub->block_pfn[page / per_block] + (pfn_t)(page % per_block);
		ub->refcount[f] = 1;	/* the page table's reference */
	}
	return 0;
}

void user_buffer_free(struct machine *m, struct user_buffer *ub)
{
	for (unsigned long f = 0; f < ub->nr_folios; f++)
		if (ub->refcount[f] != 1 || ub->pincount[f] != 0)
			SIM_BUG("user buffer freed with folio %lu still held (refcount %d, pincount %d)",
				f, ub->refcount[f], ub->pincount[f]);
	user_buffer_release(m, ub);
}

/* ---- accounting ------------------------------------------------------------------- */

/*
 * node_stat_mod_folio(folio, NR_FOLL_PIN_ACQUIRED or _RELEASED, refs)
 * (include/linux/vmstat.h, 6.12) under the machine's accounting mode.
 * A fold shows as a change of the node counter; it is counted for reports.
 */
static void foll_pin_stat_mod(struct machine *m, enum node_stat_item item, long refs)
{
	pg_data_t *pgdat = &m->node;

	switch ((enum foll_pin_accounting)m->foll_pin_accounting) {
	case FOLL_PIN_ACCT_NODE:
	case FOLL_PIN_ACCT_NONE: {
		int64_t before = pgdat->vm_stat[item];

		sim_path_push(m->sim, "mod_node_page_state");
		mod_node_page_state(pgdat, item, refs);
		sim_path_pop(m->sim);
		if (pgdat->vm_stat[item] != before)
			m->gup_stat_folds++;
		break;
	}
	case FOLL_PIN_ACCT_PERCPU:
		/* this_cpu_add(): preemption-safe per-CPU add, no fold */
		pgdat->per_cpu_nodestats[mm_this_cpu(m)].foll_pin_events[item - NR_FOLL_PIN_ACQUIRED] +=
			(uint64_t)refs;
		mm_charge(m, COST_percpu_add, 1);
		break;
	case FOLL_PIN_ACCT_NOSTAT:
		break;
	default:
		SIM_BUG("bad foll_pin_accounting %d", m->foll_pin_accounting);
	}
}

/* ---- grabbing and releasing ---------------------------------------------------------- */

/* try_get_folio() (6.12): one atomic on _refcount; never fails here. */
static void try_get_folio(struct machine *m, struct user_buffer *ub, unsigned long folio, int refs)
{
	SIM_ASSERT(ub->refcount[folio] > 0);
	ub->refcount[folio] += refs;
	mm_charge(m, COST_atomic_local, 1);
}

/*
 * try_grab_folio_fast() (6.12) for a folio that is mapped and pinnable.
 * Not modelled: FOLL_PCI_P2PDMA, the zero page, FOLL_LONGTERM refusal.
 */
static void try_grab_folio_fast(struct machine *m, struct user_buffer *ub, unsigned long folio,
				int refs, unsigned int flags)
{
	SIM_ASSERT(!(flags & FOLL_GET) != !(flags & FOLL_PIN));
	try_get_folio(m, ub, folio, refs);
	if (flags & FOLL_GET) {
		m->gup_got += (uint64_t)refs;
		return;
	}
	if (user_folio_large(ub))
		ub->pincount[folio] += refs;
	else
		ub->refcount[folio] += refs * (int)(GUP_PIN_COUNTING_BIAS - 1);
	mm_charge(m, COST_atomic_local, 1);
	mm_charge(m, COST_smp_mb, 1);		/* smp_mb__after_atomic() */
	foll_pin_stat_mod(m, NR_FOLL_PIN_ACQUIRED, refs);
	m->gup_pinned += (uint64_t)refs;
}

/* gup_put_folio() (6.12). */
static void gup_put_folio(struct machine *m, struct user_buffer *ub, unsigned long folio, int refs,
			  unsigned int flags)
{
	SIM_ASSERT(folio < ub->nr_folios);
	if (flags & FOLL_PIN) {
		foll_pin_stat_mod(m, NR_FOLL_PIN_RELEASED, refs);
		m->gup_unpinned += (uint64_t)refs;
		if (user_folio_large(ub)) {
			ub->pincount[folio] -= refs;
			mm_charge(m, COST_atomic_local, 1);
			if (ub->pincount[folio] < 0)
				SIM_BUG("folio %lu unpinned more often than pinned", folio);
		} else {
			refs *= (int)GUP_PIN_COUNTING_BIAS;
		}
	} else {
		m->gup_put += (uint64_t)refs;
	}
	/* folio_put_refs(): the page table's reference always remains */
	ub->refcount[folio] -= refs;
	mm_charge(m, COST_atomic_local, 1);
	if (ub->refcount[folio] < 1)
		SIM_BUG("folio %lu released below its mapping's reference (refcount %d)", folio,
			ub->refcount[folio]);
}

/*
 * gup_fast() (6.12) -> gup_fast_pgd_range -> gup_fast_pte_range or
 * gup_fast_pmd_leaf, inside local_irq_save/restore.  One walk charge per
 * call (a range within one PMD, as an I/O buffer of up to 2 MiB is).
 */
static long gup_fast(struct machine *m, struct user_buffer *ub, unsigned long first,
		     unsigned long nr_pages, unsigned int flags)
{
	unsigned long end = first + nr_pages;

	SIM_ASSERT(nr_pages > 0 && end <= ub->nr_pages);
	mm_charge(m, COST_gup_fast_walk, 1);
	if (!user_folio_large(ub)) {
		for (unsigned long page = first; page < end; page++) {
			mm_charge(m, COST_gup_fast_pte, 1);
			try_grab_folio_fast(m, ub, page, 1, flags);
			mm_charge(m, COST_atomic_local, 1);	/* folio_set_referenced() */
		}
		return (long)nr_pages;
	}
	for (unsigned long page = first; page < end;) {
		unsigned long folio = user_folio_of(ub, page);
		unsigned long folio_end = (folio + 1) << ub->folio_order;
		unsigned long refs = (folio_end < end ? folio_end : end) - page;

		mm_charge(m, COST_gup_fast_pmd_leaf, 1);
		try_grab_folio_fast(m, ub, folio, (int)refs, flags);
		mm_charge(m, COST_atomic_local, 1);		/* folio_set_referenced() */
		page += refs;
	}
	return (long)nr_pages;
}

/* The entry points add FOLL_PIN or FOLL_GET to the caller's flags. */
static long gup_fast_entry(struct machine *m, struct user_buffer *ub, unsigned long first,
			   unsigned long nr_pages, unsigned int gup_flags, unsigned int grab,
			   const char *path)
{
	long n;

	SIM_ASSERT(!(gup_flags & (FOLL_GET | FOLL_PIN)));
	sim_path_push(m->sim, path);
	n = gup_fast(m, ub, first, nr_pages, gup_flags | grab);
	sim_path_pop(m->sim);
	return n;
}

/* pin_user_pages_fast() (6.12). */
long pin_user_pages_fast(struct machine *m, struct user_buffer *ub, unsigned long first,
			 unsigned long nr_pages, unsigned int gup_flags)
{
	return gup_fast_entry(m, ub, first, nr_pages, gup_flags, FOLL_PIN, "pin_user_pages_fast");
}

/* get_user_pages_fast() (6.12). */
long get_user_pages_fast(struct machine *m, struct user_buffer *ub, unsigned long first,
			 unsigned long nr_pages, unsigned int gup_flags)
{
	return gup_fast_entry(m, ub, first, nr_pages, gup_flags, FOLL_GET, "get_user_pages_fast");
}

/* unpin_user_folio() (6.12). */
void unpin_user_folio(struct machine *m, struct user_buffer *ub, unsigned long folio,
		      unsigned long npages)
{
	sim_path_push(m->sim, "unpin_user_folio");
	gup_put_folio(m, ub, folio, (int)npages, FOLL_PIN);
	sim_path_pop(m->sim);
}

/* unpin_user_page() (6.12). */
void unpin_user_page(struct machine *m, struct user_buffer *ub, unsigned long page)
{
	unpin_user_folio(m, ub, user_folio_of(ub, page), 1);
}

/* unpin_user_pages() (6.12): runs of pages of one folio (gup_folio_next)
 * are released with one gup_put_folio each. */
void unpin_user_pages(struct machine *m, struct user_buffer *ub, unsigned long first,
		      unsigned long nr_pages)
{
	for (unsigned long page = first; page < first + nr_pages;) {
		unsigned long folio = user_folio_of(ub, page);
		unsigned long folio_end = (folio + 1) << ub->folio_order;
		unsigned long end = first + nr_pages;
		unsigned long nr = (folio_end < end ? folio_end : end) - page;

		unpin_user_folio(m, ub, folio, nr);
		page += nr;
	}
}

/* put_page() (include/linux/mm.h, 6.12): folio_put of a FOLL_GET reference. */
void put_page(struct machine *m, struct user_buffer *ub, unsigned long page)
{
	gup_put_folio(m, ub, user_folio_of(ub, page), 1, 0);
}

/* folio_maybe_dma_pinned() (6.12): exact for large folios (_pincount),
 * a refcount heuristic for small ones. */
bool folio_maybe_dma_pinned(const struct user_buffer *ub, unsigned long folio)
{
	if (user_folio_large(ub))
		return ub->pincount[folio] > 0;
	return (unsigned int)ub->refcount[folio] >= GUP_PIN_COUNTING_BIAS;
}
