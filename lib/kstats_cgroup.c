// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2 paths and ids: "cgroup PATH" is resolved to an id when a node
 * is made, and a "by cgroup" key, an id, is shown as its path when the
 * file is read, never on the recording path.
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kernfs.h>
#include <linux/limits.h>
#include <linux/slab.h>

#include "kstats_cgroup.h"
#include "kstats_internal.h"

/**
 * kstats_cgroup_resolve() - the cgroup v2 at a path
 * @path: under the cgroup2 mount, as "/system.slice/x.service"; "/" is
 *	the root
 * @id: its id
 * @level: its depth below the root, 0 for the root
 *
 * Context: process.
 * Return: 0, -ENOENT for a path that is not a cgroup, -EOPNOTSUPP on a
 * kernel without cgroups.
 */
int kstats_cgroup_resolve(const char *path, u64 *id, u32 *level)
{
#ifndef CONFIG_CGROUPS
	return -EOPNOTSUPP;
#else
	struct cgroup *cg = cgroup_get_from_path(path);

	if (IS_ERR(cg))
		return -ENOENT;
	*id = cgroup_id(cg);
	*level = cg->level;
	cgroup_put(cg);
	return 0;
#endif
}

/**
 * kstats_cgroup_format() - a cgroup v2's path, as keys and filters show it
 * @id: the cgroup's id
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * The path from the cgroup2 root ("/" for the root), every byte outside
 * '!'..'~' and the backslash as \xHH, so that it is one word; "id:N" for
 * a cgroup removed since.
 *
 * Context: process.
 * Return: the length written.
 */
int kstats_cgroup_format(u64 id, char *buf, size_t size)
{
#ifndef CONFIG_CGROUPS
	return scnprintf(buf, size, "id:%llu", id);
#else
	struct cgroup *cg = cgroup_get_from_id(id);
	int len = 0, n, i;
	char *path;

	if (IS_ERR(cg))
		return scnprintf(buf, size, "id:%llu", id);
	path = kmalloc(PATH_MAX, KSTATS_GFP);
	n = path ? kernfs_path_from_node(cg->kn, NULL, path, PATH_MAX) : -ENOMEM;
	cgroup_put(cg);
	if (n < 0 || n >= PATH_MAX) {
		kfree(path);
		return scnprintf(buf, size, "id:%llu", id);
	}
	for (i = 0; i < n; i++) {
		u8 c = path[i];

		if (c >= '!' && c <= '~' && c != '\\')
			len += scnprintf(buf + len, size - len, "%c", c);
		else
			len += scnprintf(buf + len, size - len, "\\x%02x", c);
	}
	kfree(path);
	return len;
#endif
}
