// SPDX-License-Identifier: GPL-2.0
/*
 * How many functions of the kernel, or of one module, bear a name.
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
 * Context: process; reads a file of about 1.5 MB, so only when a node is
 * made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/string.h>

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

/**
 * kstats_syms_count() - functions ftrace can patch that bear a name
 * @name: the function
 * @module: its module, or NULL for the kernel's own
 *
 * Context: process; may sleep.
 * Return: how many (0 if none), or a negative errno when ftrace's list
 * cannot be read (-ENOENT without tracefs, -ENOMEM).
 */
int kstats_syms_count(const char *name, const char *module)
{
	size_t nlen = strlen(name), have = 0;
	struct file *f = ERR_PTR(-ENOENT);
	loff_t pos = 0;
	int i, n = 0;
	ssize_t got;
	char *buf;

	for (i = 0; i < ARRAY_SIZE(kstats_syms_paths) && IS_ERR(f); i++)
		f = filp_open(kstats_syms_paths[i], O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (f->f_op->read != seq_read) {
		filp_close(f, NULL);
		return -EINVAL;
	}
	/* a chunk, and the start of a line it cut, up to a chunk's size */
	buf = kmalloc(2 * KSTATS_SYMS_CHUNK, GFP_KERNEL);
	if (!buf) {
		filp_close(f, NULL);
		return -ENOMEM;
	}
	while ((got = kstats_syms_read(f, buf + have, KSTATS_SYMS_CHUNK, &pos)) > 0) {
		char *line = buf, *end = buf + have + got, *nl;

		while ((nl = memchr(line, '\n', end - line))) {
			n += kstats_syms_match(line, nl - line, name, nlen, module);
			line = nl + 1;
		}
		have = end - line;
		/* no line is that long: a name is under KSYM_NAME_LEN */
		if (have >= KSTATS_SYMS_CHUNK)
			have = 0;
		memmove(buf, line, have);
	}
	kfree(buf);
	filp_close(f, NULL);
	return got < 0 ? got : n;
}
