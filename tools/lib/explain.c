// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - the nodes' histories (history.c) as series of numbers on one
 * grid of slices, and what they say (kstats explain): when a node's tail
 * comes (its period, by autocorrelation; its phases), and which other
 * series go with it (Pearson r, within a few slices of lag).  No I/O: the
 * command reads the files, the unit tests give synthetic series.
 *
 * A node gives three series: its tail (a slice's samples in buckets whose
 * LO is at least the threshold), its weight (a slice's count x bucket
 * midpoint summed: about the time it took) and its count.  Any series on
 * the grid can be a correlate: the nodes' are the first, a context node
 * of the machine would be one more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

static int in_window(u64 t, u64 from, u64 to)
{
	return t >= from && t < to;
}

/*
 * The grid of @nh histories' slices in [@from, @to): the largest slice
 * length (shorter slices are summed into it), from the first slice of any
 * to the last.  0, or -1 when no slice falls in the window (g->n 0).
 */
int xgrid_make(const struct history *h, size_t nh, u64 from, u64 to,
	       struct xgrid *g)
{
	u64 lo = U64_MAX_VAL, hi = 0;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < nh; i++)
		if (h[i].slice_ns > g->slice_ns)
			g->slice_ns = h[i].slice_ns;
	if (!g->slice_ns)
		return -1;
	for (size_t i = 0; i < nh; i++)
		for (size_t j = 0; j < h[i].n; j++) {
			u64 t = h[i].s[j].t;

			if (!in_window(t, from, to))
				continue;
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
	if (lo > hi)
		return -1;
	g->t0 = lo - lo % g->slice_ns;
	g->n = (size_t)((hi - g->t0) / g->slice_ns) + 1;
	return 0;
}

static int cmp_lo(const void *x, const void *y)
{
	u64 a = ((const struct hbucket *)x)->lo, b = ((const struct hbucket *)y)->lo;

	return a < b ? -1 : a > b;
}

/*
 * The tail's threshold of @h's slices in [@from, @to), their buckets
 * merged: the LO of the bucket that holds the rank-ceil(0.99 N) sample
 * (0: no sample); but when empty slots lie between the p50's bucket and
 * that one, the LO of the first bucket above the widest run of them: a
 * slow mode of its own is the tail whole.  A p99 that splits such a mode
 * (slow answers spread over a few buckets) would keep a part of it, and
 * the slices with the rest look like slices without a tail; and a slow
 * mode may hold more than a tenth of the samples (a throttled server
 * that answers a few requests a period, one of them late).
 */
u64 x_p99_lo(const struct history *h, u64 from, u64 to)
{
	struct hbucket *all;
	size_t nb = 0, k = 0, n = 0, i99 = 0, i50 = 0;
	u64 total = 0, r99, r50, cum = 0, lo = 0;
	int fb = history_frac_bits(h);

	for (size_t i = 0; i < h->n; i++)
		if (in_window(h->s[i].t, from, to))
			nb += h->s[i].nb;
	if (!nb)
		return 0;
	all = malloc(nb * sizeof(*all));
	if (!all)
		return 0;
	for (size_t i = 0; i < h->n; i++)
		for (size_t j = 0; in_window(h->s[i].t, from, to) && j < h->s[i].nb; j++) {
			all[k++] = h->s[i].b[j];
			total += h->s[i].b[j].count;
		}
	if (!total) {
		free(all);
		return 0;
	}
	qsort(all, nb, sizeof(*all), cmp_lo);
	/* one bucket a slot: the slices' counts of it added */
	for (size_t i = 0; i < nb; i++) {
		if (n && all[n - 1].lo == all[i].lo)
			all[n - 1].count += all[i].count;
		else
			all[n++] = all[i];
	}
	r99 = kstats_rank(total, 99, 100);
	r50 = kstats_rank(total, 50, 100);
	for (size_t i = 0; i < n; i++) {
		cum += all[i].count;
		if (cum < r50)
			i50 = i + 1;
		if (cum >= r99) {
			i99 = i;
			break;
		}
	}
	lo = all[i99].lo;
	if (fb >= 0) {
		u32 widest = 0;

		for (size_t j = i50 + 1; j <= i99; j++) {
			u32 gap = kstats_slot(all[j].lo, (unsigned int)fb) -
				  kstats_slot(all[j - 1].lo, (unsigned int)fb) - 1;

			if (gap > widest) {
				widest = gap;
				lo = all[j].lo;
			}
		}
	}
	free(all);
	return lo;
}

/* A bucket's midpoint: from its slot's bounds (frac_bits @k), else its LO. */
static double midpoint(u64 lo, int k)
{
	u64 hi;

	if (k < 0)
		return (double)lo;
	hi = kstats_slot_hi(kstats_slot(lo, (unsigned int)k), (unsigned int)k);
	return hi == U64_MAX_VAL ? (double)lo : (double)lo + (double)(hi - lo) / 2;
}

/*
 * @h's series on grid @g, from its slices in [@from, @to): the tail
 * above @above (if @has_above) or above its own p99, the weight, the
 * count; [a, b) the slices between its first and its last.  0, or -1
 * out of memory.
 */
int xnode_make(struct xnode *x, const struct history *h,
	       const struct xgrid *g, u64 from, u64 to, int has_above,
	       u64 above)
{
	int k = history_frac_bits(h);

	memset(x, 0, sizeof(*x));
	x->h = h;
	x->above = has_above ? above : x_p99_lo(h, from, to);
	x->tail = calloc(g->n + 1, sizeof(double));
	x->weight = calloc(g->n + 1, sizeof(double));
	x->count = calloc(g->n + 1, sizeof(double));
	if (!x->tail || !x->weight || !x->count) {
		xnode_free(x);
		return -1;
	}
	x->a = g->n;
	for (size_t i = 0; i < h->n; i++) {
		const struct hslice *s = &h->s[i];
		size_t at;

		if (!in_window(s->t, from, to) || s->t < g->t0)
			continue;
		at = (size_t)((s->t - g->t0) / g->slice_ns);
		if (at >= g->n)
			continue;
		x->a = at < x->a ? at : x->a;
		x->b = at + 1 > x->b ? at + 1 : x->b;
		for (size_t j = 0; j < s->nb; j++) {
			double c = (double)s->b[j].count;

			x->count[at] += c;
			x->weight[at] += c * midpoint(s->b[j].lo, k);
			if (s->b[j].lo >= x->above)
				x->tail[at] += c;
		}
	}
	if (x->a > x->b)
		x->a = x->b = 0;
	return 0;
}

void xnode_free(struct xnode *x)
{
	free(x->tail);
	free(x->weight);
	free(x->count);
	x->tail = x->weight = x->count = NULL;
}

/* The autocorrelation of @v (mean removed, lag 0 = 1), lags 0..@maxl. */
static double *autocorr(const double *v, size_t n, size_t maxl)
{
	double mean = 0, var = 0, *ac;

	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	if (var <= 0)
		return NULL;
	ac = calloc(maxl + 1, sizeof(*ac));
	if (!ac)
		return NULL;
	for (size_t l = 0; l <= maxl && l < n; l++) {
		double s = 0;

		for (size_t i = 0; i + l < n; i++)
			s += (v[i] - mean) * (v[i + l] - mean);
		ac[l] = s / var;
	}
	return ac;
}

static int peak_at(const double *ac, size_t l)
{
	return ac[l] > ac[l - 1] && ac[l] >= ac[l + 1];
}

/*
 * @v smoothed into @out over X_JITTER slices either side, by triangular
 * weights (1 2 3 2 1): an event that lands a slice or two early or late
 * (a wake-up delayed, a slice's edge crossed) still lines up with the
 * others of its period, and with its cause.
 */
static void smooth(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		double s = 0, w = 0;

		for (int d = -X_JITTER; d <= X_JITTER; d++) {
			double k = X_JITTER + 1 - abs(d);

			if ((d < 0 && i < (size_t)-d) || i + d >= n)
				continue;
			s += k * v[i + d];
			w += k;
		}
		out[i] = s / w;
	}
}

/*
 * The period of @v: the lag (2..n/2) of the highest local maximum of its
 * autocorrelation, or of a peak near a half or a third of it nearly as
 * high (the fundamental, not a harmonic); refined between its neighbours
 * by a parabola.  Strength and lag only; 0 strength when there is none.
 */
static void period_of(const double *v, size_t n, struct xperiod *p)
{
	size_t maxl = n / 2, best = 0;
	double *ac, y0, y1, y2, den, d = 0;

	memset(p, 0, sizeof(*p));
	ac = autocorr(v, n, maxl + 1);
	if (!ac)
		return;
	for (size_t l = 2; l <= maxl; l++)
		if (peak_at(ac, l) && (!best || ac[l] > ac[best]))
			best = l;
	if (!best) {
		free(ac);
		return;
	}
	for (size_t div = 3, done = 0; div >= 2 && !done; div--) {
		size_t c = (best + div / 2) / div;

		for (size_t l = c > 3 ? c - 1 : 2; l <= c + 1 && l < best; l++)
			if (peak_at(ac, l) && ac[l] >= X_HARMONIC * ac[best]) {
				best = l;
				done = 1;
				break;
			}
	}
	y0 = ac[best - 1];
	y1 = ac[best];
	y2 = ac[best + 1];
	den = y0 - 2 * y1 + y2;
	if (den < 0)
		d = 0.5 * (y0 - y2) / den;
	d = d > 0.5 ? 0.5 : d < -0.5 ? -0.5 : d;
	p->lag = (double)best + d;
	p->strength = y1 < 0 ? 0 : y1 > 1 ? 1 : y1;
	free(ac);
}

/*
 * The fraction of @v's whole periods of @lag slices with a tail: a few
 * events that smoothed line up by chance leave most periods without one.
 */
static double periods_with_tail(const double *v, size_t n, double lag)
{
	size_t whole = (size_t)((double)n / lag), with = 0;

	for (size_t k = 0; k < whole; k++) {
		size_t from = (size_t)((double)k * lag);
		size_t to = (size_t)((double)(k + 1) * lag);

		for (size_t i = from; i < to && i < n; i++)
			if (v[i]) {
				with++;
				break;
			}
	}
	return whole ? (double)with / (double)whole : 0;
}

/*
 * The period of @v (period_of()), claimed (p->found) only when the peak
 * is strong enough, the series holds periods enough and has a tail in
 * slices enough; or that of @v smoothed (smooth()), when it is claimed
 * so, stronger, at least X_JITTER_PERIOD slices (the smoothing would
 * merge the events of a shorter one), and with a tail in X_JITTER_COVER
 * of its periods or more: p->jitter is then X_JITTER.  A tail that lands
 * a slice or two off its period (a wake-up late under load) has a weak
 * peak as it is, and maybe a stronger one at a multiple of the period
 * that happened to line up.
 */
void x_period(const double *v, size_t n, struct xperiod *p)
{
	size_t nonzero = 0;
	struct xperiod q;
	double *sm;

	memset(p, 0, sizeof(*p));
	if (n < 8)
		return;
	for (size_t i = 0; i < n; i++)
		nonzero += v[i] != 0;
	if (nonzero < X_MIN_NONZERO)
		return;
	period_of(v, n, p);
	p->found = p->strength >= X_MIN_STRENGTH &&
		   (double)n >= X_MIN_PERIODS * p->lag;
	sm = malloc(n * sizeof(*sm));
	if (!sm)
		return;
	smooth(v, n, sm);
	period_of(sm, n, &q);
	free(sm);
	if (q.strength >= X_MIN_STRENGTH && q.lag >= X_JITTER_PERIOD &&
	    (double)n >= X_MIN_PERIODS * q.lag &&
	    (!p->found || q.strength > p->strength) &&
	    periods_with_tail(v, n, q.lag) >= X_JITTER_COVER) {
		*p = q;
		p->found = 1;
		p->jitter = X_JITTER;
	}
}

/* The lags a correlate is tried at, either way: min(X_MAX_LAG, n/4). */
int x_max_lag(size_t n)
{
	return n / 4 < X_MAX_LAG ? (int)(n / 4) : X_MAX_LAG;
}

/* Pearson r of a[i] and b[i - k], over the slices both have; NAN if flat. */
static double pearson(const double *a, const double *b, size_t n, int k)
{
	size_t from = k > 0 ? (size_t)k : 0;
	size_t to = k < 0 ? n - (size_t)-k : n, m = to - from;
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	if (to <= from || m < 3)
		return NAN;
	for (size_t i = from; i < to; i++) {
		ma += a[i];
		mb += b[i - k];
	}
	ma /= (double)m;
	mb /= (double)m;
	for (size_t i = from; i < to; i++) {
		double x = a[i] - ma, y = b[i - k] - mb;

		sab += x * y;
		saa += x * x;
		sbb += y * y;
	}
	if (saa <= 0 || sbb <= 0)
		return NAN;
	return sab / sqrt(saa * sbb);
}

/* The lag of the best |r| of @a against @b shifted, into @c. */
static void best_lag(const double *a, const double *b, size_t n, int maxlag,
		     struct xcorr *c)
{
	c->lag = 0;
	c->r = 0;
	c->jitter = 0;
	for (int i = 0; i <= 2 * maxlag; i++) {
		int k = i % 2 ? (i + 1) / 2 : -(i / 2);
		double r = pearson(a, b, n, k);

		if (!isnan(r) && fabs(r) > fabs(c->r)) {
			c->r = r;
			c->lag = k;
		}
	}
}

/*
 * How @b goes with @a: the lag k in -maxlag..maxlag (the nearer to 0 on a
 * tie) with the best |r| of a[i] against b[i - k] (k > 0: b leads).  When
 * that r is under X_MIN_R, the best of the two smoothed (smooth()) if
 * higher, c->jitter X_JITTER: events a slice or two apart still go
 * together.
 */
void x_correlate(const double *a, const double *b, size_t n, int maxlag,
		 struct xcorr *c)
{
	double *sa, *sb;
	struct xcorr s;

	best_lag(a, b, n, maxlag, c);
	if (fabs(c->r) >= X_MIN_R)
		return;
	sa = malloc(n * sizeof(*sa));
	sb = malloc(n * sizeof(*sb));
	if (sa && sb) {
		smooth(a, n, sa);
		smooth(b, n, sb);
		best_lag(sa, sb, n, maxlag, &s);
		if (fabs(s.r) > fabs(c->r)) {
			*c = s;
			c->jitter = X_JITTER;
		}
	}
	free(sa);
	free(sb);
}

/*
 * The phases of @v: its non-zero slices, merged across gaps of at most
 * max(X_MIN_GAP, 1.5 x @period) empty slices; [start, end) in slices.
 * One phase of X_WHOLE of @n or more: the whole of it.  @start and @end
 * hold @n each; returns how many.
 */
size_t x_phases(const double *v, size_t n, double period, size_t *start,
		size_t *end)
{
	double gap = 1.5 * period > X_MIN_GAP ? 1.5 * period : X_MIN_GAP;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		if (k && (double)(i - end[k - 1]) <= gap) {
			end[k - 1] = i + 1;
			continue;
		}
		start[k] = i;
		end[k++] = i + 1;
	}
	for (size_t i = 0; i < k; i++)
		if ((double)(end[i] - start[i]) >= X_WHOLE * (double)n) {
			start[0] = 0;
			end[0] = n;
			return 1;
		}
	return k;
}
