/* SPDX-License-Identifier: MIT */
/*
 * pg_heap.c — where a row's new version goes, and what that costs:
 * pgbench_accounts' UPDATE as PostgreSQL 15-17 does it (heapam.c
 * heap_update, pruneheap.c heap_page_prune_opt, hio.c
 * RelationGetBufferForTuple and RelationAddBlocks, freespace.c's FSM),
 * and the relation extension pgbench_history's INSERT shares with it.
 *
 * Each accounts heap page keeps its free space (pd_upper - pd_lower) and
 * its dead versions not yet pruned.  An UPDATE whose new version fits on
 * the old page is HOT (no index change); one that does not goes to
 * another page — the backend's target block, else a page from the free
 * space map, else a new block at the relation's end — and inserts a new
 * entry into pgbench_accounts_pkey.  A heap fetch prunes the page first
 * when it has dead versions and less than minfree free: HOT versions give
 * back their tuple and line pointer, a non-HOT one its tuple only (the
 * line pointer stays LP_DEAD until VACUUM).  Every change writes its WAL
 * record, with a full-page image at the page's first change after the
 * REDO point.  At pgbench's default fillfactor 100 a freshly loaded page
 * has 116 bytes free, less than a 128-byte version needs, so its first
 * UPDATE is non-HOT and the relation grows; at fillfactor 90 every UPDATE
 * is HOT and only the pruning shows.
 *
 * Simplified:
 * - a version is prunable at the next fetch by any other transaction (the
 *   xmin horizon is taken to have passed it: the pages are revisited
 *   seconds apart, transactions last milliseconds); the updater's own
 *   SELECT does not prune its page;
 * - pruning always gets its cleanup lock;
 * - an unused line pointer counts as 4 bytes of free space, and a row's
 *   root line pointer that a first HOT update turns into a redirect is
 *   counted as freed too (PostgreSQL keeps it: after some 27 different
 *   rows' HOT updates on one page at fillfactor 100 its next update would
 *   not fit);
 * - the index scans do not follow the dead versions' index entries, the
 *   btree never splits (deduplication and bottom-up deletion, PostgreSQL
 *   13 and 14, keep version churn from splitting leaves), VACUUM does not
 *   run, and the FSM holds only the blocks a bulk extension added.
 */
#include <stdlib.h>
#include <string.h>

#include "workload/pg_internal.h"

#define PG_TUPLE_SPACE		(PG_ACCOUNTS_TUPLE + PG_LINE_POINTER)

/* ---- the free space map's extended blocks, relation extension ---------------------- */

void pg_fsm_push(struct pg_heap_tail *t, uint32_t blk)
{
	if (t->fsm_tail - t->fsm_head == t->fsm_cap) {
		uint32_t cap = t->fsm_cap ? t->fsm_cap * 2 : 256;
		uint32_t *v = malloc(cap * sizeof(*v));

		if (!v)
			SIM_BUG("out of memory for a free space map");
		for (uint32_t i = t->fsm_head; i != t->fsm_tail; i++)
			v[i - t->fsm_head] = t->fsm[i % t->fsm_cap];
		t->fsm_tail -= t->fsm_head;
		t->fsm_head = 0;
		free(t->fsm);
		t->fsm = v;
		t->fsm_cap = cap;
	}
	t->fsm[t->fsm_tail++ % t->fsm_cap] = blk;
}

bool pg_fsm_pop(struct pg_heap_tail *t, uint32_t *blk)
{
	if (t->fsm_head == t->fsm_tail)
		return false;
	*blk = t->fsm[t->fsm_head++ % t->fsm_cap];	/* GetPageWithFreeSpace */
	return true;
}

/*
 * RelationAddBlocks() (hio.c, PostgreSQL 16+): extend relation `r` by
 * 1 + (backends waiting for the extension lock), at most 64 blocks; the
 * victim buffers are found before the lock is taken; the first block is
 * this backend's new target (returned pinned, its global id in *blkp),
 * the others go to the FSM.
 */
uint32_t pg_relation_add_blocks(struct pg_proc *p, enum pg_rel r, uint32_t *blkp)
{
	struct pg *pg = p->pg;
	struct pg_relation *rel = &pg->rel[r];
	struct pg_heap_tail *t = &pg->tail[r];
	uint32_t n = 1 + t->ext_waiters, bufs[PG_MAX_EXTEND], first;

	if (n > PG_MAX_EXTEND)
		n = PG_MAX_EXTEND;
	sim_path_push(pg->sim, "RelationAddBlocks");
	for (uint32_t i = 0; i < n; i++)
		bufs[i] = pg_get_victim_buffer(p);
	t->ext_waiters++;
	pgstat_report_wait_start(p, PG_WAIT_LOCK_EXTEND);	/* a heavyweight lock's ProcSleep */
	sim_mutex_lock(pg->sim, &t->ext_lock);			/* LockRelationForExtension */
	pgstat_report_wait_end(p);
	t->ext_waiters--;
	first = rel->first + rel->nblocks;
	if (n > rel->max_blocks - rel->nblocks)
		SIM_BUG("%s outgrew the %u blocks reserved for it", rel->name, rel->max_blocks);
	pg_mdzeroextend(p, r, n);
	for (uint32_t i = 0; i < n; i++)
		pg_assign_new_buffer(p, bufs[i], first + i);
	sim_mutex_unlock(pg->sim, &t->ext_lock);
	for (uint32_t i = 1; i < n; i++) {
		pg_release_buffer(p, bufs[i]);
		pg_fsm_push(t, first + i);
	}
	t->extends++;
	t->extend_blocks += n;
	sim_path_pop(pg->sim);
	*blkp = first;
	return bufs[0];
}

/* ---- where a row's newest version is --------------------------------------------- */

static uint32_t moved_slot(const struct pg *pg, uint64_t row)
{
	return (uint32_t)((row + 1) * 0x9E3779B97F4A7C15ULL >> 32) & pg->moved_mask;
}

uint32_t pg_heap_block(const struct pg *pg, uint64_t row)
{
	if (pg->moved_rows)
		for (uint32_t i = moved_slot(pg, row);; i = (i + 1) & pg->moved_mask) {
			if (pg->moved_key[i] == row + 1)
				return pg->moved_blk[i];
			if (!pg->moved_key[i])
				break;
		}
	return (uint32_t)(row / pg->rows_per_page);
}

static void heap_row_moved(struct pg *pg, uint64_t row, uint32_t blk)
{
	uint32_t i = moved_slot(pg, row);

	while (pg->moved_key[i] && pg->moved_key[i] != row + 1)
		i = (i + 1) & pg->moved_mask;
	if (!pg->moved_key[i]) {
		if (++pg->moved_rows > pg->moved_mask / 2)
			SIM_BUG("more moved pgbench_accounts rows than the %u reserved", pg->moved_mask / 2);
		pg->moved_key[i] = row + 1;
	}
	pg->moved_blk[i] = blk;
}

/* ---- pruning ----------------------------------------------------------------------- */

static uint32_t heap_fpi_bytes(const struct pg_heap_page *h)
{
	return PG_BLCKSZ - h->free + PG_BKP_IMAGE_HEADER;	/* the hole is left out */
}

/*
 * heap_page_prune_opt() at a heap fetch of accounts block `blk` (relation
 * block), held in `buf`: prune when the page has dead versions and
 * PageGetHeapFreeSpace() is below minfree (the fillfactor's reserve, at
 * least BLCKSZ/10), with its WAL record (XLOG_HEAP2_PRUNE).
 */
void pg_heap_page_prune_opt(struct pg_proc *p, uint32_t blk, uint32_t buf)
{
	struct pg *pg = p->pg;
	struct pg_heap_page *h = &pg->heap_page[blk];

	if (!(h->pend_hot | h->pend_dead) || h->free >= pg->heap_min_free + PG_LINE_POINTER ||
	    blk == p->upd_blk)
		return;
	h->free = (uint16_t)(h->free + h->pend_hot * PG_TUPLE_SPACE + h->pend_dead * PG_ACCOUNTS_TUPLE);
	h->pend_hot = h->pend_dead = 0;
	pg->heap_prunes++;
	pg_log_page_change(p, buf, pg->rel[PG_REL_ACCOUNTS].first + blk, PG_REC_PRUNE, heap_fpi_bytes(h));
}

/* ---- the update ------------------------------------------------------------------ */

/*
 * RelationGetBufferForTuple() for a new version that does not fit on its
 * old page: the backend's target block if it has room above the
 * fillfactor's reserve, else a block from the FSM, else a new one; the
 * buffer comes back pinned, *init set when the page was empty.
 */
static uint32_t heap_target(struct pg_proc *p, uint32_t *blkp, bool *init)
{
	struct pg *pg = p->pg;
	uint32_t blk = p->acct_blk, first = pg->rel[PG_REL_ACCOUNTS].first, buf;

	if (blk != PG_NONE && pg->heap_page[blk].free >= PG_TUPLE_SPACE + pg->heap_save_free) {
		buf = pg_read_buffer(p, first + blk, true);
	} else if (pg_fsm_pop(&pg->tail[PG_REL_ACCOUNTS], &blk)) {
		blk -= first;
		buf = pg_read_buffer(p, first + blk, true);
	} else {
		buf = pg_relation_add_blocks(p, PG_REL_ACCOUNTS, &blk);
		blk -= first;
	}
	*init = pg->heap_page[blk].free == PG_BLCKSZ - PG_PAGE_HEADER;
	p->acct_blk = blk;
	*blkp = blk;
	return buf;
}

/*
 * heap_update() of row `row` on accounts block `blk` (pinned in `buf`):
 * HOT when the new version fits on the page (XLOG_HEAP_HOT_UPDATE), else
 * the old version is locked (XLOG_HEAP_LOCK, with the old page's image if
 * due), the new one goes to heap_target()'s page (XLOG_HEAP_UPDATE naming
 * both blocks; the new page's image is left out when the record
 * initialises it, the old one's was taken by the lock record)
 * and the primary key gets an entry for it (_bt_doinsert: a descent from
 * the root, XLOG_BTREE_INSERT_LEAF on the leaf).
 */
void pg_heap_update(struct pg_proc *p, uint64_t row, uint32_t blk, uint32_t buf)
{
	struct pg *pg = p->pg;
	struct pg_heap_page *h = &pg->heap_page[blk], *n;
	uint32_t first = pg->rel[PG_REL_ACCOUNTS].first, nblk, nbuf, len;
	uint64_t lsn;
	bool init;

	p->upd_blk = blk;
	if (h->free >= PG_TUPLE_SPACE) {	/* newtupsize <= PageGetHeapFreeSpace */
		h->free = (uint16_t)(h->free - PG_TUPLE_SPACE);
		SIM_ASSERT(h->pend_hot < UINT8_MAX);
		h->pend_hot++;
		pg->hot_updates++;
		pg_log_page_change(p, buf, first + blk, PG_REC_HOT_UPDATE, heap_fpi_bytes(h));
		return;
	}
	/* the old version is locked in WAL before its page's lock is let go
	 * to find another page */
	pg_log_page_change(p, buf, first + blk, PG_REC_LOCK, heap_fpi_bytes(h));
	sim_path_push(pg->sim, "RelationGetBufferForTuple");
	nbuf = heap_target(p, &nblk, &init);
	sim_path_pop(pg->sim);
	n = &pg->heap_page[nblk];
	n->free = (uint16_t)(n->free - PG_TUPLE_SPACE);
	SIM_ASSERT(h->pend_dead < UINT8_MAX);
	h->pend_dead++;
	len = PG_REC_UPDATE;
	if (!init && pg_needs_fpi(pg, first + nblk)) {
		len += heap_fpi_bytes(n);
		pg->xlog.fpi++;
		pg->tx_fpi++;
	}
	lsn = pg_xlog_insert(p, len);
	pg->bp.blk_epoch[first + nblk] = pg->xlog.epoch;
	pg_mark_dirty(pg, nbuf, lsn);
	pg_mark_dirty(pg, buf, lsn);
	pg_release_buffer(p, nbuf);
	heap_row_moved(pg, row, nblk);
	pg->nonhot_updates++;

	sim_path_push(pg->sim, "_bt_doinsert");
	nbuf = pg_btree_descend(p, row, true);
	pg_log_page_change(p, nbuf, pg->level_first[0] + (uint32_t)(row / pg->leaf_tuples),
			   PG_REC_BTREE_LEAF, pg->leaf_fpi_bytes);
	pg_release_buffer(p, nbuf);
	sim_path_pop(pg->sim);
}

/* ---- start ----------------------------------------------------------------------- */

/*
 * The loaded heap: every page filled to the fillfactor (the last one
 * partly).  Room to grow is reserved only where a loaded page cannot take
 * a HOT update: there each page's first UPDATE moves a row out, and the
 * moved rows fill new pages that do the same, N/(rows per page - 1)
 * blocks in all; twice that plus one bulk extension per backend is
 * reserved.
 */
int pg_heap_init(struct pg *pg)
{
	uint32_t blocks = (uint32_t)((pg->naccounts + pg->rows_per_page - 1) / pg->rows_per_page);
	uint32_t full = PG_BLCKSZ - PG_PAGE_HEADER - pg->rows_per_page * PG_TUPLE_SPACE, room = 0;
	uint64_t ff = pg->cfg.fillfactor, moved = 0;

	pg->heap_save_free = (uint32_t)(PG_BLCKSZ * (100 - ff) / 100);
	pg->heap_min_free = pg->heap_save_free > PG_BLCKSZ / 10 ? pg->heap_save_free : PG_BLCKSZ / 10;
	if (full < PG_TUPLE_SPACE) {
		room = 2 * blocks / (pg->rows_per_page > 1 ? pg->rows_per_page - 1 : 1) +
		       PG_MAX_EXTEND * (uint32_t)(pg->cfg.clients + 4) + 1024;
		moved = (uint64_t)room * pg->rows_per_page;
		if (moved > pg->naccounts)
			moved = pg->naccounts;
	}
	pg->heap_blocks_max = blocks + room;
	pg->heap_page = calloc(pg->heap_blocks_max, sizeof(*pg->heap_page));
	if (!pg->heap_page)
		return -1;
	for (uint32_t b = 0; b < pg->heap_blocks_max; b++) {
		uint64_t rows = b + 1 < blocks ? pg->rows_per_page :
				b < blocks ? pg->naccounts - (uint64_t)b * pg->rows_per_page : 0;

		pg->heap_page[b].free = (uint16_t)(PG_BLCKSZ - PG_PAGE_HEADER - rows * PG_TUPLE_SPACE);
	}
	if (moved) {
		uint32_t cap = 1024;

		while (cap < 2 * moved + 2)
			cap *= 2;
		pg->moved_key = calloc(cap, sizeof(*pg->moved_key));
		pg->moved_blk = calloc(cap, sizeof(*pg->moved_blk));
		if (!pg->moved_key || !pg->moved_blk)
			return -1;
		pg->moved_mask = cap - 1;
	}
	return 0;
}

void pg_heap_release(struct pg *pg)
{
	free(pg->heap_page);
	free(pg->moved_key);
	free(pg->moved_blk);
	for (int r = 0; r < PG_NR_RELS; r++)
		free(pg->tail[r].fsm);
}
