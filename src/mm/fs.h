/* SPDX-License-Identifier: MIT */
/*
 * fs.h — a small filesystem model standing in for XFS, and the file
 * system calls workloads make (fs/read_write.c, fs/sync.c, fs/open.c,
 * fs/xfs/xfs_file.c, fs/xfs/xfs_iomap.c, fs/iomap/buffered-io.c;
 * Linux 6.12).  docs/pagecache.md "Filesystem model".
 *
 * One filesystem per block device (fs_mount).  A file is an inode with a
 * page-cache mapping of kind MAPPING_FILE whose gfp is XFS's
 * (GFP_HIGHUSER_MOVABLE & ~__GFP_FS, xfs_setup_inode), folio orders
 * 0..MAX_PAGECACHE_ORDER (mapping_set_folio_min_order(0)),
 * AS_MIGRATE_NONBLOCKING (filemap_migrate_folio) and writeback-capable.
 * Its data lives in extents on the device: file offset -> device offset.
 *
 *   device:  [ log (64 MiB, circular) | data extents, bump-allocated ... ]
 *   inode:   extents[] sorted by file offset, each {offset, len, addr}
 *
 * Workloads hold struct inode pointers (no file descriptors).  The entry
 * points run in task context and charge their costs; each pushes its
 * kernel name on the attribution path.
 */
#ifndef SLOWPATH_MM_FS_H
#define SLOWPATH_MM_FS_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/pagemap.h"
#include "sim/sim.h"

struct machine;
struct bdev;
struct bdi_writeback;

/* i_state bits (include/linux/fs.h) */
#define I_DIRTY_SYNC		(1u << 0)	/* timestamps: fsync must log */
#define I_DIRTY_DATASYNC	(1u << 1)	/* size/extents: fdatasync must log too */
#define I_DIRTY_PAGES		(1u << 2)	/* dirty page-cache folios */
#define I_DIRTY			(I_DIRTY_SYNC | I_DIRTY_DATASYNC | I_DIRTY_PAGES)
/* Model only: the on-disk inode's block holds changes not yet written.
 * ext4 without a journal copies every inode change into its inode table
 * buffer and marks that dirty (ext4_mark_iloc_dirty); ext4_write_inode
 * writes it.  Set with I_DIRTY_SYNC and I_DIRTY_DATASYNC; XFS logs inode
 * changes instead and never reads it. */
#define I_DIRTY_ITABLE		(1u << 3)

/* The extent-size granule: allocation covers the whole aligned region of
 * this size around a write (stands in for XFS delayed allocation and
 * speculative preallocation, which keep files contiguous). */
#define FS_ALLOC_GRANULE	(64ULL << 20)
#define FS_LOG_BYTES		(64ULL << 20)

struct fs_extent {
	uint64_t	offset;		/* file byte offset */
	uint64_t	len;		/* bytes */
	uint64_t	addr;		/* device byte offset */
};

/* struct file_ra_state (include/linux/fs.h): the readahead window. */
struct file_ra_state {
	unsigned long	start;		/* first page of the current window */
	unsigned int	size;		/* pages in it */
	unsigned int	async_size;	/* pages left when the next window starts */
	unsigned int	order;		/* folio order of the last window */
	unsigned long	prev_index;	/* last page read (ULONG_MAX: none) */
};

struct inode {
	struct super_block	*i_sb;
	struct address_space	*i_mapping;
	uint64_t		i_ino;
	uint64_t		i_size;		/* bytes */
	unsigned int		i_state;	/* I_DIRTY_* */
	unsigned int		i_nlink;	/* 0 after unlink */
	sim_time_t		dirtied_when;	/* when I_DIRTY_PAGES was set */
	uint64_t		mtime_tick;	/* coarse tick of the last timestamp update, + 1 */
	struct inode		*wb_prev, *wb_next;	/* flusher's dirty list (oldest first) */
	bool			on_dirty_list;
	unsigned long		writeback_index;	/* range_cyclic cursor (pages) */
	struct sim_rwsem	i_rwsem;	/* XFS IOLOCK: exclusive for buffered writes */
	struct fs_extent	*extents;
	uint32_t		nr_extents, cap_extents;
	struct file_ra_state	ra;
	struct inode		*sb_next;	/* superblock's inode list, creation order */
	bool			i_sync;		/* the flusher is writing it (I_SYNC) */
	struct sim_waitq	i_sync_wait;
	char			name[64];
	uint64_t		slab_dentry, slab_inode;	/* kobj_t (slab=on): its name's
							 * dentry and its xfs_inode */
};

struct super_block {
	struct machine		*m;
	struct bdev		*bdev;
	struct bdi_writeback	*wb;
	char			name[32];
	uint64_t		dev_size;	/* 0: unchecked */
	uint64_t		next_free;	/* bump allocator (device bytes) */
	uint64_t		log_head;	/* next log write, within [0, FS_LOG_BYTES) */
	int			type;		/* enum bdev_fs (sim/bdev.h): whose fsync */
	uint64_t		next_ino;
	struct inode		*inodes, *inodes_tail;
	struct super_block	*next;		/* machine's list, mount order */
	/* statistics */
	uint64_t		log_writes, flushes;
	uint64_t		inode_writes;	/* ext4_write_inode's synchronous writes */
};

/* Mount (or find the mounted) filesystem on `bdev`.  `size` is the
 * device capacity in bytes (0: unchecked).  Starts its flusher. */
struct super_block *fs_mount(struct machine *m, struct bdev *bdev, const char *name, uint64_t size);
/* Create a file (open(O_CREAT)); names need not be unique. */
struct inode *fs_create(struct super_block *sb, const char *name);

/* ---- system calls (task context) ------------------------------------------ */

/* pwrite(2): buffered write of `len` bytes at `pos` (iomap path, iomap.c).
 * Returns bytes written or a negative errno (-ENOMEM, -ENOSPC). */
long ksys_pwrite64(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len);
/* pread(2): buffered read (filemap_read with readahead).  Returns bytes
 * read (short at EOF) or a negative errno. */
long ksys_pread64(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len);
/* fsync(2) / fdatasync(2): vfs_fsync_range over the whole file. */
int vfs_fsync(struct machine *m, struct inode *inode, bool datasync);
/* vfs_fsync_range(): write and wait [start, end] (bytes, inclusive), then
 * the XFS log force if the inode needs it, then a device cache flush. */
int vfs_fsync_range(struct machine *m, struct inode *inode, uint64_t start, uint64_t end,
		    bool datasync);

#define SYNC_FILE_RANGE_WAIT_BEFORE	1u
#define SYNC_FILE_RANGE_WRITE		2u
#define SYNC_FILE_RANGE_WAIT_AFTER	4u
/* sync_file_range(2): nbytes 0 means to the end of the file. */
int ksys_sync_file_range(struct machine *m, struct inode *inode, uint64_t offset, uint64_t nbytes,
			 unsigned int flags);
/* fallocate(2) mode 0: allocate extents for [offset, offset+len) and
 * extend i_size. */
int vfs_fallocate(struct machine *m, struct inode *inode, uint64_t offset, uint64_t len);
/* ftruncate(2): drop the page cache beyond `size` and the extents. */
int do_truncate(struct machine *m, struct inode *inode, uint64_t size);
/* unlink(2) of the last name: truncate to 0 and free the inode. */
int do_unlinkat(struct machine *m, struct inode *inode);

/* ---- the mapping of file offsets to device offsets (fs.c) ------------------ */

/*
 * The iomap_begin of the model (xfs_buffered_write_iomap_begin /
 * xfs_read_iomap_begin): the extent covering `pos`.  For writes a hole is
 * allocated first (FS_ALLOC_GRANULE).  Fills *ext and returns 0; a hole on
 * read returns 0 with ext->addr == UINT64_MAX and ext->len up to the next
 * extent; -ENOSPC when the device is full.
 */
int fs_iomap_begin(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len,
		   bool write, struct fs_extent *ext);
/* Device byte address of file byte `pos`, or UINT64_MAX (hole). */
uint64_t fs_bmap(const struct inode *inode, uint64_t pos);
/* XFS log force for fsync: one log write (4 KiB) to the device. */
void fs_log_force(struct machine *m, struct super_block *sb);

/* The buffered I/O paths behind ksys_pwrite64/ksys_pread64 (iomap.c,
 * filemap.c) — callers hold i_rwsem. */
long iomap_file_buffered_write(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len);
long filemap_read(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len);
/* page_cache_sync_ra() (readahead.c): bring [index, index + req_count)
 * into the page cache, with the readahead window around it. */
void page_cache_sync_ra(struct machine *m, struct inode *inode, unsigned long index,
			unsigned long req_count);
/* filemap_create_folio() (mm/filemap.c, 6.12): when readahead brought
 * nothing in (its __GFP_NORETRY allocations failed), allocate one folio of
 * the mapping's minimum order with the mapping's own gfp (full reclaim),
 * read it and insert it.  Returns 0, -EEXIST (someone else inserted it:
 * look again) or -ENOMEM. */
int filemap_create_folio(struct machine *m, struct inode *inode, unsigned long index);
#define VM_READAHEAD_PAGES	32	/* 128 KiB: the bdi's default ra_pages */

static inline struct inode *mapping_inode(const struct address_space *mapping)
{
	return mapping->kind == MAPPING_FILE ? (struct inode *)mapping->host : NULL;
}

#endif /* SLOWPATH_MM_FS_H */
