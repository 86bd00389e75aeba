/* SPDX-License-Identifier: MIT */
/*
 * perf.c — the live trace-counts sample: how many times each tracepoint of
 * rpt_trace_events (report/result.h) fired since the recording started,
 * counted as `perf stat -a -e kmem:mm_page_pcpu_drain ...` counts them.
 *
 * One counting perf event (perf_event_open(2): PERF_TYPE_TRACEPOINT, the
 * event's tracefs id, no sampling, no ring buffer) per tracepoint and per
 * CPU that is online when the first sample is taken; a sample reads each
 * counter and sums over CPUs.  The ids come from
 * /sys/kernel/tracing/events/SUBSYSTEM/EVENT/id (or the same under
 * /sys/kernel/debug/tracing).  Needs root or CAP_PERFMON (system-wide
 * counting; the id files are root's); without it, or without tracefs,
 * the file is reported missing with the reason.  A tracepoint the kernel
 * lacks is left out of the sample (the parser allows that); CPUs brought
 * online later are not counted.  Each hit costs the kernel a counter
 * increment while counting (docs/record.md, "Tracepoint counts").
 *
 * The events need one descriptor per tracepoint and CPU (9 x 96 on the
 * case's machine); when that exceeds the soft RLIMIT_NOFILE the limit is
 * raised up to the hard one, and rec_perf_child_limits() puts it back in
 * the recorded command before it runs.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/internal.h"

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

struct rec_perf {
	int		*fd;		/* [event][cpu], -1 where not opened */
	unsigned int	nr_cpus;
	bool		have[RPT_NR_TRACE_EVENTS];
	int		err;		/* -errno when nothing could be counted */
	char		err_path[4096];
};

static struct rlimit nofile_saved;
static bool nofile_raised;

void rec_perf_child_limits(void)
{
	if (nofile_raised)
		(void)setrlimit(RLIMIT_NOFILE, &nofile_saved);
}

/* The tracefs id of "subsystem:event": > 0, or -errno with `path` set to
 * the first path tried. */
static long long tracepoint_id(const char *event, char *path, size_t pathlen)
{
	const char *colon = strchr(event, ':');
	struct rec_text t = { 0 };
	long long id = -ENOENT;

	for (size_t r = 0; r < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); r++) {
		char p[512], *end;
		int rc;

		snprintf(p, sizeof(p), "%s/events/%.*s/%s/id", tracefs_roots[r], (int)(colon - event),
			 event, colon + 1);
		if (r == 0)
			snprintf(path, pathlen, "%s", p);
		rc = rec_read_file(p, &t);
		if (rc == -ENOENT)
			continue;
		if (rc) {
			id = rc;
			snprintf(path, pathlen, "%s", p);
			break;
		}
		errno = 0;
		id = strtoll(t.buf, &end, 10);
		if (errno || end == t.buf || (*end != '\n' && *end != '\0') || id <= 0) {
			id = -EILSEQ;
			snprintf(path, pathlen, "%s", p);
		}
		break;
	}
	rec_text_release(&t);
	return id;
}

static int perf_open_counter(long long id, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (uint64_t)id;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Enough descriptors for `need` more: raise the soft limit if it is short. */
static void want_descriptors(unsigned int need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need + 256)
		return;
	if (!nofile_raised)
		nofile_saved = rl;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need + 256 ? need + 256 : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
		nofile_raised = true;
}

static struct rec_perf *perf_open(void)
{
	struct rec_perf *p = calloc(1, sizeof(*p));
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	bool any = false;

	if (!p)
		return NULL;
	p->nr_cpus = cpus > 0 ? (unsigned int)cpus : 1;
	p->fd = malloc((size_t)RPT_NR_TRACE_EVENTS * p->nr_cpus * sizeof(*p->fd));
	if (!p->fd) {
		free(p);
		return NULL;
	}
	for (size_t i = 0; i < (size_t)RPT_NR_TRACE_EVENTS * p->nr_cpus; i++)
		p->fd[i] = -1;
	want_descriptors(RPT_NR_TRACE_EVENTS * p->nr_cpus);
	p->err = -ENOENT;
	for (int e = 0; e < RPT_NR_TRACE_EVENTS; e++) {
		char path[4096];
		long long id = tracepoint_id(rpt_trace_events[e], path, sizeof(path));
		unsigned int opened = 0;
		int first_err = 0;

		if (id < 0) {	/* the first failure, unless it was only ENOENT */
			if (!p->err_path[0] || (p->err == -ENOENT && id != -ENOENT)) {
				p->err = (int)id;
				snprintf(p->err_path, sizeof(p->err_path), "%s", path);
			}
			continue;
		}
		for (unsigned int c = 0; c < p->nr_cpus; c++) {
			int fd = perf_open_counter(id, (int)c);

			if (fd >= 0) {
				p->fd[(size_t)e * p->nr_cpus + c] = fd;
				opened++;
			} else if (errno != ENODEV && errno != EINVAL && !first_err) {
				first_err = -errno;	/* ENODEV/EINVAL: an offline CPU */
			}
		}
		if (opened) {
			p->have[e] = true;
			any = true;
			continue;
		}
		if (!p->err_path[0] || p->err == -ENOENT) {
			p->err = first_err ? first_err : -ENODEV;
			snprintf(p->err_path, sizeof(p->err_path), "perf_event_open(%s)", rpt_trace_events[e]);
		}
	}
	if (any)
		p->err = 0;
	return p;
}

void rec_perf_close(struct rec_perf *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < (size_t)RPT_NR_TRACE_EVENTS * p->nr_cpus; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	free(p->fd);
	free(p);
}

int rec_perf_read(struct rec_perf **pp, struct rec_text *t)
{
	struct rec_perf *p = *pp;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	if (!p && !(p = *pp = perf_open())) {
		snprintf(t->path, sizeof(t->path), "perf_event_open");
		return -ENOMEM;
	}
	if (p->err) {
		snprintf(t->path, sizeof(t->path), "%s", p->err_path);
		return p->err;
	}
	f = open_memstream(&out, &len);
	if (!f)
		return -ENOMEM;
	for (int e = 0; e < RPT_NR_TRACE_EVENTS && !rc; e++) {
		uint64_t sum = 0;

		if (!p->have[e])
			continue;
		for (unsigned int c = 0; c < p->nr_cpus; c++) {
			int fd = p->fd[(size_t)e * p->nr_cpus + c];
			uint64_t v;

			if (fd < 0)
				continue;
			if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
				rc = -EIO;
				snprintf(t->path, sizeof(t->path), "perf_event_open(%s) cpu %u",
					 rpt_trace_events[e], c);
				break;
			}
			sum += v;
		}
		fprintf(f, "%s %llu\n", rpt_trace_events[e], (unsigned long long)sum);
	}
	fclose(f);
	if (!rc && (rc = rec_text_set(t, out, len)) == 0)
		snprintf(t->path, sizeof(t->path), "perf_event_open");
	free(out);
	return rc;
}
