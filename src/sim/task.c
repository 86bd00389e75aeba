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
 * time it is put on a CPU (it delays the task's first step), and
 * `switch_refill` besides when another task was put on that CPU since it
 * last ran there (a task put back on the CPU it left idle finds its
 * caches warm; an interrupt's handler is not counted), `wakeup` to
 * the waker (engine_ns if the waker is a callback), `wake_remote_busy`
 * besides to a waker that queues the task on another CPU while that CPU
 * runs a task, `spin_handoff` to a spinner when the lock passes to it.
 *
 * Accounting: CPU busy_ns = synced CPU charges + spin time; idle = elapsed
 * - busy.  Per task and per path node: cpu (at charge time), spin (at
 * hand-off), sleep / io (at wake-up), runq (when put on a CPU).
 * /proc/stat's split of a CPU's time (kernel/sched/cputime.c and
 * kernel/time/tick-sched.c, 6.12, with precise accounting rather than
 * ticks): a charge is system time when it was made in kernel mode
 * (sim_kernel_enter, kernel threads, a kernel spinlock held) or is the
 * scheduler's own (the context switch, a wake-up and its IPI, a spinlock
 * hand-off), interrupt time when the interrupt context made it, else user
 * time; a spin is the spinner's mode's (a user-space s_lock spin is user
 * time).  A task that
 * blocks for I/O (BLOCK_IO: io_schedule) counts in its CPU's nr_iowait
 * until it is woken; an idle stretch of a CPU (no owner, no interrupt)
 * is iowait time if nr_iowait is non-zero when it ends, as
 * tick_nohz_stop_idle decides it, else idle time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
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

/*
 * The task to switch to straight from the yielding task `t`, without the
 * round trip through the engine's stack: the queue's first event, if it is
 * a plain resume of another task that sim_run would dispatch next and run
 * without anything else happening first (no trace hook, no interrupt
 * that could hold the resume back, within `until` and not stopped).  The
 * event order is the queue's either way: only the host stack the next
 * task is entered from changes, so results are the same byte for byte.  An exiting task goes through the engine, which frees its
 * stack; ASan builds always do (their fiber annotations name the engine's
 * stack).
 */
static inline struct sim_task *direct_next(const struct sim *sim, const struct sim_task *t)
{
#ifdef SIM_ASAN
	(void)sim;
	(void)t;
	return NULL;
#else
	const struct sim_event *h;
	struct sim_task *nt;

	if (!sim->evq.n || sim->stop || sim->trace || t->state == TASK_EXITED ||
	    sim->irqs_active)
		return NULL;
	h = &sim->evq.h[0];
	if (h->fn != sim_task_resume_event || h->time > sim->run_until)
		return NULL;
	nt = h->arg;
	if (nt == t || nt->irq_debt)
		return NULL;
	return nt;
#endif
}

bool sim_direct_switch_built(void)
{
#ifdef SIM_ASAN
	return false;
#else
	return true;
#endif
}

/* Leave task `t`: run the next event's task directly if direct_next allows,
 * doing what sim_run and sim_task_resume_event would do for its event, else
 * switch to the engine. */
static inline void switch_to_engine(struct sim *sim, struct sim_task *t)
{
	struct sim_task *nt = direct_next(sim, t);

	if (nt) {
		struct sim_event ev;

		if (SIM_CHECK_EXPENSIVE) {	/* sim_run's check between two events */
			sim->current = NULL;
			sim_check_sched(sim);
		}
		sim_evq_pop(&sim->evq, &ev);
		SIM_ASSERT_INTERNAL(ev.time >= sim->now && ev.arg == nt);
		SIM_ASSERT_INTERNAL(nt->state == TASK_RUNNING);
		sim->now = ev.time;
		sim->cur_seq = ev.seq;
		sim->events++;
		sim->resumes++;
		sim->direct_resumes++;
		sim->current = nt;
		sim_ctx_switch(&t->ctx, &nt->ctx);
		return;
	}
#ifdef SIM_ASAN
	void *fake = NULL;

	__sanitizer_start_switch_fiber(t->state == TASK_EXITED ? NULL : &fake,
				       sim->asan_main_bottom, sim->asan_main_size);
#endif
	sim->yielded = t;
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

/* An idle stretch of `cpu` starts or ends now (see Accounting). */
static inline void cpu_idle_begin(struct sim *sim, struct sim_cpu *cpu)
{
	cpu->in_idle = true;
	cpu->idle_start = sim->now;
}

static inline void cpu_idle_end(struct sim *sim, struct sim_cpu *cpu)
{
	if (cpu->nr_iowait)
		cpu->iowait_ns += sim->now - cpu->idle_start;
	cpu->in_idle = false;
}

static inline void cpu_runnable_sync(struct sim *sim, struct sim_cpu *cpu);

static inline void runq_push(struct sim_cpu *cpu, struct sim_task *t)
{
	cpu_runnable_sync(t->sim, cpu);
	if (cpu->rq_len == cpu->rq_cap) {
		cpu->rq_cap = cpu->rq_cap ? 2 * cpu->rq_cap : 16;
		cpu->rq = realloc(cpu->rq, cpu->rq_cap * sizeof(*cpu->rq));
		if (!cpu->rq)
			SIM_BUG("out of memory");
	}
	cpu->rq[cpu->rq_len++] = (struct sim_rq_ent){ t->vruntime, t->deadline, t };
}

/* Take entry i out of the queue, keeping the order of the others. */
static inline struct sim_task *runq_remove(struct sim_cpu *cpu, uint32_t i)
{
	struct sim_task *t = cpu->rq[i].t;

	cpu_runnable_sync(t->sim, cpu);
	memmove(&cpu->rq[i], &cpu->rq[i + 1], (cpu->rq_len - i - 1) * sizeof(*cpu->rq));
	cpu->rq_len--;
	return t;
}

static inline struct sim_task *runq_pop(struct sim_cpu *cpu)
{
	return cpu->rq_len ? runq_remove(cpu, 0) : NULL;
}

/* ---- EEVDF (kernel/sched/fair.c, 6.12) ---------------------------------------------- */

/*
 * The preemption models (preempt != slice) run an EEVDF queue per CPU,
 * for nice-0 tasks only, so virtual time runs at real speed and every
 * weight is 1:
 *   - V, the CPU's average vruntime over its queued tasks and owner
 *     (avg_vruntime); a task is eligible when its vruntime <= V
 *     (vruntime_eligible, compared without division);
 *   - the owner's vruntime grows by each synced charge (update_curr); its
 *     deadline moves to vruntime + base_slice once vruntime reaches it
 *     (update_deadline), which asks for a reschedule when others wait;
 *   - a sleeping task keeps its lag V - vruntime, clamped to
 *     max(2 slices, a tick) (update_entity_lag); at wake-up it is placed
 *     at V - lag, the lag inflated by (n + 1) / n so it survives its own
 *     arrival, deadline vruntime + slice (half a slice for a new task:
 *     place_entity with PLACE_LAG, PLACE_DEADLINE_INITIAL);
 *   - pick_eevdf: the eligible task with the earliest deadline; with
 *     RUN_TO_PARITY (run_to_parity, the default) the owner keeps the CPU
 *     while it is eligible and its deadline is the one it was picked with
 *     (its slice is protected).
 *   - DELAY_DEQUEUE (delay_dequeue) with DELAY_ZERO: a task that blocks
 *     while not eligible stays in the queue, still counted in V, until
 *     EEVDF picks it (then it leaves, its lag clipped to at most 0:
 *     dequeue_entity, pick_next_entity, finish_delayed_dequeue_entity) or
 *     it is woken first; a wake-up finds it queued and leaves it on that
 *     CPU with no CPU selection (ttwu_runnable), re-placed at V with a new
 *     deadline if it has become eligible (requeue_delayed_entity), then
 *     tests for preemption as any wake-up onto a busy CPU.  It is counted
 *     in the CPU's nr_running (the balancer and the nohz kick see it), not
 *     in its runnable signal nor util_est, and in nr_iowait only once its
 *     sleep has left the queue (__block_task).
 * Simplified: no buddies, no PREEMPT_SHORT (all slices equal), a linear
 * scan of an array of keys instead of the augmented tree, newidle pulls
 * keep their lag; the balancers never move a delayed task (6.12's
 * can_migrate_task lets them; it would stay delayed on the new CPU).
 */
static inline bool fair_sched(const struct sim *sim)
{
	return sim->preempt != SIM_PREEMPT_SLICE;
}

static inline bool fair_eligible(const struct sim_cpu *cpu, int64_t v)
{
	return cpu->nr_fair == 0 || v * (int64_t)cpu->nr_fair <= cpu->sum_v;
}

static inline int64_t fair_avg(const struct sim_cpu *cpu)
{
	int64_t n = (int64_t)cpu->nr_fair, q, r;

	if (!n)
		return cpu->vmin;
	q = cpu->sum_v / n;	/* floor, as the kernel's div_s64 of a shifted sum */
	r = cpu->sum_v % n;
	return r < 0 ? q - 1 : q;
}

static void fair_enqueue(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t, bool initial)
{
	int64_t lag = 0, slice = (int64_t)sim->base_slice;
	int64_t v = fair_avg(cpu);

	if (cpu->nr_fair)
		lag = t->vlag * (int64_t)(cpu->nr_fair + 1) / (int64_t)cpu->nr_fair;
	t->vruntime = v - lag;
	t->deadline = t->vruntime + (initial ? slice / 2 : slice);
	t->protect_deadline = t->deadline + 1;
	cpu->sum_v += t->vruntime;
	cpu->nr_fair++;
}

/* Take `t` off the CPU's queue accounting, keeping its lag. */
static void fair_dequeue(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	int64_t limit = 2 * (int64_t)sim->base_slice;
	int64_t avg = fair_avg(cpu), lag = avg - t->vruntime;

	if ((int64_t)sim->tick_ns > limit)
		limit = (int64_t)sim->tick_ns;
	t->vlag = lag > limit ? limit : lag < -limit ? -limit : lag;
	SIM_ASSERT_INTERNAL(cpu->nr_fair > 0);
	cpu->sum_v -= t->vruntime;
	if (--cpu->nr_fair == 0) {
		cpu->vmin = avg;
		cpu->sum_v = 0;
	}
}

static bool fair_update_deadline(struct sim *sim, struct sim_task *t)
{
	if (t->vruntime < t->deadline)
		return false;
	t->deadline = t->vruntime + (int64_t)sim->base_slice;
	return true;
}

/* pick_eevdf over the queue plus `curr` (the owner still competing, or
 * NULL): the eligible task with the earliest deadline; on a tie a queued
 * task before the owner (entity_before is strict), queue order among the
 * queued (equal keys go right in the tree). */
static struct sim_task *fair_pick(const struct sim *sim, const struct sim_cpu *cpu,
				  struct sim_task *curr)
{
	const struct sim_rq_ent *best = NULL, *any = NULL;

	if (curr && !fair_eligible(cpu, curr->vruntime))
		curr = NULL;
	if (curr && sim->run_to_parity && curr->protect_deadline == curr->deadline)
		return curr;	/* RUN_TO_PARITY */
	for (const struct sim_rq_ent *e = cpu->rq, *end = cpu->rq + cpu->rq_len; e < end; e++) {
		if (!any || e->deadline < any->deadline)
			any = e;
		if (fair_eligible(cpu, e->vruntime) && (!best || e->deadline < best->deadline))
			best = e;
	}
	if (curr && (!best || curr->deadline < best->deadline))
		return curr;
	return best ? best->t : any ? any->t : NULL;
}

static void runq_unlink(struct sim_cpu *cpu, struct sim_task *t)
{
	uint32_t i = 0;

	while (cpu->rq[i].t != t)
		i++;
	runq_remove(cpu, i);
}

static inline void cpu_runnable_sync(struct sim *sim, struct sim_cpu *cpu);

/* dequeue_entity's DELAY_DEQUEUE test for owner `t`, which blocks: not
 * eligible (others are queued, since a lone task is always eligible), it
 * stays queued with its keys; true if so. */
static bool fair_delay_dequeue(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	if (!sim->delay_dequeue || fair_eligible(cpu, t->vruntime))
		return false;
	runq_push(cpu, t);	/* syncs the runnable signal before the count moves */
	cpu->nr_delayed++;
	t->sched_delayed = true;
	sim->delayed_dequeues++;
	return true;
}

/* The delayed sleep of `t` leaves the queue (dequeue_entities with
 * DEQUEUE_DELAYED): its lag kept, at most 0 (DELAY_ZERO); from now on it
 * counts as an I/O sleeper of its CPU if it is one (__block_task). */
static void fair_finish_delayed(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	runq_unlink(cpu, t);
	cpu_runnable_sync(sim, cpu);
	cpu->nr_delayed--;
	t->sched_delayed = false;
	fair_dequeue(sim, cpu, t);
	if (t->vlag > 0)
		t->vlag = 0;
	if (t->block_kind == BLOCK_IO)
		cpu->nr_iowait++;
}

/* pick_next_entity: pick_eevdf, each delayed task it picks leaving the
 * queue, until it picks a runnable one (or `curr`); NULL: none left. */
static struct sim_task *fair_pick_next(struct sim *sim, struct sim_cpu *cpu, struct sim_task *curr)
{
	struct sim_task *t;

	while ((t = fair_pick(sim, cpu, curr)) && t->sched_delayed) {
		fair_finish_delayed(sim, cpu, t);
		sim->delayed_picks++;
	}
	return t;
}

/* resched_curr: a reschedule request for CPU `c`'s owner, made at instant
 * `when`.  Under lazy preemption the fair class sets only the lazy bit.
 * The request exists from `when` on (resched_from): a waker that wakes
 * several tasks in a row (sim_wake_all) wakes each at its own local time,
 * after the earlier wake-ups' costs, while the engine runs them all at
 * the waker's sync point; a request of a later wake-up must not act at a
 * sync point its target reaches before that wake-up's instant. */
static void fair_resched(struct sim *sim, struct sim_task *t, sim_time_t when)
{
	if (!t->need_resched || when < t->resched_from)
		t->resched_from = when;
	t->need_resched |= sim->preempt == SIM_PREEMPT_LAZY ? SIM_NEED_RESCHED_LAZY
							      : SIM_NEED_RESCHED;
}

/* `t` has a full reschedule request in force at instant `when`. */
static inline bool full_request_at(const struct sim_task *t, sim_time_t when)
{
	return (t->need_resched & SIM_NEED_RESCHED) && t->resched_from <= when;
}

/* check_preempt_wakeup_fair: `t` was just queued on `cpu`, whose owner is
 * `curr`, by a wake-up at instant `when`; true if it asked `curr` to
 * reschedule. */
static bool fair_wakeup_preempt(struct sim *sim, struct sim_cpu *cpu, struct sim_task *curr,
				struct sim_task *t, sim_time_t when)
{
	if (curr->is_irq || full_request_at(curr, when))
		return false;
	if (!fair_update_deadline(sim, curr) && fair_pick(sim, cpu, curr) != t)
		return false;
	fair_resched(sim, curr, when);
	return true;
}

/* The owner's scheduler ticks since it was last looked at (sched_tick ->
 * task_tick_fair -> update_curr; the lazy bit promoted to a full request,
 * as the lazy model does on the tick). */
static inline sim_time_t tick_after(const struct sim *sim, sim_time_t t)
{
	return (t / sim->tick_ns + 1) * sim->tick_ns;
}

/* The first tick after now (ticks fall at multiples of tick_ns). */
static inline sim_time_t next_tick(struct sim *sim)
{
	if (sim->now >= sim->tick_next)
		sim->tick_next = tick_after(sim, sim->now);
	return sim->tick_next;
}

static void sched_balance_tick(struct sim *sim, unsigned int c);

static bool fair_tick(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	if (sim->now < cpu->tick_due)
		return false;
	cpu->tick_due = tick_after(sim, sim->now);
	if ((t->need_resched & SIM_NEED_RESCHED_LAZY) && t->resched_from <= sim->now)
		t->need_resched |= SIM_NEED_RESCHED;
	if (fair_update_deadline(sim, t) && cpu->nr_fair > 1)
		fair_resched(sim, t, sim->now);
	sched_balance_tick(sim, (unsigned int)(cpu - sim->cpus));
	return true;
}

/* Whether a need-resched request preempts `t` here.  In user mode: the
 * full bit at any sync point (it came with the reschedule IPI, whose return
 * to user preempts; the model acts at the next sync point); the lazy bit
 * only on a return to user (`to_user`: a tick, the end of a system call
 * or fault), since the lazy model sends no IPI for it.  In kernel mode by
 * the model: full and lazy for the full bit outside spinlocks, none and
 * voluntary only at their explicit points (`explicit`). */
static bool fair_may_preempt(const struct sim *sim, const struct sim_task *t, bool explicit,
			     bool to_user)
{
	if (!t->need_resched || t->preempt_count || t->is_irq || sim->now < t->resched_from)
		return false;
	if (!t->kthread && !t->kernel_depth)
		return (t->need_resched & SIM_NEED_RESCHED) || to_user;
	if (!(t->need_resched & SIM_NEED_RESCHED))
		return false;
	return explicit || sim->preempt == SIM_PREEMPT_FULL || sim->preempt == SIM_PREEMPT_LAZY;
}

/*
 * switch_mm_irqs_off (arch/x86/mm/tlb.c, arm64's check_and_switch_context;
 * 6.12): `t` is put on a CPU whose loaded address space is another one.
 * It pays `mm_switch` (loading the page-table root; without PCID on x86 a
 * flush of the TLB's user entries; on a VM with shadow paging the
 * hypervisor's switch of roots), as system time.  With mm_slots the CPU
 * keeps the translations of its last mm_slots address spaces (x86's
 * TLB_NR_DYN_ASIDS PCIDs, a hypervisor's cached roots): an address space
 * not among them costs `mm_switch_miss` besides.  A kernel thread borrows
 * the loaded one (lazy TLB) and changes nothing.  Simplified: no TLB
 * shootdowns, no generation rollover of ASIDs; the cost does not depend
 * on how much of the address space is then touched.
 */
static void switch_mm_in(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	uint64_t d = cost_ns(&sim->costs, COST_mm_switch, 1);

	sim->mm_switches++;
	if (sim->mm_slots) {
		unsigned int i = 0, n = sim->mm_slots;

		while (i < n && cpu->mm_recent[i] != t->mm)
			i++;
		if (i == n) {	/* not kept: the slot of the least recent goes */
			sim->mm_switch_misses++;
			d += cost_ns(&sim->costs, COST_mm_switch_miss, 1);
			i = n - 1;
		}
		for (; i > 0; i--)
			cpu->mm_recent[i] = cpu->mm_recent[i - 1];
		cpu->mm_recent[0] = t->mm;
	}
	cpu->mm_cur = t->mm;
	sim_account_cpu_mode(sim, t, d, true);
}

/* Put `t` on CPU `c` and queue its resume event at `when`. */
static void dispatch(struct sim *sim, struct sim_task *t, unsigned int c, sim_time_t when)
{
	struct sim_cpu *cpu = &sim->cpus[c];

	SIM_ASSERT_INTERNAL(cpu->curr == NULL);
	if (sim->pelt) {	/* t and the CPU were not running until `when` */
		cpu_runnable_sync(sim, cpu);
		sim_pelt_update(&sim->pelt_tables, &cpu->util, when, 0);
		sim_pelt_update(&sim->pelt_tables, &t->util, when, 0);
	}
	if (cpu->in_idle)
		cpu_idle_end(sim, cpu);
	if (cpu_is_idle(sim, c)) {	/* the idle task's stretch ends as t is switched in */
		sim->idle_stretches++;
		sim->idle_stretch_ns += when - cpu->ownerless_since;
	}
	cpu->curr = t;
	cpu_mark_idle(sim, c, false);
	cpu->switches++;
	t->stats.switches++;
	t->cpu = c;
	t->state = TASK_RUNNING;
	t->slice_used = 0;
	t->protect_deadline = t->deadline;	/* set_protect_slice */
	cpu->tick_due = tick_after(sim, when);
	sim_account_cpu_mode(sim, t, cost_ns(&sim->costs, COST_context_switch, 1), true);
	/* another task ran here since t did: t finds its cache lines and TLB
	 * entries evicted and refills them as it runs (user time for a user
	 * task: its own code and data are what it refills) */
	if (cpu->last_owner && cpu->last_owner != t->id + 1) {
		sim->refill_switches++;
		sim_account_cpu_mode(sim, t, cost_ns(&sim->costs, COST_switch_refill, 1), t->kthread);
	}
	cpu->last_owner = t->id + 1;
	if (t->mm && t->mm != cpu->mm_cur)
		switch_mm_in(sim, cpu, t);
	sim_evq_push(&sim->evq, when, sim_task_resume_event, t);
}

/* can_migrate_task: a hot task may go anyway once the domain's balancing
 * failed more than cache_nice_tries (1 below the NUMA level) times in a
 * row; only periodic and nohz-idle balancing count failures. */
#define SD_CACHE_NICE_TRIES	1
#define SD_BUSY_FACTOR		16	/* the domain's busy_factor (sd_init) */
#define SD_IMBALANCE_PCT	117	/* its imbalance_pct */
#define SCHED_NR_MIGRATE	32	/* sysctl_sched_nr_migrate */

/* rq->nr_running: the CPU's queued tasks and its owner */
static inline unsigned int cpu_nr_running(const struct sim_cpu *cpu)
{
	return cpu->rq_len + (cpu->curr != NULL);
}

static inline bool balance_failed_enough(const struct sim_cpu *dst)
{
	return dst->nr_balance_failed > SD_CACHE_NICE_TRIES;
}

/*
 * The PELT signals the balancer weighs (pelt.c), kept only with sim->pelt:
 * under the kernel's preemption models when the CPUs share no last-level
 * cache (llc_cpus < ncpus), the one case where the model's single domain
 * stands for one without SD_SHARE_LLC and calculate_imbalance balances
 * utilization (below).  Each task's util signal runs while it is on a CPU;
 * each CPU's while it has an owner, and gains or loses a task's util when
 * the task moves (migrate_task_rq_fair -> remove_entity_load_avg, then
 * attach_entity_load_avg); each CPU's runnable signal counts its queued
 * tasks and owner.  util_est (util_est_update) is the task's util when it
 * last went to sleep if that was higher, else the ewma moves a quarter of
 * the way down unless within 1 % (UTIL_EST_MARGIN).
 * Simplified: no util_est skip when util_avg is unchanged since the last
 * enqueue and no comparison with the task's runnable signal; a new task
 * starts at 0 (post_init_entity_util_avg gives it half the CPU's spare
 * capacity); the runnable signal is not moved with a task; interrupt time
 * and kernel threads count as tasks' time.
 */
static inline void cpu_runnable_sync(struct sim *sim, struct sim_cpu *cpu)
{
	if (sim->pelt)
		sim_pelt_update(&sim->pelt_tables, &cpu->runnable, sim->now,
				(uint64_t)SIM_PELT_ONE * (cpu_nr_running(cpu) - cpu->nr_delayed));
}

static inline void cpu_util_sync(struct sim *sim, struct sim_cpu *cpu)
{
	sim_pelt_update(&sim->pelt_tables, &cpu->util, sim->now, cpu->curr ? SIM_PELT_ONE : 0);
}

/* task_util_est: the larger of its util (brought to now) and util_est */
static uint32_t task_util_est(struct sim *sim, struct sim_task *t)
{
	if (t->state != TASK_RUNNING)
		sim_pelt_update(&sim->pelt_tables, &t->util, sim->now, 0);
	uint32_t util = sim_pelt_avg(&sim->pelt_tables, &t->util);

	return util > t->util_est ? util : t->util_est;
}

/* util_est_update at a sleep, `t`'s util brought to now */
static void util_est_update(const struct sim *sim, struct sim_task *t)
{
	uint32_t ewma = t->util_est, dequeued = sim_pelt_avg(&sim->pelt_tables, &t->util);

	if (ewma <= dequeued)
		t->util_est = dequeued;
	else if (ewma - dequeued >= SIM_PELT_ONE / 100)
		t->util_est = ewma - ((ewma - dequeued) >> 2);
}

/* `t`, not running, leaves CPU `from` for CPU `to`: its util goes with it */
static void task_migrate_util(struct sim *sim, struct sim_task *t, unsigned int from, unsigned int to)
{
	if (!sim->pelt || from == to)
		return;
	sim_pelt_update(&sim->pelt_tables, &t->util, sim->now, 0);
	cpu_util_sync(sim, &sim->cpus[from]);
	cpu_util_sync(sim, &sim->cpus[to]);
	uint32_t util = sim_pelt_avg(&sim->pelt_tables, &t->util);

	sim_pelt_sub(&sim->pelt_tables, &sim->cpus[from].util, util);
	sim_pelt_add(&sim->pelt_tables, &sim->cpus[to].util, util);
}

/* cpu_util_cfs: the CPU's util or, if larger, its runnable tasks'
 * util_est, at most its capacity (an owner leaving the CPU to sleep or
 * exit, as newidle balancing sees it, is dequeued: not counted) */
static uint64_t cpu_util(struct sim *sim, struct sim_cpu *cpu)
{
	uint64_t u = 0, est = cpu->curr && cpu->curr->state == TASK_RUNNING ? cpu->curr->util_est : 0;

	cpu_util_sync(sim, cpu);
	for (uint32_t k = 0; k < cpu->rq_len; k++)
		if (!cpu->rq[k].t->sched_delayed)
			est += cpu->rq[k].t->util_est;
	u = sim_pelt_avg(&sim->pelt_tables, &cpu->util);
	u = u > est ? u : est;
	return u < SIM_PELT_ONE ? u : SIM_PELT_ONE;
}

/*
 * group_classify's group_overloaded for a group of one CPU (group_is_
 * overloaded): more runnable tasks than CPUs, and its util above
 * capacity / imbalance_pct or its runnable signal above capacity x
 * imbalance_pct.
 */
static bool cpu_overloaded(struct sim *sim, struct sim_cpu *cpu)
{
	if (cpu_nr_running(cpu) <= 1)
		return false;
	cpu_runnable_sync(sim, cpu);
	return (uint64_t)SIM_PELT_ONE * 100 < cpu_util(sim, cpu) * SD_IMBALANCE_PCT ||
	       (uint64_t)SIM_PELT_ONE * SD_IMBALANCE_PCT <
		       (uint64_t)sim_pelt_avg(&sim->pelt_tables, &cpu->runnable) * 100;
}

/*
 * calculate_imbalance for a CPU `dst` with spare capacity (group_has_spare:
 * idle, or running one task that leaves room) and a busiest CPU `src`, in
 * a domain without SD_SHARE_LLC: when `src` is overloaded, migrate_util,
 * the imbalance (*util_imbalance) being dst's spare capacity, its capacity
 * less its util, which for an idle CPU still holds what ran there before
 * it went idle; with no spare left, one task (migrate_task, imbalance 1).
 * Otherwise the model's count of tasks (sibling_imbalance).
 */
enum balance_kind { BALANCE_COUNT, BALANCE_UTIL, BALANCE_ONE };

/* group_has_capacity for a CPU with one runnable task: its runnable
 * signal at most capacity x imbalance_pct and its util under capacity /
 * imbalance_pct */
static bool cpu_has_spare(struct sim *sim, struct sim_cpu *cpu)
{
	cpu_runnable_sync(sim, cpu);
	return (uint64_t)sim_pelt_avg(&sim->pelt_tables, &cpu->runnable) * 100 <=
		       (uint64_t)SIM_PELT_ONE * SD_IMBALANCE_PCT &&
	       (uint64_t)SIM_PELT_ONE * 100 > cpu_util(sim, cpu) * SD_IMBALANCE_PCT;
}

static enum balance_kind balance_rule(struct sim *sim, unsigned int dst, unsigned int src,
				      int64_t *util_imbalance)
{
	if (!sim->pelt || !cpu_overloaded(sim, &sim->cpus[src]))
		return BALANCE_COUNT;
	*util_imbalance = SIM_PELT_ONE - (int64_t)cpu_util(sim, &sim->cpus[dst]);
	return *util_imbalance > 0 ? BALANCE_UTIL : BALANCE_ONE;
}

/* detach_tasks' migrate_util test: a task moves only if its util, halved
 * per failed balance (shr_bound), fits what is left of the imbalance. */
static bool util_fits(struct sim *sim, struct sim_task *t, const struct sim_cpu *dst, int64_t imbalance,
		      uint32_t *util)
{
	unsigned int shift = dst->nr_balance_failed < 63 ? dst->nr_balance_failed : 63;

	*util = task_util_est(sim, t);
	return (int64_t)(*util >> shift) <= imbalance;
}

/*
 * task_hot (kernel/sched/fair.c, 6.12): a task that left its CPU less than
 * sysctl_sched_migration_cost ago (500 us by default) still has its cache
 * there, and load balancing leaves it unless earlier attempts failed
 * (nr_balance_failed > cache_nice_tries), which newidle balancing never
 * counts.  Only the kernel's preemption models apply it; the model's
 * original scheduler (slice) pulls any task.  Simplified: no SMT
 * domains (where nothing is hot), no next buddy, every task nice 0.
 */
static inline bool task_hot(const struct sim *sim, const struct sim_task *t)
{
	return fair_sched(sim) && t->exec_end != SIM_TIME_NEVER &&
	       sim->now - t->exec_end < sim->migration_cost;
}

/*
 * sched_balance_newidle (kernel/sched/fair.c, 6.12), simplified: a CPU
 * about to go idle looks at the longest run queue elsewhere (lowest CPU on
 * a tie) that holds a task not pinned, and pulls the first such task that
 * is not cache-hot (task_hot) and, when the CPUs share no last-level
 * cache and that queue's CPU is overloaded, whose util fits this CPU's
 * spare capacity (balance_rule, util_fits); when none is, it pulls
 * nothing, as sched_balance_rq fails on a busiest queue whose tasks all
 * stay.
 * Without it, tasks woken onto busy CPUs wait there while other CPUs
 * idle.  Simplified: no avg_idle / max_newidle_lb_cost cut-off, one
 * domain spanning all CPUs.  A hot task left queued waits for its own CPU,
 * for another CPU to go idle once it has cooled, or for periodic
 * balancing (below).
 */
static struct sim_task *newidle_pull(struct sim *sim, unsigned int c)
{
	struct sim_cpu *from = NULL;
	uint32_t first = 0;

	for (unsigned int i = 0; i < sim->ncpus; i++) {
		struct sim_cpu *o = &sim->cpus[i];
		uint32_t k = 0;

		if (i == c || (from && o->rq_len <= from->rq_len))
			continue;
		while (k < o->rq_len && (o->rq[k].t->pinned || o->rq[k].t->sched_delayed))
			k++;
		if (k < o->rq_len) {
			from = o;
			first = k;
		}
	}
	if (!from)
		return NULL;
	int64_t spare = 0;
	bool by_util = balance_rule(sim, c, (unsigned int)(from - sim->cpus), &spare) == BALANCE_UTIL;
	bool hot = false;

	for (uint32_t k = first; k < from->rq_len; k++) {
		struct sim_task *t = from->rq[k].t;
		uint32_t util;

		if (t->pinned || t->sched_delayed)
			continue;
		if (task_hot(sim, t) && !balance_failed_enough(&sim->cpus[c])) {
			hot = true;
			continue;
		}
		if (by_util && !util_fits(sim, t, &sim->cpus[c], spare, &util))
			continue;
		sim->newidle_pulls++;
		task_migrate_util(sim, t, (unsigned int)(from - sim->cpus), c);
		return runq_remove(from, k);
	}
	if (hot)
		sim->newidle_hot_fails++;
	else
		sim->newidle_util_fails++;
	return NULL;
}

/* Put `t`, runnable since t->mark and taken off a run queue, on CPU `c`
 * (which has no owner) from instant `at` on; the wait goes to its
 * run-queue time. */
static void run_queued(struct sim *sim, struct sim_task *t, unsigned int c, sim_time_t at)
{
	sim_time_t when = t->mark > at ? t->mark : at;

	t->stats.runq_ns += when - t->mark;
	sim->nodes[t->top].runq_ns += when - t->mark;
	if (t->uspins_held) {
		sim->uspin_holder_runq_waits++;
		sim->uspin_holder_runq_ns += when - t->mark;
	}
	dispatch(sim, t, c, when);
}

static void nohz_balance_enter_idle(struct sim *sim, const struct sim_cpu *cpu);

/* CPU `c` has no owner now: run the head of its queue, else pull one
 * from the busiest queue, or go idle. */
static void cpu_next(struct sim *sim, unsigned int c)
{
	struct sim_cpu *cpu = &sim->cpus[c];
	struct sim_task *t;

	if (cpu->curr) {	/* put_prev_entity: the leaving task's exec_start */
		cpu->curr->exec_end = sim->now;
		if (sim->pelt) {
			cpu_runnable_sync(sim, cpu);
			sim_pelt_update(&sim->pelt_tables, &cpu->curr->util, sim->now, SIM_PELT_ONE);
			sim_pelt_update(&sim->pelt_tables, &cpu->util, sim->now, SIM_PELT_ONE);
		}
	}
	if (fair_sched(sim)) {
		t = fair_pick_next(sim, cpu, NULL);
		if (t)
			runq_unlink(cpu, t);
	} else {
		t = runq_pop(cpu);
	}
	if (!t && (t = newidle_pull(sim, c)) && fair_sched(sim)) {
		fair_dequeue(sim, &sim->cpus[t->cpu], t);
		t->cpu = c;
		fair_enqueue(sim, cpu, t, false);
	}

	cpu->curr = NULL;
	if (!t) {
		cpu_mark_idle(sim, c, true);
		cpu->ownerless_since = sim->now;
		if (!cpu->irq_active)
			cpu_idle_begin(sim, cpu);
		nohz_balance_enter_idle(sim, cpu);
		return;
	}
	run_queued(sim, t, c, sim->now);
}

/*
 * select_task_rq_fair -> select_idle_sibling (kernel/sched/fair.c, 6.12),
 * simplified: the previous CPU if idle, else the lowest idle CPU sharing
 * its last-level cache (llc_cpus; the scan of sd_llc), else the previous
 * CPU.  With no cache shared (llc_cpus 1) a wake-up stays on its previous
 * CPU and only load balancing moves the task.  Simplified: no wake_affine
 * (the waker's CPU is never the target: on the development VM 98 % of the
 * cross-CPU wake-ups of PostgreSQL and pgbench processes ran on the
 * wakee's previous CPU, docs/calibration.md "Periodic balancing and the
 * last-level cache"); the scan goes from the cache's lowest CPU, not from
 * the target's next one, with no SIS_UTIL limit and no idle-core
 * preference (no SMT).
 */
/* The lowest idle CPU, or ncpus when none is. */
static unsigned int first_idle_cpu(const struct sim *sim)
{
	for (unsigned int w = 0; w < sim->idle_words; w++)
		if (sim->idle_map[w])
			return w * 64 + (unsigned int)__builtin_ctzll(sim->idle_map[w]);
	return sim->ncpus;
}

static unsigned int select_cpu(const struct sim *sim, const struct sim_task *t)
{
	unsigned int prev = t->cpu;

	if (t->pinned || cpu_is_idle(sim, prev))
		return prev;
	if (sim->llc_cpus == sim->ncpus) {
		unsigned int c = first_idle_cpu(sim);

		return c < sim->ncpus ? c : prev;
	}
	unsigned int lo = prev / sim->llc_cpus * sim->llc_cpus;
	unsigned int hi = lo + sim->llc_cpus < sim->ncpus ? lo + sim->llc_cpus : sim->ncpus;

	for (unsigned int c = lo; c < hi; c++)
		if (cpu_is_idle(sim, c))
			return c;
	return prev;
}

static void spin_account(struct sim *sim, struct sim_task *t, sim_time_t when);
static void uspin_resched_event(struct sim *sim, void *arg);

/* sim_charge for the scheduler's own work: system time whatever mode the
 * current task is in; engine_ns in engine context. */
static void charge_kernel(struct sim *sim, uint64_t ns)
{
	if (sim->current)
		sim_account_cpu_mode(sim, sim->current, ns, true);
	else
		sim->engine_ns += ns;
}

/*
 * The IPI a wake-up sends to another CPU (try_to_wake_up, kernel/sched/
 * core.c, 6.12): ttwu_queue_wakelist's function-call IPI when the target
 * CPU is idle, resched_curr's reschedule IPI when the wake-up sets the
 * full need-resched bit on the target's owner (a lazy bit sends none).
 * The waker pays `wake_ipi`; returns it.  Simplified: the kernel splits
 * the cost between the sender (on a VM, the trapped ICR write) and the
 * receiver's interrupt entry; the model charges all of it to the waker,
 * and the IPI has no delivery latency of its own beyond that cost.
 */
static uint64_t send_wake_ipi(struct sim *sim)
{
	uint64_t d = cost_ns(&sim->costs, COST_wake_ipi, 1);

	sim->wake_ipis++;
	charge_kernel(sim, d);
	return d;
}

/* ---- periodic and nohz-idle balancing (kernel/sched/fair.c, 6.12) ------------------ */

/*
 * Under the kernel's preemption models, with periodic_balance: one
 * scheduling domain spans all CPUs (weight n), its state kept per CPU as
 * each CPU has its own copy of the domain (sd_init): balance_interval
 * starts at min_interval = n ms and doubles up to max_interval = 2n ms
 * while balancing finds nothing to do; last_balance; nr_balance_failed.
 *   - A busy CPU balances at its tick once last_balance + the interval x
 *     busy_factor 16, less a jiffy, has passed (sched_balance_trigger ->
 *     sched_balance_domains, CPU_NOT_IDLE).  An idle CPU has no tick
 *     (nohz): a busy CPU with two or more runnable tasks kicks the nohz
 *     balancer at its tick once nohz.next_balance has passed
 *     (nohz_balancer_kick), which balances each idle CPU whose interval
 *     has passed, from the one after the first idle CPU round to it
 *     (_nohz_idle_balance, CPU_IDLE).  Intervals are whole jiffies,
 *     clamped to 1 .. HZ x n / 10 (max_load_balance_interval).
 *   - sched_balance_rq: the busiest CPU is the other CPU with most
 *     runnable tasks (the lowest on a tie), which must have two.  The
 *     imbalance, in tasks: for an idle CPU half the busiest's
 *     (sibling_imbalance >> 1); for a busy one min(busiest - average,
 *     average - local), the average over all CPUs (migrate_load), and
 *     none when it has two or more and the busiest no more than 117 % of
 *     its count (imbalance_pct).
 *   - detach_tasks: up to min(32, the busiest's count) queued tasks
 *     examined, the longest queued first; a pinned one stays, a
 *     cache-hot one (task_hot) stays unless nr_balance_failed >
 *     cache_nice_tries.  An imbalance and nothing moved: failed + 1
 *     (which lets newidle pulls take hot tasks too); moved: failed 0;
 *     the interval back to min_interval either way.  Nothing to do, or
 *     every candidate pinned: failed 0, the interval doubled.  A task
 *     moved onto a busy CPU may preempt its owner as a wake-up would
 *     (attach_task -> wakeup_preempt).
 * Simplified: a CPU's load is its count of runnable tasks at the instant
 * (no load_avg, no migrate_load between busy CPUs, every task nice 0),
 * except that with llc_cpus < ncpus a CPU with spare capacity weighs PELT
 * utilization against an overloaded one (balance_rule, migrate_util);
 * one domain whatever llc_cpus says (the kernel stacks an LLC domain
 * under the package one when both have more than one CPU); no active
 * balancing (the busiest's running task is never pushed away); the
 * balancing's own CPU time is not charged; a kick costs the kicker one
 * wake_ipi, and an idle CPU given a task starts it after that and
 * idle_exit, as after a wake-up onto an idle CPU.
 */

/* get_sd_balance_interval, in ns (whole jiffies) */
static sim_time_t balance_interval(const struct sim *sim, const struct sim_cpu *cpu, bool busy)
{
	uint64_t ms = (uint64_t)cpu->balance_ms * (busy ? SD_BUSY_FACTOR : 1);
	uint64_t j = (ms * SIM_NSEC_PER_MSEC + sim->tick_ns - 1) / sim->tick_ns;	/* msecs_to_jiffies */
	uint64_t jmax = SIM_NSEC_PER_SEC / sim->tick_ns * sim->ncpus / 10;

	if (busy && j)
		j--;
	if (j < 1)
		j = 1;
	if (j > jmax)
		j = jmax;
	return j * sim->tick_ns;
}

/* The balance found nothing to do (out_balanced, out_all_pinned). */
static void balance_none(const struct sim *sim, struct sim_cpu *dst)
{
	dst->nr_balance_failed = 0;
	if (dst->balance_ms < 2 * sim->ncpus)
		dst->balance_ms *= 2;
}

/* attach_task: `t`, taken off its CPU's queue, onto CPU `c`; on an idle
 * CPU it runs from `at`. */
static void balance_attach(struct sim *sim, unsigned int c, struct sim_task *t, sim_time_t at)
{
	struct sim_cpu *dst = &sim->cpus[c];

	fair_dequeue(sim, &sim->cpus[t->cpu], t);
	t->cpu = c;
	fair_enqueue(sim, dst, t, false);
	if (!dst->curr)
		run_queued(sim, t, c, at);
	else
		runq_push(dst, t);
}

/* sched_balance_rq for CPU `c` (idle: CPU_IDLE, else CPU_NOT_IDLE); an
 * idle CPU that gets tasks runs the first from `at`. */
static void sched_balance_rq(struct sim *sim, unsigned int c, bool idle, sim_time_t at)
{
	struct sim_cpu *dst = &sim->cpus[c], *src = NULL;
	struct sim_task *owner = dst->curr;
	uint64_t local = cpu_nr_running(dst), most = 0, total = 0, imbalance = 0, n = sim->ncpus;

	sim->balance.runs++;
	for (unsigned int i = 0; i < sim->ncpus; i++) {
		uint64_t r = cpu_nr_running(&sim->cpus[i]);

		total += r;
		if (i != c && r > most) {
			most = r;
			src = &sim->cpus[i];
		}
	}
	enum balance_kind kind = BALANCE_COUNT;
	int64_t spare = 0;

	if (most >= 2 && most > local) {
		/* group_has_spare: idle, or one task with util and runnable
		 * under the capacity's margin (group_has_capacity) */
		bool has_spare = sim->pelt && (!local || (local == 1 && cpu_has_spare(sim, dst)));

		if (has_spare && (kind = balance_rule(sim, c, (unsigned int)(src - sim->cpus), &spare)) != BALANCE_COUNT)
			imbalance = kind == BALANCE_UTIL ? (uint64_t)spare : 1;
		else if (!local)
			imbalance = most / 2;
		else if (has_spare)
			imbalance = 0;	/* busy, and the busiest not overloaded: out_balanced */
		else if (local < 2 || 100 * most > SD_IMBALANCE_PCT * local) {
			uint64_t over = most * n - total, under = total > local * n ? total - local * n : 0;

			imbalance = (over < under ? over : under) / n;
		}
	}
	if (!imbalance) {
		balance_none(sim, dst);
		return;
	}
	uint64_t moved = 0, examined = 0, loop_max = most < SCHED_NR_MIGRATE ? most : SCHED_NR_MIGRATE;
	bool all_pinned = true;
	uint32_t k = 0;

	/* migrate_util counts the imbalance in util, the others in tasks */
	while (k < src->rq_len && (kind == BALANCE_UTIL ? spare > 0 : moved < imbalance) &&
	       examined < loop_max) {
		struct sim_task *t = src->rq[k].t;
		uint32_t util;

		examined++;
		if (t->pinned || t->sched_delayed) {
			k++;
			continue;
		}
		all_pinned = false;
		if (task_hot(sim, t) && !balance_failed_enough(dst)) {
			k++;
			continue;
		}
		if (kind == BALANCE_UTIL) {
			if (!util_fits(sim, t, dst, spare, &util)) {
				k++;
				continue;
			}
			spare -= util;
		}
		runq_remove(src, k);
		task_migrate_util(sim, t, (unsigned int)(src - sim->cpus), c);
		balance_attach(sim, c, t, at);
		if (owner)
			fair_wakeup_preempt(sim, dst, owner, t, sim->now);
		moved++;
		if (idle && cpu_nr_running(src) <= 1)
			break;
	}
	if (all_pinned) {
		balance_none(sim, dst);
		return;
	}
	if (moved) {
		dst->nr_balance_failed = 0;
		sim->balance.moved += moved;
	} else {
		dst->nr_balance_failed++;
		sim->balance.failed++;
	}
	dst->balance_ms = sim->ncpus;
}

/* sched_balance_domains for CPU `c` with its one domain, if due. */
static void sched_balance_domains(struct sim *sim, unsigned int c, bool idle, sim_time_t at)
{
	struct sim_cpu *cpu = &sim->cpus[c];

	if (sim->now < cpu->last_balance + balance_interval(sim, cpu, !idle))
		return;
	sched_balance_rq(sim, c, idle, at);
	cpu->last_balance = sim->now / sim->tick_ns * sim->tick_ns;	/* jiffies */
}

/* nohz_balance_enter_idle with sched_balance_newidle's update of the
 * CPU's next balance: nohz.next_balance is the earliest of the idle
 * CPUs'. */
static void nohz_balance_enter_idle(struct sim *sim, const struct sim_cpu *cpu)
{
	sim_time_t due;

	if (!sim->periodic_balance || !fair_sched(sim))
		return;
	due = cpu->last_balance + balance_interval(sim, cpu, false);
	if (due < sim->nohz_next_balance)
		sim->nohz_next_balance = due;
}

/* nohz_balancer_kick from CPU `c`'s tick, and the kicked CPU's
 * _nohz_idle_balance over the idle CPUs. */
static void nohz_balancer_kick(struct sim *sim, unsigned int c)
{
	unsigned int ilb;
	sim_time_t next = SIM_TIME_NEVER, at;

	if (cpu_nr_running(&sim->cpus[c]) < 2 || sim->now < sim->nohz_next_balance)
		return;
	ilb = first_idle_cpu(sim);	/* find_new_ilb */
	if (ilb == sim->ncpus)
		return;
	sim->balance.nohz_kicks++;
	at = sim->now + send_wake_ipi(sim);
	at += cost_ns(&sim->costs, COST_idle_exit, 1);
	sim->nohz_next_balance = sim->now + sim->tick_ns;	/* kick_ilb: jiffies + 1 */
	for (unsigned int k = 1; k <= sim->ncpus; k++) {
		unsigned int i = (ilb + k) % sim->ncpus;
		const struct sim_cpu *o = &sim->cpus[i];
		sim_time_t due;

		if (!cpu_is_idle(sim, i))
			continue;
		sched_balance_domains(sim, i, true, at);
		due = o->last_balance + balance_interval(sim, o, !cpu_is_idle(sim, i));
		if (due < next)
			next = due;
	}
	if (next != SIM_TIME_NEVER)
		sim->nohz_next_balance = next;
}

/* sched_balance_trigger and nohz_balancer_kick at a tick of CPU `c`,
 * which has an owner. */
static void sched_balance_tick(struct sim *sim, unsigned int c)
{
	if (!sim->periodic_balance)
		return;
	sched_balance_domains(sim, c, false, sim->now);
	nohz_balancer_kick(sim, c);
}

/* The rest of a wake-up of `t`, queued on CPU `c` while that CPU runs a
 * task, at instant `when` (`remote`: from another CPU; `initial`: a new
 * task's first start). */
static void wake_onto_busy(struct sim *sim, struct sim_task *t, unsigned int c, sim_time_t when,
			   bool remote, bool initial)
{
	/* onto another CPU's run queue while that CPU runs a task: its rq
	 * lock and run-queue lines come over from there */
	if (remote) {
		sim->remote_busy_wakeups++;
		charge_kernel(sim, cost_ns(&sim->costs, COST_wake_remote_busy, 1));
	}
	t->state = TASK_RUNNABLE;
	t->mark = when;
	if (fair_sched(sim)) {
		struct sim_task *curr = sim->cpus[c].curr;
		bool uspinner = curr->spinning && curr->uspin;

		/* only a full request the wake-up makes sends an IPI */
		bool had_full = remote && full_request_at(curr, when);

		if (uspinner)
			spin_account(sim, curr, sim->now);	/* update_curr */
		sim->busy_wakeups += !initial;
		if (fair_wakeup_preempt(sim, &sim->cpus[c], curr, t, when))
			sim->busy_wakeup_requests += !initial;
		if (remote && !had_full && full_request_at(curr, when))
			send_wake_ipi(sim);
		/* the reschedule IPI preempts a user-mode spinner (a request it
		 * already had has its own check) */
		if (uspinner && (curr->need_resched & SIM_NEED_RESCHED) &&
		    curr->resched_from == when)
			curr->spin_evt_seq = sim_evq_push(&sim->evq, when, uspin_resched_event, curr);
	}
}

/* ttwu_runnable -> enqueue_task(ENQUEUE_DELAYED) -> requeue_delayed_entity
 * (6.12), DELAY_ZERO: `t`, asleep but still queued on `cpu`, is runnable
 * again where it is; if it has become eligible meanwhile (positive lag)
 * it is placed again at V with a new deadline, else it keeps its keys. */
static void ttwu_runnable(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	cpu_runnable_sync(sim, cpu);
	cpu->nr_delayed--;
	t->sched_delayed = false;
	sim->delayed_wakeups++;
	if (fair_avg(cpu) - t->vruntime > 0) {
		runq_unlink(cpu, t);
		fair_dequeue(sim, cpu, t);
		t->vlag = 0;
		fair_enqueue(sim, cpu, t, false);
		runq_push(cpu, t);
	}
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
		if (t->block_kind == BLOCK_IO && !t->sched_delayed)	/* ttwu: the rq it slept on */
			sim->cpus[t->cpu].nr_iowait--;
	} else if (t->state != TASK_NEW) {
		SIM_BUG("waking task %s in state %d", t->name, t->state);
	}
	bool initial = t->state == TASK_NEW;

	t->timer_seq = 0;
	t->waitq = NULL;
	/* try_to_wake_up is kernel work, whatever the waker's mode */
	charge_kernel(sim, cost_ns(&sim->costs, COST_wakeup, 1));
	if (t->sched_delayed) {
		struct sim_cpu *cpu = &sim->cpus[t->cpu];

		SIM_ASSERT_INTERNAL(cpu->curr);	/* a CPU drains its delayed tasks before idling */
		ttwu_runnable(sim, cpu, t);
		wake_onto_busy(sim, t, t->cpu, when, sim->current && sim->current->cpu != t->cpu,
			       false);
		return;
	}
	c = select_cpu(sim, t);
	task_migrate_util(sim, t, t->cpu, c);
	/* a waker on another CPU reaches CPU c only with an IPI; from the
	 * engine (a timer) or from c itself nothing is sent (a task's first
	 * start is not a wake-up: none of this) */
	bool remote = !initial && sim->current && sim->current->cpu != c;

	if (fair_sched(sim))
		fair_enqueue(sim, &sim->cpus[c], t, initial);
	if (sim->cpus[c].curr == NULL) {
		sim->idle_wakeups += !initial;
		uint64_t d = 0;

		if (remote)	/* sent, then received: the woken task waits for it */
			d = send_wake_ipi(sim);
		/* the CPU was halted (not when the waker's interrupt is on it) */
		if (remote || (!sim->current && !initial))
			d += cost_ns(&sim->costs, COST_idle_exit, 1);
		/* woken, not yet running: run-queue wait to the breakdown */
		t->stats.runq_ns += d;
		sim->nodes[t->top].runq_ns += d;
		when += d;
		dispatch(sim, t, c, when);
	} else {
		t->cpu = c;
		runq_push(&sim->cpus[c], t);
		wake_onto_busy(sim, t, c, when, remote, initial);
	}
}

/* ---- blocking ---------------------------------------------------------------------- */

void sim_task_block(struct sim *sim, enum sim_block_kind kind)
{
	struct sim_task *t = sim->current;

	SIM_ASSERT(t && t->pending == 0);
	if (t->is_irq)
		SIM_BUG("%s sleeps in interrupt context", t->name);
	if (t->preempt_count)
		SIM_BUG("task %s sleeps holding %u spinlock(s)", t->name, t->preempt_count);
	t->stats.blocks++;
	t->state = TASK_BLOCKED;
	t->block_kind = (uint8_t)kind;
	t->mark = sim->now;
	t->need_resched = 0;	/* __schedule clears prev's request */
	if (sim->pelt) {	/* dequeue_task_fair -> util_est_update */
		sim_pelt_update(&sim->pelt_tables, &t->util, sim->now, SIM_PELT_ONE);
		util_est_update(sim, t);
	}
	/* io_schedule's in_iowait counts in nr_iowait once the task leaves
	 * the queue (__block_task) */
	if (!fair_sched(sim) || !fair_delay_dequeue(sim, &sim->cpus[t->cpu], t)) {
		if (kind == BLOCK_IO)
			sim->cpus[t->cpu].nr_iowait++;
		if (fair_sched(sim))
			fair_dequeue(sim, &sim->cpus[t->cpu], t);
	}
	cpu_next(sim, t->cpu);
	switch_to_engine(sim, t);
}

static void uspin_arm(struct sim *sim, struct sim_task *t);

void sim_task_spin_wait(struct sim *sim)
{
	struct sim_task *t = sim->current;

	SIM_ASSERT(t && t->pending == 0);
	t->spinning = true;
	t->mark = sim->now;
	t->spin_charged = 0;
	if (t->uspin)
		uspin_arm(sim, t);
	switch_to_engine(sim, t);
}

/* The spinner's spin since `mark`, up to `when`, becomes CPU time (of the
 * CPU, of the task, spin time, and under EEVDF vruntime: update_curr), as
 * far as it was not accounted yet. */
static void spin_account(struct sim *sim, struct sim_task *t, sim_time_t when)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];
	uint64_t d;

	SIM_ASSERT(when >= t->mark + t->spin_charged);
	d = when - t->mark - t->spin_charged;
	t->spin_charged += d;
	cpu->busy_ns += d;
	cpu->spin_ns += d;
	if (t->is_irq)
		cpu->irq_cpu_ns += d;
	else if (!t->uspin || task_in_kernel(t))
		cpu->sys_ns += d;
	if (fair_sched(sim) && !t->is_irq) {	/* spinning is CPU time to the scheduler */
		t->vruntime += (int64_t)d;
		cpu->sum_v += (int64_t)d;
	}
	t->stats.spin_ns += d;
	sim->nodes[t->top].spin_ns += d;
}

void sim_task_spin_granted(struct sim *sim, struct sim_task *t, sim_time_t when)
{
	SIM_ASSERT(t->spinning && t->state == TASK_RUNNING && when >= t->mark);
	spin_account(sim, t, when);
	t->spinning = false;
	t->spin_charged = 0;
	t->spin_evt_seq = 0;	/* a pending tick or IPI check no longer applies */
	sim_account_cpu_mode(sim, t, cost_ns(&sim->costs, COST_spin_handoff, 1), true);
	sim_evq_push(&sim->evq, when, sim_task_resume_event, t);
}

/*
 * Preemptible user-space spinners (PostgreSQL's s_lock loop, in user mode;
 * kernel/entry/common.c, exit_to_user_mode_loop, 6.12): a task spinning
 * on a user-space lock is preempted mid-spin where a user-mode task is,
 * at the return to user mode of
 *   - the reschedule IPI of a wake-up that set the full bit (none,
 *     voluntary and full; under lazy a fair wake-up sets only the lazy
 *     bit and sends no IPI),
 *   - a tick (the lazy bit promoted; or its slice used up with others
 *     queued, under every model),
 *   - any other interrupt on its CPU with either bit set.
 * A preempted spinner leaves the lock's spinners (off its CPU it cannot
 * win the test-and-set race) and keeps the spin budget it had left; put
 * back on a CPU it tries the lock once more and spins on (lock.c).
 * Only under the preemption models (not the slice scheduler).
 * Simplified: a wake-up's IPI lands at the wake-up's instant (no IPI
 * latency); the spinner's EEVDF accounting is brought up to date at the
 * wake-ups, ticks and interrupts that reach its CPU, not continuously.
 */
/* Queue the spinner's check at the next tick, or at the instant of a
 * reschedule request made for later (its IPI), if that falls inside its
 * spin budget. */
static void uspin_arm(struct sim *sim, struct sim_task *t)
{
	sim_time_t at;

	t->spin_evt_seq = 0;
	if (!fair_sched(sim))
		return;
	at = next_tick(sim);
	if ((t->need_resched & SIM_NEED_RESCHED) && t->resched_from > sim->now &&
	    t->resched_from < at)
		at = t->resched_from;
	if (at < t->uspin_end)
		t->spin_evt_seq = sim_evq_push(&sim->evq, at, uspin_resched_event, t);
}

/* Take spinner `t` off its CPU now; the CPU runs what EEVDF picks next. */
static void uspin_preempt(struct sim *sim, struct sim_task *t, enum sim_uspin_preempt where)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	sim_uspin_preempted(sim, t);
	spin_account(sim, t, sim->now);
	t->spinning = false;
	t->spin_charged = 0;
	t->spin_evt_seq = 0;
	t->uspin_preempted = true;
	sim->uspin_spinner_preempts[where]++;
	t->stats.preempts++;
	t->state = TASK_RUNNABLE;
	t->mark = sim->now;
	runq_push(cpu, t);
	cpu_next(sim, t->cpu);
}

/* A reschedule point of spinner `t`: its spin accounted, a tick that is
 * due run, then a preemption if a request is pending that the model acts
 * on here (`to_user`: an interrupt's return, where either bit does) and
 * EEVDF picks another task; true if it was preempted. */
static bool uspin_resched(struct sim *sim, struct sim_task *t, bool to_user,
			  enum sim_uspin_preempt where)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	spin_account(sim, t, sim->now);
	if (fair_tick(sim, cpu, t))
		to_user = true;
	if (!fair_may_preempt(sim, t, false, to_user))
		return false;
	t->need_resched = 0;
	if (fair_pick_next(sim, cpu, t) == t)
		return false;
	uspin_preempt(sim, t, where);
	return true;
}

static void uspin_resched_event(struct sim *sim, void *arg)
{
	struct sim_task *t = arg;
	bool at_tick;

	if (t->spin_evt_seq != sim->cur_seq)
		return;		/* the spin ended or the check was replaced */
	t->spin_evt_seq = 0;
	SIM_ASSERT_INTERNAL(t->spinning && t->uspin && sim->cpus[t->cpu].curr == t);
	if (sim->cpus[t->cpu].irq_active)
		return;		/* the interrupt's exit checks it (irq_exit) */
	at_tick = sim->now >= sim->cpus[t->cpu].tick_due;
	if (!uspin_resched(sim, t, false, at_tick ? SIM_USPIN_PREEMPT_TICK : SIM_USPIN_PREEMPT_IPI))
		uspin_arm(sim, t);
}

/* ---- interrupts ------------------------------------------------------------------------ */

/*
 * Interrupts: each CPU has an interrupt context, a task marked is_irq that
 * never sits in a run queue and never owns the CPU.  sim_irq_raise queues
 * the handler and, unless the context already runs, starts it at once:
 * the context runs "on top of" the owner, whose resume is held back.
 *   - The owner's resume event falls inside the interrupt: it is deferred
 *     and requeued when the interrupt ends, at end + (resume - start) for
 *     an owner that was executing (its remaining work starts after the
 *     interrupt), at the end for one that was spinning or was dispatched
 *     onto the CPU meanwhile.
 *   - It falls after the interrupt: the interrupt's duration becomes the
 *     owner's irq_debt, paid by pushing that resume back once.
 * An owner holding a spinlock, or spinning for one, holds the interrupt
 * off until it releases its last one (sim_irq_enable_point, from lock.c):
 * every spinlock is treated as taken with interrupts disabled, as
 * spin_lock_irqsave disables them before it spins.  This keeps a handler
 * from spinning on a lock its own CPU's owner holds, or from queueing for
 * one behind its own CPU's spinning owner, who would be granted the lock
 * and then wait for the handler to end.  An owner spinning on a user-space
 * lock (s_lock) takes interrupts.
 * The context's charges are synced into the CPU's busy time as a task's
 * are; irq_ns is the wall duration of the entries.
 */
static inline void sync_time(struct sim *sim, struct sim_task *t);
static inline void sync_part(struct sim *sim, struct sim_task *t, uint64_t p);
static void task_preempt(struct sim *sim, struct sim_task *t);

struct sim_irq_work {
	struct sim_irq_work *next;
	sim_irq_fn	fn;
	void		*arg;
};

static bool irq_delays_resume(struct sim *sim, struct sim_task *t)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	if (t->is_irq)
		return false;
	if (cpu->irq_active) {
		SIM_ASSERT_INTERNAL(cpu->irq_deferred == NULL);
		cpu->irq_deferred = t;
		cpu->irq_deferred_at = sim->now;
		return true;
	}
	if (t->irq_debt) {
		sim_evq_push(&sim->evq, sim->now + t->irq_debt, sim_task_resume_event, t);
		t->irq_debt = 0;
		return true;
	}
	return false;
}

static void irq_exit(struct sim *sim, struct sim_cpu *cpu, struct sim_task *t)
{
	struct sim_task *o = cpu->irq_owner, *d = cpu->irq_deferred;
	uint64_t dur = sim->now - cpu->irq_start;

	SIM_ASSERT_INTERNAL(t->pending == 0 && cpu->irq_active);
	cpu->irq_active = false;
	sim->irqs_active--;
	cpu->irq_ns += dur;
	if (d) {
		sim_time_t when = sim->now;

		if (d == o && !cpu->irq_owner_spun)
			when += cpu->irq_deferred_at - cpu->irq_start;
		cpu->irq_deferred = NULL;
		sim_evq_push(&sim->evq, when, sim_task_resume_event, d);
	} else if (o && cpu->curr == o && !cpu->irq_owner_spun) {
		o->irq_debt += dur;
	}
	cpu->irq_owner = NULL;
	if (!cpu->curr)
		cpu_idle_begin(sim, cpu);
	/* the interrupt returns to a user-mode spinner: either bit preempts it */
	if (o && cpu->curr == o && o->spinning && o->uspin && fair_sched(sim) &&
	    !uspin_resched(sim, o, true, SIM_USPIN_PREEMPT_RETURN) && !o->spin_evt_seq)
		uspin_arm(sim, o);
	t->state = TASK_BLOCKED;
	t->block_kind = BLOCK_SLEEP;
	t->mark = sim->now;
	switch_to_engine(sim, t);
}

static void irq_context_fn(struct sim *sim, void *arg)
{
	struct sim_cpu *cpu = arg;
	struct sim_task *t = sim->current;

	for (;;) {
		struct sim_irq_work *w;

		while ((w = cpu->irq_head)) {
			sim_irq_fn fn = w->fn;
			void *a = w->arg;

			cpu->irq_head = w->next;
			if (!cpu->irq_head)
				cpu->irq_tail = NULL;
			w->next = sim->irq_free;
			sim->irq_free = w;
			fn(sim, a);
			sim_sync(sim);
		}
		irq_exit(sim, cpu, t);
	}
}

/* Start the interrupt context of `cpu` now, on top of its owner. */
static void irq_enter(struct sim *sim, struct sim_cpu *cpu)
{
	struct sim_task *t = cpu->irq_task;

	cpu->irq_active = true;
	sim->irqs_active++;
	cpu->irqs++;
	cpu->irq_start = sim->now;
	if (cpu->in_idle)	/* tick_nohz_irq_enter: the idle stretch ends */
		cpu_idle_end(sim, cpu);
	cpu->irq_owner = cpu->curr;
	cpu->irq_owner_spun = cpu->curr && cpu->curr->spinning;
	if (t->state == TASK_BLOCKED)
		t->stats.sleep_ns += sim->now - t->mark;
	t->state = TASK_RUNNING;
	sim_evq_push(&sim->evq, sim->now, sim_task_resume_event, t);
}

void sim_irq_raise(struct sim *sim, unsigned int cpu_nr, sim_irq_fn fn, void *arg)
{
	struct sim_cpu *cpu;
	struct sim_irq_work *w;

	if (sim->current)
		SIM_BUG("sim_irq_raise from task %s: interrupts come from engine context",
			sim->current->name);
	SIM_ASSERT(cpu_nr < sim->ncpus);
	cpu = &sim->cpus[cpu_nr];
	if (!cpu->irq_task) {
		struct sim_task_config tc = {
			.kind = sim_task_kind(sim, "irq"), .cpu = (int)cpu_nr, .pinned = true,
			.kthread = true,
		};
		char name[32];

		snprintf(name, sizeof(name), "irq/%u", cpu_nr);
		tc.name = name;
		cpu->irq_task = sim_task_create(sim, &tc, irq_context_fn, cpu, sim->now);
		cpu->irq_task->timer_seq = 0;	/* started by irq_enter, not by its start event */
		cpu->irq_task->is_irq = true;
		cpu->irq_task->preempt_count = 1;	/* never preempted, never sleeps */
		cpu->irq_task->state = TASK_BLOCKED;
		cpu->irq_task->mark = sim->now;
	}
	if ((w = sim->irq_free))
		sim->irq_free = w->next;
	else if (!(w = malloc(sizeof(*w))))
		SIM_BUG("out of memory");
	w->fn = fn;
	w->arg = arg;
	w->next = NULL;
	if (cpu->irq_tail)
		cpu->irq_tail->next = w;
	else
		cpu->irq_head = w;
	cpu->irq_tail = w;
	if (cpu->irq_active || cpu->irq_held_off)
		return;
	if (cpu->curr && task_irqs_off(cpu->curr)) {
		cpu->irq_held_off = true;
		sim->irqs_held_off++;
		return;
	}
	irq_enter(sim, cpu);
}

/* The current task `t` released its last spinlock with an interrupt held
 * off on its CPU: the interrupt runs now and `t` continues after it. */
void sim_irq_enable_point(struct sim *sim, struct sim_task *t)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	SIM_ASSERT_INTERNAL(t == sim->current && cpu->curr == t);
	sync_time(sim, t);	/* raises meanwhile only queue: still held off */
	cpu->irq_held_off = false;
	sim->irqs_held_off--;
	irq_enter(sim, cpu);
	sim_evq_push(&sim->evq, sim->now, sim_task_resume_event, t);	/* deferred behind it */
	switch_to_engine(sim, t);
}

bool sim_in_irq(const struct sim *sim)
{
	return sim->current && sim->current->is_irq;
}

void sim_irqs_destroy(struct sim *sim)
{
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		struct sim_cpu *cpu = &sim->cpus[c];

		while (cpu->irq_head) {
			struct sim_irq_work *w = cpu->irq_head;

			cpu->irq_head = w->next;
			free(w);
		}
	}
	while (sim->irq_free) {
		struct sim_irq_work *w = sim->irq_free;

		sim->irq_free = w->next;
		free(w);
	}
}

/* ---- events -------------------------------------------------------------------------- */

void sim_task_resume_event(struct sim *sim, void *arg)
{
	struct sim_task *t = arg;

	SIM_ASSERT_INTERNAL(t->state == TASK_RUNNING);
	if (unlikely(sim->irqs_active | t->irq_debt) && irq_delays_resume(sim, t))
		return;
	sim->resumes++;
	switch_to_task(sim, t);
	t = sim->yielded;	/* tasks may have switched among themselves */
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

/* Count a preemption of a PostgreSQL spinlock holder (statistics only):
 * in kernel mode, else where the user-mode preemption came from. */
static inline void count_uspin_holder(struct sim *sim, const struct sim_task *t,
				      enum sim_uspin_preempt user_where)
{
	if (t->uspins_held)
		sim->uspin_holder_preempts[t->kernel_depth || t->kthread ? SIM_USPIN_PREEMPT_KERNEL
									: user_where]++;
}

static void task_preempt(struct sim *sim, struct sim_task *t)
{
	struct sim_cpu *cpu = &sim->cpus[t->cpu];

	t->stats.preempts++;
	t->state = TASK_RUNNABLE;
	t->mark = sim->now;
	runq_push(cpu, t);
	cpu_next(sim, t->cpu);
	switch_to_engine(sim, t);
}

/*
 * The preemption at a point where the model allows it (fair_may_preempt
 * with `explicit` and `to_user`): unless EEVDF picks `t` again, it goes
 * back on its run queue and the CPU runs another task.  Put back on a CPU
 * and its context switch paid, it tests the request again before it goes
 * on, as the kernel's paths do after __schedule returns
 * (exit_to_user_mode_loop re-reads the thread flags, preempt_schedule_irq
 * and preempt_schedule_common loop while need_resched(); 6.12): a request
 * made during its switch back in acts there, before the task runs any of
 * its own work, not at its next sync point (which may be inside a
 * section it has entered meanwhile, a spinlock's release for instance).
 * A user-mode task's later tests are on the return to user (either bit).
 * The rest of an interrupted stretch (fair_stretch_ticks_slow) stays
 * pending behind the switch.  Simplified: a tick that fell during the
 * switch runs at its end; a spinlock holder preempted again in the loop
 * is counted under the first preemption's cause (statistics only).
 */
static void fair_preempt(struct sim *sim, struct sim_task *t, bool explicit, bool to_user,
			 enum sim_uspin_preempt where)
{
	while (fair_may_preempt(sim, t, explicit, to_user)) {
		uint64_t rest = t->pending;

		t->need_resched = 0;
		if (fair_pick_next(sim, &sim->cpus[t->cpu], t) == t)
			return;
		count_uspin_holder(sim, t, where);
		task_preempt(sim, t);
		if (t->pending > rest)
			sync_part(sim, t, t->pending - rest);	/* the switch back in */
		fair_tick(sim, &sim->cpus[t->cpu], t);
		to_user = true;
	}
}

/* A sync point under the preemption models: the owner's ticks, then a
 * preemption if a request is pending and the model allows it here
 * (`explicit`: cond_resched / might_resched under none and voluntary).
 * A preempted task that EEVDF would pick again keeps its CPU. */
static void fair_sync(struct sim *sim, struct sim_task *t, bool explicit, bool to_user)
{
	bool ticked;

	if (t->is_irq)
		return;
	ticked = fair_tick(sim, &sim->cpus[t->cpu], t);
	fair_preempt(sim, t, explicit, to_user || ticked,
		     to_user ? SIM_USPIN_PREEMPT_RETURN :
		     ticked ? SIM_USPIN_PREEMPT_TICK : SIM_USPIN_PREEMPT_IPI);
	sync_time(sim, t);
}

/* Make `p` ns of the current task's pending charge real (no preemption
 * check): the clock moves to now + p, directly when nothing is due
 * before, else through a resume event. */
static inline void sync_part(struct sim *sim, struct sim_task *t, uint64_t p)
{
	{
		sim_time_t target = sim->now + p;

		struct sim_cpu *cpu = &sim->cpus[t->cpu];
		uint64_t sys = p < t->pending_sys ? p : t->pending_sys;

		t->pending -= p;
		t->pending_sys -= sys;	/* the kernel-mode part first: exact once all is synced */
		t->slice_used += p;
		cpu->busy_ns += p;
		if (unlikely(t->is_irq))
			cpu->irq_cpu_ns += p;
		else
			cpu->sys_ns += sys;
		if (fair_sched(sim) && !t->is_irq) {
			t->vruntime += (int64_t)p;
			sim->cpus[t->cpu].sum_v += (int64_t)p;
		}
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

/* Make the current task's pending charge real (no preemption check). */
static inline void sync_time(struct sim *sim, struct sim_task *t)
{
	if (t->pending)
		sync_part(sim, t, t->pending);
}

/*
 * The scheduler ticks that fall inside the current task's stretch of
 * inline work, under the preemption models (scheduler_tick is an
 * interrupt: it lands wherever the task is).  The stretch is synced up to
 * each tick in turn; at the tick the owner's tick work runs (fair_tick:
 * slice end, the lazy bit promoted) and, as at the interrupt's exit, a
 * request preempts it if the model allows it in the task's mode (user
 * mode: either bit; kernel mode: the full bit under full and lazy; never
 * under a spinlock).  A preempted task keeps the rest of its stretch
 * pending and runs it when it is put back on a CPU; the stretch's state
 * changes were made at its start, so what it holds (a PostgreSQL
 * spinlock, a sleeping lock) stays held until it has run.  A tick at the
 * stretch's very end is left to the sync point that follows.
 * Wake-up requests that arrive inside a stretch still act at its end (the
 * resched IPI is not modelled inside a stretch).
 */
static void fair_stretch_ticks_slow(struct sim *sim, struct sim_task *t)
{
	while (t->pending) {
		sim_time_t tick = next_tick(sim);

		if (sim->now + t->pending <= tick)
			return;
		sync_part(sim, t, tick - sim->now);
		fair_tick(sim, &sim->cpus[t->cpu], t);
		fair_preempt(sim, t, false, true, SIM_USPIN_PREEMPT_TICK);	/* the tick's return */
	}
}

static inline void fair_stretch_ticks(struct sim *sim, struct sim_task *t)
{
	if (t->pending && sim->now + t->pending > next_tick(sim))
		fair_stretch_ticks_slow(sim, t);
}

void sim_sync_nopreempt(struct sim *sim)
{
	if (sim->current)
		sync_time(sim, sim->current);
}

void sim_sync(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (!t)
		return;
	if (fair_sched(sim)) {
		if (!t->is_irq)
			fair_stretch_ticks(sim, t);
		sync_time(sim, t);
		fair_sync(sim, t, false, false);
		return;
	}
	sync_time(sim, t);
	if (unlikely(t->slice_used >= sim->slice_ns) && sim->cpus[t->cpu].rq_len &&
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
 * up to the next event, the first moment at which what it waits for can
 * change, and at least SPIN_RESCHEDS ns, since no CPU makes that many
 * calls in less (with 1 ns, two writers of zero costs, each the other's
 * next event, moved the clock a nanosecond per 1 024 writes: a 1-ms run
 * did not end in minutes, found by the fuzzer).  A loop whose steps cost anything moves the clock
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
	if (fair_sched(sim) && (sim->preempt == SIM_PREEMPT_NONE ||
				sim->preempt == SIM_PREEMPT_VOLUNTARY))
		fair_sync(sim, t, true, false);
	if (t->resched_at != sim->now) {
		t->resched_at = sim->now;
		t->resched_same = 0;
		return;
	}
	if (++t->resched_same < SPIN_RESCHEDS)
		return;
	t->resched_same = 0;
	if (sim->cpus[t->cpu].rq_len && !t->preempt_count) {
		task_preempt(sim, t);
		sync_time(sim, t);
		return;
	}
	next = sim->evq.n ? sim->evq.h[0].time : sim->run_until;
	if (next == SIM_TIME_NEVER)
		next = sim->now + SIM_NSEC_PER_MSEC;	/* nothing will ever happen: no run ends so */
	sim_account_cpu(sim, t, next > sim->now + SPIN_RESCHEDS ? next - sim->now : SPIN_RESCHEDS);
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

/* ---- user and kernel mode ------------------------------------------------------- */

void sim_kernel_enter(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (!t)
		return;
	if (fair_sched(sim) && !t->is_irq)
		fair_stretch_ticks(sim, t);	/* ticks in the user-mode stretch before the entry */
	t->kernel_depth++;
}

void sim_kernel_exit(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (!t)
		return;
	SIM_ASSERT(t->kernel_depth > 0);
	if (fair_sched(sim) && !t->is_irq)
		fair_stretch_ticks(sim, t);	/* ticks in the kernel-mode stretch before the exit */
	if (--t->kernel_depth == 0 && t->need_resched) {
		/* return to user: either bit reschedules */
		if (fair_sched(sim)) {
			sync_time(sim, t);
			fair_sync(sim, t, false, true);
		} else {
			sim_sync(sim);
		}
	}
}

void sim_might_resched(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (t && sim->preempt == SIM_PREEMPT_VOLUNTARY) {
		fair_stretch_ticks(sim, t);
		sync_time(sim, t);
		fair_sync(sim, t, true, false);
	}
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
	sim_path_assert_empty(sim);
	sync_time(sim, t);	/* no preemption: the task is leaving anyway */
	if (t->preempt_count)
		SIM_BUG("task %s exits holding %u spinlock(s)", t->name, t->preempt_count);
	t->state = TASK_EXITED;
	if (fair_sched(sim))
		fair_dequeue(sim, &sim->cpus[t->cpu], t);
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
	t->kthread = cfg->kthread;
	t->mm = cfg->kthread ? 0 : cfg->mm ? cfg->mm : sim_mm_new(sim);
	t->cpu = cfg->cpu == SIM_CPU_ANY ? t->id % sim->ncpus : (unsigned int)cfg->cpu;
	t->exec_end = SIM_TIME_NEVER;
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

static void pelt_check(const struct sim *sim, const struct sim_pelt *p, const char *what, unsigned int id)
{
	if (!sim->pelt && (p->sum || p->last))
		SIM_BUG("%s %u: a PELT signal moved without sim->pelt", what, id);
	if (p->contrib >= 1024 || p->last % 1024)
		SIM_BUG("%s %u: PELT period part %u, last update %" PRIu64 " ns", what, id, p->contrib,
			p->last);
}

/* a task's util is a running signal: at most the CPU's capacity */
static void pelt_check_task(const struct sim *sim, const struct sim_task *t)
{
	pelt_check(sim, &t->util, t->name, t->id);
	uint32_t util = sim_pelt_avg(&sim->pelt_tables, &t->util);

	if (util > SIM_PELT_ONE)
		SIM_BUG("task %s: util %u over capacity", t->name, util);
}

/* ---- invariant check (SIM_DEBUG >= 3: after every event) ---------------------------- */

void sim_check_sched(const struct sim *sim)
{
	uint32_t *iowait = calloc(sim->ncpus, sizeof(*iowait));

	SIM_ASSERT(sim->current == NULL);
	if (!iowait)
		SIM_BUG("out of memory");
	for (uint32_t i = 0; i < sim->nr_tasks; i++) {
		const struct sim_task *t = sim->tasks[i];

		if (t->state == TASK_BLOCKED && t->block_kind == BLOCK_IO && !t->sched_delayed)
			iowait[t->cpu]++;
	}
	for (unsigned int c = 0; c < sim->ncpus; c++)
		if (iowait[c] != sim->cpus[c].nr_iowait)
			SIM_BUG("cpu %u: nr_iowait %u, counted %u", c, sim->cpus[c].nr_iowait, iowait[c]);
	free(iowait);
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		const struct sim_cpu *cpu = &sim->cpus[c];
		uint32_t n = 0;

		if (cpu_is_idle(sim, c) != (cpu->curr == NULL))
			SIM_BUG("cpu %u: idle bit disagrees with its owner", c);
		if (cpu->curr && (cpu->curr->state != TASK_RUNNING || cpu->curr->cpu != c))
			SIM_BUG("cpu %u: owner %s in state %d on cpu %u", c, cpu->curr->name,
				cpu->curr->state, cpu->curr->cpu);
		if (!cpu->curr && cpu->rq_len)
			SIM_BUG("cpu %u: idle with a non-empty run queue", c);
		uint32_t delayed = 0;

		for (uint32_t i = 0; i < cpu->rq_len; i++) {
			const struct sim_task *t = cpu->rq[i].t;

			/* runnable, or asleep and kept by DELAY_DEQUEUE */
			if (t->state != (t->sched_delayed ? TASK_BLOCKED : TASK_RUNNABLE) ||
			    t->cpu != c || (t->sched_delayed && !sim->delay_dequeue))
				SIM_BUG("cpu %u: queued task %s in state %d (delayed %d) on cpu %u",
					c, t->name, t->state, t->sched_delayed, t->cpu);
			delayed += t->sched_delayed;
			if (fair_sched(sim) && (cpu->rq[i].vruntime != t->vruntime ||
						cpu->rq[i].deadline != t->deadline))
				SIM_BUG("cpu %u: queued task %s's EEVDF keys changed in the queue", c,
					t->name);
			n++;
		}
		if (n != cpu->rq_len)
			SIM_BUG("cpu %u: run queue length %u, counted %u", c, cpu->rq_len, n);
		if (delayed != cpu->nr_delayed)
			SIM_BUG("cpu %u: %u delayed sleeps, counted %u", c, cpu->nr_delayed, delayed);
		if (cpu->in_idle != (!cpu->curr && !cpu->irq_active))
			SIM_BUG("cpu %u: idle stretch open %d, owner %s, interrupt %d", c,
				cpu->in_idle, cpu->curr ? cpu->curr->name : "none", cpu->irq_active);
		/* the owner runs in the loaded address space, unless a kernel
		 * thread borrows it; the kept ones are distinct, the loaded first */
		if (cpu->curr && cpu->curr->mm && cpu->curr->mm != cpu->mm_cur)
			SIM_BUG("cpu %u: %s runs in address space %u, %u loaded", c, cpu->curr->name,
				cpu->curr->mm, cpu->mm_cur);
		if (sim->mm_slots && cpu->mm_recent[0] != cpu->mm_cur)
			SIM_BUG("cpu %u: address space %u loaded, %u kept first", c, cpu->mm_cur,
				cpu->mm_recent[0]);
		for (unsigned int i = 1; i < sim->mm_slots; i++)
			for (unsigned int j = 0; j < i && cpu->mm_recent[i]; j++)
				if (cpu->mm_recent[j] == cpu->mm_recent[i])
					SIM_BUG("cpu %u: address space %u kept twice", c, cpu->mm_recent[i]);

		/* the domain's interval stays within min_interval..max_interval,
		 * and its last balance is a tick that has come */
		if (cpu->balance_ms < sim->ncpus || cpu->balance_ms > 2 * sim->ncpus)
			SIM_BUG("cpu %u: balance interval %u ms outside %u..%u", c, cpu->balance_ms,
				sim->ncpus, 2 * sim->ncpus);
		if (cpu->last_balance > sim->now || cpu->last_balance % sim->tick_ns)
			SIM_BUG("cpu %u: last balance at %" PRIu64 " ns", c, cpu->last_balance);
		/* PELT signals: kept only with sim->pelt; a period's part under
		 * a period, updates on 1024-ns steps; a task's util at most a
		 * CPU's capacity */
		pelt_check(sim, &cpu->util, "cpu util", c);
		pelt_check(sim, &cpu->runnable, "cpu runnable", c);
		if (cpu->curr)
			pelt_check_task(sim, cpu->curr);
		for (uint32_t i = 0; i < cpu->rq_len; i++)
			pelt_check_task(sim, cpu->rq[i].t);
		if (fair_sched(sim)) {
			int64_t sum = cpu->curr ? cpu->curr->vruntime : 0;

			for (uint32_t i = 0; i < cpu->rq_len; i++)
				sum += cpu->rq[i].vruntime;
			if (n + (cpu->curr != NULL) != cpu->nr_fair || sum != cpu->sum_v)
				SIM_BUG("cpu %u: EEVDF accounting %u tasks / %lld, counted %u / %lld",
					c, cpu->nr_fair, (long long)cpu->sum_v,
					n + (cpu->curr != NULL), (long long)sum);
		}
	}
}

/* ---- accessors -------------------------------------------------------------------- */

struct sim_task *sim_current(const struct sim *sim) { return sim->current; }
uint32_t sim_task_id(const struct sim_task *t) { return t->id; }
const char *sim_task_name(const struct sim_task *t) { return t->name; }
void *sim_task_arg(const struct sim_task *t) { return t->arg; }
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
