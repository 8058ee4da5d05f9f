// SPDX-License-Identifier: GPL-2.0
/*
 * A trace node's tracepoints: the inter-arrival time of one tracepoint on
 * each CPU (or a value of its arguments), and the tracepoints among a
 * section's points.  Their probes, of the event's own prototype (typed),
 * generic, lean (a section keyed by the task) or shared by a section's
 * points at one event (chained); the look-up of GROUP:EVENT, which the
 * grammar split (struct kstats_point_spec); and their registration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#ifdef KSTATS_HAVE_ARGS_H
#include <linux/args.h>
#endif
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
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
#include "kstats_errors.h"
#include "kstats_node.h"

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
 * probes of their own prototype (KSTATS_TP_TYPED); any other takes a
 * generic probe of as many word-sized arguments as the event has (its
 * BTF's btf_trace_EVENT, kstats_tp_generic_probe()), never more: a probe
 * that took more would read stack slots past its caller's, and a
 * tracepoint called near the top of a stack (irq_vectors:local_timer_entry
 * on an interrupt stack) would fault on the guard page under it.  Without
 * BTF, a probe of the argument registers alone (whatever the caller left
 * in those the event lacks, read but never dereferenced unless the value
 * says so, and then through copy_from_kernel_nofault()).  The x86-64 and
 * arm64 calling conventions let a probe of word arguments take an event's
 * narrower ones; C does not promise it, and a kernel with CONFIG_CFI_CLANG
 * traps on it, so there a tracepoint without a typed probe is refused.
 * Either probe hands the
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

/*
 * The generic probes, one a number of arguments: kstats_tp_generic() with
 * zeros for the arguments the event does not have.
 */
static notrace void kstats_tp_generic_0(void *data)
{
	kstats_tp_generic(data, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_0);

static notrace void kstats_tp_generic_1(void *data, unsigned long a0)
{
	kstats_tp_generic(data, a0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_1);

static notrace void kstats_tp_generic_2(void *data, unsigned long a0,
					unsigned long a1)
{
	kstats_tp_generic(data, a0, a1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_2);

static notrace void kstats_tp_generic_3(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2)
{
	kstats_tp_generic(data, a0, a1, a2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_3);

static notrace void kstats_tp_generic_4(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3)
{
	kstats_tp_generic(data, a0, a1, a2, a3, 0, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_4);

static notrace void kstats_tp_generic_5(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, 0, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_5);

static notrace void kstats_tp_generic_6(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4,
					unsigned long a5)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, 0, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_6);

static notrace void kstats_tp_generic_7(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4,
					unsigned long a5, unsigned long a6)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, a6, 0, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_7);

static notrace void kstats_tp_generic_8(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4,
					unsigned long a5, unsigned long a6,
					unsigned long a7)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, a6, a7, 0, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_8);

static notrace void kstats_tp_generic_9(void *data, unsigned long a0,
					unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4,
					unsigned long a5, unsigned long a6,
					unsigned long a7, unsigned long a8)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, a6, a7, a8, 0, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_9);

static notrace void kstats_tp_generic_10(void *data, unsigned long a0,
					 unsigned long a1, unsigned long a2,
					 unsigned long a3, unsigned long a4,
					 unsigned long a5, unsigned long a6,
					 unsigned long a7, unsigned long a8,
					 unsigned long a9)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, 0, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_10);

static notrace void kstats_tp_generic_11(void *data, unsigned long a0,
					 unsigned long a1, unsigned long a2,
					 unsigned long a3, unsigned long a4,
					 unsigned long a5, unsigned long a6,
					 unsigned long a7, unsigned long a8,
					 unsigned long a9, unsigned long a10)
{
	kstats_tp_generic(data, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, 0);
}

NOKPROBE_SYMBOL(kstats_tp_generic_11);

static void *const kstats_tp_generics[] = {
	kstats_tp_generic_0, kstats_tp_generic_1, kstats_tp_generic_2,
	kstats_tp_generic_3, kstats_tp_generic_4, kstats_tp_generic_5,
	kstats_tp_generic_6, kstats_tp_generic_7, kstats_tp_generic_8,
	kstats_tp_generic_9, kstats_tp_generic_10, kstats_tp_generic_11,
	kstats_tp_generic,
};

/* The argument registers a probe has after @data. */
#if defined(CONFIG_ARM64)
#define KSTATS_TP_REG_ARGS	7
#else
#define KSTATS_TP_REG_ARGS	5
#endif

/*
 * The generic probe for an event whose probe prototype @f says (its
 * BTF's): one of the event's number of argument words; without BTF
 * (@f NULL), one of the argument registers alone.
 */
static void *kstats_tp_generic_probe(const struct kstats_btf_func *f)
{
	unsigned int n = KSTATS_TP_REG_ARGS;

	if (f)
		n = min_t(unsigned int, f->nregs + f->nstack, KSTATS_MAX_ARGS);
	return kstats_tp_generics[n];
}

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
void *kstats_tp_lean(const struct kstats_trace *t,
		     const struct kstats_point *p, enum kstats_tp_role role)
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
void *kstats_tp_probe(const char *group, const char *event, bool *typed)
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

#ifdef CONFIG_EVENT_TRACING
/*
 * "tp:GROUP:EVENT": the trace event GROUP/EVENT, as tracefs lists it under
 * events/, of the kernel or of a module.  trace_get_event_file() takes a
 * reference on the event, which pins its module; but a module still in its
 * init may yet fail and be freed whatever its references, so its events
 * are refused until it is live.
 */
static int kstats_find_tracepoint(struct kstats_point *p, const char *word,
				  const char *group, const char *event)
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
				  const char *group, const char *event)
{
	kstats_refuse(p->t->why, word, p->t->fn.ks->name,
		      "tracepoints need a kernel with CONFIG_EVENT_TRACING");
	return -EOPNOTSUPP;
}
#endif

/*
 * Register a point at "tp:GROUP:EVENT" (kstats_register_point()): a
 * section's, or the tracepoint of inter-arrivals; its probe, of @role.
 * A refusal is noted at @ps's word.
 */
int kstats_register_tracepoint(struct kstats_trace *t, struct kstats_point *p,
			       const struct kstats_point_spec *ps,
			       enum kstats_tp_role role)
{
	const char *name = t->fn.ks->name, *spec = ps->text;
	struct kstats_refusal *why = t->why;
	struct kstats_point *typed_at;
	struct kstats_btf_func f;
	bool types, btf = false;
	struct module *mod;
	void *lean;
	int err;

	p->role = role;
	/* what reads the arguments: an exit's task, a rich node's */
	if (role == KSTATS_TP_EXIT)
		p->rich = true;
	else if (role == KSTATS_TP_ARRIVAL)
		p->rich = t->fn.rich;
	p->tp_fn = kstats_tp_probe(ps->name, ps->event, &p->typed);
	if (!p->typed && IS_ENABLED(CONFIG_CFI_CLANG)) {
		kstats_refuse(why, spec, name,
			      "tracepoint %s:%s has no probe of its own prototype in kstats, and this kernel checks the type of indirect calls (CONFIG_CFI_CLANG)",
			      ps->name, ps->event);
		return -EOPNOTSUPP;
	}
	err = kstats_find_tracepoint(p, spec, ps->name, ps->event);
	if (err)
		return err;
	mod = p->file->event_call->module;
	lean = kstats_tp_lean(t, p, role);
	/* the node's types, or its point's: what its options read */
	typed_at = t->mech == KSTATS_MECH_ARRIVAL ? NULL : p;
	types = role != KSTATS_TP_EXIT && role != KSTATS_TP_SWITCH &&
		kstats_trace_reads_types(t, typed_at);
	/* the event's BTF, read once for the generic probe and the types */
	if (types || (!p->typed && !lean))
		btf = !kstats_btf_tracepoint(ps->event, mod ? mod->name : NULL,
					     &f);
	if (!p->typed && !lean)
		p->tp_fn = kstats_tp_generic_probe(btf ? &f : NULL);
	p->tp_fn = lean ?: p->tp_fn;
	if (types && btf)
		kstats_trace_types_from(t, typed_at, &f);
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

/*
 * Let go of a point's trace event file (kstats_find_tracepoint()), once
 * no handler runs (kstats_trace_unregister()).
 */
void kstats_put_point(struct kstats_point *p)
{
#ifdef CONFIG_EVENT_TRACING
	if (p->file)
		trace_put_event_file(p->file);
#endif
	p->file = NULL;
}

