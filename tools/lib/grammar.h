/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grammar.h - the words of the kernel's _control grammar that the tool
 * reads in a distribution file and writes to _control: the filters, in
 * the order the kernel prints them on a "# filter" line
 * (kstats_filter_format() in kstats_point.c), and the keys of a family
 * (kstats_by_key_list.h, which the module includes too).  `make -C tools
 * check` compares these lists with the kernel's sources, so that a filter
 * or key the kernel gains is one the tool reads and writes.
 */
#ifndef KSTATS_GRAMMAR_H
#define KSTATS_GRAMMAR_H

#include <stddef.h>

/* "pid N", "tid N", "comm NAME", "cpu N", "cgroup PATH"; then "if V OP C" */
enum filter_word { FILTER_PID, FILTER_TID, FILTER_COMM, FILTER_CPU,
		   FILTER_CGROUP, NR_FILTER_WORDS };
extern const char *const filter_words[NR_FILTER_WORDS];

/*
 * "by comm|pid|tid|cpu|caller|cgroup|stack [N]|func", or a value: the keys
 * of kstats_by_key_list.h, the module's list, in its order; by_number[]
 * says which word takes a number ("stack N")
 */
enum by_word {
#define KSTATS_BY_KEY(id, ...)	BY_WORD_##id,
#include "../../trace/kstats_by_key_list.h"
	NR_BY_WORDS
};

extern const char *const by_words[NR_BY_WORDS];
extern const unsigned char by_number[NR_BY_WORDS];

/* The index of @w among @words, or -1. */
int grammar_word(const char *const *words, size_t n, const char *w);

/* --by KEY: a key the kernel takes as it is; in its words ("stack N") */
int by_native(const char *by);
void by_native_words(const char *by, char *v, size_t len);

#endif /* KSTATS_GRAMMAR_H */
