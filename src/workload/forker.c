/* SPDX-License-Identifier: MIT */
/*
 * forker.c — workload kind `forker`: the PostgreSQL process shape in
 * miniature.  A parent (the postmaster) creates a shared mapping of
 * `size` bytes — shared anonymous memory (shmem) with huge_pages=off, a
 * hugetlb segment with huge_pages=on (try: hugetlb if the pool has room,
 * else shmem, as PostgreSQL's huge_pages=try) — then forks `children`
 * children (backends), each of which touches every `touch_step` bytes of
 * the mapping and then either stays (exit=0) or exits (exit=1).
 *
 * The mapping is placed at a `align`-aligned address (default 1 GiB, so
 * every whole GiB of a hugetlb segment can share its PMD page; the kernel
 * aligns hugetlb mappings to 2 MiB only).  Page tables follow memory.c:
 * each child builds its own PTE pages for a shmem mapping (fork does not
 * copy them) — one per 2 MiB touched — and shares PMD pages of a hugetlb
 * one.
 *
 * Figures: children, touches, hugetlb_wanted (pages the segment needs),
 * hugetlb_obtained (the pool at start), hugetlb_used (1 when the segment
 * is hugetlb), pgtable_pages_per_child (page-table pages a child owns,
 * after its touches, from its mm), start_failed (huge_pages=on with too
 * small a pool: the segment could not be created, nothing forked).
 * Transactions: one per child's completed touch pass (its latency is the
 * pass's duration).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/memory.h"
#include "workload/forker.h"

enum fk_huge { FK_HUGE_OFF, FK_HUGE_ON, FK_HUGE_TRY };
enum fk_touch { FK_TOUCH_READ, FK_TOUCH_WRITE };

struct fk_config {
	uint64_t	size;
	uint64_t	children;
	int		huge_pages;
	int		touch;
	uint64_t	touch_step;
	bool		exit;
	uint64_t	align;
	uint64_t	fork_interval;	/* ns */
};

static const char *const huge_names[] = { "off", "on", "try", NULL };
static const char *const touch_names[] = { "read", "write", NULL };

#define C(f) offsetof(struct fk_config, f)
static const struct opt_def fk_options[] = {
	{ "size", OPT_SIZE, C(size), "1g", 2ULL << 20, 0, NULL, 0,
	  "bytes of shared memory the parent maps (PostgreSQL's shared_buffers segment)" },
	{ "children", OPT_UINT, C(children), "4", 0, 100000, NULL, 0,
	  "children forked by the parent (--scale 1/N divides it)" },
	{ "huge_pages", OPT_ENUM, C(huge_pages), "off", 0, 0, huge_names, 0,
	  "off: shared anonymous memory; on: a hugetlb segment (fails without a big enough pool); "
	  "try: hugetlb when the pool can hold it" },
	{ "touch", OPT_ENUM, C(touch), "read", 0, 0, touch_names, 0,
	  "children touch the mapping with reads (fault-around) or writes" },
	{ "touch_step", OPT_SIZE, C(touch_step), "2m", 4096, 1ULL << 30, NULL, 0,
	  "distance between two touched addresses, a multiple of 4 KiB" },
	{ "exit", OPT_BOOL, C(exit), "0", 0, 0, NULL, 0,
	  "children exit after touching (their page tables are freed)" },
	{ "align", OPT_SIZE, C(align), "1g", 4096, 1ULL << 39, NULL, 0,
	  "alignment of the mapping's address, a power of two" },
	{ "fork_interval", OPT_TIME, C(fork_interval), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "time between two forks; bare numbers are us" },
	OPT_END
};

struct fk_state;

struct fk_child {
	struct fk_state		*st;
	struct mm_struct	*mm;
	unsigned int		id;
	unsigned long		pgtables;	/* mm_pgtable_pages after touching */
	uint64_t		touches;
};

struct fk_state {
	struct fk_config	cfg;
	struct machine		*m;
	struct sim		*sim;
	struct wl_stats		*stats;
	char			*kind_name, *child_kind_name;
	struct mm_struct	*parent;
	unsigned long		addr;
	bool			hugetlb, start_failed;
	unsigned long		hugetlb_wanted, hugetlb_obtained;
	struct fk_child		*children;
	uint64_t		forked;
	struct sim_waitq	forever;	/* tasks that stay park here */
};

static int fk_validate(const void *config, char *err, size_t errlen)
{
	const struct fk_config *c = config;

	if (c->touch_step % 4096) {
		snprintf(err, errlen, "touch_step must be a multiple of 4 KiB");
		return -1;
	}
	if (c->align & (c->align - 1)) {
		snprintf(err, errlen, "align must be a power of two");
		return -1;
	}
	return 0;
}

static int fk_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct fk_config *c = config;

	if (c->children && c->children / n == 0) {
		snprintf(err, errlen, "children=%llu would become 0: the run would fork nothing and "
			 "measure nothing (use a scale of at most 1/%llu)",
			 (unsigned long long)c->children, (unsigned long long)c->children);
		return -1;
	}
	c->children = c->children / n;
	c->size = (c->size / n + (2ULL << 20) - 1) & ~((2ULL << 20) - 1);
	return 0;
}

static void fk_child_fn(struct sim *sim, void *arg)
{
	struct fk_child *ch = arg;
	struct fk_state *st = ch->st;
	const struct fk_config *c = &st->cfg;
	sim_time_t start = sim_now(sim);

	for (uint64_t off = 0; off < c->size; off += c->touch_step) {
		mm_touch(ch->mm, st->addr + off, c->touch == FK_TOUCH_WRITE);
		ch->touches++;
		sim_cond_resched(sim);
	}
	ch->pgtables = mm_pgtable_pages(ch->mm);
	wl_stats_tx(st->stats, sim_now(sim), sim_now(sim) - start);
	if (c->exit) {
		mm_exit(ch->mm);
		ch->mm = NULL;
		return;
	}
	for (;;)
		sim_wait(sim, &st->forever, SIM_TIME_NEVER);
}

static void fk_parent_fn(struct sim *sim, void *arg)
{
	struct fk_state *st = arg;
	const struct fk_config *c = &st->cfg;
	int kind = sim_task_kind(sim, st->child_kind_name);

	st->parent = mm_create(st->m);
	if (!st->parent) {
		st->start_failed = true;
		return;
	}
	st->hugetlb_wanted = (unsigned long)((c->size + (2ULL << 20) - 1) >> 21);
	st->hugetlb_obtained = hugetlb_pool_pages(st->m);
	if (c->huge_pages != FK_HUGE_OFF && hugetlb_free_pages(st->m) >= st->hugetlb_wanted) {
		struct hugetlb_file *f = hugetlb_file_create(st->m, c->size, st->kind_name);

		st->addr = mm_mmap(st->parent, c->size, VM_READ | VM_WRITE | VM_SHARED, NULL, NULL, f, 0,
				   c->align);
		hugetlb_file_put(f);
		st->hugetlb = true;
	} else if (c->huge_pages == FK_HUGE_ON) {
		st->start_failed = true;	/* "could not map anonymous shared memory" */
	} else {
		struct shmem_object *shm = shmem_create(st->m, c->size, st->kind_name);

		st->addr = mm_mmap(st->parent, c->size, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0,
				   c->align);
		shmem_put(shm);
	}
	if (st->start_failed || !st->addr) {
		st->start_failed = true;
		return;
	}
	for (uint64_t i = 0; i < c->children; i++) {
		struct fk_child *ch = &st->children[i];
		char name[96];
		struct sim_task_config tc = { .name = name, .kind = kind, .cpu = SIM_CPU_ANY };

		if (i && c->fork_interval)
			sim_sleep(sim, c->fork_interval);
		ch->mm = mm_fork(st->parent);
		if (!ch->mm)
			break;
		ch->st = st;
		ch->id = (unsigned int)i;
		snprintf(name, sizeof(name), "%s/%llu", st->child_kind_name, (unsigned long long)i);
		sim_task_create(sim, &tc, fk_child_fn, ch, sim_now(sim));
		st->forked++;
		sim_cond_resched(sim);
	}
	for (;;)
		sim_wait(sim, &st->forever, SIM_TIME_NEVER);
}

static void *fk_start_env(const struct wl_env *env, const void *config, const char *instance,
			  struct wl_stats *stats, char *err, size_t errlen)
{
	const struct fk_config *c = config;
	struct fk_state *st = calloc(1, sizeof(*st));
	struct sim_task_config tc = { .cpu = SIM_CPU_ANY };

	(void)err;
	(void)errlen;
	if (!st)
		SIM_BUG("out of memory");
	st->cfg = *c;
	st->m = env->machine;
	st->sim = env->sim;
	st->stats = stats;
	st->kind_name = wl_kind_name("forker", instance);
	st->child_kind_name = wl_kind_name("forker-child", instance);
	st->children = calloc(c->children ? c->children : 1, sizeof(*st->children));
	if (!st->children)
		SIM_BUG("out of memory");
	sim_waitq_init(&st->forever, "forker_wait");
	tc.name = st->kind_name;
	tc.kind = sim_task_kind(env->sim, st->kind_name);
	sim_task_create(env->sim, &tc, fk_parent_fn, st, 0);
	return st;
}

static void fk_report(void *state, struct wl_report *out)
{
	struct fk_state *st = state;
	uint64_t touches = 0;
	unsigned long pgt = 0;

	for (uint64_t i = 0; i < st->forked; i++) {
		touches += st->children[i].touches;
		pgt = st->children[i].pgtables > pgt ? st->children[i].pgtables : pgt;
	}
	out->has_transactions = true;
	out->stats = st->stats;
	wl_report_figure(out, "children", (double)st->forked, "");
	wl_report_figure(out, "touches", (double)touches, "");
	wl_report_figure(out, "hugetlb_wanted", (double)st->hugetlb_wanted, "pages");
	wl_report_figure(out, "hugetlb_obtained", (double)st->hugetlb_obtained, "pages");
	wl_report_figure(out, "hugetlb_used", st->hugetlb ? 1 : 0, "");
	wl_report_figure(out, "pgtable_pages_per_child", (double)pgt, "pages");
	wl_report_figure(out, "start_failed", st->start_failed ? 1 : 0, "");
}

static void fk_destroy(void *state)
{
	struct fk_state *st = state;

	if (!st)
		return;
	/* the mm_structs and the segment were the machine's, freed with it */
	free(st->children);
	free(st->kind_name);
	free(st->child_kind_name);
	free(st);
}

/* Tasks at once: the parent and its children. */
static uint64_t fk_nr_tasks(const void *config, const char **key)
{
	const struct fk_config *c = config;

	*key = "children";
	return c->children + 1;
}

const struct workload_type forker_workload = {
	.kind = "forker",
	.help = "a parent with a shared mapping forks children that touch every 2 MiB of it (page tables)",
	.options = fk_options,
	.config_size = sizeof(struct fk_config),
	.multiple = true,
	.validate = fk_validate,
	.scale = fk_scale,
	.nr_tasks = fk_nr_tasks,
	.start_env = fk_start_env,
	.report = fk_report,
	.destroy = fk_destroy,
};
