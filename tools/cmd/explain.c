// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - kstats explain: when a node's latency tail comes (its
 * period, its phases) and what moves with it, from the histories
 * (ROOT/_history/NAME).  The analysis is lib/explain.c's; this file reads
 * the rings (as they are, or with -d SECS: the last SECS of them, frozen
 * for the reading and thawed after), and says what it found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define MAX_PHASES_SAID	10	/* in the text; --json has them all */

/*
 * A node of ROOT/_history: its history, its unit, whether it was named;
 * @shown the name of a context node's series (throttle:/web), else NULL.
 */
struct enode {
	struct history h;
	int loaded, named;
	const char *shown;
	char unit[8];
	struct xnode x;
};

/*
 * A series a node's tail may go with: a node's weight ("NAME") or tail
 * ("NAME:tail"); @owner its node, -1 for one of no node.
 */
struct eseries {
	char name[80];
	const double *v;
	long owner;
};

struct ecorr {
	const struct eseries *s;
	struct xcorr c;
};

struct explain {
	struct opts *o;
	struct enode *nodes;
	size_t n;
	char **names;		/* the files of ROOT/_history */
	struct xgrid g;
	u64 from, to;		/* the window: slices starting in [from, to) */
	struct eseries *ser;
	size_t nser;
	struct context ctx;	/* -d's context nodes */
};

/* The name node @i's series go by. */
static const char *shown(const struct explain *e, size_t i)
{
	return e->nodes[i].shown ? e->nodes[i].shown : e->nodes[i].h.name;
}

static void free_histories(struct explain *e)
{
	for (size_t i = 0; i < e->n; i++) {
		if (e->nodes[i].loaded)
			history_free(&e->nodes[i].h);
		e->nodes[i].loaded = 0;
		xnode_free(&e->nodes[i].x);
	}
}

/* Every history of ROOT/_history, read (again, after a freeze). */
static int read_histories(struct explain *e)
{
	char path[PATH_MAX + 256], err[768];

	free_histories(e);
	for (size_t i = 0; i < e->n; i++) {
		int r;

		snprintf(path, sizeof(path), "%s/" HISTORY_DIR "/%s", root,
			 e->names[i]);
		r = history_load(&e->nodes[i].h, path, err, sizeof(err));
		if (r)
			return load_error(path, r, err);
		e->nodes[i].loaded = 1;
	}
	return 0;
}

/* The unit of node @name, from its own file ROOT/NAME: "ns" without one. */
static void node_unit(const char *name, char *unit, size_t len)
{
	char path[PATH_MAX + 256], err[768];
	struct snapshot s;

	snprintf(unit, len, "ns");
	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (snapshot_load(&s, path, err, sizeof(err)))
		return;
	if (s.unit[0])
		snprintf(unit, len, "%s", s.unit);
	snapshot_free(&s);
}

/* The NAMEs given (or all): each must keep a history. */
static int find_nodes(struct explain *e)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct stat st;
	int ret = root_ok();

	if (ret)
		return ret;
	for (int i = 0; i < e->o->nargs; i++) {
		const char *a = e->o->args[i];

		snprintf(path, sizeof(path), "%s/" HISTORY_DIR "/%s", root, a);
		if (!valid_name(a) || stat(path, &st) || !S_ISREG(st.st_mode))
			return fail("%s has no history: make it with 'history NS COUNT'",
				    a);
	}
	ret = history_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	e->names = dir_files(dir, &e->n);
	if (!e->names)
		return fail("%s: %s", dir, strerror(errno));
	if (!e->n)
		return fail("no history in %s: no node keeps one", dir);
	e->nodes = calloc(e->n, sizeof(*e->nodes));
	if (!e->nodes)
		return fail("out of memory");
	for (size_t i = 0; i < e->n; i++) {
		struct enode *t = &e->nodes[i];

		t->shown = context_shown(&e->ctx, e->names[i]);
		t->named = !e->o->nargs && !t->shown;
		for (int j = 0; j < e->o->nargs; j++)
			t->named |= !strcmp(e->o->args[j], e->names[i]);
		if (t->named)
			node_unit(e->names[i], t->unit, sizeof(t->unit));
	}
	return 0;
}

/* The time the rings were frozen at: their frozen_at, else their end. */
static u64 frozen_time(const struct explain *e)
{
	u64 at = 0, end = 0;

	for (size_t i = 0; i < e->n; i++) {
		const struct history *h = &e->nodes[i].h;

		if (h->frozen && h->frozen_at > at)
			at = h->frozen_at;
		if (h->n && h->s[h->n - 1].t + h->slice_ns > end)
			end = h->s[h->n - 1].t + h->slice_ns;
	}
	return at ? at : end;
}

/* find_nodes() again: the context nodes made since among them. */
static int rescan(struct explain *e)
{
	free_histories(e);
	free(e->nodes);
	free_names(e->names, e->n);
	e->nodes = NULL;
	e->names = NULL;
	e->n = 0;
	return find_nodes(e);
}

/*
 * -d SECS: the context nodes made, with histories on the named nodes'
 * slices; the rings recorded for SECS (refused if they are frozen: it
 * would be another's freeze), frozen, read, and thawed whatever happens;
 * the context nodes removed.
 */
static int record(struct explain *e)
{
	int ret = read_histories(e), thaw;
	u64 at, len = (u64)(e->o->dur * 1e9), slice = 0;

	if (ret)
		return ret;
	for (size_t i = 0; i < e->n; i++) {
		const struct history *h = &e->nodes[i].h;

		if (h->frozen)
			return fail("the histories are frozen (by %s): -d would "
				    "read another's freeze; thaw them (echo thaw > "
				    "%s/_control) or explain them as they are, "
				    "without -d", h->reason, root);
		if (e->nodes[i].named && h->slice_ns > slice)
			slice = h->slice_ns;
	}
	catch_signals();	/* Ctrl-C from here: the context removed too */
	if (!(e->o->seen & O_NOCONTEXT) && slice) {
		ret = context_start(&e->ctx, slice, len / slice + 8,
				    !!(e->o->seen & O_VERBOSE));
		if (ret)
			return ret;
		ret = rescan(e);	/* read once frozen, as the named nodes */
		if (ret)
			goto out;
	}
	nap(e->o->dur);		/* Ctrl-C: what was recorded until then */
	ret = control("freeze\n");
	if (ret)
		goto out;
	ret = read_histories(e);
	thaw = control("thaw\n");
	ret = ret ? ret : thaw;
out:
	context_stop(&e->ctx);
	if (ret)
		return ret;
	at = frozen_time(e);
	e->from = at > len ? at - len : 0;
	e->to = at;
	return 0;
}

/* The series a tail may go with: every node's weight, a named one's tail. */
static int add_series(struct explain *e)
{
	e->ser = calloc(2 * e->n, sizeof(*e->ser));
	if (!e->ser)
		return -1;
	for (size_t i = 0; i < e->n; i++) {
		struct eseries *s = &e->ser[e->nser++];

		snprintf(s->name, sizeof(s->name), "%s", shown(e, i));
		s->v = e->nodes[i].x.weight;
		s->owner = (long)i;
		if (!e->nodes[i].named)
			continue;
		s = &e->ser[e->nser++];
		snprintf(s->name, sizeof(s->name), "%s:tail", e->nodes[i].h.name);
		s->v = e->nodes[i].x.tail;
		s->owner = (long)i;
	}
	return 0;
}

/* Those that go with it slice for slice first, then the strongest. */
static int cmp_corr(const void *a, const void *b)
{
	const struct xcorr *p = &((const struct ecorr *)a)->c;
	const struct xcorr *q = &((const struct ecorr *)b)->c;

	if (p->jitter != q->jitter)
		return p->jitter < q->jitter ? -1 : 1;
	return p->r < q->r ? 1 : p->r > q->r ? -1 : 0;
}

/*
 * What a node's tail goes with: r >= X_MIN_R; those found slice for
 * slice before those found smoothed (x_correlate()), the strongest first.
 */
static size_t correlates(const struct explain *e, size_t node,
			 struct ecorr *out)
{
	const struct xnode *x = &e->nodes[node].x;
	size_t k = 0;

	for (size_t i = 0; i < e->nser; i++) {
		struct xcorr c;

		if (e->ser[i].owner == (long)node)
			continue;
		x_correlate(x->tail, e->ser[i].v, e->g.n, x_max_lag(e->g.n), &c);
		if (c.r >= X_MIN_R)
			out[k++] = (struct ecorr){ &e->ser[i], c };
	}
	qsort(out, k, sizeof(*out), cmp_corr);
	return k;
}

/* What a node is found to be: its period, correlates, phases. */
struct eresult {
	struct xperiod p;
	struct ecorr *c;
	size_t nc;
	size_t *ps, *pe, np;	/* phases, in slices of the grid */
};

static int analyse(const struct explain *e, size_t i, struct eresult *r)
{
	const struct xnode *x = &e->nodes[i].x;
	size_t span = x->b - x->a;

	memset(r, 0, sizeof(*r));
	r->c = calloc(e->nser + 1, sizeof(*r->c));
	r->ps = calloc(span + 1, sizeof(*r->ps));
	r->pe = calloc(span + 1, sizeof(*r->pe));
	if (!r->c || !r->ps || !r->pe)
		return -1;
	if (!span)
		return 0;
	x_period(x->tail + x->a, span, &r->p);
	r->nc = correlates(e, i, r->c);
	r->np = x_phases(x->tail + x->a, span, r->p.found ? r->p.lag : 0,
			 r->ps, r->pe);
	for (size_t k = 0; k < r->np; k++) {
		r->ps[k] += x->a;
		r->pe[k] += x->a;
	}
	return 0;
}

static void free_result(struct eresult *r)
{
	free(r->c);
	free(r->ps);
	free(r->pe);
}

/* @ns to three significant digits: a period of 250.06 ms is 250ms. */
static u64 three_digits(double ns)
{
	double unit = 1;

	while (ns >= 1000 * unit)
		unit *= 10;
	return (u64)(llround(ns / unit) * unit);
}

/* Seconds from the window's start, "+9.50s", three digits. */
static const char *since(char *buf, size_t len, const struct xgrid *g,
			 size_t slice)
{
	double s = (double)slice * (double)g->slice_ns / 1e9;

	snprintf(buf, len, "+%.*fs", s < 10 ? 2 : s < 100 ? 1 : 0, s);
	return buf;
}

static void text_node(FILE *f, const struct explain *e, size_t i,
		      const struct eresult *r)
{
	const struct enode *t = &e->nodes[i];
	const struct xgrid *g = &e->g;
	char a[32], b[32];

	safe_text(f, t->h.name);
	if (t->x.a == t->x.b) {
		fputs(": no sample in the window.\n", f);
		return;
	}
	fprintf(f, ": its tail (above %s) ", fmt_value(a, sizeof(a), t->x.above,
						      t->unit));
	if (r->p.found)
		fprintf(f, "comes every %s (strength %.2f%s%s)",
			fmt_value(a, sizeof(a),
				  three_digits(r->p.lag * (double)g->slice_ns), "ns"),
			r->p.strength, r->p.jitter ? ", give or take " : "",
			r->p.jitter ? fmt_value(b, sizeof(b), (u64)r->p.jitter *
						g->slice_ns, "ns") : "");
	else
		fputs("has no period", f);
	if (!r->nc)
		fputs("; nothing moves with it", f);
	for (size_t k = 0; k < r->nc; k++) {
		long long lag = (long long)r->c[k].c.lag * (long long)g->slice_ns;

		fputs(k ? ", " : "; it goes with ", f);
		safe_text(f, r->c[k].s->name);
		if (lag)
			fprintf(f, " (r %.2f, lag %s%s", r->c[k].c.r, lag < 0 ? "-" : "",
				fmt_value(a, sizeof(a), (u64)llabs(lag), "ns"));
		else
			fprintf(f, " (r %.2f, lag 0", r->c[k].c.r);
		if (r->c[k].c.jitter)
			fprintf(f, ", give or take %s",
				fmt_value(a, sizeof(a), (u64)r->c[k].c.jitter *
					  g->slice_ns, "ns"));
		fputc(')', f);
	}
	if (!r->np)
		fputs("; it never came", f);
	else
		fprintf(f, "; it came in %zu phase%s: ", r->np, r->np > 1 ? "s" : "");
	for (size_t k = 0; k < r->np && k < MAX_PHASES_SAID; k++)
		fprintf(f, "%s%s to %s", k ? ", " : "",
			since(a, sizeof(a), g, r->ps[k]),
			since(b, sizeof(b), g, r->pe[k]));
	if (r->np > MAX_PHASES_SAID)
		fprintf(f, " and %zu more", r->np - MAX_PHASES_SAID);
	fputs(".\n", f);
}

static void json_node(FILE *f, const struct explain *e, size_t i,
		      const struct eresult *r, int first)
{
	const struct enode *t = &e->nodes[i];
	const struct xgrid *g = &e->g;

	fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
	json_string(f, t->h.name);
	fprintf(f, ", \"tail_above\": %llu, ", (unsigned long long)t->x.above);
	if (r->p.found)
		fprintf(f, "\"period_ns\": %lld, \"period_strength\": %.3f, \"period_jitter_ns\": %llu",
			llround(r->p.lag * (double)g->slice_ns), r->p.strength,
			(unsigned long long)r->p.jitter * g->slice_ns);
	else
		fputs("\"period_ns\": null, \"period_strength\": null, \"period_jitter_ns\": null", f);
	fputs(", \"correlates\": [", f);
	for (size_t k = 0; k < r->nc; k++) {
		fputs(k ? ", {\"with\": " : "{\"with\": ", f);
		json_string(f, r->c[k].s->name);
		fprintf(f, ", \"lag_ns\": %lld, \"r\": %.3f, \"jitter_ns\": %llu}",
			(long long)r->c[k].c.lag * (long long)g->slice_ns,
			r->c[k].c.r,
			(unsigned long long)r->c[k].c.jitter * g->slice_ns);
	}
	fputs("], \"phases\": [", f);
	for (size_t k = 0; k < r->np; k++)
		fprintf(f, "%s[%llu, %llu]", k ? ", " : "",
			(unsigned long long)(g->t0 + r->ps[k] * g->slice_ns),
			(unsigned long long)(g->t0 + r->pe[k] * g->slice_ns));
	fputs("]}", f);
}

/* The series on the grid, and each named node said. */
static int report(struct explain *e)
{
	struct history *hs = calloc(e->n, sizeof(*hs));
	int first = 1;

	if (!hs)
		return fail("out of memory");
	for (size_t i = 0; i < e->n; i++)
		hs[i] = e->nodes[i].h;	/* the grid's view: no ownership */
	if (xgrid_make(hs, e->n, e->from, e->to, &e->g)) {
		free(hs);
		return fail("no sample in the histories%s",
			    e->o->dur > 0 ? " during the last -d seconds" : "");
	}
	free(hs);
	for (size_t i = 0; i < e->n; i++)
		if (xnode_make(&e->nodes[i].x, &e->nodes[i].h, &e->g, e->from,
			       e->to, !!(e->o->seen & O_ABOVE),
			       (u64)e->o->threshold))
			return fail("out of memory");
	if (add_series(e))
		return fail("out of memory");
	if (e->o->json) {
		printf("{\"slice_ns\": %llu, \"window_ns\": %llu, \"context\": [",
		       (unsigned long long)e->g.slice_ns,
		       (unsigned long long)(e->g.n * e->g.slice_ns));
		for (size_t i = 0; i < e->ctx.made; i++) {
			fputs(i ? ", " : "", stdout);
			json_string(stdout, e->ctx.nodes[i].shown);
		}
		fputs("], \"nodes\": [", stdout);
	}
	for (size_t i = 0; i < e->n; i++) {
		struct eresult r;

		if (!e->nodes[i].named)
			continue;
		if (analyse(e, i, &r)) {
			free_result(&r);
			return fail("out of memory");
		}
		if (e->o->json)
			json_node(stdout, e, i, &r, first);
		else
			text_node(stdout, e, i, &r);
		first = 0;
		free_result(&r);
	}
	if (e->o->json)
		fputs("\n  ]}\n", stdout);
	for (size_t i = 0; !e->o->json && i < e->ctx.made; i++) {
		fputs(i ? ", " : "Context recorded: ", stdout);
		safe_text(stdout, e->ctx.nodes[i].shown);
		fputs(i + 1 == e->ctx.made ? ".\n" : "", stdout);
	}
	return 0;
}

static int cmd_explain(struct opts *o)
{
	struct explain e = { .o = o, .to = U64_MAX_VAL };
	int ret = find_nodes(&e);

	if (!ret)
		ret = o->dur > 0 ? record(&e) : read_histories(&e);
	if (!ret)
		ret = report(&e);
	free_histories(&e);
	free(e.nodes);
	free(e.ser);
	free_names(e.names, e.n);
	return ret;
}

static OPT_NUM(o_window, "duration", 'd', "SECS", K_DBL, dur, 0, 1e7,
	       "-d takes seconds, 0 or more", O_DUR, 0,
	       "record SECS, freeze, read, thaw (0: the rings as they are)");
static OPT_NUM(o_above, "above", 0, "V", K_DBL, threshold, 0, 9.2e18,
	       "--above takes a value in the node's unit (ns for a time), 0 or more",
	       O_ABOVE, 0, "the tail: samples of V or more (default: the node's p99)");
static OPT_TRUE(o_xjson, "json", 0, json, O_JSON, "the findings as JSON");
static OPT_FLAG(o_nocontext, "no-context", 0, O_NOCONTEXT,
		"-d: the named nodes alone, no context nodes");

static const struct optdef *const explain_opts[] = {
	&o_window, &o_above, &o_xjson, &o_nocontext, &o_verbose, NULL,
};

const struct cmddef explain_cmd = {
	.name = "explain", .args = "[NAME...]", .opts = explain_opts,
	.more = "  NAME: a node with a history (ROOT/_history/NAME); none: every one.\n"
		"  Its tail a slice (samples above its p99, or --above V): its period\n"
		"  (autocorrelation 0.5+, 3 periods+), the other nodes' series that go\n"
		"  with it (r 0.6+, within 10 slices), the phases it came in.\n"
		"  -d SECS records beside them the machine's context, each a series:\n"
		"  throttle:PATH (a cgroup's CPU quota), hardirq:NAME, softirq:VEC,\n"
		"  runqlat, ivcsw (involuntary switches); made for the window, then\n"
		"  removed.\n",
	.fn = cmd_explain,
	.summary = "when a node's tail comes (period, phases) and what goes with it",
};
