/* SPDX-License-Identifier: MIT */
/*
 * initial_state.h — start a machine from a recorded snapshot of a real
 * kernel's free memory ([machine] initial_state=DIR, docs/initial-state.md).
 *
 * A model-only entry: the kernel has no "load a fragmentation state".
 * The CLI parses the recorded /proc files (report/procfs.c) and hands the
 * mm layer this plain struct of counts; the mm layer scales them to the
 * machine's zones and lays them out (initial_state.c).
 */
#ifndef SLOWPATH_MM_INITIAL_STATE_H
#define SLOWPATH_MM_INITIAL_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/machine.h"
#include "mm/types.h"

#define MM_IS_NR_ZONES	5	/* MAX_NR_ZONES: DMA, DMA32, Normal, Movable, Device */

/* One zone of the recording (nodes summed by zone name), or of its
 * scaled form. */
struct mm_initial_state_zone {
	bool		present;				/* the recording has the zone */
	uint64_t	free[MIGRATE_TYPES][NR_PAGE_ORDERS];	/* free blocks per type, order */
	uint64_t	blocks[MIGRATE_TYPES];			/* pageblocks per type */
	char		where[256];	/* "path:line" of its first row, for messages */
	/* machine_initial_state_check's scaled form only: what step 2 of
	 * initial_state.c did to make it fit the zone */
	uint64_t	moved_blocks;	/* pageblocks given from one type to another */
	uint64_t	dropped_pages;	/* free pages left allocated */
};

struct mm_initial_state {
	struct mm_initial_state_zone zone[MM_IS_NR_ZONES];	/* by enum zone_type */
	char		source[256];	/* the file that lists the zones, for messages */
	/*
	 * What allocated memory is made of, as weights (any unit, only the
	 * ratios count): in MOVABLE pageblocks file page cache vs anonymous
	 * memory, in UNMOVABLE pageblocks page tables vs other kernel memory.
	 * All zero: movable content is page cache, unmovable content kernel.
	 */
	uint64_t	file, anon, pgtable, kernel;
};

/*
 * The scaled state machine_load_initial_state() would build for a machine
 * of `cfg` and `sysctl`, checked without building it (slowpath check and
 * run refuse the same snapshots).  0 and *scaled filled (may be NULL), or
 * -1 with a message naming the recorded file and line.
 */
int machine_initial_state_check(const struct machine_config *cfg, const struct vm_sysctl *sysctl,
				const struct mm_initial_state *st, struct mm_initial_state *scaled,
				char *err, size_t errlen);

/*
 * Replace the just-booted machine's memory (all free, every pageblock
 * MOVABLE) with the recorded state, scaled: pageblock migratetypes, free
 * blocks per zone, order and migratetype, and the rest allocated as page
 * cache, anonymous memory, page tables and kernel memory.  Call after
 * machine_create, before machine_start.  0, or -1 with a message.
 */
int machine_load_initial_state(struct machine *m, const struct mm_initial_state *st,
			       char *err, size_t errlen);

#endif
