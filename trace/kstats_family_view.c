// SPDX-License-Identifier: GPL-2.0
/*
 * A family as read: its keys grouped and ordered with their histograms,
 * copied for a distribution's file (kstats_family_view()), and a key as
 * text, for the file's key blocks and a trace node's outliers.  The map
 * (core/kstats_family.c) records and forgets; this file only reads it, as
 * the kernel's tracing_map is read apart from the code that fills it.
 *
 * It sits in trace/, below control/'s debugfs files that show a view and
 * beside the outliers (kstats_outlier.c, kstats_node.c) that name their
 * keys with it; it calls the core (a snapshot, for a family by CPU), the
 * map's layout, and lib/'s symbols and cgroups to name a key.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kstats_cgroup.h"
#include "kstats_family.h"
#include "kstats_family_view.h"
#include "kstats_internal.h"
#include "kstats_stack.h"

/* The keys a view copied, their frames, the index of "other", to sort by. */
struct kstats_family_sort {
	const struct kstats_family_key *key;
	const unsigned long *frames;
	u32 depth;
	u32 max;
};

/* Indexes by key, "other" last. */
static int kstats_family_cmp_key(const void *a, const void *b,
				 const void *priv)
{
	const struct kstats_family_sort *o = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	int c;

	if (x >= o->max || y >= o->max)
		return (x >= o->max) - (y >= o->max);
	c = memcmp(o->key[x].k, o->key[y].k, sizeof(o->key[x].k));
	if (c || !o->depth)
		return c;
	return memcmp(&o->frames[(size_t)x * o->depth],
		      &o->frames[(size_t)y * o->depth],
		      o->key[x].k[1] * sizeof(*o->frames));
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
 * each), each sum clamped to what its count allows.
 */
static void kstats_family_read_group(struct kstats *ks,
				     const struct kstats_family_view *v, u32 g,
				     u64 *count, u64 *sum)
{
	u32 i, s, n = ks->nr_slots;

	memset(count, 0, n * sizeof(*count));
	memset(sum, 0, n * sizeof(*sum));
	for (i = v->first[g]; i < v->first[g + 1]; i++) {
		const struct kstats_family *f = ks->family;
		const struct kstats_family_slot *h = &f->hist[(size_t)v->member[i] * n];
		/* the row the recorders add to (__kstats_family_add()) */
		struct kstats_slot __percpu *row = READ_ONCE(f->row[v->member[i]]);
		int cpu;

		for (s = 0; s < n; s++) {
			u64 c = atomic64_read(&h[s].count);

			count[s] += c;
			sum[s] += min_t(u64, atomic64_read(&h[s].sum),
					kstats_sum_max(c));
		}
		if (!row)
			continue;
		/* a hot key: its row on each CPU, as the CPUs' rows are read */
		for_each_possible_cpu(cpu) {
			const struct kstats_slot *r = per_cpu_ptr(row, cpu);

			for (s = 0; s < n; s++) {
				u64 c = READ_ONCE(r[s].count);

				count[s] += c;
				sum[s] += min_t(u64, READ_ONCE(r[s].sum),
						kstats_sum_max(c));
			}
		}
	}
}

/*
 * Group @g of @v: its non-empty slots of @count and @sum (@n each, each
 * sum clamped to what its count allows), and its samples.
 */
static int kstats_family_cells(struct kstats_family_view *v, u32 g,
			       const u64 *count, const u64 *sum, u32 n)
{
	u32 s, c;

	v->samples[g] = 0;
	for (s = 0, c = 0; s < n; s++)
		c += !!count[s];
	v->nr_cells[g] = c;
	if (!c)
		return 0;
	v->cells[g] = kvcalloc(c, sizeof(*v->cells[g]), KSTATS_GFP);
	if (!v->cells[g])
		return -ENOMEM;
	for (s = 0, c = 0; s < n; s++) {
		if (!count[s])
			continue;
		v->cells[g][c].slot = s;
		v->cells[g][c].count = count[s];
		v->cells[g][c].sum = min(sum[s], kstats_sum_max(count[s]));
		v->samples[g] += count[s];
		c++;
	}
	return 0;
}

/*
 * Copy the non-empty slots of every group, so that the file shows one
 * instant of each key, and the keys the instant of the distribution's own
 * snapshot, taken just before, give or take what is recorded meanwhile.
 */
static int kstats_family_copy(struct kstats *ks, struct kstats_family_view *v)
{
	u32 g, n = ks->nr_slots;
	u64 *count, *sum;
	int err = 0;

	count = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	sum = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	if (!count || !sum) {
		err = -ENOMEM;
		goto out;
	}
	for (g = 0; g < v->nr; g++) {
		kstats_family_read_group(ks, v, g, count, sum);
		err = kstats_family_cells(v, g, count, sum, n);
		if (err)
			break;
	}
out:
	kvfree(count);
	kvfree(sum);
	return err;
}

/* Groups by samples, most first, as kstats_family_view() orders them. */
static void kstats_family_view_order(struct kstats_family_view *v)
{
	u32 g;

	for (g = 0; g < v->nr; g++)
		v->order[g] = g;
	sort_r(v->order, v->nr, sizeof(u32), kstats_family_cmp_samples, NULL,
	       v);
	/* "other" is the last group, by the key order. */
	v->keys = v->nr - 1;
	v->other = v->samples[v->nr - 1];
}

/*
 * The view of a family by CPU, from a snapshot of the distribution: a
 * group per CPU below @max that has samples, its key the CPU (index and
 * key alike), in the order of their numbers, then "other", the rows of
 * the CPUs from @max on.
 */
static int kstats_family_view_cpus(struct kstats *ks,
				   struct kstats_family_view *v)
{
	struct kstats_family *f = ks->family;
	u32 row, s, g, n = ks->nr_slots;
	struct kstats_snapshot snap;
	u64 *count = NULL, *sum = NULL;
	int err;

	memset(v, 0, sizeof(*v));
	err = kstats_snapshot_take(ks, &snap);
	if (err)
		return err;
	err = -ENOMEM;
	count = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	sum = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	v->member = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->first = kvcalloc(snap.nr_cpus + 2, sizeof(u32), KSTATS_GFP);
	v->samples = kvcalloc(snap.nr_cpus + 1, sizeof(u64), KSTATS_GFP);
	v->cells = kvcalloc(snap.nr_cpus + 1, sizeof(*v->cells), KSTATS_GFP);
	v->nr_cells = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->order = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->key = kvcalloc((size_t)f->max + 1, sizeof(*v->key), KSTATS_GFP);
	if (!count || !sum || !v->member || !v->first || !v->samples ||
	    !v->cells || !v->nr_cells || !v->order || !v->key)
		goto out;
	for (row = 0; row < snap.nr_cpus; row++) {
		const u64 *c = snap.count + (size_t)row * n;
		const u64 *m = snap.sum + (size_t)row * n;
		u32 cpu = snap.cpu[row];

		if (cpu >= f->max || !snap.cpu_samples[row])
			continue;
		g = v->nr++;
		v->first[g] = g;
		v->member[g] = cpu;
		v->key[cpu].k[0] = cpu;
		v->key[cpu].set = 1;
		err = kstats_family_cells(v, g, c, m, n);
		if (err)
			goto out;
	}
	for (row = 0; row < snap.nr_cpus; row++) {
		if (snap.cpu[row] < f->max)
			continue;
		for (s = 0; s < n; s++) {
			count[s] += snap.count[(size_t)row * n + s];
			sum[s] += snap.sum[(size_t)row * n + s];
		}
	}
	g = v->nr++;
	v->first[g] = g;
	v->member[g] = f->max;
	v->first[v->nr] = v->nr;
	err = kstats_family_cells(v, g, count, sum, n);
	if (!err)
		kstats_family_view_order(v);
out:
	kvfree(count);
	kvfree(sum);
	kstats_snapshot_free(&snap);
	if (err)
		kstats_family_view_free(v);
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
	struct kstats_family_sort order;
	struct kstats_family_space *sp;
	u32 n, i, nr, gen, tries = 0;
	int err;

	if (kstats_family_per_cpu(f))
		return kstats_family_view_cpus(ks, v);
again:
	/* Pairs with the reset's release, as a lookup does. */
	gen = smp_load_acquire(&f->gen);
	sp = &f->space[gen & 1];
	nr = min_t(u32, atomic_read(&sp->nr_keys), f->max);
	memset(v, 0, sizeof(*v));
	v->member = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->first = kvcalloc(nr + 2, sizeof(u32), KSTATS_GFP);
	v->samples = kvcalloc(nr + 1, sizeof(u64), KSTATS_GFP);
	v->cells = kvcalloc(nr + 1, sizeof(*v->cells), KSTATS_GFP);
	v->nr_cells = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->order = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->key = kvcalloc(nr + 1, sizeof(*v->key), KSTATS_GFP);
	if (f->depth)
		v->frames = kvcalloc((size_t)(nr + 1) * f->depth,
				     sizeof(*v->frames), KSTATS_GFP);
	if (!v->member || !v->first || !v->samples || !v->cells ||
	    !v->nr_cells || !v->order || !v->key ||
	    (f->depth && !v->frames)) {
		kstats_family_view_free(v);
		return -ENOMEM;
	}
	for (i = 0, n = 0; i < nr; i++) {
		/* Pairs with the insert's release: a key set is written. */
		if (!smp_load_acquire(&sp->keys[i].set))
			continue;
		v->key[i] = sp->keys[i];
		if (f->depth)
			memcpy(&v->frames[(size_t)i * f->depth],
			       &sp->frames[(size_t)i * f->depth],
			       f->depth * sizeof(*v->frames));
		v->member[n++] = i;
	}
	/*
	 * The keys of a generation stay until the second reset after it
	 * empties them: copied whole unless two came meanwhile.
	 */
	smp_rmb();	/* the keys before the generation again */
	if (READ_ONCE(f->gen) - gen > 1) {
		kstats_family_view_free(v);
		if (++tries < 3)
			goto again;
		return -EAGAIN;
	}
	v->member[n++] = f->max;

	order.key = v->key;
	order.frames = v->frames;
	order.depth = f->depth;
	order.max = f->max;
	sort_r(v->member, n, sizeof(u32), kstats_family_cmp_key, NULL, &order);
	for (i = 0; i < n; i++) {
		if (!i || kstats_family_cmp_key(&v->member[i - 1],
						&v->member[i], &order))
			v->first[v->nr++] = i;
	}
	v->first[v->nr] = n;
	err = kstats_family_copy(ks, v);
	if (err) {
		kstats_family_view_free(v);
		return err;
	}
	kstats_family_view_order(v);
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
	kvfree(v->key);
	kvfree(v->frames);
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

/*
 * A stack's frames as text, root first, ';' between them, each
 * "symbol+0xOFF" (no module: a key is one word).
 */
static int kstats_family_format_stack(const unsigned long *frames,
				      unsigned int n, char *buf, size_t size)
{
	char sym[KSYM_SYMBOL_LEN];
	int len = 0;

	while (n--) {
		kstats_stack_format_frame(frames[n], false, sym);
		len += scnprintf(buf + len, size - len, "%s%s", sym,
				 n ? ";" : "");
	}
	return len;
}

/*
 * A key as text: a task name as kstats_format_name() writes it, a number,
 * a caller "symbol+0xOFF", a cgroup's path, a stack's frames (@frames).
 */
static int kstats_family_format(const struct kstats_family *f,
				const struct kstats_family_key *k,
				const unsigned long *frames, char *buf,
				size_t size)
{
	char sym[KSYM_SYMBOL_LEN];

	switch (f->keys) {
	case KSTATS_KEYS_SIGNED:
		return scnprintf(buf, size, "%lld", (s64)k->k[0]);
	case KSTATS_KEYS_NAME:
		BUILD_BUG_ON(sizeof(k->k) != TASK_COMM_LEN);
		return kstats_format_name((const char *)k->k, buf, size);
	case KSTATS_KEYS_CALLER:
		kstats_stack_format_frame(k->k[0], false, sym);
		return scnprintf(buf, size, "%s", sym);
	case KSTATS_KEYS_CGROUP:
		return kstats_cgroup_format(k->k[0], buf, size);
	case KSTATS_KEYS_FUNC: {
		char *off;

		/* the name alone: "symbol+0xOFF", cut at the offset */
		kstats_stack_format_frame(k->k[0], false, sym);
		off = strchr(sym, '+');
		if (off)
			*off = '\0';
		return scnprintf(buf, size, "%s", sym);
	}
	case KSTATS_KEYS_STACK:
		return kstats_family_format_stack(frames, k->k[1], buf, size);
	default:
		return scnprintf(buf, size, "%llu", k->k[0]);
	}
}

/**
 * kstats_family_format_index() - the key of index @index as text
 * @f: the family
 * @index: a key's index from kstats_family_index(), or "other"
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * As kstats_family_show_key() shows it; "other", also for an index of
 * keys forgotten since.
 *
 * Context: process.
 * Return: the length written.
 */
int kstats_family_format_index(const struct kstats_family *f, u32 index,
			       char *buf, size_t size)
{
	const struct kstats_family_space *sp;
	u32 i;

	/* by CPU: the index is the CPU */
	if (kstats_family_per_cpu(f))
		return index < f->max ? scnprintf(buf, size, "%u", index) :
					scnprintf(buf, size, "other");
	i = kstats_family_slot_index(f, index);
	if (i >= f->max)
		return scnprintf(buf, size, "other");
	sp = &f->space[READ_ONCE(f->gen) & 1];
	return kstats_family_format(f, &sp->keys[i],
				    f->depth ? &sp->frames[(size_t)i * f->depth] :
					       NULL, buf, size);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_format_index, KSTATS_NS);

/**
 * kstats_family_format_key() - the text of a key, as its file shows it
 * @f: the family
 * @v: its view
 * @g: a group of @v
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * As kstats_family_show_key() shows it.
 *
 * Context: process.
 * Return: the length written.
 */
int kstats_family_format_key(const struct kstats_family *f,
			     const struct kstats_family_view *v, u32 g,
			     char *buf, size_t size)
{
	u32 i = v->member[v->first[g]];

	if (i >= f->max)
		return scnprintf(buf, size, "other");
	return kstats_family_format(f, &v->key[i],
				    f->depth ? &v->frames[(size_t)i * f->depth] :
					       NULL, buf, size);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_format_key, KSTATS_NS);

/**
 * kstats_family_show_key() - a key, as its file shows it
 * @m: the file
 * @f: the family
 * @v: its view
 * @g: a group of @v
 *
 * A task name as itself, but every byte outside '!'..'~' and the
 * backslash as \\xHH, and the first of a task named "other"; a number in
 * decimal; a caller as "symbol+0xOFF"; a cgroup as its path from the
 * cgroup2 root; a stack as its frames, root first, ';' between them;
 * "other".  Each is one word.
 *
 * Context: process.
 * Return: 0, or -ENOMEM.
 */
int kstats_family_show_key(struct seq_file *m, const struct kstats_family *f,
			   const struct kstats_family_view *v, u32 g)
{
	/* a cgroup's path may take four bytes a character (\xHH) */
	size_t size = f->depth ? f->depth * KSYM_SYMBOL_LEN : 4 * PATH_MAX;
	char *buf = kmalloc(size, KSTATS_GFP);

	if (!buf)
		return -ENOMEM;
	kstats_family_format_key(f, v, g, buf, size);
	seq_puts(m, buf);
	kfree(buf);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_show_key, KSTATS_NS);
