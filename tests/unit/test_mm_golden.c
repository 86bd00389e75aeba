/* SPDX-License-Identifier: MIT */
/*
 * test_mm_golden.c — golden case 1001-mm-buddy-script: a scripted sequence
 * of allocations, frees, drains and vmstat folds on a small machine must
 * render exactly the expected /proc/buddyinfo, /proc/pagetypeinfo,
 * /proc/zoneinfo and /proc/vmstat (tests/golden/1001-mm-buddy-script/
 * expected/).  Regenerate on purpose with
 *
 *     UPDATE_GOLDEN=1 build/dbg/tests/test_mm_golden
 *
 * and review the diff before committing.
 */
#include "mm_test.h"

#define GOLDEN_DIR "tests/golden/1001-mm-buddy-script/expected/"

static void check_golden(const char *name, const char *got)
{
	char path[256];

	snprintf(path, sizeof(path), GOLDEN_DIR "%s", name);
	mm_check_golden(__FILE__, __LINE__, path, got);
}

/* The script.  Every step is deterministic (no RNG): CPU choice, gfp,
 * order and which blocks are freed are fixed. */
static struct machine *run_script(struct mm_env *e)
{
	static const char *const kv[] = { "memory=64m", "zones=DMA:16m,Normal:rest", "cpus=2",
					  "reserved=1m", NULL };
	struct machine *m = mm_env_create(e, kv);
	pfn_t mov[300], pt[40], rec[10], thp[3], o4[5];

	if (!m)
		return NULL;
	sim_set_engine_cpu(e->sim, 0);
	for (int i = 0; i < 300; i++)			/* page cache pages */
		mov[i] = alloc_pages(m, GFP_HIGHUSER_MOVABLE, 0, PGTY_FILE);
	sim_set_engine_cpu(e->sim, 1);
	for (int i = 0; i < 40; i++)			/* page tables */
		pt[i] = alloc_pages(m, GFP_PGTABLE_USER, 0, PGTY_PGTABLE);
	for (int i = 0; i < 10; i++)			/* reclaimable slab */
		rec[i] = alloc_pages(m, GFP_KERNEL | __GFP_RECLAIMABLE, 3, PGTY_RECLAIMABLE);
	for (int i = 0; i < 3; i++)			/* THP */
		thp[i] = alloc_pages(m, GFP_TRANSHUGE_LIGHT, 9, PGTY_ANON);
	for (int i = 0; i < 5; i++)
		o4[i] = alloc_pages(m, GFP_KERNEL, 4, PGTY_KERNEL);
	sim_set_engine_cpu(e->sim, 0);
	for (int i = 0; i < 300; i += 3)
		free_pages(m, mov[i], 0);
	for (int i = 0; i < 40; i += 4)
		free_pages(m, pt[i], 0);
	free_pages(m, thp[1], 9);
	free_pages(m, o4[2], 4);
	drain_local_pages(m, NULL);
	sim_set_engine_cpu(e->sim, 1);
	free_pages(m, rec[5], 3);
	vmstat_update(m, 0);
	vmstat_update(m, 1);
	(void)o4;
	return m;
}

/* A test that the scripted sequence renders exactly the expected
 * buddyinfo, pagetypeinfo, zoneinfo and vmstat.  Expect byte-identical
 * text (mm_check clean). */
TEST(golden_1001_buddy_script)
{
	static const struct {
		const char *name;
		void (*show)(const struct machine *, FILE *);
	} files[] = {
		{ "buddyinfo", mm_show_buddyinfo }, { "pagetypeinfo", mm_show_pagetypeinfo },
		{ "zoneinfo", mm_show_zoneinfo }, { "vmstat", mm_show_vmstat },
	};
	struct mm_env e;
	struct machine *m = run_script(&e);
	char *t;

	ASSERT_TRUE(m != NULL);
	ASSERT_MM_OK(m);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		t = mm_render(m, files[i].show);
		check_golden(files[i].name, t);
		free(t);
	}
	mm_env_destroy(&e);
}

/* A test that the golden check can fail: one more allocation changes the
 * buddyinfo text.  Expect a difference from the golden file. */
TEST(golden_detects_change)
{
	struct mm_env e;
	struct machine *m = run_script(&e);
	char *want = slurp(GOLDEN_DIR "buddyinfo"), *got;

	ASSERT_TRUE(m != NULL);
	if (!want)
		return;		/* reported by golden_1001_buddy_script */
	(void)__alloc_pages(m, GFP_KERNEL, 6, NULL);
	got = mm_render(m, mm_show_buddyinfo);
	ASSERT_TRUE(strcmp(want, got) != 0);
	free(got);
	free(want);
	mm_env_destroy(&e);
}
