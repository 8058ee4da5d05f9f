// SPDX-License-Identifier: GPL-2.0
/*
 * How a function is called, from the BTF the kernel publishes in
 * /sys/kernel/btf/ (vmlinux, and one split file per module).
 *
 * The direct mechanism calls the traced function's body itself, so it
 * must hand it every argument as the caller left it: the six argument
 * registers and, for a function with more arguments or large structures
 * passed by value, words of the caller's stack, which the trampoline
 * copies.  How many is known only from the prototype: BTF gives it for
 * every function of the kernel and of its modules.  The kernel's own BTF
 * parser is not exported to modules, and the layout needed is small, so
 * this file reads the raw format (include/uapi/linux/btf.h) itself, with
 * every offset checked against the file's size.
 *
 * Context: process; reads a file of several MB, so only when a node is made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "kstats_btf.h"
#include "kstats_internal.h"

/* The conventions kstats_btf_place() follows (kstats_btf.h). */
const struct kstats_cc kstats_cc_x86_64 = {
	.regs = 6, .big_by_ref = false, .ret_by_arg_reg = true,
};
EXPORT_SYMBOL_NS_GPL(kstats_cc_x86_64, KSTATS_NS);
const struct kstats_cc kstats_cc_aapcs64 = {
	.regs = 8, .big_by_ref = true, .ret_by_arg_reg = false,
};
EXPORT_SYMBOL_NS_GPL(kstats_cc_aapcs64, KSTATS_NS);

/* The kernel's own. */
#define KSTATS_CC_NATIVE \
	(IS_ENABLED(CONFIG_ARM64) ? &kstats_cc_aapcs64 : &kstats_cc_x86_64)

/* Modifier chains longer than this are malformed. */
#define KSTATS_BTF_DEPTH	32

/* One BTF file: vmlinux, or a module's split on top of it (@base). */
struct kstats_btf {
	void *data;
	const char *strs;
	u32 str_len;
	u32 str_first;		/* string offsets below this are the base's */
	u32 *offs;		/* offset of each type in the type section */
	u32 nr;
	u32 first_id;		/* type ids below this are the base's */
	const u8 *types;
	u32 type_len;
	const struct kstats_btf *base;
	const struct kstats_cc *cc;	/* how its functions are called */
};

/* Bytes of a type's record: the struct btf_type and what follows it. */
static u32 kstats_btf_type_len(const struct btf_type *t)
{
	u32 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(*t) + sizeof(u32);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return sizeof(*t);
	case BTF_KIND_ARRAY:
		return sizeof(*t) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return sizeof(*t) + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return sizeof(*t) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(*t) + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(*t) + sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return sizeof(*t) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(*t) + sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return sizeof(*t) + vlen * sizeof(struct btf_enum64);
	default:
		return 0;
	}
}

static void kstats_btf_free(struct kstats_btf *b)
{
	kvfree(b->offs);
	vfree(b->data);
}

/*
 * Read a whole sysfs file into vmalloc'ed memory.  A plain read, not
 * kernel_read_file(), whose security hooks are about files the kernel
 * executes or loads, and some of which warn about a read of no known kind.
 */
static ssize_t kstats_btf_read(const char *path, void **datap)
{
	struct file *f;
	loff_t size, pos = 0;
	ssize_t n = 0;
	void *data;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	size = i_size_read(file_inode(f));
	if (size <= 0 || size > INT_MAX) {
		n = -EINVAL;
		goto out;
	}
	data = __vmalloc(size, KSTATS_GFP);
	if (!data) {
		n = -ENOMEM;
		goto out;
	}
	while (pos < size) {
		n = kernel_read(f, data + pos, size - pos, &pos);
		if (n <= 0)
			break;
	}
	if (pos != size) {
		vfree(data);
		n = n < 0 ? n : -EIO;
		goto out;
	}
	*datap = data;
	n = size;
out:
	filp_close(f, NULL);
	return n;
}

/*
 * Check @size bytes of BTF at @data and index its types; @b points into
 * @data, which it does not own.  Every offset is checked: a record that
 * overruns its section, a string section not ending in a NUL, an unknown
 * kind are -EINVAL.
 */
static int kstats_btf_index(struct kstats_btf *b, const void *data,
			    size_t size, const struct kstats_btf *base)
{
	const struct btf_header *h = data;
	u32 off, n;

	memset(b, 0, sizeof(*b));
	b->cc = KSTATS_CC_NATIVE;
	if (size < sizeof(*h) || h->magic != BTF_MAGIC ||
	    h->hdr_len < sizeof(*h) || h->hdr_len > size ||
	    h->type_off > size - h->hdr_len ||
	    h->type_len > size - h->hdr_len - h->type_off ||
	    h->str_off > size - h->hdr_len ||
	    h->str_len > size - h->hdr_len - h->str_off || !h->str_len)
		return -EINVAL;
	b->types = data + h->hdr_len + h->type_off;
	b->type_len = h->type_len;
	b->strs = data + h->hdr_len + h->str_off;
	b->str_len = h->str_len;
	if (b->strs[b->str_len - 1])
		return -EINVAL;
	b->base = base;
	b->first_id = base ? base->first_id + base->nr : 1;
	b->str_first = base ? base->str_first + base->str_len : 0;

	/* Count, then index: every record must fit the type section. */
	n = 0;
	for (off = 0; off + sizeof(struct btf_type) <= b->type_len; n++) {
		u32 len = kstats_btf_type_len((void *)(b->types + off));

		if (!len || len > b->type_len - off)
			return -EINVAL;
		off += len;
	}
	if (off != b->type_len)
		return -EINVAL;
	b->offs = kvmalloc_array(n ? n : 1, sizeof(u32), KSTATS_GFP);
	if (!b->offs)
		return -ENOMEM;
	b->nr = n;
	for (off = 0, n = 0; n < b->nr; n++) {
		b->offs[n] = off;
		off += kstats_btf_type_len((void *)(b->types + off));
	}
	return 0;
}

/* Read /sys/kernel/btf/@file and index its types. */
static int kstats_btf_load(struct kstats_btf *b, const char *file,
			   const struct kstats_btf *base)
{
	char path[64 + MODULE_NAME_LEN];
	void *data = NULL;
	ssize_t size;
	int err;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", file);
	size = kstats_btf_read(path, &data);
	if (size < 0)
		return size;
	err = kstats_btf_index(b, data, size, base);
	if (err) {
		kvfree(b->offs);
		vfree(data);
		return err;
	}
	b->data = data;
	return 0;
}

static const struct btf_type *kstats_btf_type(const struct kstats_btf *b,
					      u32 id)
{
	while (b && id < b->first_id)
		b = b->base;
	if (!b || id - b->first_id >= b->nr)
		return NULL;
	return (const void *)(b->types + b->offs[id - b->first_id]);
}

/* The name at @off, or NULL if @off is out of every string section. */
static const char *kstats_btf_name(const struct kstats_btf *b, u32 off)
{
	while (b && off < b->str_first)
		b = b->base;
	if (!b || off - b->str_first >= b->str_len)
		return NULL;
	return b->strs + (off - b->str_first);
}

/* Type @id past its typedefs and modifiers, or NULL if malformed. */
static const struct btf_type *kstats_btf_resolve(const struct kstats_btf *b,
						 u32 id)
{
	int depth;

	for (depth = 0; depth < KSTATS_BTF_DEPTH; depth++) {
		const struct btf_type *t = kstats_btf_type(b, id);

		if (!t)
			return NULL;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return t;
		}
	}
	return NULL;
}

/*
 * Size in bytes of type @id and whether it is a structure or union (passed
 * by value by its size class).
 */
static int kstats_btf_size(const struct kstats_btf *b, u32 id, bool *aggr)
{
	const struct btf_type *t = kstats_btf_resolve(b, id);

	*aggr = false;
	if (!t)
		return -EINVAL;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		*aggr = true;
		fallthrough;
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		return t->size;
	case BTF_KIND_PTR:
		return sizeof(void *);
	default:
		return -EINVAL;
	}
}

/*
 * The width of type @id as a value of kstats reads it: an integer, a bool
 * (unsigned), an enum (signed where the BTF says so) or a pointer; size 0
 * for anything else (a structure, a float, an unreadable type).
 */
static struct kstats_width kstats_btf_width(const struct kstats_btf *b,
					    u32 id)
{
	const struct btf_type *t = kstats_btf_resolve(b, id);
	struct kstats_width w = { 0 };
	u32 enc;

	if (!t)
		return w;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		enc = *(const u32 *)(t + 1);
		if (BTF_INT_OFFSET(enc) || BTF_INT_BITS(enc) != t->size * 8 ||
		    !is_power_of_2(t->size) || t->size > 8)
			return w;
		w.size = t->size;
		w.sign = BTF_INT_ENCODING(enc) & BTF_INT_SIGNED;
		return w;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!is_power_of_2(t->size) || t->size > 8)
			return w;
		w.size = t->size;
		w.sign = BTF_INFO_KFLAG(t->info);
		return w;
	case BTF_KIND_PTR:
		w.size = sizeof(void *);
		return w;
	default:
		return w;
	}
}

/*
 * Place a prototype's arguments as @b's calling convention does (no
 * floating point).  x86-64 System V: scalars take a register each while
 * any is left, structures of up to 16 bytes take one or two registers if
 * both are left, larger ones go on the stack, and so does whatever finds
 * no register; a structure returned by value over 16 bytes takes %rdi for
 * its hidden pointer.  AAPCS64 alike with eight registers, except that a
 * structure over 16 bytes is passed as a pointer (a register or a stack
 * word), that once a structure finds no register none is used after it
 * (rule C.13), and that x8, not an argument register, carries the pointer
 * of a large result.  Each scalar's type is kept at the word argN reads:
 * registers first, then stack words.  @skip leading parameters are left
 * out: a tracepoint probe's data pointer.
 */
static int kstats_btf_place(const struct kstats_btf *b,
			    const struct btf_type *proto, u32 skip,
			    struct kstats_btf_func *f)
{
	const struct btf_param *p = (const void *)(proto + 1);
	u32 i, vlen = BTF_INFO_VLEN(proto->info);
	const struct kstats_cc *cc = b->cc;
	unsigned int regs = 0, stack = 0, ret = 0;
	bool aggr, closed = false;
	int size;

	memset(f, 0, sizeof(*f));
	if (proto->type) {
		size = kstats_btf_size(b, proto->type, &aggr);
		if (size < 0)
			return size;
		if (size > 16)
			regs = cc->ret_by_arg_reg;
		else
			ret = DIV_ROUND_UP(size, 8);
		if (!aggr)
			f->ret = kstats_btf_width(b, proto->type);
	}
	if (skip > vlen)
		return -EINVAL;
	for (i = skip; i < vlen; i++) {
		unsigned int words, word;

		/* A last parameter of type 0 is "...": no fixed layout. */
		if (!p[i].type)
			return -EOPNOTSUPP;
		size = kstats_btf_size(b, p[i].type, &aggr);
		if (size < 0)
			return size;
		words = DIV_ROUND_UP(size, 8);
		if (aggr && size > 16 && cc->big_by_ref)
			words = 1;	/* its address, as a pointer would be */
		if (aggr && size > 16 && !cc->big_by_ref) {
			word = cc->regs + stack;
			stack += words;
		} else if (!closed && regs + words <= cc->regs) {
			word = regs;
			regs += words;
		} else {
			word = cc->regs + stack;
			stack += words;
			/* AAPCS64 (C.13): no register after a structure that found none */
			closed |= aggr && cc->big_by_ref;
		}
		if (!aggr && word < KSTATS_MAX_ARGS)
			f->arg[word] = kstats_btf_width(b, p[i].type);
	}
	f->nregs = regs;
	f->nstack = stack;
	f->ret_regs = ret;
	return 0;
}

/*
 * Find FUNC @name in @b's own types and place its arguments (one FUNC
 * merged into @f by kstats_btf_merge(), @found saying whether one was).  Static
 * functions of one name in several files may each have a FUNC (pahole
 * 1.24, Debian's, keeps prototypes that disagree), while the name binds
 * to one address of which the BTF does not say: when the FUNCs place the
 * arguments differently, the name is ambiguous (-ENOTUNIQ); when they
 * place them alike but with other types, the types are not known.
 */
static int kstats_btf_merge(const struct kstats_btf *b,
			    const struct btf_type *t, bool found,
			    struct kstats_btf_func *f)
{
	const struct btf_type *proto = kstats_btf_type(b, t->type);
	struct kstats_btf_func one;
	int err;

	if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	err = kstats_btf_place(b, proto, 0, found ? &one : f);
	if (err || !found)
		return err;
	if (one.nregs != f->nregs || one.nstack != f->nstack ||
	    one.ret_regs != f->ret_regs)
		return -ENOTUNIQ;
	if (memcmp(one.arg, f->arg, sizeof(f->arg)) ||
	    memcmp(&one.ret, &f->ret, sizeof(f->ret))) {
		memset(f->arg, 0, sizeof(f->arg));
		memset(&f->ret, 0, sizeof(f->ret));
	}
	return 0;
}

static int kstats_btf_find(const struct kstats_btf *b, const char *name,
			   struct kstats_btf_func *f)
{
	bool found = false;
	u32 i;
	int err;

	for (i = 0; i < b->nr; i++) {
		const struct btf_type *t = (const void *)(b->types + b->offs[i]);
		const char *n;

		if (BTF_INFO_KIND(t->info) != BTF_KIND_FUNC)
			continue;
		n = kstats_btf_name(b, t->name_off);
		if (!n || strcmp(n, name))
			continue;
		err = kstats_btf_merge(b, t, found, f);
		if (err)
			return err;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

/*
 * Find the prototype of tracepoint @event's probes in @b's own types: the
 * typedef btf_trace_EVENT, a pointer to void (*)(void *__data, TP_PROTO),
 * which every tracepoint of a kernel with BPF events has.
 */
static int kstats_btf_find_tracepoint(const struct kstats_btf *b,
				      const char *event,
				      struct kstats_btf_func *f)
{
	static const char prefix[] = "btf_trace_";
	u32 i;

	for (i = 0; i < b->nr; i++) {
		const struct btf_type *t = (const void *)(b->types + b->offs[i]);
		const struct btf_type *ptr, *proto;
		const char *n;

		if (BTF_INFO_KIND(t->info) != BTF_KIND_TYPEDEF)
			continue;
		n = kstats_btf_name(b, t->name_off);
		if (!n || strncmp(n, prefix, sizeof(prefix) - 1) ||
		    strcmp(n + sizeof(prefix) - 1, event))
			continue;
		ptr = kstats_btf_type(b, t->type);
		proto = ptr && BTF_INFO_KIND(ptr->info) == BTF_KIND_PTR ?
			kstats_btf_type(b, ptr->type) : NULL;
		if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO ||
		    !BTF_INFO_VLEN(proto->info))
			return -EINVAL;
		return kstats_btf_place(b, proto, 1, f);
	}
	return -ENOENT;
}

/* Look @name up with @find in the kernel's BTF, or in @module's. */
static int kstats_btf_lookup(const char *name, const char *module,
			     int (*find)(const struct kstats_btf *b,
					 const char *name,
					 struct kstats_btf_func *f),
			     struct kstats_btf_func *f)
{
	struct kstats_btf vmlinux, mod;
	int err;

	err = kstats_btf_load(&vmlinux, "vmlinux", NULL);
	if (err)
		return err;
	if (module) {
		err = kstats_btf_load(&mod, module, &vmlinux);
		if (!err) {
			err = find(&mod, name, f);
			kstats_btf_free(&mod);
		}
	} else {
		err = find(&vmlinux, name, f);
	}
	kstats_btf_free(&vmlinux);
	return err;
}

/* @find on BTF in memory, under convention @cc, for the KUnit tests. */
static int kstats_btf_lookup_blob(const void *data, size_t size,
				  const char *name, const struct kstats_cc *cc,
				  int (*find)(const struct kstats_btf *b,
					      const char *name,
					      struct kstats_btf_func *f),
				  struct kstats_btf_func *f)
{
	struct kstats_btf b;
	int err;

	err = kstats_btf_index(&b, data, size, NULL);
	if (!err) {
		b.cc = cc ?: b.cc;
		err = find(&b, name, f);
	}
	kvfree(b.offs);
	return err;
}

/**
 * kstats_btf_func() - how a function's arguments are passed
 * @name: the function
 * @module: the module it is in, or NULL for the kernel's own
 * @f: where to say
 *
 * Context: process; may sleep (reads the BTF files).
 * Return: 0; -ENOENT when the BTF has no such function, -ENOTUNIQ when
 * it has several of that name whose arguments are placed differently
 * (kstats_btf_find()), -EOPNOTSUPP for a variadic one, or another negative
 * errno when the BTF cannot be read.
 */
int kstats_btf_func(const char *name, const char *module,
		    struct kstats_btf_func *f)
{
	return kstats_btf_lookup(name, module, kstats_btf_find, f);
}

/* The queries in @q (sorted by name) that bear @name: the first, or NULL. */
static int kstats_btf_query_cmp(const void *key, const void *elt)
{
	const struct kstats_btf_query *q = elt;

	return strcmp(key, q->name);
}

static bool kstats_btf_same_module(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* One pass over @b's own FUNCs, answering the queries of @module. */
static void kstats_btf_answer(const struct kstats_btf *b, const char *module,
			      struct kstats_btf_query *q, unsigned int n)
{
	u32 i;

	for (i = 0; i < b->nr; i++) {
		const struct btf_type *t = (const void *)(b->types + b->offs[i]);
		struct kstats_btf_query *hit;
		const char *name;

		if (BTF_INFO_KIND(t->info) != BTF_KIND_FUNC)
			continue;
		name = kstats_btf_name(b, t->name_off);
		if (!name)
			continue;
		hit = bsearch(name, q, n, sizeof(*q), kstats_btf_query_cmp);
		if (!hit)
			continue;
		while (hit > q && !strcmp(hit[-1].name, name))
			hit--;
		for (; hit < q + n && !strcmp(hit->name, name); hit++) {
			if (!kstats_btf_same_module(hit->module, module) ||
			    (hit->err && hit->err != -ENOENT))
				continue;
			hit->err = kstats_btf_merge(b, t, !hit->err, &hit->f);
		}
	}
}

/**
 * kstats_btf_funcs() - kstats_btf_func() for many functions at once
 * @q: the functions, sorted by name (strcmp), each with its module (NULL
 *	for the kernel's own); each gets its answer in @f and @err, as
 *	kstats_btf_func() would return it
 * @n: how many
 *
 * The kernel's BTF is read once, and the BTF of each module named once,
 * each scanned once: a node over hundreds of functions costs what one
 * costs.
 *
 * Context: process; may sleep (reads the BTF files).
 * Return: 0, or the negative errno of the kernel's BTF, unreadable.
 */
int kstats_btf_funcs(struct kstats_btf_query *q, unsigned int n)
{
	struct kstats_btf vmlinux, mod;
	unsigned int i, j;
	int err;

	for (i = 0; i < n; i++)
		q[i].err = -ENOENT;
	err = kstats_btf_load(&vmlinux, "vmlinux", NULL);
	if (err)
		return err;
	kstats_btf_answer(&vmlinux, NULL, q, n);
	for (i = 0; i < n; i++) {
		if (!q[i].module)
			continue;
		/* each module once: the first of its queries loads it */
		for (j = 0; j < i; j++)
			if (kstats_btf_same_module(q[j].module, q[i].module))
				break;
		if (j < i)
			continue;
		err = kstats_btf_load(&mod, q[i].module, &vmlinux);
		if (err) {
			for (j = i; j < n; j++)
				if (kstats_btf_same_module(q[j].module, q[i].module))
					q[j].err = err;
			continue;
		}
		kstats_btf_answer(&mod, q[i].module, q, n);
		kstats_btf_free(&mod);
	}
	kstats_btf_free(&vmlinux);
	return 0;
}

/**
 * kstats_btf_func_blob() - kstats_btf_func() on BTF in memory
 * @data: a whole BTF file (not a split one)
 * @size: its size
 * @name: the function
 * @cc: the calling convention to place the arguments by, NULL for the
 *	kernel's own (&kstats_cc_x86_64, &kstats_cc_aapcs64)
 * @f: where to say
 *
 * For the KUnit tests, which build their own BTF, and place it by either
 * architecture's convention.
 *
 * Context: process (allocates the index).
 * Return: as kstats_btf_func(), and -EINVAL for malformed BTF.
 */
int kstats_btf_func_blob(const void *data, size_t size, const char *name,
			 const struct kstats_cc *cc, struct kstats_btf_func *f)
{
	return kstats_btf_lookup_blob(data, size, name, cc, kstats_btf_find, f);
}
EXPORT_SYMBOL_NS_GPL(kstats_btf_func_blob, KSTATS_NS);

/**
 * kstats_btf_tracepoint() - the types of a tracepoint's arguments
 * @event: the event's name (sched_switch)
 * @module: the module that defines it, or NULL for the kernel's own
 * @f: where to say; @f->arg[N] is TP_PROTO's argument N
 *
 * Context: process; may sleep (reads the BTF files).
 * Return: 0; -ENOENT when the BTF has no btf_trace_EVENT, -EINVAL when it
 * is not a probe's prototype, or another negative errno when the BTF
 * cannot be read.
 */
int kstats_btf_tracepoint(const char *event, const char *module,
			  struct kstats_btf_func *f)
{
	return kstats_btf_lookup(event, module, kstats_btf_find_tracepoint, f);
}

/**
 * kstats_btf_tracepoint_blob() - kstats_btf_tracepoint() on BTF in memory
 * @data: a whole BTF file (not a split one)
 * @size: its size
 * @event: the event's name
 * @f: where to say
 *
 * For the KUnit tests, which build their own BTF.
 *
 * Context: process (allocates the index).
 * Return: as kstats_btf_tracepoint().
 */
int kstats_btf_tracepoint_blob(const void *data, size_t size,
			       const char *event, struct kstats_btf_func *f)
{
	return kstats_btf_lookup_blob(data, size, event, NULL,
				      kstats_btf_find_tracepoint, f);
}
EXPORT_SYMBOL_NS_GPL(kstats_btf_tracepoint_blob, KSTATS_NS);
