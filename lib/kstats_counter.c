// SPDX-License-Identifier: GPL-2.0
/*
 * Clock ktime read as the CPU's counter (the TSC, arm64's cntvct_el0):
 * the timekeeper's rate and epoch, kept for any reader, NMI included, and
 * whether the counter is CLOCK_MONOTONIC's clocksource.  The direct
 * trampoline (kstats_direct.c) and the sections and tracepoints
 * (kstats_section_handlers.c, kstats_tracepoint.c) read the counter at
 * both ends and scale the difference (kstats_counter.h), where
 * ktime_get_mono_fast_ns() would read the clocksource through its
 * seqcount and an indirect call at each end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeper_internal.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_X86_64
#include <asm/tsc.h>
#else
#include <asm/arch_timer.h>
#endif

#include "kstats.h"
#include "kstats_counter.h"

/*
 * Clock ktime on the TSC: CLOCK_MONOTONIC is the timekeeper's clocksource
 * scaled by its mult and shift (ns = cycles * mult >> shift), mult moved
 * by NTP and adjtimex (ADJ_TICK changes the rate by up to 10 %).  Where
 * the clocksource is the TSC, the direct trampoline and the sections read
 * the TSC at both ends
 * and scales the difference with the timekeeper's mult and shift of the
 * moment of the end, which the timekeeper publishes at every update
 * through the pvclock_gtod notifier, as it does to KVM: a duration is then
 * a difference of two CLOCK_MONOTONIC readings but for a mult change
 * inside it (the next tick's NTP step applied to its whole length rather
 * than to its part after the tick).
 *
 * kstats_counter_tk packs mult (bits 0-31), shift (32-39) and an epoch
 * (40-63) into one word, so that a reader in any context, NMI included,
 * sees a consistent triple.  The epoch moves when the clock is set (a
 * resume from suspend, during which CLOCK_MONOTONIC stops and the TSC may
 * not) and when the clocksource changes: a call or section whose start saw
 * another epoch than its end is not recorded but counted as missed.
 */
#define KSTATS_TK_EPOCH_ONE	BIT_ULL(40)

u64 kstats_counter_tk;

/*
 * The clocksource that is the counter read inline: the TSC, or arm64's
 * generic timer's counter (cntvct_el0).
 */
#ifdef CONFIG_X86_64
#define KSTATS_COUNTER_CS	"tsc"
#else
#define KSTATS_COUNTER_CS	"arch_sys_counter"
#endif
/* The timekeeper's clocksource when last seen, and whether it is the TSC */
static struct clocksource *kstats_counter_tk_cs;
static bool kstats_counter_on;

static notrace int kstats_counter_tk_notify(struct notifier_block *nb,
					    unsigned long was_set, void *data)
{
	struct timekeeper *tk = data;
	struct clocksource *cs = tk->tkr_mono.clock;
	u64 w = READ_ONCE(kstats_counter_tk);
	u64 epoch = w & ~(KSTATS_TK_EPOCH_ONE - 1);

	if (cs != kstats_counter_tk_cs) {
		kstats_counter_tk_cs = cs;
		WRITE_ONCE(kstats_counter_on,
			   !strcmp(cs->name, KSTATS_COUNTER_CS));
		was_set = 1;
	}
	if (was_set)
		epoch += KSTATS_TK_EPOCH_ONE;
	/* Off the TSC, the last TSC rate stays (see kstats_counter_describe()) */
	if (kstats_counter_on)
		w = tk->tkr_mono.mult | (u64)tk->tkr_mono.shift << 32;
	WRITE_ONCE(kstats_counter_tk, epoch | (w & (KSTATS_TK_EPOCH_ONE - 1)));
	return NOTIFY_DONE;
}

static struct notifier_block kstats_counter_tk_nb = {
	.notifier_call = kstats_counter_tk_notify,
};

#ifdef CONFIG_X86_64
/* Whether the TSC may be read inline (rdtsc). */
bool kstats_counter_inline(void)
{
	return boot_cpu_has(X86_FEATURE_TSC);
}

bool kstats_counter_unstable(void)
{
	return check_tsc_unstable();
}
#else
/*
 * Whether cntvct_el0 may be read inline (isb; mrs): on no CPU
 * does the counter need an erratum's workaround, whose reads the kernel's
 * own accessors take (kstats_clock_now()).
 */
bool kstats_counter_inline(void)
{
#if IS_ENABLED(CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND)
	int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu(timer_unstable_counter_workaround, cpu))
			return false;
#endif
	return true;
}

/* The generic timer's counter is one for all CPUs: never found unstable. */
bool kstats_counter_unstable(void)
{
	return false;
}
#endif

/*
 * Whether clock ktime may be read as the TSC: the timekeeper runs on it
 * (its notifier says so, and a snapshot's raw cycles fall between two TSC
 * readings around it), and the TSC was not found unstable.
 */
bool kstats_counter_is_ktime(void)
{
	struct system_time_snapshot snap;
	u64 t0, t1;

	if (!kstats_counter_inline() || kstats_counter_unstable() ||
	    !READ_ONCE(kstats_counter_on) || !(u32)READ_ONCE(kstats_counter_tk))
		return false;
	t0 = kstats_clock_now(KSTATS_CLOCK_TSC);
	ktime_get_snapshot(&snap);
	t1 = kstats_clock_now(KSTATS_CLOCK_TSC);
	return snap.cycles >= t0 && snap.cycles <= t1;
}

/*
 * Whether the counter still is the timekeeper's clocksource (a node that
 * reads it for clock ktime keeps the last rate otherwise).
 */
bool kstats_counter_is_clocksource(void)
{
	return READ_ONCE(kstats_counter_on);
}

/**
 * kstats_counter_describe() - a node's header words for clock ktime read
 *	as the counter: "read tsc" ("read cycles" on arm64), then, should the
 *	counter no longer be CLOCK_MONOTONIC's, why
 * @m: the node's file
 * @name: the node's name, for the kernel log
 * @said: whether the log has said it for this node: set the first time
 *
 * Context: process (a file's read).
 */
void kstats_counter_describe(struct seq_file *m, const char *name, bool *said)
{
	bool unstable = kstats_counter_unstable();

	seq_puts(m, IS_ENABLED(CONFIG_X86_64) ? " read tsc" : " read cycles");
	if (!unstable && kstats_counter_is_clocksource())
		return;
	/* still scaled by the timekeeper's last rate on the TSC */
	seq_puts(m, unstable ? " tsc_unstable yes" : " clocksource_changed yes");
	if (!xchg(said, true))
		pr_warn("%s: reads the %s for clock ktime, which the kernel has since %s: remove the node and make it again\n",
			name, IS_ENABLED(CONFIG_X86_64) ? "TSC" : "counter",
			unstable ? "found unstable" : "stopped using as its clocksource");
}

/**
 * kstats_counter_init() - follow the timekeeper from now on
 *
 * Context: process, at module load.
 * Return: 0 or a negative errno.
 */
int kstats_counter_init(void)
{
	/* called at once, with the timekeeper as it is */
	return pvclock_gtod_register_notifier(&kstats_counter_tk_nb);
}

/**
 * kstats_counter_exit() - stop following it
 *
 * Context: process, at module unload, once no node reads the counter.
 */
void kstats_counter_exit(void)
{
	pvclock_gtod_unregister_notifier(&kstats_counter_tk_nb);
}
