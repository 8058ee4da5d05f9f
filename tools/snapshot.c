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

#include "kstats_tool.h"

#define MAX_FILE	(64u << 20)
#define MAX_TOKENS	64
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
};

static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->line)
		snprintf(p->err, p->errlen, "%s:%u: %s", p->source, p->line,
			 msg);
	else
		snprintf(p->err, p->errlen, "%s: %s", p->source, msg);
	return -1;
}

static int parse_u64(const char *t, u64 *v)
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

int valid_name(const char *name)
{
	size_t i, n = strlen(name);

	if (n < 1 || n > 63 || name[0] == '.' || !strcmp(name, "_control"))
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

/* Split at single spaces; an empty token (double space, edge space) fails. */
static int tokenize(char *line, char **tok)
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
		return fail(p, "first line must be '# name NAME clock ...' (key value pairs)");
	for (int i = 1; i < n; i += 2) {
		const char *k = tok[i], *val = tok[i + 1];
		unsigned int idx;

		for (idx = 0; idx < NR_FIRST_KEYS; idx++)
			if (!strcmp(k, first_keys[idx]))
				break;
		if (idx == NR_FIRST_KEYS)
			continue;	/* unknown keys are ignored */
		if (seen & (1u << idx))
			return fail(p, "key '%s' given twice", k);
		seen |= 1u << idx;
		switch (idx) {
		case 0:
			if (!valid_name(val))
				return fail(p, "invalid name '%.64s'", val);
			strcpy(s->name, val);
			break;
		case 1:
			if (strcmp(val, "ktime") && strcmp(val, "local") &&
			    strcmp(val, "tsc") && strcmp(val, "none"))
				return fail(p, "unknown clock '%.16s' (ktime, local, tsc or none)", val);
			strcpy(s->clock, val);
			break;
		case 2:
			if (strcmp(val, "ns") && strcmp(val, "cycles") &&
			    strcmp(val, "value"))
				return fail(p, "unknown unit '%.16s' (ns, cycles or value)", val);
			strcpy(s->unit, val);
			break;
		case 4:
			if (strcmp(val, "active") && strcmp(val, "stopped"))
				return fail(p, "unknown state '%.16s' (active or stopped)", val);
			strcpy(s->state, val);
			break;
		default:
			if (parse_u64(val, &v))
				return fail(p, "%s '%.24s' is not an unsigned integer", k, val);
			if (idx == 3) {
				if (v > KSTATS_MAX_FRAC_BITS)
					return fail(p, "frac_bits %llu out of range 0..%d",
						    (unsigned long long)v, KSTATS_MAX_FRAC_BITS);
				s->frac_bits = (unsigned int)v;
			} else if (idx == 5) {
				if (v < 1 || v > MAX_CPUS)
					return fail(p, "cpus %llu out of range 1..%u",
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
			return fail(p, "first line lacks key '%s'", first_keys[idx]);
	{
		const char *want = !strcmp(s->clock, "tsc") ? "cycles" :
				   !strcmp(s->clock, "none") ? "value" : "ns";

		if (strcmp(s->unit, want))
			return fail(p, "unit %s does not go with clock %s (expected %s)",
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
				return fail(p, "%s '%.24s' is not an unsigned integer",
					    key, tok[i + 1]);
			return 0;
		}
	return fail(p, "'# %s' line lacks key '%s'", tok[1], key);
}

static const char *const summary_keys[] = {
	"samples", "min", "p50", "p90", "p99", "p99.9", "max", "mean",
};

static int tag_line(struct parser *p, char **tok, int n, unsigned int *tags)
{
	struct snapshot *s = p->s;

	if (n < 2 || strcmp(tok[0], "#"))
		return fail(p, "header line must start with '# '");
	if (n % 2)
		return fail(p, "'# %.32s' line: key without a value", tok[1]);
	if (!strcmp(tok[1], "summary")) {
		u64 *f = &s->summary.samples;

		if (*tags & 1)
			return fail(p, "second '# summary' line");
		*tags |= 1;
		p->summary_line = p->line;
		if (n < 18)
			return fail(p, "'# summary' line must have samples min p50 p90 p99 p99.9 max mean");
		for (int i = 0; i < 8; i++) {
			if (strcmp(tok[2 + 2 * i], summary_keys[i]))
				return fail(p, "'# summary' field %d must be '%s', not '%.16s'",
					    i + 1, summary_keys[i], tok[2 + 2 * i]);
			if (parse_u64(tok[3 + 2 * i], &f[i]))
				return fail(p, "summary %s '%.24s' is not an unsigned integer",
					    summary_keys[i], tok[3 + 2 * i]);
		}
	} else if (!strcmp(tok[1], "clock")) {
		if (*tags & 2)
			return fail(p, "second '# clock' line");
		*tags |= 2;
		if (strcmp(s->clock, "tsc"))
			return fail(p, "'# clock tsc_khz' is only for clock tsc");
		if (tag_value(p, tok, n, "tsc_khz", &s->tsc_khz))
			return -1;
		if (!s->tsc_khz)
			return fail(p, "tsc_khz must not be 0");
		s->has_tsc_khz = 1;
	} else if (!strcmp(tok[1], "range")) {
		if (*tags & 4)
			return fail(p, "second '# range' line");
		*tags |= 4;
		if (tag_value(p, tok, n, "max_value", &s->max_value) ||
		    tag_value(p, tok, n, "overflow", &s->overflow))
			return -1;
		if (s->max_value == U64_MAX_VAL)
			return fail(p, "range max_value must be below 2^64-1");
		s->has_range = 1;
		p->range_line = p->line;
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

struct rowstate {
	long long last_slot;	/* last CPUS row's slot, -1 before any */
	long long cpu_slot;	/* slot of pending CPU rows, -1 if none */
	long long last_cpu;
	u64 cpu_sum;
	u64 total;
};

static int slot_row(struct parser *p, char **tok, int n, struct rowstate *rs)
{
	struct snapshot *s = p->s;
	u64 slot, who, count, avg, lo, hi, elo, ehi;
	u32 ppm;
	int all;

	if (n != 14 || strcmp(tok[0], "slot") || strcmp(tok[4], "count") ||
	    strcmp(tok[6], "avg") || strcmp(tok[8], "p") ||
	    strcmp(tok[10], "lo") || strcmp(tok[12], "hi"))
		return fail(p, "slot row must be 'slot S CPU C|CPUS N count X avg X p P lo X hi X'");
	if (!strcmp(tok[2], "CPUS"))
		all = 1;
	else if (!strcmp(tok[2], "CPU"))
		all = 0;
	else
		return fail(p, "expected CPU or CPUS, not '%.16s'", tok[2]);
	if (parse_u64(tok[1], &slot) || parse_u64(tok[3], &who) ||
	    parse_u64(tok[5], &count) || parse_u64(tok[7], &avg) ||
	    parse_u64(tok[11], &lo) || parse_u64(tok[13], &hi))
		return fail(p, "slot row field is not an unsigned integer");
	if (parse_ppm(tok[9], &ppm))
		return fail(p, "p '%.16s' must be a fraction 0..1 with six decimals", tok[9]);
	if (slot >= kstats_nr_slots(s->frac_bits))
		return fail(p, "slot %llu out of range for frac_bits %u (below %u)",
			    (unsigned long long)slot, s->frac_bits,
			    kstats_nr_slots(s->frac_bits));
	elo = kstats_slot_lo((u32)slot, s->frac_bits);
	ehi = kstats_slot_hi((u32)slot, s->frac_bits);
	if (s->has_range && lo == s->max_value + 1 && hi == U64_MAX_VAL &&
	    slot > kstats_slot(s->max_value, s->frac_bits)) {
		elo = lo;	/* the overflow slot of a restricted range: */
		ehi = hi;	/* kept right above the slot of max_value */
		slot = kstats_slot(s->max_value, s->frac_bits) + 1;
	}
	if (lo != elo || hi != ehi)
		return fail(p, "slot %llu bounds lo %llu hi %llu, expected lo %llu hi %llu",
			    (unsigned long long)slot, (unsigned long long)lo,
			    (unsigned long long)hi, (unsigned long long)elo,
			    (unsigned long long)ehi);
	if (!count)
		return fail(p, "count 0: only non-empty slots are printed");
	if (avg < lo || avg > hi)
		return fail(p, "avg %llu outside the slot [%llu, %llu]",
			    (unsigned long long)avg, (unsigned long long)lo,
			    (unsigned long long)hi);
	if ((long long)slot <= rs->last_slot)
		return fail(p, "slot %llu not in increasing slot order",
			    (unsigned long long)slot);
	if (!all) {
		/* CPU ids are possible CPUs: below cpus unless there are holes */
		if (who >= MAX_CPUS)
			return fail(p, "CPU %llu not below %u",
				    (unsigned long long)who, MAX_CPUS);
		if (who >= s->ncpu_ids)
			s->ncpu_ids = (u32)who + 1;
		if (rs->cpu_slot >= 0 && rs->cpu_slot != (long long)slot)
			return fail(p, "CPU rows of slot %lld not followed by its CPUS row",
				    rs->cpu_slot);
		if (rs->cpu_slot == (long long)slot &&
		    (long long)who <= rs->last_cpu)
			return fail(p, "CPU %llu not in increasing CPU order",
				    (unsigned long long)who);
		if (count > U64_MAX_VAL - rs->cpu_sum)
			return fail(p, "counts overflow 64 bits");
		rs->cpu_slot = (long long)slot;
		rs->last_cpu = (long long)who;
		rs->cpu_sum += count;
		s->rows = grow(s->rows, &p->cap_rows, s->nrows, sizeof(*s->rows));
		if (!s->rows)
			return fail(p, "out of memory");
		s->rows[s->nrows++] = (struct kcpurow){
			.slot = (u32)slot, .cpu = (u32)who, .count = count,
			.avg = avg, .ppm = ppm, .line = p->line };
		return 0;
	}
	if (who != s->cpus)
		return fail(p, "CPUS %llu differs from header cpus %u",
			    (unsigned long long)who, s->cpus);
	if (rs->cpu_slot != (long long)slot)
		return fail(p, "CPUS row of slot %llu without CPU rows",
			    (unsigned long long)slot);
	if (rs->cpu_sum != count)
		return fail(p, "CPUS count %llu is not the sum of the CPU rows (%llu)",
			    (unsigned long long)count,
			    (unsigned long long)rs->cpu_sum);
	if (count > U64_MAX_VAL - rs->total)
		return fail(p, "counts overflow 64 bits");
	rs->total += count;
	rs->last_slot = (long long)slot;
	rs->cpu_slot = -1;
	rs->last_cpu = -1;
	rs->cpu_sum = 0;
	s->slots = grow(s->slots, &p->cap_slots, s->nslots, sizeof(*s->slots));
	if (!s->slots)
		return fail(p, "out of memory");
	s->slots[s->nslots++] = (struct kslot){
		.slot = (u32)slot, .lo = lo, .hi = hi, .count = count,
		.avg = avg, .ppm = ppm, .line = p->line };
	return 0;
}

/* The printed p must be kstats_ppm(cum, total), as the module prints it. */
static int ppm_ok(u64 cum, u64 total, u32 ppm)
{
	return ppm == kstats_ppm(cum, total);
}

static int check_whole(struct parser *p)
{
	struct snapshot *s = p->s;
	struct ksummary got;
	u64 cum = 0, *cpu_tot, *cpu_cum, lhi, llo, uhi, ulo;

	size_t i;

	p->line = 1;
	if (s->nslots == 0 && s->samples != 0)
		return fail(p, "header says samples %llu but there are no slot rows",
			    (unsigned long long)s->samples);
	for (i = 0; i < s->nslots; i++) {
		cum += s->slots[i].count;
		p->line = s->slots[i].line;
		if (!ppm_ok(cum, s->samples, s->slots[i].ppm))
			return fail(p, "slot %u: p %u.%06u is not the cumulative fraction",
				    s->slots[i].slot, s->slots[i].ppm / 1000000,
				    s->slots[i].ppm % 1000000);
	}
	p->line = 1;
	if (cum != s->samples)
		return fail(p, "header samples %llu but the slot rows add up to %llu",
			    (unsigned long long)s->samples,
			    (unsigned long long)cum);
	if (s->has_range) {
		u64 over = s->nslots && s->slots[s->nslots - 1].hi == U64_MAX_VAL ?
			   s->slots[s->nslots - 1].count : 0;

		p->line = p->range_line;
		if (s->overflow != over)
			return fail(p, "range overflow %llu but the overflow slot counts %llu",
				    (unsigned long long)s->overflow,
				    (unsigned long long)over);
	}
	cpu_tot = calloc(s->ncpu_ids + 1, sizeof(u64));
	cpu_cum = calloc(s->ncpu_ids + 1, sizeof(u64));
	if (!cpu_tot || !cpu_cum) {
		free(cpu_tot);
		free(cpu_cum);
		return fail(p, "out of memory");
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
		return fail(p, "slot %u CPU %u: p is not that CPU's cumulative fraction",
			    s->rows[i].slot, s->rows[i].cpu);
	}

	/* The summary must be what the slot rows say (format.rst). */
	hist_summary(s->slots, s->nslots, &got);
	p->line = p->summary_line;
	if (s->summary.samples != s->samples)
		return fail(p, "summary samples %llu differs from header samples %llu",
			    (unsigned long long)s->summary.samples,
			    (unsigned long long)s->samples);
	for (i = 1; i < 7; i++) {
		const u64 *a = &s->summary.samples, *b = &got.samples;

		if (a[i] != b[i])
			return fail(p, "summary %s %llu disagrees with the slot rows (%llu)",
				    summary_keys[i], (unsigned long long)a[i],
				    (unsigned long long)b[i]);
	}
	/* The exact mean lies between the slot averages and averages + 1. */
	hist_sum128(s->slots, s->nslots, &lhi, &llo);
	ulo = llo + (s->samples - s->nslots);
	uhi = lhi + (ulo < llo);
	if (s->samples &&
	    (s->summary.mean < kstats_div128(lhi, llo, s->samples) ||
	     s->summary.mean > kstats_div128(uhi, ulo, s->samples)))
		return fail(p, "summary mean %llu is impossible for the slot averages (%llu..%llu)",
			    (unsigned long long)s->summary.mean,
			    (unsigned long long)kstats_div128(lhi, llo, s->samples),
			    (unsigned long long)kstats_div128(uhi, ulo, s->samples));
	if (!s->samples && s->summary.mean)
		return fail(p, "summary mean must be 0 with no samples");
	return 0;
}

int snapshot_parse(struct snapshot *s, const char *buf, size_t len,
		   const char *source, char *err, size_t errlen)
{
	struct parser p = { .s = s, .source = source, .err = err,
			    .errlen = errlen };
	struct rowstate rs = { .last_slot = -1, .cpu_slot = -1,
			       .last_cpu = -1 };
	size_t off = 0, hdrlen = 0;
	unsigned int tags = 0;
	int in_rows = 0;
	char *line = NULL;

	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "%s", source);
	if (len == 0)
		return fail(&p, "empty: not a kstats distribution");
	if (memchr(buf, '\0', len))
		return fail(&p, "contains a NUL byte: not a kstats distribution");
	s->header = calloc(1, len + 2);	/* + '\n' after an unended line */
	line = malloc(len + 1);
	if (!s->header || !line)
		goto oom;
	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (buf + off)) : len - off;
		char *tok[MAX_TOKENS];
		int n;

		p.line++;
		memcpy(line, buf + off, l);
		line[l] = '\0';
		off += l + 1;
		if (memchr(line, '\r', l) || memchr(line, '\t', l)) {
			fail(&p, "tab or carriage return: the format uses single spaces and \\n");
			goto bad;
		}
		if (l == 0) {
			fail(&p, "empty line");
			goto bad;
		}
		n = tokenize(line, tok);
		if (n < 0) {
			fail(&p, "fields must be separated by single spaces (at most %d)",
			     MAX_TOKENS);
			goto bad;
		}
		if (!strcmp(tok[0], "#")) {
			if (in_rows) {
				fail(&p, "header line after the slot rows");
				goto bad;
			}
			if (p.line == 1 ? first_line(&p, tok, n) :
			    tag_line(&p, tok, n, &tags))
				goto bad;
			memcpy(s->header + hdrlen, buf + off - l - 1, l);
			hdrlen += l;
			s->header[hdrlen++] = '\n';
			continue;
		}
		if (p.line == 1) {
			fail(&p, "first line must be the '# name ...' header: not a kstats distribution");
			goto bad;
		}
		if (!(tags & 1)) {
			fail(&p, "slot row before the '# summary' line");
			goto bad;
		}
		in_rows = 1;
		if (slot_row(&p, tok, n, &rs))
			goto bad;
	}
	if (!(tags & 1)) {
		fail(&p, "no '# summary' line");
		goto bad;
	}
	if (rs.cpu_slot >= 0) {
		fail(&p, "CPU rows of slot %lld not followed by its CPUS row",
		     rs.cpu_slot);
		goto bad;
	}
	if (check_whole(&p))
		goto bad;
	free(line);
	return 0;
oom:
	fail(&p, "out of memory");
bad:
	free(line);
	snapshot_free(s);
	return -1;
}

int snapshot_load(struct snapshot *s, const char *path, char *err,
		  size_t errlen)
{
	size_t len = 0, cap = 65536;
	char *buf;
	int fd, ret, e;

	memset(s, 0, sizeof(*s));
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
	ret = snapshot_parse(s, buf, len, path, err, errlen);
	free(buf);
	return ret ? -EINVAL : 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->header);
	free(s->slots);
	free(s->rows);
	s->header = NULL;
	s->slots = NULL;
	s->rows = NULL;
	s->nslots = s->nrows = 0;
}
