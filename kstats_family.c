// SPDX-License-Identifier: GPL-2.0
/*
 * Families: one histogram per key of a distribution, apart from the probes
 * that take the keys and from the file that shows them.
 *
 * Everything is allocated when the family is made, in process context:
 * the keys, their histograms and an open-addressing lookup table.  A
 * probe finds its key's index with no lock and no allocation, so in any
 * context, NMI included: a new key takes an empty table entry with one
 * cmpxchg, then an index with one atomic add that stops at the family's
 * max; once they are gone a new key gets "other".  A handler that meets
 * an entry being filled passes it by, so two CPUs inserting the same key
 * at once may give it two indexes: the reader merges them (by key), and
 * nothing is counted twice or lost.
 */
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kstats_family.h"
#include "kstats_internal.h"

#define KSTATS_FAMILY_EMPTY	0ULL
#define KSTATS_FAMILY_BUSY	1ULL

/**
 * kstats_family_key_bytes() - the memory of one key
 * @nr_slots: the distribution's slots
 *
 * Return: bytes of its histogram, key and table entries.
 */
size_t kstats_family_key_bytes(u32 nr_slots)
{
	return nr_slots * sizeof(struct kstats_family_slot) +
	       sizeof(struct kstats_family_key) +
	       4 * sizeof(struct kstats_family_ent);
}

/**
 * kstats_family_enable() - split a distribution by a key
 * @ks: from kstats_alloc(), not yet published
 * @max: keys with a histogram of their own, 1..KSTATS_FAMILY_MAX
 * @by: the key as the command wrote it, for the file
 * @string: keys are task names
 * @is_signed: numeric keys are shown signed
 *
 * Context: process.
 * Return: 0, -EINVAL for @max out of range, or -ENOMEM.
 */
int kstats_family_enable(struct kstats *ks, u32 max, const char *by,
			 bool string, bool is_signed)
{
	struct kstats_family *f;

	if (!max || max > KSTATS_FAMILY_MAX)
		return -EINVAL;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->max = max;
	f->bits = max_t(u32, ilog2(roundup_pow_of_two(max)) + 2,
			ilog2(KSTATS_FAMILY_WINDOW));
	f->table = kvcalloc(1UL << f->bits, sizeof(*f->table), GFP_KERNEL);
	f->keys = kvcalloc(max, sizeof(*f->keys), GFP_KERNEL);
	/* Up to half a GiB: fail rather than wake the OOM killer. */
	f->hist = kvcalloc((size_t)(max + 1) * ks->nr_slots, sizeof(*f->hist),
			   GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!f->table || !f->keys || !f->hist) {
		kstats_family_free(f);
		return -ENOMEM;
	}
	f->salt = get_random_u64();
	f->string = string;
	f->is_signed = is_signed;
	strscpy(f->by, by, sizeof(f->by));
	ks->family = f;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_enable, KSTATS_NS);

/**
 * kstats_family_free() - free a family
 * @f: the family, or NULL
 *
 * Context: any but NMI (no handler may still use it).
 */
void kstats_family_free(struct kstats_family *f)
{
	if (!f)
		return;
	kvfree(f->table);
	kvfree(f->keys);
	kvfree(f->hist);
	kfree(f);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_free, KSTATS_NS);

/**
 * kstats_family_clear() - zero every key's histogram
 * @f: the family
 * @nr_slots: the distribution's slots
 *
 * The keys stay, each at its index: a recorder that found one before the
 * reset may still add to it after.  A racing recorder may leave a slot's
 * count and sum torn, as kstats_reset() may (the reader clamps them).
 *
 * Context: any but NMI.
 */
void kstats_family_clear(struct kstats_family *f, u32 nr_slots)
{
	size_t i, n = (size_t)(f->max + 1) * nr_slots;

	for (i = 0; i < n; i++) {
		atomic64_set(&f->hist[i].count, 0);
		atomic64_set(&f->hist[i].sum, 0);
	}
}

/* A key's tag: one-to-one for numbers, a 64-bit mix for task names. */
static __always_inline notrace u64 kstats_family_tag(const struct kstats_family *f,
						     const u64 key[2])
{
	u64 k = key[0];

	if (f->string)
		k = hash_64(key[0] ^ f->salt, 64) ^ rol64(key[1], 29);
	return k ^ f->salt;
}

static __always_inline notrace bool
kstats_family_same(const struct kstats_family *f, u32 index, const u64 key[2])
{
	const struct kstats_family_key *k = &f->keys[index];

	/* Pairs with the release of @set: @k is written by now. */
	if (!smp_load_acquire(&k->set))
		return false;
	return k->k[0] == key[0] && (!f->string || k->k[1] == key[1]);
}

/*
 * Give the table entry @e, taken, an index for @key: the next free one,
 * or "other" once they are gone.
 */
static __always_inline notrace u32 kstats_family_insert(struct kstats_family *f,
							struct kstats_family_ent *e,
							u64 tag,
							const u64 key[2])
{
	u32 index = atomic_fetch_add_unless(&f->nr_keys, 1, f->max);

	if (index < f->max) {
		struct kstats_family_key *k = &f->keys[index];

		k->k[0] = key[0];
		k->k[1] = f->string ? key[1] : 0;
		/* Pairs with kstats_family_same()'s acquire: @k is seen first. */
		smp_store_release(&k->set, 1);
	}
	e->index = index;
	/* Pairs with the acquire of the lookup: @index is seen first. */
	smp_store_release(&e->tag, tag);
	return index;
}

/**
 * kstats_family_index() - the index of a key, made if it is new
 * @f: the family
 * @key: the key: a number in @key[0] (@key[1] 0), or a task name
 *
 * Context: any, NMI included.
 * Return: the key's index, or @f->max ("other") when the family is full
 * or the key's window of the table is.
 */
notrace u32 kstats_family_index(struct kstats_family *f, const u64 key[2])
{
	u64 tag = kstats_family_tag(f, key), mask = (1ULL << f->bits) - 1;
	u64 h = hash_64(tag, f->bits);
	unsigned int i;

	if (unlikely(tag <= KSTATS_FAMILY_BUSY))
		return f->max;	/* one key in 2^63: "other" */
	for (i = 0; i < KSTATS_FAMILY_WINDOW; i++) {
		struct kstats_family_ent *e = &f->table[(h + i) & mask];
		/* Pairs with the insert's release: @index is written. */
		u64 cur = smp_load_acquire(&e->tag);
		u32 index;

		if (cur == tag) {
			index = READ_ONCE(e->index);
			if (index >= f->max || kstats_family_same(f, index, key))
				return index;
			continue;	/* two task names with one tag */
		}
		if (cur == KSTATS_FAMILY_EMPTY &&
		    cmpxchg(&e->tag, cur, KSTATS_FAMILY_BUSY) == cur)
			return kstats_family_insert(f, e, tag, key);
	}
	return f->max;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_index, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_family_index);

/**
 * kstats_record_key() - add a sample to one key of a family
 * @ks: a distribution made with a max_keys (struct kstats_config)
 * @key: the key: a pid, an IRQ, a device number, any number
 * @val: the sample
 *
 * The key's histogram is found, or made while fewer than max_keys exist,
 * with no lock and no allocation; the samples of any further key go to
 * the key "other", so the keys always add up to the distribution's total.
 * On a distribution made without max_keys the sample is recorded as by
 * kstats_record().
 *
 * Context: any, hardirq and NMI included.
 */
notrace void kstats_record_key(struct kstats *ks, u64 key, u64 val)
{
	u64 k[2] = { key, 0 };

	if (unlikely(!ks->family)) {
		kstats_record(ks, val);
		return;
	}
	kstats_family_record(ks, kstats_family_index(ks->family, k), val);
}
EXPORT_SYMBOL_GPL(kstats_record_key);
NOKPROBE_SYMBOL(kstats_record_key);

/* Indexes by key, "other" last. */
static int kstats_family_cmp_key(const void *a, const void *b,
				 const void *priv)
{
	const struct kstats_family *f = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	if (x >= f->max || y >= f->max)
		return (x >= f->max) - (y >= f->max);
	return memcmp(f->keys[x].k, f->keys[y].k, sizeof(f->keys[x].k));
}

/* Groups by samples, most first; ties by first index, for a stable file. */
static int kstats_family_cmp_samples(const void *a, const void *b,
				     const void *priv)
{
	const struct kstats_family_view *v = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	if (v->samples[x] != v->samples[y])
		return v->samples[x] < v->samples[y] ? 1 : -1;
	return v->member[v->first[x]] < v->member[v->first[y]] ? -1 : 1;
}

/*
 * The histogram of group @g, read now into @count and @sum (nr_slots
 * each), each sum clamped to what its count allows.  Return: its samples.
 */
static u64 kstats_family_read_group(struct kstats *ks,
				    const struct kstats_family_view *v, u32 g,
				    u64 *count, u64 *sum)
{
	u32 i, s, n = ks->nr_slots;
	u64 total = 0;

	memset(count, 0, n * sizeof(*count));
	memset(sum, 0, n * sizeof(*sum));
	for (i = v->first[g]; i < v->first[g + 1]; i++) {
		const struct kstats_family_slot *h =
			&ks->family->hist[(size_t)v->member[i] * n];

		for (s = 0; s < n; s++) {
			u64 c = atomic64_read(&h[s].count);

			count[s] += c;
			sum[s] += min_t(u64, atomic64_read(&h[s].sum),
					kstats_sum_max(c));
		}
	}
	for (s = 0; s < n; s++)
		total += count[s];
	return total;
}

/*
 * Copy the non-empty slots of every group, so that the file shows one
 * instant of each key, and the keys the instant of the distribution's own
 * snapshot, taken just before, give or take what is recorded meanwhile.
 */
static int kstats_family_copy(struct kstats *ks, struct kstats_family_view *v)
{
	u32 g, s, c, n = ks->nr_slots;
	u64 *count, *sum;
	int err = 0;

	count = kvcalloc(n, sizeof(u64), GFP_KERNEL);
	sum = kvcalloc(n, sizeof(u64), GFP_KERNEL);
	if (!count || !sum) {
		err = -ENOMEM;
		goto out;
	}
	for (g = 0; g < v->nr; g++) {
		v->samples[g] = kstats_family_read_group(ks, v, g, count, sum);
		for (s = 0, c = 0; s < n; s++)
			c += !!count[s];
		if (!c)
			continue;
		v->cells[g] = kvcalloc(c, sizeof(*v->cells[g]), GFP_KERNEL);
		if (!v->cells[g]) {
			err = -ENOMEM;
			goto out;
		}
		for (s = 0, c = 0; s < n; s++) {
			if (!count[s])
				continue;
			v->cells[g][c].slot = s;
			v->cells[g][c].count = count[s];
			v->cells[g][c].sum = sum[s];
			c++;
		}
		v->nr_cells[g] = c;
	}
out:
	kvfree(count);
	kvfree(sum);
	return err;
}

/**
 * kstats_family_view() - the keys of a family, grouped and ordered
 * @ks: a distribution with a family
 * @v: where to put them; free with kstats_family_view_free()
 *
 * Context: process (allocates, sorts).
 * Return: 0 or -ENOMEM.
 */
int kstats_family_view(struct kstats *ks, struct kstats_family_view *v)
{
	struct kstats_family *f = ks->family;
	u32 n = 0, i, g, nr = min_t(u32, atomic_read(&f->nr_keys), f->max);
	int err;

	memset(v, 0, sizeof(*v));
	v->member = kvcalloc(nr + 1, sizeof(u32), GFP_KERNEL);
	v->first = kvcalloc(nr + 2, sizeof(u32), GFP_KERNEL);
	v->samples = kvcalloc(nr + 1, sizeof(u64), GFP_KERNEL);
	v->cells = kvcalloc(nr + 1, sizeof(*v->cells), GFP_KERNEL);
	v->nr_cells = kvcalloc(nr + 1, sizeof(u32), GFP_KERNEL);
	v->order = kvcalloc(nr + 1, sizeof(u32), GFP_KERNEL);
	if (!v->member || !v->first || !v->samples || !v->cells ||
	    !v->nr_cells || !v->order) {
		kstats_family_view_free(v);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		/* Pairs with the insert's release: a key set is written. */
		if (smp_load_acquire(&f->keys[i].set))
			v->member[n++] = i;
	v->member[n++] = f->max;

	sort_r(v->member, n, sizeof(u32), kstats_family_cmp_key, NULL, f);
	for (i = 0; i < n; i++) {
		if (!i || kstats_family_cmp_key(&v->member[i - 1],
						&v->member[i], f))
			v->first[v->nr++] = i;
	}
	v->first[v->nr] = n;
	err = kstats_family_copy(ks, v);
	if (err) {
		kstats_family_view_free(v);
		return err;
	}
	for (g = 0; g < v->nr; g++)
		v->order[g] = g;
	sort_r(v->order, v->nr, sizeof(u32), kstats_family_cmp_samples, NULL,
	       v);

	/* "other" is the last group, by the key order. */
	v->keys = v->nr - 1;
	v->other = v->samples[v->nr - 1];
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_view, KSTATS_NS);

/**
 * kstats_family_view_free() - free what kstats_family_view() allocated
 * @v: the view; zeroed afterwards
 */
void kstats_family_view_free(struct kstats_family_view *v)
{
	u32 g;

	for (g = 0; v->cells && g < v->nr; g++)
		kvfree(v->cells[g]);
	kvfree(v->cells);
	kvfree(v->nr_cells);
	kvfree(v->member);
	kvfree(v->first);
	kvfree(v->samples);
	kvfree(v->order);
	memset(v, 0, sizeof(*v));
}
EXPORT_SYMBOL_NS_GPL(kstats_family_view_free, KSTATS_NS);

/**
 * kstats_family_fill_snapshot() - make a snapshot the sum of the keys
 * @v: a view of a family
 * @snap: a snapshot of the same distribution, taken just before @v
 *
 * The distribution's own histogram and its keys are read microseconds
 * apart; the file of a family shows the keys' sum instead, so that its
 * header, its summary and its keys agree to the sample.  The sum goes to
 * @snap's first row (a family's file has no CPU rows); @snap's missed
 * count stays.
 */
void kstats_family_fill_snapshot(const struct kstats_family_view *v,
				 struct kstats_snapshot *snap)
{
	size_t cells = (size_t)snap->nr_cpus * snap->nr_slots;
	u32 g, i, s;

	memset(snap->count, 0, cells * sizeof(u64));
	memset(snap->sum, 0, cells * sizeof(u64));
	memset(snap->cpu_samples, 0, snap->nr_cpus * sizeof(u64));
	memset(snap->slot_samples, 0, snap->nr_slots * sizeof(u64));
	snap->samples = 0;
	for (g = 0; g < v->nr; g++) {
		for (i = 0; i < v->nr_cells[g]; i++) {
			const struct kstats_family_cell *c = &v->cells[g][i];

			s = c->slot;
			snap->count[s] += c->count;
			snap->sum[s] = min(snap->sum[s] + c->sum,
					   kstats_sum_max(snap->count[s]));
			snap->slot_samples[s] += c->count;
			snap->samples += c->count;
		}
	}
	snap->cpu_samples[0] = snap->samples;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_fill_snapshot, KSTATS_NS);

/**
 * kstats_family_group_is_other() - whether group @g is "other"
 * @ks: the distribution
 * @v: its view
 * @g: a group
 *
 * Return: true for the group of index max.
 */
bool kstats_family_group_is_other(const struct kstats *ks,
				  const struct kstats_family_view *v, u32 g)
{
	return v->member[v->first[g]] >= ks->family->max;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_group_is_other, KSTATS_NS);

/**
 * kstats_format_name() - a task name as family keys and outliers show it
 * @c: the name, up to TASK_COMM_LEN bytes, NUL-terminated if shorter
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * Every byte outside '!'..'~' and the backslash as \xHH, and the first
 * of a task named "other" (which is not the key other); "\x00" for "".
 *
 * Context: any.
 * Return: the length written.
 */
int kstats_format_name(const char *c, char *buf, size_t size)
{
	bool esc_first = !strncmp(c, "other", TASK_COMM_LEN);
	int len = 0, i;

	for (i = 0; i < TASK_COMM_LEN && c[i]; i++) {
		if (c[i] >= '!' && c[i] <= '~' && c[i] != '\\' &&
		    !(esc_first && !i))
			len += scnprintf(buf + len, size - len, "%c", c[i]);
		else
			len += scnprintf(buf + len, size - len, "\\x%02x",
					 (u8)c[i]);
	}
	if (!len)
		len = scnprintf(buf, size, "\\x00");
	return len;
}

/**
 * kstats_family_format_index() - the key of index @index as text
 * @f: the family
 * @index: a key's index, or @f->max (or more) for "other"
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * A task name as kstats_format_name() writes it; a number in decimal;
 * "other".
 *
 * Context: any.
 * Return: the length written, as snprintf() would.
 */
int kstats_family_format_index(const struct kstats_family *f, u32 index,
			       char *buf, size_t size)
{
	const struct kstats_family_key *k;

	if (index >= f->max)
		return snprintf(buf, size, "other");
	k = &f->keys[index];
	if (!f->string)
		return f->is_signed ? snprintf(buf, size, "%lld", (s64)k->k[0]) :
				      snprintf(buf, size, "%llu", k->k[0]);
	BUILD_BUG_ON(sizeof(k->k) != TASK_COMM_LEN);
	return kstats_format_name((const char *)k->k, buf, size);
}

/**
 * kstats_family_format_key() - the text of a key, as its file shows it
 * @f: the family
 * @v: its view
 * @g: a group of @v
 * @buf: where to write it
 * @size: of @buf
 *
 * A task name as itself, but every byte outside '!'..'~' and the
 * backslash as \xHH, and the first of a task named "other"; a number in
 * decimal; "other".
 *
 * Return: the length written, as snprintf() would.
 */
int kstats_family_format_key(const struct kstats_family *f,
			     const struct kstats_family_view *v, u32 g,
			     char *buf, size_t size)
{
	return kstats_family_format_index(f, v->member[v->first[g]], buf,
					  size);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_format_key, KSTATS_NS);
