/* SPDX-License-Identifier: MIT */
/*
 * sections.c — slowpath's scenario schema (docs/scenario-format.md lists
 * every section and key; `slowpath check` prints them with values).
 *
 * Option tables for the sections the CLI owns ([global], [policy],
 * [device NAME], [costs]) live here; [machine] and [sysctl] use the mm
 * model's tables, workload sections their workload's table.  The
 * --scale 1/N hooks for machine, sysctl and devices are here too: a scaled
 * scenario has 1/N of the memory, CPUs, hugetlb pool and device
 * throughput, and the workloads scale their own task counts and sizes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/initial_state.h"
#include "cli/sections.h"
#include "mm/machine.h"
#include "mm/policy.h"
#include "mm/sysctl.h"
#include "sim/bdev.h"
#include "sim/cost.h"
#include "sim/xalloc.h"
#include "workload/workload.h"

#define SEC	SIM_NSEC_PER_SEC
#define USEC	SIM_NSEC_PER_USEC

/* ---- [global] -------------------------------------------------------------- */

static const char *const fault_model_names[] = { "exact", "drawn", NULL };

#define G(f) offsetof(struct scn_global, f)
const struct opt_def scn_global_options[] = {
	{ .key = "seed", .type = OPT_UINT, .offset = G(seed), .def = "1",
	  .help = "scenario seed: every random stream derives from (seed, stream name), as fio's randseed" },
	{ .key = "duration", .type = OPT_TIME, .offset = G(duration), .def = "60",
	  .min = SIM_NSEC_PER_MSEC, .time_unit = SEC,
	  .help = "virtual time to simulate; bare numbers are seconds (fio's runtime)" },
	{ .key = "ramp_time", .type = OPT_TIME, .offset = G(ramp_time), .def = "0",
	  .time_unit = SEC,
	  .help = "warm-up: vmstat deltas, TPS, latency and profile.json count only after it (fio's ramp_time)" },
	{ .key = "sample_interval", .type = OPT_TIME, .offset = G(sample_interval), .def = "1",
	  .min = SIM_NSEC_PER_MSEC, .time_unit = SEC,
	  .help = "period of the /proc monitors (mmtests' MONITOR_UPDATE_FREQUENCY)" },
	{ .key = "tps_interval", .type = OPT_TIME, .offset = G(tps_interval), .def = "1",
	  .min = SIM_NSEC_PER_MSEC, .time_unit = SEC,
	  .help = "step of the tps.csv time series (pgbench --aggregate-interval)" },
	{ .key = "description", .type = OPT_STRING, .offset = G(description),
	  .help = "free text describing the scenario" },
	{ .key = "applied_scale", .type = OPT_UINT, .offset = G(applied_scale), .def = "1",
	  .min = 1, .max = UINT32_MAX,
	  .help = "N of a --scale 1/N already applied to this file's values (a result folder's "
		  "scenario.ini says so); result.json reports scale 1/(N x --scale)" },
	{ .key = "fault_model", .type = OPT_ENUM, .offset = G(fault_model), .def = "exact",
	  .enum_names = fault_model_names,
	  .help = "exact = every process keeps a present bit per page of a large shared mapping; "
		  "drawn = it keeps, per 2 MiB region, its PTE table, a count and one bit per 64 KiB "
		  "chunk it faulted in, and whether it maps a touched page of a chunk it holds is drawn "
		  "from the page's map count against the chunk's holders (an approximation for "
		  "full-scale memory, docs/engine.md \"Drawn faults\")" },
	OPT_END
};

/* --scale 1/n: the values shrink in their own sections; [global] counts. */
static int global_scale(const struct scn_section_type *t, void *config, unsigned int n,
			char *err, size_t errlen)
{
	struct scn_global *g = config;

	(void)t;
	if (g->applied_scale > UINT32_MAX / n) {
		snprintf(err, errlen, "applied_scale x N is above %u", UINT32_MAX);
		return -1;
	}
	g->applied_scale *= n;
	return 0;
}

static int global_validate(const struct scn_section_type *t, const char *name, const void *config,
			   const char **bad_key, char *err, size_t errlen)
{
	const struct scn_global *g = config;
	char a[40], b[40];

	(void)t;
	(void)name;
	if (g->ramp_time >= g->duration) {
		opt_format_value(opt_find(scn_global_options, "ramp_time"), g, a, sizeof(a));
		opt_format_value(opt_find(scn_global_options, "duration"), g, b, sizeof(b));
		*bad_key = "ramp_time";
		snprintf(err, errlen, "ramp_time (%s) must be shorter than duration (%s)", a, b);
		return -1;
	}
	return 0;
}

/* ---- [policy] ---------------------------------------------------------------- */

/* order of enum kernel_gen */
static const char *const kernel_names[] = { "6.12", "6.6", "2026", NULL };

#define P(f) offsetof(struct scn_policy, f)
#define SWITCH_ROW(f, type, names, help) { #f, type, P(sw.f), NULL, 0, 0, names, 0, help },
const struct opt_def scn_policy_options[] = {
	{ .key = "preset", .type = OPT_STRING, .offset = P(preset), .def = "baseline",
	  .help = "named policy: a preset of the switch keys below, each of which this section may "
		  "set itself (`slowpath policies` lists them; --policy NAME sets this key)" },
	{ .key = "kernel", .type = OPT_ENUM, .offset = P(sw.kernel), .def = "6.12",
	  .enum_names = kernel_names,
	  .help = "kernel generation the policy is applied to: 6.12 (Linux 6.12.117), 6.6 (filemap "
		  "skips order 1, NORETRY above order 0) or 2026 (mid-2026 mm tree slow-path flow, "
		  "docs/slowpath.md)" },
	{ .key = "noretry_bail_2026", .type = OPT_BOOL, .offset = P(sw.k2026_noretry_bail), .def = "0",
	  .help = "kernel=2026 only: keep 6.12's early failure of a costly __GFP_NORETRY request whose "
		  "first compaction was skipped or deferred (not confirmed against upstream; "
		  "docs/slowpath.md)" },
	MM_POLICY_SWITCHES(SWITCH_ROW)
	OPT_END
};
#undef SWITCH_ROW

static int policy_validate(const struct scn_section_type *t, const char *name, const void *config,
			   const char **bad_key, char *err, size_t errlen)
{
	const struct scn_policy *p = config;

	(void)t;
	(void)name;
	if (!p->preset || !mm_policy_find(p->preset)) {
		*bad_key = "preset";
		snprintf(err, errlen, "unknown policy '%s' (`slowpath policies` lists them)",
			 p->preset ? p->preset : "");
		return -1;
	}
	return 0;
}

void scn_policy_resolve(struct scenario *s)
{
	const struct scn_instance *in = scn_find(s, "policy", NULL);
	struct scn_policy *p = in->config;
	const struct mm_policy *preset = p->preset ? mm_policy_find(p->preset) : NULL;
	size_t len;

	if (!preset)
		return;		/* policy_validate reports it with its place */
	len = (size_t)snprintf(p->label, sizeof(p->label), "%s", preset->name);
	for (const struct opt_def *o = scn_policy_options; o->key; o++) {
		const struct scn_origin *at = &in->key_origin[o - scn_policy_options];
		char value[64];

		if (!mm_policy_is_switch(o->key))
			continue;
		if (!at->file)		/* not set by the scenario or --set */
			mm_policy_copy_switch(&p->sw, preset, o->key);
		if (mm_policy_same_switch(&p->sw, preset, o->key))
			continue;
		opt_format_value(o, p, value, sizeof(value));
		if (len < sizeof(p->label))
			len += (size_t)snprintf(p->label + len, sizeof(p->label) - len, "+%s=%s", o->key, value);
	}
	p->sw.name = p->label;
	p->sw.spec = preset->spec;
	p->sw.summary = preset->summary;
}

/* ---- [kernel] ------------------------------------------------------------------ */

/* order of enum sim_preempt */
static const char *const preempt_names[] = { "slice", "none", "voluntary", "full", "lazy", NULL };
static const char *const rwsem_names[] = { "fifo", "steal", NULL };

#define K(f) offsetof(struct scn_kernel, f)
static const struct opt_def scn_kernel_options[] = {
	{ .key = "preempt", .type = OPT_ENUM, .offset = K(preempt), .def = "slice",
	  .enum_names = preempt_names,
	  .help = "preemption model: none, voluntary, full or lazy (CONFIG_PREEMPT_*, preempt= with "
		  "PREEMPT_DYNAMIC) on an EEVDF run queue with a tick every 1/hz ([machine] hz); "
		  "slice = the model's original FIFO queues, preempting at the first sync point after a "
		  "3 ms slice" },
	{ .key = "slab", .type = OPT_BOOL, .offset = K(slab), .def = "off",
	  .help = "the slab allocator model (mm/slub.c 6.12, docs/slab.md): kmalloc and named caches "
		  "fed by fork/exit (task_struct, mm_struct, vm_area_struct, ...), file creation "
		  "(dentry, xfs_inode) and the loopback TCP client (sock, skbs, order-3 page frags); "
		  "/proc/slabinfo in the result folder, nr_slab_* in vmstat.  off = no slab pages at all" },
	{ .key = "lru_gen", .type = OPT_BOOL, .offset = K(lru_gen), .def = "on",
	  .help = "the multi-gen LRU (mm/vmscan.c CONFIG_LRU_GEN 6.12, docs/mm.md \"MGLRU\"): "
		  "generations, aging, eviction from the oldest; on = a kernel built with "
		  "CONFIG_LRU_GEN_ENABLED=y (/sys/kernel/mm/lru_gen/enabled 0x0007, Debian's 6.12); "
		  "off = the classic active/inactive LRU.  [sysctl] /sys/kernel/mm/lru_gen/min_ttl_ms "
		  "is its one tunable" },
	{ .key = "rwsem", .type = OPT_ENUM, .offset = K(rwsem), .def = "steal",
	  .enum_names = rwsem_names,
	  .help = "reader-writer semaphores (an inode's i_rwsem): steal = as kernel/locking/rwsem.c "
		  "(6.12): a release wakes a waiting writer without granting, whoever runs first takes "
		  "the lock, and only a writer that waited RWSEM_WAIT_TIMEOUT (4 ms) gets it handed "
		  "off; fifo = the model's original direct hand-off to the first waiter at the release "
		  "(docs/engine.md \"Locks and wait queues\")" },
	{ .key = "migration_cost", .type = OPT_TIME, .offset = K(migration_cost), .def = "500us",
	  .max = 1000000000, .time_unit = 1,
	  .help = "sysctl_sched_migration_cost (debugfs sched/migration_cost_ns; kernel/sched/fair.c "
		  "6.12, 500 us): a task that left its CPU less than this ago is cache-hot "
		  "(task_hot), and a CPU going idle does not pull it from another CPU's run queue; "
		  "0 = no task is hot.  Only the kernel's preemption models use it (not slice)" },
	{ .key = "periodic_balance", .type = OPT_BOOL, .offset = K(periodic_balance), .def = "on",
	  .help = "periodic and nohz-idle load balancing (sched_balance_domains, nohz_balancer_kick; "
		  "kernel/sched/fair.c 6.12): a busy CPU balances at its tick every n x 16 ms, an "
		  "idle one every n ms when a busy CPU with two runnable tasks kicks it (n = cpus); "
		  "a cache-hot task moves after two failed attempts (docs/engine.md \"Scheduler\"); "
		  "off = only newidle pulls move queued tasks.  Only the kernel's preemption models "
		  "use it (not slice)" },
	{ .key = "run_to_parity", .type = OPT_BOOL, .offset = K(run_to_parity), .def = "on",
	  .help = "the scheduler feature RUN_TO_PARITY (debugfs sched/features; kernel/sched/fair.c "
		  "6.12, on by default): a task keeps its CPU against wake-ups until its slice's "
		  "deadline while it is eligible; off = a woken task with an earlier deadline "
		  "preempts it at once.  Only the kernel's preemption models use it (not slice)" },
	{ .key = "delay_dequeue", .type = OPT_BOOL, .offset = K(delay_dequeue), .def = "on",
	  .help = "the scheduler features DELAY_DEQUEUE and DELAY_ZERO (debugfs sched/features; "
		  "kernel/sched/fair.c 6.12, on by default there): a task that sleeps while not "
		  "eligible stays in its CPU's queue until EEVDF picks it, and a wake-up before then "
		  "leaves it queued on that CPU with no CPU selection (ttwu_runnable); off = a "
		  "sleeping task leaves the queue at once, keeping its lag.  Only the kernel's "
		  "preemption models use it (not slice)" },
	OPT_END
};

/* ---- [costs] ------------------------------------------------------------------- */

const struct opt_def scn_cost_options[] = {
#define COST(id, unit_, default_, source_) \
	{ .key = #id, .type = OPT_COST, .offset = offsetof(struct cost_table, ps[COST_##id]), \
	  .def = #default_, .help = unit_ },
#include "sim/costs.def"
#undef COST
	OPT_END
};

/* Keys of [policy] that were renamed when every switch became a key: a
 * scenario.ini written before says so at the line that sets them. */
static const struct scn_moved_key policy_moved[] = {
	{ "name", "it is [policy] preset (the named policy is a preset of the switch keys)" },
	{ NULL, NULL }
};

/* Keys that left [costs]: the timer tick is configuration, not a CPU cost. */
static const struct scn_moved_key costs_moved[] = {
	{ "jiffy", "the timer tick is not a cost: it is [machine] hz (CONFIG_HZ), "
		   "hz=250 for jiffy=4000000" },
	{ NULL, NULL }
};

/* ---- [device NAME] ------------------------------------------------------------- */

#define D(f) offsetof(struct bdev_config, f)
static const char *const completion_names[] = { "kthread", "irq", NULL };
static const char *const fs_names[] = { "xfs", "ext4-nojournal", NULL };	/* enum bdev_fs */
static const char *const write_cache_names[] = { "write back", "write through", NULL };

const struct opt_def scn_device_options[] = {
	{ .key = "iops", .type = OPT_UINT, .offset = D(iops), .def = "0",
	  .help = "I/O operations per second per member, 0 = unlimited (io2: up to 256000 per volume, "
		  "AWS EBS documentation)" },
	{ .key = "bandwidth", .type = OPT_SIZE, .offset = D(bandwidth), .def = "0",
	  .help = "bytes per second per member, 0 = unlimited (io2: 4000m per volume)" },
	{ .key = "lat_mean", .type = OPT_TIME, .offset = D(lat_mean_ns), .def = "500us",
	  .time_unit = USEC,
	  .help = "mean service latency per request; bare numbers are us (io2: under 500 us for 16 KiB, "
		  "AWS EBS documentation)" },
	{ .key = "lat_p99", .type = OPT_TIME, .offset = D(lat_p99_ns), .def = "800us",
	  .time_unit = USEC,
	  .help = "99th-percentile service latency (lognormal fit), 0 = constant latency (io2: few I/Os "
		  "above 800 us)" },
	{ .key = "flush", .type = OPT_TIME, .offset = D(flush_ns), .def = "500us",
	  .time_unit = USEC,
	  .help = "latency of a cache flush (fsync/fdatasync); without a volatile write cache about one "
		  "write round trip, 0.3-0.6 ms" },
	{ .key = "members", .type = OPT_U32, .offset = D(members), .def = "1",
	  .min = 1, .max = 1024,
	  .help = "RAID0 members; 1 = a plain device" },
	{ .key = "chunk", .type = OPT_SIZE, .offset = D(chunk_bytes), .def = "512k",
	  .min = 4096, .max = 1ULL << 30,
	  .help = "RAID0 chunk size (mdadm's default 512 KiB)" },
	{ .key = "io_unit", .type = OPT_SIZE, .offset = D(io_unit_bytes), .def = "0",
	  .help = "IOPS accounting unit, 0 = one per request (io2 counts I/Os above 256 KiB in "
		  "256-KiB units)" },
	{ .key = "size", .type = OPT_SIZE, .offset = D(size_bytes), .def = "1t",
	  .min = 1ULL << 20,
	  .help = "capacity" },
	{ .key = "total_iops", .type = OPT_UINT, .offset = D(total_iops), .def = "0",
	  .help = "whole-device cap in I/O units per second before striping, 0 = none (an instance's "
		  "EBS IOPS cap)" },
	{ .key = "total_bandwidth", .type = OPT_SIZE, .offset = D(total_bandwidth), .def = "0",
	  .help = "whole-device cap in bytes per second, 0 = none (m8g.24xlarge EBS: 3.75 GB/s, "
		  "AWS instance-type documentation)" },
	{ .key = "write_cache", .type = OPT_ENUM, .offset = D(write_cache), .def = "write back",
	  .enum_names = write_cache_names,
	  .help = "as /sys/block/DEV/queue/write_cache: 'write back' = a volatile cache, each member "
		  "runs one flush command of `flush` at a time and a flush arriving while one runs waits "
		  "for the next (block/blk-flush.c), writes in flight are not waited for; 'write through' "
		  "= none, a flush completes at submission (submit_bio_noacct strips REQ_PREFLUSH; "
		  "EBS/Nitro NVMe volumes)" },
	{ .key = "nr_requests", .type = OPT_U32, .offset = D(nr_requests), .def = "0",
	  .max = 1u << 16,
	  .help = "requests in flight per member, as each member's blk-mq tags (queue/nr_requests; "
		  "md raid0 itself has none); 0 = one pool of 128 for the whole device (BLKDEV_DEFAULT_RQ)" },
	{ .key = "wbt_lat", .type = OPT_TIME, .offset = D(wbt_lat_ns), .def = "0",
	  .time_unit = USEC,
	  .help = "writeback throttling's latency target (queue/wbt_lat_usec; block/blk-wbt.c): buffered "
		  "writes wait for an in-flight token, background writeback a quarter of a depth scaled "
		  "every 100 ms from read latency; 0 = off; the kernel's default is 2000 us for "
		  "non-rotational and 75000 us for rotational devices" },
	{ .key = "completion", .type = OPT_ENUM, .offset = D(completion), .def = "kthread",
	  .enum_names = completion_names,
	  .help = "where writeback completions run: kthread = one completion thread per device (XFS "
		  "sends appending and unwritten ioends to a workqueue), irq = hard-interrupt context on "
		  "the submitting CPU (iomap_finish_ioends from bio_endio for overwrites, blk-mq)" },
	{ .key = "fs", .type = OPT_ENUM, .offset = D(fs), .def = "xfs", .enum_names = fs_names,
	  .help = "the filesystem on the device, where its fsync differs: xfs (xfs_file_fsync: the data, "
		  "a log force when logged inode changes are pending, a cache flush) or ext4-nojournal "
		  "(ext4_fsync_nojournal: the data, sync_inode_metadata, which takes the inode off the "
		  "flusher's expiry clock, the inode table block written synchronously, a cache flush)" },
	OPT_END
};

/* The engine's own check (bdev_config_check) decides; the common mistake
 * is blamed on its key first. */
static int device_validate(const struct scn_section_type *t, const char *name, const void *config,
			   const char **bad_key, char *err, size_t errlen)
{
	struct bdev_config d = *(const struct bdev_config *)config;

	(void)t;
	if (d.lat_p99_ns && d.lat_p99_ns < d.lat_mean_ns) {
		*bad_key = "lat_p99";
		snprintf(err, errlen, "lat_p99 must be 0 (constant latency) or at least lat_mean");
		return -1;
	}
	d.name = name;
	return bdev_config_check(&d, err, errlen);
}

/*
 * --scale 1/n: total throughput shrinks n-fold.  Members shrink first
 * (12 volumes at 1/4 become 3); what the member count cannot absorb
 * (12 at 1/8: 1 member, 1.5x too many) is taken off the per-member
 * IOPS and bandwidth.  Latencies do not scale.
 */
static int device_scale(const struct scn_section_type *t, void *config, unsigned int n,
			char *err, size_t errlen)
{
	struct bdev_config *d = config;
	uint64_t members = d->members / n ? d->members / n : 1;
	uint64_t den = (uint64_t)n * members;

	(void)t;
	if (d->iops) {
		d->iops = d->iops * d->members / den;
		if (!d->iops) {
			snprintf(err, errlen, "iops would become 0");
			return -1;
		}
	}
	if (d->bandwidth) {
		d->bandwidth = d->bandwidth * d->members / den;
		if (!d->bandwidth) {
			snprintf(err, errlen, "bandwidth would become 0");
			return -1;
		}
	}
	d->members = (uint32_t)members;
	if ((d->total_iops && d->total_iops < n) || (d->total_bandwidth && d->total_bandwidth < n)) {
		snprintf(err, errlen, "total_iops or total_bandwidth would become 0");
		return -1;
	}
	d->total_iops /= n;
	d->total_bandwidth /= n;
	d->size_bytes = d->size_bytes / n >= (1ULL << 20) ? d->size_bytes / n : 1ULL << 20;
	return 0;
}

/* ---- [machine] ---------------------------------------------------------------------- */

#define FOUR_MIB	(4ULL << 20)

/* One "name:size" zone size scaled down to a multiple of 4 MiB; "rest" stays. */
static int scale_zone_size(const char *text, unsigned int n, char *out, size_t outlen,
			   char *err, size_t errlen)
{
	static const struct opt_def size_opt = { .key = "zones", .type = OPT_SIZE, .help = "" };
	uint64_t v = 0;

	if (strcmp(text, "rest") == 0) {
		snprintf(out, outlen, "rest");
		return 0;
	}
	if (opt_parse_value(&size_opt, &v, text, err, errlen))
		return -1;
	v = v / n / FOUR_MIB * FOUR_MIB;
	opt_format_value(&size_opt, &v, out, outlen);
	return 0;
}

/*
 * --scale 1/n: memory, zone sizes and reserved memory shrink n-fold
 * (rounded down to 4 MiB, the largest buddy block), CPUs and the CPUs per
 * last-level cache too (at least 1).
 * Zone names and "rest" are kept; machine_create checks the result.
 */
static int machine_scale(const struct scn_section_type *t, void *config, unsigned int n,
			 char *err, size_t errlen)
{
	struct machine_config *mc = config;
	char *zones = NULL, *copy, *save = NULL;
	size_t len = 0;
	FILE *f;

	(void)t;
	if (mc->memory / n < FOUR_MIB) {
		snprintf(err, errlen, "memory would be less than 4m");
		return -1;
	}
	mc->memory = mc->memory / n / FOUR_MIB * FOUR_MIB;
	mc->reserved = mc->reserved / n / FOUR_MIB * FOUR_MIB;
	mc->cpus = mc->cpus / n ? mc->cpus / n : 1;
	if (mc->llc_cpus)	/* the same number of caches, each shared by fewer CPUs */
		mc->llc_cpus = mc->llc_cpus / n ? mc->llc_cpus / n : 1;
	if (!mc->zones || !mc->zones[0])
		return 0;
	copy = strdup(mc->zones);
	f = open_memstream(&zones, &len);
	if (!copy || !f)
		SIM_BUG("out of memory");
	for (char *z = strtok_r(copy, ",", &save); z; z = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(z, ':');
		char size[40];

		if (!colon || scale_zone_size(colon + 1, n, size, sizeof(size), err, errlen)) {
			if (!colon)
				snprintf(err, errlen, "cannot scale zones '%s': '%s' is not name:size",
					 mc->zones, z);
			fclose(f);
			free(zones);
			free(copy);
			return -1;
		}
		*colon = '\0';
		fprintf(f, "%s%s:%s", ftell(f) ? "," : "", z, size);
	}
	fclose(f);
	free(copy);
	free(mc->zones);
	mc->zones = zones;
	return 0;
}

/* ---- [sysctl] ---------------------------------------------------------------------- */

/* --scale 1/n: the hugetlb pool and an explicit min_free_kbytes are sizes
 * of memory and shrink with it (0 = computed from memory stays 0). */
static int sysctl_scale(const struct scn_section_type *t, void *config, unsigned int n,
			char *err, size_t errlen)
{
	struct vm_sysctl *v = config;

	(void)t;
	(void)err;
	(void)errlen;
	v->nr_hugepages /= n;
	if (v->min_free_kbytes) {
		v->min_free_kbytes /= n;
		if (v->min_free_kbytes < 128)	/* the kernel's lower clamp */
			v->min_free_kbytes = 128;
	}
	return 0;
}

/* ---- workloads ------------------------------------------------------------------------ */

static int workload_validate(const struct scn_section_type *t, const char *name, const void *config,
			     const char **bad_key, char *err, size_t errlen)
{
	const struct workload_type *wt = t->data;

	(void)name;
	(void)bad_key;
	return wt->validate ? wt->validate(config, err, errlen) : 0;
}

static int workload_scale(const struct scn_section_type *t, void *config, unsigned int n,
			  char *err, size_t errlen)
{
	const struct workload_type *wt = t->data;

	return wt->scale ? wt->scale(config, n, err, errlen) : 0;
}

/* The workload keys that name a [device NAME] section. */
static const char *const device_keys[] = { "device", "filename", "cache_device", NULL };

static const struct bdev_config *find_device(const void *ctx, const char *name)
{
	return name && name[0] ? scn_config(ctx, "device", name) : NULL;
}

/* "place: [kind NAME]: msg", or "key place: msg" when a key is blamed. */
static int section_error(const struct scenario *s, const struct scn_instance *in, const char *bad_key,
			 const char *msg, char *err, size_t errlen)
{
	char place[300], label[160];

	place[0] = '\0';
	if (bad_key)
		scn_key_place(in, bad_key, place, sizeof(place));
	if (place[0]) {
		snprintf(err, errlen, "%s: %s", place, msg);
		return -1;
	}
	scn_section_place(s, in, place, sizeof(place));
	snprintf(label, sizeof(label), in->name[0] ? "[%s %s]" : "[%s]", in->type->kind, in->name);
	snprintf(err, errlen, "%s: %s: %s", place, label, msg);
	return -1;
}

/*
 * Across sections, the one place where `slowpath check` and `slowpath
 * run` decide that a scenario can run (run builds nothing before it):
 *   - [machine] with [sysctl]: zones, reserved, memory (machine_config_check);
 *   - a workload key naming a device names a [device NAME] section;
 *   - each workload's validate_env: its sizes against the devices;
 *   - the tasks against the host's mapping limit (tasks_validate).
 * Only the host memory for the model's bookkeeping is left to run.
 */
/*
 * Tasks against the host: every simulated task has a host stack (two
 * mappings with its guard page, sim/task.c), so a scenario with more tasks
 * than vm.max_map_count allows would die mid-run.  Counted: each
 * workload's tasks, and the kernel threads (a vmstat worker per CPU,
 * kswapd, kcompactd, a flusher and its I/O completion task per device
 * and for the default device).  The workload with the most tasks is blamed.
 */
static int tasks_validate(const struct scenario *s, char *err, size_t errlen)
{
	const struct machine_config *mc = scn_config(s, "machine", NULL);
	const struct scn_instance *worst = NULL;
	const char *worst_key = NULL;
	uint64_t total = 2, most = 0, max_maps, limit;
	char msg[512];

	for (size_t i = 0; i < scn_nr_instances(s); i++) {
		const struct scn_instance *in = scn_instance_at(s, i);
		const struct workload_type *wt = in->type->data;
		const char *key = NULL;
		uint64_t n;

		if (strcmp(in->type->kind, "device") == 0)
			total += 2;
		if (!wt || !wt->nr_tasks)
			continue;
		n = wt->nr_tasks(in->config, &key);
		total += n;
		if (n > most) {
			most = n;
			worst = in;
			worst_key = key;
		}
	}
	total += 2 + (mc ? mc->cpus : 0);
	limit = sim_host_max_tasks(&max_maps);
	if (total <= limit || !worst)
		return 0;
	snprintf(msg, sizeof(msg), "%" PRIu64 " tasks in all (kernel threads included), but this "
		 "host can give at most %" PRIu64 " a stack: each is two mappings with its guard page "
		 "and vm.max_map_count is %" PRIu64 "; lower '%s' or raise vm.max_map_count", total,
		 limit, max_maps, worst_key);
	return section_error(s, worst, worst_key, msg, err, errlen);
}

/*
 * [machine] initial_state=DIR: the snapshot is read and laid out (dry) on
 * the scenario's zones, so check and run refuse the same snapshots.  A
 * problem with DIR itself is placed at the key; one inside a recorded
 * file names that file and line.
 */
static int initial_state_validate(const struct scenario *s, const struct machine_config *mc,
				  const struct vm_sysctl *sysctl, char *err, size_t errlen)
{
	struct mm_initial_state *st = xzalloc(sizeof(*st));
	char msg[1024];
	int rc = scn_initial_state_read(mc->initial_state, st, msg, sizeof(msg));

	if (rc == -2)
		rc = section_error(s, scn_find(s, "machine", NULL), "initial_state", msg, err, errlen);
	else if (rc < 0 || machine_initial_state_check(mc, sysctl, st, NULL, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s", msg);
		rc = -1;
	}
	free(st);
	return rc;
}

static int schema_validate(const struct scenario *s, char *err, size_t errlen)
{
	const struct machine_config *mc = scn_config(s, "machine", NULL);
	const struct vm_sysctl *sysctl = scn_config(s, "sysctl", NULL);
	struct wl_check_env env = { mc, find_device, s };
	char msg[512];

	if (mc && sysctl && machine_config_check(mc, sysctl, msg, sizeof(msg)))
		return section_error(s, scn_find(s, "machine", NULL), NULL, msg, err, errlen);
	if (mc && sysctl && mc->initial_state && mc->initial_state[0] &&
	    initial_state_validate(s, mc, sysctl, err, errlen))
		return -1;
	for (size_t i = 0; i < scn_nr_instances(s); i++) {
		const struct scn_instance *in = scn_instance_at(s, i);
		const struct workload_type *wt = in->type->data;
		const char *bad_key = NULL;

		if (!wt)
			continue;
		for (const char *const *k = device_keys; *k; k++) {
			const struct opt_def *o = opt_find(in->type->options, *k);
			const char *dev;

			if (!o || o->type != OPT_STRING)
				continue;
			dev = *(char *const *)((const char *)in->config + o->offset);
			if (!dev || !dev[0] || scn_find(s, "device", dev))
				continue;
			snprintf(msg, sizeof(msg), "device '%s' does not exist (no [device %s] section)",
				 dev, dev);
			return section_error(s, in, *k, msg, err, errlen);
		}
		if (wt->validate_env && wt->validate_env(in->config, &env, &bad_key, msg, sizeof(msg)))
			return section_error(s, in, bad_key, msg, err, errlen);
	}
	return tasks_validate(s, err, errlen);
}

/* ---- the schema ------------------------------------------------------------------------- */

static const struct scn_section_type builtin_sections[] = {
	{ .kind = "global", .help = "run length, seed, measurement and sampling",
	  .options = scn_global_options, .config_size = sizeof(struct scn_global),
	  .flags = SCN_ALWAYS, .validate = global_validate, .scale = global_scale },
	{ .kind = "machine", .help = "memory, zones, CPUs and the timer tick of the simulated machine",
	  .options = machine_options, .config_size = sizeof(struct machine_config),
	  .flags = SCN_ALWAYS, .scale = machine_scale },
	{ .kind = "sysctl", .help = "kernel tunables under their sysctl/sysfs names",
	  .options = vm_sysctl_options, .config_size = sizeof(struct vm_sysctl),
	  .flags = SCN_ALWAYS, .scale = sysctl_scale },
	{ .kind = "policy", .help = "the allocator policy variant and slow-path flow",
	  .options = scn_policy_options, .config_size = sizeof(struct scn_policy),
	  .flags = SCN_ALWAYS, .validate = policy_validate, .moved = policy_moved },
	{ .kind = "kernel", .help = "the simulated kernel's scheduler (preemption model) and the slab allocator model",
	  .options = scn_kernel_options, .config_size = sizeof(struct scn_kernel),
	  .flags = SCN_ALWAYS },
	{ .kind = "costs", .help = "cost-table overrides, ns per unit (slowpath costs)",
	  .options = scn_cost_options, .config_size = sizeof(struct cost_table),
	  .flags = SCN_ALWAYS, .moved = costs_moved },
	{ .kind = "device", .help = "a block device or RAID0 set: [device NAME]",
	  .options = scn_device_options, .config_size = sizeof(struct bdev_config),
	  .flags = SCN_NAME_REQUIRED | SCN_MULTIPLE, .validate = device_validate,
	  .scale = device_scale },
};

#define NR_BUILTIN (sizeof(builtin_sections) / sizeof(builtin_sections[0]))

struct scn_schema *scn_schema_create(void)
{
	struct scn_schema *schema = calloc(1, sizeof(*schema));
	struct scn_section_type *types;
	size_t nw = 0;

	while (workload_types[nw])
		nw++;
	types = calloc(NR_BUILTIN + nw, sizeof(*types));
	if (!schema || !types)
		SIM_BUG("out of memory");
	memcpy(types, builtin_sections, sizeof(builtin_sections));
	for (size_t i = 0; i < nw; i++) {
		const struct workload_type *wt = workload_types[i];

		types[NR_BUILTIN + i] = (struct scn_section_type){
			.kind = wt->kind, .help = wt->help, .options = wt->options,
			.config_size = wt->config_size,
			.flags = SCN_NAME_ALLOWED | (wt->multiple ? SCN_MULTIPLE : 0),
			.validate = workload_validate, .scale = workload_scale, .data = wt,
		};
	}
	schema->types = types;
	schema->nr_types = NR_BUILTIN + nw;
	schema->validate = schema_validate;
	return schema;
}

void scn_schema_destroy(struct scn_schema *schema)
{
	if (!schema)
		return;
	free((void *)schema->types);
	free(schema);
}
