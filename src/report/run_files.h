/* SPDX-License-Identifier: MIT */
/*
 * run_files.h — the files of a simulated run's folder besides result.json
 * and the monitors (docs/results.md): tps.csv and latency-hist.csv from
 * the workloads' transaction statistics, locks.csv from the engine's lock
 * statistics, proc-slabinfo from the slab model, profile.json from its
 * call-path attribution.  The run driver
 * (src/cli/run.c) calls them after the simulation; each file is written to
 * NAME.tmp and renamed.  0, or -1 with err.
 */
#ifndef SLOWPATH_REPORT_RUN_FILES_H
#define SLOWPATH_REPORT_RUN_FILES_H

#include <stddef.h>

#include "sim/sim.h"
#include "workload/workload.h"

/* tps.csv: interval_end_s,tps,lat_avg_ms,lat_max_ms per tps interval of
 * the measured phase [ramp, duration). */
int rpt_write_tps_csv(const char *dir, const struct wl_stats *st, sim_time_t ramp,
		      sim_time_t duration, sim_time_t interval, char *err, size_t errlen);
/* latency-hist.csv: lo_ns,hi_ns,count for every non-empty bucket of the
 * measured transactions' latency histogram. */
int rpt_write_latency_hist(const char *dir, const struct wl_stats *st, char *err, size_t errlen);
/* locks.csv: every named spinlock, then every named mutex. */
int rpt_write_locks_csv(const char *dir, const struct sim *sim, char *err, size_t errlen);
/* proc-slabinfo: /proc/slabinfo at the end of the run, with [kernel]
 * slab=on only (nothing is written with the slab model off). */
struct machine;
int rpt_write_slabinfo(const char *dir, const struct machine *m, char *err, size_t errlen);
/* profile.json, schema slowpath-profile/1. */
int rpt_write_profile(const char *dir, const struct sim *sim, char *err, size_t errlen);

#endif
