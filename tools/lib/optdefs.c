// SPDX-License-Identifier: GPL-2.0
/*
 * optdefs.c - the options that several subcommands take (cli.h), one
 * entry each for their tables (opt.h): what trace and the recipes filter
 * and print with, show's histogram options, the live ones (-d, -i).  An
 * option that one subcommand alone takes is in that subcommand's file.
 */
#include <string.h>

#include "cli.h"

static int set_all_rows(struct opts *o, const char *a)
{
	(void)a;
	o->rows = 0;
	return 0;
}

static int set_comm(struct opts *o, const char *a)
{
	if (!*a || strlen(a) > COMM_MAX || strpbrk(a, " \t\n\r"))
		return usage_error("--comm takes a task name: 1 to 15 characters, no blanks");
	o->comm = a;
	return 0;
}

static int set_cgroup(struct opts *o, const char *a)
{
	if (a[0] != '/' || strpbrk(a, " \t\n"))
		return usage_error("--cgroup takes a path under the cgroup2 mount, from its root: /a/b");
	o->cgroup = a;
	return 0;
}

static int set_sort(struct opts *o, const char *a)
{
	if (!strcmp(a, "samples"))
		o->sort = SORT_SAMPLES;
	else if (!strcmp(a, "p99"))
		o->sort = SORT_P99;
	else if (!strcmp(a, "total"))
		o->sort = SORT_TOTAL;
	else
		return usage_error("--sort takes samples, p99 or total");
	return 0;
}

/* show, trace and the recipes: a histogram's rows, a family's keys */
OPT_TRUE(o_folded, "folded", 0, folded, O_FOLDED,
	 "a family's keys a line: FRAMES VALUE (flamegraph)");
const struct optdef o_rows = {
	.name = "rows", .arg = "N", .kind = K_INT, .off = OPT_FIELD(rows),
	.lo = 4, .hi = 100000, .bad = "--rows takes a number from 4 to 100000",
	.help = "at most N rows a histogram (40), slots merged",
	.bit = O_ROWS, .def = OPT_Q(HIST_ROWS),
};
OPT_FN(o_all_rows, "all-rows", 0, NULL, set_all_rows, O_ROWS, 0,
       "every slot a row, empty ones too");
OPT_NUM(o_top, "top", 0, "K", K_UINT, top, 1, 1e9,
	"--top takes a count of keys, 1 or more", O_TOP, 0,
	"a family's K largest keys only");
OPT_FN(o_sort, "sort", 0, "samples|p99|total", set_sort, O_SORT, 0,
       "a family's keys by their samples, p99 or total");

/* trace and the recipes; -d and -i, heatmap, watch and top too; -c watch and top */
OPT_NUM(o_bits, "bits", 'b', "BITS", K_UINT, bits, 0, KSTATS_MAX_FRAC_BITS,
	"-b takes frac_bits, an integer 0..5", O_BITS, 0,
	"2^BITS slots per power of two, 0..5 (default 3)");
OPT_NUM(o_dur, "duration", 'd', "SECS", K_DBL, dur, 0.001, 1e7,
	"-d takes seconds, more than 0", O_DUR, 0,
	"for SECS seconds (default: to Ctrl-C or COMMAND's end)");
OPT_NUM(o_int, "interval", 'i', "SECS", K_DBL, interval, 0.001, 1e7,
	"-i takes seconds, more than 0", O_INT, 0,
	"a histogram each SECS seconds");
OPT_NUM(o_count, "count", 'c', "COUNT", K_LONG, count, 1, 1e9,
	"-c takes a count, 1 or more", O_COUNT, 0,
	"stop after COUNT intervals");
OPT_NUM(o_pid, "pid", 0, "N", K_LONG, pid, 0, 2147483647,
	"--pid takes a process id, 0 or more", O_PID, 0,
	"only in process N (its threads)");
OPT_NUM(o_tid, "tid", 0, "N", K_LONG, tid, 0, 2147483647,
	"--tid takes a thread id, 0 or more", O_TID, 0, "only in thread N");
OPT_FN(o_comm, "comm", 0, "NAME", set_comm, O_COMM, 0,
       "only in tasks named NAME");
OPT_NUM(o_cpu_filter, "cpu", 0, "N", K_LONG, tcpu, 0, 65535,
	"--cpu takes a CPU number, 0 or more", O_TCPU, 0, "only on CPU N");
OPT_FN(o_cgroup, "cgroup", 0, "PATH", set_cgroup, O_CGROUP, 0,
       "only in the cgroup v2 at PATH, or under it");
OPT_STR(o_by, "by", 0, "KEY", by, O_BY, OPT_ONCE,
	"a histogram per KEY: comm pid tid cpu cgroup\n"
	"caller stack[:N] func, or an EXPR");
OPT_NUM(o_max_keys, "max-keys", 0, "N", K_LONG, max_keys, 1, 65536,
	"--max-keys takes a count from 1 to 65536", O_MAXKEYS, 0,
	"with --by: at most N keys (64), more in 'other'");
OPT_FLAG(o_verbose, "verbose", 'v', O_VERBOSE,
	 "the lines written to _control, on stderr");
OPT_FLAG(o_follow, "follow", 0, O_FOLLOW,
	 "with -- COMMAND: its children too (a cgroup)");
OPT_FLAG(o_self, "self", 0, O_SELF, "count kstats' own calls too (left out)");
OPT_FLAG(o_why, "why", 0, O_WHY,
	 "split each call: running, waiting for a CPU (behind whom), asleep (where), interrupts");
