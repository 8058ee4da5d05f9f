// SPDX-License-Identifier: GPL-2.0
/*
 * lockcaller.c - `kstats lockwait --by caller`: a lock wait's caller is
 * the first frame of its stack outside the kernel's lock and scheduler
 * functions, as perf lock contention names it: mutex and rwsem functions
 * are in the scheduler's text (__sched), spinlocks in the lock text
 * (__lockfunc), both bounded by symbols of /proc/kallsyms, and their
 * clones outside those sections are known by name.  The module
 * keys the waits by stack; the keys are named by their caller here and
 * the keys of one caller merged into one.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

/* The names of the lock and scheduler functions, sorted. */
static char **lock_fns;
static size_t nlock_fns;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add @name to the lock functions. */
static int add_lock_fn(const char *name, size_t len, size_t *cap)
{
	char **grown;

	if (nlock_fns == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		grown = realloc(lock_fns, *cap * sizeof(*lock_fns));
		if (!grown)
			return -1;
		lock_fns = grown;
	}
	lock_fns[nlock_fns] = strndup(name, len);
	if (!lock_fns[nlock_fns])
		return -1;
	nlock_fns++;
	return 0;
}

/*
 * The functions of the scheduler's and the lock text, read once, in one
 * pass: the core kernel's symbols come in the order of their addresses,
 * so a section's functions are the lines between its bounds (and those
 * before its start bound at its address, as __pfx_ symbols are).
 * Without kallsyms (or its addresses, hidden from non-root), nothing is
 * a lock function: each key is then named by its innermost frame.
 */
void load_lock_fns(void)
{
	const char *dir = getenv("KSTATS_SYSFS");	/* tests: a fake /proc */
	unsigned long long addr, run_addr = 0;
	char path[512], line[1024];
	size_t cap = 0, kept = 0;	/* lock_fns[kept..]: at run_addr, outside */
	size_t run = 0;			/* lock_fns[run..]: at run_addr */
	int in = 0;
	FILE *f;

	if (lock_fns)
		return;
	lock_fns = malloc(sizeof(*lock_fns));
	snprintf(path, sizeof(path), "%s/proc/kallsyms", dir ? dir : "");
	f = fopen(path, "r");
	if (!f || !lock_fns)
		goto out;
	while (fgets(line, sizeof(line), f)) {
		char *p, *name;
		size_t len;

		addr = strtoull(line, &p, 16);
		if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		if (!addr)
			break;	/* addresses hidden */
		name = p + 3;
		len = strcspn(name, " \t\n");
		if (addr != run_addr) {
			while (!in && nlock_fns > kept)	/* none of a section */
				free(lock_fns[--nlock_fns]);
			run = nlock_fns;
		}
		run_addr = addr;
		if ((len == 18 && !strncmp(name, "__sched_text_start", len)) ||
		    (len == 17 && !strncmp(name, "__lock_text_start", len))) {
			in = 1;
			continue;
		}
		if ((len == 16 && !strncmp(name, "__sched_text_end", len)) ||
		    (len == 15 && !strncmp(name, "__lock_text_end", len))) {
			while (nlock_fns > run)	/* at the end: past it */
				free(lock_fns[--nlock_fns]);
			in = 0;
			kept = nlock_fns;
			continue;
		}
		if (add_lock_fn(name, len, &cap))
			break;
		if (in)
			kept = nlock_fns;
	}
	while (nlock_fns > kept)
		free(lock_fns[--nlock_fns]);
out:
	if (f)
		fclose(f);
	if (lock_fns)
		qsort(lock_fns, nlock_fns, sizeof(*lock_fns), cmp_name);
}

/*
 * The kernel's locking functions by name, leading underscores dropped:
 * the compiler's clones of them (.constprop.0, .isra.0) leave the sections
 * (PREEMPT_RT's __rt_mutex_slowlock_locked.constprop.0).
 */
static const char *const lock_prefixes[] = {
	"mutex_lock", "mutex_spin", "rt_mutex", "rt_spin", "rtlock",
	"ww_mutex", "rwsem", "rwbase", "down_read", "down_write",
	"percpu_down", "raw_spin_lock", "raw_read_lock", "raw_write_lock",
	"queued_spin", "queued_read", "queued_write", "native_queued",
	"pv_queued", "osq_lock",
};

/*
 * Whether the frame "name+0xOFF" of @len bytes is of a lock function: in
 * the scheduler's or the lock text, or named as one.
 */
static int is_lock_frame(const char *frame, size_t len)
{
	char name[512], *key = name;
	size_t n = strcspn(frame, "+");

	if (n > len)
		n = len;
	if (n >= sizeof(name))
		return 0;
	memcpy(name, frame, n);
	name[n] = '\0';
	/* the tracepoint's own frame, when more than one probe is on it */
	if (!strncmp(name, "__traceiter_", 12))
		return 1;
	/* the locking code outside those sections, by name (a clone) */
	while (*key == '_')
		key++;
	for (size_t i = 0; i < sizeof(lock_prefixes) / sizeof(lock_prefixes[0]); i++)
		if (!strncmp(key, lock_prefixes[i], strlen(lock_prefixes[i])))
			return 1;
	key = name;
	return bsearch(&key, lock_fns, nlock_fns, sizeof(*lock_fns),
		       cmp_name) != NULL;
}

/*
 * The caller of a stack key (frames root first, ';' between them): its
 * innermost frame outside the lock functions, in @buf; the outermost frame
 * if all are.
 */
static void caller_of(const char *frames, char *buf, size_t len)
{
	const char *end = frames + strlen(frames), *p = end;

	while (p > frames) {
		const char *start = p;

		while (start > frames && start[-1] != ';')
			start--;
		if (!is_lock_frame(start, (size_t)(p - start)) || start == frames) {
			snprintf(buf, len, "%.*s", (int)(p - start), start);
			return;
		}
		p = start - 1;
	}
	snprintf(buf, len, "%s", frames);
}

/* Add the slots of @b to those of @a (both by increasing slot). */
static int merge_slots(struct kkey *a, const struct kkey *b)
{
	struct kslot *m = malloc((a->nslots + b->nslots) * sizeof(*m));
	size_t i = 0, j = 0, n = 0;

	if (!m)
		return -1;
	while (i < a->nslots || j < b->nslots) {
		if (j == b->nslots ||
		    (i < a->nslots && a->slots[i].slot < b->slots[j].slot)) {
			m[n++] = a->slots[i++];
		} else if (i == a->nslots || b->slots[j].slot < a->slots[i].slot) {
			m[n++] = b->slots[j++];
		} else {
			struct kslot s = a->slots[i++];
			const struct kslot *t = &b->slots[j++];
			u64 c = s.count + t->count;

			/* each slot's average, weighted by its count */
			s.avg = c ? (u64)(((long double)s.avg * s.count +
					   (long double)t->avg * t->count) / c) : 0;
			s.count = c;
			m[n++] = s;
		}
	}
	free(a->slots);
	a->slots = m;
	a->nslots = n;
	a->samples += b->samples;
	return 0;
}

static int by_samples(const void *x, const void *y)
{
	const struct kkey *a = x, *b = y;

	if (a->other != b->other)
		return a->other - b->other;
	return a->samples < b->samples ? 1 : a->samples > b->samples ? -1 : 0;
}

/**
 * lock_callers() - a family by stack as one by caller
 * @s: a snapshot of a lock wait node by stack
 *
 * Return: 0, or -1 out of memory (@s then as it was, or partly merged).
 */
int lock_callers(struct snapshot *s)
{
	char buf[512];
	size_t n = 0;

	if (!s->is_family || strcmp(s->family.by, "stack"))
		return 0;
	load_lock_fns();
	for (size_t i = 0; i < s->nkeys; i++) {
		struct kkey *k = &s->keys[i];
		size_t j;

		if (!k->other) {
			caller_of(k->text, buf, sizeof(buf));
			/* never longer than the stack it is a frame of */
			strcpy(k->text, buf);
			strcpy(k->raw, buf);
			k->rawlen = strlen(buf);
		}
		for (j = 0; j < n; j++)
			if (s->keys[j].other == k->other &&
			    !strcmp(s->keys[j].text, k->text))
				break;
		if (j < n) {
			if (merge_slots(&s->keys[j], k))
				return -1;
			free(k->slots);
			free(k->text);
			free(k->raw);
		} else {
			s->keys[n++] = *k;
		}
	}
	s->nkeys = n;
	qsort(s->keys, n, sizeof(*s->keys), by_samples);
	s->family.keys = n - (n && s->keys[n - 1].other);
	snprintf(s->family.by, sizeof(s->family.by), "caller");
	s->family.frames = 0;
	return 0;
}
