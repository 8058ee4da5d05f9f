// SPDX-License-Identifier: GPL-2.0
/*
 * A trace node's section, between two probe points (sym[+off] kprobes or
 * tracepoints): its points' registration, its setup and its lines of the
 * node's header.  What its probes do at a start and an end is
 * kstats_section_handlers.c's; the probes of its tracepoints are
 * kstats_tracepoint.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "kstats_cmd.h"
#include "kstats_errors.h"
#include "kstats_node.h"
#include "kstats_syms.h"

/*
 * Register a section's point at "SYM[+OFF]" (kstats_register_point()): a
 * kprobe whose handler is @kp_fn.  A refusal is noted at @ps's word.
 */
int kstats_register_kprobe(struct kstats_trace *t, struct kstats_point *p,
			   const struct kstats_point_spec *ps,
			   kprobe_pre_handler_t kp_fn)
{
	const char *name = t->fn.ks->name, *spec = ps->text;
	struct kstats_refusal *why = t->why;
	unsigned long addr;
	int err;

	/* the symbol alone, which the kprobe and the header name */
	strscpy(p->spec, ps->name, sizeof(p->spec));
	err = kstats_check_symbol(t, spec, p->spec, ps->off, false, &addr);
	if (err)
		return err;
	/* At a function's entry, its arguments are where its type says. */
	if (!ps->off) {
		char mod[MODULE_NAME_LEN];

		kstats_syms_module(addr, mod, sizeof(mod));
		kstats_trace_types(t, p, p->spec, false, mod[0] ? mod : NULL);
	}
	p->kp.symbol_name = p->spec;
	p->kp.offset = ps->off;
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

/*
 * Register one end of a section or the tracepoint of inter-arrivals: a
 * tracepoint's probe of @role (kstats_register_tracepoint()), a kprobe's
 * @kp_fn (kstats_register_kprobe()).  @ps is where the command said, as
 * the grammar split it, whose word a refusal is noted at; or a point
 * kstats adds.
 */
int kstats_register_point(struct kstats_trace *t, struct kstats_point *p,
			  const struct kstats_point_spec *ps,
			  enum kstats_tp_role role, kprobe_pre_handler_t kp_fn)
{
	p->t = t;
	if (strscpy(p->spec, ps->text, sizeof(p->spec)) < 0) {
		kstats_refuse(t->why, ps->text, t->fn.ks->name,
			      "probe point '%.32s...' longer than %d characters",
			      ps->text, KSTATS_SPEC_MAX);
		return -ENAMETOOLONG;
	}
	if (ps->tp)
		return kstats_register_tracepoint(t, p, ps, role);
	return kstats_register_kprobe(t, p, ps, kp_fn);
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
void kstats_section_show(struct kstats_trace *t, struct seq_file *m,
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
/* Whether @ps is a tracepoint whose event has a probe of its own. */
static bool kstats_tp_spec_typed(const struct kstats_point_spec *ps)
{
	bool typed;

	if (!ps->tp)
		return false;
	kstats_tp_probe(ps->name, ps->event, &typed);
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
	const struct kstats_point_spec *specs[KSTATS_SECTION_STARTS + 1];
	unsigned int i, j, n = 0;

	pts[n] = &t->end;
	specs[n++] = &cmd->where[KSTATS_POINT_END];
	pts[n] = &t->start;
	specs[n++] = &cmd->where[KSTATS_POINT_START];
	for (i = 0; i < t->nr_more; i++) {
		pts[n] = &t->more[i];
		specs[n++] = &cmd->where[KSTATS_POINT_END + 1 + i];
	}
	for (i = 1; i < n; i++) {
		if (!kstats_tp_spec_typed(specs[i]) ||
		    kstats_tp_lean(t, pts[i], KSTATS_TP_START))
			continue;
		for (j = 0; j < i; j++) {
			if (pts[j]->head || strcmp(specs[j]->text, specs[i]->text) ||
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
				 struct kstats_point *p,
				 const struct kstats_point_spec *ps)
{
	return kstats_register_point(t, p, ps, KSTATS_TP_START,
				     kstats_kprobe_start);
}

/*
 * The tracepoints a section adds: the switch of a section keyed by the
 * task, and those of exiting and freed tasks.
 */
static const struct kstats_point_spec kstats_sched_switch = {
	.text = "tp:sched:sched_switch",
	.name = "sched",
	.event = "sched_switch",
	.tp = true,
};

static const struct kstats_point_spec kstats_sched_process_exit = {
	.text = "tp:sched:sched_process_exit",
	.name = "sched",
	.event = "sched_process_exit",
	.tp = true,
};

static const struct kstats_point_spec kstats_sched_process_free = {
	.text = "tp:sched:sched_process_free",
	.name = "sched",
	.event = "sched_process_free",
	.tp = true,
};

/*
 * A section: its table of starts in flight, for a section keyed by the
 * task its switch (kstats_pair_switch()), the end, then the starts (so
 * that no start is held before its end can come), and the tracepoints of
 * exiting and freed tasks, whose starts are dropped.
 */
int kstats_section_setup(struct kstats_trace *t, struct kstats_cmd *cmd)
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
	/* "why" follows the task between its points: the generic handlers */
	if (t->fn.why) {
		t->start.rich = true;
		t->end.rich = true;
		for (i = 0; i < t->nr_more; i++)
			t->more[i].rich = true;
	}
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
		err = kstats_register_point(t, &t->sw, &kstats_sched_switch,
					    KSTATS_TP_SWITCH, NULL);
	if (!err)
		err = kstats_register_point(t, &t->end,
					    &cmd->where[KSTATS_POINT_END],
					    KSTATS_TP_END, kstats_kprobe_end);
	if (!err)
		err = kstats_register_start(t, &t->start,
					    &cmd->where[KSTATS_POINT_START]);
	for (i = 0; !err && i < t->nr_more; i++)
		err = kstats_register_start(t, &t->more[i],
					    &cmd->where[KSTATS_POINT_END + 1 + i]);
	if (err)
		return err;
	/* no refusal: the section works without them, the log says so */
	why = t->why;
	t->why = NULL;
	if (kstats_register_point(t, &t->exit, &kstats_sched_process_exit,
				  KSTATS_TP_EXIT, NULL) ||
	    kstats_register_point(t, &t->free, &kstats_sched_process_free,
				  KSTATS_TP_EXIT, NULL))
		pr_warn_ratelimited("%s: exiting tasks not seen: their starts leave only when evicted\n",
				    t->fn.ks->name);
	t->why = why;
	return 0;
}

