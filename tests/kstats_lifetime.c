// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_lifetime: the other side of the lifetime cases of the guest suite
 * (tests/guest/t-50-lifetime.sh).
 *
 * Its module_init() fires the tracepoint kstats_lifetime:kstats_lifetime_init
 * every 10 ms for @init_delay_ms, or until 1 is written to its @init_release
 * (/sys/module/kstats_lifetime/parameters/init_release), then fails with
 * -ENODEV if @init_fail is set: a tracepoint whose module is not live yet,
 * and then never is.  The release lets a test hold the module in its init
 * for as long as its checks take, on a guest however slow.
 *
 * Once loaded, /sys/kernel/debug/kstats_lifetime/ctl takes one command per
 * write():
 *
 *   get NAME      kstats_get(NAME), kept as the held reference
 *   record V      kstats_record(V) into the held reference
 *   put           kstats_put() of the held reference, in process context
 *   put_atomic    the same under a spinlock with interrupts off
 *   put_hardirq   the same from a hrtimer callback in hardirq context;
 *                 returns once the callback has run
 *   spin V        a kthread bound to CPU 0 records V into the held
 *                 reference nonstop, until "unspin"
 *   unspin        stop that kthread
 *   fire N        fire the tracepoint N times
 *   narrow N      fire kstats_lifetime_narrow(-5, 65520, -3) N times
 *   callers N     N rounds of 4 calls of kstats_lifetime_work() from
 *                 lt_fast_caller() (no work) and 1 from lt_slow_caller()
 *                 (20 ms of spinning)
 *   work MS,...   kstats_lifetime_work() for each MS (0..1000), in order
 *   ret N         N calls each of kstats_lifetime_ret_int() (-14),
 *                 _ret_u32() (0xfffffff2) and _ret_long() (0xfffffff2):
 *                 one register value, three meanings, which only the
 *                 functions' types tell apart
 *   exit_inside   a kthread calls kstats_lifetime_leave(), which never
 *                 returns: the thread exits inside it (for the direct
 *                 trampoline's exit handling); returns once it has
 *   pair N        N calls of kstats_lifetime_pair(), which returns 16
 *                 bytes (%rax and %rdx): EIO if a result comes back wrong
 *   kprobe SYM    a kprobe with a post handler on SYM: ftrace gives it an
 *                 IPMODIFY ops, as a livepatch's, which shares the function
 *                 with the direct trampoline; EBUSY while one is there
 *   unkprobe MIN  unregister it: EIO if its post handler ran fewer than
 *                 MIN times (the count goes to the kernel log)
 *   nest N        N rounds of a wait that begins again inside itself, with
 *                 another wait nested in it, through
 *                 kstats_lifetime_wait_begin(lock) and _end(lock): begin
 *                 A, begin A, 500 us, begin B, 200 us, end B, 500 us,
 *                 end A (for sections with "match" and "nest outer")
 *   cookies N     N sections through the tracepoints
 *                 kstats_lifetime_cookie_begin(cookie) and _end(cookie),
 *                 all begun, then ended in reverse: the I-th begins with
 *                 (I + 1) << 32 | I, and ends with the same cookie for an
 *                 even I, with (I + 1 + N) << 32 | I for an odd one, so a
 *                 key of the whole word pairs the even ones, a key of its
 *                 low 4 bytes all N (N at most 1024)
 *   mutex_wait N MS  N waits of this task for a mutex a kthread holds
 *                 for MS ms (1..1000) from when it sleeps on it: each a
 *                 real lock:contention_begin (spin, then sleep) and
 *                 contention_end
 *   mutex_sites A B MS  A such waits from lt_mutex_site_a(), then B
 *                 from lt_mutex_site_b(): lock waits by call site
 *   why_spin MS   kstats_lifetime_why_spin(): MS ms (1..1000) of
 *                 CLOCK_MONOTONIC on the CPU, cond_resched() on the way
 *                 (a task that wants the CPU then takes it)
 *   why_sleep MS  kstats_lifetime_why_sleep(): msleep(MS)
 *   why_irq MS US PERIOD  kstats_lifetime_why_spin(MS), in which a hard
 *                 hrtimer pinned to this CPU fires every PERIOD us and
 *                 spins US us in its callback (US < PERIOD <= 10000); the
 *                 callbacks' own time goes to the kernel log, as
 *                 "why_irq: N callbacks T ns"
 *   tsc_unstable  mark_tsc_unstable(), as the clocksource watchdog would
 *                 (x86; EOPNOTSUPP elsewhere): for the direct trampoline's
 *                 report of a TSC read for clock ktime; the kernel then
 *                 changes clocksource, so the suite does it last
 *
 * Errors: ENOENT for "get" of an unknown name or a command that needs the
 * held reference when there is none, EBUSY for "get" while one is held and
 * for a put while the spinner runs, EINVAL for anything else unparsable.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#endif

#include "kstats.h"

#define CREATE_TRACE_POINTS
#include "kstats_lifetime_trace.h"

#define LT_CMD_MAX	(KSTATS_NAME_MAX + 32)
#define LT_SPIN_BATCH	4096

static unsigned int init_delay_ms;
module_param(init_delay_ms, uint, 0444);
MODULE_PARM_DESC(init_delay_ms, "time module_init() sleeps, firing the tracepoint every 10 ms");

static bool init_fail;
module_param(init_fail, bool, 0444);
MODULE_PARM_DESC(init_fail, "module_init() fails with -ENODEV after the delay");

static bool init_release;
module_param(init_release, bool, 0644);
MODULE_PARM_DESC(init_release, "1 ends module_init()'s delay at once");

static DEFINE_MUTEX(lt_lock);		/* serializes the commands */
static DEFINE_SPINLOCK(lt_spinlock);	/* held around "put_atomic" */
static struct kstats *lt_ks;		/* the held reference, or NULL */
static struct task_struct *lt_spinner;
static u64 lt_spin_val;
static struct hrtimer lt_timer;
static struct kstats *lt_timer_ks;	/* what the hrtimer callback puts */
static DECLARE_COMPLETION(lt_timer_done);
static struct dentry *lt_dir;

static int lt_spin(void *arg)
{
	struct kstats *ks = arg;
	u64 v = READ_ONCE(lt_spin_val);
	int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < LT_SPIN_BATCH; i++)
			kstats_record(ks, v);
		cond_resched();
	}
	return 0;
}

static enum hrtimer_restart lt_timer_fn(struct hrtimer *t)
{
	if (!in_hardirq())
		pr_warn("hrtimer callback not in hardirq context\n");
	kstats_put(lt_timer_ks);
	lt_timer_ks = NULL;
	complete(&lt_timer_done);
	return HRTIMER_NORESTART;
}

static void lt_unspin(void)
{
	if (lt_spinner) {
		kthread_stop(lt_spinner);
		lt_spinner = NULL;
	}
}

static int lt_put_atomic(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lt_spinlock, flags);
	kstats_put(lt_ks);
	spin_unlock_irqrestore(&lt_spinlock, flags);
	lt_ks = NULL;
	return 0;
}

static int lt_put_hardirq(void)
{
	reinit_completion(&lt_timer_done);
	lt_timer_ks = lt_ks;
	lt_ks = NULL;
	hrtimer_start(&lt_timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	if (!wait_for_completion_timeout(&lt_timer_done, 10 * HZ)) {
		pr_warn("put_hardirq: the hrtimer did not run in 10 s\n");
		return -ETIMEDOUT;
	}
	return 0;
}

static int lt_start_spin(const char *arg)
{
	struct task_struct *t;
	u64 v;

	if (kstrtou64(arg, 0, &v))
		return -EINVAL;
	if (lt_spinner)
		return -EBUSY;
	if (!cpu_online(0))
		return -ENODEV;
	WRITE_ONCE(lt_spin_val, v);
	t = kthread_create(lt_spin, lt_ks, "kstats_lt_spin");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, 0);
	lt_spinner = t;
	wake_up_process(t);
	return 0;
}

static int lt_fire(const char *arg)
{
	unsigned int i, n;

	if (kstrtouint(arg, 0, &n))
		return -EINVAL;
	for (i = 0; i < n; i++)
		trace_kstats_lifetime_init(i);
	return 0;
}

/*
 * Three functions whose return register holds 0x00000000fffffff2: an
 * int's -14 (-EFAULT), an unsigned int's 4294967282, a long's 4294967282.
 * __noipa: each is called, and returns through %rax as its type says.
 */
static noinline __noipa int kstats_lifetime_ret_int(void)
{
	return -14;
}

static noinline __noipa u32 kstats_lifetime_ret_u32(void)
{
	return 0xfffffff2U;
}

static noinline __noipa long kstats_lifetime_ret_long(void)
{
	return 0xfffffff2L;
}

/* "narrow N" and "ret N". */
static int lt_narrow(const char *arg, bool ret)
{
	unsigned int i, n;

	if (kstrtouint(arg, 0, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!ret) {
			trace_kstats_lifetime_narrow(-5, 65520, -3);
			continue;
		}
		if (kstats_lifetime_ret_int() != -14 ||
		    kstats_lifetime_ret_u32() != 0xfffffff2U ||
		    kstats_lifetime_ret_long() != 0xfffffff2L)
			return -EIO;
	}
	return 0;
}

static DECLARE_COMPLETION(lt_left);

/* A function a task enters and never returns from: it exits inside. */
static noinline void kstats_lifetime_leave(void)
{
	kthread_complete_and_exit(&lt_left, 0);
}

static int lt_leaver(void *unused)
{
	kstats_lifetime_leave();
	return 0;
}

static int lt_exit_inside(void)
{
	struct task_struct *t;

	reinit_completion(&lt_left);
	t = kthread_run(lt_leaver, NULL, "kstats_lt_leave");
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (!wait_for_completion_timeout(&lt_left, 10 * HZ))
		return -ETIMEDOUT;
	return 0;
}

/* Sixteen bytes returned by value: in %rax and %rdx on x86-64. */
struct lt_pair {
	u64 lo;
	u64 hi;
};

/*
 * A function that returns a struct lt_pair, for a tracer to keep both
 * halves of; __noipa keeps the compiler from changing how it returns.
 */
static noinline __noipa struct lt_pair kstats_lifetime_pair(u64 v)
{
	struct lt_pair p = { .lo = v, .hi = ~v ^ 0x5a5a5a5a5a5a5a5aULL };

	return p;
}

/* "pair N": N calls of kstats_lifetime_pair(), each result checked. */
static int lt_pairs(const char *arg)
{
	unsigned int i, n;
	int err;

	err = kstrtouint(arg, 0, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		u64 v = get_random_u64();
		struct lt_pair p = kstats_lifetime_pair(v);

		if (p.lo != v || p.hi != (~v ^ 0x5a5a5a5a5a5a5a5aULL)) {
			pr_err("kstats_lifetime_pair(%llx) returned %llx %llx\n",
			       v, p.lo, p.hi);
			return -EIO;
		}
	}
	return 0;
}

/* A lock wait's two ends, for a section to pair by the lock (arg0). */
static noinline __noipa void kstats_lifetime_wait_begin(const void *lock)
{
	barrier_data(lock);
}

static noinline __noipa void kstats_lifetime_wait_end(const void *lock)
{
	barrier_data(lock);
}

/* Spin for @us of CLOCK_MONOTONIC: the waits must not sleep past it. */
static void lt_busy(unsigned int us)
{
	u64 end = ktime_get_ns() + us * NSEC_PER_USEC;

	while (ktime_get_ns() < end)
		cpu_relax();
}

/*
 * A function slow only when one caller calls it, for outliers whose
 * stacks must name that caller: kstats_lifetime_work() spins for @us;
 * lt_slow_caller() asks it for 20 ms, lt_fast_caller() for nothing.  The
 * barrier() after each call keeps it from being a tail call, which would
 * take the caller's frame off the stack.
 */
static noinline __noipa void kstats_lifetime_work(unsigned int us)
{
	lt_busy(us);
}

static noinline __noipa void lt_fast_caller(void)
{
	kstats_lifetime_work(0);
	barrier();
}

static noinline __noipa void lt_slow_caller(void)
{
	kstats_lifetime_work(20000);
	barrier();
}

/* "callers N": N rounds of four fast calls, then one slow one. */
static noinline int lt_callers(const char *arg)
{
	unsigned int i, j, n;

	if (kstrtouint(arg, 0, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		for (j = 0; j < 4; j++)
			lt_fast_caller();
		lt_slow_caller();
	}
	return 0;
}

/* "work MS[,MS]...": kstats_lifetime_work() for each, in that order. */
static int lt_work(const char *arg)
{
	char buf[64], *p = buf, *tok;
	unsigned int ms;

	if (strscpy(buf, arg, sizeof(buf)) < 0)
		return -EINVAL;
	while ((tok = strsep(&p, ","))) {
		if (kstrtouint(tok, 0, &ms) || ms > 1000)
			return -EINVAL;
		kstats_lifetime_work(ms * USEC_PER_MSEC);
	}
	return 0;
}

/* "cookies N": the I-th section's cookie at its start. */
static u64 lt_cookie(unsigned int i)
{
	return (u64)(i + 1) << 32 | i;
}

static int lt_cookies(const char *arg)
{
	unsigned int i, n;
	int err;

	err = kstrtouint(arg, 0, &n);
	if (err || n > 1024)
		return -EINVAL;
	for (i = 0; i < n; i++)
		trace_kstats_lifetime_cookie_begin(lt_cookie(i));
	for (i = n; i-- > 0;)
		trace_kstats_lifetime_cookie_end(i % 2 ? lt_cookie(i) + ((u64)n << 32) :
						 lt_cookie(i));
	return 0;
}

static int lt_nest(const char *arg)
{
	static int lock_a, lock_b;
	unsigned int i, n;
	int err;

	err = kstrtouint(arg, 0, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		kstats_lifetime_wait_begin(&lock_a);
		kstats_lifetime_wait_begin(&lock_a);
		lt_busy(500);
		kstats_lifetime_wait_begin(&lock_b);
		lt_busy(200);
		kstats_lifetime_wait_end(&lock_b);
		lt_busy(500);
		kstats_lifetime_wait_end(&lock_a);
	}
	return 0;
}

/*
 * "why": a call that runs (or waits for its CPU, with a competitor), one
 * that sleeps, and one that interrupts eat.
 */
static struct hrtimer lt_why_timer;
static u64 lt_why_period_ns, lt_why_spin_ns, lt_why_irq_ns;
static unsigned int lt_why_fired;

/*
 * @timer, if set, is started at the entry and cancelled before the return:
 * every callback falls inside the call, as the test's bound assumes
 */
static noinline __noipa void kstats_lifetime_why_spin(unsigned int ms,
						      struct hrtimer *timer)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	if (timer)
		hrtimer_start(timer, ns_to_ktime(lt_why_period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
	while (ktime_get_ns() < end)
		cond_resched();
	if (timer)
		hrtimer_cancel(timer);
}

static noinline __noipa void kstats_lifetime_why_sleep(unsigned int ms)
{
	msleep(ms);
}

static enum hrtimer_restart lt_why_tick(struct hrtimer *t)
{
	u64 start = ktime_get_ns();

	while (ktime_get_ns() - start < lt_why_spin_ns)
		cpu_relax();
	lt_why_irq_ns += ktime_get_ns() - start;
	lt_why_fired++;
	hrtimer_forward_now(t, ns_to_ktime(lt_why_period_ns));
	return HRTIMER_RESTART;
}

static int lt_why(const char *cmd, const char *arg)
{
	unsigned int ms, us, period;

	if (strcmp(cmd, "why_irq")) {
		if (kstrtouint(arg, 0, &ms) || !ms || ms > 1000)
			return -EINVAL;
		if (cmd[4] == 's' && cmd[5] == 'p')
			kstats_lifetime_why_spin(ms, NULL);
		else
			kstats_lifetime_why_sleep(ms);
		return 0;
	}
	if (sscanf(arg, "%u %u %u", &ms, &us, &period) != 3 || !ms ||
	    ms > 1000 || us >= period || period > 10000)
		return -EINVAL;
	lt_why_period_ns = period * NSEC_PER_USEC;
	lt_why_spin_ns = us * NSEC_PER_USEC;
	lt_why_irq_ns = 0;
	lt_why_fired = 0;
	/* the timer's CPU is the spin's: it may not move meanwhile */
	migrate_disable();
	hrtimer_init(&lt_why_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	lt_why_timer.function = lt_why_tick;
	kstats_lifetime_why_spin(ms, &lt_why_timer);
	migrate_enable();
	pr_info("why_irq: %u callbacks %llu ns\n", lt_why_fired, lt_why_irq_ns);
	return 0;
}

static DEFINE_MUTEX(lt_wait_mutex);
static DECLARE_COMPLETION(lt_held);
/* the task that waits for lt_wait_mutex, and whether it is on its way */
static struct task_struct *lt_waiter;
static bool lt_waiting;

/*
 * Hold the mutex for @arg ms from the moment the waiter sleeps on it: on
 * a loaded machine the waiter may reach mutex_lock() milliseconds after
 * the completion, and its wait must still be the whole @arg ms (the
 * lockwait tests count the waits of 20 ms by their length).
 */
static int lt_holder(void *arg)
{
	mutex_lock(&lt_wait_mutex);
	complete(&lt_held);
	while (!READ_ONCE(lt_waiting) || task_is_running(lt_waiter))
		usleep_range(500, 1000);
	msleep((unsigned long)arg);
	mutex_unlock(&lt_wait_mutex);
	return 0;
}

/*
 * The two places "mutex_sites" waits from, apart (noinline, and not one
 * code: the second counts its calls), so that a stack names its site.
 */
static unsigned int lt_site_b_calls;

static noinline __noipa void lt_mutex_site_a(void)
{
	mutex_lock(&lt_wait_mutex);
	mutex_unlock(&lt_wait_mutex);
}

static noinline __noipa void lt_mutex_site_b(void)
{
	mutex_lock(&lt_wait_mutex);
	mutex_unlock(&lt_wait_mutex);
	WRITE_ONCE(lt_site_b_calls, lt_site_b_calls + 1);
}

/* One wait of @ms from @site for the mutex a kthread holds meanwhile. */
static int lt_mutex_round(unsigned int ms, void (*site)(void))
{
	struct task_struct *t;

	reinit_completion(&lt_held);
	lt_waiter = current;
	WRITE_ONCE(lt_waiting, false);
	t = kthread_create(lt_holder, (void *)(unsigned long)ms,
			   "kstats_lt_hold");
	if (IS_ERR(t))
		return PTR_ERR(t);
	/*
	 * held before it runs, and stopped: its task_struct outlives its
	 * exit, and no rmmod comes under its last return
	 */
	get_task_struct(t);
	wake_up_process(t);
	wait_for_completion(&lt_held);
	WRITE_ONCE(lt_waiting, true);
	site();
	kthread_stop(t);
	put_task_struct(t);
	return 0;
}

static int lt_mutex_wait(const char *arg)
{
	unsigned int i, n, ms;
	int err = 0;

	if (sscanf(arg, "%u %u", &n, &ms) != 2 || !ms || ms > 1000)
		return -EINVAL;
	for (i = 0; i < n && !err; i++)
		err = lt_mutex_round(ms, lt_mutex_site_a);
	return err;
}

/* "mutex_sites A B MS": A waits from one place, then B from another. */
static int lt_mutex_sites(const char *arg)
{
	unsigned int i, a, b, ms;
	int err = 0;

	if (sscanf(arg, "%u %u %u", &a, &b, &ms) != 3 || !ms || ms > 1000)
		return -EINVAL;
	for (i = 0; i < a && !err; i++)
		err = lt_mutex_round(ms, lt_mutex_site_a);
	for (i = 0; i < b && !err; i++)
		err = lt_mutex_round(ms, lt_mutex_site_b);
	return err;
}

/* What the clocksource watchdog does on finding the TSC unstable. */
static int lt_tsc_unstable(void)
{
#ifdef CONFIG_X86_TSC
	mark_tsc_unstable("kstats_lifetime's tsc_unstable command");
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* "kprobe SYM": a post handler makes it an ftrace IPMODIFY user. */
static struct kprobe lt_kp;
static atomic_long_t lt_kp_posts;
static char lt_kp_sym[KSYM_NAME_LEN];

static int lt_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void lt_kp_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	atomic_long_inc(&lt_kp_posts);
}

static int lt_kprobe(const char *sym)
{
	int err;

	if (lt_kp.addr)
		return -EBUSY;
	if (!*sym || strscpy(lt_kp_sym, sym, sizeof(lt_kp_sym)) < 0)
		return -EINVAL;
	memset(&lt_kp, 0, sizeof(lt_kp));
	lt_kp.symbol_name = lt_kp_sym;
	lt_kp.pre_handler = lt_kp_pre;
	lt_kp.post_handler = lt_kp_post;
	atomic_long_set(&lt_kp_posts, 0);
	err = register_kprobe(&lt_kp);
	if (err)
		lt_kp.addr = NULL;
	return err;
}

static int lt_unkprobe(const char *arg)
{
	long n;
	u64 min;

	if (kstrtou64(arg, 0, &min))
		return -EINVAL;
	if (!lt_kp.addr)
		return -ENOENT;
	unregister_kprobe(&lt_kp);
	lt_kp.addr = NULL;
	n = atomic_long_read(&lt_kp_posts);
	pr_info("kprobe on %s: %ld post handler calls\n", lt_kp_sym, n);
	return n >= min ? 0 : -EIO;
}

/* One command; @arg is what follows the first blank, or "". */
static int lt_command(const char *cmd, const char *arg)
{
	u64 v;

	if (!strcmp(cmd, "fire"))
		return lt_fire(arg);
	if (!strcmp(cmd, "narrow") || !strcmp(cmd, "ret"))
		return lt_narrow(arg, cmd[0] == 'r');
	if (!strcmp(cmd, "callers"))
		return lt_callers(arg);
	if (!strcmp(cmd, "work"))
		return lt_work(arg);
	if (!strcmp(cmd, "exit_inside") && !*arg)
		return lt_exit_inside();
	if (!strcmp(cmd, "pair"))
		return lt_pairs(arg);
	if (!strcmp(cmd, "nest"))
		return lt_nest(arg);
	if (!strcmp(cmd, "cookies"))
		return lt_cookies(arg);
	if (!strcmp(cmd, "mutex_wait"))
		return lt_mutex_wait(arg);
	if (!strcmp(cmd, "mutex_sites"))
		return lt_mutex_sites(arg);
	if (!strcmp(cmd, "kprobe"))
		return lt_kprobe(arg);
	if (!strcmp(cmd, "unkprobe"))
		return lt_unkprobe(arg);
	if (!strcmp(cmd, "why_spin") || !strcmp(cmd, "why_sleep") ||
	    !strcmp(cmd, "why_irq"))
		return lt_why(cmd, arg);
	if (!strcmp(cmd, "tsc_unstable") && !*arg)
		return lt_tsc_unstable();
	if (!strcmp(cmd, "get")) {
		if (lt_ks)
			return -EBUSY;
		lt_ks = kstats_get(arg);
		return lt_ks ? 0 : -ENOENT;
	}
	if (!strcmp(cmd, "unspin") && !*arg) {
		lt_unspin();
		return 0;
	}
	if (!lt_ks)
		return -ENOENT;
	if (!strcmp(cmd, "record")) {
		if (kstrtou64(arg, 0, &v))
			return -EINVAL;
		kstats_record(lt_ks, v);
		return 0;
	}
	if (!strcmp(cmd, "spin"))
		return lt_start_spin(arg);
	if (*arg)
		return -EINVAL;
	if (lt_spinner &&
	    (!strcmp(cmd, "put") || !strcmp(cmd, "put_atomic") ||
	     !strcmp(cmd, "put_hardirq")))
		return -EBUSY;
	if (!strcmp(cmd, "put")) {
		kstats_put(lt_ks);
		lt_ks = NULL;
		return 0;
	}
	if (!strcmp(cmd, "put_atomic"))
		return lt_put_atomic();
	if (!strcmp(cmd, "put_hardirq"))
		return lt_put_hardirq();
	return -EINVAL;
}

static ssize_t lt_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[LT_CMD_MAX + 1];
	char *cmd, *arg;
	int err;

	if (!count || count > LT_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	cmd = strim(buf);
	arg = strchr(cmd, ' ');
	if (arg) {
		*arg++ = '\0';
		arg = skip_spaces(arg);
	} else {
		arg = cmd + strlen(cmd);
	}
	mutex_lock(&lt_lock);
	err = lt_command(cmd, arg);
	mutex_unlock(&lt_lock);
	if (err)
		pr_info("'%s%s%s': error %d\n", cmd, *arg ? " " : "", arg, err);
	return err ? err : count;
}

static const struct file_operations lt_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lt_ctl_write,
	.llseek = noop_llseek,
};

static int __init lt_init(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(init_delay_ms);
	unsigned int n = 0;

	trace_kstats_lifetime_init(n++);
	while (time_before(jiffies, end) && !READ_ONCE(init_release)) {
		usleep_range(10000, 11000);
		trace_kstats_lifetime_init(n++);
	}
	if (init_fail) {
		pr_info("init_fail: module_init() fails after %u ms, %u tracepoint hits\n",
			init_delay_ms, n);
		return -ENODEV;
	}
	hrtimer_init(&lt_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	lt_timer.function = lt_timer_fn;
	lt_dir = debugfs_create_dir("kstats_lifetime", NULL);
	debugfs_create_file("ctl", 0200, lt_dir, NULL, &lt_ctl_fops);
	return 0;
}

static void __exit lt_exit(void)
{
	debugfs_remove(lt_dir);
	mutex_lock(&lt_lock);
	lt_unspin();
	if (lt_kp.addr)
		unregister_kprobe(&lt_kp);
	hrtimer_cancel(&lt_timer);
	kstats_put(lt_timer_ks);
	lt_timer_ks = NULL;
	kstats_put(lt_ks);
	lt_ks = NULL;
	mutex_unlock(&lt_lock);
}

module_init(lt_init);
module_exit(lt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats lifetime cases: a tracepoint of a module in init, puts in atomic context");
