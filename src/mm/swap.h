/* SPDX-License-Identifier: MIT */
/*
 * swap.h — the LRU lists (include/linux/mm_inline.h, include/linux/swap.h,
 * mm/swap.c; Linux 6.12, classic LRU, no memcg).
 *
 * One lruvec per node (pglist_data.__lruvec): five lists of folio heads
 * linked through struct page.next/prev while PG_lru is set.  Folios enter
 * through a per-CPU batch (folio_add_lru -> cpu_fbatches.lru_add, moved to
 * the lists under lru_lock when FOLIO_BATCH_SIZE folios are waiting or a
 * large folio arrives), exactly like the kernel, so a folio still in a
 * batch is not on an LRU list and compaction cannot isolate it.
 *
 *   lruvec                           folio heads (mem_map[pfn])
 *   lists[LRU_INACTIVE_ANON]  head -> pfn <-> pfn <-> ... <- tail
 *   lists[LRU_ACTIVE_ANON]           (head = most recently added;
 *   lists[LRU_INACTIVE_FILE]          reclaim scans from the tail)
 *   lists[LRU_ACTIVE_FILE]
 *   lists[LRU_UNEVICTABLE]
 *   nr_pages[lru]  pages on each list (folio sizes summed)
 *
 * Which list: PG_unevictable -> UNEVICTABLE; else anon lists for
 * swap-backed folios (PGTY_ANON, PGTY_SHMEM), file lists for PGTY_FILE;
 * + 1 when PG_active.  The node counters NR_{IN,}ACTIVE_{ANON,FILE},
 * NR_UNEVICTABLE and the zone counters NR_ZONE_* follow every move
 * (update_lru_size()).
 *
 * Simplifications: no memcg (one lruvec per node); no MGLRU; of the
 * kernel's six per-CPU batches only lru_add is modelled — activation,
 * deactivation and rotation move the folio directly under lru_lock
 * (the kernel batches them too; the cost is charged per folio the same
 * way, only the lock is taken once per folio instead of once per batch).
 */
#ifndef SLOWPATH_MM_SWAP_H
#define SLOWPATH_MM_SWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/list.h"
#include "mm/types.h"
#include "sim/sim.h"

struct machine;

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

#define LRU_ACTIVE	1
#define LRU_FILE	2

static inline bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

struct lruvec {
	struct pfn_list		lists[NR_LRU_LISTS];
	unsigned long		nr_pages[NR_LRU_LISTS];	/* exact page counts */
	struct sim_spinlock	lru_lock;
	/* lru_note_cost(): recent reclaim cost per type (get_scan_count) */
	unsigned long		anon_cost, file_cost;
};

#define FOLIO_BATCH_SIZE	31	/* include/linux/pagevec.h, 6.12 */

struct folio_batch {
	unsigned int	nr;
	pfn_t		pfns[FOLIO_BATCH_SIZE];
};

struct cpu_fbatches {
	struct folio_batch lru_add;
};

/* Folio geometry from the head page. */
static inline unsigned long folio_nr_pages(const struct page *head)
{
	return 1UL << page_order(head);
}

/* folio_is_file_lru(): not swap-backed. */
static inline bool folio_is_file_lru(const struct page *head)
{
	return page_type(head) == PGTY_FILE;
}

/* folio_lru_list() */
static inline enum lru_list folio_lru_list(const struct page *head)
{
	enum lru_list lru;

	if (head->flags & PG_unevictable)
		return LRU_UNEVICTABLE;
	lru = folio_is_file_lru(head) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	if (head->flags & PG_active)
		lru += LRU_ACTIVE;
	return lru;
}

void lruvec_init(struct sim *sim, struct lruvec *lruvec);

/* Caller holds lruvec->lru_lock (the model asserts nothing about it:
 * locks are timing, not safety, in a single-threaded simulator). */
void lruvec_add_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn);
void lruvec_add_folio_tail(struct machine *m, struct lruvec *lruvec, pfn_t pfn);
void lruvec_del_folio(struct machine *m, struct lruvec *lruvec, pfn_t pfn);

struct lruvec *folio_lruvec(struct machine *m, pfn_t pfn);

/* folio_add_lru(): queue on this CPU's lru_add batch (mm/swap.c). */
void folio_add_lru(struct machine *m, pfn_t pfn);
/* lru_add_drain(): flush this CPU's batch; _cpu for another CPU's (used
 * by lru_add_drain_all() and by tests). */
void lru_add_drain(struct machine *m);
void lru_add_drain_cpu(struct machine *m, unsigned int cpu);
void lru_add_drain_all(struct machine *m);

/* folio_mark_accessed(): first access sets PG_referenced, the second
 * activates an inactive folio (and clears PG_referenced). */
void folio_mark_accessed(struct machine *m, pfn_t pfn);
/* folio_activate() / folio_deactivate(): move between the active and
 * inactive list of the folio's type (no-op if not on an LRU or
 * unevictable). */
void folio_activate(struct machine *m, pfn_t pfn);
void folio_deactivate(struct machine *m, pfn_t pfn);
/* folio_rotate_reclaimable(): after writeback of a PG_reclaim folio,
 * move it to the tail of the inactive list so reclaim finds it next. */
void folio_rotate_reclaimable(struct machine *m, pfn_t pfn);

/*
 * folio_isolate_lru(): take a folio off its LRU list for reclaim or
 * migration (PG_lru cleared, PG_isolated set, NR_ISOLATED_{ANON,FILE}
 * raised).  Returns false if the folio is not on an LRU list.
 * folio_putback_lru() undoes it (the folio goes back through the lru_add
 * batch, as in the kernel).
 */
bool folio_isolate_lru(struct machine *m, pfn_t pfn);
void folio_putback_lru(struct machine *m, pfn_t pfn);

/*
 * The isolation reference.  In the kernel an isolator (reclaim,
 * compaction, folio_isolate_lru's callers) holds a folio reference, so an
 * owner that truncates or unmaps the folio meanwhile only drops its own
 * and the isolator's final put frees it.  The model has no refcounts:
 * isolators register the folio here (folio_isolation_get); an owner's
 * __free_pages on a registered folio only marks it orphaned; the
 * isolator's folio_isolation_put says whether it must free the folio.
 * PG_isolated stays the flag others see; the registry is what decides,
 * so an owner clearing page flags before freeing changes nothing.
 */
void folio_isolation_get(struct machine *m, pfn_t pfn);
bool folio_isolation_held(const struct machine *m, pfn_t pfn);
bool folio_isolation_orphaned(const struct machine *m, pfn_t pfn);
void folio_isolation_orphan(struct machine *m, pfn_t pfn);	/* __free_pages */
bool folio_isolation_put(struct machine *m, pfn_t pfn);		/* true: free it now */
/* Free an isolated folio whose owner let go: the isolation count and
 * flags are cleared and the block freed (the kernel's last folio_put). */
void folio_free_orphan(struct machine *m, pfn_t pfn);

/* Remove a folio from wherever the LRU machinery holds it — its list or a
 * per-CPU batch — before it is freed (the kernel's folios_put path via
 * __folio_clear_lru_flags + lruvec_del_folio).  No-op if it holds none.
 * A folio an isolator holds (folio_isolation_held) stays isolated: the
 * owner's __free_pages() then leaves the block to the isolator, whose
 * folio_isolation_put() frees it. */
void folio_lru_forget(struct machine *m, pfn_t pfn);

#endif /* SLOWPATH_MM_SWAP_H */
