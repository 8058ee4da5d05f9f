// SPDX-License-Identifier: GPL-2.0
/*
 * Refused commands: the kernel log's line that says why, and _errors, the
 * last KSTATS_ERRORS_MAX refused commands as tracefs' error_log shows its
 * own (kernel/trace/trace.c, tracing_log_err()): a time stamp, where and
 * why, the command, and a caret under the word refused.  The parsers and
 * the builders of nodes note why (kstats_refuse()); the writer of the
 * command adds it to the log once the command has failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_errors.h"
#include "kstats_internal.h"

/* What each entry's second line starts with, and its caret's indent. */
#define KSTATS_CMD_PREFIX	"  Command: "

/**
 * struct kstats_error - one refused command in the log
 * @ts: when it was refused: local_clock(), as tracefs' and printk's stamps
 * @pos: the caret's column within @cmd
 * @loc: see struct kstats_refusal
 * @reason: see struct kstats_refusal
 * @cmd: the command, one line of printable characters
 */
struct kstats_error {
	u64 ts;
	unsigned int pos;
	char loc[KSTATS_NAME_MAX + 1];
	char reason[KSTATS_REASON_MAX];
	char cmd[];
};

/* The log: a ring of entries, @kstats_errors_nr from the @kstats_errors_first. */
static DEFINE_MUTEX(kstats_errors_lock);
static struct kstats_error *kstats_errors[KSTATS_ERRORS_MAX];
static unsigned int kstats_errors_first, kstats_errors_nr;

/**
 * kstats_refusal_init() - a refusal of nothing yet, for a command's text
 * @why: the refusal
 * @text: the command as it will be parsed (its words are pointers into
 *	it), or NULL
 *
 * Context: any.
 */
void kstats_refusal_init(struct kstats_refusal *why, const char *text)
{
	memset(why, 0, sizeof(*why));
	why->text = text;
	why->len = text ? strlen(text) : 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_refusal_init, KSTATS_NS);

/* The offset of @word in @why's text (see struct kstats_refusal's @pos). */
static int kstats_refusal_pos(const struct kstats_refusal *why,
			      const char *word)
{
	if (!word)
		return KSTATS_POS_END;
	if (why->text && word >= why->text && word <= why->text + why->len)
		return word - why->text;
	return 0;
}

/**
 * __kstats_refuse() - what kstats_refuse() does, which should be called
 * @rs: the call site's ratelimit of the kernel log's line
 * @func: the call site's function, for the ratelimit's "suppressed" line
 * @why: see kstats_refuse()
 * @word: see kstats_refuse()
 * @loc: see kstats_refuse()
 * @fmt: see kstats_refuse()
 *
 * Context: any but NMI.
 */
void __kstats_refuse(struct ratelimit_state *rs, const char *func,
		     struct kstats_refusal *why, const char *word,
		     const char *loc, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	if (___ratelimit(rs, func)) {
		va_list line;

		va_copy(line, args);
		vaf.fmt = fmt;
		vaf.va = &line;
		pr_warn("%s: %pV\n", loc, &vaf);
		va_end(line);
	}
	if (why && !why->set) {
		why->set = true;
		why->pos = kstats_refusal_pos(why, word);
		strscpy(why->loc, loc, sizeof(why->loc));
		vsnprintf(why->reason, sizeof(why->reason), fmt, args);
	}
	va_end(args);
}
EXPORT_SYMBOL_NS_GPL(__kstats_refuse, KSTATS_NS);

/**
 * kstats_errors_add() - add a refused command to _errors
 * @cmd: the command as written (not the parser's copy, cut at its words)
 * @len: its length
 * @why: why it was refused (kstats_refuse())
 *
 * The command is kept as one line: its trailing blanks dropped, every
 * byte outside '!'..'~' a space, so that the caret stays under its word.
 * The oldest entry goes when KSTATS_ERRORS_MAX are kept; without memory
 * the command is not added (the kernel log has its line).
 *
 * Context: process; may sleep.
 */
void kstats_errors_add(const char *cmd, size_t len,
		       const struct kstats_refusal *why)
{
	struct kstats_error *e;
	size_t i;

	while (len && isspace(cmd[len - 1]))
		len--;
	e = kmalloc(struct_size(e, cmd, len + 1), GFP_KERNEL);
	if (!e)
		return;
	e->ts = local_clock();
	for (i = 0; i < len; i++)
		e->cmd[i] = cmd[i] > ' ' && cmd[i] <= '~' ? cmd[i] : ' ';
	e->cmd[len] = '\0';
	/* a missing word is one column past the end */
	e->pos = why->pos == KSTATS_POS_END ? len + 1 :
		 min_t(size_t, why->pos, len + 1);
	strscpy(e->loc, why->loc, sizeof(e->loc));
	strscpy(e->reason, why->reason, sizeof(e->reason));

	mutex_lock(&kstats_errors_lock);
	if (kstats_errors_nr == KSTATS_ERRORS_MAX) {
		kfree(kstats_errors[kstats_errors_first]);
		kstats_errors[kstats_errors_first] = e;
		kstats_errors_first = (kstats_errors_first + 1) % KSTATS_ERRORS_MAX;
	} else {
		kstats_errors[(kstats_errors_first + kstats_errors_nr++) %
			      KSTATS_ERRORS_MAX] = e;
	}
	mutex_unlock(&kstats_errors_lock);
}
EXPORT_SYMBOL_NS_GPL(kstats_errors_add, KSTATS_NS);

/**
 * kstats_errors_show() - print _errors, oldest entry first
 * @m: where
 *
 * Each entry in three lines, as tracefs' error_log:
 *
 *	[   SEC.USEC] LOC: error: REASON
 *	  Command: CMD
 *	             ^
 *
 * Context: process; may sleep.
 */
void kstats_errors_show(struct seq_file *m)
{
	unsigned int i;

	mutex_lock(&kstats_errors_lock);
	for (i = 0; i < kstats_errors_nr; i++) {
		const struct kstats_error *e =
			kstats_errors[(kstats_errors_first + i) % KSTATS_ERRORS_MAX];
		u64 sec = e->ts;
		u32 nsec = do_div(sec, NSEC_PER_SEC);

		seq_printf(m, "[%5llu.%06u] %s: error: %s\n" KSTATS_CMD_PREFIX "%s\n%*s^\n",
			   sec, nsec / 1000, e->loc, e->reason, e->cmd,
			   (int)(sizeof(KSTATS_CMD_PREFIX) - 1 + e->pos), "");
	}
	mutex_unlock(&kstats_errors_lock);
}
EXPORT_SYMBOL_NS_GPL(kstats_errors_show, KSTATS_NS);

/**
 * kstats_errors_clear() - empty _errors
 *
 * Context: process; may sleep.
 */
void kstats_errors_clear(void)
{
	unsigned int i;

	mutex_lock(&kstats_errors_lock);
	for (i = 0; i < kstats_errors_nr; i++)
		kfree(kstats_errors[(kstats_errors_first + i) % KSTATS_ERRORS_MAX]);
	kstats_errors_first = 0;
	kstats_errors_nr = 0;
	mutex_unlock(&kstats_errors_lock);
}
EXPORT_SYMBOL_NS_GPL(kstats_errors_clear, KSTATS_NS);
