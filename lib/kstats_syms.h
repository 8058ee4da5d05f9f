/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many functions of the kernel, or of a module, bear a name
 * (kstats_syms.c): the direct trampoline refuses an ambiguous one; and
 * which module an address is in.
 */
#ifndef _KSTATS_SYMS_H
#define _KSTATS_SYMS_H

#include <linux/types.h>

int kstats_syms_ambiguous(const char *name, const char *module);
void kstats_syms_free(void);
void kstats_syms_module(unsigned long addr, char *mod, size_t size);
int kstats_syms_each_ftrace(void (*line)(void *arg, char *s, size_t len),
			    void *arg);
int kstats_syms_each_kallsyms(void (*line)(void *arg, char *s, size_t len),
			      void *arg);

#endif /* _KSTATS_SYMS_H */
