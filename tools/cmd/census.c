// SPDX-License-Identifier: GPL-2.0
/*
 * census.c - kstats census start|stop|show: every family of the machine
 * at once (lib/census.c makes and removes them), shown as one table.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One row of the table: NODE KEY, then show's summary columns. */
static void show_row(const struct snapshot *s, const char *key,
		     const struct ksummary *sum)
{
	printf("%-20s %-20s", s->name, key);
	summary_row(stdout, "", sum, s->unit, "");
}

/* A census node: its total, then each key of a family, as show reads them. */
static void show_node(const struct snapshot *s)
{
	struct ksummary sum;

	snap_summary(s, &sum);
	hist_interpolate(s->slots, s->nslots, &sum);
	show_row(s, s->is_family ? "all" : "-", &sum);
	for (size_t i = 0; i < s->nkeys; i++) {
		const struct kkey *k = &s->keys[i];
		char label[256];

		part_summary(k->slots, k->nslots, &s->summary, &sum);
		show_row(s, key_label(k, census_keynames(s), label,
				      sizeof(label)), &sum);
	}
}

static int census_show(void)
{
	size_t n, shown = 0;
	int ret;
	char **names = scan_root(&n, &ret);

	if (!names)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct snapshot s;

		if (!census_is(names[i]))
			continue;
		if (load(names[i], &s)) {
			ret = EXIT_ERROR;
			continue;
		}
		if (!shown++) {
			printf("%-20s %-20s", "NODE", "KEY");
			summary_head(stdout, "");
		}
		show_node(&s);
		snapshot_free(&s);
	}
	free_names(names, n);
	if (!shown && !ret)
		return fail("no census in %s (kstats census start makes one)", root);
	if (shown)
		printf("percentiles interpolated in their slots; the keys of a family largest first\n");
	return ret;
}

static int cmd_census(struct opts *o)
{
	const char *verb = o->nargs == 1 ? o->args[0] : "";

	if (o->nargs != 1)
		return usage_error("census takes start, stop or show");
	if ((o->seen & (O_BITS | O_VERBOSE)) && strcmp(verb, "start"))
		return usage_error("-b and -v are census start's");
	if (!strcmp(verb, "start"))
		return census_start(o, stdout);
	if (!strcmp(verb, "stop"))
		return census_stop(stdout);
	if (!strcmp(verb, "show"))
		return census_show();
	return usage_error("census takes start, stop or show");
}

static const struct optdef *const census_opts[] = {
	&o_bits, &o_verbose, NULL,
};

const struct cmddef census_cmd = {
	.name = "census", .args = "start|stop|show", .opts = census_opts,
	.fn = cmd_census,
	.summary = "syscalls, IRQs, softirqs, run queue, faults, I/O, off-CPU at once",
	.more = "  start makes the nodes census_* (each family bounded), stop\n"
		"  removes them, show prints them as one table.\n",
};
