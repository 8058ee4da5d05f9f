/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function's calling convention, read from the kernel's BTF: how many
 * argument registers and stack words a call passes, which is what a
 * trampoline that calls the function itself must preserve, and the type
 * of each argument and of the return value, which says how a value
 * narrower than a register is widened (an int's -1 is not 4294967295).
 * A tracepoint's arguments likewise, from its btf_trace_EVENT typedef.
 */
#ifndef _KSTATS_BTF_H
#define _KSTATS_BTF_H

#include <linux/types.h>

#include "kstats_point.h"

/**
 * struct kstats_cc - a calling convention, as far as placing integer and
 *	structure arguments goes
 * @regs: argument registers (6 on x86-64, 8 on arm64)
 * @big_by_ref: a structure over 16 bytes is passed as its address (arm64),
 *	not copied on the stack (x86-64)
 * @ret_by_arg_reg: a structure returned by value over 16 bytes takes the
 *	first argument register for its address (x86-64), not a register of
 *	its own (arm64's x8)
 */
struct kstats_cc {
	u8 regs;
	bool big_by_ref;
	bool ret_by_arg_reg;
};

extern const struct kstats_cc kstats_cc_x86_64;
extern const struct kstats_cc kstats_cc_aapcs64;

/**
 * struct kstats_btf_func - how a function is called (x86-64 System V, or
 *	AAPCS64 on arm64)
 * @nregs: argument registers used, 0 to 6 on x86-64 (a hidden return
 *	pointer included), 0 to 8 on arm64
 * @nstack: words of arguments passed on the stack
 * @ret_regs: registers of the return value: 0 (void or a structure
 *	returned through memory), 1 (%rax, x0), 2 (%rax and %rdx, x0 and x1)
 * @arg: the type of each argument word as argN reads it (registers, then
 *	stack words): size 1, 2, 4 or 8 and signedness for a scalar (an
 *	integer, an enum, a bool, a pointer), size 0 where no scalar starts
 *	or the BTF does not say
 * @ret: the type of the return value likewise; size 0 for void, a
 *	structure, or functions of one name whose types disagree
 */
struct kstats_btf_func {
	u8 nregs;
	u16 nstack;
	u8 ret_regs;
	struct kstats_width arg[KSTATS_MAX_ARGS];
	struct kstats_width ret;
};

/**
 * struct kstats_btf_query - one function of kstats_btf_funcs()
 * @name: the function
 * @module: its module, NULL for the kernel's own
 * @f: how it is called
 * @err: 0, or why @f is not known, as kstats_btf_func() says it
 */
struct kstats_btf_query {
	const char *name;
	const char *module;
	struct kstats_btf_func f;
	int err;
};

int kstats_btf_func(const char *name, const char *module,
		    struct kstats_btf_func *f);
int kstats_btf_funcs(struct kstats_btf_query *q, unsigned int n);
int kstats_btf_func_blob(const void *data, size_t size, const char *name,
			 const struct kstats_cc *cc, struct kstats_btf_func *f);
int kstats_btf_tracepoint(const char *event, const char *module,
			  struct kstats_btf_func *f);
int kstats_btf_tracepoint_blob(const void *data, size_t size,
			       const char *event, struct kstats_btf_func *f);

#endif /* _KSTATS_BTF_H */
