/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions one trace node times (kstats_multi.c): a glob matched as
 * set_ftrace_filter matches it, or a list of names, each resolved to its
 * address once, and what became of it when the node was attached.
 */
#ifndef _KSTATS_MULTI_H
#define _KSTATS_MULTI_H

#include <linux/module.h>
#include <linux/types.h>

struct seq_file;

/**
 * enum kstats_multi_skip - what became of one function of the node
 * @KSTATS_MULTI_TRACED: it is traced
 * @KSTATS_MULTI_NOT_FTRACEABLE: ftrace cannot patch it (notrace, inlined
 *	everywhere, or not in available_filter_functions)
 * @KSTATS_MULTI_ALIAS: kallsyms has the name only as a weak alias of
 *	another function (a system call the kernel was built without is
 *	sys_ni_syscall's), which ftrace lists under that name: the function
 *	is traced under its own name, if matched
 * @KSTATS_MULTI_AMBIGUOUS: several functions bear its name, in ftrace's
 *	list, in kallsyms or with differing prototypes in the BTF
 * @KSTATS_MULTI_NO_BTF: the BTF has no prototype of it, or a variadic one
 * @KSTATS_MULTI_STACK_ARGS: it takes arguments on the stack, which the
 *	shared trampoline does not copy
 * @KSTATS_MULTI_RET16: it returns 16 bytes (%rax and %rdx)
 * @KSTATS_MULTI_NORETURN: a call of it may never return
 * @KSTATS_MULTI_RECURSES: kstats' own code, or a clock its probes read
 * @KSTATS_MULTI_DIRECT_BUSY: another kstats node traces it directly
 * @KSTATS_MULTI_NO_DIRECT: the direct slot took none of the node's
 *	functions for want of a trampoline for it (none in this kernel, or
 *	none for the node's clock) or of a slot's attach (another direct
 *	caller, a BPF trampoline, has one of them; ftrace refused): the node
 *	fell back whole, the kernel log says why
 * @KSTATS_MULTI_NO_SLOT: no direct slot was free: the node fell back whole
 * @KSTATS_MULTI_SKIPS: how many kinds
 */
enum kstats_multi_skip {
	KSTATS_MULTI_TRACED,
	KSTATS_MULTI_NOT_FTRACEABLE,
	KSTATS_MULTI_ALIAS,
	KSTATS_MULTI_AMBIGUOUS,
	KSTATS_MULTI_NO_BTF,
	KSTATS_MULTI_STACK_ARGS,
	KSTATS_MULTI_RET16,
	KSTATS_MULTI_NORETURN,
	KSTATS_MULTI_RECURSES,
	KSTATS_MULTI_DIRECT_BUSY,
	KSTATS_MULTI_NO_DIRECT,
	KSTATS_MULTI_NO_SLOT,
	KSTATS_MULTI_SKIPS,
};

/**
 * struct kstats_multi_func - one function of the node
 * @name: its name
 * @mod: its module, 0 for the kernel's own, else index + 1 in the node's
 *	@mods (kstats_multi_module())
 * @addr: its address, from kallsyms
 * @skip: enum kstats_multi_skip
 * @ftrace: the lines of ftrace's list that name it
 * @syms: the text symbols of kallsyms that name it
 * @weak: the weak symbols of kallsyms that name it (aliases)
 * @fallback: the mechanism that times it instead of the direct slot, as
 *	the header names it ("fprobe", "kretprobe"), or NULL
 */
struct kstats_multi_func {
	const char *name;
	u16 mod;
	unsigned long addr;
	u8 skip;
	u8 ftrace;
	u8 syms;
	u8 weak;
	const char *fallback;
};

/**
 * struct kstats_multi - the functions of a node
 * @nr: how many matched
 * @funcs: each, sorted by name then module
 * @names: their names, one after another
 * @mods: the modules they are in, @nr_mods of them
 * @nr_mods: how many
 */
struct kstats_multi {
	unsigned int nr;
	struct kstats_multi_func *funcs;
	char *names;
	char (*mods)[MODULE_NAME_LEN];
	unsigned int nr_mods;
};

/* The module of @f, or NULL for the kernel's own. */
static inline const char *kstats_multi_module(const struct kstats_multi *m,
					      const struct kstats_multi_func *f)
{
	return f->mod ? m->mods[f->mod - 1] : NULL;
}

bool kstats_multi_spec(const char *spec);
struct kstats_refusal;
struct kstats_multi *kstats_multi_resolve(const char *node, const char *spec,
					  bool (*recurses)(const char *name),
					  struct kstats_refusal *why);
void kstats_multi_free(struct kstats_multi *m);
unsigned int kstats_multi_traced(const struct kstats_multi *m);
bool kstats_multi_can_fall_back(const struct kstats_multi_func *f);
void kstats_multi_untaken(struct kstats_multi *m, u8 skip);
const char *kstats_multi_skip_why(u8 skip);
const char *kstats_multi_skip_name(u8 skip);
void kstats_multi_show(const struct kstats_multi *m, struct seq_file *seq);

#endif /* _KSTATS_MULTI_H */
