// SPDX-License-Identifier: GPL-2.0
/*
 * kuprobe: user functions of known arguments, results, durations and
 * call counts, for the tests of "trace PATH:SYMBOL" (t-24-uprobes.sh).
 *
 *   kuprobe [-p FILE] COMMAND ARGS
 *
 *   add A B N     N calls of kup_add(A, B), which returns A + B
 *   busy C N      N calls of kup_busy(C), a loop of C rounds; returns C
 *   sleep USEC N  N calls of kup_sleep(USEC), one nanosleep() of USEC
 *                 microseconds; returns USEC
 *   rec D N       N calls of kup_rec(D), which calls itself down to
 *                 kup_rec(0): D + 1 calls each, kup_rec(d) returning d
 *   wait FIFO     one call of kup_wait(FD), which reads one byte B from
 *                 the FIFO (opened for reading and writing: the open does
 *                 not wait, the read does) and returns B + 1000; prints
 *                 what it returned
 *
 *   -p FILE  write "PID" to FILE, then wait for SIGUSR1 before working
 *
 * Also defined, never called: kup_data (a data symbol) and kup_ifunc (an
 * indirect function, resolved to kup_add at start), which the tests try
 * to trace.  Exit status 0, 1 when a function returned what it should
 * not (message on stderr), 2 on usage errors.  Static, libc only: it
 * runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Each function stays a function of its own, called each time. */
#define KUP_FN	__attribute__((noinline, noclone, used))

int kup_data = 42;

KUP_FN long kup_add(long a, long b)
{
	/* not const: each call is made, none hoisted out of the loop */
	asm volatile("" ::: "memory");
	return a + b;
}

KUP_FN long kup_busy(long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		asm volatile("" ::: "memory");
	return rounds;
}

KUP_FN long kup_sleep(long usec)
{
	struct timespec ts = { usec / 1000000, usec % 1000000 * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	return usec;
}

KUP_FN long kup_rec(long depth)
{
	long r;

	if (!depth)
		return 0;
	r = kup_rec(depth - 1);
	/* no tail call, no accumulator: each level returns on its own */
	asm volatile("" : "+r" (r));
	return r + 1;
}

KUP_FN long kup_wait(int fd)
{
	unsigned char b;

	if (read(fd, &b, 1) != 1)
		return -1;
	return b + 1000;
}

/* An indirect function: the loader calls the resolver, once. */
static long (*kup_resolve(void))(long, long)
{
	return kup_add;
}

long kup_ifunc(long a, long b) __attribute__((ifunc("kup_resolve")));

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

/* -p FILE: the pid, then SIGUSR1, which may come before we wait. */
static int wait_for_go(const char *file)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t block, old;
	FILE *f;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGUSR1, &sa, NULL);
	f = fopen(file, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
		perror(file);
		return 1;
	}
	while (!go)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: kuprobe [-p FILE] add A B N | busy C N | sleep USEC N | rec D N | wait FIFO\n");
	return 2;
}

static int wrong(const char *fn, long got, long want)
{
	fprintf(stderr, "kuprobe: %s returned %ld, not %ld\n", fn, got, want);
	return 1;
}

int main(int argc, char **argv)
{
	const char *pidfile = NULL, *cmd;
	long a, b = 0, n = 0, i, r;
	int opt, fd;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p')
			return usage();
		pidfile = optarg;
	}
	if (argc - optind < 2)
		return usage();
	cmd = argv[optind];
	if (!strcmp(cmd, "wait")) {
		fd = open(argv[optind + 1], O_RDWR);
		if (fd < 0) {
			perror(argv[optind + 1]);
			return 1;
		}
		if (pidfile && wait_for_go(pidfile))
			return 1;
		printf("%ld\n", kup_wait(fd));
		return 0;
	}
	a = atol(argv[optind + 1]);
	if (!strcmp(cmd, "add")) {
		if (argc - optind != 4)
			return usage();
		b = atol(argv[optind + 2]);
		n = atol(argv[optind + 3]);
	} else if (argc - optind == 3) {
		n = atol(argv[optind + 2]);
	} else {
		return usage();
	}
	if (pidfile && wait_for_go(pidfile))
		return 1;
	for (i = 0; i < n; i++) {
		if (!strcmp(cmd, "add")) {
			r = kup_add(a, b);
			if (r != a + b)
				return wrong("kup_add", r, a + b);
		} else if (!strcmp(cmd, "busy")) {
			r = kup_busy(a);
			if (r != a)
				return wrong("kup_busy", r, a);
		} else if (!strcmp(cmd, "sleep")) {
			r = kup_sleep(a);
			if (r != a)
				return wrong("kup_sleep", r, a);
		} else if (!strcmp(cmd, "rec")) {
			r = kup_rec(a);
			if (r != a)
				return wrong("kup_rec", r, a);
		} else {
			return usage();
		}
	}
	return 0;
}
