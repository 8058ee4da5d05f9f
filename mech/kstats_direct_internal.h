/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the direct mechanism's C files share, and no one else: its
 * lifetime and attach (kstats_direct.c), the entries and exits the
 * trampoline calls (kstats_direct_exits.c) and each architecture's own
 * (kstats_direct_x86_64.c, kstats_direct_arm64.c).  The trampoline's
 * frame and fields, which the assembly shares too, are kstats_direct.h's.
 */
#ifndef _KSTATS_DIRECT_INTERNAL_H
#define _KSTATS_DIRECT_INTERNAL_H

#include <linux/uaccess.h>

#include "kstats_direct.h"
#include "kstats_fn.h"

struct task_struct;

/**
 * struct kstats_direct_at - the traced function at its entry, from the
 *	trampoline's frame: what an unwinder starts from
 *	(kstats_direct_at(), kstats_direct_<arch>.h)
 * @ip: the body's first instruction, past the ftrace call
 * @sp: the stack pointer at the entry
 * @bp: the frame pointer to walk from: the caller's %rbp on x86-64 (the
 *	exits are built with -ffixed-rbp, so it is still that), on arm64 the
 *	frame record of the caller that the trampoline made
 * @lr: on arm64, where the caller resumes (x30 at the entry), else 0
 */
struct kstats_direct_at {
	unsigned long ip;
	unsigned long sp;
	unsigned long bp;
	unsigned long lr;
};

/*
 * The keys the trampoline's frame holds (kstats_direct_frame_key()):
 * those with KSTATS_KEYF_TRAMP_FRAME in trace/kstats_by_key_list.h,
 * written out rather than read from it (kstats_by_has()), so that the
 * entries that take a key keep the code they were measured with; a build
 * with a key list that says otherwise fails (kstats_direct.c).
 */
static __always_inline bool kstats_direct_frame_by(enum kstats_by_kind kind)
{
	return kind == KSTATS_BY_CALLER || kind == KSTATS_BY_FUNC;
}

/* Whether @addr is in the trampoline's variants: a call in flight. */
static inline bool kstats_direct_in_code(unsigned long addr)
{
	return addr >= (unsigned long)kstats_direct_code &&
	       addr < (unsigned long)kstats_direct_stubs;
}

/* The slot a trampoline's frame at @frame names, read with care. */
static inline struct kstats_direct_hot *kstats_direct_frame_slot(unsigned long frame)
{
	struct kstats_direct_hot *h;

	/* another task's stack: it may wake and change it meanwhile */
	if (copy_from_kernel_nofault(&h, (void *)(frame + KSTATS_DFRAME_HOT),
				     sizeof(h)) ||
	    h < kstats_direct_hot || h >= kstats_direct_hot + KSTATS_DIRECT_SLOTS)
		return NULL;
	return h;
}

/* kstats_direct_exits.c */
void kstats_direct_miss(struct kstats_direct_hot *h);
void kstats_direct_exits_init(void);

/* kstats_direct_<arch>.c */
void kstats_direct_walk_out(struct task_struct *p);
unsigned long kstats_direct_site(unsigned long addr, char *mod, size_t size);

#endif /* _KSTATS_DIRECT_INTERNAL_H */
