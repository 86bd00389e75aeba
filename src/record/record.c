/* SPDX-License-Identifier: MIT */
/*
 * record.c — `slowpath record`: options, the sampling loop and the result
 * folder (user documentation: docs/record.md).
 *
 * A recording in steps:
 *   1. Parse options; open the proc source (live /proc, or --proc-root DIR
 *      replayed on a virtual clock); read the once-per-run files
 *      (sys/kernel/osrelease, stat).
 *   2. Block SIGCHLD/SIGINT/SIGTERM/SIGHUP (runner.c).  Take sample 1, then
 *      start the command, so the first sample is the baseline before it.
 *   3. Wait until the next multiple of the interval (a late wake-up skips
 *      to the next grid point rather than bunching samples), take a
 *      sample, repeat — until the command exits (one more sample at that
 *      moment), --duration is reached (the last sample exactly at it), a
 *      replay runs out of samples, or a signal arrives (one last sample
 *      is taken at once, then the command's process group gets the same
 *      signal, and SIGKILL if it is still there 5 s later).
 *   4. A sample reads vmstat, buddyinfo, pagetypeinfo, zoneinfo, meminfo,
 *      diskstats, stat, the throttles' debugfs files and the tracepoint
 *      counts; each text is checked with the report/procfs.c parser
 *      (malformed -> "path:line: message", stop, exit 2, no result.json)
 *      and appended to its monitor file (DIR/proc-<name>.tmp, mmtests
 *      layout).  A file that cannot be read is not an error: it is
 *      counted and listed in result.json "missing" ("path: reason (N of
 *      M samples)").
 *   5. At the end: monitors renamed into place, tps.csv from the metrics
 *      file's "interval" lines, result.json last (vmstat deltas = last
 *      sample - first sample, vmstat_end = last sample, machine from the
 *      first sample's meminfo/zoneinfo and /proc/stat).
 *
 * Time in the result: virtual_seconds = measure_seconds = time between the
 * first and last sample, wall_seconds = the whole recording (both derived
 * from the virtual clock in a replay, so replays are byte-identical).
 * Monitor stamps are epoch seconds (mmtests), whole when the interval is.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "record/internal.h"
#include "record/record.h"
#include "report/procfs.h"
#include "report/result.h"

#define REC_STOP_GRACE_NS	(5 * NS_PER_SEC)	/* SIGTERM -> SIGKILL */
#define REC_MIN_INTERVAL_NS	(10 * 1000000ull)	/* 10 ms */

enum rec_kind { K_VMSTAT, K_BUDDY, K_PTYPE, K_ZONE, K_MEMINFO, K_DISKSTATS, K_STAT, K_WBT, K_TRACE };

/* The sampled files, in the order they are read and listed. */
static const struct {
	const char	*file;		/* under the proc root / sample dir */
	const char	*monitor;	/* result folder file */
	enum rec_kind	kind;
} rec_files[] = {
	{ "vmstat",	  "proc-vmstat",       K_VMSTAT },
	{ "buddyinfo",	  "proc-buddyinfo",    K_BUDDY },
	{ "pagetypeinfo", "proc-pagetypeinfo", K_PTYPE },
	{ "zoneinfo",	  "proc-zoneinfo",     K_ZONE },
	{ "meminfo",	  "proc-meminfo",      K_MEMINFO },
	{ "diskstats",	  "proc-diskstats",    K_DISKSTATS },
	{ "stat",	  "proc-stat",	       K_STAT },	/* also read once for the CPU count */
	{ "wbt",	  "debugfs-wbt",       K_WBT },	/* debugfs/block/DISK/rqos/wbt/ */
	{ "tracepoints",  "trace-counts",      K_TRACE },	/* perf/tracepoints: perf.c */
};
#define NR_REC_FILES	(sizeof(rec_files) / sizeof(rec_files[0]))

struct rec_opts {
	uint64_t	interval_ns;
	uint64_t	duration_ns;	/* 0 = none */
	const char	*out;
	const char	*proc_root;
	const char	*metrics_from;
	bool		skip[NR_REC_FILES];	/* --skip */
	char		**argv;		/* the command, NULL-terminated; NULL = none */
};

/* A file that could not always be read: the first failure and a count. */
struct rec_miss {
	char		*first;		/* "path: reason" */
	unsigned int	count;
};

struct rec_run {
	struct rec_opts	o;
	struct rec_source src;
	struct rec_signals sg;
	struct rec_child child;
	bool		have_child;
	struct rec_text	text;
	struct rpt_file	mon[NR_REC_FILES];
	bool		mon_open[NR_REC_FILES];
	struct rec_miss	miss[NR_REC_FILES];
	uint64_t	read_ns[NR_REC_FILES];	/* time in read() (live: the kernel's work) */
	/* parsed state kept across samples */
	struct rpt_counters vm_first, vm_last;
	bool		have_vm_first, have_vm_last;
	uint64_t	memory_bytes;
	bool		have_memory;
	struct rpt_counters zones;	/* zone name -> managed pages, first zoneinfo */
	bool		have_zones;
	struct proc_pagetypeinfo *pt;	/* scratch (large) */
	struct proc_buddyinfo *bi;
	struct proc_zoneinfo *zi;
	/* once per run */
	char		*kernel_release;
	unsigned int	cpus;
	char		*static_miss[2];
	char		*metrics_miss;	/* "FILE: reason" when it could not be read */
	bool		replay;
	/* time */
	unsigned int	samples;
	uint64_t	t_first, t_last, t_end;
	int64_t		epoch_first_ns;
	int64_t		last_stamp_ns;	/* the last sample's epoch time, -1 before the first */
	char		*command;
};

/* ---- options ---------------------------------------------------------- */

int rec_parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *suffix; double ns; } units[] = {
		{ "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 }, { "", 1e9 },
	};
	char *end;
	double v;

	if (!s || (*s < '0' || *s > '9'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v))
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].suffix) == 0) {
			double n = round(v * units[i].ns);

			if (n < 1 || n > 1e18)
				return -1;
			*ns = (uint64_t)n;
			return 0;
		}
	return -1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: slowpath record [--interval 1s] [--out DIR] [--proc-root DIR]\n"
		"                       [--duration T] [--metrics-from FILE] [--skip FILE,...]\n"
		"                       [--] COMMAND [ARGS...]\n"
		"\n"
		"Runs COMMAND (no shell) and samples /proc/{vmstat,buddyinfo,pagetypeinfo,\n"
		"zoneinfo,meminfo,diskstats,stat}, the writeback throttles' debugfs files\n"
		"(block/*/rqos/wbt, root) and the page allocator's tracepoint counts (perf\n"
		"events, root) every interval until it exits; writes a result folder like\n"
		"`slowpath run` does (docs/record.md, docs/results.md).\n"
		"\n"
		"  --interval T        time between samples (default 1s; ms, s, m, h)\n"
		"  --out DIR           result folder (default out/record)\n"
		"  --duration T        record for T (without a command), or stop the command after T\n"
		"  --proc-root DIR     replay captured files: DIR/0001/vmstat, DIR/0002/... (or one\n"
		"                      snapshot DIR/vmstat...) on a virtual clock\n"
		"  --metrics-from FILE the benchmark's tps/latency/figures, read when the command\n"
		"                      has exited (format in docs/record.md)\n"
		"  --skip FILE,...     do not sample these (e.g. pagetypeinfo, whose read walks\n"
		"                      every free list: costly on large fragmented machines)\n");
}

/* --skip pagetypeinfo[,zoneinfo...]: files not to sample. */
static int parse_skip(const char *list, bool *skip)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < NR_REC_FILES; i++)
			if (strlen(rec_files[i].file) == n && strncmp(p, rec_files[i].file, n) == 0)
				break;
		if (i == NR_REC_FILES) {
			fprintf(stderr, "record: --skip '%.*s': not one of vmstat, buddyinfo, "
				"pagetypeinfo, zoneinfo, meminfo, diskstats, stat, wbt, tracepoints\n", (int)n, p);
			return -1;
		}
		skip[i] = true;
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

/* 0, or 2 (usage error, message printed), or 1 for --help. */
static int parse_options(int argc, char **argv, struct rec_opts *o)
{
	static const struct option lopts[] = {
		{ "interval",	  required_argument, NULL, 'i' },
		{ "out",	  required_argument, NULL, 'o' },
		{ "proc-root",	  required_argument, NULL, 'p' },
		{ "duration",	  required_argument, NULL, 'd' },
		{ "metrics-from", required_argument, NULL, 'M' },
		{ "skip",	  required_argument, NULL, 's' },
		{ "help",	  no_argument,	     NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_ns = NS_PER_SEC;
	o->out = "out/record";
	optind = 0;		/* rec_main may run several times in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", lopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (rec_parse_duration(optarg, &o->interval_ns) ||
			    o->interval_ns < REC_MIN_INTERVAL_NS) {
				fprintf(stderr, "record: --interval '%s': want a time of at least 10ms "
					"(e.g. 1s, 500ms)\n", optarg);
				return 2;
			}
			break;
		case 'd':
			if (rec_parse_duration(optarg, &o->duration_ns)) {
				fprintf(stderr, "record: --duration '%s': want a time (e.g. 60s, 2m)\n",
					optarg);
				return 2;
			}
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'p':
			o->proc_root = optarg;
			break;
		case 'M':
			o->metrics_from = optarg;
			break;
		case 's':
			if (parse_skip(optarg, o->skip))
				return 2;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default: {
			const char *name = NULL;

			for (const struct option *lo = lopts; lo->name; lo++)
				if (optopt && lo->val == optopt && lo->has_arg)
					name = lo->name;
			if (name)
				fprintf(stderr, "record: option '--%s' needs a value\n", name);
			else
				fprintf(stderr, "record: unknown option '%s' (slowpath record --help)\n",
					argv[optind - 1]);
			return 2;
		}
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}

/* The command line as one string, words with spaces or quotes in '' . */
static char *join_command(char **argv)
{
	size_t n = 1;
	char *s, *p;

	for (char **a = argv; *a; a++)
		n += 4 * strlen(*a) + 3;
	s = p = malloc(n);
	if (!s)
		return NULL;
	*p = '\0';
	for (char **a = argv; *a; a++) {
		bool q = **a == '\0' || strpbrk(*a, " \t\n'\"\\$`*?;&|<>()") != NULL;

		if (a != argv)
			*p++ = ' ';
		if (q)
			*p++ = '\'';
		for (const char *c = *a; *c; c++) {
			if (*c == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *c;
			}
		}
		if (q)
			*p++ = '\'';
		*p = '\0';
	}
	return s;
}

/* ---- time ------------------------------------------------------------- */

/*
 * A monitor's time stamp: epoch seconds, whole when the interval is — but
 * the last sample, taken when the command ends, falls between two of the
 * interval's and may share its whole second with the one before; it is
 * then given to the ns, so that the stamps still increase (the report
 * refuses a file whose times do not).
 */
void rec_monitor_stamp(int64_t prev_ns, int64_t e, bool whole, char *buf, size_t len)
{
	uint64_t u = e > 0 ? (uint64_t)e : 0;

	if (whole && prev_ns >= 0 && (uint64_t)prev_ns / NS_PER_SEC == u / NS_PER_SEC)
		snprintf(buf, len, "%llu.%09llu", (unsigned long long)(u / NS_PER_SEC),
			 (unsigned long long)(u % NS_PER_SEC));
	else
		rpt_format_monitor_time(buf, len, u, whole);
}

static void epoch_text(struct rec_run *r, uint64_t t, char *buf, size_t len)
{
	int64_t e = r->src.epoch_ns + (int64_t)t;

	rec_monitor_stamp(r->last_stamp_ns, e, r->o.interval_ns % NS_PER_SEC == 0, buf, len);
	r->last_stamp_ns = e;
}

/* ---- samples ---------------------------------------------------------- */

static void note_miss(struct rec_miss *m, const char *path, int rc)
{
	if (m->count++ == 0) {
		const char *why = rc == -EILSEQ ? "contains a NUL byte" : strerror(-rc);
		size_t n = strlen(path) + strlen(why) + 3;

		m->first = malloc(n);
		if (m->first)
			snprintf(m->first, n, "%s: %s", path, why);
	}
}

/* Check one text with its parser and keep what the result needs.  0 or -1
 * with a "path:line: message". */
static int absorb(struct rec_run *r, enum rec_kind kind, const char *path, const char *text,
		  char *err, size_t errlen)
{
	struct rpt_counters c = { 0 };
	int rc = 0;

	switch (kind) {
	case K_VMSTAT:
		rc = proc_parse_vmstat(path, text, &c, err, errlen);
		if (rc == 0 && !r->have_vm_first) {
			r->vm_first = c;
			r->have_vm_first = true;
			memset(&c, 0, sizeof(c));
		} else if (rc == 0) {
			rpt_counters_release(&r->vm_last);
			r->vm_last = c;
			r->have_vm_last = true;
			memset(&c, 0, sizeof(c));
		}
		break;
	case K_MEMINFO:
		rc = proc_parse_meminfo(path, text, &c, err, errlen);
		if (rc == 0 && !r->have_memory) {
			bool found;
			int64_t kb = rpt_counters_get(&c, "MemTotal", &found);

			if (found && kb > 0) {
				r->memory_bytes = (uint64_t)kb * 1024;
				r->have_memory = true;
			}
		}
		break;
	case K_BUDDY:
		rc = proc_parse_buddyinfo(path, text, r->bi, err, errlen);
		break;
	case K_PTYPE:
		rc = proc_parse_pagetypeinfo(path, text, r->pt, err, errlen);
		break;
	case K_ZONE:
		rc = proc_parse_zoneinfo(path, text, r->zi, err, errlen);
		if (rc == 0 && !r->have_zones) {
			/* populated zones (present pages), summed by name over nodes */
			for (unsigned int i = 0; i < r->zi->nr; i++) {
				const struct proc_zoneinfo_zone *z = &r->zi->z[i];
				size_t k;

				if (z->present == 0)
					continue;
				for (k = 0; k < r->zones.n; k++)
					if (strcmp(r->zones.v[k].name, z->zone) == 0)
						break;
				if (k == r->zones.n)
					rpt_counters_add(&r->zones, z->zone, 0);
				r->zones.v[k].value += (int64_t)z->managed;
			}
			r->have_zones = true;
		}
		proc_zoneinfo_release(r->zi);
		break;
	case K_WBT:	/* checked value by value by read_wbt */
		break;
	case K_TRACE: {
		struct trace_counts tc;

		rc = trace_parse_counts(path, text, &tc, err, errlen);
		break;
	}
	case K_DISKSTATS: {
		struct proc_diskstats ds;

		rc = proc_parse_diskstats(path, text, &ds, err, errlen);
		proc_diskstats_release(&ds);
		break;
	}
	case K_STAT: {
		struct proc_stat st;

		rc = proc_parse_stat(path, text, &st, err, errlen);
		proc_stat_release(&st);
		break;
	}
	}
	rpt_counters_release(&c);
	return rc ? -1 : 0;
}

/* One debugfs value file of block/DISK/rqos/wbt: an unsigned integer and
 * a newline (blk-wbt.c's *_show); "inflight" has a line "I: inflight N"
 * per rq_wait, summed.  0, -errno (read failure), or 1 with a
 * "path:line: message" in err. */
static int wbt_value(struct rec_run *r, const char *disk, const char *name, struct rec_text *t,
		     unsigned long long *out, char *err, size_t errlen)
{
	char file[512];
	const char *p;
	unsigned int line = 0;
	int rc;

	snprintf(file, sizeof(file), "debugfs/block/%s/rqos/wbt/%s", disk, name);
	rc = r->src.ops->read(&r->src, file, true, t);
	if (rc)
		return rc;
	*out = 0;
	for (p = t->buf; *p; ) {
		const char *nl = strchr(p, '\n');
		unsigned long long v, idx;
		int used = -1;

		line++;
		if (!nl) {
			snprintf(err, errlen, "%s:%u: no newline (truncated file)", t->path, line);
			return 1;
		}
		if (strcmp(name, "inflight") == 0) {
			const char *c = strstr(p, ": inflight ");

			/* digits only: sscanf's %llu would take a sign or spaces */
			if (p[0] < '0' || p[0] > '9' || !c || c > nl || c[11] < '0' || c[11] > '9' ||
			    sscanf(p, "%llu: inflight %llu%n", &idx, &v, &used) != 2 || p + used != nl)
				used = -1;
		} else if (line == 1 && p[0] >= '0' && p[0] <= '9') {
			char *end;

			errno = 0;
			v = strtoull(p, &end, 10);
			used = errno || end != nl ? -1 : (int)(end - p);
		}
		if (used < 0 || (strcmp(name, "inflight") != 0 && line > 1)) {
			snprintf(err, errlen, "%s:%u: expected %s", t->path, line,
				 strcmp(name, "inflight") == 0 ? "'N: inflight COUNT'" : "one unsigned integer");
			return 1;
		}
		*out += v;
		p = nl + 1;
	}
	if (line == 0) {
		snprintf(err, errlen, "%s:1: empty file", t->path);
		return 1;
	}
	return 0;
}

/*
 * debugfs-wbt: the values of each throttled disk's debugfs files in the
 * model's debugfs-wbt layout (src/cli/run.c), its model-only columns
 * "-": the member column, the rq_depth, the waiters and the sums the
 * kernel shows only as tracepoints.  Disks without rqos/wbt are left out;
 * none at all reads as missing (ENOENT on block/DISK/rqos/wbt).  The text
 * goes to r->text.  0, -errno, or 1 with err set.
 */
static int read_wbt(struct rec_run *r, char *err, size_t errlen)
{
	static const char *const vals[] = {
		"wb_normal", "wb_background", "inflight", "curr_win_nsec", "min_lat_nsec", "unknown_cnt",
	};
	struct rec_text t = { 0 };
	char **disks = NULL, path[4096];
	size_t nd = 0, len = 0, found = 0;
	char *out = NULL;
	FILE *f;
	int rc = r->src.ops->list(&r->src, "debugfs/block", true, &disks, &nd, path, sizeof(path));

	if (rc) {
		snprintf(r->text.path, sizeof(r->text.path), "%s", path);
		return rc;
	}
	f = open_memstream(&out, &len);
	if (!f)
		rc = -ENOMEM;
	else
		fputs(DEBUGFS_WBT_HEADER "\n", f);
	for (size_t i = 0; rc == 0 && i < nd; i++) {
		unsigned long long v[6];

		for (size_t k = 0; rc == 0 && k < 6; k++)
			rc = wbt_value(r, disks[i], vals[k], &t, &v[k], err, errlen);
		if (rc == -ENOENT) {	/* no throttle on this disk */
			rc = 0;
			continue;
		}
		if (rc)
			break;
		found++;
		fprintf(f, "%s - %llu %llu %llu %llu %llu %llu - - - - - - - - - - -\n", disks[i],
			v[0], v[1], v[2], v[3], v[4], v[5]);
	}
	if (rc < 0)
		snprintf(r->text.path, sizeof(r->text.path), "%s", t.path);
	if (rc == 0 && !found) {
		snprintf(r->text.path, sizeof(r->text.path), "%.4000s/*/rqos/wbt", path);
		rc = -ENOENT;
	}
	if (f)
		fclose(f);
	if (rc == 0 && (rc = rec_text_set(&r->text, out, len)) == 0)
		snprintf(r->text.path, sizeof(r->text.path), "%s", path);
	free(out);
	for (size_t i = 0; i < nd; i++)
		free(disks[i]);
	free(disks);
	rec_text_release(&t);
	return rc;
}

/* Take sample number r->samples + 1 at the source's current time.  0, -1
 * for malformed input, -2 when a monitor file cannot be created. */
static int take_sample(struct rec_run *r, char *err, size_t errlen)
{
	uint64_t t = r->src.ops->now(&r->src);
	char tt[48];

	epoch_text(r, t, tt, sizeof(tt));
	for (size_t i = 0; i < NR_REC_FILES; i++) {
		uint64_t t0;
		int rc;

		if (r->o.skip[i])
			continue;
		t0 = r->src.ops->now(&r->src);
		if (rec_files[i].kind == K_WBT)
			rc = read_wbt(r, err, errlen);
		else if (rec_files[i].kind == K_TRACE)
			rc = r->src.ops->read(&r->src, "perf/tracepoints", true, &r->text);
		else
			rc = r->src.ops->read(&r->src, rec_files[i].file, true, &r->text);
		r->read_ns[i] += r->src.ops->now(&r->src) - t0;
		if (rc > 0)
			return -1;
		if (rc) {
			note_miss(&r->miss[i], r->text.path, rc);
			continue;
		}
		if (absorb(r, rec_files[i].kind, r->text.path, r->text.buf, err, errlen))
			return -1;
		if (!r->mon_open[i]) {
			if (rpt_file_open(&r->mon[i], r->o.out, rec_files[i].monitor, err, errlen))
				return -2;
			r->mon_open[i] = true;
		}
		rpt_monitor_sample(r->mon[i].f, tt, r->text.buf);
	}
	if (r->samples == 0) {
		r->t_first = t;
		r->epoch_first_ns = r->src.epoch_ns + (int64_t)t;
	}
	r->t_last = t;
	r->samples++;
	return 0;
}

/* ---- once per run -------------------------------------------------------- */

static void read_static(struct rec_run *r)
{
	int rc = r->src.ops->read(&r->src, "sys/kernel/osrelease", false, &r->text);

	if (rc == 0) {
		r->text.buf[strcspn(r->text.buf, "\n")] = '\0';
		r->kernel_release = strdup(r->text.buf);
	} else {
		struct rec_miss m = { 0 };

		note_miss(&m, r->text.path, rc);
		r->static_miss[0] = m.first;
	}
	rc = r->src.ops->read(&r->src, "stat", false, &r->text);
	if (rc == 0) {
		/* online CPUs: the "cpuN" lines */
		for (const char *p = r->text.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
			if (strncmp(p, "cpu", 3) == 0 && p[3] >= '0' && p[3] <= '9')
				r->cpus++;
	} else {
		struct rec_miss m = { 0 };

		note_miss(&m, r->text.path, rc);
		r->static_miss[1] = m.first;
	}
}

/* ---- the result folder ------------------------------------------------------ */

/* A real number as result.c prints them: rounded to `decimals`, shortest text. */
static void csv_num(FILE *f, double v, int decimals)
{
	double m = pow(10, decimals);

	v = round(v * m) / m;
	if (v == 0)
		v = 0;
	fprintf(f, "%.15g", v);
}

static int write_series(struct rec_run *r, const struct rec_metrics *m, char *err, size_t errlen)
{
	struct rpt_file f;

	if (m->nr_iv == 0)
		return 0;
	if (rpt_file_open(&f, r->o.out, "tps.csv", err, errlen))
		return -1;
	fprintf(f.f, "interval_end_s,tps,lat_avg_ms,lat_max_ms\n");
	for (size_t i = 0; i < m->nr_iv; i++) {
		csv_num(f.f, m->iv[i].end_s, 9);
		fputc(',', f.f);
		csv_num(f.f, m->iv[i].tps, 3);
		fputc(',', f.f);
		csv_num(f.f, m->iv[i].lat_avg_ms, 6);
		fputc(',', f.f);
		csv_num(f.f, m->iv[i].lat_max_ms, 6);
		fputc('\n', f.f);
	}
	return rpt_file_commit(&f, err, errlen);
}

/* waits.csv from the metrics' "waits" lines (report/result.h) */
static int write_waits(struct rec_run *r, const struct rec_metrics *m, char *err, size_t errlen)
{
	size_t nc = m->nr_wait_col + 1;
	const char **cols;
	unsigned char *dec;
	double *cells;
	int rc = -1;

	if (m->nr_wait_row == 0)
		return 0;
	cols = calloc(nc, sizeof(*cols));
	dec = calloc(nc, sizeof(*dec));
	cells = calloc(m->nr_wait_row * nc, sizeof(*cells));
	if (!cols || !dec || !cells) {
		snprintf(err, errlen, "out of memory for waits.csv");
		goto out;
	}
	cols[0] = "interval_end_s";
	dec[0] = 3;
	for (size_t c = 1; c < nc; c++) {
		cols[c] = m->wait_col[c - 1];
		dec[c] = 4;
	}
	for (size_t i = 0; i < m->nr_wait_row; i++)
		cells[i * nc] = m->wait_end[i];
	for (size_t i = 0; i < m->nr_wait_cell; i++)
		cells[m->wait_cell[i].row * nc + m->wait_cell[i].col + 1] = m->wait_cell[i].pct;
	rc = rpt_write_csv_table(r->o.out, "waits.csv", cols, dec, (unsigned int)nc, m->nr_wait_row, cells,
				 err, errlen);
out:
	free(cols);
	free(dec);
	free(cells);
	return rc;
}

/* checkpoints.csv from the metrics' "checkpoint" lines (report/result.h) */
static int write_checkpoints(struct rec_run *r, const struct rec_metrics *m, char *err, size_t errlen)
{
	static const char *const cols[] = { "start_s", "write_s", "sync_s", "total_s", "buffers_written" };
	static const unsigned char dec[] = { 3, 3, 3, 3, 0 };

	if (m->nr_ckpt == 0)
		return 0;
	return rpt_write_csv_table(r->o.out, "checkpoints.csv", cols, dec, 5, m->nr_ckpt, &m->ckpt[0][0], err,
				   errlen);
}

const char *const rec_wal_cols[REC_WAL_COLS] = {
	"interval_end_s", "wal_records", "wal_fpi", "wal_bytes", "wal_buffers_full",
	"wal_write", "wal_sync", "wal_write_time", "wal_sync_time",
};

/* wal.csv from the metrics' "wal" lines (report/result.h) */
static int write_wal(struct rec_run *r, const struct rec_metrics *m, char *err, size_t errlen)
{
	static const unsigned char dec[REC_WAL_COLS] = { 3, 0, 0, 0, 0, 0, 0, 3, 3 };

	if (m->nr_wal == 0)
		return 0;
	return rpt_write_csv_table(r->o.out, "wal.csv", rec_wal_cols, dec, REC_WAL_COLS, m->nr_wal, &m->wal[0][0],
				   err, errlen);
}

static int write_result(struct rec_run *r, const struct rec_metrics *m, bool have_metrics,
			int exit_status, char *err, size_t errlen)
{
	struct rpt_result res = { 0 };
	double span = (double)(r->t_last - r->t_first) / 1e9;
	int rc;

	res.source = "recorded";
	res.scenario = r->command ? r->command : "";
	res.policy = "kernel";
	res.seed = 0;
	res.scale_n = 1;
	res.iteration = 1;
	res.virtual_seconds = span;
	res.measure_seconds = span;
	res.wall_seconds = (double)r->t_end / 1e9;
	res.events = 0;
	/* vmstat deltas over the recording, in the last sample's order */
	if (r->have_vm_first) {
		const struct rpt_counters *last = r->have_vm_last ? &r->vm_last : &r->vm_first;

		for (size_t i = 0; i < last->n; i++) {
			bool found;
			int64_t v0 = rpt_counters_get(&r->vm_first, last->v[i].name, &found);

			if (found)
				rpt_counters_add(&res.vmstat, last->v[i].name,
						 (int64_t)((uint64_t)last->v[i].value - (uint64_t)v0));
			rpt_counters_add(&res.vmstat_end, last->v[i].name, last->v[i].value);
		}
	}
	if (have_metrics) {
		res.has_transactions = m->has_transactions;
		res.transactions = m->transactions;
		res.tps = m->tps;
		res.latency = m->latency;
		for (size_t i = 0; i < m->nr_fig; i++)
			rpt_result_add_figure(&res, m->fig[i].name, m->fig[i].value, m->fig[i].unit);
	}
	res.memory_bytes = r->memory_bytes;
	res.cpus = r->cpus;
	for (size_t i = 0; i < r->zones.n; i++)
		rpt_counters_add(&res.zones_managed, r->zones.v[i].name, r->zones.v[i].value);
	res.kernel_release = r->kernel_release ? r->kernel_release : "unknown";
	res.command = r->command ? r->command : "";
	res.exit_status = exit_status;
	res.start_epoch = r->epoch_first_ns / (int64_t)NS_PER_SEC;
	res.interval_seconds = (double)r->o.interval_ns / 1e9;
	res.samples = r->samples;
	for (int i = 0; i < 2; i++)
		if (r->static_miss[i])
			rpt_result_add_missing(&res, r->static_miss[i]);
	for (size_t i = 0; i < NR_REC_FILES; i++)
		if (r->miss[i].count && r->miss[i].first) {
			char buf[4200];

			snprintf(buf, sizeof(buf), "%s (%u of %u samples)", r->miss[i].first,
				 r->miss[i].count, r->samples);
			rpt_result_add_missing(&res, buf);
		}
	for (size_t i = 0; i < NR_REC_FILES; i++)
		if (r->o.skip[i]) {
			char buf[128];

			snprintf(buf, sizeof(buf), "%s: not recorded (--skip)", rec_files[i].file);
			rpt_result_add_missing(&res, buf);
		}
	if (r->metrics_miss)
		rpt_result_add_missing(&res, r->metrics_miss);
	rc = rpt_result_write(r->o.out, &res, err, errlen);
	rpt_result_release(&res);
	return rc;
}

/* ---- the loop ---------------------------------------------------------------- */

static void abort_monitors(struct rec_run *r)
{
	for (size_t i = 0; i < NR_REC_FILES; i++)
		if (r->mon_open[i]) {
			rpt_file_abort(&r->mon[i]);
			r->mon_open[i] = false;
		}
}

static int commit_monitors(struct rec_run *r, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; i < NR_REC_FILES; i++)
		if (r->mon_open[i]) {
			if (rpt_file_commit(&r->mon[i], err, errlen))
				rc = -1;
			r->mon_open[i] = false;
		}
	return rc;
}

/*
 * Sample until the end (step 3 of the file comment).  Returns 0, the
 * signal number that stopped the recording, or take_sample()'s error.
 */
static int sample_loop(struct rec_run *r, char *err, size_t errlen)
{
	const uint64_t iv = r->o.interval_ns;
	bool replay = r->replay;
	sigset_t no_chld = r->sg.set;
	uint64_t next = r->t_first + iv;

	sigdelset(&no_chld, SIGCHLD);
	for (;;) {
		bool live_child = !replay && r->have_child && r->child.running;
		uint64_t now;
		int sig, rc;

		if (r->o.duration_ns) {
			if (r->t_last - r->t_first >= r->o.duration_ns)
				return 0;
			if (next > r->t_first + r->o.duration_ns)
				next = r->t_first + r->o.duration_ns;
		}
		if (!r->src.ops->select(&r->src, r->samples + 1))
			return 0;	/* replay exhausted */
		sig = r->src.ops->wait_until(&r->src, next, live_child ? &r->sg.set : &no_chld);
		if (sig == SIGCHLD) {
			if (!rec_child_poll(&r->child))
				continue;
			return take_sample(r, err, errlen);	/* the command's end */
		}
		if (sig > 0) {
			/* the last sample shows the moment the user stopped us */
			rc = take_sample(r, err, errlen);

			if (r->have_child)
				rec_child_stop(&r->child, sig, REC_STOP_GRACE_NS, &r->sg);
			return rc ? rc : sig;
		}
		if ((rc = take_sample(r, err, errlen)))
			return rc;
		if (!replay && !r->o.duration_ns && !r->have_child)
			return 0;	/* cannot happen: options require one of them */
		now = r->src.ops->now(&r->src);
		next += iv;
		if (next <= now)	/* woke late: next point of the grid */
			next = r->t_first + ((now - r->t_first) / iv + 1) * iv;
	}
}

static void run_release(struct rec_run *r)
{
	abort_monitors(r);
	rpt_counters_release(&r->vm_first);
	rpt_counters_release(&r->vm_last);
	rpt_counters_release(&r->zones);
	for (size_t i = 0; i < NR_REC_FILES; i++)
		free(r->miss[i].first);
	free(r->static_miss[0]);
	free(r->static_miss[1]);
	free(r->metrics_miss);
	free(r->kernel_release);
	free(r->command);
	free(r->pt);
	free(r->bi);
	if (r->zi)
		proc_zoneinfo_release(r->zi);
	free(r->zi);
	rec_text_release(&r->text);
	rec_source_close(&r->src);
}

/* Remove the files of an earlier run in DIR just before this run's files
 * are renamed into place, so the folder never mixes two runs, and a
 * recording that never got going (a command that cannot run) leaves the
 * earlier result alone.  result.json goes first: from here on the folder
 * is incomplete until the new result.json arrives. */
static void clear_old_results(const char *dir)
{
	static const char *const names[] = {
		"result.json", "tps.csv", "waits.csv", "checkpoints.csv", "wal.csv", "proc-vmstat", "proc-buddyinfo", "proc-pagetypeinfo",
		"proc-zoneinfo", "proc-meminfo", "proc-diskstats", "proc-stat", "debugfs-wbt", "trace-counts",
	};
	char path[4096];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int rec_main(int argc, char **argv)
{
	struct rec_run r;
	struct rec_metrics m = { 0 };
	char err[4600] = "";
	bool replay, have_metrics = false, signals_on = false;
	int rc, stop, exit_status = 0, ret = 1;
	double cpu0 = cpu_seconds();

	memset(&r, 0, sizeof(r));
	r.last_stamp_ns = -1;
	rc = parse_options(argc, argv, &r.o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (rec_source_open(&r.src, r.o.proc_root, err, sizeof(err))) {
		fprintf(stderr, "record: %s\n", err);
		return 2;
	}
	replay = r.replay = r.o.proc_root != NULL;
	if (replay && r.src.nr_samples == 0 && !r.o.duration_ns) {
		fprintf(stderr, "record: --proc-root '%s' holds one snapshot (no 0001/): "
			"give --duration\n", r.o.proc_root);
		rec_source_close(&r.src);
		return 2;
	}
	if (!replay && !r.o.argv && !r.o.duration_ns) {
		fprintf(stderr, "record: nothing to record: give a command (after --) or --duration\n");
		rec_source_close(&r.src);
		return 2;
	}
	r.pt = malloc(sizeof(*r.pt));
	r.bi = malloc(sizeof(*r.bi));
	r.zi = calloc(1, sizeof(*r.zi));
	if (r.o.argv)
		r.command = join_command(r.o.argv);
	if (!r.pt || !r.bi || !r.zi || (r.o.argv && !r.command)) {
		fprintf(stderr, "record: out of memory\n");
		goto out;
	}
	if (rpt_mkdir_p(r.o.out, err, sizeof(err))) {
		fprintf(stderr, "record: --out: %s\n", err);
		goto out;
	}
	read_static(&r);

	rec_signals_block(&r.sg);
	signals_on = true;
	r.src.ops->select(&r.src, 1);
	rc = take_sample(&r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "record: %s\n", err);
		ret = rc == -1 ? 2 : 1;
		goto out;
	}
	if (r.o.argv) {
		if (rec_child_start(&r.child, r.o.argv, &r.sg, err, sizeof(err))) {
			fprintf(stderr, "record: %s\n", err);
			ret = 2;
			goto out;
		}
		r.have_child = true;
	}
	stop = sample_loop(&r, err, sizeof(err));
	if (stop < 0) {
		fprintf(stderr, "record: %s\n", err);
		if (r.have_child)
			rec_child_stop(&r.child, SIGTERM, REC_STOP_GRACE_NS, &r.sg);
		clear_old_results(r.o.out);
		commit_monitors(&r, err, sizeof(err));	/* keep what was recorded */
		ret = stop == -1 ? 2 : 1;
		goto out;
	}
	if (r.have_child && r.child.running) {
		if (stop == 0 && replay) {
			/* a replay's length is the data's: the command may finish */
			stop = rec_child_wait(&r.child, &r.sg);
			if (stop)
				rec_child_stop(&r.child, stop, REC_STOP_GRACE_NS, &r.sg);
		} else {
			fprintf(stderr, "record: --duration reached, stopping the command\n");
			rec_child_stop(&r.child, SIGTERM, REC_STOP_GRACE_NS, &r.sg);
		}
	}
	if (r.have_child)
		exit_status = rec_child_exit_status(&r.child);
	r.t_end = replay ? r.t_last : r.src.ops->now(&r.src);

	if (r.o.metrics_from) {
		struct rec_text t = { 0 };
		int e = rec_read_file_max(r.o.metrics_from, &t, REC_MAX_METRICS_BYTES);

		if (e == -EFBIG) {
			fprintf(stderr, "record: %s: larger than %u MiB, not a metrics file\n",
				r.o.metrics_from, REC_MAX_METRICS_BYTES >> 20);
			rec_text_release(&t);
			clear_old_results(r.o.out);
			commit_monitors(&r, err, sizeof(err));
			ret = 2;
			goto out;
		} else if (e) {
			/* the command may have failed before writing it: noted */
			struct rec_miss mm = { 0 };

			note_miss(&mm, r.o.metrics_from, e);
			r.metrics_miss = mm.first;
		} else if (rec_metrics_parse(r.o.metrics_from, t.buf, &m, err, sizeof(err))) {
			fprintf(stderr, "record: %s\n", err);
			rec_text_release(&t);
			clear_old_results(r.o.out);
			commit_monitors(&r, err, sizeof(err));
			ret = 2;
			goto out;
		} else {
			have_metrics = true;
		}
		rec_text_release(&t);
	}
	clear_old_results(r.o.out);
	if (commit_monitors(&r, err, sizeof(err)) ||
	    write_series(&r, &m, err, sizeof(err)) || write_waits(&r, &m, err, sizeof(err)) ||
	    write_checkpoints(&r, &m, err, sizeof(err)) || write_wal(&r, &m, err, sizeof(err)) ||
	    write_result(&r, &m, have_metrics, exit_status, err, sizeof(err))) {
		fprintf(stderr, "record: %s\n", err);
		goto out;
	}
	if (r.have_child && exit_status != 0)
		fprintf(stderr, "record: the command exited with status %d\n", exit_status);
	if (!replay) {
		double cpu = cpu_seconds() - cpu0, wall = (double)r.t_end / 1e9;

		size_t top = 0;

		for (size_t i = 1; i < NR_REC_FILES; i++)
			if (r.read_ns[i] > r.read_ns[top])
				top = i;
		fprintf(stderr, "record: %u samples in %.1f s, recorder CPU %.3f s", r.samples, wall, cpu);
		if (wall >= 10)		/* getrusage ticks make shorter figures noise */
			fprintf(stderr, " (%.2f %% of one CPU)", 100 * cpu / wall);
		if (rec_files[top].kind == K_WBT || rec_files[top].kind == K_TRACE)
			fprintf(stderr, "; reading %s took %.3f s\n", rec_files[top].kind == K_WBT ?
				"the throttles' debugfs files" : "the tracepoint counters",
				(double)r.read_ns[top] / 1e9);
		else
			fprintf(stderr, "; reading %s/%s took %.3f s\n", r.src.root, rec_files[top].file,
				(double)r.read_ns[top] / 1e9);
	}
	ret = stop > 0 ? 128 + stop : 0;
out:
	rec_metrics_release(&m);
	if (signals_on) {
		if (r.have_child && r.child.running)
			rec_child_stop(&r.child, SIGKILL, 0, &r.sg);
		rec_signals_restore(&r.sg);
	}
	run_release(&r);
	return ret;
}
