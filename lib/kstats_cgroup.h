/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 as a family key ("by cgroup") and a filter ("cgroup PATH"):
 * the current task's cgroup of the default hierarchy, read by the probes
 * with no lock; paths and ids are turned into each other in process
 * context (kstats_cgroup.c).
 */
#ifndef _KSTATS_CGROUP_H
#define _KSTATS_CGROUP_H

#include <linux/cgroup.h>
#include <linux/sched.h>
#include <linux/types.h>

#ifdef CONFIG_CGROUPS
/*
 * The current task's cgroup v2.  The probes run with preemption off, a
 * read-side section of RCU's: the css_set, freed a grace period after the
 * task leaves it, stays while they read it; rcu_dereference_raw() because
 * lockdep knows no lock held here.
 */
static __always_inline notrace struct cgroup *kstats_cgroup_current(void)
{
	return rcu_dereference_raw(current->cgroups)->dfl_cgrp;
}

/* The id of the current task's cgroup v2, as "by cgroup" keys it. */
static __always_inline notrace u64 kstats_cgroup_id_current(void)
{
	return cgroup_id(kstats_cgroup_current());
}

/*
 * Whether the current task's cgroup v2 is the one of id @id at depth
 * @level below the root, or one under it.  An id is never given again, so
 * a cgroup removed since the filter was made matches no task.
 */
static __always_inline notrace bool kstats_cgroup_under(u64 id, u32 level)
{
	struct cgroup *cg = kstats_cgroup_current();

	return cg->level >= level && cgroup_id(cg->ancestors[level]) == id;
}

#else
/* A kernel without cgroups: no node takes them (kstats_cgroup_resolve()). */
static __always_inline notrace u64 kstats_cgroup_id_current(void)
{
	return 0;
}

static __always_inline notrace bool kstats_cgroup_under(u64 id, u32 level)
{
	return false;
}
#endif

int kstats_cgroup_resolve(const char *path, u64 *id, u32 *level);
int kstats_cgroup_format(u64 id, char *buf, size_t size);

#endif /* _KSTATS_CGROUP_H */
