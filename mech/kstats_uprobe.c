// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe mechanism: a function of a user program or shared library
 * ("trace PATH:SYMBOL", "trace PATH:0xOFFSET"), timed through the
 * kernel's uprobes, one consumer with an entry and a return handler, in
 * every process that maps the file, or in one (the node's pid filter, as
 * the consumer's filter, so that no other process takes the trap).  The
 * function is found in the file's ELF symbol tables (kstats_elf.c).
 *
 * Neither Debian 6.1 nor 6.12 gives a uprobe per-call data (6.13 does),
 * so a call's start is kept in a table of starts in flight
 * (kstats_pair.c), keyed by the task and its user stack pointer at the
 * entry, which the return finds again (on x86-64 one word above, the
 * return address popped; on arm64 as it was): recursion and nesting pair
 * right, each call its own start.  A return with no start (its start
 * evicted from a full table, or a call the entry handler never saw) is
 * counted as unmatched, and missed; a start whose return never comes (a
 * longjmp() out of the function, an exit inside it) stays until evicted.
 *
 * The handlers run in the task's own context, preemptible (6.1 under the
 * uprobe's rw_semaphore, 6.12 under RCU Tasks Trace): each pins its CPU
 * for the per-CPU records and the outliers' capture.  Removal
 * unregisters the consumer, which waits for the handlers that run (6.1:
 * the uprobe's rw_semaphore; 6.12: uprobe_unregister_sync()); a task
 * still inside the function returns through the kernel's trampoline,
 * which then finds no consumer of kstats: nothing of kstats runs, and
 * the return instance it holds is the kernel's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uprobes.h>

#include "kstats_cmd.h"
#include "kstats_elf.h"
#include "kstats_errors.h"
#include "kstats_fn.h"
#include "kstats_pair.h"
#include "kstats_uprobe.h"

/* The arguments a user function takes in registers: argN below this. */
#ifdef CONFIG_ARM64
#define KSTATS_UPROBE_REG_ARGS	8
#else
#define KSTATS_UPROBE_REG_ARGS	6
#endif

/* A start its entry's filters refused, kept only for its return to skip. */
#define KSTATS_UPROBE_UNCOUNTED	U32_MAX

/**
 * struct kstats_uprobe - the uprobe of one user function
 * @uc: the consumer: entry and return handlers, and the pid filter's
 * @fn: the node's function (its distribution, value, filters, family)
 * @kind: which of the handlers' paths (enum kstats_fn_kind)
 * @pair: the starts in flight, keyed by task and stack pointer
 * @path: the file, held while the uprobe is registered (the uprobe API
 *	wants its inode and mount pinned)
 * @inode: its inode, where the uprobe is
 * @offset: the function's offset in the file
 * @vaddr: its address in the file's layout, for a symbol; else 0
 * @mm: the address space of the pid filter's process when the node was
 *	made (held by mmgrab(), compared only), or NULL for every process
 * @tgid: the pid filter's process (held), which an exec gives a new
 *	address space: "-- COMMAND" starts its node's process so
 * @uprobe: 6.12's handle of the registered uprobe
 */
struct kstats_uprobe {
	struct uprobe_consumer uc;
	struct kstats_fn *fn;
	enum kstats_fn_kind kind;
	struct kstats_pair pair;
	struct path path;
	struct inode *inode;
	loff_t offset;
	u64 vaddr;
	struct mm_struct *mm;
	struct pid *tgid;
#ifdef KSTATS_UPROBE_V612
	struct uprobe *uprobe;
#endif
};

static __always_inline notrace struct kstats_uprobe *
kstats_up_of(struct uprobe_consumer *uc)
{
	return container_of(uc, struct kstats_uprobe, uc);
}

/*
 * A call's key in the table: the task and its user stack pointer at the
 * entry, @sp, which the odd multiplier spreads over the word; with the
 * task as the match value, two calls of one task never share it.
 */
static __always_inline notrace u64 kstats_uprobe_key(unsigned long sp)
{
	return (unsigned long)current + sp * GOLDEN_RATIO_64;
}

/* The entry's stack pointer, from the registers at the return. */
static __always_inline notrace unsigned long
kstats_uprobe_entry_sp(struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	/* the entry found its return address there, which "ret" popped */
	return user_stack_pointer(regs) - sizeof(long);
#else
	/* arm64: the return address in the link register, sp as it was */
	return user_stack_pointer(regs);
#endif
}

/*
 * Whether the current task is one the node times: with a pid filter, of
 * its process (another consumer of the same uprobe may have put the
 * breakpoint in another's).
 */
static __always_inline notrace bool kstats_uprobe_ours(const struct kstats_uprobe *p)
{
	return !p->tgid || task_tgid(current) == p->tgid;
}

static notrace int kstats_uprobe_enter(struct uprobe_consumer *uc,
				       struct pt_regs *regs)
{
	struct kstats_uprobe *p = kstats_up_of(uc);
	struct kstats_fn *fn = p->fn;
	struct kstats_entry e = {};
	u32 aux = 0;

	/* the kernel then takes the breakpoint out of that process */
	if (!kstats_uprobe_ours(p))
		return UPROBE_HANDLER_REMOVE;
	preempt_disable_notrace();
	if (p->kind == KSTATS_FN_FAST || p->kind == KSTATS_FN_GAP) {
		kstats_fn_enter(fn, &e);
	} else if (kstats_rich_enter(fn, regs, &e,
				     p->kind == KSTATS_FN_FAMILY)) {
		/* a call not counted (or counted here): its return skips it */
		aux = KSTATS_UPROBE_UNCOUNTED;
	} else {
		aux = e.fam;
	}
	if (fn->entry_only)
		goto out;
	/* The kernel follows so many nested returns of a task, no more. */
	if (current->utask && current->utask->depth >= MAX_URETPROBE_DEPTH) {
		if (aux != KSTATS_UPROBE_UNCOUNTED)
			kstats_record_missed(fn->ks);
		goto out;
	}
	/* an argument taken as the value travels where the time would */
	if (!kstats_pair_start(&p->pair,
			       kstats_uprobe_key(user_stack_pointer(regs)),
			       (unsigned long)current,
			       fn->value.base == KSTATS_BASE_ARG ? e.val : e.ts,
			       e.cpu, aux))
		kstats_record_missed(fn->ks);
out:
	preempt_enable_notrace();
	return 0;
}

static notrace int kstats_uprobe_exit(struct uprobe_consumer *uc,
				      unsigned long func, struct pt_regs *regs)
{
	struct kstats_uprobe *p = kstats_up_of(uc);
	struct kstats_fn *fn = p->fn;
	struct kstats_entry e = {};
	u32 cpu, aux;
	u64 ts, now;

	if (!kstats_uprobe_ours(p))
		return 0;
	preempt_disable_notrace();
	if (!kstats_pair_end(&p->pair,
			     kstats_uprobe_key(kstats_uprobe_entry_sp(regs)),
			     (unsigned long)current, &ts, &cpu, &aux) ||
	    aux == KSTATS_UPROBE_UNCOUNTED)
		goto out;
	e.ts = ts;
	e.val = ts;
	e.cpu = cpu;
	e.fam = aux;
	switch (p->kind) {
	case KSTATS_FN_FAST:
		kstats_time_exit(fn->ks, fn->outliers, regs, &e, fn->ks->clock,
				 fn->ks->frac_bits, &now);
		break;
	case KSTATS_FN_GAP:
		kstats_fn_exit(fn, regs, &e);
		break;
	case KSTATS_FN_RICH:
		kstats_rich_exit(fn, regs, &e, false);
		break;
	case KSTATS_FN_FAMILY:
		kstats_rich_exit(fn, regs, &e, true);
		break;
	}
out:
	preempt_enable_notrace();
	return 0;
}

/*
 * The pid filter's: breakpoints go into its process's address space
 * alone, the one it had when the node was made, or the one it maps now
 * (an exec's: the mapping task is current, in its new address space).
 */
#ifdef KSTATS_UPROBE_V612
static bool kstats_uprobe_filter(struct uprobe_consumer *uc,
				 struct mm_struct *mm)
#else
static bool kstats_uprobe_filter(struct uprobe_consumer *uc,
				 enum uprobe_filter_ctx ctx, struct mm_struct *mm)
#endif
{
	struct kstats_uprobe *p = kstats_up_of(uc);

	return p->mm == mm ||
	       (current->mm == mm && task_tgid(current) == p->tgid);
}

/* kernel_read() of the file the node's path names, for kstats_elf.c. */
static int kstats_uprobe_read(void *ctx, void *buf, size_t len, u64 off)
{
	loff_t pos = off;
	ssize_t n = kernel_read(ctx, buf, len, &pos);

	if (n < 0)
		return n;
	return n == len ? 0 : -EIO;
}

/*
 * Where the uprobe of "PATH:SYMBOL" or "PATH:0xOFFSET" (@spec, whose last
 * ':' ends PATH) goes: @p's path, inode and offset.
 */
static int kstats_uprobe_locate(struct kstats_uprobe *p, const char *spec,
				const char **why)
{
	const char *colon = strrchr(spec, ':'), *what;
	struct kstats_elf_reader r;
	struct kstats_elf_func f;
	struct file *file;
	char *path;
	u64 off;
	int err;

	*why = "give PATH:SYMBOL or PATH:0xOFFSET, PATH absolute";
	if (!colon || !colon[1])
		return -EINVAL;
	what = colon + 1;
	path = kstrndup(spec, colon - spec, GFP_KERNEL);
	if (!path) {
		*why = "out of memory";
		return -ENOMEM;
	}
	err = kern_path(path, LOOKUP_FOLLOW, &p->path);
	kfree(path);
	if (err) {
		*why = err == -ENOENT ? "no such file" : "the path cannot be looked up";
		return err;
	}
	p->inode = d_real_inode(p->path.dentry);
	if (!S_ISREG(p->inode->i_mode)) {
		*why = "not a regular file";
		err = -EINVAL;
		goto fail;
	}
	file = dentry_open(&p->path, O_RDONLY, current_cred());
	if (IS_ERR(file)) {
		*why = "the file cannot be opened for reading";
		err = PTR_ERR(file);
		goto fail;
	}
	r.read = kstats_uprobe_read;
	r.ctx = file;
	r.size = i_size_read(file_inode(file));
	if (!strncmp(what, "0x", 2)) {
		err = kstrtou64(what + 2, 16, &off);
		if (err)
			*why = "a bad offset: write 0x and hexadecimal digits";
		else
			err = kstats_elf_code_offset(&r, off, why);
	} else {
		err = kstats_elf_func(&r, what, &f, why);
		off = err ? 0 : f.offset;
		p->vaddr = err ? 0 : f.vaddr;
	}
	fput(file);
	if (err)
		goto fail;
	p->offset = off;
	return 0;
fail:
	path_put(&p->path);
	return err;
}

/*
 * The pid filter's process, whose address space alone takes the
 * breakpoint; a process that does not exist (now) is refused.
 */
static int kstats_uprobe_process(struct kstats_uprobe *p, pid_t nr,
				 const char **why)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;

	pid = find_get_pid(nr);
	task = get_pid_task(pid, PIDTYPE_TGID);
	put_pid(pid);
	if (!task) {
		*why = "no process of that pid: a user function's pid filter names a live process";
		return -ESRCH;
	}
	mm = get_task_mm(task);
	if (!mm) {
		put_task_struct(task);
		*why = "that pid is a kernel thread's, which runs no user code";
		return -EINVAL;
	}
	p->tgid = get_pid(task_tgid(task));
	put_task_struct(task);
	mmgrab(mm);
	mmput(mm);
	p->mm = mm;
	p->uc.filter = kstats_uprobe_filter;
	return 0;
}

static void kstats_uprobe_put(struct kstats_uprobe *p)
{
	path_put(&p->path);
	if (p->mm)
		mmdrop(p->mm);
	p->mm = NULL;
	put_pid(p->tgid);
	p->tgid = NULL;
}

static int kstats_uprobe_attach(struct kstats_fn *fn, unsigned int maxactive,
				const char **why)
{
	struct kstats_uprobe *p;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		*why = "out of memory";
		return -ENOMEM;
	}
	p->fn = fn;
	p->kind = kstats_fn_kind(fn);
	err = kstats_uprobe_locate(p, fn->target, why);
	if (err)
		goto out_free;
	if (fn->filter.pid >= 0)
		err = kstats_uprobe_process(p, fn->filter.pid, why);
	if (!err) {
		*why = "out of memory";
		err = kstats_pair_init(&p->pair, maxactive ?: KSTATS_PAIR_DEFAULT, 0);
	}
	if (err)
		goto out_put;
	p->uc.handler = kstats_uprobe_enter;
	/* a value at the entry alone: no return to wait for */
	if (!fn->entry_only)
		p->uc.ret_handler = kstats_uprobe_exit;
	*why = "the kernel's uprobes cannot probe it";
#ifdef KSTATS_UPROBE_V612
	p->uprobe = uprobe_register(p->inode, p->offset, 0, &p->uc);
	err = PTR_ERR_OR_ZERO(p->uprobe);
#else
	err = uprobe_register(p->inode, p->offset, &p->uc);
#endif
	if (err)
		goto out_pair;
	fn->mech_data = p;
	return 0;
out_pair:
	kstats_pair_free(&p->pair);
out_put:
	kstats_uprobe_put(p);
out_free:
	kfree(p);
	return err;
}

/*
 * No handler runs once this returns, and none will: a task inside the
 * function returns through the kernel's trampoline, which finds no
 * consumer of ours.
 */
static void kstats_uprobe_detach(struct kstats_fn *fn)
{
	struct kstats_uprobe *p = fn->mech_data;

#ifdef KSTATS_UPROBE_V612
	uprobe_unregister_nosync(p->uprobe, &p->uc);
	uprobe_unregister_sync();
#else
	uprobe_unregister(p->inode, p->offset, &p->uc);
#endif
	/* what sleeps goes here: the release is from an irq_work */
	kstats_uprobe_put(p);
}

static void kstats_uprobe_release(struct kstats_fn *fn)
{
	struct kstats_uprobe *p = fn->mech_data;

	kstats_pair_free(&p->pair);
	kfree(p);
	fn->mech_data = NULL;
}

/* Returns that found no start: their calls' samples are lost. */
static u64 kstats_uprobe_missed(const struct kstats_fn *fn)
{
	const struct kstats_uprobe *p = fn->mech_data;
	struct kstats_pair_counts c;

	kstats_pair_counts(&p->pair, &c);
	return c.unmatched;
}

/* The offset, the address, and what the table of starts saw. */
static void kstats_uprobe_describe(const struct kstats_fn *fn,
				   struct seq_file *m)
{
	const struct kstats_uprobe *p = fn->mech_data;
	struct kstats_pair_counts c;

	seq_printf(m, " offset 0x%llx", (u64)p->offset);
	if (p->vaddr)
		seq_printf(m, " vaddr 0x%llx", p->vaddr);
	if (fn->entry_only)
		return;
	kstats_pair_counts(&p->pair, &c);
	seq_printf(m, " inflight %u pending %llu replaced %llu evicted %llu unmatched %llu",
		   p->pair.inflight, kstats_pair_pending(&p->pair), c.replaced,
		   c.evicted, c.unmatched);
}

const struct kstats_mech_ops kstats_mech_uprobe = {
	.mech = KSTATS_MECH_UPROBE,
	.attach = kstats_uprobe_attach,
	.detach = kstats_uprobe_detach,
	.release = kstats_uprobe_release,
	.missed = kstats_uprobe_missed,
	.describe = kstats_uprobe_describe,
};

/* Whether @v reads memory, or an argument past the registers. */
static const char *kstats_uprobe_value_bad(const struct kstats_value *v)
{
	if (v->nr_derefs)
		return "dereferences read kernel memory, a user function's pointers its process's";
	if (v->base == KSTATS_BASE_ARG && v->arg >= KSTATS_UPROBE_REG_ARGS)
		return "a user function's arguments are read from its registers alone";
	return NULL;
}

/**
 * kstats_uprobe_check() - what a trace node of a user function may not have
 * @cmd: the parsed command, its target "PATH:..."
 * @refusal: where a refusal is noted for _errors (kstats_refuse())
 *
 * Refused: "mech" (the kernel's mechanisms, not a user function's), the
 * kernel stack ("by stack", "stack N": at a user function it is the
 * trap's), "by caller" (a user return address is no kernel symbol), a
 * value, condition or key that dereferences (kernel memory) or names an
 * argument past those in registers.
 *
 * Context: any.
 * Return: 0, or -EINVAL with one ratelimited line in the kernel log.
 */
int kstats_uprobe_check(const struct kstats_cmd *cmd,
			struct kstats_refusal *refusal)
{
	const char *why = NULL;
	unsigned int i;

	if (cmd->mech)
		why = "mech names the kernel's mechanisms: a user function is timed by a uprobe";
	else if (cmd->by.kind == KSTATS_BY_STACK || cmd->outlier.stack)
		why = "the kernel stack at a user function is the trap's: no by stack, no stack N";
	else if (cmd->by.kind == KSTATS_BY_CALLER)
		why = "by caller names a kernel call site: a user function's is its program's";
	else if (cmd->value.base != KSTATS_BASE_NONE)
		why = kstats_uprobe_value_bad(&cmd->value);
	if (!why && cmd->by.kind == KSTATS_BY_VALUE)
		why = cmd->by.str ? "by str: reads kernel memory, a user string its process's" :
		      kstats_uprobe_value_bad(&cmd->by.v);
	for (i = 0; !why && i < cmd->filter.nr_conds; i++)
		why = kstats_uprobe_value_bad(&cmd->filter.cond[i].v);
	if (!why)
		return 0;
	kstats_refuse(refusal, cmd->target, "_control", "trace %s: %s",
		      cmd->target, why);
	return -EINVAL;
}
