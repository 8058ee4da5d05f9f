// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_list.c - kstats list: the distributions under the root.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Whether some file's name is not its node's: a directory of saved files. */
static int named_otherwise(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 64], line[160], want[80];
		FILE *f;
		int other = 1;

		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		snprintf(want, sizeof(want), "# name %s ", names[i]);
		f = fopen(path, "r");
		if (f && fgets(line, sizeof(line), f))
			other = strncmp(line, want, strlen(want)) != 0;
		if (f)
			fclose(f);
		if (other)
			return 1;
	}
	return 0;
}

static int cmd_list(struct opts *o)
{
	size_t n;
	int ret, files;
	char **names;

	if (o->nargs)
		return usage_error("list takes no arguments");
	names = scan_root(&n, &ret);
	if (!names)
		return ret;
	/* saved files: each named, beside its node's name */
	files = named_otherwise(names, n);
	if (files)
		printf("%-24s ", "FILE");
	printf("%-24s %-6s %-6s %14s %10s %-8s\n", "NAME", "CLOCK", "UNIT",
	       "SAMPLES", "MISSED", "STATE");
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 64], err[768];
		struct snapshot s;

		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		if (snapshot_load(&s, path, err, sizeof(err))) {
			ret = fail("%s", err);
			continue;
		}
		if (files) {
			safe_text(stdout, names[i]);
			printf("%*s ", (int)(strlen(names[i]) < 24 ? 24 - strlen(names[i]) : 0), "");
		}
		printf("%-24s %-6s %-6s %14llu %10llu %-8s", s.name, s.clock,
		       s.unit, (unsigned long long)s.samples,
		       (unsigned long long)s.missed, s.state);
		if (s.is_family) {
			char by[512];

			printf(" family by ");
			safe_text(stdout, family_by(&s, by, sizeof(by)));
			printf(" keys %llu", (unsigned long long)s.family.keys);
		}
		if (s.has_functions)
			printf(" functions %llu traced %llu skipped %llu",
			       (unsigned long long)s.fn_matched,
			       (unsigned long long)s.fn_traced,
			       (unsigned long long)s.fn_skipped);
		putchar('\n');
		snapshot_free(&s);
	}
	if (!n)
		fprintf(stderr, "kstats: no distributions in %s (create one: "
			"echo new NAME > %s/_control)\n", root, root);
	free_names(names, n);
	return ret;
}

static const struct optdef *const list_opts[] = { NULL };

const struct cmddef list_cmd = {
	.name = "list", .opts = list_opts, .fn = cmd_list,
	.summary = "the distributions: file, clock, samples, state",
};
