/* SPDX-License-Identifier: MIT */
/*
 * result.h — writing a result folder (docs/results.md, schema
 * slowpath-result/1).  Used by `slowpath run` (simulated) and
 * `slowpath record` (recorded) alike, so both produce the same layout.
 *
 * Every file is written to NAME.tmp and renamed when complete;
 * result.json is written last.
 */
#ifndef SLOWPATH_REPORT_RESULT_H
#define SLOWPATH_REPORT_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An ordered list of named counters ("pgalloc_normal" -> 123), in the order
 * they were added (= /proc/vmstat order for vmstat). */
struct rpt_counter {
	char		*name;
	int64_t		value;	/* deltas may be negative for state counters */
};

struct rpt_counters {
	struct rpt_counter *v;
	size_t		n, cap;
};

void rpt_counters_add(struct rpt_counters *c, const char *name, int64_t value);
int64_t rpt_counters_get(const struct rpt_counters *c, const char *name, bool *found);
void rpt_counters_release(struct rpt_counters *c);

/*
 * Stall counters normalised per 10^6 pages written back, as the seeds
 * quote them: the keys (NULL-terminated), and one key's value from a
 * vmstat delta ("allocstall" sums every allocstall_<zone>).  False when
 * the delta lacks the counter or wrote nothing back.
 */
extern const char *const rpt_per_million_keys[];
bool rpt_per_million(const struct rpt_counters *vm, const char *key, double *out);

struct rpt_figure {
	char		*name;
	double		value;
	char		*unit;
};

struct rpt_latency {
	double		avg, p50, p95, p99, max;	/* ms */
};

struct rpt_result {
	const char	*source;		/* "simulated" | "recorded" */
	const char	*scenario;
	const char	*policy;
	uint64_t	seed;
	unsigned int	scale_n;		/* "1/N" */
	unsigned int	iteration;
	double		virtual_seconds, measure_seconds, wall_seconds;
	uint64_t	events;
	struct rpt_counters vmstat;		/* deltas over the measured phase */
	struct rpt_counters vmstat_end;		/* absolute at the end */
	bool		has_transactions;
	uint64_t	transactions;
	double		tps;
	struct rpt_latency latency;
	struct rpt_figure *figures;
	size_t		nr_figures, cap_figures;
	/* machine */
	uint64_t	memory_bytes;
	unsigned int	cpus;
	struct rpt_counters zones_managed;	/* zone name -> managed pages */
	/* recorded runs only (NULL/0 otherwise) */
	const char	*kernel_release;
	const char	*command;
	int		exit_status;
	int64_t		start_epoch;
	double		interval_seconds;
	uint64_t	samples;
	char		**missing;		/* "path: reason" strings */
	size_t		nr_missing;
};

void rpt_result_add_figure(struct rpt_result *r, const char *name, double value, const char *unit);
/* Append a "path: reason" line to r->missing (recorded runs); copied. */
void rpt_result_add_missing(struct rpt_result *r, const char *text);
/*
 * Write DIR/result.json atomically (keys in docs/results.md order;
 * per_million_written is computed here from r->vmstat's nr_written delta).
 * Returns 0 or -1 with err.
 */
int rpt_result_write(const char *dir, const struct rpt_result *r, char *err, size_t errlen);
/*
 * --iterations N: DIR/result.json summarising iteration results iters[0..n-1]
 * ("iterations": N, "aggregate": mean/stddev/min/max per metric, stddev
 * being the sample standard deviation, 0 for one iteration).
 */
int rpt_result_write_aggregate(const char *dir, const struct rpt_result *iters, unsigned int n,
			       char *err, size_t errlen);
/* Frees the counters, figures and missing lines (the const char * fields
 * are borrowed and left alone) and zeroes *r. */
void rpt_result_release(struct rpt_result *r);

/* mkdir -p DIR.  Returns 0 or -1 with err ("DIR: reason"). */
/* Remove a folder and everything under it (symbolic links are removed,
 * never followed).  0, or -1 with errno set. */
int rpt_remove_tree(const char *dir);
int rpt_mkdir_p(const char *dir, char *err, size_t errlen);

/* Atomic file writing: open DIR/NAME.tmp; commit renames to DIR/NAME. */
struct rpt_file {
	FILE	*f;
	char	*tmp_path, *final_path;
};
int rpt_file_open(struct rpt_file *rf, const char *dir, const char *name, char *err, size_t errlen);
/*
 * A file the user named (report --html PATH): a new or regular file is
 * written as PATH.tmp and renamed; anything else that exists — a device
 * (/dev/stdout, /dev/null), a FIFO, a symbolic link — is written in place
 * (tmp_path NULL), never replaced by a regular file.  A directory or an
 * empty path is refused.  0, or -1 with err.
 */
int rpt_file_open_path(struct rpt_file *rf, const char *path, char *err, size_t errlen);
int rpt_file_commit(struct rpt_file *rf, char *err, size_t errlen);	/* fclose + rename */
void rpt_file_abort(struct rpt_file *rf);				/* fclose + unlink */

/*
 * A CSV file of numbers in DIR (written as NAME.tmp, renamed): a header of
 * the column names, then nrows rows of ncols cells (row-major), column c
 * with decimals[c] decimals, a NaN cell empty.  Simulated and recorded
 * runs write their tables through it, so both have one layout:
 *   waits.csv        interval_end_s, then each wait event's share of the
 *                    client backends' time in the interval, % (names as
 *                    pg_stat_activity's, type_event in lower case; cpu for
 *                    none)
 *   checkpoints.csv  start_s,write_s,sync_s,total_s,buffers_written: each
 *                    checkpoint (log_checkpoints), a running one's last
 *                    four cells empty
 *   wal.csv          interval_end_s, then pg_stat_wal's growth in the
 *                    interval: wal_records, wal_fpi, wal_bytes,
 *                    wal_buffers_full, wal_write, wal_sync, wal_write_time
 *                    and wal_sync_time (ms)
 * 0, or -1 with err.
 */
int rpt_write_csv_table(const char *dir, const char *name, const char *const *cols,
			const unsigned char *decimals, unsigned int ncols, size_t nrows, const double *cells,
			char *err, size_t errlen);

/* Monitors in mmtests layout: "time: <t>\n" followed by the text (a final
 * newline is added when the text lacks one). */
void rpt_monitor_sample(FILE *f, const char *time_text, const char *text);
/* Virtual time as monitors print it: whole seconds ("10") when `whole`,
 * else three decimals ("10.250"). */
void rpt_format_monitor_time(char *buf, size_t len, uint64_t ns, bool whole);

/* The tracepoints of the trace-counts monitor, in its order, simulated
 * (cli/run.c) and recorded (record/perf.c): each sample has one
 * "subsystem:event count" line per tracepoint, the times it fired since
 * the run or recording started (docs/results.md; parsed by
 * report/procfs.c trace_parse_counts). */
#define RPT_NR_TRACE_EVENTS 11
extern const char *const rpt_trace_events[RPT_NR_TRACE_EVENTS];

/* The header line of each debugfs-wbt sample, simulated and recorded
 * (docs/results.md; parsed by report/procfs.c debugfs_parse_wbt). */
#define DEBUGFS_WBT_HEADER							\
	"# device member wb_normal wb_background inflight curr_win_nsec min_lat_nsec "	\
	"unknown_cnt scale_step max_depth waiting lat_ok lat_unknown lat_unknown_writes "	\
	"lat_exceeded depth_ms scaled_max_ms throttled throttled_us"

#endif
