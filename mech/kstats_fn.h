/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A traced function, as the mechanisms that time it see it, and the one
 * interface they share (struct kstats_mech_ops): kstats_direct.c (the
 * trampoline), kstats_fprobe.c, kstats_kretprobe.c and kstats_kprobe.c
 * (the entry alone) each fill one.  kstats_function.c drives a function
 * node through the table only, trying the best mechanism first.
 *
 * What a probe does at the entry and the return of a call (stamp the
 * time, record the duration; or check the filters and take a value) is
 * here, inline, so that every mechanism's handlers compile it with their
 * clock and frac_bits as constants.
 */
#ifndef _KSTATS_FN_H
#define _KSTATS_FN_H

#include <linux/ptrace.h>
#include <linux/smp.h>

#include "kstats.h"
#include "kstats_family.h"
#include "kstats_outlier.h"
#include "kstats_point.h"
#include "kstats_why.h"

struct kstats_multi;
struct seq_file;

/**
 * struct kstats_fn - a function a node times, or takes values of
 * @ks: the distribution
 * @gap: the NAME.gap sibling (time from a return to the next entry on a
 *	CPU), or NULL
 * @last_end: per CPU, the last return, for @gap
 * @target: the function's name; empty for the calibration's function,
 *	kstats_calibrate_target()
 * @addr: its address
 * @multi: the functions of a node over several ("trace GLOB", "trace
 *	F1,F2"), which @target names; NULL for one
 * @value: what the node records instead of a duration, if anything
 * @filter: whom and what it counts
 * @by: what the node is split by, one histogram per key (@ks->family)
 * @rich: it has a value, filters or a family, so takes the handlers that
 *	check them
 * @entry_only: its value and filters need no return: the entry alone
 * @ret_at_exit: a duration whose filters or key read the return value
 * @ret_at_exit_key: its family's key is the return value's, taken then
 * @exit_extra: the return has more to do than record a duration: a value,
 *	conditions or a key on ret, outliers, the gap sibling's last return
 *	(the direct trampoline's rich exit takes its slower path)
 * @outliers: the samples it keeps with their context ("slow", "top"), or
 *	NULL: every handler compares its sample with their bar, but for the
 *	direct trampoline's plain exits, taken by the nodes without them
 * @why: "why": each call's time split (kstats_why.h), or NULL; such a
 *	node is @rich and @exit_extra, whose handlers split it
 * @mech_data: the mechanism's own, from its attach to its release
 */
struct kstats_fn {
	struct kstats *ks;
	struct kstats *gap;
	u64 __percpu *last_end;
	const char *target;
	unsigned long addr;
	struct kstats_multi *multi;
	struct kstats_value value;
	struct kstats_filter filter;
	struct kstats_by by;
	bool rich;
	bool entry_only;
	bool ret_at_exit;
	bool ret_at_exit_key;
	bool exit_extra;
	struct kstats_outliers *outliers;
	struct kstats_why *why;
	void *mech_data;
};

/* What a function's entry leaves for its return, in the probe's data. */
struct kstats_entry {
	u64 ts;
	int cpu;
	u64 val;	/* an argument taken at entry, for a value node */
	u32 fam;	/* the family's key index, taken at entry */
};

/* The mechanisms, in the order they are tried; then the other nodes'. */
enum kstats_mech {
	KSTATS_MECH_DIRECT,		/* kstats' trampoline (kstats_direct.c) */
	KSTATS_MECH_FPROBE,
	KSTATS_MECH_KRETPROBE,
	KSTATS_MECH_KPROBE,		/* a function's entry only */
	KSTATS_MECH_SECTION,		/* kprobes and/or tracepoints */
	KSTATS_MECH_ARRIVAL,		/* one tracepoint */
	KSTATS_MECH_UPROBE,		/* a user function (kstats_uprobe.c) */
};

/**
 * struct kstats_mech_ops - a mechanism that times a function
 * @mech: which, for the header ("# source mechanism")
 * @attach: start probing @fn; @maxactive: calls in flight to provide for
 *	(0: the mechanism's default); on failure, @why says why, for the
 *	kernel log, and nothing is left attached
 * @detach: stop, and wait for the handlers that run (a call still in
 *	flight may return later: the mechanism keeps what it needs)
 * @release: free what @attach allocated, with the node's memory (from an
 *	irq_work: must not sleep); may be NULL
 * @missed: the mechanism's own count of calls it could not follow
 * @describe: the mechanism's own fields for the header line, each as
 *	" key value"; may be NULL
 *
 * Calibration is the same attach on kstats_calibrate_target() (@fn's
 * target empty), with the node's clock: the median of 1000 calls is the
 * floor the mechanism adds to every sample.
 */
struct kstats_mech_ops {
	enum kstats_mech mech;
	int (*attach)(struct kstats_fn *fn, unsigned int maxactive,
		      const char **why);
	void (*detach)(struct kstats_fn *fn);
	void (*release)(struct kstats_fn *fn);
	u64 (*missed)(const struct kstats_fn *fn);
	void (*describe)(const struct kstats_fn *fn, struct seq_file *m);
};

#ifdef KSTATS_HAVE_DIRECT
extern const struct kstats_mech_ops kstats_mech_direct;
#endif
#ifdef CONFIG_FPROBE
extern const struct kstats_mech_ops kstats_mech_fprobe;
#endif
extern const struct kstats_mech_ops kstats_mech_kretprobe;
extern const struct kstats_mech_ops kstats_mech_kprobe;
#ifdef KSTATS_HAVE_UPROBE
extern const struct kstats_mech_ops kstats_mech_uprobe;
#endif

void kstats_calibrate_target(void);

/* Which handlers a function node takes. */
enum kstats_fn_kind {
	KSTATS_FN_FAST,		/* a duration, clock and frac_bits constant */
	KSTATS_FN_GAP,		/* a duration, and the gap sibling */
	KSTATS_FN_RICH,		/* values and filters */
	KSTATS_FN_FAMILY,	/* the same, one histogram per key */
};

static inline enum kstats_fn_kind kstats_fn_kind(const struct kstats_fn *fn)
{
	if (fn->rich)
		return fn->ks->family ? KSTATS_FN_FAMILY : KSTATS_FN_RICH;
	if (fn->gap || fn->ks->clock > KSTATS_CLOCK_TSC)
		return KSTATS_FN_GAP;
	return KSTATS_FN_FAST;
}

/* For the fast handlers' generators: kstats_clock_##c names the clock. */
#define kstats_clock_ktime	KSTATS_CLOCK_KTIME
#define kstats_clock_local	KSTATS_CLOCK_LOCAL
#define kstats_clock_tsc	KSTATS_CLOCK_TSC

static_assert(KSTATS_MAX_FRAC_BITS == 5, "kstats_fn_fast.h lists 0 to 5");

/*
 * What every function handler does: the entry stamps the time (and, for
 * local_clock(), the CPU); the return records the duration.  With a
 * constant @clock and @frac_bits (the fast handlers) the dispatch folds
 * away; the generic handlers pass the node's own.
 */
static __always_inline notrace u64 kstats_time_enter(struct kstats_entry *e,
						     enum kstats_clock clock)
{
	u64 now = kstats_clock_now(clock);

	e->ts = now;
	if (clock == KSTATS_CLOCK_LOCAL)
		e->cpu = raw_smp_processor_id();
	return now;
}

/*
 * Record the duration, and keep it if it is one of @o's outliers (its
 * stack from @regs, the probe's registers at the return).
 * Return: false when the sample was dropped and counted as missed.
 */
static __always_inline notrace bool kstats_time_exit(struct kstats *ks,
						     struct kstats_outliers *o,
						     struct pt_regs *regs,
						     struct kstats_entry *e,
						     enum kstats_clock clock,
						     unsigned int frac_bits,
						     u64 *now)
{
	*now = kstats_clock_now(clock);
	/* local_clock() readings of two CPUs do not compare: drop, count. */
	if (clock == KSTATS_CLOCK_LOCAL && e->cpu != raw_smp_processor_id()) {
		kstats_record_missed(ks);
		return false;
	}
	__KSTATS_RECORD(ks, *now - e->ts, frac_bits);
	kstats_outlier_check(o, *now - e->ts, 0, false, regs);
	return true;
}

/* The generic handlers: any clock and frac_bits, and the gap sibling. */
static __always_inline notrace void kstats_fn_enter(struct kstats_fn *fn,
						    struct kstats_entry *e)
{
	u64 now = kstats_time_enter(e, fn->ks->clock);

	if (fn->gap) {
		u64 last = this_cpu_read(*fn->last_end);

		if (last && now > last)
			kstats_record(fn->gap, now - last);
	}
}

static __always_inline notrace void kstats_fn_exit(struct kstats_fn *fn,
						   struct pt_regs *regs,
						   struct kstats_entry *e)
{
	struct kstats *ks = fn->ks;
	u64 now;

	if (kstats_time_exit(ks, fn->outliers, regs, e, ks->clock,
			     ks->frac_bits, &now) && fn->gap)
		this_cpu_write(*fn->last_end, now);
}

/*
 * The family index of this event's key @by in @ks: "other" for a key that
 * cannot be read, so that its sample still counts in the total and in
 * some key.
 */
static __always_inline notrace u32 kstats_family_key_by(struct kstats *ks,
							const struct kstats_by *by,
							const struct kstats_args *a)
{
	u64 key[2];

	/* a family by CPU: no lookup, its keys are the per-CPU rows */
	if (kstats_family_per_cpu(ks->family))
		return raw_smp_processor_id();
	if (by->kind == KSTATS_BY_STACK)
		return kstats_family_stack_index(ks->family, a->regs);
	if (!kstats_by_fetch(by, a, key))
		return ks->family->max;
	return kstats_family_index(ks->family, key);
}

/* The family index of this event's key, by the node's own key. */
static __always_inline notrace u32 kstats_fn_family_key(struct kstats_fn *fn,
							const struct kstats_args *a)
{
	return kstats_family_key_by(fn->ks, &fn->by, a);
}

/*
 * A value or a duration of a node with values, filters or a family, and
 * one of its outliers (@o) if it is one, its stack from @regs (or NULL:
 * from here).  The handlers are made twice: @family is a constant, so a
 * node without a family pays nothing for them.
 */
static __always_inline notrace void kstats_rich_record(struct kstats *ks,
						       struct kstats_outliers *o,
						       struct pt_regs *regs,
						       bool family, u32 fam,
						       s64 v)
{
	if (family)
		kstats_family_record_signed(ks, fam, v);
	else
		kstats_record_signed(ks, v);
	kstats_outlier_check(o, v, fam, family, regs);
}

/*
 * The entry of a node with a value or filters: check the task, the CPU
 * and the conditions on arguments, then take an argument or the time.
 * Return: 1 for a call that is not counted, whose return the mechanism
 * then skips; a node whose value and filters need no return value records
 * here (@e may then be NULL), and returns 1 as well.
 */
static __always_inline notrace int kstats_rich_enter(struct kstats_fn *fn,
						     struct pt_regs *regs,
						     struct kstats_entry *e,
						     bool family)
{
	struct kstats_args a = { .regs = regs };
	struct kstats *ks = fn->ks;
	u32 fam = 0;
	u64 v;

	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_ENTRY)) {
	case KSTATS_SKIP:
		return 1;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		return 1;
	default:
		break;
	}
	/* Any key but ret is the entry's: the task and CPU that called. */
	if (family && !kstats_by_uses_ret(&fn->by))
		fam = kstats_fn_family_key(fn, &a);
	if (fn->value.base == KSTATS_BASE_ARG) {
		if (!kstats_value_fetch(&fn->value, &a, &v)) {
			kstats_record_missed(ks);
			return 1;
		}
		if (fn->entry_only) {
			kstats_rich_record(ks, fn->outliers, regs, family, fam, v);
			return 1;
		}
		e->val = v;
	} else if (fn->value.base == KSTATS_BASE_NONE) {
		kstats_time_enter(e, ks->clock);
		if (unlikely(fn->why))
			kstats_why_enter(fn->why, KSTATS_WHY_NEST, 0);
	}
	if (family)
		e->fam = fam;
	return 0;
}

/* The return of such a node: the conditions on ret, then the record. */
static __always_inline notrace void kstats_rich_exit(struct kstats_fn *fn,
						     struct pt_regs *regs,
						     struct kstats_entry *e,
						     bool family)
{
	struct kstats_args a = {
		.regs = regs,
		.ret = regs_return_value(regs),
	};
	struct kstats *ks = fn->ks;
	u32 fam = family ? e->fam : 0;
	struct kstats_why_parts wp;
	bool split = false;
	u64 v, now;

	/* the call's frame goes whether or not its sample is recorded */
	if (unlikely(fn->why)) {
		split = kstats_why_exit(fn->why, 0, &wp);
		kstats_why_set(split ? &wp : NULL);
	}
	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_RETURN)) {
	case KSTATS_SKIP:
		return;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		return;
	default:
		break;
	}
	if (family && kstats_by_uses_ret(&fn->by))
		fam = kstats_fn_family_key(fn, &a);
	switch (fn->value.base) {
	case KSTATS_BASE_RET:
		if (kstats_value_fetch(&fn->value, &a, &v))
			kstats_rich_record(ks, fn->outliers, regs, family, fam, v);
		else
			kstats_record_missed(ks);
		break;
	case KSTATS_BASE_ARG:
		kstats_rich_record(ks, fn->outliers, regs, family, fam, e->val);
		break;
	default:
		if (!family) {
			if (kstats_time_exit(ks, fn->outliers, regs, e,
					     ks->clock, ks->frac_bits, &now) &&
			    unlikely(fn->why))
				kstats_why_account(fn->why, split ? &wp : NULL);
			break;
		}
		now = kstats_clock_now(ks->clock);
		/* local_clock() readings of two CPUs do not compare. */
		if (ks->clock == KSTATS_CLOCK_LOCAL &&
		    e->cpu != raw_smp_processor_id()) {
			kstats_record_missed(ks);
			break;
		}
		kstats_family_record(ks, fam, now - e->ts);
		kstats_outlier_check(fn->outliers, now - e->ts, fam, true,
				     regs);
		if (unlikely(fn->why))
			kstats_why_account(fn->why, split ? &wp : NULL);
		break;
	}
}

#endif /* _KSTATS_FN_H */
