// SPDX-License-Identifier: GPL-2.0
/*
 * A complete out-of-tree user of the kstats API, built against an
 * installed kstats (`make install`: the header and Module.symvers), see
 * the Makefile here.  At load it times 1000 kmalloc()+kfree() pairs of
 * 4 KiB into the distribution "consumer_kmalloc":
 *
 *   insmod kstats_consumer.ko
 *   cat /sys/kernel/debug/kstats/consumer_kmalloc
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <kstats.h>

static struct kstats *consumer_time;

static int __init consumer_init(void)
{
	struct kstats_summary sum;
	int i;

	/* ktime clock, ns; frac_bits 3: 8 slots per power of two */
	consumer_time = kstats_new("consumer_kmalloc", 3);
	if (IS_ERR(consumer_time))
		return PTR_ERR(consumer_time);

	for (i = 0; i < 1000; i++) {
		u64 t0 = kstats_now(consumer_time);

		kfree(kmalloc(4096, GFP_KERNEL));
		kstats_record_since(consumer_time, t0);
	}
	/* Code can read its own distribution: the file's summary figures. */
	if (!kstats_read(consumer_time, &sum))
		pr_info("kstats_consumer: %llu kmalloc+kfree, p50 %llu ns, p99 %llu ns\n",
			sum.samples, sum.p50, sum.p99);
	return 0;
}

static void __exit consumer_exit(void)
{
	/* Nothing records any more: drop the distribution and its file. */
	kstats_delete(consumer_time);
}

module_init(consumer_init);
module_exit(consumer_exit);
MODULE_DESCRIPTION("kstats consumer example: an out-of-tree module using an installed kstats");
MODULE_LICENSE("GPL");
