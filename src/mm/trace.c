/* SPDX-License-Identifier: MIT */
/*
 * trace.c — the slow path's step log (see trace.h).
 *
 * Each trace line is printed after the counter changes of the previous
 * step: at every trace point the current totals of the event counters
 * (summed over CPUs) and the model counters are compared with the last
 * snapshot and the changes printed, indented, under the previous line.
 * O(counters x CPUs) per line, paid only while tracing.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/trace.h"

struct mm_trace {
	FILE		*out;
	uint64_t	events[NR_VM_EVENT_ITEMS];
	uint64_t	sim[NR_SIM_STAT_ITEMS];
	char		gfp_buf[256];
	char		flags_buf[160];
};

static void trace_flush_deltas(struct machine *m)
{
	struct mm_trace *t = m->trace;
	bool any = false;

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		uint64_t v = sum_vm_event(m, (enum vm_event_item)i);

		if (v != t->events[i]) {
			fprintf(t->out, "%s+%s %" PRIu64, any ? " " : "    ", vm_event_names[i], v - t->events[i]);
			t->events[i] = v;
			any = true;
		}
	}
	for (int i = 0; i < NR_SIM_STAT_ITEMS; i++) {
		uint64_t v = m->sim_stat[i];

		if (v != t->sim[i]) {
			fprintf(t->out, "%s+%s %" PRIu64, any ? " " : "    ", sim_stat_names[i], v - t->sim[i]);
			t->sim[i] = v;
			any = true;
		}
	}
	if (any)
		fputc('\n', t->out);
}

void mm_trace_start(struct machine *m, FILE *out)
{
	struct mm_trace *t;

	mm_trace_stop(m);
	t = calloc(1, sizeof(*t));
	if (!t)
		SIM_BUG("out of memory");
	t->out = out;
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		t->events[i] = sum_vm_event(m, (enum vm_event_item)i);
	memcpy(t->sim, m->sim_stat, sizeof(t->sim));
	m->trace = t;
}

void mm_trace_stop(struct machine *m)
{
	if (!m->trace)
		return;
	trace_flush_deltas(m);
	fflush(m->trace->out);
	free(m->trace);
	m->trace = NULL;
}

void __mm_trace(struct machine *m, const char *fmt, ...)
{
	va_list ap;

	trace_flush_deltas(m);
	va_start(ap, fmt);
	vfprintf(m->trace->out, fmt, ap);
	va_end(ap);
	fputc('\n', m->trace->out);
}

const char *compact_result_name(int result)
{
	static const char *const names[] = {
		"not_suitable_zone", "skipped", "deferred", "no_suitable_page", "continue",
		"complete", "partial_skipped", "contended", "success",
	};

	return result >= 0 && result <= COMPACT_SUCCESS ? names[result] : "?";
}

const char *compact_prio_name(int prio)
{
	switch (prio) {
	case COMPACT_PRIO_SYNC_FULL:	return "sync_full";
	case COMPACT_PRIO_SYNC_LIGHT:	return "sync_light";
	case COMPACT_PRIO_ASYNC:	return "async";
	default:			return "?";
	}
}

struct flag_name {
	unsigned int	mask;
	const char	*name;
};

static const char *render(char *buf, size_t len, unsigned int v, const struct flag_name *names)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; names->name; names++) {
		if ((v & names->mask) != names->mask || !names->mask)
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? "|" : "",
					 names->name);
		v &= ~names->mask;
	}
	if (v || !used)
		snprintf(buf + used, used < len ? len - used : 0, "%s%#x", used ? "|" : "", v);
	return buf;
}

/* Composite masks first (longest match), then single bits. */
static const struct flag_name gfp_names[] = {
	{ GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DMA, "__GFP_DMA" }, { __GFP_HIGHMEM, "__GFP_HIGHMEM" }, { __GFP_DMA32, "__GFP_DMA32" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" }, { __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_HIGH, "__GFP_HIGH" }, { __GFP_IO, "__GFP_IO" }, { __GFP_FS, "__GFP_FS" },
	{ __GFP_ZERO, "__GFP_ZERO" }, { __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" }, { __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_NOWARN, "__GFP_NOWARN" }, { __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" }, { __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" }, { __GFP_COMP, "__GFP_COMP" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" }, { __GFP_HARDWALL, "__GFP_HARDWALL" },
	{ __GFP_THISNODE, "__GFP_THISNODE" }, { __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ 0, NULL },
};

static const struct flag_name alloc_flag_names[] = {
	{ ALLOC_NO_WATERMARKS, "NO_WATERMARKS" }, { ALLOC_OOM, "OOM" },
	{ ALLOC_NON_BLOCK, "NON_BLOCK" }, { ALLOC_MIN_RESERVE, "MIN_RESERVE" },
	{ ALLOC_CPUSET, "CPUSET" }, { ALLOC_CMA, "CMA" }, { ALLOC_NOFRAGMENT, "NOFRAGMENT" },
	{ ALLOC_HIGHATOMIC, "HIGHATOMIC" }, { ALLOC_KSWAPD, "KSWAPD" },
	{ 0, NULL },
};

const char *mm_trace_gfp(struct machine *m, unsigned int gfp)
{
	if (!m->trace)
		return "";
	return render(m->trace->gfp_buf, sizeof(m->trace->gfp_buf), gfp, gfp_names);
}

const char *mm_trace_alloc_flags(struct machine *m, unsigned int alloc_flags)
{
	static const char *const wmark[] = { "WMARK_MIN", "WMARK_LOW", "WMARK_HIGH", "WMARK_?" };
	char rest[128];
	unsigned int other = alloc_flags & ~(unsigned int)ALLOC_WMARK_MASK;

	if (!m->trace)
		return "";
	if (other)
		render(rest, sizeof(rest), other, alloc_flag_names);
	snprintf(m->trace->flags_buf, sizeof(m->trace->flags_buf), "%s%s%s",
		 (alloc_flags & ALLOC_NO_WATERMARKS) ? "" : wmark[alloc_flags & ALLOC_WMARK_MASK],
		 other && !(alloc_flags & ALLOC_NO_WATERMARKS) ? "|" : "", other ? rest : "");
	return m->trace->flags_buf;
}
