/* SPDX-License-Identifier: MIT */
/*
 * runner.c — the recorded command: fork + execvp (no shell), in its own
 * process group so that stopping it stops everything it started (a
 * benchmark script and its clients), and waiting without signal handlers.
 *
 * The recorder blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP (the last three
 * unless they were ignored when it started, as nohup and '&' in a script
 * arrange) for the whole recording and takes them with sigtimedwait()/sigwaitinfo() where it
 * waits anyway, so there is no asynchronous handler and no global flag.
 * (SIGCHLD gets an empty handler: POSIX leaves it open whether a blocked
 * signal whose action is "ignore" stays pending.)  The child gets the
 * signal mask and SIGCHLD action the recorder started with, and
 * PR_SET_PDEATHSIG so it is told when the recorder itself is killed.
 *
 * An exec failure comes back through a close-on-exec pipe, so "cannot run
 * 'x': No such file or directory" is reported before anything is recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/internal.h"

static void rec_on_sigchld(int sig)
{
	(void)sig;
}

void rec_signals_block(struct rec_signals *sg)
{
	struct sigaction sa;

	static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sg->set);
	sigaddset(&sg->set, SIGCHLD);
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++) {
		struct sigaction old;

		/* ignored on entry (nohup, '&' in a script): the caller does not
		 * want it to stop anything, so neither do we */
		if (sigaction(stop_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&sg->set, stop_sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &sg->set, &sg->old_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_on_sigchld;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &sg->old_chld);
}

void rec_signals_restore(struct rec_signals *sg)
{
	struct timespec zero = { 0, 0 };

	/* drop a SIGCHLD still pending from our child before unblocking */
	{
		sigset_t chld;

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		while (sigtimedwait(&chld, NULL, &zero) > 0)
			;
	}
	sigaction(SIGCHLD, &sg->old_chld, NULL);
	sigprocmask(SIG_SETMASK, &sg->old_mask, NULL);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

int rec_child_start(struct rec_child *c, char *const argv[], const struct rec_signals *sg,
		    char *err, size_t errlen)
{
	pid_t parent = getpid();
	int pfd[2], e = 0;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (c->pid == 0) {
		close(pfd[0]);
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		sigaction(SIGCHLD, &sg->old_chld, NULL);
		sigprocmask(SIG_SETMASK, &sg->old_mask, NULL);
		rec_perf_child_limits();
		execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(c->pid, c->pid);	/* either side may win the race; both set it */
	close(pfd[1]);
	do
		n = read(pfd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	c->running = true;
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(c->pid, &c->wstatus, 0) < 0 && errno == EINTR)
			;
		c->running = false;
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(e));
		return -1;
	}
	return 0;
}

bool rec_child_poll(struct rec_child *c)
{
	int st;
	pid_t r;

	if (!c->running)
		return true;
	do
		r = waitpid(c->pid, &st, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		c->running = false;
		c->wstatus = r == c->pid ? st : 0;
		return true;
	}
	return false;
}

int rec_child_wait(struct rec_child *c, const struct rec_signals *sg)
{
	for (;;) {
		int sig;

		if (rec_child_poll(c))
			return 0;
		sig = sigwaitinfo(&sg->set, NULL);
		if (sig > 0 && sig != SIGCHLD)
			return sig;
	}
}

void rec_child_stop(struct rec_child *c, int sig, uint64_t grace_ns, const struct rec_signals *sg)
{
	uint64_t deadline;

	if (rec_child_poll(c))
		return;
	kill(-c->pid, sig);
	kill(-c->pid, SIGCONT);		/* a stopped member could not act on it */
	deadline = mono_ns() + grace_ns;
	for (;;) {
		uint64_t now = mono_ns();
		struct timespec ts;
		int got;

		if (rec_child_poll(c))
			return;
		if (now >= deadline)
			break;
		ts.tv_sec = (time_t)((deadline - now) / NS_PER_SEC);
		ts.tv_nsec = (long)((deadline - now) % NS_PER_SEC);
		got = sigtimedwait(&sg->set, NULL, &ts);
		if (got > 0 && got != SIGCHLD)
			break;		/* asked twice: do not wait for the grace period */
	}
	kill(-c->pid, SIGKILL);
	while (waitpid(c->pid, &c->wstatus, 0) < 0 && errno == EINTR)
		;
	c->running = false;
}

int rec_child_exit_status(const struct rec_child *c)
{
	if (WIFEXITED(c->wstatus))
		return WEXITSTATUS(c->wstatus);
	if (WIFSIGNALED(c->wstatus))
		return 128 + WTERMSIG(c->wstatus);
	return -1;
}
