/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the subcommands in files of their own (trace.c) share with
 * kstats.c: the parsed options, error reporting, the live side (_control,
 * signals, naps).
 */
#ifndef KSTATS_CLI_H
#define KSTATS_CLI_H

#include "kstats_tool.h"

enum {
	O_CPU = 1 << 0, O_JSON = 1 << 1, O_ROWS = 1 << 2, O_BITS = 1 << 3,
	O_DUR = 1 << 4, O_INT = 1 << 5, O_COUNT = 1 << 6, O_OUT = 1 << 7,
	O_ALPHA = 1 << 8, O_THRESH = 1 << 9, O_FORMAT = 1 << 10,
	O_HOST = 1 << 11, O_VALUE = 1 << 12, O_IF = 1 << 13, O_PID = 1 << 14,
	O_TID = 1 << 15, O_COMM = 1 << 16, O_TCPU = 1 << 17,
	O_VERBOSE = 1 << 18, O_BUCKETS = 1 << 19, O_TOP = 1 << 20,
	O_BY = 1 << 21, O_MAXKEYS = 1 << 22, O_PIDS = 1 << 23,
	O_TIDS = 1 << 24, O_DISK = 1 << 25, O_QUEUED = 1 << 26,
	O_IDLE = 1 << 27, O_MIN = 1 << 28, O_MAX = 1 << 29,
	O_OUTLIERS = 1 << 30,	/* --slow, --keep or --stack */
};
/* Past an int's bits: the masks are unsigned long long. */
#define O_FOLDED	(1ULL << 31)
#define O_CGROUP	(1ULL << 32)
#define O_SORT		(1ULL << 33)

#define MAX_IFS		4	/* --if, as the kernel's "if" */
#define COMM_MAX	15	/* TASK_COMM_LEN - 1 */

struct opts {
	unsigned long long seen;
	int cpu, json, rows;
	int folded;		/* show --folded: FRAMES VALUE per key */
	const char *cgroup;	/* trace, recipes: --cgroup PATH */
	unsigned int buckets;	/* export: at most, with +Inf */
	unsigned int bits;
	double dur, interval, alpha, threshold;
	long count;
	const char *out, *format, *host;
	char **args;
	int nargs;
	int trace;		/* the command is trace: --cpu takes N */
	/* trace: the value and the filters, as given */
	const char *value, *ifs[MAX_IFS], *comm;
	int nifs;
	long pid, tid, tcpu;
	/* families: --by KEY [--max-keys N], shown --top K with names */
	const char *by;
	long max_keys;
	unsigned int top;
	enum keysort sort;	/* --sort samples|p99|total */
	/* recipes: --min/--max US, in ns */
	long long min_ns, max_ns;
	/* trace: outliers, --slow V [--keep M] or --top K, --stack N */
	int slow_set;
	unsigned long long slow;
	long keep, stack;
	enum keynames names;
};

extern const char *root;

int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_error(const char *what);
int allowed(const struct opts *o, unsigned long long mask, const char *cmd);
int resolve(const char *arg, char *path, size_t len);
int load(const char *arg, struct snapshot *s);
int control(const char *cmd);
void catch_signals(void);
int nap(double secs);
double now(void);
struct kslot *delta(const struct snapshot *cur, const struct snapshot *prev,
		    size_t *n, int *reset);

int tty_rows(void);
char **scan_root(size_t *n, int *ret);
void free_names(char **names, size_t n);

/*
 * series.c: snapshots one after the other: live (re-reading @path every
 * interval) or the saved FILEs.  @fn gets each delta.
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
int run_series(struct series *se);

/* The subcommands, a file each: cmd_NAME.c, trace.c. */
int cmd_list(struct opts *o);
int cmd_show(struct opts *o);
int cmd_watch(struct opts *o);
int cmd_heatmap(struct opts *o);
int cmd_diff(struct opts *o);
int cmd_export(struct opts *o);
int cmd_trace(struct opts *o);
int trace_run(const struct opts *o, const char *cmd, const char *node,
	      const char *what);

/* recipe.c */
int cmd_recipe(struct opts *o);
int is_recipe(const char *name);
int recipe_command(const struct opts *o, const char *recipe, char *cmd,
		   size_t len, char *node, size_t nlen, char *what,
		   size_t wlen, enum keynames *names);

#endif /* KSTATS_CLI_H */
