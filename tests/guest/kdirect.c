// SPDX-License-Identifier: GPL-2.0
/*
 * kdirect: exact calls through functions traced by the direct mechanism,
 * whose results must not change under the trampoline (t-20-trace.sh).
 *
 *   kdirect getppid N      N getppid() calls; exit 1 if one returns
 *                          another value than the first
 *   kdirect mmap FILE N    N mmap()s of FILE's pages (do_mmap(): nine
 *                          arguments, three on the stack on x86-64), each at
 *                          a fixed address, at a page offset, populated;
 *                          the address, the contents and munmap() checked
 *   kdirect sleep MS       one clock_nanosleep() of MS milliseconds, which
 *                          must return 0 after MS ms or more
 *                          (do_nanosleep() sleeps inside)
 *   kdirect sigwait MS     one sigtimedwait() of MS milliseconds for a
 *                          signal that never comes, which must fail with
 *                          EAGAIN after MS ms or more, not EINTR
 *                          (schedule_hrtimeout_range() sleeps inside)
 *   kdirect read N         N read()s of one byte of /dev/zero, each of
 *                          which must return 1 (and no other read())
 *
 * FILE is made here: 4 pages, page k filled with the byte 'A' + k.  Exit
 * status 0, 1 with a message on stderr when a result is wrong, 2 on usage
 * errors.  Static, libc only: it runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGES 4

static int do_getppid(long n)
{
	pid_t first = getppid();
	long i;

	for (i = 1; i < n; i++) {
		if (getppid() != first) {
			fprintf(stderr, "kdirect: getppid() changed at call %ld\n", i);
			return 1;
		}
	}
	return 0;
}

static int do_mmap(const char *path, long n)
{
	long pg = sysconf(_SC_PAGESIZE), i;
	/* An address the kernel would not pick by itself: checks addr. */
	char *want = (char *)0x7e0000000000UL;
	char *buf;
	int fd, k;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("kdirect: open");
		return 1;
	}
	buf = malloc(pg);
	if (!buf)
		return 1;
	for (k = 0; k < PAGES; k++) {
		memset(buf, 'A' + k, pg);
		if (write(fd, buf, pg) != pg) {
			perror("kdirect: write");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		/* pgoff (the 7th argument) varies, so does the length (3rd). */
		int off = 1 + i % (PAGES - 1), len = PAGES - off;
		char *p = mmap(want, len * pg, PROT_READ,
			       MAP_PRIVATE | MAP_FIXED_NOREPLACE | MAP_POPULATE,
			       fd, off * pg);

		if (p == MAP_FAILED) {
			perror("kdirect: mmap");
			return 1;
		}
		if (p != want) {
			fprintf(stderr, "kdirect: mmap at %p, not %p\n", p, want);
			return 1;
		}
		for (k = 0; k < len; k++) {
			if (p[k * pg] != 'A' + off + k || p[k * pg + pg - 1] != 'A' + off + k) {
				fprintf(stderr, "kdirect: mmap %ld: page %d holds '%c', not '%c'\n",
					i, k, p[k * pg], 'A' + off + k);
				return 1;
			}
		}
		if (munmap(p, len * pg)) {
			perror("kdirect: munmap");
			return 1;
		}
	}
	close(fd);
	unlink(path);
	return 0;
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A wait that must last @ms: it began at @t0 and took until now. */
static int lasted(const char *what, long t0, long ms)
{
	long took = now_ms() - t0;

	if (took < ms) {
		fprintf(stderr, "kdirect: %s of %ld ms returned after %ld ms\n",
			what, ms, took);
		return 1;
	}
	return 0;
}

static int do_sleep(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };
	long t0 = now_ms();
	int err = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);

	if (err) {
		fprintf(stderr, "kdirect: clock_nanosleep failed: %s\n", strerror(err));
		return 1;
	}
	return lasted("clock_nanosleep", t0, ms);
}

static int do_sigwait(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };
	long t0;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	t0 = now_ms();
	if (sigtimedwait(&set, NULL, &ts) >= 0 || errno != EAGAIN) {
		fprintf(stderr, "kdirect: sigtimedwait of %ld ms: %s after %ld ms, not EAGAIN\n",
			ms, strerror(errno), now_ms() - t0);
		return 1;
	}
	return lasted("sigtimedwait", t0, ms);
}

static int do_read(long n)
{
	int fd = open("/dev/zero", O_RDONLY);
	char c;
	long i;

	if (fd < 0) {
		perror("kdirect: /dev/zero");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (read(fd, &c, 1) != 1) {
			fprintf(stderr, "kdirect: read %ld of /dev/zero failed\n", i);
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sleep"))
		return do_sleep(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "sigwait"))
		return do_sigwait(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "read"))
		return do_read(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "getppid"))
		return do_getppid(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "mmap"))
		return do_mmap(argv[2], atol(argv[3]));
	fprintf(stderr, "usage: kdirect getppid N | kdirect mmap FILE N | kdirect sleep MS | kdirect sigwait MS | kdirect read N\n");
	return 2;
}
