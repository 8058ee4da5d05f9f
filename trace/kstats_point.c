// SPDX-License-Identifier: GPL-2.0
/*
 * A point's values and filters once parsed: typed from the BTF of what
 * they read (an int argument is sign-extended from its 4 bytes), and
 * their text, as the header of its distribution file shows them
 * ("# value ..." and "# filter ..."), in the form the _control grammar
 * (kstats_cmd.c) reads back.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "kstats_btf.h"
#include "kstats_internal.h"
#include "kstats_point.h"

#ifdef CONFIG_X86_64
unsigned long kstats_kernel_floor __ro_after_init;
EXPORT_SYMBOL_NS_GPL(kstats_kernel_floor, KSTATS_NS);
unsigned long kstats_kernel_span __ro_after_init;
EXPORT_SYMBOL_NS_GPL(kstats_kernel_span, KSTATS_NS);
#endif

/**
 * kstats_point_init() - set kstats_read_kernel()'s bound
 *
 * Until it runs, the bound refuses every address.
 *
 * Context: module load.
 */
void __init kstats_point_init(void)
{
#ifdef CONFIG_X86_64
	kstats_kernel_floor = ~0UL << __VIRTUAL_MASK_SHIFT;
	kstats_kernel_span = VSYSCALL_ADDR - kstats_kernel_floor;
#endif
}

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

/**
 * kstats_value_type() - widen a value's base as its type says
 * @v: the value, as parsed
 * @f: the types of the arguments and return value it reads
 *
 * A base without a cast ("arg1", not "arg1:s4") takes its type's: an
 * argument narrower than a register is sign- or zero-extended from its
 * width (the upper half of the register holding an int is not part of
 * it), and a return value of a known type is no longer guessed at
 * (kstats_ret_value()): a long's 0xfffffff2 is not -14.  A written cast
 * stays as written.
 *
 * Context: any.
 */
void kstats_value_type(struct kstats_value *v, const struct kstats_btf_func *f)
{
	struct kstats_width w;

	if (v->cast.size)
		return;
	if (v->base == KSTATS_BASE_RET)
		w = f->ret;
	else if (v->base == KSTATS_BASE_ARG && v->arg < KSTATS_MAX_ARGS &&
		 f->arg[v->arg].size < sizeof(u64))
		w = f->arg[v->arg];
	else
		return;
	if (!w.size)
		return;
	v->cast = w;
	v->typed = true;
}
EXPORT_SYMBOL_NS_GPL(kstats_value_type, KSTATS_NS);

/**
 * kstats_filter_type() - kstats_value_type() on each condition of a filter
 * @flt: the filter
 * @f: the types
 *
 * Context: any.
 */
void kstats_filter_type(struct kstats_filter *flt,
			const struct kstats_btf_func *f)
{
	int i;

	for (i = 0; i < flt->nr_conds; i++)
		kstats_value_type(&flt->cond[i].v, f);
}

/**
 * kstats_by_type() - kstats_value_type() on a family's value key
 * @b: the key
 * @f: the types
 *
 * Context: any.
 */
void kstats_by_type(struct kstats_by *b, const struct kstats_btf_func *f)
{
	if (b->kind == KSTATS_BY_VALUE)
		kstats_value_type(&b->v, f);
}

/**
 * kstats_point_opts_type() - kstats_value_type() on what a section's point
 * reads: its key, match, filter and family key
 * @o: the point
 * @f: the types of its probe's arguments
 *
 * Context: any.
 */
void kstats_point_opts_type(struct kstats_point_opts *o,
			    const struct kstats_btf_func *f)
{
	if (o->key.kind == KSTATS_KEY_VALUE)
		kstats_value_type(&o->key.v, f);
	if (o->has_match)
		kstats_value_type(&o->match, f);
	kstats_filter_type(&o->filter, f);
	kstats_by_type(&o->by, f);
}

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
	if (v->cast.size && !v->typed)
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

/* The words of kstats_by_key_list.h; KSTATS_BY_NONE's is NULL. */
const char * const kstats_by_names[KSTATS_BY_VALUE] = {
#define KSTATS_BY_KEY(id, ...)	\
	[KSTATS_BY_##id] = KSTATS_KEY_WORD(id, __VA_ARGS__),
#include "kstats_by_key_list.h"
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

		n += kstats_value_format(&b->v, buf + n, size - n);
		if (b->str_off)
			n += scnprintf(buf + n, size - n, "%+d", b->str_off);
		return n;
	}
	if (b->kind == KSTATS_BY_VALUE)
		return kstats_value_format(&b->v, buf, size);
	if (b->kind == KSTATS_BY_STACK)
		return scnprintf(buf, size, "stack %u", b->frames);
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
 * "pid N", "tid N", "comm NAME", "cpu N", "cgroup PATH" for those set,
 * in that order, then each "if V OP C" in the order given; "" for no
 * filter.
 *
 * Context: process (a cgroup's path is looked up).
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
	if (f->cgroup_id) {
		n += scnprintf(buf + n, size - n, "%scgroup ", sep);
		n += kstats_cgroup_format(f->cgroup_id, buf + n, size - n);
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
