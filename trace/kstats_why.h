/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "why": each call of a node split into the time its task ran (oncpu),
 * waited for a CPU (runq), slept (blocked) and lost to interrupts on its
 * CPU (irq), with the task that ran most while it waited (preempted-by)
 * and where it slept longest (blocked-in).  kstats_why.c.
 *
 * A call's entry pushes a frame on its task's record (the task's
 * cumulative parts then); its return pops it and takes the differences.
 * Between the two, the scheduler's tracepoints (switch, wakeup) and the
 * interrupts' (hard, soft, the architecture's vectors) keep each record's
 * parts up to date: they are registered while a "why" node exists, and do
 * nothing but test one counter while no task is in such a call.
 */
#ifndef _KSTATS_WHY_H
#define _KSTATS_WHY_H

#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>

struct seq_file;

/**
 * struct kstats_why_parts - one call's time, split
 * @oncpu: ns its task ran, interrupts taken on its CPU left out
 * @runq: ns it was runnable and not running (preempted, or woken and
 *	waiting for its CPU)
 * @blocked: ns it was asleep
 * @irq: ns of hard and soft interrupts taken while it was on its CPU
 * @vcsw: its voluntary context switches in the call
 * @ivcsw: its involuntary ones
 * @preempt_pid: the task that ran on its CPU for the most of its runq
 *	time (0: none)
 * @preempt_comm: that task's name
 * @blocked_ip: the first frame outside the scheduler where it slept
 *	longest (0: it did not sleep)
 */
struct kstats_why_parts {
	u64 oncpu;
	u64 runq;
	u64 blocked;
	u64 irq;
	u32 vcsw;
	u32 ivcsw;
	pid_t preempt_pid;
	char preempt_comm[TASK_COMM_LEN];
	unsigned long blocked_ip;
};

/**
 * struct kstats_why_sum - one CPU's sums of a node's calls' parts
 * @oncpu: as struct kstats_why_parts
 * @runq: likewise
 * @blocked: likewise
 * @irq: likewise
 * @calls: calls split
 * @unsplit: calls recorded with no split: from an interrupt, or whose
 *	task left its CPU with no record free (KSTATS_WHY_TASKS off their
 *	CPUs in calls at once) or too many calls of "why" nodes nested
 *	(KSTATS_WHY_DEPTH)
 */
struct kstats_why_sum {
	u64 oncpu;
	u64 runq;
	u64 blocked;
	u64 irq;
	u64 calls;
	u64 unsplit;
};

/**
 * struct kstats_why - a node's "why"
 * @sum: per CPU, its calls' parts summed
 * @retired: kstats_why_retire() was called
 */
struct kstats_why {
	struct kstats_why_sum __percpu *sum;
	bool retired;
};

struct kstats_why *kstats_why_alloc(void);
void kstats_why_retire(struct kstats_why *w);
void kstats_why_free(struct kstats_why *w);
void kstats_why_reset(struct kstats_why *w);
void kstats_why_show(struct kstats_why *w, struct seq_file *m);
void kstats_why_format(const struct kstats_why_parts *p, struct seq_file *m);

/*
 * What a call's entry does to the node's own frame of the same id on top
 * of its task's record: nest beside it (a function's recursion), replace
 * it (a section's start whose end did not come, as its table replaces
 * it), or keep it ("nest outer": the older start wins).
 */
enum kstats_why_nest {
	KSTATS_WHY_NEST,
	KSTATS_WHY_REPLACE,
	KSTATS_WHY_KEEP,
};

void kstats_why_enter(struct kstats_why *w, enum kstats_why_nest nest, u64 id);
bool kstats_why_exit(struct kstats_why *w, u64 id, struct kstats_why_parts *p);
void kstats_why_account(struct kstats_why *w, const struct kstats_why_parts *p);

/*
 * The parts of the call being recorded on this CPU, for an outlier that
 * keeps them (kstats_why_take()): set under preemption off just before
 * the record, taken by the capture that follows on the same CPU, while
 * the handler's frame that holds them is live; copied only then.
 */
struct kstats_why_stash {
	struct task_struct *task;
	const struct kstats_why_parts *parts;
};

DECLARE_PER_CPU(struct kstats_why_stash, kstats_why_stash);

/**
 * kstats_why_set() - the parts of the call about to be recorded here
 * @p: its parts, or NULL for a call with none; they must stay where
 *	they are until the record and its outlier check are done
 *
 * Context: preemption disabled, until its record and outlier check are
 * done.
 */
static __always_inline notrace void kstats_why_set(const struct kstats_why_parts *p)
{
	struct kstats_why_stash *s = this_cpu_ptr(&kstats_why_stash);

	s->parts = p;
	s->task = p ? current : NULL;
}

bool kstats_why_take(struct kstats_why_parts *p);

#endif /* _KSTATS_WHY_H */
