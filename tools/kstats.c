// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - read, watch, compare and export kstats distributions.
 *
 * main() and the dispatch: the list of the subcommands, each in a file of
 * its own (cmd/: cmd_*.c, trace.c, recipe.c) with its table of options,
 * which the one parser (lib/opt.c) reads; what they share is in lib/.
 * See kstats.8 and kstats_example.txt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The subcommands, in the order kstats help lists them. */
static const struct cmddef *const cmds[] = {
	&list_cmd, &show_cmd, &trace_cmd, &runqlat_cmd, &biolatency_cmd,
	&syscall_cmd, &lockwait_cmd, &softirq_cmd, &hardirq_cmd, &offcpu_cmd,
	&census_cmd, &top_cmd, &watch_cmd, &heatmap_cmd, &timeline_cmd,
	&explain_cmd, &diff_cmd, &export_cmd, &help_cmd, NULL,
};

/* kstats help: its head, the subcommands a line, its tail */
static const char head[] =
"USAGE: kstats [--root DIR] COMMAND [options] [ARGS]\n\nCommands:\n";

static const char tail[] =
"\n  kstats help COMMAND, or kstats COMMAND --help: its options.\n"
"  -h, --help: this text.\n"
"  NAME is a distribution under --root (default " KSTATS_ROOT "),\n"
"  FILE a saved snapshot: cat " KSTATS_ROOT "/NAME > FILE.\n"
"  trace and the recipes run COMMAND after --, and trace it alone.\n"
"  Exit status 2 on any error (diff: 1 when it finds a difference).\n"
"\n"
"  eg,\n"
"       kstats top --census              # the whole machine, live\n"
"       kstats list\n"
"       kstats show tx_path                  # summary and histogram\n"
"       kstats show tx_path --cpu            # spot the odd CPU\n"
"       kstats trace vfs_read -d 10          # vfs_read latency for 10 s\n"
"       kstats trace vfs_read --value count -- dd if=/dev/zero of=/dev/null count=100\n"
"       kstats trace ksys_read --value ret   # bytes read, and the errnos\n"
"       kstats runqlat -d 10                 # run-queue latency for 10 s\n"
"       kstats softirq -d 5 --top 3          # per vector: @softirq[TIMER]:\n"
"       kstats trace vfs_read --by comm      # a histogram per task name\n"
"       kstats trace 'vfs_*' --by func --sort p99 --top 5   # slowest VFS calls\n"
"       kstats trace vfs_read --slow 1000000 --stack 8   # who read for 1 ms+\n"
"       kstats trace /usr/lib/x86_64-linux-gnu/libc.so.6:malloc --by comm\n"
"       kstats syscall clock_nanosleep -- sleep 1   # one call's latency\n"
"       kstats watch tx_path -i 1            # warm-up, phase changes\n"
"       kstats timeline -o history.html      # the histories, a heatmap a node\n"
"       kstats explain -d 30 rq              # when its tail comes, with what\n"
"       kstats diff before.txt after.txt     # regression gate\n"
"       kstats export > /var/lib/node_exporter/kstats.prom\n"
"\nSee the man page kstats(8).\n";

static const struct cmdtab kstats = { cmds, head, tail };

int main(int argc, char **argv)
{
	const struct cmddef *c;
	struct opts o = { 0 };
	int ret;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	ret = parse_args(argc, argv, &kstats, &o, &c);
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
