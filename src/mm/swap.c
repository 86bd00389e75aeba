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

#include "mm/folio_lock.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "sim/xalloc.h"

_Static_assert(LRU_GEN_NR_ZONES == MAX_NR_ZONES, "lru_gen lists are per zone");

void lruvec_init(struct sim *sim, struct lruvec *lruvec)
{
	memset(lruvec, 0, sizeof(*lruvec));
	for (int i = 0; i < NR_LRU_LISTS; i++)
		pfn_list_init(&lruvec->lists[i]);
	for (int g = 0; g < MAX_NR_GENS; g++)
		for (int t = 0; t < ANON_AND_FILE; t++)
			for (int z = 0; z < MAX_NR_ZONES; z++)
				pfn_list_init(&lruvec->lrugen.folios[g][t][z]);
	sim_spin_init(sim, &lruvec->lru_lock, "lru_lock");
}

/* ---- MGLRU: generations (include/linux/mm_inline.h, 6.12) ------------------ */

/*
 * lru_gen_init() — models lru_gen_init_lruvec() (mm/vmscan.c, 6.12) on a
 * kernel built with CONFIG_LRU_GEN_ENABLED=y: max_seq starts at
 * MIN_NR_GENS + 1 and min_seq at 0, so four generations exist, all born
 * now.  Simplified: switching at run time (writing
 * /sys/kernel/mm/lru_gen/enabled, which drains the lists from one LRU to
 * the other) is not modelled; the switch is made before any folio is on
 * an LRU.
 */
void lru_gen_init(struct machine *m, unsigned long min_ttl_ms)
{
	struct lruvec *lruvec = &m->node.__lruvec;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++)
		SIM_ASSERT(pfn_list_empty(&lruvec->lists[lru]));
	if (!m->lru_gen_flags) {
		m->lru_gen_flags = xzalloc(m->nr_pfns);
		m->footprint += m->nr_pfns;
	}
	lrugen->enabled = true;
	lrugen->max_seq = MIN_NR_GENS + 1;
	lrugen->min_seq[LRU_GEN_ANON] = lrugen->min_seq[LRU_GEN_FILE] = 0;
	for (int g = 0; g < MAX_NR_GENS; g++)
		lrugen->timestamps[g] = sim_now(m->sim);
	lrugen->min_ttl_ms = min_ttl_ms;
}

/* lru_gen_enabled() (include/linux/mm_inline.h, 6.12): the static key
 * LRU_GEN_CORE; in the model a per-machine flag set at boot. */
bool lru_gen_enabled(const struct machine *m)
{
	return m->node.__lruvec.lrugen.enabled;
}

/* The frame byte standing in for the LRU_GEN/LRU_REFS/PG_workingset
 * bits of folio->flags (model helpers; 0 with MGLRU off). */
uint8_t folio_lru_gen_flags(const struct machine *m, pfn_t pfn)
{
	return m->lru_gen_flags ? m->lru_gen_flags[pfn] : 0;
}

void folio_set_lru_gen_flags(struct machine *m, pfn_t pfn, uint8_t v)
{
	if (m->lru_gen_flags)
		m->lru_gen_flags[pfn] = v;
}

/* folio_lru_gen() (include/linux/mm_inline.h, 6.12). */
int folio_lru_gen(const struct machine *m, pfn_t pfn)
{
	return (int)(folio_lru_gen_flags(m, pfn) & LRU_GEN_MASK) - 1;
}

/* folio_lru_refs() (include/linux/mm_inline.h, 6.12): the refs counter
 * plus PG_workingset. */
int folio_lru_refs(const struct machine *m, pfn_t pfn)
{
	uint8_t v = folio_lru_gen_flags(m, pfn);

	return (int)((v & LRU_REFS_MASK) >> LRU_REFS_PGOFF) + !!(v & LRU_GEN_WORKINGSET);
}

/* lru_gen_is_active() (include/linux/mm_inline.h, 6.12): the two
 * youngest generations count as active. */
bool lru_gen_is_active(const struct lruvec *lruvec, int gen)
{
	unsigned long max_seq = lruvec->lrugen.max_seq;

	return gen == lru_gen_from_seq(max_seq) || gen == lru_gen_from_seq(max_seq - 1);
}

/* __update_lru_size() (include/linux/mm_inline.h, 6.12) for MGLRU: the
 * node and zone NR_{IN,}ACTIVE_* counters only; the model's exact
 * per-list count belongs to the classic lists. */
static void update_compat_size(struct machine *m, enum lru_list lru, pfn_t pfn, long nr)
{
	__mod_node_page_state(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru), nr);
	__mod_zone_page_state(page_zone(m, pfn), (enum zone_stat_item)(NR_ZONE_INACTIVE_ANON + lru), nr);
}

/*
 * lru_gen_update_size() — models include/linux/mm_inline.h (6.12): the
 * per-generation page count, then the active/inactive counters /proc
 * shows.  Simplified: any move between an inactive and an active
 * generation is accounted (the kernel only ever promotes here).
 */
void lru_gen_update_size(struct machine *m, struct lruvec *lruvec, pfn_t pfn, int old_gen, int new_gen)
{
	const struct page *page = pfn_to_page(m, pfn);
	int type = folio_is_file_lru(page);
	int zone = (int)zone_idx(page_zone(m, pfn));
	long delta = (long)folio_nr_pages(page);
	enum lru_list lru = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int old_active = old_gen >= 0 ? lru_gen_is_active(lruvec, old_gen) : -1;
	int new_active = new_gen >= 0 ? lru_gen_is_active(lruvec, new_gen) : -1;

	if (old_gen >= 0)
		lrugen->nr_pages[old_gen][type][zone] -= delta;
	if (new_gen >= 0)
		lrugen->nr_pages[new_gen][type][zone] += delta;
	if (old_active == new_active)
		return;
	if (old_active >= 0)
		update_compat_size(m, lru + (enum lru_list)old_active, pfn, -delta);
	if (new_active >= 0)
		update_compat_size(m, lru + (enum lru_list)new_active, pfn, delta);
}

/*
 * lru_gen_add_folio() — models include/linux/mm_inline.h (6.12): an
 * evictable folio goes to the youngest generation when PG_active (a
 * fault, an activation by reclaim or a migration of an active folio), to
 * the second youngest when it is anon (the model has no swap cache) or a
 * dirty/writeback folio marked for reclaim, to the oldest when reclaim
 * puts it back at the tail (folio_rotate_reclaimable) or only two
 * generations are left, else to the second oldest.  PG_active, and for an
 * active folio its refs and PG_referenced, are cleared.  false: the
 * classic lists take it (unevictable, or MGLRU off).
 */
static bool lru_gen_add_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn, bool reclaiming)
{
	struct page *page = pfn_to_page(m, pfn);
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type = folio_is_file_lru(page);
	int zone = (int)zone_idx(page_zone(m, pfn));
	unsigned long seq;
	uint8_t v;
	int gen;

	if (!lrugen->enabled || (page->flags & PG_unevictable))
		return false;
	SIM_ASSERT(folio_lru_gen(m, pfn) == -1);
	if (page->flags & PG_active)
		seq = lrugen->max_seq;
	else if (type == LRU_GEN_ANON ||
		 ((page->flags & PG_reclaim) && (page->flags & (PG_dirty | PG_writeback))))
		seq = lrugen->max_seq - 1;
	else if (reclaiming || lrugen->min_seq[type] + MIN_NR_GENS >= lrugen->max_seq)
		seq = lrugen->min_seq[type];
	else
		seq = lrugen->min_seq[type] + 1;
	gen = lru_gen_from_seq(seq);
	v = (uint8_t)((m->lru_gen_flags[pfn] & ~LRU_GEN_MASK) | (unsigned)(gen + 1));
	if (page->flags & PG_active) {
		v &= (uint8_t)~LRU_REFS_MASK;
		page->flags &= (uint8_t)~(PG_referenced | PG_active);
	}
	m->lru_gen_flags[pfn] = v;
	if (reclaiming)
		pfn_list_add_tail(m->mem_map, &lrugen->folios[gen][type][zone], pfn);
	else
		pfn_list_add(m->mem_map, &lrugen->folios[gen][type][zone], pfn);
	page->flags |= PG_lru;
	pageblock_sample_update(m, pfn);
	lru_gen_update_size(m, lruvec, pfn, -1, gen);
	return true;
}

/*
 * lru_gen_del_folio() — models include/linux/mm_inline.h (6.12): off its
 * generation list; unless reclaim isolates it, a folio of an active
 * generation takes PG_active along (so migration and putback return it
 * to the youngest generation).  false: not on a generation list.
 */
static bool lru_gen_del_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn, bool reclaiming)
{
	struct page *page = pfn_to_page(m, pfn);
	int gen = folio_lru_gen(m, pfn);
	int type, zone;

	if (gen < 0)
		return false;
	type = folio_is_file_lru(page);
	zone = (int)zone_idx(page_zone(m, pfn));
	SIM_ASSERT(!(page->flags & (PG_active | PG_unevictable)));
	if (!reclaiming && lru_gen_is_active(lruvec, gen))
		page->flags |= PG_active;
	m->lru_gen_flags[pfn] &= (uint8_t)~LRU_GEN_MASK;
	pfn_list_del(m->mem_map, &lruvec->lrugen.folios[gen][type][zone], pfn);
	page->flags &= (uint8_t)~PG_lru;
	pageblock_sample_update(m, pfn);
	lru_gen_update_size(m, lruvec, pfn, gen, -1);
	return true;
}

/* lru_gen_del_folio(.., reclaiming = true) for isolate_folio (vmscan.c). */
void lru_gen_del_folio_reclaiming(struct machine *m, struct lruvec *lruvec, pfn_t pfn)
{
	bool ok = lru_gen_del_folio(m, lruvec, pfn, true);

	SIM_ASSERT(ok);
	(void)ok;
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
	if (lru_gen_add_folio(m, lruvec, pfn, tail))
		return;
	if (tail)
		pfn_list_add_tail(m->mem_map, &lruvec->lists[lru], pfn);
	else
		pfn_list_add(m->mem_map, &lruvec->lists[lru], pfn);
	page->flags |= PG_lru;
	pageblock_sample_update(m, pfn);
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
	if (lru_gen_del_folio(m, lruvec, pfn, false))
		return;
	pfn_list_del(m->mem_map, &lruvec->lists[lru], pfn);
	page->flags &= (uint8_t)~PG_lru;
	pageblock_sample_update(m, pfn);
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
	/* MGLRU: a folio added while faulting goes to the youngest
	 * generation (lru_gen_in_fault).  The model treats anonymous folios
	 * as the ones added in a fault (the only way it creates them);
	 * shmem and file folios faulted through page tables are placed as
	 * if read through a file descriptor. */
	if (lru_gen_enabled(m) && page_type(page) == PGTY_ANON && !(page->flags & PG_unevictable))
		pfn_to_page(m, pfn)->flags |= PG_active;
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

/*
 * folio_inc_refs() — models mm/swap.c (6.12, CONFIG_LRU_GEN): an access
 * through a file descriptor sets PG_referenced, the next one
 * PG_workingset, the next ones count refs up to 3; tiers follow from
 * refs (sort_folio).  Unevictable folios are not counted.
 */
static void folio_inc_refs(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	uint8_t v = m->lru_gen_flags[pfn];

	if (page->flags & PG_unevictable)
		return;
	if (!(page->flags & PG_referenced)) {
		page->flags |= PG_referenced;
		return;
	}
	if (!(v & LRU_GEN_WORKINGSET)) {
		m->lru_gen_flags[pfn] = v | LRU_GEN_WORKINGSET;
		return;
	}
	if ((v & LRU_REFS_MASK) != LRU_REFS_MASK)
		m->lru_gen_flags[pfn] = (uint8_t)(v + (1u << LRU_REFS_PGOFF));
}

/* folio_mark_accessed() (mm/swap.c, 6.12): with MGLRU folio_inc_refs;
 * the classic LRU's two-step activation otherwise. */
void folio_mark_accessed(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	if (lru_gen_enabled(m)) {
		folio_inc_refs(m, pfn);
		return;
	}
	if (!(page->flags & PG_referenced)) {
		page->flags |= PG_referenced;
	} else if (!(page->flags & (PG_active | PG_unevictable)) && (page->flags & PG_lru)) {
		folio_activate(m, pfn);
	}
}

/* folio_rotate_reclaimable() + lru_move_tail() (mm/swap.c, 6.12), at once
 * rather than through the per-CPU lru_rotate batch; counts PGROTATED. */
void folio_rotate_reclaimable(struct machine *m, pfn_t pfn)
{
	const struct page *page = pfn_to_page(m, pfn);

	/* 6.12: not if locked, dirty, unevictable or off the LRU.  An active
	 * folio is rotated too: shrink_folio_list activates the folios under
	 * writeback that it marks PG_reclaim, and lru_move_tail() clears
	 * PG_active (which MGLRU's deletion may also set) and puts the folio
	 * at the inactive tail, where the next scan frees it. */
	if ((page->flags & (PG_lru | PG_dirty | PG_unevictable)) != PG_lru || folio_test_locked(m, pfn))
		return;
	lru_move_folio(m, pfn, 0, PG_active, true);
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
