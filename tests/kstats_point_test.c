// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_point, of trace/kstats_point.c: values, filters and
 * conditions: their text, their ranges, and the values a point fetches
 * from registers and memory.
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

/* Each value parses to what it says, and formats back to its canonical text. */
static void kstats_test_value_parse(struct kunit *test)
{
	static const char * const same[] = {
		"ret", "arg0", "arg11", "ret:s4", "arg1:4", "arg2:s1",
		"arg3+0:8", "arg0+32:8+80:8", "arg0+8:8-16:8+0:8+4:s2",
		"ret+0:1", "arg5:s2+0:8",
	};
	static const struct { const char *in, *out; } canon[] = {
		{ "arg3+0x10:8", "arg3+16:8" },
		{ "arg0-0x8:s4", "arg0-8:s4" },
		{ "arg01", "arg1" },
		{ "arg0+2147483647:1", "arg0+2147483647:1" },
	};
	static const char * const bad[] = {
		"", "r", "retval", "arg", "arg12", "arg99", "argx", "arg-1",
		"arg0+0:3", "arg0+0:16", "arg0+0:s8", "arg0+0", "arg0+:8",
		"arg0+0x:8", "arg0+2147483648:8", "arg0+-1:8", "arg0:3",
		"arg0+0:8+0:8+0:8+0:8+0:8", "arg0+0:4+0:8", "arg0+8:s4+0:4",
		"arg0 ", "arg0+0:8x", "ret:s4x", "arg0+99999999999999999999:8",
	};
	struct kstats_value v;
	char buf[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(same); i++) {
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(same[i], &v, NULL), 0,
				    "'%s'", same[i]);
		kstats_value_format(&v, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, same[i]);
	}
	for (i = 0; i < ARRAY_SIZE(canon); i++) {
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(canon[i].in, &v, NULL),
				    0, "'%s'", canon[i].in);
		kstats_value_format(&v, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, canon[i].out);
	}
	KUNIT_EXPECT_EQ(test, kstats_parse_value("arg3+0:8", &v, NULL), 0);
	KUNIT_EXPECT_EQ(test, v.base, KSTATS_BASE_ARG);
	KUNIT_EXPECT_EQ(test, v.arg, 3);
	KUNIT_EXPECT_EQ(test, v.nr_derefs, 1);
	KUNIT_EXPECT_EQ(test, v.deref[0].off, 0);
	KUNIT_EXPECT_EQ(test, v.deref[0].width.size, 8);
	KUNIT_EXPECT_EQ(test, kstats_parse_value("ret-12:s2", &v, NULL), 0);
	KUNIT_EXPECT_EQ(test, v.base, KSTATS_BASE_RET);
	KUNIT_EXPECT_EQ(test, v.deref[0].off, -12);
	KUNIT_EXPECT_TRUE(test, v.deref[0].width.sign);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kstats_parse_value(bad[i], &v, NULL),
				    -EINVAL, "'%s'", bad[i]);
}

/* The value and filter options of trace commands, and what they refuse. */
static void kstats_test_filter_parse(struct kunit *test)
{
	static const struct { const char *in, *filter; } good[] = {
		{ "trace f pid 12", "pid 12" },
		{ "trace f tid 0 pid 7", "pid 7 tid 0" },
		{ "trace f comm dd cpu 0", "comm dd cpu 0" },
		{ "trace f comm 123456789012345", "comm 123456789012345" },
		{ "trace f if arg2 > 1000", "if arg2 > 1000" },
		{ "trace f if ret == -9 if arg0 & 0x800",
		  "if ret == -9 if arg0 & 2048" },
		{ "trace f if arg1 != -0x10 if arg1 <= 5 if arg1 >= 1 if arg1 < 9",
		  "if arg1 != -16 if arg1 <= 5 if arg1 >= 1 if arg1 < 9" },
		{ "trace sec comm x if arg0 == 1 start a end b",
		  "comm x if arg0 == 1" },
		{ "trace tp:sched:sched_wakeup if arg0+0:8 != 0",
		  "if arg0+0:8 != 0" },
		{ "trace f", "" },
	};
	static const char * const bad[] = {
		"trace f pid -1", "trace f pid x", "trace f tid -5",
		"trace f comm 1234567890123456", "trace f cpu 4096",
		"trace f cpu -1", "trace f cpu", "trace f if arg0",
		"trace f if arg0 >", "trace f if arg0 > x",
		"trace f if arg0 =~ 1", "trace f if arg12 == 1",
		"trace f if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1",
		"trace f value", "trace f value arg12", "trace f value arg0+0:3",
		"trace f value arg0 gap", "trace f value ret clock tsc",
		"trace f value ret clock ktime",
		"trace tp:sched:sched_wakeup value ret",
		"trace tp:sched:sched_wakeup if ret < 0",
		"trace sec start a end b value arg0",
		"trace sec start a end b if ret < 0",
		"trace f gap comm dd", "new foo value arg0", "new foo pid 1",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[256];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ_MSG(test, parse(test, good[i].in, cmd), 0,
				    "'%s'", good[i].in);
		kstats_filter_format(&cmd->filter, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, good[i].filter);
		KUNIT_EXPECT_EQ(test, kstats_filter_is_empty(&cmd->filter),
				!*good[i].filter);
	}
	KUNIT_EXPECT_EQ(test, parse(test, "trace vfs_read value arg2 comm dd",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->value.base, KSTATS_BASE_ARG);
	KUNIT_EXPECT_EQ(test, cmd->value.arg, 2);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_NONE);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "vfs_read");
	KUNIT_EXPECT_EQ(test, parse(test, "trace f value ret clock none", cmd),
			0);
	KUNIT_EXPECT_EQ(test, parse(test, "trace tp:a:b value arg0:s4", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "b");
	/* A duration node with a condition on ret keeps its clock. */
	KUNIT_EXPECT_EQ(test, parse(test, "trace f if ret < 0 clock local", cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd->value.base, KSTATS_BASE_NONE);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_LOCAL);
	KUNIT_EXPECT_TRUE(test, kstats_filter_uses_ret(&cmd->filter));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/* Scratch for the parses of kstats_test_value_fetch(). */
static struct kstats_cmd cmd_scratch;

struct kstats_test_inode {
	long pad;
	s64 size;
	s32 mode;
	s8 tiny;
};

struct kstats_test_file {
	unsigned long flags;
	struct kstats_test_inode *inode;
};

/*
 * kstats_cond_range(): each operator's range holds, on a value as read,
 * for what kstats_cond_holds() holds for on the value widened, for each
 * size and sign, at the edges of the line, of the sizes and around zero;
 * "&" is no range.
 */
static void kstats_test_cond_range(struct kunit *test)
{
	static const s64 at[] = {
		S64_MIN, S64_MIN + 1, -0x80000001LL, -0x80000000LL, -0x8001,
		-0x8000, -0x81, -0x80, -2, -1, 0, 1, 2, 99, 0x7f, 0x80, 0xff,
		0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000LL,
		0xffffffffLL, 0x100000000LL, S64_MAX - 1, S64_MAX,
	};
	static const struct kstats_width widths[] = {
		{ 0 }, { 8, true }, { 1 }, { 1, true }, { 2 }, { 2, true },
		{ 4 }, { 4, true },
	};
	struct kstats_cond c = {};
	struct kstats_range r;
	unsigned int i, j, k;
	u8 op;

	for (k = 0; k < ARRAY_SIZE(widths); k++) {
		struct kstats_width w = widths[k];
		u64 mask = w.size && w.size < 8 ? BIT_ULL(w.size * 8) - 1 : ~0ULL;

		for (op = KSTATS_OP_EQ; op < KSTATS_NR_OPS; op++) {
			for (i = 0; i < ARRAY_SIZE(at); i++) {
				c.op = op;
				c.c = at[i];
				if (op == KSTATS_OP_AND) {
					KUNIT_EXPECT_FALSE(test,
							   kstats_cond_range(op, c.c, w, &r));
					continue;
				}
				KUNIT_ASSERT_TRUE(test,
						  kstats_cond_range(op, c.c, w, &r));
				for (j = 0; j < ARRAY_SIZE(at); j++) {
					u64 raw = (u64)at[j] & mask;
					bool want = kstats_cond_holds(&c,
								      kstats_widen(raw, w));

					KUNIT_EXPECT_EQ_MSG(test,
							    kstats_range_holds(&r, raw),
							    want,
							    "%s %lld on %#llx (size %u%s)",
							    kstats_op_names[op], c.c,
							    raw, w.size,
							    w.sign ? " signed" : "");
				}
			}
		}
	}
}

/* Values are read as written, and unreadable memory is reported. */
static void kstats_test_value_fetch(struct kunit *test)
{
	struct kstats_test_inode ino = {
		.size = 123456789012LL, .mode = -2, .tiny = -3,
	};
	struct kstats_test_file file = { .flags = 0x8000, .inode = &ino };
	const struct kstats_width w1 = { .size = 1 }, w4 = { .size = 4 };
	const struct kstats_width s4 = { .size = 4, .sign = true };
	const struct kstats_width w8 = { .size = 8 };
	unsigned long args[KSTATS_MAX_ARGS] = {
		(unsigned long)&file, 0x1000, 0xfffffff7UL, 42,
	};
	struct kstats_args a = { .tp = args };
	struct kstats_filter f;
	struct kstats_value v;
	char text[64];
	u64 out;

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:8",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, size));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, 123456789012LL);

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:s4",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, mode));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -2LL);
	/* The same bytes zero-extended. */
	v.deref[1].width.sign = false;
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffeULL);

	snprintf(text, sizeof(text), "arg0+%zu:8+%zu:s1",
		 offsetof(struct kstats_test_file, inode),
		 offsetof(struct kstats_test_inode, tiny));
	KUNIT_ASSERT_EQ(test, kstats_parse_value(text, &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -3LL);

	/* A user address, and NULL + 8, are never read. */
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg1+0:8", &v, NULL), 0);
	KUNIT_EXPECT_FALSE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg4+8:8", &v, NULL), 0);
	KUNIT_EXPECT_FALSE(test, kstats_value_fetch(&v, &a, &out));
	/* kstats_read_kernel()'s one compare: the kernel half's edges */
	KUNIT_EXPECT_TRUE(test, kstats_read_kernel((unsigned long)&ino.mode, w4,
						   &out));
	KUNIT_EXPECT_EQ(test, out, 0xfffffffeULL);
	KUNIT_EXPECT_TRUE(test, kstats_read_kernel((unsigned long)&ino.mode, s4,
						   &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -2LL);
	KUNIT_EXPECT_FALSE(test, kstats_read_kernel(TASK_SIZE_MAX - 8, w8, &out));
	KUNIT_EXPECT_FALSE(test, kstats_read_kernel(TASK_SIZE_MAX + 8, w8, &out));
#ifdef CONFIG_X86_64
	{
		unsigned long half = 1UL << __VIRTUAL_MASK_SHIFT;

		/* the first and the last non-canonical, and the vsyscall page */
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(half, w1, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(-half - 8, w8, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(VSYSCALL_ADDR, w8,
							    &out));
		/* the fixmap above it, and the top of the space */
		KUNIT_EXPECT_FALSE(test,
				   kstats_read_kernel(VSYSCALL_ADDR + PAGE_SIZE,
						      w8, &out));
		KUNIT_EXPECT_FALSE(test, kstats_read_kernel(-8UL, w8, &out));
	}
#endif

	/* Casts of the base. */
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg2:s4", &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, (s64)out, -9LL);
	KUNIT_ASSERT_EQ(test, kstats_parse_value("arg2:2", &v, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kstats_value_fetch(&v, &a, &out));
	KUNIT_EXPECT_EQ(test, out, 0xfff7ULL);

	/* ret: a long, or an int function's -errno. */
	KUNIT_EXPECT_EQ(test, (s64)kstats_ret_value(0xffffffeaUL), -22LL);
	KUNIT_EXPECT_EQ(test, (s64)kstats_ret_value(-22L), -22LL);
	KUNIT_EXPECT_EQ(test, kstats_ret_value(0xffffefffUL), 0xffffefffULL);
	KUNIT_EXPECT_EQ(test, kstats_ret_value(4096), 4096ULL);

	/* Filters: who is running this test, and conditions. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f if arg3 == 42 if arg3 & 8",
				    &cmd_scratch), 0);
	f = cmd_scratch.filter;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_COUNT);
	f.cond[1].c = 1;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	f.nr_conds = 0;
	f.pid = current->tgid;
	f.tid = current->pid;
	strscpy_pad(f.comm, current->comm, sizeof(f.comm));
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_COUNT);
	f.comm[strlen(f.comm) - 1] = '\0';
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	strscpy_pad(f.comm, current->comm, sizeof(f.comm));
	f.tid = current->pid + 1;
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_POINT),
			KSTATS_SKIP);
	/* At a return, only conditions on ret apply. */
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&f, &a, KSTATS_AT_RETURN),
			KSTATS_COUNT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f if arg1+0:8 == 0",
				    &cmd_scratch), 0);
	KUNIT_EXPECT_EQ(test, kstats_filter_check(&cmd_scratch.filter, &a,
						  KSTATS_AT_POINT),
			KSTATS_UNREADABLE);
}

static struct kunit_case kstats_point_test_cases[] = {
	KUNIT_CASE(kstats_test_value_parse),
	KUNIT_CASE(kstats_test_filter_parse),
	KUNIT_CASE(kstats_test_cond_range),
	KUNIT_CASE(kstats_test_value_fetch),
	{}
};

struct kunit_suite kstats_point_suite = {
	.name = "kstats_point",
	.test_cases = kstats_point_test_cases,
};
