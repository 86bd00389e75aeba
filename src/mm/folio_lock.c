/* SPDX-License-Identifier: MIT */
/*
 * folio_lock.c — the set of locked folios and its wait queues (see
 * folio_lock.h for why the model keeps PG_locked outside struct page).
 *
 * Set: open addressing, linear probing, capacity a power of two kept at
 * least twice the number of entries; deletion shifts the following
 * entries of the probe run back (no tombstones), so a lookup stops at the
 * first empty slot.  Nothing iterates the set, so its order never reaches
 * any output.
 *
 * Simplifications: the lock is not fair (a woken waiter competes with
 * anyone who try-locks first), as PG_locked is not fair either except for
 * the kernel's hand-off after repeated wake-ups.
 */
#include <stdlib.h>

#include "mm/folio_lock.h"
#include "mm/internal.h"

#define FOLIO_WAIT_TABLE_BITS	8	/* PAGE_WAIT_TABLE_BITS */
#define FOLIO_WAIT_TABLE_SIZE	(1u << FOLIO_WAIT_TABLE_BITS)

struct folio_lock_table {
	pfn_t		*slots;		/* [cap], PFN_NONE = empty */
	uint32_t	cap;		/* power of two */
	uint32_t	nr;
	struct sim_waitq wait[FOLIO_WAIT_TABLE_SIZE];
};

static inline uint32_t pfn_hash(pfn_t pfn)
{
	return (uint32_t)(((uint64_t)pfn * 0x9e3779b97f4a7c15ULL) >> 32);
}

void folio_lock_table_create(struct machine *m)
{
	struct folio_lock_table *t = calloc(1, sizeof(*t));

	if (!t)
		SIM_BUG("out of memory");
	t->cap = 64;
	t->slots = malloc(t->cap * sizeof(pfn_t));
	if (!t->slots)
		SIM_BUG("out of memory");
	for (uint32_t i = 0; i < t->cap; i++)
		t->slots[i] = PFN_NONE;
	for (unsigned int i = 0; i < FOLIO_WAIT_TABLE_SIZE; i++)
		sim_waitq_init(&t->wait[i], "folio_wait_table");
	m->folio_locks = t;
	m->footprint += sizeof(*t) + t->cap * sizeof(pfn_t);
}

void folio_lock_table_destroy(struct machine *m)
{
	if (!m->folio_locks)
		return;
	free(m->folio_locks->slots);
	free(m->folio_locks);
	m->folio_locks = NULL;
}

static uint32_t find_slot(const struct folio_lock_table *t, pfn_t pfn)
{
	uint32_t mask = t->cap - 1, i = pfn_hash(pfn) & mask;

	while (t->slots[i] != PFN_NONE && t->slots[i] != pfn)
		i = (i + 1) & mask;
	return i;
}

static void grow(struct folio_lock_table *t)
{
	pfn_t *old = t->slots;
	uint32_t old_cap = t->cap;

	t->cap *= 2;
	t->slots = malloc(t->cap * sizeof(pfn_t));
	if (!t->slots)
		SIM_BUG("out of memory");
	for (uint32_t i = 0; i < t->cap; i++)
		t->slots[i] = PFN_NONE;
	for (uint32_t i = 0; i < old_cap; i++)
		if (old[i] != PFN_NONE)
			t->slots[find_slot(t, old[i])] = old[i];
	free(old);
}

bool folio_test_locked(const struct machine *m, pfn_t pfn)
{
	const struct folio_lock_table *t = m->folio_locks;

	return t->nr && t->slots[find_slot(t, pfn)] == pfn;
}

bool folio_trylock(struct machine *m, pfn_t pfn)
{
	struct folio_lock_table *t = m->folio_locks;
	uint32_t i;

	if ((t->nr + 1) * 2 > t->cap)
		grow(t);
	i = find_slot(t, pfn);
	if (t->slots[i] == pfn) {
		sim_stat_inc(m, SIM_FOLIO_LOCK_CONTENDED);
		return false;
	}
	t->slots[i] = pfn;
	t->nr++;
	return true;
}

void folio_lock(struct machine *m, pfn_t pfn)
{
	struct folio_lock_table *t = m->folio_locks;

	while (!folio_trylock(m, pfn)) {
		if (!sim_current(m->sim))
			SIM_BUG("folio_lock(%u) in engine context: the folio is locked", pfn);
		sim_wait(m->sim, &t->wait[pfn_hash(pfn) & (FOLIO_WAIT_TABLE_SIZE - 1)], SIM_TIME_NEVER);
	}
}

void folio_unlock(struct machine *m, pfn_t pfn)
{
	struct folio_lock_table *t = m->folio_locks;
	uint32_t mask = t->cap - 1, i = find_slot(t, pfn), j;
	struct sim_waitq *q;

	if (t->slots[i] != pfn)
		SIM_BUG("folio_unlock(%u): the folio is not locked", pfn);
	/* backward-shift deletion */
	t->slots[i] = PFN_NONE;
	t->nr--;
	for (j = (i + 1) & mask; t->slots[j] != PFN_NONE; j = (j + 1) & mask) {
		uint32_t home = pfn_hash(t->slots[j]) & mask;

		/* move slots[j] into the hole at i if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			t->slots[i] = t->slots[j];
			t->slots[j] = PFN_NONE;
			i = j;
		}
	}
	q = &t->wait[pfn_hash(pfn) & (FOLIO_WAIT_TABLE_SIZE - 1)];
	if (sim_waitq_active(q))
		sim_wake_all(m->sim, q);
}

unsigned long folio_nr_locked(const struct machine *m)
{
	return m->folio_locks->nr;
}
