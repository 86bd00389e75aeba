/* SPDX-License-Identifier: MIT */
/*
 * iomap.c — the iomap buffered-write loop and iomap writeback
 * (fs/iomap/buffered-io.c, Linux 6.12; the pre-5d8edfb900d5 loop of
 * 6.5 as the P0 variant).  __filemap_get_folio, mm/filemap.c; large folios, mm/filemap.c.
 *
 * Buffered write (iomap_file_buffered_write):
 *
 *   for each extent mapping (iomap_iter -> fs_iomap_begin):
 *     iomap_write_iter:
 *       chunk = mapping_max_folio_size (2 MiB)  |  P0: PAGE_SIZE
 *       repeat until the mapping's length is used:
 *         bytes = min(chunk - (pos & (chunk - 1)), bytes left)
 *         balance_dirty_pages_ratelimited
 *         bytes = min(bytes, mapping length left)
 *         iomap_get_folio(pos, bytes): FGP_WRITEBEGIN | FGP_NOFS |
 *           fgf_set_order(bytes), the mapping's gfp
 *           (V1: minus __GFP_DIRECT_RECLAIM when that order is costly)
 *           -> __filemap_get_folio (filemap.c: the order loop)
 *         bytes = min(bytes, what is left of the folio from pos)
 *         copy from user; iomap_write_end: mark the folio dirty, i_size
 *
 * So a write covering an aligned 2^k-page stretch asks for one order-k
 * folio; a misaligned one makes the "staircase" of write size to folio order, docs/pagecache.md.
 *
 * Writeback (iomap_writepages): walk PAGECACHE_TAG_DIRTY folios in index
 * order, clear dirty + start writeback on each, and gather the dirty
 * blocks of folios (the folio's dirty range, writeback.h) that are
 * contiguous on the device into one bio of at most 1280 KiB (the block
 * layer's default max_sectors_kb, BLK_DEF_MAX_SECTORS_CAP).
 *
 * Simplifications: no folio locks; sub-block writes do not read the rest
 * of the block from the device (the kernel's __iomap_write_begin reads a
 * block that is within i_size and not uptodate; the modelled workloads
 * write whole pages); IOCB_NOWAIT is not modelled; the user buffer never
 * faults (fault_in_iov_iter_readable is free).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "mm/writeback.h"
#include "mm/writeback_internal.h"

#define WB_MAX_BIO_BYTES	(1280UL << 10)	/* max_sectors_kb default */
#define WB_MAX_BIO_FOLIOS	(WB_MAX_BIO_BYTES >> PAGE_SHIFT)

/* mapping_max_folio_size() */
static uint64_t mapping_max_folio_size(const struct address_space *mapping)
{
	return (uint64_t)PAGE_SIZE << mapping->max_order;
}

/*
 * iomap_get_folio() (6.12), with the V1 variant (docs/slowpath.md, policy variants: the gfp loses
 * __GFP_DIRECT_RECLAIM when the iteration's hinted order is above
 * PAGE_ALLOC_COSTLY_ORDER; filemap then uses that gfp for every order).
 */
static pfn_t iomap_get_folio(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len,
			     int *err)
{
	struct address_space *mapping = inode->i_mapping;
	fgf_t fgp = FGP_WRITEBEGIN | FGP_NOFS;
	gfp_t gfp = mapping->gfp_mask;
	pfn_t pfn;

	sim_path_push(m->sim, "iomap_get_folio");
	if (!mm_pol(m)->small_chunks)		/* d6bb59a9444d: pass the length as an order hint */
		fgp |= fgf_set_order((unsigned long)len);
	if (mm_pol(m)->iomap_costly_noreclaim && FGF_GET_ORDER(fgp) > PAGE_ALLOC_COSTLY_ORDER)
		gfp &= ~__GFP_DIRECT_RECLAIM;
	pfn = __filemap_get_folio(m, mapping, (unsigned long)(pos >> PAGE_SHIFT), fgp, gfp, err);
	sim_path_pop(m->sim);
	return pfn;
}

/* iomap_write_iter() for one extent mapping of `length` bytes at `pos`.
 * Returns bytes written, or a negative errno when nothing was written. */
static long iomap_write_iter(struct machine *m, struct inode *inode, uint64_t pos, uint64_t length)
{
	struct address_space *mapping = inode->i_mapping;
	uint64_t chunk = mm_pol(m)->small_chunks ? PAGE_SIZE : mapping_max_folio_size(mapping);
	long written = 0;

	sim_path_push(m->sim, "iomap_write_iter");
	while (length) {
		uint64_t bytes = length, offset, fpos, fsize;
		struct page *head;
		int err = 0;
		pfn_t pfn;

		offset = pos & (chunk - 1);
		if (bytes > chunk - offset)
			bytes = chunk - offset;
		balance_dirty_pages_ratelimited(m, mapping);
		pfn = iomap_get_folio(m, inode, pos, bytes, &err);
		if (pfn == PFN_NONE) {
			if (!written)
				written = err ? err : -ENOMEM;
			break;
		}
		head = pfn_to_page(m, pfn);
		fpos = (uint64_t)head->index << PAGE_SHIFT;
		fsize = (uint64_t)folio_nr_pages(head) << PAGE_SHIFT;
		if (bytes > fsize - (pos - fpos))
			bytes = fsize - (pos - fpos);
		mm_charge(m, COST_copy_user, (bytes + 1023) >> 10);
		mm_charge(m, COST_write_begin_end, 1);
		/* iomap_write_end -> filemap_dirty_folio */
		if (folio_mark_dirty_range(m, pfn, (unsigned int)((pos - fpos) >> PAGE_SHIFT),
					   (unsigned int)((pos - fpos + bytes + PAGE_SIZE - 1) >> PAGE_SHIFT)))
			wb_task_dirtied(m, folio_nr_pages(head));
		if (pos + bytes > inode->i_size) {
			inode->i_size = pos + bytes;
			inode->i_state |= I_DIRTY_DATASYNC | I_DIRTY_ITABLE;
		}
		pos += bytes;
		length -= bytes;
		written += (long)bytes;
		sim_cond_resched(m->sim);
	}
	sim_path_pop(m->sim);
	return written;
}

/* iomap_file_buffered_write(): the iomap_iter loop over extents. */
long iomap_file_buffered_write(struct machine *m, struct inode *inode, uint64_t pos, uint64_t len)
{
	long total = 0;

	sim_path_push(m->sim, "iomap_file_buffered_write");
	while (len) {
		struct fs_extent ext;
		uint64_t length;
		long n;
		int err;

		mm_charge(m, COST_iomap_iter, 1);
		err = fs_iomap_begin(m, inode, pos, len, true, &ext);
		if (err) {
			if (!total)
				total = err;
			break;
		}
		length = ext.offset + ext.len - pos;
		if (length > len)
			length = len;
		n = iomap_write_iter(m, inode, pos, length);
		if (n <= 0) {
			if (!total)
				total = n;
			break;
		}
		pos += (uint64_t)n;
		len -= (uint64_t)n;
		total += n;
	}
	sim_path_pop(m->sim);
	return total;
}

/* ---- writeback -------------------------------------------------------------------- */

struct wb_run {
	pfn_t		folios[WB_MAX_BIO_FOLIOS];
	unsigned int	nr;
	uint64_t	dev_start, bytes;
};

/* wbc_to_write_flags(): REQ_SYNC for data integrity writeback,
 * REQ_BACKGROUND for the flusher's background and periodic passes. */
static enum wbt_class wbc_to_wbt_class(const struct writeback_control *wbc)
{
	if (wbc->sync_mode == WB_SYNC_ALL)
		return WBT_SYNC;
	if (wbc->for_kupdate || wbc->for_background)
		return WBT_BACKGROUND;
	return WBT_NORMAL;
}

static void wb_run_submit(struct machine *m, struct bdi_writeback *wb, struct wb_run *run,
			  const struct writeback_control *wbc)
{
	if (!run->nr)
		return;
	wb_submit_write(m, wb, run->folios, run->nr, run->dev_start, run->bytes,
			wbc_to_wbt_class(wbc));
	run->nr = 0;
	run->bytes = 0;
}

/*
 * iomap_writepages() (6.12, via xfs_vm_writepages and
 * write_cache_pages' tagged walk).  WB_SYNC_NONE skips folios under
 * writeback; WB_SYNC_ALL waits for them (folio_prepare_writeback).
 */
int iomap_writepages(struct machine *m, struct inode *inode, struct writeback_control *wbc)
{
	struct address_space *mapping = inode->i_mapping;
	struct bdi_writeback *wb = inode->i_sb->wb;
	unsigned long start, end, index;
	bool wrapped = false;
	/* on the task's stack (1.3 KiB of 64): a run may end with the task
	 * blocked in here, and nothing would free a heap copy */
	struct wb_run run_buf, *run = &run_buf;

	/* I_DIRTY_PAGES and the inode's place on the dirty list are the
	 * flusher's (wb_pass) and sync_inode_metadata's to clear, as
	 * __writeback_single_inode does; do_writepages leaves them */
	if (!mapping_tagged(mapping, PAGECACHE_TAG_DIRTY))
		return 0;
	memset(run, 0, sizeof(*run));
	sim_path_push(m->sim, "iomap_writepages");
	if (wbc->range_cyclic) {
		start = inode->writeback_index;
		end = ULONG_MAX - 1;
	} else {
		start = (unsigned long)(wbc->range_start >> PAGE_SHIFT);
		end = wbc->range_end == UINT64_MAX ? ULONG_MAX - 1 : (unsigned long)(wbc->range_end >> PAGE_SHIFT);
	}
	index = start;
	for (;;) {
		unsigned long idx = pagecache_tag_next(mapping, index, end, PAGECACHE_TAG_DIRTY);
		struct page *page;
		uint64_t dev, bytes;
		unsigned int first, last;
		pfn_t pfn;

		if (idx == ULONG_MAX) {
			if (wbc->range_cyclic && !wrapped && start > 0) {
				wrapped = true;
				end = start - 1;
				index = 0;
				continue;
			}
			index = 0;
			break;
		}
		pfn = filemap_lookup(m, mapping, idx);
		SIM_ASSERT(pfn != PFN_NONE);
		page = pfn_to_page(m, pfn);
		if (page->flags & PG_writeback) {
			if (wbc->sync_mode == WB_SYNC_NONE) {
				index = idx + folio_nr_pages(page);
				continue;
			}
			wb_run_submit(m, wb, run, wbc);
			folio_wait_writeback(m, pfn);
			index = idx;
			continue;
		}
		if (!folio_clear_dirty_for_io(m, pfn)) {
			index = idx + folio_nr_pages(page);
			continue;
		}
		/* only the folio's dirty blocks go out (iomap_writepage_map) */
		folio_dirty_range(m, pfn, &first, &last);
		folio_start_writeback(m, pfn);
		mm_charge(m, COST_writeback_folio, 1);
		dev = fs_bmap(inode, (uint64_t)(idx + first) << PAGE_SHIFT);
		SIM_ASSERT(dev != UINT64_MAX);
		bytes = (uint64_t)(last - first) << PAGE_SHIFT;
		if (run->nr && (dev != run->dev_start + run->bytes || run->nr == WB_MAX_BIO_FOLIOS ||
				run->bytes + bytes > WB_MAX_BIO_BYTES))
			wb_run_submit(m, wb, run, wbc);
		if (!run->nr)
			run->dev_start = dev;
		run->folios[run->nr++] = pfn;
		run->bytes += bytes;
		wbc->nr_to_write -= (long)folio_nr_pages(page);
		wbc->pages_written += (long)folio_nr_pages(page);
		index = idx + folio_nr_pages(page);
		if (wbc->nr_to_write <= 0 && wbc->sync_mode == WB_SYNC_NONE)
			break;
	}
	wb_run_submit(m, wb, run, wbc);
	if (wbc->range_cyclic)
		inode->writeback_index = index;
	sim_path_pop(m->sim);
	return 0;
}

void filemap_fdatawait_range(struct machine *m, struct address_space *mapping,
			     unsigned long start, unsigned long end)
{
	sim_path_push(m->sim, "filemap_fdatawait_range");
	for (;;) {
		unsigned long idx = pagecache_tag_next(mapping, start, end, PAGECACHE_TAG_WRITEBACK);

		if (idx == ULONG_MAX)
			break;
		folio_wait_writeback(m, filemap_lookup(m, mapping, idx));
		start = idx;
	}
	sim_path_pop(m->sim);
}
