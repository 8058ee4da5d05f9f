// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - the parser of the kstats debugfs format
 * (Documentation/format.rst).  A live file and a saved snapshot are the same
 * text.  Anything that is not exactly the documented format is rejected with
 * the file, the line number and the reason; nothing in here may crash on any
 * input (it is fuzzed: tests/fuzz_snapshot.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grammar.h"
#include "kstats_tool.h"

#define MAX_FILE	(64u << 20)
#define MAX_CPUS	65536u

struct parser {
	struct snapshot *s;
	const char *source;
	unsigned int line;
	char *err;
	size_t errlen;
	size_t cap_slots, cap_rows;
	unsigned int summary_line;
	unsigned int range_line;
	unsigned int value_line;
	size_t cap_errnos;
	unsigned int family_line;
	size_t cap_keys, cap_kslots;	/* keys, the current key's slots */
	size_t key_rows;		/* slot rows of all keys */
	size_t cap_outliers;
	u64 outliers_kept;		/* "kept K" of the "# outliers" line */
};

/* The cycle counter's clock: x86's tsc, or cycles (arm64's cntvct_el0). */
static int is_cycles_clock(const char *clock)
{
	return !strcmp(clock, "tsc") || !strcmp(clock, "cycles");
}

/*
 * A parser's error into @err: "SOURCE:LINE: what" ("SOURCE: what" for
 * line 0, the whole file); -1.
 */
int vparse_error(char *err, size_t errlen, const char *source,
		 unsigned int line, const char *fmt, va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (line)
		snprintf(err, errlen, "%s:%u: %s", source, line, msg);
	else
		snprintf(err, errlen, "%s: %s", source, msg);
	return -1;
}

static int reject(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vparse_error(p->err, p->errlen, p->source, p->line, fmt, ap);
	va_end(ap);
	return -1;
}

/* A decimal u64, digits only: 0, or -1 for anything else or an overflow. */
int parse_u64(const char *t, u64 *v)
{
	u64 x = 0;

	if (!*t)
		return -1;
	for (; *t; t++) {
		unsigned int d = (unsigned char)*t - '0';

		if (d > 9 || x > (U64_MAX_VAL - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* "0.012156" or "1.000000": six decimals, at most one, in millionths. */
static int parse_ppm(const char *t, u32 *ppm)
{
	u64 frac;

	if (strlen(t) != 8 || (t[0] != '0' && t[0] != '1') || t[1] != '.' ||
	    parse_u64(t + 2, &frac))
		return -1;
	*ppm = (u32)((t[0] - '0') * 1000000u + frac);
	return *ppm > 1000000u ? -1 : 0;
}

/* "-14", "0", "9": a signed decimal. */
static int parse_s64(const char *t, long long *v)
{
	int neg = *t == '-';
	u64 x;

	if (parse_u64(t + neg, &x) || x > (u64)9223372036854775807LL + neg)
		return -1;
	*v = neg ? (long long)(0 - x) : (long long)x;
	return 0;
}

/* Decimal without leading zeros, at most @max; the end, or NULL. */
static const char *number(const char *t, u64 max, u64 *v)
{
	u64 x = 0;
	const char *p = t;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (max - (u64)(*p - '0')) / 10)
			return NULL;
		x = x * 10 + (u64)(*p - '0');
	}
	if (p == t || (*t == '0' && p - t > 1))
		return NULL;
	*v = x;
	return p;
}

/* A read's size: 1 2 4 8 s1 s2 s4; the end, or NULL. */
static const char *read_size(const char *t, int *eight)
{
	int sign = *t == 's';

	t += sign;
	if (*t != '1' && *t != '2' && *t != '4' && (*t != '8' || sign))
		return NULL;
	*eight = *t == '8';
	return t + 1;
}

/*
 * A value as the kernel prints it: ret or argN (0..11), an optional cast,
 * then at most 4 reads +OFF:SIZE or -OFF:SIZE, all but the last of size 8.
 */
int valid_value(const char *v)
{
	int reads = 0, eight = 1;
	u64 x;

	if (!strncmp(v, "ret", 3)) {
		v += 3;
	} else if (!strncmp(v, "arg", 3)) {
		v = number(v + 3, 11, &x);
		if (!v)
			return 0;
	} else {
		return 0;
	}
	if (*v == ':' && !(v = read_size(v + 1, &eight)))
		return 0;
	for (eight = 1; *v == '+' || *v == '-'; reads++) {
		if (reads == 4 || !eight)
			return 0;
		v = number(v + 1, 2147483647, &x);
		if (!v || *v != ':' || !(v = read_size(v + 1, &eight)))
			return 0;
	}
	return !*v;
}

/*
 * The V of a key "str:V": a value, which may end in +OFF with no size
 * (the string in place at that offset, the kernel's str_off).
 */
static int valid_string(const char *v)
{
	const char *plus = strrchr(v, '+'), *end;
	char head[160];
	u64 x;

	if (valid_value(v))
		return 1;
	if (!plus || strchr(plus, ':') || (size_t)(plus - v) >= sizeof(head))
		return 0;
	end = number(plus + 1, 2147483647, &x);
	if (!end || *end)
		return 0;
	memcpy(head, v, (size_t)(plus - v));
	head[plus - v] = '\0';
	return valid_value(head);
}

/* A constant of a condition: decimal or 0x-hex, maybe negative. */
static int valid_const(const char *t)
{
	const char *d = t + (*t == '-');
	u64 x;

	if (!strncmp(d, "0x", 2)) {
		d += 2;
		if (!*d || strlen(d) > 16)
			return 0;
		for (; *d; d++)
			if (!((*d >= '0' && *d <= '9') || (*d >= 'a' && *d <= 'f') ||
			      (*d >= 'A' && *d <= 'F')))
				return 0;
		return 1;
	}
	return !parse_u64(d, &x);
}

/* A copy of @t on the heap, or NULL. */
static char *dup_text(const char *t)
{
	char *d = malloc(strlen(t) + 1);

	return d ? strcpy(d, t) : NULL;
}

/* A function's name as "by func" keys show it: [A-Za-z0-9_.]+ */
static int valid_symbol(const char *t)
{
	if (!*t)
		return 0;
	for (; *t; t++)
		if (!(*t == '_' || *t == '.' || (*t >= 'a' && *t <= 'z') ||
		      (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9')))
			return 0;
	return 1;
}

/*
 * Whether @t is not frames as keys show them: "symbol+0xOFF" (or "0xADDR"
 * for an address kallsyms did not know), ';' between them.
 */
static int bad_frames(const char *t)
{
	while (*t) {
		const char *end = strchr(t, ';'), *plus;
		size_t len = end ? (size_t)(end - t) : strlen(t);

		if (!len)
			return 1;
		plus = memchr(t, '+', len);
		if (!plus ? strncmp(t, "0x", 2) : plus == t || plus[1] != '0' ||
		    plus[2] != 'x')
			return 1;
		t += len + (end != NULL);
		if (end && !*t)
			return 1;
	}
	return 0;
}

/*
 * What a family can be split by: comm, pid, tid, cpu, or a value; or key,
 * the u64 that kernel code gives kstats_record_key() (a family made by
 * kstats_new_config() with max_keys).
 */
int valid_by(const char *by)
{
	return grammar_word(by_words, NR_BY_WORDS, by) >= 0 ||
	       !strcmp(by, "key") || valid_value(by) ||
	       (!strncmp(by, "str:", 4) && valid_string(by + 4));
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A key's text as the module prints it to its bytes: "\xHH" is the byte
 * HH (the module writes so every byte outside 0x21..0x7e, and the
 * backslash, so that a comm cannot break the line).  0, or -1 for a
 * backslash not starting \xHH, or more than @len - 1 bytes.
 */
int key_unescape(const char *text, char *raw, size_t len, size_t *rawlen)
{
	size_t n = 0;

	for (; *text; n++) {
		int c = (unsigned char)*text++;

		if (c == '\\') {
			int h, l;

			if (*text != 'x' || (h = hex_digit(text[1])) < 0 ||
			    (l = hex_digit(text[2])) < 0)
				return -1;
			c = h << 4 | l;
			text += 3;
		}
		if (n + 1 >= len)
			return -1;
		raw[n] = (char)c;
	}
	raw[n] = '\0';
	*rawlen = n;
	return 0;
}

int valid_name(const char *name)
{
	size_t i, n = strlen(name);

	if (n < 1 || n > 63 || name[0] == '.' || !strcmp(name, "_control") ||
	    !strcmp(name, "_errors") || !strcmp(name, "_history"))
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return 0;
	}
	return 1;
}

/*
 * Split at single spaces into at most MAX_TOKENS tokens; an empty token
 * (double space, edge space) fails.
 */
int tokenize(char *line, char **tok)
{
	int n = 0;
	char *t = line;

	for (;;) {
		char *sp = strchr(t, ' ');

		if (n == MAX_TOKENS)
			return -1;
		tok[n++] = t;
		if (!sp)
			break;
		*sp = '\0';
		t = sp + 1;
	}
	for (int i = 0; i < n; i++)
		if (!*tok[i])
			return -1;
	return n;
}

/*
 * tok[@from..@n) appended to the string @dst (@size bytes), a single space
 * before each but a first in an empty @dst: 0, or -1 if they do not fit.
 */
int join_tokens(char *dst, size_t size, char *const *tok, int from, int n)
{
	size_t len = strlen(dst);

	for (int i = from; i < n; i++) {
		size_t l = strlen(tok[i]);

		if (len + l + 2 > size)
			return -1;
		if (len)
			dst[len++] = ' ';
		memcpy(dst + len, tok[i], l + 1);
		len += l;
	}
	return 0;
}

static const char *const first_keys[] = {
	"name", "clock", "unit", "frac_bits", "state", "cpus", "samples",
	"missed",
};
#define NR_FIRST_KEYS (sizeof(first_keys) / sizeof(first_keys[0]))

static int first_line(struct parser *p, char **tok, int n)
{
	struct snapshot *s = p->s;
	unsigned int seen = 0;
	u64 v;

	if (n < 3 || strcmp(tok[0], "#") || n % 2 == 0)
		return reject(p, "first line must be '# name NAME clock ...' (key value pairs)");
	for (int i = 1; i < n; i += 2) {
		const char *k = tok[i], *val = tok[i + 1];
		unsigned int idx;

		for (idx = 0; idx < NR_FIRST_KEYS; idx++)
			if (!strcmp(k, first_keys[idx]))
				break;
		if (idx == NR_FIRST_KEYS)
			continue;	/* unknown keys are ignored */
		if (seen & (1u << idx))
			return reject(p, "key '%s' given twice", k);
		seen |= 1u << idx;
		switch (idx) {
		case 0:
			if (!valid_name(val))
				return reject(p, "invalid name '%.64s'", val);
			strcpy(s->name, val);
			break;
		case 1:
			if (strcmp(val, "ktime") && strcmp(val, "local") &&
			    strcmp(val, "tsc") && strcmp(val, "cycles") &&
			    strcmp(val, "none"))
				return reject(p, "unknown clock '%.16s' (ktime, local, tsc, cycles or none)", val);
			strcpy(s->clock, val);
			break;
		case 2:
			if (strcmp(val, "ns") && strcmp(val, "cycles") &&
			    strcmp(val, "value"))
				return reject(p, "unknown unit '%.16s' (ns, cycles or value)", val);
			strcpy(s->unit, val);
			break;
		case 4:
			if (strcmp(val, "active") && strcmp(val, "stopped"))
				return reject(p, "unknown state '%.16s' (active or stopped)", val);
			strcpy(s->state, val);
			break;
		default:
			if (parse_u64(val, &v))
				return reject(p, "%s '%.24s' is not an unsigned integer", k, val);
			if (idx == 3) {
				if (v > KSTATS_MAX_FRAC_BITS)
					return reject(p, "frac_bits %llu out of range 0..%d",
						      (unsigned long long)v, KSTATS_MAX_FRAC_BITS);
				s->frac_bits = (unsigned int)v;
			} else if (idx == 5) {
				if (v < 1 || v > MAX_CPUS)
					return reject(p, "cpus %llu out of range 1..%u",
						      (unsigned long long)v, MAX_CPUS);
				s->cpus = (u32)v;
			} else if (idx == 6) {
				s->samples = v;
			} else {
				s->missed = v;
			}
		}
	}
	for (unsigned int idx = 0; idx < NR_FIRST_KEYS; idx++)
		if (!(seen & (1u << idx)))
			return reject(p, "first line lacks key '%s'", first_keys[idx]);
	{
		const char *want = is_cycles_clock(s->clock) ? "cycles" :
				   !strcmp(s->clock, "none") ? "value" : "ns";

		if (strcmp(s->unit, want))
			return reject(p, "unit %s does not go with clock %s (expected %s)",
				      s->unit, s->clock, want);
	}
	return 0;
}

/* Get the value of known key @key among the pairs of a tagged line. */
static int tag_value(struct parser *p, char **tok, int n, const char *key,
		     u64 *v)
{
	for (int i = 2; i + 1 < n; i += 2)
		if (!strcmp(tok[i], key)) {
			if (parse_u64(tok[i + 1], v))
				return reject(p, "%s '%.24s' is not an unsigned integer",
					      key, tok[i + 1]);
			return 0;
		}
	return reject(p, "'# %s' line lacks key '%s'", tok[1], key);
}

static const char *const summary_keys[] = {
	"samples", "min", "p50", "p90", "p99", "p99.9", "max", "mean",
};

enum { TAG_SUMMARY = 1, TAG_CLOCK = 2, TAG_RANGE = 4, TAG_VALUE = 8,
       TAG_FILTER = 16, TAG_NEGATIVE = 32, TAG_FILTER_START = 64,
       TAG_FILTER_END = 128, TAG_FAMILY = 256 };

/* "# value V" */
static int value_line(struct parser *p, char **tok, int n, unsigned int *tags)
{
	struct snapshot *s = p->s;

	if (*tags & TAG_VALUE)
		return reject(p, "second '# value' line");
	*tags |= TAG_VALUE;
	if (strcmp(s->clock, "none"))
		return reject(p, "'# value' is for clock none, not %s", s->clock);
	if (n != 3 || strlen(tok[2]) >= sizeof(s->value) ||
	    !valid_value(tok[2]))
		return reject(p, "'# value' must be one value: ret or argN, a cast, at most 4 reads (+OFF:SIZE)");
	strcpy(s->value, tok[2]);
	p->value_line = p->line;
	return 0;
}

/* A cgroup as the kernel prints one: /PATH with \\xHH escapes, or id:N. */
static int valid_cgroup(const char *t)
{
	char raw[4096];
	size_t n;
	u64 id;

	if (!strncmp(t, "id:", 3))
		return !parse_u64(t + 3, &id);
	return t[0] == '/' && !key_unescape(t, raw, sizeof(raw), &n);
}

/*
 * "# filter [pid N] [tid N] [comm C] [cpu N] [cgroup PATH] [if V OP C]...",
 * the filters in the order of grammar.h, or for a section "# filter start
 * ..." and "# filter end ...": in s->filter as "start ... end ...".
 */
static int filter_line(struct parser *p, char **tok, int n, unsigned int *tags)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };
	struct snapshot *s = p->s;
	unsigned int ifs = 0, k, tag = TAG_FILTER;
	int first = 2, stage = 0, w;
	u64 v;

	if (n > 2 && (!strcmp(tok[2], "start") || !strcmp(tok[2], "end"))) {
		tag = tok[2][0] == 's' ? TAG_FILTER_START : TAG_FILTER_END;
		if (tag == TAG_FILTER_START && (*tags & TAG_FILTER_END))
			return reject(p, "'# filter start' after '# filter end'");
		first = 3;
	}
	if (*tags & tag)
		return reject(p, "second '# filter%s%s' line", first == 3 ? " " : "",
			      first == 3 ? tok[2] : "");
	if ((*tags & TAG_FILTER) || (tag == TAG_FILTER && (*tags & (TAG_FILTER_START | TAG_FILTER_END))))
		return reject(p, "'# filter' and '# filter start|end' lines together");
	*tags |= tag;
	if (n < first + 2)
		return reject(p, "'# filter' line without a filter");
	for (int i = first; i < n;) {
		if (!strcmp(tok[i], "if")) {
			if (n - i < 4)
				return reject(p, "'if' filter must be 'if V OP C'");
			if (++ifs > 4)
				return reject(p, "more than 4 'if' filters");
			if (!valid_value(tok[i + 1]))
				return reject(p, "'if %.40s': not a value (ret or argN, a cast, at most 4 reads)",
					      tok[i + 1]);
			for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
				if (!strcmp(tok[i + 2], ops[k]))
					break;
			if (k == sizeof(ops) / sizeof(ops[0]))
				return reject(p, "'if': unknown operator '%.8s' (== != < <= > >= &)",
					      tok[i + 2]);
			if (!valid_const(tok[i + 3]))
				return reject(p, "'if': '%.24s' is not a decimal or 0x-hex number",
					      tok[i + 3]);
			stage = NR_FILTER_WORDS;
			i += 4;
			continue;
		}
		w = grammar_word(filter_words, NR_FILTER_WORDS, tok[i]);
		if (w < 0)
			return reject(p, "unknown filter '%.16s' (pid, tid, comm, cpu, cgroup or if)",
				      tok[i]);
		if (w < stage)
			return reject(p, "filter '%s' twice or out of order (pid tid comm cpu cgroup, then the ifs)",
				      filter_words[w]);
		if (i + 1 == n)
			return reject(p, "filter '%s' without its value", filter_words[w]);
		if (w == FILTER_COMM && strlen(tok[i + 1]) > 15)
			return reject(p, "comm '%.16s...' longer than 15 characters",
				      tok[i + 1]);
		if (w == FILTER_CGROUP && !valid_cgroup(tok[i + 1]))
			return reject(p, "cgroup '%.40s': not a cgroup path (/..., \\xHH escapes) or id:N",
				      tok[i + 1]);
		if (w != FILTER_COMM && w != FILTER_CGROUP &&
		    (parse_u64(tok[i + 1], &v) || v > 2147483647))
			return reject(p, "%s '%.24s' is not a number 0..2147483647",
				      filter_words[w], tok[i + 1]);
		stage = w + 1;
		i += 2;
	}
	if (join_tokens(s->filter, sizeof(s->filter), tok, 2, n))
		return reject(p, "'# filter' line longer than %zu characters",
			      sizeof(s->filter) - 1);
	return 0;
}

/* "# negative samples N min X max Y" */
static int negative_line(struct parser *p, char **tok, int n,
			 unsigned int *tags)
{
	struct snapshot *s = p->s;

	if (*tags & TAG_NEGATIVE)
		return reject(p, "second '# negative' line");
	*tags |= TAG_NEGATIVE;
	if (n != 8 || strcmp(tok[2], "samples") || strcmp(tok[4], "min") ||
	    strcmp(tok[6], "max"))
		return reject(p, "'# negative' line must be 'samples N min X max Y'");
	if (parse_u64(tok[3], &s->neg_samples))
		return reject(p, "negative samples '%.24s' is not an unsigned integer",
			      tok[3]);
	if (parse_s64(tok[5], &s->neg_min) || parse_s64(tok[7], &s->neg_max))
		return reject(p, "negative min and max must be signed integers");
	/*
	 * The module reads the count, the range and the errnos one after the
	 * other while samples go on: a live file may show a min above its
	 * max (a sample counted whose range is not yet), or count an errno
	 * that its negative line does not yet.  Only what holds all the same
	 * is checked: min <= 0 and max < 0, both 0 without samples.
	 */
	if (!s->neg_samples && (s->neg_min || s->neg_max))
		return reject(p, "negative min and max must be 0 with no samples");
	if (s->neg_samples && (s->neg_min > 0 || s->neg_max >= 0))
		return reject(p, "negative min %lld max %lld: need min <= 0 and max < 0",
			      s->neg_min, s->neg_max);
	s->has_negative = 1;
	return 0;
}

/*
 * "# family by BY max N keys K other O key_bytes B": a node split by BY.
 * Unknown pairs after them are ignored (the line only grows at its end).
 */
static int family_line(struct parser *p, char **tok, int n, unsigned int *tags)
{
	static const char *const keys[] = { "max", "keys", "other", "key_bytes",
					    "frames" };
	struct kfamily *fam = &p->s->family;
	u64 *val[] = { &fam->max, &fam->keys, &fam->other, &fam->key_bytes,
		       &fam->frames };
	unsigned int seen = 0, k;

	if (*tags & TAG_FAMILY)
		return reject(p, "second '# family' line");
	*tags |= TAG_FAMILY;
	if (n < 4 || n % 2 || strcmp(tok[2], "by"))
		return reject(p, "'# family' line must be 'by KEY max N keys K other O key_bytes B'");
	if (strlen(tok[3]) >= sizeof(fam->by) || !valid_by(tok[3]))
		return reject(p, "'# family by %.40s': not a key (comm, pid, tid, cpu, key or a value)",
			      tok[3]);
	strcpy(fam->by, tok[3]);
	for (int i = 4; i < n; i += 2) {
		for (k = 0; k < 5; k++)
			if (!strcmp(tok[i], keys[k]))
				break;
		if (k == 5)
			continue;
		if (seen & (1u << k))
			return reject(p, "'# family': '%s' given twice", keys[k]);
		seen |= 1u << k;
		if (parse_u64(tok[i + 1], val[k]))
			return reject(p, "family %s '%.24s' is not an unsigned integer",
				      keys[k], tok[i + 1]);
	}
	for (k = 0; k < 4; k++)
		if (!(seen & (1u << k)))
			return reject(p, "'# family' line lacks '%s'", keys[k]);
	if (fam->max < 1 || fam->max > 65536)
		return reject(p, "family max %llu out of range 1..65536",
			      (unsigned long long)fam->max);
	if (fam->keys > fam->max)
		return reject(p, "family keys %llu above its max %llu",
			      (unsigned long long)fam->keys,
			      (unsigned long long)fam->max);
	if (!strcmp(fam->by, "stack") != !!(seen & (1u << 4)) ||
	    (!strcmp(fam->by, "stack") && (fam->frames < 1 || fam->frames > 32)))
		return reject(p, "'# family': frames 1..32 is for by stack, and only for it");
	p->s->is_family = 1;
	p->family_line = p->line;
	return 0;
}

static int tag_line(struct parser *p, char **tok, int n, unsigned int *tags)
{
	struct snapshot *s = p->s;

	if (n < 2 || strcmp(tok[0], "#"))
		return reject(p, "header line must start with '# '");
	if (!strcmp(tok[1], "value"))
		return value_line(p, tok, n, tags);
	if (!strcmp(tok[1], "filter"))
		return filter_line(p, tok, n, tags);
	if (!strcmp(tok[1], "family"))
		return family_line(p, tok, n, tags);
	/* "# also start POINT ...": a section's further start, as written */
	if (!strcmp(tok[1], "also"))
		return 0;
	/*
	 * "# skipped NAME:WHY ... [... N more]" and "# fallback
	 * NAME:MECH:WHY ...": kept in the header only
	 */
	if (!strcmp(tok[1], "skipped") || !strcmp(tok[1], "fallback"))
		return 0;
	if (n % 2)
		return reject(p, "'# %.32s' line: key without a value", tok[1]);
	if (!strcmp(tok[1], "summary")) {
		u64 *f = &s->summary.samples;

		if (*tags & TAG_SUMMARY)
			return reject(p, "second '# summary' line");
		*tags |= TAG_SUMMARY;
		p->summary_line = p->line;
		if (n < 18)
			return reject(p, "'# summary' line must have samples min p50 p90 p99 p99.9 max mean");
		for (int i = 0; i < 8; i++) {
			if (strcmp(tok[2 + 2 * i], summary_keys[i]))
				return reject(p, "'# summary' field %d must be '%s', not '%.16s'",
					      i + 1, summary_keys[i], tok[2 + 2 * i]);
			if (parse_u64(tok[3 + 2 * i], &f[i]))
				return reject(p, "summary %s '%.24s' is not an unsigned integer",
					      summary_keys[i], tok[3 + 2 * i]);
		}
	} else if (!strcmp(tok[1], "clock")) {
		if (*tags & TAG_CLOCK)
			return reject(p, "second '# clock' line");
		*tags |= TAG_CLOCK;
		/* x86's tsc_khz, or cycles_khz (arm64's cntvct_el0) */
		const char *key = !strcmp(s->clock, "cycles") ? "cycles_khz" : "tsc_khz";

		if (!is_cycles_clock(s->clock))
			return reject(p, "'# clock %s' is only for clock tsc or cycles", key);
		if (tag_value(p, tok, n, key, &s->tsc_khz))
			return -1;
		if (!s->tsc_khz)
			return reject(p, "%s must not be 0", key);
		s->has_tsc_khz = 1;
	} else if (!strcmp(tok[1], "range")) {
		if (*tags & TAG_RANGE)
			return reject(p, "second '# range' line");
		*tags |= TAG_RANGE;
		if (tag_value(p, tok, n, "max_value", &s->max_value) ||
		    tag_value(p, tok, n, "overflow", &s->overflow))
			return -1;
		if (s->max_value == U64_MAX_VAL)
			return reject(p, "range max_value must be below 2^64-1");
		s->has_range = 1;
		p->range_line = p->line;
	} else if (!strcmp(tok[1], "why")) {
		/* "# why oncpu N runq N blocked N irq N calls N unsplit N" */
		if (s->has_why)
			return reject(p, "second '# why' line");
		if (tag_value(p, tok, n, "oncpu", &s->why_oncpu) ||
		    tag_value(p, tok, n, "runq", &s->why_runq) ||
		    tag_value(p, tok, n, "blocked", &s->why_blocked) ||
		    tag_value(p, tok, n, "irq", &s->why_irq) ||
		    tag_value(p, tok, n, "calls", &s->why_calls) ||
		    tag_value(p, tok, n, "unsplit", &s->why_unsplit))
			return -1;
		s->has_why = 1;
	} else if (!strcmp(tok[1], "negative")) {
		return negative_line(p, tok, n, tags);
	} else if (!strcmp(tok[1], "functions")) {
		/* "# functions matched N traced T skipped S [WHY N]..." */
		if (tag_value(p, tok, n, "matched", &s->fn_matched) ||
		    tag_value(p, tok, n, "traced", &s->fn_traced) ||
		    tag_value(p, tok, n, "skipped", &s->fn_skipped))
			return -1;
		if (s->fn_traced + s->fn_skipped != s->fn_matched)
			return reject(p, "functions traced %llu and skipped %llu do not add up to matched %llu",
				      (unsigned long long)s->fn_traced,
				      (unsigned long long)s->fn_skipped,
				      (unsigned long long)s->fn_matched);
		s->has_functions = 1;
	}
	/* "# source" and unknown tags: kept verbatim in the header only. */
	return 0;
}

static void *grow(void *a, size_t *cap, size_t n, size_t size)
{
	void *b;

	if (n < *cap)
		return a;
	*cap = *cap ? *cap * 2 : 64;
	b = realloc(a, *cap * size);
	if (!b)
		free(a);
	return b;
}

/* The printed p must be kstats_ppm(cum, total), as the module prints it. */
static int ppm_ok(u64 cum, u64 total, u32 ppm)
{
	return ppm == kstats_ppm(cum, total);
}

struct rowstate {
	long long last_slot;	/* last CPUS row's slot (of the key), -1 before any */
	int in_key;		/* a family: after a key line */
	u64 key_sum;		/* the current key's rows so far */
	long long cpu_slot;	/* slot of pending CPU rows, -1 if none */
	long long last_cpu;
	u64 cpu_sum;
	u64 total;
};

struct srow {
	u64 slot, who, count, avg, lo, hi;
	u32 ppm;
};

/* A "slot S CPU C" row: one CPU's count, before its slot's CPUS row. */
static int cpu_row(struct parser *p, const struct srow *r, struct rowstate *rs)
{
	struct snapshot *s = p->s;

	/* CPU ids are possible CPUs: below cpus unless there are holes */
	if (r->who >= MAX_CPUS)
		return reject(p, "CPU %llu not below %u",
			      (unsigned long long)r->who, MAX_CPUS);
	if (r->who >= s->ncpu_ids)
		s->ncpu_ids = (u32)r->who + 1;
	if (rs->cpu_slot >= 0 && rs->cpu_slot != (long long)r->slot)
		return reject(p, "CPU rows of slot %lld not followed by its CPUS row",
			      rs->cpu_slot);
	if (rs->cpu_slot == (long long)r->slot &&
	    (long long)r->who <= rs->last_cpu)
		return reject(p, "CPU %llu not in increasing CPU order",
			      (unsigned long long)r->who);
	if (r->count > U64_MAX_VAL - rs->cpu_sum)
		return reject(p, "counts overflow 64 bits");
	rs->cpu_slot = (long long)r->slot;
	rs->last_cpu = (long long)r->who;
	rs->cpu_sum += r->count;
	s->rows = grow(s->rows, &p->cap_rows, s->nrows, sizeof(*s->rows));
	if (!s->rows)
		return reject(p, "out of memory");
	s->rows[s->nrows++] = (struct kcpurow){
		.slot = (u32)r->slot, .cpu = (u32)r->who, .count = r->count,
		.avg = r->avg, .ppm = r->ppm, .line = p->line };
	return 0;
}

/* A "slot S CPUS N" row: the all-CPU count, the sum of its CPU rows. */
static int cpus_row(struct parser *p, const struct srow *r, struct rowstate *rs)
{
	struct snapshot *s = p->s;

	if (r->who != s->cpus)
		return reject(p, "CPUS %llu differs from header cpus %u",
			      (unsigned long long)r->who, s->cpus);
	if (rs->cpu_slot != (long long)r->slot)
		return reject(p, "CPUS row of slot %llu without CPU rows",
			      (unsigned long long)r->slot);
	if (rs->cpu_sum != r->count)
		return reject(p, "CPUS count %llu is not the sum of the CPU rows (%llu)",
			      (unsigned long long)r->count,
			      (unsigned long long)rs->cpu_sum);
	if (r->count > U64_MAX_VAL - rs->total)
		return reject(p, "counts overflow 64 bits");
	rs->total += r->count;
	rs->last_slot = (long long)r->slot;
	rs->cpu_slot = -1;
	rs->last_cpu = -1;
	rs->cpu_sum = 0;
	s->slots = grow(s->slots, &p->cap_slots, s->nslots, sizeof(*s->slots));
	if (!s->slots)
		return reject(p, "out of memory");
	s->slots[s->nslots++] = (struct kslot){
		.slot = (u32)r->slot, .lo = r->lo, .hi = r->hi, .count = r->count,
		.avg = r->avg, .ppm = r->ppm, .line = p->line };
	return 0;
}

/*
 * A slot row of a family: the all-CPU row of one slot of the current key
 * (a family has no CPU rows: a key's histogram is summed over the CPUs).
 */
static int key_row(struct parser *p, const struct srow *r, int all,
		   struct rowstate *rs)
{
	struct snapshot *s = p->s;
	struct kkey *k;

	if (!all)
		return reject(p, "CPU row in a family: a key has only 'slot S CPUS N' rows");
	if (!rs->in_key)
		return reject(p, "slot row outside a key block in a family");
	k = &s->keys[s->nkeys - 1];
	if (r->who != s->cpus)
		return reject(p, "CPUS %llu differs from header cpus %u",
			      (unsigned long long)r->who, s->cpus);
	if (r->count > k->samples - rs->key_sum)
		return reject(p, "key %s: slot rows add up to more than its samples %llu",
			      k->text, (unsigned long long)k->samples);
	rs->key_sum += r->count;
	if (!ppm_ok(rs->key_sum, k->samples, r->ppm))
		return reject(p, "slot %llu of key %s: p is not the cumulative fraction within the key",
			      (unsigned long long)r->slot, k->text);
	rs->last_slot = (long long)r->slot;
	k->slots = grow(k->slots, &p->cap_kslots, k->nslots, sizeof(*k->slots));
	if (!k->slots)
		return reject(p, "out of memory");
	k->slots[k->nslots++] = (struct kslot){
		.slot = (u32)r->slot, .lo = r->lo, .hi = r->hi, .count = r->count,
		.avg = r->avg, .ppm = r->ppm, .line = p->line };
	p->key_rows++;
	return 0;
}

/* The end of a key's block: its rows must add up to its samples. */
static int end_key(struct parser *p, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	struct kkey *k = s->nkeys ? &s->keys[s->nkeys - 1] : NULL;

	if (!rs->in_key)
		return 0;
	rs->in_key = 0;
	if (rs->key_sum != k->samples) {
		p->line = k->line;
		return reject(p, "key %s samples %llu but its slot rows add up to %llu",
			      k->text, (unsigned long long)k->samples,
			      (unsigned long long)rs->key_sum);
	}
	return 0;
}

/*
 * "key KEY samples N": a family's key, its slot rows after it.  KEY is
 * "other", a decimal (pid, tid, cpu, a value; unsigned for the API's key)
 * or a comm with \xHH escapes.
 */
static int key_line(struct parser *p, char **tok, int n, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	const char *by = s->family.by;
	struct kkey *k;
	long long num;
	u64 unum;

	if (!s->is_family)
		return reject(p, "key block without a '# family' line");
	if (s->nerrnos)
		return reject(p, "key block after the errno rows");
	if (n != 4 || strcmp(tok[2], "samples"))
		return reject(p, "key line must be 'key KEY samples N'");
	if (end_key(p, rs))
		return -1;
	s->keys = grow(s->keys, &p->cap_keys, s->nkeys, sizeof(*s->keys));
	if (!s->keys)
		return reject(p, "out of memory");
	k = &s->keys[s->nkeys++];
	memset(k, 0, sizeof(*k));
	k->line = p->line;
	k->text = dup_text(tok[1]);
	/* the raw bytes are never longer than the text */
	k->raw = malloc(strlen(tok[1]) + 1);
	if (!k->text || !k->raw)
		return reject(p, "out of memory");
	if (parse_u64(tok[3], &k->samples))
		return reject(p, "key samples '%.24s' is not an unsigned integer",
			      tok[3]);
	if (!k->samples)
		return reject(p, "key %s with 0 samples: only keys with samples are printed",
			      k->text);
	k->other = !strcmp(k->text, "other");
	if (k->other) {
		strcpy(k->raw, "other");
		k->rawlen = 5;
	} else if (!strcmp(by, "func")) {
		if (!valid_symbol(k->text))
			return reject(p, "key '%.24s': not a function's name",
				      k->text);
		strcpy(k->raw, k->text);
		k->rawlen = strlen(k->raw);
	} else if (!strcmp(by, "caller") || !strcmp(by, "stack")) {
		if (bad_frames(k->text))
			return reject(p, "key '%.24s': not %s (symbol+0xOFF%s)",
				      k->text, by[0] == 'c' ? "a caller" : "a stack",
				      by[0] == 'c' ? "" : ";...");
		strcpy(k->raw, k->text);
		k->rawlen = strlen(k->raw);
	} else if (!strcmp(by, "cgroup")) {
		if ((k->text[0] != '/' && strncmp(k->text, "id:", 3)) ||
		    key_unescape(k->text, k->raw, strlen(k->text) + 1, &k->rawlen))
			return reject(p, "key '%.24s': not a cgroup path (/..., \\xHH escapes) or id:N",
				      k->text);
	} else if (!strcmp(by, "comm") || !strncmp(by, "str:", 4)) {
		if (key_unescape(k->text, k->raw, 16, &k->rawlen))
			return reject(p, "key '%.24s': not a %s (at most 15 bytes, \\xHH escapes)",
				      k->text, by[0] == 'c' ? "comm" : "string");
	} else if (!strcmp(by, "key")) {
		if (parse_u64(k->text, &unum) || (k->text[0] == '0' && k->text[1]))
			return reject(p, "key '%.24s': not an unsigned decimal number (the family is by key)",
				      k->text);
		strcpy(k->raw, k->text);
		k->rawlen = strlen(k->raw);
	} else {
		if (parse_s64(k->text, &num) || (k->text[0] == '-' && !num) ||
		    (k->text[k->text[0] == '-'] == '0' && k->text[1 + (k->text[0] == '-')]))
			return reject(p, "key '%.24s': not a decimal number (the family is by %s)",
				      k->text, by);
		strcpy(k->raw, k->text);
		k->rawlen = strlen(k->raw);
	}
	if (s->nkeys > 1 && k->samples > k[-1].samples)
		return reject(p, "key %s samples %llu after a key of %llu: keys go largest first",
			      k->text, (unsigned long long)k->samples,
			      (unsigned long long)k[-1].samples);
	rs->in_key = 1;
	rs->key_sum = 0;
	rs->last_slot = -1;
	p->cap_kslots = 0;
	return 0;
}

static int slot_row(struct parser *p, char **tok, int n, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	struct srow r;
	u64 elo, ehi;
	int all;

	if (n != 14 || strcmp(tok[0], "slot") || strcmp(tok[4], "count") ||
	    strcmp(tok[6], "avg") || strcmp(tok[8], "p") ||
	    strcmp(tok[10], "lo") || strcmp(tok[12], "hi"))
		return reject(p, "slot row must be 'slot S CPU C|CPUS N count X avg X p P lo X hi X'");
	if (!strcmp(tok[2], "CPUS"))
		all = 1;
	else if (!strcmp(tok[2], "CPU"))
		all = 0;
	else
		return reject(p, "expected CPU or CPUS, not '%.16s'", tok[2]);
	if (parse_u64(tok[1], &r.slot) || parse_u64(tok[3], &r.who) ||
	    parse_u64(tok[5], &r.count) || parse_u64(tok[7], &r.avg) ||
	    parse_u64(tok[11], &r.lo) || parse_u64(tok[13], &r.hi))
		return reject(p, "slot row field is not an unsigned integer");
	if (parse_ppm(tok[9], &r.ppm))
		return reject(p, "p '%.16s' must be a fraction 0..1 with six decimals", tok[9]);
	if (r.slot >= kstats_nr_slots(s->frac_bits))
		return reject(p, "slot %llu out of range for frac_bits %u (below %u)",
			      (unsigned long long)r.slot, s->frac_bits,
			      kstats_nr_slots(s->frac_bits));
	elo = kstats_slot_lo((u32)r.slot, s->frac_bits);
	ehi = kstats_slot_hi((u32)r.slot, s->frac_bits);
	if (s->has_range && r.lo == s->max_value + 1 && r.hi == U64_MAX_VAL &&
	    r.slot > kstats_slot(s->max_value, s->frac_bits)) {
		elo = r.lo;	/* the overflow slot of a restricted range: */
		ehi = r.hi;	/* kept right above the slot of max_value */
		r.slot = kstats_slot(s->max_value, s->frac_bits) + 1;
	}
	if (r.lo != elo || r.hi != ehi)
		return reject(p, "slot %llu bounds lo %llu hi %llu, expected lo %llu hi %llu",
			      (unsigned long long)r.slot, (unsigned long long)r.lo,
			      (unsigned long long)r.hi, (unsigned long long)elo,
			      (unsigned long long)ehi);
	if (!r.count)
		return reject(p, "count 0: only non-empty slots are printed");
	if (r.avg < r.lo || r.avg > r.hi)
		return reject(p, "avg %llu outside the slot [%llu, %llu]",
			      (unsigned long long)r.avg, (unsigned long long)r.lo,
			      (unsigned long long)r.hi);
	if ((long long)r.slot <= rs->last_slot)
		return reject(p, "slot %llu not in increasing slot order",
			      (unsigned long long)r.slot);
	if (s->is_family)
		return key_row(p, &r, all, rs);
	return all ? cpus_row(p, &r, rs) : cpu_row(p, &r, rs);
}

/* "errno E count N", after the slot rows, by increasing E. */
static int errno_row(struct parser *p, char **tok, int n, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	u64 e, count;

	if (n != 4 || strcmp(tok[2], "count"))
		return reject(p, "errno row must be 'errno E count N'");
	if (!s->has_negative)
		return reject(p, "errno row without a '# negative' line");
	if (rs->cpu_slot >= 0)
		return reject(p, "CPU rows of slot %lld not followed by its CPUS row",
			      rs->cpu_slot);
	if (end_key(p, rs))
		return -1;
	if (parse_u64(tok[1], &e) || parse_u64(tok[3], &count))
		return reject(p, "errno row field is not an unsigned integer");
	if (e < 1 || e > 4095)
		return reject(p, "errno %llu out of range 1..4095",
			      (unsigned long long)e);
	if (!count)
		return reject(p, "errno count 0: only errnos seen are printed");
	if (s->nerrnos && e <= s->errnos[s->nerrnos - 1].err)
		return reject(p, "errno %llu not in increasing order",
			      (unsigned long long)e);
	s->errnos = grow(s->errnos, &p->cap_errnos, s->nerrnos,
			 sizeof(*s->errnos));
	if (!s->errnos)
		return reject(p, "out of memory");
	s->errnos[s->nerrnos++] = (struct kerrno){ .err = (u32)e,
						   .count = count };
	return 0;
}

/* A node with a value always has its negative line (format.rst). */
static int check_negative(struct parser *p)
{
	struct snapshot *s = p->s;

	p->line = p->value_line;
	if (s->value[0] && !s->has_negative)
		return reject(p, "'# value' without a '# negative' line");
	return 0;
}

static int cmp_key_text(const void *a, const void *b)
{
	const struct kkey *x = *(struct kkey *const *)a;
	const struct kkey *y = *(struct kkey *const *)b;
	int c = strcmp(x->text, y->text);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/*
 * A family whole: its keys partition the node (their samples add up to the
 * header's), each key once, "keys" and "other" as the blocks say; then the
 * keys' slots summed into s->slots, the total the "# summary" describes.
 */
static int family_whole(struct parser *p, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	u64 sum = 0, other = 0, named = 0;
	struct kkey **by_text;
	u64 *cnt, *shi, *slo;
	u32 nr = kstats_nr_slots(s->frac_bits) + 1;	/* + a range's overflow */
	size_t i, j;

	if (end_key(p, rs))
		return -1;
	if (!s->is_family)
		return 0;
	p->line = 1;
	for (i = 0; i < s->nkeys; i++) {
		if (s->keys[i].samples > U64_MAX_VAL - sum)
			return reject(p, "counts overflow 64 bits");
		sum += s->keys[i].samples;
		if (s->keys[i].other)
			other += s->keys[i].samples;
		else
			named++;
	}
	if (sum != s->samples)
		return reject(p, "header samples %llu but the keys add up to %llu",
			      (unsigned long long)s->samples,
			      (unsigned long long)sum);
	p->line = p->family_line;
	if (other != s->family.other)
		return reject(p, "family other %llu but key other has %llu samples",
			      (unsigned long long)s->family.other,
			      (unsigned long long)other);
	/* keys with a histogram but no samples yet are not printed */
	if (named > s->family.keys)
		return reject(p, "family keys %llu but %llu keys are printed",
			      (unsigned long long)s->family.keys,
			      (unsigned long long)named);
	by_text = calloc(s->nkeys + 1, sizeof(*by_text));
	if (!by_text)
		return reject(p, "out of memory");
	for (i = 0; i < s->nkeys; i++)
		by_text[i] = &s->keys[i];
	qsort(by_text, s->nkeys, sizeof(*by_text), cmp_key_text);
	for (i = 1; i < s->nkeys; i++)
		if (!strcmp(by_text[i]->text, by_text[i - 1]->text))
			break;
	if (i < s->nkeys) {
		p->line = by_text[i]->line;
		reject(p, "key %s twice", by_text[i]->text);
		free(by_text);
		return -1;
	}
	free(by_text);

	/* The total: each slot's counts and sums over the keys. */
	cnt = calloc(nr, sizeof(u64));
	shi = calloc(nr, sizeof(u64));
	slo = calloc(nr, sizeof(u64));
	s->slots = calloc(nr, sizeof(*s->slots));
	if (!cnt || !shi || !slo || !s->slots) {
		free(cnt);
		free(shi);
		free(slo);
		return reject(p, "out of memory");
	}
	for (i = 0; i < s->nkeys; i++)
		for (j = 0; j < s->keys[i].nslots; j++) {
			const struct kslot *k = &s->keys[i].slots[j];
			u64 h, l;

			hist_sum128(k, 1, &h, &l);
			cnt[k->slot] += k->count;
			slo[k->slot] += l;
			shi[k->slot] += h + (slo[k->slot] < l);
			s->slots[k->slot].lo = k->lo;
			s->slots[k->slot].hi = k->hi;
		}
	for (u32 sl = 0, n = 0; sl < nr; sl++) {
		if (!cnt[sl])
			continue;
		s->slots[n] = s->slots[sl];
		s->slots[n].slot = sl;
		s->slots[n].count = cnt[sl];
		s->slots[n].avg = kstats_div128(shi[sl], slo[sl], cnt[sl]);
		s->nslots = ++n;
	}
	for (i = 0, sum = 0; i < s->nslots; i++) {
		sum += s->slots[i].count;
		s->slots[i].ppm = kstats_ppm(sum, s->samples);
		s->slots[i].line = p->family_line;
	}
	free(cnt);
	free(shi);
	free(slo);
	return 0;
}

static int check_whole(struct parser *p)
{
	struct snapshot *s = p->s;
	struct ksummary got;
	u64 cum = 0, *cpu_tot, *cpu_cum, lhi, llo, uhi, ulo;

	size_t i;

	p->line = 1;
	if (s->nslots == 0 && s->samples != 0)
		return reject(p, "header says samples %llu but there are no slot rows",
			      (unsigned long long)s->samples);
	for (i = 0; i < s->nslots; i++) {
		cum += s->slots[i].count;
		p->line = s->slots[i].line;
		if (!ppm_ok(cum, s->samples, s->slots[i].ppm))
			return reject(p, "slot %u: p %u.%06u is not the cumulative fraction",
				      s->slots[i].slot, s->slots[i].ppm / 1000000,
				      s->slots[i].ppm % 1000000);
	}
	p->line = 1;
	if (cum != s->samples)
		return reject(p, "header samples %llu but the slot rows add up to %llu",
			      (unsigned long long)s->samples,
			      (unsigned long long)cum);
	if (s->has_range) {
		u64 over = s->nslots && s->slots[s->nslots - 1].hi == U64_MAX_VAL ?
			   s->slots[s->nslots - 1].count : 0;

		p->line = p->range_line;
		if (s->overflow != over)
			return reject(p, "range overflow %llu but the overflow slot counts %llu",
				      (unsigned long long)s->overflow,
				      (unsigned long long)over);
	}
	cpu_tot = calloc(s->ncpu_ids + 1, sizeof(u64));
	cpu_cum = calloc(s->ncpu_ids + 1, sizeof(u64));
	if (!cpu_tot || !cpu_cum) {
		free(cpu_tot);
		free(cpu_cum);
		return reject(p, "out of memory");
	}
	for (i = 0; i < s->nrows; i++)
		cpu_tot[s->rows[i].cpu] += s->rows[i].count;
	for (i = 0; i < s->nrows; i++) {
		const struct kcpurow *r = &s->rows[i];

		cpu_cum[r->cpu] += r->count;
		if (!ppm_ok(cpu_cum[r->cpu], cpu_tot[r->cpu], r->ppm))
			break;
	}
	free(cpu_tot);
	free(cpu_cum);
	if (i < s->nrows) {
		p->line = s->rows[i].line;
		return reject(p, "slot %u CPU %u: p is not that CPU's cumulative fraction",
			      s->rows[i].slot, s->rows[i].cpu);
	}

	/*
	 * The summary must be what the slot rows say (format.rst): min and
	 * max the exact extremes, within the lowest and the highest slot
	 * (a file of an older kstats has their bounds, which passes too),
	 * each percentile its slot's hi or max when that is smaller.
	 */
	hist_summary(s->slots, s->nslots, &got);
	p->line = p->summary_line;
	if (s->summary.samples != s->samples)
		return reject(p, "summary samples %llu differs from header samples %llu",
			      (unsigned long long)s->summary.samples,
			      (unsigned long long)s->samples);
	if (s->samples) {
		const struct kslot *lo = &s->slots[0], *hi = &s->slots[s->nslots - 1];

		if (s->summary.min < lo->lo || s->summary.min > lo->hi)
			return reject(p, "summary min %llu is not in the lowest slot [%llu, %llu]",
				      (unsigned long long)s->summary.min,
				      (unsigned long long)lo->lo, (unsigned long long)lo->hi);
		if (s->summary.max < hi->lo || s->summary.max > hi->hi)
			return reject(p, "summary max %llu is not in the highest slot [%llu, %llu]",
				      (unsigned long long)s->summary.max,
				      (unsigned long long)hi->lo, (unsigned long long)hi->hi);
	}
	for (i = 2; i < 6; i++) {
		const u64 *a = &s->summary.samples, *b = &got.samples;
		u64 want = b[i] < s->summary.max ? b[i] : s->summary.max;

		if (a[i] != want)
			return reject(p, "summary %s %llu disagrees with the slot rows (%llu)",
				      summary_keys[i], (unsigned long long)a[i],
				      (unsigned long long)want);
	}
	if (s->samples && (s->summary.mean < s->summary.min ||
			   s->summary.mean > s->summary.max))
		return reject(p, "summary mean %llu is not between min %llu and max %llu",
			      (unsigned long long)s->summary.mean,
			      (unsigned long long)s->summary.min,
			      (unsigned long long)s->summary.max);
	/* The exact mean lies between the slot averages and averages + 1. */
	hist_sum128(s->slots, s->nslots, &lhi, &llo);
	ulo = llo + (s->samples - s->nslots);
	if (s->is_family) {	/* each key's averages, not the total's */
		lhi = llo = 0;
		for (i = 0; i < s->nkeys; i++) {
			u64 h, l;

			hist_sum128(s->keys[i].slots, s->keys[i].nslots, &h, &l);
			llo += l;
			lhi += h + (llo < l);
		}
		ulo = llo + (s->samples - p->key_rows);
	}
	uhi = lhi + (ulo < llo);
	/* (the kernel keeps it within min and max: one of them, if cut) */
	if (s->samples && s->summary.mean != s->summary.min &&
	    s->summary.mean != s->summary.max &&
	    (s->summary.mean < kstats_div128(lhi, llo, s->samples) ||
	     s->summary.mean > kstats_div128(uhi, ulo, s->samples)))
		return reject(p, "summary mean %llu is impossible for the slot averages (%llu..%llu)",
			      (unsigned long long)s->summary.mean,
			      (unsigned long long)kstats_div128(lhi, llo, s->samples),
			      (unsigned long long)kstats_div128(uhi, ulo, s->samples));
	if (!s->samples && s->summary.mean)
		return reject(p, "summary mean must be 0 with no samples");
	return check_negative(p);
}

/* Only newlines from @off to the end. */
static int trailing_blank(const char *buf, size_t off, size_t len)
{
	while (off < len && buf[off] == '\n')
		off++;
	return off >= len;
}

/*
 * The line of @buf (@len bytes) at *@off, below @len, into @line (room for
 * @len + 1 bytes), *@off moved past it and its length in *@l: 1; 0 where
 * only blank lines are left (an editor's: the end); -1 with *@why for a
 * tab, a carriage return or an empty line.  Of a distribution's file and
 * of a history's (history.c).
 */
int text_line(const char *buf, size_t len, size_t *off, char *line,
	      size_t *l, const char **why)
{
	const char *nl = memchr(buf + *off, '\n', len - *off);

	*l = nl ? (size_t)(nl - (buf + *off)) : len - *off;
	memcpy(line, buf + *off, *l);
	line[*l] = '\0';
	*off += *l + 1;
	if (memchr(line, '\r', *l) || memchr(line, '\t', *l)) {
		*why = "tab or carriage return: the format uses single spaces and \\n";
		return -1;
	}
	if (!*l && trailing_blank(buf, *off, len))
		return 0;
	if (!*l) {
		*why = "empty line";
		return -1;
	}
	return 1;
}

struct pstate {
	unsigned int tags;
	int in_rows;
	int in_outliers;
	size_t hdrlen;
};

/*
 * "# outliers slow V keep M kept K dropped D stack N [stack_at end]" or
 * "# outliers top K kept K stack N [dropped D]": after the rows, once;
 * kept verbatim, its "kept" checked against the lines that follow.
 */
static int outliers_line(struct parser *p, const char *raw, size_t l,
			 char *line)
{
	struct snapshot *s = p->s;
	char *tok[MAX_TOKENS];
	int n = tokenize(line, tok), i;
	u64 v;

	if (n < 0 || n < 4 || (strcmp(tok[2], "slow") && strcmp(tok[2], "top")))
		return reject(p, "'# outliers' must be '# outliers slow V ...' or '# outliers top K ...'");
	if (s->outliers_line[0])
		return reject(p, "a second '# outliers' line");
	if (n % 2)
		return reject(p, "'# outliers' fields must be KEY VALUE pairs");
	for (i = 2; i + 1 < n; i += 2) {
		if (!strcmp(tok[i], "stack_at"))
			continue;
		if (parse_u64(tok[i + 1], &v))
			return reject(p, "'# outliers' %s '%s' is not an unsigned integer",
				      tok[i], tok[i + 1]);
		if (!strcmp(tok[i], "kept"))
			p->outliers_kept = v;
	}
	if (l >= sizeof(s->outliers_line))
		return reject(p, "'# outliers' line longer than %zu bytes",
			      sizeof(s->outliers_line) - 1);
	memcpy(s->outliers_line, raw, l);
	s->outliers_line[l] = '\0';
	return 0;
}

/* The next space-separated word of *@t, NUL-terminated; NULL at the end. */
static char *next_word(char **t)
{
	char *w = *t, *sp;

	if (!w || !*w)
		return NULL;
	sp = strchr(w, ' ');
	if (sp) {
		*sp = '\0';
		*t = sp + 1;
	} else {
		*t = NULL;
	}
	return w;
}

/*
 * "why oncpu N runq N blocked N irq N vcsw N ivcsw N [preempted-by
 * COMM:PID] [blocked-in FUNC]" of an outlier line, after its "why";
 * *@w is left on the next word.
 */
static int outlier_why(struct parser *p, struct koutlier *o, char **t,
		       char **w)
{
	static const char *const keys[] = { "oncpu", "runq", "blocked", "irq",
					    "vcsw", "ivcsw" };
	u64 *vals[] = { &o->oncpu, &o->runq, &o->blocked, &o->irq, &o->vcsw,
			&o->ivcsw };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		*w = next_word(t);
		if (!*w || strcmp(*w, keys[i]))
			return reject(p, "outlier line: why: '%s' expected", keys[i]);
		*w = next_word(t);
		if (!*w || parse_u64(*w, vals[i]))
			return reject(p, "outlier line: why %s '%s' is not a number",
				      keys[i], *w ? *w : "");
	}
	o->has_why = 1;
	*w = next_word(t);
	if (*w && !strcmp(*w, "preempted-by")) {
		*w = next_word(t);
		if (!*w || !(o->preempted_by = dup_text(*w)))
			return reject(p, "outlier line: preempted-by without a task");
		*w = next_word(t);
	}
	if (*w && !strcmp(*w, "blocked-in")) {
		*w = next_word(t);
		if (!*w || !(o->blocked_in = dup_text(*w)))
			return reject(p, "outlier line: blocked-in without a function");
		*w = next_word(t);
	}
	return 0;
}

/*
 * "outlier VALUE time T cpu C pid P tid T comm NAME [key KEY] [why ...]
 * [stack F1;...;FN]": the frames are the rest of the line (a module's
 * frame has a space: "sym+0x1a [mod]").
 */
static int outlier_row(struct parser *p, char *line)
{
	static const char *const keys[] = { "time", "cpu", "pid", "tid", "comm" };
	struct snapshot *s = p->s;
	struct koutlier *o;
	char *t = line + strlen("outlier "), *w, *frames = NULL;
	long long x;
	u64 v;
	size_t i;

	s->outliers = grow(s->outliers, &p->cap_outliers, s->noutliers,
			   sizeof(*s->outliers));
	if (!s->outliers)
		return reject(p, "out of memory");
	o = &s->outliers[s->noutliers];
	memset(o, 0, sizeof(*o));
	w = next_word(&t);
	if (!w || parse_s64(w, &o->value))
		return reject(p, "outlier value '%s' is not an integer", w ? w : "");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		w = next_word(&t);
		if (!w || strcmp(w, keys[i]))
			return reject(p, "outlier line: '%s' expected", keys[i]);
		w = next_word(&t);
		if (!w)
			return reject(p, "outlier line: %s without a value", keys[i]);
		if (i == 4) {
			snprintf(o->comm, sizeof(o->comm), "%s", w);
			continue;
		}
		if (i == 0 ? parse_u64(w, &o->time) :
		    i == 1 ? parse_u64(w, &v) || v >= MAX_CPUS :
		    parse_s64(w, &x) || x < 0 || x > 0x7fffffff)
			return reject(p, "outlier %s '%s' is not valid", keys[i], w);
		if (i == 1)
			o->cpu = (u32)v;
		else if (i == 2)
			o->pid = (int)x;
		else if (i == 3)
			o->tid = (int)x;
	}
	w = next_word(&t);
	if (w && !strcmp(w, "key")) {
		w = next_word(&t);
		if (!w)
			return reject(p, "outlier line: key without a value");
		o->key = dup_text(w);
		if (!o->key)
			return reject(p, "out of memory");
		w = next_word(&t);
	}
	if (w && !strcmp(w, "why")) {
		/* counted first: what it holds is freed with the snapshot */
		s->noutliers++;
		if (outlier_why(p, o, &t, &w))
			return -1;
		s->noutliers--;
	}
	if (w && !strcmp(w, "stack")) {
		frames = t;
		w = NULL;
		if (!frames || !*frames)
			return reject(p, "outlier line: stack without frames");
	}
	if (w)
		return reject(p, "outlier line: unexpected '%s'", w);
	s->noutliers++;
	while (frames && *frames) {
		char *semi = strchr(frames, ';');
		char **fr;

		if (semi)
			*semi = '\0';
		if (!*frames)
			return reject(p, "outlier line: an empty frame");
		fr = realloc(o->frames, (o->nframes + 1) * sizeof(*fr));
		if (!fr)
			return reject(p, "out of memory");
		o->frames = fr;
		o->frames[o->nframes] = malloc(strlen(frames) + 1);
		if (!o->frames[o->nframes])
			return reject(p, "out of memory");
		strcpy(o->frames[o->nframes++], frames);
		frames = semi ? semi + 1 : NULL;
	}
	return 0;
}

/* One line of @l bytes (@raw, and @line: a copy to cut into fields). */
static int parse_line(struct parser *p, char *line, const char *raw,
		      size_t l, struct rowstate *rs, struct pstate *st)
{
	struct snapshot *s = p->s;
	char *tok[MAX_TOKENS];
	int n;

	/* A trace node's outliers: after the rows, to the end. */
	if (!strncmp(line, "# outliers ", 11)) {
		if (!(st->tags & TAG_SUMMARY)) {
			reject(p, "'# outliers' before the '# summary' line");
			return -1;
		}
		st->in_outliers = 1;
		return outliers_line(p, raw, l, line) ? -1 : 0;
	}
	if (st->in_outliers) {
		if (strncmp(line, "outlier ", 8)) {
			reject(p, "only outlier lines may follow '# outliers'");
			return -1;
		}
		return outlier_row(p, line) ? -1 : 0;
	}
	n = tokenize(line, tok);
	if (n < 0) {
		reject(p, "fields must be separated by single spaces (at most %d)",
		       MAX_TOKENS);
		return -1;
	}
	if (!strcmp(tok[0], "#")) {
		if (st->in_rows) {
			reject(p, "header line after the slot rows");
			return -1;
		}
		if (p->line == 1 ? first_line(p, tok, n) :
		    tag_line(p, tok, n, &st->tags))
			return -1;
		memcpy(s->header + st->hdrlen, raw, l);
		st->hdrlen += l;
		s->header[st->hdrlen++] = '\n';
		return 0;
	}
	if (p->line == 1) {
		reject(p, "first line must be the '# name ...' header: not a kstats distribution");
		return -1;
	}
	if (!(st->tags & TAG_SUMMARY)) {
		if (!strcmp(tok[0], "key"))
			reject(p, "key block before the '# summary' line");
		else
			reject(p, "%s row before the '# summary' line",
			       strcmp(tok[0], "errno") ? "slot" : "errno");
		return -1;
	}
	st->in_rows = 1;
	if (!strcmp(tok[0], "key"))
		return key_line(p, tok, n, rs) ? -1 : 0;
	if (!strcmp(tok[0], "errno")) {
		return errno_row(p, tok, n, rs) ? -1 : 0;
	}
	if (s->nerrnos) {
		reject(p, "slot row after the errno rows");
		return -1;
	}
	return slot_row(p, tok, n, rs) ? -1 : 0;
}

int snapshot_parse(struct snapshot *s, const char *buf, size_t len,
		   const char *source, char *err, size_t errlen)
{
	struct parser p = { .s = s, .source = source, .err = err,
			    .errlen = errlen };
	struct rowstate rs = { .last_slot = -1, .cpu_slot = -1,
			       .last_cpu = -1 };
	struct pstate st = { 0 };
	size_t off = 0;
	char *line = NULL;

	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "%s", source);
	if (len == 0)
		return reject(&p, "empty: not a kstats distribution");
	if (memchr(buf, '\0', len))
		return reject(&p, "contains a NUL byte: not a kstats distribution");
	s->header = calloc(1, len + 2);	/* + '\n' after an unended line */
	line = malloc(len + 1);
	if (!s->header || !line)
		goto oom;
	while (off < len) {
		const char *why;
		size_t l;
		int r;

		p.line++;
		r = text_line(buf, len, &off, line, &l, &why);
		if (!r)
			break;
		if (r < 0) {
			reject(&p, "%s", why);
			goto bad;
		}
		if (parse_line(&p, line, buf + off - l - 1, l, &rs, &st))
			goto bad;
	}
	if (!(st.tags & TAG_SUMMARY)) {
		reject(&p, "no '# summary' line");
		goto bad;
	}
	if (rs.cpu_slot >= 0) {
		reject(&p, "CPU rows of slot %lld not followed by its CPUS row",
		       rs.cpu_slot);
		goto bad;
	}
	if (family_whole(&p, &rs) || check_whole(&p))
		goto bad;
	if (st.in_outliers && s->noutliers != p.outliers_kept) {
		reject(&p, "'# outliers' says kept %llu, %zu outlier lines follow",
		       (unsigned long long)p.outliers_kept, s->noutliers);
		goto bad;
	}
	free(line);
	return 0;
oom:
	reject(&p, "out of memory");
bad:
	free(line);
	snapshot_free(s);
	return -1;
}

/*
 * The whole of file @path (at most MAX_FILE bytes) into a new *@buf of
 * *@len bytes: 0, or -errno with @err saying why (-EFBIG: too large, or
 * out of memory).  A debugfs file's size is 0: it is read to its end.
 */
int read_whole(const char *path, char **out, size_t *outlen, char *err,
	       size_t errlen)
{
	size_t len = 0, cap = 65536;
	char *buf;
	int fd, e;

	*out = NULL;
	*outlen = 0;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	buf = malloc(cap);
	while (buf) {
		ssize_t r;

		if (len == cap) {
			char *nb = cap >= MAX_FILE ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			free(buf);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf) {
		snprintf(err, errlen, "%s: larger than %u MiB or out of memory",
			 path, MAX_FILE >> 20);
		return -EFBIG;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int snapshot_load(struct snapshot *s, const char *path, char *err,
		  size_t errlen)
{
	size_t len;
	char *buf;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = read_whole(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = snapshot_parse(s, buf, len, path, err, errlen);
	free(buf);
	return ret ? -EINVAL : 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->header);
	free(s->slots);
	free(s->rows);
	free(s->errnos);
	for (size_t i = 0; i < s->nkeys; i++) {
		free(s->keys[i].slots);
		free(s->keys[i].text);
		free(s->keys[i].raw);
	}
	free(s->keys);
	for (size_t i = 0; i < s->noutliers; i++) {
		free(s->outliers[i].key);
		free(s->outliers[i].preempted_by);
		free(s->outliers[i].blocked_in);
		for (size_t j = 0; j < s->outliers[i].nframes; j++)
			free(s->outliers[i].frames[j]);
		free(s->outliers[i].frames);
	}
	free(s->outliers);
	s->outliers = NULL;
	s->noutliers = 0;
	s->keys = NULL;
	s->nkeys = 0;
	s->header = NULL;
	s->slots = NULL;
	s->rows = NULL;
	s->errnos = NULL;
	s->nslots = s->nrows = s->nerrnos = 0;
}
