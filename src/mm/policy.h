/* SPDX-License-Identifier: MIT */
/*
 * policy.h — allocator policy variants (DESIGN.md §6, kernel-mm-spec.md
 * §14).  A policy is a named preset of switches; the slow-path code
 * consults the switches exactly where the real patches differ.  The rows
 * (name, spec tag, one-line description, switch values) are the table
 * mm_policies[] in policy.c; `slowpath policies` prints it.
 */
#ifndef SLOWPATH_MM_POLICY_H
#define SLOWPATH_MM_POLICY_H

#include <stdbool.h>

enum slowpath_flow {
	FLOW_K6_12,	/* __alloc_pages_slowpath as in 6.12 (spec §0.5) */
	FLOW_K2026,	/* mid-2026 compact_first flow (spec §0.6) */
};

struct mm_policy {
	const char *name;		/* "baseline", "noretry-nonblocking", ... */
	const char *spec;		/* kernel-mm-spec.md §14 tag: "P1", "V6", ... */
	const char *summary;		/* one line for `slowpath policies` */
	/* Switches; the slow-path issue adds the ones it needs.  Every switch
	 * is documented at its field and at the place that consults it. */
	bool large_chunks;		/* iomap copies folio-sized chunks (5d8edfb900d5) */
	/* The slow-path flow (6.12 or 2026) is not part of a variant: it is
	 * chosen separately ([policy] flow=) so variants compare on one flow. */
};

extern const struct mm_policy mm_policies[];
extern const unsigned int mm_nr_policies;

const struct mm_policy *mm_policy_find(const char *name);

#endif
