/* SPDX-License-Identifier: MIT */
/*
 * direct-io.c — O_DIRECT reads and writes to a raw block device: the
 * kernel's CPU work per request from the system call to the device and
 * back (block/fops.c __blkdev_direct_IO_async and
 * blkdev_bio_end_io_async, block/bio.c, lib/iov_iter.c, fs/aio.c and
 * io_uring/rw.c; Linux 6.12, with the 6.2 path for
 * foll_pin_accounting=none).  direct-io.h draws the request's life; the
 * costs are rows of costs.def and docs/fio.md adds them up.
 *
 * Which GUP flavour the block layer uses:
 *
 *   6.3+ (modes node, nostat, percpu): bio_iov_iter_get_pages ->
 *        iov_iter_extract_pages; for a user-backed iterator
 *        iov_iter_extract_will_pin() is true, so pin_user_pages_fast with
 *        FOLL_PIN (| FOLL_WRITE for a read) and the bio is flagged
 *        BIO_PAGE_PINNED; completion unpins with unpin_user_folio per
 *        folio (__bio_release_pages)
 *   6.2  (mode none): iov_iter_get_pages2 -> get_user_pages_fast (FOLL_GET),
 *        BIO_PAGE_REFFED; completion does put_page per page
 *   registered buffers (io_uring fixedbufs, an ITER_BVEC iterator):
 *        bio_iov_bvec_set, no GUP at all, nothing to release
 *
 * Simplifications: one bio per request (__blkdev_direct_IO_async is the
 * path for requests of at most BIO_MAX_VECS pages; larger ones split into
 * several bios in __blkdev_direct_IO, not modelled: the workload limits bs
 * to 1 MiB); the buffer's pages are physically contiguous inside a block,
 * which bvec merging would exploit but which changes no per-folio cost;
 * pages of a read are already dirty at completion (anon pages stay dirty
 * once written), so bio_check_pages_dirty never defers to its work item;
 * no errors, no REQ_NOWAIT retries, no IOCB_DSYNC/FUA.
 */
#include "mm/direct-io.h"
#include "mm/internal.h"

/* Folios of the buffer that the request's pages touch. */
static unsigned long dio_nr_folios(const struct dio *dio)
{
	const struct user_buffer *ub = dio->ub;

	return user_folio_of(ub, dio->first_page + dio->nr_pages - 1) -
	       user_folio_of(ub, dio->first_page) + 1;
}

/*
 * bio_iov_iter_get_pages() (6.12: __bio_iov_iter_get_pages with
 * iov_iter_extract_pages; 6.2: with iov_iter_get_pages2): grab the pages,
 * then one bio_iov_add_folio per folio run.
 */
static void bio_iov_iter_get_pages(struct machine *m, struct dio *dio)
{
	unsigned int gup_flags = dio->op == BIO_READ ? FOLL_WRITE : 0;

	sim_path_push(m->sim, "bio_iov_iter_get_pages");
	mm_charge(m, COST_iov_iter_extract, 1);
	if (m->foll_pin_accounting == FOLL_PIN_ACCT_NONE) {
		dio->pages_grabbed = (unsigned int)get_user_pages_fast(m, dio->ub, dio->first_page,
								       dio->nr_pages, gup_flags);
		dio->flags |= BIO_PAGE_REFFED;
	} else {
		dio->pages_grabbed = (unsigned int)pin_user_pages_fast(m, dio->ub, dio->first_page,
								       dio->nr_pages, gup_flags);
		dio->flags |= BIO_PAGE_PINNED;
	}
	SIM_ASSERT(dio->pages_grabbed == dio->nr_pages);
	mm_charge(m, COST_bio_add_page, user_folio_large(dio->ub) ? dio_nr_folios(dio) : dio->nr_pages);
	sim_path_pop(m->sim);
}

/* bio_set_pages_dirty() (6.12): folio_lock, folio_mark_dirty (already
 * dirty: a flag test for an anon folio), folio_unlock per folio. */
static void bio_set_pages_dirty(struct machine *m, const struct dio *dio)
{
	unsigned long n = dio_nr_folios(dio);

	mm_charge(m, COST_bio_folio_iter, n);
	mm_charge(m, COST_atomic_local, 2 * n);
}

sim_time_t blkdev_direct_IO_async(struct machine *m, struct bdev *bdev, struct dio *dio,
				  bio_end_fn end, void *arg)
{
	struct sim *sim = m->sim;
	sim_time_t done;

	SIM_ASSERT(dio->op == BIO_READ || dio->op == BIO_WRITE);
	SIM_ASSERT(dio->nr_pages > 0 && dio->first_page + dio->nr_pages <= dio->ub->nr_pages);
	dio->flags = 0;
	dio->pages_grabbed = 0;
	sim_path_push(sim, dio->iface == DIO_LIBAIO ? "io_submit_one" : "io_issue_sqe");
	mm_charge(m, dio->iface == DIO_LIBAIO ? COST_aio_submit_one : COST_io_uring_sqe, 1);
	sim_path_push(sim, "blkdev_direct_IO");
	mm_charge(m, COST_bio_alloc, 1);
	if (!dio->fixed) {
		bio_iov_iter_get_pages(m, dio);
		if (dio->op == BIO_READ) {
			dio->flags |= DIO_SHOULD_DIRTY;
			bio_set_pages_dirty(m, dio);
		}
	}
	sim_path_push(sim, "submit_bio");
	mm_charge(m, COST_submit_bio, 1);
	done = bdev_submit(sim, bdev, dio->op, dio->offset, dio->len, end, arg);
	sim_path_pop(sim);
	sim_path_pop(sim);
	sim_path_pop(sim);
	return done;
}

/* bio_release_pages(bio, false) -> __bio_release_pages (6.12): one
 * unpin_user_folio per folio; 6.2: put_page per page. */
static void bio_release_pages(struct machine *m, const struct dio *dio)
{
	struct user_buffer *ub = dio->ub;
	unsigned long end = dio->first_page + dio->nr_pages;

	sim_path_push(m->sim, "bio_release_pages");
	if (dio->flags & BIO_PAGE_PINNED) {
		for (unsigned long page = dio->first_page; page < end;) {
			unsigned long folio = user_folio_of(ub, page);
			unsigned long folio_end = (folio + 1) << ub->folio_order;
			unsigned long nr = (folio_end < end ? folio_end : end) - page;

			mm_charge(m, COST_bio_folio_iter, 1);
			unpin_user_folio(m, ub, folio, nr);
			page += nr;
		}
	} else if (dio->flags & BIO_PAGE_REFFED) {
		for (unsigned long page = dio->first_page; page < end; page++) {
			mm_charge(m, COST_bio_folio_iter, 1);
			put_page(m, ub, page);
		}
	}
	sim_path_pop(m->sim);
}

void blkdev_dio_complete(struct machine *m, struct dio *dio)
{
	struct sim *sim = m->sim;

	/* nvme_irq -> blk_mq_complete_request -> bio_endio, or blk_mq_poll */
	sim_path_push(sim, dio->polled ? "blk_mq_poll" : "nvme_irq");
	mm_charge(m, dio->polled ? COST_blk_mq_poll : COST_blk_mq_complete_irq, 1);
	/* bio->bi_end_io = blkdev_bio_end_io_async */
	sim_path_push(sim, "blkdev_bio_end_io_async");
	mm_charge(m, dio->iface == DIO_LIBAIO ? COST_aio_complete : COST_io_uring_cqe, 1);
	if (dio->flags & DIO_SHOULD_DIRTY)	/* bio_check_pages_dirty: all dirty */
		mm_charge(m, COST_bio_folio_iter, dio_nr_folios(dio));
	bio_release_pages(m, dio);
	/* bio_put: charged with bio_alloc */
	sim_path_pop(sim);
	sim_path_pop(sim);
	dio->flags = 0;
}
