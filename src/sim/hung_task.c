/* SPDX-License-Identifier: MIT */
/*
 * hung_task.c — the hung-task detector: khungtaskd's
 * check_hung_uninterruptible_tasks() and check_hung_task()
 * (kernel/hung_task.c, Linux 6.12).
 *
 * Modelled: every task in TASK_UNINTERRUPTIBLE sleep — in the model, one
 * blocked on block I/O or an io_schedule wait (folio lock, writeback,
 * request tags: BLOCK_IO) or on a mutex or rw-semaphore (BLOCK_LOCK) — is
 * looked at in id order.  As check_hung_task does with nvcsw + nivcsw, a
 * task whose switch count (times put on a CPU) differs from the one the
 * last check saw has the count and the time recorded and is left alone; a
 * task that never ran is skipped; one whose count is unchanged since a
 * check at least `timeout` ago is reported, and again at every later check
 * while it stays so (the kernel's hung_task_warnings limit is the
 * caller's).
 * Simplified: the caller decides when checks happen (the run loop checks
 * between its sample steps), so khungtaskd costs no CPU and a check
 * changes no result.  Sleeps on plain wait queues (sim_wait) count as
 * interruptible — PostgreSQL's semaphores and latches, kswapd's and the
 * flusher's idle waits are — although a few kernel sites that use them
 * sleep uninterruptibly (reclaim_throttle), so a task stuck there is not
 * reported.
 *
 * The hard-lockup detector (watchdog_hardlockup_check, kernel/watchdog.c):
 * the kernel's NMI watchdog reports a CPU whose timer interrupts have not
 * run for watchdog_thresh seconds, once until the CPU recovers.  The model
 * takes every spinlock with interrupts off, so such a CPU is one whose
 * interrupt context, or whose owner, has spun on a kernel spinlock that
 * long.  A user-space spinner (s_lock) takes interrupts and is not one.
 */
#include "sim/internal.h"

unsigned int sim_check_hung_tasks(struct sim *sim, sim_time_t timeout, sim_hung_task_fn fn,
				  void *ctx)
{
	unsigned int found = 0;

	if (sim->running)
		SIM_BUG("sim_check_hung_tasks called from inside the simulation");
	for (uint32_t i = 0; i < sim->nr_tasks; i++) {
		struct sim_task *t = sim->tasks[i];
		struct sim_hung_task h;

		if (!t || t->state != TASK_BLOCKED || t->block_kind == BLOCK_SLEEP)
			continue;	/* an interrupt context between entries is BLOCK_SLEEP */
		if (!t->stats.switches)
			continue;
		if (t->stats.switches != t->last_switch_count) {
			t->last_switch_count = t->stats.switches;
			t->last_switch_time = sim->now;
			continue;
		}
		if (sim->now - t->last_switch_time < timeout)
			continue;
		h.comm = t->name;
		h.pid = t->id;
		h.blocked_ns = sim->now - t->last_switch_time;
		h.path = t->top;
		h.cpu = t->cpu;
		found++;
		if (fn)
			fn(ctx, &h);
	}
	return found;
}

/* The task spinning with interrupts off on CPU `c`, if any: its interrupt
 * context, else its owner spinning on a kernel spinlock. */
static const struct sim_task *cpu_spinner(const struct sim *sim, unsigned int c)
{
	const struct sim_cpu *cpu = &sim->cpus[c];

	if (cpu->irq_active && cpu->irq_task->spinning)
		return cpu->irq_task;
	if (cpu->curr && task_spins_irqs_off(cpu->curr))
		return cpu->curr;
	return NULL;
}

unsigned int sim_check_hard_lockups(struct sim *sim, sim_time_t thresh, sim_hung_task_fn fn,
				    void *ctx)
{
	unsigned int found = 0;

	if (sim->running)
		SIM_BUG("sim_check_hard_lockups called from inside the simulation");
	for (unsigned int c = 0; c < sim->ncpus; c++) {
		struct sim_cpu *cpu = &sim->cpus[c];
		const struct sim_task *t = cpu_spinner(sim, c);
		struct sim_hung_task h;

		if (!t || sim->now - t->mark < thresh)
			continue;
		if (cpu->lockup_task == t && cpu->lockup_since == t->mark)
			continue;	/* watchdog_hardlockup_warned */
		cpu->lockup_task = t;
		cpu->lockup_since = t->mark;
		h.comm = t->name;
		h.pid = t->id;
		h.blocked_ns = sim->now - t->mark;
		h.path = t->top;
		h.cpu = c;
		found++;
		if (fn)
			fn(ctx, &h);
	}
	return found;
}
