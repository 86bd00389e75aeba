/* SPDX-License-Identifier: MIT */
/*
 * test_pagecache_workloads.c — the `writer` and `forker` workload kinds:
 * option validation (messages for the scenario's file:line) and a run of
 * each on a small machine through the registry, as the run driver does.
 */
#include <string.h>

#include "harness.h"
#include "mm/machine.h"
#include "mm_test.h"
#include "sim/bdev.h"
#include "workload/workload.h"

/* Build a config of `kind` from defaults + "key=value" lines. */
static void *wl_config(const struct workload_type *wt, const char *const *kv, char *err, size_t errlen)
{
	void *c = calloc(1, wt->config_size);

	if (!c || opt_apply_defaults(wt->options, c))
		return NULL;
	for (; kv && *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');
		const struct opt_def *o;

		memcpy(key, *kv, (size_t)(eq - *kv));
		key[eq - *kv] = '\0';
		o = opt_find(wt->options, key);
		if (!o || opt_parse_value(o, c, eq + 1, err, errlen)) {
			opt_release(wt->options, c);
			free(c);
			return NULL;
		}
	}
	return c;
}

static int validate(const char *kind, const char *const *kv, char *err, size_t errlen)
{
	const struct workload_type *wt = workload_find(kind);
	void *c = wl_config(wt, kv, err, errlen);
	int rc;

	if (!c)
		return -2;
	rc = wt->validate(c, err, errlen);
	opt_release(wt->options, c);
	free(c);
	return rc;
}

/* A test of the writer's and forker's validation: a missing device, a
 * malformed or oversized write size, a non-power-of-two alignment, rate
 * and think together, a touch step that is not page-sized.  Expect -1
 * with the messages shown, and 0 for a good configuration. */
TEST(pagecache_workload_validation)
{
	char err[256];

	ASSERT_TRUE(workload_find("writer") && workload_find("forker"));
	ASSERT_EQ(validate("writer", (const char *const[]){ NULL }, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "device= is required (the [device NAME] the files live on)");
	ASSERT_EQ(validate("writer", (const char *const[]){ "device=md0", "write_sizes=8k,,x", NULL },
			   err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "'x'") != NULL);
	ASSERT_EQ(validate("writer", (const char *const[]){ "device=md0", "write_sizes=2g", NULL },
			   err, sizeof(err)), -1);
	ASSERT_EQ(validate("writer", (const char *const[]){ "device=md0", "alignment=12k", NULL },
			   err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "alignment must be 0 or a power of two");
	ASSERT_EQ(validate("writer", (const char *const[]){ "device=md0", "rate=10", "think=1ms", NULL },
			   err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "rate and think cannot both be set");
	ASSERT_EQ(validate("writer", (const char *const[]){ "device=md0", "write_sizes=8k, 64k,1m", NULL },
			   err, sizeof(err)), 0);
	ASSERT_EQ(validate("forker", (const char *const[]){ "touch_step=6000", NULL }, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "touch_step must be a multiple of 4 KiB");
	ASSERT_EQ(validate("forker", (const char *const[]){ "align=3m", NULL }, err, sizeof(err)), -1);
	ASSERT_EQ(validate("forker", (const char *const[]){ "size=64m", "children=3", NULL }, err, sizeof(err)), 0);
}

static double figure(const struct wl_report *r, const char *name)
{
	for (unsigned int i = 0; i < r->nr_figures; i++)
		if (strcmp(r->figures[i].name, name) == 0)
			return r->figures[i].value;
	return -1;
}

/* A test of both kinds started through the registry on one machine: a
 * writer doing 20 random 16 KiB writes with fsync every 5, and a forker
 * whose 3 children each touch every 2 MiB of 64 MiB.  Expect 20 writes,
 * 4 syncs, nothing left dirty; 3 children, 96 touches, 3 + 32 + 1 tables
 * per child, and nr_page_table_pages 3 + 3 x 36. */
TEST(pagecache_workloads_run)
{
	static const char *const mkv[] = { "memory=1g", "zones=DMA:16m,Normal:rest", "cpus=2", NULL };
	const struct workload_type *wt = workload_find("writer"), *ft = workload_find("forker");
	struct bdev_config bc = { .name = "md0", .lat_mean_ns = 200000, .flush_ns = 100000, .members = 1 };
	struct mm_env e;
	struct machine *m = mm_env_create(&e, mkv);
	struct bdev *dev;
	const char *names[] = { "md0" };
	struct wl_env env;
	struct wl_stats ws, fs;
	struct wl_report wr = { 0 }, fr = { 0 };
	char err[256];
	void *wc, *fc, *wst, *fst;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 0);
	machine_start(m);
	dev = bdev_create(e.sim, &bc);
	env = (struct wl_env){ .machine = m, .sim = e.sim, .bdevs = &dev, .bdev_names = names, .nr_bdevs = 1 };
	wc = wl_config(wt, (const char *const[]){ "device=md0", "write_sizes=16k", "pattern=random",
						  "file_size=64m", "sync=fsync", "sync_every=5", "count=20", NULL },
		       err, sizeof(err));
	fc = wl_config(ft, (const char *const[]){ "size=64m", "children=3", NULL }, err, sizeof(err));
	ASSERT_TRUE(wc && fc);
	wl_stats_init(&ws, 0, SIM_NSEC_PER_SEC);
	wl_stats_init(&fs, 0, SIM_NSEC_PER_SEC);
	wst = wt->start_env(&env, wc, "", &ws, err, sizeof(err));
	fst = ft->start_env(&env, fc, "", &fs, err, sizeof(err));
	ASSERT_TRUE(wst && fst);
	sim_run(e.sim, 3 * SIM_NSEC_PER_SEC);
	wt->report(wst, &wr);
	ft->report(fst, &fr);
	ASSERT_EQ(figure(&wr, "writes"), 20);
	ASSERT_EQ(figure(&wr, "syncs"), 4);
	ASSERT_EQ(figure(&wr, "write_errors"), 0);
	ASSERT_EQ(ws.transactions, 20);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_FILE_DIRTY) + node_page_state_exact(&m->node, NR_WRITEBACK), 0);
	ASSERT_EQ(figure(&fr, "children"), 3);
	ASSERT_EQ(figure(&fr, "touches"), 96);
	ASSERT_EQ(figure(&fr, "pgtable_pages_per_child"), 3 + 32 + 1);
	ASSERT_EQ(figure(&fr, "start_failed"), 0);
	ASSERT_EQ(node_page_state_exact(&m->node, NR_PAGETABLE), 3 + 3 * 36);
	mm_env_destroy(&e);
	wt->destroy(wst);
	ft->destroy(fst);
	wl_stats_release(&ws);
	wl_stats_release(&fs);
	opt_release(wt->options, wc);
	opt_release(ft->options, fc);
	free(wc);
	free(fc);
}
