// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - the options of each subcommand, as data: one table entry an
 * option (its names, its value, what it does), and each subcommand's list
 * of them.  The parser reads a command line with the list of its
 * subcommand, and the usage (kstats help CMD, kstats CMD --help) is
 * printed from the same list, so that they cannot differ; an unknown
 * command or option is named with the nearest valid word.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --- values -------------------------------------------------------------- */

static int num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

/*
 * The value of option @d, of its kind, into its field of @o: a number in
 * d->lo..d->hi (whole unless K_DBL), a string, or the option's own
 * setter.  0, or a usage error saying d->bad.
 */
static int set_value(struct opts *o, const struct optdef *d, const char *a)
{
	char *field = (char *)o + d->off;
	double v;

	switch (d->kind) {
	case K_FLAG:
		return 0;
	case K_STR:
		*(const char **)field = a;
		return 0;
	case K_FN:
		return d->set(o, a);
	default:
		break;
	}
	if (num(a, d->lo, d->hi, &v) ||
	    (d->kind != K_DBL && v != (double)(long long)v))
		return usage_error(d->bad);
	if (d->kind == K_DBL)
		*(double *)field = v;
	else if (d->kind == K_LONG)
		*(long *)field = (long)v;
	else if (d->kind == K_UINT)
		*(unsigned int *)field = (unsigned int)v;
	else
		*(int *)field = (int)v;
	return 0;
}

static int set_all_rows(struct opts *o, const char *a)
{
	(void)a;
	o->rows = 0;
	return 0;
}

/* --threshold: a percentage, "5" or "5%", kept as a fraction. */
static int set_threshold(struct opts *o, const char *a)
{
	char buf[32];
	size_t n = strlen(a);

	if (n && a[n - 1] == '%' && n < sizeof(buf)) {
		memcpy(buf, a, n - 1);
		buf[n - 1] = '\0';
		a = buf;
	}
	if (num(a, 1e-6, 1e6, &o->threshold))
		return usage_error("--threshold takes a percentage, more than 0 (5 or 5%)");
	o->threshold /= 100;
	return 0;
}

static int set_format(struct opts *o, const char *a)
{
	if (strcmp(a, "prometheus") && strcmp(a, "json"))
		return usage_error("--format is prometheus or json");
	o->format = a;
	return 0;
}

static int set_if(struct opts *o, const char *a)
{
	if (o->nifs == MAX_IFS)
		return usage_error("--if is given at most 4 times");
	o->ifs[o->nifs++] = a;
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

static int set_slow(struct opts *o, const char *a)
{
	double v;

	if (num(a, 0, 9.2e18, &v) || v != (double)(long long)v)
		return usage_error("--slow takes a value in the node's unit (ns for a time), 0 or more");
	o->slow_set = 1;
	o->slow = (unsigned long long)v;
	return 0;
}

/* --min and --max: microseconds, kept in ns. */
static int set_us(struct opts *o, const char *a, long long *ns)
{
	double v;

	(void)o;
	if (num(a, 0, 1e12, &v))
		return usage_error("--min and --max take microseconds, 0 or more");
	*ns = (long long)(v * 1000);
	return 0;
}

static int set_min(struct opts *o, const char *a)
{
	return set_us(o, a, &o->min_ns);
}

static int set_max(struct opts *o, const char *a)
{
	return set_us(o, a, &o->max_ns);
}

static int set_root(struct opts *o, const char *a)
{
	(void)o;
	root = a;
	return 0;
}

/* --- the options --------------------------------------------------------- */

#define F(field) offsetof(struct opts, field)
/* a flag; a string; a number (kind K) of field F in lo..hi; a setter */
#define FLAG(id, lng, sh, bit, text) \
	static const struct optdef id = { lng, sh, NULL, K_FLAG, 0, 0, 0, NULL, \
					  NULL, text, bit, 0 }
#define STR(id, lng, sh, arg, f, bit, fl, text) \
	static const struct optdef id = { lng, sh, arg, K_STR, F(f), 0, 0, NULL, \
					  NULL, text, bit, fl }
#define NUM(id, lng, sh, arg, k, f, lo, hi, bad, bit, fl, text) \
	static const struct optdef id = { lng, sh, arg, k, F(f), lo, hi, bad, \
					  NULL, text, bit, fl }
#define FN(id, lng, sh, arg, fn, bit, fl, text) \
	static const struct optdef id = { lng, sh, arg, K_FN, 0, 0, 0, NULL, \
					  fn, text, bit, fl }

FLAG(o_cpu_table, "cpu", 0, O_CPU, "each CPU's percentiles, side by side");
FLAG(o_json, "json", 0, O_JSON, "as JSON: header, summary, per CPU, slots");
FLAG(o_folded, "folded", 0, O_FOLDED,
     "a family's keys a line: FRAMES VALUE (flamegraph)");
NUM(o_rows, "rows", 0, "N", K_INT, rows, 4, 100000,
    "--rows takes a number from 4 to 100000", O_ROWS, 0,
    "at most N rows a histogram (40), slots merged");
FN(o_all_rows, "all-rows", 0, NULL, set_all_rows, O_ROWS, 0,
   "every slot a row, empty ones too");
NUM(o_top, "top", 0, "K", K_UINT, top, 1, 1e9,
    "--top takes a count of keys, 1 or more", O_TOP, 0,
    "a family's K largest keys only");
FN(o_sort, "sort", 0, "samples|p99|total", set_sort, O_SORT, 0,
   "a family's keys by their samples, p99 or total");
NUM(o_bits, "bits", 'b', "BITS", K_UINT, bits, 0, KSTATS_MAX_FRAC_BITS,
    "-b takes frac_bits, an integer 0..5", O_BITS, 0,
    "2^BITS slots per power of two, 0..5 (default 3)");
NUM(o_dur, "duration", 'd', "SECS", K_DBL, dur, 0.001, 1e7,
    "-d takes seconds, more than 0", O_DUR, 0,
    "for SECS seconds (default: to Ctrl-C or COMMAND's end)");
NUM(o_int, "interval", 'i', "SECS", K_DBL, interval, 0.001, 1e7,
    "-i takes seconds, more than 0", O_INT, 0,
    "a histogram each SECS seconds");
STR(o_value, "value", 0, "EXPR", value, O_VALUE, OPT_ONCE,
    "record EXPR: ret, a parameter, *param, a->b.c");
FN(o_if, "if", 0, "'EXPR OP C'", set_if, O_IF, OPT_REPEAT,
   "only if EXPR OP C (== != < <= > >= &), up to 4");
NUM(o_pid, "pid", 0, "N", K_LONG, pid, 0, 2147483647,
    "--pid takes a process id, 0 or more", O_PID, 0,
    "only in process N (its threads)");
NUM(o_tid, "tid", 0, "N", K_LONG, tid, 0, 2147483647,
    "--tid takes a thread id, 0 or more", O_TID, 0, "only in thread N");
FN(o_comm, "comm", 0, "NAME", set_comm, O_COMM, 0, "only in tasks named NAME");
NUM(o_cpu_filter, "cpu", 0, "N", K_LONG, tcpu, 0, 65535,
    "--cpu takes a CPU number, 0 or more", O_TCPU, 0, "only on CPU N");
FN(o_cgroup, "cgroup", 0, "PATH", set_cgroup, O_CGROUP, 0,
   "only in the cgroup v2 at PATH, or under it");
STR(o_by, "by", 0, "KEY", by, O_BY, OPT_ONCE,
    "a histogram per KEY: comm pid tid cpu cgroup\n"
    "caller stack[:N] func, or an EXPR");
NUM(o_max_keys, "max-keys", 0, "N", K_LONG, max_keys, 1, 65536,
    "--max-keys takes a count from 1 to 65536", O_MAXKEYS, 0,
    "with --by: at most N keys (64), more in 'other'");
FN(o_slow, "slow", 0, "V", set_slow, O_SLOW, OPT_ONCE,
   "keep the samples of V or more, with their task");
NUM(o_keep, "keep", 0, "M", K_LONG, keep, 1, 65536,
    "--keep takes a count from 1 to 65536", O_OUTLIERS, 0,
    "with --slow: keep the newest M (default 256)");
NUM(o_stack, "stack", 0, "N", K_LONG, stack, 1, 64,
    "--stack takes a count of frames from 1 to 64", O_OUTLIERS, 0,
    "with --slow, --top: N frames of their stack");
FLAG(o_verbose, "verbose", 'v', O_VERBOSE,
     "the lines written to _control, on stderr");
FLAG(o_follow, "follow", 0, O_FOLLOW,
     "with -- COMMAND: its children too (a cgroup)");
FLAG(o_self, "self", 0, O_SELF, "count kstats' own calls too (left out)");
NUM(o_tr_top, "top", 0, "K", K_UINT, top, 1, 1e9,
    "--top takes a count, 1 or more", O_TOP, 0,
    "keep the K largest samples; a family's K keys");
FN(o_min, "min", 0, "US", set_min, O_MIN, 0,
   "only durations of US microseconds or more");
FN(o_max, "max", 0, "US", set_max, O_MAX, 0,
   "only durations of US microseconds or less");
FLAG(o_pids, "pids", 'P', O_PIDS, "a histogram per woken process");
FLAG(o_tids, "tids", 'L', O_TIDS, "a histogram per woken thread");
FLAG(o_disk, "disk", 'D', O_DISK, "a histogram per disk");
FLAG(o_queued, "queued", 'Q', O_QUEUED,
     "from the insertion in the I/O scheduler");
FLAG(o_idle, "idle", 0, O_IDLE, "count the idle task too");
NUM(o_rq_pid, "pid", 0, "N", K_LONG, pid, 0, 2147483647,
    "--pid takes a process id, 0 or more", O_PID, OPT_PID_OR_PIDS,
    "only process N woken (no N: as --pids)");
NUM(o_count, "count", 'c', "COUNT", K_LONG, count, 1, 1e9,
    "-c takes a count, 1 or more", O_COUNT, 0, "stop after COUNT intervals");
STR(o_output, "output", 'o', "FILE", out, O_OUT, 0,
    "write to FILE (- for standard output)");
FN(o_threshold, "threshold", 0, "PCT", set_threshold, O_THRESH, 0,
   "smallest change that counts, % (default 5)");
NUM(o_alpha, "alpha", 0, "P", K_DBL, alpha, 1e-300, 0.5,
    "--alpha takes a probability in (0, 0.5]", O_ALPHA, 0,
    "false-positive rate (default 0.05)");
FN(o_format, "format", 0, "prometheus|json", set_format, O_FORMAT, 0,
   "the output's format (default prometheus)");
STR(o_host, "host", 0, "H", host, O_HOST, 0,
    "the host label (Prometheus), host (JSON)");
NUM(o_buckets, "buckets", 0, "N", K_UINT, buckets, 2, 100000,
    "--buckets takes a count from 2 to 100000", O_BUCKETS, 0,
    "at most N buckets, +Inf included (64)");
STR(o_export_out, "output", 'o', "FILE", out, O_OUT, 0,
    "write FILE whole, then rename it (- stdout)");

/* Every subcommand takes these; the parser knows them anywhere. */
FN(o_root, "root", 0, "DIR", set_root, 0, 0,
   "where the distributions are (default:\n" KSTATS_ROOT ")");
FLAG(o_help, "help", 'h', 0, "this text");

#define END NULL

static const struct optdef *const no_opts[] = { END };
static const struct optdef *const show_opts[] = {
	&o_cpu_table, &o_json, &o_folded, &o_rows, &o_all_rows, &o_top, &o_sort,
	END,
};
/* what trace and every recipe take: first, the filters; last, the output */
#define LIVE_FIRST &o_bits, &o_dur, &o_int
#define LIVE_FILTERS &o_tid, &o_comm, &o_cpu_filter, &o_cgroup, &o_by, \
	&o_max_keys, &o_sort
#define LIVE_LAST &o_folded, &o_rows, &o_all_rows, &o_follow, &o_self, \
	&o_verbose
static const struct optdef *const trace_opts[] = {
	LIVE_FIRST, &o_value, &o_if, &o_pid, LIVE_FILTERS, &o_tr_top, &o_slow,
	&o_keep, &o_stack, LIVE_LAST, END,
};
#define RECIPE_FIRST LIVE_FIRST
#define RECIPE_FILTERS LIVE_FILTERS, &o_top, &o_min, &o_max
static const struct optdef *const recipe_opts[] = {
	RECIPE_FIRST, &o_pid, RECIPE_FILTERS, LIVE_LAST, END,
};
static const struct optdef *const runqlat_opts[] = {
	RECIPE_FIRST, &o_rq_pid, RECIPE_FILTERS, &o_pids, &o_tids, LIVE_LAST,
	END,
};
static const struct optdef *const biolatency_opts[] = {
	RECIPE_FIRST, &o_pid, RECIPE_FILTERS, &o_disk, &o_queued, LIVE_LAST,
	END,
};
static const struct optdef *const offcpu_opts[] = {
	RECIPE_FIRST, &o_pid, RECIPE_FILTERS, &o_idle, LIVE_LAST, END,
};
static const struct optdef *const watch_opts[] = { &o_int, &o_count, END };
static const struct optdef *const heatmap_opts[] = {
	&o_int, &o_dur, &o_output, END,
};
static const struct optdef *const diff_opts[] = {
	&o_threshold, &o_alpha, END,
};
static const struct optdef *const export_opts[] = {
	&o_format, &o_host, &o_buckets, &o_export_out, END,
};
static const struct optdef *const global_opts[] = { &o_root, &o_help, END };

/* --- the subcommands ----------------------------------------------------- */

#define RECIPE(n, a, o, s)						\
	{ .name = n, .args = a, .opts = o, .fn = cmd_recipe,		\
	  .flags = CMD_RUN | CMD_RECIPE, .summary = s }

const struct cmddef cmds[] = {
	{ .name = "list", .opts = no_opts, .fn = cmd_list,
	  .summary = "the distributions: file, clock, samples, state" },
	{ .name = "show", .args = "NAME|FILE", .opts = show_opts,
	  .fn = cmd_show,
	  .summary = "a distribution's summary, outliers and histogram" },
	{ .name = "trace", .args = "FUNC|GLOB|F1,F2,...|tp:GROUP:EVENT|PATH:SYMBOL",
	  .opts = trace_opts, .fn = cmd_trace, .flags = CMD_RUN,
	  .summary = "how long FUNC takes, or EXPR's values, for whom" },
	RECIPE("runqlat", NULL, runqlat_opts,
	       "run-queue latency: enqueued to running"),
	RECIPE("biolatency", NULL, biolatency_opts,
	       "block I/O latency: issue to completion"),
	RECIPE("syscall", "[NAME]", recipe_opts,
	       "system call latency, of NAME or a histogram per call"),
	RECIPE("lockwait", NULL, recipe_opts,
	       "lock contention: wait to acquisition"),
	RECIPE("softirq", NULL, recipe_opts,
	       "softirq duration, a histogram per vector"),
	RECIPE("hardirq", NULL, recipe_opts,
	       "hardirq handler duration, a histogram per handler"),
	RECIPE("offcpu", NULL, offcpu_opts,
	       "off-CPU time: switched out to switched in"),
	{ .name = "watch", .args = "NAME|FILE FILE...", .opts = watch_opts,
	  .fn = cmd_watch,
	  .summary = "one line per interval: count, rate, p50 p90 p99 max" },
	{ .name = "heatmap", .args = "NAME|FILE FILE...", .opts = heatmap_opts,
	  .fn = cmd_heatmap, .summary = "a latency heatmap as an SVG" },
	{ .name = "diff", .args = "A B | A1 A2 ... -- B1 B2 ...",
	  .opts = diff_opts, .fn = cmd_diff, .flags = CMD_SEP,
	  .summary = "did p50..p99.9 or the mean move? exit 0 no, 1 yes" },
	{ .name = "export", .args = "[NAME|FILE...]", .opts = export_opts,
	  .fn = cmd_export,
	  .summary = "Prometheus text or JSON of distributions" },
	{ .name = "help", .args = "[COMMAND]", .opts = no_opts, .fn = cmd_help,
	  .flags = CMD_WORDS,
	  .summary = "this text, or COMMAND's options" },
	{ .name = NULL },
};

/* --- the nearest word ---------------------------------------------------- */

/* The edit distance of @a and @b (a swap of two letters is one edit). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[33][33];

	if (la > 32 || lb > 32)
		return 99;
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			size_t v;

			if (!i || !j) {
				d[i][j] = i + j;
				continue;
			}
			v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
			v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * The word of @words (@n of them) nearest @w: within a third of its
 * length (at least 1, at most 3 edits), or one it begins; NULL if none.
 */
const char *nearest(const char *w, const char *const *words, size_t n)
{
	size_t best = 99, lim = strlen(w) / 3;
	const char *pick = NULL;

	lim = lim < 1 ? 1 : lim > 3 ? 3 : lim;
	for (size_t i = 0; i < n; i++) {
		size_t d = distance(w, words[i]);

		if (d < best) {
			best = d;
			pick = words[i];
		}
	}
	if (best <= lim)
		return pick;
	for (size_t i = 0; *w && i < n; i++)
		if (!strncmp(words[i], w, strlen(w)))
			return words[i];
	return NULL;
}

const struct cmddef *find_cmd(const char *name)
{
	for (const struct cmddef *c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* "unknown command 'trcae'; did you mean 'trace'?" */
int unknown_command(const char *name)
{
	const char *words[64];
	size_t n = 0;
	const char *near;

	for (const struct cmddef *c = cmds; c->name && n < 64; c++)
		words[n++] = c->name;
	near = nearest(name, words, n);
	if (near)
		return fail("unknown command '%s'; did you mean '%s'? (kstats help)",
			    name, near);
	return fail("unknown command '%s' (kstats help lists them)", name);
}

/* --- parsing ------------------------------------------------------------- */

static const struct optdef *by_long(const struct optdef *const *l,
				    const char *name, size_t len, int *ambiguous)
{
	const struct optdef *hit = NULL;

	*ambiguous = 0;
	for (size_t i = 0; l[i]; i++)
		if (strlen(l[i]->name) == len && !strncmp(l[i]->name, name, len))
			return l[i];
	/* an unambiguous beginning, as getopt_long takes it */
	for (size_t i = 0; l[i]; i++)
		if (!strncmp(l[i]->name, name, len)) {
			if (hit && hit != l[i])
				*ambiguous = 1;
			hit = l[i];
		}
	return *ambiguous ? NULL : hit;
}

static const struct optdef *by_short(const struct optdef *const *l, char c)
{
	for (size_t i = 0; l[i]; i++)
		if (l[i]->shrt == c)
			return l[i];
	return NULL;
}

/* Whether the list @l has --@name exactly (or -@c when @name is NULL). */
static int takes(const struct optdef *const *l, const char *name, char c)
{
	for (size_t i = 0; l[i]; i++)
		if (name ? !strcmp(l[i]->name, name) : l[i]->shrt == c)
			return 1;
	return 0;
}

/* Which subcommands take --NAME (or -C): "diff, export", for a hint. */
static void whose(const char *name, char c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct cmddef *cd = cmds; cd->name; cd++) {
		if (!takes(cd->opts, name, c))
			continue;
		if (n + strlen(cd->name) + 8 >= len) {
			snprintf(buf + n, len - n, ", ...");
			return;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      cd->name);
	}
}

/* An option the subcommand @c does not take, named, with the nearest. */
static int unknown_option(const struct cmddef *c, const char *arg)
{
	const char *words[64], *near = NULL;
	char others[160], lname[64];
	size_t n = 0;

	if (arg[1] == '-') {
		snprintf(lname, sizeof(lname), "%.*s", (int)strcspn(arg + 2, "="),
			 arg + 2);
		for (size_t i = 0; c->opts[i] && n < 62; i++)
			words[n++] = c->opts[i]->name;
		words[n++] = "root";
		words[n++] = "help";
		near = nearest(lname, words, n);
		whose(lname, 0, others, sizeof(others));
		if (*others)
			return usage_error_for(c, "'--%s' is not an option of '%s' (it is of: %s)",
					       lname, c->name, others);
		if (near)
			return usage_error_for(c, "unknown option '--%s' for '%s'; did you mean '--%s'?",
					       lname, c->name, near);
		return usage_error_for(c, "unknown option '--%s' for '%s'",
				       lname, c->name);
	}
	whose(NULL, arg[1], others, sizeof(others));
	if (*others)
		return usage_error_for(c, "'-%c' is not an option of '%s' (it is of: %s)",
				       arg[1], c->name, others);
	return usage_error_for(c, "unknown option '-%c' for '%s'", arg[1],
			       c->name);
}

/*
 * Set option @d with @val (NULL for a flag); -h prints @c's usage.  A
 * second time, the last value counts, but for the options said once.
 */
static int apply(struct opts *o, const struct cmddef *c,
		 const struct optdef *d, const char *val)
{
	if (d == &o_help) {
		print_help(stdout, c);
		exit(fflush(stdout) ? EXIT_ERROR : 0);
	}
	if ((d->flags & OPT_ONCE) && (o->seen & d->bit))
		return usage_error_for(c, "--%s is given once", d->name);
	o->seen |= d->bit;
	return set_value(o, d, val);
}

/*
 * runqlat's --pid without a number (at the end, or before another
 * option) is "a histogram per process", as --pids.
 */
static int pid_is_pids(const struct optdef *d, const char *next)
{
	return (d->flags & OPT_PID_OR_PIDS) &&
	       (!next || (next[0] == '-' && next[1] &&
			  (next[1] < '0' || next[1] > '9')));
}

/* argv[*i], an option of @c (or a global one); *i moves past its value. */
static int one_option(struct opts *o, const struct cmddef *c, int argc,
		      char **argv, int *i)
{
	const char *arg = argv[*i], *val = NULL, *eq;
	const struct optdef *d;
	int amb;

	if (arg[1] == '-') {
		size_t len = strcspn(arg + 2, "=");

		d = by_long(c->opts, arg + 2, len, &amb);
		if (!d && !amb)
			d = by_long(global_opts, arg + 2, len, &amb);
		if (amb)
			return usage_error_for(c, "option '%s' is ambiguous for '%s': write it whole",
					       arg, c->name);
		if (!d)
			return unknown_option(c, arg);
		eq = arg[2 + len] == '=' ? arg + 3 + len : NULL;
		if (eq && !d->arg)
			return usage_error_for(c, "--%s takes no value", d->name);
		if (d->arg && !eq && pid_is_pids(d, *i + 1 < argc ? argv[*i + 1] : NULL)) {
			o->seen |= O_PIDS;
			return 0;
		}
		if (d->arg) {
			if (!eq && *i + 1 >= argc)
				return usage_error_for(c, "--%s needs its value, %s",
						       d->name, d->arg);
			val = eq ? eq : argv[++*i];
		}
		return apply(o, c, d, val);
	}
	/* -x, -xVALUE, -x VALUE; flags may run together: -vP */
	for (const char *p = arg + 1; *p; p++) {
		char one[3] = { '-', *p, '\0' };
		int r;

		d = by_short(c->opts, *p);
		if (!d)
			d = by_short(global_opts, *p);
		if (!d)
			return unknown_option(c, one);
		if (!d->arg) {
			r = apply(o, c, d, NULL);
			if (r)
				return r;
			continue;
		}
		if (p[1]) {
			val = p + 1;
		} else {
			if (*i + 1 >= argc)
				return usage_error_for(c, "-%c needs its value, %s",
						       *p, d->arg);
			val = argv[++*i];
		}
		return apply(o, c, d, val);
	}
	return 0;
}

/*
 * kstats [--root DIR] [-h] COMMAND [ARGS and options, in any order]
 * [-- COMMAND'S COMMAND...]: *@cmd the subcommand, its operands in
 * o->args, the command after "--" in o->run (trace and the recipes); for
 * diff, "--" is an operand (A... -- B...).  0, or the exit status.
 */
int parse_args(int argc, char **argv, struct opts *o, const struct cmddef **cmd)
{
	static const struct cmddef global = { .name = "kstats",
					      .opts = global_opts };
	const struct cmddef *c = NULL;
	int i, r;

	o->alpha = 0.05;
	o->threshold = 0.05;
	o->buckets = EXPORT_BUCKETS;
	o->format = "prometheus";
	o->rows = HIST_ROWS;
	o->args = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->args)
		return fail("out of memory");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (c && !strcmp(a, "--")) {
			if (c->flags & CMD_SEP) {
				o->args[o->nargs++] = argv[i];
				continue;
			}
			if (c->flags & CMD_RUN) {
				o->run = argv + i + 1;
				o->nrun = argc - i - 1;
				break;
			}
			for (i++; i < argc; i++)	/* operands alone */
				o->args[o->nargs++] = argv[i];
			break;
		}
		if (a[0] == '-' && a[1] &&
		    !(c && (c->flags & CMD_WORDS) && strcmp(a, "-h") && strcmp(a, "--help"))) {
			if (!c && strcmp(a, "-h") && strncmp(a, "--h", 3) &&
			    strncmp(a, "--root", 6))
				return usage_error("options go after the command: kstats COMMAND [options] (kstats help)");
			r = one_option(o, c ? c : &global, argc, argv, &i);
			if (r)
				return r;
			continue;
		}
		if (!c) {
			c = find_cmd(a);
			if (!c)
				return unknown_command(a);
			continue;
		}
		o->args[o->nargs++] = argv[i];
	}
	if (!c) {
		print_help(stderr, NULL);
		return usage_error("no command given");
	}
	o->cmd = c->name;
	o->cpu = !!(o->seen & O_CPU);
	o->json = !!(o->seen & O_JSON);
	o->folded = !!(o->seen & O_FOLDED);
	*cmd = c;
	return 0;
}

/* --- usage --------------------------------------------------------------- */

/* "[-b BITS]", "[--if 'EXPR OP C']...", "[-v]": one option in a synopsis. */
static int syn_option(char *buf, size_t len, const struct optdef *d)
{
	char name[48];

	if (d->shrt)
		snprintf(name, sizeof(name), "-%c", d->shrt);
	else
		snprintf(name, sizeof(name), "--%s", d->name);
	return snprintf(buf, len, "[%s%s%s]%s", name, d->arg ? " " : "",
			d->arg ? d->arg : "",
			d->flags & OPT_REPEAT ? "..." : "");
}

/*
 * The synopsis of @c, wrapped at @width with @indent before each further
 * line: "kstats trace FUNC... [-b BITS] ... [-- COMMAND [ARGS]]".
 */
void print_synopsis(FILE *f, const struct cmddef *c, int width, int indent,
		    int col)
{
	char item[96];

	col += fprintf(f, "kstats %s%s%s", c->name, c->args ? " " : "",
		       c->args ? c->args : "");
	for (size_t i = 0; c->opts[i]; i++) {
		int n = syn_option(item, sizeof(item), c->opts[i]);

		if (width && col + 1 + n > width) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
		} else {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%s", item);
	}
	if (c->flags & CMD_RUN) {
		if (width && col + 22 > width)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		else
			fputc(' ', f);
		fprintf(f, "[-- COMMAND [ARGS]]");
	}
	fputc('\n', f);
}

/* One option's line: "  -b, --bits BITS      what it does". */
static void help_option(FILE *f, const struct optdef *d)
{
	char names[64];
	const char *h = d->help;

	snprintf(names, sizeof(names), "%c%c%c --%s%s%s", d->shrt ? '-' : ' ',
		 d->shrt ? d->shrt : ' ', d->shrt ? ',' : ' ', d->name,
		 d->arg ? " " : "", d->arg ? d->arg : "");
	if (strlen(names) > 24)
		fprintf(f, "  %s\n  %-24s ", names, "");
	else
		fprintf(f, "  %-24s ", names);
	for (; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "  %-24s ", "");
	}
	fputc('\n', f);
}

static const char general[] =
"  NAME is a distribution under --root (default " KSTATS_ROOT "),\n"
"  FILE a saved snapshot: cat " KSTATS_ROOT "/NAME > FILE.\n"
"  trace and the recipes run COMMAND after --, and trace it alone.\n"
"  Exit status 2 on any error (diff: 1 when it finds a difference).\n"
"\n"
"  eg,\n"
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
"       kstats diff before.txt after.txt     # regression gate\n"
"       kstats export > /var/lib/node_exporter/kstats.prom\n";

/*
 * The usage of @c (NULL: of kstats, every subcommand a line), from the
 * tables the parser reads.
 */
void print_help(FILE *f, const struct cmddef *c)
{
	if (!c || !strcmp(c->name, "kstats")) {
		fprintf(f, "USAGE: kstats [--root DIR] COMMAND [options] [ARGS]\n\nCommands:\n");
		for (c = cmds; c->name; c++)
			fprintf(f, "  %-11s %s\n", c->name, c->summary);
		fprintf(f, "\n  kstats help COMMAND, or kstats COMMAND --help: its options.\n"
			"  -h, --help: this text.\n%s\nSee the man page kstats(8).\n",
			general);
		return;
	}
	print_synopsis(f, c, 78, 8, fprintf(f, "USAGE: "));
	fprintf(f, "\n  %c%s.\n", c->summary[0] >= 'a' && c->summary[0] <= 'z' ?
		c->summary[0] - 'a' + 'A' : c->summary[0], c->summary + 1);
	if (c->flags & CMD_RUN)
		fprintf(f, "  Traced for -d SECS, until Ctrl-C, or with -- COMMAND, while COMMAND\n"
			"  runs (its process alone, or with --follow its children too).\n");
	fprintf(f, "\nOptions:\n");
	for (size_t i = 0; c->opts[i]; i++)
		help_option(f, c->opts[i]);
	for (size_t i = 0; global_opts[i]; i++)
		help_option(f, global_opts[i]);
	fprintf(f, "\nSee the man page kstats(8).\n");
}

/*
 * kstats help [COMMAND]; "help --synopsis" prints every subcommand's
 * synopsis a line (what the man page's SYNOPSIS must say), "help
 * --options [COMMAND]" each option "COMMAND --NAME [-X] [ARG]" (for
 * scripts: completion, the documentation's checks).
 */
int cmd_help(struct opts *o)
{
	const struct cmddef *c;

	if (o->nargs >= 1 && !strcmp(o->args[0], "--synopsis")) {
		for (c = cmds; c->name; c++)
			if (strcmp(c->name, "help"))
				print_synopsis(stdout, c, 0, 0, 0);
		return 0;
	}
	if (o->nargs >= 1 && !strcmp(o->args[0], "--options")) {
		for (c = cmds; c->name; c++) {
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
		print_help(stdout, NULL);
		return 0;
	}
	c = find_cmd(o->args[0]);
	if (!c)
		return unknown_command(o->args[0]);
	print_help(stdout, c);
	return 0;
}
