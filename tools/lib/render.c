// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - a snapshot as `kstats show` prints it: its header and summary,
 * the per-CPU percentile table, its negative samples and errnos, and its
 * JSON form (also used by `kstats export`).  The pieces every printer uses
 * (human units, the histogram, escaped text) are in text.c.
 */
#define _GNU_SOURCE	/* strerrorname_np() */
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

/*
 * The name of errno @err: "EAGAIN", and the kernel's own ones that user
 * space never sees (include/linux/errno.h); NULL if unknown.
 */
const char *errno_name(u32 err)
{
	static const char *const kernel[] = {
		"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND",
		"ENOIOCTLCMD", "ERESTART_RESTARTBLOCK", "EPROBE_DEFER",
		"EOPENSTALE", "ENOPARAM", NULL, "EBADHANDLE", "ENOTSYNC",
		"EBADCOOKIE", "ENOTSUPP", "ETOOSMALL", "ESERVERFAULT",
		"EBADTYPE", "EJUKEBOX", "EIOCBQUEUED", "ERECALLCONFLICT",
		"ENOGRACE",
	};

	if (err >= 512 && err - 512 < sizeof(kernel) / sizeof(kernel[0]))
		return kernel[err - 512];
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	if (err && err < 512)
		return strerrorname_np((int)err);
#endif
	return NULL;
}

static void errno_line(FILE *f, u32 err, u64 count)
{
	const char *n = errno_name(err);

	if (n)
		fprintf(f, "errno %s (%u): %llu\n", n, err,
			(unsigned long long)count);
	else
		fprintf(f, "errno %u: %llu\n", err, (unsigned long long)count);
}

/*
 * The samples below 0 of a node with a value, and those that were -errno:
 * all of @cur, or what was added since @prev (all again if counts went
 * down).  Nothing for other nodes.
 */
void print_negative(FILE *f, const struct snapshot *cur,
		    const struct snapshot *prev)
{
	size_t j = 0;

	if (!cur->has_negative)
		return;
	if (prev && (!prev->has_negative ||
		     cur->neg_samples < prev->neg_samples))
		prev = NULL;
	for (size_t i = 0; prev && i < prev->nerrnos; i++) {
		while (j < cur->nerrnos && cur->errnos[j].err < prev->errnos[i].err)
			j++;
		if (j == cur->nerrnos || cur->errnos[j].err != prev->errnos[i].err ||
		    cur->errnos[j].count < prev->errnos[i].count)
			prev = NULL;	/* reset */
	}
	if (prev)
		fprintf(f, "negative: %llu samples (not in the histogram)\n",
			(unsigned long long)(cur->neg_samples - prev->neg_samples));
	else if (cur->neg_samples)
		fprintf(f, "negative: %llu samples, min %lld, max %lld (not in the histogram)\n",
			(unsigned long long)cur->neg_samples, cur->neg_min,
			cur->neg_max);
	else
		fprintf(f, "negative: 0 samples\n");
	for (size_t i = 0, k = 0; i < cur->nerrnos; i++) {
		u64 c = cur->errnos[i].count;

		while (prev && k < prev->nerrnos &&
		       prev->errnos[k].err < cur->errnos[i].err)
			k++;
		if (prev && k < prev->nerrnos &&
		    prev->errnos[k].err == cur->errnos[i].err)
			c -= prev->errnos[k].count;
		if (c)
			errno_line(f, cur->errnos[i].err, c);
	}
}

/*
 * The all-CPU summary: the kernel's, which the parser checked against the
 * slot rows (its min and max exact, from a kstats that keeps them).
 */
void snap_summary(const struct snapshot *snap, struct ksummary *out)
{
	*out = snap->summary;
}

static int differs(u64 a, u64 ref)
{
	return a / 2 > ref || a < ref / 2;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Each CPU's percentiles side by side; '<' marks a CPU whose p50 or p99 is
 * more than 2x away from the median CPU's (the median, so that one odd CPU
 * does not drag the reference along).
 */
void print_cpu_table(FILE *f, const struct snapshot *snap)
{
	size_t ns = snap->nslots ? snap->nslots : 1, nc = 0;
	struct kslot *h = calloc(ns, sizeof(*h));
	struct ksummary *c = calloc(snap->ncpu_ids + 1, sizeof(*c)), all;
	u64 *p50 = calloc(snap->ncpu_ids + 1, sizeof(u64));
	u64 *p99 = calloc(snap->ncpu_ids + 1, sizeof(u64));
	int odd = 0;

	if (!h || !c || !p50 || !p99)
		goto out;
	for (u32 cpu = 0; cpu < snap->ncpu_ids; cpu++) {
		size_t n = cpu_hist(snap, cpu, h);

		part_summary(h, n, &snap->summary, &c[cpu]);
		if (c[cpu].samples) {
			p50[nc] = c[cpu].p50;
			p99[nc++] = c[cpu].p99;
		}
	}
	qsort(p50, nc, sizeof(u64), cmp_u64);
	qsort(p99, nc, sizeof(u64), cmp_u64);
	snap_summary(snap, &all);
	hist_interpolate(snap->slots, snap->nslots, &all);
	summary_head(f, "CPU");
	for (u32 cpu = 0; cpu < snap->ncpu_ids; cpu++) {
		char label[16];
		int mark;

		if (!c[cpu].samples)
			continue;
		mark = nc > 2 && (differs(c[cpu].p50, p50[(nc - 1) / 2]) ||
				  differs(c[cpu].p99, p99[(nc - 1) / 2]));
		odd |= mark;
		snprintf(label, sizeof(label), "%u", cpu);
		summary_row(f, label, &c[cpu], snap->unit, mark ? "  <" : "");
	}
	summary_row(f, "all", &all, snap->unit, "");
	if (odd)
		fprintf(f, "< : p50 or p99 more than 2x away from the median CPU's\n");
out:
	free(h);
	free(c);
	free(p50);
	free(p99);
}

void print_show(FILE *f, const struct snapshot *snap, int per_cpu,
		int max_rows)
{
	print_show_keys(f, snap, per_cpu, max_rows, NULL);
}

/*
 * @kv: for a family, which keys and their names (NULL: all, as printed).
 * What the node is first, then its bars: the header, the summary, what
 * is counted apart (negative values, errnos), the outliers, then the
 * histogram, or a family's line and each key's histogram.
 */
void print_show_keys(FILE *f, const struct snapshot *snap, int per_cpu,
		     int max_rows, const struct keyview *kv)
{
	struct ksummary sum;

	print_header(f, snap);
	fprintf(f, "\n");
	if (per_cpu) {
		print_cpu_table(f, snap);
	} else {
		snap_summary(snap, &sum);
		hist_interpolate(snap->slots, snap->nslots, &sum);
		summary_head(f, "");
		summary_row(f, "", &sum, snap->unit, "");
	}
	fprintf(f, "percentiles interpolated in their slots (--json: the kernel's, slot bounds)\n");
	fprintf(f, "missed %llu\n", (unsigned long long)snap->missed);
	if (snap->has_negative)
		print_negative(f, snap, NULL);
	print_why_sums(f, snap);
	print_outliers(f, snap);
	if (snap->is_family) {
		fputc('\n', f);
		print_family(f, snap, max_rows, kv);
	} else {
		fputs("\n@", f);
		safe_text(f, snap->name);
		fprintf(f, " (%s):\n", snap->unit);
		print_histogram_bits(f, snap->slots, snap->nslots,
				     snap->frac_bits, snap->unit, max_rows);
	}
}

static void json_negative(FILE *f, const struct snapshot *snap, int ind)
{
	fprintf(f, ",\n%*s \"negative\": {\"samples\": %llu, \"min\": %lld, "
		"\"max\": %lld}, \"errno\": [", ind, "",
		(unsigned long long)snap->neg_samples, snap->neg_min,
		snap->neg_max);
	for (size_t i = 0; i < snap->nerrnos; i++) {
		const char *n = errno_name(snap->errnos[i].err);

		fprintf(f, "%s{\"errno\": %u, \"name\": ", i ? ", " : "",
			snap->errnos[i].err);
		if (n)
			json_string(f, n);
		else
			fputs("null", f);
		fprintf(f, ", \"count\": %llu}",
			(unsigned long long)snap->errnos[i].count);
	}
	fputc(']', f);
}

/* The header's fields, then its lines verbatim (whole, any bytes). */
static void json_header(FILE *f, const struct snapshot *snap, int ind)
{
	const char *l = snap->header;

	fprintf(f, "%*s{\"name\": ", ind, "");
	json_string(f, snap->name);
	fprintf(f, ", \"source\": ");
	json_string(f, snap->source);
	fprintf(f, ", \"clock\": \"%s\", \"unit\": \"%s\", \"frac_bits\": %u, "
		"\"state\": \"%s\", \"cpus\": %u, \"samples\": %llu, "
		"\"missed\": %llu", snap->clock, snap->unit, snap->frac_bits,
		snap->state, snap->cpus, (unsigned long long)snap->samples,
		(unsigned long long)snap->missed);
	if (snap->has_tsc_khz)
		fprintf(f, ", \"%s_khz\": %llu", snap->clock,
			(unsigned long long)snap->tsc_khz);
	if (snap->has_range)
		fprintf(f, ", \"range\": {\"max_value\": %llu, \"overflow\": %llu}",
			(unsigned long long)snap->max_value,
			(unsigned long long)snap->overflow);
	if (snap->value[0]) {
		fprintf(f, ", \"value\": ");
		json_string(f, snap->value);
	}
	if (snap->filter[0]) {
		fprintf(f, ", \"filter\": ");
		json_string(f, snap->filter);
	}
	if (snap->has_negative)
		json_negative(f, snap, ind);
	fprintf(f, ",\n%*s \"header\": [", ind, "");
	while (*l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		fprintf(f, "%s", l == snap->header ? "" : ", ");
		json_stringn(f, l, n);
		l += n + (nl != NULL);
	}
	fputc(']', f);
}

static void json_per_cpu(FILE *f, const struct snapshot *snap, int ind)
{
	struct kslot *h = calloc(snap->nslots ? snap->nslots : 1, sizeof(*h));
	struct ksummary c;
	const char *sep = "";

	fprintf(f, ",\n%*s \"per_cpu\": [", ind, "");
	for (u32 cpu = 0; h && cpu < snap->ncpu_ids; cpu++) {
		size_t n = cpu_hist(snap, cpu, h);

		if (!n)
			continue;
		hist_summary(h, n, &c);
		fprintf(f, "%s\n%*s  {\"cpu\": %u, \"summary\": ", sep, ind, "",
			cpu);
		json_summary(f, &c);
		fputc('}', f);
		sep = ",";
	}
	fputc(']', f);
	free(h);
}

static void json_slots(FILE *f, const struct snapshot *snap, int ind)
{
	const char *sep;
	size_t r = 0;

	fprintf(f, ",\n%*s \"slots\": [", ind, "");
	for (size_t i = 0; i < snap->nslots; i++) {
		const struct kslot *s = &snap->slots[i];

		fprintf(f, "%s\n%*s  {\"slot\": %u, \"lo\": %llu, \"hi\": %llu, "
			"\"count\": %llu, \"avg\": %llu, \"cpus\": [",
			i ? "," : "", ind, "", s->slot, (unsigned long long)s->lo,
			(unsigned long long)s->hi,
			(unsigned long long)s->count,
			(unsigned long long)s->avg);
		for (sep = ""; r < snap->nrows && snap->rows[r].slot == s->slot;
		     r++, sep = ", ")
			fprintf(f, "%s{\"cpu\": %u, \"count\": %llu, \"avg\": %llu}",
				sep, snap->rows[r].cpu,
				(unsigned long long)snap->rows[r].count,
				(unsigned long long)snap->rows[r].avg);
		fprintf(f, "]}");
	}
	fputc(']', f);
}

/* The whole snapshot: header fields, summary, per-CPU summaries, slots. */
void json_snapshot(FILE *f, const struct snapshot *snap, int ind)
{
	json_snapshot_keys(f, snap, ind, NULL);
}

void json_snapshot_keys(FILE *f, const struct snapshot *snap, int ind,
			const struct keyview *kv)
{
	struct ksummary c;

	json_header(f, snap, ind);
	fprintf(f, ",\n%*s \"summary\": ", ind, "");
	snap_summary(snap, &c);
	json_summary(f, &c);
	json_per_cpu(f, snap, ind);
	json_slots(f, snap, ind);
	if (snap->is_family)
		json_keys(f, snap, ind, kv);
	json_outliers(f, snap, ind);
	fputc('}', f);
}
