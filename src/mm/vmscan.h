/* SPDX-License-Identifier: MIT */
/*
 * vmscan.h — page reclaim and kswapd (mm/vmscan.c, include/linux/swap.h;
 * Linux 6.12, classic LRU and MGLRU; mm/vmscan.c).
 */
#ifndef SLOWPATH_MM_VMSCAN_H
#define SLOWPATH_MM_VMSCAN_H

#include <stdbool.h>

#include "mm/internal.h"

#define SWAP_CLUSTER_MAX	32UL
#define DEF_PRIORITY		12
#define MAX_RECLAIM_RETRIES	16

/*
 * try_to_free_pages() (do_try_to_free_pages, mm/vmscan.c): direct reclaim for an allocation of `order`
 * with `gfp` over the request's zones.  Returns pages reclaimed, 1 when it
 * stopped early because compaction is ready (costly orders), or 0.
 */
unsigned long try_to_free_pages(struct machine *m, const struct alloc_context *ac,
				unsigned int order, gfp_t gfp);

/*
 * try_to_inc_max_seq() (MGLRU, mm/vmscan.c 6.12, without the page-table
 * walk): one aging step if max_seq is still `seq`; reclaim calls it when
 * the oldest generations run out (get_nr_to_scan), tests call it
 * directly.  can_swap: false in the model (no swap).  Returns whether
 * max_seq advanced.
 */
bool try_to_inc_max_seq(struct machine *m, struct lruvec *lruvec, unsigned long seq, bool can_swap);

/* zone_reclaimable_pages(): file LRU pages of the zone (anon only with
 * swap, which the model does not have); free pages if there are none. */
unsigned long zone_reclaimable_pages(struct zone *zone);

/* pgdat_balanced(): some eligible zone meets its high watermark for the
 * order (6.15 defrag_mode: in whole free pageblocks). */
bool pgdat_balanced(pg_data_t *pgdat, int order, int highest_zoneidx);

/* reclaim_throttle() (do_try_to_free_pages, mm/vmscan.c step 6): sleep on the reason's queue for the
 * kernel's timeout (HZ/10 writeback, HZ/50 isolated, one jiffy for no
 * progress / congestion).  Kernel threads other than kswapd, and engine
 * context, do not sleep. */
void reclaim_throttle(pg_data_t *pgdat, enum vmscan_throttle_state reason);

/* acct_reclaim_writeback(): a folio finished writeback (call from the
 * writeback completion path): wake writeback-throttled reclaimers once
 * enough has been written since they went to sleep. */
void acct_reclaim_writeback(struct machine *m, pfn_t pfn);

/* Start kswapd (machine_start). */
void kswapd_run(struct machine *m);

/* Kernel threads: register a task kind as kernel threads (reclaim does
 * not throttle them), and tests for the current task. */
int mm_kthread_kind(struct machine *m, const char *name);
bool current_is_kswapd(const struct machine *m);
bool current_is_kthread(const struct machine *m);

#endif
