/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel stack of a probed place, unwound from its registers, and a
 * per-CPU cache of the chains of return addresses already unwound there.
 */
#ifndef _KSTATS_STACK_H
#define _KSTATS_STACK_H

#include <linux/types.h>

/* Frames of a stack at most. */
#define KSTATS_STACK_MAX	64
/* Frames of a stack a family keys by, at most ("by stack N"). */
#define KSTATS_STACK_KEY_MAX	32
/* Frames of kstats' own a stack taken here may start with, at most. */
#define KSTATS_STACK_OWN	8
/* Chains a CPU's cache holds (struct kstats_stack_cache: 4 KiB). */
#define KSTATS_STACK_CHAINS	3

/**
 * struct kstats_stack_chain - a stack once unwound, to recognize again
 * @n: its frames, 0 for none (an empty entry)
 * @end_cs: where it ended at the registers of an entry from user space,
 *	the place of their saved %cs; 0 when it ended at @n frames, the most
 *	asked for, or at the stack's end
 * @rebase: bit i: the unwinder's step to frame i depended on %rbp, whose
 *	value then is the base of the places from frame i on
 * @bpset: bit i: that step took %rbp from the stack, at @bp[i]
 * @off: for each frame but the first, the place of the word holding its
 *	return address
 * @bp: for each frame of @bpset, the place %rbp was taken from
 * @frames: the frames, innermost first
 *
 * A place is an offset from the base: the start's stack pointer, then the
 * value of %rbp at each step of @rebase (kstats_stack.c).
 */
struct kstats_stack_chain {
	u32 n;
	s32 end_cs;
	u64 rebase;
	u64 bpset;
	s32 off[KSTATS_STACK_MAX];
	s32 bp[KSTATS_STACK_MAX];
	unsigned long frames[KSTATS_STACK_MAX];
};

/**
 * struct kstats_stack_cache - one CPU's chains
 * @hits: stacks this CPU took from the cache
 * @gen: the modules' generation its chains were made in
 * @next: the entry the next chain replaces
 * @chain: the chains
 */
struct kstats_stack_cache {
	u64 hits;
	int gen;
	u32 next;
	struct kstats_stack_chain chain[KSTATS_STACK_CHAINS];
};

int kstats_stack_init(void);
void kstats_stack_exit(void);
unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
			     unsigned long *frames, unsigned int size,
			     unsigned long ip, unsigned long sp,
			     unsigned long bp, unsigned long lr);
unsigned int kstats_stack_here(unsigned long *frames, unsigned int size);
void kstats_stack_format_frame(unsigned long addr, bool module, char *buf);

#endif /* _KSTATS_STACK_H */
