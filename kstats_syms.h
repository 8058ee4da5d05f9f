/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many functions of the kernel, or of a module, bear a name
 * (kstats_syms.c): the direct trampoline refuses an ambiguous one.
 */
#ifndef _KSTATS_SYMS_H
#define _KSTATS_SYMS_H

int kstats_syms_ambiguous(const char *name, const char *module);
void kstats_syms_free(void);

#endif /* _KSTATS_SYMS_H */
