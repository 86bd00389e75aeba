/* SPDX-License-Identifier: MIT */
/*
 * compaction.h — memory compaction and kcompactd (include/linux/compaction.h,
 * mm/compaction.c; Linux 6.12), and the migration entry point it
 * uses (include/linux/migrate.h, mm/migrate.c).
 */
#ifndef SLOWPATH_MM_COMPACTION_H
#define SLOWPATH_MM_COMPACTION_H

#include <stdbool.h>

#include "mm/internal.h"
#include "mm/list.h"

/* enum compact_priority (include/linux/compaction.h): lower is harder. */
enum compact_priority {
	COMPACT_PRIO_SYNC_FULL,
	MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_FULL,
	COMPACT_PRIO_SYNC_LIGHT,
	MIN_COMPACT_COSTLY_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	DEF_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	COMPACT_PRIO_ASYNC,
	INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC
};

/* enum compact_result (include/linux/compaction.h), in the kernel's order:
 * try_to_compact_pages keeps the maximum over zones. */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE,
	COMPACT_SKIPPED,
	COMPACT_DEFERRED,
	COMPACT_NO_SUITABLE_PAGE,
	COMPACT_CONTINUE,
	COMPACT_COMPLETE,
	COMPACT_PARTIAL_SKIPPED,
	COMPACT_CONTENDED,
	COMPACT_SUCCESS,
};

/* enum migrate_mode (include/linux/migrate_mode.h) */
enum migrate_mode {
	MIGRATE_ASYNC,
	MIGRATE_SYNC_LIGHT,
	MIGRATE_SYNC,
};

#define COMPACT_CLUSTER_MAX	32		/* SWAP_CLUSTER_MAX */
#define COMPACT_MAX_DEFER_SHIFT	6
#define MAX_COMPACT_RETRIES	16
#define COMPACTION_HPAGE_ORDER	HPAGE_PMD_ORDER
#define HPAGE_FRAG_CHECK_INTERVAL_MSEC	500

/* compact_gap(): pages compaction needs free, twice the request (compaction_suitable, mm/compaction.c). */
static inline unsigned long compact_gap(unsigned int order)
{
	return 2UL << order;
}

/*
 * gfp_compaction_allowed() (include/linux/gfp.h, 6.12): CONFIG_COMPACTION
 * and __GFP_IO.  Policy Vb (noretry_no_compaction, docs/slowpath.md, policy variants) adds: not for
 * __GFP_NORETRY requests unless __GFP_THISNODE.
 */
bool gfp_compaction_allowed(const struct machine *m, gfp_t gfp);

/*
 * struct capture_control (mm/internal.h): a direct compactor publishes
 * one while it runs; a block freed by the same task in the same zone that
 * reaches the request's order is handed to it (compaction_capture in
 * __free_one_page) instead of the free lists.
 */
struct compact_control;
struct capture_control {
	struct compact_control	*cc;
	struct sim_task		*task;		/* the compactor (current->capture_control) */
	pfn_t			page;		/* captured block or PFN_NONE */
	struct capture_control	*next;		/* machine's list of active controls */
};

/* The capture test from __free_one_page (page_alloc.c).  True if the
 * block was captured; the caller then leaves it off the free lists. */
bool compaction_capture(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
			int migratetype);

/* try_to_compact_pages() (mm/compaction.c): direct compaction over the zonelist. */
enum compact_result try_to_compact_pages(struct machine *m, gfp_t gfp, unsigned int order,
					 unsigned int alloc_flags, const struct alloc_context *ac,
					 enum compact_priority prio, pfn_t *capture);

/* Suitability (compaction_suitable, mm/compaction.c). */
bool compaction_suitable(struct zone *zone, int order, int highest_zoneidx);
bool compaction_zonelist_suitable(struct machine *m, const struct alloc_context *ac, int order,
				  unsigned int alloc_flags);
int fragmentation_index(const struct zone *zone, unsigned int order);
unsigned int extfrag_for_order(const struct zone *zone, unsigned int order);

/* Deferral (defer_compaction, mm/compaction.c). */
void defer_compaction(struct zone *zone, int order);
bool compaction_deferred(struct zone *zone, int order);
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);
bool compaction_restarting(struct zone *zone, int order);

/* compaction_zone_init(): scanner positions at boot (machine_create). */
void compaction_zone_init(struct zone *zone);

/* reset_isolation_suitable(): kswapd clears skip bits before sleeping. */
void reset_isolation_suitable(pg_data_t *pgdat);

/*
 * Whole-node compaction as /proc/sys/vm/compact_memory does it
 * (compact_node(pgdat, false): SYNC, whole zones, skip bits ignored), and
 * the proactive variant kcompactd runs (mm/compaction.c).
 */
void compact_node(pg_data_t *pgdat, bool proactive);
unsigned int fragmentation_score_node(pg_data_t *pgdat);

/* kcompactd (mm/compaction.c). */
void wakeup_kcompactd(pg_data_t *pgdat, int order, int highest_zoneidx);
void kcompactd_run(struct machine *m);

/* ---- migration (mm/migrate.c) ------------------------------------------------ */

enum migrate_reason { MR_COMPACTION, MR_NUMA_MISPLACED, MR_TYPES };

/* new_folio_t / free_folio_t: the destination allocator and its undo. */
typedef pfn_t (*new_folio_t)(struct machine *m, pfn_t src, void *priv);
typedef void (*free_folio_t)(struct machine *m, pfn_t dst, void *priv);

/*
 * migrate_pages() (6.12): migrate the isolated folios on `from` (linked
 * through struct page.next/prev, each PG_isolated).  Migrated and freed
 * folios leave the list; the others stay on it for the caller's
 * putback_movable_pages().  Returns the number of folios not migrated, or
 * -ENOMEM when get_new failed (the rest stay on the list).
 */
int migrate_pages(struct machine *m, struct pfn_list *from, new_folio_t get_new,
		  free_folio_t put_new, void *priv, enum migrate_mode mode,
		  enum migrate_reason reason, unsigned int *nr_succeeded);
/* putback_movable_pages(): return isolated folios to the LRU (or free the
 * ones whose owner freed them meanwhile: folio_putback_lru). */
void putback_movable_pages(struct machine *m, struct pfn_list *list);
/* folio_mapcount(): the page-table entries mapping the folio (anon: 1;
 * page cache and shmem: the sum of its pages' map counts). */
unsigned long folio_mapcount_model(const struct machine *m, pfn_t pfn);
/* folio_mapped(): mapped by a process (folio_mapcount_model > 0). */
bool folio_mapped_model(const struct machine *m, pfn_t pfn);
/* The CPU of rmap walks over a mapped page-cache or shmem folio's VMAs
 * (migrate.c), `mapped` its map count: `walks` over all of them, and one
 * that stops once the folio is unmapped if `until_unmapped`.  Nothing for
 * anon folios. */
void rmap_walk_file_charge(struct machine *m, pfn_t pfn, unsigned long mapped, unsigned int walks,
			   bool until_unmapped);

#endif
