// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs interface of kstats: one file per
 * distribution under /sys/kernel/debug/kstats/, the _control file that
 * creates and removes them, and _errors, the commands they refused.  The
 * text format is documented in Documentation/format.rst; keep both in
 * step.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "kstats_cmd.h"
#include "kstats_debugfs.h"
#include "kstats_errors.h"
#include "kstats_history.h"
#include "kstats_family.h"
#include "kstats_family_view.h"
#include "kstats_internal.h"
#include "kstats_trace.h"

static struct dentry *kstats_root;
static struct dentry *kstats_control;
static struct dentry *kstats_errors_file;
/* _history: a file per distribution with a history */
static struct dentry *kstats_history_dir;
/*
 * Mode of the distribution files.  Under kernel lockdown debugfs refuses to
 * open any file with a write bit (EPERM), but still opens read-only ones:
 * made 0400 then, distributions stay readable and only control is lost.
 */
static umode_t kstats_node_mode = 0600;

/* Lines printed once, at open: what the reader's @head and @tail hold. */
struct kstats_text {
	char *buf;
	size_t len;
};

/*
 * What a reader of a distribution file iterates over: a snapshot taken at
 * open, with the per-CPU and all-CPU counts turned into running totals so
 * that any line can be printed again from its position alone.  Every open
 * has one, so that lseek() and read() find a seq_file whatever the open
 * mode; one opened without read has no snapshot and reads as empty.
 * A distribution that takes negative values also has their summary and,
 * in @errno_count, how many of each -errno: the "errno" rows after the
 * slots.  A family's file shows its keys instead of the slots: @fam,
 * copied, grouped and ordered at open.  The header (@head) and the
 * creator's lines after the rows (@tail, a trace node's outliers) read
 * state that changes while the file is open (the node's state, a probe's
 * counts, the outliers kept): they are printed at open too, since
 * seq_file prints a record again for every read() or lseek() that starts
 * inside it, and one open must read the same bytes every time.
 */
struct kstats_reader {
	struct kstats *ks;
	struct kstats_snapshot snap;
	struct kstats_summary sum;
	struct kstats_neg_summary neg;
	u64 *errno_count;
	struct kstats_family_view fam;
	struct kstats_text head;
	struct kstats_text tail;
};

/* Running total of row @row up to and including slot @s. */
static u64 kstats_cum(const struct kstats_snapshot *snap, u32 row, u32 s)
{
	return snap->count[(size_t)row * snap->nr_slots + s];
}

static u64 kstats_count(const struct kstats_snapshot *snap, u32 row, u32 s)
{
	return kstats_cum(snap, row, s) - (s ? kstats_cum(snap, row, s - 1) : 0);
}

static void kstats_seq_p(struct seq_file *m, u64 part, u64 whole)
{
	u64 ppm = kstats_ppm(part, whole);

	seq_printf(m, " p %llu.%06llu", ppm / 1000000, ppm % 1000000);
}

static void kstats_show_header(struct seq_file *m, struct kstats_reader *r)
{
	const struct kstats_snapshot *snap = &r->snap;
	const struct kstats_summary *sum = &r->sum;
	struct kstats *ks = r->ks;

	seq_printf(m, "# name %s clock %s unit %s frac_bits %u state %s cpus %u samples %llu missed %llu\n",
		   ks->name, kstats_clock_name(ks->clock),
		   kstats_clock_unit(ks->clock), ks->frac_bits,
		   kstats_is_active(ks) ? "active" : "stopped", snap->nr_cpus,
		   snap->samples, snap->missed);
#ifdef CONFIG_X86
	if (ks->clock == KSTATS_CLOCK_TSC)
		seq_printf(m, "# clock tsc_khz %u\n", tsc_khz);
#elif defined(CONFIG_ARM64)
	if (ks->clock == KSTATS_CLOCK_CYCLES)
		seq_printf(m, "# clock cycles_khz %u\n",
			   arch_timer_get_cntfrq() / 1000);
#endif
	/* slot_samples[] is cumulative by now: the last slot's own count */
	if (snap->clamp != U64_MAX)
		seq_printf(m, "# range max_value %llu overflow %llu\n",
			   snap->clamp - 1,
			   snap->slot_samples[snap->nr_slots - 1] -
			   snap->slot_samples[snap->nr_slots - 2]);
	if (ks->ops->show_source)
		ks->ops->show_source(ks, m);
	else
		seq_puts(m, "# source mechanism api\n");
	if (ks->family) {
		const struct kstats_family *f = ks->family;

		/* by CPU: the keys are the rows the distribution has anyway */
		seq_printf(m, "# family by %s max %u keys %u other %llu key_bytes %zu",
			   f->by, f->max, r->fam.keys, r->fam.other,
			   kstats_family_per_cpu(f) ? 0 :
			   kstats_family_key_bytes(ks->nr_slots, f->depth));
		/* of key_bytes: a stack's frames, in use and spare */
		if (f->depth)
			seq_printf(m, " frames %u stack_bytes %zu", f->depth,
				   2 * f->depth * sizeof(unsigned long));
		/* hot keys: each takes a per-CPU histogram, on every CPU */
		if (!kstats_family_per_cpu(f))
			seq_printf(m, " hot_keys %u hot_max %u hot_bytes %zu",
				   min_t(u32, atomic_read(&f->hot_used), f->nr_hot),
				   f->nr_hot, (size_t)ks->nr_slots *
				   sizeof(struct kstats_slot) * num_possible_cpus());
		seq_putc(m, '\n');
	}
	if (ks->neg && (ks->neg->show_empty || r->neg.count))
		seq_printf(m, "# negative samples %llu min %lld max %lld\n",
			   r->neg.count, r->neg.min, r->neg.max);
	seq_printf(m, "# summary samples %llu min %llu p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu mean %llu\n",
		   sum->samples, sum->min, sum->p50, sum->p90, sum->p99,
		   sum->p999, sum->max, sum->mean);
}

/*
 * The all-CPU row of slot @s: @n samples whose total is @sum_hi:@sum_lo,
 * @cum of @total up to and including it.
 */
static void kstats_show_all_row(struct seq_file *m,
				const struct kstats_snapshot *snap, u32 s,
				u64 n, u64 sum_hi, u64 sum_lo, u64 cum,
				u64 total)
{
	seq_printf(m, "slot %u CPUS %u count %llu avg %llu", s, snap->nr_cpus,
		   n, kstats_div128(sum_hi, sum_lo, n));
	kstats_seq_p(m, cum, total);
	seq_printf(m, " lo %llu hi %llu\n", kstats_slot_lo(s, snap->frac_bits),
		   kstats_snapshot_slot_hi(snap, s));
}

static void kstats_show_slot(struct seq_file *m, struct kstats_reader *r,
			     u32 s)
{
	const struct kstats_snapshot *snap = &r->snap;
	unsigned int k = snap->frac_bits;
	u64 lo = kstats_slot_lo(s, k), hi = kstats_snapshot_slot_hi(snap, s);
	u64 all = snap->slot_samples[s] - (s ? snap->slot_samples[s - 1] : 0);
	u64 all_sum_hi = 0, all_sum_lo = 0;
	u32 row;

	if (!all)
		return;
	for (row = 0; row < snap->nr_cpus; row++) {
		u64 n = kstats_count(snap, row, s);
		u64 sum = snap->sum[(size_t)row * snap->nr_slots + s];
		u64 t_hi, t_lo;

		if (!n)
			continue;
		t_lo = kstats_slot_total(s, k, n, sum, &t_hi);
		all_sum_lo += t_lo;
		all_sum_hi += t_hi + (all_sum_lo < t_lo);
		seq_printf(m, "slot %u CPU %u count %llu avg %llu", s,
			   snap->cpu[row], n, kstats_slot_avg(s, k, n, sum));
		kstats_seq_p(m, kstats_cum(snap, row, s),
			     snap->cpu_samples[row]);
		seq_printf(m, " lo %llu hi %llu\n", lo, hi);
	}
	kstats_show_all_row(m, snap, s, all, all_sum_hi, all_sum_lo,
			    snap->slot_samples[s], snap->samples);
}

/*
 * A family's key: "key KEY samples N", then its slots as all-CPU rows,
 * as copied at open.
 */
static int kstats_show_key(struct seq_file *m, struct kstats_reader *r,
			   u32 g)
{
	const struct kstats_family_cell *cell = r->fam.cells[g];
	const struct kstats_snapshot *snap = &r->snap;
	u64 total = r->fam.samples[g], cum = 0, t_hi, t_lo;
	u32 i;
	int err;

	if (!total)
		return 0;
	seq_puts(m, "key ");
	err = kstats_family_show_key(m, r->ks->family, &r->fam, g);
	if (err)
		return err;
	seq_printf(m, " samples %llu\n", total);
	for (i = 0; i < r->fam.nr_cells[g]; i++) {
		cum += cell[i].count;
		t_lo = kstats_slot_total(cell[i].slot, snap->frac_bits,
					 cell[i].count, cell[i].sum, &t_hi);
		kstats_show_all_row(m, snap, cell[i].slot, cell[i].count, t_hi,
				    t_lo, cum, total);
	}
	return 0;
}

static void kstats_show_errno(struct seq_file *m, struct kstats_reader *r)
{
	int e;

	for (e = 1; e <= KSTATS_MAX_ERRNO; e++)
		if (r->errno_count[e])
			seq_printf(m, "errno %d count %llu\n", e,
				   r->errno_count[e]);
}

/* The slots of a distribution's file, or the keys of a family's. */
static u32 kstats_nr_rows(const struct kstats_reader *r)
{
	return r->ks->family ? r->fam.nr : r->snap.nr_slots;
}

/*
 * Position 0 is the header, position 1 + s is slot s (or the key that
 * comes s-th, in a family's file), one more holds the errno rows of a
 * distribution that has them, and one more the lines its creator shows
 * after them (a trace node's outliers).
 */
static void *kstats_seq_start(struct seq_file *m, loff_t *pos)
{
	struct kstats_reader *r = m->private;
	loff_t last = kstats_nr_rows(r) + !!r->errno_count +
		      !!r->ks->ops->show_tail;

	return r->snap.count && *pos <= last ? pos : NULL;
}

static void *kstats_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return kstats_seq_start(m, pos);
}

static void kstats_seq_stop(struct seq_file *m, void *v)
{
}

static int kstats_seq_show(struct seq_file *m, void *v)
{
	loff_t pos = *(loff_t *)v;

	struct kstats_reader *r = m->private;

	if (!pos)
		seq_write(m, r->head.buf, r->head.len);
	else if (pos <= kstats_nr_rows(r) && r->ks->family)
		return kstats_show_key(m, r, r->fam.order[pos - 1]);
	else if (pos <= kstats_nr_rows(r))
		kstats_show_slot(m, r, pos - 1);
	else if (pos == kstats_nr_rows(r) + 1 && r->errno_count)
		kstats_show_errno(m, r);
	else
		seq_write(m, r->tail.buf, r->tail.len);
	return 0;
}

static const struct seq_operations kstats_seq_ops = {
	.start = kstats_seq_start,
	.next = kstats_seq_next,
	.stop = kstats_seq_stop,
	.show = kstats_seq_show,
};

/* The creator's lines after the rows, for kstats_text_print(). */
static void kstats_show_tail(struct seq_file *m, struct kstats_reader *r)
{
	r->ks->ops->show_tail(r->ks, m);
}

/*
 * Print @show's lines into @t, in a seq_file of the reader's own whose
 * buffer grows as seq_read() grows its own: from a page, doubled until
 * the lines fit.
 */
static int kstats_text_print(struct kstats_text *t, struct kstats_reader *r,
			     void (*show)(struct seq_file *m,
					  struct kstats_reader *r))
{
	struct seq_file m = { .size = PAGE_SIZE };

	for (;;) {
		m.buf = kvmalloc(m.size, KSTATS_GFP);
		if (!m.buf)
			return -ENOMEM;
		m.count = 0;
		show(&m, r);
		if (!seq_has_overflowed(&m))
			break;
		kvfree(m.buf);
		if (m.size > MAX_RW_COUNT / 2)
			return -ENOMEM;
		m.size *= 2;
	}
	t->buf = m.buf;
	t->len = m.count;
	return 0;
}

static void kstats_reader_free(struct kstats_reader *r)
{
	kvfree(r->head.buf);
	kvfree(r->tail.buf);
	kvfree(r->errno_count);
	kstats_family_view_free(&r->fam);
	kstats_snapshot_free(&r->snap);
}

static int kstats_node_open(struct inode *inode, struct file *file)
{
	struct kstats_reader *r;
	u32 row, s;
	int err;

	r = __seq_open_private(file, &kstats_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ks = inode->i_private;
	if (!(file->f_mode & FMODE_READ))
		return 0;
	err = kstats_snapshot_take(r->ks, &r->snap);
	if (err) {
		seq_release_private(inode, file);
		return err;
	}
	if (r->ks->family) {
		err = kstats_family_view(r->ks, &r->fam);
		if (err) {
			kstats_reader_free(r);
			seq_release_private(inode, file);
			return err;
		}
		/* The total of a family's file is its keys', to the sample. */
		kstats_family_fill_snapshot(&r->fam, &r->snap);
	}
	kstats_snapshot_summary(&r->snap, &r->sum);
	kstats_negative_read(r->ks, &r->neg, NULL);
	if (r->neg.count || (r->ks->neg && r->ks->neg->show_empty)) {
		r->errno_count = kvcalloc(KSTATS_MAX_ERRNO + 1, sizeof(u64),
					  KSTATS_GFP);
		if (!r->errno_count) {
			kstats_reader_free(r);
			seq_release_private(inode, file);
			return -ENOMEM;
		}
		kstats_negative_read(r->ks, &r->neg, r->errno_count);
	}
	for (row = 0; row < r->snap.nr_cpus; row++) {
		u64 *c = r->snap.count + (size_t)row * r->snap.nr_slots;

		for (s = 1; s < r->snap.nr_slots; s++)
			c[s] += c[s - 1];
	}
	for (s = 1; s < r->snap.nr_slots; s++)
		r->snap.slot_samples[s] += r->snap.slot_samples[s - 1];
	err = kstats_text_print(&r->head, r, kstats_show_header);
	if (!err && r->ks->ops->show_tail)
		err = kstats_text_print(&r->tail, r, kstats_show_tail);
	if (err) {
		kstats_reader_free(r);
		seq_release_private(inode, file);
	}
	return err;
}

static int kstats_node_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct kstats_reader *r = m->private;

	kstats_reader_free(r);
	return seq_release_private(inode, file);
}

/*
 * A command that failed, added to _errors: @text as written, @why as the
 * refusal noted it; one that failed with no refusal noted (no memory for
 * its node, a mechanism's error) under its first word, with its errno.
 */
static void kstats_log_refusal(const char *text, size_t len,
			       struct kstats_refusal *why, const char *loc,
			       int err)
{
	if (!why->set) {
		why->set = true;
		why->pos = 0;
		strscpy(why->loc, loc, sizeof(why->loc));
		snprintf(why->reason, sizeof(why->reason), "failed (%pe)",
			 ERR_PTR(err));
	}
	kstats_errors_add(text, len, why);
}

/*
 * Copy a command from userspace: at most KSTATS_CMD_MAX bytes, no NUL
 * inside.  Each write() is one whole command.  A refusal goes to _errors,
 * with as much of the command as was taken: up to its NUL, or its first
 * KSTATS_CMD_MAX bytes.
 */
static char *kstats_copy_cmd(const char __user *ubuf, size_t count,
			     const char *file)
{
	struct kstats_refusal why;
	bool size_ok = count && count <= KSTATS_CMD_MAX;
	char *buf;

	buf = memdup_user_nul(ubuf, min_t(size_t, count, KSTATS_CMD_MAX));
	if (IS_ERR(buf) && size_ok)
		return buf;
	/* a command of the wrong size is -EINVAL, readable or not */
	if (IS_ERR(buf))
		buf = NULL;
	kstats_refusal_init(&why, buf);
	if (!size_ok) {
		kstats_refuse(&why, NULL, file,
			      "command of %zu bytes, expected 1 to %d", count,
			      KSTATS_CMD_MAX);
	} else if (strlen(buf) != count) {
		kstats_refuse(&why, buf + strlen(buf), file,
			      "NUL byte inside the command");
	} else {
		return buf;
	}
	kstats_errors_add(buf ?: "", buf ? strlen(buf) : 0, &why);
	kfree(buf);
	return ERR_PTR(-EINVAL);
}

static ssize_t kstats_node_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct kstats *ks = file_inode(file)->i_private;
	char *buf;
	int op;

	buf = kstats_copy_cmd(ubuf, count, ks->name);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (kstats_parse_node_command(buf, &op)) {
		struct kstats_refusal why;
		char *cmd;

		kstats_refusal_init(&why, buf);
		cmd = strim(buf);
		kstats_refuse(&why, cmd, ks->name,
			      "unknown command '%s': use start, stop or reset",
			      cmd);
		kstats_errors_add(buf, count, &why);
		kfree(buf);
		return -EINVAL;
	}
	kfree(buf);
	switch (op) {
	case KSTATS_NODE_START:
		kstats_start(ks);
		break;
	case KSTATS_NODE_STOP:
		kstats_stop(ks);
		break;
	default:
		kstats_reset(ks);
		break;
	}
	return count;
}

static const struct file_operations kstats_node_fops = {
	.owner = THIS_MODULE,
	.open = kstats_node_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = kstats_node_write,
	.release = kstats_node_release,
};

static int kstats_remove(const char *name, struct kstats_refusal *why)
{
	struct kstats *ks;
	int err = 0;

	mutex_lock(&kstats_mutex);
	ks = kstats_find_locked(name);
	if (!ks)
		err = -ENOENT;
	else if (ks->maker != KSTATS_MADE_BY_CONTROL)
		err = -EPERM;
	if (!err)
		kstats_forget_locked(ks);
	mutex_unlock(&kstats_mutex);
	if (err == -ENOENT)
		kstats_refuse(why, name, "_control",
			      "remove %s: no such distribution", name);
	else if (err)
		kstats_refuse(why, name, "_control",
			      "remove %s: made by kernel code or with its trace node, which removes it",
			      name);
	else
		kstats_drop(ks);
	return err;
}

static void kstats_remove_all(void)
{
	struct kstats *ks;

	while ((ks = kstats_pop_removable()))
		kstats_drop(ks);
}

static int kstats_control_execute(struct kstats_cmd *cmd)
{
	char origin[sizeof(((struct kstats *)NULL)->origin)];
	struct kstats *ks;

	switch (cmd->op) {
	case KSTATS_CMD_REMOVE:
		return kstats_remove(cmd->cfg.name, &cmd->why);
	case KSTATS_CMD_REMOVE_ALL:
		kstats_remove_all();
		return 0;
	case KSTATS_CMD_TRACE:
		return kstats_trace_create(cmd);
	case KSTATS_CMD_FREEZE:
		return kstats_history_freeze("freeze", &cmd->why);
	case KSTATS_CMD_THAW:
		return kstats_history_thaw(&cmd->why);
	case KSTATS_CMD_TRIGGER:
		return kstats_history_trigger(cmd->cfg.name, cmd->trigger_above,
					      cmd->trigger_after, &cmd->why);
	default:
		break;
	}
	snprintf(origin, sizeof(origin), "new bits %u clock %s",
		 cmd->cfg.frac_bits, kstats_clock_name(cmd->cfg.clock));
	if (cmd->cfg.max_value)
		snprintf(origin + strlen(origin), sizeof(origin) - strlen(origin),
			 " max %llu", cmd->cfg.max_value);
	if (cmd->cfg.history_slices)
		snprintf(origin + strlen(origin), sizeof(origin) - strlen(origin),
			 " history %llu %u", cmd->cfg.history_slice_ns,
			 cmd->cfg.history_slices);
	ks = kstats_create(&cmd->cfg, origin, KSTATS_MADE_BY_CONTROL, &cmd->why);
	return PTR_ERR_OR_ZERO(ks);
}

static ssize_t kstats_control_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct kstats_cmd *cmd;
	char *buf, *text;
	int err;

	buf = kstats_copy_cmd(ubuf, count, "_control");
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/*
	 * A section's four points of options: too much for the stack.  The
	 * text as written, for _errors: the parser cuts @buf at its words.
	 */
	cmd = kmalloc(sizeof(*cmd), KSTATS_GFP);
	text = kmemdup(buf, count + 1, KSTATS_GFP);
	err = cmd && text ? kstats_parse_command(buf, cmd) : -ENOMEM;
	if (!err)
		err = kstats_control_execute(cmd);
	if (err && cmd && text)
		kstats_log_refusal(text, count, &cmd->why, "_control", err);
	kfree(text);
	kfree(cmd);
	kfree(buf);
	return err ? err : count;
}

static int kstats_control_show(struct seq_file *m, void *v)
{
	struct kstats *ks;

	mutex_lock(&kstats_mutex);
	list_for_each_entry(ks, &kstats_list, node)
		seq_printf(m, "%s %s\n", ks->name, ks->origin);
	mutex_unlock(&kstats_mutex);
	seq_puts(m,
		 "# commands (write one per line to this file):\n"
		 "#   new NAME [bits 0-5] [clock ktime|local|cycles|tsc|none] [max V] [history NS COUNT]\n"
		 "#   trace FUNC [bits B] [clock C] [name NAME] [maxactive N] [mech direct|fprobe|kretprobe] [gap] [value V] [FILTER...] [BY]\n"
		 "#   trace GLOB|F1,F2,... [name NAME] [FILTER...] [by func|BY]   (one node over several functions)\n"
		 "#   trace tp:GROUP:EVENT [name NAME] [bits B] [clock C] [value V] [FILTER...] [BY]   (time between events on a CPU, or V)\n"
		 "#   trace NAME start SYM[+OFF]|tp:GROUP:EVENT [key K] [BY] [FILTER...] end SYM[+OFF]|tp:GROUP:EVENT [key K] [FILTER...] [inflight N] [bits B] [clock C] [name NAME]\n"
		 "#     V: ret|argN[:SIZE] then up to 4 of +OFF:SIZE or -OFF:SIZE (SIZE 1 2 4 8 s1 s2 s4)\n"
		 "#     K: task|cpu|V (what pairs a section's start with its end)\n"
		 "#     FILTER: pid N | tid N | comm NAME | cpu N | cgroup PATH | if V OP C (OP == != < <= > >= &)\n"
		 "#     BY: by comm|pid|tid|cpu|caller|cgroup|stack [N]|V [max N] (a histogram per key, at most N, the rest in other)\n"
		 "#   remove NAME | remove all\n"
		 "#   freeze | thaw | trigger NAME above V [after NS]   (every node's history, _history/NAME)\n"
		 "#     history NS COUNT: an option of new and trace: COUNT slices of NS ns each\n"
		 "# to a distribution file: start | stop | reset\n");
	return 0;
}

static int kstats_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, kstats_control_show, NULL);
}

static const struct file_operations kstats_control_fops = {
	.owner = THIS_MODULE,
	.open = kstats_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = kstats_control_write,
	.release = single_release,
};

static int kstats_errors_seq_show(struct seq_file *m, void *v)
{
	kstats_errors_show(m);
	return 0;
}

/* As tracefs' error_log: opened for writing with O_TRUNC, it empties. */
static int kstats_errors_open(struct inode *inode, struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		kstats_errors_clear();
	return single_open(file, kstats_errors_seq_show, NULL);
}

/*
 * Any write empties it too: there is nothing else to write to a log.  A
 * buffer that cannot be read is -EFAULT, as for every file of kstats.
 */
static ssize_t kstats_errors_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char c;

	if (count && get_user(c, ubuf))
		return -EFAULT;
	(void)c;
	kstats_errors_clear();
	return count;
}

static const struct file_operations kstats_errors_fops = {
	.owner = THIS_MODULE,
	.open = kstats_errors_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = kstats_errors_write,
	.release = single_release,
};

/* Called under kstats_mutex, so that names stay unique in the directory. */
static int kstats_debugfs_add(struct kstats *ks)
{
	struct dentry *d;

	if (!kstats_root)
		return 0;
	d = debugfs_create_file(ks->name, kstats_node_mode, kstats_root, ks,
				&kstats_node_fops);
	if (IS_ERR(d)) {
		pr_warn_ratelimited("%s: cannot create the debugfs file: %ld\n",
				    ks->name, PTR_ERR(d));
		return PTR_ERR(d);
	}
	ks->dentry = d;
	d = kstats_history_file_add(kstats_history_dir, ks, kstats_node_mode);
	if (IS_ERR(d)) {
		pr_warn_ratelimited("%s: cannot create its _history file: %ld\n",
				    ks->name, PTR_ERR(d));
		debugfs_remove(ks->dentry);
		ks->dentry = NULL;
		return PTR_ERR(d);
	}
	return 0;
}

/* Waits for the file operations in flight on @ks's file. */
static void kstats_debugfs_remove(struct kstats *ks)
{
	debugfs_remove(ks->dentry);
	ks->dentry = NULL;
	if (ks->history && kstats_history_dir)
		debugfs_lookup_and_remove(ks->name, kstats_history_dir);
}

static const struct kstats_publisher kstats_debugfs_publisher = {
	.add = kstats_debugfs_add,
	.remove = kstats_debugfs_remove,
};

int kstats_debugfs_init(void)
{
	struct dentry *d = debugfs_create_dir("kstats", NULL);

	if (IS_ERR(d)) {
		/* Distributions still work for kernel code, without files. */
		pr_warn("debugfs is not available (%ld): no files, the API still works\n",
			PTR_ERR(d));
		kstats_set_publisher(&kstats_debugfs_publisher);
		return 0;
	}
	kstats_root = d;
	/*
	 * Loading succeeds under lockdown, so that code annotated with
	 * kstats_new() keeps working; say once what the user loses.  A
	 * lockdown raised later finds every file 0600 and closes them all.
	 */
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		kstats_node_mode = 0400;
		pr_notice("kernel lockdown: distribution files are read-only; _control, start, stop and reset refuse with EPERM\n");
	}
	d = debugfs_create_file("_control", 0600, kstats_root, NULL,
				&kstats_control_fops);
	if (IS_ERR(d)) {
		debugfs_remove(kstats_root);
		kstats_root = NULL;
		return PTR_ERR(d);
	}
	kstats_control = d;
	/* readable under lockdown too (0400): empty then, as no command runs */
	d = debugfs_create_file("_errors", kstats_node_mode, kstats_root, NULL,
				&kstats_errors_fops);
	if (IS_ERR(d)) {
		debugfs_remove(kstats_root);
		kstats_root = NULL;
		kstats_control = NULL;
		return PTR_ERR(d);
	}
	kstats_errors_file = d;
	d = debugfs_create_dir("_history", kstats_root);
	if (IS_ERR(d)) {
		debugfs_remove(kstats_root);
		kstats_root = NULL;
		kstats_control = NULL;
		kstats_errors_file = NULL;
		return PTR_ERR(d);
	}
	kstats_history_dir = d;
	kstats_set_publisher(&kstats_debugfs_publisher);
	return 0;
}

/* First, so that no command runs while the distributions go. */
void kstats_debugfs_exit_control(void)
{
	debugfs_remove(kstats_control);
	kstats_control = NULL;
}

void kstats_debugfs_exit(void)
{
	kstats_set_publisher(NULL);
	debugfs_remove(kstats_root);
	kstats_root = NULL;
	kstats_errors_file = NULL;
	kstats_history_dir = NULL;
	kstats_errors_clear();
}
