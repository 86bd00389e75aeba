/* SPDX-License-Identifier: MIT */
/*
 * folio_lock.c — the set of locked folios and its wait queues (see
 * folio_lock.h for why the model keeps PG_locked outside struct page).
 *
 * Simplification: the lock is not fair (a woken waiter competes with
 * anyone who try-locks first), as PG_locked is not fair either except for
 * the kernel's hand-off after repeated wake-ups.
 */
#include <stdlib.h>

#include "mm/folio_lock.h"
#include "mm/internal.h"
#include "mm/pfnset.h"

#define FOLIO_WAIT_TABLE_BITS	8	/* PAGE_WAIT_TABLE_BITS */
#define FOLIO_WAIT_TABLE_SIZE	(1u << FOLIO_WAIT_TABLE_BITS)

struct folio_lock_table {
	struct pfn_set	locked;
	struct sim_waitq wait[FOLIO_WAIT_TABLE_SIZE];
};

static inline struct sim_waitq *folio_waitqueue(struct folio_lock_table *t, pfn_t pfn)
{
	return &t->wait[(uint32_t)(((uint64_t)pfn * 0x9e3779b97f4a7c15ULL) >> 56)];
}

void folio_lock_table_create(struct machine *m)
{
	struct folio_lock_table *t = calloc(1, sizeof(*t));

	if (!t)
		SIM_BUG("out of memory");
	pfn_set_init(&t->locked);
	for (unsigned int i = 0; i < FOLIO_WAIT_TABLE_SIZE; i++)
		sim_waitq_init(&t->wait[i], "folio_wait_table");
	m->folio_locks = t;
	m->footprint += sizeof(*t) + pfn_set_bytes(&t->locked);
}

/* Host bytes folio_lock_table_create() adds to the footprint. */
size_t folio_lock_table_bytes(void)
{
	struct pfn_set s;
	size_t n;

	pfn_set_init(&s);
	n = sizeof(struct folio_lock_table) + pfn_set_bytes(&s);
	pfn_set_release(&s);
	return n;
}

void folio_lock_table_destroy(struct machine *m)
{
	if (!m->folio_locks)
		return;
	pfn_set_release(&m->folio_locks->locked);
	free(m->folio_locks);
	m->folio_locks = NULL;
}

bool folio_test_locked(const struct machine *m, pfn_t pfn)
{
	return pfn_set_has(&m->folio_locks->locked, pfn);
}

bool folio_trylock(struct machine *m, pfn_t pfn)
{
	if (!pfn_set_add(&m->folio_locks->locked, pfn)) {
		sim_stat_inc(m, SIM_FOLIO_LOCK_CONTENDED);
		return false;
	}
	return true;
}

void folio_lock(struct machine *m, pfn_t pfn)
{
	while (!folio_trylock(m, pfn)) {
		if (!sim_current(m->sim))
			SIM_BUG("folio_lock(%u) in engine context: the folio is locked", pfn);
		sim_wait_io(m->sim, folio_waitqueue(m->folio_locks, pfn), SIM_TIME_NEVER);	/* io_schedule */
	}
}

void folio_unlock(struct machine *m, pfn_t pfn)
{
	struct sim_waitq *q;

	if (!pfn_set_del(&m->folio_locks->locked, pfn))
		SIM_BUG("folio_unlock(%u): the folio is not locked", pfn);
	q = folio_waitqueue(m->folio_locks, pfn);
	if (sim_waitq_active(q))
		sim_wake_all(m->sim, q);
}

unsigned long folio_nr_locked(const struct machine *m)
{
	return m->folio_locks->locked.nr;
}
