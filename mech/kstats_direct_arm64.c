// SPDX-License-Identifier: GPL-2.0
/*
 * The direct mechanism's own on arm64, beside its trampoline
 * (kstats_direct_tramp_arm64.S), other than what the exits read of the
 * frame (kstats_direct_arm64.h): the calls in flight on the stack of a
 * task that exits, found up its frame records, and a function's ftrace
 * call site.
 */
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <asm/pointer_auth.h>

#include "kstats_direct.h"
#include "kstats_direct_internal.h"
#include "kstats_syms.h"

/**
 * struct kstats_direct_walk - a walk up a task's frame records, for the
 *	calls in flight through the trampoline on it (kstats_direct_walk_next())
 * @fp: the frame record to read next
 * @lo: the task's stack, from @lo
 * @hi: to @hi
 */
struct kstats_direct_walk {
	unsigned long fp;
	unsigned long lo;
	unsigned long hi;
};

static __always_inline void
kstats_direct_walk_start(struct kstats_direct_walk *w, struct task_struct *p)
{
	w->lo = (unsigned long)task_stack_page(p);
	w->hi = w->lo + THREAD_SIZE;
	w->fp = p == current ? (unsigned long)__builtin_frame_address(0) :
			       thread_saved_fp(p);
}

/*
 * The slot of the next call in flight up the frame records, or NULL at
 * their end.  The body's record, or that of a C entry or exit the
 * trampoline called, holds a return address into the trampoline's code
 * and, as its next record, the traced function's one that the trampoline
 * made at the base of its frame.
 */
static struct kstats_direct_hot *kstats_direct_walk_next(struct kstats_direct_walk *w)
{
	struct kstats_direct_hot *h;
	unsigned long rec[2];

	while (w->fp >= w->lo && w->fp + sizeof(rec) <= w->hi &&
	       IS_ALIGNED(w->fp, 8)) {
		if (copy_from_kernel_nofault(rec, (void *)w->fp, sizeof(rec)) ||
		    rec[0] <= w->fp)
			break;
		w->fp = rec[0];
		if (!kstats_direct_in_code(ptrauth_strip_kernel_insn_pac(rec[1])))
			continue;
		h = kstats_direct_frame_slot(rec[0] - KSTATS_DFRAME_FUNC);
		if (h && h->pcpu)
			return h;
	}
	return NULL;
}

/**
 * kstats_direct_walk_out() - count out the calls in flight of a task
 * @p: the task, current, as it exits
 *
 * Each return address into the trampoline's code up @p's frame records
 * is a call in flight, whose frame holds its slot: counted out, and as
 * missed.
 *
 * Context: the task's exit (sched_process_exit).
 */
notrace void kstats_direct_walk_out(struct task_struct *p)
{
	struct kstats_direct_walk w;
	struct kstats_direct_hot *h;

	kstats_direct_walk_start(&w, p);
	while ((h = kstats_direct_walk_next(&w)))
		kstats_direct_miss(h);
}

/**
 * kstats_direct_site() - the ftrace call site of a function
 * @addr: the function's address
 * @mod: where its module's name goes, empty for the kernel's own; or NULL
 * @size: @mod's size
 *
 * The BL of the patched entry, past its BTI where the kernel has them and
 * past the MOV that keeps the caller's return address in x9
 * (ftrace_call_adjust()); ftrace checks that it is one of its sites.
 *
 * Return: the call site's address.
 */
unsigned long kstats_direct_site(unsigned long addr, char *mod, size_t size)
{
	if (IS_ENABLED(CONFIG_ARM64_BTI_KERNEL))
		addr += AARCH64_INSN_SIZE;
	addr += AARCH64_INSN_SIZE;
	if (mod)
		kstats_syms_module(addr, mod, size);
	return addr;
}
