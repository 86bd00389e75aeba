/* SPDX-License-Identifier: MIT */
/*
 * fragment-load.c — a real fragmenting workload in three phases, run by
 * scenarios/real/fragment-local under `slowpath record` (docs/fragmentation-check.md).
 * Its twin in the model is scenarios/fragment-local.ini.
 *
 *   t = 0          fork:   the parent maps SIZE of shared anonymous memory
 *                          (shmem) and forks CHILDREN children, one every
 *                          FORK_MS; each child reads one byte every STEP of
 *                          the mapping (the first child's reads allocate the
 *                          shmem pages, every child builds its own page
 *                          tables: unmovable pages) and then waits
 *   t = WRITE_AT   write:  WRITE_BYTES written to a new file under DIR in
 *                          WRITE_SIZE pwrite()s, no sync (page cache, then
 *                          writeback); the file stays, cached
 *   t = NET_AT     net:    CONNS TCP connections over 127.0.0.1, one sender
 *                          and one receiver process each, sending MSG-byte
 *                          messages for NET_SECONDS
 *   then           hold:   everything stays until SIGTERM (the recorder's
 *                          --duration); SIGTERM kills the children, removes
 *                          the file and exits 0
 *
 * Times are from the start of the program.  Only POSIX and Linux calls;
 * built with `cc -O2` by the script (no other dependency).
 *
 * usage: fragment-load DIR SIZE_MIB CHILDREN STEP_KIB FORK_MS WRITE_AT_S
 *                      WRITE_MIB WRITE_SIZE_KIB NET_AT_S NET_SECONDS CONNS MSG_KIB
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_KIDS 4096

static pid_t kids[MAX_KIDS];
static int nr_kids;
static char path[4096];
static volatile sig_atomic_t stop;

static void die(const char *what)
{
	fprintf(stderr, "fragment-load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double t0, double at)
{
	double d;

	while (!stop && (d = t0 + at - now()) > 0) {
		struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };

		nanosleep(&ts, NULL);
	}
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t arg(char **argv, int i)
{
	char *end;
	unsigned long long v = strtoull(argv[i], &end, 10);

	if (*argv[i] == '\0' || *end != '\0') {
		fprintf(stderr, "fragment-load: argument %d: not a number: '%s'\n", i, argv[i]);
		exit(2);
	}
	return v;
}

static void add_kid(pid_t p)
{
	if (nr_kids < MAX_KIDS)
		kids[nr_kids++] = p;
}

static void child_touch(volatile const char *base, uint64_t size, uint64_t step)
{
	uint64_t sum = 0;

	for (uint64_t off = 0; off < size; off += step)
		sum += (uint64_t)base[off];
	if (sum == 12345)	/* keep the reads */
		fputc(' ', stderr);
	for (;;)
		pause();
}

static void net_sender(int fd, uint64_t msg, double until)
{
	char *buf = malloc(msg);

	if (!buf)
		_exit(1);
	memset(buf, 'x', msg);
	while (now() < until) {
		uint64_t done = 0;

		while (done < msg) {
			ssize_t n = send(fd, buf + done, msg - done, 0);

			if (n <= 0)
				_exit(0);
			done += (uint64_t)n;
		}
	}
	_exit(0);
}

static void net_receiver(int fd, uint64_t msg)
{
	char *buf = malloc(msg);

	if (!buf)
		_exit(1);
	while (recv(fd, buf, msg, 0) > 0)
		;
	_exit(0);
}

static void net_phase(unsigned int conns, uint64_t msg, double seconds)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	double until = now() + seconds;
	int one = 1, l = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, (int)conns) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("listen on 127.0.0.1");
	for (unsigned int i = 0; i < conns; i++) {
		int c = socket(AF_INET, SOCK_STREAM, 0), s;
		pid_t p;

		if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		if ((s = accept(l, NULL, NULL)) < 0)
			die("accept");
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if ((p = fork()) < 0)
			die("fork");
		if (p == 0) {
			close(l);
			close(s);
			net_sender(c, msg, until);
		}
		add_kid(p);
		if ((p = fork()) < 0)
			die("fork");
		if (p == 0) {
			close(l);
			close(c);
			net_receiver(s, msg);
		}
		add_kid(p);
		close(c);
		close(s);
	}
	close(l);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	sigset_t block, old;
	uint64_t size, children, step, fork_ms, write_at, write_mib, wsize, net_at, net_s, conns, msg;
	char *base, *buf;
	double t0 = now();
	int fd;

	if (argc != 13) {
		fprintf(stderr, "usage: fragment-load DIR SIZE_MIB CHILDREN STEP_KIB FORK_MS WRITE_AT_S "
			"WRITE_MIB WRITE_SIZE_KIB NET_AT_S NET_SECONDS CONNS MSG_KIB\n");
		return 2;
	}
	size = arg(argv, 2) << 20;
	children = arg(argv, 3);
	step = arg(argv, 4) << 10;
	fork_ms = arg(argv, 5);
	write_at = arg(argv, 6);
	write_mib = arg(argv, 7);
	wsize = arg(argv, 8) << 10;
	net_at = arg(argv, 9);
	net_s = arg(argv, 10);
	conns = arg(argv, 11);
	msg = arg(argv, 12) << 10;
	if (!size || !step || !wsize || !msg || children + 2 * conns > MAX_KIDS) {
		fprintf(stderr, "fragment-load: sizes must be > 0, at most %d processes\n", MAX_KIDS);
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* fork phase */
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die("mmap");
	for (uint64_t i = 0; i < children && !stop; i++) {
		pid_t p;

		if (i && fork_ms)
			usleep((useconds_t)(fork_ms * 1000));
		if ((p = fork()) < 0)
			die("fork");
		if (p == 0) {
			signal(SIGTERM, SIG_DFL);
			child_touch(base, size, step);
		}
		add_kid(p);
	}
	fprintf(stderr, "fragment-load: %.1f s: %llu children forked\n", now() - t0,
		(unsigned long long)children);

	/* write phase */
	sleep_until(t0, (double)write_at);
	snprintf(path, sizeof(path), "%s/fragment-load.%d", argv[1], (int)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		die(path);
	if (!(buf = malloc(wsize)))
		die("malloc");
	memset(buf, 'w', wsize);
	for (uint64_t off = 0; off < (write_mib << 20) && !stop; off += wsize)
		if (pwrite(fd, buf, wsize, (off_t)off) != (ssize_t)wsize)
			die("pwrite");
	close(fd);
	fprintf(stderr, "fragment-load: %.1f s: %llu MiB written\n", now() - t0,
		(unsigned long long)write_mib);

	/* net phase */
	sleep_until(t0, (double)net_at);
	if (!stop && conns)
		net_phase((unsigned int)conns, msg, (double)net_s);
	fprintf(stderr, "fragment-load: %.1f s: %llu connections started\n", now() - t0,
		(unsigned long long)conns);

	/* hold until told to stop: the signals are blocked between the test
	 * and the wait, so one arriving in between is not lost */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; i < nr_kids; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < nr_kids; i++)
		waitpid(kids[i], NULL, 0);
	unlink(path);
	return 0;
}
