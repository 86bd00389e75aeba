/* SPDX-License-Identifier: MIT */
/*
 * writer.c — workload kind `writer`: tasks doing buffered writes to files
 * on a block device through the page cache (ksys_pwrite64 -> the iomap
 * loop -> __filemap_get_folio), with an optional fsync / fdatasync /
 * sync_file_range policy.  It is the test vehicle of the large-folio
 * write path (scenarios/large-writes.ini) and a building block for
 * WAL-like streams.
 *
 * Each task owns one file "NAME.K" on the device's filesystem (mounted on
 * first use, mm/fs.c) and loops:
 *
 *   think     sleep `think` (exponential mean), or pace to `rate` writes/s
 *   ---- latency starts ----
 *   write     the next size of write_sizes (cycled); the offset is
 *             sequential or uniformly random below file_size, rounded up
 *             (sequential) or down (random) to `alignment` (0: the write's
 *             own size, "naturally aligned"), wrapping at file_size
 *   sync      every sync_every writes: fsync, fdatasync or
 *             sync_file_range(WRITE) of the bytes written since the last one
 *   ---- latency ends: one transaction ----
 *
 * until `count` writes (0: until the run ends).  Every task draws from its
 * own RNG stream ("writer[:NAME]", task number).  Attribution: the kernel
 * call chain (ksys_pwrite64 -> ... -> filemap_alloc_folio) under the task
 * kind "writer[:NAME]".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "sim/bdev.h"
#include "sim/rng.h"
#include "workload/writer.h"

#define WR_MAX_SIZES	16

enum wr_pattern { WR_SEQUENTIAL, WR_RANDOM };
enum wr_sync { WR_SYNC_NONE, WR_SYNC_FSYNC, WR_SYNC_FDATASYNC, WR_SYNC_RANGE };

struct wr_config {
	char		*device;
	uint64_t	file_size;
	char		*write_sizes;
	uint64_t	alignment;
	int		pattern;
	uint64_t	rate;		/* writes/s per task, 0 = unpaced */
	uint64_t	think;		/* ns */
	int		sync;
	uint64_t	sync_every;
	uint64_t	tasks;
	uint64_t	count;
	bool		preallocate;
	uint64_t	start;		/* ns */
};

static const char *const pattern_names[] = { "sequential", "random", NULL };
static const char *const sync_names[] = { "none", "fsync", "fdatasync", "sync_file_range", NULL };

#define C(f) offsetof(struct wr_config, f)
static const struct opt_def wr_options[] = {
	{ "device", OPT_STRING, C(device), "", 0, 0, NULL, 0,
	  "the [device NAME] holding the files (one filesystem per device)" },
	{ "file_size", OPT_SIZE, C(file_size), "1g", 1ULL << 20, 0, NULL, 0,
	  "size of each task's file; offsets wrap around at it" },
	{ "write_sizes", OPT_STRING, C(write_sizes), "8k", 0, 0, NULL, 0,
	  "comma-separated write sizes, used in turn (e.g. 8k,64k,1m)" },
	{ "alignment", OPT_SIZE, C(alignment), "0", 0, 1ULL << 30, NULL, 0,
	  "offset alignment in bytes, a power of two; 0 = each write's own size" },
	{ "pattern", OPT_ENUM, C(pattern), "sequential", 0, 0, pattern_names, 0,
	  "sequential (appending, wrapping at file_size) or random offsets" },
	{ "rate", OPT_UINT, C(rate), "0", 0, 100000000, NULL, 0,
	  "writes per second per task (evenly paced), 0 = as fast as possible" },
	{ "think", OPT_TIME, C(think), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "mean think time between writes (exponential), 0 = none; bare numbers are us" },
	{ "sync", OPT_ENUM, C(sync), "none", 0, 0, sync_names, 0,
	  "what to call every sync_every writes: none, fsync, fdatasync, sync_file_range (WRITE)" },
	{ "sync_every", OPT_UINT, C(sync_every), "1", 1, 1000000000, NULL, 0,
	  "writes between two sync calls" },
	{ "tasks", OPT_UINT, C(tasks), "1", 1, 100000, NULL, 0,
	  "writer tasks, one file each (--scale 1/N divides it)" },
	{ "count", OPT_UINT, C(count), "0", 0, 0, NULL, 0,
	  "writes per task, then the task stops; 0 = until the run ends" },
	{ "preallocate", OPT_BOOL, C(preallocate), "0", 0, 0, NULL, 0,
	  "fallocate each file to file_size at start (no size changes, so fdatasync logs nothing)" },
	{ "start", OPT_TIME, C(start), "0", 0, 0, NULL, SIM_NSEC_PER_USEC,
	  "virtual time the tasks start writing at; bare numbers are us" },
	OPT_END
};

struct wr_state;

struct wr_task {
	struct wr_state	*st;
	struct sim_rng	rng;
	struct inode	*inode;
	uint64_t	pos;		/* next sequential offset */
	uint64_t	writes, bytes, syncs, errors;
	uint64_t	since_sync_start, since_sync_bytes;
};

struct wr_state {
	struct wr_config	cfg;
	struct machine		*m;
	struct super_block	*sb;
	struct wl_stats		*stats;
	uint64_t		sizes[WR_MAX_SIZES];
	unsigned int		nr_sizes;
	char			*kind_name;
	struct wr_task		*tasks;
};

/* "8k,64k,1m" -> sizes; 0 or -1 with a message. */
static int parse_sizes(const char *text, uint64_t *sizes, unsigned int *n, char *err, size_t errlen)
{
	const struct opt_def size_opt = { "write_sizes", OPT_SIZE, 0, NULL, 1, 1ULL << 30, NULL, 0, "" };
	char buf[256];
	char *save = NULL, *tok;

	if (!text || !text[0] || strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "write_sizes must list 1 to %d sizes", WR_MAX_SIZES);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		while (*tok == ' ')
			tok++;
		if (*n == WR_MAX_SIZES) {
			snprintf(err, errlen, "write_sizes lists more than %d sizes", WR_MAX_SIZES);
			return -1;
		}
		if (opt_parse_value(&size_opt, &v, tok, err, errlen))
			return -1;
		sizes[(*n)++] = v;
	}
	if (!*n) {
		snprintf(err, errlen, "write_sizes must list 1 to %d sizes", WR_MAX_SIZES);
		return -1;
	}
	return 0;
}

static int wr_validate(const void *config, char *err, size_t errlen)
{
	const struct wr_config *c = config;
	uint64_t sizes[WR_MAX_SIZES];
	unsigned int n;

	if (!c->device || !c->device[0]) {
		snprintf(err, errlen, "device= is required (the [device NAME] the files live on)");
		return -1;
	}
	if (parse_sizes(c->write_sizes, sizes, &n, err, errlen))
		return -1;
	if (c->alignment & (c->alignment - 1)) {
		snprintf(err, errlen, "alignment must be 0 or a power of two");
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (sizes[i] > c->file_size) {
			snprintf(err, errlen, "a write size is larger than file_size");
			return -1;
		}
	}
	if (c->rate && c->think) {
		snprintf(err, errlen, "rate and think cannot both be set");
		return -1;
	}
	return 0;
}

static int wr_scale(void *config, unsigned int n, char *err, size_t errlen)
{
	struct wr_config *c = config;

	(void)err;
	(void)errlen;
	c->tasks = c->tasks / n ? c->tasks / n : 1;
	return 0;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static uint64_t pow2_at_least(uint64_t x)
{
	uint64_t p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

static void wr_do_sync(struct wr_task *t)
{
	struct wr_state *st = t->st;

	switch (st->cfg.sync) {
	case WR_SYNC_FSYNC:
		vfs_fsync(st->m, t->inode, false);
		break;
	case WR_SYNC_FDATASYNC:
		vfs_fsync(st->m, t->inode, true);
		break;
	case WR_SYNC_RANGE:
		ksys_sync_file_range(st->m, t->inode, t->since_sync_start, t->since_sync_bytes,
				     SYNC_FILE_RANGE_WRITE);
		break;
	default:
		return;
	}
	t->syncs++;
}

static void wr_task_fn(struct sim *sim, void *arg)
{
	struct wr_task *t = arg;
	struct wr_state *st = t->st;
	const struct wr_config *c = &st->cfg;
	sim_time_t next = sim_now(sim);

	if (c->preallocate)
		vfs_fallocate(st->m, t->inode, 0, c->file_size);
	for (uint64_t i = 0; !c->count || i < c->count; i++) {
		uint64_t size = st->sizes[i % st->nr_sizes];
		uint64_t align = c->alignment ? c->alignment : pow2_at_least(size);
		uint64_t pos;
		sim_time_t start;
		long ret;

		if (c->rate) {
			next += SIM_NSEC_PER_SEC / c->rate;
			sim_sleep_until(sim, next);
		} else if (c->think) {
			sim_sleep(sim, (sim_time_t)rng_exp(&t->rng, (double)c->think));
		}
		if (c->pattern == WR_RANDOM) {
			uint64_t slots = (c->file_size - size) / align + 1;

			pos = rng_below(&t->rng, slots) * align;
		} else {
			pos = round_up(t->pos, align);
			if (pos + size > c->file_size)
				pos = 0;
			t->pos = pos + size;
		}
		start = sim_now(sim);
		ret = ksys_pwrite64(st->m, t->inode, pos, size);
		if (ret < 0) {
			t->errors++;
		} else {
			t->writes++;
			t->bytes += (uint64_t)ret;
		}
		if (!t->since_sync_bytes)
			t->since_sync_start = pos;
		t->since_sync_bytes = pos + size - t->since_sync_start;
		if ((i + 1) % c->sync_every == 0) {
			wr_do_sync(t);
			t->since_sync_bytes = 0;
		}
		wl_stats_tx(st->stats, sim_now(sim), sim_now(sim) - start);
		sim_cond_resched(sim);
	}
}

static void *wr_start_env(const struct wl_env *env, const void *config, const char *instance,
			  struct wl_stats *stats, char *err, size_t errlen)
{
	const struct wr_config *c = config;
	struct wr_state *st = calloc(1, sizeof(*st));
	struct sim *sim = env->sim;
	struct bdev *bdev;
	int kind;

	if (!st)
		SIM_BUG("out of memory");
	st->cfg = *c;
	st->m = env->machine;
	st->stats = stats;
	bdev = wl_env_device(env, c->device, err, errlen);
	if (!bdev || parse_sizes(c->write_sizes, st->sizes, &st->nr_sizes, err, errlen)) {
		free(st);
		return NULL;
	}
	st->sb = fs_mount(st->m, bdev, c->device, bdev_size(bdev));
	st->kind_name = wl_kind_name("writer", instance);
	st->tasks = calloc(c->tasks, sizeof(*st->tasks));
	if (!st->tasks)
		SIM_BUG("out of memory");
	kind = sim_task_kind(sim, st->kind_name);
	for (uint64_t i = 0; i < c->tasks; i++) {
		char name[96];
		struct sim_task_config tc = { .name = name, .kind = kind, .cpu = SIM_CPU_ANY };

		snprintf(name, sizeof(name), "%s/%llu", st->kind_name, (unsigned long long)i);
		st->tasks[i].st = st;
		st->tasks[i].inode = fs_create(st->sb, name);
		rng_init(&st->tasks[i].rng, sim_seed(sim), rng_stream_id(st->kind_name, i));
		sim_task_create(sim, &tc, wr_task_fn, &st->tasks[i], c->start);
	}
	return st;
}

static void wr_report(void *state, struct wl_report *out)
{
	struct wr_state *st = state;
	uint64_t writes = 0, bytes = 0, syncs = 0, errors = 0;

	for (uint64_t i = 0; i < st->cfg.tasks; i++) {
		writes += st->tasks[i].writes;
		bytes += st->tasks[i].bytes;
		syncs += st->tasks[i].syncs;
		errors += st->tasks[i].errors;
	}
	out->has_transactions = true;
	out->stats = st->stats;
	wl_report_figure(out, "writes", (double)writes, "");
	wl_report_figure(out, "written_mib", (double)bytes / (1 << 20), "MiB");
	wl_report_figure(out, "syncs", (double)syncs, "");
	wl_report_figure(out, "write_errors", (double)errors, "");
}

static void wr_destroy(void *state)
{
	struct wr_state *st = state;

	if (!st)
		return;
	/* inodes belong to the machine's filesystem (freed with it) */
	free(st->tasks);
	free(st->kind_name);
	free(st);
}

static uint64_t wr_nr_tasks(const void *config, const char **key)
{
	const struct wr_config *c = config;

	*key = "tasks";
	return c->tasks;
}

const struct workload_type writer_workload = {
	.kind = "writer",
	.help = "buffered writes through the page cache (large folios, writeback, fsync policies)",
	.options = wr_options,
	.config_size = sizeof(struct wr_config),
	.multiple = true,
	.validate = wr_validate,
	.scale = wr_scale,
	.nr_tasks = wr_nr_tasks,
	.start_env = wr_start_env,
	.report = wr_report,
	.destroy = wr_destroy,
};
