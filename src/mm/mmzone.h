/* SPDX-License-Identifier: MIT */
/*
 * mmzone.h — nodes, zones, free areas, per-CPU page lists, pageblocks and
 * the machine that owns them (include/linux/mmzone.h, Linux 6.12).
 *
 * Layout of a machine (one node; zones are pfn ranges of one frame array):
 *
 *   mem_map[]   struct page x nr_pfns, 16 bytes each (types.h)
 *   pageblock[] one byte per 2 MiB pageblock: migratetype | skip | zone
 *
 *   pglist_data (node 0)
 *     node_zones[DMA] [DMA32] [Normal] [Movable] [Device]
 *        zone: [zone_start_pfn, +spanned_pages)
 *          free_area[0..10]
 *            free_list[UNMOVABLE] [MOVABLE] [RECLAIMABLE] [HIGHATOMIC] [ISOLATE]
 *               ring of pfns in list order, holes where frames left
 *               (list.h pfn_slots; struct page.next = the frame's slot)
 *          per_cpu_pageset[cpu]
 *            lists[14]: (UNMOVABLE|MOVABLE|RECLAIMABLE) x order 0..3, and
 *                       order 9 x (movable, unmovable+reclaimable)
 *          per_cpu_zonestats[cpu]: s8 diffs + stat_threshold + NUMA events
 *     per_cpu_nodestats[cpu]: s8 diffs + stat_threshold
 *
 * Zones are aligned to MAX_PAGE_ORDER blocks (4 MiB), so a block and its
 * buddy never straddle a zone boundary and the kernel's page_zone_id()
 * test in page_is_buddy() is always true in the model.
 *
 * Simplifications: one node (NUMA is not modelled); no CMA (MIGRATE_CMA
 * is not configured, as on the reference arm64 machine's defaults); no
 * memory holes inside a zone (spanned == present); no memory hotplug.
 */
#ifndef SLOWPATH_MM_MMZONE_H
#define SLOWPATH_MM_MMZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/list.h"
#include "mm/pfnset.h"
#include "mm/swap.h"
#include "mm/machine.h"
#include "mm/types.h"
#include "mm/vmstat.h"
#include "sim/sim.h"

/* Zone types in the kernel's order (arm64 and x86-64 6.12 configs:
 * ZONE_DMA, ZONE_DMA32, no HIGHMEM, ZONE_DEVICE present but never
 * populated in the model). */
enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	ZONE_MOVABLE,
	ZONE_DEVICE,
	MAX_NR_ZONES
};

extern const char *const zone_names[MAX_NR_ZONES];	/* "DMA", "DMA32", "Normal", ... */
extern const char *const migratetype_names[MIGRATE_TYPES];	/* "Unmovable", ... */

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	WMARK_PROMO,
	NR_WMARK
};

/* reclaim_throttle() reasons (include/linux/mmzone.h, 6.12) */
enum vmscan_throttle_state {
	VMSCAN_THROTTLE_WRITEBACK,
	VMSCAN_THROTTLE_ISOLATED,
	VMSCAN_THROTTLE_NOPROGRESS,
	VMSCAN_THROTTLE_CONGESTED,
	NR_VMSCAN_THROTTLE,
};

/* pgdat->flags bits */
enum pgdat_flags {
	PGDAT_DIRTY,		/* reclaim scanning has recently found many dirty file pages
				 * at the tail of the LRU */
	PGDAT_WRITEBACK,	/* reclaim scanning has recently found many pages under
				 * writeback */
	PGDAT_RECLAIM_LOCKED,	/* prevents concurrent reclaim */
};

/* pgdat->lruvec_flags bits (lruvec->flags in the kernel) */
enum lruvec_flags {
	LRUVEC_CGROUP_CONGESTED,
	LRUVEC_NODE_CONGESTED,
};

/* zone->flags bits */
enum zone_flags {
	ZONE_BOOSTED_WATERMARK,	/* a fallback boosted the watermark; cleared when kswapd is woken */
	ZONE_RECLAIM_ACTIVE,	/* kswapd may be scanning the zone */
	ZONE_BELOW_HIGH,	/* zone is below its high watermark (shrinks pcp caching) */
};

#define pageblock_order	PAGEBLOCK_ORDER
#define pageblock_nr_pages	PAGEBLOCK_NR_PAGES
#define HPAGE_PMD_ORDER		9
#define HPAGE_PMD_NR		(1U << HPAGE_PMD_ORDER)
#define MAX_ORDER_NR_PAGES	(1U << MAX_PAGE_ORDER)

/* Per-CPU page lists (pcp orders, mm/page_alloc.c). */
#define NR_PCP_THP		2
#define NR_LOWORDER_PCP_LISTS	(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_LISTS		(NR_LOWORDER_PCP_LISTS + NR_PCP_THP)
#define CONFIG_PCP_BATCH_SCALE_MAX 5
#define MIN_PERCPU_PAGELIST_HIGH_FRACTION 8
#define BOOT_PAGESET_HIGH	0
#define BOOT_PAGESET_BATCH	1

#define PCPF_PREV_FREE_HIGH_ORDER	(1u << 0)	/* the previous free was of order 1..3 */
#define PCPF_FREE_HIGH_BATCH		(1u << 1)	/* keep batch pages when freeing high orders */

struct free_area {
	struct pfn_slots free_list[MIGRATE_TYPES];	/* list.h: rings with holes */
	unsigned long	nr_free;		/* blocks on all lists of this order */
	/* Model-only: blocks per list, so /proc/pagetypeinfo and
	 * free_area_empty() need no walk (mm_check compares with a walk). */
	unsigned long	nr_free_mt[MIGRATE_TYPES];
};

static inline bool free_area_empty(const struct free_area *area, int mt)
{
	return pfn_slots_empty(&area->free_list[mt]);
}

struct per_cpu_pages {
	struct sim_spinlock lock;	/* pcp_spin_trylock()/pcp_spin_lock() */
	int		count;		/* pages on the lists */
	int		high;		/* current flush threshold (auto-tuned) */
	int		high_min;
	int		high_max;
	int		batch;		/* refill/free chunk */
	uint8_t		flags;		/* PCPF_* */
	uint8_t		alloc_factor;	/* refill scale: batch << alloc_factor */
	short		free_count;	/* consecutive pages freed without allocation */
	struct pfn_ring	lists[NR_PCP_LISTS];	/* list.h: the frames, not linked */
};

struct per_cpu_zonestat {
	int8_t		vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
	int8_t		stat_threshold;
	uint64_t	vm_numa_event[NR_VM_NUMA_EVENT_ITEMS];
};

struct per_cpu_nodestat {
	int8_t		vm_node_stat_diff[NR_VM_NODE_STAT_ITEMS];
	int8_t		stat_threshold;
	/* Model-only: NR_FOLL_PIN_ACQUIRED/RELEASED as per-CPU event counts,
	 * never folded, summed when read (the `percpu` FOLL_PIN accounting
	 * of gup.c; 0 under every other mode). */
	uint64_t	foll_pin_events[2];
};

struct pglist_data;

struct zone {
	/* Read-mostly: watermarks and reserves (pages). */
	unsigned long	_watermark[NR_WMARK];
	unsigned long	watermark_boost;
	unsigned long	nr_reserved_highatomic;	/* pages in HIGHATOMIC pageblocks */
	unsigned long	nr_free_highatomic;	/* free pages on HIGHATOMIC lists */
	long		lowmem_reserve[MAX_NR_ZONES];
	unsigned long	percpu_drift_mark;

	struct pglist_data *zone_pgdat;
	struct machine	*machine;
	struct per_cpu_pages *per_cpu_pageset;	/* [nr_cpus], NULL if unpopulated */
	struct per_cpu_zonestat *per_cpu_zonestats;	/* [nr_cpus], NULL if unpopulated */
	int		pageset_high_min;
	int		pageset_high_max;
	int		pageset_batch;
	int		pcp_high_max_seen;	/* model-only: largest high_max ever set (mm_check bound) */

	enum zone_type	idx;
	const char	*name;
	unsigned long	zone_start_pfn;
	unsigned long	spanned_pages;
	unsigned long	present_pages;
	unsigned long	managed_pages;

	struct sim_spinlock lock;		/* zone->lock */
	struct free_area free_area[NR_PAGE_ORDERS];
	unsigned long	flags;			/* 1 << enum zone_flags */

	/* Model-only: pageblocks of each migratetype (kept by
	 * set_pageblock_migratetype; /proc/pagetypeinfo's block counts). */
	unsigned long	nr_pageblocks[MIGRATE_TYPES];

	/* Compaction state (mm/compaction.c, struct free_area, mm/page_alloc.c; defer_compaction, mm/compaction.c): the
	 * scanners' cached positions ([0] async, [1] sync), where a full
	 * pass starts, the deferral state, and whether kswapd should clear
	 * the skip bits when it next sleeps. */
	unsigned long	compact_cached_free_pfn;
	unsigned long	compact_cached_migrate_pfn[2];
	unsigned long	compact_init_migrate_pfn;
	unsigned long	compact_init_free_pfn;
	unsigned int	compact_considered;
	unsigned int	compact_defer_shift;
	int		compact_order_failed;
	bool		compact_blockskip_flush;

	int64_t		vm_stat[NR_VM_ZONE_STAT_ITEMS];	/* folded state counters */
};

struct pglist_data {
	struct zone	node_zones[MAX_NR_ZONES];
	int		nr_zones;		/* highest populated zone index + 1 */
	int		node_id;
	unsigned long	node_start_pfn;
	unsigned long	node_present_pages;
	unsigned long	node_spanned_pages;
	unsigned long	totalreserve_pages;
	int		kswapd_failures;
	struct per_cpu_nodestat *per_cpu_nodestats;	/* [nr_cpus] */

	/* kswapd (mm/vmscan.c, kswapd/balance_pgdat, mm/vmscan.c): the task, its wait queue, the
	 * order and highest zone requested since it last read them
	 * (kswapd_highest_zoneidx == MAX_NR_ZONES: none), the direct
	 * reclaimers throttled on pfmemalloc reserves, the reclaim_throttle
	 * queues, PGDAT_* flags and the node lruvec's LRUVEC_* flags. */
	struct sim_task	*kswapd;
	struct sim_waitq kswapd_wait;
	struct sim_waitq pfmemalloc_wait;
	struct sim_waitq reclaim_wait[NR_VMSCAN_THROTTLE];
	int		kswapd_order;
	int		kswapd_highest_zoneidx;
	int		nr_writeback_throttled;
	unsigned long	nr_reclaim_start;
	unsigned long	flags;			/* 1 << enum pgdat_flags */
	unsigned long	lruvec_flags;		/* 1 << enum lruvec_flags */

	/* kcompactd (mm/compaction.c) */
	struct sim_task	*kcompactd;
	struct sim_waitq kcompactd_wait;
	int		kcompactd_max_order;
	int		kcompactd_highest_zoneidx;
	bool		proactive_compact_trigger;
	struct lruvec	__lruvec;		/* the node's LRU lists (swap.h) */
	int64_t		vm_stat[NR_VM_NODE_STAT_ITEMS];
	struct machine	*machine;
};
typedef struct pglist_data pg_data_t;

/* Live tunables (the kernel's globals), set from struct vm_sysctl. */
struct mm_tunables {
	int		min_free_kbytes;
	int		user_min_free_kbytes;	/* -1 until the sysctl is written */
	int		boot_min_free_kbytes;	/* computed at boot (vm.min_free_kbytes=0) */
	int		watermark_scale_factor;
	int		watermark_boost_factor;
	int		percpu_pagelist_high_fraction;
	int		lowmem_reserve_ratio[MAX_NR_ZONES];
	bool		defrag_mode;
	bool		hugepage_pmd_enabled;	/* THP may be used (khugepaged raises min_free_kbytes) */
	int		page_group_by_mobility_disabled;
	/* compaction and reclaim (mm/compaction.c, mm/vmscan.c, mm/vmstat.c) */
	int		extfrag_threshold;
	int		compaction_proactiveness;
	bool		compact_unevictable_allowed;
	int		swappiness;
	/* page cache, writeback, processes (page-writeback.c, huge_memory.c, hugetlb.c) */
	int		vm_dirty_ratio;			/* % of dirtyable memory */
	int		dirty_background_ratio;		/* % */
	unsigned int	dirty_expire_interval;		/* centisecs */
	unsigned int	dirty_writeback_interval;	/* centisecs; 0 = no periodic writeback */
	unsigned long	nr_hugepages;			/* vm.nr_hugepages asked for */
	int		thp_enabled;			/* enum thp_mode */
	int		thp_defrag;			/* enum thp_defrag */
	uint64_t	stat_interval;			/* ns, vm.stat_interval (vmstat workers) */
};

struct wb_domain;
struct hstate;
struct mm_struct;
struct shmem_object;
struct flat_matrix;
struct host_pool;
struct hugetlb_file;
struct vmstat_worker;
struct super_block;

/* Pageblock byte: migratetype (bits 0-2), compaction skip (bit 3), zone
 * index (bits 4-6). */
#define PB_MIGRATETYPE_MASK	0x07u
#define PB_SKIP			0x08u
#define PB_ZONE_SHIFT		4
#define PB_ZONE_MASK		0x70u

/*
 * Cache lines of the folded (shared) vmstat counters: zone->vm_stat[],
 * pgdat->vm_stat[], vm_zone_stat[] and vm_node_stat[] are arrays of
 * 8-byte atomics, 8 to a 64-byte line.  Every CPU's fold writes them, so
 * vmstat.c treats each line as a contended resource: a spinlock held for
 * the one atomic (CPUs folding into the same line at the same time queue
 * and spin, as the line's ping-pong makes them wait).  Registered lazily,
 * at the first fold into the line in task context, so locks.csv lists
 * only lines that were used.
 */
#define VMSTAT_LINE_ITEMS	8
#define VMSTAT_ZONE_LINES	((NR_VM_ZONE_STAT_ITEMS + VMSTAT_LINE_ITEMS - 1) / VMSTAT_LINE_ITEMS)
#define VMSTAT_NODE_LINES	((NR_VM_NODE_STAT_ITEMS + VMSTAT_LINE_ITEMS - 1) / VMSTAT_LINE_ITEMS)
#define VMSTAT_NR_LINES		((MAX_NR_ZONES + 1) * VMSTAT_ZONE_LINES + 2 * VMSTAT_NODE_LINES)

struct vmstat_line {
	struct sim_spinlock lock;
	char		name[48];	/* "" until registered */
};

struct machine {
	struct sim	*sim;
	unsigned int	nr_cpus;
	uint64_t	hz;			/* CONFIG_HZ */
	uint64_t	tick_ns;		/* one jiffy: TICK_NSEC */
	uint64_t	memory;			/* bytes */
	pfn_t		nr_pfns;		/* frames in mem_map */
	struct page	*mem_map;		/* [nr_pfns] */
	size_t		mem_map_bytes;		/* allocation size (may be rounded up) */
	struct page_index_pools *index_pools;	/* filemap.c: the page-cache index's records */
	uint8_t		*pageblock;		/* [nr_pfns >> pageblock_order] */
	unsigned long	nr_pageblocks;

	pg_data_t	node;			/* the only node */
	struct zone	*zonelist[MAX_NR_ZONES];	/* populated zones, highest first */
	unsigned int	nr_zonelist;

	struct mm_tunables t;
	const struct mm_policy *policy;		/* -> policy_copy */
	struct mm_policy policy_copy;		/* the run's variant with its overrides */
	unsigned long	totalreserve_pages;
	unsigned long	totalram_pages;		/* sum of managed pages */
	unsigned long	nr_memmap_boot_pages;

	struct sim_mutex pcpu_drain_mutex;

	/* LRU: per-CPU lru_add batches (swap.h); the lists are node.__lruvec */
	struct cpu_fbatches *fbatches;		/* [nr_cpus] */
	/* MGLRU per-frame byte (gen + 1, refs, workingset; swap.h), NULL
	 * while the classic LRU runs */
	uint8_t		*lru_gen_flags;		/* [nr_pfns] */

	/* Page-cache/shmem/anon owners (pagemap.h): mapping id -> object.
	 * Id 0 means "no mapping"; ids are reused lowest-first. */
	struct address_space **mappings;	/* [nr_mapping_slots] */
	/* Page cache, writeback and processes (owned by filemap.c/fs.c,
	 * page-writeback.c, memory.c, hugetlb.c; NULL until first used). */
	struct wb_domain *wb_domain;		/* dirty limits, flushers (page-writeback.c) */
	struct super_block *super_blocks;	/* mounted filesystems, mount order (fs.c) */
	struct hstate	*hstate;		/* the 2 MiB hugetlb pool (hugetlb.c) */
	/* live processes and shared-memory objects, so machine_destroy can
	 * free their host memory whatever state a run ended in (memory.c) */
	struct mm_struct *mm_list;
	/* The slab allocator (slub.c): NULL unless [kernel] slab=on
	 * (kmem_cache_init). */
	struct slab_state *slab;
	/* slab pages of [machine] initial_state (reclaimable, unreclaimable):
	 * counted in NR_SLAB_*_B like the kernel's, held by no cache of the
	 * slab model and never freed (slab_check allows for them) */
	long		initial_slab_pages[2];
	struct shmem_object *shmem_list;
	struct hugetlb_file *hugetlb_list;
	struct vmstat_worker *vmstat_workers;	/* [nr_cpus] once started (vmstat.c) */
	uint32_t	nr_mm_ids;		/* mm_struct ids handed out (memory.c) */
	bool		no_flat_window;		/* host layout only: keep every PTE mirror
						 * separate (tests compare both layouts) */
	uint32_t	flat_expect;		/* mm_flat_expect() (memory.c) */
	struct flat_matrix *flat_matrices;	/* the shared window arrays (memory.c) */
	struct host_pool *pte_spill;		/* spilled PTE mirrors' bits (pte_bits.c) */
	unsigned long	pte_spills;		/* ... of them in use */
	bool		drawn_faults;		/* [global] fault_model=drawn (memory.c) */
	uint32_t	nr_mapping_slots;
	uint32_t	nr_mappings;		/* live mappings */
	bool		*drain_cpumask;		/* [nr_cpus]: __drain_all_pages' cpus_with_pcps */

	/* vmstat: global folded state, per-CPU events, model-only counters */
	int64_t		vm_zone_stat[NR_VM_ZONE_STAT_ITEMS];
	int64_t		vm_node_stat[NR_VM_NODE_STAT_ITEMS];
	uint64_t	*vm_event_states;	/* [nr_cpus][NR_VM_EVENT_ITEMS] */
	uint64_t	sim_stat[NR_SIM_STAT_ITEMS];
	uint64_t	tracepoint[NR_MM_TRACEPOINTS];	/* vmstat.h MM_TRACEPOINTS */
	struct vmstat_line vmstat_line[VMSTAT_NR_LINES];	/* see VMSTAT_LINE_ITEMS */

	/* GUP (gup.c): the kernel's FOLL_PIN accounting (machine_config) and
	 * model-only counts for reports (pages, i.e. refs, not calls). */
	int		foll_pin_accounting;	/* enum foll_pin_accounting (gup.h) */
	uint64_t	gup_pinned;		/* refs taken with FOLL_PIN */
	uint64_t	gup_unpinned;		/* FOLL_PIN refs dropped */
	uint64_t	gup_got;		/* refs taken with FOLL_GET */
	uint64_t	gup_put;		/* FOLL_GET refs dropped */
	uint64_t	gup_stat_folds;		/* NR_FOLL_PIN_* updates that folded */

	/* The slow path's model-only helpers (docs/slowpath.md):
	 * the step trace (mm/trace.c, NULL when off), the capture controls
	 * of direct compactors currently running (compaction_capture), the
	 * folio lock table (folio_lock.c), the isolation references. */
	struct mm_trace	*trace;
	struct capture_control *capc_list;
	struct folio_lock_table *folio_locks;
	struct pfn_set	isolated;		/* folios reclaim/compaction hold isolated (swap.c) */
	bool		started;		/* machine_start ran */
	uint64_t	kthread_kinds;		/* bit per task kind that is a kernel thread */
	struct sim_mutex oom_lock;
	struct ra_batch	*ra_batches;		/* readahead batches in flight (readahead.c) */

	bool		charging;		/* false while booting: no CPU time charged */
	uint64_t	mm_ops;			/* public mm operations (debug checks) */
	unsigned int	mm_busy;		/* allocations/frees in flight: a task inside one
						 * may sit at a sync point (a lock) with its
						 * lists half-updated, so mm_check waits */
	uint64_t	check_every;		/* SIM_DEBUG>=3: mm_check every N ops (0 = never) */
	size_t		footprint;		/* bytes the machine allocated */
	/* Model-only, host speed: per pageblock, which of the frames that
	 * __reset_isolation_pfn samples (every 8th) head an LRU folio
	 * ([2 * block]) or a free block ([2 * block + 1]); kept by
	 * pageblock_sample_set(), compared by mm_check. */
	uint64_t	*pageblock_samples;
};

/* ---- frames and pageblocks --------------------------------------------- */

static inline struct page *pfn_to_page(const struct machine *m, pfn_t pfn)
{
	return &m->mem_map[pfn];
}

static inline unsigned long pfn_to_pageblock(pfn_t pfn)
{
	return pfn >> pageblock_order;
}

static inline pfn_t pageblock_start_pfn(pfn_t pfn)
{
	return pfn & ~(pfn_t)(pageblock_nr_pages - 1);
}

static inline int get_pfnblock_migratetype(const struct machine *m, pfn_t pfn)
{
	return m->pageblock[pfn_to_pageblock(pfn)] & PB_MIGRATETYPE_MASK;
}

static inline struct zone *page_zone(const struct machine *m, pfn_t pfn)
{
	unsigned int zid = (m->pageblock[pfn_to_pageblock(pfn)] & PB_ZONE_MASK) >> PB_ZONE_SHIFT;

	return (struct zone *)&m->node.node_zones[zid];
}

static inline bool get_pageblock_skip(const struct machine *m, pfn_t pfn)
{
	return m->pageblock[pfn_to_pageblock(pfn)] & PB_SKIP;
}

static inline void set_pageblock_skip(struct machine *m, pfn_t pfn)
{
	m->pageblock[pfn_to_pageblock(pfn)] |= PB_SKIP;
}

static inline void clear_pageblock_skip(struct machine *m, pfn_t pfn)
{
	m->pageblock[pfn_to_pageblock(pfn)] &= (uint8_t)~PB_SKIP;
}

/*
 * The frames __reset_isolation_pfn looks at (compaction.c): every
 * 1 << PAGE_ALLOC_COSTLY_ORDER-th of a pageblock, 64 of them.  A sampled
 * frame is a migration source when it heads an LRU folio and a target
 * when it heads a free block.  m->pageblock_samples holds both as bits,
 * so a restart's walk over every pageblock reads 16 bytes per block
 * instead of up to 64 cold struct pages; call this wherever a sampled
 * frame's type or PG_lru changes.  Host layout only.
 */
#define PAGEBLOCK_SAMPLE_SHIFT	PAGE_ALLOC_COSTLY_ORDER
_Static_assert((PAGEBLOCK_NR_PAGES >> PAGEBLOCK_SAMPLE_SHIFT) == 64, "a pageblock's samples are one word");

static inline bool pageblock_sample_source(const struct page *page)
{
	enum page_type t = page_type(page);

	return (page->flags & PG_lru) && (t == PGTY_FILE || t == PGTY_SHMEM || t == PGTY_ANON);
}

/* Set the two bits of a sampled frame (the caller knows what it made). */
static inline void pageblock_sample_set(struct machine *m, pfn_t pfn, bool source, bool buddy)
{
	uint64_t bit, *w;

	if (pfn & ((1u << PAGEBLOCK_SAMPLE_SHIFT) - 1))
		return;
	w = &m->pageblock_samples[2 * pfn_to_pageblock(pfn)];
	bit = 1ULL << ((pfn & (pageblock_nr_pages - 1)) >> PAGEBLOCK_SAMPLE_SHIFT);
	w[0] = source ? w[0] | bit : w[0] & ~bit;
	w[1] = buddy ? w[1] | bit : w[1] & ~bit;
}

/* The same from the frame's state, whatever changed. */
static inline void pageblock_sample_update(struct machine *m, pfn_t pfn)
{
	const struct page *page = &m->mem_map[pfn];

	pageblock_sample_set(m, pfn, pageblock_sample_source(page), page_type(page) == PGTY_BUDDY);
}

/* set_pageblock_migratetype(): also keeps zone->nr_pageblocks[]. */
void set_pageblock_migratetype(struct machine *m, pfn_t pfn, int migratetype);

static inline bool is_migrate_highatomic(int mt)
{
	return mt == MIGRATE_HIGHATOMIC;
}

static inline bool is_migrate_isolate(int mt)
{
	return mt == MIGRATE_ISOLATE;
}

static inline bool migratetype_is_mergeable(int mt)
{
	return mt < MIGRATE_PCPTYPES;
}

/* ---- zones --------------------------------------------------------------- */

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline bool managed_zone(const struct zone *zone)
{
	return zone->managed_pages != 0;
}

static inline unsigned long zone_managed_pages(const struct zone *zone)
{
	return zone->managed_pages;
}

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return zone->zone_start_pfn <= pfn && pfn < zone_end_pfn(zone);
}

static inline enum zone_type zone_idx(const struct zone *zone)
{
	return zone->idx;
}

static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks w)
{
	return z->_watermark[w] + z->watermark_boost;
}

static inline unsigned long min_wmark_pages(const struct zone *z)   { return wmark_pages(z, WMARK_MIN); }
static inline unsigned long low_wmark_pages(const struct zone *z)   { return wmark_pages(z, WMARK_LOW); }
static inline unsigned long high_wmark_pages(const struct zone *z)  { return wmark_pages(z, WMARK_HIGH); }
static inline unsigned long promo_wmark_pages(const struct zone *z) { return wmark_pages(z, WMARK_PROMO); }

static inline bool zone_test_flag(const struct zone *z, enum zone_flags f)
{
	return z->flags & (1UL << f);
}

static inline void zone_set_flag(struct zone *z, enum zone_flags f)
{
	z->flags |= 1UL << f;
}

static inline void zone_clear_flag(struct zone *z, enum zone_flags f)
{
	z->flags &= ~(1UL << f);
}

/* pcp list index (mm/page_alloc.c order_to_pindex / pindex_to_order) */
static inline unsigned int order_to_pindex(int migratetype, unsigned int order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NR_LOWORDER_PCP_LISTS + (migratetype == MIGRATE_MOVABLE);
	return (MIGRATE_PCPTYPES * order) + (unsigned int)migratetype;
}

static inline unsigned int pindex_to_order(unsigned int pindex)
{
	if (pindex >= NR_LOWORDER_PCP_LISTS)
		return HPAGE_PMD_ORDER;
	return pindex / MIGRATE_PCPTYPES;
}

static inline bool pcp_allowed_order(unsigned int order)
{
	return order <= PAGE_ALLOC_COSTLY_ORDER || order == HPAGE_PMD_ORDER;
}

#endif /* SLOWPATH_MM_MMZONE_H */
