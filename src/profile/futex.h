/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --locks: lock contention as time blocked in futex waits, like `perf lock contention`
 * for user-space locks. The syscalls:sys_enter_futex and sys_exit_futex tracepoints
 * (and futex_waitv, futex_wait and futex_wake where the kernel has them) are sampled at
 * period 1 into per-CPU rings; each enter carries the user callchain (frame pointers,
 * with the libc frames that have none unwound from a small stack copy by CFI, as
 * --call-graph dwarf does) interned in the session's profile so it symbolises with the
 * samples. After the run, enter and exit are paired per thread in time order (a thread's
 * two events may sit in different CPU rings) and the waits are summed per call site
 * (the first user frame outside libc, libpthread and ld.so), per stack, per lock
 * address (uaddr, per process) and per thread.
 *
 * Waits are the futex(2) operations that block (op & FUTEX_CMD_MASK in FUTEX_WAIT,
 * FUTEX_WAIT_BITSET, FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_WAIT_REQUEUE_PI;
 * include/uapi/linux/futex.h), futex_waitv(2) and futex_wait(2); wakes (FUTEX_WAKE,
 * FUTEX_WAKE_BITSET, FUTEX_WAKE_OP, FUTEX_UNLOCK_PI, the requeues, futex_wake(2)) are
 * only counted. A wait that returns EAGAIN (the futex word had changed: no sleep) is a
 * retry, not contention time; ETIMEDOUT and EINTR (and the kernel's restart codes) are
 * waits that ended early and count with their time.
 *
 * Lost events (a full ring) are never papered over: every ring's losses become a time
 * gap (from its last record before the loss to the first after, or to the end for drops
 * no PERF_RECORD_LOST reported), and a wait whose enter-exit span touches a gap, or
 * whose enter or exit is missing inside the run, is dropped and counted, never
 * invented. */
#ifndef PERFLAB_PROFILE_FUTEX_H
#define PERFLAB_PROFILE_FUTEX_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile/profile.h"

/** What a futex call does. */
enum pl_futex_class {
	PL_FUTEX_OTHER, /**< neither (FUTEX_FD, FUTEX_TRYLOCK_PI, unknown ops) */
	PL_FUTEX_WAIT,	/**< may block: contention */
	PL_FUTEX_WAKE,	/**< wakes or requeues waiters */
};

/** The syscall an event belongs to. */
enum pl_futex_call {
	PL_FUTEX_CALL_FUTEX, /**< futex(2): the class from its op */
	PL_FUTEX_CALL_WAITV, /**< futex_waitv(2): a wait on several futexes (no one uaddr) */
	PL_FUTEX_CALL_WAIT,  /**< futex_wait(2) (futex2, Linux 6.7): a wait */
	PL_FUTEX_CALL_WAKE,  /**< futex_wake(2) (futex2): a wake */
	PL_FUTEX_NCALLS,
};

/** The class of futex(2) operation @op (the raw op argument: the command in its low
 *  bits, FUTEX_PRIVATE_FLAG (128) and FUTEX_CLOCK_REALTIME (256) masked off by
 *  FUTEX_CMD_MASK). */
enum pl_futex_class pl_futex_op_class(uint64_t op);

/** The name of futex(2) command @op & FUTEX_CMD_MASK ("FUTEX_WAIT"...), or "?" for an
 *  unknown one. Static string. */
const char *pl_futex_op_name(uint64_t op);

/** No stack: the enter carried no callchain. */
#define PL_FUTEX_NO_STACK UINT32_MAX

/** One tracepoint hit. */
struct pl_futex_ev {
	uint64_t time; /**< CLOCK_MONOTONIC ns */
	uint32_t pid, tid;
	uint32_t ring;	/**< the ring (CPU index) it came from */
	bool exit;	/**< sys_exit_* (else sys_enter_*) */
	uint8_t cls;	/**< enter: enum pl_futex_class */
	uint16_t cmd;	/**< enter of futex(2): op & FUTEX_CMD_MASK; else 0 */
	uint64_t uaddr; /**< enter: the futex word's address (0: futex_waitv) */
	uint32_t val;	/**< enter of futex(2): its val argument (FUTEX_WAIT: the value the
			 *   word must hold to sleep); else 0 */
	bool join;	/**< enter: a wait for a thread's exit (pl_futex_mark_joins) */
	int64_t ret;	/**< exit: the return value (-errno on error) */
	uint32_t stack; /**< enter: index into pl_profile.stacks, or PL_FUTEX_NO_STACK */
};

/** Where one of a tracepoint's raw fields sits: offset and size in bytes (-1: absent). */
struct pl_futex_field {
	int off, size;
};

/** The raw layout of the events, from their tracefs format files. */
struct pl_futex_fmt {
	struct pl_futex_field uaddr[PL_FUTEX_NCALLS]; /**< enter: "uaddr" (waitv: none) */
	struct pl_futex_field op[PL_FUTEX_NCALLS];    /**< enter of futex(2): "op" */
	struct pl_futex_field val;		      /**< enter of futex(2): "val" (-1:
						       *   absent; then no join is seen) */
	struct pl_futex_field ret;		      /**< every exit: "ret" */
};

/** Decode the raw payload @raw (@size bytes, outside input) of a sample of @call
 *  (@exit: its sys_exit event) into @e's cls, cmd, uaddr (enter) or ret (exit, sign
 *  extended from the field's size). A field past @size or wider than 8 bytes is a
 *  malformed record. Returns 0, or -EINVAL (then @e's decoded members are zero). */
int pl_futex_decode(const struct pl_futex_fmt *f, enum pl_futex_call call, bool exit,
		    const uint8_t *raw, uint32_t size, struct pl_futex_ev *e);

/** Events were lost between @from and @to (ns). */
struct pl_futex_gap {
	uint64_t from, to;
};

/** The events of a run and where some were lost. Zero-initialise; pl_futex_log_free. */
struct pl_futex_log {
	struct pl_futex_ev *ev;
	size_t n, cap;
	struct pl_futex_gap *gaps;
	size_t ngaps, capgaps;
	uint64_t lost; /**< events lost (PERF_RECORD_LOST, and the kernel's count minus the
			*   samples read) */
};

/** Append @e / a gap to @log. */
void pl_futex_log_add(struct pl_futex_log *log, const struct pl_futex_ev *e);
void pl_futex_log_gap(struct pl_futex_log *log, uint64_t from, uint64_t to);
/** Free @log's arrays and zero it. NULL-safe. */
void pl_futex_log_free(struct pl_futex_log *log);

/** Sums over a set of waits. Times in ns. */
struct pl_futex_stat {
	uint64_t waits;	   /**< waits that blocked or may have (ret >= 0, ETIMEDOUT,
			    *   EINTR, restarts): the "contended" count */
	uint64_t total_ns; /**< enter to exit, summed over @waits */
	uint64_t max_ns;
	uint64_t retries;  /**< EAGAIN: the word changed before the sleep (no time) */
	uint64_t timeouts; /**< ETIMEDOUT (of @waits) */
	uint64_t eintr;	   /**< EINTR or a restart code (of @waits) */
	uint64_t errors;   /**< other errors (no time) */
};

/** A row: waits at one stack, on one lock address or in one thread. */
struct pl_futex_row {
	uint32_t pid, tid; /**< tid: per-thread rows only */
	uint32_t stack;	   /**< per-stack rows: the stack (PL_FUTEX_NO_STACK: none) */
	uint64_t uaddr;	   /**< per-lock rows: the futex word (0: futex_waitv) */
	uint64_t time;	   /**< ns of the row's first wait (for the address space) */
	struct pl_futex_stat st;
};

/** The pairing's result. Rows sorted by total wait, descending (ties: waits, key). */
struct pl_futex_result {
	struct pl_futex_stat all;   /**< the lock waits (joins are not in it, nor in the rows) */
	struct pl_futex_stat joins; /**< waits for a thread's exit (pthread_join): blocked
				     *   time, but not lock contention */
	struct pl_futex_row *stacks, *locks, *threads;
	size_t nstacks, nlocks, nthreads;
	uint64_t wakes;	     /**< wake calls entered */
	uint64_t other;	     /**< other futex calls entered */
	uint64_t dropped;    /**< waits dropped: enter or exit lost, or a loss inside */
	uint64_t open_start; /**< exits with no enter and no loss before them: waits
			      *   begun before the recording (not counted) */
	uint64_t open_end;   /**< enters with no exit and no loss after them: still
			      *   waiting at the end (not counted) */
	uint64_t lost;	     /**< events lost (from the log) */
};

/** Mark the enters of @log that wait for a thread to exit: futex(2) FUTEX_WAIT or
 *  FUTEX_WAIT_BITSET whose expected value is the id of another thread of the caller's
 *  process, one of the @ntids (pid, tid) pairs @tids (@tids[2i] the pid, @tids[2i+1]
 *  the tid; any order). pthread_join and thrd_join wait so on the thread's id word, which
 *  the kernel clears and wakes when the thread exits (CLONE_CHILD_CLEARTID,
 *  set_tid_address(2)); a lock word holds 0, 1, 2 or, for a robust or PI mutex, its
 *  owner's id with FUTEX_WAITERS set, never a bare thread id that a waiter expects. */
void pl_futex_mark_joins(struct pl_futex_log *log, const uint32_t *tids, size_t ntids);

/** Pair and sum the events of @log (sorted here by time; ties: enter first) into @out
 *  (zeroed first; free with pl_futex_result_free). Waits marked join (pl_futex_mark_joins)
 *  are summed in @out->joins only. Pure: tests feed synthetic logs. */
void pl_futex_analyze(struct pl_futex_log *log, struct pl_futex_result *out);
/** Free the rows and zero @r. NULL-safe. */
void pl_futex_result_free(struct pl_futex_result *r);

struct pl_futex;

/** Bytes of user stack copied with each enter for the CFI unwind of the libc frames
 *  (they have no frame pointers, so the frame-pointer chain skips the caller of the
 *  lock function): enough for glibc's mutex, condition variable and barrier paths,
 *  and small, as every enter (wakes too) carries it through the ring: 2 KiB lost events
 *  on a 600k-waits-per-second ping-pong where 512 bytes lost none. */
#define PL_FUTEX_STACK_BYTES 512

/** Open the futex tracepoints for @pids (@npids; -1 alone = all tasks) on @cpus, disabled,
 *  with enable_on_exec when @on_exec and inherit when @inherit. Enters are sampled with
 *  their user callchain and @stack_bytes (a multiple of 8; 0 = none) of user stack with
 *  the registers, for the CFI unwind of the libc frames. Returns 0 or -errno: -ENOENT
 *  no tracefs or no sys_enter_futex/sys_exit_futex, -EACCES/-EPERM no permission. */
int pl_futex_open(struct pl_futex **out, const pid_t *pids, size_t npids, const int *cpus,
		  size_t ncpus, bool on_exec, bool inherit, uint32_t stack_bytes);
/** Enable / disable the events; disable also reads the kernel's counts (the drops no
 *  PERF_RECORD_LOST reported). */
void pl_futex_enable(struct pl_futex *f);
void pl_futex_disable(struct pl_futex *f);
/** Move the ring records into the log, interning each enter's stack in @p (which must
 *  hold the address spaces: drain the sampling rings first). Call often, and once after
 *  pl_futex_disable. */
void pl_futex_drain(struct pl_futex *f, struct pl_profile *p);
/** After the last drain: pair, sum and symbolise the call sites with @p, for a run of
 *  @wall_ns. Once. */
void pl_futex_finish(struct pl_futex *f, struct pl_profile *p, uint64_t wall_ns);
/** The result of pl_futex_finish. */
const struct pl_futex_result *pl_futex_result(const struct pl_futex *f);
/** Advice line for a -errno from pl_futex_open: what was refused and the fix. Static. */
const char *pl_futex_strerror(int err);
/** Close and free. NULL-safe. */
void pl_futex_close(struct pl_futex *f);

/** A call site: the waits of every stack whose first user frame outside libc,
 *  libpthread and ld.so is @name in @module. */
struct pl_futex_site {
	char *name;   /**< the function ("[unknown]" when it does not resolve), owned */
	char *module; /**< its module's basename, owned */
	struct pl_futex_stat st;
	size_t nstacks; /**< distinct stacks summed here */
	char **frames;	/**< the heaviest stack, leaf first, "func (module)", owned */
	size_t nframes;
};

/** The call sites of @r's stacks, symbolised with @p (the address space of each stack's
 *  first wait), into *@sites (malloc'd, *@n entries, sorted by total wait; free with
 *  pl_futex_sites_free). Names demangled unless p->no_demangle. */
void pl_futex_sites_build(const struct pl_futex_result *r, struct pl_profile *p,
			  struct pl_futex_site **sites, size_t *n);
/** Free @n sites and the array. */
void pl_futex_sites_free(struct pl_futex_site *sites, size_t n);
/** After pl_futex_finish: the call sites (*@n of them) and the run's wall time (ns). */
const struct pl_futex_site *pl_futex_sites(const struct pl_futex *f, size_t *n);
uint64_t pl_futex_wall_ns(const struct pl_futex *f);

/** Print the contention report (profile/futex_output.c): call sites like
 *  `perf lock contention` (contended, total, max and mean wait, retries, the site and its
 *  heaviest stack), the top lock addresses and threads (@top rows each), wakes, and the
 *  lost and dropped counts. */
void pl_futex_print(const struct pl_futex *f, FILE *out, int top);
/** The same as JSON ("locks" of docs/schemas/profile.schema.json). New reference. */
json_t *pl_futex_json(const struct pl_futex *f);

#endif
