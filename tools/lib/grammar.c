// SPDX-License-Identifier: GPL-2.0
/*
 * grammar.c - the kernel's filter words and family keys (grammar.h).
 */
#include <stdio.h>
#include <string.h>

#include "grammar.h"

const char *const filter_words[NR_FILTER_WORDS] = {
	[FILTER_PID] = "pid", [FILTER_TID] = "tid", [FILTER_COMM] = "comm",
	[FILTER_CPU] = "cpu", [FILTER_CGROUP] = "cgroup",
};

const char *const by_words[NR_BY_WORDS] = {
	"comm", "pid", "tid", "cpu", "caller", "cgroup", "stack", "func",
};

int grammar_word(const char *const *words, size_t n, const char *w)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(words[i], w))
			return (int)i;
	return -1;
}

/*
 * The keys a family takes as the kernel words them: the task's, the
 * CPU's, the caller, the cgroup, the stack ("stack:N": N frames).
 */
int by_native(const char *by)
{
	const char *n = by + 6;

	if (!strncmp(by, "stack:", 6)) {
		while (*n >= '0' && *n <= '9')
			n++;
		return n > by + 6 && !*n && n - (by + 6) <= 2;
	}
	return !strcmp(by, "comm") || !strcmp(by, "pid") ||
	       !strcmp(by, "tid") || !strcmp(by, "cpu") ||
	       !strcmp(by, "caller") || !strcmp(by, "cgroup") ||
	       !strcmp(by, "stack") || !strcmp(by, "func");
}

/* A native key in the kernel's words: "stack:N" is "stack N". */
void by_native_words(const char *by, char *v, size_t len)
{
	snprintf(v, len, "%s", by);
	if (!strncmp(v, "stack:", 6))
		v[5] = ' ';
}
