/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Distributions fed by probes: function durations (the mechanisms of
 * kstats_fn.h), sections between two probe points, tracepoints.
 */
#ifndef _KSTATS_TRACE_H
#define _KSTATS_TRACE_H

struct kstats_cmd;

/* Most kretprobe instances in flight per trace node (maxactive). */
#define KSTATS_MAX_ACTIVE	4096

int kstats_trace_create(struct kstats_cmd *cmd);
int kstats_trace_module_init(void);
void kstats_trace_module_exit(void);

#endif /* _KSTATS_TRACE_H */
