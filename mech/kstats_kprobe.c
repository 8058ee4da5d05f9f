// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe mechanism: a function's entry alone, for a node whose value
 * and filters need no return (an argument, conditions on arguments),
 * where fprobe is missing.  Nothing waits for the return, so nothing is
 * lost to a full table of instances.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/slab.h>

#include "kstats_fn.h"
#include "kstats_internal.h"

struct kstats_kprobe {
	struct kprobe kp;
	struct kstats_fn *fn;
};

static notrace int kstats_kprobe_entry(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_fn *fn = container_of(kp, struct kstats_kprobe, kp)->fn;

	if (fn->ks->family)
		kstats_rich_enter(fn, regs, NULL, true);
	else
		kstats_rich_enter(fn, regs, NULL, false);
	return 0;
}

NOKPROBE_SYMBOL(kstats_kprobe_entry);

static int kstats_kprobe_attach(struct kstats_fn *fn, unsigned int maxactive,
				const char **why)
{
	struct kstats_kprobe *p;
	int err;

	*why = "kprobes cannot probe it";
	/* The entry alone has no duration: nothing to calibrate. */
	if (!fn->entry_only || !fn->target[0])
		return -EINVAL;
	p = kzalloc(sizeof(*p), KSTATS_GFP);
	if (!p) {
		*why = "out of memory";
		return -ENOMEM;
	}
	p->fn = fn;
	p->kp.symbol_name = fn->target;
	p->kp.pre_handler = kstats_kprobe_entry;
	err = register_kprobe(&p->kp);
	if (err) {
		kfree(p);
		return err;
	}
	fn->mech_data = p;
	return 0;
}

static void kstats_kprobe_detach(struct kstats_fn *fn)
{
	struct kstats_kprobe *p = fn->mech_data;

	unregister_kprobe(&p->kp);
}

static void kstats_kprobe_release(struct kstats_fn *fn)
{
	kfree(fn->mech_data);
	fn->mech_data = NULL;
}

static u64 kstats_kprobe_missed(const struct kstats_fn *fn)
{
	const struct kstats_kprobe *p = fn->mech_data;

	return READ_ONCE(p->kp.nmissed);
}

const struct kstats_mech_ops kstats_mech_kprobe = {
	.mech = KSTATS_MECH_KPROBE,
	.attach = kstats_kprobe_attach,
	.detach = kstats_kprobe_detach,
	.release = kstats_kprobe_release,
	.missed = kstats_kprobe_missed,
};
