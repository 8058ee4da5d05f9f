// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_watch.c - kstats watch: one line per interval of the deltas.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void watch_head(const char *unit)
{
	printf("%-8s %9s %12s %10s %9s %9s %9s %9s  %s\n", "INTERVAL", "TIME(s)",
	       "COUNT", "RATE/s", "P50", "P90", "P99", "MAX", "NOTE");
	(void)unit;
}

static void watch_line(long idx, double t, const struct kslot *d, size_t n,
		       double secs, const char *unit, const char *note)
{
	struct ksummary s;
	char a[32], b[32], c[32], e[32], rate[32], ts[32];

	hist_summary(d, n, &s);
	hist_interpolate(d, n, &s);
	if (secs > 0)
		snprintf(rate, sizeof(rate), "%.1f", (double)s.samples / secs);
	else
		snprintf(rate, sizeof(rate), "-");
	if (t >= 0)
		snprintf(ts, sizeof(ts), "%.1f", t);
	else
		snprintf(ts, sizeof(ts), "-");
	printf("%-8ld %9s %12llu %10s %9s %9s %9s %9s  %s\n", idx, ts,
	       (unsigned long long)s.samples, rate,
	       fmt_value(a, sizeof(a), s.p50, unit),
	       fmt_value(b, sizeof(b), s.p90, unit),
	       fmt_value(c, sizeof(c), s.p99, unit),
	       fmt_value(e, sizeof(e), s.max, unit), note);
	fflush(stdout);
}

static void watch_fn(struct series *se, long idx, double t0, double t1,
		     struct kslot *d, size_t n, int reset)
{
	const char *unit = se->first.unit;
	double secs = (se->o->seen & O_INT) ? se->o->interval : 0;

	if (idx < 0) {
		struct ksummary s;
		char a[32], b[32];

		hist_summary(d, n, &s);
		hist_interpolate(d, n, &s);
		printf("Watching %s (%s)%s%s. Deltas since the previous "
		       "snapshot; interval 1 is the first.\n", se->first.name,
		       unit, se->path ? ", Ctrl-C to end" : ", from ",
		       se->path ? "" : "saved snapshots");
		printf("At start: %llu samples already recorded (p50 %s, "
		       "p99 %s).\n", (unsigned long long)s.samples,
		       fmt_value(a, sizeof(a), s.p50, unit),
		       fmt_value(b, sizeof(b), s.p99, unit));
		watch_head(unit);
		return;
	}
	if (se->path && t1 > t0)
		secs = t1 - t0;
	watch_line(idx + 1, t1, d, n, secs, unit,
		   reset ? "reset (counts went down: whole snapshot)" :
		   idx == 0 ? "<- first interval" : "");
	free(d);
}

static int cmd_watch(struct opts *o)
{
	struct series se = { .o = o, .fn = watch_fn };
	char path[PATH_MAX + 64];
	int ret;

	if (o->nargs < 1)
		return usage_error("watch takes NAME -i SECS, or FILE FILE...");
	if (o->nargs == 1) {
		if (!(o->seen & O_INT))
			return usage_error("watch NAME needs -i SECONDS");
		if (resolve(o->args[0], path, sizeof(path)))
			return EXIT_ERROR;
		se.path = path;
		se.limit = o->count;
	} else if (o->seen & O_COUNT) {
		return usage_error("-c is for live watching");
	}
	ret = run_series(&se);
	snapshot_free(&se.first);
	return ret;
}

static const struct optdef *const watch_opts[] = { &o_int, &o_count, NULL };

const struct cmddef watch_cmd = {
	.name = "watch", .args = "NAME|FILE FILE...", .opts = watch_opts,
	.fn = cmd_watch,
	.summary = "one line per interval: count, rate, p50 p90 p99 max",
};
