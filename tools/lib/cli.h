/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the subcommands (cmd/) share with kstats.c and with the
 * files of lib/ that serve them: the parsed options, error reporting, the
 * live side (_control, signals, naps).
 */
#ifndef KSTATS_CLI_H
#define KSTATS_CLI_H

#include <sys/types.h>

#include "kstats_tool.h"
#include "opt.h"

/* The options given, bits of struct opts.seen (opt.h's optdef.bit). */
#define O_CPU		(1ULL << 0)	/* show --cpu */
#define O_JSON		(1ULL << 1)
#define O_ROWS		(1ULL << 2)	/* --rows N or --all-rows */
#define O_BITS		(1ULL << 3)
#define O_DUR		(1ULL << 4)
#define O_INT		(1ULL << 5)
#define O_COUNT		(1ULL << 6)
#define O_OUT		(1ULL << 7)
#define O_ALPHA		(1ULL << 8)
#define O_THRESH	(1ULL << 9)
#define O_FORMAT	(1ULL << 10)
#define O_HOST		(1ULL << 11)
#define O_VALUE		(1ULL << 12)
#define O_IF		(1ULL << 13)
#define O_PID		(1ULL << 14)
#define O_TID		(1ULL << 15)
#define O_COMM		(1ULL << 16)
#define O_TCPU		(1ULL << 17)	/* trace --cpu N */
#define O_VERBOSE	(1ULL << 18)
#define O_BUCKETS	(1ULL << 19)
#define O_TOP		(1ULL << 20)
#define O_BY		(1ULL << 21)
#define O_MAXKEYS	(1ULL << 22)
#define O_PIDS		(1ULL << 23)
#define O_TIDS		(1ULL << 24)
#define O_DISK		(1ULL << 25)
#define O_QUEUED	(1ULL << 26)
#define O_IDLE		(1ULL << 27)
#define O_MIN		(1ULL << 28)
#define O_MAX		(1ULL << 29)
#define O_OUTLIERS	(1ULL << 30)	/* --keep or --stack */
#define O_FOLDED	(1ULL << 31)
#define O_CGROUP	(1ULL << 32)
#define O_SORT		(1ULL << 33)
#define O_FOLLOW	(1ULL << 34)
#define O_SELF		(1ULL << 35)
#define O_SLOW		(1ULL << 36)
#define O_BATCH		(1ULL << 37)
#define O_CENSUS	(1ULL << 38)
#define O_TSORT		(1ULL << 39)	/* top --sort */
#define O_DRY		(1ULL << 40)
#define O_WHY		(1ULL << 41)	/* trace --why */
#define O_ABOVE		(1ULL << 42)	/* explain --above */
#define O_NOCONTEXT	(1ULL << 43)	/* explain --no-context */

/* top --sort: the rows by their p99, samples a second or max, largest first */
enum topsort { TOP_P99, TOP_RATE, TOP_MAX };

/* A histogram's rows at most, unless --rows N or --all-rows. */
#define HIST_ROWS	40

#define MAX_IFS		4	/* --if, as the kernel's "if" */
#define COMM_MAX	15	/* TASK_COMM_LEN - 1 */

struct opts {
	unsigned long long seen;
	const char *cmd;	/* the subcommand */
	const struct cmdtab *tab;	/* all of them (kstats help) */
	char **run;		/* trace, recipes: the COMMAND after "--" */
	int nrun;
	long run_pid;		/* its process, once started (0: none) */
	const char *run_cgroup;	/* --follow: its cgroup, once made */
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
	/* the census: the node a recipe makes, named so (NULL: the recipe's) */
	const char *node;
	/* top: --batch, its sort */
	int batch;
	enum topsort tsort;
};

extern const char *root;

int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_error(const char *what);
int root_ok(void);
int access_error(const char *path, int err);
int resolve(const char *arg, char *path, size_t len);
int load(const char *arg, struct snapshot *s);
int load_error(const char *path, int r, const char *err);
int control(const char *cmd);
int control_write(const char *cmd);
const char *refused_why(const char *cmd, int err, char *buf, size_t len);
int usage_error_for(const struct cmddef *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int refusal(const char *cmd, char *why, size_t wlen, char *caret,
	    size_t clen);
void catch_signals(void);
int nap(double secs);
int stopping(void);
double now(void);
struct kslot *delta(const struct snapshot *cur, const struct snapshot *prev,
		    size_t *n, int *reset);

#define HISTORY_DIR	"_history"	/* ROOT/_history/NAME: a node's history */
int history_dir(char *dir, size_t len);
char **scan_root(size_t *n, int *ret);
char **dir_files(const char *dir, size_t *n);
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

/*
 * optdefs.c: the options that several subcommands take, for their tables
 * (opt.h); what trace and every recipe take: first, the filters; last,
 * the output.
 */
extern const struct optdef o_bits, o_dur, o_int, o_count, o_pid, o_tid, o_comm,
	o_cpu_filter, o_cgroup, o_by, o_max_keys, o_sort, o_folded, o_rows,
	o_all_rows, o_top, o_follow, o_self, o_verbose, o_why;
#define LIVE_FIRST &o_bits, &o_dur, &o_int
#define LIVE_FILTERS &o_tid, &o_comm, &o_cpu_filter, &o_cgroup, &o_by, \
	&o_max_keys, &o_sort
#define LIVE_LAST &o_folded, &o_rows, &o_all_rows, &o_follow, &o_self, \
	&o_verbose
/* trace and the recipes: how long they trace, in their usage */
#define RUN_MORE \
	"  Traced for -d SECS, until Ctrl-C, or with -- COMMAND, while COMMAND\n" \
	"  runs (its process alone, or with --follow its children too).\n"

/* child.c: -- COMMAND [ARGS], started before the node, run once it records */
struct child {
	pid_t pid;
	int go, err;		/* the pipes that release it, and say its exec failed */
	const char *argv0;
	char cgroup[4096];	/* --follow: its cgroup v2, from the cgroup2 root */
	char dir[4096];		/* that cgroup's directory */
	char home[4096];	/* the tool's own cgroup's directory */
	int status, reaped;
};
int child_start(struct child *c, char *const *argv, int follow);
int cgroup2_mount(char *mnt, size_t mlen);
int child_release(struct child *c);
int child_exited(struct child *c);
int child_end(struct child *c);

/* quiet.c: waits that the node never sees (why a waiter woke) */
#define QUIET_TIMER	0
#define QUIET_CHILD	1
#define QUIET_STOP	2	/* SIGINT, SIGTERM, SIGHUP */
/* The waiters at most: -i's intervals without --self. */
#define QUIET_MAX	1024
struct quiet;
struct quiet *quiet_new(int n, double (*fn)(void *ctx, int why), void *ctx);
void quiet_run(struct quiet *q, double at);
void quiet_free(struct quiet *q);

/*
 * The subcommands, a file each in cmd/: cmd_NAME.c, trace.c, recipe.c;
 * each its struct cmddef, with its option table.
 */
extern const struct cmddef list_cmd, show_cmd, trace_cmd, watch_cmd,
	heatmap_cmd, diff_cmd, export_cmd, help_cmd;
extern const struct cmddef census_cmd, top_cmd, timeline_cmd, explain_cmd;
extern const struct cmddef runqlat_cmd, biolatency_cmd, syscall_cmd,
	lockwait_cmd, softirq_cmd, hardirq_cmd, offcpu_cmd;

/* run.c: a node traced for the time being, as trace and the recipes make one */
int trace_run(const struct opts *o, const char *cmd, const char *node,
	      const char *what, struct child *child);
int trace_check_run(const struct opts *o);
int run_start(struct opts *o, struct child *c);

/* recipe.c */
int recipe_command(const struct opts *o, const char *recipe, char *cmd,
		   size_t len, char *node, size_t nlen, char *what,
		   size_t wlen, enum keynames *names);

/*
 * census.c: every family of the machine at once, nodes named census_*,
 * made and removed together (kstats census, kstats top --census)
 */
#define CENSUS_PREFIX	"census_"
int census_start(const struct opts *o, FILE *say);
int census_stop(FILE *say);
int census_is(const char *node);
enum keynames census_keynames(const struct snapshot *s);

/*
 * context.c: what explain -d records beside the named nodes (throttle:PATH,
 * hardirq:NAME, softirq:VEC, runqlat, ivcsw), nodes named CONTEXT_PREFIX
 * and a number, made for the window and removed after it
 */
#define CONTEXT_PREFIX	"explain_ctx"
#define CONTEXT_MAX	64
#define CONTEXT_CMD_MAX	1024
struct context_node {
	char node[32];		/* its name under the root */
	char shown[80];		/* the series' name: throttle:/web */
	char cmd[CONTEXT_CMD_MAX];
};
struct context {
	struct context_node nodes[CONTEXT_MAX];
	size_t n, made, nthrottle;
	int stopped;
};
int context_start(struct context *c, u64 slice_ns, u64 slices, int verbose);
void context_stop(struct context *c);
const char *context_shown(const struct context *c, const char *node);

#endif /* KSTATS_CLI_H */
