/* SPDX-License-Identifier: MIT */
/*
 * mm_init.c — building a machine: the [machine] options, zones, the frame
 * array, pageblocks, the boot-time freeing of memory into the buddy
 * lists, and the per-zone tunables derived from sysctls: min_free_kbytes,
 * watermarks, lowmem reserves, pcp batch/high, vmstat thresholds
 * (mm/mm_init.c and mm/page_alloc.c, Linux 6.12; zone_batchsize/zone_highsize, mm/page_alloc.c; __setup_per_zone_wmarks, mm/page_alloc.c; docs/calibration.md).
 *
 * Boot, as the kernel orders it:
 *   1. zones from the machine description; every pageblock MOVABLE
 *      (memmap_init); reserved memory (firmware, kernel, memmap) is taken
 *      from the top of the lowest zone above DMA that can hold it and is
 *      never managed;
 *   2. memblock_free_all(): free ranges go to the buddy lists in
 *      naturally aligned chunks of up to MAX_PAGE_ORDER (__free_pages_core
 *      -> free_one_page(FPI_TO_TAIL), counted in pgfree like the kernel);
 *      vmstat thresholds are still 0 then, so every update folds;
 *   3. init_per_zone_wmark_min(): calculate_min_free_kbytes(),
 *      setup_per_zone_wmarks() (which also sizes the pcp lists),
 *      refresh_zone_stat_thresholds(), setup_per_zone_lowmem_reserve();
 *   4. khugepaged start: set_recommended_min_free_kbytes() raises
 *      min_free_kbytes when THP is enabled;
 *   5. a vm.min_free_kbytes from the scenario is applied last, as a sysctl
 *      write after boot would be.
 *
 * The kernel keeps zone_batchsize()/zone_highsize() and the watermark
 * setup in page_alloc.c; the model keeps every "derive tunables from the
 * machine" function here.
 *
 * Simplifications: one node; no memory holes; zones aligned to 4 MiB;
 * no boot-time kernel allocations (the machine starts with all managed
 * memory free, every pageblock MOVABLE); no deferred struct page init.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm/compaction.h"
#include "mm/folio_lock.h"
#include "mm/gup.h"
#include "mm/internal.h"
#include "mm/pagemap.h"
#include "mm/slub.h"
#include "mm/trace.h"
#include "mm/vmscan.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"

#define MC(field) offsetof(struct machine_config, field)

const struct opt_def machine_options[] = {
	{ "memory", OPT_SIZE, MC(memory), "384g", 4ULL << 20, 8ULL << 40, NULL, 0,
	  "RAM of the machine (present memory), a multiple of 4m (one MAX_PAGE_ORDER block)" },
	{ "zones", OPT_STRING, MC(zones), "DMA:4g,Normal:rest", 0, 0, NULL, 0,
	  "zone layout in pfn order, name:size[,...]; names DMA DMA32 Normal Movable; sizes are "
	  "multiples of 4m, one may be 'rest'; an empty zone is allowed (a 4g machine with "
	  "DMA:4g,Normal:rest has all memory in DMA, as arm64 does)" },
	{ "cpus", OPT_UINT, MC(cpus), "96", 1, 4096, NULL, 0,
	  "online CPUs, all on the one node" },
	{ "nodes", OPT_UINT, MC(nodes), "1", 1, 0, NULL, 0,
	  "NUMA nodes; only 1 is supported" },
	{ "reserved", OPT_SIZE, MC(reserved), "0", 0, 0, NULL, 0,
	  "memory present but never managed (firmware, kernel image, memmap: the memmap alone is "
	  "1/64 of memory, 6g at 384g), taken from the top of the lowest zone above DMA that can "
	  "hold it" },
	{ "foll_pin_accounting", OPT_ENUM, MC(foll_pin_accounting), "node", 0, 0,
	  foll_pin_accounting_names, 0,
	  "how the simulated kernel counts pinned user pages (mm/gup.c, docs/fio.md): node = "
	  "mod_node_page_state per pin and unpin (6.3-6.12), none = FOLL_GET references, nothing "
	  "counted (before 6.3), nostat = FOLL_PIN without the node stat, percpu = FOLL_PIN "
	  "counted as per-CPU events, never folded" },
	{ "hz", OPT_UINT, MC(hz), "250", 100, 1000, NULL, 0,
	  "CONFIG_HZ, timer ticks per second: one jiffy is 1/hz s (TICK_NSEC), the unit of "
	  "reclaim_throttle's waits, kswapd's and throttle_direct_reclaim's HZ/10 naps; 250 is "
	  "the Debian arm64 kernel's (kernel/Kconfig.hz: 100, 250, 300 or 1000)" },
	{ "mm_slots", OPT_UINT, MC(mm_slots), "0", 0, 64, NULL, 0,
	  "address spaces each CPU keeps translations for across context switches: a task put "
	  "on a CPU whose last mm_slots loaded address spaces do not include its own pays "
	  "mm_switch_miss; 0 = all (arm64's 16-bit ASIDs, the reference machine); x86 with PCID "
	  "keeps 6 (TLB_NR_DYN_ASIDS, arch/x86/mm/tlb.c); a VM, what its hypervisor caches "
	  "(`slowpath probe switch`: 2 on the development VM)" },
	{ "initial_state", OPT_STRING, MC(initial_state), NULL, 0, 0, NULL, 0,
	  "start from a recorded snapshot instead of all memory free: a `slowpath record` folder "
	  "(its last sample) or a directory with copies of /proc buddyinfo, pagetypeinfo and "
	  "optionally meminfo and vmstat; free pages per zone, order and migratetype, pageblock "
	  "types and allocated content, scaled to this machine's zones (docs/initial-state.md)" },
	{ "llc_cpus", OPT_UINT, MC(llc_cpus), "0", 0, 4096, NULL, 0,
	  "CPUs sharing a last-level cache, in consecutive groups from CPU 0 (cpus_share_cache): "
	  "a wake-up whose previous CPU is busy looks for an idle CPU only in that CPU's group "
	  "(select_idle_sibling over sd_llc); 0 = all CPUs share one (Graviton4: one L3 for its "
	  "96 cores); 1 = none shares one, wake-ups stay on their previous CPU and only load "
	  "balancing moves tasks (the development VM: sysfs lists no caches, perf sched shows "
	  "every wake-up on the previous CPU); fewer than cpus also makes idle balancing weigh "
	  "PELT utilization (migrate_util), as in the kernel's domain above the caches" },
	OPT_END
};

const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal", "Movable", "Device" };
const char *const migratetype_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"
};

static const char *const zone_lock_names[MAX_NR_ZONES] = {
	"zone->lock DMA", "zone->lock DMA32", "zone->lock Normal", "zone->lock Movable",
	"zone->lock Device"
};
static const char *const pcp_lock_names[MAX_NR_ZONES] = {
	"pcp->lock DMA", "pcp->lock DMA32", "pcp->lock Normal", "pcp->lock Movable",
	"pcp->lock Device"
};

/* sysctl_lowmem_reserve_ratio[] defaults (6.12): DMA 256, DMA32 256, Normal 32. */
static const int default_lowmem_reserve_ratio[MAX_NR_ZONES] = { 256, 256, 32, 0, 0 };

/* ---- derived tunables ------------------------------------------------------------ */

static unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

/* nr_free_buffer_pages() (6.12): managed minus high watermark, summed over
 * the zones GFP_USER may use. */
unsigned long nr_free_buffer_pages(const struct machine *m)
{
	unsigned long sum = 0;

	for (unsigned int i = 0; i < m->nr_zonelist; i++) {
		const struct zone *zone = m->zonelist[i];
		unsigned long size = zone_managed_pages(zone), high = high_wmark_pages(zone);

		if (zone_idx(zone) > ZONE_NORMAL)
			continue;
		if (size > high)
			sum += size - high;
	}
	return sum;
}

/* calculate_min_free_kbytes() (6.12): sqrt(16 x lowmem KiB) in [128, 262144]. */
void calculate_min_free_kbytes(struct machine *m)
{
	unsigned long lowmem_kbytes = nr_free_buffer_pages(m) * (PAGE_SIZE >> 10);
	long new_min_free_kbytes = (long)int_sqrt(lowmem_kbytes * 16);

	if (new_min_free_kbytes > m->t.user_min_free_kbytes) {
		if (new_min_free_kbytes < 128)
			new_min_free_kbytes = 128;
		if (new_min_free_kbytes > 262144)
			new_min_free_kbytes = 262144;
		m->t.min_free_kbytes = (int)new_min_free_kbytes;
	}
}

/* calculate_totalreserve_pages() (6.12) */
static void calculate_totalreserve_pages(struct machine *m)
{
	pg_data_t *pgdat = &m->node;
	unsigned long reserve_pages = 0;

	pgdat->totalreserve_pages = 0;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		long max = 0;

		for (int j = i; j < MAX_NR_ZONES; j++)
			if (zone->lowmem_reserve[j] > max)
				max = zone->lowmem_reserve[j];
		max += (long)high_wmark_pages(zone);
		if (max > (long)zone_managed_pages(zone))
			max = (long)zone_managed_pages(zone);
		pgdat->totalreserve_pages += (unsigned long)max;
		reserve_pages += (unsigned long)max;
	}
	m->totalreserve_pages = reserve_pages;
}

/* setup_per_zone_lowmem_reserve() (6.12; __setup_per_zone_wmarks, mm/page_alloc.c step 5) */
void setup_per_zone_lowmem_reserve(struct machine *m)
{
	pg_data_t *pgdat = &m->node;

	for (int i = 0; i < MAX_NR_ZONES - 1; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		int ratio = m->t.lowmem_reserve_ratio[i];
		bool clear = !ratio || !zone_managed_pages(zone);
		unsigned long managed_pages = 0;

		for (int j = i + 1; j < MAX_NR_ZONES; j++) {
			managed_pages += zone_managed_pages(&pgdat->node_zones[j]);
			zone->lowmem_reserve[j] = clear ? 0 : (long)(managed_pages / (unsigned long)ratio);
		}
	}
	calculate_totalreserve_pages(m);
}

/*
 * __setup_per_zone_wmarks() (6.12; mm/page_alloc.c): each zone's share of
 * min_free_kbytes by managed pages (Movable: managed/1024 in [32, 128]);
 * gap = max(min/4, managed x watermark_scale_factor / 10000);
 * low = min + gap, high = low + gap, promo = high + gap; boost reset.
 */
static void __setup_per_zone_wmarks(struct machine *m)
{
	unsigned long pages_min = (unsigned long)m->t.min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (i != ZONE_MOVABLE)
			lowmem_pages += zone_managed_pages(&m->node.node_zones[i]);
	SIM_ASSERT(lowmem_pages > 0);

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &m->node.node_zones[i];
		unsigned long tmp = pages_min * zone_managed_pages(zone) / lowmem_pages;
		unsigned long gap;

		if (i == ZONE_MOVABLE) {
			unsigned long min_pages = zone_managed_pages(zone) / 1024;

			if (min_pages < 32)
				min_pages = 32;
			if (min_pages > 128)
				min_pages = 128;
			zone->_watermark[WMARK_MIN] = min_pages;
		} else {
			zone->_watermark[WMARK_MIN] = tmp;
		}
		gap = mult_frac(zone_managed_pages(zone), (unsigned long)m->t.watermark_scale_factor, 10000);
		if (tmp >> 2 > gap)
			gap = tmp >> 2;
		zone->watermark_boost = 0;
		zone->_watermark[WMARK_LOW] = zone->_watermark[WMARK_MIN] + gap;
		zone->_watermark[WMARK_HIGH] = zone->_watermark[WMARK_LOW] + gap;
		zone->_watermark[WMARK_PROMO] = zone->_watermark[WMARK_HIGH] + gap;
	}
	calculate_totalreserve_pages(m);
}

/*
 * zone_batchsize() (6.12; zone_batchsize/zone_highsize, mm/page_alloc.c): ~0.1 % of the zone or 1 MiB, /4,
 * clamped to 2^n - 1: 63 for every zone of 1 GiB or more.
 */
static int zone_batchsize(const struct zone *zone)
{
	unsigned long batch = zone_managed_pages(zone) >> 10;
	unsigned long r = 1;

	if (batch > (1024 * 1024) / PAGE_SIZE)
		batch = (1024 * 1024) / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	batch += batch / 2;
	while (r * 2 <= batch)
		r *= 2;
	return (int)r - 1;
}

/*
 * zone_highsize() (6.12): the low watermark (or managed/fraction) split
 * over the node's CPUs, at least 4 x batch.
 */
static int zone_highsize(const struct zone *zone, int batch, int cpu_online, int high_fraction)
{
	unsigned long total_pages;
	unsigned long nr_split_cpus = zone->machine->nr_cpus + (unsigned long)cpu_online;
	long high;

	if (!high_fraction)
		total_pages = low_wmark_pages(zone);
	else
		total_pages = zone_managed_pages(zone) / (unsigned long)high_fraction;
	high = (long)(total_pages / nr_split_cpus);
	if (high < (long)batch << 2)
		high = (long)batch << 2;
	return (int)high;
}

/* zone_set_pageset_high_and_batch() (6.12): batch, high_min, high_max for
 * every CPU of the zone (auto-tuning unless percpu_pagelist_high_fraction).
 * K6.6 set one high = low watermark / CPUs (no high_min/high_max). */
void zone_set_pageset_high_and_batch(struct zone *zone, int cpu_online)
{
	struct machine *m = zone->machine;
	int new_high_min, new_high_max, new_batch;

	if (!zone->per_cpu_pageset)
		return;
	new_batch = zone_batchsize(zone);
	if (new_batch < 1)
		new_batch = 1;
	if (m->t.percpu_pagelist_high_fraction) {
		new_high_min = zone_highsize(zone, new_batch, cpu_online,
					     m->t.percpu_pagelist_high_fraction);
		new_high_max = new_high_min;
	} else {
		new_high_min = zone_highsize(zone, new_batch, cpu_online, 0);
		new_high_max = zone_highsize(zone, new_batch, cpu_online,
					     MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	}
	if (zone->pageset_high_min == new_high_min && zone->pageset_high_max == new_high_max &&
	    zone->pageset_batch == new_batch)
		return;
	zone->pageset_high_min = new_high_min;
	zone->pageset_high_max = new_high_max;
	zone->pageset_batch = new_batch;
	if (new_high_max > zone->pcp_high_max_seen)
		zone->pcp_high_max_seen = new_high_max;
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

		pcp->batch = new_batch;
		pcp->high_min = new_high_min;
		pcp->high_max = new_high_max;
	}
}

/* setup_per_zone_wmarks() (6.12): watermarks, then pcp limits follow. */
void setup_per_zone_wmarks(struct machine *m)
{
	__setup_per_zone_wmarks(m);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		zone_set_pageset_high_and_batch(&m->node.node_zones[i], 0);
}

/*
 * set_recommended_min_free_kbytes() (mm/khugepaged.c, 6.12): with THP on,
 * keep 2 + 9 pageblocks free per zone up to Normal, at most 5 % of lowmem.
 */
static void set_recommended_min_free_kbytes(struct machine *m)
{
	unsigned long recommended_min;
	int nr_zones = 0;

	if (!m->t.hugepage_pmd_enabled) {
		calculate_min_free_kbytes(m);
		goto update_wmarks;
	}
	for (int i = 0; i <= ZONE_NORMAL; i++)
		if (populated_zone(&m->node.node_zones[i]))
			nr_zones++;
	recommended_min = (unsigned long)pageblock_nr_pages * (unsigned long)nr_zones * 2;
	recommended_min += (unsigned long)pageblock_nr_pages * (unsigned long)nr_zones *
			   MIGRATE_PCPTYPES * MIGRATE_PCPTYPES;
	if (recommended_min > nr_free_buffer_pages(m) / 20)
		recommended_min = nr_free_buffer_pages(m) / 20;
	recommended_min <<= (PAGE_SHIFT - 10);
	if (recommended_min > (unsigned long)m->t.min_free_kbytes)
		m->t.min_free_kbytes = (int)recommended_min;
update_wmarks:
	setup_per_zone_wmarks(m);
}

/* The boot value of min_free_kbytes and everything derived from it
 * (init_per_zone_wmark_min + khugepaged_min_free_kbytes_update). */
void init_per_zone_wmark_min(struct machine *m)
{
	calculate_min_free_kbytes(m);
	setup_per_zone_wmarks(m);
	refresh_zone_stat_thresholds(m);
	setup_per_zone_lowmem_reserve(m);
	if (m->t.hugepage_pmd_enabled)
		set_recommended_min_free_kbytes(m);
}

/* ---- scenario values ------------------------------------------------------------- */

static int parse_lowmem_reserve_ratio(const char *s, int out[MAX_NR_ZONES], char *err, size_t errlen)
{
	const char *p = s ? s : "";
	int n = 0;

	memcpy(out, default_lowmem_reserve_ratio, sizeof(default_lowmem_reserve_ratio));
	for (;;) {
		char *end;
		long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < 0 || v > 1000000000 || (*end && *end != ' ' && *end != '\t'))
			return sim_errf(err, errlen, "invalid value '%s' for 'vm.lowmem_reserve_ratio' "
				    "(expected up to %d non-negative integers, DMA DMA32 Normal Movable "
				    "Device)", s, MAX_NR_ZONES);
		if (n == MAX_NR_ZONES)
			return sim_errf(err, errlen, "too many values in '%s' for 'vm.lowmem_reserve_ratio' "
				    "(at most %d)", s, MAX_NR_ZONES);
		out[n++] = v < 1 ? 0 : (int)v;
		p = end;
	}
	return 0;
}

static int check_sysctl(const struct vm_sysctl *sc, int ratio[MAX_NR_ZONES], char *err, size_t errlen)
{
	if (parse_lowmem_reserve_ratio(sc->lowmem_reserve_ratio, ratio, err, errlen))
		return -1;
	if (sc->percpu_pagelist_high_fraction &&
	    sc->percpu_pagelist_high_fraction < MIN_PERCPU_PAGELIST_HIGH_FRACTION)
		return sim_errf(err, errlen, "invalid value '%" PRIu64 "' for "
			    "'vm.percpu_pagelist_high_fraction' (0, or at least %d)",
			    sc->percpu_pagelist_high_fraction, MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	if (sc->min_free_kbytes > INT32_MAX)
		return sim_errf(err, errlen, "invalid value '%" PRIu64 "' for 'vm.min_free_kbytes'",
			    sc->min_free_kbytes);
	return 0;
}

/* Zone layout "DMA:4g,Normal:rest" -> bytes per zone type. */
static int parse_zones(const char *spec, uint64_t memory, uint64_t bytes[MAX_NR_ZONES],
		       char *err, size_t errlen)
{
	static const struct opt_def size_opt = { .key = "zones", .type = OPT_SIZE };
	char *copy, *save = NULL, *tok;
	int last = -1, rest = -1;
	uint64_t sum = 0;
	int rc = -1;

	memset(bytes, 0, sizeof(uint64_t) * MAX_NR_ZONES);
	if (!spec || !*spec)
		return sim_errf(err, errlen, "empty value for 'zones' (expected name:size[,...], "
			    "e.g. 'DMA:4g,Normal:rest')");
	copy = strdup(spec);
	if (!copy)
		return sim_errf(err, errlen, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		int idx = -1;

		if (!colon) {
			sim_errf(err, errlen, "invalid zone '%s' in 'zones' (expected name:size)", tok);
			goto out;
		}
		*colon = '\0';
		for (int i = 0; i < ZONE_DEVICE; i++)
			if (strcmp(tok, zone_names[i]) == 0)
				idx = i;
		if (idx < 0) {
			sim_errf(err, errlen, "unknown zone '%s' in 'zones' (expected DMA, DMA32, Normal, "
			     "Movable)", tok);
			goto out;
		}
		if (idx <= last) {
			sim_errf(err, errlen, "zone '%s' out of order in 'zones' (zones go in pfn order: "
			     "DMA, DMA32, Normal, Movable, each once)", tok);
			goto out;
		}
		last = idx;
		if (strcmp(colon + 1, "rest") == 0) {
			if (rest >= 0) {
				sim_errf(err, errlen, "more than one 'rest' in 'zones'");
				goto out;
			}
			rest = idx;
			continue;
		}
		if (opt_parse_value(&size_opt, &bytes[idx], colon + 1, err, errlen))
			goto out;
		if (bytes[idx] % (4ULL << 20)) {
			sim_errf(err, errlen, "size '%s' of zone '%s' is not a multiple of 4m", colon + 1, tok);
			goto out;
		}
		sum += bytes[idx];
		if (sum > memory) {
			sim_errf(err, errlen, "zones add up to more than memory (%" PRIu64 " bytes)", memory);
			goto out;
		}
	}
	if (rest >= 0)
		bytes[rest] = memory - sum;
	else if (sum != memory) {
		sim_errf(err, errlen, "zones add up to %" PRIu64 " bytes but memory is %" PRIu64
		     " (give one zone the size 'rest')", sum, memory);
		goto out;
	}
	if (!bytes[ZONE_DMA] && !bytes[ZONE_DMA32] && !bytes[ZONE_NORMAL]) {
		sim_errf(err, errlen, "zones: no memory outside ZONE_MOVABLE (the kernel needs lowmem)");
		goto out;
	}
	rc = 0;
out:
	free(copy);
	return rc;
}

/* ---- allocation of the big arrays ------------------------------------------------ */

/* A zeroed array counted in the machine's host footprint. */
static void *machine_calloc(struct machine *m, size_t n, size_t size)
{
	m->footprint += n * size;
	return xcalloc(n, size);
}

/* The frame array: zeroed host memory, its whole 2 MiB pieces on host
 * huge pages (fewer page faults when building a 100 M-frame machine,
 * fewer TLB misses after).  NULL when the host refuses. */
static struct page *map_mem_map(size_t nr)
{
	return host_huge_alloc(nr * sizeof(struct page));
}

/* ---- the machine ----------------------------------------------------------------- */

/*
 * Free [start, end) into the buddy lists as memblock_free_all() does:
 * naturally aligned chunks of up to MAX_PAGE_ORDER (__free_pages_memory)
 * through __free_pages_core -> free_one_page(FPI_TO_TAIL).
 */
static void free_boot_range(struct machine *m, struct zone *zone, pfn_t start, pfn_t end)
{
	for (pfn_t pfn = start; pfn < end; pfn++)
		set_page_type_order(&m->mem_map[pfn], PGTY_TAIL, 0);
	while (start < end) {
		unsigned int order = start ? (unsigned int)__builtin_ctz(start) : MAX_PAGE_ORDER;

		if (order > MAX_PAGE_ORDER)
			order = MAX_PAGE_ORDER;
		while (start + (1u << order) > end)
			order--;
		free_one_page(m, zone, start, order, FPI_TO_TAIL);
		start += 1u << order;
	}
}

/* The tunables of the page cache, writeback, hugetlb and THP: plain
 * values read where they are used (page-writeback.c, hugetlb.c,
 * huge_memory.c).  A changed vm.nr_hugepages takes effect at
 * machine_start (hugetlb_pool_init) only. */
static void apply_user_tunables(struct machine *m, const struct vm_sysctl *sc)
{
	m->t.vm_dirty_ratio = (int)sc->dirty_ratio;
	m->t.dirty_background_ratio = (int)sc->dirty_background_ratio;
	m->t.dirty_expire_interval = (unsigned int)sc->dirty_expire_centisecs;
	m->t.dirty_writeback_interval = (unsigned int)sc->dirty_writeback_centisecs;
	m->t.nr_hugepages = (unsigned long)sc->nr_hugepages;
	m->t.thp_enabled = sc->thp_enabled;
	m->t.thp_defrag = sc->thp_defrag;
	m->t.stat_interval = sc->stat_interval;
}

/* hugepage_pmd_enabled() (mm/khugepaged.c): anon THP or shmem THP on. */
static bool hugepage_pmd_enabled(const struct vm_sysctl *sc)
{
	return sc->thp_enabled != THP_NEVER || sc->thp_shmem_enabled != THP_NEVER;
}

static void apply_tunables(struct machine *m, const struct vm_sysctl *sc, const int ratio[MAX_NR_ZONES])
{
	m->t.watermark_scale_factor = (int)sc->watermark_scale_factor;
	m->t.watermark_boost_factor = (int)sc->watermark_boost_factor;
	m->t.percpu_pagelist_high_fraction = (int)sc->percpu_pagelist_high_fraction;
	memcpy(m->t.lowmem_reserve_ratio, ratio, sizeof(m->t.lowmem_reserve_ratio));
	m->t.defrag_mode = sc->defrag_mode;
	m->t.extfrag_threshold = (int)sc->extfrag_threshold;
	m->t.compaction_proactiveness = (int)sc->compaction_proactiveness;
	m->t.compact_unevictable_allowed = sc->compact_unevictable_allowed;
	m->t.swappiness = (int)sc->swappiness;
	m->t.hugepage_pmd_enabled = hugepage_pmd_enabled(sc);
	apply_user_tunables(m, sc);
}

/*
 * The checks of a configuration that need no engine: machine_config_check
 * for `slowpath check` and run alike, and machine_create before building.
 * Fills the zone sizes, the lowmem_reserve_ratio values and the zone that
 * holds `reserved` (-1 for none).
 */
static int config_check(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
			uint64_t zone_bytes[MAX_NR_ZONES], int ratio[MAX_NR_ZONES], int *reserve_zone,
			char *err, size_t errlen)
{
	unsigned long reserved_pages;

	*reserve_zone = -1;
	if (cfg->hz < 100 || cfg->hz > 1000)
		return sim_errf(err, errlen, "hz=%" PRIu64 ": CONFIG_HZ must be between 100 and 1000",
				cfg->hz);
	if (cfg->nodes != 1)
		return sim_errf(err, errlen, "nodes=%" PRIu64 ": NUMA is not modelled, only nodes=1 is "
				"supported", cfg->nodes);
	if (cfg->memory < (4ULL << 20) || cfg->memory % (4ULL << 20) || cfg->memory > (8ULL << 40))
		return sim_errf(err, errlen, "memory=%" PRIu64 ": must be a multiple of 4m between 4m "
				"and 8t", cfg->memory);
	if (parse_zones(cfg->zones, cfg->memory, zone_bytes, err, errlen))
		return -1;
	if (check_sysctl(sysctl, ratio, err, errlen))
		return -1;
	reserved_pages = (unsigned long)((cfg->reserved + PAGE_SIZE - 1) >> PAGE_SHIFT);
	if (reserved_pages) {
		for (int i = ZONE_DMA32; i < ZONE_MOVABLE && *reserve_zone < 0; i++)
			if ((zone_bytes[i] >> PAGE_SHIFT) > reserved_pages)
				*reserve_zone = i;
		if (*reserve_zone < 0 && (zone_bytes[ZONE_DMA] >> PAGE_SHIFT) > reserved_pages)
			*reserve_zone = ZONE_DMA;
		if (*reserve_zone < 0)
			return sim_errf(err, errlen, "reserved=%" PRIu64 ": no zone outside Movable is "
					"large enough to hold it", cfg->reserved);
	}
	return 0;
}

int machine_config_check(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
			 char *err, size_t errlen)
{
	uint64_t zone_bytes[MAX_NR_ZONES];
	int ratio[MAX_NR_ZONES], reserve_zone;

	return config_check(cfg, sysctl, zone_bytes, ratio, &reserve_zone, err, errlen);
}

/*
 * The zones machine_create() builds for cfg, without building them: first
 * pfn, spanned and managed pages per zone type (managed < spanned only in
 * the zone that holds `reserved`, whose top frames are never managed).
 */
int machine_zone_geometry(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
			  unsigned long start[MAX_NR_ZONES], unsigned long spanned[MAX_NR_ZONES],
			  unsigned long managed[MAX_NR_ZONES], char *err, size_t errlen)
{
	uint64_t zone_bytes[MAX_NR_ZONES];
	int ratio[MAX_NR_ZONES], reserve_zone;
	unsigned long pfn = 0, reserved_pages;

	if (config_check(cfg, sysctl, zone_bytes, ratio, &reserve_zone, err, errlen))
		return -1;
	reserved_pages = (unsigned long)((cfg->reserved + PAGE_SIZE - 1) >> PAGE_SHIFT);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		unsigned long pages = (unsigned long)(i < ZONE_DEVICE ? zone_bytes[i] >> PAGE_SHIFT : 0);

		start[i] = pages ? pfn : 0;
		spanned[i] = pages;
		managed[i] = pages - (i == reserve_zone ? reserved_pages : 0);
		pfn += pages;
	}
	return 0;
}

uint64_t machine_bookkeeping_bytes(const struct machine_config *cfg, unsigned int cpus)
{
	uint64_t pfns = cfg->memory >> PAGE_SHIFT;

	/* mem_map and the pageblock bytes dominate; the per-CPU and per-zone
	 * arrays are a few KiB per CPU */
	return pfns * sizeof(struct page) + (pfns >> pageblock_order) +
	       (uint64_t)cpus * (NR_VM_EVENT_ITEMS * sizeof(uint64_t) + 4 * sizeof(struct per_cpu_pages));
}

/* "32 GiB", "1.5 MiB" */
static void format_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

struct machine *machine_create(struct sim *sim, const struct machine_config *cfg,
			       const struct vm_sysctl *sysctl, const struct mm_policy *policy,
			       char *err, size_t errlen)
{
	uint64_t zone_bytes[MAX_NR_ZONES];
	int ratio[MAX_NR_ZONES];
	unsigned long reserved_pages, vm_total_pages = 0;
	int reserve_zone = -1;
	struct machine *m;
	struct page *mem_map;
	pfn_t pfn = 0;
	long host_pages = sysconf(_SC_PHYS_PAGES), host_page = sysconf(_SC_PAGESIZE);
	uint64_t need, host;

	if (config_check(cfg, sysctl, zone_bytes, ratio, &reserve_zone, err, errlen))
		return NULL;
	if (cfg->cpus < 1 || cfg->cpus != sim_ncpus(sim)) {
		sim_errf(err, errlen, "cpus=%" PRIu64 ": the engine was built with %u CPUs", cfg->cpus,
		     sim_ncpus(sim));
		return NULL;
	}
	reserved_pages = (unsigned long)((cfg->reserved + PAGE_SIZE - 1) >> PAGE_SHIFT);
	/*
	 * The host must hold the model's bookkeeping: a clean error, not an
	 * abort (or the OOM killer) halfway through building the machine.
	 */
	need = machine_bookkeeping_bytes(cfg, (unsigned int)cfg->cpus);
	host = host_pages > 0 && host_page > 0 ? (uint64_t)host_pages * (uint64_t)host_page : 0;
	mem_map = host && need > host ? NULL : map_mem_map((size_t)(cfg->memory >> PAGE_SHIFT));
	if (!mem_map) {
		char a[32], b[48] = "the host cannot provide it";

		format_bytes(a, sizeof(a), need);
		if (host && need > host) {
			memcpy(b, "this host has ", 15);
			format_bytes(b + 14, sizeof(b) - 14, host);
		}
		sim_errf(err, errlen, "memory=%" PRIu64 ": the model's bookkeeping for it needs %s of "
			 "host memory (mem_map: %zu bytes per 4 KiB page) and %s; use a smaller memory= "
			 "or --scale", cfg->memory, a, sizeof(struct page), b);
		return NULL;
	}

	m = calloc(1, sizeof(*m));
	if (!m)
		SIM_BUG("out of memory");
	m->footprint = sizeof(*m);
	m->sim = sim;
	/* the machine keeps its own copy: the caller may have applied
	 * [policy] overrides to a temporary */
	m->policy_copy = policy ? *policy : mm_policies[0];
	m->policy = &m->policy_copy;
	m->foll_pin_accounting = cfg->foll_pin_accounting;
	m->nr_cpus = (unsigned int)cfg->cpus;
	m->hz = cfg->hz;
	m->tick_ns = (SIM_NSEC_PER_SEC + cfg->hz / 2) / cfg->hz;	/* TICK_NSEC */
	m->memory = cfg->memory;
	m->nr_pfns = (pfn_t)(cfg->memory >> PAGE_SHIFT);
	m->nr_pageblocks = m->nr_pfns >> pageblock_order;
	m->mem_map = mem_map;
	m->mem_map_bytes = (size_t)m->nr_pfns * sizeof(struct page);
	m->footprint += (size_t)m->nr_pfns * sizeof(struct page);
	m->pageblock = machine_calloc(m, m->nr_pageblocks, 1);
	m->pageblock_samples = machine_calloc(m, 2 * m->nr_pageblocks, sizeof(uint64_t));
	m->vm_event_states = machine_calloc(m, (size_t)m->nr_cpus * NR_VM_EVENT_ITEMS, sizeof(uint64_t));
	m->drain_cpumask = machine_calloc(m, m->nr_cpus, sizeof(bool));
	m->t.user_min_free_kbytes = -1;
	apply_tunables(m, sysctl, ratio);

	/* node and zones */
	m->node.machine = m;
	m->node.node_id = 0;
	m->node.per_cpu_nodestats = machine_calloc(m, m->nr_cpus, sizeof(struct per_cpu_nodestat));
	m->node.node_spanned_pages = m->node.node_present_pages = m->nr_pfns;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &m->node.node_zones[i];
		unsigned long pages = (unsigned long)(i < ZONE_DEVICE ? zone_bytes[i] >> PAGE_SHIFT : 0);

		zone->idx = (enum zone_type)i;
		zone->name = zone_names[i];
		zone->machine = m;
		zone->zone_pgdat = &m->node;
		zone->zone_start_pfn = pages ? pfn : 0;
		zone->spanned_pages = zone->present_pages = pages;
		zone->managed_pages = pages - (i == reserve_zone ? reserved_pages : 0);
		sim_spin_init(sim, &zone->lock, zone_lock_names[i]);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				pfn_slots_init(&zone->free_area[o].free_list[mt]);
		if (pages) {
			/* memmap_init(): every pageblock starts MOVABLE */
			for (unsigned long b = pfn >> pageblock_order;
			     b < (pfn + pages) >> pageblock_order; b++)
				m->pageblock[b] = (uint8_t)(MIGRATE_MOVABLE | ((unsigned)i << PB_ZONE_SHIFT));
			zone->nr_pageblocks[MIGRATE_MOVABLE] = pages >> pageblock_order;
			zone->per_cpu_pageset = machine_calloc(m, m->nr_cpus, sizeof(struct per_cpu_pages));
			zone->per_cpu_zonestats = machine_calloc(m, m->nr_cpus, sizeof(struct per_cpu_zonestat));
			for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
				struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

				sim_spin_init(sim, &pcp->lock, pcp_lock_names[i]);
				for (int l = 0; l < NR_PCP_LISTS; l++)
					pfn_ring_init(&pcp->lists[l]);
				pcp->high_min = pcp->high_max = BOOT_PAGESET_HIGH;
				pcp->batch = BOOT_PAGESET_BATCH;
			}
			m->node.nr_zones = i + 1;
			m->totalram_pages += zone->managed_pages;
			if (i <= ZONE_MOVABLE)
				vm_total_pages += zone->managed_pages;
		}
		pfn += (pfn_t)pages;
	}
	for (int i = MAX_NR_ZONES - 1; i >= 0; i--)
		if (populated_zone(&m->node.node_zones[i]))
			m->zonelist[m->nr_zonelist++] = &m->node.node_zones[i];
	/* build_all_zonelists(): grouping by mobility needs enough pageblocks */
	m->t.page_group_by_mobility_disabled = vm_total_pages < (unsigned long)pageblock_nr_pages * MIGRATE_TYPES;
	/* sparse vmemmap: 64-byte struct pages per present 128 MiB section */
	m->nr_memmap_boot_pages = ((m->nr_pfns + 32767UL) >> 15) * (32768UL * 64 / PAGE_SIZE);

	/* memblock_free_all(): thresholds are 0 yet, charges are off */
	m->charging = false;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &m->node.node_zones[i];

		if (populated_zone(zone))
			free_boot_range(m, zone, (pfn_t)zone->zone_start_pfn,
					(pfn_t)(zone->zone_start_pfn + zone->managed_pages));
	}

	init_per_zone_wmark_min(m);
	m->t.boot_min_free_kbytes = m->t.min_free_kbytes;
	if (sysctl->min_free_kbytes) {		/* a sysctl write after boot */
		m->t.min_free_kbytes = (int)sysctl->min_free_kbytes;
		m->t.user_min_free_kbytes = (int)sysctl->min_free_kbytes;
		setup_per_zone_wmarks(m);
	}
	sim_mutex_init(sim, &m->pcpu_drain_mutex, "pcpu_drain_mutex");
	sim_mutex_init(sim, &m->oom_lock, "oom_lock");
	lruvec_init(sim, &m->node.__lruvec);
	folio_lock_table_create(m);
	pfn_set_init(&m->isolated);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (populated_zone(&m->node.node_zones[i]))
			compaction_zone_init(&m->node.node_zones[i]);
	/* kswapd and kcompactd state (their tasks start in machine_start) */
	m->node.kswapd_highest_zoneidx = MAX_NR_ZONES;
	m->node.kcompactd_highest_zoneidx = m->node.nr_zones - 1;
	sim_waitq_init(&m->node.kswapd_wait, "kswapd_wait");
	sim_waitq_init(&m->node.pfmemalloc_wait, "pfmemalloc_wait");
	sim_waitq_init(&m->node.kcompactd_wait, "kcompactd_wait");
	for (int r = 0; r < NR_VMSCAN_THROTTLE; r++)
		sim_waitq_init(&m->node.reclaim_wait[r], "reclaim_wait");
	m->fbatches = machine_calloc(m, m->nr_cpus, sizeof(struct cpu_fbatches));
	m->charging = true;
	return m;
}

/*
 * machine_start(): the kernel threads as engine tasks — kswapd0 and
 * kcompactd0 (bound to the node: any CPU), one pinned vmstat worker per
 * CPU (vmstat.c) — and the hugetlb pool.  Other subsystems add theirs
 * here.
 */
void machine_start(struct machine *m)
{
	if (m->started)
		return;
	m->started = true;
	hugetlb_pool_init(m);
	kswapd_run(m);
	mm_kthread_kind(m, "kcompactd");
	kcompactd_run(m);
	vmstat_start_workers(m);
	mm_kthread_kind(m, "vmstat");	/* the workers' kind: reclaim does not throttle them */
	/* flushers start when a filesystem is mounted on a device (fs.c) */
}

void machine_destroy(struct machine *m)
{
	if (!m)
		return;
	/* registered locks must leave the engine's report lists before their
	 * memory goes */
	mm_trace_stop(m);
	/* A run stops at its end time with tasks where they are: one may
	 * hold or wait for any of these locks.  Abandon, not release. */
	sim_mutex_abandon(m->sim, &m->pcpu_drain_mutex);
	sim_mutex_abandon(m->sim, &m->oom_lock);
	sim_spin_abandon(m->sim, &m->node.__lruvec.lru_lock);
	/* a vmstat line is held for one atomic at a time, often across the
	 * end of a run: the stopped holder never releases it */
	for (int i = 0; i < VMSTAT_NR_LINES; i++)
		if (m->vmstat_line[i].name[0])
			sim_spin_abandon(m->sim, &m->vmstat_line[i].lock);
	free(m->vmstat_workers);
	memory_release_all(m);
	slab_release(m);
	shmem_release_all(m);
	hugetlb_release(m);
	fs_release_all(m);
	writeback_release(m);
	readahead_release(m);
	folio_lock_table_destroy(m);
	pfn_set_release(&m->isolated);
	mapping_table_release(m);
	free(m->fbatches);
	free(m->lru_gen_flags);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &m->node.node_zones[i];

		if (zone->per_cpu_pageset)
			for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
				sim_spin_abandon(m->sim, &zone->per_cpu_pageset[cpu].lock);
				for (int l = 0; l < NR_PCP_LISTS; l++)
					pfn_ring_release(&zone->per_cpu_pageset[cpu].lists[l]);
			}
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				pfn_slots_release(&zone->free_area[o].free_list[mt]);
		sim_spin_abandon(m->sim, &zone->lock);
		free(zone->per_cpu_pageset);
		free(zone->per_cpu_zonestats);
	}
	free(m->node.per_cpu_nodestats);
	free(m->drain_cpumask);
	free(m->vm_event_states);
	free(m->pageblock);
	free(m->pageblock_samples);
	host_huge_free(m->mem_map, m->mem_map_bytes);
	free(m);
}

/*
 * machine_apply_sysctl(): the sysctl handlers (min_free_kbytes_sysctl_handler,
 * watermark_scale_factor_sysctl_handler, lowmem_reserve_ratio_sysctl_handler,
 * percpu_pagelist_high_fraction_sysctl_handler; 6.12) for the values that
 * changed, and the store of transparent_hugepage/enabled or shmem_enabled
 * (start_stop_khugepaged, mm/khugepaged.c 6.12: set_recommended_min_free_kbytes
 * raises min_free_kbytes when PMD THP is now on, recomputes the boot value
 * when it is off; khugepaged itself is not modelled).  vm.min_free_kbytes=0
 * means the value computed at boot (the model's convention, sysctl.h).
 */
int machine_apply_sysctl(struct machine *m, const struct vm_sysctl *sc, char *err, size_t errlen)
{
	int ratio[MAX_NR_ZONES];
	bool wmarks = false, pmd_enabled = hugepage_pmd_enabled(sc);

	if (check_sysctl(sc, ratio, err, errlen))
		return -1;
	if (sc->min_free_kbytes && (int)sc->min_free_kbytes != m->t.min_free_kbytes) {
		m->t.min_free_kbytes = m->t.user_min_free_kbytes = (int)sc->min_free_kbytes;
		wmarks = true;
	} else if (!sc->min_free_kbytes && m->t.user_min_free_kbytes >= 0) {
		m->t.user_min_free_kbytes = -1;
		m->t.min_free_kbytes = m->t.boot_min_free_kbytes;
		wmarks = true;
	}
	if ((int)sc->watermark_scale_factor != m->t.watermark_scale_factor) {
		m->t.watermark_scale_factor = (int)sc->watermark_scale_factor;
		wmarks = true;
	}
	if (wmarks)
		setup_per_zone_wmarks(m);
	if (sc->thp_enabled != m->t.thp_enabled || pmd_enabled != m->t.hugepage_pmd_enabled) {
		m->t.thp_enabled = sc->thp_enabled;
		m->t.hugepage_pmd_enabled = pmd_enabled;
		set_recommended_min_free_kbytes(m);
	}
	m->t.watermark_boost_factor = (int)sc->watermark_boost_factor;
	m->t.defrag_mode = sc->defrag_mode;
	m->t.extfrag_threshold = (int)sc->extfrag_threshold;
	m->t.compaction_proactiveness = (int)sc->compaction_proactiveness;
	m->t.compact_unevictable_allowed = sc->compact_unevictable_allowed;
	m->t.swappiness = (int)sc->swappiness;
	m->node.__lruvec.lrugen.min_ttl_ms = (unsigned long)sc->lru_gen_min_ttl_ms;
	apply_user_tunables(m, sc);
	if (memcmp(ratio, m->t.lowmem_reserve_ratio, sizeof(ratio)) != 0) {
		memcpy(m->t.lowmem_reserve_ratio, ratio, sizeof(ratio));
		setup_per_zone_lowmem_reserve(m);
	}
	if ((int)sc->percpu_pagelist_high_fraction != m->t.percpu_pagelist_high_fraction) {
		m->t.percpu_pagelist_high_fraction = (int)sc->percpu_pagelist_high_fraction;
		for (int i = 0; i < MAX_NR_ZONES; i++)
			zone_set_pageset_high_and_batch(&m->node.node_zones[i], 0);
	}
	mm_op_done(m);
	return 0;
}

void machine_set_policy(struct machine *m, const struct mm_policy *policy)
{
	m->policy_copy = *policy;
	m->policy = &m->policy_copy;
}

struct sim *machine_sim(const struct machine *m)
{
	return m->sim;
}

/*
 * The bytes machine_create() will hold for cfg, without building the
 * machine: the same arrays (frames, pageblock bytes, per-CPU event
 * counters and drain mask, node stats, pcp lists and zone stats for every
 * zone that could be populated, folio batches, the folio-lock table).  An
 * upper bound of machine_footprint() right after machine_create() (zones
 * are not parsed here, so all of them count); the memory a sweep asks
 * Slurm for starts from it (docs/sweeps.md).  Not included: what the run
 * adds later (page-table mirrors, workload state), which grows with the
 * workload, not the machine.
 */
size_t machine_footprint_estimate(const struct machine_config *cfg)
{
	size_t nr_pfns = (size_t)(cfg->memory >> PAGE_SHIFT), cpus = (size_t)cfg->cpus;

	return sizeof(struct machine) + nr_pfns * sizeof(struct page) +
	       (nr_pfns >> pageblock_order) * (1 + 2 * sizeof(uint64_t)) +
	       cpus * (NR_VM_EVENT_ITEMS * sizeof(uint64_t) + sizeof(bool) +
			sizeof(struct per_cpu_nodestat) + sizeof(struct cpu_fbatches) +
			MAX_NR_ZONES * (sizeof(struct per_cpu_pages) + sizeof(struct per_cpu_zonestat))) +
	       folio_lock_table_bytes();
}

size_t machine_footprint(const struct machine *m)
{
	return m->footprint;
}

void mm_set_check_interval(struct machine *m, uint64_t n)
{
	m->check_every = n;
}

unsigned int mm_nr_zones(const struct machine *m)
{
	return m->nr_zonelist;
}

/* i-th populated zone in zone order (DMA first). */
const char *mm_zone_name(const struct machine *m, unsigned int i)
{
	SIM_ASSERT(i < m->nr_zonelist);
	return m->zonelist[m->nr_zonelist - 1 - i]->name;
}

uint64_t mm_zone_managed_pages(const struct machine *m, unsigned int i)
{
	SIM_ASSERT(i < m->nr_zonelist);
	return zone_managed_pages(m->zonelist[m->nr_zonelist - 1 - i]);
}
