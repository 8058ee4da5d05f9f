/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function of a user program or shared library, found in its ELF file
 * (kstats_elf.c): where a uprobe goes for "trace PATH:SYMBOL", and
 * whether a file offset ("trace PATH:0xOFFSET") is code.  The file is
 * untrusted input: every offset and size it gives is checked against its
 * size before anything is read.
 */
#ifndef _KSTATS_ELF_H
#define _KSTATS_ELF_H

#include <linux/types.h>

/**
 * struct kstats_elf_reader - where an ELF file's bytes come from
 * @read: copy @len bytes at @off into @buf: 0, or a negative errno (a
 *	short read is one); called only within @size
 * @ctx: its first argument
 * @size: the file's size
 */
struct kstats_elf_reader {
	int (*read)(void *ctx, void *buf, size_t len, u64 off);
	void *ctx;
	u64 size;
};

/**
 * struct kstats_elf_func - a function of an ELF file
 * @offset: the file offset of its first instruction, where a uprobe goes
 * @vaddr: its address in the file's own layout (the symbol's value)
 * @size: its size, 0 where the symbol table gives none
 */
struct kstats_elf_func {
	u64 offset;
	u64 vaddr;
	u64 size;
};

/* The largest string table read, a symbol table's names. */
#define KSTATS_ELF_STRTAB_MAX	(64U << 20)

int kstats_elf_func(const struct kstats_elf_reader *r, const char *name,
		    struct kstats_elf_func *f, const char **why);
int kstats_elf_code_offset(const struct kstats_elf_reader *r, u64 offset,
			   const char **why);

#endif /* _KSTATS_ELF_H */
