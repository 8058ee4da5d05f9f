/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints of kstats_lifetime: kstats_lifetime_init, fired while its
 * module_init() runs (and by its "fire" command), what "trace
 * tp:kstats_lifetime:kstats_lifetime_init" attaches to, before and after
 * the module is live; kstats_lifetime_narrow, fired by "narrow", whose
 * arguments are narrower than a register and negative, for kstats'
 * generic probe to widen by their types; kstats_lifetime_cookie_begin and
 * _end, fired by "cookies", a section's points keyed by a word.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kstats_lifetime

#if !defined(_KSTATS_LIFETIME_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KSTATS_LIFETIME_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(kstats_lifetime_init,
	    TP_PROTO(unsigned int n),
	    TP_ARGS(n),
	    TP_STRUCT__entry(__field(unsigned int, n)),
	    TP_fast_assign(__entry->n = n;),
	    TP_printk("n=%u", __entry->n)
);

TRACE_EVENT(kstats_lifetime_narrow,
	    TP_PROTO(int neg, u16 word, s8 small),
	    TP_ARGS(neg, word, small),
	    TP_STRUCT__entry(__field(int, neg)
			     __field(u16, word)
			     __field(s8, small)),
	    TP_fast_assign(__entry->neg = neg;
			   __entry->word = word;
			   __entry->small = small;),
	    TP_printk("neg=%d word=%u small=%d", __entry->neg, __entry->word,
		      __entry->small)
);

DECLARE_EVENT_CLASS(kstats_lifetime_cookie,
		    TP_PROTO(u64 cookie),
		    TP_ARGS(cookie),
		    TP_STRUCT__entry(__field(u64, cookie)),
		    TP_fast_assign(__entry->cookie = cookie;),
		    TP_printk("cookie=%llx", __entry->cookie)
);

DEFINE_EVENT(kstats_lifetime_cookie, kstats_lifetime_cookie_begin,
	     TP_PROTO(u64 cookie),
	     TP_ARGS(cookie)
);

DEFINE_EVENT(kstats_lifetime_cookie, kstats_lifetime_cookie_end,
	     TP_PROTO(u64 cookie),
	     TP_ARGS(cookie)
);

#endif /* _KSTATS_LIFETIME_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE kstats_lifetime_trace
#include <trace/define_trace.h>
