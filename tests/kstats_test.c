// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kstats: the bucket math against an independent reference,
 * recording and reading, percentiles, per-CPU recording, names and command
 * parsing.  Built as kstats_test.ko against kstats.ko.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include "kstats.h"
#include "kstats_internal.h"

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
	KUNIT_EXPECT_EQ(test, sum.p999, 101ULL);
	KUNIT_EXPECT_EQ(test, sum.max, 101ULL);
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
	kstats_record(ks, 7);
	kstats_record(ks, 8);
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
	KUNIT_EXPECT_EQ(test, sum.max, 10485759ULL);	/* [9437184, 10485759] */
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
	kstats_record(ks, U64_MAX);
	take(test, ks, &snap, &sum);
	last = snap.nr_slots - 1;
	/* 1000 is in [960, 1023]: the overflow slot starts at 1024. */
	KUNIT_EXPECT_EQ(test, ks->clamp, 1024ULL);
	KUNIT_EXPECT_EQ(test, last, kstats_slot(1024, 3));
	KUNIT_EXPECT_LT(test, snap.nr_slots, kstats_nr_slots(3));
	KUNIT_EXPECT_EQ(test, snap.slot_samples[last], 2ULL);
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
		"__do_sys_getppid", "_controller",
		"x123456789012345678901234567890123456789012345678901234567890ab" };
	static const char * const bad[] = { "", "_control", ".hidden", "..",
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
	};
	struct kstats_cmd cmd;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, parse(test, "new foo bits 4 clock local\n", &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.op, KSTATS_CMD_NEW);
	KUNIT_EXPECT_STREQ(test, cmd.cfg.name, "foo");
	KUNIT_EXPECT_EQ(test, cmd.cfg.frac_bits, 4U);
	KUNIT_EXPECT_EQ(test, cmd.cfg.clock, KSTATS_CLOCK_LOCAL);

	KUNIT_EXPECT_EQ(test, parse(test, "NEW bar max 0x1000", &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.cfg.frac_bits, 3U);
	KUNIT_EXPECT_EQ(test, cmd.cfg.clock, KSTATS_CLOCK_KTIME);
	KUNIT_EXPECT_EQ(test, cmd.cfg.max_value, 4096ULL);

	KUNIT_EXPECT_EQ(test, parse(test, "remove foo", &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.op, KSTATS_CMD_REMOVE);
	KUNIT_EXPECT_EQ(test, parse(test, "remove all\n", &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.op, KSTATS_CMD_REMOVE_ALL);

	KUNIT_EXPECT_EQ(test, parse(test, "trace vfs_read bits 2 name rd gap", &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.op, KSTATS_CMD_TRACE);
	KUNIT_EXPECT_STREQ(test, cmd.target, "vfs_read");
	KUNIT_EXPECT_STREQ(test, cmd.cfg.name, "rd");
	KUNIT_EXPECT_TRUE(test, cmd.gap);

	KUNIT_EXPECT_EQ(test,
			parse(test, "trace sec start a+4 end tp:sched:sched_switch", &cmd),
			0);
	KUNIT_EXPECT_NULL(test, cmd.target);
	KUNIT_EXPECT_STREQ(test, cmd.cfg.name, "sec");
	KUNIT_EXPECT_STREQ(test, cmd.start, "a+4");
	KUNIT_EXPECT_STREQ(test, cmd.end, "tp:sched:sched_switch");

	/* "name" is honoured for a section too. */
	KUNIT_EXPECT_EQ(test, parse(test, "trace sec start a end b name s2", &cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd.cfg.name, "s2");
	KUNIT_EXPECT_STREQ(test, cmd.start, "a");

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], &cmd), -EINVAL,
				    "'%s'", bad[i]);
}

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
	KUNIT_CASE(kstats_test_names),
	KUNIT_CASE(kstats_test_torn_reset),
	KUNIT_CASE(kstats_test_atomic_put),
	KUNIT_CASE(kstats_test_node_commands),
	KUNIT_CASE(kstats_test_control_commands),
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
