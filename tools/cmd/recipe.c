// SPDX-License-Identifier: GPL-2.0
/*
 * recipe.c - `kstats runqlat`, `biolatency`, `syscall [NAME]`, `lockwait`,
 * `softirq`, `hardirq`, `offcpu`: the latencies people ask about most, each
 * a keyed section of the module (a start point and an end point paired by a
 * key), set up, printed and removed as `kstats trace` does (trace_run()).
 *
 * A recipe is data: its two points and keys, and where each filter of the
 * command line (--pid, --tid, --comm, --cpu) goes in the kernel's line, or
 * why it cannot go anywhere.  recipe_command() turns a recipe and the
 * options into the _control line:
 *
 *   trace NODE start POINT key K [match V] [FILTER...] [by KEY [max N]]
 *              [start POINT key K [FILTER...] [by V]]...
 *              end POINT key K [match V] [FILTER...] [nest outer]
 *              [full refuse] [inflight N] [bits B]
 *
 * A recipe may have further starts (runqlat: a task enters the run queue
 * when woken, when woken for the first time, and when preempted), each
 * with its own conditions; a filter or key about a task that is an
 * argument of the points is then read at each start from that start's
 * task (p at a wakeup, prev at a switch).
 *
 * A recipe may be a family (one histogram per key, taken at the start):
 * always (softirq by vector, hardirq by IRQ), without an argument (syscall
 * by call), or with an option named as libbpf-tools names it (runqlat
 * --pids/--tids, biolatency --disk); --by KEY picks any key.  --by
 * pid|tid|comm means the task the recipe is about: runqlat's woken task,
 * read at each start from that start's task as --pid is (its name as a
 * string key, "by str:V").
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "btf.h"
#include "cli.h"
#include "grammar.h"

#define CMD_MAX	1024

/*
 * Where one filter of the command line goes.  The kernel's own filters
 * (pid, tid, comm, cpu) test the task current at a point, or its CPU:
 * AT_BOTH writes them after each point, AT_START / AT_END after that one.
 * AT_ARG tests a task that is a parameter of the points instead ("if
 * EXPR == N", EXPR translated with the kernel's BTF: @sexpr at the start,
 * @eexpr at the end).  AT_NO: it cannot be said honestly; @means says why.
 */
enum at { AT_NO, AT_BOTH, AT_START, AT_END, AT_ARG };

struct place {
	enum at at;
	const char *sexpr, *eexpr;
	const char *means;	/* what the filter selects, or why not */
};

/*
 * A family of a recipe: when it is one, its key at the start point (the
 * kernel's terms, or an expression translated with BTF), how show names
 * the keys, and what a key is (for the title).
 */
enum when { BY_NEVER, BY_ALWAYS, BY_NONAME, BY_PIDS, BY_TIDS, BY_DISK,
	    BY_NOBTF };

/*
 * @str: the key is the string @expr points to ("by str:V"); BY_NOBTF: the
 * family taken instead of the BY_ALWAYS one when BTF cannot translate it.
 */
struct byplace {
	enum when when;
	const char *expr;
	enum keynames names;
	const char *per;
	bool str;
};

/* One condition of a further start, in BTF terms: "EXPR TEST". */
struct rcond {
	const char *expr, *test;
};

/*
 * A further start: its point and key, the task it is about (what "p" of
 * the first start is called there), and up to two conditions; without
 * the BTF that translates them, the start is left out, saying what is
 * then not counted (@without).
 */
struct rstart {
	const char *point, *key, *task;
	struct rcond cond[2];
	const char *without;
};

#define MORE_STARTS	2

struct recipe {
	const char *name, *title;
	struct byplace by[2];
	const char *start, *skey, *end, *ekey;
	/* the task argument at the first start (for further starts) */
	const char *stask;
	struct rstart more[MORE_STARTS];
	/*
	 * -Q: the first start at @queued's point instead, the recipe's own
	 * start a further one, under @queued's conditions
	 */
	struct rstart queued;
	/*
	 * --by comm of a recipe whose task is an argument of its points: the
	 * task's name, a string at its first start (further starts name
	 * their own task, as for --by pid)
	 */
	struct byplace by_comm;
	/* the task at the start whose pid 0 is the idle task, left out
	 * unless --idle */
	const char *no_idle;
	/* "match V" at both points, "nest outer", "full refuse", or not */
	const char *smatch, *ematch;
	bool nest_outer, full_refuse;
	unsigned int inflight;		/* 0: the module's default */
	struct place pid, tid, comm, cpu, cgroup;
	/*
	 * --by cgroup: the task whose cgroup the start's key is, or why
	 * there is none to take (NULL: the task of --comm, if it has one)
	 */
	const char *by_cgroup_no;
	/*
	 * --by caller of a section: its first start's stack, @caller_frames
	 * deep, each key named by its first frame outside the kernel's lock
	 * and scheduler functions, as perf lock contention names a caller
	 */
	unsigned int caller_frames;
	/* syscall NAME: "if ARG == NR" at the start and at the end */
	const char *nr_start, *nr_end;
	/*
	 * the task a start is about, written of the first start's task:
	 * "if TASK != kstats" there leaves kstats' own tasks out
	 */
	const char *self_task;
};

#define TASKLESS "belongs to no task: it runs on top of whichever task it interrupted"

static const struct recipe recipes[] = {
	{
		.name = "runqlat",
		.title = "run-queue latency, enqueued to running",
		/*
		 * as libbpf-tools' runqlat: a task enters the run queue when
		 * woken (a later wakeup refreshes the start), when woken for
		 * the first time, and when switched out still runnable
		 * (preempted; the idle task is never queued)
		 */
		.start = "tp:sched:sched_wakeup", .skey = "arg0", .stask = "p",
		.more = {
			{ .point = "tp:sched:sched_wakeup_new", .key = "arg0",
			  .task = "p" },
			{ .point = "tp:sched:sched_switch", .key = "arg1",
			  .task = "prev",
			  .cond = { { "prev->__state", "== 0" },
				    { "prev->pid", "!= 0" } },
			  .without = "a preempted task's wait is not counted" },
		},
		.end = "tp:sched:sched_switch", .ekey = "arg2",
		.pid = { AT_ARG, "p->tgid", "next->tgid", "the woken process (its tasks' tgid), at the wakeup and at the switch in" },
		.tid = { AT_ARG, "p->pid", "next->pid", "the woken thread, at the wakeup and at the switch in" },
		.comm = { AT_NO, NULL, NULL, "the woken task is current at neither point (sched_wakeup runs in the waker, sched_switch in the task switched out): use --pid or --tid" },
		.cpu = { AT_END, NULL, NULL, "the CPU the task was switched in on" },
		/* as libbpf-tools' runqlat -c: the task current at each point */
		.cgroup = { AT_BOTH, NULL, NULL, "the task current at the wakeup (the waker) and at the switch in (the task switched out), as runqlat -c" },
		.by_cgroup_no = "the task current at the wakeup is the waker, not the woken task",
		.self_task = "p->tgid",
		.by = { { BY_PIDS, "p->tgid", KEYS_RAW, "woken process (tgid)", false },
			{ BY_TIDS, "p->pid", KEYS_RAW, "woken thread (pid)", false } },
		.by_comm = { BY_NEVER, "p->comm", KEYS_RAW, "woken task (comm)", true },
	}, {
		.name = "biolatency",
		.title = "block I/O latency, issue to completion",
		.start = "tp:block:block_rq_issue", .skey = "arg0",
		.end = "tp:block:block_rq_complete", .ekey = "arg0",
		.pid = { AT_START, NULL, NULL, "the process current when the request was issued to the driver (the submitter, or a kworker that issued it)" },
		.tid = { AT_START, NULL, NULL, "the thread current when the request was issued" },
		.comm = { AT_START, NULL, NULL, "the task current when the request was issued" },
		.cpu = { AT_START, NULL, NULL, "the CPU the request was issued on" },
		.cgroup = { AT_START, NULL, NULL, "the task current when the request was issued, as biolatency -c" },
		/*
		 * the whole disk, as the peer keys it (rq->part is the
		 * partition, and NULL when the queue's iostats is off)
		 */
		.by = { { BY_DISK, "rq->q->disk->part0->bd_dev", KEYS_DISK, "disk", false } },
		/*
		 * -Q, as the peer's: from the insertion into the I/O
		 * scheduler; a queue without one inserts nothing, its
		 * requests start at the issue
		 */
		.stask = "rq",
		.queued = { .point = "tp:block:block_rq_insert", .key = "arg0",
			    .cond = { { "rq->q->elevator", "== 0" } } },
	}, {
		.name = "syscall",
		.title = "system call latency",
		.start = "tp:raw_syscalls:sys_enter", .skey = "task",
		.end = "tp:raw_syscalls:sys_exit", .ekey = "task",
		.inflight = 16384,
		.pid = { AT_BOTH, NULL, NULL, "the calling process" },
		.tid = { AT_BOTH, NULL, NULL, "the calling thread" },
		.comm = { AT_BOTH, NULL, NULL, "the calling task" },
		.cpu = { AT_START, NULL, NULL, "the CPU the call was entered on" },
		.cgroup = { AT_BOTH, NULL, NULL, "the calling task" },
		.by = { { BY_NONAME, "arg1", KEYS_SYSCALL, "system call", false } },
		/*
		 * sys_enter(regs, id); sys_exit(regs, ret): regs->orig_ax on
		 * x86-64, regs->syscallno (an s32) on arm64
		 */
		.nr_start = "arg1",
#if defined(__x86_64__)
		.nr_end = "arg0+120:8",
#elif defined(__aarch64__)
		.nr_end = "arg0+280:s4",
#endif
	}, {
		.name = "lockwait",
		.title = "lock contention, wait to acquisition",
		.start = "tp:lock:contention_begin", .skey = "task",
		.end = "tp:lock:contention_end", .ekey = "task",
		/*
		 * contention_begin(lock, flags), contention_end(lock, ret): a
		 * slow mutex wait begins twice (spin, then sleep) and ends
		 * once, and a spinlock's wait may nest inside it; as perf lock
		 * contention does, the outer begin stays and only the end of
		 * the same lock closes it
		 */
		.smatch = "arg0", .ematch = "arg0", .nest_outer = true,
		.pid = { AT_BOTH, NULL, NULL, "the waiting process" },
		.tid = { AT_BOTH, NULL, NULL, "the waiting thread" },
		.comm = { AT_BOTH, NULL, NULL, "the waiting task" },
		.cpu = { AT_START, NULL, NULL, "the CPU the wait began on" },
		.cgroup = { AT_BOTH, NULL, NULL, "the waiting task" },
		.caller_frames = 16,
	}, {
		.name = "softirq",
		.title = "softirq duration",
		.start = "tp:irq:softirq_entry", .skey = "cpu",
		.end = "tp:irq:softirq_exit", .ekey = "cpu",
		.pid = { AT_NO, NULL, NULL, "a softirq " TASKLESS " (or in ksoftirqd)" },
		.tid = { AT_NO, NULL, NULL, "a softirq " TASKLESS " (or in ksoftirqd)" },
		.comm = { AT_NO, NULL, NULL, "a softirq " TASKLESS " (or in ksoftirqd)" },
		.cpu = { AT_BOTH, NULL, NULL, "the CPU the softirq ran on" },
		.cgroup = { AT_NO, NULL, NULL, "a softirq " TASKLESS " (or in ksoftirqd)" },
		.by_cgroup_no = "a softirq " TASKLESS " (or in ksoftirqd)",
		/* softirq_entry(vec_nr) */
		.by = { { BY_ALWAYS, "arg0", KEYS_SOFTIRQ, "vector", false } },
	}, {
		.name = "hardirq",
		.title = "hardirq handler duration",
		.start = "tp:irq:irq_handler_entry", .skey = "cpu",
		.end = "tp:irq:irq_handler_exit", .ekey = "cpu",
		.pid = { AT_NO, NULL, NULL, "a hardirq " TASKLESS },
		.tid = { AT_NO, NULL, NULL, "a hardirq " TASKLESS },
		.comm = { AT_NO, NULL, NULL, "a hardirq " TASKLESS },
		.cpu = { AT_BOTH, NULL, NULL, "the CPU the handler ran on" },
		.cgroup = { AT_NO, NULL, NULL, "a hardirq " TASKLESS },
		.by_cgroup_no = "a hardirq " TASKLESS,
		/*
		 * irq_handler_entry(irq, action): by the handler's name, as
		 * the peer keys it (handlers sharing a line apart); by the
		 * IRQ without BTF
		 */
		.by = { { BY_ALWAYS, "action->name", KEYS_RAW, "handler", true },
			{ BY_NOBTF, "arg0", KEYS_IRQ, "IRQ", false } },
	}, {
		.name = "offcpu",
		.title = "off-CPU time, switched out to switched in",
		.start = "tp:sched:sched_switch", .skey = "arg1",
		.end = "tp:sched:sched_switch", .ekey = "arg2",
		.inflight = 16384,
		/* every sleeping task holds a start: a full table loses the
		 * newest (counted), rather than cut the longest sleeps */
		.full_refuse = true,
		/* the idle task's time off CPU is the others' on it */
		.no_idle = "prev->pid",
		.self_task = "prev->tgid",
		.pid = { AT_START, NULL, NULL, "the process switched out (current at sched_switch is the task leaving)" },
		.tid = { AT_START, NULL, NULL, "the thread switched out" },
		.comm = { AT_START, NULL, NULL, "the task switched out" },
		.cpu = { AT_START, NULL, NULL, "the CPU the task left" },
		.cgroup = { AT_START, NULL, NULL, "the task switched out" },
	},
};

#define NRECIPES (sizeof(recipes) / sizeof(recipes[0]))

static const struct recipe *find(const char *name)
{
	for (size_t i = 0; i < NRECIPES; i++)
		if (!strcmp(name, recipes[i].name))
			return &recipes[i];
	return NULL;
}

static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * The kernel's filters and ifs at each point: [1] start, [2] end, [3..]
 * the further starts.
 */
#define NPOINTS	(3 + MORE_STARTS)
struct placed {
	char native[NPOINTS][384];
	char ifs[NPOINTS][256];
};

/* What _control takes in one write (KSTATS_CMD_MAX), with the newline. */
#define CONTROL_MAX	512

/*
 * @expr, written of the first start's task (p->tgid), as further start @i
 * names its task (prev->tgid), in @out.  0, or -1 if @expr is not of that
 * task.
 */
static int at_more(const struct recipe *r, int i, const char *expr,
		   char *out, size_t len)
{
	size_t n = r->stask ? strlen(r->stask) : 0;

	if (!n || strncmp(expr, r->stask, n) || strncmp(expr + n, "->", 2))
		return -1;
	snprintf(out, len, "%s%s", r->more[i].task, expr + n);
	return 0;
}

static int nmore(const struct recipe *r)
{
	int n = 0;

	while (n < MORE_STARTS && r->more[n].point)
		n++;
	return n;
}

/*
 * Put one filter (--OPT, the kernel's word KW and value VAL) where @pl
 * says.  0, or a usage error.
 */
static int put(const struct recipe *r, const struct place *pl,
	       const char *opt, const char *kw, const char *val,
	       struct placed *p)
{
	char v[BTF_VALUE_MAX], err[768], more[MORE_STARTS][128];
	const char *expr[2 + MORE_STARTS] = { pl->sexpr, pl->eexpr };
	const char *point[2 + MORE_STARTS] = { r->start, r->end };
	int n = 2 + nmore(r);

	switch (pl->at) {
	case AT_NO:
		fprintf(stderr, "kstats: %s --%s: %s\n", r->name, opt, pl->means);
		return EXIT_ERROR;
	case AT_BOTH:	/* at each point: the module takes filters before
			 * "start" or after the points, not both */
	case AT_START:
	case AT_END:
		/* [1] start, [2] end, [3..] further starts, as at the first */
		for (int i = 1; i <= n; i++)
			if (pl->at == AT_BOTH ||
			    (int)(pl->at - AT_BOTH) == (i > 2 ? 1 : i))
				add(p->native[i], sizeof(p->native[0]),
				    " %s %s", kw, val);
		return 0;
	case AT_ARG:
		for (int i = 2; i < n; i++) {
			if (at_more(r, i - 2, pl->sexpr, more[i - 2],
				    sizeof(more[0])))
				return fail("%s --%s: %s is not of the task %s names",
					    r->name, opt, pl->sexpr, r->more[i - 2].point);
			expr[i] = more[i - 2];
			point[i] = r->more[i - 2].point;
		}
		for (int i = 0; i < n; i++) {
			if (btf_resolve_value(point[i], expr[i], v, sizeof(v),
					      err, sizeof(err)))
				return fail("%s --%s needs %s of %s: %s", r->name,
					    opt, expr[i], point[i], err);
			add(p->ifs[1 + i], sizeof(p->ifs[0]), " if %s == %s", v,
			    val);
		}
		return 0;
	}
	return EXIT_ERROR;
}

/*
 * -- COMMAND: its process, or its cgroup (--follow), where the recipe's
 * filter of that says COMMAND's tasks; a recipe whose work belongs to no
 * task (softirq) counts all of it while COMMAND runs, saying so.
 */
static int put_run(const struct opts *o, const struct recipe *r,
		   struct placed *p, char *what, size_t wlen)
{
	const struct place *pl = o->run_cgroup ? &r->cgroup : &r->pid;
	char val[64];
	int ret;

	if (pl->at == AT_NO) {
		fprintf(stderr, "kstats: %s: every task's while %s runs: %s\n",
			r->name, o->run[0], pl->means);
		add(what, wlen, ", while %s runs", o->run[0]);
		return 0;
	}
	if (o->run_cgroup && r->by_cgroup_no)
		return fail("%s --follow: a cgroup filter tests the task current at each point, and %s: without --follow, -- COMMAND counts COMMAND's process",
			    r->name, r->by_cgroup_no);
	if (o->run_cgroup)
		snprintf(val, sizeof(val), "%s", o->run_cgroup);
	else
		snprintf(val, sizeof(val), "%ld", o->run_pid);
	ret = put(r, pl, o->run_cgroup ? "follow" : "pid",
		  o->run_cgroup ? "cgroup" : "pid", val, p);
	if (ret)
		return ret;
	if (o->run_cgroup)
		add(what, wlen, ", only %s and its children (cgroup %s)",
		    o->run[0], o->run_cgroup);
	else
		add(what, wlen, ", only %s (pid %ld)", o->run[0], o->run_pid);
	return 0;
}

/*
 * kstats' own tasks left out where the recipe's starts name the task
 * ("if p->tgid != SELF"): its waits start before the node (quiet.c), but
 * its wakeups are runqlat's to see.  Without the BTF to say it, they are
 * counted, and it says so.
 */
static void put_self(const struct recipe *r, struct placed *p)
{
	const char *expr[1 + MORE_STARTS] = { r->self_task };
	const char *point[1 + MORE_STARTS] = { r->start };
	char v[BTF_VALUE_MAX], err[768], more[MORE_STARTS][128];
	int n = 1 + nmore(r);

	for (int i = 1; i < n; i++) {
		if (at_more(r, i - 1, r->self_task, more[i - 1], sizeof(more[0])))
			return;
		expr[i] = more[i - 1];
		point[i] = r->more[i - 1].point;
	}
	for (int i = 0; i < n; i++)
		if (btf_resolve_value(point[i], expr[i], v, sizeof(v), err,
				      sizeof(err))) {
			fprintf(stderr, "kstats: %s: %s of %s: %s: kstats' own tasks are counted too\n",
				r->name, expr[i], point[i], err);
			return;
		}
	for (int i = 0; i < n; i++) {
		btf_resolve_value(point[i], expr[i], v, sizeof(v), err, sizeof(err));
		add(p->ifs[i ? 2 + i : 1], sizeof(p->ifs[0]), " if %s != %d", v,
		    (int)getpid());
	}
}

/* Where the filter of the kernel's key word @kw goes in @r, or NULL. */
static const struct place *native_place(const struct recipe *r, const char *kw)
{
	if (!strcmp(kw, "pid"))
		return &r->pid;
	if (!strcmp(kw, "tid"))
		return &r->tid;
	if (!strcmp(kw, "comm"))
		return &r->comm;
	if (!strcmp(kw, "cpu"))
		return &r->cpu;
	if (!strcmp(kw, "cgroup"))
		return &r->cgroup;
	return NULL;
}

/* A family's key @expr at @point with BTF: a value, or a string (@str). */
static int resolve_by(const char *point, const char *expr, int str, char *v,
		      size_t len, char *err, size_t errlen)
{
	return str ? btf_resolve_string(point, expr, v, len, err, errlen) :
		     btf_resolve_value(point, expr, v, len, err, errlen);
}

/*
 * The family @o asks of @r: --by KEY, --pids, --tids, --disk or the
 * recipe's own; " by KEY [max N]" in @out (empty if none), the names of
 * the keys in @names.  0, or an exit status with the message printed.
 */
static int family_of(const struct opts *o, const struct recipe *r, int noarg,
		     char *out, size_t len, char (*more)[BTF_VALUE_MAX + 8],
		     char *what, size_t wlen, enum keynames *names)
{
	static const struct { unsigned int opt; enum when when; const char *name; } asked[] = {
		{ O_PIDS, BY_PIDS, "pids" }, { O_TIDS, BY_TIDS, "tids" },
		{ O_DISK, BY_DISK, "disk" },
	};
	const struct byplace *b = NULL;
	char v[BTF_VALUE_MAX], err[768];
	const char *expr = o->by, *opt = NULL;

	*names = KEYS_RAW;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		if (!(o->seen & asked[i].opt))
			continue;
		if (opt || o->by)
			return usage_error("one key a family: --by, --pids, --tids or --disk");
		opt = asked[i].name;
		for (int j = 0; j < 2; j++)
			if (r->by[j].when == asked[i].when)
				b = &r->by[j];
		if (!b)
			return fail("%s has no --%s", r->name, opt);
	}
	for (int j = 0; !b && !o->by && j < 2; j++)
		if (r->by[j].when == BY_ALWAYS || (r->by[j].when == BY_NONAME && noarg))
			b = &r->by[j];
	if (!b && o->by && !strcmp(o->by, "comm") && r->by_comm.expr)
		b = &r->by_comm;
	if (b) {
		expr = b->expr;
		*names = b->names;
	} else if (o->by && !strcmp(o->by, "caller")) {
		/* a section has no function to return to: the stack says */
		if (!r->caller_frames)
			return fail("%s --by caller: the caller is a function's, and %s is a section between tracepoints: use --by stack",
				    r->name, r->name);
		snprintf(out, len, " by stack %u", r->caller_frames);
		if (o->seen & O_MAXKEYS)
			add(out, len, " max %ld", o->max_keys);
		*names = KEYS_LOCK_CALLER;
		add(what, wlen, ", a histogram per caller (the first frame outside the lock and scheduler functions)");
		return 0;
	} else if (o->by && !strcmp(o->by, "cgroup") && r->by_cgroup_no) {
		return fail("%s --by cgroup: %s", r->name, r->by_cgroup_no);
	} else if (o->by) {
		/*
		 * --by pid|tid|comm|cpu means the task or CPU the recipe is
		 * about, as --pid ... do; a family's key is taken at the start
		 */
		const struct place *pl = native_place(r, o->by);

		if (pl && pl->at == AT_NO)
			return fail("%s --by %s: %s", r->name, o->by, pl->means);
		if (pl && pl->at == AT_END)
			return fail("%s --by %s: a family's key is taken at the start, and the %s there is not %s",
				    r->name, o->by, o->by, pl->means);
		if (pl && pl->at == AT_ARG)
			expr = pl->sexpr;
	}
	if (!expr) {
		if (o->seen & O_MAXKEYS)
			return usage_error("--max-keys goes with a family: --by, --pids, --tids or --disk");
		return 0;
	}
	/* comm pid tid cpu and the kernel's terms as they are, else BTF */
	if (by_native(expr)) {
		by_native_words(expr, v, sizeof(v));
	} else if (valid_value(expr)) {
		snprintf(v, sizeof(v), "%s", expr);
	} else if (resolve_by(r->start, expr, b && b->str, v, sizeof(v), err,
			      sizeof(err))) {
		if (b && b->when == BY_ALWAYS && r->by[1].when == BY_NOBTF) {
			fprintf(stderr, "kstats: %s: %s of %s: %s: a histogram per %s instead\n",
				r->name, expr, r->start, err, r->by[1].per);
			b = &r->by[1];
			expr = b->expr;
			*names = b->names;
			snprintf(v, sizeof(v), "%s", expr);
		} else {
			return fail("%s %s%s needs %s of %s: %s", r->name,
				    opt ? "--" : "--by ",
				    opt ? opt : o->by ? o->by : expr, expr,
				    r->start, err);
		}
	}
	snprintf(out, len, " by %s%s", b && b->str ? "str:" : "", v);
	if (o->seen & O_MAXKEYS)
		add(out, len, " max %ld", o->max_keys);
	/* a value is read at each start, of the task that start names */
	for (int i = 0; i < nmore(r) && !by_native(expr); i++) {
		char e[128];

		if (at_more(r, i, expr, e, sizeof(e)))
			return fail("%s --by %s: the key is read at each start: name it of the woken task, as %s->FIELD",
				    r->name, expr, r->stask);
		if (resolve_by(r->more[i].point, e, b && b->str, v, sizeof(v),
			       err, sizeof(err)))
			return fail("%s --by %s needs %s of %s: %s", r->name,
				    o->by ? o->by : expr, e, r->more[i].point, err);
		snprintf(more[i], sizeof(more[0]), " by %s%s",
			 b && b->str ? "str:" : "", v);
	}
	add(what, wlen, ", a histogram per %s", b ? b->per : o->by);
	return 0;
}

/*
 * The _control line of recipe @name with the options @o (o->args[0]: the
 * recipe's argument, syscall's NAME), the node it makes in @node (o->node,
 * or the recipe's name: the census names its own), the title in @what and
 * how show names its keys, if a family, in @names.
 * 0, or an exit status with the message printed.
 */
int recipe_command(const struct opts *o, const char *name, char *cmd,
		   size_t len, char *node, size_t nlen, char *what,
		   size_t wlen, enum keynames *names)
{
	const struct recipe *r = find(name);
	struct recipe queued;
	struct placed p;
	char val[32], only[384] = "", by[BTF_VALUE_MAX + 32];
	char more_by[MORE_STARTS][BTF_VALUE_MAX + 8] = { "" };
	const char *arg = o->nargs > 0 ? o->args[0] : NULL;
	int ret;

	if (!r)
		return usage_error("unknown recipe");
	memset(&p, 0, sizeof(p));
	if ((o->seen & O_QUEUED) && !r->queued.point)
		return fail("%s has no -Q: only biolatency, from the I/O scheduler's queue", name);
	if ((o->seen & O_IDLE) && !r->no_idle)
		return fail("%s has no --idle: only offcpu, which leaves the idle task out", name);
	if ((o->seen & (O_MIN | O_MAX)) == (O_MIN | O_MAX) && o->min_ns > o->max_ns)
		return usage_error("--min is above --max: no time is both");
	if (o->seen & O_QUEUED) {
		/* the recipe's start becomes a further one, under conditions */
		queued = *r;
		queued.start = r->queued.point;
		queued.skey = r->queued.key;
		queued.more[nmore(r)] = (struct rstart){
			.point = r->start, .key = r->skey, .task = r->stask,
			.cond = { r->queued.cond[0], r->queued.cond[1] },
		};
		r = &queued;
	}
	if (o->nargs > 1 || (arg && !r->nr_start)) {
		char msg[96];

		snprintf(msg, sizeof(msg), "%s takes %s", name,
			 r->nr_start ? "at most one system call NAME" : "no argument");
		return usage_error(msg);
	}
	snprintf(node, nlen, "%s", o->node ? o->node : name);
	snprintf(what, wlen, "%s (%s", r->title, r->start);
	for (int i = 0; i < nmore(r); i++)
		add(what, wlen, ", %s", r->more[i].point);
	add(what, wlen, " -> %s)", r->end);
	if (arg) {
		long nr = syscall_nr(arg);

		if (nr < 0)
			return fail("syscall '%s': no such system call on this architecture (the names of syscalls(2), e.g. clock_nanosleep)",
				    arg);
		snprintf(node, nlen, "syscall_%s", arg);
		if (!valid_name(node))
			return fail("syscall '%s': too long a name", arg);
		snprintf(what, wlen, "%s latency, %s (%ld)", arg, r->start, nr);
		add(p.ifs[1], sizeof(p.ifs[1]), " if %s == %ld", r->nr_start, nr);
		if (r->nr_end)
			add(p.ifs[2], sizeof(p.ifs[2]), " if %s == %ld",
			    r->nr_end, nr);
	}
	if (o->seen & O_PID) {
		snprintf(val, sizeof(val), "%ld", o->pid);
		if ((ret = put(r, &r->pid, "pid", "pid", val, &p)))
			return ret;
		add(only, sizeof(only), " pid %s", val);
	}
	if (o->seen & O_TID) {
		snprintf(val, sizeof(val), "%ld", o->tid);
		if ((ret = put(r, &r->tid, "tid", "tid", val, &p)))
			return ret;
		add(only, sizeof(only), " tid %s", val);
	}
	if (o->comm) {
		if ((ret = put(r, &r->comm, "comm", "comm", o->comm, &p)))
			return ret;
		add(only, sizeof(only), " comm %s", o->comm);
	}
	if (o->seen & O_TCPU) {
		snprintf(val, sizeof(val), "%ld", o->tcpu);
		if ((ret = put(r, &r->cpu, "cpu", "cpu", val, &p)))
			return ret;
		add(only, sizeof(only), " cpu %s", val);
	}
	if (o->cgroup) {
		if ((ret = put(r, &r->cgroup, "cgroup", "cgroup", o->cgroup, &p)))
			return ret;
		add(only, sizeof(only), " cgroup %s", o->cgroup);
	}
	if (*only)
		add(what, wlen, ", only%s", only);
	if (o->run_pid > 0 || o->run_cgroup) {
		ret = put_run(o, r, &p, what, wlen);
		if (ret)
			return ret;
	} else if (r->self_task && !(o->seen & (O_SELF | O_PID | O_TID))) {
		put_self(r, &p);
	}
	if (r->no_idle && !(o->seen & O_IDLE)) {
		char v[BTF_VALUE_MAX], err[768];

		if (btf_resolve_value(r->start, r->no_idle, v, sizeof(v), err,
				      sizeof(err)))
			fprintf(stderr, "kstats: %s: %s of %s: %s: the idle task is counted too (as with --idle)\n",
				name, r->no_idle, r->start, err);
		else
			add(p.ifs[1], sizeof(p.ifs[1]), " if %s != 0", v);
	}
	ret = family_of(o, r, !arg, by, sizeof(by), more_by, what, wlen, names);
	if (ret)
		return ret;
	snprintf(cmd, len, "trace %s start %s key %s%s%s%s%s%s",
		 node, r->start, r->skey, r->smatch ? " match " : "",
		 r->smatch ?: "", p.native[1], p.ifs[1], by);
	for (int i = 0; i < nmore(r); i++) {
		const struct rstart *m = &r->more[i];
		char conds[2 * (BTF_VALUE_MAX + 16)] = "";
		int j;

		for (j = 0; j < 2 && m->cond[j].expr; j++) {
			char v[BTF_VALUE_MAX], err[768];

			if (btf_resolve_value(m->point, m->cond[j].expr, v,
					      sizeof(v), err, sizeof(err))) {
				if (!m->without)
					return fail("%s needs %s of %s: %s", name,
						    m->cond[j].expr, m->point, err);
				fprintf(stderr, "kstats: %s: %s of %s: %s: no start there, %s\n",
					name, m->cond[j].expr, m->point, err,
					m->without);
				break;
			}
			add(conds, sizeof(conds), " if %s %s", v, m->cond[j].test);
		}
		if (j < 2 && m->cond[j].expr)
			continue;	/* left out, as said */
		add(cmd, len, " start %s key %s%s%s%s%s", m->point, m->key,
		    p.native[3 + i], p.ifs[3 + i], conds, more_by[i]);
	}
	add(cmd, len, " end %s key %s%s%s%s%s", r->end, r->ekey,
	    r->ematch ? " match " : "", r->ematch ?: "", p.native[2], p.ifs[2]);
	if (r->nest_outer)
		add(cmd, len, " nest outer");
	if (r->full_refuse)
		add(cmd, len, " full refuse");
	if (r->inflight)
		add(cmd, len, " inflight %u", r->inflight);
	if ((o->seen & O_MIN) && o->min_ns)
		add(cmd, len, " over %lld", o->min_ns);
	if (o->seen & O_MAX)
		add(cmd, len, " under %lld", o->max_ns ?: 1);
	if (o->seen & O_BITS)
		add(cmd, len, " bits %u", o->bits);
	if (o->seen & O_WHY) {
		add(cmd, len, " why");
		add(what, wlen, ", each call split: running, waiting for a CPU, asleep, interrupts");
	}
	if (strlen(cmd) + 1 > CONTROL_MAX || strlen(cmd) + 2 >= len)
		return fail("%s: the kernel's line would be %zu characters, _control takes %d: fewer filters",
			    name, strlen(cmd) + 1, CONTROL_MAX);
	add(cmd, len, "\n");
	return 0;
}

/* o->cmd is the recipe's name. */
static int cmd_recipe(struct opts *o)
{
	char cmd[CMD_MAX], node[80], what[CMD_MAX];
	struct child child = { .pid = -1, .go = -1, .err = -1 };
	int ret;

	if (o->folded && (o->seen & O_INT))
		return usage_error("--folded prints the keys once, at the end (no -i)");
	ret = trace_check_run(o);
	if (!ret && o->nrun)
		ret = run_start(o, &child);
	if (!ret)
		ret = recipe_command(o, o->cmd, cmd, sizeof(cmd), node,
				     sizeof(node), what, sizeof(what), &o->names);
	if (ret) {
		child_end(&child);
		return ret;
	}
	/* the kernel's lock functions, read before the window, not after */
	if (o->names == KEYS_LOCK_CALLER)
		load_lock_fns();
	return trace_run(o, cmd, node, what, &child);
}

/* --min and --max: microseconds, kept in ns. */
static int set_us(struct opts *o, const char *a, long long *ns)
{
	double v;

	(void)o;
	if (opt_num(a, 0, 1e12, &v))
		return usage_error("--min and --max take microseconds, 0 or more");
	*ns = (long long)(v * 1000);
	return 0;
}

static int set_min(struct opts *o, const char *a)
{
	return set_us(o, a, &o->min_ns);
}

static int set_max(struct opts *o, const char *a)
{
	return set_us(o, a, &o->max_ns);
}

static OPT_FN(o_min, "min", 0, "US", set_min, O_MIN, 0,
	      "only durations of US microseconds or more");
static OPT_FN(o_max, "max", 0, "US", set_max, O_MAX, 0,
	      "only durations of US microseconds or less");
static OPT_FLAG(o_pids, "pids", 'P', O_PIDS, "a histogram per woken process");
static OPT_FLAG(o_tids, "tids", 'L', O_TIDS, "a histogram per woken thread");
static OPT_FLAG(o_disk, "disk", 'D', O_DISK, "a histogram per disk");
static OPT_FLAG(o_queued, "queued", 'Q', O_QUEUED,
		"from the insertion in the I/O scheduler");
static OPT_FLAG(o_idle, "idle", 0, O_IDLE, "count the idle task too");
/* runqlat's --pid: without N, a histogram per process (--pids) */
static const struct optdef o_rq_pid = {
	.name = "pid", .arg = "N", .kind = K_LONG, .off = OPT_FIELD(pid),
	.lo = 0, .hi = 2147483647, .bad = "--pid takes a process id, 0 or more",
	.help = "only process N woken (no N: as --pids)",
	.bit = O_PID, .flags = OPT_BARE, .bare = O_PIDS,
};

/* the recipes' tables: trace's first and last options, their own between */
#define RECIPE_FILTERS LIVE_FILTERS, &o_top, &o_min, &o_max
static const struct optdef *const recipe_opts[] = {
	LIVE_FIRST, &o_pid, RECIPE_FILTERS, LIVE_LAST, NULL,
};
/* syscall and lockwait: one task makes both ends, so its time splits */
static const struct optdef *const task_recipe_opts[] = {
	LIVE_FIRST, &o_pid, RECIPE_FILTERS, &o_why, LIVE_LAST, NULL,
};
static const struct optdef *const runqlat_opts[] = {
	LIVE_FIRST, &o_rq_pid, RECIPE_FILTERS, &o_pids, &o_tids, LIVE_LAST,
	NULL,
};
static const struct optdef *const biolatency_opts[] = {
	LIVE_FIRST, &o_pid, RECIPE_FILTERS, &o_disk, &o_queued, LIVE_LAST,
	NULL,
};
static const struct optdef *const offcpu_opts[] = {
	LIVE_FIRST, &o_pid, RECIPE_FILTERS, &o_idle, LIVE_LAST, NULL,
};

#define RECIPE(id, n, a, o, s)						\
	const struct cmddef id = {					\
		.name = n, .args = a, .opts = o, .fn = cmd_recipe,	\
		.flags = CMD_RUN | CMD_RECIPE, .more = RUN_MORE,	\
		.summary = s,						\
	}

RECIPE(runqlat_cmd, "runqlat", NULL, runqlat_opts,
       "run-queue latency: enqueued to running");
RECIPE(biolatency_cmd, "biolatency", NULL, biolatency_opts,
       "block I/O latency: issue to completion");
RECIPE(syscall_cmd, "syscall", "[NAME]", task_recipe_opts,
       "system call latency, of NAME or a histogram per call");
RECIPE(lockwait_cmd, "lockwait", NULL, task_recipe_opts,
       "lock contention: wait to acquisition");
RECIPE(softirq_cmd, "softirq", NULL, recipe_opts,
       "softirq duration, a histogram per vector");
RECIPE(hardirq_cmd, "hardirq", NULL, recipe_opts,
       "hardirq handler duration, a histogram per handler");
RECIPE(offcpu_cmd, "offcpu", NULL, offcpu_opts,
       "off-CPU time: switched out to switched in");
