/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opt.h - a subcommand's options as a table, and the one parser that reads
 * a command line with it (opt.c).  Each subcommand's file has its table
 * and its struct cmddef; the options several take are in optdefs.c; the
 * list of subcommands is kstats.c's.  The usage (kstats help CMD, kstats
 * CMD --help) is printed from the same table the parser reads, so that
 * they cannot differ.
 */
#ifndef KSTATS_OPT_H
#define KSTATS_OPT_H

#include <stddef.h>
#include <stdio.h>

struct opts;

#define OPT_REPEAT	1	/* given again adds (--if) */
#define OPT_ONCE	2	/* given again is an error */
#define OPT_BARE	4	/* its value may be left out: .bare instead */
enum optkind {
	K_FLAG,		/* no value */
	K_TRUE,		/* no value: its int field set to 1 */
	K_STR,		/* a string, kept */
	K_DBL,		/* a number in lo..hi */
	K_LONG,		/* a whole number in lo..hi: long, unsigned, int */
	K_UINT,
	K_INT,
	K_FN,		/* the option's own setter */
	K_HELP,		/* no value: prints the subcommand's usage, exits */
};
struct optdef {
	const char *name;	/* --NAME */
	char shrt;		/* -X, or 0 */
	const char *arg;	/* the value's name, or NULL for a flag */
	enum optkind kind;
	size_t off;		/* its field in struct opts */
	double lo, hi;		/* a number's range */
	const char *bad;	/* the usage error of a number out of it */
	int (*set)(struct opts *o, const char *arg);	/* K_FN */
	const char *help;
	unsigned long long bit;	/* O_...: in struct opts.seen once given */
	unsigned int flags;	/* OPT_... */
	const char *def;	/* the value it has when not given, or NULL */
	/*
	 * OPT_BARE: in struct opts.seen when given without its value (at
	 * the end, or before another option): runqlat's --pid, as --pids
	 */
	unsigned long long bare;
};

/* A table's entries: a flag; a string; a number (kind K) of field F in lo..hi; a setter */
#define OPT_FIELD(f)	offsetof(struct opts, f)
#define OPT_FLAG(id, lng, sh, b, text) \
	const struct optdef id = { .name = lng, .shrt = sh, .kind = K_FLAG, \
				   .help = text, .bit = b }
#define OPT_TRUE(id, lng, sh, f, b, text) \
	const struct optdef id = { .name = lng, .shrt = sh, .kind = K_TRUE, \
				   .off = OPT_FIELD(f), .help = text, .bit = b }
#define OPT_STR(id, lng, sh, a, f, b, fl, text) \
	const struct optdef id = { .name = lng, .shrt = sh, .arg = a, \
				   .kind = K_STR, .off = OPT_FIELD(f), \
				   .help = text, .bit = b, .flags = fl }
#define OPT_NUM(id, lng, sh, a, k, f, l, h, msg, b, fl, text) \
	const struct optdef id = { .name = lng, .shrt = sh, .arg = a, .kind = k, \
				   .off = OPT_FIELD(f), .lo = l, .hi = h, \
				   .bad = msg, .help = text, .bit = b, \
				   .flags = fl }
#define OPT_FN(id, lng, sh, a, fn, b, fl, text) \
	const struct optdef id = { .name = lng, .shrt = sh, .arg = a, \
				   .kind = K_FN, .set = fn, .help = text, \
				   .bit = b, .flags = fl }
/* a number's default, as its table says it: OPT_Q(HIST_ROWS) is "40" */
#define OPT_QUOTE(x)	#x
#define OPT_Q(x)	OPT_QUOTE(x)

#define CMD_RUN		1	/* takes -- COMMAND [ARGS] */
#define CMD_SEP		2	/* "--" is an operand (diff) */
#define CMD_RECIPE	4
#define CMD_WORDS	8	/* every argument an operand (help) */
struct cmddef {
	const char *name, *args, *summary;
	const char *more;	/* its usage's lines after the summary, or NULL */
	const struct optdef *const *opts;	/* NULL-terminated */
	int (*fn)(struct opts *o);
	unsigned int flags;	/* CMD_... */
};

/* The subcommands (NULL-terminated), and the text of the general usage. */
struct cmdtab {
	const struct cmddef *const *cmds;
	const char *head;	/* before the list of subcommands */
	const char *tail;	/* after it */
};

int opt_num(const char *s, double lo, double hi, double *v);
int parse_args(int argc, char **argv, const struct cmdtab *t, struct opts *o,
	       const struct cmddef **cmd);
const struct cmddef *find_cmd(const struct cmdtab *t, const char *name);
int unknown_command(const struct cmdtab *t, const char *name);
const char *nearest(const char *w, const char *const *words, size_t n);
void print_help(FILE *f, const struct cmdtab *t, const struct cmddef *c);
void print_synopsis(FILE *f, const struct cmddef *c, int width, int indent,
		    int col);

#endif /* KSTATS_OPT_H */
