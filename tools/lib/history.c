// SPDX-License-Identifier: GPL-2.0
/*
 * history.c - the parser of a node's history, the file
 * /sys/kernel/debug/kstats/_history/NAME (Documentation/format.rst):
 *
 *   # history NAME slice NS slices N bytes B state live|frozen [frozen_at T by REASON]
 *   # trigger TNAME above V after NS fired_at T	(optional; fired_at 0: armed)
 *   # lost slices K samples M			(optional)
 *   slice T samples N min A p50 B p99 C max D buckets LO:COUNT,LO:COUNT,...
 *
 * a slice line a non-empty slice, oldest first.  Other '#' lines are a
 * later kernel's: passed over.  Anything else that is not exactly this is
 * rejected with the file, the line number and the reason, as snapshot.c
 * rejects a distribution's; nothing in here may crash on any input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

struct hparser {
	struct history *h;
	unsigned int line;
	char *err;
	size_t errlen;
	size_t cap;
};

static int hreject(struct hparser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int hreject(struct hparser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vparse_error(p->err, p->errlen, p->h->source, p->line, fmt, ap);
	va_end(ap);
	return -1;
}

/* tok[i] is @key and tok[i + 1] a number: into *@v. */
static int key_u64(struct hparser *p, char **tok, int i, const char *key,
		   u64 *v)
{
	if (strcmp(tok[i], key))
		return hreject(p, "expected '%s' as field %d", key, i + 1);
	if (parse_u64(tok[i + 1], v))
		return hreject(p, "'%s' takes a decimal number", key);
	return 0;
}

/* "# history NAME slice NS slices N bytes B state live|frozen [frozen_at T by REASON]" */
static int head_line(struct hparser *p, char **tok, int n)
{
	struct history *h = p->h;

	if (n < 11 || strcmp(tok[1], "history"))
		return hreject(p, "first line must be '# history NAME slice NS slices N bytes B state S': not a kstats history");
	if (!valid_name(tok[2]))
		return hreject(p, "bad name '%.64s'", tok[2]);
	snprintf(h->name, sizeof(h->name), "%s", tok[2]);
	if (key_u64(p, tok, 3, "slice", &h->slice_ns) ||
	    key_u64(p, tok, 5, "slices", &h->slices) ||
	    key_u64(p, tok, 7, "bytes", &h->bytes))
		return -1;
	if (!h->slice_ns || !h->slices)
		return hreject(p, "slice and slices must be more than 0");
	if (strcmp(tok[9], "state"))
		return hreject(p, "expected 'state' as field 10");
	if (!strcmp(tok[10], "live")) {
		if (n != 11)
			return hreject(p, "a live history ends at its state");
		return 0;
	}
	if (strcmp(tok[10], "frozen"))
		return hreject(p, "state must be live or frozen, not '%.32s'",
			       tok[10]);
	h->frozen = 1;
	if (n < 15 || key_u64(p, tok, 11, "frozen_at", &h->frozen_at) ||
	    strcmp(tok[13], "by"))
		return n < 15 ? hreject(p, "a frozen history says 'frozen_at T by REASON'") : -1;
	if (join_tokens(h->reason, sizeof(h->reason), tok, 14, n))
		return hreject(p, "the reason of the freeze is longer than %zu bytes",
			       sizeof(h->reason) - 1);
	return 0;
}

/* "# trigger TNAME above V after NS fired_at T" */
static int trigger_line(struct hparser *p, char **tok, int n)
{
	struct history *h = p->h;

	if (h->has_trigger)
		return hreject(p, "a second '# trigger' line");
	if (n != 9)
		return hreject(p, "expected '# trigger TNAME above V after NS fired_at T'");
	if (strlen(tok[2]) >= sizeof(h->trigger))
		return hreject(p, "trigger name longer than %zu bytes",
			       sizeof(h->trigger) - 1);
	snprintf(h->trigger, sizeof(h->trigger), "%s", tok[2]);
	if (key_u64(p, tok, 3, "above", &h->trig_above) ||
	    key_u64(p, tok, 5, "after", &h->trig_after) ||
	    key_u64(p, tok, 7, "fired_at", &h->trig_fired))
		return -1;
	h->has_trigger = 1;
	return 0;
}

/* "# lost slices K samples M" */
static int lost_line(struct hparser *p, char **tok, int n)
{
	struct history *h = p->h;

	if (h->has_lost)
		return hreject(p, "a second '# lost' line");
	if (n != 6)
		return hreject(p, "expected '# lost slices K samples M'");
	if (key_u64(p, tok, 2, "slices", &h->lost_slices) ||
	    key_u64(p, tok, 4, "samples", &h->lost_samples))
		return -1;
	h->has_lost = 1;
	return 0;
}

/* "LO:COUNT,LO:COUNT,...": increasing LO, counts adding up to the samples */
static int buckets(struct hparser *p, struct hslice *s, char *list)
{
	size_t cap = 0;
	u64 sum = 0;

	for (char *t = list, *next; t; t = next) {
		char *colon;
		struct hbucket b;

		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		colon = strchr(t, ':');
		if (!colon)
			return hreject(p, "bucket '%.32s' is not LO:COUNT", t);
		*colon = '\0';
		if (parse_u64(t, &b.lo) || parse_u64(colon + 1, &b.count))
			return hreject(p, "bucket '%.32s:%.32s' is not LO:COUNT, two decimal numbers",
				       t, colon + 1);
		if (s->nb && b.lo <= s->b[s->nb - 1].lo)
			return hreject(p, "bucket %llu after %llu: the buckets go by increasing LO",
				       (unsigned long long)b.lo,
				       (unsigned long long)s->b[s->nb - 1].lo);
		if (sum > U64_MAX_VAL - b.count)
			return hreject(p, "the bucket counts overflow");
		sum += b.count;
		if (s->nb == cap) {
			struct hbucket *nb = realloc(s->b, (cap = cap * 2 + 8) *
							   sizeof(*nb));

			if (!nb)
				return hreject(p, "out of memory");
			s->b = nb;
		}
		s->b[s->nb++] = b;
	}
	if (sum != s->samples)
		return hreject(p, "the buckets add up to %llu, the slice has %llu samples",
			       (unsigned long long)sum,
			       (unsigned long long)s->samples);
	return 0;
}

/* min in the first non-empty bucket, max in the last; p50 and p99 between */
static int slice_bounds(struct hparser *p, const struct hslice *s)
{
	size_t first = 0, last = s->nb - 1;

	while (!s->b[first].count)
		first++;
	while (!s->b[last].count)
		last--;
	if (!(s->min <= s->p50 && s->p50 <= s->p99 && s->p99 <= s->max))
		return hreject(p, "min <= p50 <= p99 <= max does not hold");
	if (s->min < s->b[first].lo ||
	    (first + 1 < s->nb && s->min >= s->b[first + 1].lo))
		return hreject(p, "min %llu is not in the first non-empty bucket, at %llu",
			       (unsigned long long)s->min,
			       (unsigned long long)s->b[first].lo);
	if (s->max < s->b[last].lo ||
	    (last + 1 < s->nb && s->max >= s->b[last + 1].lo))
		return hreject(p, "max %llu is not in the last non-empty bucket, at %llu",
			       (unsigned long long)s->max,
			       (unsigned long long)s->b[last].lo);
	return 0;
}

/* "slice T samples N min A p50 B p99 C max D buckets LO:COUNT,..." */
static int slice_line(struct hparser *p, char **tok, int n)
{
	static const char *const keys[] = { "samples", "min", "p50", "p99",
					    "max" };
	struct history *h = p->h;
	struct hslice *s;
	u64 *v[5];

	if (n != 14 || strcmp(tok[12], "buckets"))
		return hreject(p, "expected 'slice T samples N min A p50 B p99 C max D buckets LO:COUNT,...'");
	if (h->n == p->cap) {
		struct hslice *ns = realloc(h->s, (p->cap = p->cap * 2 + 16) *
						   sizeof(*ns));

		if (!ns)
			return hreject(p, "out of memory");
		h->s = ns;
	}
	s = &h->s[h->n];
	memset(s, 0, sizeof(*s));
	h->n++;		/* its buckets freed with the rest, on error too */
	if (parse_u64(tok[1], &s->t))
		return hreject(p, "a slice's start T is a decimal number");
	v[0] = &s->samples;
	v[1] = &s->min;
	v[2] = &s->p50;
	v[3] = &s->p99;
	v[4] = &s->max;
	for (int i = 0; i < 5; i++)
		if (key_u64(p, tok, 2 + 2 * i, keys[i], v[i]))
			return -1;
	if (s->t % h->slice_ns)
		return hreject(p, "slice %llu does not start on a multiple of the slice length %llu",
			       (unsigned long long)s->t,
			       (unsigned long long)h->slice_ns);
	if (h->n > 1 && s->t <= h->s[h->n - 2].t)
		return hreject(p, "slice %llu after %llu: the slices go oldest first",
			       (unsigned long long)s->t,
			       (unsigned long long)h->s[h->n - 2].t);
	if (h->n > h->slices)
		return hreject(p, "more slice lines than the ring's %llu slices",
			       (unsigned long long)h->slices);
	if (!s->samples)
		return hreject(p, "a slice of no samples: only non-empty slices are listed");
	if (buckets(p, s, tok[13]) || slice_bounds(p, s))
		return -1;
	if (h->samples > U64_MAX_VAL - s->samples)
		return hreject(p, "the samples overflow");
	h->samples += s->samples;
	for (size_t i = 0; i < s->nb; i++)
		if (s->b[i].count > h->max_count)
			h->max_count = s->b[i].count;
	return 0;
}

static int history_line(struct hparser *p, char *line)
{
	char *tok[MAX_TOKENS];
	int n, known;

	known = !strncmp(line, "# history ", 10) || !strncmp(line, "# trigger ", 10) ||
		!strncmp(line, "# lost ", 7) || !strncmp(line, "slice ", 6);
	if (p->line > 1 && line[0] == '#' && !known)
		return 0;	/* a later kernel's line */
	n = known || p->line == 1 ? tokenize(line, tok) : 0;
	if (n < 0)
		return hreject(p, "fields must be separated by single spaces (at most %d)",
			       MAX_TOKENS);
	if (p->line == 1) {
		if (n < 2 || strcmp(tok[0], "#"))
			return hreject(p, "first line must be the '# history ...' header: not a kstats history");
		return head_line(p, tok, n);
	}
	if (!known)
		return hreject(p, "expected a 'slice' line or a '#' line");
	if (!strcmp(tok[0], "slice"))
		return slice_line(p, tok, n);
	if (!strcmp(tok[1], "trigger"))
		return trigger_line(p, tok, n);
	if (!strcmp(tok[1], "lost"))
		return lost_line(p, tok, n);
	return hreject(p, "a second '# history' line");
}

int history_parse(struct history *h, const char *buf, size_t len,
		  const char *source, char *err, size_t errlen)
{
	struct hparser p = { .h = h, .err = err, .errlen = errlen };
	size_t off = 0;
	char *line;

	memset(h, 0, sizeof(*h));
	snprintf(h->source, sizeof(h->source), "%s", source);
	if (!len)
		return hreject(&p, "empty: not a kstats history");
	if (memchr(buf, '\0', len))
		return hreject(&p, "contains a NUL byte: not a kstats history");
	line = malloc(len + 1);
	if (!line)
		return hreject(&p, "out of memory");
	while (off < len) {
		const char *why;
		size_t l;
		int r;

		p.line++;
		r = text_line(buf, len, &off, line, &l, &why);
		if (!r)
			break;
		if (r < 0 ? hreject(&p, "%s", why) : history_line(&p, line))
			goto bad;
	}
	free(line);
	return 0;
bad:
	free(line);
	history_free(h);
	return -1;
}

int history_load(struct history *h, const char *path, char *err,
		 size_t errlen)
{
	size_t len;
	char *buf;
	int ret = read_whole(path, &buf, &len, err, errlen);

	memset(h, 0, sizeof(*h));
	if (!ret) {
		ret = history_parse(h, buf, len, path, err, errlen) ? -EINVAL : 0;
		free(buf);
	}
	return ret;
}

void history_free(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->s[i].b);
	free(h->s);
	h->s = NULL;
	h->n = 0;
}

/* Whether every bucket's LO is the lower bound of a slot of frac_bits @k. */
int history_slots_of(const struct history *h, unsigned int k)
{
	for (size_t i = 0; i < h->n; i++)
		for (size_t j = 0; j < h->s[i].nb; j++) {
			u64 lo = h->s[i].b[j].lo;

			if (kstats_slot_lo(kstats_slot(lo, k), k) != lo)
				return 0;
		}
	return 1;
}

/* The least frac_bits whose slots have every LO of @h for a bound, or -1. */
int history_frac_bits(const struct history *h)
{
	for (unsigned int k = 0; k <= KSTATS_MAX_FRAC_BITS; k++)
		if (history_slots_of(h, k))
			return (int)k;
	return -1;
}
