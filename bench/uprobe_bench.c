// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_bench: ns per call of a user function, for the uprobe rows of
 * `make bench` (under qemu -icount shift=0 these are instructions): the
 * function traced, ub_target(), is one a user would name with
 * "trace /kstats/bin/uprobe_bench:ub_target" or bpftrace's
 * uprobe:/kstats/bin/uprobe_bench:ub_target.
 *
 *   uprobe_bench [N [REPS]]    REPS runs of N calls (default 20000 x 5);
 *                              prints the median ns per call, one decimal
 *
 * Static, libc only: it runs in the busybox initramfs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_loop.h"

/*
 * The traced function: a few instructions that cannot be folded away.
 * Not inlined nor analysed across calls (noipa), and global (kept in
 * .symtab, where kstats and bpftrace find it); the barrier keeps its body.
 */
__attribute__((noipa)) long ub_target(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

int main(int argc, char **argv)
{
	int reps, r;
	long n, i;
	double *v = bench_runs(argc, argv, &n, &reps);
	long sink = 0;

	if (!v)
		return 2;
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		for (i = 0; i < n; i++)
			sink = ub_target(sink);
		v[r] = (now_ns() - t0) / n;
	}
	/* each call's result is the next one's argument: none is dropped */
	__asm__ volatile("" : : "r"(sink));
	printf("%.1f\n", median(v, reps));
	return 0;
}
