/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The starts of keyed sections in flight: a bounded table from a key (a
 * task, a CPU, a request, ...) to the time its start was seen, usable from
 * any context, NMI included (kstats_pair.c).
 */
#ifndef _KSTATS_PAIR_H
#define _KSTATS_PAIR_H

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/kernel.h>
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
/*
 * A current task's slot (KSTATS_PAIR_CURRENT) empty since its CPU switched
 * tasks: the start of the task now running, if any, is in the table.  The
 * slot's @match holds the task switched out (struct kstats_pair_slot),
 * which may still run a handler before the switch itself.
 */
#define KSTATS_PAIR_SWITCHED	2ULL

/**
 * struct kstats_pair_slot - one start in flight
 * @key: the key, mixed with the table's salt; KSTATS_PAIR_EMPTY, or
 *	KSTATS_PAIR_BUSY while a handler writes or takes the slot
 * @ts: when the start was seen, in the section's clock
 * @match: what its end must also carry ("match V", e.g. a lock), or 0;
 *	in a current task's slot marked KSTATS_PAIR_SWITCHED, the task
 *	switched out
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
 *	@slots when its task leaves the CPU, and leaves the slot
 *	KSTATS_PAIR_SWITCHED, so that the next task's first start replaces
 *	its own older start there.  The key is kept unsalted (a task's
 *	address is never a sentinel).
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

/*
 * The table's walks, inline here for the probes of
 * kstats_section_handlers.c and kstats_tracepoint.c, whose lean starts
 * and ends of a table with no slot for the current task take them with
 * no call (kstats_pair_start_table(), kstats_pair_end_table()), as well
 * as for kstats_pair.c's exported functions.
 */
static __always_inline notrace u64 kstats_pair_tag(const struct kstats_pair *p,
						   u64 key)
{
	return key ^ p->salt;
}

/*
 * A key's KSTATS_PAIR_WINDOW slots, in a row from the place its hash
 * scales to (@p->windows of them): walked with one pointer, the table
 * read once (kstats_pair_window()), not again after each cmpxchg, whose
 * barrier reloads what is read through @p.  In a table of CPUs, the key's
 * one slot (@n 1), or none (@n 0) for a key that is no CPU: the same
 * walks, given a window of one (kstats_pair_cpu_window()).
 */
struct kstats_pair_window {
	struct kstats_pair_slot *first;
	unsigned int n;
};

static __always_inline notrace void
kstats_pair_window(const struct kstats_pair *p, u64 key,
		   struct kstats_pair_window *w)
{
	w->n = KSTATS_PAIR_WINDOW;
	w->first = p->slots + reciprocal_scale(hash_64(key, 32), p->windows);
}

static __always_inline notrace void
kstats_pair_cpu_window(const struct kstats_pair *p, u64 key,
		       struct kstats_pair_window *w)
{
	w->n = key < nr_cpu_ids && cpu_possible(key);
	w->first = w->n ? per_cpu_ptr(p->cpu_slots, key) : NULL;
}

/* Take slot @s from @old; then fill it and give it @tag (kstats_pair_fill()). */
static __always_inline notrace bool kstats_pair_take(struct kstats_pair_slot *s,
						     u64 old)
{
	return cmpxchg(&s->key, old, KSTATS_PAIR_BUSY) == old;
}

/*
 * Whether @tag is in window @w: a start reads the whole window (its key
 * is rarely in flight), so the compares are unrolled, a compare with
 * memory and a branch each, every branch to one place: the rare start
 * that finds it looks for its slot again (kstats_pair_start_in()), so
 * that no slot's address is kept on the way (it was an instruction a
 * slot).  The keys are read as plain loads (no READ_ONCE(), whose
 * volatile load would take an instruction more each), an aligned word
 * each, read whole on either architecture: a key that changes meanwhile
 * is the race of a start and an end on one key that kstats_pair.c
 * describes, and the cmpxchg that takes a slot checks its key again.
 */
static __always_inline notrace bool
kstats_pair_holds(const struct kstats_pair_window *w, u64 tag)
{
	unsigned int i;

#pragma GCC unroll 8
	for (i = 0; i < w->n; i++)
		/* racy by design: the cmpxchg that takes the slot checks */
		if (data_race(w->first[i].key) == tag)
			return true;
	return false;
}

/*
 * A start in window @w, for the key mixed into @tag, which is not in
 * flight there, when no slot of the window is empty: the window's oldest
 * start is evicted (or the start refused).
 */
static __always_inline notrace bool
kstats_pair_evict(struct kstats_pair *p, const struct kstats_pair_window w,
		  u64 tag, u64 match, u64 ts, u32 cpu, u32 aux)
{
	struct kstats_pair_slot *s, *oldest = NULL;
	u64 cur, oldest_ts = U64_MAX;
	unsigned int i;

	for (i = 0, s = w.first; i < w.n; i++, s++) {
		cur = READ_ONCE(s->key);
		if (cur > KSTATS_PAIR_BUSY && READ_ONCE(s->ts) <= oldest_ts) {
			oldest_ts = READ_ONCE(s->ts);
			oldest = s;
		}
	}
	if (p->refuse)
		return false;
	this_cpu_inc(p->counts->evicted);
	if (!oldest)
		return true;	/* every slot busy this instant: this start goes */
	cur = READ_ONCE(oldest->key);
	if (cur > KSTATS_PAIR_BUSY && kstats_pair_take(oldest, cur))
		kstats_pair_fill(oldest, tag, match, ts, cpu, aux);
	return true;
}

/*
 * The same, in the window's first empty slot, else kstats_pair_evict():
 * apart, so that the walk a start takes keeps nothing for an eviction.
 */
static __always_inline notrace bool
kstats_pair_insert(struct kstats_pair *p, const struct kstats_pair_window w,
		   u64 tag, u64 match, u64 ts, u32 cpu, u32 aux)
{
	struct kstats_pair_slot *s;
	unsigned int i;

	for (i = 0, s = w.first; i < w.n; i++, s++) {
		if (READ_ONCE(s->key) == KSTATS_PAIR_EMPTY &&
		    kstats_pair_take(s, KSTATS_PAIR_EMPTY)) {
			kstats_pair_fill(s, tag, match, ts, cpu, aux);
			return true;
		}
	}
	return kstats_pair_evict(p, w, tag, match, ts, cpu, aux);
}

/*
 * kstats_pair_start() in window @w, for the key mixed into @tag: the
 * key's own slot if it is in flight (and not taken this instant), else an
 * insertion.  Where kstats_pair_holds() finds it, the slot is found
 * again, by a walk of its own.
 */
static __always_inline notrace bool
kstats_pair_start_in(struct kstats_pair *p, const struct kstats_pair_window w,
		     u64 tag, u64 match, u64 ts, u32 cpu, u32 aux)
{
	struct kstats_pair_slot *s;
	unsigned int i;

	if (unlikely(kstats_pair_holds(&w, tag))) {
		for (i = 0, s = w.first; i < w.n; i++, s++) {
			/* racy as kstats_pair_holds(): the cmpxchg checks */
			if (data_race(s->key) != tag)
				continue;
			if (p->outer) {
				this_cpu_inc(p->counts->nested);
				return true;
			}
			if (kstats_pair_take(s, tag)) {
				this_cpu_inc(p->counts->replaced);
				kstats_pair_fill(s, tag, match, ts, cpu, aux);
				return true;
			}
			break;
		}
	}
	return kstats_pair_insert(p, w, tag, match, ts, cpu, aux);
}

/*
 * kstats_pair_start() in the table, for @key: its window, or its CPU's
 * slot in a table of CPUs (@cpus, @p->cpu_slots, a constant for a caller
 * that knows which: kstats_pair_start_hashed()).
 */
static __always_inline notrace bool
kstats_pair_start_by(struct kstats_pair *p, u64 key, u64 match, u64 ts,
		     u32 cpu, u32 aux, bool cpus)
{
	u64 tag = kstats_pair_tag(p, key);
	struct kstats_pair_window w;

	if (unlikely(tag <= KSTATS_PAIR_BUSY)) {
		/* One key in 2^63 mixes into a sentinel: not held. */
		this_cpu_inc(p->counts->evicted);
		return true;
	}
	/* each walk inlined with its own window: the table's is a constant */
	if (cpus) {
		kstats_pair_cpu_window(p, key, &w);
		return kstats_pair_start_in(p, w, tag, match, ts, cpu, aux);
	}
	kstats_pair_window(p, key, &w);
	return kstats_pair_start_in(p, w, tag, match, ts, cpu, aux);
}

static __always_inline notrace bool
kstats_pair_start_table(struct kstats_pair *p, u64 key, u64 match, u64 ts,
			u32 cpu, u32 aux)
{
	return kstats_pair_start_by(p, key, match, ts, cpu, aux, p->cpu_slots);
}

/*
 * The same in a table that is no table of CPUs, nor has a slot for the
 * current task: one whose keys are not all the CPU, nor all the task (a
 * point keyed by an argument is in such a table alone).
 */
static __always_inline notrace bool
kstats_pair_start_hashed(struct kstats_pair *p, u64 key, u64 match, u64 ts,
			 u32 cpu, u32 aux)
{
	return kstats_pair_start_by(p, key, match, ts, cpu, aux, false);
}

/* kstats_pair_take_key() in window @w. */
static __always_inline notrace bool
kstats_pair_take_in(const struct kstats_pair_window w, u64 tag,
		    const u64 *match, u64 *ts, u32 *cpu, u32 *aux)
{
	struct kstats_pair_slot *s;
	unsigned int i;

	for (i = 0, s = w.first; i < w.n; i++, s++) {
		if (READ_ONCE(s->key) == tag && kstats_pair_take(s, tag)) {
			if (match && s->match != *match) {
				/* another lock's wait: it stays */
				smp_store_release(&s->key, tag);
				return false;
			}
			*ts = s->ts;
			*cpu = s->cpu;
			*aux = s->aux;
			/* ts, cpu and aux read before the slot can be taken again. */
			smp_store_release(&s->key, KSTATS_PAIR_EMPTY);
			return true;
		}
	}
	return false;
}

/*
 * Take @key's start out of the table, if it carries *@match (any, for
 * NULL), its window or, in a table of CPUs (@cpus), its CPU's slot.
 * Return: whether it was there.
 */
static __always_inline notrace bool
kstats_pair_take_by(struct kstats_pair *p, u64 key, const u64 *match,
		    u64 *ts, u32 *cpu, u32 *aux, bool cpus)
{
	u64 tag = kstats_pair_tag(p, key);
	struct kstats_pair_window w;

	if (unlikely(tag <= KSTATS_PAIR_BUSY))
		return false;
	if (cpus) {
		kstats_pair_cpu_window(p, key, &w);
		return kstats_pair_take_in(w, tag, match, ts, cpu, aux);
	}
	kstats_pair_window(p, key, &w);
	return kstats_pair_take_in(w, tag, match, ts, cpu, aux);
}

static __always_inline notrace bool kstats_pair_take_key(struct kstats_pair *p,
							 u64 key,
							 const u64 *match,
							 u64 *ts, u32 *cpu,
							 u32 *aux)
{
	return kstats_pair_take_by(p, key, match, ts, cpu, aux, p->cpu_slots);
}

/*
 * kstats_pair_end() in the table: its window, or its CPU's slot in a
 * table of CPUs (@cpus, as kstats_pair_start_by()).
 */
static __always_inline notrace bool
kstats_pair_end_by(struct kstats_pair *p, u64 key, u64 match, u64 *ts,
		   u32 *cpu, u32 *aux, bool cpus)
{
	if (kstats_pair_take_by(p, key, &match, ts, cpu, aux, cpus))
		return true;
	this_cpu_inc(p->counts->unmatched);
	return false;
}

static __always_inline notrace bool
kstats_pair_end_table(struct kstats_pair *p, u64 key, u64 match, u64 *ts,
		      u32 *cpu, u32 *aux)
{
	return kstats_pair_end_by(p, key, match, ts, cpu, aux, p->cpu_slots);
}

/* The same in a table of neither CPUs nor tasks (kstats_pair_start_hashed()). */
static __always_inline notrace bool
kstats_pair_end_hashed(struct kstats_pair *p, u64 key, u64 match, u64 *ts,
		       u32 *cpu, u32 *aux)
{
	return kstats_pair_end_by(p, key, match, ts, cpu, aux, false);
}

/*
 * The current task's end looked for its start in the table (its CPU's
 * slot had none): the table holds no start of the task now, so a slot
 * still marked KSTATS_PAIR_SWITCHED is empty again, and the task's next
 * start takes it with no walk; unless the task is the one switched out,
 * whose handler runs between the scheduler's sched_switch and the switch
 * itself: the mark stays for the task that comes.  A start an NMI put
 * there meanwhile stays.
 */
static __always_inline notrace void
kstats_pair_clear_switched(struct kstats_pair *p)
{
	struct kstats_pair_slot *s = this_cpu_ptr(p->cur_slots);

	if (READ_ONCE(s->key) == KSTATS_PAIR_SWITCHED &&
	    READ_ONCE(s->match) != (unsigned long)current)
		cmpxchg_local(&s->key, KSTATS_PAIR_SWITCHED, KSTATS_PAIR_EMPTY);
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
