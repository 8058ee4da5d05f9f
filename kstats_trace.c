// SPDX-License-Identifier: GPL-2.0
/*
 * Distributions fed by probes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/printk.h>

#include "kstats_internal.h"
#include "kstats_trace.h"

int kstats_trace_create(struct kstats_cmd *cmd)
{
	pr_warn_ratelimited("trace %s: not supported yet\n", cmd->cfg.name);
	return -EOPNOTSUPP;
}
