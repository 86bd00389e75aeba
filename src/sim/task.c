/* SPDX-License-Identifier: MIT */
/*
 * task.c — tasks (coroutines) on virtual CPUs: creation, the lazy-charge
 * time model, sync points, blocking and wake-up, run queues, time slices,
 * placement.
 *
 * Tasks
 * -----
 * A task is a coroutine with its own mmap'd stack (default 64 KiB, 512 KiB
 * under ASan) and a PROT_NONE guard page below it, so an overflow faults
 * instead of corrupting a neighbour.  The engine loop runs on the caller's
 * stack; every switch goes engine -> task -> engine (ctx.h), so a task runs
 * only from inside a resume event.  Stacks of exited tasks are kept in a
 * pool for reuse (default size only); task structs stay for statistics.
 *
 * Time model (sim.h): a running task charges CPU time into `pending`.
 * sim_sync() makes it real: with local time L = now + pending,
 *   - fast path: if no queued event is due at or before L (and the run is
 *     not about to stop), set now = L directly.  Queueing a resume event at
 *     L would give it a seq larger than any queued event, and every queued
 *     event is later than L, so it would be the very next event: the fast
 *     path is exactly equivalent, minus a heap push+pop and two switches.
 *   - otherwise queue a resume event at L and switch to the engine; the
 *     task keeps its CPU meanwhile (busy, nobody else runs there).
 *
 * CPUs and run queues
 * -------------------
 * Each CPU has at most one task that owns it (`curr`: executing, waiting
 * for its own resume event, or spinning on a spinlock) and a FIFO run
 * queue.  A task that blocks or exits releases its CPU, which takes the
 * head of its run queue or goes idle (idle bitmap).  A woken task is
 * placed (select_task_rq in spirit, without load balancing):
 *   1. a pinned task goes to its CPU;
 *   2. else its previous CPU if idle;
 *   3. else the lowest-numbered idle CPU;
 *   4. else the previous CPU's run queue.
 * A CPU whose queue is empty when its task blocks, sleeps or exits pulls
 * the head of the longest other queue (newidle balancing); there is no
 * periodic load balancing beyond that.
 * New tasks start on their preferred CPU, or on CPU (id mod ncpus) as
 * their "previous" CPU if they have none.
 *
 * Time slice: a task's CPU time since it was put on its CPU is slice_used.
 * At every sync point, if slice_used >= slice (default 3 ms), another task
 * waits on this CPU and the task holds no spinlock, it goes to the tail of
 * the run queue and the head runs.  Preemption thus takes effect at the
 * first sync point after the slice ends (a stretch of inline work is never
 * split).
 *
 * Costs charged by the engine (costs.def): `context_switch` to a task each
 * time it is put on a CPU (it delays the task's first step), `wakeup` to
 * the waker (engine_ns if the waker is a callback), `spin_handoff` to a
 * spinner when the lock passes to it.
 *
 * Accounting: CPU busy_ns = synced CPU charges + spin time; idle = elapsed
 * - busy.  Per task and per path node: cpu (at charge time), spin (at
 * hand-off), sleep / io (at wake-up), runq (when put on a CPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/internal.h"

#ifdef SIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ---- coroutine switching ------------------------------------------------- */

static inline void switch_to_task(struct sim *sim, struct sim_task *t)
{
#ifdef SIM_ASAN
	void *fake = NULL;

	__sanitizer_start_switch_fiber(&fake, t->stack_lo, t->stack_size);
#endif
	sim->current = t;
	sim_ctx_switch(&sim->engine_ctx, &t->ctx);
	sim->current = NULL;
#ifdef SIM_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

static inline void switch_to_engine(struct sim *sim, struct sim_task *t)
{
#ifdef SIM_ASAN
	void *fake = NULL;

	__sanitizer_start_switch_fiber(t->state == TASK_EXITED ? NULL : &fake,
				       sim->asan_main_bottom, sim->asan_main_size);
#endif
	sim_ctx_switch(&t->ctx, &sim->engine_ctx);
#ifdef SIM_ASAN
	__sanitizer_finish_switch_fiber(fake, &sim->asan_main_bottom, &sim->asan_main_size);
#endif
}

/* ---- stacks ------------------------------------------------------------------ */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/* Mappings left for everything but task stacks: the binary and its
 * libraries, malloc arenas, host_huge_alloc regions, sanitizer shadows. */
#define HOST_MAPS_RESERVED	4096

uint64_t sim_host_max_tasks(uint64_t *max_map_count)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	unsigned long long n = 65530;

	if (f) {
		if (fscanf(f, "%llu", &n) != 1)
			n = 65530;
		fclose(f);
	}
	*max_map_count = n;
	return n > HOST_MAPS_RESERVED ? (n - HOST_MAPS_RESERVED) / 2 : 0;
}

static void *stack_alloc(struct sim *sim, size_t size, void **lo)
{
	size_t pg = page_size();
	char *base;

	if (size == SIM_STACK_DEFAULT && sim->stack_pool) {
		struct sim_stack *s = sim->stack_pool;

		sim->stack_pool = s->next;
		*lo = s;
		base = (char *)s - pg;
#ifdef SIM_ASAN
		ASAN_UNPOISON_MEMORY_REGION(*lo, size);
#endif
		return base;
	}
	base = mmap(NULL, size + pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		SIM_BUG("cannot map a %zu-byte task stack", size);
	if (mprotect(base, pg, PROT_NONE) != 0)
		SIM_BUG("cannot protect a stack guard page");
	*lo = base + pg;
	return base;
}

static void stack_free(struct sim *sim, void *base, size_t size)
{
	if (size == SIM_STACK_DEFAULT) {
		/* The pool link lives at the bottom of the usable area (the guard
		 * page below it is PROT_NONE). */
		struct sim_stack *s = (struct sim_stack *)((char *)base + page_size());

#ifdef SIM_ASAN
		ASAN_UNPOISON_MEMORY_REGION(s, size);
#endif

		s->size = size;
		s->next = sim->stack_pool;
		sim->stack_pool = s;
		return;
	}
	munmap(base, size + page_size());
}

/* ---- run queues and CPUs ------------------------------------------------------ */

static inline bool cpu_is_idle(const struct sim *sim, unsigned int c)
{
	return (sim->idle_map[c / 64] >> (c % 64)) & 1;
}

static inline void cpu_mark_idle(struct sim *sim, unsigned int c, bool idle)
{
	if (idle)
		sim->idle_map[c / 64] |= 1ULL << (c % 64);
	else
		sim->idle_map[c / 64] &= ~(1ULL << (c % 64));
}

static inline void runq_push(struct sim_cpu *cpu, struct sim_task *t)
{
	t->rq_next = NULL;
	if (cpu->rq_tail)
		cpu->rq_tail->rq_next = t;
	else
		cpu->rq_head = t;
	cpu->rq_tail = t;
	cpu->rq_len++;
}

static inline struct sim_task *runq_pop(struct sim_cpu *cpu)
{
	struct sim_task *t = cpu->rq_head;

	if (t) {
		cpu->rq_head = t->rq_next;
		if (!cpu->rq_head)
			cpu->rq_tail = NULL;
		cpu->rq_len--;
		t->rq_next = NULL;
	}
	return t;
}

/* Put `t` on CPU `c` and queue its resume event at `when`. */
static void dispatch(struct sim *sim, struct sim_task *t, unsigned int c, sim_time_t when)
{
	struct sim_cpu *cpu = &sim->cpus[c];

	SIM_ASSERT_INTERNAL(cpu->curr == NULL);
	cpu->curr = t;
	cpu_mark_idle(sim, c, false);
	cpu->switches++;
	t->stats.switches++;
	t->cpu = c;
	t->state = TASK_RUNNING;
	t->slice_used = 0;
	sim_account_cpu(sim, t, cost_ns(&sim->costs, COST_context_switch, 1));
	sim_evq_push(&sim->evq, when, sim_task_resume_event, t);
}

/*
 * newidle_balance() in spirit (kernel/sched/fair.c): a CPU about to go
 * idle pulls the first task that is not pinned from the longest run queue
 * elsewhere (lowest CPU on a tie).  Without it, tasks woken onto busy
 * CPUs wait there while other CPUs idle.
 */
static struct sim_task *newidle_pull(struct sim *sim, unsigned int c)
{
	struct sim_cpu *from = NULL;
	struct sim_task *t, *prev = NULL, *pick = NULL, *pick_prev = NULL;

	for (unsigned int i = 0; i < sim->ncpus; i++) {
		struct sim_cpu *o = &sim->cpus[i];

		if (i == c || (from && o->rq_len <= from->rq_len))
			continue;
		for (prev = NULL, t = o->rq_head; t && t->pinned; prev = t, t = t->rq_next)
			;
		if (t) {
			from = o;
			pick = t;
			pick_prev = prev;
		}
	}
	if (!pick)
		return NULL;
	if (pick_prev)
		pick_prev->rq_next = pick->rq_next;
	else
		from->rq_head = pick->rq_next;
	if (from->rq_tail == pick)
		from->rq_tail = pick_prev;
	from->rq_len--;
	pick->rq_next = NULL;
	return pick;
}

/* CPU `c` has no owner now: run the head of its queue, else pull one
 * from the busiest queue, or go idle. */
static void cpu_next(struct sim *sim, unsigned int c)
{
	struct sim_cpu *cpu = &sim->cpus[c];
	struct sim_task *t = runq_pop(cpu);
	sim_time_t when;

	if (!t)
		t = newidle_pull(sim, c);

	cpu->curr = NULL;
	if (!t) {
		cpu_mark_idle(sim, c, true);
		return;
	}
	when = t->mark > sim->now ? t->mark : sim->now;
	t->stats.runq_ns += when - t->mark;
	sim->nodes[t->top].runq_ns += when - t->mark;
	dispatch(sim, t, c, when);
}

static unsigned int select_cpu(const struct sim *sim, const struct sim_task *t)
{
	unsigned int prev = t->cpu;

	if (t->pinned || cpu_is_idle(sim, prev))
		return prev;
	for (unsigned int w = 0; w < sim->idle_words; w++)
		if (sim->idle_map[w])
			return w * 64 + (unsigned int)__builtin_ctzll(sim->idle_map[w]);
	return prev;
}

void sim_task_wake(struct sim *sim, struct sim_task *t, sim_time_t when)
{
	unsigned int c;

	if (t->state == TASK_BLOCKED) {
		uint64_t d = when - t->mark;

		SIM_ASSERT_INTERNAL(when >= t->mark);
		if (t->block_kind == BLOCK_IO) {
			t->stats.io_ns += d;
			sim->nodes[t->top].io_ns += d;
		} else {
			t->stats.sleep_ns += d;
			sim->nodes[t->top].sleep_ns += d;
		}
	} else if (t->state != TASK_NEW) {
		SIM_BUG("waking task %s in state %d", t->name, t->state);
	}
	t->timer_seq = 0;
	t->waitq = NULL;
	sim_charge_cost(sim, COST_wakeup, 1);
	c = select_cpu(sim, t);
	if (sim->cpus[c].curr == NULL) {
		dispatch(sim, t, c, when);
	} else {
		t->state = TASK_RUNNABLE;
		t->mark = when;
		t->cpu = c;
		runq_push(&sim->cpus[c], t);
	}
}

/* ---- blocking ---------------------------------------------------------------------- */

void sim_task_block(struct sim *sim, enum sim_block_kind kind)
{
	struct sim_task *t = sim->current;

	SIM_ASSERT(t && t->pending == 0);
	if (t->preempt_count)
		SIM_BUG("task %s sleeps holding %u spinlock(s)", t->name, t->preempt_count);
	t->state = TASK_BLOCKED;
	t->block_kind = (uint8_t)kind;
	t->mark = sim->now;
	cpu_next(sim, t->cpu);
	switch_to_engine(sim, t);
}

void sim_task_spin_wait(struct sim *sim)
{
	struct sim_task *t = sim->current;

	SIM_ASSERT(t && t->pending == 0);
	t->spinning = true;
	t->mark = sim->now;
	switch_to_engine(sim, t);
}

void sim_task_spin_granted(struct sim *sim, struct sim_task *t, sim_time_t when)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];
	uint64_t d = when - t->mark;

	SIM_ASSERT(t->spinning && t->state == TASK_RUNNING && when >= t->mark);
	t->spinning = false;
	cpu->busy_ns += d;
	cpu->spin_ns += d;
	t->stats.spin_ns += d;
	sim->nodes[t->top].spin_ns += d;
	sim_account_cpu(sim, t, cost_ns(&sim->costs, COST_spin_handoff, 1));
	sim_evq_push(&sim->evq, when, sim_task_resume_event, t);
}

/* ---- events -------------------------------------------------------------------------- */

void sim_task_resume_event(struct sim *sim, void *arg)
{
	struct sim_task *t = arg;

	SIM_ASSERT_INTERNAL(t->state == TASK_RUNNING);
	sim->resumes++;
	switch_to_task(sim, t);
	if (t->state == TASK_EXITED) {
		stack_free(sim, t->stack, t->stack_size);
		t->stack = NULL;
	}
}

void sim_task_timer_event(struct sim *sim, void *arg)
{
	struct sim_task *t = arg;

	if (t->timer_seq != sim->cur_seq)
		return;		/* cancelled: the task was woken earlier */
	if (t->waitq) {
		sim_waiters_remove(sim, &t->waitq->waiters, t);
		t->woken = false;
	}
	sim_task_wake(sim, t, sim->now);
}

/* ---- the lazy-charge time model ------------------------------------------------------ */

void sim_charge(struct sim *sim, uint64_t ns)
{
	struct sim_task *t = sim->current;

	if (unlikely(!t)) {
		sim->engine_ns += ns;
		return;
	}
	sim_account_cpu(sim, t, ns);
}

void sim_charge_cost(struct sim *sim, enum cost_id id, uint64_t n)
{
	sim_charge(sim, cost_ns(&sim->costs, id, n));
}

static void task_preempt(struct sim *sim, struct sim_task *t)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	t->state = TASK_RUNNABLE;
	t->mark = sim->now;
	runq_push(cpu, t);
	cpu_next(sim, t->cpu);
	switch_to_engine(sim, t);
}

/* Make the current task's pending charge real (no preemption check). */
static inline void sync_time(struct sim *sim, struct sim_task *t)
{
	uint64_t p = t->pending;

	if (p) {
		sim_time_t target = sim->now + p;

		t->pending = 0;
		t->slice_used += p;
		sim->cpus[t->cpu].busy_ns += p;
		if (likely(sim_evq_clear_until(&sim->evq, target) &&
			   target <= sim->run_until && !sim->stop && !sim->fast_sync_off)) {
			sim->now = target;
			sim->fast_syncs++;
		} else {
			sim_evq_push(&sim->evq, target, sim_task_resume_event, t);
			switch_to_engine(sim, t);
		}
	}
}

void sim_sync(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (!t)
		return;
	sync_time(sim, t);
	if (unlikely(t->slice_used >= sim->slice_ns) && sim->cpus[t->cpu].rq_head &&
	    !t->preempt_count) {
		task_preempt(sim, t);
		/* put back on a CPU, the task was charged the context switch:
		 * callers rely on nothing being pending after a sync (a blocking
		 * call right after it asserts so) */
		sync_time(sim, t);
	}
}

/*
 * A task that calls cond_resched() again and again at one instant waits in
 * a loop for something only another task or an event can change (the
 * too_many_isolated() loop of isolate_migratepages_block(), whose
 * reclaim_throttle() only cond_rescheds a kernel thread).  A real CPU
 * burns time in such a loop; the model burns what the loop's steps cost,
 * and with those costs set to 0 in [costs] (valid: "free" steps) neither
 * the slice nor the clock would ever move and the run would hang at one
 * instant (found by the simulation fuzzer, tests/fuzz/simfuzz.sh).  So
 * after SPIN_RESCHEDS calls in a row at one instant the task spins as the
 * CPU would: it yields to a task queued on its CPU, else it burns CPU time
 * up to the next event (at least 1 ns), the first moment at which what it
 * waits for can change.  A loop whose steps cost anything moves the clock
 * and never gets here, so results with a non-zero cost table are unchanged.
 */
#define SPIN_RESCHEDS	1024

void sim_cond_resched(struct sim *sim)
{
	struct sim_task *t = sim->current;
	sim_time_t next;

	sim_sync(sim);
	if (!t)
		return;
	if (t->resched_at != sim->now) {
		t->resched_at = sim->now;
		t->resched_same = 0;
		return;
	}
	if (++t->resched_same < SPIN_RESCHEDS)
		return;
	t->resched_same = 0;
	if (sim->cpus[t->cpu].rq_head && !t->preempt_count) {
		task_preempt(sim, t);
		sync_time(sim, t);
		return;
	}
	next = sim->evq.n ? sim->evq.h[0].time : sim->run_until;
	if (next == SIM_TIME_NEVER)
		next = sim->now + SIM_NSEC_PER_MSEC;	/* nothing will ever happen: no run ends so */
	sim_account_cpu(sim, t, next > sim->now ? next - sim->now : 1);
	sync_time(sim, t);
}

void sim_sleep_until(struct sim *sim, sim_time_t when)
{
	struct sim_task *t = sim->current;

	if (!t)
		SIM_BUG("sim_sleep in engine context");
	sim_sync(sim);
	if (when <= sim->now)
		return;
	t->timer_seq = sim_evq_push(&sim->evq, when, sim_task_timer_event, t);
	sim_task_block(sim, BLOCK_SLEEP);
}

void sim_sleep(struct sim *sim, sim_time_t ns)
{
	sim_sleep_until(sim, sim_now(sim) + ns);
}

/* ---- task lifecycle -------------------------------------------------------------- */

static void task_entry(void *arg)
{
	struct sim_task *t = arg;
	struct sim *sim = t->sim;

#ifdef SIM_ASAN
	__sanitizer_finish_switch_fiber(NULL, &sim->asan_main_bottom, &sim->asan_main_size);
#endif
	t->fn(sim, t->arg);
	sync_time(sim, t);	/* no preemption: the task is leaving anyway */
	if (t->preempt_count)
		SIM_BUG("task %s exits holding %u spinlock(s)", t->name, t->preempt_count);
	t->state = TASK_EXITED;
	cpu_next(sim, t->cpu);
	switch_to_engine(sim, t);
	SIM_BUG("exited task %s resumed", t->name);
}

struct sim_task *sim_task_create(struct sim *sim, const struct sim_task_config *cfg,
				 sim_task_fn fn, void *arg, sim_time_t start)
{
	struct sim_task *t;
	size_t size = cfg->stack_size ? cfg->stack_size : SIM_STACK_DEFAULT;
	size_t pg = page_size();

	if (cfg->kind < 0 || cfg->kind >= sim->nr_kinds)
		SIM_BUG("task kind %d is not registered (sim_task_kind)", cfg->kind);
	if (cfg->cpu != SIM_CPU_ANY && (cfg->cpu < 0 || (unsigned int)cfg->cpu >= sim->ncpus))
		SIM_BUG("task cpu %d out of range (%u CPUs)", cfg->cpu, sim->ncpus);
	if (cfg->pinned && cfg->cpu == SIM_CPU_ANY)
		SIM_BUG("pinned task without a CPU");
	if (start < sim_now(sim))
		SIM_BUG("task start in the past");
	if (sim->nr_tasks == UINT32_MAX - 1)
		SIM_BUG("too many tasks");
	size = (size + pg - 1) / pg * pg;

	t = calloc(1, sizeof(*t));
	if (!t)
		SIM_BUG("out of memory");
	if (sim->nr_tasks == sim->tasks_cap) {
		sim->tasks_cap = sim->tasks_cap ? 2 * sim->tasks_cap : 64;
		sim->tasks = realloc(sim->tasks, sim->tasks_cap * sizeof(*sim->tasks));
		if (!sim->tasks)
			SIM_BUG("out of memory");
	}
	t->id = sim->nr_tasks;
	sim->tasks[sim->nr_tasks++] = t;
	t->sim = sim;
	t->fn = fn;
	t->arg = arg;
	t->kind = cfg->kind;
	t->name = strdup(cfg->name ? cfg->name : "task");
	if (!t->name)
		SIM_BUG("out of memory");
	t->pinned = cfg->pinned;
	t->cpu = cfg->cpu == SIM_CPU_ANY ? t->id % sim->ncpus : (unsigned int)cfg->cpu;
	t->top = (uint32_t)cfg->kind;	/* the root node of kind k has index k */
	t->state = TASK_NEW;
	t->stack_size = size;
	t->stack = stack_alloc(sim, size, &t->stack_lo);
	sim_ctx_make(&t->ctx, t->stack_lo, size, task_entry, t);
	t->timer_seq = sim_evq_push(&sim->evq, start, sim_task_timer_event, t);
	return t;
}

void sim_tasks_destroy(struct sim *sim)
{
	size_t pg = page_size();

	for (uint32_t i = 0; i < sim->nr_tasks; i++) {
		struct sim_task *t = sim->tasks[i];

		if (t->stack) {
#ifdef SIM_ASAN
			/* a task destroyed mid-run leaves ASan poison on the
			 * frames it still had; clear it before the mapping can
			 * be reused by the next engine in this process */
			ASAN_UNPOISON_MEMORY_REGION((char *)t->stack + pg, t->stack_size);
#endif
			munmap(t->stack, t->stack_size + pg);
		}
		free(t->name);
		free(t);
	}
	free(sim->tasks);
	while (sim->stack_pool) {
		struct sim_stack *s = sim->stack_pool;

		sim->stack_pool = s->next;
		munmap((char *)s - pg, s->size + pg);
	}
}

/* ---- invariant check (SIM_DEBUG >= 3: after every event) ---------------------------- */

void sim_check_sched(const struct sim *sim)
{
	SIM_ASSERT(sim->current == NULL);
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		const struct sim_cpu *cpu = &sim->cpus[c];
		uint32_t n = 0;

		if (cpu_is_idle(sim, c) != (cpu->curr == NULL))
			SIM_BUG("cpu %u: idle bit disagrees with its owner", c);
		if (cpu->curr && (cpu->curr->state != TASK_RUNNING || cpu->curr->cpu != c))
			SIM_BUG("cpu %u: owner %s in state %d on cpu %u", c, cpu->curr->name,
				cpu->curr->state, cpu->curr->cpu);
		if (!cpu->curr && cpu->rq_head)
			SIM_BUG("cpu %u: idle with a non-empty run queue", c);
		for (const struct sim_task *t = cpu->rq_head; t; t = t->rq_next) {
			if (t->state != TASK_RUNNABLE || t->cpu != c)
				SIM_BUG("cpu %u: queued task %s in state %d on cpu %u", c, t->name,
					t->state, t->cpu);
			n++;
		}
		if (n != cpu->rq_len)
			SIM_BUG("cpu %u: run queue length %u, counted %u", c, cpu->rq_len, n);
	}
}

/* ---- accessors -------------------------------------------------------------------- */

struct sim_task *sim_current(const struct sim *sim) { return sim->current; }
uint32_t sim_task_id(const struct sim_task *t) { return t->id; }
const char *sim_task_name(const struct sim_task *t) { return t->name; }
int sim_task_kind_of(const struct sim_task *t) { return t->kind; }
uint32_t sim_nr_tasks(const struct sim *sim) { return sim->nr_tasks; }
bool sim_task_exited(const struct sim_task *t) { return t->state == TASK_EXITED; }

struct sim_task *sim_task_get(const struct sim *sim, uint32_t id)
{
	return id < sim->nr_tasks ? sim->tasks[id] : NULL;
}

void sim_task_stats(const struct sim_task *t, struct sim_task_stats *out)
{
	*out = t->stats;
}

unsigned int sim_cpu(const struct sim *sim)
{
	return sim->current ? sim->current->cpu : sim->engine_cpu;
}

void sim_set_engine_cpu(struct sim *sim, unsigned int cpu)
{
	SIM_ASSERT(cpu < sim->ncpus);
	sim->engine_cpu = cpu;
}
