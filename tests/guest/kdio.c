// SPDX-License-Identifier: GPL-2.0
/*
 * kdio: exact block requests, for the biolatency recipe (t-27-recipes.sh).
 *
 *   kdio DEV BS N   N pread()s of BS bytes (512..1048576, a multiple of
 *                   512) from DEV opened O_DIRECT, at offsets 0, BS, 2 BS...
 *                   (wrapping at 1 GiB): one request each, bypassing the
 *                   page cache
 *
 * Exit status 0, 1 when a read fails or is short, 2 on usage errors.
 * Static, libc only: it runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long bs, n;
	void *buf;
	int fd;

	if (argc != 4 || (bs = atol(argv[2])) < 512 || bs > 1048576 || bs % 512 ||
	    (n = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: kdio DEV BS N\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, (size_t)bs)) {
		perror(argv[1]);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		off_t off = (off_t)((i * bs) % (1L << 30));

		if (pread(fd, buf, (size_t)bs, off) != bs) {
			perror("pread");
			return 1;
		}
	}
	return 0;
}
