/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User programs' functions ("trace PATH:SYMBOL", "trace PATH:0xOFFSET"):
 * how the grammar tells such a target and names its node, and what
 * kstats_function.c calls to check and time it (kstats_uprobe.c, where the
 * kernel's uprobe API is one kstats builds for; elsewhere such a target
 * is refused).
 */
#ifndef _KSTATS_UPROBE_H
#define _KSTATS_UPROBE_H

#include <linux/ctype.h>
#include <linux/string.h>
#include <linux/types.h>

struct kstats_cmd;

/* Whether a trace target is a user function: an absolute path, ":", more. */
static inline bool kstats_uprobe_spec(const char *spec)
{
	return spec[0] == '/';
}

/* A character kept in a node's name ([A-Za-z0-9_.-]). */
static inline bool kstats_uprobe_name_char(char c)
{
	return isascii(c) && (isalnum(c) || c == '_' || c == '.' || c == '-');
}

/*
 * The default name of the node of @spec, "PATH:SYMBOL": the file's base
 * name, a dot, the symbol (or 0xOFFSET), each with the characters a name
 * may not have left out, no dot first, cut to @size - 1 characters
 * ("/usr/lib/libc.so.6:malloc" is "libc.so.6.malloc"); "user" when
 * nothing is left.
 */
static inline void kstats_uprobe_name(const char *spec, char *name,
				      size_t size)
{
	const char *colon = strrchr(spec, ':'), *s;
	const char *base;
	size_t n = 0;

	if (!colon)
		colon = spec + strlen(spec);
	for (base = colon; base > spec && base[-1] != '/'; base--)
		;
	for (s = base; *s && n + 1 < size; s++) {
		if (s == colon) {
			if (n)
				name[n++] = '.';
		} else if (kstats_uprobe_name_char(*s) && (*s != '.' || n)) {
			name[n++] = *s;
		}
	}
	name[n] = '\0';
	if (!n)
		strscpy(name, "user", size);
}

#ifdef KSTATS_HAVE_UPROBE
struct kstats_refusal;
int kstats_uprobe_check(const struct kstats_cmd *cmd,
			struct kstats_refusal *refusal);
#endif

#endif /* _KSTATS_UPROBE_H */
