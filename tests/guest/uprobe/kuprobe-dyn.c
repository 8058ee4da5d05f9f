// SPDX-License-Identifier: GPL-2.0
/*
 * kuprobe-dyn: N calls of libkup.so's kup_lib_add(A, B), for the tests of
 * "trace PATH:SYMBOL" on a shared library (t-24-uprobes.sh).  Dynamically
 * linked, with the loader and libc that scripts/lib.sh guest_helpers puts
 * beside it in /kstats/bin (the busybox guest has none).
 *
 *   kuprobe-dyn A B N
 *
 * Exit status 0, 1 when a call returned what it should not, 2 on usage
 * errors.
 */
#include <stdio.h>
#include <stdlib.h>

long kup_lib_add(long a, long b);

int main(int argc, char **argv)
{
	long a, b, n, i, r;

	if (argc != 4) {
		fprintf(stderr, "usage: kuprobe-dyn A B N\n");
		return 2;
	}
	a = atol(argv[1]);
	b = atol(argv[2]);
	n = atol(argv[3]);
	for (i = 0; i < n; i++) {
		r = kup_lib_add(a, b);
		if (r != a + b) {
			fprintf(stderr, "kuprobe-dyn: kup_lib_add returned %ld, not %ld\n",
				r, a + b);
			return 1;
		}
	}
	return 0;
}
