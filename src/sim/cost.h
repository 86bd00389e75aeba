/* SPDX-License-Identifier: MIT */
/*
 * cost.h — the cost table (rows in costs.def).  Values are stored in
 * picoseconds so fractional nanosecond costs (per byte, per pfn) stay
 * exact; charging rounds to whole nanoseconds.
 */
#ifndef SLOWPATH_SIM_COST_H
#define SLOWPATH_SIM_COST_H

#include <stdint.h>

enum cost_id {
#define COST(id, unit, def, src) COST_##id,
#include "sim/costs.def"
#undef COST
	NR_COSTS
};

struct cost_info {
	const char	*name;
	const char	*unit;
	const char	*default_text;	/* the literal as written in costs.def */
	uint64_t	default_ps;
	const char	*source;
};

extern const struct cost_info cost_info[NR_COSTS];

struct cost_table {
	uint64_t	ps[NR_COSTS];	/* picoseconds per unit */
};

void cost_table_init(struct cost_table *t);		/* defaults */
int cost_lookup(const char *name);			/* id or -1 */
/* Parse a decimal nanosecond value ("90", "0.08", "1.5") into ps; 0 on
 * success, -1 on malformed input or overflow. */
int cost_parse_ns(const char *s, uint64_t *ps);
/* ns for n units, rounded to nearest */
static inline uint64_t cost_ns(const struct cost_table *t, enum cost_id id, uint64_t n)
{
	return (t->ps[id] * n + 500) / 1000;
}

#endif
