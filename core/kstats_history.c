// SPDX-License-Identifier: GPL-2.0
/*
 * A distribution's history: its samples slice by slice of time (the
 * config's history_slice_ns and history_slices, "history NS COUNT" in a
 * command), and the machine-wide freeze of every history ("freeze",
 * "thaw", "trigger NAME above V [after NS]").
 *
 * The fast path of a record is not touched.  Each CPU's histogram is
 * cumulative; a slice is the difference of a CPU's counts between the
 * start of the slice and its end.  A CPU takes that difference itself, in
 * the slow path of the record (kstats_history_note()), at its first sample
 * of a new slice, and appends it to a ring of its own: one writer per
 * ring, in any context, NMI included, with no lock and no atomic of the
 * bus.  What sends the first sample of a slice down the slow path is the
 * extremes the fast path compares with (struct kstats_extremes): at the
 * end of a slice in which the distribution took samples, a timer lowers
 * every CPU's max to 0, keeping it in the CPU's struct kstats_hook, and
 * the next sample of each CPU, out of the extremes, takes the slow path,
 * which puts the max back.  A distribution that takes no sample arms no
 * timer: an idle history costs nothing.  A trigger lowers its
 * distribution's max the same way, below its value, until a sample at or
 * above it fires.
 *
 * A ring holds records of varints (the slice, then the slots that hold
 * samples, each as its distance from the one before and its count),
 * oldest first; a writer short of room lets the oldest go, counted.  A
 * reader copies a ring without stopping its writer: the writer moves the
 * ring's tail before it writes over the bytes, its head after it has
 * written them, so the reader keeps what lies between the tail it reads
 * after its copy and the head it read before.
 *
 * A freeze copies every CPU's counts at one instant and stops the rings:
 * what a CPU counted since its slice began is the frozen ring's last
 * slice.  A thaw makes every CPU close that slice and start anew, the
 * samples of the freeze left out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>

#include "kstats_errors.h"
#include "kstats_history.h"
#include "kstats_internal.h"

/* Longest varint of a u64. */
#define KSTATS_VARINT_MAX	10

/**
 * struct kstats_history_cpu - one CPU's part of a history, its own to write
 * @slice: the slice its samples since @snap are of (that of its part's
 *	making until its first slow path)
 * @snap: its counts, per slot, at the start of @slice
 * @delta: scratch of the slow path: the slice's counts per slot
 * @frozen: its counts at the freeze, when @frozen_valid
 * @frozen_slice: @slice at the freeze
 * @frozen_valid: the freeze found it in a slice
 * @gen: the thaws it has seen (kstats_history_gen)
 * @reset_gen: the resets of the distribution it has seen
 * @busy: in its slow path: an NMI that comes then leaves the ring alone
 * @ring: the ring of records, @ring_bytes long (struct kstats_history)
 * @head: where the next record goes: bytes written since the start
 * @tail: where the oldest record begins
 * @lost_slices: records let go to make room before their time was out
 * @lost_samples: their samples
 */
struct kstats_history_cpu {
	u64 slice;
	u64 *snap;
	u64 *delta;
	u64 *frozen;
	u64 frozen_slice;
	bool frozen_valid;
	u32 gen;
	u32 reset_gen;
	int busy;
	u8 *ring;
	u64 head;
	u64 tail;
	u64 lost_slices;
	u64 lost_samples;
};

/**
 * struct kstats_history - a distribution's history
 * @ks: the distribution
 * @slice_ns: the length of a slice
 * @slices: how many the history keeps
 * @ring_bytes: each CPU's ring
 * @bytes: all its memory, as counted against the bound
 * @cpu: the CPUs' parts
 * @reset_gen: the distribution's resets
 * @reset_slice: the slice of the last reset: older slices are gone
 * @armed: the end-of-slice timer is armed, or about to be
 * @next_end: when the slice that armed it ends
 * @arm_work: arms @timer, for a slow path that cannot (an NMI's)
 * @timer: at @next_end, sends every CPU's next sample down the slow path
 * @node: in kstats_histories, under kstats_history_lock
 * @cpu_bytes: what a CPU's part takes: its counts and its ring
 * @cpuhp: in the hotplug state's instances: a CPU that comes online gets
 *	its part (kstats_history_cpu_prepare())
 * @cpuhp_added: @cpuhp is in them
 */
struct kstats_history {
	struct kstats *ks;
	u64 slice_ns;
	u32 slices;
	u32 ring_bytes;
	size_t bytes;
	struct kstats_history_cpu __percpu *cpu;
	u32 reset_gen;
	u64 reset_slice;
	atomic_t armed;
	u64 next_end;
	struct irq_work arm_work;
	struct hrtimer timer;
	struct list_head node;
	size_t cpu_bytes;
	struct hlist_node cpuhp;
	bool cpuhp_added;
};

/*
 * The histories (a freeze walks them, in any context but NMI), the memory
 * they take, and the freeze: a raw spinlock, held for a walk of the
 * CPUs' counts at most.
 */
static DEFINE_RAW_SPINLOCK(kstats_history_lock);
static LIST_HEAD(kstats_histories);
static size_t kstats_history_total;
static bool kstats_history_frozen;
static u64 kstats_history_frozen_at;
static char kstats_history_reason[KSTATS_HISTORY_REASON_MAX];
/* The thaws: a CPU that finds a new one closes its frozen slice. */
static u32 kstats_history_gen;

/**
 * struct kstats_trigger - the freeze armed on a distribution's sample
 * @ks: the distribution, with a reference, or NULL
 * @above: the value that fires it
 * @after_ns: the freeze follows the sample by this much
 * @fired_at: when the sample came, or 0
 * @armed: 1 until a sample fires it
 * @reason: "trigger NAME V", the frozen rings' reason
 * @desc: "NAME above V after NS", as the rings' files show it
 * @work: starts @timer (or freezes, with no delay) after the sample
 * @timer: freezes at @fired_at + @after_ns
 */
struct kstats_trigger {
	struct kstats *ks;
	u64 above;
	u64 after_ns;
	u64 fired_at;
	int armed;
	char reason[KSTATS_HISTORY_REASON_MAX];
	char desc[KSTATS_HISTORY_REASON_MAX + 48];
	struct irq_work work;
	struct hrtimer timer;
};

static struct kstats_trigger kstats_trigger;
/* Arming, disarming and the trigger's reference. */
static DEFINE_MUTEX(kstats_trigger_mutex);

/* A ring's cursor: the byte at @pos, modulo @size. */
struct kstats_ring_pos {
	u8 *ring;
	u32 size;
	u32 at;
};

static notrace void kstats_ring_put(struct kstats_ring_pos *p, u8 b)
{
	p->ring[p->at] = b;
	if (++p->at == p->size)
		p->at = 0;
}

static notrace u8 kstats_ring_get(struct kstats_ring_pos *p)
{
	u8 b = p->ring[p->at];

	if (++p->at == p->size)
		p->at = 0;
	return b;
}

static notrace unsigned int kstats_varint_len(u64 v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static notrace void kstats_varint_put(struct kstats_ring_pos *p, u64 v)
{
	while (v >= 0x80) {
		kstats_ring_put(p, (v & 0x7f) | 0x80);
		v >>= 7;
	}
	kstats_ring_put(p, v);
}

/* A varint of at most KSTATS_VARINT_MAX bytes: a longer one reads as 0. */
static notrace u64 kstats_varint_get(struct kstats_ring_pos *p)
{
	u64 v = 0;
	unsigned int i;
	u8 b;

	for (i = 0; i < KSTATS_VARINT_MAX; i++) {
		b = kstats_ring_get(p);
		v |= (u64)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static notrace u32 kstats_ring_index(u64 pos, u32 size)
{
	u32 rem;

	div_u64_rem(pos, size, &rem);
	return rem;
}

/*
 * Let the oldest record of a ring go, to make room: its samples counted
 * as lost if it is within the last slices the history keeps, up to
 * @newest.  The tail moves before the bytes are written over
 * (kstats_history_append()).
 */
static notrace void kstats_ring_drop(struct kstats_history *h,
				     struct kstats_history_cpu *pc, u64 newest)
{
	struct kstats_ring_pos p = {
		.ring = pc->ring, .size = h->ring_bytes,
		.at = kstats_ring_index(pc->tail, h->ring_bytes),
	};
	u64 len = kstats_varint_get(&p), n, i, slice, lost = 0;

	slice = kstats_varint_get(&p);
	n = kstats_varint_get(&p);
	for (i = 0; i < n && i < U16_MAX; i++) {
		kstats_varint_get(&p);
		lost += kstats_varint_get(&p);
	}
	/* a slice older than the history's reach is not lost: it is over */
	if (slice + h->slices > newest) {
		pc->lost_slices++;
		pc->lost_samples += lost;
	}
	WRITE_ONCE(pc->tail, pc->tail + kstats_varint_len(len) + len);
}

/*
 * Append the slice @slice of @pc->delta, its @nr slots that hold samples,
 * @len bytes after the record's own length.  The tail moves first, the
 * head last: a reader keeps what lies between (see the top).
 */
static notrace void kstats_history_append(struct kstats_history *h,
					  struct kstats_history_cpu *pc,
					  u64 slice, u32 nr, u64 len)
{
	u64 total = kstats_varint_len(len) + len;
	struct kstats_ring_pos p;
	u32 s, last = 0;

	if (total > h->ring_bytes) {
		/* one slice denser than the whole ring: lost, counted */
		pc->lost_slices++;
		for (s = 0; s < h->ks->nr_slots; s++)
			pc->lost_samples += pc->delta[s];
		return;
	}
	while (pc->head + total - pc->tail > h->ring_bytes)
		kstats_ring_drop(h, pc, slice);
	/* the tail's move is seen before the bytes it gave up change */
	smp_wmb();
	p.ring = pc->ring;
	p.size = h->ring_bytes;
	p.at = kstats_ring_index(pc->head, h->ring_bytes);
	kstats_varint_put(&p, len);
	kstats_varint_put(&p, slice);
	kstats_varint_put(&p, nr);
	for (s = 0; s < h->ks->nr_slots; s++) {
		if (!pc->delta[s])
			continue;
		kstats_varint_put(&p, s - last);
		kstats_varint_put(&p, pc->delta[s]);
		last = s;
	}
	/* the record is whole before the head takes it in */
	smp_store_release(&pc->head, pc->head + total);
}

/*
 * Close @pc's slice @slice: its counts now (@now, this CPU's, or NULL for
 * the histogram's) less those at its start, appended to its ring; the
 * counts now become the next slice's start.  A count below its start (a
 * reset that raced) is taken as the start.
 */
static notrace void kstats_history_close(struct kstats_history *h,
					 struct kstats_history_cpu *pc,
					 u64 slice, const u64 *now)
{
	const struct kstats_slot *hist = this_cpu_ptr(h->ks->hist);
	u64 len = 0, v;
	u32 s, nr = 0, last = 0;

	for (s = 0; s < h->ks->nr_slots; s++) {
		v = now ? now[s] : READ_ONCE(hist[s].count);
		pc->delta[s] = v > pc->snap[s] ? v - pc->snap[s] : 0;
		if (!now)
			pc->snap[s] = v;
		if (!pc->delta[s])
			continue;
		len += kstats_varint_len(s - last) +
		       kstats_varint_len(pc->delta[s]);
		last = s;
		nr++;
	}
	if (!nr)
		return;
	len += kstats_varint_len(slice) + kstats_varint_len(nr);
	kstats_history_append(h, pc, slice, nr, len);
}

/* A CPU's counts @hist now become its slice's start: what came before is left out. */
static notrace void kstats_history_resync(struct kstats_history *h,
					  struct kstats_history_cpu *pc,
					  const struct kstats_slot *hist)
{
	u32 s;

	for (s = 0; s < h->ks->nr_slots; s++)
		pc->snap[s] = READ_ONCE(hist[s].count);
}

/*
 * The largest of a CPU's samples the extremes no longer show raised into
 * *@saved; any context (a timer's, a trigger's command).
 */
static void kstats_saved_raise(u64 *saved, u64 v)
{
	u64 old = READ_ONCE(*saved);

	while (v > old) {
		u64 seen = cmpxchg(saved, old, v);

		if (seen == old)
			break;
		old = seen;
	}
}

/*
 * Lower every CPU's max of @ks to @cap, its value kept in the CPU's hook,
 * so that the CPU's next sample above @cap takes the slow path.  The
 * CPU's own cmpxchg of a new max, racing, may win: it is then in the slow
 * path itself, which reads the time after (kstats_history_note()).
 */
static void kstats_history_lower(struct kstats *ks, u64 cap)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct kstats_extremes *e = per_cpu_ptr(kstats_extremes(ks->hist), cpu);
		struct kstats_hook *hook = per_cpu_ptr(kstats_hook(ks->hist), cpu);
		u64 old = READ_ONCE(e->max);

		while (old > cap) {
			u64 seen;

			kstats_saved_raise(&hook->saved_max, old);
			seen = cmpxchg(&e->max, old, cap);
			if (seen == old)
				break;
			old = seen;
		}
	}
}

/* At the end of a slice in which @h took samples: see the top. */
static enum hrtimer_restart kstats_history_timer_fn(struct hrtimer *t)
{
	struct kstats_history *h = container_of(t, struct kstats_history, timer);

	atomic_set(&h->armed, 0);
	kstats_history_lower(h->ks, 0);
	return HRTIMER_NORESTART;
}

static void kstats_history_arm_fn(struct irq_work *work)
{
	struct kstats_history *h = container_of(work, struct kstats_history, arm_work);

	hrtimer_start(&h->timer, ns_to_ktime(READ_ONCE(h->next_end)),
		      HRTIMER_MODE_ABS);
}

/*
 * This CPU's slow path, in a slice of its own: the slice it was in closed
 * if this is a new one, the timer armed for the end of this one.
 */
static notrace void kstats_history_rotate(struct kstats_history *h, u64 now)
{
	struct kstats_history_cpu *pc = this_cpu_ptr(h->cpu);
	u64 slice = div64_u64(now, h->slice_ns);
	u32 gen = READ_ONCE(kstats_history_gen);
	u32 rgen = READ_ONCE(h->reset_gen);

	/* a CPU online before its part was made (no memory then) */
	if (!smp_load_acquire(&pc->ring))
		return;
	if (slice == pc->slice && gen == pc->gen && rgen == pc->reset_gen)
		return;
	if (pc->busy || READ_ONCE(kstats_history_frozen))
		return;
	pc->busy = 1;
	barrier();
	if (gen != pc->gen) {
		/* thawed: the slice the freeze found, then the freeze left out */
		if (pc->frozen_valid)
			kstats_history_close(h, pc, pc->frozen_slice, pc->frozen);
		pc->frozen_valid = false;
		kstats_history_resync(h, pc, this_cpu_ptr(h->ks->hist));
		pc->gen = gen;
		pc->reset_gen = rgen;
	} else if (rgen != pc->reset_gen) {
		/* reset: every count since is of the slices since */
		memset(pc->snap, 0, h->ks->nr_slots * sizeof(u64));
		kstats_history_close(h, pc, max(pc->slice,
						READ_ONCE(h->reset_slice)),
				     NULL);
		pc->reset_gen = rgen;
	} else {
		kstats_history_close(h, pc, pc->slice, NULL);
	}
	WRITE_ONCE(pc->slice, slice);
	if (!atomic_xchg(&h->armed, 1)) {
		WRITE_ONCE(h->next_end, (slice + 1) * h->slice_ns);
		irq_work_queue(&h->arm_work);
	}
	barrier();
	pc->busy = 0;
}

static void kstats_trigger_work_fn(struct irq_work *work)
{
	struct kstats_trigger *t = &kstats_trigger;

	if (!t->after_ns) {
		kstats_history_freeze(t->reason, NULL);
		return;
	}
	hrtimer_start(&t->timer, ns_to_ktime(t->fired_at + t->after_ns),
		      HRTIMER_MODE_ABS);
}

static enum hrtimer_restart kstats_trigger_timer_fn(struct hrtimer *timer)
{
	kstats_history_freeze(kstats_trigger.reason, NULL);
	return HRTIMER_NORESTART;
}

/**
 * kstats_history_top() - the max a hooked CPU's slow path puts back
 * @ks: the distribution that set the hook (struct kstats_hook)
 * @slots: its histogram, as the recorder read it
 * @val: the sample, out of the extremes
 * @fired: set if @val fires the trigger on @ks (kstats_history_note()
 *	then says when)
 *
 * The max to put back is the larger of @val and what the hook keeps,
 * below an armed trigger's value, so that its next sample at or above it
 * is seen.
 *
 * Context: any, NMI included; called with preemption disabled.
 * Return: the value kstats_note_extremes() raises the CPU's max to.
 */
notrace u64 kstats_history_top(struct kstats *ks,
			       struct kstats_slot __percpu *slots, u64 val,
			       bool *fired)
{
	struct kstats_trigger *t = &kstats_trigger;
	/* Apart from max(): arm64's this_cpu_read() expands too far for sparse. */
	u64 saved = this_cpu_read(kstats_hook(slots)->saved_max);
	u64 top = max(val, saved);

	if (!READ_ONCE(t->armed) || READ_ONCE(t->ks) != ks)
		return top;
	if (val >= READ_ONCE(t->above) && cmpxchg(&t->armed, 1, 0) == 1) {
		*fired = true;
		return top;
	}
	return READ_ONCE(t->armed) ? min(top, READ_ONCE(t->above) - 1) : top;
}

NOKPROBE_SYMBOL(kstats_history_top);

/**
 * kstats_history_note() - a hooked CPU's slow path, its max put back
 * @ks: the distribution that set the hook (struct kstats_hook)
 * @slots: its histogram, as the recorder read it
 * @fired: the sample fired the trigger (kstats_history_top())
 *
 * Reads the time and closes the CPU's slice if a new one has begun.  The
 * time is read after the max is back (kstats_history_top()): a timer
 * that lowered it before that, losing to the CPU's cmpxchg, ran after
 * the slice's end, so the time read here is in the new slice.  A trigger
 * fired is said to have fired at that same time: the sample is counted
 * after, in the slice of that time, the one its fired_at falls in.
 *
 * Context: any, NMI included; called with preemption disabled.
 */
notrace void kstats_history_note(struct kstats *ks,
				 struct kstats_slot __percpu *slots, bool fired)
{
	struct kstats_history *h = READ_ONCE(ks->history);
	bool keeps = h && slots == ks->hist;
	u64 now;

	if (!keeps && !fired)
		return;
	now = ktime_get_mono_fast_ns();
	if (keeps)
		kstats_history_rotate(h, now);
	if (fired) {
		WRITE_ONCE(kstats_trigger.fired_at, now ?: 1);
		irq_work_queue(&kstats_trigger.work);
	}
}

NOKPROBE_SYMBOL(kstats_history_note);

/**
 * kstats_history_max() - a CPU's largest sample, its hook's included
 * @slots: the histogram
 * @cpu: the CPU
 * @shown: its extremes' max
 *
 * Return: the larger of @shown and what the hook keeps.
 */
u64 kstats_history_max(struct kstats_slot __percpu *slots, int cpu, u64 shown)
{
	struct kstats_hook *hook = per_cpu_ptr(kstats_hook(slots), cpu);

	return max(shown, READ_ONCE(hook->saved_max));
}

/**
 * kstats_history_clear_saved() - forget what a CPU's hook keeps (a reset)
 * @slots: the histogram
 * @cpu: the CPU
 */
void kstats_history_clear_saved(struct kstats_slot __percpu *slots, int cpu)
{
	WRITE_ONCE(per_cpu_ptr(kstats_hook(slots), cpu)->saved_max, 0);
}

/* Point every CPU's hook of @ks at it, or at nothing. */
static void kstats_history_hook(struct kstats *ks, struct kstats *to)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(kstats_hook(ks->hist), cpu)->ks, to);
}

/**
 * kstats_history_check() - whether a config's history may be made
 * @cfg: the config
 * @why: where a refusal is noted (kstats_refuse()), or NULL
 *
 * Return: 0, or -EINVAL for a slice or a count of 0 (one without the
 * other), a slice under KSTATS_HISTORY_MIN_SLICE_NS or a count over 2^24;
 * logged in one line.
 */
int kstats_history_check(const struct kstats_config *cfg,
			 struct kstats_refusal *why)
{
	const char *at = why ? why->name_at : NULL;

	if (!cfg->history_slice_ns && !cfg->history_slices)
		return 0;
	if (!cfg->history_slice_ns || !cfg->history_slices) {
		kstats_refuse(why, at, cfg->name,
			      "history %llu %u: a slice length and a count, neither 0",
			      cfg->history_slice_ns, cfg->history_slices);
		return -EINVAL;
	}
	if (cfg->history_slice_ns < KSTATS_HISTORY_MIN_SLICE_NS ||
	    cfg->history_slices > (1U << 24)) {
		kstats_refuse(why, at, cfg->name,
			      "history %llu %u: slices of %u ns at least, 2^24 at most",
			      cfg->history_slice_ns, cfg->history_slices,
			      KSTATS_HISTORY_MIN_SLICE_NS);
		return -EINVAL;
	}
	return 0;
}

static void kstats_history_free_mem(struct kstats_history *h)
{
	int cpu;

	if (h->cpu) {
		for_each_possible_cpu(cpu) {
			struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);

			kvfree(pc->snap);
			kvfree(pc->delta);
			kvfree(pc->frozen);
			kvfree(pc->ring);
		}
		free_percpu(h->cpu);
	}
	kfree(h);
}

/* The CPU hotplug state whose callback gives a CPU its parts, or 0. */
static int kstats_history_cpuhp;

/*
 * A CPU's part: its counts and its ring, made on its node, the ring
 * published last (a recorder and a reader test it).  With @account, its
 * bytes are added to the history's and to all histories' (a CPU come
 * online; those online at the history's making were counted then).
 */
static int kstats_history_cpu_alloc(struct kstats_history *h, int cpu,
				    bool account)
{
	struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);
	size_t counts = array_size(h->ks->nr_slots, sizeof(u64));
	int node = cpu_to_node(cpu);
	unsigned long flags;
	u8 *ring;

	if (READ_ONCE(pc->ring))
		return 0;
	pc->snap = kvzalloc_node(counts, KSTATS_GFP, node);
	pc->delta = kvzalloc_node(counts, KSTATS_GFP, node);
	pc->frozen = kvzalloc_node(counts, KSTATS_GFP, node);
	ring = kvzalloc_node(h->ring_bytes, KSTATS_GFP, node);
	if (!pc->snap || !pc->delta || !pc->frozen || !ring) {
		kvfree(pc->snap);
		kvfree(pc->delta);
		kvfree(pc->frozen);
		kvfree(ring);
		pc->snap = NULL;
		pc->delta = NULL;
		pc->frozen = NULL;
		return -ENOMEM;
	}
	if (account) {
		raw_spin_lock_irqsave(&kstats_history_lock, flags);
		h->bytes += h->cpu_bytes;
		kstats_history_total += h->cpu_bytes;
		raw_spin_unlock_irqrestore(&kstats_history_lock, flags);
	}
	/*
	 * In the slice of now from its start: what the CPU counted before (a
	 * CPU come online) stays out of the history; what a recorder that
	 * moved CPU counts on it before its first slow path is in a slice.
	 * The CPU does not run yet, or the distribution is not published.
	 */
	kstats_history_resync(h, pc, per_cpu_ptr(h->ks->hist, cpu));
	pc->slice = div64_u64(ktime_get_mono_fast_ns(), h->slice_ns);
	/* the counts before the ring: who sees the ring sees them */
	smp_store_release(&pc->ring, ring);
	return 0;
}

/*
 * The hotplug callback: CPU @cpu comes online, and the history @node
 * gives it its part.  It never fails the CPU's bring-up: without memory,
 * the CPU's samples stay in the distribution, not in its history.
 */
static int kstats_history_cpu_prepare(unsigned int cpu, struct hlist_node *node)
{
	struct kstats_history *h = hlist_entry(node, struct kstats_history,
					       cpuhp);

	if (kstats_history_cpu_alloc(h, cpu, true))
		pr_warn_ratelimited("%s: no memory for the history of CPU %u (%zu bytes): its samples stay out of the history\n",
				    h->ks->name, cpu, h->cpu_bytes);
	return 0;
}

/**
 * kstats_history_alloc() - give a distribution not yet published its history
 * @ks: from kstats_alloc()
 * @cfg: its config, with a history (kstats_history_check() passed)
 * @why: where a refusal is noted (kstats_refuse()), or NULL
 *
 * Context: process.
 * Return: 0; -ENOSPC past the bound of all histories' memory
 * (KSTATS_HISTORY_CPU_BYTES per CPU online), -ENOMEM; each logged in one
 * line.
 */
int kstats_history_alloc(struct kstats *ks, const struct kstats_config *cfg,
			 struct kstats_refusal *why)
{
	const char *at = why ? why->name_at : NULL;
	size_t limit = KSTATS_HISTORY_CPU_BYTES * num_online_cpus(), left;
	u64 ring = max_t(u64, 4096, (u64)cfg->history_slices *
			 KSTATS_HISTORY_SLICE_BYTES);
	size_t cpu_bytes = 3ULL * ks->nr_slots * sizeof(u64) + ring;
	/* the per-CPU structs for every possible CPU, the parts for those online */
	size_t bytes = sizeof(struct kstats_history) + num_possible_cpus() *
		       sizeof(struct kstats_history_cpu) +
		       num_online_cpus() * cpu_bytes;
	struct kstats_history *h;
	int cpu, err = 0;

	raw_spin_lock_irq(&kstats_history_lock);
	if (bytes > limit - min(limit, kstats_history_total)) {
		left = limit - min(limit, kstats_history_total);
		raw_spin_unlock_irq(&kstats_history_lock);
		kstats_refuse(why, at, cfg->name,
			      "history %llu %u takes %zu bytes, %zu are left of the %zu all histories may take",
			      cfg->history_slice_ns, cfg->history_slices, bytes,
			      left, limit);
		return -ENOSPC;
	}
	kstats_history_total += bytes;
	raw_spin_unlock_irq(&kstats_history_lock);

	h = kzalloc(sizeof(*h), KSTATS_GFP);
	if (!h)
		goto nomem;
	h->ks = ks;
	h->slice_ns = cfg->history_slice_ns;
	h->slices = cfg->history_slices;
	h->ring_bytes = ring;
	h->cpu_bytes = cpu_bytes;
	h->bytes = bytes;
	INIT_LIST_HEAD(&h->node);
	init_irq_work(&h->arm_work, kstats_history_arm_fn);
	hrtimer_init(&h->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	h->timer.function = kstats_history_timer_fn;
	h->cpu = alloc_percpu_gfp(struct kstats_history_cpu, KSTATS_GFP);
	if (!h->cpu)
		goto nomem;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(h->cpu, cpu)->gen = kstats_history_gen;
	/*
	 * A part for each CPU online, not each possible: a kernel booted for
	 * many more CPUs than it has would spend memory on none.  A CPU
	 * that comes online later gets its part from the hotplug callback,
	 * from the publishing on (kstats_history_publish()): a history that
	 * is never published is freed with no instance to remove.
	 */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		err = kstats_history_cpu_alloc(h, cpu, false);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (err)
		goto nomem;
	ks->history = h;
	return 0;

nomem:
	if (h)
		kstats_history_free_mem(h);
	raw_spin_lock_irq(&kstats_history_lock);
	kstats_history_total -= bytes;
	raw_spin_unlock_irq(&kstats_history_lock);
	kstats_refuse(why, at, cfg->name,
		      "no memory for a history of %zu bytes", bytes);
	return -ENOMEM;
}

/**
 * kstats_history_publish() - start a published distribution's history
 * @ks: the distribution, just listed
 *
 * Its slow path keeps the history from now on; a freeze finds it; a CPU
 * that comes online gets its part.
 *
 * Context: process.
 */
void kstats_history_publish(struct kstats *ks)
{
	struct kstats_history *h = ks->history;
	int cpu;

	if (!h)
		return;
	raw_spin_lock_irq(&kstats_history_lock);
	list_add_tail(&h->node, &kstats_histories);
	/* born frozen: its CPUs start at the thaw */
	for_each_possible_cpu(cpu)
		per_cpu_ptr(h->cpu, cpu)->gen = kstats_history_gen;
	raw_spin_unlock_irq(&kstats_history_lock);
	/*
	 * The callback first, then the CPUs online: a CPU that came up since
	 * the making, or comes up now, gets its part from one or the other.
	 */
	if (kstats_history_cpuhp > 0)
		h->cpuhp_added = !cpuhp_state_add_instance_nocalls(kstats_history_cpuhp,
								   &h->cpuhp);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		kstats_history_cpu_prepare(cpu, &h->cpuhp);
	cpus_read_unlock();
	kstats_history_hook(ks, ks);
	/* its first samples take the slow path, to start their slice */
	kstats_history_lower(ks, 0);
}

/* Disarm the trigger, with its reference; under kstats_trigger_mutex. */
static void kstats_trigger_disarm_locked(void)
{
	struct kstats_trigger *t = &kstats_trigger;
	struct kstats *ks = t->ks;

	lockdep_assert_held(&kstats_trigger_mutex);
	WRITE_ONCE(t->armed, 0);
	irq_work_sync(&t->work);
	hrtimer_cancel(&t->timer);
	if (!ks)
		return;
	if (!ks->history)
		kstats_history_hook(ks, NULL);
	/* slow paths that saw the trigger's distribution are done with it */
	synchronize_rcu();
	WRITE_ONCE(t->ks, NULL);
	kstats_put(ks);
}

/**
 * kstats_history_retire() - stop a distribution's history and its trigger
 * @ks: the distribution, unlisted, its probes stopped (struct kstats_ops'
 *	retire)
 *
 * Its hooks are cleared and the slow paths that read them waited for, its
 * timer cancelled: from here on nothing of its history runs, and a
 * kstats_get() holder still recording only fills its histogram.
 *
 * Context: process; may sleep.
 */
void kstats_history_retire(struct kstats *ks)
{
	struct kstats_history *h = ks->history;

	mutex_lock(&kstats_trigger_mutex);
	if (kstats_trigger.ks == ks)
		kstats_trigger_disarm_locked();
	mutex_unlock(&kstats_trigger_mutex);
	if (!h)
		return;
	if (h->cpuhp_added) {
		cpuhp_state_remove_instance_nocalls(kstats_history_cpuhp,
						    &h->cpuhp);
		h->cpuhp_added = false;
	}
	kstats_history_hook(ks, NULL);
	synchronize_rcu();
	raw_spin_lock_irq(&kstats_history_lock);
	list_del_init(&h->node);
	raw_spin_unlock_irq(&kstats_history_lock);
	irq_work_sync(&h->arm_work);
	hrtimer_cancel(&h->timer);
}

/**
 * kstats_history_free() - free a distribution's history with its memory
 * @ks: the distribution, retired (or never published)
 *
 * Context: any but NMI (the core's irq_work).
 */
void kstats_history_free(struct kstats *ks)
{
	struct kstats_history *h = ks->history;
	unsigned long flags;

	if (!h)
		return;
	ks->history = NULL;
	raw_spin_lock_irqsave(&kstats_history_lock, flags);
	kstats_history_total -= h->bytes;
	raw_spin_unlock_irqrestore(&kstats_history_lock, flags);
	kstats_history_free_mem(h);
}

/**
 * kstats_history_reset() - forget a distribution's history with its samples
 * @ks: the distribution, reset
 *
 * The slices before the reset's are gone from its file; each CPU starts
 * its counts from 0 at its next sample.
 *
 * Context: any.
 */
void kstats_history_reset(struct kstats *ks)
{
	struct kstats_history *h = ks->history;

	if (!h)
		return;
	WRITE_ONCE(h->reset_slice, div64_u64(ktime_get_mono_fast_ns(),
					     h->slice_ns));
	/* a CPU that sees the new generation sees its slice */
	smp_wmb();
	WRITE_ONCE(h->reset_gen, h->reset_gen + 1);
}

/**
 * kstats_history_freeze() - stop every history at this instant
 * @reason: "freeze", or the trigger's "trigger NAME V"
 * @why: where a refusal is noted (kstats_refuse()); NULL for a trigger's
 *	freeze, which says nothing
 *
 * Each CPU's counts are copied: what it took since its slice began is the
 * last slice of its frozen ring.  Samples after this are in the
 * distributions, not in their histories.
 *
 * Context: any but NMI; a walk of every history's counts with interrupts
 * off.
 * Return: 0, or -EALREADY if frozen.
 */
int kstats_history_freeze(const char *reason, struct kstats_refusal *why)
{
	struct kstats_history *h;
	unsigned long flags;
	int cpu;
	u32 s;

	raw_spin_lock_irqsave(&kstats_history_lock, flags);
	if (kstats_history_frozen) {
		raw_spin_unlock_irqrestore(&kstats_history_lock, flags);
		if (why)
			kstats_refuse(why, why->text, "_control",
				      "freeze: the histories are frozen already");
		return -EALREADY;
	}
	WRITE_ONCE(kstats_history_frozen, true);
	kstats_history_frozen_at = ktime_get_mono_fast_ns();
	strscpy(kstats_history_reason, reason, sizeof(kstats_history_reason));
	/* the rings stop before the counts are copied */
	smp_mb();
	list_for_each_entry(h, &kstats_histories, node) {
		for_each_possible_cpu(cpu) {
			struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);
			const struct kstats_slot *hist = per_cpu_ptr(h->ks->hist, cpu);

			/* a part made whole: kstats_history_cpu_alloc() */
			if (!smp_load_acquire(&pc->ring))
				continue;
			for (s = 0; s < h->ks->nr_slots; s++)
				pc->frozen[s] = READ_ONCE(hist[s].count);
			pc->frozen_slice = READ_ONCE(pc->slice);
			pc->frozen_valid = pc->gen == kstats_history_gen &&
					   pc->reset_gen == READ_ONCE(h->reset_gen);
		}
	}
	raw_spin_unlock_irqrestore(&kstats_history_lock, flags);
	return 0;
}

/**
 * kstats_history_thaw() - let every history take samples again
 * @why: where a refusal is noted (kstats_refuse()), or NULL
 *
 * Each CPU closes its frozen slice at its next sample, which every CPU's
 * extremes send down the slow path.
 *
 * Context: process.
 * Return: 0, or -EALREADY if not frozen.
 */
int kstats_history_thaw(struct kstats_refusal *why)
{
	struct kstats_history *h;

	raw_spin_lock_irq(&kstats_history_lock);
	if (!kstats_history_frozen) {
		raw_spin_unlock_irq(&kstats_history_lock);
		kstats_refuse(why, why ? why->text : NULL, "_control",
			      "thaw: the histories are not frozen");
		return -EALREADY;
	}
	kstats_history_gen++;
	/* a CPU that finds the rings live finds the thaw's generation */
	smp_wmb();
	WRITE_ONCE(kstats_history_frozen, false);
	list_for_each_entry(h, &kstats_histories, node)
		kstats_history_lower(h->ks, 0);
	raw_spin_unlock_irq(&kstats_history_lock);
	return 0;
}

/**
 * kstats_history_trigger() - freeze every history after a sample of a node
 * @name: the distribution
 * @above: the value: the first sample at or above it fires
 * @after_ns: the freeze comes this long after the sample
 * @why: where a refusal is noted (kstats_refuse()), or NULL
 *
 * One trigger at a time, one-shot: arming one replaces the last, and a
 * fired trigger is armed again by arming it again.  Its distribution's
 * samples at or above @above take the slow path until one fires it.
 *
 * Context: process; may sleep.
 * Return: 0, -ENOENT for no distribution of that name, -EINVAL for a
 * value of 0; logged in one line.
 */
int kstats_history_trigger(const char *name, u64 above, u64 after_ns,
			   struct kstats_refusal *why)
{
	const char *at = why ? why->name_at : NULL;
	struct kstats_trigger *t = &kstats_trigger;
	struct kstats *ks;

	if (!above) {
		kstats_refuse(why, at, name,
			      "trigger above 0: every sample is; give a value over 0");
		return -EINVAL;
	}
	ks = kstats_get(name);
	if (!ks) {
		kstats_refuse(why, at, name,
			      "trigger: no distribution of that name");
		return -ENOENT;
	}
	mutex_lock(&kstats_trigger_mutex);
	kstats_trigger_disarm_locked();
	t->ks = ks;
	t->above = above;
	t->after_ns = after_ns;
	t->fired_at = 0;
	snprintf(t->reason, sizeof(t->reason), "trigger %s %llu", name, above);
	snprintf(t->desc, sizeof(t->desc), "%s above %llu after %llu", name,
		 above, after_ns);
	kstats_history_hook(ks, ks);
	/* a slow path that finds it armed finds its distribution and value */
	smp_wmb();
	WRITE_ONCE(t->armed, 1);
	kstats_history_lower(ks, above - 1);
	mutex_unlock(&kstats_trigger_mutex);
	return 0;
}

/**
 * kstats_history_exit() - at module unload, every distribution gone
 *
 * Context: process.
 */
void kstats_history_exit(void)
{
	mutex_lock(&kstats_trigger_mutex);
	kstats_trigger_disarm_locked();
	mutex_unlock(&kstats_trigger_mutex);
	if (kstats_history_cpuhp > 0)
		cpuhp_remove_multi_state(kstats_history_cpuhp);
	kstats_history_cpuhp = 0;
}

/* One more cell for the reader, in an array grown by doubling. */
static int kstats_history_cell_add(struct kstats_history_slice **cells,
				   size_t *nr, size_t *cap, u64 slice,
				   u32 slot, u64 count)
{
	struct kstats_history_slice *c;

	if (*nr == *cap) {
		size_t ncap = max_t(size_t, 256, *cap * 2);

		c = kvmalloc_array(ncap, sizeof(*c), KSTATS_GFP);
		if (!c)
			return -ENOMEM;
		if (*nr)
			memcpy(c, *cells, *nr * sizeof(*c));
		kvfree(*cells);
		*cells = c;
		*cap = ncap;
	}
	c = &(*cells)[(*nr)++];
	c->slice = slice;
	c->slot = slot;
	c->count = count;
	return 0;
}

/* A reader's copy of one CPU's ring: the records between tail and head. */
static int kstats_history_read_cpu(struct kstats_history *h, int cpu, u8 *buf,
				   struct kstats_history_slice **cells,
				   size_t *nr, size_t *cap, u64 first)
{
	struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);
	/* the bytes before the head are whole: kstats_history_append() */
	u64 head = smp_load_acquire(&pc->head), tail = READ_ONCE(pc->tail);
	u64 tail2, len, at, i, n, slice;
	struct kstats_ring_pos p;
	u32 slot;

	/* [tail, head) in at most two pieces, around the ring's end */
	for (at = tail; at < head; at += len) {
		u32 i0 = kstats_ring_index(at, h->ring_bytes);

		len = min_t(u64, head - at, h->ring_bytes - i0);
		memcpy(buf + i0, pc->ring + i0, len);
	}
	/* what the writer gave up while the bytes were copied is not kept */
	smp_rmb();
	tail2 = READ_ONCE(pc->tail);
	at = max(tail, tail2);
	p.ring = buf;
	p.size = h->ring_bytes;
	while (at < head) {
		p.at = kstats_ring_index(at, h->ring_bytes);
		len = kstats_varint_get(&p);
		at += kstats_varint_len(len) + len;
		slice = kstats_varint_get(&p);
		n = kstats_varint_get(&p);
		slot = 0;
		for (i = 0; i < n; i++) {
			u64 count;

			slot += kstats_varint_get(&p);
			count = kstats_varint_get(&p);
			if (slice < first || slot >= h->ks->nr_slots || !count)
				continue;
			if (kstats_history_cell_add(cells, nr, cap, slice, slot,
						    count))
				return -ENOMEM;
		}
	}
	return 0;
}

/* A CPU's slice in progress, as the reader finds it, added to the cells. */
static int kstats_history_read_pending(struct kstats_history *h, int cpu,
				       bool frozen,
				       struct kstats_history_slice **cells,
				       size_t *nr, size_t *cap, u64 first)
{
	struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);
	const struct kstats_slot *hist = per_cpu_ptr(h->ks->hist, cpu);
	bool reset = READ_ONCE(pc->reset_gen) != READ_ONCE(h->reset_gen);
	u64 slice = READ_ONCE(pc->slice), v, base;
	u32 s;

	if (frozen) {
		if (!pc->frozen_valid)
			return 0;
		slice = pc->frozen_slice;
	} else if (READ_ONCE(pc->gen) != READ_ONCE(kstats_history_gen)) {
		/* thawed, not yet closed: its frozen slice */
		if (!pc->frozen_valid)
			return 0;
		frozen = true;
		slice = pc->frozen_slice;
	} else if (reset) {
		slice = max(slice, READ_ONCE(h->reset_slice));
	}
	if (slice < first)
		return 0;
	for (s = 0; s < h->ks->nr_slots; s++) {
		v = frozen ? pc->frozen[s] : READ_ONCE(hist[s].count);
		base = reset && !frozen ? 0 : READ_ONCE(pc->snap[s]);
		if (v > base &&
		    kstats_history_cell_add(cells, nr, cap, slice, s, v - base))
			return -ENOMEM;
	}
	return 0;
}

static int kstats_history_cell_cmp(const void *a, const void *b)
{
	const struct kstats_history_slice *x = a, *y = b;

	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return 0;
}

/**
 * kstats_history_view() - read a distribution's history
 * @ks: the distribution, with a history
 * @v: where to put it; free with kstats_history_view_free()
 *
 * Every CPU's ring is copied without stopping its writer, then its slice
 * in progress (or the one the freeze found) added; the cells of the
 * slices within the last @v->slices are sorted and the CPUs' merged.
 *
 * Context: process.
 * Return: 0, -ENOENT for a distribution without history, -ENOMEM.
 */
int kstats_history_view(struct kstats *ks, struct kstats_history_view *v)
{
	struct kstats_history *h = ks->history;
	struct kstats_trigger *t = &kstats_trigger;
	size_t cap = 0, i, j;
	u64 newest, first;
	u8 *buf;
	int cpu, err = 0;

	memset(v, 0, sizeof(*v));
	if (!h)
		return -ENOENT;
	v->slice_ns = h->slice_ns;
	v->slices = h->slices;
	v->bytes = h->bytes;
	v->frac_bits = ks->frac_bits;
	raw_spin_lock_irq(&kstats_history_lock);
	v->frozen = kstats_history_frozen;
	v->frozen_at = kstats_history_frozen_at;
	strscpy(v->reason, kstats_history_reason, sizeof(v->reason));
	raw_spin_unlock_irq(&kstats_history_lock);
	mutex_lock(&kstats_trigger_mutex);
	if (t->ks) {
		strscpy(v->trigger, t->desc, sizeof(v->trigger));
		v->fired_at = READ_ONCE(t->fired_at);
	}
	mutex_unlock(&kstats_trigger_mutex);

	newest = div64_u64(v->frozen ? v->frozen_at : ktime_get_ns(),
			   h->slice_ns);
	first = newest >= h->slices ? newest - h->slices + 1 : 0;
	first = max(first, READ_ONCE(h->reset_slice));
	buf = kvmalloc(h->ring_bytes, KSTATS_GFP);
	if (!buf)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kstats_history_cpu *pc = per_cpu_ptr(h->cpu, cpu);

		/* a CPU never online has no part: kstats_history_cpu_alloc() */
		if (!smp_load_acquire(&pc->ring))
			continue;
		err = kstats_history_read_cpu(h, cpu, buf, &v->cells,
					      &v->nr_cells, &cap, first);
		if (!err)
			err = kstats_history_read_pending(h, cpu, v->frozen,
							  &v->cells,
							  &v->nr_cells, &cap,
							  first);
		if (err)
			break;
		v->lost_slices += READ_ONCE(pc->lost_slices);
		v->lost_samples += READ_ONCE(pc->lost_samples);
	}
	kvfree(buf);
	if (err) {
		kstats_history_view_free(v);
		return err;
	}
	sort(v->cells, v->nr_cells, sizeof(*v->cells),
	     kstats_history_cell_cmp, NULL);
	/* the CPUs' cells of one slot of one slice, merged */
	for (i = 0, j = 0; i < v->nr_cells; i++) {
		if (j && v->cells[j - 1].slice == v->cells[i].slice &&
		    v->cells[j - 1].slot == v->cells[i].slot)
			v->cells[j - 1].count += v->cells[i].count;
		else
			v->cells[j++] = v->cells[i];
	}
	v->nr_cells = j;
	return 0;
}

/**
 * kstats_history_view_free() - free what kstats_history_view() allocated
 * @v: the view; freeing twice is harmless
 */
void kstats_history_view_free(struct kstats_history_view *v)
{
	kvfree(v->cells);
	v->cells = NULL;
	v->nr_cells = 0;
}

/**
 * kstats_history_init() - at module load: the trigger's work and timer,
 * and the CPU hotplug state that gives a CPU coming online its part of
 * every history
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int kstats_history_init(void)
{
	int state;

	init_irq_work(&kstats_trigger.work, kstats_trigger_work_fn);
	hrtimer_init(&kstats_trigger.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	kstats_trigger.timer.function = kstats_trigger_timer_fn;
	/* a prepare state: the new CPU runs nothing before its parts are made */
	state = cpuhp_setup_state_multi(CPUHP_BP_PREPARE_DYN,
					"kstats/history:prepare",
					kstats_history_cpu_prepare, NULL);
	if (state < 0)
		return state;
	kstats_history_cpuhp = state;
	return 0;
}
