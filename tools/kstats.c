// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - read, watch, compare and export kstats distributions.
 *
 * The command line: its subcommands and their options are tables
 * (options.c), each subcommand in a file of its own (cmd_*.c, trace.c,
 * recipe.c); the live side is in live.c.  See kstats.8 and
 * kstats_example.txt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
	const struct cmddef *c;
	struct opts o = { 0 };
	int ret;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	ret = parse_args(argc, argv, &o, &c);
	if (ret) {
		free(o.args);
		return ret;
	}
	ret = c->fn(&o);
	if (fflush(stdout) || ferror(stdout))
		ret = fail("writing the output failed: %s",
			   strerror(errno ? errno : EIO));
	free(o.args);
	return ret;
}
