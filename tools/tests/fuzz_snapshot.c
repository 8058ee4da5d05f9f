// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the snapshot parser and everything computed from a
 * parsed snapshot (summary, per-CPU tables, JSON, histogram, Prometheus,
 * negative samples and errnos), and the parser of a node's history.
 *   make fuzz   (clang -fsanitize=fuzzer,address,undefined)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kstats_tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct snapshot s, t;
	struct ks_result ks;
	struct history h;
	char err[512];

	if (!null)
		null = fopen("/dev/null", "w");
	if (!history_parse(&h, (const char *)data, size, "fuzz", err,
			   sizeof(err)))
		history_free(&h);
	if (snapshot_parse(&s, (const char *)data, size, "fuzz", err,
			   sizeof(err)))
		return 0;
	print_show(null, &s, 1, 10);
	print_negative(null, &s, &s);	/* an interval's deltas */
	json_snapshot(null, &s, 0);
	export_prometheus(null, &s, 1, "h", EXPORT_BUCKETS);
	export_prometheus(null, &s, 1, NULL, 100000);
	if (s.samples) {
		t = s;
		ks_test(&s, &t, &ks);
	}
	snapshot_free(&s);
	return 0;
}
