/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a command was refused: the one ratelimited line of the kernel log,
 * and the entry of _errors, the last refused commands with a caret under
 * the word refused, as tracefs' error_log (kstats_errors.c).
 */
#ifndef _KSTATS_ERRORS_H
#define _KSTATS_ERRORS_H

#include <linux/compiler.h>
#include <linux/ratelimit.h>
#include <linux/types.h>

#include "kstats.h"

/* Longest reason kept for _errors, its NUL included (the log's line is whole). */
#define KSTATS_REASON_MAX	256
/*
 * The refused commands _errors keeps: twice tracefs' 8, so that a
 * writer finds its own refusal among those of the others writing at the
 * same time (a recipe writes several commands), in at most 16 entries of
 * a command (512 bytes) and a reason (256) each.
 */
#define KSTATS_ERRORS_MAX	16
/* kstats_refusal's @pos of a word that is missing: past the command's end */
#define KSTATS_POS_END		(-1)

/**
 * struct kstats_refusal - why a command was refused, and at which word
 * @text: the command as it is parsed, or NULL (the kernel log alone)
 * @len: its length
 * @set: a refusal was noted: the first one made is kept
 * @pos: the offset in @text of the first character of the word refused;
 *	0 for a word the command did not write (a point kstats adds),
 *	KSTATS_POS_END for one it should have written
 * @loc: what refused it, as the kernel log's line names it: "_control"
 *	for the grammar, or the distribution's name
 * @reason: why, as the kernel log's line says it, cut to fit
 * @name_at: where @text names the distribution it makes, or NULL: the
 *	word of the core's refusals of that name (one in use, too many)
 */
struct kstats_refusal {
	const char *text;
	size_t len;
	const char *name_at;
	bool set;
	int pos;
	char loc[KSTATS_NAME_MAX + 1];
	char reason[KSTATS_REASON_MAX];
};

__printf(6, 7)
void __kstats_refuse(struct ratelimit_state *rs, const char *func,
		     struct kstats_refusal *why, const char *word,
		     const char *loc, const char *fmt, ...);

/**
 * kstats_refuse() - refuse a command: one line in the kernel log, and why
 * @why: where the refusal is noted for _errors, or NULL
 * @word: the word refused, within @why's text; NULL for a word missing
 *	at the end
 * @loc: what refuses it: "_control", or a distribution's name
 * @fmt: why, printf-style, with no newline
 *
 * The line, "kstats: LOC: WHY", is ratelimited at each call site, as
 * pr_warn_ratelimited() is; the refusal is noted whatever the ratelimit.
 *
 * Context: any but NMI (printk).
 */
#define kstats_refuse(why, word, loc, fmt, ...) ({			\
	static DEFINE_RATELIMIT_STATE(_kstats_rs, DEFAULT_RATELIMIT_INTERVAL, \
				      DEFAULT_RATELIMIT_BURST);		\
									\
	__kstats_refuse(&_kstats_rs, __func__, why, word, loc, fmt,	\
			##__VA_ARGS__);					\
})

void kstats_refusal_init(struct kstats_refusal *why, const char *text);

struct seq_file;
void kstats_errors_add(const char *cmd, size_t len,
		       const struct kstats_refusal *why);
void kstats_errors_show(struct seq_file *m);
void kstats_errors_clear(void);

#endif /* _KSTATS_ERRORS_H */
