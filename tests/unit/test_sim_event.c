/* SPDX-License-Identifier: MIT */
/* Tests of the event queue and the event loop: (time, seq) order, the
 * tie-break, sim_run's `until` and sim_stop, engine context. */
#include "harness.h"
#include "sim/evq.h"
#include "sim/rng.h"
#include "sim_test.h"

struct ev_arg;

struct rec {
	struct st_log	log;
	struct ev_arg	*extra;		/* storage for events pushed by callbacks */
	int		nextra;
};

struct ev_arg {
	struct rec	*r;
	int		tag;
	sim_time_t	push_at;	/* != 0: push another event at this time */
	int		push_tag;
	bool		stop;
};

static void ev_cb(struct sim *sim, void *p)
{
	struct ev_arg *a = p;

	st_log_add(&a->r->log, sim_now(sim), a->tag);
	if (a->push_at) {
		struct ev_arg *b = &a->r->extra[a->r->nextra++];

		memset(b, 0, sizeof(*b));
		b->r = a->r;
		b->tag = a->push_tag;
		sim_call_at(sim, a->push_at, ev_cb, b);
		a->push_at = 0;
	}
	if (a->stop)
		sim_stop(sim);
}

/* A test that events run by time and, at equal times, in insertion order.
 * Pushes, in this order: a@10 b@30 c@20 d@10 e@10.  Expect the run order
 * a d e (all at 10, in push order), then c@20, b@30. */
TEST(event_order_time_then_insertion)
{
	struct sim *sim = st_sim_exact(1);
	struct rec r = { 0 };
	struct ev_arg a[5] = {
		{ &r, 'a', 0, 0, false }, { &r, 'b', 0, 0, false }, { &r, 'c', 0, 0, false },
		{ &r, 'd', 0, 0, false }, { &r, 'e', 0, 0, false },
	};
	const sim_time_t when[5] = { 10, 30, 20, 10, 10 };
	const char expect_tag[5] = { 'a', 'd', 'e', 'c', 'b' };
	const sim_time_t expect_t[5] = { 10, 10, 10, 20, 30 };

	for (int i = 0; i < 5; i++)
		sim_call_at(sim, when[i], ev_cb, &a[i]);
	ASSERT_U64_EQ(sim_run(sim, SIM_TIME_NEVER), 5);
	ASSERT_EQ(r.log.n, 5);
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(r.log.tag[i], expect_tag[i]);
		ASSERT_U64_EQ(r.log.t[i], expect_t[i]);
	}
	sim_destroy(sim);
}

/* A test of the tie-break for an event pushed by a callback for its own
 * time.  Expect it to run after every event already queued for that time
 * (its seq is larger), and before later times. */
TEST(event_tie_break_push_from_callback)
{
	struct sim *sim = st_sim_exact(1);
	struct ev_arg extra[1];
	struct rec r = { .extra = extra };
	struct ev_arg x = { &r, 'x', 5, 'n', false };	/* at 5, pushes n at 5 */
	struct ev_arg y = { &r, 'y', 0, 0, false };	/* at 5 */
	struct ev_arg z = { &r, 'z', 0, 0, false };	/* at 6 */

	sim_call_at(sim, 5, ev_cb, &x);
	sim_call_at(sim, 5, ev_cb, &y);
	sim_call_at(sim, 6, ev_cb, &z);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(r.log.n, 4);
	ASSERT_EQ(r.log.tag[0], 'x');
	ASSERT_EQ(r.log.tag[1], 'y');
	ASSERT_EQ(r.log.tag[2], 'n');
	ASSERT_U64_EQ(r.log.t[2], 5);
	ASSERT_EQ(r.log.tag[3], 'z');
	sim_destroy(sim);
}

/* A test of sim_run's `until` and of sim_stop.  Expect events beyond
 * `until` to stay queued and the clock to stop at the last event run
 * (the contract: min(until, time of last event)); sim_stop ends the run
 * after the current event. */
TEST(event_run_until_and_stop)
{
	struct sim *sim = st_sim_exact(1);
	struct rec r = { 0 };
	struct ev_arg a = { &r, 1, 0, 0, false }, b = { &r, 2, 0, 0, true }, c = { &r, 3, 0, 0, false };

	sim_call_at(sim, 10, ev_cb, &a);
	sim_call_at(sim, 20, ev_cb, &b);
	sim_call_at(sim, 30, ev_cb, &c);
	ASSERT_U64_EQ(sim_run(sim, 15), 1);
	ASSERT_U64_EQ(sim_now(sim), 10);
	ASSERT_U64_EQ(sim_run(sim, SIM_TIME_NEVER), 1);	/* b stops the run */
	ASSERT_U64_EQ(sim_now(sim), 20);
	ASSERT_U64_EQ(sim_run(sim, SIM_TIME_NEVER), 1);
	ASSERT_U64_EQ(sim_now(sim), 30);
	ASSERT_U64_EQ(sim_events(sim), 3);
	ASSERT_U64_EQ(sim_run(sim, SIM_TIME_NEVER), 0);
	sim_destroy(sim);
}

/* A test of the heap itself at arity 2 and 4 against the (time, seq)
 * order: 20000 pushes with many equal times, interleaved with pops.
 * Expect every pop to return the smallest (time, seq) still queued, and
 * equal times to come out in push order. */
static void pop_checked(struct sim_evq *q, unsigned int d, struct sim_event *prev, uint64_t *popped)
{
	struct sim_event e;

	if (d == 2)
		sim_evq_pop_d(q, &e, 2);
	else
		sim_evq_pop_d(q, &e, 4);
	if (*popped && !sim_event_before(prev, &e))
		harness_fail(__FILE__, __LINE__, "arity %u: pop out of order", d);
	*prev = e;
	(*popped)++;
}

static void heap_check(unsigned int d)
{
	struct sim_evq q;
	struct sim_rng rng;
	struct sim_event prev = { 0, 0, NULL, NULL };
	uint64_t popped = 0;

	sim_evq_init(&q);
	rng_init(&rng, 7, rng_stream_id("heap", d));
	for (int i = 0; i < 20000; i++) {
		sim_time_t t = prev.time + rng_below(&rng, 50);	/* never before the last pop */

		if (d == 2)
			sim_evq_push_d(&q, t, NULL, NULL, 2);
		else
			sim_evq_push_d(&q, t, NULL, NULL, 4);
		if (rng_below(&rng, 3) == 0)
			pop_checked(&q, d, &prev, &popped);
	}
	while (q.n)
		pop_checked(&q, d, &prev, &popped);
	if (popped != 20000)
		harness_fail(__FILE__, __LINE__, "arity %u: %llu popped", d, (unsigned long long)popped);
	sim_evq_release(&q);
}

TEST(event_heap_order_binary_and_4ary)
{
	heap_check(2);
	ASSERT_OK_SO_FAR();
	heap_check(4);
}

/* A test of engine context: outside any task, charges go to engine_ns and
 * never move the clock, sim_current is NULL, sim_cpu is the engine CPU.
 * Expect engine_ns 1000 + the cost row's value and now unchanged. */
TEST(event_engine_context_charges)
{
	struct sim *sim = st_sim_exact(4);

	sim_charge(sim, 1000);
	sim_charge_cost(sim, COST_pcp_alloc, 2);
	sim_sync(sim);
	sim_cond_resched(sim);
	ASSERT_U64_EQ(sim_engine_ns(sim), 1000 + cost_ns(sim_costs(sim), COST_pcp_alloc, 2));
	ASSERT_U64_EQ(sim_now(sim), 0);
	ASSERT_TRUE(sim_current(sim) == NULL);
	ASSERT_EQ(sim_cpu(sim), 0);
	sim_set_engine_cpu(sim, 3);
	ASSERT_EQ(sim_cpu(sim), 3);
	ASSERT_EQ(sim_ncpus(sim), 4);
	sim_destroy(sim);
}

static void call_past(void *p)
{
	struct sim *sim = p;

	sim_call_at(sim, 5, ev_cb, NULL);
}

/* A test that scheduling an event in the past is a bug.  Expect SIM_BUG
 * (abort) when the clock is at 10 and an event is asked for 5. */
TEST(event_in_the_past_is_a_bug)
{
	struct sim *sim = st_sim_exact(1);
	struct rec r = { 0 };
	struct ev_arg a = { &r, 1, 0, 0, false };

	sim_call_at(sim, 10, ev_cb, &a);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(st_dies(call_past, sim));
	sim_destroy(sim);
}

struct trace_rec {
	unsigned int	n;
	uint64_t	last_seq;
	bool		increasing;
};

static void trace_fn(void *ctx, sim_time_t t, uint64_t seq, uint32_t task_ref)
{
	struct trace_rec *tr = ctx;

	(void)t;
	(void)task_ref;
	tr->n++;
	if (seq <= tr->last_seq && tr->n > 1)
		tr->increasing = false;
	tr->last_seq = seq;
}

/* A test of the trace hook.  Expect one call per event run (3 here, pushed
 * at increasing times, so their seqs arrive increasing). */
TEST(event_trace_hook)
{
	struct sim *sim = st_sim_exact(1);
	struct rec r = { 0 };
	struct ev_arg a[3] = { { &r, 1, 0, 0, false }, { &r, 2, 0, 0, false }, { &r, 3, 0, 0, false } };
	struct trace_rec tr = { 0, 0, true };

	sim_set_trace(sim, trace_fn, &tr);
	for (int i = 0; i < 3; i++)
		sim_call_at(sim, (sim_time_t)(i + 1) * 10, ev_cb, &a[i]);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(tr.n, 3);
	ASSERT_TRUE(tr.increasing);
	sim_destroy(sim);
}
