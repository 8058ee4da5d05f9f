// SPDX-License-Identifier: GPL-2.0
/*
 * "why": where each call of a node spent its time (kstats_why.h).
 *
 * A task in a call of a "why" node has a record: its CPU's own while it
 * runs there, then, once a switch takes it off the CPU with calls in
 * flight, one of a hash of KSTATS_WHY_TASKS keyed by its task_struct.  A
 * record holds the task's cumulative parts since it was made, what the
 * task is doing now (on its CPU, waiting for one, asleep) and since when,
 * and a frame per call in flight (the parts when it began, and its blame:
 * who ran while it waited, where it slept).  The scheduler's tracepoints
 * move the record between its states:
 *
 *   sched_switch, the task out:  oncpu and irq += its time on the CPU
 *	(irq: the CPU's interrupt time meanwhile); runq if it was preempted
 *	or is still runnable, else blocked, and where (its stack's first
 *	frame outside the scheduler)
 *   sched_wakeup:                blocked += the sleep; it waits from now
 *   sched_switch, the task in:   runq (or blocked, for a wakeup not seen)
 *	+= the wait, blamed on the tasks that ran on its CPU meanwhile, each
 *	for its part (the last KSTATS_WHY_RAN switched out there)
 *
 * The CPU's interrupt time is kstats' own (Debian's kernels have no
 * CONFIG_IRQ_TIME_ACCOUNTING): the interrupts' tracepoints add up, per
 * CPU, the time from the outermost entry to its exit.  The four parts
 * tile the call's time with one clock (kstats_why_now()), so they add up
 * to its duration.  A table of tasks, not a field of each task: a module
 * cannot add one, and only tasks in such calls are followed.  The hash is
 * walked at the tracepoints only while a task is in it (kstats_why_busy),
 * so a "why" node whose function is not called costs a context switch
 * two loads and two branches, and each other tracepoint one of each.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "kstats_counter.h"
#include "kstats_internal.h"
#include "kstats_syms.h"
#include "kstats_why.h"

/* Tasks in calls of "why" nodes at once, and calls nested per task. */
#define KSTATS_WHY_TASKS	1024
#define KSTATS_WHY_DEPTH	4
/* Records a task's key may take: its hash's and the next ones. */
#define KSTATS_WHY_PROBE	8
/*
 * Frames of a sleeping task's stack looked at for blocked-in: the probe's
 * and the tracepoint's, the scheduler's (__schedule, schedule, and for a
 * mutex four more, an rt_mutex's more), then the one named; the walk
 * costs by the frame.
 */
#define KSTATS_WHY_FRAMES	12

enum kstats_why_state {
	KSTATS_WHY_ONCPU,
	KSTATS_WHY_RUNQ,
	KSTATS_WHY_BLOCKED,
};

/* One task's part of the blame of one call. */
struct kstats_why_blame {
	struct task_struct *preempt;	/* compared only, never followed */
	pid_t preempt_pid;
	char preempt_comm[TASK_COMM_LEN];
	u64 preempt_ns;
	unsigned long blocked_ip;
	u64 blocked_ns;
};

/*
 * A call in flight: the node, which of its calls (a section's match
 * value: waits for two locks nest), and its task's parts when it began.
 */
struct kstats_why_frame {
	const struct kstats_why *node;
	u64 id;
	u64 t0;
	u64 oncpu;
	u64 runq;
	u64 blocked;
	u64 irq;
	unsigned long nvcsw;
	unsigned long nivcsw;
	struct kstats_why_blame blame;
};

/*
 * A task in calls: @task its key (NULL: free), taken by cmpxchg; the rest
 * is written by the task itself (entry, return) and by the scheduler's
 * tracepoints under its runqueue's lock, which exclude each other.
 */
struct kstats_why_task {
	struct task_struct *task;
	u8 state;
	u8 depth;
	bool own;		/* a CPU's own record, not in the hash */
	u64 t_mark;		/* when it came on its CPU, or left it, or woke */
	u64 irq_mark;		/* its CPU's interrupt time when it came on it */
	u64 oncpu;
	u64 runq;
	u64 blocked;
	u64 irq;
	unsigned long sleep_ip;	/* where it sleeps now */
	struct kstats_why_frame frames[KSTATS_WHY_DEPTH];
};

/* A task that ran on a CPU, from @start to @end: whom a wait is blamed on. */
struct kstats_why_ran {
	struct task_struct *task;	/* compared only, never followed */
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u64 start;
	u64 end;
};

/* The tasks that ran last on a CPU, for a wait that spans several. */
#define KSTATS_WHY_RAN	4

/*
 * A CPU's interrupt time, the record of the task on it if any, its last
 * switch and the tasks that ran before (newest at @ran_next - 1).
 */
struct kstats_why_cpu {
	u64 irq_ns;
	u64 irq_start;
	u32 irq_depth;
	struct kstats_why_task *cur;
	u64 last_switch;
	unsigned int ran_next;
	struct kstats_why_ran ran[KSTATS_WHY_RAN];
};

/*
 * KSTATS_WHY_TASKS records (584 KiB on 64-bit), then one per possible CPU
 * (its own, below), while a "why" node exists: NULL otherwise.  Handlers
 * reach it with preemption off, so it is freed after an RCU grace period
 * (kstats_why_unregister()).
 *
 * A call that does not leave its CPU needs no record in the hash: the
 * task on a CPU keeps its calls in the CPU's own record, which takes no
 * claim (no hash, no atomic); the switch that takes the task off the CPU
 * moves them to a record of the hash (kstats_why_move()), where the
 * scheduler's tracepoints find them.
 */
static struct kstats_why_task *kstats_why_tasks;
static DEFINE_PER_CPU(struct kstats_why_cpu, kstats_why_cpu);
DEFINE_PER_CPU(struct kstats_why_stash, kstats_why_stash);
/* records in use: the tracepoints' one test */
static atomic_t kstats_why_busy;

/* "why" nodes, and the tracepoints registered for them. */
static DEFINE_MUTEX(kstats_why_mutex);
static unsigned int kstats_why_nodes;
/*
 * The parts' clock: the CPU's counter where it is clock ktime's (read in
 * a few instructions, where local_clock() takes some forty), its
 * differences scaled to ns at each call's return; local_clock()
 * elsewhere.  Chosen with the first "why" node, before any record or
 * tracepoint reads it, for all of them.
 */
static bool kstats_why_counter __read_mostly;

static __always_inline notrace u64 kstats_why_now(void)
{
#ifdef KSTATS_HAVE_COUNTER
	if (likely(kstats_why_counter))
		return kstats_counter_read();
#endif
	return local_clock();
}

/* A difference of kstats_why_now() readings, in ns. */
static __always_inline notrace u64 kstats_why_ns(u64 d)
{
#ifdef KSTATS_HAVE_COUNTER
	if (likely(kstats_why_counter))
		return kstats_counter_scale(d, READ_ONCE(kstats_counter_tk));
#endif
	return d;
}

/* the scheduler's own text: a sleeping stack's frames to skip */
static unsigned long kstats_why_sched_start, kstats_why_sched_end;

static __always_inline notrace bool kstats_why_in_sched(unsigned long ip)
{
	return ip >= kstats_why_sched_start && ip < kstats_why_sched_end;
}

/*
 * The @i-th of the KSTATS_WHY_PROBE records @p may take in @tab: its
 * hash's, then the next ones.
 */
static __always_inline notrace struct kstats_why_task *
kstats_why_slot(struct kstats_why_task *tab, const struct task_struct *p,
		unsigned int i)
{
	return &tab[(hash_ptr(p, ilog2(KSTATS_WHY_TASKS)) + i) &
		    (KSTATS_WHY_TASKS - 1)];
}

/* The record of @p, or NULL. */
static __always_inline notrace struct kstats_why_task *
kstats_why_find(const struct task_struct *p)
{
	struct kstats_why_task *tab = READ_ONCE(kstats_why_tasks);
	unsigned int i;

	for (i = 0; tab && i < KSTATS_WHY_PROBE; i++) {
		struct kstats_why_task *w = kstats_why_slot(tab, p, i);

		if (READ_ONCE(w->task) == p)
			return w;
	}
	return NULL;
}

/*
 * The current task's calls begin in this CPU's own record: made afresh.
 * NULL while no "why" node exists.
 */
static __always_inline notrace struct kstats_why_task *
kstats_why_own(struct kstats_why_cpu *c, u64 now)
{
	struct kstats_why_task *tab = READ_ONCE(kstats_why_tasks), *w;

	if (!tab)
		return NULL;
	w = &tab[KSTATS_WHY_TASKS + smp_processor_id()];
	w->task = current;
	w->own = true;
	w->state = KSTATS_WHY_ONCPU;
	w->depth = 0;
	w->t_mark = now;
	w->irq_mark = c->irq_ns;
	w->oncpu = 0;
	w->runq = 0;
	w->blocked = 0;
	w->irq = 0;
	return w;
}

/*
 * A CPU's own record @o of @p, switched out with calls in flight, moved to
 * a free record of the hash; NULL if none is free (its calls then end with
 * no split).  Under the runqueue's lock.
 */
static notrace struct kstats_why_task *
kstats_why_move(struct kstats_why_task *o, struct task_struct *p)
{
	struct kstats_why_task *tab = READ_ONCE(kstats_why_tasks);
	unsigned int i;

	o->task = NULL;
	for (i = 0; tab && i < KSTATS_WHY_PROBE; i++) {
		struct kstats_why_task *w = kstats_why_slot(tab, p, i);

		if (READ_ONCE(w->task) || cmpxchg(&w->task, NULL, p))
			continue;
		/* all but the key, which the cmpxchg wrote, to its last frame */
		memcpy((char *)w + offsetofend(struct kstats_why_task, task),
		       (char *)o + offsetofend(struct kstats_why_task, task),
		       offsetof(struct kstats_why_task, frames) +
		       o->depth * sizeof(o->frames[0]) -
		       offsetofend(struct kstats_why_task, task));
		w->own = false;
		atomic_inc(&kstats_why_busy);
		return w;
	}
	return NULL;
}

static notrace void kstats_why_release(struct kstats_why_task *w)
{
	/* its fields written before it is free for another task's claim */
	smp_store_release(&w->task, NULL);
	atomic_dec(&kstats_why_busy);
}

/* @ns of a wait blamed on @r: one candidate kept, the heaviest. */
static notrace void kstats_why_blame_one(struct kstats_why_task *w,
					 const struct kstats_why_ran *r, u64 ns)
{
	unsigned int i;

	for (i = 0; i < w->depth; i++) {
		struct kstats_why_blame *b = &w->frames[i].blame;

		if (b->preempt == r->task) {
			b->preempt_ns += ns;
			continue;
		}
		/* a newcomer replaces it once it outweighs it */
		if (ns <= b->preempt_ns) {
			b->preempt_ns -= ns;
			continue;
		}
		b->preempt = r->task;
		b->preempt_pid = r->pid;
		memcpy(b->preempt_comm, r->comm, TASK_COMM_LEN);
		b->preempt_ns = ns - b->preempt_ns;
	}
}

/*
 * A wait from @from to @now on CPU @c, ended: each of the tasks that ran
 * there meanwhile (the last KSTATS_WHY_RAN) is blamed for its part.
 */
static notrace void kstats_why_blame_wait(struct kstats_why_task *w,
					  struct kstats_why_cpu *c, u64 from,
					  u64 now)
{
	unsigned int i;

	for (i = 0; i < KSTATS_WHY_RAN; i++) {
		const struct kstats_why_ran *r = &c->ran[i];
		u64 a = max(r->start, from), z = min(r->end, now);

		if (r->task && z > a)
			kstats_why_blame_one(w, r, z - a);
	}
}

static notrace void kstats_why_blame_sleep(struct kstats_why_task *w, u64 ns)
{
	unsigned int i;

	for (i = 0; i < w->depth; i++) {
		struct kstats_why_blame *b = &w->frames[i].blame;

		if (ns > b->blocked_ns) {
			b->blocked_ns = ns;
			b->blocked_ip = w->sleep_ip;
		}
	}
}

/* The first frame of the current task's stack outside the scheduler. */
static notrace unsigned long kstats_why_sleep_ip(void)
{
	unsigned long frames[KSTATS_WHY_FRAMES];
	unsigned int n = stack_trace_save(frames, KSTATS_WHY_FRAMES, 0), i;
	bool seen = false;

	for (i = 0; i < n; i++) {
		if (kstats_why_in_sched(frames[i]))
			seen = true;
		else if (seen)
			return frames[i];
	}
	return 0;
}

/* The interrupts: each CPU's time from the outermost entry to its exit. */
static notrace void kstats_why_irq_in(void)
{
	struct kstats_why_cpu *c = this_cpu_ptr(&kstats_why_cpu);

	if (c->irq_depth++ == 0)
		c->irq_start = kstats_why_now();
}

static notrace void kstats_why_irq_out(void)
{
	struct kstats_why_cpu *c = this_cpu_ptr(&kstats_why_cpu);

	/* an exit whose entry came before the probe was registered */
	if (!c->irq_depth)
		return;
	if (--c->irq_depth == 0)
		c->irq_ns += kstats_why_now() - c->irq_start;
}

static notrace void kstats_why_hardirq_entry(void *data, int irq,
					     struct irqaction *action)
{
	kstats_why_irq_in();
}

static notrace void kstats_why_hardirq_exit(void *data, int irq,
					    struct irqaction *action, int ret)
{
	kstats_why_irq_out();
}

/* softirq_entry/exit, and the architecture's vectors: one int argument */
static notrace void kstats_why_vec_entry(void *data, unsigned int vec)
{
	kstats_why_irq_in();
}

static notrace void kstats_why_vec_exit(void *data, unsigned int vec)
{
	kstats_why_irq_out();
}

static notrace void kstats_why_switch(void *data, bool preempt,
				      struct task_struct *prev,
				      struct task_struct *next,
				      unsigned int prev_state)
{
	struct kstats_why_cpu *c = this_cpu_ptr(&kstats_why_cpu);
	struct kstats_why_task *w = c->cur;
	u64 now, irq, ns;

	c->cur = NULL;
	/* no interrupt is in progress where the scheduler runs */
	c->irq_depth = 0;
	if (w && w->own) {
		/* its calls leave the CPU with it; a dead task's never return */
		if (w->task == prev && w->depth && !(prev_state & TASK_DEAD)) {
			w = kstats_why_move(w, prev);
		} else {
			w->task = NULL;
			w = NULL;
		}
	}
	if (!atomic_read(&kstats_why_busy))
		return;
	now = kstats_why_now();
	/* who ran here, and when: a waiting task's blame */
	if (c->last_switch) {
		struct kstats_why_ran *r = &c->ran[c->ran_next++ % KSTATS_WHY_RAN];

		r->task = prev;
		r->pid = task_pid_nr(prev);
		memcpy(r->comm, prev->comm, TASK_COMM_LEN);
		r->start = c->last_switch;
		r->end = now;
	}
	c->last_switch = now;
	if (w && READ_ONCE(w->task) == prev) {
		irq = c->irq_ns - w->irq_mark;
		ns = now - w->t_mark;
		w->irq += irq;
		w->oncpu += ns > irq ? ns - irq : 0;
		w->t_mark = now;
		if (prev_state & TASK_DEAD) {
			/* its calls never return */
			kstats_why_release(w);
		} else if (preempt || prev_state == TASK_RUNNING) {
			w->state = KSTATS_WHY_RUNQ;
		} else {
			w->state = KSTATS_WHY_BLOCKED;
			w->sleep_ip = kstats_why_sleep_ip();
		}
	}
	w = kstats_why_find(next);
	if (!w)
		return;
	ns = now - w->t_mark;
	if (w->state == KSTATS_WHY_BLOCKED) {
		/* a wakeup the tracepoint did not see: asleep till now */
		w->blocked += ns;
		kstats_why_blame_sleep(w, ns);
	} else if (w->state == KSTATS_WHY_RUNQ) {
		w->runq += ns;
		kstats_why_blame_wait(w, c, w->t_mark, now);
	}
	w->state = KSTATS_WHY_ONCPU;
	w->t_mark = now;
	w->irq_mark = c->irq_ns;
	c->cur = w;
}

static notrace void kstats_why_wakeup(void *data, struct task_struct *p)
{
	struct kstats_why_task *w;
	u64 now, ns;

	if (!atomic_read(&kstats_why_busy))
		return;
	w = kstats_why_find(p);
	if (!w || w->state != KSTATS_WHY_BLOCKED)
		return;
	now = kstats_why_now();
	ns = now - w->t_mark;
	w->blocked += ns;
	kstats_why_blame_sleep(w, ns);
	w->state = KSTATS_WHY_RUNQ;
	w->t_mark = now;
}

/* The tracepoints, each with its probe; those the kernel lacks are left. */
struct kstats_why_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool registered;
};

static struct kstats_why_tp kstats_why_tps[] = {
	{ "sched_switch", kstats_why_switch },
	{ "sched_wakeup", kstats_why_wakeup },
	{ "irq_handler_entry", kstats_why_hardirq_entry },
	{ "irq_handler_exit", kstats_why_hardirq_exit },
	{ "softirq_entry", kstats_why_vec_entry },
	{ "softirq_exit", kstats_why_vec_exit },
#ifdef CONFIG_X86
	/* x86's system vectors: the local timer's (hrtimers), IPIs */
	{ "local_timer_entry", kstats_why_vec_entry },
	{ "local_timer_exit", kstats_why_vec_exit },
	{ "reschedule_entry", kstats_why_vec_entry },
	{ "reschedule_exit", kstats_why_vec_exit },
	{ "call_function_entry", kstats_why_vec_entry },
	{ "call_function_exit", kstats_why_vec_exit },
	{ "call_function_single_entry", kstats_why_vec_entry },
	{ "call_function_single_exit", kstats_why_vec_exit },
	{ "irq_work_entry", kstats_why_vec_entry },
	{ "irq_work_exit", kstats_why_vec_exit },
#endif
};

/* The first two are needed; the interrupts' are what the kernel has. */
#define KSTATS_WHY_TPS_NEEDED	2

static void kstats_why_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kstats_why_tps); i++)
		if (!strcmp(tp->name, kstats_why_tps[i].name))
			kstats_why_tps[i].tp = tp;
}

static void kstats_why_sched_line(void *arg, char *s, size_t len)
{
	unsigned long addr;
	char *name;

	s[len] = '\0';
	name = strrchr(s, ' ');
	if (!name)
		return;
	name++;
	if (strcmp(name, "__sched_text_start") && strcmp(name, "__sched_text_end"))
		return;
	s[16] = '\0';
	if (kstrtoul(s, 16, &addr))
		return;
	if (name[13] == 's')
		kstats_why_sched_start = addr;
	else
		kstats_why_sched_end = addr;
}

/*
 * The probes, then the table: a handler of a call in flight (the direct
 * trampoline's return, after its node is gone) that still sees the table
 * or a CPU's record in it runs with preemption off, so two grace periods
 * end them: one for the table's pointer, one for the CPUs' records, which
 * an entry may have set meanwhile.
 */
static void kstats_why_unregister(void)
{
	struct kstats_why_task *tab = kstats_why_tasks;
	unsigned int i;
	int cpu;

	for (i = 0; i < ARRAY_SIZE(kstats_why_tps); i++) {
		if (kstats_why_tps[i].registered)
			tracepoint_probe_unregister(kstats_why_tps[i].tp,
						    kstats_why_tps[i].probe,
						    NULL);
		kstats_why_tps[i].registered = false;
	}
	tracepoint_synchronize_unregister();
	WRITE_ONCE(kstats_why_tasks, NULL);
	synchronize_rcu();
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(&kstats_why_cpu, cpu)->cur, NULL);
	synchronize_rcu();
	vfree(tab);
}

/* Under kstats_why_mutex, for the first node: the tables, the probes. */
static int kstats_why_register(void)
{
	struct kstats_why_task *tab;
	unsigned int i;
	int cpu, err;

	if (!kstats_why_sched_end &&
	    (kstats_syms_each_kallsyms(kstats_why_sched_line, NULL) ||
	     kstats_why_sched_start >= kstats_why_sched_end)) {
		kstats_why_sched_start = 0;
		kstats_why_sched_end = 0;
		pr_warn_ratelimited("why: the scheduler's text is not in /proc/kallsyms: blocked-in is not known\n");
	}
	atomic_set(&kstats_why_busy, 0);
	kstats_why_counter = kstats_counter_is_ktime();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&kstats_why_cpu, cpu), 0,
		       sizeof(struct kstats_why_cpu));
	tab = vzalloc(array_size(KSTATS_WHY_TASKS + nr_cpu_ids, sizeof(*tab)));
	if (!tab)
		return -ENOMEM;
	WRITE_ONCE(kstats_why_tasks, tab);
	for_each_kernel_tracepoint(kstats_why_find_tp, NULL);
	/*
	 * Last to first: each exit before its entry, so that no interrupt
	 * is seen entered and not left (which would hold its CPU's depth
	 * above 0); the scheduler's last, once the interrupts are counted.
	 */
	for (i = ARRAY_SIZE(kstats_why_tps); i-- > 0;) {
		struct kstats_why_tp *t = &kstats_why_tps[i];

		if (!t->tp) {
			if (i < KSTATS_WHY_TPS_NEEDED) {
				err = -ENOENT;
				goto fail;
			}
			continue;
		}
		err = tracepoint_probe_register(t->tp, t->probe, NULL);
		if (err)
			goto fail;
		t->registered = true;
	}
	return 0;
fail:
	pr_warn_ratelimited("why: tracepoint %s: error %d\n",
			    kstats_why_tps[i].name, err);
	kstats_why_unregister();
	return err;
}

/**
 * kstats_why_alloc() - a node's "why": its sums, and the probes if it is
 * the first
 *
 * Context: process; may sleep.
 * Return: the node's, or an ERR_PTR() (-ENOMEM, or the tracepoints'
 * error, said in the kernel log).
 */
struct kstats_why *kstats_why_alloc(void)
{
	struct kstats_why *w = kzalloc(sizeof(*w), KSTATS_GFP);
	int err = 0;

	if (!w)
		return ERR_PTR(-ENOMEM);
	w->sum = alloc_percpu_gfp(struct kstats_why_sum, KSTATS_GFP);
	if (!w->sum) {
		kfree(w);
		return ERR_PTR(-ENOMEM);
	}
	mutex_lock(&kstats_why_mutex);
	if (!kstats_why_nodes)
		err = kstats_why_register();
	if (!err)
		kstats_why_nodes++;
	mutex_unlock(&kstats_why_mutex);
	if (err) {
		free_percpu(w->sum);
		kfree(w);
		return ERR_PTR(err);
	}
	return w;
}

/**
 * kstats_why_retire() - a node's "why" no longer counts, once its probes
 * are gone: the tracepoints go with the last
 * @w: the node's, or NULL
 *
 * A call in flight may still return (the direct trampoline's): its
 * return finds its frame if the task's record is still there, else
 * records no split; its sums stay until kstats_why_free().
 *
 * Context: process; may sleep.
 */
void kstats_why_retire(struct kstats_why *w)
{
	if (!w || w->retired)
		return;
	w->retired = true;
	mutex_lock(&kstats_why_mutex);
	if (!--kstats_why_nodes)
		kstats_why_unregister();
	mutex_unlock(&kstats_why_mutex);
}

/**
 * kstats_why_free() - a node's "why", with the node's memory
 * @w: the node's, or NULL
 *
 * Context: any but NMI (an irq_work's); retired first, or never counted.
 */
void kstats_why_free(struct kstats_why *w)
{
	if (!w)
		return;
	free_percpu(w->sum);
	kfree(w);
}

/**
 * kstats_why_reset() - the sums start again from 0
 * @w: the node's, or NULL
 *
 * Context: process.
 */
void kstats_why_reset(struct kstats_why *w)
{
	int cpu;

	if (!w)
		return;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(w->sum, cpu), 0, sizeof(struct kstats_why_sum));
}

/**
 * kstats_why_enter() - a call of a "why" node begins
 * @w: the node's
 * @nest: what it does to the node's frame of the same @id on top, if
 *	that is there: KSTATS_WHY_NEST for a function (recursion), else as
 *	the section's table does with a start in flight of the same key
 * @id: which of the node's calls: a section's match value, 0 for none
 *
 * Pushes a frame on the current task's record, its CPU's own if it has
 * none; a call from an interrupt, or with no frame free, is not split.
 *
 * Context: a probe's handler, preemption disabled.
 */
notrace void kstats_why_enter(struct kstats_why *w, enum kstats_why_nest nest,
			      u64 id)
{
	struct kstats_why_cpu *c = this_cpu_ptr(&kstats_why_cpu);
	struct kstats_why_task *t = c->cur;
	struct kstats_why_frame *f;
	u64 now, irq;

	if (!in_task())
		return;
	now = kstats_why_now();
	if (!t || t->task != current) {
		t = kstats_why_own(c, now);
		if (!t)
			return;
		c->cur = t;
	}
	if (nest != KSTATS_WHY_NEST && t->depth &&
	    t->frames[t->depth - 1].node == w &&
	    t->frames[t->depth - 1].id == id) {
		if (nest == KSTATS_WHY_KEEP)
			return;
		t->depth--;
	}
	if (t->depth == KSTATS_WHY_DEPTH)
		return;
	f = &t->frames[t->depth];
	irq = c->irq_ns - t->irq_mark;
	f->node = w;
	f->id = id;
	f->t0 = now;
	f->irq = t->irq + irq;
	f->oncpu = t->oncpu + (now - t->t_mark) - irq;
	f->runq = t->runq;
	f->blocked = t->blocked;
	f->nvcsw = current->nvcsw;
	f->nivcsw = current->nivcsw;
	/* the names are read only with what they name */
	f->blame.preempt = NULL;
	f->blame.preempt_ns = 0;
	f->blame.blocked_ip = 0;
	f->blame.blocked_ns = 0;
	/* seen by the tracepoints of this CPU once counted */
	barrier();
	t->depth++;
}

NOKPROBE_SYMBOL(kstats_why_enter);

/**
 * kstats_why_exit() - a call of a "why" node returns: its split
 * @w: the node's
 * @id: which of its calls, as kstats_why_enter() was given it
 * @p: the call's parts
 *
 * Pops the call's frame (and any above it: calls whose returns were not
 * seen); the task's record goes with its last.
 *
 * Context: a probe's handler, preemption disabled.
 * Return: false for a call with no split (no frame of @w).
 */
notrace bool kstats_why_exit(struct kstats_why *w, u64 id,
			     struct kstats_why_parts *p)
{
	struct kstats_why_cpu *c = this_cpu_ptr(&kstats_why_cpu);
	struct kstats_why_task *t = c->cur;
	struct kstats_why_frame *f;
	u64 now, irq, oncpu;
	int i;

	if (!t || t->task != current || !in_task())
		return false;
	for (i = t->depth - 1;
	     i >= 0 && (t->frames[i].node != w || t->frames[i].id != id); i--)
		;
	if (i < 0)
		return false;
	f = &t->frames[i];
	now = kstats_why_now();
	irq = c->irq_ns - t->irq_mark;
	oncpu = t->oncpu + (now - t->t_mark) - irq;
	p->oncpu = kstats_why_ns(oncpu - f->oncpu);
	p->irq = kstats_why_ns(t->irq + irq - f->irq);
	p->runq = kstats_why_ns(t->runq - f->runq);
	p->blocked = kstats_why_ns(t->blocked - f->blocked);
	p->vcsw = current->nvcsw - f->nvcsw;
	p->ivcsw = current->nivcsw - f->nivcsw;
	p->preempt_pid = 0;
	if (f->blame.preempt) {
		p->preempt_pid = f->blame.preempt_pid;
		memcpy(p->preempt_comm, f->blame.preempt_comm, TASK_COMM_LEN);
	}
	p->blocked_ip = f->blame.blocked_ip;
	barrier();
	t->depth = i;
	if (!i) {
		c->cur = NULL;
		if (t->own)
			t->task = NULL;
		else
			kstats_why_release(t);
	}
	return true;
}

NOKPROBE_SYMBOL(kstats_why_exit);

/**
 * kstats_why_account() - a recorded call's parts into its node's sums
 * @w: the node's
 * @p: the parts, or NULL for a call recorded with none
 *
 * Context: any; preemption disabled.
 */
notrace void kstats_why_account(struct kstats_why *w,
				const struct kstats_why_parts *p)
{
	struct kstats_why_sum *s = this_cpu_ptr(w->sum);

	if (!p) {
		s->unsplit++;
		return;
	}
	s->oncpu += p->oncpu;
	s->runq += p->runq;
	s->blocked += p->blocked;
	s->irq += p->irq;
	s->calls++;
}

NOKPROBE_SYMBOL(kstats_why_account);

/**
 * kstats_why_take() - the parts kstats_why_set() left for this call
 * @p: where to copy them
 *
 * Context: an outlier's capture, on the CPU of the set, preemption
 * disabled.
 * Return: false when there are none for the current task's call here.
 */
notrace bool kstats_why_take(struct kstats_why_parts *p)
{
	struct kstats_why_stash *s = this_cpu_ptr(&kstats_why_stash);

	if (!in_task() || s->task != current)
		return false;
	*p = *s->parts;
	s->task = NULL;
	return true;
}

NOKPROBE_SYMBOL(kstats_why_take);

/**
 * kstats_why_show() - "# why oncpu N runq N blocked N irq N calls N
 * unsplit N": a node's sums
 * @w: the node's, or NULL (nothing)
 * @m: its file
 *
 * Context: process.
 */
void kstats_why_show(struct kstats_why *w, struct seq_file *m)
{
	struct kstats_why_sum t = { };
	int cpu;

	if (!w)
		return;
	for_each_possible_cpu(cpu) {
		const struct kstats_why_sum *s = per_cpu_ptr(w->sum, cpu);

		t.oncpu += READ_ONCE(s->oncpu);
		t.runq += READ_ONCE(s->runq);
		t.blocked += READ_ONCE(s->blocked);
		t.irq += READ_ONCE(s->irq);
		t.calls += READ_ONCE(s->calls);
		t.unsplit += READ_ONCE(s->unsplit);
	}
	seq_printf(m, "# why oncpu %llu runq %llu blocked %llu irq %llu calls %llu unsplit %llu\n",
		   t.oncpu, t.runq, t.blocked, t.irq, t.calls, t.unsplit);
}

/**
 * kstats_why_format() - an outlier's " why oncpu N runq N blocked N irq N
 * vcsw N ivcsw N[ preempted-by COMM:PID][ blocked-in FUNC]", FUNC a
 * function's name without its module's
 * @p: its parts
 * @m: the file
 *
 * Context: process.
 */
void kstats_why_format(const struct kstats_why_parts *p, struct seq_file *m)
{
	char comm[TASK_COMM_LEN + 1], sym[KSYM_SYMBOL_LEN];
	int i;

	seq_printf(m, " why oncpu %llu runq %llu blocked %llu irq %llu vcsw %u ivcsw %u",
		   p->oncpu, p->runq, p->blocked, p->irq, p->vcsw, p->ivcsw);
	if (p->preempt_pid && p->runq) {
		/* a name is one word of the line */
		for (i = 0; i < TASK_COMM_LEN && p->preempt_comm[i]; i++)
			comm[i] = isgraph(p->preempt_comm[i]) &&
				  p->preempt_comm[i] != ':' ?
				  p->preempt_comm[i] : '_';
		comm[i] = '\0';
		seq_printf(m, " preempted-by %s:%d", comm, p->preempt_pid);
	}
	if (p->blocked_ip && p->blocked) {
		/* the function's name alone: one word, without " [module]" */
		sprint_symbol_no_offset(sym, p->blocked_ip);
		sym[strcspn(sym, " ")] = '\0';
		seq_printf(m, " blocked-in %s", sym);
	}
}
