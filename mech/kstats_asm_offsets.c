// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's offsets that the direct trampoline reads
 * (kstats_direct_tramp_*.S), turned into kstats_asm_offsets.h by Kbuild as
 * the kernel's own asm-offsets.h is (filechk_offsets): the task's name, for
 * the comm filter it checks inline, its name and ids, which the task ids
 * variants keep, its cgroup v2's id and ancestors, for the cgroup filter
 * it checks inline, with the preemption count it raises around that read;
 * and on x86-64 where the current task is in the per-CPU area (arm64 keeps
 * it in sp_el0).
 */
#include <linux/cgroup-defs.h>
#include <linux/kbuild.h>
#include <linux/kernfs.h>
#include <linux/sched.h>
#include <asm/current.h>

int main(void)
{
	DEFINE(KSTATS_TASK_COMM, offsetof(struct task_struct, comm));
	DEFINE(KSTATS_TASK_PID, offsetof(struct task_struct, pid));
	DEFINE(KSTATS_TASK_TGID, offsetof(struct task_struct, tgid));
#ifdef CONFIG_CGROUPS
	DEFINE(KSTATS_TASK_CGROUPS, offsetof(struct task_struct, cgroups));
	DEFINE(KSTATS_CSET_DFL_CGRP, offsetof(struct css_set, dfl_cgrp));
	DEFINE(KSTATS_CGROUP_LEVEL, offsetof(struct cgroup, level));
	DEFINE(KSTATS_CGROUP_ANCESTORS, offsetof(struct cgroup, ancestors));
	DEFINE(KSTATS_CGROUP_KN, offsetof(struct cgroup, kn));
	DEFINE(KSTATS_KN_ID, offsetof(struct kernfs_node, id));
#endif
#if defined(CONFIG_X86_64) && defined(KSTATS_PCPU_HOT)
	DEFINE(KSTATS_PCPU_HOT_CURRENT, offsetof(struct pcpu_hot, current_task));
	DEFINE(KSTATS_PCPU_HOT_PREEMPT, offsetof(struct pcpu_hot, preempt_count));
#endif
#if defined(CONFIG_ARM64) && defined(CONFIG_PREEMPT_COUNT)
	DEFINE(KSTATS_TASK_PREEMPT, offsetof(struct task_struct,
					     thread_info.preempt_count));
#endif
	return 0;
}
