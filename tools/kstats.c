// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - read, watch, compare and export kstats distributions.
 *
 * The command line, the subcommands, and the live side: finding
 * distributions under debugfs (or --root), _control writes, signals.
 * See kstats.8 and kstats_example.txt.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "kstats_tool.h"

#define DEBUGFS		"/sys/kernel/debug"
#define DEBUGFS_MAGIC	0x64626720
#define LOCKDOWN_FILE	"/sys/kernel/security/lockdown"

static const char usage[] =
"USAGE: kstats [--root DIR] COMMAND [options]\n"
"\n"
"  list                                  distributions: clock, samples, state\n"
"  show NAME|FILE [--cpu] [--json] [--rows N]\n"
"                                        summary and histogram (--cpu: each\n"
"                                        CPU's percentiles side by side)\n"
"  trace FUNC [-b BITS] [-d SECS] [-i SECS]\n"
"                                        how long FUNC takes: trace it, print\n"
"                                        the histogram, remove the node\n"
"  watch NAME -i SECS [-c COUNT]         one line per interval: count, rate,\n"
"  watch FILE FILE... [-i SECS]          p50 p90 p99 max of the delta\n"
"  heatmap NAME -i SECS -d SECS -o F.svg latency heatmap as SVG\n"
"  heatmap FILE FILE... [-i SECS] -o F.svg   (from cumulative snapshots)\n"
"  diff A B [--alpha A] [--min-effect D] side by side + KS test; exit 0 same,\n"
"                                        1 different, 2 error\n"
"  export [--format prometheus|json] [--host H] [NAME|FILE...]\n"
"                                        Prometheus text or JSON\n"
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
"       kstats watch tx_path -i 1            # warm-up, phase changes\n"
"       kstats diff before.txt after.txt     # regression gate\n"
"       kstats export > /var/lib/node_exporter/kstats.prom\n"
"\n"
"See the man page kstats(8) and kstats_example.txt for examples.\n";

static const char *root = KSTATS_ROOT;
static volatile sig_atomic_t stop_now;

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("kstats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

static int usage_error(const char *what)
{
	fprintf(stderr, "kstats: %s (kstats --help for usage)\n", what);
	return EXIT_ERROR;
}

/*
 * The lockdown mode in force ("integrity" or "confidentiality"), from the
 * bracketed word of securityfs' lockdown file; NULL if none or unknown.
 */
static const char *lockdown_mode(char *buf, size_t len)
{
	char line[128], *lb, *rb;
	FILE *f = fopen(LOCKDOWN_FILE, "r");

	if (!f)
		return NULL;
	lb = fgets(line, sizeof(line), f) ? strchr(line, '[') : NULL;
	fclose(f);
	rb = lb ? strchr(lb, ']') : NULL;
	if (!rb)
		return NULL;
	*rb = '\0';
	if (!strcmp(lb + 1, "none"))
		return NULL;
	snprintf(buf, len, "%s", lb + 1);
	return buf;
}

/*
 * PATH refused with EACCES or EPERM.  Root gets EPERM from debugfs only
 * when the kernel is locked down, which no change of user can fix.
 */
static int access_error(const char *path, int err)
{
	char mode[32];

	if (err == EPERM && !geteuid()) {
		if (lockdown_mode(mode, sizeof(mode)))
			return fail("%s: the kernel is locked down (%s): debugfs "
				    "refuses access even to root on this boot",
				    path, mode);
		return fail("%s: operation not permitted, even to root: is the "
			    "kernel locked down? (see dmesg and " LOCKDOWN_FILE
			    ")", path);
	}
	return fail("permission denied on %s: run as root (debugfs is "
		    "readable by root only)", path);
}

/* Why the distribution directory cannot be used, with the fix. */
static int root_error(int err)
{
	struct statfs sf;

	if (err == EACCES || err == EPERM)
		return access_error(root, err);
	if (strcmp(root, KSTATS_ROOT))
		return fail("%s: %s: check --root", root, strerror(err));
	if (statfs(DEBUGFS, &sf) || sf.f_type != DEBUGFS_MAGIC)
		return fail("debugfs is not mounted on " DEBUGFS ": mount -t "
			    "debugfs none " DEBUGFS);
	return fail("the kstats module is not loaded (no " KSTATS_ROOT "): "
		    "modprobe kstats, or insmod kstats.ko");
}

static int root_ok(void)
{
	struct stat st;

	if (stat(root, &st))
		return root_error(errno);
	if (!S_ISDIR(st.st_mode))
		return fail("%s is not a directory: check --root", root);
	return 0;
}

/*
 * NAME|FILE: a path with a '/' is a file; otherwise the distribution under
 * the root if there is one, else a file of that name in this directory.
 */
static int resolve(const char *arg, char *path, size_t len)
{
	struct stat st;
	int err;

	if (strchr(arg, '/') || !valid_name(arg)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	snprintf(path, len, "%s/%s", root, arg);
	if (!stat(path, &st))
		return 0;
	err = errno;
	if (!stat(arg, &st)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	if (err != ENOENT || stat(root, &st))
		return root_error(err == ENOENT ? errno : err);
	return fail("no distribution '%s' in %s and no file '%s': see "
		    "'kstats list'", arg, root, arg);
}

static int load(const char *arg, struct snapshot *s)
{
	char path[PATH_MAX + 64], err[768];
	int r;

	if (resolve(arg, path, sizeof(path)))
		return EXIT_ERROR;
	r = snapshot_load(s, path, err, sizeof(err));
	if (r == -EACCES || r == -EPERM)
		return access_error(path, -r);
	if (r == -ENOENT)
		return fail("%s: no such file", path);
	if (r == -EINVAL)
		return fail("%s (see Documentation/format.rst)",
			    err);
	if (r)
		return fail("%s", err);
	return 0;
}

/* --- options ------------------------------------------------------------ */

enum {
	O_CPU = 1 << 0, O_JSON = 1 << 1, O_ROWS = 1 << 2, O_BITS = 1 << 3,
	O_DUR = 1 << 4, O_INT = 1 << 5, O_COUNT = 1 << 6, O_OUT = 1 << 7,
	O_ALPHA = 1 << 8, O_EFFECT = 1 << 9, O_FORMAT = 1 << 10,
	O_HOST = 1 << 11,
};

struct opts {
	unsigned int seen;
	int cpu, json, rows;
	unsigned int bits;
	double dur, interval, alpha, min_effect;
	long count;
	const char *out, *format, *host;
	char **args;
	int nargs;
};

static int num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "root", required_argument, NULL, 'R' },
		{ "cpu", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "rows", required_argument, NULL, 'r' },
		{ "bits", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-effect", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "host", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double v;
	int c;

	opterr = 0;
	optind = 0;	/* glibc: start afresh at argv[1] */
	while ((c = getopt_long(argc, argv, "+:b:d:i:c:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'R':
			root = optarg;
			break;
		case 'C':
			o->seen |= O_CPU;
			break;
		case 'J':
			o->seen |= O_JSON;
			break;
		case 'r':
			o->seen |= O_ROWS;
			if (num(optarg, 4, 100000, &v))
				return usage_error("--rows takes a number from 4 to 100000");
			o->rows = (int)v;
			break;
		case 'b':
			o->seen |= O_BITS;
			if (num(optarg, 0, KSTATS_MAX_FRAC_BITS, &v) ||
			    v != (int)v)
				return usage_error("-b takes frac_bits, an integer 0..5");
			o->bits = (unsigned int)v;
			break;
		case 'd':
			o->seen |= O_DUR;
			if (num(optarg, 0.001, 1e7, &o->dur))
				return usage_error("-d takes seconds, more than 0");
			break;
		case 'i':
			o->seen |= O_INT;
			if (num(optarg, 0.001, 1e7, &o->interval))
				return usage_error("-i takes seconds, more than 0");
			break;
		case 'c':
			o->seen |= O_COUNT;
			if (num(optarg, 1, 1e9, &v) || v != (long)v)
				return usage_error("-c takes a count, 1 or more");
			o->count = (long)v;
			break;
		case 'o':
			o->seen |= O_OUT;
			o->out = optarg;
			break;
		case 'a':
			o->seen |= O_ALPHA;
			if (num(optarg, 1e-300, 0.5, &o->alpha))
				return usage_error("--alpha takes a probability in (0, 0.5]");
			break;
		case 'e':
			o->seen |= O_EFFECT;
			if (num(optarg, 0, 1, &o->min_effect))
				return usage_error("--min-effect takes a distance 0..1");
			break;
		case 'f':
			o->seen |= O_FORMAT;
			o->format = optarg;
			if (strcmp(optarg, "prometheus") && strcmp(optarg, "json"))
				return usage_error("--format is prometheus or json");
			break;
		case 'H':
			o->seen |= O_HOST;
			o->host = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case ':':
			return usage_error("an option lacks its value");
		default:
			return usage_error("unknown option");
		}
	}
	o->cpu = !!(o->seen & O_CPU);
	o->json = !!(o->seen & O_JSON);
	return 0;
}

/* Permute options after operands (GNU style) by parsing operand by operand. */
static int gather(int argc, char **argv, struct opts *o)
{
	o->alpha = 0.05;
	o->min_effect = 0.02;
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
		if (argc <= 0)
			break;
		/* An operand; the next round starts after it. */
		o->args[o->nargs++] = argv[0];
	}
	return 0;
}

static int allowed(const struct opts *o, unsigned int mask, const char *cmd)
{
	if (o->seen & ~mask) {
		char msg[96];

		snprintf(msg, sizeof(msg), "option not valid for '%s'", cmd);
		return usage_error(msg);
	}
	return 0;
}

/* --- live helpers ------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	stop_now = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep @secs unless a signal asks to stop; returns -1 when stopped. */
static int nap(double secs)
{
	struct timespec ts = { .tv_sec = (time_t)secs,
			       .tv_nsec = (long)((secs - floor(secs)) * 1e9) };

	while (!stop_now && nanosleep(&ts, &ts) && errno == EINTR)
		;
	return stop_now ? -1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int control(const char *cmd)
{
	char path[PATH_MAX];
	size_t len = strlen(cmd);
	int fd, e;

	snprintf(path, sizeof(path), "%s/_control", root);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT) {
			struct stat st;

			if (stat(root, &st))
				return root_error(errno);
		}
		if (e == EACCES || e == EPERM)
			return access_error(path, e);
		return e == ENOENT ? fail("%s: no such file: is the kstats module loaded?", path)
				   : root_error(e);
	}
	if (write(fd, cmd, len) != (ssize_t)len) {
		e = errno;
		close(fd);
		if (e == EEXIST)
			return fail("'%.*s': a distribution of that name exists: "
				    "remove it with echo remove NAME > %s",
				    (int)len - 1, cmd, path);
		return fail("'%.*s' refused by %s: %s (is the function "
			    "traceable? see available_filter_functions)",
			    (int)len - 1, cmd, path, strerror(e));
	}
	close(fd);
	return 0;
}

static int tty_rows(void)
{
	struct winsize ws;

	if (isatty(1) && !ioctl(1, TIOCGWINSZ, &ws) && ws.ws_row > 16)
		return ws.ws_row - 12;
	return isatty(1) ? 8 : 0;
}

/* --- subcommands -------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the distributions under the root, sorted; NULL on error. */
static char **scan_root(size_t *n, int *ret)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	*ret = root_ok();
	if (*ret)
		return NULL;
	d = opendir(root);
	if (!d) {
		*ret = root_error(errno);
		return NULL;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX + 256];
		struct stat st;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "_control"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;	/* directories of saved files, ... */
		if (*n == cap) {
			char **nn = realloc(names, (cap = cap * 2 + 16) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
		}
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names ? names : calloc(1, sizeof(char *));
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static int cmd_list(struct opts *o)
{
	size_t n;
	int ret = allowed(o, 0, "list");
	char **names;

	if (ret)
		return ret;
	if (o->nargs)
		return usage_error("list takes no arguments");
	names = scan_root(&n, &ret);
	if (!names)
		return ret;
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
		printf("%-24s %-6s %-6s %14llu %10llu %-8s\n", s.name, s.clock,
		       s.unit, (unsigned long long)s.samples,
		       (unsigned long long)s.missed, s.state);
		snapshot_free(&s);
	}
	if (!n)
		fprintf(stderr, "kstats: no distributions in %s (create one: "
			"echo new NAME > %s/_control)\n", root, root);
	free_names(names, n);
	return ret;
}

static int cmd_show(struct opts *o)
{
	struct snapshot s;
	int ret = allowed(o, O_CPU | O_JSON | O_ROWS, "show");

	if (ret)
		return ret;
	if (o->nargs != 1)
		return usage_error("show takes one NAME or FILE");
	if (load(o->args[0], &s))
		return EXIT_ERROR;
	if (o->json) {
		json_snapshot(stdout, &s, 0);
		putchar('\n');
	} else {
		print_show(stdout, &s, o->cpu, o->rows ? o->rows : tty_rows());
	}
	snapshot_free(&s);
	return 0;
}

static void watch_head(const char *unit)
{
	printf("%-8s %9s %12s %10s %9s %9s %9s %9s  %s\n", "INTERVAL", "TIME(s)",
	       "COUNT", "RATE/s", "P50", "P90", "P99", "MAX", "NOTE");
	(void)unit;
}

static void watch_line(long idx, double t, const struct kslot *d, size_t n,
		       double secs, const char *unit, const char *note)
{
	struct ksummary s;
	char a[32], b[32], c[32], e[32], rate[32], ts[32];

	hist_summary(d, n, &s);
	if (secs > 0)
		snprintf(rate, sizeof(rate), "%.1f", (double)s.samples / secs);
	else
		snprintf(rate, sizeof(rate), "-");
	if (t >= 0)
		snprintf(ts, sizeof(ts), "%.1f", t);
	else
		snprintf(ts, sizeof(ts), "-");
	printf("%-8ld %9s %12llu %10s %9s %9s %9s %9s  %s\n", idx, ts,
	       (unsigned long long)s.samples, rate,
	       fmt_value(a, sizeof(a), s.p50, unit),
	       fmt_value(b, sizeof(b), s.p90, unit),
	       fmt_value(c, sizeof(c), s.p99, unit),
	       fmt_value(e, sizeof(e), s.max, unit), note);
	fflush(stdout);
}

/* The delta @cur - @prev as a fresh table; frees nothing. */
static struct kslot *delta(const struct snapshot *cur,
			   const struct snapshot *prev, size_t *n, int *reset)
{
	if (cur->frac_bits != prev->frac_bits) {
		*reset = 1;
		return hist_delta(cur->slots, cur->nslots, NULL, 0, n, reset);
	}
	return hist_delta(cur->slots, cur->nslots, prev->slots, prev->nslots,
			  n, reset);
}

/*
 * Snapshots one after the other: live (re-reading @path every interval)
 * or the saved FILEs.  @fn gets each delta.
 */
struct series {
	struct opts *o;
	const char *path;	/* live, or NULL */
	long limit;		/* intervals, 0 for until Ctrl-C */
	void (*fn)(struct series *, long idx, double t0, double t1,
		   struct kslot *d, size_t n, int reset);
	struct snapshot first;
	void *ctx;
};

static int run_series(struct series *se)
{
	struct snapshot prev, cur;
	double start = now(), t0 = 0;
	long idx = 0, total = se->path ? se->limit : se->o->nargs - 1;

	if (load(se->path ? se->path : se->o->args[0], &prev))
		return EXIT_ERROR;
	se->first = prev;
	if (se->fn)
		se->fn(se, -1, 0, 0, prev.slots, prev.nslots, 0);
	if (se->path)
		catch_signals();
	while (!total || idx < total) {
		struct kslot *d;
		size_t n;
		int reset;
		double t1;

		if (se->path && nap(se->o->interval))
			break;
		if (load(se->path ? se->path : se->o->args[idx + 1], &cur)) {
			if (prev.slots != se->first.slots)
				snapshot_free(&prev);
			return EXIT_ERROR;
		}
		t1 = se->path ? now() - start
			      : (se->o->seen & O_INT) ? (idx + 1) * se->o->interval
						     : -1;
		if (strcmp(cur.unit, se->first.unit))
			return fail("%s: unit %s, but %s was %s", cur.source,
				    cur.unit, se->first.source, se->first.unit);
		d = delta(&cur, &prev, &n, &reset);
		if (!d)
			return fail("out of memory");
		se->fn(se, idx, t0, t1, d, n, reset);
		if (prev.slots != se->first.slots)
			snapshot_free(&prev);
		prev = cur;
		t0 = t1;
		idx++;
	}
	if (prev.slots != se->first.slots)
		snapshot_free(&prev);
	return 0;
}

static void watch_fn(struct series *se, long idx, double t0, double t1,
		     struct kslot *d, size_t n, int reset)
{
	const char *unit = se->first.unit;
	double secs = (se->o->seen & O_INT) ? se->o->interval : 0;

	if (idx < 0) {
		struct ksummary s;
		char a[32], b[32];

		hist_summary(d, n, &s);
		printf("Watching %s (%s)%s%s. Deltas since the previous "
		       "snapshot; interval 1 is the first.\n", se->first.name,
		       unit, se->path ? ", Ctrl-C to end" : ", from ",
		       se->path ? "" : "saved snapshots");
		printf("At start: %llu samples already recorded (p50 %s, "
		       "p99 %s).\n", (unsigned long long)s.samples,
		       fmt_value(a, sizeof(a), s.p50, unit),
		       fmt_value(b, sizeof(b), s.p99, unit));
		watch_head(unit);
		return;
	}
	if (se->path && t1 > t0)
		secs = t1 - t0;
	watch_line(idx + 1, t1, d, n, secs, unit,
		   reset ? "reset (counts went down: whole snapshot)" :
		   idx == 0 ? "<- first interval" : "");
	free(d);
}

static int cmd_watch(struct opts *o)
{
	struct series se = { .o = o, .fn = watch_fn };
	char path[PATH_MAX + 64];
	int ret = allowed(o, O_INT | O_COUNT, "watch");

	if (ret)
		return ret;
	if (o->nargs < 1)
		return usage_error("watch takes NAME -i SECS, or FILE FILE...");
	if (o->nargs == 1) {
		if (!(o->seen & O_INT))
			return usage_error("watch NAME needs -i SECONDS");
		if (resolve(o->args[0], path, sizeof(path)))
			return EXIT_ERROR;
		se.path = path;
		se.limit = o->count;
	} else if (o->seen & O_COUNT) {
		return usage_error("-c is for live watching");
	}
	ret = run_series(&se);
	snapshot_free(&se.first);
	return ret;
}

struct heatctx {
	struct heatcol *cols;
	size_t n, cap;
};

static void heat_fn(struct series *se, long idx, double t0, double t1,
		    struct kslot *d, size_t n, int reset)
{
	struct heatctx *h = se->ctx;

	(void)reset;
	if (idx < 0)
		return;
	if (h->n == h->cap) {
		struct heatcol *nc = realloc(h->cols, (h->cap = h->cap * 2 + 16) *
						      sizeof(*nc));
		if (!nc) {
			free(d);
			return;
		}
		h->cols = nc;
	}
	if (t1 < 0) {	/* saved snapshots without -i: one unit per step */
		t0 = (double)idx;
		t1 = (double)idx + 1;
	}
	h->cols[h->n++] = (struct heatcol){ .t0 = t0, .t1 = t1, .s = d, .n = n };
}

static int cmd_heatmap(struct opts *o)
{
	struct heatctx h = { 0 };
	struct series se = { .o = o, .fn = heat_fn, .ctx = &h };
	char path[PATH_MAX + 64], title[160];
	int ret = allowed(o, O_INT | O_DUR | O_OUT, "heatmap");
	FILE *f;

	if (ret)
		return ret;
	if (!o->out)
		return usage_error("heatmap needs -o FILE.svg");
	if (o->nargs < 1)
		return usage_error("heatmap takes NAME -i S -d S, or FILE FILE...");
	if (o->nargs == 1) {
		if ((o->seen & (O_INT | O_DUR)) != (O_INT | O_DUR))
			return usage_error("heatmap NAME needs -i SECONDS and -d SECONDS");
		if (resolve(o->args[0], path, sizeof(path)))
			return EXIT_ERROR;
		se.path = path;
		se.limit = (long)ceil(o->dur / o->interval - 1e-9);
		se.limit = se.limit < 1 ? 1 : se.limit;
	} else if (o->seen & O_DUR) {
		return usage_error("-d is for live heatmaps");
	}
	ret = run_series(&se);
	if (!ret) {
		for (size_t i = 0; i < h.n; i++)
			if (h.cols[i].s == NULL)
				ret = fail("out of memory");
	}
	if (!ret) {
		snprintf(title, sizeof(title), "%s latency heatmap (%s)",
			 se.first.name, se.first.unit);
		f = strcmp(o->out, "-") ? fopen(o->out, "w") : stdout;
		if (!f)
			ret = fail("cannot write %s: %s", o->out, strerror(errno));
		else if (heatmap_svg(f, title, se.first.unit,
				     se.first.frac_bits, h.cols, h.n) ||
			 (f != stdout ? fclose(f) : fflush(f)))
			ret = fail("writing %s failed", o->out);
		else if (f != stdout)
			fprintf(stderr, "kstats: wrote %s: %zu intervals\n",
				o->out, h.n);
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.cols[i].s);
	free(h.cols);
	snapshot_free(&se.first);
	return ret;
}

static void diff_row(const char *label, u64 a, u64 b, const char *unit)
{
	char x[32], y[32], r[32];

	if (a)
		snprintf(r, sizeof(r), "%.3f", (double)b / (double)a);
	else
		snprintf(r, sizeof(r), "-");
	printf("%-7s %14s %14s %8s\n", label, fmt_value(x, sizeof(x), a, unit),
	       fmt_value(y, sizeof(y), b, unit), r);
}

static int cmd_diff(struct opts *o)
{
	struct snapshot a, b;
	struct ksummary sa, sb;
	struct ks_result ks;
	int ret = allowed(o, O_ALPHA | O_EFFECT, "diff"), different;
	char at[32];

	if (ret)
		return ret;
	if (o->nargs != 2)
		return usage_error("diff takes two snapshots: A B");
	if (load(o->args[0], &a))
		return EXIT_ERROR;
	if (load(o->args[1], &b)) {
		snapshot_free(&a);
		return EXIT_ERROR;
	}
	if (strcmp(a.unit, b.unit)) {
		ret = fail("cannot compare %s (%s) with %s (%s)", a.source,
			   a.unit, b.source, b.unit);
		goto out;
	}
	if (!a.samples || !b.samples) {
		ret = fail("%s has no samples: nothing to compare",
			   a.samples ? b.source : a.source);
		goto out;
	}
	sa = a.summary;
	sb = b.summary;
	printf("A: %s (%s)\nB: %s (%s)\n\n", a.source, a.name, b.source, b.name);
	printf("%-7s %14s %14s %8s\n", "", "A", "B", "B/A");
	printf("%-7s %14llu %14llu %8.3f\n", "count",
	       (unsigned long long)sa.samples, (unsigned long long)sb.samples,
	       (double)sb.samples / (double)sa.samples);
	diff_row("min", sa.min, sb.min, a.unit);
	diff_row("p50", sa.p50, sb.p50, a.unit);
	diff_row("p90", sa.p90, sb.p90, a.unit);
	diff_row("p99", sa.p99, sb.p99, a.unit);
	diff_row("p99.9", sa.p999, sb.p999, a.unit);
	diff_row("max", sa.max, sb.max, a.unit);
	diff_row("mean", sa.mean, sb.mean, a.unit);
	if (ks_test(&a, &b, &ks)) {
		ret = fail("out of memory");
		goto out;
	}
	different = ks.p < o->alpha && ks.d >= o->min_effect;
	printf("\nKolmogorov-Smirnov on the slot CDFs (frac_bits %u): "
	       "D = %.4f at %s, n_eff = %.0f, p = %.3g\n", ks.frac_bits, ks.d,
	       fmt_value(at, sizeof(at), kstats_slot_hi(ks.at_slot, ks.frac_bits),
			 a.unit), ks.n_eff, ks.p);
	printf("verdict: %s (alpha %g, min-effect %g: %s)\n",
	       different ? "DIFFERENT" : "same",
	       o->alpha, o->min_effect,
	       different ? "p < alpha and D >= min-effect" :
	       ks.p >= o->alpha ? "p >= alpha, within chance" :
	       "significant but D < min-effect, negligible");
	ret = different ? EXIT_DIFFERENT : EXIT_SAME;
out:
	snapshot_free(&a);
	snapshot_free(&b);
	return ret;
}

static int cmd_export(struct opts *o)
{
	struct snapshot *s;
	char **names = NULL, host[256];
	size_t n = (size_t)o->nargs, ok = 0;
	int ret = allowed(o, O_FORMAT | O_HOST, "export");

	if (ret)
		return ret;
	if (!n) {
		names = scan_root(&n, &ret);
		if (!names)
			return ret;
	}
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s) {
		free_names(names, n);
		return fail("out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 64];

		if (names)
			snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		if (!load(names ? path : o->args[i], &s[ok]))
			ok++;
		else
			ret = EXIT_ERROR;
	}
	if (o->host) {
		snprintf(host, sizeof(host), "%s", o->host);
	} else if (gethostname(host, sizeof(host))) {
		snprintf(host, sizeof(host), "unknown");
	}
	host[sizeof(host) - 1] = '\0';
	if (!ret) {
		if (!strcmp(o->format, "json")) {
			printf("{\"host\": ");
			json_string(stdout, host);
			printf(", \"distributions\": [");
			for (size_t i = 0; i < ok; i++) {
				printf("%s\n", i ? "," : "");
				json_snapshot(stdout, &s[i], 2);
			}
			printf("]}\n");
		} else {
			export_prometheus(stdout, s, ok, host);
		}
	}
	for (size_t i = 0; i < ok; i++)
		snapshot_free(&s[i]);
	free(s);
	free_names(names, n);
	return ret;
}

/* Print the delta of the trace node since *prev (or since creation). */
static int trace_interval(const char *path, struct snapshot *prev,
			  int *have_prev, double start, double *last,
			  int max_rows)
{
	struct snapshot cur;
	struct kslot *d;
	size_t n;
	int reset;
	double t;

	if (load(path, &cur))
		return EXIT_ERROR;
	d = *have_prev ? delta(&cur, prev, &n, &reset)
		       : hist_delta(cur.slots, cur.nslots, NULL, 0, &n, &reset);
	if (!d) {
		snapshot_free(&cur);
		return fail("out of memory");
	}
	t = now();
	printf("\n%.1fs-%.1fs: %llu samples\n", *last - start, t - start,
	       (unsigned long long)hist_total(d, n));
	print_histogram_bits(stdout, d, n, cur.frac_bits, cur.unit, max_rows);
	fflush(stdout);
	free(d);
	*last = t;
	if (*have_prev)
		snapshot_free(prev);
	*prev = cur;
	*have_prev = 1;
	return 0;
}

static int cmd_trace(struct opts *o)
{
	char cmd[256], path[PATH_MAX + 64];
	struct snapshot prev, cur;
	double start, last;
	int ret = allowed(o, O_BITS | O_DUR | O_INT, "trace"), have_prev = 0;

	if (ret)
		return ret;
	if (o->nargs != 1 || !valid_name(o->args[0]))
		return usage_error("trace takes one FUNC (a kernel function name)");
	if (o->seen & O_BITS)
		snprintf(cmd, sizeof(cmd), "trace %s bits %u\n", o->args[0],
			 o->bits);
	else
		snprintf(cmd, sizeof(cmd), "trace %s\n", o->args[0]);
	catch_signals();
	if (control(cmd))
		return EXIT_ERROR;
	snprintf(path, sizeof(path), "%s/%s", root, o->args[0]);
	printf("Tracing %s%s.%s\n", o->args[0],
	       o->seen & O_INT ? ", one histogram per interval" : "",
	       o->seen & O_DUR ? "" : " Ctrl-C to end.");
	fflush(stdout);
	start = last = now();
	if (o->seen & O_INT) {
		for (;;) {
			double left = (o->seen & O_DUR) ?
				      o->dur - (now() - start) : 1e9;
			int stopped = nap(o->interval < left ? o->interval
							     : left);

			ret = trace_interval(path, &prev, &have_prev, start,
					     &last, o->rows);
			if (ret || stopped ||
			    ((o->seen & O_DUR) && now() - start >= o->dur - 1e-3))
				break;
		}
	} else {
		if (o->seen & O_DUR)
			nap(o->dur);
		else
			while (!nap(3600))
				;
		if (!load(path, &cur)) {
			printf("\n");
			print_show(stdout, &cur, 0, 0);
			snapshot_free(&cur);
		} else {
			ret = EXIT_ERROR;
		}
	}
	if (have_prev)
		snapshot_free(&prev);
	snprintf(cmd, sizeof(cmd), "remove %s\n", o->args[0]);
	if (control(cmd))
		ret = EXIT_ERROR;
	return ret;
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
			fflush(stdout);
			free(o.args - 1);
			return ret;
		}
	free(o.args);
	return usage_error("unknown command");
}
