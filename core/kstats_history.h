/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A distribution's history (kstats_history.c): its samples slice by slice
 * of time, in a ring per CPU, and the machine-wide freeze of every ring,
 * by a command or by a trigger.
 */
#ifndef _KSTATS_HISTORY_H
#define _KSTATS_HISTORY_H

#include <linux/types.h>

#include "kstats.h"

/*
 * The bytes of a CPU's ring per slice asked for: a slice's record takes a
 * few bytes a slot that holds samples (kstats_history.c), so a ring of
 * N slices holds N slices of about 10 busy slots, fewer when denser.
 */
#define KSTATS_HISTORY_SLICE_BYTES	32

/*
 * The most memory all histories take together, per CPU online: 64 nodes
 * of 12000 slices on a machine of 2 CPUs, in 64 MiB.
 */
#define KSTATS_HISTORY_CPU_BYTES	(32UL << 20)

/* The shortest slice: a slice is a slow path per CPU. */
#define KSTATS_HISTORY_MIN_SLICE_NS	10000

/* The longest name of a freeze's reason ("trigger NAME VALUE"). */
#define KSTATS_HISTORY_REASON_MAX	(KSTATS_NAME_MAX + 32)

/**
 * struct kstats_hook - what a recorder finds before a histogram's extremes
 * @ks: the distribution whose slow path also keeps its history or checks
 *	a trigger (kstats_history_note()), or NULL
 * @saved_max: a largest sample of the CPU the extremes no longer show,
 *	lowered to make the next sample take the slow path (at a slice's end,
 *	under a trigger); the CPU's max is the larger of the two
 *
 * One per CPU, 16 bytes before struct kstats_extremes (kstats_hook()).
 */
struct kstats_hook {
	struct kstats *ks;
	u64 saved_max;
} __aligned(16);

#define kstats_hook(slots)	((struct kstats_hook __percpu *)kstats_extremes(slots) - 1)

/**
 * struct kstats_history_slice - one slot of one slice, as a reader sees it
 * @slice: the slice's number: its start is @slice * its length, in ns of
 *	CLOCK_MONOTONIC
 * @slot: the histogram's slot
 * @count: the samples of the slice in the slot, every CPU's
 */
struct kstats_history_slice {
	u64 slice;
	u32 slot;
	u64 count;
};

/**
 * struct kstats_history_view - a distribution's history, as read at once
 * @slice_ns: the length of a slice
 * @slices: the slices the history keeps
 * @bytes: the memory it takes
 * @frozen: whether the rings were frozen
 * @frozen_at: when, in ns of CLOCK_MONOTONIC
 * @reason: by what: "freeze", or "trigger NAME VALUE"
 * @trigger: the trigger armed or fired, if any: "NAME above V after NS"
 * @fired_at: when it fired, or 0
 * @lost_slices: slices the CPUs' rings let go before their time: a ring
 *	full of dense slices
 * @lost_samples: their samples
 * @cells: the slots that hold samples, by slice then slot, @nr_cells
 * @nr_cells: how many
 * @frac_bits: the distribution's, for the slots' bounds
 */
struct kstats_history_view {
	u64 slice_ns;
	u32 slices;
	size_t bytes;
	bool frozen;
	u64 frozen_at;
	char reason[KSTATS_HISTORY_REASON_MAX];
	char trigger[KSTATS_HISTORY_REASON_MAX + 48];
	u64 fired_at;
	u64 lost_slices;
	u64 lost_samples;
	struct kstats_history_slice *cells;
	size_t nr_cells;
	unsigned int frac_bits;
};

struct kstats_refusal;

int kstats_history_check(const struct kstats_config *cfg,
			 struct kstats_refusal *why);
int kstats_history_alloc(struct kstats *ks, const struct kstats_config *cfg,
			 struct kstats_refusal *why);
void kstats_history_publish(struct kstats *ks);
void kstats_history_retire(struct kstats *ks);
void kstats_history_free(struct kstats *ks);
void kstats_history_reset(struct kstats *ks);
u64 kstats_history_top(struct kstats *ks, struct kstats_slot __percpu *slots,
		       u64 val, bool *fired);
void kstats_history_note(struct kstats *ks, struct kstats_slot __percpu *slots,
			 bool fired);
u64 kstats_history_max(struct kstats_slot __percpu *slots, int cpu, u64 shown);
void kstats_history_clear_saved(struct kstats_slot __percpu *slots, int cpu);

int kstats_history_view(struct kstats *ks, struct kstats_history_view *v);
void kstats_history_view_free(struct kstats_history_view *v);

int kstats_history_freeze(const char *reason, struct kstats_refusal *why);
int kstats_history_thaw(struct kstats_refusal *why);
int kstats_history_trigger(const char *name, u64 above, u64 after_ns,
			   struct kstats_refusal *why);
int kstats_history_init(void);
void kstats_history_exit(void);

#endif /* _KSTATS_HISTORY_H */
