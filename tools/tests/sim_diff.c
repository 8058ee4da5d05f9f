// SPDX-License-Identifier: GPL-2.0
/*
 * sim_diff - the false-positive rate and the power of `kstats diff`'s
 * verdict (judge.c), by simulation: pairs of histograms at frac_bits 3 of
 * two draws of one law (any verdict DIFFERENT is a false positive), and of
 * a law against the same law with 1% of its samples 10x slower (any verdict
 * same is a miss).  Up to 1e5 samples the draws are of samples (a quarter of the pairs at 1e5), bucketed as
 * the module does; else of slot counts (Poisson or normal, from the
 * law's slot probabilities), so that N = 1e9 costs no more than 1e4.  Then
 * runs with run-to-run noise (each run's median off by a factor e^N(0,
 * 0.05)): 5 runs of A, 3 of B.
 *
 *   sim_diff [REPS]     one line per case: "sim CASE: K of R DIFFERENT"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

#define BITS	3
#define NSLOT	((65 - BITS) << BITS)

struct law {
	double median, sigma, tail, factor;	/* tail: fraction x factor */
};

static unsigned long long rng = 88172645463325252ULL;

static double uni(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uni())) * cos(6.28318530717958647692 * uni());
}

static double draw(const struct law *l)
{
	double x = l->median * exp(l->sigma * gauss());

	return uni() < l->tail ? x * l->factor : x;
}

/* The compact table of dense counts and sums. */
static size_t compact(const double *cnt, const double *sum, struct kslot *out)
{
	size_t n = 0;

	for (u32 s = 0; s < NSLOT; s++) {
		u64 lo = kstats_slot_lo(s, BITS), hi = kstats_slot_hi(s, BITS);
		double a;

		if (!(cnt[s] > 0))
			continue;
		a = floor(sum[s] / cnt[s]);
		a = a < (double)lo ? (double)lo : a > (double)hi ? (double)hi : a;
		out[n++] = (struct kslot){ .slot = s, .lo = lo, .hi = hi,
			.count = (u64)cnt[s], .avg = (u64)a };
	}
	return n;
}

static size_t sample_hist(const struct law *l, double N, struct kslot *out)
{
	static double cnt[NSLOT], sum[NSLOT];

	memset(cnt, 0, sizeof(cnt));
	memset(sum, 0, sizeof(sum));
	for (long i = 0; i < (long)N; i++) {
		u64 v = (u64)llround(draw(l));
		u32 s = kstats_slot(v, BITS);

		cnt[s]++;
		sum[s] += (double)v;
	}
	return compact(cnt, sum, out);
}

static double law_cdf(const struct law *l, double x)
{
	double a = log(x / l->median) / l->sigma / sqrt(2);
	double b = log(x / (l->median * l->factor)) / l->sigma / sqrt(2);

	if (x <= 0)
		return 0;
	return (1 - l->tail) * 0.5 * erfc(-a) + l->tail * 0.5 * erfc(-b);
}

static double poisson(double m)
{
	double t = exp(-m), p = 1;
	int k = 0;

	if (m > 50)
		return fmax(0, floor(m + sqrt(m) * gauss() + 0.5));
	do {
		k++;
		p *= uni();
	} while (p > t);
	return k - 1;
}

/* Slot counts drawn from the slot probabilities; averages their means. */
static size_t binned_hist(const struct law *l, double N, struct kslot *out)
{
	static double cnt[NSLOT], sum[NSLOT];

	for (u32 s = 0; s < NSLOT; s++) {
		double lo = (double)kstats_slot_lo(s, BITS) - 0.5;
		double hi = (double)kstats_slot_hi(s, BITS) + 0.5;
		double p = law_cdf(l, hi) - law_cdf(l, lo), m = 0, w = 0;

		cnt[s] = p > 0 ? poisson(N * p) : 0;
		if (!cnt[s] || hi > 1e15)
			continue;
		for (int k = 0; k < 16; k++) {	/* mean within the slot */
			double x0 = lo + (hi - lo) * k / 16;
			double x1 = lo + (hi - lo) * (k + 1) / 16;
			double pk = law_cdf(l, x1) - law_cdf(l, x0);

			m += pk * (x0 + x1) / 2;
			w += pk;
		}
		sum[s] = cnt[s] * (w > 0 ? m / w : (lo + hi) / 2);
	}
	return compact(cnt, sum, out);
}

static int exact;

static size_t hist(const struct law *l, double N, struct kslot *out)
{
	return exact ? sample_hist(l, N, out) : binned_hist(l, N, out);
}

/* @na runs of A's law and @nb of B's, each with run noise @noise. */
static int one(const struct law *la, const struct law *lb, double N,
	       size_t na, size_t nb, double noise)
{
	static struct kslot tab[2][8][NSLOT];
	struct kslot *runs[2][8];
	size_t n[2][8];
	struct jside side[2];
	struct judge j = { .threshold = 0.05, .alpha = 0.05 };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < (k ? nb : na); i++) {
			struct law l = k ? *lb : *la;

			l.median *= exp(noise * gauss());
			n[k][i] = hist(&l, N, tab[k][i]);
			runs[k][i] = tab[k][i];
		}
	for (int k = 0; k < 2; k++) {
		side[k].runs = runs[k];
		side[k].nruns_slots = n[k];
		side[k].nruns = k ? nb : na;
		side[k].pool = hist_merge(runs[k], n[k], side[k].nruns, BITS,
					  &side[k].npool);
	}
	judge(&j, &side[0], &side[1]);
	free(side[0].pool);
	free(side[1].pool);
	return j.different;
}

static void run(const char *name, const struct law *la, const struct law *lb,
		double N, size_t na, size_t nb, double noise, int reps)
{
	int k = 0;

	for (int r = 0; r < reps; r++)
		k += one(la, lb, N, na, nb, noise);
	printf("sim %s N=%.0e runs %zu/%zu%s: %d of %d DIFFERENT\n", name, N,
	       na, nb, exact ? " (samples)" : "", k, reps);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 200;
	struct law same = { 1000, 0.4, 0, 1 };
	struct law tail = { 1000, 0.4, 0.01, 10 };
	struct law shift = { 1250, 0.4, 0, 1 }, shift2 = { 1500, 0.4, 0, 1 };

	exact = 1;	/* samples drawn and bucketed */
	run("same-law", &same, &same, 1e3, 1, 1, 0, reps);
	run("same-law", &same, &same, 1e5, 1, 1, 0, reps / 4);
	run("tail-1%-x10", &same, &tail, 1e5, 1, 1, 0, reps / 4);
	exact = 0;	/* slot counts drawn */
	for (double N = 1e4; N <= 1e9; N *= 10)
		run("same-law", &same, &same, N, 1, 1, 0, reps);
	for (double N = 1e5; N <= 1e9; N *= 100)
		run("tail-1%-x10", &same, &tail, N, 1, 1, 0, reps);
	run("same-law-noisy-runs", &same, &same, 1e5, 1, 1, 0.05, reps);
	run("same-law-noisy-runs", &same, &same, 1e5, 5, 3, 0.05, reps);
	run("shift-25%-noisy-runs", &same, &shift, 1e5, 5, 3, 0.05, reps);
	run("shift-50%-noisy-runs", &same, &shift2, 1e5, 5, 3, 0.05, reps);
	return 0;
}
