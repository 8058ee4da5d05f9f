// SPDX-License-Identifier: GPL-2.0
/*
 * family.c - a family (a node split by a key, one histogram per key) in
 * show and in JSON: each key's summary and histogram, largest first, as
 * bpftrace prints a map of histograms (@NAME[KEY]:).  The file already has
 * the keys largest first; --top cuts the list and says what it left out.
 */
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

/* Whether the keys are kernel stacks, frames root first, ';' between. */
static int by_stack(const struct snapshot *snap)
{
	return !strcmp(snap->family.by, "stack");
}

/*
 * A stack key as bpftrace and offcputime print one: a frame a line,
 * indented, the innermost first.
 */
static void print_frames(FILE *f, const char *text)
{
	const char *end = text + strlen(text), *p = end;

	while (p > text) {
		const char *start = p;

		while (start > text && start[-1] != ';')
			start--;
		fputs("    ", f);
		fwrite(start, 1, (size_t)(p - start), f);
		fputc('\n', f);
		p = start > text ? start - 1 : text;
	}
}

/* A key's total: the sum of its samples, in the node's unit. */
static unsigned long long key_total(const struct kkey *k)
{
	unsigned long long t = 0;

	for (size_t j = 0; j < k->nslots; j++)
		t += k->slots[j].count * k->slots[j].avg;
	return t;
}

/*
 * --folded: "FRAMES VALUE" a key, FRAMES root first with ';' between them
 * (a key that is no stack is one frame), VALUE the key's total in the
 * node's unit: what flamegraph.pl reads.  "other" is left out: it is no
 * stack.
 */
void print_folded(FILE *f, const struct snapshot *snap)
{
	for (size_t i = 0; i < snap->nkeys; i++) {
		const struct kkey *k = &snap->keys[i];

		if (k->other)
			continue;
		safe_text(f, k->text);
		fprintf(f, " %llu\n", key_total(k));
	}
}

/* A key's p99, for --sort p99. */
static u64 key_p99(const struct kkey *k)
{
	struct ksummary sum;

	hist_summary(k->slots, k->nslots, &sum);
	return sum.p99;
}

static enum keysort sort_by;

/* Larger first; "other" last, whatever its size. */
static int key_cmp(const void *a, const void *b)
{
	const struct kkey *x = a, *y = b;
	unsigned long long vx, vy;

	if (x->other != y->other)
		return x->other - y->other;
	if (sort_by == SORT_P99) {
		vx = key_p99(x);
		vy = key_p99(y);
	} else {
		vx = key_total(x);
		vy = key_total(y);
	}
	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

/*
 * --sort p99|total: the keys in that order, largest first ("other" last),
 * for --top to keep the slowest; SORT_SAMPLES leaves the file's order.
 */
void sort_keys(struct snapshot *snap, enum keysort by)
{
	if (by == SORT_SAMPLES || snap->nkeys < 2)
		return;
	sort_by = by;
	qsort(snap->keys, snap->nkeys, sizeof(*snap->keys), key_cmp);
}

/* The keys shown: at most kv->top; their samples in @left. */
static size_t shown(const struct snapshot *snap, const struct keyview *kv,
		    u64 *left)
{
	size_t n = snap->nkeys;

	if (kv && kv->top && kv->top < n)
		n = kv->top;
	*left = 0;
	for (size_t i = n; i < snap->nkeys; i++)
		*left += snap->keys[i].samples;
	return n;
}

void print_family(FILE *f, const struct snapshot *snap, int max_rows,
		  const struct keyview *kv)
{
	enum keynames names = kv ? kv->names : KEYS_RAW;
	char buf[512];
	size_t n;
	u64 left;

	n = shown(snap, kv, &left);
	fprintf(f, "family by ");
	safe_text(f, family_by(snap, buf, sizeof(buf)));
	fprintf(f, ": %llu keys (max %llu)", (unsigned long long)snap->family.keys,
		(unsigned long long)snap->family.max);
	if (snap->family.other)	/* keys past max, or a key not readable */
		fprintf(f, ", other %llu samples",
			(unsigned long long)snap->family.other);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct kkey *k = &snap->keys[i];
		struct ksummary sum;
		char buf[256];

		part_summary(k->slots, k->nslots, &snap->summary, &sum);
		fputs("\n@", f);
		safe_text(f, snap->name);
		fputc('[', f);
		if (by_stack(snap) && !k->other) {
			fputc('\n', f);
			print_frames(f, k->text);
		} else {
			safe_text(f, key_label(k, names, buf, sizeof(buf)));
		}
		fputs("]:\n", f);
		summary_head(f, "");
		summary_row(f, "", &sum, snap->unit, "");
		print_histogram_bits(f, k->slots, k->nslots, snap->frac_bits,
				     snap->unit, max_rows);
	}
	if (!snap->nkeys)
		fprintf(f, "\n(no samples)\n");
	if (n < snap->nkeys)
		fprintf(f, "\n(--top %zu: %zu more keys, %llu samples, not shown)\n",
			n, snap->nkeys - n, (unsigned long long)left);
}

/* "frames": a stack key's frames, root first, as an array. */
static void json_frames(FILE *f, const char *text)
{
	const char *p = text;

	fputs("\"frames\": [", f);
	while (*p) {
		size_t len = strcspn(p, ";");

		if (p != text)
			fputs(", ", f);
		json_stringn(f, p, len);
		p += len + (p[len] == ';');
	}
	fputs("], ", f);
}

/*
 * "family": the "# family" line; "keys": each key (unescaped: JSON has its
 * own escapes) with its samples, summary and slots, largest first.
 */
void json_keys(FILE *f, const struct snapshot *snap, int ind,
	       const struct keyview *kv)
{
	const struct kfamily *fam = &snap->family;
	size_t n;
	u64 left;

	n = shown(snap, kv, &left);
	fprintf(f, ",\n%*s \"family\": {\"by\": ", ind, "");
	json_string(f, fam->by);
	fprintf(f, ", \"max\": %llu, \"keys\": %llu, \"other\": %llu, "
		"\"key_bytes\": %llu", (unsigned long long)fam->max,
		(unsigned long long)fam->keys, (unsigned long long)fam->other,
		(unsigned long long)fam->key_bytes);
	if (fam->frames)
		fprintf(f, ", \"frames\": %llu", (unsigned long long)fam->frames);
	fputc('}', f);
	if (n < snap->nkeys)
		fprintf(f, ",\n%*s \"left_out\": {\"keys\": %zu, \"samples\": %llu}",
			ind, "", snap->nkeys - n, (unsigned long long)left);
	fprintf(f, ",\n%*s \"keys\": [", ind, "");
	for (size_t i = 0; i < n; i++) {
		const struct kkey *k = &snap->keys[i];
		struct ksummary sum;

		hist_summary(k->slots, k->nslots, &sum);
		fprintf(f, "%s\n%*s  {\"key\": ", i ? "," : "", ind, "");
		json_stringn(f, k->raw, k->rawlen);
		fprintf(f, ", \"other\": %s, \"samples\": %llu, ",
			k->other ? "true" : "false",
			(unsigned long long)k->samples);
		if (by_stack(snap) && !k->other)
			json_frames(f, k->text);
		fputs("\"summary\": ", f);
		json_summary(f, &sum);
		fprintf(f, ", \"slots\": [");
		for (size_t j = 0; j < k->nslots; j++) {
			const struct kslot *s = &k->slots[j];

			fprintf(f, "%s{\"slot\": %u, \"lo\": %llu, \"hi\": %llu, "
				"\"count\": %llu, \"avg\": %llu}", j ? ", " : "",
				s->slot, (unsigned long long)s->lo,
				(unsigned long long)s->hi,
				(unsigned long long)s->count,
				(unsigned long long)s->avg);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}
