/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a probe point takes from the kernel and whom it counts, shared by
 * every mechanism: a value (an argument or the return value, through up to
 * four dereferences) and filters (pid, tid, comm, CPU, conditions on
 * values).  kstats_cmd.c parses them from text; the handlers evaluate them
 * with the inline functions below, which read memory only through
 * copy_from_kernel_nofault() and so never fault.
 */
#ifndef _KSTATS_POINT_H
#define _KSTATS_POINT_H

#include <linux/ptrace.h>
#include <linux/rethook.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86_64
#include <asm/processor.h>
#include <asm/vsyscall.h>
#endif
#include "kstats_by_key.h"
#include "kstats_cgroup.h"
#include "kstats_stack.h"

/* argN: N below this (6 registers and 6 stack words on x86-64, 8 and 4 on arm64). */
#define KSTATS_MAX_ARGS		12
/* Dereferences of one value. */
#define KSTATS_MAX_DEREFS	4
/* "if" conditions of one point. */
#define KSTATS_MAX_CONDS	4
/* Largest OFF of a dereference. */
#define KSTATS_MAX_OFFSET	S32_MAX

/**
 * enum kstats_base - where a value starts
 * @KSTATS_BASE_NONE: no value: the node records durations
 * @KSTATS_BASE_RET: the function's return value
 * @KSTATS_BASE_ARG: an argument of the function or tracepoint
 */
enum kstats_base {
	KSTATS_BASE_NONE,
	KSTATS_BASE_RET,
	KSTATS_BASE_ARG,
};

/**
 * struct kstats_width - how many bytes to keep, and how to widen them
 * @size: 1, 2, 4 or 8; 0 for all 8 of a base without a cast
 * @sign: sign-extend (s1, s2, s4) rather than zero-extend
 */
struct kstats_width {
	u8 size;
	bool sign;
};

/**
 * struct kstats_deref - one "+OFF:SIZE": read SIZE bytes at value + OFF
 * @off: the offset, -KSTATS_MAX_OFFSET..KSTATS_MAX_OFFSET
 * @width: what to read
 */
struct kstats_deref {
	s32 off;
	struct kstats_width width;
};

/**
 * struct kstats_value - "ret" or "argN", a cast, dereferences
 * @base: enum kstats_base
 * @arg: N of argN
 * @cast: the low bytes of the base to keep, or size 0 for all
 * @typed: @cast is the base's own type, from the BTF (kstats_value_type()),
 *	not written: it is not shown
 * @nr_derefs: 0..KSTATS_MAX_DEREFS
 * @deref: applied in order; all but the last read 8 bytes
 */
struct kstats_value {
	u8 base;
	u8 arg;
	struct kstats_width cast;
	bool typed;
	u8 nr_derefs;
	struct kstats_deref deref[KSTATS_MAX_DEREFS];
};

/* The operators of "if V OP C", in the order of kstats_op_names[]. */
enum kstats_op {
	KSTATS_OP_EQ,
	KSTATS_OP_NE,
	KSTATS_OP_LT,
	KSTATS_OP_LE,
	KSTATS_OP_GT,
	KSTATS_OP_GE,
	KSTATS_OP_AND,
	KSTATS_NR_OPS,
};

extern const char * const kstats_op_names[KSTATS_NR_OPS];

/**
 * struct kstats_cond - "if V OP C"
 * @v: the value
 * @op: enum kstats_op
 * @c: the constant; compared as signed 64-bit numbers
 */
struct kstats_cond {
	struct kstats_value v;
	u8 op;
	s64 c;
};

/**
 * struct kstats_filter - who and what a point counts; all must hold
 * @pid: thread group id, or -1 for any
 * @tid: task id, or -1 for any
 * @cpu: CPU the probe fires on, or -1 for any
 * @comm: exact task name, or "" for any
 * @nr_conds: 0..KSTATS_MAX_CONDS
 * @cond: the conditions
 * @cgroup_id: "cgroup PATH": the cgroup v2 the task must be in, or under,
 *	by id (kstats_filter_resolve()); 0 for any
 * @cgroup_level: its depth below the root
 * @cgroup_path: PATH as written, while the command is parsed: set by the
 *	grammar, made @cgroup_id and cleared when the node is made
 */
struct kstats_filter {
	s32 pid;
	s32 tid;
	s32 cpu;
	char comm[TASK_COMM_LEN];
	u8 nr_conds;
	struct kstats_cond cond[KSTATS_MAX_CONDS];
	u64 cgroup_id;
	u32 cgroup_level;
	const char *cgroup_path;
};

/**
 * enum kstats_key_kind - what pairs the start and the end of a section
 * @KSTATS_KEY_TASK: the current task (the default): a section may sleep
 *	and migrate between its points
 * @KSTATS_KEY_CPU: the current CPU
 * @KSTATS_KEY_VALUE: a value of the point (struct kstats_value), e.g. the
 *	task a wakeup names and a switch runs, or a request
 */
enum kstats_key_kind {
	KSTATS_KEY_TASK,
	KSTATS_KEY_CPU,
	KSTATS_KEY_VALUE,
};

/**
 * struct kstats_key - the key of one point of a section
 * @kind: enum kstats_key_kind
 * @v: the value, for KSTATS_KEY_VALUE
 */
struct kstats_key {
	u8 kind;
	struct kstats_value v;
};

/*
 * What a family is split by ("by KEY"): KSTATS_BY_NONE, no family; then
 * KSTATS_BY_ID for each key of kstats_by_key_list.h, in its order: COMM,
 * PID, TID, CPU, CALLER, CGROUP, STACK, FUNC; and KSTATS_BY_VALUE, a value
 * of the point (struct kstats_value).  Not a kernel-doc comment:
 * kernel-doc does not expand the list.
 */
enum kstats_by_kind {
	KSTATS_BY_NONE,
#define KSTATS_BY_KEY(id, ...)	KSTATS_BY_##id,
#include "kstats_by_key_list.h"
	KSTATS_BY_VALUE,
};

/*
 * Whether the key of @kind has a flag of @want (KSTATS_KEYF_*, a constant;
 * its FLAGS in kstats_by_key_list.h): a case per key, each a constant once
 * inlined, so that a hot path compares @kind with the keys that have it,
 * with no table to load.  False for KSTATS_BY_NONE and KSTATS_BY_VALUE.
 * (A case's braces: a macro may not end in a semicolon.)
 */
static __always_inline bool kstats_by_has(enum kstats_by_kind kind,
					  unsigned int want)
{
	switch (kind) {
#define KSTATS_BY_KEY(id, ...)						\
	case KSTATS_BY_##id: {						\
		return (KSTATS_KEY_FLAGS(id, __VA_ARGS__)) & want;	\
	}
#include "kstats_by_key_list.h"
	default:
		return false;
	}
}

/* Whether the word of @kind takes a number, as "by stack N" does. */
static __always_inline bool kstats_by_takes_number(enum kstats_by_kind kind)
{
	switch (kind) {
#define KSTATS_BY_KEY(id, ...)						\
	case KSTATS_BY_##id: {						\
		return KSTATS_KEY_ARG_NUMBER(KSTATS_KEY_ARG(id, __VA_ARGS__)); \
	}
#include "kstats_by_key_list.h"
	default:
		return false;
	}
}

/* "by stack N": frames by default, and at most. */
#define KSTATS_BY_STACK_DEFAULT	8
#define KSTATS_BY_STACK_MAX	KSTATS_STACK_KEY_MAX

/* The keys of "by" that are words, by enum kstats_by_kind. */
extern const char * const kstats_by_names[KSTATS_BY_VALUE];

/**
 * struct kstats_by - the key of a family
 * @kind: enum kstats_by_kind
 * @v: the value, for KSTATS_BY_VALUE
 * @str: "by str:V": @v is the address of a string, whose first 15 bytes
 *	are the key (an interrupt handler's name), as a task name is
 * @str_off: "by str:V+OFF", OFF with no size: the string is in place at
 *	@v plus OFF, an array of the structure @v points to (a task's
 *	comm), not at an address read there
 * @frames: "by stack N": N, 1..KSTATS_BY_STACK_MAX
 */
struct kstats_by {
	u8 kind;
	bool str;
	u8 frames;
	s32 str_off;
	struct kstats_value v;
};

/**
 * struct kstats_point_opts - what one point of a section takes
 * @key: its key
 * @match: with @has_match, a value its start and end must agree on
 *	besides the key ("match V": the lock a wait is for)
 * @has_match: "match V" was given
 * @filter: its filters
 * @by: a further start's own family key (a value: the task a wakeup
 *	names is not the one a switch names), KSTATS_BY_NONE for the node's
 */
struct kstats_point_opts {
	struct kstats_key key;
	struct kstats_value match;
	bool has_match;
	struct kstats_filter filter;
	struct kstats_by by;
};

/**
 * struct kstats_args - what a value is taken from, in a handler
 * @regs: the registers of a function's entry or return, or of a kprobe
 * @tp: a tracepoint's arguments, instead of @regs
 * @ret: the return value register, at a function's return
 */
struct kstats_args {
	struct pt_regs *regs;
	const unsigned long *tp;
	u64 ret;
};

#ifdef CONFIG_X86_64
/*
 * The return address @ret, read at a function's entry's stack pointer @sp,
 * as the caller's: a return probe that came first on this call (another
 * node's, a kretprobe's) put its trampoline there, and the caller's
 * address in its rethook node.
 */
static __always_inline notrace unsigned long
kstats_return_address_fixup(unsigned long sp, unsigned long ret)
{
#ifdef CONFIG_RETHOOK
	struct llist_node *n;

	/*
	 * The oldest node of this frame holds the caller's: the task's own
	 * list, read as rethook_find_ret_addr() does.
	 */
	for (n = READ_ONCE(current->rethooks.first); n; n = READ_ONCE(n->next)) {
		const struct rethook_node *rh =
			container_of(n, struct rethook_node, llist);

		if (rh->frame == sp)
			ret = rh->ret_addr;
	}
#endif
	return ret;
}
#endif

/*
 * Where a function's caller resumes, from its entry's stack pointer @sp
 * (x86-64: the call pushed the address there) or its link register @lr
 * and frame pointer @fp (arm64): for the registers a probe gives
 * (kstats_entry_return_address()) and, on arm64, for the direct
 * trampoline's frame.  0 if it cannot be read.
 */
static __always_inline notrace unsigned long
kstats_return_address_at(unsigned long sp, unsigned long lr, unsigned long fp)
{
#if defined(CONFIG_X86_64)
	/*
	 * On this task's stack, the one running (checked as
	 * regs_within_kernel_stack() does, then read plainly: no fault to
	 * catch)
	 */
	return kstats_return_address_fixup(sp, (sp & ~(THREAD_SIZE - 1)) ==
					   (current_stack_pointer &
					    ~(THREAD_SIZE - 1)) ?
					   READ_ONCE(*(unsigned long *)sp) : 0);
#elif defined(CONFIG_ARM64)
	return kstats_kretprobe_ret(lr, fp);
#else
	return 0;
#endif
}

/*
 * The return address of a function, from its registers at its entry:
 * where its caller resumes.  0 if it cannot be read.
 */
static __always_inline notrace unsigned long
kstats_entry_return_address(struct pt_regs *regs)
{
#ifdef CONFIG_ARM64
	return kstats_regs_link(regs);
#else
	return kstats_return_address_at(kernel_stack_pointer(regs), 0, 0);
#endif
}

/* What kstats_filter_check() found. */
enum kstats_verdict {
	KSTATS_COUNT,		/* every filter holds */
	KSTATS_SKIP,		/* a filter does not: count nothing */
	KSTATS_UNREADABLE,	/* a value could not be read: count missed */
};

/* When a filter is checked: which of its conditions apply then. */
enum kstats_when {
	KSTATS_AT_POINT,	/* a tracepoint or kprobe: everything */
	KSTATS_AT_ENTRY,	/* a function's entry: all but ret */
	KSTATS_AT_RETURN,	/* a function's return: conditions on ret */
};

static inline bool kstats_value_uses_ret(const struct kstats_value *v)
{
	return v->base == KSTATS_BASE_RET;
}

static inline bool kstats_filter_uses_ret(const struct kstats_filter *f)
{
	int i;

	for (i = 0; i < f->nr_conds; i++)
		if (kstats_value_uses_ret(&f->cond[i].v))
			return true;
	return false;
}

/* No filter: any task, any CPU. */
static inline void kstats_filter_init(struct kstats_filter *f)
{
	f->pid = -1;
	f->tid = -1;
	f->cpu = -1;
	f->comm[0] = '\0';
	f->nr_conds = 0;
	f->cgroup_id = 0;
	f->cgroup_level = 0;
	f->cgroup_path = NULL;
}

static inline bool kstats_filter_is_empty(const struct kstats_filter *f)
{
	return f->pid < 0 && f->tid < 0 && f->cpu < 0 && !f->comm[0] &&
	       !f->nr_conds && !f->cgroup_id && !f->cgroup_path;
}

/* Whether @f's filters are all conditions on arguments (or none). */
static inline bool kstats_filter_args_alone(const struct kstats_filter *f)
{
	int i;

	for (i = 0; i < f->nr_conds; i++)
		if (f->cond[i].v.base != KSTATS_BASE_ARG)
			return false;
	return f->pid < 0 && f->tid < 0 && f->cpu < 0 && !f->comm[0] &&
	       !f->cgroup_id && !f->cgroup_path;
}

/* Whether the task's name is the one filter of @f. */
static inline bool kstats_filter_comm_alone(const struct kstats_filter *f)
{
	return f->pid < 0 && f->tid < 0 && f->cpu < 0 && f->comm[0] &&
	       !f->nr_conds && !f->cgroup_id && !f->cgroup_path;
}

/* Whether a cgroup is the one filter of @f. */
static inline bool kstats_filter_cgroup_alone(const struct kstats_filter *f)
{
	return f->pid < 0 && f->tid < 0 && f->cpu < 0 && !f->comm[0] &&
	       !f->nr_conds && f->cgroup_id;
}

/*
 * A function's return value as a signed number where its type is not
 * known (no BTF, no cast): the register as a long, except that an int
 * function's -errno, which leaves the upper half of the register zero, is
 * taken as the negative int it is.  With a type, the cast says.
 */
static __always_inline notrace u64 kstats_ret_value(unsigned long rax)
{
	if (!(rax >> 32) && (s32)rax < 0 && (s32)rax >= -4095)
		return (u64)(s64)(s32)rax;
	return rax;
}

/* Keep @w's low bytes of @v, widened as @w says. */
static __always_inline notrace u64 kstats_widen(u64 v, struct kstats_width w)
{
	switch (w.size) {
	case 1:
		return w.sign ? (u64)(s64)(s8)v : (u8)v;
	case 2:
		return w.sign ? (u64)(s64)(s16)v : (u16)v;
	case 4:
		return w.sign ? (u64)(s64)(s32)v : (u32)v;
	default:
		return v;
	}
}

/* ret as value @v takes it, before any dereference: cast, or as a long. */
static __always_inline notrace u64
kstats_ret_fetch(const struct kstats_value *v, unsigned long ret)
{
	return v->cast.size ? kstats_widen(ret, v->cast) : kstats_ret_value(ret);
}

/*
 * Argument @n of a function, from its registers at its entry (or a
 * kprobe's at its first instruction): x86-64's helper reads the stack
 * words past the sixth; arm64's stops at x7, so the ninth argument on is
 * read here, from the stack the caller left them on.
 */
static __always_inline notrace unsigned long
kstats_regs_argument(struct pt_regs *regs, unsigned int n)
{
#ifdef CONFIG_ARM64
	unsigned long v;

	/* the kernel's stack reader is not exported there */
	if (n >= 8)
		return copy_from_kernel_nofault(&v, (unsigned long *)
						kernel_stack_pointer(regs) + n - 8,
						sizeof(v)) ? 0 : v;
#endif
	return regs_get_kernel_argument(regs, n);
}

#ifdef CONFIG_X86_64
/*
 * kstats_read_kernel()'s bound on x86-64: -2^__VIRTUAL_MASK_SHIFT, where
 * the canonical kernel half of the paging in use begins, and the span
 * from there to the vsyscall page, set at load (kstats_point_init()).  Two
 * loads a read: the bound computed there was a branch on the 5-level
 * alternative and both pairs of constants, held in registers.
 */
extern unsigned long kstats_kernel_floor, kstats_kernel_span;
#endif

void kstats_point_init(void);

/*
 * @w.size bytes (1, 2, 4 or 8) of kernel memory at @addr into *@out,
 * widened as @w says (kstats_widen()), or false: what
 * copy_from_kernel_nofault() does, inline, where the architecture's
 * one-access read is there to take (a dereference of a recipe's runs at
 * every scheduler switch; the call took about 200 instructions a read on
 * Debian 6.12).  The same addresses are refused: on x86-64 the user half,
 * its guard page, the vsyscall page and non-canonical addresses
 * (copy_from_kernel_nofault_allowed()), all in one compare: what is left
 * of them is the canonical kernel half of the paging in use, from
 * -2^__VIRTUAL_MASK_SHIFT up to the vsyscall page (kstats_kernel_floor).
 * More is refused than the kernel's test does, never less: with 57 bits
 * and 4-level paging, what lies between the user half and -2^47 (which
 * the kernel lets through to the fault), and the fixmap's top pages,
 * above the vsyscall page (devices' registers: the local APIC's, the I/O
 * APICs').  A fault is taken by the access's exception-table entry.  On
 * x86-64, what the bound leaves are kernel addresses, whose faults the
 * handler never takes for the task's (do_kern_addr_fault() goes to the
 * fixup whatever pagefault_disable() says), so page faults stay on;
 * elsewhere they are turned off around the read.  The size is tested
 * once, for the read and its widening.
 */
static __always_inline notrace bool kstats_read_kernel(unsigned long addr,
						       struct kstats_width w,
						       u64 *out)
{
#if defined(CONFIG_X86_64) || defined(CONFIG_ARM64)
	u8 b;
	u16 h;
	u32 l;
	u64 d;

#ifdef CONFIG_X86_64
	/* the paging's own bound, as computed at load */
	if (addr - kstats_kernel_floor >= kstats_kernel_span)
		return false;
#else
	/* no bound here: a user address's fault must not be the task's */
	pagefault_disable();
#endif
	/* the sizes of most fields first: an int's, a pointer's or a long's */
	if (w.size == 4) {
		__get_kernel_nofault(&l, (void *)addr, u32, fault);
		d = w.sign ? (u64)(s64)(s32)l : l;
	} else if (w.size == 8) {
		__get_kernel_nofault(&d, (void *)addr, u64, fault);
	} else if (w.size == 2) {
		__get_kernel_nofault(&h, (void *)addr, u16, fault);
		d = w.sign ? (u64)(s64)(s16)h : h;
	} else {
		__get_kernel_nofault(&b, (void *)addr, u8, fault);
		d = w.sign ? (u64)(s64)(s8)b : b;
	}
#ifndef CONFIG_X86_64
	pagefault_enable();
#endif
	*out = d;
	return true;
fault:
#ifndef CONFIG_X86_64
	pagefault_enable();
#endif
	return false;
#else
	u64 d = 0;

	if (copy_from_kernel_nofault(&d, (void *)addr, w.size))
		return false;
	*out = kstats_widen(d, w);
	return true;
#endif
}

/*
 * The value @v from its base as read, @val (the argument, or ret as
 * kstats_ret_fetch() takes it): its cast, then its dereferences.  Return:
 * false if a dereference could not be read (a user, unmapped or
 * non-canonical address).
 */
static __always_inline notrace bool
kstats_value_from(const struct kstats_value *v, u64 val, u64 *out)
{
	int i;

	val = kstats_widen(val, v->cast);
	for (i = 0; i < v->nr_derefs; i++) {
		const struct kstats_deref *d = &v->deref[i];

		if (!kstats_read_kernel(val + d->off, d->width, &val))
			return false;
	}
	*out = val;
	return true;
}

/* Read the value @v.  Return: as kstats_value_from(). */
static __always_inline notrace bool
kstats_value_fetch(const struct kstats_value *v, const struct kstats_args *a,
		   u64 *out)
{
	u64 val;

	if (v->base == KSTATS_BASE_RET)
		val = kstats_ret_fetch(v, a->ret);
	else if (a->tp)
		val = a->tp[v->arg];
	else
		val = kstats_regs_argument(a->regs, v->arg);
	return kstats_value_from(v, val, out);
}

static __always_inline notrace bool
kstats_cond_holds(const struct kstats_cond *c, s64 v)
{
	switch (c->op) {
	case KSTATS_OP_EQ:
		return v == c->c;
	case KSTATS_OP_NE:
		return v != c->c;
	case KSTATS_OP_LT:
		return v < c->c;
	case KSTATS_OP_LE:
		return v <= c->c;
	case KSTATS_OP_GT:
		return v > c->c;
	case KSTATS_OP_GE:
		return v >= c->c;
	default:
		return v & c->c;
	}
}

/**
 * struct kstats_range - a condition's test as a range: the value as read
 *	(@mask's bits of it, zero-extended), less @lo, within @span, or not
 *	(@neg)
 * @lo: the range's first value, as read
 * @span: its last, less @lo (the difference wraps within @mask)
 * @mask: the bits a value has: all, or its size's
 * @neg: the test holds outside the range
 *
 * Every operator but "&" is one (kstats_cond_range()), which a compare
 * tests (kstats_range_holds()), with no switch on the operator, nor on
 * the sign of the value: a signed value's range is taken within its
 * size, where its bits run on as an unsigned's do, but from the middle.
 */
struct kstats_range {
	u64 lo;
	u64 span;
	u64 mask;
	bool neg;
};

/*
 * "OP @c" of @c, on a value read as @w says (a size of 0 or 8: the 64
 * bits), as a range into *@r.  Return: false for "&", which is none.  A
 * range with no value of the size in it (as "< S64_MIN", or "== -1" on
 * an unsigned field) is the whole of it, negated.
 */
static inline bool kstats_cond_range(u8 op, s64 c, struct kstats_width w,
				     struct kstats_range *r)
{
	unsigned int bits = w.size && w.size < 8 ? w.size * 8 : 64;
	s64 lo = S64_MIN, hi = S64_MAX;
	bool neg = false, none = false;

	switch (op) {
	case KSTATS_OP_EQ:
		lo = c;
		hi = c;
		break;
	case KSTATS_OP_NE:
		lo = c;
		hi = c;
		neg = true;
		break;
	case KSTATS_OP_LT:
		none = c == S64_MIN;
		hi = c - !none;
		break;
	case KSTATS_OP_LE:
		hi = c;
		break;
	case KSTATS_OP_GT:
		none = c == S64_MAX;
		lo = c + !none;
		break;
	case KSTATS_OP_GE:
		lo = c;
		break;
	default:
		return false;
	}
	r->mask = bits == 64 ? ~0ULL : BIT_ULL(bits) - 1;
	if (bits < 64) {
		/* the values of the size, as kstats_widen() gives them */
		s64 min = w.sign ? -(s64)BIT_ULL(bits - 1) : 0;
		s64 max = w.sign ? (s64)BIT_ULL(bits - 1) - 1 : (s64)r->mask;

		lo = max_t(s64, lo, min);
		hi = min_t(s64, hi, max);
		none |= lo > hi;
	}
	if (none) {
		r->lo = 0;
		r->span = r->mask;
		r->neg = !neg;
		return true;
	}
	r->lo = (u64)lo & r->mask;
	r->span = (u64)hi - (u64)lo;
	r->neg = neg;
	return true;
}

/*
 * kstats_cond_holds() of the condition @r was made from, on @v as read:
 * zero-extended from its size.
 */
static __always_inline notrace bool
kstats_range_holds(const struct kstats_range *r, u64 v)
{
	return (((v - r->lo) & r->mask) <= r->span) != r->neg;
}

/*
 * current->comm == @comm, with no call that could be traced: two words
 * each, as both are NUL-padded to TASK_COMM_LEN (the kernel names tasks
 * with strscpy_pad(), the filter's name is padded when parsed; "by comm"
 * keys take all 16 bytes alike).
 */
struct kstats_comm_words {
	u64 w[2];
} __packed;

static __always_inline notrace bool kstats_comm_is(const char *comm)
{
	const struct kstats_comm_words *a = (const void *)current->comm;
	const struct kstats_comm_words *b = (const void *)comm;

	BUILD_BUG_ON(sizeof(*a) != TASK_COMM_LEN);
	return a->w[0] == b->w[0] && a->w[1] == b->w[1];
}

/*
 * The filters on the task and the CPU: pid, tid, cpu, comm and cgroup,
 * which read no argument.  Return: whether they all hold.
 */
static __always_inline notrace bool
kstats_filter_task_holds(const struct kstats_filter *f)
{
	if (f->pid >= 0 && current->tgid != f->pid)
		return false;
	if (f->tid >= 0 && current->pid != f->tid)
		return false;
	if (f->cpu >= 0 && raw_smp_processor_id() != f->cpu)
		return false;
	if (f->comm[0] && !kstats_comm_is(f->comm))
		return false;
	if (f->cgroup_id && !kstats_cgroup_under(f->cgroup_id, f->cgroup_level))
		return false;
	return true;
}

/**
 * kstats_filter_check() - whether a point counts this event
 * @f: the filter
 * @a: what its conditions read
 * @when: which parts apply: a function's entry checks the task, the CPU
 *	and the conditions on arguments; its return, those on ret
 *
 * Context: any, NMI included.
 * Return: enum kstats_verdict.
 */
static __always_inline notrace enum kstats_verdict
kstats_filter_check(const struct kstats_filter *f, const struct kstats_args *a,
		    enum kstats_when when)
{
	int i;

	if (when != KSTATS_AT_RETURN && !kstats_filter_task_holds(f))
		return KSTATS_SKIP;
	for (i = 0; i < f->nr_conds; i++) {
		const struct kstats_cond *c = &f->cond[i];
		bool at_return = when == KSTATS_AT_RETURN;
		u64 v;

		if (when != KSTATS_AT_POINT &&
		    kstats_value_uses_ret(&c->v) != at_return)
			continue;
		if (!kstats_value_fetch(&c->v, a, &v))
			return KSTATS_UNREADABLE;
		if (!kstats_cond_holds(c, v))
			return KSTATS_SKIP;
	}
	return KSTATS_COUNT;
}

/*
 * The key of a point.  Return: false if its value could not be read.
 */
/* A key that reads no value: the CPU's, else the task's. */
static __always_inline notrace u64 kstats_key_plain(const struct kstats_key *k)
{
	return k->kind == KSTATS_KEY_CPU ? raw_smp_processor_id() :
	       (unsigned long)current;
}

static __always_inline notrace bool
kstats_key_fetch(const struct kstats_key *k, const struct kstats_args *a,
		 u64 *key)
{
	if (k->kind == KSTATS_KEY_VALUE)
		return kstats_value_fetch(&k->v, a, key);
	*key = kstats_key_plain(k);
	return true;
}

/* Whether the key of @b is taken at a function's return. */
static inline bool kstats_by_uses_ret(const struct kstats_by *b)
{
	return b->kind == KSTATS_BY_VALUE && kstats_value_uses_ret(&b->v);
}

/* Whether the key of @b is a value read at a function's entry. */
static inline bool kstats_by_uses_arg(const struct kstats_by *b)
{
	return b->kind == KSTATS_BY_VALUE && b->v.base == KSTATS_BASE_ARG;
}

/*
 * The string at @addr as a key: its first 15 bytes, zero-padded to 16.
 * Read in pieces that stay in one page each (copy_from_kernel_nofault()
 * fails a read that crosses into an unmapped one, and a short name may end
 * just before a page does).  False if it cannot be read.
 */
static __always_inline notrace bool kstats_string_fetch(u64 addr, u64 key[2])
{
	char *dst = (char *)key;
	size_t n = 0, i;

	key[0] = 0;
	key[1] = 0;
	while (n < 2 * sizeof(u64) - 1) {
		size_t len = min_t(size_t, 2 * sizeof(u64) - 1 - n,
				   PAGE_SIZE - offset_in_page(addr + n));

		if (copy_from_kernel_nofault(dst + n, (const void *)(addr + n),
					     len))
			return false;
		for (i = n; i < n + len; i++) {
			if (!dst[i]) {
				memset(dst + i, 0, 2 * sizeof(u64) - i);
				return true;
			}
		}
		n += len;
	}
	return true;
}

/*
 * The key of the task or its CPU (comm, pid, tid, cpu, cgroup), as
 * kstats_by_fetch() stores it.  Return: false for another kind, @key
 * untouched; true with the key, which never fails.
 */
static __always_inline notrace bool
kstats_by_task_fetch(enum kstats_by_kind kind, u64 key[2])
{
	switch (kind) {
	case KSTATS_BY_COMM: {
		/*
		 * The name's two words: the kernel NUL-pads a task's name
		 * (kstats_comm_is()), and its last byte is always the NUL.
		 */
		const struct kstats_comm_words *c = (const void *)current->comm;

		key[0] = c->w[0];
		key[1] = c->w[1];
		return true;
	}
	case KSTATS_BY_PID:
		key[0] = current->tgid;
		break;
	case KSTATS_BY_TID:
		key[0] = current->pid;
		break;
	case KSTATS_BY_CPU:
		key[0] = raw_smp_processor_id();
		break;
	case KSTATS_BY_CGROUP:
		key[0] = kstats_cgroup_id_current();
		break;
	default:
		return false;
	}
	key[1] = 0;
	return true;
}

/**
 * kstats_by_fetch() - the key of a family, for this event
 * @b: what the family is split by
 * @a: what a value key reads
 * @key: where to store it: a number in @key[0], @key[1] 0; or a task name,
 *	zero-padded to 16 bytes so that one name is always one key
 *
 * Context: any, NMI included.
 * Return: false if a value key could not be read.
 */
static __always_inline notrace bool
kstats_by_fetch(const struct kstats_by *b, const struct kstats_args *a,
		u64 key[2])
{
	if (kstats_by_task_fetch(b->kind, key))
		return true;
	key[1] = 0;
	switch (b->kind) {
	case KSTATS_BY_CALLER:
		/* the grammar allows it at a function's entry only */
		key[0] = a->regs ? kstats_entry_return_address(a->regs) : 0;
		return key[0];
	case KSTATS_BY_FUNC:
		/* the grammar allows it on a node over functions only */
		key[0] = a->regs ? instruction_pointer(a->regs) : 0;
		return key[0];
	default:
		if (!kstats_value_fetch(&b->v, a, &key[0]))
			return false;
		return !b->str || kstats_string_fetch(key[0] + b->str_off, key);
	}
}

/* Whether a value key is shown as a signed number: its last width says. */
static inline bool kstats_by_is_signed(const struct kstats_by *b)
{
	const struct kstats_value *v = &b->v;

	if (b->kind != KSTATS_BY_VALUE || b->str)
		return false;
	if (v->nr_derefs)
		return v->deref[v->nr_derefs - 1].width.sign;
	return v->cast.size ? v->cast.sign : v->base == KSTATS_BASE_RET;
}

struct kstats_btf_func;
void kstats_value_type(struct kstats_value *v, const struct kstats_btf_func *f);
void kstats_filter_type(struct kstats_filter *flt,
			const struct kstats_btf_func *f);
void kstats_by_type(struct kstats_by *b, const struct kstats_btf_func *f);
void kstats_point_opts_type(struct kstats_point_opts *o,
			    const struct kstats_btf_func *f);

int kstats_by_format(const struct kstats_by *b, char *buf, size_t size);
int kstats_key_format(const struct kstats_key *k, char *buf, size_t size);
int kstats_value_format(const struct kstats_value *v, char *buf, size_t size);
int kstats_filter_format(const struct kstats_filter *f, char *buf,
			 size_t size);

#endif /* _KSTATS_POINT_H */
