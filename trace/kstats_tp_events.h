/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints kstats has probes of their own prototype for: those the
 * recipes of the kstats command and the sections use.  A tracepoint calls
 * its probes as void (*)(void *data, TP_PROTO); kstats' generic probe
 * takes twelve unsigned longs instead, which the x86-64 and arm64 calling
 * conventions let work but which is undefined in C, and which a kernel
 * that checks the type of indirect calls (CONFIG_CFI_CLANG) traps on.
 *
 * Read once per use, as the kernel's kvm-x86-ops.h is: the includer
 * defines KSTATS_TP_EVENT(EVENT, GROUP, PROTO, ARGS), called here for
 * each event, with PROTO the event's TP_PROTO and ARGS its arguments as
 * unsigned longs, widened as C converts each type (an int sign-extended,
 * a bool or an unsigned int zero-extended).  kstats_tracepoint.c makes
 * the probes and checks each against the kernel's own declaration of the
 * tracepoint (check_trace_callback_type_EVENT(), from the event headers
 * it includes), so a kernel whose TP_PROTO differs does not build rather
 * than call a probe of another type.
 */
KSTATS_TP_EVENT(sched_switch, sched,
		PARAMS(bool preempt, struct task_struct *prev,
		       struct task_struct *next, unsigned int prev_state),
		PARAMS(preempt, (unsigned long)prev, (unsigned long)next,
		       prev_state))
KSTATS_TP_EVENT(sched_wakeup, sched, PARAMS(struct task_struct *p),
		PARAMS((unsigned long)p))
KSTATS_TP_EVENT(sched_wakeup_new, sched, PARAMS(struct task_struct *p),
		PARAMS((unsigned long)p))
KSTATS_TP_EVENT(sched_process_exit, sched, PARAMS(struct task_struct *p),
		PARAMS((unsigned long)p))
KSTATS_TP_EVENT(sched_process_free, sched, PARAMS(struct task_struct *p),
		PARAMS((unsigned long)p))
KSTATS_TP_EVENT(irq_handler_entry, irq,
		PARAMS(int irq, struct irqaction *action),
		PARAMS(irq, (unsigned long)action))
KSTATS_TP_EVENT(irq_handler_exit, irq,
		PARAMS(int irq, struct irqaction *action, int ret),
		PARAMS(irq, (unsigned long)action, ret))
KSTATS_TP_EVENT(softirq_entry, irq, PARAMS(unsigned int vec_nr),
		PARAMS(vec_nr))
KSTATS_TP_EVENT(softirq_exit, irq, PARAMS(unsigned int vec_nr),
		PARAMS(vec_nr))
KSTATS_TP_EVENT(contention_begin, lock,
		PARAMS(void *lock, unsigned int flags),
		PARAMS((unsigned long)lock, flags))
KSTATS_TP_EVENT(contention_end, lock, PARAMS(void *lock, int ret),
		PARAMS((unsigned long)lock, ret))
#ifdef CONFIG_BLOCK
KSTATS_TP_EVENT(block_rq_issue, block, PARAMS(struct request *rq),
		PARAMS((unsigned long)rq))
KSTATS_TP_EVENT(block_rq_insert, block, PARAMS(struct request *rq),
		PARAMS((unsigned long)rq))
KSTATS_TP_EVENT(block_rq_complete, block,
		PARAMS(struct request *rq, blk_status_t error,
		       unsigned int nr_bytes),
		PARAMS((unsigned long)rq, (__force u8)error, nr_bytes))
#endif
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
KSTATS_TP_EVENT(sys_enter, raw_syscalls, PARAMS(struct pt_regs *regs, long id),
		PARAMS((unsigned long)regs, id))
KSTATS_TP_EVENT(sys_exit, raw_syscalls, PARAMS(struct pt_regs *regs, long ret),
		PARAMS((unsigned long)regs, ret))
#endif

#undef KSTATS_TP_EVENT
