// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - a node's values in words, for the human output: the header
 * lines name each value of the kernel's terms as the source names it,
 * from the running kernel's BTF ("# family by arg0+1268:s4" of a section
 * starting at sched_wakeup is "# family by p->tgid"), checked by
 * translating the name back (btf_describe()), or say what it is where
 * no BTF names it ("the s32 at +1268 from argument 0").  The JSON and the
 * files keep the kernel's terms.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "kstats_tool.h"

/* The BTF opened for a target, kept for the process (a few targets). */
#define NAMED_MAX	8
static struct {
	char target[96];
	struct kbtf *k;
} named[NAMED_MAX];
static int nnamed;

static struct kbtf *btf_of(const char *target)
{
	char err[256];

	for (int i = 0; i < nnamed; i++)
		if (!strcmp(named[i].target, target))
			return named[i].k;
	if (nnamed == NAMED_MAX || strlen(target) >= sizeof(named[0].target))
		return NULL;
	snprintf(named[nnamed].target, sizeof(named[0].target), "%s", target);
	named[nnamed].k = kbtf_open(target, err, sizeof(err));
	return named[nnamed++].k;
}

/* "u32", "s8", "u64": a read's size and sign, as C types say it. */
static const char *read_type(const char *p, const char **end)
{
	static const char *const u[] = { "", "u8", "u16", "", "u32", "", "", "", "u64" };
	static const char *const s[] = { "", "s8", "s16", "", "s32" };
	int sign = *p == 's';

	*end = p + sign + 1;
	return sign ? s[p[1] - '0'] : u[p[0] - '0'];
}

/*
 * @v (valid_value()) said in words: "argument 2", "the return value
 * (s32)", "the u64 at +80 from the pointer at +32 from argument 0".
 */
static void words(const char *v, char *out, size_t len)
{
	char base[512] = "", step[512 + 64];
	const char *p, *end;
	int n;

	if (!strncmp(v, "ret", 3)) {
		snprintf(base, sizeof(base), "the return value");
		p = v + 3;
	} else {
		n = (int)strspn(v + 3, "0123456789");
		snprintf(base, sizeof(base), "argument %.*s", n, v + 3);
		p = v + 3 + n;
	}
	if (*p == ':') {
		const char *t = read_type(p + 1, &end);

		snprintf(step, sizeof(step), "%s (%s)", base, t);
		memcpy(base, step, sizeof(base) - 1);
		p = end;
	}
	while (*p == '+' || *p == '-') {
		const char *colon = strchr(p, ':'), *t;

		if (!colon)
			break;
		t = read_type(colon + 1, &end);
		snprintf(step, sizeof(step), "the %s at %.*s from %s",
			 *end ? "pointer" : t, (int)(colon - p), p, base);
		memcpy(base, step, sizeof(base) - 1);
		p = end;
	}
	snprintf(out, len, "%s", base);
}

/* @v of the point @target named: from its BTF, else in words. */
static void name_value(const char *target, const char *v, char *out,
		       size_t len)
{
	struct kbtf *k = target && *target && !strpbrk(target, "*?[,") ?
			 btf_of(target) : NULL;
	int str = !strncmp(v, "str:", 4);

	if (k && !kbtf_describe(k, v + 4 * str, out, len))
		return;
	if (str) {
		char w[400];

		words(v + 4, w, sizeof(w));
		snprintf(out, len, "the string at %s", w);
		return;
	}
	words(v, out, len);
}

/* The tokens of a line: single spaces between them. */
static int split(char *line, char **tok, int max)
{
	int n = 0;

	for (char *t = strtok(line, " "); t && n < max; t = strtok(NULL, " "))
		tok[n++] = t;
	return n;
}

/* A node's points: its target, or a section's start and end. */
struct points {
	char target[128], start[128], end[128];
};

static void find_points(const char *header, struct points *pt)
{
	const char *src = strstr(header, "# source ");
	char line[512], *tok[32];
	int n;

	memset(pt, 0, sizeof(*pt));
	if (!src)
		return;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(src, "\n"), src);
	n = split(line, tok, 32);
	for (int i = 2; i + 1 < n; i++) {
		if (!strcmp(tok[i], "target"))
			snprintf(pt->target, sizeof(pt->target), "%s", tok[i + 1]);
		else if (!strcmp(tok[i], "start"))
			snprintf(pt->start, sizeof(pt->start), "%s", tok[i + 1]);
		else if (!strcmp(tok[i], "end"))
			snprintf(pt->end, sizeof(pt->end), "%s", tok[i + 1]);
	}
}

/* Whether @t is a value of the kernel's terms: V, or str:V. */
static int is_value(const char *t)
{
	return valid_value(t) || (!strncmp(t, "str:", 4) && valid_value(t + 4));
}

/*
 * One header line with its values named.  The point a value is read at:
 * the node's target, or for a section the point the words "start",
 * "end" (or "# also start POINT") last named.
 */
static void name_line(FILE *f, const char *l, size_t len,
		      const struct points *pt)
{
	char *line = malloc(len + 1), *tok[128], buf[512];
	const char *point = *pt->target ? pt->target : pt->start;
	int n, also;

	if (!line)
		return;
	memcpy(line, l, len);
	line[len] = '\0';
	n = split(line, tok, 128);
	if (n < 2 || n == 128 ||
	    (strcmp(tok[1], "value") && strcmp(tok[1], "filter") &&
	     strcmp(tok[1], "family") && strcmp(tok[1], "key") &&
	     strcmp(tok[1], "match") && strcmp(tok[1], "also"))) {
		memcpy(line, l, len);	/* as it is: split cut it */
		safe_text(f, line);
		free(line);
		return;
	}
	also = n > 3 && !strcmp(tok[1], "also") && !strcmp(tok[2], "start");
	for (int i = 0; i < n; i++) {
		const char *w = tok[i];

		if (also && i == 3)
			point = tok[i];
		else if (!strcmp(w, "start") && !also && *pt->start)
			point = pt->start;
		else if (!strcmp(w, "end") && *pt->end)
			point = pt->end;
		if (i > 1 && is_value(w)) {
			name_value(point, w, buf, sizeof(buf));
			w = buf;
		}
		if (i)
			fputc(' ', f);
		safe_text(f, w);
	}
	free(line);
}

/**
 * print_header() - a node's header lines, its values named
 * @f: where
 * @snap: the node
 */
void print_header(FILE *f, const struct snapshot *snap)
{
	const char *l = snap->header;
	struct points pt;

	find_points(snap->header, &pt);
	while (*l) {
		size_t n = strcspn(l, "\n");

		name_line(f, l, n, &pt);
		fputc('\n', f);
		l += n + (l[n] == '\n');
	}
}

/**
 * family_by() - what a family is split by, named as in print_header()
 * @snap: the family
 * @buf: where the name goes
 * @len: its size
 *
 * Return: @buf.
 */
const char *family_by(const struct snapshot *snap, char *buf, size_t len)
{
	struct points pt;

	if (!is_value(snap->family.by)) {
		snprintf(buf, len, "%s", snap->family.by);
		return buf;
	}
	find_points(snap->header, &pt);
	name_value(*pt.target ? pt.target : pt.start, snap->family.by, buf, len);
	return buf;
}
