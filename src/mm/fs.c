/* SPDX-License-Identifier: MIT */
/*
 * fs.c — the filesystem model that stands in for XFS, and the file
 * system calls (fs/xfs/xfs_file.c, fs/xfs/xfs_iomap.c, fs/xfs/xfs_iops.c,
 * fs/read_write.c, fs/sync.c, fs/open.c; Linux 6.12).  fs.h has the
 * layout.
 *
 * What is XFS-like:
 *   - the mapping: gfp GFP_HIGHUSER_MOVABLE & ~__GFP_FS (xfs_setup_inode),
 *     folio orders 0..MAX_PAGECACHE_ORDER (mapping_set_folio_min_order(0)),
 *     AS_MIGRATE_NONBLOCKING (filemap_migrate_folio), writeback-capable;
 *   - buffered writes hold the inode's IOLOCK (i_rwsem) exclusive, reads
 *     shared (xfs_file_buffered_write / xfs_file_buffered_read);
 *   - fsync: write and wait the range, then force the log if the inode
 *     has unlogged changes that the call must persist (timestamps for
 *     fsync, size/extents for both), then flush the device cache
 *     (xfs_file_fsync; the modelled devices have no volatile cache, so the
 *     flush costs the device's flush latency only).
 * What is simplified:
 *   - allocation: a write or fallocate into a hole allocates the whole
 *     FS_ALLOC_GRANULE-aligned region around it from a bump allocator
 *     (stands in for delayed allocation + speculative preallocation, which
 *     keep XFS files contiguous); nothing is ever freed on the device;
 *   - unwritten extents are not distinguished: reading allocated but never
 *     written blocks reads the device; holes read as zeroes without I/O;
 *   - the log is a circular 64 MiB region at the start of the device; a
 *     log force is one 4 KiB write (a small iclog) followed by the flush;
 *   - no metadata I/O besides the log; no directory model (names are
 *     labels); no quotas, no reflink;
 *   - with [kernel] slab=on a file holds one dentry and one xfs_inode
 *     slab object from creation to unlink (slub.c); no dcache/icache LRU
 *     and no shrinker: they are never reclaimed while the file exists.
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
#include "mm/slub.h"
#include "mm/vmstat.h"
#include "mm/writeback.h"
#include "mm/writeback_internal.h"
#include "sim/bdev.h"

#define FS_LOG_WRITE_BYTES	4096ULL


struct super_block *fs_mount(struct machine *m, struct bdev *bdev, const char *name, uint64_t size)
{
	struct super_block *sb, **pp;

	for (pp = &m->super_blocks; *pp; pp = &(*pp)->next)
		if ((*pp)->bdev == bdev)
			return *pp;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		SIM_BUG("out of memory mounting a filesystem");
	sb->m = m;
	sb->bdev = bdev;
	snprintf(sb->name, sizeof(sb->name), "%s", name);
	sb->dev_size = size;
	sb->type = bdev_fs(bdev);
	sb->next_free = FS_LOG_BYTES;
	sb->next_ino = 1;
	sb->wb = wb_create(m, sb, bdev, sb->name);
	*pp = sb;
	return sb;
}

struct inode *fs_create(struct super_block *sb, const char *name)
{
	struct machine *m = sb->m;
	struct inode *inode = calloc(1, sizeof(*inode));
	char mname[48];

	if (!inode)
		SIM_BUG("out of memory creating an inode");
	/* slab=on: open(O_CREAT) -> d_alloc (dentry_cache, GFP_KERNEL) and
	 * xfs_create -> xfs_inode_alloc (xfs_inode_cache, GFP_KERNEL |
	 * __GFP_NOFAIL): both SLAB_RECLAIM_ACCOUNT caches */
	inode->slab_dentry = slab_alloc_named(m, SC_dentry, GFP_KERNEL);
	inode->slab_inode = slab_alloc_named(m, SC_xfs_inode, GFP_KERNEL | __GFP_NOFAIL);
	snprintf(inode->name, sizeof(inode->name), "%s", name);
	snprintf(mname, sizeof(mname), "%s:%s", sb->name, name);
	inode->i_mapping = mapping_create(m, MAPPING_FILE, GFP_HIGHUSER_MOVABLE & ~__GFP_FS, 0,
					  MAX_PAGECACHE_ORDER, AS_MIGRATE_NONBLOCKING | AS_WRITEBACK_CAPABLE,
					  inode, mname);
	if (!inode->i_mapping)
		SIM_BUG("out of mapping ids creating %s", mname);
	inode->i_sb = sb;
	inode->i_ino = sb->next_ino++;
	inode->i_nlink = 1;
	inode->ra.prev_index = ULONG_MAX;
	sim_rwsem_init(m->sim, &inode->i_rwsem, NULL);
	sim_waitq_init(&inode->i_sync_wait, "inode_sleep_on_writeback");
	if (sb->inodes_tail)
		sb->inodes_tail->sb_next = inode;
	else
		sb->inodes = inode;
	sb->inodes_tail = inode;
	return inode;
}

static void inode_free(struct machine *m, struct inode *inode)
{
	/* slowpath glue: i_rwsem is anonymous (never registered, nothing to
	 * release), and a run may end with a writer holding it */
	(void)m;
	free(inode->extents);
	free(inode);
}

/* machine_destroy: the run ended; pages may still be cached. */
void fs_release_all(struct machine *m)
{
	struct super_block *sb = m->super_blocks;

	while (sb) {
		struct super_block *next = sb->next;
		struct inode *inode = sb->inodes;

		while (inode) {
			struct inode *n = inode->sb_next;

			inode_free(m, inode);
			inode = n;
		}
		free(sb);
		sb = next;
	}
	m->super_blocks = NULL;
}

/* ---- extents ----------------------------------------------------------------------- */

/* Index of the first extent ending after `pos` (binary search). */
static uint32_t extent_search(const struct inode *inode, uint64_t pos)
{
	uint32_t lo = 0, hi = inode->nr_extents;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct fs_extent *e = &inode->extents[mid];

		if (e->offset + e->len <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t fs_bmap(const struct inode *inode, uint64_t pos)
{
	uint32_t i = extent_search(inode, pos);

	if (i == inode->nr_extents || inode->extents[i].offset > pos)
		return UINT64_MAX;
	return inode->extents[i].addr + (pos - inode->extents[i].offset);
}

/* Allocate [start, end) (granule-aligned, a hole) at the device's bump
 * pointer, merging with the previous extent when contiguous both ways. */
static int fs_alloc(struct inode *inode, uint64_t start, uint64_t end)
{
	struct super_block *sb = inode->i_sb;
	uint32_t i = extent_search(inode, start);
	uint64_t len = end - start;

	if (sb->dev_size && sb->next_free + len > sb->dev_size)
		return -ENOSPC;
	if (i > 0) {
		struct fs_extent *p = &inode->extents[i - 1];

		if (p->offset + p->len == start && p->addr + p->len == sb->next_free) {
			p->len += len;
			sb->next_free += len;
			return 0;
		}
	}
	if (inode->nr_extents == inode->cap_extents) {
		inode->cap_extents = inode->cap_extents ? inode->cap_extents * 2 : 4;
		inode->extents = realloc(inode->extents, inode->cap_extents * sizeof(*inode->extents));
		if (!inode->extents)
			SIM_BUG("out of memory for extents");
	}
	memmove(&inode->extents[i + 1], &inode->extents[i],
		(inode->nr_extents - i) * sizeof(*inode->extents));
	inode->extents[i] = (struct fs_extent){ .offset = start, .len = len, .addr = sb->next_free };
	inode->nr_extents++;
	sb->next_free += len;
	return 0;
}

/* Allocate every hole in [pos, pos + len), granule by granule. */
static int fs_alloc_range(struct inode *inode, uint64_t pos, uint64_t len)
{
	uint64_t g = pos & ~(FS_ALLOC_GRANULE - 1), end = pos + len;

	for (; g < end; g += FS_ALLOC_GRANULE) {
		if (fs_bmap(inode, g) == UINT64_MAX) {
			int err = fs_alloc(inode, g, g + FS_ALLOC_GRANULE);

			if (err)
				return err;
			inode->i_state |= I_DIRTY_DATASYNC | I_DIRTY_ITABLE;
		}
	}
	return 0;
}

int fs_iomap_begin(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len,
		   bool write, struct fs_extent *ext)
{
	uint32_t i;

	(void)m;
	if (write) {
		int err = fs_alloc_range(inode, pos, len);

		if (err)
			return err;
	}
	i = extent_search(inode, pos);
	if (i < inode->nr_extents && inode->extents[i].offset <= pos) {
		*ext = inode->extents[i];
		return 0;
	}
	SIM_ASSERT(!write);
	ext->offset = pos;
	ext->addr = UINT64_MAX;
	ext->len = i < inode->nr_extents ? inode->extents[i].offset - pos : UINT64_MAX - pos;
	return 0;
}

/* A synchronous metadata write of `bytes` at device offset `off` (the
 * log, an inode table block): submitted and waited for in the caller,
 * as the log force and sync_dirty_buffer do; no writeback throttling. */
static void fs_meta_write_wait(struct machine *m, struct super_block *sb, const char *fn,
			       uint64_t off, uint64_t bytes)
{
	sim_path_push(m->sim, fn);
	mm_charge(m, COST_submit_bio, 1);
	count_vm_events(m, PGPGOUT, bytes >> 9);
	bdev_io_wait(m->sim, sb->bdev, BIO_WRITE, off, bytes);
	mm_charge(m, COST_blk_mq_complete_irq, 1);
	sim_path_pop(m->sim);
}

void fs_log_force(struct machine *m, struct super_block *sb)
{
	uint64_t off = sb->log_head;

	sb->log_head = (sb->log_head + FS_LOG_WRITE_BYTES) % FS_LOG_BYTES;
	sb->log_writes++;
	fs_meta_write_wait(m, sb, "xfs_log_force_seq", off, FS_LOG_WRITE_BYTES);
}

/* ---- system calls ---------------------------------------------------------------------- */

/*
 * file_update_time() (fs/inode.c, 6.12): a write sets mtime and ctime to
 * current_time(), the coarse clock that moves once a tick, and dirties
 * the inode (I_DIRTY_SYNC) only when that changes them.  So a file
 * written continuously is dirtied once a tick, not once a write.
 * Simplified: no multigrain timestamps (a stat() between two writes
 * would make the second change them too).
 */
static void file_update_time(struct machine *m, struct inode *inode)
{
	sim_time_t now = sim_now(m->sim);
	uint64_t tick = (uint64_t)now / m->tick_ns + 1;

	if (inode->mtime_tick == tick)
		return;
	inode->mtime_tick = tick;
	inode->i_state |= I_DIRTY_SYNC | I_DIRTY_ITABLE;
}

long ksys_pwrite64(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len)
{
	long ret;

	sim_path_push(m->sim, "ksys_pwrite64");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	sim_path_push(m->sim, "xfs_file_buffered_write");
	sim_down_write(m->sim, &inode->i_rwsem);
	file_update_time(m, inode);
	ret = len ? iomap_file_buffered_write(m, inode, pos, len) : 0;
	sim_up_write(m->sim, &inode->i_rwsem);
	sim_path_pop(m->sim);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return ret;
}

long ksys_pread64(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len)
{
	long ret;

	sim_path_push(m->sim, "ksys_pread64");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	sim_path_push(m->sim, "xfs_file_buffered_read");
	sim_down_read(m->sim, &inode->i_rwsem);
	ret = filemap_read(m, inode, pos, len);
	sim_up_read(m->sim, &inode->i_rwsem);
	sim_path_pop(m->sim);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return ret;
}

/* filemap_fdatawrite_wbc + filemap_fdatawait_range (file_write_and_wait_range). */
static void file_write_and_wait_range(struct machine *m, struct inode *inode, uint64_t start,
				      uint64_t end)
{
	struct writeback_control wbc = {
		.nr_to_write = LONG_MAX,
		.range_start = start,
		.range_end = end,
		.sync_mode = WB_SYNC_ALL,
	};
	unsigned long last = end == UINT64_MAX ? ULONG_MAX - 1 : (unsigned long)(end >> PAGE_SHIFT);

	iomap_writepages(m, inode, &wbc);
	filemap_fdatawait_range(m, inode->i_mapping, (unsigned long)(start >> PAGE_SHIFT), last);
}

/*
 * ext4_write_inode() without a journal (fs/ext4/inode.c, 6.12) for a
 * WB_SYNC_ALL caller: sync_dirty_buffer() of the inode table block, a
 * synchronous 4-KiB write if the block holds changes.  The block is one
 * of the first FS_LOG_BYTES of the device (XFS's log there), 16 inodes
 * of 256 bytes to a block.  Simplified: the block's other inodes are
 * not written with it (the kernel writes the whole buffer, clearing
 * their pending changes too); like the log force, the write passes no
 * writeback throttling (the kernel's REQ_SYNC write takes wbt's full
 * depth, so it seldom waits).
 */
static void ext4_write_inode(struct machine *m, struct inode *inode)
{
	uint64_t off = (inode->i_ino / 16 * 4096) % FS_LOG_BYTES;

	if (!(inode->i_state & I_DIRTY_ITABLE))
		return;
	inode->i_state &= ~I_DIRTY_ITABLE;
	inode->i_sb->inode_writes++;
	fs_meta_write_wait(m, inode->i_sb, "ext4_write_inode", off, 4096);
}

/*
 * fsync(2)/fdatasync(2) as the filesystem on the device does them (6.12):
 *
 * xfs_file_fsync: the data (file_write_and_wait_range), a log force if
 * logged inode changes are pending (timestamps count for fsync only),
 * then a cache flush.
 *
 * ext4_sync_file without a journal (ext4_fsync_nojournal): the data;
 * then, for fsync or when the size or the extents changed,
 * sync_inode_metadata(), which writes what was dirtied meanwhile, clears
 * the inode's dirty state and takes it off the flusher's list when it is
 * clean or re-dates it (writeback_single_inode, fs-writeback.c); then
 * ext4_write_inode, and a cache flush (the barrier mount option, on by
 * default).  Re-dating is what keeps a file that is fsynced more often
 * than dirty_expire_centisecs out of the flusher's periodic writeback,
 * where on XFS it is written every dirty_writeback_centisecs.
 */
int vfs_fsync_range(struct machine *m, struct inode *inode, uint64_t start, uint64_t end,
		    bool datasync)
{
	bool ext4 = inode->i_sb->type == BDEV_FS_EXT4_NOJOURNAL;

	sim_path_push(m->sim, datasync ? "do_fdatasync" : "do_fsync");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	sim_path_push(m->sim, ext4 ? "ext4_sync_file" : "xfs_file_fsync");
	file_write_and_wait_range(m, inode, start, end);
	if (ext4) {
		/* generic_buffers_fsync_noflush */
		if ((inode->i_state & I_DIRTY) && (!datasync || (inode->i_state & I_DIRTY_DATASYNC)))
			sync_inode_metadata(m, inode);
		ext4_write_inode(m, inode);
	} else {
		unsigned int need = datasync ? I_DIRTY_DATASYNC : (I_DIRTY_SYNC | I_DIRTY_DATASYNC);

		if (inode->i_state & need) {
			inode->i_state &= ~(I_DIRTY_SYNC | I_DIRTY_DATASYNC);
			fs_log_force(m, inode->i_sb);
		}
	}
	sim_path_push(m->sim, "blkdev_issue_flush");
	inode->i_sb->flushes++;
	bdev_io_wait(m->sim, inode->i_sb->bdev, BIO_FLUSH, 0, 0);
	sim_path_pop(m->sim);
	sim_path_pop(m->sim);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return 0;
}

int vfs_fsync(struct machine *m, struct inode *inode, bool datasync)
{
	return vfs_fsync_range(m, inode, 0, UINT64_MAX, datasync);
}

/* ksys_sync_file_range() (fs/sync.c, 6.12): WAIT_BEFORE waits for
 * writeback in the range, WRITE starts WB_SYNC_NONE writeback of its
 * dirty folios, WAIT_AFTER waits again.  No log force, no flush. */
int ksys_sync_file_range(struct machine *m, struct inode *inode, uint64_t offset, uint64_t nbytes,
			 unsigned int flags)
{
	uint64_t end = nbytes ? offset + nbytes - 1 : UINT64_MAX;
	unsigned long first = (unsigned long)(offset >> PAGE_SHIFT);
	unsigned long last = end == UINT64_MAX ? ULONG_MAX - 1 : (unsigned long)(end >> PAGE_SHIFT);

	if (flags & ~(SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER))
		return -EINVAL;
	sim_path_push(m->sim, "ksys_sync_file_range");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	if (flags & SYNC_FILE_RANGE_WAIT_BEFORE)
		filemap_fdatawait_range(m, inode->i_mapping, first, last);
	if (flags & SYNC_FILE_RANGE_WRITE) {
		struct writeback_control wbc = {
			.nr_to_write = LONG_MAX,
			.range_start = offset,
			.range_end = end,
			.sync_mode = WB_SYNC_NONE,
		};

		iomap_writepages(m, inode, &wbc);
	}
	if (flags & SYNC_FILE_RANGE_WAIT_AFTER)
		filemap_fdatawait_range(m, inode->i_mapping, first, last);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return 0;
}

int vfs_fallocate(struct machine *m, struct inode *inode, uint64_t offset, uint64_t len)
{
	int err;

	sim_path_push(m->sim, "vfs_fallocate");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	sim_down_write(m->sim, &inode->i_rwsem);
	err = fs_alloc_range(inode, offset, len);
	if (!err && offset + len > inode->i_size) {
		inode->i_size = offset + len;
		inode->i_state |= I_DIRTY_DATASYNC | I_DIRTY_ITABLE;
	}
	sim_up_write(m->sim, &inode->i_rwsem);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return err;
}

int do_truncate(struct machine *m, struct inode *inode, uint64_t size)
{
	sim_path_push(m->sim, "do_truncate");
	sim_kernel_enter(m->sim);
	mm_charge(m, COST_syscall, 1);
	sim_down_write(m->sim, &inode->i_rwsem);
	if (size < inode->i_size) {
		uint64_t keep = (size + FS_ALLOC_GRANULE - 1) & ~(FS_ALLOC_GRANULE - 1);

		truncate_inode_pages_range(m, inode->i_mapping, size, UINT64_MAX);
		/* drop extents wholly beyond the kept granules (space is not reused) */
		while (inode->nr_extents) {
			struct fs_extent *e = &inode->extents[inode->nr_extents - 1];

			if (e->offset >= keep)
				inode->nr_extents--;
			else {
				if (e->offset + e->len > keep)
					e->len = keep - e->offset;
				break;
			}
		}
		if (!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY) &&
		    (inode->i_state & I_DIRTY_PAGES))
			wb_inode_clean(m, inode);
	}
	inode->i_size = size;
	inode->i_state |= I_DIRTY_DATASYNC | I_DIRTY_SYNC | I_DIRTY_ITABLE;
	sim_up_write(m->sim, &inode->i_rwsem);
	sim_kernel_exit(m->sim);
	sim_path_pop(m->sim);
	return 0;
}

int do_unlinkat(struct machine *m, struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct inode **pp;

	do_truncate(m, inode, 0);
	sim_path_push(m->sim, "do_unlinkat");
	sim_wait_event(m->sim, &inode->i_sync_wait, !inode->i_sync);
	/* evict: nothing is left in the page cache (no process maps files in
	 * the model, so there is no open-unlinked state to keep) */
	for (pp = &sb->inodes; *pp != inode; pp = &(*pp)->sb_next)
		SIM_ASSERT(*pp);
	*pp = inode->sb_next;
	if (sb->inodes_tail == inode) {
		struct inode *t = sb->inodes;

		while (t && t->sb_next)
			t = t->sb_next;
		sb->inodes_tail = t;
	}
	if (inode->on_dirty_list)
		wb_inode_clean(m, inode);
	mapping_destroy(m, inode->i_mapping);
	/* d_delete + iput_final: the dentry and the inode go back (the
	 * kernel may keep a negative dentry; the model frees it) */
	slab_free_named(m, SC_xfs_inode, inode->slab_inode);
	slab_free_named(m, SC_dentry, inode->slab_dentry);
	inode_free(m, inode);
	sim_path_pop(m->sim);
	return 0;
}
