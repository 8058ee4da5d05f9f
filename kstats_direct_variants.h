/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline's variants, for both architectures' trampolines
 * (kstats_direct_tramp_x86_64.S, kstats_direct_tramp_arm64.S), in the
 * order of enum kstats_direct_variant (kstats_direct.c), so that a stub's
 * place is computed the same way on both.
 *
 * KSTATS_DIRECT_EACH calls macro @m once per variant, as
 *	@m NAME, EXIT, ENTRY[, TK[, COMM]]
 * NAME names the variant (kstats_direct_NAME_<args>, args 0, 1, 2: no
 * arguments, registers, registers and stack words); EXIT is the C exit it
 * calls (kstats_direct_exit_EXIT); ENTRY the clock read at the entry: tsc
 * inline (the TSC, arm64's counter), none, or the C entry
 * kstats_direct_enter_ENTRY; TK: the entry keeps the timekeeper's epoch
 * (clock ktime read as the counter); COMM: the entry compares the task's
 * name with the slot's first.
 */
#ifndef _KSTATS_DIRECT_VARIANTS_H
#define _KSTATS_DIRECT_VARIANTS_H

#ifdef __ASSEMBLY__
.macro KSTATS_DIRECT_EACH m
	/* per clock, one per enum kstats_direct_exit */
	\m tsc, tsc, tsc
	\m tscp, tscp, tsc
	\m tsco, tsco, tsc
	\m ktime, ktime, ktime
	\m ktimep, ktimep, ktime
	\m ktimeo, ktimeo, ktime
	\m local, local, local
	\m localp, localp, local
	\m localo, localo, local
	\m tscns, tscns, tsc, 1
	\m tscnsp, tscnsp, tsc, 1
	\m tscnso, tscnso, tsc, 1
	/* filters and families: the entry and the exit in C, any clock */
	\m rich, rich, rich
	/*
	 * Durations whose filters are all the task's: the entry checks them
	 * in C (kstats_direct_enter_task_<clock>()), the exit is the plain one.
	 */
	\m task_tsc, tscp, task_tsc
	\m task_ktime, ktimep, task_ktime
	\m task_local, localp, task_local
	\m task_tscns, tscnsp, task_tscns
	/* a return value alone: no clock, the exit records it */
	\m ret, ret, none
	/*
	 * An argument alone: the entry records it and returns false, so the
	 * body runs untimed and the exit is never reached (ret's, named for
	 * the macro).  Variant 0 is never chosen: the entry reads registers.
	 */
	\m arg, ret, arg
	/* a duration split by a key of the task: the entry takes it */
	\m tkey_tsc, tscf, tkey_tsc
	\m tkey_ktime, ktimef, tkey_ktime
	\m tkey_local, localf, tkey_local
	\m tkey_tscns, tscnsf, tkey_tscns
	/* a duration whose one filter is the task's name: the plain ones */
	\m comm_tsc, tscp, tsc, 0, 1
	\m comm_ktime, ktimep, ktime, 0, 1
	\m comm_local, localp, local, 0, 1
	\m comm_tscns, tscnsp, tsc, 1, 1
	/* a duration whose one filter is a cgroup: the task ones, that check */
	\m cgroup_tsc, tscp, cgroup_tsc
	\m cgroup_ktime, ktimep, cgroup_ktime
	\m cgroup_local, localp, cgroup_local
	\m cgroup_tscns, tscnsp, cgroup_tscns
.endm
#endif /* __ASSEMBLY__ */

#endif /* _KSTATS_DIRECT_VARIANTS_H */
