/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf.h - kernel expressions to the value grammar of _control (btf.c).
 *
 * An expression names something a probe can read: "ret", a parameter
 * ("count"), what a parameter points to ("*pos"), or a field path
 * ("file->f_inode->i_size", "a.b" for an embedded struct, "a[2]").  With the
 * target's prototype from BTF it becomes the kernel's V: "arg2",
 * "ret:s4", "arg3+0:8", "arg0+32:8+80:8" (Documentation/format.rst).
 */
#ifndef KSTATS_BTF_H
#define KSTATS_BTF_H

#include <stddef.h>

struct btf;

/* Longest V the translation writes, with its NUL. */
#define BTF_VALUE_MAX	160

/* A probe target's prototype in one BTF. */
struct btf_target {
	unsigned int proto;	/* its FUNC_PROTO type id */
	int tp;			/* a tracepoint: parameter 0 is the data pointer */
	char name[96];		/* FUNC, or tp:GROUP:EVENT, for messages */
};

/*
 * The prototype of @target (FUNC or tp:GROUP:EVENT) in @btf: a FUNC's
 * FUNC_PROTO, or a tracepoint's btf_trace_EVENT typedef (names from
 * __traceiter_EVENT when the typedef has none).  0, or -1 with @err.
 */
int btf_find_target(const struct btf *btf, const char *target,
		    struct btf_target *t, char *err, size_t errlen);

/*
 * @expr on @t as the kernel's V in @out (at most BTF_VALUE_MAX).  0, or -1
 * with the reason in @err.  Pure: reads @btf only.
 */
int btf_translate(const struct btf *btf, const struct btf_target *t,
		  const char *expr, char *out, size_t len, char *err,
		  size_t errlen);

/*
 * @expr, a string, as the V of the kernel's "by str:V": a pointer to char
 * as any pointer is read (arg1+80:8), an array of char in memory by its
 * offset with no size (arg0+1264: the string in place).  As
 * btf_translate() otherwise.
 */
int btf_translate_string(const struct btf *btf, const struct btf_target *t,
			 const char *expr, char *out, size_t len, char *err,
			 size_t errlen);

/*
 * The running kernel's BTF for @target: vmlinux, and the module's file when
 * the target is in a module.  The directory is $KSTATS_BTF, else
 * /sys/kernel/btf.  NULL with @err when there is no BTF or no such target.
 */
struct kbtf;
struct kbtf *kbtf_open(const char *target, char *err, size_t errlen);
int kbtf_value(const struct kbtf *k, const char *expr, char *out, size_t len,
	       char *err, size_t errlen);
void kbtf_close(struct kbtf *k);

/*
 * The other way: the kernel's @v on @t as the source names it ("arg2" of
 * vfs_read is "count"), checked by translating it back.  0, or -1.
 */
int btf_describe(const struct btf *btf, const struct btf_target *t,
		 const char *v, char *out, size_t len);
int kbtf_describe(const struct kbtf *k, const char *v, char *out, size_t len);

/* kbtf_open(), kbtf_value(), kbtf_close() in one. */
int btf_resolve_value(const char *target, const char *expr, char *out,
		      size_t len, char *err, size_t errlen);
/* The same for a string (btf_translate_string()). */
int btf_resolve_string(const char *target, const char *expr, char *out,
		       size_t len, char *err, size_t errlen);

/* The value of the enumerator @name in the kernel's BTF.  0, or -1. */
int btf_resolve_enumerator(const char *name, long long *val, char *err,
			   size_t errlen);

/* trace.c: --by KEY in the kernel's terms (comm pid tid cpu, or a value) */
int by_key(const struct kbtf *k, const char *berr, const char *by, char *v,
	   size_t len, char *err, size_t errlen);

#endif /* KSTATS_BTF_H */
