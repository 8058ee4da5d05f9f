/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the static loops of `make bench` share (getppid_bench.c,
 * uprobe_bench.c, pipe_bench.c): their arguments, the clock they time
 * their runs with, and the median of the runs, which they print.
 */
#ifndef _BENCH_LOOP_H
#define _BENCH_LOOP_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the @reps runs in @v, which it sorts. */
static double median(double *v, int reps)
{
	qsort(v, reps, sizeof(*v), cmp_double);
	return v[reps / 2];
}

/*
 * The runs of "NAME [N [REPS]]": N calls a run (default 20000), REPS runs
 * (default 5, at most 1000), and an array for their times; NULL, the usage
 * printed, when the arguments are not valid or there is no memory.
 */
static inline double *bench_runs(int argc, char **argv, long *n, int *reps)
{
	double *v;

	*n = argc > 1 ? atol(argv[1]) : 20000;
	*reps = argc > 2 ? atoi(argv[2]) : 5;
	if (*n <= 0 || *reps <= 0 || *reps > 1000) {
		fprintf(stderr, "usage: %s [N [REPS]]\n", argv[0]);
		return NULL;
	}
	v = calloc(*reps, sizeof(*v));
	if (!v)
		perror(argv[0]);
	return v;
}

#endif /* _BENCH_LOOP_H */
