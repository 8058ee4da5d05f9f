// SPDX-License-Identifier: GPL-2.0
/*
 * Making a distribution for kernel code (kstats_new(), kstats_new_config())
 * and for _control's "new": the core's distribution (kstats_alloc(),
 * kstats_publish()), its negative samples and, given max_keys, its family
 * of numbers (kstats_family_enable(), kstats_record_key()).
 *
 * The core calls no family: what a distribution owns beyond its histogram
 * is its maker's, reached through the distribution's ops (struct
 * kstats_ops).  These distributions' ops are here: their reset forgets
 * the family's keys, their release frees it.  A trace node's maker
 * (kstats_node.c) does the same for its own.
 */
#include <linux/err.h>
#include <linux/module.h>

#include "kstats_family.h"
#include "kstats_internal.h"

/* After the core's kstats_reset(): the family's keys, if it has one. */
static void kstats_new_reset(struct kstats *ks)
{
	if (ks->family)
		kstats_family_clear(ks->family, ks->nr_slots);
}

/* With the memory, from the core's irq_work. */
static void kstats_new_release(struct kstats *ks)
{
	kstats_family_free(ks->family);
}

/*
 * A distribution of the API or of "new": nothing in its file but the
 * core's (the source "api"), nothing to retire; a family, if any, to reset
 * and free (attached by kstats_create(), or by the KUnit suite).
 */
static const struct kstats_ops kstats_new_ops = {
	.reset = kstats_new_reset,
	.release = kstats_new_release,
};

/**
 * kstats_create() - make, list and publish a distribution
 * @cfg: its configuration; with @cfg->max_keys, a family of numbers
 * @origin: how it was made, as _control lists it
 * @maker: who makes it (enum kstats_maker)
 * @why: where a refusal is noted (kstats_refuse()), or NULL
 *
 * Context: process.
 * Return: the distribution, active, with one reference; or an ERR_PTR as
 * kstats_alloc() and kstats_publish() return.
 */
struct kstats *kstats_create(const struct kstats_config *cfg,
			     const char *origin, enum kstats_maker maker,
			     struct kstats_refusal *why)
{
	struct kstats *ks = kstats_alloc(cfg, maker, why);
	int err;

	if (IS_ERR(ks))
		return ks;
	/* from here on, the last put frees the family too */
	ks->ops = &kstats_new_ops;
	/* Kernel code may record signed values into it: kstats_record_signed(). */
	err = kstats_negative_enable(ks, false);
	if (!err && cfg->max_keys)
		err = kstats_family_enable(ks, cfg->max_keys, "key",
					   KSTATS_KEYS_NUMBER, 0);
	if (!err)
		err = kstats_publish(ks, origin, why);
	if (err) {
		kstats_put(ks);
		return ERR_PTR(err);
	}
	return ks;
}

/**
 * kstats_new_config() - create a distribution
 * @cfg: name, frac_bits, clock and value range
 *
 * The distribution starts active, with a debugfs file of its name.  Only
 * distributions made this way may be kstats_delete()d.
 *
 * Context: process; may sleep.
 * Return: the distribution, or an ERR_PTR(): -EINVAL for a bad name or
 * setting (max_keys over 65536 included), -EEXIST for a name in use, -ENOSPC when too many exist,
 * -EOPNOTSUPP for clock cycles off x86 and arm64, -ENOMEM.  Never NULL.
 */
struct kstats *kstats_new_config(const struct kstats_config *cfg)
{
	might_sleep();
	return kstats_create(cfg, "api", KSTATS_MADE_BY_API, NULL);
}
EXPORT_SYMBOL_GPL(kstats_new_config);

/**
 * kstats_new() - create a distribution of times on the ktime clock
 * @name: file name under /sys/kernel/debug/kstats/
 * @frac_bits: 0..5: each power of two is split in 2^frac_bits slots
 *
 * Context: process; may sleep.
 * Return: as kstats_new_config().
 */
struct kstats *kstats_new(const char *name, unsigned int frac_bits)
{
	struct kstats_config cfg = {
		.name = name,
		.frac_bits = frac_bits,
		.clock = KSTATS_CLOCK_KTIME,
	};

	return kstats_new_config(&cfg);
}
EXPORT_SYMBOL_GPL(kstats_new);
