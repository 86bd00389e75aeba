/* SPDX-License-Identifier: MIT */
/* test_fio.c — the fio workload (workload/fio.c): the CPU cost per I/O
 * of each FOLL_PIN accounting mode against the cost table, IOPS per CPU
 * ordering, what the vmstat counters show, options and errors. */
#include <math.h>
#include <stdlib.h>

#include "mm_test.h"
#include "mm/gup.h"
#include "sim/bdev.h"
#include "workload/fio.h"

struct fio_run {
	struct wl_stats	stats;
	struct wl_report rep;
	uint64_t	events;
	uint64_t	acquired, released;	/* exact node counters at the end */
	uint64_t	pinned, unpinned;	/* gup.c's counts */
	uint64_t	context_switches;
	uint64_t	line_contended;		/* vmstat shared-line lock statistics */
	uint64_t	line_wait_ns;
	int		threshold;
	char		err[600];
};

static double figure(const struct fio_run *r, const char *name)
{
	for (unsigned int i = 0; i < r->rep.nr_figures; i++)
		if (strcmp(r->rep.figures[i].name, name) == 0)
			return r->rep.figures[i].value;
	return NAN;
}

/* The measured window ends where the run stops, possibly inside a job's
 * stretch of work that was never synced: up to one submission or reap
 * batch of I/Os per job whose CPU time is missing.  The tolerance of a
 * per-I/O figure: that much CPU spread over the window's I/Os. */
static double edge_ns(const struct fio_run *r, unsigned int batch, unsigned int jobs)
{
	return (double)batch * figure(r, "cpu_ns_per_io") * jobs / figure(r, "ios") + 0.01;
}

static void *fio_config(const char *const *kv, char *err, size_t errlen)
{
	void *cfg = calloc(1, fio_workload.config_size);

	if (!cfg || opt_apply_defaults(fio_workload.options, cfg))
		return NULL;
	for (; kv && kv[0]; kv += 2) {
		const struct opt_def *o = opt_find(fio_workload.options, kv[0]);

		if (!o || opt_parse_value(o, cfg, kv[1], err, errlen)) {
			opt_release(fio_workload.options, cfg);
			free(cfg);
			return NULL;
		}
	}
	return cfg;
}

/*
 * Run one fio section on a machine of `cpus` CPUs and `memory` (fio_run:
 * 1g; the vmstat threshold comes from the machine) under accounting `mode` for `ms` of virtual time, measuring
 * after `ramp_ms`.  `costs` NULL = the default table.  Returns 0, or -1
 * with r->err set (validate or start_env refused).
 */
static int fio_run_on(const char *const *kv, const char *mode, unsigned int cpus, const char *memory,
		      unsigned int ms, unsigned int ramp_ms, const struct cost_table *costs,
		      struct fio_run *r)
{
	char cpus_kv[32], acct[64], mem_kv[32];
	const char *mkv[] = { mem_kv, "zones=Normal:rest", cpus_kv, acct, NULL };
	struct mm_env e;
	struct sim_config sc = { 0 };
	struct bdev_config bc = { .name = "nvme", .lat_mean_ns = 10000, .lat_p99_ns = 20000,
				  .members = 1, .size_bytes = 1ULL << 40 };
	struct bdev *b;
	const char *name = "nvme";
	struct wl_env env;
	void *cfg, *st;
	struct sim_cpu_stats cs;

	memset(r, 0, sizeof(*r));
	snprintf(mem_kv, sizeof(mem_kv), "memory=%s", memory);
	snprintf(cpus_kv, sizeof(cpus_kv), "cpus=%u", cpus);
	snprintf(acct, sizeof(acct), "foll_pin_accounting=%s", mode);
	cfg = fio_config(kv, r->err, sizeof(r->err));
	if (!cfg)
		return -1;
	if (fio_workload.validate(cfg, r->err, sizeof(r->err)))
		goto fail_cfg;
	if (mm_env_config(&e, mkv))
		goto fail_cfg;
	sc.ncpus = cpus;
	sc.seed = 1;
	sc.costs = costs;
	e.sim = sim_create(&sc);
	e.m = machine_create(e.sim, &e.cfg, &e.sysctl, NULL, e.err, sizeof(e.err));
	if (!e.m)
		goto fail_env;
	b = bdev_create(e.sim, &bc);
	env = (struct wl_env){ e.m, e.sim, &b, &name, 1, NULL };
	wl_stats_init(&r->stats, (sim_time_t)ramp_ms * SIM_NSEC_PER_MSEC, SIM_NSEC_PER_MSEC);
	st = fio_workload.start_env(&env, cfg, "t", &r->stats, r->err, sizeof(r->err));
	if (!st)
		goto fail_env;
	r->events = sim_run(e.sim, (sim_time_t)ms * SIM_NSEC_PER_MSEC);
	fio_workload.report(st, &r->rep);
	r->acquired = (uint64_t)node_page_state_exact(&e.m->node, NR_FOLL_PIN_ACQUIRED);
	r->released = (uint64_t)node_page_state_exact(&e.m->node, NR_FOLL_PIN_RELEASED);
	r->pinned = e.m->gup_pinned;
	r->unpinned = e.m->gup_unpinned;
	r->threshold = e.m->node.per_cpu_nodestats[0].stat_threshold;
	for (unsigned int c = 0; c < cpus; c++) {
		sim_cpu_stats(e.sim, c, &cs);
		r->context_switches += cs.switches;
	}
	for (const struct sim_spinlock *l = sim_spinlocks(e.sim); l; l = l->next_registered)
		if (strstr(l->name, "vm_stat[") || strstr(l->name, "vm_node_stat[")) {
			r->line_contended += l->stats.contended;
			r->line_wait_ns += l->stats.wait_ns;
		}
	mm_env_destroy(&e);
	fio_workload.destroy(st);
	opt_release(fio_workload.options, cfg);
	free(cfg);
	return 0;
fail_env:
	if (!r->err[0])
		snprintf(r->err, sizeof(r->err), "%s", e.err);
	mm_env_destroy(&e);
fail_cfg:
	opt_release(fio_workload.options, cfg);
	free(cfg);
	return -1;
}

static int fio_run(const char *const *kv, const char *mode, unsigned int cpus, unsigned int ms,
		   unsigned int ramp_ms, const struct cost_table *costs, struct fio_run *r)
{
	return fio_run_on(kv, mode, cpus, "1g", ms, ramp_ms, costs, r);
}

static void fio_run_release(struct fio_run *r)
{
	wl_stats_release(&r->stats);
}

/* The cost table without the system call (whose share per I/O depends on
 * how completions batch) and, optionally, without shared atomics (folds):
 * what is left per I/O is a plain sum of rows. */
static void table_without(struct cost_table *c, bool no_folds)
{
	cost_table_init(c);
	c->ps[COST_syscall] = 0;
	if (no_folds)
		c->ps[COST_atomic_shared] = 0;
}

/* Per-I/O ns of a 4 KiB io_uring polled read, by hand from the table:
 * submission (sqe, bio, GUP, dirtying, submit_bio) and completion (poll,
 * CQE, dirty check, release). */
static double expected_read_ns(const struct cost_table *c, int mode)
{
	double ns = 0;

#define R(id, n) (ns += (double)cost_ns(c, COST_##id, 1) * (n))
	R(io_uring_sqe, 1); R(bio_alloc, 1); R(submit_bio, 1);
	R(iov_iter_extract, 1); R(gup_fast_walk, 1); R(gup_fast_pte, 1);
	R(atomic_local, 2);			/* try_get_folio, folio_set_referenced */
	R(bio_add_page, 1);
	R(bio_folio_iter, 1); R(atomic_local, 2);	/* bio_set_pages_dirty */
	R(blk_mq_poll, 1); R(io_uring_cqe, 1);
	R(bio_folio_iter, 2);			/* bio_check_pages_dirty, release */
	R(atomic_local, 1);			/* folio_put_refs / put_page */
	if (mode != FOLL_PIN_ACCT_NONE) {
		R(atomic_local, 1); R(smp_mb, 1);	/* the pin's bias add + barrier */
	}
	if (mode == FOLL_PIN_ACCT_NODE)
		R(percpu_cmpxchg, 2);
	if (mode == FOLL_PIN_ACCT_PERCPU)
		R(percpu_add, 2);
#undef R
	return ns;
}

static const char *const polled_read[] = {
	"numjobs", "2", "cpus_allowed_policy", "split", "ioengine", "io_uring", "hipri", "1",
	"rw", "randread", "bs", "4k", "iodepth", "64", "iodepth_batch_submit", "16",
	"iodepth_batch_complete_max", "16", "size", "1g", "filename", "nvme", NULL
};

/*
 * A test that the CPU time per I/O the workload measures is the cost
 * table's sum for each accounting mode (system calls and folds set to 0
 * so nothing depends on batching): 2 jobs on 2 CPUs, io_uring, polled,
 * QD64, 4 KiB random reads, 10 ms measured after 1 ms.  Expect
 * cpu_ns_per_io within the window's edge error of the hand sum,
 * pins_per_io 1 (FOLL_GET refs for none), 100 % CPU busy, no spinning.
 */
TEST(cpu_per_io_is_the_table_sum)
{
	struct cost_table c;

	table_without(&c, true);
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct fio_run r;

		ASSERT_EQ(fio_run(polled_read, foll_pin_accounting_names[mode], 2, 11, 1, &c, &r), 0);
		ASSERT_NEAR(figure(&r, "cpu_ns_per_io"), expected_read_ns(&c, mode), edge_ns(&r, 16, 2));
		ASSERT_TRUE(edge_ns(&r, 16, 2) < 0.5);
		ASSERT_NEAR(figure(&r, "pins_per_io"), 1.0, 1e-9);
		ASSERT_NEAR(figure(&r, "cpu_busy_share"), 100.0, 0.1);
		ASSERT_NEAR(figure(&r, "spin_ns_per_io"), 0.0, 1e-9);
		ASSERT_TRUE(r.stats.transactions > 40000);
		fio_run_release(&r);
	}
}

/*
 * A test of the fold cost under the node mode with the real table (the
 * system call set to 0): one job alone at threshold t pins and unpins one
 * page per I/O, so per I/O it pays 2 x percpu_cmpxchg plus 2 folds of 2
 * shared atomics every t + 1 I/Os, uncontended.  Expect node - nostat
 * within the edge error of 2 x 5 + 4 x 50 / (t + 1) ns, no line
 * contention, and 2 folds per t + 1 I/Os.
 */
TEST(node_mode_difference_follows_the_table)
{
	static const char *const kv[] = {
		"numjobs", "1", "ioengine", "io_uring", "hipri", "1", "rw", "randread", "bs", "4k",
		"iodepth", "64", "iodepth_batch_submit", "16", "iodepth_batch_complete_max", "16",
		"size", "1g", "filename", "nvme", NULL
	};
	struct cost_table c;
	struct fio_run node, nostat;
	double pred, folds_per_io;
	int t;

	table_without(&c, false);
	ASSERT_EQ(fio_run(kv, "node", 2, 11, 1, &c, &node), 0);
	ASSERT_EQ(fio_run(kv, "nostat", 2, 11, 1, &c, &nostat), 0);
	t = node.threshold;
	ASSERT_TRUE(t > 0 && t <= 125);
	pred = 2.0 * (double)cost_ns(&c, COST_percpu_cmpxchg, 1) +
	       4.0 * (double)cost_ns(&c, COST_atomic_shared, 1) / (t + 1);
	ASSERT_NEAR(figure(&node, "cpu_ns_per_io") - figure(&nostat, "cpu_ns_per_io"), pred,
		    edge_ns(&node, 16, 1) + edge_ns(&nostat, 16, 1));
	ASSERT_EQ(node.line_contended, 0);
	folds_per_io = figure(&node, "folds_per_second") / figure(&node, "iops");
	ASSERT_NEAR(folds_per_io, 2.0 / (t + 1), 0.02 / (t + 1));
	fio_run_release(&node);
	fio_run_release(&nostat);
}

/*
 * A test that contention on the shared lines is paid in CPU time: eight
 * jobs on eight CPUs of a 64 MiB machine (threshold 8) fold into the same
 * two lines (pgdat->vm_stat and vm_node_stat, items 32..39) every 9
 * updates, about 3.5 M times a second, so folds often find the line
 * taken and wait.  Expect contended line acquisitions, and node - nostat
 * = the uncontended table figure plus the measured waiting (spin) and one
 * spin_handoff per contended acquisition, per I/O, within the edge error.
 */
TEST(contention_adds_spin_and_handoff)
{
	static const char *const kv[] = {
		"numjobs", "8", "cpus_allowed_policy", "split", "ioengine", "io_uring", "hipri", "1",
		"rw", "randread", "bs", "4k", "iodepth", "64", "iodepth_batch_submit", "16",
		"iodepth_batch_complete_max", "16", "size", "1g", "filename", "nvme", NULL
	};
	struct cost_table c;
	struct fio_run node, nostat;
	double pred, ios;
	int t;

	table_without(&c, false);
	ASSERT_EQ(fio_run_on(kv, "node", 8, "64m", 11, 1, &c, &node), 0);
	ASSERT_EQ(fio_run_on(kv, "nostat", 8, "64m", 11, 1, &c, &nostat), 0);
	t = node.threshold;
	ASSERT_EQ(t, 8);
	ASSERT_TRUE(node.line_contended > 0);
	ASSERT_TRUE(figure(&node, "spin_ns_per_io") > 0);
	/* lock statistics cover the whole run, the figures the window: per
	 * I/O of the whole run */
	ios = (double)(node.pinned + node.unpinned) / 2.0;
	pred = 2.0 * (double)cost_ns(&c, COST_percpu_cmpxchg, 1) +
	       4.0 * (double)cost_ns(&c, COST_atomic_shared, 1) / (t + 1) +
	       ((double)node.line_wait_ns + (double)node.line_contended *
		(double)cost_ns(&c, COST_spin_handoff, 1)) / ios;
	ASSERT_NEAR(figure(&node, "cpu_ns_per_io") - figure(&nostat, "cpu_ns_per_io"), pred,
		    edge_ns(&node, 16, 8) + edge_ns(&nostat, 16, 8) + 0.05);
	fio_run_release(&node);
	fio_run_release(&nostat);
}

/*
 * A test of the ordering the case is about, with the default table: IOPS
 * per CPU none > nostat > percpu > node (FOLL_GET is cheapest, a per-CPU
 * add costs less than a cmpxchg with folds), and with registered buffers
 * (fixedbufs=1) all four modes equal and nothing pinned.
 */
TEST(iops_per_cpu_ordering)
{
	double v[NR_FOLL_PIN_ACCT], fixed[NR_FOLL_PIN_ACCT];
	const char *kv[64];
	unsigned int n = 0;

	for (; polled_read[n]; n++)
		kv[n] = polled_read[n];
	kv[n] = "fixedbufs";
	kv[n + 1] = "1";
	kv[n + 2] = NULL;
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct fio_run r;

		ASSERT_EQ(fio_run(polled_read, foll_pin_accounting_names[mode], 2, 4, 1, NULL, &r), 0);
		v[mode] = figure(&r, "iops_per_cpu");
		fio_run_release(&r);
		ASSERT_EQ(fio_run(kv, foll_pin_accounting_names[mode], 2, 4, 1, NULL, &r), 0);
		fixed[mode] = figure(&r, "iops_per_cpu");
		ASSERT_NEAR(figure(&r, "pins_per_io"), 0.0, 1e-9);
		ASSERT_EQ(r.pinned, 0);
		fio_run_release(&r);
	}
	ASSERT_TRUE(v[FOLL_PIN_ACCT_NONE] > v[FOLL_PIN_ACCT_NOSTAT]);
	ASSERT_TRUE(v[FOLL_PIN_ACCT_NOSTAT] > v[FOLL_PIN_ACCT_PERCPU]);
	ASSERT_TRUE(v[FOLL_PIN_ACCT_PERCPU] > v[FOLL_PIN_ACCT_NODE]);
	for (int mode = 1; mode < NR_FOLL_PIN_ACCT; mode++)
		ASSERT_NEAR(fixed[mode], fixed[0], fixed[0] * 1e-4);
	ASSERT_TRUE(fixed[0] > v[FOLL_PIN_ACCT_NONE]);
}

/*
 * A test that the vmstat counters move as the kernel's do: under node and
 * percpu every pinned page is one NR_FOLL_PIN_ACQUIRED and every unpinned
 * one NR_FOLL_PIN_RELEASED (exact sums, folded or not; a job the end of
 * the run stopped mid-pin may be one ahead), their difference
 * being the pages still pinned by in-flight I/O (at most jobs x iodepth);
 * nostat and none leave both at 0.
 */
TEST(vmstat_counters_follow_pins)
{
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct fio_run r;
		bool counts = mode == FOLL_PIN_ACCT_NODE || mode == FOLL_PIN_ACCT_PERCPU;

		ASSERT_EQ(fio_run(polled_read, foll_pin_accounting_names[mode], 2, 3, 1, NULL, &r), 0);
		/* up to one pin or unpin per job may be cut in half by the end of
		 * the run (counter moved, gup.c's count not yet) */
		ASSERT_TRUE(counts ? r.acquired - r.pinned <= 2 : r.acquired == 0);
		ASSERT_TRUE(counts ? r.released - r.unpinned <= 2 : r.released == 0);
		if (mode != FOLL_PIN_ACCT_NONE) {
			ASSERT_TRUE(r.pinned > 10000);
			ASSERT_TRUE(r.pinned - r.unpinned <= 2 * 64);
		}
		fio_run_release(&r);
	}
}

/*
 * A test of libaio with interrupt completions at queue depth 1: the job
 * sleeps for each I/O and is switched back in by the completion, so each
 * I/O costs the table's submission and completion work plus two system
 * calls (io_submit, io_getevents) plus a context switch, and the CPU is
 * mostly idle.  Expect cpu_ns_per_io within 1 ns of that sum, one switch
 * per I/O, CPU busy well under 50 %, and IOPS near 1 / (latency + CPU).
 */
TEST(libaio_qd1_sleeps_per_io)
{
	static const char *const kv[] = {
		"numjobs", "1", "ioengine", "libaio", "rw", "randwrite", "bs", "4k", "iodepth", "1",
		"size", "1g", "filename", "nvme", NULL
	};
	const struct cost_table *c;
	struct cost_table def;
	struct fio_run r;
	double want;

	cost_table_init(&def);
	c = &def;
	ASSERT_EQ(fio_run(kv, "node", 1, 22, 2, NULL, &r), 0);
	want = (double)(cost_ns(c, COST_syscall, 2) + cost_ns(c, COST_aio_submit_one, 1) +
			cost_ns(c, COST_bio_alloc, 1) + cost_ns(c, COST_iov_iter_extract, 1) +
			cost_ns(c, COST_gup_fast_walk, 1) + cost_ns(c, COST_gup_fast_pte, 1) +
			cost_ns(c, COST_atomic_local, 4) + cost_ns(c, COST_smp_mb, 1) +
			cost_ns(c, COST_percpu_cmpxchg, 2) + cost_ns(c, COST_bio_add_page, 1) +
			cost_ns(c, COST_submit_bio, 1) + cost_ns(c, COST_blk_mq_complete_irq, 1) +
			cost_ns(c, COST_aio_complete, 1) + cost_ns(c, COST_bio_folio_iter, 1) +
			cost_ns(c, COST_context_switch, 1));
	/* folds: 4 shared atomics per threshold + 1 I/Os */
	want += 4.0 * (double)cost_ns(c, COST_atomic_shared, 1) / (r.threshold + 1);
	ASSERT_NEAR(figure(&r, "cpu_ns_per_io"), want, edge_ns(&r, 1, 1));
	ASSERT_TRUE(r.context_switches >= r.stats.transactions);
	ASSERT_TRUE(figure(&r, "cpu_busy_share") < 50.0);
	ASSERT_NEAR(figure(&r, "iops"), 1e9 / (10000.0 + want), 0.1 * 1e9 / (10000.0 + want));
	fio_run_release(&r);
}

/*
 * A test of PMD-mapped buffers (mem=mmaphuge) with 128 KiB reads: 32
 * pages per I/O but one grab and one accounting update of +32 per I/O, so
 * the node counter folds about every 4 updates (126 / 32) instead of
 * every 126.  Expect pins_per_io 32, acquired = pinned pages, and folds
 * per I/O of 2 / ceil((t + 1) / 32).
 */
TEST(thp_buffers_one_update_per_io)
{
	static const char *const kv[] = {
		"numjobs", "1", "ioengine", "io_uring", "hipri", "1", "rw", "read", "bs", "128k",
		"iodepth", "16", "mem", "mmaphuge", "size", "1g", "filename", "nvme", NULL
	};
	struct fio_run r;
	double per;

	ASSERT_EQ(fio_run(kv, "node", 1, 3, 1, NULL, &r), 0);
	ASSERT_NEAR(figure(&r, "pins_per_io"), 32.0, 1e-9);
	/* the run may stop inside one pin, between the counter and gup_pinned */
	ASSERT_TRUE(r.acquired >= r.pinned && r.acquired - r.pinned <= 32);
	per = ceil((r.threshold + 1) / 32.0);
	ASSERT_NEAR(figure(&r, "folds_per_second") / figure(&r, "iops"), 2.0 / per, 0.05 / per);
	fio_run_release(&r);
}

/*
 * A test that a run is a function of its inputs: the same scenario and
 * seed twice give the same events, I/Os and CPU per I/O.
 */
TEST(deterministic)
{
	struct fio_run a, b;

	ASSERT_EQ(fio_run(polled_read, "node", 2, 3, 1, NULL, &a), 0);
	ASSERT_EQ(fio_run(polled_read, "node", 2, 3, 1, NULL, &b), 0);
	ASSERT_U64_EQ(a.events, b.events);
	ASSERT_U64_EQ(a.stats.transactions, b.stats.transactions);
	ASSERT_TRUE(figure(&a, "cpu_ns_per_io") == figure(&b, "cpu_ns_per_io"));
	fio_run_release(&a);
	fio_run_release(&b);
}

/* A test of the cpus_allowed parser: ranges and single CPUs, sorted and
 * de-duplicated; bad syntax and absent CPUs are errors with a message. */
TEST(cpus_allowed_parser)
{
	unsigned int cpus[16];
	char err[128];

	ASSERT_EQ(fio_parse_cpus("8,0-3,2", 16, cpus, 16, err, sizeof(err)), 5);
	ASSERT_EQ(cpus[0], 0);
	ASSERT_EQ(cpus[3], 3);
	ASSERT_EQ(cpus[4], 8);
	ASSERT_EQ(fio_parse_cpus("3-1", 16, cpus, 16, err, sizeof(err)), -1);
	ASSERT_EQ(fio_parse_cpus("1,,2", 16, cpus, 16, err, sizeof(err)), -1);
	ASSERT_EQ(fio_parse_cpus("0-15", 8, cpus, 16, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "CPU 15 in cpus_allowed '0-15' does not exist (the machine has 8)");
	ASSERT_EQ(fio_parse_cpus("", 8, cpus, 16, err, sizeof(err)), -1);
}

/*
 * A test of the errors a user can make: buffered I/O, io_uring-only
 * options with libaio, a bs that is no multiple of 512, a device that
 * does not exist, a region beyond the device's end, and a partial CPU
 * set under the shared policy.  Expect
 * each refused with its message.
 */
TEST(bad_configs_refused)
{
	static const char *const direct0[] = { "direct", "0", "filename", "nvme", NULL };
	static const char *const fixed_aio[] = { "fixedbufs", "1", "filename", "nvme", NULL };
	static const char *const bs[] = { "bs", "1000", "filename", "nvme", NULL };
	static const char *const nodev[] = { "filename", "sdz", NULL };
	static const char *const shared[] = { "filename", "nvme", "cpus_allowed", "0-1", NULL };
	static const char *const big[] = { "filename", "nvme", "size", "2t", NULL };
	struct fio_run r;

	ASSERT_EQ(fio_run(direct0, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "direct=0 is not modelled: the fio workload does O_DIRECT only");
	ASSERT_EQ(fio_run(fixed_aio, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "fixedbufs needs ioengine=io_uring");
	ASSERT_EQ(fio_run(bs, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "bs must be a multiple of 512 bytes");
	ASSERT_EQ(fio_run(nodev, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "device 'sdz' does not exist (no [device sdz] section)");
	ASSERT_EQ(fio_run(big, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "size=2199023255552 is beyond the end of device 'nvme' (1099511627776 bytes)");
	ASSERT_EQ(fio_run(shared, "node", 4, 1, 0, NULL, &r), -1);
	ASSERT_STR_EQ(r.err, "cpus_allowed_policy=shared with 2 of 4 CPUs is not modelled (a task runs "
		      "on one CPU or on any); use cpus_allowed_policy=split");
}

/*
 * A test of runtime=: a job stops submitting after it, reaps what is in
 * flight, frees its buffer (user_buffer_free checks that every pin was
 * dropped) and exits.  runtime 2 ms, measured from 3 ms, run 6 ms.
 * Expect no I/O in the window, every pin released, and the run's other
 * I/Os (before 3 ms) still counted by the engine.
 */
TEST(runtime_stops_and_releases)
{
	static const char *const kv[] = {
		"numjobs", "2", "cpus_allowed_policy", "split", "ioengine", "io_uring", "hipri", "1",
		"rw", "randread", "iodepth", "32", "runtime", "2ms", "size", "1g", "filename", "nvme", NULL
	};
	struct fio_run r;

	ASSERT_EQ(fio_run(kv, "node", 2, 6, 3, NULL, &r), 0);
	ASSERT_NEAR(figure(&r, "ios"), 0.0, 1e-9);
	ASSERT_EQ(r.stats.transactions, 0);
	ASSERT_TRUE(r.pinned > 1000);
	ASSERT_U64_EQ(r.pinned, r.unpinned);
	ASSERT_U64_EQ(r.acquired, r.released);
	fio_run_release(&r);
}
