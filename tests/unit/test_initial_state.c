/* SPDX-License-Identifier: MIT */
/*
 * test_initial_state.c — [machine] initial_state=DIR (src/cli/initial_state.c
 * reads the recorded files, src/mm/initial_state.c builds them).
 *
 * Fixtures: tests/fixtures/proc/linux-6.18 (plain copies of /proc from a
 * 24 GiB, 2-CPU Linux 6.18 VM: DMA 8, DMA32 1528, Normal 10752
 * pageblocks) and tests/fixtures/results/recorded-pgbench-local (a
 * `slowpath record` folder of the same VM, 12 samples).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/initial_state.h"
#include "mm/initial_state.h"
#include "mm/compaction.h"
#include "mm/swap.h"
#include "mm/slub.h"
#include "mm/vmscan.h"
#include "report/load.h"
#include "mm_test.h"

#define PROC	"tests/fixtures/proc/linux-6.18"
#define RECORD	"tests/fixtures/results/recorded-pgbench-local"

/* The recorded machine's layout at 1/1: 8 + 1528 + 10752 pageblocks. */
#define ZONES_1_1 "zones=DMA:16m,DMA32:3056m,Normal:rest"

/* The scaling rule of docs/initial-state.md, written out again: pageblocks by
 * cumulative rounding in migratetype order; free blocks from order 10 down,
 * each rounded down with the remainder carried as pages to the order below. */
static void expected_scale(const struct mm_initial_state_zone *rec, uint64_t u,
			   uint64_t blocks[MIGRATE_TYPES], uint64_t free[MIGRATE_TYPES][NR_PAGE_ORDERS])
{
	uint64_t r = 0, cum = 0, prev = 0;

	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		r += rec->blocks[mt];
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		cum += rec->blocks[mt];
		blocks[mt] = cum * u / r - prev;
		prev = cum * u / r;
	}
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		uint64_t carry = 0;	/* pages x r */

		for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
			uint64_t want = (rec->free[mt][o] << o) * u + carry;

			free[mt][o] = want / (r << o);
			carry = want - free[mt][o] * (r << o);
		}
	}
}

static struct machine *build(struct mm_env *e, const char *const *kv, const char *dir,
			     struct mm_initial_state *st, struct mm_initial_state *scaled)
{
	char err[1024];

	if (scn_initial_state_read(dir, st, err, sizeof(err))) {
		harness_fail(__FILE__, __LINE__, "read %s: %s", dir, err);
		return NULL;
	}
	if (!mm_env_create(e, kv)) {
		harness_fail(__FILE__, __LINE__, "machine: %s", e->err);
		return NULL;
	}
	if (machine_initial_state_check(&e->cfg, &e->sysctl, st, scaled, err, sizeof(err))) {
		harness_fail(__FILE__, __LINE__, "check: %s", err);
		return NULL;
	}
	/* one full mm_check at the end rather than after every folio */
	mm_set_check_interval(e->m, 0);
	if (machine_load_initial_state(e->m, st, err, sizeof(err))) {
		harness_fail(__FILE__, __LINE__, "load: %s", err);
		return NULL;
	}
	return e->m;
}

/* The machine's free lists and pageblocks equal `want` exactly, zone by zone. */
static void assert_state(struct machine *m, const struct mm_initial_state *want)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &m->node.node_zones[z];
		uint64_t free_pages = 0, alloc = 0;

		if (!populated_zone(zone))
			continue;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			ASSERT_U64_EQ(zone->nr_pageblocks[mt], want->zone[z].blocks[mt]);
			for (int o = 0; o < NR_PAGE_ORDERS; o++) {
				ASSERT_U64_EQ(zone->free_area[o].nr_free_mt[mt], want->zone[z].free[mt][o]);
				free_pages += want->zone[z].free[mt][o] << o;
			}
		}
		ASSERT_U64_EQ(zone_page_state(zone, NR_FREE_PAGES), free_pages);
		ASSERT_U64_EQ(zone->nr_reserved_highatomic,
			      want->zone[z].blocks[MIGRATE_HIGHATOMIC] * pageblock_nr_pages);
		/* every other managed frame is an allocated order-0 page */
		for (unsigned long pfn = zone->zone_start_pfn;
		     pfn < zone->zone_start_pfn + zone->managed_pages; pfn++) {
			enum page_type t = page_type(pfn_to_page(m, (pfn_t)pfn));

			if (t >= PGTY_KERNEL)
				alloc++;
		}
		ASSERT_U64_EQ(alloc + free_pages, zone->managed_pages);
	}
	ASSERT_EQ(mm_check(m), 0);
}

/*
 * A test that reads the plain copies and finds the files' numbers: free
 * blocks per zone, type, order; pageblocks; meminfo's split.
 */
TEST(read_plain_copies)
{
	struct mm_initial_state st;
	char err[1024];

	ASSERT_EQ(scn_initial_state_read(PROC, &st, err, sizeof(err)), 0);
	ASSERT_TRUE(st.zone[ZONE_DMA].present && st.zone[ZONE_DMA32].present &&
		    st.zone[ZONE_NORMAL].present && !st.zone[ZONE_MOVABLE].present);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].free[MIGRATE_UNMOVABLE][0], 834);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].free[MIGRATE_MOVABLE][10], 4055);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].free[MIGRATE_HIGHATOMIC][2], 3);
	ASSERT_U64_EQ(st.zone[ZONE_DMA32].free[MIGRATE_RECLAIMABLE][8], 7);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].blocks[MIGRATE_MOVABLE], 9606);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].blocks[MIGRATE_HIGHATOMIC], 1);
	ASSERT_U64_EQ(st.zone[ZONE_DMA].blocks[MIGRATE_UNMOVABLE], 1);
	ASSERT_STR_EQ(st.zone[ZONE_NORMAL].where, PROC "/pagetypeinfo:15");
	ASSERT_U64_EQ(st.file, 58732 + 366812);
	ASSERT_U64_EQ(st.anon, 992 + 2572);
	ASSERT_U64_EQ(st.pgtable, 1576);
	ASSERT_U64_EQ(st.kernel, 23484 + 1296);
}

/* A test that reads a record folder: its last sample, not its first. */
TEST(read_record_folder_last_sample)
{
	struct mm_initial_state st;
	char err[1024];

	ASSERT_EQ(scn_initial_state_read(RECORD, &st, err, sizeof(err)), 0);
	/* last buddyinfo sample: DMA32 order 10 = 752, Normal order 0 = 1084 */
	ASSERT_U64_EQ(st.zone[ZONE_DMA32].free[MIGRATE_MOVABLE][10] +
		      st.zone[ZONE_DMA32].free[MIGRATE_UNMOVABLE][10], 752);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].free[MIGRATE_UNMOVABLE][0], 201);
	ASSERT_TRUE(strstr(st.zone[ZONE_NORMAL].where, RECORD "/proc-pagetypeinfo:") != NULL);
}

/*
 * A test that builds the recorded machine at 1/1: the model's free lists
 * and pageblock types are the file's, number for number.
 */
TEST(identity_scale_is_the_recording)
{
	static const char *const kv[] = { "memory=24g", "cpus=2", ZONES_1_1, NULL };
	struct mm_initial_state st, scaled;
	struct mm_env e;
	struct machine *m = build(&e, kv, PROC, &st, &scaled);

	ASSERT_OK_SO_FAR();
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		ASSERT_U64_EQ(scaled.zone[z].moved_blocks, 0);
		ASSERT_U64_EQ(scaled.zone[z].dropped_pages, 0);
	}
	assert_state(m, &st);
	ASSERT_OK_SO_FAR();
	mm_env_destroy(&e);
}

/*
 * A test that builds the recording at about 1/4 (DMA kept at 8 pageblocks,
 * DMA32 382, Normal 2682) and checks every count against the scaling rule
 * computed here; the allocated content follows meminfo's split.
 */
TEST(quarter_scale_follows_the_rule)
{
	static const char *const kv[] = { "memory=6g", "cpus=2", "zones=DMA:16m,DMA32:764m,Normal:rest",
					  NULL };
	struct mm_initial_state st, scaled, want;
	struct mm_env e;
	struct machine *m = build(&e, kv, PROC, &st, &scaled);
	uint64_t movable_alloc = 0;

	ASSERT_OK_SO_FAR();
	memset(&want, 0, sizeof(want));
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &m->node.node_zones[z];

		if (!populated_zone(zone))
			continue;
		expected_scale(&st.zone[z], zone->managed_pages >> pageblock_order, want.zone[z].blocks,
			       want.zone[z].free);
		ASSERT_U64_EQ(scaled.zone[z].moved_blocks, 0);
		ASSERT_U64_EQ(scaled.zone[z].dropped_pages, 0);
	}
	/* by hand: 981 x 2682/10752 = 244.7, 4055 x 2682/10752 = 1011.5 */
	ASSERT_U64_EQ(want.zone[ZONE_NORMAL].blocks[MIGRATE_UNMOVABLE], 244);
	ASSERT_U64_EQ(want.zone[ZONE_NORMAL].free[MIGRATE_MOVABLE][10], 1011);
	assert_state(m, &want);
	ASSERT_OK_SO_FAR();
	/* movable pageblocks hold page cache and anon in meminfo's ratio */
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &m->node.node_zones[z];

		if (populated_zone(zone))
			movable_alloc += zone->nr_pageblocks[MIGRATE_MOVABLE] * pageblock_nr_pages;
	}
	{
		uint64_t file = global_node_page_state(m, NR_FILE_PAGES);
		uint64_t anon = global_node_page_state(m, NR_ANON_MAPPED);

		ASSERT_TRUE(file > 0 && anon > 0);
		ASSERT_U64_EQ(global_node_page_state(m, NR_INACTIVE_FILE), file);
		/* file : anon = 425544 : 3564, to one page */
		ASSERT_TRUE(anon * 425544 / 3564 <= file + 425544 / 3564 + 1 &&
			    file <= anon * 425544 / 3564 + 425544 / 3564 + 1);
		ASSERT_TRUE(global_node_page_state(m, NR_PAGETABLE) > 0);
		ASSERT_TRUE(global_node_page_state_pages(m, NR_SLAB_RECLAIMABLE_B) > 0);
		(void)movable_alloc;
	}
	mm_env_destroy(&e);
}

/*
 * A test that scales far down (2 GiB, DMA32 128 pageblocks): the fit moves
 * a pageblock between types, says so, and the machine is exactly the
 * scaled state machine_initial_state_check reported; the free pages are
 * the rule's.
 */
TEST(small_machine_fit_is_reported_and_exact)
{
	static const char *const kv[] = { "memory=2g", "cpus=2", "zones=DMA:16m,DMA32:256m,Normal:rest",
					  NULL };
	struct mm_initial_state st, scaled, want;
	struct mm_env e;
	struct machine *m = build(&e, kv, PROC, &st, &scaled);
	uint64_t moved = 0;

	ASSERT_OK_SO_FAR();
	assert_state(m, &scaled);
	ASSERT_OK_SO_FAR();
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &m->node.node_zones[z];

		if (!populated_zone(zone))
			continue;
		expected_scale(&st.zone[z], zone->managed_pages >> pageblock_order, want.zone[z].blocks,
			       want.zone[z].free);
		moved += scaled.zone[z].moved_blocks;
		ASSERT_U64_EQ(scaled.zone[z].dropped_pages, 0);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			for (int o = 0; o < NR_PAGE_ORDERS; o++)
				ASSERT_U64_EQ(scaled.zone[z].free[mt][o], want.zone[z].free[mt][o]);
	}
	ASSERT_TRUE(moved > 0);
	mm_env_destroy(&e);
}

/* A test that the same snapshot builds the same frames twice. */
TEST(deterministic)
{
	static const char *const kv[] = { "memory=1g", "cpus=2", "zones=DMA:16m,DMA32:256m,Normal:rest",
					  NULL };
	struct mm_initial_state st, scaled;
	struct mm_env a, b;

	build(&a, kv, RECORD, &st, &scaled);
	ASSERT_OK_SO_FAR();
	build(&b, kv, RECORD, &st, &scaled);
	ASSERT_OK_SO_FAR();
	ASSERT_EQ(memcmp(a.m->mem_map, b.m->mem_map, a.m->nr_pfns * sizeof(struct page)), 0);
	ASSERT_EQ(memcmp(a.m->pageblock, b.m->pageblock, a.m->nr_pageblocks), 0);
	ASSERT_EQ(mm_check(a.m), 0);
	mm_env_destroy(&a);
	mm_env_destroy(&b);
}

/* Write `text` to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * A test of refused snapshots: each message names the file and line (or
 * the directory), and nothing crashes.
 */
TEST(bad_snapshots)
{
	static const char *const kv[] = { "memory=1g", "cpus=2", "zones=Normal:rest", NULL };
	char dir[] = "/tmp/slowpath-is-XXXXXX", err[1024], *ptype, *buddy;
	struct mm_initial_state st;
	struct mm_env e;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ptype = rpt_read_file(PROC "/pagetypeinfo", NULL, err, sizeof(err));
	buddy = rpt_read_file(PROC "/buddyinfo", NULL, err, sizeof(err));
	ASSERT_TRUE(ptype && buddy);

	/* nothing there */
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), -2);
	ASSERT_TRUE(strstr(err, "neither a `slowpath record` folder") != NULL);
	/* pagetypeinfo without buddyinfo */
	put(dir, "pagetypeinfo", ptype);
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "/buddyinfo: No such file or directory") != NULL);
	/* buddyinfo of another moment: Normal order 2 is 1726 in both files... */
	put(dir, "buddyinfo",
	    "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
	    "Node 0, zone    DMA32    259    264    263    255    236    216    217    211    193    168    568 \n"
	    "Node 0, zone   Normal   1117   1445   2726   1523   1743   1494   1259   1247   1173    893   4055 \n");
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), -1);
	{
		char want[1024];

		snprintf(want, sizeof(want), "%s/buddyinfo:3: node 0 zone 'Normal' order 2: 2726 free "
			 "blocks, but %s/pagetypeinfo:15 counts 1726 over its migrate types; the files "
			 "disagree by more than reads one after the other explain (32 blocks or 10 %%): "
			 "were they taken at the same time, on the same machine?", dir, dir);
		ASSERT_STR_EQ(err, want);
	}
	/* ...within the tolerance it is accepted */
	put(dir, "buddyinfo",
	    "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
	    "Node 0, zone    DMA32    259    264    263    255    236    216    217    211    193    168    568 \n"
	    "Node 0, zone   Normal   1117   1445   1800   1523   1743   1494   1259   1247   1173    893   4055 \n");
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), 0);
	/* a zone the scenario lacks */
	ASSERT_TRUE(mm_env_config(&e, kv) == 0);
	ASSERT_EQ(machine_initial_state_check(&e.cfg, &e.sysctl, &st, NULL, err, sizeof(err)), -1);
	{
		char want[1024];

		snprintf(want, sizeof(want), "%s/pagetypeinfo:5: zone 'DMA' of the recording is not among "
			 "the scenario's zones (Normal); give [machine] zones= the recording's zones", dir);
		ASSERT_STR_EQ(err, want);
	}
	opt_release(machine_options, &e.cfg);
	opt_release(vm_sysctl_options, &e.sysctl);
	/* a malformed pagetypeinfo: the parser's file:line */
	put(dir, "pagetypeinfo", "Page block order: 9\nPages per block:  512\n\nnonsense here\n");
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "/pagetypeinfo:4: ") != NULL);
	/* a record folder whose monitor has no sample */
	{
		char sub[600];

		snprintf(sub, sizeof(sub), "%s/rec", dir);
		ASSERT_EQ(mkdir(sub, 0755), 0);
		put(sub, "proc-pagetypeinfo", "");
		put(sub, "proc-buddyinfo", "");
		ASSERT_EQ(scn_initial_state_read(sub, &st, err, sizeof(err)), -1);
		ASSERT_TRUE(strstr(err, "/rec/proc-pagetypeinfo:1: no samples") != NULL);
		unlink(strcat(strcpy(err, sub), "/proc-pagetypeinfo"));
		unlink(strcat(strcpy(err, sub), "/proc-buddyinfo"));
		rmdir(sub);
	}
	unlink(strcat(strcpy(err, dir), "/pagetypeinfo"));
	unlink(strcat(strcpy(err, dir), "/buddyinfo"));
	rmdir(dir);
	free(ptype);
	free(buddy);
}

/*
 * A test that without meminfo the split comes from vmstat (pages; the
 * kernel stack in kB), and without either it is all page cache and
 * kernel memory (weights 0).
 */
TEST(split_from_vmstat_or_nothing)
{
	char dir[] = "/tmp/slowpath-is-XXXXXX", err[1024], path[1024];
	static const char *const files[] = { "pagetypeinfo", "buddyinfo", "vmstat" };
	struct mm_initial_state st;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	for (int i = 0; i < 3; i++) {
		char *text;

		snprintf(path, sizeof(path), PROC "/%s", files[i]);
		text = rpt_read_file(path, NULL, err, sizeof(err));
		ASSERT_TRUE(text != NULL);
		put(dir, files[i], text);
		free(text);
	}
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), 0);
	ASSERT_U64_EQ(st.file, 14683 + 91703);
	ASSERT_U64_EQ(st.anon, 248 + 643);
	ASSERT_U64_EQ(st.pgtable, 394);
	ASSERT_U64_EQ(st.kernel, 5871 + 1296 / 4);
	snprintf(path, sizeof(path), "%s/vmstat", dir);
	unlink(path);
	ASSERT_EQ(scn_initial_state_read(dir, &st, err, sizeof(err)), 0);
	ASSERT_TRUE(st.file == 0 && st.anon == 0 && st.pgtable == 0 && st.kernel == 0);
	ASSERT_U64_EQ(st.zone[ZONE_NORMAL].free[MIGRATE_UNMOVABLE][0], 834);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * A test that the restored memory is memory the kernel works on: direct
 * reclaim takes its clean page cache (pgsteal_file, NR_FILE_PAGES down by
 * as much), and compaction of the node migrates its movable pages
 * (pgmigrate_success > 0) and raises the free order-10 blocks; mm_check
 * holds after both.
 */
TEST(reclaim_and_compaction_act_on_it)
{
	static const char *const kv[] = { "memory=2g", "cpus=2", "zones=DMA:16m,DMA32:256m,Normal:rest",
					  NULL };
	struct mm_initial_state st, scaled;
	struct mm_env e;
	struct machine *m = build(&e, kv, PROC, &st, &scaled);
	struct alloc_context ac;
	unsigned int fl = 0;
	unsigned long file, got, high_before = 0, high_after = 0;

	ASSERT_OK_SO_FAR();
	file = (unsigned long)node_page_state_exact(&m->node, NR_FILE_PAGES);
	prepare_alloc_pages(m, GFP_KERNEL, 0, &ac, &fl);
	got = try_to_free_pages(m, &ac, 0, GFP_KERNEL);
	ASSERT_TRUE(got >= 32);
	ASSERT_U64_EQ(sum_vm_event(m, PGSTEAL_FILE), got);
	ASSERT_U64_EQ(node_page_state_exact(&m->node, NR_FILE_PAGES), file - got);
	ASSERT_EQ(mm_check(m), 0);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		high_before += m->node.node_zones[z].free_area[MAX_PAGE_ORDER].nr_free;
	compact_node(&m->node, false);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		high_after += m->node.node_zones[z].free_area[MAX_PAGE_ORDER].nr_free;
	ASSERT_TRUE(sum_vm_event(m, PGMIGRATE_SUCCESS) > 0);
	ASSERT_TRUE(high_after > high_before);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/*
 * With the slab model on, the snapshot's slab pages are counted in
 * nr_slab_{reclaimable,unreclaimable} like the kernel's but held by no
 * cache: mm_check must allow for them (before the fix it reported
 * "slab: nr_slab_reclaimable N ...; slabs hold 0, 0" at the first check
 * of a debug build running scenarios/fragment-local.ini).
 */
TEST(slab_model_accepts_the_snapshot_slab_pages)
{
	static const char *const kv[] = { "memory=2g", "cpus=2", "zones=DMA:16m,DMA32:256m,Normal:rest",
					  NULL };
	struct mm_initial_state st, scaled;
	struct mm_env e;
	struct machine *m = build(&e, kv, PROC, &st, &scaled);

	ASSERT_OK_SO_FAR();
	ASSERT_TRUE(m->initial_slab_pages[0] > 0 && m->initial_slab_pages[1] > 0);
	kmem_cache_init(m);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}
