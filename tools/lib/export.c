// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - Prometheus text exposition format, for node_exporter's textfile
 * collector.  One histogram family per unit, named after Prometheus's
 * conventions (base units, the unit in the name, one unit per name):
 *
 *   kstats_duration_seconds   clocks in ns, exported in seconds
 *   kstats_duration_cycles    the tsc clock, in cycles
 *   kstats_value              nodes with a value (plain numbers)
 *
 * with the labels name and clock (and host only if --host is given:
 * Prometheus adds instance itself).  A slot holds the integers [lo, hi], so
 * "le" is hi (in seconds: hi / 1e9, written exactly): a bucket counts
 * exactly the samples <= le.  The buckets are the slots of the
 * distribution's range merged 2^j at a time, aligned on slot indices (as
 * show merges rows), with j the least that gives at most --buckets buckets
 * with +Inf (64 by default: octaves at frac_bits 3); a set that depends on
 * frac_bits, max_value and --buckets only, never on the data, so that
 * rate(), differences between scrapes and sums over hosts see the same le
 * everywhere.  histogram_quantile() interpolates inside (previous le, le]:
 * its answer lies in the bucket of the tool's percentile.  Nodes with a
 * value add two counter families: kstats_negative_samples_total and, by
 * errno name, kstats_errno_total.  A family (a node split by a key) adds,
 * after the node's total series, the same series for each key with a
 * label key (the key's bytes, escaped as Prometheus escapes label values).
 */
#include <string.h>

#include "kstats_tool.h"

struct family {
	const char *unit, *name, *help;
	int seconds;		/* ns exported as seconds */
};

static const struct family families[] = {
	{ "ns", "kstats_duration_seconds",
	  "kstats distributions of durations, in seconds", 1 },
	{ "cycles", "kstats_duration_cycles",
	  "kstats distributions of durations (tsc clock), in CPU cycles", 0 },
	{ "value", "kstats_value",
	  "kstats distributions of values (trace --value)", 0 },
};

/*
 * A label value: backslash, quote and newline escaped (the text format's
 * rules); a byte that is not valid UTF-8 as U+FFFD, which Prometheus needs.
 */
static void label_value(FILE *f, const char *v, size_t n)
{
	const unsigned char *p = (const unsigned char *)v;

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq(p + i, n - i);

		if (p[i] == '\\' || p[i] == '"')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else if (!l)
			fputs("\xef\xbf\xbd", f);
		else
			fwrite(p + i, 1, l, f);
		i += l ? l : 1;
	}
	fputc('"', f);
}

/* @key: a family's key, or NULL for the node's total */
static void labels(FILE *f, const struct snapshot *s, const char *host,
		   const struct kkey *key)
{
	fprintf(f, "name=\"%s\",clock=\"%s\"", s->name, s->clock);
	if (host) {
		fputs(",host=", f);
		label_value(f, host, strlen(host));
	}
	if (key) {
		fputs(",key=", f);
		label_value(f, key->raw, key->rawlen);
	}
}

/* @v, or @v / 1e9 written exactly (no rounding: le must be the same text). */
static void number(FILE *f, u64 v, int seconds)
{
	char frac[16];
	int n;

	if (!seconds) {
		fprintf(f, "%llu", (unsigned long long)v);
		return;
	}
	n = snprintf(frac, sizeof(frac), "%09llu",
		     (unsigned long long)(v % 1000000000ULL));
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	fprintf(f, "%llu%s%s", (unsigned long long)(v / 1000000000ULL),
		n ? "." : "", frac);
}

/* Slots merged per bucket: the least power of two that fits @max. */
static u32 group_of(u32 last, unsigned int max)
{
	u32 g = 1;

	while ((last / g + 1) + 1 > max && g < (1U << 31))
		g *= 2;
	return g;
}

/* The buckets, sum and count of @sl (the node's, or @key's). */
static void one(FILE *f, const struct family *fam, const struct snapshot *s,
		const char *host, unsigned int max, const struct kkey *key,
		const struct kslot *sl, size_t nsl, u64 samples)
{
	/* The last slot with a finite bound below the overflow, if any. */
	u32 last = s->has_range ? kstats_slot(s->max_value, s->frac_bits) :
		   kstats_nr_slots(s->frac_bits) - 2;
	u32 g = group_of(last, max);
	u64 cum = 0, th, tl;
	size_t j = 0;

	for (u32 k = 0; k <= last / g; k++) {
		u32 end = k * g + g - 1 > last ? last : k * g + g - 1;

		while (j < nsl && sl[j].slot <= end)
			cum += sl[j++].count;
		fprintf(f, "%s_bucket{", fam->name);
		labels(f, s, host, key);
		fputs(",le=\"", f);
		number(f, kstats_slot_hi(end, s->frac_bits), fam->seconds);
		fprintf(f, "\"} %llu\n", (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{", fam->name);
	labels(f, s, host, key);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)samples);
	/* The exact total is not in the file: the slot averages' is. */
	hist_sum128(sl, nsl, &th, &tl);
	fprintf(f, "%s_sum{", fam->name);
	labels(f, s, host, key);
	fputs("} ", f);
	if (!th)	/* exact */
		number(f, tl, fam->seconds);
	else
		fprintf(f, "%.17g", ((double)th * 18446744073709551616.0 +
				     (double)tl) / (fam->seconds ? 1e9 : 1));
	fputc('\n', f);
	fprintf(f, "%s_count{", fam->name);
	labels(f, s, host, key);
	fprintf(f, "} %llu\n", (unsigned long long)samples);
}

/*
 * Nodes with a value: their samples below 0 (not in the histogram) and,
 * among them, those that were -errno, by errno name.  Counters, each family
 * once, after the histograms; absent when no node has a value.
 */
static void negatives(FILE *f, const struct snapshot *snaps, size_t n,
		      const char *host)
{
	size_t i, neg = 0;

	for (i = 0; i < n; i++)
		neg += snaps[i].has_negative;
	if (!neg)
		return;
	fputs("# HELP kstats_negative_samples_total kstats values below 0, "
	      "not in the kstats histogram\n"
	      "# TYPE kstats_negative_samples_total counter\n", f);
	for (i = 0; i < n; i++) {
		if (!snaps[i].has_negative)
			continue;
		fputs("kstats_negative_samples_total{", f);
		labels(f, &snaps[i], host, NULL);
		fprintf(f, "} %llu\n", (unsigned long long)snaps[i].neg_samples);
	}
	fputs("# HELP kstats_errno_total kstats values that were -errno, by "
	      "errno (also in kstats_negative_samples_total)\n"
	      "# TYPE kstats_errno_total counter\n", f);
	for (i = 0; i < n; i++)
		for (size_t j = 0; j < snaps[i].nerrnos; j++) {
			const struct kerrno *e = &snaps[i].errnos[j];
			const char *name = errno_name(e->err);

			fputs("kstats_errno_total{", f);
			labels(f, &snaps[i], host, NULL);
			if (name)
				fprintf(f, ",errno=\"%s\"", name);
			else
				fprintf(f, ",errno=\"%u\"", e->err);
			fprintf(f, "} %llu\n", (unsigned long long)e->count);
		}
}

/* Each family once, with its distributions; the counters after them. */
void export_prometheus(FILE *f, const struct snapshot *snaps, size_t n,
		       const char *host, unsigned int max_buckets)
{
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++) {
		const struct family *fam = &families[k];
		int seen = 0;

		for (size_t i = 0; i < n; i++) {
			if (strcmp(snaps[i].unit, fam->unit))
				continue;
			if (!seen++)
				fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n",
					fam->name, fam->help, fam->name);
			one(f, fam, &snaps[i], host, max_buckets, NULL,
			    snaps[i].slots, snaps[i].nslots, snaps[i].samples);
			for (size_t j = 0; j < snaps[i].nkeys; j++) {
				const struct kkey *k = &snaps[i].keys[j];

				one(f, fam, &snaps[i], host, max_buckets, k,
				    k->slots, k->nslots, k->samples);
			}
		}
	}
	negatives(f, snaps, n, host);
}
