/* SPDX-License-Identifier: MIT */
/*
 * engine.c — the simulation object, the event loop and the virtual clock.
 *
 * The clock is a u64 of nanoseconds.  It moves only here (sim_run sets it
 * to the time of each event it runs) and in task.c's sim_sync fast path
 * (a running task's pending charge becomes real without a queue event when
 * no other event is due first).  Events are (time, seq, callback, argument)
 * in a 4-ary heap (evq.h, where the tie-break rule is written down).
 *
 * The loop:
 *   1. peek the earliest event; stop if the queue is empty, it lies beyond
 *      `until`, or sim_stop() was called;
 *   2. pop it, set now = its time, remember its seq (stale-timer check),
 *      call the trace hook if any;
 *   3. run the callback in engine context.  Resuming a task is such a
 *      callback (task.c): it switches to the task's coroutine and returns
 *      when the task blocks, spins, waits for its own resume, or exits.
 *   4. at SIM_DEBUG >= 3, check the scheduler's invariants (every CPU's
 *      owner, idle bit and run queue agree: task.c sim_check_sched).
 *
 * Memory: everything hangs off struct sim; there is no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/bdev.h"
#include "sim/internal.h"
#include "sim/xalloc.h"

void sim_evq_init(struct sim_evq *q)
{
	q->n = 0;
	q->cap = 256;
	q->h = xrealloc(NULL, q->cap * sizeof(*q->h));
	q->next_seq = 1;
}

void sim_evq_release(struct sim_evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}

void sim_evq_grow(struct sim_evq *q)
{
	if (q->cap >= UINT32_MAX / 2)
		SIM_BUG("event queue overflow (%u events)", q->n);
	q->cap *= 2;
	q->h = xrealloc(q->h, q->cap * sizeof(*q->h));
}

struct sim *sim_create(const struct sim_config *cfg)
{
	struct sim *sim = calloc(1, sizeof(*sim));

	if (!sim)
		SIM_BUG("out of memory");
	sim->ncpus = cfg->ncpus ? cfg->ncpus : 1;
	sim->seed = cfg->seed;
	sim->slice_ns = cfg->slice_ns ? cfg->slice_ns : 3 * SIM_NSEC_PER_MSEC;
	sim->preempt = cfg->preempt;
	sim->tick_ns = cfg->tick_ns ? cfg->tick_ns : 4 * SIM_NSEC_PER_MSEC;
	sim->rwsem_steal = cfg->rwsem_steal;
	sim->mm_slots = cfg->mm_slots;
	sim->migration_cost = cfg->migration_cost;
	sim->periodic_balance = cfg->periodic_balance;
	sim->run_to_parity = !cfg->no_run_to_parity;
	sim->delay_dequeue = cfg->delay_dequeue && cfg->preempt != SIM_PREEMPT_SLICE;
	sim->llc_cpus = cfg->llc_cpus && cfg->llc_cpus < sim->ncpus ? cfg->llc_cpus : sim->ncpus;
	/* utilization-based balancing needs a domain without SD_SHARE_LLC */
	sim->pelt = sim->preempt != SIM_PREEMPT_SLICE && sim->llc_cpus < sim->ncpus;
	sim_pelt_tables_init(&sim->pelt_tables);
	/* sysctl_sched_base_slice: 0.75 ms x (1 + ilog2(min(ncpus, 8)))
	 * (SCHED_TUNABLESCALING_LOG, kernel/sched/fair.c) */
	{
		unsigned int n = sim->ncpus < 8 ? sim->ncpus : 8, log = 0;

		while (n >>= 1)
			log++;
		sim->base_slice = 750 * SIM_NSEC_PER_USEC * (1 + log);
	}
	if (cfg->costs)
		sim->costs = *cfg->costs;
	else
		cost_table_init(&sim->costs);
	sim->cpus = calloc(sim->ncpus, sizeof(*sim->cpus));
	sim->idle_words = (sim->ncpus + 63) / 64;
	sim->idle_map = calloc(sim->idle_words, sizeof(*sim->idle_map));
	if (!sim->cpus || !sim->idle_map)
		SIM_BUG("out of memory");
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		sim->idle_map[c / 64] |= 1ULL << (c % 64);
		sim->cpus[c].in_idle = true;	/* idle since time 0 */
		sim->cpus[c].balance_ms = sim->ncpus;	/* sd->min_interval: the domain's weight */
		if (sim->mm_slots) {
			sim->cpus[c].mm_recent = calloc(sim->mm_slots, sizeof(uint32_t));
			if (!sim->cpus[c].mm_recent)
				SIM_BUG("out of memory");
		}
	}
	sim_evq_init(&sim->evq);
	sim_path_init(sim);
	sim->run_until = SIM_TIME_NEVER;
	return sim;
}

void sim_destroy(struct sim *sim)
{
	if (!sim)
		return;
	sim_bdevs_destroy(sim);
	sim_irqs_destroy(sim);
	sim_tasks_destroy(sim);
	sim_path_release(sim);
	for (int k = 0; k < sim->nr_kinds; k++)
		free(sim->kind_names[k]);
	free(sim->kind_names);
	sim_evq_release(&sim->evq);
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		free(sim->cpus[c].rq);
		free(sim->cpus[c].mm_recent);
	}
	free(sim->cpus);
	free(sim->idle_map);
	free(sim);
}

uint64_t sim_run(struct sim *sim, sim_time_t until)
{
	uint64_t start = sim->events;
	struct sim_event ev;

	if (sim->current || sim->running)
		SIM_BUG("sim_run called from inside the simulation");
	sim->running = true;
	sim->stop = false;
	sim->run_until = until;
	while (sim->evq.n && sim->evq.h[0].time <= until) {
		sim_evq_pop(&sim->evq, &ev);
		SIM_ASSERT_INTERNAL(ev.time >= sim->now);
		sim->now = ev.time;
		sim->cur_seq = ev.seq;
		sim->events++;
		if (unlikely(sim->trace != NULL))
			sim->trace(sim->trace_ctx, ev.time, ev.seq, sim_event_task_ref(sim, &ev));
		ev.fn(sim, ev.arg);
		if (SIM_CHECK_EXPENSIVE)
			sim_check_sched(sim);
		if (unlikely(sim->stop))
			break;
	}
	sim->running = false;
	sim->run_until = SIM_TIME_NEVER;
	return sim->events - start;
}

void sim_stop(struct sim *sim)
{
	sim->stop = true;
}

sim_time_t sim_now(const struct sim *sim)
{
	return sim->now + (sim->current ? sim->current->pending : 0);
}

uint64_t sim_events(const struct sim *sim) { return sim->events; }
uint64_t sim_fast_syncs(const struct sim *sim) { return sim->fast_syncs; }
uint64_t sim_uspin_holder_preempts(const struct sim *sim, enum sim_uspin_preempt where)
{
	return sim->uspin_holder_preempts[where];
}
uint64_t sim_uspin_spinner_preempts(const struct sim *sim, enum sim_uspin_preempt where)
{
	return sim->uspin_spinner_preempts[where];
}
uint64_t sim_uspin_holder_runq_waits(const struct sim *sim) { return sim->uspin_holder_runq_waits; }
uint64_t sim_uspin_holder_runq_ns(const struct sim *sim) { return sim->uspin_holder_runq_ns; }
uint64_t sim_wake_ipis(const struct sim *sim) { return sim->wake_ipis; }
uint64_t sim_refill_switches(const struct sim *sim) { return sim->refill_switches; }
uint64_t sim_idle_wakeups(const struct sim *sim) { return sim->idle_wakeups; }
uint64_t sim_remote_busy_wakeups(const struct sim *sim) { return sim->remote_busy_wakeups; }
uint64_t sim_newidle_hot_fails(const struct sim *sim) { return sim->newidle_hot_fails; }
uint64_t sim_newidle_pulls(const struct sim *sim) { return sim->newidle_pulls; }
uint64_t sim_busy_wakeups(const struct sim *sim) { return sim->busy_wakeups; }
uint64_t sim_busy_wakeup_requests(const struct sim *sim) { return sim->busy_wakeup_requests; }
uint64_t sim_delayed_dequeues(const struct sim *sim) { return sim->delayed_dequeues; }
uint64_t sim_delayed_wakeups(const struct sim *sim) { return sim->delayed_wakeups; }
uint64_t sim_delayed_picks(const struct sim *sim) { return sim->delayed_picks; }
uint64_t sim_newidle_util_fails(const struct sim *sim) { return sim->newidle_util_fails; }
void sim_balance_stats(const struct sim *sim, struct sim_balance_stats *out) { *out = sim->balance; }
uint64_t sim_idle_stretches(const struct sim *sim, uint64_t *ns)
{
	*ns = sim->idle_stretch_ns;
	return sim->idle_stretches;
}
uint64_t sim_mm_switches(const struct sim *sim) { return sim->mm_switches; }
uint64_t sim_mm_switch_misses(const struct sim *sim) { return sim->mm_switch_misses; }
uint32_t sim_mm_new(struct sim *sim) { return ++sim->mm_next; }
uint64_t sim_resumes(const struct sim *sim) { return sim->resumes; }
uint64_t sim_direct_resumes(const struct sim *sim) { return sim->direct_resumes; }
unsigned int sim_ncpus(const struct sim *sim) { return sim->ncpus; }
const struct cost_table *sim_costs(const struct sim *sim) { return &sim->costs; }
void sim_set_costs(struct sim *sim, const struct cost_table *costs) { sim->costs = *costs; }
uint64_t sim_seed(const struct sim *sim) { return sim->seed; }
uint64_t sim_engine_ns(const struct sim *sim) { return sim->engine_ns; }

void sim_set_trace(struct sim *sim, sim_trace_fn fn, void *ctx)
{
	sim->trace = fn;
	sim->trace_ctx = ctx;
}

void sim_call_at(struct sim *sim, sim_time_t when, sim_callback_fn fn, void *arg)
{
	if (when < sim_now(sim))
		SIM_BUG("sim_call_at in the past (%llu < %llu)",
			(unsigned long long)when, (unsigned long long)sim_now(sim));
	sim_evq_push(&sim->evq, when, fn, arg);
}

/* ---- task kinds --------------------------------------------------------- */

int sim_task_kind(struct sim *sim, const char *name)
{
	for (int k = 0; k < sim->nr_kinds; k++)
		if (strcmp(sim->kind_names[k], name) == 0)
			return k;
	if (sim->nr_kinds == sim->kinds_cap) {
		sim->kinds_cap = sim->kinds_cap ? 2 * sim->kinds_cap : 8;
		sim->kind_names = xrealloc(sim->kind_names,
					   (size_t)sim->kinds_cap * sizeof(*sim->kind_names));
	}
	sim->kind_names[sim->nr_kinds] = strdup(name);
	if (!sim->kind_names[sim->nr_kinds])
		SIM_BUG("out of memory");
	sim_path_add_root(sim, sim->nr_kinds);
	return sim->nr_kinds++;
}

const char *sim_task_kind_name(const struct sim *sim, int kind)
{
	if (kind < 0 || kind >= sim->nr_kinds)
		return NULL;
	return sim->kind_names[kind];
}

int sim_nr_task_kinds(const struct sim *sim)
{
	return sim->nr_kinds;
}

/* ---- CPU statistics ----------------------------------------------------- */

void sim_cpu_stats(const struct sim *sim, unsigned int cpu, struct sim_cpu_stats *out)
{
	const struct sim_cpu *c;

	SIM_ASSERT(cpu < sim->ncpus);
	c = &sim->cpus[cpu];
	out->busy_ns = c->busy_ns;
	out->spin_ns = c->spin_ns;
	/* Busy time is booked when a charge is synced, so it may run ahead
	 * of the clock by the stretch a task is still completing. */
	out->idle_ns = sim->now > c->busy_ns ? sim->now - c->busy_ns : 0;
	out->switches = c->switches;
	out->irq_ns = c->irq_ns;
	out->irqs = c->irqs;
	out->system_ns = c->sys_ns;
	out->irq_cpu_ns = c->irq_cpu_ns;
	out->iowait_ns = c->iowait_ns;
	if (c->in_idle && c->nr_iowait)	/* the open stretch, as get_cpu_iowait_time_us */
		out->iowait_ns += sim->now - c->idle_start;
}

unsigned int sim_nr_running(const struct sim *sim)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < sim->ncpus; c++)
		n += (sim->cpus[c].curr != NULL) + sim->cpus[c].rq_len;
	return n;
}

unsigned int sim_nr_iowait(const struct sim *sim)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < sim->ncpus; c++)
		n += sim->cpus[c].nr_iowait;
	return n;
}

uint32_t sim_nr_processes(const struct sim *sim)
{
	uint32_t n = sim_nr_tasks(sim);

	for (unsigned int c = 0; c < sim->ncpus; c++)
		n -= sim->cpus[c].irq_task != NULL;
	return n;
}

/* ---- lock registry ------------------------------------------------------ */

const struct sim_spinlock *sim_spinlocks(const struct sim *sim) { return sim->spin_head; }
const struct sim_mutex *sim_mutexes(const struct sim *sim) { return sim->mutex_head; }
const struct sim_rwsem *sim_rwsems(const struct sim *sim) { return sim->rwsem_head; }
