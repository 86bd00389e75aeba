/* SPDX-License-Identifier: MIT */
/*
 * pg_internal.h — what the files of the PostgreSQL + pgbench model share
 * (pgbench.c, pg_bufmgr.c, pg_xlog.c, pg_aux.c, pg_smgr.c).  docs/pgbench.md
 * is the overview; each file's head comment names the PostgreSQL source it
 * models (PostgreSQL 17, with the 18 differences that matter noted).
 *
 * Everything hangs off one struct pg per [pgbench] section; there is no
 * file-scope state.  Block numbers are "global block ids": the three
 * relations are laid end to end in one u32 space (accounts heap, then
 * pgbench_accounts_pkey, then pgbench_history, which grows), so the
 * per-block arrays are plain vectors and the checkpoint's sort key
 * (relation, block) is the id itself.
 *
 *   global block id:  [ accounts heap | accounts_pkey | history ... ]
 *
 * Shared memory is one shmem (or hugetlb) object mapped by the
 * postmaster and inherited by every forked process; its layout follows
 * CreateOrAttachShmemStructs (PostgreSQL 17):
 *
 *   [ XLOG: wal_buffers | BufferDescriptors | BufferBlocks (8 KiB each)
 *     | CkptBufferIds | buffer mapping hash | misc (PGPROC, locks, ...) ]
 */
#ifndef SLOWPATH_WORKLOAD_PG_INTERNAL_H
#define SLOWPATH_WORKLOAD_PG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mm/slub.h"
#include "sim/rng.h"
#include "sim/sim.h"
#include "workload/workload.h"

struct machine;
struct inode;
struct super_block;
struct mm_struct;
struct shmem_object;
struct hugetlb_file;

#define PG_BLCKSZ		8192u
#define PG_XLOG_BLCKSZ		8192u
#define PG_XLOG_SHORT_PHD	24u		/* SizeOfXLogShortPHD */
#define PG_XLOG_LONG_PHD	40u		/* SizeOfXLogLongPHD (first page of a segment) */
#define PG_MAX_USAGE_COUNT	5u		/* BM_MAX_USAGE_COUNT */
#define PG_NONE			UINT32_MAX
#define PG_MAX_BTREE_LEVELS	8
/* CheckpointWriteDelay's nap when the checkpoint is on schedule
 * (checkpointer.c: WaitLatch(..., 100, WAIT_EVENT_CHECKPOINT_WRITE_DELAY)) */
#define PG_CHECKPOINT_NAP_NS	(100 * SIM_NSEC_PER_MSEC)

/* Buffer state bits (struct pg.buf_state, one byte per buffer; the
 * kernel of the idea is BufferDesc.state in buf_internals.h).  The usage
 * count lives in the low three bits. */
#define PG_BUF_USAGE_MASK	0x07u
#define BM_DIRTY		0x08u
#define BM_VALID		0x10u
#define BM_IO_IN_PROGRESS	0x20u
#define BM_CHECKPOINT_NEEDED	0x40u
#define BM_JUST_DIRTIED		0x80u

/* SyncOneBuffer's result bits */
#define BUF_WRITTEN		0x01
#define BUF_REUSABLE		0x02

enum pg_rel { PG_REL_ACCOUNTS, PG_REL_PKEY, PG_REL_HISTORY, PG_NR_RELS };
enum pg_huge_pages { PG_HUGE_OFF, PG_HUGE_ON, PG_HUGE_TRY };
enum pg_client_mode { PG_CLIENT_REMOTE, PG_CLIENT_LOCAL };
#define PG_XLOG_INSERT_LOCKS	8	/* NUM_XLOGINSERT_LOCKS */
#define PG_NUM_BUFFER_PARTITIONS	128	/* NUM_BUFFER_PARTITIONS (lwlock.h) */
#define PG_NUM_FREELISTS	32	/* NUM_FREELISTS (dynahash.c) */
#define PG_STATEMENTS	5	/* simple-update: BEGIN, UPDATE, SELECT, INSERT, END */

/* The [pgbench] section: pgbench options and the PostgreSQL GUCs under
 * their own names (postgresql.conf of aws/repro-collection, aws/repro-collection). */
struct pg_config {
	/* pgbench */
	uint64_t	clients;		/* -c */
	uint64_t	scale;			/* -s at pgbench -i */
	uint64_t	fillfactor;		/* --fillfactor at pgbench -i, percent */
	/* PostgreSQL */
	uint64_t	shared_buffers;		/* bytes; 0 = MemTotal/4 (repro's main.sh) */
	int		huge_pages;		/* enum pg_huge_pages */
	uint64_t	wal_buffers;		/* bytes */
	uint64_t	wal_segment_size;	/* initdb --wal-segsize, bytes */
	uint64_t	segment_size;		/* RELSEG_SIZE x BLCKSZ (configure --with-segsize), bytes */
	uint64_t	checkpoint_timeout;	/* ns */
	uint64_t	checkpoint_completion_target;	/* ppm */
	uint64_t	checkpoint_flush_after;	/* bytes */
	uint64_t	max_wal_size, min_wal_size;	/* bytes */
	bool		wal_recycle, wal_init_zero, full_page_writes, synchronous_commit;
	bool		locks;			/* PostgreSQL's locks as locks, not costs */
	bool		tlb_misses;		/* charge page walks of TLB misses */
	int		client;			/* enum pg_client_mode */
	uint64_t	threads;		/* pgbench -j with client=local */
	uint64_t	tlb_entries;		/* per-CPU TLB entries (any page size) */
	uint64_t	wal_writer_delay;	/* ns */
	uint64_t	wal_writer_flush_after;	/* bytes */
	uint64_t	bgwriter_delay;		/* ns */
	uint64_t	bgwriter_lru_maxpages;
	char		*bgwriter_lru_multiplier;	/* decimal text ("2.0") */
	uint64_t	bgwriter_flush_after, backend_flush_after;	/* bytes */
	/* the machine side */
	char		*device;		/* [device NAME] holding the data directory */
	uint64_t	data_cached;		/* ppm of data-file blocks in the page cache at start */
	uint64_t	wal_recycled;		/* bytes of recycled WAL segments waiting at start */
	uint64_t	wal_cached;		/* ppm of the start's WAL pages in the page cache */
	uint64_t	wal_since_redo;		/* bytes of WAL since the last REDO point at start */
	bool		log;			/* pgbench -l: the per-transaction log */
	uint64_t	sampling_rate;		/* pgbench --sampling-rate, ppm */
	uint64_t	backend_memory;		/* private memory each backend touches, bytes */
	uint64_t	image_regions;		/* 2 MiB regions of the process image every process maps */
	uint64_t	progress_interval;	/* ns between TPS samples for the checkpoint figures */
};

/* One relation: its 1 GiB segment files (md.c) and where its blocks sit
 * in the global id space. */
struct pg_relation {
	const char	*name;
	uint32_t	relfilenode;
	uint32_t	first;			/* global id of block 0 */
	uint32_t	nblocks;		/* blocks that exist (mdnblocks) */
	uint32_t	max_blocks;		/* the block ids it may grow into */
	struct inode	**seg;			/* [nsegs] */
	uint8_t		*sync_req;		/* [nsegs]: an fsync request is pending */
	uint32_t	nsegs, cap_segs;
};

/* The end of a relation that grows: the blocks a bulk extension added
 * that are nobody's target yet (the FSM's view of them, FIFO) and the
 * relation extension lock. */
struct pg_heap_tail {
	uint32_t		*fsm;		/* global block ids */
	uint32_t		fsm_head, fsm_tail, fsm_cap;
	struct sim_mutex	ext_lock;
	uint32_t		ext_waiters;
	uint64_t		extends, extend_blocks;
};

/* One pgbench_accounts heap page (pg_heap.c): pd_upper - pd_lower, and
 * the dead versions pruning will reclaim, HOT ones (tuple and line
 * pointer) and non-HOT ones (tuple only). */
struct pg_heap_page {
	uint16_t	free;
	uint8_t		pend_hot, pend_dead;
};

/* Heap and btree sizes, bytes (htup_details.h, itemid.h, bufpage.h,
 * nbtree.h; pgbench_accounts' tuple is 121 bytes, 128 aligned) */
#define PG_ACCOUNTS_TUPLE	128u
#define PG_HISTORY_TUPLE	48u
#define PG_BTREE_TUPLE		16u
#define PG_LINE_POINTER		4u
#define PG_PAGE_HEADER		24u
#define PG_BTREE_SPECIAL	16u
#define PG_BKP_IMAGE_HEADER	5u	/* XLogRecordBlockImageHeader */
#define PG_MAX_EXTEND		64u	/* MAX_BUFFERS_TO_EXTEND_BY */
/* WAL record sizes, bytes, without images: pg_waldump --stats=record of
 * pgbench simple-update (docs/pgbench.md "WAL records") */
#define PG_REC_HOT_UPDATE	72u	/* Heap/HOT_UPDATE */
#define PG_REC_INSERT		79u	/* Heap/INSERT */
#define PG_REC_COMMIT		34u	/* Transaction/COMMIT */
#define PG_REC_UPDATE		171u	/* Heap/UPDATE: the whole new tuple */
#define PG_REC_LOCK		54u	/* Heap/LOCK: the old version, before its page is unlocked */
#define PG_REC_PRUNE		58u	/* Heap2/PRUNE (mean of 54 308) */
#define PG_REC_BTREE_LEAF	64u	/* Btree/INSERT_LEAF */

/* Pending writeback requests of one process (WritebackContext, bufmgr.c). */
struct pg_wb_context {
	uint32_t	*tags;			/* global block ids */
	uint32_t	nr, max;		/* max = *_flush_after / BLCKSZ; 0 = off */
};

/* Per-process counters that the report sums. */
struct pg_proc_stats {
	uint64_t	buffer_hits, buffer_misses, buffers_written, writeback_calls;
	uint64_t	fault_errors, read_errors, write_errors;
	uint64_t	s_lock_delays;		/* perform_spin_delay sleeps */
};

/* s_lock.c (PostgreSQL 15-17) */
#define PG_DEFAULT_SPINS_PER_DELAY	100
#define PG_MIN_SPINS_PER_DELAY		10
#define PG_MAX_SPINS_PER_DELAY		1000
#define PG_MIN_DELAY_USEC		1000
#define PG_MAX_DELAY_USEC		1000000

/*
 * Wait events (utils/wait_event.h, PostgreSQL 15-17): what
 * pg_stat_activity's wait_event_type and wait_event show for a process.
 * A process sets one before it blocks and clears it when it goes on
 * (pgstat_report_wait_start/_end), so a process woken but not yet running
 * still shows it, and one that is running or waiting for a CPU after a
 * preemption shows none (PG_WAIT_CPU).  The model keeps, for the client
 * backends, the time spent under each (struct pg's wait_ns): what
 * sampling pg_stat_activity measures (scenarios/real/pgbench-local).
 * The names are type_event in lower case; BufferIO is IPC's as in
 * PostgreSQL 15-16.
 */
#define PG_WAIT_EVENTS(X)						\
	X(CPU, "cpu")							\
	X(CLIENT_READ, "client_clientread")				\
	X(LWLOCK_WALWRITE, "lwlock_walwrite")				\
	X(LWLOCK_WALINSERT, "lwlock_walinsert")				\
	X(LWLOCK_WALBUFMAPPING, "lwlock_walbufmapping")			\
	X(LWLOCK_BUFFERMAPPING, "lwlock_buffermapping")			\
	X(LWLOCK_PROCARRAY, "lwlock_procarray")				\
	X(IO_WALWRITE, "io_walwrite")					\
	X(IO_WALSYNC, "io_walsync")					\
	X(IO_WALINITWRITE, "io_walinitwrite")				\
	X(IO_WALINITSYNC, "io_walinitsync")				\
	X(IO_DATAFILEREAD, "io_datafileread")				\
	X(IO_DATAFILEWRITE, "io_datafilewrite")				\
	X(IO_DATAFILEEXTEND, "io_datafileextend")			\
	X(IO_DATAFILEFLUSH, "io_datafileflush")				\
	X(IPC_BUFFERIO, "ipc_bufferio")					\
	X(IPC_PROCARRAYGROUPUPDATE, "ipc_procarraygroupupdate")		\
	X(LOCK_EXTEND, "lock_extend")					\
	X(TIMEOUT_SPINDELAY, "timeout_spindelay")

enum pg_wait_event {
#define PG_WAIT_ENUM(e, name) PG_WAIT_##e,
	PG_WAIT_EVENTS(PG_WAIT_ENUM)
#undef PG_WAIT_ENUM
	PG_WAIT_NR
};

/*
 * pg_stat_wal's counters (PostgreSQL 14-17, pgstat_wal.c), sampled every
 * interval for wal.csv: records, full-page images, bytes, the times a
 * backend found wal_buffers full, XLogWrite's pwrites and
 * issue_xlog_fsync's syncs, and the time in each (ns here, ms in the file).
 */
#define PG_WAL_COUNTERS(X)						\
	X(RECORDS, "wal_records")					\
	X(FPI, "wal_fpi")						\
	X(BYTES, "wal_bytes")						\
	X(BUFFERS_FULL, "wal_buffers_full")				\
	X(WRITE, "wal_write")						\
	X(SYNC, "wal_sync")						\
	X(WRITE_TIME, "wal_write_time")					\
	X(SYNC_TIME, "wal_sync_time")

enum pg_wal_counter {
#define PG_WAL_ENUM(e, name) PG_WAL_##e,
	PG_WAL_COUNTERS(PG_WAL_ENUM)
#undef PG_WAL_ENUM
	PG_WAL_NR
};

/* One PostgreSQL process: a backend (one per pgbench client) or an
 * auxiliary process (checkpointer, bgwriter, walwriter). */
struct pg_proc {
	struct pg		*pg;
	struct sim_task		*task;		/* once started (pg_start_tasks) */
	/* pgstat_report_wait_start: the event it waits under (PG_WAIT_CPU:
	 * none), since when; backends add the time to pg->wait_ns */
	uint8_t			wait_event;
	bool			is_backend;
	sim_time_t		wait_start;
	struct mm_struct	*mm;
	struct sim_rng		rng;
	struct sim_rng		spin_rng;	/* s_lock's random backoff */
	uint32_t		spins_per_delay;	/* s_lock.c's adaptive spin budget */
	uint32_t		asid;		/* 1.. in fork order: its TLB tag */
	uint32_t		lock_to_try;	/* WALInsertLockAcquire's lockToTry */
	/* client=local: the connection's backend end (pg_client.c) */
	struct sim_waitq	sock;		/* ClientRead: waits for a statement */
	bool			stmt_ready;
	uint8_t			stmt;		/* statement the client sent last, 0..4 */
	unsigned int		stmt_cpu, result_cpu;	/* CPUs the last statement and
							 * result were sent from */
	sim_time_t		tx_start;	/* when the client sent its BEGIN */
	uint64_t		tx_no;		/* its client's transactions so far (pgbench -l) */
	/* [kernel] slab=on (pg_client.c): the connection's kernel objects —
	 * the backend's socket (TCP sock, socket inode) and, with
	 * client=local, pgbench's end; the backend's task page fragment; the
	 * statement and the result in flight */
	kobj_t			sk_server[2], sk_client[2];
	struct page_frag	frag;
	struct sk_buff		to_backend, to_client;
	uint32_t		id;
	/* [pgbench] locks: ProcArrayGroupClearXid membership (procArrayGroupNext,
	 * procArrayGroupMember) and the PGPROC's semaphore it sleeps on */
	uint32_t		group_next;	/* next member's id + 1, 0 = end */
	bool			group_member;
	struct sim_waitq	sem;
	struct pg_wb_context	wb;
	struct pg_proc_stats	st;
	/* backends */
	uint32_t		hist_blk;	/* relcache target block of pgbench_history */
	uint32_t		hist_rows;	/* rows on it */
	uint32_t		acct_blk;	/* ... and of pgbench_accounts (relation block) */
	uint32_t		upd_blk;	/* accounts block this transaction updated */
	unsigned long		private_base;	/* backend-local memory (palloc arenas) */
};

/* One BufferDesc (buf_internals.h), what the model keeps of it: the
 * fields a buffer access reads sit in one 16-byte record, so an access
 * costs the host one cache miss instead of one per field. */
struct pg_buf_desc {
	uint32_t	tag;			/* global block id or PG_NONE */
	uint32_t	lsn;			/* page LSN / 256, rounded up */
	uint16_t	refcount;		/* pins */
	uint8_t		state;			/* BM_* | usage count */
	uint8_t		unused[5];
};
_Static_assert(sizeof(struct pg_buf_desc) == 16, "a buffer descriptor is 16 bytes");

/* The buffer mapping hash, BufferDescriptors and BufferBlocks as arrays. */
struct pg_bufpool {
	uint32_t	nbuffers;
	struct pg_buf_desc *desc;		/* [nbuffers] */
	uint32_t	*blk_buf;		/* [nblk_cap] buffer of a block, or PG_NONE */
	uint16_t	*blk_epoch;		/* [nblk_cap] checkpoint epoch of the last change */
	uint32_t	nblk_cap;
	/* the freelist: buffers 0..nbuffers-1 start on it in order
	 * (StrategyInitialize); returned buffers are pushed on a stack */
	uint32_t	free_next;		/* next never-used buffer */
	uint32_t	*free_stack, nr_free_stack;
	bool		freelist_emptied;	/* a pop has left it empty, at: */
	sim_time_t	freelist_empty_at;
	/* clock sweep (freelist.c) */
	uint64_t	next_victim;		/* nextVictimBuffer, not wrapped */
	uint64_t	num_allocs;		/* numBufferAllocs since the bgwriter's last look */
	struct sim_waitq io_wq;			/* WaitIO: a buffer's I/O finished */
	uint32_t	io_waiters;
	/* [pgbench] locks: the buffer mapping table's dynahash (pg_bufmgr.c,
	 * "The buffer mapping table"): each entry's element, the elements'
	 * free-list links and the NUM_FREELISTS list heads (PG_NONE: empty) */
	uint32_t	*elem_of;		/* [nbuffers] element of the buffer's entry */
	uint32_t	*elem_link;		/* [nelem] next free element */
	uint32_t	nelem, nbuckets;	/* NBuffers + partitions; next power of 2 */
	uint32_t	fl_head[PG_NUM_FREELISTS];
};

/*
 * An LWLock (storage/lmgr/lwlock.c, PostgreSQL 15-17): exclusive or shared.
 * Release frees the lock and wakes waiters, who then compete for it again
 * (no hand-off, so a running process may take it first).  When the lock
 * becomes free: LW_WAIT_UNTIL_FREE sleepers (LWLockAcquireOrWait) are all
 * woken; then the shared sleepers, all of them, if there are any, else one
 * exclusive sleeper (LWLockWakeup walks one queue in arrival order: all
 * shared waiters, or the first exclusive one when it leads; the model keeps
 * two queues and prefers the shared side).  A shared acquirer does not wait
 * for queued exclusive ones, as in PostgreSQL.
 */
struct pg_lwlock {
	const char	*name;
	struct pg	*pg;
	uint8_t		wait_event;		/* its tranche's (enum pg_wait_event) */
	uint32_t	holder;			/* exclusive: task id + 1, 0 = none */
	uint32_t	shared;			/* shared holders */
	struct sim_waitq excl, until_free, shq;
	sim_time_t	acquired_at;
	uint64_t	acquisitions, contended, hold_ns;
	uint64_t	wait_ns;		/* time acquirers slept for it */
};

/* WAL (xlog.c).  LSNs are byte positions in the WAL stream, page headers
 * included. */
struct pg_xlog {
	uint64_t	insert;			/* end of the last reserved record */
	uint64_t	rqst_write;		/* LogwrtRqst.Write: last completed page boundary */
	uint64_t	write, flush;		/* LogwrtResult */
	uint64_t	redo;			/* RedoRecPtr */
	uint16_t	epoch;			/* changes of RedoRecPtr: FPI needed iff a page's epoch differs */
	uint32_t	nslots;			/* wal_buffers / XLOG_BLCKSZ */
	uint64_t	seg_size, seg_pages;
	struct pg_lwlock write_lock;		/* WALWriteLock */
	struct pg_lwlock buf_mapping_lock;	/* WALBufMappingLock (PostgreSQL <= 17) */
	/* [pgbench] locks: WALInsertLocks[] and each one's insertingAt (0 = not
	 * published: a waiter waits for the release) */
	struct pg_lwlock insert_locks[PG_XLOG_INSERT_LOCKS];
	uint64_t	inserting_at[PG_XLOG_INSERT_LOCKS];
	uint64_t	insert_waits;		/* WaitXLogInsertionsToFinish sleeps */
	struct sim_spinlock insertpos_lck;	/* XLogCtlInsert.insertpos_lck ([pgbench] locks) */
	/* segment files by segment number (pg_wal/); NULL = no such file */
	struct inode	**seg;
	uint64_t	nseg;			/* capacity of seg[] */
	uint64_t	oldest_seg;		/* lowest segno that may still have a file */
	uint64_t	open_seg;		/* openLogSegNo, UINT64_MAX = none */
	double		distance_estimate;	/* CheckPointDistanceEstimate, bytes */
	uint64_t	prior_redo;
	uint64_t	ckpt_segments;		/* CheckPointSegments */
	bool		ckpt_requested;		/* RequestCheckpoint(CHECKPOINT_CAUSE_XLOG) */
	sim_time_t	walwriter_last_flush;
	/* statistics */
	uint64_t	records, fpi, fpi_bytes, bytes;
	uint64_t	writes, write_bytes, fsyncs, flush_calls, leader_flushes;
	uint64_t	write_ns, sync_ns;	/* in pwrite and issue_xlog_fsync (pg_stat_wal's times) */
	uint64_t	segs_zeroed, segs_recycled, segs_removed, segs_opened;
	uint64_t	buffer_full_waits;	/* found the ring slot unwritten */
	uint64_t	buffers_full;		/* ... and wrote it (wal_buffers_full) */
	uint64_t	write_hist[16];		/* pwrite sizes: bucket k = [2^k, 2^(k+1)) pages */
};

/* Checkpointer state (checkpointer.c, CreateCheckPoint in xlog.c). */
struct pg_ckpt {
	sim_time_t	last_start;		/* last_checkpoint_time */
	uint64_t	start_lsn;		/* ckpt_start_recptr */
	double		cached_elapsed;		/* ckpt_cached_elapsed */
	bool		running;
	uint64_t	*sort_keys;		/* CkptBufferIds: (tag << 32 | buf), sorted */
	/* history of completed checkpoints for the TPS figures */
	uint32_t	nr, cap;
	sim_time_t	*t_start, *t_write_end, *t_end;
	uint64_t	*buffers_written;
	uint64_t	total_written;
	uint64_t	files_synced;		/* segment files fsync'ed at checkpoint ends */
};

/* bgwriter state (BgBufferSync's statics). */
struct pg_bgw {
	bool		saved_info_valid;
	int64_t		prev_strategy_buf_id;
	uint64_t	prev_strategy_passes;
	int64_t		next_to_clean;
	uint64_t	next_passes;
	double		smoothed_alloc, smoothed_density;
	bool		sleeping;
	struct sim_waitq latch;
	uint64_t	written, rounds;
};

/* client=local: one pgbench thread (-j), serving connections c with
 * c mod nthreads == its index (pg_client.c). */
struct pg_client_thread {
	struct pg		*pg;
	uint32_t		index;
	struct sim_waitq	wait;		/* poll(): a result arrived */
	uint32_t		*ready;		/* ring of backends whose result waits */
	uint32_t		head, tail, cap;
	struct page_frag	frag;		/* slab=on: the thread's task page fragment */
	struct sim_task		*task;
};

struct pg {
	struct pg_config	cfg;		/* copy; strings borrowed from the scenario */
	struct machine		*m;
	struct sim		*sim;
	struct super_block	*sb;
	struct wl_stats		*stats;
	FILE			*txlog;		/* [pgbench] log: pgbench_log in the run folder */
	char			*txlog_path;	/* its path; NULL: no log */
	bool			txlog_failed;	/* creating or writing it failed */
	char			txlog_error[600];
	struct sim_rng		log_rng;	/* sampling_rate's draws, a stream of their own */
	double			lru_multiplier;
	uint32_t		relseg_blocks;	/* RELSEG_SIZE: blocks per relation segment file */
	struct sim_rng		init_rng;	/* start state choices (data_cached, wal_cached) */

	/* derived sizes */
	uint64_t		naccounts;	/* 100000 x scale */
	uint32_t		rows_per_page;	/* accounts heap rows per page at the fillfactor */
	uint32_t		leaf_fpi_bytes;	/* an FPI of a pkey leaf: page minus hole + header */
	uint32_t		leaf_tuples;	/* pkey entries per leaf */
	uint32_t		nlevels;	/* btree levels, leaf = 0 */
	uint32_t		level_first[PG_MAX_BTREE_LEVELS];	/* block of each level's first page */
	uint32_t		level_pages[PG_MAX_BTREE_LEVELS];
	uint32_t		fanout;		/* internal page fanout */
	struct pg_relation	rel[PG_NR_RELS];

	/* shared memory */
	bool			hugetlb;
	uint64_t		*tlb;		/* [ncpus * tlb_entries]: (vpn << 20 | proc + 1) */
	uint64_t		tlb_misses_4k, tlb_misses_2m;
	uint32_t		nr_asids;
	struct pg_client_thread	*threads;	/* client=local: pgbench -j threads */
	uint32_t		nthreads;
	struct shmem_object	*shm;
	struct hugetlb_file	*hshm;
	unsigned long		shm_base, shm_size;
	unsigned long		image_base;	/* the process image's mapping (pgbench.c), 0 = none */
	unsigned long		off_xlog, off_desc, off_blocks, off_ckpt, off_hash, off_misc;
	unsigned long		off_elems, off_buckets;	/* [pgbench] locks: the dynahash */

	struct pg_bufpool	bp;
	struct sim_spinlock	strategy_lock;	/* StrategyControl->buffer_strategy_lock */
	/* [pgbench] locks: the buffer mapping table's free-list spinlocks
	 * (FreeListData.mutex) */
	struct sim_spinlock	*hash_fl_lock;
	/* [pgbench] locks: the buffer mapping partition LWLocks
	 * (NUM_BUFFER_PARTITIONS), ProcArrayLock and the group XID clearing
	 * list (procArrayGroupFirst: a backend's id + 1, 0 = empty) */
	struct pg_lwlock	*buf_mapping;
	struct pg_lwlock	proc_array_lock;
	uint32_t		group_first;
	uint64_t		group_leaders, group_cleared;
	struct pg_xlog		xlog;
	struct pg_ckpt		ckpt;
	struct pg_bgw		bgw;

	/* the relations' ends (RelationGetBufferForTuple + RelationAddBlocks):
	 * pgbench_history's and, where its pages fill up, pgbench_accounts' */
	struct pg_heap_tail	tail[PG_NR_RELS];
	/* pgbench_accounts' heap pages (pg_heap.c): [heap_blocks_max],
	 * relation blocks; the rows whose newest version left its loaded
	 * page (open addressing, key row + 1, 0 = empty) */
	struct pg_heap_page	*heap_page;
	uint32_t		heap_blocks_max;	/* loaded blocks + room to grow (rel's max_blocks) */
	uint32_t		heap_min_free;		/* heap_page_prune_opt's minfree */
	uint32_t		heap_save_free;		/* the fillfactor's reserve */
	uint64_t		*moved_key;
	uint32_t		*moved_blk;
	uint32_t		moved_mask, moved_rows;
	uint64_t		hot_updates, nonhot_updates, heap_prunes;
	uint64_t		tcp_remote_msgs;	/* client=local: read on another CPU
							 * than sent from (cost tcp_remote) */

	/* processes */
	struct mm_struct	*postmaster;
	struct pg_proc		*backends;
	uint32_t		nbackends;
	struct pg_proc		checkpointer, bgwriter, walwriter;
	struct sim_waitq	ckpt_latch;	/* the checkpointer's latch */

	/* blocks read into shared buffers per relation (pg_statio_user_tables'
	 * heap_blks_read and idx_blks_read) */
	uint64_t		rel_reads[PG_NR_RELS];
	/* TPS samples for the checkpoint figures (every cfg.progress_interval) */
	uint64_t		*tps_tx;
	uint32_t		nr_tps, cap_tps;
	uint64_t		tx_total;
	unsigned long		pt_peak;	/* NR_PAGETABLE peak (pages) */
	uint64_t		*pt_samples;	/* NR_PAGETABLE at each sample */
	/* the client backends' cumulative time by wait event at each sample,
	 * waits in progress included (pg_wait_snapshot); the cells of the
	 * tables pg_report hands over (waits.csv, checkpoints.csv) */
	uint64_t		(*wait_samples)[PG_WAIT_NR];
	/* pg_stat_wal's counters at each sample (pg_wal_snapshot) */
	uint64_t		(*wal_samples)[PG_WAL_NR];
	sim_time_t		*sample_t;
	const char		*wait_cols[PG_WAIT_NR + 1];
	unsigned char		wait_dec[PG_WAIT_NR + 1];
	double			*wait_cells, *ckpt_cells, *wal_cells;

	/* test hooks (NULL in runs): every touch, every data-block write */
	void			(*on_touch)(struct pg_proc *p, unsigned long addr, bool write);
	void			(*on_write)(struct pg_proc *p, uint32_t blk);
	void			(*on_wal_write)(struct pg_proc *p, uint64_t segno, uint64_t off, uint64_t bytes);
	void			*hook_ctx;

	/* model-level counters */
	uint64_t		tx_fpi;
	uint64_t		heap_hits, heap_accesses;
	/* the client backends' time under each wait event (pg_proc's wait_event) */
	uint64_t		wait_ns[PG_WAIT_NR];
	int			backend_kind;	/* their task kind, -1 before they start */
};

/* Sample page tables, transactions and wait times from the measurement
 * start, every stats interval (pg_start_tasks; tests). */
void pg_sample_start(struct pg *pg);

/* pgstat_report_wait_start / _end (utils/wait_event.h): `p` waits under
 * `e` until it goes on.  Waits do not nest, as in PostgreSQL. */
static inline void pgstat_report_wait_start(struct pg_proc *p, enum pg_wait_event e)
{
	if (!p)
		return;
	SIM_ASSERT(p->wait_event == PG_WAIT_CPU);
	p->wait_event = (uint8_t)e;
	p->wait_start = sim_now(p->pg->sim);
}

static inline void pgstat_report_wait_end(struct pg_proc *p)
{
	if (!p)
		return;
	if (p->is_backend)
		p->pg->wait_ns[p->wait_event] += sim_now(p->pg->sim) - p->wait_start;
	p->wait_event = PG_WAIT_CPU;
}

/* MyProc when the current task is one of pg's backends, else NULL (an
 * auxiliary process, whose wait events are not kept, or a unit test's
 * task). */
static inline struct pg_proc *pg_my_backend(const struct pg *pg)
{
	const struct sim_task *t = sim_current(pg->sim);

	return t && sim_task_kind_of(t) == pg->backend_kind ? sim_task_arg(t) : NULL;
}

/* ---- pgbench.c ------------------------------------------------------------- */
/* Build the database, shared memory and processes (no tasks yet);
 * NULL with a message when the environment cannot hold it. */
struct pg *pg_setup(const struct wl_env *env, const struct pg_config *c, struct wl_stats *stats,
		    char *err, size_t errlen);
/* Start the backends' and auxiliary processes' tasks at time 0. */
void pg_start_tasks(struct pg *pg);
void pg_free(struct pg *pg);
/* Table and index shapes from scale and fillfactor (pg->cfg). */
void pg_shapes(struct pg *pg);
/* One simple-update transaction of backend `p` (task context; the client
 * round trips and pg_tx_cpu are the caller's). */
void pg_transaction(struct pg_proc *p);
/* XLogInsert of a `len`-byte record changing global block `blk` in `buf`,
 * with a `fpi_bytes` image at its first change after the REDO point (0:
 * never), then MarkBufferDirty + PageSetLSN (pgbench.c) */
void pg_log_page_change(struct pg_proc *p, uint32_t buf, uint32_t blk, uint32_t len, uint32_t fpi_bytes);
bool pg_needs_fpi(const struct pg *pg, uint32_t blk);
/* _bt_search for `row`'s key; leaf_write: the leaf is returned pinned for
 * an insert (else every page is released and PG_NONE returned) */
uint32_t pg_btree_descend(struct pg_proc *p, uint64_t row, bool leaf_write);

/* pg_heap.c: the accounts heap's pages, the relations' ends */
int pg_heap_init(struct pg *pg);
void pg_heap_release(struct pg *pg);
uint32_t pg_heap_block(const struct pg *pg, uint64_t row);
void pg_heap_page_prune_opt(struct pg_proc *p, uint32_t blk, uint32_t buf);
void pg_heap_update(struct pg_proc *p, uint64_t row, uint32_t blk, uint32_t buf);
void pg_fsm_push(struct pg_heap_tail *t, uint32_t blk);
bool pg_fsm_pop(struct pg_heap_tail *t, uint32_t *blk);
uint32_t pg_relation_add_blocks(struct pg_proc *p, enum pg_rel r, uint32_t *blkp);
/* The checkpoint-dip figures of the TPS series `st` of a run that ended at
 * `now`, around the checkpoint starts in `c` (pgbench.c; report time). */
void pg_checkpoint_figures(const struct wl_stats *st, const struct pg_ckpt *c, sim_time_t now,
			   struct wl_report *out);
/* A process touches shared or private memory at `addr` (the MMU; faults). */
void pg_touch(struct pg_proc *p, unsigned long addr, bool write);
/* A transaction of `p`'s client ended now after `latency`: the stats, and
 * the per-transaction log ([pgbench] log). */
void pg_tx_done(struct pg *pg, struct pg_proc *p, sim_time_t latency);
/* A process's start: one access to each region of the process image. */
void pg_image_touch(struct pg_proc *p);
static inline unsigned long pg_buf_block_addr(const struct pg *pg, uint32_t buf)
{
	return pg->shm_base + pg->off_blocks + (unsigned long)buf * PG_BLCKSZ;
}
static inline unsigned long pg_buf_desc_addr(const struct pg *pg, uint32_t buf)
{
	return pg->shm_base + pg->off_desc + (unsigned long)buf * 64;
}

/* ---- pg_smgr.c: relation files (md.c, fd.c) ---------------------------------- */
int pg_smgr_init(struct pg *pg);
void pg_smgr_release(struct pg *pg);
/* Put one 8 KiB block of a file in the page cache as a clean folio, the
 * way an 8 KiB buffered write under the policy would have; false when
 * memory ran out. */
bool pg_prewarm_block(struct pg *pg, struct inode *inode, unsigned long index);
/* Relation and block of a global block id. */
enum pg_rel pg_blk_rel(const struct pg *pg, uint32_t blk, uint32_t *relblk);
/* mdread / mdwrite of one block: pread/pwrite of 8 KiB; mdwrite
 * registers the segment for the next checkpoint's fsync. */
void pg_mdread(struct pg_proc *p, uint32_t blk);
void pg_mdwrite(struct pg_proc *p, uint32_t blk);
/* mdzeroextend: add `n` zeroed blocks at the end of `rel` (fallocate
 * above 8 blocks, else pg_pwrite_zeros). */
void pg_mdzeroextend(struct pg_proc *p, enum pg_rel rel, uint32_t n);
/* mdwriteback: sync_file_range(SYNC_FILE_RANGE_WRITE) over blocks
 * [blk, blk + n) of one segment. */
void pg_mdwriteback(struct pg_proc *p, uint32_t blk, uint32_t n);
/* ProcessSyncRequests: fsync every segment with a pending request. */
uint32_t pg_process_sync_requests(struct pg_proc *p);
/* Block arrays must cover `blk` (history grows). */
void pg_blocks_reserve(struct pg *pg, uint32_t nblk);

/* ---- pg_bufmgr.c: the buffer pool --------------------------------------------- */
int pg_bufmgr_init(struct pg *pg);
void pg_bufmgr_release(struct pg *pg);
/* ReadBuffer: the buffer holding `blk`, pinned (loaded on a miss). */
uint32_t pg_read_buffer(struct pg_proc *p, uint32_t blk, bool write);
/* Host cache hints for a coming pg_read_buffer of `blk` (no effect on the
 * model): stage 1 what the block id alone locates, stage 2 what its
 * buffer locates; pg_tlb_prefetch: the TLB model's slot of an address. */
void pg_prefetch_block(struct pg_proc *p, uint32_t blk, bool stage2);
void pg_tlb_prefetch(struct pg_proc *p, unsigned long addr);
void pg_release_buffer(struct pg_proc *p, uint32_t buf);
/* GetVictimBuffer: a clean buffer out of the mapping, pinned once. */
uint32_t pg_get_victim_buffer(struct pg_proc *p);
/* ExtendBufferedRelShared's step for one new (zeroed) block: give the
 * victim `buf` the tag `blk`, valid. */
void pg_assign_new_buffer(struct pg_proc *p, uint32_t buf, uint32_t blk);
/* MarkBufferDirty + PageSetLSN */
void pg_mark_dirty(struct pg *pg, uint32_t buf, uint64_t lsn);
/* StrategyGetBuffer: a victim with refcount 0 and usage 0 (not pinned yet). */
uint32_t pg_strategy_get_buffer(struct pg_proc *p);
void pg_s_lock(struct pg_proc *p, struct sim_spinlock *l);
/* pg_client.c: client=local */
int pg_client_init(struct pg *pg);
/* slab=on: every backend's connection socket(s), both client modes. */
void pg_client_connect(struct pg *pg);
void pg_client_release(struct pg *pg);
void pg_client_start(struct pg *pg);
void pg_stmt_begin(struct pg_proc *p);	/* recv a statement, charge its CPU */
void pg_stmt_end(struct pg_proc *p);	/* send its result */
void pg_s_unlock(struct pg_proc *p, struct sim_spinlock *l);
/* [pgbench] locks (pgbench.c): GetSnapshotData under ProcArrayLock shared;
 * ProcArrayEndTransaction for a transaction with an XID. */
void pg_get_snapshot(struct pg_proc *p);
void pg_proc_array_end_transaction(struct pg_proc *p);
/* pg_tx_cpu less the parts [pgbench] locks charges as steps of their own. */
uint64_t pg_tx_cpu_unmodelled(const struct pg *pg);
/* SyncOneBuffer: BUF_WRITTEN | BUF_REUSABLE */
int pg_sync_one_buffer(struct pg_proc *p, uint32_t buf, bool skip_recently_used);
/* ScheduleBufferTagForWriteback / IssuePendingWritebacks */
void pg_schedule_writeback(struct pg_proc *p, uint32_t blk);
void pg_issue_pending_writebacks(struct pg_proc *p);
void pg_wb_context_init(struct pg_wb_context *wb, uint64_t flush_after_bytes);
/* BufferSync: the checkpoint's buffer writes; returns buffers written. */
uint64_t pg_buffer_sync(struct pg_proc *p);
/* BgBufferSync: one bgwriter round; true when it may hibernate. */
bool pg_bg_buffer_sync(struct pg_proc *p);

/* ---- pg_xlog.c: WAL ------------------------------------------------------------- */
void pg_lwlock_init(struct pg_lwlock *l, struct pg *pg, const char *name);
void pg_lwlock_acquire(struct sim *sim, struct pg_lwlock *l);
/* LWLockAcquireOrWait: true with the lock, or false after sleeping until
 * it was released (without it). */
bool pg_lwlock_acquire_or_wait(struct sim *sim, struct pg_lwlock *l);
void pg_lwlock_release(struct sim *sim, struct pg_lwlock *l);
/* LWLockConditionalAcquire(LW_EXCLUSIVE): the lock if it is free now. */
bool pg_lwlock_conditional_acquire(struct sim *sim, struct pg_lwlock *l);
void pg_lwlock_acquire_shared(struct sim *sim, struct pg_lwlock *l);
void pg_lwlock_release_shared(struct sim *sim, struct pg_lwlock *l);
/* The WAL at start: 0, -ENOSPC (the segments do not fit on the device)
 * or -ENOMEM (wal_cached's share of them does not fit in memory). */
int pg_xlog_init(struct pg *pg);
/* The segment files the WAL takes at start besides the current one:
 * wal_recycled's ahead of it and wal_since_redo's behind it. */
uint64_t pg_wal_start_segments(const struct pg_config *c);
void pg_xlog_release(struct pg *pg);
/* XLogInsertRecord: reserve and copy `len` bytes; returns the end LSN. */
uint64_t pg_xlog_insert(struct pg_proc *p, uint32_t len);
/* XLogFlush(lsn): group commit. */
void pg_xlog_flush(struct pg_proc *p, uint64_t lsn);
/* XLogBackgroundFlush: one walwriter round; true if it did work. */
bool pg_xlog_background_flush(struct pg_proc *p);
/* Position arithmetic (exposed for tests). */
uint64_t pg_xlog_advance(const struct pg_xlog *x, uint64_t pos, uint64_t len);
/* CreateCheckPoint's WAL side: the REDO point, and after the buffers are
 * written the checkpoint record, the distance estimate, recycling
 * (RemoveOldXlogFiles) and PreallocXlogFiles. */
void pg_xlog_set_redo(struct pg_proc *p);
void pg_xlog_checkpoint_done(struct pg_proc *p);
/* XLOGfileslop (exposed for tests). */
uint64_t pg_xlog_recycle_segno(const struct pg *pg, uint64_t redo);

/* ---- pg_aux.c: checkpointer, bgwriter, walwriter -------------------------------- */
void pg_checkpointer_main(struct sim *sim, void *arg);
void pg_bgwriter_main(struct sim *sim, void *arg);
void pg_walwriter_main(struct sim *sim, void *arg);
/* CreateCheckPoint (the whole checkpoint, in the checkpointer). */
void pg_create_checkpoint(struct pg_proc *p);
/* RequestCheckpoint */
void pg_request_checkpoint(struct pg *pg);
/* IsCheckpointOnSchedule (exposed for tests) */
bool pg_checkpoint_on_schedule(struct pg *pg, double progress);

#endif /* SLOWPATH_WORKLOAD_PG_INTERNAL_H */
