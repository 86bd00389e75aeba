/* SPDX-License-Identifier: MIT */
/*
 * direct-io.h — O_DIRECT I/O to a raw block device, the kernel side
 * (block/fops.c, block/bio.c, lib/iov_iter.c, fs/aio.c, io_uring/;
 * Linux 6.12, and 6.2 for the pre-FOLL_PIN path).  The model has no block
 * layer folder; this file holds the per-I/O CPU costs of the path and
 * hands the request to the engine's block device (sim/bdev.h).
 *
 * A request's life (docs/fio.md has the cost of every step):
 *
 *   submission (the submitting task's CPU)
 *     io_submit_one / io_uring SQE issue           aio_submit_one | io_uring_sqe
 *     blkdev_direct_IO -> __blkdev_direct_IO_async
 *       bio_alloc_bioset                           bio_alloc
 *       user buffer:  bio_iov_iter_get_pages
 *         6.3+:   iov_iter_extract_pages -> pin_user_pages_fast (gup.c)
 *         <6.3:   iov_iter_get_pages2 -> get_user_pages_fast   (gup.c)
 *         bio_add_page per page
 *       registered buffer (ITER_BVEC): bio_iov_bvec_set, no pinning
 *       reads of user memory: bio_set_pages_dirty (lock, dirty, unlock)
 *       submit_bio -> the device                   submit_bio
 *   completion (the CPU that reaps it; see blkdev_dio_complete)
 *     interrupt (nvme_irq ...) or poll (blk_mq_poll) blk_mq_complete_irq | blk_mq_poll
 *     blkdev_bio_end_io_async
 *       ki_complete: aio_complete / io_uring CQE   aio_complete | io_uring_cqe
 *       reads: bio_check_pages_dirty, else bio_release_pages
 *         BIO_PAGE_PINNED: unpin_user_folio per folio   (gup.c)
 *         <6.3:            put_page per page            (gup.c)
 *       bio_put (in bio_alloc)
 *
 * The system calls themselves (io_submit, io_getevents, io_uring_enter)
 * are batched by the application: the caller charges COST_syscall per
 * call.
 */
#ifndef SLOWPATH_MM_DIRECT_IO_H
#define SLOWPATH_MM_DIRECT_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/gup.h"
#include "sim/bdev.h"

struct machine;

/* The submission interface (fio's ioengine). */
enum dio_iface {
	DIO_LIBAIO,	/* fs/aio.c: io_submit / io_getevents */
	DIO_IO_URING,	/* io_uring: SQ/CQ rings, io_uring_enter */
};

/* bio and dio flags the model uses (block/blk_types.h, block/fops.c). */
#define BIO_PAGE_PINNED		(1u << 0)	/* pages pinned (FOLL_PIN): unpin on release */
#define BIO_PAGE_REFFED		(1u << 1)	/* pages referenced (FOLL_GET, before 6.3): put */
#define DIO_SHOULD_DIRTY	(1u << 2)	/* a read into user memory: dirty the pages */

/*
 * One O_DIRECT request: the model of struct blkdev_dio with its bio.  The
 * caller fills the request fields; blkdev_direct_IO_async() fills the rest.
 * The buffer pages are [first_page, first_page + nr_pages) of `ub`.
 */
struct dio {
	/* request */
	struct user_buffer *ub;
	unsigned long	first_page;
	unsigned int	nr_pages;
	enum bio_op	op;		/* BIO_READ or BIO_WRITE */
	uint64_t	offset, len;	/* bytes on the device */
	enum dio_iface	iface;
	bool		fixed;		/* a registered buffer (io_uring fixedbufs) */
	bool		polled;		/* REQ_POLLED: completion by blk_mq_poll */
	/* state */
	unsigned int	flags;		/* BIO_PAGE_* | DIO_SHOULD_DIRTY */
	unsigned int	pages_grabbed;	/* pages pinned or referenced at submission */
};

/*
 * Submission: models io_submit_one() or the io_uring issue of one SQE,
 * then blkdev_direct_IO() -> __blkdev_direct_IO_async() (6.12; 6.2's
 * iov_iter_get_pages2 under foll_pin_accounting=none), ending in
 * bdev_submit(); `end(sim, arg, error)` runs in engine context when the
 * device is done.  Task context (the submitting CPU).  Returns the
 * device's completion time.
 */
sim_time_t blkdev_direct_IO_async(struct machine *m, struct bdev *bdev, struct dio *dio,
				  bio_end_fn end, void *arg);

/*
 * Completion of a finished request on the CPU that reaps it: the
 * interrupt or poll that finds it, then blkdev_bio_end_io_async() (6.12):
 * ki_complete, page release, bio_put.  Simplification: the interrupt's
 * work is charged on the reaping task's CPU when it reaps, not at the
 * instant of completion (NVMe queues are per CPU with the interrupt on
 * the submitting CPU, so the CPU is the same; only the moment differs).
 */
void blkdev_dio_complete(struct machine *m, struct dio *dio);

#endif /* SLOWPATH_MM_DIRECT_IO_H */
