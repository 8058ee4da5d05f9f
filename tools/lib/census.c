// SPDX-License-Identifier: GPL-2.0
/*
 * census.c - every family of the machine at once (kstats census, kstats
 * top --census): system calls by number, hard interrupts by handler, soft
 * interrupts by vector, run-queue latency, page faults, block I/O by disk
 * and off-CPU time by reason, each a node named census_*, made through
 * the recipes' _control lines (recipe_command()) and removed together.
 *
 * Bounded: every family has a fixed max (the keys past it go to
 * "other"), every section's table of starts its inflight, so that the
 * census's memory does not depend on the number of CPUs nor on the rate
 * of events: a family's keys are allocated at creation, shared by all
 * CPUs (8124 bytes a key at bits 3: its histogram, its key and table
 * entries in use and spare), 384 keys here, about 3.1 MB; the starts in
 * flight 16384 for offcpu (and for syscall where it is the recipe's
 * section), 1024 for the others (32 bytes a slot, twice the count),
 * 1.3 MB (2.4 MB): about 4.4 MB in all (5.5 MB).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "btf.h"
#include "cli.h"

/*
 * One part of the census: a recipe (with its family's key and bound), or
 * a function's duration where no recipe says it, or where it is cheaper:
 * then the function is tried first, and the recipe (if any) made where
 * the running kernel has no such function to trace.
 */
struct part {
	const char *node;	/* after CENSUS_PREFIX */
	const char *recipe;
	unsigned long long seen;	/* the recipe's options: O_DISK, ... */
	const char *by;		/* the recipe's, or the function's key */
	long max;		/* the family's keys at most */
	enum keynames names;	/* how its keys are named */
	/* a function's duration, "if PARAM & FLAG" when they are set */
	const char *fn, *if_param, *if_flag;
	const char *mech;	/* the function's mechanism, if one alone */
};

/*
 * Page faults: the time to handle one, handle_mm_fault() on every
 * architecture (x86-64's exceptions:page_fault_user/kernel tracepoints
 * fire at the fault's entry only: one point times nothing), every fault,
 * and the user's alone: its flags with FAULT_FLAG_USER, the parameter and
 * the bit as the running kernel's BTF has them.
 *
 * System calls: on x86-64, the call of each through x64_sys_call(regs,
 * nr) (the kernels since the branch history mitigation, 6.1's stable
 * ones among them), by nr: one function, which the direct trampoline
 * times at a fraction of what the recipe's section on raw_syscalls costs
 * (their two tracepoints' empty probes alone are most of the budget);
 * directly or not at all ("mech direct": fprobe's return hooks are a
 * pool that the tasks asleep in system calls would hold, and the calls
 * past it be missed); elsewhere (arm64, whose dispatch is inline, a
 * kernel without the BTF the trampoline needs) the recipe's section.
 */
static const struct part parts[] = {
	{ .node = "syscall", .recipe = "syscall", .seen = O_MAXKEYS,
	  .max = 256, .names = KEYS_SYSCALL,
#if defined(__x86_64__)
	  .fn = "x64_sys_call", .by = "arg1", .mech = "direct",
#endif
	},
	{ .node = "hardirq", .recipe = "hardirq", .seen = O_MAXKEYS,
	  .max = 64, .names = KEYS_IRQ },
	{ .node = "softirq", .recipe = "softirq", .seen = O_MAXKEYS,
	  .max = 16, .names = KEYS_SOFTIRQ },
	{ .node = "runqlat", .recipe = "runqlat" },
	{ .node = "pagefault", .fn = "handle_mm_fault" },
	{ .node = "pagefault_user", .fn = "handle_mm_fault",
	  .if_param = "flags", .if_flag = "FAULT_FLAG_USER" },
	{ .node = "biolatency", .recipe = "biolatency", .seen = O_DISK | O_MAXKEYS,
	  .max = 32, .names = KEYS_DISK },
	/* sched_switch(preempt, prev, next, prev_state): why prev left */
	{ .node = "offcpu", .recipe = "offcpu", .seen = O_BY | O_MAXKEYS,
	  .by = "arg3", .max = 16, .names = KEYS_STATE },
};

#define NPARTS (sizeof(parts) / sizeof(parts[0]))

/* What this process made, for census_stop() after census_start(). */
static int made[NPARTS], nmade;

static void node_name(const struct part *p, char *buf, size_t len)
{
	snprintf(buf, len, CENSUS_PREFIX "%s", p->node);
}

int census_is(const char *node)
{
	char n[80];

	for (size_t i = 0; i < NPARTS; i++) {
		node_name(&parts[i], n, sizeof(n));
		if (!strcmp(n, node))
			return 1;
	}
	return 0;
}

/*
 * How a node's keys are named: a census node's as its part says, a
 * recipe's node (made by kstats syscall, softirq, ...) as the recipe's;
 * hardirq's by the handler's name is a string already (by IRQ only when
 * BTF could not say action->name).
 */
enum keynames census_keynames(const struct snapshot *s)
{
	const char *node = s->name;
	size_t n = strlen(CENSUS_PREFIX);

	if (!strncmp(node, CENSUS_PREFIX, n))
		node += n;
	for (size_t i = 0; i < NPARTS; i++) {
		if (strcmp(parts[i].node, node))
			continue;
		if (parts[i].names == KEYS_IRQ && !strncmp(s->family.by, "str:", 4))
			return KEYS_RAW;
		return parts[i].names;
	}
	return KEYS_RAW;
}

static int exists(const char *node)
{
	char path[PATH_MAX + 80];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, node);
	return !stat(path, &st);
}

/*
 * Part @p's _control line in @cmd, its function's (@fn) or its recipe's:
 * 0, or an exit status, said.
 */
static int part_line(const struct part *p, const struct opts *o, bool fn,
		     char *cmd, size_t len)
{
	struct opts ro = { .seen = p->seen | O_SELF, .by = p->by,
			   .max_keys = p->max, .bits = o->bits };
	char node[80], made_as[80], what[1024];
	enum keynames names;

	node_name(p, node, sizeof(node));
	ro.seen |= o->seen & O_BITS;
	ro.node = node;
	if (!fn)
		return recipe_command(&ro, p->recipe, cmd, len, made_as,
				      sizeof(made_as), what, sizeof(what), &names);
	snprintf(cmd, len, "trace %s name %s", p->fn, node);
	if (p->mech)
		snprintf(cmd + strlen(cmd), len - strlen(cmd), " mech %s",
			 p->mech);
	if (p->by)
		snprintf(cmd + strlen(cmd), len - strlen(cmd), " by %s max %ld",
			 p->by, p->max);
	if (p->if_param) {
		char v[BTF_VALUE_MAX], err[512];
		long long bit;

		if (btf_resolve_value(p->fn, p->if_param, v, sizeof(v), err,
				      sizeof(err)) ||
		    btf_resolve_enumerator(p->if_flag, &bit, err, sizeof(err)))
			return fail("census: %s: %s", node, err);
		snprintf(cmd + strlen(cmd), len - strlen(cmd), " if %s & %lld",
			 v, bit);
	}
	if (o->seen & O_BITS)
		snprintf(cmd + strlen(cmd), len - strlen(cmd), " bits %u",
			 o->bits);
	snprintf(cmd + strlen(cmd), len - strlen(cmd), "\n");
	return 0;
}

/* The nodes made, removed newest first; their names in @list. */
static int remove_made(char *list, size_t len)
{
	int ret = 0;

	*list = '\0';
	while (nmade) {
		char node[80], cmd[128], why[1200];
		int e;

		node_name(&parts[made[--nmade]], node, sizeof(node));
		snprintf(cmd, sizeof(cmd), "remove %s\n", node);
		e = control_write(cmd);
		if (e == ENOENT)
			continue;	/* gone already: nothing of it left */
		if (e) {
			if (e > 0)
				fail("census: remove %s: %s", node,
				     refused_why(cmd, e, why, sizeof(why)));
			ret = EXIT_ERROR;
			continue;
		}
		snprintf(list + strlen(list), len - strlen(list), " %s", node);
	}
	return ret;
}

/*
 * Make every part.  A part the kernel cannot provide (no such tracepoint
 * or function, not supported, or what the tool needs of its BTF) is
 * skipped, said on stderr; any other refusal removes what was made and
 * says which part and why.  @say: where to list what was made, or NULL.
 */
int census_start(const struct opts *o, FILE *say)
{
	char cmd[1024], node[80], why[1200], list[1024];
	int skipped = 0;

	for (size_t i = 0; i < NPARTS; i++) {
		node_name(&parts[i], node, sizeof(node));
		if (exists(node))
			return fail("a census exists (%s in %s): kstats census stop first",
				    node, root);
	}
	nmade = 0;
	for (size_t i = 0; i < NPARTS; i++) {
		bool fn = parts[i].fn;
		int e;

		node_name(&parts[i], node, sizeof(node));
again:
		if (part_line(&parts[i], o, fn, cmd, sizeof(cmd))) {
			fprintf(stderr, "kstats: census: %s skipped (above)\n", node);
			skipped++;
			continue;
		}
		if (o->seen & O_VERBOSE)
			fputs(cmd, stderr);
		e = control_write(cmd);
		if (!e) {
			made[nmade++] = (int)i;
			continue;
		}
		/* the function refused here, for any reason: the recipe's way */
		if (fn && parts[i].recipe && e > 0) {
			if (o->seen & O_VERBOSE)
				fprintf(stderr, "kstats: census: %s: %s; the %s recipe instead\n",
					node, refused_why(cmd, e, why, sizeof(why)),
					parts[i].recipe);
			fn = false;
			goto again;
		}
		if (e == ENOENT || e == EOPNOTSUPP) {
			fprintf(stderr, "kstats: census: %s skipped: %s\n", node,
				refused_why(cmd, e, why, sizeof(why)));
			skipped++;
			continue;
		}
		if (e > 0)
			fprintf(stderr, "kstats: census: %s refused: %s\n", node,
				refused_why(cmd, e, why, sizeof(why)));
		remove_made(list, sizeof(list));
		return fail("census not started: %s failed; removed what was made:%s",
			    node, *list ? list : " nothing");
	}
	if (!nmade)
		return fail("census not started: none of its %zu parts could be made",
			    NPARTS);
	if (say) {
		fprintf(say, "census: %d nodes made", nmade);
		for (int i = 0; i < nmade; i++)
			fprintf(say, " " CENSUS_PREFIX "%s", parts[made[i]].node);
		fprintf(say, "%s\n", skipped ? " (some skipped: see above)" : "");
	}
	return 0;
}

/*
 * Remove the census: what this process made, else the census nodes
 * under the root (census stop).  A user's node, census_-named or not,
 * that is no part of the census is left alone.
 */
int census_stop(FILE *say)
{
	char list[1024];
	int ret;

	if (!nmade)
		for (size_t i = 0; i < NPARTS; i++) {
			char node[80];

			node_name(&parts[i], node, sizeof(node));
			if (exists(node))
				made[nmade++] = (int)i;
		}
	if (!nmade) {
		size_t n;
		int r;
		char **names = scan_root(&n, &r);	/* no root: why, with the fix */

		if (!names)
			return r;
		free_names(names, n);
		return fail("no census in %s (kstats census start makes one)", root);
	}
	ret = remove_made(list, sizeof(list));
	if (say)
		fprintf(say, "census: removed%s\n", *list ? list : " nothing");
	return ret;
}
