// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a point's value and filters, as the header of its
 * distribution file shows them ("# value ..." and "# filter ..."), in the
 * form the _control grammar (kstats_cmd.c) reads back.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "kstats_internal.h"
#include "kstats_point.h"

const char * const kstats_op_names[KSTATS_NR_OPS] = {
	[KSTATS_OP_EQ] = "==",
	[KSTATS_OP_NE] = "!=",
	[KSTATS_OP_LT] = "<",
	[KSTATS_OP_LE] = "<=",
	[KSTATS_OP_GT] = ">",
	[KSTATS_OP_GE] = ">=",
	[KSTATS_OP_AND] = "&",
};
EXPORT_SYMBOL_NS_GPL(kstats_op_names, KSTATS_NS);

static int kstats_width_format(struct kstats_width w, char *buf, size_t size)
{
	return scnprintf(buf, size, ":%s%u", w.sign ? "s" : "", w.size);
}

/**
 * kstats_value_format() - a value as the grammar writes it
 * @v: the value; KSTATS_BASE_NONE gives ""
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * "ret" or "argN", then ":SIZE" for a cast, then each dereference as
 * "+OFF:SIZE" or "-OFF:SIZE", OFF in decimal.
 *
 * Context: any.
 * Return: the characters written, without the NUL.
 */
int kstats_value_format(const struct kstats_value *v, char *buf, size_t size)
{
	int n, i;

	if (v->base == KSTATS_BASE_NONE)
		return scnprintf(buf, size, "%s", "");
	if (v->base == KSTATS_BASE_RET)
		n = scnprintf(buf, size, "ret");
	else
		n = scnprintf(buf, size, "arg%u", v->arg);
	if (v->cast.size)
		n += kstats_width_format(v->cast, buf + n, size - n);
	for (i = 0; i < v->nr_derefs; i++) {
		const struct kstats_deref *d = &v->deref[i];

		n += scnprintf(buf + n, size - n, "%c%lld", d->off < 0 ? '-' : '+',
			       abs((s64)d->off));
		n += kstats_width_format(d->width, buf + n, size - n);
	}
	return n;
}
EXPORT_SYMBOL_NS_GPL(kstats_value_format, KSTATS_NS);

/**
 * kstats_key_format() - a key as the grammar writes it
 * @k: the key
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * "task", "cpu", or the value (kstats_value_format()).
 *
 * Context: any.
 * Return: the characters written, without the NUL.
 */
int kstats_key_format(const struct kstats_key *k, char *buf, size_t size)
{
	switch (k->kind) {
	case KSTATS_KEY_CPU:
		return scnprintf(buf, size, "cpu");
	case KSTATS_KEY_VALUE:
		return kstats_value_format(&k->v, buf, size);
	default:
		return scnprintf(buf, size, "task");
	}
}
EXPORT_SYMBOL_NS_GPL(kstats_key_format, KSTATS_NS);

const char * const kstats_by_names[KSTATS_BY_VALUE] = {
	[KSTATS_BY_COMM] = "comm",
	[KSTATS_BY_PID] = "pid",
	[KSTATS_BY_TID] = "tid",
	[KSTATS_BY_CPU] = "cpu",
};
EXPORT_SYMBOL_NS_GPL(kstats_by_names, KSTATS_NS);

/**
 * kstats_by_format() - the key of a family as the grammar writes it
 * @b: the key
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * Context: any.
 * Return: the characters written, without the NUL.
 */
int kstats_by_format(const struct kstats_by *b, char *buf, size_t size)
{
	if (b->kind == KSTATS_BY_VALUE && b->str) {
		int n = scnprintf(buf, size, "str:");

		return n + kstats_value_format(&b->v, buf + n, size - n);
	}
	if (b->kind == KSTATS_BY_VALUE)
		return kstats_value_format(&b->v, buf, size);
	if (b->kind && b->kind < ARRAY_SIZE(kstats_by_names))
		return scnprintf(buf, size, "%s", kstats_by_names[b->kind]);
	return scnprintf(buf, size, "none");
}
EXPORT_SYMBOL_NS_GPL(kstats_by_format, KSTATS_NS);

/**
 * kstats_filter_format() - a filter as the grammar writes it
 * @f: the filter
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * "pid N", "tid N", "comm NAME", "cpu N" for those set, in that order,
 * then each "if V OP C" in the order given; "" for no filter.
 *
 * Context: any.
 * Return: the characters written, without the NUL.
 */
int kstats_filter_format(const struct kstats_filter *f, char *buf, size_t size)
{
	const char *sep = "";
	int n = scnprintf(buf, size, "%s", ""), i;

	if (f->pid >= 0) {
		n += scnprintf(buf + n, size - n, "pid %d", f->pid);
		sep = " ";
	}
	if (f->tid >= 0) {
		n += scnprintf(buf + n, size - n, "%stid %d", sep, f->tid);
		sep = " ";
	}
	if (f->comm[0]) {
		n += scnprintf(buf + n, size - n, "%scomm %s", sep, f->comm);
		sep = " ";
	}
	if (f->cpu >= 0) {
		n += scnprintf(buf + n, size - n, "%scpu %d", sep, f->cpu);
		sep = " ";
	}
	for (i = 0; i < f->nr_conds; i++) {
		const struct kstats_cond *c = &f->cond[i];

		n += scnprintf(buf + n, size - n, "%sif ", sep);
		n += kstats_value_format(&c->v, buf + n, size - n);
		n += scnprintf(buf + n, size - n, " %s %lld",
			       kstats_op_names[c->op], c->c);
		sep = " ";
	}
	return n;
}
EXPORT_SYMBOL_NS_GPL(kstats_filter_format, KSTATS_NS);
