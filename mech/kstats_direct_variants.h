/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the direct trampoline's variants (kstats_direct_variant_list.h)
 * make: in the trampolines (kstats_direct_tramp_x86_64.S,
 * kstats_direct_tramp_arm64.S), each variant's code and its stubs, through
 * the assembler macro KSTATS_DIRECT_EACH, which each trampoline defines
 * from the list; in C, enum kstats_direct_variant, whose order is the
 * stubs' (kstats_direct.c).
 */
#ifndef _KSTATS_DIRECT_VARIANTS_H
#define _KSTATS_DIRECT_VARIANTS_H

#include "kstats_direct.h"

#ifdef __ASSEMBLY__
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
 * The variants, in the trampoline's order: KSTATS_DVI_NAME is variant
 * NAME's place; KSTATS_DV(NAME) the first of its KSTATS_DIRECT_ARG_KINDS
 * stub arrays (no arguments, then registers).
 */
enum kstats_direct_variant {
#define KSTATS_DIRECT_VARIANT(name, ...) KSTATS_DVI_##name,
#include "kstats_direct_variant_list.h"
	KSTATS_DVS
};

#define KSTATS_DV(name)	(KSTATS_DVI_##name * KSTATS_DIRECT_ARG_KINDS)
#endif /* __ASSEMBLY__ */

#endif /* _KSTATS_DIRECT_VARIANTS_H */
