// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_family, of core/kstats_family.c and
 * trace/kstats_family_view.c: families: string keys, a family's keys and
 * their histograms, hot keys, stack keys, many CPUs at once,
 * kstats_record_key().
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include <linux/btf.h>

#include "kstats.h"
#include "kstats_btf.h"
#include "kstats_direct.h"
#include "kstats_cmd.h"
#include "kstats_multi.h"
#include "kstats_family.h"
#include "kstats_family_view.h"
#include "kstats_outlier.h"
#include "kstats_internal.h"
#include "kstats_pair.h"
#include "kstats_point.h"
#include "kstats_stack.h"

#include "kstats_test.h"

/*
 * "by str:V": the key is the text at V, its first 15 bytes zero-padded to
 * 16 (one name, one key), also when it ends just before an unmapped page;
 * an unreadable address is no key (the sample goes to "other").
 */
static void kstats_test_string_key(struct kunit *test)
{
	static const char longname[] = "a_handler_name_longer_than_15";
	struct { u64 pad; const char *name; } obj = { 0, longname };
	unsigned long args[KSTATS_MAX_ARGS] = { 0, (unsigned long)&obj };
	struct kstats_args a = { .tp = args };
	struct kstats_by b = { .kind = KSTATS_BY_VALUE, .str = true };
	char *page;
	u64 key[2];

	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1+8:8", &b.v, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kstats_by_fetch(&b, &a, key));
	KUNIT_EXPECT_EQ(test, memcmp(key, "a_handler_name_", 15), 0);
	KUNIT_EXPECT_EQ(test, ((char *)key)[15], 0);

	/* "str:arg1+OFF": in place, the array at OFF of what arg1 points to */
	args[1] = (unsigned long)longname;
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1", &b.v, NULL), 0);
	b.str_off = 2;
	KUNIT_ASSERT_TRUE(test, kstats_by_fetch(&b, &a, key));
	KUNIT_EXPECT_EQ(test, memcmp(key, "handler_name_lo", 15), 0);
	b.str_off = 0;
	args[1] = (unsigned long)&obj;
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1+8:8", &b.v, NULL), 0);

	/* "eth0" in the last 5 bytes of a page whose next one is not mapped */
	page = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page, 'x', PAGE_SIZE);
	strscpy(page + PAGE_SIZE - 5, "eth0", 5);
	obj.name = page + PAGE_SIZE - 5;
	memset(key, 0xff, sizeof(key));
	KUNIT_EXPECT_TRUE(test, kstats_by_fetch(&b, &a, key));
	KUNIT_EXPECT_EQ(test, memcmp(key, "eth0\0\0\0\0\0\0\0\0\0\0\0\0", 16), 0);
	vfree(page);

	obj.name = NULL;
	KUNIT_EXPECT_FALSE(test, kstats_by_fetch(&b, &a, key));
}

/* Two call sites of one stack key, apart (noinline, one frame each). */
static noinline u32 stack_site_a(struct kstats_family *f)
{
	u32 i = kstats_family_stack_index(f, NULL);

	barrier();	/* a call, not a tail call: this frame stays */
	return i;
}

static unsigned int stack_site_b_calls;

/* Not stack_site_a's code, so that the compiler does not fold the two. */
static noinline u32 stack_site_b(struct kstats_family *f)
{
	u32 i = kstats_family_stack_index(f, NULL);

	WRITE_ONCE(stack_site_b_calls, stack_site_b_calls + 1);
	return i;
}

/*
 * A family of stacks: one key a stack, found again from the same place,
 * another from another; shown root first, the innermost frame the site's;
 * the rest, past max, in "other".
 */
static void kstats_test_stack_key(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_stack", 3, 0);
	struct kstats_family_view v;
	u32 a, b, c, i, n, site[2];
	char *buf, *leaf;

	buf = kunit_kzalloc(test, KSTATS_STACK_KEY_MAX * KSYM_SYMBOL_LEN,
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, kstats_family_enable(ks, 2, "stack 0",
						   KSTATS_KEYS_STACK, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_family_enable(ks, 2, "stack 33",
						   KSTATS_KEYS_STACK, 33),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 2, "stack 4",
						   KSTATS_KEYS_STACK, 4), 0);
	/* one place: the same stack twice (the loop's caller frame too) */
	n = 2;
	OPTIMIZER_HIDE_VAR(n);	/* one call, not unrolled into two */
	preempt_disable();
	for (i = 0; i < n; i++)
		site[i] = stack_site_a(ks->family);
	b = stack_site_b(ks->family);
	preempt_enable();
	a = site[0];
	KUNIT_EXPECT_EQ(test, a, site[1]);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_LT(test, kstats_family_slot_index(ks->family, a), 2U);
	KUNIT_EXPECT_LT(test, kstats_family_slot_index(ks->family, b), 2U);
	for (i = 0; i < 3; i++)
		kstats_family_record(ks, a, 100);
	kstats_family_record(ks, b, 7);
	/* a third stack: the family is full, it goes to "other" */
	preempt_disable();
	c = kstats_family_stack_index(ks->family, NULL);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, kstats_family_slot_index(ks->family, c), 2U);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 2U);
	kstats_family_format_key(ks->family, &v, v.order[0], buf,
				 KSTATS_STACK_KEY_MAX * KSYM_SYMBOL_LEN);
	KUNIT_EXPECT_EQ(test, v.samples[v.order[0]], 3ULL);
	/* root first: the innermost frame, the site's, is the last */
	leaf = strrchr(buf, ';');
	KUNIT_ASSERT_NOT_NULL_MSG(test, leaf, "%s", buf);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(leaf + 1, "stack_site_a+0x"),
			      "%s", buf);
	for (i = 0, c = 0; buf[i]; i++)
		c += buf[i] == ';';
	KUNIT_EXPECT_EQ(test, c, 3U);
	KUNIT_EXPECT_NULL(test, strchr(buf, ' '));
	kstats_family_format_key(ks->family, &v, v.order[1], buf,
				 KSTATS_STACK_KEY_MAX * KSYM_SYMBOL_LEN);
	leaf = strrchr(buf, ';');
	KUNIT_ASSERT_NOT_NULL_MSG(test, leaf, "%s", buf);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(leaf + 1, "stack_site_b+0x"),
			      "%s", buf);
	kstats_family_view_free(&v);
	kstats_delete(ks);
}

/* The samples of the group of @key in @v, or U64_MAX if none has it. */
static u64 family_samples(struct kstats *ks, struct kstats_family_view *v,
			  const char *key)
{
	char buf[80];
	u32 g;

	for (g = 0; g < v->nr; g++) {
		kstats_family_format_key(ks->family, v, g, buf, sizeof(buf));
		if (!strcmp(buf, key))
			return v->samples[g];
	}
	return U64_MAX;
}

/* The samples of key @k's slot @slot in @v, or U64_MAX if no group is @k. */
static u64 family_cell(struct kstats *ks, struct kstats_family_view *v,
		       const char *k, u32 slot)
{
	char buf[80];
	u32 g, c;

	for (g = 0; g < v->nr; g++) {
		kstats_family_format_key(ks->family, v, g, buf, sizeof(buf));
		if (strcmp(buf, k))
			continue;
		for (c = 0; c < v->nr_cells[g]; c++)
			if (v->cells[g][c].slot == slot)
				return v->cells[g][c].count;
		return 0;
	}
	return U64_MAX;
}

/*
 * Hot keys: a key whose slot reaches KSTATS_FAMILY_HOT_AT samples records
 * in a per-CPU row of the pool from then on; the view adds the shared and
 * the per-CPU samples; once the pool is gone, keys stay shared; a reset
 * empties the rows and keeps them.
 */
static void kstats_test_family_hot(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_family_hot", 3, 0);
	u32 s100 = kstats_slot(100, 3), s7 = kstats_slot(7, 3);
	struct kstats_family_view v;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	struct kstats_family *f;
	u64 key[2] = {}, n = 0;
	char k[8];
	u32 i, j;

	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 16, "pid", KSTATS_KEYS_NUMBER, 0),
			0);
	f = ks->family;
	/* 496 slots of 16 bytes: the full pool fits in the per-CPU budget */
	KUNIT_ASSERT_EQ(test, f->nr_hot, (u32)KSTATS_FAMILY_HOT);
	/* keys 1..9 at indexes 0..8 */
	for (j = 0; j <= KSTATS_FAMILY_HOT; j++) {
		key[0] = j + 1;
		KUNIT_ASSERT_EQ(test, kstats_family_index(f, key), j);
	}
	for (i = 0; i < KSTATS_FAMILY_HOT_AT - 1; i++)
		kstats_family_record(ks, 0, 100);
	KUNIT_EXPECT_EQ(test, f->hot[0], 0U);
	KUNIT_EXPECT_PTR_EQ(test, (void __force *)f->row[0], NULL);
	kstats_family_record(ks, 0, 100);
	KUNIT_EXPECT_EQ(test, f->hot[0], 1U);
	/* the row the recorders read, one load */
	KUNIT_EXPECT_PTR_EQ(test, (void __force *)f->row[0],
			    (void __force *)f->pool[0]);
	for (i = 0; i < 10; i++)
		kstats_family_record(ks, 0, 7);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->hist[s100].count),
			(s64)KSTATS_FAMILY_HOT_AT);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->hist[s7].count), 0LL);
	/* indexes 1..8: the first 7 take the rest of the pool, the 8th none */
	for (j = 1; j <= KSTATS_FAMILY_HOT; j++)
		for (i = 0; i < KSTATS_FAMILY_HOT_AT + 5; i++)
			kstats_family_record(ks, j, 100);
	for (j = 1; j < KSTATS_FAMILY_HOT; j++)
		KUNIT_EXPECT_EQ(test, f->hot[j], j + 1);
	KUNIT_EXPECT_EQ(test, f->hot[KSTATS_FAMILY_HOT], KSTATS_FAMILY_HOT_NONE);
	KUNIT_EXPECT_PTR_EQ(test, (void __force *)f->row[KSTATS_FAMILY_HOT - 1],
			    (void __force *)f->pool[KSTATS_FAMILY_HOT - 1]);
	KUNIT_EXPECT_PTR_EQ(test, (void __force *)f->row[KSTATS_FAMILY_HOT], NULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->hist[KSTATS_FAMILY_HOT *
						     ks->nr_slots + s100].count),
			(s64)KSTATS_FAMILY_HOT_AT + 5);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	/* key 1: 1024 shared, 10 in its row */
	KUNIT_EXPECT_EQ(test, family_cell(ks, &v, "1", s100), (u64)KSTATS_FAMILY_HOT_AT);
	KUNIT_EXPECT_EQ(test, family_cell(ks, &v, "1", s7), 10ULL);
	for (j = 2; j <= KSTATS_FAMILY_HOT + 1; j++) {
		snprintf(k, sizeof(k), "%u", j);
		KUNIT_EXPECT_EQ(test, family_samples(ks, &v, k),
				(u64)KSTATS_FAMILY_HOT_AT + 5);
	}
	for (i = 0; i < v.nr; i++)
		n += v.samples[i];
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, n, snap.samples);
	KUNIT_EXPECT_EQ(test, snap.samples,
			KSTATS_FAMILY_HOT * (KSTATS_FAMILY_HOT_AT + 5ULL) +
			KSTATS_FAMILY_HOT_AT + 10);
	kstats_snapshot_free(&snap);
	kstats_family_view_free(&v);
	/* a reset: the rows emptied, still the indexes' */
	kstats_reset(ks);
	KUNIT_EXPECT_EQ(test, f->hot[0], 1U);
	key[0] = 42;
	KUNIT_ASSERT_EQ(test, kstats_family_index(f, key) & KSTATS_FAMILY_INDEX_MASK, 0U);
	for (i = 0; i < 3; i++)
		kstats_family_record(ks, kstats_family_index(f, key), 7);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 1U);
	KUNIT_EXPECT_EQ(test, family_cell(ks, &v, "42", s7), 3ULL);
	KUNIT_EXPECT_EQ(test, v.samples[v.order[0]], 3ULL);
	kstats_family_view_free(&v);
	kstats_delete(ks);
}

/* Keys, "other" past max, order, reset, task names as text. */
static void kstats_test_family(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_family", 3, 0);
	struct kstats_family_view v;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	const struct kstats_family_cell *cell;
	u64 key[2] = {}, n = 0;
	char buf[80];
	u32 i, old;

	KUNIT_EXPECT_EQ(test, kstats_family_enable(ks, 0, "pid", KSTATS_KEYS_NUMBER, 0),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 4, "pid", KSTATS_KEYS_NUMBER, 0),
			0);
	for (i = 0; i < 4; i++) {
		key[0] = 10 * (i + 1);
		KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key), i);
	}
	key[0] = 10;
	KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key), 0U);
	key[0] = 50;
	KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key), 4U);
	key[0] = 60;
	KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key), 4U);
	/* key 10: 3 x 100; key 20: 1 x 7; other (50, 60): 2 x 1000 */
	for (i = 0; i < 3; i++)
		kstats_family_record(ks, 0, 100);
	kstats_family_record(ks, 1, 7);
	kstats_family_record(ks, 4, 1000);
	kstats_family_record(ks, 4, 1000);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 4U);
	KUNIT_EXPECT_EQ(test, v.nr, 5U);
	KUNIT_EXPECT_EQ(test, v.other, 2ULL);
	kstats_family_format_key(ks->family, &v, v.order[0], buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "10");
	kstats_family_format_key(ks->family, &v, v.order[1], buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "other");
	KUNIT_EXPECT_TRUE(test, kstats_family_group_is_other(ks, &v, v.order[1]));
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "20"), 1ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "40"), 0ULL);
	/* Key 10's copy: one slot, that of 100, with 3 samples of 100. */
	KUNIT_ASSERT_EQ(test, v.nr_cells[v.order[0]], 1U);
	cell = v.cells[v.order[0]];
	KUNIT_EXPECT_EQ(test, cell->slot, kstats_slot(100, 3));
	KUNIT_EXPECT_EQ(test, cell->count, 3ULL);
	KUNIT_EXPECT_EQ(test, kstats_slot_avg(cell->slot, 3, cell->count,
					      cell->sum), 100ULL);
	for (i = 0; i < v.nr; i++)
		n += v.samples[i];
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, n, snap.samples);
	KUNIT_EXPECT_EQ(test, snap.samples, 6ULL);
	/* The keys' sum as a snapshot: the same samples, in the same slots. */
	kstats_family_record(ks, 1, 7);
	kstats_family_fill_snapshot(&v, &snap);
	KUNIT_EXPECT_EQ(test, snap.samples, 6ULL);
	KUNIT_EXPECT_EQ(test, snap.count[kstats_slot(100, 3)], 3ULL);
	KUNIT_EXPECT_EQ(test, snap.count[kstats_slot(1000, 3)], 2ULL);
	kstats_snapshot_summary(&snap, &sum);
	KUNIT_EXPECT_EQ(test, sum.samples, 6ULL);
	/* the node's own extremes, which every key's record keeps */
	KUNIT_EXPECT_EQ(test, sum.min, 7ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 1000ULL);
	kstats_snapshot_free(&snap);
	kstats_family_view_free(&v);

	/*
	 * Stopped: nothing.  Reset: the keys forgotten, new ones from index
	 * 0 of the next generation; an index of the one before in "other".
	 */
	kstats_stop(ks);
	kstats_family_record(ks, 0, 100);
	kstats_start(ks);
	key[0] = 10;
	old = kstats_family_index(ks->family, key);
	kstats_reset(ks);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 0U);
	KUNIT_EXPECT_EQ(test, v.other, 0ULL);
	kstats_family_view_free(&v);
	for (i = 0; i < 5; i++) {
		key[0] = 100 + i;
		KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key) &
				KSTATS_FAMILY_INDEX_MASK, i < 4 ? i : 4U);
	}
	kstats_family_record(ks, old, 7);
	key[0] = 100;
	kstats_family_record(ks, kstats_family_index(ks->family, key), 7);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 4U);
	KUNIT_EXPECT_EQ(test, v.other, 1ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "100"), 1ULL);
	kstats_family_view_free(&v);
	/* a second reset, right after: waits for the first's readers */
	kstats_reset(ks);
	key[0] = 200;
	KUNIT_EXPECT_EQ(test, kstats_family_index(ks->family, key) &
			KSTATS_FAMILY_INDEX_MASK, 0U);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 1U);
	kstats_family_view_free(&v);
	kstats_delete(ks);

	/* Task names: one key per name, shown with \xHH escapes. */
	ks = test_new(test, "kunit_family2", 3, 0);
	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 8, "comm", KSTATS_KEYS_NAME, 0),
			0);
	memset(key, 0, sizeof(key));
	memcpy(key, "a b\\", 4);
	kstats_family_record(ks, kstats_family_index(ks->family, key), 5);
	memset(key, 0, sizeof(key));
	memcpy(key, "abcdefghijklmno", 15);
	kstats_family_record(ks, kstats_family_index(ks->family, key), 5);
	kstats_family_record(ks, kstats_family_index(ks->family, key), 5);
	memset(key, 0, sizeof(key));
	memcpy(key, "other", 5);
	kstats_family_record(ks, kstats_family_index(ks->family, key), 5);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 3U);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "\\x6fther"), 1ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "other"), 0ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "a\\x20b\\x5c"), 1ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "abcdefghijklmno"), 2ULL);
	kstats_family_view_free(&v);
	kstats_delete(ks);
}

/* kstats_record_key(): a family made by kernel code, its bound, other. */
static void kstats_test_record_key(struct kunit *test)
{
	struct kstats_config cfg = {
		.name = "kunit_record_key", .frac_bits = 3,
		.clock = KSTATS_CLOCK_NONE, .max_keys = 2,
	};
	struct kstats_family_view v;
	struct kstats_summary sum;
	struct kstats *ks;
	char buf[80];

	cfg.max_keys = KSTATS_FAMILY_MAX + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(kstats_new_config(&cfg)), -EINVAL);
	cfg.max_keys = 2;
	ks = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ks));
	kstats_record_key(ks, 5, 10);
	kstats_record_key(ks, 6, 20);
	kstats_record_key(ks, 5, 30);
	kstats_record_key(ks, 7, 40);
	kstats_record_key(ks, 8, 50);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 2U);
	KUNIT_EXPECT_EQ(test, v.other, 2ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "5"), 2ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "6"), 1ULL);
	kstats_family_format_key(ks->family, &v, v.order[0], buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, !strcmp(buf, "5") || !strcmp(buf, "other"));
	kstats_family_view_free(&v);
	kstats_delete(ks);

	/* Without max_keys: one histogram, as kstats_record(). */
	ks = test_new(test, "kunit_record_key2", 3, 0);
	kstats_record_key(ks, 5, 10);
	KUNIT_EXPECT_NULL(test, ks->family);
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.samples, 1ULL);
	kstats_delete(ks);
}

struct family_worker {
	struct kstats *ks;
	struct completion done;
	u64 recorded;
};

/* Every CPU makes the same 16 keys at once, into a family of 8. */
static int family_worker_fn(void *data)
{
	struct family_worker *w = data;
	u64 key[2] = {}, i;

	for (i = 0; i < 100000; i++) {
		key[0] = i & 15;
		kstats_family_record(w->ks,
				     kstats_family_index(w->ks->family, key),
				     i & 1023);
		w->recorded++;
	}
	complete(&w->done);
	return 0;
}

/* One sample of @info's distribution, recorded on the CPU this runs on. */
static void kstats_test_record_here(void *info)
{
	kstats_family_record(info, 0, 1000);
}

/*
 * A family by CPU: no key looked up (an index passed to the record is
 * not read), each sample in the row of the CPU that records it, the CPUs
 * from max on in "other"; the view, the key of an index and the reset
 * agree with that.
 */
static void kstats_test_family_cpus(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_family_cpus", 3, 0);
	struct kstats_family_view v;
	char want[16], buf[80];
	int cpu;

	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 64, "cpu", KSTATS_KEYS_CPU, 0),
			0);
	KUNIT_EXPECT_TRUE(test, kstats_family_per_cpu(ks->family));
	cpu = get_cpu();
	kstats_family_record(ks, 12345, 100);
	kstats_family_record(ks, 0, 100);
	kstats_record(ks, 7);
	put_cpu();
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	snprintf(want, sizeof(want), "%d", cpu);
	KUNIT_EXPECT_EQ(test, v.keys, 1U);
	KUNIT_EXPECT_EQ(test, v.nr, 2U);
	KUNIT_EXPECT_EQ(test, v.other, 0ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, want), 3ULL);
	/* slot of 100 then slot of 7: two cells, 2 and 1 samples */
	KUNIT_EXPECT_EQ(test, v.nr_cells[v.order[0]], 2U);
	kstats_family_format_index(ks->family, cpu, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, want);
	kstats_family_format_index(ks->family, 64, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "other");
	kstats_family_view_free(&v);
	kstats_reset(ks);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 0U);
	KUNIT_EXPECT_EQ(test, v.samples[0], 0ULL);
	kstats_family_view_free(&v);
	kstats_delete(ks);

	/* max 1: CPU 0's row is the one key, CPU 1's goes to "other" */
	if (!cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "CPU 0 and CPU 1 are not both online");
	ks = test_new(test, "kunit_family_cpus1", 3, 0);
	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 1, "cpu", KSTATS_KEYS_CPU, 0),
			0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(0, kstats_test_record_here,
						       ks, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(1, kstats_test_record_here,
						       ks, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(1, kstats_test_record_here,
						       ks, 1), 0);
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_EQ(test, v.keys, 1U);
	KUNIT_EXPECT_EQ(test, v.other, 2ULL);
	KUNIT_EXPECT_EQ(test, family_samples(ks, &v, "0"), 1ULL);
	kstats_family_view_free(&v);
	kstats_delete(ks);
}

/* Concurrent keys: nothing lost, no key shown twice, at most max keys. */
static void kstats_test_family_concurrent(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_family3", 3, 0);
	struct kstats_family_view v;
	struct family_worker *w;
	unsigned int n = 0, i;
	u64 total = 0, recorded = 0;
	char a[80], b[80];
	int cpu;

	KUNIT_ASSERT_EQ(test, kstats_family_enable(ks, 8, "arg0", KSTATS_KEYS_NUMBER, 0),
			0);
	w = kunit_kcalloc(test, nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	for_each_online_cpu(cpu) {
		struct task_struct *tk;

		w[n].ks = ks;
		init_completion(&w[n].done);
		tk = kthread_create(family_worker_fn, &w[n], "kstats_fam/%d",
				    cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tk));
		kthread_bind(tk, cpu);
		wake_up_process(tk);
		n++;
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&w[i].done);
		recorded += w[i].recorded;
	}
	KUNIT_ASSERT_EQ(test, kstats_family_view(ks, &v), 0);
	KUNIT_EXPECT_LE(test, v.keys, 8U);
	for (i = 0; i < v.nr; i++) {
		total += v.samples[i];
		if (!i)
			continue;
		kstats_family_format_key(ks->family, &v, i - 1, a, sizeof(a));
		kstats_family_format_key(ks->family, &v, i, b, sizeof(b));
		KUNIT_EXPECT_STRNEQ(test, a, b);
	}
	KUNIT_EXPECT_EQ(test, total, recorded);
	KUNIT_EXPECT_GT(test, v.other, 0ULL);
	kstats_family_view_free(&v);
	kstats_delete(ks);
}

static struct kunit_case kstats_family_test_cases[] = {
	KUNIT_CASE(kstats_test_string_key),
	KUNIT_CASE(kstats_test_family),
	KUNIT_CASE(kstats_test_family_hot),
	KUNIT_CASE(kstats_test_stack_key),
	KUNIT_CASE(kstats_test_family_cpus),
	KUNIT_CASE(kstats_test_family_concurrent),
	KUNIT_CASE(kstats_test_record_key),
	{}
};

struct kunit_suite kstats_family_suite = {
	.name = "kstats_family",
	.test_cases = kstats_family_test_cases,
};
