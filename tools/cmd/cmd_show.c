// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_show.c - kstats show: summary and histogram, or JSON, of one distribution.
 */

#include "cli.h"

static int cmd_show(struct opts *o)
{
	struct snapshot s;
	struct keyview kv = { .top = o->top, .names = KEYS_RAW };

	if (o->nargs != 1)
		return usage_error("show takes one NAME or FILE");
	if (o->folded && o->json)
		return usage_error("show takes --folded or --json, not both");
	if (load(o->args[0], &s))
		return EXIT_ERROR;
	sort_keys(&s, o->sort);
	if (o->folded) {
		if (!s.is_family) {
			snapshot_free(&s);
			return usage_error("--folded is for a node split by a key (by stack, caller, ...)");
		}
		print_folded(stdout, &s);
	} else if (o->json) {
		json_snapshot_keys(stdout, &s, 0, &kv);
		putchar('\n');
	} else {
		print_show_keys(stdout, &s, o->cpu, o->rows,
				&kv);
	}
	snapshot_free(&s);
	return 0;
}

static OPT_TRUE(o_cpu_table, "cpu", 0, cpu, O_CPU,
		"each CPU's percentiles, side by side");
static OPT_TRUE(o_json, "json", 0, json, O_JSON,
		"as JSON: header, summary, per CPU, slots");

static const struct optdef *const show_opts[] = {
	&o_cpu_table, &o_json, &o_folded, &o_rows, &o_all_rows, &o_top, &o_sort,
	NULL,
};

const struct cmddef show_cmd = {
	.name = "show", .args = "NAME|FILE", .opts = show_opts, .fn = cmd_show,
	.summary = "a distribution's summary, outliers and histogram",
};
