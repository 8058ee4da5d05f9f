/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline: ftrace patches a traced function's call to
 * __fentry__ into a call of one of the stubs below, which names its slot
 * (struct kstats_direct_hot) in %r11 and jumps to the common code.  That
 * reads the clock, copies the stack arguments, calls the function's body
 * (the code after the fentry call) itself, reads the clock again when the
 * body returns, records the difference and returns to the function's
 * caller.  While the body runs, the stack is:
 *
 *	caller's frame, its stack arguments
 *	return address into the caller
 *	return address into the function, past its fentry call  (fentry's)
 *	slot, start time, saved argument registers
 *	copies of the stack arguments
 *	return address into this trampoline
 *	the body's own frame
 *
 * so an unwinder walks from the body into the trampoline (ORC from
 * objtool: a frame of fixed size), from it into the function's entry (ORC of its
 * fentry call site) and on into the caller.  No indirect branch is taken:
 * the body is entered with a return (the IBT rules allow it, where an
 * indirect call would need an ENDBR at the body).
 *
 * Arguments: the registers are saved only for a function that takes any;
 * %rax, %r10 and %r11 are free at a call site for the kernel's
 * functions (variadic ones are never traced directly).  The return value
 * (%rax and %rdx) is kept across the exit work.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

#include "kstats_direct.h"

/*
 * The frame: the stack arguments' copies at the bottom, where the body
 * finds them above its return address, then the trampoline's own words.
 * Its size is fixed, so the frame is described from %rsp alone (ORC needs
 * no frame pointer here, and %rbp is left alone).
 */
#define F_COPY	(KSTATS_DIRECT_MAX_STACK * 8)
#define F_HOT	(F_COPY + 0)
#define F_TS	(F_COPY + 8)	/* struct kstats_direct_entry: ts, cpu */
#define F_RDI	(F_COPY + 24)
#define F_RSI	(F_COPY + 32)
#define F_RDX	(F_COPY + 40)
#define F_RCX	(F_COPY + 48)
#define F_R8	(F_COPY + 56)
#define F_R9	(F_COPY + 64)
#define F_SIZE	(F_COPY + 72)
/* From %rsp in the frame: fentry's return address, the caller's, arguments. */
#define F_BODY	(F_SIZE)
#define F_ARGS	(F_SIZE + 16)

	.text

SYM_CODE_START(kstats_direct_common)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	subq	$F_SIZE, %rsp
	movq	%r11, F_HOT(%rsp)
	cmpb	$0, KSTATS_DHOT_NREGS(%r11)
	je	.Lsaved
	movq	%rdi, F_RDI(%rsp)
	movq	%rsi, F_RSI(%rsp)
	movq	%rdx, F_RDX(%rsp)
	movq	%rcx, F_RCX(%rsp)
	movq	%r8, F_R8(%rsp)
	movq	%r9, F_R9(%rsp)
.Lsaved:
	/* The time stamp counter inline; the other clocks in C. */
	cmpb	$KSTATS_DIRECT_CLOCK_TSC, KSTATS_DHOT_CLOCK(%r11)
	jne	.Lcclock
	ALTERNATIVE_2 "rdtsc", "lfence; rdtsc", X86_FEATURE_LFENCE_RDTSC, \
		      "rdtscp", X86_FEATURE_RDTSCP
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, F_TS(%rsp)
	jmp	.Lstamped
.Lcclock:
	movq	%r11, %rdi
	leaq	F_TS(%rsp), %rsi
	call	kstats_direct_enter_fn
	movq	F_HOT(%rsp), %r11
.Lstamped:
	/* One more call in flight: the slot stays until it returns. */
	movq	KSTATS_DHOT_INFLIGHT(%r11), %rax
	incq	%gs:(%rax)

	/* Copy the stack arguments, the last one first. */
	movl	KSTATS_DHOT_NSTACK(%r11), %ecx
	testl	%ecx, %ecx
	jz	.Lcopied
.Lcopy:
	movq	F_ARGS - 8(%rsp, %rcx, 8), %rax
	movq	%rax, -8(%rsp, %rcx, 8)
	decl	%ecx
	jnz	.Lcopy
.Lcopied:
	cmpb	$0, KSTATS_DHOT_NREGS(%r11)
	je	.Lcall
	movq	F_RDI(%rsp), %rdi
	movq	F_RSI(%rsp), %rsi
	movq	F_RDX(%rsp), %rdx
	movq	F_RCX(%rsp), %rcx
	movq	F_R8(%rsp), %r8
	movq	F_R9(%rsp), %r9
.Lcall:
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lbody

	/*
	 * The body returned here.  objtool follows the call above as a
	 * jump, so the frame is described again: all of it on %rsp.
	 */
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=F_SIZE+8
	movq	%rax, F_RDI(%rsp)
	movq	%rdx, F_RSI(%rsp)
	movq	F_HOT(%rsp), %rdi
	leaq	F_TS(%rsp), %rsi
	call	kstats_direct_exit_fn
	movq	F_RDI(%rsp), %rax
	movq	F_RSI(%rsp), %rdx
	/* Drop the frame and the return address into the function: it ran. */
	addq	$F_SIZE + 8, %rsp
	UNWIND_HINT_FUNC
	RET

.Lbody:
	/* Enter the body, past the fentry call, by a return: no ENDBR there. */
	pushq	F_BODY + 8(%rsp)
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kstats_direct_common)
_ASM_NOKPROBE(kstats_direct_common)

/*
 * The stubs, KSTATS_DIRECT_STUB_SIZE bytes apart: stub i loads the address
 * of kstats_direct_hot[i].
 */
	.balign	KSTATS_DIRECT_STUB_SIZE
SYM_CODE_START(kstats_direct_stubs)
	ANNOTATE_NOENDBR
	.set	kstats_stub, 0
	.rept	KSTATS_DIRECT_SLOTS
	UNWIND_HINT_FUNC
	leaq	kstats_direct_hot + kstats_stub * KSTATS_DHOT_SIZE(%rip), %r11
	jmp	kstats_direct_common
	.balign	KSTATS_DIRECT_STUB_SIZE, 0xcc
	.set	kstats_stub, kstats_stub + 1
	.endr
SYM_CODE_END(kstats_direct_stubs)
_ASM_NOKPROBE(kstats_direct_stubs)
