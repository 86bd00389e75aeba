/* SPDX-License-Identifier: MIT */
/*
 * shape.h — the free-memory shape of a result folder, from its
 * proc-buddyinfo and proc-pagetypeinfo monitors: free blocks per zone and
 * order, per order and migratetype, and the kernel's two fragmentation
 * indices per order (/sys/kernel/debug/extfrag/unusable_index and
 * extfrag_index, mm/vmstat.c), as a mean over a time window and at the
 * last sample.  Recorded and simulated folders alike: the report side
 * only, never the model.  `slowpath compare --shape` prints it
 * (docs/fragmentation-check.md).
 */
#ifndef SLOWPATH_REPORT_SHAPE_H
#define SLOWPATH_REPORT_SHAPE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/load.h"
#include "report/procfs.h"

/* fill_contig_page_info (mm/vmstat.c) for one zone's free blocks per order. */
struct rpt_contig_info {
	uint64_t	free_pages;		/* sum of blocks << order */
	uint64_t	free_blocks_total;	/* sum of blocks */
	uint64_t	free_blocks_suitable;	/* blocks of at least `order`, in units of 2^order */
};
void rpt_contig_info(const uint64_t *free_blocks, unsigned int nr_orders, unsigned int order,
		     struct rpt_contig_info *out);
/* unusable_free_index: thousandths, 0..1000 (1000 when nothing is free). */
int rpt_unusable_index(unsigned int order, const struct rpt_contig_info *info);
/* __fragmentation_index: thousandths; 0 when nothing is free;
 * RPT_EXTFRAG_SUCCEEDS (-1000) when an allocation of the order would succeed. */
#define RPT_EXTFRAG_SUCCEEDS	(-1000)
int rpt_extfrag_index(unsigned int order, const struct rpt_contig_info *info);

/* One zone's shape, averaged over the samples of a window. */
struct rpt_shape_zone {
	char		zone[16];
	unsigned int	nr_orders;
	double		blocks[PROC_MAX_ORDERS];		/* buddyinfo */
	double		type_blocks[PROC_MAX_MT][PROC_MAX_ORDERS];	/* pagetypeinfo */
	double		unusable[PROC_MAX_ORDERS];		/* index as a fraction 0..1 */
	double		extfrag[PROC_MAX_ORDERS];		/* mean where defined, else -1 */
	unsigned int	extfrag_n[PROC_MAX_ORDERS];		/* samples where defined */
};

struct rpt_shape {
	unsigned int	nr_types;
	char		types[PROC_MAX_MT][16];
	unsigned int	nr_zones;
	struct rpt_shape_zone z[PROC_MAX_ZONES];
	unsigned int	samples;		/* buddyinfo samples in the window */
	double		from, to;		/* the window, seconds from the first sample */
	double		last_time;		/* of the last sample in it, since the first */
	bool		has_types;		/* a proc-pagetypeinfo was read */
};

/*
 * The shape of the result folder dir over the samples whose time since
 * the folder's first sample lies in [from, to] (to < 0: the last sample
 * only).  Rows of several nodes are summed by zone name.  0 on success;
 * -1 with "path:line: message" in err (malformed monitor, no
 * proc-buddyinfo, no sample in the window).
 */
int rpt_shape_load(const char *dir, double from, double to, struct rpt_shape *out,
		   char *err, size_t errlen);

/* The comparison: per window and at the last sample, per zone, the sets'
 * rows side by side, the first set the baseline; as text or as JSON
 * (schema "slowpath-shape/1", docs/fragmentation-check.md).  0, -1 with
 * err (a folder's monitors), 1 when writing JSON failed. */
int rpt_shape_print(FILE *f, const struct rpt_set *sets, int nr_sets,
		    const struct rpt_window *w, unsigned int nr_w, bool json,
		    char *err, size_t errlen);

#endif
