/* SPDX-License-Identifier: MIT */
/*
 * run.c — `slowpath run`: build the engine, the machine, the devices and
 * the workloads from a scenario, simulate `duration` of virtual time, and
 * write the result folder (docs/results.md).
 *
 * One run, step by step:
 *   1. sim_create (CPUs, seed, the [costs] table), machine_create
 *      ([machine], [sysctl], [policy]) and machine_start (kernel threads),
 *      bdev_create per [device NAME];
 *   2. register the engine callbacks (the monitor files are opened in step
 *      3b, once the workloads have started, so a bad scenario leaves no
 *      folder behind): a monitor sample every
 *      sample_interval from 0 to duration (mm_show_* into proc-vmstat,
 *      proc-buddyinfo, proc-pagetypeinfo, proc-zoneinfo, proc-meminfo, in
 *      mmtests' layout) and the vmstat snapshot at ramp_time that the
 *      deltas start from.  They are queued before any workload task, so at
 *      equal times they see the state before the tasks' steps;
 *   3. start every workload section (its tasks start at time 0);
 *   3b. create the result folder and open the monitor files;
 *   4. sim_run up to duration, in steps of sample_interval (the same steps
 *      whether or not a progress line is shown, so the event count does
 *      not depend on the terminal); between steps the driver — never the
 *      model — reads the wall clock for the progress line;
 *   5. write tps.csv and latency-hist.csv (when a workload has
 *      transactions), locks.csv, proc-slabinfo ([kernel] slab=on),
 *      profile.json (their writers are in
 *      src/report/run_files.c), then result.json last; each file goes to
 *      NAME.tmp first and is renamed when complete; print one summary
 *      line on stdout (deterministic, like the files).
 * run_once() is run_setup() (steps 1-3b), run_simulate() (4), run_write()
 * (5) and run_teardown().
 * --iterations N repeats this into DIR/iter-K with seed+K-1 and writes the
 * aggregate DIR/result.json.
 *
 * Teardown order: machine_destroy, sim_destroy, then the workloads'
 * destroy (workload.h: the run may stop with tasks mid-transaction).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/branch.h"
#include "cli/cli.h"
#include "cli/initial_state.h"
#include "cli/scenario.h"
#include "cli/sections.h"
#include "mm/machine.h"
#include "mm/slub.h"
#include "mm/swap.h"
#include "report/result.h"
#include "report/run_files.h"
#include "sim/bdev.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"
#include "workload/workload.h"

/* MON_DISKSTATS only with a [device], MON_WBT only when a device
 * throttles writeback (wbt_lat); MON_TRACE and MON_STAT always. */
enum {
	MON_VMSTAT, MON_BUDDYINFO, MON_PAGETYPEINFO, MON_ZONEINFO, MON_MEMINFO, MON_DISKSTATS,
	MON_WBT, MON_TRACE, MON_STAT, NR_MONITORS
};

static const char *const monitor_files[NR_MONITORS] = {
	"proc-vmstat", "proc-buddyinfo", "proc-pagetypeinfo", "proc-zoneinfo", "proc-meminfo",
	"proc-diskstats", "debugfs-wbt", "trace-counts", "proc-stat",
};

typedef void (*show_fn)(const struct machine *m, FILE *out);

static const show_fn monitor_show[MON_DISKSTATS] = {
	mm_show_vmstat, mm_show_buddyinfo, mm_show_pagetypeinfo, mm_show_zoneinfo, mm_show_meminfo,
};

/* The engine-context sampler (step 2). */
struct sampler {
	struct machine		*m;
	struct bdev		**bdevs;	/* for debugfs-wbt */
	unsigned int		nr_bdevs;
	bool			on[NR_MONITORS];
	struct rpt_file		files[NR_MONITORS];
	sim_time_t		interval, end;
	bool			whole_seconds;	/* print "time: 10", else "time: 10.250" */
	struct rpt_counters	start;		/* vmstat at ramp_time */
	int64_t			trace_base[RPT_NR_TRACE_EVENTS];	/* counts at time 0 */
	char			*buf;		/* one /proc text */
	size_t			buflen;
};

struct workload_run {
	const struct scn_instance	*in;
	const struct workload_type	*wt;
	void				*state;
	struct wl_stats			stats;
	struct wl_report		report;
};

struct progress {
	bool		tty;
	double		every;		/* s of wall time between updates */
	unsigned int	iteration, iterations;
	struct timespec	start, last;
	uint64_t	last_events;
	sim_time_t	last_virtual;
	bool		shown;
	/* one kept line per tps_interval, as pgbench -P prints (terminals only) */
	const struct machine	*m;
	const struct workload_run *wl;
	unsigned int	nr_wl;
	sim_time_t	tps_interval, measure_start, line_virtual;
	struct timespec	line_wall;
	uint64_t	line_k;			/* tps intervals already shown */
	uint64_t	line_allocstall, line_compactstall;
	/* SLOWPATH_HOST_LOG: host cost per step, for bench/bench_pgbench.c */
	FILE		*host_log;
};

/* ---- small helpers --------------------------------------------------------- */

static double wall_now(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

static void add_counter(void *ctx, const char *name, int64_t value)
{
	rpt_counters_add(ctx, name, value);
}

/* ---- monitors ---------------------------------------------------------------------- */

/*
 * debugfs-wbt: per member of each device with writeback throttling, the
 * values of the kernel's debugfs block/<disk>/rqos/wbt files (wb_normal,
 * wb_background, inflight, curr_win_nsec, min_lat_nsec, unknown_cnt;
 * block/blk-wbt.c, 6.12; inflight is one number where the kernel prints
 * one line per rq_wait, the model having no kswapd or discard writes),
 * its rq_depth (scale_step, max_depth) and
 * submitters queued now, then sums since the start that the kernel shows
 * only as wbt_timer/wbt_step tracepoints: windows ended per status, the
 * depth summed over time (request-ms: its growth between samples over
 * their distance is the mean depth), ms opened to the largest depth,
 * submitters that queued for a token and the us they queued.
 */
static void show_wbt(const struct sim *sim, const struct sampler *smp, FILE *out)
{
	fputs(DEBUGFS_WBT_HEADER "\n", out);
	for (unsigned int i = 0; i < smp->nr_bdevs; i++) {
		const struct bdev *b = smp->bdevs[i];

		if (!bdev_wbt_enabled(b))
			continue;
		for (uint32_t k = 0; k < bdev_members(b); k++) {
			struct bdev_wbt_state st;

			bdev_wbt_get_state(sim, b, k, &st);
			fprintf(out, "%s %u %u %u %u %llu %llu %u %d %u %u %llu %llu %llu %llu %llu %llu %llu %llu\n",
				bdev_name(b), k, st.wb_normal, st.wb_background, st.inflight,
				(unsigned long long)st.cur_win_ns, (unsigned long long)st.min_lat_ns,
				st.unknown_cnt, st.scale_step, st.max_depth, st.waiting,
				(unsigned long long)st.lat_ok, (unsigned long long)st.lat_unknown,
				(unsigned long long)st.lat_unknown_writes, (unsigned long long)st.lat_exceeded,
				(unsigned long long)(st.depth_ns / SIM_NSEC_PER_MSEC),
				(unsigned long long)(st.scaled_max_ns / SIM_NSEC_PER_MSEC),
				(unsigned long long)st.throttled,
				(unsigned long long)(st.throttled_ns / SIM_NSEC_PER_USEC));
		}
	}
}

/*
 * proc-diskstats: /proc/diskstats' 20 columns (block/genhd.c
 * diskstats_show, 6.12) for each device and, for a striped one, each
 * member.  Numbers as the kernel gives them: a striped device is an md
 * array (major 9, its minor counting those), every other disk an NVMe
 * namespace (major 259, minors in order).  Members are named after their
 * device, "md0-0" ... "md0-3", since the scenario does not name them.
 */
static void show_diskstats(struct sim *sim, const struct sampler *smp, FILE *out)
{
	unsigned int md_minor = 0, nvme_minor = 0;

	for (unsigned int i = 0; i < smp->nr_bdevs; i++) {
		struct bdev *b = smp->bdevs[i];
		uint32_t nd = bdev_nr_disks(b);

		for (uint32_t d = 0; d < nd; d++) {
			struct bdev_diskstats st;
			char name[96];
			unsigned int major = 259, minor;
			uint64_t q = 0;

			bdev_get_diskstats(sim, b, d, &st);
			if (nd > 1 && d == 0) {
				major = 9;
				minor = md_minor++;
			} else {
				minor = nvme_minor++;
			}
			if (d == 0)
				snprintf(name, sizeof(name), "%s", bdev_name(b));
			else
				snprintf(name, sizeof(name), "%s-%u", bdev_name(b), d - 1);
			for (int g = 0; g < NR_DISK_STAT; g++)
				q += st.nsecs[g];
/* as the kernel prints them: unsigned int, wrapping at 2^32 ms */
#define MS(ns) ((unsigned long long)(uint32_t)((ns) / SIM_NSEC_PER_MSEC))
			fprintf(out, "%4u %7u %s %llu 0 %llu %llu %llu 0 %llu %llu %u %llu %llu "
				"%llu 0 %llu %llu %llu %llu\n",
				major, minor, name,
				(unsigned long long)st.ios[DISK_STAT_READ],
				(unsigned long long)st.sectors[DISK_STAT_READ],
				MS(st.nsecs[DISK_STAT_READ]),
				(unsigned long long)st.ios[DISK_STAT_WRITE],
				(unsigned long long)st.sectors[DISK_STAT_WRITE],
				MS(st.nsecs[DISK_STAT_WRITE]),
				st.in_flight, MS(st.io_ticks_ns), MS(q),
				(unsigned long long)st.ios[DISK_STAT_DISCARD],
				(unsigned long long)st.sectors[DISK_STAT_DISCARD],
				MS(st.nsecs[DISK_STAT_DISCARD]),
				(unsigned long long)st.ios[DISK_STAT_FLUSH],
				MS(st.nsecs[DISK_STAT_FLUSH]));
#undef MS
		}
	}
}

/*
 * trace-counts: per tracepoint of rpt_trace_events (report/result.h), in
 * its order, the times the model's kernel fired it since the run started
 * (vmstat.h MM_TRACEPOINTS says where each is counted), as `perf stat -a`
 * would count them and `slowpath record` writes them.
 */
static void trace_counts_read(const struct machine *m, int64_t *out)
{
	for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++) {
		out[i] = mm_tracepoint_count(m, rpt_trace_events[i]);
		if (out[i] < 0)
			SIM_BUG("tracepoint %s is not counted by the model", rpt_trace_events[i]);
	}
}

static void show_trace_counts(const struct sampler *smp, FILE *out)
{
	int64_t now[RPT_NR_TRACE_EVENTS];

	trace_counts_read(smp->m, now);
	for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++)
		fprintf(out, "%s %lld\n", rpt_trace_events[i], (long long)(now[i] - smp->trace_base[i]));
}

/*
 * proc-stat: /proc/stat (fs/proc/stat.c show_stat, 6.12) from the
 * scheduler's accounting (sim.h, sim_cpu_stats): the "cpu" line (the
 * CPUs' nanoseconds summed, then converted, as the kernel does) and one
 * line per CPU, in USER_HZ ticks (100 a second): user, nice (0), system,
 * idle, iowait, irq, softirq (0), steal (0), guest (0), guest_nice (0).
 * "intr" has its total only: the model's interrupts (device completions
 * and the wake-ups' IPIs; timer ticks are not counted).  Then ctxt (the
 * CPUs' context switches), processes (tasks created), procs_running and
 * procs_blocked.  No btime (the model has no wall clock) and no softirq
 * line (the model has no softirq context).
 */
static void show_stat(struct sim *sim, FILE *out)
{
	enum { U, S, I, W, Q, N };
	unsigned int nc = sim_ncpus(sim);
	uint64_t tot[N] = { 0 }, irqs = 0, ctxt = 0;
	uint64_t (*v)[N] = calloc(nc, sizeof(*v));

	if (!v)
		SIM_BUG("out of memory");
	for (unsigned int c = 0; c < nc; c++) {
		struct sim_cpu_stats st;
		uint64_t k;

		sim_cpu_stats(sim, c, &st);
		k = st.system_ns + st.irq_cpu_ns;
		v[c][U] = st.busy_ns > k ? st.busy_ns - k : 0;
		v[c][S] = st.system_ns;
		v[c][I] = st.idle_ns > st.iowait_ns ? st.idle_ns - st.iowait_ns : 0;
		v[c][W] = st.iowait_ns;
		v[c][Q] = st.irq_cpu_ns;
		for (int f = 0; f < N; f++)
			tot[f] += v[c][f];
		irqs += st.irqs;
		ctxt += st.switches;
	}
#define TICKS(ns) ((unsigned long long)((ns) / (SIM_NSEC_PER_SEC / 100)))
	fprintf(out, "cpu  %llu 0 %llu %llu %llu %llu 0 0 0 0\n", TICKS(tot[U]), TICKS(tot[S]),
		TICKS(tot[I]), TICKS(tot[W]), TICKS(tot[Q]));
	for (unsigned int c = 0; c < nc; c++)
		fprintf(out, "cpu%u %llu 0 %llu %llu %llu %llu 0 0 0 0\n", c, TICKS(v[c][U]),
			TICKS(v[c][S]), TICKS(v[c][I]), TICKS(v[c][W]), TICKS(v[c][Q]));
#undef TICKS
	fprintf(out, "intr %llu\nctxt %llu\nprocesses %u\nprocs_running %u\nprocs_blocked %u\n",
		(unsigned long long)(irqs + sim_wake_ipis(sim)), (unsigned long long)ctxt,
		sim_nr_processes(sim), sim_nr_running(sim), sim_nr_iowait(sim));
	free(v);
}

static void sample_monitors(struct sim *sim, void *arg)
{
	struct sampler *smp = arg;
	sim_time_t now = sim_now(sim);
	char t[40];

	rpt_format_monitor_time(t, sizeof(t), now, smp->whole_seconds);
	for (int k = 0; k < NR_MONITORS; k++) {
		FILE *mem;

		if (!smp->on[k])
			continue;
		mem = open_memstream(&smp->buf, &smp->buflen);
		if (!mem)
			SIM_BUG("open_memstream failed");
		if (k == MON_WBT)
			show_wbt(sim, smp, mem);
		else if (k == MON_TRACE)
			show_trace_counts(smp, mem);
		else if (k == MON_DISKSTATS)
			show_diskstats(sim, smp, mem);
		else if (k == MON_STAT)
			show_stat(sim, mem);
		else
			monitor_show[k](smp->m, mem);
		fclose(mem);
		rpt_monitor_sample(smp->files[k].f, t, smp->buf);
		free(smp->buf);
		smp->buf = NULL;
	}
	if (now + smp->interval <= smp->end)
		sim_call_at(sim, now + smp->interval, sample_monitors, smp);
}

static void snapshot_start(struct sim *sim, void *arg)
{
	struct sampler *smp = arg;

	mm_vmstat_snapshot(smp->m, add_counter, &smp->start);
	if (sim_now(sim) > 0)	/* profile.json too counts from ramp_time */
		sim_path_window_start(sim);
}

/* ---- progress line (stderr, terminals only) ------------------------------------------ */

struct stall_sum {
	uint64_t allocstall, compactstall;
};

static void pick_stalls(void *ctx, const char *name, int64_t value)
{
	struct stall_sum *st = ctx;

	if (strncmp(name, "allocstall_", 11) == 0)
		st->allocstall += (uint64_t)value;
	else if (strcmp(name, "compact_stall") == 0)
		st->compactstall += (uint64_t)value;
}

/*
 * The kept line, one per tps_interval of virtual time (pgbench -P, fio's
 * status line): virtual time, the TPS and mean latency of the intervals
 * completed since the last line (the same figures as tps.csv's rows),
 * allocation and compaction stalls since the last line, the host's speed
 * as a multiple of real time and the ETA.  During ramp_time nothing is
 * measured and the line says "ramp".  Reading the counters has no side
 * effect on the model (mm_vmstat_snapshot sums, it does not fold).
 */
static void progress_line(struct progress *p, sim_time_t done, sim_time_t end, const struct timespec *now)
{
	struct stall_sum st = { 0, 0 };
	uint64_t tx = 0, lat = 0, k_now = 0;
	double vdt, hdt, speed, eta, total_speed;
	char rate[96];

	if (!p->m || !p->tps_interval)
		return;
	if (done <= p->measure_start) {
		if (done / p->tps_interval == p->line_virtual / p->tps_interval)
			return;
		snprintf(rate, sizeof(rate), "ramp");
	} else {
		k_now = (done - p->measure_start) / p->tps_interval;
		if (k_now <= p->line_k)
			return;
		for (unsigned int i = 0; i < p->nr_wl; i++) {
			const struct wl_stats *ws = &p->wl[i].stats;

			for (uint64_t k = p->line_k; k < k_now && k < ws->nr_intervals; k++) {
				tx += ws->interval_tx[k];
				lat += ws->interval_lat_sum[k];
			}
		}
		snprintf(rate, sizeof(rate), "%.1f tps, lat %.3f ms",
			 (double)tx / ((double)(k_now - p->line_k) * (double)p->tps_interval / 1e9),
			 tx ? (double)lat / (double)tx / 1e6 : 0);
		p->line_k = k_now;
	}
	mm_vmstat_snapshot(p->m, pick_stalls, &st);
	vdt = (double)(done - p->line_virtual) / 1e9;
	hdt = elapsed(&p->line_wall, now);
	speed = hdt > 0 ? vdt / hdt : 0;
	total_speed = elapsed(&p->start, now) > 0 ? (double)done / 1e9 / elapsed(&p->start, now) : 0;
	eta = total_speed > 0 ? (double)(end - done) / 1e9 / total_speed : 0;
	if (p->shown)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "progress: %.1f s, %s, allocstall %llu, compact_stall %llu; "
		"host %.3gx real time, ETA %d:%02d\n",
		(double)done / 1e9, rate,
		(unsigned long long)(st.allocstall - p->line_allocstall),
		(unsigned long long)(st.compactstall - p->line_compactstall),
		speed, (int)(eta / 60), (int)fmod(eta, 60));
	p->shown = false;
	p->line_virtual = done;
	p->line_wall = *now;
	p->line_allocstall = st.allocstall;
	p->line_compactstall = st.compactstall;
}

/* SLOWPATH_HOST_LOG=FILE: one line per step, "virtual_s host_s events
 * transactions peak_rss_kib resumes direct_resumes", for the benchmarks
 * (bench_pgbench); host figures never go into the result folder. */
static void host_log_step(struct progress *p, struct sim *sim, sim_time_t done, const struct timespec *now)
{
	struct rusage ru;
	uint64_t tx = 0;

	if (!p->host_log)
		return;
	for (unsigned int i = 0; i < p->nr_wl; i++)
		tx += p->wl[i].stats.transactions;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(p->host_log, "%.3f %.3f %llu %llu %ld %llu %llu\n", (double)done / 1e9,
		elapsed(&p->start, now), (unsigned long long)sim_events(sim), (unsigned long long)tx,
		ru.ru_maxrss, (unsigned long long)sim_resumes(sim),
		(unsigned long long)sim_direct_resumes(sim));
	fflush(p->host_log);
}

static void progress_update(struct progress *p, struct sim *sim, sim_time_t done, sim_time_t end,
			    bool final)
{
	struct timespec now;
	double dt, ev_rate, virt_rate, eta;
	char iter[32] = "";

	if (!p->tty && !p->host_log)
		return;
	wall_now(&now);
	if (!final)
		host_log_step(p, sim, done, &now);
	if (!p->tty)
		return;
	if (!final)
		progress_line(p, done, end, &now);
	dt = elapsed(&p->last, &now);
	if (!final && dt < p->every)
		return;
	if (final) {
		if (p->shown)
			fputs("\r\033[K", stderr);
		p->shown = false;
		return;
	}
	ev_rate = dt > 0 ? (double)(sim_events(sim) - p->last_events) / dt : 0;
	virt_rate = elapsed(&p->start, &now) > 0 ?
		    (double)done / elapsed(&p->start, &now) : 0;
	eta = virt_rate > 0 ? (double)(end - done) / virt_rate : 0;
	if (p->iterations > 1)
		snprintf(iter, sizeof(iter), "iteration %u/%u: ", p->iteration, p->iterations);
	fprintf(stderr, "\r\033[K%s%.1f/%.1f s virtual, %.2f M events/s, ETA %d:%02d",
		iter, (double)done / 1e9, (double)end / 1e9, ev_rate / 1e6,
		(int)(eta / 60), (int)fmod(eta, 60));
	fflush(stderr);
	p->shown = true;
	p->last = now;
	p->last_events = sim_events(sim);
	p->last_virtual = done;
}

/* ---- one run ------------------------------------------------------------------------------- */

/* One run's state, from set-up to teardown. */
struct run {
	const struct scenario	*s;
	const struct scn_global	*g;
	const char		*dir, *shown;
	unsigned int		iteration;
	uint64_t		seed;
	struct progress		*prog;
	struct rpt_result	*res;
	struct timespec		t0;
	struct sim		*sim;
	struct machine		*m;
	struct sampler		smp;
	struct bdev		**bdevs;
	const char		**bdev_names;
	unsigned int		nr_bdevs;
	struct workload_run	*wl;
	unsigned int		nr_wl;
	struct wl_stats		total;		/* every workload's transactions */
	/* khungtaskd ([sysctl] kernel.hung_task_*) */
	sim_time_t		hung_timeout, hung_interval, hung_next;
	int64_t			hung_warnings;	/* reports still printed; -1 = no limit */
	uint64_t		hung_detected;	/* the figure hung_task_detect_count */
	sim_time_t		lockup_thresh;	/* kernel.watchdog_thresh; 0 = off */
	uint64_t		lockups;	/* the figure hard_lockup_count */
};

/* [machine] initial_state=DIR, validated with the scenario (sections.c):
 * read it again and build it on the booted machine. */
static int load_initial_state(struct machine *m, const struct machine_config *mc,
			      const struct vm_sysctl *sysctl, char *err, size_t errlen)
{
	struct mm_initial_state *st = xzalloc(sizeof(*st)), *scaled = xzalloc(sizeof(*scaled));
	int rc = scn_initial_state_read(mc->initial_state, st, err, errlen) ? -1 :
		 machine_load_initial_state(m, st, err, errlen);

	/* what the fit had to change, said once (validation ran the same plan) */
	if (!rc && !machine_initial_state_check(mc, sysctl, st, scaled, err, errlen))
		for (int z = 0; z < MM_IS_NR_ZONES; z++)
			if (scaled->zone[z].moved_blocks || scaled->zone[z].dropped_pages)
				fprintf(stderr, "note: initial_state: %s: to fit the scaled recording, %"
					PRIu64 " pageblock%s changed type and %" PRIu64 " free page%s left "
					"allocated\n", st->zone[z].where, scaled->zone[z].moved_blocks,
					scaled->zone[z].moved_blocks == 1 ? "" : "s",
					scaled->zone[z].dropped_pages,
					scaled->zone[z].dropped_pages == 1 ? " was" : "s were");
	free(st);
	free(scaled);
	return rc;
}

/*
 * Steps 1-3b: engine, machine and kernel threads, devices, monitors and
 * the start snapshot, workloads, then the folder and the monitor files.
 * 0, 1 (the folder cannot be made) or 2 (the scenario cannot run, with
 * its file:line).
 */
static int run_setup(struct run *r)
{
	const struct scenario *s = r->s;
	const struct scn_global *g = r->g;
	const struct machine_config *mc = scn_config(s, "machine", NULL);
	const struct vm_sysctl *sysctl = scn_config(s, "sysctl", NULL);
	const struct scn_policy *pol = scn_config(s, "policy", NULL);
	const struct cost_table *costs = scn_config(s, "costs", NULL);
	const struct scn_kernel *kern = scn_config(s, "kernel", NULL);
	struct sim_config sc = { .ncpus = (unsigned int)mc->cpus, .seed = r->seed, .costs = costs,
				 .preempt = kern->preempt, .tick_ns = SIM_NSEC_PER_SEC / mc->hz,
				 .rwsem_steal = kern->rwsem == 1,
				 .mm_slots = (unsigned int)mc->mm_slots,
				 .migration_cost = kern->migration_cost,
				 .periodic_balance = kern->periodic_balance,
				 .no_run_to_parity = !kern->run_to_parity,
				 .delay_dequeue = kern->delay_dequeue,
				 .llc_cpus = (unsigned int)mc->llc_cpus };
	struct mm_policy policy;
	struct wl_env env;
	char err[1024], place[300];

	r->sim = sim_create(&sc);
	r->hung_timeout = sysctl->hung_task_timeout_secs * SIM_NSEC_PER_SEC;
	r->hung_interval = sysctl->hung_task_check_interval_secs ?
			   sysctl->hung_task_check_interval_secs * SIM_NSEC_PER_SEC : r->hung_timeout;
	r->hung_next = r->hung_interval;
	r->hung_warnings = sysctl->hung_task_warnings;
	r->lockup_thresh = sysctl->watchdog_thresh * SIM_NSEC_PER_SEC;
	policy = pol->sw;	/* resolved by cli_load_scenario */
	r->m = machine_create(r->sim, mc, sysctl, &policy, err, sizeof(err));
	if (!r->m) {
		scn_section_place(s, scn_find(s, "machine", NULL), place, sizeof(place));
		fprintf(stderr, "%s: [machine]: %s\n", place, err);
		return 2;
	}
	r->m->drawn_faults = g->fault_model == 1;	/* before any process maps memory */
	if (kern->lru_gen)	/* [kernel] lru_gen=on: before any folio is on an LRU */
		lru_gen_init(r->m, sysctl->lru_gen_min_ttl_ms);
	if (kern->slab)		/* [kernel] slab=on: the caches exist before any user */
		kmem_cache_init(r->m);
	if (SIM_CHECK_EXPENSIVE)	/* debug builds: mm_check after every mm operation */
		mm_set_check_interval(r->m, 1);
	if (mc->initial_state && mc->initial_state[0] && load_initial_state(r->m, mc, sysctl, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	machine_start(r->m);	/* kernel threads, before any workload task */

	/* 1. devices, in file order */
	for (size_t i = 0; i < scn_nr_instances(s); i++) {
		const struct scn_instance *in = scn_instance_at(s, i);
		struct bdev_config cfg;

		if (strcmp(in->type->kind, "device") != 0)
			continue;
		cfg = *(const struct bdev_config *)in->config;
		cfg.name = in->name;
		r->bdevs = realloc(r->bdevs, (r->nr_bdevs + 1) * sizeof(*r->bdevs));
		r->bdev_names = realloc(r->bdev_names, (r->nr_bdevs + 1) * sizeof(*r->bdev_names));
		if (!r->bdevs || !r->bdev_names)
			SIM_BUG("out of memory");
		r->bdevs[r->nr_bdevs] = bdev_create(r->sim, &cfg);
		r->bdev_names[r->nr_bdevs++] = in->name;
	}

	/* 2. monitors and the start snapshot, queued before any task */
	r->smp.m = r->m;
	r->smp.bdevs = r->bdevs;
	r->smp.nr_bdevs = r->nr_bdevs;
	for (int k = 0; k < MON_DISKSTATS; k++)
		r->smp.on[k] = true;
	r->smp.on[MON_DISKSTATS] = r->nr_bdevs > 0;
	for (unsigned int i = 0; i < r->nr_bdevs; i++)
		r->smp.on[MON_WBT] |= bdev_wbt_enabled(r->bdevs[i]);
	r->smp.on[MON_TRACE] = true;
	r->smp.on[MON_STAT] = true;
	trace_counts_read(r->m, r->smp.trace_base);
	r->smp.interval = g->sample_interval;
	r->smp.end = g->duration;
	r->smp.whole_seconds = g->sample_interval % SIM_NSEC_PER_SEC == 0;
	sim_call_at(r->sim, g->ramp_time, snapshot_start, &r->smp);
	sim_call_at(r->sim, 0, sample_monitors, &r->smp);

	/* 3. workloads.  Each started workload keeps a pointer to its stats
	 * inside wl[], so the array is sized once, before the first start,
	 * and never moves. */
	env = (struct wl_env){ r->m, r->sim, r->bdevs, r->bdev_names, r->nr_bdevs, r->dir };
	r->wl = calloc(scn_nr_instances(s) ? scn_nr_instances(s) : 1, sizeof(*r->wl));
	if (!r->wl)
		SIM_BUG("out of memory");
	for (size_t i = 0; i < scn_nr_instances(s); i++) {
		const struct scn_instance *in = scn_instance_at(s, i);
		const struct workload_type *wt = in->type->data;
		struct workload_run *w;

		if (!wt)
			continue;
		w = &r->wl[r->nr_wl];
		w->in = in;
		w->wt = wt;
		wl_stats_init(&w->stats, g->ramp_time, g->tps_interval);
		r->nr_wl++;
		err[0] = '\0';
		w->state = wt->start_env(&env, in->config, in->name, &w->stats, err, sizeof(err));
		if (!w->state) {
			char label[160];

			scn_section_place(s, in, place, sizeof(place));
			snprintf(label, sizeof(label), in->name[0] ? "[%s %s]" : "[%s]", in->type->kind, in->name);
			fprintf(stderr, "%s: %s: %s\n", place, label, err[0] ? err : "cannot start");
			return 2;
		}
	}

	/* 3b. The scenario is sound: only now create the folder and the monitors. */
	if (rpt_mkdir_p(r->dir, err, sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		return 1;
	}
	for (int k = 0; k < NR_MONITORS; k++)
		if (r->smp.on[k] && rpt_file_open(&r->smp.files[k], r->dir, monitor_files[k], err, sizeof(err))) {
			fprintf(stderr, "slowpath run: %s\n", err);
			for (int j = 0; j < k; j++)
				if (r->smp.on[j])
					rpt_file_abort(&r->smp.files[j]);
			return 1;
		}
	return 0;
}

/* ---- the hung-task detector --------------------------------------------------------------- */

/* A report starts on a line of its own: clear a progress line being drawn. */
static void report_begin(struct run *r)
{
	if (r->prog->shown)
		fputs("\r\033[K", stderr);
	r->prog->shown = false;
}

/* In place of the kernel's stack: the model's open path from `k`,
 * innermost first, down to the task kind. */
static void print_call_trace(struct run *r, uint32_t k, double ts)
{
	const struct sim_path_node *nodes;
	uint32_t n = sim_path_nodes(r->sim, &nodes);
	unsigned int kinds = (unsigned int)sim_nr_task_kinds(r->sim);

	fprintf(stderr, "[%12.6f] Call Trace:\n", ts);
	for (unsigned int depth = 0; k < n && depth <= 64; depth++) {
		fprintf(stderr, "[%12.6f]  %s\n", ts, nodes[k].name);
		if (k < kinds)
			break;
		k = nodes[k].parent;
	}
}

/* One report on stderr, as check_hung_task() and sched_show_task() print
 * it (kernel/hung_task.c, 6.12): the printk time stamp, the task, and in
 * place of the stack the model's open path, innermost first. */
static void hung_task_report(void *ctx, const struct sim_hung_task *h)
{
	struct run *r = ctx;
	double ts = (double)sim_now(r->sim) / 1e9;

	r->hung_detected++;
	if (!r->hung_warnings)
		return;
	if (r->hung_warnings > 0)
		r->hung_warnings--;
	report_begin(r);
	fprintf(stderr, "[%12.6f] INFO: task %s:%u blocked for more than %" PRIu64 " seconds.\n",
		ts, h->comm, h->pid, (uint64_t)(h->blocked_ns / SIM_NSEC_PER_SEC));
	fprintf(stderr, "[%12.6f] \"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables "
		"this message.\n", ts);
	fprintf(stderr, "[%12.6f] task:%-15s state:D pid:%u\n", ts, h->comm, h->pid);
	print_call_trace(r, h->path, ts);
	if (!r->hung_warnings)
		fprintf(stderr, "[%12.6f] Future hung task reports are suppressed, see sysctl "
			"kernel.hung_task_warnings\n", ts);
}

/* The hard-lockup report (watchdog_hardlockup_check, kernel/watchdog.c,
 * 6.12), with the spinner and where it spins. */
static void hard_lockup_report(void *ctx, const struct sim_hung_task *h)
{
	struct run *r = ctx;
	double ts = (double)sim_now(r->sim) / 1e9;

	r->lockups++;
	report_begin(r);
	fprintf(stderr, "[%12.6f] watchdog: Watchdog detected hard LOCKUP on cpu %u\n", ts, h->cpu);
	fprintf(stderr, "[%12.6f] CPU: %u PID: %u Comm: %s (spinning for %.3f s)\n", ts, h->cpu,
		h->pid, h->comm, (double)h->blocked_ns / 1e9);
	print_call_trace(r, h->path, ts);
}

/* khungtaskd's loop (watchdog() in kernel/hung_task.c): a check every
 * interval, here at the first sample step at or after it; the hard-lockup
 * check at every step. */
static void watchdog_checks(struct run *r, sim_time_t now)
{
	if (r->lockup_thresh)
		sim_check_hard_lockups(r->sim, r->lockup_thresh, hard_lockup_report, r);
	if (!r->hung_timeout || now < r->hung_next)
		return;
	sim_check_hung_tasks(r->sim, r->hung_timeout, hung_task_report, r);
	r->hung_next = now + r->hung_interval;
}

/* Step 4: simulate from `from` to `to`, one sample interval at a time
 * (a branched run stops at its branch instant, a sample step, and each
 * branch goes on from there: the same steps as one whole run). */
static void run_simulate(struct run *r, sim_time_t from, sim_time_t to)
{
	const struct scn_global *g = r->g;
	struct progress *prog = r->prog;

	if (from == 0) {
		prog->m = r->m;
		prog->wl = r->wl;
		prog->nr_wl = r->nr_wl;
		prog->tps_interval = g->tps_interval;
		prog->measure_start = g->ramp_time;
		prog->line_virtual = 0;
		prog->line_wall = r->t0;
		prog->line_k = prog->line_allocstall = prog->line_compactstall = 0;
	}
	for (sim_time_t done = from; done < to;) {
		done = to - done > g->sample_interval ? done + g->sample_interval : to;
		sim_run(r->sim, done);
		watchdog_checks(r, done);
		progress_update(prog, r->sim, done, g->duration, false);
	}
	progress_update(prog, r->sim, to, g->duration, true);
}

/* The result record of the run: counters, transactions, figures. */
static void run_fill_result(struct run *r)
{
	const struct scn_global *g = r->g;
	const struct machine_config *mc = scn_config(r->s, "machine", NULL);
	const struct scn_policy *pol = scn_config(r->s, "policy", NULL);
	struct rpt_result *res = r->res;

	res->source = "simulated";
	res->scenario = scn_path(r->s);
	res->policy = pol->sw.name;
	res->seed = r->seed;
	res->scale_n = (unsigned int)g->applied_scale;
	res->iteration = r->iteration;
	res->virtual_seconds = (double)g->duration / 1e9;
	res->measure_seconds = (double)(g->duration - g->ramp_time) / 1e9;
	res->events = sim_events(r->sim);
	mm_vmstat_snapshot(r->m, add_counter, &res->vmstat_end);
	for (size_t i = 0; i < res->vmstat_end.n; i++) {
		bool found;
		int64_t v0 = rpt_counters_get(&r->smp.start, res->vmstat_end.v[i].name, &found);

		rpt_counters_add(&res->vmstat, res->vmstat_end.v[i].name, res->vmstat_end.v[i].value - v0);
	}
	if (res->has_transactions) {
		const struct wl_stats *total = &r->total;

		res->transactions = total->transactions;
		res->tps = (double)total->transactions / res->measure_seconds;
		if (total->transactions)
			res->latency.avg = (double)total->lat_sum_ns / (double)total->transactions / 1e6;
		res->latency.p50 = (double)wl_stats_quantile(total, 0.50) / 1e6;
		res->latency.p95 = (double)wl_stats_quantile(total, 0.95) / 1e6;
		res->latency.p99 = (double)wl_stats_quantile(total, 0.99) / 1e6;
		res->latency.max = (double)total->lat_max_ns / 1e6;
	}
	for (unsigned int i = 0; i < r->nr_wl; i++) {
		const struct workload_run *w = &r->wl[i];

		for (unsigned int f = 0; f < w->report.nr_figures; f++) {
			char name[256];

			if (r->nr_wl > 1)
				snprintf(name, sizeof(name), w->in->name[0] ? "%s:%s.%s" : "%s%s.%s",
					 w->in->type->kind, w->in->name, w->report.figures[f].name);
			else
				snprintf(name, sizeof(name), "%s", w->report.figures[f].name);
			rpt_result_add_figure(res, name, w->report.figures[f].value, w->report.figures[f].unit);
		}
	}
	if (r->hung_timeout)
		rpt_result_add_figure(res, "hung_task_detect_count", (double)r->hung_detected, "");
	if (r->lockup_thresh)
		rpt_result_add_figure(res, "hard_lockup_count", (double)r->lockups, "");
	res->memory_bytes = mc->memory;
	res->cpus = (unsigned int)mc->cpus;
	for (unsigned int z = 0; z < mm_nr_zones(r->m); z++)
		rpt_counters_add(&res->zones_managed, mm_zone_name(r->m, z),
				 (int64_t)mm_zone_managed_pages(r->m, z));
}

/*
 * Step 5: the monitors committed, the workloads' reports gathered, then
 * tps.csv and latency-hist.csv (when there are transactions), locks.csv,
 * profile.json and result.json last; the summary line.  0 or 1.
 */
static int run_write(struct run *r)
{
	const struct scn_global *g = r->g;
	struct rpt_result *res = r->res;
	struct timespec t1;
	char err[1024];
	int rc = 0;

	for (int k = 0; k < NR_MONITORS; k++)
		if (r->smp.on[k] && rpt_file_commit(&r->smp.files[k], err, sizeof(err)) && !rc) {
			fprintf(stderr, "slowpath run: %s\n", err);
			rc = 1;
		}
	wl_stats_init(&r->total, g->ramp_time, g->tps_interval);
	memset(res, 0, sizeof(*res));
	for (unsigned int i = 0; i < r->nr_wl; i++) {
		struct workload_run *w = &r->wl[i];

		w->wt->report(w->state, &w->report);
		if (w->report.error && !rc) {
			fprintf(stderr, "slowpath run: %s\n", w->report.error);
			rc = 1;
		}
		if (!w->report.has_transactions)
			continue;
		res->has_transactions = true;
		wl_stats_merge(&r->total, w->report.stats ? w->report.stats : &w->stats);
	}
	/* the workloads' tables (pgbench: waits.csv, checkpoints.csv); a file
	 * name comes from the first workload that has it */
	for (unsigned int i = 0; i < r->nr_wl && !rc; i++) {
		const struct wl_report *wr = &r->wl[i].report;

		for (unsigned int k = 0; k < wr->nr_tables && !rc; k++) {
			const struct wl_table *t = &wr->tables[k];
			bool dup = false;

			for (unsigned int j = 0; j < i; j++)
				for (unsigned int l = 0; l < r->wl[j].report.nr_tables; l++)
					dup |= strcmp(r->wl[j].report.tables[l].file, t->file) == 0;
			if (!dup && rpt_write_csv_table(r->dir, t->file, t->cols, t->decimals, t->ncols, t->nrows,
							t->cells, err, sizeof(err))) {
				fprintf(stderr, "slowpath run: %s\n", err);
				rc = 1;
			}
		}
	}
	if (!rc && ((res->has_transactions &&
		     (rpt_write_tps_csv(r->dir, &r->total, g->ramp_time, g->duration, g->tps_interval,
					err, sizeof(err)) ||
		      rpt_write_latency_hist(r->dir, &r->total, err, sizeof(err)))) ||
		    rpt_write_locks_csv(r->dir, r->sim, err, sizeof(err)) ||
		    rpt_write_slabinfo(r->dir, r->m, err, sizeof(err)) ||
		    rpt_write_profile(r->dir, r->sim, err, sizeof(err)))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	run_fill_result(r);
	wall_now(&t1);
	res->wall_seconds = elapsed(&r->t0, &t1);
	if (!rc && rpt_result_write(r->dir, res, err, sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	if (!rc && res->has_transactions)
		printf("%s: %.1f tps, latency p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", r->shown, res->tps,
		       res->latency.p50, res->latency.p99, res->latency.max);
	else if (!rc)
		printf("%s: %.3f s simulated, %llu events\n", r->shown, res->virtual_seconds,
		       (unsigned long long)res->events);
	fflush(stdout);
	return rc;
}

/* Teardown order: machine, engine, then the workloads (workload.h). */
static void run_teardown(struct run *r)
{
	if (r->m)
		machine_destroy(r->m);
	sim_destroy(r->sim);
	for (unsigned int i = 0; i < r->nr_wl; i++) {
		if (r->wl[i].state)
			r->wl[i].wt->destroy(r->wl[i].state);
		wl_stats_release(&r->wl[i].stats);
	}
	free(r->wl);
	free(r->bdevs);
	free(r->bdev_names);
	rpt_counters_release(&r->smp.start);
	wl_stats_release(&r->total);
}

/* The run's wall-clock start, for its progress line and result.json. */
static void run_begin(struct run *r, unsigned int iteration)
{
	wall_now(&r->t0);
	r->prog->start = r->prog->last = r->t0;
	r->prog->last_events = 0;
	r->prog->iteration = iteration;
}

/* Exit status of a run: 0, 1 (runtime/output failure), 2 (bad scenario). */
static int run_once(const struct scenario *s, const char *dir, const char *shown, unsigned int iteration,
		    uint64_t seed, struct progress *prog, struct rpt_result *res)
{
	struct run r = { .s = s, .g = scn_config(s, "global", NULL), .dir = dir, .shown = shown,
			 .iteration = iteration, .seed = seed, .prog = prog, .res = res };
	int rc;

	run_begin(&r, iteration);
	rc = run_setup(&r);
	if (rc == 0) {
		run_simulate(&r, 0, r.g->duration);
		rc = run_write(&r);
	}
	run_teardown(&r);
	return rc;
}

/* ---- the command ------------------------------------------------------------------------------- */

/* out/<scenario file name without .ini> */
static char *default_out(const char *scenario)
{
	const char *base = strrchr(scenario, '/') ? strrchr(scenario, '/') + 1 : scenario;
	size_t n = strlen(base);
	char *out;

	if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
		n -= 4;
	out = malloc(n + 5);
	if (!out)
		SIM_BUG("out of memory");
	memcpy(out, "out/", 4);
	memcpy(out + 4, base, n);
	out[n + 4] = '\0';
	return out;
}

/* One argument as a shell would need it: bare when plain, else in single
 * quotes; control characters (which a scenario line may not hold) as \xNN. */
static void print_arg(FILE *f, const char *a)
{
	bool plain = *a != '\0';

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *p))
			plain = false;
	if (plain) {
		fputs(a, f);
		return;
	}
	fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)a; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/*
 * DIR/scenario.ini: the resolved scenario (every key, --set and --scale
 * applied; [global] applied_scale records the scale), headed by the
 * version, the command line and the seed, so `slowpath run
 * DIR/scenario.ini` repeats the run.  A branched run's files say instead
 * what they are (`head`, one comment line each) and that the command
 * repeats the run.
 */
static int write_scenario_file(const char *dir, const char *name, const char *head, const struct scenario *s,
			       int argc, char **argv, uint64_t seed, unsigned int iterations, char *err,
			       size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, name, err, errlen))
		return -1;
	if (head)
		fputs(head, rf.f);
	else
		fprintf(rf.f, "; a result folder's scenario: `slowpath run THIS_FILE%s` repeats the run\n",
			iterations > 1 ? " --iterations N" : "");
	fprintf(rf.f, "; version: slowpath %s (commit %s)\n", SLOWPATH_VERSION, SLOWPATH_COMMIT);
	fputs("; command: slowpath", rf.f);
	for (int i = 0; i < argc; i++) {
		fputc(' ', rf.f);
		print_arg(rf.f, argv[i]);
	}
	fprintf(rf.f, "\n; seed: %llu%s\n", (unsigned long long)seed,
		iterations > 1 ? " (iteration K used seed+K-1)" : "");
	scn_print(s, rf.f);
	return rpt_file_commit(&rf, err, errlen);
}

static int write_scenario_ini(const char *dir, const struct scenario *s, int argc, char **argv,
			      uint64_t seed, unsigned int iterations, char *err, size_t errlen)
{
	return write_scenario_file(dir, "scenario.ini", NULL, s, argc, argv, seed, iterations, err, errlen);
}

/* ---- --branch-at: one prefix, then a child process per branch -------------------------------- */

/* The branch's copy of a monitor file: what the prefix sampled (flushed
 * by the parent before the fork), then the branch's own samples.  The
 * child drops its copy of the prefix's stream without touching the file. */
static int monitor_fork(struct rpt_file *rf, const char *dir, const char *name, char *err, size_t errlen)
{
	struct rpt_file nf;
	char buf[1 << 16];
	size_t n;
	FILE *in;

	if (rpt_file_open(&nf, dir, name, err, errlen))
		return -1;
	in = fopen(rf->tmp_path, "r");
	if (!in) {
		snprintf(err, errlen, "%s: %s", rf->tmp_path, strerror(errno));
		rpt_file_abort(&nf);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, nf.f);
	fclose(in);
	fclose(rf->f);
	free(rf->tmp_path);
	free(rf->final_path);
	*rf = nf;
	return 0;
}

struct branch_run {
	const struct run_branch	*b;
	size_t			nr;
	sim_time_t		at;
	unsigned int		jobs;
	const char		*stage, *out;	/* DIR.tmp and DIR */
	int			argc;
	char			**argv;
};

/* In the child: the branch's folder and monitors, its costs, policy and
 * sysctls from the branch instant on, the rest of the run, its files.  0
 * or 1. */
static int branch_child(struct run *r, const struct branch_run *br, const struct run_branch *b)
{
	size_t n = strlen(br->out) + strlen(b->name) + 16;
	char *dir = xmalloc(n), *shown = xmalloc(n), err[1024], head[600];
	const struct scn_policy *pol = scn_config(b->s, "policy", NULL);
	int rc = 0;

	(void)host_huge_unshare();	/* host layout only: no result depends on it */
	snprintf(dir, n, "%s/%s", br->stage, b->name);
	snprintf(shown, n, "%s/%s", br->out, b->name);
	r->dir = dir;
	r->shown = shown;
	if (rpt_mkdir_p(dir, err, sizeof(err)))
		rc = 1;
	for (int k = 0; k < NR_MONITORS && !rc; k++)
		if (r->smp.on[k])
			rc = monitor_fork(&r->smp.files[k], dir, monitor_files[k], err, sizeof(err)) ? 1 : 0;
	if (rc) {
		fprintf(stderr, "slowpath run: branch %s: %s\n", b->name, err);
		return rc;
	}
	r->s = b->s;
	r->g = scn_config(b->s, "global", NULL);
	sim_set_costs(r->sim, scn_config(b->s, "costs", NULL));
	machine_set_policy(r->m, &pol->sw);
	if (machine_apply_sysctl(r->m, scn_config(b->s, "sysctl", NULL), err, sizeof(err))) {
		/* checked with the scenario before the prefix ran */
		fprintf(stderr, "slowpath run: branch %s: [sysctl]: %s\n", b->name, err);
		return 1;
	}
	run_simulate(r, br->at, r->g->duration);
	rc = run_write(r);
	snprintf(head, sizeof(head), "; branch %s of a branched run (docs/branches.md): up to %.3f s the run "
		 "followed ../branches.ini, then this scenario (changes: %s); the command below repeats "
		 "the branched run\n", b->name, (double)br->at / 1e9, b->changes[0] ? b->changes : "none");
	if (!rc && write_scenario_file(dir, "scenario.ini", head, b->s, br->argc, br->argv, r->seed, 1, err,
				       sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	return rc;
}

/* Fork the branches, at most br->jobs at once, and wait for them.  A
 * failed branch stops new ones from starting.  0 or 1. */
static int fork_branches(struct run *r, const struct branch_run *br)
{
	pid_t *pid = xcalloc(br->nr, sizeof(*pid));
	size_t next = 0, running = 0;
	int rc = 0;

	for (int k = 0; k < NR_MONITORS; k++)
		if (r->smp.on[k])
			fflush(r->smp.files[k].f);
	if (r->prog->host_log)
		fflush(r->prog->host_log);
	fflush(stdout);
	fflush(stderr);
	while (next < br->nr || running) {
		int st;
		pid_t w;

		if (next < br->nr && running < br->jobs && !rc) {
			pid_t p = fork();

			if (p < 0) {
				fprintf(stderr, "slowpath run: fork for branch %s: %s\n", br->b[next].name,
					strerror(errno));
				rc = 1;
				continue;
			}
			if (p == 0) {
				int crc;

				r->prog->host_log = NULL;	/* the prefix's only */
				if (br->jobs > 1)
					r->prog->tty = false;	/* one status line at a time */
				crc = branch_child(r, br, &br->b[next]);
				fflush(stdout);
				fflush(stderr);
				_exit(crc);
			}
			pid[next++] = p;
			running++;
			continue;
		}
		if (!running)
			break;
		w = waitpid(-1, &st, 0);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "slowpath run: waitpid: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		running--;
		for (size_t i = 0; i < next; i++)
			if (pid[i] == w && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
				if (WIFSIGNALED(st))
					fprintf(stderr, "slowpath run: branch %s: killed by signal %d\n",
						br->b[i].name, WTERMSIG(st));
				rc = 1;
			}
	}
	free(pid);
	return rc;
}

/*
 * The branched run: set-up and the prefix as one run (its monitor files
 * in DIR.tmp/.prefix), then one child process per branch, each a copy of
 * the whole state at the branch instant that writes DIR.tmp/NAME; then
 * DIR.tmp/branches.ini.  0, 1 or 2.
 */
static int run_branched(const struct scenario *s, const struct branch_run *br, uint64_t seed,
			struct progress *prog, struct rpt_result *res)
{
	size_t n = strlen(br->stage) + 16;
	char *prefix = xmalloc(n), err[1024];
	struct run r = { .s = s, .g = scn_config(s, "global", NULL), .dir = prefix, .shown = br->out,
			 .iteration = 1, .seed = seed, .prog = prog, .res = res };
	char *head = NULL;
	size_t hlen = 0;
	FILE *h;
	int rc;

	snprintf(prefix, n, "%s/.prefix", br->stage);
	run_begin(&r, 1);
	rc = run_setup(&r);
	if (rc == 0) {
		run_simulate(&r, 0, br->at);
		rc = fork_branches(&r, br);
		for (int k = 0; k < NR_MONITORS; k++)
			if (r.smp.on[k])
				rpt_file_abort(&r.smp.files[k]);
	}
	run_teardown(&r);
	rpt_remove_tree(prefix);
	free(prefix);
	if (rc)
		return rc;
	h = open_memstream(&head, &hlen);
	if (!h)
		SIM_BUG("open_memstream failed");
	fprintf(h, "; a branched run (docs/branches.md): this scenario up to %.3f s, then one run per "
		"branch from that state, in the folder of its name; the command below repeats it\n",
		(double)br->at / 1e9);
	for (size_t i = 0; i < br->nr; i++)
		fprintf(h, "; branch %s: %s\n", br->b[i].name, br->b[i].changes[0] ? br->b[i].changes : "no change");
	fclose(h);
	if (write_scenario_file(br->stage, "branches.ini", head, s, br->argc, br->argv, seed, 1, err,
				sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	free(head);
	return rc;
}

/*
 * A run builds its folder beside the final one (OUT.tmp) and swaps it in
 * whole when everything is written, so re-running into a folder never
 * leaves a mix of old and new files (an old iter-3 beside new iter-1/2, a
 * stale tps.csv), and a run that stops early leaves the old folder as it
 * was and nothing under OUT.  An existing OUT that is not a result folder
 * (no result.json, not empty) is not replaced.
 */
static int check_out(const char *out)
{
	struct stat st;
	char *rj;
	bool ok;
	DIR *d;
	struct dirent *e;

	if (lstat(out, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "slowpath run: '%s' exists and is not a folder\n", out);
		return 2;
	}
	rj = malloc(strlen(out) + 20);
	if (!rj)
		SIM_BUG("out of memory");
	sprintf(rj, "%s/result.json", out);
	ok = access(rj, F_OK) == 0;
	sprintf(rj, "%s/branches.ini", out);	/* a branched run's folder */
	ok = ok || access(rj, F_OK) == 0;
	free(rj);
	d = ok ? NULL : opendir(out);
	if (d) {
		ok = true;
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				ok = false;
		closedir(d);
	}
	if (!ok) {
		fprintf(stderr, "slowpath run: '%s' exists and is not a result folder (no result.json "
			"or branches.ini); remove it or choose another --out\n", out);
		return 2;
	}
	return 0;
}

/* Put the finished stage in place of out (which may exist). */
static int swap_in(const char *stage, const char *out)
{
	struct stat st;

	if (lstat(out, &st) != 0) {
		if (rename(stage, out) == 0)
			return 0;
	} else if (renameat2(AT_FDCWD, stage, AT_FDCWD, out, RENAME_EXCHANGE) == 0) {
		rpt_remove_tree(stage);		/* the old folder, now under the stage's name */
		return 0;
	} else if (errno == EINVAL || errno == ENOSYS) {	/* no atomic exchange here */
		if (rpt_remove_tree(out) == 0 && rename(stage, out) == 0)
			return 0;
	}
	fprintf(stderr, "slowpath run: cannot put '%s' in place of '%s': %s\n", stage, out, strerror(errno));
	return 1;
}

int cli_cmd_run(int argc, char **argv)
{
	struct cli_args a;
	struct scn_schema *schema;
	struct scenario *s;
	struct progress prog = { 0 };
	struct rpt_result *res;
	struct run_branch *branches = NULL;
	size_t nr_branches = 0;
	sim_time_t branch_at = 0;
	char *out, *stage, err[1024];
	/* the command line as given: getopt permutes argv */
	char **given = malloc(((size_t)argc + 1) * sizeof(*given));
	int rc;

	if (!given)
		SIM_BUG("out of memory");
	memcpy(given, argv, ((size_t)argc + 1) * sizeof(*given));
	rc = cli_parse_args(argc, argv, true, &a, cli_run_help);
	uint64_t seed;

	if (rc) {
		cli_args_release(&a);
		free(given);
		return rc == 1 ? 0 : rc;
	}
	schema = scn_schema_create();
	s = cli_load_scenario(schema, &a);
	if (!s || branch_setup(schema, &a, s, &branch_at, &branches, &nr_branches)) {
		scn_destroy(s);
		scn_schema_destroy(schema);
		cli_args_release(&a);
		free(given);
		return 2;
	}
	out = a.out ? strdup(a.out) : default_out(a.scenario);
	res = calloc(a.iterations, sizeof(*res));
	stage = out ? malloc(strlen(out) + 8) : NULL;
	if (!out || !res || !stage)
		SIM_BUG("out of memory");
	while (strlen(out) > 1 && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	sprintf(stage, "%s.tmp", out);
	rc = check_out(out);
	if (rc)
		goto done;
	rpt_remove_tree(stage);		/* left by a run that was stopped */
	prog.tty = isatty(STDERR_FILENO) == 1;
	/* SLOWPATH_PROGRESS_INTERVAL: seconds between updates (tests use 0) */
	prog.every = getenv("SLOWPATH_PROGRESS_INTERVAL") ? atof(getenv("SLOWPATH_PROGRESS_INTERVAL")) : 0.5;
	prog.iterations = a.iterations;
	if (getenv("SLOWPATH_HOST_LOG") && *getenv("SLOWPATH_HOST_LOG")) {
		prog.host_log = fopen(getenv("SLOWPATH_HOST_LOG"), "w");
		if (!prog.host_log) {
			fprintf(stderr, "slowpath run: SLOWPATH_HOST_LOG=%s: %s\n", getenv("SLOWPATH_HOST_LOG"),
				strerror(errno));
			rc = 2;
			goto done;
		}
	}
	seed = ((const struct scn_global *)scn_config(s, "global", NULL))->seed;
	if (nr_branches) {
		struct branch_run br = { branches, nr_branches, branch_at, a.jobs, stage, out, argc, given };

		rc = run_branched(s, &br, seed, &prog, &res[0]);
		if (!rc)
			rc = swap_in(stage, out);
		if (rc)
			rpt_remove_tree(stage);
		goto done;
	}
	if (a.iterations == 1) {
		rc = run_once(s, stage, out, 1, seed, &prog, &res[0]);
	} else {
		if (rpt_mkdir_p(stage, err, sizeof(err))) {
			fprintf(stderr, "slowpath run: %s\n", err);
			rc = 1;
		}
		for (unsigned int k = 1; k <= a.iterations && !rc; k++) {
			size_t n = strlen(out) + 32;
			char *dir = malloc(n), *shown = malloc(n);

			if (!dir || !shown)
				SIM_BUG("out of memory");
			snprintf(dir, n, "%s/iter-%u", stage, k);
			snprintf(shown, n, "%s/iter-%u", out, k);
			rc = run_once(s, dir, shown, k, seed + k - 1, &prog, &res[k - 1]);
			free(dir);
			free(shown);
		}
	}
	/* scenario.ini, then the aggregate result.json last: the folder is
	 * complete when it is swapped in */
	if (!rc && write_scenario_ini(stage, s, argc, given, seed, a.iterations, err, sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	if (!rc && a.iterations > 1 && rpt_result_write_aggregate(stage, res, a.iterations, err, sizeof(err))) {
		fprintf(stderr, "slowpath run: %s\n", err);
		rc = 1;
	}
	if (!rc)
		rc = swap_in(stage, out);
	if (rc)
		rpt_remove_tree(stage);
done:
	if (prog.host_log)
		fclose(prog.host_log);
	for (unsigned int k = 0; k < a.iterations; k++)
		rpt_result_release(&res[k]);
	free(res);
	free(out);
	free(stage);
	free(given);
	branch_release(branches, nr_branches);
	scn_destroy(s);
	scn_schema_destroy(schema);
	cli_args_release(&a);
	return rc;
}
