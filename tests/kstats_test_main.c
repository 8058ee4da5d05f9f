// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kstats, built as kstats_test.ko against kstats.ko: a
 * suite per concern, each in its own file (kstats_NAME_test.c, suite
 * kstats_NAME), so that a failing suite names the file it tests.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "kstats.h"
#include "kstats_test.h"

kunit_test_suites(&kstats_core_suite, &kstats_cmd_suite, &kstats_point_suite,
		  &kstats_pair_suite, &kstats_family_suite, &kstats_btf_suite,
		  &kstats_outlier_suite);

MODULE_DESCRIPTION("KUnit tests of kstats");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSTATS_NS);
