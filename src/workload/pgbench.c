/* SPDX-License-Identifier: MIT */
/*
 * pgbench.c — workload kind `pgbench`: PostgreSQL under pgbench
 * simple-update (`pgbench -b simple-update -M prepared`), the case of
 * the 2026 linux-mm thread, docs/references.md.  docs/pgbench.md is the overview; pg_internal.h the
 * shared state; pg_bufmgr.c, pg_xlog.c, pg_aux.c and pg_smgr.c the
 * PostgreSQL parts.
 *
 * Processes (PostgreSQL process model): the postmaster creates the main shared
 * memory segment — a shared anonymous mapping (shmem), or with
 * huge_pages=on|try a MAP_HUGETLB one from the hugetlb pool — and forks
 * one backend per client plus the checkpointer, bgwriter and walwriter.
 * fork copies no page tables for the shared mapping, so every process
 * builds its own by faulting as it touches buffers (mm_touch), 4 KiB of
 * PTE page per 2 MiB it has touched; with hugetlb the PMD pages are shared
 * and no PTE pages exist.  Each backend also touches `backend_memory` of
 * private memory once, and every process a page in each of the
 * `image_regions` 2 MiB regions of the process image (binary, libraries).
 *
 * One client = one task: a closed loop (pgbench -c, no think time).  One
 * loop, one transaction:
 *
 *   latency starts
 *   backend CPU (pg_tx_cpu)                           inline
 *   5 round trips to the client (pgbench_round_trip)  one timer sleep
 *   UPDATE pgbench_accounts ... WHERE aid = :aid      pkey descent (root ..
 *                                                     leaf, read), heap page
 *                                                     (write): HOT_UPDATE
 *                                                     record, + FPI if the
 *                                                     page's first change
 *                                                     since the REDO point
 *   SELECT abalance ... WHERE aid = :aid              descent + heap (read)
 *   INSERT INTO pgbench_history ...                   the backend's target
 *                                                     page (extension when
 *                                                     full): INSERT record
 *   END                                               COMMIT record,
 *                                                     XLogFlush: group commit
 *   latency ends
 *
 * aid is uniform over 1..100000 x scale; heap block = (aid-1) / rows per
 * page at the fillfactor (55 at 90 %); the leaf is (aid-1) / entries per
 * leaf (366 at the btree's 90 % leaf fill) and the inner levels follow by
 * the inner fanout (285 at 70 %): 4 levels at scale 8470 (docs/references.md
 * zone_batchsize/zone_highsize, mm/page_alloc.c).  11 buffer accesses per transaction.
 *
 * The CPU of a transaction is charged before the round-trip sleep rather
 * than between the statements: the closed loop's cycle (CPU + round trips
 * + commit wait) is the same, and the WAL records are inserted at the
 * virtual time the commit happens, so group commit sees them in the right
 * order.  The five round trips are one sleep (one event instead of five).
 *
 * --scale 1/N (pg_scale): the scale factor, explicit shared_buffers and
 * wal_buffers, WAL segment and max/min_wal_size, the recycled WAL at start
 * and the bgwriter's page budget shrink N-fold with the machine; clients
 * do not.  Page tables per backend are shared_buffers/512, so keeping the
 * client count keeps the page tables' share of RAM (the mechanism) while
 * memory, CPUs and transactions shrink; docs/pgbench.md has the argument.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/memory.h"
#include "mm/mmzone.h"
#include "mm/vmstat.h"
#include "sim/bdev.h"
#include "workload/pg_internal.h"
#include "workload/pgbench.h"

#define PG_HISTORY_ROWS		157u	/* (8168 - 52) / 52 + 1 at fillfactor 100 */
#define PG_BTREE_LEAF_FILL	90u	/* BTREE_DEFAULT_FILLFACTOR */
#define PG_BTREE_INNER_FILL	70u	/* BTREE_NONLEAF_FILLFACTOR */

static const char *const huge_pages_names[] = { "off", "on", "try", NULL };

#define C(f) offsetof(struct pg_config, f)
static const char *const client_names[] = { "remote", "local", NULL };

static const struct opt_def pg_options[] = {
	{ "clients", OPT_UINT, C(clients), "1024", 1, 100000, NULL, 0,
	  "pgbench -c: clients, one backend each (--scale keeps it: docs/pgbench.md)" },
	{ "scale", OPT_UINT, C(scale), "8470", 1, 1000000, NULL, 0,
	  "pgbench -i -s: 100000 x scale rows in pgbench_accounts (--scale 1/N divides it)" },
	{ "fillfactor", OPT_UINT, C(fillfactor), "90", 10, 100, NULL, 0,
	  "pgbench -i --fillfactor, percent (pgbench_accounts heap)" },
	{ "shared_buffers", OPT_SIZE, C(shared_buffers), "0", 0, 0, NULL, 0,
	  "buffer pool size; 0 = MemTotal/4 in MB, as aws/repro-collection's main.sh" },
	{ "huge_pages", OPT_ENUM, C(huge_pages), "off", 0, 0, huge_pages_names, 0,
	  "off: shared memory in 4 KiB pages; on: MAP_HUGETLB from the pool (vm.nr_hugepages), error if "
	  "too small; try: hugetlb if the pool suffices, else 4 KiB" },
	{ "wal_buffers", OPT_SIZE, C(wal_buffers), "64m", 32768, 1ULL << 31, NULL, 0,
	  "WAL buffer ring (--scale 1/N divides it)" },
	{ "wal_segment_size", OPT_SIZE, C(wal_segment_size), "64m", 1 << 20, 1ULL << 30, NULL, 0,
	  "initdb --wal-segsize: a power of two, 1 MiB..1 GiB (--scale 1/N divides it)" },
	{ "segment_size", OPT_SIZE, C(segment_size), "1g", 1 << 20, 1ULL << 32, NULL, 0,
	  "relation segment file size (RELSEG_SIZE, configure --with-segsize; the read-only GUC "
	  "segment_size), a multiple of 8 KiB (--scale 1/N divides it, keeping the number of files)" },
	{ "checkpoint_timeout", OPT_TIME, C(checkpoint_timeout), "5m", 30 * SIM_NSEC_PER_SEC,
	  86400 * SIM_NSEC_PER_SEC, NULL, SIM_NSEC_PER_SEC, "time between checkpoints; bare numbers are s" },
	{ "checkpoint_completion_target", OPT_PERCENT, C(checkpoint_completion_target), "0.9", 0, 1000000,
	  NULL, 0, "share of checkpoint_timeout the checkpoint's writes are spread over" },
	{ "checkpoint_flush_after", OPT_SIZE, C(checkpoint_flush_after), "256k", 0, 2 << 20, NULL, 0,
	  "sync_file_range(WRITE) after this much checkpoint writing; 0 = never" },
	{ "max_wal_size", OPT_SIZE, C(max_wal_size), "512g", 2 << 20, 0, NULL, 0,
	  "WAL between REDO points that triggers a checkpoint; caps recycling (--scale divides it)" },
	{ "min_wal_size", OPT_SIZE, C(min_wal_size), "1g", 2 << 20, 0, NULL, 0,
	  "WAL segments always kept for recycling (--scale divides it)" },
	{ "wal_recycle", OPT_BOOL, C(wal_recycle), "on", 0, 0, NULL, 0,
	  "recycle old WAL segments by renaming them (else unlink)" },
	{ "wal_init_zero", OPT_BOOL, C(wal_init_zero), "on", 0, 0, NULL, 0,
	  "zero-fill new WAL segments (pg_pwrite_zeros)" },
	{ "full_page_writes", OPT_BOOL, C(full_page_writes), "on", 0, 0, NULL, 0,
	  "log a full-page image at a page's first change after each checkpoint" },
	{ "synchronous_commit", OPT_BOOL, C(synchronous_commit), "on", 0, 0, NULL, 0,
	  "commits wait for their WAL flush (off: they do not)" },
	{ "client", OPT_ENUM, C(client), "remote", 0, 0, client_names, 0,
	  "where pgbench runs: remote = on another machine, 5 x pgbench_round_trip of sleep per "
	  "transaction; local = on this machine over loopback TCP (the reported runs): `threads` "
	  "client tasks on the same CPUs, a send and a receive per statement on both ends" },
	{ "threads", OPT_UINT, C(threads), "96", 1, 100000, NULL, 0,
	  "pgbench -j: client threads with client=local (--scale divides it)" },
	{ "tlb_misses", OPT_BOOL, C(tlb_misses), "off", 0, 0, NULL, 0,
	  "charge a page walk (tlb_walk_4k, tlb_walk_2m) for each process touch that misses "
	  "its CPU's TLB (tlb_entries, shared by the processes on that CPU; 2 MiB entries for "
	  "the hugetlb segment); off: translations are free" },
	{ "tlb_entries", OPT_UINT, C(tlb_entries), "2048", 16, 1u << 20, NULL, 0,
	  "entries of each CPU's TLB, direct-mapped (Neoverse V2, Graviton4: a 2048-entry L2 "
	  "TLB)" },
	{ "locks", OPT_BOOL, C(locks), "off", 0, 0, NULL, 0,
	  "PostgreSQL's locks as locks whose holders can fault, stall or be preempted: "
	  "buffer_strategy_lock and the WAL's insertpos_lck as spinlocks (s_lock: spin "
	  "spins_per_delay times, then sleep 1 ms growing to 1 s), the 8 WAL insertion LWLocks, "
	  "which XLogFlush waits for "
	  "(WaitXLogInsertionsToFinish), the 128 buffer mapping partition LWLocks, the "
	  "buffer mapping table's 32 free-list spinlocks (an insert's pop reads the element "
	  "under the spinlock) and ProcArrayLock (snapshots share, commits exclusive or by "
	  "group XID clearing); off: their work is a CPU cost" },
	{ "wal_writer_delay", OPT_TIME, C(wal_writer_delay), "200ms", SIM_NSEC_PER_MSEC,
	  10 * SIM_NSEC_PER_SEC, NULL, SIM_NSEC_PER_MSEC, "walwriter round interval; bare numbers are ms" },
	{ "wal_writer_flush_after", OPT_SIZE, C(wal_writer_flush_after), "1m", 0, 0, NULL, 0,
	  "walwriter flushes once this much WAL is written but not flushed (--scale divides it)" },
	{ "bgwriter_delay", OPT_TIME, C(bgwriter_delay), "200ms", 10 * SIM_NSEC_PER_MSEC,
	  10 * SIM_NSEC_PER_SEC, NULL, SIM_NSEC_PER_MSEC, "bgwriter round interval; bare numbers are ms" },
	{ "bgwriter_lru_maxpages", OPT_UINT, C(bgwriter_lru_maxpages), "100", 0, 1073741823, NULL, 0,
	  "bgwriter writes at most this many buffers per round; 0 disables (--scale divides it)" },
	{ "bgwriter_lru_multiplier", OPT_STRING, C(bgwriter_lru_multiplier), "2.0", 0, 0, NULL, 0,
	  "bgwriter cleans this multiple of the recent allocation rate ahead of the clock hand (0..10)" },
	{ "bgwriter_flush_after", OPT_SIZE, C(bgwriter_flush_after), "512k", 0, 2 << 20, NULL, 0,
	  "sync_file_range(WRITE) after this much bgwriter writing; 0 = never" },
	{ "backend_flush_after", OPT_SIZE, C(backend_flush_after), "0", 0, 2 << 20, NULL, 0,
	  "sync_file_range(WRITE) after this much backend eviction writing; 0 = never" },
	{ "device", OPT_STRING, C(device), "", 0, 0, NULL, 0,
	  "the [device NAME] with the XFS-like filesystem holding the data directory and pg_wal" },
	{ "data_cached", OPT_PERCENT, C(data_cached), "100%", 0, 1000000, NULL, 0,
	  "share of the data files' blocks in the page cache at start (pgbench -i just wrote them)" },
	{ "wal_recycled", OPT_SIZE, C(wal_recycled), "256g", 0, 0, NULL, 0,
	  "recycled WAL segments ready ahead of the insert position at start (cached: wal_cached), "
	  "as a previous 1200 s run's last checkpoint leaves them: (1 + 0.9) x 1.1 x ~100 GB of WAL "
	  "per cycle (XLOGfileslop); --scale divides it" },
	{ "wal_cached", OPT_PERCENT, C(wal_cached), "0%", 0, 1000000, NULL, 0,
	  "share of the WAL segments present at start (wal_recycled, wal_since_redo) in the page "
	  "cache: 0 where reclaim has taken them (the m8g case: every WAL write allocates), near "
	  "100% on a machine without memory pressure (pgbench-local measures it: wal_cached_pct)" },
	{ "backend_memory", OPT_SIZE, C(backend_memory), "4m", 0, 1ULL << 32, NULL, 0,
	  "private memory each backend touches once (PostgreSQL process model: 2-10 MiB per connection)" },
	{ "image_regions", OPT_UINT, C(image_regions), "22", 0, 4096, NULL, 0,
	  "2 MiB regions of the process image (the postgres binary, its shared libraries, locale "
	  "files, vdso) in which every PostgreSQL process has pages mapped, so a PTE page each: 22 "
	  "for a backend of Debian's PostgreSQL 15 on x86-64 (/proc/PID/smaps, docs/pgbench.md)" },
	{ "wal_since_redo", OPT_SIZE, C(wal_since_redo), "0", 0, 0, NULL, 0,
	  "WAL written since the last checkpoint's REDO point at start, in segment files behind the "
	  "insert position: the first checkpoint max_wal_size asks for comes this much sooner "
	  "(a recording's wal_since_redo_mb); --scale divides it" },
	{ "log", OPT_BOOL, C(log), "off", 0, 0, NULL, 0,
	  "pgbench -l: write each measured transaction to pgbench_log in the result folder, in "
	  "pgbench's format (client_id transaction_no time script_no time_epoch time_us; the "
	  "latency in us, the end in simulated s and us since the run's start)" },
	{ "sampling_rate", OPT_PERCENT, C(sampling_rate), "100%", 1, 1000000, NULL, 0,
	  "pgbench --sampling-rate: the share of transactions `log` writes, drawn from a "
	  "stream of its own (no other draw moves)" },
	OPT_END
};
#undef C

/* ---- options ---------------------------------------------------------------------- */

static int parse_multiplier(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v >= 0 && v <= 10))
		return -1;
	*out = v;
	return 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int pg_validate(const void *config, char *err, size_t errlen)
{
	const struct pg_config *c = config;
	double mult;

	if (!c->device || !c->device[0]) {
		snprintf(err, errlen, "device= is required (the [device NAME] holding the database)");
		return -1;
	}
	if (parse_multiplier(c->bgwriter_lru_multiplier, &mult)) {
		snprintf(err, errlen, "invalid bgwriter_lru_multiplier '%s' (expected a number 0..10)",
			 c->bgwriter_lru_multiplier ? c->bgwriter_lru_multiplier : "");
		return -1;
	}
	if (!is_pow2(c->wal_segment_size)) {
		snprintf(err, errlen, "wal_segment_size must be a power of two");
		return -1;
	}
	if (c->segment_size % PG_BLCKSZ) {
		snprintf(err, errlen, "segment_size must be a multiple of 8 KiB");
		return -1;
	}
	if (c->wal_buffers % PG_XLOG_BLCKSZ) {
		snprintf(err, errlen, "wal_buffers must be a multiple of 8 KiB");
		return -1;
	}
	if (c->shared_buffers && c->shared_buffers < 16 * PG_BLCKSZ) {
		snprintf(err, errlen, "shared_buffers must be at least 128 KiB (16 buffers)");
		return -1;
	}
	if (c->min_wal_size < 2 * c->wal_segment_size || c->max_wal_size < 2 * c->wal_segment_size) {
		snprintf(err, errlen, "min_wal_size and max_wal_size must be at least 2 WAL segments");
		return -1;
	}
	if (c->min_wal_size > c->max_wal_size) {
		snprintf(err, errlen, "min_wal_size is above max_wal_size");
		return -1;
	}
	return 0;
}

/* Rows per heap page at a fillfactor: the insert stops when the free space
 * after it would drop below BLCKSZ * (100 - ff) / 100 (fillfactor). */
static uint32_t heap_rows_per_page(uint64_t ff)
{
	uint32_t save = (uint32_t)(PG_BLCKSZ * (100 - ff) / 100);
	uint32_t item = PG_ACCOUNTS_TUPLE + PG_LINE_POINTER;
	uint32_t usable = PG_BLCKSZ - PG_PAGE_HEADER - PG_LINE_POINTER - PG_ACCOUNTS_TUPLE;

	return usable >= save ? (usable - save) / item + 1 : 1;
}

/*
 * shared_buffers is memory the postmaster maps and the buffer manager
 * walks at start: larger than the machine's memory it cannot be resident,
 * and 1t on a 32 MiB machine once kept the start busy for minutes on 2 GiB
 * of host bookkeeping (simulation fuzzer).  0 (a quarter of memory) fits.
 */
/* "wal_recycled=N MiB[ and wal_since_redo=M MiB]": the WAL at start, for
 * messages */
static const char *pg_wal_start_what(const struct pg_config *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "wal_recycled=%llu MiB", (unsigned long long)(c->wal_recycled >> 20));

	if (c->wal_since_redo && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " and wal_since_redo=%llu MiB",
			 (unsigned long long)(c->wal_since_redo >> 20));
	return buf;
}

static int pg_validate_env(const void *config, const struct wl_check_env *env, const char **bad_key,
			   char *err, size_t errlen)
{
	const struct pg_config *c = config;
	const struct bdev_config *dev;

	if (env->machine && c->shared_buffers > env->machine->memory) {
		*bad_key = "shared_buffers";
		snprintf(err, errlen, "shared_buffers (%llu MiB) is larger than the machine's memory (%llu MiB)",
			 (unsigned long long)(c->shared_buffers >> 20),
			 (unsigned long long)(env->machine->memory >> 20));
		return -1;
	}
	dev = env->device ? env->device(env->ctx, c->device) : NULL;
	if (dev && dev->size_bytes) {
		/* pgbench_accounts' heap alone, before its index and the WAL:
		 * the start would otherwise size the per-block tables for a
		 * database the device cannot hold (scale 999999 on 4 GiB kept
		 * the start busy on 13 GB of host memory: simulation fuzzer) */
		uint64_t rows = 100000ULL * c->scale, per = heap_rows_per_page(c->fillfactor);
		uint64_t heap = (rows + per - 1) / per * PG_BLCKSZ;

		if (heap > dev->size_bytes) {
			*bad_key = "scale";
			snprintf(err, errlen, "pgbench_accounts at scale %llu (%llu GiB of heap) does not fit on "
				 "device '%s' (%llu GiB)", (unsigned long long)c->scale,
				 (unsigned long long)(heap >> 30), c->device,
				 (unsigned long long)(dev->size_bytes >> 30));
			return -1;
		}
	}
	if (dev && dev->size_bytes && c->wal_segment_size) {
		/* the recycled segments at start: each file takes whole
		 * allocation granules (pg_xlog_init; the run says the same) */
		uint64_t nseg = pg_wal_start_segments(c);
		uint64_t per = (c->wal_segment_size + FS_ALLOC_GRANULE - 1) / FS_ALLOC_GRANULE * FS_ALLOC_GRANULE;

		if (nseg > dev->size_bytes / per) {
			*bad_key = "wal_recycled";
			char what[96];

			snprintf(err, errlen, "the WAL at start (%s in %llu-MiB segments, each taking a %llu-MiB "
				 "allocation granule) does not fit on device '%s' (%llu GiB)",
				 pg_wal_start_what(c, what, sizeof(what)),
				 (unsigned long long)(c->wal_segment_size >> 20),
				 (unsigned long long)(FS_ALLOC_GRANULE >> 20), c->device,
				 (unsigned long long)(dev->size_bytes >> 30));
			return -1;
		}
	}
	return 0;
}

static uint64_t div_min(uint64_t v, unsigned int n, uint64_t min)
{
	return v / n > min ? v / n : (v < min ? v : min);
}

static int pg_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct pg_config *c = config;
	uint64_t seg = c->wal_segment_size / n;

	c->scale = c->scale / n ? c->scale / n : 1;
	c->threads = c->threads / n ? c->threads / n : 1;
	c->segment_size = div_min(c->segment_size, n, 1 << 20) / PG_BLCKSZ * PG_BLCKSZ;
	if (c->shared_buffers)
		c->shared_buffers = div_min(c->shared_buffers, n, 16 * PG_BLCKSZ) / PG_BLCKSZ * PG_BLCKSZ;
	c->wal_buffers = div_min(c->wal_buffers, n, 32768) / PG_XLOG_BLCKSZ * PG_XLOG_BLCKSZ;
	while (seg & (seg - 1))			/* round down to a power of two */
		seg &= seg - 1;
	c->wal_segment_size = seg < (1u << 20) ? (c->wal_segment_size < (1u << 20) ? c->wal_segment_size : 1u << 20)
					       : seg;
	c->max_wal_size = div_min(c->max_wal_size, n, 2 * c->wal_segment_size);
	c->min_wal_size = div_min(c->min_wal_size, n, 2 * c->wal_segment_size);
	c->wal_recycled /= n;
	c->wal_since_redo /= n;
	c->wal_writer_flush_after /= n;
	if (c->bgwriter_lru_maxpages)
		c->bgwriter_lru_maxpages = div_min(c->bgwriter_lru_maxpages, n, 1);
	(void)err;
	(void)errlen;
	return 0;
}

/* ---- memory ------------------------------------------------------------------------ */

/*
 * The cost of address translation ([pgbench] tlb_misses): each CPU's TLB
 * as one direct-mapped array of tlb_entries, tagged by process (ASID) and
 * virtual page — 2 MiB pages for the hugetlb segment, 4 KiB otherwise —
 * so the ~11 processes that share a CPU share its reach.  A miss costs a
 * page walk: tlb_walk_4k when the leaf is a PTE (its cache line is seldom
 * cached when page tables are a large share of RAM), tlb_walk_2m when it
 * is a PMD entry.  Simplified: one TLB level, no walk caches, a context
 * switch flushes nothing (ASIDs).
 */
static uint64_t *pg_tlb_slot(struct pg_proc *p, unsigned long addr, bool *huge, uint64_t *tag)
{
	struct pg *pg = p->pg;
	uint64_t n = pg->cfg.tlb_entries;

	*huge = pg->hugetlb && addr - pg->shm_base < pg->shm_size;
	*tag = ((uint64_t)(addr >> (*huge ? 21 : PAGE_SHIFT)) << 20) | p->asid;
	return &pg->tlb[(uint64_t)sim_cpu(pg->sim) * n + (*tag * 0x9e3779b97f4a7c15ULL >> 20) % n];
}

static void pg_tlb_access(struct pg_proc *p, unsigned long addr)
{
	struct pg *pg = p->pg;
	bool huge;
	uint64_t tag, *e = pg_tlb_slot(p, addr, &huge, &tag);

	if (*e == tag)
		return;
	*e = tag;
	if (huge) {
		pg->tlb_misses_2m++;
		sim_charge_cost(pg->sim, COST_tlb_walk_2m, 1);
	} else {
		pg->tlb_misses_4k++;
		sim_charge_cost(pg->sim, COST_tlb_walk_4k, 1);
	}
}

/*
 * A user access to `addr`.  Translation is mm_touch(): a page the process
 * has mapped costs one test of its PTE mirror (memory.h, inline for the
 * shared segment), an unmapped one faults.  (An earlier per-process
 * cache of recently found translations in front of it answered 65 % of
 * touches but cost a host cache miss of its own on every touch; without
 * it the run is faster and every result is the same, since a present
 * test has no effect.)
 */
void pg_touch(struct pg_proc *p, unsigned long addr, bool write)
{
	if (p->pg->on_touch)
		p->pg->on_touch(p, addr, write);
	if (p->pg->tlb)
		pg_tlb_access(p, addr);
	if (mm_touch(p->mm, addr, write))
		p->st.fault_errors++;
}

void pg_image_touch(struct pg_proc *p)
{
	for (uint64_t r = 0; r < p->pg->cfg.image_regions; r++)
		pg_touch(p, p->pg->image_base + r * PMD_SIZE, false);
}

/* ---- transactions ------------------------------------------------------------------ */

bool pg_needs_fpi(const struct pg *pg, uint32_t blk)
{
	return pg->cfg.full_page_writes && pg->bp.blk_epoch[blk] != pg->xlog.epoch;
}

/*
 * XLogInsert() of a record of `len` bytes that changes block `blk`, held
 * in buffer `buf`: with a full-page image of `fpi_bytes` (0: never, as for
 * XLOG_HEAP_INIT_PAGE) when full_page_writes is on and the page has not
 * been logged since the last REDO point (XLogRecordAssemble's test); then
 * MarkBufferDirty + PageSetLSN.
 */
void pg_log_page_change(struct pg_proc *p, uint32_t buf, uint32_t blk, uint32_t len, uint32_t fpi_bytes)
{
	struct pg *pg = p->pg;
	uint64_t lsn;

	if (fpi_bytes && pg_needs_fpi(pg, blk)) {
		len += fpi_bytes;
		pg->xlog.fpi++;
		pg->tx_fpi++;
	}
	lsn = pg_xlog_insert(p, len);
	pg->bp.blk_epoch[blk] = pg->xlog.epoch;
	pg_mark_dirty(pg, buf, lsn);
}

/* _bt_search: root to leaf, each page read-locked and released before
 * the child (_bt_relandgetbuf); for an insert the leaf is locked for
 * writing and kept. */
uint32_t pg_btree_descend(struct pg_proc *p, uint64_t row, bool leaf_write)
{
	struct pg *pg = p->pg;
	uint64_t leaf = row / pg->leaf_tuples;

	for (int l = (int)pg->nlevels - 1; l >= 0; l--) {
		uint64_t idx = leaf;
		uint32_t buf;

		for (int k = 0; k < l; k++)
			idx /= pg->fanout;
		buf = pg_read_buffer(p, pg->level_first[l] + (uint32_t)idx, leaf_write && l == 0);
		if (leaf_write && l == 0)
			return buf;
		pg_release_buffer(p, buf);
	}
	return PG_NONE;
}

/* heap_insert into pgbench_history via RelationGetBufferForTuple. */
static void history_insert(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	uint32_t buf, blk;
	bool init_page = false;

	sim_path_push(pg->sim, "INSERT");
	if (p->hist_blk != PG_NONE && p->hist_rows < PG_HISTORY_ROWS) {
		blk = p->hist_blk;
		buf = pg_read_buffer(p, blk, true);
	} else if (pg_fsm_pop(&pg->tail[PG_REL_HISTORY], &blk)) {
		buf = pg_read_buffer(p, blk, true);
		p->hist_rows = 0;
		init_page = true;
	} else {
		buf = pg_relation_add_blocks(p, PG_REL_HISTORY, &blk);
		p->hist_rows = 0;
		init_page = true;
	}
	p->hist_blk = blk;
	/* XLOG_HEAP_INSERT; on an empty page with XLOG_HEAP_INIT_PAGE (no image) */
	pg_log_page_change(p, buf, blk, PG_REC_INSERT, init_page ? 0 :
			PG_PAGE_HEADER + p->hist_rows * (PG_HISTORY_TUPLE + PG_LINE_POINTER) +
			PG_BKP_IMAGE_HEADER);
	p->hist_rows++;
	pg_release_buffer(p, buf);
	sim_path_pop(pg->sim);
}

/* ---- ProcArrayLock ([pgbench] locks; procarray.c, PostgreSQL 15-17) ------------------ */

/* Statements per simple-update transaction that take a snapshot (UPDATE,
 * SELECT, INSERT under READ COMMITTED; BEGIN and END take none). */
#define PG_SNAPSHOTS_PER_TX	3

uint64_t pg_tx_cpu_unmodelled(const struct pg *pg)
{
	const struct cost_table *c = sim_costs(pg->sim);
	uint64_t cpu = cost_ns(c, COST_pg_tx_cpu, 1), own;

	if (!pg->cfg.locks)
		return cpu;
	own = cost_ns(c, COST_pg_get_snapshot, PG_SNAPSHOTS_PER_TX) + cost_ns(c, COST_pg_proc_array_end, 1);
	return cpu > own ? cpu - own : 0;
}

/* GetSnapshotData(): its pass over the proc array under ProcArrayLock
 * share (the PostgreSQL 14+ dense arrays; the snapshot-reuse shortcut,
 * which needs no transaction to have ended since the last snapshot, never
 * applies at these commit rates and is not modelled). */
void pg_get_snapshot(struct pg_proc *p)
{
	struct pg *pg = p->pg;

	sim_path_push(pg->sim, "GetSnapshotData");
	pg_lwlock_acquire_shared(pg->sim, &pg->proc_array_lock);
	sim_charge_cost(pg->sim, COST_pg_get_snapshot, 1);
	pg_touch(p, pg->shm_base + pg->off_misc, false);	/* ProcGlobal's arrays */
	pg_lwlock_release_shared(pg->sim, &pg->proc_array_lock);
	sim_path_pop(pg->sim);
}

/*
 * ProcArrayEndTransaction() for a transaction with an XID: ProcArrayLock
 * exclusive if it is free at once (LWLockConditionalAcquire), else group
 * XID clearing (ProcArrayGroupClearXid): the backend pushes itself on the
 * group list; the one that found the list empty is the leader, takes the
 * lock (sleeping for it), takes the whole list — members that joined while
 * it waited included —, clears every member's XID, releases the lock and
 * wakes the others, who sleep on their PGPROC semaphore until then.
 */
void pg_proc_array_end_transaction(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct sim *sim = pg->sim;
	uint32_t next;

	sim_path_push(sim, "ProcArrayEndTransaction");
	if (pg_lwlock_conditional_acquire(sim, &pg->proc_array_lock)) {
		sim_charge_cost(sim, COST_pg_proc_array_end, 1);
		pg_lwlock_release(sim, &pg->proc_array_lock);
		sim_path_pop(sim);
		return;
	}
	p->group_member = true;
	p->group_next = pg->group_first;
	pg->group_first = p->id + 1;
	if (p->group_next) {			/* a follower: the leader clears us */
		pgstat_report_wait_start(p, PG_WAIT_IPC_PROCARRAYGROUPUPDATE);
		sim_wait_event(sim, &p->sem, !p->group_member);
		pgstat_report_wait_end(p);
		sim_path_pop(sim);
		return;
	}
	pg_lwlock_acquire(sim, &pg->proc_array_lock);
	next = pg->group_first;			/* pg_atomic_exchange_u32: the whole list */
	pg->group_first = 0;
	pg->group_leaders++;
	for (uint32_t i = next; i; i = pg->backends[i - 1].group_next) {
		sim_charge_cost(sim, COST_pg_proc_array_end, 1);
		pg->group_cleared++;
	}
	pg_lwlock_release(sim, &pg->proc_array_lock);
	while (next) {
		struct pg_proc *m = &pg->backends[next - 1];

		next = m->group_next;
		m->group_next = 0;
		m->group_member = false;
		if (m != p)
			sim_wake_one(sim, &m->sem);
	}
	sim_path_pop(sim);
}

/*
 * Host cache hints for a transaction's two random blocks, the heap page
 * `heap` and the pkey leaf of `row` (pg_prefetch_block); they change nothing in
 * the model.  Stage 1 when the row is drawn, a client round trip or the
 * round-trip sleep before the statement; stage 2 when the UPDATE arrives.
 */
static void pg_prefetch_tx(struct pg_proc *p, uint64_t row, uint32_t heap, bool stage2)
{
	struct pg *pg = p->pg;

	pg_prefetch_block(p, pg->rel[PG_REL_ACCOUNTS].first + heap, stage2);
	pg_prefetch_block(p, pg->level_first[0] + (uint32_t)(row / pg->leaf_tuples), stage2);
	if (!stage2)
		__builtin_prefetch(&pg->heap_page[heap]);
}

/* pg_tlb_access's slot for `addr` on the running CPU, as a host hint. */
void pg_tlb_prefetch(struct pg_proc *p, unsigned long addr)
{
	bool huge;
	uint64_t tag;

	if (p->pg->tlb)
		__builtin_prefetch(pg_tlb_slot(p, addr, &huge, &tag));
}

/* The next transaction's row (aid - 1), with the stage-1 hints. */
static uint64_t pg_next_row(struct pg_proc *p)
{
	uint64_t row = rng_below(&p->rng, p->pg->naccounts);

	pg_prefetch_tx(p, row, pg_heap_block(p->pg, row), false);
	return row;
}

static void pg_transaction_row(struct pg_proc *p, uint64_t row)
{
	struct pg *pg = p->pg;
	uint32_t heap = pg_heap_block(pg, row), first = pg->rel[PG_REL_ACCOUNTS].first, buf;
	uint64_t lsn, misses;

	/* UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid */
	sim_path_push(pg->sim, "UPDATE");
	pg_stmt_begin(p);
	pg_prefetch_tx(p, row, heap, true);
	if (pg->cfg.locks)
		pg_get_snapshot(p);
	pg_btree_descend(p, row, false);
	misses = p->st.buffer_misses;
	buf = pg_read_buffer(p, first + heap, true);
	pg->heap_accesses++;
	pg->heap_hits += p->st.buffer_misses == misses;
	pg_heap_page_prune_opt(p, heap, buf);
	pg_heap_update(p, row, heap, buf);
	pg_release_buffer(p, buf);
	pg_stmt_end(p);
	sim_path_pop(pg->sim);

	/* SELECT abalance FROM pgbench_accounts WHERE aid = :aid */
	sim_path_push(pg->sim, "SELECT");
	pg_stmt_begin(p);
	if (pg->cfg.locks)
		pg_get_snapshot(p);
	pg_btree_descend(p, row, false);
	heap = pg_heap_block(pg, row);
	buf = pg_read_buffer(p, first + heap, false);
	pg_heap_page_prune_opt(p, heap, buf);
	pg_release_buffer(p, buf);
	pg_stmt_end(p);
	sim_path_pop(pg->sim);

	/* INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) */
	pg_stmt_begin(p);
	if (pg->cfg.locks)
		pg_get_snapshot(p);
	history_insert(p);
	pg_stmt_end(p);

	/* END: RecordTransactionCommit */
	sim_path_push(pg->sim, "COMMIT");
	pg_stmt_begin(p);
	/* the backend's PGPROC and the shared ProcArray */
	pg_touch(p, pg->shm_base + pg->off_misc, true);
	pg_touch(p, pg->shm_base + pg->off_misc + PAGE_SIZE + (unsigned long)p->id * 1024, true);
	lsn = pg_xlog_insert(p, PG_REC_COMMIT);
	if (pg->cfg.synchronous_commit)
		pg_xlog_flush(p, lsn);
	p->upd_blk = PG_NONE;			/* its versions are committed */
	if (pg->cfg.locks)
		pg_proc_array_end_transaction(p);	/* CommitTransaction, after RecordTransactionCommit */
	pg_stmt_end(p);
	sim_path_pop(pg->sim);
}

void pg_transaction(struct pg_proc *p)
{
	pg_transaction_row(p, pg_next_row(p));
}

static void pg_backend_main(struct sim *sim, void *arg)
{
	struct pg_proc *p = arg;
	struct pg *pg = p->pg;

	/* backend start-up: the process image, catalog caches, palloc arenas */
	pg_image_touch(p);
	for (unsigned long off = 0; off < pg->cfg.backend_memory; off += PAGE_SIZE)
		pg_touch(p, p->private_base + off, true);
	while (pg->cfg.client == PG_CLIENT_LOCAL) {	/* the client measures (pg_client.c) */
		uint64_t row = pg_next_row(p);

		sim_path_push(sim, "BEGIN");
		pg_stmt_begin(p);
		pg_stmt_end(p);
		sim_path_pop(sim);
		pg_transaction_row(p, row);
	}
	for (;;) {
		sim_time_t t0 = sim_now(sim);
		uint64_t row = pg_next_row(p);

		sim_path_assert_empty(sim);
		sim_path_push(sim, "exec");
		sim_charge(sim, pg_tx_cpu_unmodelled(pg));
		sim_path_pop(sim);
		sim_path_push(sim, "client round trips");
		pgstat_report_wait_start(p, PG_WAIT_CLIENT_READ);
		/* read at each use: a --branch may change it mid-run */
		sim_sleep(sim, cost_ns(sim_costs(sim), COST_pgbench_round_trip, 5));
		pgstat_report_wait_end(p);
		sim_path_pop(sim);
		pg_transaction_row(p, row);
		pg_tx_done(pg, p, sim_now(sim) - t0);
	}
}

/*
 * pgbench's per-transaction log (pgbench -l, doLog in pgbench.c): one line
 * per transaction, "client_id transaction_no time script_no time_epoch
 * time_us", the latency in microseconds and the end as whole seconds and
 * microseconds.  Here the end is simulated time since the run's start (no
 * wall clock), the script is always 0 (simple-update), only transactions
 * the statistics count are written (after ramp_time), and --sampling-rate's
 * draw uses a stream of its own, so logging moves no other result.
 */
void pg_tx_done(struct pg *pg, struct pg_proc *p, sim_time_t latency)
{
	sim_time_t now = sim_now(pg->sim);
	uint64_t no = p->tx_no++;

	wl_stats_tx(pg->stats, now, latency);
	pg->tx_total++;
	if (!pg->txlog_path || pg->txlog_failed || now < pg->stats->measure_start)
		return;
	if (pg->cfg.sampling_rate < 1000000 && rng_below(&pg->log_rng, 1000000) >= pg->cfg.sampling_rate)
		return;
	if (!pg->txlog && !(pg->txlog = fopen(pg->txlog_path, "w"))) {
		snprintf(pg->txlog_error, sizeof(pg->txlog_error), "pgbench: log: cannot create %s: %s",
			 pg->txlog_path, strerror(errno));
		pg->txlog_failed = true;
		return;
	}
	if (fprintf(pg->txlog, "%u %llu %llu 0 %llu %06llu\n", (unsigned int)(p - pg->backends),
		    (unsigned long long)no, (unsigned long long)(latency / 1000),
		    (unsigned long long)(now / SIM_NSEC_PER_SEC),
		    (unsigned long long)(now % SIM_NSEC_PER_SEC / 1000)) < 0)
		pg->txlog_failed = true;
}

/* ---- start -------------------------------------------------------------------------- */

void pg_shapes(struct pg *pg)
{
	uint32_t usable = PG_BLCKSZ - PG_PAGE_HEADER - PG_BTREE_SPECIAL;
	uint64_t pages;
	uint32_t l = 0;

	pg->naccounts = 100000 * pg->cfg.scale;
	pg->rows_per_page = heap_rows_per_page(pg->cfg.fillfactor);
	pg->leaf_tuples = usable * PG_BTREE_LEAF_FILL / 100 / (PG_BTREE_TUPLE + PG_LINE_POINTER);
	/* a leaf's image: the header, the line pointers and tuples, the
	 * special space (the hole between them left out) */
	pg->leaf_fpi_bytes = PG_PAGE_HEADER + pg->leaf_tuples * (PG_BTREE_TUPLE + PG_LINE_POINTER) +
			     PG_BTREE_SPECIAL + PG_BKP_IMAGE_HEADER;
	pg->fanout = usable * PG_BTREE_INNER_FILL / 100 / (PG_BTREE_TUPLE + PG_LINE_POINTER);
	pages = (pg->naccounts + pg->leaf_tuples - 1) / pg->leaf_tuples;
	for (;;) {
		pg->level_pages[l] = (uint32_t)pages;
		l++;
		if (pages == 1 || l == PG_MAX_BTREE_LEVELS)
			break;
		pages = (pages + pg->fanout - 1) / pg->fanout;
	}
	pg->nlevels = l;
}

static unsigned long page_align(unsigned long v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/* CalculateShmemSize's big parts, in CreateOrAttachShmemStructs' order. */
static void pg_shmem_layout(struct pg *pg)
{
	unsigned long n = pg->bp.nbuffers, off = 0;

	pg->off_xlog = off;
	off += page_align(pg->cfg.wal_buffers + pg->xlog.nslots * 8UL + PAGE_SIZE);
	pg->off_desc = off;
	off += page_align(n * 64);
	pg->off_blocks = off;
	off += n * PG_BLCKSZ;
	pg->off_ckpt = off;
	off += page_align(n * 20);
	pg->off_hash = off;
	off += page_align(n * 40);
	pg->off_misc = off;
	/* PGPROC array, lock tables, CLOG buffers, ...: est. 64 MiB + 1 KiB per client */
	off += page_align((64UL << 20) + pg->cfg.clients * 1024UL);
	if (pg->cfg.locks) {
		/* the buffer mapping table as dynahash lays it out (hash_create of
		 * "Shared Buffer Lookup Table", NBuffers + NUM_BUFFER_PARTITIONS
		 * entries, fill factor 1): 40-byte elements, a bucket array of
		 * the next power of two of that many pointers (the segments;
		 * the small directory is left out) */
		uint32_t nelem = (uint32_t)n + PG_NUM_BUFFER_PARTITIONS, nb = 1;

		while (nb < nelem)
			nb <<= 1;
		pg->bp.nelem = nelem;
		pg->bp.nbuckets = nb;
		pg->off_elems = off;
		off += page_align((unsigned long)nelem * 40);
		pg->off_buckets = off;
		off += page_align((unsigned long)nb * 8);
	}
	pg->shm_size = off;
}

static struct pg_proc *proc_init(struct pg *pg, struct pg_proc *p, uint32_t id, const char *kind)
{
	p->pg = pg;
	p->id = id;
	p->is_backend = !strcmp(kind, "backend");
	p->hist_blk = PG_NONE;
	p->acct_blk = PG_NONE;
	p->upd_blk = PG_NONE;
	rng_init(&p->rng, sim_seed(pg->sim), rng_stream_id(kind, id));
	rng_init(&p->spin_rng, sim_seed(pg->sim), rng_stream_id(kind, id) ^ rng_stream_id("s_lock", 0));
	p->spins_per_delay = PG_DEFAULT_SPINS_PER_DELAY;
	p->asid = ++pg->nr_asids;
	p->lock_to_try = p->asid % PG_XLOG_INSERT_LOCKS;	/* pgprocno % NUM_XLOGINSERT_LOCKS */
	sim_waitq_init(&p->sem, "PGPROC sem");
	p->mm = mm_fork(pg->postmaster);
	return p->mm ? p : NULL;	/* NULL: memory cannot hold its page tables */
}

static void proc_release(struct pg_proc *p)
{
	free(p->wb.tags);
	p->wb.tags = NULL;
}

void pg_free(struct pg *pg)
{
	if (!pg)
		return;
	pg_bufmgr_release(pg);
	pg_xlog_release(pg);
	pg_smgr_release(pg);
	for (uint32_t i = 0; i < pg->nbackends; i++)
		proc_release(&pg->backends[i]);
	proc_release(&pg->checkpointer);
	proc_release(&pg->bgwriter);
	proc_release(&pg->walwriter);
	pg_client_release(pg);
	free(pg->backends);
	free(pg->buf_mapping);
	free(pg->hash_fl_lock);
	free(pg->tlb);
	free(pg->ckpt.t_start);
	free(pg->ckpt.t_write_end);
	free(pg->ckpt.t_end);
	free(pg->ckpt.buffers_written);
	pg_heap_release(pg);
	free(pg->pt_samples);
	free(pg->tps_tx);
	free(pg->wait_samples);
	free(pg->wal_samples);
	free(pg->sample_t);
	free(pg->wait_cells);
	free(pg->wal_cells);
	free(pg->ckpt_cells);
	free(pg);
}

/* The client backends' time under each wait event since they started,
 * the waits in progress counted up to now; PG_WAIT_CPU is left 0. */
static void pg_wait_snapshot(const struct pg *pg, sim_time_t now, uint64_t ns[PG_WAIT_NR])
{
	memcpy(ns, pg->wait_ns, sizeof(pg->wait_ns));
	for (uint32_t i = 0; i < pg->nbackends; i++)
		if (pg->backends[i].wait_event != PG_WAIT_CPU)
			ns[pg->backends[i].wait_event] += now - pg->backends[i].wait_start;
	ns[PG_WAIT_CPU] = 0;
}

/* pg_stat_wal's counters now (enum pg_wal_counter). */
static void pg_wal_snapshot(const struct pg *pg, uint64_t v[PG_WAL_NR])
{
	const struct pg_xlog *x = &pg->xlog;

	v[PG_WAL_RECORDS] = x->records;
	v[PG_WAL_FPI] = x->fpi;
	v[PG_WAL_BYTES] = x->bytes;
	v[PG_WAL_BUFFERS_FULL] = x->buffers_full;
	v[PG_WAL_WRITE] = x->writes;
	v[PG_WAL_SYNC] = x->fsyncs;
	v[PG_WAL_WRITE_TIME] = x->write_ns;
	v[PG_WAL_SYNC_TIME] = x->sync_ns;
}

/* Page-table pages, transactions, wait times and WAL counters every
 * interval (engine callback). */
static void pg_sample(struct sim *sim, void *arg)
{
	struct pg *pg = arg;
	unsigned long pt = global_node_page_state(pg->m, NR_PAGETABLE);

	if (pg->nr_tps == pg->cap_tps) {
		pg->cap_tps = pg->cap_tps ? pg->cap_tps * 2 : 256;
		pg->pt_samples = realloc(pg->pt_samples, pg->cap_tps * sizeof(*pg->pt_samples));
		pg->tps_tx = realloc(pg->tps_tx, pg->cap_tps * sizeof(*pg->tps_tx));
		pg->wait_samples = realloc(pg->wait_samples, pg->cap_tps * sizeof(*pg->wait_samples));
		pg->wal_samples = realloc(pg->wal_samples, pg->cap_tps * sizeof(*pg->wal_samples));
		pg->sample_t = realloc(pg->sample_t, pg->cap_tps * sizeof(*pg->sample_t));
		if (!pg->pt_samples || !pg->tps_tx || !pg->wait_samples || !pg->wal_samples || !pg->sample_t)
			SIM_BUG("out of memory for pgbench samples");
	}
	pg->pt_samples[pg->nr_tps] = pt;
	pg->tps_tx[pg->nr_tps] = pg->tx_total;
	pg->sample_t[pg->nr_tps] = sim_now(sim);
	pg_wait_snapshot(pg, sim_now(sim), pg->wait_samples[pg->nr_tps]);
	pg_wal_snapshot(pg, pg->wal_samples[pg->nr_tps]);
	pg->nr_tps++;
	if (pt > pg->pt_peak)
		pg->pt_peak = pt;
	sim_call_at(sim, sim_now(sim) + pg->stats->interval_ns, pg_sample, pg);
}

void pg_sample_start(struct pg *pg)
{
	sim_call_at(pg->sim, pg->stats->measure_start, pg_sample, pg);
}

static void start_task(struct pg *pg, struct pg_proc *p, int kind, const char *name, sim_task_fn fn)
{
	struct sim_task_config tc = { .name = name, .kind = kind, .cpu = SIM_CPU_ANY };

	p->task = sim_task_create(pg->sim, &tc, fn, p, 0);
}

struct pg *pg_setup(const struct wl_env *env, const struct pg_config *c, struct wl_stats *stats,
		    char *err, size_t errlen)
{
	struct pg *pg = calloc(1, sizeof(*pg));
	struct machine *m = env->machine;
	struct bdev *bdev;
	uint64_t memtotal, sb, need_huge;
	unsigned long addr;
	bool wal_full = false;
	int smgr_err, wal_err;
	char what[96];

	if (!pg)
		SIM_BUG("out of memory");
	if (!m) {
		snprintf(err, errlen, "the pgbench workload needs a machine");
		free(pg);
		return NULL;
	}
	bdev = wl_env_bdev(env, c->device);
	if (!bdev) {
		snprintf(err, errlen, "device '%s' does not exist (no [device %s] section)", c->device, c->device);
		free(pg);
		return NULL;
	}
	pg->cfg = *c;
	pg->backend_kind = -1;
	pg->m = m;
	pg->sim = env->sim;
	pg->stats = stats;
	parse_multiplier(c->bgwriter_lru_multiplier, &pg->lru_multiplier);
	pg->relseg_blocks = (uint32_t)(c->segment_size / PG_BLCKSZ);
	rng_init(&pg->init_rng, sim_seed(pg->sim), rng_stream_id("pgbench-init", 0));

	/* shared_buffers = MemTotal_MB / 4 MB unless given */
	memtotal = (uint64_t)m->totalram_pages * PAGE_SIZE;
	sb = c->shared_buffers ? c->shared_buffers : (memtotal >> 20) / 4 << 20;
	pg->bp.nbuffers = (uint32_t)(sb / PG_BLCKSZ);
	if (pg->bp.nbuffers < 16 || pg->bp.nbuffers < 4 * c->clients) {
		snprintf(err, errlen, "shared_buffers (%llu buffers) is too small for %llu clients (4 buffers each)",
			 (unsigned long long)pg->bp.nbuffers, (unsigned long long)c->clients);
		free(pg);
		return NULL;
	}
	pg->xlog.nslots = (uint32_t)(c->wal_buffers / PG_XLOG_BLCKSZ);
	pg_shapes(pg);
	pg_shmem_layout(pg);

	/* the postmaster and its shared memory (PGSharedMemoryCreate) */
	pg->postmaster = mm_create(m);
	if (!pg->postmaster) {	/* the machine's memory is taken before the start */
		snprintf(err, errlen, "the postmaster's page tables cannot be allocated: "
			 "the machine's free memory is exhausted before PostgreSQL starts");
		free(pg);
		return NULL;
	}
	need_huge = (pg->shm_size + PMD_SIZE - 1) / PMD_SIZE;
	if (c->huge_pages != PG_HUGE_OFF && hugetlb_free_pages(m) >= need_huge) {
		pg->hugetlb = true;
		pg->shm_size = need_huge * PMD_SIZE;
		pg->hshm = hugetlb_file_create(m, pg->shm_size, "PostgreSQL.main");
		addr = mm_mmap(pg->postmaster, pg->shm_size, VM_READ | VM_WRITE | VM_SHARED, NULL, NULL,
			       pg->hshm, 0, PMD_SIZE);
		hugetlb_file_put(pg->hshm);	/* the mapping holds it */
	} else if (c->huge_pages == PG_HUGE_ON) {
		snprintf(err, errlen, "huge_pages=on needs %llu free hugetlb pages for %llu MiB of shared memory, "
			 "the pool has %lu (set vm.nr_hugepages)", (unsigned long long)need_huge,
			 (unsigned long long)(pg->shm_size >> 20), hugetlb_free_pages(m));
		mm_exit(pg->postmaster);
		free(pg);
		return NULL;
	} else {
		/* the postmaster, its three auxiliary processes and the backends
		 * map it: their PTE mirrors side by side (host layout only) */
		mm_flat_expect(m, (unsigned int)c->clients + 4);
		pg->shm = shmem_create(m, pg->shm_size, "PostgreSQL.main");
		addr = mm_mmap(pg->postmaster, pg->shm_size, VM_READ | VM_WRITE | VM_SHARED, pg->shm, NULL,
			       NULL, 0, PAGE_SIZE);
		shmem_put(pg->shm);
	}
	if (!addr)
		SIM_BUG("pgbench: cannot map %lu bytes of shared memory", pg->shm_size);
	pg->shm_base = addr;

	/* The process image: the postgres binary, its shared libraries,
	 * locale files and vdso, spread over image_regions 2 MiB regions with
	 * pages mapped in each (the heap is backend_memory, the stack the
	 * stack VMA).  Modelled as one shared mapping (MAP_SHARED, a shmem
	 * object), which fork does not copy (dup_mmap copies the page tables
	 * of VMAs with an anon_vma only), so every process builds its own
	 * tables when it first runs: a PTE page per region (pg_image_touch).
	 * Simplified: in the kernel the writable data segments' tables are
	 * copied at fork and the text is refaulted on first use, from the page
	 * cache's copy that all processes share; here everything is refaulted,
	 * and the image is one page per region. */
	if (c->image_regions) {
		struct shmem_object *img = shmem_create(m, c->image_regions * PMD_SIZE, "postgres image");

		pg->image_base = mm_mmap(pg->postmaster, c->image_regions * PMD_SIZE, VM_READ | VM_SHARED, img,
					 NULL, NULL, 0, PMD_SIZE);
		shmem_put(img);
		if (!pg->image_base)
			SIM_BUG("pgbench: cannot map the %llu-region process image",
				(unsigned long long)c->image_regions);
		for (uint64_t r = 0; r < c->image_regions; r++)
			if (mm_touch(pg->postmaster, pg->image_base + r * PMD_SIZE, false)) {
				snprintf(err, errlen, "memory (%llu MiB) cannot hold the postmaster's process image",
					 (unsigned long long)(memtotal >> 20));
				mm_exit(pg->postmaster);
				free(pg);
				return NULL;
			}
	}

	/* the database files, WAL and the buffer pool */
	pg->sb = fs_mount(m, bdev, c->device, bdev_size(bdev));
	if (pg_heap_init(pg)) {
		snprintf(err, errlen, "out of host memory for pgbench_accounts' %u heap pages", pg->heap_blocks_max);
		pg_free(pg);
		return NULL;
	}
	smgr_err = pg_smgr_init(pg);
	wal_err = smgr_err ? 0 : pg_xlog_init(pg);
	if (wal_err == -ENOMEM) {
		snprintf(err, errlen, "the WAL at start (%s, wal_cached=%g%% of its pages in the page "
			 "cache) does not fit in memory beside the database",
			 pg_wal_start_what(c, what, sizeof(what)), (double)c->wal_cached / 1e4);
		pg_free(pg);
		return NULL;
	}
	wal_full = wal_err != 0;
	if (smgr_err || (!wal_full && pg_bufmgr_init(pg))) {
		snprintf(err, errlen, "the database (%llu MiB at scale %llu) does not fit on device '%s' or in memory",
			 (unsigned long long)((uint64_t)pg->rel[PG_REL_HISTORY].first * PG_BLCKSZ >> 20),
			 (unsigned long long)c->scale, c->device);
		pg_free(pg);
		return NULL;
	}
	if (wal_full) {
		/* each segment file takes at least one allocation granule */
		snprintf(err, errlen, "the WAL at start (%s in %llu-MiB segments, each taking a %llu-MiB "
			 "allocation granule) does not fit on device '%s' (%llu GiB) beside the database",
			 pg_wal_start_what(c, what, sizeof(what)),
			 (unsigned long long)(c->wal_segment_size >> 20),
			 (unsigned long long)(FS_ALLOC_GRANULE >> 20), c->device,
			 (unsigned long long)(bdev_size(bdev) >> 30));
		pg_free(pg);
		return NULL;
	}
	sim_mutex_init(pg->sim, &pg->tail[PG_REL_HISTORY].ext_lock, "pgbench_history extension");
	if (pg->heap_blocks_max > pg->rel[PG_REL_ACCOUNTS].nblocks)	/* it can grow */
		sim_mutex_init(pg->sim, &pg->tail[PG_REL_ACCOUNTS].ext_lock, "pgbench_accounts extension");
	if (c->locks) {
		sim_spin_init(pg->sim, &pg->strategy_lock, "buffer_strategy_lock");
		sim_spin_init(pg->sim, &pg->xlog.insertpos_lck, "insertpos_lck");
		pg->hash_fl_lock = calloc(PG_NUM_FREELISTS, sizeof(*pg->hash_fl_lock));
		if (!pg->hash_fl_lock)
			SIM_BUG("out of memory for the buffer mapping table's free-list locks");
		for (unsigned int k = 0; k < PG_NUM_FREELISTS; k++)
			sim_spin_init(pg->sim, &pg->hash_fl_lock[k], "BufMappingFreeList");
		pg->buf_mapping = calloc(PG_NUM_BUFFER_PARTITIONS, sizeof(*pg->buf_mapping));
		if (!pg->buf_mapping)
			SIM_BUG("out of memory for the buffer mapping locks");
		for (unsigned int k = 0; k < PG_NUM_BUFFER_PARTITIONS; k++)
			pg_lwlock_init(&pg->buf_mapping[k], pg, "BufferMapping");
		pg_lwlock_init(&pg->proc_array_lock, pg, "ProcArrayLock");
	}
	if (c->tlb_misses) {
		pg->tlb = calloc((size_t)sim_ncpus(pg->sim) * c->tlb_entries, sizeof(*pg->tlb));
		if (!pg->tlb)
			SIM_BUG("out of memory for the TLB model");
	}
	sim_waitq_init(&pg->ckpt_latch, "checkpointer latch");
	sim_waitq_init(&pg->bgw.latch, "bgwriter latch");

	/* fork: one backend per client, then the auxiliary processes */
	pg->nbackends = (uint32_t)c->clients;
	pg->backends = calloc(pg->nbackends, sizeof(*pg->backends));
	if (!pg->backends)
		SIM_BUG("out of memory");
	/* A fork that finds no memory for its page tables (100000 clients in
	 * 256 MiB, found by the simulation fuzzer) refuses the scenario: a
	 * PostgreSQL that cannot start its backends measures nothing. */
	if (!proc_init(pg, &pg->checkpointer, 0, "checkpointer") ||
	    !proc_init(pg, &pg->bgwriter, 0, "bgwriter") ||
	    !proc_init(pg, &pg->walwriter, 0, "walwriter"))
		goto no_fork;
	pg_wb_context_init(&pg->checkpointer.wb, c->checkpoint_flush_after);
	pg_wb_context_init(&pg->bgwriter.wb, c->bgwriter_flush_after);
	for (uint32_t i = 0; i < pg->nbackends; i++) {
		struct pg_proc *p = proc_init(pg, &pg->backends[i], i, "backend");

		if (!p)
			goto no_fork;
		pg_wb_context_init(&p->wb, c->backend_flush_after);
		if (c->backend_memory)
			p->private_base = mm_mmap(p->mm, c->backend_memory, VM_READ | VM_WRITE, NULL, NULL, NULL,
						  0, PAGE_SIZE);
	}
	if (c->client == PG_CLIENT_LOCAL && pg_client_init(pg))
		SIM_BUG("out of memory for the pgbench threads");
	pg_client_connect(pg);
	if (c->log && env->dir) {	/* created at the first transaction: the folder comes later */
		size_t n = strlen(env->dir) + sizeof("/pgbench_log");

		pg->txlog_path = malloc(n);
		if (!pg->txlog_path)
			SIM_BUG("out of memory");
		snprintf(pg->txlog_path, n, "%s/pgbench_log", env->dir);
		rng_init(&pg->log_rng, sim_seed(pg->sim), rng_stream_id("pgbench-log", 0));
	}

	return pg;

no_fork:
	snprintf(err, errlen, "memory (%llu MiB) cannot hold the page tables of %llu clients' backends "
		 "beside the database: fork failed (fewer clients or more memory)",
		 (unsigned long long)(memtotal >> 20), (unsigned long long)c->clients);
	pg_free(pg);
	return NULL;
}

void pg_start_tasks(struct pg *pg)
{
	int kind;

	start_task(pg, &pg->checkpointer, sim_task_kind(pg->sim, "checkpointer"), "checkpointer",
		   pg_checkpointer_main);
	start_task(pg, &pg->bgwriter, sim_task_kind(pg->sim, "bgwriter"), "bgwriter", pg_bgwriter_main);
	start_task(pg, &pg->walwriter, sim_task_kind(pg->sim, "walwriter"), "walwriter", pg_walwriter_main);
	kind = sim_task_kind(pg->sim, "backend");
	pg->backend_kind = kind;
	for (uint32_t i = 0; i < pg->nbackends; i++) {
		char name[32];

		snprintf(name, sizeof(name), "backend/%u", i);
		start_task(pg, &pg->backends[i], kind, name, pg_backend_main);
	}
	if (pg->cfg.client == PG_CLIENT_LOCAL)
		pg_client_start(pg);
	pg_sample_start(pg);
}

static void *pg_start_env(const struct wl_env *env, const void *config, const char *instance,
			  struct wl_stats *stats, char *err, size_t errlen)
{
	struct pg *pg = pg_setup(env, config, stats, err, errlen);

	(void)instance;
	if (pg)
		pg_start_tasks(pg);
	return pg;
}

/* ---- report --------------------------------------------------------------------------- */

/* A sum of interval TPS and how many intervals it holds. */
struct tps_window {
	double		sum;
	uint32_t	n;
};

static void tps_window_add(struct tps_window *w, double tps)
{
	w->sum += tps;
	w->n++;
}

static double tps_window_mean(const struct tps_window *w)
{
	return w->n ? w->sum / w->n : 0;
}

/*
 * The checkpoint dip (the 2026 linux-mm thread, docs/references.md: "during checkpoints the 10-second TPS
 * drops to roughly a third of its between-checkpoint rate").  With
 * checkpoint_completion_target 0.9 a checkpoint runs nearly all the time,
 * so "between" is taken as the last minute before each checkpoint starts
 * (the end of a cycle: few full-page images left) and "during" as the
 * first minute after it starts (REDO point: the full-page-image burst).
 * Whole measured intervals only; figures:
 *   checkpoint_tps_ratio         mean TPS in the first minutes / in the last minutes
 *   checkpoint_tps_lowest_ratio  lowest interval in a first minute / the same mean
 *   checkpoint_dip_share         share of all whole intervals whose TPS is below half
 *                                the last-minute mean (the thread's "dips": a mean
 *                                of ~102 k between ~150 k and ~45 k puts them at
 *                                about half of the run)
 */
#define PG_CKPT_WINDOW_NS	(60 * SIM_NSEC_PER_SEC)

/* TPS of interval k (0 after the last one any transaction ended in: the
 * series stops growing when nothing commits). */
static double interval_tps(const struct wl_stats *st, uint32_t k)
{
	return k < st->nr_intervals ? (double)st->interval_tx[k] * 1e9 / (double)st->interval_ns : 0;
}

void pg_checkpoint_figures(const struct wl_stats *st, const struct pg_ckpt *c, sim_time_t now,
			   struct wl_report *out)
{
	struct tps_window during = { 0 }, before = { 0 };
	double lowest = -1;
	/* whole intervals up to the end of the run (a partial last one left
	 * out), whether or not anything committed in them */
	uint32_t full = now > st->measure_start ? (uint32_t)((now - st->measure_start) / st->interval_ns) : 0;
	uint32_t starts = c->nr + (c->running ? 1 : 0);

	for (uint32_t k = 0; k < full; k++) {
		sim_time_t lo = st->measure_start + k * st->interval_ns, hi = lo + st->interval_ns;
		double t = interval_tps(st, k);

		for (uint32_t i = 0; i < starts; i++) {
			sim_time_t s = i < c->nr ? c->t_start[i] : c->last_start;

			if (lo >= s && hi <= s + PG_CKPT_WINDOW_NS) {
				tps_window_add(&during, t);
				if (lowest < 0 || t < lowest)
					lowest = t;
			} else if (hi <= s && lo + PG_CKPT_WINDOW_NS >= s) {
				tps_window_add(&before, t);
			}
		}
	}
	if (during.n && before.n && before.sum > 0) {
		double b = tps_window_mean(&before);
		uint32_t dips = 0;

		for (uint32_t k = 0; k < full; k++)
			dips += interval_tps(st, k) < b / 2;
		wl_report_figure(out, "checkpoint_tps_ratio", tps_window_mean(&during) / b, "");
		wl_report_figure(out, "checkpoint_tps_lowest_ratio", lowest / b, "");
		wl_report_figure(out, "checkpoint_dip_share", (double)dips / full, "");
	}
	wl_report_figure(out, "tps_checkpoint_first_minute", tps_window_mean(&during), "TPS");
	wl_report_figure(out, "tps_before_checkpoint", tps_window_mean(&before), "TPS");
}

/*
 * The client backends' time by wait event, in % of their time since they
 * started (at 0): what sampling pg_stat_activity's wait_event_type and
 * wait_event over the run gives (scenarios/real/pgbench-local), "cpu"
 * being no wait event (running, or waiting for a CPU after a
 * preemption).  A wait still in progress counts up to now.
 */
static const char *const pg_wait_names[PG_WAIT_NR] = {
#define PG_WAIT_NAME(e, name) name,
	PG_WAIT_EVENTS(PG_WAIT_NAME)
#undef PG_WAIT_NAME
};

/* ns[] of a snapshot (or a difference of two) as % of `total` backend
 * time, the rest under cpu */
static void pg_wait_shares(const uint64_t ns[PG_WAIT_NR], uint64_t total, double pct[PG_WAIT_NR])
{
	uint64_t waited = 0;

	for (int e = 1; e < PG_WAIT_NR; e++)
		waited += ns[e];
	for (int e = 1; e < PG_WAIT_NR; e++)
		pct[e] = 100.0 * (double)ns[e] / (double)total;
	pct[PG_WAIT_CPU] = total > waited ? 100.0 * (double)(total - waited) / (double)total : 0;
}

/* The rows of a series over the samples (waits.csv, wal.csv): each
 * interval between samples, the first from the backends' start at 0 (a
 * sample at 0 is only the base, *k0 = 1), and a last one to now if the
 * last sample was before it. */
static uint32_t pg_series_rows(const struct pg *pg, sim_time_t now, uint32_t *k0)
{
	*k0 = pg->nr_tps && pg->sample_t[0] == 0 ? 1 : 0;
	return pg->nr_tps - *k0 + (!pg->nr_tps || pg->sample_t[pg->nr_tps - 1] < now);
}

static double *pg_series_cells(uint32_t rows, unsigned int ncols)
{
	double *cells = calloc((size_t)(rows ? rows : 1) * ncols, sizeof(*cells));

	if (!cells)
		SIM_BUG("out of memory for a pgbench series");
	return cells;
}

static void pg_wait_figures(struct pg *pg, struct wl_report *out)
{
	static const char *const names[PG_WAIT_NR] = {
#define PG_WAIT_NAME(e, name) "wait_" name "_pct",
		PG_WAIT_EVENTS(PG_WAIT_NAME)
#undef PG_WAIT_NAME
	};
	sim_time_t now = sim_now(pg->sim);
	uint64_t ns[PG_WAIT_NR];
	double pct[PG_WAIT_NR];
	int col[PG_WAIT_NR];		/* the event of waits.csv's column c + 1 */
	uint32_t rows = 0, k0;
	unsigned int ncols = 0;

	if (!pg->nbackends || !now)
		return;
	pg_wait_snapshot(pg, now, ns);
	pg_wait_shares(ns, now * pg->nbackends, pct);
	for (int e = 0; e < PG_WAIT_NR; e++)
		if (pct[e] > 0)
			wl_report_figure(out, names[e], pct[e], "%");

	/* waits.csv: each interval between samples (the first from the
	 * backends' start at 0), and a last one to now if the last sample was
	 * before it; the columns of the events that occur — those with time in
	 * the whole run, since the intervals partition it — and cpu */
	pg->wait_cols[0] = "interval_end_s";
	pg->wait_dec[0] = 3;
	for (int e = 0; e < PG_WAIT_NR; e++)
		if (!e || ns[e]) {
			col[ncols++] = e;
			pg->wait_cols[ncols] = pg_wait_names[e];
			pg->wait_dec[ncols] = 4;
		}
	ncols++;			/* the time column */
	rows = pg_series_rows(pg, now, &k0);
	free(pg->wait_cells);
	pg->wait_cells = pg_series_cells(rows, ncols);
	for (uint32_t r = 0; r < rows; r++) {
		uint32_t k = k0 + r;
		sim_time_t t1 = k < pg->nr_tps ? pg->sample_t[k] : now, t0 = k ? pg->sample_t[k - 1] : 0;
		uint64_t d[PG_WAIT_NR];
		double share[PG_WAIT_NR], *row = &pg->wait_cells[(size_t)r * ncols];

		for (int e = 0; e < PG_WAIT_NR; e++)
			d[e] = (k < pg->nr_tps ? pg->wait_samples[k][e] : ns[e]) - (k ? pg->wait_samples[k - 1][e] : 0);
		pg_wait_shares(d, (t1 - t0) * pg->nbackends, share);
		row[0] = (double)t1 / 1e9;
		for (unsigned int c = 1; c < ncols; c++)
			row[c] = share[col[c - 1]];
	}
	if (out->nr_tables < WL_MAX_TABLES)
		out->tables[out->nr_tables++] = (struct wl_table){
			.file = "waits.csv", .cols = pg->wait_cols, .decimals = pg->wait_dec, .ncols = ncols,
			.nrows = rows, .cells = pg->wait_cells,
		};
}

/*
 * wal.csv: what sampling pg_stat_wal every interval and taking differences
 * gives — each interval's records, full-page images, bytes, wal_buffers
 * full, writes and syncs, and the ms spent writing and syncing (the
 * columns of pg_stat_wal; PostgreSQL counts the times only with
 * track_wal_io_timing on).  The intervals are waits.csv's: the first from
 * the backends' start at 0, a last one to now if the last sample was
 * before it.
 */
static void pg_wal_table(struct pg *pg, struct wl_report *out)
{
	static const char *const cols[PG_WAL_NR + 1] = {
		"interval_end_s",
#define PG_WAL_NAME(e, name) name,
		PG_WAL_COUNTERS(PG_WAL_NAME)
#undef PG_WAL_NAME
	};
	static const unsigned char dec[PG_WAL_NR + 1] = { 3, 0, 0, 0, 0, 0, 0, 3, 3 };
	const unsigned int ncols = PG_WAL_NR + 1;
	sim_time_t now = sim_now(pg->sim);
	uint64_t v[PG_WAL_NR];
	uint32_t rows, k0;

	if (!pg->nbackends || !now)
		return;
	pg_wal_snapshot(pg, v);
	rows = pg_series_rows(pg, now, &k0);
	free(pg->wal_cells);
	pg->wal_cells = pg_series_cells(rows, ncols);
	for (uint32_t r = 0; r < rows; r++) {
		uint32_t k = k0 + r;
		sim_time_t t1 = k < pg->nr_tps ? pg->sample_t[k] : now;
		double *row = &pg->wal_cells[(size_t)r * ncols];

		row[0] = (double)t1 / 1e9;
		for (int c = 0; c < PG_WAL_NR; c++) {
			uint64_t d = (k < pg->nr_tps ? pg->wal_samples[k][c] : v[c]) -
				     (k ? pg->wal_samples[k - 1][c] : 0);

			row[c + 1] = c == PG_WAL_WRITE_TIME || c == PG_WAL_SYNC_TIME ? (double)d / 1e6 : (double)d;
		}
	}
	if (out->nr_tables < WL_MAX_TABLES)
		out->tables[out->nr_tables++] = (struct wl_table){
			.file = "wal.csv", .cols = cols, .decimals = dec, .ncols = ncols, .nrows = rows,
			.cells = pg->wal_cells,
		};
}

/*
 * checkpoints.csv: what log_checkpoints says of each checkpoint
 * (LogCheckpointEnd: write, sync and total time, buffers written), with
 * its start; one still running at the end of the run has its start only.
 */
static void pg_checkpoint_table(struct pg *pg, struct wl_report *out)
{
	static const char *const cols[] = { "start_s", "write_s", "sync_s", "total_s", "buffers_written" };
	/* the start to the ns, so that the checkpoint figures' windows can be
	 * found again from the file (scripts/checkpoint-waits.sh) */
	static const unsigned char dec[] = { 9, 3, 3, 3, 0 };
	const struct pg_ckpt *c = &pg->ckpt;
	uint32_t rows = c->nr + (c->running ? 1 : 0);

	free(pg->ckpt_cells);
	pg->ckpt_cells = calloc((size_t)(rows ? rows : 1) * 5, sizeof(*pg->ckpt_cells));
	if (!pg->ckpt_cells)
		SIM_BUG("out of memory for the checkpoint table");
	for (uint32_t i = 0; i < rows; i++) {
		double *row = &pg->ckpt_cells[(size_t)i * 5];

		if (i < c->nr) {
			row[0] = (double)c->t_start[i] / 1e9;
			row[1] = (double)(c->t_write_end[i] - c->t_start[i]) / 1e9;
			row[2] = (double)(c->t_end[i] - c->t_write_end[i]) / 1e9;
			row[3] = (double)(c->t_end[i] - c->t_start[i]) / 1e9;
			row[4] = (double)c->buffers_written[i];
		} else {
			row[0] = (double)c->last_start / 1e9;
			row[1] = row[2] = row[3] = row[4] = NAN;
		}
	}
	if (out->nr_tables < WL_MAX_TABLES)
		out->tables[out->nr_tables++] = (struct wl_table){
			.file = "checkpoints.csv", .cols = cols, .decimals = dec, .ncols = 5, .nrows = rows,
			.cells = pg->ckpt_cells,
		};
}

/* A task's CPU time, spinning included (0 for a task never started). */
static uint64_t task_cpu_ns(const struct sim_task *t)
{
	struct sim_task_stats ts;

	if (!t)
		return 0;
	sim_task_stats(t, &ts);
	return ts.cpu_ns + ts.spin_ns;
}

/* Add `t`'s voluntary and nonvoluntary context switches to cs[0], cs[1]. */
static void task_csw(const struct sim_task *t, uint64_t cs[2])
{
	struct sim_task_stats ts;

	if (!t)
		return;
	sim_task_stats(t, &ts);
	cs[0] += ts.blocks;
	cs[1] += ts.preempts;
}

static void pg_report(void *state, struct wl_report *out)
{
	struct pg *pg = state;
	const struct pg_xlog *x = &pg->xlog;
	struct pg_proc_stats sum = { 0 };
	double secs = (double)sim_now(pg->sim) / 1e9;
	double memtotal = (double)pg->m->totalram_pages;
	unsigned long pt = global_node_page_state(pg->m, NR_PAGETABLE);
	uint64_t tx = pg->tx_total ? pg->tx_total : 1;
	uint64_t written_ckpt = pg->checkpointer.st.buffers_written, written_bgw = pg->bgwriter.st.buffers_written;

	if (pg->txlog) {	/* the per-transaction log is complete, or the run fails */
		pg->txlog_failed |= ferror(pg->txlog) != 0;
		pg->txlog_failed |= fclose(pg->txlog) != 0;
		pg->txlog = NULL;
	}
	if (pg->txlog_failed) {
		if (!pg->txlog_error[0])
			snprintf(pg->txlog_error, sizeof(pg->txlog_error), "pgbench: log: writing %s failed",
				 pg->txlog_path);
		out->error = pg->txlog_error;
	}

	for (uint32_t i = 0; i < pg->nbackends; i++) {
		const struct pg_proc_stats *s = &pg->backends[i].st;

		sum.buffer_hits += s->buffer_hits;
		sum.buffer_misses += s->buffer_misses;
		sum.buffers_written += s->buffers_written;
		sum.fault_errors += s->fault_errors;
		sum.read_errors += s->read_errors;
		sum.write_errors += s->write_errors;
		sum.s_lock_delays += s->s_lock_delays;
	}
	for (const struct pg_proc *a = &pg->checkpointer; a; a = a == &pg->checkpointer ? &pg->bgwriter :
							     a == &pg->bgwriter ? &pg->walwriter : NULL) {
		sum.fault_errors += a->st.fault_errors;
		sum.read_errors += a->st.read_errors;
		sum.write_errors += a->st.write_errors;
	}
	if (pt > pg->pt_peak)
		pg->pt_peak = pt;
	out->has_transactions = true;
	out->stats = pg->stats;
	wl_report_figure(out, "pagetables_share", 100.0 * (double)pt / memtotal, "%");
	wl_report_figure(out, "pagetables_share_peak", 100.0 * (double)pg->pt_peak / memtotal, "%");
	wl_report_figure(out, "shared_buffers", (double)pg->bp.nbuffers * PG_BLCKSZ / (1 << 20), "MiB");
	wl_report_figure(out, "huge_pages_used", pg->hugetlb, "");
	pg_checkpoint_figures(pg->stats, &pg->ckpt, sim_now(pg->sim), out);
	pg_checkpoint_table(pg, out);
	pg_wal_table(pg, out);
	wl_report_figure(out, "checkpoints", pg->ckpt.nr, "");
	if (pg->ckpt.nr) {
		double w = 0, sy = 0, all = 0;

		for (uint32_t i = 0; i < pg->ckpt.nr; i++) {
			w += (double)(pg->ckpt.t_write_end[i] - pg->ckpt.t_start[i]) / 1e9;
			sy += (double)(pg->ckpt.t_end[i] - pg->ckpt.t_write_end[i]) / 1e9;
			all += (double)(pg->ckpt.t_end[i] - pg->ckpt.t_start[i]) / 1e9;
		}
		wl_report_figure(out, "checkpoint_write_s", w / pg->ckpt.nr, "s");
		wl_report_figure(out, "checkpoint_sync_s", sy / pg->ckpt.nr, "s");
		wl_report_figure(out, "checkpoint_total_s", all / pg->ckpt.nr, "s");
		wl_report_figure(out, "checkpoint_buffers_avg", (double)pg->ckpt.total_written / pg->ckpt.nr, "");
	}
	wl_report_figure(out, "buffer_hit_ratio",
			 100.0 * (double)sum.buffer_hits / (double)(sum.buffer_hits + sum.buffer_misses + !sum.buffer_hits), "%");
	wl_report_figure(out, "heap_hit_ratio",
			 100.0 * (double)pg->heap_hits / (double)(pg->heap_accesses ? pg->heap_accesses : 1), "%");
	wl_report_figure(out, "fpi_per_tx", (double)pg->tx_fpi / (double)tx, "");
	wl_report_figure(out, "wal_bytes_per_tx", (double)x->bytes / (double)tx, "B");
	wl_report_figure(out, "wal_mb_per_s", (double)x->bytes / secs / 1e6, "MB/s");
	wl_report_figure(out, "wal_writes_per_s", (double)x->writes / secs, "");
	wl_report_figure(out, "wal_write_kib_avg", x->writes ? (double)x->write_bytes / (double)x->writes / 1024 : 0, "KiB");
	wl_report_figure(out, "wal_fsyncs_per_s", (double)x->fsyncs / secs, "");
	/* pg_stat_wal with track_wal_io_timing: calls per transaction and
	 * the mean time of one */
	wl_report_figure(out, "wal_writes_per_tx", (double)x->writes / (double)tx, "");
	wl_report_figure(out, "wal_syncs_per_tx", (double)x->fsyncs / (double)tx, "");
	wl_report_figure(out, "wal_write_ms_avg", x->writes ? (double)x->write_ns / 1e6 / (double)x->writes : 0, "ms");
	wl_report_figure(out, "wal_sync_ms_avg", x->fsyncs ? (double)x->sync_ns / 1e6 / (double)x->fsyncs : 0, "ms");
	pg_wait_figures(pg, out);
	wl_report_figure(out, "commits_per_flush", x->leader_flushes ? (double)tx / (double)x->leader_flushes : 0, "");
	wl_report_figure(out, "wal_buffer_full_waits", (double)x->buffer_full_waits, "");
	wl_report_figure(out, "wal_segments_zero_filled", (double)x->segs_zeroed, "");
	wl_report_figure(out, "wal_segments_recycled", (double)x->segs_recycled, "");
	wl_report_figure(out, "wal_segments_removed", (double)x->segs_removed, "");
	wl_report_figure(out, "backend_writes_per_tx", (double)sum.buffers_written / (double)tx, "");
	wl_report_figure(out, "accounts_heap_reads_per_tx", (double)pg->rel_reads[PG_REL_ACCOUNTS] / (double)tx, "");
	wl_report_figure(out, "accounts_pkey_reads_per_tx", (double)pg->rel_reads[PG_REL_PKEY] / (double)tx, "");
	wl_report_figure(out, "checkpoint_buffers_written", (double)written_ckpt, "");
	wl_report_figure(out, "bgwriter_buffers_written", (double)written_bgw, "");
	wl_report_figure(out, "history_extensions", (double)pg->tail[PG_REL_HISTORY].extends, "");
	/* pgbench_accounts' updates that stayed on their page, the blocks its
	 * heap grew by, and prunes per transaction (pg_heap.c) */
	wl_report_figure(out, "accounts_hot_update_pct", pg->hot_updates + pg->nonhot_updates ?
			 100.0 * (double)pg->hot_updates / (double)(pg->hot_updates + pg->nonhot_updates) : 0, "%");
	wl_report_figure(out, "accounts_heap_blocks_added", (double)pg->tail[PG_REL_ACCOUNTS].extend_blocks, "");
	wl_report_figure(out, "heap_prunes_per_tx", (double)pg->heap_prunes / (double)tx, "");
	wl_report_figure(out, "fault_errors", (double)sum.fault_errors, "");
	wl_report_figure(out, "read_errors", (double)sum.read_errors, "");
	wl_report_figure(out, "write_errors", (double)sum.write_errors, "");
	/* IPIs sent by wake-ups, and wake-ups onto an idle CPU (costs
	 * wake_ipi and idle_exit): /proc/interrupts' CAL and RES lines */
	wl_report_figure(out, "wake_ipis_per_tx", (double)sim_wake_ipis(pg->sim) / (double)tx, "");
	wl_report_figure(out, "idle_wakeups_per_tx", (double)sim_idle_wakeups(pg->sim) / (double)tx, "");
	/* wake-ups onto another CPU that runs a task (cost wake_remote_busy) */
	wl_report_figure(out, "remote_busy_wakeups_per_tx",
			 (double)sim_remote_busy_wakeups(pg->sim) / (double)tx, "");
	/* CPUs left idle by newidle balancing because the queued tasks were
	 * cache-hot ([kernel] migration_cost) */
	wl_report_figure(out, "newidle_hot_fails_per_tx",
			 (double)sim_newidle_hot_fails(pg->sim) / (double)tx, "");
	/* newidle pulls made, and newidle balances whose candidates were all
	 * too big for the idle CPU's spare capacity (util rule, llc_cpus < ncpus) */
	wl_report_figure(out, "newidle_pulls_per_tx", (double)sim_newidle_pulls(pg->sim) / (double)tx, "");
	/* wake-ups onto a busy CPU, and the share that asked its owner to
	 * reschedule (check_preempt_wakeup_fair; perf sched shows them as a
	 * sched_waking followed at once by a preempting sched_switch) */
	wl_report_figure(out, "busy_wakeups_per_tx", (double)sim_busy_wakeups(pg->sim) / (double)tx, "");
	wl_report_figure(out, "busy_wakeup_resched_pct",
			 sim_busy_wakeups(pg->sim) ? 100.0 * (double)sim_busy_wakeup_requests(pg->sim) /
						     (double)sim_busy_wakeups(pg->sim) : 0, "%");
	/* DELAY_DEQUEUE ([kernel] delay_dequeue): sleeps kept queued, and
	 * wake-ups that found the task still queued and left it there */
	wl_report_figure(out, "delayed_dequeues_per_tx", (double)sim_delayed_dequeues(pg->sim) / (double)tx, "");
	wl_report_figure(out, "delayed_wakeups_per_tx", (double)sim_delayed_wakeups(pg->sim) / (double)tx, "");
	wl_report_figure(out, "newidle_util_fails_per_tx",
			 (double)sim_newidle_util_fails(pg->sim) / (double)tx, "");
	/* periodic and nohz-idle balancing ([kernel] periodic_balance): tasks
	 * moved, attempts that moved none (all hot), nohz kicks sent */
	struct sim_balance_stats bal;

	sim_balance_stats(pg->sim, &bal);
	wl_report_figure(out, "balance_moves_per_tx", (double)bal.moved / (double)tx, "");
	wl_report_figure(out, "balance_failed_per_tx", (double)bal.failed / (double)tx, "");
	wl_report_figure(out, "nohz_kicks_per_tx", (double)bal.nohz_kicks / (double)tx, "");
	/* the idle task's stretches: how often a CPU found nothing to run,
	 * and for how long (perf sched's swapper between two switches) */
	uint64_t idle_ns, idle_n = sim_idle_stretches(pg->sim, &idle_ns);

	wl_report_figure(out, "idle_stretches_per_tx", (double)idle_n / (double)tx, "");
	wl_report_figure(out, "idle_stretch_mean_us", idle_n ? (double)idle_ns / (double)idle_n / 1e3 : 0, "us");
	/* client=local: messages read on another CPU than sent (tcp_remote) */
	wl_report_figure(out, "tcp_remote_per_tx", (double)pg->tcp_remote_msgs / (double)tx, "");
	/* address-space switches (costs mm_switch, mm_switch_miss) */
	wl_report_figure(out, "mm_switches_per_tx", (double)sim_mm_switches(pg->sim) / (double)tx, "");
	wl_report_figure(out, "mm_switch_misses_per_tx",
			 (double)sim_mm_switch_misses(pg->sim) / (double)tx, "");
	/* switches onto a CPU another task used since (cost switch_refill) */
	wl_report_figure(out, "refill_switches_per_tx", (double)sim_refill_switches(pg->sim) / (double)tx, "");
	/* every CPU's busy time per transaction (/proc/stat's busy columns
	 * in a recording: scenarios/real/pgbench-local) */
	uint64_t busy = 0;

	for (unsigned int c = 0; c < sim_ncpus(pg->sim); c++) {
		struct sim_cpu_stats cs;

		sim_cpu_stats(pg->sim, c, &cs);
		busy += cs.busy_ns;
	}
	wl_report_figure(out, "machine_cpu_us_per_tx", (double)busy / 1e3 / (double)tx, "us");
	/* the CPU (spinning included) of PostgreSQL's processes and of
	 * pgbench's threads (client=local) per transaction: a recording's
	 * figures of the same names come from /proc/PID/stat and `times` */
	uint64_t server = task_cpu_ns(pg->checkpointer.task) + task_cpu_ns(pg->bgwriter.task) +
			  task_cpu_ns(pg->walwriter.task), client = 0;

	for (uint32_t i = 0; i < pg->nbackends; i++)
		server += task_cpu_ns(pg->backends[i].task);
	wl_report_figure(out, "server_cpu_us_per_tx", (double)server / 1e3 / (double)tx, "us");
	if (pg->cfg.client == PG_CLIENT_LOCAL) {
		for (uint32_t i = 0; i < pg->nthreads; i++)
			client += task_cpu_ns(pg->threads[i].task);
		wl_report_figure(out, "client_cpu_us_per_tx", (double)client / 1e3 / (double)tx, "us");
	}
	/* their context switches per transaction, as /proc/PID/status counts
	 * them: voluntary (switched out to sleep) and nonvoluntary (preempted);
	 * a recording's figures of the same names sample those files */
	uint64_t scs[2] = { 0, 0 }, ccs[2] = { 0, 0 };

	task_csw(pg->checkpointer.task, scs);
	task_csw(pg->bgwriter.task, scs);
	task_csw(pg->walwriter.task, scs);
	for (uint32_t i = 0; i < pg->nbackends; i++)
		task_csw(pg->backends[i].task, scs);
	wl_report_figure(out, "server_voluntary_csw_per_tx", (double)scs[0] / (double)tx, "");
	wl_report_figure(out, "server_nonvoluntary_csw_per_tx", (double)scs[1] / (double)tx, "");
	if (pg->cfg.client == PG_CLIENT_LOCAL) {
		for (uint32_t i = 0; i < pg->nthreads; i++)
			task_csw(pg->threads[i].task, ccs);
		wl_report_figure(out, "client_voluntary_csw_per_tx", (double)ccs[0] / (double)tx, "");
		wl_report_figure(out, "client_nonvoluntary_csw_per_tx", (double)ccs[1] / (double)tx, "");
	}
	if (pg->tlb) {
		wl_report_figure(out, "tlb_misses_4k_per_tx", (double)pg->tlb_misses_4k / (double)tx, "");
		wl_report_figure(out, "tlb_misses_2m_per_tx", (double)pg->tlb_misses_2m / (double)tx, "");
	}
	if (pg->cfg.locks) {
		const struct sim_lock_stats *ls = &pg->strategy_lock.stats;

		wl_report_figure(out, "s_lock_delays", (double)sum.s_lock_delays, "");
		/* s_lock holders preempted while holding, and spinners preempted
		 * mid-spin, by where (sim.h; a spinner's return is an interrupt's) */
		static const struct { enum sim_uspin_preempt k; const char *holder, *spinner; }
		where[] = {
			{ SIM_USPIN_PREEMPT_IPI, "s_lock_holder_preempts_ipi", "s_lock_spinner_preempts_ipi" },
			{ SIM_USPIN_PREEMPT_RETURN, "s_lock_holder_preempts_return",
			  "s_lock_spinner_preempts_irq" },
			{ SIM_USPIN_PREEMPT_TICK, "s_lock_holder_preempts_tick", "s_lock_spinner_preempts_tick" },
			{ SIM_USPIN_PREEMPT_KERNEL, "s_lock_holder_preempts_kernel", NULL },
		};
		for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
			wl_report_figure(out, where[i].holder,
					 (double)sim_uspin_holder_preempts(pg->sim, where[i].k), "");
		for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
			if (where[i].spinner)
				wl_report_figure(out, where[i].spinner,
						 (double)sim_uspin_spinner_preempts(pg->sim, where[i].k), "");
		/* how long such a holder then waited for a CPU, on average */
		wl_report_figure(out, "s_lock_holder_runq_us_avg",
				 sim_uspin_holder_runq_waits(pg->sim) ?
				 (double)sim_uspin_holder_runq_ns(pg->sim) / 1e3 /
				 (double)sim_uspin_holder_runq_waits(pg->sim) : 0, "us");
		wl_report_figure(out, "wal_insert_waits", (double)x->insert_waits, "");
		wl_report_figure(out, "strategy_lock_wait_ms_per_tx",
				 (double)ls->wait_ns / 1e6 / (double)tx, "ms");
		wl_report_figure(out, "strategy_lock_hold_us_avg",
				 ls->acquisitions ? (double)ls->hold_ns / 1e3 / (double)ls->acquisitions : 0, "us");
		/* when the freelist ran dry (-1: it never did): after it the
		 * strategy lock is taken only at the clock hand's wrap */
		wl_report_figure(out, "strategy_freelist_empty_s",
				 pg->bp.freelist_emptied ? (double)pg->bp.freelist_empty_at / SIM_NSEC_PER_SEC : -1, "s");
		uint64_t bm_wait = 0, bm_contended = 0;

		for (unsigned int k = 0; k < PG_NUM_BUFFER_PARTITIONS; k++) {
			bm_wait += pg->buf_mapping[k].wait_ns;
			bm_contended += pg->buf_mapping[k].contended;
		}
		wl_report_figure(out, "buf_mapping_lock_waits", (double)bm_contended, "");
		wl_report_figure(out, "buf_mapping_lock_wait_ms_per_tx", (double)bm_wait / 1e6 / (double)tx, "ms");
		const struct sim_lock_stats *ip = &x->insertpos_lck.stats;

		wl_report_figure(out, "insertpos_lock_waits", (double)ip->contended, "");
		wl_report_figure(out, "insertpos_lock_wait_ms_per_tx", (double)ip->wait_ns / 1e6 / (double)tx, "ms");
		uint64_t fl_hold = 0, fl_acq = 0, fl_contended = 0, spun = ls->spin_ns + ip->spin_ns;

		for (unsigned int k = 0; k < PG_NUM_FREELISTS; k++) {
			fl_hold += pg->hash_fl_lock[k].stats.hold_ns;
			fl_acq += pg->hash_fl_lock[k].stats.acquisitions;
			fl_contended += pg->hash_fl_lock[k].stats.contended;
			spun += pg->hash_fl_lock[k].stats.spin_ns;
		}
		/* the CPU in s_lock's spin loop as a share of the machine's, as a
		 * system-wide profile puts it (the Linux 7.0 report: 55.6 %) */
		wl_report_figure(out, "s_lock_spin_cpu_pct", 100.0 * (double)spun /
				 ((double)sim_ncpus(pg->sim) * (double)(sim_now(pg->sim) ? sim_now(pg->sim) : 1)),
				 "%");
		wl_report_figure(out, "buf_table_freelist_lock_waits", (double)fl_contended, "");
		wl_report_figure(out, "buf_table_freelist_lock_hold_us_avg",
				 fl_acq ? (double)fl_hold / 1e3 / (double)fl_acq : 0, "us");
		wl_report_figure(out, "proc_array_lock_waits", (double)pg->proc_array_lock.contended, "");
		wl_report_figure(out, "proc_array_lock_wait_ms_per_tx",
				 (double)pg->proc_array_lock.wait_ns / 1e6 / (double)tx, "ms");
		wl_report_figure(out, "proc_array_group_leaders", (double)pg->group_leaders, "");
		wl_report_figure(out, "proc_array_group_cleared", (double)pg->group_cleared, "");
	}
	wl_report_figure(out, "wal_write_lock_busy",
			 100.0 * (double)x->write_lock.hold_ns / (double)(sim_now(pg->sim) ? sim_now(pg->sim) : 1), "%");
	for (unsigned int k = 0; k < 16; k++) {
		static const char *const names[16] = {
			"wal_writes_8k", "wal_writes_16k", "wal_writes_32k", "wal_writes_64k",
			"wal_writes_128k", "wal_writes_256k", "wal_writes_512k", "wal_writes_1m",
			"wal_writes_2m", "wal_writes_4m", "wal_writes_8m", "wal_writes_16m",
			"wal_writes_32m", "wal_writes_64m", "wal_writes_128m", "wal_writes_256m",
		};

		if (x->write_hist[k])
			wl_report_figure(out, names[k], (double)x->write_hist[k], "");
	}
}

static void pg_destroy(void *state)
{
	struct pg *pg = state;

	if (pg->txlog)		/* a run stopped before its report */
		fclose(pg->txlog);
	free(pg->txlog_path);
	pg_free(pg);
}

/* Tasks at once: the backends, checkpointer, bgwriter and walwriter. */
static uint64_t pg_nr_tasks(const void *config, const char **key)
{
	const struct pg_config *c = config;

	*key = "clients";
	/* backends, checkpointer, bgwriter, walwriter; pgbench's threads */
	return c->clients + 3 + (c->client == PG_CLIENT_LOCAL ? (c->threads < c->clients ? c->threads : c->clients) : 0);
}

/* [pgbench] log=on writes pgbench_log while the run goes on. */
static const char *pg_streams(const void *config)
{
	return ((const struct pg_config *)config)->log ? "log" : NULL;
}

const struct workload_type pgbench_workload = {
	.kind = "pgbench",
	.help = "PostgreSQL under pgbench simple-update: backends, buffer pool, WAL, checkpoints",
	.options = pg_options,
	.config_size = sizeof(struct pg_config),
	.multiple = false,
	.validate = pg_validate,
	.validate_env = pg_validate_env,
	.scale = pg_scale,
	.nr_tasks = pg_nr_tasks,
	.start_env = pg_start_env,
	.streams = pg_streams,
	.report = pg_report,
	.destroy = pg_destroy,
};
