// SPDX-License-Identifier: GPL-2.0
/*
 * btf.c - what `kstats trace --value EXPR` and `--if` read, in the kernel's
 * terms: EXPR, written as in the kernel's source, becomes the V of the
 * _control grammar (Documentation/format.rst) with the types of the
 * running kernel's BTF.
 *
 *   ret                the return value, cast to the return type:
 *                      int -> ret:s4, long or a pointer -> ret
 *   count              a parameter: argN, its place in the calling
 *                      convention (x86-64's, or arm64's AAPCS64 when built
 *                      for arm64; a tracepoint: its place in TP_PROTO),
 *                      cast as ret: unsigned int -> arg1:4, short -> :s2
 *   *pos               what it points to: arg3+0:8
 *   a->b.c, a[i]       fields: each -> reads a pointer (+OFF:8), . and an
 *                      array index add to the offset; the last read has
 *                      the size and signedness of the final field
 *
 * Refused with a reason: unknown names, bitfields, arrays without an
 * index, structs, unions and floats as values, void, more than 4 reads,
 * parameters that the calling convention does not put in argN.
 *
 * A string (the V of "by str:V", btf_translate_string()) is a pointer to
 * char, read as any pointer ("action->name": arg1+80:8), or an array of
 * char in memory, whose address is the key's: its offset with no size
 * ("p->comm": arg0+OFF, the string in place).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf.h"

#define MAX_ARG		11		/* the kernel's arg0..arg11 */
#define MAX_READS	4		/* derefs in a V */
#define MAX_OFF		2147483647LL	/* a deref's offset */
#define MAX_DEPTH	32		/* typedef chains, anonymous members */
#define BTF_DIR		"/sys/kernel/btf"

static int errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct btf_type *type(const struct btf *btf, __u32 id)
{
	return btf__type_by_id(btf, id);
}

/* @id without typedefs and modifiers (const, volatile, restrict, tags). */
static __u32 skip(const struct btf *btf, __u32 id)
{
	for (int i = 0; id && i < MAX_DEPTH; i++) {
		const struct btf_type *t = type(btf, id);

		if (!t || !(btf_is_mod(t) || btf_is_typedef(t)))
			break;
		id = t->type;
	}
	return id;
}

static const char *name_of(const struct btf *btf, __u32 off)
{
	const char *n = btf__name_by_offset(btf, off);

	return n ? n : "";
}

/* The C spelling of type @id, briefly: "struct file *", "size_t". */
static void type_str(const struct btf *btf, __u32 id, char *buf, size_t len,
		     int depth)
{
	const struct btf_type *t = id ? type(btf, id) : NULL;
	const char *n;
	char inner[128];

	if (!id) {
		snprintf(buf, len, "void");
		return;
	}
	if (!t || depth > 8) {
		snprintf(buf, len, "?");
		return;
	}
	n = name_of(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		type_str(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s%s*", inner,
			 inner[strlen(inner) - 1] == '*' ? "" : " ");
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		type_str(btf, t->type, buf, len, depth + 1);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		snprintf(buf, len, "%s %s",
			 btf_is_union(t) ? "union" :
			 btf_is_any_enum(t) ? "enum" :
			 btf_is_fwd(t) && btf_kflag(t) ? "union" : "struct",
			 *n ? n : "(anonymous)");
		break;
	case BTF_KIND_ARRAY:
		type_str(btf, btf_array(t)->type, inner, sizeof(inner),
			 depth + 1);
		snprintf(buf, len, "%s[%u]", inner, btf_array(t)->nelems);
		break;
	case BTF_KIND_FUNC_PROTO:
		snprintf(buf, len, "a function");
		break;
	default:
		snprintf(buf, len, "%s", *n ? n : "?");
	}
}

/*
 * Field @name of struct or union @id, looked for through anonymous members
 * too: its bit offset, type and bitfield size.  1 if found.
 */
static int find_member(const struct btf *btf, __u32 id, const char *name,
		       __u32 *bit_off, __u32 *mtype, __u32 *bits, int depth)
{
	const struct btf_type *t = type(btf, id);
	const struct btf_member *m = btf_members(t);

	for (__u32 i = 0; i < btf_vlen(t); i++) {
		const char *mn = name_of(btf, m[i].name_off);
		__u32 sub = skip(btf, m[i].type);
		const struct btf_type *st = type(btf, sub);

		if (*mn) {
			if (strcmp(mn, name))
				continue;
			*bit_off = btf_member_bit_offset(t, i);
			*mtype = m[i].type;
			*bits = btf_member_bitfield_size(t, i);
			return 1;
		}
		if (st && btf_is_composite(st) && depth < MAX_DEPTH &&
		    find_member(btf, sub, name, bit_off, mtype, bits,
				depth + 1)) {
			*bit_off += btf_member_bit_offset(t, i);
			return 1;
		}
	}
	return 0;
}

/* Up to a few field names of struct or union @id, for a hint. */
static void list_members(const struct btf *btf, __u32 id, char *buf,
			 size_t len, int *left, int depth)
{
	const struct btf_type *t = type(btf, id);
	const struct btf_member *m = btf_members(t);

	for (__u32 i = 0; i < btf_vlen(t) && *left >= 0; i++) {
		const char *mn = name_of(btf, m[i].name_off);
		__u32 sub = skip(btf, m[i].type);
		const struct btf_type *st = type(btf, sub);
		size_t n = strlen(buf);

		if (!*mn) {
			if (st && btf_is_composite(st) && depth < 4)
				list_members(btf, sub, buf, len, left, depth + 1);
			continue;
		}
		if (!(*left)--) {
			snprintf(buf + n, len - n, ", ...");
			return;
		}
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", mn);
	}
}

/* The translation under way. */
struct tr {
	const struct btf *btf;
	const struct btf_target *t;
	const char *expr;
	size_t from, upto;	/* expr[from, upto): the value so far */
	char *out;
	size_t len, n;
	char *err;
	size_t errlen;
	__u32 type;		/* the value's type */
	int mem;		/* 0: the base itself; 1: in memory at off */
	long long off;		/* past the address last read (mem) */
	int reads;		/* derefs written */
	int str;		/* a string's address, not a number */
};

static int put(struct tr *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int put(struct tr *x, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(x->out + x->n, x->len - x->n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= x->len - x->n)
		return errf(x->err, x->errlen, "'%s': too long a value", x->expr);
	x->n += (size_t)r;
	return 0;
}

#define WHAT(x)	(int)((x)->upto - (x)->from), (x)->expr + (x)->from

/* One deref: 8 bytes (a pointer on the way) or the final field's size. */
static int read_at(struct tr *x, const char *size)
{
	if (x->off > MAX_OFF)
		return errf(x->err, x->errlen,
			    "'%.*s' is at offset %lld, past the kernel's limit of %lld",
			    WHAT(x), x->off, MAX_OFF);
	if (++x->reads > MAX_READS)
		return errf(x->err, x->errlen,
			    "'%s' needs more than %d memory reads: the kernel follows at most %d pointers",
			    x->expr, MAX_READS, MAX_READS);
	return put(x, "+%lld:%s", x->off, size);
}

/* The value, a pointer, is read: what it points to is at + @off. */
static int follow(struct tr *x, long long off, const char *how)
{
	const struct btf_type *t = type(x->btf, skip(x->btf, x->type));
	char ts[160];

	if (!t || !btf_is_ptr(t)) {
		type_str(x->btf, x->type, ts, sizeof(ts), 0);
		return errf(x->err, x->errlen, "'%.*s' is %s, not a pointer: no %s",
			    WHAT(x), ts, how);
	}
	if (!skip(x->btf, t->type))
		return errf(x->err, x->errlen,
			    "'%.*s' is a void pointer: it points to nothing typed",
			    WHAT(x));
	if (x->mem && read_at(x, "8"))
		return -1;
	x->mem = 1;
	x->off = off;
	x->type = t->type;
	return 0;
}

/* ->NAME (@arrow) or .NAME */
static int field(struct tr *x, const char *name, int arrow)
{
	const struct btf_type *t = type(x->btf, skip(x->btf, x->type));
	__u32 bit_off, mtype, bits, id;
	char ts[160], fields[256] = "";
	int left = 8;

	type_str(x->btf, x->type, ts, sizeof(ts), 0);
	if (!t)
		return errf(x->err, x->errlen, "'%.*s': bad BTF type", WHAT(x));
	if (arrow && btf_is_composite(t))
		return errf(x->err, x->errlen, "'%.*s' is %s, not a pointer: write %.*s.%s",
			    WHAT(x), ts, WHAT(x), name);
	if (!arrow && btf_is_ptr(t))
		return errf(x->err, x->errlen, "'%.*s' is a pointer (%s): write %.*s->%s",
			    WHAT(x), ts, WHAT(x), name);
	if (arrow) {
		const struct btf_type *pt;

		if (!btf_is_ptr(t))
			return follow(x, 0, "->");
		pt = type(x->btf, skip(x->btf, t->type));
		if (pt && !btf_is_composite(pt) && !btf_is_fwd(pt)) {
			type_str(x->btf, t->type, ts, sizeof(ts), 0);
			return errf(x->err, x->errlen,
				    "'%.*s' points to %s, not to a struct or union: no field '%s'",
				    WHAT(x), ts, name);
		}
		if (follow(x, 0, "->"))
			return -1;
		t = type(x->btf, skip(x->btf, x->type));
		type_str(x->btf, x->type, ts, sizeof(ts), 0);
	} else if (!btf_is_composite(t) && !btf_is_fwd(t)) {
		return errf(x->err, x->errlen,
			    "'%.*s' is %s, not a struct or union: no field '%s'",
			    WHAT(x), ts, name);
	} else if (!x->mem) {
		return errf(x->err, x->errlen,
			    "'%.*s' is %s passed by value: its fields cannot be read",
			    WHAT(x), ts);
	}
	if (btf_is_fwd(t))
		return errf(x->err, x->errlen,
			    "%s is only declared in this BTF, not defined: its fields are unknown",
			    ts);
	id = skip(x->btf, x->type);
	if (!find_member(x->btf, id, name, &bit_off, &mtype, &bits, 0)) {
		list_members(x->btf, id, fields, sizeof(fields), &left, 0);
		return errf(x->err, x->errlen, "%s has no field '%s' (its fields: %s)",
			    ts, name, *fields ? fields : "none");
	}
	if (bits || bit_off % 8)
		return errf(x->err, x->errlen,
			    "'%.*s%s%s' is a bitfield (%u bits): only whole bytes can be read",
			    WHAT(x), arrow ? "->" : ".", name, bits);
	x->off += bit_off / 8;
	x->type = mtype;
	return 0;
}

/* [@idx]: an element of an array (in memory) or past a pointer. */
static int element(struct tr *x, unsigned long long idx)
{
	__u32 id = skip(x->btf, x->type);
	const struct btf_type *t = type(x->btf, id);
	long long size;
	char ts[160];

	type_str(x->btf, x->type, ts, sizeof(ts), 0);
	if (t && btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);

		if (a->nelems && idx >= a->nelems)
			return errf(x->err, x->errlen,
				    "'%.*s' is %s: index %llu is out of bounds",
				    WHAT(x), ts, idx);
		size = btf__resolve_size(x->btf, a->type);
		if (size <= 0 || idx > (unsigned long long)(MAX_OFF / size))
			return errf(x->err, x->errlen, "'%.*s[%llu]': bad element size or index",
				    WHAT(x), idx);
		x->off += (long long)idx * size;
		x->type = a->type;
		return 0;
	}
	if (t && btf_is_ptr(t)) {
		size = skip(x->btf, t->type) ? btf__resolve_size(x->btf, t->type) : 0;
		if (size <= 0 || idx > (unsigned long long)(MAX_OFF / size))
			return errf(x->err, x->errlen,
				    "'%.*s[%llu]': the index is too large, or %s points to nothing of known size",
				    WHAT(x), idx, ts);
		return follow(x, (long long)idx * size, "[]");
	}
	return errf(x->err, x->errlen, "'%.*s' is %s, not an array or a pointer: no [%llu]",
		    WHAT(x), ts, idx);
}

#ifdef __aarch64__
/* AAPCS64: x0-x7; a structure over 16 bytes goes by reference (a pointer) */
#define REG_SLOTS	8
#define BIG_SLOTS	1
#else
/* x86-64 System V: six registers; a structure over 16 bytes is copied on the stack */
#define REG_SLOTS	6
#define BIG_SLOTS	(-1)
#endif

/* ABI slots taken by a parameter of @size bytes; -1 if on the stack. */
static int slots(long long size)
{
	return size < 0 ? -1 : size <= 8 ? 1 : size <= 16 ? 2 : BIG_SLOTS;
}

static void list_params(const struct btf *btf, const struct btf_target *t,
			char *buf, size_t len)
{
	const struct btf_type *p = type(btf, t->proto);
	const struct btf_param *pp = btf_params(p);
	size_t n = 0;

	buf[0] = '\0';
	for (__u32 i = t->tp ? 1 : 0; i < btf_vlen(p) && pp[i].type; i++) {
		const char *pn = name_of(btf, pp[i].name_off);

		if (*pn)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", pn);
		else
			n += (size_t)snprintf(buf + n, len - n, "%sarg%u", n ? ", " : "",
					      i - (t->tp ? 1 : 0));
		if (n >= len)
			break;
	}
}

/* "argN" without leading zeros: N. */
static int arg_number(const char *name, unsigned int *n)
{
	unsigned long v;
	char *end;

	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]) ||
	    (name[3] == '0' && name[4]))
		return -1;
	v = strtoul(name + 3, &end, 10);
	if (*end || v > 64)
		return -1;
	*n = (unsigned int)v;
	return 0;
}

/* The base: ret, or the parameter called @name (or argN by place). */
static int root(struct tr *x, const char *name)
{
	const struct btf_type *p = type(x->btf, x->t->proto);
	const struct btf_param *pp = btf_params(p);
	__u32 first = x->t->tp ? 1 : 0, vlen = btf_vlen(p), i, slot = 0;
	char list[256], ts[160];
	unsigned int n;

	if (!strcmp(name, "ret")) {
		if (x->t->tp)
			return errf(x->err, x->errlen,
				    "'ret': %s is a tracepoint, it has no return value",
				    x->t->name);
		if (!skip(x->btf, p->type))
			return errf(x->err, x->errlen,
				    "'ret': %s returns void", x->t->name);
		x->type = p->type;
		return put(x, "ret");
	}
	for (i = first; i < vlen && pp[i].type; i++)
		if (!strcmp(name_of(x->btf, pp[i].name_off), name))
			break;
	if ((i == vlen || !pp[i].type) && !arg_number(name, &n) &&
	    n < vlen - first && pp[n + first].type)
		i = n + first;	/* argN: the N-th, when none is called so */
	if (i == vlen || !pp[i].type) {
		list_params(x->btf, x->t, list, sizeof(list));
		return errf(x->err, x->errlen, "%s has no parameter '%s' (%s%s)",
			    x->t->name, name, *list ? "its parameters: " : "it has none",
			    list);
	}
	if (x->t->tp) {
		slot = i - 1;
	} else {
		for (__u32 j = 0; j <= i; j++) {
			int s = slots(btf__resolve_size(x->btf, pp[j].type));

			if (s < 0 || (s == 2 && slot == REG_SLOTS - 1)) {
				type_str(x->btf, pp[j].type, ts, sizeof(ts), 0);
				return errf(x->err, x->errlen,
					    "'%s': parameter %u of %s is %s passed by value on the stack: where '%s' is cannot be known",
					    name, j, x->t->name, ts, name);
			}
			if (j < i)
				slot += (__u32)s;
		}
	}
	if (slot > MAX_ARG)
		return errf(x->err, x->errlen,
			    "'%s' is argument %u of %s: the kernel reads arguments 0 to %d",
			    name, slot, x->t->name, MAX_ARG);
	x->type = pp[i].type;
	return put(x, "arg%u", slot);
}

/* Whether type @id is of one byte, as a char: an element of a string. */
static int is_char(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = id ? type(btf, skip(btf, id)) : NULL;

	return t && btf_is_int(t) && t->size == 1 &&
	       !(btf_int_encoding(t) & BTF_INT_BOOL);
}

/*
 * A string's end: an array of char in memory is the address (+OFF, no
 * size), a pointer to char is read as a pointer is (or is the base).
 */
static int finish_str(struct tr *x)
{
	__u32 id = skip(x->btf, x->type);
	const struct btf_type *t = id ? type(x->btf, id) : NULL;
	char ts[160];

	type_str(x->btf, x->type, ts, sizeof(ts), 0);
	if (t && btf_is_array(t) && is_char(x->btf, btf_array(t)->type)) {
		if (!x->mem)
			return errf(x->err, x->errlen,
				    "'%s' is %s passed by value: it has no address",
				    x->expr, ts);
		if (x->off > MAX_OFF)
			return errf(x->err, x->errlen,
				    "'%s' is at offset %lld, past the kernel's limit of %lld",
				    x->expr, x->off, MAX_OFF);
		return put(x, "+%lld", x->off);
	}
	if (t && btf_is_ptr(t) && is_char(x->btf, t->type))
		return x->mem ? read_at(x, "8") : 0;
	return errf(x->err, x->errlen,
		    "'%s' is %s, not a string: an array of char or a pointer to char",
		    x->expr, ts);
}

/* The last read, or the base's cast: size and signedness of the type. */
static int finish(struct tr *x)
{
	__u32 id = skip(x->btf, x->type);
	const struct btf_type *t = id ? type(x->btf, id) : NULL;
	char ts[160], fields[256] = "", cast[4];
	unsigned int size = 8;
	int sign = 0, left = 8;

	type_str(x->btf, x->type, ts, sizeof(ts), 0);
	if (!t)
		return errf(x->err, x->errlen, "'%s' is %s: nothing to record",
			    x->expr, ts);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		size = t->size;
		sign = !!(btf_int_encoding(t) & BTF_INT_SIGNED);
		break;
	case BTF_KIND_ENUM:
		size = t->size;
		sign = btf_kflag(t);
		break;
	case BTF_KIND_ENUM64:
	case BTF_KIND_PTR:
		size = 8;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		list_members(x->btf, id, fields, sizeof(fields), &left, 0);
		return errf(x->err, x->errlen,
			    "'%s' is %s, not a number: name one of its fields (%s)",
			    x->expr, ts, *fields ? fields : "it has none");
	case BTF_KIND_ARRAY:
		return errf(x->err, x->errlen,
			    "'%s' is an array (%s): name one element, e.g. %s[0]",
			    x->expr, ts, x->expr);
	case BTF_KIND_FLOAT:
		return errf(x->err, x->errlen,
			    "'%s' is %s: floating point values are not recorded",
			    x->expr, ts);
	default:
		return errf(x->err, x->errlen, "'%s' is %s, not a number",
			    x->expr, ts);
	}
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return errf(x->err, x->errlen,
			    "'%s' is %s of %u bytes: only 1, 2, 4 or 8 bytes are read",
			    x->expr, ts, size);
	snprintf(cast, sizeof(cast), "%s%u", sign && size < 8 ? "s" : "", size);
	if (x->mem)
		return read_at(x, cast);
	return size < 8 ? put(x, ":%s", cast) : 0;
}

static const char *ident(const char *p, char *buf, size_t len)
{
	size_t n = 0;

	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return NULL;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	if (n >= len)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return p + n;
}

static const char *spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* btf_translate(), or btf_translate_string() with @str. */
static int translate(const struct btf *btf, const struct btf_target *t,
		     const char *expr, int str, char *out, size_t len,
		     char *err, size_t errlen)
{
	struct tr x = { .btf = btf, .t = t, .expr = expr, .out = out,
			.len = len < BTF_VALUE_MAX ? len : BTF_VALUE_MAX,
			.err = err, .errlen = errlen, .str = str };
	const char *p = spaces(expr), *q;
	char name[128];
	int star = 0;

	if (!len)
		return -1;
	out[0] = '\0';
	if (*p == '*') {
		star = 1;
		p = spaces(p + 1);
	}
	x.from = (size_t)(p - expr);
	q = ident(p, name, sizeof(name));
	if (!q)
		return errf(err, errlen,
			    "'%s': expected ret, a parameter, *parameter or a field path (a->b.c)",
			    expr);
	x.upto = (size_t)(q - expr);
	if (root(&x, name))
		return -1;
	for (p = spaces(q); *p; p = spaces(q)) {
		unsigned long long idx;
		char *end;

		if (!strncmp(p, "->", 2) || *p == '.') {
			int arrow = *p == '-';

			q = ident(spaces(p + (arrow ? 2 : 1)), name, sizeof(name));
			if (!q)
				return errf(err, errlen, "'%s': a field name must follow '%s'",
					    expr, arrow ? "->" : ".");
			if (field(&x, name, arrow))
				return -1;
		} else if (*p == '[') {
			p = spaces(p + 1);
			errno = 0;
			idx = strtoull(p, &end, !strncmp(p, "0x", 2) ? 16 : 10);
			q = spaces(end);
			if (end == p || errno || *p == '-' || *q != ']')
				return errf(err, errlen, "'%s': [ takes an index, 0 or more, then ]",
					    expr);
			q++;
			if (element(&x, idx))
				return -1;
		} else {
			return errf(err, errlen,
				    "'%s': unexpected '%c' (write ret, a parameter, *parameter, a->b, a.b or a[N])",
				    expr, *p);
		}
		x.upto = (size_t)(q - expr);
	}
	if (star && follow(&x, 0, "*"))
		return -1;
	return str ? finish_str(&x) : finish(&x);
}

int btf_translate(const struct btf *btf, const struct btf_target *t,
		  const char *expr, char *out, size_t len, char *err,
		  size_t errlen)
{
	return translate(btf, t, expr, 0, out, len, err, errlen);
}

int btf_translate_string(const struct btf *btf, const struct btf_target *t,
			 const char *expr, char *out, size_t len, char *err,
			 size_t errlen)
{
	return translate(btf, t, expr, 1, out, len, err, errlen);
}

/* btf_trace_EVENT: a pointer to void (*)(void *__data, TP_PROTO). */
static int find_tracepoint(const struct btf *btf, const char *target,
			   struct btf_target *t, char *err, size_t errlen)
{
	const char *ev = strrchr(target, ':') + 1;
	const struct btf_type *td, *ptr, *proto;
	char name[128];
	__s32 id;

	if (ev - target <= 4 || !*ev)
		return errf(err, errlen, "'%s' is not tp:GROUP:EVENT", target);
	snprintf(name, sizeof(name), "btf_trace_%s", ev);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0) {
		errf(err, errlen, "no tracepoint %s in BTF (no type %s)", ev, name);
		return 1;
	}
	td = type(btf, (__u32)id);
	ptr = type(btf, skip(btf, td->type));
	proto = ptr && btf_is_ptr(ptr) ? type(btf, skip(btf, ptr->type)) : NULL;
	if (!proto || !btf_is_func_proto(proto) || !btf_vlen(proto))
		return errf(err, errlen, "%s in BTF is not a tracepoint's prototype",
			    name);
	t->proto = skip(btf, ptr->type);
	t->tp = 1;
	/* The typedef's parameters have no names: take __traceiter_EVENT's. */
	for (__u32 i = 1; i < btf_vlen(proto); i++) {
		const struct btf_type *f, *fp;

		if (*name_of(btf, btf_params(proto)[i].name_off))
			continue;
		snprintf(name, sizeof(name), "__traceiter_%s", ev);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		f = id > 0 ? type(btf, (__u32)id) : NULL;
		fp = f ? type(btf, f->type) : NULL;
		if (fp && btf_is_func_proto(fp) && btf_vlen(fp) == btf_vlen(proto))
			t->proto = f->type;
		break;
	}
	return 0;
}

int btf_find_target(const struct btf *btf, const char *target,
		    struct btf_target *t, char *err, size_t errlen)
{
	const struct btf_type *f, *proto;
	__s32 id;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", target);
	if (!strncmp(target, "tp:", 3))
		return find_tracepoint(btf, target, t, err, errlen);
	id = btf__find_by_name_kind(btf, target, BTF_KIND_FUNC);
	if (id <= 0) {
		errf(err, errlen, "no function %s in BTF", target);
		return 1;
	}
	f = type(btf, (__u32)id);
	proto = type(btf, f->type);
	if (!proto || !btf_is_func_proto(proto))
		return errf(err, errlen, "function %s has no prototype in BTF",
			    target);
	t->proto = f->type;
	return 0;
}

struct kbtf {
	struct btf *vmlinux, *mod;
	struct btf_target t;
};

void kbtf_close(struct kbtf *k)
{
	if (!k)
		return;
	btf__free(k->mod);
	btf__free(k->vmlinux);
	free(k);
}

struct kbtf *kbtf_open(const char *target, char *err, size_t errlen)
{
	const char *dir = getenv("KSTATS_BTF");
	struct kbtf *k = calloc(1, sizeof(*k));
	char path[4096], e2[256];
	struct dirent *de;
	DIR *d;
	int r;

	if (!dir || !*dir)
		dir = BTF_DIR;
	if (!k) {
		errf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	k->vmlinux = btf__parse(path, NULL);
	if (!k->vmlinux) {
		int e = errno;

		errf(err, errlen, "%s: %s: --value and --if need the kernel's BTF (CONFIG_DEBUG_INFO_BTF)",
		     path, strerror(e));
		goto fail;
	}
	r = btf_find_target(k->vmlinux, target, &k->t, err, errlen);
	if (r <= 0) {
		if (!r)
			return k;
		goto fail;
	}
	/* Not in vmlinux: a module's, split on vmlinux' types. */
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		k->mod = btf__parse_split(path, k->vmlinux);
		if (!k->mod)
			continue;
		r = btf_find_target(k->mod, target, &k->t, e2, sizeof(e2));
		if (r <= 0) {
			closedir(d);
			if (!r)
				return k;
			snprintf(err, errlen, "%s (module %s)", e2, de->d_name);
			goto fail;
		}
		btf__free(k->mod);
		k->mod = NULL;
	}
	if (d)
		closedir(d);
	if (!strncmp(target, "tp:", 3))
		errf(err, errlen, "%s: no btf_trace_%s in the BTF of the kernel (%s/vmlinux) nor of a loaded module: "
		     "misspelt? (see tracefs events/)", target, strrchr(target, ':') + 1, dir);
	else
		errf(err, errlen, "%s: not in the BTF of the kernel (%s/vmlinux) nor of a loaded module: "
		     "misspelt, inlined, or renamed by the compiler (.isra, .constprop)?",
		     target, dir);
fail:
	kbtf_close(k);
	return NULL;
}

int kbtf_value(const struct kbtf *k, const char *expr, char *out, size_t len,
	       char *err, size_t errlen)
{
	return btf_translate(k->mod ? k->mod : k->vmlinux, &k->t, expr, out,
			     len, err, errlen);
}

/* btf_resolve_value(), or btf_resolve_string() with @str. */
static int resolve(const char *target, const char *expr, int str, char *out,
		   size_t len, char *err, size_t errlen)
{
	struct kbtf *k = kbtf_open(target, err, errlen);
	int r;

	if (!k)
		return -1;
	r = translate(k->mod ? k->mod : k->vmlinux, &k->t, expr, str, out,
		      len, err, errlen);
	kbtf_close(k);
	return r;
}

int btf_resolve_value(const char *target, const char *expr, char *out,
		      size_t len, char *err, size_t errlen)
{
	return resolve(target, expr, 0, out, len, err, errlen);
}

int btf_resolve_string(const char *target, const char *expr, char *out,
		       size_t len, char *err, size_t errlen)
{
	return resolve(target, expr, 1, out, len, err, errlen);
}

/*
 * The value of the enumerator @name in the running kernel's BTF (vmlinux):
 * a flag's bit, as the kernel it runs on defines it (FAULT_FLAG_USER moved
 * between releases).  0, or -1 with @err.
 */
int btf_resolve_enumerator(const char *name, long long *val, char *err,
			   size_t errlen)
{
	const char *dir = getenv("KSTATS_BTF");
	char path[4096];
	struct btf *btf;
	__u32 id, n;

	if (!dir || !*dir)
		dir = BTF_DIR;
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	btf = btf__parse(path, NULL);
	if (!btf) {
		errf(err, errlen, "%s: %s: %s needs the kernel's BTF (CONFIG_DEBUG_INFO_BTF)",
		     path, strerror(errno), name);
		return -1;
	}
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		__u16 i, vlen = btf_vlen(t);

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (i = 0; i < vlen; i++)
				if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
					*val = e[i].val;
					goto found;
				}
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (i = 0; i < vlen; i++)
				if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
					*val = (long long)btf_enum64_value(&e[i]);
					goto found;
				}
		}
	}
	btf__free(btf);
	errf(err, errlen, "%s: not in the BTF of the kernel (%s)", name, path);
	return -1;
found:
	btf__free(btf);
	return 0;
}

/* --- the other way: a V in the kernel's terms named as in the source --- */

/* A parsed V: base ret or argN, a cast, up to MAX_READS reads. */
struct rawv {
	int ret;
	unsigned int arg;
	struct { long long off; unsigned int size; int sign; } rd[MAX_READS];
	int nrd;
};

static const char *raw_size(const char *p, unsigned int *size, int *sign)
{
	*sign = *p == 's';
	p += *sign;
	if (*p != '1' && *p != '2' && *p != '4' && *p != '8')
		return NULL;
	*size = (unsigned int)(*p - '0');
	return p + 1;
}

static int raw_parse(const char *v, struct rawv *r)
{
	unsigned int size;
	int sign;
	char *end;

	memset(r, 0, sizeof(*r));
	if (!strncmp(v, "ret", 3)) {
		r->ret = 1;
		v += 3;
	} else if (!strncmp(v, "arg", 3) && isdigit((unsigned char)v[3])) {
		r->arg = (unsigned int)strtoul(v + 3, &end, 10);
		v = end;
	} else {
		return -1;
	}
	if (*v == ':' && !(v = raw_size(v + 1, &size, &sign)))
		return -1;
	while (*v == '+' || *v == '-') {
		long long off = strtoll(v + 1, &end, 10);

		if (r->nrd == MAX_READS || end == v + 1 || *end != ':')
			return -1;
		r->rd[r->nrd].off = *v == '-' ? -off : off;
		v = raw_size(end + 1, &r->rd[r->nrd].size, &r->rd[r->nrd].sign);
		if (!v)
			return -1;
		r->nrd++;
	}
	return *v ? -1 : 0;
}

/*
 * The field path of struct or union @id at byte @off whose type has @size
 * bytes, or holds it (an array, by element): ".a.b[2]" appended to @out.
 * 1 if found.
 */
static int member_at(const struct btf *btf, __u32 id, long long off,
		     unsigned int size, char *out, size_t len, __u32 *mtype,
		     int depth)
{
	const struct btf_type *t = type(btf, skip(btf, id));
	const struct btf_member *m;

	if (!t || depth > MAX_DEPTH)
		return 0;
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		long long es = btf__resolve_size(btf, a->type);
		size_t n = strlen(out);

		if (es <= 0 || off < 0 || off / es >= (long long)a->nelems)
			return 0;
		snprintf(out + n, len - n, "[%lld]", off / es);
		if (member_at(btf, a->type, off % es, size, out, len, mtype,
			      depth + 1))
			return 1;
		out[n] = '\0';
		return 0;
	}
	if (!btf_is_composite(t)) {
		long long s = btf__resolve_size(btf, id);

		if (off || s != size)
			return 0;
		*mtype = id;
		return 1;
	}
	m = btf_members(t);
	for (__u32 i = 0; i < btf_vlen(t); i++) {
		long long mo = btf_member_bit_offset(t, i);
		long long ms = btf__resolve_size(btf, m[i].type);
		const char *mn = name_of(btf, m[i].name_off);
		size_t n = strlen(out);

		if (btf_member_bitfield_size(t, i) || mo % 8 || ms <= 0 ||
		    off < mo / 8 || off >= mo / 8 + ms)
			continue;
		if (*mn)
			snprintf(out + n, len - n, ".%s", mn);
		if (member_at(btf, m[i].type, off - mo / 8, size, out, len,
			      mtype, depth + 1))
			return 1;
		out[n] = '\0';
	}
	return 0;
}

/*
 * @v (the kernel's V) on @t named as the source names it ("arg0+32:8+80:8"
 * is "file->f_inode->i_size"), checked by translating the name back to
 * @v.  0, or -1 if it cannot be named so.
 */
int btf_describe(const struct btf *btf, const struct btf_target *t,
		 const char *v, char *out, size_t len)
{
	const struct btf_type *p = type(btf, t->proto);
	const struct btf_param *pp = btf_params(p);
	char name[BTF_VALUE_MAX * 2] = "", back[BTF_VALUE_MAX], err[256];
	__u32 first = t->tp ? 1 : 0, cur, i, slot = 0;
	struct rawv r;

	if (raw_parse(v, &r) || !p)
		return -1;
	if (r.ret) {
		snprintf(name, sizeof(name), "ret");
		cur = p->type;
	} else {
		for (i = first; i < btf_vlen(p) && pp[i].type; i++) {
			if (t->tp ? i - 1 == r.arg : slot == r.arg)
				break;
			slot += (__u32)slots(btf__resolve_size(btf, pp[i].type));
		}
		if (i == btf_vlen(p) || !pp[i].type)
			return -1;
		if (*name_of(btf, pp[i].name_off))
			snprintf(name, sizeof(name), "%s", name_of(btf, pp[i].name_off));
		else
			snprintf(name, sizeof(name), "arg%u", i - first);
		cur = pp[i].type;
	}
	for (int k = 0; k < r.nrd; k++) {
		const struct btf_type *pt = type(btf, skip(btf, cur));
		__u32 target, mtype = 0;
		char path[BTF_VALUE_MAX] = "";
		size_t n = strlen(name);
		unsigned int size = k + 1 < r.nrd ? 8 : r.rd[k].size;

		if (!pt || !btf_is_ptr(pt) || !skip(btf, pt->type))
			return -1;
		target = pt->type;
		if (!member_at(btf, target, r.rd[k].off, size, path, sizeof(path),
			       &mtype, 0))
			return -1;
		if (!*path) {			/* the pointee itself */
			memmove(name + 1, name, n + 1);
			name[0] = '*';
		} else if (path[0] == '.')
			snprintf(name + n, sizeof(name) - n, "->%s", path + 1);
		else				/* an element past the pointer */
			snprintf(name + n, sizeof(name) - n, "%s", path);
		cur = mtype;
	}
	if (btf_translate(btf, t, name, back, sizeof(back), err, sizeof(err)) ||
	    strcmp(back, v))
		return -1;
	snprintf(out, len, "%s", name);
	return 0;
}

int kbtf_describe(const struct kbtf *k, const char *v, char *out, size_t len)
{
	return btf_describe(k->mod ? k->mod : k->vmlinux, &k->t, v, out, len);
}
