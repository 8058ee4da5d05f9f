// SPDX-License-Identifier: GPL-2.0
/*
 * The grammar of the commands written to kstats' files: _control's
 * "new", "remove" and "trace" (with values and filters), and a
 * distribution file's "start", "stop" and "reset".  Text in, a struct
 * kstats_cmd out: nothing is created, registered or allocated here, so
 * that every token can be tested by KUnit.  Each refusal is -EINVAL with
 * one ratelimited line in the kernel log naming the token, and the same
 * reason with the word's place in the command noted in the command's
 * struct kstats_refusal, for _errors (kstats_refuse()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/string.h>

#include "kstats_cmd.h"
#include "kstats_errors.h"
#include "kstats_family.h"
#include "kstats_internal.h"
#include "kstats_multi.h"
#include "kstats_trace.h"
#include "kstats_uprobe.h"

/* A refusal of the grammar: "kstats: _control: ..." in the kernel log. */
#define kstats_cmd_refuse(why, word, fmt, ...)				\
	kstats_refuse(why, word, "_control", fmt, ##__VA_ARGS__)

/**
 * kstats_parse_node_command() - parse a write to a distribution file
 * @buf: the command: start, stop or reset, in any case, with blanks and a
 *	newline allowed around it
 * @op: where to store KSTATS_NODE_START, _STOP or _RESET
 *
 * Context: any.
 * Return: 0, or -EINVAL for anything else.
 */
int kstats_parse_node_command(const char *buf, int *op)
{
	static const char * const words[] = {
		[KSTATS_NODE_START] = "start",
		[KSTATS_NODE_STOP] = "stop",
		[KSTATS_NODE_RESET] = "reset",
	};
	size_t len;
	int i;

	buf = skip_spaces(buf);
	len = strlen(buf);
	while (len && isspace(buf[len - 1]))
		len--;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		if (len == strlen(words[i]) && !strncasecmp(buf, words[i], len)) {
			*op = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_NS_GPL(kstats_parse_node_command, KSTATS_NS);

/* The next blank-separated word of *@rest, or NULL. */
static char *kstats_next_token(char **rest)
{
	char *tok;

	do {
		tok = strsep(rest, " \t\n");
	} while (tok && !*tok);
	return tok;
}

/* ":SIZE" at *@s: 1, 2, 4, 8, s1, s2 or s4; *@s moves past it. */
static int kstats_parse_width(const char **s, struct kstats_width *w)
{
	const char *p = *s;

	if (*p++ != ':')
		return -EINVAL;
	w->sign = *p == 's';
	if (w->sign)
		p++;
	switch (*p) {
	case '1':
	case '2':
	case '4':
		w->size = *p - '0';
		break;
	case '8':
		if (w->sign)
			return -EINVAL;
		w->size = 8;
		break;
	default:
		return -EINVAL;
	}
	p++;
	if (*p && *p != '+' && *p != '-')
		return -EINVAL;
	*s = p;
	return 0;
}

/* "+OFF:SIZE" or "-OFF:SIZE" at *@s; *@s moves past it. */
static int kstats_parse_deref(const char **s, struct kstats_deref *d,
			      const char *text, struct kstats_refusal *why)
{
	char num[16];
	const char *p = *s + 1;
	size_t len = strcspn(p, ":");
	s64 off;

	if (!len || len >= sizeof(num) || !p[len]) {
		kstats_cmd_refuse(why, text,
				  "value '%s': a dereference is +OFF:SIZE or -OFF:SIZE",
				  text);
		return -EINVAL;
	}
	memcpy(num, p, len);
	num[len] = '\0';
	if (kstrtos64(num, 0, &off) || off < 0 || off > KSTATS_MAX_OFFSET) {
		kstats_cmd_refuse(why, text, "value '%s': offset '%s' is not 0..%d",
				  text, num, KSTATS_MAX_OFFSET);
		return -EINVAL;
	}
	d->off = **s == '-' ? -off : off;
	p += len;
	if (kstats_parse_width(&p, &d->width)) {
		kstats_cmd_refuse(why, text,
				  "value '%s': size after offset %s is not 1, 2, 4, 8, s1, s2 or s4",
				  text, num);
		return -EINVAL;
	}
	*s = p;
	return 0;
}

/**
 * kstats_parse_value() - parse a value: ret or argN, a cast, dereferences
 * @s: the text, e.g. "ret", "ret:s4", "arg3+0:8", "arg0+32:8+80:8"
 * @v: where to store it
 * @why: where a refusal is noted, at @s (kstats_refuse()), or NULL
 *
 * argN is the N-th argument, N 0..KSTATS_MAX_ARGS - 1; ":SIZE" right after
 * it keeps its low SIZE bytes; each "+OFF:SIZE" or "-OFF:SIZE" reads SIZE
 * bytes at the value + OFF (OFF decimal or 0x-hex, 0..KSTATS_MAX_OFFSET),
 * at most KSTATS_MAX_DEREFS of them, all but the last of size 8.  SIZE is
 * 1, 2, 4 or 8 (zero-extended) or s1, s2, s4 (sign-extended).
 *
 * Context: any.
 * Return: 0, or -EINVAL with one ratelimited line saying why.
 */
int kstats_parse_value(const char *s, struct kstats_value *v,
		       struct kstats_refusal *why)
{
	const char *p = s;
	int i;

	memset(v, 0, sizeof(*v));
	if (!strncmp(p, "ret", 3)) {
		v->base = KSTATS_BASE_RET;
		p += 3;
	} else if (!strncmp(p, "arg", 3) && isdigit(p[3])) {
		unsigned int n = 0;

		for (p += 3; isdigit(*p) && n < KSTATS_MAX_ARGS; p++)
			n = n * 10 + *p - '0';
		if (n >= KSTATS_MAX_ARGS || isdigit(*p)) {
			kstats_cmd_refuse(why, s,
					  "value '%s': arguments are arg0 to arg%d",
					  s, KSTATS_MAX_ARGS - 1);
			return -EINVAL;
		}
		v->base = KSTATS_BASE_ARG;
		v->arg = n;
	} else {
		kstats_cmd_refuse(why, s,
				  "value '%s': use ret or argN, then +OFF:SIZE dereferences",
				  s);
		return -EINVAL;
	}
	if (*p == ':' && kstats_parse_width(&p, &v->cast)) {
		kstats_cmd_refuse(why, s,
				  "value '%s': the size of the cast is not 1, 2, 4, 8, s1, s2 or s4",
				  s);
		return -EINVAL;
	}
	while (*p == '+' || *p == '-') {
		if (v->nr_derefs == KSTATS_MAX_DEREFS) {
			kstats_cmd_refuse(why, s,
					  "value '%s': more than %d dereferences",
					  s, KSTATS_MAX_DEREFS);
			return -EINVAL;
		}
		if (kstats_parse_deref(&p, &v->deref[v->nr_derefs], s, why))
			return -EINVAL;
		v->nr_derefs++;
	}
	if (*p) {
		kstats_cmd_refuse(why, s, "value '%s': unexpected '%s'", s, p);
		return -EINVAL;
	}
	for (i = 0; i + 1 < v->nr_derefs; i++) {
		if (v->deref[i].width.size != 8) {
			kstats_cmd_refuse(why, s,
					  "value '%s': dereference %d reads a pointer: its size must be 8",
					  s, i + 1);
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_parse_value, KSTATS_NS);

/* "if V OP C": three tokens of *@rest; @kw is the "if". */
static int kstats_parse_cond(char **rest, struct kstats_filter *f,
			     const char *kw, struct kstats_cmd *cmd)
{
	char *v = kstats_next_token(rest), *op = kstats_next_token(rest);
	char *c = kstats_next_token(rest);
	struct kstats_cond *cond;
	int i;

	if (!v || !op || !c) {
		kstats_cmd_refuse(&cmd->why, NULL,
				  "if %s%s%s: write if VALUE OP CONSTANT, OP one of == != < <= > >= &",
				  v ?: "", op ? " " : "", op ?: "");
		return -EINVAL;
	}
	if (f->nr_conds == KSTATS_MAX_CONDS) {
		kstats_cmd_refuse(&cmd->why, kw,
				  "if %s %s %s: at most %d conditions",
				  v, op, c, KSTATS_MAX_CONDS);
		return -EINVAL;
	}
	cond = &f->cond[f->nr_conds];
	if (kstats_parse_value(v, &cond->v, &cmd->why))
		return -EINVAL;
	if (cond->v.base == KSTATS_BASE_RET && !cmd->at.if_ret)
		cmd->at.if_ret = v;
	for (i = 0; i < KSTATS_NR_OPS; i++)
		if (!strcmp(op, kstats_op_names[i]))
			break;
	if (i == KSTATS_NR_OPS) {
		kstats_cmd_refuse(&cmd->why, op,
				  "if %s %s %s: unknown operator '%s': use == != < <= > >= &",
				  v, op, c, op);
		return -EINVAL;
	}
	cond->op = i;
	if (kstrtos64(c, 0, &cond->c) && kstrtou64(c, 0, (u64 *)&cond->c)) {
		kstats_cmd_refuse(&cmd->why, c, "if %s %s %s: '%s' is not a number",
				  v, op, c, c);
		return -EINVAL;
	}
	f->nr_conds++;
	return 0;
}

/* "pid N", "tid N": a task or thread group id, 0 or more. */
static int kstats_parse_id(const char *key, const char *val, s32 *id,
			   struct kstats_refusal *why)
{
	if (kstrtos32(val, 10, id) || *id < 0) {
		kstats_cmd_refuse(why, val, "%s '%s' is not a %s id (0 or more)",
				  key, val, key);
		return -EINVAL;
	}
	return 0;
}

/* "key task|cpu|argN...": what pairs a section's start with its end. */
static int kstats_parse_key(const char *val, struct kstats_key *k,
			    struct kstats_refusal *why)
{
	memset(k, 0, sizeof(*k));
	if (!strcasecmp(val, "task")) {
		k->kind = KSTATS_KEY_TASK;
		return 0;
	}
	if (!strcasecmp(val, "cpu")) {
		k->kind = KSTATS_KEY_CPU;
		return 0;
	}
	if (strncmp(val, "arg", 3)) {
		kstats_cmd_refuse(why, val,
				  "unknown key '%s': use task, cpu or argN with dereferences",
				  val);
		return -EINVAL;
	}
	k->kind = KSTATS_KEY_VALUE;
	return kstats_parse_value(val, &k->v, why);
}

/* "@key @yes|@no": *@flag is whether @val is @yes; -EINVAL for another. */
static int kstats_parse_either(const char *key, const char *val,
			       const char *yes, const char *no, bool *flag,
			       struct kstats_refusal *why)
{
	*flag = !strcasecmp(val, yes);
	if (*flag || !strcasecmp(val, no))
		return 0;
	kstats_cmd_refuse(why, val, "%s '%s': use %s or %s", key, val, yes, no);
	return -EINVAL;
}

/*
 * A value, key or filter option @key of a trace command, with its word
 * @val, for the point @pt (-1 before "start", else its index in
 * cmd->point).  Return: 1 if @key is none of them, 0 or -EINVAL.
 */
static int kstats_parse_point_option(const char *key, const char *val,
				     int pt, struct kstats_cmd *cmd)
{
	struct kstats_filter *f = pt < 0 ? &cmd->filter : &cmd->point[pt].filter;
	struct kstats_refusal *why = &cmd->why;
	int err, i;

	if (!strcasecmp(key, "value")) {
		cmd->at.value = val;
		return kstats_parse_value(val, &cmd->value, why);
	}
	if (!strcasecmp(key, "key") || !strcasecmp(key, "match") ||
	    !strcasecmp(key, "nest") || !strcasecmp(key, "full") ||
	    !strcasecmp(key, "inflight") || !strcasecmp(key, "over") ||
	    !strcasecmp(key, "under")) {
		/* for sections only: kstats_check_trace() says so */
		if (!cmd->at.section)
			cmd->at.section = key;
	} else if (pt >= 0 && !cmd->at.point_filter) {
		/* a filter, if any: kstats_check_section() may refuse it */
		cmd->at.point_filter = key;
	}
	if (!strcasecmp(key, "key")) {
		if (pt >= 0)
			return kstats_parse_key(val, &cmd->point[pt].key, why);
		err = kstats_parse_key(val, &cmd->point[0].key, why);
		for (i = 1; i < KSTATS_SECTION_POINTS; i++)
			cmd->point[i].key = cmd->point[0].key;
		cmd->key_set = true;
		return err;
	}
	if (!strcasecmp(key, "match")) {
		struct kstats_point_opts *o = &cmd->point[max(pt, 0)];

		if (!cmd->at.match)
			cmd->at.match = val;
		if (strncmp(val, "arg", 3)) {
			kstats_cmd_refuse(why, val,
					  "match '%s': use argN with dereferences",
					  val);
			return -EINVAL;
		}
		err = kstats_parse_value(val, &o->match, why);
		o->has_match = !err;
		for (i = 1; pt < 0 && i < KSTATS_SECTION_POINTS; i++) {
			cmd->point[i].match = o->match;
			cmd->point[i].has_match = o->has_match;
		}
		cmd->match_set = true;
		return err;
	}
	if (!strcasecmp(key, "nest")) {
		cmd->nest_set = true;
		return kstats_parse_either(key, val, "outer", "replace",
					   &cmd->nest_outer, why);
	}
	if (!strcasecmp(key, "full")) {
		cmd->full_set = true;
		return kstats_parse_either(key, val, "refuse", "evict",
					   &cmd->full_refuse, why);
	}
	if (!strcasecmp(key, "over") || !strcasecmp(key, "under")) {
		bool over = tolower(key[0]) == 'o';
		u64 *b = over ? &cmd->over : &cmd->under;

		if (!over)
			cmd->at.under = val;
		if (kstrtou64(val, 0, b) || !*b) {
			kstats_cmd_refuse(why, val,
					  "%s '%s' is not a duration of 1 or more in the clock's unit",
					  key, val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcasecmp(key, "inflight")) {
		if (kstrtou32(val, 0, &cmd->inflight) || !cmd->inflight ||
		    cmd->inflight > KSTATS_PAIR_MAX) {
			kstats_cmd_refuse(why, val, "inflight '%s' is not 1..%lu",
					  val, KSTATS_PAIR_MAX);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcasecmp(key, "pid"))
		return kstats_parse_id(key, val, &f->pid, why);
	if (!strcasecmp(key, "tid"))
		return kstats_parse_id(key, val, &f->tid, why);
	if (!strcasecmp(key, "comm")) {
		if (strscpy_pad(f->comm, val, sizeof(f->comm)) < 0) {
			kstats_cmd_refuse(why, val,
					  "comm '%s' is longer than %d characters",
					  val, TASK_COMM_LEN - 1);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcasecmp(key, "cgroup")) {
		/* resolved when the node is made: the grammar looks nothing up */
		if (strlen(val) >= PATH_MAX) {
			kstats_cmd_refuse(why, val,
					  "cgroup path is longer than %d characters",
					  PATH_MAX - 1);
			return -EINVAL;
		}
		f->cgroup_path = val;
		return 0;
	}
	if (!strcasecmp(key, "cpu")) {
		if (kstrtos32(val, 10, &f->cpu) || f->cpu < 0 ||
		    f->cpu >= nr_cpu_ids || !cpu_possible(f->cpu)) {
			kstats_cmd_refuse(why, val,
					  "cpu '%s' is not a possible CPU (0..%u)",
					  val, nr_cpu_ids - 1);
			return -EINVAL;
		}
		return 0;
	}
	/* not a point's option after all */
	if (cmd->at.point_filter == key)
		cmd->at.point_filter = NULL;
	return 1;
}

/* "max N" next in *@rest, which moves past it; or *@rest unchanged. */
static bool kstats_next_is_max(char **rest)
{
	char *p = *rest ? skip_spaces(*rest) : NULL;

	if (!p || strncasecmp(p, "max", 3) || (p[3] && !isspace(p[3])))
		return false;
	kstats_next_token(rest);
	return true;
}

/*
 * The value of "by V" or "by str:V" in @b.  A string's V may end in +OFF
 * with no size: the string is in place at that offset of what V points
 * to (a task's comm in its task_struct), not at an address read there.
 * @key is the command's own token, cut at that offset while V is parsed.
 */
static int kstats_parse_by_value(char *key, struct kstats_by *b,
				 struct kstats_refusal *why)
{
	char *v = key, *off = NULL;
	u32 n;
	int err;

	b->str = !strncasecmp(v, "str:", 4);
	if (b->str)
		v += 4;
	if (b->str) {
		off = strrchr(v, '+');
		if (off && (!off[1] || strchr(off, ':')))
			off = NULL;
	}
	if (off) {
		if (kstrtou32(off + 1, 10, &n) || n > KSTATS_MAX_OFFSET) {
			kstats_cmd_refuse(why, key,
					  "by %s: the string's offset '%s' is not 0..%d",
					  key, off + 1, KSTATS_MAX_OFFSET);
			return -EINVAL;
		}
		b->str_off = n;
		*off = '\0';
	}
	err = kstats_parse_value(v, &b->v, why);
	if (off)
		*off = '+';
	return err;
}

/*
 * "by V" after a further start @pt of a section: the value its family key
 * is there (the node's by, written at the first start, is a value too).
 */
static int kstats_parse_more_by(char *key, int pt, struct kstats_cmd *cmd)
{
	struct kstats_by *b = &cmd->point[pt].by;

	if (cmd->by.kind != KSTATS_BY_VALUE || b->kind != KSTATS_BY_NONE) {
		kstats_cmd_refuse(&cmd->why, key,
				  "by %s: a further start takes one by, a value, and only after a value by at the first start",
				  key);
		return -EINVAL;
	}
	/* the value's own refusals are said by kstats_parse_by_value() */
	if (!strncmp(key + 4 * !strncasecmp(key, "str:", 4), "arg", 3) &&
	    kstats_parse_by_value(key, b, &cmd->why))
		return -EINVAL;
	if (strncmp(key + 4 * !strncasecmp(key, "str:", 4), "arg", 3) ||
	    b->str != cmd->by.str) {
		kstats_cmd_refuse(&cmd->why, key,
				  "by %s: a further start's key is argN with dereferences, str: as the first start's",
				  key);
		return -EINVAL;
	}
	b->kind = KSTATS_BY_VALUE;
	return 0;
}

/* "by stack [N]": N frames, KSTATS_BY_STACK_DEFAULT if none is next. */
static int kstats_parse_stack_frames(char **rest, struct kstats_cmd *cmd)
{
	char *p = *rest ? skip_spaces(*rest) : NULL, *n;
	u8 frames;

	cmd->by.frames = KSTATS_BY_STACK_DEFAULT;
	if (!p || !isdigit(*p))
		return 0;
	n = kstats_next_token(rest);
	if (kstrtou8(n, 0, &frames) || !frames ||
	    frames > KSTATS_BY_STACK_MAX) {
		kstats_cmd_refuse(&cmd->why, n, "by stack '%s' is not 1..%d frames",
				  n, KSTATS_BY_STACK_MAX);
		return -EINVAL;
	}
	cmd->by.frames = frames;
	return 0;
}

/*
 * What "by" takes, as its messages list it: the words of
 * kstats_by_key_list.h, in its order, then a value.
 */
static const char kstats_by_usage[] =
#define KSTATS_BY_KEY(...)	\
	KSTATS_KEY_WORD(__VA_ARGS__) KSTATS_KEY_ARG(__VA_ARGS__) ", "
#include "kstats_by_key_list.h"
	/* and a value */
	"ret or argN with dereferences";

/*
 * "by comm|pid|tid|cpu|caller|cgroup|stack [N]|ret|argN... [max N]": one
 * histogram per key, at most N keys.  The key of a section is taken at its start; a further
 * start names its own value (kstats_parse_more_by()).
 */
static int kstats_parse_by(char **rest, int pt, struct kstats_cmd *cmd)
{
	char *key = kstats_next_token(rest), *max;
	int i;

	if (!key) {
		kstats_cmd_refuse(&cmd->why, NULL,
				  "by needs a key: %s", kstats_by_usage);
		return -EINVAL;
	}
	if (pt == KSTATS_POINT_END) {
		kstats_cmd_refuse(&cmd->why, key,
				  "by %s: write it with the start point's options: a section's key is taken at its start",
				  key);
		return -EINVAL;
	}
	if (pt > KSTATS_POINT_END)
		return kstats_parse_more_by(key, pt, cmd);
	if (cmd->by.kind != KSTATS_BY_NONE) {
		kstats_cmd_refuse(&cmd->why, key, "by %s: one by per node", key);
		return -EINVAL;
	}
	cmd->at.by = key;
	for (i = KSTATS_BY_COMM; i < ARRAY_SIZE(kstats_by_names); i++)
		if (!strcasecmp(key, kstats_by_names[i]))
			cmd->by.kind = i;
	if (cmd->by.kind == KSTATS_BY_NONE) {
		/* "str:V": V is the address of a string, the key its text */
		const char *v = key + 4 * !strncasecmp(key, "str:", 4);

		if (strncmp(v, "arg", 3) && strncmp(v, "ret", 3)) {
			kstats_cmd_refuse(&cmd->why, key,
					  "unknown by key '%s': use %s, or str:V for the string at V",
					  key, kstats_by_usage);
			return -EINVAL;
		}
		if (kstats_parse_by_value(key, &cmd->by, &cmd->why))
			return -EINVAL;
		cmd->by.kind = KSTATS_BY_VALUE;
	}
	if (kstats_by_takes_number(cmd->by.kind)) {
		if (kstats_parse_stack_frames(rest, cmd))
			return -EINVAL;
	} else if (*rest && isdigit(*skip_spaces(*rest))) {
		kstats_cmd_refuse(&cmd->why, skip_spaces(*rest),
				  "by %s takes no number (only by stack N does)",
				  key);
		return -EINVAL;
	}
	cmd->by_max = KSTATS_FAMILY_DEFAULT;
	if (!kstats_next_is_max(rest))
		return 0;
	max = kstats_next_token(rest);
	if (!max || kstrtou32(max, 0, &cmd->by_max) || !cmd->by_max ||
	    cmd->by_max > KSTATS_FAMILY_MAX) {
		kstats_cmd_refuse(&cmd->why, max, "by %s max '%s' is not 1..%d",
				  key, max ?: "", KSTATS_FAMILY_MAX);
		return -EINVAL;
	}
	cmd->by_max_set = true;
	return 0;
}

/*
 * "start POINT": the first start, or a further one (before the end, at most
 * KSTATS_SECTION_STARTS).  Return: its index in cmd->point, or -EINVAL.
 */
static int kstats_parse_start(const char *val, struct kstats_cmd *cmd)
{
	if (!cmd->start) {
		cmd->start = val;
		return KSTATS_POINT_START;
	}
	if (cmd->end || cmd->nr_more == ARRAY_SIZE(cmd->more)) {
		kstats_cmd_refuse(&cmd->why, val, "start %s: %s", val, cmd->end ?
				  "a section's starts come before its end" :
				  "a section has at most 3 starts");
		return -EINVAL;
	}
	cmd->more[cmd->nr_more] = val;
	return KSTATS_POINT_END + 1 + cmd->nr_more++;
}

/*
 * "slow V", "keep M", "top K", "stack N": which samples a trace node keeps
 * with their context.  Return: 0, 1 for another option, or -EINVAL.
 */
static int kstats_parse_outlier(const char *key, const char *val,
				struct kstats_cmd *cmd)
{
	struct kstats_outlier_cfg *o = &cmd->outlier;
	u32 n;

	if (!strcasecmp(key, "slow")) {
		if (o->mode != KSTATS_OUTLIER_NONE || *val == '-' ||
		    kstrtou64(val, 0, &o->slow) || o->slow > S64_MAX) {
			kstats_cmd_refuse(&cmd->why, o->mode ? key : val,
					  "slow '%s': %s", val,
					  o->mode ? "one of slow or top per node" :
					  "not a number from 0 to 2^63 - 1");
			return -EINVAL;
		}
		o->mode = KSTATS_OUTLIER_SLOW;
		cmd->at.outlier = key;
		return 0;
	}
	if (strcasecmp(key, "keep") && strcasecmp(key, "top"))
		return 1;
	if (kstrtou32(val, 0, &n))
		n = 0;
	if (!strcasecmp(key, "top")) {
		if (o->mode != KSTATS_OUTLIER_NONE || !n ||
		    n > KSTATS_OUTLIER_TOP_MAX) {
			kstats_cmd_refuse(&cmd->why, o->mode ? key : val,
					  "top '%s': %s", val,
					  o->mode ? "one of slow or top per node" :
					  "not 1..4096");
			return -EINVAL;
		}
		o->mode = KSTATS_OUTLIER_TOP;
		o->keep = n;
		cmd->at.outlier = key;
	} else {
		if (o->keep_set || !n || n > KSTATS_OUTLIER_KEEP_MAX) {
			kstats_cmd_refuse(&cmd->why, o->keep_set ? key : val,
					  "keep '%s' is not 1..%d, once",
					  val, KSTATS_OUTLIER_KEEP_MAX);
			return -EINVAL;
		}
		o->keep_set = true;
		o->keep = n;
		cmd->at.keep = key;
	}
	return 0;
}

/*
 * "stack [N]": the frames kept with each outlier, KSTATS_OUTLIER_STACK_DEFAULT
 * without N.  N is the next word if it starts with a digit; @key is the
 * "stack".
 */
static int kstats_parse_stack(char **rest, const char *key,
			      struct kstats_cmd *cmd)
{
	struct kstats_outlier_cfg *o = &cmd->outlier;
	char *p = *rest ? skip_spaces(*rest) : NULL;
	const char *val = "";
	u32 n = KSTATS_OUTLIER_STACK_DEFAULT;

	if (p && isdigit(*p)) {
		val = kstats_next_token(rest);
		if (kstrtou32(val, 0, &n))
			n = 0;
	} else if (p && *p == '-') {
		val = kstats_next_token(rest);
		n = 0;
	}
	if (o->stack || !n || n > KSTATS_OUTLIER_STACK_MAX) {
		kstats_cmd_refuse(&cmd->why, o->stack || !*val ? key : val,
				  "stack '%s' is not 1..%d, once",
				  val, KSTATS_OUTLIER_STACK_MAX);
		return -EINVAL;
	}
	o->stack = n;
	cmd->at.stack = key;
	return 0;
}

/* What "slow", "top", "keep" and "stack" may not combine. */
static int kstats_check_outlier(struct kstats_cmd *cmd, const char *arg)
{
	struct kstats_outlier_cfg *o = &cmd->outlier;

	if (o->keep_set && o->mode != KSTATS_OUTLIER_SLOW) {
		kstats_cmd_refuse(&cmd->why, cmd->at.keep,
				  "trace %s: keep M is how many of slow V are kept: %s",
				  arg, o->mode ? "top K keeps K" : "give slow V");
		return -EINVAL;
	}
	if (o->stack && o->mode == KSTATS_OUTLIER_NONE) {
		kstats_cmd_refuse(&cmd->why, cmd->at.stack,
				  "trace %s: stack N is the stack kept with each outlier: give slow V or top K",
				  arg);
		return -EINVAL;
	}
	if (o->mode == KSTATS_OUTLIER_SLOW && !o->keep_set)
		o->keep = KSTATS_OUTLIER_KEEP_DEFAULT;
	return 0;
}

/*
 * A section whose every point is keyed by the current task: its start and
 * its end are the same task's, which "why" follows between them.
 */
static bool kstats_cmd_task_keyed(const struct kstats_cmd *cmd)
{
	unsigned int i;

	for (i = 0; i <= KSTATS_POINT_END + cmd->nr_more; i++)
		if (cmd->point[i].key.kind != KSTATS_KEY_TASK)
			return false;
	return true;
}

/*
 * "history NS COUNT": a ring of COUNT slices of NS ns each (its memory
 * and its bound are the core's to check: kstats_history_check()).
 */
static int kstats_parse_history(char **rest, const char *key, const char *val,
				struct kstats_cmd *cmd)
{
	const char *count = kstats_next_token(rest);

	if (cmd->cfg.history_slices) {
		kstats_cmd_refuse(&cmd->why, key, "history: once");
		return -EINVAL;
	}
	if (kstrtou64(val, 0, &cmd->cfg.history_slice_ns) ||
	    !cmd->cfg.history_slice_ns) {
		kstats_cmd_refuse(&cmd->why, val,
				  "history '%s': a slice's length in ns, over 0",
				  val);
		return -EINVAL;
	}
	if (!count || kstrtou32(count, 0, &cmd->cfg.history_slices) ||
	    !cmd->cfg.history_slices) {
		kstats_cmd_refuse(&cmd->why, count,
				  "history %s '%s': how many slices to keep, over 0",
				  val, count ?: "");
		cmd->cfg.history_slices = 0;
		return -EINVAL;
	}
	return 0;
}

/*
 * "freeze", "thaw", "trigger NAME above V [after NS]": the histories'
 * commands, of no distribution but "trigger"'s.
 */
static int kstats_parse_history_command(char *verb, char **rest,
					struct kstats_cmd *cmd)
{
	char *name, *word, *v;

	if (!strcasecmp(verb, "freeze") || !strcasecmp(verb, "thaw")) {
		cmd->op = tolower(verb[0]) == 'f' ? KSTATS_CMD_FREEZE :
						    KSTATS_CMD_THAW;
		word = kstats_next_token(rest);
		if (word) {
			kstats_cmd_refuse(&cmd->why, word,
					  "%s takes nothing, got '%s'", verb, word);
			return -EINVAL;
		}
		return 0;
	}
	cmd->op = KSTATS_CMD_TRIGGER;
	name = kstats_next_token(rest);
	if (!name) {
		kstats_cmd_refuse(&cmd->why, NULL,
				  "trigger needs a name: trigger NAME above V [after NS]");
		return -EINVAL;
	}
	cmd->cfg.name = name;
	cmd->why.name_at = name;
	word = kstats_next_token(rest);
	v = kstats_next_token(rest);
	if (!word || strcasecmp(word, "above") || !v ||
	    kstrtou64(v, 0, &cmd->trigger_above) || !cmd->trigger_above) {
		kstats_cmd_refuse(&cmd->why, v ?: word,
				  "trigger %s: 'above V' with V over 0", name);
		return -EINVAL;
	}
	word = kstats_next_token(rest);
	if (!word)
		return 0;
	v = kstats_next_token(rest);
	if (strcasecmp(word, "after") || !v ||
	    kstrtou64(v, 0, &cmd->trigger_after)) {
		kstats_cmd_refuse(&cmd->why, v ?: word,
				  "trigger %s above %llu: then 'after NS' or nothing",
				  name, cmd->trigger_above);
		return -EINVAL;
	}
	word = kstats_next_token(rest);
	if (word) {
		kstats_cmd_refuse(&cmd->why, word,
				  "trigger: nothing after 'after %s', got '%s'",
				  v, word);
		return -EINVAL;
	}
	return 0;
}

/* Parse "keyword value" options after the first words of a command. */
static int kstats_parse_options(char **rest, struct kstats_cmd *cmd)
{
	bool trace = cmd->op == KSTATS_CMD_TRACE;
	char *key, *val;
	int err, pt = -1;

	while ((key = kstats_next_token(rest))) {
		if (trace && !strcasecmp(key, "gap")) {
			cmd->gap = true;
			cmd->at.gap = key;
			continue;
		}
		if (trace && !strcasecmp(key, "why")) {
			if (cmd->split) {
				kstats_cmd_refuse(&cmd->why, key, "why: once");
				return -EINVAL;
			}
			cmd->split = true;
			cmd->at.split = key;
			continue;
		}
		if (trace && !strcasecmp(key, "stack")) {
			if (kstats_parse_stack(rest, key, cmd))
				return -EINVAL;
			continue;
		}
		if (trace && !strcasecmp(key, "by")) {
			if (kstats_parse_by(rest, pt, cmd))
				return -EINVAL;
			continue;
		}
		if (trace && !strcasecmp(key, "if")) {
			if (pt >= 0 && !cmd->at.point_filter)
				cmd->at.point_filter = key;
			if (kstats_parse_cond(rest, pt < 0 ? &cmd->filter :
						    &cmd->point[pt].filter,
					      key, cmd))
				return -EINVAL;
			continue;
		}
		val = kstats_next_token(rest);
		if (!val) {
			kstats_cmd_refuse(&cmd->why, NULL, "'%s' needs a value", key);
			return -EINVAL;
		}
		if (!strcasecmp(key, "history")) {
			if (kstats_parse_history(rest, key, val, cmd))
				return -EINVAL;
			continue;
		}
		if (trace) {
			err = kstats_parse_point_option(key, val, pt, cmd);
			if (err <= 0) {
				if (err)
					return err;
				continue;
			}
			err = kstats_parse_outlier(key, val, cmd);
			if (err <= 0) {
				if (err)
					return err;
				continue;
			}
		}
		if (!strcasecmp(key, "bits")) {
			err = kstrtouint(val, 10, &cmd->cfg.frac_bits);
			if (err || cmd->cfg.frac_bits > KSTATS_MAX_FRAC_BITS) {
				kstats_cmd_refuse(&cmd->why, val,
						  "bits '%s' is not 0..%d",
						  val, KSTATS_MAX_FRAC_BITS);
				return -EINVAL;
			}
		} else if (!strcasecmp(key, "clock")) {
			err = kstats_parse_clock(val, &cmd->cfg.clock);
			if (err == -EOPNOTSUPP) {
				kstats_cmd_refuse(&cmd->why, val,
						  "clock tsc is x86's: use clock cycles");
				return err;
			}
			if (err) {
				kstats_cmd_refuse(&cmd->why, val,
						  "unknown clock '%s': use ktime, local, cycles (tsc on x86) or none",
						  val);
				return -EINVAL;
			}
			cmd->clock_set = true;
			cmd->at.clock = val;
		} else if (!strcasecmp(key, "max")) {
			if (kstrtou64(val, 0, &cmd->cfg.max_value)) {
				kstats_cmd_refuse(&cmd->why, val,
						  "max '%s' is not a number", val);
				return -EINVAL;
			}
		} else if (trace && !strcasecmp(key, "name")) {
			cmd->cfg.name = val;
		} else if (trace && !strcasecmp(key, "start")) {
			pt = kstats_parse_start(val, cmd);
			if (pt < 0)
				return pt;
		} else if (trace && !strcasecmp(key, "end")) {
			if (cmd->end) {
				kstats_cmd_refuse(&cmd->why, val,
						  "end %s: a section has one end",
						  val);
				return -EINVAL;
			}
			cmd->end = val;
			pt = KSTATS_POINT_END;
		} else if (trace && !strcasecmp(key, "mech")) {
			cmd->mech = val;
		} else if (trace && !strcasecmp(key, "maxactive")) {
			if (kstrtouint(val, 10, &cmd->maxactive) ||
			    cmd->maxactive > KSTATS_MAX_ACTIVE) {
				kstats_cmd_refuse(&cmd->why, val,
						  "maxactive '%s' is not 0..%d",
						  val, KSTATS_MAX_ACTIVE);
				return -EINVAL;
			}
		} else {
			kstats_cmd_refuse(&cmd->why, key, "unknown option '%s'%s",
					  key, trace ? "" :
					  " (values and filters are for trace)");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A section's filters: those written before "start" hold at both points,
 * those after a point at that point alone; not both for one point.
 */
static int kstats_check_section(struct kstats_cmd *cmd, const char *arg)
{
	unsigned int i, n = KSTATS_POINT_END + 1 + cmd->nr_more;
	const char *pts[KSTATS_SECTION_POINTS];

	BUILD_BUG_ON(KSTATS_SECTION_POINTS != 4);
	pts[KSTATS_POINT_START] = cmd->start;
	pts[KSTATS_POINT_END] = cmd->end;
	pts[KSTATS_POINT_END + 1] = cmd->more[0];
	pts[KSTATS_POINT_END + 2] = cmd->more[1];
	for (i = 0; i < n; i++) {
		if (pts[i] && kstats_multi_spec(pts[i])) {
			kstats_cmd_refuse(&cmd->why, pts[i],
					  "trace %s: a section's point is one place: '%s' names several functions",
					  arg, pts[i]);
			return -EINVAL;
		}
	}

	for (i = 0; i < n; i++) {
		struct kstats_filter *f = &cmd->point[i].filter;

		if (kstats_filter_uses_ret(f)) {
			kstats_cmd_refuse(&cmd->why, cmd->at.if_ret,
					  "trace %s: if ret is for functions: a section's point returns nothing",
					  arg);
			return -EINVAL;
		}
		if (kstats_filter_is_empty(&cmd->filter))
			continue;
		if (!kstats_filter_is_empty(f)) {
			kstats_cmd_refuse(&cmd->why, cmd->at.point_filter,
					  "trace %s: filters before start hold at both points: write them there or after each point, not both",
					  arg);
			return -EINVAL;
		}
		*f = cmd->filter;
	}
	if (cmd->over && cmd->under && cmd->over > cmd->under) {
		kstats_cmd_refuse(&cmd->why, cmd->at.under,
				  "trace %s: over %llu under %llu: no duration is both",
				  arg, cmd->over, cmd->under);
		return -EINVAL;
	}
	for (i = 1; i < n; i++) {
		if (cmd->point[0].has_match != cmd->point[i].has_match) {
			kstats_cmd_refuse(&cmd->why, cmd->at.match,
					  "trace %s: match is what the start and the end agree on: give it at both points (each start and the end)",
					  arg);
			return -EINVAL;
		}
		if (i > KSTATS_POINT_END && cmd->by.kind == KSTATS_BY_VALUE &&
		    cmd->point[i].by.kind != KSTATS_BY_VALUE) {
			kstats_cmd_refuse(&cmd->why, cmd->more[i - KSTATS_POINT_END - 1],
					  "trace %s: start %s: a value by is read at each start: give this one its own by V",
					  arg, cmd->more[i - KSTATS_POINT_END - 1]);
			return -EINVAL;
		}
	}
	return 0;
}

/* What a trace command with a value may not combine. */
static int kstats_check_value(struct kstats_cmd *cmd, const char *arg)
{
	bool tp = !strncmp(arg, "tp:", 3);

	if (cmd->start) {
		kstats_cmd_refuse(&cmd->why, cmd->at.value,
				  "trace %s: value is for functions and tracepoints, not sections (which record durations)",
				  arg);
		return -EINVAL;
	}
	if (cmd->gap) {
		kstats_cmd_refuse(&cmd->why, cmd->at.gap,
				  "trace %s: gap records times, not values", arg);
		return -EINVAL;
	}
	if (cmd->clock_set && cmd->cfg.clock != KSTATS_CLOCK_NONE) {
		kstats_cmd_refuse(&cmd->why, cmd->at.clock,
				  "trace %s: value records no time: drop clock %s",
				  arg, kstats_clock_name(cmd->cfg.clock));
		return -EINVAL;
	}
	if (tp && kstats_value_uses_ret(&cmd->value)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.value,
				  "trace %s: ret is for functions: a tracepoint returns nothing",
				  arg);
		return -EINVAL;
	}
	cmd->cfg.clock = KSTATS_CLOCK_NONE;
	return 0;
}

/*
 * "trace F1,F2,...": no empty name; what each name may be is the
 * resolver's to say (kstats_multi_resolve()).
 */
static int kstats_check_list(const char *arg, struct kstats_refusal *why)
{
	const char *s = arg;

	if (!strchr(arg, ','))
		return 0;
	for (;;) {
		const char *comma = strchr(s, ',');

		if (comma == s || !*s) {
			kstats_cmd_refuse(why, s,
					  "trace %s: an empty function name in the list",
					  arg);
			return -EINVAL;
		}
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

/*
 * The default name of a node over several functions: its glob or list
 * with the glob's characters left out and the commas made dots
 * ("vfs_*" is vfs_, "a,b" is a.b), "functions" for none left ("all"
 * is no name).
 */
static void kstats_multi_name(const char *spec, char *name, size_t size)
{
	size_t n = 0;

	for (; *spec && n + 1 < size; spec++) {
		if (isalnum(*spec) || *spec == '_' || *spec == '-' ||
		    (*spec == '.' && n))
			name[n++] = *spec;
		else if (*spec == ',' && n)
			name[n++] = '.';
	}
	name[n] = '\0';
	if (!n)
		strscpy(name, "functions", size);
}

/* What a trace command may not combine; @arg is its first word. */
static int kstats_check_trace(struct kstats_cmd *cmd, const char *arg)
{
	bool tp = !strncmp(arg, "tp:", 3);
	bool multi = !cmd->start && kstats_multi_spec(arg);

	if (kstats_check_outlier(cmd, arg))
		return -EINVAL;
	if (multi && kstats_check_list(arg, &cmd->why))
		return -EINVAL;
	if (cmd->by.kind == KSTATS_BY_FUNC && !multi) {
		kstats_cmd_refuse(&cmd->why, cmd->at.by,
				  "trace %s: by func keys a node over several functions (a glob, or F1,F2,...) by each of them",
				  arg);
		return -EINVAL;
	}
	if (!cmd->start != !cmd->end) {
		kstats_cmd_refuse(&cmd->why, cmd->start ?: cmd->end,
				  "trace %s: a section needs both start and end",
				  arg);
		return -EINVAL;
	}
	if (cmd->by.kind != KSTATS_BY_NONE && cmd->gap) {
		kstats_cmd_refuse(&cmd->why, cmd->at.gap,
				  "trace %s: gap times every call in one histogram: it takes no by",
				  arg);
		return -EINVAL;
	}
	if (cmd->by.kind == KSTATS_BY_CALLER &&
	    (cmd->start || tp || strchr(arg, '+'))) {
		kstats_cmd_refuse(&cmd->why, cmd->at.by,
				  "trace %s: by caller is a function's return address, read at its entry: not at %s",
				  arg, tp ? "a tracepoint" : cmd->start ?
				  "a section's point" : "an offset in it");
		return -EINVAL;
	}
	if ((cmd->start || tp) && kstats_by_uses_ret(&cmd->by)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.by,
				  "trace %s: by ret is for functions: %s returns nothing",
				  arg, tp ? "a tracepoint" : "a section's point");
		return -EINVAL;
	}
	if (cmd->split && (cmd->value.base != KSTATS_BASE_NONE || tp ||
			   (cmd->start && !kstats_cmd_task_keyed(cmd)))) {
		kstats_cmd_refuse(&cmd->why, cmd->at.split,
				  "trace %s: why splits what one task does from start to end: not %s",
				  arg, cmd->value.base != KSTATS_BASE_NONE ?
				  "a value" : tp ? "a tracepoint's arrivals" :
				  "a section keyed by other than the task at every point");
		return -EINVAL;
	}
	if (cmd->value.base != KSTATS_BASE_NONE)
		return kstats_check_value(cmd, arg);
	if (cmd->cfg.clock == KSTATS_CLOCK_NONE) {
		kstats_cmd_refuse(&cmd->why, cmd->at.clock,
				  "trace %s: clock none reads no time: use ktime, local or cycles",
				  arg);
		return -EINVAL;
	}
	if (cmd->gap && (cmd->start || tp)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.gap,
				  "trace %s: gap is for functions, not sections or tracepoints",
				  arg);
		return -EINVAL;
	}
	if (cmd->gap && !kstats_filter_is_empty(&cmd->filter)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.gap,
				  "trace %s: gap times every call: it takes no filter",
				  arg);
		return -EINVAL;
	}
	if ((cmd->start || tp) && kstats_filter_uses_ret(&cmd->filter)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.if_ret,
				  "trace %s: if ret is for functions: %s returns nothing",
				  arg, tp ? "a tracepoint" : "a section's point");
		return -EINVAL;
	}
	if (!cmd->start && (cmd->key_set || cmd->inflight || cmd->match_set ||
			    cmd->over || cmd->under ||
			    cmd->nest_set || cmd->full_set)) {
		kstats_cmd_refuse(&cmd->why, cmd->at.section,
				  "trace %s: key, match, nest, full, inflight, over and under are for sections (start ... end ...)",
				  arg);
		return -EINVAL;
	}
	return cmd->start ? kstats_check_section(cmd, arg) : 0;
}

/* Symbols and tracepoint names: no glob or other special characters. */
static bool kstats_symbol_chars(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isascii(*s) || (!isalnum(*s) && *s != '_' && *s != '.'))
			return false;
	return true;
}

/*
 * Split probe point @text into @ps: "tp:GROUP:EVENT", whose group ends at
 * the last ':', or "SYM[+OFF]".  A name that does not end @text (the
 * group, a symbol before "+OFF") is copied to @cmd->names at *@used,
 * which the words of one command always leave room for.  Return: 0 or
 * -EINVAL.
 */
static int kstats_parse_point(const char *text, struct kstats_point_spec *ps,
			      struct kstats_cmd *cmd, size_t *used)
{
	const char *sep;
	size_t len;

	ps->text = text;
	ps->tp = !strncmp(text, "tp:", 3);
	if (ps->tp) {
		sep = strrchr(text + 3, ':');
		if (!sep || sep == text + 3 || !kstats_symbol_chars(sep + 1)) {
			kstats_cmd_refuse(&cmd->why, text,
					  "'%s' is not tp:GROUP:EVENT", text);
			return -EINVAL;
		}
		ps->event = sep + 1;
		text += 3;
	} else {
		sep = strchr(text, '+');
		/* under the offset itself */
		if (sep && kstrtouint(sep + 1, 0, &ps->off)) {
			kstats_cmd_refuse(&cmd->why, sep + 1,
					  "bad offset in '%s'", ps->text);
			return -EINVAL;
		}
	}
	ps->name = text;
	if (sep) {
		len = sep - text;
		if (len + 1 > sizeof(cmd->names) - *used) {
			kstats_cmd_refuse(&cmd->why, ps->text,
					  "probe point '%.32s...' too long",
					  ps->text);
			return -EINVAL;
		}
		memcpy(cmd->names + *used, text, len);
		cmd->names[*used + len] = '\0';
		ps->name = cmd->names + *used;
		*used += len + 1;
	}
	if (!kstats_symbol_chars(ps->name)) {
		if (ps->tp)
			kstats_cmd_refuse(&cmd->why, ps->text,
					  "bad tracepoint group in '%s'",
					  ps->text);
		else
			kstats_cmd_refuse(&cmd->why, ps->text,
					  "bad symbol '%s'", ps->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * Where a trace node's probes go, split for the trace layer
 * (struct kstats_point_spec): a section's points, in the order they are
 * registered (the end, then the starts), or the tracepoint of "trace
 * tp:GROUP:EVENT".  A function's name is checked alone; a glob's, a
 * list's and a user function's are their resolvers' to check
 * (kstats_multi_resolve(), kstats_uprobe_check()).
 */
static int kstats_parse_points(struct kstats_cmd *cmd)
{
	size_t used = 0;
	unsigned int i;
	int err;

	if (!cmd->start) {
		if (!strncmp(cmd->target, "tp:", 3))
			return kstats_parse_point(cmd->target,
						  &cmd->where[KSTATS_POINT_START],
						  cmd, &used);
		if (kstats_multi_spec(cmd->target) ||
		    kstats_uprobe_spec(cmd->target) ||
		    kstats_symbol_chars(cmd->target))
			return 0;
		kstats_cmd_refuse(&cmd->why, cmd->target,
				  "bad function name '%s'", cmd->target);
		return -EINVAL;
	}
	err = kstats_parse_point(cmd->end, &cmd->where[KSTATS_POINT_END], cmd,
				 &used);
	if (!err)
		err = kstats_parse_point(cmd->start,
					 &cmd->where[KSTATS_POINT_START], cmd,
					 &used);
	for (i = 0; !err && i < cmd->nr_more; i++)
		err = kstats_parse_point(cmd->more[i],
					 &cmd->where[KSTATS_POINT_END + 1 + i],
					 cmd, &used);
	return err;
}

/**
 * kstats_parse_command() - parse a write to _control
 * @buf: the command, modified in place; @cmd points into it
 * @cmd: where to store the parsed command
 *
 * The grammar, with keywords in any case:
 *
 *	new NAME [bits B] [clock ktime|local|cycles|tsc|none] [max V]
 *	remove NAME | remove all
 *	trace FUNC [bits B] [clock C] [name NAME] [maxactive N]
 *		[mech direct|fprobe|kretprobe] [gap] [value V] [FILTER...] [BY]
 *	trace NAME start POINT [key K] [match V] [BY] [FILTER...]
 *		[start POINT [key K] [match V] [by V] [FILTER...]]...
 *		end POINT [key K] [match V] [FILTER...] [inflight N]
 *		[over V] [under V]
 *		[nest outer|replace] [full evict|refuse] [bits B] [clock C]
 *		[name NAME]
 *	trace GLOB|F1,F2,... [name NAME] [bits B] [clock C] [FILTER...]
 *		[by func|BY]
 *	trace tp:GROUP:EVENT [name NAME] [bits B] [clock C] [value V]
 *		[FILTER...] [BY]
 *
 * and any trace node takes [slow V [keep M] | top K] [stack [N]]: the
 * samples of V or more (the newest M, KSTATS_OUTLIER_KEEP_DEFAULT by
 * default), or the K largest, kept with their context and, with stack,
 * N frames of the kernel stack (KSTATS_OUTLIER_STACK_DEFAULT without N);
 *
 * where V is ret or argN with dereferences (kstats_parse_value()) and a
 * FILTER is one of pid N, tid N, comm NAME, cpu N or if V OP C (OP one of
 * == != < <= > >= &, C a signed decimal or 0x-hex number; at most
 * KSTATS_MAX_CONDS of them), and BY is "by comm|pid|tid|cpu|caller|cgroup|
 * stack [N]|V [max N]":
 * one histogram per key, at most N keys (KSTATS_FAMILY_DEFAULT, up to
 * KSTATS_FAMILY_MAX), "max" right after the key being the family's.  A
 * trace node's clock is ktime, local or cycles (none records no time), except
 * with a value, which makes it none; gap is for functions without filters;
 * ret for functions only; a section's filters are checked at both its
 * points.  A section has up to KSTATS_SECTION_STARTS starts, any of which
 * its end pairs with; with a value BY, each further start names its own.
 * Options written before the first start hold at every point.  A GLOB
 * (glob_match()'s * ? [...]) or a list F1,F2,... names several functions,
 * one node over all of them, named after them unless "name" is given
 * (kstats_multi_name()); "by func" keys such a node by each of them.
 *
 * A POINT is SYM[+OFF] or tp:GROUP:EVENT, FUNC a symbol: names of
 * [A-Za-z0-9_.], split into @cmd->where (struct kstats_point_spec) for
 * the trace layer, which finds what they name.
 *
 * Every refusal is noted in @cmd->why with the word refused (its offset
 * in @buf), for _errors: a missing word as KSTATS_POS_END.
 *
 * Context: any (no allocation, no lock).
 * Return: 0, or -EINVAL with one ratelimited line in the kernel log
 * saying why.
 */
int kstats_parse_command(char *buf, struct kstats_cmd *cmd)
{
	char *rest, *verb, *arg;
	int i;

	memset(cmd, 0, sizeof(*cmd));
	kstats_refusal_init(&cmd->why, buf);
	rest = strim(buf);
	cmd->cfg.frac_bits = KSTATS_DEFAULT_FRAC_BITS;
	kstats_filter_init(&cmd->filter);
	for (i = 0; i < KSTATS_SECTION_POINTS; i++)
		kstats_filter_init(&cmd->point[i].filter);
	verb = strsep(&rest, " \t\n");
	if (!strcasecmp(verb, "freeze") || !strcasecmp(verb, "thaw") ||
	    !strcasecmp(verb, "trigger"))
		return kstats_parse_history_command(verb, &rest, cmd);
	arg = kstats_next_token(&rest);
	if (!*verb) {
		kstats_cmd_refuse(&cmd->why, NULL, "empty command");
		return -EINVAL;
	}
	if (!strcasecmp(verb, "new")) {
		cmd->op = KSTATS_CMD_NEW;
	} else if (!strcasecmp(verb, "remove")) {
		cmd->op = KSTATS_CMD_REMOVE;
	} else if (!strcasecmp(verb, "trace")) {
		cmd->op = KSTATS_CMD_TRACE;
	} else {
		kstats_cmd_refuse(&cmd->why, verb,
				  "unknown command '%s': use new, remove, trace, freeze, thaw or trigger",
				  verb);
		return -EINVAL;
	}
	if (!arg) {
		kstats_cmd_refuse(&cmd->why, NULL, "%s needs a name", verb);
		return -EINVAL;
	}
	cmd->cfg.name = arg;
	cmd->why.name_at = arg;
	if (cmd->op == KSTATS_CMD_REMOVE) {
		if (rest && *skip_spaces(rest)) {
			kstats_cmd_refuse(&cmd->why, skip_spaces(rest),
					  "remove takes one name, got more: '%s'",
					  skip_spaces(rest));
			return -EINVAL;
		}
		if (!strcasecmp(arg, "all"))
			cmd->op = KSTATS_CMD_REMOVE_ALL;
		return 0;
	}
	if (cmd->op == KSTATS_CMD_TRACE)
		cmd->target = arg;
	if (rest && kstats_parse_options(&rest, cmd))
		return -EINVAL;
	if (cmd->op == KSTATS_CMD_TRACE && kstats_check_trace(cmd, arg))
		return -EINVAL;
	if (cmd->start) {
		/* "trace NAME start ...": NAME, unless "name" says otherwise. */
		cmd->target = NULL;
	} else if (cmd->op == KSTATS_CMD_TRACE && cmd->cfg.name == arg &&
		   !strncmp(arg, "tp:", 3)) {
		/* "trace tp:GROUP:EVENT": named after the event. */
		cmd->cfg.name = strrchr(arg, ':') + 1;
	} else if (cmd->op == KSTATS_CMD_TRACE && cmd->cfg.name == arg &&
		   kstats_multi_spec(arg)) {
		kstats_multi_name(arg, cmd->multi_name, sizeof(cmd->multi_name));
		cmd->cfg.name = cmd->multi_name;
	} else if (cmd->op == KSTATS_CMD_TRACE && cmd->cfg.name == arg &&
		   kstats_uprobe_spec(arg)) {
		/* "trace PATH:SYMBOL": named BASENAME.SYMBOL */
		kstats_uprobe_name(arg, cmd->multi_name, sizeof(cmd->multi_name));
		cmd->cfg.name = cmd->multi_name;
	}
	/* a name made of the glob or list: under the glob */
	cmd->why.name_at = cmd->cfg.name == cmd->multi_name ? arg :
			   cmd->cfg.name;
	if (kstats_check_name(cmd->cfg.name)) {
		kstats_cmd_refuse(&cmd->why, cmd->why.name_at,
				  "invalid name '%s': use 1 to %d of [A-Za-z0-9_.-], not starting with '.', not _control, _errors nor _history",
				  cmd->cfg.name, KSTATS_NAME_MAX);
		return -EINVAL;
	}
	return cmd->op == KSTATS_CMD_TRACE ? kstats_parse_points(cmd) : 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_parse_command, KSTATS_NS);
