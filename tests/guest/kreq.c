// SPDX-License-Identifier: GPL-2.0
/*
 * kreq.c - a requester and its server, for explain's staged cases
 * (t-34-explain.sh): the requester (this process, "kreq") writes a byte
 * to the server ("ksrv", a child) and reads its answer, for SECONDS; the
 * server answers each request after WORK_US of its own CPU time.  With
 * CGROUP, the server runs in that cgroup (its cgroup.procs): a CPU quota
 * there delays the requester's reads (pipe_read) while it is throttled.
 *
 *   kreq SECONDS WORK_US [CGROUP]
 *
 * Prints "kreq: N requests".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void serve(int in, int out, double work)
{
	char b;

	prctl(PR_SET_NAME, "ksrv");
	while (read(in, &b, 1) == 1) {
		double end = now(CLOCK_THREAD_CPUTIME_ID) + work;

		while (now(CLOCK_THREAD_CPUTIME_ID) < end)
			;
		if (write(out, &b, 1) != 1)
			break;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	int req[2], ans[2];
	double secs, work, end;
	long n = 0;
	pid_t srv;
	char b = 'r';

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: kreq SECONDS WORK_US [CGROUP]\n");
		return 2;
	}
	secs = atof(argv[1]);
	work = atof(argv[2]) / 1e6;
	if (pipe(req) || pipe(ans)) {
		perror("kreq: pipe");
		return 1;
	}
	srv = fork();
	if (srv < 0) {
		perror("kreq: fork");
		return 1;
	}
	if (!srv) {
		if (argc == 4) {
			char path[4096];
			FILE *f;

			snprintf(path, sizeof(path), "%s/cgroup.procs", argv[3]);
			f = fopen(path, "w");
			if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
				perror(path);
				_exit(1);
			}
		}
		close(req[1]);
		close(ans[0]);
		serve(req[0], ans[1], work);
	}
	close(req[0]);
	close(ans[1]);
	prctl(PR_SET_NAME, "kreq");
	end = now(CLOCK_MONOTONIC) + secs;
	while (now(CLOCK_MONOTONIC) < end) {
		if (write(req[1], &b, 1) != 1 || read(ans[0], &b, 1) != 1) {
			fprintf(stderr, "kreq: the server is gone\n");
			return 1;
		}
		n++;
	}
	close(req[1]);
	waitpid(srv, NULL, 0);
	printf("kreq: %ld requests\n", n);
	return 0;
}
