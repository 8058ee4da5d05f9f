/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint of the example module, fired by every write() to
 * /dev/kstats_example: a module tracepoint that
 * "trace tp:kstats_example:kstats_example_write" can attach to.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kstats_example

#if !defined(_KSTATS_EXAMPLE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KSTATS_EXAMPLE_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(kstats_example_write,
	    TP_PROTO(size_t len),
	    TP_ARGS(len),
	    TP_STRUCT__entry(__field(size_t, len)),
	    TP_fast_assign(__entry->len = len;),
	    TP_printk("len=%zu", __entry->len)
);

#endif /* _KSTATS_EXAMPLE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE kstats_example_trace
#include <trace/define_trace.h>
