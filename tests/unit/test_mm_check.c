/* SPDX-License-Identifier: MIT */
/*
 * test_mm_check.c — mm_check proves itself: each test plants one kind of
 * corruption in a healthy machine and expects the checker to report that
 * violation (by its message), with a dump_page() of the frame.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mm_test.h"

/* A healthy machine with some of everything: free blocks of many orders,
 * pcp pages on two CPUs, allocated blocks of several owners. */
static struct machine *healthy(struct mm_env *e, pfn_t *alloc_pfn)
{
	static const char *const kv[] = { "memory=32m", "zones=DMA:8m,Normal:rest", "cpus=2", NULL };
	struct machine *m = mm_env_create(e, kv);

	if (!m)
		return NULL;
	for (int i = 0; i < 60; i++) {
		pfn_t p;

		sim_set_engine_cpu(e->sim, (unsigned int)(i & 1));
		p = alloc_pages(m, i % 2 ? GFP_KERNEL : GFP_HIGHUSER_MOVABLE, (unsigned)(i % 5),
				i % 2 ? PGTY_KERNEL : PGTY_FILE);
		if (i == 7)
			*alloc_pfn = p;
		else if (i % 3 == 0 && p != PFN_NONE)
			__free_pages(m, p, (unsigned)(i % 5));
	}
	sim_set_engine_cpu(e->sim, 0);
	return m;
}

static void expect_violation(struct machine *m, const char *needle, int line)
{
	char buf[4096];

	if (mm_check_msg(m, buf, sizeof(buf)) == 0)
		harness_fail(__FILE__, line, "corruption not caught (expected '%s')", needle);
	else if (!strstr(buf, needle))
		harness_fail(__FILE__, line, "caught something else: %s (expected '%s')", buf, needle);
}

/* First free block of `order` in Normal (any type). */
static pfn_t first_free(struct machine *m, unsigned int order, int *mt)
{
	struct free_area *area = &mm_zone(m, ZONE_NORMAL)->free_area[order];

	for (int t = 0; t < MIGRATE_TYPES; t++)
		if (!pfn_slots_empty(&area->free_list[t])) {
			*mt = t;
			return pfn_slots_head(&area->free_list[t]);
		}
	return PFN_NONE;
}

#define PLANT_TEST(name, comment_needle, ...)				\
	TEST(name)							\
	{								\
		struct mm_env e;					\
		pfn_t a = PFN_NONE;					\
		struct machine *m = healthy(&e, &a);			\
		struct zone *z;						\
									\
		ASSERT_TRUE(m != NULL && a != PFN_NONE);		\
		z = mm_zone(m, ZONE_NORMAL);				\
		(void)z;						\
		ASSERT_MM_OK(m);					\
		__VA_ARGS__						\
		expect_violation(m, comment_needle, __LINE__);		\
		mm_env_destroy(&e);					\
	}

/* A test that a free block dropped from its list (counts adjusted, frame
 * still typed buddy) is found.  Expect "is on no list". */
PLANT_TEST(leaked_free_block, "is on no list", {
	int mt;
	pfn_t p = first_free(m, 10, &mt);

	ASSERT_TRUE(p != PFN_NONE);
	pfn_slots_del(m->mem_map, &z->free_area[10].free_list[mt], p);
	z->free_area[10].nr_free--;
	z->free_area[10].nr_free_mt[mt]--;
	__mod_zone_page_state(z, NR_FREE_PAGES, -1024);
	__mod_zone_page_state(z, NR_FREE_PAGES_BLOCKS, -1024);
})

/* A test that a list entry with the wrong order is found.  Expect "is not
 * a buddy head of order 10". */
PLANT_TEST(wrong_order_on_list, "is not a buddy head of order 10", {
	int mt;
	pfn_t p = first_free(m, 10, &mt);

	set_page_type_order(pfn_to_page(m, p), PGTY_BUDDY, 9);
})

/* A test that two free buddies left unmerged are found: an order-10 block
 * split into an order-9 half and two order-8 quarters, every list and
 * count kept right.  Expect "were not merged" for the order-8 pair. */
PLANT_TEST(unmerged_buddies, "(order 8) were not merged", {
	int mt;
	pfn_t p = first_free(m, 10, &mt);
	struct free_area *fa = z->free_area;
	static const unsigned int off[3] = { 0, 256, 512 }, ord[3] = { 8, 8, 9 };

	pfn_slots_del(m->mem_map, &fa[10].free_list[mt], p);
	fa[10].nr_free--;
	fa[10].nr_free_mt[mt]--;
	for (int i = 0; i < 3; i++) {
		set_page_type_order(pfn_to_page(m, p + off[i]), PGTY_BUDDY, ord[i]);
		pfn_to_page(m, p + off[i])->index = (uint32_t)mt;
		pfn_slots_add(m->mem_map, &fa[ord[i]].free_list[mt], p + off[i]);
		fa[ord[i]].nr_free++;
		fa[ord[i]].nr_free_mt[mt]++;
	}
	/* NR_FREE_PAGES_BLOCKS counts the order-9 half only now */
	__mod_zone_page_state(z, NR_FREE_PAGES_BLOCKS, -512);
})

/* A test that an nr_free different from the lists is found.  Expect
 * "nr_free_mt says". */
PLANT_TEST(nr_free_mismatch, "nr_free_mt says", {
	z->free_area[3].nr_free_mt[MIGRATE_MOVABLE]++;
	z->free_area[3].nr_free++;
})

/* A test that NR_FREE_PAGES different from the free lists is found, even
 * when the difference sits in a per-CPU diff.  Expect "NR_FREE_PAGES is". */
PLANT_TEST(nr_free_pages_mismatch, "NR_FREE_PAGES is", {
	z->per_cpu_zonestats[1].vm_stat_diff[NR_FREE_PAGES] += 1;
})

/* A test that a global counter different from the zones' sum is found.
 * Expect "the zones sum to". */
PLANT_TEST(global_counter_mismatch, "the zones sum to", {
	m->vm_zone_stat[NR_MLOCK] += 1;
})

/* A test that a pcp count different from its lists is found.  Expect
 * "pcp count". */
PLANT_TEST(pcp_count_mismatch, "pcp count", {
	z->per_cpu_pageset[0].count += 1;
})

/* A test that pcp limits out of bounds are found.  Expect "pcp out of
 * bounds". */
PLANT_TEST(pcp_high_out_of_bounds, "pcp out of bounds", {
	z->per_cpu_pageset[1].high = 1 << 30;
})

/* A test that a frame inside an allocated block claiming to be a head is
 * found (two owners for one page).  Expect "but not a tail". */
PLANT_TEST(overlapping_blocks, "but not a tail", {
	unsigned int order = page_order(pfn_to_page(m, a));

	ASSERT_TRUE(order > 0);
	set_page_type_order(pfn_to_page(m, a + 1), PGTY_KERNEL, 0);
})

/* A test that a frame covered by no block is found (an allocated head
 * turned into a tail).  Expect "a tail frame where a block should start". */
PLANT_TEST(orphan_tail, "a tail frame where a block should start", {
	set_page_type_order(pfn_to_page(m, a), PGTY_TAIL, 0);
})

/* A test that a wrong pageblock count is found.  Expect "nr_pageblocks
 * says". */
PLANT_TEST(pageblock_count_mismatch, "nr_pageblocks says", {
	z->nr_pageblocks[MIGRATE_RECLAIMABLE]++;
})

/* A test that a free block on a list of another type than its pageblock
 * is found.  Expect "pageblock". */
PLANT_TEST(free_block_in_wrong_pageblock, "lies in a Unmovable pageblock", {
	int mt;
	pfn_t p = first_free(m, 10, &mt);

	ASSERT_EQ(mt, MIGRATE_MOVABLE);
	m->pageblock[pfn_to_pageblock(p)] = (uint8_t)((m->pageblock[pfn_to_pageblock(p)] &
						      ~PB_MIGRATETYPE_MASK) | MIGRATE_UNMOVABLE);
	z->nr_pageblocks[MIGRATE_MOVABLE]--;
	z->nr_pageblocks[MIGRATE_UNMOVABLE]++;
})

/* A test that a HIGHATOMIC reserve count without HIGHATOMIC pageblocks is
 * found.  Expect "nr_reserved_highatomic". */
PLANT_TEST(highatomic_reserve_mismatch, "nr_reserved_highatomic", {
	z->nr_reserved_highatomic = pageblock_nr_pages;
})

/* A test that a free list's ring with a hole at its head is found (the
 * head would read as empty).  Expect "a hole at an end". */
PLANT_TEST(free_list_hole_at_head, "a hole at an end", {
	int mt;
	pfn_t p = first_free(m, 10, &mt);
	struct pfn_slots *fl = &z->free_area[10].free_list[mt];

	ASSERT_TRUE(p != PFN_NONE);
	fl->v[fl->first & fl->mask] = PFN_NONE;
})

/* A test that a page on two lists is found: a pcp page also put on a free
 * list.  Expect "free_area[0] Movable list: pfn ... is not a buddy head"
 * (it is typed pcp; the message names the list it was found on). */
PLANT_TEST(page_on_pcp_and_free_list, "free_area[0] Movable list: pfn", {
	pfn_t p = PFN_NONE;

	for (unsigned int cpu = 0; cpu < 2 && p == PFN_NONE; cpu++)
		for (int l = 0; l < NR_PCP_LISTS && p == PFN_NONE; l++)
			p = pfn_ring_head(&z->per_cpu_pageset[cpu].lists[l]);
	ASSERT_TRUE(p != PFN_NONE);
	pfn_slots_add(m->mem_map, &z->free_area[0].free_list[MIGRATE_MOVABLE], p);
})

/* A test that the report names the frame: the dump shows the offending
 * pfn's type and order.  Expect "pfn:<a+1> type:kernel order:0". */
TEST(report_dumps_page)
{
	struct mm_env e;
	pfn_t a = PFN_NONE;
	struct machine *m = healthy(&e, &a);
	char buf[4096], want[64];

	ASSERT_TRUE(m != NULL);
	set_page_type_order(pfn_to_page(m, a + 1), PGTY_KERNEL, 0);
	ASSERT_EQ(mm_check_msg(m, buf, sizeof(buf)), -1);
	snprintf(want, sizeof(want), "page: pfn:%u type:kernel order:0", a + 1);
	ASSERT_TRUE(strstr(buf, want) != NULL);
	ASSERT_TRUE(strstr(buf, "<- here") != NULL);
	mm_env_destroy(&e);
}

/*
 * A test of the debug level: with SIM_DEBUG >= 3 and a check interval of 1,
 * the operation after a corruption stops the program (SIM_BUG -> abort);
 * with interval 0 it does not.  Run in a child process.  Expect SIGABRT in
 * debug builds, a normal exit otherwise.
 */
TEST(debug_interval_stops_on_violation)
{
	for (int interval = 0; interval <= 1; interval++) {
		pid_t pid = fork();
		int status = 0;

		ASSERT_TRUE(pid >= 0);
		if (pid == 0) {
			struct mm_env e;
			pfn_t a = PFN_NONE;
			struct machine *m = healthy(&e, &a);

			if (!freopen("/dev/null", "w", stderr))
				_exit(3);
			mm_set_check_interval(m, (uint64_t)interval);
			mm_zone(m, ZONE_NORMAL)->nr_pageblocks[MIGRATE_RECLAIMABLE]++;
			__free_pages(m, __alloc_pages(m, GFP_KERNEL, 0, NULL), 0);
			_exit(0);
		}
		ASSERT_EQ(waitpid(pid, &status, 0), pid);
		if (interval && SIM_CHECK_EXPENSIVE) {
			ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
		} else {
			ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
	}
}

/* A test that a violation on a pcp list names that list (the names are
 * formatted only for a message): the first non-empty pcp list's head
 * retyped as a kernel page.  Expect "cpu C pcp list L: pfn P is not a pcp
 * head" with that list's C, L and P. */
TEST(pcp_violation_names_its_list)
{
	struct mm_env e;
	pfn_t a = PFN_NONE, p = PFN_NONE;
	struct machine *m = healthy(&e, &a);
	struct zone *z;
	unsigned int cpu = 0;
	int l = 0;
	char want[96];

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	for (cpu = 0; cpu < 2 && p == PFN_NONE; cpu++)
		for (l = 0; l < NR_PCP_LISTS && p == PFN_NONE; l++)
			p = pfn_ring_head(&z->per_cpu_pageset[cpu].lists[l]);
	ASSERT_TRUE(p != PFN_NONE);
	set_page_type_order(pfn_to_page(m, p), PGTY_KERNEL, page_order(pfn_to_page(m, p)));
	snprintf(want, sizeof(want), "cpu %u pcp list %d: pfn %u is not a pcp head", cpu - 1, l - 1, p);
	expect_violation(m, want, __LINE__);
	mm_env_destroy(&e);
}
