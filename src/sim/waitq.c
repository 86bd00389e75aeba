/* SPDX-License-Identifier: MIT */
/*
 * waitq.c — FIFO waiter lists (shared by locks and wait queues) and wait
 * queues with an optional timeout.
 *
 * A waiter list is a doubly linked FIFO threaded through the tasks
 * themselves by id (struct sim_waiter_list holds head/tail as id + 1), so
 * a lock or wait queue costs 8 bytes of list head and waiting allocates
 * nothing.  A task waits on at most one list at a time.
 *
 * Wait queues model the kernel's wait_event / wake_up pair: sim_wait()
 * syncs, appends the task and sleeps (its CPU is released); sim_wake_one()
 * wakes the longest waiter, sim_wake_all() every waiter in FIFO order.  A
 * timeout is a timer event; waking the task first makes that event stale
 * (task.c checks its seq), and a firing timeout unlinks the task and makes
 * sim_wait() return false.  Exclusive vs non-exclusive waiters are not
 * distinguished: the caller picks wake_one or wake_all.
 */
#include "sim/internal.h"

void sim_waiters_append(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t)
{
	uint32_t ref = t->id + 1;

	t->wait_next = 0;
	t->wait_prev = l->tail;
	if (l->tail)
		sim_task_by_ref(sim, l->tail)->wait_next = ref;
	else
		l->head = ref;
	l->tail = ref;
}

void sim_waiters_prepend(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t)
{
	uint32_t ref = t->id + 1;

	t->wait_prev = 0;
	t->wait_next = l->head;
	if (l->head)
		sim_task_by_ref(sim, l->head)->wait_prev = ref;
	else
		l->tail = ref;
	l->head = ref;
}

void sim_waiters_remove(struct sim *sim, struct sim_waiter_list *l, struct sim_task *t)
{
	if (t->wait_prev)
		sim_task_by_ref(sim, t->wait_prev)->wait_next = t->wait_next;
	else
		l->head = t->wait_next;
	if (t->wait_next)
		sim_task_by_ref(sim, t->wait_next)->wait_prev = t->wait_prev;
	else
		l->tail = t->wait_prev;
	t->wait_next = t->wait_prev = 0;
}

struct sim_task *sim_waiters_pop(struct sim *sim, struct sim_waiter_list *l)
{
	struct sim_task *t;

	if (!l->head)
		return NULL;
	t = sim_task_by_ref(sim, l->head);
	sim_waiters_remove(sim, l, t);
	return t;
}

void sim_waitq_init(struct sim_waitq *q, const char *name)
{
	q->name = name;
	q->waiters.head = q->waiters.tail = 0;
}

static bool wait_as(struct sim *sim, struct sim_waitq *q, sim_time_t timeout_ns,
		    enum sim_block_kind kind)
{
	struct sim_task *t = sim->current;

	if (!t)
		SIM_BUG("sim_wait on %s in engine context", q->name ? q->name : "waitq");
	/* Callers test their condition, then wait: under the preemption models
	 * a preemption here would let the wake-up come before the task is on
	 * the queue and be lost (the kernel queues first, prepare_to_wait, and
	 * tests after).  The model's original scheduler never preempts here:
	 * callers sync before testing, so the slice check already ran. */
	if (sim->preempt != SIM_PREEMPT_SLICE)
		sim_sync_nopreempt(sim);
	else
		sim_sync(sim);
	t->woken = true;
	t->wait_mode = WAIT_EXCL;
	t->waitq = q;
	sim_waiters_append(sim, &q->waiters, t);
	if (timeout_ns != SIM_TIME_NEVER) {
		sim_time_t when = sim->now + timeout_ns;

		if (when < sim->now)
			when = SIM_TIME_NEVER - 1;
		t->timer_seq = sim_evq_push(&sim->evq, when, sim_task_timer_event, t);
	}
	sim_task_block(sim, kind);
	return t->woken;
}

bool sim_wait(struct sim *sim, struct sim_waitq *q, sim_time_t timeout_ns)
{
	return wait_as(sim, q, timeout_ns, BLOCK_SLEEP);
}

bool sim_wait_io(struct sim *sim, struct sim_waitq *q, sim_time_t timeout_ns)
{
	return wait_as(sim, q, timeout_ns, BLOCK_IO);
}

static bool wake_first(struct sim *sim, struct sim_waitq *q)
{
	struct sim_task *t = sim_waiters_pop(sim, &q->waiters);

	if (!t)
		return false;
	t->woken = true;
	sim_task_wake(sim, t, sim_now(sim));	/* after the waker's earlier wake-up costs */
	return true;
}

unsigned int sim_wake_one(struct sim *sim, struct sim_waitq *q)
{
	if (!q->waiters.head)
		return 0;
	sim_sync(sim);		/* the wake happens at the waker's local time */
	return wake_first(sim, q) ? 1 : 0;
}

unsigned int sim_wake_all(struct sim *sim, struct sim_waitq *q)
{
	unsigned int n = 0;

	if (!q->waiters.head)
		return 0;
	sim_sync(sim);
	while (wake_first(sim, q))
		n++;
	return n;
}

bool sim_waitq_active(const struct sim_waitq *q)
{
	return q->waiters.head != 0;
}
