// SPDX-License-Identifier: GPL-2.0
/*
 * The core of kstats: creating, finding and deleting
 * distributions, and turning their per-CPU histograms into snapshots,
 * percentiles and summaries.  The core knows no interface: the debugfs
 * files (kstats_debugfs.c) register themselves as its publisher, and the
 * module's init and exit (kstats_main.c) call it first and last.  Nor does
 * it know what a distribution's maker adds to it (a family of keys, a
 * trace node's probes): it resets, retires and frees them through the
 * distribution's ops (struct kstats_ops), which the maker sets
 * (kstats_new.c for the API's distributions, kstats_node.c for trace
 * nodes).  The recording fast path is in kstats.h.
 *
 * Lifetime: a distribution is reference counted.  Its creator holds one
 * reference, dropped by kstats_delete(); kstats_get() takes more.  While it
 * is listed, it has a debugfs file; kstats_unlink() removes both, and
 * debugfs_remove() waits for the file operations in flight, so the memory
 * outlives every reader.  Removing a distribution also retires it: the
 * probes of a trace node are unregistered and waited for then, in process
 * context, never in the last kstats_put(), which may run in any context
 * (NMI included) and only queues the memory for an irq_work to free.
 * Recorders must stop calling kstats_record() before they drop their
 * reference.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_errors.h"
#include "kstats_history.h"
#include "kstats_internal.h"

/* Guards kstats_list, kstats_nr_nodes and the names in debugfs. */
DEFINE_MUTEX(kstats_mutex);
LIST_HEAD(kstats_list);
static int kstats_nr_nodes;
/* Who shows the listed distributions (debugfs), if anyone yet. */
static const struct kstats_publisher *kstats_publisher;

/*
 * Where stopped distributions record: per CPU, as many slots as the
 * largest histogram, written and never read.
 */
static struct kstats_slot __percpu *kstats_scratch;

/*
 * Distributions whose last reference is gone: kstats_put() may run in NMI,
 * where neither kfree() nor free_percpu() may, so it only queues them here
 * (llist_add() and irq_work_queue() are NMI-safe) for kstats_free_work.
 */
static LLIST_HEAD(kstats_free_list);
static void kstats_free_fn(struct irq_work *work);
static DEFINE_IRQ_WORK(kstats_free_work, kstats_free_fn);

/* The ops of a distribution whose maker adds nothing to it (a .gap sibling). */
static const struct kstats_ops kstats_no_ops;

static const char * const kstats_clock_names[] = {
	[KSTATS_CLOCK_KTIME] = "ktime",
	[KSTATS_CLOCK_LOCAL] = "local",
#ifdef CONFIG_X86
	[KSTATS_CLOCK_TSC] = "tsc",
#else
	[KSTATS_CLOCK_TSC] = "cycles",
#endif
	[KSTATS_CLOCK_NONE] = "none",
};

static const char * const kstats_clock_units[] = {
	[KSTATS_CLOCK_KTIME] = "ns",
	[KSTATS_CLOCK_LOCAL] = "ns",
	[KSTATS_CLOCK_TSC] = "cycles",
	[KSTATS_CLOCK_NONE] = "value",
};

const char *kstats_clock_name(enum kstats_clock clock)
{
	return clock < ARRAY_SIZE(kstats_clock_names) ?
	       kstats_clock_names[clock] : "?";
}

const char *kstats_clock_unit(enum kstats_clock clock)
{
	return clock < ARRAY_SIZE(kstats_clock_units) ?
	       kstats_clock_units[clock] : "?";
}

/**
 * kstats_parse_clock() - the clock named @s
 * @s: ktime, local, cycles, tsc (x86's name of cycles) or none
 * @clock: where to store the clock
 *
 * Context: any.
 * Return: 0, -EOPNOTSUPP for tsc off x86 (cycles is its name there), or
 * -EINVAL for another name.
 */
int kstats_parse_clock(const char *s, enum kstats_clock *clock)
{
	int i;

	if (!strcmp(s, "cycles")) {
		*clock = KSTATS_CLOCK_CYCLES;
		return 0;
	}
	i = match_string(kstats_clock_names, ARRAY_SIZE(kstats_clock_names), s);
	if (i < 0)
		return strcmp(s, "tsc") ? -EINVAL : -EOPNOTSUPP;
	*clock = i;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_parse_clock, KSTATS_NS);

/**
 * kstats_check_name() - is @name fit for a distribution
 * @name: the name, or NULL
 *
 * Names become file names in debugfs and words in commands: keep them to
 * [A-Za-z0-9_.-], not empty, not starting with '.' (hidden files, "." and
 * ".."), and none of "_control", "_errors", "_history" (the files beside
 * them) and "all" (as in "remove all").
 *
 * Return: 0, or -EINVAL.
 */
int kstats_check_name(const char *name)
{
	size_t i, len;

	if (!name)
		return -EINVAL;
	len = strnlen(name, KSTATS_NAME_MAX + 1);
	/* "all" is reserved: "remove all" must mean every node. */
	if (!len || len > KSTATS_NAME_MAX || name[0] == '.' ||
	    !strcmp(name, "_control") || !strcmp(name, "_errors") ||
	    !strcmp(name, "_history") ||
	    !strcmp(name, "all"))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isascii(name[i]) ||
		    (!isalnum(name[i]) && !strchr("_.-", name[i])))
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_check_name, KSTATS_NS);

struct kstats *kstats_find_locked(const char *name)
{
	struct kstats *ks;

	lockdep_assert_held(&kstats_mutex);
	list_for_each_entry(ks, &kstats_list, node)
		if (!strcmp(ks->name, name))
			return ks;
	return NULL;
}

int kstats_nr_nodes_locked(void)
{
	lockdep_assert_held(&kstats_mutex);
	return kstats_nr_nodes;
}

static int kstats_check_config(const struct kstats_config *cfg)
{
	if (kstats_check_name(cfg->name)) {
		pr_warn_ratelimited("invalid name '%.*s': use 1 to %d of [A-Za-z0-9_.-], not starting with '.', not _control, _errors, _history or all\n",
				    KSTATS_NAME_MAX + 1,
				    cfg->name ? cfg->name : "", KSTATS_NAME_MAX);
		return -EINVAL;
	}
	if (cfg->frac_bits > KSTATS_MAX_FRAC_BITS) {
		pr_warn_ratelimited("%s: bits %u out of range 0..%d\n",
				    cfg->name, cfg->frac_bits,
				    KSTATS_MAX_FRAC_BITS);
		return -EINVAL;
	}
	if (cfg->clock > KSTATS_CLOCK_NONE) {
		pr_warn_ratelimited("%s: unknown clock %d\n", cfg->name,
				    cfg->clock);
		return -EINVAL;
	}
	if (!KSTATS_HAVE_CYCLES && cfg->clock == KSTATS_CLOCK_CYCLES) {
		pr_warn_ratelimited("%s: clock cycles exists on x86 and arm64 only\n",
				    cfg->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The slots kept apart for @max_value, and the value that overflows them. */
static void kstats_size(const struct kstats_config *cfg, u32 *nr_slots,
			u64 *clamp)
{
	unsigned int k = cfg->frac_bits;
	u64 hi = cfg->max_value ?
		 kstats_slot_hi(kstats_slot(cfg->max_value, k), k) : U64_MAX;

	if (hi == U64_MAX) {
		*clamp = U64_MAX;
		*nr_slots = kstats_nr_slots(k);
	} else {
		*clamp = hi + 1;
		*nr_slots = kstats_slot(*clamp, k) + 1;
	}
}

/*
 * No sample yet: every sample is below @min and above @max, and no max is
 * kept in the hook (struct kstats_hook).
 */
static void kstats_extremes_clear(struct kstats_slot __percpu *slots)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct kstats_extremes *e = per_cpu_ptr(kstats_extremes(slots), cpu);

		WRITE_ONCE(e->min, U64_MAX);
		WRITE_ONCE(e->max, 0);
		kstats_history_clear_saved(slots, cpu);
	}
}

/*
 * Per-CPU histograms of @nr_slots slots: each CPU's hook (struct
 * kstats_hook), its extremes, its slots, then the slot whose count holds
 * the missed events.  Return: slot 0, whose address the recorders reach
 * the extremes from (kstats_extremes()), and the slow path the hook
 * (kstats_hook()); or NULL.
 */
static struct kstats_slot __percpu *kstats_hist_alloc(u32 nr_slots)
{
	struct kstats_slot __percpu *base;

	BUILD_BUG_ON(sizeof(struct kstats_extremes) != sizeof(struct kstats_slot));
	BUILD_BUG_ON(sizeof(struct kstats_hook) != sizeof(struct kstats_slot));
	base = __alloc_percpu_gfp((nr_slots + 3) * sizeof(struct kstats_slot),
				  sizeof(struct kstats_slot), KSTATS_GFP);
	if (!base)
		return NULL;
	kstats_extremes_clear(base + 2);
	return base + 2;
}

static void kstats_hist_free(struct kstats_slot __percpu *hist)
{
	if (hist)
		free_percpu(hist - 2);
}

/* Runs in hardirq context (a kthread on PREEMPT_RT): nothing may sleep. */
static void kstats_free_fn(struct irq_work *work)
{
	struct llist_node *list = llist_del_all(&kstats_free_list);
	struct kstats *ks, *next;

	llist_for_each_entry_safe(ks, next, list, free_node) {
		if (ks->ops->release)
			ks->ops->release(ks);
		if (ks->neg) {
			free_percpu(ks->neg->cpu);
			kvfree(ks->neg);
		}
		kstats_history_free(ks);
		kstats_hist_free(ks->hist);
		kfree(ks);
	}
}

static void kstats_release(struct kref *kref)
{
	struct kstats *ks = container_of(kref, struct kstats, kref);

	llist_add(&ks->free_node, &kstats_free_list);
	irq_work_queue(&kstats_free_work);
}

/**
 * kstats_alloc() - make a distribution, not yet listed nor in debugfs
 * @cfg: its configuration
 * @maker: who makes it (enum kstats_maker)
 * @why: where a refusal for lack of memory is noted, or NULL
 *
 * Context: process.
 * Return: the distribution, active, with one reference; or an ERR_PTR:
 * -EINVAL for a bad name or setting, -EOPNOTSUPP for clock cycles off x86 and arm64, -ENOMEM;
 * each logged in one line.
 */
struct kstats *kstats_alloc(const struct kstats_config *cfg,
			    enum kstats_maker maker, struct kstats_refusal *why)
{
	struct kstats *ks;
	int err;

	err = kstats_check_config(cfg);
	if (!err)
		err = kstats_history_check(cfg, why);
	if (err)
		return ERR_PTR(err);

	ks = kzalloc(sizeof(*ks), KSTATS_GFP);
	if (!ks)
		goto nomem;
	ks->frac_bits = cfg->frac_bits;
	ks->clock = cfg->clock;
	kstats_size(cfg, &ks->nr_slots, &ks->clamp);
	ks->hist = kstats_hist_alloc(ks->nr_slots);
	if (!ks->hist) {
		kfree(ks);
		goto nomem;
	}
	kref_init(&ks->kref);
	INIT_LIST_HEAD(&ks->node);
	strscpy(ks->name, cfg->name, sizeof(ks->name));
	ks->maker = maker;
	ks->ops = &kstats_no_ops;
	ks->slots = ks->hist;
	if (cfg->history_slices) {
		err = kstats_history_alloc(ks, cfg, why);
		if (err) {
			kstats_put(ks);
			return ERR_PTR(err);
		}
	}
	return ks;

nomem:
	kstats_refuse(why, why ? why->name_at : NULL, cfg->name,
		      "out of memory");
	return ERR_PTR(-ENOMEM);
}

/**
 * kstats_publish() - list a distribution and give it its debugfs file
 * @ks: from kstats_alloc(), fully built: from now on it can be read and
 *	removed; on failure it stays the caller's
 * @origin: how it was made, as _control lists it
 * @why: where a refusal is noted, at the name (kstats_refuse()), or NULL
 *
 * Context: process.
 * Return: 0, or -EEXIST for a name in use, -ENOSPC past KSTATS_MAX_NODES,
 * or the debugfs error; each logged in one line.
 */
int kstats_publish(struct kstats *ks, const char *origin,
		   struct kstats_refusal *why)
{
	const char *at = why ? why->name_at : NULL;
	int err;

	strscpy(ks->origin, origin, sizeof(ks->origin));
	mutex_lock(&kstats_mutex);
	if (kstats_find_locked(ks->name)) {
		err = -EEXIST;
		kstats_refuse(why, at, ks->name,
			      "a distribution of that name exists");
	} else if (kstats_nr_nodes >= KSTATS_MAX_NODES) {
		err = -ENOSPC;
		kstats_refuse(why, at, ks->name,
			      "already %d distributions, the most kstats keeps",
			      KSTATS_MAX_NODES);
	} else if (kstats_publisher) {
		err = kstats_publisher->add(ks);
	} else {
		err = 0;
	}
	if (!err) {
		list_add_tail(&ks->node, &kstats_list);
		kstats_nr_nodes++;
		kstats_history_publish(ks);
	}
	mutex_unlock(&kstats_mutex);
	return err;
}

/* Take @ks off the list and out of debugfs; idempotent. */
void kstats_forget_locked(struct kstats *ks)
{
	lockdep_assert_held(&kstats_mutex);
	if (list_empty(&ks->node))
		return;
	list_del_init(&ks->node);
	kstats_nr_nodes--;
	if (kstats_publisher)
		kstats_publisher->remove(ks);
}

void kstats_unlink(struct kstats *ks)
{
	mutex_lock(&kstats_mutex);
	kstats_forget_locked(ks);
	mutex_unlock(&kstats_mutex);
}

/*
 * Unlist the first node made from _control; the caller drops it with
 * kstats_drop().
 */
struct kstats *kstats_pop_removable(void)
{
	struct kstats *ks, *found = NULL;

	mutex_lock(&kstats_mutex);
	list_for_each_entry(ks, &kstats_list, node) {
		if (ks->maker == KSTATS_MADE_BY_CONTROL) {
			found = ks;
			kstats_forget_locked(ks);
			break;
		}
	}
	mutex_unlock(&kstats_mutex);
	return found;
}

/**
 * kstats_drop() - retire a distribution taken off the list, drop its reference
 * @ks: the distribution, just unlisted by its remover
 *
 * Whatever feeds it (a trace node's probes) is stopped and waited for here,
 * so that the last kstats_put(), wherever it runs, only frees memory.
 *
 * Context: process; may sleep.
 */
void kstats_drop(struct kstats *ks)
{
	might_sleep();
	if (ks->ops->retire)
		ks->ops->retire(ks);
	kstats_history_retire(ks);
	kstats_put(ks);
}

/**
 * kstats_destroy() - unlist, retire and drop a distribution kstats.ko holds
 * @ks: the distribution, or NULL
 *
 * Context: process; may sleep.
 */
void kstats_destroy(struct kstats *ks)
{
	if (!ks)
		return;
	kstats_unlink(ks);
	kstats_drop(ks);
}

/**
 * kstats_delete() - remove a distribution and drop the creator's reference
 * @ks: the distribution; NULL and ERR_PTR values are ignored
 *
 * The file goes at once (readers in flight finish first); the memory goes
 * with the last reference.  The caller must have stopped recording.  Only
 * what kstats_new() or kstats_new_config() made may be deleted: a
 * distribution made from _control (found with kstats_get()) or by kstats
 * itself is refused with a line in the kernel log; drop a kstats_get()
 * reference with kstats_put() instead.
 *
 * Context: process; may sleep.
 */
void kstats_delete(struct kstats *ks)
{
	if (IS_ERR_OR_NULL(ks))
		return;
	might_sleep();
	if (ks->maker != KSTATS_MADE_BY_API) {
		pr_warn_ratelimited("%s: not made by kstats_new(), so not deleted: drop a kstats_get() reference with kstats_put()\n",
				    ks->name);
		return;
	}
	kstats_destroy(ks);
}
EXPORT_SYMBOL_GPL(kstats_delete);

/**
 * kstats_get() - find a distribution by name and take a reference
 * @name: its name
 *
 * For code that records into a distribution made from debugfs.  The
 * reference keeps the memory, not the node: "remove" still takes it out
 * of debugfs and stops its probes, and samples recorded after that are
 * kept by nobody.
 *
 * Context: process; may sleep (takes kstats_mutex).
 * Return: the distribution, or NULL if none has that name.  Drop the
 * reference with kstats_put().
 */
struct kstats *kstats_get(const char *name)
{
	struct kstats *ks;

	might_sleep();
	mutex_lock(&kstats_mutex);
	ks = kstats_find_locked(name);
	if (ks)
		kref_get(&ks->kref);
	mutex_unlock(&kstats_mutex);
	return ks;
}
EXPORT_SYMBOL_GPL(kstats_get);

/**
 * kstats_put() - drop a reference taken by kstats_get()
 * @ks: the distribution, or NULL
 *
 * The last reference only queues the memory to be freed by an irq_work:
 * the node's probes were stopped when it was removed.
 *
 * Context: any, NMI included.
 */
void kstats_put(struct kstats *ks)
{
	if (ks)
		kref_put(&ks->kref, kstats_release);
}
EXPORT_SYMBOL_GPL(kstats_put);

/**
 * kstats_start() - record samples again
 * @ks: the distribution
 *
 * Context: any.
 */
void kstats_start(struct kstats *ks)
{
	WRITE_ONCE(ks->slots, ks->hist);
}
EXPORT_SYMBOL_GPL(kstats_start);

/**
 * kstats_stop() - make kstats_record() a no-op until kstats_start()
 * @ks: the distribution
 *
 * Points the fast path at the scratch area, so recording needs no test; a
 * sample that read the old pointer just before may still land.  Missed
 * events are not counted while stopped either.
 *
 * Context: any.
 */
void kstats_stop(struct kstats *ks)
{
	WRITE_ONCE(ks->slots, kstats_scratch);
}
EXPORT_SYMBOL_GPL(kstats_stop);

/**
 * kstats_is_active() - whether a distribution is recording
 * @ks: the distribution
 *
 * Context: any.
 * Return: false between kstats_stop() and kstats_start().
 */
bool kstats_is_active(const struct kstats *ks)
{
	return READ_ONCE(ks->slots) == ks->hist;
}
EXPORT_SYMBOL_GPL(kstats_is_active);

static void kstats_negative_clear(struct kstats_negative *neg)
{
	int cpu, e;

	for_each_possible_cpu(cpu) {
		struct kstats_neg_cpu *c = per_cpu_ptr(neg->cpu, cpu);

		c->count = 0;
		c->min = 0;
		c->max = S64_MIN;
	}
	for (e = 0; e <= KSTATS_MAX_ERRNO; e++)
		atomic_long_set(&neg->errno_count[e], 0);
}

/**
 * kstats_reset() - forget every sample and missed event
 * @ks: the distribution
 *
 * Recorders are not stopped: a sample recorded on another CPU while the
 * reset runs may survive it or not, or leave its count without its offset
 * or the reverse; readers clamp each slot's sum to what its count allows
 * (kstats_sum_max()), so that no slot's average leaves the slot.  The
 * extremes are forgotten first, so that every sample the slots keep is
 * among them; one that the slots lose may stay there, and readers keep
 * the extremes within the slots that hold samples.
 *
 * Context: any; the time it takes grows with the CPUs and slots.
 */
void kstats_reset(struct kstats *ks)
{
	size_t size = (ks->nr_slots + 1) * sizeof(struct kstats_slot);
	int cpu;

	kstats_extremes_clear(ks->hist);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ks->hist, cpu), 0, size);
	if (ks->neg)
		kstats_negative_clear(ks->neg);
	kstats_history_reset(ks);
	/* what its maker keeps (a family's keys, a probe's misses) */
	if (ks->ops->reset)
		ks->ops->reset(ks);
}
EXPORT_SYMBOL_GPL(kstats_reset);

/**
 * kstats_negative_enable() - let a distribution take negative values
 * @ks: from kstats_alloc(), not yet published
 * @show_empty: its file shows the "# negative" line even before the first
 *	negative sample
 *
 * Negative samples are counted apart from the histogram: how many, their
 * range, and for each errno E how many were -E.
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int kstats_negative_enable(struct kstats *ks, bool show_empty)
{
	struct kstats_negative *neg;

	neg = kvzalloc(sizeof(*neg), KSTATS_GFP);
	if (!neg)
		return -ENOMEM;
	neg->cpu = alloc_percpu_gfp(struct kstats_neg_cpu, KSTATS_GFP);
	if (!neg->cpu) {
		kvfree(neg);
		return -ENOMEM;
	}
	kstats_negative_clear(neg);
	neg->show_empty = show_empty;
	ks->neg = neg;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_negative_enable, KSTATS_NS);

/*
 * The range is kept with this_cpu_cmpxchg(), which an interrupt or NMI on
 * the same CPU cannot tear; the errno count is one atomic increment.
 */
static __always_inline notrace void kstats_neg_lower(s64 __percpu *p, s64 val)
{
	s64 old = this_cpu_read(*p);

	while (val < old) {
		s64 seen = this_cpu_cmpxchg(*p, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline notrace void kstats_neg_raise(s64 __percpu *p, s64 val)
{
	s64 old = this_cpu_read(*p);

	while (val > old) {
		s64 seen = this_cpu_cmpxchg(*p, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

/**
 * kstats_record_negative() - count a negative sample apart
 * @ks: the distribution; one that takes no negative values (a trace node
 *	of durations) counts the sample as missed
 * @val: the sample, less than 0
 *
 * The out-of-line half of kstats_record_signed(), which should be called
 * instead.
 *
 * Context: any, NMI included.  Not counted while @ks is stopped.
 */
notrace void kstats_record_negative(struct kstats *ks, s64 val)
{
	struct kstats_negative *neg = ks->neg;

	if (READ_ONCE(ks->slots) != ks->hist)
		return;
	if (unlikely(!neg)) {
		kstats_record_missed(ks);
		return;
	}
	this_cpu_inc(neg->cpu->count);
	kstats_neg_lower(&neg->cpu->min, val);
	kstats_neg_raise(&neg->cpu->max, val);
	if (val >= -KSTATS_MAX_ERRNO)
		atomic_long_inc(&neg->errno_count[-val]);
}
EXPORT_SYMBOL_GPL(kstats_record_negative);
NOKPROBE_SYMBOL(kstats_record_negative);

/**
 * kstats_negative_read() - the negative samples of a distribution
 * @ks: the distribution
 * @sum: their count and range (all 0 without negative samples)
 * @errno_count: NULL, or KSTATS_MAX_ERRNO + 1 counts: [E] for -E
 *
 * Context: any.
 */
void kstats_negative_read(struct kstats *ks, struct kstats_neg_summary *sum,
			  u64 *errno_count)
{
	struct kstats_negative *neg = ks->neg;
	int cpu, e;

	memset(sum, 0, sizeof(*sum));
	if (!neg)
		return;
	sum->max = S64_MIN;
	for_each_possible_cpu(cpu) {
		struct kstats_neg_cpu *c = per_cpu_ptr(neg->cpu, cpu);
		u64 n = READ_ONCE(c->count);
		s64 lo = READ_ONCE(c->min), hi = READ_ONCE(c->max);

		if (!n)
			continue;
		sum->count += n;
		/* A sample counted, its range not yet kept (or torn by reset). */
		if (lo > hi)
			continue;
		sum->min = min(sum->min, lo);
		sum->max = max(sum->max, hi);
	}
	/* Nothing, or only samples caught halfway: a range that holds. */
	if (sum->max == S64_MIN) {
		sum->min = 0;
		sum->max = 0;
	}
	for (e = 0; errno_count && e <= KSTATS_MAX_ERRNO; e++)
		errno_count[e] = atomic_long_read(&neg->errno_count[e]);
}
EXPORT_SYMBOL_NS_GPL(kstats_negative_read, KSTATS_NS);

/**
 * kstats_read() - the figures of a distribution's summary line
 * @ks: the distribution
 * @s: where to store them
 *
 * The same snapshot and percentile logic as the file's "# summary" line:
 * percentiles are the upper bounds of their slots.  For code that checks
 * or tunes itself on its own latency (a selftest asserting on a p99).
 *
 * Context: process (allocates the snapshot; may sleep).
 * Return: 0, or -ENOMEM.
 */
int kstats_read(struct kstats *ks, struct kstats_summary *s)
{
	struct kstats_snapshot snap;
	int err;

	might_sleep();
	err = kstats_snapshot_take(ks, &snap);
	if (err)
		return err;
	kstats_snapshot_summary(&snap, s);
	kstats_snapshot_free(&snap);
	return 0;
}
EXPORT_SYMBOL_GPL(kstats_read);

/*
 * This CPU's word *@p lowered (raised) to @v with this_cpu_cmpxchg(), one
 * instruction that an interrupt or an NMI on this CPU cannot tear.  A task
 * migrated since its compare, or interrupted by a recorder of a new
 * extreme, finds the word changed and compares again: the word only ever
 * holds a sample, and never loses a smaller (larger) one.  Not an atomic
 * of the bus: on x86 a cmpxchg with no lock prefix, on the CPU's own word.
 */
static __always_inline notrace void kstats_extreme_lower(u64 __percpu *p,
							 u64 v)
{
	u64 old = this_cpu_read(*p), seen;

	while (v < old && (seen = this_cpu_cmpxchg(*p, old, v)) != old)
		old = seen;
}

static __always_inline notrace void kstats_extreme_raise(u64 __percpu *p,
							 u64 v)
{
	u64 old = this_cpu_read(*p), seen;

	while (v > old && (seen = this_cpu_cmpxchg(*p, old, v)) != old)
		old = seen;
}

/**
 * kstats_note_extremes() - keep a sample among the extremes of a histogram
 * @slots: the per-CPU histogram (struct kstats's slots)
 * @val: the sample
 *
 * For a recorder that found @val out of them (kstats_within_extremes()).
 *
 * Context: any, NMI included.
 */
notrace void kstats_note_extremes(struct kstats_slot __percpu *slots, u64 val)
{
	struct kstats_extremes __percpu *e = kstats_extremes(slots);
	struct kstats *hooked;

	kstats_extreme_lower(&e->min, val);
	/* the hook read and used in one section its remover waits for */
	preempt_disable_notrace();
	hooked = raw_cpu_read(kstats_hook(slots)->ks);
	if (unlikely(hooked)) {
		bool fired = false;

		kstats_extreme_raise(&e->max, kstats_history_top(hooked, slots,
								 val, &fired));
		kstats_history_note(hooked, slots, fired);
	} else {
		kstats_extreme_raise(&e->max, val);
	}
	preempt_enable_notrace();
}
EXPORT_SYMBOL_NS_GPL(kstats_note_extremes, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_note_extremes);

/**
 * kstats_record_slow() - the record of a sample the inline path does not take
 * @ks: the distribution
 * @val: the sample
 *
 * The out-of-line half of kstats_record() and kstats_record_bits(), for
 * the samples below the smallest or above the largest its CPU has seen,
 * which become rare as the samples come, and for a kstats_record_bits()
 * whose frac_bits is not the distribution's: the extremes are kept, then
 * @val is recorded as kstats_record() does, clamped to the range.
 *
 * Context: any, NMI included.
 */
notrace __kstats_slow void kstats_record_slow(struct kstats *ks, u64 val)
{
	struct kstats_slot __percpu *slots = READ_ONCE(ks->slots);

	/*
	 * counted on the CPU whose slice kstats_note_extremes() opened: its
	 * preempt_enable() is a point where the task may move to another
	 * CPU, whose history has not seen the slice
	 */
	preempt_disable_notrace();
	kstats_note_extremes(slots, val);
	__KSTATS_RECORD_SLOT(slots, min(val, ks->clamp), ks->frac_bits);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(kstats_record_slow);
NOKPROBE_SYMBOL(kstats_record_slow);

/**
 * kstats_snapshot_free() - free what kstats_snapshot_take() allocated
 * @snap: the snapshot; zeroed afterwards, so freeing twice is harmless
 */
void kstats_snapshot_free(struct kstats_snapshot *snap)
{
	kvfree(snap->cpu);
	kvfree(snap->count);
	kvfree(snap->sum);
	kvfree(snap->cpu_samples);
	kvfree(snap->slot_samples);
	memset(snap, 0, sizeof(*snap));
}
EXPORT_SYMBOL_NS_GPL(kstats_snapshot_free, KSTATS_NS);

/**
 * kstats_snapshot_take() - copy every CPU's histogram of a distribution
 * @ks: the distribution
 * @snap: where to put the copy; free it with kstats_snapshot_free()
 *
 * Recorders are never blocked: each counter is read once, so a snapshot
 * taken while they run is a consistent-enough cut.  A sample may show in
 * the count before it shows in the sum, or the reverse, and a reset racing
 * a recorder leaves the same kind of tear: each slot's sum is clamped to
 * what its count allows, so that its average stays within the slot and the
 * totals always agree with the rows.
 *
 * Context: process (allocates with GFP_KERNEL).
 *
 * Return: 0 or -ENOMEM.
 */
int kstats_snapshot_take(struct kstats *ks, struct kstats_snapshot *snap)
{
	u32 n = ks->nr_slots, row = 0, s;
	size_t cells;
	int cpu;

	memset(snap, 0, sizeof(*snap));
	snap->min = U64_MAX;
	snap->frac_bits = ks->frac_bits;
	snap->nr_slots = n;
	snap->nr_cpus = num_possible_cpus();
	snap->clamp = ks->clamp;
	cells = (size_t)snap->nr_cpus * n;
	snap->cpu = kvcalloc(snap->nr_cpus, sizeof(*snap->cpu), KSTATS_GFP);
	snap->count = kvcalloc(cells, sizeof(u64), KSTATS_GFP);
	snap->sum = kvcalloc(cells, sizeof(u64), KSTATS_GFP);
	snap->cpu_samples = kvcalloc(snap->nr_cpus, sizeof(u64), KSTATS_GFP);
	snap->slot_samples = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	if (!snap->cpu || !snap->count || !snap->sum || !snap->cpu_samples ||
	    !snap->slot_samples) {
		kstats_snapshot_free(snap);
		return -ENOMEM;
	}

	for_each_possible_cpu(cpu) {
		const struct kstats_slot *src = per_cpu_ptr(ks->hist, cpu);
		const struct kstats_extremes *e;
		u64 *count = snap->count + (size_t)row * n;
		u64 *sum = snap->sum + (size_t)row * n;

		if (row == snap->nr_cpus)
			break;
		snap->cpu[row] = cpu;
		for (s = 0; s < n; s++) {
			count[s] = READ_ONCE(src[s].count);
			/* A sample in flight, or torn by a reset: see above. */
			sum[s] = min(READ_ONCE(src[s].sum),
				     kstats_sum_max(count[s]));
			snap->cpu_samples[row] += count[s];
			snap->slot_samples[s] += count[s];
		}
		snap->samples += snap->cpu_samples[row];
		snap->missed += READ_ONCE(src[n].count);
		e = per_cpu_ptr(kstats_extremes(ks->hist), cpu);
		snap->min = min(snap->min, READ_ONCE(e->min));
		snap->max = max(snap->max,
				kstats_history_max(ks->hist, cpu, READ_ONCE(e->max)));
		row++;
	}
	if (ks->ops->extra_missed)
		snap->missed += ks->ops->extra_missed(ks);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_snapshot_take, KSTATS_NS);

/**
 * kstats_snapshot_slot_hi() - the inclusive upper bound of a slot
 * @snap: the snapshot
 * @slot: the slot
 *
 * Return: as kstats_slot_hi(), but U64_MAX for the overflow slot of a
 * distribution with a restricted range.
 */
u64 kstats_snapshot_slot_hi(const struct kstats_snapshot *snap, u32 slot)
{
	if (snap->clamp != U64_MAX && slot == snap->nr_slots - 1)
		return U64_MAX;
	return kstats_slot_hi(slot, snap->frac_bits);
}
EXPORT_SYMBOL_NS_GPL(kstats_snapshot_slot_hi, KSTATS_NS);

/*
 * @v, an extreme as the CPUs kept it, within the bounds @lo and @hi of
 * the slot that holds the samples' extreme; else @bound: an extreme kept
 * by a sample the slots lost to a reset, or recorded while the snapshot
 * was taken, never takes the summary out of the slots it sums.
 */
static u64 kstats_extreme_in(u64 v, u64 lo, u64 hi, u64 bound)
{
	return v >= lo && v <= hi ? v : bound;
}

/**
 * kstats_snapshot_summary() - the figures of the summary line
 * @snap: the snapshot
 * @sum: where to store them; all zero for an empty snapshot
 *
 * min and max are the extremes the CPUs kept, exact (each within the
 * lowest, or the highest, slot that holds samples: else that slot's
 * bound); a percentile is the upper bound of the slot holding the sample
 * of rank ceil(samples * q), or max when that is smaller; the mean is
 * exact up to the within-slot scaling of the sums (see kstats_sum_term()),
 * and within min and max.
 */
void kstats_snapshot_summary(const struct kstats_snapshot *snap,
			     struct kstats_summary *sum)
{
	static const u32 q[][2] = { { 50, 100 }, { 90, 100 }, { 99, 100 },
				    { 999, 1000 } };
	u64 *pct[] = { &sum->p50, &sum->p90, &sum->p99, &sum->p999 };
	u64 rank[ARRAY_SIZE(q)], cum = 0, tot_hi = 0, tot_lo = 0, lo = 0, hi = 0;
	unsigned int i, next = 0;
	u32 s, row;

	memset(sum, 0, sizeof(*sum));
	sum->missed = snap->missed;
	if (!snap->samples)
		return;
	sum->samples = snap->samples;
	for (i = 0; i < ARRAY_SIZE(q); i++)
		rank[i] = kstats_rank(snap->samples, q[i][0], q[i][1]);

	for (s = 0; s < snap->nr_slots; s++) {
		if (!snap->slot_samples[s])
			continue;
		lo = kstats_slot_lo(s, snap->frac_bits);
		hi = kstats_snapshot_slot_hi(snap, s);
		if (!cum)
			sum->min = kstats_extreme_in(snap->min, lo, hi, lo);
		cum += snap->slot_samples[s];
		while (next < ARRAY_SIZE(q) && cum >= rank[next])
			*pct[next++] = hi;
		for (row = 0; row < snap->nr_cpus; row++) {
			size_t c = (size_t)row * snap->nr_slots + s;
			u64 t_hi, t_lo;

			if (!snap->count[c])
				continue;
			t_lo = kstats_slot_total(s, snap->frac_bits,
						 snap->count[c], snap->sum[c],
						 &t_hi);
			tot_lo += t_lo;
			tot_hi += t_hi + (tot_lo < t_lo);
		}
	}
	/* the highest slot's bounds are those left in @lo and @hi */
	sum->max = kstats_extreme_in(snap->max, lo, hi, hi);
	for (i = 0; i < ARRAY_SIZE(pct); i++)
		*pct[i] = min(*pct[i], sum->max);
	/* a sum torn by a reset may not take the mean past the extremes */
	sum->mean = clamp(kstats_div128(tot_hi, tot_lo, snap->samples),
			  sum->min, sum->max);
}
EXPORT_SYMBOL_NS_GPL(kstats_snapshot_summary, KSTATS_NS);

/**
 * kstats_set_publisher() - register the interface that shows distributions
 * @pub: its add and remove, or NULL to unregister it
 *
 * Registered before the first distribution is listed and unregistered
 * after the last is forgotten (kstats_main.c), so that every listed
 * distribution has had @pub->add() and gets @pub->remove().
 *
 * Context: process.
 */
void kstats_set_publisher(const struct kstats_publisher *pub)
{
	mutex_lock(&kstats_mutex);
	kstats_publisher = pub;
	mutex_unlock(&kstats_mutex);
}

/**
 * kstats_core_init() - at module load, before anything else of kstats
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int kstats_core_init(void)
{
	int cpu, err;

	err = kstats_history_init();
	if (err) {
		pr_warn("no CPU hotplug state for the histories: %d\n", err);
		return err;
	}
	kstats_scratch = kstats_hist_alloc(kstats_nr_slots(KSTATS_MAX_FRAC_BITS));
	if (!kstats_scratch) {
		pr_warn("no memory for the scratch area\n");
		kstats_history_exit();
		return -ENOMEM;
	}
	/*
	 * Extremes no sample passes: a stopped distribution's recorder
	 * compares, and never stores, whatever the values of the others.
	 */
	for_each_possible_cpu(cpu) {
		struct kstats_extremes *e = per_cpu_ptr(kstats_extremes(kstats_scratch), cpu);

		e->min = 0;
		e->max = U64_MAX;
	}
	return 0;
}

/**
 * kstats_core_exit() - at module unload, once every distribution is gone
 *
 * Context: process.
 */
void kstats_core_exit(void)
{
	kstats_history_exit();
	/* The last puts queued their frees: let them run before the code goes. */
	irq_work_sync(&kstats_free_work);
	kstats_free_fn(&kstats_free_work);
	kstats_hist_free(kstats_scratch);
}
