// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - read, watch, compare and export kstats distributions.
 *
 * The command line: options and the table of subcommands, each in a
 * file of its own (cmd_*.c, trace.c); the live side is in live.c.
 * See kstats.8 and kstats_example.txt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
"USAGE: kstats [--root DIR] COMMAND [options]\n"
"\n"
"  list                                  distributions: clock, samples, state\n"
"  show NAME|FILE [--cpu] [--json] [--rows N] [--top K]\n"
"       [--sort samples|p99|total]\n"
"                                        summary and histogram (--cpu: each\n"
"                                        CPU's percentiles side by side)\n"
"  trace FUNC|GLOB|F1,F2,...|tp:GROUP:EVENT|PATH:SYMBOL [-b BITS] [-d SECS]\n"
"        [-i SECS] [-v]\n"
"        [--value EXPR] [--if 'EXPR OP C']... [--pid N] [--tid N]\n"
"        [--comm NAME] [--cpu N] [--by KEY [--max-keys N]] [--top K]\n"
"        [--slow V [--keep M]] [--stack N] [--sort samples|p99|total]\n"
"                                        how long FUNC takes (or, with\n"
"                                        --value, EXPR's values: ret, a\n"
"                                        parameter, *param, a->b.c), where\n"
"                                        every filter holds: trace it, print\n"
"                                        the histogram, remove the node.\n"
"                                        OP: == != < <= > >= &; -v prints\n"
"                                        the _control line on stderr;\n"
"                                        --slow V keeps the samples of V or\n"
"                                        more (the newest M), --top K the K\n"
"                                        largest, with their task and, with\n"
"                                        --stack, N frames of their stack;\n"
"                                        a GLOB or a list times every\n"
"                                        function named, --by func one\n"
"                                        histogram each; --sort orders the\n"
"                                        keys (by their p99, their total);\n"
"                                        PATH:SYMBOL (or PATH:0xOFFSET) times\n"
"                                        a user program's function\n"
"  runqlat | biolatency | syscall [NAME] | lockwait | softirq | hardirq |\n"
"  offcpu [-d SECS] [-i SECS] [-b BITS] [-v] [--pid N] [--tid N]\n"
"        [--comm NAME] [--cpu N] [--by KEY] [--max-keys N] [--top K]\n"
"        [-P|--pids|--pid] [-L|--tids] [-D|--disk] [-Q|--queued]\n"
"        [--min US] [--max US] [--idle]\n"
"                                        recipes: a latency as a section from\n"
"                                        one point to another (kstats(8)),\n"
"                                        traced, printed and removed as trace\n"
"  watch NAME -i SECS [-c COUNT]         one line per interval: count, rate,\n"
"  watch FILE FILE... [-i SECS]          p50 p90 p99 max of the delta\n"
"  heatmap NAME -i SECS -d SECS -o F.svg latency heatmap as SVG\n"
"  heatmap FILE FILE... [-i SECS] -o F.svg   (from cumulative snapshots)\n"
"  diff A B [--threshold PCT] [--alpha A]\n"
"  diff A1 A2 ... -- B1 B2 ...           p50 p90 p99 p99.9 mean of B / A with\n"
"                                        confidence intervals, against A's\n"
"                                        run-to-run spread; exit 0 same,\n"
"                                        1 different, 2 error\n"
"  export [--format prometheus|json] [--buckets N] [--host H] [-o FILE]\n"
"         [NAME|FILE...]\n"
"                                        Prometheus text (one family a unit,\n"
"                                        at most N buckets: 64) or JSON\n"
"\n"
"  NAME is a distribution under --root (default " KSTATS_ROOT "),\n"
"  FILE a saved snapshot: cat " KSTATS_ROOT "/NAME > FILE\n"
"  -h, --help   this text.   Exit status 2 on any error.\n"
"\n"
"  eg,\n"
"       kstats list\n"
"       kstats show tx_path                  # summary and histogram\n"
"       kstats show tx_path --cpu            # spot the odd CPU\n"
"       kstats trace vfs_read -d 10          # vfs_read latency for 10 s\n"
"       kstats trace vfs_read --value count --comm dd   # dd's read sizes\n"
"       kstats trace ksys_read --value ret   # bytes read, and the errnos\n"
"       kstats runqlat -d 10                 # run-queue latency for 10 s\n"
"       kstats softirq -d 5 --top 3          # per vector: @softirq[TIMER]:\n"
"       kstats trace vfs_read --by comm      # a histogram per task name\n"
"       kstats trace 'vfs_*' --by func --sort p99 --top 5   # slowest VFS calls\n"
"       kstats trace vfs_read --slow 1000000 --stack 8   # who read for 1 ms+\n"
"       kstats trace /usr/lib/x86_64-linux-gnu/libc.so.6:malloc --by comm\n"
"       kstats syscall clock_nanosleep --comm sleep   # one call's latency\n"
"       kstats watch tx_path -i 1            # warm-up, phase changes\n"
"       kstats diff before.txt after.txt     # regression gate\n"
"       kstats export > /var/lib/node_exporter/kstats.prom\n"
"\n"
"See the man page kstats(8) and kstats_example.txt for examples.\n";


/* --- options ------------------------------------------------------------ */

static int num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

/* --threshold: a percentage, "5" or "5%", kept as a fraction. */
static int threshold(const char *s, double *v)
{
	char buf[32];
	size_t n = strlen(s);

	if (n && s[n - 1] == '%' && n < sizeof(buf)) {
		memcpy(buf, s, n - 1);
		buf[n - 1] = '\0';
		s = buf;
	}
	if (num(s, 1e-6, 1e6, v))
		return -1;
	*v /= 100;
	return 0;
}

/* A --pid, --tid or --cpu number. */
static int id_opt(const char *s, double max, long *v)
{
	double d;

	if (num(s, 0, max, &d) || d != (long)d)
		return -1;
	*v = (long)d;
	return 0;
}

/* The options that take a number; -1 when @c is not one of them. */
static int opt_number(int c, const char *arg, struct opts *o)
{
	double v;

	switch (c) {
	case 'r':
		o->seen |= O_ROWS;
		if (num(arg, 4, 100000, &v))
			return usage_error("--rows takes a number from 4 to 100000");
		o->rows = (int)v;
		break;
	case 'b':
		o->seen |= O_BITS;
		if (num(arg, 0, KSTATS_MAX_FRAC_BITS, &v) ||
		    v != (int)v)
			return usage_error("-b takes frac_bits, an integer 0..5");
		o->bits = (unsigned int)v;
		break;
	case 'd':
		o->seen |= O_DUR;
		if (num(arg, 0.001, 1e7, &o->dur))
			return usage_error("-d takes seconds, more than 0");
		break;
	case 'i':
		o->seen |= O_INT;
		if (num(arg, 0.001, 1e7, &o->interval))
			return usage_error("-i takes seconds, more than 0");
		break;
	case 'c':
		o->seen |= O_COUNT;
		if (num(arg, 1, 1e9, &v) || v != (long)v)
			return usage_error("-c takes a count, 1 or more");
		o->count = (long)v;
		break;
	case 'a':
		o->seen |= O_ALPHA;
		if (num(arg, 1e-300, 0.5, &o->alpha))
			return usage_error("--alpha takes a probability in (0, 0.5]");
		break;
	case 'T':
		o->seen |= O_THRESH;
		if (threshold(arg, &o->threshold))
			return usage_error("--threshold takes a percentage, more than 0 (5 or 5%)");
		break;
	case 'B':
		o->seen |= O_BUCKETS;
		if (num(arg, 2, 100000, &v) || v != (int)v)
			return usage_error("--buckets takes a count from 2 to 100000");
		o->buckets = (unsigned int)v;
		break;
	case 'p':
		o->seen |= O_PID;
		if (id_opt(arg, 2147483647, &o->pid))
			return usage_error("--pid takes a process id, 0 or more");
		break;
	case 'G':
		o->seen |= O_FOLDED;
		o->folded = 1;
		break;
	case 'g':
		o->seen |= O_CGROUP;
		if (arg[0] != '/' || strpbrk(arg, " \t\n"))
			return usage_error("--cgroup takes a path under the cgroup2 mount, from its root: /a/b");
		o->cgroup = arg;
		break;
	case 'O':
		o->seen |= O_SORT;
		if (!strcmp(arg, "samples"))
			o->sort = SORT_SAMPLES;
		else if (!strcmp(arg, "p99"))
			o->sort = SORT_P99;
		else if (!strcmp(arg, "total"))
			o->sort = SORT_TOTAL;
		else
			return usage_error("--sort takes samples, p99 or total");
		break;
	case 'K':
		o->seen |= O_TOP;
		if (num(arg, 1, 1e9, &v) || v != (long)v)
			return usage_error("--top takes a count of keys, 1 or more");
		o->top = (unsigned int)v;
		break;
	case 'S':
		o->seen |= O_OUTLIERS;
		if (num(arg, 0, 9.2e18, &v) || v != (long long)v || o->slow_set)
			return usage_error("--slow takes a value in the node's unit (ns for a time), 0 or more, once");
		o->slow_set = 1;
		o->slow = (unsigned long long)v;
		break;
	case 'k':
	case 'F':
		o->seen |= O_OUTLIERS;
		if (c == 'k' ? id_opt(arg, 65536, &o->keep) || !o->keep :
			       id_opt(arg, 64, &o->stack) || !o->stack)
			return usage_error(c == 'k' ? "--keep takes a count from 1 to 65536" :
					   "--stack takes a count of frames from 1 to 64");
		break;
	case 'M':
		o->seen |= O_MAXKEYS;
		if (id_opt(arg, 65536, &o->max_keys) || !o->max_keys)
			return usage_error("--max-keys takes a count from 1 to 65536");
		break;
	case 't':
		o->seen |= O_TID;
		if (id_opt(arg, 2147483647, &o->tid))
			return usage_error("--tid takes a thread id, 0 or more");
		break;
	case 'n':
	case 'x':
		o->seen |= c == 'n' ? O_MIN : O_MAX;
		if (num(arg, 0, 1e12, &v))
			return usage_error("--min and --max take microseconds, 0 or more");
		*(c == 'n' ? &o->min_ns : &o->max_ns) = (long long)(v * 1000);
		break;
	case 'u':
		o->seen |= O_TCPU;
		if (id_opt(arg, 65535, &o->tcpu))
			return usage_error("--cpu takes a CPU number, 0 or more");
		break;
	default:
		return -1;
	}
	return 0;
}

/* The other options; -1 when @c is none of them. */
static int opt_other(int c, const char *arg, struct opts *o)
{
	switch (c) {
	case 'R':
		root = arg;
		break;
	case 'C':
		o->seen |= O_CPU;
		break;
	case 'J':
		o->seen |= O_JSON;
		break;
	case 'o':
		o->seen |= O_OUT;
		o->out = arg;
		break;
	case 'f':
		o->seen |= O_FORMAT;
		o->format = arg;
		if (strcmp(arg, "prometheus") && strcmp(arg, "json"))
			return usage_error("--format is prometheus or json");
		break;
	case 'H':
		o->seen |= O_HOST;
		o->host = arg;
		break;
	case 'V':
		if (o->seen & O_VALUE)
			return usage_error("--value is given once");
		o->seen |= O_VALUE;
		o->value = arg;
		break;
	case 'I':
		o->seen |= O_IF;
		if (o->nifs == MAX_IFS)
			return usage_error("--if is given at most 4 times");
		o->ifs[o->nifs++] = arg;
		break;
	case 'm':
		o->seen |= O_COMM;
		o->comm = arg;
		if (!*arg || strlen(arg) > COMM_MAX ||
		    strpbrk(arg, " \t\n\r"))
			return usage_error("--comm takes a task name: 1 to 15 characters, no blanks");
		break;
	case 'v':
		o->seen |= O_VERBOSE;
		break;
	case 'Y':
		if (o->seen & O_BY)
			return usage_error("--by is given once");
		o->seen |= O_BY;
		o->by = arg;
		break;
	case 'P':
		o->seen |= O_PIDS;
		break;
	case 'L':
		o->seen |= O_TIDS;
		break;
	case 'D':
		o->seen |= O_DISK;
		break;
	case 'Q':
		o->seen |= O_QUEUED;
		break;
	case 'E':
		o->seen |= O_IDLE;
		break;
	case 'h':
		fputs(usage, stdout);
		exit(0);
	case ':':
		return usage_error("an option lacks its value");
	default:
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	struct option lo[] = {
		{ "root", required_argument, NULL, 'R' },
		{ "cpu", no_argument, NULL, 'C' },	/* trace: --cpu N */
		{ "json", no_argument, NULL, 'J' },
		{ "rows", required_argument, NULL, 'r' },
		{ "bits", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'f' },
		{ "host", required_argument, NULL, 'H' },
		{ "buckets", required_argument, NULL, 'B' },
		{ "value", required_argument, NULL, 'V' },
		{ "if", required_argument, NULL, 'I' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "comm", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "top", required_argument, NULL, 'K' },
		{ "sort", required_argument, NULL, 'O' },
		{ "by", required_argument, NULL, 'Y' },
		{ "max-keys", required_argument, NULL, 'M' },
		{ "pids", no_argument, NULL, 'P' },
		{ "tids", no_argument, NULL, 'L' },
		{ "disk", no_argument, NULL, 'D' },
		{ "queued", no_argument, NULL, 'Q' },
		{ "idle", no_argument, NULL, 'E' },
		{ "min", required_argument, NULL, 'n' },
		{ "max", required_argument, NULL, 'x' },
		{ "slow", required_argument, NULL, 'S' },
		{ "keep", required_argument, NULL, 'k' },
		{ "stack", required_argument, NULL, 'F' },
		{ "folded", no_argument, NULL, 'G' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	if (o->trace)	/* trace's --cpu is a filter: the CPU N */
		lo[1] = (struct option){ "cpu", required_argument, NULL, 'u' };
	opterr = 0;
	optind = 0;	/* glibc: start afresh at argv[1] */
	while ((c = getopt_long(argc, argv, "+:b:d:i:c:o:hvPLDQ", lo, NULL)) != -1) {
		int r;

		/*
		 * A recipe's --pid without a number (at the end, or before
		 * another option) is runqlat's "a histogram per process", as
		 * --pids; --pid N stays the filter.
		 */
		if (o->nargs && is_recipe(o->args[0]) &&
		    ((c == ':' && optopt == 'p') ||
		     (c == 'p' && optarg[0] == '-' && optarg[1] &&
		      (optarg[1] < '0' || optarg[1] > '9')))) {
			if (c == 'p' && optarg == argv[optind - 1])
				optind--;	/* the option after --pid */
			o->seen |= O_PIDS;
			continue;
		}
		r = opt_number(c, optarg, o);

		if (r < 0)
			r = opt_other(c, optarg, o);
		if (r > 0)
			return r;
		if (r < 0)
			return usage_error("unknown option");
	}
	o->cpu = !!(o->seen & O_CPU);
	o->json = !!(o->seen & O_JSON);
	return 0;
}

/* Permute options after operands (GNU style) by parsing operand by operand. */
static int gather(int argc, char **argv, struct opts *o)
{
	o->alpha = 0.05;
	o->threshold = 0.05;
	o->buckets = EXPORT_BUCKETS;
	o->format = "prometheus";
	o->args = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->args)
		return fail("out of memory");
	while (argc > 0) {
		int r = parse_opts(argc, argv, o);

		if (r)
			return r;
		argv += optind;
		argc -= optind;
		/* "--" ends the options; diff takes it as the A/B separator */
		if (optind > 1 && !strcmp(argv[-1], "--") && o->nargs)
			o->args[o->nargs++] = argv[-1];
		if (argc <= 0)
			break;
		/* An operand; the next round starts after it. */
		o->args[o->nargs++] = argv[0];
		if (o->nargs == 1 && (!strcmp(argv[0], "trace") || is_recipe(argv[0])))
			o->trace = 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct opts *);
	} cmds[] = {
		{ "list", cmd_list }, { "show", cmd_show },
		{ "trace", cmd_trace }, { "watch", cmd_watch },
		{ "heatmap", cmd_heatmap }, { "diff", cmd_diff },
		{ "export", cmd_export },
	};
	struct opts o = { 0 };
	int ret;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	ret = gather(argc, argv, &o);
	if (ret)
		return ret;
	if (!o.nargs)
		return usage_error("no command given");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(o.args[0], cmds[i].name)) {
			o.args++;
			o.nargs--;
			ret = cmds[i].fn(&o);
			if (fflush(stdout) || ferror(stdout))
				ret = fail("writing the output failed: %s",
					   strerror(errno ? errno : EIO));
			free(o.args - 1);
			return ret;
		}
	if (is_recipe(o.args[0]))	/* recipe.c: runqlat, biolatency, ... */
		return cmd_recipe(&o);
	free(o.args);
	return usage_error("unknown command");
}
