/* SPDX-License-Identifier: MIT */
/*
 * writeback.h — dirty and writeback folio states, dirty limits, writer
 * throttling and the flusher threads (include/linux/writeback.h,
 * include/linux/backing-dev-defs.h, mm/page-writeback.c,
 * fs/fs-writeback.c; Linux 6.12).  docs/pagecache.md has the overview.
 *
 * Folio life cycle of a page-cache folio (head flags, types.h):
 *
 *   clean --folio_mark_dirty--> PG_dirty --folio_clear_dirty_for_io +
 *   folio_start_writeback--> PG_writeback --folio_end_writeback--> clean
 *
 * Counters moved exactly where the kernel moves them:
 *   dirtying (folio_account_dirtied):  NR_FILE_DIRTY, NR_ZONE_WRITE_PENDING,
 *                                      NR_DIRTIED  += nr
 *   start of writeback:                NR_FILE_DIRTY -= nr, NR_WRITEBACK += nr
 *                                      (NR_ZONE_WRITE_PENDING unchanged)
 *   end of writeback:                  NR_WRITEBACK, NR_ZONE_WRITE_PENDING -= nr,
 *                                      NR_WRITTEN += nr; PG_reclaim ->
 *                                      folio_rotate_reclaimable()
 *   cancelled dirty (truncate):        NR_FILE_DIRTY, NR_ZONE_WRITE_PENDING -= nr
 *
 * One flusher (struct bdi_writeback, a task "flush-DEV") and one I/O
 * completion worker ("endio-DEV") per mounted block device (fs.c mounts).
 */
#ifndef SLOWPATH_MM_WRITEBACK_H
#define SLOWPATH_MM_WRITEBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/types.h"
#include "sim/sim.h"
#include "sim/bdev.h"

struct machine;
struct pglist_data;
struct address_space;
struct inode;
struct super_block;
struct bdev;

enum writeback_sync_modes {
	WB_SYNC_NONE,	/* don't wait on anything */
	WB_SYNC_ALL,	/* wait on every folio (fsync) */
};

enum wb_reason {
	WB_REASON_BACKGROUND,
	WB_REASON_VMSCAN,
	WB_REASON_SYNC,
	WB_REASON_PERIODIC,
	WB_REASON_FSYNC,	/* model: fsync/sync_file_range from the caller */
	WB_REASON_MAX
};

/* struct writeback_control (the fields the model uses). */
struct writeback_control {
	long		nr_to_write;	/* pages still to write; decremented */
	uint64_t	range_start, range_end;	/* bytes, inclusive end */
	enum writeback_sync_modes sync_mode;
	bool		range_cyclic;	/* start at the inode's writeback_index */
	bool		for_background, for_kupdate, for_sync;
	long		pages_written;	/* model: pages this call put under writeback */
};

/* ---- folio states (page-writeback.c) -------------------------------------- */

/*
 * folio_mark_dirty(): filemap_dirty_folio() for writeback-capable
 * mappings (accounting, PAGECACHE_TAG_DIRTY, __mark_inode_dirty of the
 * host inode); for other mappings (shmem) only PG_dirty (noop_dirty_folio).
 * Returns true if the folio was clean before.
 */
bool folio_mark_dirty(struct machine *m, pfn_t pfn);
/*
 * iomap's per-block dirty state (struct iomap_folio_state's dirty bits,
 * fs/iomap/buffered-io.c, Linux 6.6+; blocks are pages here), kept as the
 * one range of pages [first, end) of the folio it spans, in the folio's
 * first tail page: a buffered write dirties only the pages it covers and
 * writeback writes only them.  folio_mark_dirty() dirties the whole
 * folio (a write fault, a dirtier without a range).  Simplified: two
 * dirty stretches with clean pages between count as one (writeback
 * writes the gap too; sequential appends, the WAL's case, never make one).
 */
bool folio_mark_dirty_range(struct machine *m, pfn_t pfn, unsigned int first, unsigned int end);
void folio_dirty_range(const struct machine *m, pfn_t pfn, unsigned int *first, unsigned int *end);
/* folio_clear_dirty_for_io(): clear PG_dirty ahead of writeback
 * (dirty accounting is moved by folio_start_writeback). */
bool folio_clear_dirty_for_io(struct machine *m, pfn_t pfn);
/* __folio_start_writeback() (after folio_clear_dirty_for_io). */
void folio_start_writeback(struct machine *m, pfn_t pfn);
/* folio_end_writeback(): PG_reclaim -> folio_rotate_reclaimable, then
 * clear PG_writeback, counters, wake folio_wait_writeback sleepers. */
void folio_end_writeback(struct machine *m, pfn_t pfn);
/* folio_cancel_dirty() (truncation): clear PG_dirty and undo the dirty
 * accounting without writing. */
void folio_cancel_dirty(struct machine *m, pfn_t pfn);
/* folio_wait_writeback(): sleep until the folio is not under writeback
 * (task context; returns at once when it is not). */
void folio_wait_writeback(struct machine *m, pfn_t pfn);

/* ---- dirty limits and throttling (page-writeback.c) ---------------------- */

/* global_dirtyable_memory(), global_dirty_limits() (vm.dirty_ratio and
 * vm.dirty_background_ratio; the *_bytes forms are not modelled). */
unsigned long global_dirtyable_memory(const struct machine *m);
void global_dirty_limits(const struct machine *m, unsigned long *pbackground, unsigned long *pdirty);

/*
 * balance_dirty_pages_ratelimited(): called after dirtying pages of a
 * writeback-capable mapping; every ratelimit's worth of pages the current
 * task dirtied it runs balance_dirty_pages(), which starts background
 * writeback above the background threshold and pauses the task above the
 * free-run ceiling (simplified: docs/pagecache.md "Dirty throttling").
 * Task context (it may sleep).
 */
void balance_dirty_pages_ratelimited(struct machine *m, struct address_space *mapping);

/* ---- flushers (fs-writeback.c) --------------------------------------------- */

struct bdi_writeback;

/* Create the flusher and completion tasks of a mounted filesystem. */
struct bdi_writeback *wb_create(struct machine *m, struct super_block *sb, struct bdev *bdev,
				const char *name);
/* __mark_inode_dirty(I_DIRTY_PAGES) when the inode was clean: record
 * dirtied_when and queue it on its flusher's dirty list. */
void wb_inode_dirtied(struct machine *m, struct inode *inode);
/* The inode has no dirty pages any more: leave the dirty list. */
void wb_inode_clean(struct machine *m, struct inode *inode);
/* sync_inode_metadata(inode, 1): writeback_single_inode with WB_SYNC_ALL
 * (task context; blocks).  ext4's fsync without a journal calls it. */
void sync_inode_metadata(struct machine *m, struct inode *inode);
/* wb_start_background_writeback() for the device that holds `inode`. */
void wb_start_background_writeback(struct machine *m, struct bdi_writeback *wb);
/*
 * wakeup_flusher_threads(): ask every flusher to write back all dirty
 * pages (nr_pages = get_nr_dirty_pages()).  Reclaim calls it with
 * WB_REASON_VMSCAN (the kernel does so when it finds many dirty,
 * unqueued folios at the inactive tail).  Any context; never blocks.
 */
void wakeup_flusher_threads(struct machine *m, enum wb_reason reason);
/* The flusher's write bandwidth estimate, pages/s (balance_dirty_pages). */
unsigned long wb_write_bandwidth(const struct bdi_writeback *wb);

/*
 * Submit one writeback bio for a run of folios that are contiguous on
 * the device (iomap.c builds them): each folio must be under writeback
 * already.  The caller waits, in task context, for writeback
 * throttling's token of its class (the device's wbt_lat; sim/bdev.h)
 * and then for a free request slot (nr_requests); completion runs
 * folio_end_writeback for every folio in the device's completion task.
 */
void wb_submit_write(struct machine *m, struct bdi_writeback *wb, const pfn_t *folios,
		     unsigned int nr_folios, uint64_t dev_offset, uint64_t bytes,
		     enum wbt_class cls);

/* Pages under writeback from this flusher's device (for tests). */
unsigned long wb_inflight_bios(const struct bdi_writeback *wb);

#endif /* SLOWPATH_MM_WRITEBACK_H */
