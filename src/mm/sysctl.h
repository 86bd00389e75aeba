/* SPDX-License-Identifier: MIT */
/*
 * sysctl.h — the kernel tunables the model honours, under their kernel
 * names (section [sysctl] of a scenario: `vm.watermark_scale_factor=10`,
 * `/sys/kernel/mm/transparent_hugepage/enabled=never`).  Defaults are the
 * kernel's (Linux 6.12's initial values in mm/ and kernel/sysctl.c).  The option table that
 * maps keys to these fields is vm_sysctl_options[] in sysctl.c.
 */
#ifndef SLOWPATH_MM_SYSCTL_H
#define SLOWPATH_MM_SYSCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/option.h"

enum thp_mode { THP_ALWAYS, THP_MADVISE, THP_NEVER };
enum thp_defrag { THP_DEFRAG_ALWAYS, THP_DEFRAG_DEFER, THP_DEFRAG_DEFER_MADVISE,
		  THP_DEFRAG_MADVISE, THP_DEFRAG_NEVER };

struct vm_sysctl {
	uint64_t min_free_kbytes;		/* 0 = computed as calculate_min_free_kbytes() */
	uint64_t watermark_scale_factor;	/* 10 = 0.1 % */
	uint64_t watermark_boost_factor;	/* 15000 = 150 % */
	uint64_t percpu_pagelist_high_fraction;	/* 0 = auto-tuning */
	char	*lowmem_reserve_ratio;		/* "256 256 32 0" (DMA DMA32 Normal Movable) */
	uint64_t extfrag_threshold;		/* 500 */
	uint64_t compaction_proactiveness;	/* 20 */
	bool	 compact_unevictable_allowed;	/* 1 */
	bool	 defrag_mode;			/* 0 (6.15+) */
	uint64_t zone_reclaim_mode;		/* 0 */
	uint64_t stat_interval;			/* ns; 1 s */
	uint64_t dirty_ratio;			/* 20 (%) */
	uint64_t dirty_background_ratio;	/* 10 (%) */
	uint64_t dirty_expire_centisecs;	/* 3000 */
	uint64_t dirty_writeback_centisecs;	/* 500 */
	uint64_t swappiness;			/* 60; no swap device is modelled */
	uint64_t vfs_cache_pressure;		/* 100 */
	uint64_t nr_hugepages;			/* 0 */
	int	 thp_enabled;			/* enum thp_mode; default madvise */
	int	 thp_defrag;			/* enum thp_defrag; default madvise */
	int	 thp_shmem_enabled;		/* enum thp_mode subset; default never */
	uint64_t lru_gen_min_ttl_ms;		/* /sys/kernel/mm/lru_gen/min_ttl_ms; 0 */
	/* kernel.hung_task_*: read by the run loop (sim_check_hung_tasks), not by mm */
	uint64_t hung_task_timeout_secs;	/* 120 (CONFIG_DEFAULT_HUNG_TASK_TIMEOUT); 0 = off */
	uint64_t hung_task_check_interval_secs;	/* 0 = the timeout */
	int64_t	 hung_task_warnings;		/* 10; -1 = no limit */
	uint64_t watchdog_thresh;		/* 10 s: hard lockups (sim_check_hard_lockups); 0 = off */
};

extern const struct opt_def vm_sysctl_options[];

#endif
