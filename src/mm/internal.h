/* SPDX-License-Identifier: MIT */
/*
 * internal.h — the mm model's private interface (mm/internal.h, 6.12):
 * ALLOC_* flags with the kernel's values, the allocation context, and the
 * page-allocator entry points the slow path, compaction, reclaim and the
 * page cache build on.
 */
#ifndef SLOWPATH_MM_INTERNAL_H
#define SLOWPATH_MM_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "mm/gfp.h"
#include "mm/mmzone.h"
#include "mm/policy.h"
#include "mm/types.h"

/* ALLOC_* (mm/internal.h; ALLOC_* flags, mm/internal.h).  The WMARK bits index _watermark[]. */
#define ALLOC_WMARK_MIN		WMARK_MIN
#define ALLOC_WMARK_LOW		WMARK_LOW
#define ALLOC_WMARK_HIGH	WMARK_HIGH
#define ALLOC_NO_WATERMARKS	0x04	/* don't check watermarks at all */
#define ALLOC_WMARK_MASK	(ALLOC_NO_WATERMARKS - 1)
#define ALLOC_OOM		0x08	/* OOM victim: extra reserve access */
#define ALLOC_NON_BLOCK		0x10	/* caller cannot block: reserve user */
#define ALLOC_MIN_RESERVE	0x20	/* __GFP_HIGH: half of the min reserve */
#define ALLOC_CPUSET		0x40	/* check cpuset (no cpusets modelled) */
#define ALLOC_CMA		0x80	/* may use CMA (no CMA modelled) */
#define ALLOC_NOFRAGMENT	0x100	/* avoid mixing pageblock types (CONFIG_ZONE_DMA32=y) */
#define ALLOC_HIGHATOMIC	0x200	/* may use and create HIGHATOMIC reserves */
#define ALLOC_KSWAPD		0x800	/* may wake kswapd; == __GFP_KSWAPD_RECLAIM */
#define ALLOC_RESERVES		(ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_HIGHATOMIC | ALLOC_OOM)

_Static_assert(ALLOC_KSWAPD == __GFP_KSWAPD_RECLAIM, "alloc_flags_nofragment relies on it");

/* FPI_* (free page internal flags, mm/page_alloc.c) */
#define FPI_NONE		0x0
#define FPI_SKIP_REPORT_NOTIFY	0x1
#define FPI_TO_TAIL		0x2

/*
 * struct alloc_context (mm/internal.h).  One node, so the zonelist is the
 * machine's; preferred_zoneref indexes m->zonelist[].
 */
struct alloc_context {
	enum zone_type	highest_zoneidx;
	int		migratetype;
	unsigned int	preferred_zoneref;	/* first usable entry of m->zonelist */
	bool		spread_dirty_pages;
	bool		no_zone;		/* no populated zone <= highest_zoneidx */
};

/* ---- the allocator (page_alloc.c) ------------------------------------------ */

bool prepare_alloc_pages(struct machine *m, gfp_t gfp, unsigned int order,
			 struct alloc_context *ac, unsigned int *alloc_flags);
unsigned int alloc_flags_nofragment(struct machine *m, struct zone *zone, gfp_t gfp);
pfn_t get_page_from_freelist(struct machine *m, gfp_t gfp, unsigned int order,
			     unsigned int alloc_flags, const struct alloc_context *ac);
pfn_t rmqueue(struct machine *m, struct zone *preferred_zone, struct zone *zone,
	      unsigned int order, gfp_t gfp, unsigned int alloc_flags, int migratetype);

bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
			 int highest_zoneidx, unsigned int alloc_flags, long free_pages);
bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags);
bool zone_watermark_ok_safe(struct zone *z, unsigned int order, unsigned long mark,
			    int highest_zoneidx);

void free_unref_page(struct machine *m, pfn_t pfn, unsigned int order);
void free_one_page(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
		   unsigned int fpi_flags);
void __free_one_page(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
		     int migratetype, unsigned int fpi_flags);
bool take_page_off_buddy(struct machine *m, pfn_t pfn);
/* del_page_from_free_list() with its accounting, for initial_state.c's
 * emptying of a just-booted zone.  Caller holds zone->lock. */
void take_free_block_off_buddy(struct machine *m, struct zone *zone, pfn_t pfn, unsigned int order,
			       int migratetype);
int move_freepages_block(struct machine *m, struct zone *zone, pfn_t pfn, int old_mt, int new_mt);
/* __isolate_free_page(): take a free block off the buddy lists for
 * compaction (min watermark + the block must stay free); the head becomes
 * a PGTY_ALLOC block.  Returns 2^order, or 0.  Caller holds zone->lock. */
int __isolate_free_page(struct machine *m, pfn_t pfn, unsigned int order);

void reserve_highatomic_pageblock(struct machine *m, pfn_t pfn, unsigned int order,
				  struct zone *zone);
bool unreserve_highatomic_pageblock(struct machine *m, const struct alloc_context *ac, bool force);

/* Per-CPU lists. */
void drain_all_pages(struct machine *m, struct zone *zone);
void __drain_all_pages(struct machine *m, struct zone *zone, bool force_all_cpus);
void drain_local_pages(struct machine *m, struct zone *zone);
void drain_pages_zone(struct machine *m, unsigned int cpu, struct zone *zone);
bool decay_pcp_high(struct machine *m, struct zone *zone, struct per_cpu_pages *pcp);
void zone_set_pageset_high_and_batch(struct zone *zone, int cpu_online);

/* Watermark setup (mm_init.c). */
void calculate_min_free_kbytes(struct machine *m);
void init_per_zone_wmark_min(struct machine *m);
void setup_per_zone_wmarks(struct machine *m);
void setup_per_zone_lowmem_reserve(struct machine *m);
unsigned long nr_free_buffer_pages(const struct machine *m);
int machine_zone_geometry(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
			  unsigned long start[MAX_NR_ZONES], unsigned long spanned[MAX_NR_ZONES],
			  unsigned long managed[MAX_NR_ZONES], char *err, size_t errlen);

/* wakeup_kswapd() lives in vmscan.c. */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, unsigned int order,
		   enum zone_type highest_zoneidx);
/* page-writeback.c: the node is within vm.dirty_ratio of its dirtyable
 * memory (get_page_from_freelist's __GFP_WRITE spreading). */
bool node_dirty_ok(struct pglist_data *pgdat);

/* int_sqrt() (lib/math/int_sqrt.c): floor(sqrt(x)), bit by bit. */
static inline unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1UL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* The slow path's step counters per order (vmstat.h SIM_ORDERS). */
static inline void sim_stat_inc_order(struct machine *m, enum sim_stat_item base, unsigned int order)
{
	sim_stat_inc(m, (enum sim_stat_item)(base + (order > MAX_PAGE_ORDER ? MAX_PAGE_ORDER : order)));
}


/* The policy in force (tests may build a machine without one: baseline). */
static inline const struct mm_policy *mm_pol(const struct machine *m)
{
	return m->policy ? m->policy : &mm_policies[0];
}

/* Teardown and start hooks of the page-cache/process subsystems, called by
 * machine_destroy / machine_start (mm_init.c). */
void fs_release_all(struct machine *m);		/* fs.c: unmounts, frees inodes */
void writeback_release(struct machine *m);	/* page-writeback.c */
void readahead_release(struct machine *m);	/* readahead.c: batches of stopped readers */
void hugetlb_release(struct machine *m);	/* hugetlb.c: files and pool state */
void memory_release_all(struct machine *m);	/* memory.c + shmem.c: live mms, shmem objects */
void shmem_release_all(struct machine *m);
void hugetlb_pool_init(struct machine *m);	/* hugetlb.c: vm.nr_hugepages at start */
void vmstat_start_workers(struct machine *m);	/* vmstat.c: the per-CPU vmstat_update */

/* ---- charging and debug ------------------------------------------------------ */

static inline void mm_charge(struct machine *m, enum cost_id id, uint64_t n)
{
	if (likely(m->charging))
		sim_charge_cost(m->sim, id, n);
}

/* mm_charge for n steps done one by one: each rounded as a single unit,
 * as n calls of mm_charge(m, id, 1) would charge, in one call. */
static inline void mm_charge_each(struct machine *m, enum cost_id id, uint64_t n)
{
	if (likely(m->charging))
		sim_charge(m->sim, n * cost_ns(sim_costs(m->sim), id, 1));
}

/*
 * The kernel's timeouts in jiffies ([machine] hz is CONFIG_HZ, one jiffy
 * TICK_NSEC): jiffies_ns(m, n), HZ/div as hz_div_ns(m, div) (HZ/10 = 100
 * ms at any HZ), msecs_to_jiffies(ms) rounded up to ticks.
 */
static inline sim_time_t jiffies_ns(const struct machine *m, uint64_t n)
{
	return n * m->tick_ns;
}

static inline uint64_t mm_hz(const struct machine *m)
{
	return m->hz;
}

static inline sim_time_t hz_div_ns(const struct machine *m, uint64_t div)
{
	uint64_t n = mm_hz(m) / div;

	return jiffies_ns(m, n ? n : 1);
}

static inline sim_time_t msecs_to_jiffies_ns(const struct machine *m, uint64_t ms)
{
	uint64_t j = jiffies_ns(m, 1);

	if (!j)
		return ms * SIM_NSEC_PER_MSEC;
	return (ms * SIM_NSEC_PER_MSEC + j - 1) / j * j;
}

static inline unsigned int mm_this_cpu(const struct machine *m)
{
	unsigned int cpu = sim_cpu(m->sim);

	SIM_ASSERT(cpu < m->nr_cpus);
	return cpu;
}

/* mm_check.c: the invariant checker.  mm_check_msg() returns 0 or -1
 * with the first violation (and a dump of the frames around it) in buf. */
int mm_check_msg(const struct machine *m, char *buf, size_t len);
void dump_page(const struct machine *m, pfn_t pfn, const char *reason, FILE *out);

/* After a public mm operation: in SIM_DEBUG>=3 builds run mm_check every
 * m->check_every operations and stop on the first violation. */
void mm_debug_check(struct machine *m);
static inline void mm_op_done(struct machine *m)
{
#if SIM_CHECK_EXPENSIVE
	mm_debug_check(m);
#else
	(void)m;
#endif
}

#endif /* SLOWPATH_MM_INTERNAL_H */
