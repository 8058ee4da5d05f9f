// SPDX-License-Identifier: GPL-2.0
/*
 * How many functions of the kernel, or of one module, bear a name, and
 * which module an address is in.
 *
 * Static functions of one name may live in several files; the name then
 * binds (kallsyms, kprobes, ftrace) to one of them, and the kernel's BTF,
 * which Debian 12's pahole (1.24) writes with one prototype per name,
 * may describe another.  The direct trampoline must not trust the BTF
 * then: a wrong argument count leaves live argument registers unsaved.
 * kallsyms' iterators are not exported to modules; ftrace's list of the
 * functions it can patch, available_filter_functions, names each of them,
 * one a line, "name" or "name [module]", duplicates included, and those
 * are the only functions the trampoline can be given.  It is a seq_file
 * with no read_iter (kernel_read() refuses it): read as seq_read() reads
 * it, through seq_read_iter().
 *
 * Context: process; reads a file of about 1.5 MB (the kernel's own part
 * once, kept as the few names that repeat), so only when a node is made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "kstats_internal.h"
#include "kstats_syms.h"

/* tracefs where it is mounted, else through debugfs' automount */
static const char * const kstats_syms_paths[] = {
	"/sys/kernel/tracing/available_filter_functions",
	"/sys/kernel/debug/tracing/available_filter_functions",
};

#define KSTATS_SYMS_CHUNK	PAGE_SIZE

/* One read() of the seq_file @f at *@pos into @buf. */
static ssize_t kstats_syms_read(struct file *f, char *buf, size_t len,
				loff_t *pos)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter iter;
	struct kiocb kiocb;
	ssize_t n;

	init_sync_kiocb(&kiocb, f);
	kiocb.ki_pos = *pos;
	iov_iter_kvec(&iter, ITER_DEST, &kv, 1, len);
	n = seq_read_iter(&kiocb, &iter);
	*pos = kiocb.ki_pos;
	return n;
}

/* Whether @line ("name" or "name [module]") is @name of @module. */
static bool kstats_syms_match(const char *line, size_t len, const char *name,
			      size_t nlen, const char *module)
{
	size_t mlen;

	if (len < nlen || memcmp(line, name, nlen))
		return false;
	line += nlen;
	len -= nlen;
	if (!module)
		return len == 0;
	mlen = strlen(module);
	return len == mlen + 3 && line[0] == ' ' && line[1] == '[' &&
	       !memcmp(line + 2, module, mlen) && line[len - 1] == ']';
}

/* ftrace's list, opened; an ERR_PTR when it cannot be read. */
static struct file *kstats_syms_open(void)
{
	struct file *f = ERR_PTR(-ENOENT);
	int i;

	for (i = 0; i < ARRAY_SIZE(kstats_syms_paths) && IS_ERR(f); i++)
		f = filp_open(kstats_syms_paths[i], O_RDONLY, 0);
	if (!IS_ERR(f) && f->f_op->read != seq_read) {
		filp_close(f, NULL);
		f = ERR_PTR(-EINVAL);
	}
	return f;
}

/*
 * The kernel's symbols, /proc/kallsyms, opened: a seq_file too (through
 * procfs, whose read is not seq_read), which shows the addresses when the
 * opener may see them (CAP_SYSLOG under kptr_restrict 1).
 */
static struct file *kstats_syms_open_kallsyms(void)
{
	return filp_open("/proc/kallsyms", O_RDONLY, 0);
}

/* Call @line(@arg, LINE, LEN) for each line of @f, without its newline. */
static int kstats_syms_lines(struct file *f,
			     void (*line)(void *arg, char *s, size_t len),
			     void *arg)
{
	size_t have = 0;
	loff_t pos = 0;
	ssize_t got;
	char *buf;

	/* a chunk, and the start of a line it cut, up to a chunk's size */
	buf = kmalloc(2 * KSTATS_SYMS_CHUNK, KSTATS_GFP);
	if (!buf) {
		filp_close(f, NULL);
		return -ENOMEM;
	}
	while ((got = kstats_syms_read(f, buf + have, KSTATS_SYMS_CHUNK, &pos)) > 0) {
		char *s = buf, *end = buf + have + got, *nl;

		while ((nl = memchr(s, '\n', end - s))) {
			line(arg, s, nl - s);
			s = nl + 1;
		}
		have = end - s;
		/* no line is that long: a name is under KSYM_NAME_LEN */
		if (have >= KSTATS_SYMS_CHUNK)
			have = 0;
		memmove(buf, s, have);
	}
	kfree(buf);
	filp_close(f, NULL);
	return got < 0 ? got : 0;
}

/* Each line of ftrace's list.  Return: 0, or a negative errno. */
static int kstats_syms_each(void (*line)(void *arg, char *s, size_t len),
			    void *arg)
{
	struct file *f = kstats_syms_open();

	if (IS_ERR(f))
		return PTR_ERR(f);
	return kstats_syms_lines(f, line, arg);
}

/**
 * kstats_syms_each_ftrace() - each function ftrace can patch
 * @line: called with @arg and each line of available_filter_functions,
 *	"name" or "name [module]", without its newline (writable, not kept)
 * @arg: for @line
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno when the list cannot be read.
 */
int kstats_syms_each_ftrace(void (*line)(void *arg, char *s, size_t len),
			    void *arg)
{
	return kstats_syms_each(line, arg);
}

/**
 * kstats_syms_each_kallsyms() - each symbol of the kernel and its modules
 * @line: called with @arg and each line of /proc/kallsyms, "ADDR TYPE
 *	NAME" or "ADDR TYPE NAME\t[module]", without its newline
 * @arg: for @line
 *
 * kallsyms' iterators are not exported to modules; its file is.  The
 * addresses read as 0 unless the caller's credentials may see them.
 *
 * Context: process; may sleep.
 * Return: 0, or a negative errno when the file cannot be read.
 */
int kstats_syms_each_kallsyms(void (*line)(void *arg, char *s, size_t len),
			      void *arg)
{
	struct file *f = kstats_syms_open_kallsyms();

	if (IS_ERR(f))
		return PTR_ERR(f);
	return kstats_syms_lines(f, line, arg);
}

struct kstats_syms_count {
	const char *name;
	size_t nlen;
	const char *module;
	int n;
};

static void kstats_syms_count_line(void *arg, char *s, size_t len)
{
	struct kstats_syms_count *c = arg;

	c->n += kstats_syms_match(s, len, c->name, c->nlen, c->module);
}

/*
 * The kernel's own names that several functions bear, sorted, found once:
 * its text does not change after boot (a module's is read each time).
 */
static char *kstats_syms_names;		/* the kernel's names, NUL-ended */
static size_t kstats_syms_len, kstats_syms_size;
static const char **kstats_syms_dups;	/* into kstats_syms_names */
static size_t kstats_syms_ndups;
static bool kstats_syms_ready;
static DEFINE_MUTEX(kstats_syms_lock);

/* Keep the kernel's own names (no " [module]") one after another. */
static void kstats_syms_keep(void *arg, char *s, size_t len)
{
	int *err = arg;

	if (*err || memchr(s, '[', len))
		return;
	if (kstats_syms_len + len + 1 > kstats_syms_size) {
		size_t size = max_t(size_t, 2 * kstats_syms_size, SZ_1M);
		char *n = kvmalloc(size, KSTATS_GFP);

		if (!n) {
			*err = -ENOMEM;
			return;
		}
		memcpy(n, kstats_syms_names, kstats_syms_len);
		kvfree(kstats_syms_names);
		kstats_syms_names = n;
		kstats_syms_size = size;
	}
	memcpy(kstats_syms_names + kstats_syms_len, s, len);
	kstats_syms_names[kstats_syms_len + len] = '\0';
	kstats_syms_len += len + 1;
}

static int kstats_syms_cmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/* Under kstats_syms_lock: sort the kernel's names, keep the repeated. */
static int kstats_syms_build(void)
{
	const char **all;
	size_t n = 0, i, off;
	int err = 0;

	err = kstats_syms_each(kstats_syms_keep, &err) ?: err;
	if (err)
		return err;
	for (off = 0; off < kstats_syms_len; off += strlen(kstats_syms_names + off) + 1)
		n++;
	all = kvmalloc_array(n, sizeof(*all), KSTATS_GFP);
	if (!all)
		return -ENOMEM;
	for (i = 0, off = 0; i < n; i++, off += strlen(all[i - 1]) + 1)
		all[i] = kstats_syms_names + off;
	sort(all, n, sizeof(*all), kstats_syms_cmp, NULL);
	/* the first of each run of equal names, in place */
	kstats_syms_ndups = 0;
	for (i = 1; i < n; i++)
		if (!strcmp(all[i], all[i - 1]) &&
		    (!kstats_syms_ndups ||
		     strcmp(all[kstats_syms_ndups - 1], all[i])))
			all[kstats_syms_ndups++] = all[i];
	kstats_syms_dups = all;
	return 0;
}

/**
 * kstats_syms_ambiguous() - whether several functions bear a name
 * @name: the function
 * @module: its module, or NULL for the kernel's own
 *
 * Among the functions ftrace can patch, in the kernel or in @module.
 *
 * Context: process; may sleep.
 * Return: 1 if several do, 0 if not, or a negative errno when ftrace's
 * list cannot be read (-ENOENT without tracefs, -ENOMEM).
 */
int kstats_syms_ambiguous(const char *name, const char *module)
{
	struct kstats_syms_count c = {
		.name = name, .nlen = strlen(name), .module = module,
	};
	int err;

	if (module) {
		err = kstats_syms_each(kstats_syms_count_line, &c);
		return err ? err : c.n > 1;
	}
	mutex_lock(&kstats_syms_lock);
	err = kstats_syms_ready ? 0 : kstats_syms_build();
	if (!err)
		kstats_syms_ready = true;
	else
		kstats_syms_free();
	if (!err)
		err = !!bsearch(&name, kstats_syms_dups, kstats_syms_ndups,
				sizeof(*kstats_syms_dups), kstats_syms_cmp);
	mutex_unlock(&kstats_syms_lock);
	return err;
}

/**
 * kstats_syms_free() - forget the kernel's repeated names
 *
 * At module exit, or after a failed build.
 *
 * Context: process.
 */
void kstats_syms_free(void)
{
	kvfree(kstats_syms_dups);
	kvfree(kstats_syms_names);
	kstats_syms_dups = NULL;
	kstats_syms_names = NULL;
	kstats_syms_len = 0;
	kstats_syms_size = 0;
	kstats_syms_ndups = 0;
	kstats_syms_ready = false;
}

/**
 * kstats_syms_module() - the module a kernel text address is in
 * @addr: the address
 * @mod: where to write its name, or "" for the kernel's own
 * @size: of @mod (MODULE_NAME_LEN)
 *
 * From the symbol's name as the kernel prints it, "name+off/size [module]"
 * (__module_address() is not exported to modules).
 *
 * Context: any but NMI.
 */
void kstats_syms_module(unsigned long addr, char *mod, size_t size)
{
	char sym[KSYM_SYMBOL_LEN], *open, *close;

	mod[0] = '\0';
	sprint_symbol(sym, addr);
	open = strchr(sym, '[');
	if (!open)
		return;
	close = strchr(open, ']');
	if (close && close - open - 1 < size) {
		memcpy(mod, open + 1, close - open - 1);
		mod[close - open - 1] = '\0';
	}
}
