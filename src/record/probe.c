/* SPDX-License-Identifier: MIT */
/*
 * probe.c — `slowpath probe wakeup`: what a wake-up across CPUs costs on
 * this host, for a twin's costs wake_ipi and idle_exit (docs/record.md
 * "The host's CPU and disk in the twin"); `slowpath probe rmap`: what an
 * rmap walk pays per process mapping a shared page (costs rmap_vma and
 * rmap_pte, docs/cost-model.md).
 *
 *   slowpath probe wakeup [--round-trips N]
 *
 * Two processes pass one byte back and forth over two pipes (a blocking
 * read each side, so every message wakes the peer), N round trips, first
 * pinned to two CPUs — every wake-up goes to another CPU that has just
 * gone idle: try_to_wake_up queues the task there and sends an IPI
 * (ttwu_queue_wakelist; kernel/sched/core.c) and the CPU leaves its idle
 * state —, then both pinned to one CPU, where a wake-up is a queueing and
 * a context switch.  Each pass runs three times in turn; the medians give,
 * per message (half a round trip):
 *
 *   wake_local_us   CPU time (both processes, getrusage) on one CPU
 *   wake_ipi_us     CPU time across two CPUs, less wake_local_us: what a
 *                   wake-up onto another, idle CPU adds (the twin charges
 *                   it to the waker as wake_ipi)
 *   idle_exit_us    wall time across two CPUs not spent on either CPU,
 *                   less the same on one CPU: the woken CPU's exit from
 *                   idle (on a VM, the host waking a halted vCPU)
 *
 * printed as name=value lines.  The clock is the host's (this is the
 * recorder's side; the model never reads it).  Needs two CPUs the
 * process may run on.  Exit status 2 on bad usage or fewer than two
 * CPUs, 1 when a system call fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"

#define PROBE_REPEATS 3

struct pass {
	double	cpu_us, wall_us;	/* per message */
};

static double tv_us(struct timeval t)
{
	return (double)t.tv_sec * 1e6 + (double)t.tv_usec;
}

static int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

static int full_io(int fd, char *c, int wr)
{
	for (;;) {
		ssize_t r = wr ? write(fd, c, 1) : read(fd, c, 1);

		if (r == 1)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		return -1;
	}
}

/* One pass: the parent on CPU a, a child on CPU b, n round trips.  The
 * child's CPU time comes from its own getrusage, sent back over a pipe
 * (RUSAGE_CHILDREN would add every earlier pass's children). */
static int ping_pong(int a, int b, long n, struct pass *out)
{
	int to_child[2], to_parent[2], res[2];
	struct timespec t0, t1;
	struct rusage r0, r1;
	double child_us = 0;
	char c = 0;
	pid_t pid;
	int status;

	if (pipe(to_child) || pipe(to_parent) || pipe(res))
		return -1;
	if (pin(a))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rusage cr0, cr1;
		int bad = pin(b) != 0;

		getrusage(RUSAGE_SELF, &cr0);
		for (long i = 0; i < n && !bad; i++)
			bad = full_io(to_child[0], &c, 0) || full_io(to_parent[1], &c, 1);
		getrusage(RUSAGE_SELF, &cr1);
		child_us = tv_us(cr1.ru_utime) + tv_us(cr1.ru_stime) -
			   tv_us(cr0.ru_utime) - tv_us(cr0.ru_stime);
		if (write(res[1], &child_us, sizeof(child_us)) != sizeof(child_us))
			bad = 1;
		_exit(bad);
	}
	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		if (full_io(to_child[1], &c, 1) || full_io(to_parent[0], &c, 0))
			break;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &r1);
	if (read(res[0], &child_us, sizeof(child_us)) != sizeof(child_us))
		child_us = -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) || child_us < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
		close(res[i]);
	}
	out->cpu_us = (tv_us(r1.ru_utime) + tv_us(r1.ru_stime) - tv_us(r0.ru_utime) -
		       tv_us(r0.ru_stime) + child_us) / (2.0 * (double)n);
	out->wall_us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e3) / (2.0 * (double)n);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median3(double v[PROBE_REPEATS])
{
	qsort(v, PROBE_REPEATS, sizeof(v[0]), cmp_double);
	return v[PROBE_REPEATS / 2];
}

/*
 * `slowpath probe rmap`: the kernel's rmap walk over a page of a shared
 * mapping visits every VMA of the object (rmap_walk_file, mm/rmap.c) and
 * looks the page up in each process's page table.  Punching one page out
 * of a memfd (fallocate PUNCH_HOLE) does the same walk, unmap_mapping_range
 * zapping the page in every VMA, so the CPU time of a punch (the calling
 * thread's, robust to other load) grows with the processes mapping the
 * object by what one visit costs.  A memfd of REGIONS 2 MiB regions, written
 * by the parent; N children each read the first page of every region, so
 * each has the region's PTE table and, through fault-around, its first 16
 * pages mapped.  Punching pages 16..511 measures a visit that finds no
 * mapping, pages 0..15 one that unmaps the page; both with N children and
 * with none, three times each, medians:
 *   rmap_vma_ns  (unmapped punch with N - without) / N
 *   rmap_pte_ns  (mapped punch with N - without) / N - rmap_vma_ns
 */
#define RMAP_REGIONS	8
#define RMAP_PAGES	512

static double thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One pass with n children: mean ns per punch of a mapped and of an
 * unmapped page.  0 or -1 (errno set). */
static int rmap_pass(int n, double *mapped_ns, double *unmapped_ns)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), sz = (size_t)RMAP_REGIONS * RMAP_PAGES * ps;
	double tm = 0, tu = 0;
	long nm = 0, nu = 0;
	int go[2], ready[2], fd, started = 0, rc = -1;
	char *base, c = 0;

	fd = memfd_create("slowpath-probe-rmap", 0);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)sz) || pipe(go)) {
		close(fd);
		return -1;
	}
	if (pipe(ready)) {
		close(go[0]);
		close(go[1]);
		close(fd);
		return -1;
	}
	base = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		goto out;
	memset(base, 1, sz);
	for (; started < n; started++) {
		pid_t pid = fork();

		if (pid < 0)
			goto out_children;
		if (pid == 0) {
			volatile char sum = 0;

			close(go[1]);
			for (size_t r = 0; r < RMAP_REGIONS; r++)
				sum = (char)(sum + base[r * RMAP_PAGES * ps]);
			_exit(full_io(ready[1], &c, 1) || full_io(go[0], &c, 0) ? 1 : 0);
		}
	}
	for (int i = 0; i < n; i++)
		if (full_io(ready[0], &c, 0))
			goto out_children;
	for (size_t r = 0; r < RMAP_REGIONS; r++)
		for (size_t i = 0; i < RMAP_PAGES; i++) {
			double a = thread_ns(), b;

			if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				      (off_t)((r * RMAP_PAGES + i) * ps), (off_t)ps))
				goto out_children;
			b = thread_ns();
			if (i < 16) {
				tm += b - a;
				nm++;
			} else {
				tu += b - a;
				nu++;
			}
		}
	*mapped_ns = tm / (double)nm;
	*unmapped_ns = tu / (double)nu;
	rc = 0;
out_children:
	close(go[1]);		/* EOF: the children exit */
	go[1] = -1;
	while (started-- > 0)
		if (wait(NULL) < 0 && errno != EINTR)
			break;
	munmap(base, sz);
out:
	if (go[1] >= 0)
		close(go[1]);
	close(go[0]);
	close(ready[0]);
	close(ready[1]);
	close(fd);
	return rc;
}

static void usage(FILE *out);

/* A probe's only option, `name N` with N a whole number in [1, max], from
 * argv[2] on: 0 with *n set (left as it is when absent), or -1 after a
 * message (the caller exits 2). */
static int count_option(int argc, char **argv, const char *name, long max, long *n)
{
	for (int i = 2; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], name) && i + 1 < argc) {
			errno = 0;
			*n = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || *n < 1 || *n > max) {
				fprintf(stderr, "slowpath probe: %s: '%s' is not a whole number from 1 to %ld\n",
					name, argv[i], max);
				return -1;
			}
		} else {
			fprintf(stderr, "slowpath probe: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

static int rmap_main(int argc, char **argv)
{
	double m0[PROBE_REPEATS], u0[PROBE_REPEATS], mn[PROBE_REPEATS], un[PROBE_REPEATS];
	long n = 256;

	if (count_option(argc, argv, "--processes", 4096, &n))
		return 2;
	for (int r = 0; r < PROBE_REPEATS; r++)
		if (rmap_pass(0, &m0[r], &u0[r]) || rmap_pass((int)n, &mn[r], &un[r])) {
			perror("slowpath probe: rmap");
			return 1;
		}
	double vma = (median3(un) - median3(u0)) / (double)n;
	double pte = (median3(mn) - median3(m0)) / (double)n - vma;

	printf("rmap_processes=%ld\n", n);
	printf("rmap_vma_ns=%.1f\n", vma > 0 ? vma : 0);
	printf("rmap_pte_ns=%.1f\n", pte > 0 ? pte : 0);
	return ferror(stdout) ? 1 : 0;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: slowpath probe wakeup [--round-trips N]\n"
		     "       slowpath probe rmap [--processes N]\n"
		     "  measures what waking a task on another, idle CPU costs on this host\n"
		     "  (pipe ping-pong across two CPUs against one; default N 20000, each\n"
		     "  pass three times) and prints wake_local_us, wake_ipi_us and\n"
		     "  idle_exit_us: per message, for a twin's costs wake_ipi and idle_exit\n"
		     "  (docs/record.md)\n"
		     "  rmap: the CPU an rmap walk pays per process mapping a shared page, by\n"
		     "  punching pages out of a memfd mapped by N processes (default 256) and\n"
		     "  by none; prints rmap_vma_ns and rmap_pte_ns, the costs of those names\n"
		     "  (docs/cost-model.md)\n");
}

int rec_probe_main(int argc, char **argv)
{
	double cross_cpu[PROBE_REPEATS], cross_gap[PROBE_REPEATS];
	double local_cpu[PROBE_REPEATS], local_gap[PROBE_REPEATS];
	long n = 20000;
	int cpus[2], found = 0;
	cpu_set_t allowed, saved;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "rmap"))
		return rmap_main(argc, argv);
	if (argc < 2 || strcmp(argv[1], "wakeup")) {
		fprintf(stderr, "slowpath probe: %s%s\n", argc < 2 ? "which probe? " : "unknown probe ",
			argc < 2 ? "(wakeup, rmap)" : argv[1]);
		usage(stderr);
		return 2;
	}
	if (count_option(argc, argv, "--round-trips", 100000000, &n))
		return 2;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("slowpath probe: sched_getaffinity");
		return 1;
	}
	saved = allowed;
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[found++] = c;
	if (found < 2) {
		fprintf(stderr, "slowpath probe: wakeup needs two CPUs to run on, this process has %d\n", found);
		return 2;
	}
	for (int r = 0; r < PROBE_REPEATS; r++) {
		struct pass x, l;

		if (ping_pong(cpus[0], cpus[1], n, &x) || ping_pong(cpus[1], cpus[1], n, &l)) {
			perror("slowpath probe: ping-pong");
			sched_setaffinity(0, sizeof(saved), &saved);
			return 1;
		}
		cross_cpu[r] = x.cpu_us;
		cross_gap[r] = x.wall_us > x.cpu_us ? x.wall_us - x.cpu_us : 0;
		local_cpu[r] = l.cpu_us;
		local_gap[r] = l.wall_us > l.cpu_us ? l.wall_us - l.cpu_us : 0;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	double lc = median3(local_cpu), xc = median3(cross_cpu);
	double lg = median3(local_gap), xg = median3(cross_gap);

	printf("wake_local_us=%.2f\n", lc);
	printf("wake_ipi_us=%.2f\n", xc > lc ? xc - lc : 0);
	printf("idle_exit_us=%.2f\n", xg > lg ? xg - lg : 0);
	return ferror(stdout) ? 1 : 0;
}
