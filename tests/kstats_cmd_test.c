// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite kstats_cmd, of control/kstats_cmd.c,
 * control/kstats_errors.c: the grammar: node and _control commands, the
 * place of each refusal, the _errors log, sections, families, globs and
 * probe points as parsed.
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

static void kstats_test_node_commands(struct kunit *test)
{
	int op = -1;

	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("start", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 0);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("STOP\n", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 1);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("  Reset\t\n", &op), 0);
	KUNIT_EXPECT_EQ(test, op, 2);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("restart", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("star", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("", &op), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstats_parse_node_command("start stop", &op),
			-EINVAL);
}

static void kstats_test_control_commands(struct kunit *test)
{
	static const char * const bad[] = {
		"", " \t\n", "new", "new foo bits", "new foo bits 6",
		"new foo bits -1", "new foo bits 99999999999999999999",
		"new foo clock bogus", "new foo colour red", "new a/b",
		"new _control", "remove", "remove a b", "frob x",
		"trace sec start a", "trace f maxactive 99999",
		"trace f name ../x", "new all", "trace f clock none",
		"trace tp:sched:sched_switch gap",
		"trace sec start a end b gap", "trace f name all",
		"trace f slow", "trace f slow -5", "trace f slow abc",
		"trace f slow 1 top 2", "trace f top 0", "trace f top 4097",
		"trace f slow 1 stack 0", "trace f slow 1 stack 65",
		"trace f slow 1 stack 2 stack 3", "trace f keep 5",
		"trace f top 3 keep 5", "trace f slow 1 keep 0",
		"trace f slow 1 keep 65537", "trace f stack 4",
		"trace f slow 9223372036854775808",
		"new h history", "new h history 10", "new h history 0 5",
		"new h history 10 0", "new h history x 5",
		"new h history 10 5 history 10 5", "new _history",
		"freeze now", "thaw x", "trigger", "trigger h",
		"trigger h above", "trigger h above 0", "trigger h below 5",
		"trigger h above 5 after", "trigger h above 5 after x",
		"trigger h above 5 after 1 more",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_EXPECT_EQ(test, parse(test, "new foo bits 4 clock local\n", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_NEW);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "foo");
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 4U);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_LOCAL);

	KUNIT_EXPECT_EQ(test, parse(test, "NEW bar max 0x1000", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 3U);
	KUNIT_EXPECT_EQ(test, cmd->cfg.clock, KSTATS_CLOCK_KTIME);
	KUNIT_EXPECT_EQ(test, cmd->cfg.max_value, 4096ULL);

	/* history NS COUNT, on new and trace; the histories' commands */
	KUNIT_EXPECT_EQ(test, parse(test, "new h history 10000000 12000", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.history_slice_ns, 10000000ULL);
	KUNIT_EXPECT_EQ(test, cmd->cfg.history_slices, 12000U);
	KUNIT_EXPECT_EQ(test, parse(test, "trace f history 0x100 3 gap", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.history_slice_ns, 256ULL);
	KUNIT_EXPECT_EQ(test, cmd->cfg.history_slices, 3U);
	KUNIT_EXPECT_TRUE(test, cmd->gap);
	KUNIT_EXPECT_EQ(test, parse(test, "freeze\n", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_FREEZE);
	KUNIT_EXPECT_EQ(test, parse(test, "THAW", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_THAW);
	KUNIT_EXPECT_EQ(test, parse(test, "trigger rd above 4000", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_TRIGGER);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "rd");
	KUNIT_EXPECT_EQ(test, cmd->trigger_above, 4000ULL);
	KUNIT_EXPECT_EQ(test, cmd->trigger_after, 0ULL);
	KUNIT_EXPECT_EQ(test, parse(test, "trigger rd above 7 after 50000000", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->trigger_above, 7ULL);
	KUNIT_EXPECT_EQ(test, cmd->trigger_after, 50000000ULL);

	KUNIT_EXPECT_EQ(test, parse(test, "remove foo", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_REMOVE);
	KUNIT_EXPECT_EQ(test, parse(test, "remove all\n", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_REMOVE_ALL);

	KUNIT_EXPECT_EQ(test, parse(test, "trace vfs_read bits 2 name rd gap", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->op, KSTATS_CMD_TRACE);
	KUNIT_EXPECT_STREQ(test, cmd->target, "vfs_read");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "rd");
	KUNIT_EXPECT_TRUE(test, cmd->gap);

	KUNIT_EXPECT_EQ(test,
			parse(test, "trace sec start a+4 end tp:sched:sched_switch", cmd),
			0);
	KUNIT_EXPECT_NULL(test, cmd->target);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "sec");
	KUNIT_EXPECT_STREQ(test, cmd->start, "a+4");
	KUNIT_EXPECT_STREQ(test, cmd->end, "tp:sched:sched_switch");

	/* outliers: slow V keep M stack N, top K, stack without N */
	KUNIT_EXPECT_EQ(test, parse(test, "trace f slow 0x100 keep 9 stack 5", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.mode, KSTATS_OUTLIER_SLOW);
	KUNIT_EXPECT_EQ(test, cmd->outlier.slow, 256ULL);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, 9U);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, 5U);
	KUNIT_EXPECT_EQ(test, parse(test, "trace f slow 7", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, KSTATS_OUTLIER_KEEP_DEFAULT);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, 0U);
	KUNIT_EXPECT_EQ(test, parse(test, "trace f top 12 stack name g", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->outlier.mode, KSTATS_OUTLIER_TOP);
	KUNIT_EXPECT_EQ(test, cmd->outlier.keep, 12U);
	KUNIT_EXPECT_EQ(test, cmd->outlier.stack, KSTATS_OUTLIER_STACK_DEFAULT);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "g");

	/* "name" is honoured for a section too. */
	KUNIT_EXPECT_EQ(test, parse(test, "trace sec start a end b name s2", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "s2");
	KUNIT_EXPECT_STREQ(test, cmd->start, "a");

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/*
 * A refusal of the grammar: the command, the word refused (its @nth
 * occurrence as a word), or @word NULL and @pos the offset (KSTATS_POS_END
 * for a word missing at the end), and a part of the reason.
 */
struct refusal_case {
	const char *cmd;
	const char *word;
	int nth;
	int pos;
	const char *reason;
};

#define AT(c, w, r)		{ c, w, 1, 0, r }
#define AT_NTH(c, w, n, r)	{ c, w, n, 0, r }
#define AT_POS(c, p, r)		{ c, NULL, 0, p, r }
#define AT_END(c, r)		{ c, NULL, 0, KSTATS_POS_END, r }

/* The offset of the @nth word @word of @cmd, or -2. */
static int refusal_word_at(const char *cmd, const char *word, int nth)
{
	size_t n = strlen(word);
	const char *p;

	for (p = cmd; (p = strstr(p, word)); p++)
		if ((p == cmd || isspace(p[-1])) &&
		    (!p[n] || isspace(p[n])) && !--nth)
			return p - cmd;
	return -2;
}

/*
 * Every refusal of the grammar says which word it refuses, as its offset
 * in the command, for the caret of _errors; a missing word is past the end.
 */
static void kstats_test_refusal_words(struct kunit *test)
{
	static const struct refusal_case cases[] = {
		/* values: the value's word */
		AT("trace f value arg0+:8", "arg0+:8", "a dereference is"),
		AT("trace f value arg0+2147483648:8", "arg0+2147483648:8", "offset"),
		AT("trace f value arg0+0:3", "arg0+0:3", "size after offset"),
		AT("trace f value arg12", "arg12", "arguments are arg0"),
		AT("trace f value foo", "foo", "use ret or argN"),
		AT("trace f value arg0:3", "arg0:3", "size of the cast"),
		AT("trace f value arg0+0:8+0:8+0:8+0:8+0:8",
		   "arg0+0:8+0:8+0:8+0:8+0:8", "more than 4"),
		AT("trace f value arg0+0:8x", "arg0+0:8x", "size after offset"),
		AT("trace f value arg0x", "arg0x", "unexpected 'x'"),
		AT("trace f value arg0+0:4+0:8", "arg0+0:4+0:8", "must be 8"),
		/* filters */
		AT_END("trace f if arg0 >", "write if VALUE OP CONSTANT"),
		AT_NTH("trace f if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 1 if arg0 == 2",
		       "if", 5, "at most 4 conditions"),
		AT("trace f if arg0 =~ 1", "=~", "unknown operator"),
		AT("trace f if arg0 > x", "x", "is not a number"),
		AT("trace f if arg12 == 1", "arg12", "arguments are arg0"),
		AT("trace f pid -1", "-1", "is not a pid id"),
		AT("trace f tid x", "x", "is not a tid id"),
		AT("trace f comm 1234567890123456", "1234567890123456", "longer than 15"),
		AT("trace f cpu 4096", "4096", "not a possible CPU"),
		/* sections */
		AT("trace s start a key bogus end b", "bogus", "unknown key"),
		AT("trace s start a key arg99 end b", "arg99", "arguments are arg0"),
		AT("trace s start a end b nest inner", "inner", "use outer or replace"),
		AT("trace s start a end b full maybe", "maybe", "use refuse or evict"),
		AT("trace s start a match ret end b match ret", "ret", "use argN"),
		AT("trace s start a end b over 0", "0", "not a duration"),
		AT("trace s start a end b under x", "x", "not a duration"),
		AT("trace s start a end b inflight 0", "0", "inflight '0'"),
		AT("trace s start a end b start c", "c", "starts come before its end"),
		AT("trace s start a start b start c start d end e", "d", "at most 3 starts"),
		AT("trace s start a end b end c", "c", "one end"),
		AT("trace s start a* end b", "a*", "one place"),
		AT("trace s start a if ret < 0 end b", "ret", "if ret is for functions"),
		AT("trace s if ret < 0 start a end b", "ret", "if ret is for functions"),
		AT("trace s comm x start a pid 1 end b", "pid", "not both"),
		AT("trace s start a end b over 10 under 5", "5", "no duration is both"),
		AT("trace s start a match arg0 end b", "arg0", "at both points"),
		AT("trace s start a by arg0 start b end c", "b", "its own by V"),
		AT("trace s start a by comm start b by arg0 end c", "arg0",
		   "a further start takes one by"),
		AT("trace s start a by arg0 start b by comm end c", "comm",
		   "a further start's key is argN"),
		AT("trace f inflight 5", "inflight", "are for sections"),
		AT("trace f key task", "key", "are for sections"),
		AT("trace s start a end b", NULL, NULL),
		/* families */
		AT("trace f by stack 33", "33", "frames"),
		AT_END("trace f by", "by needs a key"),
		AT("trace s start a end b by comm", "comm", "start point's options"),
		AT("trace f by comm by pid", "pid", "one by per node"),
		AT("trace f by colour", "colour", "unknown by key"),
		AT("trace f by arg12", "arg12", "arguments are arg0"),
		AT("trace f by comm 5", "5", "takes no number"),
		AT("trace f by comm max 0", "0", "is not 1..65536"),
		AT_END("trace f by comm max", "is not 1..65536"),
		AT("trace f by func", "func", "by func keys"),
		AT("trace f gap by comm", "gap", "it takes no by"),
		AT("trace tp:a:b by caller", "caller", "by caller"),
		AT("trace s start a by ret end b", "ret", "by ret is for functions"),
		/* outliers */
		AT("trace f slow abc", "abc", "not a number from 0"),
		AT("trace f top 3 slow 5", "slow", "one of slow or top"),
		AT("trace f top 0", "0", "not 1..4096"),
		AT("trace f slow 1 top 2", "top", "one of slow or top"),
		AT("trace f slow 1 keep 0", "0", "is not 1..65536, once"),
		AT_NTH("trace f slow 1 keep 2 keep 3", "keep", 2, "once"),
		AT("trace f slow 1 stack 65", "65", "is not 1..64, once"),
		AT_NTH("trace f slow 1 stack 2 stack 3", "stack", 2, "once"),
		AT("trace f slow 1 stack -1", "-1", "is not 1..64, once"),
		AT("trace f keep 5", "keep", "give slow V"),
		AT("trace f stack 4", "stack", "give slow V or top K"),
		/* values and what they may not combine */
		AT("trace s start a end b value arg0", "arg0", "not sections"),
		AT("trace f value arg0 gap", "gap", "gap records times"),
		AT("trace f value ret clock local", "local", "drop clock local"),
		AT("trace tp:a:b value ret", "ret", "a tracepoint returns nothing"),
		AT("trace tp:a:b if ret < 0", "ret", "a tracepoint returns nothing"),
		AT("trace f clock none", "none", "reads no time"),
		AT("trace s start a end b gap", "gap", "not sections or tracepoints"),
		AT("trace f gap comm dd", "gap", "takes no filter"),
		/* the list: under the empty name */
		AT_POS("trace a,,b", 8, "an empty function name"),
		AT_POS("trace a, name x", 8, "an empty function name"),
		/* probe points and functions: under the word, or its offset */
		AT("trace s start a end tp:sched", "tp:sched",
		   "is not tp:GROUP:EVENT"),
		AT("trace tp::b name x", "tp::b", "is not tp:GROUP:EVENT"),
		AT("trace tp:a:b- name x", "tp:a:b-", "is not tp:GROUP:EVENT"),
		AT("trace tp:a-b:c name x", "tp:a-b:c", "bad tracepoint group"),
		AT("trace tp:a:b:c name x", "tp:a:b:c", "bad tracepoint group"),
		AT_POS("trace s start f+x end g", 16, "bad offset"),
		AT_POS("trace s start f end g+1k", 22, "bad offset"),
		AT("trace s start f- end g", "f-", "bad symbol"),
		AT("trace s start a start b% end c", "b%", "bad symbol"),
		AT("trace s start a+4 end tp:sched:sched_switch", NULL, NULL),
		AT("trace f-g", "f-g", "bad function name"),
		AT("trace f+4 name g", "f+4", "bad function name"),
		/* options, commands and names */
		AT_END("trace f name", "needs a value"),
		AT("new foo bits 6", "6", "bits '6'"),
		AT("new foo clock bogus", "bogus", "unknown clock"),
		AT("new foo max x", "x", "is not a number"),
		AT("trace f maxactive 99999", "99999", "maxactive"),
		AT("new foo colour red", "colour", "unknown option"),
		AT("new foo pid 1", "pid", "values and filters are for trace"),
		AT_END("", "empty command"),
		AT_END(" \t\n", "empty command"),
		AT("frob x", "frob", "unknown command"),
		AT_END("new", "needs a name"),
		AT("remove a b", "b", "takes one name"),
		AT("new a/b", "a/b", "invalid name"),
		AT("trace f name ../x", "../x", "invalid name"),
		AT("trace f name all", "all", "invalid name"),
		AT("new _errors", "_errors", "invalid name"),
		AT("new _control", "_control", "invalid name"),
		AT("new _history", "_history", "invalid name"),
		AT("new h history 0 5", "0", "a slice's length"),
		AT("new h history 10 x", "x", "how many slices"),
		AT("trigger h above 0", "0", "'above V' with V over 0"),
		AT("freeze now", "now", "takes nothing"),
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct refusal_case *c = &cases[i];
		int want = c->word ? refusal_word_at(c->cmd, c->word, c->nth) :
			   c->pos;

		if (!c->reason) {
			/* a good command: nothing noted */
			KUNIT_EXPECT_EQ_MSG(test, parse(test, c->cmd, cmd), 0,
					    "'%s'", c->cmd);
			KUNIT_EXPECT_FALSE(test, cmd->why.set);
			continue;
		}
		KUNIT_ASSERT_NE_MSG(test, want, -2, "'%s': no word '%s'",
				    c->cmd, c->word);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, c->cmd, cmd), -EINVAL,
				    "'%s'", c->cmd);
		KUNIT_EXPECT_TRUE_MSG(test, cmd->why.set, "'%s'", c->cmd);
		KUNIT_EXPECT_EQ_MSG(test, cmd->why.pos, want, "'%s': %s",
				    c->cmd, cmd->why.reason);
		KUNIT_EXPECT_STREQ_MSG(test, cmd->why.loc, "_control", "'%s'",
				       c->cmd);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(cmd->why.reason, c->reason),
					  "'%s': reason '%s', not '%s'", c->cmd,
					  cmd->why.reason, c->reason);
	}
}

/* _errors: the last KSTATS_ERRORS_MAX refusals, as tracefs' error_log. */
static void kstats_test_errors_log(struct kunit *test)
{
	struct seq_file m = { .size = 65536 };
	struct kstats_refusal why;
	char text[64], want[64];
	const char *p, *want1;
	int i, n;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	kstats_errors_clear();
	kstats_errors_show(&m);
	KUNIT_EXPECT_EQ(test, m.count, (size_t)0);

	/*
	 * A caret under the word; the trailing blanks dropped, the other
	 * blanks and the bytes outside '!'..'~' spaces.
	 */
	kstats_refusal_init(&why, "trace\tvfs_raed  name r\xc3\xa9\t\n");
	kstats_refuse(&why, why.text + 6, "r", "no symbol '%s'", "vfs_raed");
	kstats_errors_add(why.text, why.len, &why);
	/* a missing word: one column past the end */
	kstats_refusal_init(&why, "trace f pid");
	kstats_refuse(&why, NULL, "_control", "'%s' needs a value", "pid");
	kstats_errors_add(why.text, why.len, &why);
	kstats_errors_show(&m);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	/* "[    S.UUUUUU] ", seconds right-aligned in 5 */
	p = strchr(m.buf, ']');
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, m.buf[0], '[');
	KUNIT_EXPECT_EQ(test, p[-7], '.');
	KUNIT_EXPECT_GE(test, (int)(p - m.buf), 13);
	want1 = "] r: error: no symbol 'vfs_raed'\n"
		"  Command: trace vfs_raed  name r\x20\x20\n"
		"                 ^\n[";
	KUNIT_EXPECT_EQ_MSG(test, strncmp(p, want1, strlen(want1)), 0, "%s", p);
	p = strchr(p + 1, ']');
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_STREQ(test, p, "] _control: error: 'pid' needs a value\n"
			   "  Command: trace f pid\n"
			   "                       ^\n");

	/* at most KSTATS_ERRORS_MAX, the oldest dropped first */
	kstats_errors_clear();
	for (i = 0; i < KSTATS_ERRORS_MAX + 2; i++) {
		snprintf(text, sizeof(text), "remove n%d", i);
		kstats_refusal_init(&why, text);
		kstats_refuse(&why, text + 7, "_control",
			      "remove n%d: no such distribution", i);
		kstats_errors_add(text, strlen(text), &why);
	}
	m.count = 0;
	memset(m.buf, 0, m.size);
	kstats_errors_show(&m);
	for (n = 0, p = m.buf; (p = strstr(p, "] _control: error: ")); p++)
		n++;
	KUNIT_EXPECT_EQ(test, n, KSTATS_ERRORS_MAX);
	for (i = 0; i < KSTATS_ERRORS_MAX + 2; i++) {
		snprintf(want, sizeof(want), "  Command: remove n%d\n", i);
		KUNIT_EXPECT_EQ_MSG(test, !!strstr(m.buf, want), i >= 2,
				    "entry %d", i);
	}
	/* oldest first */
	p = strstr(m.buf, "remove n2\n");
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_NOT_NULL(test, strstr(p, "remove n17\n"));
	kstats_errors_clear();
	m.count = 0;
	kstats_errors_show(&m);
	KUNIT_EXPECT_EQ(test, m.count, (size_t)0);
}

/* Keys, per-point filters and inflight of sections. */
static void kstats_test_section_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace s start a key bogus end b", "trace s start a key",
		"trace s start a key arg12 end b",
		"trace s start a end b inflight 0",
		"trace s start a end b inflight 1048577",
		"trace s start a end b inflight x",
		"trace f key task", "trace f inflight 8",
		"trace s comm x start a comm y end b",
		"trace s start a end b if ret < 0",
		"trace s start a key ret end b",
		"trace s start a match arg0 end b",
		"trace s start a end b match arg0",
		"trace s start a match ret end b match ret",
		"trace s start a end b nest inner",
		"trace f match arg0", "trace f nest outer",
		"trace s start a end b full never", "trace f full refuse",
		"trace s start a end b over 0", "trace s start a end b under x",
		"trace s start a end b over 5 under 4", "trace f over 10",
		"trace s start a end b over -1",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[128];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test,
			parse(test, "trace r start tp:s:a key arg0 end tp:s:b key arg2 inflight 64",
			      cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->start, "tp:s:a");
	KUNIT_EXPECT_STREQ(test, cmd->end, "tp:s:b");
	KUNIT_EXPECT_EQ(test, cmd->inflight, 64U);
	kstats_key_format(&cmd->point[0].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	kstats_key_format(&cmd->point[1].key, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg2");

	/* The default key is the task; "key" before start is both points'. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a end b", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->point[0].key.kind, KSTATS_KEY_TASK);
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_TASK);
	KUNIT_EXPECT_EQ(test, cmd->inflight, 0U);
	KUNIT_ASSERT_EQ(test, parse(test, "trace s key cpu start a end b", cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd->point[0].key.kind, KSTATS_KEY_CPU);
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_CPU);

	/* Filters before start hold at both points, after a point at it. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s comm x start a end b", cmd),
			0);
	KUNIT_EXPECT_STREQ(test, cmd->point[0].filter.comm, "x");
	KUNIT_EXPECT_STREQ(test, cmd->point[1].filter.comm, "x");
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a pid 3 end b if arg1 > 2 bits 4",
				    cmd), 0);
	kstats_filter_format(&cmd->point[0].filter, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "pid 3");
	kstats_filter_format(&cmd->point[1].filter, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "if arg1 > 2");
	KUNIT_EXPECT_EQ(test, cmd->cfg.frac_bits, 4U);

	/* "match" before start is both points'; "nest" the section's. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace l match arg0 start a end b nest outer",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->point[0].has_match && cmd->point[1].has_match);
	kstats_value_format(&cmd->point[1].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0");
	KUNIT_EXPECT_TRUE(test, cmd->nest_outer);
	KUNIT_ASSERT_EQ(test, parse(test, "trace l start a match arg1 end b match arg0+8:4",
				    cmd), 0);
	kstats_value_format(&cmd->point[0].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1");
	kstats_value_format(&cmd->point[1].match, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg0+8:4");
	KUNIT_EXPECT_FALSE(test, cmd->nest_outer);
	KUNIT_EXPECT_FALSE(test, cmd->full_refuse);
	KUNIT_ASSERT_EQ(test, parse(test, "trace l start a end b full refuse", cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->full_refuse);
	KUNIT_EXPECT_EQ(test, cmd->over, 0ULL);
	KUNIT_EXPECT_EQ(test, cmd->under, 0ULL);
	KUNIT_ASSERT_EQ(test, parse(test, "trace o start a end b over 1000 under 0x100000",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->over, 1000ULL);
	KUNIT_EXPECT_EQ(test, cmd->under, 1048576ULL);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/* "by KEY [max N]": its kinds, its max, and where it may be written. */
static void kstats_test_family_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace f by", "trace f by bogus", "trace f by comm max 0",
		"trace f by comm max 65537", "trace f by comm max",
		"trace f by comm max x", "trace f by comm by pid",
		"trace f by arg12", "trace s start a end b by comm",
		"trace tp:a:b by ret", "trace f gap by comm",
		"trace s start a by ret end b", "trace f by str:", "trace f by str:comm",
		"trace f by str:bogus", "trace f by stack 0", "trace f by stack 33",
		"trace f by str:arg0+", "trace f by str:arg0+x",
		"trace f by str:arg0+2147483648", "trace f by arg0+16",
		"trace s start a key arg0 by str:arg0+16 start c key arg0 by arg0+16 end b key arg0",
		"trace f by stack x", "trace f by caller 3", "trace f by cgroup 1",
		"trace tp:sched:sched_switch by caller",
		"trace s start a by caller end b", "trace f+4 by caller",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char buf[128];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by comm", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_COMM);
	KUNIT_EXPECT_EQ(test, cmd->by_max, (u32)KSTATS_FAMILY_DEFAULT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by arg1+8:s4 max 5", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_VALUE);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 5U);
	KUNIT_EXPECT_TRUE(test, kstats_by_is_signed(&cmd->by));
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "arg1+8:s4");
	/* "max" right after "by KEY" is the family's, elsewhere the range. */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f max 100 by pid max 65536",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->cfg.max_value, 100ULL);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 65536U);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_PID);
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start a key cpu by arg0 end b key cpu",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_VALUE);
	KUNIT_EXPECT_FALSE(test, kstats_by_is_signed(&cmd->by));
	KUNIT_EXPECT_EQ(test, cmd->point[1].key.kind, KSTATS_KEY_CPU);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by ret value arg2", cmd), 0);
	KUNIT_EXPECT_TRUE(test, kstats_by_uses_ret(&cmd->by));
	/* "str:V": the string at V, shown as text, never signed */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:irq:irq_handler_entry by str:arg1+80:8",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->by.str);
	KUNIT_EXPECT_FALSE(test, kstats_by_is_signed(&cmd->by));
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg1+80:8");
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 0);
	/* "str:V+OFF" with no size: the string in place at OFF past V */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:sched:sched_wakeup by str:arg0+2768",
				    cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd->by.str);
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 2768);
	KUNIT_EXPECT_EQ(test, cmd->by.v.nr_derefs, 0);
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg0+2768");
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:a:b by str:arg0+8:8+16", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.str_off, 16);
	KUNIT_EXPECT_EQ(test, cmd->by.v.nr_derefs, 1);
	KUNIT_ASSERT_EQ(test, parse(test,
				    "trace s start a key arg0 by str:arg0+16 start c key arg1 by str:arg1+16 end b key arg0",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->point[2].by.str_off, 16);
	kstats_by_format(&cmd->point[2].by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "str:arg1+16");
	/* stacks, callers, cgroups: "by stack" is 8 frames unless told */
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by stack", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_STACK);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, KSTATS_BY_STACK_DEFAULT);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by stack 32 max 9", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, 32);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 9U);
	kstats_by_format(&cmd->by, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "stack 32");
	KUNIT_ASSERT_EQ(test, parse(test,
				    "trace s start tp:sched:sched_switch by stack 4 end tp:sched:sched_wakeup",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.frames, 4);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f by caller max 3", cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_CALLER);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 3U);
	/* the key, then the filter */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:sched:sched_switch by cgroup max 8 cgroup /a/b",
				    cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_CGROUP);
	KUNIT_EXPECT_STREQ(test, cmd->filter.cgroup_path, "/a/b");
	KUNIT_EXPECT_FALSE(test, kstats_filter_is_empty(&cmd->filter));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/*
 * Every key of kstats_by_key_list.h is the kind after KSTATS_BY_NONE of
 * its place in the list, named so by kstats_by_names[]; a word "by" reads
 * as that kind, in capitals too, and writes back (a number after it for
 * a key that takes one); and one the message of a "by" with no key lists.
 * On a node over two functions, where each key is allowed.
 */
static void kstats_test_by_table(struct kunit *test)
{
	static const struct {
		const char *word, *arg;
	} keys[] = {
#define KSTATS_BY_KEY(...)	\
		{ KSTATS_KEY_WORD(__VA_ARGS__), KSTATS_KEY_ARG(__VA_ARGS__) },
#include "kstats_by_key_list.h"
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	char text[64], buf[32];
	unsigned int i, j;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(keys), KSTATS_BY_VALUE - 1);
	KUNIT_ASSERT_EQ(test, parse(test, "trace f,g by", cmd), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *word = keys[i].word;

		KUNIT_EXPECT_STREQ(test, kstats_by_names[KSTATS_BY_NONE + 1 + i],
				   word);
		KUNIT_EXPECT_EQ(test,
				kstats_by_takes_number(KSTATS_BY_NONE + 1 + i),
				!!keys[i].arg[0]);
		snprintf(text, sizeof(text), "%s%s, ", word, keys[i].arg);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(cmd->why.reason, text),
					  "'%s' not in '%s'", text,
					  cmd->why.reason);
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *word = keys[i].word;

		snprintf(text, sizeof(text), "trace f,g by %s", word);
		KUNIT_ASSERT_EQ_MSG(test, parse(test, text, cmd), 0, "'%s'", text);
		KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_NONE + 1 + i);
		kstats_by_format(&cmd->by, buf, sizeof(buf));
		KUNIT_EXPECT_EQ(test, strncmp(buf, word, strlen(word)), 0);
		snprintf(text, sizeof(text), "trace f,g by %s 3", word);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, text, cmd),
				    keys[i].arg[0] ? 0 : -EINVAL, "'%s'", text);
		for (j = 0; word[j] && j < sizeof(buf) - 1; j++)
			buf[j] = toupper(word[j]);
		buf[j] = '\0';
		snprintf(text, sizeof(text), "trace f,g by %s", buf);
		KUNIT_ASSERT_EQ_MSG(test, parse(test, text, cmd), 0, "'%s'", text);
		KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_NONE + 1 + i);
	}
}

/*
 * "trace GLOB" and "trace F1,F2,...": one node over several functions,
 * named after them unless "name" says otherwise; "by func" on such a node
 * only; no empty name in a list, no glob at a section's point.
 */
static void kstats_test_multi_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"trace f by func", "trace a,,b", "trace a,", "trace ,a",
		"trace s start vfs_* end b", "trace s start a end b,c",
		"trace tp:a:b by func", "trace s start a by func end b",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test, parse(test, "trace vfs_* by func", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->target, "vfs_*");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "vfs_");
	KUNIT_EXPECT_EQ(test, cmd->by.kind, KSTATS_BY_FUNC);
	KUNIT_EXPECT_FALSE(test, cmd->by_max_set);
	KUNIT_ASSERT_EQ(test, parse(test, "trace a,b name x by func max 9", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->target, "a,b");
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "x");
	KUNIT_EXPECT_TRUE(test, cmd->by_max_set);
	KUNIT_EXPECT_EQ(test, cmd->by_max, 9U);
	KUNIT_ASSERT_EQ(test, parse(test, "trace a,b", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "a.b");
	KUNIT_ASSERT_EQ(test, parse(test, "trace *", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "functions");
	KUNIT_ASSERT_EQ(test, parse(test, "trace __x64_sys_[rw]* comm kdirect", cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "__x64_sys_rw");
	KUNIT_EXPECT_TRUE(test, kstats_multi_spec("vfs_*"));
	KUNIT_EXPECT_TRUE(test, kstats_multi_spec("a,b"));
	KUNIT_EXPECT_FALSE(test, kstats_multi_spec("vfs_read"));
	KUNIT_EXPECT_FALSE(test, kstats_multi_spec("tp:sched:*"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

/*
 * Where the probes go, as the grammar splits each POINT for the trace
 * layer (struct kstats_point_spec): "SYM[+OFF]", "tp:GROUP:EVENT"; and
 * what it refuses.
 */
static void kstats_test_point_specs(struct kunit *test)
{
	static const char * const bad[] = {
		"trace s start a+ end b", "trace s start a+-1 end b",
		"trace s start a+4294967296 end b", "trace s start +4 end b",
		"trace s start a end tp:", "trace s start a end tp:sched:",
		"trace s start a end tp::sched_switch",
		"trace s start a end tp:sched",
		"trace s start a end tp:sched:sched-switch",
		"trace s start a end tp:sch/ed:x", "trace tp:a:b:c name x",
		"trace f@g name x", "trace f+4 name x",
	};
	struct kstats_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	const struct kstats_point_spec *ps;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	KUNIT_ASSERT_EQ(test, parse(test,
				    "trace sec start vfs_read+0x10 start tp:irq:irq_handler_entry key cpu end tp:sched:sched_switch",
				    cmd), 0);
	ps = &cmd->where[KSTATS_POINT_START];
	KUNIT_EXPECT_STREQ(test, ps->text, "vfs_read+0x10");
	KUNIT_EXPECT_STREQ(test, ps->name, "vfs_read");
	KUNIT_EXPECT_NULL(test, ps->event);
	KUNIT_EXPECT_EQ(test, ps->off, 16U);
	KUNIT_EXPECT_FALSE(test, ps->tp);
	ps = &cmd->where[KSTATS_POINT_END];
	KUNIT_EXPECT_STREQ(test, ps->text, "tp:sched:sched_switch");
	KUNIT_EXPECT_STREQ(test, ps->name, "sched");
	KUNIT_EXPECT_STREQ(test, ps->event, "sched_switch");
	KUNIT_EXPECT_EQ(test, ps->off, 0U);
	KUNIT_EXPECT_TRUE(test, ps->tp);
	ps = &cmd->where[KSTATS_POINT_END + 1];
	KUNIT_EXPECT_STREQ(test, ps->text, "tp:irq:irq_handler_entry");
	KUNIT_EXPECT_STREQ(test, ps->name, "irq");
	KUNIT_EXPECT_STREQ(test, ps->event, "irq_handler_entry");
	KUNIT_EXPECT_TRUE(test, ps->tp);
	KUNIT_EXPECT_EQ(test, cmd->point[KSTATS_POINT_END + 1].key.kind,
			KSTATS_KEY_CPU);
	/* no offset: the word itself; a decimal offset */
	KUNIT_ASSERT_EQ(test, parse(test, "trace s start do_exit end schedule+42",
				    cmd), 0);
	ps = &cmd->where[KSTATS_POINT_START];
	KUNIT_EXPECT_PTR_EQ(test, ps->name, ps->text);
	KUNIT_EXPECT_STREQ(test, ps->name, "do_exit");
	KUNIT_EXPECT_EQ(test, ps->off, 0U);
	ps = &cmd->where[KSTATS_POINT_END];
	KUNIT_EXPECT_STREQ(test, ps->name, "schedule");
	KUNIT_EXPECT_EQ(test, ps->off, 42U);
	KUNIT_EXPECT_NULL(test, cmd->where[KSTATS_POINT_END + 1].text);
	/* "trace tp:GROUP:EVENT": the tracepoint, first; a dotted group */
	KUNIT_ASSERT_EQ(test, parse(test, "trace tp:my.mod:ev_1 name ev", cmd), 0);
	ps = &cmd->where[KSTATS_POINT_START];
	KUNIT_EXPECT_STREQ(test, ps->text, "tp:my.mod:ev_1");
	KUNIT_EXPECT_STREQ(test, ps->name, "my.mod");
	KUNIT_EXPECT_STREQ(test, ps->event, "ev_1");
	KUNIT_EXPECT_TRUE(test, ps->tp);
	KUNIT_EXPECT_STREQ(test, cmd->cfg.name, "ev");
	/* a function, a glob, a user function: none split */
	KUNIT_ASSERT_EQ(test, parse(test, "trace vfs_read", cmd), 0);
	KUNIT_EXPECT_NULL(test, cmd->where[KSTATS_POINT_START].text);
	KUNIT_EXPECT_FALSE(test, cmd->where[KSTATS_POINT_START].tp);
	KUNIT_ASSERT_EQ(test, parse(test, "trace vfs_*", cmd), 0);
	KUNIT_EXPECT_NULL(test, cmd->where[KSTATS_POINT_START].text);
	KUNIT_ASSERT_EQ(test, parse(test, "trace /bin/true:main", cmd), 0);
	KUNIT_EXPECT_NULL(test, cmd->where[KSTATS_POINT_START].text);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], cmd), -EINVAL,
				    "'%s'", bad[i]);
}

static struct kunit_case kstats_cmd_test_cases[] = {
	KUNIT_CASE(kstats_test_node_commands),
	KUNIT_CASE(kstats_test_control_commands),
	KUNIT_CASE(kstats_test_refusal_words),
	KUNIT_CASE(kstats_test_errors_log),
	KUNIT_CASE(kstats_test_section_parse),
	KUNIT_CASE(kstats_test_family_parse),
	KUNIT_CASE(kstats_test_by_table),
	KUNIT_CASE(kstats_test_multi_parse),
	KUNIT_CASE(kstats_test_point_specs),
	{}
};

struct kunit_suite kstats_cmd_suite = {
	.name = "kstats_cmd",
	.test_cases = kstats_cmd_test_cases,
};
