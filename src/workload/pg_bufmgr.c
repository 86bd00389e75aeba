/* SPDX-License-Identifier: MIT */
/*
 * pg_bufmgr.c — PostgreSQL's shared buffer pool (PostgreSQL 17:
 * src/backend/storage/buffer/bufmgr.c, freelist.c, buf_table.c).
 *
 * State per buffer (struct pg_bufpool, 11 bytes per 8 KiB buffer):
 *
 *   tag[b]       global block id held (BufferTag), PG_NONE when free
 *   state[b]     BM_DIRTY | BM_VALID | BM_IO_IN_PROGRESS |
 *                BM_CHECKPOINT_NEEDED | BM_JUST_DIRTIED | usage count 0..5
 *   refcount[b]  pins
 *   lsn[b]       page LSN / 256 (rounded up; clamped to the insert
 *                position when used), for FlushBuffer's XLogFlush
 *
 * and per database block: blk_buf[blk] (the buffer mapping hash, as a
 * direct table) and blk_epoch[blk] (pg_xlog.c: the checkpoint epoch of
 * the page's last change, standing in for "page LSN <= RedoRecPtr").
 *
 * ReadBuffer (ReadBuffer_common -> BufferAlloc):
 *   1. BufTableLookup; on a hit PinBuffer (usage_count + 1, max 5) and, if
 *      the buffer is still being read by another backend, WaitIO.
 *   2. On a miss, GetVictimBuffer: StrategyGetBuffer (the freelist while
 *      buffers were never used, then the clock sweep: the hand advances,
 *      usage counts of unpinned buffers drop by one, the first unpinned
 *      buffer at zero is the victim); a dirty victim is written by the
 *      backend (FlushBuffer: XLogFlush up to its LSN, checksum copy,
 *      8 KiB pwrite via mdwrite); if it was pinned or dirtied again in the
 *      meantime, another victim is chosen; the old tag leaves the hash.
 *   3. The new tag enters the hash with usage count 1, BM_IO_IN_PROGRESS;
 *      mdread (8 KiB pread) fills it; BM_VALID; waiters wake.
 *
 * Checkpoint writes (BufferSync): mark every dirty buffer
 * BM_CHECKPOINT_NEEDED, sort them by (relation, block), write those still
 * marked, paced by CheckpointWriteDelay (pg_aux.c), with a writeback
 * request (sync_file_range) every checkpoint_flush_after.
 * bgwriter (BgBufferSync): scan ahead of the clock hand for the buffers the
 * next round of allocations will need, writing dirty ones with usage 0, at
 * most bgwriter_lru_maxpages per round.
 *
 * Memory touches: every access touches the hash entry, the BufferDesc
 * (atomic pin) and the 8 KiB block (both 4 KiB pages) through the
 * process's own page tables (pg_touch -> mm_touch), so first touches
 * fault and allocate PTE pages as the kernel would.
 *
 * Simplifications: content LWLocks are not modelled as locks (a writer
 * waits only for an in-progress write of the same buffer, as a flusher
 * holds the share lock); without [pgbench] locks the buffer-mapping
 * partition locks are charged as CPU (pg_buffer_access, pg_buffer_alloc),
 * not contended, and so is buffer_strategy_lock (with it, LWLocks and an
 * s_lock); no buffer access strategies (rings) —
 * simple-update uses none; no local buffers; without [pgbench] locks the
 * hash's memory is touched at one entry per lookup (with it, as dynahash
 * lays it out: "The buffer mapping table" below).
 */
#include <stdlib.h>
#include <string.h>

#include "mm/memory.h"
#include "mm/types.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"
#include "workload/pg_internal.h"

/* The per-buffer arrays (millions of entries at full scale, touched at
 * random by every buffer access) on host huge pages. */
static void *huge_array(size_t n, size_t size)
{
	void *p = host_huge_alloc(n * size);

	if (!p)
		SIM_BUG("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* The hash code of `blk`'s buffer tag (get_hash_value; the model's own
 * multiplicative hash): its partition, its free list and its bucket. */
static uint32_t buf_hash_code(uint32_t blk)
{
	return (uint32_t)(((uint64_t)blk * 0x9e3779b97f4a7c15ULL) >> 32);
}

/* Without [pgbench] locks: the hash entry a lookup of `blk` touches (one
 * element of the dynahash that holds NBuffers + partitions entries of ~40
 * bytes, at a fixed place per block). */
static unsigned long hash_addr(const struct pg *pg, uint32_t blk)
{
	return pg->shm_base + pg->off_hash + (unsigned long)(buf_hash_code(blk) % pg->bp.nbuffers) * 40;
}

/* BufMappingPartitionLock(hashcode): the partition of `blk`'s entry
 * ([pgbench] locks), from the same hash code as its bucket. */
static struct pg_lwlock *partition_lock(const struct pg *pg, uint32_t blk)
{
	return &pg->buf_mapping[buf_hash_code(blk) % PG_NUM_BUFFER_PARTITIONS];
}

/*
 * The buffer mapping table ([pgbench] locks): the shared dynahash of
 * buf_table.c (utils/hash/dynahash.c, PostgreSQL 15-17), NBuffers +
 * NUM_BUFFER_PARTITIONS entries of 40 bytes (HASHELEMENT + BufferLookupEnt)
 * and a bucket array of the next power of two of that many pointers.  The
 * table is partitioned, so its free elements sit on NUM_FREELISTS (32)
 * LIFO lists, the list of an entry chosen by hashcode % 32, each guarded
 * by a spinlock (FreeListData.mutex).  hash_create gave each list one
 * contiguous chunk, linked so that the chunk's last element is the head
 * (element_alloc).  BufTableInsert (HASH_ENTER -> get_hash_entry) pops the
 * head under the list's spinlock and reads its link there: the first
 * touch of that element's page by this process faults with the spinlock
 * held.  A popped element is the one some backend's BufTableDelete
 * (HASH_REMOVE) pushed last, under the same kind of spinlock, after its
 * chain walk had touched it.  A lookup touches the bucket and, when the
 * block is in the table, its entry's element.
 * Simplified: a chain holds only the entry looked up (colliding entries
 * are not walked); the small directory is not touched; a list found empty
 * borrows from the next ones, as get_hash_entry does once element_alloc
 * fails (the model never grows the table).  Without [pgbench] locks the
 * table is one 40-byte entry per lookup at a fixed place (hash_addr).
 */
static unsigned long bucket_addr(const struct pg *pg, uint32_t blk)
{
	return pg->shm_base + pg->off_buckets + (unsigned long)(buf_hash_code(blk) & (pg->bp.nbuckets - 1)) * 8;
}

static unsigned long elem_addr(const struct pg *pg, uint32_t e)
{
	return pg->shm_base + pg->off_elems + (unsigned long)e * 40;
}

static void buf_table_init(struct pg *pg)
{
	struct pg_bufpool *bp = &pg->bp;
	uint32_t per = bp->nelem / PG_NUM_FREELISTS, first = bp->nelem - per * (PG_NUM_FREELISTS - 1);
	uint32_t e = 0;

	bp->elem_of = huge_array(bp->nbuffers, sizeof(*bp->elem_of));
	bp->elem_link = huge_array(bp->nelem, sizeof(*bp->elem_link));
	for (unsigned int k = 0; k < PG_NUM_FREELISTS; k++) {
		uint32_t cnt = k == 0 ? first : per;	/* hash_create: list 0 takes the remainder */

		bp->fl_head[k] = PG_NONE;
		for (uint32_t i = 0; i < cnt; i++, e++) {	/* element_alloc: the last is the head */
			bp->elem_link[e] = bp->fl_head[k];
			bp->fl_head[k] = e;
		}
	}
	SIM_ASSERT(e == bp->nelem);
}

/* get_hash_entry(): pop the head of free list `fl` under its spinlock,
 * reading its link; an empty list borrows from the next non-empty one. */
static uint32_t get_hash_entry(struct pg_proc *p, unsigned int fl)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	uint32_t e;

	for (unsigned int k = 0; k < PG_NUM_FREELISTS; k++) {
		unsigned int from = (fl + k) % PG_NUM_FREELISTS;

		pg_s_lock(p, &pg->hash_fl_lock[from]);
		e = bp->fl_head[from];
		if (e != PG_NONE) {
			pg_touch(p, elem_addr(pg, e), false);	/* newElement->link */
			bp->fl_head[from] = bp->elem_link[e];
		}
		pg_s_unlock(p, &pg->hash_fl_lock[from]);
		if (e == PG_NONE)
			continue;
		if (from != fl) {			/* nentries++ of its own list */
			pg_s_lock(p, &pg->hash_fl_lock[fl]);
			pg_s_unlock(p, &pg->hash_fl_lock[fl]);
		}
		return e;
	}
	SIM_BUG("pgbench: the buffer mapping table has no free element");
}

/* BufTableLookup's touches: the bucket, then the entry (without
 * [pgbench] locks, the one fixed entry). */
static void buf_table_lookup_touch(struct pg_proc *p, uint32_t blk)
{
	struct pg *pg = p->pg;
	uint32_t buf = pg->bp.blk_buf[blk];

	if (!pg->cfg.locks) {
		pg_touch(p, hash_addr(pg, blk), false);
		return;
	}
	pg_touch(p, bucket_addr(pg, blk), false);
	if (buf != PG_NONE)
		pg_touch(p, elem_addr(pg, pg->bp.elem_of[buf]), false);
}

void pg_prefetch_block(struct pg_proc *p, uint32_t blk, bool stage2)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	unsigned long h = pg->cfg.locks ? bucket_addr(pg, blk) : hash_addr(pg, blk), a;
	uint32_t buf;

	if (!stage2) {
		__builtin_prefetch(&bp->blk_buf[blk]);
		__builtin_prefetch(&bp->blk_epoch[blk]);
		mm_touch_prefetch(p->mm, h);
		return;
	}
	pg_tlb_prefetch(p, h);
	buf = bp->blk_buf[blk];
	if (buf == PG_NONE)
		return;
	__builtin_prefetch(&bp->desc[buf]);
	if (pg->cfg.locks)
		__builtin_prefetch(&bp->elem_of[buf]);
	a = pg_buf_desc_addr(pg, buf);
	mm_touch_prefetch(p->mm, a);
	pg_tlb_prefetch(p, a);
	a = pg_buf_block_addr(pg, buf);
	mm_touch_prefetch(p->mm, a);
	pg_tlb_prefetch(p, a);
	pg_tlb_prefetch(p, a + PAGE_SIZE);
}

/* BufTableInsert: walk the bucket, take an element from the free list of
 * the block's hash code, fill it and link it in (without [pgbench] locks,
 * a write of the one fixed entry). */
static void buf_table_insert(struct pg_proc *p, uint32_t blk, uint32_t buf)
{
	struct pg *pg = p->pg;
	uint32_t e;

	if (!pg->cfg.locks) {
		pg_touch(p, hash_addr(pg, blk), true);
		return;
	}
	pg_touch(p, bucket_addr(pg, blk), false);
	e = get_hash_entry(p, buf_hash_code(blk) % PG_NUM_FREELISTS);
	pg_touch(p, elem_addr(pg, e), true);		/* the key and the buffer id */
	pg_touch(p, bucket_addr(pg, blk), true);	/* linked into the chain */
	pg->bp.elem_of[buf] = e;
}

/* BufTableDelete: find the entry, then unlink it and push its element on
 * its free list under that list's spinlock (without [pgbench] locks, a
 * write of the one fixed entry). */
static void buf_table_delete(struct pg_proc *p, uint32_t blk, uint32_t buf)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	unsigned int fl = buf_hash_code(blk) % PG_NUM_FREELISTS;
	uint32_t e;

	if (!pg->cfg.locks) {
		pg_touch(p, hash_addr(pg, blk), true);
		return;
	}
	e = bp->elem_of[buf];
	pg_touch(p, bucket_addr(pg, blk), false);
	pg_touch(p, elem_addr(pg, e), false);
	pg_s_lock(p, &pg->hash_fl_lock[fl]);
	pg_touch(p, bucket_addr(pg, blk), true);	/* *prevBucketPtr = currBucket->link */
	pg_touch(p, elem_addr(pg, e), true);		/* currBucket->link = freeList */
	bp->elem_link[e] = bp->fl_head[fl];
	bp->fl_head[fl] = e;
	pg_s_unlock(p, &pg->hash_fl_lock[fl]);
	bp->elem_of[buf] = PG_NONE;
}

int pg_bufmgr_init(struct pg *pg)
{
	struct pg_bufpool *bp = &pg->bp;
	uint32_t n = bp->nbuffers;

	bp->desc = huge_array(n, sizeof(*bp->desc));
	bp->free_stack = xcalloc(n, sizeof(*bp->free_stack));
	for (uint32_t i = 0; i < n; i++)
		bp->desc[i].tag = PG_NONE;
	bp->free_next = 0;
	bp->nr_free_stack = 0;
	sim_waitq_init(&bp->io_wq, "pg WaitIO");
	if (pg->cfg.locks)
		buf_table_init(pg);
	pg->ckpt.sort_keys = xcalloc(n, sizeof(*pg->ckpt.sort_keys));
	pg->bgw.smoothed_density = 10.0;	/* BgBufferSync's initial value */
	return 0;
}

void pg_bufmgr_release(struct pg *pg)
{
	struct pg_bufpool *bp = &pg->bp;

	host_huge_free(bp->desc, (size_t)bp->nbuffers * sizeof(*bp->desc));
	free(bp->free_stack);
	host_huge_free(bp->blk_buf, (size_t)bp->nblk_cap * sizeof(*bp->blk_buf));
	host_huge_free(bp->blk_epoch, (size_t)bp->nblk_cap * sizeof(*bp->blk_epoch));
	if (bp->elem_of)
		host_huge_free(bp->elem_of, (size_t)bp->nbuffers * sizeof(*bp->elem_of));
	if (bp->elem_link)
		host_huge_free(bp->elem_link, (size_t)bp->nelem * sizeof(*bp->elem_link));
	free(pg->ckpt.sort_keys);
	memset(bp, 0, sizeof(*bp));
	pg->ckpt.sort_keys = NULL;
}

static void touch_block(struct pg_proc *p, uint32_t buf, bool write)
{
	unsigned long a = pg_buf_block_addr(p->pg, buf);

	pg_touch(p, a, write);
	pg_touch(p, a + PAGE_SIZE, write);
}

static uint64_t buf_lsn(const struct pg *pg, uint32_t buf)
{
	uint64_t lsn = (uint64_t)pg->bp.desc[buf].lsn << 8;

	return lsn < pg->xlog.insert ? lsn : pg->xlog.insert;
}

/* WaitIO(): sleep until the buffer's I/O is over. */
static void wait_io(struct pg_proc *p, uint32_t buf)
{
	struct pg_bufpool *bp = &p->pg->bp;
	struct sim *sim = p->pg->sim;

	sim_sync(sim);
	while (bp->desc[buf].state & BM_IO_IN_PROGRESS) {
		bp->io_waiters++;
		sim_path_push(sim, "WaitIO");
		pgstat_report_wait_start(p, PG_WAIT_IPC_BUFFERIO);
		sim_wait(sim, &bp->io_wq, SIM_TIME_NEVER);
		pgstat_report_wait_end(p);
		sim_path_pop(sim);
		bp->io_waiters--;
	}
}

static void io_done(struct pg *pg, uint32_t buf)
{
	struct pg_bufpool *bp = &pg->bp;

	bp->desc[buf].state &= (uint8_t)~BM_IO_IN_PROGRESS;
	if (bp->io_waiters)
		sim_wake_all(pg->sim, &bp->io_wq);
}

/* PinBuffer(): one more pin, usage count + 1 (BM_MAX_USAGE_COUNT caps it). */
static void pin_buffer(struct pg_proc *p, uint32_t buf)
{
	struct pg_bufpool *bp = &p->pg->bp;

	pg_touch(p, pg_buf_desc_addr(p->pg, buf), true);
	bp->desc[buf].refcount++;
	if ((bp->desc[buf].state & PG_BUF_USAGE_MASK) < PG_MAX_USAGE_COUNT)
		bp->desc[buf].state++;
}

void pg_release_buffer(struct pg_proc *p, uint32_t buf)
{
	SIM_ASSERT(p->pg->bp.desc[buf].refcount > 0);
	p->pg->bp.desc[buf].refcount--;
}

void pg_mark_dirty(struct pg *pg, uint32_t buf, uint64_t lsn)
{
	struct pg_bufpool *bp = &pg->bp;

	SIM_ASSERT(bp->desc[buf].refcount > 0 && (bp->desc[buf].state & BM_VALID));
	bp->desc[buf].state |= BM_DIRTY | BM_JUST_DIRTIED;
	bp->desc[buf].lsn = (uint32_t)((lsn + 255) >> 8);
}

/*
 * SpinLockAcquire -> s_lock() (src/backend/storage/lmgr/s_lock.c,
 * PostgreSQL 15-17): after a failed test-and-set, spin spins_per_delay
 * times (TAS_SPIN + SPIN_DELAY, an `isb` on arm64: cost pg_spin_delay
 * each), then pg_usleep(cur_delay) — 1 ms at first, then grown by a
 * random 0-100 % up to 1 s, wrapping back to 1 ms — and spin again.  On
 * success finish_spin_delay adapts the process's spins_per_delay: +100 (at
 * most 1000) if it never slept, else -1 (at least 10).  The lock is a
 * user-space one: its holder can take a page fault, stall in the
 * allocator or be preempted while holding it (sim_uspin_lock_for).
 * Simplified: the spinners are handed the lock in arrival order (the
 * hardware decides the real race); s_lock_stuck's PANIC after 1000 delays
 * is not modelled.
 */
void pg_s_lock(struct pg_proc *p, struct sim_spinlock *l)
{
	struct sim *sim = p->pg->sim;
	uint64_t cur_delay = 0;		/* us */
	sim_time_t spin;

	if (sim_uspin_lock_for(sim, l, 0))
		return;			/* TAS succeeded: s_lock() is not entered */
	for (;;) {
		spin = cost_ns(sim_costs(sim), COST_pg_spin_delay, p->spins_per_delay);
		if (sim_uspin_lock_for(sim, l, spin ? spin : 1))
			break;
		if (cur_delay == 0)
			cur_delay = PG_MIN_DELAY_USEC;
		p->st.s_lock_delays++;
		pgstat_report_wait_start(p, PG_WAIT_TIMEOUT_SPINDELAY);
		sim_sleep(sim, cur_delay * SIM_NSEC_PER_USEC);
		pgstat_report_wait_end(p);
		cur_delay += (uint64_t)((double)cur_delay * rng_double(&p->spin_rng) + 0.5);
		if (cur_delay > PG_MAX_DELAY_USEC)
			cur_delay = PG_MIN_DELAY_USEC;
	}
	if (cur_delay == 0)
		p->spins_per_delay = p->spins_per_delay + 100 < PG_MAX_SPINS_PER_DELAY ?
				     p->spins_per_delay + 100 : PG_MAX_SPINS_PER_DELAY;
	else if (p->spins_per_delay > PG_MIN_SPINS_PER_DELAY)
		p->spins_per_delay--;
}

void pg_s_unlock(struct pg_proc *p, struct sim_spinlock *l)
{
	sim_uspin_unlock(p->pg->sim, l);
}

/*
 * StrategyGetBuffer() (freelist.c): the freelist first, then the clock
 * sweep.  Returns a buffer with refcount 0 and usage count 0, not yet
 * pinned (the caller pins it before anything can block).  With
 * [pgbench] locks, buffer_strategy_lock is held over the freelist pop,
 * whose read of the descriptor's freeNext is this process's first touch of
 * that BufferDesc page more often than not (a minor fault, with a PTE page
 * to allocate at the first touch of each 2 MiB), and over the clock hand's
 * wrap-around (completePasses).
 */
uint32_t pg_strategy_get_buffer(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	unsigned long last_page = ~0UL;
	uint32_t trycounter = bp->nbuffers;

	bp->num_allocs++;
	if (pg->bgw.sleeping) {		/* SetLatch(bgwprocno) */
		pg->bgw.sleeping = false;
		sim_wake_one(pg->sim, &pg->bgw.latch);
	}
	while (bp->nr_free_stack || bp->free_next < bp->nbuffers) {
		uint32_t buf;

		if (pg->cfg.locks) {
			pg_s_lock(p, &pg->strategy_lock);
			if (!bp->nr_free_stack && bp->free_next >= bp->nbuffers) {
				pg_s_unlock(p, &pg->strategy_lock);	/* emptied meanwhile */
				break;
			}
		}
		buf = bp->nr_free_stack ? bp->free_stack[--bp->nr_free_stack] : bp->free_next++;
		if (!bp->freelist_emptied && !bp->nr_free_stack && bp->free_next >= bp->nbuffers) {
			bp->freelist_emptied = true;
			bp->freelist_empty_at = sim_now(pg->sim);
		}
		sim_charge_cost(pg->sim, COST_pg_clock_sweep, 1);
		pg_touch(p, pg_buf_desc_addr(pg, buf), true);
		if (pg->cfg.locks)
			pg_s_unlock(p, &pg->strategy_lock);
		if (bp->desc[buf].refcount == 0 && (bp->desc[buf].state & PG_BUF_USAGE_MASK) == 0)
			return buf;
	}
	for (;;) {
		uint32_t buf = (uint32_t)(bp->next_victim++ % bp->nbuffers);	/* ClockSweepTick */
		unsigned long page = pg_buf_desc_addr(pg, buf) >> PAGE_SHIFT;

		if (pg->cfg.locks && buf == 0 && bp->next_victim > 1) {
			pg_s_lock(p, &pg->strategy_lock);	/* completePasses++ */
			pg_s_unlock(p, &pg->strategy_lock);
		}
		sim_charge_cost(pg->sim, COST_pg_clock_sweep, 1);
		if (page != last_page) {
			pg_touch(p, page << PAGE_SHIFT, true);
			last_page = page;
		}
		if (bp->desc[buf].refcount == 0) {
			if ((bp->desc[buf].state & PG_BUF_USAGE_MASK) == 0)
				return buf;
			bp->desc[buf].state--;
			trycounter = bp->nbuffers;
		} else if (--trycounter == 0) {
			SIM_BUG("pgbench: no unpinned buffers available");
		}
	}
}

/* StrategyFreeBuffer(): back on the freelist. */
static void strategy_free_buffer(struct pg_proc *p, uint32_t buf)
{
	struct pg *pg = p->pg;

	if (pg->cfg.locks)
		pg_s_lock(p, &pg->strategy_lock);
	pg->bp.free_stack[pg->bp.nr_free_stack++] = buf;
	if (pg->cfg.locks)
		pg_s_unlock(p, &pg->strategy_lock);
}

/*
 * FlushBuffer() (bufmgr.c): write a dirty buffer that the caller has
 * pinned.  Returns false when there was nothing to write (someone else
 * wrote it first).
 */
static bool flush_buffer(struct pg_proc *p, uint32_t buf)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	uint32_t blk;

	/* StartBufferIO(forInput = false) */
	for (;;) {
		if (!(bp->desc[buf].state & BM_DIRTY))
			return false;
		if (!(bp->desc[buf].state & BM_IO_IN_PROGRESS))
			break;
		wait_io(p, buf);
	}
	bp->desc[buf].state |= BM_IO_IN_PROGRESS;
	bp->desc[buf].state &= (uint8_t)~BM_JUST_DIRTIED;
	blk = bp->desc[buf].tag;
	sim_path_push(pg->sim, "FlushBuffer");
	pg_xlog_flush(p, buf_lsn(pg, buf));
	touch_block(p, buf, false);		/* PageSetChecksumCopy reads the page */
	sim_charge_cost(pg->sim, COST_pg_flush_buffer, 1);
	if (pg->on_write)
		pg->on_write(p, blk);
	pg_mdwrite(p, blk);
	sim_path_pop(pg->sim);
	/* TerminateBufferIO(clear_dirty = true) */
	if (!(bp->desc[buf].state & BM_JUST_DIRTIED))
		bp->desc[buf].state &= (uint8_t)~(BM_DIRTY | BM_CHECKPOINT_NEEDED);
	io_done(pg, buf);
	p->st.buffers_written++;
	return true;
}

/* A victim the evictor may still take after a wait (the flush, the old
 * partition's lock): its own pin is the only one and it is clean. */
static bool victim_still_free(const struct pg_bufpool *bp, uint32_t buf)
{
	return bp->desc[buf].refcount == 1 && !(bp->desc[buf].state & BM_DIRTY);
}

/*
 * GetVictimBuffer() (bufmgr.c, PostgreSQL 16+): a buffer for a new page,
 * pinned once, clean, out of the mapping table, flags cleared.
 */
uint32_t pg_get_victim_buffer(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;

	for (;;) {
		uint32_t buf = pg_strategy_get_buffer(p);

		bp->desc[buf].refcount++;			/* PinBuffer_Locked */
		if (bp->desc[buf].state & BM_DIRTY) {
			flush_buffer(p, buf);
			/* backend_flush_after: ScheduleBufferTagForWriteback */
			if (p->wb.max && bp->desc[buf].tag != PG_NONE)
				pg_schedule_writeback(p, bp->desc[buf].tag);
			if (!victim_still_free(bp, buf)) {
				bp->desc[buf].refcount--;	/* somebody wants it: try another */
				continue;
			}
		}
		/* InvalidateVictimBuffer(): with [pgbench] locks, BufTableDelete
		 * under the old tag's partition lock exclusive.  While the
		 * evictor waited for that lock the block could still be found
		 * and pinned (or dirtied), so with the lock held it looks again,
		 * and lets the buffer go unless its pin is the only one and it
		 * is clean */
		if (bp->desc[buf].tag != PG_NONE) {
			struct pg_lwlock *old = pg->cfg.locks ? partition_lock(pg, bp->desc[buf].tag) : NULL;

			if (old) {
				pg_lwlock_acquire(pg->sim, old);
				if (!victim_still_free(bp, buf)) {
					pg_lwlock_release(pg->sim, old);
					bp->desc[buf].refcount--;
					continue;
				}
				sim_charge_cost(pg->sim, COST_pg_buf_mapping_update, 1);
			}
			buf_table_delete(p, bp->desc[buf].tag, buf);
			bp->blk_buf[bp->desc[buf].tag] = PG_NONE;
			bp->desc[buf].tag = PG_NONE;
			if (old)
				pg_lwlock_release(pg->sim, old);
		}
		bp->desc[buf].state = 0;
		return buf;
	}
}

/*
 * ReadBuffer -> BufferAlloc() (bufmgr.c, PostgreSQL 16-17).  With
 * [pgbench] locks the lookup and the pin are made under the partition
 * lock share; on a miss the lock is dropped, a victim found
 * (GetVictimBuffer, which deletes its old entry under that entry's
 * partition lock), and the new entry inserted under the partition lock
 * exclusive — unless someone inserted it meanwhile (BufTableInsert finds
 * it): then the victim goes back and the lookup is retried.  Every first
 * touch of a hash or BufferDesc page inside takes its fault with the
 * partition lock held.  The CPU costs are those of the path without
 * locks, split at the lock boundaries (pg_buf_mapping_lookup of
 * pg_buffer_access, one pg_buf_mapping_update each for the delete and the
 * insert of pg_buffer_alloc).
 */
/* pg_buffer_alloc split at the partition lock ([pgbench] locks): the
 * insert's share charged inside the lock, the rest after it (the delete's
 * share is charged inside the old partition's lock by
 * pg_get_victim_buffer); without the lock all of it at once. */
struct alloc_cost {
	uint64_t	inside, rest;
};

static struct alloc_cost buffer_alloc_cost(const struct pg *pg, bool locked)
{
	const struct cost_table *c = sim_costs(pg->sim);
	uint64_t alloc = cost_ns(c, COST_pg_buffer_alloc, 1), u;

	if (!locked)
		return (struct alloc_cost){ alloc, 0 };
	u = cost_ns(c, COST_pg_buf_mapping_update, 1);
	return (struct alloc_cost){ u < alloc ? u : alloc, alloc > 2 * u ? alloc - 2 * u : 0 };
}

uint32_t pg_read_buffer(struct pg_proc *p, uint32_t blk, bool write)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	const struct cost_table *c = sim_costs(pg->sim);
	struct pg_lwlock *part = pg->cfg.locks ? partition_lock(pg, blk) : NULL;
	uint64_t access = cost_ns(c, COST_pg_buffer_access, 1), lookup = access;
	struct alloc_cost alloc;

	if (part) {
		lookup = cost_ns(c, COST_pg_buf_mapping_lookup, 1);
		lookup = lookup < access ? lookup : access;
	}
	for (;;) {
		uint32_t buf;

		if (part)
			pg_lwlock_acquire_shared(pg->sim, part);
		sim_charge(pg->sim, lookup);
		buf_table_lookup_touch(p, blk);			/* BufTableLookup */
		buf = bp->blk_buf[blk];
		if (buf != PG_NONE) {
			pin_buffer(p, buf);
			if (part) {
				pg_lwlock_release_shared(pg->sim, part);
				sim_charge(pg->sim, access - lookup);
			}
			/* a read in progress (WaitIO), or for a writer, a write in
			 * progress that holds the content lock share */
			if (!(bp->desc[buf].state & BM_VALID) || (write && (bp->desc[buf].state & BM_IO_IN_PROGRESS)))
				wait_io(p, buf);
			if (bp->desc[buf].tag != blk || !(bp->desc[buf].state & BM_VALID)) {
				pg_release_buffer(p, buf);
				continue;
			}
			touch_block(p, buf, write);
			p->st.buffer_hits++;
			return buf;
		}
		if (part) {
			pg_lwlock_release_shared(pg->sim, part);
			sim_charge(pg->sim, access - lookup);
		}
		buf = pg_get_victim_buffer(p);
		if (part)
			pg_lwlock_acquire(pg->sim, part);
		if (bp->blk_buf[blk] != PG_NONE) {	/* loaded by someone meanwhile */
			if (part)
				pg_lwlock_release(pg->sim, part);
			bp->desc[buf].refcount--;
			strategy_free_buffer(p, buf);
			continue;
		}
		alloc = buffer_alloc_cost(pg, part != NULL);
		sim_charge(pg->sim, alloc.inside);
		buf_table_insert(p, blk, buf);
		bp->desc[buf].tag = blk;
		bp->blk_buf[blk] = buf;
		bp->desc[buf].state = BM_IO_IN_PROGRESS | 1;	/* BM_TAG_VALID, BUF_USAGECOUNT_ONE */
		if (part) {
			pg_lwlock_release(pg->sim, part);
			sim_charge(pg->sim, alloc.rest);
		}
		touch_block(p, buf, true);		/* the kernel copies into the buffer */
		pg_mdread(p, blk);
		bp->desc[buf].state |= BM_VALID;
		io_done(pg, buf);
		p->st.buffer_misses++;
		{
			uint32_t relblk;

			pg->rel_reads[pg_blk_rel(pg, blk, &relblk)]++;	/* pg_statio's *_blks_read */
		}
		return buf;
	}
}

void pg_assign_new_buffer(struct pg_proc *p, uint32_t buf, uint32_t blk)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	struct pg_lwlock *part = pg->cfg.locks ? partition_lock(pg, blk) : NULL;
	struct alloc_cost alloc = buffer_alloc_cost(pg, part != NULL);

	SIM_ASSERT(bp->blk_buf[blk] == PG_NONE && bp->desc[buf].refcount == 1);
	if (part)			/* BufTableInsert under the partition lock exclusive */
		pg_lwlock_acquire(pg->sim, part);
	sim_charge(pg->sim, alloc.inside);
	buf_table_insert(p, blk, buf);
	bp->desc[buf].tag = blk;
	bp->blk_buf[blk] = buf;
	bp->desc[buf].state = BM_VALID | 1;
	if (part) {
		pg_lwlock_release(pg->sim, part);
		sim_charge(pg->sim, alloc.rest);
	}
	touch_block(p, buf, true);		/* the zeroed page */
}

/* ---- writeback requests (ScheduleBufferTagForWriteback, IssuePendingWritebacks) ---- */

void pg_wb_context_init(struct pg_wb_context *wb, uint64_t flush_after_bytes)
{
	uint64_t max = flush_after_bytes / PG_BLCKSZ;

	wb->max = (uint32_t)(max > 256 ? 256 : max);	/* WRITEBACK_MAX_PENDING_FLUSHES */
	wb->nr = 0;
	free(wb->tags);
	wb->tags = wb->max ? xcalloc(wb->max, sizeof(*wb->tags)) : NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void pg_issue_pending_writebacks(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_wb_context *wb = &p->wb;

	if (!wb->nr)
		return;
	qsort(wb->tags, wb->nr, sizeof(*wb->tags), cmp_u32);
	for (uint32_t i = 0; i < wb->nr;) {
		uint32_t start = wb->tags[i], n = 1, rel0, r;
		enum pg_rel rel = pg_blk_rel(pg, start, &rel0);

		/* merge following tags of the same relation segment that are
		 * the same or the next block */
		for (i++; i < wb->nr; i++) {
			uint32_t t = wb->tags[i];

			if (t == start + n - 1)
				continue;
			if (t != start + n || pg_blk_rel(pg, t, &r) != rel ||
			    r / pg->relseg_blocks != rel0 / pg->relseg_blocks)
				break;
			n++;
		}
		pg_mdwriteback(p, start, n);
	}
	wb->nr = 0;
}

void pg_schedule_writeback(struct pg_proc *p, uint32_t blk)
{
	struct pg_wb_context *wb = &p->wb;

	if (!wb->max)
		return;
	wb->tags[wb->nr++] = blk;
	if (wb->nr >= wb->max)
		pg_issue_pending_writebacks(p);
}

int pg_sync_one_buffer(struct pg_proc *p, uint32_t buf, bool skip_recently_used)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	int result = 0;
	uint32_t blk;

	if (bp->desc[buf].refcount == 0 && (bp->desc[buf].state & PG_BUF_USAGE_MASK) == 0)
		result |= BUF_REUSABLE;
	else if (skip_recently_used)
		return result;
	if (!(bp->desc[buf].state & BM_VALID) || !(bp->desc[buf].state & BM_DIRTY))
		return result;
	blk = bp->desc[buf].tag;
	bp->desc[buf].refcount++;
	if (!flush_buffer(p, buf)) {
		bp->desc[buf].refcount--;
		return result;
	}
	bp->desc[buf].refcount--;
	pg_schedule_writeback(p, blk);
	return result | BUF_WRITTEN;
}

/* ---- BufferSync (the checkpoint's writes) ------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t pg_buffer_sync(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	uint64_t *keys = pg->ckpt.sort_keys, written = 0;
	unsigned long last_page = ~0UL;
	uint32_t n = 0, lg = 0;

	sim_path_push(pg->sim, "BufferSync");
	for (uint32_t buf = 0; buf < bp->nbuffers; buf++) {
		unsigned long page = pg_buf_desc_addr(pg, buf) >> PAGE_SHIFT;

		if (page != last_page) {
			pg_touch(p, page << PAGE_SHIFT, true);
			last_page = page;
		}
		if (bp->desc[buf].state & BM_DIRTY) {
			bp->desc[buf].state |= BM_CHECKPOINT_NEEDED;
			keys[n++] = (uint64_t)bp->desc[buf].tag << 32 | buf;
		}
	}
	sim_charge_cost(pg->sim, COST_pg_ckpt_scan, bp->nbuffers);
	/* sort_checkpoint_bufferids: CkptBufferIds in shared memory */
	for (uint32_t k = n; k > 1; k >>= 1)
		lg++;
	qsort(keys, n, sizeof(*keys), cmp_u64);
	sim_charge_cost(pg->sim, COST_pg_ckpt_sort, (uint64_t)n * (lg + 1));
	for (unsigned long off = 0; off < (unsigned long)n * 20; off += PAGE_SIZE)
		pg_touch(p, pg->shm_base + pg->off_ckpt + off, true);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t buf = (uint32_t)keys[i];

		pg_touch(p, pg_buf_desc_addr(pg, buf), true);
		if ((bp->desc[buf].state & BM_CHECKPOINT_NEEDED) &&
		    (pg_sync_one_buffer(p, buf, false) & BUF_WRITTEN))
			written++;
		/* CheckpointWriteDelay */
		if (pg_checkpoint_on_schedule(pg, (double)(i + 1) / n)) {
			sim_path_push(pg->sim, "CheckpointWriteDelay");
			sim_sleep(pg->sim, PG_CHECKPOINT_NAP_NS);
			sim_path_pop(pg->sim);
		}
	}
	pg_issue_pending_writebacks(p);
	sim_path_pop(pg->sim);
	return written;
}

/* ---- BgBufferSync (one bgwriter round) ---------------------------------------------- */

#define BGW_SMOOTHING_SAMPLES	16	/* smoothing_samples */
#define BGW_SCAN_WHOLE_POOL_MS	120000	/* scan_whole_pool_milliseconds */

bool pg_bg_buffer_sync(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_bufpool *bp = &pg->bp;
	struct pg_bgw *g = &pg->bgw;
	int64_t n = bp->nbuffers;
	int64_t strategy_buf_id = (int64_t)(bp->next_victim % bp->nbuffers);
	uint64_t strategy_passes = bp->next_victim / bp->nbuffers;
	uint64_t recent_alloc = bp->num_allocs;	/* StrategySyncStart resets the count */
	int64_t strategy_delta = 0, bufs_to_lap, bufs_ahead, num_to_scan, num_written = 0;
	double reusable_buffers_est, upcoming_alloc_est, min_scan_buffers, reusable_buffers;
	uint64_t delay_ms = pg->cfg.bgwriter_delay / SIM_NSEC_PER_MSEC;
	unsigned long last_page = ~0UL;

	bp->num_allocs = 0;
	if (pg->cfg.bgwriter_lru_maxpages == 0) {
		g->saved_info_valid = false;
		return true;
	}
	if (g->saved_info_valid) {
		int64_t passes_delta = (int64_t)(strategy_passes - g->prev_strategy_passes);

		strategy_delta = strategy_buf_id - g->prev_strategy_buf_id + passes_delta * n;
		if ((int64_t)(g->next_passes - strategy_passes) > 0) {
			bufs_to_lap = strategy_buf_id - g->next_to_clean;	/* a lap ahead */
		} else if (g->next_passes == strategy_passes && g->next_to_clean >= strategy_buf_id) {
			bufs_to_lap = n - (g->next_to_clean - strategy_buf_id);
		} else {				/* behind: start at the hand */
			g->next_to_clean = strategy_buf_id;
			g->next_passes = strategy_passes;
			bufs_to_lap = n;
		}
	} else {
		strategy_delta = 0;
		g->next_to_clean = strategy_buf_id;
		g->next_passes = strategy_passes;
		bufs_to_lap = n;
	}
	g->prev_strategy_buf_id = strategy_buf_id;
	g->prev_strategy_passes = strategy_passes;
	g->saved_info_valid = true;
	if (strategy_delta > 0 && recent_alloc > 0) {
		double scans_per_alloc = (double)strategy_delta / (double)recent_alloc;

		g->smoothed_density += (scans_per_alloc - g->smoothed_density) / BGW_SMOOTHING_SAMPLES;
	}
	bufs_ahead = n - bufs_to_lap;
	reusable_buffers_est = (double)bufs_ahead / g->smoothed_density;
	if (g->smoothed_alloc <= (double)recent_alloc)
		g->smoothed_alloc = (double)recent_alloc;
	else
		g->smoothed_alloc += ((double)recent_alloc - g->smoothed_alloc) / BGW_SMOOTHING_SAMPLES;
	upcoming_alloc_est = g->smoothed_alloc * pg->lru_multiplier;
	if (upcoming_alloc_est == 0)
		g->smoothed_alloc = 0;
	min_scan_buffers = (double)n / (BGW_SCAN_WHOLE_POOL_MS / (double)(delay_ms ? delay_ms : 1));
	if (upcoming_alloc_est < min_scan_buffers + reusable_buffers_est)
		upcoming_alloc_est = min_scan_buffers + reusable_buffers_est;
	num_to_scan = bufs_to_lap;
	reusable_buffers = reusable_buffers_est;
	sim_path_push(pg->sim, "BgBufferSync");
	while (num_to_scan > 0 && reusable_buffers < upcoming_alloc_est) {
		uint32_t buf = (uint32_t)g->next_to_clean;
		unsigned long page = pg_buf_desc_addr(pg, buf) >> PAGE_SHIFT;
		int sync_state;

		if (page != last_page) {
			pg_touch(p, page << PAGE_SHIFT, true);
			last_page = page;
		}
		sim_charge_cost(pg->sim, COST_pg_bgwriter_scan, 1);
		sync_state = pg_sync_one_buffer(p, buf, true);
		if (++g->next_to_clean >= n) {
			g->next_to_clean = 0;
			g->next_passes++;
		}
		num_to_scan--;
		if (sync_state & BUF_WRITTEN) {
			reusable_buffers++;
			g->written++;
			if (++num_written >= (int64_t)pg->cfg.bgwriter_lru_maxpages)
				break;
		} else if (sync_state & BUF_REUSABLE) {
			reusable_buffers++;
		}
	}
	sim_path_pop(pg->sim);
	{
		int64_t new_strategy_delta = bufs_to_lap - num_to_scan;
		double new_recent_alloc = reusable_buffers - reusable_buffers_est;

		if (new_strategy_delta > 0 && new_recent_alloc > 0) {
			double scans_per_alloc = (double)new_strategy_delta / new_recent_alloc;

			g->smoothed_density += (scans_per_alloc - g->smoothed_density) / BGW_SMOOTHING_SAMPLES;
		}
	}
	g->rounds++;
	return bufs_to_lap == 0 && recent_alloc == 0;
}
