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
 * @KSTATS_BY_API: kernel code, with kstats_new(): kstats_delete() only
 * @KSTATS_BY_CONTROL: a write to _control: "remove", or rmmod
 * @KSTATS_BY_KSTATS: kstats itself (a .gap sibling): its trace node
 */
enum kstats_maker {
	KSTATS_BY_API,
	KSTATS_BY_CONTROL,
	KSTATS_BY_KSTATS,
};

/* Most distributions at once: a documented limit, -ENOSPC past it. */
#define KSTATS_MAX_NODES	256
/* Longest command accepted by a write to a kstats file. */
#define KSTATS_CMD_MAX		256

extern struct mutex kstats_mutex;
extern struct list_head kstats_list;

/**
 * struct kstats_summary - figures of the summary line
 * @samples: total samples
 * @min: lo of the lowest non-empty slot
 * @p50: hi of the slot holding the median
 * @p90: hi of the slot holding the 90th percentile
 * @p99: hi of the slot holding the 99th percentile
 * @p999: hi of the slot holding the 99.9th percentile
 * @max: hi of the highest non-empty slot
 * @mean: total of the samples / @samples
 */
struct kstats_summary {
	u64 samples, min, p50, p90, p99, p999, max, mean;
};

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
};

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
struct kstats *kstats_alloc(const struct kstats_config *cfg,
			    enum kstats_maker maker);
int kstats_publish(struct kstats *ks, const char *origin);
struct kstats *kstats_create(const struct kstats_config *cfg,
			     const char *origin, enum kstats_maker maker);
struct kstats *kstats_pop_removable(void);
void kstats_forget_locked(struct kstats *ks);
void kstats_unlink(struct kstats *ks);
void kstats_drop(struct kstats *ks);
void kstats_destroy(struct kstats *ks);
int kstats_nr_nodes_locked(void);

/* The control commands, parsed (see kstats_parse_command()). */
enum kstats_cmd_op {
	KSTATS_CMD_NEW,
	KSTATS_CMD_REMOVE,
	KSTATS_CMD_REMOVE_ALL,
	KSTATS_CMD_TRACE,
};

/**
 * struct kstats_cmd - a parsed write to _control
 * @op: what to do
 * @cfg: name, bits and clock for new and trace
 * @target: the function traced, or NULL
 * @start: the start point of a section, or NULL
 * @end: the end point of a section, or NULL
 * @mech: "fprobe" or "kretprobe" to choose the mechanism, or NULL
 * @maxactive: kretprobe instances, 0 for the default
 * @gap: also record the time between calls
 *
 * Strings point into the buffer given to kstats_parse_command().
 */
struct kstats_cmd {
	enum kstats_cmd_op op;
	struct kstats_config cfg;
	const char *target;
	const char *start;
	const char *end;
	const char *mech;
	unsigned int maxactive;
	bool gap;
};

int kstats_parse_command(char *buf, struct kstats_cmd *cmd);
int kstats_parse_node_command(const char *buf, int *op);

int kstats_debugfs_init(void);
void kstats_debugfs_exit_control(void);
void kstats_debugfs_exit(void);
int kstats_debugfs_add(struct kstats *ks);
void kstats_debugfs_remove(struct kstats *ks);

#endif /* _KSTATS_INTERNAL_H */
