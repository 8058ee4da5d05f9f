// SPDX-License-Identifier: GPL-2.0
/*
 * family.c - a family (a node split by a key, one histogram per key) in
 * show and in JSON: each key's summary and histogram, largest first, as
 * bpftrace prints a map of histograms (@NAME[KEY]:).  The file already has
 * the keys largest first; --top cuts the list and says what it left out.
 */
#include <string.h>

#include "kstats_tool.h"

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
	size_t n;
	u64 left;

	n = shown(snap, kv, &left);
	fprintf(f, "family by ");
	safe_text(f, snap->family.by);
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

		hist_summary(k->slots, k->nslots, &sum);
		hist_interpolate(k->slots, k->nslots, &sum);
		fputs("\n@", f);
		safe_text(f, snap->name);
		fputc('[', f);
		safe_text(f, key_label(k, names, buf, sizeof(buf)));
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
		"\"key_bytes\": %llu}", (unsigned long long)fam->max,
		(unsigned long long)fam->keys, (unsigned long long)fam->other,
		(unsigned long long)fam->key_bytes);
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
		fprintf(f, ", \"other\": %s, \"samples\": %llu, \"summary\": ",
			k->other ? "true" : "false",
			(unsigned long long)k->samples);
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
