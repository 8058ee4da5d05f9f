// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_diff.c - kstats diff A B, or A1 A2 ... -- B1 B2 ...: the quantiles of
 * B against A with confidence intervals, against A's run-to-run spread, and
 * a verdict (judge.c); the Kolmogorov-Smirnov test as supporting evidence.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct dside {
	struct snapshot *snaps;
	struct kslot **runs;	/* each run at the common frac_bits */
	size_t *nslots, n;
	struct jside j;
};

static void side_free(struct dside *d)
{
	for (size_t i = 0; i < d->n; i++) {
		snapshot_free(&d->snaps[i]);
		free(d->runs[i]);
	}
	free(d->snaps);
	free(d->runs);
	free(d->nslots);
	free(d->j.pool);
}

static int side_load(struct dside *d, char **args, size_t n)
{
	d->snaps = calloc(n, sizeof(*d->snaps));
	d->runs = calloc(n, sizeof(*d->runs));
	d->nslots = calloc(n, sizeof(*d->nslots));
	if (!d->snaps || !d->runs || !d->nslots)
		return fail("out of memory");
	for (; d->n < n; d->n++)
		if (load(args[d->n], &d->snaps[d->n]))
			return EXIT_ERROR;
	return 0;
}

/* Same unit everywhere, samples in every run; the common frac_bits. */
static int sides_check(struct dside *s, unsigned int *bits)
{
	const struct snapshot *first = &s[0].snaps[0];

	*bits = KSTATS_MAX_FRAC_BITS;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct snapshot *x = &s[k].snaps[i];

			if (strcmp(x->unit, first->unit))
				return fail("cannot compare %s (%s) with %s (%s)",
					    first->source, first->unit,
					    x->source, x->unit);
			if (!x->samples)
				return fail("%s has no samples: nothing to "
					    "compare", x->source);
			*bits = x->frac_bits < *bits ? x->frac_bits : *bits;
		}
	return 0;
}

static int side_pool(struct dside *d, unsigned int bits)
{
	for (size_t i = 0; i < d->n; i++) {
		d->runs[i] = hist_rebin(d->snaps[i].slots, d->snaps[i].nslots,
					d->snaps[i].frac_bits, bits,
					&d->nslots[i]);
		if (!d->runs[i])
			return fail("out of memory");
	}
	d->j.pool = hist_merge(d->runs, d->nslots, d->n, bits, &d->j.npool);
	if (!d->j.pool)
		return fail("out of memory");
	d->j.runs = d->runs;
	d->j.nruns_slots = d->nslots;
	d->j.nruns = d->n;
	return 0;
}

static const char *fmt_d(char *buf, size_t len, double v, const char *unit)
{
	if (isinf(v))
		return snprintf(buf, len, "inf"), buf;
	return fmt_value(buf, len, (u64)llround(v), unit);
}

static void print_row(const struct jrow *r, const char *label,
		      const char *unit, int runs)
{
	char x[32], y[32], ci[48], sp[32];

	snprintf(ci, sizeof(ci), "[%.3f, %.3f]", r->ratio_lo, r->ratio_hi);
	snprintf(sp, sizeof(sp), "[%.3f, %.3f]", r->spread_lo, r->spread_hi);
	printf("%-6s %10s %10s %7.3f  %-18s", label,
	       fmt_d(x, sizeof(x), r->a.v, unit),
	       fmt_d(y, sizeof(y), r->b.v, unit), r->ratio, ci);
	if (runs)
		printf(" %-16s", sp);
	printf(" %s\n", r->judged ? (r->moved > 0 ? "UP" : r->moved < 0 ? "DOWN" : "same") :
	       r->why == JW_OPEN ? "open-ended slot: not judged" :
	       r->why == JW_ZERO ? "A is 0: no ratio, not judged" :
	       runs ? "cannot be judged: too few samples" :
	       "cannot be judged: one run a side");
}

static void print_head(const struct dside *s)
{
	for (int k = 0; k < 2; k++) {
		printf("%c:", "AB"[k]);
		for (size_t i = 0; i < s[k].n; i++)
			printf(" %s", s[k].snaps[i].source);
		printf(" (%s, %llu samples in %zu run%s)\n", s[k].snaps[0].name,
		       (unsigned long long)hist_total(s[k].j.pool, s[k].j.npool),
		       s[k].n, s[k].n > 1 ? "s" : "");
	}
}

static void print_ks(const struct dside *s, unsigned int bits,
		     const char *unit)
{
	struct snapshot a = { .frac_bits = bits }, b = { .frac_bits = bits };
	struct ks_result ks;
	char at[32];

	a.slots = s[0].j.pool;
	a.nslots = s[0].j.npool;
	a.samples = hist_total(a.slots, a.nslots);
	b.slots = s[1].j.pool;
	b.nslots = s[1].j.npool;
	b.samples = hist_total(b.slots, b.nslots);
	if (ks_test(&a, &b, &ks))
		return;
	printf("Kolmogorov-Smirnov on the slot CDFs (frac_bits %u), supporting "
	       "evidence: D = %.4f at %s, n_eff = %.0f, p = %.3g\n", bits,
	       ks.d, fmt_value(at, sizeof(at),
			       kstats_slot_hi(ks.at_slot, bits), unit),
	       ks.n_eff, ks.p);
}

static void print_verdict(const struct judge *j, int runs)
{
	int first = 1;

	if (j->unjudged) {
		printf("verdict: cannot be judged (threshold %g%%, alpha %g):", j->threshold * 100,
		       j->alpha);
		for (int i = 0; i < JUDGE_ROWS; i++)
			if (j->rows[i].why == JW_UNBOUNDED)
				printf("%s %s [%.3f, %.3f]", first-- > 0 ? "" : ",",
				       judge_rows[i].label, j->rows[i].ratio_lo,
				       j->rows[i].ratio_hi);
		printf(" bound nothing: %s\n", runs ?
		       "too few samples: give more, or more runs" :
		       "one run a side: give 3 runs a side or more (A1 A2 A3 -- B1 B2 B3)");
		return;
	}
	printf("verdict: %s (threshold %g%%, alpha %g", j->different ?
	       "DIFFERENT" : "same", j->threshold * 100, j->alpha);
	if (runs)
		printf(", against A's run-to-run spread");
	printf(")");
	for (int i = 0; i < JUDGE_ROWS; i++) {
		const struct jrow *r = &j->rows[i];

		if (!r->moved)
			continue;
		printf("%s %s x%.3f [%.3f, %.3f]", first ? ":" : ",",
		       judge_rows[i].label, r->ratio, r->ratio_lo, r->ratio_hi);
		first = 0;
	}
	if (first)
		printf(": no quantile moved beyond the threshold%s with "
		       "confidence", runs ? " and the spread" : "");
	printf("\n");
}

static void report(const struct dside *s, const struct judge *j,
		   unsigned int bits)
{
	const char *unit = s[0].snaps[0].unit;
	int runs = s[0].n > 1 || s[1].n > 1;

	print_head(s);
	printf("\n%-6s %10s %10s %7s  %-18s", "", "A", "B", "B/A",
	       "CI of B/A");
	if (runs)
		printf(" %-16s", "A's spread");
	printf("\n");
	for (int i = 0; i < JUDGE_ROWS; i++)
		print_row(&j->rows[i], judge_rows[i].label, unit, runs);
	printf("\nquantiles interpolated in their slots (frac_bits %u); "
	       "intervals simultaneous at %g%%\n", bits, 100 * (1 - j->alpha));
	print_ks(s, bits, unit);
	print_verdict(j, runs);
}

/* A B, or A... -- B...: where B's runs start. */
static int split_args(const struct opts *o, int *nb_at)
{
	int sep = -1;

	for (int i = 0; i < o->nargs; i++)
		if (!strcmp(o->args[i], "--")) {
			if (sep >= 0)
				return usage_error("diff takes one --");
			sep = i;
		}
	if (sep < 0 && o->nargs != 2)
		return usage_error("diff takes two snapshots A B, or "
				   "A1 A2 ... -- B1 B2 ...");
	if (sep == 0 || sep == o->nargs - 1)
		return usage_error("diff: runs on both sides of --");
	if (sep > JUDGE_MAX_RUNS || o->nargs - sep - 1 > JUDGE_MAX_RUNS)
		return usage_error("diff: at most 64 runs per side");
	*nb_at = sep < 0 ? 1 : sep;
	return 0;
}

static int cmd_diff(struct opts *o)
{
	struct dside s[2] = { { 0 } };
	struct judge j = { .threshold = o->threshold, .alpha = o->alpha };
	unsigned int bits;
	int ret, at = 1, skip;

	if ((ret = split_args(o, &at)))
		return ret;
	skip = !strcmp(o->args[at], "--");
	if (side_load(&s[0], o->args, (size_t)at) ||
	    side_load(&s[1], o->args + at + skip,
		      (size_t)(o->nargs - at - skip)) ||
	    sides_check(s, &bits) || side_pool(&s[0], bits) ||
	    side_pool(&s[1], bits)) {
		ret = EXIT_ERROR;
	} else {
		ret = judge(&j, &s[0].j, &s[1].j) ? EXIT_DIFFERENT : EXIT_SAME;
		report(s, &j, bits);
		if (j.unjudged)
			ret = fail("diff cannot judge: %s", s[0].n > 1 || s[1].n > 1 ?
				   "too few samples (see the verdict)" :
				   "one run a side: give 3 runs a side or more (A1 A2 A3 -- B1 B2 B3)");
	}
	side_free(&s[0]);
	side_free(&s[1]);
	return ret;
}

/* --threshold: a percentage, "5" or "5%", kept as a fraction. */
static int set_threshold(struct opts *o, const char *a)
{
	char buf[32];
	size_t n = strlen(a);

	if (n && a[n - 1] == '%' && n < sizeof(buf)) {
		memcpy(buf, a, n - 1);
		buf[n - 1] = '\0';
		a = buf;
	}
	if (opt_num(a, 1e-6, 1e6, &o->threshold))
		return usage_error("--threshold takes a percentage, more than 0 (5 or 5%)");
	o->threshold /= 100;
	return 0;
}

static const struct optdef o_threshold = {
	.name = "threshold", .arg = "PCT", .kind = K_FN, .set = set_threshold,
	.help = "smallest change that counts, % (default 5)",
	.bit = O_THRESH, .def = "5",
};
static const struct optdef o_alpha = {
	.name = "alpha", .arg = "P", .kind = K_DBL, .off = OPT_FIELD(alpha),
	.lo = 1e-300, .hi = 0.5, .bad = "--alpha takes a probability in (0, 0.5]",
	.help = "false-positive rate (default 0.05)",
	.bit = O_ALPHA, .def = "0.05",
};

static const struct optdef *const diff_opts[] = {
	&o_threshold, &o_alpha, NULL,
};

const struct cmddef diff_cmd = {
	.name = "diff", .args = "A B | A1 A2 ... -- B1 B2 ...",
	.opts = diff_opts, .fn = cmd_diff, .flags = CMD_SEP,
	.summary = "did p50..p99.9 or the mean move? exit 0 no, 1 yes",
};
