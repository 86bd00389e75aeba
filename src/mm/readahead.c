/* SPDX-License-Identifier: MIT */
/*
 * readahead.c — simple readahead for buffered reads (mm/readahead.c,
 * Linux 6.12), synchronous in the model.
 *
 * page_cache_sync_ra(index, req_count):
 *   1. Sequential (index 0, the page after the last one read, or the
 *      page right after the current window): a new window starts at
 *      index; its size is get_init_ra_size(req_count, ra_pages) for a
 *      fresh stream, get_next_ra_size() when it continues the previous
 *      window (x4 below ra_pages/16, x2 up to ra_pages/2, else ra_pages).
 *      Folios are allocated by page_cache_ra_order(): order = previous
 *      window's order + 2, capped by the mapping's max order and
 *      ilog2(window), lowered to the index alignment and to what fits
 *      before the window end / EOF; the gfp is readahead_gfp_mask()
 *      (mapping gfp | __GFP_NORETRY | __GFP_NOWARN); a failed large
 *      allocation falls back to order-0 folios for the rest of the window
 *      (do_page_cache_ra).
 *   2. Random: only the requested pages, as order-0 folios
 *      (do_page_cache_ra(req_count)).
 *   3. Pages already cached are skipped.  The folios are read with one
 *      bio per device-contiguous run (holes are zero-filled without I/O),
 *      the reader waits for all of them, and only then are they inserted
 *      into the page cache and the LRU.
 *
 * Simplifications: no asynchronous part (the async window is read with
 * the synchronous one, and the next window starts on the miss at its end,
 * so a sequential reader waits for every window); no PG_readahead marker
 * and no context readahead (page_cache_prev_miss history); ra_pages is the
 * bdi default 128 KiB (VM_READAHEAD_PAGES) for every device.  Inserting
 * after the read means a concurrent reader of the same pages reads them
 * too and loses the insertion race (-EEXIST, its folio is freed), where
 * the kernel would wait on the locked folio.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "mm/writeback_internal.h"
#include "sim/bdev.h"

#define RA_MAX_BIO_BYTES	(1280UL << 10)

struct ra_folio {
	pfn_t		pfn;
	unsigned long	index;
	unsigned int	order;
};

/* slowpath glue: a readahead batch is heap memory held across the wait
 * for its reads; a run may end with a reader stopped in that wait, so
 * live batches are linked on the machine and machine_destroy frees them
 * (readahead_release), instead of leaking them. */
struct ra_batch {
	struct ra_batch	*prev, *next;
	struct ra_folio	f[];
};

static struct ra_folio *ra_batch_alloc(struct machine *m, unsigned long n)
{
	struct ra_batch *b = malloc(sizeof(*b) + n * sizeof(b->f[0]));

	if (!b)
		SIM_BUG("out of memory for a readahead batch");
	b->prev = NULL;
	b->next = m->ra_batches;
	if (b->next)
		b->next->prev = b;
	m->ra_batches = b;
	return b->f;
}

static void ra_batch_free(struct machine *m, struct ra_folio *f)
{
	struct ra_batch *b = (struct ra_batch *)((char *)f - offsetof(struct ra_batch, f));

	if (b->prev)
		b->prev->next = b->next;
	else
		m->ra_batches = b->next;
	if (b->next)
		b->next->prev = b->prev;
	free(b);
}

void readahead_release(struct machine *m)
{
	while (m->ra_batches)
		ra_batch_free(m, m->ra_batches->f);
}

struct ra_wait {
	unsigned int		pending;
	struct sim_waitq	q;
};

static void ra_end_io(struct sim *sim, void *arg, int error)
{
	struct ra_wait *w = arg;

	(void)error;
	if (--w->pending == 0)
		sim_wake_all(sim, &w->q);
}

static unsigned long roundup_pow_of_two(unsigned long x)
{
	unsigned long r = 1;

	while (r < x)
		r <<= 1;
	return r;
}

/* get_init_ra_size() */
static unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize *= 4;
	else if (newsize <= max / 4)
		newsize *= 2;
	else
		newsize = max;
	return newsize;
}

/* get_next_ra_size() */
static unsigned long get_next_ra_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

static unsigned int ilog2_ul(unsigned long x)
{
	return x ? 63u - (unsigned int)__builtin_clzl(x) : 0;
}

/* Read the gathered folios (one bio per device-contiguous run), wait, then
 * insert them. */
static void read_pages(struct machine *m, struct inode *inode, struct ra_folio *f, unsigned int n)
{
	struct ra_wait w = { 0 };
	uint64_t run_start = 0, run_bytes = 0;
	unsigned int bios = 0;

	sim_waitq_init(&w.q, "folio_wait_locked");
	for (unsigned int i = 0; i <= n; i++) {
		uint64_t dev = UINT64_MAX, bytes = 0;

		if (i < n) {
			dev = fs_bmap(inode, (uint64_t)f[i].index << PAGE_SHIFT);
			bytes = (uint64_t)PAGE_SIZE << f[i].order;
			mm_charge(m, COST_readahead_folio, 1);
		}
		if (run_bytes && (i == n || dev != run_start + run_bytes ||
				  run_bytes + bytes > RA_MAX_BIO_BYTES)) {
			w.pending++;
			bios++;
			mm_charge(m, COST_submit_bio, 1);
			count_vm_events(m, PGPGIN, run_bytes >> 9);
			bdev_submit(m->sim, inode->i_sb->bdev, BIO_READ, run_start, run_bytes, ra_end_io, &w);
			run_bytes = 0;
		}
		if (i < n && dev != UINT64_MAX) {
			if (!run_bytes)
				run_start = dev;
			run_bytes += bytes;
		}
	}
	if (bios) {
		sim_path_push(m->sim, "folio_wait_locked");
		sim_wait_event_io(m->sim, &w.q, w.pending == 0);
		sim_path_pop(m->sim);
		/* the completions' interrupt work, charged to the reader it wakes */
		mm_charge(m, COST_blk_mq_complete_irq, bios);
	}
	for (unsigned int i = 0; i < n; i++) {
		if (filemap_add_folio(m, inode->i_mapping, f[i].pfn, f[i].index) == 0) {
			sim_stat_add(m, SIM_READAHEAD_PAGES, 1UL << f[i].order);
		} else {
			sim_stat_inc(m, SIM_PAGECACHE_EEXIST);
			free_pages(m, f[i].pfn, f[i].order);
		}
	}
}

/* page_cache_ra_order() + the do_page_cache_ra() fallback, over
 * [start, start + size) clipped to EOF. */
static unsigned int ra_window(struct machine *m, struct inode *inode, unsigned long start,
			      unsigned long size, unsigned int new_order)
{
	struct address_space *mapping = inode->i_mapping;
	gfp_t gfp = mapping->gfp_mask | __GFP_NORETRY | __GFP_NOWARN;	/* readahead_gfp_mask */
	unsigned long limit = start + size - 1, eof;
	struct ra_folio *f;
	unsigned int n = 0;
	bool fallback = false;

	if (!inode->i_size)
		return 0;
	eof = (unsigned long)((inode->i_size - 1) >> PAGE_SHIFT);
	if (limit > eof)
		limit = eof;
	if (start > limit)
		return 0;
	f = ra_batch_alloc(m, limit - start + 1);
	for (unsigned long index = start; index <= limit;) {
		unsigned int order = fallback ? 0 : new_order;
		pfn_t pfn;

		if (filemap_lookup(m, mapping, index) != PFN_NONE) {
			index++;
			continue;
		}
		if (index & ((1UL << order) - 1))
			order = (unsigned int)__builtin_ctzl(index);
		while (order && index + (1UL << order) - 1 > limit)
			order--;
		/* a large folio must not cover pages already cached */
		while (order) {
			unsigned long i;

			for (i = 1; i < (1UL << order); i++)
				if (filemap_lookup(m, mapping, index + i) != PFN_NONE)
					break;
			if (i == (1UL << order))
				break;
			order--;
		}
		pfn = filemap_alloc_folio(m, gfp, order);
		if (pfn == PFN_NONE) {
			if (order == 0)
				break;
			fallback = true;	/* do_page_cache_ra for the rest */
			continue;
		}
		f[n++] = (struct ra_folio){ .pfn = pfn, .index = index, .order = order };
		index += 1UL << order;
	}
	if (n)
		read_pages(m, inode, f, n);
	ra_batch_free(m, f);
	return fallback ? 0 : new_order;
}

int filemap_create_folio(struct machine *m, struct inode *inode, unsigned long index)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned int order = mapping->min_order;
	struct ra_folio *f;
	int ret = -ENOMEM;
	pfn_t pfn;

	sim_path_push(m->sim, "filemap_create_folio");
	index &= ~((1UL << order) - 1);
	pfn = filemap_alloc_folio(m, mapping->gfp_mask, order);
	if (pfn == PFN_NONE)
		goto out;
	/* the kernel inserts the locked folio, then reads it; the model
	 * reads into it first (read_pages inserts after the I/O) — the same
	 * I/O and the same allocation, a different moment of insertion */
	f = ra_batch_alloc(m, 1);
	f[0] = (struct ra_folio){ .pfn = pfn, .index = index, .order = order };
	read_pages(m, inode, f, 1);
	ra_batch_free(m, f);
	ret = 0;
out:
	sim_path_pop(m->sim);
	if (!ret && filemap_lookup(m, mapping, index) == PFN_NONE)
		ret = -EEXIST;
	return ret;
}

void page_cache_sync_ra(struct machine *m, struct inode *inode, unsigned long index,
			unsigned long req_count)
{
	struct file_ra_state *ra = &inode->ra;
	const unsigned long max = VM_READAHEAD_PAGES;
	struct address_space *mapping = inode->i_mapping;

	sim_path_push(m->sim, "page_cache_sync_ra");
	if (index == 0 || index == ra->prev_index + 1 || req_count > max ||
	    (ra->size && index == ra->start + ra->size)) {
		bool cont = ra->size && index == ra->start + ra->size;
		unsigned int order = cont ? ra->order : 0;

		ra->size = (unsigned int)(cont ? get_next_ra_size(ra->size, max)
					       : get_init_ra_size(req_count, max));
		if (ra->size < req_count)
			ra->size = (unsigned int)req_count;
		ra->start = index;
		ra->async_size = ra->size > req_count ? ra->size - (unsigned int)req_count : ra->size;
		/* page_cache_ra_order's choice of the folio order */
		if (order < mapping->max_order)
			order += 2;
		if (order > mapping->max_order)
			order = mapping->max_order;
		if (order > ilog2_ul(ra->size))
			order = ilog2_ul(ra->size);
		if (order < mapping->min_order)
			order = mapping->min_order;
		ra->order = ra_window(m, inode, ra->start, ra->size, order);
	} else {
		/* random: do_page_cache_ra(req_count), order-0 folios */
		ra_window(m, inode, index, req_count, 0);
	}
	sim_path_pop(m->sim);
}
