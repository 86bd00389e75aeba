/* SPDX-License-Identifier: MIT */
/*
 * swap.h — the LRU lists (include/linux/mm_inline.h, include/linux/swap.h,
 * mm/swap.c; Linux 6.12, classic LRU and MGLRU, no memcg).
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
 * With the multi-gen LRU on ([kernel] lru_gen=on, the default; see
 * "MGLRU" below and docs/mm.md) evictable folios live on generation
 * lists instead of the four evictable lists; the unevictable list stays.
 *
 * Simplifications: no memcg (one lruvec per node); of the
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

/*
 * MGLRU (include/linux/mmzone.h struct lru_gen_folio, Linux 6.12):
 * sequence numbers max_seq (youngest) and min_seq[type] (oldest, one per
 * type: 0 anon, 1 file), at most MAX_NR_GENS generations live per type
 * and at least MIN_NR_GENS; a generation's lists are indexed by
 * seq % MAX_NR_GENS.  Folios are linked through struct page.next/prev
 * like the classic lists (head = most recently added).
 *
 *   lrugen.folios[gen][type][zone]   gen = seq % 4
 *   lrugen.nr_pages[gen][type][zone] pages on that list (exact)
 *   lrugen.timestamps[gen]           sim time the generation was born
 *
 * The node counters NR_{IN,}ACTIVE_{ANON,FILE} keep their meaning for
 * /proc/vmstat as the kernel keeps them: the two youngest generations
 * count as active (lru_gen_is_active), the others as inactive.
 *
 * Per folio the kernel keeps gen+1, the access count ("refs") and
 * PG_workingset in page->flags.  The model's 16-byte struct page has no
 * spare bit (its flags byte is full, its type and order nibbles are in
 * use), so they live in one byte per frame, machine.lru_gen_flags[pfn],
 * allocated only when MGLRU is on (1/16 of the frame array).  PG_active
 * is clear on every folio on a generation list, as in the kernel.
 */
#define MIN_NR_GENS		2
#define MAX_NR_GENS		4
#define MAX_NR_TIERS		4
#define LRU_REFS_WIDTH		2	/* MAX_NR_TIERS - 2 */
#define MIN_LRU_BATCH		64	/* BITS_PER_LONG */
#define MAX_LRU_BATCH		(MIN_LRU_BATCH * 64)
#define MAX_SWAPPINESS		200
#define LRU_GEN_ANON		0
#define LRU_GEN_FILE		1
#define ANON_AND_FILE		2
#define LRU_GEN_NR_ZONES	5	/* MAX_NR_ZONES (mmzone.h; swap.c asserts) */

/* machine.lru_gen_flags[pfn] bits */
#define LRU_GEN_MASK		0x07u	/* gen + 1; 0 = not on a generation list */
#define LRU_REFS_PGOFF		3
#define LRU_REFS_MASK		(((1u << LRU_REFS_WIDTH) - 1) << LRU_REFS_PGOFF)
#define LRU_GEN_WORKINGSET	0x20u	/* PG_workingset */

struct lru_gen_folio {
	bool			enabled;
	unsigned long		max_seq;
	unsigned long		min_seq[ANON_AND_FILE];
	sim_time_t		timestamps[MAX_NR_GENS];
	struct pfn_list		folios[MAX_NR_GENS][ANON_AND_FILE][LRU_GEN_NR_ZONES];
	long			nr_pages[MAX_NR_GENS][ANON_AND_FILE][LRU_GEN_NR_ZONES];
	/* model-only statistics (tests, the trace): pages protected by
	 * their tier, agings, and lru_gen_age_node's min_ttl verdicts
	 * (the kernel would call the OOM killer; the model kills nothing) */
	unsigned long		nr_protected;
	unsigned long		nr_aging;
	unsigned long		nr_min_ttl_oom;
	unsigned long		min_ttl_ms;		/* /sys/kernel/mm/lru_gen/min_ttl_ms */
};

struct lruvec {
	struct pfn_list		lists[NR_LRU_LISTS];
	unsigned long		nr_pages[NR_LRU_LISTS];	/* exact page counts */
	struct sim_spinlock	lru_lock;
	/* lru_note_cost(): recent reclaim cost per type (get_scan_count) */
	unsigned long		anon_cost, file_cost;
	struct lru_gen_folio	lrugen;
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

/* ---- MGLRU (see struct lru_gen_folio) ---- */

/* lru_gen_init(): switch the machine to the multi-gen LRU before any
 * folio is on an LRU (run setup, tests).  Allocates the per-frame byte. */
void lru_gen_init(struct machine *m, unsigned long min_ttl_ms);
bool lru_gen_enabled(const struct machine *m);

static inline int lru_gen_from_seq(unsigned long seq)
{
	return (int)(seq % MAX_NR_GENS);
}

/* folio_lru_gen(): the folio's generation, -1 when not on a gen list. */
int folio_lru_gen(const struct machine *m, pfn_t pfn);
/* folio_lru_refs(): accesses beyond PG_referenced (refs + workingset). */
int folio_lru_refs(const struct machine *m, pfn_t pfn);
bool lru_gen_is_active(const struct lruvec *lruvec, int gen);
/* lru_gen_update_size(): per-gen and compat active/inactive counters;
 * old_gen or new_gen -1 for addition/deletion. */
void lru_gen_update_size(struct machine *m, struct lruvec *lruvec, pfn_t pfn, int old_gen, int new_gen);
/* lru_gen_del_folio() with reclaiming = true (isolate_folio): the folio
 * leaves its generation list without getting PG_active back. */
void lru_gen_del_folio_reclaiming(struct machine *m, struct lruvec *lruvec, pfn_t pfn);
void folio_set_lru_gen_flags(struct machine *m, pfn_t pfn, uint8_t v);
uint8_t folio_lru_gen_flags(const struct machine *m, pfn_t pfn);

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
