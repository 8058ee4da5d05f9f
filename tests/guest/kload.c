// SPDX-License-Identifier: GPL-2.0
/*
 * kload: deterministic workloads and exact writes for the guest tests.
 *
 *   kload write DEV N SIZE     N write()s of SIZE bytes to DEV
 *   kload badwrite DEV N SIZE  N write()s of SIZE bytes from an unmapped
 *                              address, each of which must fail (EFAULT)
 *   kload getppid N            N getppid() system calls
 *   kload ctl FILE TEXT        one write() of TEXT to FILE; prints "ok" or
 *                              the errno name, exits 0 or with the errno
 *   kload ctlraw FILE HEX      the same with bytes given in hex (NUL, ...)
 *   kload hold FILE SECONDS    keep FILE open for SECONDS
 *   kload pin CPU CMD [ARG...] run CMD bound to CPU (busybox may lack taskset)
 *   kload cgroup DIR CMD [ARG...]
 *                              run CMD in the cgroup v2 of directory DIR,
 *                              moved there before the exec (a shell would
 *                              call getppid() itself on the way)
 *
 * Static, libc only: it runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: kload write DEV N SIZE | getppid N | ctl FILE TEXT | ctlraw FILE HEX | hold FILE SECONDS | pin CPU CMD [ARG...] | cgroup DIR CMD [ARG...]\n");
	return 2;
}

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSPC: return "ENOSPC";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case EIO: return "EIO";
	case ENODEV: return "ENODEV";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ENOTUNIQ: return "ENOTUNIQ";
	case EAGAIN: return "EAGAIN";
	case ENOEXEC: return "ENOEXEC";
	case ESRCH: return "ESRCH";
	case EFBIG: return "EFBIG";
	case EALREADY: return "EALREADY";
	default: return "E?";
	}
}

static int ctl(const char *file, const char *buf, size_t len)
{
	int fd = open(file, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		printf("%s\n", errname(errno));
		return errno;
	}
	n = write(fd, buf, len);
	if (n < 0) {
		int e = errno;

		printf("%s\n", errname(e));
		close(fd);
		return e;
	}
	close(fd);
	printf("ok\n");
	return 0;
}

static int ctlraw(const char *file, const char *hex)
{
	size_t len = strlen(hex) / 2, i;
	char *buf = malloc(len + 1);
	int ret;

	if (!buf)
		return 1;
	for (i = 0; i < len; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1) {
			free(buf);
			return usage();
		}
		buf[i] = (char)b;
	}
	ret = ctl(file, buf, len);
	free(buf);
	return ret;
}

static int do_write(const char *dev, long n, long size)
{
	char *buf = calloc(1, size ? size : 1);
	int fd = open(dev, O_WRONLY);
	long i;

	if (!buf || fd < 0) {
		perror(dev);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (write(fd, buf, size) != size) {
			perror("write");
			return 1;
		}
	}
	close(fd);
	free(buf);
	return 0;
}

static int do_badwrite(const char *dev, long n, long size)
{
	int fd = open(dev, O_WRONLY);
	long i;

	if (fd < 0) {
		perror(dev);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (write(fd, (const void *)8, size) != -1 || errno != EFAULT) {
			fprintf(stderr, "write from address 8: not EFAULT\n");
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long i, n;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "write") && argc == 5)
		return do_write(argv[2], atol(argv[3]), atol(argv[4]));
	if (!strcmp(argv[1], "badwrite") && argc == 5)
		return do_badwrite(argv[2], atol(argv[3]), atol(argv[4]));
	if (!strcmp(argv[1], "getppid")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(argv[1], "ctl") && argc == 4)
		return ctl(argv[2], argv[3], strlen(argv[3]));
	if (!strcmp(argv[1], "ctlraw") && argc == 4)
		return ctlraw(argv[2], argv[3]);
	if (!strcmp(argv[1], "pin") && argc >= 4) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(atoi(argv[2]), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
		execvp(argv[3], argv + 3);
		perror(argv[3]);
		return 127;
	}
	if (!strcmp(argv[1], "cgroup") && argc >= 4) {
		char path[4096], pid[32];
		int fd, n;

		snprintf(path, sizeof(path), "%s/cgroup.procs", argv[2]);
		n = snprintf(pid, sizeof(pid), "%d", getpid());
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, pid, n) != n) {
			perror(path);
			return 1;
		}
		close(fd);
		execvp(argv[3], argv + 3);
		perror(argv[3]);
		return 127;
	}
	if (!strcmp(argv[1], "hold") && argc == 4) {
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		sleep(atoi(argv[3]));
		close(fd);
		return 0;
	}
	return usage();
}
