/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The keys of a family ("by KEY"), listed once, for the module and the
 * command-line tool (tools/), so that one list says which words "by"
 * takes.  Plain C (no kernel types).  No include guard: each user defines
 *	KSTATS_BY_KEY(ID, SHOWS, WORD, ARG, FLAGS)
 * and includes this file, which expands it once per key, then undefines
 * it (as kstats_direct_variant_list.h lists the trampoline's variants);
 * a user that needs a column but not those before it takes it by name
 * (KSTATS_KEY_WORD(), kstats_by_key.h).
 *
 * The order is enum kstats_by_kind's (trace/kstats_point.h), after
 * KSTATS_BY_NONE, and the grammar's messages list the keys in it.  ID is
 * the enum's name, KSTATS_BY_ID; SHOWS how a key is printed,
 * KSTATS_KEYS_SHOWS (enum kstats_keys, core/kstats_family.h); WORD the
 * word after "by", as the grammar reads and writes it; ARG what may follow
 * the word, as the grammar's messages write it: "" or " [N]" (a number, as
 * "by stack N"; KSTATS_KEY_ARG_NUMBER()); FLAGS the KSTATS_KEYF_* of
 * kstats_by_key.h: whose the key is, and what the direct trampoline needs
 * to take it.  The comment above a row says what its key is.
 *
 * Adding a key is a row here, its take function (kstats_by_task_fetch()
 * or kstats_by_fetch(), trace/kstats_point.h) and tests
 * (Documentation/internals.rst, "Extending kstats").
 */
#ifndef KSTATS_BY_KEY
#error "define KSTATS_BY_KEY() before including the list of keys"
#endif

#include "kstats_by_key.h"

/* the current task's name */
KSTATS_BY_KEY(COMM, NAME, "comm", "", KSTATS_KEYF_TASK | KSTATS_KEYF_TRAMP_IDS)
/* the current thread group id */
KSTATS_BY_KEY(PID, NUMBER, "pid", "", KSTATS_KEYF_TASK | KSTATS_KEYF_TRAMP_IDS)
/* the current task id */
KSTATS_BY_KEY(TID, NUMBER, "tid", "", KSTATS_KEYF_TASK | KSTATS_KEYF_TRAMP_IDS)
/* the current CPU */
KSTATS_BY_KEY(CPU, NUMBER, "cpu", "", KSTATS_KEYF_CPU)
/* the traced function's return address, at its entry */
KSTATS_BY_KEY(CALLER, CALLER, "caller", "", KSTATS_KEYF_FRAME | KSTATS_KEYF_TRAMP_FRAME)
/* the current task's cgroup v2, by id */
KSTATS_BY_KEY(CGROUP, CGROUP, "cgroup", "", KSTATS_KEYF_TASK)
/* the kernel stack, N frames, kept by the family */
KSTATS_BY_KEY(STACK, STACK, "stack", " [N]", KSTATS_KEYF_FRAME)
/* the traced function, of a node over several: its address at the entry */
KSTATS_BY_KEY(FUNC, FUNC, "func", "", KSTATS_KEYF_FRAME | KSTATS_KEYF_TRAMP_FRAME)

#undef KSTATS_BY_KEY
