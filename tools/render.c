// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - everything `kstats show` prints: values in human units, the
 * histogram drawn as bpftrace's hist() draws it, the per-CPU percentile
 * table, and the JSON form of a snapshot (also used by `kstats export`).
 */
#define _GNU_SOURCE	/* strerrorname_np() */
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

#define BAR_WIDTH 52	/* as bpftrace */

/* @v in human units: ns/us/ms/s for "ns", plain numbers otherwise. */
const char *fmt_value(char *buf, size_t len, u64 v, const char *unit)
{
	static const u64 div[] = { 1000000000ULL, 1000000, 1000, 1 };
	static const char *const name[] = { "s", "ms", "us", "ns" };
	u64 whole, frac;
	int i = 0;

	if (v == U64_MAX_VAL) {
		snprintf(buf, len, "inf");
		return buf;
	}
	if (strcmp(unit, "ns")) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
	while (div[i] > 1 && v < div[i])
		i++;
	whole = v / div[i];
	frac = div[i] > 1 ? ((v % div[i]) * 1000 + div[i] / 2) / div[i] : 0;
	if (frac == 1000) {
		whole++;
		frac = 0;
	}
	if (!frac) {
		snprintf(buf, len, "%llu%s", (unsigned long long)whole, name[i]);
	} else {
		char f[8];
		size_t n = (size_t)snprintf(f, sizeof(f), "%03llu",
					    (unsigned long long)frac);

		while (n > 1 && f[n - 1] == '0')
			f[--n] = '\0';
		snprintf(buf, len, "%llu.%s%s", (unsigned long long)whole, f,
			 name[i]);
	}
	return buf;
}

/* An exclusive upper bound hi + 1 (the hist() label), "..." past 2^64-1. */
const char *fmt_bound(char *buf, size_t len, u64 hi, const char *unit)
{
	if (hi == U64_MAX_VAL) {
		snprintf(buf, len, "...");
		return buf;
	}
	return fmt_value(buf, len, hi + 1, unit);
}

static void hist_label(char *buf, size_t len, const struct kslot *s,
		       const char *unit)
{
	char a[32], b[32];

	if (s->lo == s->hi)
		snprintf(buf, len, "[%s]", fmt_value(a, sizeof(a), s->lo, unit));
	else
		snprintf(buf, len, "[%s, %s)", fmt_value(a, sizeof(a), s->lo, unit),
			 fmt_bound(b, sizeof(b), s->hi, unit));
}

/*
 * Every slot from the lowest non-empty to the highest, empty ones included,
 * merged @group at a time.
 */
static struct kslot *dense_rows(const struct kslot *s, size_t n,
				unsigned int frac_bits, int max_rows,
				size_t *nout, unsigned int *group)
{
	struct kslot *d, *m;
	size_t nd = 0, nm = 0, j = 0;
	u32 first = s[0].slot, last = s[n - 1].slot;

	d = calloc((size_t)(last - first) + 1, sizeof(*d));
	if (!d)
		return NULL;
	for (u32 slot = first; slot <= last; slot++) {
		if (j < n && s[j].slot == slot)
			d[nd++] = s[j++];
		else
			d[nd++] = (struct kslot){ .slot = slot,
				.lo = kstats_slot_lo(slot, frac_bits),
				.hi = kstats_slot_hi(slot, frac_bits) };
	}
	/*
	 * Merge 2^j slots per row, aligned on slot indices: a row then covers
	 * a power-of-two fraction of an octave, or whole octaves, and its
	 * bounds stay round.
	 */
	*group = 1;
	while (max_rows > 0 &&
	       (size_t)(last / *group - first / *group) + 1 > (size_t)max_rows)
		*group *= 2;
	if (*group == 1) {
		*nout = nd;
		return d;
	}
	m = calloc(nd, sizeof(*m));
	if (!m) {
		free(d);
		return NULL;
	}
	for (size_t i = 0; i < nd; i++) {
		if (!nm || d[i].slot / *group != m[nm - 1].slot / *group) {
			m[nm++] = d[i];
			continue;
		}
		m[nm - 1].hi = d[i].hi;
		m[nm - 1].count += d[i].count;
	}
	free(d);
	*nout = nm;
	return m;
}

/* One line per row: label, count and a bar scaled to the largest count. */
static void draw(FILE *f, const struct kslot *d, size_t n, const char *unit)
{
	char label[80];
	u64 max = 0;
	int w = 0;

	for (size_t i = 0; i < n; i++) {
		int l;

		hist_label(label, sizeof(label), &d[i], unit);
		l = (int)strlen(label);
		w = l > w ? l : w;
		max = d[i].count > max ? d[i].count : max;
	}
	for (size_t i = 0; i < n; i++) {
		char bar[BAR_WIDTH + 1];
		size_t len = max ? (size_t)((long double)d[i].count *
					    BAR_WIDTH / max) : 0;

		memset(bar, '@', len);
		memset(bar + len, ' ', BAR_WIDTH - len);
		bar[BAR_WIDTH] = '\0';
		hist_label(label, sizeof(label), &d[i], unit);
		fprintf(f, "%-*s %10llu |%s|\n", w, label,
			(unsigned long long)d[i].count, bar);
	}
}

void print_histogram_bits(FILE *f, const struct kslot *s, size_t n,
			  unsigned int frac_bits, const char *unit,
			  int max_rows)
{
	struct kslot *d;
	unsigned int group;
	size_t nd;

	while (n && !s[n - 1].count)
		n--;
	while (n && !s[0].count) {
		s++;
		n--;
	}
	if (!n) {
		fprintf(f, "(no samples)\n");
		return;
	}
	d = dense_rows(s, n, frac_bits, max_rows, &nd, &group);
	if (!d) {
		fprintf(f, "(out of memory)\n");
		return;
	}
	if (group > 1)
		fprintf(f, "(%u adjacent slots merged per row to fit %d rows)\n",
			group, max_rows);
	draw(f, d, nd, unit);
	free(d);
}

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

void summary_row(FILE *f, const char *label, const struct ksummary *s,
			const char *unit, const char *mark)
{
	const u64 v[] = { s->min, s->p50, s->p90, s->p99, s->p999, s->max,
			  s->mean };
	char b[32];

	fprintf(f, "%-5s %12llu", label, (unsigned long long)s->samples);
	for (int i = 0; i < 7; i++)
		fprintf(f, " %9s", fmt_value(b, sizeof(b), v[i], unit));
	fprintf(f, "%s\n", mark);
}

void summary_head(FILE *f, const char *first)
{
	fprintf(f, "%-5s %12s %9s %9s %9s %9s %9s %9s %9s\n", first, "count",
		"min", "p50", "p90", "p99", "p99.9", "max", "mean");
}

/* The all-CPU summary from the slot rows, with the kernel's exact mean. */
void snap_summary(const struct snapshot *snap, struct ksummary *out)
{
	hist_summary(snap->slots, snap->nslots, out);
	out->mean = snap->summary.mean;
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

		hist_summary(h, n, &c[cpu]);
		hist_interpolate(h, n, &c[cpu]);
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

/* @kv: for a family, which keys and their names (NULL: all, as printed). */
void print_show_keys(FILE *f, const struct snapshot *snap, int per_cpu,
		     int max_rows, const struct keyview *kv)
{
	struct ksummary sum;

	safe_text(f, snap->header);
	fprintf(f, "\n");
	if (per_cpu) {
		print_cpu_table(f, snap);
	} else {
		snap_summary(snap, &sum);
		hist_interpolate(snap->slots, snap->nslots, &sum);
		summary_head(f, "");
		summary_row(f, "", &sum, snap->unit, "");
	}
	fprintf(f, "percentiles interpolated in their slots; min, max: the "
		"bounds of the lowest and highest (--json: slot bounds)\n");
	fprintf(f, "missed %llu\n", (unsigned long long)snap->missed);
	if (snap->is_family) {
		print_family(f, snap, max_rows, kv);
	} else {
		fputs("\n@", f);
		safe_text(f, snap->name);
		fprintf(f, " (%s):\n", snap->unit);
		print_histogram_bits(f, snap->slots, snap->nslots,
				     snap->frac_bits, snap->unit, max_rows);
	}
	if (snap->has_negative) {
		fputc('\n', f);
		print_negative(f, snap, NULL);
	}
}

/*
 * The length of the valid UTF-8 sequence at @p (at most @n bytes), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF.
 */
size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if (!len || p[0] > 0xf4 || len > n)
		return 0;
	cp = p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * @n bytes of @s as a JSON string: quotes, backslashes and control bytes
 * escaped, valid UTF-8 as it is, each byte of invalid UTF-8 as U+FFFD.
 */
void json_stringn(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq(p + i, n - i);

		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(f, "\\u%04x", p[i]);
		else if (!l)
			fputs("\\ufffd", f);
		else
			fwrite(p + i, 1, l, f);
		i += l ? l : 1;
	}
	fputc('"', f);
}

void json_string(FILE *f, const char *s)
{
	json_stringn(f, s, strlen(s));
}

/*
 * Text for a terminal: valid UTF-8 and newlines as they are, control bytes
 * (escape sequences) and invalid UTF-8 as \xNN, so that a file cannot move
 * the cursor, retitle the window or hide a line.
 */
void safe_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq(p + i, n - i);

		if (p[i] != '\n' && (p[i] < 0x20 || p[i] == 0x7f || !l)) {
			fprintf(f, "\\x%02x", p[i]);
			l = 1;
		} else if (l == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) {
			fprintf(f, "\\xc2\\x%02x", p[i + 1]);	/* C1 */
		} else {
			fwrite(p + i, 1, l, f);
		}
		i += l;
	}
}

void json_summary(FILE *f, const struct ksummary *s)
{
	fprintf(f, "{\"samples\": %llu, \"min\": %llu, \"p50\": %llu, "
		"\"p90\": %llu, \"p99\": %llu, \"p99.9\": %llu, \"max\": %llu, "
		"\"mean\": %llu}",
		(unsigned long long)s->samples, (unsigned long long)s->min,
		(unsigned long long)s->p50, (unsigned long long)s->p90,
		(unsigned long long)s->p99, (unsigned long long)s->p999,
		(unsigned long long)s->max, (unsigned long long)s->mean);
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
		fprintf(f, ", \"tsc_khz\": %llu",
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
	fputc('}', f);
}
