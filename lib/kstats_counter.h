/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clock ktime read as the CPU's counter (kstats_counter.c): the counter
 * read inline at both ends of a duration, the difference scaled by the
 * timekeeper's rate (kstats_counter_tk).  On x86-64 and arm64.
 */
#ifndef _KSTATS_COUNTER_H
#define _KSTATS_COUNTER_H

#if defined(CONFIG_X86_64) || defined(CONFIG_ARM64)
#define KSTATS_HAVE_COUNTER 1
#endif

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct seq_file;

#ifndef KSTATS_HAVE_COUNTER
static inline int kstats_counter_init(void) { return 0; }
static inline void kstats_counter_exit(void) { }
static inline bool kstats_counter_is_ktime(void) { return false; }
#else
#ifdef CONFIG_X86_64
#include <asm/msr.h>
#endif

/*
 * CLOCK_MONOTONIC's rate on the counter, for clock ktime read as the
 * counter: mult (bits 0-31) and shift (32-39) of the timekeeper, and its
 * epoch (40-63), which a resume or a change of clocksource advances.  A
 * start keeps the upper half, which its end compares.
 */
extern u64 kstats_counter_tk;

int kstats_counter_init(void);
void kstats_counter_exit(void);
bool kstats_counter_inline(void);
bool kstats_counter_unstable(void);
bool kstats_counter_is_ktime(void);
bool kstats_counter_is_clocksource(void);
void kstats_counter_describe(struct seq_file *m, const char *name, bool *said);

/*
 * The counter, read inline: rdtsc ordered, or isb and cntvct_el0, with no
 * erratum's workaround (a node reads it only where no CPU needs one:
 * kstats_counter_inline()).
 */
static __always_inline notrace u64 kstats_counter_read(void)
{
#ifdef CONFIG_X86_64
	return rdtsc_ordered();
#else
	u64 cnt;

	asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r" (cnt) : : "memory");
	return cnt;
#endif
}

/*
 * cycles * mult >> shift of @tk, the product in 128 bits: the timekeeper's
 * shift is below 64, so one double shift takes the result (where
 * mul_u64_u32_shr() also handles a shift of 64 or more).
 */
static __always_inline notrace u64 kstats_counter_scale(u64 cycles, u64 tk)
{
#ifdef CONFIG_X86_64
	u64 ns, hi;

	/* %cl is bits 32-39 of @tk, the shift: shrd takes its low 6 bits */
	asm("mulq %[mult]\n\tshrdq %%cl, %%rdx, %%rax"
	    : "=a" (ns), "=d" (hi)
	    : "a" (cycles), [mult] "rm" ((u64)(u32)tk), "c" (tk >> 32)
	    : "cc");
	return ns;
#else
	/*
	 * umulh and mul, then the two halves shifted: the high one by one,
	 * then by 63 - shift, so that a shift of 0 needs no test.  A shift
	 * by a register takes its low 6 bits: the epoch above the shift's
	 * 8 bits needs no mask.
	 */
	u64 mult = (u32)tk, shift = tk >> 32, hi, lo;

	asm("umulh %[hi], %[c], %[m]\n\t"
	    "mul %[lo], %[c], %[m]\n\t"
	    "lsr %[lo], %[lo], %[s]\n\t"
	    "lsl %[hi], %[hi], #1\n\t"
	    "mvn %[m], %[s]\n\t"
	    "lsl %[hi], %[hi], %[m]\n\t"
	    "orr %[lo], %[lo], %[hi]"
	    : [hi] "=&r" (hi), [lo] "=&r" (lo), [m] "+r" (mult)
	    : [c] "r" (cycles), [s] "r" (shift));
	return lo;
#endif
}
#endif /* KSTATS_HAVE_COUNTER */
#endif /* __ASSEMBLY__ */

#endif /* _KSTATS_COUNTER_H */
