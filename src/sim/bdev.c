/* SPDX-License-Identifier: MIT */
/*
 * bdev.c — block devices: rate-limited members with a lognormal service
 * latency, RAID0 striping, flushes.
 *
 * Device model, per member (one volume):
 *   - Admission is rate-limited by service-time spacing (a GCRA / virtual
 *     scheduling rate limiter with no burst, equivalent to a token bucket
 *     of depth one): a request may start no earlier than `slot`, and
 *     starting it moves slot to start + max(units / iops, bytes / bandwidth).
 *     `units` is 1 per request, or ceil(bytes / io_unit_bytes) when an IOPS
 *     accounting unit is set (io2 counts I/Os larger than 256 KiB in 256 KiB
 *     units).  The slot is kept in picoseconds so rates such as 3.75 GB/s
 *     do not accumulate rounding error.
 *   - Once started, requests are served in parallel (the volume's internal
 *     parallelism is not limited): service = a lognormal latency drawn from
 *     (lat_mean, lat_p99) + bytes / bandwidth of transfer time.  The
 *     lognormal's sigma solves p99/mean = exp(z99*sigma - sigma^2/2)
 *     (z99 = 2.3263), mu = ln(mean) - sigma^2/2; p99 = 0 means a constant
 *     latency.  One RNG stream per device, from (seed, device name), drawn
 *     in submission order.
 *   - Since arrival order and the limiter fully determine the start and end
 *     of every request, they are computed at submission and a request
 *     costs one event (its completion), however many members it spans.
 *   - An optional whole-device limiter (total_iops, total_bandwidth) with
 *     the same spacing rule is applied before striping; it models a cap
 *     above the volumes such as an instance's EBS limits.
 *
 * RAID0 (drivers/md/raid0.c, the single-zone case): the address space is
 * cut into chunk_bytes chunks dealt round-robin over the members; chunk c
 * lives on member c mod N at member offset (c / N) * chunk.  A request that
 * spans chunks becomes one member request per chunk piece (md splits bios
 * at chunk boundaries; pieces that happen to be contiguous on a member are
 * not merged again), and completes when its last piece completes.
 *
 * Flush (REQ_PREFLUSH for fsync/fdatasync) on a device without a volatile
 * write cache (write_cache = "write through"): submit_bio_noacct() strips PREFLUSH and
 * ends the empty bio at once (block/blk-core.c, 6.12), so the flush
 * completes at submission, touches no member and is not counted in
 * `flushes`.  With a write cache, every member flushes (md sends the
 * flush to each member) and the flush completes when all members have.
 * On a member, block/blk-flush.c (6.12) sequences flushes: one flush
 * command runs at a time (its rule C1), and a request that arrives while
 * one runs waits in the pending half of its double buffer for the next,
 * which is issued when the running one completes and serves every request
 * pending by then.  A flush command takes flush_ns.  It does not wait for
 * other writes in flight: an empty PREFLUSH is ordered against nothing
 * but other flushes (rule C2 defers a flush only for flush sequences
 * carrying data), and fsync waits for its own file's writeback itself
 * before it flushes.  (Until this rule the model completed a member's
 * flush flush_ns after the last write submitted to it, so a WAL fdatasync
 * waited for every other file's writeback in flight.)  Flushes use no IOPS
 * or bandwidth budget and are not counted in busy_ns.
 *
 * Statistics are booked when a request is submitted, including its future
 * service; busy_ns is the union of each member's service intervals (the
 * starts are nondecreasing per member, so a running "busy until" suffices).
 * /proc/diskstats' counters (block/genhd.c, blk_account_io_done, 6.12)
 * are booked when a request completes instead, as the kernel books them:
 * each disk keeps its requests in flight in a heap on their completion
 * time and books those whose time has come at its next submission or
 * when it is read; a striped device's own line counts whole bios.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bdev.h"
#include "sim/internal.h"
#include "sim/rng.h"

#define Z99 2.3263478740408408	/* standard normal 99th percentile */
#define PS_PER_NS 1000ULL
#define PS_PER_SEC 1000000000000ULL

/* A submitter asleep in bdev_wbt_throttle (rq_qos_wait's wait entry). */
struct wbt_waiter {
	struct wbt_waiter *next;
	struct sim_task	*task;
	enum wbt_class	cls;
	bool		got_token;
};

/* A window's verdict (wb_timer_fn's status, the wbt_timer tracepoint's). */
enum { LAT_OK = 1, LAT_UNKNOWN, LAT_UNKNOWN_WRITES, LAT_EXCEEDED, NR_LAT };

/* struct rq_wb and its rq_depth (block/blk-wbt.c, blk-rq-qos.h): one per
 * member, as the kernel has one per request queue.  The kernel counts
 * in flight per rq_wait (kswapd's and discards' apart from the rest);
 * the model has neither, so one count is the kernel's rq_wait[0]. */
struct bdev_wbt {
	struct bdev	*bdev;		/* for the window timer */
	sim_time_t	min_lat;	/* the target; 0 = off */
	uint32_t	queue_depth;
	int		scale_step;	/* > 0 throttled harder, < 0 opened up */
	bool		scaled_max;	/* opened as far as it goes */
	uint32_t	max_depth, wb_normal, wb_background;
	uint32_t	inflight;	/* tracked writes between token and completion */
	struct wbt_waiter *head, *tail;
	uint32_t	waiting;
	sim_time_t	last_issue, last_comp;	/* of reads */
	sim_time_t	last_bdp_sleep;
	bool		bdp_slept;
	uint32_t	unknown_cnt;
	/* the blk_stat window the controller reads */
	bool		active;
	sim_time_t	cur_win;
	uint64_t	read_samples, write_samples;
	sim_time_t	read_min;
	/* the read wbt_issue tracks (sync_cookie): 0 = none */
	uint64_t	sync_cookie;
	sim_time_t	sync_issue;
	/* what the kernel shows only as tracepoints (wbt_timer, wbt_step),
	 * summed for the debugfs-wbt monitor: windows per outcome, the
	 * depth integrated over time up to depth_since, time opened fully,
	 * submitters that queued for a token and how long */
	uint64_t	windows[NR_LAT];	/* by LAT_* */
	sim_time_t	depth_since;
	uint64_t	depth_ns, scaled_max_ns;
	uint64_t	throttled, throttled_ns;
};

/* A request in flight on a disk, for /proc/diskstats. */
struct disk_io {
	sim_time_t	done, dur;
	uint64_t	sectors;
	int		grp;		/* DISK_STAT_* */
};

/* One disk's diskstats: the counters of completed requests, io_ticks
 * booked up to busy_until (submissions come in time order, so the union
 * of [submit, done) intervals needs only its end), and the requests in
 * flight as a min-heap on their completion time. */
struct disk_acct {
	struct bdev_diskstats st;
	sim_time_t	busy_until;
	struct disk_io	*pend;
	uint32_t	n, cap;
};

struct bdev_member {
	uint64_t	slot_ps;	/* earliest start of the next request */
	sim_time_t	busy_until;	/* end of the busy union so far */
	/* the last flush command issued or pending (blk-flush's sequence):
	 * it runs over [flush_start, flush_end) */
	sim_time_t	flush_start, flush_end;
	struct bdev_wbt	wbt;		/* its request queue's throttle */
	struct disk_acct acct;		/* its diskstats line */
};

struct bdev {
	struct bdev	*next;
	struct bdev_config cfg;
	char		*name;
	double		lat_mu, lat_sigma;
	struct sim_rng	rng;
	uint64_t	dev_slot_ps;	/* whole-device limiter */
	struct bdev_stats stats;
	struct disk_acct acct;		/* a striped device's own diskstats line */
	uint64_t	next_id;	/* request ids, for wbt's sync cookie */
	struct bdev_member m[];
};

struct bio_req {
	struct bio_req	*next;		/* free list */
	bio_end_fn	end;
	void		*arg;
	struct bdev	*bdev;
	uint64_t	id;
	sim_time_t	issue;
	uint64_t	offset, len;	/* for the members' throttles */
	enum bio_op	op;
};

static void wbt_init(struct bdev *b);

int bdev_config_check(const struct bdev_config *cfg, char *err, size_t errlen)
{
	if (!cfg->name || !cfg->name[0]) {
		snprintf(err, errlen, "block device needs a name");
		return -1;
	}
	if (cfg->members == 0) {
		snprintf(err, errlen, "device '%s': members must be at least 1", cfg->name);
		return -1;
	}
	if (cfg->members > 1 && cfg->chunk_bytes == 0) {
		snprintf(err, errlen, "device '%s': RAID0 over %u members needs a chunk size",
			 cfg->name, cfg->members);
		return -1;
	}
	if (cfg->lat_p99_ns) {
		double r = (double)cfg->lat_p99_ns / (double)cfg->lat_mean_ns;

		if (cfg->lat_mean_ns == 0 || cfg->lat_p99_ns < cfg->lat_mean_ns) {
			snprintf(err, errlen, "device '%s': latency p99 must be at least the mean",
				 cfg->name);
			return -1;
		}
		if (log(r) > Z99 * Z99 / 2) {
			snprintf(err, errlen, "device '%s': latency p99/mean ratio %.2f exceeds %.2f, "
				 "the largest a lognormal can have", cfg->name, r, exp(Z99 * Z99 / 2));
			return -1;
		}
	}
	return 0;
}

struct bdev *bdev_create(struct sim *sim, const struct bdev_config *cfg)
{
	char err[256];
	struct bdev *b;

	if (bdev_config_check(cfg, err, sizeof(err)) != 0)
		SIM_BUG("bdev_create: %s", err);
	b = calloc(1, sizeof(*b) + cfg->members * sizeof(b->m[0]));
	if (!b)
		SIM_BUG("out of memory");
	b->cfg = *cfg;
	b->name = strdup(cfg->name);
	if (!b->name)
		SIM_BUG("out of memory");
	b->cfg.name = b->name;
	if (cfg->lat_p99_ns) {
		double q = log((double)cfg->lat_p99_ns / (double)cfg->lat_mean_ns);

		b->lat_sigma = Z99 - sqrt(Z99 * Z99 - 2 * q);
		b->lat_mu = log((double)cfg->lat_mean_ns) - b->lat_sigma * b->lat_sigma / 2;
	}
	rng_init(&b->rng, sim_seed(sim), rng_stream_id("bdev", rng_stream_id(cfg->name, 0)));
	wbt_init(b);
	if (sim->bdev_tail)
		sim->bdev_tail->next = b;
	else
		sim->bdev_head = b;
	sim->bdev_tail = b;
	return b;
}

static void bio_complete_event(struct sim *sim, void *arg);

void sim_bdevs_destroy(struct sim *sim)
{
	/* completions still queued when the run stopped own their request */
	for (uint32_t i = 0; i < sim->evq.n; i++)
		if (sim->evq.h[i].fn == bio_complete_event) {
			free(sim->evq.h[i].arg);
			sim->evq.h[i].arg = NULL;
		}
	while (sim->bdev_head) {
		struct bdev *b = sim->bdev_head;

		sim->bdev_head = b->next;
		free(b->acct.pend);
		for (uint32_t i = 0; i < b->cfg.members; i++)
			free(b->m[i].acct.pend);
		free(b->name);
		free(b);
	}
	while (sim->bio_free) {
		struct bio_req *r = sim->bio_free;

		sim->bio_free = r->next;
		free(r);
	}
}

int bdev_completion(const struct bdev *b)
{
	return b->cfg.completion;
}

int bdev_fs(const struct bdev *b)
{
	return b->cfg.fs;
}

uint32_t bdev_members(const struct bdev *b)
{
	return b->cfg.members;
}

uint32_t bdev_nr_requests(const struct bdev *b)
{
	return b->cfg.nr_requests;
}

void bdev_for_each_member(const struct bdev *b, uint64_t offset, uint64_t len,
			  void (*fn)(void *ctx, uint32_t member), void *ctx)
{
	uint64_t chunk = b->cfg.chunk_bytes, end = offset + (len ? len : 1);
	uint32_t n = b->cfg.members, seen = 0;

	if (n == 1 || !chunk) {
		fn(ctx, 0);
		return;
	}
	/* chunks are dealt round-robin: consecutive chunks are consecutive
	 * members, so after `n` chunks every member has been seen */
	for (uint64_t c = offset / chunk; c * chunk < end && seen < n; c++, seen++)
		fn(ctx, (uint32_t)(c % n));
}

const char *bdev_name(const struct bdev *b)
{
	return b->name;
}

uint64_t bdev_size(const struct bdev *b)
{
	return b->cfg.size_bytes;
}

void bdev_get_stats(const struct bdev *b, struct bdev_stats *out)
{
	*out = b->stats;
}

/* ---- diskstats ----------------------------------------------------------------- */

static void disk_heap_down(struct disk_acct *a, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct disk_io t;

		if (l < a->n && a->pend[l].done < a->pend[m].done)
			m = l;
		if (l + 1 < a->n && a->pend[l + 1].done < a->pend[m].done)
			m = l + 1;
		if (m == i)
			return;
		t = a->pend[i];
		a->pend[i] = a->pend[m];
		a->pend[m] = t;
		i = m;
	}
}

/* Book the requests completed by `now` (blk_account_io_done). */
static void disk_acct_drain(struct disk_acct *a, sim_time_t now)
{
	while (a->n && a->pend[0].done <= now) {
		const struct disk_io *io = &a->pend[0];

		a->st.ios[io->grp]++;
		a->st.sectors[io->grp] += io->sectors;
		a->st.nsecs[io->grp] += (uint64_t)io->dur;
		a->pend[0] = a->pend[--a->n];
		disk_heap_down(a, 0);
	}
}

/* A request submitted now that completes at `done` (blk_account_io_start
 * and update_io_ticks). */
static void disk_acct_start(struct disk_acct *a, sim_time_t now, sim_time_t done,
			    int grp, uint64_t bytes)
{
	uint32_t i;

	disk_acct_drain(a, now);
	if (now >= a->busy_until)
		a->st.io_ticks_ns += (uint64_t)(done - now);
	else if (done > a->busy_until)
		a->st.io_ticks_ns += (uint64_t)(done - a->busy_until);
	if (done > a->busy_until)
		a->busy_until = done;
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->pend = realloc(a->pend, a->cap * sizeof(*a->pend));
		if (!a->pend)
			SIM_BUG("out of memory");
	}
	for (i = a->n++; i > 0 && a->pend[(i - 1) / 2].done > done; i = (i - 1) / 2)
		a->pend[i] = a->pend[(i - 1) / 2];
	a->pend[i] = (struct disk_io){ done, done - now, bytes / 512, grp };
}

uint32_t bdev_nr_disks(const struct bdev *b)
{
	return b->cfg.members > 1 ? b->cfg.members + 1 : 1;
}

void bdev_get_diskstats(struct sim *sim, struct bdev *b, uint32_t disk,
			struct bdev_diskstats *out)
{
	struct disk_acct *a;

	if (disk >= bdev_nr_disks(b))
		SIM_BUG("%s: no disk %u", b->name, disk);
	a = b->cfg.members > 1 && disk == 0 ? &b->acct : &b->m[disk ? disk - 1 : 0].acct;
	disk_acct_drain(a, sim->now);
	*out = a->st;
	out->in_flight = a->n;
	if (a->busy_until > sim->now)	/* the part of the busy time still ahead */
		out->io_ticks_ns -= (uint64_t)(a->busy_until - sim->now);
}

static uint64_t io_units(const struct bdev *b, uint64_t bytes)
{
	uint64_t u = b->cfg.io_unit_bytes;

	if (!u || bytes <= u)
		return 1;
	return (bytes + u - 1) / u;
}

/* Spacing, in ps, that `units` and `bytes` need under (iops, bw). */
static uint64_t spacing_ps(uint64_t units, uint64_t bytes, uint64_t iops, uint64_t bw)
{
	uint64_t s = 0;

	if (iops)
		s = (uint64_t)((unsigned __int128)units * PS_PER_SEC / iops);
	if (bw) {
		uint64_t t = (uint64_t)((unsigned __int128)bytes * PS_PER_SEC / bw);

		if (t > s)
			s = t;
	}
	return s;
}

static sim_time_t service_ns(struct bdev *b, uint64_t bytes)
{
	sim_time_t lat = b->cfg.lat_mean_ns;

	if (b->cfg.lat_p99_ns)
		lat = (sim_time_t)llround(exp(b->lat_mu + b->lat_sigma * rng_normal(&b->rng)));
	if (b->cfg.bandwidth)
		lat += (sim_time_t)((unsigned __int128)bytes * SIM_NSEC_PER_SEC / b->cfg.bandwidth);
	return lat;
}

/* Start one member request arriving at `arrival_ps`; returns its completion. */
static sim_time_t member_io(struct sim *sim, struct bdev *b, struct bdev_member *m,
			    enum bio_op op, uint64_t bytes, uint64_t arrival_ps)
{
	uint64_t units = io_units(b, bytes);
	uint64_t start_ps = arrival_ps > m->slot_ps ? arrival_ps : m->slot_ps;
	sim_time_t start = (start_ps + PS_PER_NS - 1) / PS_PER_NS;
	sim_time_t svc = service_ns(b, bytes);
	sim_time_t done = start + svc;

	m->slot_ps = start_ps + spacing_ps(units, bytes, b->cfg.iops, b->cfg.bandwidth);
	b->stats.queue_ns += start - sim->now;
	b->stats.service_ns += svc;
	b->stats.member_ios++;
	b->stats.io_units += units;
	if (start >= m->busy_until)
		b->stats.busy_ns += done - start;
	else if (done > m->busy_until)
		b->stats.busy_ns += done - m->busy_until;
	if (done > m->busy_until)
		m->busy_until = done;
	disk_acct_start(&m->acct, sim->now, done,
			op == BIO_READ ? DISK_STAT_READ : DISK_STAT_WRITE, bytes);
	return done;
}

static sim_time_t submit_rw(struct sim *sim, struct bdev *b, enum bio_op op,
			    uint64_t offset, uint64_t len)
{
	uint64_t arrival_ps = sim->now * PS_PER_NS;
	uint32_t nm = b->cfg.members;
	uint64_t chunk = b->cfg.chunk_bytes, dev_len;
	sim_time_t done = sim->now;

	if (len == 0)
		SIM_BUG("%s: zero-length %s", b->name, op == BIO_READ ? "read" : "write");
	if (b->cfg.size_bytes && (offset > b->cfg.size_bytes || len > b->cfg.size_bytes - offset))
		SIM_BUG("%s: I/O at %llu+%llu beyond the device end", b->name,
			(unsigned long long)offset, (unsigned long long)len);
	if (op == BIO_READ) {
		b->stats.reads++;
		b->stats.read_bytes += len;
	} else {
		b->stats.writes++;
		b->stats.write_bytes += len;
	}
	if (b->cfg.total_iops || b->cfg.total_bandwidth) {
		uint64_t units = 0, off = offset, rem = len;

		while (rem) {	/* units of the member requests the device will see */
			uint64_t n = nm == 1 ? rem : chunk - off % chunk;

			if (n > rem)
				n = rem;
			units += io_units(b, n);
			off += n;
			rem -= n;
		}
		if (b->dev_slot_ps > arrival_ps)
			arrival_ps = b->dev_slot_ps;
		b->dev_slot_ps = arrival_ps + spacing_ps(units, len, b->cfg.total_iops,
							 b->cfg.total_bandwidth);
	}
	if (nm == 1)
		return member_io(sim, b, &b->m[0], op, len, arrival_ps);
	dev_len = len;
	while (len) {
		uint64_t c = offset / chunk, in = offset % chunk;
		uint64_t n = chunk - in < len ? chunk - in : len;
		sim_time_t d = member_io(sim, b, &b->m[c % nm], op, n, arrival_ps);

		if (d > done)
			done = d;
		offset += n;
		len -= n;
	}
	disk_acct_start(&b->acct, sim->now, done,
			op == BIO_READ ? DISK_STAT_READ : DISK_STAT_WRITE, dev_len);
	return done;
}

static sim_time_t submit_flush(struct sim *sim, struct bdev *b)
{
	sim_time_t done = sim->now;

	if (b->cfg.write_cache == BDEV_WRITE_THROUGH)
		return done;
	b->stats.flushes++;
	for (uint32_t i = 0; i < b->cfg.members; i++) {
		struct bdev_member *m = &b->m[i];

		b->stats.member_ios++;
		if (sim->now >= m->flush_end) {		/* none running: issue one now */
			m->flush_start = sim->now;
			m->flush_end = sim->now + b->cfg.flush_ns;
		} else if (sim->now >= m->flush_start) {	/* one runs: the next is pending behind it */
			m->flush_start = m->flush_end;
			m->flush_end += b->cfg.flush_ns;
		}					/* else: join the pending one */
		b->stats.queue_ns += m->flush_start - sim->now;
		b->stats.service_ns += b->cfg.flush_ns;
		disk_acct_start(&m->acct, sim->now, m->flush_end, DISK_STAT_FLUSH, 0);
		if (m->flush_end > done)
			done = m->flush_end;
	}
	return done;
}

static void wbt_complete(struct sim *sim, const struct bio_req *r);

/* wbt_wait (an untracked read) and wbt_issue on each member a read
 * spans.  The kernel times a request from its dispatch to the driver
 * (io_start_time_ns); the model from its submission, since the device's
 * own queue (the limiter) is where it waits. */
struct wbt_read {
	struct bdev	*b;
	sim_time_t	now;
	uint64_t	id;
};

static void wbt_read_issue(void *ctx, uint32_t member)
{
	struct wbt_read *rd = ctx;
	struct bdev_wbt *w = &rd->b->m[member].wbt;

	w->last_issue = rd->now;
	if (!w->sync_cookie) {
		w->sync_cookie = rd->id;
		w->sync_issue = rd->now;
	}
}

static void bio_complete_event(struct sim *sim, void *arg)
{
	struct bio_req *r = arg;
	bio_end_fn end = r->end;
	void *end_arg = r->arg;

	if (r->bdev->m[0].wbt.min_lat && r->op != BIO_FLUSH)
		wbt_complete(sim, r);
	r->next = sim->bio_free;
	sim->bio_free = r;
	end(sim, end_arg, 0);
}

sim_time_t bdev_submit(struct sim *sim, struct bdev *b, enum bio_op op,
		       uint64_t offset, uint64_t len, bio_end_fn end, void *arg)
{
	sim_time_t done;
	struct bio_req *r;
	uint64_t id = ++b->next_id;

	sim_sync(sim);		/* submission order = virtual-time order */
	if (op == BIO_READ && b->m[0].wbt.min_lat) {
		struct wbt_read rd = { b, sim->now, id };

		bdev_for_each_member(b, offset, len, wbt_read_issue, &rd);
	}
	if (op == BIO_FLUSH)
		done = submit_flush(sim, b);
	else if (op == BIO_READ || op == BIO_WRITE)
		done = submit_rw(sim, b, op, offset, len);
	else
		SIM_BUG("%s: bad bio op %d", b->name, (int)op);
	if (!end)
		return done;
	r = sim->bio_free;
	if (r)
		sim->bio_free = r->next;
	else if (!(r = malloc(sizeof(*r))))
		SIM_BUG("out of memory");
	r->end = end;
	r->arg = arg;
	r->bdev = b;
	r->id = id;
	r->issue = sim->now;
	r->offset = offset;
	r->len = len;
	r->op = op;
	sim_evq_push(&sim->evq, done, bio_complete_event, r);
	return done;
}

static void bio_wait_end(struct sim *sim, void *arg, int error)
{
	struct sim_task *t = arg;

	t->io_error = error;
	sim_task_wake(sim, t, sim->now);
}

int bdev_io_wait(struct sim *sim, struct bdev *b, enum bio_op op,
		 uint64_t offset, uint64_t len)
{
	struct sim_task *t = sim->current;

	if (!t)
		SIM_BUG("bdev_io_wait on %s in engine context", b->name);
	bdev_submit(sim, b, op, offset, len, bio_wait_end, t);
	sim_task_block(sim, BLOCK_IO);
	return t->io_error;
}

/* ---- writeback throttling (block/blk-wbt.c, 6.12) ------------------------------- */

enum { RWB_DEF_DEPTH = 16, RWB_MIN_WRITE_SAMPLES = 3, RWB_UNKNOWN_BUMP = 5 };
#define RWB_WINDOW_NS		(100 * SIM_NSEC_PER_MSEC)
#define WBT_CLOSE_IO_NS		(100 * SIM_NSEC_PER_MSEC)	/* HZ / 10 */
#define WBT_RECENT_WAIT_NS	SIM_NSEC_PER_SEC		/* HZ */
#define WBT_DEFAULT_QUEUE_DEPTH	128				/* BLKDEV_DEFAULT_RQ */

static uint64_t int_sqrt64(uint64_t x)
{
	uint64_t r = 0;

	for (uint64_t bit = 1ULL << 62; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/* rq_depth_calc_max_depth(): true when opening up reached its ceiling. */
static bool rq_depth_calc_max_depth(struct bdev_wbt *w)
{
	uint32_t depth;
	bool ret = false;

	if (w->queue_depth == 1) {
		if (w->scale_step > 0) {
			w->max_depth = 1;
		} else {
			w->max_depth = 2;
			ret = true;
		}
		return ret;
	}
	depth = RWB_DEF_DEPTH < w->queue_depth ? RWB_DEF_DEPTH : w->queue_depth;
	if (w->scale_step > 0) {
		depth = 1 + ((depth - 1) >> (w->scale_step < 31 ? w->scale_step : 31));
	} else if (w->scale_step < 0) {
		uint32_t maxd = 3 * w->queue_depth / 4;
		int up = -w->scale_step < 32 ? -w->scale_step : 32;
		uint64_t d = 1 + ((uint64_t)(depth - 1) << up);

		if (d > maxd) {
			d = maxd;
			ret = true;
		}
		depth = (uint32_t)d;
	}
	w->max_depth = depth;
	return ret;
}

static void calc_wb_limits(struct bdev_wbt *w)
{
	if (w->min_lat == 0) {
		w->wb_normal = w->wb_background = 0;
	} else if (w->max_depth <= 2) {
		w->wb_normal = w->max_depth;
		w->wb_background = 1;
	} else {
		w->wb_normal = (w->max_depth + 1) / 2;
		w->wb_background = (w->max_depth + 3) / 4;
	}
}

static void wbt_init(struct bdev *b)
{
	for (uint32_t i = 0; i < b->cfg.members; i++) {
		struct bdev_wbt *w = &b->m[i].wbt;

		memset(w, 0, sizeof(*w));
		w->bdev = b;
		w->min_lat = b->cfg.wbt_lat_ns;
		if (!w->min_lat)
			continue;
		w->queue_depth = b->cfg.nr_requests ? b->cfg.nr_requests
						    : WBT_DEFAULT_QUEUE_DEPTH;
		rq_depth_calc_max_depth(w);
		calc_wb_limits(w);
	}
}

static bool wb_recent_wait(const struct sim *sim, const struct bdev_wbt *w)
{
	return w->bdp_slept && sim->now < w->last_bdp_sleep + WBT_RECENT_WAIT_NS;
}

/* close_io(): a read issued or completed within the last 100 ms. */
static bool close_io(const struct sim *sim, const struct bdev_wbt *w)
{
	return sim->now < w->last_issue + WBT_CLOSE_IO_NS || sim->now < w->last_comp + WBT_CLOSE_IO_NS;
}

static uint32_t get_limit(const struct sim *sim, const struct bdev_wbt *w, enum wbt_class cls)
{
	if (cls == WBT_SYNC || wb_recent_wait(sim, w))
		return w->max_depth;
	if (cls == WBT_BACKGROUND || close_io(sim, w))
		return w->wb_background;
	return w->wb_normal;
}

/* wake_up_all() through rq_qos_wake_function: in queue order, each
 * waiter takes a token if its limit allows; the first that cannot ends
 * the walk. */
static void wbt_wake(struct sim *sim, struct bdev_wbt *w)
{
	struct wbt_waiter *q;

	while ((q = w->head) && w->inflight < get_limit(sim, w, q->cls)) {
		w->inflight++;
		q->got_token = true;
		w->head = q->next;
		if (!w->head)
			w->tail = NULL;
		w->waiting--;
		sim_task_wake(sim, q->task, sim->now);
	}
}

static void wbt_timer_event(struct sim *sim, void *arg);

/* rwb_arm_timer() with blk_stat_activate_nsecs(): a new window. */
static void wbt_arm_timer(struct sim *sim, struct bdev_wbt *w)
{
	if (w->scale_step > 0)
		w->cur_win = (sim_time_t)((RWB_WINDOW_NS << 4) /
					  int_sqrt64((uint64_t)(w->scale_step + 1) << 8));
	else
		w->cur_win = RWB_WINDOW_NS;
	w->active = true;
	w->read_samples = w->write_samples = 0;
	w->read_min = 0;
	sim_evq_push(&sim->evq, sim->now + w->cur_win, wbt_timer_event, w);
}

static int latency_exceeded(const struct sim *sim, const struct bdev_wbt *w)
{
	sim_time_t thislat = w->sync_cookie ? sim->now - w->sync_issue : 0;

	if (thislat > w->cur_win || (thislat > w->min_lat && !w->read_samples))
		return LAT_EXCEEDED;
	if (!(w->read_samples >= 1 && w->write_samples >= RWB_MIN_WRITE_SAMPLES)) {
		if (w->write_samples || wb_recent_wait(sim, w) || w->inflight)
			return LAT_UNKNOWN_WRITES;
		return LAT_UNKNOWN;
	}
	if (w->read_min > w->min_lat)
		return LAT_EXCEEDED;
	return LAT_OK;
}

static void scale_up(struct sim *sim, struct bdev_wbt *w)
{
	if (w->scaled_max)
		return;
	w->scale_step--;
	w->scaled_max = rq_depth_calc_max_depth(w);
	calc_wb_limits(w);
	w->unknown_cnt = 0;
	wbt_wake(sim, w);
}

static void scale_down(struct bdev_wbt *w, bool hard_throttle)
{
	if (w->max_depth == 1)
		return;
	if (w->scale_step < 0 && hard_throttle)
		w->scale_step = 0;
	else
		w->scale_step++;
	w->scaled_max = false;
	rq_depth_calc_max_depth(w);
	calc_wb_limits(w);
	w->unknown_cnt = 0;
}

/* Sum the depth held since the last step (statistics only). */
static void wbt_account_depth(const struct sim *sim, struct bdev_wbt *w)
{
	sim_time_t dt = sim->now - w->depth_since;

	w->depth_ns += (uint64_t)w->max_depth * dt;
	if (w->scaled_max)
		w->scaled_max_ns += dt;
	w->depth_since = sim->now;
}

/* wb_timer_fn(): the window ended; step the depth, re-arm while needed. */
static void wbt_timer_event(struct sim *sim, void *arg)
{
	struct bdev_wbt *w = arg;
	int status = latency_exceeded(sim, w);

	w->active = false;
	wbt_account_depth(sim, w);
	w->windows[status]++;
	switch (status) {
	case LAT_EXCEEDED:
		scale_down(w, true);
		break;
	case LAT_OK:
	case LAT_UNKNOWN_WRITES:
		scale_up(sim, w);
		break;
	case LAT_UNKNOWN:
		if (++w->unknown_cnt < RWB_UNKNOWN_BUMP)
			break;
		if (w->scale_step > 0)
			scale_up(sim, w);
		else if (w->scale_step < 0)
			scale_down(w, false);
		break;
	}
	if (w->scale_step || w->inflight)
		wbt_arm_timer(sim, w);
}

/* At a request's completion, on each member it spans: wbt_done for
 * untracked requests and the blk_stat sample of the window.  The model
 * completes a request once, when its last member's piece is done, and
 * samples that time on every member. */
struct wbt_compl {
	struct sim	*sim;
	const struct bio_req *r;
};

static void wbt_complete_member(void *ctx, uint32_t member)
{
	struct wbt_compl *c = ctx;
	struct sim *sim = c->sim;
	const struct bio_req *r = c->r;
	struct bdev_wbt *w = &r->bdev->m[member].wbt;

	if (r->op == BIO_READ) {
		if (w->sync_cookie == r->id)
			w->sync_cookie = 0;
		w->last_comp = sim->now;
	}
	if (!w->active)
		return;
	if (r->op == BIO_READ) {
		sim_time_t lat = sim->now - r->issue;

		if (!w->read_samples || lat < w->read_min)
			w->read_min = lat;
		w->read_samples++;
	} else {
		w->write_samples++;
	}
}

static void wbt_complete(struct sim *sim, const struct bio_req *r)
{
	struct wbt_compl c = { sim, r };

	bdev_for_each_member(r->bdev, r->offset, r->len, wbt_complete_member, &c);
}

bool bdev_wbt_enabled(const struct bdev *b)
{
	return b->m[0].wbt.min_lat != 0;
}

/* rq_qos_throttle() on one member's queue: take a token or queue for one. */
static void wbt_throttle_member(struct sim *sim, struct bdev_wbt *w, enum wbt_class cls)
{
	struct wbt_waiter me = { .task = sim->current, .cls = cls };

	if (!w->head && w->inflight < get_limit(sim, w, cls)) {
		w->inflight++;
	} else {
		sim_time_t t0 = sim->now;

		if (w->tail)
			w->tail->next = &me;
		else
			w->head = &me;
		w->tail = &me;
		w->waiting++;
		while (!me.got_token)
			sim_task_block(sim, BLOCK_IO);
		w->throttled++;
		w->throttled_ns += sim->now - t0;
	}
	if (!w->active)
		wbt_arm_timer(sim, w);
}

struct wbt_throttle {
	struct sim	*sim;
	struct bdev	*b;
	enum wbt_class	cls;
	bool		later;		/* past the first member */
};

static void wbt_throttle_fn(void *ctx, uint32_t member)
{
	struct wbt_throttle *t = ctx;

	/* a wait on the previous member charged the switch back in: make
	 * it real before this member's queue may block the task again */
	if (t->later)
		sim_sync(t->sim);
	t->later = true;
	wbt_throttle_member(t->sim, &t->b->m[member].wbt, t->cls);
}

/* md raid0 submits a bio's pieces member by member, each through its
 * member's queue, so the submitter may wait on each in turn. */
sim_time_t bdev_wbt_throttle(struct sim *sim, struct bdev *b, enum wbt_class cls,
			     uint64_t offset, uint64_t len)
{
	struct wbt_throttle t = { sim, b, cls, false };
	sim_time_t t0;

	if (!bdev_wbt_enabled(b))
		return 0;
	if (!sim->current)
		SIM_BUG("bdev_wbt_throttle on %s in engine context", b->name);
	sim_sync(sim);
	t0 = sim->now;
	bdev_for_each_member(b, offset, len, wbt_throttle_fn, &t);
	return sim->now - t0;
}

/* wbt_rqw_done(): a device with a volatile write cache drains to zero
 * before it wakes anyone (unless a writer was dirty-throttled lately). */
static void wbt_done_fn(void *ctx, uint32_t member)
{
	struct wbt_throttle *t = ctx;
	struct sim *sim = t->sim;
	struct bdev *b = t->b;
	struct bdev_wbt *w = &b->m[member].wbt;
	uint32_t limit;

	if (!w->inflight)
		SIM_BUG("%s: wbt completion with nothing in flight on member %u", b->name, member);
	w->inflight--;
	if (b->cfg.write_cache == BDEV_WRITE_BACK && !wb_recent_wait(sim, w))
		limit = 0;
	else
		limit = w->wb_normal;
	if (w->inflight && w->inflight >= limit)
		return;
	if (w->head && (!w->inflight || limit - w->inflight >= w->wb_background / 2))
		wbt_wake(sim, w);
}

void bdev_wbt_done(struct sim *sim, struct bdev *b, uint64_t offset, uint64_t len)
{
	struct wbt_throttle t = { sim, b, WBT_NORMAL, false };

	if (bdev_wbt_enabled(b))
		bdev_for_each_member(b, offset, len, wbt_done_fn, &t);
}

/* balance_dirty_pages() marks the bdi of the file's device.  A plain
 * device's throttle reads that bdi; a RAID0 member's reads its own disk's
 * bdi, which no writer dirties through, so md's members never see it. */
void bdev_wbt_bdp_sleep(struct sim *sim, struct bdev *b)
{
	if (b->cfg.members != 1)
		return;
	b->m[0].wbt.last_bdp_sleep = sim->now;
	b->m[0].wbt.bdp_slept = true;
}

void bdev_wbt_get_state(const struct sim *sim, const struct bdev *b, uint32_t member,
			struct bdev_wbt_state *out)
{
	const struct bdev_wbt *w = &b->m[member].wbt;
	sim_time_t dt = sim->now - w->depth_since;

	out->scale_step = w->scale_step;
	out->max_depth = w->max_depth;
	out->wb_normal = w->wb_normal;
	out->wb_background = w->wb_background;
	out->inflight = w->inflight;
	out->waiting = w->waiting;
	out->unknown_cnt = w->unknown_cnt;
	out->cur_win_ns = w->cur_win;
	out->min_lat_ns = w->min_lat;
	out->lat_ok = w->windows[LAT_OK];
	out->lat_unknown = w->windows[LAT_UNKNOWN];
	out->lat_unknown_writes = w->windows[LAT_UNKNOWN_WRITES];
	out->lat_exceeded = w->windows[LAT_EXCEEDED];
	out->depth_ns = w->depth_ns + (uint64_t)w->max_depth * dt;
	out->scaled_max_ns = w->scaled_max_ns + (w->scaled_max ? dt : 0);
	out->throttled = w->throttled;
	out->throttled_ns = w->throttled_ns;
}
