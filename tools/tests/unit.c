// SPDX-License-Identifier: GPL-2.0
/*
 * unit - tests of the tool's computations, built with ASan/UBSan.
 *   unit FIXTURE...   (each fixture: recomputed summary == "# summary")
 * Prints "ok - ..." / "not ok - ..." and a last line "unit P F".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

static int passed, failed;

static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	if (cond)
		passed++;
	else
		failed++;
}

static struct kslot mk(u32 slot, unsigned int k, u64 count)
{
	u64 lo = kstats_slot_lo(slot, k), hi = kstats_slot_hi(slot, k);

	return (struct kslot){ .slot = slot, .lo = lo, .hi = hi,
			       .count = count, .avg = lo + (hi - lo) / 2 };
}

static void test_percentiles(void)
{
	/* frac_bits 0: slots 1 [1,1], 5 [16,31], 7 [64,127], 10 [512,1023] */
	struct kslot s[] = { mk(1, 0, 1), mk(5, 0, 49), mk(7, 0, 49),
			     mk(10, 0, 1) };
	struct ksummary r;

	hist_summary(s, 4, &r);
	check(r.samples == 100, "percentiles: count");
	check(r.min == 1 && r.max == 1023, "percentiles: min lo, max hi");
	/* rank ceil(100*0.5)=50: the 50th sample is in slot 5 -> hi 31 */
	check(r.p50 == 31, "percentiles: p50 is the hi of the rank-50 slot");
	check(r.p90 == 127 && r.p99 == 127, "percentiles: p90, p99");
	/* rank ceil(100*0.999)=100: the last sample, slot 10 */
	check(r.p999 == 1023, "percentiles: p99.9 uses ceil(N*q)");
	/* mean from slot averages: (1 + 49*23 + 49*95 + 767) / 100 = 65 */
	check(r.mean == 65, "percentiles: mean from slot averages");

	struct kslot one[] = { mk(40, 3, 1) };

	hist_summary(one, 1, &r);
	check(r.p50 == r.max && r.p999 == r.max && r.min == one[0].lo,
	      "percentiles: a single sample");
	hist_summary(one, 0, &r);
	check(r.samples == 0 && r.p99 == 0 && r.mean == 0,
	      "percentiles: no samples, all 0");
}

static void test_ks(void)
{
	check(fabs(ks_pvalue(1.3581) - 0.05) < 0.0005, "ks: Q(1.358) = 0.05");
	check(fabs(ks_pvalue(1.2238) - 0.10) < 0.0005, "ks: Q(1.224) = 0.10");
	check(fabs(ks_pvalue(1.6276) - 0.01) < 0.0002, "ks: Q(1.628) = 0.01");
	check(fabs(ks_pvalue(0.5) - 0.9639) < 0.0005, "ks: Q(0.5) = 0.964");
	check(ks_pvalue(0) == 1 && ks_pvalue(10) < 1e-80, "ks: limits");
}

static void test_delta_rebin(void)
{
	struct kslot a[] = { mk(8, 3, 10), mk(20, 3, 5) };
	struct kslot b[] = { mk(8, 3, 15), mk(20, 3, 5), mk(30, 3, 2) };
	struct kslot *d, *r;
	size_t n;
	int reset;

	d = hist_delta(b, 3, a, 2, &n, &reset);
	check(d && !reset && n == 2 && d[0].slot == 8 && d[0].count == 5 &&
	      d[1].slot == 30 && d[1].count == 2, "delta: slot by slot");
	free(d);
	d = hist_delta(a, 2, b, 3, &n, &reset);
	check(d && reset && n == 2 && d[0].count == 10,
	      "delta: counts going down is a reset");
	free(d);
	r = hist_rebin(b, 3, 3, 0, &n);
	check(r && hist_total(r, n) == 22 && r[0].lo == kstats_slot_lo(kstats_slot(b[0].lo, 0), 0),
	      "rebin: 3 -> 0 keeps counts, coarse bounds");
	for (size_t i = 0; r && i < n; i++)
		check(r[i].avg >= r[i].lo && r[i].avg <= r[i].hi,
		      "rebin: averages stay in their slots");
	free(r);
}

static void test_units(void)
{
	char b[32];

	check(!strcmp(fmt_value(b, sizeof(b), 999, "ns"), "999ns"), "units: 999ns");
	check(!strcmp(fmt_value(b, sizeof(b), 1000, "ns"), "1us"), "units: 1us");
	check(!strcmp(fmt_value(b, sizeof(b), 1023, "ns"), "1.023us"), "units: 1.023us");
	check(!strcmp(fmt_value(b, sizeof(b), 1500000, "ns"), "1.5ms"), "units: 1.5ms");
	check(!strcmp(fmt_value(b, sizeof(b), 1999999, "ns"), "2ms"), "units: rounding");
	check(!strcmp(fmt_value(b, sizeof(b), 3000000000ULL, "ns"), "3s"), "units: 3s");
	check(!strcmp(fmt_value(b, sizeof(b), 1023, "cycles"), "1023"), "units: cycles raw");
	check(!strcmp(fmt_value(b, sizeof(b), ~0ULL, "ns"), "inf"), "units: inf");
	check(!strcmp(fmt_bound(b, sizeof(b), 1023, "ns"), "1.024us"), "units: bound hi+1");
}

/* The summary recomputed from the slot rows equals the kernel's line. */
static void test_fixture(const char *path)
{
	struct snapshot s;
	struct ksummary r;
	char err[512], what[600];

	if (snapshot_load(&s, path, err, sizeof(err))) {
		snprintf(what, sizeof(what), "fixture %s parses: %s", path, err);
		check(0, what);
		return;
	}
	hist_summary(s.slots, s.nslots, &r);
	snprintf(what, sizeof(what), "fixture %s: recomputed summary == # summary",
		 path);
	check(r.samples == s.summary.samples && r.min == s.summary.min &&
	      r.p50 == s.summary.p50 && r.p90 == s.summary.p90 &&
	      r.p99 == s.summary.p99 && r.p999 == s.summary.p999 &&
	      r.max == s.summary.max && r.mean <= s.summary.mean &&
	      (!r.samples || s.summary.mean - r.mean <= 1 ||
	       s.has_range), what);
	snapshot_free(&s);
}

int main(int argc, char **argv)
{
	test_percentiles();
	test_ks();
	test_delta_rebin();
	test_units();
	for (int i = 1; i < argc; i++)
		test_fixture(argv[i]);
	printf("unit %d %d\n", passed, failed);
	return failed != 0;
}
