// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - quantiles of a slot table (and a part's summary with them), and
 * the verdict of `kstats diff`.
 *
 * A quantile is read inside its slot: the slot's samples are taken to have
 * a linear density over [lo, hi + 1) whose mean is the slot's average (the
 * file keeps it to a millionth of the slot's width), which is exact for a
 * uniform slot and follows the slope of a smooth distribution (a uniform
 * one over part of the slot when the mean is too near an end for that).  Exact slots
 * (lo == hi) give their value.
 *
 * The confidence interval of a quantile q of N samples is distribution-free:
 * the ranks N q -/+ z sqrt(N q (1 - q)) (the normal approximation of the
 * binomial law of the order statistics), one more rank each way, mapped to
 * values as above.  The ratio B/A of a quantile then lies in
 * [B.lo / A.hi, B.hi / A.lo].  The mean's interval is the normal one, with
 * the variance of the slot averages plus each slot's width^2 / 12.
 *
 * A row moved when its whole interval lies beyond the threshold.  The
 * intervals are simultaneous (Bonferroni over the rows and the two sides),
 * so the chance that a row of two draws of one law is called moved is
 * below alpha.  With several runs (three or more in all), it must also
 * have moved beyond the run-to-run noise: the mean of the logs of B's runs'
 * values against A's, less log(1 + threshold), over the standard error
 * from the runs' standard deviation (A's and B's pooled), is beyond the
 * one-sided Student t quantile of alpha / (2 rows) with nA + nB - 2
 * degrees of freedom (a two-sample t test on log values: the runs
 * independent, their log values normal with one variance).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

const struct jrow_def judge_rows[JUDGE_ROWS] = {
	{ "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p99.9", 0.999 },
	{ "mean", 0 },
};

/*
 * u in [0, 1] where a linear density of mean @mu has CDF @p.  A mean too
 * near an end for a linear density (the samples fill part of the slot)
 * gives a uniform density over [0, 2 mu] or [2 mu - 1, 1].
 */
static double linear_inverse(double p, double mu)
{
	double b, a;

	if (mu < 1.0 / 3)
		return p * 2 * mu;
	if (mu > 2.0 / 3)
		return 2 * mu - 1 + p * (2 - 2 * mu);
	b = 12 * (mu - 0.5);	/* density 1 + b (u - 1/2) */
	if (fabs(b) < 1e-9)
		return p;
	a = 1 - b / 2;
	return (-a + sqrt(a * a + 2 * b * p)) / b;
}

/* The value at continuous rank @rank (0..N) of the table, as above. */
double hist_value_at(const struct kslot *s, size_t n, double rank)
{
	double cum = 0, w, p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!s[i].count)
			continue;
		if (cum + (double)s[i].count >= rank)
			break;
		cum += (double)s[i].count;
	}
	if (i == n) {	/* past the end: the highest sample's slot */
		while (n && !s[n - 1].count)
			n--;
		if (!n)
			return 0;
		i = n - 1;
		rank = cum;
		cum -= (double)s[i].count;
	}
	if (s[i].lo == s[i].hi)
		return (double)s[i].lo;
	if (s[i].hi == U64_MAX_VAL)	/* the overflow slot: open-ended */
		return rank >= cum + (double)s[i].count ? INFINITY
							 : (double)s[i].avg;
	w = (double)(s[i].hi - s[i].lo) + 1;
	p = (rank - cum) / (double)s[i].count;
	p = p < 0 ? 0 : p > 1 ? 1 : p;
	p = (double)s[i].lo - 0.5 +
	    w * linear_inverse(p, ((double)s[i].avg + 0.5 - (double)s[i].lo) / w);
	return p < (double)s[i].lo ? (double)s[i].lo :
	       p > (double)s[i].hi ? (double)s[i].hi : p;
}

double hist_quantile(const struct kslot *s, size_t n, double q)
{
	return hist_value_at(s, n, q * (double)hist_total(s, n));
}

/* The standard normal quantile of 1 - @tail, by bisection on erfc. */
double normal_upper(double tail)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / sqrt(2)) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static void mean_est(const struct kslot *s, size_t n, double z,
		     struct qest *e)
{
	double N = (double)hist_total(s, n), sum = 0, var = 0;

	for (size_t i = 0; i < n; i++)
		sum += (double)s[i].count * (double)s[i].avg;
	e->v = N ? sum / N : 0;
	for (size_t i = 0; i < n; i++) {
		double d = (double)s[i].avg - e->v;
		double w = (double)(s[i].hi - s[i].lo) + 1;

		if (s[i].hi == U64_MAX_VAL)
			w = 0;	/* unknown: the average only */
		var += (double)s[i].count * (d * d + w * w / 12);
	}
	var = N > 1 ? var / (N - 1) : 0;
	e->lo = e->v - z * sqrt(var / N);
	e->hi = e->v + z * sqrt(var / N);
	e->lo = e->lo < 0 ? 0 : e->lo;
}

/* Quantile @q (0: the mean) of a table, with its interval at @z. */
void hist_estimate(const struct kslot *s, size_t n, double q, double z,
		   struct qest *e)
{
	double N = (double)hist_total(s, n), r = q * N, h;

	if (!q) {
		mean_est(s, n, z, e);
		return;
	}
	h = z * sqrt(N * q * (1 - q)) + 1;
	e->v = hist_value_at(s, n, r);
	e->lo = hist_value_at(s, n, r - h < 0 ? 0 : r - h);
	e->hi = hist_value_at(s, n, r + h > N ? N : r + h);
}

/* P(T > x) for Student's t with @df degrees of freedom, x >= 0. */
static double t_upper(double x, double df)
{
	double c = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * 3.14159265358979323846);
	double sum = 0, h = x / 2000;

	for (int i = 0; i <= 2000; i++) {	/* Simpson */
		double u = i * h, f = c * pow(1 + u * u / df, -(df + 1) / 2);

		sum += f * (i == 0 || i == 2000 ? 1 : i % 2 ? 4 : 2);
	}
	return 0.5 - sum * h / 3;
}

/* The t quantile of 1 - @tail, by bisection. */
static double t_quantile(double tail, double df)
{
	double lo = 0, hi = 1000;

	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (t_upper(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double mean_sq(const double *x, size_t n, double *m)
{
	double ss = 0;

	*m = 0;
	for (size_t i = 0; i < n; i++)
		*m += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	return ss;
}

/*
 * Several runs: the logs of the runs' values, B's mean against A's, in
 * units of the run-to-run standard deviation (A's runs, pooled with B's):
 * 1 (up) or -1 when the difference beyond the threshold is significant
 * at @tail (one-sided), 0 when not, 2 when no spread is known (one run).
 */
static int runs_moved(const double *ra, size_t na, const double *rb,
		      size_t nb, double threshold, double tail)
{
	double la[JUDGE_MAX_RUNS], lb[JUDGE_MAX_RUNS], ma, mb, ss, df, se, d;

	if (na + nb < 3)
		return 2;
	for (size_t i = 0; i < na; i++)
		la[i] = log(ra[i]);
	for (size_t i = 0; i < nb; i++)
		lb[i] = log(rb[i]);
	ss = mean_sq(la, na, &ma) + mean_sq(lb, nb, &mb);
	df = (double)(na + nb) - 2;
	se = sqrt(ss / df * (1.0 / (double)na + 1.0 / (double)nb));
	d = fabs(mb - ma) - log(1 + threshold);
	if (d <= 0 || (se > 0 && d / se <= t_quantile(tail, df)))
		return 0;
	return mb > ma ? 1 : -1;
}

/* One row: the pooled estimates, the runs' values, the spread, the call. */
static void judge_row(struct judge *j, struct jrow *r, double q,
		      const struct jside *a, const struct jside *b, double z)
{
	double ra[JUDGE_MAX_RUNS], rb[JUDGE_MAX_RUNS];
	double up = 1 + j->threshold, down = 1 / up;
	int runs;

	hist_estimate(a->pool, a->npool, q, z, &r->a);
	hist_estimate(b->pool, b->npool, q, z, &r->b);
	r->ratio = r->a.v > 0 ? r->b.v / r->a.v : NAN;
	r->ratio_lo = r->a.hi > 0 ? r->b.lo / r->a.hi : NAN;
	r->ratio_hi = r->a.lo > 0 ? r->b.hi / r->a.lo : INFINITY;
	r->spread_lo = r->spread_hi = 1;
	for (size_t i = 0; i < a->nruns; i++) {
		struct qest e;

		hist_estimate(a->runs[i], a->nruns_slots[i], q, z, &e);
		ra[i] = e.v;
		if (r->a.v > 0) {
			r->spread_lo = fmin(r->spread_lo, e.v / r->a.v);
			r->spread_hi = fmax(r->spread_hi, e.v / r->a.v);
		}
	}
	for (size_t i = 0; i < b->nruns; i++) {
		struct qest e;

		hist_estimate(b->runs[i], b->nruns_slots[i], q, z, &e);
		rb[i] = e.v;
	}
	r->moved = 0;
	if (!(r->a.v > 0)) {
		r->why = JW_ZERO;	/* no ratio to A's 0 */
		return;
	}
	if (isinf(r->b.hi) || isinf(r->a.hi)) {
		r->why = JW_OPEN;	/* in an open-ended slot */
		return;
	}
	r->judged = 1;
	runs = runs_moved(ra, a->nruns, rb, b->nruns, j->threshold,
			  j->alpha / (2.0 * JUDGE_ROWS));
	if (r->ratio_lo > up && (runs == 2 || runs == 1))
		r->moved = 1;
	else if (r->ratio_hi < down && (runs == 2 || runs == -1))
		r->moved = -1;
	/*
	 * An interval with no bound on one side ([0, x] or [x, inf]) that
	 * moved neither way says nothing: not "same", but too few samples,
	 * or with one run a side, no run-to-run noise to weigh them against.
	 */
	if (!r->moved && (!(r->ratio_lo > 0) || isinf(r->ratio_hi))) {
		r->judged = 0;
		r->why = JW_UNBOUNDED;
	}
}

/*
 * Judge B against A.  Each side's runs and pool are at one frac_bits.
 * Returns 1 when a row moved, else 0.
 */
int judge(struct judge *j, const struct jside *a, const struct jside *b)
{
	/* rows x 2 sides, two-sided */
	double z = normal_upper(j->alpha / (4.0 * JUDGE_ROWS));

	j->z = z;
	j->different = j->unjudged = 0;
	for (int i = 0; i < JUDGE_ROWS; i++) {
		memset(&j->rows[i], 0, sizeof(j->rows[i]));
		judge_row(j, &j->rows[i], judge_rows[i].q, a, b, z);
		j->different |= j->rows[i].moved != 0;
		j->unjudged += j->rows[i].why == JW_UNBOUNDED;
	}
	if (j->different)
		j->unjudged = 0;
	return j->different;
}

/* The sum of tables at one frac_bits, slot by slot (with the averages). */
struct kslot *hist_merge(struct kslot *const *t, const size_t *n, size_t k,
			 unsigned int frac_bits, size_t *nout)
{
	size_t total = 0, m = 0;
	struct kslot *all, *r;

	for (size_t i = 0; i < k; i++)
		total += n[i];
	all = calloc(total ? total : 1, sizeof(*all));
	if (!all)
		return NULL;
	for (size_t i = 0; i < k; i++) {
		memcpy(all + m, t[i], n[i] * sizeof(*all));
		m += n[i];
	}
	qsort(all, m, sizeof(*all), kslot_cmp);
	/* a re-binning to the same bits sums the equal slots */
	r = hist_rebin(all, m, frac_bits, frac_bits, nout);
	free(all);
	return r;
}

int kslot_cmp(const void *x, const void *y)
{
	const struct kslot *a = x, *b = y;

	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* The percentiles of @out (from hist_summary()) read inside their slots. */
void hist_interpolate(const struct kslot *s, size_t n, struct ksummary *out)
{
	u64 *p[] = { &out->p50, &out->p90, &out->p99, &out->p999 };
	const double q[] = { 0.5, 0.9, 0.99, 0.999 };

	/* within min and max: exact ones, when the kernel keeps them */
	for (int i = 0; out->samples && i < 4; i++) {
		double v = hist_quantile(s, n, q[i]);

		if (isinf(v))
			continue;
		*p[i] = (u64)llround(v);
		*p[i] = *p[i] < out->min ? out->min : *p[i] > out->max ? out->max : *p[i];
	}
}

/*
 * A part's summary (a CPU's, a key's) from its slots, its min and max
 * kept within the whole's: no sample of a part is below the smallest of
 * all or above the largest.
 */
void part_summary(const struct kslot *s, size_t n, const struct ksummary *all,
		  struct ksummary *out)
{
	hist_summary(s, n, out);
	if (!out->samples || !all->samples)
		return;
	if (out->min < all->min)
		out->min = all->min;
	if (out->max > all->max)
		out->max = all->max;
	if (out->min > out->max)
		out->min = out->max;
	hist_interpolate(s, n, out);
}
