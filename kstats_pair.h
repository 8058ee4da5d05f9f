/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The starts of keyed sections in flight: a bounded table from a key (a
 * task, a CPU, a request, ...) to the time its start was seen, usable from
 * any context, NMI included (kstats_pair.c).
 */
#ifndef _KSTATS_PAIR_H
#define _KSTATS_PAIR_H

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>

/* "inflight N": the starts a section holds at once. */
#define KSTATS_PAIR_DEFAULT	1024
#define KSTATS_PAIR_MAX		BIT(20)
/* kstats_pair_init()'s @flags */
#define KSTATS_PAIR_OUTER	BIT(0)	/* "nest outer": keep the older start */
#define KSTATS_PAIR_REFUSE	BIT(1)	/* "full refuse": no eviction */
#define KSTATS_PAIR_PER_CPU	BIT(2)	/* keys are CPUs: a slot per CPU */
#define KSTATS_PAIR_CURRENT	BIT(3)	/* keys are tasks: the current's per CPU */
/* Slots a key may take: its hash and the next ones. */
#define KSTATS_PAIR_WINDOW	8
/* A slot's key: none, or being written or taken by a handler */
#define KSTATS_PAIR_EMPTY	0ULL
#define KSTATS_PAIR_BUSY	1ULL

/**
 * struct kstats_pair_slot - one start in flight
 * @key: the key, mixed with the table's salt; KSTATS_PAIR_EMPTY, or
 *	KSTATS_PAIR_BUSY while a handler writes or takes the slot
 * @ts: when the start was seen, in the section's clock
 * @match: what its end must also carry ("match V", e.g. a lock), or 0
 * @cpu: where
 * @aux: what the start leaves for its end (a family's key index)
 *
 * 32 bytes, aligned to 32 (the table is a power of two of them, the
 * per-CPU slots are allocated so), so that no slot straddles a cache line.
 */
struct kstats_pair_slot {
	u64 key;
	u64 ts;
	u64 match;
	u32 cpu;
	u32 aux;
} __aligned(32);

/**
 * struct kstats_pair_counts - what became of starts and ends
 * @replaced: a start whose key was already in flight: the older one goes
 * @evicted: a start that found its slots taken: the oldest of them goes
 * @exited: starts of a task that exited inside its section
 * @unmatched: ends with no start in flight (for their match value)
 * @nested: starts kept out by an older one of the same key ("nest outer")
 */
struct kstats_pair_counts {
	u64 replaced;
	u64 evicted;
	u64 exited;
	u64 unmatched;
	u64 nested;
};

/**
 * struct kstats_pair - the starts in flight of one section
 * @slots: 1 << @bits slots, twice @inflight rounded up to a power of two,
 *	so that a key rarely finds its KSTATS_PAIR_WINDOW slots full; NULL
 *	for a table of CPUs
 * @cpu_slots: for a table of CPUs (KSTATS_PAIR_PER_CPU), instead of
 *	@slots: one slot per CPU, the key's, written by the CPU it names
 *	(a section keyed by the CPU starts and ends on it), so that no
 *	CPU's start shares a line with another's
 * @cur_slots: for a table of tasks (KSTATS_PAIR_CURRENT), beside @slots:
 *	one slot per CPU for the start of the task it runs, the key of
 *	most starts and ends, held and taken with no hash, no scan and in
 *	no line another CPU writes; kstats_pair_switch() moves it into
 *	@slots when its task leaves the CPU.  The key is kept unsalted
 *	(a task's address is never a sentinel).
 * @bits: log2 of the number of slots
 * @windows: where a key's KSTATS_PAIR_WINDOW slots may begin: every slot
 *	but the last KSTATS_PAIR_WINDOW - 1
 * @inflight: the starts it is sized for, as given
 * @salt: mixed into every key, so that no key is a sentinel
 * @outer: a start whose key is in flight leaves the older one in place
 *	("nest outer": a wait that begins again inside itself), instead of
 *	replacing it
 * @refuse: a start that finds its slots taken is refused (a sample lost,
 *	for the caller to count) instead of evicting the oldest, which would
 *	cut exactly the longest sections ("full refuse")
 * @counts: per CPU
 */
struct kstats_pair {
	struct kstats_pair_slot *slots;
	struct kstats_pair_slot __percpu *cpu_slots;
	struct kstats_pair_slot __percpu *cur_slots;
	u32 bits;
	u32 windows;
	u32 inflight;
	u64 salt;
	bool outer;
	bool refuse;
	struct kstats_pair_counts __percpu *counts;
};

int kstats_pair_init(struct kstats_pair *p, u32 inflight, unsigned int flags);
void kstats_pair_free(struct kstats_pair *p);
bool kstats_pair_start(struct kstats_pair *p, u64 key, u64 match, u64 ts,
		       u32 cpu, u32 aux);
bool kstats_pair_end(struct kstats_pair *p, u64 key, u64 match, u64 *ts,
		     u32 *cpu, u32 *aux);
void kstats_pair_forget(struct kstats_pair *p, u64 key);
bool kstats_pair_switch(struct kstats_pair *p);
u64 kstats_pair_pending(const struct kstats_pair *p);
void kstats_pair_counts(const struct kstats_pair *p,
			struct kstats_pair_counts *c);
void kstats_pair_reset_counts(struct kstats_pair *p);

/*
 * Fill slot @s, taken (KSTATS_PAIR_BUSY), and give it @tag: the key as
 * the slot keeps it.
 */
static __always_inline notrace void kstats_pair_fill(struct kstats_pair_slot *s,
						     u64 tag, u64 match, u64 ts,
						     u32 cpu, u32 aux)
{
	s->ts = ts;
	s->match = match;
	s->cpu = cpu;
	s->aux = aux;
	/* Pairs with the cmpxchg that takes it: ts and cpu are seen first. */
	smp_store_release(&s->key, tag);
}

/*
 * Take the start of @key from the current task's slot @s of its CPU
 * (KSTATS_PAIR_CURRENT), if it carries @match (any, with @any), and
 * empty the slot; a start of another match value stays.  A cmpxchg of
 * the CPU's own: only its handlers race for the slot.  Return: whether
 * it was taken, with *@ts, *@cpu and *@aux.
 */
static __always_inline notrace bool
kstats_pair_take_slot(struct kstats_pair_slot *s, u64 key, u64 match,
		      bool any, u64 *ts, u32 *cpu, u32 *aux)
{
	bool took = false;

	if (READ_ONCE(s->key) == key &&
	    cmpxchg_local(&s->key, key, KSTATS_PAIR_BUSY) == key) {
		took = any || s->match == match;
		if (took) {
			*ts = s->ts;
			*cpu = s->cpu;
			*aux = s->aux;
		}
		/* what it read, before the slot can be taken again */
		smp_store_release(&s->key, took ? KSTATS_PAIR_EMPTY : key);
	}
	return took;
}

/**
 * kstats_pair_start_current() - kstats_pair_start() for the current task
 * @p: a table of tasks (KSTATS_PAIR_CURRENT)
 * @ts: the time of the start
 * @cpu: the CPU of the start
 *
 * Inline for the probes of a section keyed by the task: the start goes
 * into the CPU's slot of the current task when it is free, else through
 * kstats_pair_start() (a start that replaces one, or that a handler it
 * interrupted is writing).  No match value, no aux.
 *
 * Context: preemption disabled (a tracepoint's or a kprobe's handler),
 * NMI included.
 * Return: as kstats_pair_start().
 */
static __always_inline notrace bool
kstats_pair_start_current(struct kstats_pair *p, u64 ts, u32 cpu)
{
	struct kstats_pair_slot *s = this_cpu_ptr(p->cur_slots);
	u64 key = (unsigned long)current;

	/* a cmpxchg of this CPU's: only its own handlers race for the slot */
	if (likely(READ_ONCE(s->key) == KSTATS_PAIR_EMPTY &&
		   cmpxchg_local(&s->key, KSTATS_PAIR_EMPTY,
				 KSTATS_PAIR_BUSY) == KSTATS_PAIR_EMPTY)) {
		kstats_pair_fill(s, key, 0, ts, cpu, 0);
		return true;
	}
	return kstats_pair_start(p, key, 0, ts, cpu, 0);
}

/**
 * kstats_pair_take_current() - the start of the current task, if in its
 *	CPU's slot (kstats_pair_start_current())
 * @p: a table of tasks (KSTATS_PAIR_CURRENT)
 * @ts: where to store the time of the start
 * @cpu: where to store its CPU
 *
 * Takes only a start with no match value.  When it returns false, the
 * caller looks further with kstats_pair_end(), which counts an end that
 * has no start; this counts nothing.
 *
 * Context: preemption disabled, NMI included.
 * Return: true with *@ts and *@cpu set, or false.
 */
static __always_inline notrace bool
kstats_pair_take_current(struct kstats_pair *p, u64 *ts, u32 *cpu)
{
	u32 aux;

	return kstats_pair_take_slot(this_cpu_ptr(p->cur_slots),
				     (unsigned long)current, 0, false, ts, cpu,
				     &aux);
}

#endif /* _KSTATS_PAIR_H */
