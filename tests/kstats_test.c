// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kstats: the bucket math against an independent reference,
 * recording and reading, percentiles, per-CPU recording, names and command
 * parsing.  Built as kstats_test.ko against kstats.ko.
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

static struct kstats *test_new(struct kunit *test, const char *name,
			       unsigned int bits, u64 max_value)
{
	struct kstats_config cfg = {
		.name = name,
		.frac_bits = bits,
		.clock = KSTATS_CLOCK_NONE,
		.max_value = max_value,
	};
	struct kstats *ks = kstats_new_config(&cfg);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ks), "kstats_new_config: %ld",
			       PTR_ERR(ks));
	return ks;
}

static void take(struct kunit *test, struct kstats *ks,
		 struct kstats_snapshot *snap, struct kstats_summary *sum)
{
	KUNIT_ASSERT_EQ(test, kstats_snapshot_take(ks, snap), 0);
	kstats_snapshot_summary(snap, sum);
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

static void kstats_test_node_commands(struct kunit *test)
{
	int op = -1;

	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("start", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 0);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("STOP\n", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 1);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("  Reset\t\n", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 2);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("restart", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("star", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("start stop", &op),
			-EINVAL);
}

static int parse(struct kunit *test, const char *text, struct kstats_cmd *cmd)
{
	char *buf = kunit_kzalloc(test, KSTATS_CMD_MAX + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, text, KSTATS_CMD_MAX + 1);
	return kstats_parse_command(buf, cmd);
}

static void kstats_test_control_commands(struct kunit *test)
{
	static const char * const bad[] = {
		"", " \t\n", "new", "new foo bits", "new foo bits 6",
		"new foo bits -1", "new foo bits 99999999999999999999",
		"new foo clock bogus", "new foo colour red", "new a/b",
		"new _control", "remove", "remove a b", "frob x",
		"trace sec start a", "trace f maxactive 99999",
		"trace f name ../x", "new all", "trace f clock none",
		"trace tp:sched:sched_switch gap",
		"trace sec start a end b gap", "trace f name all",
		"trace f slow", "trace f slow -5", "trace f slow abc",
		"trace f slow 1 top 2", "trace f top 0", "trace f top 4097",
		"trace f slow 1 stack 0", "trace f slow 1 stack 65",
		"trace f slow 1 stack 2 stack 3", "trace f keep 5",
		"trace f top 3 keep 5", "trace f slow 1 keep 0",
		"trace f slow 1 keep 65537", "trace f stack 4",
		"trace f slow 9223372036854775808",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_EXPECT_EQ(test, parse(test, "new foo bits 4 clock local\n", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_NEW);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "foo");
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 4U);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_LOCAL);

	KUNIT_EXPECT_EQ(test, parse(test, "NEW bar max 0x1000", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 3U);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_KTIME);
	KUNIT_EXPECT_EQ(test, cmd->cfg.max_value, 4096ULL);

	KUNIT_EXPECT_EQ(test, parse(test, "remove foo", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_REMOVE);
	KUNIT_EXPECT_EQ(test, parse(test, "remove all\n", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_REMOVE_ALL);

	KUNIT_EXPECT_EQ(test, parse(test, "trace vfs_read bits 2 name rd gap", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_TRACE);
	KUNIT_EXPECT_STREQ(test, cmd->target, "vfs_read");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "rd");
	KUNIT_EXPECT_TRUE(test, cmd->gap);

	KUNIT_EXPECT_EQ(test,
			parse(test, "trace sec start a+4 end tp:sched:sched_switch", cmd),
			0);
	KUNIT_EXPECT_NULL(test, cmd->target);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "sec");
	KUNIT_EXPECT_STREQ(test, cmd->start, "a+4");
	KUNIT_EXPECT_STREQ(test, cmd->end, "tp:sched:sched_switch");

	/* outliers: slow V keep M stack N, top K, stack without N */
	KUNIT_EXPECT_EQ(test, parse(test, "trace f slow 0x100 keep 9 stack 5", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.mode, KSTATS_OUTLIER_SLOW);
	KUNIT_EXPECT_EQ(test, cmd->outlier.slow, 256ULL);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, 9U);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, 5U);
	KUNIT_EXPECT_EQ(test, parse(test, "trace f slow 7", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, KSTATS_OUTLIER_KEEP_DEFAULT);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, 0U);
	KUNIT_EXPECT_EQ(test, parse(test, "trace f top 12 stack name g", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.mode, KSTATS_OUTLIER_TOP);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, 12U);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, KSTATS_OUTLIER_STACK_DEFAULT);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "g");

	/* "name" is honoured for a section too. */
	KUNIT_EXPECT_EQ(test, parse(test, "trace sec start a end b name s2", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "s2");
	KUNIT_EXPECT_STREQ(test, cmd->start, "a");

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/*
 * A refusal of the grammar: the command, the word refused (its @nth
 * occurrence as a word), or @word NULL and @pos the offset (KSTATS_POS_END
 * for a word missing at the end), and a part of the reason.
 */
struct refusal_case {
	const char *cmd;
	const char *word;
	int nth;
	int pos;
	const char *reason;
};

#define AT(c, w, r)		{ c, w, 1, 0, r }
#define AT_NTH(c, w, n, r)	{ c, w, n, 0, r }
#define AT_POS(c, p, r)		{ c, NULL, 0, p, r }
#define AT_END(c, r)		{ c, NULL, 0, KSTATS_POS_END, r }

/* The offset of the @nth word @word of @cmd, or -2. */
static int refusal_word_at(const char *cmd, const char *word, int nth)
{
	size_t n = strlen(word);
	const char *p;

	for (p = cmd; (p = strstr(p, word)); p++)
		if ((p == cmd || isspace(p[-1])) &&
		    (!p[n] || isspace(p[n])) && !--nth)
			return p - cmd;
	return -2;
}

/*
 * Every refusal of the grammar says which word it refuses, as its offset
 * in the command, for the caret of _errors; a missing word is past the end.
 */
static void kstats_test_refusal_words(struct kunit *test)
{
	static const struct refusal_case cases[] = {
		/* values: the value's word */
		AT("trace f value arg0+:8", "arg0+:8", "a dereference is"),
		AT("trace f value arg0+2147483648:8", "arg0+2147483648:8", "offset"),
		AT("trace f value arg0+0:3", "arg0+0:3", "size after offset"),
		AT("trace f value arg12", "arg12", "arguments are arg0"),
		AT("trace f value foo", "foo", "use ret or argN"),
		AT("trace f value arg0:3", "arg0:3", "size of the cast"),
		AT("trace f value arg0+0:8+0:8+0:8+0:8+0:8",
		   "arg0+0:8+0:8+0:8+0:8+0:8", "more than 4"),
		AT("trace f value arg0+0:8x", "arg0+0:8x", "size after offset"),
		AT("trace f value arg0x", "arg0x", "unexpected 'x'"),
		AT("trace f value arg0+0:4+0:8", "arg0+0:4+0:8", "must be 8"),
		/* filters */
		AT_END("trace f if arg0 >", "write if VALUE OP CONSTANT"),
		AT_NTH("trace f if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 2",
		       "if", 5, "at most 4 conditions"),
		AT("trace f if arg0 =~ 1", "=~", "unknown operator"),
		AT("trace f if arg0 > x", "x", "is not a number"),
		AT("trace f if arg12 == 1", "arg12", "arguments are arg0"),
		AT("trace f pid -1", "-1", "is not a pid id"),
		AT("trace f tid x", "x", "is not a tid id"),
		AT("trace f comm 1234567890123456", "1234567890123456", "longer than 15"),
		AT("trace f cpu 4096", "4096", "not a possible CPU"),
		/* sections */
		AT("trace s start a key bogus end b", "bogus", "unknown key"),
		AT("trace s start a key arg99 end b", "arg99", "arguments are arg0"),
		AT("trace s start a end b nest inner", "inner", "use outer or replace"),
		AT("trace s start a end b full maybe", "maybe", "use refuse or evict"),
		AT("trace s start a match ret end b match ret", "ret", "use argN"),
		AT("trace s start a end b over 0", "0", "not a duration"),
		AT("trace s start a end b under x", "x", "not a duration"),
		AT("trace s start a end b inflight 0", "0", "inflight '0'"),
		AT("trace s start a end b start c", "c", "starts come before its end"),
		AT("trace s start a start b start c start d end e", "d", "at most 3 starts"),
		AT("trace s start a end b end c", "c", "one end"),
		AT("trace s start a* end b", "a*", "one place"),
		AT("trace s start a if ret < 0 end b", "ret", "if ret is for functions"),
		AT("trace s if ret < 0 start a end b", "ret", "if ret is for functions"),
		AT("trace s comm x start a pid 1 end b", "pid", "not both"),
		AT("trace s start a end b over 10 under 5", "5", "no duration is both"),
		AT("trace s start a match arg0 end b", "arg0", "at both points"),
		AT("trace s start a by arg0 start b end c", "b", "its own by V"),
		AT("trace s start a by comm start b by arg0 end c", "arg0",
		   "a further start takes one by"),
		AT("trace s start a by arg0 start b by comm end c", "comm",
		   "a further start's key is argN"),
		AT("trace f inflight 5", "inflight", "are for sections"),
		AT("trace f key task", "key", "are for sections"),
		AT("trace s start a end b", NULL, NULL),
		/* families */
		AT("trace f by stack 33", "33", "frames"),
		AT_END("trace f by", "by needs a key"),
		AT("trace s start a end b by comm", "comm", "start point's options"),
		AT("trace f by comm by pid", "pid", "one by per node"),
		AT("trace f by colour", "colour", "unknown by key"),
		AT("trace f by arg12", "arg12", "arguments are arg0"),
		AT("trace f by comm 5", "5", "takes no number"),
		AT("trace f by comm max 0", "0", "is not 1..65536"),
		AT_END("trace f by comm max", "is not 1..65536"),
		AT("trace f by func", "func", "by func keys"),
		AT("trace f gap by comm", "gap", "it takes no by"),
		AT("trace tp:a:b by caller", "caller", "by caller"),
		AT("trace s start a by ret end b", "ret", "by ret is for functions"),
		/* outliers */
		AT("trace f slow abc", "abc", "not a number from 0"),
		AT("trace f top 3 slow 5", "slow", "one of slow or top"),
		AT("trace f top 0", "0", "not 1..4096"),
		AT("trace f slow 1 top 2", "top", "one of slow or top"),
		AT("trace f slow 1 keep 0", "0", "is not 1..65536, once"),
		AT_NTH("trace f slow 1 keep 2 keep 3", "keep", 2, "once"),
		AT("trace f slow 1 stack 65", "65", "is not 1..64, once"),
		AT_NTH("trace f slow 1 stack 2 stack 3", "stack", 2, "once"),
		AT("trace f slow 1 stack -1", "-1", "is not 1..64, once"),
		AT("trace f keep 5", "keep", "give slow V"),
		AT("trace f stack 4", "stack", "give slow V or top K"),
		/* values and what they may not combine */
		AT("trace s start a end b value arg0", "arg0", "not sections"),
		AT("trace f value arg0 gap", "gap", "gap records times"),
		AT("trace f value ret clock local", "local", "drop clock local"),
		AT("trace tp:a:b value ret", "ret", "a tracepoint returns nothing"),
		AT("trace tp:a:b if ret < 0", "ret", "a tracepoint returns nothing"),
		AT("trace f clock none", "none", "reads no time"),
		AT("trace s start a end b gap", "gap", "not sections or tracepoints"),
		AT("trace f gap comm dd", "gap", "takes no filter"),
		/* the list: under the empty name */
		AT_POS("trace a,,b", 8, "an empty function name"),
		AT_POS("trace a, name x", 8, "an empty function name"),
		/* options, commands and names */
		AT_END("trace f name", "needs a value"),
		AT("new foo bits 6", "6", "bits '6'"),
		AT("new foo clock bogus", "bogus", "unknown clock"),
		AT("new foo max x", "x", "is not a number"),
		AT("trace f maxactive 99999", "99999", "maxactive"),
		AT("new foo colour red", "colour", "unknown option"),
		AT("new foo pid 1", "pid", "values and filters are for trace"),
		AT_END("", "empty command"),
		AT_END(" \t\n", "empty command"),
		AT("frob x", "frob", "unknown command"),
		AT_END("new", "needs a name"),
		AT("remove a b", "b", "takes one name"),
		AT("new a/b", "a/b", "invalid name"),
		AT("trace f name ../x", "../x", "invalid name"),
		AT("trace f name all", "all", "invalid name"),
		AT("new _errors", "_errors", "invalid name"),
		AT("new _control", "_control", "invalid name"),
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct refusal_case *c = &cases[i];
		int want = c->word ? refusal_word_at(c->cmd, c->word, c->nth) :
			   c->pos;

		if (!c->reason) {
			/* a good command: nothing noted */
			KUNIT_EXPECT_EQ_MSG(test, parse(test, c->cmd, cmd), 0,
					    "'%s'", c->cmd);
			KUNIT_EXPECT_FALSE(test, cmd->why.set);
			continue;
		}
		KUNIT_ASSERT_NE_MSG(test, want, -2, "'%s': no word '%s'",
				    c->cmd, c->word);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, c->cmd, cmd), -EINVAL,
				    "'%s'", c->cmd);
		KUNIT_EXPECT_TRUE_MSG(test, cmd->why.set, "'%s'", c->cmd);
		KUNIT_EXPECT_EQ_MSG(test, cmd->why.pos, want, "'%s': %s",
				    c->cmd, cmd->why.reason);
		KUNIT_EXPECT_STREQ_MSG(test, cmd->why.loc, "_control", "'%s'",
				       c->cmd);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(cmd->why.reason, c->reason),
					  "'%s': reason '%s', not '%s'", c->cmd,
					  cmd->why.reason, c->reason);
	}
}

/* _errors: the last KSTATS_ERRORS_MAX refusals, as tracefs' error_log. */
static void kstats_test_errors_log(struct kunit *test)
{
	struct seq_file m = { .size = 65536 };
	struct kstats_refusal why;
	char text[64], want[64];
	const char *p, *want1;
	int i, n;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	kstats_errors_clear();
	kstats_errors_show(&m);
	KUNIT_EXPECT_EQ(test, m.count, (size_t)0);

	/*
	 * A caret under the word; the trailing blanks dropped, the other
	 * blanks and the bytes outside '!'..'~' spaces.
	 */
	kstats_refusal_init(&why, "trace\tvfs_raed  name r\xc3\xa9\t\n");
	kstats_refuse(&why, why.text + 6, "r", "no symbol '%s'", "vfs_raed");
	kstats_errors_add(why.text, why.len, &why);
	/* a missing word: one column past the end */
	kstats_refusal_init(&why, "trace f pid");
	kstats_refuse(&why, NULL, "_control", "'%s' needs a value", "pid");
	kstats_errors_add(why.text, why.len, &why);
	kstats_errors_show(&m);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	/* "[    S.UUUUUU] ", seconds right-aligned in 5 */
	p = strchr(m.buf, ']');
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, m.buf[0], '[');
	KUNIT_EXPECT_EQ(test, p[-7], '.');
	KUNIT_EXPECT_GE(test, (int)(p - m.buf), 13);
	want1 = "] r: error: no symbol 'vfs_raed'\n"
		"  Command: trace vfs_raed  name r\x20\x20\n"
		"                 ^\n[";
	KUNIT_EXPECT_EQ_MSG(test, strncmp(p, want1, strlen(want1)), 0, "%s", p);
	p = strchr(p + 1, ']');
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_STREQ(test, p, "] _control: error: 'pid' needs a value\n"
			   "  Command: trace f pid\n"
			   "                       ^\n");

	/* at most KSTATS_ERRORS_MAX, the oldest dropped first */
	kstats_errors_clear();
	for (i = 0; i < KSTATS_ERRORS_MAX + 2; i++) {
		snprintf(text, sizeof(text), "remove n%d", i);
		kstats_refusal_init(&why, text);
		kstats_refuse(&why, text + 7, "_control",
			      "remove n%d: no such distribution", i);
		kstats_errors_add(text, strlen(text), &why);
	}
	m.count = 0;
	memset(m.buf, 0, m.size);
	kstats_errors_show(&m);
	for (n = 0, p = m.buf; (p = strstr(p, "] _control: error: ")); p++)
		n++;
	KUNIT_EXPECT_EQ(test, n, KSTATS_ERRORS_MAX);
	for (i = 0; i < KSTATS_ERRORS_MAX + 2; i++) {
		snprintf(want, sizeof(want), "  Command: remove n%d\n", i);
		KUNIT_EXPECT_EQ_MSG(test, !!strstr(m.buf, want), i >= 2,
				    "entry %d", i);
	}
	/* oldest first */
	p = strstr(m.buf, "remove n2\n");
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_NOT_NULL(test, strstr(p, "remove n17\n"));
	kstats_errors_clear();
	m.count = 0;
	kstats_errors_show(&m);
	KUNIT_EXPECT_EQ(test, m.count, (size_t)0);
}

/* Each value parses to what it says, and formats back to its canonical text. */
static void kstats_test_value_parse(struct kunit *test)
{
	static const char * const same[] = {
		"ret", "arg0", "arg11", "ret:s4", "arg1:4", "arg2:s1",
		"arg3+0:8", "arg0+32:8+80:8", "arg0+8:8-16:8+0:8+4:s2",
		"ret+0:1", "arg5:s2+0:8",
	};
	static const struct { const char *in, *out; } canon[] = {
		{ "arg3+0x10:8", "arg3+16:8" },
		{ "arg0-0x8:s4", "arg0-8:s4" },
		{ "arg01", "arg1" },
		{ "arg0+2147483647:1", "arg0+2147483647:1" },
	};
	static const char * const bad[] = {
		"", "r", "retval", "arg", "arg12", "arg99", "argx", "arg-1",
		"arg0+0:3", "arg0+0:16", "arg0+0:s8", "arg0+0", "arg0+:8",
		"arg0+0x:8", "arg0+2147483648:8", "arg0+-1:8", "arg0:3",
		"arg0+0:8+0:8+0:8+0:8+0:8", "arg0+0:4+0:8", "arg0+8:s4+0:4",
		"arg0 ", "arg0+0:8x", "ret:s4x", "arg0+99999999999999999999:8",
	};
	struct kstats_value v;
	char buf[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(same); i++) {
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(same[i], &v, NULL), 0,
				    "'%s'", same[i]);
		kstats_value_format(&v, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, same[i]);
	}
	for (i = 0; i < ARRAY_SIZE(canon); i++) {
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(canon[i].in, &v, NULL),
				    0, "'%s'", canon[i].in);
		kstats_value_format(&v, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, canon[i].out);
	}
	KUNIT_EXPECT_EQ(test, kstats_parse_value("arg3+0:8", &v, NULL), 0);
	KUNIT_EXPECT_EQ(test, v.base, KSTATS_BASE_ARG);
	KUNIT_EXPECT_EQ(test, v.arg, 3);
	KUNIT_EXPECT_EQ(test, v.nr_derefs, 1);
	KUNIT_EXPECT_EQ(test, v.deref[0].off, 0);
	KUNIT_EXPECT_EQ(test, v.deref[0].width.size, 8);
	KUNIT_EXPECT_EQ(test, kstats_parse_value("ret-12:s2", &v, NULL), 0);
	KUNIT_EXPECT_EQ(test, v.base, KSTATS_BASE_RET);
	KUNIT_EXPECT_EQ(test, v.deref[0].off, -12);
	KUNIT_EXPECT_TRUE(test, v.deref[0].width.sign);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(bad[i], &v, NULL),
				    -EINVAL, "'%s'", bad[i]);
}

/* The value and filter options of trace commands, and what they refuse. */
static void kstats_test_filter_parse(struct kunit *test)
{
	static const struct { const char *in, *filter; } good[] = {
		{ "trace f pid 12", "pid 12" },
		{ "trace f tid 0 pid 7", "pid 7 tid 0" },
		{ "trace f comm dd cpu 0", "comm dd cpu 0" },
		{ "trace f comm 123456789012345", "comm 123456789012345" },
		{ "trace f if arg2 > 1000", "if arg2 > 1000" },
		{ "trace f if ret == -9 if arg0 & 0x800",
		  "if ret == -9 if arg0 & 2048" },
		{ "trace f if arg1 != -0x10 if arg1 <= 5 if arg1 >= 1 if arg1 < 9",
		  "if arg1 != -16 if arg1 <= 5 if arg1 >= 1 if arg1 < 9" },
		{ "trace sec comm x if arg0 == 1 start a end b",
		  "comm x if arg0 == 1" },
		{ "trace tp:sched:sched_wakeup if arg0+0:8 != 0",
		  "if arg0+0:8 != 0" },
		{ "trace f", "" },
	};
	static const char * const bad[] = {
		"trace f pid -1", "trace f pid x", "trace f tid -5",
		"trace f comm 1234567890123456", "trace f cpu 4096",
		"trace f cpu -1", "trace f cpu", "trace f if arg0",
		"trace f if arg0 >", "trace f if arg0 > x",
		"trace f if arg0 =~ 1", "trace f if arg12 == 1",
		"trace f if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1",
		"trace f value", "trace f value arg12", "trace f value arg0+0:3",
		"trace f value arg0 gap", "trace f value ret clock tsc",
		"trace f value ret clock ktime",
		"trace tp:sched:sched_wakeup value ret",
		"trace tp:sched:sched_wakeup if ret < 0",
		"trace sec start a end b value arg0",
		"trace sec start a end b if ret < 0",
		"trace f gap comm dd", "new foo value arg0", "new foo pid 1",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[256];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ_MSG(test, parse(test, good[i].in, cmd), 0,
				    "'%s'", good[i].in);
		kstats_filter_format(&cmd->filter, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, good[i].filter);
		KUNIT_EXPECT_EQ(test, kstats_filter_is_empty(&cmd->filter),
				!*good[i].filter);
	}
	KUNIT_EXPECT_EQ(test, parse(test, "trace vfs_read value arg2 comm dd",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->value.base, KSTATS_BASE_ARG);
	KUNIT_EXPECT_EQ(test, cmd->value.arg, 2);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_NONE);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "vfs_read");
	KUNIT_EXPECT_EQ(test, parse(test, "trace f value ret clock none", cmd),
			0);
	KUNIT_EXPECT_EQ(test, parse(test, "trace tp:a:b value arg0:s4", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "b");
	/* A duration node with a condition on ret keeps its clock. */
	KUNIT_EXPECT_EQ(test, parse(test, "trace f if ret < 0 clock local", cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd->value.base, KSTATS_BASE_NONE);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_LOCAL);
	KUNIT_EXPECT_TRUE(test, kstats_filter_uses_ret(&cmd->filter));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/* Scratch for the parses of kstats_test_value_fetch(). */
static struct kstats_cmd cmd_scratch;

struct kstats_test_inode {
	long pad;
	s64 size;
	s32 mode;
	s8 tiny;
};

struct kstats_test_file {
	unsigned long flags;
	struct kstats_test_inode *inode;
};

/*
 * kstats_cond_range(): each operator's range holds, on a value as read,
 * for what kstats_cond_holds() holds for on the value widened, for each
 * size and sign, at the edges of the line, of the sizes and around zero;
 * "&" is no range.
 */
static void kstats_test_cond_range(struct kunit *test)
{
	static const s64 at[] = {
		S64_MIN, S64_MIN + 1, -0x80000001LL, -0x80000000LL, -0x8001,
		-0x8000, -0x81, -0x80, -2, -1, 0, 1, 2, 99, 0x7f, 0x80, 0xff,
		0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000LL,
		0xffffffffLL, 0x100000000LL, S64_MAX - 1, S64_MAX,
	};
	static const struct kstats_width widths[] = {
		{ 0 }, { 8, true }, { 1 }, { 1, true }, { 2 }, { 2, true },
		{ 4 }, { 4, true },
	};
	struct kstats_cond c = {};
	struct kstats_range r;
	unsigned int i, j, k;
	u8 op;

	for (k = 0; k < ARRAY_SIZE(widths); k++) {
		struct kstats_width w = widths[k];
		u64 mask = w.size && w.size < 8 ? BIT_ULL(w.size * 8) - 1 : ~0ULL;

		for (op = KSTATS_OP_EQ; op < KSTATS_NR_OPS; op++) {
			for (i = 0; i < ARRAY_SIZE(at); i++) {
				c.op = op;
				c.c = at[i];
				if (op == KSTATS_OP_AND) {
					KUNIT_EXPECT_FALSE(test,
							   kstats_cond_range(op, c.c, w, &r));
					continue;
				}
				KUNIT_ASSERT_TRUE(test,
						  kstats_cond_range(op, c.c, w, &r));
				for (j = 0; j < ARRAY_SIZE(at); j++) {
					u64 raw = (u64)at[j] & mask;
					bool want = kstats_cond_holds(&c,
								      kstats_widen(raw, w));

					KUNIT_EXPECT_EQ_MSG(test,
							    kstats_range_holds(&r, raw),
							    want,
							    "%s %lld on %#llx (size %u%s)",
							    kstats_op_names[op], c.c,
							    raw, w.size,
							    w.sign ? " signed" : "");
				}
			}
		}
	}
}

/* Values are read as written, and unreadable memory is reported. */
static void kstats_test_value_fetch(struct kunit *test)
{
	struct kstats_test_inode ino = {
		.size = 123456789012LL, .mode = -2, .tiny = -3,
	};
	struct kstats_test_file file = { .flags = 0x8000, .inode = &ino };
	const struct kstats_width w1 = { .size = 1 }, w4 = { .size = 4 };
	const struct kstats_width s4 = { .size = 4, .sign = true };
	const struct kstats_width w8 = { .size = 8 };
	unsigned long args[KSTATS_MAX_ARGS] = {
		(unsigned long)&file, 0x1000, 0xfffffff7UL, 42,
	};
	struct kstats_args a = { .tp = args };
	struct kstats_filter f;
	struct kstats_value v;
	char text[64];
	u64 out;

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:8",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, size));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, 123456789012LL);

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:s4",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, mode));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -2LL);
	/* The same bytes zero-extended. */
	v.deref[1].width.sign = false;
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffeULL);

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:s1",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, tiny));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -3LL);

	/* A user address, and NULL + 8, are never read. */
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1+0:8", &v, NULL), 0);
	KUNIT_EXPECT_FALSE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg4+8:8", &v, NULL), 0);
	KUNIT_EXPECT_FALSE(test, kstats_value_fetch(&v, &a, &out));
	/* kstats_read_kernel()'s one compare: the kernel half's edges */
	KUNIT_EXPECT_TRUE(test, kstats_read_kernel((unsigned long)&ino.mode, w4,
						   &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffeULL);
	KUNIT_EXPECT_TRUE(test, kstats_read_kernel((unsigned long)&ino.mode, s4,
						   &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -2LL);
	KUNIT_EXPECT_FALSE(test, kstats_read_kernel(TASK_SIZE_MAX - 8, w8, &out));
	KUNIT_EXPECT_FALSE(test, kstats_read_kernel(TASK_SIZE_MAX + 8, w8, &out));
#ifdef CONFIG_X86_64
	{
		unsigned long half = 1UL << __VIRTUAL_MASK_SHIFT;

		/* the first and the last non-canonical, and the vsyscall page */
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(half, w1, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(-half - 8, w8, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(VSYSCALL_ADDR, w8,
							    &out));
		/* the fixmap above it, and the top of the space */
		KUNIT_EXPECT_FALSE(test,
				   kstats_read_kernel(VSYSCALL_ADDR + PAGE_SIZE,
						      w8, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(-8UL, w8, &out));
	}
#endif

	/* Casts of the base. */
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg2:s4", &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -9LL);
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg2:2", &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfff7ULL);

	/* ret: a long, or an int function's -errno. */
	KUNIT_EXPECT_EQ(test, (s64)kstats_ret_value(0xffffffeaUL), -22LL);
	KUNIT_EXPECT_EQ(test, (s64)kstats_ret_value(-22L), -22LL);
	KUNIT_EXPECT_EQ(test, kstats_ret_value(0xffffefffUL), 0xffffefffULL);
	KUNIT_EXPECT_EQ(test, kstats_ret_value(4096), 4096ULL);

	/* Filters: who is running this test, and conditions. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f if arg3 == 42 if arg3 & 8",
				    &cmd_scratch), 0);
	f = cmd_scratch.filter;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_COUNT);
	f.cond[1].c = 1;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	f.nr_conds = 0;
	f.pid = current->tgid;
	f.tid = current->pid;
	strscpy_pad(f.comm, current->comm, sizeof(f.comm));
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_COUNT);
	f.comm[strlen(f.comm) - 1] = '\0';
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	strscpy_pad(f.comm, current->comm, sizeof(f.comm));
	f.tid = current->pid + 1;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	/* At a return, only conditions on ret apply. */
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_RETURN),
			KSTATS_COUNT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f if arg1+0:8 == 0",
				    &cmd_scratch), 0);
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&cmd_scratch.filter, &a,
						  KSTATS_AT_POINT),
			KSTATS_UNREADABLE);
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

/* Keys, per-point filters and inflight of sections. */
static void kstats_test_section_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace s start a key bogus end b", "trace s start a key",
		"trace s start a key arg12 end b",
		"trace s start a end b inflight 0",
		"trace s start a end b inflight 1048577",
		"trace s start a end b inflight x",
		"trace f key task", "trace f inflight 8",
		"trace s comm x start a comm y end b",
		"trace s start a end b if ret < 0",
		"trace s start a key ret end b",
		"trace s start a match arg0 end b",
		"trace s start a end b match arg0",
		"trace s start a match ret end b match ret",
		"trace s start a end b nest inner",
		"trace f match arg0", "trace f nest outer",
		"trace s start a end b full never", "trace f full refuse",
		"trace s start a end b over 0", "trace s start a end b under x",
		"trace s start a end b over 5 under 4", "trace f over 10",
		"trace s start a end b over -1",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[128];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test,
			parse(test, "trace r start tp:s:a key arg0 end tp:s:b key arg2 inflight 64",
			      cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->start, "tp:s:a");
	KUNIT_EXPECT_STREQ(test, cmd->end, "tp:s:b");
	KUNIT_EXPECT_EQ(test, cmd->inflight, 64U);
	kstats_key_format(&cmd->point[0].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	kstats_key_format(&cmd->point[1].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg2");

	/* The default key is the task; "key" before start is both points'. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a end b", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->point[0].key.kind, KSTATS_KEY_TASK);
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_TASK);
	KUNIT_EXPECT_EQ(test, cmd->inflight, 0U);
	KUNIT_ASSERT_EQ(test, parse(test, "trace s key cpu start a end b", cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd->point[0].key.kind, KSTATS_KEY_CPU);
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_CPU);

	/* Filters before start hold at both points, after a point at it. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s comm x start a end b", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->point[0].filter.comm, "x");
	KUNIT_EXPECT_STREQ(test, cmd->point[1].filter.comm, "x");
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a pid 3 end b if arg1 > 2 bits 4",
				    cmd), 0);
	kstats_filter_format(&cmd->point[0].filter, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "pid 3");
	kstats_filter_format(&cmd->point[1].filter, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "if arg1 > 2");
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 4U);

	/* "match" before start is both points'; "nest" the section's. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace l match arg0 start a end b nest outer",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->point[0].has_match && cmd->point[1].has_match);
	kstats_value_format(&cmd->point[1].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	KUNIT_EXPECT_TRUE(test, cmd->nest_outer);
	KUNIT_ASSERT_EQ(test, parse(test, "trace l start a match arg1 end b match arg0+8:4",
				    cmd), 0);
	kstats_value_format(&cmd->point[0].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1");
	kstats_value_format(&cmd->point[1].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0+8:4");
	KUNIT_EXPECT_FALSE(test, cmd->nest_outer);
	KUNIT_EXPECT_FALSE(test, cmd->full_refuse);
	KUNIT_ASSERT_EQ(test, parse(test, "trace l start a end b full refuse", cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->full_refuse);
	KUNIT_EXPECT_EQ(test, cmd->over, 0ULL);
	KUNIT_EXPECT_EQ(test, cmd->under, 0ULL);
	KUNIT_ASSERT_EQ(test, parse(test, "trace o start a end b over 1000 under 0x100000",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->over, 1000ULL);
	KUNIT_EXPECT_EQ(test, cmd->under, 1048576ULL);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
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

/* "by KEY [max N]": its kinds, its max, and where it may be written. */
static void kstats_test_family_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace f by", "trace f by bogus", "trace f by comm max 0",
		"trace f by comm max 65537", "trace f by comm max",
		"trace f by comm max x", "trace f by comm by pid",
		"trace f by arg12", "trace s start a end b by comm",
		"trace tp:a:b by ret", "trace f gap by comm",
		"trace s start a by ret end b", "trace f by str:", "trace f by str:comm",
		"trace f by str:bogus", "trace f by stack 0", "trace f by stack 33",
		"trace f by str:arg0+", "trace f by str:arg0+x",
		"trace f by str:arg0+2147483648", "trace f by arg0+16",
		"trace s start a key arg0 by str:arg0+16 start c key arg0 by arg0+16 end b key arg0",
		"trace f by stack x", "trace f by caller 3", "trace f by cgroup 1",
		"trace tp:sched:sched_switch by caller",
		"trace s start a by caller end b", "trace f+4 by caller",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[128];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by comm", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_COMM);
	KUNIT_EXPECT_EQ(test, cmd->by_max, (u32)KSTATS_FAMILY_DEFAULT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by arg1+8:s4 max 5", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_VALUE);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 5U);
	KUNIT_EXPECT_TRUE(test, kstats_by_is_signed(&cmd->by));
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1+8:s4");
	/* "max" right after "by KEY" is the family's, elsewhere the range. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f max 100 by pid max 65536",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.max_value, 100ULL);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 65536U);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_PID);
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a key cpu by arg0 end b key cpu",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_VALUE);
	KUNIT_EXPECT_FALSE(test, kstats_by_is_signed(&cmd->by));
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_CPU);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by ret value arg2", cmd), 0);
	KUNIT_EXPECT_TRUE(test, kstats_by_uses_ret(&cmd->by));
	/* "str:V": the string at V, shown as text, never signed */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:irq:irq_handler_entry by str:arg1+80:8",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->by.str);
	KUNIT_EXPECT_FALSE(test, kstats_by_is_signed(&cmd->by));
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg1+80:8");
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 0);
	/* "str:V+OFF" with no size: the string in place at OFF past V */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:sched:sched_wakeup by str:arg0+2768",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->by.str);
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 2768);
	KUNIT_EXPECT_EQ(test, cmd->by.v.nr_derefs, 0);
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg0+2768");
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:a:b by str:arg0+8:8+16", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 16);
	KUNIT_EXPECT_EQ(test, cmd->by.v.nr_derefs, 1);
	KUNIT_ASSERT_EQ(test, parse(test,
				    "trace s start a key arg0 by str:arg0+16 start c key arg1 by str:arg1+16 end b key arg0",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->point[2].by.str_off, 16);
	kstats_by_format(&cmd->point[2].by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg1+16");
	/* stacks, callers, cgroups: "by stack" is 8 frames unless told */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by stack", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_STACK);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, KSTATS_BY_STACK_DEFAULT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by stack 32 max 9", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, 32);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 9U);
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "stack 32");
	KUNIT_ASSERT_EQ(test, parse(test,
				    "trace s start tp:sched:sched_switch by stack 4 end tp:sched:sched_wakeup",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, 4);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by caller max 3", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_CALLER);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 3U);
	/* the key, then the filter */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:sched:sched_switch by cgroup max 8 cgroup /a/b",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_CGROUP);
	KUNIT_EXPECT_STREQ(test, cmd->filter.cgroup_path, "/a/b");
	KUNIT_EXPECT_FALSE(test, kstats_filter_is_empty(&cmd->filter));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/*
 * "trace GLOB" and "trace F1,F2,...": one node over several functions,
 * named after them unless "name" says otherwise; "by func" on such a node
 * only; no empty name in a list, no glob at a section's point.
 */
static void kstats_test_multi_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace f by func", "trace a,,b", "trace a,", "trace ,a",
		"trace s start vfs_* end b", "trace s start a end b,c",
		"trace tp:a:b by func", "trace s start a by func end b",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test, parse(test, "trace vfs_* by func", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->target, "vfs_*");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "vfs_");
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_FUNC);
	KUNIT_EXPECT_FALSE(test, cmd->by_max_set);
	KUNIT_ASSERT_EQ(test, parse(test, "trace a,b name x by func max 9", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->target, "a,b");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "x");
	KUNIT_EXPECT_TRUE(test, cmd->by_max_set);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 9U);
	KUNIT_ASSERT_EQ(test, parse(test, "trace a,b", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "a.b");
	KUNIT_ASSERT_EQ(test, parse(test, "trace *", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "functions");
	KUNIT_ASSERT_EQ(test, parse(test, "trace __x64_sys_[rw]* comm kdirect", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "__x64_sys_rw");
	KUNIT_EXPECT_TRUE(test, kstats_multi_spec("vfs_*"));
	KUNIT_EXPECT_TRUE(test, kstats_multi_spec("a,b"));
	KUNIT_EXPECT_FALSE(test, kstats_multi_spec("vfs_read"));
	KUNIT_EXPECT_FALSE(test, kstats_multi_spec("tp:sched:*"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
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

#ifdef CONFIG_X86_64
/*
 * A small BTF file built here, for kstats_btf.c's placement of arguments:
 * the number of registers and stack words the direct trampoline keeps,
 * and the types of the words argN reads.
 */
struct kstats_test_btf {
	u32 w[200];
	unsigned int n;
};

static void kstats_tb_put(struct kstats_test_btf *b, u32 v)
{
	if (b->n < ARRAY_SIZE(b->w))
		b->w[b->n++] = v;
}

/* A type record: name, kind, vlen, size or type. */
static void kstats_tb_type(struct kstats_test_btf *b, u32 name, u32 kind,
			   u32 vlen, u32 size_type)
{
	kstats_tb_put(b, name);
	kstats_tb_put(b, kind << 24 | vlen);
	kstats_tb_put(b, size_type);
}

/* A FUNC_PROTO returning @ret with @n parameters of @types, and its FUNC. */
static void kstats_tb_func(struct kstats_test_btf *b, u32 *id, u32 name,
			   u32 ret, const u32 *types, u32 n)
{
	u32 i;

	kstats_tb_type(b, 0, BTF_KIND_FUNC_PROTO, n, ret);
	for (i = 0; i < n; i++) {
		kstats_tb_put(b, 0);
		kstats_tb_put(b, types[i]);
	}
	kstats_tb_type(b, name, BTF_KIND_FUNC, 0, *id);
	*id += 2;
}

static void kstats_test_btf_place(struct kunit *test)
{
	static const char strs[] =
		"\0long\0big\0pair\0tl\0f9\0f0\0fbig\0flate\0fva\0fret\0fpr\0dup\0same\0f7p";
	/* offsets of the names in strs */
	enum { LONG = 1, BIG = 6, PAIR = 10, TLONG = 15, NINE = 18, NONE = 21,
	       BIGARG = 24, PAIRLATE = 29, VARARG = 35, BIGRET = 39,
	       PAIRRET = 44, DUP = 48, SAME = 52, SEVENPAIR = 57 };
	/* type ids: 1 long, 2 long *, 3 big (24 bytes), 4 pair (16 bytes),
	 * 5 tlong (typedef), 6 const tlong; functions from 7 on
	 */
	static const u32 nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const u32 bigarg[2] = { 3, 1 };
	static const u32 pairlate[7] = { 1, 1, 1, 1, 1, 4, 1 };
	static const u32 sevenpair[9] = { 1, 1, 1, 1, 1, 1, 1, 4, 1 };
	static const u32 vararg[3] = { 2, 6, 0 };
	static const u32 six[6] = { 1, 1, 1, 1, 1, 1 };
	static const u32 one_long[1] = { 1 }, one_tlong[1] = { 6 };
	/* x86-64 System V, then AAPCS64, of each function */
	static const struct {
		const char *name;
		u8 nregs, nregs_a;
		u16 nstack, nstack_a;
		u8 ret_regs;
	} want[] = {
		/* do_mmap()'s shape: nine scalars, three on the stack (one
		 * past x7)
		 */
		{ "f9", 6, 8, 3, 1, 1 },
		/* void f0(void) */
		{ "f0", 0, 0, 0, 0, 0 },
		/* a 24-byte structure by value: on the stack, the long
		 * after it in a register; AAPCS64 passes its address in x0
		 */
		{ "fbig", 1, 2, 3, 0, 1 },
		/* a 16-byte pair with one register left: on the stack, the
		 * next long in the last register; AAPCS64 has x5 and x6 for
		 * the pair and x7 for the long
		 */
		{ "flate", 6, 8, 2, 0, 1 },
		/* a returned 24-byte structure takes %rdi for its pointer
		 * (AAPCS64: x8, no argument register), and comes back
		 * through memory
		 */
		{ "fret", 6, 6, 1, 0, 0 },
		/* a returned 16-byte pair comes back in %rax and %rdx */
		{ "fpr", 0, 0, 0, 0, 2 },
		/* two static functions of one name, placed alike: either */
		{ "same", 1, 1, 0, 0, 1 },
		/* seven longs, a pair, a long: AAPCS64 puts the pair on the
		 * stack and, its registers closed by then (C.13), the long
		 * after it
		 */
		{ "f7p", 6, 7, 4, 3, 1 },
	};
	struct kstats_test_btf *b;
	struct btf_header *h;
	struct kstats_btf_func f;
	size_t size, i;
	u32 id = 7;
	u8 *blob;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kstats_tb_type(b, LONG, BTF_KIND_INT, 0, 8);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 64);
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, 1);
	kstats_tb_type(b, BIG, BTF_KIND_STRUCT, 0, 24);
	kstats_tb_type(b, PAIR, BTF_KIND_STRUCT, 0, 16);
	kstats_tb_type(b, TLONG, BTF_KIND_TYPEDEF, 0, 1);
	kstats_tb_type(b, 0, BTF_KIND_CONST, 0, 5);
	kstats_tb_func(b, &id, NINE, 1, nine, 9);
	kstats_tb_func(b, &id, NONE, 0, NULL, 0);
	kstats_tb_func(b, &id, BIGARG, 1, bigarg, 2);
	kstats_tb_func(b, &id, PAIRLATE, 1, pairlate, 7);
	kstats_tb_func(b, &id, VARARG, 1, vararg, 3);
	kstats_tb_func(b, &id, BIGRET, 3, six, 6);
	kstats_tb_func(b, &id, PAIRRET, 4, NULL, 0);
	kstats_tb_func(b, &id, DUP, 1, one_long, 1);
	kstats_tb_func(b, &id, DUP, 1, six, 6);
	kstats_tb_func(b, &id, SAME, 1, one_long, 1);
	kstats_tb_func(b, &id, SAME, 1, one_tlong, 1);
	kstats_tb_func(b, &id, SEVENPAIR, 1, sevenpair, 9);
	KUNIT_ASSERT_LT(test, b->n, ARRAY_SIZE(b->w));

	size = sizeof(*h) + b->n * sizeof(u32) + sizeof(strs);
	blob = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (struct btf_header *)blob;
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_off = 0;
	h->type_len = b->n * sizeof(u32);
	h->str_off = h->type_len;
	h->str_len = sizeof(strs);
	memcpy(blob + sizeof(*h), b->w, h->type_len);
	memcpy(blob + sizeof(*h) + h->type_len, strs, sizeof(strs));

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ_MSG(test, kstats_btf_func_blob(blob, size, want[i].name,
							       &kstats_cc_x86_64, &f),
				    0, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nregs, want[i].nregs, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nstack, want[i].nstack, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.ret_regs, want[i].ret_regs, "%s", want[i].name);
		KUNIT_ASSERT_EQ_MSG(test, kstats_btf_func_blob(blob, size, want[i].name,
							       &kstats_cc_aapcs64, &f),
				    0, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nregs, want[i].nregs_a, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nstack, want[i].nstack_a, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.ret_regs, want[i].ret_regs, "%s (AAPCS64)",
				    want[i].name);
	}
	/* the typed words: f9's ninth long is arg8 on arm64 */
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f9", &kstats_cc_aapcs64, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[8].size, 8);
	KUNIT_EXPECT_TRUE(test, f.arg[8].sign);
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f7p", &kstats_cc_x86_64, &f), 0);
	/* x86-64: six longs in registers, the seventh at arg6, the pair at
	 * arg7-8 (untyped), the last long at arg9; AAPCS64: the pair at
	 * arg8-9, the last long at arg10
	 */
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 8);
	KUNIT_EXPECT_EQ(test, f.arg[7].size, 0);
	KUNIT_EXPECT_EQ(test, f.arg[9].size, 8);
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f7p", &kstats_cc_aapcs64, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 8);
	KUNIT_EXPECT_EQ(test, f.arg[8].size, 0);
	KUNIT_EXPECT_EQ(test, f.arg[10].size, 8);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "fva", NULL, &f), -EOPNOTSUPP);
	/* two of one name placed differently: which one is bound is unknown */
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "dup", NULL, &f), -ENOTUNIQ);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "long", NULL, &f), -ENOENT);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "missing", NULL, &f), -ENOENT);
	/* malformed: cut short, strings not ended by a NUL, a bad magic */
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size - 1, "f9", NULL, &f), -EINVAL);
	h->str_len--;
	blob[size - 1] = 'x';
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size - 1, "f9", NULL, &f), -EINVAL);
	h->str_len++;
	blob[size - 1] = '\0';
	h->type_len -= 4;
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "f9", NULL, &f), -EINVAL);
	h->type_len += 4;
	h->magic = 0;
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "f9", NULL, &f), -EINVAL);
}

/* @b's types and @strs as one BTF file, allocated for @test. */
static u8 *kstats_tb_blob(struct kunit *test, const struct kstats_test_btf *b,
			  const char *strs, size_t str_len, size_t *sizep)
{
	struct btf_header *h;
	size_t size = sizeof(*h) + b->n * sizeof(u32) + str_len;
	u8 *blob = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (struct btf_header *)blob;
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_len = b->n * sizeof(u32);
	h->str_off = h->type_len;
	h->str_len = str_len;
	memcpy(blob + sizeof(*h), b->w, h->type_len);
	memcpy(blob + sizeof(*h) + h->type_len, strs, str_len);
	*sizep = size;
	return blob;
}

/*
 * The types of a function's and a tracepoint's arguments, and a value
 * typed by them: an int argument is sign-extended from its 4 bytes, a
 * u16 zero-extended, a long or a written cast left as they are, a typed
 * return value no longer guessed at.
 */
static void kstats_test_btf_types(struct kunit *test)
{
	static const char strs[] =
		"\0int\0u16\0long\0bool\0en\0fw\0btf_trace_ev\0big\0fs";
	enum { INT = 1, U16 = 5, LONG = 9, BOOL = 14, EN = 19, FW = 22,
	       TRACE_EV = 25, BIG = 38, FS = 42 };
	/* type ids: 1 int, 2 u16, 3 long, 4 int *, 5 bool, 6 enum (signed),
	 * 7 a 24-byte structure; functions from 8 on
	 */
	static const u32 fw[6] = { 1, 2, 3, 4, 5, 6 };
	static const u32 fs[4] = { 7, 1, 2, 1 };
	static const u32 ev[4] = { 4, 1, 2, 5 };
	/* 0x00000000fffffff2 in %rax, as each return type reads it */
	static const struct {
		struct kstats_width w;
		u64 want;
	} rets[] = {
		{ { 0, false }, -14ULL },	/* no type: an int's -errno */
		{ { 8, true }, 0xfffffff2ULL },	/* long */
		{ { 4, false }, 0xfffffff2ULL },	/* unsigned int */
		{ { 4, true }, -14ULL },	/* int */
	};
	struct kstats_args a = { 0 };
	unsigned long tp[KSTATS_MAX_ARGS] = { 0xfffffffbUL, 0xfff0UL };
	struct kstats_test_btf *b;
	struct kstats_btf_func f;
	struct kstats_value v;
	char buf[32];
	size_t size;
	u32 id = 8;
	u8 *blob;
	u64 out;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kstats_tb_type(b, INT, BTF_KIND_INT, 0, 4);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 32);
	kstats_tb_type(b, U16, BTF_KIND_INT, 0, 2);
	kstats_tb_put(b, 16);
	kstats_tb_type(b, LONG, BTF_KIND_INT, 0, 8);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 64);
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, 1);
	kstats_tb_type(b, BOOL, BTF_KIND_INT, 0, 1);
	kstats_tb_put(b, BTF_INT_BOOL << 24 | 8);
	/* an enum with a negative value: signed (kind_flag) */
	kstats_tb_type(b, EN, BTF_KIND_ENUM, 0, 4);
	b->w[b->n - 2] |= 1U << 31;
	kstats_tb_type(b, BIG, BTF_KIND_STRUCT, 0, 24);
	/* int fw(int, u16, long, int *, bool, enum en) */
	kstats_tb_func(b, &id, FW, 1, fw, 6);
	/* u16 fs(struct big, int, u16, int): the structure on the stack */
	kstats_tb_func(b, &id, FS, 2, fs, 4);
	/* btf_trace_ev: void (*)(void *, int *, int, u16, bool) */
	kstats_tb_type(b, 0, BTF_KIND_FUNC_PROTO, 4, 0);
	kstats_tb_put(b, 0);
	kstats_tb_put(b, 4);
	for (size = 1; size < 4; size++) {
		kstats_tb_put(b, 0);
		kstats_tb_put(b, ev[size]);
	}
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, id);
	kstats_tb_type(b, TRACE_EV, BTF_KIND_TYPEDEF, 0, id + 1);
	KUNIT_ASSERT_LT(test, b->n, ARRAY_SIZE(b->w));
	blob = kstats_tb_blob(test, b, strs, sizeof(strs), &size);

	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "fw", NULL, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_TRUE(test, f.arg[0].sign);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_FALSE(test, f.arg[1].sign);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 8);
	KUNIT_EXPECT_TRUE(test, f.arg[2].sign);
	KUNIT_EXPECT_EQ(test, f.arg[3].size, 8);	/* a pointer */
	KUNIT_EXPECT_FALSE(test, f.arg[3].sign);
	KUNIT_EXPECT_EQ(test, f.arg[4].size, 1);	/* bool */
	KUNIT_EXPECT_FALSE(test, f.arg[4].sign);
	KUNIT_EXPECT_EQ(test, f.arg[5].size, 4);	/* the signed enum */
	KUNIT_EXPECT_TRUE(test, f.arg[5].sign);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 0);
	KUNIT_EXPECT_EQ(test, f.ret.size, 4);
	KUNIT_EXPECT_TRUE(test, f.ret.sign);
	/* a structure by value on the stack: the next scalars in %rdi.. */
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "fs", NULL, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 4);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 0);	/* the structure */
	KUNIT_EXPECT_EQ(test, f.ret.size, 2);
	KUNIT_EXPECT_FALSE(test, f.ret.sign);
	/* a tracepoint: TP_PROTO's arguments, after the data pointer */
	KUNIT_ASSERT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "ev", &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_TRUE(test, f.arg[0].sign);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 1);
	KUNIT_EXPECT_EQ(test, f.arg[3].size, 0);
	KUNIT_EXPECT_EQ(test, f.ret.size, 0);
	KUNIT_EXPECT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "fw", &f), -ENOENT);
	KUNIT_EXPECT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "e", &f), -ENOENT);

	/* values typed by the tracepoint: arg0 -5, arg1 65520 */
	a.tp = tp;
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg0", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_TRUE(test, v.typed);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -5LL);
	kstats_value_format(&v, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg0:4", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_FALSE(test, v.typed);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffbULL);
	kstats_value_format(&v, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0:4");
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfff0ULL);

	/* ret: guessed without a type, as its type says with one */
	a.ret = 0xfffffff2UL;
	for (size = 0; size < ARRAY_SIZE(rets); size++) {
		KUNIT_ASSERT_EQ(test, kstats_parse_value("ret", &v, NULL), 0);
		memset(&f, 0, sizeof(f));
		f.ret = rets[size].w;
		kstats_value_type(&v, &f);
		KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
		KUNIT_EXPECT_EQ_MSG(test, out, rets[size].want, "ret of size %u%s",
				    rets[size].w.size, rets[size].w.sign ? " signed" : "");
	}
}
#else
static void kstats_test_btf_place(struct kunit *test)
{
	kunit_skip(test, "argument placement is x86-64's");
}

static void kstats_test_btf_types(struct kunit *test)
{
	kunit_skip(test, "argument placement is x86-64's");
}
#endif /* CONFIG_X86_64 */

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

static struct kunit_case kstats_test_cases[] = {
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
	KUNIT_CASE(kstats_test_node_commands),
	KUNIT_CASE(kstats_test_control_commands),
	KUNIT_CASE(kstats_test_refusal_words),
	KUNIT_CASE(kstats_test_errors_log),
	KUNIT_CASE(kstats_test_value_parse),
	KUNIT_CASE(kstats_test_filter_parse),
	KUNIT_CASE(kstats_test_cond_range),
	KUNIT_CASE(kstats_test_value_fetch),
	KUNIT_CASE(kstats_test_negative),
	KUNIT_CASE(kstats_test_record_since),
	KUNIT_CASE(kstats_test_scope),
	KUNIT_CASE(kstats_test_read),
	KUNIT_CASE(kstats_test_pair),
	KUNIT_CASE(kstats_test_pair_cpus),
	KUNIT_CASE(kstats_test_pair_current),
	KUNIT_CASE(kstats_test_pair_nest),
	KUNIT_CASE(kstats_test_pair_concurrent),
	KUNIT_CASE(kstats_test_section_parse),
	KUNIT_CASE(kstats_test_section_starts),
	KUNIT_CASE(kstats_test_family_parse),
	KUNIT_CASE(kstats_test_multi_parse),
	KUNIT_CASE(kstats_test_string_key),
	KUNIT_CASE(kstats_test_family),
	KUNIT_CASE(kstats_test_family_hot),
	KUNIT_CASE(kstats_test_stack_key),
	KUNIT_CASE(kstats_test_family_cpus),
	KUNIT_CASE(kstats_test_family_concurrent),
	KUNIT_CASE(kstats_test_record_key),
	KUNIT_CASE(kstats_test_btf_place),
	KUNIT_CASE(kstats_test_btf_types),
	KUNIT_CASE(kstats_test_outliers),
	KUNIT_CASE(kstats_test_outliers_cpus),
#ifdef CONFIG_UNWINDER_ORC
	KUNIT_CASE(kstats_test_stack_cache),
#endif
	{}
};

static struct kunit_suite kstats_test_suite = {
	.name = "kstats",
	.test_cases = kstats_test_cases,
};

kunit_test_suite(kstats_test_suite);

MODULE_DESCRIPTION("KUnit tests of kstats");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSTATS_NS);
