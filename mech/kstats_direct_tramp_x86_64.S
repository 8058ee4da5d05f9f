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
 *	caller's frame
 *	return address into the caller
 *	return address into the function, past its fentry call  (fentry's)
 *	slot, start time, saved argument registers
 *	return address into this trampoline (a return site)
 *	the body's own frame
 *
 * Every word between the return site and the caller's return address is
 * the trampoline's own: when a slot goes with a call in flight, those
 * words become a chain of returns through the kernel's own code, so that
 * the call returns to its caller without this trampoline
 * (kstats_direct_reroute.c).
 *
 * so an unwinder walks from the body into the trampoline (ORC from
 * objtool: a frame of fixed size), from it into the function's entry (ORC of its
 * fentry call site) and on into the caller.  No indirect branch is taken:
 * the body is entered with a return (the IBT rules allow it, where an
 * indirect call would need an ENDBR at the body).
 *
 * Recursion: a clock that the trampoline calls (clock ktime on the HPET
 * calls read_hpet(), local_clock() a paravirt clock) may be the traced
 * function itself.  Those entries call C (kstats_direct_enter_ktime(),
 * kstats_direct_enter_local()), which takes the slot's per-CPU guard
 * around the read; a call that enters while it is held on its CPU is not
 * timed: it is counted as missed and its body entered as if untraced.
 * The TSC is read inline and cannot recurse.
 *
 * Call depth tracking (a return-stack mitigation of Intel CPUs): as
 * ftrace's own trampolines do, the call from the function's fentry site
 * is accounted at the entry, and so is the call of the body; every
 * return is a RET, whose thunk counts it back.
 *
 * Arguments: the registers are saved only for a function that takes any
 * (none that takes some on the stack is traced here); %rax, %r10 and
 * %r11 are free at a call site for the kernel's functions (variadic ones
 * are never traced directly).  The return value (%rax) is kept across the exit work;
 * %rdx is not, so a function that returns 16 bytes (%rax and %rdx) is
 * never traced directly either.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#include <asm/percpu.h>
#include <asm/unwind_hints.h>

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

/* The current task, in the per-CPU area: in struct pcpu_hot from 6.2. */
#ifdef KSTATS_PCPU_HOT_CURRENT
#define KSTATS_CURRENT	PER_CPU_VAR(pcpu_hot + KSTATS_PCPU_HOT_CURRENT)
#else
#define KSTATS_CURRENT	PER_CPU_VAR(current_task)
#endif

/*
 * The preemption count, raised around the cgroup filter's reads (an RCU
 * reader's, as kstats_cgroup_under() is), in struct pcpu_hot from 6.2.
 * Where it drops to 0 with a reschedule due (the bit folded in, inverted),
 * the trampoline takes it in C (kstats_direct_resched()).
 */
#ifdef KSTATS_PCPU_HOT_PREEMPT
#define KSTATS_PREEMPT	PER_CPU_VAR(pcpu_hot + KSTATS_PCPU_HOT_PREEMPT)
#else
#define KSTATS_PREEMPT	PER_CPU_VAR(__preempt_count)
#endif

.macro KSTATS_PREEMPT_OFF
#ifdef CONFIG_PREEMPT_COUNT
	incl	KSTATS_PREEMPT
#endif
.endm

.macro KSTATS_PREEMPT_ON resched:req
#ifdef CONFIG_PREEMPT_COUNT
	decl	KSTATS_PREEMPT
#ifdef CONFIG_PREEMPTION
	jz	\resched
#endif
#endif
.endm

/* CALL_DEPTH_ACCOUNT, where the kernel tracks the call depth. */
#if defined(CONFIG_MITIGATION_CALL_DEPTH_TRACKING) || \
	defined(CONFIG_CALL_DEPTH_TRACKING)
#define KSTATS_CALL_DEPTH_ACCOUNT	CALL_DEPTH_ACCOUNT
#else
#define KSTATS_CALL_DEPTH_ACCOUNT
#endif

/*
 * The frame: the trampoline's own words, nothing else (a function with
 * arguments on the stack is not traced directly, kstats_direct.h).  Its
 * size is fixed, so the frame is described from %rsp alone (ORC needs no
 * frame pointer here, and %rbp is left alone).
 */
#define F_HOT	KSTATS_DFRAME_HOT
#define F_TS	KSTATS_DFRAME_TS	/* struct kstats_direct_entry: ts, cpu */
#define F_CPU	(KSTATS_DFRAME_TS + 8)
#define F_RDI	KSTATS_DFRAME_REGS
#define F_RSI	(KSTATS_DFRAME_REGS + 8)
#define F_RDX	(KSTATS_DFRAME_REGS + 16)
#define F_RCX	(KSTATS_DFRAME_REGS + 24)
#define F_R8	(KSTATS_DFRAME_REGS + 32)
#define F_R9	(KSTATS_DFRAME_REGS + 40)
/* the task's name and ids (the ids variants, whose entries save no r8, r9, rsi) */
#define F_NAME	KSTATS_DFRAME_NAME
#define F_IDS	KSTATS_DFRAME_IDS
#define F_SIZE	KSTATS_DFRAME_SIZE
/* From %rsp in the frame: fentry's return address, then the caller's. */
#define F_BODY	(F_SIZE)

	.text

/*
 * One variant of the common code per clock, and per what the function's
 * arguments need (nothing, the registers, the registers and stack words),
 * so that no call tests at run time what is known at attach time:
 * kstats_direct_<clock>_<args>, args 0 (none), 1 (registers).
 * The entry reads the clock named by @entry; the return calls
 * kstats_direct_exit_<clock>.  "tscns" is clock ktime on a kernel whose
 * timekeeping runs on the TSC: the TSC read at both ends, the difference
 * converted to nanoseconds at the return (kstats_direct.c).  A clock with
 * a "p" records plainly: its distribution has the default frac_bits, no
 * upper bound and no outliers, so the exit tests none of them; with an
 * "o", it records as plainly then compares the sample with its outliers'
 * bar.  "rich" calls C at both ends, which reads the node's clock, checks
 * its filters and takes its family's key (kstats_direct_enter_rich()).
 * "task_<clock>" is a duration whose filters are all the task's: its
 * entry checks them and reads the clock in C, its exit is the plain one.
 * "ret" records the return value alone: no clock at the entry, the exit
 * in C; "arg" an argument alone, at the entry, in C.  "tkey_<clock>" is
 * a duration split by a key of the task: the entry takes the key's index
 * and the clock in C, the exit (<clock>f) records in that key.
 * "comm_<clock>" is a duration whose one filter is the task's name: the
 * entry compares the name's two words with the slot's (@comm) before the
 * clock, then is the plain one, as is its exit.  "cgroup_<clock>" is
 * one whose one filter is a cgroup: for the clocks read inline, the comm
 * ones with the cgroup's check (@comm: its id and level) for the name's;
 * for the others, the task ones with that one check in C
 * (kstats_direct_enter_cgroup_<clock>()).  "fkey_<clock>" and
 * "fkey_comm_<clock>" are the plain and comm entries with an exit
 * (<clock>k) that takes a key from the frame, the caller; "ffunc_<clock>"
 * and "ffunc_comm_<clock>" the same with the function (<clock>i).
 * "tname_<clock>", "tname_comm_<clock>" are those entries keeping the
 * task's name in the frame, with an exit (<clock>n) that takes its key
 * from it; "tids_<clock>", "tids_comm_<clock>" the same with its pid and
 * tgid (<clock>t); "akey_<clock>" those saving every argument register,
 * as around a C entry, with an exit (<clock>a) that takes the key from
 * one of them.
 * %rbp is the caller's, which the body gave back, until the exits
 * (compiled with -ffixed-rbp) take it for an outlier's stack
 * (kstats_direct_at()).
 */
/*
 * The argument registers, saved in the frame before the entry's work and
 * given back to the body (or to the function, for a call not timed): all
 * of them around a C entry, which may clobber any; around an inline one,
 * only the one it uses: %rdx (rdtsc's high half).
 */
.macro KSTATS_DIRECT_ARGS_SAVE args:req, c_entry:req
	.if \args
	.if \c_entry
	movq	%rdi, F_RDI(%rsp)
	movq	%rsi, F_RSI(%rsp)
	.endif
	movq	%rdx, F_RDX(%rsp)
	.if \c_entry
	movq	%rcx, F_RCX(%rsp)
	movq	%r8, F_R8(%rsp)
	movq	%r9, F_R9(%rsp)
	.endif
	.endif
.endm

.macro KSTATS_DIRECT_ARGS_RESTORE args:req, c_entry:req
	.if \args
	.if \c_entry
	movq	F_RDI(%rsp), %rdi
	movq	F_RSI(%rsp), %rsi
	.endif
	movq	F_RDX(%rsp), %rdx
	.if \c_entry
	movq	F_RCX(%rsp), %rcx
	movq	F_R8(%rsp), %r8
	movq	F_R9(%rsp), %r9
	.endif
	.endif
.endm

/* kstats_direct_resched(), every argument register kept around it. */
.macro KSTATS_DIRECT_RESCHED
	KSTATS_DIRECT_ARGS_SAVE 1, 1
	call	kstats_direct_resched
	KSTATS_DIRECT_ARGS_RESTORE 1, 1
	movq	F_HOT(%rsp), %r11
.endm

.macro KSTATS_DIRECT_COMMON name:req, clock:req, entry:req, args:req, tk:req, comm=0, ids=0
SYM_CODE_START_LOCAL(kstats_direct_\name\()_\args)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	KSTATS_CALL_DEPTH_ACCOUNT
	subq	$F_SIZE, %rsp
	movq	%r11, F_HOT(%rsp)
	.if \comm == 1
	/* Another task's name: the body runs untimed, nothing saved yet. */
	movq	KSTATS_CURRENT, %rax
	movq	KSTATS_TASK_COMM(%rax), %r10
	cmpq	KSTATS_DHOT_COMM(%r11), %r10
	jne	.Lother_\@
	movq	KSTATS_TASK_COMM + 8(%rax), %r10
	cmpq	KSTATS_DHOT_COMM + 8(%r11), %r10
	jne	.Lother_\@
	.endif
	.if \comm == 2
	/*
	 * Out of the slot's cgroup: the same.  The task's cgroup is read as
	 * kstats_cgroup_under() reads it: the ancestor at the filter's level
	 * (the slot's second word), its id compared with the slot's first.
	 */
#ifdef CONFIG_CGROUPS
	movq	KSTATS_CURRENT, %rax
	KSTATS_PREEMPT_OFF
	movq	KSTATS_TASK_CGROUPS(%rax), %rax
	movq	KSTATS_CSET_DFL_CGRP(%rax), %rax
	movl	KSTATS_DHOT_COMM + 8(%r11), %r10d
	cmpl	%r10d, KSTATS_CGROUP_LEVEL(%rax)
	jb	.Lcgroup_out_\@
	movq	KSTATS_CGROUP_ANCESTORS(%rax, %r10, 8), %rax
	movq	KSTATS_CGROUP_KN(%rax), %rax
	movq	KSTATS_KN_ID(%rax), %rax
	cmpq	KSTATS_DHOT_COMM(%r11), %rax
	jne	.Lcgroup_out_\@
	KSTATS_PREEMPT_ON .Lresched_in_\@
.Lcgroup_in_\@:
#else
	/*
	 * Never taken (without cgroups the filter is refused), but if it
	 * were, every call is out: a branch on the slot, never 0, so that
	 * the code after it is not unreachable for objtool.
	 */
	testq	%r11, %r11
	jnz	.Lother_\@
#endif
	.endif
	.if (\ids == 1) | (\ids == 2)
	/* The task's name, or ids, as they are now, for the exit's key. */
	.if !\comm
	movq	KSTATS_CURRENT, %rax
	.endif
	.if \ids == 1
	movq	KSTATS_TASK_COMM(%rax), %r10
	movq	%r10, F_NAME(%rsp)
	movq	KSTATS_TASK_COMM + 8(%rax), %r10
	movq	%r10, F_NAME + 8(%rsp)
	.elseif KSTATS_TASK_TGID == KSTATS_TASK_PID + 4
	movq	KSTATS_TASK_PID(%rax), %r10	/* pid, tgid */
	movq	%r10, F_IDS(%rsp)
	.else
	movl	KSTATS_TASK_PID(%rax), %r10d
	movl	%r10d, F_IDS(%rsp)
	movl	KSTATS_TASK_TGID(%rax), %r10d
	movl	%r10d, F_IDS + 4(%rsp)
	.endif
	.endif
	KSTATS_DIRECT_C_ENTRY \entry
	/* all the argument registers around a C entry, or for an argument key */
	.set	kstats_all_args, kstats_c_entry | (\ids == 3)
	KSTATS_DIRECT_ARGS_SAVE \args, kstats_all_args

	/* The clock: the time stamp counter inline, the others called. */
	.ifc \entry, tsc
	.if \tk
	movl	kstats_counter_tk + 4(%rip), %r10d
	.endif
	ALTERNATIVE_2 "rdtsc", "lfence; rdtsc", X86_FEATURE_LFENCE_RDTSC, \
		      "rdtscp", X86_FEATURE_RDTSCP
	movl	%eax, F_TS(%rsp)
	movl	%edx, F_TS + 4(%rsp)
	.if \tk
	movl	%r10d, F_CPU(%rsp)
	.endif
	.endif
	.if kstats_c_entry
	/* false: entered from its own clock read, run the body untimed */
	movq	%r11, %rdi
	leaq	F_TS(%rsp), %rsi
	call	kstats_direct_enter_\entry
	testb	%al, %al
	jz	.Lskip_\@
	movq	F_HOT(%rsp), %r11
	.endif

	/* One more call in flight: the slot stays until it returns. */
	movq	KSTATS_DHOT_PCPU(%r11), %rax
	incq	%gs:(%rax)

	KSTATS_DIRECT_ARGS_RESTORE \args, kstats_all_args
	KSTATS_CALL_DEPTH_ACCOUNT
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lbody_\@
	KSTATS_DIRECT_RETURN_SITE

	/*
	 * The body returned here.  objtool follows the call above as a
	 * jump, so the frame is described again: all of it on %rsp.
	 */
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=F_SIZE+8
	movq	%rax, F_RDI(%rsp)
	movq	F_HOT(%rsp), %rdi
	leaq	F_TS(%rsp), %rsi
	/*
	 * The exit on one CPU: a sample's count and its sum in one CPU's
	 * slot, its outlier in that CPU's store.
	 */
	KSTATS_PREEMPT_OFF
	call	kstats_direct_exit_\clock
	KSTATS_PREEMPT_ON .Lexit_resched_\@
.Lexited_\@:
	movq	F_RDI(%rsp), %rax
	/* Drop the frame and the return address into the function: it ran. */
	addq	$F_SIZE + 8, %rsp
	UNWIND_HINT_FUNC
	RET

#ifdef CONFIG_PREEMPTION
	/* A reschedule came due in the exit: taken, the return value kept. */
.Lexit_resched_\@:
	call	kstats_direct_resched
	jmp	.Lexited_\@
#endif

	.if kstats_c_entry
.Lskip_\@:
	/* Back to the function past its fentry call, arguments as they were. */
	KSTATS_DIRECT_ARGS_RESTORE \args, kstats_c_entry
	addq	$F_SIZE, %rsp
	UNWIND_HINT_FUNC
	RET
	.endif

#ifdef CONFIG_CGROUPS
	.if \comm == 2
.Lcgroup_out_\@:
	KSTATS_PREEMPT_ON .Lresched_out_\@
	jmp	.Lother_\@
#ifdef CONFIG_PREEMPTION
	/* A reschedule came due in the check: taken, arguments kept. */
.Lresched_in_\@:
	KSTATS_DIRECT_RESCHED
	jmp	.Lcgroup_in_\@
.Lresched_out_\@:
	KSTATS_DIRECT_RESCHED
	jmp	.Lother_\@
#endif
	.endif
#endif

	.if \comm
.Lother_\@:
	/* The argument registers are untouched: back past the fentry call. */
	addq	$F_SIZE, %rsp
	UNWIND_HINT_FUNC
	RET
	.endif

.Lbody_\@:
	/* Enter the body, past the fentry call, by a return: no ENDBR there. */
	pushq	F_BODY + 8(%rsp)
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(kstats_direct_\name\()_\args)
_ASM_NOKPROBE(kstats_direct_\name\()_\args)
.endm

/* The variants (kstats_direct_variant_list.h), then the stubs. */
KSTATS_DIRECT_VARIANTS_CODE

/*
 * The stubs, KSTATS_DIRECT_STUB_SIZE bytes apart, KSTATS_DIRECT_SLOTS per
 * variant in the order of enum kstats_direct_variant: stub i of a variant
 * loads the address of kstats_direct_hot[i] and jumps to the variant.
 */
.macro KSTATS_DIRECT_STUBS common:req
	.set	kstats_stub, 0
	.rept	KSTATS_DIRECT_SLOTS
	UNWIND_HINT_FUNC
	leaq	kstats_direct_hot + kstats_stub * KSTATS_DHOT_SIZE(%rip), %r11
	jmp	\common
	.balign	KSTATS_DIRECT_STUB_SIZE, 0xcc
	.set	kstats_stub, kstats_stub + 1
	.endr
.endm

	.balign	KSTATS_DIRECT_STUB_SIZE
SYM_CODE_START(kstats_direct_stubs)
	ANNOTATE_NOENDBR
	KSTATS_DIRECT_EACH KSTATS_DIRECT_STUBS_ARGS
SYM_CODE_END(kstats_direct_stubs)
_ASM_NOKPROBE(kstats_direct_stubs)
	.globl	kstats_direct_stubs_end
	.set	kstats_direct_stubs_end, .
