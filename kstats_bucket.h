/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear bucket math shared by kstats.ko, its tests
 * and the kstats command-line tool.
 *
 * A value v (u64) goes into a slot of a histogram with frac_bits k
 * (0 <= k <= KSTATS_MAX_FRAC_BITS):
 *
 *   - values below 2^k each get one exact slot: slot = v;
 *   - otherwise, with l = floor(log2(v)), the power of two [2^l, 2^(l+1))
 *     is split into 2^k equal slots of width 2^(l-k):
 *       slot = ((l - k + 1) << k) + ((v >> (l - k)) & (2^k - 1)).
 *
 * This is the bucketing of bpftrace's hist(n, k) for n >= 0, so both tools
 * agree slot for slot.  The whole u64 range maps onto (65 - k) << k slots
 * with no gap and no overlap.
 *
 * Each slot also accumulates the offsets of its samples within the slot,
 * as fractions of the slot's width in units of 2^-20, so that the average
 * of a slot is known to a millionth of its width and the sum never
 * overflows for fewer than 2^44 samples in one slot of one CPU.
 *
 * This file compiles in the kernel (__KERNEL__) and in plain C99 userspace:
 * keep it free of anything but integer arithmetic.  In the kernel, inline
 * functions are notrace, so the fast path can never be traced.
 */
#ifndef _KSTATS_BUCKET_H
#define _KSTATS_BUCKET_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/types.h>
/* floor(log2(x)) for x != 0: a single bsr on x86-64. */
#define kstats_fls(x)	__fls(x)
#else
#include <stdbool.h>
typedef unsigned long long u64;
typedef unsigned int u32;
static inline unsigned int kstats_fls(u64 x)
{
	return 63 - (unsigned int)__builtin_clzll(x);
}
#endif

/* Largest supported frac_bits: 2^5 slots per power of two (3% width). */
#define KSTATS_MAX_FRAC_BITS	5
/* What _control gives a node made without "bits". */
#define KSTATS_DEFAULT_FRAC_BITS	3
/* Offsets are summed with at most this many significant bits per sample. */
#define KSTATS_SUM_BITS		20

/**
 * kstats_nr_slots() - number of slots covering the whole u64 range
 * @frac_bits: log2 of the number of slots per power of two
 *
 * Return: (65 - frac_bits) << frac_bits.
 */
static inline u32 kstats_nr_slots(unsigned int frac_bits)
{
	return (65U - frac_bits) << frac_bits;
}

/**
 * kstats_locate() - the slot that holds @val, and the width of that slot
 * @val: the sample
 * @frac_bits: log2 of the number of slots per power of two
 * @shift: where to store log2 of the slot's width: 0 for the exact slots
 *	below 2^frac_bits, else floor(log2(@val)) - frac_bits
 *
 * Setting bit @frac_bits makes the exact slots below 2^frac_bits fall out
 * of the same formula (shift 0, slot = @val), so there is no branch, no
 * zero case and no mask: with l = floor(log2(@val | 2^k)), shift = l - k
 * and @val >> shift is 2^k plus the slot within the power of two.
 *
 * Return: the slot index, below kstats_nr_slots(@frac_bits); 64 bits
 * wide, so that a recorder scales it into an address with no zero
 * extension first.
 */
static inline u64 kstats_locate(u64 val, unsigned int frac_bits,
				unsigned int *shift)
{
	*shift = kstats_fls(val | (1ULL << frac_bits)) - frac_bits;
	return ((u64)*shift << frac_bits) + (val >> *shift);
}

/**
 * kstats_slot() - the slot that holds @val
 * @val: the sample
 * @frac_bits: log2 of the number of slots per power of two
 *
 * Return: the slot index, below kstats_nr_slots(@frac_bits).
 */
static inline u32 kstats_slot(u64 val, unsigned int frac_bits)
{
	unsigned int shift;

	return (u32)kstats_locate(val, frac_bits, &shift);
}

/**
 * kstats_sum_term() - what one sample adds to its slot's offset sum
 * @val: the sample
 * @shift: the slot's shift, from kstats_locate()
 *
 * The offset of @val within its slot as a fraction of the slot's width,
 * in units of 2^-KSTATS_SUM_BITS: the low @shift bits of @val moved to the
 * top of the word, then the top KSTATS_SUM_BITS of them.  Exact for slots
 * up to 2^KSTATS_SUM_BITS wide, truncated beyond; 0 in the exact slots
 * (@shift 0, where the double shift drops every bit).  No clamp, no
 * branch: two shifts and a subtraction on the fast path.
 *
 * Return: the term to add to the slot's sum, below 2^KSTATS_SUM_BITS.
 */
static inline u64 kstats_sum_term(u64 val, unsigned int shift)
{
	return ((val << 1) << (63 - shift)) >> (64 - KSTATS_SUM_BITS);
}

/**
 * kstats_sum_max() - the largest offset sum @count samples can add up to
 * @count: samples in a slot
 *
 * Each sample adds less than 2^KSTATS_SUM_BITS (kstats_sum_term()).  A
 * reader clamps a slot's sum to this, since a count and a sum read apart
 * (or reset apart) may disagree by a sample in flight: the slot's average
 * then stays within the slot.
 *
 * Return: @count * (2^KSTATS_SUM_BITS - 1), saturated to 64 bits.
 */
static inline u64 kstats_sum_max(u64 count)
{
	const u64 term = (1ULL << KSTATS_SUM_BITS) - 1;

	return count > ~0ULL / term ? ~0ULL : count * term;
}

/**
 * kstats_slot_shift() - log2 of the width of @slot
 * @slot: the slot
 * @frac_bits: log2 of the number of slots per power of two
 *
 * Return: the shift kstats_locate() gives for the values of @slot.
 */
static inline unsigned int kstats_slot_shift(u32 slot, unsigned int frac_bits)
{
	unsigned int t = slot >> frac_bits;

	return t ? t - 1 : 0;
}

/**
 * kstats_slot_lo() - smallest value held by @slot
 * @slot: the slot, below kstats_nr_slots(@frac_bits)
 * @frac_bits: log2 of the number of slots per power of two
 *
 * Return: the inclusive lower bound of @slot.
 */
static inline u64 kstats_slot_lo(u32 slot, unsigned int frac_bits)
{
	u32 t = slot >> frac_bits;
	u64 mask = (1ULL << frac_bits) - 1;

	if (!t)
		return slot;
	return ((1ULL << frac_bits) | (slot & mask)) << (t - 1);
}

/**
 * kstats_slot_hi() - largest value held by @slot
 * @slot: the slot, below kstats_nr_slots(@frac_bits)
 * @frac_bits: log2 of the number of slots per power of two
 *
 * Return: the inclusive upper bound of @slot (U64_MAX for the last slot).
 */
static inline u64 kstats_slot_hi(u32 slot, unsigned int frac_bits)
{
	return kstats_slot_lo(slot, frac_bits) +
	       ((1ULL << kstats_slot_shift(slot, frac_bits)) - 1);
}

/**
 * kstats_rank() - the 1-based rank of quantile @num/@den among @n samples
 * @n: number of samples
 * @num: numerator of the quantile (for p99.9: 999)
 * @den: denominator of the quantile (for p99.9: 1000), at most 2^32
 *
 * ceil(@n * @num / @den), at least 1, computed without overflow.
 *
 * Return: the rank; the quantile is the value of the rank-th smallest sample.
 */
static inline u64 kstats_rank(u64 n, u32 num, u32 den)
{
	u64 r = (n / den) * num + ((n % den) * num + den - 1) / den;

	return r ? r : 1;
}

/**
 * kstats_mul128() - 64x64 to 128 bit multiplication
 * @a: first factor
 * @b: second factor
 * @hi: where to store the high 64 bits
 *
 * Return: the low 64 bits of @a * @b.
 */
static inline u64 kstats_mul128(u64 a, u64 b, u64 *hi)
{
	const u64 lo32 = 0xffffffffULL;
	u64 al = a & lo32, ah = a >> 32, bl = b & lo32, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (lh & lo32) + (hl & lo32);

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (ll & lo32);
}

/**
 * kstats_div128() - 128 by 64 bit division, quotient saturated to 64 bits
 * @hi: high 64 bits of the dividend
 * @lo: low 64 bits of the dividend
 * @d: divisor, not zero
 *
 * Plain shift-and-subtract: used on read paths only, never when recording.
 *
 * Return: the quotient, or U64_MAX when it does not fit in 64 bits.
 */
static inline u64 kstats_div128(u64 hi, u64 lo, u64 d)
{
	u64 q = 0;
	int i;

	if (hi >= d)
		return ~0ULL;
	for (i = 63; i >= 0; i--) {
		bool carry = hi >> 63;

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		if (carry || hi >= d) {
			hi -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}

/**
 * kstats_ppm() - @part / @whole in millionths, rounded down
 * @part: the part, at most @whole
 * @whole: the whole, not zero
 *
 * Return: 0..1000000, without overflow for any u64 arguments.
 */
static inline u64 kstats_ppm(u64 part, u64 whole)
{
	u64 hi, lo = kstats_mul128(part, 1000000, &hi);

	return kstats_div128(hi, lo, whole);
}

/**
 * kstats_slot_total() - sum of the samples in a slot, as 128 bits
 * @slot: the slot
 * @frac_bits: log2 of the number of slots per power of two
 * @count: samples in the slot
 * @sum: the slot's offset sum (see kstats_sum_term())
 * @hi: where to store the high 64 bits
 *
 * Return: the low 64 bits of the sum of the samples of @slot.
 */
static inline u64 kstats_slot_total(u32 slot, unsigned int frac_bits,
				    u64 count, u64 sum, u64 *hi)
{
	unsigned int shift = kstats_slot_shift(slot, frac_bits);
	u64 base_hi, lo = kstats_mul128(count, kstats_slot_lo(slot, frac_bits),
					&base_hi);
	u64 off_hi = 0, off_lo;

	/* @sum counts 2^-KSTATS_SUM_BITS of the width 2^shift. */
	if (shift <= KSTATS_SUM_BITS) {
		off_lo = sum >> (KSTATS_SUM_BITS - shift);
	} else {
		off_lo = sum << (shift - KSTATS_SUM_BITS);
		off_hi = sum >> (64 - (shift - KSTATS_SUM_BITS));
	}
	lo += off_lo;
	*hi = base_hi + off_hi + (lo < off_lo);
	return lo;
}

/**
 * kstats_slot_avg() - average of the samples in a slot
 * @slot: the slot
 * @frac_bits: log2 of the number of slots per power of two
 * @count: samples in the slot
 * @sum: the slot's offset sum (see kstats_sum_term())
 *
 * Return: the average, within [lo, hi] of @slot; 0 for an empty slot.
 */
static inline u64 kstats_slot_avg(u32 slot, unsigned int frac_bits,
				  u64 count, u64 sum)
{
	u64 hi, lo;

	if (!count)
		return 0;
	lo = kstats_slot_total(slot, frac_bits, count, sum, &hi);
	return kstats_div128(hi, lo, count);
}

#endif /* _KSTATS_BUCKET_H */
