// SPDX-License-Identifier: GPL-2.0
/*
 * pipe_bench: ns per pipe round trip, for the run-queue latency rows of
 * `make bench` (under qemu -icount shift=0 these are instructions).
 *
 *   pipe_bench [N [REPS]]   REPS runs of N round trips (default 5000 x 5);
 *                           prints the median ns per round trip, one decimal
 *
 * A round trip: the parent writes a byte to the child, which wakes, reads
 * it and writes it back, which wakes the parent: on one CPU two wakeups
 * and two context switches, what a run-queue latency tracer times.
 *
 * Static, libc only: it runs in the busybox initramfs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_loop.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000, i;
	int reps = argc > 2 ? atoi(argv[2]) : 5, r, to[2], back[2];
	double v[100];
	char c = 0;
	pid_t pid;

	if (n < 1 || reps < 1 || reps > 100 || pipe(to) || pipe(back))
		return 2;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(to[1]);
		close(back[0]);
		while (read(to[0], &c, 1) == 1)
			if (write(back[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to[0]);
	close(back[1]);
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		for (i = 0; i < n; i++)
			if (write(to[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
				return 1;
		v[r] = (now_ns() - t0) / n;
	}
	close(to[1]);
	waitpid(pid, NULL, 0);
	printf("%.1f\n", median(v, reps));
	return 0;
}
