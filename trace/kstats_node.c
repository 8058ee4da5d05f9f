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
 *
 * Here, the node's core: its making (kstats_trace_create()), its header,
 * reset, retirement and release, and the calibration.  Its probes are
 * kstats_function.c's, kstats_section.c's and kstats_tracepoint.c's,
 * which share struct kstats_trace (kstats_node.h); where they go is the
 * grammar's to read from the command (struct kstats_point_spec).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "kstats_btf.h"
#include "kstats_cmd.h"
#include "kstats_direct.h"
#include "kstats_errors.h"
#include "kstats_family_view.h"
#include "kstats_multi.h"
#include "kstats_node.h"
#include "kstats_trace.h"

/* Calls of the empty function that measure a node's probe floor. */
#define KSTATS_CALIBRATE_CALLS	1000

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
	kstats_why_reset(t->fn.why);
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
	kstats_why_show(t->fn.why, m);
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
	/* the scheduler's probes with the last "why" node */
	kstats_why_retire(t->fn.why);
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
	kstats_why_free(t->fn.why);
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
	if (cmd->cfg.history_slices)
		n += scnprintf(buf + n, size - n, " history %llu %u",
			       cmd->cfg.history_slice_ns,
			       cmd->cfg.history_slices);
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

/* How the keys of each kind are printed: the SHOWS of kstats_by_key_list.h. */
static const u8 kstats_trace_by_shows[KSTATS_BY_VALUE] = {
#define KSTATS_BY_KEY(id, shows, ...)	\
	[KSTATS_BY_##id] = KSTATS_KEYS_##shows,
#include "kstats_by_key_list.h"
};

/* "by KEY max N": the node's keys, made before its probes can fire. */
static int kstats_trace_family(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	struct kstats *ks = t->fn.ks;
	enum kstats_keys keys = KSTATS_KEYS_NUMBER;
	char by[KSTATS_FAMILY_BY_MAX];
	int err;

	if (kstats_trace_by_rows(cmd))
		keys = KSTATS_KEYS_CPU;
	else if (cmd->by.kind != KSTATS_BY_VALUE)
		keys = kstats_trace_by_shows[cmd->by.kind];
	else if (cmd->by.str)
		keys = KSTATS_KEYS_NAME;
	else if (kstats_by_is_signed(&cmd->by))
		keys = KSTATS_KEYS_SIGNED;
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
 * The node's probes, by its kind: a section, a tracepoint's
 * inter-arrivals (or values), or a function (kstats_function_setup()).
 */
static int kstats_trace_setup(struct kstats_trace *t, struct kstats_cmd *cmd)
{
	const struct kstats_point_spec *tp = &cmd->where[KSTATS_POINT_START];
	const char *name = t->fn.ks->name;
	enum kstats_mech_want want = KSTATS_WANT_ANY;

	if (cmd->mech) {
		want = kstats_mech_wanted(cmd->mech);
		if (want == KSTATS_WANT_ANY) {
			kstats_refuse(t->why, cmd->mech, name,
				      "mechanism '%s' is not available: use direct (x86-64, arm64 with ftrace direct calls), fprobe (kernels with CONFIG_FPROBE) or kretprobe",
				      cmd->mech);
			return -EINVAL;
		}
	}

	if (cmd->start || tp->tp)
		t->counter = t->fn.ks->clock == KSTATS_CLOCK_KTIME &&
			     kstats_counter_is_ktime();
	if (cmd->start)
		return kstats_section_setup(t, cmd);
	if (tp->tp) {
		t->mech = KSTATS_MECH_ARRIVAL;
		t->marks = alloc_percpu_gfp(struct kstats_mark, KSTATS_GFP);
		if (!t->marks)
			return -ENOMEM;
		return kstats_register_point(t, &t->start, tp,
					     KSTATS_TP_ARRIVAL, NULL);
	}
	return kstats_function_setup(t, cmd, want);
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

	if (cmd->split) {
		t->fn.why = kstats_why_alloc();
		if (IS_ERR(t->fn.why)) {
			err = PTR_ERR(t->fn.why);
			t->fn.why = NULL;
			kstats_refuse(t->why, cmd->at.split, ks->name,
				      "why: no memory for its table of tasks, or a tracepoint it needs not probed (error %d)",
				      err);
			goto fail;
		}
		/* its handlers are those that split a call */
		t->fn.rich = true;
		cmd->outlier.why = true;
	}
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
			   t->fn.ret_at_exit || t->fn.outliers || cmd->gap ||
			   t->fn.why;
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
