/* SPDX-License-Identifier: MIT */
/*
 * pg_smgr.c — PostgreSQL's relation storage: 1 GiB segment files per
 * relation and the system calls md.c makes on them (PostgreSQL 17:
 * src/backend/storage/smgr/md.c, storage/file/fd.c, storage/sync/sync.c).
 *
 *   relation file  base/<db>/<relfilenode>, then .1, .2, ... every
 *                  RELSEG_SIZE = 131072 blocks (1 GiB)
 *   mdread         pread(8 KiB) at (block % RELSEG_SIZE) * BLCKSZ
 *   mdwrite        pwrite(8 KiB), then register_dirty_segment(): the
 *                  segment gets an fsync request that the checkpointer
 *                  absorbs and executes at its end (ProcessSyncRequests)
 *   mdzeroextend   numblocks > 8: posix_fallocate (FileFallocate), else
 *                  pg_pwrite_zeros (FileZero: one pwritev of zero blocks)
 *   mdwriteback    sync_file_range(SYNC_FILE_RANGE_WRITE) (pg_flush_data)
 *
 * The files live on the model's XFS-like filesystem (mm/fs.h) on the
 * scenario's data device; the page cache, writeback and the allocations
 * behind every call are the mm model's.
 *
 * Start state (pg_smgr_init): the database as `pgbench -i` leaves it:
 * accounts heap and its primary key written and checkpointed, so the
 * files have their full size and extents and, for the share `data_cached`
 * of their blocks, clean page-cache folios of the order an 8 KiB buffered
 * write would have created (policy-aware: order 1 on 6.8+, two order-0
 * folios before large folios or on 6.6).  pgbench_history is empty.
 *
 * Simplifications: one tablespace and database; no free-space or
 * visibility maps (their accesses are rare in simple-update); fsync
 * requests are never forwarded back to the backend (the checkpointer's
 * queue has NBuffers slots and never fills here); the data directory's
 * own fsyncs (directory entries) are not modelled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "sim/hostmem.h"
#include "sim/xalloc.h"
#include "workload/pg_internal.h"

enum pg_rel pg_blk_rel(const struct pg *pg, uint32_t blk, uint32_t *relblk)
{
	enum pg_rel r = blk >= pg->rel[PG_REL_HISTORY].first ? PG_REL_HISTORY :
			blk >= pg->rel[PG_REL_PKEY].first ? PG_REL_PKEY : PG_REL_ACCOUNTS;

	*relblk = blk - pg->rel[r].first;
	return r;
}

void pg_blocks_reserve(struct pg *pg, uint32_t nblk)
{
	struct pg_bufpool *bp = &pg->bp;
	uint32_t cap = bp->nblk_cap;

	if (nblk <= cap)
		return;
	while (cap < nblk)
		cap = cap ? cap + cap / 2 + 1024 : 1024;
	/* host huge pages: every transaction reads both at a random block */
	bp->blk_buf = host_huge_grow(bp->blk_buf, (size_t)bp->nblk_cap * sizeof(*bp->blk_buf),
				     (size_t)cap * sizeof(*bp->blk_buf));
	bp->blk_epoch = host_huge_grow(bp->blk_epoch, (size_t)bp->nblk_cap * sizeof(*bp->blk_epoch),
				       (size_t)cap * sizeof(*bp->blk_epoch));
	if (!bp->blk_buf || !bp->blk_epoch)
		SIM_BUG("out of memory for %u blocks' buffer table", cap);
	for (uint32_t i = bp->nblk_cap; i < cap; i++) {
		bp->blk_buf[i] = PG_NONE;
		bp->blk_epoch[i] = 0;
	}
	bp->nblk_cap = cap;
}

/* _mdfd_getseg with EXTENSION_CREATE: the segment file, created empty. */
static struct inode *md_seg(struct pg *pg, enum pg_rel r, uint32_t segno)
{
	struct pg_relation *rel = &pg->rel[r];

	while (rel->nsegs <= segno) {
		char name[64];

		if (rel->nsegs == rel->cap_segs) {
			rel->cap_segs = rel->cap_segs ? rel->cap_segs * 2 : 8;
			rel->seg = xrealloc(rel->seg, rel->cap_segs * sizeof(*rel->seg));
			rel->sync_req = xrealloc(rel->sync_req, rel->cap_segs * sizeof(*rel->sync_req));
		}
		if (rel->nsegs)
			snprintf(name, sizeof(name), "base/5/%u.%u", rel->relfilenode, rel->nsegs);
		else
			snprintf(name, sizeof(name), "base/5/%u", rel->relfilenode);
		rel->seg[rel->nsegs] = fs_create(pg->sb, name);
		rel->sync_req[rel->nsegs] = 0;
		rel->nsegs++;
	}
	return rel->seg[segno];
}

bool pg_prewarm_block(struct pg *pg, struct inode *inode, unsigned long index)
{
	struct machine *m = pg->m;
	struct address_space *mapping = inode->i_mapping;
	bool small = m->policy && m->policy->small_chunks;
	int err;

	for (unsigned long i = index; i < index + PG_BLCKSZ / PAGE_SIZE; i++) {
		fgf_t fgp = FGP_CREAT | FGP_WRITE;

		if (!small && i == index)
			fgp |= fgf_set_order(PG_BLCKSZ);
		if (filemap_lookup(m, mapping, i) != PFN_NONE)
			continue;
		if (__filemap_get_folio(m, mapping, i, fgp, mapping->gfp_mask, &err) == PFN_NONE)
			return false;
	}
	return true;
}

/* A relation of `nblocks` blocks as pgbench -i leaves it. */
static int md_create_existing(struct pg *pg, enum pg_rel r, uint32_t nblocks, bool *cache_ok)
{
	struct pg_relation *rel = &pg->rel[r];
	uint32_t nsegs = (nblocks + pg->relseg_blocks - 1) / pg->relseg_blocks;

	rel->nblocks = nblocks;
	md_seg(pg, r, nsegs ? nsegs - 1 : 0);
	for (uint32_t s = 0; s < nsegs; s++) {
		struct inode *inode = rel->seg[s];
		uint32_t blocks = nblocks - s * pg->relseg_blocks;
		struct fs_extent ext;

		if (blocks > pg->relseg_blocks)
			blocks = pg->relseg_blocks;
		if (fs_iomap_begin(pg->m, inode, 0, (uint64_t)blocks * PG_BLCKSZ, true, &ext))
			return -ENOSPC;
		inode->i_size = (uint64_t)blocks * PG_BLCKSZ;
		inode->i_state = 0;		/* checkpointed: nothing to log */
		if (!pg->cfg.data_cached)
			continue;
		for (uint32_t b = 0; b < blocks && *cache_ok; b++) {
			/* a deterministic choice of data_cached ppm of the blocks */
			if (pg->cfg.data_cached < 1000000 &&
			    rng_below(&pg->init_rng, 1000000) >= pg->cfg.data_cached)
				continue;
			*cache_ok = pg_prewarm_block(pg, inode, (unsigned long)b * (PG_BLCKSZ / PAGE_SIZE));
		}
	}
	return 0;
}

int pg_smgr_init(struct pg *pg)
{
	static const char *const names[PG_NR_RELS] = {
		"pgbench_accounts", "pgbench_accounts_pkey", "pgbench_history"
	};
	static const uint32_t relfilenodes[PG_NR_RELS] = { 16397, 16405, 16388 };
	uint32_t index_blocks = 1;	/* metapage */
	bool cache_ok = true;

	for (uint32_t l = 0; l < pg->nlevels; l++)
		index_blocks += pg->level_pages[l];
	for (int r = 0; r < PG_NR_RELS; r++) {
		pg->rel[r].name = names[r];
		pg->rel[r].relfilenode = relfilenodes[r];
	}
	pg->rel[PG_REL_ACCOUNTS].first = 0;
	/* the accounts heap's room to grow (pg_heap_init) lies before the index */
	pg->rel[PG_REL_PKEY].first = pg->heap_blocks_max;
	/* the index's levels in its file: the metapage (block 0), the leaves,
	 * then each level above (a sorted build writes the leaves in key
	 * order; its interleaving of inner pages among them is left out) */
	for (uint32_t l = 0; l < pg->nlevels; l++)
		pg->level_first[l] = l ? pg->level_first[l - 1] + pg->level_pages[l - 1] :
					 pg->rel[PG_REL_PKEY].first + 1;
	pg->rel[PG_REL_HISTORY].first = pg->rel[PG_REL_PKEY].first + index_blocks;
	pg_blocks_reserve(pg, pg->rel[PG_REL_HISTORY].first + 1024);
	if (md_create_existing(pg, PG_REL_ACCOUNTS,
			       (uint32_t)((pg->naccounts + pg->rows_per_page - 1) / pg->rows_per_page), &cache_ok) ||
	    md_create_existing(pg, PG_REL_PKEY, index_blocks, &cache_ok))
		return -ENOSPC;
	/* accounts grows into its room, the index not at all, the history
	 * (the last relation) without bound */
	pg->rel[PG_REL_ACCOUNTS].max_blocks = pg->heap_blocks_max;
	pg->rel[PG_REL_PKEY].max_blocks = index_blocks;
	pg->rel[PG_REL_HISTORY].max_blocks = UINT32_MAX - pg->rel[PG_REL_HISTORY].first;
	md_seg(pg, PG_REL_HISTORY, 0);
	pg->rel[PG_REL_HISTORY].nblocks = 0;
	pg->rel[PG_REL_HISTORY].seg[0]->i_state = 0;
	return cache_ok ? 0 : -ENOMEM;
}

void pg_smgr_release(struct pg *pg)
{
	for (int r = 0; r < PG_NR_RELS; r++) {
		free(pg->rel[r].seg);
		free(pg->rel[r].sync_req);
		pg->rel[r].seg = NULL;
		pg->rel[r].sync_req = NULL;
	}
}

static struct inode *blk_file(struct pg *pg, uint32_t blk, uint64_t *off, enum pg_rel *rp, uint32_t *segp)
{
	uint32_t relblk;
	enum pg_rel r = pg_blk_rel(pg, blk, &relblk);

	*off = (uint64_t)(relblk % pg->relseg_blocks) * PG_BLCKSZ;
	*rp = r;
	*segp = relblk / pg->relseg_blocks;
	return md_seg(pg, r, *segp);
}

/* register_dirty_segment(): forward an fsync request to the checkpointer. */
static void register_dirty_segment(struct pg *pg, enum pg_rel r, uint32_t seg)
{
	pg->rel[r].sync_req[seg] = 1;
}

/* mdreadv / mdwritev of one block.  A failure is counted: PostgreSQL
 * would raise an ERROR ("could not read/write block"). */
static void md_rw(struct pg_proc *p, uint32_t blk, bool write)
{
	struct pg *pg = p->pg;
	uint64_t off;
	enum pg_rel r;
	uint32_t seg;
	struct inode *inode = blk_file(pg, blk, &off, &r, &seg);

	sim_path_push(pg->sim, write ? "mdwrite" : "mdread");
	pgstat_report_wait_start(p, write ? PG_WAIT_IO_DATAFILEWRITE : PG_WAIT_IO_DATAFILEREAD);
	if (write) {
		if (ksys_pwrite64(pg->m, inode, off, PG_BLCKSZ) < 0)
			p->st.write_errors++;
	} else if (ksys_pread64(pg->m, inode, off, PG_BLCKSZ) < 0) {
		p->st.read_errors++;
	}
	pgstat_report_wait_end(p);
	if (write)
		register_dirty_segment(pg, r, seg);
	sim_path_pop(pg->sim);
}

void pg_mdread(struct pg_proc *p, uint32_t blk)
{
	md_rw(p, blk, false);
}

void pg_mdwrite(struct pg_proc *p, uint32_t blk)
{
	md_rw(p, blk, true);
}

void pg_mdzeroextend(struct pg_proc *p, enum pg_rel r, uint32_t n)
{
	struct pg *pg = p->pg;
	struct pg_relation *rel = &pg->rel[r];
	uint32_t b = rel->nblocks, end = rel->nblocks + n;

	pg_blocks_reserve(pg, rel->first + end);
	sim_path_push(pg->sim, "mdzeroextend");
	while (b < end) {
		uint32_t seg = b / pg->relseg_blocks;
		uint32_t upto = (seg + 1) * pg->relseg_blocks < end ? (seg + 1) * pg->relseg_blocks : end;
		struct inode *inode = md_seg(pg, r, seg);
		uint64_t off = (uint64_t)(b % pg->relseg_blocks) * PG_BLCKSZ;
		uint64_t len = (uint64_t)(upto - b) * PG_BLCKSZ;
		long ret;

		pgstat_report_wait_start(p, PG_WAIT_IO_DATAFILEEXTEND);
		if (upto - b > 8)
			ret = vfs_fallocate(pg->m, inode, off, len);
		else
			ret = ksys_pwrite64(pg->m, inode, off, len);
		pgstat_report_wait_end(p);
		if (ret < 0)
			p->st.write_errors++;
		register_dirty_segment(pg, r, seg);
		b = upto;
	}
	rel->nblocks = end;
	sim_path_pop(pg->sim);
}

void pg_mdwriteback(struct pg_proc *p, uint32_t blk, uint32_t n)
{
	struct pg *pg = p->pg;
	uint64_t off;
	enum pg_rel r;
	uint32_t seg;
	struct inode *inode = blk_file(pg, blk, &off, &r, &seg);

	sim_path_push(pg->sim, "mdwriteback");
	pgstat_report_wait_start(p, PG_WAIT_IO_DATAFILEFLUSH);
	ksys_sync_file_range(pg->m, inode, off, (uint64_t)n * PG_BLCKSZ, SYNC_FILE_RANGE_WRITE);
	pgstat_report_wait_end(p);
	p->st.writeback_calls++;
	sim_path_pop(pg->sim);
}

uint32_t pg_process_sync_requests(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	uint32_t n = 0;

	sim_path_push(pg->sim, "ProcessSyncRequests");
	for (int r = 0; r < PG_NR_RELS; r++)
		for (uint32_t s = 0; s < pg->rel[r].nsegs; s++) {
			if (!pg->rel[r].sync_req[s])
				continue;
			pg->rel[r].sync_req[s] = 0;
			vfs_fsync(pg->m, pg->rel[r].seg[s], false);
			n++;
		}
	sim_path_pop(pg->sim);
	return n;
}
