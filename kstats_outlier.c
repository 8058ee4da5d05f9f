// SPDX-License-Identifier: GPL-2.0
/*
 * Outliers of a trace node: its samples kept with their context.
 *
 * Each CPU has its own entries, so a capture takes no lock and no atomic
 * read-modify-write shared with another CPU: it runs in the probe's
 * handler (preemption off), in any context, NMI included.  A capture that
 * interrupts another on the same CPU (an NMI's, in a capture of the task
 * it interrupted) is not stored but counted as dropped.  An entry is
 * written between two increments of its sequence number, which the reader
 * checks, as a seqcount: a reader never waits for a writer, and an entry
 * being written as it is read is left out of that read.
 *
 * "slow V keep M": each CPU keeps its newest M samples of V or more, in a
 * ring; the file shows the newest M of all CPUs, oldest first, and counts
 * the others as dropped.  "top K": each CPU keeps its K largest in a
 * min-heap (the largest K of all are among them); the file shows the K
 * largest, largest first.  Memory: (M or K) entries of 64 bytes and 8 per
 * stack frame, per possible CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "kstats_family.h"
#include "kstats_internal.h"
#include "kstats_outlier.h"

/**
 * struct kstats_outlier - one kept sample, then its stack's frames
 * @seq: odd while the entry is written
 * @nr_frames: frames of @frames
 * @has_key: @key is the node's family key index
 * @cpu: the CPU it ended on
 * @value: the sample
 * @time: when it ended (CLOCK_MONOTONIC, ns)
 * @pid: the task's thread group
 * @tid: the task
 * @key: the node's family key index
 * @comm: the task's name
 * @frames: the kernel stack at its end, innermost first
 */
struct kstats_outlier {
	u32 seq;
	u8 nr_frames;
	bool has_key;
	u16 cpu;
	u64 value;
	u64 time;
	s32 pid;
	s32 tid;
	u32 key;
	char comm[TASK_COMM_LEN];
	unsigned long frames[];
};

static struct kstats_outlier *kstats_outlier_entry(const struct kstats_outliers *o,
						   const struct kstats_outlier_cpu *c,
						   u32 i)
{
	return c->entries + i * o->esize;
}

/* The start value of a CPU's bar: the threshold, or 0 for top. */
static u64 kstats_outlier_floor(const struct kstats_outliers *o)
{
	return o->cfg.mode == KSTATS_OUTLIER_SLOW ? o->cfg.slow : 0;
}

/**
 * kstats_outliers_alloc() - the store of a node's outliers
 * @cfg: what to keep (mode, threshold, count, stack)
 * @signed_values: the node records signed values
 *
 * Context: process; may sleep.
 * Return: the store, NULL for mode NONE, or an ERR_PTR (-ENOMEM).
 */
struct kstats_outliers *kstats_outliers_alloc(const struct kstats_outlier_cfg *cfg,
					      bool signed_values)
{
	struct kstats_outliers *o;
	int cpu;

	if (cfg->mode == KSTATS_OUTLIER_NONE)
		return NULL;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return ERR_PTR(-ENOMEM);
	o->cfg = *cfg;
	o->signed_values = signed_values;
	o->esize = sizeof(struct kstats_outlier) +
		   cfg->stack * sizeof(unsigned long);
	o->pcpu = alloc_percpu(struct kstats_outlier_cpu);
	if (!o->pcpu)
		goto fail;
	for_each_possible_cpu(cpu) {
		struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);

		c->min = kstats_outlier_floor(o);
		c->entries = kvzalloc_node(array_size(cfg->keep, o->esize),
					   GFP_KERNEL, cpu_to_node(cpu));
		if (!c->entries)
			goto fail;
		if (cfg->stack) {
			BUILD_BUG_ON(sizeof(*c->stacks) > SZ_4K);
			c->stacks = kvzalloc_node(sizeof(*c->stacks), GFP_KERNEL,
						  cpu_to_node(cpu));
			if (!c->stacks)
				goto fail;
		}
		if (cfg->mode != KSTATS_OUTLIER_TOP)
			continue;
		c->heap = kvzalloc_node(array_size(cfg->keep, sizeof(*c->heap)),
					GFP_KERNEL, cpu_to_node(cpu));
		if (!c->heap)
			goto fail;
	}
	return o;
fail:
	kstats_outliers_free(o);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_alloc, KSTATS_NS);

/**
 * kstats_outliers_free() - free the store
 * @o: the store, or NULL
 *
 * Context: any but NMI; no capture may run on it any more.
 */
void kstats_outliers_free(struct kstats_outliers *o)
{
	int cpu;

	if (!o)
		return;
	if (o->pcpu) {
		for_each_possible_cpu(cpu) {
			struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);

			kvfree(c->entries);
			kvfree(c->heap);
			kvfree(c->stacks);
		}
		free_percpu(o->pcpu);
	}
	kfree(o);
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_free, KSTATS_NS);

/**
 * kstats_outliers_reset() - forget the kept samples and their counts
 * @o: the store, or NULL
 *
 * A capture under way meanwhile may leave one entry or count of its own,
 * as a sample recorded during a reset may stay in the histogram.
 *
 * Context: any.
 */
void kstats_outliers_reset(struct kstats_outliers *o)
{
	int cpu;

	if (!o)
		return;
	for_each_possible_cpu(cpu) {
		struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);

		WRITE_ONCE(c->n, 0);
		WRITE_ONCE(c->captured, 0);
		WRITE_ONCE(c->dropped, 0);
		WRITE_ONCE(c->min, kstats_outlier_floor(o));
		if (c->stacks)
			WRITE_ONCE(c->stacks->hits, 0);
	}
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_reset, KSTATS_NS);

/* Top: the heap's entry @h's value. */
static u64 kstats_heap_value(const struct kstats_outliers *o,
			     const struct kstats_outlier_cpu *c, u32 h)
{
	return kstats_outlier_entry(o, c, c->heap[h])->value;
}

/* Top: restore the min-heap from @h down (its value grew). */
static void kstats_heap_down(const struct kstats_outliers *o,
			     struct kstats_outlier_cpu *c, u32 h)
{
	for (;;) {
		u32 l = 2 * h + 1, r = l + 1, m = h;

		if (l < c->n && (s64)kstats_heap_value(o, c, l) <
				(s64)kstats_heap_value(o, c, m))
			m = l;
		if (r < c->n && (s64)kstats_heap_value(o, c, r) <
				(s64)kstats_heap_value(o, c, m))
			m = r;
		if (m == h)
			return;
		swap(c->heap[h], c->heap[m]);
		h = m;
	}
}

/* Top: restore the min-heap from @h up (a new last entry). */
static void kstats_heap_up(const struct kstats_outliers *o,
			   struct kstats_outlier_cpu *c, u32 h)
{
	while (h) {
		u32 p = (h - 1) / 2;

		if ((s64)kstats_heap_value(o, c, p) <=
		    (s64)kstats_heap_value(o, c, h))
			return;
		swap(c->heap[h], c->heap[p]);
		h = p;
	}
}

/*
 * The entry a capture of @v on this CPU writes, or NULL for a top sample
 * no longer among the largest.  For top, *@heap_pos is the entry's place
 * in the heap: a new last one, or the root it replaces.
 */
static struct kstats_outlier *kstats_outlier_slot(struct kstats_outliers *o,
						  struct kstats_outlier_cpu *c,
						  u64 v, u32 *heap_pos)
{
	if (o->cfg.mode == KSTATS_OUTLIER_SLOW) {
		u32 i = c->captured % o->cfg.keep;

		c->n = min_t(u64, c->captured + 1, o->cfg.keep);
		return kstats_outlier_entry(o, c, i);
	}
	if (c->n < o->cfg.keep) {
		c->heap[c->n] = c->n;
		*heap_pos = c->n;
		return kstats_outlier_entry(o, c, c->n++);
	}
	/* Full: it replaces the smallest, the heap's root, if larger. */
	if ((s64)v <= (s64)kstats_heap_value(o, c, 0))
		return NULL;
	*heap_pos = 0;
	return kstats_outlier_entry(o, c, c->heap[0]);
}

/*
 * Keep @v with its context and, with "stack N", the kernel stack: from
 * @ip/@sp/@bp (kstats_stack_at()) when @ip is set, else from here.
 */
static __always_inline notrace void
kstats_outlier_keep(struct kstats_outliers *o, u64 v, u32 key, bool has_key,
		    unsigned long ip, unsigned long sp, unsigned long bp)
{
	struct kstats_outlier_cpu *c = this_cpu_ptr(o->pcpu);
	struct kstats_outlier *e;
	u32 h = 0;

	/* An NMI in a capture on this CPU: the entry is the other's. */
	if (this_cpu_inc_return(o->pcpu->busy) != 1) {
		this_cpu_inc(o->pcpu->dropped);
		goto out;
	}
	e = kstats_outlier_slot(o, c, v, &h);
	if (!e)
		goto out;
	c->captured++;
	WRITE_ONCE(e->seq, e->seq + 1);
	smp_wmb();	/* the odd seq before the fields: see kstats_outlier_read() */
	e->value = v;
	e->time = ktime_get_mono_fast_ns();
	e->cpu = raw_smp_processor_id();
	e->pid = task_tgid_nr(current);
	e->tid = task_pid_nr(current);
	memcpy(e->comm, current->comm, sizeof(e->comm));
	e->key = key;
	e->has_key = has_key;
	if (!o->cfg.stack)
		e->nr_frames = 0;
	else if (ip)
		e->nr_frames = kstats_stack_at(c->stacks, e->frames,
					       o->cfg.stack, ip, sp, bp, 0);
	else
		e->nr_frames = stack_trace_save(e->frames, o->cfg.stack, 1);
	smp_wmb();	/* the fields before the even seq */
	WRITE_ONCE(e->seq, e->seq + 1);
	if (o->cfg.mode == KSTATS_OUTLIER_TOP) {
		/* a new last entry goes up, a replaced root down */
		kstats_heap_up(o, c, h);
		kstats_heap_down(o, c, h);
		if (c->n == o->cfg.keep)
			WRITE_ONCE(c->min, kstats_heap_value(o, c, 0) + 1);
	}
out:
	this_cpu_dec(o->pcpu->busy);
}

/**
 * kstats_outlier_capture() - keep an outlier with its context
 * @o: the node's store
 * @v: the sample (kstats_outlier_wanted() said to keep it)
 * @key: the node's family key index, with @has_key
 * @has_key: the node has a family
 *
 * Records the time, the CPU, the current task and, with "stack N", the
 * kernel stack here: the sample's end point (the frames of the probe that
 * runs this, innermost, are left out when the file is read).
 *
 * Context: any, NMI included; preemption disabled (a probe's handler).
 */
noinline notrace void kstats_outlier_capture(struct kstats_outliers *o, u64 v,
					     u32 key, bool has_key)
{
	kstats_outlier_keep(o, v, key, has_key, 0, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(kstats_outlier_capture, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_outlier_capture);

/**
 * kstats_outlier_capture_at() - keep an outlier, its stack from a function
 * @o: the node's store
 * @v: the sample (kstats_outlier_wanted() said to keep it)
 * @key: the node's family key index, with @has_key
 * @has_key: the node has a family
 * @ip: an instruction of the function the stack starts in, its first frame
 * @sp: the stack pointer there
 * @bp: the frame pointer there
 *
 * As kstats_outlier_capture(), but the stack is the one @ip ran on, as an
 * interrupt there would see it: a caller that knows where the traced
 * function left its frame (the direct trampoline, at the return) neither
 * walks nor keeps its own frames.  Without ORC, the stack is taken here.
 *
 * Context: any, NMI included; preemption disabled (a probe's handler);
 * @sp on the current task's stack or the stack it runs on.
 */
noinline notrace void kstats_outlier_capture_at(struct kstats_outliers *o,
						u64 v, u32 key, bool has_key,
						unsigned long ip,
						unsigned long sp,
						unsigned long bp)
{
	kstats_outlier_keep(o, v, key, has_key, ip, sp, bp);
}
EXPORT_SYMBOL_NS_GPL(kstats_outlier_capture_at, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_outlier_capture_at);

/* Copy entry @src if no capture wrote it meanwhile; false if one did. */
static bool kstats_outlier_read(const struct kstats_outliers *o,
				const struct kstats_outlier *src,
				struct kstats_outlier *dst)
{
	u32 seq = READ_ONCE(src->seq);

	if (seq & 1)
		return false;
	smp_rmb();	/* the seq before the fields */
	memcpy(dst, src, o->esize);
	smp_rmb();	/* the fields before the seq again */
	return READ_ONCE(src->seq) == seq && seq;
}

static int kstats_outlier_by_time(const void *a, const void *b)
{
	const struct kstats_outlier *x = *(const struct kstats_outlier **)a;
	const struct kstats_outlier *y = *(const struct kstats_outlier **)b;

	return x->time < y->time ? -1 : x->time > y->time;
}

static int kstats_outlier_by_value(const void *a, const void *b)
{
	const struct kstats_outlier *x = *(const struct kstats_outlier **)a;
	const struct kstats_outlier *y = *(const struct kstats_outlier **)b;

	if ((s64)x->value != (s64)y->value)
		return (s64)x->value > (s64)y->value ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * Whether @addr is a frame of the probe that took the stack, not of the
 * traced code: kstats' own, or kprobes', rethook's, fprobe's or ftrace's,
 * through which a return probe's handler runs.
 */
static bool kstats_outlier_probe_frame(unsigned long addr)
{
	static const char * const probe[] = {
		"arch_rethook_", "rethook_", "kretprobe_", "__kretprobe_",
		"fprobe_", "__fprobe_", "ftrace_", "kprobe_", "__kprobe_",
	};
	char sym[KSYM_SYMBOL_LEN];
	int i;

	if (within_module(addr, THIS_MODULE))
		return true;
	sprint_symbol_no_offset(sym, addr);
	for (i = 0; i < ARRAY_SIZE(probe); i++)
		if (!strncmp(sym, probe[i], strlen(probe[i])))
			return true;
	return false;
}

/* An outlier's key as text at most: a stack of names. */
#define KEY_BUF	(KSTATS_STACK_KEY_MAX * KSYM_SYMBOL_LEN)

/* One frame as "symbol+0xOFF" or "symbol+0xOFF [module]". */
static void kstats_outlier_frame(struct seq_file *m, unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN];

	kstats_stack_format_frame(addr, true, sym);
	seq_puts(m, sym);
}

/**
 * kstats_outliers_show() - the outliers' lines of a distribution file
 * @o: the store, or NULL (nothing is shown)
 * @m: the file
 * @stack_at: where the stack is taken, for the header ("end"), or NULL
 * @key_format: writes an outlier's family key as text, from its index
 *	(if it has one) and the CPU that recorded it; returns 0 for none.
 *	For nodes with a family
 * @arg: for @key_format
 *
 * "# outliers slow V keep M kept K dropped D stack N" or "# outliers top
 * K kept K stack N dropped D", with a stack " cached C" (stacks taken from
 * the chains cached, kstats_stack.c) and where it is taken (" stack_at
 * end"), then one "outlier VALUE time T cpu C pid P
 * tid T comm NAME [key KEY] [stack F1;...;FN]" line per kept sample, the
 * frames root first: oldest first for slow, largest first for top.
 *
 * Context: process; may sleep.
 * Return: 0, or -ENOMEM.
 */
int kstats_outliers_show(struct kstats_outliers *o, struct seq_file *m,
			 const char *stack_at,
			 int (*key_format)(void *arg, u32 key, bool has_key,
					   u32 cpu, char *buf,
					   size_t size),
			 void *arg)
{
	u64 captured = 0, dropped = 0, cached = 0;
	struct kstats_outlier **sorted;
	u32 n = 0, first, i, cap;
	void *copies;
	char *buf;
	int cpu;

	if (!o)
		return 0;
	cap = o->cfg.keep * num_possible_cpus();
	copies = kvmalloc_array(cap, o->esize, GFP_KERNEL);
	sorted = kvmalloc_array(cap, sizeof(*sorted), GFP_KERNEL);
	if (!copies || !sorted) {
		kvfree(copies);
		kvfree(sorted);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);
		u32 nr = min(READ_ONCE(c->n), o->cfg.keep);

		captured += READ_ONCE(c->captured);
		dropped += READ_ONCE(c->dropped);
		if (c->stacks)
			cached += READ_ONCE(c->stacks->hits);
		for (i = 0; i < nr; i++) {
			struct kstats_outlier *dst = copies + n * o->esize;

			if (kstats_outlier_read(o, kstats_outlier_entry(o, c, i),
						dst))
				sorted[n++] = dst;
		}
	}
	sort(sorted, n, sizeof(*sorted), o->cfg.mode == KSTATS_OUTLIER_SLOW ?
	     kstats_outlier_by_time : kstats_outlier_by_value, NULL);
	/* slow: the newest M of all CPUs; top: the K largest */
	first = o->cfg.mode == KSTATS_OUTLIER_SLOW && n > o->cfg.keep ?
		n - o->cfg.keep : 0;
	n = min(n, first + o->cfg.keep);
	if (o->cfg.mode == KSTATS_OUTLIER_SLOW)
		seq_printf(m, "# outliers slow %llu keep %u kept %u dropped %llu stack %u",
			   o->cfg.slow, o->cfg.keep, n - first,
			   dropped + (captured > n - first ?
				      captured - (n - first) : 0),
			   o->cfg.stack);
	else
		seq_printf(m, "# outliers top %u kept %u stack %u dropped %llu",
			   o->cfg.keep, n, o->cfg.stack, dropped);
	if (o->cfg.stack)
		seq_printf(m, " cached %llu", cached);
	if (stack_at && o->cfg.stack)
		seq_printf(m, " stack_at %s", stack_at);
	seq_putc(m, '\n');
	/* a key may be a stack: up to KSTATS_STACK_KEY_MAX frames' names */
	buf = kmalloc(KEY_BUF, GFP_KERNEL);
	for (i = first; buf && i < n; i++) {
		const struct kstats_outlier *e = sorted[i];
		int f, k;

		seq_printf(m, o->signed_values ? "outlier %lld" : "outlier %llu",
			   e->value);
		kstats_format_name(e->comm, buf, KEY_BUF);
		seq_printf(m, " time %llu cpu %u pid %d tid %d comm %s",
			   e->time, e->cpu, e->pid, e->tid, buf);
		if (key_format && key_format(arg, e->key, e->has_key, e->cpu,
					     buf, KEY_BUF))
			seq_printf(m, " key %s", buf);
		if (o->cfg.stack)
			seq_puts(m, " stack ");
		/* the probe's own frames, innermost, say nothing of it */
		k = 0;
		while (k < e->nr_frames - 1 &&
		       kstats_outlier_probe_frame(e->frames[k]))
			k++;
		for (f = min_t(int, e->nr_frames, o->cfg.stack) - 1; f >= k; f--) {
			kstats_outlier_frame(m, e->frames[f]);
			if (f > k)
				seq_putc(m, ';');
		}
		seq_putc(m, '\n');
	}
	kfree(buf);
	kvfree(copies);
	kvfree(sorted);
	return buf ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_show, KSTATS_NS);
