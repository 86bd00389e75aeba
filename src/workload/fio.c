/* SPDX-License-Identifier: MIT */
/*
 * fio.c — workload kind `fio`: fio jobs doing O_DIRECT I/O to a raw block
 * device ([fio NAME] sections with fio's option names), the driver of the
 * FOLL_PIN accounting case (the 2026 linux-mm thread, docs/references.md, mm/gup.c, docs/fio.md).
 *
 * Each of `numjobs` jobs is one task with its own I/O buffer (iodepth x bs
 * bytes of user memory, allocated by the job when it starts) and its own
 * RNG stream.  A job runs fio's loop for an asynchronous engine:
 *
 *   while the queue has room (in flight < iodepth):
 *       one system call (io_submit / io_uring_enter) per
 *       iodepth_batch_submit requests; per request the kernel's
 *       submission (mm/direct-io.c: blkdev_direct_IO_async) — GUP pins
 *       the request's buffer pages, the device gets the bio
 *   when the queue is full (or the job is stopping):
 *       if nothing has completed: wait — hipri: busy-poll (CPU time) until
 *       the first completion; otherwise sleep until the device's callback
 *       wakes the job (a context switch when it runs again)
 *       reap up to iodepth_batch_complete_max completions: per request the
 *       kernel's completion (blkdev_dio_complete: interrupt or poll,
 *       ki_complete, bio_release_pages -> unpin)
 *
 * System calls: libaio pays one io_submit per submission batch and one
 * io_getevents per reap; io_uring one io_uring_enter per submission batch,
 * reaps from the CQ ring without a call unless it must wait or poll
 * (hipri: one io_uring_enter with GETEVENTS per reap).
 *
 * Where completions run: the device calls back in engine context, which
 * only marks the request done; the completion work is charged to the job's
 * task when it reaps, i.e. on the submitting CPU (as with per-CPU NVMe
 * queues whose interrupt is affine to the submitting CPU, and as polling
 * is).  So IOPS per CPU = completed I/Os / CPU time of the job tasks.
 *
 * Measured phase: from the run's ramp_time to its end.  CPU time is each
 * job task's cpu + spin time, read by the job itself (after a sync) at
 * its first step past ramp_time and at report time; the I/Os it reaps in
 * between are counted.  At the end a job may have reaped I/Os in a
 * stretch whose CPU time the stopped run never synced: an error of at
 * most one submission or reap batch per job.
 *
 * Simplifications: only direct=1 (buffered I/O is the page cache's); one
 * bio per request (bs <= 1 MiB); cpus_allowed_policy=shared with a set
 * that is neither one CPU nor all CPUs is refused (the engine runs a task
 * on one CPU or on any); no rwmix, no think time, no rate limits; fio's
 * own userspace CPU per I/O is not charged (t/io_uring-class engines
 * spend little there, and it is the same in every accounting mode).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/direct-io.h"
#include "mm/gup.h"
#include "mm/mmzone.h"
#include "sim/bdev.h"
#include "sim/rng.h"
#include "workload/fio.h"

enum fio_rw { FIO_READ, FIO_WRITE, FIO_RANDREAD, FIO_RANDWRITE };
enum fio_engine { FIO_LIBAIO, FIO_IO_URING };
enum fio_cpus_policy { FIO_CPUS_SHARED, FIO_CPUS_SPLIT };
enum fio_mem { FIO_MEM_MALLOC, FIO_MEM_MMAPHUGE };

static const char *const rw_names[] = { "read", "write", "randread", "randwrite", NULL };
static const char *const engine_names[] = { "libaio", "io_uring", NULL };
static const char *const cpus_policy_names[] = { "shared", "split", NULL };
static const char *const mem_names[] = { "malloc", "mmaphuge", NULL };

struct fio_config {
	uint64_t	numjobs;
	uint64_t	bs;		/* bytes */
	uint64_t	iodepth;
	int		rw;		/* enum fio_rw */
	bool		direct;
	uint64_t	size;		/* bytes of the device each job addresses */
	char		*filename;	/* a [device NAME] */
	uint64_t	runtime;	/* ns, 0 = until the run ends */
	int		ioengine;	/* enum fio_engine */
	bool		fixedbufs;
	bool		hipri;
	uint64_t	iodepth_batch_submit;
	uint64_t	iodepth_batch_complete_max;	/* 0 = iodepth */
	char		*cpus_allowed;	/* "" = all CPUs */
	int		cpus_allowed_policy;
	int		mem;		/* enum fio_mem */
};

#define C(f) offsetof(struct fio_config, f)
static const struct opt_def fio_options[] = {
	{ "numjobs", OPT_UINT, C(numjobs), "1", 1, 4096, NULL, 0,
	  "number of jobs (tasks) (--scale 1/N divides it)" },
	{ "bs", OPT_SIZE, C(bs), "4k", 512, 1ULL << 20, NULL, 0,
	  "bytes per I/O, a multiple of 512, at most 1m (one bio)" },
	{ "iodepth", OPT_UINT, C(iodepth), "1", 1, 65536, NULL, 0,
	  "I/Os each job keeps in flight" },
	{ "rw", OPT_ENUM, C(rw), "read", 0, 0, rw_names, 0,
	  "read, write (sequential per job) or randread, randwrite (uniform, bs-aligned)" },
	{ "direct", OPT_BOOL, C(direct), "1", 0, 0, NULL, 0,
	  "O_DIRECT; only direct=1 is modelled (buffered I/O belongs to the page cache)" },
	{ "size", OPT_SIZE, C(size), "1g", 512, 0, NULL, 0,
	  "bytes of the device a job's offsets fall in (from offset 0), at most its capacity "
	  "(--scale 1/N divides it)" },
	{ "filename", OPT_STRING, C(filename), "", 0, 0, NULL, 0,
	  "the [device NAME] the jobs do I/O to (a raw block device)" },
	{ "runtime", OPT_TIME, C(runtime), "0", 0, 0, NULL, SIM_NSEC_PER_SEC,
	  "stop submitting after this long (bare numbers are seconds); 0 = until the run ends" },
	{ "ioengine", OPT_ENUM, C(ioengine), "libaio", 0, 0, engine_names, 0,
	  "libaio (io_submit/io_getevents) or io_uring" },
	{ "fixedbufs", OPT_BOOL, C(fixedbufs), "0", 0, 0, NULL, 0,
	  "io_uring registered buffers: the kernel maps them once and pins nothing per I/O" },
	{ "hipri", OPT_BOOL, C(hipri), "0", 0, 0, NULL, 0,
	  "io_uring polled completions (IOPOLL): no interrupt, the job polls" },
	{ "iodepth_batch_submit", OPT_UINT, C(iodepth_batch_submit), "1", 1, 65536, NULL, 0,
	  "I/Os submitted per system call (fio's iodepth_batch)" },
	{ "iodepth_batch_complete_max", OPT_UINT, C(iodepth_batch_complete_max), "0", 0, 65536, NULL, 0,
	  "most completions reaped per reap; 0 = iodepth" },
	{ "cpus_allowed", OPT_STRING, C(cpus_allowed), "", 0, 0, NULL, 0,
	  "CPUs the jobs may run on, e.g. 0-3,8; empty = all" },
	{ "cpus_allowed_policy", OPT_ENUM, C(cpus_allowed_policy), "shared", 0, 0, cpus_policy_names, 0,
	  "shared: every job may use the whole set (one CPU or all CPUs only); split: job i runs on "
	  "the i-th CPU of the set" },
	{ "mem", OPT_ENUM, C(mem), "malloc", 0, 0, mem_names, 0,
	  "buffer memory: malloc (4 KiB pages, one pin per page) or mmaphuge (2 MiB folios, one pin "
	  "per folio in an I/O; modelled as PMD-mapped 2 MiB folios, no hugetlb pool)" },
	OPT_END
};
#undef C

/* ---- cpus_allowed ------------------------------------------------------------- */

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static int parse_cpu_number(const char **p, unsigned long *out)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	*out = strtoul(*p, &end, 10);
	if (errno || *out > 1000000)
		return -1;
	*p = end;
	return 0;
}

int fio_parse_cpus(const char *text, unsigned int ncpus, unsigned int *cpus, unsigned int max,
		   char *err, size_t errlen)
{
	const char *p = text;
	unsigned int n = 0, k = 0;

	for (;;) {
		unsigned long lo, hi;

		if (parse_cpu_number(&p, &lo)) {
			snprintf(err, errlen, "invalid CPU list '%s' (expected e.g. 0-3,8)", text);
			return -1;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu_number(&p, &hi) || hi < lo) {
				snprintf(err, errlen, "invalid CPU range in '%s'", text);
				return -1;
			}
		}
		if (ncpus && hi >= ncpus) {
			snprintf(err, errlen, "CPU %lu in cpus_allowed '%s' does not exist (the machine has %u)",
				 hi, text, ncpus);
			return -1;
		}
		for (unsigned long c = lo; c <= hi; c++) {
			if (n == max) {
				snprintf(err, errlen, "cpus_allowed '%s' names more than %u CPUs", text, max);
				return -1;
			}
			cpus[n++] = (unsigned int)c;
		}
		if (*p == '\0')
			break;
		if (*p != ',') {
			snprintf(err, errlen, "invalid CPU list '%s' (expected e.g. 0-3,8)", text);
			return -1;
		}
		p++;
	}
	qsort(cpus, n, sizeof(*cpus), cmp_uint);
	for (unsigned int i = 0; i < n; i++)	/* drop duplicates */
		if (!k || cpus[k - 1] != cpus[i])
			cpus[k++] = cpus[i];
	return (int)k;
}

/* ---- state ------------------------------------------------------------------------ */

struct fio_state;
struct fio_job;

/* One io_u: a buffer slot and the request it carries. */
struct fio_io {
	struct fio_job	*job;
	struct dio	dio;
	sim_time_t	issued;		/* submission time (latency start) */
	sim_time_t	done_at;	/* the device's completion time */
	bool		in_flight;
	bool		completed;	/* the device called back, not yet reaped */
};

struct fio_job {
	struct fio_state *st;
	unsigned int	index;
	struct sim_rng	rng;
	struct sim_task	*task;
	struct user_buffer ub;
	bool		buffer_ok;
	bool		failed;		/* the buffer could not be allocated */
	struct fio_io	*io;		/* [iodepth] */
	uint32_t	*free_slots;	/* stack of free io indices */
	uint32_t	nr_free;
	uint32_t	*ready;		/* ring of completed io indices, completion order */
	uint32_t	ready_head, nr_ready;
	uint32_t	inflight;
	uint64_t	seq_offset;
	struct sim_waitq wq;
	bool		waiting;
	bool		measuring;	/* past measure_start: counting */
	/* measured phase */
	uint64_t	cpu_at_start;	/* task cpu + spin ns at measure start */
	uint64_t	spin_at_start;
	uint64_t	ios, bytes, pages_grabbed;
};

struct fio_state {
	struct fio_config cfg;		/* copy; strings borrowed from the scenario */
	struct machine	*m;
	struct sim	*sim;
	struct bdev	*bdev;
	struct wl_stats	*stats;
	char		*kind_name;
	struct fio_job	*jobs;
	unsigned int	pages_per_slot;	/* pages an I/O may touch (for the buffer size) */
	unsigned int	nr_cpus_used;	/* CPUs the jobs can occupy at once */
	uint64_t	folds_at_start;
	uint64_t	line_waits_at_start;	/* contended vmstat-line acquisitions */
	bool		measuring;
};

/* ---- one job ------------------------------------------------------------------------ */

static void fio_io_end(struct sim *sim, void *arg, int error)
{
	struct fio_io *io = arg;
	struct fio_job *job = io->job;
	uint32_t slot = (uint32_t)(io - job->io);
	uint32_t depth = (uint32_t)job->st->cfg.iodepth;

	(void)error;
	io->completed = true;
	job->ready[(job->ready_head + job->nr_ready) % depth] = slot;
	job->nr_ready++;
	if (job->waiting) {
		job->waiting = false;
		sim_wake_one(sim, &job->wq);
	}
}

static uint64_t fio_next_offset(struct fio_job *job)
{
	const struct fio_config *c = &job->st->cfg;
	uint64_t blocks = c->size / c->bs, off;

	if (c->rw == FIO_RANDREAD || c->rw == FIO_RANDWRITE)
		return (blocks > 1 ? rng_below(&job->rng, blocks) : 0) * c->bs;
	off = job->seq_offset;
	job->seq_offset += c->bs;
	if (job->seq_offset + c->bs > blocks * c->bs)
		job->seq_offset = 0;
	return off;
}

/* Queue one I/O: take a slot, hand the request to the kernel model. */
static void fio_queue_io(struct sim *sim, struct fio_job *job)
{
	struct fio_state *st = job->st;
	const struct fio_config *c = &st->cfg;
	uint32_t slot = job->free_slots[--job->nr_free];
	struct fio_io *io = &job->io[slot];
	uint64_t first_byte = (uint64_t)slot * c->bs;

	io->dio = (struct dio){
		.ub = &job->ub,
		.first_page = (unsigned long)(first_byte >> PAGE_SHIFT),
		.nr_pages = (unsigned int)(((first_byte + c->bs - 1) >> PAGE_SHIFT) - (first_byte >> PAGE_SHIFT) + 1),
		.op = c->rw == FIO_READ || c->rw == FIO_RANDREAD ? BIO_READ : BIO_WRITE,
		.offset = fio_next_offset(job),
		.len = c->bs,
		.iface = c->ioengine == FIO_LIBAIO ? DIO_LIBAIO : DIO_IO_URING,
		.fixed = c->fixedbufs,
		.polled = c->hipri,
	};
	io->issued = sim_now(sim);
	io->in_flight = true;
	io->completed = false;
	job->inflight++;
	io->done_at = blkdev_direct_IO_async(st->m, st->bdev, &io->dio, fio_io_end, io);
}

/* Wait until at least one I/O has completed (one is in flight). */
static void fio_wait(struct sim *sim, struct fio_job *job)
{
	const struct fio_config *c = &job->st->cfg;

	if (c->hipri) {
		/* io_uring IOPOLL: the job spins in blk_mq_poll until the first
		 * completion; the device fixed its time at submission */
		sim_time_t first = SIM_TIME_NEVER, now = sim_now(sim);

		for (uint64_t i = 0; i < c->iodepth; i++)
			if (job->io[i].in_flight && !job->io[i].completed && job->io[i].done_at < first)
				first = job->io[i].done_at;
		SIM_ASSERT(first != SIM_TIME_NEVER);
		sim_path_push(sim, "io_iopoll");
		if (first > now)
			sim_charge(sim, first - now);
		sim_sync(sim);
		sim_path_pop(sim);
		SIM_ASSERT(job->nr_ready > 0);
		return;
	}
	/* Sync first: completions due before the job's local time run now.
	 * Nothing can run between that check and sim_wait (its own sync has
	 * no pending time and the slice was just checked), so no wake-up is
	 * lost. */
	for (;;) {
		sim_sync(sim);
		if (job->nr_ready)
			break;
		job->waiting = true;
		sim_wait(sim, &job->wq, SIM_TIME_NEVER);
	}
}

/* Reap: wait if needed, then complete up to iodepth_batch_complete_max. */
static void fio_reap(struct sim *sim, struct fio_job *job)
{
	struct fio_state *st = job->st;
	const struct fio_config *c = &st->cfg;
	uint32_t depth = (uint32_t)c->iodepth;
	uint64_t max = c->iodepth_batch_complete_max ? c->iodepth_batch_complete_max : c->iodepth;
	bool uring = c->ioengine == FIO_IO_URING;
	bool syscall = !uring || c->hipri || !job->nr_ready;

	sim_path_push(sim, uring ? (syscall ? "io_uring_enter" : "io_uring_cqring") : "io_getevents");
	if (syscall)
		sim_charge_cost(sim, COST_syscall, 1);
	if (!job->nr_ready)
		fio_wait(sim, job);
	for (uint64_t n = 0; n < max && job->nr_ready; n++) {
		uint32_t slot = job->ready[job->ready_head];
		struct fio_io *io = &job->io[slot];
		sim_time_t now;

		job->ready_head = (job->ready_head + 1) % depth;
		job->nr_ready--;
		blkdev_dio_complete(st->m, &io->dio);
		now = sim_now(sim);
		io->in_flight = io->completed = false;
		job->inflight--;
		job->free_slots[job->nr_free++] = slot;
		if (job->measuring) {
			job->ios++;
			job->bytes += c->bs;
			job->pages_grabbed += io->dio.pages_grabbed;
		}
		wl_stats_tx(st->stats, now, now - io->issued);
	}
	sim_path_pop(sim);
}

/* The job's measured phase starts at its first loop step past the run's
 * measure_start: synced, so its CPU time so far is exact and every I/O it
 * reaps from here on is counted against the CPU it uses from here on. */
static void fio_job_measure_start(struct sim *sim, struct fio_job *job)
{
	struct sim_task_stats ts;

	sim_sync(sim);
	sim_task_stats(job->task, &ts);
	job->cpu_at_start = ts.cpu_ns + ts.spin_ns;
	job->spin_at_start = ts.spin_ns;
	job->measuring = true;
}

static void fio_job_fn(struct sim *sim, void *arg)
{
	struct fio_job *job = arg;
	struct fio_state *st = job->st;
	const struct fio_config *c = &st->cfg;
	unsigned long pages = (unsigned long)((c->iodepth * c->bs + PAGE_SIZE - 1) >> PAGE_SHIFT);
	sim_time_t end = c->runtime ? sim_now(sim) + c->runtime : SIM_TIME_NEVER;

	sim_path_push(sim, "buffer_alloc");
	job->failed = user_buffer_alloc(st->m, &job->ub, pages,
					c->mem == FIO_MEM_MMAPHUGE ? HPAGE_PMD_ORDER : 0) < 0;
	sim_path_pop(sim);
	if (job->failed)
		return;
	job->buffer_ok = true;
	for (;;) {
		bool stopping = sim_now(sim) >= end;

		if (!job->measuring && sim_now(sim) >= st->stats->measure_start)
			fio_job_measure_start(sim, job);

		if (!stopping && job->inflight < c->iodepth) {
			uint64_t room = c->iodepth - job->inflight;
			uint64_t n = c->iodepth_batch_submit < room ? c->iodepth_batch_submit : room;

			sim_path_push(sim, c->ioengine == FIO_LIBAIO ? "io_submit" : "io_uring_enter");
			sim_charge_cost(sim, COST_syscall, 1);
			for (uint64_t i = 0; i < n; i++)
				fio_queue_io(sim, job);
			sim_path_pop(sim);
			continue;
		}
		if (!job->inflight)
			break;
		fio_reap(sim, job);
	}
	user_buffer_free(st->m, &job->ub);
	job->buffer_ok = false;
}

/* ---- the workload type ----------------------------------------------------------------- */

static int fio_validate(const void *config, char *err, size_t errlen)
{
	const struct fio_config *c = config;
	unsigned int cpus[4096];

	if (!c->direct) {
		snprintf(err, errlen, "direct=0 is not modelled: the fio workload does O_DIRECT only");
		return -1;
	}
	if (!c->filename || !c->filename[0]) {
		snprintf(err, errlen, "filename= must name a [device NAME] section");
		return -1;
	}
	if (c->bs % 512) {
		snprintf(err, errlen, "bs must be a multiple of 512 bytes");
		return -1;
	}
	if (c->size < c->bs) {
		snprintf(err, errlen, "size must be at least bs");
		return -1;
	}
	if (c->ioengine != FIO_IO_URING && (c->fixedbufs || c->hipri)) {
		snprintf(err, errlen, "%s needs ioengine=io_uring", c->fixedbufs ? "fixedbufs" : "hipri");
		return -1;
	}
	if (c->iodepth_batch_submit > c->iodepth) {
		snprintf(err, errlen, "iodepth_batch_submit must not exceed iodepth");
		return -1;
	}
	if (c->iodepth * c->bs > (1ULL << 40)) {
		snprintf(err, errlen, "iodepth x bs is more than 1t of buffer per job");
		return -1;
	}
	if (c->cpus_allowed && c->cpus_allowed[0] &&
	    fio_parse_cpus(c->cpus_allowed, 0, cpus, 4096, err, errlen) < 0)
		return -1;
	return 0;
}

/* --scale 1/n: fewer jobs, and a region shrunk with the device (whose
 * capacity --scale divides too), at least one bs. */
static int fio_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct fio_config *c = config;

	(void)err;
	(void)errlen;
	c->numjobs = c->numjobs / n ? c->numjobs / n : 1;
	c->size = c->size / n >= c->bs ? c->size / n : c->bs;
	return 0;
}

static int fio_validate_env(const void *config, const struct wl_check_env *env, const char **bad_key,
			    char *err, size_t errlen)
{
	const struct fio_config *c = config;
	const struct bdev_config *d = env->device(env->ctx, c->filename);

	if (d && d->size_bytes && c->size > d->size_bytes) {
		*bad_key = "size";
		snprintf(err, errlen, "size=%llu is beyond the end of device '%s' (%llu bytes)",
			 (unsigned long long)c->size, c->filename, (unsigned long long)d->size_bytes);
		return -1;
	}
	return 0;
}

/* Contended acquisitions of the vmstat shared lines (vmstat.c): folds
 * that found the line taken, machine-wide. */
static uint64_t vmstat_line_waits(const struct machine *m)
{
	uint64_t n = 0;

	for (int i = 0; i < VMSTAT_NR_LINES; i++)
		if (m->vmstat_line[i].name[0])
			n += m->vmstat_line[i].lock.stats.contended;
	return n;
}

/* Measure start (engine context): the machine-wide fold and line-wait
 * counts.  (Each job notes its own CPU time when it gets there,
 * fio_job_measure_start.) */
static void fio_measure_start(struct sim *sim, void *arg)
{
	struct fio_state *st = arg;

	(void)sim;
	st->folds_at_start = st->m->gup_stat_folds;
	st->line_waits_at_start = vmstat_line_waits(st->m);
	st->measuring = true;
}

static void fio_destroy(void *state)
{
	struct fio_state *st = state;

	if (!st)
		return;
	for (uint64_t i = 0; i < st->cfg.numjobs && st->jobs; i++) {
		struct fio_job *job = &st->jobs[i];

		/* the machine is gone: only the host memory of the buffer, also
		 * when the run stopped while the job was still allocating it
		 * (buffer_ok not yet set; a leak the simulation fuzzer found) */
		user_buffer_discard(&job->ub);
		free(job->io);
		free(job->free_slots);
		free(job->ready);
	}
	free(st->jobs);
	free(st->kind_name);
	free(st);
}

static void *fio_start_env(const struct wl_env *env, const void *config, const char *instance,
			   struct wl_stats *stats, char *err, size_t errlen)
{
	const struct fio_config *c = config;
	struct fio_state *st;
	unsigned int ncpus = sim_ncpus(env->sim), *set, nset = ncpus;
	bool pin_each;
	int kind;

	if (!env->machine) {
		snprintf(err, errlen, "the fio workload needs a machine");
		return NULL;
	}
	set = calloc(ncpus, sizeof(*set));
	st = calloc(1, sizeof(*st));
	if (!set || !st)
		SIM_BUG("out of memory");
	for (unsigned int i = 0; i < ncpus; i++)
		set[i] = i;
	if (c->cpus_allowed && c->cpus_allowed[0]) {
		int n = fio_parse_cpus(c->cpus_allowed, ncpus, set, ncpus, err, errlen);

		if (n < 0)
			goto fail;
		nset = (unsigned int)n;
	}
	if (c->cpus_allowed_policy == FIO_CPUS_SHARED && nset != 1 && nset != ncpus) {
		snprintf(err, errlen, "cpus_allowed_policy=shared with %u of %u CPUs is not modelled "
			 "(a task runs on one CPU or on any); use cpus_allowed_policy=split", nset, ncpus);
		goto fail;
	}
	pin_each = c->cpus_allowed_policy == FIO_CPUS_SPLIT || nset == 1;
	st->cfg = *c;
	st->nr_cpus_used = c->numjobs < nset ? (unsigned int)c->numjobs : nset;
	st->m = env->machine;
	st->sim = env->sim;
	st->stats = stats;
	st->bdev = wl_env_device(env, c->filename, err, errlen);
	if (!st->bdev)
		goto fail;
	if (bdev_size(st->bdev) && c->size > bdev_size(st->bdev)) {
		snprintf(err, errlen, "size=%llu is beyond the end of device '%s' (%llu bytes)",
			 (unsigned long long)c->size, c->filename, (unsigned long long)bdev_size(st->bdev));
		goto fail;
	}
	if (c->iodepth * c->bs / 2 * c->numjobs > env->machine->memory) {
		snprintf(err, errlen, "the jobs' buffers (numjobs x iodepth x bs) need more than half "
			 "of the machine's memory");
		goto fail;
	}
	st->kind_name = wl_kind_name("fio", instance);
	st->jobs = calloc(c->numjobs, sizeof(*st->jobs));
	if (!st->jobs)
		SIM_BUG("out of memory");
	kind = sim_task_kind(st->sim, st->kind_name);
	for (uint64_t i = 0; i < c->numjobs; i++) {
		struct fio_job *job = &st->jobs[i];
		char name[96];
		struct sim_task_config tc = { .name = name, .kind = kind };

		job->st = st;
		job->index = (unsigned int)i;
		job->io = calloc(c->iodepth, sizeof(*job->io));
		job->free_slots = calloc(c->iodepth, sizeof(*job->free_slots));
		job->ready = calloc(c->iodepth, sizeof(*job->ready));
		if (!job->io || !job->free_slots || !job->ready)
			SIM_BUG("out of memory");
		for (uint64_t k = 0; k < c->iodepth; k++) {
			job->io[k].job = job;
			job->free_slots[c->iodepth - 1 - k] = (uint32_t)k;	/* slot 0 first */
		}
		job->nr_free = (uint32_t)c->iodepth;
		sim_waitq_init(&job->wq, "fio job");
		rng_init(&job->rng, sim_seed(st->sim), rng_stream_id(st->kind_name, i));
		snprintf(name, sizeof(name), "%s/%llu", st->kind_name, (unsigned long long)i);
		tc.cpu = pin_each ? (int)set[i % nset] : nset == ncpus ? (int)(i % ncpus) : SIM_CPU_ANY;
		tc.pinned = pin_each;
		job->task = sim_task_create(st->sim, &tc, fio_job_fn, job, 0);
	}
	sim_call_at(st->sim, stats->measure_start, fio_measure_start, st);
	free(set);
	return st;
fail:
	free(set);
	free(st);
	return NULL;
}

static void fio_report(void *state, struct wl_report *out)
{
	struct fio_state *st = state;
	sim_time_t now = sim_now(st->sim);
	double secs = st->measuring ? (double)(now - st->stats->measure_start) / 1e9 : 0;
	uint64_t ios = 0, bytes = 0, grabbed = 0, cpu = 0, spin = 0, failed = 0;
	unsigned int threshold = (unsigned int)st->m->node.per_cpu_nodestats[0].stat_threshold;

	for (uint64_t i = 0; i < st->cfg.numjobs; i++) {
		const struct fio_job *job = &st->jobs[i];
		struct sim_task_stats ts;

		sim_task_stats(job->task, &ts);
		ios += job->ios;
		bytes += job->bytes;
		grabbed += job->pages_grabbed;
		if (job->measuring) {
			cpu += ts.cpu_ns + ts.spin_ns - job->cpu_at_start;
			spin += ts.spin_ns - job->spin_at_start;
		}
		failed += job->failed;
	}
	out->has_transactions = true;
	out->stats = st->stats;
	wl_report_figure(out, "ios", (double)ios, "");
	wl_report_figure(out, "iops", secs > 0 ? (double)ios / secs : 0, "IOPS");
	wl_report_figure(out, "iops_per_cpu", cpu ? (double)ios / ((double)cpu / 1e9) : 0, "IOPS/CPU");
	wl_report_figure(out, "cpu_ns_per_io", ios ? (double)cpu / (double)ios : 0, "ns");
	wl_report_figure(out, "spin_ns_per_io", ios ? (double)spin / (double)ios : 0, "ns");
	wl_report_figure(out, "line_waits_per_io",
			 ios && st->measuring ?
			 (double)(vmstat_line_waits(st->m) - st->line_waits_at_start) / (double)ios : 0, "");
	wl_report_figure(out, "cpu_busy_share",
			 secs > 0 ? 100.0 * (double)cpu / 1e9 / (secs * (double)st->nr_cpus_used) : 0, "%");
	wl_report_figure(out, "bw", secs > 0 ? (double)bytes / secs / (1 << 20) : 0, "MiB/s");
	wl_report_figure(out, "pins_per_io", ios ? (double)grabbed / (double)ios : 0, "pages");
	wl_report_figure(out, "folds_per_second",
			 secs > 0 ? (double)(st->m->gup_stat_folds - st->folds_at_start) / secs : 0, "1/s");
	wl_report_figure(out, "vmstat_node_threshold", threshold, "");
	wl_report_figure(out, "jobs_failed", (double)failed, "");
}

/* Tasks at once: each job is one task. */
static uint64_t fio_nr_tasks(const void *config, const char **key)
{
	const struct fio_config *c = config;

	*key = "numjobs";
	return c->numjobs;
}

const struct workload_type fio_workload = {
	.kind = "fio",
	.help = "fio jobs doing O_DIRECT I/O to a raw block device (libaio or io_uring), pinning user pages",
	.options = fio_options,
	.config_size = sizeof(struct fio_config),
	.multiple = true,
	.validate = fio_validate,
	.validate_env = fio_validate_env,
	.scale = fio_scale,
	.nr_tasks = fio_nr_tasks,
	.start_env = fio_start_env,
	.report = fio_report,
	.destroy = fio_destroy,
};
