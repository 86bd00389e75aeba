/* SPDX-License-Identifier: MIT */
/*
 * vmscan.c — page reclaim: direct reclaim, kswapd, the LRU scan and the
 * decisions on clean, dirty and writeback folios, throttling
 * (mm/vmscan.c, Linux 6.12.117, classic LRU and MGLRU; shrink_folio_list, mm/vmscan.c).
 *
 * Direct reclaim (try_to_free_pages):
 *   throttle_direct_reclaim (pfmemalloc reserve below half the min
 *   watermarks: wait for kswapd) -> do_try_to_free_pages: count
 *   allocstall_<reclaim_idx zone>; priority 12 down to 0: shrink_zones
 *   (costly orders skip "compaction ready" zones), stop at 32 reclaimed or
 *   when compaction is ready; return reclaimed, or 1 if compaction was
 *   ready, or 0.
 * shrink_node -> shrink_lruvec: per-list targets size >> priority
 *   (get_scan_count; file lists only: no swap is modelled, so anon and
 *   shmem are never scanned), scanned 32 folios at a time; direct reclaim
 *   at priority 12 scans its whole proportional target; loop while
 *   should_continue_reclaim says reclaim/compaction needs more.
 * shrink_inactive_list -> isolate_lru_folios (from the list tail) ->
 *   shrink_folio_list per folio:
 *     locked by someone          keep
 *     under writeback            PG_reclaim, activate (kswapd with
 *                                PGDAT_WRITEBACK: count immediate)
 *     dirty                      PG_reclaim, nr_vmscan_immediate_reclaim,
 *                                activate (left to the flushers; kswapd's
 *                                pageout needs ->writepage, which the
 *                                model's file systems, like XFS, lack)
 *     mapped by a process        PG_referenced, kept; activated if it
 *                                was referenced already
 *     clean                      remove_mapping() (filemap.c) + free
 *   then the rest go back to the LRU, pgsteal/pgscan are counted.
 * shrink_active_list deactivates active file folios (they are not mapped
 *   in the model, so folio_referenced finds no references).
 * kswapd: sleep until woken; balance_pgdat at priority 12..1 until some
 *   eligible zone meets its high watermark for the order (dropping to
 *   order 0 after reclaiming compact_gap), working off watermark boosts;
 *   on sleep wake kcompactd.  wakeup_kswapd: mm/vmscan.c.
 *
 * Time: reclaim_setup per shrink_node pass, reclaim_scan per folio
 * isolated, reclaim_free per folio freed, lru_move per folio put back, the
 * engine's lru_lock and zone->lock for hold and contention, and the
 * throttling sleeps with the kernel's timeouts (costs.def `jiffy`).
 *
 * MGLRU ([kernel] lru_gen=on): shrink_node hands reclaim to
 *   lru_gen_shrink_node, balance_pgdat ages with lru_gen_age_node; see
 *   "MGLRU" below and docs/mm.md.  The LRU-list text above is the classic
 *   LRU's.
 *
 * Simplifications: no memcg (one lruvec), no swap (anon and
 * shmem are unreclaimable, as the spec asks), no slab shrinkers, no
 * workingset refault detection (so may_deactivate follows only the
 * inactive:active ratio), no young bits (a mapped folio always counts as
 * referenced) and no try_to_unmap (mapped folios are never freed), no
 * laptop mode, no demotion.
 */
#include <string.h>

#include "mm/compaction.h"
#include "mm/folio_lock.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/trace.h"
#include "mm/vmscan.h"
#include "mm/writeback.h"

#define DEACTIVATE_ANON	1
#define DEACTIVATE_FILE	2

struct scan_control {
	unsigned long	nr_to_reclaim;
	gfp_t		gfp_mask;
	int		reclaim_idx;
	int		order;
	int		priority;
	unsigned int	may_deactivate;
	bool		may_writepage;
	bool		may_unmap;
	bool		may_swap;
	bool		force_deactivate;
	bool		skipped_deactivate;
	bool		cache_trim_mode;
	bool		cache_trim_mode_failed;
	bool		no_cache_trim_mode;
	bool		file_is_tiny;
	bool		compaction_ready;
	bool		kswapd;			/* current_is_kswapd() */
	unsigned long	anon_cost, file_cost;
	struct {
		unsigned int dirty, unqueued_dirty, congested, writeback, immediate, file_taken, taken;
	} nr;
	unsigned long	nr_scanned;
	unsigned long	nr_reclaimed;
};

struct reclaim_stat {
	unsigned int nr_dirty, nr_unqueued_dirty, nr_congested, nr_writeback, nr_immediate;
	unsigned int nr_pageout, nr_activate[2], nr_ref_keep;
};

/* ---- kernel threads ---------------------------------------------------------- */

int mm_kthread_kind(struct machine *m, const char *name)
{
	int kind = sim_task_kind(m->sim, name);

	SIM_ASSERT(kind >= 0 && kind < 64);
	m->kthread_kinds |= 1ULL << kind;
	return kind;
}

bool current_is_kswapd(const struct machine *m)
{
	struct sim_task *cur = sim_current(m->sim);

	return cur && cur == m->node.kswapd;
}

bool current_is_kthread(const struct machine *m)
{
	struct sim_task *cur = sim_current(m->sim);
	int kind;

	if (!cur)
		return false;
	kind = sim_task_kind_of(cur);
	return kind >= 0 && kind < 64 && (m->kthread_kinds & (1ULL << kind));
}

/* ---- small helpers ------------------------------------------------------------ */

static inline bool test_pgdat_flag(const pg_data_t *pgdat, enum pgdat_flags f)
{
	return pgdat->flags & (1UL << f);
}

static inline void set_pgdat_flag(pg_data_t *pgdat, enum pgdat_flags f)
{
	pgdat->flags |= 1UL << f;
}

unsigned long zone_reclaimable_pages(struct zone *zone)
{
	unsigned long nr = zone_page_state_snapshot(zone, NR_ZONE_INACTIVE_FILE) +
			   zone_page_state_snapshot(zone, NR_ZONE_ACTIVE_FILE);

	/* can_reclaim_anon_pages(): no swap, no demotion */
	if (nr == 0)
		nr = zone_page_state_snapshot(zone, NR_FREE_PAGES);
	return nr;
}

/* lruvec_lru_size(): pages of one list in zones up to zone_idx. */
static unsigned long lruvec_lru_size(const pg_data_t *pgdat, enum lru_list lru, int zone_idx)
{
	unsigned long size = 0;

	for (int zid = 0; zid <= zone_idx && zid < MAX_NR_ZONES; zid++) {
		const struct zone *zone = &pgdat->node_zones[zid];

		if (managed_zone(zone))
			size += zone_page_state(zone, (enum zone_stat_item)(NR_ZONE_INACTIVE_ANON + lru));
	}
	return size;
}

/* inactive_is_low() (6.12): inactive x sqrt(10 x GiB) < active. */
static bool inactive_is_low(const pg_data_t *pgdat, enum lru_list inactive_lru)
{
	unsigned long inactive = node_page_state(pgdat, (enum node_stat_item)(NR_INACTIVE_ANON + inactive_lru));
	unsigned long active = node_page_state(pgdat, (enum node_stat_item)(NR_INACTIVE_ANON + inactive_lru + LRU_ACTIVE));
	unsigned long gb = (inactive + active) >> (30 - PAGE_SHIFT);
	unsigned long ratio = gb ? int_sqrt(10 * gb) : 1;

	return inactive * ratio < active;
}

/* ---- throttling ---------------------------------------------------------------- */

static bool skip_throttle_noprogress(pg_data_t *pgdat)
{
	unsigned long reclaimable = 0, write_pending = 0;

	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return true;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!managed_zone(zone))
			continue;
		reclaimable += zone_reclaimable_pages(zone);
		write_pending += zone_page_state_snapshot(zone, NR_ZONE_WRITE_PENDING);
	}
	return 2 * write_pending <= reclaimable;
}

/*
 * reclaim_throttle() — models mm/vmscan.c (6.12): sleep on the reason's
 * wait queue for HZ/10 (writeback), HZ/50 (too many isolated) or one
 * jiffy (no progress, congestion; skipped when there is little writeback
 * pending).  Kernel threads other than kswapd only cond_resched; engine
 * context (unit tests without tasks) cannot sleep and returns.
 */
void reclaim_throttle(pg_data_t *pgdat, enum vmscan_throttle_state reason)
{
	struct machine *m = pgdat->machine;
	sim_time_t timeout;

	if (!sim_current(m->sim))
		return;
	if (!current_is_kswapd(m) && current_is_kthread(m)) {
		sim_cond_resched(m->sim);
		return;
	}
	switch (reason) {
	case VMSCAN_THROTTLE_WRITEBACK:
		timeout = hz_div_ns(m, 10);
		if (++pgdat->nr_writeback_throttled == 1)
			pgdat->nr_reclaim_start = node_page_state(pgdat, NR_THROTTLED_WRITTEN);
		break;
	case VMSCAN_THROTTLE_CONGESTED:
	case VMSCAN_THROTTLE_NOPROGRESS:
		if (skip_throttle_noprogress(pgdat)) {
			sim_cond_resched(m->sim);
			return;
		}
		timeout = jiffies_ns(m, 1);
		break;
	case VMSCAN_THROTTLE_ISOLATED:
		timeout = hz_div_ns(m, 50);
		break;
	default:
		timeout = hz_div_ns(m, 1);
		break;
	}
	sim_stat_inc(m, SIM_RECLAIM_THROTTLE);
	sim_stat_inc(m, (enum sim_stat_item)(SIM_RECLAIM_THROTTLE_WRITEBACK + reason));
	mm_trace(m, "reclaim_throttle reason=%d", (int)reason);
	sim_path_push(m->sim, "reclaim_throttle");
	sim_wait(m->sim, &pgdat->reclaim_wait[reason], timeout);
	sim_path_pop(m->sim);
	if (reason == VMSCAN_THROTTLE_WRITEBACK)
		pgdat->nr_writeback_throttled--;
}

/* __acct_reclaim_writeback() (6.12) */
void acct_reclaim_writeback(struct machine *m, pfn_t pfn)
{
	pg_data_t *pgdat = &m->node;
	unsigned long nr_written;
	int nr_throttled = pgdat->nr_writeback_throttled;

	if (!nr_throttled)
		return;
	mod_node_page_state(pgdat, NR_THROTTLED_WRITTEN, (long)folio_nr_pages(pfn_to_page(m, pfn)));
	nr_written = node_page_state(pgdat, NR_THROTTLED_WRITTEN) - pgdat->nr_reclaim_start;
	if (nr_written > SWAP_CLUSTER_MAX * (unsigned long)nr_throttled)
		sim_wake_all(m->sim, &pgdat->reclaim_wait[VMSCAN_THROTTLE_WRITEBACK]);
}

/* ---- isolating from and returning to the LRU -------------------------------------- */

/*
 * isolate_lru_folios() (6.12): up to nr_to_scan pages of folios from the
 * tail of `lru`; folios in zones above reclaim_idx are skipped (moved to
 * the head, counted in pgskip_*).  Caller holds lru_lock.  Isolated folios
 * are linked on `dst` through struct page.next/prev and carry PG_isolated.
 */
static unsigned long isolate_lru_folios(struct machine *m, unsigned long nr_to_scan,
					struct lruvec *lruvec, struct pfn_list *dst,
					unsigned long *nr_scanned, struct scan_control *sc,
					enum lru_list lru, unsigned long *nr_folios)
{
	struct pfn_list *src = &lruvec->lists[lru];
	struct pfn_list skipped;
	unsigned long nr_skipped[MAX_NR_ZONES] = { 0 };
	unsigned long scan = 0, total_scan = 0, nr_taken = 0, folios = 0;

	pfn_list_init(&skipped);
	while (scan < nr_to_scan && !pfn_list_empty(src)) {
		pfn_t pfn = src->tail;
		struct page *page = pfn_to_page(m, pfn);
		unsigned long nr_pages = folio_nr_pages(page);
		int zid = (int)zone_idx(page_zone(m, pfn));

		total_scan += nr_pages;
		if (zid > sc->reclaim_idx) {
			nr_skipped[zid] += nr_pages;
			pfn_list_del(m->mem_map, src, pfn);
			pfn_list_add_tail(m->mem_map, &skipped, pfn);
			continue;
		}
		scan += nr_pages;
		lruvec_del_folio(m, lruvec, pfn);
		folio_isolation_get(m, pfn);
		page->flags |= PG_isolated;
		pfn_list_add_tail(m->mem_map, dst, pfn);
		nr_taken += nr_pages;
		folios++;
	}
	/* splice the skipped folios to the head of the list, in order */
	pfn_list_splice(m->mem_map, &skipped, src);
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (nr_skipped[zid])
			__count_zid_vm_events(m, PGSCAN_SKIP_DMA, (unsigned int)zid, nr_skipped[zid]);
	*nr_scanned = total_scan;
	*nr_folios = folios;
	mm_charge(m, COST_reclaim_scan, folios);
	return nr_taken;
}

/* Undo an isolation from reclaim (move_folios_to_lru, with the
 * NR_ISOLATED_* update done per folio): the folio goes to the head of its
 * list, or is freed if its owner let it go meanwhile. */
static unsigned int move_folios_to_lru(struct machine *m, struct lruvec *lruvec, struct pfn_list *list)
{
	unsigned int nr_moved = 0;

	while (!pfn_list_empty(list)) {
		pfn_t pfn = list->head;
		struct page *page = pfn_to_page(m, pfn);
		unsigned long nr = folio_nr_pages(page);

		pfn_list_del(m->mem_map, list, pfn);
		if (folio_isolation_put(m, pfn)) {	/* the owner freed it while we held it */
			folio_free_orphan(m, pfn);
			continue;
		}
		page->flags &= (uint8_t)~PG_isolated;
		__mod_node_page_state(&m->node, folio_is_file_lru(page) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON,
				      -(long)nr);
		lruvec_add_folio(m, lruvec, pfn);
		nr_moved += (unsigned int)nr;
		mm_charge(m, COST_lru_move, 1);
	}
	return nr_moved;
}

/*
 * shrink_folio_list() — models mm/vmscan.c (6.12) for file
 * folios (the only ones scanned without swap): see the file comment.
 * Freed folios leave the list; the rest stay on it, PG_active set for
 * those to activate.  Returns pages reclaimed.
 */
static unsigned long shrink_folio_list(struct machine *m, struct pfn_list *folio_list,
				       pg_data_t *pgdat, struct scan_control *sc,
				       struct reclaim_stat *stat)
{
	struct pfn_list ret;
	unsigned long nr_reclaimed = 0;
	unsigned int pgactivate;

	memset(stat, 0, sizeof(*stat));
	pfn_list_init(&ret);
	while (!pfn_list_empty(folio_list)) {
		pfn_t pfn = folio_list->head;
		struct page *page = pfn_to_page(m, pfn);
		unsigned long nr_pages = folio_nr_pages(page);
		unsigned long mapped;
		bool dirty, writeback, referenced, file = folio_is_file_lru(page);

		pfn_list_del(m->mem_map, folio_list, pfn);
		if (folio_isolation_orphaned(m, pfn) || !page->mapping || !folio_trylock(m, pfn))
			goto keep;
		sc->nr_scanned += nr_pages;
		if (page->flags & PG_unevictable)
			goto activate_locked;

		/* folio_check_dirty_writeback(): file folios only */
		dirty = file && (page->flags & PG_dirty);
		writeback = file && (page->flags & PG_writeback);
		if (dirty || writeback)
			stat->nr_dirty += (unsigned int)nr_pages;
		if (dirty && !writeback)
			stat->nr_unqueued_dirty += (unsigned int)nr_pages;
		if (writeback && (page->flags & PG_reclaim))
			stat->nr_congested += (unsigned int)nr_pages;

		if (page->flags & PG_writeback) {
			if (sc->kswapd && (page->flags & PG_reclaim) && test_pgdat_flag(pgdat, PGDAT_WRITEBACK)) {
				stat->nr_immediate += (unsigned int)nr_pages;
				goto activate_locked;
			}
			/* global reclaim never waits: mark for immediate reclaim */
			page->flags |= PG_reclaim;
			stat->nr_writeback += (unsigned int)nr_pages;
			goto activate_locked;
		}

		/* folio_check_references(): a mapped folio counts as referenced
		 * by its page tables (the model has no young bits): it gets
		 * PG_referenced and one more trip, and is activated if it was
		 * referenced already; an unmapped one has only PG_referenced,
		 * which spares a dirty folio (RECLAIM_CLEAN) but not a clean one */
		referenced = page->flags & PG_referenced;
		page->flags &= (uint8_t)~PG_referenced;
		mapped = folio_mapcount_model(m, pfn);
		if (mapped) {
			mm_charge(m, COST_rmap_walk, 1);
			rmap_walk_file_charge(m, pfn, mapped, 1, false);	/* folio_referenced */
			page->flags |= PG_referenced;
			if (referenced)
				goto activate_locked;
			stat->nr_ref_keep += (unsigned int)nr_pages;
			goto keep_locked;
		}

		if (!file)	/* anon/shmem: no swap to go to (add_to_swap fails) */
			goto activate_locked;

		if (page->flags & PG_dirty) {
			if (!sc->kswapd || !(page->flags & PG_reclaim) ||
			    !test_pgdat_flag(pgdat, PGDAT_DIRTY)) {
				mod_node_page_state(pgdat, NR_VMSCAN_IMMEDIATE, (long)nr_pages);
				page->flags |= PG_reclaim;
				goto activate_locked;
			}
			if (referenced)
				goto keep_locked;
			if (!(sc->gfp_mask & __GFP_FS) || !sc->may_writepage)
				goto keep_locked;
			/* pageout(): no ->writepage (XFS/iomap): PAGE_ACTIVATE */
			goto activate_locked;
		}

		/* __remove_mapping() + the final put: the page cache's hook */
		folio_unlock(m, pfn);
		(void)folio_isolation_put(m, pfn);
		if (!remove_mapping(m, pfn)) {
			folio_isolation_get(m, pfn);
			goto keep;
		}
		mod_node_page_state(pgdat, NR_ISOLATED_FILE, -(long)nr_pages);
		mm_charge(m, COST_reclaim_free, 1);
		nr_reclaimed += nr_pages;
		continue;

activate_locked:
		if (!(page->flags & PG_unevictable)) {
			page->flags |= PG_active;
			stat->nr_activate[file] += (unsigned int)nr_pages;
		}
keep_locked:
		folio_unlock(m, pfn);
keep:
		pfn_list_add_tail(m->mem_map, &ret, pfn);
	}
	*folio_list = ret;
	pgactivate = stat->nr_activate[0] + stat->nr_activate[1];
	if (pgactivate)
		count_vm_events(m, PGACTIVATE, pgactivate);
	return nr_reclaimed;
}

/* too_many_isolated() (vmscan.c, 6.12): never for kswapd; __GFP_IO|FS
 * callers may isolate only an eighth of the inactive list. */
static bool reclaim_too_many_isolated(pg_data_t *pgdat, bool file, struct scan_control *sc)
{
	unsigned long inactive, isolated;

	if (sc->kswapd)
		return false;
	inactive = node_page_state(pgdat, file ? NR_INACTIVE_FILE : NR_INACTIVE_ANON);
	isolated = node_page_state(pgdat, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	if ((sc->gfp_mask & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS))
		inactive >>= 3;
	return isolated > inactive;
}

/* shrink_inactive_list() — models mm/vmscan.c (6.12). */
static unsigned long shrink_inactive_list(struct machine *m, unsigned long nr_to_scan,
					  struct lruvec *lruvec, struct scan_control *sc, enum lru_list lru)
{
	pg_data_t *pgdat = &m->node;
	bool file = is_file_lru(lru), stalled = false;
	struct pfn_list folio_list;
	struct reclaim_stat stat;
	unsigned long nr_scanned, nr_taken, nr_reclaimed, nr_folios;

	while (unlikely(reclaim_too_many_isolated(pgdat, file, sc))) {
		if (stalled || !sim_current(m->sim))
			return 0;
		stalled = true;
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_ISOLATED);
	}
	lru_add_drain(m);
	pfn_list_init(&folio_list);

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	nr_taken = isolate_lru_folios(m, nr_to_scan, lruvec, &folio_list, &nr_scanned, sc, lru, &nr_folios);
	__mod_node_page_state(pgdat, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, (long)nr_taken);
	__count_vm_events(m, sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, nr_scanned);
	__count_vm_events(m, file ? PGSCAN_FILE : PGSCAN_ANON, nr_scanned);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
	if (nr_taken == 0)
		return 0;

	sim_path_push(m->sim, "shrink_folio_list");
	nr_reclaimed = shrink_folio_list(m, &folio_list, pgdat, sc, &stat);
	sim_path_pop(m->sim);

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	move_folios_to_lru(m, lruvec, &folio_list);
	__count_vm_events(m, sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, nr_reclaimed);
	__count_vm_events(m, file ? PGSTEAL_FILE : PGSTEAL_ANON, nr_reclaimed);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);

	/* lru_note_cost() */
	if (file)
		lruvec->file_cost += stat.nr_pageout + nr_scanned - nr_reclaimed;
	else
		lruvec->anon_cost += stat.nr_pageout + nr_scanned - nr_reclaimed;

	/* dirty folios not queued for I/O: the flushers are behind (the
	 * cgroup v1 reclaim_throttle that follows is not modelled) */
	if (stat.nr_unqueued_dirty == nr_taken)
		wakeup_flusher_threads(m, WB_REASON_VMSCAN);

	sc->nr.dirty += stat.nr_dirty;
	sc->nr.congested += stat.nr_congested;
	sc->nr.unqueued_dirty += stat.nr_unqueued_dirty;
	sc->nr.writeback += stat.nr_writeback;
	sc->nr.immediate += stat.nr_immediate;
	sc->nr.taken += (unsigned int)nr_taken;
	if (file)
		sc->nr.file_taken += (unsigned int)nr_taken;
	return nr_reclaimed;
}

/*
 * shrink_active_list() — models mm/vmscan.c (6.12): move folios from the
 * active to the inactive list; an unmapped folio has no page-table
 * references, so every evictable one is deactivated.
 */
static void shrink_active_list(struct machine *m, unsigned long nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, enum lru_list lru)
{
	pg_data_t *pgdat = &m->node;
	bool file = is_file_lru(lru);
	struct pfn_list hold;
	unsigned long nr_scanned, nr_taken, nr_folios, nr_deactivate = 0;

	lru_add_drain(m);
	pfn_list_init(&hold);
	sim_spin_lock(m->sim, &lruvec->lru_lock);
	nr_taken = isolate_lru_folios(m, nr_to_scan, lruvec, &hold, &nr_scanned, sc, lru, &nr_folios);
	__mod_node_page_state(pgdat, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, (long)nr_taken);
	__count_vm_events(m, PGREFILL, nr_scanned);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);

	for (pfn_t pfn = hold.head; pfn != PFN_NONE; pfn = m->mem_map[pfn].next) {
		struct page *page = pfn_to_page(m, pfn);

		if (page->flags & PG_unevictable)
			continue;
		page->flags &= (uint8_t)~PG_active;
		nr_deactivate += folio_nr_pages(page);
	}

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	move_folios_to_lru(m, lruvec, &hold);
	if (nr_deactivate)
		__count_vm_events(m, PGDEACTIVATE, nr_deactivate);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
}

static unsigned long shrink_list(struct machine *m, enum lru_list lru, unsigned long nr_to_scan,
				 struct lruvec *lruvec, struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		if (sc->may_deactivate & (1u << is_file_lru(lru)))
			shrink_active_list(m, nr_to_scan, lruvec, sc, lru);
		else
			sc->skipped_deactivate = true;
		return 0;
	}
	return shrink_inactive_list(m, nr_to_scan, lruvec, sc, lru);
}

/* prepare_scan_control() (6.12), without refault detection. */
static void prepare_scan_control(pg_data_t *pgdat, struct scan_control *sc)
{
	struct lruvec *lruvec = &pgdat->__lruvec;
	unsigned long file, free = 0, anon, total_high_wmark = 0;

	sc->anon_cost = lruvec->anon_cost;
	sc->file_cost = lruvec->file_cost;
	if (!sc->force_deactivate) {
		sc->may_deactivate = 0;
		if (inactive_is_low(pgdat, LRU_INACTIVE_ANON))
			sc->may_deactivate |= DEACTIVATE_ANON;
		if (inactive_is_low(pgdat, LRU_INACTIVE_FILE))
			sc->may_deactivate |= DEACTIVATE_FILE;
	} else {
		sc->may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
	}
	file = node_page_state(pgdat, NR_INACTIVE_FILE);
	sc->cache_trim_mode = (file >> sc->priority) && !(sc->may_deactivate & DEACTIVATE_FILE) &&
			      !sc->no_cache_trim_mode;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone))
			continue;
		free += zone_page_state(zone, NR_FREE_PAGES);
		total_high_wmark += high_wmark_pages(zone);
	}
	file = node_page_state(pgdat, NR_ACTIVE_FILE) + node_page_state(pgdat, NR_INACTIVE_FILE);
	anon = node_page_state(pgdat, NR_INACTIVE_ANON);
	sc->file_is_tiny = file + free <= total_high_wmark && !(sc->may_deactivate & DEACTIVATE_ANON) &&
			   (anon >> sc->priority);
}

/*
 * get_scan_count() (6.12): without swap (the model has none) only the file
 * lists are scanned, each list size >> priority.
 */
static void get_scan_count(pg_data_t *pgdat, struct scan_control *sc, unsigned long nr[NR_LRU_LISTS])
{
	for (int lru = 0; lru < LRU_UNEVICTABLE; lru++) {
		unsigned long scan = lruvec_lru_size(pgdat, (enum lru_list)lru, sc->reclaim_idx) >> sc->priority;

		nr[lru] = is_file_lru((enum lru_list)lru) ? scan : 0;	/* SCAN_FILE */
	}
	nr[LRU_UNEVICTABLE] = 0;
}

/*
 * shrink_lruvec() — models mm/vmscan.c (6.12): scan the targets 32 folios
 * per list at a time; direct reclaim at DEF_PRIORITY scans everything it
 * planned ("proportional reclaim"), others stop once nr_to_reclaim is met
 * and trim the other type proportionally (moot without anon scanning).
 */
static void shrink_lruvec(struct machine *m, struct lruvec *lruvec, struct scan_control *sc)
{
	unsigned long nr[NR_LRU_LISTS], targets[NR_LRU_LISTS];
	unsigned long nr_reclaimed = 0, nr_to_reclaim = sc->nr_to_reclaim;
	bool proportional_reclaim;

	get_scan_count(&m->node, sc, nr);
	memcpy(targets, nr, sizeof(nr));
	proportional_reclaim = !sc->kswapd && sc->priority == DEF_PRIORITY;

	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		unsigned long nr_anon, nr_file, percentage, nr_scanned;
		int lru;

		for (lru = 0; lru < LRU_UNEVICTABLE; lru++) {
			if (nr[lru]) {
				unsigned long nr_to_scan = nr[lru] < SWAP_CLUSTER_MAX ? nr[lru] : SWAP_CLUSTER_MAX;

				nr[lru] -= nr_to_scan;
				nr_reclaimed += shrink_list(m, (enum lru_list)lru, nr_to_scan, lruvec, sc);
			}
		}
		sim_cond_resched(m->sim);
		if (nr_reclaimed < nr_to_reclaim || proportional_reclaim)
			continue;
		nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			unsigned long scan_target = targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1;

			lru = LRU_INACTIVE_ANON;
			percentage = nr_anon * 100 / scan_target;
		} else {
			unsigned long scan_target = targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1;

			lru = LRU_FILE;
			percentage = nr_file * 100 / scan_target;
		}
		nr[lru] = 0;
		nr[lru + LRU_ACTIVE] = 0;
		lru = lru == LRU_FILE ? LRU_INACTIVE_ANON : LRU_FILE;
		nr_scanned = targets[lru] - nr[lru];
		nr[lru] = targets[lru] * (100 - percentage) / 100;
		nr[lru] -= nr[lru] < nr_scanned ? nr[lru] : nr_scanned;
		lru += LRU_ACTIVE;
		nr_scanned = targets[lru] - nr[lru];
		nr[lru] = targets[lru] * (100 - percentage) / 100;
		nr[lru] -= nr[lru] < nr_scanned ? nr[lru] : nr_scanned;
	}
	sc->nr_reclaimed += nr_reclaimed;
}

static bool in_reclaim_compaction(const struct machine *m, const struct scan_control *sc)
{
	return gfp_compaction_allowed(m, sc->gfp_mask) && sc->order &&
	       (sc->order > PAGE_ALLOC_COSTLY_ORDER || sc->priority < DEF_PRIORITY - 2);
}

/* should_continue_reclaim() (6.12) */
static bool should_continue_reclaim(pg_data_t *pgdat, unsigned long nr_reclaimed,
				    struct scan_control *sc)
{
	struct machine *m = pgdat->machine;
	unsigned long pages_for_compaction, inactive_lru_pages;

	if (!in_reclaim_compaction(m, sc))
		return false;
	if (!nr_reclaimed)
		return false;
	for (int z = 0; z <= sc->reclaim_idx && z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone))
			continue;
		if (zone_watermark_ok(zone, (unsigned int)sc->order, min_wmark_pages(zone), sc->reclaim_idx, 0))
			return false;
		if (compaction_suitable(zone, sc->order, sc->reclaim_idx))
			return false;
	}
	pages_for_compaction = compact_gap((unsigned int)sc->order);
	inactive_lru_pages = node_page_state(pgdat, NR_INACTIVE_FILE);
	return inactive_lru_pages > pages_for_compaction;
}

/* ---- MGLRU: the multi-gen LRU (mm/vmscan.c CONFIG_LRU_GEN, 6.12) ------------------
 *
 * Dispatch as in the kernel: shrink_node -> lru_gen_shrink_node for root
 * reclaim (the only reclaim the model has), balance_pgdat ->
 * kswapd_age_node -> lru_gen_age_node.  Aging (try_to_inc_max_seq) runs
 * from the eviction side when the oldest generations run out of folios
 * (get_nr_to_scan), eviction takes the oldest file generation first,
 * sorting out promoted, protected and ineligible folios, and feeds the
 * rest to shrink_folio_list.  The model has no swap, so swappiness is 0
 * for MGLRU (get_swappiness: fewer than MIN_LRU_BATCH swap pages) and
 * only file folios are evicted; anon and shmem age but are never
 * scanned.  The model has no accessed bits and no refault detection:
 * the page-table walk (walk_mm) is not modelled — a mapped folio counts
 * as young when eviction reaches it (the rmap check in shrink_folio_list
 * then returns it to the youngest generation, what lru_gen_look_around
 * would do) — and the PID controller sees no refaults, so every tier
 * below the last is evictable and only folios with the maximum refs are
 * protected. */

/* get_swappiness() (mm/vmscan.c, 6.12): 0 whenever fewer than
 * MIN_LRU_BATCH swap pages are free — always, the model has no swap. */
static int get_swappiness(const struct machine *m, const struct scan_control *sc)
{
	(void)m;
	(void)sc;
	return 0;	/* no swap device: mem_cgroup_get_nr_swap_pages() < MIN_LRU_BATCH */
}

/* get_nr_gens() (6.12): live generations of a type. */
static int get_nr_gens(const struct lruvec *lruvec, int type)
{
	return (int)(lruvec->lrugen.max_seq - lruvec->lrugen.min_seq[type] + 1);
}

/* folio_zonenum() for the generation lists (model helper). */
static int lru_gen_zone(const struct machine *m, pfn_t pfn)
{
	return (int)zone_idx(page_zone(m, pfn));
}

/* Move a folio to the head or tail of another generation list of its
 * type and zone: the list_move/list_move_tail of the kernel's callers
 * (6.12) with the gen bits and lru_gen_update_size in one step (model
 * helper; the kernel updates the flags and lists separately). */
static void lru_gen_move(struct machine *m, struct lruvec *lruvec, pfn_t pfn, int old_gen, int new_gen,
			 bool tail)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type = folio_is_file_lru(pfn_to_page(m, pfn));
	int zone = lru_gen_zone(m, pfn);
	uint8_t v = folio_lru_gen_flags(m, pfn);

	pfn_list_del(m->mem_map, &lrugen->folios[old_gen][type][zone], pfn);
	if (tail)
		pfn_list_add_tail(m->mem_map, &lrugen->folios[new_gen][type][zone], pfn);
	else
		pfn_list_add(m->mem_map, &lrugen->folios[new_gen][type][zone], pfn);
	folio_set_lru_gen_flags(m, pfn, (uint8_t)((v & ~LRU_GEN_MASK) | (unsigned)(new_gen + 1)));
	if (old_gen != new_gen)
		lru_gen_update_size(m, lruvec, pfn, old_gen, new_gen);
}

/*
 * folio_inc_gen() — models mm/vmscan.c (6.12): a folio of the oldest
 * generation moves to the next one, losing its refs, PG_referenced and
 * PG_workingset (PG_reclaim set when reclaiming).  Simplified: the
 * caller's list move is folded in (lru_gen_move, to the tail).
 */
static int folio_inc_gen(struct machine *m, struct lruvec *lruvec, pfn_t pfn, bool reclaiming)
{
	struct page *page = pfn_to_page(m, pfn);
	int type = folio_is_file_lru(page);
	int old_gen = lru_gen_from_seq(lruvec->lrugen.min_seq[type]);
	int gen = folio_lru_gen(m, pfn);
	int new_gen;

	SIM_ASSERT(gen >= 0);
	if (gen != old_gen)
		return gen;	/* promoted meanwhile */
	new_gen = (old_gen + 1) % MAX_NR_GENS;
	folio_set_lru_gen_flags(m, pfn, (uint8_t)(folio_lru_gen_flags(m, pfn) &
						  ~(LRU_REFS_MASK | LRU_GEN_WORKINGSET)));
	page->flags &= (uint8_t)~PG_referenced;
	if (reclaiming)
		page->flags |= PG_reclaim;
	lru_gen_move(m, lruvec, pfn, old_gen, new_gen, true);
	return new_gen;
}

/*
 * inc_min_seq() — models mm/vmscan.c (6.12): retire the oldest
 * generation of a type.  For anon without swap it only advances min_seq
 * (the folios stay and become the youngest: the kernel's cold/hot
 * inversion); for file every folio moves to the next generation
 * (lru_move each).  Simplified: the kernel stops after MAX_LRU_BATCH
 * folios to drop lru_lock and restarts; the model moves them all.
 */
static void inc_min_seq(struct machine *m, struct lruvec *lruvec, int type, bool can_swap)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int old_gen = lru_gen_from_seq(lrugen->min_seq[type]);
	unsigned long moved = 0;

	if (type == LRU_GEN_FILE || can_swap) {
		for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
			struct pfn_list *head = &lrugen->folios[old_gen][type][zone];

			while (!pfn_list_empty(head)) {
				(void)folio_inc_gen(m, lruvec, head->tail, false);
				moved++;
			}
		}
	}
	mm_charge(m, COST_lru_move, moved);
	lrugen->min_seq[type]++;
}

/*
 * try_to_inc_min_seq() — models mm/vmscan.c (6.12): min_seq of each
 * evictable type moves past empty generations while at least
 * MIN_NR_GENS remain.  Returns whether any moved.
 */
static bool try_to_inc_min_seq(struct lruvec *lruvec, bool can_swap)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	bool success = false;

	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		unsigned long seq = lrugen->min_seq[type];

		while (seq + MIN_NR_GENS <= lrugen->max_seq) {
			int gen = lru_gen_from_seq(seq);
			bool empty = true;

			for (int zone = 0; zone < MAX_NR_ZONES && empty; zone++)
				empty = pfn_list_empty(&lrugen->folios[gen][type][zone]);
			if (!empty)
				break;
			seq++;
		}
		if (seq != lrugen->min_seq[type]) {
			lrugen->min_seq[type] = seq;
			success = true;
		}
	}
	return success;
}

/*
 * inc_max_seq() — models mm/vmscan.c (6.12): a type already at
 * MAX_NR_GENS retires its oldest generation first; the generation
 * leaving the active pair moves from the active to the inactive
 * counters (and the one entering it the other way), the new youngest
 * generation is stamped with the time, max_seq advances.  Simplified:
 * no PID-controller history to reset (no refaults are modelled).
 */
static bool inc_max_seq(struct machine *m, struct lruvec *lruvec, unsigned long seq, bool can_swap)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int prev, next;

	if (seq != lrugen->max_seq)
		return false;
	m->mm_busy++;	/* the counters move with max_seq for mm_check */
	for (int type = ANON_AND_FILE - 1; type >= 0; type--)
		if (get_nr_gens(lruvec, type) == MAX_NR_GENS)
			inc_min_seq(m, lruvec, type, can_swap);
	prev = lru_gen_from_seq(lrugen->max_seq - 1);
	next = lru_gen_from_seq(lrugen->max_seq + 1);
	lrugen->max_seq++;
	lrugen->timestamps[next] = sim_now(m->sim);
	lrugen->nr_aging++;
	for (int type = 0; type < ANON_AND_FILE; type++) {
		enum lru_list lru = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;

		for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
			struct zone *z = &m->node.node_zones[zone];
			long delta = lrugen->nr_pages[prev][type][zone] - lrugen->nr_pages[next][type][zone];

			if (!delta)
				continue;
			__mod_node_page_state(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru), delta);
			__mod_node_page_state(&m->node, (enum node_stat_item)(NR_INACTIVE_ANON + lru + LRU_ACTIVE),
					      -delta);
			__mod_zone_page_state(z, (enum zone_stat_item)(NR_ZONE_INACTIVE_ANON + lru), delta);
			__mod_zone_page_state(z, (enum zone_stat_item)(NR_ZONE_INACTIVE_ANON + lru + LRU_ACTIVE),
					      -delta);
		}
	}
	m->mm_busy--;
	mm_trace(m, "inc_max_seq max_seq=%lu min_seq=%lu/%lu", lrugen->max_seq,
		 lrugen->min_seq[LRU_GEN_ANON], lrugen->min_seq[LRU_GEN_FILE]);
	return true;
}

/*
 * try_to_inc_max_seq() — models mm/vmscan.c (6.12) without the page-table
 * walk (CONFIG_LRU_GEN_WALKS_MMU's walk_mm: the model has no accessed
 * bits to harvest), i.e. the iterate_mm_list_nowalk path: straight to
 * inc_max_seq under lru_lock.
 */
bool try_to_inc_max_seq(struct machine *m, struct lruvec *lruvec, unsigned long seq, bool can_swap)
{
	bool success;

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	success = inc_max_seq(m, lruvec, seq, can_swap);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
	return success;
}

/* set_initial_priority() (6.12): start where (inactive >> priority)
 * covers nr_to_reclaim, clamped to [DEF_PRIORITY / 2, DEF_PRIORITY]. */
static void set_initial_priority(pg_data_t *pgdat, struct scan_control *sc)
{
	unsigned long reclaimable;
	int priority;

	if (sc->priority != DEF_PRIORITY || sc->nr_to_reclaim < MIN_LRU_BATCH)
		return;
	reclaimable = node_page_state(pgdat, NR_INACTIVE_FILE);	/* no anon: no swap */
	priority = (reclaimable ? 64 - __builtin_clzl(reclaimable) : 0) - 1 -
		   (sc->nr_to_reclaim - 1 ? 64 - __builtin_clzl(sc->nr_to_reclaim - 1) : 0);
	if (priority < DEF_PRIORITY / 2)
		priority = DEF_PRIORITY / 2;
	if (priority > DEF_PRIORITY)
		priority = DEF_PRIORITY;
	sc->priority = priority;
}

/* lruvec_is_sizable() (6.12): evictable pages >> priority (root memcg). */
static bool lruvec_is_sizable(const struct lruvec *lruvec, const struct scan_control *sc, bool can_swap)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long total = 0;

	for (int type = !can_swap; type < ANON_AND_FILE; type++)
		for (unsigned long seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++)
			for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
				long n = lrugen->nr_pages[lru_gen_from_seq(seq)][type][zone];

				total += n > 0 ? (unsigned long)n : 0;
			}
	return total >> sc->priority;
}

/*
 * lru_gen_age_node() — models mm/vmscan.c (6.12), kswapd's aging step:
 * set the initial priority and, with min_ttl_ms set, check that the
 * oldest file generation is older than min_ttl (lruvec_is_reclaimable).
 * If it is not, the kernel calls the OOM killer to keep the working set;
 * the model kills nothing (as its __alloc_pages_may_oom) and counts the
 * verdict in lrugen.nr_min_ttl_oom.  min_ttl_ms does not stop eviction
 * itself in 6.12.
 */
static void lru_gen_age_node(pg_data_t *pgdat, struct scan_control *sc)
{
	struct machine *m = pgdat->machine;
	struct lruvec *lruvec = &pgdat->__lruvec;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	bool reclaimable = !lrugen->min_ttl_ms;

	set_initial_priority(pgdat, sc);
	if (!reclaimable && lruvec_is_sizable(lruvec, sc, get_swappiness(m, sc))) {
		/* msecs_to_jiffies() rounds up */
		uint64_t ttl_j = (lrugen->min_ttl_ms * m->hz + 999) / 1000;
		sim_time_t birth = lrugen->timestamps[lru_gen_from_seq(lrugen->min_seq[LRU_GEN_FILE])];

		reclaimable = birth + jiffies_ns(m, ttl_j) < sim_now(m->sim);
	}
	if (!reclaimable) {
		lrugen->nr_min_ttl_oom++;
		mm_trace(m, "lru_gen_age_node: working set younger than min_ttl_ms=%lu: out_of_memory "
			 "(not modelled: nothing is killed)", lrugen->min_ttl_ms);
	}
}

/*
 * sort_folio() — models mm/vmscan.c (6.12): a folio at the tail of the
 * oldest generation is not isolated when it was promoted (its gen is
 * newer: back to the head of that list), protected by its tier (tier
 * above tier_idx, or refs at the maximum: to the next generation,
 * counted in lrugen.nr_protected), or in a zone above reclaim_idx (to
 * the next generation).  Unevictable folios are never on these lists in
 * the model.  Each move costs lru_move.
 */
static bool sort_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn, struct scan_control *sc,
		       int tier_idx)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int gen = folio_lru_gen(m, pfn);
	int type = folio_is_file_lru(pfn_to_page(m, pfn));
	int refs = folio_lru_refs(m, pfn);
	int tier = refs ? 32 - __builtin_clz((unsigned)refs) : 0;	/* order_base_2(refs + 1) */

	if (gen != lru_gen_from_seq(lrugen->min_seq[type])) {
		lru_gen_move(m, lruvec, pfn, gen, gen, false);
		mm_charge(m, COST_lru_move, 1);
		return true;
	}
	if (tier > tier_idx || refs == (1 << LRU_REFS_WIDTH)) {
		lrugen->nr_protected += folio_nr_pages(pfn_to_page(m, pfn));
		(void)folio_inc_gen(m, lruvec, pfn, false);
		mm_charge(m, COST_lru_move, 1);
		return true;
	}
	if (lru_gen_zone(m, pfn) > sc->reclaim_idx) {
		(void)folio_inc_gen(m, lruvec, pfn, false);
		mm_charge(m, COST_lru_move, 1);
		return true;
	}
	return false;
}

/*
 * isolate_folio() — models mm/vmscan.c (6.12): refuse dirty anon or
 * swap-less anon without __GFP_IO; clear refs unless PG_referenced,
 * clear PG_referenced for shrink_folio_list; off the generation list
 * (reclaiming: no PG_active); PG_isolated and the isolation reference
 * as isolate_lru_folios.
 */
static bool isolate_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn, struct scan_control *sc)
{
	struct page *page = pfn_to_page(m, pfn);

	if (!(sc->gfp_mask & __GFP_IO) &&
	    (((page->flags & PG_dirty) && !folio_is_file_lru(page)) || page_type(page) == PGTY_ANON))
		return false;
	if (!(page->flags & PG_referenced))
		folio_set_lru_gen_flags(m, pfn, (uint8_t)(folio_lru_gen_flags(m, pfn) &
							  ~(LRU_REFS_MASK | LRU_GEN_WORKINGSET)));
	page->flags &= (uint8_t)~PG_referenced;
	lru_gen_del_folio_reclaiming(m, lruvec, pfn);
	folio_isolation_get(m, pfn);
	page->flags |= PG_isolated;
	return true;
}

/*
 * scan_folios() — models mm/vmscan.c (6.12): from the tail of the oldest
 * generation's lists of `type`, zones from reclaim_idx down then the
 * ones above, sort or isolate each folio (folios that cannot be isolated
 * stay, counted in pgskip_*), until MIN_LRU_BATCH pages are isolated or
 * MAX_LRU_BATCH folios looked at.  pgscan_kswapd/direct and
 * pgscan_file/anon count isolated pages, pgrefill sorted ones.  Returns
 * pages scanned, or 0 when nothing could be isolated and the budget is
 * not exhausted.  reclaim_scan per folio isolated.
 */
static int scan_folios(struct machine *m, struct lruvec *lruvec, struct scan_control *sc, int type,
		       int tier, struct pfn_list *list)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int sorted = 0, scanned = 0, isolated = 0, remaining = MAX_LRU_BATCH, gen;
	unsigned long nr_folios = 0;

	if (get_nr_gens(lruvec, type) == MIN_NR_GENS)
		return 0;
	gen = lru_gen_from_seq(lrugen->min_seq[type]);
	for (int i = MAX_NR_ZONES; i > 0; i--) {
		int zone = (sc->reclaim_idx + i) % MAX_NR_ZONES, skipped_zone = 0;
		struct pfn_list *head = &lrugen->folios[gen][type][zone];
		struct pfn_list moved;

		pfn_list_init(&moved);
		while (!pfn_list_empty(head)) {
			pfn_t pfn = head->tail;
			int delta = (int)folio_nr_pages(pfn_to_page(m, pfn));

			scanned += delta;
			if (sort_folio(m, lruvec, pfn, sc, tier)) {
				sorted += delta;
			} else if (isolate_folio(m, lruvec, pfn, sc)) {
				pfn_list_add(m->mem_map, list, pfn);
				isolated += delta;
				nr_folios++;
			} else {
				pfn_list_del(m->mem_map, head, pfn);
				pfn_list_add(m->mem_map, &moved, pfn);
				skipped_zone += delta;
			}
			if (!--remaining || (isolated > skipped_zone ? isolated : skipped_zone) >= MIN_LRU_BATCH)
				break;
		}
		if (skipped_zone) {
			pfn_list_splice(m->mem_map, &moved, head);
			__count_zid_vm_events(m, PGSCAN_SKIP_DMA, (unsigned int)zone, (unsigned long)skipped_zone);
		}
		if (!remaining || isolated >= MIN_LRU_BATCH)
			break;
	}
	__count_vm_events(m, sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, (unsigned long)isolated);
	__count_vm_events(m, PGREFILL, (unsigned long)sorted);
	__count_vm_events(m, type ? PGSCAN_FILE : PGSCAN_ANON, (unsigned long)isolated);
	if (type == LRU_GEN_FILE)
		sc->nr.file_taken += (unsigned int)isolated;
	mm_charge(m, COST_reclaim_scan, nr_folios);
	return isolated || !remaining ? scanned : 0;
}

/* get_tier_idx() (6.12): the last tier the PID controller lets eviction
 * take.  With no refaults every tier's error is positive
 * (refaulted < MIN_LRU_BATCH), so all tiers but the protected refs
 * maximum are evictable. */
static int get_tier_idx(const struct lruvec *lruvec, int type)
{
	(void)lruvec;
	(void)type;
	return MAX_NR_TIERS - 1;
}

/* isolate_folios() (6.12) at swappiness 0: file only. */
static int isolate_folios(struct machine *m, struct lruvec *lruvec, struct scan_control *sc, int swappiness,
			  int *type_scanned, struct pfn_list *list)
{
	int type = LRU_GEN_FILE, scanned = 0;

	SIM_ASSERT(!swappiness);
	for (int i = !swappiness; i < ANON_AND_FILE; i++) {
		scanned = scan_folios(m, lruvec, sc, type, get_tier_idx(lruvec, type), list);
		if (scanned)
			break;
		type = !type;
	}
	*type_scanned = type;
	return scanned;
}

/*
 * evict_folios() — models mm/vmscan.c (6.12): isolate from the oldest
 * generation, advance min_seq past emptied generations, run
 * shrink_folio_list; of the folios it kept, dirty/writeback ones marked
 * for reclaim go back as they are (second youngest generation),
 * referenced, mapped, locked, dirty or activated ones go back to the
 * youngest generation with their refs cleared, clean unreferenced ones
 * get one retry.  pgsteal_* count reclaimed pages.  Returns pages
 * scanned (0 when only MIN_NR_GENS are left).
 */
static int evict_folios(struct machine *m, struct lruvec *lruvec, struct scan_control *sc, int swappiness)
{
	pg_data_t *pgdat = &m->node;
	struct pfn_list list, clean;
	struct reclaim_stat stat;
	unsigned long reclaimed, nr_taken = 0;
	bool skip_retry = false;
	int type, scanned;

	pfn_list_init(&list);
	pfn_list_init(&clean);
	sim_spin_lock(m->sim, &lruvec->lru_lock);
	scanned = isolate_folios(m, lruvec, sc, swappiness, &type, &list);
	scanned += try_to_inc_min_seq(lruvec, swappiness);
	if (get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS)
		scanned = 0;
	for (pfn_t pfn = list.head; pfn != PFN_NONE; pfn = m->mem_map[pfn].next)
		nr_taken += folio_nr_pages(pfn_to_page(m, pfn));
	__mod_node_page_state(pgdat, type ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, (long)nr_taken);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);
	if (pfn_list_empty(&list))
		return scanned;
retry:
	sim_path_push(m->sim, "shrink_folio_list");
	reclaimed = shrink_folio_list(m, &list, pgdat, sc, &stat);
	sim_path_pop(m->sim);
	sc->nr.unqueued_dirty += stat.nr_unqueued_dirty;
	sc->nr_reclaimed += reclaimed;

	for (pfn_t pfn = list.tail, prev; pfn != PFN_NONE; pfn = prev) {
		struct page *page = pfn_to_page(m, pfn);

		prev = page->prev;
		if (page->flags & PG_unevictable)
			continue;
		if ((page->flags & PG_reclaim) && (page->flags & (PG_dirty | PG_writeback))) {
			if (folio_lru_gen_flags(m, pfn) & LRU_GEN_WORKINGSET)
				page->flags |= PG_referenced;
			continue;
		}
		if (skip_retry || (page->flags & (PG_active | PG_referenced | PG_dirty | PG_writeback)) ||
		    folio_isolation_orphaned(m, pfn) || folio_mapped_model(m, pfn) || folio_test_locked(m, pfn)) {
			folio_set_lru_gen_flags(m, pfn, (uint8_t)(folio_lru_gen_flags(m, pfn) &
								  ~(LRU_REFS_MASK | LRU_GEN_WORKINGSET)));
			page->flags = (uint8_t)((page->flags & ~PG_referenced) | PG_active);
			continue;
		}
		pfn_list_del(m->mem_map, &list, pfn);
		pfn_list_add(m->mem_map, &clean, pfn);
	}

	sim_spin_lock(m->sim, &lruvec->lru_lock);
	move_folios_to_lru(m, lruvec, &list);
	__count_vm_events(m, sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, reclaimed);
	__count_vm_events(m, type ? PGSTEAL_FILE : PGSTEAL_ANON, reclaimed);
	sim_spin_unlock(m->sim, &lruvec->lru_lock);

	if (!pfn_list_empty(&clean)) {
		list = clean;
		pfn_list_init(&clean);
		skip_retry = true;
		goto retry;
	}
	return scanned;
}

/*
 * should_run_aging() — models mm/vmscan.c (6.12): age when the evictable
 * types are down to MIN_NR_GENS, or (at exactly MIN_NR_GENS + 1
 * generations) when the youngest holds more than 1/MIN_NR_GENS of the
 * pages or the oldest less than 1/(MIN_NR_GENS + 2).  *nr_to_scan: the
 * evictable pages.
 */
static bool should_run_aging(const struct lruvec *lruvec, unsigned long max_seq, bool can_swap,
			     unsigned long *nr_to_scan)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long old = 0, young = 0, total = 0;

	if (lrugen->min_seq[!can_swap] + MIN_NR_GENS > max_seq) {
		*nr_to_scan = 0;
		return true;
	}
	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		for (unsigned long seq = lrugen->min_seq[type]; seq <= max_seq; seq++) {
			unsigned long size = 0;

			for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
				long n = lrugen->nr_pages[lru_gen_from_seq(seq)][type][zone];

				size += n > 0 ? (unsigned long)n : 0;
			}
			total += size;
			if (seq == max_seq)
				young += size;
			else if (seq + MIN_NR_GENS == max_seq)
				old += size;
		}
	}
	*nr_to_scan = total;
	if (lrugen->min_seq[!can_swap] + MIN_NR_GENS < max_seq)
		return false;
	if (young * MIN_NR_GENS > total)
		return true;
	if (old * (MIN_NR_GENS + 2) < total)
		return true;
	return false;
}

/* get_nr_to_scan() (6.12): evictable >> priority; at lower priorities an
 * lruvec that needs aging is aged instead and not scanned (-1: aged, 0:
 * someone else did). */
static long get_nr_to_scan(struct machine *m, struct lruvec *lruvec, struct scan_control *sc, bool can_swap)
{
	unsigned long nr_to_scan, max_seq = lruvec->lrugen.max_seq;
	bool success = should_run_aging(lruvec, max_seq, can_swap, &nr_to_scan);

	if (!success || sc->priority == DEF_PRIORITY)
		return (long)(nr_to_scan >> sc->priority);
	return try_to_inc_max_seq(m, lruvec, max_seq, can_swap) ? -1 : 0;
}

/* should_abort_scan() (6.12, root reclaim): enough reclaimed, or kswapd
 * at order 0 with every eligible zone above high + MIN_LRU_BATCH. */
static bool should_abort_scan(pg_data_t *pgdat, struct scan_control *sc)
{
	unsigned long goal = compact_gap((unsigned int)sc->order);

	if (sc->nr_reclaimed >= (sc->nr_to_reclaim > goal ? sc->nr_to_reclaim : goal))
		return true;
	if (!sc->kswapd || sc->order)
		return false;
	for (int i = 0; i <= sc->reclaim_idx && i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (managed_zone(zone) &&
		    !zone_watermark_ok(zone, 0, high_wmark_pages(zone) + MIN_LRU_BATCH, sc->reclaim_idx, 0))
			return false;
	}
	return true;
}

/* try_to_shrink_lruvec() (6.12): evict until the scan target is met or
 * reclaim may stop; wake the flushers when every file folio taken was
 * dirty and unqueued (cgroup v2: no writeback throttle here). */
static bool try_to_shrink_lruvec(struct machine *m, struct lruvec *lruvec, struct scan_control *sc)
{
	unsigned long scanned = 0;
	int swappiness = get_swappiness(m, sc);
	long nr_to_scan;

	for (;;) {
		int delta;

		nr_to_scan = get_nr_to_scan(m, lruvec, sc, swappiness);
		if (nr_to_scan <= 0)
			break;
		delta = evict_folios(m, lruvec, sc, swappiness);
		if (!delta)
			break;
		scanned += (unsigned long)delta;
		if (scanned >= (unsigned long)nr_to_scan)
			break;
		if (should_abort_scan(&m->node, sc))
			break;
		sim_cond_resched(m->sim);
	}
	if (sc->nr.unqueued_dirty && sc->nr.unqueued_dirty == sc->nr.file_taken)
		wakeup_flusher_threads(m, WB_REASON_VMSCAN);
	return nr_to_scan < 0;
}

/*
 * lru_gen_shrink_node() — models mm/vmscan.c (6.12) with memcg disabled
 * (one lruvec, shrink_one): nothing when writeback or unmapping is not
 * allowed (boosted kswapd reclaim); else drain this CPU's batch, set the
 * initial priority, shrink.  kswapd's sc->nr_reclaimed counts this pass
 * only while it runs.  reclaim_setup per call, as shrink_node.
 */
static void lru_gen_shrink_node(pg_data_t *pgdat, struct scan_control *sc)
{
	struct machine *m = pgdat->machine;
	unsigned long reclaimed = sc->nr_reclaimed;

	if (!sc->may_writepage || !sc->may_unmap)
		goto done;
	sim_path_push(m->sim, "lru_gen_shrink_node");
	mm_charge(m, COST_reclaim_setup, 1);
	lru_add_drain(m);
	set_initial_priority(pgdat, sc);
	if (sc->kswapd)
		sc->nr_reclaimed = 0;
	(void)try_to_shrink_lruvec(m, &pgdat->__lruvec, sc);
	if (sc->kswapd)
		sc->nr_reclaimed += reclaimed;
	sim_path_pop(m->sim);
done:
	if (sc->nr_reclaimed > reclaimed)
		pgdat->kswapd_failures = 0;
}

/*
 * shrink_node() — models mm/vmscan.c (6.12; do_try_to_free_pages, mm/vmscan.c steps 5-6): one or
 * more passes (reclaim/compaction mode) over the node's lruvec; kswapd
 * flags the node dirty/writeback/congested from what it found and
 * throttles on immediate-reclaim folios; direct reclaim throttles on a
 * congested node.
 */
static void shrink_node(pg_data_t *pgdat, struct scan_control *sc)
{
	struct machine *m = pgdat->machine;
	struct lruvec *lruvec = &pgdat->__lruvec;
	bool reclaimable = false;
	unsigned long nr_reclaimed, nr_node_reclaimed;

	if (lru_gen_enabled(m)) {	/* root reclaim: the model has no memcg reclaim */
		memset(&sc->nr, 0, sizeof(sc->nr));
		lru_gen_shrink_node(pgdat, sc);
		return;
	}
	sim_path_push(m->sim, "shrink_node");
again:
	memset(&sc->nr, 0, sizeof(sc->nr));
	nr_reclaimed = sc->nr_reclaimed;
	mm_charge(m, COST_reclaim_setup, 1);
	prepare_scan_control(pgdat, sc);
	shrink_lruvec(m, lruvec, sc);
	nr_node_reclaimed = sc->nr_reclaimed - nr_reclaimed;
	if (nr_node_reclaimed)
		reclaimable = true;

	if (sc->kswapd) {
		if (sc->nr.writeback && sc->nr.writeback == sc->nr.taken)
			set_pgdat_flag(pgdat, PGDAT_WRITEBACK);
		if (sc->nr.unqueued_dirty == sc->nr.file_taken)
			set_pgdat_flag(pgdat, PGDAT_DIRTY);
		if (sc->nr.immediate)
			reclaim_throttle(pgdat, VMSCAN_THROTTLE_WRITEBACK);
	}
	if (sc->nr.dirty && sc->nr.dirty == sc->nr.congested && sc->kswapd)
		pgdat->lruvec_flags |= 1UL << LRUVEC_NODE_CONGESTED;
	if (!sc->kswapd && (pgdat->lruvec_flags & (1UL << LRUVEC_NODE_CONGESTED)))
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_CONGESTED);
	if (should_continue_reclaim(pgdat, nr_node_reclaimed, sc))
		goto again;
	if (reclaimable)
		pgdat->kswapd_failures = 0;
	else if (sc->cache_trim_mode)
		sc->cache_trim_mode_failed = true;
	sim_path_pop(m->sim);
}

/*
 * compaction_ready() (6.12; do_try_to_free_pages, mm/vmscan.c step 3): the order already passes
 * the min watermark, or compaction is suitable and order-0 free pages are
 * above high + compact_gap — then reclaim for a costly order skips it.
 */
static bool compaction_ready(struct zone *zone, struct scan_control *sc)
{
	struct machine *m = zone->machine;

	if (!gfp_compaction_allowed(m, sc->gfp_mask))
		return false;
	if (zone_watermark_ok(zone, (unsigned int)sc->order, min_wmark_pages(zone), sc->reclaim_idx, 0))
		return true;
	if (!compaction_suitable(zone, sc->order, sc->reclaim_idx))
		return false;
	return zone_watermark_ok_safe(zone, 0, high_wmark_pages(zone) + compact_gap((unsigned int)sc->order),
				      sc->reclaim_idx);
}

static void consider_reclaim_throttle(pg_data_t *pgdat, struct scan_control *sc)
{
	if (sc->nr_reclaimed > (sc->nr_scanned >> 3)) {
		if (sim_waitq_active(&pgdat->reclaim_wait[VMSCAN_THROTTLE_NOPROGRESS]))
			sim_wake_all(pgdat->machine->sim, &pgdat->reclaim_wait[VMSCAN_THROTTLE_NOPROGRESS]);
		return;
	}
	if (sc->kswapd)
		return;
	if (sc->priority == 1 && !sc->nr_reclaimed)
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_NOPROGRESS);
}

/* shrink_zones() (6.12): the request's zones, each node once; costly
 * orders skip zones that are compaction-ready. */
static void shrink_zones(struct machine *m, const struct alloc_context *ac, struct scan_control *sc)
{
	pg_data_t *last_pgdat = NULL, *first_pgdat = NULL;

	for (unsigned int i = ac->preferred_zoneref; i < m->nr_zonelist; i++) {
		struct zone *zone = m->zonelist[i];

		if ((int)zone_idx(zone) > sc->reclaim_idx)
			continue;
		if (sc->order > PAGE_ALLOC_COSTLY_ORDER && compaction_ready(zone, sc)) {
			sc->compaction_ready = true;
			continue;
		}
		if (zone->zone_pgdat == last_pgdat)
			continue;
		if (!first_pgdat)
			first_pgdat = zone->zone_pgdat;
		last_pgdat = zone->zone_pgdat;
		shrink_node(zone->zone_pgdat, sc);
	}
	if (first_pgdat)
		consider_reclaim_throttle(first_pgdat, sc);
}

/*
 * do_try_to_free_pages() — models mm/vmscan.c (6.12; steps
 * 3-4): allocstall_<reclaim_idx>; priorities 12..0 until 32 pages are
 * reclaimed or compaction is ready; retries with forced deactivation when
 * deactivation was skipped and nothing was reclaimed.
 */
static unsigned long do_try_to_free_pages(struct machine *m, const struct alloc_context *ac,
					  struct scan_control *sc)
{
	int initial_priority = sc->priority;

retry:
	__count_zid_vm_events(m, ALLOCSTALL_DMA, (unsigned int)sc->reclaim_idx, 1);
	do {
		sc->nr_scanned = 0;
		shrink_zones(m, ac, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
		if (sc->compaction_ready)
			break;
		if (sc->priority < DEF_PRIORITY - 2)
			sc->may_writepage = true;
	} while (--sc->priority >= 0);

	if (sc->nr_reclaimed)
		return sc->nr_reclaimed;
	if (sc->compaction_ready)
		return 1;
	if (sc->skipped_deactivate) {
		sc->priority = initial_priority;
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
		goto retry;
	}
	return 0;
}

/* allow_direct_reclaim() (6.12): free pages above half the min watermarks
 * of the zones up to Normal that have reclaimable pages; otherwise make
 * sure kswapd is awake. */
static bool allow_direct_reclaim(pg_data_t *pgdat)
{
	struct machine *m = pgdat->machine;
	unsigned long pfmemalloc_reserve = 0, free_pages = 0;
	bool wmark_ok;

	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return true;
	for (int i = 0; i <= ZONE_NORMAL; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!managed_zone(zone))
			continue;
		if (!zone_reclaimable_pages(zone))
			continue;
		pfmemalloc_reserve += min_wmark_pages(zone);
		free_pages += zone_page_state_snapshot(zone, NR_FREE_PAGES);
	}
	if (!pfmemalloc_reserve)
		return true;
	wmark_ok = free_pages > pfmemalloc_reserve / 2;
	if (!wmark_ok && sim_waitq_active(&pgdat->kswapd_wait)) {
		if (pgdat->kswapd_highest_zoneidx > ZONE_NORMAL)
			pgdat->kswapd_highest_zoneidx = ZONE_NORMAL;
		sim_wake_all(m->sim, &pgdat->kswapd_wait);
	}
	return wmark_ok;
}

/*
 * throttle_direct_reclaim() (6.12; do_try_to_free_pages, mm/vmscan.c step 2): user tasks wait for
 * kswapd while the pfmemalloc reserve is depleted — at most one second
 * (HZ) without __GFP_FS, until it recovers otherwise.  Kernel threads and
 * engine context are not throttled.
 */
static void throttle_direct_reclaim(struct machine *m, gfp_t gfp)
{
	pg_data_t *pgdat = &m->node;
	sim_time_t deadline;

	if (!sim_current(m->sim) || current_is_kthread(m))
		return;
	if (allow_direct_reclaim(pgdat))
		return;
	count_vm_event(m, PGSCAN_DIRECT_THROTTLE);
	mm_trace(m, "throttle_direct_reclaim");
	sim_path_push(m->sim, "throttle_direct_reclaim");
	deadline = (gfp & __GFP_FS) ? SIM_TIME_NEVER : sim_now(m->sim) + hz_div_ns(m, 1);
	while (!allow_direct_reclaim(pgdat)) {
		sim_time_t now = sim_now(m->sim);

		if (deadline != SIM_TIME_NEVER && now >= deadline)
			break;
		if (!sim_wait(m->sim, &pgdat->pfmemalloc_wait,
			      deadline == SIM_TIME_NEVER ? SIM_TIME_NEVER : deadline - now))
			break;
	}
	sim_path_pop(m->sim);
}

/*
 * try_to_free_pages() — models mm/vmscan.c (6.12; do_try_to_free_pages, mm/vmscan.c): see the
 * file comment.  reclaim_idx is the request's highest zone (gfp_zone), so
 * page-cache requests count allocstall_movable.
 */
unsigned long try_to_free_pages(struct machine *m, const struct alloc_context *ac,
				unsigned int order, gfp_t gfp)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = gfp,
		.reclaim_idx = (int)gfp_zone(gfp),
		.order = (int)order,
		.priority = DEF_PRIORITY,
		.may_writepage = true,
		.may_unmap = true,
		.may_swap = true,
	};
	unsigned long nr_reclaimed;

	sim_path_push(m->sim, "try_to_free_pages");
	throttle_direct_reclaim(m, gfp);
	trace_count(m, TP_MM_VMSCAN_DIRECT_RECLAIM_BEGIN);
	nr_reclaimed = do_try_to_free_pages(m, ac, &sc);
	sim_path_pop(m->sim);
	if (sc.compaction_ready && !sc.nr_reclaimed)
		sim_stat_inc(m, SIM_RECLAIM_COMPACTION_READY);
	mm_trace(m, "try_to_free_pages order=%u reclaim_idx=%s -> %lu (reclaimed=%lu scanned_last=%lu "
		 "compaction_ready=%d priority=%d)", order, zone_names[sc.reclaim_idx], nr_reclaimed,
		 sc.nr_reclaimed, sc.nr_scanned, sc.compaction_ready, sc.priority);
	return nr_reclaimed;
}

/* ---- kswapd ---------------------------------------------------------------------------- */

static bool pgdat_watermark_boosted(pg_data_t *pgdat, int highest_zoneidx)
{
	for (int i = highest_zoneidx; i >= 0; i--) {
		struct zone *zone = &pgdat->node_zones[i];

		if (managed_zone(zone) && zone->watermark_boost)
			return true;
	}
	return false;
}

/* pgdat_balanced() (6.12; 6.15 defrag_mode counts free whole pageblocks,
 * defrag_mode watermarks) */
bool pgdat_balanced(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	bool any = false;

	for (int i = 0; i <= highest_zoneidx && i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		unsigned long mark;

		if (!managed_zone(zone))
			continue;
		any = true;
		mark = high_wmark_pages(zone);
		if (pgdat->machine->t.defrag_mode) {
			if (__zone_watermark_ok(zone, (unsigned int)order, mark, highest_zoneidx, 0,
						(long)zone_page_state(zone, NR_FREE_PAGES_BLOCKS)))
				return true;
		} else if (zone_watermark_ok_safe(zone, (unsigned int)order, mark, highest_zoneidx)) {
			return true;
		}
	}
	return !any;
}

static void clear_pgdat_congested(pg_data_t *pgdat)
{
	pgdat->lruvec_flags &= ~((1UL << LRUVEC_NODE_CONGESTED) | (1UL << LRUVEC_CGROUP_CONGESTED));
	pgdat->flags &= ~((1UL << PGDAT_DIRTY) | (1UL << PGDAT_WRITEBACK));
}

static bool prepare_kswapd_sleep(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	if (sim_waitq_active(&pgdat->pfmemalloc_wait))
		sim_wake_all(pgdat->machine->sim, &pgdat->pfmemalloc_wait);
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return true;
	if (pgdat_balanced(pgdat, order, highest_zoneidx)) {
		clear_pgdat_congested(pgdat);
		return true;
	}
	return false;
}

/* kswapd_shrink_node() (6.12): target the sum of the eligible zones' high
 * watermarks; once compact_gap(order) is reclaimed, fall back to order 0. */
static bool kswapd_shrink_node(pg_data_t *pgdat, struct scan_control *sc)
{
	unsigned long nr_reclaimed = sc->nr_reclaimed;

	sc->nr_to_reclaim = 0;
	for (int z = 0; z <= sc->reclaim_idx && z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone))
			continue;
		sc->nr_to_reclaim += high_wmark_pages(zone) > SWAP_CLUSTER_MAX ? high_wmark_pages(zone)
										 : SWAP_CLUSTER_MAX;
	}
	shrink_node(pgdat, sc);
	if (sc->order && sc->nr_reclaimed >= compact_gap((unsigned int)sc->order))
		sc->order = 0;
	return (sc->nr_scanned > sc->nr_reclaimed - nr_reclaimed ? sc->nr_scanned
								 : sc->nr_reclaimed - nr_reclaimed) >= sc->nr_to_reclaim;
}

static void update_reclaim_active(pg_data_t *pgdat, int highest_zoneidx, bool active)
{
	for (int i = 0; i <= highest_zoneidx && i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!managed_zone(zone))
			continue;
		if (active)
			zone_set_flag(zone, ZONE_RECLAIM_ACTIVE);
		else
			zone_clear_flag(zone, ZONE_RECLAIM_ACTIVE);
	}
}

/*
 * balance_pgdat() — models mm/vmscan.c (6.12; kswapd/balance_pgdat, mm/vmscan.c step 3):
 * count pageoutrun; record the watermark boosts; with ZONE_RECLAIM_ACTIVE
 * set, priority 12 down to 1: stop when balanced (unless still working
 * off a boost; an unbalanced node drops the boost and restarts as normal
 * reclaim); boosted reclaim does no writeback and stays at priority >= 10;
 * kswapd_shrink_node.  No progress at all counts a kswapd failure.  A
 * boosted run subtracts the recorded boosts and wakes kcompactd for
 * pageblock order.  Returns the order it ended at.
 */
static int balance_pgdat(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	struct machine *m = pgdat->machine;
	unsigned long nr_boost_reclaim = 0, zone_boosts[MAX_NR_ZONES] = { 0 };
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.order = order,
		.may_unmap = true,
		.kswapd = true,
	};
	bool boosted;

	sim_path_push(m->sim, "balance_pgdat");
	count_vm_event(m, PAGEOUTRUN);
	for (int i = 0; i <= highest_zoneidx && i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!managed_zone(zone))
			continue;
		nr_boost_reclaim += zone->watermark_boost;
		zone_boosts[i] = zone->watermark_boost;
	}
	boosted = nr_boost_reclaim;
	if (boosted)
		sim_stat_inc(m, SIM_KSWAPD_BOOST_RECLAIM);
	mm_trace(m, "balance_pgdat order=%d highest_zoneidx=%d boost=%lu", order, highest_zoneidx,
		 nr_boost_reclaim);

restart:
	update_reclaim_active(pgdat, highest_zoneidx, true);
	sc.priority = DEF_PRIORITY;
	do {
		unsigned long nr_reclaimed = sc.nr_reclaimed;
		bool raise_priority = true, balanced;

		sc.reclaim_idx = highest_zoneidx;
		balanced = pgdat_balanced(pgdat, sc.order, highest_zoneidx);
		if (!balanced && nr_boost_reclaim) {
			nr_boost_reclaim = 0;
			goto restart;
		}
		if (!nr_boost_reclaim && balanced)
			goto out;
		if (nr_boost_reclaim && sc.priority == DEF_PRIORITY - 2)
			raise_priority = false;
		sc.may_writepage = !nr_boost_reclaim;
		sc.may_swap = !nr_boost_reclaim;
		/* kswapd_age_node(): MGLRU's lru_gen_age_node; the classic
		 * LRU's anon aging needs swap */
		if (lru_gen_enabled(m))
			lru_gen_age_node(pgdat, &sc);
		if (sc.priority < DEF_PRIORITY - 2)
			sc.may_writepage = true;
		sc.nr_scanned = 0;
		if (kswapd_shrink_node(pgdat, &sc))
			raise_priority = false;
		if (sim_waitq_active(&pgdat->pfmemalloc_wait) && allow_direct_reclaim(pgdat))
			sim_wake_all(m->sim, &pgdat->pfmemalloc_wait);
		nr_reclaimed = sc.nr_reclaimed - nr_reclaimed;
		nr_boost_reclaim -= nr_boost_reclaim < nr_reclaimed ? nr_boost_reclaim : nr_reclaimed;
		if (nr_boost_reclaim && !nr_reclaimed)
			break;
		if (raise_priority || !nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);

	if (!sc.nr_reclaimed && sc.priority < 1 && !sc.no_cache_trim_mode && sc.cache_trim_mode_failed) {
		sc.no_cache_trim_mode = true;
		goto restart;
	}
	if (!sc.nr_reclaimed)
		pgdat->kswapd_failures++;
out:
	update_reclaim_active(pgdat, highest_zoneidx, false);
	if (boosted) {
		for (int i = 0; i <= highest_zoneidx && i < MAX_NR_ZONES; i++) {
			struct zone *zone = &pgdat->node_zones[i];

			if (!zone_boosts[i])
				continue;
			sim_spin_lock(m->sim, &zone->lock);
			zone->watermark_boost -= zone->watermark_boost < zone_boosts[i] ? zone->watermark_boost
											 : zone_boosts[i];
			sim_spin_unlock(m->sim, &zone->lock);
		}
		wakeup_kcompactd(pgdat, pageblock_order, highest_zoneidx);
	}
	mm_trace(m, "balance_pgdat -> order=%d reclaimed=%lu failures=%d", sc.order, sc.nr_reclaimed,
		 pgdat->kswapd_failures);
	sim_path_pop(m->sim);
	return sc.order;
}

static int kswapd_highest_zoneidx(pg_data_t *pgdat, int prev_highest_zoneidx)
{
	int curr_idx = pgdat->kswapd_highest_zoneidx;

	return curr_idx == MAX_NR_ZONES ? prev_highest_zoneidx : curr_idx;
}

/*
 * kswapd_try_to_sleep() — models mm/vmscan.c (6.12; kswapd/balance_pgdat, mm/vmscan.c step 2): if
 * balanced, clear skip bits, wake kcompactd for the allocation order and
 * nap HZ/10; woken early counts kswapd_low_wmark_hit_quickly; otherwise,
 * still balanced, switch to the normal vmstat thresholds and sleep until
 * woken (back to the pressure thresholds after); unbalanced after the nap
 * counts kswapd_high_wmark_hit_quickly.
 */
static void kswapd_try_to_sleep(pg_data_t *pgdat, int alloc_order, int reclaim_order,
				int highest_zoneidx)
{
	struct machine *m = pgdat->machine;
	bool remaining = false;

	if (prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		reset_isolation_suitable(pgdat);
		wakeup_kcompactd(pgdat, alloc_order, highest_zoneidx);
		remaining = sim_wait(m->sim, &pgdat->kswapd_wait, hz_div_ns(m, 10));
		if (remaining) {
			pgdat->kswapd_highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
			if (pgdat->kswapd_order < reclaim_order)
				pgdat->kswapd_order = reclaim_order;
		}
	}
	if (!remaining && prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		set_pgdat_percpu_threshold(pgdat, calculate_normal_threshold);
		sim_wait(m->sim, &pgdat->kswapd_wait, SIM_TIME_NEVER);
		set_pgdat_percpu_threshold(pgdat, calculate_pressure_threshold);
	} else {
		count_vm_event(m, remaining ? KSWAPD_LOW_WMARK_HIT_QUICKLY : KSWAPD_HIGH_WMARK_HIT_QUICKLY);
	}
}

/*
 * kswapd() — the per-node reclaim daemon (6.12; kswapd/balance_pgdat, mm/vmscan.c): read and reset
 * the requested order and zone, balance the node, and if it had to drop
 * to order 0 try to sleep at that order while kcompactd works on the
 * original one.  Not modelled: freezing, kthread_stop.
 */
static void kswapd(struct sim *sim, void *arg)
{
	pg_data_t *pgdat = arg;
	struct machine *m = pgdat->machine;
	int alloc_order, reclaim_order, highest_zoneidx = MAX_NR_ZONES - 1;

	pgdat->kswapd_order = 0;
	pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
	for (;;) {
		sim_path_assert_empty(sim);
		alloc_order = reclaim_order = pgdat->kswapd_order;
		highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
kswapd_try_sleep:
		kswapd_try_to_sleep(pgdat, alloc_order, reclaim_order, highest_zoneidx);
		alloc_order = pgdat->kswapd_order;
		highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
		pgdat->kswapd_order = 0;
		pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
		trace_count(m, TP_MM_VMSCAN_KSWAPD_WAKE);
		reclaim_order = balance_pgdat(pgdat, alloc_order, highest_zoneidx);
		mm_op_done(m);
		if (reclaim_order < alloc_order)
			goto kswapd_try_sleep;
	}
}

void kswapd_run(struct machine *m)
{
	struct sim_task_config cfg = {
		.kthread = true,
		.name = "kswapd0",
		.kind = mm_kthread_kind(m, "kswapd"),
		.cpu = SIM_CPU_ANY,
	};

	if (m->node.kswapd)
		return;
	/* the kswapd0 thread runs with the pressure thresholds except when
	 * it sleeps (kswapd_try_to_sleep switches them) */
	m->node.kswapd = sim_task_create(m->sim, &cfg, kswapd, &m->node, sim_now(m->sim));
}

/*
 * wakeup_kswapd() — models mm/vmscan.c (6.12): raise the
 * requested order and zone; if kswapd sleeps and the node is neither
 * hopeless nor (balanced for the order and unboosted), wake it; in that
 * case requests without __GFP_DIRECT_RECLAIM wake kcompactd instead.
 */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, unsigned int order, enum zone_type highest_zoneidx)
{
	struct machine *m = zone->machine;
	pg_data_t *pgdat = zone->zone_pgdat;
	int curr_idx;

	if (!managed_zone(zone))
		return;
	sim_stat_inc(m, SIM_WAKEUP_KSWAPD);
	curr_idx = pgdat->kswapd_highest_zoneidx;
	if (curr_idx == MAX_NR_ZONES || curr_idx < (int)highest_zoneidx)
		pgdat->kswapd_highest_zoneidx = (int)highest_zoneidx;
	if (pgdat->kswapd_order < (int)order)
		pgdat->kswapd_order = (int)order;
	if (!sim_waitq_active(&pgdat->kswapd_wait)) {
		mm_trace(m, "wakeup_kswapd order=%u: not sleeping", order);
		return;
	}
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES ||
	    (pgdat_balanced(pgdat, (int)order, (int)highest_zoneidx) &&
	     !pgdat_watermark_boosted(pgdat, (int)highest_zoneidx))) {
		mm_trace(m, "wakeup_kswapd order=%u: balanced%s", order,
			 !(gfp & __GFP_DIRECT_RECLAIM) ? ", wake kcompactd" : "");
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			wakeup_kcompactd(pgdat, (int)order, (int)highest_zoneidx);
		return;
	}
	mm_trace(m, "wakeup_kswapd order=%u: woken", order);
	sim_stat_inc(m, SIM_KSWAPD_WAKE);
	trace_count(m, TP_MM_VMSCAN_WAKEUP_KSWAPD);
	sim_wake_all(m->sim, &pgdat->kswapd_wait);
}
