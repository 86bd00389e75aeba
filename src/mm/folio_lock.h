/* SPDX-License-Identifier: MIT */
/*
 * folio_lock.h — PG_locked for the model (include/linux/pagemap.h:
 * folio_lock, folio_trylock, folio_unlock; mm/filemap.c: the hashed folio
 * wait table; Linux 6.12).
 *
 * The kernel keeps PG_locked in folio->flags and sleeps on one of 256
 * hashed wait queues.  struct page in the model has no spare flag bit
 * (types.h), so the locked folios are kept in a small open-addressing hash
 * set of head pfns owned by the machine; it holds only the folios locked
 * right now (a handful per running task), so lookups are O(1) and the set
 * stays tiny.  Waiters sleep on one of 256 wait queues chosen by a hash of
 * the pfn and recheck on every wake-up, as folio_wait_bit_common() does.
 *
 * Who uses it: a task that keeps a folio's pfn across a sync point (a lock
 * operation, I/O, a sleep) must hold the folio lock, as the kernel's
 * write_begin/write_end and read paths do (__filemap_get_folio locks a new
 * folio while it inserts it); reclaim (shrink_folio_list) and migration
 * (migrate_pages) try-lock every folio and leave locked ones alone, which
 * is also how the kernel keeps them from freeing or moving a folio someone
 * is using.  Neither ever sleeps on a folio lock, so a holder that unlocks
 * wakes nobody and its unlock is no sync point.
 */
#ifndef SLOWPATH_MM_FOLIO_LOCK_H
#define SLOWPATH_MM_FOLIO_LOCK_H

#include <stddef.h>
#include <stdbool.h>

#include "mm/types.h"

struct machine;

/* folio_trylock(): lock if unlocked; false (and nothing changed) if held. */
bool folio_trylock(struct machine *m, pfn_t pfn);
/* folio_lock(): sleep until the folio is unlocked, then lock it.  Task
 * context only (engine context: a held lock is a bug). */
void folio_lock(struct machine *m, pfn_t pfn);
/* folio_unlock(): the lock must be held; wakes the folio's waiters. */
void folio_unlock(struct machine *m, pfn_t pfn);
bool folio_test_locked(const struct machine *m, pfn_t pfn);
/* Number of folios locked right now (tests, mm_check). */
unsigned long folio_nr_locked(const struct machine *m);

void folio_lock_table_create(struct machine *m);
void folio_lock_table_destroy(struct machine *m);
/* Host bytes the table adds to machine_footprint(). */
size_t folio_lock_table_bytes(void);

#endif
