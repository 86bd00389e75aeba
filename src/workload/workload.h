/* SPDX-License-Identifier: MIT */
/*
 * workload.h — the workload registry and the measurements every workload
 * reports the same way.
 *
 * A workload type is a section kind in a scenario file: `[pgbench]`,
 * `[fio NAME]`, `[fragment NAME]`, `[synthetic NAME]`.  Its option table
 * describes its keys; start_env() creates its tasks on the machine; report()
 * fills the generic result (transactions, latency, extra figures) that
 * report/ writes into result.json, tps.csv and the compare tables.
 */
#ifndef SLOWPATH_WORKLOAD_WORKLOAD_H
#define SLOWPATH_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/option.h"
#include "sim/sim.h"

struct machine;
struct machine_config;
struct bdev;
struct bdev_config;

/*
 * Transaction statistics.  A workload calls wl_stats_tx() once per
 * completed transaction/operation with its latency; the recorder keeps a
 * latency histogram (HDR-style log-linear buckets, <= 1 % relative error)
 * and per-interval counts for the TPS time series.  Only transactions
 * completing after the measurement start (ramp_time) count.
 */
#define WL_LAT_BUCKETS	2048

struct wl_stats {
	sim_time_t	measure_start;		/* ns; set by the run driver */
	sim_time_t	interval_ns;		/* TPS time-series step (default 10 s for pgbench --progress) */
	uint64_t	transactions;
	uint64_t	lat_sum_ns;
	uint64_t	lat_max_ns;
	uint64_t	lat_hist[WL_LAT_BUCKETS];
	uint64_t	*interval_tx;		/* per interval since measure_start */
	uint64_t	*interval_lat_sum;
	uint64_t	*interval_lat_max;	/* ns, per interval */
	uint32_t	nr_intervals, cap_intervals;
};

void wl_stats_init(struct wl_stats *s, sim_time_t measure_start, sim_time_t interval_ns);
void wl_stats_release(struct wl_stats *s);
void wl_stats_tx(struct wl_stats *s, sim_time_t now, sim_time_t latency_ns);
/* Latency at quantile q in [0,1] (bucket midpoint, never above the
 * maximum seen), ns; 0 when there were no transactions. */
sim_time_t wl_stats_quantile(const struct wl_stats *s, double q);
/* Histogram bucket of a latency and the bucket's bounds [lo, hi] (exposed
 * for tests and for merging histograms). */
unsigned int wl_lat_bucket(sim_time_t ns);
void wl_lat_bucket_bounds(unsigned int b, sim_time_t *lo, sim_time_t *hi);
/* Add every count of `from` into `into` (same measure_start/interval). */
void wl_stats_merge(struct wl_stats *into, const struct wl_stats *from);

/* A named extra figure a workload reports ("iops_per_cpu", "hugetlb_obtained"). */
struct wl_figure {
	const char	*name;		/* static string */
	double		value;
	const char	*unit;		/* static string, may be "" */
};

/* pgbench reports the most: up to 102 (60 single figures, 7 s_lock
 * preemption counts, 16 WAL write-size buckets, 19 wait events) */
#define WL_MAX_FIGURES	128

/* A CSV table of numbers in the run folder: a header of the column names,
 * then nrows rows of ncols cells (row-major), column c printed with
 * decimals[c] decimals and a NaN cell left empty (report/result.h). */
#define WL_MAX_TABLES	4
struct wl_table {
	const char		*file;		/* "waits.csv" */
	const char *const	*cols;
	const unsigned char	*decimals;
	unsigned int		ncols;
	size_t			nrows;
	const double		*cells;
};

struct wl_report {
	bool		has_transactions;	/* tps/latency are meaningful */
	const struct wl_stats *stats;
	struct wl_figure figures[WL_MAX_FIGURES];
	unsigned int	nr_figures;
	/* optional tables of numbers the run folder gets as CSV files
	 * (pgbench: waits.csv, checkpoints.csv) */
	struct wl_table	tables[WL_MAX_TABLES];
	unsigned int	nr_tables;
	/* a file the workload wrote during the run is incomplete (a write
	 * failed): the message, and the run fails instead of looking whole */
	const char	*error;
};

void wl_report_figure(struct wl_report *r, const char *name, double value, const char *unit);

/*
 * What a run offers a workload besides its config: the machine, its
 * engine, and the block devices of the scenario's [device NAME] sections
 * in file order.  (machine may be NULL in unit tests of workloads that do
 * not touch the mm model.)
 */
struct wl_env {
	struct machine		*machine;
	struct sim		*sim;
	struct bdev *const	*bdevs;
	const char *const	*bdev_names;
	unsigned int		nr_bdevs;
	/* the run's result folder, being written (files a workload streams
	 * during the run go here); NULL where there is none (tests, benches) */
	const char		*dir;
};

/* The device named `name`, or NULL. */
struct bdev *wl_env_bdev(const struct wl_env *env, const char *name);
/* The same for a workload's device key: NULL with the message in err. */
struct bdev *wl_env_device(const struct wl_env *env, const char *name, char *err, size_t errlen);
/* The task kind (and attribution tree) of a workload instance: "KIND"
 * for [KIND], "KIND:NAME" for [KIND NAME]; malloc'ed, the caller frees it. */
char *wl_kind_name(const char *kind, const char *instance);

/*
 * What validate_env sees of the rest of the scenario before anything is
 * built: the [machine] section and the [device NAME] sections' configs.
 * The same check runs for `slowpath check` and `slowpath run`.
 */
struct wl_check_env {
	const struct machine_config	*machine;
	/* The config of [device NAME], or NULL when there is none. */
	const struct bdev_config	*(*device)(const void *ctx, const char *name);
	const void			*ctx;
};

struct workload_type {
	const char		*kind;		/* section kind */
	const char		*help;		/* one line */
	const struct opt_def	*options;
	size_t			config_size;
	bool			multiple;	/* several [kind NAME] sections allowed */
	/* Cross-field validation after parsing; message without file:line. */
	int  (*validate)(const void *config, char *err, size_t errlen);
	/* Checks against the machine and the devices (may be NULL): 0, or -1
	 * with a message; *bad_key may name the key to blame. */
	int  (*validate_env)(const void *config, const struct wl_check_env *env, const char **bad_key,
			     char *err, size_t errlen);
	/* --scale 1/N: shrink the workload's size-like options in place.  0,
	 * or -1 with a message when the workload would scale to nothing (a
	 * run that measures nothing must not look like a result). */
	int  (*scale)(void *config, unsigned int n, char *err, size_t errlen);
	/* The most tasks the config runs at once (each has a host stack,
	 * sim/task.c); *key names the option that sets the count. */
	uint64_t (*nr_tasks)(const void *config, const char **key);
	/* Create tasks/state on the run environment (machine, devices);
	 * `stats` is owned by the caller.  Returns NULL with a message in err
	 * when the config cannot run on this environment (e.g. a device name
	 * that does not exist). */
	void *(*start_env)(const struct wl_env *env, const void *config, const char *instance,
			   struct wl_stats *stats, char *err, size_t errlen);
	/* The key that makes the workload write a file of its own during the
	 * run (into wl_env.dir), when the config sets it; NULL: none (may be
	 * NULL).  `slowpath run --branch-at` refuses such a config: its
	 * branches would share the one open file. */
	const char *(*streams)(const void *config);
	/* After the run, before the engine is destroyed. */
	void (*report)(void *state, struct wl_report *out);
	/* After sim_destroy() (and machine_destroy()): the run may have stopped
	 * with tasks mid-transaction holding locks, so only memory is freed
	 * here; the engine and machine must not be touched. */
	void (*destroy)(void *state);
};

const struct workload_type *workload_find(const char *kind);
/* All registered types, NULL-terminated, in a fixed order. */
extern const struct workload_type *const workload_types[];

#endif
