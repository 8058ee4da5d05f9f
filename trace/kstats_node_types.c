// SPDX-License-Identifier: GPL-2.0
/*
 * The types of what a trace node reads, from the BTF of the function or
 * tracepoint it probes: its value, filters and family key, and its
 * section's points' keys, matches and filters.  Every kind of node takes
 * them as it registers its probes (kstats_function.c, kstats_section.c,
 * kstats_tracepoint.c): a file of its own, which the node's core
 * (kstats_node.c), calling those, does not.
 */
#include "kstats_btf.h"
#include "kstats_node.h"

/*
 * The types of what a node reads, from the BTF of the function or
 * tracepoint @what it probes (@tp), in module @mod or the kernel: with @p
 * NULL the node's value, filters and family key (a function's or a
 * tracepoint's), else those of a section's point (its key, match, filters
 * and family key; the first start's also the node's family key).  Without
 * BTF the values stay as written, and a return value is guessed at
 * (kstats_ret_value()).
 */
void kstats_trace_types(struct kstats_trace *t, struct kstats_point *p,
			const char *what, bool tp, const char *mod)
{
	struct kstats_btf_func f;

	if (!kstats_trace_reads_types(t, p))
		return;
	if (tp ? kstats_btf_tracepoint(what, mod, &f) :
		 kstats_btf_func(what, mod, &f))
		return;
	kstats_trace_types_from(t, p, &f);
}

/* Whether the node (@p NULL) or its point @p reads what BTF types. */
bool kstats_trace_reads_types(const struct kstats_trace *t,
			      const struct kstats_point *p)
{
	return p ? p->rich : t->fn.rich;
}

/*
 * kstats_trace_types() with the types @f already read: a tracepoint's
 * register reads them once for its probe and for these.
 */
void kstats_trace_types_from(struct kstats_trace *t, struct kstats_point *p,
			     const struct kstats_btf_func *f)
{
	if (p)
		kstats_point_opts_type(&p->opts, f);
	if (!p || p == &t->start) {
		kstats_by_type(&t->fn.by, f);
		/* the BTF may tell a value key's sign only now */
		if (t->fn.ks->family && t->fn.by.kind == KSTATS_BY_VALUE &&
		    !t->fn.by.str)
			t->fn.ks->family->keys = kstats_by_is_signed(&t->fn.by) ?
				KSTATS_KEYS_SIGNED : KSTATS_KEYS_NUMBER;
	}
	if (!p) {
		kstats_value_type(&t->fn.value, f);
		kstats_filter_type(&t->fn.filter, f);
	}
}
