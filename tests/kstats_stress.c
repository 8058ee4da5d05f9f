// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_stress: recorders for the reliability stage (tests/reliability/).
 *
 * Loading it starts, at once:
 *  - @threads kthreads recording into stress0..stress2 (thread i into
 *    stress(i % 3)) through kstats_stress_work(), a function the guest
 *    traces while they run;
 *  - a hrtimer (hardirq) recording into stress0 and stress_irq;
 *  - a timer_list (softirq) recording into stress1 and stress_irq;
 *  - a kthread that creates, fills and deletes stress_churn in a loop;
 *  - a kthread that records into "shared" (made and removed from _control
 *    by the guest) through kstats_get()/kstats_put().
 *
 * /sys/kernel/debug/kstats_stress/state lists, per distribution, how many
 * kstats_record() calls were made ("NAME calls N"), and the other figures;
 * writing "stop" to it stops every recorder and waits for them, after which
 * the counts are final and must equal each distribution's samples.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "kstats.h"
#include "kstats_internal.h"

#define STRESS_NODES	4	/* stress0, stress1, stress2, stress_irq */
#define STRESS_IRQ	3
#define STRESS_MAX_THREADS 16
#define STRESS_BATCH	256

static unsigned int threads = 4;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "recording kthreads (1..16)");

static unsigned int period_us = 200;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "period of the hrtimer recorder, microseconds");

struct stress_node {
	struct kstats *ks;
	atomic64_t calls;
};

static struct stress_node stress_nodes[STRESS_NODES];
static struct task_struct *stress_threads[STRESS_MAX_THREADS + 2];
static struct hrtimer stress_hrtimer;
static struct timer_list stress_timer;
static atomic64_t stress_hardirq, stress_softirq, stress_churn, stress_gets;
static atomic64_t stress_churn_fail;
static DEFINE_MUTEX(stress_lock);	/* serializes stop */
static bool stress_stopped;
static bool stress_timer_stop;
static struct dentry *stress_dir;

/* What the guest traces: one sample, not inlined. */
static noinline void kstats_stress_work(struct kstats *ks, u64 val)
{
	kstats_record(ks, val);
}

static u64 stress_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x >> (*x & 63);
}

static int stress_recorder(void *arg)
{
	struct stress_node *n = arg;
	u64 x = (unsigned long)arg | 1;
	int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < STRESS_BATCH; i++)
			kstats_stress_work(n->ks, stress_next(&x));
		atomic64_add(STRESS_BATCH, &n->calls);
		/* Leave the vCPUs to the readers and writers of the guest. */
		usleep_range(2000, 4000);
	}
	return 0;
}

/* kstats_new()/kstats_record()/kstats_delete() of one name, in a loop. */
static int stress_churner(void *arg)
{
	u64 x = 7;
	int i;

	while (!kthread_should_stop()) {
		struct kstats *ks = kstats_new("stress_churn", 1);

		if (IS_ERR(ks)) {
			atomic64_inc(&stress_churn_fail);
			msleep(20);
			continue;
		}
		for (i = 0; i < 64; i++)
			kstats_record(ks, stress_next(&x));
		usleep_range(1000, 2000);
		kstats_delete(ks);
		atomic64_inc(&stress_churn);
	}
	return 0;
}

/* Records into "shared" while the guest creates and removes it. */
static int stress_getter(void *arg)
{
	u64 x = 11;

	while (!kthread_should_stop()) {
		struct kstats *ks = kstats_get("shared");

		if (ks) {
			kstats_record(ks, stress_next(&x));
			kstats_put(ks);
			atomic64_inc(&stress_gets);
		}
		usleep_range(500, 1000);
	}
	return 0;
}

static enum hrtimer_restart stress_hrtimer_fn(struct hrtimer *t)
{
	u64 v = ktime_get_ns();

	kstats_record(stress_nodes[0].ks, v & 0xffff);
	kstats_record(stress_nodes[STRESS_IRQ].ks, v & 0xff);
	atomic64_inc(&stress_nodes[0].calls);
	atomic64_inc(&stress_nodes[STRESS_IRQ].calls);
	if (in_hardirq())
		atomic64_inc(&stress_hardirq);
	hrtimer_forward_now(t, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void stress_timer_fn(struct timer_list *t)
{
	u64 v = jiffies;
	int i;

	for (i = 0; i < 16; i++) {
		kstats_record(stress_nodes[1].ks, v + i);
		kstats_record(stress_nodes[STRESS_IRQ].ks, v * i);
	}
	atomic64_add(16, &stress_nodes[1].calls);
	atomic64_add(16, &stress_nodes[STRESS_IRQ].calls);
	if (in_serving_softirq())
		atomic64_inc(&stress_softirq);
	if (!READ_ONCE(stress_timer_stop))
		mod_timer(t, jiffies + 1);
}

static void stress_stop(void)
{
	int i;

	mutex_lock(&stress_lock);
	if (!stress_stopped) {
		for (i = 0; i < ARRAY_SIZE(stress_threads); i++)
			if (stress_threads[i])
				kthread_stop(stress_threads[i]);
		hrtimer_cancel(&stress_hrtimer);
		WRITE_ONCE(stress_timer_stop, true);
		timer_delete_sync(&stress_timer);
		stress_stopped = true;
	}
	mutex_unlock(&stress_lock);
}

static int stress_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < STRESS_NODES; i++)
		seq_printf(m, "%s calls %lld\n", stress_nodes[i].ks->name,
			   atomic64_read(&stress_nodes[i].calls));
	seq_printf(m, "hardirq %lld softirq %lld churn %lld churn_fail %lld gets %lld stopped %d\n",
		   atomic64_read(&stress_hardirq),
		   atomic64_read(&stress_softirq),
		   atomic64_read(&stress_churn),
		   atomic64_read(&stress_churn_fail),
		   atomic64_read(&stress_gets), READ_ONCE(stress_stopped));
	return 0;
}

static int stress_open(struct inode *inode, struct file *file)
{
	return single_open(file, stress_show, NULL);
}

static ssize_t stress_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[8] = "";

	if (count > sizeof(buf) - 1 || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (strcmp(strim(buf), "stop"))
		return -EINVAL;
	stress_stop();
	return count;
}

static const struct file_operations stress_fops = {
	.owner = THIS_MODULE,
	.open = stress_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = stress_write,
	.release = single_release,
};

static void stress_delete_nodes(void)
{
	int i;

	for (i = 0; i < STRESS_NODES; i++) {
		kstats_delete(stress_nodes[i].ks);
		stress_nodes[i].ks = NULL;
	}
}

static int stress_start_threads(void)
{
	struct task_struct *t;
	int i;

	for (i = 0; i < threads + 2; i++) {
		if (i < threads)
			t = kthread_run(stress_recorder, &stress_nodes[i % 3],
					"kstats_stress/%d", i);
		else if (i == threads)
			t = kthread_run(stress_churner, NULL, "kstats_churn");
		else
			t = kthread_run(stress_getter, NULL, "kstats_getter");
		if (IS_ERR(t))
			return PTR_ERR(t);
		stress_threads[i] = t;
	}
	return 0;
}

static int __init stress_init(void)
{
	static const char * const names[STRESS_NODES] = {
		"stress0", "stress1", "stress2", "stress_irq"
	};
	struct kstats_config cfg = { .frac_bits = 3,
				     .clock = KSTATS_CLOCK_NONE };
	int i, err;

	if (!threads || threads > STRESS_MAX_THREADS)
		return -EINVAL;
	for (i = 0; i < STRESS_NODES; i++) {
		cfg.name = names[i];
		stress_nodes[i].ks = kstats_new_config(&cfg);
		if (IS_ERR(stress_nodes[i].ks)) {
			err = PTR_ERR(stress_nodes[i].ks);
			stress_nodes[i].ks = NULL;
			stress_delete_nodes();
			return err;
		}
	}
	hrtimer_init(&stress_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	stress_hrtimer.function = stress_hrtimer_fn;
	timer_setup(&stress_timer, stress_timer_fn, 0);
	err = stress_start_threads();
	hrtimer_start(&stress_hrtimer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	mod_timer(&stress_timer, jiffies + 1);
	if (err) {
		stress_stop();
		stress_delete_nodes();
		return err;
	}
	stress_dir = debugfs_create_dir("kstats_stress", NULL);
	debugfs_create_file("state", 0600, stress_dir, NULL, &stress_fops);
	return 0;
}

/*
 * The final counts, for boots where the state file cannot be read (under
 * lockdown debugfs refuses to open writable files): "NAME calls N samples
 * M".
 */
static void stress_report(void)
{
	struct kstats_snapshot snap;
	int i;

	for (i = 0; i < STRESS_NODES; i++) {
		if (kstats_snapshot_take(stress_nodes[i].ks, &snap)) {
			pr_info("%s calls %lld samples unknown (no memory)\n",
				stress_nodes[i].ks->name,
				atomic64_read(&stress_nodes[i].calls));
			continue;
		}
		pr_info("%s calls %lld samples %llu\n", stress_nodes[i].ks->name,
			atomic64_read(&stress_nodes[i].calls), snap.samples);
		kstats_snapshot_free(&snap);
	}
}

static void __exit stress_exit(void)
{
	debugfs_remove(stress_dir);
	stress_stop();
	stress_report();
	stress_delete_nodes();
}

module_init(stress_init);
module_exit(stress_exit);
MODULE_DESCRIPTION("kstats: recorders for the reliability stress test");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSTATS_NS);
