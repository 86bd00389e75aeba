/* SPDX-License-Identifier: MIT */
/*
 * sysctl.c — option rows for struct vm_sysctl.  Keys are spelled exactly
 * as sysctl(8) or sysfs spell them.
 */
#include <stddef.h>

#include "mm/sysctl.h"
#include "sim/sim.h"

#define F(field) offsetof(struct vm_sysctl, field)

static const char *const thp_mode_names[] = { "always", "madvise", "never", NULL };
static const char *const thp_defrag_names[] = { "always", "defer", "defer+madvise",
						"madvise", "never", NULL };

const struct opt_def vm_sysctl_options[] = {
	{ "vm.min_free_kbytes", OPT_UINT, F(min_free_kbytes), "0", 0, 1ULL << 32, NULL, 0,
	  "reserve below which only atomic/reclaim-context allocations proceed; 0 = the kernel's "
	  "boot-time value sqrt(16 * lowmem_kbytes) clamped to [128, 262144]" },
	{ "vm.watermark_scale_factor", OPT_UINT, F(watermark_scale_factor), "10", 1, 3000, NULL, 0,
	  "distance between min/low/high watermarks in 1/10000 of managed memory" },
	{ "vm.watermark_boost_factor", OPT_UINT, F(watermark_boost_factor), "15000", 0, 1000000, NULL, 0,
	  "maximum watermark boost after fragmenting fallbacks, in 1/10000 of the high watermark" },
	{ "vm.percpu_pagelist_high_fraction", OPT_UINT, F(percpu_pagelist_high_fraction), "0", 0, 1000000, NULL, 0,
	  "0 = pcp high auto-tuning; otherwise pcp high = managed/fraction/CPUs (min 8 per kernel)" },
	{ "vm.lowmem_reserve_ratio", OPT_STRING, F(lowmem_reserve_ratio), "256 256 32 0", 0, 0, NULL, 0,
	  "per-zone lowmem reserve ratios (DMA DMA32 Normal Movable)" },
	{ "vm.extfrag_threshold", OPT_UINT, F(extfrag_threshold), "500", 0, 1000, NULL, 0,
	  "costly-order compaction is skipped when the fragmentation index is in [0, threshold]" },
	{ "vm.compaction_proactiveness", OPT_UINT, F(compaction_proactiveness), "20", 0, 100, NULL, 0,
	  "proactive compaction aggressiveness (0 disables)" },
	{ "vm.compact_unevictable_allowed", OPT_BOOL, F(compact_unevictable_allowed), "1", 0, 0, NULL, 0,
	  "compaction may migrate unevictable pages" },
	{ "vm.defrag_mode", OPT_BOOL, F(defrag_mode), "0", 0, 0, NULL, 0,
	  "6.15+: avoid fragmenting fallbacks; kswapd/kcompactd work in whole pageblocks" },
	{ "vm.zone_reclaim_mode", OPT_UINT, F(zone_reclaim_mode), "0", 0, 7, NULL, 0,
	  "node-local reclaim before falling back (one node: no effect)" },
	{ "vm.stat_interval", OPT_TIME, F(stat_interval), "1", 1000000, 0, NULL, 1000000000ULL,
	  "vmstat_update period (per-CPU counter folding, pcp high decay); bare numbers are seconds" },
	{ "vm.dirty_ratio", OPT_UINT, F(dirty_ratio), "20", 0, 100, NULL, 0,
	  "writers are throttled above this % of dirtyable memory" },
	{ "vm.dirty_background_ratio", OPT_UINT, F(dirty_background_ratio), "10", 0, 100, NULL, 0,
	  "flushers start background writeback above this % of dirtyable memory" },
	{ "vm.dirty_expire_centisecs", OPT_UINT, F(dirty_expire_centisecs), "3000", 0, 1000000, NULL, 0,
	  "dirty data older than this is written by the periodic flusher" },
	{ "vm.dirty_writeback_centisecs", OPT_UINT, F(dirty_writeback_centisecs), "500", 0, 1000000, NULL, 0,
	  "period of the flusher's periodic writeback" },
	{ "vm.swappiness", OPT_UINT, F(swappiness), "60", 0, 200, NULL, 0,
	  "anon vs file reclaim balance; no swap device is modelled, so anon is not reclaimable" },
	{ "vm.vfs_cache_pressure", OPT_UINT, F(vfs_cache_pressure), "100", 0, 100000, NULL, 0,
	  "reclaim pressure on dentry/inode caches" },
	{ "vm.nr_hugepages", OPT_UINT, F(nr_hugepages), "0", 0, 1ULL << 32, NULL, 0,
	  "persistent hugetlb pool size (2 MiB pages), reserved at start" },
	{ "/sys/kernel/mm/transparent_hugepage/enabled", OPT_ENUM, F(thp_enabled), "madvise", 0, 0,
	  thp_mode_names, 0, "THP for anonymous memory" },
	{ "/sys/kernel/mm/transparent_hugepage/defrag", OPT_ENUM, F(thp_defrag), "madvise", 0, 0,
	  thp_defrag_names, 0, "THP fault-time defragmentation" },
	{ "/sys/kernel/mm/transparent_hugepage/shmem_enabled", OPT_ENUM, F(thp_shmem_enabled), "never", 0, 0,
	  thp_mode_names, 0, "THP for shmem/tmpfs (PostgreSQL shared_buffers)" },
	{ "/sys/kernel/mm/lru_gen/min_ttl_ms", OPT_UINT, F(lru_gen_min_ttl_ms), "0", 0, UINT32_MAX, NULL, 0,
	  "MGLRU ([kernel] lru_gen=on): kswapd calls the OOM killer when the oldest generation is "
	  "younger than this (the model kills nothing and counts it); 0 = off" },
	{ "kernel.hung_task_timeout_secs", OPT_UINT, F(hung_task_timeout_secs), "120", 0, 1ULL << 32,
	  NULL, 0, "khungtaskd (kernel/hung_task.c): report a task in uninterruptible sleep (block "
	  "I/O, folio lock or writeback, mutex, rwsem) that has not run for this many seconds, on "
	  "stderr as \"INFO: task ...\" with where it sleeps, counted in the figure "
	  "hung_task_detect_count; 0 = off" },
	{ "kernel.hung_task_check_interval_secs", OPT_UINT, F(hung_task_check_interval_secs), "0", 0,
	  1ULL << 32, NULL, 0, "seconds between khungtaskd's checks; 0 = the timeout.  The run "
	  "checks at the first sample_interval step at or after each" },
	{ "kernel.hung_task_warnings", OPT_INT, F(hung_task_warnings), "10", (uint64_t)-1, INT32_MAX,
	  NULL, 0, "hung-task reports printed before they are suppressed (they are still counted); "
	  "-1 = no limit" },
	{ "kernel.watchdog_thresh", OPT_UINT, F(watchdog_thresh), "10", 0, 60, NULL, 0,
	  "the hard-lockup detector (kernel/watchdog.c): report a CPU whose interrupt context or "
	  "owner has spun on a kernel spinlock (taken with interrupts off) for this many seconds, "
	  "once per episode, on stderr, counted in the figure hard_lockup_count: a deadlock in the "
	  "model; 0 = off" },
	OPT_END
};
