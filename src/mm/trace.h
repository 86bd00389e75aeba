/* SPDX-License-Identifier: MIT */
/*
 * trace.h — the slow path's step log: an optional per-machine trace of
 * the modelled functions an allocation runs through, their results, and
 * after each step the event and model counters that moved during it.
 * The golden walk-through tests (docs/slowpath.md, walk-throughs, W2) compare it with
 * tests/golden/; it plays the part ftrace's mm_page_alloc /
 * mm_compaction_* / mm_vmscan_* events play for a kernel developer.
 *
 * Off by default: every trace point costs one pointer test.  Lines look
 * like
 *
 *   __alloc_pages_slowpath order=4 gfp=...
 *   __alloc_pages_direct_compact prio=async -> complete
 *       +compact_stall 1 +compact_fail 1 +compact_migrate_scanned 96
 *
 * Nothing in the trace depends on virtual time or costs, so goldens only
 * change when behaviour does.
 */
#ifndef SLOWPATH_MM_TRACE_H
#define SLOWPATH_MM_TRACE_H

#include <stdio.h>

#include "sim/debug.h"

struct machine;

/* Start tracing to `out` (counters are snapshot now), or stop (printing
 * the deltas of the last step). */
void mm_trace_start(struct machine *m, FILE *out);
void mm_trace_stop(struct machine *m);

SIM_PRINTF(2, 3)
void __mm_trace(struct machine *m, const char *fmt, ...);

#define mm_trace(m, ...) do {						\
	if (unlikely((m)->trace))					\
		__mm_trace((m), __VA_ARGS__);				\
} while (0)

/* Names for trace lines. */
const char *compact_result_name(int result);
const char *compact_prio_name(int prio);
/* "GFP_KERNEL|__GFP_NORETRY"-style rendering of a gfp mask (static buffer
 * per machine trace; valid until the next call). */
const char *mm_trace_gfp(struct machine *m, unsigned int gfp);
const char *mm_trace_alloc_flags(struct machine *m, unsigned int alloc_flags);

#endif
