// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel stack of a probed place: the function whose instruction @ip
 * ran with the stack pointer @sp and %rbp @bp (a return probe's registers,
 * the direct trampoline's frame), unwound by the kernel's ORC unwinder from
 * those registers as from an interrupt there, so that no frame of the
 * probe itself is walked or kept.
 *
 * The unwinder costs a few hundred instructions a frame (a search of the
 * ORC table; for a module's frame, of the module tree first).  The outliers
 * of one node come from few places, so each CPU keeps the chains it unwound
 * last: the return addresses and, for each, the offset from the start's
 * stack pointer of the stack word that held it.  ORC describes a frame by
 * its return address alone: where a frame's stack pointer is found from
 * the stack pointer (neither from %rbp nor from saved registers), the
 * frame's size is a function of the address.  So when the word at each
 * offset holds the chain's return address again, the unwinder would walk
 * the same frames, and the chain is taken from the cache instead.
 *
 * Only chains made of such frames are cached: all on the task's stack, the
 * return address in the word under each frame's top (no return trampoline
 * in between), no registers of an interrupt or exception from kernel mode,
 * and at most one step of the unwinder that depends on %rbp (it is made
 * again with another %rbp: a step that lands elsewhere does).  That is the
 * frame of a function with a frame pointer, as the system call entry is
 * for its random stack offset (randomize_kstack_offset): its size varies,
 * but its callers' frames lie at fixed places under the stack's end (the
 * entry's registers), so the words of the frames after it are found from
 * there.  A chain that ended at the
 * registers of an entry from user space is taken again only if the
 * registers in their place are a user space entry's again.  A module that
 * goes empties every cache: another may be loaded at its addresses.
 *
 * Without ORC (the kernels kstats builds its trampoline for have it), the
 * stack is the one here, from stack_trace_save().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#ifdef CONFIG_UNWINDER_ORC
#include <asm/segment.h>
#include <asm/unwind.h>
#endif

#include "kstats_internal.h"
#include "kstats_stack.h"

/* Moves when a module goes: a cache filled before is empty. */
static atomic_t kstats_stack_gen = ATOMIC_INIT(1);

#ifdef CONFIG_UNWINDER_ORC
/* The end of the current task's stack if @sp is on it, else 0. */
static notrace unsigned long kstats_stack_top(unsigned long sp)
{
	unsigned long lo = (unsigned long)task_stack_page(current);

	return sp >= lo && sp < lo + THREAD_SIZE ? lo + THREAD_SIZE : 0;
}

/* A word of another function's frame (KASAN would report the read). */
static notrace unsigned long kstats_stack_word(unsigned long addr)
{
	return READ_ONCE_NOCHECK(*(unsigned long *)addr);
}

/*
 * A chain's word: its offset from the start's stack pointer, or with
 * KSTATS_STACK_FROM_TOP, from the end of the stack; the address, or 0 if
 * it is not between @sp and @top.
 */
#define KSTATS_STACK_FROM_TOP	BIT(31)

static notrace unsigned long kstats_stack_addr(u32 off, unsigned long sp,
					       unsigned long top)
{
	unsigned long addr = off & KSTATS_STACK_FROM_TOP ?
			     top - (off & ~KSTATS_STACK_FROM_TOP) : sp + off;

	return addr >= sp && addr + sizeof(long) <= top ? addr : 0;
}

/* A cached chain that is the stack at @ip and @sp again, or NULL. */
static notrace const struct kstats_stack_chain *
kstats_stack_find(struct kstats_stack_cache *cache, unsigned int size,
		  unsigned long ip, unsigned long sp, unsigned long top)
{
	int gen = atomic_read(&kstats_stack_gen);
	unsigned int c, i;

	if (unlikely(cache->gen != gen)) {
		for (c = 0; c < KSTATS_STACK_CHAINS; c++)
			cache->chain[c].n = 0;
		cache->gen = gen;
		return NULL;
	}
	for (c = 0; c < KSTATS_STACK_CHAINS; c++) {
		const struct kstats_stack_chain *ch = &cache->chain[c];
		unsigned long addr;

		if (!ch->n || ch->n > size || ch->frames[0] != ip)
			continue;
		for (i = 1; i < ch->n; i++) {
			addr = kstats_stack_addr(ch->off[i], sp, top);
			if (!addr || kstats_stack_word(addr) != ch->frames[i])
				break;
		}
		if (i < ch->n)
			continue;
		/* x86-64's user_mode(): the privilege level of %cs */
		if (ch->end_cs) {
			addr = kstats_stack_addr(ch->end_cs, sp, top);
			if (!addr || !(kstats_stack_word(addr) & 3))
				continue;
		}
		return ch;
	}
	return NULL;
}

/*
 * Whether the step that took @before to @after depends on %rbp: the same
 * step again, from @before with %rbp 0, lands elsewhere (the unwinder
 * finds nothing at 0 and stops, saying nothing).
 */
static notrace bool kstats_stack_uses_bp(const struct unwind_state *before,
					 struct unwind_state *after)
{
	struct unwind_state alt = *before;

	alt.bp = 0;
	unwind_next_frame(&alt);
	return unwind_done(&alt) != unwind_done(after) ||
	       alt.sp != after->sp || alt.ip != after->ip;
}

/*
 * Unwind the stack at @ip/@sp/@bp into @frames, and into @ch as it goes,
 * which keeps it if the chain may be cached (see above).
 */
static notrace unsigned int kstats_stack_walk(struct kstats_stack_chain *ch,
					      unsigned long *frames,
					      unsigned int size,
					      unsigned long ip,
					      unsigned long sp,
					      unsigned long bp,
					      unsigned long top)
{
	struct pt_regs regs = {
		.ip = ip, .sp = sp, .bp = bp, .cs = __KERNEL_CS,
	};
	struct unwind_state state, before;
	bool cacheable = ch && top, from_top = false;
	unsigned int n = 0;
	u32 end_cs = 0;

	frames[n++] = ip;
	/*
	 * It skips the frame of @regs: the loop starts at its caller, and
	 * ends at the entry from user space, whose registers are the last.
	 */
	unwind_start(&state, current, &regs, NULL);
	if (cacheable) {
		regs.bp = 0;
		unwind_start(&before, current, &regs, NULL);
		from_top = before.sp != state.sp || before.ip != state.ip;
	}
	while (n < size && !unwind_done(&state)) {
		unsigned long slot = state.sp - sizeof(long);

		if (state.regs) {
			if (user_mode(state.regs)) {
				unsigned long cs = (unsigned long)&state.regs->cs;

				end_cs = from_top ? (top - cs) | KSTATS_STACK_FROM_TOP :
						    cs - sp;
				break;
			}
			cacheable = false;
		}
		if (slot < sp || slot + sizeof(long) > top ||
		    kstats_stack_word(slot) != state.ip)
			cacheable = false;
		if (cacheable)
			ch->off[n] = from_top ? (top - slot) | KSTATS_STACK_FROM_TOP :
						slot - sp;
		frames[n++] = state.ip;
		if (cacheable)
			before = state;
		unwind_next_frame(&state);
		/* one frame that %rbp places: the rest from the stack's end */
		if (cacheable && kstats_stack_uses_bp(&before, &state)) {
			if (from_top)
				cacheable = false;
			from_top = true;
		}
	}
	if (state.error)
		cacheable = false;
	if (cacheable) {
		ch->end_cs = end_cs;
		memcpy(ch->frames, frames, n * sizeof(*frames));
		ch->n = n;
	}
	return n;
}

/**
 * kstats_stack_at() - the kernel stack of a probed place
 * @cache: this CPU's chains, or NULL for none
 * @frames: where the stack goes, innermost first
 * @size: frames at most, 1 to KSTATS_STACK_MAX
 * @ip: an instruction of the function the stack starts in, its first frame
 * @sp: the stack pointer there
 * @bp: %rbp there
 *
 * Context: any, NMI included; preemption disabled; @cache used by no one
 * else meanwhile (the outliers' capture holds its CPU's store alone).
 * Return: the frames in @frames.
 */
notrace unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
				     unsigned long *frames, unsigned int size,
				     unsigned long ip, unsigned long sp,
				     unsigned long bp)
{
	unsigned long top = kstats_stack_top(sp);
	const struct kstats_stack_chain *ch = NULL;
	struct kstats_stack_chain *fill = NULL;

	if (cache && top)
		ch = kstats_stack_find(cache, size, ip, sp, top);
	if (ch) {
		memcpy(frames, ch->frames, ch->n * sizeof(*frames));
		cache->hits++;
		return ch->n;
	}
	if (cache) {
		fill = &cache->chain[cache->next];
		cache->next = (cache->next + 1) % KSTATS_STACK_CHAINS;
		fill->n = 0;
	}
	return kstats_stack_walk(fill, frames, size, ip, sp, bp, top);
}
#else
notrace unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
				     unsigned long *frames, unsigned int size,
				     unsigned long ip, unsigned long sp,
				     unsigned long bp)
{
	return stack_trace_save(frames, size, 1);
}
#endif
EXPORT_SYMBOL_NS_GPL(kstats_stack_at, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_stack_at);

static int kstats_stack_module(struct notifier_block *nb, unsigned long state,
			       void *data)
{
	if (state == MODULE_STATE_GOING)
		atomic_inc(&kstats_stack_gen);
	return NOTIFY_DONE;
}

static struct notifier_block kstats_stack_nb = {
	.notifier_call = kstats_stack_module,
};

/**
 * kstats_stack_init() - follow the modules that go
 *
 * Context: process, at module load.
 * Return: 0 or a negative errno.
 */
int kstats_stack_init(void)
{
	return register_module_notifier(&kstats_stack_nb);
}

/**
 * kstats_stack_exit() - stop following them
 *
 * Context: process, at module unload.
 */
void kstats_stack_exit(void)
{
	unregister_module_notifier(&kstats_stack_nb);
}
