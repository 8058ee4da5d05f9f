/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace node, shared by the files of the trace layer that make and
 * feed it: the node's core (kstats_node.c), its functions
 * (kstats_function.c), its sections (kstats_section.c) and its
 * tracepoints (kstats_tracepoint.c).  The handlers' inline helpers are
 * here, so that a tracepoint's probe inlines a section's start and end
 * (kstats_tp_chain()) as a section's own handlers do.  Private to trace/.
 */
#ifndef _KSTATS_NODE_H
#define _KSTATS_NODE_H

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>

#include "kstats_cmd.h"
#include "kstats_counter.h"
#include "kstats_family.h"
#include "kstats_fn.h"
#include "kstats_internal.h"
#include "kstats_outlier.h"
#include "kstats_pair.h"
#include "kstats_point.h"

/*
 * A probe point or function as written: as long as a whole command, so
 * that none can be cut short.
 */
#define KSTATS_SPEC_MAX		KSTATS_CMD_MAX

/* "# source mechanism" of each (kstats_node.c). */
extern const char * const kstats_mech_names[];

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

/* The mechanism a function node asked for ("mech"), or the best one. */
enum kstats_mech_want {
	KSTATS_WANT_ANY,
	KSTATS_WANT_DIRECT,
	KSTATS_WANT_FPROBE,
	KSTATS_WANT_KRETPROBE,
};

/*
 * The events kstats has typed probes for have KSTATS_TP_TYPED_ARGS
 * arguments at most (checked at build, KSTATS_TP_POINTS()), passed on in
 * registers on either architecture.
 */
#define KSTATS_TP_TYPED_ARGS	4

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
 * (kstats_trace_delta()), or a missed sample.  Return: whether it was
 * recorded (not missed, nor left out by "over" or "under").
 */
static __always_inline notrace bool
kstats_section_done(struct kstats_trace *t, u64 now, u64 ts, u32 cpu,
		    u32 fam, bool family)
{
	struct kstats *ks = t->fn.ks;
	u64 v;

	if (!kstats_trace_delta(t, now, ts, cpu, &v)) {
		kstats_record_missed(ks);
		return false;
	}
	/* Out of "over V under V": not lost, but left out, and counted. */
	if (unlikely(v < t->over)) {
		atomic64_inc(&t->nr_short);
		return false;
	}
	if (unlikely(v > t->under)) {
		atomic64_inc(&t->nr_long);
		return false;
	}
	kstats_outlier_check(t->fn.outliers, v, fam, family, NULL);
	if (family)
		kstats_family_record(ks, fam, v);
	else
		kstats_trace_record(ks, v);
	return true;
}

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

struct kstats_btf_func;

/* kstats_node.c */
int kstats_kprobe_start(struct kprobe *kp, struct pt_regs *regs);
int kstats_kprobe_end(struct kprobe *kp, struct pt_regs *regs);
int kstats_register_point(struct kstats_trace *t, struct kstats_point *p,
			  const struct kstats_point_spec *ps,
			  enum kstats_tp_role role, kprobe_pre_handler_t kp_fn);
void kstats_trace_types(struct kstats_trace *t, struct kstats_point *p,
			const char *what, bool tp, const char *mod);
bool kstats_trace_reads_types(const struct kstats_trace *t,
			      const struct kstats_point *p);
void kstats_trace_types_from(struct kstats_trace *t, struct kstats_point *p,
			     const struct kstats_btf_func *f);

/* kstats_function.c */
int kstats_check_symbol(struct kstats_trace *t, const char *word,
			const char *spec, unsigned int offset,
			bool allow_own, unsigned long *addrp);
int kstats_register_function(struct kstats_trace *t,
			     enum kstats_mech_want want,
			     unsigned int maxactive, const char *word);
void kstats_unregister_function(struct kstats_trace *t);
enum kstats_mech_want kstats_mech_wanted(const char *mech);
int kstats_function_setup(struct kstats_trace *t, struct kstats_cmd *cmd,
			  enum kstats_mech_want want);
int kstats_trace_multi(struct kstats_trace *t, struct kstats_cmd *cmd);
int kstats_trace_gap(struct kstats_trace *t, struct kstats_cmd *cmd);

/* kstats_section.c */
void kstats_section_start(struct kstats_point *p,
			  const struct kstats_args *a);
void kstats_section_end(struct kstats_point *p, const struct kstats_args *a);
void kstats_section_start_plain(struct kstats_point *p, u64 key);
void kstats_section_start_arg(struct kstats_point *p, u64 key);
void kstats_section_end_plain(struct kstats_point *p, u64 key);
void kstats_section_end_arg(struct kstats_point *p, u64 key);
void kstats_section_end_table(struct kstats_point *p, u64 now);
int kstats_register_kprobe(struct kstats_trace *t, struct kstats_point *p,
			   const struct kstats_point_spec *ps,
			   kprobe_pre_handler_t kp_fn);
int kstats_section_setup(struct kstats_trace *t, struct kstats_cmd *cmd);
void kstats_section_show(struct kstats_trace *t, struct seq_file *m,
			 char *buf, size_t size);

/* kstats_tracepoint.c */
void *kstats_tp_lean(const struct kstats_trace *t,
		     const struct kstats_point *p, enum kstats_tp_role role);
void *kstats_tp_probe(const char *group, const char *event, bool *typed);
int kstats_register_tracepoint(struct kstats_trace *t, struct kstats_point *p,
			       const struct kstats_point_spec *ps,
			       enum kstats_tp_role role);
void kstats_put_point(struct kstats_point *p);

#endif /* _KSTATS_NODE_H */
