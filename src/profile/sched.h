/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scheduler events for off-CPU, wall-clock and scheduler-delay profiles: what the
 * collector (profile/sched_collect.c) hands the analysis (profile/offcpu.c). The events
 * come from the sched:sched_switch, sched:sched_waking and sched:sched_migrate_task
 * tracepoints (include/trace/events/sched.h) opened on every CPU of the session (a
 * switch with prev's kernel and user callchain, a waking with the waker's kernel
 * callchain), and from PERF_RECORD_FORK/EXIT/COMM, so a
 * thread's intervals are complete whichever task ran before or after it. The log is
 * sorted by time before it is handed over; the analysis keeps only threads of the target
 * (pl_sched_log.all, or a pid in @pids).
 *
 * A thread's off-CPU interval runs from its switch-out (SWITCH with prev_tid = the
 * thread) to its next switch-in (SWITCH with next_tid = the thread). The prev_state at
 * switch-out says why it left: PL_TS_RUNNING is a preemption (it waits on the run queue
 * the whole interval), anything else a block; a block's run-queue wait starts at the
 * WAKING of the thread. Lost events (ring full) leave gaps: the analysis never joins two
 * events of a CPU across one of @gaps. */
#ifndef PERFLAB_PROFILE_SCHED_H
#define PERFLAB_PROFILE_SCHED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The kind of a scheduler event. */
enum pl_sched_kind {
	PL_SCHED_SWITCH, /**< sched_switch: @tid (prev) leaves the CPU, @other_tid (next) gets it */
	PL_SCHED_WAKING, /**< sched_waking: @tid (the waker) wakes @other_tid on @target_cpu */
	PL_SCHED_MIGRATE, /**< sched_migrate_task: @other_tid moves from @cpu to @target_cpu */
	PL_SCHED_FORK,	  /**< PERF_RECORD_FORK: @tid (child) of process @pid created */
	PL_SCHED_EXIT,	  /**< PERF_RECORD_EXIT: @tid of process @pid ended */
};

/** prev_state at switch-out, reduced to the classes the profile shows (the TASK_* bits of
 *  include/linux/sched.h as sched_switch reports them: 0 = R, 0x1 = S, 0x2 = D, ...). */
enum pl_task_state {
	PL_TS_RUNNING,	/**< R: preempted, still runnable */
	PL_TS_SLEEPING, /**< S: interruptible sleep (waits, sleeps, poll, futex...) */
	PL_TS_DISK,	/**< D: uninterruptible sleep (I/O, some locks) */
	PL_TS_IDLE,	/**< I: idle kernel thread (TASK_IDLE = D | NOLOAD) */
	PL_TS_STOPPED,	/**< T or t: stopped or traced */
	PL_TS_DEAD,	/**< X, Z or P: exiting */
	PL_TS_OTHER,	/**< any other bit pattern */
};

/** The context a sched_waking fired in: a task's (the current task is the waker) or an
 *  interrupt's (the current task was only interrupted; the wakeup came from the handler,
 *  e.g. an hrtimer expiring). */
enum pl_sched_ctx {
	PL_CTX_TASK,	/**< process context */
	PL_CTX_HARDIRQ, /**< hard interrupt or NMI handler */
	PL_CTX_SOFTIRQ, /**< softirq (a timer, the network stack, RCU...) */
};

/** The context of a tracepoint record from its common_flags @flags, the TRACE_FLAG_* bits
 *  of include/linux/trace_events.h: 0x08 HARDIRQ, 0x10 SOFTIRQ, 0x40 NMI. A hard
 *  interrupt taken during a softirq has both bits: the hard one wins. */
enum pl_sched_ctx pl_sched_ctx_of_flags(uint64_t flags);

/** Its name as the outputs show it in place of a waker's comm: "[hardirq]", "[softirq]",
 *  or NULL for PL_CTX_TASK. */
const char *pl_sched_ctx_name(enum pl_sched_ctx ctx);

/** No stack: the event carried no callchain. */
#define PL_SCHED_NO_STACK UINT32_MAX

/** One scheduler event. */
struct pl_sched_ev {
	uint64_t time;	     /**< CLOCK_MONOTONIC ns (perf's use_clockid) */
	uint32_t cpu;	     /**< the CPU the event fired on */
	uint8_t kind;	     /**< enum pl_sched_kind */
	uint8_t prev_state;  /**< SWITCH: enum pl_task_state of @tid; else 0 */
	uint8_t waker_ctx;   /**< WAKING: enum pl_sched_ctx it fired in; else 0 */
	uint32_t pid, tid;   /**< the task current when the event fired (SWITCH: prev;
			      *   WAKING: the waker; FORK/EXIT: the child / the ending
			      *   task); 0 = the idle task; pid UINT32_MAX: unknown (an
			      *   exiting thread's last switch-out, the task unhashed) */
	uint32_t other_tid;  /**< SWITCH: next; WAKING: the woken thread; MIGRATE: the
			      *   moved thread; FORK: the parent's tid; else 0 */
	uint32_t target_cpu; /**< WAKING: target_cpu; MIGRATE: dest_cpu; else @cpu */
	uint32_t stack;	     /**< SWITCH: prev's callchain at switch-out; WAKING: the
			      *   waker's kernel frames (the path that ended the
			      *   wait; its user frames are not recorded); an index into
			      * pl_profile.stacks (interned there      with @pid so they symbolise with
			      * the      on-CPU samples), or      PL_SCHED_NO_STACK */
};

/** Events lost on one CPU between @from and @to (ns): the first event of that CPU after
 *  the loss and the last before it. */
struct pl_sched_gap {
	uint32_t cpu;
	uint64_t from, to;
};

/** A thread of the target that existed when recording began, with its state then: a
 *  thread with no event in the window stayed in that state throughout (a -p process
 *  asleep the whole time is off CPU the whole time, one running alone on its CPU is on
 *  it). */
struct pl_sched_thread0 {
	uint32_t pid, tid;
	uint8_t state; /**< enum pl_task_state from /proc/PID/task/TID/stat's state letter */
};

/** The collected log (owned by the session, freed with pl_sched_log_free). */
struct pl_sched_log {
	struct pl_sched_ev *ev; /**< sorted by time (ties in ring order) */
	size_t n, cap;
	struct pl_sched_gap *gaps; /**< where events were lost, by CPU */
	size_t ngaps, capgaps;
	uint64_t lost;	 /**< events lost (PERF_RECORD_LOST / LOST_SAMPLES, and the
			  *   kernel's count minus those read) */
	uint64_t t0, t1; /**< the window recorded, CLOCK_MONOTONIC ns */
	bool all;	 /**< -a: every thread is a target */
	uint32_t *pids;	 /**< otherwise the target processes (a command's tree, the
			  *   -p processes), sorted, @npids entries */
	size_t npids;
	struct pl_sched_thread0 *threads0; /**< -p: the target's threads at the start */
	size_t nthreads0;
};

/** Free the log's arrays and zero it. NULL-safe. */
void pl_sched_log_free(struct pl_sched_log *log);

/** Whether process @pid is a target of @log (@log->all, or @pid in @log->pids). */
bool pl_sched_log_target(const struct pl_sched_log *log, uint32_t pid);

/** The class of sched_switch's raw prev_state @raw (the TASK_* bits of the kernel the
 *  record came from: 0x1 S, 0x2 D, 0x4 T, 0x8 t, 0x10 X, 0x20 Z, 0x40 P, 0x80 I = TASK_IDLE
 *  as TASK_REPORT_IDLE; the kernel reports preempted tasks as 0 and may set
 *  TASK_REPORT_MAX (the bit above the last state) for them on some kernels). */
enum pl_task_state pl_task_state_of(uint64_t raw);

/** The class of a state letter of /proc/PID/stat (proc(5): R S D I T t X Z P ...). */
enum pl_task_state pl_task_state_of_letter(char c);

/** One letter for @st as ps(1) and perf sched show it: R S D I T X ?. */
char pl_task_state_letter(enum pl_task_state st);

#endif
