// SPDX-License-Identifier: GPL-2.0
/*
 * The functions one trace node times: "trace GLOB" or "trace F1,F2,...".
 *
 * A glob is matched against ftrace's list of the functions it can patch,
 * available_filter_functions, as set_ftrace_filter matches it (the
 * kernel's glob_match(), on the name): only those can be traced, so a
 * notrace function is never matched.  A list names functions exactly; one
 * that ftrace cannot patch is kept and said to be skipped, one that is no
 * symbol at all is an error.
 *
 * Each function is then resolved to its address, all of them in one read
 * of /proc/kallsyms: kallsyms' iterators are not exported to modules, and
 * a lookup per name (a kprobe's) scans every symbol on 6.1, hundreds of
 * times over for a glob.  A name that ftrace lists twice, or kallsyms has
 * twice as text, binds to one function of several: it is skipped, as the
 * direct trampoline skips it for one function.
 *
 * What the mechanism makes of each function (traced, or skipped and why)
 * is kept here too, for the node's header.
 *
 * Context: process; reads two files of a few MB, only when a node is made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kstats_errors.h"
#include "kstats_internal.h"
#include "kstats_multi.h"
#include "kstats_syms.h"
#include "kstats_uprobe.h"

/* The header's words for enum kstats_multi_skip. */
static const char * const kstats_multi_skip_names[KSTATS_MULTI_SKIPS] = {
	[KSTATS_MULTI_TRACED] = "traced",
	[KSTATS_MULTI_NOT_FTRACEABLE] = "not_ftraceable",
	[KSTATS_MULTI_ALIAS] = "alias",
	[KSTATS_MULTI_AMBIGUOUS] = "ambiguous",
	[KSTATS_MULTI_NO_BTF] = "no_btf",
	[KSTATS_MULTI_STACK_ARGS] = "stack_args",
	[KSTATS_MULTI_RET16] = "ret16",
	[KSTATS_MULTI_NORETURN] = "noreturn",
	[KSTATS_MULTI_RECURSES] = "recurses",
	[KSTATS_MULTI_DIRECT_BUSY] = "direct_busy",
	[KSTATS_MULTI_NO_DIRECT] = "no_direct",
	[KSTATS_MULTI_NO_SLOT] = "no_slot",
};

/* Why, in words, for the kernel log. */
static const char * const kstats_multi_skip_whys[KSTATS_MULTI_SKIPS] = {
	[KSTATS_MULTI_TRACED] = "traced",
	[KSTATS_MULTI_NOT_FTRACEABLE] = "none of its functions can be; the first: not ftrace-able",
	[KSTATS_MULTI_ALIAS] = "none of its functions can be; the first: an alias",
	[KSTATS_MULTI_AMBIGUOUS] = "none of its functions can be; the first: an ambiguous name",
	[KSTATS_MULTI_NO_BTF] = "none of its functions can be; the first: no prototype in the BTF",
	[KSTATS_MULTI_STACK_ARGS] = "none of its functions can be; the first: stack arguments",
	[KSTATS_MULTI_RET16] = "none of its functions can be; the first: returns 16 bytes",
	[KSTATS_MULTI_NORETURN] = "none of its functions can be; the first: may never return",
	[KSTATS_MULTI_RECURSES] = "none of its functions can be; the first: kstats' probes call it",
	[KSTATS_MULTI_DIRECT_BUSY] = "none of its functions can be; the first: another node has it",
	[KSTATS_MULTI_NO_DIRECT] = "no direct trampoline for it",
	[KSTATS_MULTI_NO_SLOT] = "all direct slots are in use",
};

/**
 * kstats_multi_skip_why() - a reason to skip, as the kernel log says it
 * @skip: enum kstats_multi_skip, of the first function of a node none of
 *	whose functions can be traced
 *
 * Context: any.
 */
const char *kstats_multi_skip_why(u8 skip)
{
	return skip < KSTATS_MULTI_SKIPS ? kstats_multi_skip_whys[skip] : "";
}

/**
 * kstats_multi_skip_name() - a reason to skip, as the header says it
 * @skip: enum kstats_multi_skip
 *
 * Context: any.
 */
const char *kstats_multi_skip_name(u8 skip)
{
	return skip < KSTATS_MULTI_SKIPS ? kstats_multi_skip_names[skip] : "";
}

/* Skipped functions the header names, at most. */
#define KSTATS_MULTI_SHOW_SKIPPED	8

/**
 * kstats_multi_spec() - whether a trace target names several functions
 * @spec: the target
 *
 * A glob has one of glob_match()'s special characters; a list a comma.
 *
 * Context: any.
 */
bool kstats_multi_spec(const char *spec)
{
	/* a tracepoint, or a user function (kstats_uprobe.h), any file name */
	if (!strncmp(spec, "tp:", 3) || kstats_uprobe_spec(spec))
		return false;
	return !!strpbrk(spec, "*?[,");
}
EXPORT_SYMBOL_NS_GPL(kstats_multi_spec, KSTATS_NS);

/* What the reads fill in; @err the first error, which stops them. */
struct kstats_multi_build {
	struct kstats_multi *m;
	const char *glob;
	size_t len, size;	/* of m->names, for a glob */
	unsigned int cap;	/* of m->funcs, for a glob */
	int err;
};

/* The index + 1 of module @mod (@len bytes) in @m's, added if new. */
static int kstats_multi_mod(struct kstats_multi *m, const char *mod,
			    size_t len)
{
	char (*mods)[MODULE_NAME_LEN];
	unsigned int i;

	if (!len || len >= MODULE_NAME_LEN)
		return 0;
	for (i = 0; i < m->nr_mods; i++)
		if (!strncmp(m->mods[i], mod, len) && !m->mods[i][len])
			return i + 1;
	if (m->nr_mods == U16_MAX - 1)
		return -E2BIG;
	mods = krealloc_array(m->mods, m->nr_mods + 1, sizeof(*mods),
			      KSTATS_GFP);
	if (!mods)
		return -ENOMEM;
	m->mods = mods;
	memcpy(mods[m->nr_mods], mod, len);
	mods[m->nr_mods][len] = '\0';
	return ++m->nr_mods;
}

/*
 * Split a line of ftrace's list, "name" or "name [module]", in place:
 * the name NUL-ended; the module and its length, or NULL.
 */
static void kstats_multi_split(char *s, size_t len, const char **mod,
			       size_t *mlen)
{
	char *sp = memchr(s, ' ', len);

	*mod = NULL;
	*mlen = 0;
	if (sp && len - (sp - s) > 3 && sp[1] == '[' && s[len - 1] == ']') {
		*mod = sp + 2;
		*mlen = s + len - 1 - *mod;
	}
	if (sp)
		*sp = '\0';
	else
		s[len] = '\0';
}

/* Keep a function of ftrace's list whose name matches the glob. */
static void kstats_multi_glob_line(void *arg, char *s, size_t len)
{
	struct kstats_multi_build *b = arg;
	struct kstats_multi *m = b->m;
	struct kstats_multi_func *f;
	size_t mlen, nlen;
	const char *mod;
	int idx;

	if (b->err || !len)
		return;
	kstats_multi_split(s, len, &mod, &mlen);
	if (!glob_match(b->glob, s))
		return;
	nlen = strlen(s) + 1;
	if (b->len + nlen > b->size) {
		size_t size = max(2 * b->size, b->len + nlen);
		char *names = krealloc(m->names, size, KSTATS_GFP);

		if (!names) {
			b->err = -ENOMEM;
			return;
		}
		m->names = names;
		b->size = size;
	}
	if (m->nr == b->cap) {
		unsigned int cap = max(2 * b->cap, 64U);

		/* kvrealloc()'s arguments differ between 6.1 and 6.12 */
		f = kvmalloc_array(cap, sizeof(*f), KSTATS_GFP);
		if (!f) {
			b->err = -ENOMEM;
			return;
		}
		if (m->nr)
			memcpy(f, m->funcs, m->nr * sizeof(*f));
		kvfree(m->funcs);
		m->funcs = f;
		b->cap = cap;
	}
	idx = kstats_multi_mod(m, mod, mlen);
	if (idx < 0) {
		b->err = idx;
		return;
	}
	f = &m->funcs[m->nr++];
	memset(f, 0, sizeof(*f));
	/* an offset until the names stop moving */
	f->name = (const char *)b->len;
	f->mod = idx;
	f->ftrace = 1;
	memcpy(m->names + b->len, s, nlen);
	b->len += nlen;
}

static int kstats_multi_cmp(const void *a, const void *b)
{
	const struct kstats_multi_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->mod - (int)y->mod;
}

static int kstats_multi_name_cmp(const void *key, const void *elt)
{
	const struct kstats_multi_func *f = elt;

	return strcmp(key, f->name);
}

/* The first function of @m named @name, or NULL. */
static struct kstats_multi_func *kstats_multi_find(struct kstats_multi *m,
						   const char *name)
{
	struct kstats_multi_func *f;

	f = bsearch(name, m->funcs, m->nr, sizeof(*f), kstats_multi_name_cmp);
	while (f && f > m->funcs && !strcmp(f[-1].name, name))
		f--;
	return f;
}

/* A list's function that ftrace lists: its module, and how many lines. */
static void kstats_multi_list_line(void *arg, char *s, size_t len)
{
	struct kstats_multi_build *b = arg;
	struct kstats_multi_func *f;
	size_t mlen;
	const char *mod;
	int idx;

	if (b->err || !len)
		return;
	kstats_multi_split(s, len, &mod, &mlen);
	f = kstats_multi_find(b->m, s);
	if (!f)
		return;
	idx = kstats_multi_mod(b->m, mod, mlen);
	if (idx < 0) {
		b->err = idx;
		return;
	}
	if (!f->ftrace)
		f->mod = idx;
	/* in two places, or twice in one: ambiguous */
	f->ftrace = f->mod == idx ? min_t(int, f->ftrace + 1, U8_MAX) : U8_MAX;
}

/*
 * A line of kallsyms, "ADDR TYPE NAME" or "ADDR TYPE NAME\t[module]": a
 * text symbol of a function of @m gives its address; a weak one (W, w)
 * is an alias, counted apart.
 */
static void kstats_multi_sym_line(void *arg, char *s, size_t len)
{
	struct kstats_multi_build *b = arg;
	struct kstats_multi *m = b->m;
	struct kstats_multi_func *f;
	char *name, *tab, *mod = NULL;
	unsigned long addr;
	size_t mlen = 0;
	bool weak;

	if (b->err || len < 20)
		return;
	s[len] = '\0';
	name = strchr(s, ' ');
	if (!name || !strchr("tTwW", name[1]) || name[2] != ' ')
		return;
	weak = name[1] == 'w' || name[1] == 'W';
	*name = '\0';
	name += 3;
	tab = strchr(name, '\t');
	if (tab) {
		*tab = '\0';
		if (tab[1] == '[' && s[len - 1] == ']') {
			mod = tab + 2;
			mlen = s + len - 1 - mod;
		}
	}
	f = kstats_multi_find(m, name);
	if (!f || kstrtoul(s, 16, &addr))
		return;
	for (; f < m->funcs + m->nr && !strcmp(f->name, name); f++) {
		const char *fm = kstats_multi_module(m, f);

		/* a list's name ftrace does not have matches in any module */
		if (f->ftrace && (fm ? !mod || mlen != strlen(fm) ||
				  strncmp(fm, mod, mlen) : !!mod))
			continue;
		if (weak) {
			f->weak = min_t(int, f->weak + 1, U8_MAX);
			continue;
		}
		if (!f->syms)
			f->addr = addr;
		f->syms = min_t(int, f->syms + 1, U8_MAX);
	}
}

/*
 * Where the command wrote @name, one of the list @spec that @m->names
 * copies (at the same offset); @spec itself for a glob's.
 */
static const char *kstats_multi_word(const struct kstats_multi *m,
				     const char *spec, const char *name,
				     bool list)
{
	return list ? spec + (name - m->names) : spec;
}

/* "F1,F2,...": each name checked, kept in @m->names, sorted. */
static int kstats_multi_list(const char *node, const char *spec,
			     struct kstats_multi *m, struct kstats_refusal *why)
{
	unsigned int i, n = 1;
	char *s, *name;

	for (s = (char *)spec; *s; s++)
		n += *s == ',';
	m->names = kstrdup(spec, KSTATS_GFP);
	m->funcs = kvcalloc(n, sizeof(*m->funcs), KSTATS_GFP);
	if (!m->names || !m->funcs)
		return -ENOMEM;
	s = m->names;
	while ((name = strsep(&s, ","))) {
		const char *c;

		if (!*name) {
			kstats_refuse(why, kstats_multi_word(m, spec, name, true),
				      node, "empty function name in the list '%s'",
				      spec);
			return -EINVAL;
		}
		for (c = name; *c; c++) {
			if (!isalnum(*c) && *c != '_' && *c != '.') {
				kstats_refuse(why,
					      kstats_multi_word(m, spec, name, true),
					      node,
					      "bad function name '%s' in the list",
					      name);
				return -EINVAL;
			}
		}
		m->funcs[m->nr++].name = name;
	}
	sort(m->funcs, m->nr, sizeof(*m->funcs), kstats_multi_cmp, NULL);
	for (i = 1; i < m->nr; i++) {
		if (!strcmp(m->funcs[i - 1].name, m->funcs[i].name)) {
			const char *at = max(m->funcs[i - 1].name,
					     m->funcs[i].name);

			/* under the second time */
			kstats_refuse(why, kstats_multi_word(m, spec, at, true),
				      node, "'%s' twice in the list",
				      m->funcs[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/* A glob: the functions of ftrace's list it matches, sorted. */
static int kstats_multi_glob(const char *node, const char *spec,
			     struct kstats_multi *m, struct kstats_refusal *why)
{
	struct kstats_multi_build b = { .m = m, .glob = spec };
	unsigned int i;
	int err;

	err = kstats_syms_each_ftrace(kstats_multi_glob_line, &b);
	if (!err)
		err = b.err;
	if (err) {
		kstats_refuse(why, spec, node,
			      "cannot read ftrace's list of functions (%d)", err);
		return err;
	}
	if (!m->nr) {
		kstats_refuse(why, spec, node,
			      "'%s' matches no function ftrace can trace", spec);
		return -ENOENT;
	}
	for (i = 0; i < m->nr; i++)
		m->funcs[i].name = m->names + (size_t)m->funcs[i].name;
	sort(m->funcs, m->nr, sizeof(*m->funcs), kstats_multi_cmp, NULL);
	/* one name listed twice in one place: one entry, ambiguous */
	for (i = 1; i < m->nr; i++) {
		struct kstats_multi_func *p = &m->funcs[i - 1];

		if (!kstats_multi_cmp(p, &m->funcs[i])) {
			p->ftrace = U8_MAX;
			memmove(&m->funcs[i], &m->funcs[i + 1],
				(m->nr - i - 1) * sizeof(*p));
			m->nr--;
			i--;
		}
	}
	return 0;
}

/**
 * kstats_multi_resolve() - the functions a glob or a list names
 * @node: the node's name, for the kernel log
 * @spec: a glob, or names separated by commas
 * @recurses: whether a function is one kstats' probes call (a clock)
 * @why: where a refusal is noted, at @spec or at the name of the list it
 *	refuses (kstats_refuse()), or NULL
 *
 * Context: process; may sleep.
 * Return: the functions, their addresses and what keeps some from being
 * traced (the mechanism adds its own reasons), or an ERR_PTR: -ENOENT for
 * a glob that matches nothing or a name that is no function, -EINVAL for
 * a bad list, -EPERM when kallsyms hides the addresses, -ENOMEM.  Each
 * error is said in one line of the kernel log.
 */
struct kstats_multi *kstats_multi_resolve(const char *node, const char *spec,
					  bool (*recurses)(const char *name),
					  struct kstats_refusal *why)
{
	struct kstats_multi_build b = { .glob = spec };
	struct kstats_multi *m;
	bool list = !!strchr(spec, ',');
	unsigned int i;
	int err;

	m = kzalloc(sizeof(*m), KSTATS_GFP);
	if (!m)
		return ERR_PTR(-ENOMEM);
	b.m = m;
	err = list ? kstats_multi_list(node, spec, m, why) :
		     kstats_multi_glob(node, spec, m, why);
	if (!err && list) {
		err = kstats_syms_each_ftrace(kstats_multi_list_line, &b);
		if (!err)
			err = b.err;
	}
	if (!err) {
		err = kstats_syms_each_kallsyms(kstats_multi_sym_line, &b);
		if (!err)
			err = b.err;
	}
	if (err) {
		if (err != -EINVAL && err != -ENOENT)
			kstats_refuse(why, spec, node,
				      "cannot resolve the functions of '%s' (%d)",
				      spec, err);
		goto fail;
	}
	for (i = 0; i < m->nr; i++) {
		struct kstats_multi_func *f = &m->funcs[i];

		if (!f->syms && !f->ftrace && !f->weak) {
			kstats_refuse(why, kstats_multi_word(m, spec, f->name,
							     list),
				      node, "no function '%s'", f->name);
			err = -ENOENT;
			goto fail;
		}
		if (f->syms && !f->addr) {
			kstats_refuse(why, spec, node,
				      "kallsyms hides the kernel's addresses from this task (kptr_restrict)");
			err = -EPERM;
			goto fail;
		}
		if (!f->syms && f->weak)
			f->skip = KSTATS_MULTI_ALIAS;
		else if (!f->ftrace || !f->syms)
			f->skip = KSTATS_MULTI_NOT_FTRACEABLE;
		else if (f->ftrace > 1 || f->syms > 1)
			f->skip = KSTATS_MULTI_AMBIGUOUS;
		else if (within_module(f->addr, THIS_MODULE) ||
			 recurses(f->name))
			f->skip = KSTATS_MULTI_RECURSES;
	}
	return m;
fail:
	kstats_multi_free(m);
	return ERR_PTR(err);
}

/**
 * kstats_multi_free() - free what kstats_multi_resolve() made
 * @m: the functions, or NULL
 *
 * Context: any but NMI (kvfree).
 */
void kstats_multi_free(struct kstats_multi *m)
{
	if (!m)
		return;
	kvfree(m->funcs);
	kfree(m->names);
	kfree(m->mods);
	kfree(m);
}

/**
 * kstats_multi_traced() - how many of the functions are traced
 * @m: the functions
 *
 * By the direct slot or by a fallback of their own.
 *
 * Context: any.
 */
unsigned int kstats_multi_traced(const struct kstats_multi *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr; i++)
		n += m->funcs[i].skip == KSTATS_MULTI_TRACED ||
		     m->funcs[i].fallback;
	return n;
}

/**
 * kstats_multi_can_fall_back() - whether another mechanism may time it
 * @f: a function the direct slot did not take
 *
 * As a one-function node falls back, by name: not kstats' own code nor a
 * clock its probes read, not a name several functions bear (a probe by
 * name would time one of them, or all, under one key), and only a
 * function whose address kallsyms gave (an alias has none of its own);
 * and not one a fallback times already.
 *
 * Context: any.
 */
bool kstats_multi_can_fall_back(const struct kstats_multi_func *f)
{
	return f->skip != KSTATS_MULTI_TRACED && !f->fallback &&
	       f->skip != KSTATS_MULTI_RECURSES &&
	       f->skip != KSTATS_MULTI_AMBIGUOUS && f->addr;
}

/**
 * kstats_multi_untaken() - the direct slot took none of the functions
 * @m: the functions
 * @skip: why, for those it would have taken (enum kstats_multi_skip)
 *
 * The node falls back whole: each function falls back for its own reason
 * (no_btf, direct_busy, ...) or, if it had none, for @skip.
 *
 * Context: process.
 */
void kstats_multi_untaken(struct kstats_multi *m, u8 skip)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++)
		if (m->funcs[i].skip == KSTATS_MULTI_TRACED)
			m->funcs[i].skip = skip;
}

/**
 * kstats_multi_show() - the node's header lines about its functions
 * @m: the functions
 * @seq: the file being read
 *
 * "# functions matched N traced T skipped S", then the number skipped for
 * each reason that has any ("REASON N"), and "fallback F", those traced
 * by a mechanism of their own; then "# fallback NAME:MECH:WHY ..." and
 * "# skipped NAME:WHY ...", the first KSTATS_MULTI_SHOW_SKIPPED of each.
 *
 * Context: process (a read of the node's file).
 */
void kstats_multi_show(const struct kstats_multi *m, struct seq_file *seq)
{
	unsigned int count[KSTATS_MULTI_SKIPS] = { 0 };
	unsigned int i, fb = 0, skipped, shown;

	for (i = 0; i < m->nr; i++) {
		if (m->funcs[i].fallback)
			fb++;
		else
			count[m->funcs[i].skip]++;
	}
	skipped = m->nr - count[KSTATS_MULTI_TRACED] - fb;
	seq_printf(seq, "# functions matched %u traced %u skipped %u", m->nr,
		   count[KSTATS_MULTI_TRACED] + fb, skipped);
	for (i = KSTATS_MULTI_TRACED + 1; i < KSTATS_MULTI_SKIPS; i++)
		if (count[i])
			seq_printf(seq, " %s %u", kstats_multi_skip_names[i],
				   count[i]);
	if (fb)
		seq_printf(seq, " fallback %u", fb);
	seq_putc(seq, '\n');
	if (fb) {
		seq_puts(seq, "# fallback");
		for (i = 0, shown = 0; i < m->nr && shown < KSTATS_MULTI_SHOW_SKIPPED; i++) {
			const struct kstats_multi_func *f = &m->funcs[i];

			if (!f->fallback)
				continue;
			seq_printf(seq, " %s:%s:%s", f->name, f->fallback,
				   kstats_multi_skip_names[f->skip]);
			shown++;
		}
		if (fb > shown)
			seq_printf(seq, " ... %u more", fb - shown);
		seq_putc(seq, '\n');
	}
	if (!skipped)
		return;
	seq_puts(seq, "# skipped");
	for (i = 0, shown = 0; i < m->nr && shown < KSTATS_MULTI_SHOW_SKIPPED; i++) {
		const struct kstats_multi_func *f = &m->funcs[i];

		if (f->skip == KSTATS_MULTI_TRACED || f->fallback)
			continue;
		seq_printf(seq, " %s:%s", f->name,
			   kstats_multi_skip_names[f->skip]);
		shown++;
	}
	if (skipped > shown)
		seq_printf(seq, " ... %u more", skipped - shown);
	seq_putc(seq, '\n');
}
