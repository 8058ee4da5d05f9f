// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - what the tool computes from slot tables: the percentile summary
 * (the kernel's definition, through kstats_rank()), per-CPU tables, deltas
 * between cumulative snapshots, re-binning to a coarser frac_bits, and the
 * two-sample Kolmogorov-Smirnov test of `kstats diff`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

u64 hist_total(const struct kslot *s, size_t n)
{
	u64 t = 0;

	for (size_t i = 0; i < n; i++)
		t += s[i].count;
	return t;
}

/* Sum of avg * count over the slots, 128 bits: a lower bound of the total. */
void hist_sum128(const struct kslot *s, size_t n, u64 *hi, u64 *lo)
{
	*hi = *lo = 0;
	for (size_t i = 0; i < n; i++) {
		u64 h, l = kstats_mul128(s[i].avg, s[i].count, &h);

		*lo += l;
		*hi += h + (*lo < l);
	}
}

/*
 * As format.rst defines it: a percentile is the hi of the slot holding the
 * sample of rank ceil(N * q); min the lo of the lowest non-empty slot, max
 * the hi of the highest; mean the total / N rounded down (here from the slot
 * averages, so it may be below the kernel's exact mean by less than 1).
 */
void hist_summary(const struct kslot *s, size_t n, struct ksummary *out)
{
	static const u32 num[] = { 50, 90, 99, 999 };
	static const u32 den[] = { 100, 100, 100, 1000 };
	u64 *pct[] = { &out->p50, &out->p90, &out->p99, &out->p999 };
	u64 hi, lo, cum = 0;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	while (n && !s[n - 1].count)
		n--;
	out->samples = hist_total(s, n);
	if (!out->samples)
		return;
	while (!s[i].count)
		i++;
	out->min = s[i].lo;
	out->max = s[n - 1].hi;
	for (int q = 0; q < 4; q++) {
		u64 rank = kstats_rank(out->samples, num[q], den[q]);

		while (cum + s[i].count < rank) {
			cum += s[i].count;
			i++;
		}
		*pct[q] = s[i].hi;
	}
	hist_sum128(s, n, &hi, &lo);
	out->mean = kstats_div128(hi, lo, out->samples);
}

/* The slot table of one CPU; @out has room for snap->nslots entries. */
size_t cpu_hist(const struct snapshot *snap, u32 cpu, struct kslot *out)
{
	size_t n = 0, j = 0;

	for (size_t i = 0; i < snap->nrows; i++) {
		const struct kcpurow *r = &snap->rows[i];

		if (r->cpu != cpu)
			continue;
		while (j < snap->nslots && snap->slots[j].slot < r->slot)
			j++;
		if (j == snap->nslots)
			break;
		out[n++] = (struct kslot){ .slot = r->slot,
			.lo = snap->slots[j].lo, .hi = snap->slots[j].hi,
			.count = r->count, .avg = r->avg };
	}
	return n;
}

/* (th:tl - sh:sl) / d, clamped to [lo, hi]; the average of a delta slot. */
static u64 delta_avg(u64 th, u64 tl, u64 sh, u64 sl, u64 d, u64 lo, u64 hi)
{
	u64 q;

	if (th < sh || (th == sh && tl < sl))
		return lo;
	th -= sh + (tl < sl);
	tl -= sl;
	q = kstats_div128(th, tl, d);
	return q < lo ? lo : q > hi ? hi : q;
}

/*
 * cur - prev, slot by slot.  A slot that went down (the distribution was
 * reset between the snapshots) makes the delta the whole of @cur, and sets
 * *reset.
 */
struct kslot *hist_delta(const struct kslot *cur, size_t ncur,
			 const struct kslot *prev, size_t nprev, size_t *nout,
			 int *reset)
{
	struct kslot *d = calloc(ncur ? ncur : 1, sizeof(*d));
	size_t j = 0, n = 0;

	*reset = 0;
	if (!d)
		return NULL;
	for (size_t i = 0; i < ncur && !*reset; i++) {
		u64 pc = 0, pa = 0;

		while (j < nprev && prev[j].slot < cur[i].slot) {
			*reset = 1;	/* a slot of prev vanished */
			j++;
		}
		if (j < nprev && prev[j].slot == cur[i].slot) {
			pc = prev[j].count;
			pa = prev[j].avg;
			j++;
		}
		if (pc > cur[i].count) {
			*reset = 1;
		} else if (pc < cur[i].count) {
			u64 th, tl = kstats_mul128(cur[i].avg, cur[i].count, &th);
			u64 sh, sl = kstats_mul128(pa, pc, &sh);

			d[n] = cur[i];
			d[n].count = cur[i].count - pc;
			d[n].avg = delta_avg(th, tl, sh, sl, d[n].count,
					     cur[i].lo, cur[i].hi);
			n++;
		}
	}
	if (j < nprev)
		*reset = 1;
	if (*reset && ncur) {
		memcpy(d, cur, ncur * sizeof(*d));
		n = ncur;
	}
	*nout = n;
	return d;
}

/*
 * Merge the slots of a finer frac_bits into a coarser one: each fine slot
 * lies wholly inside one coarse slot (both are power-of-two aligned).
 */
struct kslot *hist_rebin(const struct kslot *s, size_t n,
			 unsigned int from_bits, unsigned int to_bits,
			 size_t *nout)
{
	struct kslot *r = calloc(n ? n : 1, sizeof(*r));
	u64 th = 0, tl = 0;
	size_t m = 0;

	if (!r)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		u32 slot = to_bits < from_bits ? kstats_slot(s[i].lo, to_bits)
					       : s[i].slot;
		u64 h, l = kstats_mul128(s[i].avg, s[i].count, &h);

		if (!m || r[m - 1].slot != slot) {
			r[m++] = (struct kslot){ .slot = slot,
				.lo = kstats_slot_lo(slot, to_bits),
				.hi = kstats_slot_hi(slot, to_bits) };
			th = tl = 0;
		}
		if (s[i].hi > r[m - 1].hi)	/* a range's overflow slot */
			r[m - 1].hi = s[i].hi;
		r[m - 1].count += s[i].count;
		tl += l;
		th += h + (tl < l);
		r[m - 1].avg = kstats_div128(th, tl, r[m - 1].count);
	}
	*nout = m;
	return r;
}

/*
 * Q_KS(lambda) = 2 sum_{j>=1} (-1)^(j-1) exp(-2 j^2 lambda^2), the
 * asymptotic probability that the KS statistic exceeds lambda / sqrt(n).
 * For small lambda the equivalent theta-function series converges faster.
 */
double ks_pvalue(double lambda)
{
	double p;

	if (!(lambda > 0))
		return 1.0;
	if (lambda < 1.18) {
		double y = exp(-1.23370055013616983 / (lambda * lambda));

		p = 1.0 - 2.25675833419102515 * sqrt(-log(y)) *
			  (y + pow(y, 9) + pow(y, 25) + pow(y, 49));
	} else {
		double x = exp(-2.0 * lambda * lambda);

		p = 2.0 * (x - pow(x, 4) + pow(x, 9));
	}
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

/*
 * Two-sample KS on the slot CDFs.  Both tables are brought to the smaller
 * frac_bits; D is the largest distance between the cumulative fractions at
 * the slot boundaries; the p-value is Q_KS((sqrt(ne) + 0.12 + 0.11 /
 * sqrt(ne)) * D) with ne = nA nB / (nA + nB) (Stephens' correction).
 * Binning can only hide differences inside a slot, so D is at most the D of
 * the raw samples and the test is conservative.  See kstats.8 for the
 * assumptions (independent samples).
 */
int ks_test(const struct snapshot *a, const struct snapshot *b,
	    struct ks_result *r)
{
	unsigned int fb = a->frac_bits < b->frac_bits ? a->frac_bits
						      : b->frac_bits;
	size_t na, nb, i = 0, j = 0;
	struct kslot *ra = hist_rebin(a->slots, a->nslots, a->frac_bits, fb, &na);
	struct kslot *rb = hist_rebin(b->slots, b->nslots, b->frac_bits, fb, &nb);
	long double ta = (long double)a->samples, tb = (long double)b->samples;
	long double ca = 0, cb = 0;

	memset(r, 0, sizeof(*r));
	r->frac_bits = fb;
	if (!ra || !rb || !a->samples || !b->samples) {
		free(ra);
		free(rb);
		return -1;
	}
	while (i < na || j < nb) {
		u32 slot;
		double dist;

		if (j == nb || (i < na && ra[i].slot <= rb[j].slot))
			slot = ra[i].slot;
		else
			slot = rb[j].slot;
		if (i < na && ra[i].slot == slot)
			ca += ra[i++].count;
		if (j < nb && rb[j].slot == slot)
			cb += rb[j++].count;
		dist = (double)fabsl(ca / ta - cb / tb);
		if (dist > r->d) {
			r->d = dist;
			r->at_slot = slot;
		}
	}
	free(ra);
	free(rb);
	r->n_eff = (double)(ta * tb / (ta + tb));
	{
		double sn = sqrt(r->n_eff);

		r->p = ks_pvalue((sn + 0.12 + 0.11 / sn) * r->d);
	}
	return 0;
}
