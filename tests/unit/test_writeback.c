/* SPDX-License-Identifier: MIT */
/*
 * test_writeback.c — dirty accounting, writeback completion, fsync /
 * fdatasync / sync_file_range semantics, periodic and background
 * writeback, dirty throttling, and the dirty thresholds /proc/vmstat
 * prints.  Everything that blocks runs in engine tasks.
 */
#include <errno.h>

#include "mm/fs.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/writeback.h"
#include "mm/writeback_internal.h"
#include "mm_test.h"
#include "sim/bdev.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC
#define MS SIM_NSEC_PER_MSEC
#define SEC SIM_NSEC_PER_SEC

static const char *const small[] = { "memory=256m", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };

struct wb_env {
	struct mm_env	e;
	struct machine	*m;
	struct bdev	*dev;
	struct super_block *sb;
	struct inode	*inode;
	/* results the task fills */
	sim_time_t	t0, t1, t2;
	long		r[8];
	long		v[8];
};

/* The machine, device `bc` and a file "f" on it. */
static struct machine *wb_env_create_bdev(struct wb_env *w, const char *const *kv,
					  const struct bdev_config *bc)
{
	memset(w, 0, sizeof(*w));
	w->m = mm_env_create(&w->e, kv ? kv : small);
	if (!w->m)
		return NULL;
	/* mm_check after every mm operation (SIM_DEBUG>=3), as mm_env_create sets */
	w->dev = bdev_create(w->e.sim, bc);
	w->sb = fs_mount(w->m, w->dev, "vol", 0);
	w->inode = fs_create(w->sb, "f");
	return w->m;
}

static struct machine *wb_env_create_raid(struct wb_env *w, const char *const *kv, uint64_t bw,
					  int completion, uint32_t members, uint32_t nr_requests)
{
	struct bdev_config bc = {
		.name = "vol", .lat_mean_ns = 500 * US, .flush_ns = 300 * US, .members = members,
		.chunk_bytes = 64 << 10, .bandwidth = bw, .completion = completion,
		.nr_requests = nr_requests,
	};

	return wb_env_create_bdev(w, kv, &bc);
}

static struct machine *wb_env_create_dev(struct wb_env *w, const char *const *kv, uint64_t bw,
					 int completion)
{
	return wb_env_create_raid(w, kv, bw, completion, 1, 0);
}

static struct machine *wb_env_create(struct wb_env *w, const char *const *kv, uint64_t bw)
{
	return wb_env_create_dev(w, kv, bw, BDEV_COMPLETE_KTHREAD);
}

static long node_stat(struct machine *m, enum node_stat_item i)
{
	return node_page_state_exact(&m->node, i);
}

/* ---- fsync ------------------------------------------------------------------------- */

static void fsync_task(struct sim *sim, void *p)
{
	struct wb_env *w = p;
	struct machine *m = w->m;

	w->r[0] = ksys_pwrite64(m, w->inode, 0, 1 << 20);
	w->v[0] = node_stat(m, NR_FILE_DIRTY);
	w->t0 = sim_now(sim);
	w->r[1] = vfs_fsync(m, w->inode, false);
	w->t1 = sim_now(sim);
	w->v[1] = node_stat(m, NR_FILE_DIRTY) + node_stat(m, NR_WRITEBACK);
	w->v[2] = (long)w->sb->log_writes;
	/* overwrite in place in a later tick (timestamps move once a tick):
	 * only timestamps changed -> fdatasync needs no log */
	sim_sleep(sim, 4 * MS);
	w->r[2] = ksys_pwrite64(m, w->inode, 0, 65536);
	w->r[3] = vfs_fsync(m, w->inode, true);
	w->v[3] = (long)w->sb->log_writes;
	/* fsync persists the timestamps: one log write */
	w->r[4] = vfs_fsync(m, w->inode, false);
	w->v[4] = (long)w->sb->log_writes;
	/* extending write: fdatasync must log the size */
	w->r[5] = ksys_pwrite64(m, w->inode, 1 << 20, 4096);
	w->r[6] = vfs_fsync(m, w->inode, true);
	w->v[5] = (long)w->sb->log_writes;
	w->v[6] = node_stat(m, NR_FILE_DIRTY) + node_stat(m, NR_WRITEBACK);
}

/* A test of fsync/fdatasync semantics: a 1 MiB write then fsync returns
 * only when no page of the file is dirty or under writeback, after at
 * least one device latency, with one log write (new extents and size);
 * an in-place overwrite + fdatasync writes no log (only timestamps
 * changed), a following fsync does; an extending write + fdatasync logs
 * again.  The 64 KiB overwrite lands in the order-8 folio of the first
 * write: the folio counts as dirty and as written whole (nr_dirtied and
 * nr_written are per folio, as the kernel's), but only its 16 dirty
 * blocks go to the device (iomap's per-block dirty state, 6.6+).  Expect
 * nr_dirtied = nr_written = 256 + 256 + 1 pages, a flush after every
 * call, and pgpgout = 1024 + 64 + 4 KiB of data + 3 log writes. */
TEST(fsync_fdatasync_semantics)
{
	struct wb_env w;
	struct machine *m = wb_env_create(&w, NULL, 0);

	ASSERT_TRUE(m);
	st_task(w.e.sim, "writer", SIM_CPU_ANY, false, fsync_task, &w, 0);
	sim_run(w.e.sim, 2 * SEC);
	ASSERT_EQ(w.r[0], 1 << 20);
	ASSERT_EQ(w.v[0], 256);
	ASSERT_EQ(w.r[1], 0);
	ASSERT_EQ(w.v[1], 0);
	ASSERT_TRUE(w.t1 - w.t0 >= 500 * US + 300 * US);
	ASSERT_EQ(w.v[2], 1);
	ASSERT_EQ(w.v[3], 1);
	ASSERT_EQ(w.v[4], 2);
	ASSERT_EQ(w.v[5], 3);
	ASSERT_EQ(w.v[6], 0);
	/* the overwrite dirtied the order-8 folio it landed in; its 64 KiB went out */
	ASSERT_EQ(node_stat(m, NR_DIRTIED), 256 + 256 + 1);
	ASSERT_EQ(node_stat(m, NR_WRITTEN), 256 + 256 + 1);
	ASSERT_EQ(w.sb->flushes, 4);
	ASSERT_EQ(sum_vm_event(m, PGPGOUT) / 2, 1024 + 64 + 4 + 3 * 4);
	ASSERT_EQ(zone_page_state_exact(mm_zone(m, ZONE_NORMAL), NR_ZONE_WRITE_PENDING) +
		  zone_page_state_exact(mm_zone(m, ZONE_DMA), NR_ZONE_WRITE_PENDING), 0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/* ---- sync_file_range and PG_reclaim -------------------------------------------------- */

static void sfr_task(struct sim *sim, void *p)
{
	struct wb_env *w = p;
	struct machine *m = w->m;
	pfn_t pfn;

	for (int i = 0; i < 4; i++)	/* four order-4 folios */
		w->r[0] += ksys_pwrite64(m, w->inode, (uint64_t)i << 16, 1 << 16);
	lru_add_drain_all(m);
	w->t0 = sim_now(sim);
	w->r[1] = ksys_sync_file_range(m, w->inode, 0, 128 << 10, SYNC_FILE_RANGE_WRITE);
	w->t1 = sim_now(sim);
	w->v[0] = node_stat(m, NR_WRITEBACK);
	w->v[1] = node_stat(m, NR_FILE_DIRTY);
	/* reclaim found the folio under writeback and marked it (shrink_folio_list) */
	pfn = filemap_lookup(m, w->inode->i_mapping, 0);
	pfn_to_page(m, pfn)->flags |= PG_reclaim;
	w->v[2] = pfn;
	w->r[2] = ksys_sync_file_range(m, w->inode, 0, 128 << 10,
				       SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
				       SYNC_FILE_RANGE_WAIT_AFTER);
	w->t2 = sim_now(sim);
	w->v[3] = node_stat(m, NR_WRITEBACK);
	w->v[4] = (long)w->sb->flushes + (long)w->sb->log_writes;
}

/* A test of sync_file_range: WRITE alone starts writeback of the range's
 * dirty folios and returns without waiting (nr_writeback 32 pages right
 * after, the other 32 still dirty, no time waited); with WAIT_BEFORE and
 * WAIT_AFTER it returns when the range is written; no log write or
 * flush.  The folio marked PG_reclaim under writeback is rotated to the
 * tail of the inactive file list at completion and PG_reclaim cleared.
 * Expect pgrotated = that folio's pages. */
TEST(sync_file_range_and_rotate_reclaimable)
{
	struct wb_env w;
	struct machine *m = wb_env_create(&w, NULL, 0);
	struct lruvec *lruvec;
	struct page *page;

	ASSERT_TRUE(m);
	st_task(w.e.sim, "writer", SIM_CPU_ANY, false, sfr_task, &w, 0);
	sim_run(w.e.sim, 1 * SEC);
	ASSERT_EQ(w.r[0], 256 << 10);
	ASSERT_EQ(w.r[1], 0);
	ASSERT_EQ(w.v[0], 32);
	ASSERT_EQ(w.v[1], 32);
	ASSERT_TRUE(w.t1 - w.t0 < 500 * US);
	ASSERT_TRUE(w.t2 - w.t1 >= 500 * US);
	ASSERT_EQ(w.v[3], 0);
	ASSERT_EQ(w.v[4], 0);
	page = pfn_to_page(m, (pfn_t)w.v[2]);
	ASSERT_FALSE(page->flags & (PG_reclaim | PG_writeback));
	lruvec = &m->node.__lruvec;
	ASSERT_EQ(lruvec->lists[LRU_INACTIVE_FILE].tail, (pfn_t)w.v[2]);
	ASSERT_EQ(sum_vm_event(m, PGROTATED), folio_nr_pages(page));
	ASSERT_MM_OK(m);
	mm_env_destroy(&w.e);
}

/* ---- where completions run ----------------------------------------------------------- */

static void irq_fsync_task(struct sim *sim, void *p)
{
	struct wb_env *w = p;

	w->r[0] = ksys_pwrite64(w->m, w->inode, 0, 1 << 20);
	w->v[0] = (long)sim_cpu(sim);
	w->t0 = sim_now(sim);
	w->r[1] = vfs_fsync(w->m, w->inode, true);
	w->t1 = sim_now(sim);
	w->v[1] = node_stat(w->m, NR_FILE_DIRTY) + node_stat(w->m, NR_WRITEBACK);
}

static bool has_task_kind(struct sim *sim, const char *kind)
{
	for (uint32_t i = 0; i < sim_nr_tasks(sim); i++)
		if (!strcmp(sim_task_kind_name(sim, sim_task_kind_of(sim_task_get(sim, i))), kind))
			return true;
	return false;
}

/* A test of completion=irq: a 1 MiB write and fdatasync on a device whose
 * completions run in interrupt context.  Expect the same fsync result as
 * with the completion thread (nothing dirty or under writeback after it,
 * at least one device latency), no "endio" task, and the completion
 * interrupts taken on the CPU the writer submitted from.  With
 * completion=kthread: an "endio" task and no interrupt anywhere. */
TEST(writeback_completion_in_irq_context)
{
	for (int mode = BDEV_COMPLETE_KTHREAD; mode <= BDEV_COMPLETE_IRQ; mode++) {
		struct wb_env w;
		struct machine *m = wb_env_create_dev(&w, NULL, 0, mode);
		uint64_t irqs = 0, irqs_cpu = 0;

		ASSERT_TRUE(m);
		st_task(w.e.sim, "writer", SIM_CPU_ANY, false, irq_fsync_task, &w, 0);
		sim_run(w.e.sim, 1 * SEC);
		ASSERT_EQ(w.r[0], 1 << 20);
		ASSERT_EQ(w.r[1], 0);
		ASSERT_EQ(w.v[1], 0);
		ASSERT_TRUE(w.t1 - w.t0 >= 500 * US);
		for (unsigned int c = 0; c < sim_ncpus(w.e.sim); c++) {
			struct sim_cpu_stats cs;

			sim_cpu_stats(w.e.sim, c, &cs);
			irqs += cs.irqs;
			if (c == (unsigned int)w.v[0])
				irqs_cpu = cs.irqs;
		}
		if (mode == BDEV_COMPLETE_IRQ) {
			ASSERT_FALSE(has_task_kind(w.e.sim, "endio"));
			ASSERT_TRUE(irqs > 0);
			ASSERT_U64_EQ(irqs_cpu, irqs);
		} else {
			ASSERT_TRUE(has_task_kind(w.e.sim, "endio"));
			ASSERT_U64_EQ(irqs, 0);
		}
		ASSERT_MM_OK(m);
		mm_env_destroy(&w.e);
	}
}

/* A test of per-member request tags ([device] nr_requests): a 1 MiB write
 * and fdatasync on a RAID0 of 4 with 64 KiB chunks and one tag per
 * member, against the same device with one pool of 128.  Expect both to
 * leave nothing dirty or under writeback, every member's tag count back
 * at 0, and the one-tag device to take at least as long. */
TEST(writeback_per_member_request_tags)
{
	sim_time_t took[2];

	for (int i = 0; i < 2; i++) {
		struct wb_env w;
		struct machine *m = wb_env_create_raid(&w, NULL, 0, BDEV_COMPLETE_KTHREAD, 4, i ? 1 : 0);

		ASSERT_TRUE(m);
		st_task(w.e.sim, "writer", SIM_CPU_ANY, false, irq_fsync_task, &w, 0);
		sim_run(w.e.sim, 1 * SEC);
		ASSERT_EQ(w.r[1], 0);
		ASSERT_EQ(w.v[1], 0);
		took[i] = w.t1 - w.t0;
		if (i) {
			ASSERT_TRUE(w.sb->wb->member_depth == 1);
			for (int k = 0; k < 4; k++)
				ASSERT_EQ(w.sb->wb->member_inflight[k], 0);
		}
		mm_env_destroy(&w.e);
	}
	ASSERT_TRUE(took[1] >= took[0]);
}

/* ---- periodic writeback --------------------------------------------------------------- */

static void small_write_task(struct sim *sim, void *p)
{
	struct wb_env *w = p;

	(void)sim;
	w->r[0] = ksys_pwrite64(w->m, w->inode, 0, 65536);
}

/* A test of the periodic flusher (kupdate): 64 KiB dirtied at t=0 and
 * left alone stays dirty while younger than dirty_expire_centisecs (30 s)
 * and is written by the first periodic pass after that (every
 * dirty_writeback_centisecs = 5 s: at 30 s).  Expect 16 dirty pages at
 * 29 s, none dirty or under writeback and 16 written at 31 s, and one
 * sim_wb_periodic pass per 5 s. */
TEST(periodic_writeback_expires_dirty_data)
{
	struct wb_env w;
	struct machine *m = wb_env_create(&w, NULL, 0);

	ASSERT_TRUE(m);
	st_task(w.e.sim, "writer", SIM_CPU_ANY, false, small_write_task, &w, 0);
	sim_run(w.e.sim, 29 * SEC);
	ASSERT_EQ(w.r[0], 65536);
	ASSERT_EQ(node_stat(m, NR_FILE_DIRTY), 16);
	ASSERT_EQ(node_stat(m, NR_WRITTEN), 0);
	sim_run(w.e.sim, 31 * SEC);
	ASSERT_EQ(node_stat(m, NR_FILE_DIRTY) + node_stat(m, NR_WRITEBACK), 0);
	ASSERT_EQ(node_stat(m, NR_WRITTEN), 16);
	ASSERT_EQ(sim_stat_read(m, SIM_WB_PERIODIC), 6);
	ASSERT_FALSE(w.inode->on_dirty_list);
	mm_env_destroy(&w.e);
}

/* ---- the filesystem's fsync and the flusher's expiry clock ----------------------------- */

/* A single-tag device with `fs` on it, and a second file. */
static struct machine *wb_env_create_fs(struct wb_env *w, int fs, sim_time_t lat, struct inode **second)
{
	struct bdev_config bc = {
		.name = "vol", .lat_mean_ns = lat, .flush_ns = 300 * US, .members = 1,
		.nr_requests = 1, .fs = fs,
	};

	if (!wb_env_create_bdev(w, NULL, &bc))
		return NULL;
	*second = fs_create(w->sb, "wal");
	return w->m;
}

struct expiry_env {
	struct wb_env	w;
	struct inode	*wal;
	bool		stop;
	long		syncs;		/* fdatasyncs of the WAL returned */
	int		nfsync;		/* the data file's fsyncs: */
	sim_time_t	fsync_start[8];
	sim_time_t	fsync_dated[8];	/* its dirtied_when when the fsync returned */
	bool		fsync_dirty[8];	/* dirtied during the fsync, still dirty */
};

/* A backend: every 10 ms one 4-KiB page of the data file (even pages of
 * the first 128, in turn: no two are adjacent, so each is a bio of its
 * own). */
static void expiry_writer(struct sim *sim, void *p)
{
	struct expiry_env *x = p;

	for (unsigned int i = 0; !x->stop; i++) {
		sim_sleep(sim, 10 * MS);
		ksys_pwrite64(x->w.m, x->w.inode, (uint64_t)(i % 64) * 2 * 4096, 4096);
	}
}

/* The WAL: a page written and fdatasynced every 100 ms; and every 2 s a
 * new file with one page (as new WAL segments and relation forks come),
 * the newest inode on the dirty list. */
static void expiry_wal(struct sim *sim, void *p)
{
	struct expiry_env *x = p;

	for (unsigned int i = 1; !x->stop; i++) {
		sim_sleep(sim, 100 * MS);
		ksys_pwrite64(x->w.m, x->wal, 0, 4096);
		vfs_fsync(x->w.m, x->wal, true);
		x->syncs++;
		if (i % 20 == 0)
			ksys_pwrite64(x->w.m, fs_create(x->w.sb, "new"), 0, 4096);
	}
}

/* The checkpointer: fsync of the data file every 10 s. */
static void expiry_checkpointer(struct sim *sim, void *p)
{
	struct expiry_env *x = p;

	while (!x->stop && x->nfsync < 8) {
		int k = x->nfsync;

		sim_sleep(sim, 10 * SEC);
		x->fsync_start[k] = sim_now(sim);
		vfs_fsync(x->w.m, x->w.inode, false);
		x->fsync_dated[k] = x->w.inode->dirtied_when;
		x->fsync_dirty[k] = x->w.inode->i_state & I_DIRTY_PAGES;
		x->nfsync++;
	}
}

static void expiry_run(struct expiry_env *x, int fs)
{
	ASSERT_TRUE(wb_env_create_fs(&x->w, fs, 20 * MS, &x->wal));
	st_task(x->w.e.sim, "writer", SIM_CPU_ANY, false, expiry_writer, x, 0);
	st_task(x->w.e.sim, "wal", SIM_CPU_ANY, false, expiry_wal, x, 0);
	st_task(x->w.e.sim, "checkpointer", SIM_CPU_ANY, false, expiry_checkpointer, x, 0);
	sim_run(x->w.e.sim, 46 * SEC);
}

/* A test of what a filesystem's fsync does to the flusher's expiry clock
 * (fs/fs-writeback.c, fs/ext4/fsync.c, fs/xfs/xfs_file.c): a data file
 * dirtied every 10 ms and fsynced every 10 s on a device slow enough
 * (20 ms a request, one at a time) that every fsync returns with pages
 * dirtied during it, beside a WAL fdatasynced every 100 ms and a new
 * one-page file every 2 s.  On XFS the fsync leaves the data file's
 * dirtied_when alone: it is still its first dirtying's (10 ms) after the
 * fsyncs at 10 and 20 s, the file is 30 s old at the periodic pass at
 * 30 s, and the flusher writes it and re-dates it as the pass ends with
 * pages dirtied meanwhile (redirty_tail: the new files are newer).  On
 * ext4 without a journal every fsync ends in sync_inode_metadata, which
 * re-dates it the same way at the fsync's end, so no pass finds it 30 s
 * old.  Expect: XFS: fsyncs 1 and 2 return dirty and dated 10 ms,
 * periodic pages > 0, dirtied_when after 30 s at the end, no inode table
 * write; ext4: every fsync returns dirty and dated after its start, no
 * log write, and one inode table write per WAL fdatasync at least. */
TEST(fsync_expiry_clock_xfs_and_ext4)
{
	struct expiry_env x;
	struct machine *m;

	memset(&x, 0, sizeof(x));
	expiry_run(&x, BDEV_FS_XFS);
	m = x.w.m;
	ASSERT_TRUE(x.nfsync >= 4);
	for (int k = 0; k < 2; k++) {
		ASSERT_TRUE(x.fsync_dirty[k]);
		ASSERT_EQ(x.fsync_dated[k], x.fsync_dated[0]);
		ASSERT_TRUE(x.fsync_dated[k] < 20 * MS);
	}
	ASSERT_TRUE(sim_stat_read(m, SIM_WB_PERIODIC_PAGES) > 0);
	ASSERT_TRUE(x.w.inode->dirtied_when > 30 * SEC);
	ASSERT_EQ(x.w.sb->inode_writes, 0);
	x.stop = true;
	mm_env_destroy(&x.w.e);

	memset(&x, 0, sizeof(x));
	expiry_run(&x, BDEV_FS_EXT4_NOJOURNAL);
	m = x.w.m;
	ASSERT_TRUE(x.nfsync >= 3);
	for (int k = 0; k < x.nfsync; k++) {
		ASSERT_TRUE(x.fsync_dirty[k]);
		ASSERT_TRUE(x.fsync_dated[k] > x.fsync_start[k]);
	}
	ASSERT_EQ(x.w.sb->log_writes, 0);
	ASSERT_TRUE(x.syncs > 100);
	ASSERT_TRUE(x.w.sb->inode_writes >= (uint64_t)x.syncs);
	x.stop = true;
	mm_env_destroy(&x.w.e);
}

static void itable_task(struct sim *sim, void *p)
{
	struct wb_env *w = p;

	/* two overwrites and fdatasyncs in one 4-ms tick, one in the next */
	w->r[0] = ksys_pwrite64(w->m, w->inode, 0, 4096);
	w->r[1] = vfs_fsync(w->m, w->inode, true);
	w->v[0] = (long)w->sb->inode_writes;
	w->r[2] = ksys_pwrite64(w->m, w->inode, 0, 4096);
	w->r[3] = vfs_fsync(w->m, w->inode, true);
	w->v[1] = (long)w->sb->inode_writes;
	w->t0 = sim_now(sim);
	sim_sleep_until(sim, 4 * MS);
	w->r[4] = ksys_pwrite64(w->m, w->inode, 0, 4096);
	w->r[5] = vfs_fsync(w->m, w->inode, true);
	w->v[2] = (long)w->sb->inode_writes;
	w->v[3] = (long)w->sb->log_writes;
}

/* A test of ext4 fdatasync without a journal: an overwrite changes only
 * timestamps, which move once a tick (file_update_time, coarse clock,
 * HZ=250 here), so fdatasync writes the inode table block after the
 * first write of a tick and not after a second one in the same tick.
 * Expect inode writes 1, 1, 2 after the three fdatasyncs (the first two
 * end within the first tick: 500-us writes, a 300-us flush), never a log
 * write. */
TEST(ext4_fdatasync_writes_the_inode_once_a_tick)
{
	struct wb_env w;
	struct inode *other;
	struct machine *m = wb_env_create_fs(&w, BDEV_FS_EXT4_NOJOURNAL, 500 * US, &other);

	ASSERT_TRUE(m);
	st_task(w.e.sim, "writer", SIM_CPU_ANY, false, itable_task, &w, 0);
	sim_run(w.e.sim, 1 * SEC);
	ASSERT_EQ(w.r[0], 4096);
	ASSERT_EQ(w.r[4], 4096);
	ASSERT_EQ(w.v[0], 1);
	ASSERT_EQ(w.v[1], 1);
	ASSERT_EQ(w.v[2], 2);
	ASSERT_EQ(w.v[3], 0);
	mm_env_destroy(&w.e);
}

/* ---- background writeback and throttling ------------------------------------------------ */

struct throttle_env {
	struct wb_env	w;
	unsigned long	max_dirty, thresh_at_max;
	bool		done;
	sim_time_t	end;
};

static void heavy_writer(struct sim *sim, void *p)
{
	struct throttle_env *t = p;

	for (uint64_t off = 0; off < (160ULL << 20); off += 1 << 20)
		if (ksys_pwrite64(t->w.m, t->w.inode, off, 1 << 20) != 1 << 20)
			break;
	t->done = true;
	t->end = sim_now(sim);
}

static void dirty_monitor(struct sim *sim, void *p)
{
	struct throttle_env *t = p;

	while (!t->done) {
		unsigned long bg, thresh;
		unsigned long d = (unsigned long)(node_stat(t->w.m, NR_FILE_DIRTY) +
						  node_stat(t->w.m, NR_WRITEBACK));

		global_dirty_limits(t->w.m, &bg, &thresh);
		if (d > t->max_dirty) {
			t->max_dirty = d;
			t->thresh_at_max = thresh;
		}
		sim_sleep(sim, 10 * MS);
	}
}

/* A test of dirty throttling and background writeback: on a 256 MiB
 * machine with a 16 MiB/s device a writer dirties 160 MiB in 1 MiB
 * writes, far more than the dirty limit (20 % of ~230 MiB dirtyable).
 * Expect background writeback passes, writer pauses
 * (sim_dirty_throttle), dirty + writeback never above the limit by more
 * than one write's pages (256) plus the pages a pause lets through, and
 * a run time of at least (160 MiB - limit) / 16 MiB/s. */
TEST(dirty_throttling_and_background_writeback)
{
	struct throttle_env t = { 0 };
	struct machine *m = wb_env_create(&t.w, NULL, 16ULL << 20);
	unsigned long bg, thresh;

	ASSERT_TRUE(m);
	global_dirty_limits(m, &bg, &thresh);
	ASSERT_TRUE(thresh > 10000 && thresh < 14000);
	ASSERT_EQ(bg, (10UL * 4096 / 100) * global_dirtyable_memory(m) / 4096);
	st_task(t.w.e.sim, "writer", SIM_CPU_ANY, false, heavy_writer, &t, 0);
	st_task(t.w.e.sim, "monitor", SIM_CPU_ANY, false, dirty_monitor, &t, 0);
	sim_run(t.w.e.sim, 60 * SEC);
	ASSERT_TRUE(t.done);
	ASSERT_TRUE(sim_stat_read(m, SIM_WB_BACKGROUND) > 0);
	ASSERT_TRUE(sim_stat_read(m, SIM_DIRTY_THROTTLE) > 0);
	ASSERT_TRUE(t.max_dirty <= t.thresh_at_max + 2 * 256);
	ASSERT_TRUE(t.end >= (sim_time_t)((160.0 - 4.0 * thresh / 1024) / 16.0 * SEC));
	ASSERT_EQ(node_stat(m, NR_DIRTIED), 160 * 256);
	mm_env_destroy(&t.w.e);
}

/* A test of the thresholds /proc/vmstat prints: global_dirty_limits of a
 * fresh machine, computed by hand from free pages, totalreserve_pages and
 * the ratios (20 % / 10 %, the ratios as per-PAGE_SIZE fractions as the
 * kernel computes them).  Expect the rendered nr_dirty_threshold and
 * nr_dirty_background_threshold lines to hold those values. */
TEST(dirty_thresholds_rendered)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, small);
	unsigned long avail, thresh, bg;
	char line[128], *text;

	ASSERT_TRUE(m);
	avail = global_zone_page_state(m, NR_FREE_PAGES) - m->totalreserve_pages + 1;
	thresh = (20UL * 4096 / 100) * avail / 4096;
	bg = (10UL * 4096 / 100) * avail / 4096;
	ASSERT_EQ(global_dirtyable_memory(m), avail);
	text = mm_render(m, mm_show_vmstat);
	snprintf(line, sizeof(line), "\nnr_dirty_threshold %lu\n", thresh);
	ASSERT_TRUE(strstr(text, line) != NULL);
	snprintf(line, sizeof(line), "\nnr_dirty_background_threshold %lu\n", bg);
	ASSERT_TRUE(strstr(text, line) != NULL);
	free(text);
	mm_env_destroy(&e);
}
