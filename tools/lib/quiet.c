// SPDX-License-Identifier: GPL-2.0
/*
 * quiet.c - waits that the node the tool traces never sees.
 *
 * `kstats trace do_nanosleep -d 4` must not time the tool's own 4 s
 * sleep, nor `kstats syscall` its clock_nanosleep, nor `kstats offcpu`
 * its time off CPU.  The kernel's filters cannot say "not this process"
 * (pid N is one process, and an "if" reads the probe's arguments, not the
 * current task), so the tool makes its waits invisible instead: a probe
 * records a call, a system call or a time off CPU only when it saw its
 * start, and each wait here starts before the node exists.
 *
 * Before the node is made, one thread a snapshot to take (a waiter: one
 * for -d, one an interval for -i) blocks in sigwaitinfo() for its timer,
 * a POSIX timer sent to it alone, and for SIGINT, SIGTERM, SIGHUP and
 * SIGCHLD, which every thread blocks.  The node is then made, and the
 * first waiter's timer set.  A waiter that wakes takes its snapshot at
 * once (the file's snapshot is taken at open, before anything of the
 * tool's since is recorded), calls back (print an interval, keep the
 * last snapshot), sets the next waiter's timer and blocks until the end,
 * never to be seen again.  The thread that made the node blocks until the
 * end too, so that none of the tool's waits ends while the node records.
 *
 * What the node may still see of the tool: its few system calls between
 * the making of the node and the first wait (the "Tracing" line, the
 * first timer), and with -i, each interval's reading and printing, in
 * the next interval: microseconds, never a wait.  A task woken (runqlat)
 * is the recipe's to leave out: its points name the task.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The timers' signal: a real-time one, sent to one thread. */
#define QUIET_SIG	(SIGRTMIN + 1)
/* A waiter's stack: a snapshot is parsed on the heap. */
#define QUIET_STACK	(256 << 10)

struct waiter {
	pthread_t th;
	pid_t tid;
	timer_t timer;
	int has_timer, started, woken;
	struct quiet *q;
};

struct quiet {
	struct waiter *w;
	int n;
	sigset_t set;		/* what a waiter waits for */
	pthread_mutex_t mu;
	pthread_cond_t end;
	int done, armed;	/* the waiter whose timer is set, or -1 */
	double (*fn)(void *ctx, int why);
	void *ctx;
};

/* The signals a waiter waits for; every thread blocks them. */
static void quiet_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
	sigaddset(set, QUIET_SIG);
}

/* Set waiter @i's timer to the monotonic time @at (0: unset it). */
static void arm(struct quiet *q, int i, double at)
{
	struct itimerspec its = { 0 };

	if (i < 0 || i >= q->n || !q->w[i].has_timer)
		return;
	its.it_value.tv_sec = (time_t)at;
	its.it_value.tv_nsec = (long)((at - floor(at)) * 1e9);
	if (at > 0 && !its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	timer_settime(q->w[i].timer, TIMER_ABSTIME, &its, NULL);
}

/* The first waiter not woken yet, or -1. */
static int next_free(struct quiet *q)
{
	for (int i = 0; i < q->n; i++)
		if (!q->w[i].woken)
			return i;
	return -1;
}

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct quiet *q = w->q;
	struct sigevent sev = { 0 };
	siginfo_t si;
	int sig, why;
	double next;

	w->tid = (pid_t)syscall(SYS_gettid);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = QUIET_SIG;
#ifdef sigev_notify_thread_id
	sev.sigev_notify_thread_id = w->tid;
#else
	sev._sigev_un._tid = w->tid;
#endif
	w->has_timer = !timer_create(CLOCK_MONOTONIC, &sev, &w->timer);
	__atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
	do {
		sig = sigwaitinfo(&q->set, &si);
	} while (sig < 0 && errno == EINTR);
	pthread_mutex_lock(&q->mu);
	w->woken = 1;
	if (!q->done) {
		why = sig == QUIET_SIG ? QUIET_TIMER :
		      sig == SIGCHLD ? QUIET_CHILD : QUIET_STOP;
		next = q->fn(q->ctx, why);
		if (next < 0 || next_free(q) < 0) {
			q->done = 1;
			pthread_cond_broadcast(&q->end);
		} else {
			/* the next deadline, on a waiter not woken yet */
			if (q->armed >= 0 && !q->w[q->armed].woken)
				arm(q, q->armed, 0);
			q->armed = next > 0 ? next_free(q) : -1;
			arm(q, q->armed, next);
		}
	}
	while (!q->done)
		pthread_cond_wait(&q->end, &q->mu);
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* Whether thread @tid sleeps (state S in /proc): in its sigwaitinfo(). */
static int asleep(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/**
 * quiet_new() - @n waiters, each blocked in its wait when this returns
 * @n: how many snapshots to take at most
 * @fn: called by each waiter woken, with why (QUIET_TIMER, QUIET_CHILD,
 *	QUIET_STOP): it takes its snapshot first; it returns the monotonic
 *	time of the next snapshot, 0 for none (a signal ends it), or -1 for
 *	the end
 * @ctx: for @fn
 *
 * The calling thread blocks the waiters' signals for good: a child it
 * starts must unblock them (child.c does).
 *
 * Return: the waiters, or NULL with the reason printed.
 */
struct quiet *quiet_new(int n, double (*fn)(void *ctx, int why), void *ctx)
{
	struct quiet *q = calloc(1, sizeof(*q));
	pthread_attr_t attr;
	int ok = 0;

	if (!q || !(q->w = calloc((size_t)n, sizeof(*q->w)))) {
		free(q);
		fail("out of memory");
		return NULL;
	}
	q->fn = fn;
	q->ctx = ctx;
	q->armed = -1;
	quiet_signals(&q->set);
	pthread_sigmask(SIG_BLOCK, &q->set, NULL);
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->end, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, QUIET_STACK);
	for (q->n = 0; q->n < n; q->n++) {
		q->w[q->n].q = q;
		if (pthread_create(&q->w[q->n].th, &attr, waiter_main, &q->w[q->n]))
			break;
	}
	pthread_attr_destroy(&attr);
	/* each in its wait before the node exists: the wait's start unseen */
	for (int i = 0, tries = 0; i < q->n && tries < 10000; tries++) {
		int s = __atomic_load_n(&q->w[i].started, __ATOMIC_ACQUIRE) ?
			asleep(q->w[i].tid) : 0;

		if (s < 0)
			break;
		if (s) {
			i++;
			ok = i == q->n;
			continue;
		}
		usleep(500);
	}
	if (q->n < n || !ok || !q->w[0].has_timer) {
		fail("cannot start the threads that wait unseen (%d of %d): %s; --self waits as any task",
		     q->n, n, strerror(errno ? errno : EAGAIN));
		quiet_free(q);
		return NULL;
	}
	return q;
}

/**
 * quiet_run() - set the first timer and wait for the end
 * @q: the waiters, once the node is made
 * @at: the monotonic time of the first snapshot, 0 for none
 */
void quiet_run(struct quiet *q, double at)
{
	pthread_mutex_lock(&q->mu);
	if (at > 0) {
		q->armed = 0;
		arm(q, 0, at);
	}
	while (!q->done)
		pthread_cond_wait(&q->end, &q->mu);
	pthread_mutex_unlock(&q->mu);
}

/**
 * quiet_free() - wake the waiters left, join them all, free @q
 * @q: the waiters, or NULL
 */
void quiet_free(struct quiet *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->mu);
	q->done = 1;
	pthread_cond_broadcast(&q->end);
	pthread_mutex_unlock(&q->mu);
	for (int i = 0; i < q->n; i++)
		if (!q->w[i].woken)
			pthread_kill(q->w[i].th, QUIET_SIG);
	for (int i = 0; i < q->n; i++) {
		pthread_join(q->w[i].th, NULL);
		if (q->w[i].has_timer)
			timer_delete(q->w[i].timer);
	}
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->end);
	free(q->w);
	free(q);
}
