// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_heatmap.c - kstats heatmap: the deltas of a series as an SVG heatmap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct heatctx {
	struct heatcol *cols;
	size_t n, cap;
};

static void heat_fn(struct series *se, long idx, double t0, double t1,
		    struct kslot *d, size_t n, int reset)
{
	struct heatctx *h = se->ctx;

	(void)reset;
	if (idx < 0)
		return;
	if (h->n == h->cap) {
		struct heatcol *nc = realloc(h->cols, (h->cap = h->cap * 2 + 16) *
						      sizeof(*nc));
		if (!nc) {
			free(d);
			return;
		}
		h->cols = nc;
	}
	if (t1 < 0) {	/* saved snapshots without -i: one unit per step */
		t0 = (double)idx;
		t1 = (double)idx + 1;
	}
	h->cols[h->n++] = (struct heatcol){ .t0 = t0, .t1 = t1, .s = d, .n = n };
}

static int cmd_heatmap(struct opts *o)
{
	struct heatctx h = { 0 };
	struct series se = { .o = o, .fn = heat_fn, .ctx = &h };
	char path[PATH_MAX + 64], title[160];
	int ret;
	FILE *f;

	if (!o->out)
		return usage_error("heatmap needs -o FILE.svg");
	if (o->nargs < 1)
		return usage_error("heatmap takes NAME -i S -d S, or FILE FILE...");
	if (o->nargs == 1) {
		if ((o->seen & (O_INT | O_DUR)) != (O_INT | O_DUR))
			return usage_error("heatmap NAME needs -i SECONDS and -d SECONDS");
		if (resolve(o->args[0], path, sizeof(path)))
			return EXIT_ERROR;
		se.path = path;
		se.limit = (long)ceil(o->dur / o->interval - 1e-9);
		se.limit = se.limit < 1 ? 1 : se.limit;
	} else if (o->seen & O_DUR) {
		return usage_error("-d is for live heatmaps");
	}
	ret = run_series(&se);
	if (!ret) {
		for (size_t i = 0; i < h.n; i++)
			if (h.cols[i].s == NULL)
				ret = fail("out of memory");
	}
	if (!ret) {
		snprintf(title, sizeof(title), "%s latency heatmap (%s)",
			 se.first.name, se.first.unit);
		f = strcmp(o->out, "-") ? fopen(o->out, "w") : stdout;
		if (!f)
			ret = fail("cannot write %s: %s", o->out, strerror(errno));
		else if (heatmap_svg(f, title, se.first.unit,
				     se.first.frac_bits, h.cols, h.n) ||
			 (f != stdout ? fclose(f) : fflush(f)))
			ret = fail("writing %s failed", o->out);
		else if (f != stdout)
			fprintf(stderr, "kstats: wrote %s: %zu intervals\n",
				o->out, h.n);
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.cols[i].s);
	free(h.cols);
	snapshot_free(&se.first);
	return ret;
}

static OPT_STR(o_output, "output", 'o', "FILE", out, O_OUT, 0,
	       "write to FILE (- for standard output)");

static const struct optdef *const heatmap_opts[] = {
	&o_int, &o_dur, &o_output, NULL,
};

const struct cmddef heatmap_cmd = {
	.name = "heatmap", .args = "NAME|FILE FILE...", .opts = heatmap_opts,
	.fn = cmd_heatmap, .summary = "a latency heatmap as an SVG",
};
