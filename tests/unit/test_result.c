/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "report/result.h"

static char tmpdir[64];

static const char *mktmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/slowpath-test-result-XXXXXX");
	return mkdtemp(tmpdir);
}

static void rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rmtree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	fclose(f);
	return buf;
}

static int nr_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void fill(struct rpt_result *r, int variant)
{
	memset(r, 0, sizeof(*r));
	r->source = "simulated";
	r->scenario = "scenarios/x.ini";
	r->policy = "baseline";
	r->seed = 42 + (uint64_t)variant;
	r->scale_n = 4;
	r->iteration = 1 + (unsigned int)variant;
	r->virtual_seconds = 60;
	r->measure_seconds = 50;
	r->wall_seconds = 1.23456;
	r->events = 1000;
	rpt_counters_add(&r->vmstat, "nr_written", 2000000);
	rpt_counters_add(&r->vmstat, "allocstall_dma", 3);
	rpt_counters_add(&r->vmstat, "allocstall_normal", 5 + variant);
	rpt_counters_add(&r->vmstat, "compact_stall", 10);
	rpt_counters_add(&r->vmstat, "nr_free_pages", -7);
	rpt_counters_add(&r->vmstat_end, "nr_free_pages", 123456789012LL);
	r->has_transactions = true;
	r->transactions = 5000 + (uint64_t)variant * 1000;
	r->tps = 100.1 + variant;
	r->latency = (struct rpt_latency){ 0.5, 0.4, 1.25, 2.5, 10 };
	rpt_result_add_figure(r, "iops_per_cpu", 1234.5, "IOPS");
	r->memory_bytes = 1ULL << 30;
	r->cpus = 4;
	rpt_counters_add(&r->zones_managed, "Normal", 262144);
}

/* A test that result.json has the documented keys in the documented order,
 * integers as integers, rounded reals, per_million_written computed from
 * nr_written, and no temporary file left behind.  Expect exactly that. */
TEST(result_json_layout)
{
	struct rpt_result r;
	char err[256], path[256];
	json_t *root, *v;
	json_error_t je;
	const char *order[] = { "schema", "source", "scenario", "policy", "seed", "scale",
				"iteration", "virtual_seconds", "measure_seconds", "wall_seconds",
				"events", "events_per_second", "vmstat", "vmstat_end",
				"transactions", "tps", "latency_ms", "per_million_written",
				"figures", "figure_units", "machine", NULL };
	const char *key;
	int i = 0;

	ASSERT_TRUE(mktmp());
	fill(&r, 0);
	ASSERT_EQ(rpt_result_write(tmpdir, &r, err, sizeof(err)), 0);
	ASSERT_EQ(nr_entries(tmpdir), 1);
	snprintf(path, sizeof(path), "%s/result.json", tmpdir);
	root = json_load_file(path, 0, &je);
	ASSERT_TRUE(root != NULL);
	json_object_foreach(root, key, v) {
		ASSERT_TRUE(order[i] != NULL);
		ASSERT_STR_EQ(key, order[i]);
		i++;
	}
	ASSERT_TRUE(order[i] == NULL);
	ASSERT_STR_EQ(json_string_value(json_object_get(root, "schema")), "slowpath-result/1");
	ASSERT_STR_EQ(json_string_value(json_object_get(root, "scale")), "1/4");
	ASSERT_TRUE(json_is_integer(json_object_get(root, "seed")));
	ASSERT_TRUE(json_is_real(json_object_get(root, "tps")));
	ASSERT_NEAR(json_real_value(json_object_get(root, "wall_seconds")), 1.235, 1e-12);
	v = json_object_get(root, "vmstat_end");
	ASSERT_TRUE(json_is_integer(json_object_get(v, "nr_free_pages")));
	ASSERT_EQ(json_integer_value(json_object_get(v, "nr_free_pages")), 123456789012LL);
	ASSERT_EQ(json_integer_value(json_object_get(json_object_get(root, "vmstat"), "nr_free_pages")), -7);
	v = json_object_get(root, "per_million_written");
	ASSERT_NEAR(json_real_value(json_object_get(v, "allocstall")), 4.0, 1e-12);
	ASSERT_NEAR(json_real_value(json_object_get(v, "compact_stall")), 5.0, 1e-12);
	ASSERT_TRUE(json_object_get(v, "pgscan_direct") == NULL);
	v = json_object_get(root, "latency_ms");
	ASSERT_NEAR(json_real_value(json_object_get(v, "p99")), 2.5, 1e-12);
	v = json_object_get(json_object_get(root, "machine"), "zones");
	ASSERT_EQ(json_integer_value(json_object_get(v, "Normal")), 262144);
	json_decref(root);
	rpt_result_release(&r);
	rmtree(tmpdir);
}

/* A test that the same result writes the same bytes twice, and that the
 * text contains no "-0" or 17-digit float noise.  Expect equal files. */
TEST(result_json_deterministic_text)
{
	struct rpt_result r;
	char err[256], path[256];
	char *a, *b;

	ASSERT_TRUE(mktmp());
	fill(&r, 0);
	r.tps = 0.1;
	ASSERT_EQ(rpt_result_write(tmpdir, &r, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/result.json", tmpdir);
	a = slurp(path);
	ASSERT_EQ(rpt_result_write(tmpdir, &r, err, sizeof(err)), 0);
	b = slurp(path);
	ASSERT_TRUE(a && b);
	ASSERT_STR_EQ(a, b);
	ASSERT_TRUE(strstr(a, "\"tps\": 0.1,\n") != NULL);
	ASSERT_TRUE(strstr(a, "00000000") == NULL);
	free(a);
	free(b);
	rpt_result_release(&r);
	rmtree(tmpdir);
}

/* A test that a recorded result carries the recorder keys and that a
 * simulated one does not.  Expect kernel_release/missing only when recorded. */
TEST(result_json_recorded_keys)
{
	struct rpt_result r;
	char err[256], path[256];
	json_t *root;

	ASSERT_TRUE(mktmp());
	fill(&r, 0);
	r.source = "recorded";
	r.kernel_release = "6.18.0";
	r.command = "pgbench -c 8";
	r.start_epoch = 1795980145;
	rpt_result_add_missing(&r, "/proc/zoneinfo: permission denied");
	ASSERT_EQ(rpt_result_write(tmpdir, &r, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/result.json", tmpdir);
	root = json_load_file(path, 0, NULL);
	ASSERT_TRUE(root != NULL);
	ASSERT_STR_EQ(json_string_value(json_object_get(root, "kernel_release")), "6.18.0");
	ASSERT_EQ(json_integer_value(json_object_get(root, "start_epoch")), 1795980145);
	ASSERT_STR_EQ(json_string_value(json_array_get(json_object_get(root, "missing"), 0)),
		      "/proc/zoneinfo: permission denied");
	json_decref(root);
	r.source = "simulated";
	ASSERT_EQ(rpt_result_write(tmpdir, &r, err, sizeof(err)), 0);
	root = json_load_file(path, 0, NULL);
	ASSERT_TRUE(json_object_get(root, "kernel_release") == NULL);
	json_decref(root);
	rpt_result_release(&r);
	rmtree(tmpdir);
}

/* A test of the aggregate over iterations.  Expect iterations = 3, the
 * mean/stddev/min/max of tps and of a counter that differs per iteration. */
TEST(result_aggregate)
{
	struct rpt_result it[3];
	char err[256], path[256];
	json_t *root, *agg, *s;

	ASSERT_TRUE(mktmp());
	for (int k = 0; k < 3; k++)
		fill(&it[k], k);
	ASSERT_EQ(rpt_result_write_aggregate(tmpdir, it, 3, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/result.json", tmpdir);
	root = json_load_file(path, 0, NULL);
	ASSERT_TRUE(root != NULL);
	ASSERT_EQ(json_integer_value(json_object_get(root, "iterations")), 3);
	ASSERT_EQ(json_integer_value(json_object_get(root, "events")), 3000);
	agg = json_object_get(root, "aggregate");
	s = json_object_get(agg, "tps");
	ASSERT_NEAR(json_real_value(json_object_get(s, "mean")), 101.1, 1e-9);
	ASSERT_NEAR(json_real_value(json_object_get(s, "stddev")), 1.0, 1e-9);
	ASSERT_NEAR(json_real_value(json_object_get(s, "min")), 100.1, 1e-9);
	ASSERT_NEAR(json_real_value(json_object_get(s, "max")), 102.1, 1e-9);
	s = json_object_get(json_object_get(agg, "vmstat"), "allocstall_normal");
	ASSERT_EQ(json_integer_value(json_object_get(s, "min")), 5);
	ASSERT_EQ(json_integer_value(json_object_get(s, "max")), 7);
	ASSERT_NEAR(json_real_value(json_object_get(s, "mean")), 6.0, 1e-9);
	s = json_object_get(json_object_get(agg, "figures"), "iops_per_cpu");
	ASSERT_NEAR(json_real_value(json_object_get(s, "stddev")), 0.0, 1e-12);
	json_decref(root);
	ASSERT_EQ(rpt_result_write_aggregate(tmpdir, it, 0, err, sizeof(err)), -1);
	for (int k = 0; k < 3; k++)
		rpt_result_release(&it[k]);
	rmtree(tmpdir);
}

/* A test of atomic files: nothing appears under the final name before
 * commit, abort leaves nothing, commit renames.  Expect exactly that, and
 * an error naming the path when the directory does not exist. */
TEST(atomic_files)
{
	struct rpt_file rf;
	char err[256], path[256];
	char *text;

	ASSERT_TRUE(mktmp());
	ASSERT_EQ(rpt_file_open(&rf, tmpdir, "a.csv", err, sizeof(err)), 0);
	fputs("x,y\n", rf.f);
	snprintf(path, sizeof(path), "%s/a.csv", tmpdir);
	ASSERT_TRUE(access(path, F_OK) != 0);
	ASSERT_EQ(rpt_file_commit(&rf, err, sizeof(err)), 0);
	text = slurp(path);
	ASSERT_STR_EQ(text, "x,y\n");
	free(text);
	ASSERT_EQ(rpt_file_open(&rf, tmpdir, "b.csv", err, sizeof(err)), 0);
	fputs("partial", rf.f);
	rpt_file_abort(&rf);
	ASSERT_EQ(nr_entries(tmpdir), 1);
	snprintf(path, sizeof(path), "%s/no/such", tmpdir);
	ASSERT_EQ(rpt_file_open(&rf, path, "c", err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "/no/such/c.tmp: No such file or directory") != NULL);
	rmtree(tmpdir);
}

/* A test of mkdir -p and the monitor layout.  Expect nested directories,
 * an error for a path through a file, and "time: t\n" + text + newline. */
TEST(mkdir_and_monitor)
{
	char err[256], path[256];
	char buf[32];
	FILE *f;
	char *text;

	ASSERT_TRUE(mktmp());
	snprintf(path, sizeof(path), "%s/a/b/c", tmpdir);
	ASSERT_EQ(rpt_mkdir_p(path, err, sizeof(err)), 0);
	ASSERT_EQ(rpt_mkdir_p(path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/a/b/c/mon", tmpdir);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	rpt_format_monitor_time(buf, sizeof(buf), 10000000000ULL, true);
	rpt_monitor_sample(f, buf, "nr_free_pages 5\n");
	rpt_format_monitor_time(buf, sizeof(buf), 10250000000ULL, false);
	rpt_monitor_sample(f, buf, "nr_free_pages 6");
	fclose(f);
	text = slurp(path);
	ASSERT_STR_EQ(text, "time: 10\nnr_free_pages 5\ntime: 10.250\nnr_free_pages 6\n");
	free(text);
	snprintf(path, sizeof(path), "%s/a/b/c/mon/x", tmpdir);
	ASSERT_EQ(rpt_mkdir_p(path, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "mon/x: Not a directory") != NULL);
	rmtree(tmpdir);
}
