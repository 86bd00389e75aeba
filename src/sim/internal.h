/* SPDX-License-Identifier: MIT */
/*
 * internal.h — engine-private state shared by the files of src/sim/:
 * struct sim, struct sim_task, struct sim_cpu and the scheduler's internal
 * entry points.  Nothing outside src/sim/ (and the engine's own tests and
 * benchmarks) includes this.
 */
#ifndef SLOWPATH_SIM_INTERNAL_H
#define SLOWPATH_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/ctx.h"
#include "sim/evq.h"
#include "sim/sim.h"

#if defined(__SANITIZE_ADDRESS__)
#define SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_ASAN 1
#endif
#endif

#define SIM_PATH_DEPTH		32		/* max nesting of sim_path_push */
#define SIM_OWNER_ENGINE	UINT32_MAX	/* lock owner value for engine context */

#ifdef SIM_ASAN
#define SIM_STACK_DEFAULT	(512u * 1024)	/* ASan frames and redzones are large */
#else
#define SIM_STACK_DEFAULT	(64u * 1024)
#endif

enum sim_task_state {
	TASK_NEW,		/* created, start event pending */
	TASK_RUNNABLE,		/* on a CPU's run queue */
	TASK_RUNNING,		/* owns a CPU: executing, spinning, or its resume event is queued */
	TASK_BLOCKED,		/* asleep: lock, wait queue, timer or I/O */
	TASK_EXITED,
};

enum sim_block_kind {		/* where blocked time is attributed */
	BLOCK_SLEEP,		/* wait queue, timer: sleep_ns */
	BLOCK_IO,		/* block I/O: io_ns; TASK_UNINTERRUPTIBLE */
	BLOCK_LOCK,		/* mutex, rwsem: sleep_ns; TASK_UNINTERRUPTIBLE */
};

enum sim_wait_mode {		/* what a task on a waiter list waits for */
	WAIT_EXCL,		/* spinlock, mutex, rwsem writer, wait queue */
	WAIT_READ,		/* rwsem reader */
};

/* pelt.c: a PELT signal (struct sched_avg's sum and period_contrib for
 * one signal; its average is read with sim_pelt_avg) and the tables its
 * arithmetic uses */
struct sim_pelt {
	uint64_t	sum;		/* *_sum */
	sim_time_t	last;		/* last_update_time, a multiple of 1024 ns */
	uint32_t	contrib;	/* period_contrib, in 1024-ns units */
};

#define SIM_PELT_ONE	1024	/* SCHED_CAPACITY_SCALE: a running task, a busy CPU */

struct sim_pelt_tables {
	uint32_t	y_inv[32];	/* y^n in 32-bit fixed point */
	uint64_t	load_avg_max;	/* LOAD_AVG_MAX */
};

void sim_pelt_tables_init(struct sim_pelt_tables *pt);
void sim_pelt_update(const struct sim_pelt_tables *pt, struct sim_pelt *p, sim_time_t now,
		     uint64_t weight);
uint32_t sim_pelt_avg(const struct sim_pelt_tables *pt, const struct sim_pelt *p);
void sim_pelt_add(const struct sim_pelt_tables *pt, struct sim_pelt *p, uint64_t avg);
void sim_pelt_sub(const struct sim_pelt_tables *pt, struct sim_pelt *p, uint64_t avg);

struct sim_task {
	/* hot: touched by every charge and sync */
	uint64_t	pending;	/* ns charged but not yet synced */
	uint64_t	pending_sys;	/* of it, charged in kernel mode (/proc/stat's system) */
	uint32_t	top;		/* path node on top of the stack */
	uint32_t	depth;		/* entries used in path_stack */
	unsigned int	cpu;		/* CPU it runs on / last ran on */
	uint8_t		state;		/* enum sim_task_state */
	uint8_t		block_kind;	/* enum sim_block_kind while TASK_BLOCKED */
	uint8_t		wait_mode;	/* enum sim_wait_mode while on a waiter list */
	bool		pinned;
	bool		spinning;	/* waiting on a spinlock, CPU held */
	bool		woken;		/* sim_wait result: woken (true) or timed out */
	uint16_t	preempt_count;	/* spinlocks held: no preemption, no blocking */
	bool		is_irq;		/* a CPU's interrupt context (irq.c), never queued */
	bool		kthread;	/* kernel thread: always in kernel mode */
	uint8_t		need_resched;	/* SIM_NEED_RESCHED | SIM_NEED_RESCHED_LAZY */
	uint16_t	kernel_depth;	/* >0: in a syscall or fault (kernel mode) */
	uint32_t	mm;		/* address space (0: a kernel thread, none) */
	uint64_t	irq_debt;	/* interrupt time that delays its next resume */
	sim_time_t	resched_from;	/* need_resched: the request's instant, acted on from then */
	/* EEVDF (preempt != slice): virtual runtime, deadline, lag, all in ns
	 * (every task has nice 0, so virtual time runs at real speed) */
	int64_t		vruntime, deadline, vlag;
	int64_t		protect_deadline;	/* == deadline: slice still protected */
	sim_time_t	slice_used;	/* CPU time since it was last put on its CPU */
	sim_time_t	exec_end;	/* when it last left a CPU (se.exec_start as
					 * put_prev_entity leaves it); SIM_TIME_NEVER: never ran */
	/* with sim->pelt: its util signal (running) and util_est's ewma */
	struct sim_pelt	util;
	uint32_t	util_est;
	sim_time_t	mark;		/* blocked since / runnable since / spinning since */
	uint64_t	timer_seq;	/* seq of the live timer event, 0 = none */
	uint32_t	wait_next, wait_prev;	/* waiter-list links: task id + 1, 0 = none */
	int		io_error;
	struct sim_waitq *waitq;	/* wait queue it sleeps on (for timeouts) */
	struct sim_spinlock *uspin;	/* user spinlock it spins on (for its time limit) */
	uint16_t	uspins_held;	/* user spinlocks it holds (statistics only) */
	bool		uspin_preempted;	/* taken off its CPU mid-spin (lock.c resumes) */
	bool		sched_delayed;	/* DELAY_DEQUEUE: blocked, still in its CPU's queue */
	sim_time_t	uspin_end;	/* user spin: when its spin budget runs out */
	sim_time_t	uspin_left;	/* preempted user spin: budget it had left */
	sim_time_t	lock_since;	/* rwsem_steal: when it queued for the rwsem it waits for */
	uint64_t	spin_charged;	/* spin time since mark already accounted */
	uint64_t	spin_evt_seq;	/* seq of a user spinner's tick/IPI event, 0 = none */

	struct sim	*sim;
	struct sim_ctx	ctx;
	void		*stack;		/* mmap'd region incl. guard page, NULL after exit */
	void		*stack_lo;	/* lowest usable byte (above the guard page) */
	size_t		stack_size;	/* usable bytes above the guard page */
	sim_task_fn	fn;
	void		*arg;

	uint32_t	id;
	int		kind;
	char		*name;
	sim_time_t	resched_at;	/* sim->now at its last sim_cond_resched */
	uint32_t	resched_same;	/* cond_resched calls in a row at that instant */
	struct sim_task_stats stats;
	/* hung_task.c: stats.switches when a check last saw it change, and when */
	uint64_t	last_switch_count;
	sim_time_t	last_switch_time;
	uint32_t	path_stack[SIM_PATH_DEPTH];	/* saved parents of the open nodes */
};

/* Whether `t` runs with interrupts off: it holds a kernel spinlock or
 * spins for one (the model takes every spinlock as spin_lock_irqsave);
 * a spinner on a user-space lock (uspin, PostgreSQL's s_lock) does not. */
static inline bool task_spins_irqs_off(const struct sim_task *t)
{
	return t->spinning && !t->uspin;
}

static inline bool task_irqs_off(const struct sim_task *t)
{
	return t->preempt_count || task_spins_irqs_off(t);
}

struct sim_irq_work;

/* A run-queue entry: the task with its EEVDF keys as they were when it
 * was queued (a queued task's vruntime and deadline do not change; the
 * checker verifies it), so a pick reads one array, not every task. */
struct sim_rq_ent {
	int64_t		vruntime, deadline;
	struct sim_task	*t;
};

struct sim_cpu {
	struct sim_task	*curr;		/* task owning the CPU, NULL = idle */
	struct sim_rq_ent *rq;		/* runnable tasks, FIFO order */
	uint32_t	rq_len, rq_cap;
	uint32_t	nr_delayed;	/* of them, blocked tasks kept by DELAY_DEQUEUE */
	uint64_t	busy_ns, spin_ns, switches;
	/* interrupts (task.c, "Interrupts") */
	struct sim_task	*irq_task;	/* its interrupt context, created at the first raise */
	struct sim_irq_work *irq_head, *irq_tail;	/* raised, not yet handled */
	bool		irq_active;	/* the interrupt context is running */
	bool		irq_held_off;	/* raised while the owner holds a spinlock */
	bool		irq_owner_spun;	/* the owner was spinning when the interrupt came */
	sim_time_t	irq_start;
	struct sim_task	*irq_owner;	/* owner when the interrupt came */
	struct sim_task	*irq_deferred;	/* its resume came while the interrupt ran */
	sim_time_t	irq_deferred_at;
	uint64_t	irq_ns, irqs;
	/* /proc/stat's split (task.c, "Accounting"): of busy_ns, the kernel
	 * mode's and the interrupt context's; of the idle time, iowait */
	uint64_t	sys_ns, irq_cpu_ns, iowait_ns;
	uint32_t	nr_iowait;	/* tasks that blocked for I/O here, still asleep */
	uint32_t	last_owner;	/* id + 1 of the task last put on it, 0 = none yet */
	uint32_t	*mm_recent;	/* with mm_slots: the address spaces last loaded here,
					 * most recent first (0 = none) */
	uint32_t	mm_cur;		/* the address space loaded (0 = none yet); a kernel
					 * thread keeps its predecessor's (lazy TLB) */
	bool		in_idle;	/* an idle stretch is open (no owner, no interrupt) */
	sim_time_t	idle_start;	/* ... since then */
	const struct sim_task *lockup_task;	/* hung_task.c: the spin reported as a lockup, */
	sim_time_t	lockup_since;		/* and since when it spins */
	/* EEVDF: the tasks queued here plus the owner ("on the run queue") */
	int64_t		sum_v;		/* sum of their vruntimes */
	uint32_t	nr_fair;	/* their number */
	int64_t		vmin;		/* V when the queue last emptied */
	sim_time_t	tick_due;	/* first tick after the owner's ticks were last looked at */
	/* load balancing (task.c, "Periodic and nohz-idle balancing"): the
	 * one domain's per-CPU state */
	sim_time_t	last_balance;		/* sd->last_balance (a tick) */
	uint32_t	balance_ms;		/* sd->balance_interval, ms */
	uint32_t	nr_balance_failed;	/* sd->nr_balance_failed */
	/* the idle task's stretch (statistics only): since when the CPU has
	 * had no owner, while its idle bit is set */
	sim_time_t	ownerless_since;
	/* with sim->pelt: the cfs_rq's util signal (an owner running, plus
	 * the util its tasks brought and took when they moved) and its
	 * runnable signal (1024 per task queued or running) */
	struct sim_pelt	util, runnable;
};

#define SIM_NEED_RESCHED	1
#define SIM_NEED_RESCHED_LAZY	2

struct sim_path_slot {			/* (parent, name pointer) -> node cache entry */
	const char	*name;
	uint32_t	parent;
	uint32_t	node;
};

struct sim_stack {			/* free stack kept for reuse */
	struct sim_stack *next;
	size_t		size;
};

struct bdev;
struct bio_req;

struct sim {
	/* hot */
	struct sim_task	*current;	/* NULL in engine context */
	struct sim_task	*yielded;	/* the task that last switched to the engine */
	sim_time_t	now;
	struct sim_evq	evq;
	sim_time_t	run_until;	/* `until` of the sim_run in progress */
	bool		stop;
	bool		running;	/* inside sim_run */
	uint64_t	events;		/* events run */
	uint64_t	cur_seq;	/* seq of the event being run */
	uint64_t	fast_syncs;	/* sim_sync calls that advanced the clock without an event */
	uint64_t	uspin_holder_preempts[SIM_USPIN_PREEMPT_KINDS];	/* by enum sim_uspin_preempt */
	uint64_t	uspin_holder_runq_waits, uspin_holder_runq_ns;	/* statistics only */
	uint64_t	wake_ipis, idle_wakeups, remote_busy_wakeups;	/* statistics only (sim_task_wake) */
	uint64_t	newidle_hot_fails;	/* statistics only (newidle_pull) */
	struct sim_balance_stats balance;	/* statistics only (sched_balance_rq) */
	uint64_t	idle_stretches, idle_stretch_ns;	/* statistics only (dispatch) */
	sim_time_t	nohz_next_balance;	/* nohz.next_balance: earliest balance due of an
						 * idle CPU, as last computed */
	bool		periodic_balance;	/* sim_config's */
	bool		run_to_parity;		/* sim_config's */
	bool		delay_dequeue;		/* sim_config's */
	unsigned int	llc_cpus;		/* sim_config's, 1..ncpus */
	bool		pelt;		/* the balancer weighs PELT signals (task.c) */
	struct sim_pelt_tables pelt_tables;
	uint64_t	newidle_pulls, newidle_util_fails;	/* statistics only (newidle_pull) */
	/* wake-ups onto a CPU running a task (not new tasks), and those that
	 * asked the owner to reschedule (statistics only, preemption models) */
	uint64_t	busy_wakeups, busy_wakeup_requests;
	/* DELAY_DEQUEUE (statistics only): sleeps kept queued, wake-ups of a
	 * task still queued so (ttwu_runnable), kept sleeps ended at a pick */
	uint64_t	delayed_dequeues, delayed_wakeups, delayed_picks;
	uint64_t	refill_switches;	/* statistics only (dispatch: switch_refill) */
	uint64_t	mm_switches, mm_switch_misses;	/* statistics only (switch_mm_in) */
	unsigned int	mm_slots;	/* sim_config.mm_slots */
	uint32_t	mm_next;	/* last id sim_mm_new gave */
	uint64_t	uspin_spinner_preempts[SIM_USPIN_PREEMPT_KINDS];	/* statistics only */
	uint64_t	resumes;	/* coroutine switches into tasks */
	uint64_t	direct_resumes;	/* ... of them made from the yielding task (task.c) */
	bool		fast_sync_off;	/* benchmarks only: measure the fast path's effect */
	uint32_t	irqs_active;	/* CPUs whose interrupt context runs */
	uint32_t	irqs_held_off;	/* CPUs with interrupts waiting for a spinlock release */
	struct sim_irq_work *irq_free;
	struct sim_path_node *nodes;
	struct sim_cpu	*cpus;
	sim_time_t	slice_ns;
	int		preempt;	/* enum sim_preempt */
	sim_time_t	base_slice;	/* EEVDF request size (sysctl_sched_base_slice) */
	sim_time_t	migration_cost;	/* task_hot's window (sysctl_sched_migration_cost) */
	sim_time_t	tick_ns;	/* scheduler tick (TICK_NSEC) */
	bool		rwsem_steal;	/* sim_config's */
	sim_time_t	tick_next;	/* first tick after `now` when last computed (now only grows) */
	uint64_t	*idle_map;	/* bit per CPU: 1 = idle */
	unsigned int	ncpus;
	unsigned int	idle_words;
	struct cost_table costs;

	uint64_t	seed;
	uint64_t	engine_ns;
	unsigned int	engine_cpu;

	struct sim_ctx	engine_ctx;
#ifdef SIM_ASAN
	const void	*asan_main_bottom;
	size_t		asan_main_size;
#endif
	struct sim_stack *stack_pool;	/* default-size stacks of exited tasks */

	struct sim_task	**tasks;	/* by id */
	uint32_t	nr_tasks, tasks_cap;

	char		**kind_names;
	int		nr_kinds, kinds_cap;

	uint32_t	nr_nodes, nodes_cap;
	struct sim_path_node *path_base;	/* the tree at the window's start (sim_path_window_start) */
	uint32_t	nr_path_base;
	sim_time_t	path_base_at;
	struct sim_path_slot *path_hash;
	uint32_t	path_hash_mask;	/* size - 1 */
	uint32_t	path_hash_used;

	struct sim_spinlock *spin_head, *spin_tail;
	struct sim_mutex *mutex_head, *mutex_tail;
	struct sim_rwsem *rwsem_head, *rwsem_tail;

	struct bdev	*bdev_head, *bdev_tail;
	struct bio_req	*bio_free;

	sim_trace_fn	trace;
	void		*trace_ctx;
};

/* task.c: the scheduler's internal entry points */
void sim_task_block(struct sim *sim, enum sim_block_kind kind);	/* current task sleeps */
void sim_task_spin_wait(struct sim *sim);			/* current task spins */
void sim_task_wake(struct sim *sim, struct sim_task *t, sim_time_t when);
void sim_task_spin_granted(struct sim *sim, struct sim_task *t, sim_time_t when);
/* lock.c: user spinner `t` is taken off its CPU mid-spin (task.c) */
void sim_uspin_preempted(struct sim *sim, struct sim_task *t);
void sim_tasks_destroy(struct sim *sim);
void sim_check_sched(const struct sim *sim);	/* CPU / run-queue invariants */
void sim_task_resume_event(struct sim *sim, void *arg);	/* event: run the task */
void sim_task_timer_event(struct sim *sim, void *arg);	/* event: task's timer expired */
void sim_irq_enable_point(struct sim *sim, struct sim_task *t);	/* last spinlock released */
void sim_sync_nopreempt(struct sim *sim);	/* make the charge real, no preemption */
void sim_irqs_destroy(struct sim *sim);

static inline struct sim_task *sim_task_by_ref(const struct sim *sim, uint32_t ref)
{
	return sim->tasks[ref - 1];	/* ref = id + 1 */
}

static inline uint32_t sim_event_task_ref(const struct sim *sim, const struct sim_event *ev)
{
	(void)sim;
	if (ev->fn == sim_task_resume_event || ev->fn == sim_task_timer_event)
		return ((const struct sim_task *)ev->arg)->id + 1;
	return 0;
}

/* lock.c / waitq.c: FIFO waiter lists */
void sim_waiters_append(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t);
void sim_waiters_prepend(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t);
struct sim_task *sim_waiters_pop(struct sim *sim, struct sim_waiter_list *l);
void sim_waiters_remove(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t);

/* path.c */
void sim_path_init(struct sim *sim);
void sim_path_release(struct sim *sim);
void sim_path_add_root(struct sim *sim, int kind);

/* bdev.c */
void sim_bdevs_destroy(struct sim *sim);

/* Whether `t` runs in kernel mode now (a kernel thread, a system call or
 * fault in progress, or a kernel spinlock held); an interrupt context is
 * a kernel thread. */
static inline bool task_in_kernel(const struct sim_task *t)
{
	return t->kthread || t->kernel_depth || t->preempt_count;
}

/* Attribution helpers: add to the task's counters and to its current
 * node; `kernel` books the time as system time in /proc/stat. */
static inline void sim_account_cpu_mode(struct sim *sim, struct sim_task *t, uint64_t ns,
					bool kernel)
{
	t->pending += ns;
	if (kernel)
		t->pending_sys += ns;
	t->stats.cpu_ns += ns;
	sim->nodes[t->top].cpu_ns += ns;
}

/* ... in the mode the task is in. */
static inline void sim_account_cpu(struct sim *sim, struct sim_task *t, uint64_t ns)
{
	sim_account_cpu_mode(sim, t, ns, task_in_kernel(t));
}

#endif
