/* SPDX-License-Identifier: MIT */
/*
 * bench_slowpath.c — the slow path's host speed (release build), on a
 * 16 GiB, 8-CPU machine (4 M frames, one Normal zone):
 *
 *   compact_zone, async, the regression's case: every 4 pages "kernel,
 *     free, page cache, free", a gfp without __GFP_FS, so nothing can be
 *     isolated: pfns examined per second (skip bits cleared between runs);
 *   compact_zone, sync-light, GFP_KERNEL over "anon, free, free, free":
 *     folios migrated per second, 200 runs that each make an order-9
 *     block free (128 migrations) and keep it;
 *   shrink_node: direct reclaim (try_to_free_pages, order 0) over a zone
 *     full of clean page cache: folios reclaimed per second;
 *   the W1 slow path (docs/slowpath.md, walk-throughs): whole costly NORETRY allocations that
 *     fail after two compactions, a reclaim call and a drain, per second;
 *   __reset_isolation_suitable on a 384 GiB zone (the full-scale case's,
 *     whose 1.6 GB of struct page no host cache holds), every skip bit set
 *     and every block looking useful at its first samples (a page-cache
 *     page first, a free page eighth), as in a checkpoint's dip: host time
 *     per pageblock; and the same with no block holding a useful frame
 *     (kernel pages only, as page tables fill half the zone in a dip).
 *
 * Wall-clock time is measured here and only here (never in tests).
 * Usage: bench_slowpath [memory]   (default 16g)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/machine.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmscan.h"
#include "sim/option.h"
#include "sim/sim.h"
#include "bench.h"

#define XFS_GFP	(GFP_HIGHUSER_MOVABLE & ~__GFP_FS)

struct bench {
	struct machine_config	cfg;
	struct vm_sysctl	sysctl;
	struct sim		*sim;
	struct machine		*m;
	struct address_space	*file, *anon;
	unsigned long		file_index, anon_index;
};

static void bench_create(struct bench *b, const char *memory)
{
	struct sim_config sc = { .ncpus = 8, .seed = 1 };
	char err[256];

	memset(b, 0, sizeof(*b));
	opt_apply_defaults(machine_options, &b->cfg);
	opt_apply_defaults(vm_sysctl_options, &b->sysctl);
	bench_set("bench_slowpath", machine_options, &b->cfg, "memory", memory);
	bench_set("bench_slowpath", machine_options, &b->cfg, "zones", "Normal:rest");
	bench_set("bench_slowpath", machine_options, &b->cfg, "cpus", "8");
	b->sim = sim_create(&sc);
	b->m = machine_create(b->sim, &b->cfg, &b->sysctl, NULL, err, sizeof(err));
	if (!b->m) {
		fprintf(stderr, "bench_slowpath: %s\n", err);
		exit(2);
	}
	b->file = mapping_create(b->m, MAPPING_FILE, XFS_GFP, 0, 9,
				 AS_WRITEBACK_CAPABLE | AS_MIGRATE_NONBLOCKING, NULL, "file");
	b->anon = mapping_create(b->m, MAPPING_ANON, GFP_HIGHUSER_MOVABLE, 0, 9, 0, NULL, "anon");
}

static void bench_destroy(struct bench *b)
{
	machine_destroy(b->m);
	sim_destroy(b->sim);
	opt_release(machine_options, &b->cfg);
	opt_release(vm_sysctl_options, &b->sysctl);
}

/* Repeat `pattern` over the machine: K kernel page, F clean page cache,
 * A anonymous, '.' free. */
static void build(struct bench *b, const char *pattern)
{
	struct machine *m = b->m;
	size_t n = strlen(pattern);

	for (pfn_t p = 0; p < m->nr_pfns; p++) {
		char c = pattern[p % n];
		struct page *page;

		if (c == '.')
			continue;
		if (!take_page_off_buddy(m, p))
			continue;
		page = pfn_to_page(m, p);
		if (c == 'K') {
			set_page_type_order(page, PGTY_KERNEL, 0);
		} else if (c == 'F') {
			__filemap_add_folio(m, b->file, p, b->file_index++);
			folio_add_lru(m, p);
		} else {
			__filemap_add_folio(m, b->anon, p, b->anon_index++);
			folio_add_lru(m, p);
		}
	}
	lru_add_drain_all(m);
}

static void clear_skip_bits(struct machine *m)
{
	for (pfn_t p = 0; p < m->nr_pfns; p += pageblock_nr_pages)
		clear_pageblock_skip(m, p);
}

static enum compact_result compact(struct machine *m, gfp_t gfp, unsigned int order,
				   enum compact_priority prio)
{
	struct alloc_context ac;
	unsigned int fl = 0;
	pfn_t cap;
	enum compact_result r;

	prepare_alloc_pages(m, gfp, order, &ac, &fl);
	r = try_to_compact_pages(m, gfp, order, ALLOC_WMARK_MIN, &ac, prio, &cap);
	if (cap != PFN_NONE)
		free_pages(m, cap, order);
	return r;
}

/* As compact(), but the captured block is kept (returned). */
static pfn_t compact_keep(struct machine *m, gfp_t gfp, unsigned int order, enum compact_priority prio)
{
	struct alloc_context ac;
	unsigned int fl = 0;
	pfn_t cap;

	prepare_alloc_pages(m, gfp, order, &ac, &fl);
	try_to_compact_pages(m, gfp, order, ALLOC_WMARK_MIN, &ac, prio, &cap);
	return cap;
}

/* __reset_isolation_suitable over a 384 GiB zone whose every pageblock is
 * laid out as `block` (build()'s letters), all skip bits set before each
 * of 10 resets: host time per reset and per pageblock. */
static void bench_reset(const char *label, const char *block)
{
	struct bench b;
	struct zone *zone;
	unsigned long blocks;
	double t0, dt = 0;
	int runs;

	bench_create(&b, "384g");
	zone = &b.m->node.node_zones[ZONE_NORMAL];
	blocks = b.m->nr_pfns / pageblock_nr_pages;
	build(&b, block);
	for (runs = 0; runs < 10; runs++) {
		for (pfn_t p = 0; p < b.m->nr_pfns; p += pageblock_nr_pages)
			set_pageblock_skip(b.m, p);
		zone->compact_blockskip_flush = true;
		t0 = now_s();
		reset_isolation_suitable(&b.m->node);
		dt += now_s() - t0;
	}
	printf("%-52s %8.2f ms per reset  (%.1f ns per pageblock, %lu blocks)\n", label,
	       dt / runs * 1e3, dt / runs / (double)blocks * 1e9, blocks);
	bench_destroy(&b);
}

int main(int argc, char **argv)
{
	const char *memory = argc > 1 ? argv[1] : "16g";
	struct bench b;
	double t0, dt;
	uint64_t before, n;
	int runs;

	printf("bench_slowpath: %s machine, 8 CPUs, one Normal zone\n", memory);

	/* 1. failing async compaction, the regression's case */
	bench_create(&b, memory);
	build(&b, "K.F.");
	before = sum_vm_event(b.m, COMPACTMIGRATE_SCANNED);
	t0 = now_s();
	for (runs = 0; runs < 20; runs++) {
		clear_skip_bits(b.m);
		b.m->node.node_zones[ZONE_NORMAL].compact_cached_migrate_pfn[0] = 0;
		b.m->node.node_zones[ZONE_NORMAL].compact_cached_migrate_pfn[1] = 0;
		compact(b.m, XFS_GFP, 4, COMPACT_PRIO_ASYNC);
	}
	dt = now_s() - t0;
	n = sum_vm_event(b.m, COMPACTMIGRATE_SCANNED) - before;
	/* skip-on-failure: one pfn examined per order-4 chunk */
	printf("%-52s %8.1f M pfns/s  (%.2f ms per whole-zone run, %.1f ns per pfn examined)\n",
	       "compact_zone async, nothing isolatable (order 4)", (double)n / dt / 1e6,
	       dt / runs * 1e3, dt / (double)n * 1e9);
	before = sum_vm_event(b.m, COMPACTMIGRATE_SCANNED);
	t0 = now_s();
	for (runs = 0; runs < 5; runs++) {
		clear_skip_bits(b.m);
		compact(b.m, XFS_GFP, 4, COMPACT_PRIO_SYNC_FULL);
	}
	dt = now_s() - t0;
	n = sum_vm_event(b.m, COMPACTMIGRATE_SCANNED) - before;
	printf("%-52s %8.1f M pfns/s  (%.2f ms per whole-zone run)\n",
	       "compact_zone sync-full, nothing isolatable", (double)n / dt / 1e6, dt / runs * 1e3);
	bench_destroy(&b);

	/* 2. migrating compaction */
	bench_create(&b, memory);
	build(&b, "A...");
	before = sum_vm_event(b.m, PGMIGRATE_SUCCESS);
	t0 = now_s();
	for (runs = 0; runs < 200; runs++) {
		/* each run must build a new block: the one made is kept */
		if (compact_keep(b.m, GFP_KERNEL | __GFP_MOVABLE, 9, COMPACT_PRIO_SYNC_LIGHT) == PFN_NONE)
			__alloc_pages(b.m, GFP_NOWAIT | __GFP_COMP, 9, NULL);
	}
	dt = now_s() - t0;
	n = sum_vm_event(b.m, PGMIGRATE_SUCCESS) - before;
	printf("%-52s %8.2f M folios/s  (%llu migrated in %d runs)\n",
	       "compact_zone sync-light, migrating (order 9)", (double)n / dt / 1e6,
	       (unsigned long long)n, runs);
	bench_destroy(&b);

	/* 3. reclaim of clean page cache */
	bench_create(&b, memory);
	build(&b, "FFFFFFFFFFFFFFF.");
	{
		struct alloc_context ac;
		unsigned int fl = 0;

		prepare_alloc_pages(b.m, GFP_KERNEL, 0, &ac, &fl);
		before = sum_vm_event(b.m, PGSCAN_DIRECT);
		n = 0;
		t0 = now_s();
		for (runs = 0; n < b.m->nr_pfns / 4; runs++) {
			n += try_to_free_pages(b.m, &ac, 0, GFP_KERNEL);
			if (runs % 64 == 0)
				drain_all_pages(b.m, NULL);
		}
		dt = now_s() - t0;
		printf("%-52s %8.2f M folios/s  (%llu reclaimed, %llu scanned, %d calls)\n",
		       "shrink_node via try_to_free_pages, clean cache", (double)n / dt / 1e6,
		       (unsigned long long)n,
		       (unsigned long long)(sum_vm_event(b.m, PGSCAN_DIRECT) - before), runs);
	}
	bench_destroy(&b);

	/* 4. the W1 slow path */
	bench_create(&b, memory);
	build(&b, "K.F.");
	t0 = now_s();
	for (runs = 0; runs < 50; runs++) {
		clear_skip_bits(b.m);
		if (__alloc_pages(b.m, XFS_GFP | __GFP_WRITE | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN, 4,
				  NULL) != PFN_NONE) {
			fprintf(stderr, "bench_slowpath: W1 allocation unexpectedly succeeded\n");
			return 1;
		}
	}
	dt = now_s() - t0;
	printf("%-52s %8.2f ms per failing costly attempt (%llu compact_stall)\n",
	       "W1: costly NORETRY slow path, skip bits cleared", dt / runs * 1e3,
	       (unsigned long long)sum_vm_event(b.m, COMPACTSTALL));
	bench_destroy(&b);

	/* 5. the skip-bit reset over a full-scale zone: every block useful
	 * at its first samples (a page-cache page first, a free page eighth);
	 * 6. none useful (kernel pages only, as the page tables' blocks in a
	 * dip): all 64 samples each */
	{
		char block[pageblock_nr_pages + 1];

		memset(block, 'K', pageblock_nr_pages);
		block[pageblock_nr_pages] = '\0';
		block[0] = 'F';
		block[8] = '.';
		bench_reset("__reset_isolation_suitable, 384 GiB, all useful", block);
		block[0] = block[8] = 'K';
		bench_reset("__reset_isolation_suitable, 384 GiB, none useful", block);
	}
	return 0;
}
