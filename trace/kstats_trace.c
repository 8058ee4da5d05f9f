// SPDX-License-Identifier: GPL-2.0
/*
 * Distributions fed by probes, made from _control with "trace":
 *
 *  - the duration of a function, entry to return on the same task, through
 *    one of the mechanisms of kstats_fn.h, tried best first: kstats' own
 *    direct trampoline (kstats_direct.c), fprobe (kstats_fprobe.c), a
 *    kretprobe (kstats_kretprobe.c), or for a value taken at the entry
 *    alone a kprobe (kstats_kprobe.c); the start time travels with the
 *    call, so recursion, nesting and sleeping pair correctly;
 *  - a section between two probe points (sym[+off] kprobes or tracepoints),
 *    whose start and end are paired by a key (the task by default, the CPU,
 *    or a value of each point) through the table of starts in flight of
 *    kstats_pair.c: an end with no start is counted as missed;
 *  - the inter-arrival time of one tracepoint on each CPU;
 *  - instead of a time, a value (an argument, the return value, memory
 *    behind them: struct kstats_value), and for any node filters on the
 *    task, the CPU and values (struct kstats_filter): such nodes take the
 *    "rich" handlers, which check them, while the others keep the fast
 *    ones; a value that needs no return value is taken at the entry alone;
 *  - optionally ("gap") the time from one return to the next entry on the
 *    same CPU, in a sibling distribution NAME.gap.
 *
 * Every node calibrates its probe: the same handlers, on an empty function
 * of kstats' own, give the floor that the mechanism adds to any sample.
 * Handlers are notrace and NOKPROBE, and record with the inline
 * kstats_record(), so tracing can never recurse into kstats; kstats' own
 * functions and the clock functions its handlers call are refused.
 *
 * Lifetime: the probes are registered before the node is published and
 * unregistered, and waited for, when it is removed (kstats_trace_retire(),
 * in process context); the last kstats_put() then only frees memory.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#ifdef KSTATS_HAVE_ARGS_H
#include <linux/args.h>
#endif
#include <linux/err.h>
#include <linux/fprobe.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <trace/events/irq.h>
#include <trace/events/lock.h>
#include <trace/events/sched.h>
#ifdef CONFIG_BLOCK
#include <trace/events/block.h>
#endif
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
#include <trace/events/syscalls.h>
#endif

#include "kstats_btf.h"
#include "kstats_cmd.h"
#include "kstats_counter.h"
#include "kstats_direct.h"
#include "kstats_family.h"
#include "kstats_family_view.h"
#include "kstats_fn.h"
#include "kstats_multi.h"
#include "kstats_internal.h"
#include "kstats_pair.h"
#include "kstats_outlier.h"
#include "kstats_point.h"
#include "kstats_syms.h"
#include "kstats_trace.h"
#include "kstats_uprobe.h"

/* Calls of the empty function that measure a node's probe floor. */
#define KSTATS_CALIBRATE_CALLS	1000
/*
 * A probe point or function as written: as long as a whole command, so
 * that none can be cut short.
 */
#define KSTATS_SPEC_MAX		KSTATS_CMD_MAX

static const char * const kstats_mech_names[] = {
	[KSTATS_MECH_DIRECT] = "direct",
	[KSTATS_MECH_FPROBE] = "fprobe",
	[KSTATS_MECH_KRETPROBE] = "kretprobe",
	[KSTATS_MECH_KPROBE] = "kprobe",
	[KSTATS_MECH_SECTION] = "section",
	[KSTATS_MECH_ARRIVAL] = "tracepoint",
	[KSTATS_MECH_UPROBE] = "uprobe",
};

/*
 * The last arrival of a tracepoint on a CPU: its time and what it kept
 * beside it (kstats_trace_now()).
 */
struct kstats_mark {
	struct task_struct *task;
	u64 ts;
	u32 kept;
};

struct kstats_trace;

/* What a point is for, which its tracepoint probe does. */
enum kstats_tp_role {
	KSTATS_TP_START,	/* a section's start (any of them) */
	KSTATS_TP_END,		/* a section's end */
	KSTATS_TP_ARRIVAL,	/* a tracepoint node's event */
	KSTATS_TP_EXIT,		/* a task exits or is freed */
	KSTATS_TP_SWITCH,	/* a task leaves its CPU (KSTATS_PAIR_CURRENT) */
};

/*
 * A condition of a checked point (kstats_section_point()), as its probe
 * tests it: argument @arg as it is, or @size bytes read at @off (@deref),
 * in the range @r (kstats_cond_range()), which takes the sign.
 */
struct kstats_tp_check {
	struct kstats_range r;
	s32 off;
	u8 size;
	u8 arg;
	bool deref;
};

/*
 * One point of a node: a section's start or end, the tracepoint of
 * inter-arrivals, or of exiting tasks; a kprobe or a tracepoint, whose
 * handlers find their node through @t.  A tracepoint's trace event file
 * is held (@file), which pins the module that owns it.  Points of one
 * section at one event of kstats_tp_events.h share the probe of the
 * first (@head), which calls each in turn (@next): kstats_section_chain();
 * those keyed by an argument in a table alone (@one_clock) share its one
 * reading of the clock (kstats_tp_chain()); a first point whose chain
 * has only such points (@all_one_clock) takes kstats_tp_chain_inline().
 */
struct kstats_point {
	struct kstats_trace *t;
	char spec[KSTATS_SPEC_MAX + 1];
	struct kprobe kp;
	struct tracepoint *tp;
	struct trace_event_file *file;
	void *tp_fn;
	bool registered;
	struct kstats_point_opts opts;
	bool rich;
	bool typed;
	bool keyed;
	bool checked;
	bool one_clock;
	bool all_one_clock;
	u8 key_arg;
	u8 nr_checks;
	struct kstats_tp_check check[KSTATS_MAX_CONDS];
	u8 role;
	struct kstats_point *next;
	struct kstats_point *head;
};

/**
 * struct kstats_trace - the probes that feed a distribution
 * @fn: the distribution (@fn.ks), the function a function node times,
 *	and the value, filters and family of any node (the mechanisms see
 *	this alone)
 * @mech: which probes
 * @ops: the mechanism that times a function, or NULL for other nodes
 * @start: start point of a section, or the tracepoint of inter-arrivals
 * @end: end point of a section
 * @more: a section's further start points, @nr_more of them
 * @nr_more: how many
 * @exit: the tracepoint of exiting tasks, whose starts a section drops
 * @free: the tracepoint of freed tasks, whose starts a section drops
 *	too: a dead task's last switch out comes after its exit, and its
 *	task_struct's address may then key another task
 * @sw: for a section keyed by the task at every point, sched_switch,
 *	where the start of the task switched out leaves its CPU's slot for
 *	the table (kstats_pair_switch())
 * @pair: a section's starts in flight
 * @over: a section records durations of @over or more ("over V")
 * @under: and of @under or less ("under V"; U64_MAX without)
 * @nr_short: durations under @over, not recorded
 * @nr_long: durations over @under, not recorded
 * @counter: a section or tracepoint whose clock ktime is read as the
 *	counter at both points (or arrivals), the difference scaled by the
 *	timekeeper's rate (kstats_counter.h): a start keeps the timekeeper's
 *	epoch and shift where the CPU would be
 * @counter_said: the kernel log said the counter stopped being ktime's
 * @marks: per CPU, the last arrival of a tracepoint
 * @target: the function
 * @floor_p50: median of the calibration, in the clock's unit
 * @missed_base: the probes' misses at the last reset, which the node's
 *	missed leaves out
 * @floor_unmeasured: the calibration could not attach (no direct slot
 *	free): @floor_p50 is 0 for want of a measure
 * @maxactive: calls in flight the probe keeps, 0 for its default
 * @registered: the function's probe is registered
 * @fb: of a node over several functions, those the direct slot could not
 *	take, each timed by a mechanism of its own; @nr_fb of them
 * @nr_fb: how many
 * @why: while the node is made from a command, where a refusal is noted
 *	(kstats_refuse()); NULL once made, and for the calibration's node
 */
struct kstats_trace {
	struct kstats_fn fn;
	enum kstats_mech mech;
	const struct kstats_mech_ops *ops;
	struct kstats_point start;
	struct kstats_point end;
	struct kstats_point more[KSTATS_SECTION_STARTS - 1];
	unsigned int nr_more;
	struct kstats_point exit;
	struct kstats_point free;
	struct kstats_point sw;
	struct kstats_pair pair;
	u64 over;
	u64 under;
	atomic64_t nr_short;
	atomic64_t nr_long;
	bool counter;
	bool counter_said;
	struct kstats_mark __percpu *marks;
	char target[KSTATS_SPEC_MAX + 1];
	u64 floor_p50;
	u64 missed_base;
	bool floor_unmeasured;
	unsigned int maxactive;
	bool registered;
	struct kstats_fallback *fb;
	unsigned int nr_fb;
	struct kstats_refusal *why;
};

/**
 * struct kstats_fallback - a function of a node over several, timed apart
 * @fn: the node's own, for that function alone
 * @ops: the mechanism that times it
 */
struct kstats_fallback {
	struct kstats_fn fn;
	const struct kstats_mech_ops *ops;
};

/**
 * kstats_calibrate_target() - the empty function whose traced cost is the
 * floor of a mechanism
 *
 * Context: any; called by the calibration only.
 */
noinline void kstats_calibrate_target(void)
{
	barrier();
}

/*
 * Whether point @p of a section counts this event, its key and its match
 * value (0 without "match"); an unreadable value is counted as missed.
 */
static __always_inline notrace bool kstats_point_key(struct kstats_trace *t,
						     const struct kstats_point *p,
						     const struct kstats_args *a,
						     u64 *key, u64 *match)
{
	if (p->rich) {
		switch (kstats_filter_check(&p->opts.filter, a,
					    KSTATS_AT_POINT)) {
		case KSTATS_COUNT:
			break;
		case KSTATS_UNREADABLE:
			kstats_record_missed(t->fn.ks);
			return false;
		default:
			return false;
		}
	}
	*match = 0;
	if (kstats_key_fetch(&p->opts.key, a, key) &&
	    (!p->opts.has_match || kstats_value_fetch(&p->opts.match, a, match)))
		return true;
	kstats_record_missed(t->fn.ks);
	return false;
}

/*
 * A section's or tracepoint's clock at a point, and what a start (or the
 * last arrival) keeps beside it: the counter and the timekeeper's epoch
 * and shift (@t->counter), or the node's clock and the CPU.
 */
static __always_inline notrace u64 kstats_trace_now(const struct kstats_trace *t,
						    u32 *cpu)
{
#ifdef KSTATS_HAVE_COUNTER
	if (t->counter) {
		*cpu = READ_ONCE(kstats_counter_tk) >> 32;
		return kstats_counter_read();
	}
#endif
	*cpu = raw_smp_processor_id();
	return kstats_now(t->fn.ks);
}

/*
 * The time from a start at @ts, which kept @cpu (kstats_trace_now()),
 * to @now, in the node's clock.  Return: false for a time that went
 * backwards, a local_clock() pair that crossed CPUs (their readings do
 * not compare) and a counter pair across a change of the timekeeper's
 * epoch.
 */
static __always_inline notrace bool kstats_trace_delta(const struct kstats_trace *t,
						       u64 now, u64 ts, u32 cpu,
						       u64 *delta)
{
	if ((s64)(now - ts) < 0)
		return false;
#ifdef KSTATS_HAVE_COUNTER
	if (t->counter) {
		u64 tk = READ_ONCE(kstats_counter_tk);

		if ((u32)(tk >> 32) != cpu)
			return false;
		*delta = kstats_counter_scale(now - ts, tk);
		return true;
	}
#endif
	if (t->fn.ks->clock == KSTATS_CLOCK_LOCAL && cpu != raw_smp_processor_id())
		return false;
	*delta = now - ts;
	return true;
}

/*
 * A start of a section (any of them): a further start reads its own
 * family key, the first the node's.  The clock is read last, as an end
 * reads it first: a start its filter refuses reads none, and neither
 * point's own work is in the section's time.
 */
static notrace void kstats_section_start(struct kstats_point *p,
					 const struct kstats_args *a)
{
	struct kstats_trace *t = p->t;
	u64 key, match, now;
	u32 fam = 0, cpu;

	if (!kstats_point_key(t, p, a, &key, &match))
		return;
	/* A family's key is the start's, carried to the end. */
	if (t->fn.ks->family)
		fam = kstats_family_key_by(t->fn.ks, p->opts.by.kind ?
					   &p->opts.by : &t->fn.by, a);
	now = kstats_trace_now(t, &cpu);
	if (!kstats_pair_start(&t->pair, key, match, now, cpu, fam))
		kstats_record_missed(t->fn.ks);	/* full, and refusing */
}

NOKPROBE_SYMBOL(kstats_section_start);

/*
 * A sample of a node of no family: in a distribution of the default shape
 * (kstats_default_shape()), recorded with neither frac_bits to read nor
 * the clamp to take; else by kstats_record().
 */
static __always_inline notrace void kstats_trace_record(struct kstats *ks,
							u64 v)
{
	if (likely(kstats_default_shape(ks)))
		__KSTATS_RECORD_IN_RANGE(ks, v, KSTATS_DEFAULT_FRAC_BITS);
	else
		kstats_record(ks, v);
}

/*
 * A section's sample, from its start at @ts on @cpu to @now, in the key
 * @fam of its family if it has one (@family): the time
 * (kstats_trace_delta()), or a missed sample.
 */
static __always_inline notrace void
kstats_section_done(struct kstats_trace *t, u64 now, u64 ts, u32 cpu,
		    u32 fam, bool family)
{
	struct kstats *ks = t->fn.ks;
	u64 v;

	if (!kstats_trace_delta(t, now, ts, cpu, &v)) {
		kstats_record_missed(ks);
		return;
	}
	/* Out of "over V under V": not lost, but left out, and counted. */
	if (unlikely(v < t->over)) {
		atomic64_inc(&t->nr_short);
		return;
	}
	if (unlikely(v > t->under)) {
		atomic64_inc(&t->nr_long);
		return;
	}
	kstats_outlier_check(t->fn.outliers, v, fam, family, NULL);
	if (family)
		kstats_family_record(ks, fam, v);
	else
		kstats_trace_record(ks, v);
}

/*
 * The end of a section: the time since its start (kstats_section_done());
 * an end with no start in flight is no sample lost: the table counts it
 * as unmatched.
 */
static notrace void kstats_section_end(struct kstats_point *p,
				       const struct kstats_args *a)
{
	struct kstats_trace *t = p->t;
	u64 key, match, ts, now;
	u32 cpu, fam, here;

	now = kstats_trace_now(t, &here);
	if (!kstats_point_key(t, p, a, &key, &match))
		return;
	if (kstats_pair_end(&t->pair, key, match, &ts, &cpu, &fam))
		kstats_section_done(t, now, ts, cpu, fam, t->fn.ks->family);
}

NOKPROBE_SYMBOL(kstats_section_end);

/*
 * The time since the last arrival on this CPU; @fam, a family's key.  The
 * first has none; nor has one the clock did not see advance.
 */
static notrace void kstats_arrival(struct kstats_trace *t, u32 fam)
{
	struct kstats_mark *m = this_cpu_ptr(t->marks);
	u64 last = m->ts, now, v;
	u32 kept = m->kept, here;

	now = kstats_trace_now(t, &here);
	m->ts = now;
	m->kept = here;
	if (!last || !kstats_trace_delta(t, now, last, kept, &v) || !v)
		return;
	if (t->fn.ks->family)
		kstats_family_record(t->fn.ks, fam, v);
	else
		kstats_trace_record(t->fn.ks, v);
	kstats_outlier_check(t->fn.outliers, v, fam, t->fn.ks->family, NULL);
}

NOKPROBE_SYMBOL(kstats_arrival);

/*
 * Whether a point of @t, which has filters, counts this event; an
 * unreadable value is counted as missed.
 */
static __always_inline notrace bool kstats_point_counts(struct kstats_trace *t,
							const struct kstats_args *a)
{
	switch (kstats_filter_check(&t->fn.filter, a, KSTATS_AT_POINT)) {
	case KSTATS_COUNT:
		return true;
	case KSTATS_UNREADABLE:
		kstats_record_missed(t->fn.ks);
		return false;
	default:
		return false;
	}
}

static notrace int kstats_kprobe_start(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_args a = { .regs = regs };

	kstats_section_start(container_of(kp, struct kstats_point, kp), &a);
	return 0;
}

NOKPROBE_SYMBOL(kstats_kprobe_start);

static notrace int kstats_kprobe_end(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_args a = { .regs = regs };

	kstats_section_end(container_of(kp, struct kstats_point, kp), &a);
	return 0;
}

NOKPROBE_SYMBOL(kstats_kprobe_end);

/*
 * Where a lean point's start is kept, for kstats_section_start_at() and
 * kstats_section_end_at() to reach it: also in the current task's slot
 * (through the exported functions); in the table, or in its CPUs' slots
 * (a key that is the task in a table with no such slot, or the CPU); in
 * the table's windows alone (a key that is an argument: its section is
 * keyed by neither the CPU nor the task at every point).
 */
enum kstats_reach {
	KSTATS_REACH_ANY,
	KSTATS_REACH_TABLE,
	KSTATS_REACH_HASHED,
};

/*
 * A start of a section of no family at a point that reads no argument but
 * its key, @key (the task, the CPU, or an argument as it is: @p->keyed):
 * kstats_section_start() with no filter to check and no family key to
 * carry, so with little to keep in registers; at @now, read on @cpu
 * (kstats_trace_now()).
 */
static __always_inline notrace void
kstats_section_start_at(struct kstats_point *p, u64 key, u64 now, u32 cpu,
			enum kstats_reach reach)
{
	struct kstats_trace *t = p->t;
	bool held;

	/* the table's walk inline, unless the current task has a slot */
	if (reach == KSTATS_REACH_HASHED)
		held = kstats_pair_start_hashed(&t->pair, key, 0, now, cpu, 0);
	else if (unlikely(t->pair.cur_slots))
		held = kstats_pair_start(&t->pair, key, 0, now, cpu, 0);
	else
		held = kstats_pair_start_table(&t->pair, key, 0, now, cpu, 0);
	if (!held)
		kstats_record_missed(t->fn.ks);	/* full, and refusing */
}

/* The same, now: a lone start reads the clock last. */
static __always_inline notrace void
kstats_section_start_now(struct kstats_point *p, u64 key,
			 enum kstats_reach reach)
{
	u32 cpu;
	u64 now = kstats_trace_now(p->t, &cpu);

	kstats_section_start_at(p, key, now, cpu, reach);
}

static noinline notrace void kstats_section_start_plain(struct kstats_point *p,
							u64 key)
{
	kstats_section_start_now(p, key, KSTATS_REACH_TABLE);
}

NOKPROBE_SYMBOL(kstats_section_start_plain);

/* The same for a start keyed by an argument (@p->keyed, @p->checked). */
static noinline notrace void kstats_section_start_arg(struct kstats_point *p,
						      u64 key)
{
	kstats_section_start_now(p, key, KSTATS_REACH_HASHED);
}

NOKPROBE_SYMBOL(kstats_section_start_arg);

/*
 * Its end, at @now: kstats_section_end() likewise, the sample in no key;
 * the start looked for where @reach says (each walk inline but that of
 * the exported function).
 */
static __always_inline notrace void
kstats_section_end_at(struct kstats_point *p, u64 key, u64 now,
		      enum kstats_reach reach)
{
	struct kstats_trace *t = p->t;
	bool found;
	u64 ts;
	u32 cpu, fam;

	if (reach == KSTATS_REACH_ANY)
		found = kstats_pair_end(&t->pair, key, 0, &ts, &cpu, &fam);
	else if (reach == KSTATS_REACH_HASHED)
		found = kstats_pair_end_hashed(&t->pair, key, 0, &ts, &cpu,
					       &fam);
	else
		found = kstats_pair_end_table(&t->pair, key, 0, &ts, &cpu,
					      &fam);
	if (found)
		kstats_section_done(t, now, ts, cpu, 0, false);
}

/*
 * Out of line, so that the lean end's own locals never escape to a call
 * (and need no stack canary).
 */
static noinline notrace void kstats_section_end_any(struct kstats_point *p,
						    u64 key, u64 now)
{
	kstats_section_end_at(p, key, now, KSTATS_REACH_ANY);
}

NOKPROBE_SYMBOL(kstats_section_end_any);

static noinline notrace void kstats_section_end_plain(struct kstats_point *p,
						      u64 key)
{
	u32 here;
	u64 now = kstats_trace_now(p->t, &here);

	if (unlikely(p->t->pair.cur_slots))
		kstats_section_end_any(p, key, now);
	else
		kstats_section_end_at(p, key, now, KSTATS_REACH_TABLE);
}

NOKPROBE_SYMBOL(kstats_section_end_plain);

/* The same for an end keyed by an argument (@p->keyed, @p->checked). */
static noinline notrace void kstats_section_end_arg(struct kstats_point *p,
						    u64 key)
{
	u32 here;
	u64 now = kstats_trace_now(p->t, &here);

	kstats_section_end_at(p, key, now, KSTATS_REACH_HASHED);
}

NOKPROBE_SYMBOL(kstats_section_end_arg);

/*
 * The same, for an end whose start left its CPU's slot for the table (the
 * caller looked in the slot); the slot, if marked since a switch, is
 * empty again (kstats_pair_clear_switched()).
 */
static noinline notrace void kstats_section_end_table(struct kstats_point *p,
						      u64 now)
{
	kstats_section_end_at(p, (unsigned long)current, now,
			      KSTATS_REACH_TABLE);
	kstats_pair_clear_switched(&p->t->pair);
}

NOKPROBE_SYMBOL(kstats_section_end_table);

/*
 * The probes of a section keyed by the task at every point, of no family
 * (a table of KSTATS_PAIR_CURRENT): its start and end at a tracepoint,
 * where they read no argument, and the switch that moves a start into the
 * table.  Registered in place of the event's probe (kstats_tp_lean()),
 * they take none of its arguments; the start and end hold and take the
 * start in the slot of the current task's CPU
 * (kstats_pair_start_current(), kstats_pair_take_current()), and look in
 * the table only for a task that left its CPU in between.
 */
static notrace void kstats_tp_task_start(void *data)
{
	struct kstats_point *p = data;
	struct kstats_trace *t = p->t;
	u64 now;
	u32 cpu;

	now = kstats_trace_now(t, &cpu);
	if (!kstats_pair_start_current(&t->pair, now, cpu))
		kstats_record_missed(t->fn.ks);	/* full, and refusing */
}

NOKPROBE_SYMBOL(kstats_tp_task_start);

static notrace void kstats_tp_task_end(void *data)
{
	struct kstats_point *p = data;
	struct kstats_trace *t = p->t;
	u64 ts, now;
	u32 cpu, here;

	now = kstats_trace_now(t, &here);
	if (kstats_pair_take_current(&t->pair, &ts, &cpu))
		kstats_section_done(t, now, ts, cpu, 0, false);
	else
		kstats_section_end_table(p, now);
}

NOKPROBE_SYMBOL(kstats_tp_task_end);

static noinline notrace void kstats_tp_task_switch(void *data)
{
	struct kstats_point *p = data;

	if (!kstats_pair_switch(&p->t->pair))
		kstats_record_missed(p->t->fn.ks);	/* full, and refusing */
}

NOKPROBE_SYMBOL(kstats_tp_task_switch);

/*
 * Tracepoint probes are called with @data, their point, then the
 * tracepoint's arguments.  The tracepoints of kstats_tp_events.h get
 * probes of their own prototype (KSTATS_TP_TYPED); any other takes the
 * generic probe, which takes as many word-sized arguments as argN may
 * name: those the tracepoint does not have are whatever its caller left
 * in their registers and stack slots, read but never dereferenced unless
 * the value says so (and then through copy_from_kernel_nofault()).  The
 * x86-64 and arm64 calling conventions let that work; C does not promise
 * it, and a kernel with CONFIG_CFI_CLANG traps on it, so there a
 * tracepoint without a typed probe is refused.  Either probe hands the
 * arguments to kstats_tp_args(), which does what the point is for
 * (@p->role); a point that reads none (@p->rich false: no value, key
 * value, match, filter or family key) goes to kstats_tp_plain(), with no
 * copy of them, and a section's point whose key is an argument as it is
 * and that reads nothing else (@p->keyed), or only conditions on the
 * arguments besides (@p->checked), to kstats_tp_keyed() with that
 * argument, after the conditions (kstats_tp_conds_hold()).
 */
/* A point that reads no argument: nothing is copied for it. */
static noinline notrace void kstats_tp_plain(struct kstats_point *p)
{
	bool family = p->t->fn.ks->family;

	switch (p->role) {
	case KSTATS_TP_START:
		if (family)
			kstats_section_start(p, NULL);
		else
			kstats_section_start_plain(p,
						   kstats_key_plain(&p->opts.key));
		break;
	case KSTATS_TP_END:
		if (family)
			kstats_section_end(p, NULL);
		else
			kstats_section_end_plain(p,
						 kstats_key_plain(&p->opts.key));
		break;
	case KSTATS_TP_SWITCH:
		kstats_tp_task_switch(p);
		break;
	default:
		kstats_arrival(p->t, 0);
		break;
	}
}

/* A point that reads @args, the tracepoint's arguments. */
static noinline notrace void kstats_tp_args(struct kstats_point *p,
					    const unsigned long *args)
{
	struct kstats_args a = { .tp = args };
	struct kstats_trace *t = p->t;
	u32 fam = 0;
	u64 v;

	switch (p->role) {
	case KSTATS_TP_START:
		kstats_section_start(p, &a);
		return;
	case KSTATS_TP_END:
		kstats_section_end(p, &a);
		return;
	case KSTATS_TP_EXIT:
		/* A task exits, or is freed: the starts it keys never end. */
		kstats_pair_forget(&t->pair, args[0]);
		return;
	default:
		break;
	}
	/* One tracepoint: its value, or the time since the last on this CPU. */
	if (!kstats_point_counts(t, &a))
		return;
	if (t->fn.ks->family)
		fam = kstats_fn_family_key(&t->fn, &a);
	if (t->fn.value.base == KSTATS_BASE_NONE)
		kstats_arrival(t, fam);
	else if (kstats_value_fetch(&t->fn.value, &a, &v))
		kstats_rich_record(t->fn.ks, t->fn.outliers, NULL,
				   t->fn.ks->family, fam, v);
	else
		kstats_record_missed(t->fn.ks);
}

NOKPROBE_SYMBOL(kstats_tp_plain);
NOKPROBE_SYMBOL(kstats_tp_args);

/*
 * A section's point (of no family) whose key is an argument as it is
 * (@p->keyed, @p->checked): @key, that argument.
 */
static __always_inline notrace void kstats_tp_keyed(struct kstats_point *p,
						    u64 key)
{
	if (p->role == KSTATS_TP_START)
		kstats_section_start_arg(p, key);
	else
		kstats_section_end_arg(p, key);
}

/* Whether the point's probe must hand it the tracepoint's arguments. */
static __always_inline notrace bool kstats_tp_reads(const struct kstats_point *p)
{
	return p->rich;
}

/* Argument @i of the twelve that a typed probe passes on. */
static __always_inline notrace unsigned long
kstats_tp_pick(unsigned int i, unsigned long a0, unsigned long a1,
	       unsigned long a2, unsigned long a3, unsigned long a4,
	       unsigned long a5, unsigned long a6, unsigned long a7,
	       unsigned long a8, unsigned long a9, unsigned long a10,
	       unsigned long a11)
{
	switch (i) {
	case 0: return a0;
	case 1: return a1;
	case 2: return a2;
	case 3: return a3;
	case 4: return a4;
	case 5: return a5;
	case 6: return a6;
	case 7: return a7;
	case 8: return a8;
	case 9: return a9;
	case 10: return a10;
	default: return a11;
	}
}

/*
 * Whether condition @k of point @p holds for @v, the argument it names:
 * that argument as it is, or what it points to (@k->deref).  A
 * dereference that cannot be read is a sample missed.
 */
static __always_inline notrace bool
kstats_tp_check_holds(struct kstats_point *p, const struct kstats_tp_check *k,
		      u64 v)
{
	const struct kstats_width raw = { .size = k->size };

	/* as read: the range takes the sign */
	if (k->deref && !kstats_read_kernel(v + k->off, raw, &v)) {
		kstats_record_missed(p->t->fn.ks);
		return false;
	}
	return kstats_range_holds(&k->r, v);
}

/*
 * Whether the conditions of a point keyed by an argument as it is
 * (@p->keyed, none, or @p->checked) hold, each argument picked from those
 * the probe was given (in registers, in a typed probe, where those the
 * event lacks are constant zeros): no copy of them and no general filter.
 * The point then takes kstats_tp_keyed() with its key, picked the same way.
 */
static __always_inline notrace bool
kstats_tp_conds_hold(struct kstats_point *p, unsigned long a0,
		     unsigned long a1, unsigned long a2, unsigned long a3,
		     unsigned long a4, unsigned long a5, unsigned long a6,
		     unsigned long a7, unsigned long a8, unsigned long a9,
		     unsigned long a10, unsigned long a11)
{
	unsigned int i;

	for (i = 0; i < p->nr_checks; i++)
		if (!kstats_tp_check_holds(p, &p->check[i],
					   kstats_tp_pick(p->check[i].arg, a0,
							  a1, a2, a3, a4, a5,
							  a6, a7, a8, a9, a10,
							  a11)))
			return false;
	return true;
}

static noinline notrace void
kstats_tp_generic(void *data, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3, unsigned long a4,
		  unsigned long a5, unsigned long a6, unsigned long a7,
		  unsigned long a8, unsigned long a9, unsigned long a10,
		  unsigned long a11)
{
	struct kstats_point *p = data;

	if (!kstats_tp_reads(p)) {
		kstats_tp_plain(p);
	} else if (p->keyed || p->checked) {
		if (kstats_tp_conds_hold(p, a0, a1, a2, a3, a4, a5, a6, a7, a8,
					 a9, a10, a11))
			kstats_tp_keyed(p, kstats_tp_pick(p->key_arg, a0, a1,
							  a2, a3, a4, a5, a6,
							  a7, a8, a9, a10,
							  a11));
	} else {
		const unsigned long args[KSTATS_MAX_ARGS] = {
			a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11
		};

		kstats_tp_args(p, args);
	}
}

NOKPROBE_SYMBOL(kstats_tp_generic);

/* A tracepoint that has a probe of its own prototype. */
struct kstats_tp_typed {
	const char *group;
	const char *event;
	void *probe;
};

/*
 * A typed probe's point that reads arguments: one keyed by an argument
 * takes it here, where the event's few arguments are in registers and
 * those it lacks are constant zeros, so the pick folds to a compare or
 * two; any other point goes through the generic probe's body, called
 * (not through a pointer), which copies the twelve for it.
 */
static __always_inline notrace void
kstats_tp_typed_read(struct kstats_point *p, unsigned long a0,
		     unsigned long a1, unsigned long a2, unsigned long a3)
{
	if (p->keyed)
		kstats_tp_keyed(p, kstats_tp_pick(p->key_arg, a0, a1, a2, a3,
						  0, 0, 0, 0, 0, 0, 0, 0));
	else
		kstats_tp_generic(p, a0, a1, a2, a3, 0, 0, 0, 0, 0, 0, 0, 0);
}

/*
 * The events kstats has typed probes for have KSTATS_TP_TYPED_ARGS
 * arguments at most (checked at build, KSTATS_TP_POINTS()), passed on in
 * registers on either architecture.
 */
#define KSTATS_TP_TYPED_ARGS	4

/*
 * A typed probe's point keyed by an argument, with conditions on the
 * arguments (@p->checked): kstats_tp_conds_hold(), out of line so that
 * the probe keeps its tail calls (and saves no register) for every other
 * point.
 */
static noinline notrace void kstats_tp_conds(struct kstats_point *p,
					     unsigned long a0, unsigned long a1,
					     unsigned long a2, unsigned long a3)
{
	if (kstats_tp_conds_hold(p, a0, a1, a2, a3, 0, 0, 0, 0, 0, 0, 0, 0))
		kstats_tp_keyed(p, kstats_tp_pick(p->key_arg, a0, a1, a2, a3,
						  0, 0, 0, 0, 0, 0, 0, 0));
}

NOKPROBE_SYMBOL(kstats_tp_conds);

/*
 * One point of a typed probe, given the event's arguments (zeros for
 * those it lacks): its dispatch, each branch a tail call.
 */
static __always_inline notrace void
kstats_tp_point(struct kstats_point *p, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3)
{
	if (!kstats_tp_reads(p))
		kstats_tp_plain(p);
	else if (p->checked)
		kstats_tp_conds(p, a0, a1, a2, a3);
	else
		kstats_tp_typed_read(p, a0, a1, a2, a3);
}

/*
 * One point of a chain taken inline (@p->one_clock), at @now on @cpu: its
 * conditions, then its start or end.  It picks its key and its
 * conditions' arguments from @args by index (every index is below
 * KSTATS_TP_TYPED_ARGS for such a point), where a pick from registers is
 * a switch.
 */
static __always_inline notrace void
kstats_tp_chain_one(struct kstats_point *p, const unsigned long *args,
		    u64 now, u32 cpu)
{
	unsigned int i;

	for (i = 0; i < p->nr_checks; i++)
		if (!kstats_tp_check_holds(p, &p->check[i],
					   args[p->check[i].arg]))
			return;
	if (p->role == KSTATS_TP_START)
		kstats_section_start_at(p, args[p->key_arg], now, cpu,
					KSTATS_REACH_HASHED);
	else
		kstats_section_end_at(p, args[p->key_arg], now,
				      KSTATS_REACH_HASHED);
}

/*
 * The points that share a typed probe (@p->next), in turn.  Those keyed
 * by an argument in a table alone (@p->one_clock: runqlat's at
 * sched_switch) are taken here, inline, at one reading of the clock, made
 * first when the first point is one of them (kstats_section_chain()): an
 * end's, first (the section's time has none of its work), is then a
 * start's after it too, whose time thus has the end's work and its own
 * conditions in it (a lone start reads the clock after its conditions).
 * @args is only ever read within its bounds, so it needs no stack canary.
 */
static noinline notrace __no_stack_protector void
kstats_tp_chain(struct kstats_point *p, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3)
{
	const unsigned long args[KSTATS_TP_TYPED_ARGS] = { a0, a1, a2, a3 };
	u32 cpu = 0;
	u64 now = 0;

	if (p->one_clock)
		now = kstats_trace_now(p->t, &cpu);
	do {
		if (p->one_clock)
			kstats_tp_chain_one(p, args, now, cpu);
		else
			kstats_tp_point(p, args[0], args[1], args[2], args[3]);
		p = READ_ONCE(p->next);
	} while (p);
}

NOKPROBE_SYMBOL(kstats_tp_chain);

/*
 * The same for a chain of such points alone (@p->all_one_clock): no test
 * of each, and nothing kept for a call to a point's own path; @args, as
 * there, needs no stack canary.
 */
static noinline notrace __no_stack_protector void
kstats_tp_chain_inline(struct kstats_point *p, unsigned long a0,
		       unsigned long a1, unsigned long a2, unsigned long a3)
{
	const unsigned long args[KSTATS_TP_TYPED_ARGS] = { a0, a1, a2, a3 };
	u32 cpu;
	u64 now = kstats_trace_now(p->t, &cpu);

	do {
		kstats_tp_chain_one(p, args, now, cpu);
		p = READ_ONCE(p->next);
	} while (p);
}

NOKPROBE_SYMBOL(kstats_tp_chain_inline);

static __always_inline notrace void
kstats_tp_points(struct kstats_point *p, unsigned long a0, unsigned long a1,
		 unsigned long a2, unsigned long a3)
{
	if (likely(!READ_ONCE(p->next)))
		kstats_tp_point(p, a0, a1, a2, a3);
	else if (p->all_one_clock)
		kstats_tp_chain_inline(p, a0, a1, a2, a3);
	else
		kstats_tp_chain(p, a0, a1, a2, a3);
}

/*
 * kstats_tp_points(@p, the event's arguments, then zeros), and a build
 * error for an event of more than KSTATS_TP_TYPED_ARGS.
 */
#define KSTATS_TP_POINTS4(p, a0, a1, a2, a3, ...)			\
	kstats_tp_points(p, (a0) + BUILD_BUG_ON_ZERO(COUNT_ARGS(__VA_ARGS__) > \
						     KSTATS_TP_TYPED_ARGS), \
			 a1, a2, a3)
#define KSTATS_TP_POINTS(p, ...)					\
	KSTATS_TP_POINTS4(p, __VA_ARGS__, 0, 0, 0, 0)

/*
 * The probe of one event of kstats_tp_events.h, of its own prototype,
 * checked against the kernel's: kstats_tp_points() with the arguments
 * the event has, widened by their C types.  A point that reads no
 * argument goes straight to kstats_tp_plain(); one keyed by an argument
 * with conditions on the arguments, to kstats_tp_conds(); any other, to
 * kstats_tp_typed_read().  None copies the arguments in the probe (nor
 * needs the stack's canary a copy brings).
 */
#define KSTATS_TP_TYPED(ev, grp, proto, args)				\
static notrace void kstats_tp_##ev(void *data, proto)			\
{									\
	KSTATS_TP_POINTS(data, args);					\
}									\
static const struct kstats_tp_typed kstats_tp_typed_##ev = {		\
	.group = #grp,							\
	.event = #ev,							\
	.probe = kstats_tp_##ev,					\
};									\
static void __maybe_unused kstats_tp_check_##ev(void)			\
{									\
	check_trace_callback_type_##ev(kstats_tp_##ev);			\
}

#define KSTATS_TP_EVENT KSTATS_TP_TYPED
#include "kstats_tp_events.h"

/* The same events, to look up by name. */
#define KSTATS_TP_LIST(ev, ...)	(&kstats_tp_typed_##ev),
static const struct kstats_tp_typed *const kstats_tp_typed[] = {
#define KSTATS_TP_EVENT KSTATS_TP_LIST
#include "kstats_tp_events.h"
};

/*
 * The probe that takes the place of GROUP:EVENT's for point @p of @role:
 * one of a section keyed by the task at every point, of no family, for a
 * start or an end that reads no argument, and for the switch; NULL for
 * any other point.  They take no argument, which the calling conventions
 * allow and a kernel that checks the type of indirect calls does not:
 * there, the event's own probe dispatches (kstats_tp_plain()).
 */
static void *kstats_tp_lean(const struct kstats_trace *t,
			    const struct kstats_point *p,
			    enum kstats_tp_role role)
{
	if (IS_ENABLED(CONFIG_CFI_CLANG) || !t->pair.cur_slots)
		return NULL;
	if (role == KSTATS_TP_SWITCH)
		return kstats_tp_task_switch;
	if (p->rich || t->fn.ks->family || p->opts.key.kind != KSTATS_KEY_TASK)
		return NULL;
	if (role == KSTATS_TP_START)
		return kstats_tp_task_start;
	if (role == KSTATS_TP_END)
		return kstats_tp_task_end;
	return NULL;
}

/* The probe for GROUP:EVENT: its own, or the generic one. */
static void *kstats_tp_probe(const char *group, const char *event,
			     bool *typed)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kstats_tp_typed); i++) {
		const struct kstats_tp_typed *tt = kstats_tp_typed[i];

		if (!strcmp(tt->group, group) && !strcmp(tt->event, event)) {
			*typed = true;
			return tt->probe;
		}
	}
	*typed = false;
	return kstats_tp_generic;
}

/*
 * The functions kstats' handlers call: on the paths of the clocks they
 * read (ktime_get_mono_fast_ns(), local_clock(), the TSC, arm64's counter
 * and the paravirtual clocks under them) and copy_from_kernel_nofault(), which
 * reads a value's dereferences; matched as parts of names.  A probe on one
 * of them would call back into itself from its own handler.  fprobe and kprobes
 * would count each nested hit as missed, but every clock read of the
 * kernel would pay for it.
 */
static bool kstats_is_clock_function(const char *sym)
{
	static const char * const parts[] = {
		"ktime_get_mono_fast", "local_clock", "sched_clock",
		"read_tsc", "rdtsc", "pvclock_", "kvm_clock", "tk_clock_read",
		/* arm64's architected timer, and its errata's reads */
		"arch_counter_", "arch_timer_read",
		"copy_from_kernel_nofault",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (strstr(sym, parts[i]))
			return true;
	return false;
}

/*
 * Resolve @spec ("sym" or "sym+off") with a disabled kprobe, which checks
 * what kprobes can check: the symbol exists (-ENOENT) and may be probed
 * (-EINVAL for NOKPROBE and the like).  kstats' own code is refused.
 * @addrp, if not NULL, gets the address kprobes resolved (past an ENDBR).
 * A refusal is noted in @t->why at @word, where the command wrote @spec.
 */
static int kstats_check_symbol(struct kstats_trace *t, const char *word,
			       const char *spec, unsigned int offset,
			       bool allow_own, unsigned long *addrp)
{
	const char *name = t->fn.ks->name;
	struct kprobe kp = {
		.symbol_name = spec,
		.offset = offset,
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned long addr;
	int err;

	if (kstats_is_clock_function(spec)) {
		kstats_refuse(t->why, word, name,
			      "'%s' is one of the clock functions kstats' probes call: tracing it would recurse",
			      spec);
		return -EPERM;
	}
	err = register_kprobe(&kp);
	if (err) {
		if (err == -ENOENT)
			kstats_refuse(t->why, word, name, "no symbol '%s'", spec);
		else
			kstats_refuse(t->why, word, name,
				      "'%s' cannot be probed (%d)", spec, err);
		return err;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	if (!allow_own && within_module(addr, THIS_MODULE)) {
		kstats_refuse(t->why, word, name,
			      "'%s' is part of kstats, which does not trace itself",
			      spec);
		return -EPERM;
	}
	if (addrp)
		*addrp = addr;
	return 0;
}

/* Symbols and tracepoint names: no glob or other special characters. */
static bool kstats_symbol_chars(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isascii(*s) || (!isalnum(*s) && *s != '_' && *s != '.'))
			return false;
	return true;
}

/* The mechanism a function node asked for ("mech"), or the best one. */
enum kstats_mech_want {
	KSTATS_WANT_ANY,
	KSTATS_WANT_DIRECT,
	KSTATS_WANT_FPROBE,
	KSTATS_WANT_KRETPROBE,
};

/* Attach @ops to @t's function(s): on success, the node's mechanism. */
static int kstats_trace_attach(struct kstats_trace *t,
			       const struct kstats_mech_ops *ops,
			       unsigned int maxactive, const char **why)
{
	int err = ops->attach(&t->fn, maxactive, why);

	if (!err) {
		t->ops = ops;
		t->mech = ops->mech;
		t->registered = true;
	}
	return err;
}

/*
 * Try the mechanisms @want allows, best first: direct, fprobe, then a
 * kprobe (entry alone) or a kretprobe.  A direct attempt that fails falls
 * back, saying why in the kernel log, unless direct was asked for; fprobe
 * falls back only when the function is not ftrace-able (-EINVAL,
 * -ENOENT): anything else (-ENOMEM, -EBUSY) is the caller's to see.  A
 * refusal is noted at @word, where the command wrote the function.
 */
static int kstats_register_function(struct kstats_trace *t,
				    enum kstats_mech_want want,
				    unsigned int maxactive, const char *word)
{
	const struct kstats_mech_ops *tries[3];
	int n = 0, i, err = -EOPNOTSUPP;

#ifdef KSTATS_HAVE_DIRECT
	if (want == KSTATS_WANT_ANY || want == KSTATS_WANT_DIRECT)
		tries[n++] = &kstats_mech_direct;
#endif
#ifdef CONFIG_FPROBE
	if (want == KSTATS_WANT_ANY || want == KSTATS_WANT_FPROBE)
		tries[n++] = &kstats_mech_fprobe;
#endif
	if (want != KSTATS_WANT_DIRECT)
		tries[n++] = t->fn.entry_only ? &kstats_mech_kprobe :
						&kstats_mech_kretprobe;

	for (i = 0; i < n; i++) {
		const struct kstats_mech_ops *ops = tries[i];
		const char *why = "";

		err = kstats_trace_attach(t, ops, maxactive, &why);
		if (!err)
			return 0;
		if (ops->mech == KSTATS_MECH_DIRECT) {
			if (want == KSTATS_WANT_DIRECT) {
				kstats_refuse(t->why, word, t->fn.ks->name,
					      "cannot trace '%s' directly: %s (%d)",
					      t->target, why, err);
				return err;
			}
			/* The calibration's own probe says nothing. */
			if (t->target[0])
				pr_info_ratelimited("%s: '%s' not traced directly: %s; falling back\n",
						    t->fn.ks->name, t->target, why);
		} else if (ops->mech == KSTATS_MECH_FPROBE && err != -EINVAL &&
			   err != -ENOENT) {
			return err;
		}
	}
	return err;
}

static void kstats_unregister_function(struct kstats_trace *t)
{
	unsigned int i;

	if (!t->registered)
		return;
	if (t->ops)
		t->ops->detach(&t->fn);
	for (i = 0; i < t->nr_fb; i++)
		t->fb[i].ops->detach(&t->fb[i].fn);
	t->registered = false;
}

/*
 * The functions of a node over several that neither the direct slot nor
 * the node's fprobe took (kstats_multi_can_fall_back()), each timed as a
 * one-function node would fall back: fprobe where the kernel has it and
 * ftrace can patch the function, else a kretprobe (a kprobe for a value
 * at the entry alone), recording into the node's distribution, family
 * and outliers.  One that no mechanism takes stays skipped.  Return: 0 or
 * -ENOMEM.
 */
static int kstats_trace_fallbacks(struct kstats_trace *t)
{
	struct kstats_multi *m = t->fn.multi;
	unsigned int i, n = 0;

	for (i = 0; i < m->nr; i++)
		n += kstats_multi_can_fall_back(&m->funcs[i]);
	if (!n)
		return 0;
	t->fb = kcalloc(n, sizeof(*t->fb), KSTATS_GFP);
	if (!t->fb)
		return -ENOMEM;
	for (i = 0; i < m->nr; i++) {
		struct kstats_multi_func *mf = &m->funcs[i];
		struct kstats_fallback *fb = &t->fb[t->nr_fb];
		const struct kstats_mech_ops *tries[2];
		int k, nt = 0;

		if (!kstats_multi_can_fall_back(mf))
			continue;
		fb->fn = t->fn;
		fb->fn.multi = NULL;
		fb->fn.mech_data = NULL;
		fb->fn.target = mf->name;
		fb->fn.addr = mf->addr;
#ifdef CONFIG_FPROBE
		if (mf->skip != KSTATS_MULTI_NOT_FTRACEABLE)
			tries[nt++] = &kstats_mech_fprobe;
#endif
		tries[nt++] = fb->fn.entry_only ? &kstats_mech_kprobe :
						  &kstats_mech_kretprobe;
		for (k = 0; k < nt; k++) {
			const char *why = "";

			if (tries[k]->attach(&fb->fn, t->maxactive, &why))
				continue;
			fb->ops = tries[k];
			mf->fallback = kstats_mech_names[tries[k]->mech];
			t->nr_fb++;
			break;
		}
	}
	return 0;
}

/*
 * A node over several functions: the direct slot takes those it can, a
 * fallback of their own times the others (kstats_trace_fallbacks()).
 * When the slot takes none of them (none can go direct: no BTF, another
 * node has them directly; no trampoline for the node; no slot free; an
 * attach that failed), the node falls back whole, as one function does
 * and saying so as it does: one fprobe over all of them where the kernel
 * has fprobe (one ftrace update), then a kretprobe (a kprobe for a value
 * at the entry alone) for each one left, as where fprobe is missing.
 * "mech direct" asks for the slot or nothing.  Return: 0, or a negative
 * errno with one line in the kernel log.
 */
static int kstats_register_multi(struct kstats_trace *t,
				 enum kstats_mech_want want,
				 unsigned int maxactive, const char *word)
{
	struct kstats_multi *m = t->fn.multi;
	u8 reason = KSTATS_MULTI_NO_DIRECT;
	const char *why __maybe_unused = "";
	int err;

#ifdef KSTATS_HAVE_DIRECT
	err = kstats_trace_attach(t, &kstats_mech_direct, maxactive, &why);
	if (!err)
		return kstats_trace_fallbacks(t);
	if (want == KSTATS_WANT_DIRECT) {
		kstats_refuse(t->why, word, t->fn.ks->name,
			      "cannot trace '%s' directly: %s (%d)",
			      t->target, why, err);
		return err;
	}
	pr_info_ratelimited("%s: '%s' not traced directly: %s; falling back\n",
			    t->fn.ks->name, t->target, why);
	if (err == -ENOSPC)
		reason = KSTATS_MULTI_NO_SLOT;
#endif
	kstats_multi_untaken(m, reason);
	/* from here on, kstats_unregister_function() detaches what attached */
	t->registered = true;
	t->mech = t->fn.entry_only ? KSTATS_MECH_KPROBE : KSTATS_MECH_KRETPROBE;
#ifdef CONFIG_FPROBE
	err = kstats_trace_attach(t, &kstats_mech_fprobe, maxactive, &why);
	if (err && err != -EINVAL && err != -ENOENT) {
		kstats_refuse(t->why, word, t->fn.ks->name,
			      "cannot probe the functions of '%s' with fprobe: %s (%d)",
			      t->target, why, err);
		return err;
	}
#endif
	err = kstats_trace_fallbacks(t);
	if (err)
		return err;
	if (!kstats_multi_traced(m)) {
		/* no node's header will say why: the first one's reason */
		kstats_refuse(t->why, word, t->fn.ks->name,
			      "none of the functions of '%s' can be traced; the first, %s: %s",
			      t->target, m->funcs[0].name,
			      kstats_multi_skip_name(m->funcs[0].skip));
		return -ENOENT;
	}
	return 0;
}

#ifdef CONFIG_EVENT_TRACING
/*
 * "tp:GROUP:EVENT": the trace event GROUP/EVENT, as tracefs lists it under
 * events/, of the kernel or of a module.  trace_get_event_file() takes a
 * reference on the event, which pins its module; but a module still in its
 * init may yet fail and be freed whatever its references, so its events
 * are refused until it is live.
 */
static int kstats_find_tracepoint(struct kstats_point *p, const char *word,
				  char *group, const char *event)
{
	const char *name = p->t->fn.ks->name;
	struct kstats_refusal *why = p->t->why;
	struct trace_event_file *file;
	struct trace_event_call *call;
	struct module *mod;

	file = trace_get_event_file(NULL, group, event);
	if (IS_ERR(file)) {
		int err = PTR_ERR(file);

		if (err == -EINVAL) {
			kstats_refuse(why, word, name,
				      "no tracepoint %s:%s in the kernel or its modules",
				      group, event);
			return -ENOENT;
		}
		kstats_refuse(why, word, name,
			      "tracepoint %s:%s cannot be used (%d)", group,
			      event, err);
		return err;
	}
	call = file->event_call;
	if (!(call->flags & TRACE_EVENT_FL_TRACEPOINT) ||
	    (call->flags & TRACE_EVENT_FL_DYNAMIC)) {
		trace_put_event_file(file);
		kstats_refuse(why, word, name,
			      "event %s:%s has no tracepoint of its own (a syscall, probe or synthetic event)",
			      group, event);
		return -EINVAL;
	}
	mod = call->module;
	if (mod && READ_ONCE(mod->state) != MODULE_STATE_LIVE) {
		kstats_refuse(why, word, name,
			      "tracepoint %s:%s: module %s is still loading (or going): try again once it is live",
			      group, event, mod->name);
		trace_put_event_file(file);
		return -EBUSY;
	}
	p->file = file;
	p->tp = call->tp;
	return 0;
}
#else
static int kstats_find_tracepoint(struct kstats_point *p, const char *word,
				  char *group, const char *event)
{
	kstats_refuse(p->t->why, word, p->t->fn.ks->name,
		      "tracepoints need a kernel with CONFIG_EVENT_TRACING");
	return -EOPNOTSUPP;
}
#endif

static bool kstats_is_tracepoint(const char *spec)
{
	return !strncmp(spec, "tp:", 3);
}

/*
 * The types of what a node reads, from the BTF of the function or
 * tracepoint @what it probes (@tp), in module @mod or the kernel: with @p
 * NULL the node's value, filters and family key (a function's or a
 * tracepoint's), else those of a section's point (its key, match, filters
 * and family key; the first start's also the node's family key).  Without
 * BTF the values stay as written, and a return value is guessed at
 * (kstats_ret_value()).
 */
static void kstats_trace_types(struct kstats_trace *t, struct kstats_point *p,
			       const char *what, bool tp, const char *mod)
{
	struct kstats_btf_func f;

	if (p ? !p->rich : !t->fn.rich)
		return;
	if (tp ? kstats_btf_tracepoint(what, mod, &f) :
		 kstats_btf_func(what, mod, &f))
		return;
	if (p)
		kstats_point_opts_type(&p->opts, &f);
	if (!p || p == &t->start) {
		kstats_by_type(&t->fn.by, &f);
		/* the BTF may tell a value key's sign only now */
		if (t->fn.ks->family && t->fn.by.kind == KSTATS_BY_VALUE &&
		    !t->fn.by.str)
			t->fn.ks->family->keys = kstats_by_is_signed(&t->fn.by) ?
				KSTATS_KEYS_SIGNED : KSTATS_KEYS_NUMBER;
	}
	if (!p) {
		kstats_value_type(&t->fn.value, &f);
		kstats_filter_type(&t->fn.filter, &f);
	}
}

/*
 * Register one end of a section or the tracepoint of inter-arrivals: a
 * tracepoint's probe of @role, a kprobe's @kp_fn.  @spec is the word the
 * command wrote, where a refusal is noted, or a point kstats adds.
 */
static int kstats_register_point(struct kstats_trace *t,
				 struct kstats_point *p, const char *spec,
				 enum kstats_tp_role role,
				 kprobe_pre_handler_t kp_fn)
{
	const char *name = t->fn.ks->name;
	struct kstats_refusal *why = t->why;
	unsigned long addr;
	char *plus;
	unsigned int off = 0;
	int err;

	p->t = t;
	if (strscpy(p->spec, spec, sizeof(p->spec)) < 0) {
		kstats_refuse(why, spec, name,
			      "probe point '%.32s...' longer than %d characters",
			      spec, KSTATS_SPEC_MAX);
		return -ENAMETOOLONG;
	}
	if (kstats_is_tracepoint(spec)) {
		char group[KSTATS_SPEC_MAX + 1], *ev;

		/* "tp:GROUP:EVENT": the group ends at the last ':'. */
		strscpy(group, spec + 3, sizeof(group));
		ev = strrchr(group, ':');
		if (!ev || ev == group || !kstats_symbol_chars(ev + 1)) {
			kstats_refuse(why, spec, name,
				      "'%s' is not tp:GROUP:EVENT", spec);
			return -EINVAL;
		}
		*ev++ = '\0';
		if (!kstats_symbol_chars(group)) {
			kstats_refuse(why, spec, name,
				      "bad tracepoint group in '%s'", spec);
			return -EINVAL;
		}
		p->role = role;
		/* what reads the arguments: an exit's task, a rich node's */
		if (role == KSTATS_TP_EXIT)
			p->rich = true;
		else if (role == KSTATS_TP_ARRIVAL)
			p->rich = t->fn.rich;
		p->tp_fn = kstats_tp_probe(group, ev, &p->typed);
		if (!p->typed && IS_ENABLED(CONFIG_CFI_CLANG)) {
			kstats_refuse(why, spec, name,
				      "tracepoint %s:%s has no probe of its own prototype in kstats, and this kernel checks the type of indirect calls (CONFIG_CFI_CLANG)",
				      group, ev);
			return -EOPNOTSUPP;
		}
		p->tp_fn = kstats_tp_lean(t, p, role) ?: p->tp_fn;
		err = kstats_find_tracepoint(p, spec, group, ev);
		if (err)
			return err;
		if (role != KSTATS_TP_EXIT && role != KSTATS_TP_SWITCH) {
			struct module *mod = p->file->event_call->module;

			kstats_trace_types(t, t->mech == KSTATS_MECH_ARRIVAL ?
					   NULL : p, ev, true,
					   mod ? mod->name : NULL);
		}
		/*
		 * called by the probe of the point it follows, from now on:
		 * linked last, set up, for that probe running already
		 */
		if (p->head) {
			struct kstats_point *q = p->head;

			while (q->next)
				q = q->next;
			/* its fields seen before it (the probe's READ_ONCE()) */
			smp_store_release(&q->next, p);
			return 0;
		}
		/* the switch after the section's own points there */
		err = tracepoint_probe_register_prio(p->tp, p->tp_fn, p,
						     role == KSTATS_TP_SWITCH ?
						     TRACEPOINT_DEFAULT_PRIO - 1 :
						     TRACEPOINT_DEFAULT_PRIO);
		if (err) {
			kstats_refuse(why, spec, name,
				      "cannot attach to tracepoint '%s' (%d)", spec,
				      err);
			return err;
		}
		p->registered = true;
		return 0;
	}

	plus = strchr(p->spec, '+');
	if (plus) {
		*plus = '\0';
		if (kstrtouint(plus + 1, 0, &off)) {
			/* under the offset itself */
			kstats_refuse(why, spec + (plus + 1 - p->spec), name,
				      "bad offset in '%s'", spec);
			return -EINVAL;
		}
	}
	if (!kstats_symbol_chars(p->spec)) {
		kstats_refuse(why, spec, name, "bad symbol '%s'", p->spec);
		return -EINVAL;
	}
	err = kstats_check_symbol(t, spec, p->spec, off, false, &addr);
	if (err)
		return err;
	/* At a function's entry, its arguments are where its type says. */
	if (!off) {
		char mod[MODULE_NAME_LEN];

		kstats_syms_module(addr, mod, sizeof(mod));
		kstats_trace_types(t, p, p->spec, false, mod[0] ? mod : NULL);
	}
	p->kp.symbol_name = p->spec;
	p->kp.offset = off;
	p->kp.pre_handler = kp_fn;
	err = register_kprobe(&p->kp);
	if (err) {
		kstats_refuse(why, spec, name, "cannot probe '%s' (%d)", spec,
			      err);
		return err;
	}
	p->registered = true;
	return 0;
}

static void kstats_put_point(struct kstats_point *p)
{
#ifdef CONFIG_EVENT_TRACING
	if (p->file)
		trace_put_event_file(p->file);
#endif
	p->file = NULL;
}

static void kstats_unregister_point(struct kstats_point *p)
{
	if (!p->registered)
		return;
	if (p->tp)
		tracepoint_probe_unregister(p->tp, p->tp_fn, p);
	else
		unregister_kprobe(&p->kp);
	p->registered = false;
}

/* Stop every probe of @t and wait for the handlers in flight. */
static void kstats_trace_unregister(struct kstats_trace *t)
{
	struct kstats_point *pts[] = {
		&t->start, &t->end, &t->more[0], &t->more[1], &t->exit, &t->free,
		&t->sw
	};
	bool tps = false;
	int i;

	BUILD_BUG_ON(ARRAY_SIZE(t->more) != 2);
	kstats_unregister_function(t);
	for (i = 0; i < ARRAY_SIZE(pts); i++) {
		tps |= pts[i]->tp && pts[i]->registered;
		kstats_unregister_point(pts[i]);
	}
	if (tps)
		tracepoint_synchronize_unregister();
	/* No handler runs on a module's tracepoint now: let it go. */
	for (i = 0; i < ARRAY_SIZE(pts); i++)
		kstats_put_point(pts[i]);
}

/* The probes' own misses since they were registered. */
static u64 kstats_trace_probe_missed(struct kstats_trace *t)
{
	unsigned int i;
	u64 n;

	if (t->ops || t->nr_fb) {
		n = t->ops ? t->ops->missed(&t->fn) : 0;
		for (i = 0; i < t->nr_fb; i++)
			n += t->fb[i].ops->missed(&t->fb[i].fn);
		return n;
	}
	if (t->mech == KSTATS_MECH_SECTION)
		return READ_ONCE(t->start.kp.nmissed) +
		       READ_ONCE(t->end.kp.nmissed) +
		       READ_ONCE(t->more[0].kp.nmissed) +
		       READ_ONCE(t->more[1].kp.nmissed);
	return 0;
}

/* The probes' misses since the last reset. */
static u64 kstats_trace_missed(struct kstats *ks)
{
	struct kstats_trace *t = ks->priv;

	return kstats_trace_probe_missed(t) - READ_ONCE(t->missed_base);
}

/*
 * "reset": the probes' misses and a section's counts start again from 0
 * with the histogram (its starts in flight stay: their ends still come).
 */
static void kstats_trace_reset(struct kstats *ks)
{
	struct kstats_trace *t = ks->priv;

	WRITE_ONCE(t->missed_base, kstats_trace_probe_missed(t));
	kstats_outliers_reset(t->fn.outliers);
	if (t->mech == KSTATS_MECH_SECTION) {
		kstats_pair_reset_counts(&t->pair);
		atomic64_set(&t->nr_short, 0);
		atomic64_set(&t->nr_long, 0);
	}
}

/*
 * An outlier's family key, as the key blocks of the file show it: by CPU,
 * the CPU that recorded it, whose row holds it.
 */
static int kstats_trace_outlier_key(void *arg, u32 key, bool has_key,
				    u32 cpu, char *buf, size_t size)
{
	struct kstats *ks = arg;

	if (kstats_family_per_cpu(ks->family))
		key = cpu;
	else if (!has_key)
		return 0;
	return kstats_family_format_index(ks->family, key, buf, size);
}

/* After the histogram: the outliers, "# outliers ..." and their lines. */
static void kstats_trace_show_tail(struct kstats *ks, struct seq_file *m)
{
	struct kstats_trace *t = ks->priv;

	if (kstats_outliers_show(t->fn.outliers, m,
				 t->mech == KSTATS_MECH_SECTION ? "end" : NULL,
				 ks->family ? kstats_trace_outlier_key : NULL,
				 ks))
		seq_puts(m, "# outliers unreadable: out of memory\n");
}

/* A further start: "# also start SPEC key K [match V] [by V] [filter F]". */
static void kstats_more_show(const struct kstats_point *p, struct seq_file *m,
			     char *buf, size_t size)
{
	kstats_key_format(&p->opts.key, buf, size);
	seq_printf(m, "# also start %s key %s", p->spec, buf);
	if (p->opts.has_match) {
		kstats_value_format(&p->opts.match, buf, size);
		seq_printf(m, " match %s", buf);
	}
	if (p->opts.by.kind != KSTATS_BY_NONE) {
		kstats_by_format(&p->opts.by, buf, size);
		seq_printf(m, " by %s", buf);
	}
	if (!kstats_filter_is_empty(&p->opts.filter)) {
		kstats_filter_format(&p->opts.filter, buf, size);
		seq_printf(m, " filter %s", buf);
	}
	seq_putc(m, '\n');
}

/* A section's keys, per-point filters and starts in flight. */
static void kstats_section_show(struct kstats_trace *t, struct seq_file *m,
				char *buf, size_t size)
{
	static const char * const which[] = { "start", "end" };
	const struct kstats_point *pts[] = { &t->start, &t->end };
	struct kstats_pair_counts c;
	int i;

	kstats_key_format(&t->start.opts.key, buf, size);
	seq_printf(m, "# key start %s", buf);
	kstats_key_format(&t->end.opts.key, buf, size);
	seq_printf(m, " end %s\n", buf);
	if (t->start.opts.has_match) {
		kstats_value_format(&t->start.opts.match, buf, size);
		seq_printf(m, "# match start %s", buf);
		kstats_value_format(&t->end.opts.match, buf, size);
		seq_printf(m, " end %s\n", buf);
	}
	for (i = 0; i < 2; i++) {
		if (kstats_filter_is_empty(&pts[i]->opts.filter))
			continue;
		kstats_filter_format(&pts[i]->opts.filter, buf, size);
		seq_printf(m, "# filter %s %s\n", which[i], buf);
	}
	for (i = 0; i < t->nr_more; i++)
		kstats_more_show(&t->more[i], m, buf, size);
	kstats_pair_counts(&t->pair, &c);
	seq_printf(m, "# inflight max %u pending %llu replaced %llu evicted %llu exited %llu unmatched %llu nested %llu nest %s full %s slots %s\n",
		   t->pair.inflight, kstats_pair_pending(&t->pair), c.replaced,
		   c.evicted, c.exited, c.unmatched, c.nested,
		   t->pair.outer ? "outer" : "replace",
		   t->pair.refuse ? "refuse" : "evict",
		   t->pair.cpu_slots ? "cpu" : "table");
	if (t->over || t->under != U64_MAX)
		seq_printf(m, "# bounds over %llu under %llu short %lld long %lld\n",
			   t->over, t->under, atomic64_read(&t->nr_short),
			   atomic64_read(&t->nr_long));
}

/*
 * "probes typed" where every tracepoint of the node has a probe of its own
 * prototype, "probes generic" where one has not; "" for no tracepoint.
 */
static const char *kstats_trace_probes(const struct kstats_trace *t)
{
	const struct kstats_point *pts[] = {
		&t->start, &t->end, &t->more[0], &t->more[1]
	};
	const char *probes = "";
	int i;

	for (i = 0; i < ARRAY_SIZE(pts); i++) {
		if (!pts[i]->tp)
			continue;
		if (!pts[i]->typed)
			return " probes generic";
		probes = " probes typed";
	}
	return probes;
}

static void kstats_trace_show(struct kstats *ks, struct seq_file *m)
{
	struct kstats_trace *t = ks->priv;

	char buf[512];

	seq_printf(m, "# source mechanism %s", kstats_mech_names[t->mech]);
	switch (t->mech) {
	case KSTATS_MECH_DIRECT:
	case KSTATS_MECH_FPROBE:
	case KSTATS_MECH_KRETPROBE:
	case KSTATS_MECH_KPROBE:
		seq_printf(m, " target %s maxactive %u", t->target,
			   t->maxactive);
		break;
	case KSTATS_MECH_SECTION:
		seq_printf(m, " start %s end %s", t->start.spec, t->end.spec);
		break;
	case KSTATS_MECH_UPROBE:
		seq_printf(m, " target %s", t->target);
		break;
	default:
		seq_printf(m, " start %s", t->start.spec);
		break;
	}
	if (t->fn.gap)
		seq_printf(m, " gap %s", t->fn.gap->name);
	if (t->mech <= KSTATS_MECH_KRETPROBE &&
	    t->fn.value.base == KSTATS_BASE_NONE)
		seq_printf(m, " floor_p50 %llu%s", t->floor_p50,
			   t->floor_unmeasured ? " floor_measured no" : "");
	if (t->registered && t->ops && t->ops->describe)
		t->ops->describe(&t->fn, m);
#ifdef KSTATS_HAVE_COUNTER
	if (t->counter)
		kstats_counter_describe(m, ks->name, &t->counter_said);
#endif
	seq_puts(m, kstats_trace_probes(t));
	seq_putc(m, '\n');
	if (t->fn.multi)
		kstats_multi_show(t->fn.multi, m);
	if (t->fn.value.base != KSTATS_BASE_NONE) {
		kstats_value_format(&t->fn.value, buf, sizeof(buf));
		seq_printf(m, "# value %s\n", buf);
	}
	if (t->mech == KSTATS_MECH_SECTION) {
		kstats_section_show(t, m, buf, sizeof(buf));
	} else if (!kstats_filter_is_empty(&t->fn.filter)) {
		kstats_filter_format(&t->fn.filter, buf, sizeof(buf));
		seq_printf(m, "# filter %s\n", buf);
	}
}

/*
 * The node is being removed (or was never published): stop its probes,
 * wait for their handlers, and remove the gap sibling they fed.
 */
static void kstats_trace_retire(struct kstats *ks)
{
	struct kstats_trace *t = ks->priv;

	kstats_trace_unregister(t);
	/* a call still in flight may capture: on a CPU with a store */
	kstats_outliers_retire(t->fn.outliers);
	kstats_destroy(t->fn.gap);
	t->fn.gap = NULL;
}

/* With the memory, from an irq_work: nothing here may sleep. */
static void kstats_trace_release(struct kstats *ks)
{
	struct kstats_trace *t = ks->priv;
	unsigned int i;

	if (t->ops && t->ops->release)
		t->ops->release(&t->fn);
	for (i = 0; i < t->nr_fb; i++)
		if (t->fb[i].ops->release)
			t->fb[i].ops->release(&t->fb[i].fn);
	kfree(t->fb);
	kstats_outliers_free(t->fn.outliers);
	kstats_multi_free(t->fn.multi);
	free_percpu(t->marks);
	free_percpu(t->fn.last_end);
	kstats_pair_free(&t->pair);
	kfree(t);
}

/*
 * The floor: trace kstats' empty function with the mechanism and clock
 * of @t, call it, and keep the median the probe adds.
 */
static void kstats_trace_calibrate(struct kstats_trace *t)
{
	struct kstats_config cfg = {
		.name = "calibrate",
		.frac_bits = 3,
		.clock = t->fn.ks->clock,
	};
	struct kstats_trace *c;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	int i, err;

	c = kzalloc(sizeof(*c), KSTATS_GFP);
	if (!c)
		return;
	c->fn.ks = kstats_alloc(&cfg, KSTATS_MADE_BY_KSTATS, NULL);
	if (IS_ERR(c->fn.ks))
		goto out_free;
	c->fn.target = c->target;
	c->fn.addr = (unsigned long)kstats_calibrate_target;
	err = kstats_register_function(c, t->mech == KSTATS_MECH_DIRECT ?
				       KSTATS_WANT_DIRECT :
				       t->mech == KSTATS_MECH_FPROBE ?
				       KSTATS_WANT_FPROBE : KSTATS_WANT_KRETPROBE,
				       0, NULL);
	if (err) {
		t->floor_unmeasured = true;
		pr_info_ratelimited("%s: its probe's floor could not be measured (%d%s): floor_p50 0\n",
				    t->fn.ks->name, err,
				    err == -ENOSPC ? ": no direct slot free" : "");
		goto out_put;
	}
	for (i = 0; i < KSTATS_CALIBRATE_CALLS; i++)
		kstats_calibrate_target();
	kstats_unregister_function(c);
	if (c->ops->release)
		c->ops->release(&c->fn);
	if (!kstats_snapshot_take(c->fn.ks, &snap)) {
		kstats_snapshot_summary(&snap, &sum);
		t->floor_p50 = sum.p50;
		kstats_snapshot_free(&snap);
	}
out_put:
	kstats_put(c->fn.ks);
out_free:
	kfree(c);
}

/* scnprintf: a long target, start and end are cut, never overrun. */
static void kstats_trace_origin(struct kstats_cmd *cmd, char *buf, size_t size)
{
	unsigned int i;
	int n = scnprintf(buf, size, "trace %s", cmd->target ? cmd->target : "");

	if (cmd->start) {
		n += scnprintf(buf + n, size - n, "start %s", cmd->start);
		for (i = 0; i < cmd->nr_more; i++)
			n += scnprintf(buf + n, size - n, " start %s",
				       cmd->more[i]);
		n += scnprintf(buf + n, size - n, " end %s", cmd->end);
	}
	n += scnprintf(buf + n, size - n, " bits %u clock %s",
		       cmd->cfg.frac_bits, kstats_clock_name(cmd->cfg.clock));
	if (cmd->gap)
		n += scnprintf(buf + n, size - n, " gap");
	if (cmd->value.base != KSTATS_BASE_NONE) {
		n += scnprintf(buf + n, size - n, " value ");
		n += kstats_value_format(&cmd->value, buf + n, size - n);
	}
	if (cmd->by.kind != KSTATS_BY_NONE) {
		n += scnprintf(buf + n, size - n, " by ");
		kstats_by_format(&cmd->by, buf + n, size - n);
	}
}

/*
 * Whether the node's keys are the per-CPU rows (KSTATS_KEYS_CPU): "by cpu"
 * on a function or a tracepoint, whose samples are recorded on the CPU
 * they key.  A section's key is its start's, and it may end on another
 * CPU: a key of the table.
 */
static bool kstats_trace_by_rows(const struct kstats_cmd *cmd)
{
	return cmd->by.kind == KSTATS_BY_CPU && !cmd->end;
}

/* "by KEY max N": the node's keys, made before its probes can fire. */
static int kstats_trace_family(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	struct kstats *ks = t->fn.ks;
	enum kstats_keys keys = KSTATS_KEYS_NUMBER;
	char by[KSTATS_FAMILY_BY_MAX];
	int err;

	switch (cmd->by.kind) {
	case KSTATS_BY_COMM:
		keys = KSTATS_KEYS_NAME;
		break;
	case KSTATS_BY_CALLER:
		keys = KSTATS_KEYS_CALLER;
		break;
	case KSTATS_BY_CGROUP:
		keys = KSTATS_KEYS_CGROUP;
		break;
	case KSTATS_BY_STACK:
		keys = KSTATS_KEYS_STACK;
		break;
	case KSTATS_BY_FUNC:
		keys = KSTATS_KEYS_FUNC;
		break;
	case KSTATS_BY_CPU:
		if (kstats_trace_by_rows(cmd))
			keys = KSTATS_KEYS_CPU;
		break;
	default:
		if (cmd->by.str)
			keys = KSTATS_KEYS_NAME;
		else if (kstats_by_is_signed(&cmd->by))
			keys = KSTATS_KEYS_SIGNED;
		break;
	}
	/* "# family by KEY": one word, a stack's frames in a pair of their own */
	if (keys == KSTATS_KEYS_STACK)
		strscpy(by, kstats_by_names[KSTATS_BY_STACK], sizeof(by));
	else
		kstats_by_format(&cmd->by, by, sizeof(by));
	err = kstats_family_enable(ks, cmd->by_max, by, keys, cmd->by.frames);
	if (err)
		kstats_refuse(&cmd->why, cmd->at.by, "_control",
			      "%s: by %s max %u: no memory for %u keys of %zu bytes",
			      ks->name, by, cmd->by_max, cmd->by_max,
			      kstats_family_key_bytes(ks->nr_slots,
						      cmd->by.frames));
	return err;
}

/*
 * The conditions of point @p as its probe tests them (@p->check): each on
 * an argument as it is, or on one dereference of it, with no cast (but
 * to 64 bits), and not "&".  Return: false if one is not.
 */
static bool kstats_tp_checks(struct kstats_point *p)
{
	const struct kstats_filter *f = &p->opts.filter;
	unsigned int i;

	for (i = 0; i < f->nr_conds; i++) {
		const struct kstats_value *v = &f->cond[i].v;
		struct kstats_tp_check *k = &p->check[i];

		if (v->base != KSTATS_BASE_ARG || v->nr_derefs > 1 ||
		    (v->cast.size && v->cast.size != sizeof(u64)))
			return false;
		k->arg = v->arg;
		k->deref = v->nr_derefs;
		k->off = k->deref ? v->deref[0].off : 0;
		k->size = k->deref ? v->deref[0].width.size : sizeof(u64);
		if (!kstats_cond_range(f->cond[i].op, f->cond[i].c,
				       k->deref ? v->deref[0].width : v->cast,
				       &k->r))
			return false;
	}
	p->nr_checks = f->nr_conds;
	return true;
}

/*
 * A point of a section needs its arguments for a value key, a match, a
 * filter or a family's value key (read at the starts).  One that needs
 * an argument as it is for its key and nothing else, in a section of no
 * family (@family false), is @keyed: its tracepoint's probe hands it that
 * argument alone.  One that reads conditions on the arguments besides
 * (no task, CPU or cgroup filter), each of them one the probe tests in
 * few instructions (kstats_tp_checks()), is @checked: the probe tests
 * them on the arguments it was given, then does the same.
 */
static void kstats_section_point(struct kstats_point *p,
				 const struct kstats_point_opts *opts,
				 bool by_value, bool family)
{
	const struct kstats_value *v = &opts->key.v;
	bool by_arg;

	p->opts = *opts;
	p->rich = opts->key.kind == KSTATS_KEY_VALUE || opts->has_match ||
		  !kstats_filter_is_empty(&opts->filter) || by_value;
	by_arg = !family && opts->key.kind == KSTATS_KEY_VALUE &&
		 !opts->has_match && v->base == KSTATS_BASE_ARG &&
		 !v->nr_derefs && (!v->cast.size || v->cast.size == sizeof(u64));
	p->keyed = by_arg && kstats_filter_is_empty(&opts->filter);
	p->checked = by_arg && !p->keyed &&
		     kstats_filter_args_alone(&opts->filter) &&
		     kstats_tp_checks(p);
	p->key_arg = v->arg;
}

/* Whether @spec, "tp:GROUP:EVENT", is an event with a probe of its own. */
static bool kstats_tp_spec_typed(const char *spec)
{
	char group[KSTATS_SPEC_MAX + 1], *ev;
	bool typed;

	if (!kstats_is_tracepoint(spec))
		return false;
	/* as kstats_register_point() splits it: the group ends at the last ':' */
	strscpy(group, spec + 3, sizeof(group));
	ev = strrchr(group, ':');
	if (!ev)
		return false;
	*ev++ = '\0';
	kstats_tp_probe(group, ev, &typed);
	return typed;
}

/*
 * Whether point @p reads no argument past a typed probe's (its key's and
 * its conditions'), as kstats_tp_chain() picks them: one that names a
 * further argument (a constant zero there) takes kstats_tp_point().
 */
static bool kstats_tp_args_within(const struct kstats_point *p)
{
	unsigned int i;

	if (p->key_arg >= KSTATS_TP_TYPED_ARGS)
		return false;
	for (i = 0; i < p->nr_checks; i++)
		if (p->check[i].arg >= KSTATS_TP_TYPED_ARGS)
			return false;
	return true;
}

/*
 * Points of section @t at one event that has a probe of its own share
 * it: each point after the first there (in the order they are
 * registered: the end, then the starts) is called by the first's probe,
 * after the points before it (kstats_tp_chain()), and registers none;
 * it is linked to the first (@next) when it is set up
 * (kstats_register_point()), the first's probe running by then.
 * The tracepoint then calls one probe, which its static call reaches
 * directly, rather than several through its iterator's indirect calls:
 * runqlat's end and start at sched_switch.  Not a point that has a
 * probe of its own kind (kstats_tp_lean()).
 */
static void kstats_section_chain(struct kstats_trace *t,
				 const struct kstats_cmd *cmd)
{
	struct kstats_point *pts[KSTATS_SECTION_STARTS + 1];
	const char *specs[KSTATS_SECTION_STARTS + 1];
	unsigned int i, j, n = 0;

	pts[n] = &t->end;
	specs[n++] = cmd->end;
	pts[n] = &t->start;
	specs[n++] = cmd->start;
	for (i = 0; i < t->nr_more; i++) {
		pts[n] = &t->more[i];
		specs[n++] = cmd->more[i];
	}
	for (i = 1; i < n; i++) {
		if (!kstats_tp_spec_typed(specs[i]) ||
		    kstats_tp_lean(t, pts[i], KSTATS_TP_START))
			continue;
		for (j = 0; j < i; j++) {
			if (pts[j]->head || strcmp(specs[j], specs[i]) ||
			    kstats_tp_lean(t, pts[j], j ? KSTATS_TP_START :
						       KSTATS_TP_END))
				continue;
			pts[i]->head = pts[j];
			break;
		}
	}
	/*
	 * what kstats_tp_chain() takes inline, the table's walk alone, at its
	 * one reading of the clock, which it makes for a first point it takes
	 * so: a point follows the first inline only if the first is inline
	 */
	for (i = 0; i < n; i++)
		pts[i]->one_clock = (pts[i]->keyed || pts[i]->checked) &&
				    !t->pair.cur_slots &&
				    kstats_tp_args_within(pts[i]);
	/* a first point comes before those it calls (its index is lower) */
	for (i = 0; i < n; i++) {
		if (!pts[i]->head) {
			pts[i]->all_one_clock = pts[i]->one_clock;
			continue;
		}
		pts[i]->one_clock &= pts[i]->head->one_clock;
		pts[i]->head->all_one_clock &= pts[i]->one_clock;
	}
}

static int kstats_register_start(struct kstats_trace *t,
				 struct kstats_point *p, const char *spec)
{
	return kstats_register_point(t, p, spec, KSTATS_TP_START,
				     kstats_kprobe_start);
}

/*
 * A section: its table of starts in flight, for a section keyed by the
 * task its switch (kstats_pair_switch()), the end, then the starts (so
 * that no start is held before its end can come), and the tracepoints of
 * exiting and freed tasks, whose starts are dropped.
 */
static int kstats_section_setup(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	bool by_value = t->fn.by.kind == KSTATS_BY_VALUE, per_cpu, per_task;
	bool family = t->fn.ks->family;
	struct kstats_refusal *why;
	unsigned int i;
	int err;

	t->mech = KSTATS_MECH_SECTION;
	t->over = cmd->over;
	t->under = cmd->under ?: U64_MAX;
	kstats_section_point(&t->start, &cmd->point[KSTATS_POINT_START],
			     by_value, family);
	kstats_section_point(&t->end, &cmd->point[KSTATS_POINT_END], false,
			     family);
	t->nr_more = cmd->nr_more;
	for (i = 0; i < t->nr_more; i++)
		kstats_section_point(&t->more[i],
				     &cmd->point[KSTATS_POINT_END + 1 + i],
				     by_value, family);
	/* keyed by the CPU at every point: a slot per CPU, no table */
	per_cpu = t->start.opts.key.kind == KSTATS_KEY_CPU &&
		  t->end.opts.key.kind == KSTATS_KEY_CPU;
	for (i = 0; i < t->nr_more; i++)
		per_cpu &= t->more[i].opts.key.kind == KSTATS_KEY_CPU;
	/*
	 * keyed by the task at every point: its start in a slot of its CPU
	 * until it leaves it.  Not with "nest outer", where the table's
	 * older start must win over one in the slot, nor with "match": such
	 * sections (lock waits, whose inner and outer starts t-26 checks on
	 * every kernel, 6.1-rt's preemption inside them included) keep the
	 * table alone.
	 */
	per_task = t->start.opts.key.kind == KSTATS_KEY_TASK &&
		   t->end.opts.key.kind == KSTATS_KEY_TASK && !cmd->nest_outer &&
		   !t->start.opts.has_match && !t->end.opts.has_match;
	for (i = 0; i < t->nr_more; i++)
		per_task &= t->more[i].opts.key.kind == KSTATS_KEY_TASK &&
			    !t->more[i].opts.has_match;
	err = kstats_pair_init(&t->pair, cmd->inflight ?: KSTATS_PAIR_DEFAULT,
			       (cmd->nest_outer ? KSTATS_PAIR_OUTER : 0) |
			       (cmd->full_refuse ? KSTATS_PAIR_REFUSE : 0) |
			       (per_cpu ? KSTATS_PAIR_PER_CPU : 0) |
			       (per_task ? KSTATS_PAIR_CURRENT : 0));
	if (err)
		return err;
	kstats_section_chain(t, cmd);
	/* before any start: none may stay in a slot its task left */
	if (per_task)
		err = kstats_register_point(t, &t->sw, "tp:sched:sched_switch",
					    KSTATS_TP_SWITCH, NULL);
	if (!err)
		err = kstats_register_point(t, &t->end, cmd->end, KSTATS_TP_END,
					    kstats_kprobe_end);
	if (!err)
		err = kstats_register_start(t, &t->start, cmd->start);
	for (i = 0; !err && i < t->nr_more; i++)
		err = kstats_register_start(t, &t->more[i], cmd->more[i]);
	if (err)
		return err;
	/* no refusal: the section works without them, the log says so */
	why = t->why;
	t->why = NULL;
	if (kstats_register_point(t, &t->exit, "tp:sched:sched_process_exit",
				  KSTATS_TP_EXIT, NULL) ||
	    kstats_register_point(t, &t->free, "tp:sched:sched_process_free",
				  KSTATS_TP_EXIT, NULL))
		pr_warn_ratelimited("%s: exiting tasks not seen: their starts leave only when evicted\n",
				    t->fn.ks->name);
	t->why = why;
	return 0;
}

/* A mechanism that "mech" names and this kernel has, or ANY for none. */
static enum kstats_mech_want kstats_mech_wanted(const char *mech)
{
	if (!strcasecmp(mech, "kretprobe"))
		return KSTATS_WANT_KRETPROBE;
	if (!strcasecmp(mech, "fprobe") && IS_ENABLED(CONFIG_FPROBE))
		return KSTATS_WANT_FPROBE;
#ifdef KSTATS_HAVE_DIRECT
	if (!strcasecmp(mech, "direct"))
		return KSTATS_WANT_DIRECT;
#endif
	return KSTATS_WANT_ANY;
}

/*
 * A user program's function ("PATH:SYMBOL", "PATH:0xOFFSET"), timed by
 * its uprobe (kstats_uprobe.c), where this kernel's uprobe API is one
 * kstats is built for.
 */
static int kstats_trace_user(struct kstats_trace *t, struct kstats_cmd *cmd)
{
#ifdef KSTATS_HAVE_UPROBE
	const char *why = "";
	int err = kstats_uprobe_check(cmd, t->why);

	if (err)
		return err;
	/* as long as the command, which the parser bounded */
	strscpy(t->target, cmd->target, sizeof(t->target));
	t->maxactive = cmd->maxactive;
	err = kstats_mech_uprobe.attach(&t->fn, cmd->maxactive, &why);
	if (err) {
		kstats_refuse(t->why, cmd->target, t->fn.ks->name,
			      "cannot trace '%s': %s (%d)", cmd->target, why,
			      err);
		return err;
	}
	t->ops = &kstats_mech_uprobe;
	t->mech = KSTATS_MECH_UPROBE;
	t->registered = true;
	return 0;
#else
	kstats_refuse(t->why, cmd->target, t->fn.ks->name,
		      "'%s': user functions need uprobes, with the API of Debian's 6.1 or 6.12 kernels",
		      cmd->target);
	return -EOPNOTSUPP;
#endif
}

static int kstats_trace_setup(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	const char *name = t->fn.ks->name;
	enum kstats_mech_want want = KSTATS_WANT_ANY;
	char mod[MODULE_NAME_LEN];
	int err;

	if (cmd->mech) {
		want = kstats_mech_wanted(cmd->mech);
		if (want == KSTATS_WANT_ANY) {
			kstats_refuse(t->why, cmd->mech, name,
				      "mechanism '%s' is not available: use direct (x86-64, arm64 with ftrace direct calls), fprobe (kernels with CONFIG_FPROBE) or kretprobe",
				      cmd->mech);
			return -EINVAL;
		}
	}

	if (cmd->start || kstats_is_tracepoint(cmd->target))
		t->counter = t->fn.ks->clock == KSTATS_CLOCK_KTIME &&
			     kstats_counter_is_ktime();
	if (cmd->start)
		return kstats_section_setup(t, cmd);
	if (kstats_is_tracepoint(cmd->target)) {
		t->mech = KSTATS_MECH_ARRIVAL;
		t->marks = alloc_percpu_gfp(struct kstats_mark, KSTATS_GFP);
		if (!t->marks)
			return -ENOMEM;
		return kstats_register_point(t, &t->start, cmd->target,
					     KSTATS_TP_ARRIVAL, NULL);
	}

	if (kstats_uprobe_spec(cmd->target))
		return kstats_trace_user(t, cmd);
	if (t->fn.multi) {
		/* the glob or list, which the parser bounded */
		strscpy(t->target, cmd->target, sizeof(t->target));
		t->maxactive = cmd->maxactive;
		return kstats_register_multi(t, want, cmd->maxactive,
					     cmd->target);
	}
	if (!kstats_symbol_chars(cmd->target)) {
		kstats_refuse(t->why, cmd->target, name,
			      "bad function name '%s'", cmd->target);
		return -EINVAL;
	}
	if (strscpy(t->target, cmd->target, sizeof(t->target)) < 0) {
		kstats_refuse(t->why, cmd->target, name,
			      "function name '%.32s...' longer than %d characters",
			      cmd->target, KSTATS_SPEC_MAX);
		return -ENAMETOOLONG;
	}
	err = kstats_check_symbol(t, cmd->target, t->target, 0, false,
				  &t->fn.addr);
	if (err)
		return err;
	kstats_syms_module(t->fn.addr, mod, sizeof(mod));
	kstats_trace_types(t, NULL, t->target, false, mod[0] ? mod : NULL);
	t->maxactive = cmd->maxactive;
	err = kstats_register_function(t, want, cmd->maxactive, cmd->target);
	if (err) {
		kstats_refuse(t->why, cmd->target, name,
			      "cannot probe '%s' (%d)", cmd->target, err);
		return err;
	}
	return 0;
}

/*
 * A node over several functions ("trace GLOB", "trace F1,F2,..."): its
 * functions, resolved before its family, whose "by func" keys are as many
 * as the functions matched unless "max" says more.  The direct trampoline
 * times them, on one slot, or fprobe and kretprobes when it cannot
 * (kstats_register_multi()).
 */
static int kstats_trace_multi(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	const char *name = t->fn.ks->name;
	struct kstats_multi *m;

	if (cmd->start || !cmd->target || !kstats_multi_spec(cmd->target))
		return 0;
	if (cmd->mech && kstats_mech_wanted(cmd->mech) != KSTATS_WANT_DIRECT) {
		kstats_refuse(t->why, cmd->mech, name,
			      "'%s' names several functions, which take mech direct or no mech (the trampoline, or fprobe or kretprobes when it cannot): drop mech %s",
			      cmd->target, cmd->mech);
		return -EINVAL;
	}
	if (cmd->gap) {
		kstats_refuse(t->why, cmd->at.gap, name,
			      "gap times one function's calls, not a glob's or a list's");
		return -EOPNOTSUPP;
	}
	m = kstats_multi_resolve(name, cmd->target, kstats_is_clock_function,
				 t->why);
	if (IS_ERR(m))
		return PTR_ERR(m);
	t->fn.multi = m;
	if (cmd->by.kind != KSTATS_BY_FUNC)
		return 0;
	if (m->nr > KSTATS_FAMILY_MAX) {
		kstats_refuse(t->why, cmd->at.by, name,
			      "by func: %u functions matched, over the %d keys of a family",
			      m->nr, KSTATS_FAMILY_MAX);
		return -E2BIG;
	}
	if (!cmd->by_max_set) {
		cmd->by_max = m->nr;
	} else if (cmd->by_max < m->nr) {
		kstats_refuse(t->why, cmd->at.by, name,
			      "by func max %u is below the %u functions matched",
			      cmd->by_max, m->nr);
		return -EINVAL;
	}
	return 0;
}

/*
 * The gap sibling NAME.gap, made before the probes that feed it and
 * published with the node.
 */
static int kstats_trace_gap(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	char gapname[KSTATS_NAME_MAX + 1];
	struct kstats_config cfg = cmd->cfg;
	struct kstats *gap;

	if (snprintf(gapname, sizeof(gapname), "%s.gap", cmd->cfg.name) >=
	    sizeof(gapname)) {
		kstats_refuse(t->why, cmd->why.name_at, cmd->cfg.name,
			      "name too long for a .gap sibling");
		return -EINVAL;
	}
	t->fn.last_end = alloc_percpu_gfp(u64, KSTATS_GFP);
	if (!t->fn.last_end)
		return -ENOMEM;
	cfg.name = gapname;
	gap = kstats_alloc(&cfg, KSTATS_MADE_BY_KSTATS, t->why);
	if (IS_ERR(gap))
		return PTR_ERR(gap);
	t->fn.gap = gap;
	return 0;
}

/*
 * Resolve one filter's "cgroup PATH" to the cgroup's id; a refusal is
 * noted in @why at the path.
 */
static int kstats_filter_resolve(struct kstats_filter *f,
				 struct kstats_refusal *why)
{
	if (!f->cgroup_path)
		return 0;
	switch (kstats_cgroup_resolve(f->cgroup_path, &f->cgroup_id,
				      &f->cgroup_level)) {
	case 0:
		break;
	case -EOPNOTSUPP:
		kstats_refuse(why, f->cgroup_path, "_control",
			      "cgroup %s: this kernel has no cgroups",
			      f->cgroup_path);
		return -EOPNOTSUPP;
	default:
		kstats_refuse(why, f->cgroup_path, "_control",
			      "cgroup '%s' is no cgroup v2 under the cgroup2 mount",
			      f->cgroup_path);
		return -EINVAL;
	}
	f->cgroup_path = NULL;
	return 0;
}

/* Every filter's "cgroup PATH", the node's and each point's. */
static int kstats_trace_resolve(struct kstats_cmd *cmd)
{
	int i, err;

	if (!IS_ENABLED(CONFIG_CGROUPS) && cmd->by.kind == KSTATS_BY_CGROUP) {
		kstats_refuse(&cmd->why, cmd->at.by, "_control",
			      "by cgroup: this kernel has no cgroups");
		return -EOPNOTSUPP;
	}
	err = kstats_filter_resolve(&cmd->filter, &cmd->why);
	for (i = 0; !err && i < ARRAY_SIZE(cmd->point); i++)
		err = kstats_filter_resolve(&cmd->point[i].filter, &cmd->why);
	return err;
}

/*
 * What the core reaches of a trace node (struct kstats_ops).  Its family,
 * which kstats_trace_family() made, is the node's to reset and free: the
 * core calls no family.
 */
static void kstats_trace_node_reset(struct kstats *ks)
{
	if (ks->family)
		kstats_family_clear(ks->family, ks->nr_slots);
	kstats_trace_reset(ks);
}

static void kstats_trace_node_release(struct kstats *ks)
{
	kstats_trace_release(ks);
	kstats_family_free(ks->family);
}

static const struct kstats_ops kstats_trace_ops = {
	.show_source = kstats_trace_show,
	.extra_missed = kstats_trace_missed,
	.reset = kstats_trace_node_reset,
	.retire = kstats_trace_retire,
	.release = kstats_trace_node_release,
};

/* A node that keeps outliers: their lines after the histogram. */
static const struct kstats_ops kstats_trace_outlier_ops = {
	.show_source = kstats_trace_show,
	.show_tail = kstats_trace_show_tail,
	.extra_missed = kstats_trace_missed,
	.reset = kstats_trace_node_reset,
	.retire = kstats_trace_retire,
	.release = kstats_trace_node_release,
};

/**
 * kstats_trace_create() - make a trace node as _control was told
 * @cmd: the parsed trace command
 *
 * The node (and its gap sibling) is published, so seen and removable, only
 * once its probes are registered and calibrated.
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno with one line in the kernel log; nothing
 * is left behind on failure.
 */
int kstats_trace_create(struct kstats_cmd *cmd)
{
	char origin[sizeof(((struct kstats *)NULL)->origin)];
	struct kstats_trace *t;
	struct kstats *ks;
	int err;

	err = kstats_trace_resolve(cmd);
	if (err)
		return err;
	t = kzalloc(sizeof(*t), KSTATS_GFP);
	if (!t)
		return -ENOMEM;
	ks = kstats_alloc(&cmd->cfg, KSTATS_MADE_BY_CONTROL, &cmd->why);
	if (IS_ERR(ks)) {
		kfree(t);
		return PTR_ERR(ks);
	}
	/* the refusals of the node's making; none once it is made */
	t->why = &cmd->why;
	/* From here on, retiring and putting @ks cleans up after @t. */
	t->fn.ks = ks;
	t->fn.target = t->target;
	t->fn.value = cmd->value;
	t->fn.filter = cmd->filter;
	t->fn.by = cmd->by;
	/* keys that are the per-CPU rows are recorded as no key is */
	t->fn.rich = t->fn.value.base != KSTATS_BASE_NONE ||
		  !kstats_filter_is_empty(&t->fn.filter) ||
		  (t->fn.by.kind != KSTATS_BY_NONE && !kstats_trace_by_rows(cmd));
	/* Nothing to take at the return: probe the entry alone. */
	t->fn.entry_only = t->fn.value.base == KSTATS_BASE_ARG &&
			!kstats_filter_uses_ret(&t->fn.filter) &&
			!kstats_by_uses_ret(&t->fn.by);
	t->fn.ret_at_exit = t->fn.value.base == KSTATS_BASE_NONE &&
			    (kstats_filter_uses_ret(&t->fn.filter) ||
			     kstats_by_uses_ret(&t->fn.by));
	t->fn.ret_at_exit_key = kstats_by_uses_ret(&t->fn.by);
	ks->priv = t;
	ks->ops = &kstats_trace_ops;

	t->fn.outliers = kstats_outliers_alloc(&cmd->outlier,
					       t->fn.value.base != KSTATS_BASE_NONE);
	if (IS_ERR(t->fn.outliers)) {
		err = PTR_ERR(t->fn.outliers);
		t->fn.outliers = NULL;
		kstats_refuse(t->why, cmd->at.outlier, ks->name,
			      "no memory to keep %u outliers of %u frames per CPU",
			      cmd->outlier.keep, cmd->outlier.stack);
		goto fail;
	}
	if (t->fn.outliers)
		ks->ops = &kstats_trace_outlier_ops;
	t->fn.exit_extra = t->fn.value.base != KSTATS_BASE_NONE ||
			   t->fn.ret_at_exit || t->fn.outliers || cmd->gap;
	err = kstats_trace_multi(t, cmd);
	if (!err && cmd->gap)
		err = kstats_trace_gap(t, cmd);
	if (!err && t->fn.value.base != KSTATS_BASE_NONE)
		err = kstats_negative_enable(ks, true);
	if (!err && t->fn.by.kind != KSTATS_BY_NONE)
		err = kstats_trace_family(t, cmd);
	if (!err)
		err = kstats_trace_setup(t, cmd);
	if (err)
		goto fail;
	if (t->mech <= KSTATS_MECH_KRETPROBE &&
	    t->fn.value.base == KSTATS_BASE_NONE)
		kstats_trace_calibrate(t);

	kstats_trace_origin(cmd, origin, sizeof(origin));
	if (t->fn.gap)
		err = kstats_publish(t->fn.gap, "gap", t->why);
	if (!err)
		err = kstats_publish(ks, origin, t->why);
	t->why = NULL;
	if (!err)
		return 0;
fail:
	t->why = NULL;
	kstats_drop(ks);
	return err;
}

/**
 * kstats_trace_module_init() - at module load: what the mechanisms need
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int kstats_trace_module_init(void)
{
	int err = kstats_counter_init();

	if (err)
		return err;
	err = kstats_direct_init();
	if (err)
		kstats_counter_exit();
	return err;
}

/**
 * kstats_trace_module_exit() - at module unload, once every node is removed
 *
 * Lets out a task still in the direct trampoline's last instructions, if
 * one is seen (kstats_direct_exit()); waits for no call in flight.
 *
 * Context: process; may sleep.
 */
void kstats_trace_module_exit(void)
{
	kstats_direct_exit();
	kstats_counter_exit();
}
