// SPDX-License-Identifier: GPL-2.0
/*
 * A trace node's function: the duration of a kernel function, entry to
 * return on the same task, through one of the mechanisms of kstats_fn.h,
 * tried best first: kstats' own direct trampoline (kstats_direct.c),
 * fprobe (kstats_fprobe.c), a kretprobe (kstats_kretprobe.c), or for a
 * value taken at the entry alone a kprobe (kstats_kprobe.c); of several
 * functions at once (kstats_multi.c), and of a user program's function
 * (kstats_uprobe.c).  The symbols kstats refuses to probe: its own, and
 * the clock functions its handlers call.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_cmd.h"
#include "kstats_direct.h"
#include "kstats_errors.h"
#include "kstats_multi.h"
#include "kstats_node.h"
#include "kstats_syms.h"
#include "kstats_uprobe.h"

/* The mechanisms by name, as a node's header and its fallbacks show them. */
const char * const kstats_mech_names[] = {
	[KSTATS_MECH_DIRECT] = "direct",
	[KSTATS_MECH_FPROBE] = "fprobe",
	[KSTATS_MECH_KRETPROBE] = "kretprobe",
	[KSTATS_MECH_KPROBE] = "kprobe",
	[KSTATS_MECH_SECTION] = "section",
	[KSTATS_MECH_ARRIVAL] = "tracepoint",
	[KSTATS_MECH_UPROBE] = "uprobe",
};

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
int kstats_check_symbol(struct kstats_trace *t, const char *word,
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
int kstats_register_function(struct kstats_trace *t,
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

/* Detach the node's function(s): its mechanism's, and each fallback's. */
void kstats_unregister_function(struct kstats_trace *t)
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

/* A mechanism that "mech" names and this kernel has, or ANY for none. */
enum kstats_mech_want kstats_mech_wanted(const char *mech)
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

/*
 * A function node's probe (kstats_trace_setup()): of a user program's
 * function, of several functions, or of one, by the mechanism @want.
 */
int kstats_function_setup(struct kstats_trace *t, struct kstats_cmd *cmd,
			  enum kstats_mech_want want)
{
	const char *name = t->fn.ks->name;
	char mod[MODULE_NAME_LEN];
	int err;

	if (kstats_uprobe_spec(cmd->target))
		return kstats_trace_user(t, cmd);
	if (t->fn.multi) {
		/* the glob or list, which the parser bounded */
		strscpy(t->target, cmd->target, sizeof(t->target));
		t->maxactive = cmd->maxactive;
		return kstats_register_multi(t, want, cmd->maxactive,
					     cmd->target);
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
int kstats_trace_multi(struct kstats_trace *t, struct kstats_cmd *cmd)
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
int kstats_trace_gap(struct kstats_trace *t, struct kstats_cmd *cmd)
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

