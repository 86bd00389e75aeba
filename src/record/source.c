/* SPDX-License-Identifier: MIT */
/*
 * source.c — where the recorder's /proc text and time come from (the
 * interface is described in internal.h).
 *
 * Two implementations of struct rec_source_ops:
 *
 *   live    /proc of the running kernel, CLOCK_MONOTONIC for intervals,
 *           CLOCK_REALTIME once for the epoch; waits in sigtimedwait().
 *   replay  --proc-root DIR, captured files; a virtual clock that jumps to
 *           the next sample time at once, so replays are fast and give the
 *           same bytes every time.
 *
 *   DIR/                       DIR/
 *     start-epoch  (optional)    vmstat        one snapshot, read
 *     sys/kernel/osrelease       buddyinfo     at every sample
 *     stat                       ...
 *     0001/vmstat ...
 *     0002/vmstat ...          (numbered: one directory per sample)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/internal.h"

void rec_text_release(struct rec_text *t)
{
	free(t->buf);
	t->buf = NULL;
	t->len = t->cap = 0;
}

int rec_text_set(struct rec_text *t, const char *s, size_t len)
{
	if (t->cap < len + 1) {
		char *b = realloc(t->buf, len + 1);

		if (!b)
			return -ENOMEM;
		t->buf = b;
		t->cap = len + 1;
	}
	memcpy(t->buf, s, len);
	t->buf[len] = '\0';
	t->len = len;
	return 0;
}

int rec_read_file(const char *path, struct rec_text *t)
{
	return rec_read_file_max(path, t, REC_MAX_PROC_BYTES);
}

int rec_read_file_max(const char *path, struct rec_text *t, size_t max)
{
	int fd, err = 0;

	snprintf(t->path, sizeof(t->path), "%s", path);
	t->len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (t->cap - t->len < 4096 + 1) {
			size_t cap = t->cap ? t->cap * 2 : 65536;
			char *b = realloc(t->buf, cap);

			if (!b) {
				err = -ENOMEM;
				break;
			}
			t->buf = b;
			t->cap = cap;
		}
		n = read(fd, t->buf + t->len, t->cap - t->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		t->len += (size_t)n;
		if (t->len > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err)
		return err;
	if (!t->buf) {
		t->buf = malloc(1);
		if (!t->buf)
			return -ENOMEM;
		t->cap = 1;
	}
	t->buf[t->len] = '\0';
	if (memchr(t->buf, '\0', t->len))
		return -EILSEQ;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of directory `path`, sorted (never in directory order). */
static int list_path(const char *path, char ***names, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t cap = 0;
	int err = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			char **v = realloc(*names, (cap ? 2 * cap : 16) * sizeof(*v));

			if (!v) {
				err = -ENOMEM;
				break;
			}
			*names = v;
			cap = cap ? 2 * cap : 16;
		}
		if (!((*names)[*n] = strdup(e->d_name))) {
			err = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (err) {
		while (*n)
			free((*names)[--*n]);
		free(*names);
		*names = NULL;
		return err;
	}
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_name);
	return 0;
}

/* ---- live ---------------------------------------------------------------- */

#define LIVE_DEBUGFS	"/sys/kernel/debug"

static void live_path(const struct rec_source *s, const char *file, char *path, size_t len)
{
	if (strncmp(file, "debugfs/", 8) == 0)
		snprintf(path, len, "%s/%s", LIVE_DEBUGFS, file + 8);
	else
		snprintf(path, len, "%s/%s", s->root, file);
}

static int live_list(struct rec_source *s, const char *dir, bool per_sample,
		     char ***names, size_t *n, char *path, size_t pathlen)
{
	live_path(s, dir, path, pathlen);
	return list_path(path, names, n);
}


static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * (int64_t)NS_PER_SEC + ts.tv_nsec;
}

static int live_read(struct rec_source *s, const char *file, bool per_sample, struct rec_text *t)
{
	char path[4096];

	if (strcmp(file, "perf/tracepoints") == 0)
		return rec_perf_read(&s->perf, t);
	live_path(s, file, path, sizeof(path));
	return rec_read_file(path, t);
}

static bool live_select(struct rec_source *s, unsigned int k)
{
	s->cur = k;
	return true;
}

static uint64_t live_now(struct rec_source *s)
{
	return (uint64_t)(clock_ns(CLOCK_MONOTONIC) - s->mono0_ns);
}

static int live_wait_until(struct rec_source *s, uint64_t t, const sigset_t *set)
{
	for (;;) {
		uint64_t now = live_now(s);
		struct timespec ts;
		int sig;

		if (now >= t)
			return 0;
		ts.tv_sec = (time_t)((t - now) / NS_PER_SEC);
		ts.tv_nsec = (long)((t - now) % NS_PER_SEC);
		sig = sigtimedwait(set, NULL, &ts);
		if (sig > 0)
			return sig;
		/* EAGAIN: the time has come (checked above); EINTR: again */
	}
}

static const struct rec_source_ops live_ops = {
	.name = "live",
	.read = live_read,
	.list = live_list,
	.select = live_select,
	.now = live_now,
	.wait_until = live_wait_until,
};

/* ---- replay -------------------------------------------------------------- */

static void replay_path(const struct rec_source *s, const char *file, bool per_sample,
			char *path, size_t len)
{
	if (per_sample && s->nr_samples)
		snprintf(path, len, "%s/%04u/%s", s->root, s->cur, file);
	else
		snprintf(path, len, "%s/%s", s->root, file);
}

static int replay_read(struct rec_source *s, const char *file, bool per_sample, struct rec_text *t)
{
	char path[4096];

	replay_path(s, file, per_sample, path, sizeof(path));
	return rec_read_file(path, t);
}

static int replay_list(struct rec_source *s, const char *dir, bool per_sample,
		       char ***names, size_t *n, char *path, size_t pathlen)
{
	replay_path(s, dir, per_sample, path, pathlen);
	return list_path(path, names, n);
}

static bool replay_select(struct rec_source *s, unsigned int k)
{
	if (s->nr_samples && k > s->nr_samples)
		return false;
	s->cur = k;
	return true;
}

static uint64_t replay_now(struct rec_source *s)
{
	return s->vnow;
}

static int replay_wait_until(struct rec_source *s, uint64_t t, const sigset_t *set)
{
	struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(set, NULL, &zero);

	if (sig > 0)
		return sig;
	if (t > s->vnow)
		s->vnow = t;
	return 0;
}

static const struct rec_source_ops replay_ops = {
	.name = "replay",
	.read = replay_read,
	.list = replay_list,
	.select = replay_select,
	.now = replay_now,
	.wait_until = replay_wait_until,
};

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* DIR/start-epoch: one integer (seconds), optional. */
static int replay_epoch(struct rec_source *s, char *err, size_t errlen)
{
	struct rec_text t = { 0 };
	char path[4096], *end;
	long long v;
	int rc;

	snprintf(path, sizeof(path), "%s/start-epoch", s->root);
	rc = rec_read_file(path, &t);
	if (rc == -ENOENT) {
		rec_text_release(&t);
		return 0;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		rec_text_release(&t);
		return -1;
	}
	errno = 0;
	v = strtoll(t.buf, &end, 10);
	if (errno || end == t.buf || (*end != '\n' && *end != '\0') || (*end == '\n' && end[1]) ||
	    v < 0 || v > 1000000000000LL) {
		snprintf(err, errlen, "%s:1: invalid epoch seconds (want one integer)", path);
		rec_text_release(&t);
		return -1;
	}
	s->epoch_ns = (int64_t)v * (int64_t)NS_PER_SEC;
	rec_text_release(&t);
	return 0;
}

int rec_source_open(struct rec_source *s, const char *proc_root, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (!proc_root) {
		s->ops = &live_ops;
		s->root = strdup("/proc");
		s->mono0_ns = clock_ns(CLOCK_MONOTONIC);
		s->epoch_ns = clock_ns(CLOCK_REALTIME);
		return s->root ? 0 : -1;
	}
	if (!is_dir(proc_root)) {
		snprintf(err, errlen, "--proc-root '%s': not a directory", proc_root);
		return -1;
	}
	s->ops = &replay_ops;
	s->root = strdup(proc_root);
	if (!s->root)
		return -1;
	for (;;) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%04u", proc_root, s->nr_samples + 1);
		if (!is_dir(path))
			break;
		s->nr_samples++;
	}
	if (replay_epoch(s, err, errlen)) {
		rec_source_close(s);
		return -1;
	}
	return 0;
}

void rec_source_close(struct rec_source *s)
{
	rec_perf_close(s->perf);
	s->perf = NULL;
	free(s->root);
	s->root = NULL;
}
