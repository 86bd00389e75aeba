/* SPDX-License-Identifier: MIT */
/*
 * lock.c — spinlocks, sleeping mutexes and reader-writer semaphores, with
 * per-lock contention statistics.
 *
 * Every operation in task context syncs first, so acquisition order is
 * exact in virtual time.  Ownership passes to waiters in FIFO order at the
 * instant of release (direct hand-off): the releaser makes the first waiter
 * the owner before anybody else can take the lock.
 *
 * Spinlocks (models a queued/ticket spinlock, include/asm-generic/qspinlock.h
 * in spirit): a waiter keeps its CPU and burns it.  Its spin time counts as
 * CPU busy and spin time on that CPU (nobody else runs there meanwhile) and
 * as spin_ns on the waiter's path node.  On hand-off the new owner is
 * charged `spin_handoff` (the lock's cache line moving to its CPU).  Holding
 * a spinlock disables preemption (no slice preemption; sleeping is a bug,
 * as "scheduling while atomic" is in the kernel).
 *
 * Mutexes (kernel/locking/mutex.c): a waiter sleeps and its CPU runs
 * something else.  Simplification: no optimistic spinning on the owner and
 * no lock stealing by a running task; FIFO hand-off to the first waiter
 * (the kernel hands off only after a waiter has starved, so real mutexes
 * are less fair and somewhat faster under contention).
 *
 * Reader-writer semaphores (kernel/locking/rwsem.c): readers share, a
 * writer is exclusive, waiters sleep.  A new reader queues if a writer
 * holds the lock or anybody waits (a waiting writer blocks new readers:
 * no reader lock-stealing).  On release, if the first waiter is a writer
 * it gets the lock; if it is a reader, every reader in the queue is woken
 * and granted, writers keeping their places (as rwsem_mark_wake does; its
 * MAX_READERS_WAKEUP cap of 256 is not modelled).  hold_ns counts the time
 * the rwsem is held in any mode.
 *
 * With sim_config.rwsem_steal ([kernel] rwsem=steal) an rwsem behaves as
 * kernel/locking/rwsem.c (Linux 6.12) does instead: a released lock
 * whose first waiter is a writer only wakes it; the lock goes to whoever
 * takes it first — a writer or reader that arrives meanwhile (the fast
 * path, and a reader's optimistic lock stealing, which needs no writer
 * and, when others wait, no other reader) or the woken writer once it
 * runs (rwsem_try_write_lock).  A woken writer that finds it taken goes
 * back to the head of the queue and sleeps; once it has waited
 * RWSEM_WAIT_TIMEOUT (DIV_ROUND_UP(HZ, 250) jiffies, 4 ms at HZ 250 or
 * 1000) since it first queued, it sets the hand-off flag: nobody else may
 * take the lock, and its release grants it to that writer directly.
 * Readers at the queue's head are granted at the wake-up, as before.
 * Simplified: no optimistic spinning on a running owner (a contended
 * acquirer sleeps at once), and the timeout is checked when the writer
 * runs, not by jiffies.
 *
 * Statistics per lock: acquisitions (all successful ones), contended (had
 * to wait), wait_ns (request to grant, contended only), hold_ns (grant to
 * release), trylock_fail.  Named locks are listed in registration order.
 *
 * Engine context (callbacks, unit tests): uncontended operations succeed
 * with owner SIM_OWNER_ENGINE and no time passes; an operation that would
 * wait is a bug (SIM_BUG).
 */
#include <string.h>

#include "sim/internal.h"

#define REGISTER(sim, head, tail, l) do {		\
	(l)->next_registered = NULL;			\
	if ((sim)->tail)				\
		(sim)->tail->next_registered = (l);	\
	else						\
		(sim)->head = (l);			\
	(sim)->tail = (l);				\
} while (0)

#define UNREGISTER(sim, head, tail, type, l) do {	\
	type *_prev = NULL, *_p = (sim)->head;		\
	while (_p && _p != (l)) {			\
		_prev = _p;				\
		_p = _p->next_registered;		\
	}						\
	if (_p) {					\
		if (_prev)				\
			_prev->next_registered = _p->next_registered; \
		else					\
			(sim)->head = _p->next_registered; \
		if ((sim)->tail == _p)			\
			(sim)->tail = _prev;		\
	}						\
} while (0)

static inline uint32_t owner_ref(const struct sim *sim)
{
	return sim->current ? sim->current->id + 1 : SIM_OWNER_ENGINE;
}

/* Preemption was disabled while a spinlock was held: act on a pending
 * slice end now, as preempt_enable() does. */
static void preempt_enable(struct sim *sim, struct sim_task *t)
{
	SIM_ASSERT(t->preempt_count > 0);
	if (--t->preempt_count == 0) {
		if (unlikely(sim->irqs_held_off) && sim->cpus[t->cpu].irq_held_off)
			sim_irq_enable_point(sim, t);
		sim_sync(sim);
	}
}

/* ---- spinlocks ----------------------------------------------------------------- */

void sim_spin_init(struct sim *sim, struct sim_spinlock *l, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->name = name ? name : "(anonymous spinlock)";
	if (name)
		REGISTER(sim, spin_head, spin_tail, l);
}

void sim_spin_release(struct sim *sim, struct sim_spinlock *l)
{
	if (l->owner || l->waiters.head)
		SIM_BUG("releasing spinlock %s while in use", l->name);
	UNREGISTER(sim, spin_head, spin_tail, struct sim_spinlock, l);
}

void sim_spin_abandon(struct sim *sim, struct sim_spinlock *l)
{
	if (sim->running)
		SIM_BUG("abandoning spinlock %s inside sim_run", l->name);
	/* the stopped owner and waiters never run again: forget them */
	l->owner = 0;
	l->waiters.head = l->waiters.tail = 0;
	UNREGISTER(sim, spin_head, spin_tail, struct sim_spinlock, l);
}

static void spin_grant(struct sim *sim, struct sim_spinlock *l, uint32_t ref)
{
	l->owner = ref;
	l->acquired_at = sim->now;
	l->stats.acquisitions++;
	if (sim->current)
		sim->current->preempt_count++;
}

void sim_spin_lock(struct sim *sim, struct sim_spinlock *l)
{
	struct sim_task *t = sim->current;

	sim_sync(sim);
	if (!l->owner) {
		spin_grant(sim, l, owner_ref(sim));
		return;
	}
	if (!t)
		SIM_BUG("spinlock %s would spin in engine context", l->name);
	if (l->owner == t->id + 1)
		SIM_BUG("task %s takes spinlock %s recursively", t->name, l->name);
	l->stats.contended++;
	t->wait_mode = WAIT_EXCL;
	sim_waiters_append(sim, &l->waiters, t);
	sim_task_spin_wait(sim);
	/* the releaser made us the owner */
	SIM_ASSERT_INTERNAL(l->owner == t->id + 1);
	t->preempt_count++;
}

bool sim_spin_trylock(struct sim *sim, struct sim_spinlock *l)
{
	sim_sync(sim);
	if (l->owner) {
		l->stats.trylock_fail++;
		return false;
	}
	spin_grant(sim, l, owner_ref(sim));
	return true;
}

/* Release spinlock `l` by its owner: hand it to the first spinner (FIFO)
 * or free it.  Returns the spinner that now owns it, or NULL; the caller
 * lets it run (sim_task_spin_granted). */
static struct sim_task *spin_release(struct sim *sim, struct sim_spinlock *l)
{
	struct sim_task *w;

	sim_sync(sim);
	if (l->owner != owner_ref(sim))
		SIM_BUG("spinlock %s released by a non-owner", l->name);
	l->stats.hold_ns += sim->now - l->acquired_at;
	w = sim_waiters_pop(sim, &l->waiters);
	if (w) {
		l->owner = w->id + 1;
		l->acquired_at = sim->now;
		l->stats.acquisitions++;
		l->stats.wait_ns += sim->now - w->mark;
	} else {
		l->owner = 0;
	}
	return w;
}

void sim_spin_unlock(struct sim *sim, struct sim_spinlock *l)
{
	struct sim_task *t = sim->current;
	struct sim_task *w = spin_release(sim, l);

	if (w)
		sim_task_spin_granted(sim, w, sim->now);
	if (t)
		preempt_enable(sim, t);
}

/* ---- user-space spinlocks ------------------------------------------------------- */

/* Spinner t, already off l's waiter list, stops spinning: with the lock
 * (handed it at a release) or without (its time ran out).  Its spin time
 * goes to the lock's statistics and, as CPU time, to the task. */
/* Spinner t, off l's waiter list, is no longer one of l's spinners. */
static void uspin_leave(struct sim *sim, struct sim_spinlock *l, struct sim_task *t)
{
	l->uspinners--;
	l->stats.spin_ns += sim->now - t->mark;
	t->timer_seq = 0;	/* a pending time limit no longer applies */
	t->uspin = NULL;
}

static void uspin_stop(struct sim *sim, struct sim_spinlock *l, struct sim_task *t, bool got)
{
	uspin_leave(sim, l, t);
	t->woken = got;
	sim_task_spin_granted(sim, t, sim->now);
}

static void uspin_timeout_event(struct sim *sim, void *arg)
{
	struct sim_task *t = arg;
	struct sim_spinlock *l = t->uspin;

	if (t->timer_seq != sim->cur_seq)
		return;		/* handed the lock before its time ran out */
	sim_waiters_remove(sim, &l->waiters, t);
	uspin_stop(sim, l, t, false);
}

/* The spinner `t` (owner of its CPU) is being preempted mid-spin
 * (task.c): it stops spinning without the lock and keeps the budget it
 * had left. */
void sim_uspin_preempted(struct sim *sim, struct sim_task *t)
{
	struct sim_spinlock *l = t->uspin;

	sim_waiters_remove(sim, &l->waiters, t);
	t->uspin_left = t->uspin_end > sim->now ? t->uspin_end - sim->now : 0;
	uspin_leave(sim, l, t);
}

static bool uspin_try(struct sim *sim, struct sim_spinlock *l, struct sim_task *t)
{
	if (l->owner)
		return false;
	l->owner = owner_ref(sim);
	l->acquired_at = sim->now;
	l->stats.acquisitions++;
	if (t)
		t->uspins_held++;
	return true;
}

bool sim_uspin_lock_for(struct sim *sim, struct sim_spinlock *l, sim_time_t spin_ns)
{
	struct sim_task *t = sim->current;

	sim_sync(sim);
	if (uspin_try(sim, l, t))
		return true;
	if (!t)
		SIM_BUG("spinlock %s would spin in engine context", l->name);
	if (l->owner == t->id + 1)
		SIM_BUG("task %s takes spinlock %s recursively", t->name, l->name);
	l->stats.contended++;
	while (spin_ns) {
		t->wait_mode = WAIT_EXCL;
		t->uspin = l;
		t->woken = false;
		sim_waiters_append(sim, &l->waiters, t);
		l->uspinners++;
		t->uspin_end = sim->now + spin_ns;
		t->timer_seq = sim_evq_push(&sim->evq, t->uspin_end, uspin_timeout_event, t);
		sim_task_spin_wait(sim);
		if (!t->uspin_preempted)
			return t->woken;
		/* preempted mid-spin and now back on a CPU: its next TAS, then
		 * the rest of its budget */
		t->uspin_preempted = false;
		sim_sync(sim);
		if (uspin_try(sim, l, t))
			return true;
		spin_ns = t->uspin_left;
	}
	return false;
}

void sim_uspin_unlock(struct sim *sim, struct sim_spinlock *l)
{
	struct sim_task *w = spin_release(sim, l);

	if (sim->current && sim->current->uspins_held)
		sim->current->uspins_held--;
	if (w) {
		w->uspins_held++;
		uspin_stop(sim, l, w, true);
		/* a test-and-set lock: the other spinners' TAS attempts take
		 * the line from the new holder once each (costs.def) */
		sim_account_cpu(sim, w, cost_ns(&sim->costs, COST_pg_tas_handoff, l->uspinners));
	}
}

bool sim_spin_is_locked(const struct sim_spinlock *l)
{
	return l->owner != 0;
}

/* ---- mutexes ------------------------------------------------------------------- */

void sim_mutex_init(struct sim *sim, struct sim_mutex *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->name = name ? name : "(anonymous mutex)";
	if (name)
		REGISTER(sim, mutex_head, mutex_tail, m);
}

void sim_mutex_release(struct sim *sim, struct sim_mutex *m)
{
	if (m->owner || m->waiters.head)
		SIM_BUG("releasing mutex %s while in use", m->name);
	UNREGISTER(sim, mutex_head, mutex_tail, struct sim_mutex, m);
}

void sim_mutex_abandon(struct sim *sim, struct sim_mutex *m)
{
	if (sim->running)
		SIM_BUG("abandoning mutex %s inside sim_run", m->name);
	m->owner = 0;
	m->waiters.head = m->waiters.tail = 0;
	UNREGISTER(sim, mutex_head, mutex_tail, struct sim_mutex, m);
}

void sim_mutex_lock(struct sim *sim, struct sim_mutex *m)
{
	struct sim_task *t = sim->current;

	sim_sync(sim);
	if (unlikely(sim->preempt == SIM_PREEMPT_VOLUNTARY))
		sim_might_resched(sim);	/* might_sleep() */
	if (!m->owner) {
		m->owner = owner_ref(sim);
		m->acquired_at = sim->now;
		m->stats.acquisitions++;
		return;
	}
	if (!t)
		SIM_BUG("mutex %s would block in engine context", m->name);
	if (m->owner == t->id + 1)
		SIM_BUG("task %s takes mutex %s recursively", t->name, m->name);
	m->stats.contended++;
	t->wait_mode = WAIT_EXCL;
	sim_waiters_append(sim, &m->waiters, t);
	sim_task_block(sim, BLOCK_LOCK);
	SIM_ASSERT_INTERNAL(m->owner == t->id + 1);
}

bool sim_mutex_trylock(struct sim *sim, struct sim_mutex *m)
{
	sim_sync(sim);
	if (m->owner) {
		m->stats.trylock_fail++;
		return false;
	}
	m->owner = owner_ref(sim);
	m->acquired_at = sim->now;
	m->stats.acquisitions++;
	return true;
}

void sim_mutex_unlock(struct sim *sim, struct sim_mutex *m)
{
	struct sim_task *w;

	sim_sync(sim);
	if (m->owner != owner_ref(sim))
		SIM_BUG("mutex %s released by a non-owner", m->name);
	m->stats.hold_ns += sim->now - m->acquired_at;
	w = sim_waiters_pop(sim, &m->waiters);
	if (!w) {
		m->owner = 0;
		return;
	}
	m->owner = w->id + 1;
	m->acquired_at = sim->now;
	m->stats.acquisitions++;
	m->stats.wait_ns += sim->now - w->mark;
	sim_task_wake(sim, w, sim->now);
}

bool sim_mutex_is_locked(const struct sim_mutex *m)
{
	return m->owner != 0;
}

/* ---- reader-writer semaphores ----------------------------------------------------- */

void sim_rwsem_init(struct sim *sim, struct sim_rwsem *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->name = name ? name : "(anonymous rwsem)";
	if (name)
		REGISTER(sim, rwsem_head, rwsem_tail, s);
}

void sim_rwsem_release(struct sim *sim, struct sim_rwsem *s)
{
	if (s->readers || s->writer || s->waiters.head)
		SIM_BUG("releasing rwsem %s while in use", s->name);
	UNREGISTER(sim, rwsem_head, rwsem_tail, struct sim_rwsem, s);
}

static void rwsem_grant(struct sim *sim, struct sim_rwsem *s, struct sim_task *w, sim_time_t when)
{
	if (!s->readers && !s->writer)
		s->held_since = when;
	if (w->wait_mode == WAIT_READ)
		s->readers++;
	else
		s->writer = w->id + 1;
	s->stats.acquisitions++;
	/* a writer under rwsem_steal may have slept more than once */
	s->stats.wait_ns += when - (sim->rwsem_steal && w->wait_mode == WAIT_EXCL ? w->lock_since : w->mark);
	sim_task_wake(sim, w, when);
}

/*
 * rwsem_steal's invariants, checked in debug builds where a waiter
 * blocks and after a release: nobody waits for a free lock unless a
 * woken writer is on its way; a reserved lock's owner-to-be is the first
 * waiter, a writer, and no other writer is awake.
 */
static void rwsem_check(const struct sim *sim, const struct sim_rwsem *s)
{
	if (!sim->rwsem_steal || SIM_DEBUG < 2)
		return;
	if (s->waiters.head && !s->writer && !s->readers && !s->woken)
		SIM_BUG("rwsem %s: free, with waiters and nobody woken", s->name);
	if (s->handoff && (!s->waiters.head || s->woken ||
			   sim_task_by_ref(sim, s->waiters.head)->wait_mode != WAIT_EXCL))
		SIM_BUG("rwsem %s: reserved, but its first waiter is not a sleeping writer", s->name);
}

/* The lock became free (or reader-only): hand it to the queue head(s). */
static void rwsem_wake(struct sim *sim, struct sim_rwsem *s)
{
	struct sim_task *w;
	uint32_t ref, next;

	/* rwsem_steal: the first waiter is a writer that is awake already */
	if (!s->waiters.head || s->writer || s->woken)
		return;
	w = sim_task_by_ref(sim, s->waiters.head);
	if (w->wait_mode == WAIT_EXCL) {
		if (s->readers)
			return;
		sim_waiters_remove(sim, &s->waiters, w);
		if (sim->rwsem_steal && !s->handoff) {	/* woken, not granted */
			s->woken = w->id + 1;
			sim_task_wake(sim, w, sim_now(sim));
			return;
		}
		s->handoff = false;
		rwsem_grant(sim, s, w, sim_now(sim));
		return;
	}
	for (ref = s->waiters.head; ref; ref = next) {
		w = sim_task_by_ref(sim, ref);
		next = w->wait_next;
		if (w->wait_mode != WAIT_READ)
			continue;
		sim_waiters_remove(sim, &s->waiters, w);
		rwsem_grant(sim, s, w, sim_now(sim));
	}
}

static void rwsem_wait(struct sim *sim, struct sim_rwsem *s, enum sim_wait_mode mode)
{
	struct sim_task *t = sim->current;

	if (!t)
		SIM_BUG("rwsem %s would block in engine context", s->name);
	if (s->writer == t->id + 1)
		SIM_BUG("task %s takes rwsem %s recursively", t->name, s->name);
	s->stats.contended++;
	t->wait_mode = (uint8_t)mode;
	sim_waiters_append(sim, &s->waiters, t);
	sim_task_block(sim, BLOCK_LOCK);
}

void sim_down_read(struct sim *sim, struct sim_rwsem *s)
{
	sim_sync(sim);
	if (unlikely(sim->preempt == SIM_PREEMPT_VOLUNTARY))
		sim_might_resched(sim);	/* might_sleep() */
	/* rwsem_steal: a reader steals a lock no writer holds, unless it is
	 * reserved or, with others waiting, other readers hold it */
	if (!s->writer && (!s->waiters.head ||
			   (sim->rwsem_steal && !s->handoff && !s->readers))) {
		if (!s->readers)
			s->held_since = sim->now;
		s->readers++;
		s->stats.acquisitions++;
		return;
	}
	rwsem_wait(sim, s, WAIT_READ);
}

void sim_up_read(struct sim *sim, struct sim_rwsem *s)
{
	sim_sync(sim);
	if (!s->readers)
		SIM_BUG("up_read on rwsem %s without readers", s->name);
	if (--s->readers == 0) {
		s->stats.hold_ns += sim->now - s->held_since;
		rwsem_wake(sim, s);
	}
	rwsem_check(sim, s);
}

static void rwsem_take_write(struct sim *sim, struct sim_rwsem *s)
{
	s->writer = owner_ref(sim);
	s->held_since = sim->now;
	s->stats.acquisitions++;
}

/* RWSEM_WAIT_TIMEOUT: DIV_ROUND_UP(HZ, 250) jiffies */
static sim_time_t rwsem_wait_timeout(const struct sim *sim)
{
	uint64_t hz = SIM_NSEC_PER_SEC / sim->tick_ns;

	return (sim_time_t)((hz + 249) / 250) * sim->tick_ns;
}

/*
 * rwsem_down_write_slowpath with rwsem_steal: queue, sleep; woken, take
 * the lock if it is free (the hand-off granted it already if it was
 * reserved for this writer), else go back to the head and sleep again,
 * reserving the lock once the writer has waited RWSEM_WAIT_TIMEOUT.
 */
static void rwsem_wait_write_steal(struct sim *sim, struct sim_rwsem *s)
{
	struct sim_task *t = sim->current;
	uint32_t me = t->id + 1;

	t->lock_since = sim->now;
	rwsem_wait(sim, s, WAIT_EXCL);
	while (s->writer != me) {
		/* still the woken writer while it syncs: a release meanwhile
		 * wakes nobody else (it is the first waiter, as in rwsem.c) */
		SIM_ASSERT_INTERNAL(s->woken == me);
		sim_sync(sim);
		SIM_ASSERT_INTERNAL(s->woken == me);
		s->woken = 0;
		if (!s->writer && !s->readers && !s->handoff) {
			s->stats.wait_ns += sim->now - t->lock_since;
			rwsem_take_write(sim, s);
			return;
		}
		if (sim->now - t->lock_since >= rwsem_wait_timeout(sim))
			s->handoff = true;
		/* back to the head, where it was (rwsem.c never dequeues it) */
		t->wait_mode = WAIT_EXCL;
		sim_waiters_prepend(sim, &s->waiters, t);
		rwsem_check(sim, s);
		sim_task_block(sim, BLOCK_LOCK);
	}
}

void sim_down_write(struct sim *sim, struct sim_rwsem *s)
{
	sim_sync(sim);
	if (unlikely(sim->preempt == SIM_PREEMPT_VOLUNTARY))
		sim_might_resched(sim);	/* might_sleep() */
	if (!s->writer && !s->readers && (!s->waiters.head || (sim->rwsem_steal && !s->handoff))) {
		rwsem_take_write(sim, s);
		return;
	}
	if (sim->rwsem_steal && sim->current)
		rwsem_wait_write_steal(sim, s);
	else
		rwsem_wait(sim, s, WAIT_EXCL);
}

void sim_up_write(struct sim *sim, struct sim_rwsem *s)
{
	sim_sync(sim);
	if (s->writer != owner_ref(sim))
		SIM_BUG("up_write on rwsem %s by a non-owner", s->name);
	s->writer = 0;
	s->stats.hold_ns += sim->now - s->held_since;
	rwsem_wake(sim, s);
	rwsem_check(sim, s);
}
