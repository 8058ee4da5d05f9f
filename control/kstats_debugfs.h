/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs interface: /sys/kernel/debug/kstats/ and its _control file.
 * It registers itself as the core's publisher (struct kstats_publisher), so
 * only the module's init and exit (kstats_main.c) call into it.
 */
#ifndef _KSTATS_DEBUGFS_H
#define _KSTATS_DEBUGFS_H

#include <linux/types.h>

struct dentry;
struct kstats;

int kstats_debugfs_init(void);
struct dentry *kstats_history_file_add(struct dentry *dir, struct kstats *ks,
				       umode_t mode);
void kstats_debugfs_exit_control(void);
void kstats_debugfs_exit(void);

#endif /* _KSTATS_DEBUGFS_H */
