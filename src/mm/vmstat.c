/* SPDX-License-Identifier: MIT */
/*
 * vmstat.c — the vmstat counter machinery and the /proc renderers
 * (mm/vmstat.c and include/linux/vmstat.h, Linux 6.12; layouts of 6.18;
 * mm/vmstat.c).
 *
 * Three kinds of counters, kept as the kernel keeps them:
 *
 *   events (pgalloc_*, pgfree, compact_*, ...)   per-CPU u64, never folded;
 *       count_vm_event = one per-CPU add          summed over CPUs when read
 *
 *   zone / node state (nr_free_pages, nr_foll_pin_acquired, ...)
 *       per-CPU s8 diff  --|diff| > threshold-->  zone/node atomic + global atomic
 *       (stat_threshold per CPU, calculate_normal_threshold(): <= 125)
 *
 *       __mod_*_page_state   IRQs off, plain RMW of the diff; folds the whole
 *                            value
 *       mod_/inc_/dec_*      this_cpu_cmpxchg loop; overstep 0 / +t/2 / -t/2:
 *                            inc folds v + t/2 and leaves the diff at -t/2,
 *                            so a rising counter folds every ~1.5 t updates
 *       refresh_cpu_vm_stats (vmstat_update, once per stat_interval per CPU):
 *                            xchg every diff with 0 and fold it
 *
 *   reads: zone_page_state() is the folded value (lags by up to CPUs x t);
 *   *_snapshot() adds every CPU's diff (a remote line per CPU).
 *
 * Costs (cost-table rows): per-CPU add for events and __mod updates,
 * per-CPU cmpxchg for mod/inc/dec and for each xchg in a refresh, two
 * shared atomics per fold (the zone/node counter and the global one),
 * one remote per-CPU read per CPU for snapshot reads.  This is what the
 * O_DIRECT pin-accounting case (mod_node_page_state per pin) measures.
 * A shared atomic is made on a contended cache line (vmstat_line_atomic):
 * CPUs folding into the same 8-counter line at once serialise and spin,
 * so folds cost more the more CPUs fold at the same time.
 *
 * Renderers print /proc/vmstat, buddyinfo, pagetypeinfo, zoneinfo and
 * meminfo byte for byte in the 6.18 layout (fixtures in
 * tests/fixtures/proc/linux-6.18).  They take no locks and change nothing.
 *
 * Simplifications: NUMA events are per CPU and summed when read (the
 * kernel folds them into the zone on read: same values); the NUMA
 * "expire" drain of remote pcp lists does not apply (one node);
 * nr_dirty_threshold / nr_dirty_background_threshold print as 0 until the
 * page cache's dirty limits are modelled.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "mm/memory.h"
#include "mm/writeback.h"

#define VMSTAT_NAME(e, n) n,
const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS] = { ZONE_STAT_ITEMS(VMSTAT_NAME) };
const char *const numa_stat_names[NR_VM_NUMA_EVENT_ITEMS] = { NUMA_STAT_ITEMS(VMSTAT_NAME) };
const char *const node_stat_names[NR_VM_NODE_STAT_ITEMS] = { NODE_STAT_ITEMS(VMSTAT_NAME) };
const char *const vm_stat_names[NR_VM_STAT_ITEMS] = { VM_STAT_ITEMS(VMSTAT_NAME) };
const char *const vm_event_names[NR_VM_EVENT_ITEMS] = { VM_EVENT_ITEMS(VMSTAT_NAME) };
const char *const sim_stat_names[NR_SIM_STAT_ITEMS] = { SIM_STAT_ITEMS(VMSTAT_NAME) };
#undef VMSTAT_NAME

/* ---- events ------------------------------------------------------------------- */

void __count_vm_events(struct machine *m, enum vm_event_item item, unsigned long delta)
{
	m->vm_event_states[(size_t)mm_this_cpu(m) * NR_VM_EVENT_ITEMS + item] += delta;
	mm_charge(m, COST_percpu_add, 1);
}

void count_vm_events(struct machine *m, enum vm_event_item item, unsigned long delta)
{
	__count_vm_events(m, item, delta);
}

void __count_zid_vm_events(struct machine *m, enum vm_event_item base, unsigned int zid,
			   unsigned long delta)
{
	__count_vm_events(m, (enum vm_event_item)(base + zid), delta);
}

void __count_numa_events(struct zone *zone, enum numa_stat_item item, unsigned long delta)
{
	struct machine *m = zone->machine;

	zone->per_cpu_zonestats[mm_this_cpu(m)].vm_numa_event[item] += delta;
	mm_charge(m, COST_percpu_add, 1);
}

unsigned long sum_vm_event(const struct machine *m, enum vm_event_item item)
{
	uint64_t sum = 0;

	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		sum += m->vm_event_states[(size_t)cpu * NR_VM_EVENT_ITEMS + item];
	return sum;
}

unsigned long zone_numa_event_state(const struct zone *zone, enum numa_stat_item item)
{
	uint64_t sum = 0;

	if (!zone->per_cpu_zonestats)
		return 0;
	for (unsigned int cpu = 0; cpu < zone->machine->nr_cpus; cpu++)
		sum += zone->per_cpu_zonestats[cpu].vm_numa_event[item];
	return sum;
}

/* ---- state counters: folds ------------------------------------------------------- */

/*
 * One atomic RMW on a line of shared counters (see VMSTAT_LINE_ITEMS in
 * mmzone.h): in task context the line is a spinlock held for the
 * atomic_shared cost, so CPUs folding into one line at the same time
 * queue and spin (the waiter also pays spin_handoff when the line comes
 * to it) and the cost of a fold grows with the number of CPUs folding.
 * Engine context (unit tests, callbacks) and booting only charge.
 * Simplification: item i sits on line i / 8 (the kernel's arrays are
 * not 64-byte aligned inside their structs, so real boundaries may be
 * shifted); one line per group of 8 counters for every zone and node.
 */
static void vmstat_line_atomic(struct machine *m, unsigned int line, const char *array,
			       unsigned int first_item)
{
	struct vmstat_line *l = &m->vmstat_line[line];

	if (!m->charging)
		return;
	if (!sim_current(m->sim)) {
		mm_charge(m, COST_atomic_shared, 1);
		return;
	}
	if (!l->name[0]) {
		snprintf(l->name, sizeof(l->name), "%s[%u..%u]", array, first_item,
			 first_item + VMSTAT_LINE_ITEMS - 1);
		sim_spin_init(m->sim, &l->lock, l->name);
	}
	/* The line's lock is a sync point inside an update that the kernel
	 * makes without one (counters, flags and tags half done): mm_check
	 * waits until no task is in here (mm_busy, mmzone.h). */
	m->mm_busy++;
	sim_spin_lock(m->sim, &l->lock);
	mm_charge(m, COST_atomic_shared, 1);
	sim_spin_unlock(m->sim, &l->lock);
	m->mm_busy--;
}

static const char *const zone_line_arrays[MAX_NR_ZONES] = {
	"zone DMA vm_stat", "zone DMA32 vm_stat", "zone Normal vm_stat", "zone Movable vm_stat",
	"zone Device vm_stat"
};

/* atomic_long_add(x, &zone->vm_stat[item]) */
static void zone_stat_atomic_add(struct zone *zone, enum zone_stat_item item, long x)
{
	unsigned int k = item / VMSTAT_LINE_ITEMS;

	zone->vm_stat[item] += x;
	vmstat_line_atomic(zone->machine, zone->idx * VMSTAT_ZONE_LINES + k,
			   zone_line_arrays[zone->idx], k * VMSTAT_LINE_ITEMS);
}

/* atomic_long_add(x, &vm_zone_stat[item]) */
static void global_zone_stat_atomic_add(struct machine *m, enum zone_stat_item item, long x)
{
	unsigned int k = item / VMSTAT_LINE_ITEMS;

	m->vm_zone_stat[item] += x;
	vmstat_line_atomic(m, MAX_NR_ZONES * VMSTAT_ZONE_LINES + k, "vm_zone_stat",
			   k * VMSTAT_LINE_ITEMS);
}

/* atomic_long_add(x, &pgdat->vm_stat[item]) */
static void node_stat_atomic_add(struct pglist_data *pgdat, enum node_stat_item item, long x)
{
	unsigned int k = item / VMSTAT_LINE_ITEMS;

	pgdat->vm_stat[item] += x;
	vmstat_line_atomic(pgdat->machine, (MAX_NR_ZONES + 1) * VMSTAT_ZONE_LINES + k,
			   "pgdat->vm_stat", k * VMSTAT_LINE_ITEMS);
}

/* atomic_long_add(x, &vm_node_stat[item]) */
static void global_node_stat_atomic_add(struct machine *m, enum node_stat_item item, long x)
{
	unsigned int k = item / VMSTAT_LINE_ITEMS;

	m->vm_node_stat[item] += x;
	vmstat_line_atomic(m, (MAX_NR_ZONES + 1) * VMSTAT_ZONE_LINES + VMSTAT_NODE_LINES + k,
			   "vm_node_stat", k * VMSTAT_LINE_ITEMS);
}

/* zone_page_state_add(): the two shared atomics of a fold. */
static void zone_page_state_add(long x, struct zone *zone, enum zone_stat_item item)
{
	zone_stat_atomic_add(zone, item, x);
	global_zone_stat_atomic_add(zone->machine, item, x);
}

static void node_page_state_add(long x, struct pglist_data *pgdat, enum node_stat_item item)
{
	node_stat_atomic_add(pgdat, item, x);
	global_node_stat_atomic_add(pgdat->machine, item, x);
}

/*
 * The per-CPU diff arithmetic every state update shares (mod_zone_state()
 * / mod_node_state(), 6.12): add delta to this CPU's s8 diff; when the
 * result leaves [-t, t], return what goes to the shared counters and leave
 * -overstep_mode x t/2 in the diff.  overstep_mode is 0 for __mod/mod
 * (fold everything), +1 for inc and -1 for dec (fold value + t/2, keep
 * -t/2: a steadily rising counter folds every ~1.5 t updates).  The
 * kernel's __inc_*_state/__dec_*_state compute exactly the inc/dec case.
 */
static long diff_update(int8_t *diff, long delta, long t, int overstep_mode)
{
	long n = delta + *diff, z = 0;

	if (unlikely(labs(n) > t)) {
		long os = overstep_mode * (t >> 1);

		z = n + os;
		n = -os;
	}
	*diff = (int8_t)n;
	return z;
}

/* One zone-counter update: `cost` is percpu_add for the __ variants (IRQs
 * off, plain RMW) and percpu_cmpxchg for the any-context ones
 * (this_cpu_cmpxchg loop, HAVE_CMPXCHG_LOCAL on arm64 and x86). */
static void zone_state_update(struct zone *zone, enum zone_stat_item item, long delta,
			      int overstep_mode, enum cost_id cost)
{
	struct machine *m = zone->machine;
	struct per_cpu_zonestat *pz = &zone->per_cpu_zonestats[mm_this_cpu(m)];
	long z;

	mm_charge(m, cost, 1);
	z = diff_update(&pz->vm_stat_diff[item], delta, pz->stat_threshold, overstep_mode);
	if (z)
		zone_page_state_add(z, zone, item);
}

/* Byte-counted node items (slab) are kept in pages, as the kernel does. */
static void node_state_update(struct pglist_data *pgdat, enum node_stat_item item, long delta,
			      int overstep_mode, enum cost_id cost)
{
	struct machine *m = pgdat->machine;
	struct per_cpu_nodestat *pn = &pgdat->per_cpu_nodestats[mm_this_cpu(m)];
	long z;

	if (vmstat_item_in_bytes(item)) {
		SIM_ASSERT((delta & (long)(PAGE_SIZE - 1)) == 0);
		delta >>= PAGE_SHIFT;
	}
	mm_charge(m, cost, 1);
	z = diff_update(&pn->vm_node_stat_diff[item], delta, pn->stat_threshold, overstep_mode);
	if (z)
		node_page_state_add(z, pgdat, item);
}

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	zone_state_update(zone, item, delta, 0, COST_percpu_add);
}

void __inc_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_state_update(zone, item, 1, 1, COST_percpu_add);
}

void __dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_state_update(zone, item, -1, -1, COST_percpu_add);
}

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	zone_state_update(zone, item, delta, 0, COST_percpu_cmpxchg);
}

void inc_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_state_update(zone, item, 1, 1, COST_percpu_cmpxchg);
}

void dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_state_update(zone, item, -1, -1, COST_percpu_cmpxchg);
}

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	node_state_update(pgdat, item, delta, 0, COST_percpu_add);
}

void __inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	node_state_update(pgdat, item, 1, 1, COST_percpu_add);
}

void __dec_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	node_state_update(pgdat, item, -1, -1, COST_percpu_add);
}

/* mod_node_page_state(): the call gup.c makes per pinned folio (FOLL_PIN accounting, mm/gup.c). */
void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	node_state_update(pgdat, item, delta, 0, COST_percpu_cmpxchg);
}

void inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	node_state_update(pgdat, item, 1, 1, COST_percpu_cmpxchg);
}

void dec_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	node_state_update(pgdat, item, -1, -1, COST_percpu_cmpxchg);
}

/* ---- state counters: reads --------------------------------------------------------- */

static inline unsigned long clamp0(int64_t x)
{
	return x < 0 ? 0 : (unsigned long)x;
}

unsigned long zone_page_state(const struct zone *zone, enum zone_stat_item item)
{
	return clamp0(zone->vm_stat[item]);
}

long zone_page_state_exact(const struct zone *zone, enum zone_stat_item item)
{
	int64_t x = zone->vm_stat[item];

	if (zone->per_cpu_zonestats)
		for (unsigned int cpu = 0; cpu < zone->machine->nr_cpus; cpu++)
			x += zone->per_cpu_zonestats[cpu].vm_stat_diff[item];
	return (long)x;
}

unsigned long zone_page_state_snapshot(const struct zone *zone, enum zone_stat_item item)
{
	mm_charge(zone->machine, COST_percpu_read_remote, zone->machine->nr_cpus);
	return clamp0(zone_page_state_exact(zone, item));
}

/*
 * The `percpu` FOLL_PIN accounting (gup.c) keeps NR_FOLL_PIN_ACQUIRED and
 * NR_FOLL_PIN_RELEASED as per-CPU event counts that are never folded:
 * every read of the two items sums them, as /proc/vmstat sums vm_event
 * counters (0 under the other modes).
 */
static int64_t node_stat_events(const struct pglist_data *pgdat, enum node_stat_item item)
{
	int64_t sum = 0;

	if ((item != NR_FOLL_PIN_ACQUIRED && item != NR_FOLL_PIN_RELEASED) || !pgdat->per_cpu_nodestats)
		return 0;
	for (unsigned int cpu = 0; cpu < pgdat->machine->nr_cpus; cpu++)
		sum += (int64_t)pgdat->per_cpu_nodestats[cpu].foll_pin_events[item - NR_FOLL_PIN_ACQUIRED];
	return sum;
}

unsigned long node_page_state(const struct pglist_data *pgdat, enum node_stat_item item)
{
	return clamp0(pgdat->vm_stat[item] + node_stat_events(pgdat, item));
}

unsigned long node_page_state_pages(const struct pglist_data *pgdat, enum node_stat_item item)
{
	/* byte items are stored in pages */
	return clamp0(pgdat->vm_stat[item] + node_stat_events(pgdat, item));
}

long node_page_state_exact(const struct pglist_data *pgdat, enum node_stat_item item)
{
	const struct machine *m = pgdat->machine;
	int64_t x = pgdat->vm_stat[item] + node_stat_events(pgdat, item);

	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		x += pgdat->per_cpu_nodestats[cpu].vm_node_stat_diff[item];
	return (long)x;
}

unsigned long node_page_state_snapshot(const struct pglist_data *pgdat, enum node_stat_item item)
{
	mm_charge(pgdat->machine, COST_percpu_read_remote, pgdat->machine->nr_cpus);
	return clamp0(node_page_state_exact(pgdat, item));
}

unsigned long global_zone_page_state(const struct machine *m, enum zone_stat_item item)
{
	return clamp0(m->vm_zone_stat[item]);
}

unsigned long global_node_page_state(const struct machine *m, enum node_stat_item item)
{
	return clamp0(m->vm_node_stat[item] + node_stat_events(&m->node, item));
}

unsigned long global_node_page_state_pages(const struct machine *m, enum node_stat_item item)
{
	return clamp0(m->vm_node_stat[item] + node_stat_events(&m->node, item));
}

/* ---- thresholds (refresh_zone_stat_thresholds, mm/vmstat.c) ---------------------------------------------------------- */

static int fls_ul(unsigned long x)
{
	return x ? 64 - __builtin_clzl(x) : 0;
}

/* calculate_normal_threshold() (6.12): 2 x fls(cpus) x (1 + fls(managed
 * in 128 MiB units)), at most 125. */
int calculate_normal_threshold(const struct zone *zone)
{
	unsigned long mem = zone_managed_pages(zone) >> (27 - PAGE_SHIFT);
	int threshold = 2 * fls_ul(zone->machine->nr_cpus) * (1 + fls_ul(mem));

	return threshold < 125 ? threshold : 125;
}

/* calculate_pressure_threshold() (6.12): (low - min) / cpus, 1..125. */
int calculate_pressure_threshold(const struct zone *zone)
{
	long distance = (long)low_wmark_pages(zone) - (long)min_wmark_pages(zone);
	long threshold = distance / (long)zone->machine->nr_cpus;

	if (threshold < 1)
		threshold = 1;
	return threshold < 125 ? (int)threshold : 125;
}

/* refresh_zone_stat_thresholds() (6.12): also sets percpu_drift_mark when
 * CPUs x threshold could hide a min-watermark breach. */
void refresh_zone_stat_thresholds(struct machine *m)
{
	pg_data_t *pgdat = &m->node;

	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		pgdat->per_cpu_nodestats[cpu].stat_threshold = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		unsigned long max_drift, tolerate_drift;
		int threshold;

		if (!populated_zone(zone))
			continue;
		threshold = calculate_normal_threshold(zone);
		for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
			struct per_cpu_nodestat *pn = &pgdat->per_cpu_nodestats[cpu];

			zone->per_cpu_zonestats[cpu].stat_threshold = (int8_t)threshold;
			if (threshold > pn->stat_threshold)
				pn->stat_threshold = (int8_t)threshold;
		}
		tolerate_drift = low_wmark_pages(zone) - min_wmark_pages(zone);
		max_drift = (unsigned long)m->nr_cpus * (unsigned long)threshold;
		if (max_drift > tolerate_drift)
			zone->percpu_drift_mark = high_wmark_pages(zone) + max_drift;
	}
}

/* set_pgdat_percpu_threshold() (6.12): kswapd switches zones that have a
 * drift mark to the pressure threshold while it runs. */
void set_pgdat_percpu_threshold(struct pglist_data *pgdat,
				int (*calculate_pressure)(const struct zone *))
{
	struct machine *m = pgdat->machine;

	for (int i = 0; i < pgdat->nr_zones; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		int threshold;

		if (!zone->percpu_drift_mark || !zone->per_cpu_zonestats)
			continue;
		threshold = calculate_pressure(zone);
		for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
			zone->per_cpu_zonestats[cpu].stat_threshold = (int8_t)threshold;
	}
}

/* ---- periodic folding -------------------------------------------------------------- */

/*
 * refresh_cpu_vm_stats() (6.12): xchg each non-zero diff of `cpu` with 0,
 * add it to the zone/node atomic and, summed, to the global atomics
 * (fold_diff); with do_pagesets run decay_pcp_high on the CPU's lists.
 * Not modelled: the NUMA drain of remote pcp lists (one node).
 */
bool refresh_cpu_vm_stats(struct machine *m, unsigned int cpu, bool do_pagesets)
{
	int64_t global_zone_diff[NR_VM_ZONE_STAT_ITEMS] = { 0 };
	int64_t global_node_diff[NR_VM_NODE_STAT_ITEMS] = { 0 };
	pg_data_t *pgdat = &m->node;
	bool changed = false;

	SIM_ASSERT(cpu < m->nr_cpus);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		struct per_cpu_zonestat *pz;

		if (!populated_zone(zone))
			continue;
		pz = &zone->per_cpu_zonestats[cpu];
		for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			int v = pz->vm_stat_diff[i];

			if (!v)
				continue;
			pz->vm_stat_diff[i] = 0;
			mm_charge(m, COST_percpu_cmpxchg, 1);
			zone_stat_atomic_add(zone, (enum zone_stat_item)i, v);
			global_zone_diff[i] += v;
		}
		if (do_pagesets && decay_pcp_high(m, zone, &zone->per_cpu_pageset[cpu]))
			changed = true;
	}

	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
		struct per_cpu_nodestat *pn = &pgdat->per_cpu_nodestats[cpu];
		int v = pn->vm_node_stat_diff[i];

		if (!v)
			continue;
		pn->vm_node_stat_diff[i] = 0;
		mm_charge(m, COST_percpu_cmpxchg, 1);
		node_stat_atomic_add(pgdat, (enum node_stat_item)i, v);
		global_node_diff[i] += v;
	}

	/* fold_diff() */
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (global_zone_diff[i]) {
			global_zone_stat_atomic_add(m, (enum zone_stat_item)i, (long)global_zone_diff[i]);
			changed = true;
		}
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (global_node_diff[i]) {
			global_node_stat_atomic_add(m, (enum node_stat_item)i, (long)global_node_diff[i]);
			changed = true;
		}
	return changed;
}

/* vmstat_update() (6.12): the per-CPU deferrable work, every stat_interval. */
void vmstat_update(struct machine *m, unsigned int cpu)
{
	refresh_cpu_vm_stats(m, cpu, true);
	mm_op_done(m);
}

/*
 * The vmstat workers (mm/vmstat.c vmstat_shepherd + vmstat_update, 6.12):
 * one task per CPU, pinned, running vmstat_update every vm.stat_interval,
 * so the folded counters (/proc/vmstat) catch up with the per-CPU diffs
 * within an interval and idle pcp lists decay.  Simplification: the
 * kernel's shepherd queues a CPU's work only when that CPU has diffs to
 * fold or pcp high to decay, and the work is deferrable (it does not wake
 * an idle CPU); the model runs it on every CPU every interval — the
 * result is the same folding, at a few more engine events.
 */
struct vmstat_worker {
	struct machine	*m;
	unsigned int	cpu;
};

static void vmstat_worker_fn(struct sim *sim, void *arg)
{
	struct vmstat_worker *w = arg;

	for (;;) {
		sim_sleep(sim, w->m->t.stat_interval);
		sim_path_push(sim, "vmstat_update");
		vmstat_update(w->m, w->cpu);
		sim_path_pop(sim);
	}
}

void vmstat_start_workers(struct machine *m)
{
	int kind;

	if (m->vmstat_workers || !m->t.stat_interval)
		return;
	m->vmstat_workers = calloc(m->nr_cpus, sizeof(*m->vmstat_workers));
	if (!m->vmstat_workers)
		SIM_BUG("out of memory for the vmstat workers");
	kind = sim_task_kind(m->sim, "vmstat");
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		char name[32];
		struct sim_task_config tc = { .name = name, .kind = kind, .cpu = (int)cpu, .pinned = true,
					      .kthread = true };

		snprintf(name, sizeof(name), "vmstat/%u", cpu);
		m->vmstat_workers[cpu].m = m;
		m->vmstat_workers[cpu].cpu = cpu;
		sim_task_create(m->sim, &tc, vmstat_worker_fn, &m->vmstat_workers[cpu], sim_now(m->sim));
	}
}

/* ---- model-only counters ----------------------------------------------------------- */

void sim_stat_add(struct machine *m, enum sim_stat_item item, uint64_t delta)
{
	m->sim_stat[item] += delta;
}

uint64_t sim_stat_read(const struct machine *m, enum sim_stat_item item)
{
	return m->sim_stat[item];
}

#define MM_TRACEPOINT_NAME(e, name) [e] = name,
const char *const mm_tracepoint_names[NR_MM_TRACEPOINTS] = { MM_TRACEPOINTS(MM_TRACEPOINT_NAME) };
#undef MM_TRACEPOINT_NAME

int64_t mm_tracepoint_count(const struct machine *m, const char *name)
{
	for (int i = 0; i < NR_MM_TRACEPOINTS; i++)
		if (strcmp(mm_tracepoint_names[i], name) == 0)
			return (int64_t)m->tracepoint[i];
	return -1;
}

/* ---- /proc/vmstat ------------------------------------------------------------------ */

/* vmstat_start() (6.12, 6.18 item set): every value in file order. */
static void vmstat_walk(const struct machine *m, mm_counter_fn fn, void *ctx, bool with_sim)
{
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		fn(ctx, zone_stat_names[i], (int64_t)global_zone_page_state(m, (enum zone_stat_item)i));
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		uint64_t sum = 0;

		for (int z = 0; z < MAX_NR_ZONES; z++)
			sum += zone_numa_event_state(&m->node.node_zones[z], (enum numa_stat_item)i);
		fn(ctx, numa_stat_names[i], (int64_t)sum);
	}
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
		unsigned long v = global_node_page_state_pages(m, (enum node_stat_item)i);

		if (vmstat_item_print_in_thp((enum node_stat_item)i))
			v /= HPAGE_PMD_NR;
		fn(ctx, node_stat_names[i], (int64_t)v);
	}
	{
		unsigned long bg, thresh;	/* vmstat_start(): global_dirty_limits() */

		global_dirty_limits(m, &bg, &thresh);
		fn(ctx, vm_stat_names[NR_DIRTY_THRESHOLD], (int64_t)thresh);
		fn(ctx, vm_stat_names[NR_DIRTY_BG_THRESHOLD], (int64_t)bg);
	}
	fn(ctx, vm_stat_names[NR_MEMMAP_PAGES], 0);		/* no hotplug memmap */
	fn(ctx, vm_stat_names[NR_MEMMAP_BOOT_PAGES], (int64_t)m->nr_memmap_boot_pages);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		uint64_t v = sum_vm_event(m, (enum vm_event_item)i);

		if (i == PGPGIN || i == PGPGOUT)
			v /= 2;		/* counted in sectors, shown in KiB */
		fn(ctx, vm_event_names[i], (int64_t)v);
	}
	fn(ctx, "nr_unstable", 0);	/* the kernel's deprecated trailing line */
	if (with_sim)
		for (int i = 0; i < NR_SIM_STAT_ITEMS; i++)
			fn(ctx, sim_stat_names[i], (int64_t)m->sim_stat[i]);
}

static void print_counter(void *ctx, const char *name, int64_t value)
{
	fprintf((FILE *)ctx, "%s %" PRId64 "\n", name, value);
}

void mm_show_vmstat(const struct machine *m, FILE *out)
{
	vmstat_walk(m, print_counter, out, true);
}

void mm_vmstat_snapshot(const struct machine *m, mm_counter_fn fn, void *ctx)
{
	vmstat_walk(m, fn, ctx, true);
}

/* ---- /proc/buddyinfo ---------------------------------------------------------------- */

/* frag_show_print() (6.12) */
void mm_show_buddyinfo(const struct machine *m, FILE *out)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &m->node.node_zones[z];

		if (!populated_zone(zone))
			continue;
		fprintf(out, "Node %d, zone %8s ", m->node.node_id, zone->name);
		for (int order = 0; order < NR_PAGE_ORDERS; order++)
			fprintf(out, "%6lu ", zone->free_area[order].nr_free);
		fputc('\n', out);
	}
}

/* ---- /proc/pagetypeinfo --------------------------------------------------------------- */

/* pagetypeinfo_show() (6.12): the kernel walks each list and stops
 * counting at 100000 (printed ">100000"); the model keeps list lengths
 * and prints the same. */
void mm_show_pagetypeinfo(const struct machine *m, FILE *out)
{
	const pg_data_t *pgdat = &m->node;

	fprintf(out, "Page block order: %d\n", pageblock_order);
	fprintf(out, "Pages per block:  %lu\n", (unsigned long)pageblock_nr_pages);
	fputc('\n', out);

	fprintf(out, "%-43s ", "Free pages count per migrate type at order");
	for (int order = 0; order < NR_PAGE_ORDERS; order++)
		fprintf(out, "%6d ", order);
	fputc('\n', out);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			fprintf(out, "Node %4d, zone %8s, type %12s ", pgdat->node_id, zone->name,
				migratetype_names[mt]);
			for (int order = 0; order < NR_PAGE_ORDERS; order++) {
				unsigned long n = zone->free_area[order].nr_free_mt[mt];
				bool overflow = n >= 100000;

				fprintf(out, "%s%6lu ", overflow ? ">" : "", overflow ? 100000UL : n);
			}
			fputc('\n', out);
		}
	}

	fprintf(out, "\n%-23s", "Number of blocks type ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		fprintf(out, "%12s ", migratetype_names[mt]);
	fputc('\n', out);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		fprintf(out, "Node %d, zone %8s ", pgdat->node_id, zone->name);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			fprintf(out, "%12lu ", zone->nr_pageblocks[mt]);
		fputc('\n', out);
	}
}

/* ---- /proc/zoneinfo ------------------------------------------------------------------- */

/* zoneinfo_show_print() (6.12, with the 6.18 pageset lines high_min/high_max). */
static void zoneinfo_show_print(const struct machine *m, const struct zone *zone, bool first_populated,
				FILE *out)
{
	const pg_data_t *pgdat = &m->node;

	fprintf(out, "Node %d, zone %8s", pgdat->node_id, zone->name);
	if (first_populated) {
		fprintf(out, "\n  per-node stats");
		for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
			unsigned long pages = node_page_state_pages(pgdat, (enum node_stat_item)i);

			if (vmstat_item_print_in_thp((enum node_stat_item)i))
				pages /= HPAGE_PMD_NR;
			fprintf(out, "\n      %-12s %lu", node_stat_names[i], pages);
		}
	}
	fprintf(out,
		"\n  pages free     %lu"
		"\n        boost    %lu"
		"\n        min      %lu"
		"\n        low      %lu"
		"\n        high     %lu"
		"\n        promo    %lu"
		"\n        spanned  %lu"
		"\n        present  %lu"
		"\n        managed  %lu"
		"\n        cma      %lu",
		zone_page_state(zone, NR_FREE_PAGES), zone->watermark_boost,
		min_wmark_pages(zone), low_wmark_pages(zone), high_wmark_pages(zone),
		promo_wmark_pages(zone), zone->spanned_pages, zone->present_pages,
		zone_managed_pages(zone), 0UL);
	fprintf(out, "\n        protection: (%ld", zone->lowmem_reserve[0]);
	for (int i = 1; i < MAX_NR_ZONES; i++)
		fprintf(out, ", %ld", zone->lowmem_reserve[i]);
	fputc(')', out);

	if (!populated_zone(zone)) {
		fputc('\n', out);
		return;
	}
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		fprintf(out, "\n      %-12s %lu", zone_stat_names[i],
			zone_page_state(zone, (enum zone_stat_item)i));
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
		fprintf(out, "\n      %-12s %lu", numa_stat_names[i],
			zone_numa_event_state(zone, (enum numa_stat_item)i));

	fprintf(out, "\n  pagesets");
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

		fprintf(out,
			"\n    cpu: %u"
			"\n              count:    %d"
			"\n              high:     %d"
			"\n              batch:    %d"
			"\n              high_min: %d"
			"\n              high_max: %d",
			cpu, pcp->count, pcp->high, pcp->batch, pcp->high_min, pcp->high_max);
		fprintf(out, "\n  vm stats threshold: %d", zone->per_cpu_zonestats[cpu].stat_threshold);
	}
	fprintf(out,
		"\n  node_unreclaimable:  %u"
		"\n  start_pfn:           %lu",
		pgdat->kswapd_failures >= 16 ? 1u : 0u, zone->zone_start_pfn);
	fputc('\n', out);
}

void mm_show_zoneinfo(const struct machine *m, FILE *out)
{
	bool seen_populated = false;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &m->node.node_zones[z];
		bool first = populated_zone(zone) && !seen_populated;

		if (first)
			seen_populated = true;
		zoneinfo_show_print(m, zone, first, out);
	}
}

/* ---- /proc/meminfo ---------------------------------------------------------------------- */

/* si_mem_available() (mm/show_mem.c, 6.12). */
static long si_mem_available(const struct machine *m)
{
	unsigned long wmark_low = 0, pagecache, reclaimable;
	long available;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		wmark_low += low_wmark_pages(&m->node.node_zones[z]);
	available = (long)global_zone_page_state(m, NR_FREE_PAGES) - (long)m->totalreserve_pages;
	pagecache = global_node_page_state(m, NR_ACTIVE_FILE) + global_node_page_state(m, NR_INACTIVE_FILE);
	pagecache -= pagecache / 2 < wmark_low ? pagecache / 2 : wmark_low;
	available += (long)pagecache;
	reclaimable = global_node_page_state_pages(m, NR_SLAB_RECLAIMABLE_B) +
		      global_node_page_state(m, NR_KERNEL_MISC_RECLAIMABLE);
	reclaimable -= reclaimable / 2 < wmark_low ? reclaimable / 2 : wmark_low;
	available += (long)reclaimable;
	return available < 0 ? 0 : available;
}

static void show_val_kb(FILE *out, const char *label, unsigned long pages)
{
	fprintf(out, "%s%8lu kB\n", label, pages << (PAGE_SHIFT - 10));
}

/*
 * meminfo_proc_show() (fs/proc/meminfo.c, 6.18 lines).  Values the model
 * does not have (swap, vmalloc, percpu, commit accounting, buffers,
 * x86 direct map) print as 0; HugePages_* and Hugetlb come from the
 * hugetlb pool (hugetlb_report_meminfo; no reservations or surplus pages
 * are modelled, so Rsvd and Surp are 0).
 */
void mm_show_meminfo(const struct machine *m, FILE *out)
{
	unsigned long totalram = m->totalram_pages;
	unsigned long file = global_node_page_state(m, NR_FILE_PAGES);
	unsigned long swapcache = global_node_page_state(m, NR_SWAPCACHE);
	unsigned long cached = file > swapcache ? file - swapcache : 0;
	unsigned long act_anon = global_node_page_state(m, NR_ACTIVE_ANON);
	unsigned long inact_anon = global_node_page_state(m, NR_INACTIVE_ANON);
	unsigned long act_file = global_node_page_state(m, NR_ACTIVE_FILE);
	unsigned long inact_file = global_node_page_state(m, NR_INACTIVE_FILE);
	unsigned long sreclaimable = global_node_page_state_pages(m, NR_SLAB_RECLAIMABLE_B);
	unsigned long sunreclaim = global_node_page_state_pages(m, NR_SLAB_UNRECLAIMABLE_B);

	show_val_kb(out, "MemTotal:       ", totalram);
	show_val_kb(out, "MemFree:        ", global_zone_page_state(m, NR_FREE_PAGES));
	show_val_kb(out, "MemAvailable:   ", (unsigned long)si_mem_available(m));
	show_val_kb(out, "Buffers:        ", 0);
	show_val_kb(out, "Cached:         ", cached);
	show_val_kb(out, "SwapCached:     ", swapcache);
	show_val_kb(out, "Active:         ", act_anon + act_file);
	show_val_kb(out, "Inactive:       ", inact_anon + inact_file);
	show_val_kb(out, "Active(anon):   ", act_anon);
	show_val_kb(out, "Inactive(anon): ", inact_anon);
	show_val_kb(out, "Active(file):   ", act_file);
	show_val_kb(out, "Inactive(file): ", inact_file);
	show_val_kb(out, "Unevictable:    ", global_node_page_state(m, NR_UNEVICTABLE));
	show_val_kb(out, "Mlocked:        ", global_zone_page_state(m, NR_MLOCK));
	show_val_kb(out, "SwapTotal:      ", 0);
	show_val_kb(out, "SwapFree:       ", 0);
	show_val_kb(out, "Zswap:          ", 0);
	show_val_kb(out, "Zswapped:       ", 0);
	show_val_kb(out, "Dirty:          ", global_node_page_state(m, NR_FILE_DIRTY));
	show_val_kb(out, "Writeback:      ", global_node_page_state(m, NR_WRITEBACK));
	show_val_kb(out, "AnonPages:      ", global_node_page_state(m, NR_ANON_MAPPED));
	show_val_kb(out, "Mapped:         ", global_node_page_state(m, NR_FILE_MAPPED));
	show_val_kb(out, "Shmem:          ", global_node_page_state(m, NR_SHMEM));
	show_val_kb(out, "KReclaimable:   ",
		    sreclaimable + global_node_page_state(m, NR_KERNEL_MISC_RECLAIMABLE));
	show_val_kb(out, "Slab:           ", sreclaimable + sunreclaim);
	show_val_kb(out, "SReclaimable:   ", sreclaimable);
	show_val_kb(out, "SUnreclaim:     ", sunreclaim);
	fprintf(out, "KernelStack:    %8lu kB\n", global_node_page_state(m, NR_KERNEL_STACK_KB));
	show_val_kb(out, "PageTables:     ", global_node_page_state(m, NR_PAGETABLE));
	show_val_kb(out, "SecPageTables:  ", global_node_page_state(m, NR_SECONDARY_PAGETABLE));
	show_val_kb(out, "NFS_Unstable:   ", 0);
	show_val_kb(out, "Bounce:         ", 0);
	show_val_kb(out, "WritebackTmp:   ", 0);
	show_val_kb(out, "CommitLimit:    ", totalram / 2);	/* overcommit_ratio 50, no swap */
	show_val_kb(out, "Committed_AS:   ", 0);
	fprintf(out, "VmallocTotal:   %8lu kB\n", 0UL);
	show_val_kb(out, "VmallocUsed:    ", 0);
	show_val_kb(out, "VmallocChunk:   ", 0);
	show_val_kb(out, "Percpu:         ", 0);
	show_val_kb(out, "AnonHugePages:  ", global_node_page_state(m, NR_ANON_THPS));
	show_val_kb(out, "ShmemHugePages: ", global_node_page_state(m, NR_SHMEM_THPS));
	show_val_kb(out, "ShmemPmdMapped: ", global_node_page_state(m, NR_SHMEM_PMDMAPPED));
	show_val_kb(out, "FileHugePages:  ", global_node_page_state(m, NR_FILE_THPS));
	show_val_kb(out, "FilePmdMapped:  ", global_node_page_state(m, NR_FILE_PMDMAPPED));
	show_val_kb(out, "Balloon:        ", global_node_page_state(m, NR_BALLOON_PAGES));
	fprintf(out, "HugePages_Total:   %5lu\n", hugetlb_pool_pages(m));
	fprintf(out, "HugePages_Free:    %5lu\n", hugetlb_free_pages(m));
	fprintf(out, "HugePages_Rsvd:    %5lu\n", 0UL);
	fprintf(out, "HugePages_Surp:    %5lu\n", 0UL);
	fprintf(out, "Hugepagesize:   %8lu kB\n", (unsigned long)HPAGE_PMD_NR << (PAGE_SHIFT - 10));
	show_val_kb(out, "Hugetlb:        ", hugetlb_pool_pages(m) * HPAGE_PMD_NR);
	show_val_kb(out, "DirectMap4k:    ", 0);
	show_val_kb(out, "DirectMap2M:    ", 0);
	show_val_kb(out, "DirectMap1G:    ", 0);
}
