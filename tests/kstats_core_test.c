// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_core, of core/kstats.c, kstats.h, kstats_bucket.h:
 * the core: the bucket math against an independent reference, recording
 * and reading, percentiles, per-CPU recording and its extremes, names,
 * reset, the negative side, chained stages, scopes and kstats_read().
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

/*
 * The reference: the lower bounds of every slot, built by walking the
 * range (exact slots of width 1, then 2^k slots of width 2^(p-k) for each
 * power of two 2^p), not by the formulas under test.
 */
static u64 *ref_bounds(struct kunit *test, unsigned int k, u32 *n)
{
	u64 *lo = kunit_kcalloc(test, 65 << k, sizeof(u64), GFP_KERNEL);
	u64 v = 0;
	u32 s = 0, i;
	unsigned int p;

	KUNIT_ASSERT_NOT_NULL(test, lo);
	for (i = 0; i < (1U << k); i++)
		lo[s++] = v++;
	for (p = k; p < 64; p++) {
		for (i = 0; i < (1U << k); i++) {
			lo[s++] = v;
			v += 1ULL << (p - k);
		}
	}
	*n = s;
	return lo;
}

/* Largest s with lo[s] <= v, by binary search. */
static u32 ref_slot(const u64 *lo, u32 n, u64 v)
{
	u32 a = 0, b = n;

	while (b - a > 1) {
		u32 m = a + (b - a) / 2;

		if (lo[m] <= v)
			a = m;
		else
			b = m;
	}
	return a;
}

static void kstats_test_slot_reference(struct kunit *test)
{
	unsigned int k, j;

	for (k = 0; k <= KSTATS_MAX_FRAC_BITS; k++) {
		u32 n, checked = 0;
		u64 *lo = ref_bounds(test, k, &n);
		u64 probes[] = { 0, 1, U64_MAX, U64_MAX - 1 };

		KUNIT_EXPECT_EQ(test, n, kstats_nr_slots(k));
		for (j = 0; j < ARRAY_SIZE(probes); j++) {
			KUNIT_EXPECT_EQ_MSG(test, kstats_slot(probes[j], k),
					    ref_slot(lo, n, probes[j]),
					    "k=%u v=%llu", k, probes[j]);
			checked++;
		}
		for (j = 0; j < 64; j++) {
			u64 p = 1ULL << j, v[] = { p - 1, p, p + 1 };
			unsigned int i;

			for (i = 0; i < ARRAY_SIZE(v); i++) {
				KUNIT_EXPECT_EQ_MSG(test, kstats_slot(v[i], k),
						    ref_slot(lo, n, v[i]),
						    "k=%u v=%llu", k, v[i]);
				checked++;
			}
		}
		KUNIT_EXPECT_EQ(test, checked, 4U + 64 * 3);
	}
}

static void kstats_test_slot_tiling(struct kunit *test)
{
	unsigned int k;

	for (k = 0; k <= KSTATS_MAX_FRAC_BITS; k++) {
		u32 s, n = kstats_nr_slots(k);

		KUNIT_EXPECT_EQ(test, kstats_slot_lo(0, k), 0ULL);
		KUNIT_EXPECT_EQ(test, kstats_slot_hi(n - 1, k), U64_MAX);
		for (s = 0; s < n; s++) {
			u64 lo = kstats_slot_lo(s, k), hi = kstats_slot_hi(s, k);

			KUNIT_ASSERT_LE(test, lo, hi);
			KUNIT_EXPECT_EQ(test, kstats_slot(lo, k), s);
			KUNIT_EXPECT_EQ(test, kstats_slot(hi, k), s);
			if (s + 1 < n)
				KUNIT_EXPECT_EQ_MSG(test, kstats_slot_lo(s + 1, k),
						    hi + 1, "gap after k=%u s=%u",
						    k, s);
		}
	}
}

static void kstats_test_slot_avg(struct kunit *test)
{
	unsigned int k = 3, shift;
	u64 v = 1000003, sum = 0, hi;
	u32 s = kstats_locate(v, k, &shift);
	int i;

	/* Three samples in one slot whose width keeps offsets unscaled. */
	for (i = 0; i < 3; i++)
		sum += kstats_sum_term(v + i, shift);
	KUNIT_EXPECT_EQ(test, kstats_slot_avg(s, k, 3, sum), v + 1);
	KUNIT_EXPECT_EQ(test, kstats_slot_total(s, k, 3, sum, &hi), 3 * v + 3);
	KUNIT_EXPECT_EQ(test, hi, 0ULL);

	/* The largest values: the 128-bit total and the average hold. */
	s = kstats_locate(U64_MAX, k, &shift);
	sum = 1000 * kstats_sum_term(U64_MAX, shift);
	KUNIT_EXPECT_EQ(test, kstats_slot_total(s, k, 1000, sum, &hi),
			-(1000ULL << (60 - KSTATS_SUM_BITS)));
	KUNIT_EXPECT_EQ(test, hi, 999ULL);
	v = kstats_slot_avg(s, k, 1000, sum);
	KUNIT_EXPECT_GE(test, v, kstats_slot_lo(s, k));
	KUNIT_EXPECT_GE(test, v, U64_MAX - (1ULL << (63 - k - KSTATS_SUM_BITS)));

	KUNIT_EXPECT_EQ(test, kstats_rank(1000, 999, 1000), 999ULL);
	KUNIT_EXPECT_EQ(test, kstats_rank(1, 50, 100), 1ULL);
	KUNIT_EXPECT_EQ(test, kstats_rank(U64_MAX, 1, 2), 1ULL << 63);
	KUNIT_EXPECT_EQ(test, kstats_ppm(1, 3), 333333ULL);
	KUNIT_EXPECT_EQ(test, kstats_ppm(U64_MAX, U64_MAX), 1000000ULL);
}

static void kstats_test_record_read(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_record", 5, 0);
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	u64 v;

	for (v = 1; v <= 100; v++)
		kstats_record(ks, v);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 100ULL);
	KUNIT_EXPECT_EQ(test, snap.nr_slots, kstats_nr_slots(5));
	KUNIT_EXPECT_EQ(test, snap.slot_samples[0], 0ULL);
	KUNIT_EXPECT_EQ(test, snap.slot_samples[31], 1ULL);
	/* 64..127 have slots of width 2: 90 and 91 share one. */
	KUNIT_EXPECT_EQ(test, snap.slot_samples[kstats_slot(90, 5)], 2ULL);
	KUNIT_EXPECT_EQ(test, sum.samples, 100ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 1ULL);
	KUNIT_EXPECT_EQ(test, sum.p50, 50ULL);
	KUNIT_EXPECT_EQ(test, sum.p90, 91ULL);
	KUNIT_EXPECT_EQ(test, sum.p99, 99ULL);
	/* the slot [100, 101] holds rank 1000: no percentile above max */
	KUNIT_EXPECT_EQ(test, sum.p999, 100ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 100ULL);
	KUNIT_EXPECT_EQ(test, sum.mean, 50ULL);
	KUNIT_EXPECT_EQ(test, snap.missed, 0ULL);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

static void kstats_test_stop_start_reset(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_state", 3, 0);
	struct kstats_snapshot snap;
	struct kstats_summary sum;

	kstats_record(ks, 7);
	kstats_stop(ks);
	/* nor in the extremes: the scratch area's, which no sample passes */
	kstats_record(ks, 3);
	kstats_record(ks, 800);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 1ULL);
	KUNIT_EXPECT_FALSE(test, kstats_is_active(ks));
	kstats_snapshot_free(&snap);

	kstats_start(ks);
	kstats_record(ks, 9);
	kstats_record_missed(ks);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 2ULL);
	KUNIT_EXPECT_EQ(test, snap.missed, 1ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 7ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 9ULL);
	kstats_snapshot_free(&snap);

	kstats_reset(ks);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 0ULL);
	KUNIT_EXPECT_EQ(test, snap.missed, 0ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 0ULL);
	KUNIT_EXPECT_EQ(test, sum.p50, 0ULL);
	kstats_snapshot_free(&snap);

	/* the extremes went with the samples: 8 is both */
	kstats_record(ks, 8);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, sum.min, 8ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 8ULL);
	KUNIT_EXPECT_EQ(test, snap.min, 8ULL);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

/* kstats_record_bits() records like kstats_record(), even with wrong bits. */
static void kstats_test_record_bits(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_bits", 1, 0);
	struct kstats_snapshot snap;
	struct kstats_summary sum;

	kstats_record_bits(ks, 1000, 1);
	/* 5 would index past a frac_bits 1 histogram: must fall back. */
	kstats_record_bits(ks, U64_MAX, 5);
	kstats_record(ks, 3);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 3ULL);
	KUNIT_EXPECT_EQ(test, snap.slot_samples[kstats_slot(1000, 1)], 1ULL);
	KUNIT_EXPECT_EQ(test, snap.slot_samples[kstats_slot(U64_MAX, 1)], 1ULL);
	KUNIT_EXPECT_EQ(test, snap.slot_samples[kstats_slot(3, 1)], 1ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 3ULL);
	KUNIT_EXPECT_EQ(test, sum.max, U64_MAX);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

static void kstats_test_summary_known(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_summary", 3, 0);
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	int i;

	for (i = 0; i < 900; i++)
		kstats_record(ks, 10);
	for (i = 0; i < 90; i++)
		kstats_record(ks, 1000);
	for (i = 0; i < 9; i++)
		kstats_record(ks, 100000);
	kstats_record(ks, 10000000);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, sum.samples, 1000ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 10ULL);
	KUNIT_EXPECT_EQ(test, sum.p50, 10ULL);		/* exact slot */
	KUNIT_EXPECT_EQ(test, sum.p90, 10ULL);		/* rank 900 */
	KUNIT_EXPECT_EQ(test, sum.p99, 1023ULL);	/* slot [960, 1023] */
	KUNIT_EXPECT_EQ(test, sum.p999, 106495ULL);	/* [98304, 106495] */
	KUNIT_EXPECT_EQ(test, sum.max, 10000000ULL);	/* exact */
	KUNIT_EXPECT_EQ(test, sum.mean, 10999ULL);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

static void kstats_test_range(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_range", 3, 1000);
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	u32 last;

	kstats_record(ks, 5);
	kstats_record(ks, 1000);
	kstats_record(ks, 1023);
	kstats_record(ks, 1024);
	kstats_record(ks, 5000);
	take(test, ks, &snap, &sum);
	/* the largest sample as it was, above the range too */
	KUNIT_EXPECT_EQ(test, sum.max, 5000ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 5ULL);
	kstats_snapshot_free(&snap);
	kstats_record(ks, U64_MAX);
	take(test, ks, &snap, &sum);
	last = snap.nr_slots - 1;
	/* 1000 is in [960, 1023]: the overflow slot starts at 1024. */
	KUNIT_EXPECT_EQ(test, ks->clamp, 1024ULL);
	KUNIT_EXPECT_EQ(test, last, kstats_slot(1024, 3));
	KUNIT_EXPECT_LT(test, snap.nr_slots, kstats_nr_slots(3));
	KUNIT_EXPECT_EQ(test, snap.slot_samples[last], 3ULL);
	KUNIT_EXPECT_EQ(test, snap.slot_samples[kstats_slot(1000, 3)], 2ULL);
	KUNIT_EXPECT_EQ(test, kstats_snapshot_slot_hi(&snap, last), U64_MAX);
	KUNIT_EXPECT_EQ(test, sum.max, U64_MAX);
	KUNIT_EXPECT_EQ(test, sum.p50, 1023ULL);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

#define PERCPU_SAMPLES	20000

struct percpu_job {
	struct kstats *ks;
	struct completion done;
};

static int percpu_recorder(void *data)
{
	struct percpu_job *job = data;
	int i;

	for (i = 0; i < PERCPU_SAMPLES; i++)
		kstats_record(job->ks, i);
	complete(&job->done);
	return 0;
}

static void kstats_test_percpu(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_percpu", 2, 0);
	struct percpu_job *jobs;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	unsigned int cpu, nr = 0;
	u32 row;

	jobs = kunit_kcalloc(test, nr_cpu_ids, sizeof(*jobs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, jobs);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		jobs[cpu].ks = ks;
		init_completion(&jobs[cpu].done);
		t = kthread_create_on_cpu(percpu_recorder, &jobs[cpu], cpu,
					  "kstats_test/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		wake_up_process(t);
		wait_for_completion(&jobs[cpu].done);
		nr++;
	}
	cpus_read_unlock();

	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, (u64)nr * PERCPU_SAMPLES);
	for (row = 0; row < snap.nr_cpus; row++)
		if (cpu_online(snap.cpu[row]))
			KUNIT_EXPECT_EQ_MSG(test, snap.cpu_samples[row],
					    (u64)PERCPU_SAMPLES, "cpu %u",
					    snap.cpu[row]);
	KUNIT_EXPECT_EQ(test, sum.mean, (u64)(PERCPU_SAMPLES - 1) / 2);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

struct extremes_job {
	struct kstats *ks;
	u64 base;
	struct completion done;
};

/* Ten samples from @base, on the CPU the job is bound to. */
static int extremes_recorder(void *data)
{
	struct extremes_job *job = data;
	u64 v;

	for (v = job->base + 9; v >= job->base; v--)
		kstats_record(job->ks, v);
	complete(&job->done);
	return 0;
}

/*
 * min and max are the samples themselves, not their slots' bounds; each
 * CPU keeps its own, and the reader takes the smallest and the largest.
 */
static void kstats_test_extremes(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_extremes", 3, 0);
	struct kstats_extremes *e;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	struct extremes_job *jobs;
	unsigned int cpu, first = nr_cpu_ids, last = 0;
	int i;

	/* reads of exactly 4096 bytes: the slot is [4096, 4607] */
	for (i = 0; i < 50; i++)
		kstats_record(ks, 4096);
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, kstats_slot_hi(kstats_slot(4096, 3), 3), 4607ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 4096ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 4096ULL);
	KUNIT_EXPECT_EQ(test, sum.p50, 4096ULL);
	KUNIT_EXPECT_EQ(test, sum.p999, 4096ULL);
	KUNIT_EXPECT_EQ(test, sum.mean, 4096ULL);
	kstats_snapshot_free(&snap);

	/* every online CPU records ten of its own, from 1000 * (cpu + 1) */
	kstats_reset(ks);
	jobs = kunit_kcalloc(test, nr_cpu_ids, sizeof(*jobs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, jobs);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		jobs[cpu].ks = ks;
		jobs[cpu].base = 1000ULL * (cpu + 1);
		init_completion(&jobs[cpu].done);
		t = kthread_create_on_cpu(extremes_recorder, &jobs[cpu], cpu,
					  "kstats_test/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		wake_up_process(t);
		wait_for_completion(&jobs[cpu].done);
		first = min(first, cpu);
		last = max(last, cpu);
	}
	cpus_read_unlock();
	for_each_online_cpu(cpu) {
		e = per_cpu_ptr(kstats_extremes(ks->hist), cpu);
		KUNIT_EXPECT_EQ_MSG(test, e->min, 1000ULL * (cpu + 1), "cpu %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, e->max, 1000ULL * (cpu + 1) + 9,
				    "cpu %u", cpu);
	}
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, sum.min, 1000ULL * (first + 1));
	KUNIT_EXPECT_EQ(test, sum.max, 1000ULL * (last + 1) + 9);
	kstats_snapshot_free(&snap);

	/* a word already past the sample stays: 5 is kept, 3 taken */
	kstats_reset(ks);
	preempt_disable();
	kstats_record(ks, 5);
	kstats_note_extremes(ks->hist, 10);
	KUNIT_EXPECT_EQ(test, this_cpu_ptr(kstats_extremes(ks->hist))->min, 5ULL);
	KUNIT_EXPECT_EQ(test, this_cpu_ptr(kstats_extremes(ks->hist))->max, 10ULL);
	kstats_note_extremes(ks->hist, 3);
	KUNIT_EXPECT_EQ(test, this_cpu_ptr(kstats_extremes(ks->hist))->min, 3ULL);
	KUNIT_EXPECT_EQ(test, this_cpu_ptr(kstats_extremes(ks->hist))->max, 10ULL);
	preempt_enable();

	/*
	 * Extremes the slots do not hold (a sample a reset took from the
	 * slots, or one recorded while the snapshot was taken): the summary
	 * stays within the slots that hold samples, at their bounds.
	 */
	kstats_reset(ks);
	preempt_disable();
	kstats_record(ks, 100);
	e = this_cpu_ptr(kstats_extremes(ks->hist));
	e->min = 1;
	e->max = 5000;
	preempt_enable();
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, sum.min, kstats_slot_lo(kstats_slot(100, 3), 3));
	KUNIT_EXPECT_EQ(test, sum.max, kstats_slot_hi(kstats_slot(100, 3), 3));
	KUNIT_EXPECT_EQ(test, sum.p50, sum.max);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

/*
 * A reset racing a recorder can zero a slot's count but not its sum (or
 * the reverse): made here by hand on this CPU's row.  A snapshot must still
 * give every slot an average within the slot, and a mean within the range.
 */
static void kstats_test_torn_reset(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_torn", 3, 0);
	const u64 v = 1000000007ULL;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	u32 slot = kstats_slot(v, 3), row;
	int i;

	preempt_disable();
	for (i = 0; i < 100; i++)
		kstats_record(ks, v);
	/* The reset zeroed the count; one sample landed after it. */
	this_cpu_ptr(ks->hist)[slot].count = 1;
	preempt_enable();
	take(test, ks, &snap, &sum);
	KUNIT_EXPECT_EQ(test, snap.samples, 1ULL);
	for (row = 0; row < snap.nr_cpus; row++) {
		size_t c = (size_t)row * snap.nr_slots + slot;
		u64 avg = kstats_slot_avg(slot, 3, snap.count[c], snap.sum[c]);

		if (!snap.count[c])
			continue;
		KUNIT_EXPECT_GE(test, avg, kstats_slot_lo(slot, 3));
		KUNIT_EXPECT_LE(test, avg, kstats_slot_hi(slot, 3));
		KUNIT_EXPECT_LE(test, snap.sum[c], kstats_sum_max(snap.count[c]));
	}
	KUNIT_EXPECT_GE(test, sum.mean, sum.min);
	KUNIT_EXPECT_LE(test, sum.mean, sum.max);
	kstats_snapshot_free(&snap);
	kstats_delete(ks);
}

/*
 * The last reference may go in atomic context: kstats_put() under a
 * spinlock with interrupts off must not sleep (DEBUG_ATOMIC_SLEEP would
 * say so), and the distribution must be gone from the list at once.
 */
static void kstats_test_atomic_put(struct kunit *test)
{
	struct kstats *ks = test_new(test, "kunit_put", 3, 0);
	DEFINE_SPINLOCK(lock);
	unsigned long flags;

	KUNIT_ASSERT_PTR_EQ(test, kstats_get("kunit_put"), ks);
	kstats_delete(ks);
	KUNIT_EXPECT_NULL(test, kstats_get("kunit_put"));
	/* Still ours to record into until the last put. */
	kstats_record(ks, 42);
	spin_lock_irqsave(&lock, flags);
	kstats_put(ks);
	spin_unlock_irqrestore(&lock, flags);
}

static void kstats_test_names(struct kunit *test)
{
	static const char * const good[] = { "a", "tx_path", "A.b-c_9",
		"__do_sys_getppid", "_controller", "_errors2",
		"x123456789012345678901234567890123456789012345678901234567890ab" };
	static const char * const bad[] = { "", "_control", "_errors", ".hidden", "..",
		"a/b", "a b", "tab\tname", "caf\xc3\xa9", "all",
		"x123456789012345678901234567890123456789012345678901234567890abc" };
	struct kstats_config cfg = { .name = "kunit_dup", .frac_bits = 3 };
	struct kstats *ks, *dup;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, kstats_check_name(good[i]), 0,
				    "'%s'", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kstats_check_name(bad[i]), -EINVAL,
				    "'%s'", bad[i]);
	KUNIT_EXPECT_EQ(test, kstats_check_name(NULL), -EINVAL);

	ks = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ks));
	dup = kstats_new("kunit_dup", 2);
	KUNIT_EXPECT_EQ(test, PTR_ERR(dup), -EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, kstats_get("kunit_dup"), ks);
	kstats_put(ks);
	kstats_delete(ks);
	KUNIT_EXPECT_NULL(test, kstats_get("kunit_dup"));

	KUNIT_EXPECT_EQ(test, PTR_ERR(kstats_new("kunit_bits", 6)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(kstats_new("a/b", 3)), -EINVAL);
	cfg.name = "kunit_clock";
	cfg.clock = 42;
	KUNIT_EXPECT_EQ(test, PTR_ERR(kstats_new_config(&cfg)), -EINVAL);
}

/* Negative values are counted apart, with their errno. */
static void kstats_test_negative(struct kunit *test)
{
	struct kstats_config cfg = { .name = "kunit_neg", .frac_bits = 3,
				     .clock = KSTATS_CLOCK_NONE };
	struct kstats_neg_summary sum;
	struct kstats_snapshot snap;
	struct kstats *ks;
	u64 *errs;
	int i;

	errs = kunit_kcalloc(test, KSTATS_MAX_ERRNO + 1, sizeof(u64),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, errs);
	ks = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ks));
	for (i = 0; i < 3; i++)
		kstats_record_signed(ks, -9);
	kstats_record_signed(ks, -14);
	kstats_record_signed(ks, -5000);
	kstats_record_signed(ks, -4095);
	kstats_record_signed(ks, 7);
	kstats_negative_read(ks, &sum, errs);
	KUNIT_EXPECT_EQ(test, sum.count, 6ULL);
	KUNIT_EXPECT_EQ(test, sum.min, -5000LL);
	KUNIT_EXPECT_EQ(test, sum.max, -9LL);
	KUNIT_EXPECT_EQ(test, errs[9], 3ULL);
	KUNIT_EXPECT_EQ(test, errs[14], 1ULL);
	KUNIT_EXPECT_EQ(test, errs[4095], 1ULL);
	KUNIT_EXPECT_EQ(test, errs[0] + errs[1] + errs[10], 0ULL);
	KUNIT_ASSERT_EQ(test, kstats_snapshot_take(ks, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.samples, 1ULL);
	KUNIT_EXPECT_EQ(test, snap.missed, 0ULL);
	kstats_snapshot_free(&snap);
	/* Stopped: not counted; reset: forgotten. */
	kstats_stop(ks);
	kstats_record_signed(ks, -9);
	kstats_start(ks);
	kstats_negative_read(ks, &sum, errs);
	KUNIT_EXPECT_EQ(test, sum.count, 6ULL);
	kstats_reset(ks);
	kstats_negative_read(ks, &sum, errs);
	KUNIT_EXPECT_EQ(test, sum.count, 0ULL);
	KUNIT_EXPECT_EQ(test, sum.min, 0LL);
	KUNIT_EXPECT_EQ(test, sum.max, 0LL);
	KUNIT_EXPECT_EQ(test, errs[9], 0ULL);
	kstats_record_signed(ks, -2);
	kstats_negative_read(ks, &sum, NULL);
	KUNIT_EXPECT_EQ(test, sum.min, -2LL);
	KUNIT_EXPECT_EQ(test, sum.max, -2LL);
	kstats_delete(ks);
}

/* The one non-empty slot of @ks: its index, count and average. */
static void one_slot(struct kunit *test, struct kstats *ks, u32 *slot,
		     u64 *n, u64 *avg)
{
	struct kstats_snapshot snap;
	u64 count = 0, sum = 0;
	u32 row, s, found = 0;

	KUNIT_ASSERT_EQ(test, kstats_snapshot_take(ks, &snap), 0);
	for (s = 0; s < snap.nr_slots; s++) {
		if (!snap.slot_samples[s])
			continue;
		found++;
		*slot = s;
		for (row = 0; row < snap.nr_cpus; row++) {
			count += snap.count[(size_t)row * snap.nr_slots + s];
			sum += snap.sum[(size_t)row * snap.nr_slots + s];
		}
	}
	KUNIT_EXPECT_EQ(test, found, 1U);
	*n = count;
	*avg = count ? kstats_slot_avg(*slot, snap.frac_bits, count, sum) : 0;
	kstats_snapshot_free(&snap);
}

/* Stages chained with one clock read each record their own differences. */
static void kstats_test_record_since(struct kunit *test)
{
	struct kstats_config cfg = { .frac_bits = 5, .clock = KSTATS_CLOCK_KTIME };
	struct kstats *a, *b;
	u64 t0, t1, t2, n, avg;
	u32 slot;
	int i;

	cfg.name = "kunit_since_a";
	a = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	cfg.name = "kunit_since_b";
	b = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));

	t0 = kstats_now(a);
	for (i = 0; i < 1000; i++)
		cpu_relax();
	t1 = kstats_record_since(a, t0);
	for (i = 0; i < 3000; i++)
		cpu_relax();
	t2 = kstats_record_since(b, t1);
	KUNIT_EXPECT_GT(test, t1, t0);
	KUNIT_EXPECT_GT(test, t2, t1);

	one_slot(test, a, &slot, &n, &avg);
	KUNIT_EXPECT_EQ(test, n, 1ULL);
	KUNIT_EXPECT_EQ(test, slot, kstats_slot(t1 - t0, 5));
	KUNIT_EXPECT_EQ(test, avg, t1 - t0);
	one_slot(test, b, &slot, &n, &avg);
	KUNIT_EXPECT_EQ(test, n, 1ULL);
	KUNIT_EXPECT_EQ(test, slot, kstats_slot(t2 - t1, 5));
	KUNIT_EXPECT_EQ(test, avg, t2 - t1);
	kstats_delete(a);
	kstats_delete(b);
}

static noinline int scoped(struct kstats *ks, bool early)
{
	kstats_scope(ks);

	if (early)
		return 1;
	cpu_relax();
	return 0;
}

#ifdef DEFINE_CLASS
static noinline int guarded(struct kstats *ks, bool early)
{
	guard(kstats)(ks);

	if (early)
		return 1;
	cpu_relax();
	return 0;
}
#endif

/* A scope records once on every way out of it. */
static void kstats_test_scope(struct kunit *test)
{
	struct kstats_config cfg = { .name = "kunit_scope", .frac_bits = 3 };
	struct kstats_summary sum;
	u64 want = 0;
	struct kstats *ks;
	int i;

	ks = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ks));
	KUNIT_EXPECT_EQ(test, scoped(ks, true), 1);
	KUNIT_EXPECT_EQ(test, scoped(ks, false), 0);
	want += 2;
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.samples, want);
#ifdef DEFINE_CLASS
	KUNIT_EXPECT_EQ(test, guarded(ks, true), 1);
	KUNIT_EXPECT_EQ(test, guarded(ks, false), 0);
	want += 2;
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.samples, want);
#endif
	/* Each pass of a loop body, continue and break included. */
	for (i = 0; i < 10; i++) {
		kstats_scope(ks);

		if (i == 3)
			continue;
		if (i == 6)
			break;
	}
	want += 7;
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.samples, want);
	kstats_delete(ks);
}

/* kstats_read() gives the figures of the file's summary line. */
static void kstats_test_read(struct kunit *test)
{
	struct kstats_config cfg = { .name = "kunit_read", .frac_bits = 3,
				     .clock = KSTATS_CLOCK_NONE };
	struct kstats_summary got, want;
	struct kstats_snapshot snap;
	struct kstats *ks;
	u64 v;

	ks = kstats_new_config(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ks));
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &got), 0);
	KUNIT_EXPECT_EQ(test, got.samples + got.p99 + got.max + got.missed, 0ULL);
	for (v = 1; v <= 1000; v++)
		kstats_record(ks, v);
	kstats_record_missed(ks);
	kstats_record_missed(ks);
	kstats_record_signed(ks, -4);
	KUNIT_ASSERT_EQ(test, kstats_read(ks, &got), 0);
	KUNIT_ASSERT_EQ(test, kstats_snapshot_take(ks, &snap), 0);
	kstats_snapshot_summary(&snap, &want);
	kstats_snapshot_free(&snap);
	KUNIT_EXPECT_EQ(test, memcmp(&got, &want, sizeof(got)), 0);
	KUNIT_EXPECT_EQ(test, got.samples, 1000ULL);
	KUNIT_EXPECT_EQ(test, got.missed, 2ULL);
	KUNIT_EXPECT_EQ(test, got.min, 1ULL);
	KUNIT_EXPECT_EQ(test, got.max, 1000ULL);
	KUNIT_EXPECT_EQ(test, got.mean, 500ULL);
	/* rank 500 lies in [448, 511], rank 990 in [960, 1023]: max is less */
	KUNIT_EXPECT_EQ(test, got.p50, 511ULL);
	KUNIT_EXPECT_EQ(test, got.p99, 1000ULL);
	kstats_delete(ks);
}

static struct kunit_case kstats_core_test_cases[] = {
	KUNIT_CASE(kstats_test_slot_reference),
	KUNIT_CASE(kstats_test_slot_tiling),
	KUNIT_CASE(kstats_test_slot_avg),
	KUNIT_CASE(kstats_test_record_bits),
	KUNIT_CASE(kstats_test_record_read),
	KUNIT_CASE(kstats_test_stop_start_reset),
	KUNIT_CASE(kstats_test_summary_known),
	KUNIT_CASE(kstats_test_range),
	KUNIT_CASE(kstats_test_percpu),
	KUNIT_CASE(kstats_test_extremes),
	KUNIT_CASE(kstats_test_names),
	KUNIT_CASE(kstats_test_torn_reset),
	KUNIT_CASE(kstats_test_atomic_put),
	KUNIT_CASE(kstats_test_negative),
	KUNIT_CASE(kstats_test_record_since),
	KUNIT_CASE(kstats_test_scope),
	KUNIT_CASE(kstats_test_read),
	{}
};

struct kunit_suite kstats_core_suite = {
	.name = "kstats_core",
	.test_cases = kstats_core_test_cases,
};
