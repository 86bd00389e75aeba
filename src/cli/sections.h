/* SPDX-License-Identifier: MIT */
/*
 * sections.h — slowpath's scenario schema: the section types a scenario
 * file may contain and the config structs of the sections the CLI owns.
 * Sections owned elsewhere fill the owner's struct directly:
 *   [machine]      struct machine_config   (mm/machine.h, machine_options[])
 *   [sysctl]       struct vm_sysctl        (mm/sysctl.h, vm_sysctl_options[])
 *   [costs]        struct cost_table       (sim/cost.h; one key per costs.def row)
 *   [device NAME]  struct bdev_config      (sim/bdev.h; name = the section name)
 *   [KIND], [KIND NAME]  a workload's config (workload/workload.h registry)
 */
#ifndef SLOWPATH_CLI_SECTIONS_H
#define SLOWPATH_CLI_SECTIONS_H

#include <stdint.h>

#include "cli/scenario.h"
#include "mm/policy.h"
#include "sim/option.h"
#include "sim/sim.h"

struct scn_global {
	uint64_t	seed;
	sim_time_t	duration;		/* virtual time simulated */
	sim_time_t	ramp_time;		/* measurement starts after it (fio's name) */
	sim_time_t	sample_interval;	/* monitor period */
	sim_time_t	tps_interval;		/* tps.csv step */
	char		*description;
	uint64_t	applied_scale;		/* N of the --scale 1/N already applied */
	int		fault_model;		/* 0 exact, 1 drawn (memory.c "drawn faults") */
};

struct scn_policy {
	char		*preset;		/* mm_policies[] row */
	struct mm_policy sw;		/* the switches, kernel and noretry_bail_2026; after
					 * scn_policy_resolve() the run's policy */
	char		label[400];		/* sw.name: the preset + the keys that differ */
};

/* [kernel]: the simulated kernel's scheduler, the slab model and the LRU. */
struct scn_kernel {
	int		preempt;		/* enum sim_preempt, in preempt_names[] order */
	bool		slab;			/* the slab allocator model (mm/slub.c) */
	bool		lru_gen;		/* the multi-gen LRU (CONFIG_LRU_GEN_ENABLED) */
	int		rwsem;			/* 0 fifo, 1 steal (sim_config.rwsem_steal) */
	uint64_t	migration_cost;		/* ns: sim_config.migration_cost */
	bool		periodic_balance;	/* sim_config.periodic_balance */
	bool		run_to_parity;		/* !sim_config.no_run_to_parity */
	bool		delay_dequeue;		/* sim_config.delay_dequeue */
};

extern const struct opt_def scn_global_options[];
extern const struct opt_def scn_policy_options[];
extern const struct opt_def scn_device_options[];
extern const struct opt_def scn_cost_options[];

/*
 * [policy]: the preset supplies every switch key the scenario (a file or
 * --set) does not set.  Then sw.name is the preset's name plus
 * "+key=value" for each switch that differs from the preset.  An unknown
 * preset is left for scn_validate() to report.
 */
void scn_policy_resolve(struct scenario *s);

/* The schema: built-in sections, then one per registered workload type. */
struct scn_schema *scn_schema_create(void);
void scn_schema_destroy(struct scn_schema *schema);

#endif
