/* SPDX-License-Identifier: MIT */
/* Tests of hard interrupts (sim_irq_raise): a handler runs on top of the
 * CPU's owner and delays it by its whole duration; a resume that falls
 * inside the interrupt waits for its end; spinlocks hold interrupts off;
 * a handler may spin and wake tasks but not sleep.  Engine costs are zero
 * (st_sim_exact), so every time below is computed by hand. */
#include "harness.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC

struct irq_case {
	struct sim	*sim;
	struct st_log	log;
	uint64_t	handler_ns;	/* what the handler charges */
	uint64_t	owner_ns;	/* what the owner charges before logging */
	unsigned int	cpu;
	struct sim_spinlock lock;
	struct sim_waitq wq;
	bool		handler_locks;	/* the handler takes `lock` */
	bool		handler_wakes;	/* the handler wakes a sleeper on `wq` half way */
};

static void handler(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	if (!sim_in_irq(sim))
		st_log_add(&c->log, sim_now(sim), 'x');
	if (c->handler_locks)
		sim_spin_lock(sim, &c->lock);
	if (c->handler_wakes) {
		sim_charge(sim, c->handler_ns / 2);
		sim_wake_one(sim, &c->wq);
		sim_charge(sim, c->handler_ns - c->handler_ns / 2);
	} else {
		sim_charge(sim, c->handler_ns);
	}
	if (c->handler_locks)
		sim_spin_unlock(sim, &c->lock);
	sim_sync(sim);
	st_log_add(&c->log, sim_now(sim), 'i');
}

static void raise_cb(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	sim_irq_raise(sim, c->cpu, handler, c);
}

static void owner(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	sim_charge(sim, c->owner_ns);
	sim_sync(sim);
	st_log_add(&c->log, sim_now(sim), 'o');
}

static struct irq_case *irq_case_new(unsigned int ncpus)
{
	struct irq_case *c = calloc(1, sizeof(*c));

	c->sim = st_sim_exact(ncpus);
	sim_spin_init(c->sim, &c->lock, "test_lock");
	sim_waitq_init(&c->wq, "test_wq");
	return c;
}

static void irq_case_free(struct irq_case *c)
{
	sim_destroy(c->sim);
	free(c);
}

/* A test of an interrupt on a busy CPU: the owner charges 100 us from 0
 * (its resume falls at 100); an interrupt at 30 charges 10.  Expect the
 * handler to end at 40, the owner to finish at 110 (pushed back by the
 * whole interrupt), and CPU 0 to show one interrupt of 10 us. */
TEST(irq_delays_the_running_owner)
{
	struct irq_case *c = irq_case_new(1);
	struct sim_cpu_stats cs;

	c->owner_ns = 100 * US;
	c->handler_ns = 10 * US;
	st_task(c->sim, "owner", 0, true, owner, c, 0);
	sim_call_at(c->sim, 30 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 2);
	ASSERT_TRUE(c->log.tag[0] == 'i');
	ASSERT_U64_EQ(c->log.t[0], 40 * US);
	ASSERT_TRUE(c->log.tag[1] == 'o');
	ASSERT_U64_EQ(c->log.t[1], 110 * US);
	sim_cpu_stats(c->sim, 0, &cs);
	ASSERT_U64_EQ(cs.irqs, 1);
	ASSERT_U64_EQ(cs.irq_ns, 10 * US);
	ASSERT_U64_EQ(cs.busy_ns, 110 * US);
	irq_case_free(c);
}

/* A test of a resume inside the interrupt: the owner's resume falls at 20,
 * the interrupt runs 10..40.  Expect the owner's remaining 10 us (20 - 10)
 * to run after the interrupt: it finishes at 50. */
TEST(irq_defers_an_owner_resume_inside_it)
{
	struct irq_case *c = irq_case_new(1);

	c->owner_ns = 20 * US;
	c->handler_ns = 30 * US;
	st_task(c->sim, "owner", 0, true, owner, c, 0);
	sim_call_at(c->sim, 10 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 2);
	ASSERT_U64_EQ(c->log.t[0], 40 * US);
	ASSERT_TRUE(c->log.tag[1] == 'o');
	ASSERT_U64_EQ(c->log.t[1], 50 * US);
	irq_case_free(c);
}

static void sleeper(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	sim_wait(sim, &c->wq, SIM_TIME_NEVER);
	st_log_add(&c->log, sim_now(sim), 's');
}

/* A test of an interrupt on an idle CPU that wakes a task: the only CPU is
 * idle, the interrupt runs 10..30 and wakes a sleeper at 20.  Expect the
 * sleeper, put on the CPU at 20, to start when the interrupt ends (30),
 * and no owner to be delayed afterwards. */
TEST(irq_on_an_idle_cpu_holds_back_a_woken_task)
{
	struct irq_case *c = irq_case_new(1);

	c->handler_ns = 20 * US;
	c->handler_wakes = true;
	st_task(c->sim, "sleeper", 0, true, sleeper, c, 0);
	sim_call_at(c->sim, 10 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 2);
	ASSERT_TRUE(c->log.tag[0] == 'i');
	ASSERT_U64_EQ(c->log.t[0], 30 * US);
	ASSERT_TRUE(c->log.tag[1] == 's');
	ASSERT_U64_EQ(c->log.t[1], 30 * US);
	irq_case_free(c);
}

static void lock_holder(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	sim_spin_lock(sim, &c->lock);
	sim_charge(sim, 50 * US);
	sim_spin_unlock(sim, &c->lock);
	sim_charge(sim, 10 * US);
	sim_sync(sim);
	st_log_add(&c->log, sim_now(sim), 'o');
}

/* A test of an interrupt held off by a spinlock: the owner holds a lock
 * 0..50, then charges 10; an interrupt of 10 us is raised at 20.  Expect
 * it to run at the release, 50..60, and the owner to finish at 70. */
TEST(irq_held_off_while_the_owner_holds_a_spinlock)
{
	struct irq_case *c = irq_case_new(1);

	c->handler_ns = 10 * US;
	st_task(c->sim, "owner", 0, true, lock_holder, c, 0);
	sim_call_at(c->sim, 20 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 2);
	ASSERT_TRUE(c->log.tag[0] == 'i');
	ASSERT_U64_EQ(c->log.t[0], 60 * US);
	ASSERT_TRUE(c->log.tag[1] == 'o');
	ASSERT_U64_EQ(c->log.t[1], 70 * US);
	irq_case_free(c);
}

/* A test of a handler that spins: a task on CPU 1 holds the lock 0..50
 * (the lock_holder program, which then charges 10 more); CPU 0's owner
 * charges 100; an interrupt on CPU 0 at 10 takes the lock (spins until
 * 50) and charges 5.  Expect the handler to end at 55 and CPU 0's owner,
 * delayed by the interrupt's 45 us, to finish at 145. */
TEST(irq_handler_spins_on_a_lock_held_elsewhere)
{
	struct irq_case *c = irq_case_new(2);
	struct sim_cpu_stats cs;

	c->owner_ns = 100 * US;
	c->handler_ns = 5 * US;
	c->handler_locks = true;
	st_task(c->sim, "owner", 0, true, owner, c, 0);
	st_task(c->sim, "holder", 1, true, lock_holder, c, 0);
	sim_call_at(c->sim, 10 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	/* holder: lock 0..50, logs at 60; handler: spins 10..50, ends at 55 */
	ASSERT_U64_EQ(c->log.n, 3);
	ASSERT_TRUE(c->log.tag[0] == 'i');
	ASSERT_U64_EQ(c->log.t[0], 55 * US);
	ASSERT_TRUE(c->log.tag[1] == 'o');
	ASSERT_U64_EQ(c->log.t[1], 60 * US);
	ASSERT_TRUE(c->log.tag[2] == 'o');
	ASSERT_U64_EQ(c->log.t[2], 145 * US);
	sim_cpu_stats(c->sim, 0, &cs);
	ASSERT_U64_EQ(cs.irq_ns, 45 * US);
	ASSERT_U64_EQ(cs.spin_ns, 40 * US);
	irq_case_free(c);
}

static void spinner(struct sim *sim, void *p)
{
	struct irq_case *c = p;

	sim_charge(sim, 5 * US);
	sim_spin_lock(sim, &c->lock);
	sim_charge(sim, 20 * US);
	sim_spin_unlock(sim, &c->lock);
	sim_sync(sim);
	st_log_add(&c->log, sim_now(sim), 'p');
}

/* A test of an interrupt on a CPU whose owner spins: CPU 1's holder keeps
 * the lock 0..50 (and logs at 60); CPU 0's owner spins for it from 5,
 * gets it at 50 and holds it 20 us; an interrupt on CPU 0 at 10 takes the
 * same lock for 5 us.  The kernel spins with interrupts off
 * (spin_lock_irqsave, as the model treats every spinlock), so expect the
 * interrupt to be held off until the owner's release at 70 and to end at
 * 75, and the owner to go on after it, at 75.  Letting the interrupt in
 * while the owner spins puts the handler behind the owner in the lock's
 * queue while the owner waits for the handler to end: neither runs again
 * (the full-scale freeze with completion=irq). */
TEST(irq_held_off_while_the_owner_spins_for_a_spinlock)
{
	struct irq_case *c = irq_case_new(2);
	struct sim_cpu_stats cs;

	c->handler_ns = 5 * US;
	c->handler_locks = true;
	st_task(c->sim, "spinner", 0, true, spinner, c, 0);
	st_task(c->sim, "holder", 1, true, lock_holder, c, 0);
	sim_call_at(c->sim, 10 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 3);
	ASSERT_TRUE(c->log.tag[0] == 'o');
	ASSERT_U64_EQ(c->log.t[0], 60 * US);
	ASSERT_TRUE(c->log.tag[1] == 'i');
	ASSERT_U64_EQ(c->log.t[1], 75 * US);
	ASSERT_TRUE(c->log.tag[2] == 'p');
	ASSERT_U64_EQ(c->log.t[2], 75 * US);
	sim_cpu_stats(c->sim, 0, &cs);
	ASSERT_U64_EQ(cs.irqs, 1);
	ASSERT_U64_EQ(cs.irq_ns, 5 * US);
	ASSERT_U64_EQ(cs.spin_ns, 45 * US);
	irq_case_free(c);
}

/* A test of raises that arrive while the context runs: two raises at 10
 * and 12, 5 us each.  Expect one interrupt entry handling both in order
 * (ends 15 and 20) and the owner (100 us from 0) to finish at 110. */
TEST(irq_raises_during_an_interrupt_share_its_entry)
{
	struct irq_case *c = irq_case_new(1);
	struct sim_cpu_stats cs;

	c->owner_ns = 100 * US;
	c->handler_ns = 5 * US;
	st_task(c->sim, "owner", 0, true, owner, c, 0);
	sim_call_at(c->sim, 10 * US, raise_cb, c);
	sim_call_at(c->sim, 12 * US, raise_cb, c);
	sim_run(c->sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(c->log.n, 3);
	ASSERT_U64_EQ(c->log.t[0], 15 * US);
	ASSERT_U64_EQ(c->log.t[1], 20 * US);
	ASSERT_U64_EQ(c->log.t[2], 110 * US);
	sim_cpu_stats(c->sim, 0, &cs);
	ASSERT_U64_EQ(cs.irqs, 1);
	ASSERT_U64_EQ(cs.irq_ns, 10 * US);
	irq_case_free(c);
}

static void sleeping_handler(struct sim *sim, void *p)
{
	(void)p;
	sim_sleep(sim, 10);
}

static void raise_sleeper(struct sim *sim, void *p)
{
	(void)p;
	sim_irq_raise(sim, 0, sleeping_handler, NULL);
}

static void irq_sleeps(void *p)
{
	struct sim *sim = p;

	sim_call_at(sim, 0, raise_sleeper, NULL);
	sim_run(sim, SIM_TIME_NEVER);
}

static void raiser_task(struct sim *sim, void *p)
{
	(void)p;
	sim_irq_raise(sim, 0, sleeping_handler, NULL);
}

static void irq_from_task(void *p)
{
	struct sim *sim = p;

	st_task(sim, "raiser", 0, false, raiser_task, NULL, 0);
	sim_run(sim, SIM_TIME_NEVER);
}

/* A test that interrupt context may not sleep and that only engine
 * context raises interrupts.  Expect SIM_BUG (abort) in both. */
TEST(irq_forbidden_uses_are_bugs)
{
	struct sim *sim = st_sim_exact(1);

	ASSERT_TRUE(st_dies(irq_sleeps, sim));
	ASSERT_TRUE(st_dies(irq_from_task, sim));
	sim_destroy(sim);
}
