/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of kstats.ko share with each other and
 * with the KUnit suite and the test modules (exported in the
 * KSTATS_INTERNAL namespace: MODULE_IMPORT_NS(KSTATS_INTERNAL)).
 */
#ifndef _KSTATS_INTERNAL_H
#define _KSTATS_INTERNAL_H

#include <linux/module.h>
#include <linux/mutex.h>
#include "kstats.h"

/*
 * The namespace of the internal symbols, for EXPORT_SYMBOL_NS_GPL() and
 * MODULE_IMPORT_NS(): a string since 6.13, a bare word before (kstats.mk).
 */
#ifdef KSTATS_NS_IS_STRING
#define KSTATS_NS	"KSTATS_INTERNAL"
#else
#define KSTATS_NS	KSTATS_INTERNAL
#endif

/**
 * enum kstats_maker - who made a distribution, and so who may remove it
 * @KSTATS_MADE_BY_API: kernel code, with kstats_new(): kstats_delete() only
 * @KSTATS_MADE_BY_CONTROL: a write to _control: "remove", or rmmod
 * @KSTATS_MADE_BY_KSTATS: kstats itself (a .gap sibling): its trace node
 */
enum kstats_maker {
	KSTATS_MADE_BY_API,
	KSTATS_MADE_BY_CONTROL,
	KSTATS_MADE_BY_KSTATS,
};

struct seq_file;

/**
 * struct kstats_ops - what the maker of a distribution adds to it
 * @show_source: prints the "# source" header line; NULL for "api"
 * @show_tail: prints the lines after the histogram rows (a trace node's
 *	outliers), or NULL
 * @extra_missed: missed events counted outside the slots (by probes), or
 *	NULL
 * @reset: starts what the maker keeps beside the histogram (a family's
 *	keys, a probe's misses, a section's counts) again from 0, after the
 *	core's kstats_reset() emptied the histogram (any context), or NULL
 * @retire: stops what feeds it (probes), in process context, when it is
 *	removed: never in the last kstats_put(), which may run in any context
 * @release: frees what the maker attached (its family, its node's data)
 *	with the memory; called from an irq_work, so it must not sleep
 *
 * The core calls what a node owns beyond its histogram only through
 * these, so that it calls no file above it: the maker, which made the
 * node's family or probes, resets and frees them.  One table per kind of
 * node, constant; struct kstats's @ops is never NULL (kstats_alloc() sets
 * one with no callback).
 */
struct kstats_ops {
	void (*show_source)(struct kstats *ks, struct seq_file *m);
	void (*show_tail)(struct kstats *ks, struct seq_file *m);
	u64 (*extra_missed)(struct kstats *ks);
	void (*reset)(struct kstats *ks);
	void (*retire)(struct kstats *ks);
	void (*release)(struct kstats *ks);
};

/*
 * The memory kstats asks for on behalf of a command, a read or its load,
 * whose failure it reports itself: the caller's ENOMEM (with kstats' own
 * line where there is one), or a fallback that does without.  No
 * allocator warning beside it: its stack and memory report say nothing
 * more, and under fault injection there are hundreds.
 */
#define KSTATS_GFP	(GFP_KERNEL | __GFP_NOWARN)

/* Most distributions at once: a documented limit, -ENOSPC past it. */
#define KSTATS_MAX_NODES	256

extern struct mutex kstats_mutex;
extern struct list_head kstats_list;

/**
 * struct kstats_snapshot - a copy of every CPU's histogram
 * @frac_bits: of the distribution
 * @nr_slots: slots per CPU
 * @nr_cpus: CPU rows (possible CPUs)
 * @cpu: CPU number of each row
 * @count: @nr_cpus rows of @nr_slots sample counts
 * @sum: @nr_cpus rows of @nr_slots offset sums
 * @cpu_samples: samples of each row
 * @slot_samples: samples of each slot, all CPUs
 * @samples: all samples
 * @missed: events not recorded
 * @clamp: see struct kstats
 * @min: the smallest of the CPUs' extremes (U64_MAX for none)
 * @max: the largest of them (0 for none)
 */
struct kstats_snapshot {
	unsigned int frac_bits;
	u32 nr_slots;
	u32 nr_cpus;
	u32 *cpu;
	u64 *count;
	u64 *sum;
	u64 *cpu_samples;
	u64 *slot_samples;
	u64 samples;
	u64 missed;
	u64 clamp;
	u64 min;
	u64 max;
};

/* Largest E of an "errno E" row: the kernel's MAX_ERRNO. */
#define KSTATS_MAX_ERRNO	4095

/**
 * struct kstats_neg_cpu - one CPU's negative samples
 * @count: how many
 * @min: the smallest (0 while @count is 0)
 * @max: the largest (S64_MIN while @count is 0)
 */
struct kstats_neg_cpu {
	u64 count;
	s64 min;
	s64 max;
};

/**
 * struct kstats_negative - the negative samples of a distribution
 * @cpu: per CPU, their count and range
 * @show_empty: the file shows the "# negative" line even with none (a
 *	node of signed values); otherwise only once there are some
 * @errno_count: @errno_count[E] counts the samples equal to -E, E in
 *	1..KSTATS_MAX_ERRNO: shared by all CPUs, since failures are rarer
 *	than samples and a per-CPU copy would cost 32 KiB per CPU
 */
struct kstats_negative {
	struct kstats_neg_cpu __percpu *cpu;
	bool show_empty;
	atomic_long_t errno_count[KSTATS_MAX_ERRNO + 1];
};

/**
 * struct kstats_neg_summary - what the "# negative" line shows
 * @count: negative samples
 * @min: the smallest, 0 if none
 * @max: the largest, 0 if none
 */
struct kstats_neg_summary {
	u64 count;
	s64 min;
	s64 max;
};

int kstats_negative_enable(struct kstats *ks, bool show_empty);
void kstats_negative_read(struct kstats *ks, struct kstats_neg_summary *sum,
			  u64 *errno_count);

int kstats_snapshot_take(struct kstats *ks, struct kstats_snapshot *snap);
void kstats_snapshot_free(struct kstats_snapshot *snap);
void kstats_snapshot_summary(const struct kstats_snapshot *snap,
			     struct kstats_summary *sum);
u64 kstats_snapshot_slot_hi(const struct kstats_snapshot *snap, u32 slot);

int kstats_check_name(const char *name);
const char *kstats_clock_name(enum kstats_clock clock);
const char *kstats_clock_unit(enum kstats_clock clock);
int kstats_parse_clock(const char *s, enum kstats_clock *clock);
struct kstats *kstats_find_locked(const char *name);
struct kstats_refusal;
struct kstats *kstats_alloc(const struct kstats_config *cfg,
			    enum kstats_maker maker, struct kstats_refusal *why);
int kstats_publish(struct kstats *ks, const char *origin,
		   struct kstats_refusal *why);
struct kstats *kstats_create(const struct kstats_config *cfg,
			     const char *origin, enum kstats_maker maker,
			     struct kstats_refusal *why);
struct kstats *kstats_pop_removable(void);
void kstats_forget_locked(struct kstats *ks);
void kstats_unlink(struct kstats *ks);
void kstats_drop(struct kstats *ks);
void kstats_destroy(struct kstats *ks);
int kstats_nr_nodes_locked(void);

int kstats_core_init(void);
void kstats_core_exit(void);

/**
 * struct kstats_publisher - how listed distributions are shown to users
 * @add: give @ks its file; 0 or a negative errno, which fails the listing
 * @remove: take its file away, waiting for the readers in flight
 *
 * The core lists distributions; an interface (kstats_debugfs.c) registers
 * itself with kstats_set_publisher() to show them, so that the core calls
 * no file above it.  Both run under kstats_mutex, which keeps names unique.
 */
struct kstats_publisher {
	int (*add)(struct kstats *ks);
	void (*remove)(struct kstats *ks);
};

void kstats_set_publisher(const struct kstats_publisher *pub);

#endif /* _KSTATS_INTERNAL_H */
