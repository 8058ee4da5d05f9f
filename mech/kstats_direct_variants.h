/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline's variants, listed once, for both architectures'
 * trampolines (kstats_direct_tramp_x86_64.S, kstats_direct_tramp_arm64.S)
 * and for C (enum kstats_direct_variant, kstats_direct.c), so that a
 * stub's place is computed the same way on both and in C.
 *
 * KSTATS_DIRECT_VARIANTS(m) calls @m once per variant, in the trampoline's
 * order, as
 *	m(NAME, EXIT, ENTRY, TK, COMM, IDS)
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
 * free.  The assembly takes the list through KSTATS_DIRECT_EACH, C through
 * the enum; the variants are those of enum kstats_direct_kind
 * (kstats_direct.h), whose comment says what each does.  arg's exit is
 * ret's, never reached (its entry returns false); its variant 0 is never
 * chosen: the entry reads registers.
 */
#ifndef _KSTATS_DIRECT_VARIANTS_H
#define _KSTATS_DIRECT_VARIANTS_H

#include "kstats_direct.h"

#define KSTATS_DIRECT_VARIANTS(m) \
	/* per clock, one per enum kstats_direct_exit */ \
	m(tsc, tsc, tsc, 0, 0, 0) \
	m(tscp, tscp, tsc, 0, 0, 0) \
	m(tsco, tsco, tsc, 0, 0, 0) \
	m(ktime, ktime, ktime, 0, 0, 0) \
	m(ktimep, ktimep, ktime, 0, 0, 0) \
	m(ktimeo, ktimeo, ktime, 0, 0, 0) \
	m(local, local, local, 0, 0, 0) \
	m(localp, localp, local, 0, 0, 0) \
	m(localo, localo, local, 0, 0, 0) \
	m(tscns, tscns, tsc, 1, 0, 0) \
	m(tscnsp, tscnsp, tsc, 1, 0, 0) \
	m(tscnso, tscnso, tsc, 1, 0, 0) \
	/* filters and families: the entry and the exit in C, any clock */ \
	m(rich, rich, rich, 0, 0, 0) \
	/* filters all the task's: a C entry checks them, the plain exit */ \
	m(task_tsc, tscp, task_tsc, 0, 0, 0) \
	m(task_ktime, ktimep, task_ktime, 0, 0, 0) \
	m(task_local, localp, task_local, 0, 0, 0) \
	m(task_tscns, tscnsp, task_tscns, 0, 0, 0) \
	/* a return value alone: no clock, the exit records it */ \
	m(ret, ret, none, 0, 0, 0) \
	/* an argument alone: recorded at the entry, the body run untimed */ \
	m(arg, ret, arg, 0, 0, 0) \
	/* a duration split by a key of the task: the entry takes it */ \
	m(tkey_tsc, tscf, tkey_tsc, 0, 0, 0) \
	m(tkey_ktime, ktimef, tkey_ktime, 0, 0, 0) \
	m(tkey_local, localf, tkey_local, 0, 0, 0) \
	m(tkey_tscns, tscnsf, tkey_tscns, 0, 0, 0) \
	/* a duration whose one filter is the task's name: the plain ones */ \
	m(comm_tsc, tscp, tsc, 0, 1, 0) \
	m(comm_ktime, ktimep, ktime, 0, 1, 0) \
	m(comm_local, localp, local, 0, 1, 0) \
	m(comm_tscns, tscnsp, tsc, 1, 1, 0) \
	/* one filter, a cgroup: inline (tsc, tscns), else in C */ \
	m(cgroup_tsc, tscp, tsc, 0, 2, 0) \
	m(cgroup_ktime, ktimep, cgroup_ktime, 0, 0, 0) \
	m(cgroup_local, localp, cgroup_local, 0, 0, 0) \
	m(cgroup_tscns, tscnsp, tsc, 1, 2, 0) \
	/* by caller: the exit takes it; no filter, then the task's name */ \
	m(fkey_tsc, tsck, tsc, 0, 0, 0) \
	m(fkey_ktime, ktimek, ktime, 0, 0, 0) \
	m(fkey_local, localk, local, 0, 0, 0) \
	m(fkey_tscns, tscnsk, tsc, 1, 0, 0) \
	m(fkey_comm_tsc, tsck, tsc, 0, 1, 0) \
	m(fkey_comm_ktime, ktimek, ktime, 0, 1, 0) \
	m(fkey_comm_local, localk, local, 0, 1, 0) \
	m(fkey_comm_tscns, tscnsk, tsc, 1, 1, 0) \
	/* by task name, then pid or tid: kept by the entry (tsc, tscns) */ \
	m(tname_tsc, tscn, tsc, 0, 0, 1) \
	m(tname_tscns, tscnsn, tsc, 1, 0, 1) \
	m(tname_comm_tsc, tscn, tsc, 0, 1, 1) \
	m(tname_comm_tscns, tscnsn, tsc, 1, 1, 1) \
	m(tids_tsc, tsct, tsc, 0, 0, 2) \
	m(tids_tscns, tscnst, tsc, 1, 0, 2) \
	m(tids_comm_tsc, tsct, tsc, 0, 1, 2) \
	m(tids_comm_tscns, tscnst, tsc, 1, 1, 2) \
	/* by function, as by caller: the exit reads the function's address */ \
	m(ffunc_tsc, tsci, tsc, 0, 0, 0) \
	m(ffunc_ktime, ktimei, ktime, 0, 0, 0) \
	m(ffunc_local, locali, local, 0, 0, 0) \
	m(ffunc_tscns, tscnsi, tsc, 1, 0, 0) \
	m(ffunc_comm_tsc, tsci, tsc, 0, 1, 0) \
	m(ffunc_comm_ktime, ktimei, ktime, 0, 1, 0) \
	m(ffunc_comm_local, locali, local, 0, 1, 0) \
	m(ffunc_comm_tscns, tscnsi, tsc, 1, 1, 0)

#ifdef __ASSEMBLY__
/*
 * KSTATS_DIRECT_EACH m: the assembler macro \m once per variant, as
 *	\m NAME, EXIT, ENTRY, TK, COMM, IDS
 * one statement each, on the one line the list expands to (";" separates
 * statements on x86-64 and arm64 alike).
 */
#define KSTATS_DIRECT_EACH_ONE(name, exit, entry, tk, comm, ids) \
	\m name, exit, entry, tk, comm, ids;

.macro KSTATS_DIRECT_EACH m
	KSTATS_DIRECT_VARIANTS(KSTATS_DIRECT_EACH_ONE)
.endm

/*
 * A variant's code and its stubs, for each kind of arguments
 * (KSTATS_DIRECT_ARG_KINDS): through the architecture's
 * KSTATS_DIRECT_COMMON (the code) and KSTATS_DIRECT_STUBS
 * (KSTATS_DIRECT_SLOTS stubs that jump to it).
 */
.macro KSTATS_DIRECT_CODE name, exit, entry, tk, comm, ids
	KSTATS_DIRECT_COMMON \name, \exit, \entry, 0, \tk, \comm, \ids
	KSTATS_DIRECT_COMMON \name, \exit, \entry, 1, \tk, \comm, \ids
.endm

.macro KSTATS_DIRECT_STUBS_ARGS name, exit, entry, tk, comm, ids
	KSTATS_DIRECT_STUBS kstats_direct_\name\()_0
	KSTATS_DIRECT_STUBS kstats_direct_\name\()_1
.endm

/*
 * Every variant's code, from kstats_direct_code: a return address from
 * there up to the stubs, which follow, is a call of a traced function's
 * body in flight or a task in the trampoline's entry or exit; the
 * return sites, where the calls of the bodies return, are listed in
 * kstats_direct_rets (KSTATS_DIRECT_RETURN_SITE).
 */
.macro KSTATS_DIRECT_VARIANTS_CODE
	.pushsection .rodata.kstats_direct_rets, "a"
	.balign	4
	.globl	kstats_direct_rets
	.set	kstats_direct_rets, .
	.popsection
	.globl	kstats_direct_code
	.set	kstats_direct_code, .
	KSTATS_DIRECT_EACH KSTATS_DIRECT_CODE
	.pushsection .rodata.kstats_direct_rets, "a"
	.globl	kstats_direct_rets_end
	.set	kstats_direct_rets_end, .
	.popsection
.endm

/*
 * Where a variant's call of the body returns (a return site), which a
 * task asleep in the body has on its stack: kept as an offset from
 * kstats_direct_code in kstats_direct_rets, in the code's order, so that a
 * removal can tell such a word from the trampoline's other addresses
 * (kstats_direct_reroute.c).  A table only: the code is the same without.
 */
.macro KSTATS_DIRECT_RETURN_SITE
	.set	.L_return_site_\@, .
	.pushsection .rodata.kstats_direct_rets, "a"
	.long	.L_return_site_\@ - kstats_direct_code
	.popsection
.endm

/*
 * kstats_c_entry: whether ENTRY @entry is a call of C (an entry that
 * reads the counter inline, tsc, or none, a return value alone, is not).
 */
.macro KSTATS_DIRECT_C_ENTRY entry
	.set	kstats_c_entry, 1
	.ifc \entry, tsc
	.set	kstats_c_entry, 0
	.endif
	.ifc \entry, none
	.set	kstats_c_entry, 0
	.endif
.endm
#else /* !__ASSEMBLY__ */
/*
 * The trampoline's stub arrays, in its order: KSTATS_DV_NAME is the first
 * of variant NAME's KSTATS_DIRECT_ARG_KINDS arrays (no arguments, then
 * registers), KSTATS_DV_NAME_last its last; KSTATS_DVS of them in all.
 */
#define KSTATS_DIRECT_DV(name, ...)					\
	KSTATS_DV_##name,						\
	KSTATS_DV_##name##_last = KSTATS_DV_##name + KSTATS_DIRECT_ARG_KINDS - 1,

enum kstats_direct_variant {
	KSTATS_DIRECT_VARIANTS(KSTATS_DIRECT_DV)
	KSTATS_DVS
};
#endif /* __ASSEMBLY__ */

#endif /* _KSTATS_DIRECT_VARIANTS_H */
