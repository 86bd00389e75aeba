/* SPDX-License-Identifier: MIT */
/*
 * cost.c — the cost table: defaults from costs.def, lookup by name, and a
 * decimal nanosecond parser that stores picoseconds exactly.
 */
#include <string.h>

#include "sim/cost.h"

/* Parse at compile time is not possible for decimals; defaults are parsed
 * once from their literal text (cost_table_init). */
const struct cost_info cost_info[NR_COSTS] = {
#define COST(id, unit, def, src) [COST_##id] = { #id, unit, #def, 0, src },
#include "sim/costs.def"
#undef COST
};

int cost_parse_ns(const char *s, uint64_t *ps)
{
	uint64_t whole = 0, frac = 0;
	int fdigits = 0;
	const char *p = s;

	if (!*p)
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX / 1000 - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9') && p - 1 == s)
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (fdigits == 3) {
				if (*p != '0')	/* finer than 1 ps */
					return -1;
				continue;
			}
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdigits++;
		}
	} else if (p == s) {
		return -1;
	}
	if (*p)
		return -1;
	while (fdigits < 3) {
		frac *= 10;
		fdigits++;
	}
	*ps = whole * 1000 + frac;
	return 0;
}

void cost_table_init(struct cost_table *t)
{
	for (int i = 0; i < NR_COSTS; i++) {
		uint64_t ps = 0;

		(void)cost_parse_ns(cost_info[i].default_text, &ps);
		t->ps[i] = ps;
	}
}

int cost_lookup(const char *name)
{
	for (int i = 0; i < NR_COSTS; i++)
		if (strcmp(cost_info[i].name, name) == 0)
			return i;
	return -1;
}
