// SPDX-License-Identifier: GPL-2.0
/*
 * unit - tests of the tool's computations, built with ASan/UBSan.
 *   unit FIXTURE...   (each fixture: recomputed summary == "# summary")
 *   unit --btf-dir DIR   write the test BTF as DIR/vmlinux and a module's
 *                        DIR/kmod (split on it), for the command's tests
 * Prints "ok - ..." / "not ok - ..." and a last line "unit P F".
 */
#define _GNU_SOURCE	/* open_memstream() */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "btf.h"
#include "grammar.h"
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
	/*
	 * min and max within the lowest and the highest slot (exact, or
	 * their bounds), each percentile its slot's hi or max if smaller
	 */
#define CAP(p) ((p) < s.summary.max ? (p) : s.summary.max)
	check(r.samples == s.summary.samples &&
	      (!r.samples || (s.summary.min >= r.min &&
			      s.summary.min <= s.slots[0].hi &&
			      s.summary.max <= r.max &&
			      s.summary.max >= s.slots[s.nslots - 1].lo)) &&
	      CAP(r.p50) == s.summary.p50 && CAP(r.p90) == s.summary.p90 &&
	      CAP(r.p99) == s.summary.p99 && CAP(r.p999) == s.summary.p999 &&
	      r.mean <= s.summary.mean &&
	      (!r.samples || s.summary.mean - r.mean <= 1 ||
	       s.has_range || s.summary.mean == s.summary.min), what);
#undef CAP
	snapshot_free(&s);
}

/* --- values: the snapshot lines and their printing ------------------- */

static const char value_snap[] =
	"# name ksys_read clock none unit value frac_bits 3 state active cpus 2 samples 3 missed 0\n"
	"# source mechanism fprobe target ksys_read maxactive 0\n"
	"# value ret:s4\n"
	"# filter pid 1 comm kvalue if arg0:4 == 3 if ret > -0x10\n"
	"# negative samples 8 min -5000 max -9\n"
	"# summary samples 3 min 96 p50 103 p90 103 p99 103 p99.9 103 max 103 mean 100\n"
	"slot 36 CPU 0 count 3 avg 100 p 1.000000 lo 96 hi 103\n"
	"slot 36 CPUS 2 count 3 avg 100 p 1.000000 lo 96 hi 103\n"
	"errno 9 count 1\n"
	"errno 11 count 5\n";

static int parse(struct snapshot *s, const char *text, char *err,
		 size_t errlen)
{
	return snapshot_parse(s, text, strlen(text), "t", err, errlen);
}

/* @base with @from replaced by @to, into @text; -1 if @from is not in it. */
static int edited(const char *base, const char *from, const char *to,
		  char *text, size_t len)
{
	const char *at = strstr(base, from);

	if (!at) {
		check(0, from);
		return -1;
	}
	snprintf(text, len, "%.*s%s%s", (int)(at - base), base, to,
		 at + strlen(from));
	return 0;
}

/* The parse of an edit (@r, @err) is what @want says: parsed, or that error. */
static void edit_verdict(const char *what, const char *from, const char *to,
			 const char *want, int r, const char *err)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s: '%s' -> '%s': %s (got '%s')", what,
		 from, to, want ? want : "parses", r ? err : "parsed");
	for (char *c = msg; *c; c++)
		*c = *c == '\n' ? '|' : *c;
	check(want ? r && !strcmp(err, want) : !r, msg);
}

/* @base with @from replaced by @to parses, or fails with @want. */
static void edit_check(const char *base, const char *from, const char *to,
		       const char *want)
{
	char text[2048], err[512] = "";
	struct snapshot s;
	int r;

	if (edited(base, from, to, text, sizeof(text)))
		return;
	r = parse(&s, text, err, sizeof(err));
	if (!r)
		snapshot_free(&s);
	edit_verdict("values", from, to, want, r, err);
}

static void snap_edit(const char *from, const char *to, const char *want)
{
	edit_check(value_snap, from, to, want);
}

static void test_value_lines(void)
{
	static const char *const good[] = { "ret", "ret:s4", "arg11",
		"arg0:1", "arg3+0:8", "arg0+32:8+80:8", "arg0+0:8+8:8+16:8+24:s2",
		"ret-16:4", "arg2:8" };
	static const char *const bad[] = { "", "arg12", "arg01", "ret:3",
		"ret:s8", "arg0+8:4+0:8", "arg0+0:8+0:8+0:8+0:8+0:8",
		"arg0+2147483648:8", "arg0+:8", "arg0+8", "args", "ret ",
		"arg0+08:8" };
	struct snapshot s;
	char err[512];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(err, sizeof(err), "values: '%s' is a value", good[i]);
		check(valid_value(good[i]), err);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(err, sizeof(err), "values: '%s' is no value", bad[i]);
		check(!valid_value(bad[i]), err);
	}

	check(!parse(&s, value_snap, err, sizeof(err)), "values: parses");
	check(!strcmp(s.value, "ret:s4") &&
	      !strcmp(s.filter, "pid 1 comm kvalue if arg0:4 == 3 if ret > -0x10") &&
	      s.has_negative && s.neg_samples == 8 && s.neg_min == -5000 &&
	      s.neg_max == -9 && s.nerrnos == 2 && s.errnos[0].err == 9 &&
	      s.errnos[0].count == 1 && s.errnos[1].err == 11 &&
	      s.errnos[1].count == 5 && s.samples == 3,
	      "values: value, filter, negative line and errno rows kept");
	snapshot_free(&s);
	snap_edit("errno 9 count 1\n", "", NULL);
	snap_edit("# filter pid 1 comm kvalue if arg0:4 == 3 if ret > -0x10\n", "", NULL);
	snap_edit("clock none unit value", "clock ktime unit ns",
		  "t:3: '# value' is for clock none, not ktime");
	snap_edit("# value ret:s4", "# value arg12",
		  "t:3: '# value' must be one value: ret or argN, a cast, at most 4 reads (+OFF:SIZE)");
	snap_edit("# value ret:s4", "# value ret:s4 x",
		  "t:3: '# value' must be one value: ret or argN, a cast, at most 4 reads (+OFF:SIZE)");
	snap_edit("pid 1 comm kvalue", "comm kvalue pid 1",
		  "t:4: filter 'pid' twice or out of order (pid tid comm cpu cgroup, then the ifs)");
	snap_edit("arg0:4 == 3", "arg0:4 => 3",
		  "t:4: 'if': unknown operator '=>' (== != < <= > >= &)");
	snap_edit("if ret > -0x10", "if ret > 0x",
		  "t:4: 'if': '0x' is not a decimal or 0x-hex number");
	snap_edit("if ret > -0x10", "if ret > -0x10 if ret > 1 if ret > 2 if ret > 3",
		  "t:4: more than 4 'if' filters");
	snap_edit("if ret > -0x10", "if ret >",
		  "t:4: 'if' filter must be 'if V OP C'");
	snap_edit("comm kvalue", "comm 0123456789abcdef",
		  "t:4: comm '0123456789abcdef...' longer than 15 characters");
	snap_edit("pid 1", "pid -1", "t:4: pid '-1' is not a number 0..2147483647");
	snap_edit("pid 1", "uid 1",
		  "t:4: unknown filter 'uid' (pid, tid, comm, cpu, cgroup or if)");
	/* cgroup PATH (\xHH escapes) or id:N, after cpu, before the ifs */
	snap_edit("comm kvalue", "comm kvalue cgroup /system.slice/a\\x20b.service", NULL);
	snap_edit("comm kvalue", "comm kvalue cgroup id:12", NULL);
	snap_edit("comm kvalue", "comm kvalue cgroup /", NULL);
	snap_edit("pid 1 comm kvalue", "cgroup /a pid 1 comm kvalue",
		  "t:4: filter 'pid' twice or out of order (pid tid comm cpu cgroup, then the ifs)");
	snap_edit("comm kvalue", "comm kvalue cgroup a/b",
		  "t:4: cgroup 'a/b': not a cgroup path (/..., \\xHH escapes) or id:N");
	snap_edit("comm kvalue", "comm kvalue cgroup /a\\x2",
		  "t:4: cgroup '/a\\x2': not a cgroup path (/..., \\xHH escapes) or id:N");
	snap_edit("comm kvalue", "comm kvalue cgroup id:x",
		  "t:4: cgroup 'id:x': not a cgroup path (/..., \\xHH escapes) or id:N");
	/* what a live read can show while samples go on: accepted */
	snap_edit("min -5000 max -9", "min -9 max -5000", NULL);
	snap_edit("min -5000 max -9", "min 0 max -9223372036854775808", NULL);
	snap_edit("samples 8 min", "samples 5 min", NULL);
	snap_edit("max -9", "max -10", NULL);
	snap_edit("min -5000 max -9", "min -5000 max 0",
		  "t:5: negative min -5000 max 0: need min <= 0 and max < 0");
	snap_edit("min -5000 max -9", "min 1 max -9",
		  "t:5: negative min 1 max -9: need min <= 0 and max < 0");
	snap_edit("min -5000 max -9", "min -9223372036854775809 max -9",
		  "t:5: negative min and max must be signed integers");
	snap_edit("samples 8 min -5000 max -9", "samples 0 min -5000 max -9",
		  "t:5: negative min and max must be 0 with no samples");
	snap_edit("# negative samples 8 min -5000 max -9\n", "",
		  "t:8: errno row without a '# negative' line");
	snap_edit("errno 9 count 1\nerrno 11 count 5\n", "",
		  NULL);
	{
		char noerr[sizeof(value_snap)];

		snprintf(noerr, sizeof(noerr), "%.*s",
			 (int)(strstr(value_snap, "errno 9") - value_snap),
			 value_snap);
		edit_check(noerr, "# negative samples 8 min -5000 max -9\n", "",
			   "t:3: '# value' without a '# negative' line");
		edit_check(noerr, "# value ret:s4\n", "", NULL);
		edit_check(noerr, "# negative samples 8 min -5000 max -9\n",
			   "# negative samples 0 min 0 max 0\n", NULL);
	}
	snap_edit("# negative samples 8 min -5000 max -9\n", "# negative samples 0 min 0 max 0\n",
		  NULL);
	snap_edit("clock none unit value frac_bits 3 state active cpus 2 samples 3 missed 0\n"
		  "# source mechanism fprobe target ksys_read maxactive 0\n# value ret:s4\n",
		  "clock ktime unit ns frac_bits 3 state active cpus 2 samples 3 missed 0\n"
		  "# source mechanism api\n", NULL);	/* an API node's negatives */
	snap_edit("errno 9 count 1\nerrno 11 count 5\n", "errno 11 count 5\nerrno 9 count 1\n",
		  "t:10: errno 9 not in increasing order");
	snap_edit("errno 9 count 1", "errno 9 count 0",
		  "t:9: errno count 0: only errnos seen are printed");
	snap_edit("errno 9 count 1", "errno 4096 count 1",
		  "t:9: errno 4096 out of range 1..4095");
	snap_edit("errno 9 count 1", "errno 9 count",
		  "t:9: errno row must be 'errno E count N'");
	snap_edit("slot 36 CPUS 2 count 3 avg 100 p 1.000000 lo 96 hi 103\nerrno 9 count 1\n",
		  "errno 9 count 1\nslot 36 CPUS 2 count 3 avg 100 p 1.000000 lo 96 hi 103\n",
		  "t:8: CPU rows of slot 36 not followed by its CPUS row");
	snap_edit("errno 11 count 5\n", "errno 11 count 5\nslot 40 CPU 0 count 1 avg 128 p 1.000000 lo 128 hi 143\n",
		  "t:11: slot row after the errno rows");
	snap_edit("# negative samples 8 min -5000 max -9\n", "# negative samples 8 min -5000 max -9\n# negative samples 8 min -5000 max -9\n",
		  "t:6: second '# negative' line");
	snap_edit("# summary", "# value ret\n# summary", "t:6: second '# value' line");
}

/* The negative line and errno rows as show and trace -i print them. */
static void test_value_print(void)
{
	struct snapshot s;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (parse(&s, value_snap, err, sizeof(err))) {
		check(0, err);
		return;
	}
	f = open_memstream(&buf, &len);
	print_negative(f, &s, NULL);
	fclose(f);
	check(!strcmp(buf, "negative: 8 samples, min -5000, max -9 (not in the histogram)\n"
			   "errno EBADF (9): 1\nerrno EAGAIN (11): 5\n"),
	      "values: negative line and errno names");
	free(buf);
	{
		struct snapshot p = s;
		struct kerrno pe[] = { { 9, 1 }, { 11, 2 } };

		p.errnos = pe;
		p.neg_samples = 4;
		f = open_memstream(&buf, &len);
		print_negative(f, &s, &p);
		fclose(f);
		check(!strcmp(buf, "negative: 4 samples (not in the histogram)\n"
				   "errno EAGAIN (11): 3\n"),
		      "values: negative and errno deltas of an interval");
		free(buf);
		pe[1].count = 6;	/* went down: a reset, all again */
		f = open_memstream(&buf, &len);
		print_negative(f, &s, &p);
		fclose(f);
		check(!strncmp(buf, "negative: 8 samples, min", 24),
		      "values: a reset prints the totals");
		free(buf);
	}
	snapshot_free(&s);
	check(!strcmp(errno_name(11), "EAGAIN") && !strcmp(errno_name(512), "ERESTARTSYS") &&
	      !strcmp(errno_name(524), "ENOTSUPP") && !errno_name(520) &&
	      !errno_name(4000), "values: errno names, the kernel's own too");
}

/* --- families: a node split by a key ------------------------------------ */

static const char family_snap[] =
	"# name vr clock none unit value frac_bits 3 state active cpus 2 samples 305 missed 0\n"
	"# source mechanism fprobe function vfs_read value arg2\n"
	"# value arg2\n"
	"# negative samples 3 min -14 max -14\n"
	"# family by comm max 64 keys 2 other 5 key_bytes 7936 future 1\n"
	"# summary samples 305 min 12 p50 4607 p90 4607 p99 4607 p99.9 4607 max 4607 mean 3149\n"
	"key kvalue samples 200\n"
	"slot 80 CPUS 2 count 200 avg 4096 p 1.000000 lo 4096 hi 4607\n"
	"key a\\x20b\\x5c samples 100\n"
	"slot 64 CPUS 2 count 60 avg 1024 p 0.600000 lo 1024 hi 1151\n"
	"slot 71 CPUS 2 count 40 avg 2000 p 1.000000 lo 1920 hi 2047\n"
	"key other samples 5\n"
	"slot 12 CPUS 2 count 5 avg 12 p 1.000000 lo 12 hi 12\n"
	"errno 14 count 3\n";

static void fam_edit(const char *from, const char *to, const char *want)
{
	edit_check(family_snap, from, to, want);
}

static void test_family_parse(void)
{
	struct snapshot s;
	char err[512], raw[16];
	size_t n;

	check(!parse(&s, family_snap, err, sizeof(err)), "family: parses");
	check(s.is_family && !strcmp(s.family.by, "comm") && s.family.max == 64 &&
	      s.family.keys == 2 && s.family.other == 5 &&
	      s.family.key_bytes == 7936, "family: the # family line, an unknown pair ignored");
	check(s.nkeys == 3 && !strcmp(s.keys[0].text, "kvalue") &&
	      s.keys[0].samples == 200 && s.keys[0].nslots == 1 &&
	      !strcmp(s.keys[1].text, "a\\x20b\\x5c") && s.keys[1].rawlen == 4 &&
	      !memcmp(s.keys[1].raw, "a b\\", 4) && s.keys[1].samples == 100 &&
	      s.keys[1].nslots == 2 && s.keys[1].slots[1].count == 40 &&
	      s.keys[2].other && s.keys[2].samples == 5 && !s.keys[0].other,
	      "family: keys largest first, their slots, the comm unescaped, other");
	check(s.nslots == 4 && s.slots[0].slot == 12 && s.slots[3].slot == 80 &&
	      s.slots[3].count == 200 && hist_total(s.slots, s.nslots) == 305 &&
	      !s.nrows && s.nerrnos == 1, "family: the total is the keys' slots summed, no CPU rows");
	snapshot_free(&s);
	check(!key_unescape("x\\x09\\x7fY", raw, sizeof(raw), &n) && n == 4 &&
	      !memcmp(raw, "x\t\x7fY", 4), "family: \\xHH unescaped");
	check(key_unescape("a\\x2", raw, sizeof(raw), &n) &&
	      key_unescape("a\\y20", raw, sizeof(raw), &n) &&
	      key_unescape("a\\", raw, sizeof(raw), &n) &&
	      key_unescape("0123456789abcdef", raw, sizeof(raw), &n),
	      "family: bad escapes and too long a comm refused");
	fam_edit("by comm", "by arg1+8:4", "t:7: key 'kvalue': not a decimal number (the family is by arg1+8:4)");
	fam_edit("by comm", "by bogus", "t:5: '# family by bogus': not a key (comm, pid, tid, cpu, key or a value)");
	fam_edit(" key_bytes 7936", "", "t:5: '# family' line lacks 'key_bytes'");
	fam_edit("key kvalue", "key a\\x20b\\x5c", "t:9: key a\\x20b\\x5c twice");
	fam_edit("key a\\x20b\\x5c", "key a\\xg0b", "t:9: key 'a\\xg0b': not a comm (at most 15 bytes, \\xHH escapes)");
	fam_edit("count 40 avg 2000 p 1.000000", "count 39 avg 2000 p 1.000000",
		 "t:11: slot 71 of key a\\x20b\\x5c: p is not the cumulative fraction within the key");
	fam_edit("key kvalue samples 200\n", "", "t:7: slot row outside a key block in a family");
	fam_edit("key other samples 5\nslot 12 CPUS 2 count 5 avg 12 p 1.000000 lo 12 hi 12\n", "",
		 "t:1: header samples 305 but the keys add up to 300");
	fam_edit("slot 80 CPUS 2", "slot 80 CPU 1", "t:8: CPU row in a family: a key has only 'slot S CPUS N' rows");
	fam_edit("errno 14 count 3\n", "errno 14 count 3\nkey x samples 1\n", "t:15: key block after the errno rows");
	fam_edit("key kvalue samples 200", "key kvalue samples 0", "t:7: key kvalue with 0 samples: only keys with samples are printed");
	fam_edit("keys 2", "keys 1", "t:5: family keys 1 but 2 keys are printed");
	fam_edit("keys 2", "keys 3", NULL);	/* a key whose samples are not yet */
	fam_edit("mean 3149", "mean 3151", "t:6: summary mean 3151 is impossible for the slot averages (3149..3150)");
}

/* A family made by kernel code: keys are kstats_record_key()'s u64. */
static const char key_family_snap[] =
	"# name ew clock ktime unit ns frac_bits 3 state active cpus 2 samples 30 missed 0\n"
	"# source mechanism api\n"
	"# family by key max 16 keys 2 other 0 key_bytes 7936\n"
	"# summary samples 30 min 1024 p50 1151 p90 2047 p99 2047 p99.9 2047 max 2047 mean 1349\n"
	"key 18446744073709551615 samples 20\n"
	"slot 64 CPUS 2 count 20 avg 1024 p 1.000000 lo 1024 hi 1151\n"
	"key 64 samples 10\n"
	"slot 71 CPUS 2 count 10 avg 2000 p 1.000000 lo 1920 hi 2047\n";

static void test_key_family_parse(void)
{
	struct snapshot s;
	char err[512] = "";
	int r = parse(&s, key_family_snap, err, sizeof(err));

	check(!r && s.is_family && !strcmp(s.family.by, "key") && s.nkeys == 2 &&
	      !strcmp(s.keys[0].text, "18446744073709551615") &&
	      s.keys[0].samples == 20 && !strcmp(s.keys[1].raw, "64") &&
	      s.keys[1].samples == 10, "key family: by key, u64 keys up to 2^64 - 1");
	if (r)
		printf("# %s\n", err);
	else
		snapshot_free(&s);
	edit_check(key_family_snap, "key 64 samples", "key -64 samples",
		   "t:7: key '-64': not an unsigned decimal number (the family is by key)");
	edit_check(key_family_snap, "key 64 samples", "key 064 samples",
		   "t:7: key '064': not an unsigned decimal number (the family is by key)");
	edit_check(key_family_snap, "key 18446744073709551615", "key 18446744073709551616",
		   "t:5: key '18446744073709551616': not an unsigned decimal number (the family is by key)");
}

/* A trace node's outliers, after its rows, as the module prints them. */
static const char outliers_snap[] =
	"# name w clock ktime unit ns frac_bits 3 state active cpus 2 samples 3 missed 0\n"
	"# source mechanism fprobe target kstats_lifetime_work maxactive 0 floor_p50 0\n"
	"# summary samples 3 min 20971520 p50 23068671 p90 23068671 p99 23068671 p99.9 23068671 max 23068671 mean 21000000\n"
	"slot 178 CPU 0 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671\n"
	"slot 178 CPUS 2 count 3 avg 21000000 p 1.000000 lo 20971520 hi 23068671\n"
	"# outliers slow 10000000 keep 256 kept 2 dropped 1 stack 3\n"
	"outlier 21000000 time 100 cpu 0 pid 7 tid 8 comm kload stack do_syscall_64+0x87;lt_slow_caller+0xf [kstats_lifetime];kstats_lifetime_work+0x5 [kstats_lifetime]\n"
	"outlier 22000000 time 200 cpu 1 pid 7 tid 9 comm stack key other stack a+0x1\n";

static void test_outliers_parse(void)
{
	struct snapshot s;
	char err[512] = "", *out = NULL;
	size_t len = 0;
	FILE *f;
	int r = parse(&s, outliers_snap, err, sizeof(err));

	check(!r && s.noutliers == 2 && s.outliers[0].value == 21000000 &&
	      s.outliers[0].time == 100 && s.outliers[0].cpu == 0 &&
	      s.outliers[0].pid == 7 && s.outliers[0].tid == 8 &&
	      !strcmp(s.outliers[0].comm, "kload") && !s.outliers[0].key &&
	      s.outliers[0].nframes == 3 &&
	      !strcmp(s.outliers[0].frames[1], "lt_slow_caller+0xf [kstats_lifetime]") &&
	      !strcmp(s.outliers[1].comm, "stack") &&
	      !strcmp(s.outliers[1].key, "other") && s.outliers[1].nframes == 1,
	      "outliers: the lines parse, a module's frame with its space, a task named stack");
	if (r) {
		printf("# %s\n", err);
		return;
	}
	f = open_memstream(&out, &len);
	print_show(f, &s, 0, 0);
	fclose(f);
	check(out && strstr(out, "\noutliers: slow 10000000 keep 256 kept 2 dropped 1 stack 3\n") &&
	      strstr(out, "        21ms              100     0        7        8  kload\n"
			  "        kstats_lifetime_work+0x5 [kstats_lifetime]\n"
			  "        lt_slow_caller+0xf [kstats_lifetime]\n"
			  "        do_syscall_64+0x87\n"),
	      "outliers: show prints them under the histogram, innermost frame first");
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	json_snapshot(f, &s, 0);
	fclose(f);
	check(out && strstr(out, "\"outliers\": [{\"value\": 21000000, \"time_ns\": 100, "
			  "\"cpu\": 0, \"pid\": 7, \"tid\": 8, \"comm\": \"kload\", \"key\": null, "
			  "\"stack\": [\"do_syscall_64+0x87\", \"lt_slow_caller+0xf [kstats_lifetime]\", "
			  "\"kstats_lifetime_work+0x5 [kstats_lifetime]\"]}, {\"value\": 22000000"),
	      "outliers: --json, the frames root first");
	free(out);
	snapshot_free(&s);
	edit_check(outliers_snap, "kept 2", "kept 3",
		   "t: '# outliers' says kept 3, 2 outlier lines follow");
	edit_check(outliers_snap, "time 200", "time -2", "t:8: outlier time '-2' is not valid");
	edit_check(outliers_snap, "cpu 1 pid", "pid 1 cpu", "t:8: outlier line: 'cpu' expected");
	edit_check(outliers_snap, "stack a+0x1", "stack a+0x1;;b", "t:8: outlier line: an empty frame");
	edit_check(outliers_snap, "comm stack key other", "comm x bogus 1",
		   "t:8: outlier line: unexpected 'bogus'");
	edit_check(outliers_snap, "# outliers slow", "# outliers fast",
		   "t:6: '# outliers' must be '# outliers slow V ...' or '# outliers top K ...'");
	edit_check(outliers_snap, "dropped 1 stack 3\n", "dropped 1 stack 3\nslot 1 CPUS 2\n",
		   "t:7: only outlier lines may follow '# outliers'");
}

/* The names the recipes give keys: vectors, calls, IRQs, disks. */
static void test_key_names(void)
{
	static const char interrupts[] =
		"           CPU0       CPU1\n"
		"  0:         44          0   IO-APIC   2-edge      timer\n"
		" 24:          0         12  PCI-MSI 327680-edge      xhci_hcd\n"
		"NMI:          0          0   Non-maskable interrupts\n";
	struct kkey k = { .text = "1" };
	char buf[64], dir[] = "/tmp/kstats-unit-XXXXXX", path[128];
	FILE *f;

	check(!strcmp(softirq_name(1), "TIMER") && !strcmp(softirq_name(0), "HI") &&
	      !strcmp(softirq_name(9), "RCU") && !softirq_name(10) && !softirq_name(-1),
	      "keys: softirq vector 1 is TIMER, 0 HI, 9 RCU, 10 none");
	check(!strcmp(key_label(&k, KEYS_SOFTIRQ, buf, sizeof(buf)), "TIMER") &&
	      !strcmp(key_label(&k, KEYS_RAW, buf, sizeof(buf)), "1"),
	      "keys: a softirq family's key 1 shown as TIMER");
	check(syscall_nr("clock_nanosleep") >= 0 &&
	      !strcmp(syscall_name(syscall_nr("clock_nanosleep")), "clock_nanosleep") &&
	      !strcmp(syscall_name(syscall_nr("getppid")), "getppid") &&
	      !syscall_name(-1), "keys: a system call's number to its name and back");
	f = fmemopen((void *)interrupts, sizeof(interrupts) - 1, "r");
	check(f && !irq_name(f, 24, buf, sizeof(buf)) && !strcmp(buf, "xhci_hcd"),
	      "keys: IRQ 24's name, the last column of /proc/interrupts");
	if (f)
		fclose(f);
	f = fmemopen((void *)interrupts, sizeof(interrupts) - 1, "r");
	check(f && irq_name(f, 2, buf, sizeof(buf)), "keys: an IRQ not listed has no name");
	if (f)
		fclose(f);
	if (mkdtemp(dir)) {
		snprintf(path, sizeof(path), "%s/8:16", dir);
		mkdir(path, 0700);
		snprintf(path, sizeof(path), "%s/8:16/uevent", dir);
		f = fopen(path, "w");
		if (f) {
			fputs("MAJOR=8\nMINOR=16\nDEVNAME=sdb\n", f);
			fclose(f);
		}
		disk_name(dir, 8ULL << 20 | 16, buf, sizeof(buf));
		check(!strcmp(buf, "sdb"), "keys: dev_t 8 << 20 | 16 is the disk sdb (DEVNAME)");
		disk_name(dir, 259ULL << 20 | 3, buf, sizeof(buf));
		check(!strcmp(buf, "259:3"), "keys: an unknown disk as MAJ:MIN");
		unlink(path);
		snprintf(path, sizeof(path), "%s/8:16", dir);
		rmdir(path);
		rmdir(dir);
	}
}

/* --- values: BTF translation ------------------------------------------- */

/* The types of a small kernel: ids of what the tests name. */
struct tbtf {
	struct btf *b;
	int file;
};

static int add_proto(struct btf *b, int ret, const char *const *names,
		     const int *types, int n)
{
	int id = btf__add_func_proto(b, ret);

	for (int i = 0; i < n; i++)
		btf__add_func_param(b, names[i], types[i]);
	return id;
}

/*
 *   struct inode { unsigned short i_mode; short i_prio; unsigned int
 *                  i_flags:3; long long i_blocks[4]; loff_t i_size;
 *                  char *i_name; }                                 (96)
 *   struct fown { int pid; unsigned int uid; struct inode *owner; } (16)
 *   struct file { unsigned int f_flags; struct fown f_owner;
 *                 struct inode *f_inode; union { long f_count;
 *                 void *f_private; }; _Bool f_ok; enum state f_state;
 *                 double f_weight; struct file *f_next; }           (72)
 *   ssize_t vfs_read(struct file *file, char *buf, size_t count,
 *                    loff_t *pos);
 *   ssize_t ksys_read(unsigned int fd, char *buf, size_t count);
 *   int do_thing(int a, unsigned int b, short c, unsigned char d,
 *                void *e, struct file *f, _Bool g, __int128 h, long i);
 *   void noret(struct file *file);
 *   long many(long a0, ..., long a12);
 *   long bystruct(struct fown s, long x, struct big b, long y);
 *   long fwdfn(struct opaque *o);             (struct opaque: declared)
 *   btf_trace_x: void (*)(void *__data, struct file *file, int err)
 *   btf_trace_y: void (*)(void *, struct inode *), names from
 *                int __traceiter_y(void *__data, struct inode *inode)
 *   btf_trace_z: void (*)(void *, struct inode *), no names
 *   struct task { int pid; char comm[16]; char *name; }             (32)
 *   btf_trace_w: void (*)(void *__data, struct task *p)
 * (char is signed here, to see :s1.)
 */
static struct tbtf test_btf(void)
{
	struct btf *b = btf__new_empty();
	struct tbtf r = { .b = b };
	int t_int, t_uint, t_short, t_ushort, t_uchar, t_char, t_long, t_ulong;
	int t_ll, t_bool, t_i128, t_dbl, t_size, t_ssize, t_loff, t_voidp;
	int t_charp, t_loffp, t_state, t_arr, t_inode, t_inodep, t_fown;
	int t_anon, t_filep, t_big, t_fwd, t_fwdp, pr, td, t_task;

	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	t_uint = btf__add_int(b, "unsigned int", 4, 0);
	t_short = btf__add_int(b, "short", 2, BTF_INT_SIGNED);
	t_ushort = btf__add_int(b, "unsigned short", 2, 0);
	t_uchar = btf__add_int(b, "unsigned char", 1, 0);
	t_char = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	t_long = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	t_ulong = btf__add_int(b, "unsigned long", 8, 0);
	t_ll = btf__add_int(b, "long long", 8, BTF_INT_SIGNED);
	t_bool = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	t_i128 = btf__add_int(b, "__int128", 16, BTF_INT_SIGNED);
	t_dbl = btf__add_float(b, "double", 8);
	t_size = btf__add_typedef(b, "size_t", t_ulong);
	t_ssize = btf__add_typedef(b, "ssize_t", t_long);
	t_loff = btf__add_typedef(b, "loff_t", t_ll);
	t_voidp = btf__add_ptr(b, 0);
	t_charp = btf__add_ptr(b, t_char);
	t_loffp = btf__add_ptr(b, btf__add_const(b, t_loff));
	t_state = btf__add_enum(b, "state", 4);
	btf__add_enum_value(b, "ST_OPEN", 0);
	t_arr = btf__add_array(b, t_int, t_ll, 4);

	t_inode = btf__add_struct(b, "inode", 96);
	btf__add_field(b, "i_mode", t_ushort, 0, 0);
	btf__add_field(b, "i_prio", t_short, 16, 0);
	btf__add_field(b, "i_flags", t_uint, 32, 3);
	btf__add_field(b, "i_blocks", t_arr, 128, 0);
	btf__add_field(b, "i_size", t_loff, 640, 0);
	btf__add_field(b, "i_name", t_charp, 704, 0);
	t_inodep = btf__add_ptr(b, t_inode);

	t_fown = btf__add_struct(b, "fown", 16);
	btf__add_field(b, "pid", t_int, 0, 0);
	btf__add_field(b, "uid", t_uint, 32, 0);
	btf__add_field(b, "owner", t_inodep, 64, 0);

	t_anon = btf__add_union(b, NULL, 8);
	btf__add_field(b, "f_count", t_long, 0, 0);
	btf__add_field(b, "f_private", t_voidp, 0, 0);

	t_filep = btf__add_ptr(b, (int)btf__type_cnt(b) + 1);
	r.file = btf__add_struct(b, "file", 72);
	btf__add_field(b, "f_flags", t_uint, 0, 0);
	btf__add_field(b, "f_owner", t_fown, 64, 0);
	btf__add_field(b, "f_inode", t_inodep, 256, 0);
	btf__add_field(b, NULL, t_anon, 320, 0);
	btf__add_field(b, "f_ok", t_bool, 384, 0);
	btf__add_field(b, "f_state", t_state, 416, 0);
	btf__add_field(b, "f_weight", t_dbl, 448, 0);
	btf__add_field(b, "f_next", t_filep, 512, 0);

	t_big = btf__add_struct(b, "big", 24);
	btf__add_field(b, "a", t_long, 0, 0);
	t_fwd = btf__add_fwd(b, "opaque", BTF_FWD_STRUCT);
	t_fwdp = btf__add_ptr(b, t_fwd);

	{
		static const char *const n[] = { "file", "buf", "count", "pos" };
		const int t[] = { t_filep, t_charp, t_size, t_loffp };

		btf__add_func(b, "vfs_read", BTF_FUNC_GLOBAL,
			      add_proto(b, t_ssize, n, t, 4));
	}
	{
		static const char *const n[] = { "fd", "buf", "count" };
		const int t[] = { t_uint, t_charp, t_size };

		btf__add_func(b, "ksys_read", BTF_FUNC_GLOBAL,
			      add_proto(b, t_ssize, n, t, 3));
	}
	{
		static const char *const n[] = { "a", "b", "c", "d", "e", "f",
						 "g", "h", "i" };
		const int t[] = { t_int, t_uint, t_short, t_uchar, t_voidp,
				  t_filep, t_bool, t_i128, t_long };

		btf__add_func(b, "do_thing", BTF_FUNC_GLOBAL,
			      add_proto(b, t_int, n, t, 9));
	}
	{
		static const char *const n[] = { "file" };
		const int t[] = { t_filep };

		btf__add_func(b, "noret", BTF_FUNC_GLOBAL,
			      add_proto(b, 0, n, t, 1));
	}
	{
		static const char *const n[] = { "a0", "a1", "a2", "a3", "a4",
			"a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12" };
		const int t[] = { t_long, t_long, t_long, t_long, t_long,
			t_long, t_long, t_long, t_long, t_long, t_long, t_long,
			t_long };

		btf__add_func(b, "many", BTF_FUNC_GLOBAL,
			      add_proto(b, t_long, n, t, 13));
	}
	{
		static const char *const n[] = { "s", "x", "b", "y" };
		const int t[] = { t_fown, t_long, t_big, t_long };

		btf__add_func(b, "bystruct", BTF_FUNC_GLOBAL,
			      add_proto(b, t_long, n, t, 4));
	}
	{
		static const char *const n[] = { "o" };
		const int t[] = { t_fwdp };

		btf__add_func(b, "fwdfn", BTF_FUNC_GLOBAL,
			      add_proto(b, t_long, n, t, 1));
	}
	{
		static const char *const n[] = { "__data", "file", "err" };
		const int t[] = { t_voidp, t_filep, t_int };

		pr = add_proto(b, 0, n, t, 3);
		btf__add_typedef(b, "btf_trace_x", btf__add_ptr(b, pr));
	}
	{
		static const char *const n[] = { "", "" }, *const m[] = {
			"__data", "inode" };
		const int t[] = { t_voidp, t_inodep };

		pr = add_proto(b, 0, n, t, 2);
		td = btf__add_typedef(b, "btf_trace_y", btf__add_ptr(b, pr));
		btf__add_typedef(b, "btf_trace_z", btf__type_by_id(b, td)->type);
		btf__add_func(b, "__traceiter_y", BTF_FUNC_GLOBAL,
			      add_proto(b, t_int, m, t, 2));
	}
	td = btf__add_array(b, t_int, t_char, 16);
	t_task = btf__add_struct(b, "task", 32);
	btf__add_field(b, "pid", t_int, 0, 0);
	btf__add_field(b, "comm", td, 32, 0);
	btf__add_field(b, "name", t_charp, 192, 0);
	{
		static const char *const n[] = { "__data", "p" };
		const int t[] = { t_voidp, btf__add_ptr(b, t_task) };

		pr = add_proto(b, 0, n, t, 2);
		btf__add_typedef(b, "btf_trace_w", btf__add_ptr(b, pr));
	}
	return r;
}

static void tr_check(const struct btf *b, const char *target,
		     const char *expr, const char *want, const char *what)
{
	struct btf_target t;
	char out[BTF_VALUE_MAX], err[512], msg[1200];
	int ok;

	ok = !btf_find_target(b, target, &t, err, sizeof(err)) &&
	     !btf_translate(b, &t, expr, out, sizeof(out), err, sizeof(err));
	snprintf(msg, sizeof(msg), "btf %s: %s '%s' -> '%s' (got '%s')", what,
		 target, expr, want, ok ? out : err);
	check(ok && !strcmp(out, want) && valid_value(out), msg);
}

/*
 * A string's V: @want, which a snapshot's "# family by str:V" takes; or
 * refused with @want.
 */
static void tr_str_check(const struct btf *b, const char *target,
			 const char *expr, const char *want, int refused)
{
	struct btf_target t;
	char out[BTF_VALUE_MAX] = "", err[512] = "", by[BTF_VALUE_MAX + 4];
	char msg[1200];
	int r;

	r = btf_find_target(b, target, &t, err, sizeof(err));
	if (!r)
		r = btf_translate_string(b, &t, expr, out, sizeof(out), err,
					 sizeof(err));
	snprintf(by, sizeof(by), "str:%s", out);
	snprintf(msg, sizeof(msg), "btf string: %s '%s' -> '%s' (got %s '%s')",
		 target, expr, want, r ? "refusal" : "value", r ? err : out);
	check(refused ? r && !strcmp(err, want) :
		        !r && !strcmp(out, want) && valid_by(by), msg);
}

/* tr(TARGET, EXPR, V) and refused(TARGET, EXPR, MESSAGE), on test_btf(). */
#define tr(t, e, w)		tr_check(tb.b, t, e, w, "")
#define refused(t, e, w)	refused_check(tb.b, t, e, w)

static void refused_check(const struct btf *b, const char *target,
			  const char *expr, const char *want)
{
	struct btf_target t;
	char out[BTF_VALUE_MAX] = "", err[512] = "", msg[1200];
	int r;

	r = btf_find_target(b, target, &t, err, sizeof(err));
	if (!r)
		r = btf_translate(b, &t, expr, out, sizeof(out), err,
				  sizeof(err));
	snprintf(msg, sizeof(msg), "btf refused: %s '%s': '%s' (got %s '%s')",
		 target, expr, want, r ? "refusal" : "value", r ? err : out);
	check(r && !strcmp(err, want), msg);
}

/*
 * A string key: an array of char in memory is its address, an offset
 * with no size (a task's comm); a pointer to char is read as a pointer.
 */
static void test_btf_strings(void)
{
	struct tbtf tb = test_btf();

	tr_str_check(tb.b, "tp:t:w", "p->comm", "arg0+4", 0);
	tr_str_check(tb.b, "tp:t:w", "p->name", "arg0+24:8", 0);
	tr_str_check(tb.b, "vfs_read", "buf", "arg1", 0);
	tr_str_check(tb.b, "vfs_read", "file->f_inode->i_name", "arg0+32:8+88:8", 0);
	tr_str_check(tb.b, "tp:t:w", "p->pid",
		     "'p->pid' is int, not a string: an array of char or a pointer to char", 1);
	tr_str_check(tb.b, "tp:t:w", "p->comm[1]",
		     "'p->comm[1]' is char, not a string: an array of char or a pointer to char", 1);
	tr_str_check(tb.b, "vfs_read", "file->f_inode->i_blocks",
		     "'file->f_inode->i_blocks' is long long[4], not a string: an array of char or a pointer to char", 1);
	/* a key that is a number stays refused as a string */
	check(!valid_by("str:arg0+4:8+") && !valid_by("str:arg0+x") &&
	      valid_by("str:arg0+4") && valid_by("str:arg1+80:8") &&
	      valid_by("str:arg1+80:8+16") && !valid_by("arg0+4"),
	      "snapshot: by str:V with an in-place offset, and only there");
	btf__free(tb.b);
}

/* @v of @target named @want by btf_describe() (NULL: not named). */
static void desc(const struct btf *b, const char *target, const char *v,
		 const char *want)
{
	struct btf_target t;
	char out[256] = "", err[512], msg[700];
	int r = btf_find_target(b, target, &t, err, sizeof(err)) ? -2 :
		btf_describe(b, &t, v, out, sizeof(out));

	snprintf(msg, sizeof(msg), "btf named: %s %s is %s (got %s)", target, v,
		 want ? want : "nothing", r ? "nothing" : out);
	check(want ? !r && !strcmp(out, want) : r == -1, msg);
}

static void test_btf_values(void)
{
	struct tbtf tb = test_btf();

	check(tb.b && tb.file > 0, "btf: the test BTF is built");
	/* parameters, *param, ret, casts from the type */
	tr("vfs_read", "count", "arg2");
	tr("vfs_read", "pos", "arg3");
	tr("vfs_read", "*pos", "arg3+0:8");
	tr("vfs_read", "*buf", "arg1+0:s1");
	tr("vfs_read", "buf[2]", "arg1+2:s1");
	tr("vfs_read", "ret", "ret");
	tr("vfs_read", "arg2", "arg2");
	tr("do_thing", "ret", "ret:s4");
	tr("do_thing", "a", "arg0:s4");
	tr("do_thing", "b", "arg1:4");
	tr("do_thing", "c", "arg2:s2");
	tr("do_thing", "d", "arg3:1");
	tr("do_thing", "e", "arg4");
	tr("do_thing", "f", "arg5");
	tr("do_thing", "g", "arg6:1");
	tr("do_thing", "i", "arg9");	/* h, 16 bytes, takes 7 and 8 */
	tr("many", "a11", "arg11");
	tr("bystruct", "x", "arg2");	/* s, 16 bytes, takes 0 and 1 */
	/* field paths: -> reads 8 bytes, . adds, the last read is the field's */
	tr("vfs_read", "file->f_inode->i_size", "arg0+32:8+80:8");
	tr("vfs_read", " file -> f_inode -> i_size ", "arg0+32:8+80:8");
	tr("vfs_read", "file->f_flags", "arg0+0:4");
	tr("vfs_read", "file->f_owner.pid", "arg0+8:s4");
	tr("vfs_read", "file->f_owner.uid", "arg0+12:4");
	tr("vfs_read", "file->f_owner.owner->i_mode", "arg0+16:8+0:2");
	tr("vfs_read", "file->f_owner.owner->i_prio", "arg0+16:8+2:s2");
	tr("vfs_read", "file->f_count", "arg0+40:8");
	tr("vfs_read", "file->f_private", "arg0+40:8");
	tr("vfs_read", "file->f_ok", "arg0+48:1");
	tr("vfs_read", "file->f_state", "arg0+52:4");
	tr("vfs_read", "file->f_inode->i_blocks[1]", "arg0+32:8+24:8");
	tr("vfs_read", "file->f_inode->i_name[3]", "arg0+32:8+88:8+3:s1");
	tr("vfs_read", "*file->f_inode->i_name", "arg0+32:8+88:8+0:s1");
	tr("vfs_read", "file->f_next->f_next->f_next->f_flags",
	   "arg0+64:8+64:8+64:8+0:4");
	tr("noret", "file->f_flags", "arg0+0:4");
	/* tracepoints: TP_PROTO's arguments, from 0, names from the typedef
	 * or from __traceiter_EVENT */
	tr("tp:grp:x", "file->f_inode->i_size", "arg0+32:8+80:8");
	tr("tp:grp:x", "err", "arg1:s4");
	tr("tp:grp:y", "inode->i_mode", "arg0+0:2");
	tr("tp:grp:z", "arg0->i_prio", "arg0+2:s2");

	refused("vfs_read", "file->f_inode->i_flags",
		"'file->f_inode->i_flags' is a bitfield (3 bits): only whole bytes can be read");
	refused("vfs_read", "file->f_inode->i_blocks",
		"'file->f_inode->i_blocks' is an array (long long[4]): name one element, e.g. file->f_inode->i_blocks[0]");
	refused("vfs_read", "file->f_inode->i_blocks[4]",
		"'file->f_inode->i_blocks' is long long[4]: index 4 is out of bounds");
	refused("vfs_read", "file->f_owner",
		"'file->f_owner' is struct fown, not a number: name one of its fields (pid, uid, owner)");
	refused("vfs_read", "*file",
		"'*file' is struct file, not a number: name one of its fields (f_flags, f_owner, f_inode, f_count, f_private, f_ok, f_state, f_weight, ...)");
	refused("vfs_read", "file->f_weight",
		"'file->f_weight' is double: floating point values are not recorded");
	refused("vfs_read", "nope",
		"vfs_read has no parameter 'nope' (its parameters: file, buf, count, pos)");
	refused("vfs_read", "file->nope",
		"struct file has no field 'nope' (its fields: f_flags, f_owner, f_inode, f_count, f_private, f_ok, f_state, f_weight, ...)");
	refused("vfs_read", "count->x", "'count' is size_t, not a pointer: no ->");
	refused("vfs_read", "*count", "'count' is size_t, not a pointer: no *");
	refused("vfs_read", "file.f_flags",
		"'file' is a pointer (struct file *): write file->f_flags");
	refused("vfs_read", "file->f_owner->pid",
		"'file->f_owner' is struct fown, not a pointer: write file->f_owner.pid");
	refused("vfs_read", "buf->x",
		"'buf' points to char, not to a struct or union: no field 'x'");
	refused("vfs_read", "file->f_next->f_next->f_next->f_next->f_flags",
		"'file->f_next->f_next->f_next->f_next->f_flags' needs more than 4 memory reads: the kernel follows at most 4 pointers");
	refused("vfs_read", "file->f_inode->i_name[3000000000]",
		"'file->f_inode->i_name[3000000000]': the index is too large, or char * points to nothing of known size");
	refused("vfs_read", "", "'': expected ret, a parameter, *parameter or a field path (a->b.c)");
	refused("vfs_read", "count + 1",
		"'count + 1': unexpected '+' (write ret, a parameter, *parameter, a->b, a.b or a[N])");
	refused("vfs_read", "file->", "'file->': a field name must follow '->'");
	refused("vfs_read", "buf[x]", "'buf[x]': [ takes an index, 0 or more, then ]");
	refused("do_thing", "*e", "'e' is a void pointer: it points to nothing typed");
	refused("do_thing", "h",
		"'h' is __int128 of 16 bytes: only 1, 2, 4 or 8 bytes are read");
	refused("noret", "ret", "'ret': noret returns void");
	refused("many", "a12",
		"'a12' is argument 12 of many: the kernel reads arguments 0 to 11");
	refused("bystruct", "s",
		"'s' is struct fown, not a number: name one of its fields (pid, uid, owner)");
	refused("bystruct", "s.pid",
		"'s' is struct fown passed by value: its fields cannot be read");
	refused("bystruct", "y",
		"'y': parameter 2 of bystruct is struct big passed by value on the stack: where 'y' is cannot be known");
	refused("fwdfn", "o->x",
		"struct opaque is only declared in this BTF, not defined: its fields are unknown");
	refused("tp:grp:x", "ret",
		"'ret': tp:grp:x is a tracepoint, it has no return value");
	/* and back: the kernel's V named as the source names it */
	desc(tb.b, "vfs_read", "arg2", "count");
	desc(tb.b, "vfs_read", "arg3+0:8", "*pos");
	desc(tb.b, "vfs_read", "arg0+32:8+80:8", "file->f_inode->i_size");
	desc(tb.b, "vfs_read", "arg0+8:s4", "file->f_owner.pid");
	desc(tb.b, "vfs_read", "arg0+40:8", "file->f_count");
	desc(tb.b, "vfs_read", "ret", "ret");
	desc(tb.b, "do_thing", "ret:s4", "ret");
	desc(tb.b, "do_thing", "arg1:4", "b");
	desc(tb.b, "do_thing", "arg9", "i");
	desc(tb.b, "do_thing", "arg8", NULL);	/* the upper half of h */
	desc(tb.b, "tp:grp:x", "arg0+32:8+80:8", "file->f_inode->i_size");
	desc(tb.b, "tp:grp:x", "arg1:s4", "err");
	desc(tb.b, "vfs_read", "arg0+33:8", NULL);	/* inside f_inode */
	desc(tb.b, "vfs_read", "arg0+32:4", NULL);	/* half of it */
	desc(tb.b, "vfs_read", "arg0+8:4", NULL);	/* pid is signed */
	desc(tb.b, "vfs_read", "arg9", NULL);
	desc(tb.b, "vfs_read", "arg2+0:8", NULL);	/* count is no pointer */
	refused("tp:grp:x", "__data",
		"tp:grp:x has no parameter '__data' (its parameters: file, err)");
	refused("tp:grp:z", "inode",
		"tp:grp:z has no parameter 'inode' (its parameters: arg0)");
	refused("tp:grp:nope", "x", "no tracepoint nope in BTF (no type btf_trace_nope)");
	refused("tp:x", "x", "'tp:x' is not tp:GROUP:EVENT");
	refused("nofunc", "x", "no function nofunc in BTF");
	btf__free(tb.b);
}

/* The member @name of struct @sname, directly: its byte offset, or -1. */
static long member_offset(const struct btf *b, const char *sname,
			  const char *name)
{
	__s32 id = btf__find_by_name_kind(b, sname, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b, (__u32)id) : NULL;

	for (__u32 i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(b, btf_members(t)[i].name_off),
			    name))
			return (long)btf_member_bit_offset(t, i) / 8;
	return -1;
}

/* This machine's kernel, if its BTF can be read. */
static void test_btf_vmlinux(void)
{
	struct btf *b = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	long o1, o2;
	char want[64];

	if (!b) {
		printf("# skip btf vmlinux: /sys/kernel/btf/vmlinux: %s\n",
		       strerror(errno));
		return;
	}
	tr_check(b, "vfs_read", "count", "arg2", "vmlinux");
	tr_check(b, "vfs_read", "*pos", "arg3+0:8", "vmlinux");
	o1 = member_offset(b, "file", "f_inode");
	o2 = member_offset(b, "inode", "i_size");
	if (o1 >= 0 && o2 >= 0) {
		snprintf(want, sizeof(want), "arg0+%ld:8+%ld:8", o1, o2);
		tr_check(b, "vfs_read", "file->f_inode->i_size", want, "vmlinux");
	} else {
		printf("# skip btf vmlinux: file->f_inode or inode->i_size not direct members\n");
	}
	o1 = member_offset(b, "task_struct", "prio");
	if (o1 >= 0 && btf__find_by_name_kind(b, "btf_trace_sched_wakeup",
					      BTF_KIND_TYPEDEF) > 0) {
		snprintf(want, sizeof(want), "arg0+%ld:s4", o1);
		tr_check(b, "tp:sched:sched_wakeup", "p->prio", want, "vmlinux");
	}
	btf__free(b);
}

/* unit --btf-dir DIR: the test BTF as a kernel's and a module's files. */
static int write_btf(const char *dir)
{
	struct tbtf tb = test_btf();
	struct btf *m = btf__new_empty_split(tb.b);
	const void *data;
	char path[4096];
	__u32 size;
	FILE *f;
	int fp, pr, ret = 0;

	fp = btf__add_ptr(m, tb.file);
	pr = btf__add_func_proto(m, btf__find_by_name_kind(tb.b, "int", BTF_KIND_INT));
	btf__add_func_param(m, "file", fp);
	btf__add_func(m, "kmod_fn", BTF_FUNC_GLOBAL, pr);
	for (int i = 0; i < 2 && !ret; i++) {
		data = btf__raw_data(i ? m : tb.b, &size);
		snprintf(path, sizeof(path), "%s/%s", dir, i ? "kmod" : "vmlinux");
		f = fopen(path, "w");
		if (!data || !f || fwrite(data, 1, size, f) != size)
			ret = 1;
		if (f && fclose(f))
			ret = 1;
	}
	btf__free(m);
	btf__free(tb.b);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Percentiles read inside their slots (judge.c) against the exact ones of
 * the raw samples, at frac_bits 3: at most 1% off (a slot is 12.5% wide,
 * and its upper bound, the file's percentile, is off by up to that).
 */
static void interp_law(const char *law, double sigma, int expo)
{
	enum { N = 200000, K = 3 };
	static u64 v[N];
	static double cnt[(65 - K) << K], sum[(65 - K) << K];
	struct kslot s[(65 - K) << K];
	const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	unsigned long long x = 12345;
	double worst = 0, worst_hi = 0;
	size_t n = 0;
	char what[160];

	memset(cnt, 0, sizeof(cnt));
	memset(sum, 0, sizeof(sum));
	for (int i = 0; i < N; i++) {
		double u1, u2, val;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		u1 = ((x >> 11) + 0.5) / 9007199254740992.0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		u2 = ((x >> 11) + 0.5) / 9007199254740992.0;
		val = expo ? 200 - 5000 * log(u1) :
		      5000 * exp(sigma * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
		v[i] = (u64)llround(val);
		cnt[kstats_slot(v[i], K)]++;
		sum[kstats_slot(v[i], K)] += (double)v[i];
	}
	for (u32 i = 0; i < (65 - K) << K; i++)
		if (cnt[i])
			s[n++] = (struct kslot){ .slot = i,
				.lo = kstats_slot_lo(i, K), .hi = kstats_slot_hi(i, K),
				.count = (u64)cnt[i], .avg = (u64)(sum[i] / cnt[i]) };
	qsort(v, N, sizeof(v[0]), cmp_u64);
	for (int i = 0; i < 4; i++) {
		double exact = (double)v[(size_t)ceil(q[i] * N) - 1];
		double est = hist_quantile(s, n, q[i]);
		struct ksummary sm;
		u64 hi[4];

		hist_summary(s, n, &sm);
		hi[0] = sm.p50, hi[1] = sm.p90, hi[2] = sm.p99, hi[3] = sm.p999;
		worst = fmax(worst, fabs(est / exact - 1));
		worst_hi = fmax(worst_hi, fabs((double)hi[i] / exact - 1));
	}
	snprintf(what, sizeof(what), "interpolated percentiles of %s at "
		 "frac_bits 3: worst error %.3f%% <= 1%% (slot upper bounds: %.2f%%)",
		 law, 100 * worst, 100 * worst_hi);
	check(worst <= 0.01 && worst_hi > 0.01, what);
}

static void test_interpolation(void)
{
	/* 1..100 at frac_bits 0: uniform slots, so exact but for rounding */
	struct kslot s[8];
	size_t n = 0;

	for (u32 sl = 1; sl < 9; sl++) {
		u64 lo = kstats_slot_lo(sl, 0), hi = kstats_slot_hi(sl, 0);

		hi = hi > 100 ? 100 : hi;
		if (lo > 100)
			break;
		s[n++] = (struct kslot){ .slot = sl, .lo = lo,
			.hi = kstats_slot_hi(sl, 0), .count = hi - lo + 1,
			.avg = (lo + hi) / 2 };
	}
	check(fabs(hist_quantile(s, n, 0.5) - 50) <= 0.51, "interpolated p50 of 1..100 at frac_bits 0: 50");
	check(fabs(hist_quantile(s, n, 0.99) - 99) <= 1, "interpolated p99 of 1..100 at frac_bits 0, a part-filled slot: 99");
	interp_law("a lognormal (sigma 0.4)", 0.4, 0);
	interp_law("a lognormal (sigma 1.5)", 1.5, 0);
	interp_law("an exponential", 0, 1);
}


/* --- exact min and max (a kstats that keeps them) ---------------------- */

static const char exact_snap[] =
	"# name rd clock none unit value frac_bits 3 state active cpus 2 samples 340 missed 0\n"
	"# source mechanism fprobe target vfs_read maxactive 0\n"
	"# value arg2\n"
	"# negative samples 0 min 0 max 0\n"
	"# summary samples 340 min 3000 p50 4096 p90 4096 p99 4096 p99.9 4096 max 4096 mean 3967\n"
	"slot 75 CPU 1 count 40 avg 3000 p 1.000000 lo 2816 hi 3071\n"
	"slot 75 CPUS 2 count 40 avg 3000 p 0.117647 lo 2816 hi 3071\n"
	"slot 80 CPU 0 count 300 avg 4096 p 1.000000 lo 4096 hi 4607\n"
	"slot 80 CPUS 2 count 300 avg 4096 p 1.000000 lo 4096 hi 4607\n";

static void test_exact(void)
{
	struct snapshot s;
	struct ksummary sum;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	check(!parse(&s, exact_snap, err, sizeof(err)), "exact: 4096-byte reads parse, max 4096");
	snap_summary(&s, &sum);
	hist_interpolate(s.slots, s.nslots, &sum);
	check(sum.min == 3000 && sum.max == 4096 && sum.p50 <= 4096 &&
	      sum.p99 == 4096, "exact: the summary's min 3000 and max 4096, no percentile above it");
	f = open_memstream(&buf, &len);
	print_show(f, &s, 0, 40);
	fclose(f);
	check(strstr(buf, "            340      3000 ") && strstr(buf, "      4096      4096      3967\n") &&
	      !strstr(buf, "4607 "), "exact: show prints max 4096, not the slot's 4607");
	free(buf);
	snapshot_free(&s);
	/* an older kstats: slot bounds, which pass too */
	edit_check(exact_snap, "min 3000 p50 4096 p90 4096 p99 4096 p99.9 4096 max 4096",
		   "min 2816 p50 4607 p90 4607 p99 4607 p99.9 4607 max 4607", NULL);
	edit_check(exact_snap, "min 3000", "min 2815",
		   "t:5: summary min 2815 is not in the lowest slot [2816, 3071]");
	edit_check(exact_snap, "min 3000", "min 3072",
		   "t:5: summary min 3072 is not in the lowest slot [2816, 3071]");
	edit_check(exact_snap, "max 4096", "max 4608",
		   "t:5: summary max 4608 is not in the highest slot [4096, 4607]");
	edit_check(exact_snap, "max 4096", "max 4095",
		   "t:5: summary max 4095 is not in the highest slot [4096, 4607]");
	edit_check(exact_snap, "p99 4096", "p99 4607",
		   "t:5: summary p99 4607 disagrees with the slot rows (4096)");
	edit_check(exact_snap, "p50 4096 p90 4096 p99 4096 p99.9 4096 max 4096 mean 3967",
		   "p50 4500 p90 4500 p99 4500 p99.9 4500 max 4500 mean 3967", NULL);
	/* the kernel keeps the mean within them: one of them, if cut */
	edit_check(exact_snap, "mean 3967", "mean 3000", NULL);
	edit_check(exact_snap, "mean 3967", "mean 2999",
		   "t:5: summary mean 2999 is not between min 3000 and max 4096");
}

/* --- the histogram: empty rows folded, at most N rows -------------------- */

static int count_lines(const char *s, const char *with)
{
	int n = 0;

	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");

		if (!with || memmem(l, len, with, strlen(with)))
			n++;
	}
	return n;
}

static void test_fold(void)
{
	/* frac_bits 3: samples in slots 40, 41, 44 and 200 (2 and 155 empty) */
	struct kslot t[] = { mk(40, 3, 5), mk(41, 3, 1), mk(44, 3, 2),
			     mk(200, 3, 9) };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	print_histogram_bits(f, t, 4, 3, "ns", 0);
	fclose(f);
	check(count_lines(buf, "|") == 161 && !strstr(buf, "empty"),
	      "fold: --all-rows: every slot from 40 to 200 a row");
	free(buf);
	f = open_memstream(&buf, &len);
	print_histogram_bits(f, t, 4, 3, "ns", 40);
	fclose(f);
	check(count_lines(buf, "|") == 6 && strstr(buf, " 155 empty rows\n") &&
	      strstr(buf, " 2 empty rows\n") && !strstr(buf, "merged"),
	      "fold: two runs of empty rows folded, a line each: 6 rows");
	check(strstr(buf, "\n[208ns, 134.218ms)              0 |") != NULL,
	      "fold: a folded row spans its empty slots");
	free(buf);
	f = open_memstream(&buf, &len);
	print_histogram_bits(f, t, 4, 3, "ns", 4);
	fclose(f);
	check(count_lines(buf, "|") <= 4 && strstr(buf, "merged per row to fit 4 rows"),
	      "fold: at most --rows rows, slots merged");
	free(buf);
}

/* --- diff: a row whose interval bounds nothing is not "same" ------------- */

static void test_unjudged(void)
{
	struct kslot a[] = { mk(64, 3, 1), mk(90, 3, 1) },
		     b[] = { mk(70, 3, 1), mk(120, 3, 1) };
	struct kslot *ra[] = { a }, *rb[] = { b };
	size_t na[] = { 2 }, nb[] = { 2 };
	struct jside A = { a, 2, ra, na, 1 }, B = { b, 2, rb, nb, 1 };
	struct judge j = { .threshold = 0.05, .alpha = 0.05 };

	judge(&j, &A, &B);
	check(j.rows[4].why == JW_UNBOUNDED && !j.rows[4].judged && j.unjudged &&
	      !j.different, "diff: 2 samples a side: the mean cannot be judged, not 'same'");
	judge(&j, &A, &A);
	check(j.unjudged, "diff: identical tiny runs cannot be judged either");
}

/* --- the grammar: filters and keys, as the kernel prints them ------------ */

/* --- a node's history (_history/NAME) --------------------------------- */

static const char history_text[] =
	"# history w slice 100 slices 4 bytes 512 state frozen frozen_at 350 by trigger slow 1000\n"
	"# trigger slow above 1000 after 200 fired_at 300\n"
	"# lost slices 1 samples 7\n"
	"# later a line a later kernel adds\n"
	"slice 100 samples 3 min 8 p50 9 p99 12 max 12 buckets 8:2,12:1\n"
	"slice 300 samples 5 min 1024 p50 1100 p99 1500 max 1500 buckets 1024:4,1408:0,1472:1\n";

/* history_text with @from replaced by @to parses, or fails with @want. */
static void hist_edit(const char *from, const char *to, const char *want)
{
	char text[2048], err[512] = "";
	struct history h;
	int r;

	if (edited(history_text, from, to, text, sizeof(text)))
		return;
	r = history_parse(&h, text, strlen(text), "t", err, sizeof(err));
	if (!r)
		history_free(&h);
	edit_verdict("history", from, to, want, r, err);
}

static void test_history(void)
{
	char err[512] = "";
	struct history h;
	int r = history_parse(&h, history_text, strlen(history_text), "t",
			      err, sizeof(err));

	check(!r, "history: parses");
	if (r) {
		printf("# %s\n", err);
		return;
	}
	check(!strcmp(h.name, "w") && h.slice_ns == 100 && h.slices == 4 &&
	      h.bytes == 512, "history: name, slice, slices, bytes");
	check(h.frozen && h.frozen_at == 350 &&
	      !strcmp(h.reason, "trigger slow 1000"),
	      "history: frozen at 350 by 'trigger slow 1000' (words to the end)");
	check(h.has_trigger && !strcmp(h.trigger, "slow") &&
	      h.trig_above == 1000 && h.trig_after == 200 &&
	      h.trig_fired == 300, "history: the trigger line");
	check(h.has_lost && h.lost_slices == 1 && h.lost_samples == 7,
	      "history: the lost line");
	check(h.n == 2 && h.s[0].t == 100 && h.s[0].samples == 3 &&
	      h.s[0].min == 8 && h.s[0].p50 == 9 && h.s[0].p99 == 12 &&
	      h.s[0].max == 12 && h.s[0].nb == 2 && h.s[0].b[1].lo == 12 &&
	      h.s[0].b[1].count == 1, "history: slice 100, its buckets");
	check(h.s[1].t == 300 && h.s[1].nb == 3 && h.s[1].b[1].count == 0 &&
	      h.s[1].b[2].lo == 1472, "history: slice 300, an empty bucket kept");
	check(h.samples == 8 && h.max_count == 4,
	      "history: 8 samples, 4 the busiest bucket");
	history_free(&h);

	hist_edit("state frozen frozen_at 350 by trigger slow 1000", "state live", NULL);
	hist_edit("# trigger slow above 1000 after 200 fired_at 300\n", "", NULL);
	hist_edit("# later a line", "# later  a  line", NULL);
	hist_edit("1472:1\n", "1472:1\n\n\n", NULL);
	hist_edit("buckets 1024:4,1408:0,1472:1\n", "buckets 1024:4,1408:0,1472:1", NULL);
	hist_edit("# history w", "# name w", "t:1: first line must be '# history NAME slice NS slices N bytes B state S': not a kstats history");
	hist_edit("# history w", "slice w", "t:1: first line must be the '# history ...' header: not a kstats history");
	hist_edit(" bytes 512", " byte 512", "t:1: expected 'bytes' as field 8");
	hist_edit("slice 100 slices", "slice 0 slices", "t:1: slice and slices must be more than 0");
	hist_edit(" by trigger slow 1000", "", "t:1: a frozen history says 'frozen_at T by REASON'");
	hist_edit("state frozen frozen_at 350 by trigger slow 1000", "state live frozen_at 350", "t:1: a live history ends at its state");
	hist_edit("state frozen", "state thawed", "t:1: state must be live or frozen, not 'thawed'");
	hist_edit("above 1000", "above x", "t:2: 'above' takes a decimal number");
	hist_edit(" fired_at 300", "", "t:2: expected '# trigger TNAME above V after NS fired_at T'");
	hist_edit("# lost slices 1 samples 7\n", "# lost slices 1 samples 7\n# lost slices 1 samples 7\n", "t:4: a second '# lost' line");
	hist_edit("# later a line", "later a line", "t:4: expected a 'slice' line or a '#' line");
	hist_edit("# later a line", "# history w slice 1 slices 1 bytes 1 state live", "t:4: a second '# history' line");
	hist_edit("# later a line", "\n# later a line", "t:4: empty line");
	hist_edit("slice 100 samples", "slice 100  samples", "t:5: fields must be separated by single spaces (at most 64)");
	hist_edit("slice 100 samples", "slice 100\tsamples", "t:5: tab or carriage return: the format uses single spaces and \\n");
	hist_edit("slices 4", "slices 1", "t:6: more slice lines than the ring's 1 slices");
	hist_edit("slice 300", "slice 350", "t:6: slice 350 does not start on a multiple of the slice length 100");
	hist_edit("slice 300", "slice 100", "t:6: slice 100 after 100: the slices go oldest first");
	hist_edit("samples 3 min 8", "samples 0 min 8", "t:5: a slice of no samples: only non-empty slices are listed");
	hist_edit("8:2,12:1", "8:2,12:2", "t:5: the buckets add up to 4, the slice has 3 samples");
	hist_edit("8:2,12:1", "12:1,8:2", "t:5: bucket 8 after 12: the buckets go by increasing LO");
	hist_edit("8:2,12:1", "8:2,12", "t:5: bucket '12' is not LO:COUNT");
	hist_edit("8:2,12:1", "8:2,12:-1", "t:5: bucket '12:-1' is not LO:COUNT, two decimal numbers");
	hist_edit("8:2,12:1", "8:2,12:1,", "t:5: bucket '' is not LO:COUNT");
	hist_edit("min 8 p50 9", "min 7 p50 9", "t:5: min 7 is not in the first non-empty bucket, at 8");
	hist_edit("min 8 p50 9", "min 12 p50 12", "t:5: min 12 is not in the first non-empty bucket, at 8");
	hist_edit("p99 1500 max 1500", "p99 1400 max 1400", "t:6: max 1400 is not in the last non-empty bucket, at 1472");
	hist_edit("p50 9 p99 12", "p50 13 p99 12", "t:5: min <= p50 <= p99 <= max does not hold");
	hist_edit(" buckets 8:2,12:1", "", "t:5: expected 'slice T samples N min A p50 B p99 C max D buckets LO:COUNT,...'");
	hist_edit("max 12 buckets", "max 18446744073709551616 buckets", "t:5: 'max' takes a decimal number");
	r = history_parse(&h, "", 0, "t", err, sizeof(err));
	check(r && !strcmp(err, "t: empty: not a kstats history"), "history: empty");
	r = history_parse(&h, "# history\0", 10, "t", err, sizeof(err));
	check(r && !strcmp(err, "t: contains a NUL byte: not a kstats history"), "history: a NUL byte");
	r = history_parse(&h, history_text, strchr(history_text, '\n') - history_text,
			  "t", err, sizeof(err));
	check(!r && !h.n && h.frozen && !h.has_trigger,
	      "history: no slice yet, no newline at the end");
	if (!r)
		history_free(&h);
}

/* A saved history file: it parses, or (history_malformed*) it does not. */
static void test_history_file(const char *path)
{
	char err[512], what[800];
	int bad = strstr(path, "malformed") != NULL;
	struct history h;
	int r = history_load(&h, path, err, sizeof(err));

	snprintf(what, sizeof(what), "history fixture %s %s%s%s", path,
		 bad ? "is refused" : "parses", r ? ": " : "", r ? err : "");
	check(bad ? r == -EINVAL : !r, what);
	if (!r)
		history_free(&h);
}

static void print_grammar(void)
{
	printf("filter");
	for (int i = 0; i < NR_FILTER_WORDS; i++)
		printf(" %s", filter_words[i]);
	printf("\nby");
	for (int i = 0; i < NR_BY_WORDS; i++)
		printf(" %s", by_words[i]);
	printf("\n");
}

/* --- kstats explain: periods, correlates, phases (lib/explain.c) ------- */

static unsigned int lcg_state;

/* A seeded LCG, 0..1: the same "noise" every run. */
static double lcg(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return (double)((lcg_state >> 8) & 0xffff) / 65536.0;
}

#define XN	1000

static void test_explain_series(void)
{
	static double a[XN], b[XN], c[XN], d[XN];
	static size_t ps[XN], pe[XN];
	struct xperiod p;
	struct xcorr r;
	size_t np;
	char what[160];

	/* a tail every 25 slices (250 ms at 10 ms), 2 slices long, noise */
	lcg_state = 7;
	for (size_t i = 0; i < XN; i++)
		a[i] = (i % 25 < 2 ? 20 : 0) + (lcg() < 0.1 ? 3 * lcg() : 0);
	x_period(a, XN, &p);
	snprintf(what, sizeof(what), "explain: a tail every 25 slices: period %.3f slices (%.1f ms), strength %.3f",
		 p.lag, p.lag * 10, p.strength);
	check(p.found && fabs(p.lag * 10e6 - 250e6) <= 25e6 && p.strength >= 0.8, what);
	/*
	 * spikes every 25 slices, of 20 and 14 in turn: the autocorrelation
	 * is highest at 50 (0.95), at 25 0.91 (over 0.9 x): the fundamental
	 */
	for (size_t i = 0; i < XN; i++)
		c[i] = i % 25 < 2 ? (i / 25 % 2 ? 14 : 20) : 0;
	x_period(c, XN, &p);
	snprintf(what, sizeof(what), "explain: a harmonic at 50 higher: the fundamental, 25 (got %.2f)", p.lag);
	check(p.found && fabs(p.lag - 25) < 0.5, what);
	/* the same, 2 periods in the window only: no claim */
	x_period(a, 50, &p);
	check(!p.found, "explain: 2 periods in the window: no period claimed");
	/* a random tail (seeded LCG): no period */
	lcg_state = 11;
	for (size_t i = 0; i < XN; i++)
		b[i] = lcg() < 0.08 ? 10 + 10 * lcg() : 0;
	x_period(b, XN, &p);
	snprintf(what, sizeof(what), "explain: a random tail: no period (peak %.3f at %.1f)",
		 p.strength, p.lag);
	check(!p.found, what);
	/* a flat series, all zero: nothing */
	memset(c, 0, sizeof(c));
	x_period(c, XN, &p);
	check(!p.found && p.strength == 0, "explain: a flat series: no period");
	/* c = b shifted: c[i] = b[i + 3], each of b's events 3 slices early */
	for (size_t i = 0; i < XN; i++)
		c[i] = i + 3 < XN ? b[i + 3] : 0;
	check(x_max_lag(XN) == 10 && x_max_lag(20) == 5, "explain: lags tried: min(10, n/4)");
	x_correlate(b, c, XN, x_max_lag(XN), &r);
	snprintf(what, sizeof(what), "explain: a series 3 slices ahead of the tail: lag %d (want 3: it leads), r %.3f",
		 r.lag, r.r);
	check(r.lag == 3 && r.r > 0.9, what);
	x_correlate(c, b, XN, x_max_lag(XN), &r);
	check(r.lag == -3 && r.r > 0.9, "explain: the other way round: lag -3 (it trails)");
	/* an unrelated series (another seed): not a correlate */
	lcg_state = 99;
	for (size_t i = 0; i < XN; i++)
		d[i] = lcg() < 0.08 ? 10 + 10 * lcg() : 0;
	x_correlate(b, d, XN, x_max_lag(XN), &r);
	snprintf(what, sizeof(what), "explain: an unrelated series: r %.3f, under %.1f", r.r, X_MIN_R);
	check(fabs(r.r) < X_MIN_R, what);
	/*
	 * a tail every 25 slices, each event 2 slices early to 2 late
	 * (seeded): the raw autocorrelation at 25 is low, smoothed it is
	 * found, said with its jitter
	 */
	lcg_state = 5;
	memset(a, 0, sizeof(a));
	for (size_t i = 25; i + 2 < XN; i += 25)
		a[i - 2 + (size_t)(5 * lcg())] = 20;
	x_period(a, XN, &p);
	snprintf(what, sizeof(what), "explain: a tail every 25 slices, +-2 slices: period %.2f, strength %.2f, jitter %d",
		 p.lag, p.strength, p.jitter);
	check(p.found && fabs(p.lag - 25) < 1 && p.jitter == X_JITTER, what);
	/* the same events 2 slices late or early to a cause: r only smoothed */
	lcg_state = 6;
	memset(d, 0, sizeof(d));
	for (size_t i = 0; i < XN; i++)
		if (a[i])
			d[i + 2 < XN ? i - 2 + (size_t)(5 * lcg()) : i] = 1;
	x_correlate(a, d, XN, 0, &r);
	snprintf(what, sizeof(what), "explain: a cause +-2 slices from each event: r %.2f smoothed, jitter %d",
		 r.r, r.jitter);
	check(r.r >= X_MIN_R && r.jitter == X_JITTER, what);
	/*
	 * a burst of tails every 16 slices, +-2, in a quarter of a 500-slice
	 * window only, nothing else: smoothed they have a period, but 3
	 * periods in 4 have no tail: no claim (a window without a quota, t-34
	 * on a loaded machine, said 156 ms so)
	 */
	lcg_state = 8;
	memset(c, 0, sizeof(c));
	for (size_t i = 100; i < 230; i += 16)
		c[i - 2 + (size_t)(5 * lcg())] = 3;
	x_period(c, 500, &p);
	snprintf(what, sizeof(what), "explain: a burst every 16 slices +-2 in a quarter of the window: no period claimed (got %.1f, %.2f, jitter %d)",
		 p.found ? p.lag : 0, p.strength, p.jitter);
	check(!p.found, what);
	/* every 6 slices, +-2: shorter than the smoothing allows, no claim */
	lcg_state = 5;
	memset(c, 0, sizeof(c));
	for (size_t i = 6; i + 2 < XN; i += 6)
		c[i - 2 + (size_t)(5 * lcg())] = 20;
	x_period(c, XN, &p);
	snprintf(what, sizeof(what), "explain: a tail every 6 slices, +-2: no period claimed (got %.1f, %.2f)",
		 p.found ? p.lag : 0, p.strength);
	check(!p.found, what);
	/* phases: a tail in slices 100-300 and 600-800 */
	memset(c, 0, sizeof(c));
	for (size_t i = 0; i < XN; i++)
		c[i] = (i >= 100 && i <= 300) || (i >= 600 && i <= 800) ? (i % 2 ? 5 : 0) : 0;
	c[100] = c[300] = c[600] = c[800] = 5;
	np = x_phases(c, XN, 0, ps, pe);
	check(np == 2 && ps[0] == 100 && pe[0] == 301 && ps[1] == 600 && pe[1] == 801,
	      "explain: phases 100-300 and 600-800: [100, 301) and [600, 801)");
	/* gaps up to 1.5 periods merged: a period of 400 slices joins them */
	np = x_phases(c, XN, 400, ps, pe);
	check(np == 1 && ps[0] == 100 && pe[0] == 801, "explain: a gap within 1.5 periods: one phase");
	/* one phase of 90% of the window or more: the whole window */
	np = x_phases(a, XN, 25, ps, pe);
	check(np == 1 && ps[0] == 0 && pe[0] == XN, "explain: a tail throughout: one phase, the whole window");
}

/*
 * A history of 1024 xFAST in slice 100, then a slow mode of SLOW samples
 * (BUCKETS: 8192 and 16384) in slice 110.
 */
#define TWO_MODES(fast, slow, buckets)					\
	"# history m slice 10 slices 64 bytes 1 state live\n"		\
	"slice 100 samples " fast " min 1024 p50 1024 p99 1024 max 1024 buckets 1024:" fast "\n" \
	"slice 110 samples " slow " min 8192 p50 8192 p99 16384 max 16384 buckets " buckets "\n"

/* x_p99_lo() of the history @text from slice @from; U64_MAX_VAL unparsed. */
static u64 p99_lo_of(const char *text, u64 from)
{
	struct history m;
	char err[256];
	u64 lo;

	if (history_parse(&m, text, strlen(text), "m", err, sizeof(err)))
		return U64_MAX_VAL;
	lo = x_p99_lo(&m, from, U64_MAX_VAL);
	history_free(&m);
	return lo;
}

/* Two histories of 10 ms and 20 ms slices: a grid of 20 ms, the tail at p99. */
static void test_explain_grid(void)
{
	static const char h1[] =
		"# history a slice 10 slices 64 bytes 1 state live\n"
		"slice 100 samples 99 min 1024 p50 1024 p99 1024 max 1024 buckets 1024:99\n"
		"slice 110 samples 3 min 1024 p50 1024 p99 4096 max 4096 buckets 1024:1,4096:2\n"
		"slice 150 samples 2 min 2048 p50 2048 p99 2048 max 2048 buckets 2048:2\n";
	static const char h2[] =
		"# history b slice 20 slices 64 bytes 1 state live\n"
		"slice 80 samples 1 min 8 p50 8 p99 8 max 8 buckets 8:1\n"
		"slice 160 samples 4 min 8 p50 8 p99 8 max 8 buckets 8:4\n";
	struct history h[2];
	struct xgrid g;
	struct xnode x;
	char err[256];
	int ok;

	ok = !history_parse(&h[0], h1, strlen(h1), "a", err, sizeof(err)) &&
	     !history_parse(&h[1], h2, strlen(h2), "b", err, sizeof(err));
	check(ok, "explain: the grid's histories parse");
	if (!ok)
		return;
	check(!xgrid_make(h, 2, 0, U64_MAX_VAL, &g) && g.slice_ns == 20 && g.t0 == 80 && g.n == 5,
	      "explain: grid of the largest slice (20), from 80 to 160: 5 slices");
	/* 1024 x100, 4096 x2, 2048 x2: rank ceil(0.99 x 104) = 103 is in 4096 */
	check(x_p99_lo(&h[0], 0, U64_MAX_VAL) == 4096, "explain: p99 of the merged buckets: the LO of the rank-103 bucket");
	/* slices from 150 on: 2048 x2 alone */
	check(x_p99_lo(&h[0], 150, U64_MAX_VAL) == 2048, "explain: p99 within a window (slices from 150)");
	check(x_p99_lo(&h[0], 0, 100) == 0, "explain: p99 of no slice: 0");
	/* 1024 x100, then a mode of its own: 8192 x3, 16384 x2 (4096 empty) */
	check(p99_lo_of(TWO_MODES("100", "5", "8192:3,16384:2"), 0) == 8192,
	      "explain: empty slots between p50 and p99: the tail is all above the widest run of them");
	check(p99_lo_of(TWO_MODES("100", "5", "8192:3,16384:2"), 110) == 16384,
	      "explain: no p50 below the mode: the p99 as it is");
	/* a slow mode of 30 %: 1024 x70, 8192 x20, 16384 x10; p90 in it */
	check(p99_lo_of(TWO_MODES("70", "30", "8192:20,16384:10"), 0) == 8192,
	      "explain: a slow mode of 30 % (p90 in it): the tail is the mode whole, not p99's bucket");
	check(!xnode_make(&x, &h[0], &g, 0, U64_MAX_VAL, 0, 0), "explain: a node's series");
	check(x.above == 4096 && x.a == 1 && x.b == 4 && x.count[1] == 102 && x.count[3] == 2 &&
	      x.tail[1] == 2 && x.tail[3] == 0 && x.tail[0] == 0,
	      "explain: 10 ms slices summed into 20 ms ones: counts, tail, span [1, 4)");
	/* weight: count x midpoint; frac_bits 0 here: [1024, 2047] -> 1535.5 */
	check(fabs(x.weight[1] - (100 * 1535.5 + 2 * 6143.5)) < 1e-6,
	      "explain: the weight: count x the bucket's midpoint");
	xnode_free(&x);
	check(!xnode_make(&x, &h[0], &g, 0, U64_MAX_VAL, 1, 2048) && x.above == 2048 &&
	      x.tail[1] == 2 && x.tail[3] == 2, "explain: --above 2048");
	xnode_free(&x);
	history_free(&h[0]);
	history_free(&h[1]);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--btf-dir"))
		return write_btf(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--grammar")) {
		print_grammar();
		return 0;
	}
	test_percentiles();
	test_ks();
	test_interpolation();
	test_delta_rebin();
	test_units();
	test_value_lines();
	test_value_print();
	test_family_parse();
	test_key_family_parse();
	test_outliers_parse();
	test_key_names();
	test_btf_values();
	test_btf_strings();
	test_btf_vmlinux();
	test_exact();
	test_fold();
	test_unjudged();
	test_history();
	test_explain_series();
	test_explain_grid();
	for (int i = 1; i < argc; i++) {
		const char *b = strrchr(argv[i], '/');

		if (!strncmp(b ? b + 1 : argv[i], "history_", 8))
			test_history_file(argv[i]);
		else
			test_fixture(argv[i]);
	}
	printf("unit %d %d\n", passed, failed);
	return failed != 0;
}
