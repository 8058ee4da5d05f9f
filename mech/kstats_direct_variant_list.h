/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline's variants, listed once, in the trampoline's
 * order, for both architectures' trampolines (kstats_direct_tramp_x86_64.S,
 * kstats_direct_tramp_arm64.S) and for C (enum kstats_direct_variant,
 * kstats_direct_variants.h), so that a stub's place is computed the same
 * way on both and in C.  No include guard: each user defines
 *	KSTATS_DIRECT_VARIANT(NAME, EXIT, ENTRY, TK, COMM, IDS)
 * and includes this file, which expands it once per variant, then
 * undefines it (as the kernel's kvm-x86-ops.h lists its operations).
 *
 * NAME names the variant (kstats_direct_NAME_<args>, args 0, 1: no
 * arguments, registers; KSTATS_DIRECT_ARG_KINDS); EXIT is the C exit it
 * calls (kstats_direct_exit_EXIT); ENTRY the clock read at the entry: tsc
 * inline (the TSC, arm64's counter), none, or the C entry
 * kstats_direct_enter_ENTRY; TK 1: the entry keeps the timekeeper's epoch
 * (clock ktime read as the counter); COMM 1: the entry compares the
 * task's name with the slot's first, 2: the id of the task's cgroup v2's
 * ancestor at the slot's level with the slot's; IDS 0, or: the entry keeps
 * the task's name (1, at KSTATS_DFRAME_NAME) or its pid and tgid (2, at
 * KSTATS_DFRAME_IDS) in the frame, for the exit to take the key from: only
 * with an entry that calls no C, whose argument registers' words are
 * free; or (3) all the argument registers, saved as for a C entry, for
 * the exit to take the key from one of them.  The variants are those of enum kstats_direct_kind
 * (kstats_direct.h), whose comment says what each does.  arg's exit is
 * ret's, never reached (its entry returns false); its variant 0 is never
 * chosen: the entry reads registers.
 */
#ifndef KSTATS_DIRECT_VARIANT
#error "define KSTATS_DIRECT_VARIANT() before including kstats_direct_variant_list.h"
#endif

/* per clock, one per enum kstats_direct_exit */
KSTATS_DIRECT_VARIANT(tsc, tsc, tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tscp, tscp, tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tsco, tsco, tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ktime, ktime, ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ktimep, ktimep, ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ktimeo, ktimeo, ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(local, local, local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(localp, localp, local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(localo, localo, local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tscns, tscns, tsc, 1, 0, 0)
KSTATS_DIRECT_VARIANT(tscnsp, tscnsp, tsc, 1, 0, 0)
KSTATS_DIRECT_VARIANT(tscnso, tscnso, tsc, 1, 0, 0)
/* filters and families: the entry and the exit in C, any clock */
KSTATS_DIRECT_VARIANT(rich, rich, rich, 0, 0, 0)
/* filters all the task's: a C entry checks them, the plain exit */
KSTATS_DIRECT_VARIANT(task_tsc, tscp, task_tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(task_ktime, ktimep, task_ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(task_local, localp, task_local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(task_tscns, tscnsp, task_tscns, 0, 0, 0)
/* a return value alone: no clock, the exit records it */
KSTATS_DIRECT_VARIANT(ret, ret, none, 0, 0, 0)
/* an argument alone: recorded at the entry, the body run untimed */
KSTATS_DIRECT_VARIANT(arg, ret, arg, 0, 0, 0)
/* a duration split by a key of the task: the entry takes it */
KSTATS_DIRECT_VARIANT(tkey_tsc, tscf, tkey_tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tkey_ktime, ktimef, tkey_ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tkey_local, localf, tkey_local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(tkey_tscns, tscnsf, tkey_tscns, 0, 0, 0)
/* a duration whose one filter is the task's name: the plain ones */
KSTATS_DIRECT_VARIANT(comm_tsc, tscp, tsc, 0, 1, 0)
KSTATS_DIRECT_VARIANT(comm_ktime, ktimep, ktime, 0, 1, 0)
KSTATS_DIRECT_VARIANT(comm_local, localp, local, 0, 1, 0)
KSTATS_DIRECT_VARIANT(comm_tscns, tscnsp, tsc, 1, 1, 0)
/* one filter, a cgroup: inline (tsc, tscns), else in C */
KSTATS_DIRECT_VARIANT(cgroup_tsc, tscp, tsc, 0, 2, 0)
KSTATS_DIRECT_VARIANT(cgroup_ktime, ktimep, cgroup_ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(cgroup_local, localp, cgroup_local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(cgroup_tscns, tscnsp, tsc, 1, 2, 0)
/* by caller: the exit takes it; no filter, then the task's name */
KSTATS_DIRECT_VARIANT(fkey_tsc, tsck, tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(fkey_ktime, ktimek, ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(fkey_local, localk, local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(fkey_tscns, tscnsk, tsc, 1, 0, 0)
KSTATS_DIRECT_VARIANT(fkey_comm_tsc, tsck, tsc, 0, 1, 0)
KSTATS_DIRECT_VARIANT(fkey_comm_ktime, ktimek, ktime, 0, 1, 0)
KSTATS_DIRECT_VARIANT(fkey_comm_local, localk, local, 0, 1, 0)
KSTATS_DIRECT_VARIANT(fkey_comm_tscns, tscnsk, tsc, 1, 1, 0)
/* by task name, then pid or tid: kept by the entry (tsc, tscns) */
KSTATS_DIRECT_VARIANT(tname_tsc, tscn, tsc, 0, 0, 1)
KSTATS_DIRECT_VARIANT(tname_tscns, tscnsn, tsc, 1, 0, 1)
KSTATS_DIRECT_VARIANT(tname_comm_tsc, tscn, tsc, 0, 1, 1)
KSTATS_DIRECT_VARIANT(tname_comm_tscns, tscnsn, tsc, 1, 1, 1)
KSTATS_DIRECT_VARIANT(tids_tsc, tsct, tsc, 0, 0, 2)
KSTATS_DIRECT_VARIANT(tids_tscns, tscnst, tsc, 1, 0, 2)
KSTATS_DIRECT_VARIANT(tids_comm_tsc, tsct, tsc, 0, 1, 2)
KSTATS_DIRECT_VARIANT(tids_comm_tscns, tscnst, tsc, 1, 1, 2)
/* by an argument in a register: kept by the entry (tsc, tscns) */
KSTATS_DIRECT_VARIANT(akey_tsc, tsca, tsc, 0, 0, 3)
KSTATS_DIRECT_VARIANT(akey_tscns, tscnsa, tsc, 1, 0, 3)
/* by function, as by caller: the exit reads the function's address */
KSTATS_DIRECT_VARIANT(ffunc_tsc, tsci, tsc, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ffunc_ktime, ktimei, ktime, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ffunc_local, locali, local, 0, 0, 0)
KSTATS_DIRECT_VARIANT(ffunc_tscns, tscnsi, tsc, 1, 0, 0)
KSTATS_DIRECT_VARIANT(ffunc_comm_tsc, tsci, tsc, 0, 1, 0)
KSTATS_DIRECT_VARIANT(ffunc_comm_ktime, ktimei, ktime, 0, 1, 0)
KSTATS_DIRECT_VARIANT(ffunc_comm_local, locali, local, 0, 1, 0)
KSTATS_DIRECT_VARIANT(ffunc_comm_tscns, tscnsi, tsc, 1, 1, 0)

#undef KSTATS_DIRECT_VARIANT
