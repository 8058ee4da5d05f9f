// SPDX-License-Identifier: GPL-2.0
/*
 * gen_fixture - write a kstats distribution exactly as format.rst describes
 * it, from generated or given samples, using kstats_bucket.h as the module
 * does.  Stands in for captures from a VM until real ones replace the files
 * in tests/fixtures/.  The summary is computed independently of the tool:
 * from the sorted raw samples, not from the slot table.
 *
 *   gen_fixture [--name N] [--clock C] [--bits K] [--cpus C] [--seed S]
 *               [--state S] [--missed M] [--tsc-khz K] [--range MAX]
 *               [--source S] [--value V] [--filter F] [--neg VALUE,COUNT]...
 *               [-s CPU,COUNT,KIND,A[,B]]... [--stdin]
 *               [--by BY [--max N] [--frames N] [--key KEY -s ...]...]
 *               [--exact]
 *
 * --value (a node with a value, clock none) or --neg (COUNT samples of the
 * negative VALUE: the "# negative" line and the errno rows) write the lines
 * of a node with a value; --source replaces "mechanism api".
 *
 * --by writes a family ("# family by BY", a block of slot rows per key,
 * largest first, no CPU rows): the -s groups after --key KEY are KEY's
 * ("other" is the key of the rest); KEY is written as the module escapes a
 * comm (bytes outside 0x21..0x7e and the backslash as \xHH).
 *
 * --exact writes min and max as a kstats that keeps them does: the
 * smallest and largest sample, each percentile at most max.
 *
 * KIND: const V | uniform LO HI | exp OFFSET MEAN | lognormal MEDIAN SIGMA
 * --stdin reads "CPU VALUE" lines.  Each -s group has its own random stream
 * (seed, group index), so a prefix of the groups always gives the same
 * samples: consecutive cumulative snapshots.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kstats_bucket.h"

struct sample {
	u32 cpu;
	u32 key;
	u64 v;
};

#define MAX_KEYS 64
static const char *keys[MAX_KEYS];
static unsigned int nkeys, cur_key;

static struct sample *smp;
static size_t nsmp, capsmp;

static void add(u32 cpu, u64 v)
{
	if (nsmp == capsmp) {
		capsmp = capsmp ? capsmp * 2 : 4096;
		smp = realloc(smp, capsmp * sizeof(*smp));
		if (!smp)
			exit(2);
	}
	smp[nsmp].cpu = cpu;
	smp[nsmp].key = cur_key;
	smp[nsmp++].v = v;
}

#define MAX_ERRNO 4095

static long long neg_min, neg_max;
static u64 neg_n, errnos[MAX_ERRNO + 1];

static u64 rng;

static double uni(void)	/* xorshift64*, in (0, 1) */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((rng * 2685821657736338717ULL >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 key_n[MAX_KEYS];

static int by_samples(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return key_n[x] != key_n[y] ? (key_n[x] < key_n[y] ? 1 : -1) :
	       x < y ? -1 : x > y;
}

static void key_text(const char *k)
{
	for (; *k; k++) {
		unsigned char c = (unsigned char)*k;

		if (c < 0x21 || c > 0x7e || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

/* --frames N: a family by stack, its keys N frames */
static unsigned long stack_frames;

/* The family lines, the summary of the whole and a block per key. */
static int family(const char *by, unsigned long max, unsigned int k,
		  unsigned int cpus, const u64 *sv)
{
	unsigned int order[MAX_KEYS], named = 0;
	u32 nslots = kstats_nr_slots(k);
	u64 other = 0;

	for (size_t i = 0; i < nsmp; i++)
		key_n[smp[i].key]++;
	for (unsigned int i = 0; i < nkeys; i++) {
		order[i] = i;
		if (!strcmp(keys[i], "other"))
			other = key_n[i];
		else
			named += key_n[i] > 0;
	}
	qsort(order, nkeys, sizeof(order[0]), by_samples);
	printf("# family by %s max %lu keys %u other %llu key_bytes %lu",
	       by, max, named, (unsigned long long)other,
	       7936 + 16 * stack_frames);
	if (stack_frames)
		printf(" frames %lu stack_bytes %lu", stack_frames,
		       16 * stack_frames);
	putchar('\n');
	printf("# summary samples %llu min %llu p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu mean %llu\n",
	       (unsigned long long)nsmp, (unsigned long long)sv[0],
	       (unsigned long long)sv[1], (unsigned long long)sv[2],
	       (unsigned long long)sv[3], (unsigned long long)sv[4],
	       (unsigned long long)sv[5], (unsigned long long)sv[6]);
	for (unsigned int o = 0; o < nkeys; o++) {
		unsigned int key = order[o];
		u64 *cnt = calloc(nslots, sizeof(u64)), *sum = calloc(nslots, sizeof(u64));
		u64 cum = 0;

		if (!key_n[key])
			continue;
		for (size_t i = 0; i < nsmp; i++) {
			unsigned int shift;
			u32 sl;

			if (smp[i].key != key)
				continue;
			sl = kstats_locate(smp[i].v, k, &shift);
			cnt[sl]++;
			sum[sl] += kstats_sum_term(smp[i].v, shift);
		}
		printf("key ");
		key_text(keys[key]);
		printf(" samples %llu\n", (unsigned long long)key_n[key]);
		for (u32 sl = 0; sl < nslots; sl++) {
			if (!cnt[sl])
				continue;
			cum += cnt[sl];
			printf("slot %u CPUS %u count %llu avg %llu p %.6f lo %llu hi %llu\n",
			       sl, cpus, (unsigned long long)cnt[sl],
			       (unsigned long long)kstats_slot_avg(sl, k, cnt[sl], sum[sl]),
			       (double)kstats_ppm(cum, key_n[key]) / 1e6,
			       (unsigned long long)kstats_slot_lo(sl, k),
			       (unsigned long long)kstats_slot_hi(sl, k));
		}
		free(cnt);
		free(sum);
	}
	for (int e = 1; e <= MAX_ERRNO; e++)
		if (errnos[e])
			printf("errno %d count %llu\n", e,
			       (unsigned long long)errnos[e]);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = "fixture", *clock = "ktime", *state = "active";
	const char *source = "mechanism api", *value = NULL, *filter = NULL;
	const char *by = NULL;
	unsigned long max = 64;
	int neg = 0;
	unsigned int k = 3, cpus = 2, group = 0;
	u64 seed = 1, missed = 0, tsc_khz = 0, range = 0;
	int has_range = 0, exact = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(a, "--exact")) {
			exact = 1;
			continue;
		}
		if (!strcmp(a, "--stdin")) {
			unsigned int c;
			unsigned long long x;

			while (scanf("%u %llu", &c, &x) == 2)
				add(c, x);
			continue;
		}
		i++;
		if (!strcmp(a, "--name")) name = v;
		else if (!strcmp(a, "--clock")) clock = v;
		else if (!strcmp(a, "--state")) state = v;
		else if (!strcmp(a, "--bits")) k = (unsigned)atoi(v);
		else if (!strcmp(a, "--cpus")) cpus = (unsigned)atoi(v);
		else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--missed")) missed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--tsc-khz")) tsc_khz = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--source")) source = v;
		else if (!strcmp(a, "--value")) value = v;
		else if (!strcmp(a, "--filter")) filter = v;
		else if (!strcmp(a, "--by")) by = v;
		else if (!strcmp(a, "--max")) max = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--frames")) stack_frames = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--key")) {
			for (cur_key = 0; cur_key < nkeys; cur_key++)
				if (!strcmp(keys[cur_key], v))
					break;
			if (cur_key == MAX_KEYS)
				return 2;
			if (cur_key == nkeys)
				keys[nkeys++] = v;
		}
		else if (!strcmp(a, "--neg")) {
			long long x;
			unsigned long long n;

			if (sscanf(v, "%lld,%llu", &x, &n) != 2 || x >= 0) {
				fprintf(stderr, "bad --neg %s\n", v);
				return 2;
			}
			neg = 1;
			if (n && (!neg_n || x < neg_min))
				neg_min = x;
			if (n && (!neg_n || x > neg_max))
				neg_max = x;
			neg_n += n;
			if (x >= -MAX_ERRNO)
				errnos[-x] += n;
		}
		else if (!strcmp(a, "--range")) {
			range = strtoull(v, NULL, 0);
			has_range = 1;	/* as the module: the slot of MAX is kept */
		} else if (!strcmp(a, "-s")) {
			char kind[16];
			unsigned int cpu;
			unsigned long long n;
			double p1 = 0, p2 = 0;

			if (sscanf(v, "%u,%llu,%15[a-z],%lf,%lf", &cpu, &n, kind,
				   &p1, &p2) < 4) {
				fprintf(stderr, "bad -s %s\n", v);
				return 2;
			}
			rng = seed * 1000003ULL + ++group;
			for (unsigned long long j = 0; j < n; j++) {
				double x = p1;

				if (!strcmp(kind, "uniform"))
					x = p1 + (p2 - p1) * uni();
				else if (!strcmp(kind, "exp"))
					x = p1 - p2 * log(uni());
				else if (!strcmp(kind, "lognormal"))
					x = p1 * exp(p2 * sqrt(-2 * log(uni())) *
						     cos(6.283185307179586 * uni()));
				add(cpu, (u64)(x < 0 ? 0 : x));
			}
		} else {
			fprintf(stderr, "unknown option %s\n", a);
			return 2;
		}
	}

	u32 nslots = kstats_nr_slots(k);
	u64 *cnt = calloc((size_t)nslots * cpus, sizeof(u64));
	u64 *sum = calloc((size_t)nslots * cpus, sizeof(u64));
	u64 *cputot = calloc(cpus, sizeof(u64));
	u64 *cpucum = calloc(cpus, sizeof(u64));
	u64 *vals = calloc(nsmp + 1, sizeof(u64));
	u64 tot_hi = 0, tot_lo = 0, overflow = 0;
	u32 ovf_slot = nslots - 1;

	if (has_range) {	/* the next slot, lo range + 1, takes the rest */
		range = kstats_slot_hi(kstats_slot(range, k), k);
		ovf_slot = kstats_slot(range, k) + 1;
	}

	for (size_t i = 0; i < nsmp; i++) {
		u64 v = smp[i].v;
		unsigned int shift;
		u32 s = kstats_locate(v, k, &shift);

		if (smp[i].cpu >= cpus)
			return 2;
		if (has_range && v > range) {
			s = ovf_slot;	/* raw sum: the true average */
			overflow++;
			sum[(size_t)s * cpus + smp[i].cpu] += v;
		} else {
			sum[(size_t)s * cpus + smp[i].cpu] += kstats_sum_term(v, shift);
		}
		cnt[(size_t)s * cpus + smp[i].cpu]++;
		cputot[smp[i].cpu]++;
		vals[i] = v;
		tot_lo += v;
		tot_hi += tot_lo < v;
	}
	qsort(vals, nsmp, sizeof(u64), cmp);

	/* The summary from the sorted samples. */
	u64 N = nsmp, sv[7] = { 0 };
	static const u32 num[] = { 50, 90, 99, 999 }, den[] = { 100, 100, 100, 1000 };
#define SLOT_HI(v) (has_range && (v) > range ? ~0ULL : kstats_slot_hi(kstats_slot((v), k), k))
#define SLOT_LO(v) (has_range && (v) > range ? range + 1 : kstats_slot_lo(kstats_slot((v), k), k))
	if (N) {
		sv[0] = SLOT_LO(vals[0]);
		for (int q = 0; q < 4; q++)
			sv[1 + q] = SLOT_HI(vals[kstats_rank(N, num[q], den[q]) - 1]);
		sv[5] = SLOT_HI(vals[N - 1]);
		sv[6] = kstats_div128(tot_hi, tot_lo, N);
		if (exact) {
			sv[0] = vals[0];
			sv[5] = vals[N - 1];
			for (int q = 1; q < 5; q++)
				sv[q] = sv[q] < sv[5] ? sv[q] : sv[5];
		}
	}

	printf("# name %s clock %s unit %s frac_bits %u state %s cpus %u samples %llu missed %llu\n",
	       name, clock,
	       !strcmp(clock, "tsc") ? "cycles" : !strcmp(clock, "none") ? "value" : "ns",
	       k, state, cpus, (unsigned long long)N, (unsigned long long)missed);
	if (tsc_khz)
		printf("# clock tsc_khz %llu\n", (unsigned long long)tsc_khz);
	if (has_range)
		printf("# range max_value %llu overflow %llu\n",
		       (unsigned long long)range, (unsigned long long)overflow);
	printf("# source %s\n", source);
	if (value)
		printf("# value %s\n", value);
	if (filter)
		printf("# filter %s\n", filter);
	if (value || neg)
		printf("# negative samples %llu min %lld max %lld\n",
		       (unsigned long long)neg_n, neg_min, neg_max);
	if (by)
		return family(by, max, k, cpus, sv);
	printf("# summary samples %llu min %llu p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu mean %llu\n",
	       (unsigned long long)N, (unsigned long long)sv[0],
	       (unsigned long long)sv[1], (unsigned long long)sv[2],
	       (unsigned long long)sv[3], (unsigned long long)sv[4],
	       (unsigned long long)sv[5], (unsigned long long)sv[6]);

	u64 cum = 0;

	for (u32 s = 0; s < nslots; s++) {
		u64 c = 0, sm = 0, lo = kstats_slot_lo(s, k), hi = kstats_slot_hi(s, k);
		int ovf = has_range && s == ovf_slot;

		for (unsigned int cpu = 0; cpu < cpus; cpu++) {
			c += cnt[(size_t)s * cpus + cpu];
			sm += sum[(size_t)s * cpus + cpu];
		}
		if (!c)
			continue;
		if (ovf) {
			lo = range + 1;
			hi = ~0ULL;
		}
		for (unsigned int cpu = 0; cpu < cpus; cpu++) {
			u64 cc = cnt[(size_t)s * cpus + cpu];
			u64 avg = ovf ? sum[(size_t)s * cpus + cpu] / cc : kstats_slot_avg(s, k, cc, sum[(size_t)s * cpus + cpu]);

			if (!cc)
				continue;
			cpucum[cpu] += cc;
			printf("slot %u CPU %u count %llu avg %llu p %.6f lo %llu hi %llu\n",
			       s, cpu, (unsigned long long)cc, (unsigned long long)avg,
			       (double)kstats_ppm(cpucum[cpu], cputot[cpu]) / 1e6,
			       (unsigned long long)lo, (unsigned long long)hi);
		}
		cum += c;
		printf("slot %u CPUS %u count %llu avg %llu p %.6f lo %llu hi %llu\n",
		       s, cpus, (unsigned long long)c,
		       (unsigned long long)(ovf ? sm / c : kstats_slot_avg(s, k, c, sm)),
		       (double)kstats_ppm(cum, N) / 1e6,
		       (unsigned long long)lo, (unsigned long long)hi);
	}
	for (int e = 1; e <= MAX_ERRNO; e++)
		if (errnos[e])
			printf("errno %d count %llu\n", e,
			       (unsigned long long)errnos[e]);
	return 0;
}
