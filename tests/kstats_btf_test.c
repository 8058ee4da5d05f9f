// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_btf, of lib/kstats_btf.c: BTF: where a function's
 * arguments are passed and their types, from a small BTF file built here
 * (x86-64).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include <linux/btf.h>

#include "kstats.h"
#include "kstats_btf.h"
#include "kstats_direct.h"
#include "kstats_cmd.h"
#include "kstats_multi.h"
#include "kstats_family.h"
#include "kstats_outlier.h"
#include "kstats_internal.h"
#include "kstats_pair.h"
#include "kstats_point.h"
#include "kstats_stack.h"

#include "kstats_test.h"

#ifdef CONFIG_X86_64
/*
 * A small BTF file built here, for kstats_btf.c's placement of arguments:
 * the number of registers and stack words the direct trampoline keeps,
 * and the types of the words argN reads.
 */
struct kstats_test_btf {
	u32 w[200];
	unsigned int n;
};

static void kstats_tb_put(struct kstats_test_btf *b, u32 v)
{
	if (b->n < ARRAY_SIZE(b->w))
		b->w[b->n++] = v;
}

/* A type record: name, kind, vlen, size or type. */
static void kstats_tb_type(struct kstats_test_btf *b, u32 name, u32 kind,
			   u32 vlen, u32 size_type)
{
	kstats_tb_put(b, name);
	kstats_tb_put(b, kind << 24 | vlen);
	kstats_tb_put(b, size_type);
}

/* A FUNC_PROTO returning @ret with @n parameters of @types, and its FUNC. */
static void kstats_tb_func(struct kstats_test_btf *b, u32 *id, u32 name,
			   u32 ret, const u32 *types, u32 n)
{
	u32 i;

	kstats_tb_type(b, 0, BTF_KIND_FUNC_PROTO, n, ret);
	for (i = 0; i < n; i++) {
		kstats_tb_put(b, 0);
		kstats_tb_put(b, types[i]);
	}
	kstats_tb_type(b, name, BTF_KIND_FUNC, 0, *id);
	*id += 2;
}

static void kstats_test_btf_place(struct kunit *test)
{
	static const char strs[] =
		"\0long\0big\0pair\0tl\0f9\0f0\0fbig\0flate\0fva\0fret\0fpr\0dup\0same\0f7p";
	/* offsets of the names in strs */
	enum { LONG = 1, BIG = 6, PAIR = 10, TLONG = 15, NINE = 18, NONE = 21,
	       BIGARG = 24, PAIRLATE = 29, VARARG = 35, BIGRET = 39,
	       PAIRRET = 44, DUP = 48, SAME = 52, SEVENPAIR = 57 };
	/* type ids: 1 long, 2 long *, 3 big (24 bytes), 4 pair (16 bytes),
	 * 5 tlong (typedef), 6 const tlong; functions from 7 on
	 */
	static const u32 nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const u32 bigarg[2] = { 3, 1 };
	static const u32 pairlate[7] = { 1, 1, 1, 1, 1, 4, 1 };
	static const u32 sevenpair[9] = { 1, 1, 1, 1, 1, 1, 1, 4, 1 };
	static const u32 vararg[3] = { 2, 6, 0 };
	static const u32 six[6] = { 1, 1, 1, 1, 1, 1 };
	static const u32 one_long[1] = { 1 }, one_tlong[1] = { 6 };
	/* x86-64 System V, then AAPCS64, of each function */
	static const struct {
		const char *name;
		u8 nregs, nregs_a;
		u16 nstack, nstack_a;
		u8 ret_regs;
	} want[] = {
		/* do_mmap()'s shape: nine scalars, three on the stack (one
		 * past x7)
		 */
		{ "f9", 6, 8, 3, 1, 1 },
		/* void f0(void) */
		{ "f0", 0, 0, 0, 0, 0 },
		/* a 24-byte structure by value: on the stack, the long
		 * after it in a register; AAPCS64 passes its address in x0
		 */
		{ "fbig", 1, 2, 3, 0, 1 },
		/* a 16-byte pair with one register left: on the stack, the
		 * next long in the last register; AAPCS64 has x5 and x6 for
		 * the pair and x7 for the long
		 */
		{ "flate", 6, 8, 2, 0, 1 },
		/* a returned 24-byte structure takes %rdi for its pointer
		 * (AAPCS64: x8, no argument register), and comes back
		 * through memory
		 */
		{ "fret", 6, 6, 1, 0, 0 },
		/* a returned 16-byte pair comes back in %rax and %rdx */
		{ "fpr", 0, 0, 0, 0, 2 },
		/* two static functions of one name, placed alike: either */
		{ "same", 1, 1, 0, 0, 1 },
		/* seven longs, a pair, a long: AAPCS64 puts the pair on the
		 * stack and, its registers closed by then (C.13), the long
		 * after it
		 */
		{ "f7p", 6, 7, 4, 3, 1 },
	};
	struct kstats_test_btf *b;
	struct btf_header *h;
	struct kstats_btf_func f;
	size_t size, i;
	u32 id = 7;
	u8 *blob;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kstats_tb_type(b, LONG, BTF_KIND_INT, 0, 8);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 64);
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, 1);
	kstats_tb_type(b, BIG, BTF_KIND_STRUCT, 0, 24);
	kstats_tb_type(b, PAIR, BTF_KIND_STRUCT, 0, 16);
	kstats_tb_type(b, TLONG, BTF_KIND_TYPEDEF, 0, 1);
	kstats_tb_type(b, 0, BTF_KIND_CONST, 0, 5);
	kstats_tb_func(b, &id, NINE, 1, nine, 9);
	kstats_tb_func(b, &id, NONE, 0, NULL, 0);
	kstats_tb_func(b, &id, BIGARG, 1, bigarg, 2);
	kstats_tb_func(b, &id, PAIRLATE, 1, pairlate, 7);
	kstats_tb_func(b, &id, VARARG, 1, vararg, 3);
	kstats_tb_func(b, &id, BIGRET, 3, six, 6);
	kstats_tb_func(b, &id, PAIRRET, 4, NULL, 0);
	kstats_tb_func(b, &id, DUP, 1, one_long, 1);
	kstats_tb_func(b, &id, DUP, 1, six, 6);
	kstats_tb_func(b, &id, SAME, 1, one_long, 1);
	kstats_tb_func(b, &id, SAME, 1, one_tlong, 1);
	kstats_tb_func(b, &id, SEVENPAIR, 1, sevenpair, 9);
	KUNIT_ASSERT_LT(test, b->n, ARRAY_SIZE(b->w));

	size = sizeof(*h) + b->n * sizeof(u32) + sizeof(strs);
	blob = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (struct btf_header *)blob;
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_off = 0;
	h->type_len = b->n * sizeof(u32);
	h->str_off = h->type_len;
	h->str_len = sizeof(strs);
	memcpy(blob + sizeof(*h), b->w, h->type_len);
	memcpy(blob + sizeof(*h) + h->type_len, strs, sizeof(strs));

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ_MSG(test, kstats_btf_func_blob(blob, size, want[i].name,
							       &kstats_cc_x86_64, &f),
				    0, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nregs, want[i].nregs, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nstack, want[i].nstack, "%s", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.ret_regs, want[i].ret_regs, "%s", want[i].name);
		KUNIT_ASSERT_EQ_MSG(test, kstats_btf_func_blob(blob, size, want[i].name,
							       &kstats_cc_aapcs64, &f),
				    0, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nregs, want[i].nregs_a, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.nstack, want[i].nstack_a, "%s (AAPCS64)", want[i].name);
		KUNIT_EXPECT_EQ_MSG(test, f.ret_regs, want[i].ret_regs, "%s (AAPCS64)",
				    want[i].name);
	}
	/* the typed words: f9's ninth long is arg8 on arm64 */
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f9", &kstats_cc_aapcs64, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[8].size, 8);
	KUNIT_EXPECT_TRUE(test, f.arg[8].sign);
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f7p", &kstats_cc_x86_64, &f), 0);
	/* x86-64: six longs in registers, the seventh at arg6, the pair at
	 * arg7-8 (untyped), the last long at arg9; AAPCS64: the pair at
	 * arg8-9, the last long at arg10
	 */
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 8);
	KUNIT_EXPECT_EQ(test, f.arg[7].size, 0);
	KUNIT_EXPECT_EQ(test, f.arg[9].size, 8);
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "f7p", &kstats_cc_aapcs64, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 8);
	KUNIT_EXPECT_EQ(test, f.arg[8].size, 0);
	KUNIT_EXPECT_EQ(test, f.arg[10].size, 8);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "fva", NULL, &f), -EOPNOTSUPP);
	/* two of one name placed differently: which one is bound is unknown */
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "dup", NULL, &f), -ENOTUNIQ);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "long", NULL, &f), -ENOENT);
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "missing", NULL, &f), -ENOENT);
	/* malformed: cut short, strings not ended by a NUL, a bad magic */
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size - 1, "f9", NULL, &f), -EINVAL);
	h->str_len--;
	blob[size - 1] = 'x';
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size - 1, "f9", NULL, &f), -EINVAL);
	h->str_len++;
	blob[size - 1] = '\0';
	h->type_len -= 4;
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "f9", NULL, &f), -EINVAL);
	h->type_len += 4;
	h->magic = 0;
	KUNIT_EXPECT_EQ(test, kstats_btf_func_blob(blob, size, "f9", NULL, &f), -EINVAL);
}

/* @b's types and @strs as one BTF file, allocated for @test. */
static u8 *kstats_tb_blob(struct kunit *test, const struct kstats_test_btf *b,
			  const char *strs, size_t str_len, size_t *sizep)
{
	struct btf_header *h;
	size_t size = sizeof(*h) + b->n * sizeof(u32) + str_len;
	u8 *blob = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (struct btf_header *)blob;
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_len = b->n * sizeof(u32);
	h->str_off = h->type_len;
	h->str_len = str_len;
	memcpy(blob + sizeof(*h), b->w, h->type_len);
	memcpy(blob + sizeof(*h) + h->type_len, strs, str_len);
	*sizep = size;
	return blob;
}

/*
 * The types of a function's and a tracepoint's arguments, and a value
 * typed by them: an int argument is sign-extended from its 4 bytes, a
 * u16 zero-extended, a long or a written cast left as they are, a typed
 * return value no longer guessed at.
 */
static void kstats_test_btf_types(struct kunit *test)
{
	static const char strs[] =
		"\0int\0u16\0long\0bool\0en\0fw\0btf_trace_ev\0big\0fs";
	enum { INT = 1, U16 = 5, LONG = 9, BOOL = 14, EN = 19, FW = 22,
	       TRACE_EV = 25, BIG = 38, FS = 42 };
	/* type ids: 1 int, 2 u16, 3 long, 4 int *, 5 bool, 6 enum (signed),
	 * 7 a 24-byte structure; functions from 8 on
	 */
	static const u32 fw[6] = { 1, 2, 3, 4, 5, 6 };
	static const u32 fs[4] = { 7, 1, 2, 1 };
	static const u32 ev[4] = { 4, 1, 2, 5 };
	/* 0x00000000fffffff2 in %rax, as each return type reads it */
	static const struct {
		struct kstats_width w;
		u64 want;
	} rets[] = {
		{ { 0, false }, -14ULL },	/* no type: an int's -errno */
		{ { 8, true }, 0xfffffff2ULL },	/* long */
		{ { 4, false }, 0xfffffff2ULL },	/* unsigned int */
		{ { 4, true }, -14ULL },	/* int */
	};
	struct kstats_args a = { 0 };
	unsigned long tp[KSTATS_MAX_ARGS] = { 0xfffffffbUL, 0xfff0UL };
	struct kstats_test_btf *b;
	struct kstats_btf_func f;
	struct kstats_value v;
	char buf[32];
	size_t size;
	u32 id = 8;
	u8 *blob;
	u64 out;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kstats_tb_type(b, INT, BTF_KIND_INT, 0, 4);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 32);
	kstats_tb_type(b, U16, BTF_KIND_INT, 0, 2);
	kstats_tb_put(b, 16);
	kstats_tb_type(b, LONG, BTF_KIND_INT, 0, 8);
	kstats_tb_put(b, BTF_INT_SIGNED << 24 | 64);
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, 1);
	kstats_tb_type(b, BOOL, BTF_KIND_INT, 0, 1);
	kstats_tb_put(b, BTF_INT_BOOL << 24 | 8);
	/* an enum with a negative value: signed (kind_flag) */
	kstats_tb_type(b, EN, BTF_KIND_ENUM, 0, 4);
	b->w[b->n - 2] |= 1U << 31;
	kstats_tb_type(b, BIG, BTF_KIND_STRUCT, 0, 24);
	/* int fw(int, u16, long, int *, bool, enum en) */
	kstats_tb_func(b, &id, FW, 1, fw, 6);
	/* u16 fs(struct big, int, u16, int): the structure on the stack */
	kstats_tb_func(b, &id, FS, 2, fs, 4);
	/* btf_trace_ev: void (*)(void *, int *, int, u16, bool) */
	kstats_tb_type(b, 0, BTF_KIND_FUNC_PROTO, 4, 0);
	kstats_tb_put(b, 0);
	kstats_tb_put(b, 4);
	for (size = 1; size < 4; size++) {
		kstats_tb_put(b, 0);
		kstats_tb_put(b, ev[size]);
	}
	kstats_tb_type(b, 0, BTF_KIND_PTR, 0, id);
	kstats_tb_type(b, TRACE_EV, BTF_KIND_TYPEDEF, 0, id + 1);
	KUNIT_ASSERT_LT(test, b->n, ARRAY_SIZE(b->w));
	blob = kstats_tb_blob(test, b, strs, sizeof(strs), &size);

	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "fw", NULL, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_TRUE(test, f.arg[0].sign);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_FALSE(test, f.arg[1].sign);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 8);
	KUNIT_EXPECT_TRUE(test, f.arg[2].sign);
	KUNIT_EXPECT_EQ(test, f.arg[3].size, 8);	/* a pointer */
	KUNIT_EXPECT_FALSE(test, f.arg[3].sign);
	KUNIT_EXPECT_EQ(test, f.arg[4].size, 1);	/* bool */
	KUNIT_EXPECT_FALSE(test, f.arg[4].sign);
	KUNIT_EXPECT_EQ(test, f.arg[5].size, 4);	/* the signed enum */
	KUNIT_EXPECT_TRUE(test, f.arg[5].sign);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 0);
	KUNIT_EXPECT_EQ(test, f.ret.size, 4);
	KUNIT_EXPECT_TRUE(test, f.ret.sign);
	/* a structure by value on the stack: the next scalars in %rdi.. */
	KUNIT_ASSERT_EQ(test, kstats_btf_func_blob(blob, size, "fs", NULL, &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 4);
	KUNIT_EXPECT_EQ(test, f.arg[6].size, 0);	/* the structure */
	KUNIT_EXPECT_EQ(test, f.ret.size, 2);
	KUNIT_EXPECT_FALSE(test, f.ret.sign);
	/* a tracepoint: TP_PROTO's arguments, after the data pointer */
	KUNIT_ASSERT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "ev", &f), 0);
	KUNIT_EXPECT_EQ(test, f.arg[0].size, 4);
	KUNIT_EXPECT_TRUE(test, f.arg[0].sign);
	KUNIT_EXPECT_EQ(test, f.arg[1].size, 2);
	KUNIT_EXPECT_EQ(test, f.arg[2].size, 1);
	KUNIT_EXPECT_EQ(test, f.arg[3].size, 0);
	KUNIT_EXPECT_EQ(test, f.ret.size, 0);
	KUNIT_EXPECT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "fw", &f), -ENOENT);
	KUNIT_EXPECT_EQ(test, kstats_btf_tracepoint_blob(blob, size, "e", &f), -ENOENT);

	/* values typed by the tracepoint: arg0 -5, arg1 65520 */
	a.tp = tp;
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg0", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_TRUE(test, v.typed);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -5LL);
	kstats_value_format(&v, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg0:4", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_FALSE(test, v.typed);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffbULL);
	kstats_value_format(&v, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0:4");
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1", &v, NULL), 0);
	kstats_value_type(&v, &f);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfff0ULL);

	/* ret: guessed without a type, as its type says with one */
	a.ret = 0xfffffff2UL;
	for (size = 0; size < ARRAY_SIZE(rets); size++) {
		KUNIT_ASSERT_EQ(test, kstats_parse_value("ret", &v, NULL), 0);
		memset(&f, 0, sizeof(f));
		f.ret = rets[size].w;
		kstats_value_type(&v, &f);
		KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
		KUNIT_EXPECT_EQ_MSG(test, out, rets[size].want, "ret of size %u%s",
				    rets[size].w.size, rets[size].w.sign ? " signed" : "");
	}
}
#else
static void kstats_test_btf_place(struct kunit *test)
{
	kunit_skip(test, "argument placement is x86-64's");
}

static void kstats_test_btf_types(struct kunit *test)
{
	kunit_skip(test, "argument placement is x86-64's");
}
#endif /* CONFIG_X86_64 */

static struct kunit_case kstats_btf_test_cases[] = {
	KUNIT_CASE(kstats_test_btf_place),
	KUNIT_CASE(kstats_test_btf_types),
	{}
};

struct kunit_suite kstats_btf_suite = {
	.name = "kstats_btf",
	.test_cases = kstats_btf_test_cases,
};
