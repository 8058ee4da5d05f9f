/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function's calling convention, read from the kernel's BTF: how many
 * argument registers and stack words a call passes, which is what a
 * trampoline that calls the function itself must preserve.
 */
#ifndef _KSTATS_BTF_H
#define _KSTATS_BTF_H

#include <linux/types.h>

/**
 * struct kstats_btf_func - how a function is called (x86-64 System V)
 * @nregs: argument registers used, 0 to 6 (a hidden return pointer included)
 * @nstack: words of arguments passed on the stack
 * @ret_regs: registers of the return value: 0 (void or a structure
 *	returned through memory), 1 (%rax), 2 (%rax and %rdx)
 */
struct kstats_btf_func {
	u8 nregs;
	u16 nstack;
	u8 ret_regs;
};

int kstats_btf_func(const char *name, const char *module,
		    struct kstats_btf_func *f);
int kstats_btf_func_blob(const void *data, size_t size, const char *name,
			 struct kstats_btf_func *f);

#endif /* _KSTATS_BTF_H */
