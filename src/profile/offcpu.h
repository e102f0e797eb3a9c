/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Off-CPU analysis of a scheduler event log (profile/sched.h): per thread of the target,
 * the intervals between its switch-out and its next switch-in, split into blocked (it
 * left in S, D or another sleeping state) and preempted (it left runnable, R); the
 * run-queue wait (scheduler delay, as perf sched timehist's sch delay counts it: a
 * preempted interval whole, a blocked one from the WAKING of the thread to its switch-in;
 * schedstat's run_delay in /proc/TID/schedstat agrees on waits behind runnable threads,
 * and counts about 0 for a wakeup whose switch follows at once, as the kernel skips the
 * run-queue clock update for that switch); the on-CPU time from switch-in to switch-out; off-CPU
 * time by the stack at switch-out with the stacks of the wakers that ended each wait (bcc's
 * offcputime and offwaketime); bcc runqlat's log2 histogram of run-queue waits; and per-bucket run,
 * wait and blocked time for --timeline. Pure: it reads only the log, so synthetic logs test it.
 *
 * Edges and losses. An interval open at the window's start (a thread first seen
 * switching in: off-CPU since t0; first seen switching out: on-CPU since t0, or since its
 * FORK) or at its end is clipped to [t0, t1] and counted in @clipped; an off-CPU interval
 * open at the start whose reason is unknown counts as blocked with no stack. An interval
 * whose two ends lie on CPUs with a gap (pl_sched_log.gaps) between them, or whose ends
 * contradict each other (two switch-ins without a switch-out: an event was lost), is
 * dropped and counted in @dropped, never joined across the loss. A thread that leaves in
 * a dead state (X, Z) has no interval after it. */
#ifndef PERFLAB_PROFILE_OFFCPU_H
#define PERFLAB_PROFILE_OFFCPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "profile/sched.h"

/** Buckets of a run-queue latency histogram: bucket 0 holds waits of 0 and 1 us, bucket
 *  k >= 1 waits of 2^k to 2^(k+1)-1 us (bcc runqlat's print_log2_hist rows "0 -> 1",
 *  "2 -> 3", "4 -> 7", ...; the wait truncated to whole microseconds as runqlat does);
 *  the last bucket also holds every longer wait. */
#define PL_RUNQ_BUCKETS 40

/** The histogram bucket of a wait of @ns nanoseconds (see PL_RUNQ_BUCKETS). */
size_t pl_runq_bucket(uint64_t ns);

/** Why a thread was off CPU. */
enum pl_offcpu_kind {
	PL_OFF_BLOCKED,	  /**< left sleeping (S, D, I, T, ...): waited for an event */
	PL_OFF_PREEMPTED, /**< left runnable (R), or new (FORK to first run): waited for a CPU */
};

/** Per-thread totals (perf sched timehist -s's summary), ns. */
struct pl_offcpu_thread {
	uint32_t pid, tid;
	uint64_t run_ns;       /**< on CPU: switch-in to switch-out */
	uint64_t blocked_ns;   /**< off CPU in blocked intervals (waking to switch-in too) */
	uint64_t preempted_ns; /**< off CPU in preempted intervals */
	uint64_t delay_ns;     /**< run-queue wait: preempted intervals + waking to
				*   switch-in of blocked ones (clipped ones included) */
	uint64_t delay_max_ns; /**< longest single wait */
	uint64_t ndelays;      /**< waits in @delay_ns (mean = delay_ns / ndelays) */
	uint64_t switches;     /**< switch-outs */
	uint64_t migrations;   /**< sched_migrate_task events of the thread when the log has
				*   any, else switch-ins on another CPU than the previous one */
	uint64_t clipped;      /**< intervals clipped at the window's edges */
	uint64_t dropped;      /**< intervals dropped: they crossed lost events */
	uint64_t dropped_ns;   /**< the time of those intervals: from the last event the
				*   thread's state was known at to the one that contradicts it
				*   or follows the loss (neither on nor off CPU; run + blocked +
				*   preempted + dropped is the time the thread was seen) */
	uint64_t hist[PL_RUNQ_BUCKETS]; /**< its run-queue waits (pl_runq_bucket) */
};

/** Off-CPU time of one thread at one switch-out stack, of one kind. */
struct pl_offcpu_stack {
	uint32_t pid, tid;
	uint32_t stack;	   /**< index into pl_profile.stacks, or PL_SCHED_NO_STACK */
	uint8_t kind;	   /**< enum pl_offcpu_kind */
	uint64_t time;	   /**< ns of the first switch-out (its address space) */
	uint64_t count;	   /**< intervals */
	uint64_t total_ns; /**< their time */
	uint64_t max_ns;   /**< the longest */
	uint64_t clipped;  /**< of which clipped at the window's edges */
	size_t waker0;	   /**< blocked: its wakers are pl_offcpu.wak[waker0 ..] */
	size_t nwakers;	   /**< how many */
};

/** Who ended the waits of one blocked stack: a thread at a stack (sched_waking's current
 *  task and its callchain; tid 0 = the idle task, i.e. an interrupt on an idle CPU), an
 *  interrupt handler (@ctx not PL_CTX_TASK: pid and tid 0, whichever task it
 *  interrupted), or @tid UINT32_MAX when no WAKING was seen (lost, or woken before the
 *  window). */
struct pl_offcpu_waker {
	uint32_t pid, tid;
	uint32_t stack;	   /**< the waker's stack, or PL_SCHED_NO_STACK */
	uint8_t ctx;	   /**< enum pl_sched_ctx the waking fired in */
	uint64_t time;	   /**< ns of the first such waking */
	uint64_t count;	   /**< waits it ended */
	uint64_t total_ns; /**< their blocked time */
};

/** Per-bucket time of each thread row, ns, for --timeline: running, waiting on the run
 *  queue (preempted, woken and not yet running) and blocked (switch-out to waking). The
 *  buckets are those of pl_timeline_build over [t0, t1) (the last one also holds what
 *  lies after its end); rows parallel to pl_offcpu.thr. */
struct pl_offcpu_timeline {
	double bucket_ms;		/**< 0: no timeline */
	size_t nb;			/**< buckets per row */
	uint64_t *run, *runq, *blocked; /**< nthr x nb each, row-major */
};

/** The analysis. Everything is owned; free with pl_offcpu_free(). */
struct pl_offcpu {
	struct pl_offcpu_thread *thr; /**< target threads with any interval, by pid, tid */
	size_t nthr;
	struct pl_offcpu_stack *stk; /**< by total_ns descending (ties: tid, stack, kind) */
	size_t nstk;
	struct pl_offcpu_waker *wak; /**< grouped by stack, each group by total_ns desc. */
	size_t nwak;
	uint64_t hist[PL_RUNQ_BUCKETS];	       /**< every run-queue wait of the target */
	uint64_t (*cpu_hist)[PL_RUNQ_BUCKETS]; /**< per CPU the wait ended on, @ncpu rows */
	size_t ncpu;
	uint64_t run_ns, blocked_ns, preempted_ns, delay_ns; /**< sums over @thr */
	uint64_t clipped, dropped, dropped_ns;		     /**< sums over @thr */
	uint64_t lost;					     /**< events lost (pl_sched_log.lost) */
	size_t ngaps;					     /**< gaps in the log */
	uint64_t t0, t1;				     /**< the window */
	bool migrate_events; /**< migrations counted from sched_migrate_task */
	struct pl_offcpu_timeline tl;
};

/** Analyse @log (sorted by time) for the threads of its target, with --timeline buckets
 *  of @timeline_ms ms (0: none; rounded and bounded as pl_timeline_build does). Never
 *  fails (allocation failure aborts, as pl_xmalloc). */
void pl_offcpu_build(struct pl_offcpu *o, const struct pl_sched_log *log, int timeline_ms);

/** Free what pl_offcpu_build allocated. NULL-safe; @o may be zero-initialised. */
void pl_offcpu_free(struct pl_offcpu *o);

/** The thread record of @tid, or NULL. */
const struct pl_offcpu_thread *pl_offcpu_thread(const struct pl_offcpu *o, uint32_t tid);

/** The share of the target's observed time that was off CPU, percent:
 *  (blocked + preempted) / (run + blocked + preempted). 0 with no time. */
double pl_offcpu_share(const struct pl_offcpu *o);

/** One weighted stack of a wall-clock graph (pl_offcpu_wall). */
struct pl_wall_item {
	uint32_t pid, tid;
	uint32_t stack; /**< index into pl_profile.stacks (PL_SCHED_NO_STACK: none) */
	uint64_t time;	/**< ns (the address space) */
	uint64_t us;	/**< microseconds */
	bool off;	/**< off-CPU time (else on-CPU) */
};

/** The weighted stacks of --wall: off-CPU time per pl_offcpu_stack (total_ns rounded to
 *  microseconds) and on-CPU time from @p's samples: a thread's on-CPU time from the
 *  switch log (run_ns; a thread with samples but no interval in @o ran the whole window)
 *  distributed over its sampled stacks by their share of its samples, rounded to the
 *  nearest microsecond. Samples @keep rejects (NULL = all) are left out. Items of 0 us are
 *  left out. *@items gets a malloc'd array (owned by the caller) of *@n entries, on-CPU
 *  ones first. */
void pl_offcpu_wall(const struct pl_offcpu *o, const struct pl_profile *p,
		    bool (*keep)(void *ctx, const struct pl_psample *s), void *kctx,
		    struct pl_wall_item **items, size_t *n);

#endif
