/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline's frame as x86-64's entries and exits read it
 * (kstats_direct_tramp_x86_64.S): kstats_direct_exits.c's alone, built
 * with -ffixed-rbp, so that %rbp is still the traced function's caller's.
 */
#ifndef _KSTATS_DIRECT_X86_64_H
#define _KSTATS_DIRECT_X86_64_H

#include <linux/kprobes.h>

#include "kstats_direct_internal.h"
#include "kstats_point.h"

/*
 * A caller is read plainly at the exit and fixed up for a rethook on a
 * miss of the last key alone (kstats_direct_caller_miss()).
 */
#define KSTATS_DIRECT_CALLER_READ	1

static __always_inline notrace void
kstats_direct_at(const struct kstats_direct_entry *e, struct kstats_direct_at *at)
{
	const unsigned long *f = (const void *)e - KSTATS_DFRAME_TS;
	const unsigned long *ret = (const void *)f + KSTATS_DFRAME_SIZE;
	unsigned long bp;

	/* into a scalar: a struct field as the output would keep @at in memory */
	asm("movq %%rbp, %0" : "=r" (bp));
	at->ip = ret[0];
	at->sp = (unsigned long)&ret[1];
	at->bp = bp;
	at->lr = 0;
}

/* The caller of the function at @at, taken back from a rethook. */
static __always_inline notrace u64
kstats_direct_caller_at(const struct kstats_direct_at *at)
{
	/* above this frame, on the stack this code runs on: read plainly */
	return kstats_return_address_fixup(at->sp, *(unsigned long *)at->sp);
}

/* kstats_direct_exits.c's, which includes this header first */
static void kstats_direct_word_miss(struct kstats_direct_hot *h, u64 key,
				    u32 k, bool fits, u64 v);

/*
 * kstats_direct_word_miss() for a caller read as it is
 * (KSTATS_DIRECT_CALLER_READ, x86-64): the return address @ret read
 * above the frame (@sp) taken back from a rethook that took this frame
 * (kstats_return_address_fixup()) here, off the exits' path, and then
 * never kept as the last key: the rethook's trampoline is no one's
 * caller, so a call that finds its return address's 32 bits kept (the
 * address whole, on x86-64) was not taken by a rethook, and needs no
 * fix-up.
 */
static noinline notrace void
kstats_direct_caller_miss(struct kstats_direct_hot *h, unsigned long sp,
			  u64 ret, u64 v)
{
	u64 key = kstats_return_address_fixup(sp, ret);

	kstats_direct_word_miss(h, key, key, key == ret, v);
}

NOKPROBE_SYMBOL(kstats_direct_caller_miss);

/*
 * A frame's key (a return address, a function's start) as 32 bits: its
 * low half: all its text (the kernel's, the modules', the JITs' and
 * trampolines' from the module area) is in the top 2 GiB of the address
 * space, whose high half is all ones, and 0xffffffff, the empty cache's,
 * is the space's last byte.
 */
static __always_inline notrace bool kstats_direct_frame_key32(u64 key, u32 *k)
{
	*k = key;
	return true;
}

static inline void kstats_direct_frame_key_init(void)
{
}

/* The argument registers saved in the frame @r, and the frame pointer. */
static __always_inline notrace void
kstats_direct_regs_set(struct pt_regs *regs, const unsigned long *r,
		       const struct kstats_direct_at *at)
{
	regs->di = r[0];
	regs->si = r[1];
	regs->dx = r[2];
	regs->cx = r[3];
	regs->r8 = r[4];
	regs->r9 = r[5];
	regs->bp = at->bp;
}

#endif /* _KSTATS_DIRECT_X86_64_H */
