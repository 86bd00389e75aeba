/* SPDX-License-Identifier: MIT */
/*
 * bdev.h — block devices: a per-device queue with IOPS and bandwidth limits
 * and a service-latency distribution, and RAID0 striping over N members
 * with a chunk size.  Reads, writes and cache flushes (for fsync/fdatasync).
 *
 * Requests complete in engine context (a callback) or, with the blocking
 * helpers, wake the submitting task.  Time spent blocked on I/O is
 * attributed as io_ns on the task's current call-path node.
 */
#ifndef SLOWPATH_SIM_BDEV_H
#define SLOWPATH_SIM_BDEV_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

enum bio_op { BIO_READ, BIO_WRITE, BIO_FLUSH };

struct bdev_config {
	const char	*name;		/* "md0", "nvme1n1" */
	uint64_t	iops;		/* per member; 0 = unlimited */
	uint64_t	bandwidth;	/* bytes/s per member; 0 = unlimited */
	sim_time_t	lat_mean_ns;	/* mean service latency per request */
	sim_time_t	lat_p99_ns;	/* 99th percentile (lognormal fit); 0 = constant */
	sim_time_t	flush_ns;	/* latency of a cache flush (no volatile cache: ~write latency) */
	uint32_t	members;	/* RAID0 members, 1 = plain device */
	uint64_t	chunk_bytes;	/* RAID0 chunk size */
	uint64_t	io_unit_bytes;	/* IOPS accounting unit (io2: 256 KiB); 0 = per request */
	uint64_t	size_bytes;	/* capacity; 0 = unchecked */
	uint64_t	total_iops;	/* whole-device cap in io units/s, before striping
					 * (e.g. an instance's EBS IOPS cap); 0 = none */
	uint64_t	total_bandwidth;	/* whole-device cap in bytes/s; 0 = none */
	int		write_cache;	/* enum bdev_write_cache (queue/write_cache in sysfs) */
	int		completion;	/* enum bdev_completion: where writeback completes */
	int		fs;		/* enum bdev_fs: the filesystem mounted on it */
	uint32_t	nr_requests;	/* requests in flight per member (its blk-mq tags);
					 * 0 = one pool of 128 for the whole device */
	sim_time_t	wbt_lat_ns;	/* writeback throttling's latency target
					 * (queue/wbt_lat_usec); 0 = off */
};

/* "write back": a volatile write cache, flushes reach the members;
 * "write through": none, a flush completes at submission. */
enum bdev_write_cache { BDEV_WRITE_BACK, BDEV_WRITE_THROUGH };

/* Validate a configuration: 0, or -1 with a message in err[errlen]
 * (lower case, no final period; the caller adds file:line). */
int bdev_config_check(const struct bdev_config *cfg, char *err, size_t errlen);

struct bdev;

/* The sim owns the device (freed by sim_destroy).  An invalid config is a
 * bug here: check user input with bdev_config_check first. */
struct bdev *bdev_create(struct sim *sim, const struct bdev_config *cfg);
const char *bdev_name(const struct bdev *b);
/* Capacity in bytes (0: unchecked). */
uint64_t bdev_size(const struct bdev *b);

/* Where the submitter's writeback completions run (the filesystem decides
 * in the kernel; the device section carries it so one scenario says it):
 * in a completion kernel thread per device, or in hard-interrupt context
 * on the CPU that submitted the bio (sim_irq_raise). */
enum bdev_completion { BDEV_COMPLETE_KTHREAD, BDEV_COMPLETE_IRQ };
int bdev_completion(const struct bdev *b);
/* The filesystem on the device, for the paths where the model follows
 * its kernel code (mm/fs.c): XFS, or ext4 mounted without a journal. */
enum bdev_fs { BDEV_FS_XFS, BDEV_FS_EXT4_NOJOURNAL };
int bdev_fs(const struct bdev *b);
/* Members a request of `len` bytes at `offset` touches (RAID0 chunks):
 * calls fn(ctx, member) once per member, in the order first touched. */
void bdev_for_each_member(const struct bdev *b, uint64_t offset, uint64_t len,
			  void (*fn)(void *ctx, uint32_t member), void *ctx);
uint32_t bdev_members(const struct bdev *b);
uint32_t bdev_nr_requests(const struct bdev *b);

typedef void (*bio_end_fn)(struct sim *sim, void *arg, int error);

/* Asynchronous submit: `end` runs in engine context at completion.
 * Returns the completion time (fixed at submission: the limiter and the
 * latency draw decide it), so a submitter that busy-polls for the
 * completion (io_uring IOPOLL) can charge the polling without stepping
 * through it; callers that sleep ignore it. */
sim_time_t bdev_submit(struct sim *sim, struct bdev *b, enum bio_op op,
		       uint64_t offset, uint64_t len, bio_end_fn end, void *arg);
/* Submit and block the current task until completion (task context). */
int bdev_io_wait(struct sim *sim, struct bdev *b, enum bio_op op,
		 uint64_t offset, uint64_t len);

/*
 * Writeback throttling (block/blk-wbt.c, 6.12) on a device whose wbt_lat
 * is set.  Buffered writes take an in-flight token before they get a
 * request; O_DIRECT writes and reads are not throttled.  The limit is
 * the class's share of a depth that a 100-ms window controller scales
 * from read latency: WBT_SYNC (fsync writeback, REQ_SYNC) the whole
 * depth, WBT_BACKGROUND (periodic and background writeback) a quarter,
 * other writes half (a quarter within 100 ms of a read).  Waiters queue
 * FIFO and are woken in order while each finds its limit open; on a
 * device with a volatile write cache a completion wakes them only once
 * nothing is in flight.  One throttle per member, as the kernel has one
 * per request queue and md raid0 none of its own: a write takes a token
 * on each member it spans, in order, and a read's latency steps each
 * member it spans.  The depth each scales is the model's request count
 * (nr_requests, or 128), where the kernel's blk_queue_depth is
 * nr_requests (twice the tags under an I/O scheduler).
 */
enum wbt_class { WBT_NORMAL, WBT_BACKGROUND, WBT_SYNC };
bool bdev_wbt_enabled(const struct bdev *b);
/* Task context: wait for a token on each member [offset, offset + len)
 * spans; returns the time waited (0 when the device has no throttle or
 * every limit was open). */
sim_time_t bdev_wbt_throttle(struct sim *sim, struct bdev *b, enum wbt_class cls,
			     uint64_t offset, uint64_t len);
/* A throttled write of [offset, offset + len) completed (wbt_done):
 * return its tokens. */
void bdev_wbt_done(struct sim *sim, struct bdev *b, uint64_t offset, uint64_t len);
/* balance_dirty_pages() slept for this device (bdi->last_bdp_sleep):
 * for a second every write may use the whole depth.  Only a plain
 * device's throttle sees it: a RAID0 member's reads its own bdi. */
void bdev_wbt_bdp_sleep(struct sim *sim, struct bdev *b);
/* The throttle's state at sim's now, for tests and the debugfs-wbt
 * monitor: what the kernel's debugfs block/<disk>/rqos/wbt shows
 * (wb_normal, wb_background, inflight, curr_win_nsec, min_lat_nsec,
 * unknown_cnt) and its rq_depth (scale_step, max_depth), then sums since
 * the start that the kernel gives only as tracepoints: windows ended per
 * wbt_timer status, the depth integrated over time (request-ns), time
 * opened to the largest depth, submitters that queued for a token and
 * the time they queued. */
struct bdev_wbt_state {
	int		scale_step;
	uint32_t	max_depth, wb_normal, wb_background, inflight, waiting, unknown_cnt;
	sim_time_t	cur_win_ns, min_lat_ns;
	uint64_t	lat_ok, lat_unknown, lat_unknown_writes, lat_exceeded;
	uint64_t	depth_ns, scaled_max_ns;
	uint64_t	throttled, throttled_ns;
};
void bdev_wbt_get_state(const struct sim *sim, const struct bdev *b, uint32_t member,
			struct bdev_wbt_state *out);

struct bdev_stats {
	uint64_t	reads, writes, flushes;	/* requests submitted to the device */
	uint64_t	member_ios;	/* member requests after striping (flushes: one per member) */
	uint64_t	io_units;	/* IOPS units consumed (io_unit_bytes accounting) */
	uint64_t	read_bytes, write_bytes;
	uint64_t	busy_ns;	/* time with >= 1 request in service, summed over members */
	uint64_t	queue_ns;	/* total time requests waited before service */
	uint64_t	service_ns;	/* total service time */
};
void bdev_get_stats(const struct bdev *b, struct bdev_stats *out);

/*
 * /proc/diskstats for the device and each member (block/genhd.c
 * diskstats_show, 6.12): per group — read, write, discard, flush — the
 * requests completed, their 512-byte sectors and the ns they took from
 * submission to completion (the member's request is counted from the
 * moment md hands it on, which includes the wait at the volume's rate
 * limiter, as the kernel counts from the request's start_time_ns); the
 * requests in flight now; and io_ticks, the time with at least one in
 * flight.  A striped device's own line counts its bios whole, as md does
 * (md_account_bio), from submission to the end of their last piece; a
 * one-member device has one line.  Flushes are counted on members only
 * (md does not account an empty PREFLUSH bio), and only with a volatile
 * cache (otherwise the block layer ends them at submission).  The model
 * merges no requests and issues no discards, so those columns stay 0.
 * Simplified: the kernel's io_ticks counts jiffies, updated when a request
 * starts or ends (update_io_ticks), and its flush request is counted in
 * ios and nsecs only, not in flight (blk_account_io_flush); the model
 * takes the exact union in ns and counts a flush in flight and busy like
 * any request.
 */
enum { DISK_STAT_READ, DISK_STAT_WRITE, DISK_STAT_DISCARD, DISK_STAT_FLUSH, NR_DISK_STAT };
struct bdev_diskstats {
	uint64_t	ios[NR_DISK_STAT], sectors[NR_DISK_STAT], nsecs[NR_DISK_STAT];
	uint32_t	in_flight;
	uint64_t	io_ticks_ns;
};
/* Disks of a device: 1 for a one-member device, else 1 + members (disk
 * 0 is the device, disk k member k - 1). */
uint32_t bdev_nr_disks(const struct bdev *b);
/* The counters at sim's now.  Requests are booked when they complete;
 * the call books those that have (it changes nothing any decision reads). */
void bdev_get_diskstats(struct sim *sim, struct bdev *b, uint32_t disk,
			struct bdev_diskstats *out);

#endif
