// SPDX-License-Identifier: GPL-2.0
/*
 * keys.c - the names of a family's keys as the recipes show them: softirq
 * vectors, system calls, IRQs (/proc/interrupts) and disks (/sys/dev/block),
 * instead of the numbers the kernel keys them by.  Also the system call
 * table both ways (kstats syscall NAME needs the number).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "kstats_tool.h"

static const struct { const char *name; long nr; } syscalls[] = {
#include "syscalls.h"
};

#define NSYSCALLS (sizeof(syscalls) / sizeof(syscalls[0]))

long syscall_nr(const char *name)
{
	for (size_t i = 0; i < NSYSCALLS; i++)
		if (!strcmp(name, syscalls[i].name))
			return syscalls[i].nr;
	return -1;
}

/* Several names may share a number (aliases): the first, as sorted. */
const char *syscall_name(long nr)
{
	for (size_t i = 0; i < NSYSCALLS; i++)
		if (syscalls[i].nr == nr)
			return syscalls[i].name;
	return NULL;
}

/* include/linux/interrupt.h, softirq_to_name[] (as libbpf-tools softirqs) */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

const char *softirq_name(long vec)
{
	if (vec < 0 || vec >= (long)(sizeof(softirq_names) / sizeof(softirq_names[0])))
		return NULL;
	return softirq_names[vec];
}

/*
 * Why a task left the CPU, from the state sched_switch gives (prev_state,
 * include/linux/sched.h): preempted still runnable, or the sleep it went
 * into, as ps(1) letters them; NULL for one not listed.  TASK_FREEZABLE
 * (0x2000) says how the freezer treats the sleep, not why: the same name,
 * marked, so that its key and the plain one do not read alike.
 */
const char *task_state_name(long state)
{
	static const struct { long state; const char *name, *freezable; } states[] = {
		{ 0x0000, "R(preempted)", NULL },
		{ 0x0001, "S(sleep)", "S(sleep,freezable)" },
		{ 0x0002, "D(blocked)", "D(blocked,freezable)" },
		{ 0x0102, "D(killable)", "D(killable,freezable)" },
		{ 0x0402, "I(idle)", "I(idle,freezable)" },
		{ 0x0104, "T(stopped)", "T(stopped,freezable)" },
		{ 0x0008, "t(traced)", "t(traced,freezable)" },
		{ 0x0040, "P(parked)", "P(parked,freezable)" },
		{ 0x0101, "S(killable)", "S(killable,freezable)" },
	};

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (states[i].state == (state & ~0x2000L))
			return state & 0x2000L ? states[i].freezable : states[i].name;
	return NULL;
}

/*
 * A line of /proc/interrupts (" 24:  0  12  IR-PCI-MSI 327680-edge
 * xhci_hcd"), taken apart: its IRQ, its count (the CPUs' columns added)
 * and its name (the last column, "" when none).  0, or -1 for a line of
 * no numbered IRQ (the header, LOC, NMI...).  @line is cut up.
 */
int irq_line(char *line, long *irq, unsigned long long *count, char *name,
	     size_t len)
{
	char *end, *last = NULL, *save;

	*irq = strtol(line, &end, 10);
	if (end == line || *end != ':')
		return -1;
	*count = 0;
	for (char *t = strtok_r(end + 1, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		char *e;
		unsigned long long v = strtoull(t, &e, 10);

		if (!*e && !last)
			*count += v;
		else
			last = t;
	}
	snprintf(name, len, "%s", last ? last : "");
	return 0;
}

/* IRQ @irq's name in a /proc/interrupts.  0, or -1 if absent. */
int irq_name(FILE *f, long irq, char *buf, size_t len)
{
	char line[4096];
	unsigned long long count;
	long n;

	while (fgets(line, sizeof(line), f))
		if (!irq_line(line, &n, &count, buf, len) && n == irq)
			return buf[0] ? 0 : -1;
	return -1;
}

/*
 * The disk of the kernel's dev_t @dev (MKDEV: major << 20 | minor): DEVNAME
 * of @sysdir/MAJ:MIN/uevent (@sysdir: /sys/dev/block), else "MAJ:MIN".
 */
void disk_name(const char *sysdir, unsigned long long dev, char *buf,
	       size_t len)
{
	unsigned int maj = (unsigned int)(dev >> 20), min = dev & 0xfffff;
	char path[512], line[256];
	FILE *f;

	snprintf(buf, len, "%u:%u", maj, min);
	snprintf(path, sizeof(path), "%s/%u:%u/uevent", sysdir, maj, min);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[8])
				snprintf(buf, len, "%s", line + 8);
			break;
		}
	fclose(f);
}

/*
 * How @k is shown for @names: the name, or the key as the file has it
 * (already escaped) when there is none.  /proc and /sys are read each
 * time: a show prints a few keys.
 */
const char *key_label(const struct kkey *k, enum keynames names, char *buf,
		      size_t len)
{
	const char *name = NULL;
	const char *dir = getenv("KSTATS_SYSFS");	/* tests: a fake /sys, /proc */
	char path[512];
	long long v;
	char *end;
	FILE *f;

	if (k->other || names == KEYS_RAW)
		return k->text;
	v = strtoll(k->text, &end, 10);
	if (*end)
		return k->text;
	switch (names) {
	case KEYS_SOFTIRQ:
		name = softirq_name((long)v);
		break;
	case KEYS_SYSCALL:
		name = syscall_name((long)v);
		break;
	case KEYS_STATE:
		name = task_state_name((long)v);
		break;
	case KEYS_IRQ:
		snprintf(path, sizeof(path), "%s/proc/interrupts", dir ? dir : "");
		f = fopen(path, "r");
		if (f && !irq_name(f, (long)v, buf, len))
			name = buf;
		if (f)
			fclose(f);
		break;
	case KEYS_DISK:
		snprintf(path, sizeof(path), "%s/sys/dev/block", dir ? dir : "");
		disk_name(path, (unsigned long long)v, buf, len);
		return buf;
	default:
		break;
	}
	if (name && name != buf)
		snprintf(buf, len, "%s", name);
	return name ? buf : k->text;
}
