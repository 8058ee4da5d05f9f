// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - kstats timeline: the nodes' histories (ROOT/_history/NAME,
 * each a ring of slices of time, history.c reads one), as a table of the
 * slices on the terminal, or with -o FILE.html as one standalone page: a
 * heatmap a node (a column a slice, a row a slot of the histogram), with
 * the time its trigger fired, the time it was frozen and the node's
 * outliers marked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A node: its history, and its own file if readable (unit, outliers). */
struct tnode {
	struct history h;
	struct snapshot s;
	int has_snap;
	const char *unit;
};

/*
 * NAME or FILE: a path with a '/' is a saved history; otherwise
 * ROOT/_history/NAME if there is one, else a file of that name in this
 * directory.  @node: the node's own file, where there is one.
 */
static int resolve_history(const char *arg, char *path, size_t len,
			   char *node, size_t nlen)
{
	char dir[PATH_MAX];
	struct stat st;
	int ret;

	node[0] = '\0';
	if (strchr(arg, '/') || !valid_name(arg)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	snprintf(path, len, "%s/" HISTORY_DIR "/%s", root, arg);
	if (!stat(path, &st)) {
		snprintf(node, nlen, "%s/%s", root, arg);
		return 0;
	}
	if (!stat(arg, &st)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	ret = history_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(node, nlen, "%s/%s", root, arg);
	if (!stat(node, &st))
		return fail("%s keeps no history: no %s", arg, path);
	return fail("no history '%s' in %s and no file '%s': see 'ls %s'",
		    arg, dir, arg, dir);
}

/* A saved DIR/_history/NAME: its node is DIR/NAME, if it was saved too. */
static void node_beside(const char *path, const char *name, char *node,
			size_t nlen)
{
	const char *slash = strrchr(path, '/');
	size_t l = slash ? (size_t)(slash - path) : 0;
	size_t dl = strlen(HISTORY_DIR);

	if (l >= dl && !strncmp(slash - dl, HISTORY_DIR, dl) &&
	    (l == dl || slash[-(long)dl - 1] == '/'))
		snprintf(node, nlen, "%.*s/../%s", (int)l, path, name);
}

static int load_node(struct tnode *t, const char *path, char *node,
		     size_t nlen)
{
	char err[768];
	int r = history_load(&t->h, path, err, sizeof(err));

	if (r)
		return load_error(path, r, err);
	if (!node[0])
		node_beside(path, t->h.name, node, nlen);
	t->has_snap = node[0] && !snapshot_load(&t->s, node, err, sizeof(err));
	t->unit = t->has_snap ? t->s.unit : "ns";
	return 0;
}

static void free_nodes(struct tnode *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		history_free(&t[i].h);
		if (t[i].has_snap)
			snapshot_free(&t[i].s);
	}
	free(t);
}

/* Every NAME given, or every file of ROOT/_history; all read, or none. */
static int load_nodes(struct opts *o, struct tnode **out, size_t *nout)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], node[PATH_MAX + 256];
	char **names = NULL;
	size_t n = (size_t)o->nargs, nnames = 0;
	struct tnode *t;
	int ret = 0;

	if (!o->nargs) {
		ret = history_dir(dir, sizeof(dir));
		if (ret)
			return ret;
		names = dir_files(dir, &nnames);
		if (!names)
			return fail("%s: %s", dir, strerror(errno));
		if (!nnames) {
			free_names(names, nnames);
			return fail("no history in %s: no node keeps one", dir);
		}
		n = nnames;
	}
	t = calloc(n, sizeof(*t));
	if (!t) {
		free_names(names, nnames);
		return fail("out of memory");
	}
	for (size_t i = 0; i < n && !ret; i++) {
		if (names) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			snprintf(node, sizeof(node), "%s/%s", root, names[i]);
		} else {
			ret = resolve_history(o->args[i], path, sizeof(path),
					      node, sizeof(node));
			if (ret)
				break;
		}
		ret = load_node(&t[i], path, node, sizeof(node));
	}
	free_names(names, nnames);
	if (ret) {
		free_nodes(t, n);
		return ret;
	}
	*out = t;
	*nout = n;
	return 0;
}

/* --- what happened when: the trigger, the freeze ------------------------ */

struct tevent {
	u64 t;
	const char *mark;	/* "trigger", "frozen": in a row, the class of a line */
	char what[200];
};

/* The events of @h, oldest first (at most 2). */
static size_t events(const struct history *h, struct tevent *ev)
{
	size_t n = 0;

	if (h->has_trigger && h->trig_fired) {
		ev[n].t = h->trig_fired;
		ev[n].mark = "trigger";
		snprintf(ev[n++].what, sizeof(ev[0].what), "trigger %s fired",
			 h->trigger);
	}
	if (h->frozen) {
		ev[n].t = h->frozen_at;
		ev[n].mark = "frozen";
		snprintf(ev[n++].what, sizeof(ev[0].what), "frozen by %s",
			 h->reason);
	}
	if (n == 2 && ev[1].t < ev[0].t) {
		struct tevent e = ev[0];

		ev[0] = ev[1];
		ev[1] = e;
	}
	return n;
}

/* The time everything is said from: the first slice's start, or the first event. */
static u64 origin(const struct history *h, const struct tevent *ev, size_t nev)
{
	return h->n ? h->s[0].t : nev ? ev[0].t : 0;
}

/* t - t0 in seconds, "+1.200s", with the decimals a slice's length needs. */
static const char *offset(char *buf, size_t len, const struct history *h,
			  u64 t, u64 t0)
{
	unsigned int dec = h->slice_ns % 1000000 == 0 ? 3 :
			   h->slice_ns % 1000 == 0 ? 6 : 9;
	u64 d = t >= t0 ? t - t0 : t0 - t, div = 1;

	for (unsigned int i = dec; i < 9; i++)
		div *= 10;
	snprintf(buf, len, "%c%llu.%0*llus", t >= t0 ? '+' : '-',
		 (unsigned long long)(d / 1000000000ULL), (int)dec,
		 (unsigned long long)(d % 1000000000ULL / div));
	return buf;
}

/* The outliers of @t in [t0, t1). */
static size_t outliers_in(const struct tnode *t, u64 t0, u64 t1)
{
	size_t k = 0;

	for (size_t i = 0; t->has_snap && i < t->s.noutliers; i++)
		k += t->s.outliers[i].time >= t0 && t->s.outliers[i].time < t1;
	return k;
}

/*
 * What a node's history is: its slices, their length, the ring's, live or
 * frozen; then each of the unit, the freeze, the trigger and the losses
 * as @pre PART @post, its names written by @text (safe_text, xml_text).
 */
static void describe(FILE *f, const struct tnode *t, u64 t0, const char *pre,
		     const char *post, void (*text)(FILE *, const char *))
{
	const struct history *h = &t->h;
	char a[32], b[32];

	fprintf(f, "%zu slices of %s (a ring of %llu, %llu bytes), %s%sunit %s%s%s",
		h->n, fmt_value(a, sizeof(a), h->slice_ns, "ns"),
		(unsigned long long)h->slices, (unsigned long long)h->bytes,
		h->frozen ? "frozen" : "live", pre, t->unit,
		t->has_snap ? "" : " (assumed: no node file)", post);
	if (h->frozen) {
		fprintf(f, "%sfrozen at %s by ", pre,
			offset(a, sizeof(a), h, h->frozen_at, t0));
		text(f, h->reason);
		fputs(post, f);
	}
	if (h->has_trigger) {
		fprintf(f, "%strigger ", pre);
		text(f, h->trigger);
		fprintf(f, ": above %s for %s, ",
			fmt_value(a, sizeof(a), h->trig_above, t->unit),
			fmt_value(b, sizeof(b), h->trig_after, "ns"));
		if (h->trig_fired)
			fprintf(f, "fired at %s%s",
				offset(a, sizeof(a), h, h->trig_fired, t0), post);
		else
			fprintf(f, "armed, not fired%s", post);
	}
	if (h->has_lost)
		fprintf(f, "%slost %llu slices, %llu samples%s", pre,
			(unsigned long long)h->lost_slices,
			(unsigned long long)h->lost_samples, post);
}

static void text_head(FILE *f, const struct tnode *t, u64 t0)
{
	fprintf(f, "%s: ", t->h.name);
	describe(f, t, t0, "\n  ", "", safe_text);
	fputc('\n', f);
	if (t->h.n)
		fprintf(f, "  times from the first slice, at %llu ns (CLOCK_MONOTONIC)\n",
			(unsigned long long)t0);
}

static void text_event(FILE *f, const struct history *h,
		       const struct tevent *e, u64 t0)
{
	char a[32];

	fprintf(f, "%9s  ", offset(a, sizeof(a), h, e->t, t0));
	safe_text(f, e->what);
	fputc('\n', f);
}

/*
 * A row a slice: its time, samples, min, p50, p99, max, and what happened
 * in it; a pause (slices with no sample) a line, an event outside every
 * slice a line of its own, where it falls.
 */
static void text_node(FILE *f, const struct tnode *t)
{
	const struct history *h = &t->h;
	struct tevent ev[2];
	size_t nev = events(h, ev), e = 0, top = 0;
	u64 t0 = origin(h, ev, nev);
	char b[6][32];

	text_head(f, t, t0);
	if (!h->n) {
		fputs("  (no slice with a sample)\n", f);
		for (; e < nev; e++)
			text_event(f, h, &ev[e], t0);
		return;
	}
	fprintf(f, "%9s %8s %9s %9s %9s %9s\n", "time", "samples", "min",
		"p50", "p99", "max");
	for (size_t i = 0; i < h->n; i++) {
		const struct hslice *s = &h->s[i];
		u64 end = s->t + h->slice_ns;
		size_t k = outliers_in(t, s->t, end);
		const char *sep = "  <- ";

		if (i && s->t > h->s[i - 1].t + h->slice_ns) {
			u64 gap = s->t - h->s[i - 1].t - h->slice_ns;

			fprintf(f, "%9s (%llu empty slices, %s)\n", "...",
				(unsigned long long)(gap / h->slice_ns),
				fmt_value(b[0], sizeof(b[0]), gap, "ns"));
		}
		for (; e < nev && ev[e].t < s->t; e++)
			text_event(f, h, &ev[e], t0);
		fprintf(f, "%9s %8llu %9s %9s %9s %9s",
			offset(b[0], sizeof(b[0]), h, s->t, t0),
			(unsigned long long)s->samples,
			fmt_value(b[1], sizeof(b[1]), s->min, t->unit),
			fmt_value(b[2], sizeof(b[2]), s->p50, t->unit),
			fmt_value(b[3], sizeof(b[3]), s->p99, t->unit),
			fmt_value(b[4], sizeof(b[4]), s->max, t->unit));
		for (; e < nev && ev[e].t < end; e++, sep = ", ")
			fprintf(f, "%s%s", sep, ev[e].mark);
		if (k)
			fprintf(f, "%s%zu outlier%s", sep, k, k > 1 ? "s" : "");
		fputc('\n', f);
		if (s->p99 > h->s[top].p99)
			top = i;
	}
	for (; e < nev; e++)
		text_event(f, h, &ev[e], t0);
	fprintf(f, "  %llu samples; the highest p99 %s, at %s\n",
		(unsigned long long)h->samples,
		fmt_value(b[0], sizeof(b[0]), h->s[top].p99, t->unit),
		offset(b[1], sizeof(b[1]), h, h->s[top].t, t0));
}

/* --- the page ----------------------------------------------------------- */

#define PLOT_W		860.0	/* the columns' width, at most */
#define PLOT_H		360.0	/* the rows' height, at most */
#define LEFT		80
#define TOP		22
#define BOTTOM		40
#define RIGHT		110
#define GAP_KEEP	8	/* empty slices drawn as such; more: a pause */
#define GAP_W		18.0	/* a pause's width */

/* The time axis: spans of time [t0, t1) and where they are drawn. */
struct seg {
	u64 t0, t1;
	double x0, x1;
	int pause;
};

/* The value axis: a row a slot of frac_bits k, or a row a bucket's LO. */
struct yaxis {
	int by_lo;
	int node_k;	/* k is the node's own: a row's upper bound is known */
	unsigned int k;
	u32 lo_slot;
	u64 *los;	/* by_lo: the LOs, increasing */
	size_t nrows;
	double rh;
};

struct plot {
	struct seg *seg;
	size_t nseg;
	double cw;	/* a slice's width */
	struct yaxis y;
	u64 t0;		/* the origin of the labels */
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The rows: the slots of the node's frac_bits from the lowest bucket to
 * the highest (a log scale, 2^k rows a power of two), or of the least
 * frac_bits that has every LO for a slot's bound; failing both, a row a
 * distinct LO.
 */
static int y_axis(const struct tnode *t, struct yaxis *y)
{
	const struct history *h = &t->h;
	u64 lo = U64_MAX_VAL, hi = 0;
	size_t n = 0;
	int k = -1;

	memset(y, 0, sizeof(*y));
	if (t->has_snap && t->s.frac_bits <= KSTATS_MAX_FRAC_BITS &&
	    history_slots_of(h, t->s.frac_bits)) {
		k = (int)t->s.frac_bits;
		y->node_k = 1;
	}
	if (k < 0)
		k = history_frac_bits(h);
	for (size_t i = 0; i < h->n; i++) {
		const struct hslice *s = &h->s[i];

		n += s->nb;
		lo = s->b[0].lo < lo ? s->b[0].lo : lo;
		hi = s->b[s->nb - 1].lo > hi ? s->b[s->nb - 1].lo : hi;
	}
	if (!h->n)
		lo = hi = 0;
	if (k >= 0) {
		y->k = (unsigned int)k;
		y->lo_slot = kstats_slot(lo, y->k);
		y->nrows = kstats_slot(hi, y->k) - y->lo_slot + 1;
	} else {
		y->by_lo = 1;
		y->los = malloc(n * sizeof(*y->los));
		if (!y->los)
			return -1;
		n = 0;
		for (size_t i = 0; i < h->n; i++)
			for (size_t j = 0; j < h->s[i].nb; j++)
				y->los[n++] = h->s[i].b[j].lo;
		qsort(y->los, n, sizeof(*y->los), cmp_u64);
		y->nrows = 0;
		for (size_t i = 0; i < n; i++)
			if (!y->nrows || y->los[i] != y->los[y->nrows - 1])
				y->los[y->nrows++] = y->los[i];
	}
	y->rh = PLOT_H / (double)y->nrows;
	y->rh = y->rh > 14 ? 14 : y->rh < 1 ? 1 : y->rh;
	return 0;
}

/* The row of value @v: its slot's, or the highest LO at most @v. */
static size_t y_row(const struct yaxis *y, u64 v)
{
	size_t a = 0, b = y->nrows;
	u32 s;

	if (!y->by_lo) {
		s = kstats_slot(v, y->k);
		s = s < y->lo_slot ? y->lo_slot : s;
		return s - y->lo_slot >= y->nrows ? y->nrows - 1 : s - y->lo_slot;
	}
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;

		if (y->los[m] <= v)
			a = m;
		else
			b = m;
	}
	return a;
}

static u64 y_lo(const struct yaxis *y, size_t row)
{
	return y->by_lo ? y->los[row] : kstats_slot_lo(y->lo_slot + (u32)row, y->k);
}

/* The top of row @row: the lowest row at the bottom. */
static double y_top(const struct yaxis *y, size_t row)
{
	return TOP + y->rh * (double)(y->nrows - 1 - row);
}

/*
 * Where value @v is drawn: the middle of its row; under the lowest one
 * (a negative value), above the highest (past its slot).
 */
static double y_value(const struct yaxis *y, long long v)
{
	size_t row;

	if (v < 0)
		return TOP + y->rh * (double)y->nrows;
	row = y_row(y, (u64)v);
	if (!y->by_lo && row == y->nrows - 1 &&
	    (u64)v > kstats_slot_hi(y->lo_slot + (u32)row, y->k))
		return TOP;
	return y_top(y, row) + y->rh / 2;
}

static int add_seg(struct plot *p, size_t *cap, u64 t0, u64 t1, int pause)
{
	if (p->nseg == *cap) {
		struct seg *ns = realloc(p->seg, (*cap = *cap * 2 + 16) * sizeof(*ns));

		if (!ns)
			return -1;
		p->seg = ns;
	}
	p->seg[p->nseg++] = (struct seg){ .t0 = t0, .t1 = t1, .pause = pause };
	return 0;
}

/*
 * The time axis: a column a slice, from the first slice (or event) to the
 * last; a run of at most GAP_KEEP empty slices drawn as empty columns, a
 * longer one (a pause) GAP_W wide.
 */
static int x_axis(const struct history *h, const struct tevent *ev,
		  size_t nev, struct plot *p)
{
	size_t n = 0, m = 0, cap = 0, cols = 0, pauses = 0;
	u64 *at = malloc((h->n + nev + 1) * sizeof(*at));
	double x = LEFT;

	if (!at)
		return -1;
	for (size_t i = 0; i < h->n; i++)
		at[n++] = h->s[i].t;
	for (size_t i = 0; i < nev; i++)
		at[n++] = ev[i].t - ev[i].t % h->slice_ns;
	if (!n)
		at[n++] = 0;
	qsort(at, n, sizeof(*at), cmp_u64);
	for (size_t i = 0; i < n; i++)	/* each start once */
		if (!m || at[i] != at[m - 1])
			at[m++] = at[i];
	n = m;
	for (size_t i = 0; i < n; i++) {
		u64 next;

		next = at[i] > U64_MAX_VAL - h->slice_ns ? U64_MAX_VAL :
		       at[i] + h->slice_ns;
		if (add_seg(p, &cap, at[i], next, 0))
			goto oom;
		cols++;
		if (i + 1 < n && at[i + 1] > next) {
			u64 empty = (at[i + 1] - next) / h->slice_ns;
			int pause = empty > GAP_KEEP;

			if (add_seg(p, &cap, next, at[i + 1], pause))
				goto oom;
			pauses += (size_t)pause;
			cols += pause ? 0 : (size_t)empty;
		}
	}
	free(at);
	p->cw = (PLOT_W - GAP_W * (double)pauses) / (double)cols;
	p->cw = p->cw > 64 ? 64 : p->cw < 0.5 ? 0.5 : p->cw;
	for (size_t i = 0; i < p->nseg; i++) {
		struct seg *s = &p->seg[i];

		s->x0 = x;
		x += s->pause ? GAP_W :
		     p->cw * (double)((s->t1 - s->t0) / h->slice_ns);
		s->x1 = x;
	}
	return 0;
oom:
	free(at);
	return -1;
}

/* Where time @t is drawn: within its span, or at an end. */
static double x_at(const struct plot *p, u64 t)
{
	size_t a = 0, b = p->nseg;
	const struct seg *s;

	if (t < p->seg[0].t0)
		return p->seg[0].x0;
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;

		if (p->seg[m].t0 <= t)
			a = m;
		else
			b = m;
	}
	s = &p->seg[a];
	if (t >= s->t1)
		return s->x1;
	return s->x0 + (s->x1 - s->x0) * ((double)(t - s->t0) /
					  (double)(s->t1 - s->t0));
}

static double plot_right(const struct plot *p)
{
	return p->seg[p->nseg - 1].x1;
}

static double plot_bottom(const struct plot *p)
{
	return TOP + p->y.rh * (double)p->y.nrows;
}

/* A cell a slot of a slice with samples, its tooltip the slice's. */
static void html_cells(FILE *f, const struct tnode *t, const struct plot *p)
{
	const struct history *h = &t->h;
	double lmax = log1p((double)h->max_count);
	char fill[16], b[7][32];

	fputs("<g class=\"cells\" shape-rendering=\"crispEdges\">\n", f);
	for (size_t i = 0; i < h->n; i++) {
		const struct hslice *s = &h->s[i];
		double x = x_at(p, s->t);

		for (size_t j = 0; j < s->nb; j++) {
			const struct hbucket *c = &s->b[j];
			size_t row = y_row(&p->y, c->lo);

			if (!c->count)
				continue;
			heat_colour(fill, sizeof(fill),
				    log1p((double)c->count) / lmax);
			if (p->y.node_k)
				snprintf(b[5], sizeof(b[5]), ", %s)", fmt_bound(b[6],
					 sizeof(b[6]), kstats_slot_hi(kstats_slot(c->lo,
					 p->y.k), p->y.k), t->unit));
			else
				snprintf(b[5], sizeof(b[5]), " up");
			fprintf(f, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" "
				"width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
				"<title>%s: %llu of %llu samples in [%s%s; "
				"p50 %s p99 %s max %s (slice at %llu ns)"
				"</title></rect>\n", x, y_top(&p->y, row),
				p->cw, p->y.rh, fill,
				offset(b[0], sizeof(b[0]), h, s->t, p->t0),
				(unsigned long long)c->count,
				(unsigned long long)s->samples,
				fmt_value(b[1], sizeof(b[1]), c->lo, t->unit), b[5],
				fmt_value(b[2], sizeof(b[2]), s->p50, t->unit),
				fmt_value(b[3], sizeof(b[3]), s->p99, t->unit),
				fmt_value(b[4], sizeof(b[4]), s->max, t->unit),
				(unsigned long long)s->t);
		}
	}
	fputs("</g>\n", f);
}

/* The pauses, hatched grey, each with its length. */
static void html_pauses(FILE *f, const struct tnode *t, const struct plot *p)
{
	char b[32];

	for (size_t i = 0; i < p->nseg; i++) {
		const struct seg *s = &p->seg[i];

		if (!s->pause)
			continue;
		fprintf(f, "<g class=\"pause\"><rect x=\"%.2f\" y=\"%d\" "
			"width=\"%.2f\" height=\"%.2f\" fill=\"#d8d8d8\"/>"
			"<path d=\"M%.2f %d v%.2f M%.2f %d v%.2f\" stroke=\"#fff\" "
			"stroke-width=\"2\"/><title>a pause: %llu empty slices, %s"
			"</title></g>\n", s->x0, TOP, s->x1 - s->x0,
			plot_bottom(p) - TOP, s->x0 + 6, TOP, plot_bottom(p) - TOP,
			s->x1 - 6, TOP, plot_bottom(p) - TOP,
			(unsigned long long)((s->t1 - s->t0) / t->h.slice_ns),
			fmt_value(b, sizeof(b), s->t1 - s->t0, "ns"));
	}
}

/*
 * Axes: the values of rows at least 13 px apart (a slot's lower bound:
 * each power of two's first, where they fit), a time every 70 px.
 */
static void html_axes(FILE *f, const struct tnode *t, const struct plot *p)
{
	double bottom = plot_bottom(p), last = -1e9;
	size_t step = 1;
	char b[32];

	while (step * p->y.rh < 13)
		step *= 2;
	fprintf(f, "<g class=\"axes\" fill=\"#333\">\n"
		"<path d=\"M%d %d V%.2f H%.2f\" stroke=\"#333\" fill=\"none\"/>\n",
		LEFT - 1, TOP, bottom + 1, plot_right(p));
	for (size_t r = 0; r < p->y.nrows; r++)
		if (!((p->y.by_lo ? r : p->y.lo_slot + r) % step))
			fprintf(f, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
				LEFT - 5, y_top(&p->y, r) + p->y.rh,
				fmt_value(b, sizeof(b), y_lo(&p->y, r), t->unit));
	for (size_t i = 0; i < p->nseg; i++) {
		const struct seg *s = &p->seg[i];

		if (s->pause || s->x0 - last < (i && p->seg[i - 1].pause ? 50 : 70))
			continue;
		last = s->x0;
		fprintf(f, "<path d=\"M%.2f %.2f v4\" stroke=\"#333\"/>"
			"<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n",
			s->x0, bottom + 1, s->x0, bottom + 16,
			offset(b, sizeof(b), &t->h, s->t0, p->t0));
	}
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">time from "
		"the first slice (%llu ns, CLOCK_MONOTONIC)</text>\n"
		"<text x=\"12\" y=\"%.2f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %.2f)\">%s (%s)</text>\n</g>\n",
		(LEFT + plot_right(p)) / 2, bottom + 32, (unsigned long long)p->t0,
		(TOP + bottom) / 2, (TOP + bottom) / 2,
		strcmp(t->unit, "ns") ? "value" : "latency", t->unit);
}

/* The trigger and the freeze: a vertical line each, named at the top. */
static void html_marks(FILE *f, const struct tnode *t, const struct plot *p,
		       const struct tevent *ev, size_t nev)
{
	for (size_t i = 0; i < nev; i++) {
		int trig = !strcmp(ev[i].mark, "trigger");
		double x = x_at(p, ev[i].t);
		char b[32];

		fprintf(f, "<g class=\"mark %s\" data-t=\"%llu\"><path d=\"M%.2f %d "
			"V%.2f\" stroke=\"%s\" stroke-width=\"2\"%s/>"
			"<text x=\"%.2f\" y=\"%d\" text-anchor=\"%s\" fill=\"%s\">%s"
			"</text><title>", ev[i].mark,
			(unsigned long long)ev[i].t, x, TOP - 6, plot_bottom(p),
			trig ? "#d7191c" : "#2c7bb6",
			trig ? " stroke-dasharray=\"5 3\"" : "", x + (trig ? -3 : 3),
			TOP - 9, trig ? "end" : "start",
			trig ? "#d7191c" : "#2c7bb6", ev[i].mark);
		xml_text(f, ev[i].what);
		fprintf(f, " at %s</title></g>\n",
			offset(b, sizeof(b), &t->h, ev[i].t, p->t0));
	}
}

/* The node's outliers within the plot: a dot each, at its time and value. */
static void html_outliers(FILE *f, const struct tnode *t, const struct plot *p)
{
	u64 t0 = p->seg[0].t0, t1 = p->seg[p->nseg - 1].t1;
	char b[2][32];

	if (!outliers_in(t, t0, t1))
		return;
	fputs("<g class=\"outliers\">\n", f);
	for (size_t i = 0; i < t->s.noutliers; i++) {
		const struct koutlier *o = &t->s.outliers[i];
		double y = y_value(&p->y, o->value);

		if (o->time < t0 || o->time >= t1)
			continue;
		fprintf(f, "<circle class=\"outlier\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
			"fill=\"#111\" stroke=\"#fff\" stroke-width=\"1.5\">"
			"<title>outlier %s at %s: pid %d tid %d comm ",
			x_at(p, o->time), y,
			o->value < 0 ? "negative" :
			fmt_value(b[0], sizeof(b[0]), (u64)o->value, t->unit),
			offset(b[1], sizeof(b[1]), &t->h, o->time, p->t0), o->pid,
			o->tid);
		xml_text(f, o->comm);
		fputs("</title></circle>\n", f);
	}
	fputs("</g>\n", f);
}

/* The colour scale: samples of a cell, 1 to the busiest, by their log. */
static void html_legend(FILE *f, const struct tnode *t, const struct plot *p)
{
	double x = plot_right(p) + 28, h = 120;
	char fill[16];

	fprintf(f, "<g class=\"legend\">\n");
	for (int i = 0; i < 12; i++) {
		heat_colour(fill, sizeof(fill), (12.0 - i) / 12.0);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"%.2f\" "
			"fill=\"%s\"/>\n", x, TOP + h * i / 12, h / 12 + 0.5, fill);
	}
	fprintf(f, "<text x=\"%.2f\" y=\"%d\">%llu</text>\n"
		"<text x=\"%.2f\" y=\"%.2f\">1</text>\n"
		"<text x=\"%.2f\" y=\"%.2f\">samples</text>\n"
		"<text x=\"%.2f\" y=\"%.2f\">a cell (log)</text>\n</g>\n",
		x + 18, TOP + 9, (unsigned long long)t->h.max_count, x + 18,
		TOP + h, x - 4, TOP + h + 16, x - 4, TOP + h + 30);
}

static void html_meta(FILE *f, const struct tnode *t, u64 t0)
{
	fputs("<p class=\"meta\">", f);
	describe(f, t, t0, "; ", "", xml_text);
	fprintf(f, "; %llu samples", (unsigned long long)t->h.samples);
	if (t->has_snap && t->s.outliers_line[0])
		fprintf(f, "; %zu outliers of the node", t->s.noutliers);
	fputs("</p>\n", f);
}

/* A node's row: its name, what it is, its heatmap. */
static int html_node(FILE *f, const struct tnode *t, int first)
{
	const struct history *h = &t->h;
	struct plot p = { 0 };
	struct tevent ev[2];
	size_t nev = events(h, ev);
	double w, ht;

	p.t0 = origin(h, ev, nev);
	if (y_axis(t, &p.y) || x_axis(h, ev, nev, &p)) {
		free(p.y.los);
		free(p.seg);
		return -1;
	}
	w = plot_right(&p) + RIGHT;
	ht = plot_bottom(&p) + BOTTOM;
	ht = ht < TOP + 170 ? TOP + 170 : ht;
	fprintf(f, "<section class=\"node\" data-name=\"%s\"", h->name);
	if (first)
		fprintf(f, " id=\"node-%s\"", h->name);
	fprintf(f, ">\n<h2>%s</h2>\n", h->name);
	html_meta(f, t, p.t0);
	fprintf(f, "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"Verdana, sans-serif\" font-size=\"11\">\n"
		"<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"#f4f4f4\"/>\n", w, ht, w, ht, LEFT, TOP,
		plot_right(&p) - LEFT, plot_bottom(&p) - TOP);
	html_pauses(f, t, &p);
	html_cells(f, t, &p);
	html_axes(f, t, &p);
	html_marks(f, t, &p, ev, nev);
	html_outliers(f, t, &p);
	html_legend(f, t, &p);
	fputs("</svg>\n</section>\n", f);
	free(p.y.los);
	free(p.seg);
	return 0;
}

static const char page_head[] =
"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
"<title>kstats timeline</title>\n<style>\n"
"body { font: 13px/1.4 Verdana, sans-serif; margin: 16px; color: #222; background: #fff; }\n"
"h1 { font-size: 18px; margin: 0 0 4px; }\n"
"h2 { font: bold 15px monospace; margin: 0; }\n"
".node { margin: 14px 0; padding-top: 8px; border-top: 1px solid #ccc; }\n"
".meta { color: #555; margin: 2px 0 6px; }\n"
".heatmap { display: block; }\n"
".cell:hover { stroke: #000; stroke-width: 1; }\n"
"</style>\n</head>\n<body>\n<h1>kstats timeline</h1>\n";

static int write_html(FILE *f, const struct tnode *t, size_t n)
{
	fputs(page_head, f);
	fprintf(f, "<p class=\"meta\">%zu node%s. A column a slice of time (a "
		"long pause drawn narrow, grey), a row a slot of the histogram "
		"(a log scale, the lowest at the bottom), the colour the "
		"samples of the cell (a log scale); hover a cell for its "
		"slice. The red dashed line: the trigger fired; the blue "
		"line: the history frozen; dots: the node's outliers.</p>\n",
		n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		int first = 1;

		for (size_t j = 0; j < i; j++)
			first &= strcmp(t[j].h.name, t[i].h.name) != 0;
		if (html_node(f, &t[i], first))
			return -1;
	}
	fputs("</body>\n</html>\n", f);
	return 0;
}

static int cmd_timeline(struct opts *o)
{
	struct tnode *t;
	size_t n;
	int ret = load_nodes(o, &t, &n);
	FILE *f;

	if (ret)
		return ret;
	if (!o->out) {
		for (size_t i = 0; i < n; i++) {
			if (i)
				putchar('\n');
			text_node(stdout, &t[i]);
		}
		free_nodes(t, n);
		return 0;
	}
	f = strcmp(o->out, "-") ? fopen(o->out, "w") : stdout;
	if (!f)
		ret = fail("cannot write %s: %s", o->out, strerror(errno));
	else if (write_html(f, t, n))
		ret = fail("out of memory");
	if (f == stdout) {
		if (fflush(f) && !ret)
			ret = fail("writing the page failed: %s", strerror(errno));
	} else if (f) {
		if (fclose(f) && !ret)
			ret = fail("writing %s failed: %s", o->out, strerror(errno));
		if (ret)
			unlink(o->out);	/* no half a page */
		else
			fprintf(stderr, "kstats: wrote %s: %zu node%s\n", o->out,
				n, n == 1 ? "" : "s");
	}
	free_nodes(t, n);
	return ret;
}

static OPT_STR(o_html, "output", 'o', "FILE.html", out, O_OUT, 0,
	       "one standalone HTML page, a heatmap a node (- stdout)");

static const struct optdef *const timeline_opts[] = { &o_html, NULL };

const struct cmddef timeline_cmd = {
	.name = "timeline", .args = "[NAME|FILE...]", .opts = timeline_opts,
	.more = "  NAME: ROOT/_history/NAME, the ring of slices a node keeps; FILE: a\n"
		"  saved copy of one (a path with a '/'); none: every node with one.\n"
		"  Times are from the first slice; each slice is a row (or a column\n"
		"  of the page): samples, min, p50, p99, max, and the trigger and the\n"
		"  freeze where they fell.\n",
	.fn = cmd_timeline,
	.summary = "the nodes' histories: a row a slice, or an HTML heatmap",
};
