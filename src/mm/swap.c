/* SPDX-License-Identifier: MIT */
/*
 * swap.c — LRU list maintenance (mm/swap.c and include/linux/mm_inline.h,
 * Linux 6.12).  See swap.h for the data structure and simplifications.
 *
 * Steps of folio_add_lru() as modelled:
 *   1. Append the folio to this CPU's lru_add batch (cost lru_batch_add).
 *   2. If the batch is full or the folio is large, move the whole batch:
 *      take the node's lru_lock once, put each folio on the head of its
 *      list (PG_lru set, counters updated; cost lru_move per folio),
 *      release the lock.
 */
#include <string.h>

#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/swap.h"
#include "mm/vmstat.h"

void lruvec_init(struct sim *sim, struct lruvec *lruvec)
{
	memset(lruvec, 0, sizeof(*lruvec));
	for (int i = 0; i < NR_LRU_LISTS; i++)
		pfn_list_init(&lruvec->lists[i]);
	sim_spin_init(sim, &lruvec->lru_lock, "lru_lock");
}

struct lruvec *folio_lruvec(struct machine *m, pfn_t pfn)
{
	(void)pfn;	/* one node, no memcg */
	return &m->node.__lruvec;
}

/* update_lru_size(): node counter NR_LRU_BASE + lru and zone counter
 * NR_ZONE_LRU_BASE + lru, plus the model's exact per-list page count. */
static void update_lru_size(struct machine *m, struct lruvec *lruvec, enum lru_list lru,
			    pfn_t pfn, long nr)
{
	lruvec->nr_pages[lru] += (unsigned long)nr;
	__mod_node_page_state(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru), nr);
	__mod_zone_page_state(page_zone(m, pfn), (enum zone_stat_item)(NR_ZONE_INACTIVE_ANON + lru), nr);
}

static void lruvec_add(struct machine *m, struct lruvec *lruvec, pfn_t pfn, bool tail)
{
	struct page *page = pfn_to_page(m, pfn);
	enum lru_list lru = folio_lru_list(page);

	SIM_ASSERT(!(page->flags & (PG_lru | PG_isolated)));
	if (tail)
		pfn_list_add_tail(m->mem_map, &lruvec->lists[lru], pfn);
	else
		pfn_list_add(m->mem_map, &lruvec->lists[lru], pfn);
	page->flags |= PG_lru;
	update_lru_size(m, lruvec, lru, pfn, (long)folio_nr_pages(page));
}

void lruvec_add_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn)
{
	lruvec_add(m, lruvec, pfn, false);
}

void lruvec_add_folio_tail(struct machine *m, struct lruvec *lruvec, pfn_t pfn)
{
	lruvec_add(m, lruvec, pfn, true);
}

void lruvec_del_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	enum lru_list lru = folio_lru_list(page);

	SIM_ASSERT(page->flags & PG_lru);
	pfn_list_del(m->mem_map, &lruvec->lists[lru], pfn);
	page->flags &= (uint8_t)~PG_lru;
	update_lru_size(m, lruvec, lru, pfn, -(long)folio_nr_pages(page));
}

/* folio_batch_move_lru() for the lru_add batch: one lru_lock hold for
 * the whole batch (mm/swap.c lru_add_fn per folio). */
static void folio_batch_move_lru(struct machine *m, struct folio_batch *fbatch)
{
	struct lruvec *lruvec = &m->node.__lruvec;
	unsigned int n;

	if (!fbatch->nr)
		return;
	sim_spin_lock(m->sim, &lruvec->lru_lock);
	/* One folio at a time leaves the batch and enters the list with no
	 * sync point in between (lruvec_add's counter updates may sync on a
	 * vmstat line): at every sync point a folio is either in the batch or
	 * on the LRU, as mm_check and folio_lru_forget expect. */
	for (n = 0; fbatch->nr; n++) {
		pfn_t pfn = fbatch->pfns[0];

		memmove(&fbatch->pfns[0], &fbatch->pfns[1], (fbatch->nr - 1) * sizeof(pfn_t));
		fbatch->nr--;
		lruvec_add_folio(m, lruvec, pfn);
	}
	mm_charge(m, COST_lru_move, n);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
}

void folio_add_lru(struct machine *m, pfn_t pfn)
{
	struct folio_batch *fbatch = &m->fbatches[mm_this_cpu(m)].lru_add;
	const struct page *page = pfn_to_page(m, pfn);

	SIM_ASSERT(page_type(page) == PGTY_FILE || page_type(page) == PGTY_SHMEM ||
		   page_type(page) == PGTY_ANON);
	SIM_ASSERT(!(page->flags & (PG_lru | PG_isolated)));
	mm_charge(m, COST_lru_batch_add, 1);
	/* The kernel fills the batch under local_lock (no preemption).  In
	 * the model, folio_batch_move_lru syncs on lru_lock, and another task
	 * on this CPU may add to the batch meanwhile: never add to a full one. */
	while (fbatch->nr >= FOLIO_BATCH_SIZE)
		folio_batch_move_lru(m, fbatch);
	fbatch->pfns[fbatch->nr++] = pfn;
	if (fbatch->nr == FOLIO_BATCH_SIZE || page_order(page) > 0)
		folio_batch_move_lru(m, fbatch);
}

void lru_add_drain_cpu(struct machine *m, unsigned int cpu)
{
	folio_batch_move_lru(m, &m->fbatches[cpu].lru_add);
}

void lru_add_drain(struct machine *m)
{
	lru_add_drain_cpu(m, mm_this_cpu(m));
}

/* lru_add_drain_all(): the kernel queues work on every CPU with a
 * non-empty batch and waits for it; the model drains them from the
 * caller (the per-CPU work's cost is charged to the caller). */
void lru_add_drain_all(struct machine *m)
{
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		lru_add_drain_cpu(m, cpu);
}

/* Move a folio that is on an LRU list to the head (or tail) of the list
 * its flags select after `update` changed them. */
static void lru_move_folio(struct machine *m, pfn_t pfn, uint8_t set, uint8_t clear, bool tail)
{
	struct lruvec *lruvec = folio_lruvec(m, pfn);
	struct page *page = pfn_to_page(m, pfn);

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	if (page->flags & PG_lru) {
		lruvec_del_folio(m, lruvec, pfn);
		page->flags = (uint8_t)((page->flags | set) & ~clear);
		lruvec_add(m, lruvec, pfn, tail);
		mm_charge(m, COST_lru_move, 1);
	}
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
}

void folio_activate(struct machine *m, pfn_t pfn)
{
	const struct page *page = pfn_to_page(m, pfn);

	if ((page->flags & (PG_lru | PG_active | PG_unevictable)) != PG_lru)
		return;
	lru_move_folio(m, pfn, PG_active, PG_referenced, false);
	__count_vm_events(m, PGACTIVATE, folio_nr_pages(page));
}

void folio_deactivate(struct machine *m, pfn_t pfn)
{
	const struct page *page = pfn_to_page(m, pfn);

	if ((page->flags & (PG_lru | PG_active | PG_unevictable)) != (PG_lru | PG_active))
		return;
	lru_move_folio(m, pfn, 0, PG_active | PG_referenced, false);
	__count_vm_events(m, PGDEACTIVATE, folio_nr_pages(page));
}

/* folio_mark_accessed() (mm/swap.c, 6.12, classic LRU). */
void folio_mark_accessed(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	if (!(page->flags & PG_referenced)) {
		page->flags |= PG_referenced;
	} else if (!(page->flags & (PG_active | PG_unevictable)) && (page->flags & PG_lru)) {
		folio_activate(m, pfn);
	}
}

/* folio_rotate_reclaimable() (mm/swap.c): only inactive, evictable
 * folios on an LRU list move; the kernel counts PGROTATED. */
void folio_rotate_reclaimable(struct machine *m, pfn_t pfn)
{
	const struct page *page = pfn_to_page(m, pfn);

	if ((page->flags & (PG_lru | PG_active | PG_unevictable)) != PG_lru)
		return;
	lru_move_folio(m, pfn, 0, 0, true);
	__count_vm_events(m, PGROTATED, folio_nr_pages(page));
}

static enum node_stat_item isolated_item(const struct page *page)
{
	return folio_is_file_lru(page) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON;
}

/*
 * folio_isolate_lru() (mm/vmscan.c, 6.12).  The kernel leaves the
 * NR_ISOLATED_* accounting to its callers; every caller does it, so the
 * model does it here.
 */
/* ---- the isolation reference (see swap.h) ------------------------------------ */

#define ISOLATION_ORPHAN	1	/* tag: the owner freed it */

void folio_isolation_get(struct machine *m, pfn_t pfn)
{
	if (!pfn_set_add(&m->isolated, pfn))
		SIM_BUG("folio at pfn %u isolated twice", pfn);
}

bool folio_isolation_held(const struct machine *m, pfn_t pfn)
{
	return pfn_set_has(&m->isolated, pfn);
}

bool folio_isolation_orphaned(const struct machine *m, pfn_t pfn)
{
	uint8_t *tag = pfn_set_tag((struct pfn_set *)&m->isolated, pfn);

	return tag && (*tag & ISOLATION_ORPHAN);
}

void folio_isolation_orphan(struct machine *m, pfn_t pfn)
{
	uint8_t *tag = pfn_set_tag(&m->isolated, pfn);

	SIM_ASSERT(tag);
	*tag |= ISOLATION_ORPHAN;
}

bool folio_isolation_put(struct machine *m, pfn_t pfn)
{
	bool orphan = folio_isolation_orphaned(m, pfn);

	if (!pfn_set_del(&m->isolated, pfn))
		SIM_BUG("folio at pfn %u released but not isolated", pfn);
	return orphan;
}

void folio_free_orphan(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	unsigned int order = page_order(page);

	mod_node_page_state(&m->node, isolated_item(page), -(long)folio_nr_pages(page));
	page->flags = 0;
	free_unref_page(m, pfn, order);
}

bool folio_isolate_lru(struct machine *m, pfn_t pfn)
{
	struct lruvec *lruvec = folio_lruvec(m, pfn);
	struct page *page = pfn_to_page(m, pfn);

	if (!(page->flags & PG_lru))
		return false;
	sim_spin_lock(m->sim, &lruvec->lru_lock);
	lruvec_del_folio(m, lruvec, pfn);
	folio_isolation_get(m, pfn);
	page->flags |= PG_isolated;
	mod_node_page_state(&m->node, isolated_item(page), (long)folio_nr_pages(page));
	mm_charge(m, COST_lru_move, 1);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
	return true;
}

/* folio_putback_lru(): back through the lru_add batch, or — the owner
 * having let go meanwhile — freed (the isolator's put was the last). */
void folio_putback_lru(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	if (folio_isolation_put(m, pfn)) {
		folio_free_orphan(m, pfn);
		return;
	}
	SIM_ASSERT(page->flags & PG_isolated);
	page->flags &= (uint8_t)~PG_isolated;
	mod_node_page_state(&m->node, isolated_item(page), -(long)folio_nr_pages(page));
	folio_add_lru(m, pfn);
}

void folio_lru_forget(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	if (page->flags & PG_lru) {
		struct lruvec *lruvec = folio_lruvec(m, pfn);

		sim_spin_lock(m->sim, &lruvec->lru_lock);
		lruvec_del_folio(m, lruvec, pfn);
		sim_spin_unlock(m->sim, &lruvec->lru_lock);
		return;
	}
	if (folio_isolation_held(m, pfn)) {
		/* Reclaim or compaction holds it (the kernel's isolation
		 * reference): the isolator frees it when it finds the owner
		 * gone (__free_pages defers the free). */
		return;
	}
	/* Still in a per-CPU lru_add batch: the kernel would drain the batch
	 * first (the batch holds a reference); the model removes it. */
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct folio_batch *fb = &m->fbatches[cpu].lru_add;

		for (unsigned int i = 0; i < fb->nr; i++) {
			if (fb->pfns[i] != pfn)
				continue;
			memmove(&fb->pfns[i], &fb->pfns[i + 1], (fb->nr - i - 1) * sizeof(pfn_t));
			fb->nr--;
			return;
		}
	}
}
