// SPDX-License-Identifier: GPL-2.0
/*
 * grammar.c - the kernel's filter words and family keys (grammar.h).
 */
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
