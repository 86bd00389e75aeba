/* SPDX-License-Identifier: MIT */
/*
 * Tests of report/procfs.c: the /proc parsers read the real 6.18 captures
 * (tests/fixtures/proc/linux-6.18, copied from ../shared/fixtures), reject
 * malformed lines with exact "path:line: message" errors, and survive every
 * truncation of every fixture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report/procfs.h"

#define FIX "tests/fixtures/proc/linux-6.18/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int64_t get(const struct rpt_counters *c, const char *name)
{
	bool found = false;
	int64_t v = rpt_counters_get(c, name, &found);

	return found ? v : -999;
}

/* Which parser to run on a text; 0 or -1, error in err. */
enum which { P_VMSTAT, P_MEMINFO, P_BUDDY, P_PTYPE, P_ZONE, P_MONITOR, P_DISKSTATS, P_WBT, P_TRACE,
	     P_STAT };

static int run_parser(enum which w, const char *path, const char *text, char *err, size_t errlen)
{
	struct rpt_counters c = { 0 };
	struct proc_buddyinfo *b = malloc(sizeof(*b));
	struct proc_pagetypeinfo *p = malloc(sizeof(*p));
	struct proc_zoneinfo *z = malloc(sizeof(*z));
	struct proc_monitor m;
	struct proc_diskstats ds;
	struct debugfs_wbt wbt;
	struct trace_counts tc;
	struct proc_stat st;
	int rc = -1;

	switch (w) {
	case P_VMSTAT:	rc = proc_parse_vmstat(path, text, &c, err, errlen); break;
	case P_MEMINFO:	rc = proc_parse_meminfo(path, text, &c, err, errlen); break;
	case P_BUDDY:	rc = proc_parse_buddyinfo(path, text, b, err, errlen); break;
	case P_PTYPE:	rc = proc_parse_pagetypeinfo(path, text, p, err, errlen); break;
	case P_ZONE:	rc = proc_parse_zoneinfo(path, text, z, err, errlen);
			proc_zoneinfo_release(z); break;
	case P_MONITOR:	rc = proc_parse_monitor(path, text, &m, err, errlen);
			if (rc == 0)
				proc_monitor_release(&m);
			break;
	case P_DISKSTATS: rc = proc_parse_diskstats(path, text, &ds, err, errlen);
			proc_diskstats_release(&ds); break;
	case P_WBT:	rc = debugfs_parse_wbt(path, text, &wbt, err, errlen);
			debugfs_wbt_release(&wbt); break;
	case P_TRACE:	rc = trace_parse_counts(path, text, &tc, err, errlen); break;
	case P_STAT:	rc = proc_parse_stat(path, text, &st, err, errlen);
			proc_stat_release(&st); break;
	}
	rpt_counters_release(&c);
	free(b);
	free(p);
	free(z);
	return rc;
}

/* A test that the 6.18 vmstat capture parses into its 192 counters in file
 * order.  Expect the first, a middle and the last line's values. */
TEST(vmstat_fixture)
{
	char *t = slurp(FIX "vmstat"), err[256] = "";
	struct rpt_counters c = { 0 };

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_vmstat("vmstat", t, &c, err, sizeof(err)), 0);
	ASSERT_EQ(c.n, 192);
	ASSERT_STR_EQ(c.v[0].name, "nr_free_pages");
	ASSERT_EQ(c.v[0].value, 6025166);
	ASSERT_EQ(get(&c, "nr_written"), 84060778);
	ASSERT_STR_EQ(c.v[191].name, "nr_unstable");
	rpt_counters_release(&c);
	free(t);
}

/* A test that meminfo keeps kB values as printed and unit-less HugePages
 * counts as counts.  Expect MemTotal 24684096, HugePages_Total 0, 54 rows. */
TEST(meminfo_fixture)
{
	char *t = slurp(FIX "meminfo"), err[256] = "";
	struct rpt_counters c = { 0 };

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_meminfo("meminfo", t, &c, err, sizeof(err)), 0);
	ASSERT_EQ(c.n, 54);
	ASSERT_EQ(get(&c, "MemTotal"), 24684096);
	ASSERT_EQ(get(&c, "Active(anon)"), 992);
	ASSERT_EQ(get(&c, "HugePages_Total"), 0);
	ASSERT_EQ(get(&c, "VmallocTotal"), 34359738367LL);
	rpt_counters_release(&c);
	free(t);
}

/* A test that the 6.18 diskstats capture (this project's VM) reads as 10
 * disks of 17 counters each, in file order, and that the older layouts of
 * 11 (before 4.18) and 15 counters read with the missing columns 0.
 * Expect loop0 first, vda's counters as printed, zram0 last. */
TEST(diskstats_fixture)
{
	char *t = slurp(FIX "diskstats"), err[256] = "";
	struct proc_diskstats ds;

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_diskstats("diskstats", t, &ds, err, sizeof(err)), 0);
	ASSERT_EQ(ds.n, 10);
	ASSERT_STR_EQ(ds.d[0].name, "loop0");
	ASSERT_EQ(ds.d[0].major, 7);
	ASSERT_STR_EQ(ds.d[8].name, "vda");
	ASSERT_EQ(ds.d[8].major, 254);
	ASSERT_EQ(ds.d[8].nr_fields, 17);
	ASSERT_U64_EQ(ds.d[8].f[DS_RD_IOS], 839290);
	ASSERT_U64_EQ(ds.d[8].f[DS_FL_MS], 45042);
	ASSERT_STR_EQ(ds.d[9].name, "zram0");
	proc_diskstats_release(&ds);
	free(t);
	ASSERT_EQ(proc_parse_diskstats("d", "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
				       "   8 1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
				       &ds, err, sizeof(err)), 0);
	ASSERT_EQ(ds.n, 2);
	ASSERT_U64_EQ(ds.d[0].f[DS_QUEUE_MS], 11);
	ASSERT_U64_EQ(ds.d[0].f[DS_DC_IOS], 0);
	ASSERT_U64_EQ(ds.d[1].f[DS_DC_MS], 15);
	ASSERT_U64_EQ(ds.d[1].f[DS_FL_IOS], 0);
	proc_diskstats_release(&ds);
}

/* A test that this project's VM's /proc/stat (6.18.44, 2 CPUs) reads as
 * printed.  The expected values are those of
 *   awk '$1 ~ /^cpu/ { print $1, NF - 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }
 *        $1 !~ /^cpu/ { print $1, $2, NF - 1 }' tests/fixtures/proc/linux-6.18/stat
 * which prints
 *   cpu 10 9652 0 4440 44980 346 0 136 0 0 0
 *   cpu0 10 4482 0 1932 23270 28 0 60 0 0 0
 *   cpu1 10 5169 0 2508 21709 317 0 75 0 0 0
 *   intr 167970 425
 *   ctxt 304506 1
 *   btime 1796617732 1
 *   processes 5408 1
 *   procs_running 1 1
 *   procs_blocked 0 1
 *   softirq 115862 11
 * Expect those numbers in their fields. */
TEST(stat_fixture)
{
	static const uint64_t cpu[3][STAT_NR_CPU_FIELDS] = {
		{ 9652, 0, 4440, 44980, 346, 0, 136, 0, 0, 0 },
		{ 4482, 0, 1932, 23270, 28, 0, 60, 0, 0, 0 },
		{ 5169, 0, 2508, 21709, 317, 0, 75, 0, 0, 0 },
	};
	char *t = slurp(FIX "stat"), err[256] = "";
	struct proc_stat st;

	ASSERT_TRUE(t != NULL);
	if (proc_parse_stat("stat", t, &st, err, sizeof(err)))
		harness_fail(__FILE__, __LINE__, "%s", err);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(st.nr_cpus, 2);
	for (int i = 0; i < STAT_NR_CPU_FIELDS; i++) {
		ASSERT_U64_EQ(st.cpu[i], cpu[0][i]);
		ASSERT_U64_EQ(st.percpu[0][i], cpu[1][i]);
		ASSERT_U64_EQ(st.percpu[1][i], cpu[2][i]);
	}
	ASSERT_U64_EQ(st.intr, 167970);
	ASSERT_U64_EQ(st.ctxt, 304506);
	ASSERT_U64_EQ(st.btime, 1796617732);
	ASSERT_U64_EQ(st.processes, 5408);
	ASSERT_U64_EQ(st.procs_running, 1);
	ASSERT_U64_EQ(st.procs_blocked, 0);
	ASSERT_U64_EQ(st.softirq, 115862);
	proc_stat_release(&st);
	ASSERT_TRUE(st.percpu == NULL && st.nr_cpus == 0);
	free(t);
}

/* A test that the older layouts read: a 2.4 kernel's 4 columns with its
 * "page", "swap" and "disk_io:" lines (unknown now: skipped) and no
 * procs_* or softirq lines, and a 2.6.0-2.6.10 kernel's 7 columns with
 * CPU 1 offline (cpu0, cpu2).  Expect the columns a kernel lacks and the
 * lines it does not print to read 0, the CPUs in file order. */
TEST(stat_older_formats)
{
	char err[256] = "";
	struct proc_stat st;

	if (proc_parse_stat("s", "cpu  11 12 13 14\ncpu0 11 12 13 14\npage 5741 1808\nswap 1 0\n"
			    "intr 100 50 50\ndisk_io: (3,0):(4,1,2,3,4)\nctxt 7\nbtime 900\n"
			    "processes 12\n", &st, err, sizeof(err)))
		harness_fail(__FILE__, __LINE__, "%s", err);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(st.nr_cpus, 1);
	ASSERT_U64_EQ(st.cpu[STAT_USER], 11);
	ASSERT_U64_EQ(st.cpu[STAT_IDLE], 14);
	ASSERT_U64_EQ(st.cpu[STAT_IOWAIT], 0);
	ASSERT_U64_EQ(st.percpu[0][STAT_SYSTEM], 13);
	ASSERT_U64_EQ(st.percpu[0][STAT_GUEST_NICE], 0);
	ASSERT_U64_EQ(st.intr, 100);
	ASSERT_U64_EQ(st.ctxt, 7);
	ASSERT_U64_EQ(st.processes, 12);
	ASSERT_U64_EQ(st.procs_running, 0);
	ASSERT_U64_EQ(st.softirq, 0);
	proc_stat_release(&st);

	if (proc_parse_stat("s", "cpu  10 20 30 40 50 60 70\ncpu0 1 2 3 4 5 6 7\ncpu2 9 18 27 36 45 54 63\n"
			    "intr 1000 900 100\nctxt 5000\nbtime 1700000000\nprocesses 300\n"
			    "procs_running 2\nprocs_blocked 1\n", &st, err, sizeof(err)))
		harness_fail(__FILE__, __LINE__, "%s", err);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(st.nr_cpus, 2);
	ASSERT_U64_EQ(st.cpu[STAT_IOWAIT], 50);
	ASSERT_U64_EQ(st.cpu[STAT_SOFTIRQ], 70);
	ASSERT_U64_EQ(st.cpu[STAT_STEAL], 0);
	ASSERT_U64_EQ(st.percpu[0][STAT_IRQ], 6);
	ASSERT_U64_EQ(st.percpu[1][STAT_USER], 9);
	ASSERT_U64_EQ(st.percpu[1][STAT_SOFTIRQ], 63);
	ASSERT_U64_EQ(st.percpu[1][STAT_GUEST], 0);
	ASSERT_U64_EQ(st.procs_blocked, 1);
	proc_stat_release(&st);
}

/* A test that the proc-stat monitor captured on the same VM (three
 * samples one second apart, half a second of a busy loop and a 16 MiB
 * O_DIRECT write between them) reads sample by sample, and that the
 * ticks of the "cpu" line grow by about 200 a second: 2 CPUs at USER_HZ
 * 100.  Expect growth of 180 to 230 ticks between samples (the capture's
 * were a little over a second apart: 207 and 205) and the context
 * switches to grow. */
TEST(stat_monitor_fixture)
{
	char *t = slurp(FIX "monitor-proc-stat"), err[256] = "";
	struct proc_monitor m;
	uint64_t prev_sum = 0, prev_ctxt = 0;

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_monitor("m", t, &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.n, 3);
	for (size_t k = 0; k < m.n; k++) {
		struct proc_stat st;
		uint64_t sum = 0;

		if (proc_parse_stat("m", m.s[k].text, &st, err, sizeof(err)))
			harness_fail(__FILE__, __LINE__, "sample %zu: %s", k, err);
		ASSERT_OK_SO_FAR();
		ASSERT_EQ(st.nr_cpus, 2);
		for (int i = 0; i < STAT_GUEST; i++)	/* guest time is in user time too */
			sum += st.cpu[i];
		if (k > 0) {
			ASSERT_TRUE(sum - prev_sum >= 180 && sum - prev_sum <= 230);
			ASSERT_TRUE(st.ctxt > prev_ctxt);
		}
		prev_sum = sum;
		prev_ctxt = st.ctxt;
		proc_stat_release(&st);
	}
	proc_monitor_release(&m);
	free(t);
}

/* A test that debugfs-wbt samples of both sources read: a model's member
 * line (a negative scale_step) and a recording's disk line with "-" in
 * the model-only columns.  Expect the kept values and two lines. */
TEST(debugfs_wbt_both_sources)
{
	struct debugfs_wbt w;
	char err[256] = "";

	ASSERT_EQ(debugfs_parse_wbt("w", DEBUGFS_WBT_HEADER "\n"
				    "md0 3 384 192 176 100000000 2000000 0 -6 767 0 0 0 1648 0 1 2 3 4\n"
				    "nvme1n1 - 8 4 11 100000000 2000000 0 - - - - - - - - - - -\n",
				    &w, err, sizeof(err)), 0);
	ASSERT_EQ(w.n, 2);
	ASSERT_STR_EQ(w.v[0].device, "md0");
	ASSERT_U64_EQ(w.v[0].wb_normal, 384);
	ASSERT_U64_EQ(w.v[0].wb_background, 192);
	ASSERT_U64_EQ(w.v[0].inflight, 176);
	ASSERT_STR_EQ(w.v[1].device, "nvme1n1");
	ASSERT_U64_EQ(w.v[1].inflight, 11);
	debugfs_wbt_release(&w);
}

/* A test that the 6.18.44 trace-counts capture (a recording on this
 * project's VM) reads: every sample has the nine tracepoints the
 * recorder then counted, not the page cache's two, counts only grow.
 * Expect the third sample's mm_page_pcpu_drain, 295169. */
TEST(trace_counts_fixture)
{
	char *t = slurp(FIX "monitor-trace-counts"), err[256] = "";
	struct proc_monitor m;
	struct trace_counts prev = { 0 };

	ASSERT_EQ(proc_parse_monitor("m", t, &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.n, 3);
	for (size_t k = 0; k < m.n; k++) {
		struct trace_counts c;

		ASSERT_EQ(trace_parse_counts("m", m.s[k].text, &c, err, sizeof(err)), 0);
		for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++) {
			ASSERT_EQ(c.present[i], i < 9);
			ASSERT_TRUE(c.count[i] >= prev.count[i]);
		}
		prev = c;
	}
	ASSERT_U64_EQ(prev.count[3], 295169);
	ASSERT_STR_EQ(rpt_trace_events[3], "kmem:mm_page_pcpu_drain");
	proc_monitor_release(&m);
	free(t);
}

/* A test that the later capture with the page cache's tracepoints reads:
 * all eleven in each of its four samples, counts only grow, the write
 * adds folios before the removal and drop_caches delete them.  Expect the
 * last sample's 34721 added and 36766 deleted, and none deleted in the
 * first two samples. */
TEST(trace_counts_filemap_fixture)
{
	char *t = slurp(FIX "monitor-trace-counts-filemap"), err[256] = "";
	struct proc_monitor m;
	struct trace_counts prev = { 0 }, second = { 0 };

	ASSERT_EQ(proc_parse_monitor("m", t, &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.n, 4);
	for (size_t k = 0; k < m.n; k++) {
		struct trace_counts c;

		ASSERT_EQ(trace_parse_counts("m", m.s[k].text, &c, err, sizeof(err)), 0);
		for (int i = 0; i < RPT_NR_TRACE_EVENTS; i++) {
			ASSERT_TRUE(c.present[i]);
			ASSERT_TRUE(c.count[i] >= prev.count[i]);
		}
		if (k == 1)
			second = c;
		prev = c;
	}
	ASSERT_STR_EQ(rpt_trace_events[9], "filemap:mm_filemap_add_to_page_cache");
	ASSERT_STR_EQ(rpt_trace_events[10], "filemap:mm_filemap_delete_from_page_cache");
	ASSERT_U64_EQ(second.count[10], 0);
	ASSERT_U64_EQ(prev.count[9], 34721);
	ASSERT_U64_EQ(prev.count[10], 36766);
	proc_monitor_release(&m);
	free(t);
}

/* A test of diskstats deltas: a millisecond column that falls has
 * wrapped at 2^32 (the kernel prints it as unsigned int), a count that
 * falls has not.  Expect the weighted
 * ms (UINT32_MAX - 9 to 5: 15) and -7 for the writes. */
TEST(diskstats_delta_wraps_ms_only)
{
	struct proc_diskstats_disk x = { .nr_fields = 17 }, y = { .nr_fields = 17 };

	x.f[DS_QUEUE_MS] = UINT32_MAX - 9;
	y.f[DS_QUEUE_MS] = 5;
	x.f[DS_WR_IOS] = 10;
	y.f[DS_WR_IOS] = 3;
	x.f[DS_RD_MS] = 7;
	y.f[DS_RD_MS] = 9;
	ASSERT_TRUE(proc_diskstats_delta(&x, &y, DS_QUEUE_MS) == 15.0);
	ASSERT_TRUE(proc_diskstats_delta(&x, &y, DS_WR_IOS) == -7.0);
	ASSERT_TRUE(proc_diskstats_delta(&x, &y, DS_RD_MS) == 2.0);
}

/* A test that buddyinfo gives three zones of 11 orders.  Expect DMA order
 * 10 = 3 and Normal order 0 = 1117. */
TEST(buddyinfo_fixture)
{
	char *t = slurp(FIX "buddyinfo"), err[256] = "";
	struct proc_buddyinfo b;

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_buddyinfo("buddyinfo", t, &b, err, sizeof(err)), 0);
	ASSERT_EQ(b.nr, 3);
	ASSERT_STR_EQ(b.z[0].zone, "DMA");
	ASSERT_STR_EQ(b.z[2].zone, "Normal");
	ASSERT_EQ(b.z[2].node, 0);
	ASSERT_EQ(b.z[1].nr_orders, 11);
	ASSERT_U64_EQ(b.z[0].free[10], 3);
	ASSERT_U64_EQ(b.z[2].free[0], 1117);
	ASSERT_U64_EQ(b.z[2].free[10], 4055);
	free(t);
}

/* A test that pagetypeinfo yields order 9 pageblocks, 11 orders, the five
 * migrate types in file order, free counts and block counts per zone.
 * Expect Normal/Movable order 10 = 4055 and 9606 Movable blocks. */
TEST(pagetypeinfo_fixture)
{
	char *t = slurp(FIX "pagetypeinfo"), err[256] = "";
	struct proc_pagetypeinfo p;

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_pagetypeinfo("pagetypeinfo", t, &p, err, sizeof(err)), 0);
	ASSERT_EQ(p.pageblock_order, 9);
	ASSERT_EQ(p.nr_orders, 11);
	ASSERT_EQ(p.nr_types, 5);
	ASSERT_STR_EQ(p.types[0], "Unmovable");
	ASSERT_STR_EQ(p.types[3], "HighAtomic");
	ASSERT_STR_EQ(p.types[4], "Isolate");
	ASSERT_EQ(p.nr, 3);
	ASSERT_STR_EQ(p.z[2].zone, "Normal");
	ASSERT_U64_EQ(p.z[2].free[1][10], 4055);
	ASSERT_U64_EQ(p.z[2].free[0][0], 834);
	ASSERT_U64_EQ(p.z[2].free[3][0], 3);
	ASSERT_U64_EQ(p.z[2].blocks[1], 9606);
	ASSERT_U64_EQ(p.z[1].blocks[0], 168);
	ASSERT_U64_EQ(p.z[0].blocks[1], 7);
	free(t);
}

/* A test that zoneinfo reads all five zones (two unpopulated), their
 * watermarks and sizes, the zone stats, and the per-node stats block.
 * Expect Normal min 14769 / managed 5394266, Movable managed 0 with no
 * stats, node nr_written 84060778. */
TEST(zoneinfo_fixture)
{
	char *t = slurp(FIX "zoneinfo"), err[256] = "";
	struct proc_zoneinfo *z = malloc(sizeof(*z));

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_zoneinfo("zoneinfo", t, z, err, sizeof(err)), 0);
	ASSERT_EQ(z->nr, 5);
	ASSERT_STR_EQ(z->z[0].zone, "DMA");
	ASSERT_STR_EQ(z->z[4].zone, "Device");
	ASSERT_U64_EQ(z->z[0].managed, 3840);
	ASSERT_U64_EQ(z->z[2].free, 5248807);
	ASSERT_U64_EQ(z->z[2].min, 14769);
	ASSERT_U64_EQ(z->z[2].low, 20163);
	ASSERT_U64_EQ(z->z[2].high, 25557);
	ASSERT_U64_EQ(z->z[2].promo, 30951);
	ASSERT_U64_EQ(z->z[2].spanned, 5505024);
	ASSERT_U64_EQ(z->z[2].present, 5505024);
	ASSERT_U64_EQ(z->z[2].managed, 5394266);
	ASSERT_U64_EQ(z->z[3].managed, 0);
	ASSERT_U64_EQ(z->z[3].min, 32);
	ASSERT_EQ(z->z[3].stats.n, 0);
	ASSERT_EQ(get(&z->z[2].stats, "nr_free_pages"), 5248807);
	ASSERT_EQ(get(&z->z[2].stats, "numa_other"), 0);
	ASSERT_EQ(get(&z->node_stats, "nr_written"), 84060778);
	ASSERT_EQ(get(&z->node_stats, "nr_mapped"), 2522);
	/* Normal's pagesets: 2 CPUs, count and high summed over them */
	ASSERT_U64_EQ(z->z[2].pcp_cpus, 2);
	ASSERT_U64_EQ(z->z[2].pcp_count, 18437);
	ASSERT_U64_EQ(z->z[2].pcp_high, 20162);
	ASSERT_U64_EQ(z->z[3].pcp_cpus, 0);
	proc_zoneinfo_release(z);
	free(z);
	free(t);
}

/* A test that a monitor file splits into samples with their times, texts
 * and first line numbers, and that each sample text is a valid vmstat.
 * Expect three samples at 1795980148..150, text 192 lines each. */
TEST(monitor_fixture)
{
	char *t = slurp(FIX "monitor-proc-vmstat"), err[256] = "";
	struct proc_monitor m;

	ASSERT_TRUE(t != NULL);
	ASSERT_EQ(proc_parse_monitor("proc-vmstat", t, &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.n, 3);
	ASSERT_NEAR(m.s[0].time, 1795980148, 0);
	ASSERT_NEAR(m.s[2].time, 1795980150, 0);
	ASSERT_EQ(m.s[0].first_line, 2);
	ASSERT_EQ(m.s[1].first_line, 195);
	for (size_t i = 0; i < m.n; i++) {
		struct rpt_counters c = { 0 };

		ASSERT_EQ(proc_parse_vmstat("s", m.s[i].text, &c, err, sizeof(err)), 0);
		ASSERT_EQ(c.n, 192);
		rpt_counters_release(&c);
	}
	proc_monitor_release(&m);
	free(t);
}

/* A test that fractional virtual times and empty sample texts are read.
 * Expect times 0.5 and 1.000, second text empty. */
TEST(monitor_fractional_and_empty)
{
	char err[256] = "";
	struct proc_monitor m;

	ASSERT_EQ(proc_parse_monitor("m", "time: 0.5\na 1\ntime: 1.000\n", &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.n, 2);
	ASSERT_NEAR(m.s[0].time, 0.5, 0);
	ASSERT_STR_EQ(m.s[0].text, "a 1\n");
	ASSERT_STR_EQ(m.s[1].text, "");
	ASSERT_EQ(m.s[1].first_line, 4);
	proc_monitor_release(&m);
}

/* Error cases: parser, input, exact message. */
static const struct {
	enum which	w;
	const char	*text;
	const char	*msg;
} bad[] = {
	{ P_VMSTAT, "", "f:1: no counters (empty file)" },
	{ P_VMSTAT, "nr_free_pages 12\npgfree\n", "f:2: expected 'name value', got 'pgfree'" },
	{ P_VMSTAT, "nr_free_pages 12x\n", "f:1: invalid value '12x' for 'nr_free_pages'" },
	{ P_VMSTAT, "a 1\nb 99999999999999999999\n", "f:2: out-of-range value '99999999999999999999' for 'b'" },
	{ P_VMSTAT, "a 1\na 2\n", "f:2: duplicate counter 'a'" },
	{ P_VMSTAT, "a 1 2\n", "f:1: unexpected text '2'" },
	{ P_VMSTAT, "a 1\nb 2", "f:2: line 'b 2' has no newline (truncated file)" },
	{ P_VMSTAT, "a\x01 1\n", "f:1: invalid character in counter name 'a\\x01'" },
	{ P_MEMINFO, "MemTotal 12 kB\n", "f:1: expected 'Name: value [kB]', got 'MemTotal 12 kB'" },
	{ P_MEMINFO, "MemTotal: 12 MB\n", "f:1: unknown unit 'MB' (only 'kB')" },
	{ P_MEMINFO, "MemTotal:\n", "f:1: missing value for 'MemTotal'" },
	{ P_MEMINFO, "MemTotal:   -x kB\n", "f:1: invalid value '-x' for 'MemTotal'" },
	{ P_BUDDY, "Node 0, zone DMA 1 2\nNode 0, zone Normal 1\n",
	  "f:2: 1 orders for node 0 zone 'Normal', 2 on the lines above" },
	{ P_BUDDY, "Node x, zone DMA 1\n", "f:1: invalid node number 'x'" },
	{ P_BUDDY, "Node 0 zone DMA 1\n", "f:1: expected 'Node N,' got 'Node 0 zone DMA 1'" },
	{ P_BUDDY, "Node 0, zone DMA 1 -2\n", "f:1: invalid free block count '-2'" },
	{ P_BUDDY, "Node 0, zone DMA\n", "f:1: no free block counts for node 0 zone 'DMA'" },
	{ P_BUDDY, "Node 0, zone DMA 1\nNode 0, zone DMA 1\n", "f:2: duplicate row for node 0 zone 'DMA'" },
	{ P_BUDDY, "Node 0, zone AVeryLongZoneNameX 1\n", "f:1: zone name 'AVeryLongZoneNameX' too long" },
	{ P_PTYPE, "Page block order: 9\nPages per block:  256\n",
	  "f:2: pages per block 256 does not match page block order 9" },
	{ P_PTYPE, "Free pages count per migrate type at order 0 2\n", "f:1: order column 1 is labelled 2" },
	{ P_PTYPE, "Free pages count per migrate type at order 0 1\n"
		   "Node 0, zone DMA, type Movable 1 2 3\n",
	  "f:2: more than 2 counts (the header has 2 orders)" },
	{ P_PTYPE, "Free pages count per migrate type at order 0 1\n"
		   "Node 0, zone DMA, type Movable 1\n",
	  "f:2: 1 counts for node 0 zone 'DMA' type 'Movable', the header has 2 orders" },
	{ P_PTYPE, "Node 0, zone DMA 1\n", "f:1: zone row before any table header" },
	{ P_PTYPE, "Free pages count per migrate type at order 0 1\n"
		   "Node 0, zone DMA, type Movable 1 2\n",
	  "f:2: file ends without a 'Number of blocks' row for node 0 zone 'DMA' (truncated?)" },
	{ P_PTYPE, "Free pages count per migrate type at order 0 1\n"
		   "Node 0, zone DMA, type Movable 1 2\n"
		   "Node 0, zone DMA, type Movable 1 2\n",
	  "f:3: duplicate row for node 0 zone 'DMA' type 'Movable'" },
	{ P_PTYPE, "garbage\n", "f:1: unexpected line 'garbage'" },
	{ P_ZONE, "  pages free 1\n", "f:1: expected 'Node N, zone NAME', got '  pages free 1'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n",
	  "f:3: node 0 zone 'DMA' (line 1) has no 'low' line" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free x\n", "f:2: invalid free page count 'x'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n        min 2\n",
	  "f:4: second 'min' line in node 0 zone 'DMA'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n        low 1\n        high 1\n"
		  "        spanned 1\n        present 1\n        managed 1\n"
		  "        protection: (0, 1\n",
	  "f:9: protection list has no ')'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n        low 1\n        high 1\n"
		  "        spanned 1\n        present 1\n        managed 1\n"
		  "        protection: (0, 1)\n      nr_free_pages 1\n  pagesets\n",
	  "f:11: node 0 zone 'DMA' (line 1) ends before 'start_pfn'" },
	{ P_ZONE, "Node 0, zone DMA\n  per-node stats\n      nr_a 1\n      nr_a 2\n",
	  "f:4: duplicate counter 'nr_a'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n        low 1\n        high 1\n"
		  "        spanned 1\n        present 1\n        managed 1\n"
		  "        protection: (0, 1)\n",
	  "f:9: node 0 zone 'DMA' (line 1) ends before 'start_pfn'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n        min 1\n        bogus x\n",
	  "f:4: invalid value 'x'" },
	{ P_ZONE, "Node 0, zone DMA\n  pages free 1\n  weird line\n", "f:3: unexpected line '  weird line'" },
	{ P_MONITOR, "nr_free_pages 1\n", "f:1: expected 'time: <seconds>', got 'nr_free_pages 1'" },
	{ P_MONITOR, "time: 12a\n", "f:1: invalid time '12a'" },
	{ P_MONITOR, "time: 1\na 1\ntime: 2\na 2", "f:4: line 'a 2' has no newline (truncated file)" },
	{ P_MONITOR, "", "f:1: no samples (empty file)" },
	{ P_DISKSTATS, "   8 0 sda 1 2 3 4 5 6 7 8 9 10\n",
	  "f:1: disk 'sda' has 10 counters, expected 11, 15 or 17" },
	{ P_DISKSTATS, "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
	  "f:2: disk 'sda' listed twice" },
	{ P_DISKSTATS, "   8 x sda 1 2 3 4 5 6 7 8 9 10 11\n", "f:1: invalid minor number 'x'" },
	{ P_DISKSTATS, "   8 0 sda 1 2 3 4 5 -6 7 8 9 10 11\n", "f:1: invalid counter '-6'" },
	{ P_DISKSTATS, "   8 0\n", "f:1: missing disk name" },
	{ P_DISKSTATS, "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n",
	  "f:1: more than 17 counters after disk 'sda'" },
	{ P_DISKSTATS, "   4294967296 0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
	  "f:1: device number 4294967296:0 out of range" },
	{ P_DISKSTATS, "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11", "" },
	{ P_WBT, "md0 0 1\n", "f:1: expected the header '# device member wb_normal ...', got 'md0 0 1'" },
	{ P_WBT, "", "f:1: no header (empty sample)" },
	{ P_WBT, DEBUGFS_WBT_HEADER "\n" "md0 0 8 4 0 0 2000000 0 0 16 0 0 0 0 0 0 0 0\n",
	  "f:2: 18 columns, the header has 19" },
	{ P_WBT, DEBUGFS_WBT_HEADER "\n" "md0 0 8 4 0 0 2000000 0 -1 16 0 0 0 0 0 0 0 0 0 9\n",
	  "f:2: unexpected text '9'" },
	{ P_WBT, DEBUGFS_WBT_HEADER "\n" "md0 0 8 -4 0 0 2000000 0 0 16 0 0 0 0 0 0 0 0 0\n",
	  "f:2: invalid value '-4' in column 4" },
	{ P_WBT, DEBUGFS_WBT_HEADER "\n" "md0 0 8 4 x 0 2000000 0 0 16 0 0 0 0 0 0 0 0 0\n",
	  "f:2: invalid value 'x' in column 5" },
	{ P_TRACE, "", "f:1: no tracepoint counts (empty sample)" },
	{ P_TRACE, "kmem:mm_page_alloc 3\nkmem:mm_page_free 1\nkmem:mm_page_alloc 4\n",
	  "f:3: tracepoint kmem:mm_page_alloc given twice" },
	{ P_TRACE, "kmem:mm_page_alloc 3\nkmem:kmalloc 1\n", "f:2: unknown tracepoint 'kmem:kmalloc'" },
	{ P_TRACE, "kmem:mm_page_pcpu_drain\n", "f:1: missing count for kmem:mm_page_pcpu_drain" },
	{ P_TRACE, "kmem:mm_page_pcpu_drain -2\n",
	  "f:1: invalid count '-2' for kmem:mm_page_pcpu_drain" },
	{ P_TRACE, "kmem:mm_page_pcpu_drain 99999999999999999999\n",
	  "f:1: out-of-range count '99999999999999999999' for kmem:mm_page_pcpu_drain" },
	{ P_TRACE, "kmem:mm_page_pcpu_drain 2 3\n", "" },
	{ P_STAT, "", "f:1: no 'cpu' line (empty file)" },
	{ P_STAT, "intr 0\ncpu  1 2 3 4\nctxt 1\n", "f:1: expected the 'cpu' line first, got 'intr 0'" },
	{ P_STAT, "\ncpu0 1 2 3 4\nctxt 1\n", "f:2: expected the 'cpu' line first, got 'cpu0 1 2 3 4'" },
	{ P_STAT, "cpu  1 2 3 4\ncpu  1 2 3 4\nctxt 1\n", "f:2: duplicate 'cpu' line (first on line 1)" },
	{ P_STAT, "cpu  1 2 x 4\nctxt 1\n", "f:1: invalid tick count 'x'" },
	{ P_STAT, "cpu  1 2 3 -4\nctxt 1\n", "f:1: invalid tick count '-4'" },
	{ P_STAT, "cpu  1 2 3 99999999999999999999\n", "f:1: tick count '99999999999999999999' out of range" },
	{ P_STAT, "cpu  1 2 3 4\ncpu0 1 2 3 4 5 6 7 8 9 10 11\nctxt 1\n",
	  "f:2: more than 10 tick columns after 'cpu0'" },
	{ P_STAT, "cpu  1 2 3\nctxt 1\n", "f:1: 'cpu' has 3 tick columns, expected 4 to 10" },
	{ P_STAT, "cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4\nctxt 1\n", "f:2: 'cpu0' has 4 tick columns, the 'cpu' line 7" },
	{ P_STAT, "cpu  1 2 3 4\ncpu0 1 2 3 4\nintr 5\n", "f:3: file ends without a 'ctxt' line (truncated?)" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\nbtime 2\nctxt 3\n", "f:4: duplicate 'ctxt' line (first on line 2)" },
	{ P_STAT, "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu2 1 2 3 4\ncpu2 1 2 3 4\nctxt 1\n",
	  "f:4: 'cpu2' after 'cpu2' (CPU numbers must increase)" },
	{ P_STAT, "cpu  1 2 3 4\ncpu1 1 2 3 4\ncpu0 1 2 3 4\nctxt 1\n",
	  "f:3: 'cpu0' after 'cpu1' (CPU numbers must increase)" },
	{ P_STAT, "cpu  1 2 3 4\ncpu1a 1 2 3 4\nctxt 1\n", "f:2: invalid CPU number in 'cpu1a'" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\nbtime 1", "f:3: line 'btime 1' has no newline (truncated file)" },
	{ P_STAT, "cpu  1 2 3 4\ncpu0 1 2", "f:2: line 'cpu0 1 2' has no newline (truncated file)" },
	{ P_STAT, "cpu  1 2 3 4\nintr\nctxt 1\n", "f:2: missing 'intr' total" },
	{ P_STAT, "cpu  1 2 3 4\nintr 10 1 x\nctxt 1\n", "f:2: invalid 'intr' count 'x'" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\nsoftirq 3 1 2 -1\n", "f:3: invalid 'softirq' count '-1'" },
	{ P_STAT, "cpu  1 2 3 4\nctxt x\n", "f:2: invalid 'ctxt' value 'x'" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1 2\n", "f:2: unexpected text '2'" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\nprocs_running\n", "f:3: missing 'procs_running' value" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\nintr 1\nintr 1\n", "f:4: duplicate 'intr' line (first on line 3)" },
	{ P_STAT, "cpu  1 2 3 4\nctxt 1\n\x01 1\n", "f:3: invalid character in line name '\\x01'" },
};

/* A test that every malformed input in the table above is rejected with
 * exactly its "path:line: message".  Expect each message verbatim (an
 * empty expected message means "any error"). */
TEST(malformed_inputs_have_precise_messages)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";

		if (run_parser(bad[i].w, "f", bad[i].text, err, sizeof(err)) != -1) {
			harness_fail(__FILE__, __LINE__, "case %zu accepted: %s", i, bad[i].text);
			return;
		}
		if (bad[i].msg[0])
			ASSERT_STR_EQ(err, bad[i].msg);
		else
			ASSERT_TRUE(strncmp(err, "f:", 2) == 0);
	}
}

/* A test that zoneinfo of a two-node machine keeps both nodes' zones and
 * sums their per-node stats by name; the second node here is the fixture
 * with "Node 0" renamed.  Expect 10 zones and nr_written doubled. */
TEST(zoneinfo_two_nodes_sum_node_stats)
{
	char *t = slurp(FIX "zoneinfo"), err[256] = "";
	size_t n = strlen(t);
	char *two = malloc(2 * n + 1), *p;
	struct proc_zoneinfo *z = malloc(sizeof(*z));

	memcpy(two, t, n);
	memcpy(two + n, t, n + 1);
	for (p = two + n; (p = strstr(p, "Node 0,")) != NULL; p += 7)
		p[5] = '1';
	if (proc_parse_zoneinfo("zoneinfo", two, z, err, sizeof(err)))
		harness_fail(__FILE__, __LINE__, "%s", err);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(z->nr, 10);
	ASSERT_EQ(z->z[7].node, 1);
	ASSERT_STR_EQ(z->z[7].zone, "Normal");
	ASSERT_EQ(get(&z->node_stats, "nr_written"), 2 * 84060778LL);
	ASSERT_EQ(z->node_stats.n, 51);
	proc_zoneinfo_release(z);
	free(z);
	free(two);
	free(t);
}

/* A test that pagetypeinfo of two nodes (the header repeated per node, as
 * the kernel prints it) and a ">" capped count parse.  Expect 6 zones,
 * node 1 Normal blocks equal to node 0's, the capped count as printed. */
TEST(pagetypeinfo_two_nodes_and_capped_count)
{
	char *t = slurp(FIX "pagetypeinfo"), err[256] = "";
	size_t n = strlen(t);
	char *two = malloc(2 * n + 64), *p;
	struct proc_pagetypeinfo pt;

	memcpy(two, t, n);
	memcpy(two + n, t, n + 1);
	for (p = two + n; (p = strstr(p, "Node ")) != NULL; p += 5) {
		char *d = p + 5;

		while (*d == ' ')
			d++;
		*d = '1';
	}
	/* Normal Unmovable order 0 capped: "%s%6lu " prints ">100000 " */
	p = strstr(two, "Unmovable    834 ");
	ASSERT_TRUE(p != NULL);
	memmove(p + 18, p + 17, strlen(p + 17) + 1);
	memcpy(p, "Unmovable >100000 ", 18);
	if (proc_parse_pagetypeinfo("pagetypeinfo", two, &pt, err, sizeof(err)))
		harness_fail(__FILE__, __LINE__, "%s", err);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(pt.nr, 6);
	ASSERT_EQ(pt.z[5].node, 1);
	ASSERT_U64_EQ(pt.z[5].blocks[1], 9606);
	ASSERT_U64_EQ(pt.z[2].free[0][0], 100000);
	free(two);
	free(t);
}

/* A test that every prefix of every fixture either parses or fails with a
 * "path:line:" message, and that a prefix ending inside a line always
 * fails (truncation is never silent).  Under check-san this also shows no
 * out-of-bounds access.  Expect no crash and the two properties above. */
TEST(every_truncation_is_reported_or_harmless)
{
	static const struct { const char *file; enum which w; } fx[] = {
		{ "vmstat", P_VMSTAT }, { "meminfo", P_MEMINFO }, { "buddyinfo", P_BUDDY },
		{ "pagetypeinfo", P_PTYPE }, { "zoneinfo", P_ZONE },
		{ "monitor-proc-vmstat", P_MONITOR }, { "monitor-proc-buddyinfo", P_MONITOR },
		{ "diskstats", P_DISKSTATS }, { "monitor-proc-diskstats", P_MONITOR },
		{ "stat", P_STAT }, { "monitor-proc-stat", P_MONITOR },
	};

	for (size_t f = 0; f < sizeof(fx) / sizeof(fx[0]); f++) {
		char path[256];
		char *t;
		size_t n;

		snprintf(path, sizeof(path), FIX "%s", fx[f].file);
		t = slurp(path);
		ASSERT_TRUE(t != NULL);
		n = strlen(t);
		for (size_t cut = 0; cut < n; cut += (n > 5000 ? 7 : 1)) {
			char *pre = malloc(cut + 1), err[256] = "";
			int rc;

			memcpy(pre, t, cut);
			pre[cut] = '\0';
			rc = run_parser(fx[f].w, "t", pre, err, sizeof(err));
			if (rc != 0 && strncmp(err, "t:", 2) != 0) {
				harness_fail(__FILE__, __LINE__, "%s cut at %zu: message '%s'",
					     fx[f].file, cut, err);
				free(pre);
				free(t);
				return;
			}
			if (cut > 0 && pre[cut - 1] != '\n' && rc == 0) {
				harness_fail(__FILE__, __LINE__, "%s cut inside a line at %zu accepted",
					     fx[f].file, cut);
				free(pre);
				free(t);
				return;
			}
			free(pre);
		}
		free(t);
	}
}

/* A test that zoneinfo and pagetypeinfo cut at a line boundary inside a
 * zone are rejected (the structural end-of-file checks).  Expect failure
 * for every line boundary except the ends of complete zone blocks. */
TEST(structural_truncation_detected)
{
	char *t = slurp(FIX "zoneinfo"), err[256];
	struct proc_zoneinfo *z = malloc(sizeof(*z));
	size_t n = strlen(t);
	unsigned int accepted = 0;

	for (size_t cut = 1; cut < n; cut++) {
		char save;

		if (t[cut - 1] != '\n')
			continue;
		save = t[cut];
		t[cut] = '\0';
		if (proc_parse_zoneinfo("z", t, z, err, sizeof(err)) == 0) {
			/* only a cut right before the next "Node" line is complete */
			ASSERT_TRUE(save == 'N');
			accepted++;
		}
		proc_zoneinfo_release(z);
		t[cut] = save;
	}
	ASSERT_EQ(accepted, 4);		/* after DMA, DMA32, Normal, Movable */
	free(z);
	free(t);
}

/* A test that a folder written by the live recorder (the pgbench-local
 * fixture) reads back: every monitor splits into samples and every sample
 * parses with its parser — what compare and the plots do with it.  Expect
 * 12 samples in each monitor and no parse error. */
TEST(recorded_folder_reads_back)
{
	static const struct { const char *file; enum which w; } mon[] = {
		{ "proc-vmstat", P_VMSTAT }, { "proc-meminfo", P_MEMINFO },
		{ "proc-buddyinfo", P_BUDDY }, { "proc-pagetypeinfo", P_PTYPE },
		{ "proc-zoneinfo", P_ZONE },
	};

	for (size_t i = 0; i < sizeof(mon) / sizeof(mon[0]); i++) {
		char path[256], err[256] = "";
		struct proc_monitor m;
		char *t;

		snprintf(path, sizeof(path), "tests/fixtures/results/recorded-pgbench-local/%s",
			 mon[i].file);
		t = slurp(path);
		ASSERT_TRUE(t != NULL);
		ASSERT_EQ(proc_parse_monitor(path, t, &m, err, sizeof(err)), 0);
		ASSERT_EQ(m.n, 12);
		for (size_t k = 0; k < m.n; k++)
			if (run_parser(mon[i].w, path, m.s[k].text, err, sizeof(err))) {
				harness_fail(__FILE__, __LINE__, "sample %zu: %s", k, err);
				break;
			}
		proc_monitor_release(&m);
		free(t);
		ASSERT_OK_SO_FAR();
	}
}
