/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A family as read (kstats_family_view.c): the view of its keys that a
 * distribution's file shows, and a key as text.  The map it reads is
 * core/kstats_family.h.
 */
#ifndef _KSTATS_FAMILY_VIEW_H
#define _KSTATS_FAMILY_VIEW_H

#include <linux/types.h>
#include "kstats_family.h"

struct kstats_snapshot;
struct seq_file;

/**
 * struct kstats_family_cell - one non-empty slot of a key, as read
 * @slot: the slot
 * @count: its samples
 * @sum: their offsets, clamped to what @count allows
 */
struct kstats_family_cell {
	u32 slot;
	u64 count;
	u64 sum;
};

/**
 * struct kstats_family_view - the keys of a family, for its file
 * @nr: groups of indexes with the same key (a key inserted by two CPUs at
 *	once may own two indexes), "other" included
 * @first: group g is @member[@first[g]] .. @member[@first[g + 1] - 1]
 * @member: the indexes, by group
 * @samples: samples of each group, as copied
 * @cells: the non-empty slots of each group, copied when the view was
 *	made, right after the distribution's own snapshot
 * @nr_cells: how many, for each group
 * @order: the groups, most samples first
 * @keys: distinct keys ("other" not counted)
 * @other: samples of "other"
 * @key: the keys of the generation read, copied: index i's in @key[i]
 * @frames: for stacks, their frames, copied: index i's from
 *	@frames[i * depth]
 */
struct kstats_family_view {
	u32 nr;
	u32 *first;
	u32 *member;
	u64 *samples;
	struct kstats_family_cell **cells;
	u32 *nr_cells;
	u32 *order;
	u32 keys;
	u64 other;
	struct kstats_family_key *key;
	unsigned long *frames;
};

int kstats_family_view(struct kstats *ks, struct kstats_family_view *v);
void kstats_family_view_free(struct kstats_family_view *v);
void kstats_family_fill_snapshot(const struct kstats_family_view *v,
				 struct kstats_snapshot *snap);
bool kstats_family_group_is_other(const struct kstats *ks,
				  const struct kstats_family_view *v, u32 g);
int kstats_format_name(const char *c, char *buf, size_t size);
int kstats_family_format_index(const struct kstats_family *f, u32 index,
			       char *buf, size_t size);
int kstats_family_format_key(const struct kstats_family *f,
			     const struct kstats_family_view *v, u32 g,
			     char *buf, size_t size);
int kstats_family_show_key(struct seq_file *m, const struct kstats_family *f,
			   const struct kstats_family_view *v, u32 g);

#endif /* _KSTATS_FAMILY_VIEW_H */
