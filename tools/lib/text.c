// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - the pieces every printer of the tool uses: values in human
 * units, the histogram drawn as bpftrace's hist() draws it, the summary
 * row, and text made safe for a terminal or a JSON string.  A leaf: it
 * calls no other file of the tool, so render.c, family.c, export.c and
 * heatmap.c can all use it without calling each other.
 */
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
 * The rows of slots @s (increasing, first and last non-empty) merged
 * @group at a time, aligned on slot indices (a row then covers a
 * power-of-two fraction of an octave, or whole octaves, and its bounds
 * stay round); the first row starts at the lowest sample's slot, the last
 * ends at the highest's (a range's overflow slot has bounds of its own).
 * With @fold, each run of two empty rows or more is one row whose @ppm
 * holds how many.  The number of rows in *@nout; @out NULL counts them.
 */
static void rows_of(const struct kslot *s, size_t n, unsigned int frac_bits,
		    unsigned int group, int fold, struct kslot *out,
		    size_t *nout)
{
	size_t nr = 0, j = 0;
	u32 last = s[n - 1].slot / group;

	for (u32 r = s[0].slot / group; r <= last;) {
		u32 from = r * group < s[0].slot ? s[0].slot : r * group, end = r;
		struct kslot row = { .slot = from,
				     .lo = kstats_slot_lo(from, frac_bits) };

		if (j < n && s[j].slot == from)
			row.lo = s[j].lo;
		while (j < n && s[j].slot / group == r)
			row.count += s[j++].count;
		if (!row.count && fold && j < n && s[j].slot / group - 1 > r) {
			end = s[j].slot / group - 1;	/* empty up to there */
			row.ppm = end - r + 1;
		}
		row.hi = end == last ? s[n - 1].hi :
			 kstats_slot_hi(end * group + group - 1, frac_bits);
		if (out)
			out[nr] = row;
		nr++;
		r = end + 1;
	}
	*nout = nr;
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
		fprintf(f, "%-*s %10llu |%s|", w, label,
			(unsigned long long)d[i].count, bar);
		if (d[i].ppm)
			fprintf(f, " %u empty rows", d[i].ppm);
		fputc('\n', f);
	}
}

/*
 * The histogram of @s as bpftrace's hist() draws it, a row per slot from
 * the lowest non-empty to the highest.  @max_rows 0: every row, empty
 * ones included; else runs of empty rows folded into one, and adjacent
 * slots merged (2^j a row) until at most @max_rows rows are left.
 */
void print_histogram_bits(FILE *f, const struct kslot *s, size_t n,
			  unsigned int frac_bits, const char *unit,
			  int max_rows)
{
	struct kslot *d;
	unsigned int group = 1;
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
	for (;;) {
		rows_of(s, n, frac_bits, group, max_rows > 0, NULL, &nd);
		if (max_rows <= 0 || nd <= (size_t)max_rows ||
		    s[0].slot / group == s[n - 1].slot / group)
			break;
		group *= 2;
	}
	d = calloc(nd, sizeof(*d));
	if (!d) {
		fprintf(f, "(out of memory)\n");
		return;
	}
	rows_of(s, n, frac_bits, group, max_rows > 0, d, &nd);
	if (group > 1)
		fprintf(f, "(%u adjacent slots merged per row to fit %d rows)\n",
			group, max_rows);
	draw(f, d, nd, unit);
	free(d);
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
