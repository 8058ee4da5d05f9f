/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline, arm64: ftrace patches a traced function's entry
 * into "mov x9, x30; bl <stub>" (or, out of the BL's range, a BL to
 * ftrace_caller, which branches to the stub with BR x17 when the function
 * has a direct call: hence the stub's BTI landing pad, where the kernel
 * enforces BTI).  The stub names
 * its slot (struct kstats_direct_hot) in x10 and branches to the common
 * code, entered with the arguments in x0-x8, the caller's return address
 * in x9 and the body's address (past the BL) in x30.  That reads the
 * clock, calls the body itself, reads the clock again when the body
 * returns, records the difference and returns to the function's caller.
 * While the body runs, the stack is:
 *
 *	caller's frame
 *	x0-x8 saved, the call's struct kstats_direct_entry, the slot
 *	frame record of the caller: its x29, its return address (x9)
 *	frame record of the function: the one above, the body's address
 *	the body's own frame, whose record returns into this trampoline
 *	(a return site)
 *
 * so the kernel's unwinder walks from the body into the trampoline, into
 * the function (at the body's address) and on into its caller, each
 * record above the one before.  Every word of the frame is the
 * trampoline's own: when a slot goes with a call in flight, the frame
 * becomes a chain of returns through the kernel's own code, so that the
 * call returns to its caller without this trampoline
 * (kstats_direct_reroute.c).
 *
 * The body is called with a BLR, or, where the kernel enforces BTI, with
 * a RET to its address, x30 pointing back here: a RET takes no landing
 * pad, where a BLR would need a BTI at the body.  The body signs x30
 * (pointer authentication) with the stack pointer it is entered with and
 * authenticates it at its return with the same: the trampoline's frame is
 * then in place, as it was at the entry.
 * The caller's return address is never signed here: it is kept in the
 * frame and given back in x30.
 *
 * Registers: x9-x17 are free at the entry (ftrace's own code clobbers
 * them), x0-x8 are the arguments (x8: an indirect result's address);
 * x18 is left alone.  The return value (x0) is kept across the exit work;
 * x1 is not, so a function that returns 16 bytes is never traced
 * directly.  A function with arguments on the stack is not traced here.
 *
 * Recursion: as on x86-64 (kstats_direct_tramp_x86_64.S), a clock that
 * the trampoline calls takes the slot's per-CPU guard in C; the counter
 * (cntvct_el0) is read inline and cannot recurse.
 *
 * In flight: the slot's per-CPU count is incremented with an atomic add
 * (LSE, or an exclusive load and store pair) on the CPU whose offset was
 * read: a task moved meanwhile increments the other CPU's count, which
 * every reader sums, and every decrement (this_cpu_dec()) is atomic too.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>
#include <asm/sysreg.h>

#include "kstats_asm_offsets.h"
#include "kstats_direct.h"
#include "kstats_direct_variants.h"

/*
 * KSTATS_DIRECT_EACH m: the assembler macro \m once per variant
 * (kstats_direct_variant_list.h), one line each, as
 *	\m NAME, EXIT, ENTRY, TK, COMM, IDS
 */
#define KSTATS_DIRECT_VARIANT(...)	\m __VA_ARGS__
.macro KSTATS_DIRECT_EACH m
#include "kstats_direct_variant_list.h"
.endm

#define F_FUNC		KSTATS_DFRAME_FUNC
#define F_CALLER	KSTATS_DFRAME_CALLER
#define F_HOT		KSTATS_DFRAME_HOT
#define F_TS		KSTATS_DFRAME_TS
#define F_CPU		(KSTATS_DFRAME_TS + 8)
#define F_X0		KSTATS_DFRAME_REGS
#define F_SIZE		KSTATS_DFRAME_SIZE
#define F_NAME		KSTATS_DFRAME_NAME
#define F_IDS		KSTATS_DFRAME_IDS

	.text
	/* stadd, patched in where the CPUs have LSE atomics */
	.arch_extension lse

.macro KSTATS_DIRECT_ARGS_SAVE args:req
	.if \args
	stp	x0, x1, [sp, #F_X0]
	stp	x2, x3, [sp, #F_X0 + 16]
	stp	x4, x5, [sp, #F_X0 + 32]
	stp	x6, x7, [sp, #F_X0 + 48]
	str	x8, [sp, #F_X0 + 64]
	.endif
.endm

.macro KSTATS_DIRECT_ARGS_RESTORE args:req
	.if \args
	ldp	x0, x1, [sp, #F_X0]
	ldp	x2, x3, [sp, #F_X0 + 16]
	ldp	x4, x5, [sp, #F_X0 + 32]
	ldp	x6, x7, [sp, #F_X0 + 48]
	ldr	x8, [sp, #F_X0 + 64]
	.endif
.endm

/*
 * The preemption count, raised around the cgroup filter's reads (an RCU
 * reader's, as kstats_cgroup_under() is), with the current task in x11,
 * as the kernel's __preempt_count_add() and __preempt_count_dec_and_test()
 * do: the count's word alone written, the reschedule flag beside it
 * (inverted) read with it, then read again, for an interrupt that came
 * between.  A reschedule due is taken in C (kstats_direct_resched()).
 */
.macro KSTATS_PREEMPT_OFF
#ifdef CONFIG_PREEMPT_COUNT
	ldr	w12, [x11, #KSTATS_TASK_PREEMPT]
	add	w12, w12, #1
	str	w12, [x11, #KSTATS_TASK_PREEMPT]
#endif
.endm

.macro KSTATS_PREEMPT_ON resched:req
#ifdef CONFIG_PREEMPT_COUNT
	ldr	x12, [x11, #KSTATS_TASK_PREEMPT]
	sub	x12, x12, #1
	str	w12, [x11, #KSTATS_TASK_PREEMPT]
#ifdef CONFIG_PREEMPTION
	cbz	x12, \resched
	ldr	x12, [x11, #KSTATS_TASK_PREEMPT]
	cbz	x12, \resched
#endif
#endif
.endm

/* kstats_direct_resched(), every argument register kept around it. */
.macro KSTATS_DIRECT_RESCHED
	KSTATS_DIRECT_ARGS_SAVE 1
	bl	kstats_direct_resched
	KSTATS_DIRECT_ARGS_RESTORE 1
	ldr	x10, [sp, #F_HOT]
.endm

/*
 * One variant (kstats_direct_variant_list.h): args 0 saves no register, 1
 * saves x0-x8 for a C entry.  The variants without a C entry (the counter read inline, the
 * task's name compared, nothing read) touch only x10-x15 before the body
 * and read no argument after it: x0-x8 are neither saved nor restored,
 * and the task name and ids variants keep the task's name in x1-x2's
 * words, its pid and tgid in x3's; the argument key variants save x0-x8
 * as a C entry does, for the exit to take the key from one of them.
 */
.macro KSTATS_DIRECT_COMMON name:req, clock:req, entry:req, args:req, tk:req, comm=0, ids=0
SYM_CODE_START_LOCAL(kstats_direct_\name\()_\args)
	sub	sp, sp, #F_SIZE
	stp	x29, x9, [sp, #F_CALLER]
	add	x29, sp, #F_CALLER
	stp	x29, x30, [sp, #F_FUNC]
	add	x29, sp, #F_FUNC
	str	x10, [sp, #F_HOT]
	.if \comm == 1
	/* Another task's name: the body runs untimed, nothing saved yet. */
	mrs	x11, sp_el0
	mov	x12, #KSTATS_TASK_COMM
	add	x11, x11, x12
	ldp	x12, x13, [x11]
	ldp	x14, x15, [x10, #KSTATS_DHOT_COMM]
	cmp	x12, x14
	ccmp	x13, x15, #0, eq
	b.ne	.Lother_\@
	.endif
	.if \comm == 2
	/*
	 * Out of the slot's cgroup: the same.  The task's cgroup is read as
	 * kstats_cgroup_under() reads it: the ancestor at the filter's level
	 * (the slot's second word), its id compared with the slot's first.
	 */
#ifdef CONFIG_CGROUPS
	mrs	x11, sp_el0
	KSTATS_PREEMPT_OFF
	mov	x12, #KSTATS_TASK_CGROUPS
	ldr	x13, [x11, x12]
	ldr	x13, [x13, #KSTATS_CSET_DFL_CGRP]
	ldr	w14, [x10, #KSTATS_DHOT_COMM + 8]
	ldr	w15, [x13, #KSTATS_CGROUP_LEVEL]
	cmp	w15, w14
	b.lo	.Lcgroup_out_\@
	mov	x15, #KSTATS_CGROUP_ANCESTORS
	add	x13, x13, x15
	ldr	x13, [x13, x14, lsl #3]
	ldr	x13, [x13, #KSTATS_CGROUP_KN]
	ldr	x13, [x13, #KSTATS_KN_ID]
	ldr	x15, [x10, #KSTATS_DHOT_COMM]
	cmp	x13, x15
	b.ne	.Lcgroup_out_\@
	KSTATS_PREEMPT_ON .Lresched_in_\@
.Lcgroup_in_\@:
#else
	/* never taken (without cgroups the filter is refused): every call out */
	cbnz	x10, .Lother_\@
#endif
	.endif
	.if (\ids == 1) | (\ids == 2)
	/* The task's name, or ids, as they are now, for the exit's key. */
	mrs	x11, sp_el0
	.if \ids == 1
	mov	x12, #KSTATS_TASK_COMM
	add	x12, x11, x12
	ldp	x13, x14, [x12]
	stp	x13, x14, [sp, #F_NAME]
	.else
	mov	x12, #KSTATS_TASK_PID
	ldr	w13, [x11, x12]
	mov	x12, #KSTATS_TASK_TGID
	ldr	w14, [x11, x12]
	stp	w13, w14, [sp, #F_IDS]
	.endif
	.endif
	KSTATS_DIRECT_C_ENTRY \entry
	/* x0-x8 around a C entry, or for an argument key */
	.set	kstats_all_args, kstats_c_entry | (\ids == 3)
	.if kstats_all_args
	KSTATS_DIRECT_ARGS_SAVE \args
	.endif

	/* The clock: the counter inline, the others called. */
	.ifc \entry, tsc
	.if \tk
	adrp	x11, kstats_counter_tk
	ldr	w11, [x11, #:lo12:kstats_counter_tk + 4]
	.endif
	isb
	mrs	x12, cntvct_el0
	.if \tk
	stp	x12, x11, [sp, #F_TS]
	.else
	str	x12, [sp, #F_TS]
	.endif
	.endif
	.if kstats_c_entry
	/* false: entered from its own clock read, run the body untimed */
	mov	x0, x10
	add	x1, sp, #F_TS
	bl	kstats_direct_enter_\entry
	tst	w0, #0xff
	b.eq	.Lskip_\@
	ldr	x10, [sp, #F_HOT]
	.endif

	/*
	 * One more call in flight: the slot stays until it returns.  An LSE
	 * atomic add where the CPUs have them, else the exclusive pair (out
	 * of line, at the end).
	 */
	ldr	x11, [x10, #KSTATS_DHOT_PCPU]
	get_this_cpu_offset x12
	add	x11, x11, x12
alternative_if_not ARM64_HAS_LSE_ATOMICS
	b	.Lllsc_\@
alternative_else_nop_endif
	mov	x12, #1
	stadd	x12, [x11]
.Lcounted_\@:

	.if kstats_all_args
	KSTATS_DIRECT_ARGS_RESTORE \args
	.endif
	ldr	x16, [sp, #F_FUNC + 8]
#ifdef CONFIG_ARM64_BTI_KERNEL
	adr	x30, .Lret_\@
	ret	x16
#else
	blr	x16
#endif

.Lret_\@:
	KSTATS_DIRECT_RETURN_SITE
	/* The body returned here, the frame as it left it. */
	str	x0, [sp, #F_X0]
	/*
	 * The exit on one CPU: a sample's count and its sum in one CPU's
	 * slot, its outlier in that CPU's store.
	 */
	mrs	x11, sp_el0
	KSTATS_PREEMPT_OFF
	ldr	x0, [sp, #F_HOT]
	add	x1, sp, #F_TS
	bl	kstats_direct_exit_\clock
	mrs	x11, sp_el0
	KSTATS_PREEMPT_ON .Lexit_resched_\@
.Lexited_\@:
	ldr	x0, [sp, #F_X0]
	ldp	x29, x30, [sp, #F_CALLER]
	add	sp, sp, #F_SIZE
	ret

#ifdef CONFIG_PREEMPTION
	/* A reschedule came due in the exit: taken, the return value kept. */
.Lexit_resched_\@:
	bl	kstats_direct_resched
	b	.Lexited_\@
#endif

#ifdef CONFIG_CGROUPS
	.if \comm == 2
.Lcgroup_out_\@:
	KSTATS_PREEMPT_ON .Lresched_out_\@
	b	.Lother_\@
#ifdef CONFIG_PREEMPTION
	/* A reschedule came due in the check: taken, arguments kept. */
.Lresched_in_\@:
	KSTATS_DIRECT_RESCHED
	b	.Lcgroup_in_\@
.Lresched_out_\@:
	KSTATS_DIRECT_RESCHED
	b	.Lother_\@
#endif
	.endif
#endif

	.if kstats_c_entry
.Lskip_\@:
	/* Into the body, arguments as they were, returning to the caller. */
	KSTATS_DIRECT_ARGS_RESTORE \args
	.endif
.Lother_\@:
	ldr	x16, [sp, #F_FUNC + 8]
	ldp	x29, x30, [sp, #F_CALLER]
	add	sp, sp, #F_SIZE
	ret	x16

.Lllsc_\@:
	ldxr	x12, [x11]
	add	x12, x12, #1
	stxr	w13, x12, [x11]
	cbnz	w13, .Lllsc_\@
	b	.Lcounted_\@
SYM_CODE_END(kstats_direct_\name\()_\args)
NOKPROBE(kstats_direct_\name\()_\args)
.endm

/* The variants (kstats_direct_variant_list.h), then the stubs. */
KSTATS_DIRECT_VARIANTS_CODE

/*
 * The stubs, KSTATS_DIRECT_STUB_SIZE bytes apart, KSTATS_DIRECT_SLOTS per
 * variant in the order of enum kstats_direct_variant: stub i of a variant
 * is a landing pad (BTI C, where the kernel enforces BTI), the address
 * of kstats_direct_hot[i] in x10 and a branch to the variant.
 */
.macro KSTATS_DIRECT_STUBS common:req
	.set	kstats_stub, 0
	.rept	KSTATS_DIRECT_SLOTS
#ifdef CONFIG_ARM64_BTI_KERNEL
	hint	#34
#endif
	adrp	x10, kstats_direct_hot + kstats_stub * KSTATS_DHOT_SIZE
	add	x10, x10, #:lo12:kstats_direct_hot + kstats_stub * KSTATS_DHOT_SIZE
	b	\common
	.balign	KSTATS_DIRECT_STUB_SIZE
	.set	kstats_stub, kstats_stub + 1
	.endr
.endm

	.balign	KSTATS_DIRECT_STUB_SIZE
SYM_CODE_START(kstats_direct_stubs)
	KSTATS_DIRECT_EACH KSTATS_DIRECT_STUBS_ARGS
SYM_CODE_END(kstats_direct_stubs)
NOKPROBE(kstats_direct_stubs)
	.globl	kstats_direct_stubs_end
	.set	kstats_direct_stubs_end, .

#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
/*
 * unsigned long kstats_direct_pac_sign(unsigned long addr, unsigned long
 *	modifier, const struct ptrauth_key *key, const struct ptrauth_key *own)
 *
 * @addr signed with the APIA key @key and @modifier (PACIA), as another
 * task's code signs a return address with its own kernel key: that key
 * installed for the one instruction, then @own, the current task's, again
 * (kstats_direct_reroute.c, under stop_machine(), interrupts off).  No
 * code between the two key writes signs or authenticates anything, this
 * function not even its own return.
 */
SYM_FUNC_START(kstats_direct_pac_sign)
	mov	x17, x0
	mov	x16, x1
	ldp	x4, x5, [x2]
	msr_s	SYS_APIAKEYLO_EL1, x4
	msr_s	SYS_APIAKEYHI_EL1, x5
	isb
	hint	#8				/* pacia1716 */
	ldp	x4, x5, [x3]
	msr_s	SYS_APIAKEYLO_EL1, x4
	msr_s	SYS_APIAKEYHI_EL1, x5
	isb
	mov	x0, x17
	ret
SYM_FUNC_END(kstats_direct_pac_sign)
NOKPROBE(kstats_direct_pac_sign)
#endif
