// SPDX-License-Identifier: GPL-2.0
/*
 * The starts of keyed sections in flight, apart from the probes that find
 * them and from the record that ends them.
 *
 * An open-addressing table: a key may sit in KSTATS_PAIR_WINDOW slots in
 * a row, from where its hash places them: windows that begin anywhere but
 * in the last KSTATS_PAIR_WINDOW - 1 slots, so that none wraps.  Every
 * change of a slot first takes it by turning its key into
 * KSTATS_PAIR_BUSY with one cmpxchg, writes, and releases it with its new
 * key (or empty): no lock and no spinning, so a handler in NMI, or one
 * that interrupted another on the same CPU, never waits.  A handler that
 * meets a busy slot passes it by; the price is that a start or an end
 * racing on the very same key may be counted as replaced or unmatched,
 * never lost without a count.
 *
 * A start whose key is in flight replaces the older one, or with "nest
 * outer" (a lock wait that begins again inside itself, as a mutex's spin
 * then sleep) leaves it; an end pairs only with a start that carries its
 * match value (the same lock), so that an inner wait's end does not close
 * the outer one.
 *
 * A section whose points are all keyed by the CPU holds its starts in
 * one slot per CPU instead (KSTATS_PAIR_PER_CPU), found with no hash and
 * in no line another CPU writes; the same take and release guard it
 * against a handler that interrupts another on its CPU.
 *
 * A section whose points are all keyed by the task has, beside the
 * table, a slot per CPU for the start of the task it runs
 * (KSTATS_PAIR_CURRENT): most sections start and end on one CPU, with no
 * switch between, and these take no hash, no scan and no locked
 * instruction.  When the task leaves the CPU (sched_switch), its start
 * moves into the table (kstats_pair_switch()), where its end finds it on
 * whatever CPU it runs next, and the slot is marked KSTATS_PAIR_SWITCHED:
 * the first start of the task that runs next looks in the table for an
 * older start of its own, and replaces it, as it would in the slot.  So
 * a start, a switch, a start, an end and an end pair the second start
 * with the first end, and leave the second end unmatched, as the table
 * alone would, and the switch, for every task, only marks the slot.  A
 * start held in the table while a handler it interrupted wrote the slot
 * sits beside the slot's: one of the two is counted as replaced when the
 * slot's joins it in the table, or when the task exits.
 *
 * The table holds a bounded number of starts: one whose slots are all
 * taken evicts the oldest of them, and the starts of a task that exits
 * are dropped, so that starts whose end never comes cannot clog it.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "kstats_internal.h"
#include "kstats_pair.h"

/**
 * kstats_pair_init() - size a table for @inflight starts
 * @p: the table
 * @inflight: 1..KSTATS_PAIR_MAX
 * @flags: KSTATS_PAIR_OUTER: a start whose key is in flight leaves the
 *	older one in place; KSTATS_PAIR_REFUSE: a start that finds its slots
 *	taken is refused rather than evict the oldest; KSTATS_PAIR_PER_CPU:
 *	the keys are CPUs, each its own slot (a start of a key that is no
 *	possible CPU is counted as evicted, its end as unmatched);
 *	KSTATS_PAIR_CURRENT: the keys are tasks, and the current task's
 *	start is held in a slot of its CPU until kstats_pair_switch() (not
 *	with KSTATS_PAIR_OUTER, whose older start must win)
 *
 * Context: process.
 * Return: 0, -EINVAL for @inflight out of range or KSTATS_PAIR_CURRENT
 * with KSTATS_PAIR_OUTER or KSTATS_PAIR_PER_CPU, or -ENOMEM.
 */
int kstats_pair_init(struct kstats_pair *p, u32 inflight, unsigned int flags)
{
	if (!inflight || inflight > KSTATS_PAIR_MAX ||
	    ((flags & KSTATS_PAIR_CURRENT) &&
	     (flags & (KSTATS_PAIR_OUTER | KSTATS_PAIR_PER_CPU))))
		return -EINVAL;
	/* a table of CPUs holds one start per CPU, whatever was asked */
	p->inflight = flags & KSTATS_PAIR_PER_CPU ? num_possible_cpus() : inflight;
	p->outer = flags & KSTATS_PAIR_OUTER;
	p->refuse = flags & KSTATS_PAIR_REFUSE;
	p->counts = alloc_percpu_gfp(struct kstats_pair_counts, KSTATS_GFP);
	if (flags & KSTATS_PAIR_PER_CPU) {
		p->cpu_slots = __alloc_percpu_gfp(sizeof(*p->cpu_slots),
						  __alignof__(*p->cpu_slots),
						  KSTATS_GFP);
	} else {
		p->bits = max_t(u32, ilog2(roundup_pow_of_two(inflight)) + 1,
				ilog2(KSTATS_PAIR_WINDOW));
		p->windows = (1U << p->bits) - KSTATS_PAIR_WINDOW + 1;
		/* a power of two of slots: kvcalloc() aligns it to its size */
		p->slots = kvcalloc(1UL << p->bits, sizeof(*p->slots),
				    KSTATS_GFP);
	}
	if (flags & KSTATS_PAIR_CURRENT)
		p->cur_slots = __alloc_percpu_gfp(sizeof(*p->cur_slots),
						  __alignof__(*p->cur_slots),
						  KSTATS_GFP);
	if ((!p->slots && !p->cpu_slots) || !p->counts ||
	    (!p->cur_slots && (flags & KSTATS_PAIR_CURRENT))) {
		kstats_pair_free(p);
		return -ENOMEM;
	}
	p->salt = get_random_u64();
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_init, KSTATS_NS);

/**
 * kstats_pair_free() - free a table
 * @p: the table, initialised or not (zeroed)
 *
 * Context: any but NMI (no handler may still use it).
 */
void kstats_pair_free(struct kstats_pair *p)
{
	kvfree(p->slots);
	free_percpu(p->cpu_slots);
	free_percpu(p->cur_slots);
	free_percpu(p->counts);
	p->slots = NULL;
	p->cpu_slots = NULL;
	p->cur_slots = NULL;
	p->counts = NULL;
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_free, KSTATS_NS);

/*
 * kstats_pair_start() of the current task, @key, in a table of tasks: in
 * its CPU's slot.  A start already there is replaced if it is the task's,
 * as is one it left in the table before it last left a CPU (the slot
 * KSTATS_PAIR_SWITCHED); another task's (a handler that ran after that
 * task's switch out, in an NMI) is moved into the table; while a handler
 * this one interrupted writes the slot, the start goes into the table.
 * So does a start of the task switched out itself, made between the
 * scheduler's sched_switch and the switch (the slot KSTATS_PAIR_SWITCHED,
 * its @match that task): its end comes on whatever CPU the task runs
 * next, and finds it there; the mark stays for the task that comes.
 */
static noinline notrace bool
kstats_pair_start_cur(struct kstats_pair *p, u64 key, u64 match, u64 ts,
		      u32 cpu, u32 aux)
{
	struct kstats_pair_slot *s;
	bool held = true;
	u64 old, o_ts;
	u32 o_cpu, o_aux;

	preempt_disable_notrace();
	s = this_cpu_ptr(p->cur_slots);
	old = READ_ONCE(s->key);
	if (old == KSTATS_PAIR_BUSY ||
	    cmpxchg_local(&s->key, old, KSTATS_PAIR_BUSY) != old) {
		preempt_enable_notrace();
		/* a table of tasks is no table of CPUs (kstats_pair_init()) */
		return kstats_pair_start_hashed(p, key, match, ts, cpu, aux);
	}
	if (old == KSTATS_PAIR_SWITCHED && s->match == key) {
		held = kstats_pair_start_hashed(p, key, match, ts, cpu, aux);
		/* the slot free again, as the other releases of BUSY do */
		smp_store_release(&s->key, KSTATS_PAIR_SWITCHED);
		preempt_enable_notrace();
		return held;
	}
	if (old == key) {
		this_cpu_inc(p->counts->replaced);
	} else if (old == KSTATS_PAIR_SWITCHED) {
		/* the task's start from before its switch in, if any */
		if (kstats_pair_take_by(p, key, NULL, &o_ts, &o_cpu, &o_aux,
					false))
			this_cpu_inc(p->counts->replaced);
	} else if (old != KSTATS_PAIR_EMPTY) {
		held = kstats_pair_start_hashed(p, old, s->match, s->ts,
						s->cpu, s->aux);
	}
	kstats_pair_fill(s, key, match, ts, cpu, aux);
	preempt_enable_notrace();
	return held;
}

NOKPROBE_SYMBOL(kstats_pair_start_cur);

/**
 * kstats_pair_start() - hold a start until its end
 * @p: the table
 * @key: the section's key (a task, a CPU, an argument)
 * @match: what its end must carry too (a lock's address), or 0
 * @ts: the time of the start
 * @cpu: the CPU of the start
 * @aux: what its end gets back with it (a family's key index), or 0
 *
 * A start for a key in flight replaces it, or is dropped as nested if the
 * table keeps the outer start; one that finds all its slots taken evicts
 * the oldest, or is refused if the table refuses.  Each is counted, a
 * refused start by the caller.
 *
 * Context: any, NMI included.
 * Return: false if the start was refused (a sample lost), else true.
 */
notrace bool kstats_pair_start(struct kstats_pair *p, u64 key, u64 match,
			       u64 ts, u32 cpu, u32 aux)
{
	if (p->cur_slots && key == (unsigned long)current)
		return kstats_pair_start_cur(p, key, match, ts, cpu, aux);
	return kstats_pair_start_table(p, key, match, ts, cpu, aux);
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_start, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_pair_start);

/*
 * Take the current task's start, @key, from its CPU's slot in a table of
 * tasks, if it carries @match (any, with @any).  Return: whether it was
 * there.
 */
static __always_inline notrace bool
kstats_pair_take_cur(struct kstats_pair *p, u64 key, u64 match, bool any,
		     u64 *ts, u32 *cpu, u32 *aux)
{
	bool took;

	preempt_disable_notrace();
	took = kstats_pair_take_slot(this_cpu_ptr(p->cur_slots), key, match,
				     any, ts, cpu, aux);
	preempt_enable_notrace();
	return took;
}

/* kstats_pair_end() of the current task: its CPU's slot, else the table. */
static noinline notrace bool
kstats_pair_end_cur(struct kstats_pair *p, u64 key, u64 match, u64 *ts,
		    u32 *cpu, u32 *aux)
{
	bool found;

	if (kstats_pair_take_cur(p, key, match, false, ts, cpu, aux))
		return true;
	found = kstats_pair_end_hashed(p, key, match, ts, cpu, aux);
	preempt_disable_notrace();
	kstats_pair_clear_switched(p);
	preempt_enable_notrace();
	return found;
}

NOKPROBE_SYMBOL(kstats_pair_end_cur);

/**
 * kstats_pair_end() - find the start of an end, and forget it
 * @p: the table
 * @key: the key of the end
 * @match: what its start must carry (as given to kstats_pair_start())
 * @ts: where to store the time of the start
 * @cpu: where to store its CPU
 * @aux: where to store what the start left
 *
 * An end with no start in flight for @key and @match is counted as
 * unmatched.
 *
 * Context: any, NMI included.
 * Return: true with *@ts, *@cpu and *@aux set, or false.
 */
notrace bool kstats_pair_end(struct kstats_pair *p, u64 key, u64 match,
			     u64 *ts, u32 *cpu, u32 *aux)
{
	if (p->cur_slots && key == (unsigned long)current)
		return kstats_pair_end_cur(p, key, match, ts, cpu, aux);
	return kstats_pair_end_table(p, key, match, ts, cpu, aux);
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_end, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_pair_end);

/**
 * kstats_pair_forget() - drop the start of a key that will never end
 * @p: the table
 * @key: the key (an exiting task)
 *
 * Counted as exited when there was one.  In a table of tasks, the current
 * task's start may be in its CPU's slot and an older one in the table:
 * the newer is the one that exits, the older was replaced by it.
 *
 * Context: any, NMI included.
 */
notrace void kstats_pair_forget(struct kstats_pair *p, u64 key)
{
	bool newer = false;
	u64 ts;
	u32 cpu, aux;

	if (p->cur_slots && key == (unsigned long)current &&
	    kstats_pair_take_cur(p, key, 0, true, &ts, &cpu, &aux)) {
		this_cpu_inc(p->counts->exited);
		newer = true;
	}
	if (kstats_pair_take_key(p, key, NULL, &ts, &cpu, &aux)) {
		if (newer)
			this_cpu_inc(p->counts->replaced);
		else
			this_cpu_inc(p->counts->exited);
	}
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_forget, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_pair_forget);

/**
 * kstats_pair_switch() - the current task leaves its CPU: its start, if
 *	in the CPU's slot, goes into the table
 * @p: a table of tasks (KSTATS_PAIR_CURRENT)
 *
 * Called at sched_switch, after the section's own points there (a start
 * of the task switched out is held first, then moved).  A start the
 * table refuses is lost, for the caller to count.  The slot is left
 * KSTATS_PAIR_SWITCHED, naming the task switched out: the next task's
 * first start replaces its own older one in the table
 * (kstats_pair_start_cur()), a walk only tasks that start pay, not every
 * switch; a start of the task switched out, before the switch itself,
 * goes to the table.
 *
 * Context: the scheduler, interrupts disabled, on the CPU the task leaves.
 * Return: false if the table refused the start, else true.
 */
notrace bool kstats_pair_switch(struct kstats_pair *p)
{
	struct kstats_pair_slot *s = this_cpu_ptr(p->cur_slots);
	u64 key = READ_ONCE(s->key);
	bool held = true;

	/* an NMI's start meanwhile keeps the slot */
	if (key == KSTATS_PAIR_BUSY ||
	    cmpxchg_local(&s->key, key, KSTATS_PAIR_BUSY) != key)
		return true;
	if (key > KSTATS_PAIR_SWITCHED)
		held = kstats_pair_start_hashed(p, key, s->match, s->ts, s->cpu,
						s->aux);
	s->match = (unsigned long)current;
	/* the fields read and written, before the slot can be taken again */
	smp_store_release(&s->key, KSTATS_PAIR_SWITCHED);
	return held;
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_switch, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_pair_switch);

/**
 * kstats_pair_pending() - the starts in flight
 * @p: the table
 *
 * Context: any; walks the whole table.
 * Return: their number, at some instant of the walk.
 */
u64 kstats_pair_pending(const struct kstats_pair *p)
{
	u64 n = 0, i;
	int cpu;

	if (p->cpu_slots) {
		for_each_possible_cpu(cpu)
			n += READ_ONCE(per_cpu_ptr(p->cpu_slots, cpu)->key) >
			     KSTATS_PAIR_BUSY;
		return n;
	}
	if (p->cur_slots)
		for_each_possible_cpu(cpu)
			n += READ_ONCE(per_cpu_ptr(p->cur_slots, cpu)->key) >
			     KSTATS_PAIR_SWITCHED;
	for (i = 0; i < (1ULL << p->bits); i++)
		n += READ_ONCE(p->slots[i].key) > KSTATS_PAIR_BUSY;
	return n;
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_pending, KSTATS_NS);

/**
 * kstats_pair_counts() - what became of starts and ends, all CPUs
 * @p: the table
 * @c: where to store the sums
 *
 * Context: any.
 */
void kstats_pair_counts(const struct kstats_pair *p,
			struct kstats_pair_counts *c)
{
	int cpu;

	memset(c, 0, sizeof(*c));
	for_each_possible_cpu(cpu) {
		const struct kstats_pair_counts *pc = per_cpu_ptr(p->counts, cpu);

		c->replaced += READ_ONCE(pc->replaced);
		c->evicted += READ_ONCE(pc->evicted);
		c->exited += READ_ONCE(pc->exited);
		c->unmatched += READ_ONCE(pc->unmatched);
		c->nested += READ_ONCE(pc->nested);
	}
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_counts, KSTATS_NS);

/**
 * kstats_pair_reset_counts() - start the counts again from 0
 * @p: the table
 *
 * The starts in flight stay.  A count a handler bumps while this runs may
 * survive it or not.
 *
 * Context: any.
 */
void kstats_pair_reset_counts(struct kstats_pair *p)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(p->counts, cpu), 0, sizeof(*p->counts));
}
EXPORT_SYMBOL_NS_GPL(kstats_pair_reset_counts, KSTATS_NS);
