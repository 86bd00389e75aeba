/* SPDX-License-Identifier: MIT */
/*
 * writeback_internal.h — the structures shared by page-writeback.c,
 * fs-writeback.c and iomap.c (include/linux/backing-dev-defs.h,
 * include/linux/writeback.h; Linux 6.12).
 */
#ifndef SLOWPATH_MM_WRITEBACK_INTERNAL_H
#define SLOWPATH_MM_WRITEBACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/types.h"
#include "mm/writeback.h"
#include "sim/sim.h"

/* The global writeback domain: the flushers and the per-task dirty
 * ratelimit state (the kernel's current->nr_dirtied / nr_dirtied_pause,
 * indexed by engine task id). */
struct wb_domain {
	struct bdi_writeback	*wbs, *wbs_tail;	/* mount order */
	uint32_t		*task_dirtied;	/* [nr_task_slots] */
	uint32_t		*task_pause;	/* [nr_task_slots] */
	uint32_t		nr_task_slots;
};

/* One writeback bio in flight. */
struct wb_bio {
	struct bdi_writeback	*wb;
	struct wb_bio		*next;		/* completion list */
	struct wb_bio		*all_prev, *all_next;	/* every bio not yet freed */
	unsigned int		nr;
	unsigned int		cpu;		/* submitting CPU: where an IRQ completion runs */
	uint64_t		dev_offset, bytes;	/* its members' tags, with member_depth */
	pfn_t			folios[];	/* heads, all PG_writeback */
};

/* struct bdi_writeback: one flusher per device. */
struct bdi_writeback {
	struct machine		*m;
	struct super_block	*sb;
	struct bdev		*bdev;
	char			name[40];	/* "flush-md0" */
	char			endio_name[40];	/* "endio-md0" */
	struct inode		*b_dirty, *b_dirty_tail;	/* dirty inodes, oldest first */
	struct sim_waitq	wakeup;		/* the flusher sleeps here */
	bool			start_all;	/* wakeup_flusher_threads/sync asked for everything */
	bool			background;	/* background writeback requested */
	bool			bg_stalled;	/* last background pass wrote nothing:
						 * wait for a completion or new dirt */
	sim_time_t		last_old_flush;	/* last periodic (kupdate) pass */
	struct sim_task		*task;
	/* I/O in flight: at most nr_requests bios (block layer tags), in one
	 * pool, or with the device's nr_requests at most that many per member
	 * (member_inflight) */
	unsigned int		inflight;
	unsigned int		nr_requests;
	uint32_t		member_depth;	/* 0: one pool */
	uint32_t		*member_inflight;	/* [members] */
	struct sim_waitq	request_wait;
	/* completions, handed from the device callback to the endio task */
	struct wb_bio		*done, *done_tail;
	struct wb_bio		*all;		/* submitted, not yet completed+freed */
	struct sim_waitq	endio_wait;
	struct sim_task		*endio_task;
	/* write bandwidth estimate (wb_update_write_bandwidth), pages/s */
	unsigned long		write_bandwidth;
	uint64_t		written_stamp;	/* pages completed at bw_time_stamp */
	uint64_t		written;	/* pages completed */
	sim_time_t		bw_time_stamp;
	struct bdi_writeback	*next;
};

struct wb_domain *wb_domain_get(struct machine *m);
void wb_release_all(struct machine *m, struct wb_domain *dom);
/* current->nr_dirtied += nr (folio_account_dirtied's task side). */
void wb_task_dirtied(struct machine *m, unsigned long nr);

/*
 * do_writepages() -> the iomap writeback of one inode (iomap.c): walk
 * PAGECACHE_TAG_DIRTY folios in the range, start writeback on each and
 * submit bios of device-contiguous runs.  WB_SYNC_ALL first waits for a
 * folio already under writeback.  Task context.
 */
int iomap_writepages(struct machine *m, struct inode *inode, struct writeback_control *wbc);
/* filemap_fdatawait_range(): wait for writeback of folios whose index
 * lies in [start, end] (pages). */
void filemap_fdatawait_range(struct machine *m, struct address_space *mapping,
			     unsigned long start, unsigned long end);

#endif
