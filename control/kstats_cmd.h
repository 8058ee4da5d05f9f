/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The grammar of what is written to kstats' files: text in, a parsed
 * command out, no side effects (kstats_cmd.c).
 */
#ifndef _KSTATS_CMD_H
#define _KSTATS_CMD_H

#include "kstats.h"
#include "kstats_errors.h"
#include "kstats_outlier.h"
#include "kstats_pair.h"
#include "kstats_point.h"

/* Longest command accepted by a write to a kstats file. */
#define KSTATS_CMD_MAX		512

/*
 * A section's points in struct kstats_cmd.point: its first start, its
 * end, then its further starts (up to KSTATS_SECTION_STARTS in all: a
 * task enters the run queue at a wakeup, at its first wakeup, or when
 * preempted).
 */
#define KSTATS_SECTION_STARTS	3
#define KSTATS_POINT_START	0
#define KSTATS_POINT_END	1
#define KSTATS_SECTION_POINTS	(KSTATS_SECTION_STARTS + 1)

/**
 * struct kstats_point_spec - where a probe goes, as the grammar split the
 *	word that names it (kstats_parse_command())
 * @text: the word: "SYM[+OFF]", or "tp:GROUP:EVENT"
 * @name: the symbol, without "+OFF"; or the tracepoint's group
 * @event: the tracepoint's event, or NULL for a symbol
 * @off: the offset after "+", 0 without
 * @tp: the word is a tracepoint's
 *
 * The names are [A-Za-z0-9_.]; that one exists is the trace layer's to
 * find.
 */
struct kstats_point_spec {
	const char *text;
	const char *name;
	const char *event;
	unsigned int off;
	bool tp;
};

/* The control commands, parsed (see kstats_parse_command()). */
enum kstats_cmd_op {
	KSTATS_CMD_NEW,
	KSTATS_CMD_REMOVE,
	KSTATS_CMD_REMOVE_ALL,
	KSTATS_CMD_TRACE,
	KSTATS_CMD_FREEZE,
	KSTATS_CMD_THAW,
	KSTATS_CMD_TRIGGER,
};

/* The commands of a distribution file (see kstats_parse_node_command()). */
enum kstats_node_op {
	KSTATS_NODE_START,
	KSTATS_NODE_STOP,
	KSTATS_NODE_RESET,
};

/**
 * struct kstats_cmd_words - where the words the checks of a whole command
 *	refuse were written: pointers into the parsed buffer, or NULL
 * @gap: "gap"
 * @split: "why"
 * @by: the key after "by"
 * @value: the value after "value"
 * @clock: the clock after "clock"
 * @outlier: "slow" or "top"
 * @keep: "keep"
 * @stack: "stack" (the outliers')
 * @if_ret: the value of the first "if" on ret
 * @match: the value after the first "match"
 * @section: the first of "key", "match", "nest", "full", "inflight",
 *	"over" and "under"
 * @under: the value after "under"
 * @point_filter: the first filter written after a section's point
 */
struct kstats_cmd_words {
	const char *gap;
	const char *split;
	const char *by;
	const char *value;
	const char *clock;
	const char *outlier;
	const char *keep;
	const char *stack;
	const char *if_ret;
	const char *match;
	const char *section;
	const char *under;
	const char *point_filter;
};

/**
 * struct kstats_cmd - a parsed write to _control
 * @op: what to do
 * @cfg: name, bits and clock for new and trace
 * @target: the function traced, or NULL
 * @start: the (first) start point of a section, or NULL
 * @end: the end point of a section, or NULL
 * @more: a section's further start points, @nr_more of them
 * @nr_more: how many
 * @mech: "fprobe" or "kretprobe" to choose the mechanism, or NULL
 * @maxactive: kretprobe instances, 0 for the default
 * @gap: also record the time between calls
 * @split: "why": each call's time split into running, waiting for a
 *	CPU, asleep and interrupts (kstats_why.h)
 * @clock_set: the command named a clock
 * @value: what a trace node records instead of a duration, if anything
 * @filter: whom and what a trace node counts; for a section, the filters
 *	written before "start", which apply to both points
 * @point: a section's start (KSTATS_POINT_START), end (KSTATS_POINT_END)
 *	and further starts (from 2 on): the key and filters written after
 *	each
 * @key_set: a key was written before "start", for every point
 * @match_set: "match" was written
 * @nest_set: "nest" was written
 * @nest_outer: "nest outer": a section's start whose key is in flight
 *	leaves the older one, instead of replacing it
 * @full_set: "full" was written
 * @full_refuse: "full refuse": a section's start that finds its table's
 *	slots taken is lost (missed), instead of evicting the oldest
 * @inflight: a section's starts held at once, 0 for the default
 * @over: "over V": a section records only durations over V (in its
 *	clock's unit), 0 for all
 * @under: "under V": only durations under V, 0 for all
 * @by: what the node is split by, one histogram per key; for a section,
 *	taken at its start
 * @by_max: the keys of @by at most, beyond which samples go to "other"
 * @by_max_set: "max" was written after the key
 * @outlier: "slow V [keep M]" or "top K", with "stack N": the samples the
 *	node keeps with their context
 * @trigger_above: "trigger NAME above V": V
 * @trigger_after: "trigger NAME above V after NS": NS, or 0
 *
 * @where: where a section's points go, indexed as @point; for "trace
 *	tp:GROUP:EVENT", @where[KSTATS_POINT_START] is the tracepoint's
 * @names: the names of @where that are not whole words of the command: a
 *	tracepoint's group, a symbol followed by "+OFF"
 * @multi_name: the name of a node over several functions that "name" does
 *	not give: its glob or list, made a name; or of a user function's
 *	node, BASENAME.SYMBOL (kstats_uprobe_name())
 * @at: where some of the words were written, for @why's caret
 * @why: why the command was refused, by the grammar or later, and at
 *	which word (kstats_refuse())
 *
 * Strings point into the buffer given to kstats_parse_command(), or into
 * @names or @multi_name.
 */
struct kstats_cmd {
	enum kstats_cmd_op op;
	struct kstats_config cfg;
	const char *target;
	const char *start;
	const char *end;
	const char *more[KSTATS_SECTION_STARTS - 1];
	unsigned int nr_more;
	const char *mech;
	unsigned int maxactive;
	bool gap;
	bool split;
	bool clock_set;
	struct kstats_value value;
	struct kstats_filter filter;
	struct kstats_point_opts point[KSTATS_SECTION_POINTS];
	bool key_set;
	bool match_set;
	bool nest_set;
	bool nest_outer;
	bool full_set;
	bool full_refuse;
	u32 inflight;
	u64 over;
	u64 under;
	struct kstats_by by;
	u32 by_max;
	bool by_max_set;
	struct kstats_outlier_cfg outlier;
	u64 trigger_above;
	u64 trigger_after;
	struct kstats_point_spec where[KSTATS_SECTION_POINTS];
	char names[KSTATS_CMD_MAX];
	char multi_name[KSTATS_NAME_MAX + 1];
	struct kstats_cmd_words at;
	struct kstats_refusal why;
};

int kstats_parse_command(char *buf, struct kstats_cmd *cmd);
int kstats_parse_node_command(const char *buf, int *op);
int kstats_parse_value(const char *s, struct kstats_value *v,
		       struct kstats_refusal *why);

#endif /* _KSTATS_CMD_H */
