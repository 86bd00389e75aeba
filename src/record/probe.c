/* SPDX-License-Identifier: MIT */
/*
 * probe.c — `slowpath probe wakeup`: what a wake-up across CPUs costs on
 * this host, for a twin's costs wake_ipi and idle_exit (docs/record.md
 * "The host's CPU and disk in the twin"); `slowpath probe rmap`: what an
 * rmap walk pays per process mapping a shared page (costs rmap_vma and
 * rmap_pte, docs/cost-model.md); `slowpath probe switch`: what a switch
 * between address spaces costs (mm_switch, mm_switch_miss, mm_slots);
 * `slowpath probe duty`: how idle the scheduler leaves the CPUs while
 * tasks that spin and sleep wait (against scenarios/duty-local.ini).
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
 * Then two pairs at once, so that both CPUs stay busy: crossed (each
 * pair's processes on different CPUs, so every wake-up goes to another
 * CPU that is mostly running the other pair's process) and each pair on
 * its own CPU, three times each, medians, per message:
 *
 *   wake_busy_us    CPU time of the crossed pairs less the pairs on their
 *                   own CPUs: what a wake-up onto another, busy CPU adds
 *                   (the twin charges it less its IPIs as wake_remote_busy)
 *   wake_busy_ipis  reschedule and function-call IPIs (/proc/interrupts'
 *                   RES and CAL) during the crossed pass; absent when
 *                   that file cannot be read
 *
 * and the first two passes again over one loopback TCP connection:
 *
 *   tcp_remote_us   what crossing CPUs adds per message over TCP beyond
 *                   what it adds over pipes: the socket's and the skb's
 *                   lines (the twin's tcp_remote)
 *
 * printed as name=value lines.  The clock is the host's (this is the
 * recorder's side; the model never reads it).  Needs two CPUs the
 * process may run on.  Exit status 2 on bad usage or fewer than two
 * CPUs, 1 when a system call fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/internal.h"
#include "record/record.h"
#include "report/procfs.h"

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

/* A connected loopback TCP pair (127.0.0.1, TCP_NODELAY both ends, as
 * libpq and PostgreSQL set it) in fds; 0 or -1. */
static int tcp_pair(int fds[2])
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0), rc = -1;

	fds[0] = fds[1] = -1;
	if (ls < 0)
		return -1;
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&sa, &len))
		goto out;
	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&sa, sizeof(sa)))
		goto out;
	fds[1] = accept(ls, NULL, NULL);
	if (fds[1] < 0)
		goto out;
	if (setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		goto out;
	rc = 0;
out:
	close(ls);
	if (rc) {
		if (fds[0] >= 0)
			close(fds[0]);
		if (fds[1] >= 0)
			close(fds[1]);
	}
	return rc;
}

/* One pass: the parent on CPU a, a child on CPU b, n round trips, over
 * two pipes or (tcp) one loopback TCP connection.  The child's CPU time
 * comes from its own getrusage, sent back over a pipe (RUSAGE_CHILDREN
 * would add every earlier pass's children). */
static int ping_pong(int a, int b, long n, int tcp, struct pass *out)
{
	int to_child[2], to_parent[2], res[2];
	struct timespec t0, t1;
	struct rusage r0, r1;
	double child_us = 0;
	char c = 0;
	pid_t pid;
	int status;

	if (tcp) {
		int s[2];

		if (tcp_pair(s))
			return -1;
		/* [0] is read, [1] written: the child reads and writes s[1] */
		to_child[0] = to_parent[1] = s[1];
		to_child[1] = to_parent[0] = s[0];
	} else if (pipe(to_child) || pipe(to_parent)) {
		return -1;
	}
	if (pipe(res))
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
		if (!tcp)
			close(to_parent[i]);
		close(res[i]);
	}
	out->cpu_us = (tv_us(r1.ru_utime) + tv_us(r1.ru_stime) - tv_us(r0.ru_utime) -
		       tv_us(r0.ru_stime) + child_us) / (2.0 * (double)n);
	out->wall_us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e3) / (2.0 * (double)n);
	return 0;
}

/* The n children pid[] each sent `nvals` doubles on fd (their CPU time in
 * µs, or what the probe asks for); add the j-th of each to sum[j] (nvals 0:
 * read nothing); reap them all either way.  1 when a value is missing or a
 * child failed, else 0. */
static int reap_children(int fd, const pid_t *pid, int n, int nvals, double *sum)
{
	int bad = 0;

	for (int i = 0; i < n && !bad; i++)
		for (int j = 0; j < nvals && !bad; j++) {
			double v;

			if (read(fd, &v, sizeof(v)) != sizeof(v))
				bad = 1;
			else
				sum[j] += v;
		}
	for (int i = 0; i < n; i++) {
		int status;

		if (waitpid(pid[i], &status, 0) != pid[i] || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	return bad;
}

/*
 * Two ping-pong pairs at once, process i on CPU cpu_of[i] (pair 0 is
 * processes 0 and 1, pair 1 processes 2 and 3), n round trips each, all
 * four started together; the CPU time of the four (their own getrusage,
 * sent back over a pipe) per message in *cpu_us.  The parent only waits.
 */
static int pairs_pass(const int cpu_of[4], long n, double *cpu_us)
{
	int pipes[2][2][2], res[2], go[2], bad = 0;
	pid_t pid[4];
	double sum = 0;
	int started = 0;
	char c = 0;

	if (pipe(res) || pipe(go))
		return -1;
	for (int p = 0; p < 2; p++)
		for (int d = 0; d < 2; d++)
			if (pipe(pipes[p][d]))
				return -1;
	for (; started < 4; started++) {
		pid[started] = fork();
		if (pid[started] < 0) {
			bad = 1;
			break;
		}
		if (pid[started] == 0) {
			int i = started, p = i / 2, first = i % 2 == 0;
			int rd = pipes[p][first ? 1 : 0][0], wr = pipes[p][first ? 0 : 1][1];
			struct rusage r0, r1;
			double us;
			int err = pin(cpu_of[i]) != 0;

			close(go[1]);
			err |= read(go[0], &c, 1) != 0;	/* EOF: all four are there */
			getrusage(RUSAGE_SELF, &r0);
			for (long k = 0; k < n && !err; k++)
				err = first ? full_io(wr, &c, 1) || full_io(rd, &c, 0)
					    : full_io(rd, &c, 0) || full_io(wr, &c, 1);
			getrusage(RUSAGE_SELF, &r1);
			us = tv_us(r1.ru_utime) + tv_us(r1.ru_stime) - tv_us(r0.ru_utime) -
			     tv_us(r0.ru_stime);
			if (write(res[1], &us, sizeof(us)) != sizeof(us))
				err = 1;
			_exit(err);
		}
	}
	close(go[0]);
	close(go[1]);		/* the start */
	bad |= reap_children(res[0], pid, started, !bad, &sum);
	close(res[0]);
	close(res[1]);
	for (int p = 0; p < 2; p++)
		for (int d = 0; d < 2; d++) {
			close(pipes[p][d][0]);
			close(pipes[p][d][1]);
		}
	if (bad) {
		errno = errno ? errno : EIO;
		return -1;
	}
	*cpu_us = sum / (4.0 * (double)n);
	return 0;
}

/* The reschedule and function-call IPIs taken so far (/proc/interrupts'
 * RES and CAL lines, every CPU), or -1 when the file cannot be read. */
static double ipi_total(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	double total = 0;
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, "RES:", 4) && strncmp(p, "CAL:", 4))
			continue;
		found = 1;
		p += 4;
		for (;;) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			total += (double)v;
			p = end;
		}
	}
	fclose(f);
	return found ? total : -1;
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

/*
 * `slowpath probe switch`: what a context switch between address spaces
 * costs on this CPU (costs mm_switch, mm_switch_miss and [machine]
 * mm_slots).  A token (one byte) goes round a ring of n tasks on one CPU
 * over pipes, each task blocking in read until its turn, so every
 * message is one switch from its sender to its receiver:
 *   - two threads of one process: a switch that keeps the address space;
 *   - two processes: every switch loads the other's (switch_mm_irqs_off);
 *   - n = 3 .. RING_MAX processes: every switch goes to the address space
 *     used longest ago, so once n exceeds what the CPU keeps translations
 *     for (x86 PCIDs, a hypervisor's cached roots) each switch rebuilds.
 * Three times each, medians; per message:
 *   mm_switch_us       two processes less two threads
 *   mm_switch_miss_us  RING_MAX processes less two, 0 without a step
 *   mm_slots           the largest ring whose cost stays below half that
 *                      step above the ring of two (0 = no step: all kept)
 */
#define RING_MAX 10

/* One ring: n tasks on CPU `cpu` (threads of one child process, or n
 * child processes), `messages` messages in all; their CPU time per
 * message in *us. */
struct ring_arg {
	int	in, out, first;
	long	rounds;
	int	err;
};

static void *ring_member(void *p)
{
	struct ring_arg *a = p;
	char c = 0;

	if (a->first)
		a->err |= full_io(a->out, &c, 1);
	for (long r = 0; r < a->rounds && !a->err; r++) {
		a->err |= full_io(a->in, &c, 0);
		if (!a->err && !(a->first && r == a->rounds - 1))
			a->err |= full_io(a->out, &c, 1);
	}
	return NULL;
}

static int ring_pass(int cpu, int n, int threads, long messages, double *us)
{
	int p[RING_MAX][2], res[2], nproc = threads ? 1 : n, bad = 0, made = 0;
	long rounds = messages / n;
	pid_t pid[RING_MAX];
	double sum = 0;

	if (pipe(res))
		return -1;
	for (; made < n; made++)
		if (pipe(p[made])) {
			bad = 1;
			break;
		}
	for (int k = 0; k < nproc && !bad; k++) {
		pid[k] = fork();
		if (pid[k] < 0) {
			nproc = k;
			bad = 1;
			break;
		}
		if (pid[k] == 0) {
			struct ring_arg a[RING_MAX];
			pthread_t th[RING_MAX];
			struct rusage ru;
			int err = pin(cpu) != 0, lo = threads ? 0 : k, hi = threads ? n : k + 1;

			for (int i = lo; i < hi; i++)
				a[i] = (struct ring_arg){ .in = p[i][0], .out = p[(i + 1) % n][1],
							  .first = i == 0, .rounds = rounds };
			if (threads) {
				for (int i = 1; i < n && !err; i++)
					err = pthread_create(&th[i], NULL, ring_member, &a[i]) != 0;
				ring_member(&a[0]);
				for (int i = 1; i < n; i++)
					pthread_join(th[i], NULL);
			} else {
				ring_member(&a[k]);
			}
			for (int i = lo; i < hi; i++)
				err |= a[i].err;
			getrusage(RUSAGE_SELF, &ru);
			double t = tv_us(ru.ru_utime) + tv_us(ru.ru_stime);

			if (write(res[1], &t, sizeof(t)) != sizeof(t))
				err = 1;
			_exit(err);
		}
	}
	bad |= reap_children(res[0], pid, nproc, !bad, &sum);
	for (int i = 0; i < made; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	close(res[0]);
	close(res[1]);
	if (bad) {
		errno = errno ? errno : EIO;
		return -1;
	}
	*us = sum / (double)(rounds * n);
	return 0;
}

static int count_option(int argc, char **argv, const char *name, long max, long *n);

static int switch_main(int argc, char **argv)
{
	double thr[PROBE_REPEATS], ring[RING_MAX + 1][PROBE_REPEATS], r[RING_MAX + 1];
	long messages = 30000;
	cpu_set_t allowed;
	int cpu = -1;

	if (count_option(argc, argv, "--messages", 100000000, &messages))
		return 2;
	if (messages < 2 * RING_MAX)
		messages = 2 * RING_MAX;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("slowpath probe: sched_getaffinity");
		return 1;
	}
	for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
		if (CPU_ISSET(c, &allowed))
			cpu = c;
	for (int k = 0; k < PROBE_REPEATS; k++) {
		if (ring_pass(cpu, 2, 1, messages, &thr[k])) {
			perror("slowpath probe: switch");
			return 1;
		}
		for (int n = 2; n <= RING_MAX; n++)
			if (ring_pass(cpu, n, 0, messages, &ring[n][k])) {
				perror("slowpath probe: switch");
				return 1;
			}
	}
	for (int n = 2; n <= RING_MAX; n++)
		r[n] = median3(ring[n]);
	double t = median3(thr), step = r[RING_MAX] - r[2];
	int slots = 0;

	/* a step worth the name: a tenth of a switch between two processes */
	if (step > 0.1 * r[2]) {
		slots = 2;
		for (int n = 3; n < RING_MAX; n++)
			if (r[n] - r[2] < step / 2)
				slots = n;
	} else {
		step = 0;
	}
	printf("switch_thread_us=%.2f\n", t);
	printf("switch_process_us=%.2f\n", r[2]);
	printf("mm_switch_us=%.2f\n", r[2] > t ? r[2] - t : 0);
	printf("mm_switch_miss_us=%.2f\n", step);
	printf("mm_slots=%d\n", slots);
	return ferror(stdout) ? 1 : 0;
}

/*
 * The duty probe: n processes, each looping over DUTY_SPIN_US of spinning
 * on CLOCK_MONOTONIC in user mode and a nanosleep of DUTY_SLEEP_US, for
 * `secs` seconds, started together, free to run on any CPU the probe may
 * use.  Per pass: the loops a second (all processes), the mean time a
 * nanosleep took, the run-queue delay per loop (/proc/self/schedstat's
 * second field, each process's own; < 0 when unreadable) and the idle and
 * iowait share of all CPUs (/proc/stat's cpu line).  With `spread`, child
 * i is pinned to the (i mod n)-th CPU the probe may use, so the processes
 * sit evenly whatever the scheduler would choose: the idle time left then
 * is the loop's own, and the difference from the unpinned pass is the
 * scheduler's placement.
 */
#define DUTY_SPIN_US	200.0
#define DUTY_SLEEP_US	100
#define DUTY_VALS	3	/* loops, sleep µs, run-queue delay µs (-1: unknown) */

struct duty {
	double	loops_per_s, sleep_us, delay_us, idle_pct;
};

static double mono_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* /proc/stat's cpu line: idle + iowait and the sum of all fields, in
 * ticks; -1 when unreadable. */
static int stat_idle(double *idle, double *total)
{
	struct rec_text text = { 0 };
	struct proc_stat st;
	char err[256];
	int rc = rec_read_file("/proc/stat", &text);

	if (rc == 0) {
		rc = proc_parse_stat(text.path, text.buf, &st, err, sizeof(err));
		if (rc == 0) {
			*idle = (double)(st.cpu[STAT_IDLE] + st.cpu[STAT_IOWAIT]);
			*total = 0;
			for (int i = 0; i < STAT_GUEST; i++)	/* guest and guest_nice are in user, nice */
				*total += (double)st.cpu[i];
		}
		proc_stat_release(&st);
	}
	rec_text_release(&text);
	return rc ? -1 : 0;
}

/* This process's run-queue delay so far (ns), or -1. */
static double own_run_delay(void)
{
	FILE *f = fopen("/proc/self/schedstat", "r");
	unsigned long long run, delay;
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &delay);
	fclose(f);
	return n == 2 ? (double)delay : -1;
}

static void duty_child(double secs, int go, int res)
{
	struct timespec nap = { 0, DUTY_SLEEP_US * 1000 };
	double v[DUTY_VALS] = { 0 }, end, d0, d1;
	char c;
	int err = read(go, &c, 1) != 0;	/* EOF: all are there */

	d0 = own_run_delay();
	end = mono_us() + secs * 1e6;
	while (!err && mono_us() < end) {
		double s = mono_us(), a;

		while (mono_us() - s < DUTY_SPIN_US)
			;
		a = mono_us();
		err = nanosleep(&nap, NULL) != 0;
		v[1] += mono_us() - a;
		v[0]++;
	}
	d1 = own_run_delay();
	v[2] = d0 < 0 || d1 < d0 ? -1 : (d1 - d0) / 1e3;
	/* one write: the values of one child stay together in the pipe */
	if (write(res, v, sizeof(v)) != (ssize_t)sizeof(v))
		err = 1;
	_exit(err);
}

/* Pin the calling process to the k-th CPU (from 0) of `allowed`. */
static int pin_to_nth(const cpu_set_t *allowed, int k)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, allowed) && k-- == 0) {
			CPU_SET(c, &one);
			return sched_setaffinity(0, sizeof(one), &one);
		}
	errno = EINVAL;
	return -1;
}

static int duty_pass(int n, double secs, const cpu_set_t *spread, struct duty *out)
{
	int res[2], go[2], bad = 0, started = 0, idle_known;
	double sum[DUTY_VALS] = { 0 }, i0, t0, i1, t1, w0, w1;
	pid_t pid[64];

	if (n > 64 || pipe(res))
		return -1;
	if (pipe(go)) {
		close(res[0]);
		close(res[1]);
		return -1;
	}
	for (; started < n; started++) {
		pid[started] = fork();
		if (pid[started] < 0) {
			bad = 1;
			break;
		}
		if (pid[started] == 0) {
			close(go[1]);
			if (spread && pin_to_nth(spread, started % CPU_COUNT(spread)))
				_exit(1);
			duty_child(secs, go[0], res[1]);
		}
	}
	idle_known = stat_idle(&i0, &t0) == 0;
	w0 = mono_us();
	close(go[0]);
	close(go[1]);		/* the start */
	bad |= reap_children(res[0], pid, started, bad ? 0 : DUTY_VALS, sum);
	w1 = mono_us();
	close(res[0]);
	close(res[1]);
	if (bad || sum[0] < 1) {
		errno = errno ? errno : EIO;
		return -1;
	}
	out->loops_per_s = sum[0] / ((w1 - w0) / 1e6);
	out->sleep_us = sum[1] / sum[0];
	out->delay_us = sum[2] < 0 ? -1 : sum[2] / sum[0];	/* every child sent -1: unknown */
	out->idle_pct = -1;
	if (idle_known && !stat_idle(&i1, &t1) && t1 > t0)
		out->idle_pct = 100.0 * (i1 - i0) / (t1 - t0);
	return 0;
}

static int duty_main(int argc, char **argv)
{
	long secs = 3, most;
	cpu_set_t allowed;
	int ncpu, spread = 0, nargs = 0;
	char *args[16];

	/* --spread is a flag; the rest go to count_option */
	for (int i = 0; i < argc; i++) {
		if (i >= 2 && !strcmp(argv[i], "--spread"))
			spread = 1;
		else if (nargs < (int)(sizeof(args) / sizeof(args[0])))
			args[nargs++] = argv[i];
		else {
			fprintf(stderr, "slowpath probe: duty: too many arguments\n");
			return 2;
		}
	}
	if (count_option(nargs, args, "--seconds", 3600, &secs))
		return 2;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("slowpath probe: sched_getaffinity");
		return 1;
	}
	ncpu = CPU_COUNT(&allowed);
	most = 2L * ncpu > 64 ? 64 : 2L * ncpu;
	printf("duty_cpus=%d\n", ncpu);
	printf("duty_spin_us=%.0f\n", DUTY_SPIN_US);
	printf("duty_spread=%d\n", spread);
	for (long n = 1; n <= most; n++) {
		struct duty d;

		if (duty_pass((int)n, (double)secs, spread ? &allowed : NULL, &d)) {
			perror("slowpath probe: duty");
			return 1;
		}
		if (n == 1)
			printf("duty_sleep_us=%.1f\n", d.sleep_us);
		printf("duty_%ld_loops_per_s=%.0f\n", n, d.loops_per_s);
		if (d.idle_pct >= 0)
			printf("duty_%ld_idle_pct=%.1f\n", n, d.idle_pct);
		if (d.delay_us >= 0)
			printf("duty_%ld_delay_us=%.1f\n", n, d.delay_us);
	}
	return ferror(stdout) ? 1 : 0;
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
		     "       slowpath probe switch [--messages N]\n"
		     "       slowpath probe duty [--seconds N] [--spread]\n"
		     "  measures what waking a task on another, idle CPU costs on this host\n"
		     "  (pipe ping-pong across two CPUs against one; default N 20000, each\n"
		     "  pass three times) and prints wake_local_us, wake_ipi_us and\n"
		     "  idle_exit_us: per message, for a twin's costs wake_ipi and idle_exit;\n"
		     "  then two pairs crossing two busy CPUs against two pairs each on its\n"
		     "  own CPU: wake_busy_us and wake_busy_ipis, for wake_remote_busy;\n"
		     "  the first two passes again over loopback TCP: tcp_remote_us, for\n"
		     "  tcp_remote\n"
		     "  (docs/record.md)\n"
		     "  rmap: the CPU an rmap walk pays per process mapping a shared page, by\n"
		     "  punching pages out of a memfd mapped by N processes (default 256) and\n"
		     "  by none; prints rmap_vma_ns and rmap_pte_ns, the costs of those names\n"
		     "  (docs/cost-model.md)\n"
		     "  switch: a token round a pipe ring of two threads, then of 2 to 10\n"
		     "  processes, on one CPU (--messages N per ring, default 30000, each\n"
		     "  three times); prints switch_thread_us, switch_process_us,\n"
		     "  mm_switch_us, mm_switch_miss_us and mm_slots: for the costs\n"
		     "  mm_switch, mm_switch_miss and [machine] mm_slots (docs/record.md)\n"
		     "  duty: 1 to 2 x CPUs processes at once, each looping over 200 us of\n"
		     "  spinning and a 100-us nanosleep (--seconds N per pass, default 3;\n"
		     "  --spread pins process i to the (i mod CPUs)-th CPU, the scheduler's\n"
		     "  placement taken out); prints duty_spread, duty_sleep_us and per\n"
		     "  count K duty_K_loops_per_s, duty_K_idle_pct and duty_K_delay_us:\n"
		     "  how much the scheduler leaves CPUs idle while tasks wait, against\n"
		     "  scenarios/duty-local.ini\n");
}

int rec_probe_main(int argc, char **argv)
{
	double cross_cpu[PROBE_REPEATS], cross_gap[PROBE_REPEATS];
	double local_cpu[PROBE_REPEATS], local_gap[PROBE_REPEATS];
	double busy_cross[PROBE_REPEATS], busy_own[PROBE_REPEATS], busy_ipis[PROBE_REPEATS];
	double tcp_extra[PROBE_REPEATS];
	long n = 20000;
	int cpus[2], found = 0;
	cpu_set_t allowed, saved;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "rmap"))
		return rmap_main(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "switch"))
		return switch_main(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "duty"))
		return duty_main(argc, argv);
	if (argc < 2 || strcmp(argv[1], "wakeup")) {
		fprintf(stderr, "slowpath probe: %s%s\n", argc < 2 ? "which probe? " : "unknown probe ",
			argc < 2 ? "(wakeup, rmap, switch, duty)" : argv[1]);
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
	const int crossed[4] = { cpus[0], cpus[1], cpus[1], cpus[0] };
	const int own[4] = { cpus[0], cpus[0], cpus[1], cpus[1] };
	int ipis_known = 1;

	for (int r = 0; r < PROBE_REPEATS; r++) {
		struct pass x, l, tx, tl;
		double i0, i1;

		if (ping_pong(cpus[0], cpus[1], n, 0, &x) || ping_pong(cpus[1], cpus[1], n, 0, &l) ||
		    ping_pong(cpus[0], cpus[1], n, 1, &tx) || ping_pong(cpus[1], cpus[1], n, 1, &tl)) {
			perror("slowpath probe: ping-pong");
			sched_setaffinity(0, sizeof(saved), &saved);
			return 1;
		}
		cross_cpu[r] = x.cpu_us;
		cross_gap[r] = x.wall_us > x.cpu_us ? x.wall_us - x.cpu_us : 0;
		local_cpu[r] = l.cpu_us;
		local_gap[r] = l.wall_us > l.cpu_us ? l.wall_us - l.cpu_us : 0;
		tcp_extra[r] = (tx.cpu_us - tl.cpu_us) - (x.cpu_us - l.cpu_us);
		i0 = ipi_total();
		if (pairs_pass(crossed, n, &busy_cross[r])) {
			perror("slowpath probe: ping-pong pairs");
			sched_setaffinity(0, sizeof(saved), &saved);
			return 1;
		}
		i1 = ipi_total();
		if (i0 < 0 || i1 < i0)
			ipis_known = 0;
		else
			busy_ipis[r] = (i1 - i0) / (4.0 * (double)n);
		if (pairs_pass(own, n, &busy_own[r])) {
			perror("slowpath probe: ping-pong pairs");
			sched_setaffinity(0, sizeof(saved), &saved);
			return 1;
		}
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	double lc = median3(local_cpu), xc = median3(cross_cpu);
	double lg = median3(local_gap), xg = median3(cross_gap);
	double bo = median3(busy_own), bx = median3(busy_cross);

	printf("wake_local_us=%.2f\n", lc);
	printf("wake_ipi_us=%.2f\n", xc > lc ? xc - lc : 0);
	printf("idle_exit_us=%.2f\n", xg > lg ? xg - lg : 0);
	printf("wake_busy_us=%.2f\n", bx > bo ? bx - bo : 0);
	if (ipis_known)
		printf("wake_busy_ipis=%.3f\n", median3(busy_ipis));
	double te = median3(tcp_extra);

	printf("tcp_remote_us=%.2f\n", te > 0 ? te : 0);
	return ferror(stdout) ? 1 : 0;
}
