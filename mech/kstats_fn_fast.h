/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fast handlers' instances (kstats_time_enter(), kstats_time_exit() in
 * kstats_fn.h), listed once for every mechanism (kstats_fprobe.c,
 * kstats_kretprobe.c).  No include guard: a user defines
 *	KSTATS_FAST_CLOCK(CLOCK), expanded once per clock, and/or
 *	KSTATS_FAST_BITS(CLOCK, BITS), once per clock and frac_bits, BITS 0
 *	to KSTATS_MAX_FRAC_BITS,
 * and includes this file, which undefines both (as the kernel's
 * kvm-x86-ops.h lists its operations); one left undefined expands to
 * nothing.  kstats_clock_CLOCK names the clock (kstats_fn.h).
 */
#ifndef KSTATS_FAST_CLOCK
#define KSTATS_FAST_CLOCK(...)
#endif
#ifndef KSTATS_FAST_BITS
#define KSTATS_FAST_BITS(...)
#endif

KSTATS_FAST_CLOCK(ktime)
KSTATS_FAST_CLOCK(local)
KSTATS_FAST_CLOCK(tsc)
KSTATS_FAST_BITS(ktime, 0)
KSTATS_FAST_BITS(ktime, 1)
KSTATS_FAST_BITS(ktime, 2)
KSTATS_FAST_BITS(ktime, 3)
KSTATS_FAST_BITS(ktime, 4)
KSTATS_FAST_BITS(ktime, 5)
KSTATS_FAST_BITS(local, 0)
KSTATS_FAST_BITS(local, 1)
KSTATS_FAST_BITS(local, 2)
KSTATS_FAST_BITS(local, 3)
KSTATS_FAST_BITS(local, 4)
KSTATS_FAST_BITS(local, 5)
KSTATS_FAST_BITS(tsc, 0)
KSTATS_FAST_BITS(tsc, 1)
KSTATS_FAST_BITS(tsc, 2)
KSTATS_FAST_BITS(tsc, 3)
KSTATS_FAST_BITS(tsc, 4)
KSTATS_FAST_BITS(tsc, 5)

#undef KSTATS_FAST_CLOCK
#undef KSTATS_FAST_BITS
