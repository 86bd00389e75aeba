/* SPDX-License-Identifier: MIT */
/*
 * Tests of src/record/: durations, the metrics file, the proc sources, the
 * command runner and whole recordings through rec_main().
 *
 * Driver mode: `test_record --record ARGS...` runs rec_main(ARGS) and exits
 * with its status.  The 9xxx suites and scenarios/real/pgbench-local use it
 * when the slowpath binary has no `record` command yet (main.c is wired by
 * the integrator).  It runs from a constructor, before the harness's main:
 * glibc passes (argc, argv, envp) to ELF constructors.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "record/internal.h"
#include "record/record.h"

__attribute__((constructor)) static void record_driver(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--record") == 0)
		exit(rec_main(argc - 1, argv + 1));
}

/* A test that durations take ms/s/m/h suffixes and bare seconds, and
 * reject junk.  Expect exact ns values and -1 for bad text. */
TEST(parse_duration)
{
	uint64_t ns = 0;

	ASSERT_EQ(rec_parse_duration("1s", &ns), 0);
	ASSERT_U64_EQ(ns, 1000000000);
	ASSERT_EQ(rec_parse_duration("250ms", &ns), 0);
	ASSERT_U64_EQ(ns, 250000000);
	ASSERT_EQ(rec_parse_duration("1.5", &ns), 0);
	ASSERT_U64_EQ(ns, 1500000000);
	ASSERT_EQ(rec_parse_duration("2m", &ns), 0);
	ASSERT_U64_EQ(ns, 120000000000ull);
	ASSERT_EQ(rec_parse_duration("1h", &ns), 0);
	ASSERT_U64_EQ(ns, 3600000000000ull);
	ASSERT_EQ(rec_parse_duration("", &ns), -1);
	ASSERT_EQ(rec_parse_duration("s", &ns), -1);
	ASSERT_EQ(rec_parse_duration("-1s", &ns), -1);
	ASSERT_EQ(rec_parse_duration("1x", &ns), -1);
	ASSERT_EQ(rec_parse_duration("0", &ns), -1);
	ASSERT_EQ(rec_parse_duration("1e30", &ns), -1);
}

/* ---- metrics files ------------------------------------------------------ */

/* A test that a complete metrics file fills the transaction block, the
 * time series and the figures, ignoring comments and blank lines.  Expect
 * every value as written. */
TEST(metrics_complete)
{
	static const char text[] =
		"# pgbench simple-update\n"
		"tps 4182.35\n"
		"transactions 83647\n"
		"latency_avg_ms 0.239\n"
		"latency_p50_ms 0.221\n"
		"latency_p95_ms 0.348\n"
		"latency_p99_ms 0.517\n"
		"latency_max_ms 12.904\n"
		"\n"
		"interval 1 4012 0.249 3.1\n"
		"interval 2.5 4100.5 0.24 2\n"
		"figure scale_factor 1\n"
		"figure init_seconds 0.71 s\n"
		"figure delta -3\n";
	struct rec_metrics m;
	char err[256] = "";

	ASSERT_EQ(rec_metrics_parse("m", text, &m, err, sizeof(err)), 0);
	ASSERT_TRUE(m.has_transactions);
	ASSERT_NEAR(m.tps, 4182.35, 0);
	ASSERT_U64_EQ(m.transactions, 83647);
	ASSERT_NEAR(m.latency.avg, 0.239, 0);
	ASSERT_NEAR(m.latency.p99, 0.517, 0);
	ASSERT_NEAR(m.latency.max, 12.904, 0);
	ASSERT_EQ(m.nr_iv, 2);
	ASSERT_NEAR(m.iv[1].end_s, 2.5, 0);
	ASSERT_NEAR(m.iv[1].tps, 4100.5, 0);
	ASSERT_EQ(m.nr_fig, 3);
	ASSERT_STR_EQ(m.fig[1].name, "init_seconds");
	ASSERT_STR_EQ(m.fig[1].unit, "s");
	ASSERT_STR_EQ(m.fig[0].unit, "");
	ASSERT_NEAR(m.fig[2].value, -3, 0);
	rec_metrics_release(&m);
}

/* A test that a file with figures only has no transaction block.  Expect
 * has_transactions false and one figure. */
TEST(metrics_figures_only)
{
	struct rec_metrics m;
	char err[256] = "";

	ASSERT_EQ(rec_metrics_parse("m", "figure iops 1e5 IOPS\n", &m, err, sizeof(err)), 0);
	ASSERT_FALSE(m.has_transactions);
	ASSERT_EQ(m.nr_fig, 1);
	ASSERT_NEAR(m.fig[0].value, 100000, 0);
	rec_metrics_release(&m);
}

static const struct {
	const char *text, *msg;
} bad_metrics[] = {
	{ "tps\n", "m:1: missing value for 'tps'" },
	{ "tps 1\ntps 2\n", "m:2: second 'tps' line" },
	{ "tps x\n", "m:1: invalid value 'x' for 'tps'" },
	{ "tps -1\n", "m:1: invalid value '-1' for 'tps'" },
	{ "tps 1 2\n", "m:1: unexpected text '2' after the value" },
	{ "transactions 1.5\n", "m:1: 'transactions' must be a whole number, not '1.5'" },
	{ "tps inf\n", "m:1: invalid value 'inf' for 'tps'" },
	{ "tps 1\ntransactions 2\n",
	  "m:2: no 'latency_avg_ms' line: tps, transactions and the five latency_*_ms lines go together" },
	{ "iops 1\n", "m:1: unknown key 'iops' (tps, transactions, latency_{avg,p50,p95,p99,max}_ms, "
		      "interval, figure, waits, checkpoint, wal)" },
	{ "wal 1 2 3\n", "m:1: 'wal' wants: end_s wal_records wal_fpi wal_bytes wal_buffers_full wal_write "
			"wal_sync wal_write_time wal_sync_time" },
	{ "wal 1 2 3 4 5 6 7 8 9 10\n", "m:1: unexpected text '10' after 'wal'" },
	{ "wal 1 2.5 3 4 5 6 7 8 9\n", "m:1: '2.5' in 'wal' is not a whole number of wal_records" },
	{ "wal 1 2 3 4 5 6 7 8 -9\n", "m:1: invalid number '-9' in 'wal'" },
	{ "wal 2 0 0 0 0 0 0 0 0\nwal 2 0 0 0 0 0 0 0 0\n", "m:2: wal end 2 is not after the previous one (2)" },
	{ "checkpoint\n", "m:1: 'checkpoint' wants: start_s [write_s sync_s total_s buffers_written]" },
	{ "checkpoint 1 2\n", "m:1: 'checkpoint' wants: start_s [write_s sync_s total_s buffers_written]" },
	{ "checkpoint 1 2 3 4 5 6\n", "m:1: unexpected text '6' after 'checkpoint'" },
	{ "checkpoint 1 2 3 4 5.5\n", "m:1: buffers_written '5.5' is not a whole number" },
	{ "checkpoint 1 x\n", "m:1: invalid number 'x' in 'checkpoint'" },
	{ "checkpoint 9\ncheckpoint 8\n", "m:2: checkpoint start 8 is before the previous one (9)" },
	{ "waits\n", "m:1: 'waits' wants: end_s name=pct ..." },
	{ "waits x cpu=1\n", "m:1: invalid number 'x' in 'waits'" },
	{ "waits 2 cpu=1\nwaits 2 cpu=1\n", "m:2: waits end 2 is not after the previous one (2)" },
	{ "waits 1 cpu\n", "m:1: 'cpu' in 'waits' is not name=pct" },
	{ "waits 1 Cpu=1\n", "m:1: invalid wait event name 'Cpu' (use a-z, 0-9, _)" },
	{ "waits 1 cpu=-1\n", "m:1: invalid share '-1' for 'cpu' in 'waits'" },
	{ "waits 1 cpu=1 a=2 cpu=3\n", "m:1: second 'cpu' in one 'waits' line" },
	{ "interval 1 2 3\n", "m:1: 'interval' wants: end_s tps lat_avg_ms lat_max_ms" },
	{ "interval 2 1 1 1\ninterval 1 1 1 1\n", "m:2: interval end 1 is not after the previous one (2)" },
	{ "interval 1 1 1 1 1\n", "m:1: unexpected text '1' after 'interval'" },
	{ "figure Bad 1\n", "m:1: invalid figure name 'Bad' (use a-z, 0-9, _)" },
	{ "figure a 1\nfigure a 2\n", "m:2: second figure 'a'" },
	{ "figure a\n", "m:1: 'figure' wants: name value [unit]" },
	{ "figure a 1 u x\n", "m:1: unexpected text 'x' after the unit" },
	{ "figure a nan\n", "m:1: invalid value 'nan' for figure 'a'" },
	{ "figure a 0x10\n", "m:1: invalid value '0x10' for figure 'a'" },
};

/* A test that each malformed metrics file above gets its exact message.
 * Expect every message verbatim. */
TEST(metrics_errors)
{
	for (size_t i = 0; i < sizeof(bad_metrics) / sizeof(bad_metrics[0]); i++) {
		struct rec_metrics m;
		char err[256] = "";

		ASSERT_EQ(rec_metrics_parse("m", bad_metrics[i].text, &m, err, sizeof(err)), -1);
		ASSERT_STR_EQ(err, bad_metrics[i].msg);
		ASSERT_EQ(m.nr_fig, 0);		/* released on error */
		ASSERT_EQ(m.nr_wait_row, 0);
		ASSERT_EQ(m.nr_ckpt, 0);
		ASSERT_EQ(m.nr_wal, 0);
	}
}

/* A test that "wal" lines give wal.csv's rows, pg_stat_wal's differences
 * per interval with the times in ms.  Expect 2 rows of 9 numbers, each
 * where its line put it. */
TEST(metrics_wal)
{
	struct rec_metrics m;
	char err[256] = "";

	ASSERT_EQ(rec_metrics_parse("m", "wal 1 4512 1203 9871234 0 812 811 40.5 210.25\n"
				   "wal 2.5 10 0 800 1 2 2 0.125 0.5\n", &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.nr_wal, 2);
	ASSERT_STR_EQ(rec_wal_cols[2], "wal_fpi");
	ASSERT_NEAR(m.wal[0][0], 1, 0);
	ASSERT_NEAR(m.wal[0][3], 9871234, 0);
	ASSERT_NEAR(m.wal[0][8], 210.25, 0);
	ASSERT_NEAR(m.wal[1][0], 2.5, 0);
	ASSERT_NEAR(m.wal[1][4], 1, 0);
	ASSERT_NEAR(m.wal[1][7], 0.125, 0);
	rec_metrics_release(&m);
}

/* A test that "checkpoint" lines give checkpoints.csv's rows: a complete
 * one, and one still running at the end (start only).  Expect 2 rows,
 * the first's five numbers, the second's start and NaN after it. */
TEST(metrics_checkpoints)
{
	struct rec_metrics m;
	char err[256] = "";

	ASSERT_EQ(rec_metrics_parse("m", "checkpoint 12.5 27.0 0.125 27.25 276\ncheckpoint 140\n", &m, err,
				   sizeof(err)), 0);
	ASSERT_EQ(m.nr_ckpt, 2);
	ASSERT_NEAR(m.ckpt[0][0], 12.5, 0);
	ASSERT_NEAR(m.ckpt[0][3], 27.25, 0);
	ASSERT_NEAR(m.ckpt[0][4], 276, 0);
	ASSERT_NEAR(m.ckpt[1][0], 140, 0);
	ASSERT_TRUE(isnan(m.ckpt[1][1]) && isnan(m.ckpt[1][4]));
	rec_metrics_release(&m);
}

/* A test that "waits" lines give waits.csv's rows: columns in first-seen
 * order, an event a line leaves out at 0.  Expect 2 rows, 3 columns and
 * each cell where its line put it. */
TEST(metrics_waits)
{
	struct rec_metrics m;
	char err[256] = "";

	ASSERT_EQ(rec_metrics_parse("m", "waits 1 cpu=20 client_clientread=80\n"
				   "waits 2 lwlock_walwrite=10 cpu=30 client_clientread=60\n", &m, err, sizeof(err)), 0);
	ASSERT_EQ(m.nr_wait_row, 2);
	ASSERT_EQ(m.nr_wait_col, 3);
	ASSERT_STR_EQ(m.wait_col[2], "lwlock_walwrite");
	ASSERT_NEAR(m.wait_end[1], 2, 0);
	ASSERT_EQ(m.nr_wait_cell, 5);
	ASSERT_EQ(m.wait_cell[2].row, 1);
	ASSERT_EQ(m.wait_cell[2].col, 2);
	ASSERT_NEAR(m.wait_cell[3].pct, 30, 0);
	ASSERT_EQ(m.wait_cell[3].col, 0);
	rec_metrics_release(&m);
}

/* A test of the monitors' time stamps: whole epoch seconds with a
 * whole-second interval, ms otherwise, and a last sample in the same
 * whole second as the one before (the command ended 0.6 s after it) to
 * the ns, so that the stamps increase.  Expect each text. */
TEST(monitor_stamps_increase)
{
	const int64_t s = 1796391004LL * 1000000000LL;
	char buf[48];

	rec_monitor_stamp(-1, s + 200000000, true, buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "1796391004");
	rec_monitor_stamp(s - 800000000, s + 200000000, true, buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "1796391004");
	rec_monitor_stamp(s + 200000000, s + 800000123, true, buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "1796391004.800000123");
	rec_monitor_stamp(s + 200000000, s + 1200000000, true, buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "1796391005");
	rec_monitor_stamp(s, s + 250000000, false, buf, sizeof(buf));
	ASSERT_STR_EQ(buf, "1796391004.250");
}

/* ---- sources ------------------------------------------------------------ */

#define REPLAY "tests/fixtures/proc/replay/"

/* A test that a numbered replay directory has its samples, its epoch and
 * a virtual clock that jumps without waiting.  Expect 3 samples, epoch
 * 1795980148 s, select(4) false, now() at the requested time, and the
 * sample-2 vmstat path. */
TEST(replay_source_numbered)
{
	struct rec_source s;
	struct rec_text t = { 0 };
	sigset_t none;
	char err[256] = "";

	sigemptyset(&none);
	ASSERT_EQ(rec_source_open(&s, REPLAY "6.18-3s", err, sizeof(err)), 0);
	ASSERT_STR_EQ(s.ops->name, "replay");
	ASSERT_EQ(s.nr_samples, 3);
	ASSERT_EQ(s.epoch_ns, 1795980148LL * 1000000000LL);
	ASSERT_TRUE(s.ops->select(&s, 2));
	ASSERT_EQ(s.ops->read(&s, "vmstat", true, &t), 0);
	ASSERT_STR_EQ(t.path, REPLAY "6.18-3s/0002/vmstat");
	ASSERT_TRUE(strncmp(t.buf, "nr_free_pages 6025103\n", 22) == 0);
	ASSERT_EQ(s.ops->read(&s, "sys/kernel/osrelease", false, &t), 0);
	ASSERT_STR_EQ(t.buf, "6.18.44-fc-v595\n");
	ASSERT_EQ(s.ops->read(&s, "nonexistent", true, &t), -ENOENT);
	ASSERT_U64_EQ(s.ops->now(&s), 0);
	ASSERT_EQ(s.ops->wait_until(&s, 5 * NS_PER_SEC, &none), 0);
	ASSERT_U64_EQ(s.ops->now(&s), 5 * NS_PER_SEC);
	ASSERT_TRUE(s.ops->select(&s, 3));
	ASSERT_FALSE(s.ops->select(&s, 4));
	rec_text_release(&t);
	rec_source_close(&s);
}

/* A test that a replay wait returns a pending signal instead of moving
 * the clock, as the live wait does.  Expect SIGUSR1 back and now() 0. */
TEST(replay_wait_takes_pending_signal)
{
	struct rec_source s;
	sigset_t set, old;
	char err[256] = "";

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	ASSERT_EQ(rec_source_open(&s, REPLAY "6.18-3s", err, sizeof(err)), 0);
	ASSERT_EQ(s.ops->wait_until(&s, NS_PER_SEC, &set), SIGUSR1);
	ASSERT_U64_EQ(s.ops->now(&s), 0);
	ASSERT_EQ(s.ops->wait_until(&s, NS_PER_SEC, &set), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	rec_source_close(&s);
}

/* A test that a directory without 0001/ is one snapshot, read at every
 * sample, and that a bad start-epoch or a missing directory is refused.
 * Expect nr_samples 0, select(99) true, and the two messages. */
TEST(replay_source_snapshot_and_errors)
{
	struct rec_source s;
	char err[256] = "";

	ASSERT_EQ(rec_source_open(&s, "tests/fixtures/proc/linux-6.18", err, sizeof(err)), 0);
	ASSERT_EQ(s.nr_samples, 0);
	ASSERT_EQ(s.epoch_ns, 0);
	ASSERT_TRUE(s.ops->select(&s, 99));
	rec_source_close(&s);
	ASSERT_EQ(rec_source_open(&s, "tests/fixtures/proc/nonexistent", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--proc-root 'tests/fixtures/proc/nonexistent': not a directory");
}

/* A test that reading a file with a NUL byte or a directory fails with
 * EILSEQ / EISDIR rather than returning a cut text.  Expect both codes. */
TEST(read_file_rejects_nul_and_directories)
{
	struct rec_text t = { 0 };
	char path[] = "/tmp/slowpath-test-nul-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(write(fd, "a 1\0b 2\n", 8), 8);
	close(fd);
	ASSERT_EQ(rec_read_file(path, &t), -EILSEQ);
	unlink(path);
	ASSERT_EQ(rec_read_file("tests", &t), -EISDIR);
	rec_text_release(&t);
}

/* ---- the command runner -------------------------------------------------- */

/* A test that exit codes and deaths by signal come back in the shell's
 * convention, and that a command that cannot be executed is reported
 * before anything runs.  Expect 0, 3, 128+SIGKILL and the message. */
TEST(runner_exit_statuses)
{
	static char *ok[] = { "true", NULL };
	static char *three[] = { "sh", "-c", "exit 3", NULL };
	static char *killed[] = { "sh", "-c", "kill -9 $$", NULL };
	static char *nope[] = { "/nonexistent/cmd", NULL };
	struct rec_signals sg;
	struct rec_child c;
	char err[256] = "";

	rec_signals_block(&sg);
	ASSERT_EQ(rec_child_start(&c, ok, &sg, err, sizeof(err)), 0);
	ASSERT_EQ(rec_child_wait(&c, &sg), 0);
	ASSERT_EQ(rec_child_exit_status(&c), 0);
	ASSERT_EQ(rec_child_start(&c, three, &sg, err, sizeof(err)), 0);
	ASSERT_EQ(rec_child_wait(&c, &sg), 0);
	ASSERT_EQ(rec_child_exit_status(&c), 3);
	ASSERT_EQ(rec_child_start(&c, killed, &sg, err, sizeof(err)), 0);
	ASSERT_EQ(rec_child_wait(&c, &sg), 0);
	ASSERT_EQ(rec_child_exit_status(&c), 128 + SIGKILL);
	ASSERT_EQ(rec_child_start(&c, nope, &sg, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "cannot run '/nonexistent/cmd': No such file or directory");
	ASSERT_FALSE(c.running);
	rec_signals_restore(&sg);
}

/* Processes of process group `pgrp` that are not zombies, from /proc. */
static int live_members(pid_t pgrp)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)) != NULL) {
		char path[300], buf[512], *p, state;
		long long grp;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/* ") S ppid pgrp ..." */
		if (p && sscanf(p, ") %c %*d %lld", &state, &grp) == 2 && grp == pgrp && state != 'Z')
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* A test that stopping a command reaches its whole process group and that
 * one which ignores the signal is killed after the grace period.  The
 * shell ignores SIGTERM and keeps starting children.  Expect exit status
 * 128+SIGKILL and no process left in the group. */
TEST(runner_stop_kills_the_group)
{
	char ready[] = "/tmp/slowpath-test-ready-XXXXXX", script[256];
	char *stubborn[] = { "sh", "-c", script, NULL };
	struct rec_signals sg;
	struct rec_child c;
	char err[256] = "";
	int fd = mkstemp(ready);

	ASSERT_TRUE(fd >= 0);
	close(fd);
	unlink(ready);
	snprintf(script, sizeof(script),
		 "trap '' TERM; : >%s; while :; do sleep 0.05; done", ready);
	rec_signals_block(&sg);
	ASSERT_EQ(rec_child_start(&c, stubborn, &sg, err, sizeof(err)), 0);
	while (access(ready, F_OK) != 0)	/* the trap is in place */
		usleep(1000);
	unlink(ready);
	ASSERT_FALSE(rec_child_poll(&c));
	rec_child_stop(&c, SIGTERM, NS_PER_SEC / 5, &sg);
	ASSERT_FALSE(c.running);
	ASSERT_EQ(rec_child_exit_status(&c), 128 + SIGKILL);
	/* the sleeps inherit the ignored SIGTERM: only the group SIGKILL ends
	 * them (a zombie waiting for init to reap it does not count) */
	for (int i = 0; i < 200 && live_members(c.pid) > 0; i++)
		usleep(10000);		/* SIGKILL is delivered asynchronously */
	ASSERT_EQ(live_members(c.pid), 0);
	rec_signals_restore(&sg);
}

/* ---- whole recordings ------------------------------------------------------ */

static char *slurp(const char *path)
{
	struct rec_text t = { 0 };

	if (rec_read_file(path, &t)) {
		rec_text_release(&t);
		return NULL;
	}
	return t.buf;
}

/* A test that SIGINT to a live recording takes a last sample, passes the
 * signal to the command and still writes a complete folder.  The recorder
 * runs in a child process with SIGINT at its default action; the signal is
 * sent once the first sample is on disk.  Expect exit 130 from the
 * recorder, exit_status 130 (sleep died of the forwarded SIGINT) and at
 * least two samples in result.json. */
TEST(sigint_stops_the_command_and_keeps_the_recording)
{
	char dir[] = "/tmp/slowpath-test-rec-XXXXXX", out[64], path[128], cmd[128];
	char *json;
	pid_t pid;
	int st;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(out, sizeof(out), "%s/out", dir);
	fflush(NULL);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		char *argv[] = { "record", "--interval", "50ms", "--out", out, "--",
				 "sleep", "30", NULL };

		signal(SIGINT, SIG_DFL);
		_exit(rec_main(8, argv));
	}
	snprintf(path, sizeof(path), "%s/proc-vmstat.tmp", out);
	for (int i = 0; i < 3000 && access(path, F_OK) != 0; i++)
		usleep(10000);
	ASSERT_EQ(access(path, F_OK), 0);
	kill(pid, SIGINT);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(WEXITSTATUS(st), 130);
	snprintf(path, sizeof(path), "%s/result.json", out);
	json = slurp(path);
	ASSERT_TRUE(json != NULL);
	ASSERT_TRUE(strstr(json, "\"command\": \"sleep 30\",") != NULL);
	ASSERT_TRUE(strstr(json, "\"exit_status\": 130,") != NULL);
	ASSERT_TRUE(strstr(json, "\"samples\": 1,") == NULL);
	ASSERT_TRUE(strstr(json, "\"source\": \"recorded\",") != NULL);
	free(json);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
}

/* A test that a replay is deterministic through rec_main itself (the
 * suite compares with golden files; this needs no files): two replays of
 * the same directory into two folders give identical result.json.
 * Expect equal texts and the replay's 3 samples. */
TEST(replay_twice_same_bytes)
{
	char dir[] = "/tmp/slowpath-test-rec-XXXXXX", a[64], b[64], cmd[128];
	char *argv_a[] = { "record", "--proc-root", REPLAY "writeback", "--out", a, NULL };
	char *argv_b[] = { "record", "--proc-root", REPLAY "writeback", "--out", b, NULL };
	char *ja, *jb;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	ASSERT_EQ(rec_main(5, argv_a), 0);
	ASSERT_EQ(rec_main(5, argv_b), 0);
	snprintf(a, sizeof(a), "%s/a/result.json", dir);
	snprintf(b, sizeof(b), "%s/b/result.json", dir);
	ja = slurp(a);
	jb = slurp(b);
	ASSERT_TRUE(ja && jb);
	ASSERT_STR_EQ(ja, jb);
	ASSERT_TRUE(strstr(ja, "\"samples\": 3,") != NULL);
	ASSERT_TRUE(strstr(ja, "\"nr_written\": 1000000,") != NULL);
	free(ja);
	free(jb);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
}
