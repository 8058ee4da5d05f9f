// SPDX-License-Identifier: GPL-2.0
/*
 * outliers.c - a trace node's outliers ("# outliers" and its "outlier"
 * lines) as `kstats show` prints them and as --json gives them.
 */

#include <string.h>

#include "kstats_tool.h"

/* @part of @whole as a percentage, 0 for no whole. */
static double pct(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/*
 * An outlier's split ("why"), under its row: each part's share of the
 * four, who preempted it and where it slept.
 */
static void print_why(FILE *f, const struct koutlier *o)
{
	u64 all = o->oncpu + o->runq + o->blocked + o->irq;

	fprintf(f, "        why: oncpu %.1f%% runq %.1f%% blocked %.1f%% irq %.1f%% (vcsw %llu ivcsw %llu)",
		pct(o->oncpu, all), pct(o->runq, all), pct(o->blocked, all),
		pct(o->irq, all), (unsigned long long)o->vcsw,
		(unsigned long long)o->ivcsw);
	if (o->preempted_by) {
		fputs(" preempted-by ", f);
		safe_text(f, o->preempted_by);
	}
	if (o->blocked_in) {
		fputs(" blocked-in ", f);
		safe_text(f, o->blocked_in);
	}
	fputc('\n', f);
}

/*
 * "why: ..." under the summary: where the node's calls spent their time,
 * each part's share of the four, for a node with "why".
 */
void print_why_sums(FILE *f, const struct snapshot *snap)
{
	u64 all = snap->why_oncpu + snap->why_runq + snap->why_blocked +
		  snap->why_irq;

	if (!snap->has_why)
		return;
	fprintf(f, "why: oncpu %.1f%% runq %.1f%% blocked %.1f%% irq %.1f%% of %llu calls (%llu not split)\n",
		pct(snap->why_oncpu, all), pct(snap->why_runq, all),
		pct(snap->why_blocked, all), pct(snap->why_irq, all),
		(unsigned long long)snap->why_calls,
		(unsigned long long)snap->why_unsplit);
}

/*
 * Under the histogram: the "# outliers" line's fields, then one row per
 * outlier, in the file's order (oldest first for slow, largest first for
 * top), each followed by its stack, innermost frame first, as offcputime
 * prints them.
 */
void print_outliers(FILE *f, const struct snapshot *snap)
{
	int keys = 0;

	if (!snap->outliers_line[0])
		return;
	fputs("\noutliers: ", f);
	safe_text(f, snap->outliers_line + strlen("# outliers "));
	fputc('\n', f);
	for (size_t i = 0; i < snap->noutliers; i++)
		keys |= snap->outliers[i].key != NULL;
	if (!snap->noutliers)
		return;
	fprintf(f, "%12s %16s %5s %8s %8s  %s\n", "value", "time_ns",
		"cpu", "pid", "tid", keys ? "comm            key" : "comm");
	for (size_t i = 0; i < snap->noutliers; i++) {
		const struct koutlier *o = &snap->outliers[i];
		char v[32];

		if (o->value < 0)
			snprintf(v, sizeof(v), "%lld", o->value);
		else
			fmt_value(v, sizeof(v), (u64)o->value, snap->unit);
		fprintf(f, "%12s %16llu %5u %8d %8d  ", v,
			(unsigned long long)o->time, o->cpu, o->pid, o->tid);
		safe_text(f, o->comm);
		if (o->key) {
			int pad = 16 - (int)strlen(o->comm);

			fprintf(f, "%*s", pad > 0 ? pad : 1, "");
			safe_text(f, o->key);
		}
		fputc('\n', f);
		if (o->has_why)
			print_why(f, o);
		for (size_t j = o->nframes; j-- > 0;) {
			fputs("        ", f);
			safe_text(f, o->frames[j]);
			fputc('\n', f);
		}
	}
}

/*
 * ", "why": {oncpu, runq, blocked, irq, calls, unsplit}" for a node with
 * "why"; ", "outliers": [{value, time_ns, cpu, pid, tid, comm, key, [why,]
 * stack}, ...]"
 * with the stack's frames root first, as the file has them; nothing for a
 * node without outliers.
 */
void json_outliers(FILE *f, const struct snapshot *snap, int ind)
{
	if (snap->has_why)
		fprintf(f, ",\n%*s \"why\": {\"oncpu\": %llu, \"runq\": %llu, \"blocked\": %llu, \"irq\": %llu, \"calls\": %llu, \"unsplit\": %llu}",
			ind, "", (unsigned long long)snap->why_oncpu,
			(unsigned long long)snap->why_runq,
			(unsigned long long)snap->why_blocked,
			(unsigned long long)snap->why_irq,
			(unsigned long long)snap->why_calls,
			(unsigned long long)snap->why_unsplit);
	if (!snap->outliers_line[0])
		return;
	fprintf(f, ",\n%*s \"outliers_line\": ", ind, "");
	json_string(f, snap->outliers_line);
	fprintf(f, ",\n%*s \"outliers\": [", ind, "");
	for (size_t i = 0; i < snap->noutliers; i++) {
		const struct koutlier *o = &snap->outliers[i];

		fprintf(f, "%s{\"value\": %lld, \"time_ns\": %llu, \"cpu\": %u, "
			"\"pid\": %d, \"tid\": %d, \"comm\": ", i ? ", " : "",
			o->value, (unsigned long long)o->time, o->cpu, o->pid,
			o->tid);
		json_string(f, o->comm);
		fputs(", \"key\": ", f);
		if (o->key)
			json_string(f, o->key);
		else
			fputs("null", f);
		if (o->has_why) {
			fprintf(f, ", \"why\": {\"oncpu\": %llu, \"runq\": %llu, "
				"\"blocked\": %llu, \"irq\": %llu, \"vcsw\": %llu, "
				"\"ivcsw\": %llu, \"preempted_by\": ",
				(unsigned long long)o->oncpu,
				(unsigned long long)o->runq,
				(unsigned long long)o->blocked,
				(unsigned long long)o->irq,
				(unsigned long long)o->vcsw,
				(unsigned long long)o->ivcsw);
			if (o->preempted_by)
				json_string(f, o->preempted_by);
			else
				fputs("null", f);
			fputs(", \"blocked_in\": ", f);
			if (o->blocked_in)
				json_string(f, o->blocked_in);
			else
				fputs("null", f);
			fputc('}', f);
		}
		fputs(", \"stack\": [", f);
		for (size_t j = 0; j < o->nframes; j++) {
			fputs(j ? ", " : "", f);
			json_string(f, o->frames[j]);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}
