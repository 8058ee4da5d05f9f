// SPDX-License-Identifier: GPL-2.0
/*
 * An example user of the kstats API: a misc device, /dev/kstats_example,
 * whose write() copies the data in and folds it into a checksum.  It keeps
 * two distributions:
 *
 *   example_write        how long each write() takes, in ns (ktime)
 *   example_write_bytes  how many bytes each write() carries (clock none)
 *
 * Drive it with any program that writes to the device, then read
 * /sys/kernel/debug/kstats/example_write.  Each write() also fires the
 * tracepoint kstats_example:kstats_example_write, for kstats' tracing of
 * module tracepoints.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kstats.h"

#define CREATE_TRACE_POINTS
#include "kstats_example_trace.h"

#define EXAMPLE_CHUNK	4096

static struct kstats *example_time;
static struct kstats *example_size;
static struct kstats *example_by_size;
static u32 example_checksum;

/*
 * A history of the sizes, slice by slice of time (_history/
 * example_write_bytes): history_ns=10000000 history_slices=12000 keeps two
 * minutes of 10 ms slices.
 */
static ulong history_ns;
module_param(history_ns, ulong, 0444);
MODULE_PARM_DESC(history_ns, "slice of example_write_bytes' history, in ns (0: none)");
static uint history_slices;
module_param(history_slices, uint, 0444);
MODULE_PARM_DESC(history_slices, "slices its history keeps");

/* The work being measured: copy in chunks and fold into a checksum. */
static int example_consume(const char __user *ubuf, size_t count)
{
	u8 *buf = kmalloc(EXAMPLE_CHUNK, GFP_KERNEL);
	size_t done = 0, i, n;
	u32 sum = example_checksum;

	if (!buf)
		return -ENOMEM;
	while (done < count) {
		n = min_t(size_t, count - done, EXAMPLE_CHUNK);
		if (copy_from_user(buf, ubuf + done, n)) {
			kfree(buf);
			return -EFAULT;
		}
		for (i = 0; i < n; i++)
			sum = (sum << 5) + sum + buf[i];
		done += n;
	}
	WRITE_ONCE(example_checksum, sum);
	kfree(buf);
	return 0;
}

/*
 * The time of the whole write, every way out included (kstats_scope());
 * what it returns: the bytes taken, or the negative errno of a failed
 * copy, which kstats counts apart as an "errno" row; and the time of each
 * successful copy keyed by its size, one histogram per size (a family).
 */
static ssize_t example_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	kstats_scope(example_time);
	u64 t0 = kstats_now(example_by_size);
	int err = example_consume(ubuf, count);
	ssize_t ret = err ? err : count;

	if (!err)
		kstats_record_key(example_by_size, count,
				  kstats_now(example_by_size) - t0);
	kstats_record_signed(example_size, ret);
	trace_kstats_example_write(count);
	return ret;
}

static const struct file_operations example_fops = {
	.owner = THIS_MODULE,
	.write = example_write,
	.llseek = noop_llseek,
};

static struct miscdevice example_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "kstats_example",
	.fops = &example_fops,
	.mode = 0600,
};

static int __init example_init(void)
{
	struct kstats_config size_cfg = {
		.name = "example_write_bytes",
		.frac_bits = 2,
		.clock = KSTATS_CLOCK_NONE,
		.history_slice_ns = history_ns,
		.history_slices = history_slices,
	};
	struct kstats_config by_size_cfg = {
		.name = "example_write_by_size",
		.frac_bits = 3,
		.clock = KSTATS_CLOCK_KTIME,
		.max_keys = 16,
	};
	int err;

	example_time = kstats_new("example_write", 3);
	if (IS_ERR(example_time))
		return PTR_ERR(example_time);
	example_size = kstats_new_config(&size_cfg);
	if (IS_ERR(example_size)) {
		err = PTR_ERR(example_size);
		goto out_time;
	}
	example_by_size = kstats_new_config(&by_size_cfg);
	if (IS_ERR(example_by_size)) {
		err = PTR_ERR(example_by_size);
		goto out_size;
	}
	err = misc_register(&example_dev);
	if (err)
		goto out_by_size;
	return 0;

out_by_size:
	kstats_delete(example_by_size);
out_size:
	kstats_delete(example_size);
out_time:
	kstats_delete(example_time);
	return err;
}

static void __exit example_exit(void)
{
	/* No write() runs once the device is gone: then delete. */
	misc_deregister(&example_dev);
	kstats_delete(example_by_size);
	kstats_delete(example_size);
	kstats_delete(example_time);
}

module_init(example_init);
module_exit(example_exit);
MODULE_DESCRIPTION("kstats example: time the write() of a misc device");
MODULE_LICENSE("GPL");
