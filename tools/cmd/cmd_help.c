// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_help.c - kstats help [COMMAND]: the usage, from the tables the
 * parser reads (opt.c prints it), and those tables as lists for scripts.
 */
#include <string.h>

#include "cli.h"

/*
 * kstats help [COMMAND]; "help --synopsis" prints every subcommand's
 * synopsis a line (what the man page's SYNOPSIS must say), "help
 * --options [COMMAND]" each option "COMMAND --NAME [-X] [ARG]" (for
 * scripts: completion, the documentation's checks).
 */
static int cmd_help(struct opts *o)
{
	const struct cmddef *const *p, *c;

	if (o->nargs >= 1 && !strcmp(o->args[0], "--synopsis")) {
		for (p = o->tab->cmds; *p; p++)
			if (strcmp((*p)->name, "help"))
				print_synopsis(stdout, *p, 0, 0, 0);
		return 0;
	}
	if (o->nargs >= 1 && !strcmp(o->args[0], "--options")) {
		for (p = o->tab->cmds; *p; p++) {
			c = *p;
			if (o->nargs > 1 && strcmp(c->name, o->args[1]))
				continue;
			for (size_t i = 0; c->opts[i]; i++) {
				const struct optdef *d = c->opts[i];

				printf("%s --%s", c->name, d->name);
				if (d->shrt)
					printf(" -%c", d->shrt);
				if (d->arg)
					printf(" %s", d->arg);
				putchar('\n');
			}
		}
		return 0;
	}
	if (o->nargs > 1)
		return usage_error("help takes at most one COMMAND");
	if (!o->nargs) {
		print_help(stdout, o->tab, NULL);
		return 0;
	}
	c = find_cmd(o->tab, o->args[0]);
	if (!c)
		return unknown_command(o->tab, o->args[0]);
	print_help(stdout, o->tab, c);
	return 0;
}

static const struct optdef *const help_opts[] = { NULL };

const struct cmddef help_cmd = {
	.name = "help", .args = "[COMMAND]", .opts = help_opts, .fn = cmd_help,
	.flags = CMD_WORDS, .summary = "this text, or COMMAND's options",
};
