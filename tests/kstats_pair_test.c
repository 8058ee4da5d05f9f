// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_pair, of trace/kstats_pair.c: sections' pairing:
 * starts and ends by key, across CPUs, by the current task, nested,
 * concurrent, and a section's further starts.
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

/* The table of starts in flight: pairing, replacement, eviction, exit. */
static void kstats_test_pair(struct kunit *test)
{
	struct kstats_pair p = {};
	struct kstats_pair_counts c;
	u64 ts, k;
	u32 cpu, aux;

	KUNIT_EXPECT_EQ(test, kstats_pair_init(&p, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_pair_init(&p, KSTATS_PAIR_MAX + 1, 0), -EINVAL);
	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 1, 0), 0);
	/* The smallest table is one window: 8 starts, then evictions. */
	KUNIT_EXPECT_EQ(test, 1U << p.bits, KSTATS_PAIR_WINDOW);
	for (k = 0; k < KSTATS_PAIR_WINDOW; k++)
		kstats_pair_start(&p, k, 0, 100 + k, k, 0);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), (u64)KSTATS_PAIR_WINDOW);
	kstats_pair_start(&p, 1000, 0, 5000, 9, 77);
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.evicted, 1ULL);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), (u64)KSTATS_PAIR_WINDOW);
	/* The oldest (key 0, ts 100) went; the others pair with their own. */
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 0, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, 1000, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 5000ULL);
	KUNIT_EXPECT_EQ(test, cpu, 9U);
	KUNIT_EXPECT_EQ(test, aux, 77U);
	for (k = 1; k < KSTATS_PAIR_WINDOW; k++) {
		KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, k, 0, &ts, &cpu, &aux));
		KUNIT_EXPECT_EQ(test, ts, 100 + k);
		KUNIT_EXPECT_EQ(test, (u64)cpu, k);
	}
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	/* An end without start; a start replaced; a task that exits. */
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 42, 0, &ts, &cpu, &aux));
	kstats_pair_start(&p, 42, 0, 1, 0, 0);
	kstats_pair_start(&p, 42, 0, 2, 1, 0);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, 42, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 2ULL);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 42, 0, &ts, &cpu, &aux));
	kstats_pair_start(&p, 7, 0, 3, 0, 0);
	kstats_pair_forget(&p, 7);
	kstats_pair_forget(&p, 8);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 7, 0, &ts, &cpu, &aux));
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.replaced, 1ULL);
	KUNIT_EXPECT_EQ(test, c.exited, 1ULL);
	KUNIT_EXPECT_EQ(test, c.unmatched, 4ULL);
	KUNIT_EXPECT_EQ(test, c.evicted, 1ULL);
	kstats_pair_free(&p);

	/* Sized for N: 2N slots or more, N distinct keys all held. */
	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 1000, 0), 0);
	KUNIT_EXPECT_GE(test, 1U << p.bits, 2000U);
	for (k = 0; k < 1000; k++)
		kstats_pair_start(&p, k * 4096, 0, k, 0, 0);
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_LE(test, c.evicted, 5ULL);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p) + c.evicted, 1000ULL);
	kstats_pair_free(&p);
}

/*
 * A table of CPUs: a slot per possible CPU, each start held in its key's
 * alone (none evicted however many CPUs start at once), replaced by a
 * later one of the same CPU; a key that is no CPU is evicted at its
 * start and unmatched at its end; "inflight max" is the CPUs.
 */
static void kstats_test_pair_cpus(struct kunit *test)
{
	struct kstats_pair p = {};
	struct kstats_pair_counts c;
	u32 cpu, aux, n = 0;
	u64 ts;
	int k;

	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 1, KSTATS_PAIR_PER_CPU), 0);
	KUNIT_EXPECT_NULL(test, p.slots);
	KUNIT_EXPECT_EQ(test, p.inflight, num_possible_cpus());
	for_each_possible_cpu(k) {
		KUNIT_EXPECT_EQ(test, (unsigned long)per_cpu_ptr(p.cpu_slots, k) % 32, 0UL);
		KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, k, 0, 100 + k, k, k + 7));
		n++;
	}
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), (u64)n);
	k = cpumask_first(cpu_possible_mask);
	KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, k, 0, 5000, k, 1));
	KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, nr_cpu_ids, 0, 1, 0, 0));
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, nr_cpu_ids, 0, &ts, &cpu, &aux));
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.replaced, 1ULL);
	KUNIT_EXPECT_EQ(test, c.evicted, 1ULL);
	KUNIT_EXPECT_EQ(test, c.unmatched, 1ULL);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), (u64)n);
	for_each_possible_cpu(k) {
		KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, k, 0, &ts, &cpu, &aux));
		KUNIT_EXPECT_EQ(test, ts, k == cpumask_first(cpu_possible_mask) ?
				5000ULL : 100ULL + k);
		KUNIT_EXPECT_EQ(test, (int)cpu, k);
	}
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	/* a task's exit forgets no CPU's start */
	k = cpumask_first(cpu_possible_mask);
	kstats_pair_start(&p, k, 0, 9, k, 0);
	kstats_pair_forget(&p, (unsigned long)current);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	kstats_pair_free(&p);
}

/*
 * The test's one task, switched out by kstats_pair_switch(), runs as the
 * task switched in next: the slot's mark names another task as the one
 * switched out.
 */
static void kstats_test_switch_in(struct kstats_pair_slot *s)
{
	WRITE_ONCE(s->match, ~0UL);
}

/*
 * A table of tasks: the current task's start in its CPU's slot, taken
 * there by its end; moved into the table when the task leaves the CPU
 * (kstats_pair_switch()), found there by its end; a start of the task
 * switched out, between the switch's hook and the switch, in the table,
 * the slot left marked for the task that comes; replaced there by the
 * task's first start after the switch, so that a second end is
 * unmatched rather than paired with it; of a start held in the table
 * beside the slot's (a handler's, while another wrote the slot) and the
 * slot's, one counted as replaced when the slot's joins it or when the
 * task exits; a start another task left in the slot goes to the table;
 * a match value kept; other keys in the table alone.
 */
static void kstats_test_pair_current(struct kunit *test)
{
	struct kstats_pair p = {};
	struct kstats_pair_counts c;
	struct kstats_pair_slot *s;
	u64 ts, me = (unsigned long)current;
	u32 cpu, aux;

	KUNIT_EXPECT_EQ(test, kstats_pair_init(&p, 8, KSTATS_PAIR_CURRENT |
					       KSTATS_PAIR_OUTER), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_pair_init(&p, 8, KSTATS_PAIR_CURRENT |
					       KSTATS_PAIR_PER_CPU), -EINVAL);
	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 8, KSTATS_PAIR_CURRENT), 0);
	KUNIT_EXPECT_NOT_NULL(test, p.slots);
	preempt_disable();
	s = this_cpu_ptr(p.cur_slots);
	KUNIT_EXPECT_EQ(test, (unsigned long)s % 32, 0UL);
	/* in the slot, and out of it */
	KUNIT_EXPECT_TRUE(test, kstats_pair_start_current(&p, 10, 3));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->key), me);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_take_current(&p, &ts, &cpu));
	KUNIT_EXPECT_EQ(test, ts, 10ULL);
	KUNIT_EXPECT_EQ(test, cpu, 3U);
	KUNIT_EXPECT_FALSE(test, kstats_pair_take_current(&p, &ts, &cpu));
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, me, 0, &ts, &cpu, &aux));
	/* replaced in the slot; moved at a switch, the slot marked */
	kstats_pair_start_current(&p, 20, 0);
	kstats_pair_start_current(&p, 30, 0);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_switch(&p));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->key), KSTATS_PAIR_SWITCHED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->match), me);
	KUNIT_EXPECT_FALSE(test, kstats_pair_take_current(&p, &ts, &cpu));
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	/*
	 * a start of the task switched out, before the switch: into the
	 * table (replacing its older one there), the mark left as it was
	 */
	KUNIT_EXPECT_TRUE(test, kstats_pair_start_current(&p, 35, 0));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->key), KSTATS_PAIR_SWITCHED);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	kstats_test_switch_in(s);
	/* the task's first start after it replaces the older in the table */
	kstats_pair_start_current(&p, 40, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->key), me);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 40ULL);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, me, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	/* an end after the switch finds its start in the table */
	kstats_pair_start_current(&p, 45, 0);
	kstats_pair_switch(&p);
	kstats_test_switch_in(s);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 45ULL);
	/* a start in the table beside the slot's: replaced when it joins */
	kstats_pair_start_current(&p, 60, 0);
	KUNIT_EXPECT_TRUE(test, kstats_pair_start_table(&p, me, 0, 50, 0, 0));
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 2ULL);
	kstats_pair_switch(&p);
	kstats_test_switch_in(s);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 60ULL);
	/* or when the task exits: both dropped, one exited, one replaced */
	kstats_pair_start_current(&p, 70, 0);
	kstats_pair_start_table(&p, me, 0, 80, 0, 0);
	kstats_pair_forget(&p, me);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	/* another key: in the table; a start another task left in the slot */
	KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, me + 64, 0, 90, 1, 2));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->key), KSTATS_PAIR_EMPTY);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me + 64, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 90ULL);
	KUNIT_EXPECT_EQ(test, aux, 2U);
	s->ts = 5;
	s->match = 0;
	s->cpu = 0;
	s->aux = 0;
	WRITE_ONCE(s->key, me + 64);
	KUNIT_EXPECT_TRUE(test, kstats_pair_start_current(&p, 100, 0));
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me + 64, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 5ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_take_current(&p, &ts, &cpu));
	KUNIT_EXPECT_EQ(test, ts, 100ULL);
	/* a match value: only the end that carries it takes the start */
	KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, me, 7, 110, 0, 0));
	KUNIT_EXPECT_FALSE(test, kstats_pair_take_current(&p, &ts, &cpu));
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, me, 8, &ts, &cpu, &aux));
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, me, 7, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 110ULL);
	preempt_enable();
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.replaced, 5ULL);
	KUNIT_EXPECT_EQ(test, c.exited, 1ULL);
	KUNIT_EXPECT_EQ(test, c.unmatched, 3ULL);
	KUNIT_EXPECT_EQ(test, c.evicted, 0ULL);
	kstats_pair_free(&p);
}

/*
 * "nest outer" and "match": a lock wait that begins again inside itself
 * keeps its first start; an inner wait for another lock neither ends it
 * nor starts; only the end for the same lock pairs.
 */
static void kstats_test_pair_nest(struct kunit *test)
{
	struct kstats_pair p = {};
	struct kstats_pair_counts c;
	u64 ts, k;
	u32 cpu, aux;

	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 16, KSTATS_PAIR_OUTER), 0);
	kstats_pair_start(&p, 5, 0xa, 100, 0, 0);	/* mutex A: spin */
	kstats_pair_start(&p, 5, 0xa, 200, 0, 0);	/* mutex A: sleep */
	kstats_pair_start(&p, 5, 0xb, 300, 0, 0);	/* spinlock B inside */
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 5, 0xb, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 1ULL);
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, 5, 0xa, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 100ULL);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 5, 0xa, &ts, &cpu, &aux));
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.nested, 2ULL);
	KUNIT_EXPECT_EQ(test, c.unmatched, 2ULL);
	KUNIT_EXPECT_EQ(test, c.replaced, 0ULL);
	/* an exit forgets a start whatever it matches */
	kstats_pair_start(&p, 6, 0xc, 400, 0, 0);
	kstats_pair_forget(&p, 6);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	kstats_pair_free(&p);

	/* without nest outer, the newest start of a key is the one kept */
	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 16, 0), 0);
	kstats_pair_start(&p, 5, 0xa, 100, 0, 0);
	kstats_pair_start(&p, 5, 0xb, 300, 0, 0);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 5, 0xa, &ts, &cpu, &aux));
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, 5, 0xb, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 300ULL);
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.replaced, 1ULL);
	KUNIT_EXPECT_EQ(test, c.nested, 0ULL);
	kstats_pair_free(&p);

	/* full refuse: the oldest starts stay, the newest is refused */
	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 1, KSTATS_PAIR_REFUSE), 0);
	for (k = 0; k < KSTATS_PAIR_WINDOW; k++)
		KUNIT_EXPECT_TRUE(test, kstats_pair_start(&p, k, 0, 100 + k, 0, 0));
	KUNIT_EXPECT_FALSE(test, kstats_pair_start(&p, 1000, 0, 5000, 0, 0));
	KUNIT_EXPECT_TRUE(test, kstats_pair_end(&p, 0, 0, &ts, &cpu, &aux));
	KUNIT_EXPECT_EQ(test, ts, 100ULL);
	KUNIT_EXPECT_FALSE(test, kstats_pair_end(&p, 1000, 0, &ts, &cpu, &aux));
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.evicted, 0ULL);
	kstats_pair_free(&p);
}

struct pair_worker {
	struct kstats_pair *p;
	struct completion done;
	u64 key0;
	u64 found;
};

static int pair_worker_fn(void *data)
{
	struct pair_worker *w = data;
	u64 i, ts;
	u32 cpu, aux;

	for (i = 0; i < 200000; i++) {
		u64 k = w->key0 + (i & 15);

		kstats_pair_start(w->p, k, 0, i, raw_smp_processor_id(), 0);
		if (kstats_pair_end(w->p, k, 0, &ts, &cpu, &aux) && ts == i)
			w->found++;
	}
	complete(&w->done);
	return 0;
}

/* Every CPU pairs its own keys at once: nothing lost, nothing left. */
static void kstats_test_pair_concurrent(struct kunit *test)
{
	struct kstats_pair p = {};
	struct kstats_pair_counts c;
	struct pair_worker *w;
	unsigned int n = 0, i;
	int cpu;

	KUNIT_ASSERT_EQ(test, kstats_pair_init(&p, 64, 0), 0);
	w = kunit_kcalloc(test, nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	for_each_online_cpu(cpu) {
		struct task_struct *tk;

		w[n].p = &p;
		w[n].key0 = (u64)cpu << 32;
		init_completion(&w[n].done);
		tk = kthread_create(pair_worker_fn, &w[n], "kstats_pair/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tk));
		kthread_bind(tk, cpu);
		wake_up_process(tk);
		n++;
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&w[i].done);
		KUNIT_EXPECT_EQ(test, w[i].found, 200000ULL);
	}
	kstats_pair_counts(&p, &c);
	KUNIT_EXPECT_EQ(test, c.unmatched + c.replaced + c.evicted, 0ULL);
	KUNIT_EXPECT_EQ(test, kstats_pair_pending(&p), 0ULL);
	kstats_pair_free(&p);
}

/*
 * A section's further starts: up to three starts before the end, each with
 * its own key, filters and (with a value by) its own family key; options
 * before the first start hold at every point.
 */
static void kstats_test_section_starts(struct kunit *test)
{
	static const char * const bad[] = {
		"trace s start a start b start c start d end e",
		"trace s start a end b start c",
		"trace s start a end b end c",
		/* a value by is read at each start: each names its own */
		"trace s start a by arg0 start b end c",
		/* a further start's by only after a value by at the first */
		"trace s start a start b by arg1 end c",
		"trace s start a by pid start b by arg1 end c",
		"trace s start a by arg0 start b by comm end c",
		"trace s start a by arg0 start b by arg1 by arg2 end c",
		/* match at every point or none */
		"trace s start a match arg0 start b end c match arg0",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[128];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test,
			parse(test,
			      "trace rq start tp:s:w key arg0 by arg0+8:s4 start tp:s:n key arg0 by arg0+8:s4 start tp:s:x key arg1 if arg1+24:4 == 0 by arg1+8:s4 end tp:s:x key arg2",
			      cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->start, "tp:s:w");
	KUNIT_ASSERT_EQ(test, cmd->nr_more, 2U);
	KUNIT_EXPECT_STREQ(test, cmd->more[0], "tp:s:n");
	KUNIT_EXPECT_STREQ(test, cmd->more[1], "tp:s:x");
	KUNIT_EXPECT_STREQ(test, cmd->end, "tp:s:x");
	kstats_key_format(&cmd->point[KSTATS_POINT_END + 2].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1");
	kstats_key_format(&cmd->point[KSTATS_POINT_END].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg2");
	kstats_filter_format(&cmd->point[KSTATS_POINT_END + 2].filter, buf,
			     sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "if arg1+24:4 == 0");
	KUNIT_EXPECT_TRUE(test, kstats_filter_is_empty(&cmd->point[KSTATS_POINT_END + 1].filter));
	kstats_by_format(&cmd->point[KSTATS_POINT_END + 2].by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1+8:s4");
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0+8:s4");

	/* Before the first start: every point's key, match and filters. */
	KUNIT_ASSERT_EQ(test,
			parse(test,
			      "trace s key cpu match arg0 comm k start a start b start c end d",
			      cmd), 0);
	for (i = 0; i < KSTATS_SECTION_POINTS; i++) {
		KUNIT_EXPECT_EQ(test, cmd->point[i].key.kind, KSTATS_KEY_CPU);
		KUNIT_EXPECT_TRUE(test, cmd->point[i].has_match);
		KUNIT_EXPECT_STREQ(test, cmd->point[i].filter.comm, "k");
	}
	/* A node-wide by (comm, pid, tid, cpu) holds at every start. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a by pid start b end c",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->point[KSTATS_POINT_END + 1].by.kind,
			KSTATS_BY_NONE);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

static struct kunit_case kstats_pair_test_cases[] = {
	KUNIT_CASE(kstats_test_pair),
	KUNIT_CASE(kstats_test_pair_cpus),
	KUNIT_CASE(kstats_test_pair_current),
	KUNIT_CASE(kstats_test_pair_nest),
	KUNIT_CASE(kstats_test_pair_concurrent),
	KUNIT_CASE(kstats_test_section_starts),
	{}
};

struct kunit_suite kstats_pair_suite = {
	.name = "kstats_pair",
	.test_cases = kstats_pair_test_cases,
};
