// SPDX-License-Identifier: GPL-2.0
/*
 * kstats.ko's load and unload: the parts start bottom up (the core, the
 * probe mechanisms, then the debugfs interface that lets users in) and stop
 * top down.  Only this file calls them all, so that none of them calls
 * back into a file that calls it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

#include "kstats_debugfs.h"
#include "kstats_internal.h"
#include "kstats_outlier.h"
#include "kstats_point.h"
#include "kstats_stack.h"
#include "kstats_trace.h"

static int __init kstats_init(void)
{
	int err;

	kstats_point_init();
	err = kstats_core_init();
	if (err)
		return err;
	err = kstats_stack_init();
	if (err)
		goto core;
	err = kstats_outlier_init();
	if (err)
		goto stack;
	err = kstats_trace_module_init();
	if (err)
		goto outlier;
	err = kstats_debugfs_init();
	if (err)
		goto trace;
	return 0;

trace:
	kstats_trace_module_exit();
outlier:
	kstats_outlier_exit();
stack:
	kstats_stack_exit();
core:
	kstats_core_exit();
	return err;
}

static void __exit kstats_exit(void)
{
	struct kstats *ks;

	/*
	 * Holders of a reference pin this module through the symbols they
	 * use, so what is left here was made from debugfs.  Retiring a trace
	 * node deletes its gap sibling, so pop one node at a time.
	 */
	kstats_debugfs_exit_control();
	while ((ks = kstats_pop_removable()))
		kstats_drop(ks);
	kstats_debugfs_exit();
	/* What the trace nodes left: no call in flight is waited for. */
	kstats_trace_module_exit();
	kstats_outlier_exit();
	kstats_stack_exit();
	kstats_core_exit();
}

module_init(kstats_init);
module_exit(kstats_exit);
MODULE_DESCRIPTION("kstats: per-CPU log-linear histograms of kernel quantities");
MODULE_AUTHOR("The kstats developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(KSTATS_VERSION);
