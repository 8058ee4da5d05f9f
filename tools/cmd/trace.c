// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - `kstats trace`: a trace node for the time being.
 *
 *   kstats trace FUNC|tp:GROUP:EVENT|PATH:SYMBOL [-b BITS] [-d SECS] [-i SECS]
 *          [--value EXPR] [--if 'EXPR OP C']... [--pid N] [--tid N]
 *          [--comm NAME] [--cpu N] [-v]
 *
 * writes "trace TARGET [bits B] [value V] [pid N] [tid N] [comm NAME]
 * [cpu N] [if V OP C]..." to _control, with each EXPR (ret, a parameter,
 * *param, a->b.c) turned into the kernel's V by btf.c, prints the histogram
 * (or one per interval, with -i) and removes the node on the way out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "cli.h"
#include "grammar.h"

#define CMD_MAX	1024

/* [A-Za-z0-9_]+, what the kernel takes for a tracepoint group or event. */
static int symbol_chars(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/* Whether @target names several functions: a glob, or F1,F2,... */
static int multi_target(const char *target)
{
	return strncmp(target, "tp:", 3) && strpbrk(target, "*?[,");
}

/* A character a node name keeps, [A-Za-z0-9_.-], no dot first (@n 0). */
static int name_char(char c, size_t n)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       (c == '.' && n);
}

/*
 * A glob's or a list's node name, as the kernel makes it: the name's
 * characters kept, the commas made dots, "functions" for none left.
 */
static const char *multi_name(const char *target)
{
	static char name[64];
	size_t n = 0;

	for (const char *s = target; *s && n + 1 < sizeof(name); s++) {
		if (name_char(*s, n))
			name[n++] = *s;
		else if (*s == ',' && n)
			name[n++] = '.';
	}
	name[n] = '\0';
	if (!n)
		snprintf(name, sizeof(name), "functions");
	return name;
}

/*
 * A user function's node name, as the kernel makes it (kstats_uprobe.h):
 * "PATH:SYMBOL" is BASENAME.SYMBOL, the characters a name may not have
 * left out, no dot first; "user" for none left.
 */
static const char *user_name(const char *target)
{
	static char name[64];
	const char *colon = strrchr(target, ':'), *base;
	size_t n = 0;

	if (!colon)
		colon = target + strlen(target);
	for (base = colon; base > target && base[-1] != '/'; base--)
		;
	for (const char *s = base; *s && n + 1 < sizeof(name); s++) {
		if (s == colon) {
			if (n)
				name[n++] = '.';
		} else if (name_char(*s, n)) {
			name[n++] = *s;
		}
	}
	name[n] = '\0';
	if (!n)
		snprintf(name, sizeof(name), "user");
	return name;
}

/*
 * The node's name: FUNC's, or EVENT's for tp:GROUP:EVENT (as the kernel
 * names it), or a glob's or list's (multi_name()), or a user function's
 * (user_name()); NULL if @target is none of them.
 */
static const char *node_name(const char *target)
{
	const char *ev;

	if (target[0] == '/')
		return strchr(target, ':') && !strpbrk(target, " \t\n") ?
		       user_name(target) : NULL;
	if (multi_target(target))
		return strpbrk(target, " \t\n") ? NULL : multi_name(target);
	if (strncmp(target, "tp:", 3))
		return strchr(target, ':') || !valid_name(target) ? NULL : target;
	ev = strrchr(target, ':') + 1;
	if (ev - target <= 4 || !symbol_chars(target + 3, (size_t)(ev - target - 4)) ||
	    !symbol_chars(ev, strlen(ev)) || !valid_name(ev))
		return NULL;
	return ev;
}

/*
 * C, decimal or 0x-hex and maybe negative, as the signed 64-bit decimal the
 * kernel compares with (0xffffffff00000000 is -4294967296: the same bits).
 */
static int constant(const char *s, char *out, size_t len)
{
	int neg = *s == '-', hex;
	unsigned long long v;
	char *end;

	s += neg;
	hex = !strncmp(s, "0x", 2) || !strncmp(s, "0X", 2);
	if (!(hex ? (s[2] >= '0' && s[2] <= '9') || (s[2] >= 'a' && s[2] <= 'f') ||
		    (s[2] >= 'A' && s[2] <= 'F')
		  : (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	v = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	if (neg && v > 1ULL << 63)
		return -1;
	if (!hex && !neg && v > (unsigned long long)LLONG_MAX)
		return -1;
	if (neg)
		snprintf(out, len, "%lld", v == 1ULL << 63 ? LLONG_MIN : -(long long)v);
	else
		snprintf(out, len, "%lld", (long long)v);
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	while (s[i] == ' ')
		i++;
	memmove(s, s + i, n - i + 1);
}

/*
 * "EXPR OP C" of --if: EXPR, OP (== != < <= > >= &) and C in decimal.
 * The '>' of "->" belongs to EXPR.  0, or a usage error.
 */
static int split_cond(const char *cond, char *expr, size_t elen, char *op,
		      char *c, size_t clen)
{
	const char *p = cond;
	char rest[64], msg[256];
	size_t n;

	while (*p && !(strchr("=!<>&", *p) && !(*p == '>' && p > cond && p[-1] == '-')))
		p++;
	n = (size_t)(p - cond);
	if (!*p || n >= elen) {
		snprintf(msg, sizeof(msg), "--if '%.100s': expected 'EXPR OP C' with OP one of == != < <= > >= &",
			 cond);
		return usage_error(msg);
	}
	memcpy(expr, cond, n);
	expr[n] = '\0';
	trim(expr);
	if ((p[0] == '=' || p[0] == '!') && p[1] == '=')
		snprintf(op, 3, "%.2s", p);
	else if ((p[0] == '<' || p[0] == '>') && p[1] == '=')
		snprintf(op, 3, "%.2s", p);
	else if (p[0] == '<' || p[0] == '>' || (p[0] == '&' && p[1] != '&'))
		snprintf(op, 3, "%c", p[0]);
	else
		op[0] = '\0';
	snprintf(rest, sizeof(rest), "%s", p + strlen(op));
	trim(rest);
	if (!*op || !*expr || constant(rest, c, clen)) {
		snprintf(msg, sizeof(msg), "--if '%.100s': expected 'EXPR OP C' with OP one of == != < <= > >= & and C a decimal or 0x-hex number",
			 cond);
		return usage_error(msg);
	}
	return 0;
}

/*
 * EXPR as the kernel's V: translated with the BTF of @k, or as is when it
 * is already in the kernel's terms (argN+OFF:SIZE, ret:s4; also ret and
 * argN without BTF).  @berr: why there is no BTF, when @k is NULL.
 */
static int value_of(const struct kbtf *k, const char *berr, const char *expr,
		    char *v, size_t len, char *err, size_t errlen)
{
	if (valid_value(expr) && (!k || strpbrk(expr, ":+-"))) {
		snprintf(v, len, "%s", expr);
		return 0;
	}
	if (!k) {
		snprintf(err, errlen, "%s (without BTF, write it in the kernel's terms: ret, argN, argN+OFF:SIZE)",
			 berr);
		return -1;
	}
	return kbtf_value(k, expr, v, len, err, errlen);
}

/*
 * --by KEY as the kernel's: a native key (by_native()) as it is, else a
 * value (EXPR) translated as --value's with the BTF of @k.
 */
int by_key(const struct kbtf *k, const char *berr, const char *by, char *v,
	   size_t len, char *err, size_t errlen)
{
	if (by_native(by)) {
		by_native_words(by, v, len);
		return 0;
	}
	return value_of(k, berr, by, v, len, err, errlen);
}

static int append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return r < 0 || (size_t)r >= len - n ? -1 : 0;
}

/*
 * The _control line for @o: "trace TARGET [bits B] [value V] [pid N]
 * [tid N] [comm NAME] [cpu N] [if V OP C]...\n", the expressions translated
 * with the kernel's BTF.  In @what, the same in the user's terms.
 */
static int trace_command(const struct opts *o, const char *target,
			 char *cmd, size_t len, char *what, size_t wlen)
{
	char v[BTF_VALUE_MAX], err[768], berr[512] = "", c[32], op[3], expr[256];
	char filt[384] = "";
	struct kbtf *k = NULL;
	int ret = 0;

	snprintf(cmd, len, "trace %s", target);
	what[0] = '\0';
	if (o->seen & O_BITS)
		append(cmd, len, " bits %u", o->bits);
	/* a user function: no BTF, its values in the kernel's terms */
	if (target[0] == '/')
		snprintf(berr, sizeof(berr), "a user function has no BTF");
	else if (o->value || o->nifs || (o->by && !by_native(o->by)))
		k = kbtf_open(target, berr, sizeof(berr));
	if (o->value) {
		if (value_of(k, berr, o->value, v, sizeof(v), err, sizeof(err))) {
			ret = fail("--value '%s': %s", o->value, err);
			goto out;
		}
		append(cmd, len, " value %s", v);
		append(what, wlen, ", value %s", o->value);
	}
	if (o->seen & O_PID)
		append(filt, sizeof(filt), " pid %ld", o->pid);
	if (o->seen & O_TID)
		append(filt, sizeof(filt), " tid %ld", o->tid);
	if (o->comm)
		append(filt, sizeof(filt), " comm %s", o->comm);
	if (o->seen & O_TCPU)
		append(filt, sizeof(filt), " cpu %ld", o->tcpu);
	if (o->cgroup && append(filt, sizeof(filt), " cgroup %s", o->cgroup)) {
		ret = fail("--cgroup '%.40s...': too long a path", o->cgroup);
		goto out;
	}
	if (*filt || o->nifs)
		append(what, wlen, ", only%s", filt);
	/* -- COMMAND: its process, or its cgroup (--follow) */
	if (o->run_cgroup) {
		append(filt, sizeof(filt), " cgroup %s", o->run_cgroup);
		append(what, wlen, ", only %s and its children (cgroup %s)",
		       o->run[0], o->run_cgroup);
	} else if (o->run_pid > 0) {
		append(filt, sizeof(filt), " pid %ld", o->run_pid);
		append(what, wlen, ", only %s (pid %ld)", o->run[0], o->run_pid);
	}
	append(cmd, len, "%s", filt);
	for (int i = 0; i < o->nifs; i++) {
		ret = split_cond(o->ifs[i], expr, sizeof(expr), op, c, sizeof(c));
		if (ret)
			goto out;
		if (value_of(k, berr, expr, v, sizeof(v), err, sizeof(err))) {
			ret = fail("--if '%s': %s", o->ifs[i], err);
			goto out;
		}
		append(cmd, len, " if %s %s %s", v, op, c);
		append(what, wlen, " if %s %s %s", expr, op, c);
	}
	if (o->by) {
		if (by_key(k, berr, o->by, v, sizeof(v), err, sizeof(err))) {
			ret = fail("--by '%s': %s", o->by, err);
			goto out;
		}
		append(cmd, len, " by %s", v);
		append(what, wlen, ", a histogram per %s", o->by);
	}
	if (o->seen & O_MAXKEYS)
		append(cmd, len, " max %ld", o->max_keys);
	if (o->slow_set) {
		append(cmd, len, " slow %llu", o->slow);
		append(what, wlen, ", the samples of %llu or more kept", o->slow);
	}
	if (o->keep)
		append(cmd, len, " keep %ld", o->keep);
	if (o->seen & O_TOP) {
		append(cmd, len, " top %u", o->top);
		append(what, wlen, ", the %u largest kept", o->top);
	}
	if (o->stack) {
		append(cmd, len, " stack %ld", o->stack);
		append(what, wlen, " with %ld frames of their stack", o->stack);
	}
	if (o->seen & O_WHY) {
		append(cmd, len, " why");
		append(what, wlen, ", each call split: running, waiting for a CPU, asleep, interrupts");
	}
	if (append(cmd, len, "\n"))
		ret = fail("the trace command is longer than %zu characters",
			   len - 1);
out:
	kbtf_close(k);
	return ret;
}

static int cmd_trace(struct opts *o)
{
	char cmd[CMD_MAX], what[CMD_MAX], title[2 * CMD_MAX];
	struct child child = { .pid = -1, .go = -1, .err = -1 };
	const char *name;
	int ret;

	if (o->nargs != 1 || !(name = node_name(o->args[0])))
		return usage_error("trace takes one FUNC (a kernel function name), a GLOB or F1,F2,... (several functions), tp:GROUP:EVENT, or PATH:SYMBOL (a user program's function, PATH absolute)");
	if (o->by && !strcmp(o->by, "func") && !multi_target(o->args[0]))
		return usage_error("--by func is for several functions: a GLOB or F1,F2,...");
	if ((o->seen & O_MAXKEYS) && !o->by)
		return usage_error("--max-keys goes with --by");
	if (o->folded && (!o->by || (o->seen & O_INT)))
		return usage_error("--folded prints the keys of --by once, at the end (no -i)");
	if (o->slow_set && (o->seen & O_TOP))
		return usage_error("--slow and --top: one of them");
	if (o->keep && !o->slow_set)
		return usage_error("--keep goes with --slow");
	if (o->stack && !o->slow_set && !(o->seen & O_TOP))
		return usage_error("--stack goes with --slow or --top");
	if ((o->seen & O_TOP) && o->top > 4096)
		return usage_error("trace --top keeps at most 4096 samples");
	if ((o->seen & O_WHY) && ((o->seen & O_VALUE) ||
				  !strncmp(o->args[0], "tp:", 3)))
		return usage_error("--why splits a function's calls: not --value, not a tracepoint");
	ret = trace_check_run(o);
	if (!ret && o->nrun)
		ret = run_start(o, &child);
	if (!ret && trace_command(o, o->args[0], cmd, sizeof(cmd), what,
				  sizeof(what)))
		ret = EXIT_ERROR;
	if (ret) {
		child_end(&child);
		return ret;
	}
	snprintf(title, sizeof(title), "%s%s", o->args[0], what);
	return trace_run(o, cmd, name, title, &child);
}

static int set_if(struct opts *o, const char *a)
{
	if (o->nifs == MAX_IFS)
		return usage_error("--if is given at most 4 times");
	o->ifs[o->nifs++] = a;
	return 0;
}

static int set_slow(struct opts *o, const char *a)
{
	double v;

	if (opt_num(a, 0, 9.2e18, &v) || v != (double)(long long)v)
		return usage_error("--slow takes a value in the node's unit (ns for a time), 0 or more");
	o->slow_set = 1;
	o->slow = (unsigned long long)v;
	return 0;
}

static OPT_STR(o_value, "value", 0, "EXPR", value, O_VALUE, OPT_ONCE,
	       "record EXPR: ret, a parameter, *param, a->b.c");
static OPT_FN(o_if, "if", 0, "'EXPR OP C'", set_if, O_IF, OPT_REPEAT,
	      "only if EXPR OP C (== != < <= > >= &), up to 4");
static OPT_NUM(o_tr_top, "top", 0, "K", K_UINT, top, 1, 1e9,
	       "--top takes a count, 1 or more", O_TOP, 0,
	       "keep the K largest samples; a family's K keys");
static OPT_FN(o_slow, "slow", 0, "V", set_slow, O_SLOW, OPT_ONCE,
	      "keep the samples of V or more, with their task");
static OPT_NUM(o_keep, "keep", 0, "M", K_LONG, keep, 1, 65536,
	       "--keep takes a count from 1 to 65536", O_OUTLIERS, 0,
	       "with --slow: keep the newest M (default 256)");
static OPT_NUM(o_stack, "stack", 0, "N", K_LONG, stack, 1, 64,
	       "--stack takes a count of frames from 1 to 64", O_OUTLIERS, 0,
	       "with --slow, --top: N frames of their stack");

static const struct optdef *const trace_opts[] = {
	LIVE_FIRST, &o_value, &o_if, &o_pid, LIVE_FILTERS, &o_tr_top, &o_slow,
	&o_keep, &o_stack, &o_why, LIVE_LAST, NULL,
};

const struct cmddef trace_cmd = {
	.name = "trace",
	.args = "FUNC|GLOB|F1,F2,...|tp:GROUP:EVENT|PATH:SYMBOL",
	.opts = trace_opts, .fn = cmd_trace, .flags = CMD_RUN, .more = RUN_MORE,
	.summary = "how long FUNC takes, or EXPR's values, for whom",
};
