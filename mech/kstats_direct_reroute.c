// SPDX-License-Identifier: GPL-2.0
/*
 * The calls in flight of a direct slot that goes: rerouted through the
 * kernel's own code, so that kstats may go at once.
 *
 * A task asleep in the body of a directly traced function has, on its
 * stack, the return address into the trampoline's code (a return site,
 * in kstats.ko's text) and, above it, the trampoline's frame.  When the
 * slot goes, or kstats does, that task may sleep for hours yet (a
 * sigtimedwait(), a pipe read, a kernel thread's idle wait).  Waiting for
 * it would make rmmod wait as long; waking it makes the call return early
 * (EINTR in user programs), or not at all when the function loops on its
 * own condition.  Instead, the frame is rewritten so that the call returns
 * to its caller without kstats: every word from the return site up to the
 * caller's return address is the trampoline's own (a function with
 * arguments on the stack is not traced directly), and they become a chain
 * of returns through a few instructions of the kernel's own text that do
 * nothing but return:
 *  - x86-64: __fentry__ (the ftrace call sites' stub, exported), which
 *    only returns: each return pops the next word, until the caller's
 *    return address;
 *  - arm64: an epilogue "ldp x29, x30, [sp], #16; autiasp; ret", found in
 *    the kernel's text at load, which takes each 16 bytes of the frame as
 *    a frame record, until the last one, the caller's x29 and return
 *    address; each return address signed (pointer authentication) with
 *    the task's kernel key and the stack pointer it will be checked
 *    against, as the task's own code would have signed it, the key
 *    installed for one instruction (kstats_direct_pac_sign()).
 * The body's return value (%rax, x0) and every callee-saved register pass
 * through untouched; the call is not timed.  Nothing is allocated, nothing
 * is left to free, and no code of kstats runs on that path: BPF's
 * trampoline images outlive their program for the same reason, but a
 * module cannot allocate executable memory (vmap() makes no executable
 * mapping).
 *
 * The stacks are rewritten under stop_machine(): no task runs meanwhile,
 * so none returns through a frame being rewritten.  Each task's stack is
 * walked as the kernel's unwinder does (ORC on x86-64, the frame records on
 * arm64): a return site there, whose frame above names a slot that goes,
 * is rewritten; any other address in the trampoline's code (an entry or an
 * exit called from it, an instruction of it interrupted) is a task in
 * transit, whose slot must stay until an RCU Tasks grace period has let it
 * out.  Should a walk stop before the stack's end (a frame the unwinder
 * cannot describe), the rest of the stack is read word by word, and a
 * frame is rewritten there only when its return site, its slot and its
 * return into the traced function all agree; one that half agrees keeps
 * kstats loaded for good, with a warning (never seen).
 *
 * Only tasks have stacks here: the idle tasks are not on the task list,
 * and the functions they sleep in (do_idle(), schedule_idle()) are not
 * traced directly; the stopper threads run stop_machine() itself, whose
 * functions are not traced directly either (kstats_direct.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86_64
#include <asm/ftrace.h>
#include <asm/unwind.h>
#else
#include <asm/cpufeature.h>
#include <asm/insn.h>
#include <asm/pointer_auth.h>
#endif

#include "kstats_direct.h"
#include "kstats_direct_reroute.h"

#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
unsigned long kstats_direct_pac_sign(unsigned long addr, unsigned long modifier,
				     const struct ptrauth_key *key,
				     const struct ptrauth_key *own);
#endif

/* The kernel's code that only returns (see above), 0 until found. */
static unsigned long kstats_direct_return_gadget;

#ifdef CONFIG_X86_64
/* A call's fentry site, from its return address into the function. */
#define KSTATS_DIRECT_CALL_SIZE	5
#else
#define KSTATS_DIRECT_CALL_SIZE	AARCH64_INSN_SIZE
/* ldp x29, x30, [sp], #16; autiasp; ret */
static const u32 kstats_direct_epilogue[] = {
	0xa8c17bfd,
#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
	0xd50323bf,
#endif
	0xd65f03c0,
};

/* How far past vfree() the epilogue is looked for: well within .text. */
#define KSTATS_DIRECT_GADGET_SCAN	SZ_64K
#endif

/**
 * kstats_direct_reroute_init() - find the kernel's code a rerouted call
 *	returns through
 *
 * x86-64: __fentry__.  arm64: the first epilogue of the kernel's own text
 * past vfree() that is exactly "ldp x29, x30, [sp], #16; autiasp; ret"
 * (without the autiasp on a kernel built without pointer authentication):
 * thousands of functions end so.
 *
 * Context: process, at load.
 * Return: 0, or -ENOENT when none is found: the trampoline then takes no
 * function (kstats_direct_reroute_ready()).
 */
int kstats_direct_reroute_init(void)
{
#ifdef CONFIG_X86_64
	kstats_direct_return_gadget = (unsigned long)__fentry__;
	return 0;
#else
	unsigned long p = ALIGN((unsigned long)vfree, AARCH64_INSN_SIZE);
	unsigned long end = p + KSTATS_DIRECT_GADGET_SCAN;
	u32 insn[ARRAY_SIZE(kstats_direct_epilogue)];

	for (; p < end; p += AARCH64_INSN_SIZE) {
		if (copy_from_kernel_nofault(insn, (void *)p, sizeof(insn)))
			break;
		if (!memcmp(insn, kstats_direct_epilogue, sizeof(insn))) {
			kstats_direct_return_gadget = p;
			return 0;
		}
	}
	pr_warn("no epilogue to return through found in the kernel's text: no function is traced directly\n");
	return -ENOENT;
#endif
}

/**
 * kstats_direct_reroute_ready() - whether a call in flight can be rerouted
 *
 * Context: any.
 * Return: true once kstats_direct_reroute_init() found the code.
 */
bool kstats_direct_reroute_ready(void)
{
	return kstats_direct_return_gadget;
}

static int kstats_direct_ret_cmp(const void *key, const void *elt)
{
	u32 k = *(const u32 *)key, e = *(const u32 *)elt;

	return k < e ? -1 : k > e;
}

/* Whether @addr, in the trampoline's code, is a return site. */
static bool kstats_direct_is_return_site(unsigned long addr)
{
	u32 off = addr - (unsigned long)kstats_direct_code;

	return bsearch(&off, kstats_direct_rets,
		       kstats_direct_rets_end - kstats_direct_rets,
		       sizeof(u32), kstats_direct_ret_cmp);
}

/* Whether @addr is in the trampoline's code, its variants or its stubs. */
static bool kstats_direct_in_tramp(unsigned long addr)
{
	return addr >= (unsigned long)kstats_direct_code &&
	       addr < (unsigned long)kstats_direct_stubs_end;
}

/* The calls in flight of one task rerouted at most: deeper is unsure. */
#define KSTATS_DIRECT_REROUTE_DEPTH	16

/**
 * struct kstats_direct_call - a call in flight found on a stack
 * @at: where its return site is
 * @base: its frame
 * @word: the return site as stored (arm64: maybe signed)
 * @ret: the return site
 * @slot: its slot
 */
struct kstats_direct_call {
	unsigned long at;
	unsigned long base;
	unsigned long word;
	unsigned long ret;
	int slot;
};

/**
 * struct kstats_direct_reroute_pass - what one stop_machine() pass does
 * @going: the slots whose calls in flight are rerouted
 * @ips: each slot's fentry sites (sorted), to check a frame found by reading
 *	a stack word by word
 * @nr_ips: how many
 * @rerouted: how many calls of each slot were
 * @transit: a task may still run in the trampoline's code
 * @unsure: a frame that looks like a call in flight but not wholly: left
 * @calls: the calls in flight of the task being read, rewritten once its
 *	whole stack is read (a rewritten frame would mislead the walk)
 * @nr_calls: how many
 */
struct kstats_direct_reroute_pass {
	u64 going;
	const unsigned long *ips[KSTATS_DIRECT_SLOTS];
	unsigned int nr_ips[KSTATS_DIRECT_SLOTS];
	unsigned int rerouted[KSTATS_DIRECT_SLOTS];
	bool transit;
	unsigned int unsure;
	struct kstats_direct_call calls[KSTATS_DIRECT_REROUTE_DEPTH];
	unsigned int nr_calls;
};

static unsigned long kstats_direct_word(unsigned long at)
{
	/* another task's stack, redzones and all: not instrumented */
	return READ_ONCE_NOCHECK(*(unsigned long *)at);
}

/*
 * The slot the trampoline's frame at @base names, or -1: its word must be
 * the address of a slot of kstats_direct_hot.
 */
static int kstats_direct_frame_slot_at(unsigned long base, unsigned long lo,
				       unsigned long hi)
{
	unsigned long hot;
	int slot;

	if (base < lo || base + KSTATS_DFRAME_SIZE + 2 * sizeof(long) > hi)
		return -1;
	hot = kstats_direct_word(base + KSTATS_DFRAME_HOT);
	if (hot < (unsigned long)kstats_direct_hot ||
	    hot >= (unsigned long)(kstats_direct_hot + KSTATS_DIRECT_SLOTS))
		return -1;
	slot = (struct kstats_direct_hot *)hot - kstats_direct_hot;
	return hot == (unsigned long)&kstats_direct_hot[slot] ? slot : -1;
}

static int kstats_direct_ip_cmp(const void *key, const void *elt)
{
	unsigned long k = *(const unsigned long *)key;
	unsigned long e = *(const unsigned long *)elt;

	return k < e ? -1 : k > e;
}

/*
 * Whether the trampoline's frame at @base returns into one of @slot's
 * functions, past its fentry site (a check for a frame found word by
 * word; a walked frame is one for sure).
 */
static bool kstats_direct_frame_returns_in(const struct kstats_direct_reroute_pass *rp,
					   int slot, unsigned long base)
{
	unsigned long ret;

#ifdef CONFIG_X86_64
	ret = kstats_direct_word(base + KSTATS_DFRAME_SIZE);
#else
	ret = kstats_direct_word(base + KSTATS_DFRAME_FUNC + sizeof(long));
#endif
	ret -= KSTATS_DIRECT_CALL_SIZE;
	return rp->ips[slot] &&
	       bsearch(&ret, rp->ips[slot], rp->nr_ips[slot], sizeof(ret),
		       kstats_direct_ip_cmp);
}

#ifdef CONFIG_X86_64
/*
 * x86-64: the return site at @c->at (@c->base - 8) and every word of the
 * frame up to the return address into the function become __fentry__:
 * the body's return pops the first, each of its returns the next, the
 * last one the caller's return address.
 */
static bool kstats_direct_rewrite(struct task_struct *p,
				  const struct kstats_direct_call *c)
{
	unsigned long at;

	for (at = c->at; at <= c->base + KSTATS_DFRAME_SIZE; at += sizeof(long))
		WRITE_ONCE(*(unsigned long *)at, kstats_direct_return_gadget);
	return true;
}
#else
/* @addr signed as @p's code signs it against @modifier, if it signs. */
static unsigned long kstats_direct_sign(struct task_struct *p,
					unsigned long addr,
					unsigned long modifier)
{
#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
	if (system_supports_address_auth())
		return kstats_direct_pac_sign(addr, modifier,
					      &p->thread.keys_kernel.apia,
					      &current->thread.keys_kernel.apia);
#endif
	return addr;
}

/*
 * arm64: the body's frame record at @c->at - 8 returns to the return site
 * @c->ret (stored as @c->word: signed by the body against @c->base, its
 * stack pointer as it was entered, or not, where the body signs nothing);
 * it comes to the epilogue instead, and each 16 bytes of the frame become
 * a frame record for the epilogue to return through, each linked to the
 * next, the last one the caller's x29 and return address (x9 at the
 * entry), each return address signed against the stack pointer the
 * epilogue checks it with.
 */
static bool kstats_direct_rewrite(struct task_struct *p,
				  const struct kstats_direct_call *c)
{
	unsigned long g = kstats_direct_return_gadget;
	unsigned long base = c->base, word = c->word, ret = c->ret, at = c->at;
	unsigned long fp, lr, rec;
	bool sign = word != ret;

	BUILD_BUG_ON(KSTATS_DFRAME_SIZE % 16 || KSTATS_DFRAME_FUNC);
	if (sign && kstats_direct_sign(p, ret, base) != word)
		return false;
	fp = kstats_direct_word(base + KSTATS_DFRAME_CALLER);
	lr = kstats_direct_word(base + KSTATS_DFRAME_CALLER + sizeof(long));
	for (rec = base; rec < base + KSTATS_DFRAME_SIZE; rec += 16) {
		bool last = rec + 16 == base + KSTATS_DFRAME_SIZE;

		WRITE_ONCE(*(unsigned long *)rec, last ? fp : rec + 16);
		WRITE_ONCE(*(unsigned long *)(rec + 8),
			   kstats_direct_sign(p, last ? lr : g, rec + 16));
	}
	WRITE_ONCE(*(unsigned long *)at, sign ? kstats_direct_sign(p, g, base) : g);
	return true;
}
#endif

/*
 * A return address @word (as stored; arm64: maybe signed) at @at, on a
 * stack [@lo, @hi), met by a walk (@sure) or a word by word read: kept to
 * be rerouted if it is a call in flight of a slot that goes.
 */
static void kstats_direct_reroute_word(struct kstats_direct_reroute_pass *rp,
				       unsigned long at, unsigned long word,
				       unsigned long lo, unsigned long hi,
				       bool sure)
{
	struct kstats_direct_call *c;
	unsigned long ret = word, base;
	unsigned int i;
	int slot;

#ifdef CONFIG_ARM64
	ret = ptrauth_strip_kernel_insn_pac(word);
#endif
	if (!kstats_direct_in_tramp(ret))
		return;
	if (!kstats_direct_is_return_site(ret)) {
		if (sure)
			rp->transit = true;
		return;
	}
#ifdef CONFIG_X86_64
	base = at + sizeof(long);
#else
	/* the body's record: its first word, the trampoline's x29 */
	base = kstats_direct_word(at - sizeof(long)) - KSTATS_DFRAME_FUNC;
#endif
	slot = kstats_direct_frame_slot_at(base, lo, hi);
	if (slot < 0) {
		/* a task preempted on the return site itself, or an old word */
		if (sure)
			rp->transit = true;
		return;
	}
	if (!(rp->going & BIT_ULL(slot)))
		return;
	/* met by the walk already */
	for (i = 0; i < rp->nr_calls; i++)
		if (rp->calls[i].at == at)
			return;
	if ((!sure && !kstats_direct_frame_returns_in(rp, slot, base)) ||
	    rp->nr_calls == KSTATS_DIRECT_REROUTE_DEPTH) {
		rp->unsure++;
		return;
	}
	c = &rp->calls[rp->nr_calls++];
	c->at = at;
	c->base = base;
	c->word = word;
	c->ret = ret;
	c->slot = slot;
}

#ifdef CONFIG_ARM64
/*
 * Whether the frame record at @fp is the one an exception taken at EL1
 * makes in its pt_regs (entry.S: the interrupted x29 and pc): the record's
 * two words are the regs' x29 and pc, and the regs are of EL1.  Its pc is
 * an interrupted instruction, never a call's return; and the task is in
 * transit if that is in the trampoline's code (a return site included:
 * right after the body's ret, its frame is the trampoline's to read), or
 * if x30 is (between a body's entry and the store of its frame record, or
 * between its reload and the ret, the return site is in x30 alone).
 */
static bool kstats_direct_interrupted(struct kstats_direct_reroute_pass *rp,
				      unsigned long fp, unsigned long lo,
				      unsigned long hi)
{
	unsigned long r = fp - offsetof(struct pt_regs, stackframe);
	unsigned long pc, x30;

	if (fp < lo + offsetof(struct pt_regs, stackframe) ||
	    r + sizeof(struct pt_regs) > hi)
		return false;
	pc = kstats_direct_word(r + offsetof(struct pt_regs, pc));
	if (kstats_direct_word(fp) !=
	    kstats_direct_word(r + offsetof(struct pt_regs, regs[29])) ||
	    kstats_direct_word(fp + sizeof(long)) != pc ||
	    (kstats_direct_word(r + offsetof(struct pt_regs, pstate)) &
	     PSR_MODE_MASK) == PSR_MODE_EL0t)
		return false;
	x30 = kstats_direct_word(r + offsetof(struct pt_regs, regs[30]));
	if (kstats_direct_in_tramp(pc) ||
	    kstats_direct_in_tramp(ptrauth_strip_kernel_insn_pac(x30)))
		rp->transit = true;
	return true;
}
#endif

/* Read [@from, @hi) of a stack word by word, once a walk stopped short. */
static void kstats_direct_reroute_words(struct kstats_direct_reroute_pass *rp,
					unsigned long from, unsigned long lo,
					unsigned long hi)
{
	unsigned long at;

	for (at = max(ALIGN(from, sizeof(long)), lo + sizeof(long));
	     at + sizeof(long) <= hi; at += sizeof(long)) {
#ifdef CONFIG_ARM64
		/* an exception's regs: its record's pc, its x29 and x30 */
		if (kstats_direct_interrupted(rp, at - sizeof(long), lo, hi) ||
		    kstats_direct_interrupted(rp, at -
					      offsetof(struct pt_regs, regs[30]) +
					      offsetof(struct pt_regs, stackframe),
					      lo, hi))
			continue;
#endif
		kstats_direct_reroute_word(rp, at, kstats_direct_word(at),
					   lo, hi, false);
	}
}

/* The stack of @p, asleep or preempted: its calls of @rp->going rerouted. */
static void kstats_direct_reroute_task(struct kstats_direct_reroute_pass *rp,
				       struct task_struct *p)
{
	unsigned long lo, hi;
#ifdef CONFIG_X86_64
	struct unwind_state state;
#else
	unsigned long fp, next;
#endif

	unsigned int i;

	/* an exited task's stack may be gone */
	if (!refcount_read(&p->stack_refcount))
		return;
	lo = (unsigned long)task_stack_page(p);
	hi = lo + THREAD_SIZE;
	rp->nr_calls = 0;
#ifdef CONFIG_X86_64
	for (unwind_start(&state, p, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long ret = unwind_get_return_address(&state);

		/*
		 * an interrupted instruction (the walk through an interrupt's
		 * regs): never a call's return, even right after the body's
		 * ret, its return site still in the word below the sp
		 */
		if (unwind_get_entry_regs(&state, NULL)) {
			if (kstats_direct_in_tramp(ret))
				rp->transit = true;
			continue;
		}
		/* a call's return address lies right below its caller's sp */
		if (ret && state.sp > lo && state.sp <= hi &&
		    kstats_direct_word(state.sp - sizeof(long)) == ret)
			kstats_direct_reroute_word(rp, state.sp - sizeof(long),
						   ret, lo, hi, true);
		else if (kstats_direct_in_tramp(ret))
			/* an interrupted instruction of the trampoline */
			rp->transit = true;
	}
	if (unwind_error(&state))
		kstats_direct_reroute_words(rp, state.sp, lo, hi);
#else
	/* the frame records, from the task's last, each above the one before */
	for (fp = thread_saved_fp(p); fp; fp = next) {
		if (fp < lo || fp + 2 * sizeof(long) > hi ||
		    !IS_ALIGNED(fp, sizeof(long))) {
			kstats_direct_reroute_words(rp, fp < lo ? lo : hi, lo, hi);
			break;
		}
		next = kstats_direct_word(fp);
		if (!kstats_direct_interrupted(rp, fp, lo, hi))
			kstats_direct_reroute_word(rp, fp + sizeof(long),
						   kstats_direct_word(fp + sizeof(long)),
						   lo, hi, true);
		if (next && next <= fp) {
			kstats_direct_reroute_words(rp, fp, lo, hi);
			break;
		}
	}
#endif
	for (i = 0; i < rp->nr_calls; i++) {
		if (kstats_direct_rewrite(p, &rp->calls[i]))
			rp->rerouted[rp->calls[i].slot]++;
		else
			rp->unsure++;
	}
}

/*
 * Under stop_machine(), on one CPU, interrupts off, every other CPU in
 * its stopper: every task but those is asleep or preempted.
 */
static int kstats_direct_reroute_all(void *data)
{
	struct kstats_direct_reroute_pass *rp = data;
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		/* the stoppers, this one included: they run stop_machine() */
		if (READ_ONCE(p->on_cpu))
			continue;
		kstats_direct_reroute_task(rp, p);
	}
	rcu_read_unlock();
	return 0;
}

/**
 * kstats_direct_reroute() - reroute the calls in flight of slots that go
 * @going: the slots, detached from ftrace: no call enters them any more,
 *	and none is between a stub and its slot's in-flight count (ftrace
 *	waits an RCU Tasks grace period as it removes a direct call)
 * @ips: each slot's fentry sites, sorted (the slots of @going only)
 * @nr_ips: how many
 * @rerouted: how many calls of each slot were rerouted, added to (for
 *	the log)
 *
 * Every task asleep in a call of those slots will return to its caller
 * through the kernel's own code, untimed; none is woken, none is waited
 * for.  A task in transit is not rerouted: once an RCU Tasks grace period
 * has passed it is out of the trampoline's code, or asleep in the body
 * with its frame on its stack; call again, until none is in transit.
 *
 * Context: process; may sleep (stop_machine()).
 * Return: whether a task may still run in the trampoline's code (in an
 * entry, an exit, or between its instructions): wait an RCU Tasks grace
 * period before freeing the slots' state or kstats' text.
 */
bool kstats_direct_reroute(u64 going, unsigned long *const *ips,
			   const unsigned int *nr_ips, unsigned int *rerouted)
{
	struct kstats_direct_reroute_pass *rp;
	bool transit;
	int i;

	rp = kzalloc(sizeof(*rp), GFP_KERNEL | __GFP_NOFAIL);
	rp->going = going;
	for (i = 0; i < KSTATS_DIRECT_SLOTS; i++) {
		rp->ips[i] = ips ? ips[i] : NULL;
		rp->nr_ips[i] = nr_ips ? nr_ips[i] : 0;
	}
	stop_machine(kstats_direct_reroute_all, rp, NULL);
	if (rp->unsure) {
		/* never seen: kstats' text must stay for them */
		WARN_ONCE(1, "kstats: %u frames of calls in flight not rerouted: kstats stays loaded\n",
			  rp->unsure);
		__module_get(THIS_MODULE);
	}
	transit = rp->transit;
	for (i = 0; rerouted && i < KSTATS_DIRECT_SLOTS; i++)
		rerouted[i] += rp->rerouted[i];
	kfree(rp);
	return transit;
}
