// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - what kstats explain -d records beside the named nodes: the
 * machine's activity as series on the same slices, each a node with a
 * history, made for the window and removed after it (nothing of it runs
 * when explain is not recording):
 *
 *   throttle:PATH  CFS bandwidth throttling of a cgroup with a quota of its
 *                  own (cpu.max not "max"; PATH under the cgroup2 root): a
 *                  section from tg_throttle_down() to tg_unthrottle_up()
 *                  of that cgroup, on each CPU (the run queue pairs them),
 *                  its throttled time a slice
 *   hardirq:NAME   an interrupt line's handlers (irq_handler_entry/exit),
 *                  each line that has interrupted (the busiest
 *                  CONTEXT_IRQS), NAME its last action's; x86-64's local
 *                  timer vector as hardirq:LOC
 *   softirq:VEC    each soft interrupt vector that has run (/proc/softirqs)
 *   runqlat        run-queue latency, as the runqlat recipe measures it
 *   ivcsw          involuntary switches: sched_switch with preempt true
 *
 * Each is a node named CONTEXT_PREFIX and a number under the root; the
 * series are shown by the names above (context_shown()).  A context the
 * running kernel cannot give (no such function or tracepoint, no BTF to
 * name a cgroup's id) is left out, said on stderr with the reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "btf.h"
#include "cli.h"

#define CONTEXT_IRQS	16	/* hardirq:NAME nodes at most */
#define CONTEXT_CGROUPS	16	/* throttle:PATH nodes at most */

static void add_ctx(struct context *c, const char *shown, const char *cmd)
{
	struct context_node *n;

	if (c->n >= CONTEXT_MAX)
		return;
	n = &c->nodes[c->n++];
	snprintf(n->node, sizeof(n->node), CONTEXT_PREFIX "%zu", c->n);
	snprintf(n->shown, sizeof(n->shown), "%s", shown);
	/* the line with NODE in place of the template's "%s" */
	snprintf(n->cmd, sizeof(n->cmd), cmd, n->node);
}

/* A name as a series shows it: no blank, nothing unprintable. */
static void tidy(char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == ',')
			*s = '_';
}

/* hardirq:NAME: the busiest lines of /proc/interrupts, by handler. */
struct irq {
	long nr;
	unsigned long long count;
	char name[48];
};

static int cmp_irq(const void *a, const void *b)
{
	unsigned long long x = ((const struct irq *)a)->count;
	unsigned long long y = ((const struct irq *)b)->count;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void add_irqs(struct context *c)
{
	FILE *f = fopen("/proc/interrupts", "r");
	struct irq irqs[256];
	size_t n = 0;
	char line[4096], cmd[CONTEXT_CMD_MAX], shown[80];

	if (!f)
		return;
	while (n < 256 && fgets(line, sizeof(line), f)) {
		struct irq *q = &irqs[n];

		if (irq_line(line, &q->nr, &q->count, q->name, sizeof(q->name)) ||
		    !q->count || !q->name[0])
			continue;
		tidy(q->name);
		n++;
	}
	fclose(f);
	qsort(irqs, n, sizeof(irqs[0]), cmp_irq);
	for (size_t i = 0; i < n && i < CONTEXT_IRQS; i++) {
		/* a name twice (virtio queues): the line's number added */
		int twice = 0;

		for (size_t j = 0; j < n && j < CONTEXT_IRQS; j++)
			twice |= j != i && !strcmp(irqs[j].name, irqs[i].name);
		snprintf(shown, sizeof(shown), twice ? "hardirq:%s.%ld" : "hardirq:%s",
			 irqs[i].name, irqs[i].nr);
		snprintf(cmd, sizeof(cmd),
			 "trace %%s start tp:irq:irq_handler_entry key cpu if arg0 == %ld "
			 "end tp:irq:irq_handler_exit key cpu if arg0 == %ld",
			 irqs[i].nr, irqs[i].nr);
		add_ctx(c, shown, cmd);
	}
#if defined(__x86_64__)
	add_ctx(c, "hardirq:LOC",
		"trace %s start tp:irq_vectors:local_timer_entry key cpu "
		"end tp:irq_vectors:local_timer_exit key cpu");
#endif
}

/* softirq:VEC: the vectors of /proc/softirqs that have run, by number. */
static void add_softirqs(struct context *c)
{
	FILE *f = fopen("/proc/softirqs", "r");
	char line[4096], cmd[CONTEXT_CMD_MAX], shown[80];
	int vec = -1;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p, *e;
		unsigned long long sum = 0;

		if (!colon)
			continue;	/* the header: the CPUs */
		vec++;
		*colon = '\0';
		for (p = colon + 1;; p = e) {
			unsigned long long v = strtoull(p, &e, 10);

			if (e == p)
				break;
			sum += v;
		}
		if (!sum)
			continue;
		p = line + strspn(line, " ");
		snprintf(shown, sizeof(shown), "softirq:%s", p);
		tidy(shown);
		snprintf(cmd, sizeof(cmd),
			 "trace %%s start tp:irq:softirq_entry key cpu if arg0 == %d "
			 "end tp:irq:softirq_exit key cpu if arg0 == %d", vec, vec);
		add_ctx(c, shown, cmd);
	}
	fclose(f);
}

/* throttle:PATH: the cgroups (cgroup v2) with a CPU quota of their own. */
static struct context *walk_ctx;
static const char *walk_root;
static char walk_expr[BTF_VALUE_MAX];

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	char file[PATH_MAX + 16], max[64] = "", cmd[CONTEXT_CMD_MAX], shown[80];
	const char *rel = path + strlen(walk_root);
	FILE *f;

	if (type != FTW_D || !ftw->level)
		return 0;	/* the root has no cpu.max: it is never throttled */
	snprintf(file, sizeof(file), "%s/cpu.max", path);
	f = fopen(file, "r");
	if (!f)
		return 0;
	if (!fgets(max, sizeof(max), f))
		max[0] = '\0';
	fclose(f);
	if (!max[0] || !strncmp(max, "max", 3))
		return 0;
	snprintf(shown, sizeof(shown), "throttle:%s", rel);
	tidy(shown);
	/*
	 * tg_throttle_down(tg, rq) and tg_unthrottle_up(tg, rq) run for the
	 * throttled group and each below it, one run queue at a time: the
	 * group's id (its directory's inode) at both points, the run queue
	 * the key
	 */
	snprintf(cmd, sizeof(cmd),
		 "trace %%s start tg_throttle_down key arg1 if %s == %llu "
		 "end tg_unthrottle_up key arg1 if %s == %llu",
		 walk_expr, (unsigned long long)st->st_ino, walk_expr,
		 (unsigned long long)st->st_ino);
	add_ctx(walk_ctx, shown, cmd);
	return walk_ctx->nthrottle++ >= CONTEXT_CGROUPS - 1;
}

static void add_throttles(struct context *c)
{
	char dir[PATH_MAX], err[512];

	if (cgroup2_mount(dir, sizeof(dir)))
		return;
	if (btf_resolve_value("tg_throttle_down", "tg->css.cgroup->kn->id",
			      walk_expr, sizeof(walk_expr), err, sizeof(err))) {
		fprintf(stderr, "kstats: explain: no throttle:PATH context: %s\n",
			err);
		return;
	}
	walk_ctx = c;
	walk_root = dir;
	nftw(dir, walk_one, 16, FTW_PHYS);
	walk_ctx = NULL;
}

/*
 * runqlat: as the runqlat recipe (a task enters the run queue at a wakeup,
 * at its first, or switched out still runnable, the idle task never),
 * except a task switched out with its group throttled (cfs_rq->throttled):
 * its wait is the quota's, which throttle:PATH shows, and its group is
 * off the run queue; counted here it would make runqlat a copy of
 * throttle:PATH, and the symptom as strong as the cause.  A kernel whose
 * BTF does not say it: as the recipe.
 */
static void add_runqlat(struct context *c)
{
	static const char sw[] = "tp:sched:sched_switch";
	char state[BTF_VALUE_MAX], pid[BTF_VALUE_MAX], thr[BTF_VALUE_MAX];
	char cmd[CONTEXT_CMD_MAX], err[512];

	if (btf_resolve_value(sw, "prev->__state", state, sizeof(state), err,
			      sizeof(err)) ||
	    btf_resolve_value(sw, "prev->pid", pid, sizeof(pid), err,
			      sizeof(err))) {
		fprintf(stderr, "kstats: explain: no runqlat context: %s\n", err);
		return;
	}
	if (btf_resolve_value(sw, "prev->se.cfs_rq->throttled", thr, sizeof(thr),
			      err, sizeof(err))) {
		fprintf(stderr, "kstats: explain: runqlat counts a throttled group's wait too: %s\n",
			err);
		thr[0] = '\0';
	}
	snprintf(cmd, sizeof(cmd),
		 "trace %%s start tp:sched:sched_wakeup key arg0 "
		 "start tp:sched:sched_wakeup_new key arg0 "
		 "start %s key arg1 if %s == 0 if %s != 0%s%s%s "
		 "end %s key arg2", sw, state, pid, thr[0] ? " if " : "", thr,
		 thr[0] ? " == 0" : "", sw);
	add_ctx(c, "runqlat", cmd);
}

/* Remove what context_start() made, newest first (once: it keeps their names). */
void context_stop(struct context *c)
{
	if (c->stopped)
		return;
	c->stopped = 1;
	for (size_t i = c->made; i-- > 0;) {
		struct context_node *n = &c->nodes[i];
		char cmd[128], why[1200];
		int e;

		snprintf(cmd, sizeof(cmd), "remove %s\n", n->node);
		e = control_write(cmd);
		if (e > 0 && e != ENOENT)
			fail("explain: remove %s (%s): %s", n->node, n->shown,
			     refused_why(cmd, e, why, sizeof(why)));
	}
}

/*
 * Make the context nodes, each with a history of @slices slices of
 * @slice_ns.  What the kernel refuses as not there (ENOENT, EOPNOTSUPP)
 * is left out, said; any other refusal removes what was made and fails.
 * 0, or an exit status (said).
 */
int context_start(struct context *c, u64 slice_ns, u64 slices, int verbose)
{
	char why[1200];

	memset(c, 0, sizeof(*c));
	add_throttles(c);
	add_irqs(c);
	add_softirqs(c);
	add_runqlat(c);
	add_ctx(c, "ivcsw", "trace tp:sched:sched_switch name %s value arg0 if arg0 == 1");
	for (size_t i = 0; i < c->n; i++) {
		struct context_node *n = &c->nodes[i];
		size_t l = strcspn(n->cmd, "\n");
		int e;

		snprintf(n->cmd + l, sizeof(n->cmd) - l, " history %llu %llu\n",
			 (unsigned long long)slice_ns, (unsigned long long)slices);
		if (verbose)
			fprintf(stderr, "%s", n->cmd);
		e = control_write(n->cmd);
		if (!e) {
			/* made in order: the first c->made of them */
			if (c->made != i)
				c->nodes[c->made] = *n;
			c->made++;
			continue;
		}
		if (e == ENOENT || e == EOPNOTSUPP) {
			fprintf(stderr, "kstats: explain: no %s context: %s\n",
				n->shown, refused_why(n->cmd, e, why, sizeof(why)));
			continue;
		}
		if (e == EEXIST)
			fail("explain: %s exists: another kstats explain -d is recording (or one was killed: remove %s*)",
			     n->node, CONTEXT_PREFIX);
		else if (e > 0)
			fail("explain: %s (%s) refused: %s", n->node, n->shown,
			     refused_why(n->cmd, e, why, sizeof(why)));
		context_stop(c);
		return EXIT_ERROR;
	}
	c->n = c->made;
	return 0;
}

const char *context_shown(const struct context *c, const char *node)
{
	for (size_t i = 0; i < c->made; i++)
		if (!strcmp(c->nodes[i].node, node))
			return c->nodes[i].shown;
	return NULL;
}
