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

struct bdev_member {
	uint64_t	slot_ps;	/* earliest start of the next request */
	sim_time_t	busy_until;	/* end of the busy union so far */
	/* the last flush command issued or pending (blk-flush's sequence):
	 * it runs over [flush_start, flush_end) */
	sim_time_t	flush_start, flush_end;
};

struct bdev {
	struct bdev	*next;
	struct bdev_config cfg;
	char		*name;
	double		lat_mu, lat_sigma;
	struct sim_rng	rng;
	uint64_t	dev_slot_ps;	/* whole-device limiter */
	struct bdev_stats stats;
	struct bdev_member m[];
};

struct bio_req {
	struct bio_req	*next;		/* free list */
	bio_end_fn	end;
	void		*arg;
};

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
	return done;
}

static sim_time_t submit_rw(struct sim *sim, struct bdev *b, enum bio_op op,
			    uint64_t offset, uint64_t len)
{
	uint64_t arrival_ps = sim->now * PS_PER_NS;
	uint32_t nm = b->cfg.members;
	uint64_t chunk = b->cfg.chunk_bytes;
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
	while (len) {
		uint64_t c = offset / chunk, in = offset % chunk;
		uint64_t n = chunk - in < len ? chunk - in : len;
		sim_time_t d = member_io(sim, b, &b->m[c % nm], op, n, arrival_ps);

		if (d > done)
			done = d;
		offset += n;
		len -= n;
	}
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
		if (m->flush_end > done)
			done = m->flush_end;
	}
	return done;
}

static void bio_complete_event(struct sim *sim, void *arg)
{
	struct bio_req *r = arg;
	bio_end_fn end = r->end;
	void *end_arg = r->arg;

	r->next = sim->bio_free;
	sim->bio_free = r;
	end(sim, end_arg, 0);
}

sim_time_t bdev_submit(struct sim *sim, struct bdev *b, enum bio_op op,
		       uint64_t offset, uint64_t len, bio_end_fn end, void *arg)
{
	sim_time_t done;
	struct bio_req *r;

	sim_sync(sim);		/* submission order = virtual-time order */
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
