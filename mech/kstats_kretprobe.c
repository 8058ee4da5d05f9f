// SPDX-License-Identifier: GPL-2.0
/*
 * The kretprobe mechanism: a function timed by a kretprobe, the fallback
 * on kernels without fprobe and for functions ftrace cannot hook.  The
 * start time travels in the instance's data, so recursion, nesting and
 * sleeping pair correctly; a call that finds no free instance is counted
 * as missed (maxactive sets how many there are).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kstats_fn.h"
#include "kstats_internal.h"

/*
 * The kretprobe of one function; @ks and @outliers are @fn's, one load
 * each from the handler.
 */
struct kstats_kretprobe {
	struct kretprobe rp;
	struct kstats *ks;
	struct kstats_outliers *outliers;
	struct kstats_fn *fn;
};

static __always_inline struct kstats_kretprobe *
kstats_krp_of(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct kstats_kretprobe, rp);
}

/* The generic handlers, which also feed the gap sibling. */
static notrace int kstats_krp_entry(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	kstats_fn_enter(kstats_krp_of(ri)->fn, (struct kstats_entry *)ri->data);
	return 0;
}

NOKPROBE_SYMBOL(kstats_krp_entry);

static notrace int kstats_krp_exit(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	kstats_fn_exit(kstats_krp_of(ri)->fn, regs,
		       (struct kstats_entry *)ri->data);
	return 0;
}

NOKPROBE_SYMBOL(kstats_krp_exit);

/*
 * The fast handlers, for function nodes without a gap sibling: one entry
 * handler per clock and one exit handler per clock and frac_bits (0 to 5),
 * picked at attach, as fprobe's (kstats_fprobe.c).
 */
#define KSTATS_FAST_CLOCK(c)						\
static notrace int kstats_krp_entry_##c(struct kretprobe_instance *ri,	\
					struct pt_regs *regs)		\
{									\
	kstats_time_enter((struct kstats_entry *)ri->data,		\
			  kstats_clock_##c);				\
	return 0;							\
}									\
NOKPROBE_SYMBOL(kstats_krp_entry_##c)
#define KSTATS_FAST_BITS(c, b)						\
static notrace int kstats_krp_exit_##c##b(struct kretprobe_instance *ri, \
					  struct pt_regs *regs)		\
{									\
	struct kstats_kretprobe *p = kstats_krp_of(ri);			\
	u64 now;							\
									\
	kstats_time_exit(p->ks, p->outliers, regs,			\
			 (struct kstats_entry *)ri->data,		\
			 kstats_clock_##c, b, &now);			\
	return 0;							\
}									\
NOKPROBE_SYMBOL(kstats_krp_exit_##c##b)
#include "kstats_fn_fast.h"

#define KSTATS_FAST_CLOCK(c)						\
	[kstats_clock_##c] = kstats_krp_entry_##c,
static const kretprobe_handler_t kstats_krp_fast_entry[] = {
#include "kstats_fn_fast.h"
};

#define KSTATS_FAST_BITS(c, b)						\
	[kstats_clock_##c][b] = kstats_krp_exit_##c##b,
static const kretprobe_handler_t
kstats_krp_fast_exit[][KSTATS_MAX_FRAC_BITS + 1] = {
#include "kstats_fn_fast.h"
};

/*
 * The handlers of nodes with values, filters or a family (kstats_fn.h):
 * an entry that returns 1 makes kretprobe skip that call's return.
 */
#define KSTATS_KRP_RICH(sfx, f)						\
static const bool kstats_krp_##sfx##_family = (f);			\
static notrace int kstats_krp_##sfx##_entry(struct kretprobe_instance *ri, \
					    struct pt_regs *regs)	\
{									\
	return kstats_rich_enter(kstats_krp_of(ri)->fn, regs,		\
				 (struct kstats_entry *)ri->data,	\
				 kstats_krp_##sfx##_family);		\
}									\
NOKPROBE_SYMBOL(kstats_krp_##sfx##_entry);				\
static notrace int kstats_krp_##sfx##_exit(struct kretprobe_instance *ri, \
					   struct pt_regs *regs)	\
{									\
	kstats_rich_exit(kstats_krp_of(ri)->fn, regs,			\
			 (struct kstats_entry *)ri->data,		\
			 kstats_krp_##sfx##_family);			\
	return 0;							\
}									\
NOKPROBE_SYMBOL(kstats_krp_##sfx##_exit)

KSTATS_KRP_RICH(rich, false);
KSTATS_KRP_RICH(family, true);

static int kstats_kretprobe_attach(struct kstats_fn *fn,
				   unsigned int maxactive, const char **why)
{
	struct kstats_kretprobe *p;
	struct kstats *ks = fn->ks;
	int err;

	p = kzalloc(sizeof(*p), KSTATS_GFP);
	if (!p) {
		*why = "out of memory";
		return -ENOMEM;
	}
	p->ks = ks;
	p->outliers = fn->outliers;
	p->fn = fn;
	switch (kstats_fn_kind(fn)) {
	case KSTATS_FN_FAST:
		p->rp.entry_handler = kstats_krp_fast_entry[ks->clock];
		p->rp.handler = kstats_krp_fast_exit[ks->clock][ks->frac_bits];
		break;
	case KSTATS_FN_GAP:
		p->rp.entry_handler = kstats_krp_entry;
		p->rp.handler = kstats_krp_exit;
		break;
	case KSTATS_FN_RICH:
		p->rp.entry_handler = kstats_krp_rich_entry;
		p->rp.handler = kstats_krp_rich_exit;
		break;
	case KSTATS_FN_FAMILY:
		p->rp.entry_handler = kstats_krp_family_entry;
		p->rp.handler = kstats_krp_family_exit;
		break;
	}
	p->rp.data_size = sizeof(struct kstats_entry);
	p->rp.maxactive = maxactive;
	if (fn->target[0])
		p->rp.kp.symbol_name = fn->target;
	else
		p->rp.kp.addr = (kprobe_opcode_t *)fn->addr;
	*why = "kretprobes cannot probe it";
	err = register_kretprobe(&p->rp);
	if (err) {
		kfree(p);
		return err;
	}
	fn->mech_data = p;
	return 0;
}

static void kstats_kretprobe_detach(struct kstats_fn *fn)
{
	struct kstats_kretprobe *p = fn->mech_data;

	unregister_kretprobe(&p->rp);
}

static void kstats_kretprobe_release(struct kstats_fn *fn)
{
	kfree(fn->mech_data);
	fn->mech_data = NULL;
}

static u64 kstats_kretprobe_missed(const struct kstats_fn *fn)
{
	const struct kstats_kretprobe *p = fn->mech_data;

	return (u64)READ_ONCE(p->rp.nmissed) + READ_ONCE(p->rp.kp.nmissed);
}

/* The instances kretprobe made: maxactive, or its default for 0. */
static void kstats_kretprobe_describe(const struct kstats_fn *fn,
				      struct seq_file *m)
{
	const struct kstats_kretprobe *p = fn->mech_data;

	seq_printf(m, " instances %d", p->rp.maxactive);
}

const struct kstats_mech_ops kstats_mech_kretprobe = {
	.mech = KSTATS_MECH_KRETPROBE,
	.attach = kstats_kretprobe_attach,
	.detach = kstats_kretprobe_detach,
	.release = kstats_kretprobe_release,
	.missed = kstats_kretprobe_missed,
	.describe = kstats_kretprobe_describe,
};
