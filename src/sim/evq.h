/* SPDX-License-Identifier: MIT */
/*
 * evq.h — the event queue: a d-ary min-heap of events keyed by (time, seq).
 *
 * THE TIE-BREAK RULE.  Events are ordered by virtual time first and by
 * `seq` second.  `seq` is taken from a per-simulation 64-bit counter that
 * is incremented once for every event pushed, so two events due at the
 * same virtual time run in the order they were inserted (FIFO).  No event
 * is ever ordered by pointer value, callback address, hash order or wall
 * clock, and seq never wraps (2^64 pushes).  Everything the engine does at
 * one instant is therefore a pure function of the order of pushes, which
 * is itself deterministic.
 *
 * Layout: events are stored by value (32 bytes, two to a cache line) in one
 * growable array; node i has children d*i+1 .. d*i+d.  The arity is a
 * parameter of the always-inlined helpers so the same code is measured as
 * a binary and a 4-ary heap (bench/bench_engine.c).  The engine uses
 * SIM_EVQ_ARITY; see docs/engine.md for the measurement behind the choice.
 *
 * Only the engine (src/sim/) and the benchmarks include this header.
 */
#ifndef SLOWPATH_SIM_EVQ_H
#define SLOWPATH_SIM_EVQ_H

#include <stdint.h>
#include <stdlib.h>

#include "sim/sim.h"

/* 4-ary: half the levels of a binary heap, the four children share two
 * cache lines, and their minimum is a branch-free tournament.  Measured
 * against 2 in bench_engine ("bare queue" figures, docs/engine.md). */
#define SIM_EVQ_ARITY 4

struct sim_event {
	sim_time_t	time;
	uint64_t	seq;
	sim_callback_fn	fn;
	void		*arg;
};

struct sim_evq {
	struct sim_event *h;
	uint32_t	n, cap;
	uint64_t	next_seq;	/* seq of the next push; starts at 1 (0 = "no event") */
};

/* (time, seq) as one 128-bit key: one compare, no branch on equal times. */
static inline int sim_event_before(const struct sim_event *a, const struct sim_event *b)
{
	unsigned __int128 ka = ((unsigned __int128)a->time << 64) | a->seq;
	unsigned __int128 kb = ((unsigned __int128)b->time << 64) | b->seq;

	return ka < kb;
}

void sim_evq_init(struct sim_evq *q);
void sim_evq_release(struct sim_evq *q);
void sim_evq_grow(struct sim_evq *q);

static inline __attribute__((always_inline)) uint64_t
sim_evq_push_d(struct sim_evq *q, sim_time_t time, sim_callback_fn fn, void *arg, unsigned d)
{
	struct sim_event e = { time, q->next_seq++, fn, arg };
	uint32_t i;

	if (unlikely(q->n == q->cap))
		sim_evq_grow(q);
	i = q->n++;
	while (i > 0) {
		uint32_t p = (i - 1) / d;

		if (!sim_event_before(&e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = e;
	return e.seq;
}

/* Index of the smallest of the children c .. c+d-1 of a node, all present. */
static inline __attribute__((always_inline)) uint32_t
sim_evq_min_child(const struct sim_event *h, uint32_t c, unsigned d)
{
	if (d == 4) {	/* a tournament: two independent compares, then one */
		uint32_t a = sim_event_before(&h[c + 1], &h[c]) ? c + 1 : c;
		uint32_t b = sim_event_before(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;

		return sim_event_before(&h[b], &h[a]) ? b : a;
	}
	if (d == 2)
		return sim_event_before(&h[c + 1], &h[c]) ? c + 1 : c;
	{
		uint32_t best = c;

		for (uint32_t k = c + 1; k < c + d; k++)
			if (sim_event_before(&h[k], &h[best]))
				best = k;
		return best;
	}
}

/* Remove the minimum into *out; the queue must not be empty.  (A
 * bottom-up "Floyd" deletion was measured too and was no faster here.) */
static inline __attribute__((always_inline)) void
sim_evq_pop_d(struct sim_evq *q, struct sim_event *out, unsigned d)
{
	struct sim_event *h = q->h;
	struct sim_event last;
	uint32_t i = 0, n;

	*out = h[0];
	n = --q->n;
	if (n == 0)
		return;
	last = h[n];
	for (;;) {
		uint32_t c = d * i + 1, best;

		if (c + d <= n) {
			best = sim_evq_min_child(h, c, d);
		} else if (c < n) {
			best = c;
			for (uint32_t k = c + 1; k < n; k++)
				if (sim_event_before(&h[k], &h[best]))
					best = k;
		} else {
			break;
		}
		if (!sim_event_before(&h[best], &last))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = last;
}

static inline uint64_t sim_evq_push(struct sim_evq *q, sim_time_t time, sim_callback_fn fn, void *arg)
{
	return sim_evq_push_d(q, time, fn, arg, SIM_EVQ_ARITY);
}

static inline void sim_evq_pop(struct sim_evq *q, struct sim_event *out)
{
	sim_evq_pop_d(q, out, SIM_EVQ_ARITY);
}

/* True if no queued event is due at or before `t`. */
static inline int sim_evq_clear_until(const struct sim_evq *q, sim_time_t t)
{
	return q->n == 0 || q->h[0].time > t;
}

#endif
