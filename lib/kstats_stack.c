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
 * last: the return addresses and, for each, the place of the stack word
 * that held it, an offset from the start's stack pointer.  ORC describes a
 * frame by its return address alone: where a frame's stack pointer is
 * found from the stack pointer (neither from %rbp nor from saved
 * registers), the frame's size is a function of the address.  So when the
 * word at each place holds the chain's return address again, the unwinder
 * would walk the same frames, and the chain is taken from the cache
 * instead.
 *
 * A function with a frame pointer (one that realigns its stack, or the
 * system call entry for its random offset, randomize_kstack_offset) has a
 * frame of varying size, which the unwinder steps over from %rbp: a step
 * that lands elsewhere when made again from another %rbp.  The places of
 * the words after it are offsets from that %rbp, which the chain follows
 * as the unwinder does: from the start, then from the word of each frame
 * the unwinder takes it from.
 *
 * Only chains made of such frames are cached: all on the task's stack, the
 * return address in the word under each frame's top (no return trampoline
 * in between), no registers of an interrupt or exception from kernel mode,
 * the %rbp of each step that depends on it found in a word.  A chain
 * that ended at the registers of an entry from user space is taken again
 * only if the registers in their place are a user space entry's again.  A
 * module that goes empties every cache: another may be loaded at its
 * addresses.
 *
 * Without ORC (the kernels kstats builds its trampoline for have it), the
 * stack is the one here, from stack_trace_save().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/kallsyms.h>
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

#ifdef CONFIG_ARM64
#include <asm/pointer_auth.h>

/* A return address saved signed (pointer authentication), stripped. */
static __always_inline notrace unsigned long kstats_strip_pac(unsigned long ret)
{
#ifdef ptrauth_strip_kernel_insn_pac
	return ptrauth_strip_kernel_insn_pac(ret);
#else
	return ptrauth_strip_insn_pac(ret);
#endif
}
#endif

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

/* The address of @off from @base, or 0 if it is not between @sp and @top. */
static notrace unsigned long kstats_stack_addr(unsigned long base, s32 off,
					       unsigned long sp,
					       unsigned long top)
{
	unsigned long addr = base + off;

	return addr >= sp && addr + sizeof(long) <= top ? addr : 0;
}

/* Whether @ch is the stack at @ip/@sp/@bp again, word for word. */
static notrace bool kstats_stack_match(const struct kstats_stack_chain *ch,
				       unsigned long ip, unsigned long sp,
				       unsigned long bp, unsigned long top)
{
	unsigned long base = sp, addr;
	unsigned int i;

	if (ch->frames[0] != ip)
		return false;
	for (i = 1; i < ch->n; i++) {
		if (ch->rebase & BIT_ULL(i))
			base = bp;
		addr = kstats_stack_addr(base, ch->off[i], sp, top);
		if (!addr || kstats_stack_word(addr) != ch->frames[i])
			return false;
		if (ch->bpset & BIT_ULL(i)) {
			addr = kstats_stack_addr(base, ch->bp[i], sp, top);
			if (!addr)
				return false;
			bp = kstats_stack_word(addr);
		}
	}
	if (!ch->end_cs)
		return true;
	/* x86-64's user_mode(): the privilege level of %cs */
	addr = kstats_stack_addr(base, ch->end_cs, sp, top);
	return addr && (kstats_stack_word(addr) & 3);
}

/* A cached chain that is the stack at @ip/@sp/@bp again, or NULL. */
static notrace const struct kstats_stack_chain *
kstats_stack_find(struct kstats_stack_cache *cache, unsigned int size,
		  unsigned long ip, unsigned long sp, unsigned long bp,
		  unsigned long top)
{
	int gen = atomic_read(&kstats_stack_gen);
	unsigned int c;

	if (unlikely(cache->gen != gen)) {
		for (c = 0; c < KSTATS_STACK_CHAINS; c++)
			cache->chain[c].n = 0;
		cache->gen = gen;
		return NULL;
	}
	for (c = 0; c < KSTATS_STACK_CHAINS; c++) {
		const struct kstats_stack_chain *ch = &cache->chain[c];

		if (ch->n && ch->n <= size && kstats_stack_match(ch, ip, sp, bp, top))
			return ch;
	}
	return NULL;
}

/* Whether two unwinds of one step landed in different places. */
static notrace bool kstats_stack_apart(struct unwind_state *a,
				       struct unwind_state *b)
{
	return unwind_done(a) != unwind_done(b) || a->sp != b->sp ||
	       a->ip != b->ip;
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
	return kstats_stack_apart(&alt, after);
}

/* @addr's offset from @base, if it fits the chain's s32 places. */
static notrace bool kstats_stack_off(unsigned long addr, unsigned long base,
				     s32 *off)
{
	long d = addr - base;

	*off = d;
	return d == *off;
}

/**
 * struct kstats_stack_learn - a chain being unwound, to cache
 * @ch: the chain, NULL once it may not be cached
 * @top: the end of the stack
 * @base: the places' base now
 * @bp: %rbp as the unwinder has it now
 * @bp_known: the chain knows where @bp is (the start, or one stack word)
 */
struct kstats_stack_learn {
	struct kstats_stack_chain *ch;
	unsigned long top, base, bp;
	bool bp_known;
};

/*
 * The unwinder's step to frame @i, from the stack pointer @before_sp to
 * @after_sp and %rbp @after_bp: rebased on %rbp where it depended on it
 * (@uses_bp); where it took %rbp from the stack, the word of the frame it
 * left that holds it.  That is a saved register, which lies above the
 * frame's locals, under its return address: the highest word that holds
 * the value (a local may hold it too).  A %rbp found nowhere is unknown,
 * which only a later step that depends on it minds.  Were the word another
 * register's of the same value, the %rbp read there later would place the
 * words elsewhere: a miss, not another stack.
 */
static notrace void kstats_stack_step(struct kstats_stack_learn *l,
				      unsigned int i, unsigned long before_sp,
				      bool uses_bp, unsigned long after_sp,
				      unsigned long after_bp)
{
	unsigned long a;

	if (uses_bp) {
		if (!l->bp_known) {
			l->ch = NULL;
			return;
		}
		l->ch->rebase |= BIT_ULL(i);
		l->base = l->bp;
	}
	if (after_bp == l->bp)
		return;
	l->bp = after_bp;
	l->bp_known = false;
	after_sp = min(after_sp, l->top);
	for (a = after_sp - sizeof(long); a >= before_sp && a < after_sp;
	     a -= sizeof(long)) {
		if (kstats_stack_word(a) != after_bp)
			continue;
		if (kstats_stack_off(a, l->base, &l->ch->bp[i])) {
			l->ch->bpset |= BIT_ULL(i);
			l->bp_known = true;
		}
		return;
	}
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
	struct kstats_stack_learn l = {
		.ch = top ? ch : NULL, .top = top, .base = sp, .bp = bp,
		.bp_known = true,
	};
	struct pt_regs regs = {
		.ip = ip, .sp = sp, .bp = bp, .cs = __KERNEL_CS,
	};
	struct unwind_state state, before;
	unsigned int n = 0;
	s32 end_cs = 0;

	if (l.ch) {
		l.ch->rebase = 0;
		l.ch->bpset = 0;
	}
	frames[n++] = ip;
	/*
	 * It skips the frame of @regs: the loop starts at its caller, and
	 * ends at the entry from user space, whose registers are the last.
	 */
	unwind_start(&state, current, &regs, NULL);
	if (l.ch) {
		regs.bp = 0;
		unwind_start(&before, current, &regs, NULL);
		kstats_stack_step(&l, 1, sp, kstats_stack_apart(&before, &state),
				  state.sp, state.bp);
	}
	while (n < size && !unwind_done(&state)) {
		unsigned long slot = state.sp - sizeof(long);

		if (state.regs && user_mode(state.regs)) {
			if (l.ch && !kstats_stack_off((unsigned long)&state.regs->cs,
						      l.base, &end_cs))
				l.ch = NULL;
			break;
		}
		/* an interrupt's registers: what it interrupted varies */
		if (state.regs)
			l.ch = NULL;
		if (l.ch && (slot < sp || slot + sizeof(long) > top ||
			     kstats_stack_word(slot) != state.ip ||
			     !kstats_stack_off(slot, l.base, &l.ch->off[n])))
			l.ch = NULL;
		frames[n++] = state.ip;
		before = state;
		unwind_next_frame(&state);
		if (l.ch && n < size)
			kstats_stack_step(&l, n, before.sp,
					  kstats_stack_uses_bp(&before, &state),
					  state.sp, state.bp);
	}
	if (l.ch && !state.error) {
		l.ch->end_cs = end_cs;
		memcpy(l.ch->frames, frames, n * sizeof(*frames));
		l.ch->n = n;
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
 * @bp: %rbp there (arm64: the frame pointer, x29)
 * @lr: arm64, at a function's entry: the link register, where its caller
 *	resumes (kstats_regs_link()); 0 elsewhere, and ignored on x86
 *
 * Context: any, NMI included; preemption disabled; @cache used by no one
 * else meanwhile (the outliers' capture holds its CPU's store alone).
 * Return: the frames in @frames.
 */
notrace unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
				     unsigned long *frames, unsigned int size,
				     unsigned long ip, unsigned long sp,
				     unsigned long bp, unsigned long lr)
{
	unsigned long top = kstats_stack_top(sp);
	const struct kstats_stack_chain *ch = NULL;
	struct kstats_stack_chain *fill = NULL;

	if (cache && top)
		ch = kstats_stack_find(cache, size, ip, sp, bp, top);
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
#elif defined(CONFIG_ARM64)
/*
 * arm64 keeps frame pointers: from @bp, the frame records, each the next
 * record's address and a return address, up the task's stack (signed
 * return addresses stripped, kretprobes' trampolines given back).  At a
 * function's entry @lr is where its caller resumes, which no record holds
 * yet (0 elsewhere).  The walk costs a few loads a frame: no cache.
 */
notrace unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
				     unsigned long *frames, unsigned int size,
				     unsigned long ip, unsigned long sp,
				     unsigned long bp, unsigned long lr)
{
	unsigned long lo = (unsigned long)task_stack_page(current);
	unsigned long hi = lo + THREAD_SIZE, fp = bp;
	unsigned int n = 0;

	frames[n++] = ip;
	if (lr && lr != ip && n < size)
		frames[n++] = lr;
	while (n < size && fp >= lo && fp + 16 <= hi && IS_ALIGNED(fp, 8)) {
		unsigned long next = READ_ONCE_NOCHECK(((unsigned long *)fp)[0]);
		unsigned long ret = READ_ONCE_NOCHECK(((unsigned long *)fp)[1]);

		if (!ret)
			break;
		frames[n++] = kstats_kretprobe_ret(kstats_strip_pac(ret), next);
		/* records lie ever higher on the stack */
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}
#else
notrace unsigned int kstats_stack_at(struct kstats_stack_cache *cache,
				     unsigned long *frames, unsigned int size,
				     unsigned long ip, unsigned long sp,
				     unsigned long bp, unsigned long lr)
{
	return stack_trace_save(frames, size, 1);
}
#endif
EXPORT_SYMBOL_NS_GPL(kstats_stack_at, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_stack_at);

/**
 * kstats_stack_here() - the kernel stack here, from the first frame that
 *	is not kstats'
 * @frames: where the stack goes, innermost first; room for @size +
 *	KSTATS_STACK_OWN frames
 * @size: frames at most
 *
 * For a probe with no registers of the probed place (a tracepoint's): the
 * probe's own frames, all in this module, are taken, then dropped.
 *
 * Context: any, NMI included.
 * Return: the frames in @frames.
 */
notrace unsigned int kstats_stack_here(unsigned long *frames,
				       unsigned int size)
{
	unsigned int n = stack_trace_save(frames, size + KSTATS_STACK_OWN, 1);
	unsigned int own = 0;

	while (own < n && within_module(frames[own], THIS_MODULE))
		own++;
	n = min(n - own, size);
	memmove(frames, frames + own, n * sizeof(*frames));
	return n;
}
EXPORT_SYMBOL_NS_GPL(kstats_stack_here, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_stack_here);

/**
 * kstats_stack_format_frame() - a frame as keys and outliers show it
 * @addr: a return address
 * @module: add " [module]" for a module's frame
 * @buf: where to write it, KSYM_SYMBOL_LEN bytes
 *
 * "symbol+0xOFF", the function's size dropped; "0xADDR" for an address
 * kallsyms does not know.
 *
 * Context: process (kallsyms).
 */
void kstats_stack_format_frame(unsigned long addr, bool module, char *buf)
{
	char *size, *rest;

	sprint_symbol(buf, addr);
	/* "name+0xoff/0xsize [module]": the size goes, and the module */
	size = strchr(buf, '/');
	if (!size)
		return;
	rest = strchr(size, ' ');
	if (rest && module)
		memmove(size, rest, strlen(rest) + 1);
	else
		*size = '\0';
}
EXPORT_SYMBOL_NS_GPL(kstats_stack_format_frame, KSTATS_NS);

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
