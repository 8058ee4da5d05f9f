// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's offsets that the direct trampoline reads
 * (kstats_direct_tramp_*.S), turned into kstats_asm_offsets.h by Kbuild as
 * the kernel's own asm-offsets.h is (filechk_offsets): the task's name, for
 * the comm filter it checks inline, its name and ids, which the task ids
 * variants keep, and on x86-64 where the current task is in the per-CPU
 * area (arm64 keeps it in sp_el0).
 */
#include <linux/kbuild.h>
#include <linux/sched.h>
#include <asm/current.h>

int main(void)
{
	DEFINE(KSTATS_TASK_COMM, offsetof(struct task_struct, comm));
	DEFINE(KSTATS_TASK_PID, offsetof(struct task_struct, pid));
	DEFINE(KSTATS_TASK_TGID, offsetof(struct task_struct, tgid));
#if defined(CONFIG_X86_64) && defined(KSTATS_PCPU_HOT)
	DEFINE(KSTATS_PCPU_HOT_CURRENT, offsetof(struct pcpu_hot, current_task));
#endif
	return 0;
}
