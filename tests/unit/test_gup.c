/* SPDX-License-Identifier: MIT */
/* test_gup.c — pinning user pages (mm/gup.c): refcount and pincount
 * arithmetic, the FOLL_PIN accounting modes and their costs, folds into
 * the shared counters and their contention. */
#include "mm_test.h"
#include "mm/gup.h"
#include "sim_test.h"

static struct machine *gup_machine(struct mm_env *e, const char *mode)
{
	static char acct[64];
	const char *kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2", acct, NULL };

	snprintf(acct, sizeof(acct), "foll_pin_accounting=%s", mode);
	return mm_env_create(e, kv);
}

/* ns the engine charged while running `stmt` in engine context. */
#define ENGINE_NS(e, stmt) ({ uint64_t _t0 = sim_engine_ns((e)->sim); stmt; sim_engine_ns((e)->sim) - _t0; })

/*
 * A test of a FOLL_PIN pin of small folios (try_grab_folio_fast): each
 * page's folio gets _refcount += GUP_PIN_COUNTING_BIAS and one
 * NR_FOLL_PIN_ACQUIRED per page; unpinning restores the mapping's single
 * reference and counts NR_FOLL_PIN_RELEASED.  Expect refcount 1025 on the
 * three pinned pages, 1 elsewhere, folio_maybe_dma_pinned on exactly
 * those, snapshot counters 3 and 3, and the buffer freed cleanly.
 */
TEST(pin_small_folios)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "node");
	struct user_buffer ub;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(user_buffer_alloc(m, &ub, 8, 0), 0);
	ASSERT_EQ(ub.nr_folios, 8);
	ASSERT_EQ(pin_user_pages_fast(m, &ub, 2, 3, FOLL_WRITE), 3);
	for (unsigned long f = 0; f < 8; f++) {
		bool pinned = f >= 2 && f <= 4;

		ASSERT_EQ(ub.refcount[f], pinned ? 1 + (int)GUP_PIN_COUNTING_BIAS : 1);
		ASSERT_EQ(folio_maybe_dma_pinned(&ub, f), pinned);
	}
	ASSERT_EQ(node_page_state_snapshot(&m->node, NR_FOLL_PIN_ACQUIRED), 3);
	ASSERT_EQ(m->gup_pinned, 3);
	unpin_user_pages(m, &ub, 2, 3);
	for (unsigned long f = 0; f < 8; f++)
		ASSERT_EQ(ub.refcount[f], 1);
	ASSERT_EQ(node_page_state_snapshot(&m->node, NR_FOLL_PIN_RELEASED), 3);
	ASSERT_EQ(m->gup_unpinned, 3);
	user_buffer_free(m, &ub);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test of pins on PMD-mapped 2 MiB folios (gup_fast_pmd_leaf): one grab
 * per folio in range with refs = pages in range; a large folio gets
 * _refcount += refs and _pincount += refs.  A range across the folio
 * boundary (pages 500..539) grabs 12 from folio 0 and 28 from folio 1.
 * Expect those counts, NR_FOLL_PIN_ACQUIRED +40 from two updates (at
 * threshold 125 the per-CPU diff holds the 40), and everything restored
 * by unpin_user_pages.
 */
TEST(pin_large_folios)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "node");
	struct user_buffer ub;

	ASSERT_TRUE(m != NULL);
	m->node.per_cpu_nodestats[0].stat_threshold = 125;
	ASSERT_EQ(user_buffer_alloc(m, &ub, 1024, HPAGE_PMD_ORDER), 0);
	ASSERT_EQ(ub.nr_folios, 2);
	ASSERT_EQ(pin_user_pages_fast(m, &ub, 500, 40, 0), 40);
	ASSERT_EQ(ub.refcount[0], 1 + 12);
	ASSERT_EQ(ub.pincount[0], 12);
	ASSERT_EQ(ub.refcount[1], 1 + 28);
	ASSERT_EQ(ub.pincount[1], 28);
	ASSERT_TRUE(folio_maybe_dma_pinned(&ub, 0) && folio_maybe_dma_pinned(&ub, 1));
	ASSERT_EQ(m->node.per_cpu_nodestats[0].vm_node_stat_diff[NR_FOLL_PIN_ACQUIRED], 40);
	unpin_user_pages(m, &ub, 500, 40);
	ASSERT_EQ(ub.refcount[0], 1);
	ASSERT_EQ(ub.pincount[1], 0);
	ASSERT_FALSE(folio_maybe_dma_pinned(&ub, 1));
	ASSERT_EQ(node_page_state_snapshot(&m->node, NR_FOLL_PIN_RELEASED), 40);
	user_buffer_free(m, &ub);
	mm_env_destroy(&e);
}

/*
 * A test of FOLL_GET (get_user_pages_fast, the pre-6.3 O_DIRECT path):
 * one reference per page, no pin semantics, nothing counted.  Expect
 * refcount 2, not maybe-DMA-pinned, the FOLL_PIN counters untouched, and
 * put_page restoring 1.
 */
TEST(get_user_pages_counts_nothing)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "none");
	struct user_buffer ub;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(user_buffer_alloc(m, &ub, 4, 0), 0);
	ASSERT_EQ(get_user_pages_fast(m, &ub, 1, 2, FOLL_WRITE), 2);
	ASSERT_EQ(ub.refcount[1], 2);
	ASSERT_FALSE(folio_maybe_dma_pinned(&ub, 1));
	ASSERT_EQ(node_page_state_snapshot(&m->node, NR_FOLL_PIN_ACQUIRED), 0);
	ASSERT_EQ(m->gup_got, 2);
	put_page(m, &ub, 1);
	put_page(m, &ub, 2);
	ASSERT_EQ(ub.refcount[2], 1);
	ASSERT_EQ(m->gup_put, 2);
	user_buffer_free(m, &ub);
	mm_env_destroy(&e);
}

/*
 * A test that releasing more pins than were taken, or freeing a buffer
 * with a pinned page, is a bug (SIM_BUG), never silently absorbed.
 */
static void unpin_twice(void *arg)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "node");
	struct user_buffer ub;

	(void)arg;
	user_buffer_alloc(m, &ub, 1, 0);
	unpin_user_page(m, &ub, 0);
}

static void free_pinned(void *arg)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "node");
	struct user_buffer ub;

	(void)arg;
	user_buffer_alloc(m, &ub, 1, 0);
	pin_user_pages_fast(m, &ub, 0, 1, 0);
	user_buffer_free(m, &ub);
}

TEST(pin_misuse_is_a_bug)
{
	ASSERT_TRUE(st_dies(unpin_twice, NULL));
	ASSERT_TRUE(st_dies(free_pinned, NULL));
}

/* Expected ns of n pin+unpin pairs of one small page, from the cost table:
 * the walk, the grab and the release, without the accounting. */
static uint64_t pin_pair_base_ns(const struct cost_table *c, uint64_t n)
{
	return cost_ns(c, COST_gup_fast_walk, n) + cost_ns(c, COST_gup_fast_pte, n) +
	       cost_ns(c, COST_atomic_local, 4 * n)	/* try_get, bias add, referenced, put */
	       + cost_ns(c, COST_smp_mb, n);
}

/*
 * A test of the cost of each FOLL_PIN accounting mode, to the nanosecond:
 * 1000 pins and 1000 unpins of one small page on one CPU at threshold
 * 125.  node: a per-CPU cmpxchg per update and, every 126 updates of each
 * item (overstep 0), a fold of two shared atomics: 7 folds per item in
 * 1000; nostat: nothing; percpu: one per-CPU add per update, no fold;
 * none: FOLL_GET, one atomic each way, no barrier, no accounting (and
 * pin_user_pages_fast, where a pre-6.3 kernel still used it, counts as
 * node does).  Expect exactly these sums, the fold counts and counters.
 */
TEST(pin_cost_per_mode)
{
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct mm_env e;
		struct machine *m = gup_machine(&e, foll_pin_accounting_names[mode]);
		const struct cost_table *c;
		struct user_buffer ub;
		uint64_t ns, want, folds;

		ASSERT_TRUE(m != NULL);
		c = sim_costs(e.sim);
		m->node.per_cpu_nodestats[0].stat_threshold = 125;
		ASSERT_EQ(user_buffer_alloc(m, &ub, 1, 0), 0);
		ns = ENGINE_NS(&e, for (int i = 0; i < 1000; i++) {
			pin_user_pages_fast(m, &ub, 0, 1, FOLL_WRITE);
			unpin_user_page(m, &ub, 0);
		});
		want = pin_pair_base_ns(c, 1000);
		folds = 0;
		switch (mode) {
		case FOLL_PIN_ACCT_NODE:
		case FOLL_PIN_ACCT_NONE:
			folds = 2 * (1000 / 126);
			want += cost_ns(c, COST_percpu_cmpxchg, 2000) + cost_ns(c, COST_atomic_shared, 2 * folds);
			break;
		case FOLL_PIN_ACCT_PERCPU:
			want += cost_ns(c, COST_percpu_add, 2000);
			break;
		default:
			break;
		}
		ASSERT_U64_EQ(ns, want);
		ASSERT_U64_EQ(m->gup_stat_folds, folds);
		ASSERT_EQ(global_node_page_state(m, NR_FOLL_PIN_ACQUIRED),
			  mode == FOLL_PIN_ACCT_NOSTAT ? 0 : mode == FOLL_PIN_ACCT_PERCPU ? 1000 : 7 * 126);
		if (mode == FOLL_PIN_ACCT_NONE) {
			ns = ENGINE_NS(&e, for (int i = 0; i < 1000; i++) {
				get_user_pages_fast(m, &ub, 0, 1, FOLL_WRITE);
				put_page(m, &ub, 0);
			});
			ASSERT_U64_EQ(ns, cost_ns(c, COST_gup_fast_walk, 1000) + cost_ns(c, COST_gup_fast_pte, 1000) +
					  cost_ns(c, COST_atomic_local, 3000));
		}
		user_buffer_free(m, &ub);
		mm_env_destroy(&e);
	}
}

/*
 * A test of the percpu mode's readers: counts taken on two CPUs are never
 * folded (the node and global atomics stay 0) yet every reader —
 * node_page_state, global_node_page_state, /proc/vmstat — shows their
 * sum, as /proc/vmstat sums event counters.  Expect 300 acquired and 200
 * released everywhere, 0 in the folded counters, no fold.
 */
TEST(percpu_mode_sums_on_read)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "percpu");
	struct user_buffer ub;
	char *vmstat;

	ASSERT_TRUE(m != NULL);
	ASSERT_EQ(user_buffer_alloc(m, &ub, 2, 0), 0);
	for (int i = 0; i < 150; i++) {
		sim_set_engine_cpu(e.sim, (unsigned int)(i & 1));
		pin_user_pages_fast(m, &ub, 0, 2, 0);
		if (i < 100)
			unpin_user_pages(m, &ub, 0, 2);
	}
	ASSERT_EQ(m->node.vm_stat[NR_FOLL_PIN_ACQUIRED], 0);
	ASSERT_EQ(m->vm_node_stat[NR_FOLL_PIN_ACQUIRED], 0);
	ASSERT_EQ(m->gup_stat_folds, 0);
	ASSERT_EQ(node_page_state(&m->node, NR_FOLL_PIN_ACQUIRED), 300);
	ASSERT_EQ(global_node_page_state(m, NR_FOLL_PIN_RELEASED), 200);
	vmstat = mm_render(m, mm_show_vmstat);
	ASSERT_TRUE(strstr(vmstat, "\nnr_foll_pin_acquired 300\n") != NULL);
	ASSERT_TRUE(strstr(vmstat, "\nnr_foll_pin_released 200\n") != NULL);
	free(vmstat);
	unpin_user_pages(m, &ub, 0, 2);
	for (int i = 100; i < 149; i++)
		unpin_user_pages(m, &ub, 0, 2);
	user_buffer_free(m, &ub);
	mm_env_destroy(&e);
}

/*
 * A test of user_buffer_alloc: order-0 buffers come from whole blocks of
 * up to MAX_PAGE_ORDER (300 pages: one order-9 block), PMD-mapped ones
 * from one order-9 block per folio; freeing returns every page.  Expect
 * the free page count to drop by 512 and 1024 and come back, and
 * mm_check to pass.
 */
TEST(user_buffer_alloc_free)
{
	struct mm_env e;
	struct machine *m = gup_machine(&e, "node");
	struct user_buffer a, b;
	long free0;

	ASSERT_TRUE(m != NULL);
	drain_all_pages(m, NULL);
	free0 = mm_free_pages(m, ZONE_NORMAL) + mm_pcp_pages(m, ZONE_NORMAL);
	ASSERT_EQ(user_buffer_alloc(m, &a, 300, 0), 0);
	ASSERT_EQ(a.block_order, 9);
	ASSERT_EQ(a.nr_blocks, 1);
	ASSERT_EQ(a.nr_folios, 300);
	ASSERT_EQ(a.folio_pfn[299], a.block_pfn[0] + 299);
	ASSERT_EQ(user_buffer_alloc(m, &b, 1000, HPAGE_PMD_ORDER), 0);
	ASSERT_EQ(b.nr_folios, 2);
	ASSERT_EQ(b.nr_pages, 1024);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL) + mm_pcp_pages(m, ZONE_NORMAL), free0 - 512 - 1024);
	user_buffer_free(m, &a);
	user_buffer_free(m, &b);
	ASSERT_EQ(mm_free_pages(m, ZONE_NORMAL) + mm_pcp_pages(m, ZONE_NORMAL), free0);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/* ---- folds in task context: the shared lines as contended resources ---- */

struct pinner {
	struct machine	*m;
	struct user_buffer *ub;
	unsigned long	page;
	int		pins;
};

static void pinner_fn(struct sim *sim, void *arg)
{
	struct pinner *p = arg;

	(void)sim;
	for (int i = 0; i < p->pins; i++) {
		pin_user_pages_fast(p->m, p->ub, p->page, 1, 0);
		unpin_user_page(p->m, p->ub, p->page);
	}
}

/* Run `ntasks` pinners (one per CPU, 2000 pin+unpin each, threshold 1)
 * and return the CPU time of task 0 and the line-lock statistics. */
static uint64_t run_pinners(unsigned int ntasks, uint64_t *contended, uint64_t *spin_ns)
{
	char cpus[32];
	const char *kv[] = { "memory=64m", "zones=Normal:rest", cpus, NULL };
	struct mm_env e;
	struct machine *m;
	struct user_buffer ub;
	struct pinner p[8];
	struct sim_task *t0 = NULL;
	struct sim_task_stats st;

	snprintf(cpus, sizeof(cpus), "cpus=%u", ntasks);
	m = mm_env_create(&e, kv);
	if (!m || ntasks > 8)
		return 0;
	user_buffer_alloc(m, &ub, ntasks, 0);
	for (unsigned int cpu = 0; cpu < ntasks; cpu++)
		m->node.per_cpu_nodestats[cpu].stat_threshold = 1;
	for (unsigned int i = 0; i < ntasks; i++) {
		struct sim_task *t;

		p[i] = (struct pinner){ m, &ub, i, 2000 };
		t = st_task(e.sim, "pinner", (int)i, true, pinner_fn, &p[i], 0);
		if (!i)
			t0 = t;
	}
	sim_run(e.sim, SIM_TIME_NEVER);
	sim_task_stats(t0, &st);
	*contended = *spin_ns = 0;
	for (const struct sim_spinlock *l = sim_spinlocks(e.sim); l; l = l->next_registered)
		if (strstr(l->name, "vm_stat[") || strstr(l->name, "vm_node_stat[")) {
			*contended += l->stats.contended;
			*spin_ns += l->stats.wait_ns;
		}
	user_buffer_free(m, &ub);
	mm_env_destroy(&e);
	return st.cpu_ns + st.spin_ns;
}

/*
 * A test that a fold's cost comes from the machinery and grows with
 * contention: with threshold 1 every second update folds; one CPU alone
 * never waits for the shared lines, eight CPUs pinning at the same rate
 * queue on them.  Expect no contention and no spin with one task; with
 * eight, contended line acquisitions, spin time, and a higher per-task
 * time for the same work.
 */
TEST(fold_contention_grows_with_cpus)
{
	uint64_t c1, s1, c8, s8, t1, t8;

	t1 = run_pinners(1, &c1, &s1);
	t8 = run_pinners(8, &c8, &s8);
	ASSERT_TRUE(t1 > 0);
	ASSERT_EQ(c1, 0);
	ASSERT_EQ(s1, 0);
	ASSERT_TRUE(c8 > 0);
	ASSERT_TRUE(s8 > 0);
	ASSERT_TRUE(t8 > t1);
}
