// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - snapshots one after the other, live or saved, as deltas: what
 * watch and heatmap share.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The delta @cur - @prev as a fresh table; frees nothing. */
struct kslot *delta(const struct snapshot *cur, const struct snapshot *prev,
		    size_t *n, int *reset)
{
	if (cur->frac_bits != prev->frac_bits) {
		*reset = 1;
		return hist_delta(cur->slots, cur->nslots, NULL, 0, n, reset);
	}
	return hist_delta(cur->slots, cur->nslots, prev->slots, prev->nslots,
			  n, reset);
}

/* @cur must be of the first snapshot's distribution: name, unit, bits. */
static int same_dist(const struct snapshot *first, const struct snapshot *cur)
{
	if (strcmp(cur->name, first->name))
		return fail("%s is of %s, but %s of %s: a series is of one "
			    "distribution", cur->source, cur->name,
			    first->source, first->name);
	if (strcmp(cur->unit, first->unit))
		return fail("%s: unit %s, but %s was %s", cur->source,
			    cur->unit, first->source, first->unit);
	if (cur->frac_bits != first->frac_bits)
		return fail("%s: frac_bits %u, but %s had %u: the distribution "
			    "was recreated; a series needs one frac_bits",
			    cur->source, cur->frac_bits, first->source,
			    first->frac_bits);
	return 0;
}

static void drop(struct series *se, struct snapshot *s)
{
	if (s->slots != se->first.slots)
		snapshot_free(s);
}

int run_series(struct series *se)
{
	struct snapshot prev, cur;
	double start = now(), t0 = 0;
	long idx = 0, total = se->path ? se->limit : se->o->nargs - 1;

	if (load(se->path ? se->path : se->o->args[0], &prev))
		return EXIT_ERROR;
	se->first = prev;
	if (se->fn)
		se->fn(se, -1, 0, 0, prev.slots, prev.nslots, 0);
	if (se->path)
		catch_signals();
	while (!total || idx < total) {
		struct kslot *d;
		size_t n;
		int reset, bad;
		double t1;

		if (se->path && nap(se->o->interval))
			break;
		if (load(se->path ? se->path : se->o->args[idx + 1], &cur)) {
			drop(se, &prev);
			return EXIT_ERROR;
		}
		t1 = se->path ? now() - start
			      : (se->o->seen & O_INT) ? (idx + 1) * se->o->interval
						     : -1;
		bad = same_dist(&se->first, &cur);
		d = bad ? NULL : delta(&cur, &prev, &n, &reset);
		if (!d) {
			int e = bad ? bad : fail("out of memory");

			drop(se, &prev);
			snapshot_free(&cur);
			return e;
		}
		se->fn(se, idx, t0, t1, d, n, reset);
		drop(se, &prev);
		prev = cur;
		t0 = t1;
		idx++;
	}
	drop(se, &prev);
	return 0;
}
