// SPDX-License-Identifier: GPL-2.0
/*
 * The file of a distribution's history, _history/NAME
 * (Documentation/format.rst): its header, then a line per slice that holds
 * samples, oldest first.  The core reads the history
 * (kstats_history_view()); this file only writes it out.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kstats_bucket.h"
#include "kstats_debugfs.h"
#include "kstats_history.h"
#include "kstats_internal.h"

/* The value of the rank-th smallest sample of a slice's cells: its slot's hi. */
static u64 kstats_history_rank_hi(const struct kstats_history_view *v,
				  size_t first, size_t end, u64 rank)
{
	u64 seen = 0;
	size_t i;

	for (i = first; i < end; i++) {
		seen += v->cells[i].count;
		if (seen >= rank)
			break;
	}
	return kstats_slot_hi(v->cells[min(i, end - 1)].slot, v->frac_bits);
}

/* The cells [@first, @end) of one slice, as its line. */
static void kstats_history_show_slice(struct seq_file *m,
				      const struct kstats_history_view *v,
				      size_t first, size_t end)
{
	unsigned int k = v->frac_bits;
	u64 n = 0;
	size_t i;

	for (i = first; i < end; i++)
		n += v->cells[i].count;
	seq_printf(m, "slice %llu samples %llu min %llu p50 %llu p99 %llu max %llu buckets ",
		   v->cells[first].slice * v->slice_ns, n,
		   kstats_slot_lo(v->cells[first].slot, k),
		   kstats_history_rank_hi(v, first, end, kstats_rank(n, 1, 2)),
		   kstats_history_rank_hi(v, first, end, kstats_rank(n, 99, 100)),
		   kstats_slot_hi(v->cells[end - 1].slot, k));
	for (i = first; i < end; i++)
		seq_printf(m, "%s%llu:%llu", i == first ? "" : ",",
			   kstats_slot_lo(v->cells[i].slot, k),
			   v->cells[i].count);
	seq_putc(m, '\n');
}

static int kstats_history_show(struct seq_file *m, void *unused)
{
	const struct kstats_history_view *v = m->private;
	struct kstats *ks = file_inode(m->file)->i_private;
	size_t i, first;

	seq_printf(m, "# history %s slice %llu slices %u bytes %zu state %s",
		   ks->name, v->slice_ns, v->slices, v->bytes,
		   v->frozen ? "frozen" : "live");
	if (v->frozen)
		seq_printf(m, " frozen_at %llu by %s", v->frozen_at, v->reason);
	seq_putc(m, '\n');
	if (v->trigger[0])
		seq_printf(m, "# trigger %s fired_at %llu\n", v->trigger,
			   v->fired_at);
	if (v->lost_slices)
		seq_printf(m, "# lost slices %llu samples %llu\n",
			   v->lost_slices, v->lost_samples);
	for (first = 0, i = 1; first < v->nr_cells; i++) {
		if (i < v->nr_cells && v->cells[i].slice == v->cells[first].slice)
			continue;
		kstats_history_show_slice(m, v, first, i);
		first = i;
	}
	return 0;
}

static int kstats_history_open(struct inode *inode, struct file *file)
{
	struct kstats_history_view *v;
	int err;

	v = kzalloc(sizeof(*v), KSTATS_GFP);
	if (!v)
		return -ENOMEM;
	err = kstats_history_view(inode->i_private, v);
	if (!err)
		err = single_open(file, kstats_history_show, v);
	if (err) {
		kstats_history_view_free(v);
		kfree(v);
	}
	return err;
}

static int kstats_history_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct kstats_history_view *v = m->private;

	kstats_history_view_free(v);
	kfree(v);
	return single_release(inode, file);
}

static const struct file_operations kstats_history_fops = {
	.owner = THIS_MODULE,
	.open = kstats_history_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = kstats_history_release,
};

/**
 * kstats_history_file_add() - give a distribution with a history its file
 * @dir: _history
 * @ks: the distribution
 * @mode: its distribution file's mode, less the writes
 *
 * Context: process, under kstats_mutex.
 * Return: the file, NULL for a distribution without history, or an
 * ERR_PTR from debugfs.
 */
struct dentry *kstats_history_file_add(struct dentry *dir, struct kstats *ks,
				       umode_t mode)
{
	if (!ks->history || !dir)
		return NULL;
	return debugfs_create_file(ks->name, mode & 0444, dir, ks,
				   &kstats_history_fops);
}
