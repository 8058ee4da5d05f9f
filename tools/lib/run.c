// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - a trace node for the time being, as `kstats trace` and the
 * recipes make one: COMMAND held before its exec (child.c), the waits
 * that will take the snapshots started (quiet.c), the node made (saying
 * so on stderr while the kernel attaches), COMMAND let run, then the
 * histogram printed (one per interval with -i) and the node removed, also
 * on Ctrl-C, SIGTERM, SIGHUP or a reader gone away.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* A run: where the node is, what was seen of it, how it ends. */
struct live {
	const struct opts *o;
	char path[PATH_MAX + 64];
	struct snapshot prev, last;
	int have_prev, have_last, ret;
	double start, t_last, deadline;
	long intervals, max_intervals;
	struct child *child;
};

/*
 * -- COMMAND's options: it is the process traced (no --pid nor --tid),
 * --follow its cgroup (no --cgroup), kstats' own calls are none of it
 * (no --self).
 */
int trace_check_run(const struct opts *o)
{
	if (!o->nrun && (o->seen & O_FOLLOW))
		return usage_error("--follow follows a COMMAND's children: give -- COMMAND [ARGS] last");
	if (!o->nrun)
		return 0;
	if (o->seen & (O_PID | O_TID))
		return usage_error("-- COMMAND is the process traced: no --pid nor --tid with it");
	if ((o->seen & O_FOLLOW) && o->cgroup)
		return usage_error("--follow puts COMMAND in a cgroup of its own, the node's filter: no --cgroup with it");
	if (o->seen & O_SELF)
		return usage_error("--self counts kstats' own calls: with -- COMMAND, only COMMAND's are");
	return 0;
}

/* -- COMMAND started, held before its exec; its pid or cgroup in @o. */
int run_start(struct opts *o, struct child *c)
{
	int ret = child_start(c, o->run, !!(o->seen & O_FOLLOW));

	if (ret)
		return ret;
	if (o->seen & O_FOLLOW)
		o->run_cgroup = c->cgroup;
	else
		o->run_pid = c->pid;
	return 0;
}

/* The delta of the node since the last snapshot (or its making), printed. */
static int print_interval(struct live *l, struct snapshot *cur, double t)
{
	struct kslot *d;
	size_t n;
	int reset;

	d = l->have_prev ? delta(cur, &l->prev, &n, &reset)
			 : hist_delta(cur->slots, cur->nslots, NULL, 0, &n, &reset);
	if (!d) {
		snapshot_free(cur);
		return fail("out of memory");
	}
	if (!l->have_prev && cur->value[0])
		printf("# value %s\n", cur->value);
	if (!l->have_prev && cur->filter[0])
		printf("# filter %s\n", cur->filter);
	printf("\n%.1fs-%.1fs: %llu samples\n", l->t_last - l->start,
	       t - l->start, (unsigned long long)hist_total(d, n));
	print_histogram_bits(stdout, d, n, cur->frac_bits, cur->unit,
			     l->o->rows);
	print_negative(stdout, cur, l->have_prev ? &l->prev : NULL);
	fflush(stdout);
	free(d);
	l->t_last = t;
	if (l->have_prev)
		snapshot_free(&l->prev);
	l->prev = *cur;
	l->have_prev = 1;
	return 0;
}

/* The whole node, once it ended, as show prints it. */
static void print_final(const struct live *l, struct snapshot *cur)
{
	const struct opts *o = l->o;
	struct keyview kv = { .top = o->top, .names = o->names };

	sort_keys(cur, o->sort);
	if (o->names == KEYS_LOCK_CALLER && lock_callers(cur))
		fprintf(stderr, "kstats: out of memory: the stacks as they are\n");
	if (o->folded && cur->is_family) {
		print_folded(stdout, cur);
	} else {
		printf("\n");
		print_show_keys(stdout, cur, 0, o->rows, &kv);
	}
}

/* The time of the next snapshot: the next interval's end, or -d's. */
static double next_deadline(const struct live *l)
{
	const struct opts *o = l->o;
	double end = o->seen & O_DUR ? l->start + o->dur : 0;
	double at = o->seen & O_INT ?
		    l->start + (double)(l->intervals + 1) * o->interval : end;

	return end && at > end ? end : at;
}

/*
 * A waiter woke (quiet.c): take the snapshot first, then say what it is.
 * The next snapshot's time, 0 for none, or -1 at the end.
 */
static double on_wake(void *ctx, int why)
{
	struct live *l = ctx;
	const struct opts *o = l->o;
	struct snapshot cur;
	double t;

	if (load(l->path, &cur)) {
		l->ret = EXIT_ERROR;
		return -1;
	}
	t = now();
	if (why == QUIET_CHILD && l->child->pid > 0 && !child_exited(l->child)) {
		snapshot_free(&cur);	/* stopped or continued: not its end */
		return l->deadline;
	}
	if (!(o->seen & O_INT)) {
		l->last = cur;
		l->have_last = 1;
		return -1;
	}
	if (print_interval(l, &cur, t)) {
		l->ret = EXIT_ERROR;
		return -1;
	}
	l->intervals++;
	if (why != QUIET_TIMER ||
	    ((o->seen & O_DUR) && t - l->start >= o->dur - 1e-3))
		return -1;
	if (l->intervals >= l->max_intervals) {
		fprintf(stderr, "kstats: -i: %ld intervals, the most that kstats' own waits are left out of (--self for more)\n",
			l->max_intervals);
		return -1;
	}
	l->deadline = next_deadline(l);
	return l->deadline;
}

/*
 * --self: the waits are ordinary sleeps, which the node counts (a COMMAND's
 * end, SIGCHLD, ends them too).
 */
static void run_plain(struct live *l)
{
	const struct opts *o = l->o;
	struct snapshot cur;

	for (;;) {
		double left = l->deadline ? l->deadline - now() : 3600;
		int stopped = nap(left > 0 ? left : 0);
		int ended = stopped || (l->child->pid > 0 && child_exited(l->child));

		if (!ended && l->deadline && now() < l->deadline - 1e-3)
			continue;
		if (load(l->path, &cur)) {
			l->ret = EXIT_ERROR;
			return;
		}
		if (!(o->seen & O_INT)) {
			l->last = cur;
			l->have_last = 1;
			return;
		}
		if (print_interval(l, &cur, now())) {
			l->ret = EXIT_ERROR;
			return;
		}
		l->intervals++;
		if (ended || ((o->seen & O_DUR) && now() - l->start >= o->dur - 1e-3))
			return;
		l->deadline = next_deadline(l);
	}
}

/* How many snapshots a run takes at most: one, or one an interval. */
static long snapshots(const struct opts *o)
{
	double n;

	if (!(o->seen & O_INT))
		return 1;
	if (!(o->seen & O_DUR) || o->nrun)
		return QUIET_MAX;
	n = ceil(o->dur / o->interval - 1e-9);
	return n < 1 ? 1 : n > QUIET_MAX ? QUIET_MAX : (long)n;
}

/*
 * A node over several functions: how many the kernel attached, from its
 * header ("# functions matched N traced T skipped S"), on stderr.
 */
static void say_attached(const char *path, double secs)
{
	char line[256];
	FILE *f = fopen(path, "r");
	unsigned long long m, t, s;
	int said = 0;

	while (f && fgets(line, sizeof(line), f) && line[0] == '#')
		if (sscanf(line, "# functions matched %llu traced %llu skipped %llu",
			   &m, &t, &s) == 3) {
			fprintf(stderr, "kstats: attached %llu of %llu functions in %.1f s (%llu skipped: their reasons on the node's '# skipped' line)\n",
				t, m, secs, s);
			said = 1;
		}
	if (f)
		fclose(f);
	if (!said)
		fprintf(stderr, "kstats: attached in %.1f s\n", secs);
}

/*
 * Write @cmd (one or more _control lines) to _control and trace the node
 * @node it makes, titled @what: for -d, until a signal or until COMMAND
 * (@child, started) exits; then print its histogram (one per interval
 * with -i) and remove it.  -v: each line written, on stderr.  Shared with
 * the recipes (recipe.c).
 */
int trace_run(const struct opts *o, const char *cmd, const char *node,
	      const char *what, struct child *child)
{
	struct live l = { .o = o, .child = child };
	struct quiet *q = NULL;
	struct sigaction sa;
	char rm[128];
	double t0;
	int status;

	snprintf(l.path, sizeof(l.path), "%s/%s", root, node);
	l.max_intervals = snapshots(o);
	/* A reader gone (kstats ... | head) must not kill us before remove. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if (o->seen & O_SELF) {
		catch_signals();
	} else {
		q = quiet_new((int)l.max_intervals, on_wake, &l);
		if (!q) {
			child_end(child);
			return EXIT_ERROR;
		}
	}
	if (o->seen & O_VERBOSE)
		fputs(cmd, stderr);
	fprintf(stderr, "kstats: attaching %s ...\n", node);
	t0 = now();
	if (control(cmd)) {
		quiet_free(q);
		child_end(child);
		return EXIT_ERROR;
	}
	if (strpbrk(cmd, "*?[,") && !strstr(cmd, " start "))
		say_attached(l.path, now() - t0);
	else if (now() - t0 >= 0.5)
		fprintf(stderr, "kstats: attached in %.1f s\n", now() - t0);
	printf("Tracing %s%s.%s\n", what,
	       o->seen & O_INT ? ", one histogram per interval" : "",
	       o->nrun ? "" : o->seen & O_DUR ? "" : " Ctrl-C to end.");
	fflush(stdout);
	l.start = l.t_last = now();
	l.deadline = next_deadline(&l);
	if (o->nrun && child_release(child))
		l.ret = EXIT_ERROR;
	else if (q)
		quiet_run(q, l.deadline);
	else
		run_plain(&l);
	quiet_free(q);
	if (l.have_last) {
		print_final(&l, &l.last);
		snapshot_free(&l.last);
	}
	if (l.have_prev)
		snapshot_free(&l.prev);
	fflush(stdout);
	snprintf(rm, sizeof(rm), "remove %s\n", node);
	if (o->seen & O_VERBOSE)
		fputs(rm, stderr);
	if (control(rm))
		l.ret = EXIT_ERROR;
	if (o->nrun) {
		int ran = child->reaped;

		status = child_end(child);
		if (!ran)
			fprintf(stderr, "kstats: %s was still running: ended (SIGTERM)\n",
				o->run[0]);
		else if (status)
			fprintf(stderr, "kstats: %s exited with status %d\n",
				o->run[0], status);
	}
	return l.ret;
}
