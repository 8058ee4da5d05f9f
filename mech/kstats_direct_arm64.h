/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline's frame as arm64's entries and exits read it
 * (kstats_direct_tramp_arm64.S): kstats_direct_exits.c's alone.
 */
#ifndef _KSTATS_DIRECT_ARM64_H
#define _KSTATS_DIRECT_ARM64_H

#include <linux/compiler.h>
#include <linux/string.h>

#include "kstats_direct_internal.h"
#include "kstats_point.h"

/* A caller is read at the exit from the frame record the trampoline made. */
#define KSTATS_DIRECT_CALLER_READ	0

static __always_inline notrace void
kstats_direct_at(const struct kstats_direct_entry *e, struct kstats_direct_at *at)
{
	const unsigned long *f = (const void *)e - KSTATS_DFRAME_TS;

	at->ip = f[KSTATS_DFRAME_FUNC / 8 + 1];
	at->sp = (unsigned long)f + KSTATS_DFRAME_SIZE;
	at->bp = (unsigned long)f + KSTATS_DFRAME_CALLER;
	at->lr = f[KSTATS_DFRAME_CALLER / 8 + 1];
}

/* The caller of the function at @at: its link register and frame record. */
static __always_inline notrace u64
kstats_direct_caller_at(const struct kstats_direct_at *at)
{
	return kstats_return_address_at(at->sp, at->lr, *(unsigned long *)at->bp);
}

/* Never called (KSTATS_DIRECT_CALLER_READ): no caller to fix up. */
static __always_inline notrace void
kstats_direct_caller_miss(struct kstats_direct_hot *h, unsigned long sp,
			  u64 ret, u64 v)
{
}

/*
 * The origin of the frames' keys of 32 bits (kstats_direct_frame_key32()),
 * set at load (kstats_direct_frame_key_init()).
 */
static unsigned long kstats_direct_key_base __ro_after_init;

/*
 * A frame's key (a return address, a function's start) as 32 bits: its
 * offset from the trampoline's code past its first byte: the kernel's
 * text and the modules' lie within 2 GiB of each other (the modules
 * within 2 GiB below the kernel's end), so each of their addresses has
 * one, and 0xffffffff is kstats_direct_code's first byte, which no call
 * returns to and no traced function starts at.  False for a key that has
 * none: 0, an address not read.
 */
static __always_inline notrace bool kstats_direct_frame_key32(u64 key, u32 *k)
{
	s64 d = key - kstats_direct_key_base;

	*k = d;
	return d == (s32)d;
}

/* The origin, hidden: a code address plus one, in code, is no branch target. */
static inline void kstats_direct_frame_key_init(void)
{
	unsigned long base = (unsigned long)kstats_direct_code;

	OPTIMIZER_HIDE_VAR(base);
	kstats_direct_key_base = base + 1;
}

/* The argument registers saved in the frame @r, and the caller's record. */
static __always_inline notrace void
kstats_direct_regs_set(struct pt_regs *regs, const unsigned long *r,
		       const struct kstats_direct_at *at)
{
	memcpy(regs->regs, r, 9 * sizeof(*r));
	/* the caller's x29 and x30, as the function's entry had them */
	regs->regs[29] = ((const unsigned long *)at->bp)[0];
	regs->regs[30] = at->lr;
}

#endif /* _KSTATS_DIRECT_ARM64_H */
