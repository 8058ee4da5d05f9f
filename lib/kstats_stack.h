/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel stack of a probed place, unwound from its registers, and a
 * per-CPU cache of the chains of return addresses already unwound there.
 */
#ifndef _KSTATS_STACK_H
#define _KSTATS_STACK_H

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
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

/*
 * A return address as the code it returns to knows it: where a kretprobe
 * of a kernel without rethook (arm64's) took it over, the trampoline's
 * address stands in the link register or in a frame record; the task's
 * instances keep the real one, the oldest hooked at frame pointer @fp
 * (the caller's, at the hooked function's entry).  As it is elsewhere.
 */
static __always_inline notrace unsigned long
kstats_kretprobe_ret(unsigned long ret, unsigned long fp)
{
#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
	struct llist_node *n;

	for (n = READ_ONCE(current->kretprobe_instances.first); n;
	     n = READ_ONCE(n->next)) {
		const struct kretprobe_instance *ri =
			container_of(n, struct kretprobe_instance, llist);

		if ((unsigned long)ri->fp == fp)
			ret = (unsigned long)ri->ret_addr;
	}
#endif
	return ret;
}

/*
 * The link register of a function's registers, where the architecture
 * has one (arm64: at its entry, where its caller resumes), for the stacks
 * (kstats_stack_at()); 0 elsewhere.
 */
static __always_inline notrace unsigned long
kstats_regs_link(struct pt_regs *regs)
{
#ifdef CONFIG_ARM64
	return kstats_kretprobe_ret(procedure_link_pointer(regs),
				    frame_pointer(regs));
#else
	return 0;
#endif
}

void kstats_stack_format_frame(unsigned long addr, bool module, char *buf);

#endif /* _KSTATS_STACK_H */
