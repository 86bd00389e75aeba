/* SPDX-License-Identifier: MIT */
/*
 * fs-writeback.c — the flusher threads (fs/fs-writeback.c, Linux 6.12)
 * and the block-I/O side of writeback.
 *
 * One flusher task "flush-DEV" per mounted device (the kernel's
 * wb_workfn on the bdi's writeback workqueue).  Bio completions
 * (bio end_io -> iomap_finish_ioends) run where the device's
 * `completion` key says: in one completion task "endio-DEV" per device
 * (kthread: XFS queues appending and unwritten ioends to a workqueue,
 * xfs_end_bio), or in hard-interrupt context on the submitting CPU (irq:
 * an overwrite's ioend completes from bio_endio, which blk-mq calls from
 * the completion interrupt; the model takes the completion on the CPU
 * that submitted, as per-CPU NVMe queues do).  The flusher loop, per
 * wake-up:
 *
 *   1. explicit work (wakeup_flusher_threads, sync): write every dirty
 *      inode's pages, oldest inode first, WB_SYNC_NONE;
 *   2. background work while NR_FILE_DIRTY > background threshold
 *      (wb_over_bg_thresh): the oldest dirty inode, one chunk of
 *      MIN_WRITEBACK_PAGES (1024 pages = 4 MiB) per turn, range-cyclic,
 *      round-robin over the dirty inodes;
 *   3. periodic work every dirty_writeback_centisecs (wb_check_old_data_flush,
 *      "kupdate"): every inode dirtied more than dirty_expire_centisecs
 *      ago is written completely;
 *   then it sleeps until woken or until the next periodic pass.
 *
 * After writing an inode it puts it back as requeue_inode does: clean,
 * off the list (only here and in sync_inode_metadata is I_DIRTY_PAGES
 * cleared; do_writepages from fsync leaves it); its chunk used up, at
 * the tail with its dirtied_when; dirtied again meanwhile, at the tail
 * re-dated to now if older than the newest inode there
 * (redirty_tail_locked), so a file dirtied continuously is written by
 * the periodic pass once every dirty_expire_centisecs or so, not at
 * every pass.
 *
 * Requests in flight per device are capped at nr_requests (128, the
 * block layer's BLKDEV_DEFAULT_RQ); a submitter waits for a free request
 * as blk_mq_get_tag would.  With the device's nr_requests key the cap is
 * per member instead, as each member's tags (md raid0 is bio-based and
 * allocates no request itself): a bio waits until every member it spans
 * has a tag free.  The write-bandwidth estimate is an EWMA of
 * completed pages per 200 ms interval (BANDWIDTH_INTERVAL), starting at
 * INIT_BW (100 MiB/s), as wb_update_write_bandwidth's.
 *
 * Simplifications: one b_dirty list, not kept sorted by dirtied_when
 * (no b_io/b_more_io split; the newest inode redirty_tail compares with
 * is the list's tail); a background chunk is the fixed
 * MIN_WRITEBACK_PAGES and a periodic pass writes an expired inode whole
 * (writeback_chunk_size follows the write bandwidth);
 * no cgroup writeback; no inode (metadata) writeback — XFS logs inode
 * changes, which the model does only on fsync (fs_log_force).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/vmstat.h"
#include "mm/writeback.h"
#include "mm/writeback_internal.h"
#include "sim/bdev.h"

#define MIN_WRITEBACK_PAGES	1024	/* 4096 KiB >> (PAGE_SHIFT - 10) */
#define NR_REQUESTS		128	/* BLKDEV_DEFAULT_RQ */
#define INIT_BW_PAGES		((100UL << 20) >> PAGE_SHIFT)	/* INIT_BW: 100 MiB/s */
#define BANDWIDTH_INTERVAL_NS	(200 * SIM_NSEC_PER_MSEC)	/* HZ/5 */

static void wb_list_del(struct bdi_writeback *wb, struct inode *inode)
{
	if (!inode->on_dirty_list)
		return;
	if (inode->wb_prev)
		inode->wb_prev->wb_next = inode->wb_next;
	else
		wb->b_dirty = inode->wb_next;
	if (inode->wb_next)
		inode->wb_next->wb_prev = inode->wb_prev;
	else
		wb->b_dirty_tail = inode->wb_prev;
	inode->wb_prev = inode->wb_next = NULL;
	inode->on_dirty_list = false;
}

static void wb_list_add_tail(struct bdi_writeback *wb, struct inode *inode)
{
	SIM_ASSERT(!inode->on_dirty_list);
	inode->wb_prev = wb->b_dirty_tail;
	inode->wb_next = NULL;
	if (wb->b_dirty_tail)
		wb->b_dirty_tail->wb_next = inode;
	else
		wb->b_dirty = inode;
	wb->b_dirty_tail = inode;
	inode->on_dirty_list = true;
}

/* redirty_tail_locked() (fs/fs-writeback.c, 6.12): the inode goes back
 * to the tail of the dirty list, and if it is older than the newest one
 * there it counts as dirtied now, so its expiry starts again. */
static void wb_redirty_tail(struct machine *m, struct bdi_writeback *wb, struct inode *inode)
{
	const struct inode *newest;

	wb_list_del(wb, inode);
	newest = wb->b_dirty_tail;
	if (newest && inode->dirtied_when < newest->dirtied_when)
		inode->dirtied_when = sim_now(m->sim);
	wb_list_add_tail(wb, inode);
}

void wb_inode_dirtied(struct machine *m, struct inode *inode)
{
	struct bdi_writeback *wb = inode->i_sb->wb;

	mm_charge(m, COST_inode_dirty, 1);
	inode->dirtied_when = sim_now(m->sim);
	if (!inode->on_dirty_list)
		wb_list_add_tail(wb, inode);
	wb->bg_stalled = false;
}

void wb_inode_clean(struct machine *m, struct inode *inode)
{
	(void)m;
	inode->i_state &= ~I_DIRTY_PAGES;
	wb_list_del(inode->i_sb->wb, inode);
}

/*
 * sync_inode_metadata() -> writeback_single_inode() with WB_SYNC_ALL and
 * nothing to write by count (fs/fs-writeback.c, 6.12): wait if the
 * flusher has the inode (I_SYNC); write every dirty folio and wait
 * (__writeback_single_inode: do_writepages ignores nr_to_write for
 * WB_SYNC_ALL, then filemap_fdatawait); clear the timestamp and size
 * flags.  Then, as writeback_single_inode() puts it back: left clean,
 * the inode leaves the dirty list; dirtied again meanwhile, it goes back
 * as redirty_tail_locked() puts it, its dirtied_when set to now when it
 * is older than the newest inode on the list, so its expiry starts
 * again.  The inode table block is written by the caller
 * (ext4_write_inode, fs.c).
 */
void sync_inode_metadata(struct machine *m, struct inode *inode)
{
	struct bdi_writeback *wb = inode->i_sb->wb;
	struct writeback_control wbc = {
		.nr_to_write = 0,
		.range_start = 0,
		.range_end = UINT64_MAX,
		.sync_mode = WB_SYNC_ALL,
	};

	sim_path_push(m->sim, "sync_inode_metadata");
	sim_wait_event(m->sim, &inode->i_sync_wait, !inode->i_sync);
	if (!(inode->i_state & I_DIRTY) &&
	    !mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK)) {
		sim_path_pop(m->sim);
		return;
	}
	inode->i_sync = true;
	iomap_writepages(m, inode, &wbc);
	filemap_fdatawait_range(m, inode->i_mapping, 0, ULONG_MAX - 1);
	inode->i_state &= ~(I_DIRTY_SYNC | I_DIRTY_DATASYNC);
	if (!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY)) {
		inode->i_state &= ~I_DIRTY_PAGES;
		wb_list_del(wb, inode);
	} else {
		wb_redirty_tail(m, wb, inode);
	}
	inode->i_sync = false;
	sim_wake_all(m->sim, &inode->i_sync_wait);
	sim_path_pop(m->sim);
}

unsigned long wb_write_bandwidth(const struct bdi_writeback *wb)
{
	return wb->write_bandwidth;
}

unsigned long wb_inflight_bios(const struct bdi_writeback *wb)
{
	return wb->inflight;
}

void wb_start_background_writeback(struct machine *m, struct bdi_writeback *wb)
{
	if (wb->background)
		return;
	wb->background = true;
	wb->bg_stalled = false;
	sim_wake_one(m->sim, &wb->wakeup);
}

void wakeup_flusher_threads(struct machine *m, enum wb_reason reason)
{
	(void)reason;
	if (!m->wb_domain)
		return;
	for (struct bdi_writeback *wb = m->wb_domain->wbs; wb; wb = wb->next) {
		if (!wb->b_dirty)
			continue;
		wb->start_all = true;
		sim_wake_one(m->sim, &wb->wakeup);
	}
}

/* ---- bios ----------------------------------------------------------------------- */

/* Per-member tags (member_depth): whether every member a request spans has
 * a tag free, and taking / giving back one on each. */
struct member_tags {
	struct bdi_writeback	*wb;
	int			delta;		/* 0: test only */
	bool			free;
};

static void member_tag_fn(void *ctx, uint32_t member)
{
	struct member_tags *mt = ctx;

	if (mt->delta)
		mt->wb->member_inflight[member] += (uint32_t)mt->delta;
	else if (mt->wb->member_inflight[member] >= mt->wb->member_depth)
		mt->free = false;
}

static bool wb_tags_free(struct bdi_writeback *wb, uint64_t off, uint64_t len)
{
	struct member_tags mt = { wb, 0, true };

	if (!wb->member_depth)
		return wb->inflight < wb->nr_requests;
	bdev_for_each_member(wb->bdev, off, len, member_tag_fn, &mt);
	return mt.free;
}

static void wb_tags_take(struct bdi_writeback *wb, uint64_t off, uint64_t len, int delta)
{
	struct member_tags mt = { wb, delta, true };

	if (wb->member_depth)
		bdev_for_each_member(wb->bdev, off, len, member_tag_fn, &mt);
}

/* wb_update_write_bandwidth() simplified to an EWMA per interval. */
static void wb_update_bandwidth(struct bdi_writeback *wb, sim_time_t now)
{
	sim_time_t elapsed = now - wb->bw_time_stamp;
	uint64_t pages;
	unsigned long bw;

	if (elapsed < BANDWIDTH_INTERVAL_NS)
		return;
	pages = wb->written - wb->written_stamp;
	bw = (unsigned long)((double)pages * 1e9 / (double)elapsed);
	/* only intervals with I/O tell anything about the device */
	if (pages)
		wb->write_bandwidth = (wb->write_bandwidth * 3 + bw) / 4;
	wb->written_stamp = wb->written;
	wb->bw_time_stamp = now;
}

/*
 * One bio's completion: iomap_finish_ioends -> folio_end_writeback for
 * each folio, the request tag back (blk_mq_free_request), the flusher
 * woken if it stalled on tags, the bandwidth estimate.
 */
static void wb_finish_bio(struct machine *m, struct bdi_writeback *wb, struct wb_bio *bio)
{
	for (unsigned int i = 0; i < bio->nr; i++) {
		wb->written += folio_nr_pages(pfn_to_page(m, bio->folios[i]));
		folio_end_writeback(m, bio->folios[i]);
	}
	wb->inflight--;
	wb_tags_take(wb, bio->dev_offset, bio->bytes, -1);
	mm_charge(m, COST_blk_mq_complete_irq, 1);
	if (bio->all_prev)
		bio->all_prev->all_next = bio->all_next;
	else
		wb->all = bio->all_next;
	if (bio->all_next)
		bio->all_next->all_prev = bio->all_prev;
	free(bio);
	if (wb->member_depth)
		sim_wake_all(m->sim, &wb->request_wait);	/* it may wait for another member */
	else
		sim_wake_one(m->sim, &wb->request_wait);
}

static void wb_finish_batch(struct bdi_writeback *wb)
{
	if (wb->bg_stalled) {
		wb->bg_stalled = false;
		sim_wake_one(wb->m->sim, &wb->wakeup);
	}
	wb_update_bandwidth(wb, sim_now(wb->m->sim));
}

/* completion=irq: bio_endio in hard-interrupt context on the submitting
 * CPU (blk_mq_complete_request -> iomap's end_io for an overwrite). */
static void wb_bio_irq(struct sim *sim, void *arg)
{
	struct wb_bio *bio = arg;
	struct bdi_writeback *wb = bio->wb;

	sim_path_push(sim, "iomap_finish_ioends");
	wb_finish_bio(wb->m, wb, bio);
	wb_finish_batch(wb);
	sim_path_pop(sim);
}

static void wb_end_bio(struct sim *sim, void *arg, int error)
{
	struct wb_bio *bio = arg;
	struct bdi_writeback *wb = bio->wb;

	(void)error;
	bdev_wbt_done(sim, wb->bdev, bio->dev_offset, bio->bytes);	/* the request ends: wbt_done */
	if (bdev_completion(wb->bdev) == BDEV_COMPLETE_IRQ) {
		sim_irq_raise(sim, bio->cpu, wb_bio_irq, bio);
		return;
	}
	bio->next = NULL;
	if (wb->done_tail)
		wb->done_tail->next = bio;
	else
		wb->done = bio;
	wb->done_tail = bio;
	sim_wake_one(sim, &wb->endio_wait);
}

void wb_submit_write(struct machine *m, struct bdi_writeback *wb, const pfn_t *folios,
		     unsigned int nr_folios, uint64_t dev_offset, uint64_t bytes,
		     enum wbt_class cls)
{
	struct wb_bio *bio;
	sim_time_t waited;

	sim_path_push(m->sim, "submit_bio");
	if (bdev_wbt_enabled(wb->bdev)) {
		sim_path_push(m->sim, "wbt_wait");
		waited = bdev_wbt_throttle(m->sim, wb->bdev, cls, dev_offset, bytes);
		sim_path_pop(m->sim);
		if (waited) {
			sim_stat_inc(m, SIM_WBT_THROTTLE);
			sim_stat_add(m, SIM_WBT_THROTTLE_US, waited / SIM_NSEC_PER_USEC);
		}
	}
	sim_wait_event_io(m->sim, &wb->request_wait, wb_tags_free(wb, dev_offset, bytes));
	bio = malloc(sizeof(*bio) + nr_folios * sizeof(pfn_t));
	if (!bio)
		SIM_BUG("out of memory for a bio");
	bio->wb = wb;
	bio->next = NULL;
	bio->nr = nr_folios;
	bio->cpu = sim_cpu(m->sim);
	bio->dev_offset = dev_offset;
	bio->bytes = bytes;
	wb_tags_take(wb, dev_offset, bytes, 1);
	memcpy(bio->folios, folios, nr_folios * sizeof(pfn_t));
	bio->all_prev = NULL;
	bio->all_next = wb->all;
	if (wb->all)
		wb->all->all_prev = bio;
	wb->all = bio;
	wb->inflight++;
	count_vm_events(m, PGPGOUT, bytes >> 9);
	sim_stat_inc(m, SIM_WB_BIOS);
	mm_charge(m, COST_submit_bio, 1);
	bdev_submit(m->sim, wb->bdev, BIO_WRITE, dev_offset, bytes, wb_end_bio, bio);
	sim_path_pop(m->sim);
}

/* completion=kthread: the completion thread, woken per completed bio. */
static void wb_endio_fn(struct sim *sim, void *arg)
{
	struct bdi_writeback *wb = arg;

	sim_path_push(sim, "iomap_finish_ioends");
	for (;;) {
		struct wb_bio *bio;

		sim_wait_event(sim, &wb->endio_wait, wb->done != NULL);
		while ((bio = wb->done)) {
			wb->done = bio->next;
			if (!wb->done)
				wb->done_tail = NULL;
			wb_finish_bio(wb->m, wb, bio);
		}
		wb_finish_batch(wb);
	}
}

/* ---- the flusher ---------------------------------------------------------------- */

/* writeback_single_inode -> do_writepages for one inode. */
static long writeback_inode(struct machine *m, struct inode *inode, long nr_pages,
			    bool for_background, bool for_kupdate)
{
	struct writeback_control wbc = {
		.nr_to_write = nr_pages,
		.range_start = 0,
		.range_end = UINT64_MAX,
		.sync_mode = WB_SYNC_NONE,
		.range_cyclic = true,
		.for_background = for_background,
		.for_kupdate = for_kupdate,
	};

	iomap_writepages(m, inode, &wbc);
	return wbc.pages_written;
}

static bool wb_over_bg_thresh(const struct machine *m)
{
	unsigned long bg, thresh;

	global_dirty_limits(m, &bg, &thresh);
	return global_node_page_state(m, NR_FILE_DIRTY) > bg;
}

/* One pass over the dirty list: every inode that qualifies gets up to
 * `chunk` pages; an inode still dirty afterwards moves to the tail. */
static long wb_pass(struct machine *m, struct bdi_writeback *wb, long chunk, bool background,
		    bool kupdate, sim_time_t older_than)
{
	long wrote = 0, written;
	unsigned int n = 0;

	for (struct inode *i = wb->b_dirty; i; i = i->wb_next)
		n++;
	/* visit each inode that was on the list at the start once */
	while (n-- && wb->b_dirty) {
		struct inode *inode = wb->b_dirty;

		if (kupdate && inode->dirtied_when > older_than) {
			wb_list_del(wb, inode);		/* not expired: look at the next */
			wb_list_add_tail(wb, inode);
			continue;
		}
		if (background && !wb_over_bg_thresh(m))
			break;
		if (inode->i_sync) {	/* an fsync's sync_inode_metadata has it: */
			wb_list_del(wb, inode);	/* its next turn (requeue_io) */
			wb_list_add_tail(wb, inode);
			continue;
		}
		wb_list_del(wb, inode);
		inode->i_sync = true;
		written = writeback_inode(m, inode, chunk, background, kupdate);
		wrote += written;
		inode->i_sync = false;
		sim_wake_all(m->sim, &inode->i_sync_wait);
		/* __writeback_single_inode + requeue_inode: clean now, it
		 * leaves the list; its chunk used up, it waits for its next
		 * turn keeping its dirtied_when (requeue_io); dirty for
		 * another reason (dirtied again during the writeback), it is
		 * re-dated as redirty_tail_locked does */
		if (!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY)) {
			inode->i_state &= ~I_DIRTY_PAGES;
		} else if (written < chunk) {
			wb_redirty_tail(m, wb, inode);
		} else if (!inode->on_dirty_list) {
			wb_list_add_tail(wb, inode);
		}
		sim_cond_resched(m->sim);
	}
	return wrote;
}

static void wb_workfn(struct sim *sim, void *arg)
{
	struct bdi_writeback *wb = arg;
	struct machine *m = wb->m;

	sim_path_push(sim, "wb_workfn");
	wb->last_old_flush = sim_now(sim);
	for (;;) {
		uint64_t interval = (uint64_t)m->t.dirty_writeback_interval * 10 * SIM_NSEC_PER_MSEC;
		sim_time_t now;

		sim_sync(sim);
		now = sim_now(sim);
		if (!wb->start_all && !wb->background &&
		    !(wb->b_dirty && !wb->bg_stalled && wb_over_bg_thresh(m)) &&
		    !(interval && now >= wb->last_old_flush + interval)) {
			sim_time_t timeout = interval ? wb->last_old_flush + interval - now : SIM_TIME_NEVER;

			sim_wait(sim, &wb->wakeup, timeout);
			continue;
		}
		if (wb->start_all) {
			wb->start_all = false;
			sim_path_push(sim, "wb_do_writeback");
			wb_pass(m, wb, LONG_MAX, false, false, 0);
			sim_path_pop(sim);
		}
		if (wb->background || (wb->b_dirty && !wb->bg_stalled && wb_over_bg_thresh(m))) {
			wb->background = false;
			sim_stat_inc(m, SIM_WB_BACKGROUND);
			sim_path_push(sim, "wb_check_background_flush");
			while (wb->b_dirty && wb_over_bg_thresh(m)) {
				if (!wb_pass(m, wb, MIN_WRITEBACK_PAGES, true, false, 0)) {
					/* everything dirty is already under writeback */
					wb->bg_stalled = true;
					break;
				}
			}
			sim_path_pop(sim);
		}
		now = sim_now(sim);
		if (interval && now >= wb->last_old_flush + interval) {
			uint64_t expire = (uint64_t)m->t.dirty_expire_interval * 10 * SIM_NSEC_PER_MSEC;

			wb->last_old_flush = now;
			sim_stat_inc(m, SIM_WB_PERIODIC);
			sim_path_push(sim, "wb_check_old_data_flush");
			sim_stat_add(m, SIM_WB_PERIODIC_PAGES,
				     (uint64_t)wb_pass(m, wb, LONG_MAX, false, true, now > expire ? now - expire : 0));
			sim_path_pop(sim);
		}
	}
}

struct bdi_writeback *wb_create(struct machine *m, struct super_block *sb, struct bdev *bdev,
				const char *name)
{
	struct wb_domain *dom = wb_domain_get(m);
	struct bdi_writeback *wb = calloc(1, sizeof(*wb));
	struct sim_task_config tc = { .cpu = SIM_CPU_ANY, .kthread = true };

	if (!wb)
		SIM_BUG("out of memory for a flusher");
	wb->m = m;
	wb->sb = sb;
	wb->bdev = bdev;
	snprintf(wb->name, sizeof(wb->name), "flush-%s", name);
	snprintf(wb->endio_name, sizeof(wb->endio_name), "endio-%s", name);
	sim_waitq_init(&wb->wakeup, "wb_wakeup");
	sim_waitq_init(&wb->request_wait, "blk_mq_get_tag");
	sim_waitq_init(&wb->endio_wait, "bio_endio");
	wb->nr_requests = NR_REQUESTS;
	wb->member_depth = bdev_nr_requests(bdev);
	if (wb->member_depth) {
		wb->member_inflight = calloc(bdev_members(bdev), sizeof(*wb->member_inflight));
		if (!wb->member_inflight)
			SIM_BUG("out of memory for a flusher");
	}
	wb->write_bandwidth = INIT_BW_PAGES;
	wb->bw_time_stamp = sim_now(m->sim);
	if (dom->wbs_tail)
		dom->wbs_tail->next = wb;
	else
		dom->wbs = wb;
	dom->wbs_tail = wb;
	tc.name = wb->name;
	tc.kind = sim_task_kind(m->sim, "flush");
	wb->task = sim_task_create(m->sim, &tc, wb_workfn, wb, sim_now(m->sim));
	if (bdev_completion(bdev) == BDEV_COMPLETE_KTHREAD) {
		tc.name = wb->endio_name;
		tc.kind = sim_task_kind(m->sim, "endio");
		wb->endio_task = sim_task_create(m->sim, &tc, wb_endio_fn, wb, sim_now(m->sim));
	}
	return wb;
}

void wb_release_all(struct machine *m, struct wb_domain *dom)
{
	struct bdi_writeback *wb = dom->wbs;

	(void)m;
	while (wb) {
		struct bdi_writeback *next = wb->next;

		/* bios still in the device queue belong to the engine's events,
		 * which sim_destroy drops; their memory goes with them here */
		while (wb->all) {
			struct wb_bio *b = wb->all;

			wb->all = b->all_next;
			free(b);
		}
		free(wb->member_inflight);
		free(wb);
		wb = next;
	}
	dom->wbs = dom->wbs_tail = NULL;
}
