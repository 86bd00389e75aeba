/* SPDX-License-Identifier: MIT */
/* Tests of the block-device model: IOPS and bandwidth caps, io-unit
 * accounting, RAID0 striping and concurrency, flush ordering, the latency
 * distribution, blocking I/O from a task. */
#include <math.h>

#include "harness.h"
#include "sim/bdev.h"
#include "sim_test.h"

#define US SIM_NSEC_PER_USEC
#define MS SIM_NSEC_PER_MSEC
#define KiB 1024ULL
#define MiB (1024ULL * KiB)

struct done_log {
	unsigned int	n;
	sim_time_t	t[64];
	int		tag[64];
};

struct io_tag {
	struct done_log	*log;
	int		tag;
};

static void io_end(struct sim *sim, void *arg, int error)
{
	struct io_tag *it = arg;

	if (error == 0 && it->log->n < 64) {
		it->log->t[it->log->n] = sim_now(sim);
		it->log->tag[it->log->n] = it->tag;
		it->log->n++;
	}
}

static struct bdev *mkdev(struct sim *sim, const char *name, uint64_t iops, uint64_t bw,
			  sim_time_t lat, uint32_t members, uint64_t chunk)
{
	struct bdev_config c = {
		.name = name, .iops = iops, .bandwidth = bw, .lat_mean_ns = lat,
		.flush_ns = 200 * US, .members = members, .chunk_bytes = chunk,
	};

	return bdev_create(sim, &c);
}

/* A test of the IOPS cap: 5 writes of 4 KiB submitted together to a
 * 1000-IOPS device with a constant 100 us latency.  Expect starts spaced
 * 1 ms apart (completions at i ms + 100 us), queue time 0+1+2+3+4 = 10 ms,
 * busy 500 us. */
TEST(bdev_iops_cap)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *d = mkdev(sim, "vol", 1000, 0, 100 * US, 1, 0);
	struct done_log log = { 0 };
	struct io_tag tags[5];
	struct bdev_stats st;

	for (int i = 0; i < 5; i++) {
		tags[i] = (struct io_tag){ &log, i };
		bdev_submit(sim, d, BIO_WRITE, (uint64_t)i * 4 * KiB, 4 * KiB, io_end, &tags[i]);
	}
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 5);
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(log.tag[i], i);
		ASSERT_U64_EQ(log.t[i], (sim_time_t)i * MS + 100 * US);
	}
	bdev_get_stats(d, &st);
	ASSERT_U64_EQ(st.writes, 5);
	ASSERT_U64_EQ(st.write_bytes, 20 * KiB);
	ASSERT_U64_EQ(st.queue_ns, 10 * MS);
	ASSERT_U64_EQ(st.service_ns, 500 * US);
	ASSERT_U64_EQ(st.busy_ns, 500 * US);
	ASSERT_U64_EQ(st.io_units, 5);
	sim_destroy(sim);
}

/* A test of the bandwidth cap: three 1 MB (10^6 byte) reads on a 1 GB/s
 * device with zero latency.  Expect each to take 1 ms of transfer, the
 * next to start when the previous has used the bandwidth: completions at
 * 1, 2 and 3 ms, busy 3 ms. */
TEST(bdev_bandwidth_cap)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *d = mkdev(sim, "vol", 0, 1000000000, 0, 1, 0);
	struct done_log log = { 0 };
	struct io_tag tags[3];
	struct bdev_stats st;

	for (int i = 0; i < 3; i++) {
		tags[i] = (struct io_tag){ &log, i };
		bdev_submit(sim, d, BIO_READ, (uint64_t)i * 1000000, 1000000, io_end, &tags[i]);
	}
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 3);
	for (int i = 0; i < 3; i++)
		ASSERT_U64_EQ(log.t[i], (sim_time_t)(i + 1) * MS);
	bdev_get_stats(d, &st);
	ASSERT_U64_EQ(st.reads, 3);
	ASSERT_U64_EQ(st.read_bytes, 3000000);
	ASSERT_U64_EQ(st.busy_ns, 3 * MS);
	sim_destroy(sim);
}

/* A test of io-unit accounting (io2: I/Os over 256 KiB count in 256 KiB
 * units): on a 1000-IOPS device, a 1 MiB write uses 4 units, so a 4 KiB
 * write submitted with it starts 4 ms later; a 300 KiB write uses 2.
 * Expect completions at 50 us, 4.05 ms, 5.05 ms and 7 units in all. */
TEST(bdev_io_unit_accounting)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev_config c = {
		.name = "io2", .iops = 1000, .lat_mean_ns = 50 * US, .members = 1,
		.io_unit_bytes = 256 * KiB,
	};
	struct bdev *d = bdev_create(sim, &c);
	struct done_log log = { 0 };
	struct io_tag tags[3] = { { &log, 0 }, { &log, 1 }, { &log, 2 } };
	struct bdev_stats st;

	bdev_submit(sim, d, BIO_WRITE, 0, 1024 * KiB, io_end, &tags[0]);
	bdev_submit(sim, d, BIO_WRITE, 1024 * KiB, 4 * KiB, io_end, &tags[1]);
	bdev_submit(sim, d, BIO_WRITE, 2048 * KiB, 300 * KiB, io_end, &tags[2]);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 3);
	ASSERT_U64_EQ(log.t[0], 50 * US);
	ASSERT_U64_EQ(log.t[1], 4 * MS + 50 * US);
	ASSERT_U64_EQ(log.t[2], 5 * MS + 50 * US);
	bdev_get_stats(d, &st);
	ASSERT_U64_EQ(st.io_units, 7);
	sim_destroy(sim);
}

/* A test of RAID0 striping: 4 members, 64 KiB chunks, 1000 IOPS and
 * 100 us per member.
 *   - a 256 KiB write at 0 covers chunks 0-3, one per member: 4 member
 *     requests served concurrently, done at 100 us;
 *   - a 512 KiB write covers 8 chunks, two per member: the second round
 *     waits for each member's IOPS slot, done at 1.1 ms.
 * Expect those completions and 12 member requests. */
TEST(bdev_raid0_striping_concurrency)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *a = mkdev(sim, "md0", 1000, 0, 100 * US, 4, 64 * KiB);
	struct bdev *b = mkdev(sim, "md1", 1000, 0, 100 * US, 4, 64 * KiB);
	struct done_log la = { 0 }, lb = { 0 };
	struct io_tag ta = { &la, 0 }, tb = { &lb, 0 };
	struct bdev_stats sa, sb;

	bdev_submit(sim, a, BIO_WRITE, 0, 256 * KiB, io_end, &ta);
	bdev_submit(sim, b, BIO_WRITE, 0, 512 * KiB, io_end, &tb);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(la.n, 1);
	ASSERT_U64_EQ(la.t[0], 100 * US);
	ASSERT_EQ(lb.n, 1);
	ASSERT_U64_EQ(lb.t[0], MS + 100 * US);
	bdev_get_stats(a, &sa);
	bdev_get_stats(b, &sb);
	ASSERT_U64_EQ(sa.writes, 1);
	ASSERT_U64_EQ(sa.member_ios, 4);
	ASSERT_U64_EQ(sb.member_ios, 8);
	ASSERT_U64_EQ(sa.busy_ns, 4 * 100 * US);
	sim_destroy(sim);
}

/* A test of the RAID0 address mapping: chunk c is on member c mod 4.  On
 * a 1000-IOPS-per-member array, 64 KiB writes to chunks 1 and 5 share
 * member 1 (the second waits 1 ms), chunk 2 is on member 2 (no wait); an
 * 8 KiB write at 60 KiB straddles chunks 0 and 1 and becomes two member
 * requests, the half on member 1 waiting for its third slot.  Expect
 * completions 100 us, 1.1 ms, 100 us and 2.1 ms. */
TEST(bdev_raid0_chunk_mapping)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *d = mkdev(sim, "md0", 1000, 0, 100 * US, 4, 64 * KiB);
	struct done_log log = { 0 };
	struct io_tag t[4] = { { &log, 1 }, { &log, 5 }, { &log, 2 }, { &log, 0 } };
	const uint64_t chunk = 64 * KiB;
	struct bdev_stats st;
	sim_time_t by_tag[6] = { 0 };

	bdev_submit(sim, d, BIO_WRITE, 1 * chunk, chunk, io_end, &t[0]);
	bdev_submit(sim, d, BIO_WRITE, 5 * chunk, chunk, io_end, &t[1]);
	bdev_submit(sim, d, BIO_WRITE, 2 * chunk, chunk, io_end, &t[2]);
	bdev_submit(sim, d, BIO_WRITE, 60 * KiB, 8 * KiB, io_end, &t[3]);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 4);
	for (unsigned int i = 0; i < log.n; i++)
		by_tag[log.tag[i]] = log.t[i];
	ASSERT_U64_EQ(by_tag[1], 100 * US);
	ASSERT_U64_EQ(by_tag[5], MS + 100 * US);
	ASSERT_U64_EQ(by_tag[2], 100 * US);
	ASSERT_U64_EQ(by_tag[0], 2 * MS + 100 * US);
	bdev_get_stats(d, &st);
	ASSERT_U64_EQ(st.member_ios, 5);
	sim_destroy(sim);
}

/* A test of the whole-device cap applied before striping: 4 members with
 * no limit of their own, total_iops 1000, four 64 KiB writes to different
 * members.  Expect them spaced 1 ms apart anyway (done at i ms + 10 us). */
TEST(bdev_total_iops_cap)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev_config c = {
		.name = "md0", .lat_mean_ns = 10 * US, .members = 4, .chunk_bytes = 64 * KiB,
		.total_iops = 1000,
	};
	struct bdev *d = bdev_create(sim, &c);
	struct done_log log = { 0 };
	struct io_tag t[4];

	for (int i = 0; i < 4; i++) {
		t[i] = (struct io_tag){ &log, i };
		bdev_submit(sim, d, BIO_WRITE, (uint64_t)i * 64 * KiB, 64 * KiB, io_end, &t[i]);
	}
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 4);
	for (int i = 0; i < 4; i++)
		ASSERT_U64_EQ(log.t[i], (sim_time_t)i * MS + 10 * US);
	sim_destroy(sim);
}

/* A flush submitted at a later instant (sim_call_at). */
struct later_flush {
	struct bdev	*dev;
	struct io_tag	*tag;
};

static void submit_flush_now(struct sim *sim, void *arg)
{
	struct later_flush *lf = arg;

	bdev_submit(sim, lf->dev, BIO_FLUSH, 0, 0, io_end, lf->tag);
}

/* A test of flush sequencing (block/blk-flush.c, 6.12; flush_ns 200 us):
 * a flush does not wait for a write in flight, one flush command runs at
 * a time, and requests arriving while it runs wait for the next command,
 * which serves all of them.  One member: a 1 ms write and a flush at 0
 * (the flush done at 200 us, before the write), flushes at 100 and 150 us
 * (both done at 400 us, by the one command pending behind the first) and
 * at 450 us (a command of its own: 650 us).  A RAID0 of two with a write
 * in flight on member 0: its flush at 0 is done at 200 us on both.
 * Expect those times; on the one member 4 flushes, 5 member requests
 * (the write and the flushes) and 150 us of queueing (the flush at 100 us
 * waits 100, the one at 150 us 50; the write none); on the pair 1 flush
 * and 3 member requests. */
TEST(bdev_flush_sequencing)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *one = mkdev(sim, "one", 0, 0, MS, 1, 0);
	struct bdev *two = mkdev(sim, "two", 0, 0, MS, 2, 64 * KiB);
	struct done_log log = { 0 };
	struct io_tag t[7] = { { &log, 'w' }, { &log, 'a' }, { &log, 'b' }, { &log, 'c' }, { &log, 'd' },
			       { &log, 'W' }, { &log, 'F' } };
	struct later_flush lb = { one, &t[2] }, lc = { one, &t[3] }, ld = { one, &t[4] };
	struct bdev_stats st;

	bdev_submit(sim, one, BIO_WRITE, 0, 4 * KiB, io_end, &t[0]);
	bdev_submit(sim, one, BIO_FLUSH, 0, 0, io_end, &t[1]);
	sim_call_at(sim, 100 * US, submit_flush_now, &lb);
	sim_call_at(sim, 150 * US, submit_flush_now, &lc);
	sim_call_at(sim, 450 * US, submit_flush_now, &ld);
	bdev_submit(sim, two, BIO_WRITE, 0, 4 * KiB, io_end, &t[5]);
	bdev_submit(sim, two, BIO_FLUSH, 0, 0, io_end, &t[6]);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 7);
	ASSERT_EQ(log.tag[0], 'a');
	ASSERT_U64_EQ(log.t[0], 200 * US);
	ASSERT_EQ(log.tag[1], 'F');
	ASSERT_U64_EQ(log.t[1], 200 * US);
	ASSERT_EQ(log.tag[2], 'b');
	ASSERT_U64_EQ(log.t[2], 400 * US);
	ASSERT_EQ(log.tag[3], 'c');
	ASSERT_U64_EQ(log.t[3], 400 * US);
	ASSERT_EQ(log.tag[4], 'd');
	ASSERT_U64_EQ(log.t[4], 650 * US);
	ASSERT_EQ(log.tag[5], 'w');
	ASSERT_U64_EQ(log.t[5], MS);
	ASSERT_EQ(log.tag[6], 'W');
	ASSERT_U64_EQ(log.t[6], MS);
	bdev_get_stats(one, &st);
	ASSERT_U64_EQ(st.flushes, 4);
	ASSERT_U64_EQ(st.member_ios, 5);
	ASSERT_U64_EQ(st.queue_ns, 150 * US);
	bdev_get_stats(two, &st);
	ASSERT_U64_EQ(st.flushes, 1);
	ASSERT_U64_EQ(st.member_ios, 3);
	sim_destroy(sim);
}

/* A test of a device without a volatile write cache ("write through"):
 * submit_bio_noacct ends an empty flush at once.  A 1 ms write then a
 * flush on such a device.  Expect the flush to complete at submission
 * (0), before the write (1 ms), with no flush and no member I/O counted
 * for it. */
TEST(bdev_flush_write_through_completes_at_once)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev_config c = {
		.name = "wt", .lat_mean_ns = MS, .flush_ns = 200 * US, .members = 2,
		.chunk_bytes = 64 * KiB, .write_cache = BDEV_WRITE_THROUGH,
	};
	struct bdev *d = bdev_create(sim, &c);
	struct done_log log = { 0 };
	struct io_tag t[2] = { { &log, 'w' }, { &log, 'f' } };
	struct bdev_stats st;

	bdev_submit(sim, d, BIO_WRITE, 0, 4 * KiB, io_end, &t[0]);
	bdev_submit(sim, d, BIO_FLUSH, 0, 0, io_end, &t[1]);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 2);
	ASSERT_EQ(log.tag[0], 'f');
	ASSERT_U64_EQ(log.t[0], 0);
	ASSERT_EQ(log.tag[1], 'w');
	ASSERT_U64_EQ(log.t[1], MS);
	bdev_get_stats(d, &st);
	ASSERT_U64_EQ(st.flushes, 0);
	ASSERT_U64_EQ(st.member_ios, 1);
	sim_destroy(sim);
}

struct member_list {
	unsigned int	n;
	uint32_t	m[16];
};

static void note_member(void *ctx, uint32_t member)
{
	struct member_list *l = ctx;

	if (l->n < 16)
		l->m[l->n++] = member;
}

/* A test of the members a request spans (per-member request tags): a
 * RAID0 of 3 with 64 KiB chunks.  Expect a 4 KiB request at 0 on member
 * 0; one at 130 KiB on member 2; 40 KiB at 60 KiB on members 0 and 1;
 * 1 MiB at 64 KiB on members 1, 2, 0 (each once); a plain device always
 * member 0. */
TEST(bdev_members_spanned)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *r = mkdev(sim, "r", 0, 0, MS, 3, 64 * KiB);
	struct bdev *one = mkdev(sim, "one", 0, 0, MS, 1, 0);
	struct member_list l;

	l.n = 0;
	bdev_for_each_member(r, 0, 4 * KiB, note_member, &l);
	ASSERT_EQ(l.n, 1);
	ASSERT_EQ(l.m[0], 0);
	l.n = 0;
	bdev_for_each_member(r, 130 * KiB, 4 * KiB, note_member, &l);
	ASSERT_EQ(l.n, 1);
	ASSERT_EQ(l.m[0], 2);
	l.n = 0;
	bdev_for_each_member(r, 60 * KiB, 40 * KiB, note_member, &l);
	ASSERT_EQ(l.n, 2);
	ASSERT_EQ(l.m[0], 0);
	ASSERT_EQ(l.m[1], 1);
	l.n = 0;
	bdev_for_each_member(r, 64 * KiB, 1024 * KiB, note_member, &l);
	ASSERT_EQ(l.n, 3);
	ASSERT_EQ(l.m[0], 1);
	ASSERT_EQ(l.m[1], 2);
	ASSERT_EQ(l.m[2], 0);
	l.n = 0;
	bdev_for_each_member(one, 5 * MiB, 3 * MiB, note_member, &l);
	ASSERT_EQ(l.n, 1);
	ASSERT_EQ(l.m[0], 0);
	sim_destroy(sim);
}

#define NLAT 50000

struct lat_log {
	unsigned int	n;
	sim_time_t	*t;
};

static void lat_end(struct sim *sim, void *arg, int error)
{
	struct lat_log *l = arg;

	(void)error;
	l->t[l->n++] = sim_now(sim);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A test of the lognormal latency fit: 50000 reads submitted at 0 to an
 * unlimited device with mean 500 us and p99 1.5 ms.  Expect the sample
 * mean within 2 % of 500 us and the sample p99 within 4 % of 1.5 ms (the
 * draws are deterministic, so this is a check of the fit, not a flaky
 * statistical test). */
TEST(bdev_lognormal_latency_fit)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev_config c = {
		.name = "ebs", .lat_mean_ns = 500 * US, .lat_p99_ns = 1500 * US, .members = 1,
	};
	struct bdev *d = bdev_create(sim, &c);
	struct lat_log l = { 0, calloc(NLAT, sizeof(sim_time_t)) };
	double sum = 0;

	ASSERT_TRUE(l.t != NULL);
	for (int i = 0; i < NLAT; i++)
		bdev_submit(sim, d, BIO_READ, 0, 4096, lat_end, &l);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(l.n, NLAT);
	for (int i = 0; i < NLAT; i++)
		sum += (double)l.t[i];
	qsort(l.t, NLAT, sizeof(l.t[0]), cmp_u64);
	ASSERT_NEAR(sum / NLAT / (500 * US), 1.0, 0.02);
	ASSERT_NEAR((double)l.t[NLAT * 99 / 100] / (1500 * US), 1.0, 0.04);
	free(l.t);
	sim_destroy(sim);
}

struct waiter {
	struct bdev	*d;
	int		rc;
	sim_time_t	done;
};

static void io_task(struct sim *sim, void *p)
{
	struct waiter *w = p;

	sim_path_push(sim, "submit_bio_wait");
	w->rc = bdev_io_wait(sim, w->d, BIO_WRITE, 0, 8 * KiB);
	sim_path_pop(sim);
	w->done = sim_now(sim);
}

/* A test of blocking I/O from a task: an 8 KiB write with 300 us latency.
 * Expect the task to sleep 300 us (io_ns, on its "submit_bio_wait" node),
 * its CPU to be idle meanwhile, and 0 returned. */
TEST(bdev_io_wait_blocks_task)
{
	struct sim *sim = st_sim_exact(1);
	struct waiter w = { mkdev(sim, "vol", 0, 0, 300 * US, 1, 0), -1, 0 };
	struct sim_task *t = st_task(sim, "writer", 0, false, io_task, &w, 0);
	struct sim_task_stats st;
	const struct sim_path_node *nodes;
	uint32_t n = sim_path_nodes(sim, &nodes);
	struct sim_cpu_stats cs;

	sim_run(sim, SIM_TIME_NEVER);
	n = sim_path_nodes(sim, &nodes);
	ASSERT_EQ(w.rc, 0);
	ASSERT_U64_EQ(w.done, 300 * US);
	sim_task_stats(t, &st);
	ASSERT_U64_EQ(st.io_ns, 300 * US);
	ASSERT_EQ(n, 2);
	ASSERT_STR_EQ(nodes[1].name, "submit_bio_wait");
	ASSERT_U64_EQ(nodes[1].io_ns, 300 * US);
	sim_cpu_stats(sim, 0, &cs);
	ASSERT_U64_EQ(cs.idle_ns, 300 * US);
	sim_destroy(sim);
}

/* A test that latency draws are a per-device stream: two devices with the
 * same config in two sims with the same seed draw the same latencies in
 * the same order, even when a third device is created (and used) first in
 * one of them; another seed changes them.  Expect equal / different
 * completion times. */
TEST(bdev_latency_streams_per_device)
{
	sim_time_t t[3][8];

	for (int run = 0; run < 3; run++) {
		struct cost_table c;
		struct sim_config cfg = { .ncpus = 1, .seed = run == 2 ? 99 : 5 };
		struct sim *sim;
		struct bdev_config bc = {
			.name = "vol", .lat_mean_ns = 500 * US, .lat_p99_ns = 2 * MS, .members = 1,
		};
		struct bdev *d, *other;
		struct done_log log = { 0 };
		struct io_tag tags[8];

		cost_table_init(&c);
		cfg.costs = &c;
		sim = sim_create(&cfg);
		if (run == 1) {
			bc.name = "other";
			other = bdev_create(sim, &bc);
			bdev_submit(sim, other, BIO_READ, 0, 4096, NULL, NULL);
			bc.name = "vol";
		}
		d = bdev_create(sim, &bc);
		for (int i = 0; i < 8; i++) {
			tags[i] = (struct io_tag){ &log, i };
			bdev_submit(sim, d, BIO_READ, 0, 4096, io_end, &tags[i]);
		}
		sim_run(sim, SIM_TIME_NEVER);
		ASSERT_EQ(log.n, 8);
		for (unsigned int i = 0; i < 8; i++)
			t[run][log.tag[i]] = log.t[i];
		sim_destroy(sim);
	}
	for (int i = 0; i < 8; i++)
		ASSERT_U64_EQ(t[0][i], t[1][i]);
	ASSERT_TRUE(memcmp(t[0], t[2], sizeof(t[0])) != 0);
}

/* A test of configuration checking for user input.  Expect -1 with a
 * message naming the device for: no members, RAID0 without chunk, p99
 * below the mean, p99/mean beyond what a lognormal can fit; 0 for a valid
 * io2-like RAID0. */
TEST(bdev_config_check_messages)
{
	char err[256];
	struct bdev_config ok = {
		.name = "md0", .iops = 32000, .bandwidth = 4000ULL << 20, .lat_mean_ns = 500 * US,
		.lat_p99_ns = 800 * US, .flush_ns = 500 * US, .members = 12,
		.chunk_bytes = 512 * KiB, .io_unit_bytes = 256 * KiB,
	};
	struct bdev_config c;

	ASSERT_EQ(bdev_config_check(&ok, err, sizeof(err)), 0);
	c = ok;
	c.members = 0;
	ASSERT_EQ(bdev_config_check(&c, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "device 'md0': members must be at least 1");
	c = ok;
	c.chunk_bytes = 0;
	ASSERT_EQ(bdev_config_check(&c, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "device 'md0': RAID0 over 12 members needs a chunk size");
	c = ok;
	c.lat_p99_ns = 100 * US;
	ASSERT_EQ(bdev_config_check(&c, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "device 'md0': latency p99 must be at least the mean");
	c = ok;
	c.lat_p99_ns = 20 * c.lat_mean_ns;
	ASSERT_EQ(bdev_config_check(&c, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "exceeds") != NULL);
	c = ok;
	c.name = NULL;
	ASSERT_EQ(bdev_config_check(&c, err, sizeof(err)), -1);
}

/* ---- writeback throttling (block/blk-wbt.c) -------------------------------- */

struct wbt_io {
	struct bdev	*d;
	struct done_log	*log;
	int		tag;
	uint64_t	offset, len;
};

static void wbt_end(struct sim *sim, void *arg, int error)
{
	struct wbt_io *io = arg;

	bdev_wbt_done(sim, io->d, io->offset, io->len);
	io_end(sim, &(struct io_tag){ io->log, io->tag }, error);
}

/* A task that submits `n` buffered writes of class `cls` after `delay`,
 * each as wb_submit_write does: the throttle's token, then the bio. */
struct wbt_writer {
	struct bdev	*d;
	enum wbt_class	cls;
	int		n, first_tag;
	sim_time_t	delay, gap;	/* before the first write, between writes */
	uint64_t	offset, stride, len;	/* write i at offset + i * stride (0: i MiB), of len (0: 64 KiB) */
	struct done_log	*log;
	struct wbt_io	io[8];
	sim_time_t	submitted[8], waited[8];
};

static void wbt_writer_fn(struct sim *sim, void *p)
{
	struct wbt_writer *w = p;

	if (w->delay)
		sim_sleep(sim, w->delay);
	for (int i = 0; i < w->n; i++) {
		if (i && w->gap)
			sim_sleep(sim, w->gap);
		uint64_t off = w->offset + (uint64_t)i * (w->stride ? w->stride : MiB);
		uint64_t len = w->len ? w->len : 64 * KiB;

		w->waited[i] = bdev_wbt_throttle(sim, w->d, w->cls, off, len);
		w->submitted[i] = sim_now(sim);
		w->io[i] = (struct wbt_io){ w->d, w->log, w->first_tag + i, off, len };
		bdev_submit(sim, w->d, BIO_WRITE, off, len, wbt_end, &w->io[i]);
	}
}

static struct bdev *mkdev_wbt(struct sim *sim, sim_time_t lat, int write_cache, sim_time_t wbt_lat)
{
	struct bdev_config c = {
		.name = "vda", .lat_mean_ns = lat, .flush_ns = 200 * US, .members = 1,
		.write_cache = write_cache, .wbt_lat_ns = wbt_lat,
	};

	return bdev_create(sim, &c);
}

/* The throttle's step and depths, as a probe saw them. */
#define ASSERT_WBT(st, step, max, normal, background)		\
	do {							\
		ASSERT_EQ((st).scale_step, (step));		\
		ASSERT_EQ((st).max_depth, (max));		\
		ASSERT_EQ((st).wb_normal, (normal));		\
		ASSERT_EQ((st).wb_background, (background));	\
	} while (0)

struct wbt_probe {
	struct bdev		*d;
	sim_time_t		at;
	struct bdev_wbt_state	st;
	uint32_t		member;
};

static void wbt_probe_fn(struct sim *sim, void *p)
{
	struct wbt_probe *pr = p;

	sim_sleep(sim, pr->at);
	bdev_wbt_get_state(sim, pr->d, pr->member, &pr->st);
}

/*
 * A test of background writeback under wbt on a device with a volatile
 * write cache (128 requests: depth 16, normal 8, background 4): six
 * background writes of 100 us in a row.  Expect the first four at 0, the
 * fifth to wait until all four completed (a write-cache device wakes
 * waiters only at zero in flight: 100 us), the sixth right after it.  The
 * 100-ms window saw writes and no read, so the depth opens one step
 * (31: normal 16, background 8); five empty windows later it is back at
 * step 0, and the timer stops.
 */
TEST(bdev_wbt_background_waits_for_drain)
{
	struct sim *sim = st_sim_exact(2);
	struct bdev *d = mkdev_wbt(sim, 100 * US, BDEV_WRITE_BACK, 2 * MS);
	struct done_log log = { 0 };
	struct wbt_writer w = { .d = d, .cls = WBT_BACKGROUND, .n = 6, .log = &log };
	struct wbt_probe early = { .d = d, .at = 150 * MS }, start = { .d = d, .at = 0 };
	struct bdev_wbt_state end;

	st_task(sim, "probe0", 1, true, wbt_probe_fn, &start, 0);
	st_task(sim, "flusher", 0, true, wbt_writer_fn, &w, 0);
	st_task(sim, "probe", 1, true, wbt_probe_fn, &early, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_WBT(start.st, 0, 16, 8, 4);
	for (int i = 0; i < 4; i++) {
		ASSERT_U64_EQ(w.submitted[i], 0);
		ASSERT_U64_EQ(w.waited[i], 0);
	}
	ASSERT_U64_EQ(w.submitted[4], 100 * US);
	ASSERT_U64_EQ(w.waited[4], 100 * US);
	ASSERT_U64_EQ(w.submitted[5], 100 * US);
	ASSERT_U64_EQ(w.waited[5], 0);
	ASSERT_EQ(log.n, 6);
	ASSERT_U64_EQ(log.t[5], 200 * US);
	ASSERT_WBT(early.st, -1, 31, 16, 8);
	bdev_wbt_get_state(sim, d, 0, &end);
	ASSERT_WBT(end, 0, 16, 8, 4);
	ASSERT_EQ(end.inflight, 0);
	ASSERT_U64_EQ(sim_now(sim), 600 * MS);
	/* the sums debugfs-wbt prints: one window of writes, five empty;
	 * depth 16 for 100 ms and 31 for 500 ms; the fifth write queued */
	ASSERT_U64_EQ(end.lat_unknown_writes, 1);
	ASSERT_U64_EQ(end.lat_unknown, 5);
	ASSERT_U64_EQ(end.lat_ok + end.lat_exceeded, 0);
	ASSERT_U64_EQ(end.depth_ns, 16 * 100 * MS + 31 * 500 * MS);
	ASSERT_U64_EQ(end.scaled_max_ns, 0);
	ASSERT_U64_EQ(end.throttled, 1);
	ASSERT_U64_EQ(end.throttled_ns, 100 * US);
	sim_destroy(sim);
}

/*
 * A test of the sums behind debugfs-wbt when writes alone reach the
 * device, as in a run whose page cache holds every block it reads: one
 * write of 100 us every 100 ms from 0 to 700 ms, so each window up to
 * 800 ms ends with a write sample and no read (LAT_UNKNOWN_WRITES) and
 * opens the depth: 31 at 100 ms, 61 at 200 ms, 96 (3/4 of 128, the
 * largest) at 300 ms.  The five windows with no I/O after 800 ms
 * (LAT_UNKNOWN) step it back to 61 at 1 300 ms, 31 at 1 800 ms and 16
 * at 2 300 ms, where the timer stops.  Expect 8 + 15 windows, 1 000 ms
 * at the largest depth, the depth summed piece by piece, no waits.
 */
TEST(bdev_wbt_sums_writes_alone)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *d = mkdev_wbt(sim, 100 * US, BDEV_WRITE_THROUGH, 2 * MS);
	struct done_log log = { 0 };
	struct wbt_writer w = { .d = d, .cls = WBT_NORMAL, .n = 8, .gap = 100 * MS,
				.log = &log };
	struct bdev_wbt_state st;

	st_task(sim, "writer", 0, true, wbt_writer_fn, &w, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_EQ(log.n, 8);
	ASSERT_U64_EQ(sim_now(sim), 2300 * MS);
	bdev_wbt_get_state(sim, d, 0, &st);
	ASSERT_WBT(st, 0, 16, 8, 4);
	ASSERT_U64_EQ(st.lat_unknown_writes, 8);
	ASSERT_U64_EQ(st.lat_unknown, 15);
	ASSERT_U64_EQ(st.lat_ok + st.lat_exceeded, 0);
	ASSERT_U64_EQ(st.scaled_max_ns, 1000 * MS);
	ASSERT_U64_EQ(st.depth_ns, 16 * 100 * MS + 31 * 100 * MS + 61 * 100 * MS + 96 * 1000 * MS +
				   61 * 500 * MS + 31 * 500 * MS);
	ASSERT_U64_EQ(st.throttled + st.throttled_ns, 0);
	sim_destroy(sim);
}

/*
 * A test of the classes' limits and the FIFO on a write-through device
 * (no volatile cache: a completion wakes waiters once in flight falls
 * below normal, 8, by at least half the background limit): the flusher
 * submits five background writes of 100 us at 0, four go and the fifth
 * waits; at 10 us an fsync's write (WBT_SYNC, limit 16) must queue behind
 * it though its own limit is open.  Expect both at 100 us, the first
 * completion: the flusher's fifth takes the fourth background token, the
 * fsync's write the next.
 */
TEST(bdev_wbt_sync_queues_behind_background)
{
	struct sim *sim = st_sim_exact(2);
	struct bdev *d = mkdev_wbt(sim, 100 * US, BDEV_WRITE_THROUGH, 2 * MS);
	struct done_log log = { 0 };
	struct wbt_writer bg = { .d = d, .cls = WBT_BACKGROUND, .n = 5, .log = &log };
	struct wbt_writer fs = { .d = d, .cls = WBT_SYNC, .n = 1, .delay = 10 * US, .log = &log,
				 .first_tag = 10 };

	st_task(sim, "flusher", 0, true, wbt_writer_fn, &bg, 0);
	st_task(sim, "fsync", 1, true, wbt_writer_fn, &fs, 0);
	sim_run(sim, 50 * US);
	{
		struct bdev_wbt_state st;

		bdev_wbt_get_state(sim, d, 0, &st);
		ASSERT_EQ(st.inflight, 4);
		ASSERT_EQ(st.waiting, 2);
	}
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(bg.submitted[3], 0);
	ASSERT_U64_EQ(bg.submitted[4], 100 * US);
	ASSERT_U64_EQ(fs.submitted[0], 100 * US);
	ASSERT_U64_EQ(fs.waited[0], 90 * US);
	sim_destroy(sim);
}

/* A reader for the controller test: `n` reads of 4 KiB, one at a time. */
struct wbt_reader {
	struct bdev	*d;
	int		n;
};

static void wbt_reader_fn(struct sim *sim, void *p)
{
	struct wbt_reader *r = p;

	for (int i = 0; i < r->n; i++)
		bdev_io_wait(sim, r->d, BIO_READ, (uint64_t)i * MiB, 4 * KiB);
}

/*
 * A test of the controller stepping down: reads of 5 ms against a 2-ms
 * target, with a write every 20 ms, so every window has a read and at
 * least three writes.  Expect LAT_EXCEEDED when the first window ends
 * (100 ms): step 1, depth 1 + (15 >> 1) = 8, normal 4, background 2; the
 * next window shortened to 100 ms * 16 / int_sqrt(2 << 8) = 72.72 ms, so
 * step 1 still at 171 ms and step 2 (depth 4) at 175 ms.
 */
TEST(bdev_wbt_read_latency_scales_down)
{
	struct sim *sim = st_sim_exact(2);
	struct bdev *d = mkdev_wbt(sim, 5 * MS, BDEV_WRITE_BACK, 2 * MS);
	struct done_log log = { 0 };
	struct wbt_writer w = { .d = d, .cls = WBT_NORMAL, .n = 8, .gap = 20 * MS, .log = &log };
	struct wbt_reader r = { .d = d, .n = 40 };
	struct wbt_probe p1 = { .d = d, .at = 171 * MS }, p2 = { .d = d, .at = 175 * MS };

	st_task(sim, "writer", 0, true, wbt_writer_fn, &w, 0);
	st_task(sim, "reader", 1, true, wbt_reader_fn, &r, 0);
	st_task(sim, "probe", 1, true, wbt_probe_fn, &p1, 0);
	st_task(sim, "probe2", 1, true, wbt_probe_fn, &p2, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_WBT(p1.st, 1, 8, 4, 2);
	ASSERT_WBT(p2.st, 2, 4, 2, 1);
	ASSERT_EQ(log.n, 8);
	sim_destroy(sim);
}

/* A RAID0 of two members, 64-KiB chunks, a volatile write cache. */
static struct bdev *mkraid_wbt(struct sim *sim)
{
	struct bdev_config c = {
		.name = "md0", .lat_mean_ns = 100 * US, .flush_ns = 200 * US, .members = 2,
		.chunk_bytes = 64 * KiB, .write_cache = BDEV_WRITE_BACK, .wbt_lat_ns = 2 * MS,
	};

	return bdev_create(sim, &c);
}

/*
 * A test of one throttle per member (the kernel's per request queue, md
 * raid0 having none): on a 2-member RAID0 the flusher submits five
 * background writes of 100 us at 0, all on member 0 (even chunks); four
 * go, the fifth waits for member 0 to drain (100 us).  At 10 us a
 * background write on member 1 (chunk 1) must go at once: member 1 has
 * its own four tokens.  At 20 us a write spanning chunks 3 and 4 (members
 * 1 and 0) takes member 1's token, then queues on member 0 behind the
 * fifth write and goes with it at 100 us.  Expect both members' tokens
 * taken accordingly while the writes are in flight.
 */
TEST(bdev_wbt_one_throttle_per_member)
{
	struct sim *sim = st_sim_exact(3);
	struct bdev *d = mkraid_wbt(sim);
	struct done_log log = { 0 };
	struct wbt_writer m0 = { .d = d, .cls = WBT_BACKGROUND, .n = 5, .stride = 128 * KiB,
				 .log = &log };
	struct wbt_writer m1 = { .d = d, .cls = WBT_BACKGROUND, .n = 1, .delay = 10 * US,
				 .offset = 64 * KiB, .log = &log, .first_tag = 10 };
	struct wbt_writer both = { .d = d, .cls = WBT_BACKGROUND, .n = 1, .delay = 20 * US,
				   .offset = 192 * KiB, .len = 128 * KiB, .log = &log, .first_tag = 20 };
	struct wbt_probe p0 = { .d = d, .at = 50 * US, .member = 0 };
	struct wbt_probe p1 = { .d = d, .at = 50 * US, .member = 1 };

	st_task(sim, "flusher", 0, true, wbt_writer_fn, &m0, 0);
	st_task(sim, "other", 1, true, wbt_writer_fn, &m1, 0);
	st_task(sim, "span", 2, true, wbt_writer_fn, &both, 0);
	st_task(sim, "probe0", 1, true, wbt_probe_fn, &p0, 0);
	st_task(sim, "probe1", 2, true, wbt_probe_fn, &p1, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_WBT(p0.st, 0, 16, 8, 4);
	ASSERT_EQ(p0.st.inflight, 4);
	ASSERT_EQ(p0.st.waiting, 2);
	ASSERT_EQ(p1.st.inflight, 2);
	ASSERT_EQ(p1.st.waiting, 0);
	ASSERT_U64_EQ(m0.submitted[3], 0);
	ASSERT_U64_EQ(m0.submitted[4], 100 * US);
	ASSERT_U64_EQ(m1.submitted[0], 10 * US);
	ASSERT_U64_EQ(m1.waited[0], 0);
	ASSERT_U64_EQ(both.submitted[0], 100 * US);
	ASSERT_U64_EQ(both.waited[0], 80 * US);
	ASSERT_EQ(log.n, 7);
	for (uint32_t i = 0; i < 2; i++) {
		struct bdev_wbt_state st;

		bdev_wbt_get_state(sim, d, i, &st);
		ASSERT_EQ(st.inflight, 0);
	}
	sim_destroy(sim);
}

/* A task that sets the device's bdi->last_bdp_sleep at `at`. */
struct wbt_bdp {
	struct bdev	*d;
	sim_time_t	at;
};

static void wbt_bdp_fn(struct sim *sim, void *p)
{
	struct wbt_bdp *b = p;

	sim_sleep(sim, b->at);
	bdev_wbt_bdp_sleep(sim, b->d);
}

/*
 * A test of balance_dirty_pages' mark (bdi->last_bdp_sleep): it opens a
 * plain device's throttle to the whole depth for a second, but a RAID0
 * member's throttle reads its own disk's bdi, which the writers never
 * dirty through.  Both devices get the mark at 0 and then five
 * background writes at 1 us: on the plain device all five go at once
 * (limit 16), on the RAID0 member 0 the fifth waits for the drain.
 */
TEST(bdev_wbt_bdp_mark_reaches_plain_devices_only)
{
	struct sim *sim = st_sim_exact(2);
	struct bdev *plain = mkdev_wbt(sim, 100 * US, BDEV_WRITE_BACK, 2 * MS);
	struct bdev *raid = mkraid_wbt(sim);
	struct done_log lp = { 0 }, lr = { 0 };
	struct wbt_bdp bp = { plain, 0 }, br = { raid, 0 };
	struct wbt_writer wp = { .d = plain, .cls = WBT_BACKGROUND, .n = 5, .delay = US, .log = &lp };
	struct wbt_writer wr = { .d = raid, .cls = WBT_BACKGROUND, .n = 5, .delay = US,
				 .stride = 128 * KiB, .log = &lr };

	st_task(sim, "bdp-plain", 0, true, wbt_bdp_fn, &bp, 0);
	st_task(sim, "bdp-raid", 1, true, wbt_bdp_fn, &br, 0);
	st_task(sim, "plain", 0, true, wbt_writer_fn, &wp, 0);
	st_task(sim, "raid", 1, true, wbt_writer_fn, &wr, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(wp.submitted[4], US);
	ASSERT_U64_EQ(wp.waited[4], 0);
	ASSERT_U64_EQ(wr.submitted[3], US);
	ASSERT_U64_EQ(wr.submitted[4], 101 * US);
	ASSERT_U64_EQ(wr.waited[4], 100 * US);
	sim_destroy(sim);
}

/*
 * A test of a write that waits on two members in turn, with the default
 * costs (a context switch and a wake-up charged): member 1 is full from
 * 0 (four writes of 100 us and a fifth queued), member 0 from 50 us.  At
 * 10 us a write spanning chunks 1 and 2 (member 1, then member 0) queues
 * on member 1, gets its token when member 1 drains (about 100 us), then
 * queues on member 0 behind its fifth write and gets the token when
 * member 0 drains (about 150 us).  Expect it submitted after 150 us and
 * before member 0's next drain at 250 us, having waited at least 140 us.
 */
TEST(bdev_wbt_waits_on_each_member_in_turn)
{
	struct sim *sim = sim_create(&(struct sim_config){ .ncpus = 3, .seed = 1 });
	struct bdev *d = mkraid_wbt(sim);
	struct done_log log = { 0 };
	struct wbt_writer m1 = { .d = d, .cls = WBT_BACKGROUND, .n = 5, .offset = 64 * KiB,
				 .stride = 128 * KiB, .log = &log };
	struct wbt_writer m0 = { .d = d, .cls = WBT_BACKGROUND, .n = 5, .delay = 50 * US,
				 .stride = 128 * KiB, .log = &log, .first_tag = 10 };
	struct wbt_writer both = { .d = d, .cls = WBT_BACKGROUND, .n = 1, .delay = 10 * US,
				   .offset = 64 * KiB, .len = 128 * KiB, .log = &log, .first_tag = 20 };

	st_task(sim, "m1", 0, true, wbt_writer_fn, &m1, 0);
	st_task(sim, "m0", 1, true, wbt_writer_fn, &m0, 0);
	st_task(sim, "span", 2, true, wbt_writer_fn, &both, 0);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_TRUE(both.submitted[0] > 150 * US);
	ASSERT_TRUE(both.submitted[0] < 250 * US);
	ASSERT_TRUE(both.waited[0] >= 140 * US);
	ASSERT_EQ(log.n, 11);
	sim_destroy(sim);
}

/* diskstats read at a time of the run: every disk of a device. */
struct ds_probe {
	struct bdev		*d;
	struct bdev_diskstats	st[3];
};

static void ds_probe_fn(struct sim *sim, void *arg)
{
	struct ds_probe *p = arg;

	for (uint32_t k = 0; k < bdev_nr_disks(p->d); k++)
		bdev_get_diskstats(sim, p->d, k, &p->st[k]);
}

/* A test of /proc/diskstats' accounting (block/genhd.c, 6.12) on a RAID0
 * of two (64 KiB chunks, 1000 IOPS and a constant 100 us per member): at 0
 * a 128 KiB write over both members, a 4 KiB write to member 1 and a 4 KiB
 * read from member 0; the IOPS cap starts the small ones at 1 ms.  Read at
 * 500 us: md0 has its big write done (256 sectors, 100 us) and two bios
 * in flight, 500 us of io_ticks; each member one 64 KiB write done (128
 * sectors) and one request in flight.  Read at 5 ms: md0 1 read (8
 * sectors, 1.1 ms) and 2 writes (264 sectors, 1.2 ms), none in flight,
 * 1.1 ms of io_ticks; member 0 the read and its piece, busy 1.1 ms (the
 * union of [0, 100 us) and [0, 1.1 ms)).  Flushes (write-back cache, 200
 * us) are counted on the members only. */
TEST(bdev_diskstats_complete_when_done)
{
	struct sim *sim = st_sim_exact(1);
	struct bdev *d = mkdev(sim, "md0", 1000, 0, 100 * US, 2, 64 * KiB);
	struct ds_probe early = { .d = d }, late = { .d = d }, fl = { .d = NULL };
	struct bdev *c;

	ASSERT_EQ(bdev_nr_disks(d), 3);
	bdev_submit(sim, d, BIO_WRITE, 0, 128 * KiB, NULL, NULL);
	bdev_submit(sim, d, BIO_WRITE, 64 * KiB, 4 * KiB, NULL, NULL);
	bdev_submit(sim, d, BIO_READ, 0, 4 * KiB, NULL, NULL);
	sim_call_at(sim, 500 * US, ds_probe_fn, &early);
	sim_call_at(sim, 5 * MS, ds_probe_fn, &late);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(early.st[0].ios[DISK_STAT_WRITE], 1);
	ASSERT_U64_EQ(early.st[0].sectors[DISK_STAT_WRITE], 256);
	ASSERT_U64_EQ(early.st[0].nsecs[DISK_STAT_WRITE], 100 * US);
	ASSERT_U64_EQ(early.st[0].ios[DISK_STAT_READ], 0);
	ASSERT_EQ(early.st[0].in_flight, 2);
	ASSERT_U64_EQ(early.st[0].io_ticks_ns, 500 * US);
	for (int k = 1; k <= 2; k++) {
		ASSERT_U64_EQ(early.st[k].ios[DISK_STAT_WRITE], 1);
		ASSERT_U64_EQ(early.st[k].sectors[DISK_STAT_WRITE], 128);
		ASSERT_EQ(early.st[k].in_flight, 1);
		ASSERT_U64_EQ(early.st[k].io_ticks_ns, 500 * US);
	}
	ASSERT_U64_EQ(late.st[0].ios[DISK_STAT_READ], 1);
	ASSERT_U64_EQ(late.st[0].sectors[DISK_STAT_READ], 8);
	ASSERT_U64_EQ(late.st[0].nsecs[DISK_STAT_READ], 1100 * US);
	ASSERT_U64_EQ(late.st[0].ios[DISK_STAT_WRITE], 2);
	ASSERT_U64_EQ(late.st[0].sectors[DISK_STAT_WRITE], 264);
	ASSERT_U64_EQ(late.st[0].nsecs[DISK_STAT_WRITE], 1200 * US);
	ASSERT_EQ(late.st[0].in_flight, 0);
	ASSERT_U64_EQ(late.st[0].io_ticks_ns, 1100 * US);
	ASSERT_U64_EQ(late.st[1].ios[DISK_STAT_READ], 1);
	ASSERT_U64_EQ(late.st[1].nsecs[DISK_STAT_READ], 1100 * US);
	ASSERT_U64_EQ(late.st[1].ios[DISK_STAT_WRITE], 1);
	ASSERT_U64_EQ(late.st[1].io_ticks_ns, 1100 * US);
	ASSERT_U64_EQ(late.st[2].ios[DISK_STAT_WRITE], 2);
	ASSERT_U64_EQ(late.st[2].sectors[DISK_STAT_WRITE], 136);
	ASSERT_U64_EQ(late.st[0].ios[DISK_STAT_FLUSH], 0);

	c = mkdev(sim, "wb", 0, 0, 100 * US, 2, 64 * KiB);
	fl.d = c;
	bdev_submit(sim, c, BIO_FLUSH, 0, 0, NULL, NULL);
	sim_call_at(sim, 10 * MS, ds_probe_fn, &fl);
	sim_run(sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(fl.st[0].ios[DISK_STAT_FLUSH], 0);
	ASSERT_U64_EQ(fl.st[1].ios[DISK_STAT_FLUSH], 1);
	ASSERT_U64_EQ(fl.st[1].nsecs[DISK_STAT_FLUSH], 200 * US);
	ASSERT_U64_EQ(fl.st[2].ios[DISK_STAT_FLUSH], 1);
	sim_destroy(sim);
}
