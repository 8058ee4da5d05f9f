/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calls in flight of a removed direct slot, rerouted through the
 * kernel's own code (kstats_direct_reroute.c).
 */
#ifndef _KSTATS_DIRECT_REROUTE_H
#define _KSTATS_DIRECT_REROUTE_H

#include <linux/types.h>

int kstats_direct_reroute_init(void);
bool kstats_direct_reroute_ready(void);
bool kstats_direct_reroute(u64 going, unsigned long *const *ips,
			   const unsigned int *nr_ips, unsigned int *rerouted);

#endif /* _KSTATS_DIRECT_REROUTE_H */
