/* SPDX-License-Identifier: MIT */
/*
 * vmstat.h — the kernel's counters under the kernel's names, and the
 * functions that update them (mm/vmstat.c; include/linux/vmstat.h,
 * include/linux/mmzone.h, include/linux/vm_event_item.h).
 *
 * One table per kind of counter (X-macros, so the enum and the name
 * strings cannot drift apart).  The order of every table is the order of
 * /proc/vmstat in Linux 6.18 (../shared/fixtures/proc-linux-6.18/vmstat),
 * which the renderers must reproduce; enum names are the kernel's.
 *
 * Kinds (mm/vmstat.c):
 *   zone_stat_item  per-zone state, per-CPU s8 diffs folded at a threshold
 *   numa_stat_item  per-zone NUMA events, per-CPU, summed when read
 *   node_stat_item  per-node state, per-CPU s8 diffs folded at a threshold
 *   vm_stat_item    system-wide values computed when /proc/vmstat is read
 *   vm_event_item   per-CPU event counts, never folded, summed when read
 *   sim_stat_item   model-only counters ("sim_" prefix), printed after the
 *                   kernel's names
 *
 * Which counters the model moves today is listed in docs/mm.md; the rest
 * print as 0 until the subsystem that moves them is modelled.
 */
#ifndef SLOWPATH_MM_VMSTAT_H
#define SLOWPATH_MM_VMSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* X(enum, name) — zone state counters (6.18 order; NR_BOUNCE is gone,
 * NR_FREE_PAGES_BLOCKS is the 6.15 counter of free pages in blocks of
 * order >= pageblock_order). */
#define ZONE_STAT_ITEMS(X)						\
	X(NR_FREE_PAGES,		"nr_free_pages")		\
	X(NR_FREE_PAGES_BLOCKS,		"nr_free_pages_blocks")		\
	X(NR_ZONE_INACTIVE_ANON,	"nr_zone_inactive_anon")	\
	X(NR_ZONE_ACTIVE_ANON,		"nr_zone_active_anon")		\
	X(NR_ZONE_INACTIVE_FILE,	"nr_zone_inactive_file")	\
	X(NR_ZONE_ACTIVE_FILE,		"nr_zone_active_file")		\
	X(NR_ZONE_UNEVICTABLE,		"nr_zone_unevictable")		\
	X(NR_ZONE_WRITE_PENDING,	"nr_zone_write_pending")	\
	X(NR_MLOCK,			"nr_mlock")			\
	X(NR_ZSPAGES,			"nr_zspages")			\
	X(NR_FREE_CMA_PAGES,		"nr_free_cma")

#define NUMA_STAT_ITEMS(X)						\
	X(NUMA_HIT,			"numa_hit")			\
	X(NUMA_MISS,			"numa_miss")			\
	X(NUMA_FOREIGN,			"numa_foreign")			\
	X(NUMA_INTERLEAVE_HIT,		"numa_interleave")		\
	X(NUMA_LOCAL,			"numa_local")			\
	X(NUMA_OTHER,			"numa_other")

/* Node state counters.  NR_SLAB_*_B count bytes (shown in pages); the
 * *_THPS / *_PMDMAPPED items count pages and are shown in THP units. */
#define NODE_STAT_ITEMS(X)						\
	X(NR_INACTIVE_ANON,		"nr_inactive_anon")		\
	X(NR_ACTIVE_ANON,		"nr_active_anon")		\
	X(NR_INACTIVE_FILE,		"nr_inactive_file")		\
	X(NR_ACTIVE_FILE,		"nr_active_file")		\
	X(NR_UNEVICTABLE,		"nr_unevictable")		\
	X(NR_SLAB_RECLAIMABLE_B,	"nr_slab_reclaimable")		\
	X(NR_SLAB_UNRECLAIMABLE_B,	"nr_slab_unreclaimable")	\
	X(NR_ISOLATED_ANON,		"nr_isolated_anon")		\
	X(NR_ISOLATED_FILE,		"nr_isolated_file")		\
	X(WORKINGSET_NODES,		"workingset_nodes")		\
	X(WORKINGSET_REFAULT_ANON,	"workingset_refault_anon")	\
	X(WORKINGSET_REFAULT_FILE,	"workingset_refault_file")	\
	X(WORKINGSET_ACTIVATE_ANON,	"workingset_activate_anon")	\
	X(WORKINGSET_ACTIVATE_FILE,	"workingset_activate_file")	\
	X(WORKINGSET_RESTORE_ANON,	"workingset_restore_anon")	\
	X(WORKINGSET_RESTORE_FILE,	"workingset_restore_file")	\
	X(WORKINGSET_NODERECLAIM,	"workingset_nodereclaim")	\
	X(NR_ANON_MAPPED,		"nr_anon_pages")		\
	X(NR_FILE_MAPPED,		"nr_mapped")			\
	X(NR_FILE_PAGES,		"nr_file_pages")		\
	X(NR_FILE_DIRTY,		"nr_dirty")			\
	X(NR_WRITEBACK,			"nr_writeback")			\
	X(NR_SHMEM,			"nr_shmem")			\
	X(NR_SHMEM_THPS,		"nr_shmem_hugepages")		\
	X(NR_SHMEM_PMDMAPPED,		"nr_shmem_pmdmapped")		\
	X(NR_FILE_THPS,			"nr_file_hugepages")		\
	X(NR_FILE_PMDMAPPED,		"nr_file_pmdmapped")		\
	X(NR_ANON_THPS,			"nr_anon_transparent_hugepages") \
	X(NR_VMSCAN_WRITE,		"nr_vmscan_write")		\
	X(NR_VMSCAN_IMMEDIATE,		"nr_vmscan_immediate_reclaim")	\
	X(NR_DIRTIED,			"nr_dirtied")			\
	X(NR_WRITTEN,			"nr_written")			\
	X(NR_THROTTLED_WRITTEN,		"nr_throttled_written")		\
	X(NR_KERNEL_MISC_RECLAIMABLE,	"nr_kernel_misc_reclaimable")	\
	X(NR_FOLL_PIN_ACQUIRED,		"nr_foll_pin_acquired")		\
	X(NR_FOLL_PIN_RELEASED,		"nr_foll_pin_released")		\
	X(NR_KERNEL_STACK_KB,		"nr_kernel_stack")		\
	X(NR_PAGETABLE,			"nr_page_table_pages")		\
	X(NR_SECONDARY_PAGETABLE,	"nr_sec_page_table_pages")	\
	X(NR_IOMMU_PAGES,		"nr_iommu_pages")		\
	X(NR_SWAPCACHE,			"nr_swapcached")		\
	X(PGPROMOTE_SUCCESS,		"pgpromote_success")		\
	X(PGPROMOTE_CANDIDATE,		"pgpromote_candidate")		\
	X(PGPROMOTE_CANDIDATE_NRL,	"pgpromote_candidate_nrl")	\
	X(PGDEMOTE_KSWAPD,		"pgdemote_kswapd")		\
	X(PGDEMOTE_DIRECT,		"pgdemote_direct")		\
	X(PGDEMOTE_KHUGEPAGED,		"pgdemote_khugepaged")		\
	X(PGDEMOTE_PROACTIVE,		"pgdemote_proactive")		\
	X(NR_HUGETLB,			"nr_hugetlb")			\
	X(NR_BALLOON_PAGES,		"nr_balloon_pages")		\
	X(NR_KERNEL_FILE_PAGES,		"nr_kernel_file_pages")

#define VM_STAT_ITEMS(X)						\
	X(NR_DIRTY_THRESHOLD,		"nr_dirty_threshold")		\
	X(NR_DIRTY_BG_THRESHOLD,	"nr_dirty_background_threshold") \
	X(NR_MEMMAP_PAGES,		"nr_memmap_pages")		\
	X(NR_MEMMAP_BOOT_PAGES,		"nr_memmap_boot_pages")

/* FOR_ALL_ZONES(): one event per zone type, in zone order. */
#define VM_EVENT_ZONES(X, E, n)						\
	X(E##_DMA, n "_dma") X(E##_DMA32, n "_dma32") X(E##_NORMAL, n "_normal") \
	X(E##_MOVABLE, n "_movable") X(E##_DEVICE, n "_device")

#define VM_EVENT_ITEMS(X)						\
	X(PGPGIN, "pgpgin") X(PGPGOUT, "pgpgout")			\
	X(PSWPIN, "pswpin") X(PSWPOUT, "pswpout")			\
	VM_EVENT_ZONES(X, PGALLOC, "pgalloc")				\
	VM_EVENT_ZONES(X, ALLOCSTALL, "allocstall")			\
	VM_EVENT_ZONES(X, PGSCAN_SKIP, "pgskip")			\
	X(PGFREE, "pgfree") X(PGACTIVATE, "pgactivate")		\
	X(PGDEACTIVATE, "pgdeactivate") X(PGLAZYFREE, "pglazyfree")	\
	X(PGFAULT, "pgfault") X(PGMAJFAULT, "pgmajfault")		\
	X(PGLAZYFREED, "pglazyfreed") X(PGREFILL, "pgrefill")		\
	X(PGREUSE, "pgreuse")						\
	X(PGSTEAL_KSWAPD, "pgsteal_kswapd")				\
	X(PGSTEAL_DIRECT, "pgsteal_direct")				\
	X(PGSTEAL_KHUGEPAGED, "pgsteal_khugepaged")			\
	X(PGSTEAL_PROACTIVE, "pgsteal_proactive")			\
	X(PGSCAN_KSWAPD, "pgscan_kswapd")				\
	X(PGSCAN_DIRECT, "pgscan_direct")				\
	X(PGSCAN_KHUGEPAGED, "pgscan_khugepaged")			\
	X(PGSCAN_PROACTIVE, "pgscan_proactive")				\
	X(PGSCAN_DIRECT_THROTTLE, "pgscan_direct_throttle")		\
	X(PGSCAN_ANON, "pgscan_anon") X(PGSCAN_FILE, "pgscan_file")	\
	X(PGSTEAL_ANON, "pgsteal_anon") X(PGSTEAL_FILE, "pgsteal_file")	\
	X(PGSCAN_ZONE_RECLAIM_SUCCESS, "zone_reclaim_success")		\
	X(PGSCAN_ZONE_RECLAIM_FAILED, "zone_reclaim_failed")		\
	X(PGINODESTEAL, "pginodesteal") X(SLABS_SCANNED, "slabs_scanned") \
	X(KSWAPD_INODESTEAL, "kswapd_inodesteal")			\
	X(KSWAPD_LOW_WMARK_HIT_QUICKLY, "kswapd_low_wmark_hit_quickly")	\
	X(KSWAPD_HIGH_WMARK_HIT_QUICKLY, "kswapd_high_wmark_hit_quickly") \
	X(PAGEOUTRUN, "pageoutrun") X(PGROTATED, "pgrotated")		\
	X(DROP_PAGECACHE, "drop_pagecache") X(DROP_SLAB, "drop_slab")	\
	X(OOM_KILL, "oom_kill")						\
	X(NUMA_PTE_UPDATES, "numa_pte_updates")				\
	X(NUMA_HUGE_PTE_UPDATES, "numa_huge_pte_updates")		\
	X(NUMA_HINT_FAULTS, "numa_hint_faults")				\
	X(NUMA_HINT_FAULTS_LOCAL, "numa_hint_faults_local")		\
	X(NUMA_PAGE_MIGRATE, "numa_pages_migrated")			\
	X(PGMIGRATE_SUCCESS, "pgmigrate_success")			\
	X(PGMIGRATE_FAIL, "pgmigrate_fail")				\
	X(THP_MIGRATION_SUCCESS, "thp_migration_success")		\
	X(THP_MIGRATION_FAIL, "thp_migration_fail")			\
	X(THP_MIGRATION_SPLIT, "thp_migration_split")			\
	X(COMPACTMIGRATE_SCANNED, "compact_migrate_scanned")		\
	X(COMPACTFREE_SCANNED, "compact_free_scanned")			\
	X(COMPACTISOLATED, "compact_isolated")				\
	X(COMPACTSTALL, "compact_stall") X(COMPACTFAIL, "compact_fail")	\
	X(COMPACTSUCCESS, "compact_success")				\
	X(KCOMPACTD_WAKE, "compact_daemon_wake")			\
	X(KCOMPACTD_MIGRATE_SCANNED, "compact_daemon_migrate_scanned")	\
	X(KCOMPACTD_FREE_SCANNED, "compact_daemon_free_scanned")	\
	X(HTLB_BUDDY_PGALLOC, "htlb_buddy_alloc_success")		\
	X(HTLB_BUDDY_PGALLOC_FAIL, "htlb_buddy_alloc_fail")		\
	X(UNEVICTABLE_PGCULLED, "unevictable_pgs_culled")		\
	X(UNEVICTABLE_PGSCANNED, "unevictable_pgs_scanned")		\
	X(UNEVICTABLE_PGRESCUED, "unevictable_pgs_rescued")		\
	X(UNEVICTABLE_PGMLOCKED, "unevictable_pgs_mlocked")		\
	X(UNEVICTABLE_PGMUNLOCKED, "unevictable_pgs_munlocked")		\
	X(UNEVICTABLE_PGCLEARED, "unevictable_pgs_cleared")		\
	X(UNEVICTABLE_PGSTRANDED, "unevictable_pgs_stranded")		\
	X(THP_FAULT_ALLOC, "thp_fault_alloc")				\
	X(THP_FAULT_FALLBACK, "thp_fault_fallback")			\
	X(THP_FAULT_FALLBACK_CHARGE, "thp_fault_fallback_charge")	\
	X(THP_COLLAPSE_ALLOC, "thp_collapse_alloc")			\
	X(THP_COLLAPSE_ALLOC_FAILED, "thp_collapse_alloc_failed")	\
	X(THP_FILE_ALLOC, "thp_file_alloc")				\
	X(THP_FILE_FALLBACK, "thp_file_fallback")			\
	X(THP_FILE_FALLBACK_CHARGE, "thp_file_fallback_charge")		\
	X(THP_FILE_MAPPED, "thp_file_mapped")				\
	X(THP_SPLIT_PAGE, "thp_split_page")				\
	X(THP_SPLIT_PAGE_FAILED, "thp_split_page_failed")		\
	X(THP_DEFERRED_SPLIT_PAGE, "thp_deferred_split_page")		\
	X(THP_UNDERUSED_SPLIT_PAGE, "thp_underused_split_page")		\
	X(THP_SPLIT_PMD, "thp_split_pmd")				\
	X(THP_SCAN_EXCEED_NONE_PTE, "thp_scan_exceed_none_pte")		\
	X(THP_SCAN_EXCEED_SWAP_PTE, "thp_scan_exceed_swap_pte")		\
	X(THP_SCAN_EXCEED_SHARED_PTE, "thp_scan_exceed_share_pte")	\
	X(THP_SPLIT_PUD, "thp_split_pud")				\
	X(THP_ZERO_PAGE_ALLOC, "thp_zero_page_alloc")			\
	X(THP_ZERO_PAGE_ALLOC_FAILED, "thp_zero_page_alloc_failed")	\
	X(THP_SWPOUT, "thp_swpout")					\
	X(THP_SWPOUT_FALLBACK, "thp_swpout_fallback")			\
	X(BALLOON_INFLATE, "balloon_inflate")				\
	X(BALLOON_DEFLATE, "balloon_deflate")				\
	X(BALLOON_MIGRATE, "balloon_migrate")				\
	X(SWAP_RA, "swap_ra") X(SWAP_RA_HIT, "swap_ra_hit")		\
	X(SWPIN_ZERO, "swpin_zero") X(SWPOUT_ZERO, "swpout_zero")	\
	X(KSM_SWPIN_COPY, "ksm_swpin_copy") X(COW_KSM, "cow_ksm")	\
	X(ZSWPIN, "zswpin") X(ZSWPOUT, "zswpout") X(ZSWPWB, "zswpwb")	\
	X(DIRECT_MAP_LEVEL2_SPLIT, "direct_map_level2_splits")		\
	X(DIRECT_MAP_LEVEL3_SPLIT, "direct_map_level3_splits")		\
	X(DIRECT_MAP_LEVEL2_COLLAPSE, "direct_map_level2_collapses")	\
	X(DIRECT_MAP_LEVEL3_COLLAPSE, "direct_map_level3_collapses")

/*
 * Model-only counters, printed after the kernel's names (and after the
 * kernel's deprecated "nr_unstable 0" line).  Counted machine-wide; they
 * cost nothing in the model's time.
 */
#define SIM_STAT_ITEMS(X)						\
	X(SIM_DRAIN_ALL_PAGES,	"sim_drain_all_pages")	/* __drain_all_pages runs that drained */ \
	X(SIM_DRAIN_SKIPPED,	"sim_drain_skipped")	/* zone==NULL drains skipped: mutex held */ \
	X(SIM_DRAIN_CPUS,	"sim_drain_cpus")	/* CPUs found with pcp pages by drains */ \
	X(SIM_DRAIN_PAGES,	"sim_drain_pages")	/* pages moved pcp -> buddy by drains */ \
	X(SIM_PCP_REFILL,	"sim_pcp_refill")	/* rmqueue_bulk calls */	\
	X(SIM_PCP_REFILL_PAGES,	"sim_pcp_refill_pages")	/* pages moved buddy -> pcp */	\
	X(SIM_PCP_FREE_BULK,	"sim_pcp_free_bulk")	/* free_pcppages_bulk calls */	\
	X(SIM_PCP_FREE_BULK_PAGES, "sim_pcp_free_bulk_pages") /* pages moved pcp -> buddy */ \
	X(SIM_PCP_TRYLOCK_FAIL,	"sim_pcp_trylock_fail")	/* pcp trylock failed: buddy path */ \
	X(SIM_RMQUEUE_CLAIM,	"sim_rmqueue_claim")	/* __rmqueue_claim took a block */ \
	X(SIM_RMQUEUE_STEAL,	"sim_rmqueue_steal")	/* __rmqueue_steal took a block */ \
	X(SIM_CLAIM_REFUSED,	"sim_claim_refused")	/* try_to_claim_block: too few alike */ \
	X(SIM_WATERMARK_BOOST,	"sim_watermark_boost")	/* boost_watermark raised the boost */ \
	X(SIM_NOFRAGMENT_RETRY,	"sim_nofragment_retry")	/* second zonelist pass without NOFRAGMENT */ \
	X(SIM_ZONE_BELOW_HIGH,	"sim_zone_below_high")	/* ZONE_BELOW_HIGH set by the probe */ \
	X(SIM_WAKEUP_KSWAPD,	"sim_wakeup_kswapd")	/* wakeup_kswapd() calls (wake requests) */ \
	X(SIM_HIGHATOMIC_RESERVE, "sim_highatomic_reserve") /* pageblocks reserved HIGHATOMIC */ \
	X(SIM_HIGHATOMIC_UNRESERVE, "sim_highatomic_unreserve") /* reserves released */ \
	X(SIM_FASTPATH_FAIL,	"sim_fastpath_fail")	/* first get_page_from_freelist failed */ \
	SIM_SLOWPATH_ITEMS(X) \
	SIM_PAGECACHE_STAT_ITEMS(X)

/*
 * Tracepoint hit counts: how many times the kernel would fire each of
 * these tracepoints (6.12), counted at the model function that stands for
 * the kernel function firing it.  `perf stat -a -e EVENT` counts the same
 * on a machine, and `slowpath record` takes them that way; the cli prints
 * them in the recorder's order (report/result.h rpt_trace_events).
 *   mm_page_alloc            __alloc_pages, every call, failed ones too
 *   mm_page_free             free_pages_prepare: every block freed
 *   mm_page_alloc_zone_locked __rmqueue_smallest: a block off a free list
 *   mm_page_pcpu_drain       free_pcppages_bulk: each block to the buddy
 *   mm_page_alloc_extfrag    __rmqueue_claim / __rmqueue_steal success
 *   mm_compaction_begin      compact_zone past its suitability checks
 *   mm_vmscan_direct_reclaim_begin  try_to_free_pages
 *   mm_vmscan_wakeup_kswapd  wakeup_kswapd when it wakes kswapd
 *   mm_vmscan_kswapd_wake    kswapd, before each balance_pgdat
 *   mm_filemap_add_to_page_cache  __filemap_add_folio success, per folio,
 *                            file mappings only (6.12's shmem inserts
 *                            through shmem_add_to_page_cache, unseen)
 *   mm_filemap_delete_from_page_cache  __filemap_remove_folio, per folio,
 *                            file and shmem mappings (reclaim, truncation)
 * Not counted: kmem:mm_page_free_batched, which the kernel fires per
 * folio freed through free_unref_folios (reclaim, LRU batch releases,
 * munmap's TLB batches); the model frees every folio one by one through
 * free_unref_page, so it cannot tell which frees the kernel batches.
 */
#define MM_TRACEPOINTS(X)						\
	X(TP_MM_PAGE_ALLOC,		"kmem:mm_page_alloc")		\
	X(TP_MM_PAGE_FREE,		"kmem:mm_page_free")		\
	X(TP_MM_PAGE_ALLOC_ZONE_LOCKED,	"kmem:mm_page_alloc_zone_locked") \
	X(TP_MM_PAGE_PCPU_DRAIN,	"kmem:mm_page_pcpu_drain")	\
	X(TP_MM_PAGE_ALLOC_EXTFRAG,	"kmem:mm_page_alloc_extfrag")	\
	X(TP_MM_COMPACTION_BEGIN,	"compaction:mm_compaction_begin") \
	X(TP_MM_VMSCAN_DIRECT_RECLAIM_BEGIN, "vmscan:mm_vmscan_direct_reclaim_begin") \
	X(TP_MM_VMSCAN_WAKEUP_KSWAPD,	"vmscan:mm_vmscan_wakeup_kswapd") \
	X(TP_MM_VMSCAN_KSWAPD_WAKE,	"vmscan:mm_vmscan_kswapd_wake")	\
	X(TP_MM_FILEMAP_ADD,		"filemap:mm_filemap_add_to_page_cache") \
	X(TP_MM_FILEMAP_DELETE,		"filemap:mm_filemap_delete_from_page_cache")

/* FOR_ALL_ORDERS(): one model counter per order 0..10, or per costly
 * order 4..10, in order. */
#define SIM_ORDERS(X, E, n)						\
	X(E##_0, n "0") X(E##_1, n "1") X(E##_2, n "2") X(E##_3, n "3")	\
	SIM_COSTLY_ORDERS(X, E, n)
#define SIM_COSTLY_ORDERS(X, E, n)					\
	X(E##_4, n "4") X(E##_5, n "5") X(E##_6, n "6") X(E##_7, n "7")	\
	X(E##_8, n "8") X(E##_9, n "9") X(E##_10, n "10")

/*
 * Model-only counters of the slow path, compaction, reclaim and the kernel
 * threads (docs/slowpath.md lists where each moves).  "costly" counters
 * count only requests of order > PAGE_ALLOC_COSTLY_ORDER, which is how the
 * policy comparison separates the page-cache large-folio attempts from
 * everything else.
 */
#define SIM_SLOWPATH_ITEMS(X)						\
	X(SIM_SLOWPATH,		"sim_slowpath")		/* __alloc_pages_slowpath entries */ \
	SIM_ORDERS(X, SIM_SLOWPATH_ORDER, "sim_slowpath_order")		\
	X(SIM_SLOWPATH_FAIL,	"sim_slowpath_fail")	/* slow path returned no page */ \
	SIM_ORDERS(X, SIM_SLOWPATH_FAIL_ORDER, "sim_slowpath_fail_order")	\
	X(SIM_SLOWPATH_RETRY,	"sim_slowpath_retry")	/* goto retry taken */ \
	X(SIM_COSTLY_NORETRY,	"sim_costly_noretry")	/* costly __GFP_NORETRY slow-path entries */ \
	SIM_COSTLY_ORDERS(X, SIM_COSTLY_NORETRY_ORDER, "sim_costly_noretry_order") \
	X(SIM_COSTLY_NORETRY_FAIL, "sim_costly_noretry_fail") /* ... that failed */ \
	SIM_COSTLY_ORDERS(X, SIM_COSTLY_NORETRY_FAIL_ORDER, "sim_costly_noretry_fail_order") \
	X(SIM_POLICY_NORECLAIM,	"sim_policy_noreclaim")	/* V5/V6 cleared __GFP_DIRECT_RECLAIM */ \
	X(SIM_POLICY_KCOMPACTD,	"sim_policy_kcompactd")	/* V4 handed off to kcompactd and failed */ \
	X(SIM_DIRECT_COMPACT,	"sim_direct_compact")	/* __alloc_pages_direct_compact calls, order > 0 */ \
	X(SIM_DIRECT_COMPACT_COSTLY, "sim_direct_compact_costly") /* ... of costly requests */ \
	X(SIM_COMPACT_STALL_COSTLY, "sim_compact_stall_costly") /* compact_stall of costly requests */ \
	X(SIM_COMPACT_SKIPPED,	"sim_compact_skipped")	/* try_to_compact_pages -> SKIPPED */ \
	X(SIM_COMPACT_DEFERRED,	"sim_compact_deferred")	/* ... -> DEFERRED */ \
	X(SIM_COMPACT_CONTENDED, "sim_compact_contended") /* compact_zone -> CONTENDED */ \
	X(SIM_COMPACT_CAPTURE,	"sim_compact_capture")	/* a freed block captured for the compactor */ \
	X(SIM_COMPACT_DEFER,	"sim_compact_defer")	/* defer_compaction() */ \
	X(SIM_COMPACT_RESTART,	"sim_compact_restart")	/* skip bits cleared by compaction_restarting */ \
	X(SIM_DIRECT_RECLAIM,	"sim_direct_reclaim")	/* __alloc_pages_direct_reclaim calls */ \
	X(SIM_DIRECT_RECLAIM_COSTLY, "sim_direct_reclaim_costly") /* ... of costly requests */ \
	X(SIM_RECLAIM_COMPACTION_READY, "sim_reclaim_compaction_ready") /* try_to_free_pages returned 1 unreclaimed */ \
	X(SIM_DIRECT_DRAIN,	"sim_direct_drain")	/* drain_all_pages(NULL) after direct reclaim */ \
	X(SIM_DIRECT_DRAIN_COSTLY, "sim_direct_drain_costly") /* ... of costly requests */ \
	X(SIM_RECLAIM_RETRY,	"sim_reclaim_retry")	/* should_reclaim_retry said yes */ \
	X(SIM_COMPACT_RETRY,	"sim_compact_retry")	/* should_compact_retry said yes */ \
	X(SIM_OOM,		"sim_oom")		/* __alloc_pages_may_oom would call out_of_memory */ \
	X(SIM_OOM_SKIPPED,	"sim_oom_skipped")	/* ... bailed out (costly, RETRY_MAYFAIL, THISNODE, lowmem) */ \
	X(SIM_NOFAIL_GIVEUP,	"sim_nofail_giveup")	/* __GFP_NOFAIL loop cut off (see docs/slowpath.md) */ \
	X(SIM_KSWAPD_WAKE,	"sim_kswapd_wake")	/* wakeup_kswapd woke a sleeping kswapd */ \
	X(SIM_WAKEUP_KCOMPACTD,	"sim_wakeup_kcompactd")	/* wakeup_kcompactd() calls, order > 0 */ \
	X(SIM_KCOMPACTD_WAKE,	"sim_kcompactd_wake")	/* ... that woke a sleeping kcompactd */ \
	X(SIM_KCOMPACTD_PROACTIVE, "sim_kcompactd_proactive") /* proactive compact_node runs */ \
	X(SIM_RECLAIM_THROTTLE,	"sim_reclaim_throttle")	/* reclaim_throttle() sleeps */ \
	X(SIM_RECLAIM_THROTTLE_WRITEBACK, "sim_reclaim_throttle_writeback") \
	X(SIM_RECLAIM_THROTTLE_ISOLATED, "sim_reclaim_throttle_isolated") \
	X(SIM_RECLAIM_THROTTLE_NOPROGRESS, "sim_reclaim_throttle_noprogress") \
	X(SIM_RECLAIM_THROTTLE_CONGESTED, "sim_reclaim_throttle_congested") \
	X(SIM_KSWAPD_BOOST_RECLAIM, "sim_kswapd_boost_reclaim") /* balance_pgdat runs that started boosted */ \
	X(SIM_ISOLATED_FREE_DEFERRED, "sim_isolated_free_deferred") /* owner freed a folio an isolator held */ \
	X(SIM_FOLIO_LOCK_CONTENDED, "sim_folio_lock_contended") /* folio_trylock failed */

/* Page cache, writeback and processes (filemap.c, page-writeback.c,
 * memory.c, hugetlb.c).  sim_pagecache_attempt_orderN counts every
 * filemap_alloc_folio() call of order N from __filemap_get_folio() and
 * readahead; sim_pagecache_alloc_orderN the ones that got a folio. */
#define SIM_PAGECACHE_ORDERS(X, E, n)					\
	X(E##0, n "0") X(E##1, n "1") X(E##2, n "2") X(E##3, n "3") X(E##4, n "4") \
	X(E##5, n "5") X(E##6, n "6") X(E##7, n "7") X(E##8, n "8") X(E##9, n "9")

#define SIM_PAGECACHE_STAT_ITEMS(X)					\
	SIM_PAGECACHE_ORDERS(X, SIM_PAGECACHE_ATTEMPT_ORDER, "sim_pagecache_attempt_order") \
	SIM_PAGECACHE_ORDERS(X, SIM_PAGECACHE_ALLOC_ORDER, "sim_pagecache_alloc_order") \
	X(SIM_PAGECACHE_NONBLOCKING, "sim_pagecache_attempt_nonblocking") /* attempts without __GFP_DIRECT_RECLAIM */ \
	X(SIM_PAGECACHE_EEXIST,	"sim_pagecache_eexist")	/* filemap_add_folio lost a race: -EEXIST */ \
	X(SIM_PAGECACHE_ENOMEM,	"sim_pagecache_enomem")	/* __filemap_get_folio failed every order */ \
	X(SIM_DIRTY_THROTTLE,	"sim_dirty_throttle")	/* balance_dirty_pages pauses */ \
	X(SIM_DIRTY_THROTTLE_MS, "sim_dirty_throttle_ms") /* ms writers slept in balance_dirty_pages */ \
	X(SIM_WB_BACKGROUND,	"sim_wb_background")	/* background writeback passes */ \
	X(SIM_WB_PERIODIC,	"sim_wb_periodic")	/* periodic (kupdate) writeback passes */ \
	X(SIM_WB_PERIODIC_PAGES, "sim_wb_periodic_pages")	/* pages those passes wrote */ \
	X(SIM_WB_BIOS,		"sim_wb_bios")		/* writeback bios submitted */ \
	X(SIM_WBT_THROTTLE,	"sim_wbt_throttle")	/* writeback bios that waited in wbt_wait */ \
	X(SIM_WBT_THROTTLE_US,	"sim_wbt_throttle_us")	/* us they waited there */ \
	X(SIM_READAHEAD_PAGES,	"sim_readahead_pages")	/* pages read by readahead */ \
	X(SIM_PTE_PAGES_ALLOC,	"sim_pte_pages_alloc")	/* PTE pages allocated (pte_alloc_one) */ \
	X(SIM_PGTABLE_ALLOC_FAIL, "sim_pgtable_alloc_fail") /* page-table allocations that failed (fault -> VM_FAULT_OOM) */ \
	X(SIM_HUGETLB_POOL_WANTED, "sim_hugetlb_pool_wanted") /* vm.nr_hugepages asked for at start */ \
	X(SIM_HUGETLB_POOL_SHORTFALL, "sim_hugetlb_pool_shortfall") /* of those, pages the buddy could not supply */ \
	X(SIM_HUGETLB_PMD_SHARED, "sim_hugetlb_pmd_shared") /* huge_pmd_share found a PMD page to share */ \
	X(SIM_RMAP_VMA_VISITS,	"sim_rmap_vma_visits")	/* VMAs visited by rmap walks of file/shmem folios */

#define VMSTAT_ENUM(e, n) e,
enum zone_stat_item { ZONE_STAT_ITEMS(VMSTAT_ENUM) NR_VM_ZONE_STAT_ITEMS };
enum numa_stat_item { NUMA_STAT_ITEMS(VMSTAT_ENUM) NR_VM_NUMA_EVENT_ITEMS };
enum node_stat_item { NODE_STAT_ITEMS(VMSTAT_ENUM) NR_VM_NODE_STAT_ITEMS };
enum vm_stat_item { VM_STAT_ITEMS(VMSTAT_ENUM) NR_VM_STAT_ITEMS };
enum vm_event_item { VM_EVENT_ITEMS(VMSTAT_ENUM) NR_VM_EVENT_ITEMS };
enum sim_stat_item { SIM_STAT_ITEMS(VMSTAT_ENUM) NR_SIM_STAT_ITEMS };
#undef VMSTAT_ENUM

extern const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS];
extern const char *const numa_stat_names[NR_VM_NUMA_EVENT_ITEMS];
extern const char *const node_stat_names[NR_VM_NODE_STAT_ITEMS];
extern const char *const vm_stat_names[NR_VM_STAT_ITEMS];
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
extern const char *const sim_stat_names[NR_SIM_STAT_ITEMS];

/* include/linux/vmstat.h: vmstat_item_in_bytes(), vmstat_item_print_in_thp() */
static inline bool vmstat_item_in_bytes(enum node_stat_item item)
{
	return item == NR_SLAB_RECLAIMABLE_B || item == NR_SLAB_UNRECLAIMABLE_B;
}

static inline bool vmstat_item_print_in_thp(enum node_stat_item item)
{
	return item == NR_ANON_THPS || item == NR_FILE_THPS || item == NR_SHMEM_THPS ||
	       item == NR_SHMEM_PMDMAPPED || item == NR_FILE_PMDMAPPED;
}

struct machine;
struct zone;
struct pglist_data;

/*
 * Update functions.  Names, arguments and semantics are the kernel's; the
 * CPU is the engine's current CPU (sim_cpu()).  Each charges cost-table
 * rows (see vmstat.c): a per-CPU add or cmpxchg per call, two shared
 * atomics per fold.
 */
void __count_vm_events(struct machine *m, enum vm_event_item item, unsigned long delta);
void count_vm_events(struct machine *m, enum vm_event_item item, unsigned long delta);
static inline void count_vm_event(struct machine *m, enum vm_event_item item)
{
	count_vm_events(m, item, 1);
}
static inline void __count_vm_event(struct machine *m, enum vm_event_item item)
{
	__count_vm_events(m, item, 1);
}
/* __count_zid_vm_events(PGALLOC, zid, delta): item is the _DMA member. */
void __count_zid_vm_events(struct machine *m, enum vm_event_item base, unsigned int zid,
			   unsigned long delta);
void __count_numa_events(struct zone *zone, enum numa_stat_item item, unsigned long delta);

/* Zone state.  __mod (IRQs off: plain per-CPU RMW), mod/inc/dec (any
 * context: this_cpu_cmpxchg loop with overstep 0/+1/-1, arm64 and x86
 * have HAVE_CMPXCHG_LOCAL). */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void __inc_zone_state(struct zone *zone, enum zone_stat_item item);
void __dec_zone_state(struct zone *zone, enum zone_stat_item item);
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void inc_zone_state(struct zone *zone, enum zone_stat_item item);
void dec_zone_state(struct zone *zone, enum zone_stat_item item);

/* Node state, same two families. */
void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void __inc_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void __dec_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void inc_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void dec_node_state(struct pglist_data *pgdat, enum node_stat_item item);

/* Reads.  The plain reads return the folded value (may lag by up to
 * CPUs x threshold; clamped at 0 as the kernel's unsigned reads are); the
 * _snapshot reads add every CPU's diff (and cost a remote read per CPU). */
unsigned long zone_page_state(const struct zone *zone, enum zone_stat_item item);
unsigned long zone_page_state_snapshot(const struct zone *zone, enum zone_stat_item item);
long zone_page_state_exact(const struct zone *zone, enum zone_stat_item item);	/* model: no clamp, no cost */
unsigned long node_page_state(const struct pglist_data *pgdat, enum node_stat_item item);
unsigned long node_page_state_pages(const struct pglist_data *pgdat, enum node_stat_item item);
long node_page_state_exact(const struct pglist_data *pgdat, enum node_stat_item item);	/* model: no clamp, no cost */
unsigned long node_page_state_snapshot(const struct pglist_data *pgdat, enum node_stat_item item);
unsigned long global_zone_page_state(const struct machine *m, enum zone_stat_item item);
unsigned long global_node_page_state(const struct machine *m, enum node_stat_item item);
unsigned long global_node_page_state_pages(const struct machine *m, enum node_stat_item item);
unsigned long zone_numa_event_state(const struct zone *zone, enum numa_stat_item item);
unsigned long sum_vm_event(const struct machine *m, enum vm_event_item item);

/* Thresholds (refresh_zone_stat_thresholds, mm/vmstat.c). */
int calculate_normal_threshold(const struct zone *zone);
int calculate_pressure_threshold(const struct zone *zone);
void refresh_zone_stat_thresholds(struct machine *m);
void set_pgdat_percpu_threshold(struct pglist_data *pgdat,
				int (*calculate_pressure)(const struct zone *));

/*
 * refresh_cpu_vm_stats(): fold CPU `cpu`'s diffs into the zone/node and
 * global counters; with do_pagesets also decay that CPU's pcp high.  The
 * vmstat_update work item runs it on its CPU once per vm.stat_interval;
 * the engine's per-CPU timer calls vmstat_update() (wired with the run
 * driver).  Returns whether anything changed.
 */
bool refresh_cpu_vm_stats(struct machine *m, unsigned int cpu, bool do_pagesets);
void vmstat_update(struct machine *m, unsigned int cpu);

#define MM_TRACEPOINT_ENUM(e, name) e,
enum mm_tracepoint { MM_TRACEPOINTS(MM_TRACEPOINT_ENUM) NR_MM_TRACEPOINTS };
#undef MM_TRACEPOINT_ENUM
extern const char *const mm_tracepoint_names[NR_MM_TRACEPOINTS];
/* A tracepoint fired (machine-wide; no cost in the model's time). */
#define trace_count(m, tp)	((void)((m)->tracepoint[(tp)]++))
/* The count of the tracepoint named "subsystem:event", or -1 if the model
 * does not count it. */
int64_t mm_tracepoint_count(const struct machine *m, const char *name);

/* Model-only counters. */
void sim_stat_add(struct machine *m, enum sim_stat_item item, uint64_t delta);
static inline void sim_stat_inc(struct machine *m, enum sim_stat_item item)
{
	sim_stat_add(m, item, 1);
}
uint64_t sim_stat_read(const struct machine *m, enum sim_stat_item item);

#endif /* SLOWPATH_MM_VMSTAT_H */
