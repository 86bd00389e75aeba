/* SPDX-License-Identifier: MIT */
/*
 * load.h — reading result folders (docs/results.md, schema
 * slowpath-result/1) for compare, explain and report.  This is the reading
 * side only; writing is result.h.  It follows the documented schema, not
 * the writer's code, so simulated and recorded folders load alike.
 *
 * A *set* is what one command-line argument names: a plain result folder
 * (one sample) or a folder of iterations (DIR/result.json with
 * "iterations": N and DIR/iter-1 ... DIR/iter-N, one sample each).
 *
 * Errors: "<path>: message" or "<path>:<line>: message" in err, return -1.
 */
#ifndef SLOWPATH_REPORT_LOAD_H
#define SLOWPATH_REPORT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/xalloc.h"

/* Grow *v (element size sz) so that it holds at least want elements. */
void rpt_grow(void *v, size_t *cap, size_t want, size_t sz);

/* snprintf into err; returns -1 (for "return rpt_errf(...)"). */
int rpt_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Whole file into a NUL-terminated buffer; NULL with err on failure. */
char *rpt_read_file(const char *path, size_t *len, char *err, size_t errlen);

/* DIR/proc-diskstats, every sample parsed (ds[k] is sample k of m), times
 * increasing: 1 loaded, 0 no such file, -1 error ("path:line: ...").
 * Release with rpt_diskstats_release() whatever the return value. */
struct proc_monitor;
struct proc_diskstats;
struct rpt_diskstats {
	char			*path;
	struct proc_monitor	*m;	/* the samples */
	struct proc_diskstats	*ds;	/* [m->n] */
};
int rpt_read_diskstats(const char *dir, struct rpt_diskstats *out, char *err, size_t errlen);
void rpt_diskstats_release(struct rpt_diskstats *d);
/* DIR/trace-counts the same way: tc[k] is sample k of m.  Release with
 * rpt_trace_counts_release() whatever the return value. */
struct trace_counts;
struct rpt_trace_counts {
	char			*path;
	struct proc_monitor	*m;
	struct trace_counts	*tc;	/* [m->n] */
};
int rpt_read_trace_counts(const char *dir, struct rpt_trace_counts *out, char *err, size_t errlen);
void rpt_trace_counts_release(struct rpt_trace_counts *t);
/* DIR/proc-stat the same way: st[k] is sample k of m.  Release with
 * rpt_stat_release() whatever the return value. */
struct proc_stat;
struct rpt_stat {
	char			*path;
	struct proc_monitor	*m;
	struct proc_stat	*st;	/* [m->n] */
};
int rpt_read_stat(const char *dir, struct rpt_stat *out, char *err, size_t errlen);
void rpt_stat_release(struct rpt_stat *s);
/* DIR/FILE, a monitor of /proc samples (docs/results.md), parsed into *m;
 * *path is the file's name (the caller frees it).  1 loaded, 0 no such
 * file, -1 error in err. */
int rpt_read_monitor(const char *dir, const char *file, char **path, struct proc_monitor *m,
		     char *err, size_t errlen);
/* An error about an offset inside one sample ("PATH:N: ...") made about the
 * whole file: N counted from the sample's first line. */
void rpt_rebase_error(char *err, size_t errlen, const char *path, unsigned int first_line);

/* Ordered name -> value list (first-seen order; later duplicates ignored). */
struct rpt_named {
	char	*name;
	double	value;
	char	*unit;		/* figures only, else NULL */
};

struct rpt_named_list {
	struct rpt_named *v;
	size_t	n, cap;
};

void rpt_named_set(struct rpt_named_list *l, const char *name, double value, const char *unit);
const struct rpt_named *rpt_named_find(const struct rpt_named_list *l, const char *name);
void rpt_named_release(struct rpt_named_list *l);

/* tps.csv: interval_end_s,tps,lat_avg_ms,lat_max_ms */
struct rpt_series {
	size_t	n, cap;
	double	*t, *tps, *lat_avg, *lat_max;
};

/* Parse tps.csv text (modified in place: lines are cut). */
int rpt_series_parse(const char *path, char *text, struct rpt_series *s, char *err, size_t errlen);
void rpt_series_release(struct rpt_series *s);

/* waits.csv (report/result.h): the header's event names (at most
 * RPT_WAITS_MAX_COLS, a-z 0-9 _) and per row its end (increasing) and
 * each event's % (>= 0); v is n x m. */
#define RPT_WAITS_MAX_COLS	64
struct rpt_waits {
	size_t	n, m;
	double	*t, *v;
	char	**names;
};

/* Parse waits.csv text (modified in place).  0, or -1 with "path:line: ..."
 * and nothing to release. */
int rpt_waits_parse(const char *path, char *text, struct rpt_waits *w, char *err, size_t errlen);
/* wal.csv (report/result.h): the same layout, pg_stat_wal's counters per
 * interval; wal_fpi and wal_bytes must be among the columns, and their
 * indexes in w->names are returned. */
int rpt_wal_parse(const char *path, char *text, struct rpt_waits *w, size_t *fpi_col, size_t *bytes_col,
		  char *err, size_t errlen);
void rpt_waits_release(struct rpt_waits *w);

/* latency-hist.csv: lo_ns,hi_ns,count per non-empty bucket, ascending. */
struct rpt_lat_hist {
	size_t	n, cap;
	double	*lo, *hi, *count;	/* ns, ns, transactions */
};

int rpt_lat_hist_parse(const char *path, char *text, struct rpt_lat_hist *h, char *err, size_t errlen);
void rpt_lat_hist_release(struct rpt_lat_hist *h);

/*
 * Times a profile node carries: the first RPT_NR_PROFILE_TIMES are
 * profile.json's "self" keys; RPT_T_IDLE is never read from a file, it is
 * the part of sleep that explain classifies as idle waiting (explain.c).
 */
enum rpt_time {
	RPT_T_CPU, RPT_T_SPIN, RPT_T_SLEEP, RPT_T_IO, RPT_T_RUNQ,
	RPT_NR_PROFILE_TIMES,
	RPT_T_IDLE = RPT_NR_PROFILE_TIMES,
	RPT_NR_TIMES
};
extern const char *const rpt_time_names[RPT_NR_TIMES];

/*
 * Call-path tree.  Node 0 is a synthetic super-root; its children are the
 * task kinds' roots (name = kind).  Children are linked in first-seen
 * order.  Values are doubles so merged trees can hold means.
 */
#define RPT_PROF_NONE	0u
struct rpt_prof_node {
	char		*name;
	uint32_t	parent, first_child, last_child, next_sibling;
	double		tasks;			/* kind roots only */
	double		calls;
	double		self[RPT_NR_TIMES];	/* ns */
	double		total[RPT_NR_TIMES];	/* self + children, rpt_profile_totals() */
};

struct rpt_profile {
	struct rpt_prof_node *v;
	size_t		n, cap;
	bool		has_from;	/* counted from ramp_time: "from_ns" */
	double		from_ns;
};

void rpt_profile_init(struct rpt_profile *p);
/* Child of parent named name; created (zeroed) when create is set, else
 * RPT_PROF_NONE when absent. */
uint32_t rpt_profile_child(struct rpt_profile *p, uint32_t parent, const char *name, bool create);
/* dst += scale * src, matching nodes by path. */
void rpt_profile_merge(struct rpt_profile *dst, const struct rpt_profile *src, double scale);
/* The subtree at src node s added into dst node d (names matched by path
 * below them; d's own name is left alone). */
void rpt_profile_merge_at(struct rpt_profile *dst, uint32_t d, const struct rpt_profile *src,
			  uint32_t s, double scale);
void rpt_profile_totals(struct rpt_profile *p);
void rpt_profile_release(struct rpt_profile *p);
int rpt_profile_parse(const char *path, const char *text, struct rpt_profile *out,
		      char *err, size_t errlen);

/* One result folder (one iteration). */
/* A span of a folder's time axis, in seconds from its start (the first
 * monitor sample; tps.csv's interval ends count from the same start). */
struct rpt_window {
	double	from, to;	/* to = INFINITY for "end" */
};

/* A window list "A-B,C-D" (seconds, A >= 0, B >= A or "end"); at most max. */
int rpt_parse_windows(const char *spec, struct rpt_window *w, unsigned int max,
		      unsigned int *n, char *err, size_t errlen);

struct rpt_run {
	char		*dir;
	char		*source, *policy, *scenario, *kernel_release;
	uint64_t	seed;
	unsigned int	iteration;
	double		virtual_seconds, measure_seconds;
	/* rpt_sets_window: every row below is the window's, not the measured
	 * phase's (figures are dropped; measure_seconds is the vmstat span) */
	bool		windowed;
	struct rpt_window window;
	bool		has_tps;
	double		tps;
	bool		has_latency;
	double		latency[5];		/* avg p50 p95 p99 max, ms */
	struct rpt_named_list vmstat;		/* deltas over the measured phase */
	struct rpt_named_list per_million;	/* per 10^6 nr_written */
	struct rpt_named_list figures;
	bool		has_series;
	struct rpt_series series;
	bool		has_lat_hist;
	struct rpt_lat_hist lat_hist;
	bool		has_profile;
	struct rpt_profile profile;
	struct rpt_named_list iostat;		/* RPT_LOAD_IOSTAT: "DISK COLUMN" -> value */
	struct rpt_named_list tracepoints;	/* RPT_LOAD_TRACE: "subsystem:event" -> hits/s */
	struct rpt_named_list cpu;		/* RPT_LOAD_CPU: rpt_cpu_rows -> value */
};

extern const char *const rpt_latency_names[5];

#define RPT_LOAD_SERIES		0x1u	/* tps.csv, latency-hist.csv (optional files) */
#define RPT_LOAD_PROFILE	0x2u	/* profile.json (optional file) */
/* proc-diskstats (optional file) over the measured phase (or the window
 * of rpt_sets_window), as iostat -x
 * prints it per disk with I/O in that span: r/s, w/s, rkB/s, wkB/s,
 * r_await, w_await (ms), wareq-sz (kB), f/s, f_await (ms), aqu-sz, %util */
#define RPT_LOAD_IOSTAT		0x4u
/* trace-counts (optional file): each tracepoint's hits per second over
 * the measured phase or window (the same two samples as RPT_LOAD_IOSTAT) */
#define RPT_LOAD_TRACE		0x8u
/* proc-stat (optional file) over the same two samples: the CPU time's
 * split in % of all CPUs' time (user, nice, system, irq, softirq, steal,
 * iowait, idle), the CPUs busy on average (all but idle and iowait;
 * steal included, as the time a vCPU wanted to run),
 * context switches a second and, with a TPS, the busy, user (user and
 * nice) and kernel (system, irq, softirq) CPU time per transaction in us;
 * names in rpt_cpu_rows' order */
#define RPT_LOAD_CPU		0x10u
extern const char *const rpt_cpu_rows[];	/* NULL-terminated */

/* A result folder's scenario.ini as key/value pairs ("[section] key"), in
 * file order (scndiff.c). */
struct rpt_scn_kv {
	char	*key;
	char	*value;
};

struct rpt_scn_file {
	bool		present;	/* the folder has a scenario.ini */
	struct rpt_scn_kv *v;
	size_t		n, cap;
};

/* Read DIR/scenario.ini: 0 (present false when there is none) or -1 with
 * "DIR/scenario.ini:LINE: ..." for a line that is not "[section]",
 * "key=value" or a comment. */
int rpt_scn_file_read(const char *dir, struct rpt_scn_file *out, char *err, size_t errlen);
void rpt_scn_file_release(struct rpt_scn_file *f);

struct rpt_set {
	char		*path;		/* as given */
	char		*name;		/* label: basename unless renamed */
	bool		iterated;	/* DIR/iter-N layout */
	unsigned int	nr_runs;
	struct rpt_run	*runs;
	struct rpt_scn_file scenario;	/* a folder of iterations': its own; else its first run's */
};

int rpt_run_load(struct rpt_run *r, const char *dir, unsigned int flags, char *err, size_t errlen);
void rpt_run_release(struct rpt_run *r);
int rpt_set_load(struct rpt_set *s, const char *path, unsigned int flags, char *err, size_t errlen);
void rpt_set_release(struct rpt_set *s);
/* A set of separate result folders, one sample each (a sweep column: its
 * seeds are its iterations); label is shown as the set's path.  On error
 * the caller still releases the set. */
int rpt_set_load_runs(struct rpt_set *s, const char *label, const char *name, char *const *dirs,
		      unsigned int n, unsigned int flags, char *err, size_t errlen);
/* Mean of the value `name` in one named list of each run (the list at
 * offsetof(struct rpt_run, figures/vmstat/...)) over the runs that have
 * it; *used (may be NULL) counts them; NaN when none does. */
double rpt_set_named_mean(const struct rpt_set *s, size_t list_off, const char *name,
			  unsigned int *used);
/* Mean profile over the set's runs that carry one; false when none does. */
bool rpt_set_profile(const struct rpt_set *s, struct rpt_profile *out);

/* Load several sets; on error releases what was loaded and returns -1. */
int rpt_sets_load(struct rpt_set *sets, int n, char **paths, unsigned int flags,
		  char *err, size_t errlen);
void rpt_sets_release(struct rpt_set *sets, int n);

/*
 * Restrict loaded sets to a window of each folder's time: tps and the
 * latency avg and max from tps.csv's intervals inside it (p50/p95/p99 and
 * the figures, whole-run numbers, are dropped), vmstat, per-million,
 * iostat and tracepoint rows from the monitors' first and last samples
 * inside it.  The flags are the ones the sets were loaded with.  -1 with
 * "path: message" when a folder has the file but not two samples (or one
 * whole interval) inside the window.
 */
int rpt_sets_window(struct rpt_set *sets, int n, const struct rpt_window *w, unsigned int flags,
		    char *err, size_t errlen);

/* "a,b,c" -> names of sets; error when the count differs. */
int rpt_sets_rename(struct rpt_set *sets, int n, const char *list, char *err, size_t errlen);

#endif
