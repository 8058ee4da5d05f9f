/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Outliers: the samples of a trace node kept with their context (when, on
 * which CPU, by which task, from which kernel stack), "slow V" (every
 * sample of V or more, the newest M) or "top K" (the K largest since the
 * last reset).  A sample that is not an outlier pays one compare
 * (kstats_outlier_wanted()); an outlier is stored by
 * kstats_outlier_capture(), per CPU and lock-free, in any context.
 */
#ifndef _KSTATS_OUTLIER_H
#define _KSTATS_OUTLIER_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

#include "kstats_stack.h"

struct seq_file;

/* "slow V keep M": M by default, and at most. */
#define KSTATS_OUTLIER_KEEP_DEFAULT	256
#define KSTATS_OUTLIER_KEEP_MAX		65536
/* "top K": K at most. */
#define KSTATS_OUTLIER_TOP_MAX		4096
/* "stack N": N by default, and at most. */
#define KSTATS_OUTLIER_STACK_DEFAULT	16
#define KSTATS_OUTLIER_STACK_MAX	KSTATS_STACK_MAX

/**
 * enum kstats_outlier_mode - which samples a node keeps
 * @KSTATS_OUTLIER_NONE: none
 * @KSTATS_OUTLIER_SLOW: every sample >= a threshold, the newest kept
 * @KSTATS_OUTLIER_TOP: the largest samples since the last reset
 */
enum kstats_outlier_mode {
	KSTATS_OUTLIER_NONE,
	KSTATS_OUTLIER_SLOW,
	KSTATS_OUTLIER_TOP,
};

/**
 * struct kstats_outlier_cfg - "slow V [keep M] [stack N]", "top K [stack N]"
 * @mode: enum kstats_outlier_mode
 * @slow: V, in the node's unit
 * @keep: M for slow, K for top: how many are kept
 * @stack: frames of the kernel stack kept with each, 0 for none
 * @keep_set: "keep" was written
 * @why: each keeps its call's split (kstats_why.h), its node's "why"
 */
struct kstats_outlier_cfg {
	u8 mode;
	u64 slow;
	u32 keep;
	u8 stack;
	bool keep_set;
	bool why;
};

/**
 * struct kstats_outlier_cpu - one CPU's kept samples
 * @min: a sample must be this or more to be kept (compared as signed
 *	64-bit numbers, so that no negative value is): for slow, the
 *	threshold; for top, 0 until all K are kept, then one more than the
 *	smallest of them
 * @captured: samples this CPU tried to keep since the last reset
 * @dropped: of them, those that could not be stored (a capture that
 *	interrupted another on this CPU: an NMI's; any, on a CPU with no
 *	store)
 * @n: entries in use
 * @busy: a capture is under way on this CPU
 * @heap: for top, the indices of the entries, a min-heap by value
 * @entries: @keep entries of struct kstats_outlier and their frames, or
 *	NULL: the CPU has no store (it has not been online since the node
 *	was made, or its store could not be allocated), and its captures
 *	are dropped
 * @stacks: with a stack, the chains this CPU unwound last
 */
struct kstats_outlier_cpu {
	u64 min;
	u64 captured;
	u64 dropped;
	u32 n;
	int busy;
	u16 *heap;
	void *entries;
	struct kstats_stack_cache *stacks;
};

/**
 * struct kstats_outliers - a node's kept samples
 * @cfg: what it keeps
 * @signed_values: values are shown as signed numbers (a value node)
 * @esize: bytes of one entry, its frames included
 * @cpu_bytes: bytes of one CPU's store: its entries, its heap, its chains
 * @pcpu: per CPU: the bar and the counts on every possible CPU, a store
 *	on those that have been online since the node was made
 * @cpuhp: in the CPU hotplug state's instances while a CPU that comes
 *	online is to get a store
 * @cpuhp_added: @cpuhp is in them
 */
struct kstats_outliers {
	struct kstats_outlier_cfg cfg;
	bool signed_values;
	size_t esize;
	size_t cpu_bytes;
	struct kstats_outlier_cpu __percpu *pcpu;
	struct hlist_node cpuhp;
	bool cpuhp_added;
};

struct kstats_outliers *kstats_outliers_alloc(const struct kstats_outlier_cfg *cfg,
					      bool signed_values);
void kstats_outliers_retire(struct kstats_outliers *o);
void kstats_outliers_free(struct kstats_outliers *o);
void kstats_outliers_reset(struct kstats_outliers *o);
void kstats_outlier_capture(struct kstats_outliers *o, u64 v, u32 key,
			    bool has_key);
void kstats_outlier_capture_at(struct kstats_outliers *o, u64 v, u32 key,
			       bool has_key, unsigned long ip,
			       unsigned long sp, unsigned long bp);
int kstats_outliers_show(struct kstats_outliers *o, struct seq_file *m,
			 const char *stack_at,
			 int (*key_format)(void *arg, u32 key, bool has_key,
					   u32 cpu, char *buf,
					   size_t size),
			 void *arg);
int kstats_outlier_init(void);
void kstats_outlier_exit(void);

/**
 * kstats_outlier_wanted() - whether a sample is an outlier to keep
 * @o: the node's outliers, or NULL for none
 * @v: the sample
 *
 * Context: any, NMI included; preemption disabled (a probe's handler).
 * Return: true when kstats_outlier_capture() should keep it.
 */
static __always_inline notrace bool
kstats_outlier_wanted(struct kstats_outliers *o, u64 v)
{
	/* any CPU's bar would do: raw, one operand of the compare */
	return unlikely(o) && (s64)v >= (s64)raw_cpu_read(o->pcpu->min);
}

/**
 * kstats_outlier_check() - keep a sample if it is an outlier
 * @o: the node's outliers, or NULL for none
 * @v: the sample
 * @key: the node's family key index, with @has_key
 * @has_key: the node has a family
 * @regs: the registers of the probed code where the sample ends (a
 *	kprobe's, a return probe's: its instruction pointer is the return
 *	address), from which its stack is unwound; or NULL: from here
 *
 * Context: any, NMI included; preemption disabled (a probe's handler).
 */
static __always_inline notrace void
kstats_outlier_check(struct kstats_outliers *o, u64 v, u32 key, bool has_key,
		     struct pt_regs *regs)
{
	if (!kstats_outlier_wanted(o, v))
		return;
	if (regs)
		kstats_outlier_capture_at(o, v, key, has_key,
					  instruction_pointer(regs),
					  kernel_stack_pointer(regs),
					  frame_pointer(regs));
	else
		kstats_outlier_capture(o, v, key, has_key);
}

#endif /* _KSTATS_OUTLIER_H */
