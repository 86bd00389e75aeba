/* SPDX-License-Identifier: MIT */
/*
 * sim.h — the deterministic simulation engine: virtual clock, event queue,
 * virtual CPUs running tasks (coroutines), locks, wait queues, timers,
 * call-path attribution.  Block devices are in bdev.h, RNG in rng.h, the
 * cost table in cost.h.
 *
 * This header is the contract between the engine (src/sim/) and everything
 * above it (mm/, workload/, report/, cli/).  See docs/design.md §3.
 *
 * Time model
 * ----------
 * Virtual time is a u64 count of nanoseconds since the start of the run.
 * A task that is running on a virtual CPU does its work inline (plain C
 * calls) and *charges* CPU time with sim_charge(); charges accumulate in
 * the task's `pending` time and cost no event.  The pending time becomes
 * real (the clock moves, other events interleave) only at a *sync point*:
 * sim_sync(), any lock operation, any blocking call, the end of a time
 * slice.  So state changes made inside one stretch of inline work become
 * visible to other tasks at the start of the stretch; this is the model's
 * granularity and every blocking primitive syncs first so that lock and
 * I/O ordering is exact.
 *
 * Event ordering (the tie-break rule)
 * -----------------------------------
 * Events are ordered by (time, seq): `seq` is a 64-bit counter incremented
 * for every event inserted into the queue.  Two events at the same virtual
 * time run in insertion order.  Nothing is ever ordered by pointer value,
 * hash order or wall-clock time.
 *
 * Contexts
 * --------
 * Code runs either in *task context* (inside a task's coroutine; may block)
 * or in *engine context* (timer and I/O-completion callbacks, and plain
 * unit-test code outside sim_run(); must not block).  In engine context
 * sim_charge() adds to sim->engine_ns (reported, never advances the clock)
 * and uncontended lock operations succeed; a lock operation that would
 * block in engine context is a bug (SIM_BUG).  This lets mm/ be unit-tested
 * without tasks.
 */
#ifndef SLOWPATH_SIM_H
#define SLOWPATH_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/cost.h"
#include "sim/debug.h"

typedef uint64_t sim_time_t;		/* ns of virtual time */

#define SIM_NSEC_PER_USEC	1000ULL
#define SIM_NSEC_PER_MSEC	1000000ULL
#define SIM_NSEC_PER_SEC	1000000000ULL
#define SIM_TIME_NEVER		UINT64_MAX

struct sim;
struct sim_task;

/* ---- engine lifecycle ------------------------------------------------ */

/*
 * The scheduler (task.c).  SIM_PREEMPT_SLICE is the model's original one:
 * FIFO run queues, no wake-up preemption, a task preempted at the first
 * sync point after its slice when another waits.  The others are the
 * kernel's preemption models on an EEVDF run queue with ticks and
 * need-resched bits (docs/engine.md "Scheduler").
 */
enum sim_preempt {
	SIM_PREEMPT_SLICE,
	SIM_PREEMPT_NONE,
	SIM_PREEMPT_VOLUNTARY,
	SIM_PREEMPT_FULL,
	SIM_PREEMPT_LAZY,
};

struct sim_config {
	unsigned int	ncpus;		/* virtual CPUs, >= 1 */
	uint64_t	seed;		/* scenario seed; RNG streams derive from it */
	sim_time_t	slice_ns;	/* SIM_PREEMPT_SLICE's time slice (0: default 3 ms) */
	int		preempt;	/* enum sim_preempt */
	sim_time_t	tick_ns;	/* scheduler tick, 1/HZ (0: 4 ms, HZ=250) */
	bool		rwsem_steal;	/* rwsems as rwsem.c: no hand-off until a writer starves */
	unsigned int	mm_slots;	/* address spaces a CPU keeps translations for across
					 * switches (costs mm_switch_miss); 0: unlimited */
	sim_time_t	migration_cost;	/* newidle balancing leaves a task that left its CPU
					 * less than this ago (task_hot); 0: none is hot;
					 * unused by SIM_PREEMPT_SLICE */
	bool		periodic_balance;	/* periodic and nohz-idle load balancing at the
					 * ticks (sched_balance_domains); unused by
					 * SIM_PREEMPT_SLICE */
	bool		no_run_to_parity;	/* NO_RUN_TO_PARITY (sched_feat): the owner's
					 * slice is not protected from wake-ups; unused
					 * by SIM_PREEMPT_SLICE */
	bool		delay_dequeue;	/* DELAY_DEQUEUE with DELAY_ZERO (sched_feat): a
					 * task that sleeps while not eligible stays queued
					 * until picked or woken; unused by SIM_PREEMPT_SLICE */
	unsigned int	llc_cpus;	/* CPUs per last-level cache, in consecutive groups:
					 * a wake-up looks for an idle CPU only in its
					 * previous CPU's group; 0: one cache for all */
	const struct cost_table *costs;	/* NULL: defaults */
};

struct sim *sim_create(const struct sim_config *cfg);
void sim_destroy(struct sim *sim);

/*
 * Run events in (time, seq) order until the queue is empty, or the next
 * event lies beyond `until`, or sim_stop() was called.  The clock ends at
 * min(until, time of last event run).  Returns the number of events run.
 */
uint64_t sim_run(struct sim *sim, sim_time_t until);
void sim_stop(struct sim *sim);

/* Current virtual time.  In task context this includes the running task's
 * pending (not yet synced) charge, i.e. it is the task's local time. */
sim_time_t sim_now(const struct sim *sim);
uint64_t sim_events(const struct sim *sim);	/* events run so far */
unsigned int sim_ncpus(const struct sim *sim);
const struct cost_table *sim_costs(const struct sim *sim);
/* Replace the cost table mid-run (`slowpath run --branch`): every cost read
 * after the call is the new one; CPU time already charged stays as it was. */
void sim_set_costs(struct sim *sim, const struct cost_table *costs);
uint64_t sim_seed(const struct sim *sim);

/* ---- tasks ------------------------------------------------------------ */

/*
 * Task kinds group tasks for statistics and attribution ("backend",
 * "kswapd", "walwriter", ...).  A kind is registered once by name and
 * identified by a small integer afterwards; registration order defines
 * report order.
 */
int sim_task_kind(struct sim *sim, const char *name);
const char *sim_task_kind_name(const struct sim *sim, int kind);
int sim_nr_task_kinds(const struct sim *sim);

typedef void (*sim_task_fn)(struct sim *sim, void *arg);

#define SIM_CPU_ANY	(-1)

struct sim_task_config {
	const char	*name;		/* copied; shows in reports */
	int		kind;		/* from sim_task_kind() */
	int		cpu;		/* preferred CPU, or SIM_CPU_ANY */
	bool		pinned;		/* never runs elsewhere than `cpu` */
	bool		kthread;	/* a kernel thread: always in kernel mode */
	uint32_t	mm;		/* address space, from sim_mm_new(): threads of one
					 * process share it; 0: one of its own (none for a
					 * kernel thread) */
	size_t		stack_size;	/* 0: default (64 KiB, more under ASan) */
};

/* A new address space id for sim_task_config.mm. */
uint32_t sim_mm_new(struct sim *sim);

/*
 * Create a task that will start running `fn(sim, arg)` at `start` on its
 * own stack.  When fn returns the task exits and its stack is freed.
 * Callable from any context.  Task ids are assigned in creation order.
 */
struct sim_task *sim_task_create(struct sim *sim, const struct sim_task_config *cfg,
				 sim_task_fn fn, void *arg, sim_time_t start);
/*
 * How many tasks this host can give a stack at once.  Each stack is its own
 * mapping with a guard page below it: two mappings per task, counted
 * against vm.max_map_count (65530 by default), after a reserve for
 * everything else the process maps.  Scenario checks refuse a scenario
 * with more tasks up front instead of failing mid-run.  *max_map_count is
 * set to the limit read (65530 when /proc cannot be read).
 */
uint64_t sim_host_max_tasks(uint64_t *max_map_count);
struct sim_task *sim_current(const struct sim *sim);	/* NULL in engine context */
uint32_t sim_task_id(const struct sim_task *t);
const char *sim_task_name(const struct sim_task *t);
void *sim_task_arg(const struct sim_task *t);	/* the `arg` it was created with */
int sim_task_kind_of(const struct sim_task *t);
/* Tasks by id (0 .. sim_nr_tasks()-1), for reports; exited tasks stay
 * listed with their statistics. */
uint32_t sim_nr_tasks(const struct sim *sim);
struct sim_task *sim_task_get(const struct sim *sim, uint32_t id);
bool sim_task_exited(const struct sim_task *t);

/* Per-task time accounting.  cpu_ns includes the engine's own charges
 * (context switch, lock hand-off); the five totals of all tasks of a kind
 * equal the sums over that kind's path tree. */
struct sim_task_stats {
	uint64_t	cpu_ns;		/* CPU time charged */
	uint64_t	spin_ns;	/* spinning on spinlocks */
	uint64_t	sleep_ns;	/* blocked on mutex/rwsem/waitq/timer */
	uint64_t	io_ns;		/* blocked on block I/O */
	uint64_t	runq_ns;	/* runnable, waiting for a CPU */
	uint64_t	switches;	/* times it was put on a CPU */
	uint64_t	blocks;		/* switched out to sleep (/proc's voluntary_ctxt_switches) */
	uint64_t	preempts;	/* switched out still runnable (nonvoluntary_ctxt_switches) */
};
void sim_task_stats(const struct sim_task *t, struct sim_task_stats *out);

/*
 * Hard interrupts.  sim_irq_raise(), called in engine context (an event
 * callback, e.g. a block-I/O completion), runs fn(sim, arg) in CPU `cpu`'s
 * interrupt context at the current time, ahead of the task that owns the
 * CPU: the owner is delayed by the handler's whole duration, charges and
 * spinning included.  A handler may charge, spin on spinlocks and wake
 * tasks; it must not block (SIM_BUG).  An interrupt raised while the owner
 * holds a spinlock waits until it releases its last one (the kernel's
 * spin_lock_irq sections).  Raises that arrive while the context runs are
 * handled in the same entry, in order.  sim_in_irq(): the current context
 * is an interrupt handler.
 */
/*
 * User and kernel mode.  A task that is not a kernel thread runs in user
 * mode except between sim_kernel_enter() and sim_kernel_exit() (a system
 * call or a page fault; they nest).  Under the kernel's preemption models
 * a need-resched request preempts a user-mode task at its next sync point,
 * a kernel-mode one only as its model allows; leaving the kernel is a
 * preemption point (return to user).  sim_might_resched(): a might_sleep()
 * point (voluntary preemption).  No-ops for engine context.
 */
void sim_kernel_enter(struct sim *sim);
void sim_kernel_exit(struct sim *sim);
void sim_might_resched(struct sim *sim);

typedef void (*sim_irq_fn)(struct sim *sim, void *arg);
void sim_irq_raise(struct sim *sim, unsigned int cpu, sim_irq_fn fn, void *arg);
bool sim_in_irq(const struct sim *sim);

/* CPU the current task runs on; in engine context, sim->engine_cpu
 * (settable for unit tests with sim_set_engine_cpu). */
unsigned int sim_cpu(const struct sim *sim);
void sim_set_engine_cpu(struct sim *sim, unsigned int cpu);

/* ---- CPU time ------------------------------------------------------------ */

/* Charge `ns` of CPU time to the current task (lazily; see Time model). */
void sim_charge(struct sim *sim, uint64_t ns);
/* Charge `n` units of cost-table row `id`. */
void sim_charge_cost(struct sim *sim, enum cost_id id, uint64_t n);
/* Make pending charge real: the clock advances (other events may run).
 * If no queued event is due at or before the task's local time, the clock
 * is advanced directly without a queue round trip (the result is the same
 * as queueing a resume event: it would be the next one to run).  If the
 * task's slice is used up and another task waits for its CPU, it is
 * preempted here (a sync point is where a tick's preemption takes effect). */
void sim_sync(struct sim *sim);
/* cond_resched(): sync, and give the CPU up if the slice is used and
 * another task waits for this CPU. */
void sim_cond_resched(struct sim *sim);
/* Block the current task for `ns` (timer sleep; the CPU is released). */
void sim_sleep(struct sim *sim, sim_time_t ns);
void sim_sleep_until(struct sim *sim, sim_time_t when);

/* ---- engine-context callbacks (timers) ------------------------------- */

typedef void (*sim_callback_fn)(struct sim *sim, void *arg);
/* Run `fn(sim, arg)` in engine context at `when` (>= now). */
void sim_call_at(struct sim *sim, sim_time_t when, sim_callback_fn fn, void *arg);

/* Event trace hook (determinism checks, debugging): called before every
 * event with its (time, seq) and the id + 1 of the task it resumes or
 * times out (0 for plain callbacks).  NULL disables. */
typedef void (*sim_trace_fn)(void *ctx, sim_time_t time, uint64_t seq, uint32_t task_ref);
void sim_set_trace(struct sim *sim, sim_trace_fn fn, void *ctx);
/* sim_sync calls that advanced the clock without a queue event. */
uint64_t sim_fast_syncs(const struct sim *sim);
/* Preemptions of a task that holds a user-space spinlock (a PostgreSQL
 * s_lock), by where the preemption came: in user mode at a sync point
 * (the full bit, as its reschedule IPI), at a return to user mode (end of
 * a system call or fault), at a tick, or in kernel mode. */
enum sim_uspin_preempt {
	SIM_USPIN_PREEMPT_IPI, SIM_USPIN_PREEMPT_RETURN, SIM_USPIN_PREEMPT_TICK,
	SIM_USPIN_PREEMPT_KERNEL, SIM_USPIN_PREEMPT_KINDS
};
uint64_t sim_uspin_holder_preempts(const struct sim *sim, enum sim_uspin_preempt where);
/* Preemptions of a task spinning on a user-space spinlock, mid-spin (under
 * the preemption models): by a wake-up's reschedule IPI, at an interrupt's
 * return to user mode, or at a tick. */
uint64_t sim_uspin_spinner_preempts(const struct sim *sim, enum sim_uspin_preempt where);
/* Run-queue waits of tasks holding a user-space spinlock (a preempted
 * holder, or one woken from a sleep it took while holding): how many, and
 * their total time from being queued to being put on a CPU. */
uint64_t sim_uspin_holder_runq_waits(const struct sim *sim);
uint64_t sim_uspin_holder_runq_ns(const struct sim *sim);
/* Wake-ups that sent an IPI (to another CPU that was idle, or that had to
 * reschedule at once) and wake-ups onto an idle CPU (statistics only;
 * costs wake_ipi and idle_exit, task.c sim_task_wake). */
uint64_t sim_wake_ipis(const struct sim *sim);
uint64_t sim_idle_wakeups(const struct sim *sim);
/* Wake-ups from one CPU onto another CPU's run queue while that CPU runs
 * a task (each charged `wake_remote_busy`); statistics only. */
uint64_t sim_remote_busy_wakeups(const struct sim *sim);
/* Newidle balances that left their CPU idle because every task they could
 * pull had left its CPU less than migration_cost ago (task_hot);
 * statistics only. */
uint64_t sim_newidle_hot_fails(const struct sim *sim);
/* newidle pulls made, and refused by the util rule (migrate_util) only */
uint64_t sim_newidle_pulls(const struct sim *sim);
/* Wake-ups (not of new tasks) onto a CPU running another task, and those
 * that asked it to reschedule (check_preempt_wakeup_fair); preemption
 * models only. */
uint64_t sim_busy_wakeups(const struct sim *sim);
uint64_t sim_busy_wakeup_requests(const struct sim *sim);
/* DELAY_DEQUEUE: sleeps kept queued, wake-ups that found the task still
 * queued (woken in place, no CPU selection), and kept sleeps that ended
 * when EEVDF picked the task; statistics only. */
uint64_t sim_delayed_dequeues(const struct sim *sim);
uint64_t sim_delayed_wakeups(const struct sim *sim);
uint64_t sim_delayed_picks(const struct sim *sim);
uint64_t sim_newidle_util_fails(const struct sim *sim);
/* Periodic load balancing (periodic_balance): balance attempts made at a
 * busy CPU's tick or for an idle CPU by a nohz kick, tasks they moved,
 * attempts that found an imbalance and moved nothing (every candidate
 * cache-hot or pinned), and nohz kicks sent; statistics only. */
struct sim_balance_stats {
	uint64_t	runs, moved, failed, nohz_kicks;
};
void sim_balance_stats(const struct sim *sim, struct sim_balance_stats *out);
/* Stretches in which a CPU had no task to run, from its owner leaving
 * with nothing queued to the next task put on it (what perf sched shows
 * as the idle task between two sched_switch events; an interrupt does not
 * end one), and their summed length in *ns; statistics only. */
uint64_t sim_idle_stretches(const struct sim *sim, uint64_t *ns);
/* Tasks put on a CPU another task was put on since they last ran there
 * (each charged `switch_refill`); statistics only. */
uint64_t sim_refill_switches(const struct sim *sim);
/* Switches onto a CPU whose loaded address space was another (each
 * charged `mm_switch`), and of them those to an address space not among
 * the CPU's last mm_slots (each charged `mm_switch_miss` besides);
 * statistics only. */
uint64_t sim_mm_switches(const struct sim *sim);
uint64_t sim_mm_switch_misses(const struct sim *sim);
/* Switches into tasks, and how many of them went straight from the task
 * that yielded to the next one instead of through the engine. */
uint64_t sim_resumes(const struct sim *sim);
uint64_t sim_direct_resumes(const struct sim *sim);
/* Whether this build switches from task to task directly at all (ASan
 * builds always go through the engine). */
bool sim_direct_switch_built(void);

/* ---- spinlocks --------------------------------------------------------- */
/*
 * A waiter keeps its CPU and burns it while spinning (the time counts as
 * CPU time, attributed as spin time); ownership passes to waiters in FIFO
 * order (ticket lock).  Acquire and release are sync points.
 */
struct sim_lock_stats {
	uint64_t	acquisitions;
	uint64_t	contended;	/* acquisitions that had to wait */
	uint64_t	wait_ns;	/* total time spent waiting */
	uint64_t	hold_ns;	/* total time held */
	uint64_t	trylock_fail;
	uint64_t	spin_ns;	/* user-space spinlocks: time spent spinning,
					 * with or without the lock at the end */
};

struct sim_waiter_list {		/* FIFO of task ids, engine-owned */
	uint32_t	head, tail;
};

struct sim_spinlock {
	const char	*name;		/* static string, for reports */
	uint32_t	owner;		/* task id + 1, 0 when free */
	struct sim_waiter_list waiters;
	uint32_t	uspinners;	/* user-space spinlocks: tasks spinning now */
	sim_time_t	acquired_at;
	struct sim_lock_stats stats;
	struct sim_spinlock *next_registered;	/* engine's list for reports */
};

/* name NULL: an anonymous lock, not listed in reports.  A registered lock
 * embedded in an object that is freed must be unregistered first with
 * sim_*_release(). */
void sim_spin_init(struct sim *sim, struct sim_spinlock *l, const char *name);
void sim_spin_release(struct sim *sim, struct sim_spinlock *l);
/* Teardown after a run that stopped (sim_run returned at its `until`)
 * with a task holding or spinning on `l`, which a short hold crossing the
 * end of the run makes likely: unregister it regardless (the stopped tasks
 * never run again).  A bug inside sim_run. */
void sim_spin_abandon(struct sim *sim, struct sim_spinlock *l);
void sim_spin_lock(struct sim *sim, struct sim_spinlock *l);
bool sim_spin_trylock(struct sim *sim, struct sim_spinlock *l);
void sim_spin_unlock(struct sim *sim, struct sim_spinlock *l);
bool sim_spin_is_locked(const struct sim_spinlock *l);
/*
 * A user-space spinlock (PostgreSQL's slock_t) on the same struct: its
 * holder stays preemptible and may sleep (a page fault that stalls, a
 * preemption while holding).  A waiter spins on its CPU for at most
 * `spin_ns` and returns false if the lock was not handed to it by then
 * (FIFO hand-off among the spinners at release); spin_ns 0 is a trylock.
 * It is a test-and-set lock, not a queued one: at a hand-off the new
 * holder is charged `pg_tas_handoff` per other task still spinning (their
 * TAS attempts pull the line away from it once each).
 * The spinner is in user mode and preemptible (under the preemption
 * models): under none, voluntary and full a wake-up's reschedule IPI
 * preempts it at once, under lazy a fair wake-up waits for its next
 * interrupt or tick.  Preempted, it stops competing; back on a CPU it
 * tries the lock again and spins for the rest of its budget (`spin_ns` is
 * CPU time, as s_lock counts iterations, not wall time).
 * A task must not mix these calls with sim_spin_lock on one lock.
 */
bool sim_uspin_lock_for(struct sim *sim, struct sim_spinlock *l, sim_time_t spin_ns);
void sim_uspin_unlock(struct sim *sim, struct sim_spinlock *l);

/* ---- sleeping mutexes ------------------------------------------------- */
/* A waiter sleeps (its CPU is released); FIFO hand-off. */
struct sim_mutex {
	const char	*name;
	uint32_t	owner;		/* task id + 1, 0 when free */
	struct sim_waiter_list waiters;
	sim_time_t	acquired_at;
	struct sim_lock_stats stats;
	struct sim_mutex *next_registered;
};

void sim_mutex_init(struct sim *sim, struct sim_mutex *m, const char *name);
void sim_mutex_release(struct sim *sim, struct sim_mutex *m);
/* Teardown counterpart of sim_spin_abandon() for mutexes. */
void sim_mutex_abandon(struct sim *sim, struct sim_mutex *m);
void sim_mutex_lock(struct sim *sim, struct sim_mutex *m);
bool sim_mutex_trylock(struct sim *sim, struct sim_mutex *m);
void sim_mutex_unlock(struct sim *sim, struct sim_mutex *m);
bool sim_mutex_is_locked(const struct sim_mutex *m);

/* ---- reader-writer semaphores (sleeping) ------------------------------ */
struct sim_rwsem {
	const char	*name;
	uint32_t	readers;	/* active readers */
	uint32_t	writer;		/* task id + 1 of the writer, 0 if none */
	struct sim_waiter_list waiters;	/* FIFO; a waiting writer blocks new readers */
	bool		handoff;	/* rwsem_steal: reserved for the first waiter (RWSEM_FLAG_HANDOFF) */
	uint32_t	woken;		/* rwsem_steal: the writer woken, not yet back (task id + 1) */
	sim_time_t	held_since;	/* start of the current held period (any mode) */
	struct sim_lock_stats stats;	/* hold_ns: time held in any mode */
	struct sim_rwsem *next_registered;
};

void sim_rwsem_init(struct sim *sim, struct sim_rwsem *s, const char *name);
void sim_rwsem_release(struct sim *sim, struct sim_rwsem *s);
void sim_down_read(struct sim *sim, struct sim_rwsem *s);
void sim_up_read(struct sim *sim, struct sim_rwsem *s);
void sim_down_write(struct sim *sim, struct sim_rwsem *s);
void sim_up_write(struct sim *sim, struct sim_rwsem *s);

/* ---- wait queues -------------------------------------------------------- */
struct sim_waitq {
	const char	*name;
	struct sim_waiter_list waiters;
};

void sim_waitq_init(struct sim_waitq *q, const char *name);
/* Sleep until woken.  Returns true if woken, false on timeout
 * (timeout SIM_TIME_NEVER: no timeout). */
bool sim_wait(struct sim *sim, struct sim_waitq *q, sim_time_t timeout_ns);
/* The same, attributed as I/O wait (io_schedule: a folio lock or writeback
 * bit, a block-layer tag) instead of sleep. */
bool sim_wait_io(struct sim *sim, struct sim_waitq *q, sim_time_t timeout_ns);
/* Wake the first / all waiters (callable from any context).  Returns the
 * number of tasks woken. */
unsigned int sim_wake_one(struct sim *sim, struct sim_waitq *q);
unsigned int sim_wake_all(struct sim *sim, struct sim_waitq *q);
bool sim_waitq_active(const struct sim_waitq *q);
/*
 * wait_event(): sleep on `q` until `cond` holds.  The sync before each
 * test makes pending CPU time real first, so sim_wait's own sync has
 * nothing to advance and cannot let a wake-up slip in (or preempt the
 * task) between the test and the queueing; the kernel gets the same by
 * queueing before it tests (prepare_to_wait).  _io attributes the sleep
 * as I/O wait (io_schedule: a folio lock or writeback bit, a tag).
 */
#define sim_wait_event_as(sim, q, cond, wait) do {			\
	for (;;) {							\
		sim_sync(sim);						\
		if (cond)						\
			break;						\
		wait((sim), (q), SIM_TIME_NEVER);			\
	}								\
} while (0)
#define sim_wait_event(sim, q, cond)	sim_wait_event_as(sim, q, cond, sim_wait)
#define sim_wait_event_io(sim, q, cond)	sim_wait_event_as(sim, q, cond, sim_wait_io)

/* ---- call-path attribution -------------------------------------------- */
/*
 * Each task keeps a stack of path nodes.  CPU charges, spin waits, sleeps
 * and I/O waits are added to the node on top of the stack.  Nodes form one
 * tree per task kind, keyed by (parent, name); children are kept in
 * first-seen order.  `name` must be a string literal (compared by content
 * on first lookup, cached by pointer afterwards).  In engine context these
 * are no-ops.
 */
void sim_path_push(struct sim *sim, const char *name);
void sim_path_pop(struct sim *sim);
/*
 * Balance check (SIM_DEBUG >= 1; nothing otherwise): SIM_BUG unless the
 * current task has no call path open.  The engine checks it when a task
 * exits; a task that never exits calls it at the top of its main loop,
 * the point where a kernel thread or process would return to user space
 * holding nothing (lockdep's check at system-call exit).  A task that
 * blocks mid-way has paths open by design, so its sync points in general
 * are no such point.  A no-op in engine context.
 */
void sim_path_assert_empty(struct sim *sim);

struct sim_path_node {
	const char	*name;		/* roots: the kind's name */
	uint32_t	parent;		/* index of the parent node; roots have 0 */
	uint32_t	first_child, next_sibling;	/* indices, 0 = none */
	int		kind;
	uint64_t	calls;		/* number of pushes */
	uint64_t	cpu_ns;		/* CPU charged while on top (self) */
	uint64_t	spin_ns;	/* spinning on a spinlock (self) */
	uint64_t	sleep_ns;	/* blocked on mutex/rwsem/waitq/timer (self) */
	uint64_t	io_ns;		/* blocked on block I/O (self) */
	uint64_t	runq_ns;	/* runnable but waiting for a CPU (self) */
};

/* Read access for reports: node 0..n-1; node i < nr_task_kinds is the root
 * of kind i. */
uint32_t sim_path_nodes(const struct sim *sim, const struct sim_path_node **nodes);

/* The measured window (ramp_time).  sim_path_window_start() keeps a copy
 * of every node's figures as they stand now, with each task's open sleep,
 * I/O, run-queue wait and spin charged up to now in the copy (the tree
 * itself is not touched, so results do not change).  sim_path_window()
 * returns a new array (the caller frees it), the tree of sim_path_nodes
 * with the window's figures: the tree's now, open intervals charged up to
 * now likewise, less the copy; nodes created later keep all theirs.  It
 * returns 0 and NULL when no window was started.  CPU time counts when it
 * is charged: a burst charged before the start counts before it. */
void sim_path_window_start(struct sim *sim);
uint32_t sim_path_window(const struct sim *sim, struct sim_path_node **nodes, sim_time_t *at);

/* ---- statistics ---------------------------------------------------------- */

/*
 * Per CPU, since time 0.  /proc/stat's columns (fs/proc/stat.c, 6.12)
 * follow from them: user = busy - system - irq_cpu, system, irq =
 * irq_cpu, iowait, idle = idle - iowait.  Simplified: the model has no
 * softirq context (loopback's receive work is charged to the sender's
 * system call), no nice levels, no steal and no guests.
 */
struct sim_cpu_stats {
	uint64_t	busy_ns;	/* running or spinning (interrupts included) */
	uint64_t	spin_ns;
	uint64_t	idle_ns;
	uint64_t	switches;
	uint64_t	irq_ns;		/* in interrupt context */
	uint64_t	irqs;		/* interrupts taken (raises handled in one entry count once) */
	uint64_t	system_ns;	/* of busy_ns: kernel mode outside interrupt context */
	uint64_t	irq_cpu_ns;	/* of busy_ns: the interrupt context's CPU time */
	uint64_t	iowait_ns;	/* of idle_ns: idle while a task that blocked for I/O
					 * here sleeps (tick_nohz_stop_idle's rule) */
};
void sim_cpu_stats(const struct sim *sim, unsigned int cpu, struct sim_cpu_stats *out);
/* /proc/stat's procs_running (tasks running or queued, interrupt contexts
 * not counted), procs_blocked (tasks asleep for I/O: nr_iowait) and
 * processes (tasks created, interrupt contexts not counted). */
unsigned int sim_nr_running(const struct sim *sim);
unsigned int sim_nr_iowait(const struct sim *sim);
uint32_t sim_nr_processes(const struct sim *sim);

/*
 * The hung-task detector (khungtaskd's check_hung_uninterruptible_tasks,
 * kernel/hung_task.c, 6.12; hung_task.c).  sim_check_hung_tasks(), called
 * outside sim_run, looks at every task in id order: one in uninterruptible
 * sleep (block I/O and io_schedule waits, mutexes, rw-semaphores) that has
 * not been put on a CPU since a check at least `timeout` ago is passed to
 * `fn`, at every check until it runs again.  It reads the model and changes
 * nothing in it.  Returns the number of tasks passed to `fn`.
 */
struct sim_hung_task {
	const char	*comm;		/* the task's name */
	uint32_t	pid;		/* its id */
	sim_time_t	blocked_ns;	/* since the check that last saw it switch */
	uint32_t	path;		/* its open path node (sim_path_nodes): where it sleeps */
	unsigned int	cpu;		/* the CPU it last ran on */
};
typedef void (*sim_hung_task_fn)(void *ctx, const struct sim_hung_task *h);
unsigned int sim_check_hung_tasks(struct sim *sim, sim_time_t timeout, sim_hung_task_fn fn,
				  void *ctx);

/*
 * The hard-lockup detector (watchdog_hardlockup_check, kernel/watchdog.c,
 * 6.12; hung_task.c).  Every spinlock is taken with interrupts off in the
 * model, so a CPU whose interrupt context or owner has spun on a kernel
 * spinlock for at least `thresh` is locked up: passed to `fn` once per
 * episode (h->pid/comm: the spinner, h->blocked_ns: how long it spins,
 * h->cpu: the CPU).  With the model's costs this never happens unless
 * spinlock holders and interrupts deadlock; a cost override that holds a
 * lock for seconds makes one too.  Returns the number of CPUs passed to
 * `fn`.
 */
unsigned int sim_check_hard_lockups(struct sim *sim, sim_time_t thresh, sim_hung_task_fn fn,
				    void *ctx);

/* Iterate registered locks (in registration order) for reports. */
const struct sim_spinlock *sim_spinlocks(const struct sim *sim);
const struct sim_mutex *sim_mutexes(const struct sim *sim);
const struct sim_rwsem *sim_rwsems(const struct sim *sim);

/* Engine-context CPU time charged outside tasks (unit tests, callbacks). */
uint64_t sim_engine_ns(const struct sim *sim);

#endif /* SLOWPATH_SIM_H */
