/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the static loops of `make bench` share (getppid_bench.c,
 * pipe_bench.c): the clock they time their runs with, and the median of
 * the runs, which they print.
 */
#ifndef _BENCH_LOOP_H
#define _BENCH_LOOP_H

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

#endif /* _BENCH_LOOP_H */
