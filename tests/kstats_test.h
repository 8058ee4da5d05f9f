/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of kstats_test.ko share: their suites, which
 * kstats_test_main.c registers, and the helpers more than one uses.
 */
#ifndef _KSTATS_TEST_H
#define _KSTATS_TEST_H

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/string.h>

#include "kstats.h"
#include "kstats_cmd.h"
#include "kstats_internal.h"

extern struct kunit_suite kstats_core_suite;
extern struct kunit_suite kstats_cmd_suite;
extern struct kunit_suite kstats_point_suite;
extern struct kunit_suite kstats_pair_suite;
extern struct kunit_suite kstats_family_suite;
extern struct kunit_suite kstats_btf_suite;
extern struct kunit_suite kstats_outlier_suite;

/* A distribution of clock none, asserted made. */
static inline struct kstats *test_new(struct kunit *test, const char *name,
				      unsigned int bits, u64 max_value)
{
	struct kstats_config cfg = {
		.name = name,
		.frac_bits = bits,
		.clock = KSTATS_CLOCK_NONE,
		.max_value = max_value,
	};
	struct kstats *ks = kstats_new_config(&cfg);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ks), "kstats_new_config: %ld",
			       PTR_ERR(ks));
	return ks;
}

/* A snapshot of @ks and its summary, asserted taken. */
static inline void take(struct kunit *test, struct kstats *ks,
			struct kstats_snapshot *snap, struct kstats_summary *sum)
{
	KUNIT_ASSERT_EQ(test, kstats_snapshot_take(ks, snap), 0);
	kstats_snapshot_summary(snap, sum);
}

/* @text parsed as a _control command into @cmd: its return. */
static inline int parse(struct kunit *test, const char *text,
			struct kstats_cmd *cmd)
{
	char *buf = kunit_kzalloc(test, KSTATS_CMD_MAX + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, text, KSTATS_CMD_MAX + 1);
	return kstats_parse_command(buf, cmd);
}

#endif /* _KSTATS_TEST_H */
