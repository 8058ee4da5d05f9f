// SPDX-License-Identifier: GPL-2.0
/*
 * What a section's probes do at its start and its end: its handlers,
 * which pair a start with its end by a key (the task by default, the
 * CPU, or a value of each point) through the table of starts in flight
 * of kstats_pair.c, an end with no start counted as missed.  Its kprobes'
 * handlers are here; its tracepoints' probes, kstats_tracepoint.c's, call
 * the others.  Its setup is kstats_section.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/sched.h>

#include "kstats_node.h"

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
 * A start of a section (any of them): a further start reads its own
 * family key, the first the node's.  The clock is read last, as an end
 * reads it first: a start its filter refuses reads none, and neither
 * point's own work is in the section's time.
 */
notrace void kstats_section_start(struct kstats_point *p,
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
	else if (unlikely(t->fn.why))
		kstats_why_enter(t->fn.why, t->pair.outer ? KSTATS_WHY_KEEP :
				 KSTATS_WHY_REPLACE, match);
}

NOKPROBE_SYMBOL(kstats_section_start);

/*
 * A "why" section's end (its every point keyed by the task, so its start
 * was this task's): the split of the time since, kept with its outlier
 * and summed if the sample is recorded.
 */
static noinline notrace void
kstats_section_done_why(struct kstats_trace *t, u64 now, u64 ts, u32 cpu,
			u32 fam, u64 match)
{
	struct kstats_why_parts wp;
	bool split = kstats_why_exit(t->fn.why, match, &wp);

	kstats_why_set(split ? &wp : NULL);
	if (kstats_section_done(t, now, ts, cpu, fam, t->fn.ks->family))
		kstats_why_account(t->fn.why, split ? &wp : NULL);
}

NOKPROBE_SYMBOL(kstats_section_done_why);

/*
 * The end of a section: the time since its start (kstats_section_done());
 * an end with no start in flight is no sample lost: the table counts it
 * as unmatched.
 */
notrace void kstats_section_end(struct kstats_point *p,
				const struct kstats_args *a)
{
	struct kstats_trace *t = p->t;
	u64 key, match, ts, now;
	u32 cpu, fam, here;

	now = kstats_trace_now(t, &here);
	if (!kstats_point_key(t, p, a, &key, &match))
		return;
	if (!kstats_pair_end(&t->pair, key, match, &ts, &cpu, &fam))
		return;
	if (unlikely(t->fn.why)) {
		kstats_section_done_why(t, now, ts, cpu, fam, match);
		return;
	}
	kstats_section_done(t, now, ts, cpu, fam, t->fn.ks->family);
}

NOKPROBE_SYMBOL(kstats_section_end);

notrace int kstats_kprobe_start(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_args a = { .regs = regs };

	kstats_section_start(container_of(kp, struct kstats_point, kp), &a);
	return 0;
}

NOKPROBE_SYMBOL(kstats_kprobe_start);

notrace int kstats_kprobe_end(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_args a = { .regs = regs };

	kstats_section_end(container_of(kp, struct kstats_point, kp), &a);
	return 0;
}

NOKPROBE_SYMBOL(kstats_kprobe_end);

/* The same, now: a lone start reads the clock last. */
static __always_inline notrace void
kstats_section_start_now(struct kstats_point *p, u64 key,
			 enum kstats_reach reach)
{
	u32 cpu;
	u64 now = kstats_trace_now(p->t, &cpu);

	kstats_section_start_at(p, key, now, cpu, reach);
}

noinline notrace void kstats_section_start_plain(struct kstats_point *p,
						 u64 key)
{
	kstats_section_start_now(p, key, KSTATS_REACH_TABLE);
}

NOKPROBE_SYMBOL(kstats_section_start_plain);

/* The same for a start keyed by an argument (@p->keyed, @p->checked). */
noinline notrace void kstats_section_start_arg(struct kstats_point *p,
					       u64 key)
{
	kstats_section_start_now(p, key, KSTATS_REACH_HASHED);
}

NOKPROBE_SYMBOL(kstats_section_start_arg);

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

noinline notrace void kstats_section_end_plain(struct kstats_point *p,
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
noinline notrace void kstats_section_end_arg(struct kstats_point *p,
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
noinline notrace void kstats_section_end_table(struct kstats_point *p,
					       u64 now)
{
	kstats_section_end_at(p, (unsigned long)current, now,
			      KSTATS_REACH_TABLE);
	kstats_pair_clear_switched(&p->t->pair);
}

NOKPROBE_SYMBOL(kstats_section_end_table);
