// SPDX-License-Identifier: GPL-2.0
/*
 * opt.c - the one parser of the command line, from tables (opt.h): a
 * subcommand's table has an entry an option (its names, its value, what it
 * does); the parser reads a command line with the table of its subcommand,
 * and the usage (kstats help CMD, kstats CMD --help) is printed from the
 * same table, so that they cannot differ; an unknown command or option is
 * named with the nearest valid word.  Every subcommand takes the global
 * options, --root and --help, which are this file's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --- values -------------------------------------------------------------- */

int opt_num(const char *s, double lo, double hi, double *v)
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
	case K_HELP:
		return 0;
	case K_TRUE:
		*(int *)field = 1;
		return 0;
	case K_STR:
		*(const char **)field = a;
		return 0;
	case K_FN:
		return d->set(o, a);
	default:
		break;
	}
	if (opt_num(a, d->lo, d->hi, &v) ||
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

static int set_root(struct opts *o, const char *a)
{
	(void)o;
	root = a;
	return 0;
}

/* Every subcommand takes these; the parser knows them anywhere. */
static OPT_FN(o_root, "root", 0, "DIR", set_root, 0, 0,
	      "where the distributions are (default:\n" KSTATS_ROOT ")");
static const struct optdef o_help = { .name = "help", .shrt = 'h',
				      .kind = K_HELP, .help = "this text" };
static const struct optdef *const global_opts[] = { &o_root, &o_help, NULL };

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

const struct cmddef *find_cmd(const struct cmdtab *t, const char *name)
{
	for (const struct cmddef *const *c = t->cmds; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* "unknown command 'trcae'; did you mean 'trace'?" */
int unknown_command(const struct cmdtab *t, const char *name)
{
	const char *words[64];
	size_t n = 0;
	const char *near;

	for (const struct cmddef *const *c = t->cmds; *c && n < 64; c++)
		words[n++] = (*c)->name;
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
static void whose(const struct cmdtab *t, const char *name, char c,
		  char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct cmddef *const *cd = t->cmds; *cd; cd++) {
		if (!takes((*cd)->opts, name, c))
			continue;
		if (n + strlen((*cd)->name) + 8 >= len) {
			snprintf(buf + n, len - n, ", ...");
			return;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      (*cd)->name);
	}
}

/* An option the subcommand @c does not take, named, with the nearest. */
static int unknown_option(const struct cmdtab *t, const struct cmddef *c,
			  const char *arg)
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
		whose(t, lname, 0, others, sizeof(others));
		if (*others)
			return usage_error_for(c, "'--%s' is not an option of '%s' (it is of: %s)",
					       lname, c->name, others);
		if (near)
			return usage_error_for(c, "unknown option '--%s' for '%s'; did you mean '--%s'?",
					       lname, c->name, near);
		return usage_error_for(c, "unknown option '--%s' for '%s'",
				       lname, c->name);
	}
	whose(t, NULL, arg[1], others, sizeof(others));
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
static int apply(struct opts *o, const struct cmdtab *t,
		 const struct cmddef *c, const struct optdef *d,
		 const char *val)
{
	if (d->kind == K_HELP) {
		print_help(stdout, t, c);
		exit(fflush(stdout) ? EXIT_ERROR : 0);
	}
	if ((d->flags & OPT_ONCE) && (o->seen & d->bit))
		return usage_error_for(c, "--%s is given once", d->name);
	o->seen |= d->bit;
	return set_value(o, d, val);
}

/*
 * An option whose value may be left out (OPT_BARE) without it: at the end,
 * or before another option (runqlat's --pid without a number is "a
 * histogram per process", as --pids).
 */
static int bare(const struct optdef *d, const char *next)
{
	return (d->flags & OPT_BARE) &&
	       (!next || (next[0] == '-' && next[1] &&
			  (next[1] < '0' || next[1] > '9')));
}

/* argv[*i], an option of @c (or a global one); *i moves past its value. */
static int one_option(struct opts *o, const struct cmdtab *t,
		      const struct cmddef *c, int argc, char **argv, int *i)
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
			return unknown_option(t, c, arg);
		eq = arg[2 + len] == '=' ? arg + 3 + len : NULL;
		if (eq && !d->arg)
			return usage_error_for(c, "--%s takes no value", d->name);
		if (d->arg && !eq && bare(d, *i + 1 < argc ? argv[*i + 1] : NULL)) {
			o->seen |= d->bare;
			return 0;
		}
		if (d->arg) {
			if (!eq && *i + 1 >= argc)
				return usage_error_for(c, "--%s needs its value, %s",
						       d->name, d->arg);
			val = eq ? eq : argv[++*i];
		}
		return apply(o, t, c, d, val);
	}
	/* -x, -xVALUE, -x VALUE; flags may run together: -vP */
	for (const char *p = arg + 1; *p; p++) {
		char one[3] = { '-', *p, '\0' };
		int r;

		d = by_short(c->opts, *p);
		if (!d)
			d = by_short(global_opts, *p);
		if (!d)
			return unknown_option(t, c, one);
		if (!d->arg) {
			r = apply(o, t, c, d, NULL);
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
		return apply(o, t, c, d, val);
	}
	return 0;
}

/* The defaults of @c's options, as its table says them. */
static void defaults(struct opts *o, const struct cmddef *c)
{
	for (size_t i = 0; c->opts[i]; i++)
		if (c->opts[i]->def)
			set_value(o, c->opts[i], c->opts[i]->def);
}

/*
 * kstats [--root DIR] [-h] COMMAND [ARGS and options, in any order]
 * [-- COMMAND'S COMMAND...]: *@cmd the subcommand of @t, its operands in
 * o->args, the command after "--" in o->run (trace and the recipes); for
 * diff, "--" is an operand (A... -- B...).  0, or the exit status.
 */
int parse_args(int argc, char **argv, const struct cmdtab *t, struct opts *o,
	       const struct cmddef **cmd)
{
	static const struct cmddef global = { .name = "kstats",
					      .opts = global_opts };
	const struct cmddef *c = NULL;
	int i, r;

	o->tab = t;
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
			r = one_option(o, t, c ? c : &global, argc, argv, &i);
			if (r)
				return r;
			continue;
		}
		if (!c) {
			c = find_cmd(t, a);
			if (!c)
				return unknown_command(t, a);
			defaults(o, c);
			continue;
		}
		o->args[o->nargs++] = argv[i];
	}
	if (!c) {
		print_help(stderr, t, NULL);
		return usage_error("no command given");
	}
	o->cmd = c->name;
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

/*
 * The usage of @c (NULL: of kstats, every subcommand of @t a line), from
 * the tables the parser reads.
 */
void print_help(FILE *f, const struct cmdtab *t, const struct cmddef *c)
{
	if (!c || !strcmp(c->name, "kstats")) {
		fputs(t->head, f);
		for (const struct cmddef *const *p = t->cmds; *p; p++)
			fprintf(f, "  %-11s %s\n", (*p)->name, (*p)->summary);
		fputs(t->tail, f);
		return;
	}
	print_synopsis(f, c, 78, 8, fprintf(f, "USAGE: "));
	fprintf(f, "\n  %c%s.\n", c->summary[0] >= 'a' && c->summary[0] <= 'z' ?
		c->summary[0] - 'a' + 'A' : c->summary[0], c->summary + 1);
	if (c->more)
		fputs(c->more, f);
	fprintf(f, "\nOptions:\n");
	for (size_t i = 0; c->opts[i]; i++)
		help_option(f, c->opts[i]);
	for (size_t i = 0; global_opts[i]; i++)
		help_option(f, global_opts[i]);
	fprintf(f, "\nSee the man page kstats(8).\n");
}

