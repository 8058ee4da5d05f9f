// SPDX-License-Identifier: GPL-2.0
/*
 * getppid_bench: ns per getppid() system call, for the tracing rows of
 * `make bench` (under qemu -icount shift=0 these are instructions).
 *
 *   getppid_bench [N [REPS]]   REPS runs of N calls (default 20000 x 5);
 *                              prints the median ns per call, one decimal
 *
 * Static, libc only: it runs in the busybox initramfs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench_loop.h"

int main(int argc, char **argv)
{
	int reps, r;
	long n, i;
	double *v = bench_runs(argc, argv, &n, &reps);

	if (!v)
		return 2;
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		for (i = 0; i < n; i++)
			syscall(SYS_getppid);	/* not cached by any libc */
		v[r] = (now_ns() - t0) / n;
	}
	printf("%.1f\n", median(v, reps));
	return 0;
}
