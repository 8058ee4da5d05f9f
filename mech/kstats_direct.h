/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct mechanism: a trampoline of kstats' own, called straight from
 * a function's ftrace call site, that times the function's body.  Shared
 * by kstats_direct.c and the trampoline (kstats_direct_tramp_*.S).
 */
#ifndef _KSTATS_DIRECT_H
#define _KSTATS_DIRECT_H

/* Functions traced directly at once (one trampoline stub each). */
#define KSTATS_DIRECT_SLOTS	64
/* Bytes between two stubs. */
#define KSTATS_DIRECT_STUB_SIZE	16
/*
 * Each variant's code comes in two kinds: for a function with no
 * argument, and for one with arguments in registers, which it saves.  A
 * function with arguments on the stack is not traced directly: the body
 * would find them in the trampoline's frame, which must be all kstats'
 * own, so that a removal can make a call in flight return through the
 * kernel's own code (kstats_direct_reroute.c).
 */
#define KSTATS_DIRECT_ARG_KINDS	2
#ifdef CONFIG_X86_64
/* Argument registers it saves. */
#define KSTATS_DIRECT_ARG_REGS	6

/*
 * The trampoline's frame, from its %rsp: the slot's address, the call's
 * struct kstats_direct_entry, the argument registers, and the frame's
 * size, above which lie the return address into the function (past its
 * fentry call) and the one into its caller.  Below it, the body's return
 * address into the trampoline.
 */
#define KSTATS_DFRAME_HOT	0
#define KSTATS_DFRAME_TS	(KSTATS_DFRAME_HOT + 8)
/* The argument registers, saved: %rdi, %rsi, %rdx, %rcx, %r8, %r9. */
#define KSTATS_DFRAME_REGS	(KSTATS_DFRAME_HOT + 24)
#define KSTATS_DFRAME_SIZE	(KSTATS_DFRAME_HOT + 72)
/*
 * The task's name, or its pid and tgid, kept by entries that call no C
 * (the task name and ids variants) where those save no register: %r8's
 * and %r9's words; %rsi's.
 */
#define KSTATS_DFRAME_NAME	(KSTATS_DFRAME_REGS + 32)
#define KSTATS_DFRAME_IDS	(KSTATS_DFRAME_REGS + 8)
#else
/* Argument registers it saves: x0-x7, and x8 (an indirect result's). */
#define KSTATS_DIRECT_ARG_REGS	8

/*
 * arm64: the frame, from sp: the traced function's frame record (the next
 * one's address and the body's address, where it resumes past its ftrace
 * call); its caller's (the caller's x29 and return address, x9 at the
 * entry); the slot's address; the call's struct kstats_direct_entry;
 * x0-x8, saved.  Each record lies above the one before it, as the
 * unwinder wants them; the body's own record, below, returns into the
 * trampoline.  A multiple of 16 bytes, as sp must be.
 */
#define KSTATS_DFRAME_FUNC	0
#define KSTATS_DFRAME_CALLER	(KSTATS_DFRAME_FUNC + 16)
#define KSTATS_DFRAME_HOT	(KSTATS_DFRAME_FUNC + 32)
#define KSTATS_DFRAME_TS	(KSTATS_DFRAME_FUNC + 40)
#define KSTATS_DFRAME_REGS	(KSTATS_DFRAME_FUNC + 56)
#define KSTATS_DFRAME_SIZE	(KSTATS_DFRAME_FUNC + 128)
/* The task's name, or pid and tgid, as on x86-64: x1's and x2's words; x3's. */
#define KSTATS_DFRAME_NAME	(KSTATS_DFRAME_REGS + 8)
#define KSTATS_DFRAME_IDS	(KSTATS_DFRAME_REGS + 24)
#endif

/* struct kstats_direct_hot, as the trampoline reads it. */
#define KSTATS_DHOT_PCPU	8
#define KSTATS_DHOT_KS		16
#define KSTATS_DHOT_COMM	48
#define KSTATS_DHOT_SIZE	64

#ifndef __ASSEMBLY__
#include <linux/types.h>

/*
 * Built where the trampoline can be: x86-64 with ftrace's direct calls,
 * and ORC, whose unwind state the exit hook reads to find the calls in
 * flight of a task that exits (kstats_direct_task_exit()); arm64 with
 * ftrace's direct calls, whose frame records it reads instead, and no
 * shadow call stack, where a return address would stay that the removal
 * of a slot cannot reroute (kstats_direct_reroute.c).
 */
#if defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && \
	defined(CONFIG_UNWINDER_ORC)
#define KSTATS_HAVE_DIRECT 1
#elif defined(CONFIG_ARM64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && \
	!defined(CONFIG_SHADOW_CALL_STACK)
#define KSTATS_HAVE_DIRECT 1
#endif

struct kstats;
struct kstats_btf_func;
struct kstats_fn;
struct kstats_outlier_cpu;
struct kstats_outliers;

/**
 * struct kstats_direct_pcpu - a slot's state on one CPU
 * @inflight: calls entered minus calls returned (first: the trampoline
 *	increments it through the pointer, with no offset)
 * @busy: the slot's exit work or clock read is running on this CPU; a
 *	call that enters then (the clock read called the traced function
 *	itself: read_hpet() under clock ktime on the HPET) is not timed
 * @index: the family index of @key
 * @key: the key the task key and task name variants took last on this
 *	CPU (kstats_direct_key_index()); until the first, one no task has: a
 *	second word of U64_MAX (a name's last byte is its NUL, the other
 *	keys' second word is 0)
 * @word: the key the task ids and frame key variants took last on this
 *	CPU, in one word that a nested call (an interrupt's, an NMI's)
 *	replaces whole: the key's 32 bits (kstats_direct_key32()) above its
 *	family index, so read with no guard (kstats_direct_word_hit());
 *	until the first, U64_MAX, which no key's 32 bits are
 */
struct kstats_direct_pcpu {
	long inflight;
	int busy;
	u32 index;
	u64 key[2];
	u64 word;
};

/**
 * enum kstats_direct_kind - the variants a node with filters, values or a
 *	family takes (kstats_direct_kind_of())
 * @KSTATS_DKIND_RICH: its registers rebuilt, anything checked and keyed
 * @KSTATS_DKIND_TASK: a duration whose filters are all the task's: the
 *	entry checks them, the exit is the clock's plain one ("entry task")
 * @KSTATS_DKIND_RET: the return value alone, recorded at the exit, no
 *	clock read ("exit ret")
 * @KSTATS_DKIND_ARG: an argument in a register alone, recorded at the
 *	entry, the body run untimed ("entry arg")
 * @KSTATS_DKIND_TKEY: a duration split by a key of the task, its filters
 *	all the task's: the entry takes the key ("entry task_key"); or by
 *	one the trampoline's frame holds, the caller or the function
 *	("entry frame_key"), or an argument in a register, as it is or
 *	cast, from the registers the entry saved ("entry arg_key")
 * @KSTATS_DKIND_COMM: a duration whose one filter is the task's name: the
 *	trampoline compares it inline, then times as the plain variants do
 *	("entry comm")
 * @KSTATS_DKIND_CGROUP: a duration whose one filter is a cgroup: the task
 *	variants with that one check ("entry cgroup")
 * @KSTATS_DKIND_FKEY: a duration split by its caller, a key of the frame,
 *	with no filter: the plain entries, the exit takes the key ("exit
 *	frame_key")
 * @KSTATS_DKIND_FKEY_COMM: the same whose one filter is the task's name,
 *	compared inline as the comm variants do ("entry comm exit
 *	frame_key")
 * @KSTATS_DKIND_TNAME: a duration split by the task's name, with no
 *	filter, its clock read inline: the entry keeps the task's name in
 *	the frame, the exit takes the key from it ("entry task_name exit
 *	task_key")
 * @KSTATS_DKIND_TNAME_COMM: the same whose one filter is the task's name
 *	("entry comm task_name exit task_key")
 * @KSTATS_DKIND_TIDS: the same for a pid or a tid: the entry keeps the
 *	task's pid and tgid ("entry task_ids exit task_key")
 * @KSTATS_DKIND_TIDS_COMM: the same whose one filter is the task's name
 *	("entry comm task_ids exit task_key")
 * @KSTATS_DKIND_FFUNC: as @KSTATS_DKIND_FKEY, split by the function (of a
 *	node over several) ("exit frame_key")
 * @KSTATS_DKIND_FFUNC_COMM: as @KSTATS_DKIND_FKEY_COMM, by the function
 *	("entry comm exit frame_key")
 * @KSTATS_DKIND_AKEY: a duration split by an argument in a register
 *	other than the first, with no filter, its clock read inline: the
 *	entry saves the argument registers and calls no C, the exit takes
 *	the key from them ("exit arg_key")
 */
enum kstats_direct_kind {
	KSTATS_DKIND_RICH,
	KSTATS_DKIND_TASK,
	KSTATS_DKIND_RET,
	KSTATS_DKIND_ARG,
	KSTATS_DKIND_TKEY,
	KSTATS_DKIND_COMM,
	KSTATS_DKIND_CGROUP,
	KSTATS_DKIND_FKEY,
	KSTATS_DKIND_FKEY_COMM,
	KSTATS_DKIND_TNAME,
	KSTATS_DKIND_TNAME_COMM,
	KSTATS_DKIND_TIDS,
	KSTATS_DKIND_TIDS_COMM,
	KSTATS_DKIND_FFUNC,
	KSTATS_DKIND_FFUNC_COMM,
	KSTATS_DKIND_AKEY,
};

/**
 * struct kstats_direct_hot - what the trampoline of one slot reads
 * @kind: enum kstats_direct_kind, the variants @fn takes
 * @nregs: argument registers the function takes
 * @clock: enum kstats_clock of @ks
 * @tscns: clock ktime, read as the TSC (kstats_direct_exit_tscns())
 * @task_filter: @fn has filters to check (the task key variants skip
 *	kstats_filter_task_holds() otherwise)
 * @exit: enum kstats_direct_exit, the exits the slot takes
 * @pcpu: per CPU, the calls in flight and the recursion guard
 * @ks: the distribution
 * @outliers: the samples it keeps with their context, or NULL
 * @ocpu: @outliers' per-CPU state, whose first word is the bar a sample
 *	must reach to be kept (struct kstats_outlier_cpu), or NULL
 * @fn: a node with filters or a family, which its entry checks and keys
 *	(the rich variants, kstats_direct_enter_rich()); NULL for a plain
 *	duration
 * @comm: the task name of the comm variants, as two words (struct
 *	kstats_comm_words); for the cgroup variants that check it inline,
 *	the cgroup's id, then its level
 */
struct kstats_direct_hot {
	u8 kind;
	u8 exit;
	u8 nregs;
	u8 clock;
	u8 tscns;
	u8 task_filter;
	struct kstats_direct_pcpu __percpu *pcpu;
	struct kstats *ks;
	struct kstats_outliers *outliers;
	struct kstats_outlier_cpu __percpu *ocpu;
	struct kstats_fn *fn;
	u64 comm[2];
} __aligned(KSTATS_DHOT_SIZE);

/**
 * enum kstats_direct_exit - what a slot's exits do after the clock read
 * @KSTATS_DEXIT_GENERIC: any frac_bits, an upper bound, outliers if any
 * @KSTATS_DEXIT_PLAIN: the default frac_bits, no upper bound, no outliers:
 *	the record alone
 * @KSTATS_DEXIT_OUTLIERS: as plain, then one compare with the outliers'
 *	bar on this CPU
 * @KSTATS_DEXITS: how many kinds
 * @KSTATS_DEXIT_FAMILY: not a kind of the plain variants: the task key
 *	variants' exits, which record in the key the entry took
 * @KSTATS_DEXIT_FRAME_KEY: nor this: the frame key variants' exits, which
 *	take the key (the caller) from the frame, where it still is, and
 *	record in it
 * @KSTATS_DEXIT_TASK_NAME: nor this: the task name variants' exits, which
 *	take the key from the task's name the entry kept in the frame
 * @KSTATS_DEXIT_TASK_IDS: nor this: the task ids variants' exits, which
 *	take the key from the task's pid and tgid the entry kept there
 * @KSTATS_DEXIT_FRAME_FUNC: nor this: as @KSTATS_DEXIT_FRAME_KEY, the key
 *	the function (its address, in the frame)
 * @KSTATS_DEXIT_ARG_KEY: nor this: the argument key variants' exits, which
 *	take the key from the argument registers the entry saved (the first
 *	excepted: the return value takes its word)
 *
 * The trampoline's variants are in this order, per clock.
 */
enum kstats_direct_exit {
	KSTATS_DEXIT_GENERIC,
	KSTATS_DEXIT_PLAIN,
	KSTATS_DEXIT_OUTLIERS,
	KSTATS_DEXITS,
	KSTATS_DEXIT_FAMILY = KSTATS_DEXITS,
	KSTATS_DEXIT_FRAME_KEY,
	KSTATS_DEXIT_TASK_NAME,
	KSTATS_DEXIT_TASK_IDS,
	KSTATS_DEXIT_FRAME_FUNC,
	KSTATS_DEXIT_ARG_KEY,
};

/**
 * struct kstats_direct_entry - a call's start, in the trampoline's frame
 * @ts: the clock at the entry
 * @cpu: the CPU of the entry, for local_clock(); for clock ktime on the
 *	TSC, the timekeeper's epoch and shift (kstats_counter_tk); for a rich
 *	variant, the CPU in the low half and the family's key index in the
 *	high one
 */
struct kstats_direct_entry {
	u64 ts;
	u64 cpu;
};

#ifndef KSTATS_HAVE_DIRECT
static inline int kstats_direct_init(void) { return 0; }
static inline void kstats_direct_exit(void) { }
#else
#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#else
/* No ENDBR to leave out: arm64's landing pads are the stubs' BTI. */
#define __noendbr
#endif

int kstats_direct_init(void);
void kstats_direct_exit(void);

/* The trampoline's fields, one per slot (kstats_direct.c). */
extern struct kstats_direct_hot kstats_direct_hot[KSTATS_DIRECT_SLOTS];

/*
 * The trampoline's code, from its first variant up to the stubs, which
 * follow it: KSTATS_DIRECT_SLOTS stubs per variant (kstats_direct_tramp_*.S).
 */
extern const u8 kstats_direct_code[];
extern const u8 kstats_direct_stubs[];
/* the stubs' end: no trampoline code from there on */
extern const u8 kstats_direct_stubs_end[];
/* the return sites, as offsets from kstats_direct_code, ascending */
extern const u32 kstats_direct_rets[];
extern const u32 kstats_direct_rets_end[];

__noendbr void kstats_direct_outlier(struct kstats_direct_hot *h,
				     struct kstats_direct_entry *e, u64 v);

/* Called by the trampoline only, with direct calls: no ENDBR. */
__noendbr bool
kstats_direct_enter_local(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_ktime(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_rich(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_task_tsc(struct kstats_direct_hot *h,
			     struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_task_tscns(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_task_ktime(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_task_local(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_cgroup_ktime(struct kstats_direct_hot *h,
				 struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_cgroup_local(struct kstats_direct_hot *h,
				 struct kstats_direct_entry *e);
__noendbr void kstats_direct_resched(void);
__noendbr void
kstats_direct_exit_ret(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_arg(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_tkey_tsc(struct kstats_direct_hot *h,
			     struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_tkey_tscns(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_tkey_ktime(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr bool
kstats_direct_enter_tkey_local(struct kstats_direct_hot *h,
			       struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_rich(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsc(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscp(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsco(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktime(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktimep(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktimeo(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscns(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsp(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnso(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_local(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_localp(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_localo(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscf(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktimef(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsf(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_localf(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsck(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktimek(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsk(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_localk(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscn(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsn(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsct(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnst(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsca(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsa(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tsci(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_ktimei(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_tscnsi(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
__noendbr void
kstats_direct_exit_locali(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e);
#endif /* KSTATS_HAVE_DIRECT */
#endif /* __ASSEMBLY__ */

#endif /* _KSTATS_DIRECT_H */
