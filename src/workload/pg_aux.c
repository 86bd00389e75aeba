/* SPDX-License-Identifier: MIT */
/*
 * pg_aux.c — PostgreSQL's auxiliary processes: checkpointer, background
 * writer and WAL writer (PostgreSQL 17: src/backend/postmaster/
 * checkpointer.c, bgwriter.c, walwriter.c; CreateCheckPoint in xlog.c).
 *
 * Checkpointer (CheckpointerMain): sleeps on its latch until
 * checkpoint_timeout has passed since the last checkpoint started, or a
 * checkpoint is requested (XLogWrite asks when max_wal_size worth of WAL
 * has been written since the REDO point).  A checkpoint (CreateCheckPoint):
 *   1. REDO point (pg_xlog_set_redo): from here on, a page's first change
 *      logs a full-page image;
 *   2. BufferSync (pg_bufmgr.c): every buffer dirty now, sorted, written,
 *      paced by CheckpointWriteDelay — after each buffer, if
 *      IsCheckpointOnSchedule(progress) holds (the share of buffers
 *      written, times checkpoint_completion_target, is ahead of both the
 *      share of checkpoint_timeout elapsed and the share of
 *      CheckPointSegments of WAL written) the checkpointer naps 100 ms;
 *   3. ProcessSyncRequests: fsync every segment file written since the
 *      last checkpoint;
 *   4. the checkpoint record, flushed; recycling of old WAL segments;
 *      PreallocXlogFiles.
 *
 * bgwriter (BackgroundWriterMain): BgBufferSync every bgwriter_delay; when
 * a round found nothing to do twice in a row it hibernates (50 delays)
 * until StrategyGetBuffer sets its latch.
 * walwriter (WalWriterMain): XLogBackgroundFlush every wal_writer_delay;
 * after 50 idle rounds it sleeps 25 delays at a time.
 *
 * Simplifications: no restartpoints, no immediate or shutdown
 * checkpoints, no CLOG/multixact/replication-slot checkpoint work, no
 * control file; the checkpointer does not absorb fsync requests while it
 * naps (the model's requests are flags set directly).
 */
#include <stdlib.h>

#include "workload/pg_internal.h"

#define BGW_HIBERNATE_FACTOR	50	/* bgwriter.c HIBERNATE_FACTOR */
#define WALW_HIBERNATE_FACTOR	25	/* walwriter.c HIBERNATE_FACTOR */
#define WALW_LOOPS_UNTIL_HIBERNATE 50	/* walwriter.c LOOPS_UNTIL_HIBERNATE */

void pg_request_checkpoint(struct pg *pg)
{
	pg->xlog.ckpt_requested = true;
	if (sim_waitq_active(&pg->ckpt_latch))
		sim_wake_one(pg->sim, &pg->ckpt_latch);
}

bool pg_checkpoint_on_schedule(struct pg *pg, double progress)
{
	struct pg_ckpt *c = &pg->ckpt;
	const struct pg_xlog *x = &pg->xlog;
	double elapsed_xlogs, elapsed_time;

	progress *= (double)pg->cfg.checkpoint_completion_target / 1e6;
	if (progress < c->cached_elapsed)
		return false;
	/* GetInsertRecPtr() returns LogwrtRqst.Write */
	elapsed_xlogs = ((double)(x->rqst_write - c->start_lsn) / (double)x->seg_size) /
			(double)x->ckpt_segments;
	if (progress < elapsed_xlogs) {
		c->cached_elapsed = elapsed_xlogs;
		return false;
	}
	elapsed_time = (double)(sim_now(pg->sim) - c->last_start) / (double)pg->cfg.checkpoint_timeout;
	if (progress < elapsed_time) {
		c->cached_elapsed = elapsed_time;
		return false;
	}
	return true;
}

static void ckpt_record(struct pg_ckpt *c, sim_time_t start, sim_time_t write_end, sim_time_t end,
			uint64_t written)
{
	if (c->nr == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->t_start = realloc(c->t_start, c->cap * sizeof(*c->t_start));
		c->t_write_end = realloc(c->t_write_end, c->cap * sizeof(*c->t_write_end));
		c->t_end = realloc(c->t_end, c->cap * sizeof(*c->t_end));
		c->buffers_written = realloc(c->buffers_written, c->cap * sizeof(*c->buffers_written));
		if (!c->t_start || !c->t_write_end || !c->t_end || !c->buffers_written)
			SIM_BUG("out of memory for checkpoint records");
	}
	c->t_start[c->nr] = start;
	c->t_write_end[c->nr] = write_end;
	c->t_end[c->nr] = end;
	c->buffers_written[c->nr] = written;
	c->nr++;
	c->total_written += written;
}

void pg_create_checkpoint(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_ckpt *c = &pg->ckpt;
	sim_time_t start = sim_now(pg->sim), write_end;
	uint64_t written;

	sim_path_push(pg->sim, "CreateCheckPoint");
	c->running = true;
	c->cached_elapsed = 0;
	c->start_lsn = pg->xlog.rqst_write;
	pg_xlog_set_redo(p);
	written = pg_buffer_sync(p);
	write_end = sim_now(pg->sim);
	c->files_synced += pg_process_sync_requests(p);
	pg_xlog_checkpoint_done(p);
	c->running = false;
	ckpt_record(c, start, write_end, sim_now(pg->sim), written);
	sim_path_pop(pg->sim);
}

void pg_checkpointer_main(struct sim *sim, void *arg)
{
	struct pg_proc *p = arg;
	struct pg *pg = p->pg;
	struct pg_ckpt *c = &pg->ckpt;

	pg_image_touch(p);
	c->last_start = sim_now(sim);
	for (;;) {
		sim_path_assert_empty(sim);
		sim_time_t now = sim_now(sim);

		if (pg->xlog.ckpt_requested || now - c->last_start >= pg->cfg.checkpoint_timeout) {
			pg->xlog.ckpt_requested = false;
			c->last_start = now;
			pg_create_checkpoint(p);
			continue;
		}
		sim_wait(sim, &pg->ckpt_latch, c->last_start + pg->cfg.checkpoint_timeout - now);
	}
}

void pg_bgwriter_main(struct sim *sim, void *arg)
{
	struct pg_proc *p = arg;
	struct pg *pg = p->pg;
	bool prev_hibernate = false;

	pg_image_touch(p);
	for (;;) {
		sim_path_assert_empty(sim);
		bool can_hibernate = pg_bg_buffer_sync(p);

		sim_sleep(sim, pg->cfg.bgwriter_delay);
		if (can_hibernate && prev_hibernate) {
			/* StrategyNotifyBgWriter: the next allocation sets our latch */
			pg->bgw.sleeping = true;
			sim_wait(sim, &pg->bgw.latch, pg->cfg.bgwriter_delay * BGW_HIBERNATE_FACTOR);
			pg->bgw.sleeping = false;
		}
		prev_hibernate = can_hibernate;
	}
}

void pg_walwriter_main(struct sim *sim, void *arg)
{
	struct pg_proc *p = arg;
	struct pg *pg = p->pg;
	int left_till_hibernate = WALW_LOOPS_UNTIL_HIBERNATE;

	pg_image_touch(p);
	for (;;) {
		sim_path_assert_empty(sim);
		if (pg_xlog_background_flush(p))
			left_till_hibernate = WALW_LOOPS_UNTIL_HIBERNATE;
		else if (left_till_hibernate > 0)
			left_till_hibernate--;
		sim_sleep(sim, left_till_hibernate > 0 ? pg->cfg.wal_writer_delay :
			  pg->cfg.wal_writer_delay * WALW_HIBERNATE_FACTOR);
	}
}
