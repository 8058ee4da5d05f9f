// SPDX-License-Identifier: GPL-2.0
/*
 * The direct mechanism's own on x86-64, beside its trampoline
 * (kstats_direct_tramp_x86_64.S), other than what the exits read of the
 * frame (kstats_direct_x86_64.h): the calls in flight on the stack of a
 * task that exits, found by ORC, and a function's fentry call site.
 */
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/unwind.h>

#include "kstats_direct.h"
#include "kstats_direct_internal.h"
#include "kstats_syms.h"

/*
 * The slot of the next call in flight up the stack, or NULL at its end:
 * a return address into the trampoline's code is one, whose frame (a
 * fixed size from the stack pointer there) holds the slot.
 */
static struct kstats_direct_hot *kstats_direct_walk_next(struct unwind_state *state)
{
	struct kstats_direct_hot *h;

	for (; !unwind_done(state); unwind_next_frame(state)) {
		unsigned long sp = state->sp;

		if (!kstats_direct_in_code(unwind_get_return_address(state)))
			continue;
		unwind_next_frame(state);
		h = kstats_direct_frame_slot(sp);
		if (h && h->pcpu)
			return h;
	}
	return NULL;
}

/**
 * kstats_direct_walk_out() - count out the calls in flight of a task
 * @p: the task, current, as it exits
 *
 * Each return address into the trampoline's code on @p's stack is a call
 * in flight, whose frame holds its slot: counted out, and as missed.
 *
 * Context: the task's exit (sched_process_exit).
 */
notrace void kstats_direct_walk_out(struct task_struct *p)
{
	struct unwind_state state;
	struct kstats_direct_hot *h;

	unwind_start(&state, p, NULL, NULL);
	while ((h = kstats_direct_walk_next(&state)))
		kstats_direct_miss(h);
}

/**
 * kstats_direct_site() - the ftrace call site of a function
 * @addr: the function's address
 * @mod: where its module's name goes, empty for the kernel's own; or NULL
 * @size: @mod's size
 *
 * The fentry call, past an ENDBR where IBT puts one; ftrace checks that
 * it is one of its sites.
 *
 * Return: the call site's address.
 */
unsigned long kstats_direct_site(unsigned long addr, char *mod, size_t size)
{
	u32 insn;

	/* endbr64: f3 0f 1e fa */
	if (!copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)) &&
	    insn == 0xfa1e0ff3)
		addr += sizeof(insn);
	if (mod)
		kstats_syms_module(addr, mod, size);
	return addr;
}
