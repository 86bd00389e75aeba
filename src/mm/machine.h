/* SPDX-License-Identifier: MIT */
/*
 * machine.h — one simulated machine: the engine it runs on, its node(s),
 * zones and page frames, per-CPU state, block devices, page cache and
 * processes.  Everything a run owns hangs off one struct machine; there
 * are no mutable globals (tests build several and compare them).
 *
 * Built from the [machine] and [sysctl] sections of a scenario.
 */
#ifndef SLOWPATH_MM_MACHINE_H
#define SLOWPATH_MM_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mm/policy.h"
#include "mm/sysctl.h"
#include "sim/option.h"
#include "sim/sim.h"

struct machine_config {
	uint64_t memory;	/* bytes of RAM (present pages), multiple of 4 MiB */
	char	*zones;		/* "DMA:4g,Normal:rest" — zone name:size, in pfn order */
	uint64_t cpus;		/* online CPUs, all on the one node */
	uint64_t nodes;		/* must be 1 (NUMA is not modelled) */
	uint64_t reserved;	/* bytes present but not managed (firmware, kernel image,
				 * memmap), taken from the lowest zone that can hold them
				 * after ZONE_DMA */
	int	foll_pin_accounting;	/* enum foll_pin_accounting (mm/gup.h): how the
					 * simulated kernel counts FOLL_PIN pins */
	uint64_t hz;		/* CONFIG_HZ: timer ticks per second, the unit of the
				 * kernel's timeouts (jiffies) */
	uint64_t mm_slots;	/* address spaces a CPU keeps translations for (0: all) */
	uint64_t llc_cpus;	/* CPUs per last-level cache (0: one for all) */
	char	*initial_state;	/* a recorded snapshot to start from (a `slowpath record`
				 * folder or /proc copies); read by the CLI, built by
				 * machine_load_initial_state (mm/initial_state.h) */
};

extern const struct opt_def machine_options[];

struct machine;

/*
 * Build the machine: zones, frames (all free), watermarks, pcp sizing.
 * Returns NULL with a message in err (a configuration problem the user can
 * fix, e.g. zones that do not add up) — never aborts on user input.
 */
struct machine *machine_create(struct sim *sim, const struct machine_config *cfg,
			       const struct vm_sysctl *sysctl, const struct mm_policy *policy,
			       char *err, size_t errlen);
void machine_destroy(struct machine *m);
/*
 * The checks of machine_create that need no engine and no host memory —
 * nodes, memory, zones, reserved, the sysctl values — for `slowpath
 * check` and run alike.  0, or -1 with a message in err.
 */
int machine_config_check(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
			 char *err, size_t errlen);
/* Host memory the model's bookkeeping for `cfg` needs (about 16 bytes per
 * 4 KiB page); machine_create refuses a machine the host cannot hold. */
uint64_t machine_bookkeeping_bytes(const struct machine_config *cfg, unsigned int cpus);
/*
 * Start the machine's kernel threads (kswapd, kcompactd, flushers, the
 * per-CPU vmstat worker) as engine tasks.  The run driver calls it once,
 * after machine_create and before the workloads start.  Each subsystem
 * adds its own start call inside (mm_init.c).
 */
void machine_start(struct machine *m);
struct sim *machine_sim(const struct machine *m);
/* Put another policy in force mid-run (`slowpath run --branch`).  Every
 * switch is read where it acts (mm_pol()), so the next decision follows
 * it; requests already past that decision finish under the old one. */
void machine_set_policy(struct machine *m, const struct mm_policy *policy);

/*
 * /proc renderers (mm/vmstat.c): the model's state printed byte for byte
 * in the kernel's layout (fixtures in ../shared/fixtures/proc-linux-6.18).
 * They fold nothing and change nothing: reading is free of side effects.
 */
void mm_show_vmstat(const struct machine *m, FILE *out);
void mm_show_buddyinfo(const struct machine *m, FILE *out);
void mm_show_pagetypeinfo(const struct machine *m, FILE *out);
void mm_show_zoneinfo(const struct machine *m, FILE *out);
void mm_show_meminfo(const struct machine *m, FILE *out);

/* Every /proc/vmstat counter in file order (event counters summed over
 * CPUs, state counters as /proc/vmstat shows them), then the model-only
 * sim_* counters.  For result.json. */
typedef void (*mm_counter_fn)(void *ctx, const char *name, int64_t value);
void mm_vmstat_snapshot(const struct machine *m, mm_counter_fn fn, void *ctx);

/*
 * Apply changed tunables at run time, as writing the sysctl would
 * (min_free_kbytes / watermark_scale_factor recompute the watermarks and
 * pcp high limits, lowmem_reserve_ratio the reserves, ...).  Returns 0,
 * or -1 with a message for a value the kernel would reject.
 */
int machine_apply_sysctl(struct machine *m, const struct vm_sysctl *sysctl,
			 char *err, size_t errlen);

/*
 * mm_check(): the full invariant checker (mm/mm_check.c).  Returns 0, or
 * -1 after printing the first violation and a dump_page()-style picture
 * of the frames around it to stderr.  O(frames): a debugging tool, run
 * after every event in SIM_DEBUG>=3 builds (mm_set_check_interval).
 */
int mm_check(const struct machine *m);
/* SIM_DEBUG>=3: run mm_check after every n-th mm operation (0: never);
 * a violation then stops the run with SIM_BUG. */
void mm_set_check_interval(struct machine *m, uint64_t n);

/* Bytes of host memory the machine holds (frames, pageblocks, per-CPU). */
size_t machine_footprint(const struct machine *m);
/* What machine_create(cfg) will hold, without building it: an upper
 * bound of machine_footprint() at boot (mm_init.c). */
size_t machine_footprint_estimate(const struct machine_config *cfg);

/* Zone summary for result.json "machine". */
unsigned int mm_nr_zones(const struct machine *m);	/* populated zones */
const char *mm_zone_name(const struct machine *m, unsigned int i);
uint64_t mm_zone_managed_pages(const struct machine *m, unsigned int i);

#endif
