/* SPDX-License-Identifier: MIT */
/*
 * stub.c — TEMPORARY engine-context-only implementation of sim.h so the
 * mm/ model can be built and unit-tested before the engine lands.  Only
 * engine context exists here: charges accumulate in engine_ns, locks never
 * contend, tasks cannot be created.  The engine (issue 3) replaces this
 * file entirely; delete it then.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

struct sim {
	unsigned int ncpus;
	unsigned int engine_cpu;
	uint64_t seed;
	uint64_t engine_ns;
	sim_time_t now;
	struct cost_table costs;
};

struct sim *sim_create(const struct sim_config *cfg)
{
	struct sim *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->ncpus = cfg->ncpus ? cfg->ncpus : 1;
	s->seed = cfg->seed;
	if (cfg->costs)
		s->costs = *cfg->costs;
	else
		cost_table_init(&s->costs);
	return s;
}

void sim_destroy(struct sim *sim) { free(sim); }
uint64_t sim_run(struct sim *sim, sim_time_t until) { (void)sim; (void)until; return 0; }
void sim_stop(struct sim *sim) { (void)sim; }
sim_time_t sim_now(const struct sim *sim) { return sim->now; }
uint64_t sim_events(const struct sim *sim) { (void)sim; return 0; }
unsigned int sim_ncpus(const struct sim *sim) { return sim->ncpus; }
const struct cost_table *sim_costs(const struct sim *sim) { return &sim->costs; }
uint64_t sim_seed(const struct sim *sim) { return sim->seed; }
struct sim_task *sim_current(const struct sim *sim) { (void)sim; return NULL; }
unsigned int sim_cpu(const struct sim *sim) { return sim->engine_cpu; }
void sim_set_engine_cpu(struct sim *sim, unsigned int cpu) { sim->engine_cpu = cpu; }
void sim_charge(struct sim *sim, uint64_t ns) { sim->engine_ns += ns; }
void sim_charge_cost(struct sim *sim, enum cost_id id, uint64_t n)
{
	sim->engine_ns += cost_ns(&sim->costs, id, n);
}
void sim_sync(struct sim *sim) { (void)sim; }
void sim_cond_resched(struct sim *sim) { (void)sim; }
uint64_t sim_engine_ns(const struct sim *sim) { return sim->engine_ns; }

void sim_spin_init(struct sim *sim, struct sim_spinlock *l, const char *name)
{
	(void)sim;
	memset(l, 0, sizeof(*l));
	l->name = name;
}
void sim_spin_lock(struct sim *sim, struct sim_spinlock *l)
{
	(void)sim;
	if (l->owner)
		SIM_BUG("spinlock %s would block in engine context", l->name);
	l->owner = 1;
	l->stats.acquisitions++;
}
bool sim_spin_trylock(struct sim *sim, struct sim_spinlock *l)
{
	(void)sim;
	if (l->owner) {
		l->stats.trylock_fail++;
		return false;
	}
	l->owner = 1;
	l->stats.acquisitions++;
	return true;
}
void sim_spin_unlock(struct sim *sim, struct sim_spinlock *l) { (void)sim; l->owner = 0; }
bool sim_spin_is_locked(const struct sim_spinlock *l) { return l->owner != 0; }

void sim_mutex_init(struct sim *sim, struct sim_mutex *m, const char *name)
{
	(void)sim;
	memset(m, 0, sizeof(*m));
	m->name = name;
}
void sim_mutex_lock(struct sim *sim, struct sim_mutex *m)
{
	(void)sim;
	if (m->owner)
		SIM_BUG("mutex %s would block in engine context", m->name);
	m->owner = 1;
	m->stats.acquisitions++;
}
bool sim_mutex_trylock(struct sim *sim, struct sim_mutex *m)
{
	(void)sim;
	if (m->owner) {
		m->stats.trylock_fail++;
		return false;
	}
	m->owner = 1;
	m->stats.acquisitions++;
	return true;
}
void sim_mutex_unlock(struct sim *sim, struct sim_mutex *m) { (void)sim; m->owner = 0; }
bool sim_mutex_is_locked(const struct sim_mutex *m) { return m->owner != 0; }

void sim_path_push(struct sim *sim, const char *name) { (void)sim; (void)name; }
void sim_path_pop(struct sim *sim) { (void)sim; }
