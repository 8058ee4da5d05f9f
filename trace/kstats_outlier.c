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
 * largest, largest first.
 *
 * Memory: (M or K) entries of 64 bytes, 8 per stack frame and 72 for a
 * "why" node's split (kstats_why.h), with 2 bytes each for top's heap
 * and 4 KiB of chains with a stack, per CPU
 * that is online, not per possible CPU: a kernel booted for many more
 * CPUs than it has would otherwise give each node gigabytes.  A CPU that
 * comes online later gets its store from a CPU hotplug callback, before
 * it runs anything (a prepare state, on the CPU that brings it up); one
 * whose store cannot be allocated (the allocations may fail rather than
 * push the system into the OOM killer) counts its captures as dropped.
 * A CPU that goes offline keeps its store: the samples it kept are still
 * the node's to show, and a CPU taken offline and back (as suspend does
 * to all but one) then allocates nothing again; the bound stays what the
 * node's line says, a store per CPU that has been online.  A read copies
 * one CPU's worth at most: it merges the CPUs' entries one at a time into
 * a heap of the M (or K) it shows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
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

#include "kstats_family_view.h"
#include "kstats_internal.h"
#include "kstats_outlier.h"
#include "kstats_why.h"

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
 * @frames: the kernel stack at its end, innermost first; then, for a node
 *	with "why", its split (struct kstats_why_parts, kstats_outlier_why())
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

/* A "why" node's entry's split, after its frames. */
static struct kstats_why_parts *kstats_outlier_why(const struct kstats_outliers *o,
						   const struct kstats_outlier *e)
{
	return (void *)e + sizeof(*e) + o->cfg.stack * sizeof(unsigned long);
}

/* The start value of a CPU's bar: the threshold, or 0 for top. */
static u64 kstats_outlier_floor(const struct kstats_outliers *o)
{
	return o->cfg.mode == KSTATS_OUTLIER_SLOW ? o->cfg.slow : 0;
}

/*
 * A store's allocations: they may fail, and say nothing; a node too large
 * for the memory is refused with ENOMEM, a CPU that comes online then
 * keeps nothing, rather than push the system into the OOM killer.
 */
#define KSTATS_OUTLIER_GFP	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* The CPU hotplug state whose callback gives a CPU its stores, or 0. */
static int kstats_outlier_cpuhp;

/* Free a CPU's store, if it has one. */
static void kstats_outlier_cpu_free(struct kstats_outlier_cpu *c)
{
	kvfree(c->entries);
	kvfree(c->heap);
	kvfree(c->stacks);
	c->entries = NULL;
	c->heap = NULL;
	c->stacks = NULL;
}

/*
 * Give CPU @cpu its store, if it has none: its entries, top's heap and
 * the stack's chains, on its node.  Nothing is published but a whole
 * store: the entries last, with a release, so that a reader (or a reset)
 * that sees them sees the rest; a capture on @cpu runs only once it is
 * online, after this.
 */
static int kstats_outlier_cpu_alloc(struct kstats_outliers *o, int cpu)
{
	struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);
	struct kstats_stack_cache *stacks = NULL;
	int node = cpu_to_node(cpu);
	void *entries = NULL;
	u16 *heap = NULL;

	if (READ_ONCE(c->entries))
		return 0;
	BUILD_BUG_ON(sizeof(*stacks) > SZ_4K);
	if (o->cfg.stack)
		stacks = kvzalloc_node(sizeof(*stacks), KSTATS_OUTLIER_GFP,
				       node);
	if (o->cfg.mode == KSTATS_OUTLIER_TOP)
		heap = kvzalloc_node(array_size(o->cfg.keep, sizeof(*heap)),
				     KSTATS_OUTLIER_GFP, node);
	if ((!o->cfg.stack || stacks) &&
	    (o->cfg.mode != KSTATS_OUTLIER_TOP || heap))
		entries = kvzalloc_node(array_size(o->cfg.keep, o->esize),
					KSTATS_OUTLIER_GFP, node);
	if (!entries) {
		kvfree(stacks);
		kvfree(heap);
		return -ENOMEM;
	}
	c->stacks = stacks;
	c->heap = heap;
	/* the parts before the entries: kstats_outliers_show() acquires */
	smp_store_release(&c->entries, entries);
	return 0;
}

/*
 * The hotplug callback: CPU @cpu comes online, and the store @node
 * (kstats_outliers' @cpuhp) gives it its part.  It never fails the CPU's
 * bring-up: without memory, the CPU's captures are counted as dropped.
 */
static int kstats_outlier_cpu_prepare(unsigned int cpu, struct hlist_node *node)
{
	struct kstats_outliers *o = hlist_entry(node, struct kstats_outliers,
						cpuhp);

	if (kstats_outlier_cpu_alloc(o, cpu))
		pr_warn_ratelimited("no memory for the outliers of CPU %u (%zu bytes): its captures are counted as dropped\n",
				    cpu, o->cpu_bytes);
	return 0;
}

/**
 * kstats_outliers_alloc() - the store of a node's outliers
 * @cfg: what to keep (mode, threshold, count, stack)
 * @signed_values: the node records signed values
 *
 * A store on each CPU online now, and on each that comes online later
 * (until kstats_outliers_retire()).
 *
 * Context: process; may sleep.
 * Return: the store, NULL for mode NONE, or an ERR_PTR (-ENOMEM).
 */
struct kstats_outliers *kstats_outliers_alloc(const struct kstats_outlier_cfg *cfg,
					      bool signed_values)
{
	struct kstats_outliers *o;
	int cpu, err = 0;

	if (cfg->mode == KSTATS_OUTLIER_NONE)
		return NULL;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return ERR_PTR(-ENOMEM);
	o->cfg = *cfg;
	o->signed_values = signed_values;
	o->esize = sizeof(struct kstats_outlier) +
		   cfg->stack * sizeof(unsigned long) +
		   (cfg->why ? sizeof(struct kstats_why_parts) : 0);
	o->cpu_bytes = array_size(cfg->keep, o->esize) +
		       (cfg->mode == KSTATS_OUTLIER_TOP ?
			array_size(cfg->keep, sizeof(u16)) : 0) +
		       (cfg->stack ? sizeof(struct kstats_stack_cache) : 0);
	o->pcpu = alloc_percpu(struct kstats_outlier_cpu);
	if (!o->pcpu)
		goto fail;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(o->pcpu, cpu)->min = kstats_outlier_floor(o);
	/*
	 * The callback first, then the CPUs online: a CPU that comes up
	 * meanwhile gets its store from one or the other (the callback runs
	 * under the hotplug lock, the loop under its read side).
	 */
	if (kstats_outlier_cpuhp > 0) {
		err = cpuhp_state_add_instance_nocalls(kstats_outlier_cpuhp,
						       &o->cpuhp);
		o->cpuhp_added = !err;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (err)
			break;
		err = kstats_outlier_cpu_alloc(o, cpu);
	}
	cpus_read_unlock();
	if (err)
		goto fail;
	return o;
fail:
	kstats_outliers_free(o);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_alloc, KSTATS_NS);

/**
 * kstats_outliers_retire() - no store for the CPUs that come online now on
 * @o: the store, or NULL
 *
 * Before kstats_outliers_free(), which may run where the hotplug lock
 * cannot be taken; captures may still come (a call in flight returning
 * through a removed node), those on a CPU with no store are dropped.
 *
 * Context: process; may sleep.
 */
void kstats_outliers_retire(struct kstats_outliers *o)
{
	if (!o || !o->cpuhp_added)
		return;
	cpuhp_state_remove_instance_nocalls(kstats_outlier_cpuhp, &o->cpuhp);
	o->cpuhp_added = false;
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_retire, KSTATS_NS);

/**
 * kstats_outliers_free() - free the store
 * @o: the store, or NULL
 *
 * Retires it first if that was not done (then in process context).
 *
 * Context: any but NMI once retired; no capture may run on it any more.
 */
void kstats_outliers_free(struct kstats_outliers *o)
{
	int cpu;

	if (!o)
		return;
	kstats_outliers_retire(o);
	if (o->pcpu) {
		for_each_possible_cpu(cpu)
			kstats_outlier_cpu_free(per_cpu_ptr(o->pcpu, cpu));
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
		/* the entries, then the parts published before them */
		if (smp_load_acquire(&c->entries) && c->stacks)
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

	/*
	 * An NMI in a capture on this CPU: the entry is the other's; a CPU
	 * with no store keeps nothing.  Both are counted.
	 */
	if (this_cpu_inc_return(o->pcpu->busy) != 1 || !c->entries) {
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
	/* no split (from an interrupt, say): zeros, which the line omits */
	if (o->cfg.why && !kstats_why_take(kstats_outlier_why(o, e)))
		memset(kstats_outlier_why(o, e), 0, sizeof(struct kstats_why_parts));
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
 * What a read shows, merged one CPU's entry at a time: at most M (or K)
 * copies, a min-heap of pointers to them whose root is the first to give
 * way: the oldest for slow, the smallest for top.  One spare copy takes
 * the next entry read; kept, it replaces the root, whose copy is the
 * spare then.  @cap: the copies, M (or K) or the entries the CPUs held
 * when the read began, if fewer.
 */
struct kstats_outlier_merge {
	const struct kstats_outliers *o;
	struct kstats_outlier **heap;
	u32 n;
	u32 cap;
	void *copies;
	struct kstats_outlier *spare;
};

/* Whether @x gives way before @y: older for slow, smaller for top. */
static bool kstats_merge_less(const struct kstats_outliers *o,
			      const struct kstats_outlier *x,
			      const struct kstats_outlier *y)
{
	if (o->cfg.mode == KSTATS_OUTLIER_SLOW)
		return x->time < y->time;
	if ((s64)x->value != (s64)y->value)
		return (s64)x->value < (s64)y->value;
	/* of two equal ones the file shows the older first: it stays */
	return x->time > y->time;
}

static void kstats_merge_down(struct kstats_outlier_merge *g, u32 h)
{
	for (;;) {
		u32 l = 2 * h + 1, r = l + 1, m = h;

		if (l < g->n && kstats_merge_less(g->o, g->heap[l], g->heap[m]))
			m = l;
		if (r < g->n && kstats_merge_less(g->o, g->heap[r], g->heap[m]))
			m = r;
		if (m == h)
			return;
		swap(g->heap[h], g->heap[m]);
		h = m;
	}
}

static void kstats_merge_up(struct kstats_outlier_merge *g, u32 h)
{
	while (h) {
		u32 p = (h - 1) / 2;

		if (!kstats_merge_less(g->o, g->heap[h], g->heap[p]))
			return;
		swap(g->heap[h], g->heap[p]);
		h = p;
	}
}

/* Copy entry @src into the merge, if it is among those shown so far. */
static void kstats_merge_add(struct kstats_outlier_merge *g,
			     const struct kstats_outlier *src)
{
	const struct kstats_outliers *o = g->o;
	struct kstats_outlier *dst;

	if (g->n < g->cap) {
		dst = g->copies + g->n * o->esize;
		if (!kstats_outlier_read(o, src, dst))
			return;
		g->heap[g->n] = dst;
		kstats_merge_up(g, g->n++);
		return;
	}
	dst = g->spare;
	if (!g->n || !kstats_outlier_read(o, src, dst) ||
	    !kstats_merge_less(o, g->heap[0], dst))
		return;
	g->spare = g->heap[0];
	g->heap[0] = dst;
	kstats_merge_down(g, 0);
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

/* An outlier's split, if it has one (a call that was not split has none). */
static void kstats_outlier_show_why(struct seq_file *m,
				    const struct kstats_why_parts *p)
{
	if (p->oncpu || p->runq || p->blocked || p->irq)
		kstats_why_format(p, m);
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
 * end"), then " bytes B cpu_bytes P" (the stores' memory: P a CPU, B in
 * all), then one "outlier VALUE time T cpu C pid P tid T comm NAME [key
 * KEY] [stack F1;...;FN]" line per kept sample, the frames root first:
 * oldest first for slow, largest first for top.  It copies at most one
 * CPU's worth of entries (P), whatever the number of CPUs.
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
	struct kstats_outlier_merge g = { .o = o };
	u32 stored = 0, i;
	char *buf;
	int cpu;

	if (!o)
		return 0;
	for_each_possible_cpu(cpu)
		g.cap += min(READ_ONCE(per_cpu_ptr(o->pcpu, cpu)->n),
			     o->cfg.keep);
	g.cap = min(g.cap, o->cfg.keep);
	/* one CPU's worth at most, and a spare: never the CPUs' all at once */
	g.copies = kvmalloc_array(g.cap + 1, o->esize, KSTATS_OUTLIER_GFP);
	g.heap = kvmalloc_array(g.cap + 1, sizeof(*g.heap), KSTATS_OUTLIER_GFP);
	if (!g.copies || !g.heap) {
		kvfree(g.copies);
		kvfree(g.heap);
		return -ENOMEM;
	}
	g.spare = g.copies + g.cap * o->esize;
	for_each_possible_cpu(cpu) {
		struct kstats_outlier_cpu *c = per_cpu_ptr(o->pcpu, cpu);
		/* a store published with a release: its parts are set */
		void *entries = smp_load_acquire(&c->entries);
		u32 nr = min(READ_ONCE(c->n), o->cfg.keep);

		captured += READ_ONCE(c->captured);
		dropped += READ_ONCE(c->dropped);
		if (!entries)
			continue;
		stored++;
		if (c->stacks)
			cached += READ_ONCE(c->stacks->hits);
		for (i = 0; i < nr; i++)
			kstats_merge_add(&g, entries + i * o->esize);
	}
	sort(g.heap, g.n, sizeof(*g.heap), o->cfg.mode == KSTATS_OUTLIER_SLOW ?
	     kstats_outlier_by_time : kstats_outlier_by_value, NULL);
	if (o->cfg.mode == KSTATS_OUTLIER_SLOW)
		seq_printf(m, "# outliers slow %llu keep %u kept %u dropped %llu stack %u",
			   o->cfg.slow, o->cfg.keep, g.n,
			   dropped + (captured > g.n ? captured - g.n : 0),
			   o->cfg.stack);
	else
		seq_printf(m, "# outliers top %u kept %u stack %u dropped %llu",
			   o->cfg.keep, g.n, o->cfg.stack, dropped);
	if (o->cfg.stack)
		seq_printf(m, " cached %llu", cached);
	if (stack_at && o->cfg.stack)
		seq_printf(m, " stack_at %s", stack_at);
	/* what the stores hold: one per CPU that has been online */
	seq_printf(m, " bytes %zu cpu_bytes %zu\n", stored * o->cpu_bytes,
		   o->cpu_bytes);
	/* a key may be a stack: up to KSTATS_STACK_KEY_MAX frames' names */
	buf = kmalloc(KEY_BUF, GFP_KERNEL);
	for (i = 0; buf && i < g.n; i++) {
		const struct kstats_outlier *e = g.heap[i];
		int f, k;

		seq_printf(m, o->signed_values ? "outlier %lld" : "outlier %llu",
			   e->value);
		kstats_format_name(e->comm, buf, KEY_BUF);
		seq_printf(m, " time %llu cpu %u pid %d tid %d comm %s",
			   e->time, e->cpu, e->pid, e->tid, buf);
		if (key_format && key_format(arg, e->key, e->has_key, e->cpu,
					     buf, KEY_BUF))
			seq_printf(m, " key %s", buf);
		if (o->cfg.why)
			kstats_outlier_show_why(m, kstats_outlier_why(o, e));
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
	kvfree(g.copies);
	kvfree(g.heap);
	return buf ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_NS_GPL(kstats_outliers_show, KSTATS_NS);

/**
 * kstats_outlier_init() - the CPU hotplug state that gives a CPU coming
 * online its part of every store
 *
 * A prepare state: its callback runs on the CPU that brings the new one
 * up, before that runs anything, and may sleep.
 *
 * Context: process, at module load.
 * Return: 0 or a negative errno.
 */
int kstats_outlier_init(void)
{
	int state = cpuhp_setup_state_multi(CPUHP_BP_PREPARE_DYN,
					    "kstats/outliers:prepare",
					    kstats_outlier_cpu_prepare, NULL);

	if (state < 0)
		return state;
	kstats_outlier_cpuhp = state;
	return 0;
}

/**
 * kstats_outlier_exit() - remove the hotplug state
 *
 * Context: process, at module unload, once every store is retired.
 */
void kstats_outlier_exit(void)
{
	cpuhp_remove_multi_state(kstats_outlier_cpuhp);
	kstats_outlier_cpuhp = 0;
}
