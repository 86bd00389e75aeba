/* SPDX-License-Identifier: MIT */
/*
 * test_slub.c — the slab allocator model (src/mm/slub.c): calculate_order
 * against values worked out by hand from mm/slub.c 6.12, the partial/full
 * lists and min_partial, allocate_slab's order-3 attempt falling back to
 * the minimum order on a fragmented zone, the page frag's order-3 ->
 * order-0 fallback, migratetypes of reclaimable and unmovable slabs,
 * NR_SLAB_*_B against the pages held, the feeders of fork/exit, and a
 * random alloc/free program against a shadow of live objects per cache.
 * Every machine runs mm_check after each mm operation (mm_test.h), which
 * includes slab_check.
 */
#include "frag_test.h"
#include "mm/memory.h"
#include "mm/slub.h"
#include "sim/rng.h"

static const char *const two_cpus[] = { "memory=64m", "zones=Normal:rest", "cpus=2",
					"vm.min_free_kbytes=1024", NULL };

static long slab_node_pages(struct machine *m, bool reclaimable)
{
	return node_page_state_exact(&m->node, reclaimable ? NR_SLAB_RECLAIMABLE_B : NR_SLAB_UNRECLAIMABLE_B);
}

/* Allocated blocks whose head is `type` and of `order`. */
static long count_heads(struct machine *m, enum page_type type, unsigned int order)
{
	long n = 0;

	for (pfn_t p = 0; p < m->nr_pfns; p++)
		if (page_type(pfn_to_page(m, p)) == type && page_order(pfn_to_page(m, p)) == order)
			n++;
	return n;
}

static struct machine *slab_env(struct mm_env *e, const char *const *kv)
{
	struct machine *m = mm_env_create(e, kv);

	if (!m)
		return NULL;
	sim_set_engine_cpu(e->sim, 0);
	kmem_cache_init(m);
	return m;
}

/* A test of calculate_order() (6.12) by hand:
 *   min_objects = 4 * (fls(cpus) + 1): 1 CPU 8, 2 CPUs 12, 4 CPUs 16,
 *   96 CPUs 32 (fls(96) = 7); capped at what fits in an order-3 slab;
 *   min_order = get_order(min_objects * size); then the smallest order
 *   >= min_order wasting <= 1/16 (then 1/8, 1/4, 1/2) of the slab.
 * Worked examples: 4288 B, 2 CPUs: 7 fit in 32 KiB, min_order 3, waste
 * 2752 > 2048 (1/16) but <= 4096 (1/8): order 3.  700 B, 1 CPU: 8 * 700
 * = 5600 -> order 1, waste 8192 % 700 = 492 <= 512: order 1.  192 B, 96
 * CPUs: 32 * 192 = 6144 -> order 1, waste 128: order 1.  40000 B: no
 * order <= 3 holds one, so get_order(40000) = 4.  The 2-CPU values agree
 * with the development host's /proc/slabinfo (2 CPUs, 6.18). */
TEST(calculate_order_by_hand)
{
	static const struct { unsigned int size, cpus, order, objects; } cases[] = {
		{ 8, 2, 0, 512 },	{ 192, 2, 0, 21 },	{ 576, 2, 1, 14 },
		{ 624, 2, 1, 13 },	{ 1024, 2, 2, 16 },	{ 1600, 2, 3, 20 },
		{ 2368, 2, 3, 13 },	{ 4288, 2, 3, 7 },	{ 8192, 2, 3, 4 },
		{ 3000, 2, 3, 10 },	{ 512, 1, 0, 8 },	{ 700, 1, 1, 11 },
		{ 576, 4, 2, 28 },	{ 1152, 4, 3, 28 },	{ 192, 96, 1, 42 },
		{ 64, 96, 0, 64 },	{ 1024, 96, 3, 32 },	{ 704, 96, 3, 46 },
		{ 40000, 2, 4, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int order = calculate_order(cases[i].size, cases[i].cpus);

		ASSERT_EQ(order, cases[i].order);
		ASSERT_EQ(order_objects(order, cases[i].size), cases[i].objects);
	}
}

/* A test of kmalloc_size_roundup(): the kmalloc-N ladder with its 96 and
 * 192 steps, and whole pages of kmalloc_large's order above 8 KiB. */
TEST(kmalloc_size_roundup_ladder)
{
	ASSERT_EQ(kmalloc_size_roundup(1), 8);
	ASSERT_EQ(kmalloc_size_roundup(9), 16);
	ASSERT_EQ(kmalloc_size_roundup(65), 96);
	ASSERT_EQ(kmalloc_size_roundup(97), 128);
	ASSERT_EQ(kmalloc_size_roundup(129), 192);
	ASSERT_EQ(kmalloc_size_roundup(193), 256);
	ASSERT_EQ(kmalloc_size_roundup(1025), 2048);
	ASSERT_EQ(kmalloc_size_roundup(8192), 8192);
	ASSERT_EQ(kmalloc_size_roundup(8193), 16384);
	ASSERT_EQ(kmalloc_size_roundup(40000), 65536);
}

/* A test of the caches' layout on a 2-CPU machine: slot size, objects
 * per slab, order, minimum order, min_partial = clamp(ilog2(size) / 2,
 * 5, 10) and allocflags.  Expect dentry 21 x 192 B in one page,
 * reclaimable, min_partial 5; TCP 13 per order-3 slab, minimum order 0;
 * kmalloc-8k 4 per order 3, min_partial 6 (ilog2 13 / 2). */
TEST(cache_layout)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	struct slabinfo si;

	ASSERT_TRUE(m);
	get_slabinfo(slab_cache(m, SC_dentry), &si);
	ASSERT_EQ(si.objsize, 192);
	ASSERT_EQ(si.objects_per_slab, 21);
	ASSERT_EQ(si.cache_order, 0);
	ASSERT_EQ(si.min_partial, 5);
	ASSERT_EQ(si.allocflags, __GFP_COMP | __GFP_RECLAIMABLE);
	get_slabinfo(slab_cache(m, SC_TCP), &si);
	ASSERT_EQ(si.objects_per_slab, 13);
	ASSERT_EQ(si.cache_order, 3);
	ASSERT_EQ(si.min_order, 0);
	ASSERT_EQ(si.allocflags, __GFP_COMP);
	get_slabinfo(slab_cache(m, SC_task_struct), &si);
	ASSERT_EQ(si.min_order, 1);	/* get_order(4288) */
	ASSERT_EQ(si.objects_per_slab, 7);
	mm_env_destroy(&e);
}

/*
 * A test of the partial and full lists and of min_partial: 7 full dentry
 * slabs (147 objects), then their objects freed slab by slab.  A full
 * slab that loses an object goes to the partial list; an empty slab is
 * discarded only when the node already has min_partial (5) partial
 * slabs counting itself.  Expect 7 slabs = 7 pages while full; the
 * first four emptied slabs stay (pinning 4 pages), the fifth, sixth and
 * seventh go back to the buddy; nr_slab_reclaimable = pages held at
 * every step.
 */
TEST(partial_full_and_min_partial)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	struct kmem_cache *s;
	kobj_t obj[147];
	struct slabinfo si;

	ASSERT_TRUE(m);
	s = slab_cache(m, SC_dentry);
	for (int i = 0; i < 147; i++) {
		obj[i] = kmem_cache_alloc(s, GFP_KERNEL);
		ASSERT_TRUE(obj[i]);
	}
	get_slabinfo(s, &si);
	ASSERT_EQ(si.num_slabs, 7);
	ASSERT_EQ(si.nr_full, 7);
	ASSERT_EQ(si.nr_partial, 0);
	ASSERT_EQ(si.active_objs, 147);
	ASSERT_EQ(slab_node_pages(m, true), 7);
	ASSERT_EQ(slab_pages(m, true), 7);
	/* one object back: its slab goes to the partial list */
	kmem_cache_free(s, obj[0]);
	get_slabinfo(s, &si);
	ASSERT_EQ(si.nr_full, 6);
	ASSERT_EQ(si.nr_partial, 1);
	/* and the next allocation takes it from there */
	obj[0] = kmem_cache_alloc(s, GFP_KERNEL);
	get_slabinfo(s, &si);
	ASSERT_EQ(si.nr_full, 7);
	ASSERT_EQ(si.num_slabs, 7);
	for (int slab = 0; slab < 7; slab++) {
		static const unsigned long held_after[7] = { 7, 7, 7, 7, 6, 5, 4 };

		for (int i = 0; i < 21; i++)
			kmem_cache_free(s, obj[slab * 21 + i]);
		get_slabinfo(s, &si);
		ASSERT_EQ(si.num_slabs, held_after[slab]);
		ASSERT_EQ(slab_node_pages(m, true), (long)held_after[slab]);
	}
	ASSERT_EQ(si.active_objs, 0);
	ASSERT_EQ(si.nr_partial, 4);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/*
 * A test of allocate_slab()'s fallback: in a zone where every aligned
 * order-3 block holds an unmovable page ("K......."), TCP's preferred
 * order 3 (NORETRY, NOWARN, no reclaim) fails and the minimum order 0
 * serves: one 2368-byte object per page, ORDER_FALLBACK counted.  The
 * page frag does the same (order 3 without direct reclaim, then one
 * page).  On an unfragmented zone both get order 3.
 */
TEST(order3_falls_back_to_order0_when_fragmented)
{
	struct frag_env v;
	struct machine *m = frag_env_create(&v, two_cpus, NULL, "K.......");
	struct page_frag pf = { .pfn = PFN_NONE };
	struct slabinfo si;
	kobj_t a, b;

	ASSERT_TRUE(m);
	kmem_cache_init(m);
	a = kmem_cache_alloc(slab_cache(m, SC_TCP), GFP_KERNEL);
	b = kmem_cache_alloc(slab_cache(m, SC_TCP), GFP_KERNEL);
	ASSERT_TRUE(a && b);
	get_slabinfo(slab_cache(m, SC_TCP), &si);
	ASSERT_EQ(si.num_slabs, 2);	/* one object per order-0 slab */
	ASSERT_EQ(si.num_objs, 2);
	ASSERT_EQ(si.order_fallback, 2);
	ASSERT_EQ(si.nr_full, 2);
	/* the order-3 attempts went without direct reclaim or compaction */
	ASSERT_EQ(ev(m, COMPACTSTALL), 0);
	ASSERT_EQ(ev(m, ALLOCSTALL_NORMAL), 0);
	ASSERT_EQ(slab_node_pages(m, false), 2);
	ASSERT_TRUE(skb_page_frag_refill(m, 128, &pf, GFP_KERNEL));
	ASSERT_EQ(pf.order, 0);
	ASSERT_EQ(pf.refills_order0, 1);
	ASSERT_EQ(pf.refills_order3, 0);
	kmem_cache_free(slab_cache(m, SC_TCP), a);
	kmem_cache_free(slab_cache(m, SC_TCP), b);
	page_frag_release(m, &pf);
	/* a one-object slab goes from full to empty at once; with fewer than
	 * min_partial partial slabs it is kept on the partial list, as
	 * __slab_free's add_partial does */
	get_slabinfo(slab_cache(m, SC_TCP), &si);
	ASSERT_EQ(si.nr_partial, 2);
	ASSERT_EQ(si.active_objs, 0);
	ASSERT_EQ(slab_node_pages(m, false), 2);
	mm_env_destroy(&v.e);

	m = frag_env_create(&v, two_cpus, NULL, NULL);
	ASSERT_TRUE(m);
	kmem_cache_init(m);
	a = kmem_cache_alloc(slab_cache(m, SC_TCP), GFP_KERNEL);
	ASSERT_TRUE(a);
	get_slabinfo(slab_cache(m, SC_TCP), &si);
	ASSERT_EQ(si.order_fallback, 0);
	ASSERT_EQ(si.num_objs, 13);
	ASSERT_EQ(slab_node_pages(m, false), 8);
	pf.pfn = PFN_NONE;
	ASSERT_TRUE(skb_page_frag_refill(m, 128, &pf, GFP_KERNEL));
	ASSERT_EQ(pf.order, 3);
	ASSERT_EQ(pf.refills_order3, 1);
	page_frag_release(m, &pf);
	mm_env_destroy(&v.e);
}

/* A test of the migratetypes: a dentry slab (SLAB_RECLAIM_ACCOUNT ->
 * __GFP_RECLAIMABLE) lands in a RECLAIMABLE pageblock with a
 * PGTY_RECLAIMABLE head; a task_struct slab (GFP_KERNEL) in an UNMOVABLE
 * pageblock with a PGTY_KERNEL head; each counted in its own counter. */
TEST(migratetype_of_reclaimable_and_unmovable_slabs)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	kobj_t d, t;
	pfn_t dp, tp;

	ASSERT_TRUE(m);
	d = kmem_cache_alloc(slab_cache(m, SC_dentry), GFP_KERNEL);
	t = kmem_cache_alloc(slab_cache(m, SC_task_struct), GFP_KERNEL);
	ASSERT_TRUE(d && t);
	/* the slab record id is in the head page's index: find the heads */
	dp = tp = PFN_NONE;
	for (pfn_t p = 0; p < m->nr_pfns; p++) {
		const struct page *page = pfn_to_page(m, p);

		if (page_type(page) == PGTY_RECLAIMABLE)
			dp = p;
		if (page_type(page) == PGTY_KERNEL && page_order(page) == 3)
			tp = p;
	}
	ASSERT_TRUE(dp != PFN_NONE && tp != PFN_NONE);
	ASSERT_EQ(get_pfnblock_migratetype(m, dp), MIGRATE_RECLAIMABLE);
	ASSERT_EQ(get_pfnblock_migratetype(m, tp), MIGRATE_UNMOVABLE);
	ASSERT_EQ(slab_node_pages(m, true), 1);
	ASSERT_EQ(slab_node_pages(m, false), 8);
	kmem_cache_free(slab_cache(m, SC_dentry), d);
	kmem_cache_free(slab_cache(m, SC_task_struct), t);
	/* one empty slab each stays on its partial list (min_partial 5) */
	ASSERT_EQ(slab_node_pages(m, true), 1);
	ASSERT_EQ(slab_node_pages(m, false), 8);
	mm_env_destroy(&e);
}

/* A test of kmalloc: small sizes from kmalloc-N, large ones from the
 * buddy (order 2 for 16 KiB), both in nr_slab_unreclaimable; kfree
 * gives the large block straight back. */
TEST(kmalloc_and_kmalloc_large)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	kobj_t small, large;

	ASSERT_TRUE(m);
	small = kmalloc(m, 100, GFP_KERNEL);
	large = kmalloc(m, 16384, GFP_KERNEL);
	ASSERT_TRUE(small && large && (large & KOBJ_LARGE));
	ASSERT_EQ(slab_node_pages(m, false), 1 + 4);
	kfree(m, large);
	ASSERT_EQ(slab_node_pages(m, false), 1);
	kfree(m, small);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test that slab=off is no slab at all: without kmem_cache_init every
 * entry point returns nothing and holds nothing. */
TEST(slab_off_is_inert)
{
	struct mm_env e;
	struct machine *m = mm_env_create(&e, two_cpus);
	struct page_frag pf = { .pfn = PFN_NONE };
	struct sk_buff skb;

	ASSERT_TRUE(m);
	ASSERT_FALSE(slab_enabled(m));
	ASSERT_EQ(kmalloc(m, 64, GFP_KERNEL), 0);
	ASSERT_EQ(slab_alloc_named(m, SC_dentry, GFP_KERNEL), 0);
	ASSERT_TRUE(skb_page_frag_refill(m, 64, &pf, GFP_KERNEL));
	ASSERT_EQ(pf.pfn, PFN_NONE);
	ASSERT_EQ(alloc_skb_frag(m, &pf, 64, GFP_KERNEL, &skb), 0);
	consume_skb(m, &skb);
	ASSERT_EQ(slab_node_pages(m, false), 0);
	mm_env_destroy(&e);
}

/* A test of the page frag's sharing: skbs take refs on the task's page;
 * a refill while one is in flight orphans the page, which goes back when
 * its last skb is consumed; a refill with none in flight reuses it. */
TEST(page_frag_refs_and_orphans)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	struct page_frag pf = { .pfn = PFN_NONE };
	struct sk_buff a, b;
	pfn_t first;

	ASSERT_TRUE(m);
	ASSERT_EQ(alloc_skb_frag(m, &pf, 30000, GFP_KERNEL, &a), 0);
	first = pf.pfn;
	ASSERT_EQ(pf.order, 3);
	ASSERT_EQ(count_heads(m, PGTY_KERNEL, 3), 1);
	/* 30000 + 3000 > 32 KiB with `a` in flight: a new page */
	ASSERT_EQ(alloc_skb_frag(m, &pf, 3000, GFP_KERNEL, &b), 0);
	ASSERT_TRUE(pf.pfn != first);
	ASSERT_EQ(count_heads(m, PGTY_KERNEL, 3), 2);
	consume_skb(m, &a);		/* the orphan's last skb: its page goes back */
	ASSERT_EQ(count_heads(m, PGTY_KERNEL, 3), 1);
	consume_skb(m, &b);
	ASSERT_EQ(pf.refs, 0);
	first = pf.pfn;
	ASSERT_TRUE(skb_page_frag_refill(m, 32768, &pf, GFP_KERNEL));
	ASSERT_EQ(pf.pfn, first);	/* reused from offset 0 */
	page_frag_release(m, &pf);
	ASSERT_EQ(count_heads(m, PGTY_KERNEL, 3), 0);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test of the process feeders: execve (mm_create) and fork take a
 * task_struct, files, sighand, signal and mm_struct each, and one
 * vm_area_struct per VMA; exit gives them all back. */
TEST(fork_and_exit_feed_the_process_caches)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	struct mm_struct *parent, *child;
	struct slabinfo si;

	ASSERT_TRUE(m);
	parent = mm_create(m);
	ASSERT_TRUE(parent);
	ASSERT_TRUE(mm_mmap(parent, 1 << 20, VM_READ | VM_WRITE, NULL, NULL, NULL, 0, PAGE_SIZE));
	child = mm_fork(parent);
	ASSERT_TRUE(child);
	get_slabinfo(slab_cache(m, SC_task_struct), &si);
	ASSERT_EQ(si.active_objs, 2);
	get_slabinfo(slab_cache(m, SC_mm_struct), &si);
	ASSERT_EQ(si.active_objs, 2);
	get_slabinfo(slab_cache(m, SC_vm_area_struct), &si);
	ASSERT_EQ(si.active_objs, 4);	/* stack + the mapping, twice */
	mm_exit(child);
	mm_exit(parent);
	get_slabinfo(slab_cache(m, SC_vm_area_struct), &si);
	ASSERT_EQ(si.active_objs, 0);
	get_slabinfo(slab_cache(m, SC_signal_cache), &si);
	ASSERT_EQ(si.active_objs, 0);
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/*
 * A test against a naive shadow: 20000 random allocations and frees over
 * five caches (two reclaimable), the shadow keeping only the live objects
 * per cache.  After every step: active objects equal the shadow's count,
 * and the slabs held lie between ceil(live / objects per slab) and
 * live + min_partial (every slab holds a live object except at most
 * min_partial empty ones); the counters equal the pages held.  At the
 * end everything is freed: at most min_partial slabs stay per cache.
 */
TEST(random_program_against_shadow)
{
	static const enum slab_cache_id ids[] = { SC_dentry, SC_xfs_inode, SC_TCP, SC_vm_area_struct,
						  SC_skbuff_head_cache };
	enum { NC = 5, MAXLIVE = 600 };
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	static kobj_t live[NC][MAXLIVE];
	unsigned int nlive[NC] = { 0 };
	struct sim_rng r;

	ASSERT_TRUE(m);
	mm_set_check_interval(m, 97);
	rng_init(&r, 7, rng_stream_id("slab-shadow", 0));
	for (int step = 0; step < 20000; step++) {
		unsigned int c = (unsigned int)rng_below(&r, NC);
		struct kmem_cache *s = slab_cache(m, ids[c]);
		struct slabinfo si;

		if (nlive[c] < MAXLIVE && (nlive[c] == 0 || rng_below(&r, 100) < 55)) {
			kobj_t o = kmem_cache_alloc(s, GFP_KERNEL);

			ASSERT_TRUE(o);
			live[c][nlive[c]++] = o;
		} else {
			unsigned int k = (unsigned int)rng_below(&r, nlive[c]);

			kmem_cache_free(s, live[c][k]);
			live[c][k] = live[c][--nlive[c]];
		}
		get_slabinfo(s, &si);
		ASSERT_EQ(si.active_objs, nlive[c]);
		ASSERT_TRUE(si.num_slabs >= (nlive[c] + si.objects_per_slab - 1) / si.objects_per_slab);
		ASSERT_TRUE(si.num_slabs <= nlive[c] + si.min_partial);
		ASSERT_EQ(slab_node_pages(m, true), (long)slab_pages(m, true));
		ASSERT_EQ(slab_node_pages(m, false), (long)slab_pages(m, false));
	}
	for (unsigned int c = 0; c < NC; c++) {
		struct slabinfo si;

		while (nlive[c])
			kmem_cache_free(slab_cache(m, ids[c]), live[c][--nlive[c]]);
		get_slabinfo(slab_cache(m, ids[c]), &si);
		ASSERT_EQ(si.active_objs, 0);
		ASSERT_TRUE(si.num_slabs <= si.min_partial);
	}
	ASSERT_EQ(mm_check(m), 0);
	mm_env_destroy(&e);
}

/* A test of /proc/slabinfo's layout: the version 2.1 header and a row as
 * cache_show prints it (%-17s %6lu %6lu %6u %4u %4d, tunables 0 0 0,
 * slabdata active num 0), newest cache first. */
TEST(slabinfo_format)
{
	struct mm_env e;
	struct machine *m = slab_env(&e, two_cpus);
	static const char head[] = "slabinfo - version: 2.1\n# name            <active_objs> <num_objs> "
		"<objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
		"slabdata <active_slabs> <num_slabs> <sharedavail>\nskbuff_small_head ";
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	kobj_t o;

	ASSERT_TRUE(m);
	o = kmem_cache_alloc(slab_cache(m, SC_dentry), GFP_KERNEL);
	f = open_memstream(&buf, &len);
	mm_show_slabinfo(m, f);
	fclose(f);
	ASSERT_TRUE(strncmp(buf, head, strlen(head)) == 0);
	ASSERT_TRUE(strstr(buf, "\ndentry                 1     21    192   21    1 : tunables    0    0    0 : "
			   "slabdata      1      1      0\n") != NULL);
	ASSERT_TRUE(strstr(buf, "\nkmalloc-8              0      0      8  512    1 :") != NULL);
	free(buf);
	kmem_cache_free(slab_cache(m, SC_dentry), o);
	mm_env_destroy(&e);
}
