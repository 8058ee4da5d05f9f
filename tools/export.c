// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - Prometheus text exposition format, one histogram per
 * distribution in the single metric family `kstats`, for node_exporter's
 * textfile collector.
 *
 * A slot holds the integers [lo, hi], so "le" is hi: the bucket counts
 * exactly the samples <= le.  histogram_quantile() interpolates inside
 * (previous le, le], which is the slot itself, so its answer lies in the
 * same slot as the tool's percentile (which is that slot's hi).  The
 * buckets are every slot of the distribution's range, empty or not, then
 * +Inf: a set that depends on frac_bits and max_value only, never on the
 * data, so that rate(), differences between scrapes and sums over hosts
 * see the same le everywhere.  Values are in the unit of the "unit" label.
 */
#include <string.h>

#include "kstats_tool.h"

static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void labels(FILE *f, const struct snapshot *s, const char *host)
{
	fprintf(f, "name=\"%s\",clock=\"%s\",unit=\"%s\",host=\"", s->name,
		s->clock, s->unit);
	label_value(f, host);
	fputc('"', f);
}

static void bucket(FILE *f, const struct snapshot *s, const char *host,
		   u64 le, u64 cum)
{
	fputs("kstats_bucket{", f);
	labels(f, s, host);
	fprintf(f, ",le=\"%llu\"} %llu\n", (unsigned long long)le,
		(unsigned long long)cum);
}

static void one(FILE *f, const struct snapshot *s, const char *host)
{
	/* The last slot with a finite bound below the overflow, if any. */
	u32 last = s->has_range ? kstats_slot(s->max_value, s->frac_bits) :
		   kstats_nr_slots(s->frac_bits) - 2;
	u64 cum = 0, th, tl;
	size_t j = 0;

	for (u32 slot = 0; slot <= last; slot++) {
		while (j < s->nslots && s->slots[j].slot <= slot)
			cum += s->slots[j++].count;
		bucket(f, s, host, kstats_slot_hi(slot, s->frac_bits), cum);
	}
	fputs("kstats_bucket{", f);
	labels(f, s, host);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)s->samples);
	/* The exact total is not in the file: the slot averages' is. */
	hist_sum128(s->slots, s->nslots, &th, &tl);
	fputs("kstats_sum{", f);
	labels(f, s, host);
	fprintf(f, "} %.17g\n", (double)th * 18446744073709551616.0 + (double)tl);
	fputs("kstats_count{", f);
	labels(f, s, host);
	fprintf(f, "} %llu\n", (unsigned long long)s->samples);
}

void export_prometheus(FILE *f, const struct snapshot *snaps, size_t n,
		       const char *host)
{
	fputs("# HELP kstats kstats distributions: le and sum are in the unit "
	      "of the unit label\n# TYPE kstats histogram\n", f);
	for (size_t i = 0; i < n; i++)
		one(f, &snaps[i], host);
}
