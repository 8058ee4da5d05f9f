/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The columns of the family keys' list (kstats_by_key_list.h): FLAGS,
 * whose a key is and what the direct trampoline needs to take it; ARG,
 * whether a number follows its word; each column of a row by name.
 * Plain C (no kernel types): the module and the command-line tool
 * (tools/) both include the list, which includes this.
 */
#ifndef KSTATS_BY_KEY_H
#define KSTATS_BY_KEY_H

/*
 * The task's: read from the current task, the same at both ends of a
 * task's section (which may sleep and migrate between its points).
 */
#define KSTATS_KEYF_TASK	0x01u
/* The CPU's: read from the CPU the event is on. */
#define KSTATS_KEYF_CPU		0x02u
/*
 * The traced call's: read from its registers or stack at its entry, so
 * a function's entry only, or the point's own stack.
 */
#define KSTATS_KEYF_FRAME	0x04u
/*
 * The direct trampoline's entry keeps it in its frame with no call to C
 * (the task's name, or its ids), for the exit to look up; else a task's
 * or CPU's key is taken by the entry in C, with no registers.
 */
#define KSTATS_KEYF_TRAMP_IDS	0x08u
/*
 * The direct trampoline's frame holds it (the return address above the
 * frame, the traced function's address), read at the exit; a key of the
 * frame without this flag takes the rich entry (the registers rebuilt).
 */
#define KSTATS_KEYF_TRAMP_FRAME	0x10u

/* Whether a key's ARG says it takes a number ("" or " [N]"): a constant. */
#define KSTATS_KEY_ARG_NUMBER(arg)	(sizeof(arg) > 1)

/*
 * A row's columns by name, for a KSTATS_BY_KEY() that names only those it
 * pastes (checkpatch asks a macro to use each argument it names), as
 *	#define KSTATS_BY_KEY(id, ...)	[KSTATS_BY_##id] = KSTATS_KEY_WORD(id, __VA_ARGS__),
 * KSTATS_KEY_WORD(ID, SHOWS, WORD, ARG, FLAGS) is WORD, and so on: each is
 * the column before it of the row turned by one, its first column moved
 * last.  ID and SHOWS, which are pasted, a user names instead: through
 * these they would be expanded first, were one a macro's name.
 */
#define KSTATS_KEY_ID(id, ...)		id
#define KSTATS_KEY_SHOWS(first, ...)	KSTATS_KEY_ID(__VA_ARGS__, first)
#define KSTATS_KEY_WORD(first, ...)	KSTATS_KEY_SHOWS(__VA_ARGS__, first)
#define KSTATS_KEY_ARG(first, ...)	KSTATS_KEY_WORD(__VA_ARGS__, first)
#define KSTATS_KEY_FLAGS(first, ...)	KSTATS_KEY_ARG(__VA_ARGS__, first)

#endif /* KSTATS_BY_KEY_H */
