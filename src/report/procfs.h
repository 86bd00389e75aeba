/* SPDX-License-Identifier: MIT */
/*
 * procfs.h — parsers for the kernel's /proc text formats (vmstat,
 * buddyinfo, pagetypeinfo, zoneinfo, meminfo, diskstats, stat) and for mmtests-layout
 * monitor files ("time: <t>" + text, repeated).  Shared by the recorder
 * (which reads a real kernel) and the report code (which reads any result
 * folder); they never touch the model.
 *
 * Errors are precise: "<path>:<line>: message"; a parser never crashes on
 * malformed or truncated input (fuzzed: tests/fuzz/fuzz_procfs.c).
 */
#ifndef SLOWPATH_REPORT_PROCFS_H
#define SLOWPATH_REPORT_PROCFS_H

#include <stddef.h>
#include <stdint.h>

#include "report/result.h"

#define PROC_MAX_ORDERS	16
#define PROC_MAX_ZONES	64	/* zoneinfo lists every zone of every node: 5 per node on x86-64 */
#define PROC_MAX_MT	8

/* /proc/vmstat and /proc/meminfo: ordered name -> value (meminfo in kB). */
int proc_parse_vmstat(const char *path, const char *text, struct rpt_counters *out,
		      char *err, size_t errlen);
int proc_parse_meminfo(const char *path, const char *text, struct rpt_counters *out,
		       char *err, size_t errlen);

struct proc_buddyinfo_zone {
	int		node;
	char		zone[16];
	unsigned int	nr_orders;
	uint64_t	free[PROC_MAX_ORDERS];	/* free blocks per order */
};
struct proc_buddyinfo {
	struct proc_buddyinfo_zone z[PROC_MAX_ZONES];
	unsigned int	nr;
};
int proc_parse_buddyinfo(const char *path, const char *text, struct proc_buddyinfo *out,
			 char *err, size_t errlen);

struct proc_pagetypeinfo_zone {
	int		node;
	char		zone[16];
	uint64_t	free[PROC_MAX_MT][PROC_MAX_ORDERS];
	uint64_t	blocks[PROC_MAX_MT];
};
struct proc_pagetypeinfo {
	unsigned int	pageblock_order;
	unsigned int	nr_orders;
	unsigned int	nr_types;
	char		types[PROC_MAX_MT][16];	/* "Unmovable", "Movable", ... in file order */
	struct proc_pagetypeinfo_zone z[PROC_MAX_ZONES];
	unsigned int	nr;
};
int proc_parse_pagetypeinfo(const char *path, const char *text, struct proc_pagetypeinfo *out,
			    char *err, size_t errlen);

struct proc_zoneinfo_zone {
	int		node;
	char		zone[16];
	uint64_t	free, boost, min, low, high, promo, spanned, present, managed;
	struct rpt_counters stats;	/* nr_free_pages, nr_zone_*, ... */
	/* the per-CPU lists ("pagesets"): CPUs listed, and their "count"
	 * and "high" summed over them */
	uint64_t	pcp_cpus, pcp_count, pcp_high;
};
struct proc_zoneinfo {
	struct proc_zoneinfo_zone z[PROC_MAX_ZONES];
	unsigned int	nr;
	struct rpt_counters node_stats;	/* the "per-node stats" block */
};
int proc_parse_zoneinfo(const char *path, const char *text, struct proc_zoneinfo *out,
			char *err, size_t errlen);
void proc_zoneinfo_release(struct proc_zoneinfo *zi);

/*
 * /proc/diskstats (block/genhd.c diskstats_show): "major minor name" and
 * 11 counters (kernels before 4.18), 15 (with discards, 4.18) or 17
 * (with flushes, 5.5 on); the columns a kernel lacks read 0.  Names are
 * unique; lines keep the file's order.
 */
enum {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECTORS, DS_RD_MS, DS_WR_IOS, DS_WR_MERGES, DS_WR_SECTORS,
	DS_WR_MS, DS_IN_FLIGHT, DS_IO_MS, DS_QUEUE_MS, DS_DC_IOS, DS_DC_MERGES, DS_DC_SECTORS,
	DS_DC_MS, DS_FL_IOS, DS_FL_MS, DS_NR_FIELDS
};
struct proc_diskstats_disk {
	unsigned int	major, minor;
	char		name[40];		/* DISK_NAME_LEN is 32 */
	unsigned int	nr_fields;		/* 11, 15 or 17 as read */
	uint64_t	f[DS_NR_FIELDS];
};
struct proc_diskstats {
	struct proc_diskstats_disk *d;
	size_t		n;
};
int proc_parse_diskstats(const char *path, const char *text, struct proc_diskstats *out,
			 char *err, size_t errlen);
void proc_diskstats_release(struct proc_diskstats *ds);
/* Growth of counter f from x to y.  The kernel prints the millisecond
 * columns as unsigned int (diskstats_show), so they wrap at 2^32 ms
 * (49.7 days of a one-deep queue): a fall there is taken as one wrap.
 * Other counters are 64-bit; a fall there is returned negative (the
 * disk was re-created). */
double proc_diskstats_delta(const struct proc_diskstats_disk *x,
			    const struct proc_diskstats_disk *y, int f);
/* The disk called `name`, or NULL. */
const struct proc_diskstats_disk *proc_diskstats_find(const struct proc_diskstats *ds,
						      const char *name);

/*
 * /proc/stat (fs/proc/stat.c show_stat): the "cpu" line and one "cpuN"
 * line per CPU with 10 columns in USER_HZ ticks (older kernels print
 * fewer: 4 before 2.5.41, 7, 8, 9; the columns a kernel lacks read 0),
 * then "intr TOTAL ...", "ctxt", "btime", "processes", "procs_running",
 * "procs_blocked", "softirq TOTAL ...".
 */
enum {
	STAT_USER, STAT_NICE, STAT_SYSTEM, STAT_IDLE, STAT_IOWAIT, STAT_IRQ, STAT_SOFTIRQ,
	STAT_STEAL, STAT_GUEST, STAT_GUEST_NICE, STAT_NR_CPU_FIELDS
};
struct proc_stat {
	uint64_t	cpu[STAT_NR_CPU_FIELDS];	/* the "cpu" line: all CPUs */
	uint64_t	(*percpu)[STAT_NR_CPU_FIELDS];	/* [nr_cpus], "cpuN" in file order */
	unsigned int	nr_cpus;
	uint64_t	intr, ctxt, btime, processes, procs_running, procs_blocked, softirq;
};
/* The "cpu" line comes first; "cpuN" lines with N increasing (offline
 * CPUs are left out, so the numbers may skip); "ctxt" is required, the
 * other single lines are optional (0 when absent) but at most once;
 * unknown lines are skipped (a newer kernel).  Release whatever the
 * return value. */
int proc_parse_stat(const char *path, const char *text, struct proc_stat *out, char *err, size_t errlen);
void proc_stat_release(struct proc_stat *st);

/*
 * One sample of a debugfs-wbt monitor (simulated: src/cli/run.c; recorded:
 * src/record/record.c): the header "# device member wb_normal
 * wb_background inflight ..." with its 19 columns, then a line per
 * throttle.  Every column but the device is a decimal number or "-" (a
 * value the source has not: a recording's member and model-only sums);
 * scale_step may be negative.  Kept: what both sources have.
 */
struct debugfs_wbt_line {
	char		device[40];
	uint64_t	wb_normal, wb_background, inflight;
};
struct debugfs_wbt {
	struct debugfs_wbt_line *v;
	size_t		n;
};
int debugfs_parse_wbt(const char *path, const char *text, struct debugfs_wbt *out,
		      char *err, size_t errlen);
void debugfs_wbt_release(struct debugfs_wbt *w);

/*
 * A trace-counts sample (report/result.h rpt_trace_events): "subsystem:
 * event count" lines, each tracepoint at most once, in any order, any of
 * them left out (a kernel without it); unknown names are errors.
 * present[i] says whether rpt_trace_events[i] had a line.
 */
struct trace_counts {
	uint64_t	count[RPT_NR_TRACE_EVENTS];
	bool		present[RPT_NR_TRACE_EVENTS];
};
int trace_parse_counts(const char *path, const char *text, struct trace_counts *out,
		       char *err, size_t errlen);

/* A monitor file: samples of (time, text). */
struct proc_monitor_sample {
	double		time;		/* seconds as printed */
	char		*text;
	unsigned int	first_line;	/* line number of the first text line, for errors */
};
struct proc_monitor {
	struct proc_monitor_sample *s;
	size_t		n;
};
int proc_parse_monitor(const char *path, const char *text, struct proc_monitor *out,
		       char *err, size_t errlen);
void proc_monitor_release(struct proc_monitor *m);

#endif
