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
#define KSTATS_BY_KEY(id, ...)	\
	[BY_WORD_##id] = KSTATS_KEY_WORD(id, __VA_ARGS__),
#include "../../trace/kstats_by_key_list.h"
};

const unsigned char by_number[NR_BY_WORDS] = {
#define KSTATS_BY_KEY(id, ...)	\
	[BY_WORD_##id] = KSTATS_KEY_ARG_NUMBER(KSTATS_KEY_ARG(id, __VA_ARGS__)),
#include "../../trace/kstats_by_key_list.h"
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
 * CPU's, the caller, the cgroup, the stack ("stack:N": N frames), the
 * function; a word of by_words[], with ":N" if it takes a number.
 */
int by_native(const char *by)
{
	size_t w = strcspn(by, ":");
	const char *d = by + w + 1, *n = d;

	for (int i = 0; i < NR_BY_WORDS; i++) {
		if (strncmp(by, by_words[i], w) || by_words[i][w])
			continue;
		if (!by[w])
			return 1;
		/* "WORD:N", of a word that takes a number: N of 1 or 2 digits */
		while (by_number[i] && *n >= '0' && *n <= '9')
			n++;
		return n > d && !*n && n - d <= 2;
	}
	return 0;
}

/* A native key in the kernel's words: "stack:N" is "stack N". */
void by_native_words(const char *by, char *v, size_t len)
{
	char *colon;

	snprintf(v, len, "%s", by);
	colon = strchr(v, ':');
	if (colon)
		*colon = ' ';
}
