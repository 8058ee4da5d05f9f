// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_outlier, of trace/kstats_outlier.c,
 * lib/kstats_stack.c: outliers: the per-CPU stores of slow and top calls,
 * and the cache of unwound stacks.
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
#include "kstats_outlier.h"
#include "kstats_internal.h"
#include "kstats_pair.h"
#include "kstats_point.h"
#include "kstats_stack.h"

#include "kstats_test.h"

/* The outliers' lines of @o, as the distribution file shows them. */
static char *kstats_test_outliers_text(struct kunit *test,
				       struct kstats_outliers *o)
{
	struct seq_file m = { .size = 16384 };

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_ASSERT_EQ(test, kstats_outliers_show(o, &m, NULL, NULL, NULL), 0);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	return m.buf;
}

/*
 * @n samples of @v[] through the store, as a probe's handler would; its
 * own frame, which the stack a capture takes names.
 */
static noinline void kstats_test_outliers_feed(struct kstats_outliers *o,
					       const u64 *v, int n)
{
	int i;

	preempt_disable();
	for (i = 0; i < n; i++)
		kstats_outlier_check(o, v[i], 0, false, NULL);
	preempt_enable();
}

/*
 * The "# outliers" line @o's text must start with: @head, then the
 * stores' bytes, a store on each CPU online but @unstored.
 */
static void kstats_test_outliers_head(struct kunit *test,
				      struct kstats_outliers *o,
				      const char *text, const char *head,
				      unsigned int unstored)
{
	char want[160];

	snprintf(want, sizeof(want), "%s bytes %zu cpu_bytes %zu\n", head,
		 (num_online_cpus() - unstored) * o->cpu_bytes, o->cpu_bytes);
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(text, want, strlen(want)),
			      "want %s, got %s", want, text);
}

/* The values of the outlier lines of @text, at most @max of them. */
static int kstats_test_outlier_values(struct kunit *test, const char *text,
				      u64 *got, int max)
{
	const char *line = text;
	int n = 0;

	while ((line = strstr(line, "\noutlier ")) && n < max)
		KUNIT_EXPECT_EQ(test, sscanf(++line, "outlier %llu", &got[n++]), 1);
	return n;
}

/*
 * slow V keep M keeps the newest M of V or more, oldest first, and counts
 * the rest as dropped; top K the K largest, largest first, whatever their
 * order; reset forgets them; stack N keeps this function's frames.
 */
static void kstats_test_outliers(struct kunit *test)
{
	static const u64 v[] = { 5, 150, 99, 300, 100, 7, 1000, 250, 0, 400 };
	/* 150 300 100 1000 250 400 are >= 100: the newest 3 kept */
	static const u64 slow[] = { 1000, 250, 400 }, top[] = { 1000, 400, 300, 250 };
	struct kstats_outlier_cfg cfg = {
		.mode = KSTATS_OUTLIER_SLOW, .slow = 100, .keep = 3,
	};
	struct kstats_outliers *o;
	char *text;
	u64 got[4];
	int i;

	o = kstats_outliers_alloc(&cfg, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(o));
	kstats_test_outliers_feed(o, v, ARRAY_SIZE(v));
	text = kstats_test_outliers_text(test, o);
	/* an entry of 64 bytes at most, a CPU's store M of them */
	KUNIT_EXPECT_LE(test, o->cpu_bytes, 3 * 64UL);
	kstats_test_outliers_head(test, o, text,
				  "# outliers slow 100 keep 3 kept 3 dropped 3 stack 0",
				  0);
	KUNIT_ASSERT_EQ_MSG(test, kstats_test_outlier_values(test, text, got, 4),
			    3, "%s", text);
	for (i = 0; i < ARRAY_SIZE(slow); i++)
		KUNIT_EXPECT_EQ(test, got[i], slow[i]);
	kstats_outliers_reset(o);
	text = kstats_test_outliers_text(test, o);
	kstats_test_outliers_head(test, o, text,
				  "# outliers slow 100 keep 3 kept 0 dropped 0 stack 0",
				  0);
	KUNIT_EXPECT_NULL(test, strstr(text, "\noutlier "));
	kstats_outliers_free(o);

	cfg.mode = KSTATS_OUTLIER_TOP;
	cfg.keep = 4;
	cfg.stack = 8;
	o = kstats_outliers_alloc(&cfg, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(o));
	kstats_test_outliers_feed(o, v, ARRAY_SIZE(v));
	text = kstats_test_outliers_text(test, o);
	/* the entries with their 8 frames, the heap, the chains */
	KUNIT_EXPECT_LE(test, o->cpu_bytes, 4 * (64 + 8 * 8UL) + 4 * 2 + 4096);
	KUNIT_EXPECT_GT(test, o->cpu_bytes, 4 * 8 * 8UL + 4 * 2);
	kstats_test_outliers_head(test, o, text,
				  "# outliers top 4 kept 4 stack 8 dropped 0 cached 0",
				  0);
	KUNIT_ASSERT_EQ_MSG(test, kstats_test_outlier_values(test, text, got, 4),
			    4, "%s", text);
	for (i = 0; i < ARRAY_SIZE(top); i++)
		KUNIT_EXPECT_EQ(test, got[i], top[i]);
	/* the stack: root first, this feeder the last frame */
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, ";kstats_test_outliers_feed"),
				  "%s", text);
	/* the smallest kept is 250: 250 is no longer an outlier, 251 is */
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, kstats_outlier_wanted(o, 250));
	KUNIT_EXPECT_TRUE(test, kstats_outlier_wanted(o, 251));
	preempt_enable();
	kstats_outliers_free(o);
	/* no outliers: nothing kept, nothing asked */
	cfg.mode = KSTATS_OUTLIER_NONE;
	KUNIT_EXPECT_TRUE(test, !kstats_outliers_alloc(&cfg, false));
	KUNIT_EXPECT_FALSE(test, kstats_outlier_wanted(NULL, U64_MAX >> 1));
}

/* The outliers of @text are @want[], @n of them, in that order. */
static void kstats_test_outliers_are(struct kunit *test, const char *text,
				     const u64 *want, int n)
{
	u64 got[4];
	int i;

	KUNIT_ASSERT_EQ_MSG(test, kstats_test_outlier_values(test, text, got, 4),
			    n, "%s", text);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "%s", text);
}

/* Samples fed on one CPU, from smp_call_on_cpu(). */
struct kstats_test_feed {
	struct kstats_outliers *o;
	const u64 *v;
	int n;
};

static int kstats_test_feed_on(void *arg)
{
	struct kstats_test_feed *f = arg;

	kstats_test_outliers_feed(f->o, f->v, f->n);
	return 0;
}

/* Feed @v[] on CPU @cpu. */
static void kstats_test_feed_cpu(struct kunit *test, struct kstats_outliers *o,
				 int cpu, const u64 *v, int n)
{
	struct kstats_test_feed f = { .o = o, .v = v, .n = n };

	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(cpu, kstats_test_feed_on, &f,
					      false), 0);
}

/*
 * A read merges the CPUs' stores one entry at a time: slow's newest M of
 * all CPUs, top's K largest, whichever CPU kept them; a CPU with no store
 * keeps nothing and counts what it would have kept as dropped.
 */
static void kstats_test_outliers_cpus(struct kunit *test)
{
	static const u64 a[] = { 100, 101, 102, 103 }, b[] = { 200, 201, 202 };
	static const u64 c[] = { 5, 500, 7 }, d[] = { 300, 400, 1 };
	static const u64 e[] = { 500, 100, 101 }, top[] = { 500, 400, 300 };
	struct kstats_outlier_cfg cfg = {
		.mode = KSTATS_OUTLIER_SLOW, .slow = 100, .keep = 3,
	};
	struct kstats_outlier_cpu *pc;
	struct kstats_outliers *o;
	int cpu0, cpu1;
	void *entries;
	char *text;

	cpu0 = cpumask_first(cpu_online_mask);
	cpu1 = cpumask_next(cpu0, cpu_online_mask);
	if (cpu1 >= nr_cpu_ids)
		kunit_skip(test, "one CPU online: nothing to merge");
	o = kstats_outliers_alloc(&cfg, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(o));
	/* the newest 3 of 7: the second CPU's, then the first's newest */
	kstats_test_feed_cpu(test, o, cpu0, a, ARRAY_SIZE(a));
	kstats_test_feed_cpu(test, o, cpu1, b, ARRAY_SIZE(b));
	text = kstats_test_outliers_text(test, o);
	kstats_test_outliers_head(test, o, text,
				  "# outliers slow 100 keep 3 kept 3 dropped 4 stack 0",
				  0);
	kstats_test_outliers_are(test, text, b, 3);
	/* then the first CPU again: its newest are the newest of all */
	kstats_test_feed_cpu(test, o, cpu0, c + 1, 1);
	kstats_test_feed_cpu(test, o, cpu0, a, 2);
	text = kstats_test_outliers_text(test, o);
	kstats_test_outliers_are(test, text, e, 3);

	/* a CPU without its store: its 3 captures dropped, none kept */
	kstats_outliers_reset(o);
	pc = per_cpu_ptr(o->pcpu, cpu1);
	entries = pc->entries;
	WRITE_ONCE(pc->entries, NULL);
	kstats_test_feed_cpu(test, o, cpu1, b, ARRAY_SIZE(b));
	kstats_test_feed_cpu(test, o, cpu0, a, 1);
	text = kstats_test_outliers_text(test, o);
	kstats_test_outliers_head(test, o, text,
				  "# outliers slow 100 keep 3 kept 1 dropped 3 stack 0",
				  1);
	kstats_test_outliers_are(test, text, a, 1);
	WRITE_ONCE(pc->entries, entries);
	kstats_outliers_free(o);

	/* top 3 over two CPUs: 500, 400, 300, from both */
	cfg.mode = KSTATS_OUTLIER_TOP;
	o = kstats_outliers_alloc(&cfg, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(o));
	kstats_test_feed_cpu(test, o, cpu0, c, ARRAY_SIZE(c));
	kstats_test_feed_cpu(test, o, cpu1, d, ARRAY_SIZE(d));
	text = kstats_test_outliers_text(test, o);
	kstats_test_outliers_head(test, o, text,
				  "# outliers top 3 kept 3 stack 0 dropped 0", 0);
	kstats_test_outliers_are(test, text, top, 3);
	kstats_outliers_free(o);
}

#ifdef CONFIG_UNWINDER_ORC
/*
 * The stack as a return probe sees it when kstats_test_stack_leaf()
 * returns: its return address, the stack pointer past it, the caller's
 * %rbp (which the leaf saved under its frame pointer).
 */
static noinline unsigned int
kstats_test_stack_leaf(struct kstats_stack_cache *cache, unsigned long *frames)
{
	unsigned long *fp = __builtin_frame_address(0);

	return kstats_stack_at(cache, frames, KSTATS_STACK_MAX,
			       (unsigned long)__builtin_return_address(0),
			       (unsigned long)(fp + 2), fp[0], 0);
}

/* @reps stacks from one call site, each with its cache of @caches. */
static noinline void kstats_test_stack_caller(struct kstats_stack_cache **caches,
					      unsigned long (*frames)[KSTATS_STACK_MAX],
					      unsigned int *n, unsigned int reps)
{
	unsigned int i;

	for (i = 0; i < reps; i++)
		n[i] = kstats_test_stack_leaf(caches[i], frames[i]);
	barrier();	/* no tail call: this frame stays under the leaf's */
}

/* Whether @addr is in the function @name (of any module, any clone). */
static bool kstats_test_in(unsigned long addr, const char *name)
{
	char sym[KSYM_SYMBOL_LEN];
	size_t len = strlen(name);

	sprint_symbol_no_offset(sym, addr);
	return !strncmp(sym, name, len) && strchr(". ", sym[len]) && sym[len];
}

/*
 * kstats_stack_at(): a chain from the cache is the chain the unwinder
 * walks, frame for frame; other callers are another chain, not a hit.
 */
static void kstats_test_stack_cache(struct kunit *test)
{
	unsigned long (*frames)[KSTATS_STACK_MAX];
	struct kstats_stack_cache *caches[3];
	unsigned int n[3], reps;
	unsigned long first;

	caches[0] = NULL;
	caches[1] = kunit_kzalloc(test, sizeof(*caches[1]), GFP_KERNEL);
	caches[2] = caches[1];
	frames = kunit_kzalloc(test, 3 * sizeof(*frames), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, caches[1]);
	KUNIT_ASSERT_NOT_NULL(test, frames);

	/* unwound, unwound and cached, from the cache */
	reps = 3;
	OPTIMIZER_HIDE_VAR(reps);	/* one call site, not unrolled */
	preempt_disable();
	kstats_test_stack_caller(caches, frames, n, reps);
	preempt_enable();
	/* the leaf's return address, into its caller, then the test's */
	KUNIT_EXPECT_GE(test, n[0], 3U);
	KUNIT_EXPECT_TRUE(test, kstats_test_in(frames[0][0], "kstats_test_stack_caller"));
	KUNIT_EXPECT_TRUE(test, kstats_test_in(frames[0][1], "kstats_test_stack_cache"));
	KUNIT_EXPECT_EQ(test, n[1], n[0]);
	KUNIT_EXPECT_EQ(test, n[2], n[0]);
	KUNIT_EXPECT_EQ(test, memcmp(frames[1], frames[0], n[0] * sizeof(long)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(frames[2], frames[0], n[0] * sizeof(long)), 0);
	KUNIT_EXPECT_EQ(test, caches[1]->hits, 1ULL);

	/*
	 * The same site from another place in the test: the same first
	 * frame, other callers (a word that differs), so not a hit.
	 */
	first = frames[0][1];
	reps = 2;
	OPTIMIZER_HIDE_VAR(reps);
	preempt_disable();
	kstats_test_stack_caller(caches, frames, n, reps);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, kstats_test_in(frames[0][1], "kstats_test_stack_cache"));
	KUNIT_EXPECT_NE(test, frames[0][1], first);
	KUNIT_EXPECT_EQ(test, n[1], n[0]);
	KUNIT_EXPECT_EQ(test, memcmp(frames[1], frames[0], n[0] * sizeof(long)), 0);
	KUNIT_EXPECT_EQ(test, caches[1]->hits, 1ULL);
}
#endif

static struct kunit_case kstats_outlier_test_cases[] = {
	KUNIT_CASE(kstats_test_outliers),
	KUNIT_CASE(kstats_test_outliers_cpus),
#ifdef CONFIG_UNWINDER_ORC
	KUNIT_CASE(kstats_test_stack_cache),
#endif
	{}
};

struct kunit_suite kstats_outlier_suite = {
	.name = "kstats_outlier",
	.test_cases = kstats_outlier_test_cases,
};
