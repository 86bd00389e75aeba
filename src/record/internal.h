/* SPDX-License-Identifier: MIT */
/*
 * internal.h — the recorder's pieces, shared by the src/record/ files and its
 * unit test (not used outside src/record/).
 *
 *   source.c   where /proc text and time come from: the live kernel, or a
 *              directory of captured files replayed on a virtual clock
 *   runner.c   the command: fork + execvp (no shell) in its own process
 *              group, waiting with signals blocked, stopping it
 *   metrics.c  the benchmark's own numbers (--metrics-from FILE)
 *   record.c   options, the sampling loop, the result folder
 */
#ifndef SLOWPATH_RECORD_INTERNAL_H
#define SLOWPATH_RECORD_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "report/result.h"

#define NS_PER_SEC	1000000000ull

/* ---- source.c: the proc-source interface -------------------------------
 *
 * Live:    files are read from /proc; now() is CLOCK_MONOTONIC since the
 *          source was opened, epoch from CLOCK_REALTIME at that moment;
 *          wait_until() sleeps in sigtimedwait() so a blocked SIGCHLD,
 *          SIGINT, SIGTERM or SIGHUP ends the wait at once.
 * Replay:  --proc-root DIR.  Either DIR/0001/, DIR/0002/, ... (one
 *          directory per sample, consumed one per interval) or DIR itself
 *          (one snapshot, read at every sample).  Time is virtual: sample k
 *          is at (k-1) * interval, wait_until() returns at once (after
 *          looking for a pending signal), and the epoch is DIR/start-epoch
 *          (integer seconds) or 0.  Nothing depends on the host clock, so a
 *          replay gives the same result folder byte for byte.
 * Files read once per run (sys/kernel/osrelease, stat) come from the root
 * (/proc or DIR) in both modes.
 */
struct rec_text {
	char		*buf;		/* NUL-terminated; reused between reads */
	size_t		len, cap;
	char		path[4096];	/* the path last read, for messages */
};

struct rec_source;

struct rec_source_ops {
	const char	*name;		/* "live" | "replay" */
	/* Read FILE of the current sample (per_sample) or of the root into
	 * t.  0, or -errno (ENOENT, EACCES, EISDIR, EIO, EILSEQ for a NUL
	 * byte in the text) with t->path set. */
	int		(*read)(struct rec_source *s, const char *file, bool per_sample,
				struct rec_text *t);
	/* The entries of directory DIR (as read resolves a file), sorted by
	 * name, "." and ".." left out: 0 with *names (each and the array
	 * freed by the caller) and *n, or -errno with `path` set. */
	int		(*list)(struct rec_source *s, const char *dir, bool per_sample,
				char ***names, size_t *n, char *path, size_t pathlen);
	/* Make sample `k` (1-based) current; false when a replay has no
	 * sample k (live sources always have one). */
	bool		(*select)(struct rec_source *s, unsigned int k);
	/* ns since the source was opened. */
	uint64_t	(*now)(struct rec_source *s);
	/* Wait until now() >= t, or until one of `set` is delivered: returns
	 * 0 at t, else the signal number (consumed). */
	int		(*wait_until)(struct rec_source *s, uint64_t t, const sigset_t *set);
};

/* Files are named relative to the proc root ("vmstat", "sys/kernel/
 * osrelease"), except "debugfs/...", which a live source reads from
 * /sys/kernel/debug and a replay from its sample directory like the rest,
 * and "perf/tracepoints", which a live source makes by counting (perf.c)
 * and a replay reads from its sample directory. */
struct rec_perf;
struct rec_source {
	const struct rec_source_ops *ops;
	char		*root;		/* "/proc" or DIR */
	int64_t		epoch_ns;	/* host epoch (or replay start-epoch) at now() = 0 */
	/* live */
	int64_t		mono0_ns;
	struct rec_perf	*perf;		/* opened at the first perf/tracepoints read */
	/* replay */
	unsigned int	nr_samples;	/* numbered sample directories; 0 = one snapshot */
	unsigned int	cur;		/* current sample */
	uint64_t	vnow;		/* virtual ns */
};

/* Open the live kernel (root "/proc"), or a replay directory when
 * proc_root is set.  0 or -1 with a message. */
int rec_source_open(struct rec_source *s, const char *proc_root, char *err, size_t errlen);
void rec_source_close(struct rec_source *s);
void rec_text_release(struct rec_text *t);
/* Make t's text a copy of the len bytes at s (a NUL is added).  0 or
 * -ENOMEM (t unchanged). */
int rec_text_set(struct rec_text *t, const char *s, size_t len);
/* Read a whole file into t (used by the sources and by metrics.c). */
int rec_read_file(const char *path, struct rec_text *t);
/* The same, refusing (-EFBIG) a file longer than `max` bytes: what the
 * user names (--metrics-from) might be anything, a device included. */
int rec_read_file_max(const char *path, struct rec_text *t, size_t max);
/* Read caps: /proc and sysfs files (the largest, pagetypeinfo and
 * zoneinfo on a big machine, are well under 1 MiB); a metrics file. */
#define REC_MAX_PROC_BYTES	(64u << 20)
#define REC_MAX_METRICS_BYTES	(16u << 20)

/* ---- perf.c: tracepoint counts ---------------------------------------- */

/* The trace-counts sample text (rpt_trace_events' order, those the kernel
 * has), opening the counters at the first call (*p == NULL).  0, or
 * -errno with t->path set (the first failure is kept and returned again). */
int rec_perf_read(struct rec_perf **p, struct rec_text *t);
void rec_perf_close(struct rec_perf *p);
/* In the recorded command, after fork: the descriptor limit as it was
 * before the counters raised it. */
void rec_perf_child_limits(void);

/* ---- runner.c: the command ------------------------------------------- */

struct rec_child {
	pid_t		pid;		/* also its process group */
	bool		running;
	int		wstatus;	/* waitpid() status once it ended */
};

/* The signals the recorder blocks and waits for; install/restore them
 * around a recording (rec_main may run inside a test program). */
struct rec_signals {
	sigset_t	set;		/* SIGCHLD, SIGINT, SIGTERM, SIGHUP (not if ignored on entry) */
	sigset_t	old_mask;
	struct sigaction old_chld;
};
void rec_signals_block(struct rec_signals *sg);
void rec_signals_restore(struct rec_signals *sg);

/* fork + execvp argv[0] in a new process group, signals as the recorder
 * found them.  0, or -1 with "cannot run 'x': reason" when exec failed. */
int rec_child_start(struct rec_child *c, char *const argv[], const struct rec_signals *sg,
		    char *err, size_t errlen);
/* Reap the child if it has ended (non-blocking).  true if it has. */
bool rec_child_poll(struct rec_child *c);
/* Wait for the child to end by itself, unless one of SIGINT/SIGTERM/SIGHUP
 * arrives first: then return that signal number (child still running). */
int rec_child_wait(struct rec_child *c, const struct rec_signals *sg);
/* Send `sig` to the child's process group, wait up to grace_ns for it to
 * end, then SIGKILL the group and reap it. */
void rec_child_stop(struct rec_child *c, int sig, uint64_t grace_ns, const struct rec_signals *sg);
/* Shell convention: exit code, or 128 + signal. */
int rec_child_exit_status(const struct rec_child *c);

/* ---- metrics.c: --metrics-from FILE ---------------------------------- */

struct rec_interval {
	double		end_s, tps, lat_avg_ms, lat_max_ms;
};

/* wal.csv's columns (report/result.h), as the model writes them */
#define REC_WAL_COLS 9
extern const char *const rec_wal_cols[REC_WAL_COLS];

struct rec_metrics {
	bool		has_transactions;
	uint64_t	transactions;
	double		tps;
	struct rpt_latency latency;
	struct rec_interval *iv;	/* the TPS time series (tps.csv) */
	size_t		nr_iv, cap_iv;
	struct rpt_figure *fig;		/* owned name/unit strings */
	size_t		nr_fig, cap_fig;
	/* "waits" lines (waits.csv): the event names in first-seen order
	 * (owned), each row's end, and the (row, column, %) cells given */
	char		**wait_col;
	size_t		nr_wait_col, cap_wait_col;
	double		*wait_end;
	size_t		nr_wait_row, cap_wait_row;
	struct rec_wait_cell { size_t row, col; double pct; } *wait_cell;
	size_t		nr_wait_cell, cap_wait_cell;
	/* "checkpoint" lines (checkpoints.csv): start, write, sync, total
	 * (s) and buffers, the last four NaN for one still running */
	double		(*ckpt)[5];
	size_t		nr_ckpt, cap_ckpt;
	/* "wal" lines (wal.csv): each interval's end and its pg_stat_wal
	 * differences, in rec_wal_cols' order */
	double		(*wal)[REC_WAL_COLS];
	size_t		nr_wal, cap_wal;
};

/* Parse a metrics file (format in docs/record.md).  0 or -1 with
 * "path:line: message". */
int rec_metrics_parse(const char *path, const char *text, struct rec_metrics *m,
		      char *err, size_t errlen);
void rec_metrics_release(struct rec_metrics *m);

/* ---- record.c: time stamps and durations ------------------------------ */

/* A monitor sample's time stamp for epoch time e (ns), given the sample
 * before's (prev_ns, -1 for none): whole seconds when `whole`, unless
 * that second is the previous stamp's, then to the ns. */
void rec_monitor_stamp(int64_t prev_ns, int64_t e, bool whole, char *buf, size_t len);

/* "1s", "250ms", "2m", "1.5" (seconds): ns > 0.  0 or -1. */
int rec_parse_duration(const char *s, uint64_t *ns);

#endif
