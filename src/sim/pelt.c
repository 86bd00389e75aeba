/* SPDX-License-Identifier: MIT */
/*
 * pelt.c — per-entity load tracking (kernel/sched/pelt.c, Linux 6.12):
 * the geometric averages the kernel's load balancer reads.
 *
 * Modelled: time is cut into periods of 1024 "microseconds" of 1024 ns;
 * a signal's sum decays by y per whole period, y^32 = 1/2 (a half-life of
 * about 33.5 ms), and grows by `weight` times each 1024-ns unit the signal
 * is on, the units of a period that completes decayed with it, as
 * accumulate_sum splits an update into the rest of the first period, the
 * whole periods between and the start of the last.  The average is the sum
 * over the divider get_pelt_divider uses, LOAD_AVG_MAX less the unfinished
 * period's missing part.  The decay is y^n in 32-bit fixed point for n < 32
 * and a shift per 32 periods (decay_load); LOAD_AVG_MAX is the fixed point
 * of max = decay(max, 1) + 1024 in the same arithmetic, which gives the
 * kernel's 47742.
 * Simplified: the table is computed at start, from exp2, instead of
 * being the kernel's constants (the same values to the last bit or one
 * off); no frequency or CPU-capacity scaling (every CPU at capacity 1024,
 * as on the modelled machines).
 */
#include "internal.h"

#include <math.h>

/* decay_load: `val` times y^n */
static uint64_t pelt_decay(const struct sim_pelt_tables *pt, uint64_t val, uint64_t n)
{
	if (n > 63 * 32)
		return 0;
	val >>= n / 32;
	n %= 32;
	if (!n)
		return val;
	/* val * y^n >> 32 without overflowing 64 bits (val may reach 2^48) */
	uint64_t y = pt->y_inv[n];

	return (val >> 32) * y + (((val & 0xffffffffu) * y) >> 32);
}

void sim_pelt_tables_init(struct sim_pelt_tables *pt)
{
	uint64_t max = 0, prev;

	pt->y_inv[0] = 0xffffffffu;
	for (unsigned int n = 1; n < 32; n++)
		pt->y_inv[n] = (uint32_t)llround(exp2(-(double)n / 32.0) * 4294967296.0);
	do {
		prev = max;
		max = pelt_decay(pt, max, 1) + 1024;
	} while (max != prev);
	pt->load_avg_max = max;
}

/*
 * ___update_load_sum + ___update_load_avg: bring `p` to `now` with the
 * signal at `weight` (1024 for a running task or a busy CPU, 1024 per
 * runnable task for a CPU's runnable signal) since its last update.
 */
void sim_pelt_update(const struct sim_pelt_tables *pt, struct sim_pelt *p, sim_time_t now,
		     uint64_t weight)
{
	if (now <= p->last)
		return;
	uint64_t delta = (now - p->last) >> 10;

	if (!delta)
		return;
	p->last += delta << 10;

	uint64_t d = delta + p->contrib, periods = d / 1024, contrib = delta;

	if (periods) {
		uint64_t head = pelt_decay(pt, 1024 - p->contrib, periods);
		uint64_t full = pt->load_avg_max - pelt_decay(pt, pt->load_avg_max, periods);

		p->sum = pelt_decay(pt, p->sum, periods);
		full = full > 1024 ? full - 1024 : 0;	/* the whole periods between */
		contrib = head + full + d % 1024;
	}
	p->contrib = (uint32_t)(d % 1024);
	p->sum += weight * contrib;
}

/* ___update_load_avg: the sum over the divider, computed when read (the
 * kernel stores it at each update; the value is the same) */
uint32_t sim_pelt_avg(const struct sim_pelt_tables *pt, const struct sim_pelt *p)
{
	return (uint32_t)(p->sum / (pt->load_avg_max - 1024 + p->contrib));
}

/* attach_entity_load_avg / detach_entity_load_avg for the util signal:
 * `avg` (a task's util_avg) added to or taken from a CPU's sum at the
 * CPU's divider, so that its average moves by `avg` (sub_positive on the
 * way down). */
void sim_pelt_add(const struct sim_pelt_tables *pt, struct sim_pelt *p, uint64_t avg)
{
	p->sum += avg * (pt->load_avg_max - 1024 + p->contrib);
}

void sim_pelt_sub(const struct sim_pelt_tables *pt, struct sim_pelt *p, uint64_t avg)
{
	uint64_t d = avg * (pt->load_avg_max - 1024 + p->contrib);

	p->sum = p->sum > d ? p->sum - d : 0;
}
