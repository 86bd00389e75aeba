/* SPDX-License-Identifier: MIT */
/*
 * pg_xlog.c — PostgreSQL's write-ahead log (PostgreSQL 17:
 * src/backend/access/transam/xlog.c, xloginsert.c, postmaster/walwriter.c,
 * common/file_utils.c).
 *
 * Positions are LSNs: byte offsets in the WAL stream, page headers
 * included (24 bytes per 8 KiB page, 40 on a segment's first page).
 *
 *   insert        end of the last reserved record (CurrBytePos)
 *   rqst_write    the last completed page boundary (LogwrtRqst.Write)
 *   write, flush  LogwrtResult: written / fdatasync'ed up to here
 *
 * wal_buffers is a ring of nslots 8 KiB pages: WAL page P lives in slot
 * P % nslots, and a record may only go into page P once page P - nslots
 * has been written (AdvanceXLInsertBuffer; if not, the inserter takes
 * WALWriteLock and writes it itself).
 *
 * XLogFlush(lsn) — group commit:
 *   1. flushed already?  done.
 *   2. LWLockAcquireOrWait(WALWriteLock): if it is held, sleep until it is
 *      released (without taking it) and go to 1: the holder's flush
 *      probably covered this record;
 *   3. got it: recheck, then XLogWrite up to the current insert position
 *      (everything reserved so far, all the waiting backends' commit
 *      records with it) and fdatasync; release, waking every sleeper.
 *
 * XLogWrite(upto): from the page holding `write` (a partial page is
 * written again) to the page holding upto - 1, one pwrite per contiguous
 * run, a run ending at the end of the ring or of a segment; a finished
 * segment is fdatasync'ed at once.  Opening a segment that does not exist
 * creates it (XLogFileInit): with wal_init_zero the whole segment is
 * written with zeroes in 256 KiB pwritev calls (pg_pwrite_zeros:
 * PG_IOV_MAX = 32 blocks of 8 KiB) and fsync'ed, under WALWriteLock.
 * Recycled segments (renamed old files) keep their page-cache pages, which
 * then need no allocation when written again.
 *
 * Full-page images: a change to a page whose last change happened before
 * the latest checkpoint's REDO point logs the whole page.  The model keeps
 * per database block the checkpoint epoch of its last change (blk_epoch);
 * the REDO point bumps the epoch, so the decay of FPIs after a checkpoint
 * comes from which pages have been touched since, not from a formula.
 *
 * Checkpoint side (called by pg_aux.c): the REDO point, the checkpoint
 * record, UpdateCheckPointDistanceEstimate, RemoveOldXlogFiles with
 * XLOGfileslop (recycle by rename up to the estimated need, between
 * min_wal_size and max_wal_size; unlink the rest), PreallocXlogFiles.
 *
 * AdvanceXLInsertBuffer runs under WALBufMappingLock (PostgreSQL 17; 18
 * replaced it with a lock-free scheme): one backend at a time waits for
 * WALWriteLock to write the page its ring slot still holds.
 *
 * Simplifications: no WAL insertion locks (records are reserved and
 * copied in one inline step: WaitXLogInsertionsToFinish never waits);
 * records are not split into chunks across the ring wait (the ring space
 * for a record is secured before it is reserved); XLogWrite writes the
 * whole request even when flexible; the rename's directory fsync is
 * approximated by fsyncing the file twice (durable_rename: old and new
 * name); the control file update is not modelled; no archiving, no
 * walsenders, no async commit (synchronous_commit=off only skips the
 * flush wait).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/types.h"
#include "workload/pg_internal.h"

#define PG_ZERO_CHUNK		(32u * PG_XLOG_BLCKSZ)	/* pg_pwrite_zeros: PG_IOV_MAX blocks */
#define PG_CHECKPOINT_RECORD	112u	/* XLOG_CHECKPOINT_ONLINE: header + CheckPoint */
#define PG_REDO_RECORD		32u	/* XLOG_CHECKPOINT_REDO (PostgreSQL 17) */

static void seg_reserve(struct pg_xlog *x, uint64_t segno)
{
	uint64_t cap = x->nseg;

	if (segno < cap)
		return;
	while (cap <= segno)
		cap = cap ? cap * 2 : 64;
	x->seg = realloc(x->seg, cap * sizeof(*x->seg));
	if (!x->seg)
		SIM_BUG("out of memory for WAL segments");
	memset(x->seg + x->nseg, 0, (cap - x->nseg) * sizeof(*x->seg));
	x->nseg = cap;
}

static struct inode *seg_file(const struct pg_xlog *x, uint64_t segno)
{
	return segno < x->nseg ? x->seg[segno] : NULL;
}

static struct inode *seg_create(struct pg *pg, uint64_t segno, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "pg_wal/%s%08llX%016llX", what, 1ULL, (unsigned long long)segno);
	return fs_create(pg->sb, name);
}

/* A segment file as a previous run left it: full size, allocated, clean,
 * and wal_cached ppm of its 8 KiB pages in the page cache (a
 * deterministic choice per page, as data_cached's; 8 KiB folios, where
 * the writes that left them may have made larger ones). */
static int seg_existing(struct pg *pg, uint64_t segno)
{
	struct pg_xlog *x = &pg->xlog;
	struct inode *inode = seg_create(pg, segno, "");
	uint64_t ppm = pg->cfg.wal_cached;
	struct fs_extent ext;

	if (fs_iomap_begin(pg->m, inode, 0, x->seg_size, true, &ext))
		return -ENOSPC;
	inode->i_size = x->seg_size;
	inode->i_state = 0;
	seg_reserve(x, segno);
	x->seg[segno] = inode;
	for (uint64_t pg_no = 0; ppm && pg_no < x->seg_pages; pg_no++) {
		if (ppm < 1000000 && rng_below(&pg->init_rng, 1000000) >= ppm)
			continue;
		if (!pg_prewarm_block(pg, inode, (unsigned long)(pg_no * (PG_XLOG_BLCKSZ / PAGE_SIZE))))
			return -ENOMEM;
	}
	return 0;
}

/* The segments `bytes` of WAL take, a partial one counted whole. */
static uint64_t wal_segments(uint64_t bytes, uint64_t seg)
{
	return (bytes + seg - 1) / seg;
}

uint64_t pg_wal_start_segments(const struct pg_config *c)
{
	return wal_segments(c->wal_recycled, c->wal_segment_size) +
	       wal_segments(c->wal_since_redo, c->wal_segment_size);
}

int pg_xlog_init(struct pg *pg)
{
	struct pg_xlog *x = &pg->xlog;
	const struct pg_config *c = &pg->cfg;
	uint64_t recycled = c->wal_recycled / c->wal_segment_size;
	uint64_t past = wal_segments(c->wal_since_redo, c->wal_segment_size);
	double segs;

	x->seg_size = c->wal_segment_size;
	x->seg_pages = x->seg_size / PG_XLOG_BLCKSZ;
	x->nslots = (uint32_t)(c->wal_buffers / PG_XLOG_BLCKSZ);
	/* the run starts at the beginning of segment 1 + past, wal_since_redo
	 * after the REDO point of the last checkpoint (just after it when 0);
	 * segments 1 .. past hold that WAL, written and synced before */
	x->insert = x->rqst_write = x->write = x->flush = (1 + past) * x->seg_size;
	x->redo = x->prior_redo = x->insert - c->wal_since_redo;
	x->epoch = 1;		/* every page's last change predates it */
	x->open_seg = UINT64_MAX;
	x->oldest_seg = 1;
	segs = (double)(c->max_wal_size / c->wal_segment_size) /
	       (1.0 + (double)c->checkpoint_completion_target / 1e6);	/* CalculateCheckpointSegments */
	x->ckpt_segments = segs < 1 ? 1 : (uint64_t)segs;
	pg_lwlock_init(&x->write_lock, pg, "WALWriteLock");
	pg_lwlock_init(&x->buf_mapping_lock, pg, "WALBufMappingLock");
	for (unsigned int k = 0; k < PG_XLOG_INSERT_LOCKS; k++)
		pg_lwlock_init(&x->insert_locks[k], pg, "WALInsertLock");
	for (uint64_t s = 1; s <= 1 + past + recycled; s++) {
		int err = seg_existing(pg, s);

		if (err)
			return err;
	}
	return 0;
}

void pg_xlog_release(struct pg *pg)
{
	free(pg->xlog.seg);
	pg->xlog.seg = NULL;
	pg->xlog.nseg = 0;
}

uint64_t pg_xlog_advance(const struct pg_xlog *x, uint64_t pos, uint64_t len)
{
	while (len) {
		uint64_t room, n;

		if (pos % PG_XLOG_BLCKSZ == 0)
			pos += pos % x->seg_size == 0 ? PG_XLOG_LONG_PHD : PG_XLOG_SHORT_PHD;
		room = PG_XLOG_BLCKSZ - pos % PG_XLOG_BLCKSZ;
		n = room < len ? room : len;
		pos += n;
		len -= n;
	}
	return pos;
}

/* ---- LWLocks (lwlock.c) ------------------------------------------------------------- */

/* An LWLock's wait event: its tranche's name, under LWLock. */
static enum pg_wait_event lwlock_wait_event(const char *name)
{
	static const struct { const char *lock; enum pg_wait_event ev; } tranche[] = {
		{ "WALWriteLock", PG_WAIT_LWLOCK_WALWRITE },
		{ "WALInsertLock", PG_WAIT_LWLOCK_WALINSERT },
		{ "WALBufMappingLock", PG_WAIT_LWLOCK_WALBUFMAPPING },
		{ "BufferMapping", PG_WAIT_LWLOCK_BUFFERMAPPING },
		{ "ProcArrayLock", PG_WAIT_LWLOCK_PROCARRAY },
	};

	for (size_t i = 0; i < sizeof(tranche) / sizeof(tranche[0]); i++)
		if (!strcmp(name, tranche[i].lock))
			return tranche[i].ev;
	SIM_BUG("LWLock '%s' has no wait event", name);
}

void pg_lwlock_init(struct pg_lwlock *l, struct pg *pg, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->pg = pg;
	l->wait_event = (uint8_t)lwlock_wait_event(name);
	sim_waitq_init(&l->excl, name);
	sim_waitq_init(&l->until_free, name);
	sim_waitq_init(&l->shq, name);
}

static void lwlock_take(struct sim *sim, struct pg_lwlock *l)
{
	l->holder = sim_task_id(sim_current(sim)) + 1;
	l->acquired_at = sim_now(sim);
	l->acquisitions++;
}

void pg_lwlock_acquire(struct sim *sim, struct pg_lwlock *l)
{
	sim_sync(sim);
	if (l->holder || l->shared) {
		sim_time_t t0 = sim_now(sim);
		struct pg_proc *me = pg_my_backend(l->pg);

		l->contended++;
		pgstat_report_wait_start(me, l->wait_event);
		while (l->holder || l->shared)
			sim_wait(sim, &l->excl, SIM_TIME_NEVER);
		pgstat_report_wait_end(me);
		l->wait_ns += sim_now(sim) - t0;
	}
	lwlock_take(sim, l);
}

bool pg_lwlock_conditional_acquire(struct sim *sim, struct pg_lwlock *l)
{
	sim_sync(sim);
	if (l->holder || l->shared)
		return false;
	lwlock_take(sim, l);
	return true;
}

bool pg_lwlock_acquire_or_wait(struct sim *sim, struct pg_lwlock *l)
{
	sim_time_t t0;
	struct pg_proc *me;

	sim_sync(sim);
	if (!l->holder && !l->shared) {
		lwlock_take(sim, l);
		return true;
	}
	l->contended++;
	t0 = sim_now(sim);
	me = pg_my_backend(l->pg);
	pgstat_report_wait_start(me, l->wait_event);
	sim_wait(sim, &l->until_free, SIM_TIME_NEVER);
	pgstat_report_wait_end(me);
	l->wait_ns += sim_now(sim) - t0;
	return false;
}

/* The lock became free: LWLockWakeup as the model keeps it (struct
 * pg_lwlock).  With no shared sleepers this is what the exclusive-only
 * lock always did: one exclusive sleeper, every LW_WAIT_UNTIL_FREE one. */
static void lwlock_wakeup(struct sim *sim, struct pg_lwlock *l)
{
	if (sim_waitq_active(&l->shq))
		sim_wake_all(sim, &l->shq);
	else
		sim_wake_one(sim, &l->excl);
	sim_wake_all(sim, &l->until_free);
}

void pg_lwlock_release(struct sim *sim, struct pg_lwlock *l)
{
	sim_sync(sim);
	SIM_ASSERT(l->holder == sim_task_id(sim_current(sim)) + 1);
	l->hold_ns += sim_now(sim) - l->acquired_at;
	l->holder = 0;
	lwlock_wakeup(sim, l);
}

void pg_lwlock_acquire_shared(struct sim *sim, struct pg_lwlock *l)
{
	sim_sync(sim);
	if (l->holder) {
		sim_time_t t0 = sim_now(sim);
		struct pg_proc *me = pg_my_backend(l->pg);

		l->contended++;
		pgstat_report_wait_start(me, l->wait_event);
		while (l->holder)
			sim_wait(sim, &l->shq, SIM_TIME_NEVER);
		pgstat_report_wait_end(me);
		l->wait_ns += sim_now(sim) - t0;
	}
	l->shared++;
	l->acquisitions++;
}

void pg_lwlock_release_shared(struct sim *sim, struct pg_lwlock *l)
{
	sim_sync(sim);
	SIM_ASSERT(l->shared > 0 && !l->holder);
	if (--l->shared == 0)
		lwlock_wakeup(sim, l);
}

static void write_lock_release(struct pg *pg)
{
	pg_lwlock_release(pg->sim, &pg->xlog.write_lock);
}

static void count_write(struct pg_xlog *x, uint64_t bytes)
{
	uint64_t pages = bytes / PG_XLOG_BLCKSZ;
	unsigned int k = 0;

	while (pages > 1 && k < 15) {
		pages >>= 1;
		k++;
	}
	x->write_hist[k]++;
	x->writes++;
	x->write_bytes += bytes;
}

/* durable_rename(): fsync the file under its old and its new name (the
 * directory's fsync is folded into the second). */
static void durable_rename(struct pg *pg, struct inode *inode)
{
	vfs_fsync(pg->m, inode, false);
	vfs_fsync(pg->m, inode, false);
}

/*
 * XLogFileInitInternal() + InstallXLogFileSegment(find_free): create a
 * new segment (zero-filled with wal_init_zero) and install it as the
 * first free segment number >= segno (and <= max_segno).  Returns the
 * segment number it got, or UINT64_MAX (nothing free: the file is
 * unlinked again).
 */
static uint64_t xlog_file_create(struct pg_proc *p, uint64_t segno, uint64_t max_segno)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	struct inode *inode = seg_create(pg, segno, "xlogtemp.");

	sim_path_push(pg->sim, "XLogFileInit");
	if (pg->cfg.wal_init_zero) {
		sim_path_push(pg->sim, "pg_pwrite_zeros");
		for (uint64_t off = 0; off < x->seg_size; off += PG_ZERO_CHUNK) {
			uint64_t n = x->seg_size - off < PG_ZERO_CHUNK ? x->seg_size - off : PG_ZERO_CHUNK;

			pgstat_report_wait_start(p, PG_WAIT_IO_WALINITWRITE);
			if (ksys_pwrite64(pg->m, inode, off, n) < 0)
				p->st.write_errors++;
			pgstat_report_wait_end(p);
		}
		sim_path_pop(pg->sim);
	} else {
		pgstat_report_wait_start(p, PG_WAIT_IO_WALINITWRITE);
		if (ksys_pwrite64(pg->m, inode, x->seg_size - 1, 1) < 0)
			p->st.write_errors++;
		pgstat_report_wait_end(p);
	}
	pgstat_report_wait_start(p, PG_WAIT_IO_WALINITSYNC);
	vfs_fsync(pg->m, inode, false);		/* pg_fsync */
	pgstat_report_wait_end(p);
	x->segs_zeroed++;
	while (segno <= max_segno && seg_file(x, segno))
		segno++;
	if (segno > max_segno) {
		do_unlinkat(pg->m, inode);
		segno = UINT64_MAX;
	} else {
		durable_rename(pg, inode);
		seg_reserve(x, segno);
		x->seg[segno] = inode;
	}
	sim_path_pop(pg->sim);
	return segno;
}

/* The open segment file for `segno` (XLogWrite's XLogFileInit/open). */
static struct inode *xlog_open_seg(struct pg_proc *p, uint64_t segno)
{
	struct pg_xlog *x = &p->pg->xlog;

	if (segno == x->open_seg)
		return x->seg[segno];
	/* XLogFileClose: wal_level=replica keeps the pages cached (no fadvise) */
	x->open_seg = segno;
	if (!seg_file(x, segno))
		xlog_file_create(p, segno, segno);
	/* (a concurrent PreallocXlogFiles may have installed it first) */
	SIM_ASSERT(seg_file(x, segno));
	x->segs_opened++;
	return x->seg[segno];
}

/* XLogCheckpointNeeded() after finishing segment `segno`. */
static void xlog_checkpoint_needed(struct pg *pg, uint64_t segno)
{
	struct pg_xlog *x = &pg->xlog;

	if (segno >= x->redo / x->seg_size + (x->ckpt_segments ? x->ckpt_segments - 1 : 0))
		pg_request_checkpoint(pg);
}

/* issue_xlog_fsync(): fdatasync the segment (wal_sync_method's default
 * on Linux), timed as track_wal_io_timing times it (pg_stat_wal). */
static void issue_xlog_fsync(struct pg_proc *p, struct inode *inode)
{
	struct pg *pg = p->pg;
	sim_time_t t0 = sim_now(pg->sim);

	pgstat_report_wait_start(p, PG_WAIT_IO_WALSYNC);
	vfs_fsync(pg->m, inode, true);
	pgstat_report_wait_end(p);
	pg->xlog.sync_ns += sim_now(pg->sim) - t0;
	pg->xlog.fsyncs++;
}

/*
 * XLogWrite(): write [write, upto) and, when `flush`, fdatasync.  The
 * caller holds WALWriteLock.
 */
static void xlog_write(struct pg_proc *p, uint64_t upto, bool flush)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	sim_time_t t0;

	sim_path_push(pg->sim, "XLogWrite");
	while (x->write < upto) {
		uint64_t page = x->write / PG_XLOG_BLCKSZ;
		uint64_t segno = x->write / x->seg_size;
		uint64_t last = (upto - 1) / PG_XLOG_BLCKSZ;
		uint64_t ring_end = page - page % x->nslots + x->nslots - 1;
		uint64_t seg_end = (segno + 1) * x->seg_pages - 1;
		uint64_t run_last = last < ring_end ? last : ring_end;
		uint64_t off = (page % x->seg_pages) * PG_XLOG_BLCKSZ, bytes;
		struct inode *inode;

		if (seg_end < run_last)
			run_last = seg_end;
		bytes = (run_last - page + 1) * PG_XLOG_BLCKSZ;
		inode = xlog_open_seg(p, segno);
		/* the kernel reads the pages from wal_buffers */
		for (uint64_t q = page; q <= run_last; q++) {
			unsigned long a = pg->shm_base + pg->off_xlog + (q % x->nslots) * PG_XLOG_BLCKSZ;

			pg_touch(p, a, false);
			pg_touch(p, a + PAGE_SIZE, false);
		}
		if (pg->on_wal_write)
			pg->on_wal_write(p, segno, off, bytes);
		t0 = sim_now(pg->sim);
		pgstat_report_wait_start(p, PG_WAIT_IO_WALWRITE);
		if (ksys_pwrite64(pg->m, inode, off, bytes) < 0)
			p->st.write_errors++;
		pgstat_report_wait_end(p);
		x->write_ns += sim_now(pg->sim) - t0;
		count_write(x, bytes);
		x->write = (run_last + 1) * PG_XLOG_BLCKSZ < upto ? (run_last + 1) * PG_XLOG_BLCKSZ : upto;
		if (run_last == seg_end && x->write == (run_last + 1) * PG_XLOG_BLCKSZ) {
			/* finishing_seg: fsync it now */
			issue_xlog_fsync(p, inode);
			if (x->flush < x->write)
				x->flush = x->write;
			xlog_checkpoint_needed(pg, segno);
		}
	}
	if (flush && x->flush < x->write) {
		issue_xlog_fsync(p, xlog_open_seg(p, (x->write - 1) / x->seg_size));
		x->flush = x->write;
	}
	sim_path_pop(pg->sim);
}

/* XLogInsertRecord(): reserve and copy; *startp gets the record's start. */
/*
 * WALInsertLockAcquire (xlog.c, PostgreSQL 15-17), with [pgbench] locks:
 * the process takes the insertion lock it used last (first
 * pgprocno % NUM_XLOGINSERT_LOCKS) and, if it had to wait, tries the next
 * one next time.  It holds it over the reservation and the copy into
 * wal_buffers, whose first touches of buffer pages fault with it held.
 */
static unsigned int insert_lock_acquire(struct pg_proc *p)
{
	struct pg_xlog *x = &p->pg->xlog;
	unsigned int k = p->lock_to_try;
	bool immed = !x->insert_locks[k].holder;

	pg_lwlock_acquire(p->pg->sim, &x->insert_locks[k]);
	if (!immed)
		p->lock_to_try = (k + 1) % PG_XLOG_INSERT_LOCKS;
	x->inserting_at[k] = 0;
	return k;
}

static void insert_lock_release(struct pg *pg, unsigned int k)
{
	pg->xlog.inserting_at[k] = 0;
	pg_lwlock_release(pg->sim, &pg->xlog.insert_locks[k]);
}

/* WALInsertLockUpdateInsertingAt: an inserter about to wait publishes how
 * far it got, so flushers need not wait for it (the deadlock the kernel of
 * this protocol avoids when the inserter itself needs WALWriteLock). */
static void insert_lock_update(struct pg *pg, int k, uint64_t at)
{
	if (k < 0)
		return;
	pg->xlog.inserting_at[k] = at;
	sim_wake_all(pg->sim, &pg->xlog.insert_locks[k].until_free);
}

/*
 * WaitXLogInsertionsToFinish(upto): wait until every insertion below
 * `upto` is copied — for each insertion lock, until it is free or its
 * holder published a position at or past `upto` — and return the position
 * up to which the WAL is complete.  Without [pgbench] locks, insertion
 * happens in one step and nothing is ever in flight.
 */
static uint64_t wait_insertions_to_finish(struct pg *pg, uint64_t upto)
{
	struct pg_xlog *x = &pg->xlog;
	struct pg_proc *me;
	uint64_t finished;

	if (upto > x->insert)
		upto = x->insert;
	finished = upto;
	if (!pg->cfg.locks)
		return finished;
	me = pg_my_backend(pg);
	for (unsigned int k = 0; k < PG_XLOG_INSERT_LOCKS; k++) {
		struct pg_lwlock *l = &x->insert_locks[k];

		for (;;) {	/* sync before the test: sim_wait may preempt before queueing */
			sim_sync(pg->sim);
			if (!l->holder || (x->inserting_at[k] && x->inserting_at[k] >= upto))
				break;
			x->insert_waits++;
			/* LWLockWaitForVar: under the lock's tranche, WALInsert */
			pgstat_report_wait_start(me, l->wait_event);
			sim_wait(pg->sim, &l->until_free, SIM_TIME_NEVER);
			pgstat_report_wait_end(me);
		}
		if (l->holder && x->inserting_at[k] && x->inserting_at[k] < finished)
			finished = x->inserting_at[k];
	}
	return finished;
}

static uint64_t xlog_insert(struct pg_proc *p, uint32_t len, uint64_t *startp)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	const struct cost_table *ct = sim_costs(pg->sim);
	uint64_t start, end;
	int lock = -1;

	len = (len + 7) & ~7u;			/* MAXALIGN */
	if (pg->cfg.locks) {
		uint64_t rec = cost_ns(ct, COST_pg_xlog_record, 1), hold = cost_ns(ct, COST_pg_insertpos_hold, 1);

		lock = (int)insert_lock_acquire(p);
		sim_charge(pg->sim, rec > hold ? rec - hold : 0);
	} else {
		sim_charge_cost(pg->sim, COST_pg_xlog_record, 1);
	}
	sim_charge(pg->sim, (ct->ps[COST_pg_xlog_copy] * len / 1024 + 500) / 1000);
	for (;;) {
		uint64_t last_page, need;

		/* ReserveXLogInsertLocation: the record's place under
		 * insertpos_lck, a PostgreSQL spinlock ([pgbench] locks).
		 * PostgreSQL reserves first and waits for a full wal_buffers
		 * page later, in GetXLogBuffer; the model reserves only once
		 * the page is free, giving the lock up while it waits. */
		if (pg->cfg.locks) {
			pg_s_lock(p, &x->insertpos_lck);
			sim_charge_cost(pg->sim, COST_pg_insertpos_hold, 1);
		}
		start = x->insert;
		end = pg_xlog_advance(x, start, len);
		last_page = (end - 1) / PG_XLOG_BLCKSZ;
		if (last_page < x->nslots)
			break;
		need = (last_page + 1 - x->nslots) * PG_XLOG_BLCKSZ;	/* OldPageRqstPtr */
		if (x->write >= need)
			break;
		if (pg->cfg.locks)
			pg_s_unlock(p, &x->insertpos_lck);
		/* AdvanceXLInsertBuffer: the ring slot still holds an unwritten
		 * page; one backend at a time (WALBufMappingLock) writes it
		 * under WALWriteLock, unless someone wrote it meanwhile */
		x->buffer_full_waits++;
		insert_lock_update(pg, lock, start);
		sim_path_push(pg->sim, "AdvanceXLInsertBuffer");
		pg_lwlock_acquire(pg->sim, &x->buf_mapping_lock);
		if (x->write < need) {
			pg_lwlock_acquire(pg->sim, &x->write_lock);
			if (x->write < need) {
				xlog_write(p, need, false);
				x->buffers_full++;	/* pg_stat_wal's wal_buffers_full */
			}
			write_lock_release(pg);
		}
		pg_lwlock_release(pg->sim, &x->buf_mapping_lock);
		sim_path_pop(pg->sim);
	}
	x->insert = end;
	if (pg->cfg.locks)
		pg_s_unlock(p, &x->insertpos_lck);
	if (end / PG_XLOG_BLCKSZ != start / PG_XLOG_BLCKSZ) {
		uint64_t done = end / PG_XLOG_BLCKSZ * PG_XLOG_BLCKSZ;

		if (x->rqst_write < done)
			x->rqst_write = done;
	}
	/* CopyXLogRecordToWAL writes the record into wal_buffers */
	for (uint64_t a = start & ~(uint64_t)(PAGE_SIZE - 1); a < end; a += PAGE_SIZE) {
		uint64_t page = a / PG_XLOG_BLCKSZ;

		pg_touch(p, pg->shm_base + pg->off_xlog + (page % x->nslots) * PG_XLOG_BLCKSZ +
			 a % PG_XLOG_BLCKSZ, true);
	}
	if (lock >= 0)
		insert_lock_release(pg, (unsigned int)lock);
	x->records++;
	x->bytes += len;
	if (startp)
		*startp = start % PG_XLOG_BLCKSZ ? start :
			  start + (start % x->seg_size ? PG_XLOG_SHORT_PHD : PG_XLOG_LONG_PHD);
	return end;
}

uint64_t pg_xlog_insert(struct pg_proc *p, uint32_t len)
{
	return xlog_insert(p, len, NULL);
}

void pg_xlog_flush(struct pg_proc *p, uint64_t lsn)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;

	if (lsn <= x->flush)
		return;
	x->flush_calls++;
	sim_path_push(pg->sim, "XLogFlush");
	while (lsn > x->flush) {
		uint64_t target, insertpos = 0;

		if (pg->cfg.locks)	/* before WALWriteLock, as XLogFlush does */
			insertpos = wait_insertions_to_finish(pg, lsn > x->rqst_write ? lsn : x->rqst_write);
		if (!pg_lwlock_acquire_or_wait(pg->sim, &x->write_lock))
			continue;	/* the holder released it: recheck */
		if (lsn <= x->flush) {
			write_lock_release(pg);
			break;
		}
		/* without locks every insertion is complete: all of it */
		target = pg->cfg.locks ? insertpos : x->insert;
		if (target <= x->flush) {	/* flushed by another meanwhile: recheck */
			write_lock_release(pg);
			continue;
		}
		xlog_write(p, target, true);
		x->leader_flushes++;
		write_lock_release(pg);
	}
	sim_path_pop(pg->sim);
}

bool pg_xlog_background_flush(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	uint64_t target = x->rqst_write - x->rqst_write % PG_XLOG_BLCKSZ;
	uint64_t flush_after = pg->cfg.wal_writer_flush_after / PG_XLOG_BLCKSZ;
	sim_time_t now = sim_now(pg->sim);
	bool flush;

	if (target <= x->flush)
		return false;
	if (!flush_after || !x->walwriter_last_flush)
		flush = true;
	else if (now - x->walwriter_last_flush >= pg->cfg.wal_writer_delay)
		flush = true;
	else
		flush = target / PG_XLOG_BLCKSZ - x->flush / PG_XLOG_BLCKSZ >= flush_after;
	if (flush)
		x->walwriter_last_flush = now;
	sim_path_push(pg->sim, "XLogBackgroundFlush");
	if (pg->cfg.locks)
		target = wait_insertions_to_finish(pg, target);
	pg_lwlock_acquire(pg->sim, &x->write_lock);
	if (target > x->write || (flush && target > x->flush))
		xlog_write(p, target, flush);
	write_lock_release(pg);
	sim_path_pop(pg->sim);
	return true;
}

/* ---- checkpoints --------------------------------------------------------------- */

void pg_xlog_set_redo(struct pg_proc *p)
{
	struct pg_xlog *x = &p->pg->xlog;
	uint64_t start;

	/* PostgreSQL 17: RedoRecPtr is where XLOG_CHECKPOINT_REDO starts */
	xlog_insert(p, PG_REDO_RECORD, &start);
	x->redo = start;
	x->epoch++;
}

uint64_t pg_xlog_recycle_segno(const struct pg *pg, uint64_t redo)
{
	const struct pg_xlog *x = &pg->xlog;
	uint64_t seg = x->seg_size;
	uint64_t min_segs = pg->cfg.min_wal_size / seg, max_segs = pg->cfg.max_wal_size / seg;
	uint64_t minseg = redo / seg + (min_segs ? min_segs - 1 : 0);
	uint64_t maxseg = redo / seg + (max_segs ? max_segs - 1 : 0);
	double distance = (1.0 + (double)pg->cfg.checkpoint_completion_target / 1e6) *
			  x->distance_estimate * 1.10;
	uint64_t recycle = (uint64_t)ceil(((double)redo + distance) / (double)seg);

	if (recycle < minseg)
		recycle = minseg;
	if (recycle > maxseg)
		recycle = maxseg;
	return recycle;
}

/* RemoveXlogFile(): recycle the segment into a future name, or unlink it. */
static void remove_xlog_file(struct pg_proc *p, uint64_t segno, uint64_t recycle_segno,
			     uint64_t *endlogsegno)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	struct inode *inode = x->seg[segno];

	x->seg[segno] = NULL;
	if (x->open_seg == segno)
		x->open_seg = UINT64_MAX;
	if (pg->cfg.wal_recycle && *endlogsegno <= recycle_segno) {
		while (*endlogsegno <= recycle_segno && seg_file(x, *endlogsegno))
			(*endlogsegno)++;
		if (*endlogsegno <= recycle_segno) {
			durable_rename(pg, inode);
			seg_reserve(x, *endlogsegno);
			x->seg[*endlogsegno] = inode;
			(*endlogsegno)++;
			x->segs_recycled++;
			return;
		}
	}
	do_unlinkat(pg->m, inode);
	x->segs_removed++;
}

void pg_xlog_checkpoint_done(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_xlog *x = &pg->xlog;
	uint64_t end, nbytes, redo_seg, recycle, endlogsegno;

	end = pg_xlog_insert(p, PG_CHECKPOINT_RECORD);
	pg_xlog_flush(p, end);
	/* UpdateCheckPointDistanceEstimate(RedoRecPtr - PriorRedoPtr) */
	nbytes = x->redo - x->prior_redo;
	if (x->distance_estimate < (double)nbytes)
		x->distance_estimate = (double)nbytes;
	else
		x->distance_estimate = 0.90 * x->distance_estimate + 0.10 * (double)nbytes;
	x->prior_redo = x->redo;
	/* RemoveOldXlogFiles(segments before the REDO point's) */
	sim_path_push(pg->sim, "RemoveOldXlogFiles");
	redo_seg = x->redo / x->seg_size;
	recycle = pg_xlog_recycle_segno(pg, x->redo);
	endlogsegno = end / x->seg_size;
	for (uint64_t s = x->oldest_seg; s < redo_seg; s++)
		if (seg_file(x, s))
			remove_xlog_file(p, s, recycle, &endlogsegno);
	if (x->oldest_seg < redo_seg)
		x->oldest_seg = redo_seg;
	sim_path_pop(pg->sim);
	/* PreallocXlogFiles(): one segment ahead when 75 % of this one is used */
	if (x->insert % x->seg_size >= x->seg_size / 4 * 3) {
		uint64_t next = x->insert / x->seg_size + 1;

		if (!seg_file(x, next))
			xlog_file_create(p, next, recycle > next ? recycle : next);
	}
}
