/* SPDX-License-Identifier: MIT */
/*
 * fragment.c — workload kind `fragment`: a memory fragmenter in the spirit
 * of mmtests' thpchallenge and stress-highalloc.
 * Tasks loop every `interval` over a configurable mix of:
 *
 *   kernel    `kernel_pages` unmovable order-0 allocations (GFP_KERNEL,
 *             kernel pages) per interval, each kept for a lifetime drawn
 *             from an exponential distribution of mean `kernel_lifetime`
 *             (0: kept for the whole run), at most `kernel_max` live per
 *             task.  Once the unmovable pageblocks are full they claim or
 *             steal from movable ones (__rmqueue_claim, __rmqueue_steal,
 *             mm/page_alloc.c): this is what mixes
 *             pageblocks, as PostgreSQL's page tables do (copy_page_range, mm/memory.c).
 *   cache     page-cache churn through the page cache: `cache_bytes` of
 *             I/O per interval in `cache_io_size` pieces at random offsets
 *             of `cache_files` files on `cache_device` — reads (readahead
 *             creates clean page cache) and, for `cache_write_share`,
 *             buffered writes (dirty page cache); reclaim keeps evicting it.
 *   highorder every `highorder_every` intervals one allocation of
 *             `highorder_order` with the gfp named by `highorder_gfp`
 *             (a probe: freed at once, or held for an exponential
 *             `highorder_lifetime`).
 *
 *   highorder_gfp   gfp
 *   thp-light       GFP_TRANSHUGE_LIGHT (no direct reclaim)
 *   thp             GFP_TRANSHUGE
 *   kernel          GFP_KERNEL | __GFP_COMP
 *   kernel-noretry  GFP_KERNEL | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN
 *   pagecache       XFS page-cache gfp (GFP_HIGHUSER_MOVABLE & ~__GFP_FS)
 *                   | __GFP_WRITE | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN
 *   atomic          GFP_ATOMIC | __GFP_COMP
 *
 * Live allocations are kept in one min-heap per task ordered by expiry
 * (16 bytes each); pages kept for the whole run are only counted.  Every
 * task draws from its own RNG stream ("fragment[:NAME]", task number).
 * Attribution: "fragment_kernel", "fragment_cache", "fragment_highorder"
 * under the task kind "fragment[:NAME]".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/gfp.h"
#include "sim/bdev.h"
#include "sim/rng.h"
#include "workload/fragment.h"

enum frag_gfp { FG_THP_LIGHT, FG_THP, FG_KERNEL, FG_KERNEL_NORETRY, FG_PAGECACHE, FG_ATOMIC };

static const char *const gfp_names[] = {
	"thp-light", "thp", "kernel", "kernel-noretry", "pagecache", "atomic", NULL
};

static const gfp_t gfp_values[] = {
	[FG_THP_LIGHT]		= GFP_TRANSHUGE_LIGHT,
	[FG_THP]		= GFP_TRANSHUGE,
	[FG_KERNEL]		= GFP_KERNEL | __GFP_COMP,
	[FG_KERNEL_NORETRY]	= GFP_KERNEL | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN,
	[FG_PAGECACHE]		= (GFP_HIGHUSER_MOVABLE & ~__GFP_FS) | __GFP_WRITE | __GFP_COMP |
				  __GFP_NORETRY | __GFP_NOWARN,
	[FG_ATOMIC]		= GFP_ATOMIC | __GFP_COMP,
};

struct frag_config {
	uint64_t	tasks;
	uint64_t	interval;		/* ns */
	uint64_t	start;			/* ns */
	uint64_t	kernel_pages;
	uint64_t	kernel_lifetime;	/* ns, mean; 0 = forever */
	uint64_t	kernel_max;
	char		*cache_device;
	uint64_t	cache_files;
	uint64_t	cache_file_size;
	uint64_t	cache_bytes;
	uint64_t	cache_io_size;
	uint64_t	cache_write_share;	/* ppm */
	uint64_t	highorder_every;
	uint64_t	highorder_order;
	int		highorder_gfp;
	uint64_t	highorder_lifetime;	/* ns, mean; 0 = freed at once */
};

#define C(f) offsetof(struct frag_config, f)
static const struct opt_def frag_options[] = {
	{ "tasks", OPT_UINT, C(tasks), "1", 1, 100000, NULL, 0,
	  "fragmenter tasks (--scale 1/N divides it)" },
	{ "interval", OPT_TIME, C(interval), "1ms", 1000, 0, NULL, SIM_NSEC_PER_USEC,
	  "loop period of each task; bare numbers are us" },
	{ "start", OPT_TIME, C(start), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "virtual time the tasks start at; bare numbers are us" },
	{ "kernel_pages", OPT_UINT, C(kernel_pages), "0", 0, 1000000, NULL, 0,
	  "unmovable order-0 kernel allocations (GFP_KERNEL) per interval per task" },
	{ "kernel_lifetime", OPT_TIME, C(kernel_lifetime), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "mean lifetime of a kernel page (exponential); 0 = kept for the whole run" },
	{ "kernel_max", OPT_UINT, C(kernel_max), "0", 0, 0, NULL, 0,
	  "live kernel pages per task at most (no allocation beyond it); 0 = no limit" },
	{ "cache_device", OPT_STRING, C(cache_device), "", 0, 0, NULL, 0,
	  "the [device NAME] the churned files live on (needed when cache_bytes > 0)" },
	{ "cache_files", OPT_UINT, C(cache_files), "4", 1, 100000, NULL, 0,
	  "files per task for page-cache churn" },
	{ "cache_file_size", OPT_SIZE, C(cache_file_size), "256m", 1ULL << 20, 0, NULL, 0,
	  "size of each churned file (preallocated)" },
	{ "cache_bytes", OPT_SIZE, C(cache_bytes), "0", 0, 0, NULL, 0,
	  "page-cache I/O per interval per task" },
	{ "cache_io_size", OPT_SIZE, C(cache_io_size), "64k", 4096, 1ULL << 30, NULL, 0,
	  "bytes per read or write, at offsets aligned to it" },
	{ "cache_write_share", OPT_PERCENT, C(cache_write_share), "0%", 0, 1000000, NULL, 0,
	  "share of the page-cache I/O that is buffered writes (the rest reads)" },
	{ "highorder_every", OPT_UINT, C(highorder_every), "0", 0, 0, NULL, 0,
	  "one high-order allocation every N intervals per task; 0 = none" },
	{ "highorder_order", OPT_UINT, C(highorder_order), "9", 1, MAX_PAGE_ORDER, NULL, 0,
	  "order of the high-order allocations" },
	{ "highorder_gfp", OPT_ENUM, C(highorder_gfp), "thp-light", 0, 0, gfp_names, 0,
	  "gfp of the high-order allocations: thp-light, thp, kernel, kernel-noretry, pagecache, atomic" },
	{ "highorder_lifetime", OPT_TIME, C(highorder_lifetime), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "mean time a high-order block is held (exponential); 0 = freed at once" },
	OPT_END
};

struct live {
	sim_time_t	expiry;
	pfn_t		pfn;
	uint32_t	order;
};

/* A min-heap of live allocations by expiry (ties: lower pfn first, so the
 * order never depends on insertion details). */
struct live_heap {
	struct live	*v;
	size_t		n, cap;
};

static bool live_less(const struct live *a, const struct live *b)
{
	return a->expiry < b->expiry || (a->expiry == b->expiry && a->pfn < b->pfn);
}

static void heap_push(struct live_heap *h, struct live x)
{
	size_t i;

	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 1024;
		h->v = realloc(h->v, h->cap * sizeof(*h->v));
		if (!h->v)
			SIM_BUG("out of memory for the fragmenter's live list");
	}
	i = h->n++;
	while (i && live_less(&x, &h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static struct live heap_pop(struct live_heap *h)
{
	struct live top = h->v[0], x = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && live_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!live_less(&h->v[c], &x))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

struct frag_state;

struct frag_task {
	struct frag_state *st;
	struct sim_rng	rng;
	struct inode	**files;
	struct live_heap kernel, highorder;
	uint64_t	kernel_live, kernel_allocated, kernel_failed;
	uint64_t	ho_attempts, ho_ok;
	uint64_t	cache_read, cache_written, cache_errors;
	uint64_t	ticks;
};

struct frag_state {
	struct frag_config	cfg;
	struct machine		*m;
	struct super_block	*sb;
	char			*kind_name;
	struct frag_task	*tasks;
};

static int frag_validate(const void *config, char *err, size_t errlen)
{
	const struct frag_config *c = config;

	if (c->cache_bytes && (!c->cache_device || !c->cache_device[0])) {
		snprintf(err, errlen, "cache_bytes needs cache_device= (the [device NAME] for the files)");
		return -1;
	}
	if (c->cache_io_size & (c->cache_io_size - 1)) {
		snprintf(err, errlen, "cache_io_size must be a power of two");
		return -1;
	}
	if (c->cache_bytes && c->cache_io_size > c->cache_file_size) {
		snprintf(err, errlen, "cache_io_size is larger than cache_file_size");
		return -1;
	}
	return 0;
}

/* --scale 1/N: N-fold fewer tasks; what fewer tasks cannot take away
 * (a task count cannot go below 1) comes off each task's amounts, so the
 * whole workload shrinks N-fold with the machine. */
static int frag_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct frag_config *c = config;
	uint64_t tasks = c->tasks / n ? c->tasks / n : 1;
	uint64_t f = (uint64_t)n * tasks / c->tasks;	/* per-task factor still owed */

	c->tasks = tasks;
	if (f > 1) {
		c->kernel_pages = c->kernel_pages / f ? c->kernel_pages / f : (c->kernel_pages ? 1 : 0);
		c->kernel_max /= f;
		c->cache_bytes = c->cache_bytes / f >= c->cache_io_size ? c->cache_bytes / f
					: (c->cache_bytes ? c->cache_io_size : 0);
	}
	c->cache_file_size = c->cache_file_size / n >= (1ULL << 20) ? c->cache_file_size / n : 1ULL << 20;
	if (c->cache_io_size > c->cache_file_size)
		c->cache_io_size = c->cache_file_size;
	(void)err;
	(void)errlen;
	return 0;
}

static sim_time_t draw_lifetime(struct frag_task *t, uint64_t mean)
{
	double v = rng_exp(&t->rng, (double)mean);

	return v < 1.0 ? 1 : (sim_time_t)v;
}

/* Free what has expired. */
static void expire(struct machine *m, struct live_heap *h, sim_time_t now, uint64_t *live)
{
	while (h->n && h->v[0].expiry <= now) {
		struct live x = heap_pop(h);

		free_pages(m, x.pfn, x.order);
		if (live)
			(*live)--;
	}
}

static void frag_kernel(struct sim *sim, struct frag_task *t)
{
	const struct frag_config *c = &t->st->cfg;
	struct machine *m = t->st->m;

	sim_path_push(sim, "fragment_kernel");
	expire(m, &t->kernel, sim_now(sim), &t->kernel_live);
	for (uint64_t i = 0; i < c->kernel_pages; i++) {
		pfn_t pfn;

		if (c->kernel_max && t->kernel_live >= c->kernel_max)
			break;
		pfn = alloc_pages(m, GFP_KERNEL, 0, PGTY_KERNEL);
		if (pfn == PFN_NONE) {
			t->kernel_failed++;
			break;
		}
		t->kernel_allocated++;
		t->kernel_live++;
		if (c->kernel_lifetime)
			heap_push(&t->kernel, (struct live){ sim_now(sim) + draw_lifetime(t, c->kernel_lifetime),
							     pfn, 0 });
	}
	sim_path_pop(sim);
}

static void frag_cache(struct sim *sim, struct frag_task *t)
{
	const struct frag_config *c = &t->st->cfg;
	struct machine *m = t->st->m;
	uint64_t slots = c->cache_file_size / c->cache_io_size;

	sim_path_push(sim, "fragment_cache");
	for (uint64_t done = 0; done < c->cache_bytes; done += c->cache_io_size) {
		struct inode *inode = t->files[rng_below(&t->rng, c->cache_files)];
		uint64_t pos = rng_below(&t->rng, slots) * c->cache_io_size;
		long ret;

		if (c->cache_write_share && rng_below(&t->rng, 1000000) < c->cache_write_share) {
			ret = ksys_pwrite64(m, inode, pos, c->cache_io_size);
			if (ret > 0)
				t->cache_written += (uint64_t)ret;
		} else {
			ret = ksys_pread64(m, inode, pos, c->cache_io_size);
			if (ret > 0)
				t->cache_read += (uint64_t)ret;
		}
		if (ret < 0)
			t->cache_errors++;
	}
	sim_path_pop(sim);
}

static void frag_highorder(struct sim *sim, struct frag_task *t)
{
	const struct frag_config *c = &t->st->cfg;
	struct machine *m = t->st->m;
	unsigned int order = (unsigned int)c->highorder_order;
	pfn_t pfn;

	sim_path_push(sim, "fragment_highorder");
	expire(m, &t->highorder, sim_now(sim), NULL);
	t->ho_attempts++;
	pfn = alloc_pages(m, gfp_values[c->highorder_gfp], order, PGTY_KERNEL);
	if (pfn != PFN_NONE) {
		t->ho_ok++;
		if (c->highorder_lifetime)
			heap_push(&t->highorder, (struct live){
				sim_now(sim) + draw_lifetime(t, c->highorder_lifetime), pfn, order });
		else
			free_pages(m, pfn, order);
	}
	sim_path_pop(sim);
}

static void frag_task_fn(struct sim *sim, void *arg)
{
	struct frag_task *t = arg;
	const struct frag_config *c = &t->st->cfg;
	sim_time_t next = sim_now(sim);

	for (;;) {
		next += c->interval;
		if (c->kernel_pages)
			frag_kernel(sim, t);
		if (c->cache_bytes)
			frag_cache(sim, t);
		if (c->highorder_every && ++t->ticks % c->highorder_every == 0)
			frag_highorder(sim, t);
		if (sim_now(sim) < next)
			sim_sleep_until(sim, next);
		else
			sim_cond_resched(sim);
	}
}

static void *frag_start_env(const struct wl_env *env, const void *config, const char *instance,
			    struct wl_stats *stats, char *err, size_t errlen)
{
	const struct frag_config *c = config;
	struct frag_state *st = calloc(1, sizeof(*st));
	int kind;

	(void)stats;
	if (!st)
		SIM_BUG("out of memory");
	st->cfg = *c;
	st->m = env->machine;
	if (c->cache_bytes) {
		struct bdev *bdev = wl_env_device(env, c->cache_device, err, errlen);

		if (!bdev) {
			free(st);
			return NULL;
		}
		st->sb = fs_mount(st->m, bdev, c->cache_device, bdev_size(bdev));
	}
	st->kind_name = wl_kind_name("fragment", instance);
	st->tasks = calloc(c->tasks, sizeof(*st->tasks));
	if (!st->tasks)
		SIM_BUG("out of memory");
	kind = sim_task_kind(env->sim, st->kind_name);
	for (uint64_t i = 0; i < c->tasks; i++) {
		struct frag_task *t = &st->tasks[i];
		char name[96];
		struct sim_task_config tc = { .name = name, .kind = kind, .cpu = SIM_CPU_ANY };

		t->st = st;
		rng_init(&t->rng, sim_seed(env->sim), rng_stream_id(st->kind_name, i));
		if (c->cache_bytes) {
			t->files = calloc(c->cache_files, sizeof(*t->files));
			if (!t->files)
				SIM_BUG("out of memory");
			for (uint64_t f = 0; f < c->cache_files; f++) {
				snprintf(name, sizeof(name), "%s/%llu.%llu", st->kind_name, (unsigned long long)i,
					 (unsigned long long)f);
				t->files[f] = fs_create(st->sb, name);
				vfs_fallocate(st->m, t->files[f], 0, c->cache_file_size);
			}
		}
		snprintf(name, sizeof(name), "%s/%llu", st->kind_name, (unsigned long long)i);
		sim_task_create(env->sim, &tc, frag_task_fn, t, c->start);
	}
	return st;
}

static void frag_report(void *state, struct wl_report *out)
{
	struct frag_state *st = state;
	uint64_t live = 0, alloc = 0, failed = 0, ho = 0, ho_ok = 0, rd = 0, wr = 0, errs = 0;

	for (uint64_t i = 0; i < st->cfg.tasks; i++) {
		const struct frag_task *t = &st->tasks[i];

		live += t->kernel_live;
		alloc += t->kernel_allocated;
		failed += t->kernel_failed;
		ho += t->ho_attempts;
		ho_ok += t->ho_ok;
		rd += t->cache_read;
		wr += t->cache_written;
		errs += t->cache_errors;
	}
	out->has_transactions = false;
	wl_report_figure(out, "fragment_kernel_allocated", (double)alloc, "");
	wl_report_figure(out, "fragment_kernel_live", (double)live, "");
	wl_report_figure(out, "fragment_kernel_failed", (double)failed, "");
	wl_report_figure(out, "fragment_cache_read_mib", (double)rd / (1 << 20), "MiB");
	wl_report_figure(out, "fragment_cache_written_mib", (double)wr / (1 << 20), "MiB");
	wl_report_figure(out, "fragment_cache_errors", (double)errs, "");
	wl_report_figure(out, "fragment_highorder_attempts", (double)ho, "");
	wl_report_figure(out, "fragment_highorder_success", ho ? 100.0 * (double)ho_ok / (double)ho : 0, "%");
}

static void frag_destroy(void *state)
{
	struct frag_state *st = state;

	if (!st)
		return;
	for (uint64_t i = 0; i < st->cfg.tasks; i++) {
		free(st->tasks[i].kernel.v);
		free(st->tasks[i].highorder.v);
		free(st->tasks[i].files);
	}
	free(st->tasks);
	free(st->kind_name);
	free(st);
}

static uint64_t frag_nr_tasks(const void *config, const char **key)
{
	const struct frag_config *c = config;

	*key = "tasks";
	return c->tasks;
}

const struct workload_type fragment_workload = {
	.kind = "fragment",
	.help = "memory fragmenter: unmovable kernel pages with lifetimes, page-cache churn, high-order probes",
	.options = frag_options,
	.config_size = sizeof(struct frag_config),
	.multiple = true,
	.validate = frag_validate,
	.scale = frag_scale,
	.nr_tasks = frag_nr_tasks,
	.start_env = frag_start_env,
	.report = frag_report,
	.destroy = frag_destroy,
};
