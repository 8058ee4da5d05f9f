// SPDX-License-Identifier: GPL-2.0
/*
 * The fprobe mechanism: a function timed through fprobe, ftrace's entry
 * hook and rethook's return hook, where the trampoline cannot be used (a
 * gap sibling; another direct caller; no BTF), or the functions of a
 * node over several none of which the trampoline took, in one fprobe.  The
 * start time travels in fprobe's per-call data, so recursion, nesting and
 * sleeping pair correctly.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fprobe.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "kstats_fn.h"
#include "kstats_internal.h"
#include "kstats_multi.h"

/*
 * fprobe's handlers take a struct pt_regs from 6.5 to 6.13; before 6.5
 * they had other arguments, from 6.14 they take a struct ftrace_regs.  Only
 * the pt_regs form is built and tested here: fail the build rather than
 * register handlers of the wrong type (kstats.mk tells which).
 */
#ifndef KSTATS_FPROBE_PT_REGS
#error "kstats: fprobe handlers of this kernel are not supported (only 6.5 to 6.13)"
#endif

/*
 * The fprobe of one function; @ks and @outliers are @fn's, one load each
 * from the handler.
 */
struct kstats_fprobe {
	struct fprobe fp;
	struct kstats *ks;
	struct kstats_outliers *outliers;
	struct kstats_fn *fn;
};

#define kstats_fp_of(p)	container_of(p, struct kstats_fprobe, fp)

typedef int (*kstats_fp_entry_t)(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip, struct pt_regs *regs,
				 void *data);
typedef void (*kstats_fp_exit_t)(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip, struct pt_regs *regs,
				 void *data);

/* The generic handlers, which also feed the gap sibling. */
static notrace int kstats_fp_entry(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, struct pt_regs *regs,
				   void *data)
{
	kstats_fn_enter(kstats_fp_of(fp)->fn, data);
	return 0;
}

NOKPROBE_SYMBOL(kstats_fp_entry);

static notrace void kstats_fp_exit(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, struct pt_regs *regs,
				   void *data)
{
	kstats_fn_exit(kstats_fp_of(fp)->fn, regs, data);
}

NOKPROBE_SYMBOL(kstats_fp_exit);

/*
 * The fast handlers, for function nodes without a gap sibling: one entry
 * handler per clock and one exit handler per clock and frac_bits (0 to 5),
 * picked at attach.  The clock is read with no dispatch and the sample is
 * recorded with a compile-time frac_bits, so that kstats adds about twenty
 * instructions to what fprobe itself costs.
 */
#define KSTATS_FAST_CLOCK(c)						\
static notrace int kstats_fp_entry_##c(struct fprobe *fp,		\
				       unsigned long ip,		\
				       unsigned long ret_ip,		\
				       struct pt_regs *regs, void *data)	\
{									\
	kstats_time_enter(data, kstats_clock_##c);			\
	return 0;							\
}									\
NOKPROBE_SYMBOL(kstats_fp_entry_##c)
#define KSTATS_FAST_BITS(c, b)						\
static notrace void kstats_fp_exit_##c##b(struct fprobe *fp,		\
					  unsigned long ip,		\
					  unsigned long ret_ip,		\
					  struct pt_regs *regs, void *data) \
{									\
	struct kstats_fprobe *p = kstats_fp_of(fp);			\
	u64 now;							\
									\
	kstats_time_exit(p->ks, p->outliers, regs, data,		\
			 kstats_clock_##c, b, &now);			\
}									\
NOKPROBE_SYMBOL(kstats_fp_exit_##c##b)
#include "kstats_fn_fast.h"

#define KSTATS_FAST_CLOCK(c)						\
	[kstats_clock_##c] = kstats_fp_entry_##c,
static const kstats_fp_entry_t kstats_fp_fast_entry[] = {
#include "kstats_fn_fast.h"
};

#define KSTATS_FAST_BITS(c, b)						\
	[kstats_clock_##c][b] = kstats_fp_exit_##c##b,
static const kstats_fp_exit_t
kstats_fp_fast_exit[][KSTATS_MAX_FRAC_BITS + 1] = {
#include "kstats_fn_fast.h"
};

/*
 * The handlers of nodes with values, filters or a family (kstats_fn.h):
 * an entry that returns 1 makes fprobe skip that call's return.
 */
#define KSTATS_FP_RICH(sfx, f)						\
static const bool kstats_fp_##sfx##_family = (f);			\
static notrace int kstats_fp_##sfx##_entry(struct fprobe *fp,		\
					   unsigned long ip,		\
					   unsigned long ret_ip,	\
					   struct pt_regs *regs, void *data) \
{									\
	return kstats_rich_enter(kstats_fp_of(fp)->fn, regs, data,	\
				 kstats_fp_##sfx##_family);		\
}									\
NOKPROBE_SYMBOL(kstats_fp_##sfx##_entry);				\
static notrace void kstats_fp_##sfx##_exit(struct fprobe *fp,		\
					   unsigned long ip,		\
					   unsigned long ret_ip,	\
					   struct pt_regs *regs, void *data) \
{									\
	kstats_rich_exit(kstats_fp_of(fp)->fn, regs, data,		\
			 kstats_fp_##sfx##_family);			\
}									\
NOKPROBE_SYMBOL(kstats_fp_##sfx##_exit)

KSTATS_FP_RICH(rich, false);
KSTATS_FP_RICH(family, true);

/*
 * A node over several functions that the direct slot took none of: one
 * fprobe over all those ftrace can patch and a probe may take
 * (kstats_multi_can_fall_back()), registered in one ftrace update, each
 * then marked as timed by fprobe.  The handlers are the node's, as for
 * one function: a "by func" key is the function's address, read from
 * the registers at its entry.
 */
static int kstats_fprobe_register_multi(struct kstats_fprobe *p,
					struct kstats_multi *m,
					const char **why)
{
	unsigned long *addrs;
	unsigned int i, n = 0;
	int err;

	addrs = kvmalloc_array(m->nr, sizeof(*addrs), GFP_KERNEL);
	if (!addrs) {
		*why = "out of memory";
		return -ENOMEM;
	}
	for (i = 0; i < m->nr; i++) {
		const struct kstats_multi_func *f = &m->funcs[i];

		if (kstats_multi_can_fall_back(f) &&
		    f->skip != KSTATS_MULTI_NOT_FTRACEABLE)
			addrs[n++] = f->addr;
	}
	*why = "none of its functions can be hooked by ftrace";
	/* ftrace's filter copies the addresses */
	err = n ? register_fprobe_ips(&p->fp, addrs, n) : -ENOENT;
	kvfree(addrs);
	if (err)
		return err;
	for (i = 0; i < m->nr; i++) {
		struct kstats_multi_func *f = &m->funcs[i];

		if (kstats_multi_can_fall_back(f) &&
		    f->skip != KSTATS_MULTI_NOT_FTRACEABLE)
			f->fallback = "fprobe";
	}
	return 0;
}

static int kstats_fprobe_attach(struct kstats_fn *fn, unsigned int maxactive,
				const char **why)
{
	struct kstats_fprobe *p;
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
		p->fp.entry_handler = kstats_fp_fast_entry[ks->clock];
		p->fp.exit_handler = kstats_fp_fast_exit[ks->clock][ks->frac_bits];
		break;
	case KSTATS_FN_GAP:
		p->fp.entry_handler = kstats_fp_entry;
		p->fp.exit_handler = kstats_fp_exit;
		break;
	case KSTATS_FN_RICH:
		p->fp.entry_handler = kstats_fp_rich_entry;
		p->fp.exit_handler = kstats_fp_rich_exit;
		break;
	case KSTATS_FN_FAMILY:
		p->fp.entry_handler = kstats_fp_family_entry;
		p->fp.exit_handler = kstats_fp_family_exit;
		break;
	}
	/* Without an exit handler, fprobe hooks no return. */
	if (fn->entry_only)
		p->fp.exit_handler = NULL;
	p->fp.entry_data_size = sizeof(struct kstats_entry);
	p->fp.nr_maxactive = maxactive;
	*why = "no ftrace-able function of that name";
	if (fn->multi)
		err = kstats_fprobe_register_multi(p, fn->multi, why);
	else
		err = register_fprobe(&p->fp, fn->target[0] ? fn->target :
				      "kstats_calibrate_target", NULL);
	if (err) {
		kfree(p);
		return err;
	}
	fn->mech_data = p;
	return 0;
}

static void kstats_fprobe_detach(struct kstats_fn *fn)
{
	struct kstats_fprobe *p = fn->mech_data;

	unregister_fprobe(&p->fp);
}

static void kstats_fprobe_release(struct kstats_fn *fn)
{
	kfree(fn->mech_data);
	fn->mech_data = NULL;
}

static u64 kstats_fprobe_missed(const struct kstats_fn *fn)
{
	const struct kstats_fprobe *p = fn->mech_data;

	return READ_ONCE(p->fp.nmissed);
}

const struct kstats_mech_ops kstats_mech_fprobe = {
	.mech = KSTATS_MECH_FPROBE,
	.attach = kstats_fprobe_attach,
	.detach = kstats_fprobe_detach,
	.release = kstats_fprobe_release,
	.missed = kstats_fprobe_missed,
};
