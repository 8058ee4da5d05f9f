// SPDX-License-Identifier: GPL-2.0
/*
 * kvalue: exact calls of traced kernel functions, for the tests of values
 * and filters (t-25-values.sh).  busybox cat uses sendfile() and never
 * reaches vfs_read(); this does, with arguments and results the tests know.
 *
 *   kvalue [-n COMM] [-p FILE] [-t N2] COMMAND ARGS
 *
 *   read FILE SIZE N   N read()s of SIZE bytes (at most 65536) from FILE:
 *                      vfs_read(file, buf, SIZE, pos)
 *   pread FILE OFF N   N pread()s of 8 bytes at offset OFF: *pos is OFF
 *   fail ERRNO N       N system calls failing with ERRNO:
 *                       2 ENOENT  mkdir() in a missing directory (do_mkdirat)
 *                       9 EBADF   read() of fd -100000 (ksys_read; a
 *                                 negative number that is no errno)
 *                      14 EFAULT  read() of /dev/zero into a PROT_NONE page
 *                      17 EEXIST  mkdir() of / (do_mkdirat)
 *   mkdir DIR N        N mkdir()s of DIR that succeed, each removed again
 *   kill SIG N         N kill()s of itself with SIG, caught by a handler
 *   sleep USEC N       N clock_nanosleep() system calls of USEC microseconds
 *   hop N              N sched_setaffinity() system calls, each moving the
 *                      thread to the other of its first two allowed CPUs
 *                      (from inside the call: it returns on the new one)
 *   again N            N rounds of getpid(), a 1 ms clock_nanosleep(),
 *                      getpid() again, then getppid() twice: a section
 *                      from getpid() to getppid() begun again after the
 *                      task left its CPU, then ended twice
 *
 *   -n COMM  first set its own comm (PR_SET_NAME) to COMM
 *   -p FILE  write "PID TID" (then the second thread's TID with -t) to
 *            FILE, then wait for SIGUSR1 before working
 *   -t N2    a second thread runs the same command N2 times meanwhile
 *
 * Exit status 0, 1 when a call does not behave as described (message on
 * stderr), 2 on usage errors.  The working threads make no other system
 * calls (no stdio, no malloc: a thread's first malloc reads
 * /sys/devices/system/cpu/online), so every traced call is one of the
 * command's.  Static, libc only: it runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_SIZE	65536

struct job {
	const char *cmd;
	const char *arg;	/* FILE, DIR */
	long num;		/* SIZE, OFF, ERRNO, SIG */
	long n;			/* calls */
	int cpus[2];		/* hop: the two CPUs */
	char *buf;		/* MAX_SIZE bytes of the thread's own */
	int fd;			/* FILE opened by main() */
	const char *err;	/* what failed, for main() to print */
	int errnum;		/* and its errno */
};

static char bufs[2][MAX_SIZE];
static void *noaccess;		/* a PROT_NONE page, for EFAULT */
static int zero_fd;		/* /dev/zero, for EFAULT */
static sem_t ready, go;
static pid_t tid2;

static int usage(void)
{
	fprintf(stderr, "usage: kvalue [-n COMM] [-p FILE] [-t N2] read FILE SIZE N | pread FILE OFF N | fail ERRNO N | mkdir DIR N | kill SIG N | sleep USEC N | hop N | again N\n");
	return 2;
}

static void on_signal(int sig)
{
	(void)sig;
}

/* One failing call: 0 when it failed with @e. */
static int fail_once(int e)
{
	long r;

	switch (e) {
	case ENOENT:
		r = mkdir("/nonexistent-kvalue/dir", 0755);
		break;
	case EBADF:
		r = syscall(SYS_read, -100000L, bufs[0], 1L);
		break;
	case EFAULT:
		r = read(zero_fd, noaccess, 16);
		break;
	case EEXIST:
		r = mkdir("/", 0755);
		break;
	default:
		return -1;
	}
	return r == -1 && errno == e ? 0 : -1;
}

/* One call of @j: 0, or -1 with @j->err set if it misbehaves. */
static int call(struct job *j)
{
	switch (*j->cmd) {
	case 'r':
		if (read(j->fd, j->buf, j->num) >= 0)
			return 0;
		j->err = "read";
		break;
	case 'p':
		if (pread(j->fd, j->buf, 8, j->num) >= 0)
			return 0;
		j->err = "pread";
		break;
	case 'f':
		if (!fail_once(j->num))
			return 0;
		j->err = "a call that should fail";
		break;
	case 'm':
		if (!mkdir(j->arg, 0755) && !rmdir(j->arg))
			return 0;
		j->err = j->arg;
		break;
	case 'k':
		if (!kill(getpid(), j->num))
			return 0;
		j->err = "kill";
		break;
	case 's': {
		/* The system call itself, as the sections' tests filter it. */
		struct timespec ts = { .tv_nsec = j->num * 1000 };

		if (!syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL))
			return 0;
		j->err = "clock_nanosleep";
		break;
	}
	case 'a': {
		/* The system calls themselves, as the sections filter them. */
		struct timespec ts = { .tv_nsec = 1000000 };

		if (syscall(SYS_getpid) > 0 &&
		    !syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL) &&
		    syscall(SYS_getpid) > 0 && syscall(SYS_getppid) >= 0 &&
		    syscall(SYS_getppid) >= 0)
			return 0;
		j->err = "again";
		break;
	}
	case 'h': {
		/* The system call itself: the other CPU, then the first. */
		int to = j->cpus[1];
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(to, &set);
		if (!syscall(SYS_sched_setaffinity, 0, sizeof(set), &set)) {
			j->cpus[1] = j->cpus[0];
			j->cpus[0] = to;
			return 0;
		}
		j->err = "sched_setaffinity";
		break;
	}
	}
	j->errnum = errno;
	return -1;
}

static void work(struct job *j)
{
	long i;

	for (i = 0; i < j->n && !call(j); i++)
		;
}

static void *second(void *arg)
{
	tid2 = gettid();
	sem_post(&ready);
	sem_wait(&go);
	work(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	struct job j = { .fd = -1, .buf = bufs[0] }, j2;
	const char *pidfile = NULL;
	long n2 = -1;
	pthread_t thr;
	sigset_t usr1;
	int opt, sig;

	while ((opt = getopt(argc, argv, "+n:p:t:")) != -1) {
		switch (opt) {
		case 'n':
			if (prctl(PR_SET_NAME, optarg)) {
				perror("PR_SET_NAME");
				return 1;
			}
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 't':
			n2 = atol(optarg);
			break;
		default:
			return usage();
		}
	}
	argv += optind;
	argc -= optind;
	if (argc == 3 && (!strcmp(argv[0], "fail") || !strcmp(argv[0], "kill"))) {
		j.num = atol(argv[1]);
	} else if (argc == 3 && !strcmp(argv[0], "sleep")) {
		j.num = atol(argv[1]);
		if (j.num < 0 || j.num >= 1000000)
			return usage();
	} else if (argc == 2 && !strcmp(argv[0], "again")) {
		/* nothing more than the rounds */
	} else if (argc == 2 && !strcmp(argv[0], "hop")) {
		cpu_set_t set;
		int c, k = 0;

		if (sched_getaffinity(0, sizeof(set), &set)) {
			perror("sched_getaffinity");
			return 1;
		}
		for (c = 0; c < CPU_SETSIZE && k < 2; c++)
			if (CPU_ISSET(c, &set))
				j.cpus[k++] = c;
		if (k < 2) {
			fprintf(stderr, "kvalue: hop needs two CPUs\n");
			return 1;
		}
	} else if (argc == 3 && !strcmp(argv[0], "mkdir")) {
		j.arg = argv[1];
	} else if (argc == 4 && (!strcmp(argv[0], "read") || !strcmp(argv[0], "pread"))) {
		j.arg = argv[1];
		j.num = atol(argv[2]);
		if (*argv[0] == 'r' && (j.num < 0 || j.num > MAX_SIZE))
			return usage();
		j.fd = open(j.arg, O_RDONLY);
		if (j.fd < 0) {
			perror(j.arg);
			return 1;
		}
	} else {
		return usage();
	}
	j.cmd = argv[0];
	j.n = atol(argv[argc - 1]);
	if (!strcmp(j.cmd, "fail") && j.num != ENOENT && j.num != EBADF &&
	    j.num != EFAULT && j.num != EEXIST)
		return usage();
	if (!strcmp(j.cmd, "kill") && signal(j.num, on_signal) == SIG_ERR) {
		perror("signal");
		return 1;
	}
	noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	zero_fd = open("/dev/zero", O_RDONLY);
	if (noaccess == MAP_FAILED || zero_fd < 0) {
		perror("mmap or /dev/zero");
		return 1;
	}

	/* SIGUSR1 blocked before anyone can know the pid: none is lost. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	sem_init(&ready, 0, 0);
	sem_init(&go, 0, 0);
	if (n2 >= 0) {
		j2 = j;
		j2.n = n2;
		j2.buf = bufs[1];
		if (pthread_create(&thr, NULL, second, &j2)) {
			fprintf(stderr, "kvalue: pthread_create failed\n");
			return 1;
		}
		sem_wait(&ready);
	}
	if (pidfile) {
		char tmp[4096], line[64];
		int fd, len;

		len = snprintf(line, sizeof(line), "%d %d", getpid(), gettid());
		if (n2 >= 0)
			len += snprintf(line + len, sizeof(line) - len, " %d", tid2);
		line[len++] = '\n';
		snprintf(tmp, sizeof(tmp), "%s.tmp", pidfile);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, line, len) != len || close(fd) ||
		    rename(tmp, pidfile)) {
			perror(pidfile);
			return 1;
		}
		if (sigwait(&usr1, &sig))
			return 1;
	}
	if (n2 >= 0)
		sem_post(&go);
	work(&j);
	if (n2 >= 0)
		pthread_join(thr, NULL);
	if (!j.err && n2 >= 0 && j2.err)
		j = j2;
	if (j.err) {
		fprintf(stderr, "kvalue: %s: %s\n", j.err, strerror(j.errnum));
		return 1;
	}
	return 0;
}
