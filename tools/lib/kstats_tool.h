/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_tool.h - shared declarations of the kstats command-line tool.
 *
 * tools/kstats.c  main(): the list of subcommands, parse, run one
 * tools/cmd/       one subcommand a file, each with its option table:
 *                  cmd_*.c (list, show, watch, heatmap, diff, export,
 *                  help), trace.c the trace subcommand's _control line,
 *                  recipe.c the recipes', census.c and top.c (census,
 *                  top), timeline.c (timeline: the histories)
 * tools/lib/, what they share:
 * snapshot.c  parse a distribution (live debugfs file or saved snapshot)
 * stats.c     percentiles, deltas, re-binning, two-sample KS test
 * text.c      human units, bpftrace-style histogram, summary row,
 *             terminal-safe text and JSON strings (a leaf: calls no file)
 * render.c    a snapshot in show and in JSON
 * export.c    Prometheus text format
 * heatmap.c   latency heatmap as standalone SVG
 * history.c   parse a node's history (_history/NAME): its slices
 * explain.c   the histories as series on one grid of slices: a node's
 *             tail, its period, its phases, what moves with it (no I/O)
 * opt.c       the one parser of the command line, from a subcommand's
 *             table (opt.h), and its usage from the same table;
 *             optdefs.c the options several subcommands take
 * grammar.c   the kernel's filter words and family keys (grammar.h)
 * live.c      errors, live access through debugfs, _control (and the
 *             reason of a refusal, from _errors), signals
 * series.c    snapshots one after the other as deltas (watch, heatmap)
 * run.c       a node traced for the time being: made, read, removed
 * quiet.c     the tool's waits, which the node it traces never sees
 * child.c     -- COMMAND, started before the node, run once it records
 * btf.c       --value and --if expressions to the kernel's terms (btf.h),
 *             and back (names.c: a node's values named in its header)
 * family.c    a family's keys in show, JSON (keys.c: their names)
 * census.c    every family at once, census_* nodes made and removed
 *             together (census, top --census)
 * cli.h       what the subcommands share with them
 */
#ifndef KSTATS_TOOL_H
#define KSTATS_TOOL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include "../../kstats_bucket.h"

#define KSTATS_ROOT	"/sys/kernel/debug/kstats"
#define U64_MAX_VAL	(~0ULL)
/* Exit codes, fixed by the command's contract. */
#define EXIT_SAME	0
#define EXIT_DIFFERENT	1
#define EXIT_ERROR	2

/* One slot: all-CPU (or one CPU's, or a delta's) count and average. */
struct kslot {
	u32 slot;
	u64 lo, hi;
	u64 count;
	u64 avg;
	u32 ppm;	/* printed p, in millionths (parser only) */
	u32 line;	/* line number in the file (parser only) */
};

/* One CPU row of a snapshot. */
struct kcpurow {
	u32 slot;
	u32 cpu;
	u64 count;
	u64 avg;
	u32 ppm;
	u32 line;
};

/* One "errno E count N" row: the samples that were -E. */
struct kerrno {
	u32 err;
	u64 count;
};

/*
 * One key of a family (a node split by a key, "# family by ..."): its text
 * as the file has it (comm bytes outside 0x21..0x7e and '\\' as \\xHH, so
 * safe to print), the same unescaped in @raw, and its histogram.
 */
#define KEY_TEXT_MAX	64	/* 15 comm bytes escaped, or a decimal */
struct kkey {
	char *text;		/* a stack's frames: of any length */
	char *raw;
	size_t rawlen;
	int other;		/* the key "other": keys past max, unreadable */
	u64 samples;
	struct kslot *slots;	/* increasing slot, all CPUs */
	size_t nslots;
	u32 line;
};

/* The "# family" line. */
struct kfamily {
	char by[160];		/* comm pid tid cpu caller cgroup stack, a value */
	u64 max, keys, other, key_bytes;
	u64 frames;		/* by stack: the frames of a key */
};

/*
 * One outlier of a trace node ("outlier VALUE time T cpu C pid P tid T
 * comm NAME [key KEY] [stack F1;...;FN]"): @comm and @key as the file has
 * them (escaped, safe to print), the frames root first.
 */
struct koutlier {
	long long value;	/* a duration, or a value node's signed value */
	u64 time;
	u32 cpu;
	int pid, tid;
	char comm[KEY_TEXT_MAX];
	char *key;		/* NULL for a node without a family */
	char **frames;
	size_t nframes;
	/* "why ...": the call's time split (ns), a node with "why" */
	int has_why;
	u64 oncpu, runq, blocked, irq, vcsw, ivcsw;
	char *preempted_by;	/* "COMM:PID", or NULL */
	char *blocked_in;	/* a function's name, or NULL */
};

/* The percentile summary, in the order of the "# summary" line. */
struct ksummary {
	u64 samples, min, p50, p90, p99, p999, max, mean;
};

struct snapshot {
	char source[512];	/* file it was read from */
	char name[64];
	char clock[8];
	char unit[8];
	char state[8];
	unsigned int frac_bits;
	u32 cpus;
	u32 ncpu_ids;		/* highest CPU id in the rows + 1 */
	u64 samples, missed;
	int has_tsc_khz, has_range;
	/* a node over several functions: its "# functions" line */
	int has_functions;
	u64 fn_matched, fn_traced, fn_skipped;
	/* tsc_khz: the cycle counter's rate, tsc_khz or cycles_khz */
	u64 tsc_khz, max_value, overflow;
	struct ksummary summary;	/* as the kernel printed it */
	char *header;		/* the "# " lines, verbatim */
	struct kslot *slots;	/* all-CPU rows, increasing slot */
	size_t nslots;
	struct kcpurow *rows;	/* CPU rows, by slot then CPU */
	size_t nrows;
	/* Nodes with a value: "# value", "# filter", "# negative", errnos. */
	char value[160];	/* V as the kernel prints it, or "" */
	char filter[512];	/* the filters as printed, or "" */
	int has_negative;
	u64 neg_samples;	/* samples below 0: not in the histogram */
	long long neg_min, neg_max;
	struct kerrno *errnos;	/* increasing errno, counts > 0 */
	size_t nerrnos;
	/*
	 * A family: its keys, largest first.  @slots is then the total of the
	 * keys (what summary, diff, watch and export's total series read) and
	 * there are no CPU rows.
	 */
	int is_family;
	struct kfamily family;
	struct kkey *keys;
	size_t nkeys;
	/* A trace node's outliers: the "# outliers" line, verbatim, and theirs. */
	char outliers_line[192];
	/* "# why ...": a node's calls split, summed (ns); has_why if given */
	int has_why;
	u64 why_oncpu, why_runq, why_blocked, why_irq, why_calls, why_unsplit;
	struct koutlier *outliers;
	size_t noutliers;
};

/* snapshot.c */
#define MAX_TOKENS	64	/* of a line, for tokenize() */
int read_whole(const char *path, char **buf, size_t *len, char *err,
	       size_t errlen);
int parse_u64(const char *t, u64 *v);
int tokenize(char *line, char **tok);
int join_tokens(char *dst, size_t size, char *const *tok, int from, int n);
int vparse_error(char *err, size_t errlen, const char *source,
		 unsigned int line, const char *fmt, va_list ap);
int text_line(const char *buf, size_t len, size_t *off, char *line,
	      size_t *l, const char **why);
int snapshot_parse(struct snapshot *s, const char *buf, size_t len,
		   const char *source, char *err, size_t errlen);
int snapshot_load(struct snapshot *s, const char *path, char *err,
		  size_t errlen);
void snapshot_free(struct snapshot *s);
int valid_name(const char *name);
int valid_value(const char *v);
int valid_by(const char *by);
int key_unescape(const char *text, char *raw, size_t len, size_t *rawlen);

/* stats.c */
struct ks_result {
	double d;		/* max distance between the slot CDFs */
	double n_eff;		/* nA * nB / (nA + nB) */
	double p;		/* asymptotic p-value */
	u32 at_slot;		/* where D is reached (common frac_bits) */
	unsigned int frac_bits;
};
u64 hist_total(const struct kslot *s, size_t n);
void hist_sum128(const struct kslot *s, size_t n, u64 *hi, u64 *lo);
void hist_summary(const struct kslot *s, size_t n, struct ksummary *out);
size_t cpu_hist(const struct snapshot *snap, u32 cpu, struct kslot *out);
struct kslot *hist_delta(const struct kslot *cur, size_t ncur,
			 const struct kslot *prev, size_t nprev, size_t *nout,
			 int *reset);
struct kslot *hist_rebin(const struct kslot *s, size_t n,
			 unsigned int from_bits, unsigned int to_bits,
			 size_t *nout);
double ks_pvalue(double lambda);
int ks_test(const struct snapshot *a, const struct snapshot *b,
	    struct ks_result *r);

/* judge.c: quantiles inside their slots, and the verdict of diff */
struct qest {
	double v, lo, hi;	/* estimate and confidence interval */
};
#define JUDGE_ROWS	5	/* p50 p90 p99 p99.9 mean */
#define JUDGE_MAX_RUNS	64
struct jrow_def {
	const char *label;
	double q;		/* 0: the mean */
};
extern const struct jrow_def judge_rows[JUDGE_ROWS];
/* Why a row is not judged. */
enum jwhy { JW_JUDGED, JW_OPEN, JW_ZERO, JW_UNBOUNDED };
struct jrow {
	struct qest a, b;	/* pooled A and B */
	double ratio, ratio_lo, ratio_hi;
	double spread_lo, spread_hi;	/* A's runs / pooled A */
	int judged, moved;	/* moved: 1 up, -1 down */
	enum jwhy why;		/* judged 0: why not */
};
struct jside {
	struct kslot *pool;	/* the runs summed */
	size_t npool;
	struct kslot **runs;
	size_t *nruns_slots;
	size_t nruns;
};
struct judge {
	double threshold, alpha;	/* in: 0.05 is 5% */
	double z;			/* out: each interval's z */
	struct jrow rows[JUDGE_ROWS];
	int different;
	int unjudged;		/* rows whose interval is unbounded, none moved */
};
double hist_value_at(const struct kslot *s, size_t n, double rank);
double hist_quantile(const struct kslot *s, size_t n, double q);
void hist_interpolate(const struct kslot *s, size_t n, struct ksummary *out);
void part_summary(const struct kslot *s, size_t n, const struct ksummary *all,
		  struct ksummary *out);
double normal_upper(double tail);
void hist_estimate(const struct kslot *s, size_t n, double q, double z,
		   struct qest *e);
int judge(struct judge *j, const struct jside *a, const struct jside *b);
int kslot_cmp(const void *x, const void *y);
struct kslot *hist_merge(struct kslot *const *t, const size_t *n, size_t k,
			 unsigned int frac_bits, size_t *nout);

/* text.c */
const char *fmt_value(char *buf, size_t len, u64 v, const char *unit);
const char *fmt_bound(char *buf, size_t len, u64 v, const char *unit);
void print_histogram_bits(FILE *f, const struct kslot *s, size_t n,
			  unsigned int frac_bits, const char *unit,
			  int max_rows);
void summary_head(FILE *f, const char *first);
void summary_row(FILE *f, const char *label, const struct ksummary *s,
		 const char *unit, const char *mark);
void json_summary(FILE *f, const struct ksummary *s);
void json_string(FILE *f, const char *s);
void json_stringn(FILE *f, const char *s, size_t n);
void safe_text(FILE *f, const char *s);
size_t utf8_seq(const unsigned char *p, size_t n);

/* render.c */
struct keyview;
void print_show(FILE *f, const struct snapshot *snap, int per_cpu,
		int max_rows);
void print_show_keys(FILE *f, const struct snapshot *snap, int per_cpu,
		     int max_rows, const struct keyview *kv);
void json_snapshot_keys(FILE *f, const struct snapshot *snap, int ind,
			const struct keyview *kv);
void snap_summary(const struct snapshot *snap, struct ksummary *out);
void print_cpu_table(FILE *f, const struct snapshot *snap);
void json_snapshot(FILE *f, const struct snapshot *snap, int indent);

/* outliers.c */
void print_outliers(FILE *f, const struct snapshot *snap);
void print_why_sums(FILE *f, const struct snapshot *snap);
void json_outliers(FILE *f, const struct snapshot *snap, int ind);
const char *errno_name(u32 err);
void print_negative(FILE *f, const struct snapshot *cur,
		    const struct snapshot *prev);

/* keys.c: the names of keys, as the recipes show them */
enum keynames { KEYS_RAW, KEYS_SOFTIRQ, KEYS_SYSCALL, KEYS_IRQ, KEYS_DISK,
		KEYS_LOCK_CALLER, KEYS_STATE };
long syscall_nr(const char *name);
const char *syscall_name(long nr);
const char *softirq_name(long vec);
const char *task_state_name(long state);
int irq_line(char *line, long *irq, unsigned long long *count, char *name,
	     size_t len);
int irq_name(FILE *f, long irq, char *buf, size_t len);
void disk_name(const char *sysdir, unsigned long long dev, char *buf,
	       size_t len);
const char *key_label(const struct kkey *k, enum keynames names, char *buf,
		      size_t len);

/* family.c: a family's keys in show, JSON and Prometheus */
/* The order of a family's keys: the file's (samples), or --sort's. */
enum keysort { SORT_SAMPLES, SORT_P99, SORT_TOTAL };
struct keyview {
	unsigned int top;	/* the largest keys only, 0: all */
	enum keynames names;
};
void sort_keys(struct snapshot *snap, enum keysort by);
void print_family(FILE *f, const struct snapshot *snap, int max_rows,
		  const struct keyview *kv);
void json_keys(FILE *f, const struct snapshot *snap, int ind,
	       const struct keyview *kv);
void print_folded(FILE *f, const struct snapshot *snap);

/* names.c: a node's values named, for the human output */
void print_header(FILE *f, const struct snapshot *snap);
const char *family_by(const struct snapshot *snap, char *buf, size_t len);

/* lockcaller.c: lockwait --by caller */
void load_lock_fns(void);
int lock_callers(struct snapshot *s);

/* export.c */
#define EXPORT_BUCKETS	64	/* default at most, with +Inf */
void export_prometheus(FILE *f, const struct snapshot *snaps, size_t n,
		       const char *host, unsigned int max_buckets);

/* heatmap.c */
struct heatcol {
	double t0, t1;		/* seconds since the first snapshot */
	struct kslot *s;
	size_t n;
};
int heatmap_svg(FILE *f, const char *title, const char *unit,
		unsigned int frac_bits, const struct heatcol *cols,
		size_t ncols);
void heat_colour(char *buf, size_t len, double t);
void xml_text(FILE *f, const char *s);

/*
 * history.c: a node's history, /sys/kernel/debug/kstats/_history/NAME
 * (Documentation/format.rst): a ring of slices of time, each slice's
 * percentiles and its histogram's non-empty slots (their lower bound).
 */
struct hbucket {
	u64 lo, count;
};
struct hslice {
	u64 t;			/* its start, CLOCK_MONOTONIC ns */
	u64 samples, min, p50, p99, max;
	struct hbucket *b;	/* increasing lo, counts adding up to samples */
	size_t nb;
};
struct history {
	char source[512];	/* the file it was read from */
	char name[64];
	u64 slice_ns, slices, bytes;	/* a slice's length, the ring's, its memory */
	int frozen;
	u64 frozen_at;
	char reason[160];	/* frozen by: "freeze", "trigger TNAME V" */
	/* "# trigger TNAME above V after NS fired_at T" (fired 0: armed) */
	int has_trigger;
	char trigger[64];
	u64 trig_above, trig_after, trig_fired;
	/* "# lost slices K samples M" */
	int has_lost;
	u64 lost_slices, lost_samples;
	struct hslice *s;	/* the non-empty slices, oldest first */
	size_t n;
	u64 samples;		/* of all the slices */
	u64 max_count;		/* the largest count of a slot in a slice */
};
int history_parse(struct history *h, const char *buf, size_t len,
		  const char *source, char *err, size_t errlen);
int history_load(struct history *h, const char *path, char *err,
		 size_t errlen);
void history_free(struct history *h);
int history_slots_of(const struct history *h, unsigned int k);
int history_frac_bits(const struct history *h);

/*
 * explain.c: the histories (struct history) as series of numbers a slice
 * of a common grid (xgrid), and what they say: when a node's tail comes
 * (its period, its phases), and which other series move with it.  Pure:
 * no I/O, so the unit tests call it with synthetic series.
 */
struct xgrid {
	u64 t0;			/* the first slice's start */
	u64 slice_ns;		/* the largest slice length of the nodes */
	size_t n;		/* slices */
};
/* A node's series on the grid; [a, b) the slices its own history spans. */
struct xnode {
	const struct history *h;
	u64 above;		/* the tail threshold: a bucket's LO at least */
	double *tail, *weight, *count;
	size_t a, b;
};
struct xperiod {
	int found;		/* claimed: strength, periods and slices enough */
	double lag;		/* the period in slices (sub-slice precision) */
	double strength;	/* the autocorrelation at it, 0..1 */
	int jitter;		/* slices either side smoothed over, or 0 */
};
struct xcorr {
	int lag;		/* slices; > 0: the other series leads */
	double r;		/* Pearson r at that lag, the best |r| */
	int jitter;		/* slices either side smoothed over, or 0 */
};
#define X_MIN_STRENGTH	0.5	/* a period's autocorrelation, at least */
#define X_MIN_PERIODS	3	/* periods the window holds, at least */
#define X_MIN_NONZERO	3	/* slices with a tail, at least */
#define X_MIN_R		0.6	/* a correlate's r, at least */
#define X_MAX_LAG	10	/* slices a correlate may lead or trail */
#define X_HARMONIC	0.9	/* a fraction of the peak's lag this high wins */
#define X_MIN_GAP	3	/* slices between two phases, more than */
#define X_WHOLE		0.9	/* one phase this much of the window: all of it */
#define X_JITTER	2	/* slices an event may land early or late */
#define X_JITTER_PERIOD	10	/* slices a period smoothed is, at least */
#define X_JITTER_COVER	0.5	/* its periods with a tail, a fraction at least */
int xgrid_make(const struct history *h, size_t nh, u64 from, u64 to,
	       struct xgrid *g);
u64 x_p99_lo(const struct history *h, u64 from, u64 to);
int xnode_make(struct xnode *x, const struct history *h,
	       const struct xgrid *g, u64 from, u64 to, int has_above,
	       u64 above);
void xnode_free(struct xnode *x);
void x_period(const double *v, size_t n, struct xperiod *p);
int x_max_lag(size_t n);
void x_correlate(const double *a, const double *b, size_t n, int maxlag,
		 struct xcorr *c);
size_t x_phases(const double *v, size_t n, double period, size_t *start,
		size_t *end);

#endif /* KSTATS_TOOL_H */
