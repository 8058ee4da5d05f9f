// SPDX-License-Identifier: GPL-2.0
/*
 * The direct mechanism: a function timed by a trampoline of kstats' own
 * (kstats_direct_tramp_*.S, whose C entries and exits are
 * kstats_direct_exits.c's), which ftrace calls straight from the function's
 * fentry call site, as BPF's fentry/fexit programs are.  fprobe, by
 * contrast, goes through ftrace's ops dispatch on the way in and rethook's
 * return hijack on the way out; the trampoline is a stub, one clock read,
 * a copy of the stack arguments, a call of the body, one clock read and
 * kstats_record().
 *
 * A slot is one node: its stub in the trampoline's text, the fields the
 * trampoline reads (struct kstats_direct_hot) and its ftrace ops, whose
 * filter holds the node's functions, one or hundreds ("trace GLOB"): ftrace
 * sends them all to the one stub, attached and detached in one update
 * each.  The trampoline needs nothing per function for a duration; "by
 * func" keys a family by the function's address, which the entry reads
 * from its return address into the function.  Its lifetime:
 *  - attach: the ops is set to the function's fentry site and registered
 *    with the direct-call API; ftrace says -EBUSY when another direct user
 *    (a BPF trampoline, another kstats node) already has the function;
 *  - detach: the ops is unregistered, so no new call enters (ftrace
 *    waits an RCU Tasks grace period as it removes a direct call, so no
 *    task is left between a stub and its slot's in-flight count); then, if
 *    a call is still in flight (a task asleep in the function, possibly for
 *    hours), its frame is rewritten, under stop_machine(), so that it
 *    returns to its caller through the kernel's own code
 *    (kstats_direct_reroute.c): the task returns later, untimed, and is
 *    never woken.  The distribution's reference is
 *    dropped and the slot freed at once, or after one more RCU Tasks grace
 *    period when a task was still in the trampoline's code.  Nothing waits
 *    for a call to return: rmmod kstats never waits either.
 *  - a task that exits inside the function never returns: its exit
 *    (sched_process_exit) walks its stack and counts its calls out
 *    (kstats_direct_walk_out(), each architecture's own).
 *  - the traced functions' modules are pinned from attach to release (the
 *    node's removal), as BPF pins its attach target: rmmod of one fails
 *    (EAGAIN) until then.
 *  - should ftrace fail to remove the direct call, the slot is never
 *    reused nor freed, and kstats and the target stay pinned: the call
 *    site may still call the stub.
 */

#include <linux/bsearch.h>
#include <linux/ftrace.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracepoint.h>

#include "kstats.h"
#include "kstats_counter.h"
#include "kstats_btf.h"
#include "kstats_direct.h"
#include "kstats_direct_internal.h"
#include "kstats_direct_reroute.h"
#include "kstats_direct_variants.h"
#include "kstats_fn.h"
#include "kstats_multi.h"
#include "kstats_syms.h"

/**
 * struct kstats_direct_slot - kstats' side of a slot
 * @ops: the ftrace ops of the direct call
 * @mods: the traced functions' modules, pinned, @nr_mods of them (none for
 *	the kernel's own)
 * @nr_mods: how many
 * @ips: the traced functions' fentry call sites, sorted, @nr_ips of them
 * @nr_ips: how many
 * @used: taken, from attach until its release
 * @leaked: ftrace failed to remove the direct call: never freed
 * @unstable_said: the kernel log has said that the TSC this slot reads for
 *	clock ktime was found unstable
 */
struct kstats_direct_slot {
	struct ftrace_ops *ops;
	struct module **mods;
	unsigned int nr_mods;
	unsigned long *ips;
	unsigned int nr_ips;
	bool used;
	bool leaked;
	bool unstable_said;
};

static struct kstats_direct_slot kstats_direct_slots[KSTATS_DIRECT_SLOTS];
static DEFINE_MUTEX(kstats_direct_mutex);
/* sched_process_exit, probed once a function is traced directly */
static struct tracepoint *kstats_direct_exit_tp;
static bool kstats_direct_exit_probed;
/* a slot was removed with a call in flight since kstats was loaded */
static bool kstats_direct_ever_inflight;

/*
 * The trampoline's stub arrays (KSTATS_DV(), kstats_direct_variants.h):
 * per clock, one variant per enum kstats_direct_exit, each for
 * KSTATS_DIRECT_ARG_KINDS kinds of arguments (A below); then the other
 * kinds' variants, per clock in the same order where they have one each
 * (kstats_direct_kind_variants), as kstats_direct_stub() computes a
 * stub's place; checked here.
 */
#define KSTATS_DV_A		KSTATS_DIRECT_ARG_KINDS
#define KSTATS_DV_PER_CLOCK	(KSTATS_DEXITS * KSTATS_DV_A)
static_assert(KSTATS_DV(tsc) == 0 && KSTATS_DV(ktime) == KSTATS_DV_PER_CLOCK &&
	      KSTATS_DV(local) == 2 * KSTATS_DV_PER_CLOCK &&
	      KSTATS_DV(tscns) == 3 * KSTATS_DV_PER_CLOCK);
static_assert(KSTATS_DV(tscp) == KSTATS_DEXIT_PLAIN * KSTATS_DV_A &&
	      KSTATS_DV(tsco) == KSTATS_DEXIT_OUTLIERS * KSTATS_DV_A);
/* a kind's variants for tsc, ktime, local, tscns, in that order */
#define KSTATS_DV_CLOCKS4(k)						\
	static_assert(KSTATS_DV(k##_ktime) == KSTATS_DV(k##_tsc) + KSTATS_DV_A && \
		      KSTATS_DV(k##_local) == KSTATS_DV(k##_tsc) + 2 * KSTATS_DV_A && \
		      KSTATS_DV(k##_tscns) == KSTATS_DV(k##_tsc) + 3 * KSTATS_DV_A)
/* a kind's variants for the clocks read inline, tsc and tscns */
#define KSTATS_DV_CLOCKS2(k)						\
	static_assert(KSTATS_DV(k##_tscns) == KSTATS_DV(k##_tsc) + KSTATS_DV_A)
KSTATS_DV_CLOCKS4(task);
KSTATS_DV_CLOCKS4(tkey);
KSTATS_DV_CLOCKS4(comm);
KSTATS_DV_CLOCKS4(cgroup);
KSTATS_DV_CLOCKS4(fkey);
KSTATS_DV_CLOCKS4(fkey_comm);
KSTATS_DV_CLOCKS4(ffunc);
KSTATS_DV_CLOCKS4(ffunc_comm);
KSTATS_DV_CLOCKS2(tname);
KSTATS_DV_CLOCKS2(tname_comm);
KSTATS_DV_CLOCKS2(tids);
KSTATS_DV_CLOCKS2(tids_comm);
KSTATS_DV_CLOCKS2(akey);

/*
 * Each kind's variants (enum kstats_direct_kind, other than the plain
 * ones): @first, then one per kind of arguments per clock for @clocks 4
 * (tsc, ktime, local, tscns), 2 (tsc, tscns), or for 0 one per kind of
 * arguments in all; @regs: the registers saved even for a function
 * without arguments.
 */
struct kstats_direct_kind_variants {
	u16 first;
	u8 clocks;
	bool regs;
};

static const struct kstats_direct_kind_variants kstats_direct_kind_variants[] = {
	[KSTATS_DKIND_RICH] = { KSTATS_DV(rich), 0, true },
	[KSTATS_DKIND_TASK] = { KSTATS_DV(task_tsc), 4 },
	[KSTATS_DKIND_RET] = { KSTATS_DV(ret), 0 },
	[KSTATS_DKIND_ARG] = { KSTATS_DV(arg), 0, true },
	[KSTATS_DKIND_TKEY] = { KSTATS_DV(tkey_tsc), 4 },
	[KSTATS_DKIND_COMM] = { KSTATS_DV(comm_tsc), 4 },
	[KSTATS_DKIND_CGROUP] = { KSTATS_DV(cgroup_tsc), 4 },
	[KSTATS_DKIND_FKEY] = { KSTATS_DV(fkey_tsc), 4 },
	[KSTATS_DKIND_FKEY_COMM] = { KSTATS_DV(fkey_comm_tsc), 4 },
	[KSTATS_DKIND_TNAME] = { KSTATS_DV(tname_tsc), 2 },
	[KSTATS_DKIND_TNAME_COMM] = { KSTATS_DV(tname_comm_tsc), 2 },
	[KSTATS_DKIND_TIDS] = { KSTATS_DV(tids_tsc), 2 },
	[KSTATS_DKIND_TIDS_COMM] = { KSTATS_DV(tids_comm_tsc), 2 },
	[KSTATS_DKIND_FFUNC] = { KSTATS_DV(ffunc_tsc), 4 },
	[KSTATS_DKIND_FFUNC_COMM] = { KSTATS_DV(ffunc_comm_tsc), 4 },
	[KSTATS_DKIND_AKEY] = { KSTATS_DV(akey_tsc), 2 },
};

/* The stub of @slot for its clock and arguments. */
static unsigned long kstats_direct_stub(int slot)
{
	const struct kstats_direct_hot *h = &kstats_direct_hot[slot];
	unsigned int c = h->clock == KSTATS_CLOCK_TSC ? 0 :
			 h->clock == KSTATS_CLOCK_LOCAL ? 2 :
			 h->tscns ? 3 : 1;
	/* + 0: no arguments; + 1: registers */
	unsigned int args = !!h->nregs;
	unsigned int v = c * KSTATS_DV_PER_CLOCK + h->exit * KSTATS_DV_A + args;

	/*
	 * A rich entry reads the registers (struct pt_regs, for the filters
	 * and keys): saved even for a function without arguments, as does an
	 * argument's.  A task entry reads none.
	 */
	if (h->fn) {
		const struct kstats_direct_kind_variants *k =
			&kstats_direct_kind_variants[h->kind];

		if (k->regs)
			args = 1;
		/* the clocks read inline alone: tsc (0), tscns (3) */
		if (k->clocks == 2)
			c = !!c;
		v = k->first + (k->clocks ? c * KSTATS_DV_A : 0) + args;
	}
	return (unsigned long)kstats_direct_stubs +
	       (v * KSTATS_DIRECT_SLOTS + slot) * KSTATS_DIRECT_STUB_SIZE;
}

/*
 * The exits a slot takes: plain for the default frac_bits and no upper
 * bound, with the outliers' compare if it keeps them (only those exits
 * make it, so that a node without outliers pays nothing for them).
 */
static enum kstats_direct_exit
kstats_direct_exit_of(const struct kstats *ks,
		      const struct kstats_outliers *outliers)
{
	if (!kstats_default_shape(ks))
		return KSTATS_DEXIT_GENERIC;
	return outliers ? KSTATS_DEXIT_OUTLIERS : KSTATS_DEXIT_PLAIN;
}

/*
 * A task that exits inside a traced function never returns through the
 * trampoline: its calls would stay in flight, and their slots' counts
 * (which tell a removal to look for calls in flight) would never come
 * back to zero.  At its exit, walk its stack: each return address into
 * the trampoline's code is a call in flight, whose frame holds its slot;
 * count the call out, and as missed.
 */
static notrace void kstats_direct_task_exit(void *data, struct task_struct *p)
{
	if (p != current)
		return;
	kstats_direct_walk_out(p);
}

static void kstats_direct_find_exit(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		kstats_direct_exit_tp = tp;
}

/* Under kstats_direct_mutex: probe the exits, once. */
static int kstats_direct_probe_exits(void)
{
	int err;

	if (kstats_direct_exit_probed)
		return 0;
	for_each_kernel_tracepoint(kstats_direct_find_exit, NULL);
	if (!kstats_direct_exit_tp)
		return -ENOENT;
	err = tracepoint_probe_register(kstats_direct_exit_tp,
					(void *)kstats_direct_task_exit, NULL);
	if (!err)
		kstats_direct_exit_probed = true;
	return err;
}

static long kstats_direct_inflight(struct kstats_direct_hot *h)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(h->pcpu, cpu)->inflight;
	return n;
}

/*
 * Another ftrace user that changes the traced function's ip (a livepatch,
 * a kprobe with a post handler: FTRACE_OPS_FL_IPMODIFY) may share the
 * function with the trampoline: ftrace then calls that user's handler
 * from its regs caller, which returns into the stub with the (possibly
 * changed) ip as the return address, and the trampoline enters the body
 * through that return address anyway (kstats_direct_tramp_*.S).  So every
 * request to share is granted, as it needs no change of the trampoline.
 */
static int kstats_direct_ops_func(struct ftrace_ops *ops,
				  enum ftrace_ops_cmd cmd)
{
	switch (cmd) {
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF:
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER:
	case FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER:
		return 0;
	}
	return -EINVAL;
}

static int kstats_direct_register(struct ftrace_ops *ops, unsigned long addr)
{
	ops->ops_func = kstats_direct_ops_func;
#ifdef KSTATS_FTRACE_DIRECT_OPS
	return register_ftrace_direct(ops, addr);
#else
	return register_ftrace_direct_multi(ops, addr);
#endif
}

static int kstats_direct_unregister(struct ftrace_ops *ops,
				    unsigned long addr)
{
#ifdef KSTATS_FTRACE_DIRECT_OPS
	return unregister_ftrace_direct(ops, addr, true);
#else
	int err = unregister_ftrace_direct_multi(ops, addr);

	if (!err)
		ftrace_free_filter(ops);
	return err;
#endif
}

/* Give a slot back: its count, its ops, its modules, the slot for reuse. */
static void kstats_direct_free_slot(struct kstats_direct_slot *s,
				    struct kstats_direct_hot *h)
{
	unsigned int i;

	free_percpu(h->pcpu);
	kfree(s->ops);
	for (i = 0; i < s->nr_mods; i++)
		module_put(s->mods[i]);
	mutex_lock(&kstats_direct_mutex);
	memset(h, 0, sizeof(*h));
	kfree(s->mods);
	kvfree(s->ips);
	s->ops = NULL;
	s->mods = NULL;
	s->nr_mods = 0;
	s->ips = NULL;
	s->nr_ips = 0;
	s->used = false;
	mutex_unlock(&kstats_direct_mutex);
}

/* Free @slot once no call is in it; the distribution is let go. */
static void kstats_direct_release(struct kstats_direct_slot *s,
				  struct kstats_direct_hot *h)
{
	kstats_put(h->ks);
	kstats_direct_free_slot(s, h);
}

/* Walks of the stacks for calls in transit, at most, before kstats stays. */
#define KSTATS_DIRECT_REROUTE_PASSES	8

/*
 * Let the slots of @going go, once detached from ftrace.  A call still in
 * flight (its slot's count, summed, is not zero: a task asleep in the
 * function, or in the trampoline's exit) is rerouted through the kernel's
 * own code (kstats_direct_reroute.c); the tasks that were still running the
 * trampoline's own code are let out by an RCU Tasks grace period.  Then
 * the slots, their distributions' references and their modules go.
 * Nothing waits for a call to return, and nothing is woken.
 */
static void kstats_direct_release_slots(u64 going)
{
	unsigned int rerouted[KSTATS_DIRECT_SLOTS];
	unsigned int nr_ips[KSTATS_DIRECT_SLOTS];
	unsigned long *ips[KSTATS_DIRECT_SLOTS];
	bool inflight = false;
	int i;

	for (i = 0; i < KSTATS_DIRECT_SLOTS; i++) {
		ips[i] = kstats_direct_slots[i].ips;
		nr_ips[i] = kstats_direct_slots[i].nr_ips;
		if (going & BIT_ULL(i))
			inflight |= kstats_direct_inflight(&kstats_direct_hot[i]) > 0;
	}
	if (inflight) {
		unsigned int pass;

		kstats_direct_ever_inflight = true;
		memset(rerouted, 0, sizeof(rerouted));
		/*
		 * a task in transit is out of the trampoline's code after a
		 * grace period, or asleep in the body: walked again
		 */
		for (pass = 0; kstats_direct_reroute(going, ips, nr_ips, rerouted);
		     pass++) {
			synchronize_rcu_tasks();
			if (pass == KSTATS_DIRECT_REROUTE_PASSES) {
				/* never seen: the slots and the text stay */
				WARN_ONCE(1, "kstats: a task still in transit after %u grace periods: kstats stays loaded\n",
					  pass + 1);
				__module_get(THIS_MODULE);
				return;
			}
		}
		for (i = 0; i < KSTATS_DIRECT_SLOTS; i++)
			if ((going & BIT_ULL(i)) && rerouted[i])
				pr_info("%s: %u calls in flight will return untimed\n",
					kstats_direct_hot[i].ks->name, rerouted[i]);
	}
	for (i = 0; i < KSTATS_DIRECT_SLOTS; i++)
		if (going & BIT_ULL(i))
			kstats_direct_release(&kstats_direct_slots[i],
					      &kstats_direct_hot[i]);
}

/*
 * Pin the module of @name (from the kernel's symbol name of the site),
 * whose text @ip is in: found by its sysfs object, which is in the same
 * kset as kstats' own.  NULL for the kernel's own text and for kstats'.
 * Return: 0, -ENOENT for a module gone or going, -EBUSY for one still in
 * its init.
 */
static int kstats_direct_pin(const char *name, unsigned long ip,
			     struct module **modp)
{
	struct module_kobject *mk;
	struct kobject *kobj;
	struct module *mod;

	*modp = NULL;
	if (!name[0] || !strcmp(name, THIS_MODULE->name))
		return 0;
	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, name);
	if (!kobj)
		return -ENOENT;
	mk = container_of(kobj, struct module_kobject, kobj);
	mod = mk->mod;
	/* A module of that name loaded again since is not the one of @ip. */
	if (!mod || !within_module(ip, mod) || !try_module_get(mod)) {
		kobject_put(kobj);
		return -ENOENT;
	}
	kobject_put(kobj);
	/* one whose init may yet fail is freed whatever its references */
	if (READ_ONCE(mod->state) != MODULE_STATE_LIVE) {
		module_put(mod);
		return -EBUSY;
	}
	*modp = mod;
	return 0;
}

/**
 * struct kstats_direct_target - what a slot is attached to
 * @ips: the functions' fentry call sites, sorted
 * @nr_ips: how many
 * @mods: their modules, pinned (none for the kernel's own)
 * @nr_mods: how many
 * @nregs: argument registers the functions take, the most of any
 *
 * kstats_direct_attach() takes over @ips, @mods and their references.
 */
struct kstats_direct_target {
	unsigned long *ips;
	unsigned int nr_ips;
	struct module **mods;
	unsigned int nr_mods;
	u8 nregs;
};

/* Let go of a target not attached: its modules and arrays. */
static void kstats_direct_target_put(struct kstats_direct_target *tg)
{
	unsigned int i;

	for (i = 0; i < tg->nr_mods; i++)
		module_put(tg->mods[i]);
	kfree(tg->mods);
	kvfree(tg->ips);
}

/*
 * kstats_direct_frame_by()'s keys are the key list's TRAMP_FRAME ones: a
 * case a key, each an assertion the compiler folds; never called, kept
 * (__used) so that it is compiled.
 */
static void __used kstats_direct_frame_by_check(enum kstats_by_kind kind)
{
	switch (kind) {
#define KSTATS_BY_KEY(id, ...)						\
	case KSTATS_BY_##id: {						\
		BUILD_BUG_ON(kstats_direct_frame_by(KSTATS_BY_##id) !=	\
			     kstats_by_has(KSTATS_BY_##id,		\
					   KSTATS_KEYF_TRAMP_FRAME));	\
		break;							\
	}
#include "kstats_by_key_list.h"
	default:
		break;
	}
}

/* The keys of the task, which a duration's entry takes with no registers. */
static bool kstats_direct_task_by(enum kstats_by_kind kind)
{
	return kstats_by_has(kind, KSTATS_KEYF_TASK | KSTATS_KEYF_CPU);
}

/*
 * A key that is an argument in a register, as it is or cast ("by argN"),
 * one of the @nregs the function takes, which the trampoline saves: the
 * task key variants' C entry, or the argument key variants' exit, reads
 * it from the frame, as the arg variants' entry does.  (An argument the
 * function does not take is the rich variants', which read the register.)
 */
static bool kstats_direct_arg_by(const struct kstats_by *by,
				 unsigned int nregs)
{
	return by->kind == KSTATS_BY_VALUE && !by->str &&
	       by->v.base == KSTATS_BASE_ARG && !by->v.nr_derefs &&
	       by->v.arg < nregs;
}

/* The keys the task name and ids variants keep: its name, pid and tid. */
static bool kstats_direct_ids_by(enum kstats_by_kind kind)
{
	return kstats_by_has(kind, KSTATS_KEYF_TRAMP_IDS);
}

/* Those variants for @fn: by name or ids, with the task's name or none. */
static enum kstats_direct_kind kstats_direct_ids_kind(const struct kstats_fn *fn)
{
	bool comm = kstats_filter_comm_alone(&fn->filter);

	if (fn->by.kind == KSTATS_BY_COMM)
		return comm ? KSTATS_DKIND_TNAME_COMM : KSTATS_DKIND_TNAME;
	return comm ? KSTATS_DKIND_TIDS_COMM : KSTATS_DKIND_TIDS;
}

/* The task variants for filters @f: the name or a cgroup alone, or any. */
static enum kstats_direct_kind
kstats_direct_task_kind(const struct kstats_filter *f)
{
	if (kstats_filter_comm_alone(f))
		return KSTATS_DKIND_COMM;
	if (kstats_filter_cgroup_alone(f))
		return KSTATS_DKIND_CGROUP;
	return KSTATS_DKIND_TASK;
}

/*
 * The variants @fn takes, with its slot's plain exit @exit, whether its
 * clock is read inline (@inline_clock: tsc, or ktime as the TSC) and the
 * argument registers its function takes (@nregs): a duration
 * whose filters are all the task's (no value, no condition, nothing read
 * at the return, no outliers) takes the task ones where its exit is plain,
 * the task key ones where it is split by a key of the task or one of its
 * arguments, or, with no
 * filter but the task's name and a plain exit, the frame key ones for a
 * key of the frame and the task ids ones for the task's name or ids where
 * the clock is read inline, the argument key ones for an argument but the
 * first, with no filter, where the clock is read inline; a value alone
 * (the return value, or an argument in a register, as it is or cast, with
 * no dereference, which reads memory under the guard; no filter, no
 * outliers) the ret or arg ones; anything else the rich ones.
 */
static enum kstats_direct_kind
kstats_direct_kind_of(const struct kstats_fn *fn, enum kstats_direct_exit exit,
		      bool inline_clock, unsigned int nregs)
{
	const struct kstats_value *v = &fn->value;
	bool task_duration = v->base == KSTATS_BASE_NONE && !fn->filter.nr_conds &&
			     !fn->ret_at_exit && !fn->exit_extra && !fn->outliers;
	bool value_alone = v->base != KSTATS_BASE_NONE && !v->nr_derefs &&
			   kstats_filter_is_empty(&fn->filter) && !fn->outliers;

	switch (kstats_fn_kind(fn)) {
	case KSTATS_FN_RICH:
		if (task_duration && exit == KSTATS_DEXIT_PLAIN)
			return kstats_direct_task_kind(&fn->filter);
		if (value_alone && v->base == KSTATS_BASE_RET)
			return KSTATS_DKIND_RET;
		if (value_alone && v->base == KSTATS_BASE_ARG &&
		    v->arg < KSTATS_DIRECT_ARG_REGS)
			return KSTATS_DKIND_ARG;
		break;
	case KSTATS_FN_FAMILY:
		/* by cpu: its keys are the per-CPU rows the plain exits fill */
		if (task_duration && exit == KSTATS_DEXIT_PLAIN &&
		    kstats_family_per_cpu(fn->ks->family))
			return kstats_direct_task_kind(&fn->filter);
		/*
		 * a key of the frame: read at the exit, where it still is,
		 * after the plain entries (the task's name compared inline);
		 * with other filters, at the entry that checks them
		 */
		if (task_duration && exit == KSTATS_DEXIT_PLAIN &&
		    kstats_direct_frame_by(fn->by.kind) &&
		    kstats_filter_is_empty(&fn->filter))
			return fn->by.kind == KSTATS_BY_FUNC ?
			       KSTATS_DKIND_FFUNC : KSTATS_DKIND_FKEY;
		if (task_duration && exit == KSTATS_DEXIT_PLAIN &&
		    kstats_direct_frame_by(fn->by.kind) &&
		    kstats_filter_comm_alone(&fn->filter))
			return fn->by.kind == KSTATS_BY_FUNC ?
			       KSTATS_DKIND_FFUNC_COMM : KSTATS_DKIND_FKEY_COMM;
		/*
		 * an argument in a register but the first (whose word the
		 * return value takes): all of them kept by an entry that
		 * calls no C, the key taken at the exit; else at the C entry
		 */
		if (task_duration && exit == KSTATS_DEXIT_PLAIN && inline_clock &&
		    kstats_direct_arg_by(&fn->by, nregs) && fn->by.v.arg &&
		    kstats_filter_is_empty(&fn->filter))
			return KSTATS_DKIND_AKEY;
		/*
		 * the task's name or ids: kept in the frame by an entry that
		 * calls no C, for the exit to look up; other keys of the
		 * task (its cgroup), and other clocks, at the C entry
		 */
		if (task_duration && exit == KSTATS_DEXIT_PLAIN && inline_clock &&
		    kstats_direct_ids_by(fn->by.kind) &&
		    (kstats_filter_is_empty(&fn->filter) ||
		     kstats_filter_comm_alone(&fn->filter)))
			return kstats_direct_ids_kind(fn);
		if (task_duration && (kstats_direct_task_by(fn->by.kind) ||
				      kstats_direct_frame_by(fn->by.kind) ||
				      kstats_direct_arg_by(&fn->by, nregs)))
			return KSTATS_DKIND_TKEY;
		break;
	default:
		break;
	}
	return KSTATS_DKIND_RICH;
}

/**
 * kstats_direct_attach() - time functions with the direct trampoline
 * @ks: the distribution, which the slot holds a reference to
 * @outliers: its outliers, or NULL; freed with @ks, so as long as the slot
 *	holds it
 * @rich: the node, for its filters and family (the rich variants), or
 *	NULL for a plain duration; freed with @ks too
 * @tg: the functions, which the slot takes over, on failure too
 *
 * Context: process; may sleep.
 * Return: the slot, or -ENOSPC when all are taken, -EBUSY when a
 * function has another direct caller, -ENOMEM, another negative errno
 * from ftrace.
 */
static int kstats_direct_attach(struct kstats *ks,
				struct kstats_outliers *outliers,
				struct kstats_fn *rich,
				struct kstats_direct_target *tg)
{
	struct kstats_direct_slot *s = NULL;
	struct kstats_direct_hot *h;
	struct ftrace_ops *ops;
	int i, cpu, err;

	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops) {
		kstats_direct_target_put(tg);
		return -ENOMEM;
	}
	mutex_lock(&kstats_direct_mutex);
	err = kstats_direct_probe_exits();
	for (i = 0; !err && i < KSTATS_DIRECT_SLOTS; i++) {
		if (!kstats_direct_slots[i].used) {
			s = &kstats_direct_slots[i];
			s->used = true;
			break;
		}
	}
	mutex_unlock(&kstats_direct_mutex);
	if (!s) {
		kfree(ops);
		kstats_direct_target_put(tg);
		return err ? err : -ENOSPC;
	}
	h = &kstats_direct_hot[i];
	s->ops = ops;
	mutex_lock(&kstats_direct_mutex);
	s->mods = tg->mods;
	s->nr_mods = tg->nr_mods;
	s->ips = tg->ips;
	s->nr_ips = tg->nr_ips;
	mutex_unlock(&kstats_direct_mutex);
	s->unstable_said = false;
	h->pcpu = alloc_percpu(struct kstats_direct_pcpu);
	if (!h->pcpu) {
		kstats_direct_free_slot(s, h);
		return -ENOMEM;
	}
	/* no last key yet (struct kstats_direct_pcpu) */
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(h->pcpu, cpu)->key[1] = U64_MAX;
		per_cpu_ptr(h->pcpu, cpu)->word = U64_MAX;
	}
	h->nregs = tg->nregs;
	h->clock = ks->clock;
	/*
	 * A gap sibling compares a return's time with the next entry's: both
	 * in the clock's own units, never cycles
	 */
	h->tscns = ks->clock == KSTATS_CLOCK_KTIME && !(rich && rich->gap) &&
		   kstats_counter_is_ktime();
	h->exit = kstats_direct_exit_of(ks, outliers);
	h->ks = ks;
	h->outliers = outliers;
	h->ocpu = outliers ? outliers->pcpu : NULL;
	h->fn = rich;
	h->kind = rich ? kstats_direct_kind_of(rich, h->exit,
					       h->clock == KSTATS_CLOCK_TSC || h->tscns,
					       h->nregs) :
			 KSTATS_DKIND_RICH;
	h->task_filter = rich && !kstats_filter_is_empty(&rich->filter);
	if (h->kind == KSTATS_DKIND_COMM || h->kind == KSTATS_DKIND_FKEY_COMM ||
	    h->kind == KSTATS_DKIND_FFUNC_COMM ||
	    h->kind == KSTATS_DKIND_TNAME_COMM || h->kind == KSTATS_DKIND_TIDS_COMM)
		memcpy(h->comm, rich->filter.comm, sizeof(h->comm));
	if (h->kind == KSTATS_DKIND_CGROUP) {
		h->comm[0] = rich->filter.cgroup_id;
		h->comm[1] = rich->filter.cgroup_level;
	}
	/* every function in one filter: one ftrace update */
	err = ftrace_set_filter_ips(ops, tg->ips, tg->nr_ips, 0, 0);
	if (!err)
		err = kstats_direct_register(ops, kstats_direct_stub(i));
	if (err) {
		ftrace_free_filter(ops);
		kstats_direct_free_slot(s, h);
		return err;
	}
	kref_get(&ks->kref);
	return i;
}

/**
 * kstats_direct_detach() - stop timing a function, free its slot
 * @slot: what kstats_direct_attach() returned
 *
 * No call enters the trampoline once this returns, and the slot, the
 * reference to the distribution and the traced modules are gone; the
 * calls in flight return later, untimed, through the kernel's own code.  Should
 * ftrace fail to remove the direct call, the call site may still call the
 * stub: then the slot, the distribution, the traced module and kstats
 * itself stay, for good, and the kernel log says so once.
 *
 * Context: process; may sleep: stop_machine() when a call is in flight,
 * then an RCU Tasks grace period when a task was in the trampoline's code.
 */
static void kstats_direct_detach(int slot)
{
	struct kstats_direct_slot *s = &kstats_direct_slots[slot];
	int err;

	err = kstats_direct_unregister(s->ops, kstats_direct_stub(slot));
	if (err) {
		WARN_ONCE(1, "kstats: %s: ftrace could not remove the direct call (%d): its slot, kstats and the traced module stay\n",
			  kstats_direct_hot[slot].ks->name, err);
		__module_get(THIS_MODULE);
		mutex_lock(&kstats_direct_mutex);
		s->leaked = true;
		mutex_unlock(&kstats_direct_mutex);
		return;
	}
	kstats_direct_release_slots(BIT_ULL(slot));
}

/*
 * Functions that do not return to their caller, or not always (a task
 * killed in them exits there), and the main loops of threads, which
 * return only when the thread ends, if ever.  A task that exits inside a
 * directly traced function is counted out at its exit
 * (kstats_direct_task_exit()), but for these that would be the rule
 * rather than the exception: they take fprobe, whose return hooks are per
 * task and go with it.  x64_sys_call(), the dispatch of every system call
 * on x86-64, is not among them: exit() and exit_group() are two calls of
 * hundreds, each counted out at the task's exit (as missed: no duration
 * was seen), while every other call returns through it.
 */
static bool kstats_is_noreturn(const char *sym)
{
	static const char * const names[] = {
		"do_exit", "do_group_exit", "make_task_dead", "kthread_exit",
		"kthread_complete_and_exit", "do_task_dead", "panic",
		"nmi_panic", "get_signal", "arch_do_signal_or_restart",
		"do_syscall_64", "__x64_sys_exit",
		"__x64_sys_exit_group", "__do_sys_exit", "__do_sys_exit_group",
		"__se_sys_exit", "__se_sys_exit_group", "do_coredump",
		"rewind_stack_and_make_dead", "__module_put_and_kthread_exit",
		"__ia32_sys_exit", "__ia32_sys_exit_group", "kthread",
		"kthreadd", "ret_from_fork", "ret_from_fork_asm",
		"cpu_startup_entry", "do_idle", "start_kernel", "rest_init",
		"start_secondary", "worker_thread", "rescuer_thread",
		"smpboot_thread_fn",
		/* arm64's syscall path and its exits */
		"__arm64_sys_exit", "__arm64_sys_exit_group", "invoke_syscall",
		"el0_svc_common", "do_el0_svc", "do_el0_svc_compat", "el0_svc",
		"el0_svc_compat", "el0t_64_sync_handler",
		"el0t_32_sync_handler", "secondary_start_kernel",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(sym, names[i]))
			return true;
	return false;
}

/*
 * Functions whose calls in flight are on stacks that the removal of a
 * node cannot reach (kstats_direct_reroute.c): the idle tasks' (not on
 * the task list), which sleep in schedule_idle(), and the stopper threads'
 * as they run stop_machine() itself.  Such a call would return into
 * kstats' text after kstats is gone: they take fprobe, whose return hook
 * is the kernel's.
 */
static bool kstats_direct_unseen(const char *sym)
{
	static const char * const names[] = {
		"schedule_idle", "cpu_stopper_thread", "multi_cpu_stop",
		"stop_machine_yield",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(sym, names[i]))
			return true;
	return false;
}

static int kstats_direct_ip_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Whether a slot of kstats that ftrace calls has @ip. */
static bool kstats_direct_owned(unsigned long ip)
{
	bool owned = false;
	int i;

	mutex_lock(&kstats_direct_mutex);
	for (i = 0; i < KSTATS_DIRECT_SLOTS && !owned; i++) {
		const struct kstats_direct_slot *s = &kstats_direct_slots[i];

		owned = s->used && s->ips &&
			bsearch(&ip, s->ips, s->nr_ips, sizeof(ip),
				kstats_direct_ip_cmp);
	}
	mutex_unlock(&kstats_direct_mutex);
	return owned;
}

/*
 * Who holds a function that ftrace refused (-EBUSY): another kstats
 * node, or another direct caller.  An IPMODIFY user (a livepatch, a
 * kprobe with a post handler) shares the function (kstats_direct_ops_func())
 * and is not the reason.
 */
static const char *kstats_direct_holder(unsigned long ip)
{
	return kstats_direct_owned(ip) ?
	       "another kstats node traces it directly" :
	       "another direct caller has it (a BPF fentry/fexit trampoline)";
}

/*
 * Whether the trampoline has the handlers @fn needs: a duration, plain, or
 * with values, filters, a family, outliers and gap (the rich variants,
 * which read the return value from the trampoline's frame); a gap sibling
 * of a node over several functions is refused.
 */
static bool kstats_direct_takes(const struct kstats_fn *fn, const char **why)
{
	if (!kstats_direct_reroute_ready()) {
		*why = "the kernel's text has no code a removed node's calls could return through";
		return false;
	}
	if (fn->gap && fn->multi) {
		*why = "gap times one function's calls, not a glob's or a list's";
		return false;
	}
	return true;
}

/*
 * The skip reason of a function of a node over several, from its BTF:
 * the shared trampoline saves the argument registers of the function
 * that takes the most, and copies no stack words (their number differs
 * from function to function, and the stub does not tell them apart).
 */
static u8 kstats_direct_multi_skip(const struct kstats_multi_func *mf,
				   const struct kstats_btf_query *q)
{
	if (kstats_is_noreturn(mf->name) || kstats_direct_unseen(mf->name))
		return KSTATS_MULTI_NORETURN;
	if (q->err == -ENOTUNIQ)
		return KSTATS_MULTI_AMBIGUOUS;
	if (q->err)
		return KSTATS_MULTI_NO_BTF;
	if (q->f.ret_regs > 1)
		return KSTATS_MULTI_RET16;
	if (q->f.nstack)
		return KSTATS_MULTI_STACK_ARGS;
	if (kstats_direct_owned(kstats_direct_site(mf->addr, NULL, 0)))
		return KSTATS_MULTI_DIRECT_BUSY;
	return KSTATS_MULTI_TRACED;
}

/* Pin the module of every function traced; the target keeps them. */
static int kstats_direct_multi_pin(const struct kstats_multi *m,
				   struct kstats_direct_target *tg)
{
	unsigned int i, j;

	if (!m->nr_mods)
		return 0;
	tg->mods = kcalloc(m->nr_mods, sizeof(*tg->mods), GFP_KERNEL);
	if (!tg->mods)
		return -ENOMEM;
	for (i = 1; i <= m->nr_mods; i++) {
		for (j = 0; j < m->nr; j++)
			if (m->funcs[j].mod == i &&
			    m->funcs[j].skip == KSTATS_MULTI_TRACED)
				break;
		if (j == m->nr)
			continue;
		if (kstats_direct_pin(m->mods[i - 1], m->funcs[j].addr,
				      &tg->mods[tg->nr_mods]))
			return -ENOENT;
		if (tg->mods[tg->nr_mods])
			tg->nr_mods++;
	}
	return 0;
}

/*
 * A node over several functions: each one the trampoline can take, all
 * on one slot, attached in one ftrace update.  Those it cannot take are
 * marked skipped, and why, for the header.
 */
static int kstats_direct_multi_attach(struct kstats_fn *fn, const char **why)
{
	struct kstats_multi *m = fn->multi;
	struct kstats_direct_target tg = { 0 };
	struct kstats_btf_query *q;
	unsigned int i;
	int err, slot;

	q = kvcalloc(m->nr, sizeof(*q), GFP_KERNEL);
	tg.ips = kvmalloc_array(m->nr, sizeof(*tg.ips), GFP_KERNEL);
	if (!q || !tg.ips) {
		kvfree(q);
		kvfree(tg.ips);
		*why = "no memory";
		return -ENOMEM;
	}
	/* m->funcs is sorted by name: so is the query */
	for (i = 0; i < m->nr; i++) {
		q[i].name = m->funcs[i].name;
		q[i].module = kstats_multi_module(m, &m->funcs[i]);
	}
	err = kstats_btf_funcs(q, m->nr);
	for (i = 0; !err && i < m->nr; i++) {
		struct kstats_multi_func *mf = &m->funcs[i];

		if (mf->skip == KSTATS_MULTI_TRACED)
			mf->skip = kstats_direct_multi_skip(mf, &q[i]);
		if (mf->skip != KSTATS_MULTI_TRACED)
			continue;
		tg.ips[tg.nr_ips++] = kstats_direct_site(mf->addr, NULL, 0);
		tg.nregs = max(tg.nregs, q[i].f.nregs);
	}
	kvfree(q);
	if (err) {
		kvfree(tg.ips);
		*why = "the kernel's BTF cannot be read";
		return err;
	}
	if (!tg.nr_ips) {
		kvfree(tg.ips);
		/* the first one's reason, for the log; the others' alike */
		*why = kstats_multi_skip_why(m->funcs[0].skip);
		return -ENOENT;
	}
	sort(tg.ips, tg.nr_ips, sizeof(*tg.ips), kstats_direct_ip_cmp, NULL);
	err = kstats_direct_multi_pin(m, &tg);
	if (err) {
		kstats_direct_target_put(&tg);
		*why = "a module of its functions is going, or still loading";
		return err;
	}
	slot = kstats_direct_attach(fn->ks, fn->outliers,
				    kstats_fn_kind(fn) == KSTATS_FN_FAST ? NULL : fn,
				    &tg);
	if (slot < 0) {
		*why = slot == -EBUSY ?
		       "another direct caller (a BPF trampoline) has one of them" :
		       slot == -ENOSPC ? "all direct slots are in use" :
		       "ftrace cannot call them directly";
		return slot;
	}
	fn->mech_data = &kstats_direct_slots[slot];
	return 0;
}

/*
 * Time the function with the trampoline, if it can: a duration, plain or
 * filtered or split by a key taken at the entry (kstats_direct_takes()), a
 * function that returns, whose arguments the BTF places and whose return
 * value fits %rax (the trampoline keeps no %rdx), not taken by another
 * direct caller.
 */
static int kstats_direct_mech_attach(struct kstats_fn *fn,
				     unsigned int maxactive, const char **why)
{
	struct kstats_direct_target tg = { 0 };
	struct kstats_btf_func f = { 0 };
	char mod[MODULE_NAME_LEN];
	struct module *pinned;
	unsigned long ip;
	int err, slot;

	if (!kstats_direct_takes(fn, why))
		return -EOPNOTSUPP;
	if (fn->ks->clock == KSTATS_CLOCK_TSC && !kstats_counter_inline()) {
		*why = "the cycle counter needs a workaround the trampoline does not take";
		return -EOPNOTSUPP;
	}
	if (fn->multi)
		return kstats_direct_multi_attach(fn, why);
	if (fn->target[0] && kstats_is_noreturn(fn->target)) {
		*why = "a call of it may never return";
		return -EOPNOTSUPP;
	}
	if (fn->target[0] && kstats_direct_unseen(fn->target)) {
		*why = "the idle task or stop_machine() runs it, on a stack a removal cannot reach";
		return -EOPNOTSUPP;
	}
	ip = kstats_direct_site(fn->addr, mod, sizeof(mod));
	if (fn->target[0]) {
		err = kstats_btf_func(fn->target, mod[0] ? mod : NULL, &f);
		if (err == -EOPNOTSUPP) {
			*why = "it takes variable arguments";
			return err;
		}
		if (err == -ENOTUNIQ) {
			*why = "its name has differing prototypes in the BTF";
			return err;
		}
		if (err) {
			*why = "its arguments are not in the BTF";
			return err;
		}
		if (f.ret_regs > 1) {
			*why = IS_ENABLED(CONFIG_X86_64) ?
			       "it returns 16 bytes, in %rax and %rdx" :
			       "it returns 16 bytes, in x0 and x1";
			return -EOPNOTSUPP;
		}
		/* the body would find them in the trampoline's frame */
		if (f.nstack) {
			*why = "it takes arguments on the stack";
			return -EOPNOTSUPP;
		}
		/* several of that name: which one the BTF describes is unknown */
		if (kstats_syms_ambiguous(fn->target, mod[0] ? mod : NULL) > 0) {
			*why = "several functions bear its name, and the BTF describes one of them";
			return -ENOTUNIQ;
		}
	}
	err = kstats_direct_pin(mod, ip, &pinned);
	if (err) {
		*why = err == -EBUSY ? "its module is still loading" :
				       "its module is going";
		return err;
	}
	tg.nregs = f.nregs;
	tg.ips = kvmalloc(sizeof(*tg.ips), GFP_KERNEL);
	tg.mods = pinned ? kmalloc(sizeof(*tg.mods), GFP_KERNEL) : NULL;
	if (pinned && tg.mods)
		tg.mods[tg.nr_mods++] = pinned;
	else
		module_put(pinned);
	if (!tg.ips || (pinned && !tg.mods)) {
		kstats_direct_target_put(&tg);
		*why = "no memory";
		return -ENOMEM;
	}
	tg.ips[tg.nr_ips++] = ip;
	slot = kstats_direct_attach(fn->ks, fn->outliers,
				    kstats_fn_kind(fn) == KSTATS_FN_FAST ? NULL : fn,
				    &tg);
	if (slot < 0) {
		switch (slot) {
		case -EBUSY:
			*why = kstats_direct_holder(ip);
			break;
		case -ENOSPC:
			*why = "all direct slots are in use";
			break;
		default:
			*why = "ftrace cannot call it directly";
			break;
		}
		return slot;
	}
	fn->mech_data = &kstats_direct_slots[slot];
	return 0;
}

static void kstats_direct_mech_detach(struct kstats_fn *fn)
{
	struct kstats_direct_slot *s = fn->mech_data;

	kstats_direct_detach(s - kstats_direct_slots);
}

static u64 kstats_direct_mech_missed(const struct kstats_fn *fn)
{
	return 0;
}

/* The header's word for a slot's variants, those other than the rich. */
static const char * const kstats_direct_kind_names[] = {
	[KSTATS_DKIND_TASK] = " entry task",
	[KSTATS_DKIND_RET] = " exit ret",
	[KSTATS_DKIND_ARG] = " entry arg",
	[KSTATS_DKIND_TKEY] = " entry task_key",
	[KSTATS_DKIND_COMM] = " entry comm",
	[KSTATS_DKIND_CGROUP] = " entry cgroup",
	[KSTATS_DKIND_FKEY] = " exit frame_key",
	[KSTATS_DKIND_FKEY_COMM] = " entry comm exit frame_key",
	[KSTATS_DKIND_TNAME] = " entry task_name exit task_key",
	[KSTATS_DKIND_TNAME_COMM] = " entry comm task_name exit task_key",
	[KSTATS_DKIND_TIDS] = " entry task_ids exit task_key",
	[KSTATS_DKIND_TIDS_COMM] = " entry comm task_ids exit task_key",
	[KSTATS_DKIND_FFUNC] = " exit frame_key",
	[KSTATS_DKIND_FFUNC_COMM] = " entry comm exit frame_key",
	[KSTATS_DKIND_AKEY] = " exit arg_key",
};

/* "read tsc", and whether the TSC has since stopped being CLOCK_MONOTONIC's. */
static void kstats_direct_describe_tsc(struct kstats_direct_slot *s,
				       const struct kstats_direct_hot *h,
				       struct seq_file *m)
{
	kstats_counter_describe(m, h->ks->name, &s->unstable_said);
}

/*
 * How the trampoline passes the arguments on, and what it reads for
 * clock ktime.  That the TSC is ktime was decided when the node was made;
 * should the kernel find the TSC unstable since (its clocksource watchdog,
 * a CPU hotplugged with a skewed TSC), a pair that crossed CPUs may be
 * wrong.  The trampoline is not changed under running calls: the header
 * says "tsc_unstable yes", and the kernel log says once what to do.
 */
static void kstats_direct_describe(const struct kstats_fn *fn,
				   struct seq_file *m)
{
	struct kstats_direct_slot *s = fn->mech_data;
	const struct kstats_direct_hot *h;

	h = &kstats_direct_hot[s - kstats_direct_slots];
	/* stack_words: always 0 now, kept for the readers of the header */
	seq_printf(m, " arg_regs %u stack_words 0", h->nregs);
	if (h->tscns)
		kstats_direct_describe_tsc(s, h, m);
	if (!h->fn || h->kind == KSTATS_DKIND_RICH)
		return;
	/* a key the frame holds, taken by the task keys' variants */
	if (h->kind == KSTATS_DKIND_TKEY && kstats_direct_frame_by(fn->by.kind))
		seq_puts(m, " entry frame_key");
	else if (h->kind == KSTATS_DKIND_TKEY &&
		 kstats_direct_arg_by(&fn->by, h->nregs))
		seq_puts(m, " entry arg_key");
	else
		seq_puts(m, kstats_direct_kind_names[h->kind]);
}

const struct kstats_mech_ops kstats_mech_direct = {
	.mech = KSTATS_MECH_DIRECT,
	.attach = kstats_direct_mech_attach,
	.detach = kstats_direct_mech_detach,
	.missed = kstats_direct_mech_missed,
	.describe = kstats_direct_describe,
};

/**
 * kstats_direct_init() - at module load
 *
 * Context: process.
 * Return: 0.
 */
int kstats_direct_init(void)
{
	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, pcpu) != KSTATS_DHOT_PCPU);
	BUILD_BUG_ON(offsetof(struct kstats_direct_pcpu, inflight) != 0);
	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, ks) != KSTATS_DHOT_KS);
	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, comm) != KSTATS_DHOT_COMM);
	BUILD_BUG_ON(sizeof_field(struct kstats_direct_hot, comm) !=
		     sizeof_field(struct kstats_filter, comm));
	BUILD_BUG_ON(sizeof(struct kstats_direct_hot) != KSTATS_DHOT_SIZE);

	/* without it, the trampoline takes no function (kstats_direct_takes()) */
	kstats_direct_reroute_init();
	kstats_direct_exits_init();
	return 0;
}

/**
 * kstats_direct_exit() - at module unload, after every node is gone
 *
 * Every slot was released as its node went: the calls still in flight
 * return to their callers through the kernel's own code.  What is left is
 * a task still in the trampoline's last instructions (after its exit
 * counted the call out), which an RCU Tasks grace period lets out when
 * one is seen (kstats_direct_reroute()).
 *
 * Context: process; may sleep, never for a call in flight.
 */
void kstats_direct_exit(void)
{
	kstats_syms_free();
	if (kstats_direct_exit_probed) {
		tracepoint_probe_unregister(kstats_direct_exit_tp,
					    (void *)kstats_direct_task_exit,
					    NULL);
		tracepoint_synchronize_unregister();
	}
	/*
	 * A task still in the trampoline's last instructions, after its exit
	 * counted its call out: out after an RCU Tasks grace period.  Looked
	 * for only if some slot ever had a call in flight at its removal:
	 * otherwise every call left the trampoline before its slot went
	 * (ftrace's own wait as the direct call went).
	 */
	if (kstats_direct_ever_inflight && kstats_direct_reroute(0, NULL, NULL, NULL))
		synchronize_rcu_tasks();
}
