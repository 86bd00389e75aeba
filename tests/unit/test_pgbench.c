/* SPDX-License-Identifier: MIT */
/*
 * test_pgbench.c — the PostgreSQL + pgbench model (src/workload/pg_*.c,
 * pgbench.c): table shapes, the transaction's buffer accesses and WAL,
 * the clock sweep, group commit, checkpoint pacing and sorting, full-page
 * images after a REDO point, page tables from the processes' own faults,
 * WAL segment switches, zero-fill and recycling.
 *
 * Each test builds a small machine (512 MiB, 4 CPUs), one device and a
 * database of scale 2 (200 000 accounts, 3637 heap pages) with pg_setup()
 * — no tasks — and drives the model from its own test tasks, so the
 * numbers are exact where the mechanism makes them exact.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mm_test.h"
#include "mm/memory.h"
#include "mm/vmstat.h"
#include "report/result.h"
#include "sim/bdev.h"
#include "workload/pg_internal.h"
#include "workload/pgbench.h"

#define MS	SIM_NSEC_PER_MSEC
#define SEC	SIM_NSEC_PER_SEC

struct pgt {
	struct mm_env		e;
	struct bdev		*bdev;
	const char		*bdev_name;
	struct wl_env		env;
	struct pg_config	cfg;
	struct wl_stats		stats;
	struct pg		*pg;
	/* what the hooks saw */
	uint32_t		*writes;	/* blocks written, in order */
	sim_time_t		*write_t;
	uint32_t		nr_writes, cap_writes;
	uint64_t		wal_bad_runs, wal_runs;
	uint8_t			*regions;	/* [backend][region] touched */
	unsigned long		nr_regions;
};

static const char *const machine_kv[] = {
	"memory=512m", "zones=DMA:128m,Normal:rest", "cpus=4", NULL
};

/* Build the machine, a 100 us device "d0" and the database; `kv` are
 * [pgbench] keys over the test defaults below. */
static int pgt_create(struct pgt *t, const char *const *mkv, const char *const *kv)
{
	static const char *const defaults[] = {
		"device", "d0", "clients", "1", "scale", "2", "shared_buffers", "4m",
		"wal_buffers", "256k", "wal_segment_size", "1m", "min_wal_size", "2m",
		"max_wal_size", "64m", "wal_recycled", "0", "backend_memory", "64k",
		"checkpoint_timeout", "30s", NULL
	};
	struct bdev_config dev = { .name = "d0", .lat_mean_ns = 100000, .members = 1,
				   .size_bytes = 1ULL << 40 };
	char err[256];

	memset(t, 0, sizeof(*t));
	if (!mm_env_create(&t->e, mkv ? mkv : machine_kv))
		return -1;
	mm_set_check_interval(t->e.m, 0);
	machine_start(t->e.m);		/* kernel threads; the hugetlb pool */
	t->bdev = bdev_create(t->e.sim, &dev);
	t->bdev_name = "d0";
	t->env = (struct wl_env){ t->e.m, t->e.sim, &t->bdev, &t->bdev_name, 1, NULL };
	if (opt_apply_defaults(pgbench_workload.options, &t->cfg))
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (const char *const *p = pass ? kv : defaults; p && p[0]; p += 2)
			if (opt_parse_value(opt_find(pgbench_workload.options, p[0]), &t->cfg, p[1], err,
					    sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				return -1;
			}
	if (pgbench_workload.validate(&t->cfg, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	wl_stats_init(&t->stats, 0, SEC);
	t->pg = pg_setup(&t->env, &t->cfg, &t->stats, err, sizeof(err));
	if (!t->pg) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	t->pg->hook_ctx = t;
	return 0;
}

static void pgt_destroy(struct pgt *t)
{
	mm_env_destroy(&t->e);
	pg_free(t->pg);
	wl_stats_release(&t->stats);
	opt_release(pgbench_workload.options, &t->cfg);
	free(t->writes);
	free(t->write_t);
	free(t->regions);
}

static void pgt_task(struct pgt *t, const char *name, sim_task_fn fn, void *arg, sim_time_t start)
{
	struct sim_task_config cfg = { .name = name, .kind = sim_task_kind(t->e.sim, "test"),
				       .cpu = SIM_CPU_ANY };

	sim_task_create(t->e.sim, &cfg, fn, arg, start);
}

static void record_write(struct pg_proc *p, uint32_t blk)
{
	struct pgt *t = p->pg->hook_ctx;

	if (t->nr_writes == t->cap_writes) {
		t->cap_writes = t->cap_writes ? t->cap_writes * 2 : 1024;
		t->writes = realloc(t->writes, t->cap_writes * sizeof(*t->writes));
		t->write_t = realloc(t->write_t, t->cap_writes * sizeof(*t->write_t));
	}
	t->writes[t->nr_writes] = blk;
	t->write_t[t->nr_writes++] = sim_now(p->pg->sim);
}

static void add_counter(void *ctx, const char *name, int64_t value)
{
	rpt_counters_add(ctx, name, value);
}

static int64_t vmstat_of(struct machine *m, const char *name)
{
	struct rpt_counters c = { 0 };
	bool found;
	int64_t v;

	mm_vmstat_snapshot(m, add_counter, &c);
	v = rpt_counters_get(&c, name, &found);
	rpt_counters_release(&c);
	return found ? v : -1;
}

/* ---- shapes ------------------------------------------------------------------------ */

/* A test of the table and index shapes at the reference scale
 * (fillfactor): fillfactor 90 gives 55 rows per heap page (61 at
 * 100), 847 M rows make 15.4 M heap pages; the pkey has 366 entries per
 * leaf, a fanout of 285 and four levels (root, 2 inner, leaf); an FPI of
 * a leaf is the page minus its hole plus the 5-byte image header.  Expect
 * exactly those numbers. */
TEST(shapes_at_scale_8470)
{
	struct pg pg;

	memset(&pg, 0, sizeof(pg));
	pg.cfg.scale = 8470;
	pg.cfg.fillfactor = 90;
	pg_shapes(&pg);
	ASSERT_EQ(pg.rows_per_page, 55);
	ASSERT_U64_EQ(pg.naccounts, 847000000);
	ASSERT_U64_EQ((pg.naccounts + 54) / 55, 15400000);
	ASSERT_EQ(pg.leaf_tuples, 366);
	ASSERT_EQ(pg.fanout, 285);
	ASSERT_EQ(pg.nlevels, 4);
	ASSERT_EQ(pg.level_pages[0], 2314208);
	ASSERT_EQ(pg.level_pages[1], 8121);
	ASSERT_EQ(pg.level_pages[2], 29);
	ASSERT_EQ(pg.level_pages[3], 1);
	/* a leaf's image: 24 header + 366 x 20 + 16 special + 5 */
	ASSERT_EQ(pg.leaf_fpi_bytes, 24 + 366 * 20 + 16 + 5);
	pg.cfg.fillfactor = 100;
	pg_shapes(&pg);
	ASSERT_EQ(pg.rows_per_page, 61);
}

/* ---- the transaction --------------------------------------------------------------- */

struct txrun {
	struct pgt	*t;
	unsigned int	n;
	int		proc;
};

/* Test tasks end the run with sim_stop(): the kernel threads (flusher,
 * vmstat workers) would keep it going forever. */
static void tx_loop(struct sim *sim, void *arg)
{
	struct txrun *r = arg;

	for (unsigned int i = 0; i < r->n; i++)
		pg_transaction(&r->t->pg->backends[r->proc]);
	sim_stop(sim);
}

/* A test of the simple-update mix: one backend runs 3000 transactions
 * back to back with full_page_writes off.  At scale 2 the pkey has 3
 * levels, so a transaction makes 9 buffer accesses (UPDATE: 3 pkey pages
 * + the heap page; SELECT the same; INSERT the history page; 11 with the
 * 4 levels of scale 8470), except that a history page the backend got by
 * extending the relation comes pinned from the extension (one access
 * less); 3 WAL records per transaction of 72 + 79 + 34 bytes, 8-aligned:
 * exactly 192 bytes, plus a 58-byte prune record (64 aligned) before
 * each update of a page an earlier transaction updated; no full-page
 * image; one heap update each, all HOT at fillfactor 90. */
TEST(transaction_mix)
{
	static const char *const kv[] = { "full_page_writes", "off", NULL };
	struct pgt t;
	struct txrun r = { &t, 3000, 0 };
	const struct pg_proc_stats *st;
	uint64_t per_tx_levels;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	per_tx_levels = t.pg->nlevels;
	ASSERT_EQ(per_tx_levels, 3);		/* 547 leaves at scale 2: leaf, inner, root */
	pgt_task(&t, "tx", tx_loop, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	st = &t.pg->backends[0].st;
	ASSERT_U64_EQ(st->buffer_hits + st->buffer_misses,
		      (2 * (per_tx_levels + 1) + 1) * r.n - t.pg->tail[PG_REL_HISTORY].extends);
	/* 3000 updates over 3637 pages: about 1 100 land on a page updated before */
	ASSERT_TRUE(t.pg->heap_prunes > 800 && t.pg->heap_prunes < 1500);
	ASSERT_U64_EQ(t.pg->xlog.records, 3 * r.n + t.pg->heap_prunes);
	ASSERT_U64_EQ(t.pg->xlog.bytes, 192 * (uint64_t)r.n + 64 * t.pg->heap_prunes);
	ASSERT_U64_EQ(t.pg->xlog.fpi, 0);
	ASSERT_U64_EQ(t.pg->heap_accesses, r.n);
	ASSERT_U64_EQ(t.pg->hot_updates, r.n);
	ASSERT_U64_EQ(t.pg->nonhot_updates, 0);
	ASSERT_EQ(t.pg->heap_blocks_max, 3637);	/* no room reserved: nothing can move */
	/* history: 157 rows a page */
	ASSERT_U64_EQ(t.pg->rel[PG_REL_HISTORY].nblocks >= (r.n + 156) / 157, 1);
	ASSERT_TRUE(t.pg->xlog.flush >= t.pg->xlog.insert);	/* every commit flushed */
	ASSERT_MM_OK(t.e.m);
	pgt_destroy(&t);
}

/* A test of where an UPDATE's new version goes at fillfactor 100, where a
 * loaded page has 24 + 61 x 132 = 8 076 bytes used and 116 free, one
 * backend after the other, full_page_writes off:
 * - backend 0 updates row 0: the 132 bytes do not fit, so the old
 *   version is locked (54 bytes, 56 aligned), the relation grows by one
 *   block (the first after the 3 279 loaded ones), the version goes there
 *   (171 -> 176) and the pkey leaf gets an entry (64): 3 records, 296
 *   bytes; page 0 keeps 116 free and one dead version; row 0 now lives on
 *   block 3279, which has 8 168 - 132 free; its own SELECT of page 0 does
 *   not prune (the version is its own, uncommitted);
 * - after its commit, backend 1 fetches page 0 for row 1: it prunes (58 ->
 *   64 bytes; the dead tuple's 128 bytes come back: 244 free), and the
 *   update fits: HOT (72), 112 free, one HOT version pending;
 * - backend 0 fetches page 0 again: prunes, 244 free. */
static void heap_steps(struct sim *sim, void *arg)
{
	struct pgt *t = arg;
	struct pg *pg = t->pg;
	struct pg_proc *b0 = &pg->backends[0], *b1 = &pg->backends[1];
	uint32_t loaded = pg->rel[PG_REL_ACCOUNTS].nblocks, buf;
	uint64_t rec = pg->xlog.records, bytes = pg->xlog.bytes;

	ASSERT_EQ(loaded, 3279);
	ASSERT_EQ(pg->heap_page[0].free, 116);
	buf = pg_read_buffer(b0, 0, true);
	pg_heap_page_prune_opt(b0, 0, buf);
	pg_heap_update(b0, 0, 0, buf);
	pg_release_buffer(b0, buf);
	ASSERT_U64_EQ(pg->xlog.records - rec, 3);
	ASSERT_U64_EQ(pg->xlog.bytes - bytes, 56 + 176 + 64);
	ASSERT_U64_EQ(pg->nonhot_updates, 1);
	ASSERT_EQ(pg->rel[PG_REL_ACCOUNTS].nblocks, loaded + 1);
	ASSERT_EQ(pg_heap_block(pg, 0), loaded);
	ASSERT_EQ(pg_heap_block(pg, 1), 0);
	ASSERT_EQ(pg->heap_page[0].free, 116);
	ASSERT_EQ(pg->heap_page[0].pend_dead, 1);
	ASSERT_EQ(pg->heap_page[loaded].free, 8168 - 132);
	buf = pg_read_buffer(b0, 0, false);
	pg_heap_page_prune_opt(b0, 0, buf);		/* its own version: kept */
	pg_release_buffer(b0, buf);
	ASSERT_U64_EQ(pg->heap_prunes, 0);
	b0->upd_blk = PG_NONE;				/* commit */

	rec = pg->xlog.records;
	bytes = pg->xlog.bytes;
	buf = pg_read_buffer(b1, 0, true);
	pg_heap_page_prune_opt(b1, 0, buf);
	ASSERT_U64_EQ(pg->heap_prunes, 1);
	ASSERT_EQ(pg->heap_page[0].free, 244);
	pg_heap_update(b1, 1, 0, buf);
	pg_release_buffer(b1, buf);
	ASSERT_U64_EQ(pg->xlog.records - rec, 2);
	ASSERT_U64_EQ(pg->xlog.bytes - bytes, 64 + 72);
	ASSERT_U64_EQ(pg->hot_updates, 1);
	ASSERT_EQ(pg->heap_page[0].free, 112);
	ASSERT_EQ(pg->heap_page[0].pend_hot, 1);
	ASSERT_EQ(pg->heap_page[0].pend_dead, 0);
	b1->upd_blk = PG_NONE;

	buf = pg_read_buffer(b0, 0, false);
	pg_heap_page_prune_opt(b0, 0, buf);
	pg_release_buffer(b0, buf);
	ASSERT_U64_EQ(pg->heap_prunes, 2);
	ASSERT_EQ(pg->heap_page[0].free, 244);
	ASSERT_EQ(pg->heap_page[0].pend_hot, 0);
	sim_stop(sim);
}

TEST(accounts_update_hot_or_moved)
{
	static const char *const kv[] = { "full_page_writes", "off", "fillfactor", "100", "clients", "2",
					  NULL };
	struct pgt t;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	/* room: 2 x 3279 / 60 + 64 x (2 + 4) + 1024 blocks */
	ASSERT_EQ(t.pg->heap_blocks_max, 3279 + 109 + 384 + 1024);
	pgt_task(&t, "steps", heap_steps, &t, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_MM_OK(t.e.m);
	pgt_destroy(&t);
}

/* ---- the clock sweep ------------------------------------------------------------------ */

/* A test of StrategyGetBuffer on a 16-buffer pool: fresh buffers come off
 * the freelist in order 0, 1, 2; once it is empty the clock hand visits
 * buffers in order, decrementing the usage count of unpinned ones and
 * skipping pinned ones, and returns the first unpinned buffer at usage 0.
 * With usage counts 3, 0 (pinned), 2, 0 from buffer 0 and 1 elsewhere,
 * expect buffer 3, usage counts 2, 0, 1 left behind and the hand at 4.
 * With 3 pinned by its new owner, a second call takes buffers 4..15 to 0,
 * wraps (0: 2 -> 1, 2: 1 -> 0) and returns buffer 4 on the second lap:
 * the hand has moved 17 more places, to 21. */
TEST(clock_sweep)
{
	static const char *const kv[] = { "shared_buffers", "128k", NULL };
	struct pgt t;
	struct pg_bufpool *bp;
	struct pg_proc *p;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	bp = &t.pg->bp;
	p = &t.pg->backends[0];
	ASSERT_EQ(bp->nbuffers, 16);
	ASSERT_EQ(pg_strategy_get_buffer(p), 0);
	ASSERT_EQ(pg_strategy_get_buffer(p), 1);
	ASSERT_EQ(pg_strategy_get_buffer(p), 2);
	bp->free_next = bp->nbuffers;		/* freelist used up */
	bp->next_victim = 0;
	for (uint32_t b = 0; b < 16; b++)
		bp->desc[b].state = BM_VALID | 1;
	bp->desc[0].state = BM_VALID | 3;
	bp->desc[1].state = BM_VALID | 0;
	bp->desc[1].refcount = 1;
	bp->desc[2].state = BM_VALID | 2;
	bp->desc[3].state = BM_VALID | 0;
	ASSERT_EQ(pg_strategy_get_buffer(p), 3);
	ASSERT_EQ(bp->desc[0].state & PG_BUF_USAGE_MASK, 2);
	ASSERT_EQ(bp->desc[1].state & PG_BUF_USAGE_MASK, 0);
	ASSERT_EQ(bp->desc[2].state & PG_BUF_USAGE_MASK, 1);
	ASSERT_U64_EQ(bp->next_victim, 4);
	bp->desc[3].refcount = 1;
	ASSERT_EQ(pg_strategy_get_buffer(p), 4);
	ASSERT_U64_EQ(bp->next_victim, 21);
	ASSERT_EQ(bp->desc[0].state & PG_BUF_USAGE_MASK, 1);
	ASSERT_EQ(bp->desc[2].state & PG_BUF_USAGE_MASK, 0);
	pgt_destroy(&t);
}

/* A test of eviction: a pool of 16 buffers filled with dirty pages, then
 * a read of 16 other pages.  Expect every victim written once by the
 * backend (FlushBuffer) before reuse — 16 writes of the first 16 blocks —
 * and every new page then valid and clean in its buffer. */
TEST(clock_sweep_evicts_dirty_victims)
{
	static const char *const kv[] = { "shared_buffers", "128k", NULL };
	struct pgt t;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	t.pg->on_write = record_write;
	for (uint32_t b = 0; b < 16; b++) {
		uint32_t buf = pg_read_buffer(&t.pg->backends[0], b, true);

		pg_mark_dirty(t.pg, buf, t.pg->xlog.insert);
		pg_release_buffer(&t.pg->backends[0], buf);
	}
	ASSERT_EQ(t.nr_writes, 0);
	for (uint32_t b = 100; b < 116; b++)
		pg_release_buffer(&t.pg->backends[0], pg_read_buffer(&t.pg->backends[0], b, false));
	ASSERT_EQ(t.nr_writes, 16);
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t buf = t.pg->bp.blk_buf[100 + i];

		ASSERT_TRUE(t.writes[i] < 16);
		ASSERT_TRUE(buf != PG_NONE);
		ASSERT_TRUE((t.pg->bp.desc[buf].state & (BM_VALID | BM_DIRTY)) == BM_VALID);
	}
	pgt_destroy(&t);
}

/* ---- group commit ----------------------------------------------------------------------- */

struct committer {
	struct pgt	*t;
	int		id;
	uint64_t	lsn;
	sim_time_t	done;
	int		*live;
};

static void commit_fn(struct sim *sim, void *arg)
{
	struct committer *c = arg;
	struct pg_proc *p = &c->t->pg->backends[c->id];

	c->lsn = pg_xlog_insert(p, 34);
	pg_xlog_flush(p, c->lsn);
	c->done = sim_now(sim);
	if (--*c->live == 0)
		sim_stop(sim);
}

/* A test of group commit: 32 backends (tasks on 4 CPUs) insert a commit
 * record each at time 0 and call XLogFlush.  The first to get
 * WALWriteLock writes and fdatasyncs up to the insert position, covering
 * every record inserted so far; the others sleep until it releases (they
 * do not take the lock in turn) and find their record flushed, or one of
 * them leads the next flush for the rest.  Expect at most 2 flushes
 * (each one pwrite and one fdatasync) for the 32 commits, all flushed
 * within three device round trips.  Then 32 commits arrive one every
 * 10 us over 320 us with 100 us flushes: expect 2 to 6 more flushes, far
 * fewer than 32. */
TEST(group_commit_batches)
{
	static const char *const kv[] = { "clients", "64", "shared_buffers", "4m", NULL };
	struct pgt t;
	struct committer c[64];
	const struct pg_xlog *x;
	uint64_t first;
	int live = 32;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	x = &t.pg->xlog;
	for (int i = 0; i < 32; i++) {
		c[i] = (struct committer){ &t, i, 0, 0, &live };
		pgt_task(&t, "commit", commit_fn, &c[i], 0);
	}
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_TRUE(x->leader_flushes >= 1 && x->leader_flushes <= 2);
	ASSERT_U64_EQ(x->writes, x->leader_flushes);
	ASSERT_U64_EQ(x->fsyncs, x->leader_flushes);
	for (int i = 0; i < 32; i++) {
		ASSERT_TRUE(x->flush >= c[i].lsn);
		ASSERT_TRUE(c[i].done < 3 * 100 * SIM_NSEC_PER_USEC);
	}
	first = x->leader_flushes;
	/* a second wave, one every 10 us, while flushes are in flight */
	live = 32;
	for (int i = 32; i < 64; i++) {
		c[i] = (struct committer){ &t, i, 0, 0, &live };
		pgt_task(&t, "commit", commit_fn, &c[i], sim_now(t.e.sim) + (sim_time_t)(i - 32) * 10000);
	}
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_TRUE(x->leader_flushes - first >= 2 && x->leader_flushes - first <= 6);
	for (int i = 32; i < 64; i++)
		ASSERT_TRUE(x->flush >= c[i].lsn);
	pgt_destroy(&t);
}

/* ---- checkpoints ------------------------------------------------------------------------ */

struct ckptrun {
	struct pgt	*t;
	unsigned int	dirty;
};

static void ckpt_fn(struct sim *sim, void *arg)
{
	struct ckptrun *r = arg;
	struct pg *pg = r->t->pg;
	struct sim_rng rng;
	unsigned int n = 0;

	rng_init(&rng, 7, 1);
	/* dirty `dirty` distinct random heap pages through backend 0 */
	while (n < r->dirty) {
		uint32_t blk = (uint32_t)rng_below(&rng, pg->rel[PG_REL_PKEY].first);
		uint32_t buf;

		if (pg->bp.blk_buf[blk] != PG_NONE)
			continue;
		buf = pg_read_buffer(&pg->backends[0], blk, true);
		pg_mark_dirty(pg, buf, pg->xlog.insert);
		pg_release_buffer(&pg->backends[0], buf);
		n++;
	}
	pg->ckpt.last_start = sim_now(sim);
	pg_create_checkpoint(&pg->checkpointer);
	sim_stop(sim);
}

/* A test of checkpoint pacing and sorting: 1000 random heap pages dirty,
 * checkpoint_timeout 30 s, completion target 0.9.  Expect all 1000
 * written once, in increasing block order (sorted by relation and block),
 * the writes spread over 0.9 x 30 s = 27 s (the median write near
 * 13.5 s, the last between 26 and 27.5 s), a sync_file_range batch every
 * checkpoint_flush_after = 32 blocks (at least 1000/32 calls, at most one
 * per block), and one fsync for the one heap segment file touched. */
TEST(checkpoint_pacing_and_sorting)
{
	static const char *const kv[] = { "shared_buffers", "16m", NULL };
	struct pgt t;
	struct ckptrun r = { &t, 1000 };
	sim_time_t start;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	t.pg->on_write = record_write;
	pgt_task(&t, "ckpt", ckpt_fn, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	start = t.pg->ckpt.t_start[0];
	ASSERT_EQ(t.pg->ckpt.nr, 1);
	ASSERT_EQ(t.nr_writes, 1000);
	ASSERT_U64_EQ(t.pg->ckpt.buffers_written[0], 1000);
	for (uint32_t i = 1; i < t.nr_writes; i++)
		ASSERT_TRUE(t.writes[i] > t.writes[i - 1]);
	ASSERT_NEAR((double)(t.write_t[499] - start) / SEC, 13.5, 1.0);
	ASSERT_TRUE(t.write_t[999] - start >= 26 * SEC && t.write_t[999] - start <= 27 * SEC + SEC / 2);
	ASSERT_TRUE(t.pg->checkpointer.st.writeback_calls >= 1000 / 32);
	ASSERT_TRUE(t.pg->checkpointer.st.writeback_calls <= 1000);
	ASSERT_U64_EQ(t.pg->ckpt.files_synced, 1);
	pgt_destroy(&t);
}

static void nothing(struct sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
}

/* A test of IsCheckpointOnSchedule: 30 s timeout, target 0.9.  At 10 s
 * with 40 % written (0.36 of the target) the checkpoint is ahead of the
 * clock's 0.33: on schedule (nap); with 30 % (0.27) it is behind.
 * Expect true, then false. */
TEST(checkpoint_schedule)
{
	struct pgt t;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	t.pg->ckpt.last_start = 0;
	t.pg->ckpt.cached_elapsed = 0;
	t.pg->ckpt.start_lsn = t.pg->xlog.rqst_write;
	sim_call_at(t.e.sim, 10 * SEC, nothing, NULL);
	sim_run(t.e.sim, 10 * SEC);
	ASSERT_U64_EQ(sim_now(t.e.sim), 10 * SEC);
	ASSERT_TRUE(pg_checkpoint_on_schedule(t.pg, 0.40));
	ASSERT_FALSE(pg_checkpoint_on_schedule(t.pg, 0.30));
	pgt_destroy(&t);
}

/* A test of checkpoints.csv as log_checkpoints would give it: one
 * checkpoint done (started at 300 s, writes until 570 s, syncs until
 * 575 s, 1234 buffers) and one running since 600 s.  Expect the first
 * row's start, write, sync and total time and buffers, the second's start
 * and four empty (NaN) cells. */
TEST(checkpoint_table)
{
	struct pgt t;
	struct wl_report r = { 0 };
	const struct wl_table *c = NULL;
	struct pg_ckpt *k;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	k = &t.pg->ckpt;
	k->cap = 4;
	k->t_start = calloc(4, sizeof(*k->t_start));
	k->t_write_end = calloc(4, sizeof(*k->t_write_end));
	k->t_end = calloc(4, sizeof(*k->t_end));
	k->buffers_written = calloc(4, sizeof(*k->buffers_written));
	ASSERT_TRUE(k->t_start && k->t_write_end && k->t_end && k->buffers_written);
	k->nr = 1;
	k->t_start[0] = 300 * SEC;
	k->t_write_end[0] = 570 * SEC;
	k->t_end[0] = 575 * SEC;
	k->buffers_written[0] = 1234;
	k->running = true;
	k->last_start = 600 * SEC;
	pgbench_workload.report(t.pg, &r);
	for (unsigned int i = 0; i < r.nr_tables; i++)
		if (!strcmp(r.tables[i].file, "checkpoints.csv"))
			c = &r.tables[i];
	ASSERT_TRUE(c != NULL);
	ASSERT_EQ(c->nrows, 2);
	ASSERT_EQ(c->ncols, 5);
	ASSERT_STR_EQ(c->cols[4], "buffers_written");
	ASSERT_NEAR(c->cells[0], 300, 1e-9);
	ASSERT_NEAR(c->cells[1], 270, 1e-9);
	ASSERT_NEAR(c->cells[2], 5, 1e-9);
	ASSERT_NEAR(c->cells[3], 275, 1e-9);
	ASSERT_NEAR(c->cells[4], 1234, 0);
	ASSERT_NEAR(c->cells[5], 600, 1e-9);
	for (int j = 6; j < 10; j++)
		ASSERT_TRUE(isnan(c->cells[j]));
	pgt_destroy(&t);
}

/* A test of the WAL a run starts with: 2.5 MiB since the last REDO point
 * and 3 MiB recycled, in 1-MiB segments.  Expect the insert position at
 * the start of segment 4 (segments 1-3 hold the WAL since the REDO
 * point), the REDO point 2.5 MiB before it, files for segments 1 to 7
 * and none for 8, and 3 + 3 segments besides the current one. */
TEST(wal_since_redo_at_start)
{
	static const char *const kv[] = { "wal_since_redo", "2560k", "wal_recycled", "3m", NULL };
	struct pgt t;
	const struct pg_xlog *x;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	x = &t.pg->xlog;
	ASSERT_U64_EQ(x->insert, 4ULL << 20);
	ASSERT_U64_EQ(x->write, 4ULL << 20);
	ASSERT_U64_EQ(x->redo, (4ULL << 20) - (2560ULL << 10));
	ASSERT_U64_EQ(pg_wal_start_segments(&t.pg->cfg), 6);
	for (uint64_t s = 1; s <= 7; s++)
		ASSERT_TRUE(s < x->nseg && x->seg[s] != NULL);
	ASSERT_TRUE(x->nseg <= 8 || x->seg[8] == NULL);
	pgt_destroy(&t);
}

/* A test of wal.csv as sampling pg_stat_wal gives it: samples at 0, 1
 * and 2 ms with the WAL counters set by hand in between, and the run
 * ending at 2.5 ms with more.  Expect three rows ending at 1, 2 and
 * 2.5 ms, each the counters' growth in its interval (the sample at 0 is
 * the base), the times in ms, and the rows summing to the totals. */
TEST(wal_table)
{
	struct pgt t;
	struct wl_report r = { 0 };
	const struct wl_table *w = NULL;
	struct pg_xlog *x;
	uint64_t base_records;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	x = &t.pg->xlog;
	t.stats.interval_ns = MS;
	pg_sample_start(t.pg);
	sim_run(t.e.sim, 0);			/* the sample at 0 */
	base_records = x->records;
	x->records += 10, x->fpi += 2, x->bytes += 5000, x->writes += 3, x->fsyncs += 3;
	x->write_ns += 1500000, x->sync_ns += 250000;
	sim_run(t.e.sim, MS);			/* the sample at 1 ms */
	x->records += 7, x->buffers_full += 1, x->bytes += 700;
	sim_run(t.e.sim, 2 * MS);
	x->records += 1, x->bytes += 100, x->fsyncs += 1, x->sync_ns += 2000000;
	sim_call_at(t.e.sim, 2 * MS + 500 * SIM_NSEC_PER_USEC, nothing, NULL);
	sim_run(t.e.sim, 2 * MS + 500 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(sim_now(t.e.sim), 2 * MS + 500 * SIM_NSEC_PER_USEC);
	pgbench_workload.report(t.pg, &r);
	for (unsigned int i = 0; i < r.nr_tables; i++)
		if (!strcmp(r.tables[i].file, "wal.csv"))
			w = &r.tables[i];
	ASSERT_TRUE(w != NULL);
	ASSERT_EQ(w->ncols, 9);
	ASSERT_EQ(w->nrows, 3);
	ASSERT_STR_EQ(w->cols[0], "interval_end_s");
	ASSERT_STR_EQ(w->cols[2], "wal_fpi");
	ASSERT_STR_EQ(w->cols[8], "wal_sync_time");
	ASSERT_NEAR(w->cells[0], 0.001, 1e-12);
	ASSERT_NEAR(w->cells[1], 10, 0);
	ASSERT_NEAR(w->cells[2], 2, 0);
	ASSERT_NEAR(w->cells[3], 5000, 0);
	ASSERT_NEAR(w->cells[5], 3, 0);
	ASSERT_NEAR(w->cells[7], 1.5, 1e-12);
	ASSERT_NEAR(w->cells[8], 0.25, 1e-12);
	ASSERT_NEAR(w->cells[9 + 0], 0.002, 1e-12);
	ASSERT_NEAR(w->cells[9 + 1], 7, 0);
	ASSERT_NEAR(w->cells[9 + 4], 1, 0);
	ASSERT_NEAR(w->cells[18 + 0], 0.0025, 1e-12);
	ASSERT_NEAR(w->cells[18 + 6], 1, 0);
	ASSERT_NEAR(w->cells[18 + 8], 2.0, 1e-12);
	ASSERT_NEAR(w->cells[1] + w->cells[10] + w->cells[19], (double)(x->records - base_records), 0);
	pgt_destroy(&t);
}

/* ---- full-page images ----------------------------------------------------------------------- */

struct fpirun {
	struct pgt	*t;
	unsigned int	n, window;
	uint64_t	fpi_in[8];	/* heap FPIs per window */
	uint64_t	distinct;	/* heap pages changed since the REDO point */
};

static void fpi_fn(struct sim *sim, void *arg)
{
	struct fpirun *r = arg;
	struct pg *pg = r->t->pg;
	struct pg_proc *p = &pg->backends[0];
	uint32_t heap_pages = pg->rel[PG_REL_PKEY].first;

	pg_xlog_set_redo(p);			/* the checkpoint's REDO point */
	for (unsigned int w = 0; w < 8; w++) {
		uint64_t before = pg->tx_fpi;

		for (unsigned int i = 0; i < r->window; i++)
			pg_transaction(p);
		r->fpi_in[w] = pg->tx_fpi - before;
	}
	for (uint32_t b = 0; b < heap_pages; b++)
		r->distinct += pg->bp.blk_epoch[b] == pg->xlog.epoch;
	sim_stop(sim);
}

/* A test that full-page images come from the pages, not from a formula:
 * after a REDO point, 8 windows of 1000 transactions over 3637 heap pages.
 * Each heap page logs an image at its first change only, so the images
 * in all equal the heap pages changed since the REDO point (exactly: the
 * backend's history pages are all new, logged with XLOG_HEAP_INIT_PAGE),
 * and per window they fall as the share of untouched pages falls: expect
 * window 1 above 700, window 8 below 300, a decay up to the random walk's
 * noise, and the total within 3 % of the expectation for uniform updates
 * N (1 - exp(-8000 / N)). */
TEST(fpi_decay_from_pages)
{
	struct pgt t;
	struct fpirun r = { &t, 0, 1000, { 0 }, 0 };
	uint64_t total = 0;
	double n, expect;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	pgt_task(&t, "fpi", fpi_fn, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	for (int w = 0; w < 8; w++) {
		total += r.fpi_in[w];
		if (w)
			ASSERT_TRUE(r.fpi_in[w] <= r.fpi_in[w - 1] + 40);	/* noise of a random walk */
	}
	ASSERT_TRUE(r.fpi_in[0] > 700);
	ASSERT_TRUE(r.fpi_in[7] < 300);
	ASSERT_U64_EQ(total, r.distinct);
	n = (double)t.pg->rel[PG_REL_PKEY].first;
	expect = n * (1 - exp(-8000.0 / n));
	ASSERT_NEAR((double)r.distinct, expect, 0.03 * expect);
	pgt_destroy(&t);
}

static void one_tx_fn(struct sim *sim, void *arg)
{
	struct pgt *t = arg;

	pg_transaction(&t->pg->backends[0]);
	sim_stop(sim);
}

/* A test that the pkey index has blocks of its own: its levels lie in
 * its file, the leaves after the metapage, the root last, before the
 * history; and one transaction on an empty buffer pool at scale 2
 * (547 leaves, 2 inner pages, a root) reads each level's page from the
 * index's file once (the SELECT finds them in the pool) and the heap
 * page once.  (Until this test the levels' first blocks were never set,
 * so the index aliased the heap's first blocks.)  Expect the layout and
 * 3 index reads and 1 heap read. */
TEST(pkey_blocks_are_the_index)
{
	struct pgt t;
	const struct pg *pg;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	pg = t.pg;
	ASSERT_EQ(pg->nlevels, 3);
	ASSERT_EQ(pg->level_pages[0], 547);
	ASSERT_EQ(pg->level_first[0], pg->rel[PG_REL_PKEY].first + 1);
	ASSERT_EQ(pg->level_first[1], pg->rel[PG_REL_PKEY].first + 1 + 547);
	ASSERT_EQ(pg->level_first[2] + 1, pg->rel[PG_REL_HISTORY].first);
	pgt_task(&t, "tx", one_tx_fn, &t, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(pg->rel_reads[PG_REL_PKEY], 3);
	ASSERT_U64_EQ(pg->rel_reads[PG_REL_ACCOUNTS], 1);
	ASSERT_U64_EQ(pg->rel_reads[PG_REL_HISTORY], 0);
	pgt_destroy(&t);
}

/* ---- page tables ----------------------------------------------------------------------------- */

/* The 2 MiB regions each backend touches, counted from the one below its
 * private memory (mapped just under the shared segment) to the segment's
 * end. */
static unsigned long region_base(const struct pg_proc *p)
{
	return p->private_base & ~(PMD_SIZE - 1);
}

static void record_region(struct pg_proc *p, unsigned long addr, bool write)
{
	struct pgt *t = p->pg->hook_ctx;
	unsigned long base = region_base(p);

	(void)write;
	if (p < p->pg->backends || p >= p->pg->backends + p->pg->nbackends)
		return;
	SIM_ASSERT(addr >= base && addr < p->pg->shm_base + p->pg->shm_size);
	t->regions[(unsigned long)(p - p->pg->backends) * t->nr_regions + (addr - base) / PMD_SIZE] = 1;
}

struct ptrun {
	struct pgt	*t;
	unsigned long	samples[64];
	int		nr;
};

static void pt_sample(struct sim *sim, void *arg)
{
	struct ptrun *r = arg;

	r->samples[r->nr++] = global_node_page_state(r->t->e.m, NR_PAGETABLE);
	if (r->nr < 40)
		sim_call_at(sim, sim_now(sim) + 50 * MS, pt_sample, r);
}

/* A test that page tables grow from the backends' own faults: 8 backends
 * run the closed loop for 2 s over 32 MiB of shared buffers.  A hook
 * records which 2 MiB regions (of the shared segment and the private
 * memory below it) each backend touched.  Expect each backend's PTE pages
 * to be what it had after fork plus exactly one per region it touched
 * (fork copies no page tables of a shared mapping), NR_PAGETABLE never
 * to fall, and to grow faster in the first half than in the second
 * (coverage saturates). */
TEST(page_tables_from_faults)
{
	static const char *const kv[] = { "clients", "8", "shared_buffers", "32m", NULL };
	struct pgt t;
	struct ptrun r = { &t, { 0 }, 0 };
	unsigned long *after_fork;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	t.nr_regions = (t.pg->shm_base + t.pg->shm_size - region_base(&t.pg->backends[0])) / PMD_SIZE + 1;
	t.regions = calloc(8 * t.nr_regions, 1);
	after_fork = calloc(8, sizeof(*after_fork));
	for (int i = 0; i < 8; i++)
		after_fork[i] = t.pg->backends[i].mm->nr_ptes;
	t.pg->on_touch = record_region;
	pg_start_tasks(t.pg);
	sim_call_at(t.e.sim, 0, pt_sample, &r);
	sim_run(t.e.sim, 2 * SEC);
	for (int i = 0; i < 8; i++) {
		unsigned long touched = 0;
		const struct pg_proc *p = &t.pg->backends[i];

		ASSERT_TRUE(region_base(p) == region_base(&t.pg->backends[0]));
		for (unsigned long k = 0; k < t.nr_regions; k++)
			touched += t.regions[i * t.nr_regions + k];
		ASSERT_TRUE(touched > 4);
		ASSERT_U64_EQ(p->mm->nr_ptes, after_fork[i] + touched);
	}
	for (int k = 1; k < r.nr; k++)
		ASSERT_TRUE(r.samples[k] >= r.samples[k - 1]);
	ASSERT_TRUE(r.samples[r.nr / 2] - r.samples[0] > r.samples[r.nr - 1] - r.samples[r.nr / 2]);
	free(after_fork);
	pgt_destroy(&t);
}

/* A test of huge_pages=on: the segment comes from the hugetlb pool, whose
 * PMD pages are shared between processes; the backends fault 2 MiB pages
 * without PTE pages.  Expect the segment on hugetlb and, after the same
 * 2 s, each backend with only the PTE pages it had after fork plus its
 * private memory's, far fewer page-table pages than with huge_pages=off. */
TEST(page_tables_huge_pages)
{
	static const char *const mkv[] = { "memory=512m", "zones=DMA:128m,Normal:rest", "cpus=4",
					   "vm.nr_hugepages=64", NULL };
	static const char *const kv[] = { "clients", "8", "shared_buffers", "32m", "huge_pages", "on", NULL };
	struct pgt t;
	unsigned long after_fork[8];

	ASSERT_EQ(pgt_create(&t, mkv, kv), 0);
	ASSERT_TRUE(t.pg->hugetlb);
	for (int i = 0; i < 8; i++)
		after_fork[i] = t.pg->backends[i].mm->nr_ptes;
	pg_start_tasks(t.pg);
	sim_run(t.e.sim, 2 * SEC);
	/* one PTE page for backend_memory, one per region of the process
	 * image (built as the backend starts: fork copies none of them), none
	 * for the hugetlb segment */
	ASSERT_U64_EQ(t.pg->cfg.image_regions, 22);
	for (int i = 0; i < 8; i++)
		ASSERT_U64_EQ(t.pg->backends[i].mm->nr_ptes, after_fork[i] + 1 + 22);
	ASSERT_TRUE(t.stats.transactions > 100);
	pgt_destroy(&t);
}

/* ---- WAL segments ---------------------------------------------------------------------------- */

static void record_wal_write(struct pg_proc *p, uint64_t segno, uint64_t off, uint64_t bytes)
{
	struct pgt *t = p->pg->hook_ctx;
	const struct pg_xlog *x = &p->pg->xlog;

	(void)segno;
	t->wal_runs++;
	if (off + bytes > x->seg_size || bytes > (uint64_t)x->nslots * PG_XLOG_BLCKSZ || bytes % PG_XLOG_BLCKSZ)
		t->wal_bad_runs++;
}

struct walrun {
	struct pgt	*t;
	unsigned int	kib;		/* WAL to write */
	bool		checkpoint;
};

static void wal_fn(struct sim *sim, void *arg)
{
	struct walrun *r = arg;
	struct pg *pg = r->t->pg;
	struct pg_proc *p = &pg->backends[0];

	/* 7 KiB records (a full-page image's size), a flush every 12 */
	for (unsigned int i = 0; i < r->kib / 7; i++) {
		uint64_t lsn = pg_xlog_insert(p, 7 * 1024);

		if (i % 12 == 11)
			pg_xlog_flush(p, lsn);
	}
	pg_xlog_flush(p, pg->xlog.insert);
	if (r->checkpoint) {
		pg_xlog_set_redo(&pg->checkpointer);
		pg_xlog_checkpoint_done(&pg->checkpointer);
	}
	sim_stop(sim);
}

/* A test of WAL writes and new segments: 3.5 MiB of WAL through a 256 KiB
 * ring into 1 MiB segments, none waiting at start.  Expect every pwrite to
 * stay inside one segment and one ring lap, whole 8 KiB pages; segments 2
 * to 4 created by zero-fill (wal_init_zero: pg_pwrite_zeros' 256 KiB
 * pwritev calls, each an order-6 page-cache folio at a 256 KiB boundary:
 * 4 per segment) and an fdatasync for each finished segment. */
TEST(wal_segments_zero_fill)
{
	struct pgt t;
	struct walrun r = { &t, 3584, false };
	int64_t order6;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	t.pg->on_wal_write = record_wal_write;
	order6 = vmstat_of(t.e.m, "sim_pagecache_alloc_order6");
	pgt_task(&t, "wal", wal_fn, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_TRUE(t.wal_runs > 0);
	ASSERT_U64_EQ(t.wal_bad_runs, 0);
	ASSERT_U64_EQ(t.pg->xlog.segs_zeroed, 3);
	ASSERT_U64_EQ(vmstat_of(t.e.m, "sim_pagecache_alloc_order6") - order6, 3 * 4);
	ASSERT_TRUE(t.pg->xlog.fsyncs >= 3);
	ASSERT_U64_EQ(t.pg->xlog.insert / t.pg->xlog.seg_size, 4);
	pgt_destroy(&t);
}

/* A test of recycling at the end of a checkpoint: the same 3.5 MiB of
 * WAL, then a REDO point and the checkpoint's end.  Segments 1-3 lie
 * before the REDO point's segment 4.  With wal_recycle on, the recycle
 * horizon (XLOGfileslop: at least min_wal_size = 2 segments past the REDO
 * point, and 2.09 x the 3.5 MiB distance estimate) takes all three: they
 * become future segments 5-7 (the same files, pages still cached) and
 * nothing is unlinked.  With wal_recycle off all three are unlinked. */
TEST(wal_segments_recycle)
{
	static const char *const off[] = { "wal_recycle", "off", NULL };
	struct pgt t;
	struct walrun r = { &t, 3584, true };

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	pgt_task(&t, "wal", wal_fn, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(t.pg->xlog.redo / t.pg->xlog.seg_size, 4);
	ASSERT_U64_EQ(t.pg->xlog.segs_recycled, 3);
	ASSERT_U64_EQ(t.pg->xlog.segs_removed, 0);
	for (int s = 1; s <= 3; s++)
		ASSERT_TRUE(t.pg->xlog.seg[s] == NULL);
	for (int s = 5; s <= 7; s++)
		ASSERT_TRUE(t.pg->xlog.seg[s] != NULL);
	pgt_destroy(&t);

	ASSERT_EQ(pgt_create(&t, NULL, off), 0);
	r.t = &t;
	pgt_task(&t, "wal", wal_fn, &r, 0);
	sim_run(t.e.sim, SIM_TIME_NEVER);
	ASSERT_U64_EQ(t.pg->xlog.segs_recycled, 0);
	ASSERT_U64_EQ(t.pg->xlog.segs_removed, 3);
	pgt_destroy(&t);
}

/* A test of XLOGfileslop: REDO at segment 10 of 1 MiB segments, min 2 MiB,
 * max 64 MiB, a distance estimate of 5 MiB: 10 MiB + 1.9 x 1.1 x 5 MiB =
 * 20.45 MiB -> segment 21; an estimate of 0 stops at min_wal_size (10 + 2
 * - 1 = 11); 1 GiB stops at max_wal_size (10 + 64 - 1 = 73). */
TEST(wal_recycle_horizon)
{
	struct pgt t;
	uint64_t seg;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	seg = t.pg->xlog.seg_size;
	t.pg->xlog.distance_estimate = 5.0 * (double)seg;
	ASSERT_U64_EQ(pg_xlog_recycle_segno(t.pg, 10 * seg), 21);
	t.pg->xlog.distance_estimate = 0;
	ASSERT_U64_EQ(pg_xlog_recycle_segno(t.pg, 10 * seg), 11);
	t.pg->xlog.distance_estimate = 1024.0 * (double)seg;
	ASSERT_U64_EQ(pg_xlog_recycle_segno(t.pg, 10 * seg), 73);
	pgt_destroy(&t);
}

/* A test of WAL positions: records skip the 40-byte header of a segment's
 * first page and the 24-byte header of every other page.  From the
 * start of segment 1, 8152 bytes fill the first page exactly; one more
 * byte lands after the second page's header. */
TEST(wal_positions)
{
	struct pgt t;
	const struct pg_xlog *x;
	uint64_t s;

	ASSERT_EQ(pgt_create(&t, NULL, NULL), 0);
	x = &t.pg->xlog;
	s = x->seg_size;
	ASSERT_U64_EQ(pg_xlog_advance(x, s, 8152), s + 8192);
	ASSERT_U64_EQ(pg_xlog_advance(x, s, 8153), s + 8192 + 24 + 1);
	ASSERT_U64_EQ(pg_xlog_advance(x, s + 100, 0), s + 100);
	pgt_destroy(&t);
}

/* ---- PostgreSQL's spinlocks -------------------------------------------------------------- */

struct slock_case {
	struct pgt	*t;
	sim_time_t	hold;		/* the holder's time with the lock (asleep) */
	sim_time_t	got_at;		/* when the waiter had it */
};

static void slock_holder(struct sim *sim, void *arg)
{
	struct slock_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[0];

	pg_s_lock(p, &c->t->pg->strategy_lock);
	if (c->hold > SIM_NSEC_PER_USEC)
		sim_sleep(sim, c->hold);	/* a stalled page fault while holding */
	else
		sim_charge(sim, c->hold);	/* the freelist pop itself */
	pg_s_unlock(p, &c->t->pg->strategy_lock);
}

static void slock_waiter(struct sim *sim, void *arg)
{
	struct slock_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[1];

	pg_s_lock(p, &c->t->pg->strategy_lock);
	c->got_at = sim_now(sim);
	pg_s_unlock(p, &c->t->pg->strategy_lock);
}

/* A test of s_lock (locks=on): two backends on two CPUs start
 * together; the first takes buffer_strategy_lock, the second spins on it.
 * With a 5 ms hold (asleep), expect the waiter to spin its 100 x
 * pg_spin_delay, sleep 1 ms, and keep retrying with growing sleeps until
 * after the release: it gets the lock after 5 ms, after at least 3 sleeps,
 * and its spins_per_delay drops to 99.  With a 0.5 us hold of CPU work
 * (shorter than its 2.5 us spin budget), expect the lock handed over
 * within microseconds without a sleep and spins_per_delay up to 200; the
 * holder's uncontended acquisition leaves its 100. */
TEST(s_lock_spins_then_sleeps)
{
	static const char *const kv[] = { "clients", "2", "locks", "on", NULL };
	const sim_time_t holds[2] = { 5 * MS, 500 };

	for (int i = 0; i < 2; i++) {
		struct pgt t;
		struct slock_case c = { .t = &t, .hold = holds[i] };
		struct pg_proc *w;

		ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
		w = &t.pg->backends[1];
		pgt_task(&t, "holder", slock_holder, &c, 0);
		pgt_task(&t, "waiter", slock_waiter, &c, 0);
		sim_run(t.e.sim, 2 * SEC);
		ASSERT_U64_EQ(t.pg->backends[0].spins_per_delay, 100);
		if (i == 0) {
			ASSERT_TRUE(c.got_at >= 5 * MS);
			ASSERT_TRUE(w->st.s_lock_delays >= 3);
			ASSERT_U64_EQ(w->spins_per_delay, 99);
		} else {
			ASSERT_TRUE(c.got_at > 0 && c.got_at < 10 * SIM_NSEC_PER_USEC);
			ASSERT_U64_EQ(w->st.s_lock_delays, 0);
			ASSERT_U64_EQ(w->spins_per_delay, 200);
		}
		pgt_destroy(&t);
	}
}

/* A test that the freelist pop holds buffer_strategy_lock (locks=on):
 * three buffers from a fresh pool.  Expect three acquisitions of the
 * lock, none contended, and the buffers 0, 1, 2 as without the lock. */
TEST(s_lock_guards_the_freelist)
{
	static const char *const kv[] = { "shared_buffers", "128k", "locks", "on", NULL };
	struct pgt t;
	struct pg_proc *p;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	p = &t.pg->backends[0];
	ASSERT_EQ(pg_strategy_get_buffer(p), 0);
	ASSERT_EQ(pg_strategy_get_buffer(p), 1);
	ASSERT_EQ(pg_strategy_get_buffer(p), 2);
	ASSERT_U64_EQ(t.pg->strategy_lock.stats.acquisitions, 3);
	ASSERT_U64_EQ(t.pg->strategy_lock.stats.contended, 0);
	pgt_destroy(&t);
}

/* A test of when the freelist counts as run dry (the
 * strategy_freelist_empty_s figure): a 128 KiB pool holds 16 buffers.
 * Expect the mark unset after 15 pops and set by the 16th. */
TEST(freelist_empty_marked_once)
{
	static const char *const kv[] = { "shared_buffers", "128k", "locks", "on", NULL };
	struct pgt t;
	struct pg_proc *p;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	p = &t.pg->backends[0];
	ASSERT_U64_EQ(t.pg->bp.nbuffers, 16);
	for (uint32_t i = 0; i < 15; i++)
		ASSERT_U64_EQ(pg_strategy_get_buffer(p), i);
	ASSERT_FALSE(t.pg->bp.freelist_emptied);
	ASSERT_U64_EQ(pg_strategy_get_buffer(p), 15);
	ASSERT_TRUE(t.pg->bp.freelist_emptied);
	pgt_destroy(&t);
}

/* ---- address translation ------------------------------------------------------------------ */

/* A test of the TLB cost model (tlb_misses=on, 16 entries per CPU): a
 * backend touching one buffer page twice misses once; a second backend on
 * the same CPU touching it misses again (entries are tagged by process);
 * 4 KiB pages of the 4 MiB segment each miss.  Expect the misses counted
 * and tlb_walk_4k charged for each (engine context: engine_ns). */
TEST(tlb_misses_cost_page_walks)
{
	static const char *const kv[] = { "clients", "2", "tlb_misses", "on", "tlb_entries", "16", NULL };
	struct pgt t;
	struct pg_proc *a, *b;
	unsigned long addr;
	uint64_t ns0;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	a = &t.pg->backends[0];
	b = &t.pg->backends[1];
	addr = pg_buf_block_addr(t.pg, 3);
	ns0 = sim_engine_ns(t.e.sim);
	pg_touch(a, addr, false);
	pg_touch(a, addr, false);
	ASSERT_U64_EQ(t.pg->tlb_misses_4k, 1);
	pg_touch(b, addr, false);
	ASSERT_U64_EQ(t.pg->tlb_misses_4k, 2);
	pg_touch(a, addr + PAGE_SIZE, false);
	ASSERT_U64_EQ(t.pg->tlb_misses_4k, 3);
	ASSERT_U64_EQ(t.pg->tlb_misses_2m, 0);
	ASSERT_TRUE(sim_engine_ns(t.e.sim) - ns0 >=
		    3 * cost_ns(sim_costs(t.e.sim), COST_tlb_walk_4k, 1));
	pgt_destroy(&t);
}

/* ---- pgbench on the machine -------------------------------------------------------------- */

/* A test of client=local: 4 clients served by 2 pgbench threads for 1 s.
 * Expect transactions to complete (the client counts them: tx_total ==
 * the latency samples), the two pgbench tasks to have spent at least
 * 5 x (pgbench_client_stmt + tcp_loopback_send + tcp_recv) of CPU per
 * transaction, and the backends' CPU to include their 10 loopback
 * operations per transaction; remote mode has no pgbench task. */
TEST(client_local_round_trips)
{
	static const char *const kv[] = { "clients", "4", "client", "local", "threads", "2", NULL };
	struct pgt t;
	const struct cost_table *c;
	uint64_t client_cpu = 0, per_stmt;
	int clients = 0;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	ASSERT_EQ(t.pg->nthreads, 2);
	pg_start_tasks(t.pg);
	sim_run(t.e.sim, 1 * SEC);
	c = sim_costs(t.e.sim);
	ASSERT_TRUE(t.pg->tx_total > 10);
	ASSERT_U64_EQ(t.stats.transactions, t.pg->tx_total);
	for (uint32_t i = 0; i < sim_nr_tasks(t.e.sim); i++) {
		struct sim_task *k = sim_task_get(t.e.sim, i);
		struct sim_task_stats st;

		if (strcmp(sim_task_kind_name(t.e.sim, sim_task_kind_of(k)), "pgbench"))
			continue;
		clients++;
		sim_task_stats(k, &st);
		client_cpu += st.cpu_ns;
	}
	ASSERT_EQ(clients, 2);
	per_stmt = cost_ns(c, COST_pgbench_client_stmt, 1) + cost_ns(c, COST_tcp_loopback_send, 1) +
		   cost_ns(c, COST_tcp_recv, 1);
	ASSERT_TRUE(client_cpu >= t.pg->tx_total * 5 * per_stmt);
	/* on 4 CPUs some messages are read on another CPU than sent from;
	 * at most 10 a transaction, and those of the 4 open ones */
	ASSERT_TRUE(t.pg->tcp_remote_msgs > 0);
	ASSERT_TRUE(t.pg->tcp_remote_msgs <= 10 * (t.pg->tx_total + 4));
	pgt_destroy(&t);
}

/* A test of tcp_remote's count: on one CPU every message is read where it
 * was sent, so none is counted. */
TEST(client_local_one_cpu_reads_nothing_remote)
{
	static const char *const kv[] = { "clients", "4", "client", "local", "threads", "2", NULL };
	static const char *const one_cpu[] = {
		"memory=512m", "zones=DMA:128m,Normal:rest", "cpus=1", NULL
	};
	struct pgt t;

	ASSERT_EQ(pgt_create(&t, one_cpu, kv), 0);
	pg_start_tasks(t.pg);
	sim_run(t.e.sim, 1 * SEC);
	ASSERT_TRUE(t.pg->tx_total > 10);
	ASSERT_U64_EQ(t.pg->tcp_remote_msgs, 0);
	pgt_destroy(&t);
}

struct walins_case {
	struct pgt	*t;
	sim_time_t	flushed_at;
};

/* An inserter stalled with an insertion lock held (a page fault in
 * CopyXLogRecordToWAL): holds lock 0 for 5 ms without publishing. */
static void walins_stalled(struct sim *sim, void *arg)
{
	struct walins_case *c = arg;
	struct pg_xlog *x = &c->t->pg->xlog;

	pg_lwlock_acquire(sim, &x->insert_locks[0]);
	sim_sleep(sim, 5 * MS);
	pg_lwlock_release(sim, &x->insert_locks[0]);
}

static void walins_committer(struct sim *sim, void *arg)
{
	struct walins_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[1];
	uint64_t lsn;

	sim_sleep(sim, 1 * MS);
	p->lock_to_try = 3;
	lsn = pg_xlog_insert(p, 34);	/* an XLOG_XACT_COMMIT record */
	pg_xlog_flush(p, lsn);
	c->flushed_at = sim_now(sim);
}

/* A test of WaitXLogInsertionsToFinish (locks=on): an insertion lock held
 * 0..5 ms by a stalled inserter; another backend commits at 1 ms.  Expect
 * its XLogFlush to wait for the stalled insertion (done after 5 ms) with
 * locks=on, and to be done within 1 ms of the commit with locks=off. */
TEST(wal_insert_locks_hold_up_the_flush)
{
	static const char *const on[] = { "clients", "2", "locks", "on", NULL };
	static const char *const off[] = { "clients", "2", NULL };

	for (int i = 0; i < 2; i++) {
		struct pgt t;
		struct walins_case c = { .t = &t };

		ASSERT_EQ(pgt_create(&t, NULL, i ? off : on), 0);
		pgt_task(&t, "stalled", walins_stalled, &c, 0);
		pgt_task(&t, "committer", walins_committer, &c, 0);
		sim_run(t.e.sim, 1 * SEC);
		if (i == 0) {
			ASSERT_TRUE(c.flushed_at >= 5 * MS);
			ASSERT_TRUE(t.pg->xlog.insert_waits >= 1);
		} else {
			ASSERT_TRUE(c.flushed_at > 1 * MS && c.flushed_at < 2 * MS);
		}
		pgt_destroy(&t);
	}
}

/* A holder of insertpos_lck preempted or faulting inside
 * ReserveXLogInsertLocation: holds it for 5 ms. */
static void insertpos_stalled(struct sim *sim, void *arg)
{
	struct walins_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[0];

	pg_s_lock(p, &c->t->pg->xlog.insertpos_lck);
	sim_sleep(sim, 5 * MS);
	pg_s_unlock(p, &c->t->pg->xlog.insertpos_lck);
}

static void insertpos_inserter(struct sim *sim, void *arg)
{
	struct walins_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[1];

	sim_sleep(sim, 1 * MS);
	p->lock_to_try = 3;
	(void)pg_xlog_insert(p, 34);
	c->flushed_at = sim_now(sim);		/* here: when the record was in */
}

/* A test that every WAL record reserves its place under insertpos_lck
 * (locks=on): a backend holds the spinlock 0..5 ms, another inserts a
 * record at 1 ms.  Expect the record in after 5 ms, two acquisitions,
 * the second found held at least twice (its spin, then a try after each
 * s_lock sleep: 5 ms is past the spin budget); with locks=off, the
 * record in within 10 us of 1 ms and the lock never taken. */
TEST(wal_reservation_under_insertpos_lck)
{
	static const char *const on[] = { "clients", "2", "locks", "on", NULL };
	static const char *const off[] = { "clients", "2", NULL };

	for (int i = 0; i < 2; i++) {
		struct pgt t;
		struct walins_case c = { .t = &t };
		const struct sim_lock_stats *st;

		ASSERT_EQ(pgt_create(&t, NULL, i ? off : on), 0);
		st = &t.pg->xlog.insertpos_lck.stats;
		if (i == 0)
			pgt_task(&t, "stalled", insertpos_stalled, &c, 0);
		pgt_task(&t, "inserter", insertpos_inserter, &c, 0);
		sim_run(t.e.sim, 1 * SEC);
		if (i == 0) {
			ASSERT_TRUE(c.flushed_at >= 5 * MS);
			ASSERT_U64_EQ(st->acquisitions, 2);
			ASSERT_TRUE(st->contended >= 2);	/* a spin, then a try after each sleep */
			ASSERT_TRUE(t.pg->backends[1].st.s_lock_delays >= 1);
		} else {
			ASSERT_TRUE(c.flushed_at >= 1 * MS && c.flushed_at < 1 * MS + 10 * SIM_NSEC_PER_USEC);
			ASSERT_U64_EQ(st->acquisitions, 0);
		}
		pgt_destroy(&t);
	}
}

/* ---- LWLocks in shared mode, ProcArrayLock (locks=on) -------------------------------------- */

struct lw_case {
	struct pgt	*t;
	sim_time_t	got[4];		/* when each task had what it asked for */
};

/* Task k: 0 and 1 share the lock at 0 and 0.5 ms for 2 ms each; 2 wants it
 * exclusive at 1 ms for 1 ms; 3 wants it shared at 3 ms. */
static void lw_task(struct sim *sim, void *arg, int k)
{
	struct lw_case *c = arg;
	struct pg_lwlock *l = &c->t->pg->proc_array_lock;
	static const sim_time_t start[4] = { 0, 500 * SIM_NSEC_PER_USEC, 1 * MS, 3 * MS };

	sim_sleep_until(sim, start[k]);
	if (k == 2) {
		pg_lwlock_acquire(sim, l);
		c->got[k] = sim_now(sim);
		sim_sleep(sim, 1 * MS);
		pg_lwlock_release(sim, l);
		return;
	}
	pg_lwlock_acquire_shared(sim, l);
	c->got[k] = sim_now(sim);
	sim_sleep(sim, k == 3 ? 1 * MS : 2 * MS);
	pg_lwlock_release_shared(sim, l);
}

static void lw_task0(struct sim *sim, void *arg) { lw_task(sim, arg, 0); }
static void lw_task1(struct sim *sim, void *arg) { lw_task(sim, arg, 1); }
static void lw_task2(struct sim *sim, void *arg) { lw_task(sim, arg, 2); }
static void lw_task3(struct sim *sim, void *arg) { lw_task(sim, arg, 3); }

/* A test of LWLock modes: two shared holders overlap (0..2 ms and
 * 0.5..2.5 ms); an exclusive acquirer at 1 ms waits for both; a shared
 * acquirer at 3 ms waits for the exclusive holder.  Expect the grants at
 * 0, 0.5, 2.5 and 3.5 ms (each within 50 us: the engine's context-switch
 * and wake-up costs), two contended acquisitions and 1.5 + 0.5 ms of
 * waiting. */
TEST(lwlock_shared_and_exclusive)
{
	static const char *const kv[] = { "clients", "4", "locks", "on", NULL };
	struct pgt t;
	struct lw_case c = { .t = &t };

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	pgt_task(&t, "r0", lw_task0, &c, 0);
	pgt_task(&t, "r1", lw_task1, &c, 0);
	pgt_task(&t, "w2", lw_task2, &c, 0);
	pgt_task(&t, "r3", lw_task3, &c, 0);
	sim_run(t.e.sim, 1 * SEC);
	for (int k = 0; k < 4; k++) {	/* plus the engine's switch and wake-up costs */
		static const sim_time_t want[4] = { 0, 500, 2500, 3500 };

		ASSERT_TRUE(c.got[k] >= want[k] * SIM_NSEC_PER_USEC &&
			    c.got[k] < (want[k] + 50) * SIM_NSEC_PER_USEC);
	}
	ASSERT_U64_EQ(t.pg->proc_array_lock.contended, 2);
	ASSERT_TRUE(t.pg->proc_array_lock.wait_ns >= 2 * MS - 50 * SIM_NSEC_PER_USEC &&
		    t.pg->proc_array_lock.wait_ns < 2 * MS + 50 * SIM_NSEC_PER_USEC);
	pgt_destroy(&t);
}

struct group_case {
	struct pgt	*t;
	sim_time_t	done[3];
};

/* Backend 0 holds ProcArrayLock 0..2 ms, then ends a transaction at 3 ms;
 * backends 1 and 2 end theirs at 0.5 and 1 ms. */
static void group_task(struct sim *sim, void *arg, uint32_t k)
{
	struct group_case *c = arg;
	struct pg_proc *p = &c->t->pg->backends[k];

	if (k == 0) {
		pg_lwlock_acquire(sim, &c->t->pg->proc_array_lock);
		sim_sleep(sim, 2 * MS);
		pg_lwlock_release(sim, &c->t->pg->proc_array_lock);
		sim_sleep_until(sim, 3 * MS);
	} else {
		sim_sleep_until(sim, k * 500 * SIM_NSEC_PER_USEC);
	}
	pg_proc_array_end_transaction(p);
	c->done[k] = sim_now(sim);
}

static void group_task0(struct sim *sim, void *arg) { group_task(sim, arg, 0); }
static void group_task1(struct sim *sim, void *arg) { group_task(sim, arg, 1); }
static void group_task2(struct sim *sim, void *arg) { group_task(sim, arg, 2); }

/* A test of group XID clearing (ProcArrayGroupClearXid): ProcArrayLock is
 * held 0..2 ms; backend 1 ends its transaction at 0.5 ms, finds the lock
 * taken and the group empty, and leads; backend 2 at 1 ms joins as a
 * follower and sleeps.  Expect at 2 ms the leader to take the lock, clear
 * both (2 x pg_proc_array_end), release and wake the follower: both done
 * right after 2 ms and before 2.1 ms, one leader, two cleared; backend 0
 * at 3 ms takes the free lock itself (no group). */
TEST(proc_array_group_clear)
{
	static const char *const kv[] = { "clients", "3", "locks", "on", NULL };
	struct pgt t;
	struct group_case c = { .t = &t };

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	pgt_task(&t, "b0", group_task0, &c, 0);
	pgt_task(&t, "b1", group_task1, &c, 0);
	pgt_task(&t, "b2", group_task2, &c, 0);
	sim_run(t.e.sim, 1 * SEC);
	ASSERT_U64_EQ(t.pg->group_leaders, 1);
	ASSERT_U64_EQ(t.pg->group_cleared, 2);
	for (int k = 1; k <= 2; k++)
		ASSERT_TRUE(c.done[k] >= 2 * MS + 300 && c.done[k] < 2100 * SIM_NSEC_PER_USEC);
	ASSERT_TRUE(c.done[0] >= 3 * MS && c.done[0] < 3100 * SIM_NSEC_PER_USEC);
	ASSERT_U64_EQ(t.pg->proc_array_lock.acquisitions, 3);
	pgt_destroy(&t);
}

static void bufmap_task(struct sim *sim, void *arg)
{
	struct pgt *t = arg;
	struct pg_proc *p = &t->pg->backends[0];

	for (uint32_t round = 0; round < 3; round++)
		for (uint32_t b = 0; b < 16; b++)
			pg_release_buffer(p, pg_read_buffer(p, (round == 2 ? 100 : 0) + b, false));
	(void)sim;
}

/* A test that BufferAlloc takes the buffer mapping partition locks
 * (locks=on) on a 16-buffer pool: 16 misses into free buffers (lookup
 * share + insert exclusive: 2 each), the same 16 blocks again as hits
 * (lookup share: 1 each), 16 other blocks that evict them (lookup share,
 * the victim's delete exclusive, the insert exclusive: 3 each).  Expect 96
 * acquisitions over the 128 partitions, none contended, and no lock left
 * held. */
TEST(buffer_mapping_partition_locks)
{
	static const char *const kv[] = { "shared_buffers", "128k", "locks", "on", NULL };
	struct pgt t;
	uint64_t acq = 0, contended = 0, held = 0;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	pgt_task(&t, "reader", bufmap_task, &t, 0);
	sim_run(t.e.sim, 1 * SEC);
	for (unsigned int k = 0; k < PG_NUM_BUFFER_PARTITIONS; k++) {
		acq += t.pg->buf_mapping[k].acquisitions;
		contended += t.pg->buf_mapping[k].contended;
		held += t.pg->buf_mapping[k].shared + (t.pg->buf_mapping[k].holder != 0);
	}
	ASSERT_U64_EQ(acq, 96);
	ASSERT_U64_EQ(contended, 0);
	ASSERT_U64_EQ(held, 0);
	ASSERT_U64_EQ(t.pg->backends[0].st.buffer_misses, 32);
	ASSERT_U64_EQ(t.pg->backends[0].st.buffer_hits, 16);
	pgt_destroy(&t);
}

struct victim_case {
	struct pgt	*t;
	uint32_t	reader_buf, reader_tag;	/* what the reader holds at 12 ms */
	bool		reader_valid;
	uint32_t	buf_100;		/* where block 100 went */
};

/* backend 0 fills the 16-buffer pool at 0 ms (block b in buffer b); at
 * 5 ms backend 1 holds block 0's partition lock share for 3 ms; at 5.1 ms
 * backend 2 reads block 100, whose victim is buffer 0 (the clock's second
 * pass); at 6 ms backend 3 reads block 0 and keeps it pinned to 12 ms */
static void victim_task(struct sim *sim, void *arg, uint32_t k)
{
	struct victim_case *c = arg;
	struct pg *pg = c->t->pg;
	struct pg_proc *p = &pg->backends[k];
	uint32_t buf;

	switch (k) {
	case 0:
		for (uint32_t b = 0; b < 16; b++)
			pg_release_buffer(p, pg_read_buffer(p, b, false));
		break;
	case 1:
		sim_sleep_until(sim, 5 * MS);
		pg_lwlock_acquire_shared(sim, &pg->buf_mapping[0]);	/* block 0's partition */
		sim_sleep(sim, 3 * MS);
		pg_lwlock_release_shared(sim, &pg->buf_mapping[0]);
		break;
	case 2:
		sim_sleep_until(sim, 5 * MS + 100 * SIM_NSEC_PER_USEC);
		buf = pg_read_buffer(p, 100, false);
		c->buf_100 = buf;
		pg_release_buffer(p, buf);
		break;
	case 3:
		sim_sleep_until(sim, 6 * MS);
		buf = pg_read_buffer(p, 0, false);
		sim_sleep_until(sim, 12 * MS);
		c->reader_buf = buf;
		c->reader_tag = pg->bp.desc[buf].tag;
		c->reader_valid = pg->bp.desc[buf].state & BM_VALID;
		pg_release_buffer(p, buf);
		break;
	}
}

static void victim_task0(struct sim *sim, void *arg) { victim_task(sim, arg, 0); }
static void victim_task1(struct sim *sim, void *arg) { victim_task(sim, arg, 1); }
static void victim_task2(struct sim *sim, void *arg) { victim_task(sim, arg, 2); }
static void victim_task3(struct sim *sim, void *arg) { victim_task(sim, arg, 3); }

/* InvalidateVictimBuffer's second look (bufmgr.c, PostgreSQL 16-17): a
 * clean victim's old mapping is deleted under its partition lock
 * exclusive, and while the evictor waits for that lock a reader can still
 * find the block and pin the buffer.  So once the lock is held the victim
 * must still have only the evictor's pin (and be clean), else the evictor
 * lets it go and takes another.  Expect the reader, which pinned block 0
 * in buffer 0 while backend 2 waited to evict it, to still hold block 0,
 * valid, at 12 ms, and block 100 to have gone into another buffer.
 * (Before the second look the evictor took buffer 0 from under the
 * reader; found at full scale as a failed assertion in pg_mark_dirty.) */
TEST(victim_pinned_while_waiting_for_its_partition)
{
	static const char *const kv[] = { "clients", "4", "shared_buffers", "128k", "locks", "on", NULL };
	struct pgt t;
	struct victim_case c = { .t = &t };

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	pgt_task(&t, "fill", victim_task0, &c, 0);
	pgt_task(&t, "share", victim_task1, &c, 0);
	pgt_task(&t, "evict", victim_task2, &c, 0);
	pgt_task(&t, "pin", victim_task3, &c, 0);
	sim_run(t.e.sim, 1 * SEC);
	ASSERT_EQ(c.reader_buf, 0);
	ASSERT_EQ(c.reader_tag, 0);
	ASSERT_TRUE(c.reader_valid);
	ASSERT_TRUE(c.buf_100 != 0);
	ASSERT_EQ(t.pg->bp.blk_buf[0], 0);
	ASSERT_TRUE(t.pg->buf_mapping[0].contended >= 1);	/* the evictor waited */
	pgt_destroy(&t);
}

/* dynahash's free list of a block's entry: FREELIST_IDX of its hash code
 * (the model's code: pg_bufmgr.c buf_hash_code) */
static unsigned int freelist_of(uint32_t blk)
{
	return (unsigned int)((((uint64_t)blk * 0x9e3779b97f4a7c15ULL) >> 32) % PG_NUM_FREELISTS);
}

struct fl_case {
	struct pgt	*t;
	uint32_t	x;		/* a block whose free list is block 0's */
	uint32_t	elem0, elem_x;	/* the elements of block 0's and x's entries */
	uint64_t	hold_first;	/* the list's hold time after the first pop */
};

static void fl_task(struct sim *sim, void *arg)
{
	struct fl_case *c = arg;
	struct pg *pg = c->t->pg;
	struct pg_proc *p = &pg->backends[0];
	struct sim_spinlock *l0 = &pg->hash_fl_lock[freelist_of(0)];

	pg_release_buffer(p, pg_read_buffer(p, 0, false));
	c->hold_first = l0->stats.hold_ns;
	c->elem0 = pg->bp.elem_of[pg->bp.blk_buf[0]];
	for (uint32_t b = 1; b < 16; b++)	/* fill the pool: block b in buffer b */
		pg_release_buffer(p, pg_read_buffer(p, b, false));
	pg_release_buffer(p, pg_read_buffer(p, c->x, false));	/* evicts buffer 0 */
	c->elem_x = pg->bp.elem_of[pg->bp.blk_buf[c->x]];
	(void)sim;
}

/* A test of the buffer mapping table's free lists (locks=on) on a
 * 16-buffer pool: 144 elements (16 + 128 partitions) on 32 lists, list 0
 * with the remainder (20), the others 4 each, every list's head the last
 * element of its chunk.  Block 0's entry takes the head of its list; the
 * pop is this process's first touch of that element's page, so the list's
 * spinlock is held over a page fault (hold time > 0), while later pops
 * from the same list, on a page now mapped, add no hold time unless they
 * fault too.  Then block x, the first block after 15 on block 0's list,
 * evicts buffer 0 (the clock sweep's first victim once every usage count
 * is worn down): block 0's entry is deleted and its element pushed, and
 * x's insert pops exactly that element (LIFO).  Expect block 0's element
 * at its chunk's end, a held fault, x's element equal to block 0's, and no
 * list lock left held. */
TEST(buffer_mapping_free_lists)
{
	static const char *const kv[] = { "shared_buffers", "128k", "locks", "on", NULL };
	struct pgt t;
	struct fl_case c = { .t = &t };
	unsigned int fl = freelist_of(0);
	uint32_t per = 144 / PG_NUM_FREELISTS, first = 144 - per * (PG_NUM_FREELISTS - 1);
	uint32_t chunk_end = fl == 0 ? first : first + fl * per;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	ASSERT_EQ(t.pg->bp.nelem, 144);
	ASSERT_EQ(t.pg->bp.nbuckets, 256);
	for (c.x = 16; freelist_of(c.x) != fl; c.x++)
		;
	pgt_task(&t, "reader", fl_task, &c, 0);
	sim_run(t.e.sim, 1 * SEC);
	ASSERT_EQ(c.elem0, chunk_end - 1);
	ASSERT_TRUE(c.hold_first > 0);
	ASSERT_EQ(c.elem_x, c.elem0);
	for (unsigned int k = 0; k < PG_NUM_FREELISTS; k++)
		ASSERT_TRUE(!sim_spin_is_locked(&t.pg->hash_fl_lock[k]));
	pgt_destroy(&t);
}

static double report_figure(const struct wl_report *r, const char *name)
{
	for (unsigned int i = 0; i < r->nr_figures; i++)
		if (!strcmp(r->figures[i].name, name))
			return r->figures[i].value;
	return -1;
}

/* The checkpoint-dip figures on a made-up 10-s series: checkpoints start
 * at 300 s and 600 s; the minutes before them run at 150 and 160 per
 * second (mean 155), the first minute after each at 40 (two intervals of
 * it at 70 and 20), one later interval at 77.4: 13 of the 90 whole
 * intervals lie below 77.5 (half of 155), and one exactly at 77.5 is not
 * a dip.  The run ends at 905 s: the last interval is partial and
 * ignored, whatever its rate.  Then the same run as if nothing had
 * committed after 860 s: the whole intervals with no transaction count,
 * as 0 TPS. */
TEST(checkpoint_dip_figures)
{
	uint64_t tx[91];
	sim_time_t starts[2] = { 300 * SEC, 600 * SEC };
	struct wl_stats st = { .measure_start = 0, .interval_ns = 10 * SEC, .interval_tx = tx,
			       .nr_intervals = 91 };
	struct pg_ckpt c = { .nr = 2, .t_start = starts };
	struct wl_report r = { 0 };

	for (unsigned int k = 0; k < 91; k++)
		tx[k] = 1500;				/* 150 per second */
	for (unsigned int k = 54; k < 60; k++)
		tx[k] = 1600;				/* 540-600 s: 160 */
	for (unsigned int k = 30; k < 36; k++)
		tx[k] = 400;				/* 300-360 s: 40 */
	tx[31] = 700;
	tx[32] = 200;
	for (unsigned int k = 60; k < 66; k++)
		tx[k] = 400;				/* 600-660 s */
	tx[40] = 775;					/* 77.5: not below half */
	tx[70] = 774;					/* 77.4: a dip */
	tx[90] = 0;					/* the partial last interval */
	pg_checkpoint_figures(&st, &c, 905 * SEC, &r);
	/* during: 12 intervals, sum 40*10 + 70 + 20 = 490 -> 40.833 */
	ASSERT_NEAR(report_figure(&r, "tps_checkpoint_first_minute"), 490.0 / 12, 1e-9);
	ASSERT_NEAR(report_figure(&r, "tps_before_checkpoint"), 155.0, 1e-9);
	ASSERT_NEAR(report_figure(&r, "checkpoint_tps_ratio"), 490.0 / 12 / 155.0, 1e-9);
	ASSERT_NEAR(report_figure(&r, "checkpoint_tps_lowest_ratio"), 20.0 / 155.0, 1e-9);
	ASSERT_NEAR(report_figure(&r, "checkpoint_dip_share"), 13.0 / 90, 1e-9);

	/* nothing commits after 860 s: the series stops at 86 intervals, and
	 * the four whole intervals after it are dips at 0 TPS */
	memset(&r, 0, sizeof(r));
	st.nr_intervals = 86;
	pg_checkpoint_figures(&st, &c, 900 * SEC, &r);
	ASSERT_NEAR(report_figure(&r, "checkpoint_dip_share"), 17.0 / 90, 1e-9);
	ASSERT_NEAR(report_figure(&r, "tps_before_checkpoint"), 155.0, 1e-9);
}

struct wait_case {
	struct pgt	*t;
	sim_time_t	got;
};

/* the backends' tasks get their pg_proc as arg (pg_my_backend reads it),
 * so the case is here */
static struct wait_case *wait_c;

/* Backend 0 holds WALWriteLock 0..2 ms; backend 1 asks for it at 0.5 ms
 * and, once it has it, reads a block that is not in the page cache
 * (data_cached=0). */
static void wait_holder(struct sim *sim, void *arg)
{
	struct wait_case *c = wait_c;

	(void)arg;
	pg_lwlock_acquire(sim, &c->t->pg->xlog.write_lock);
	sim_sleep(sim, 2 * MS);
	pg_lwlock_release(sim, &c->t->pg->xlog.write_lock);
}

static void wait_waiter(struct sim *sim, void *arg)
{
	struct wait_case *c = wait_c;

	sim_sleep_until(sim, 500 * SIM_NSEC_PER_USEC);
	pg_lwlock_acquire(sim, &c->t->pg->xlog.write_lock);
	c->got = sim_now(sim);
	pg_lwlock_release(sim, &c->t->pg->xlog.write_lock);
	pg_mdread(arg, 7);
}

/* A task that is not a backend (an auxiliary process, here a test's
 * task) waits for the lock too, at 0.6 ms. */
static void wait_other(struct sim *sim, void *arg)
{
	struct wait_case *c = arg;

	sim_sleep_until(sim, 600 * SIM_NSEC_PER_USEC);
	pg_lwlock_acquire(sim, &c->t->pg->xlog.write_lock);
	pg_lwlock_release(sim, &c->t->pg->xlog.write_lock);
}

/* A test of the wait events (pgstat_report_wait_start/_end): two backends
 * and the scenario above, 10 ms.  Expect backend 1's wait for the lock
 * (from 0.5 ms until it runs with the lock) under LWLock:WALWrite, the
 * read (the 100-us device) under IO:DataFileRead, the other task's wait
 * under nothing, and the figures to be those times over the backends'
 * time (2 x the clock, which stops at the last event), with "cpu" the
 * rest: the shares sum to 100. */
TEST(wait_events_of_backends)
{
	static const char *const kv[] = { "clients", "2", "data_cached", "0", NULL };
	struct pgt t;
	struct wait_case c = { .t = &t };
	struct wl_report r = { 0 };
	int kind;
	double sum = 0;

	ASSERT_EQ(pgt_create(&t, NULL, kv), 0);
	kind = sim_task_kind(t.e.sim, "backend");
	t.pg->backend_kind = kind;
	{
		struct sim_task_config b0 = { .name = "b0", .kind = kind, .cpu = SIM_CPU_ANY };
		struct sim_task_config b1 = { .name = "b1", .kind = kind, .cpu = SIM_CPU_ANY };

		/* the tasks' arg is their pg_proc, as pg_start_tasks gives it */
		wait_c = &c;
		sim_task_create(t.e.sim, &b0, wait_holder, &t.pg->backends[0], 0);
		sim_task_create(t.e.sim, &b1, wait_waiter, &t.pg->backends[1], 0);
	}
	pgt_task(&t, "other", wait_other, &c, 0);
	t.stats.interval_ns = MS;	/* samples every 1 ms: waits.csv's rows */
	pg_sample_start(t.pg);
	sim_call_at(t.e.sim, 10 * MS + 500 * SIM_NSEC_PER_USEC, nothing, NULL);	/* the clock's end */
	sim_run(t.e.sim, 10 * MS + 500 * SIM_NSEC_PER_USEC);
	ASSERT_TRUE(c.got >= 2 * MS && c.got < 2 * MS + 50 * SIM_NSEC_PER_USEC);
	/* from its try (0.5 ms and its wake-up's cost) to the instant it runs with the lock */
	ASSERT_TRUE(t.pg->wait_ns[PG_WAIT_LWLOCK_WALWRITE] <= c.got - 500 * SIM_NSEC_PER_USEC &&
		    t.pg->wait_ns[PG_WAIT_LWLOCK_WALWRITE] >= c.got - 510 * SIM_NSEC_PER_USEC);
	ASSERT_TRUE(t.pg->wait_ns[PG_WAIT_IO_DATAFILEREAD] >= 100 * SIM_NSEC_PER_USEC &&
		    t.pg->wait_ns[PG_WAIT_IO_DATAFILEREAD] < 200 * SIM_NSEC_PER_USEC);
	for (int e = 0; e < PG_WAIT_NR; e++)
		if (e != PG_WAIT_LWLOCK_WALWRITE && e != PG_WAIT_IO_DATAFILEREAD)
			ASSERT_U64_EQ(t.pg->wait_ns[e], 0);
	ASSERT_EQ(t.pg->backends[0].wait_event, PG_WAIT_CPU);
	ASSERT_EQ(t.pg->backends[1].wait_event, PG_WAIT_CPU);
	pgbench_workload.report(t.pg, &r);
	ASSERT_NEAR(report_figure(&r, "wait_lwlock_walwrite_pct"),
		    100.0 * (double)t.pg->wait_ns[PG_WAIT_LWLOCK_WALWRITE] / (2.0 * (double)sim_now(t.e.sim)),
		    1e-9);
	for (unsigned int i = 0; i < r.nr_figures; i++)
		if (!strncmp(r.figures[i].name, "wait_", 5))
			sum += r.figures[i].value;
	ASSERT_NEAR(sum, 100.0, 1e-9);
	ASSERT_TRUE(report_figure(&r, "wait_cpu_pct") > 0.0);
	ASSERT_NEAR(report_figure(&r, "wait_client_clientread_pct"), -1, 0);	/* none: not reported */

	/* waits.csv: rows ending at 1, 2, ... 10 ms and the last half
	 * interval to 10.5 ms; the columns of the events that occurred; each
	 * row sums to 100 %; in (1, 2] ms backend 1 waits for the lock
	 * throughout (50 % of two backends' time); the rows weighted by their
	 * length give the whole run's figures */
	{
		const struct wl_table *w = NULL;

		for (unsigned int k = 0; k < r.nr_tables; k++)
			if (!strcmp(r.tables[k].file, "waits.csv"))
				w = &r.tables[k];
		ASSERT_TRUE(w != NULL);
		ASSERT_EQ(w->nrows, 11);
		ASSERT_EQ(w->ncols, 4);
		ASSERT_STR_EQ(w->cols[0], "interval_end_s");
		ASSERT_STR_EQ(w->cols[1], "cpu");
		ASSERT_STR_EQ(w->cols[2], "lwlock_walwrite");
		ASSERT_STR_EQ(w->cols[3], "io_datafileread");
		ASSERT_NEAR(w->cells[0], 0.001, 1e-12);
		ASSERT_NEAR(w->cells[10 * 4], 0.0105, 1e-12);
		ASSERT_NEAR(w->cells[1 * 4 + 2], 50.0, 1e-9);
		for (unsigned int c2 = 1; c2 < 4; c2++) {
			double whole = 0;

			for (size_t k = 0; k < w->nrows; k++)
				whole += w->cells[k * 4 + c2] * (k < 10 ? 1.0 : 0.5) / 10.5;
			ASSERT_NEAR(whole, report_figure(&r, c2 == 1 ? "wait_cpu_pct" : c2 == 2 ? "wait_lwlock_walwrite_pct" :
							      "wait_io_datafileread_pct"), 1e-9);
		}
		for (size_t k = 0; k < w->nrows; k++)
			ASSERT_NEAR(w->cells[k * 4 + 1] + w->cells[k * 4 + 2] + w->cells[k * 4 + 3], 100.0, 1e-9);
	}
	pgt_destroy(&t);
}
