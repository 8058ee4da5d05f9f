// SPDX-License-Identifier: GPL-2.0
/*
 * The direct mechanism: a function timed by a trampoline of kstats' own
 * (kstats_direct_tramp_*.S), which ftrace calls straight from the function's
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
 *    (sched_process_exit) walks its stack and counts its calls out.
 *  - the traced functions' modules are pinned from attach to release (the
 *    node's removal), as BPF pins its attach target: rmmod of one fails
 *    (EAGAIN) until then.
 *  - should ftrace fail to remove the direct call, the slot is never
 *    reused nor freed, and kstats and the target stay pinned: the call
 *    site may still call the stub.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/kallsyms.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/kref.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#ifdef CONFIG_X86_64
#include <asm/tsc.h>
#include <asm/unwind.h>
#else
#include <linux/sched/task_stack.h>
#include <asm/arch_timer.h>
#include <asm/pointer_auth.h>
#endif

#include "kstats.h"
#include "kstats_counter.h"
#include "kstats_btf.h"
#include "kstats_direct.h"
#include "kstats_direct_reroute.h"
#include "kstats_fn.h"
#include "kstats_multi.h"
#include "kstats_syms.h"

/* The trampoline's fields, one per stub; read by kstats_direct_tramp_*.S. */
struct kstats_direct_hot kstats_direct_hot[KSTATS_DIRECT_SLOTS];

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
 * The trampoline's variants, in the order of its stub arrays: per clock,
 * one per enum kstats_direct_exit, each for KSTATS_DIRECT_ARG_KINDS kinds
 * of arguments (A below); then the rich ones, for any clock; then the
 * task-filtered ones, per clock in the same order, each for A kinds of
 * arguments; then the return values', the arguments' and the task keys'
 * (per clock).
 */
#define KSTATS_DV_A		KSTATS_DIRECT_ARG_KINDS
#define KSTATS_DV_PER_CLOCK	(KSTATS_DEXITS * KSTATS_DV_A)
enum kstats_direct_variant {
	KSTATS_DV_TSC,
	KSTATS_DV_KTIME = KSTATS_DV_TSC + KSTATS_DV_PER_CLOCK,
	KSTATS_DV_LOCAL = KSTATS_DV_KTIME + KSTATS_DV_PER_CLOCK,
	KSTATS_DV_TSCNS = KSTATS_DV_LOCAL + KSTATS_DV_PER_CLOCK,
	/* filters and families, any clock: one per kind of arguments */
	KSTATS_DV_RICH = KSTATS_DV_TSCNS + KSTATS_DV_PER_CLOCK,
	/* a duration filtered by the task alone: per clock, A each */
	KSTATS_DV_TASK = KSTATS_DV_RICH + KSTATS_DV_A,
	/* a return value alone: A; an argument alone: A */
	KSTATS_DV_RET = KSTATS_DV_TASK + 4 * KSTATS_DV_A,
	KSTATS_DV_ARG = KSTATS_DV_RET + KSTATS_DV_A,
	/* a duration split by a task key: per clock, A each */
	KSTATS_DV_TKEY = KSTATS_DV_ARG + KSTATS_DV_A,
	/* a duration filtered by the task's name alone: per clock, A each */
	KSTATS_DV_COMM = KSTATS_DV_TKEY + 4 * KSTATS_DV_A,
	/* a duration filtered by a cgroup alone: per clock, A each */
	KSTATS_DV_CGROUP = KSTATS_DV_COMM + 4 * KSTATS_DV_A,
	/* a duration split by a frame key: per clock, A each */
	KSTATS_DV_FKEY = KSTATS_DV_CGROUP + 4 * KSTATS_DV_A,
	/* the same, filtered by the task's name alone */
	KSTATS_DV_FKEY_COMM = KSTATS_DV_FKEY + 4 * KSTATS_DV_A,
	/* a duration split by the task's name: tsc, tscns, A each */
	KSTATS_DV_TNAME = KSTATS_DV_FKEY_COMM + 4 * KSTATS_DV_A,
	/* the same, filtered by the task's name alone */
	KSTATS_DV_TNAME_COMM = KSTATS_DV_TNAME + 2 * KSTATS_DV_A,
	/* by its pid or tid; then filtered by its name */
	KSTATS_DV_TIDS = KSTATS_DV_TNAME_COMM + 2 * KSTATS_DV_A,
	KSTATS_DV_TIDS_COMM = KSTATS_DV_TIDS + 2 * KSTATS_DV_A,
	/* split by the function: per clock, A each; then by name */
	KSTATS_DV_FFUNC = KSTATS_DV_TIDS_COMM + 2 * KSTATS_DV_A,
	KSTATS_DV_FFUNC_COMM = KSTATS_DV_FFUNC + 4 * KSTATS_DV_A,
};

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
	[KSTATS_DKIND_RICH] = { KSTATS_DV_RICH, 0, true },
	[KSTATS_DKIND_TASK] = { KSTATS_DV_TASK, 4 },
	[KSTATS_DKIND_RET] = { KSTATS_DV_RET, 0 },
	[KSTATS_DKIND_ARG] = { KSTATS_DV_ARG, 0, true },
	[KSTATS_DKIND_TKEY] = { KSTATS_DV_TKEY, 4 },
	[KSTATS_DKIND_COMM] = { KSTATS_DV_COMM, 4 },
	[KSTATS_DKIND_CGROUP] = { KSTATS_DV_CGROUP, 4 },
	[KSTATS_DKIND_FKEY] = { KSTATS_DV_FKEY, 4 },
	[KSTATS_DKIND_FKEY_COMM] = { KSTATS_DV_FKEY_COMM, 4 },
	[KSTATS_DKIND_TNAME] = { KSTATS_DV_TNAME, 2 },
	[KSTATS_DKIND_TNAME_COMM] = { KSTATS_DV_TNAME_COMM, 2 },
	[KSTATS_DKIND_TIDS] = { KSTATS_DV_TIDS, 2 },
	[KSTATS_DKIND_TIDS_COMM] = { KSTATS_DV_TIDS_COMM, 2 },
	[KSTATS_DKIND_FFUNC] = { KSTATS_DV_FFUNC, 4 },
	[KSTATS_DKIND_FFUNC_COMM] = { KSTATS_DV_FFUNC_COMM, 4 },
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
 * Record with a compile-time frac_bits, as the fprobe handlers do: fewer
 * instructions than kstats_record() for a test of the node's, the
 * default's first.
 */
static __always_inline notrace void kstats_direct_record(struct kstats *ks,
							 u64 v)
{
	if (likely(ks->frac_bits == KSTATS_DEFAULT_FRAC_BITS)) {
		__KSTATS_RECORD(ks, v, KSTATS_DEFAULT_FRAC_BITS);
		return;
	}
	switch (ks->frac_bits) {
	case 0:
		__KSTATS_RECORD(ks, v, 0);
		break;
	case 1:
		__KSTATS_RECORD(ks, v, 1);
		break;
	case 2:
		__KSTATS_RECORD(ks, v, 2);
		break;
	case 3:
		__KSTATS_RECORD(ks, v, 3);
		break;
	case 4:
		__KSTATS_RECORD(ks, v, 4);
		break;
	default:
		__KSTATS_RECORD(ks, v, 5);
		break;
	}
}

/**
 * struct kstats_direct_at - the traced function at its entry, from the
 *	trampoline's frame: what an unwinder starts from
 * @ip: the body's first instruction, past the ftrace call
 * @sp: the stack pointer at the entry
 * @bp: the frame pointer to walk from: the caller's %rbp on x86-64 (this
 *	file is built with -ffixed-rbp, so it is still that), on arm64 the
 *	frame record of the caller that the trampoline made
 * @lr: on arm64, where the caller resumes (x30 at the entry), else 0
 */
struct kstats_direct_at {
	unsigned long ip;
	unsigned long sp;
	unsigned long bp;
	unsigned long lr;
};

static __always_inline notrace void
kstats_direct_at(const struct kstats_direct_entry *e, struct kstats_direct_at *at)
{
	const unsigned long *f = (const void *)e - KSTATS_DFRAME_TS;
#ifdef CONFIG_X86_64
	const unsigned long *ret = (const void *)f + KSTATS_DFRAME_SIZE;
	unsigned long bp;

	/* into a scalar: a struct field as the output would keep @at in memory */
	asm("movq %%rbp, %0" : "=r" (bp));
	at->ip = ret[0];
	at->sp = (unsigned long)&ret[1];
	at->bp = bp;
	at->lr = 0;
#else
	at->ip = f[KSTATS_DFRAME_FUNC / 8 + 1];
	at->sp = (unsigned long)f + KSTATS_DFRAME_SIZE;
	at->bp = (unsigned long)f + KSTATS_DFRAME_CALLER;
	at->lr = f[KSTATS_DFRAME_CALLER / 8 + 1];
#endif
}

/*
 * An outlier of the slot's function, kept, then the call out of flight;
 * the exits' tail call.  Its stack is unwound from the function's own
 * frame, as it was when the body returned (kstats_direct_at(): the return
 * address into the function past its fentry call, the caller's above it,
 * and the caller's frame pointer), not from here: the trampoline's and
 * the exit's frames are no part of it, and are not walked.  Never
 * inlined: its frame (the registers it saves, the capture's stack
 * arguments) would be set up on every exit, outlier or not.
 */
noinline notrace __noendbr void kstats_direct_outlier(struct kstats_direct_hot *h,
					     struct kstats_direct_entry *e,
					     u64 v)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	kstats_outlier_capture_at(h->outliers, v, 0, false, at.ip, at.sp,
				  at.bp);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_outlier);

/*
 * A call not recorded: counted as missed, and out of flight.  Out of line:
 * the exits' path that records keeps no register across a call.
 */
static noinline notrace void
kstats_direct_miss(struct kstats_direct_hot *h)
{
	kstats_record_missed(h->ks);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_miss);

/*
 * The slot's guard on this CPU, around a clock read that may call the
 * traced function (read_hpet() for ktime on the HPET): false when already
 * held, by the same CPU further down its stack.  Preemption stays off
 * while it is held, so that it is given back on the CPU that took it.
 */
static __always_inline notrace bool
kstats_direct_guard(struct kstats_direct_hot *h)
{
	preempt_disable_notrace();
	if (likely(this_cpu_inc_return(h->pcpu->busy) == 1))
		return true;
	this_cpu_dec(h->pcpu->busy);
	preempt_enable_notrace();
	return false;
}

static __always_inline notrace void
kstats_direct_unguard(struct kstats_direct_hot *h)
{
	this_cpu_dec(h->pcpu->busy);
	preempt_enable_notrace();
}

/* The keys the trampoline's frame holds (kstats_direct_frame_key()). */
static __always_inline bool kstats_direct_frame_by(enum kstats_by_kind kind)
{
	return kind == KSTATS_BY_CALLER || kind == KSTATS_BY_FUNC;
}

/*
 * A key the trampoline's frame holds (kstats_direct_at()): the caller, as
 * kstats_by_fetch() takes it from the registers the rich entry rebuilds
 * (the return address above the frame, or the caller's link register and
 * frame pointer in it), or the function, as its instruction pointer.
 * Return: the key, 0 if it cannot be read.
 */
static __always_inline notrace u64
kstats_direct_frame_key(enum kstats_by_kind kind,
			const struct kstats_direct_entry *e)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	if (kind == KSTATS_BY_FUNC)
		return at.ip;
#ifdef CONFIG_X86_64
	/* above this frame, on the stack this code runs on: read plainly */
	return kstats_return_address_fixup(at.sp, *(unsigned long *)at.sp);
#else
	return kstats_return_address_at(at.sp, at.lr, *(unsigned long *)at.bp);
#endif
}

/*
 * x86-64: where the call's return address is, above the frame, and that
 * address as read, no rethook's fix-up (kstats_direct_caller_miss()).
 */
static __always_inline notrace unsigned long
kstats_direct_caller_sp(const struct kstats_direct_entry *e)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	return at.sp;
}

static __always_inline notrace u64
kstats_direct_caller_read(const struct kstats_direct_entry *e)
{
	return *(const unsigned long *)kstats_direct_caller_sp(e);
}

/*
 * A key not the one this CPU took last: looked up, and kept as the last.
 * Out of line, so that the calls that find the last one keep no key in
 * memory.
 */
static noinline notrace u32
kstats_direct_key_lookup(struct kstats_direct_pcpu *c, struct kstats_family *f,
			 u64 key0, u64 key1)
{
	u64 key[2] = { key0, key1 };

	c->index = kstats_family_index(f, key);
	c->key[0] = key0;
	c->key[1] = key1;
	return c->index;
}

NOKPROBE_SYMBOL(kstats_direct_key_lookup);

/*
 * The family index of a key, through the last one this CPU took: a task
 * runs many calls in a row, from the same callers, and the key's lookup
 * is most of a family's cost.  Under the slot's guard, which nothing on
 * this CPU takes twice (an NMI's call is missed), so the cache is never
 * read half written; an index is good while the family's generation lasts
 * (a reset forgets the keys), which its high bits name.
 */
static __always_inline notrace u32
kstats_direct_key_index(struct kstats_direct_hot *h, struct kstats_family *f,
			u64 key0, u64 key1)
{
	struct kstats_direct_pcpu *c = this_cpu_ptr(h->pcpu);

	if (likely(c->key[0] == key0 && c->key[1] == key1 &&
		   (c->index ^ (READ_ONCE(f->gen) << KSTATS_FAMILY_INDEX_BITS)) <=
		   KSTATS_FAMILY_INDEX_MASK))
		return c->index;
	return kstats_direct_key_lookup(c, f, key0, key1);
}

/* The family index of the task's key or the frame's, at the entry. */
static __always_inline notrace u32
kstats_direct_tkey_index(struct kstats_direct_hot *h, struct kstats_fn *fn,
			 const struct kstats_direct_entry *e)
{
	struct kstats_family *f = fn->ks->family;
	u64 key[2];

	if (kstats_family_per_cpu(f))
		return raw_smp_processor_id();
	if (kstats_direct_frame_by(fn->by.kind)) {
		key[0] = kstats_direct_frame_key(fn->by.kind, e);
		key[1] = 0;
		if (!key[0])
			return f->max;
	} else if (!kstats_by_task_fetch(fn->by.kind, key)) {
		return f->max;
	}
	return kstats_direct_key_index(h, f, key[0], key[1]);
}

/*
 * A key of one word as 32 bits, for the cache no guard protects (struct
 * kstats_direct_pcpu @word): a task's pid or tid as it is (under
 * PID_MAX_LIMIT); a frame's key (a return address, a function's start),
 * on x86-64, as its low half: all its text (the kernel's, the modules',
 * the JITs' and trampolines' from the module area) is in the top 2 GiB of
 * the address space, whose high half is all ones, and 0xffffffff, the
 * empty cache's, is the space's last byte; on arm64, as its offset from
 * the trampoline's code past its first byte: the kernel's text and the
 * modules' lie within 2 GiB of each other (the modules within 2 GiB below
 * the kernel's end), so each of their addresses has one, and 0xffffffff
 * is kstats_direct_code's first byte, which no call returns to and no
 * traced function starts at.  False for a key that has none: 0, an
 * address not read (arm64).
 */
static unsigned long kstats_direct_key_base __ro_after_init;

static __always_inline notrace bool
kstats_direct_key32(enum kstats_direct_exit exit, u64 key, u32 *k)
{
	s64 d;

	if (exit == KSTATS_DEXIT_TASK_IDS || IS_ENABLED(CONFIG_X86_64)) {
		*k = key;
		return true;
	}
	d = key - kstats_direct_key_base;
	*k = d;
	return d == (s32)d;
}

/*
 * Whether a key of one word, as its 32 bits @k, is the last one this CPU
 * took (the task ids and frame key variants'), whose index is then in
 * *@index: one load reads them whole, so no guard, no preemption off, any
 * context.  Good while the family's generation lasts, which the index's
 * high bits name.
 */
static __always_inline notrace bool
kstats_direct_word_hit(struct kstats_direct_hot *h, struct kstats_family *f,
		       u32 k, u32 *index)
{
	u64 want = (u64)k << 32 | READ_ONCE(f->gen_index);
	u64 word = this_cpu_read(h->pcpu->word);

	*index = word;
	return (word ^ want) <= KSTATS_FAMILY_INDEX_MASK;
}

/*
 * A sample of a family of keys (not by CPU) whose distribution the plain
 * exits could record (the default frac_bits, no upper bound: the task ids
 * and frame key variants are taken only then), in the key @i: an index of
 * this generation, as kstats_direct_key_index() checked it, not checked
 * again (a reset that comes in between puts the sample in the key of the
 * new generation with that index, as one that comes during the add of any
 * family record does).
 */
static __always_inline notrace void
kstats_direct_family_record(struct kstats *ks, u32 i, u64 v)
{
	__kstats_family_record_at(ks, i & KSTATS_FAMILY_INDEX_MASK, v,
				  KSTATS_DEFAULT_FRAC_BITS, false, true);
}

/*
 * The key of the task as its entry found it and kept it in the frame: its
 * name, in two words (the task name variants, @exit KSTATS_DEXIT_TASK_NAME),
 * or its pid (the tgid) or tid (the task ids variants).
 */
static __always_inline notrace void
kstats_direct_task_key(enum kstats_direct_exit exit, enum kstats_by_kind kind,
		       const struct kstats_direct_entry *e, u64 key[2])
{
	const void *f = (const void *)e - KSTATS_DFRAME_TS;
	const u64 *name = f + KSTATS_DFRAME_NAME;
	const u32 *ids = f + KSTATS_DFRAME_IDS;	/* pid, tgid */

	if (exit == KSTATS_DEXIT_TASK_NAME) {
		key[0] = name[0];
		key[1] = name[1];
		return;
	}
	key[0] = kind == KSTATS_BY_PID ? ids[1] : ids[0];
	key[1] = 0;
}

/*
 * The end of a call split by a key of one word that is not the last one
 * this CPU took (kstats_direct_word_hit()): the key looked up with
 * preemption off (an RCU reader of the keys: kstats_family_index()) and
 * kept as the last with its 32 bits @k if it @fits (one store: a nested
 * call that comes in between keeps its own key whole, which the next
 * call finds is not its own), else looked up alone (a frame's key of 0,
 * unread, is "other"); the sample recorded in it, and the call out of
 * flight.  The exits' tail call, so that their path that finds the last
 * key keeps nothing across a call.
 */
static noinline notrace void
kstats_direct_word_miss(struct kstats_direct_hot *h, u64 key, u32 k,
			bool fits, u64 v)
{
	struct kstats_family *f = h->ks->family;
	u64 pair[2] = { key, 0 };
	u32 index = f->max;

	if (fits || key) {
		preempt_disable_notrace();
		index = kstats_family_index(f, pair);
		if (fits)
			this_cpu_write(h->pcpu->word, (u64)k << 32 | index);
		preempt_enable_notrace();
	}
	kstats_direct_family_record(h->ks, index, v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_word_miss);

#ifdef CONFIG_X86_64
/*
 * kstats_direct_word_miss() for a caller: the return address @ret read
 * above the frame (@sp) taken back from a rethook that took this frame
 * (kstats_return_address_fixup()) here, off the exits' path, and then
 * never kept as the last key: the rethook's trampoline is no one's
 * caller, so a call that finds its return address's 32 bits kept (the
 * address whole, on x86-64) was not taken by a rethook, and needs no
 * fix-up.
 */
static noinline notrace void
kstats_direct_caller_miss(struct kstats_direct_hot *h, unsigned long sp,
			  u64 ret, u64 v)
{
	u64 key = kstats_return_address_fixup(sp, ret);

	kstats_direct_word_miss(h, key, key, key == ret, v);
}

NOKPROBE_SYMBOL(kstats_direct_caller_miss);
#endif

/*
 * A key's sample @v that is a new extreme of this CPU's
 * (kstats_family_record_slow()), the key heated when it is due, then the
 * call out of flight: the tail call of kstats_direct_key_record().
 */
static noinline notrace void
kstats_direct_extreme_done(struct kstats_direct_hot *h, u32 i, u64 v)
{
	int hot = kstats_family_record_slow(h->ks, i, v, false, true);

	if (hot >= 0)
		kstats_family_heat(h->ks->family, hot);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_extreme_done);

/*
 * A key's sample in its shared histogram (the key not hot: no per-CPU row
 * of its own), the key heated when it is due, then the call out of
 * flight.  The tail call of kstats_direct_key_record(), so that its path
 * of a hot key keeps nothing across a call.
 */
static noinline notrace void
kstats_direct_shared_done(struct kstats_direct_hot *h, u32 i, u32 slot,
			  u64 term)
{
	struct kstats_family *f = h->ks->family;

	if (__kstats_family_add(f, h->ks->nr_slots, i, slot, term))
		kstats_family_heat(f, i);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_shared_done);

/*
 * The sample @v of the key @i of @f (of this generation:
 * kstats_direct_word_hit() found it) in the distribution and in the key,
 * at the default frac_bits
 * (the variants that take the last key are taken only then), then the
 * call out of flight: as kstats_family_record_unheated(), but a key that
 * is not hot (a busy key is: its own per-CPU row, as the distribution's)
 * takes its atomic adds in a tail call, so that the path of a hot key
 * saves no register and reads nothing for the other.  Nothing goes to the
 * key while the distribution is stopped.
 */
static __always_inline notrace void
kstats_direct_key_record(struct kstats_direct_hot *h, struct kstats_family *f,
			 unsigned long i, u64 v)
{
	struct kstats_slot __percpu *slots = READ_ONCE(h->ks->slots);
	struct kstats_slot __percpu *row;
	u32 slot;
	u64 term;

	if (unlikely(!kstats_within_extremes(slots, v))) {
		kstats_direct_extreme_done(h, i, v);
		return;
	}
	if (kstats_family_record_total(h->ks, slots, v,
				       KSTATS_DEFAULT_FRAC_BITS, &slot, &term)) {
		row = READ_ONCE(f->row[i]);
		if (unlikely(!row)) {
			kstats_direct_shared_done(h, i, slot, term);
			return;
		}
		this_cpu_inc(row[slot].count);
		this_cpu_add(row[slot].sum, term);
	}
	this_cpu_dec(h->pcpu->inflight);
}

/*
 * The end of a call split by a key of the frame, or of the task as the
 * entry kept it in the frame (@exit): the key taken now, from the frame,
 * through the last one this CPU took.  A key of one word (a frame's, a
 * pid or tid) through a cache of one word (kstats_direct_word_hit(); on
 * x86-64, a caller as read, fixed up on a miss alone);
 * a task's name, two words, under the slot's guard
 * (kstats_direct_key_index()): an NMI's call that comes while this CPU
 * holds it is counted as missed.
 */
static __always_inline notrace void
kstats_direct_key_done(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e, u64 v,
		       enum kstats_direct_exit exit)
{
	struct kstats_fn *fn = h->fn;
	struct kstats_family *f = h->ks->family;
	u32 index, k;
	u64 key[2];
	bool fits;

	if (exit == KSTATS_DEXIT_TASK_NAME) {
		if (!kstats_direct_guard(h)) {
			kstats_direct_miss(h);
			return;
		}
		kstats_direct_task_key(exit, fn->by.kind, e, key);
		index = kstats_direct_key_index(h, f, key[0], key[1]);
		kstats_direct_family_record(h->ks, index, v);
		kstats_direct_unguard(h);
		this_cpu_dec(h->pcpu->inflight);
		return;
	}
	if (exit == KSTATS_DEXIT_FRAME_FUNC)
		key[0] = kstats_direct_frame_key(KSTATS_BY_FUNC, e);
	else if (exit == KSTATS_DEXIT_FRAME_KEY && IS_ENABLED(CONFIG_X86_64))
		key[0] = kstats_direct_caller_read(e);
	else if (exit == KSTATS_DEXIT_FRAME_KEY)
		key[0] = kstats_direct_frame_key(KSTATS_BY_CALLER, e);
	else
		kstats_direct_task_key(exit, fn->by.kind, e, key);
	fits = kstats_direct_key32(exit, key[0], &k);
	if (unlikely(!fits || !kstats_direct_word_hit(h, f, k, &index))) {
#ifdef CONFIG_X86_64
		if (exit == KSTATS_DEXIT_FRAME_KEY) {
			kstats_direct_caller_miss(h, kstats_direct_caller_sp(e),
						  key[0], v);
			return;
		}
#endif
		kstats_direct_word_miss(h, key[0], k, fits, v);
		return;
	}
	kstats_direct_key_record(h, f, index & KSTATS_FAMILY_INDEX_MASK, v);
}

/*
 * A call's end: its sample recorded (and kept, if an outlier), then the
 * call leaves the in-flight count, last.  @exit (a constant): plain, the
 * slot's distribution has the default frac_bits, no upper bound and no
 * outliers (kstats_direct_exit_of()), so the sample needs neither a test
 * of frac_bits, nor the clamp, nor the outliers' compare; outliers, as
 * plain but for that compare, with @ocpu's bar on this CPU.
 */
static __always_inline notrace void
kstats_direct_done(struct kstats_direct_hot *h, struct kstats_direct_entry *e,
		   u64 v, enum kstats_direct_exit exit)
{
	if (exit == KSTATS_DEXIT_FAMILY) {
		/* the key the entry took, in the high half */
		kstats_family_record_bits(h->ks, e->cpu >> 32, v,
					  KSTATS_DEFAULT_FRAC_BITS);
		this_cpu_dec(h->pcpu->inflight);
		return;
	}
	if (exit == KSTATS_DEXIT_FRAME_KEY || exit == KSTATS_DEXIT_FRAME_FUNC ||
	    exit == KSTATS_DEXIT_TASK_NAME || exit == KSTATS_DEXIT_TASK_IDS) {
		kstats_direct_key_done(h, e, v, exit);
		return;
	}
	if (exit == KSTATS_DEXIT_GENERIC)
		kstats_direct_record(h->ks, v);
	else
		__KSTATS_RECORD_IN_RANGE(h->ks, v, KSTATS_DEFAULT_FRAC_BITS);
	/*
	 * The bar of this CPU, or of the one it moves to (a preempted exit:
	 * any CPU's bar will do), read as one operand of the compare.  The
	 * outlier's path ends the call itself: a tail call.
	 */
	if (exit != KSTATS_DEXIT_PLAIN &&
	    (exit == KSTATS_DEXIT_OUTLIERS || h->ocpu) &&
	    unlikely((s64)v >= (s64)raw_cpu_read(h->ocpu->min))) {
		kstats_direct_outlier(h, e, v);
		return;
	}
	this_cpu_dec(h->pcpu->inflight);
}

/*
 * A difference of two clock readings: a negative one (two CPUs' TSCs, a
 * clock stepped back) is dropped and counted, never recorded as a huge
 * unsigned value.
 */
static __always_inline notrace void
kstats_direct_delta(struct kstats_direct_hot *h, struct kstats_direct_entry *e,
		    u64 delta, enum kstats_direct_exit exit)
{
	if (unlikely((s64)delta < 0)) {
		kstats_direct_miss(h);
		return;
	}
	kstats_direct_done(h, e, delta, exit);
}

/*
 * The filters on the task, from an entry that runs with preemption on (the
 * trampoline's, at the traced function's entry): the task's cgroup is read
 * as an RCU reader, its css_set freed a grace period after the task moves
 * to another, so preemption is off around the read as it is in the probes'
 * handlers.
 */
static __always_inline notrace bool
kstats_direct_filter_task_holds(const struct kstats_filter *f)
{
	bool holds;

	preempt_disable_notrace();
	holds = kstats_filter_task_holds(f);
	preempt_enable_notrace();
	return holds;
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
 * What the trampoline calls, with direct calls only (no ENDBR), in the
 * traced function's context, any (NMI included): the entry of the called
 * clocks, which returns false for a call not to time (its own clock read
 * re-entered the function); and at the return, one exit per clock (for
 * ktime on the TSC, tscns: cycles converted to ns), plain or not.  A
 * local_clock() pair that crossed CPUs is counted as missed: two CPUs'
 * readings do not compare.
 */
notrace __noendbr bool
kstats_direct_enter_local(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e)
{
	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	e->ts = local_clock();
	e->cpu = raw_smp_processor_id();
	kstats_direct_unguard(h);
	return true;
}

NOKPROBE_SYMBOL(kstats_direct_enter_local);

notrace __noendbr bool
kstats_direct_enter_ktime(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e)
{
	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	e->ts = ktime_get_mono_fast_ns();
	kstats_direct_unguard(h);
	return true;
}

NOKPROBE_SYMBOL(kstats_direct_enter_ktime);

/*
 * The entries of a duration whose filters are all the task's (pid, tid,
 * cpu, comm, cgroup: kstats_direct_kind_of()): checked here, reading
 * neither the registers nor anything that calls a function, then the
 * clock as the plain entries read it; the exit is the plain one of the
 * clock.  False for a call the filters leave out (not counted, as in
 * every mechanism) and for one from the clock's own read (missed).  The
 * "cgroup" ones are for a cgroup filter alone: it is the one check.
 */
static __always_inline notrace bool
kstats_direct_task_holds(const struct kstats_direct_hot *h)
{
	return kstats_direct_filter_task_holds(&h->fn->filter);
}

static __always_inline notrace bool
kstats_direct_cgroup_holds(const struct kstats_direct_hot *h)
{
	const struct kstats_filter *f = &h->fn->filter;
	bool holds;

	/* an RCU reader, as kstats_direct_filter_task_holds() */
	preempt_disable_notrace();
	holds = kstats_cgroup_under(f->cgroup_id, f->cgroup_level);
	preempt_enable_notrace();
	return holds;
}

/* The entries of the clocks the trampoline calls, the filters checked. */
#define KSTATS_DIRECT_TASK_CALLED(name)					\
notrace __noendbr bool							\
kstats_direct_enter_##name##_ktime(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	return kstats_direct_##name##_holds(h) &&			\
	       kstats_direct_enter_ktime(h, e);				\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_ktime);			\
notrace __noendbr bool							\
kstats_direct_enter_##name##_local(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	return kstats_direct_##name##_holds(h) &&			\
	       kstats_direct_enter_local(h, e);				\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_local)

/*
 * The task filters' entries of every clock; a cgroup alone is checked by
 * the trampoline itself for the clocks it reads inline.
 */
#define KSTATS_DIRECT_TASK_ENTRIES(name)				\
notrace __noendbr bool							\
kstats_direct_enter_##name##_tsc(struct kstats_direct_hot *h,		\
				 struct kstats_direct_entry *e)		\
{									\
	if (!kstats_direct_##name##_holds(h))				\
		return false;						\
	e->ts = kstats_counter_read();				\
	return true;							\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_tsc);			\
/* Clock ktime on the TSC: the epoch, then the TSC, as the inline entry. */ \
notrace __noendbr bool							\
kstats_direct_enter_##name##_tscns(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	if (!kstats_direct_##name##_holds(h))				\
		return false;						\
	e->cpu = (u32)(READ_ONCE(kstats_counter_tk) >> 32);		\
	e->ts = kstats_counter_read();				\
	return true;							\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_tscns);			\
KSTATS_DIRECT_TASK_CALLED(name)

KSTATS_DIRECT_TASK_ENTRIES(task);
KSTATS_DIRECT_TASK_CALLED(cgroup);

/*
 * The preemption point of the trampoline's own window with preemption off
 * (the inline cgroup check, an RCU reader), where its count dropped to 0
 * with a reschedule due: the kernel's own, in C, whichever preemption
 * model runs.
 */
notrace __noendbr void kstats_direct_resched(void)
{
	preempt_disable_notrace();
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(kstats_direct_resched);

/* A value of the ret and arg variants: recorded as kstats_record_signed(). */
static __always_inline notrace void
kstats_direct_record_value(struct kstats_direct_hot *h, s64 val)
{
	if (unlikely(val < 0))
		kstats_record_negative(h->ks, val);
	else if (likely(h->exit == KSTATS_DEXIT_PLAIN))
		__KSTATS_RECORD_IN_RANGE(h->ks, val, KSTATS_DEFAULT_FRAC_BITS);
	else
		kstats_direct_record(h->ks, val);
}

/*
 * The exit of a node that records the return value alone, as it is or
 * cast (no dereference, no filter, no family, no outliers:
 * kstats_direct_kind_of()): read from the trampoline's frame (the
 * body's %rax, saved where %rdi was) with no call, so under no guard; a
 * negative one is counted apart, as by every mechanism.
 */
notrace __noendbr void
kstats_direct_exit_ret(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;

	kstats_direct_record_value(h, kstats_ret_fetch(&h->fn->value, r[0]));
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_ret);

/*
 * The entry of a node that records an argument alone, in a register, as
 * it is or cast (kstats_direct_kind_of()): read from the frame's saved
 * registers and recorded; false, so that the body runs untimed and no
 * exit follows.
 */
notrace __noendbr bool
kstats_direct_enter_arg(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	const struct kstats_value *v = &h->fn->value;

	/* on one CPU, as the exits record (kstats_direct_tramp_*.S) */
	preempt_disable_notrace();
	kstats_direct_record_value(h, kstats_widen(r[v->arg], v->cast));
	preempt_enable_notrace();
	return false;
}

NOKPROBE_SYMBOL(kstats_direct_enter_arg);

/*
 * The entries of a duration split by a key of the task (comm, pid, tid,
 * cpu, cgroup) or of the frame (caller, func), its filters all the task's
 * (kstats_direct_kind_of()): under the slot's guard (the filters' cgroup
 * and the key's lookup want preemption off), the filters, the key's index
 * and the clock, as the rich entry takes them but with no registers
 * rebuilt; the exits are the clock's own, recording in that key
 * (KSTATS_DEXIT_FAMILY).
 */
static __always_inline notrace bool
kstats_direct_tkey_enter(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_clock clock, bool tscns)
{
	struct kstats_fn *fn = h->fn;
	u64 fam;

	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	if (h->task_filter && !kstats_filter_task_holds(&fn->filter)) {
		kstats_direct_unguard(h);
		return false;
	}
	fam = (u64)kstats_direct_tkey_index(h, fn, e) << 32;
	if (tscns) {
		e->cpu = fam | (u32)(READ_ONCE(kstats_counter_tk) >> 32);
		e->ts = kstats_counter_read();
	} else {
		e->ts = kstats_clock_now(clock);
		e->cpu = fam | raw_smp_processor_id();
	}
	kstats_direct_unguard(h);
	return true;
}

#define KSTATS_DIRECT_TKEY_ENTRY(name, clock, tscns)			\
notrace __noendbr bool							\
kstats_direct_enter_tkey_##name(struct kstats_direct_hot *h,		\
				struct kstats_direct_entry *e)		\
{									\
	return kstats_direct_tkey_enter(h, e, clock, tscns);		\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_tkey_##name)

KSTATS_DIRECT_TKEY_ENTRY(tsc, KSTATS_CLOCK_TSC, false);
KSTATS_DIRECT_TKEY_ENTRY(tscns, KSTATS_CLOCK_TSC, true);
KSTATS_DIRECT_TKEY_ENTRY(ktime, KSTATS_CLOCK_KTIME, false);
KSTATS_DIRECT_TKEY_ENTRY(local, KSTATS_CLOCK_LOCAL, false);

/* The TSC, read inline. */
static __always_inline notrace void
kstats_direct_tsc_done(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e,
		       enum kstats_direct_exit exit)
{
	kstats_direct_delta(h, e, kstats_counter_read() - e->ts,
			    exit);
}

/* Clock ktime called: its read guarded, as at the entry. */
static __always_inline notrace void
kstats_direct_ktime_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 now;

	if (!kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	now = ktime_get_mono_fast_ns();
	kstats_direct_unguard(h);
	kstats_direct_delta(h, e, now - e->ts, exit);
}

/*
 * Clock ktime read as the TSC: the cycles scaled by the timekeeper's mult
 * and shift, unless the epoch moved during the call (kstats_counter_tk).
 */
static __always_inline notrace void
kstats_direct_tscns_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 cycles = kstats_counter_read() - e->ts;
	u64 tk = READ_ONCE(kstats_counter_tk);

	if (unlikely((s64)cycles < 0 || (u32)(tk >> 32) != (u32)e->cpu)) {
		kstats_direct_miss(h);
		return;
	}
	kstats_direct_done(h, e, kstats_counter_scale(cycles, tk), exit);
}

/* local_clock(): a pair that crossed CPUs is dropped, counted as missed. */
static __always_inline notrace void
kstats_direct_local_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 now;

	/* the CPU in the low half (a task key's index in the high one) */
	if ((u32)e->cpu != raw_smp_processor_id() || !kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	now = local_clock();
	kstats_direct_unguard(h);
	kstats_direct_delta(h, e, now - e->ts, exit);
}

/*
 * The exits, kstats_direct_exit_NAME: per clock the three of enum
 * kstats_direct_exit (NAME the clock, then with "p" and "o"), the task key
 * variants' ("f"), the frame key variants' ("k" by the caller, "i" by the
 * function) and, for the clocks read
 * inline, the task name variants' ("n") and the task ids variants' ("t"),
 * each one call of the clock's done with its kind.
 */
#define KSTATS_DIRECT_EXIT(name, clock, exit)				\
notrace __noendbr void							\
kstats_direct_exit_##name(struct kstats_direct_hot *h,			\
			  struct kstats_direct_entry *e)		\
{									\
	kstats_direct_##clock##_done(h, e, exit);			\
}									\
NOKPROBE_SYMBOL(kstats_direct_exit_##name)

KSTATS_DIRECT_EXIT(tsc, tsc, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(tscp, tsc, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(tsco, tsc, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(tscf, tsc, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(tsck, tsc, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(tsci, tsc, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscn, tsc, KSTATS_DEXIT_TASK_NAME);
KSTATS_DIRECT_EXIT(tsct, tsc, KSTATS_DEXIT_TASK_IDS);
KSTATS_DIRECT_EXIT(ktime, ktime, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(ktimep, ktime, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(ktimeo, ktime, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(ktimef, ktime, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(ktimek, ktime, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(ktimei, ktime, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscns, tscns, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(tscnsp, tscns, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(tscnso, tscns, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(tscnsf, tscns, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(tscnsk, tscns, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(tscnsi, tscns, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscnsn, tscns, KSTATS_DEXIT_TASK_NAME);
KSTATS_DIRECT_EXIT(tscnst, tscns, KSTATS_DEXIT_TASK_IDS);
KSTATS_DIRECT_EXIT(local, local, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(localp, local, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(localo, local, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(localf, local, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(localk, local, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(locali, local, KSTATS_DEXIT_FRAME_FUNC);

/*
 * The traced function's registers at its entry, from the trampoline's
 * frame: its arguments (saved there), its stack pointer (on x86-64 at the
 * return address into its caller, above the frame), its instruction
 * pointer (the body's start, past the fentry call) and its frame pointer
 * (kstats_direct_at()), on arm64 also its link register: what the
 * filters' values, a caller and a stack's unwinding read (struct
 * kstats_args), and nothing else is.
 */
static __always_inline notrace void
kstats_direct_entry_regs(struct kstats_direct_entry *e, struct pt_regs *regs)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
#ifdef CONFIG_X86_64
	regs->di = r[0];
	regs->si = r[1];
	regs->dx = r[2];
	regs->cx = r[3];
	regs->r8 = r[4];
	regs->r9 = r[5];
	regs->bp = at.bp;
#else
	memcpy(regs->regs, r, 9 * sizeof(*r));
	/* the caller's x29 and x30, as the function's entry had them */
	regs->regs[29] = ((const unsigned long *)at.bp)[0];
	regs->regs[30] = at.lr;
#endif
	instruction_pointer_set(regs, at.ip);
	regs->sp = at.sp;
}

/*
 * The gap sibling's sample at an entry at @now: the time since the last
 * return on this CPU (kstats_fn_enter(), as fprobe's handlers take it).
 */
static __always_inline notrace void kstats_direct_gap(struct kstats_fn *fn,
						      u64 now)
{
	u64 last = this_cpu_read(*fn->last_end);

	if (last && now > last)
		kstats_record(fn->gap, now - last);
}

/*
 * A rich slot's entry (a node with values, filters or a family): under the
 * slot's guard (its filters' reads, its key's and its clock's may call the
 * traced function), the filters, then the family's key (unless it is
 * ret's), then an argument taken (a value node) or the clock.  False for
 * a call not to time: one a filter leaves out, one whose value cannot be
 * read (counted as missed), one entered from the guard's own work, and one
 * whose value needs no return, recorded here: the body then runs as if
 * untraced.  A value node keeps its argument where the time would be
 * (it reads no clock), its key as a duration's.
 */
notrace __noendbr bool
kstats_direct_enter_rich(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e)
{
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = fn->ks;
	bool family = ks->family;
	struct pt_regs regs;
	struct kstats_args a = { .regs = &regs };
	u32 fam = 0;
	u64 v;

	if (!kstats_direct_guard(h)) {
		kstats_record_missed(ks);
		return false;
	}
	kstats_direct_entry_regs(e, &regs);
	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_ENTRY)) {
	case KSTATS_SKIP:
		goto untimed;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		goto untimed;
	default:
		break;
	}
	if (family && likely(!fn->ret_at_exit_key))
		fam = kstats_fn_family_key(fn, &a);
	if (unlikely(fn->value.base == KSTATS_BASE_ARG)) {
		if (!kstats_value_fetch(&fn->value, &a, &v)) {
			kstats_record_missed(ks);
			goto untimed;
		}
		if (fn->entry_only) {
			kstats_rich_record(ks, fn->outliers, &regs, family,
					   fam, v);
			goto untimed;
		}
		e->ts = v;
		e->cpu = (u64)fam << 32;
	} else if (unlikely(fn->value.base == KSTATS_BASE_RET)) {
		e->cpu = (u64)fam << 32;
	} else if (h->tscns) {
		/* ktime on the TSC as the plain exits read it: the TSC, its epoch */
		e->cpu = (u64)fam << 32 | (u32)(READ_ONCE(kstats_counter_tk) >> 32);
		e->ts = kstats_counter_read();
	} else {
		e->ts = kstats_clock_now(ks->clock);
		e->cpu = (u64)fam << 32 | raw_smp_processor_id();
		if (unlikely(fn->gap))
			kstats_direct_gap(fn, e->ts);
	}
	kstats_direct_unguard(h);
	return true;
untimed:
	kstats_direct_unguard(h);
	return false;
}

NOKPROBE_SYMBOL(kstats_direct_enter_rich);

/*
 * A rich node's sample kept if it is one of its outliers: its stack from
 * the function's own frame where the body returned, as the plain exits'
 * (kstats_direct_outlier(), kstats_direct_at()).
 */
static __always_inline notrace void
kstats_direct_rich_outlier(struct kstats_direct_hot *h,
			   struct kstats_direct_entry *e, u64 v, u32 fam)
{
	struct kstats_direct_at at;

	if (!kstats_outlier_wanted(h->outliers, v))
		return;
	kstats_direct_at(e, &at);
	kstats_outlier_capture_at(h->outliers, v, fam, !!h->ks->family, at.ip,
				  at.sp, at.bp);
}

/*
 * The return of a node with a value or a condition or key on ret: the
 * function's return value from the trampoline's frame (its %rax, saved
 * where %rdi was), the conditions on it, the key if it is ret's, then the
 * value (the argument kept at the entry, or ret), recorded.  The guard
 * covers the reads: a dereference may call the traced function.
 */
static noinline notrace void
kstats_direct_exit_value(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = fn->ks;
	bool family = ks->family;
	struct pt_regs regs = { };
	struct kstats_args a = { .regs = &regs, .ret = r[0] };
	u32 fam = e->cpu >> 32;
	u64 v = e->ts;

	regs_set_return_value(&regs, r[0]);
	if (!kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_RETURN)) {
	case KSTATS_SKIP:
		goto out;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		goto out;
	default:
		break;
	}
	if (family && kstats_by_uses_ret(&fn->by))
		fam = kstats_fn_family_key(fn, &a);
	if (fn->value.base == KSTATS_BASE_RET &&
	    !kstats_value_fetch(&fn->value, &a, &v)) {
		kstats_record_missed(ks);
		goto out;
	}
	kstats_rich_record(ks, NULL, NULL, family, fam, v);
	kstats_direct_rich_outlier(h, e, v, fam);
out:
	kstats_direct_unguard(h);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_value);

/*
 * A rich slot's duration: the clock under the guard (the TSC needs none);
 * a local_clock() pair that crossed CPUs, a negative difference and a
 * clock read from inside its own call are counted as missed and end the
 * call.  Return: false then.
 */
static __always_inline notrace bool
kstats_direct_rich_delta(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e, u64 *v)
{
	struct kstats *ks = h->ks;
	u64 tk;

	if (h->tscns) {
		*v = kstats_counter_read() - e->ts;
		tk = READ_ONCE(kstats_counter_tk);
		if (unlikely((s64)*v < 0 || (u32)(tk >> 32) != (u32)e->cpu)) {
			kstats_direct_miss(h);
			return false;
		}
		*v = kstats_counter_scale(*v, tk);
		return true;
	}
	if ((ks->clock == KSTATS_CLOCK_LOCAL &&
	     (u32)e->cpu != raw_smp_processor_id()) ||
	    !kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return false;
	}
	*v = kstats_clock_now(ks->clock) - e->ts;
	kstats_direct_unguard(h);
	if (unlikely((s64)*v < 0)) {
		kstats_direct_miss(h);
		return false;
	}
	return true;
}

/*
 * The exit of a rich slot with more than a duration to record (a value,
 * conditions or a key on ret, outliers), out of line: the durations'
 * exit stays as lean as it was.
 */
static noinline notrace void
kstats_direct_exit_extra(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e)
{
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = h->ks;
	u64 v;

	if (fn->value.base != KSTATS_BASE_NONE) {
		kstats_direct_exit_value(h, e);
		return;
	}
	if (!kstats_direct_rich_delta(h, e, &v))
		return;
	/* a duration whose count or key depends on ret */
	if (fn->ret_at_exit) {
		e->ts = v;
		kstats_direct_exit_value(h, e);
		return;
	}
	if (ks->family)
		kstats_family_record(ks, e->cpu >> 32, v);
	else
		kstats_record(ks, v);
	kstats_direct_rich_outlier(h, e, v, e->cpu >> 32);
	/* the return's time, which the next entry's gap starts from */
	if (fn->gap)
		this_cpu_write(*fn->last_end, e->ts + v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_extra);

/*
 * A rich slot's exit: the duration (kstats_direct_rich_delta()), in the
 * total or in the key taken at the entry; a node with more to record
 * takes kstats_direct_exit_extra().
 */
notrace __noendbr void
kstats_direct_exit_rich(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e)
{
	struct kstats *ks = h->ks;
	u64 v;

	if (unlikely(h->fn->exit_extra)) {
		kstats_direct_exit_extra(h, e);
		return;
	}
	if (!kstats_direct_rich_delta(h, e, &v))
		return;
	if (ks->family)
		kstats_family_record(ks, e->cpu >> 32, v);
	else
		kstats_record(ks, v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_rich);

/**
 * struct kstats_direct_walk - a walk up a task's stack, for the calls in
 *	flight through the trampoline on it (kstats_direct_walk_next())
 * @state: x86-64: ORC's unwind state
 * @fp: arm64: the frame record to read next
 * @lo: arm64: the task's stack, from @lo
 * @hi: to @hi
 */
struct kstats_direct_walk {
#ifdef CONFIG_X86_64
	struct unwind_state state;
#else
	unsigned long fp;
	unsigned long lo;
	unsigned long hi;
#endif
};

/* Whether @addr is in the trampoline's variants: a call in flight. */
static bool kstats_direct_in_code(unsigned long addr)
{
	return addr >= (unsigned long)kstats_direct_code &&
	       addr < (unsigned long)kstats_direct_stubs;
}

/* The slot a trampoline's frame at @frame names, read with care. */
static struct kstats_direct_hot *kstats_direct_frame_slot(unsigned long frame)
{
	struct kstats_direct_hot *h;

	/* another task's stack: it may wake and change it meanwhile */
	if (copy_from_kernel_nofault(&h, (void *)(frame + KSTATS_DFRAME_HOT),
				     sizeof(h)) ||
	    h < kstats_direct_hot || h >= kstats_direct_hot + KSTATS_DIRECT_SLOTS)
		return NULL;
	return h;
}

#ifdef CONFIG_X86_64
/* Walk @p's stack: @p is current, or asleep. */
static void kstats_direct_walk_start(struct kstats_direct_walk *w,
				     struct task_struct *p)
{
	unwind_start(&w->state, p, NULL, NULL);
}

/*
 * The slot of the next call in flight up the stack, or NULL at its end:
 * a return address into the trampoline's code is one, whose frame (a
 * fixed size from the stack pointer there) holds the slot.
 */
static struct kstats_direct_hot *kstats_direct_walk_next(struct kstats_direct_walk *w)
{
	struct kstats_direct_hot *h;

	for (; !unwind_done(&w->state); unwind_next_frame(&w->state)) {
		unsigned long sp = w->state.sp;

		if (!kstats_direct_in_code(unwind_get_return_address(&w->state)))
			continue;
		unwind_next_frame(&w->state);
		h = kstats_direct_frame_slot(sp);
		if (h && h->pcpu)
			return h;
	}
	return NULL;
}
#else
static void kstats_direct_walk_start(struct kstats_direct_walk *w,
				     struct task_struct *p)
{
	w->lo = (unsigned long)task_stack_page(p);
	w->hi = w->lo + THREAD_SIZE;
	w->fp = p == current ? (unsigned long)__builtin_frame_address(0) :
			       thread_saved_fp(p);
}

/*
 * arm64: up the frame records.  The body's record, or that of a C entry
 * or exit the trampoline called, holds a return address into the
 * trampoline's code and, as its next record, the traced function's one
 * that the trampoline made at the base of its frame.
 */
static struct kstats_direct_hot *kstats_direct_walk_next(struct kstats_direct_walk *w)
{
	struct kstats_direct_hot *h;
	unsigned long rec[2];

	while (w->fp >= w->lo && w->fp + sizeof(rec) <= w->hi &&
	       IS_ALIGNED(w->fp, 8)) {
		if (copy_from_kernel_nofault(rec, (void *)w->fp, sizeof(rec)) ||
		    rec[0] <= w->fp)
			break;
		w->fp = rec[0];
		if (!kstats_direct_in_code(ptrauth_strip_kernel_insn_pac(rec[1])))
			continue;
		h = kstats_direct_frame_slot(rec[0] - KSTATS_DFRAME_FUNC);
		if (h && h->pcpu)
			return h;
	}
	return NULL;
}
#endif

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
	struct kstats_direct_walk w;
	struct kstats_direct_hot *h;

	if (p != current)
		return;
	kstats_direct_walk_start(&w, p);
	while ((h = kstats_direct_walk_next(&w)))
		kstats_direct_miss(h);
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
		kstats_direct_ever_inflight = true;
		if (kstats_direct_reroute(going, ips, nr_ips, rerouted))
			synchronize_rcu_tasks();
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

/* The keys of the task, which a duration's entry takes with no registers. */
static bool kstats_direct_task_by(enum kstats_by_kind kind)
{
	return kind == KSTATS_BY_COMM || kind == KSTATS_BY_PID ||
	       kind == KSTATS_BY_TID || kind == KSTATS_BY_CPU ||
	       kind == KSTATS_BY_CGROUP;
}

/* The keys the task name and ids variants keep: its name, pid and tid. */
static bool kstats_direct_ids_by(enum kstats_by_kind kind)
{
	return kind == KSTATS_BY_COMM || kind == KSTATS_BY_PID ||
	       kind == KSTATS_BY_TID;
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
 * The variants @fn takes, with its slot's plain exit @exit and whether its
 * clock is read inline (@inline_clock: tsc, or ktime as the TSC): a duration
 * whose filters are all the task's (no value, no condition, nothing read
 * at the return, no outliers) takes the task ones where its exit is plain,
 * the task key ones where it is split by a key of the task, or, with no
 * filter but the task's name and a plain exit, the frame key ones for a
 * key of the frame and the task ids ones for the task's name or ids where
 * the clock is read inline; a value alone
 * (the return value, or an argument in a register, as it is or cast, with
 * no dereference, which reads memory under the guard; no filter, no
 * outliers) the ret or arg ones; anything else the rich ones.
 */
static enum kstats_direct_kind
kstats_direct_kind_of(const struct kstats_fn *fn, enum kstats_direct_exit exit,
		      bool inline_clock)
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
				      kstats_direct_frame_by(fn->by.kind)))
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
					       h->clock == KSTATS_CLOCK_TSC || h->tscns) :
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
 * task and go with it.
 */
static bool kstats_is_noreturn(const char *sym)
{
	static const char * const names[] = {
		"do_exit", "do_group_exit", "make_task_dead", "kthread_exit",
		"kthread_complete_and_exit", "do_task_dead", "panic",
		"nmi_panic", "get_signal", "arch_do_signal_or_restart",
		"x64_sys_call", "do_syscall_64", "__x64_sys_exit",
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

/*
 * The ftrace call site of the function at @addr, and the module it is in,
 * if @mod is not NULL; ftrace checks that it is one of its sites.  x86-64:
 * the fentry call, past an ENDBR where IBT puts one.  arm64: the BL of the
 * patched entry, past its BTI where the kernel has them and past the MOV
 * that keeps the caller's return address in x9 (ftrace_call_adjust()).
 */
static unsigned long kstats_direct_site(unsigned long addr, char *mod,
					size_t size)
{
#ifdef CONFIG_X86_64
	u32 insn;

	/* endbr64: f3 0f 1e fa */
	if (!copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)) &&
	    insn == 0xfa1e0ff3)
		addr += sizeof(insn);
#else
	if (IS_ENABLED(CONFIG_ARM64_BTI_KERNEL))
		addr += AARCH64_INSN_SIZE;
	addr += AARCH64_INSN_SIZE;
#endif
	if (mod)
		kstats_syms_module(addr, mod, size);
	return addr;
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
	unsigned long base;

	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, pcpu) != KSTATS_DHOT_PCPU);
	BUILD_BUG_ON(offsetof(struct kstats_direct_pcpu, inflight) != 0);
	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, ks) != KSTATS_DHOT_KS);
	BUILD_BUG_ON(offsetof(struct kstats_direct_hot, comm) != KSTATS_DHOT_COMM);
	BUILD_BUG_ON(sizeof_field(struct kstats_direct_hot, comm) !=
		     sizeof_field(struct kstats_filter, comm));
	BUILD_BUG_ON(sizeof(struct kstats_direct_hot) != KSTATS_DHOT_SIZE);

	/* without it, the trampoline takes no function (kstats_direct_takes()) */
	kstats_direct_reroute_init();
	/*
	 * arm64's frame keys' origin (kstats_direct_key32()), hidden: a code
	 * address plus one, in code, is no branch target
	 */
	if (!IS_ENABLED(CONFIG_X86_64)) {
		base = (unsigned long)kstats_direct_code;
		OPTIMIZER_HIDE_VAR(base);
		kstats_direct_key_base = base + 1;
	}
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
