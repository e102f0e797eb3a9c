/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The collector of the scheduler events of --off-cpu (profile/sched.h): the
 * sched:sched_switch, sched:sched_waking and sched:sched_migrate_task tracepoints opened
 * on every CPU of the session for all tasks (pid -1, as `perf sched record -a`: a
 * per-task event cannot see a thread's switch-in by another task), sched_switch with its
 * kernel and user callchain, sched_waking with the waker's kernel callchain, and
 * sched_migrate_task with an empty one, one mmap'd ring per CPU (the other events of that
 * CPU redirected into it),
 * and PERF_RECORD_FORK/EXIT/COMM from one event per CPU (task=1, comm=1).
 *
 * Two layers: the reader (struct pl_sched_reader) decodes ring records into a
 * struct pl_sched_log; it is pure over bytes, so the unit tests and the perf_decode fuzz
 * harness feed it synthetic records and formats. The collector (struct pl_sched_collect)
 * opens the events, drains their rings into a reader and, after the run, sorts the log:
 *
 *     struct pl_sched_collect *c;
 *     int r = pl_sched_open(&c, cpus, ncpus, &log, &prof);   // events open, disabled
 *     pl_sched_enable(c);                                    // log.t0
 *     ... pl_sched_drain(c) every 50 ms ...
 *     pl_sched_disable(c); pl_sched_drain(c);                // log.t1, counts read
 *     pl_sched_finish(c, seeds, nseeds, all);                // sorted, gaps, targets
 *     pl_sched_close(c);                                     // the log stays
 *
 * Field offsets and sizes come from the tracepoints' format files (tracefs.h): the
 * layout differs between kernels (prev_state is `long` on 6.x, `unsigned int` or `int` on
 * others), so nothing is assumed. Nothing here logs. */
#ifndef PERFLAB_PROFILE_SCHED_COLLECT_H
#define PERFLAB_PROFILE_SCHED_COLLECT_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "profile/sched.h"

/** What every scheduler event samples (the reader parses records with it). */
#define PL_SCHED_SAMPLE_TYPE                                                                       \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |           \
	 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)

/** Data pages per CPU ring by default: 8 MiB (2048 pages of 4 KiB). A pipe ping-pong
 *  between two threads makes about 10^5 to 10^6 events/s on one CPU at about 300 to 600
 *  bytes each (callchains of 10 to 40 frames): one 50 ms drain interval fits with room. */
#define PL_SCHED_RING_PAGES 2048u

/** One field of a raw record: byte offset and size (1, 2, 4 or 8). */
struct pl_sched_field {
	int off, size;
};

/** Where the fields are in the three tracepoints' raw records (events/sched/EV/format),
 *  and their ids (the raw record's common_type names the tracepoint). */
struct pl_sched_format {
	uint64_t id_switch, id_waking, id_migrate;
	struct pl_sched_field common_type; /**< of sched_switch (the same in all three) */
	struct pl_sched_field prev_comm, prev_pid, prev_state, next_pid;
	struct pl_sched_field wk_pid, wk_target_cpu;
	struct pl_sched_field wk_flags; /**< sched_waking's common_flags (the TRACE_FLAG_* bits
					 *   of include/linux/trace_events.h); off -1 when the
					 *   format lacks it (every waker is then a task) */
	struct pl_sched_field mg_pid, mg_dest_cpu;
};

/** Fill @f from the ids (@ids: switch, waking, migrate) and format texts (@fmt, same
 *  order; tracefs.h pl_tracefs_field finds each field). Returns 0, or -ENOENT when a field
 *  is missing or has a size other than 1, 2, 4 or 8 (prev_comm: any size). */
int pl_sched_format_parse(struct pl_sched_format *f, const uint64_t ids[3],
			  const char *const fmt[3]);

/** A field of @raw (@raw_size bytes) as an unsigned number (little endian host order,
 *  zero-extended). Returns false when it does not lie inside the record. */
bool pl_sched_raw_field(const uint8_t *raw, uint32_t raw_size, struct pl_sched_field f,
			uint64_t *v);

/** Per-ring state of the reader. */
struct pl_sched_ring_state {
	uint32_t cpu;	 /**< the CPU the ring belongs to */
	uint64_t last;	 /**< ns of the last event read from it, 0 = none yet */
	bool gap_open;	 /**< events were lost since @last: the next event closes it */
	uint64_t lost;	 /**< events lost as PERF_RECORD_LOST / LOST_SAMPLES said */
	uint64_t read;	 /**< samples decoded into the log */
	uint64_t fired;	 /**< the kernel's count of the ring's events (after disable) */
	bool have_fired; /**< @fired was read */
	uint64_t klost;	 /**< samples the kernel could not write (PERF_FORMAT_LOST) */
	bool have_klost; /**< @klost was read (Linux 6.0+); else fired - read counts */
};

/** A process created: @pid by @ppid at @time (from PERF_RECORD_FORK, pid != ppid). */
struct pl_sched_fork {
	uint32_t pid, ppid;
	uint64_t time;
};

/** Decodes ring records into @log. Zero-initialise with pl_sched_reader_init. */
struct pl_sched_reader {
	struct pl_sched_format fmt;
	struct pl_sched_log *log; /**< borrowed: where the events go */
	struct pl_profile *prof;  /**< borrowed: callchains interned (pid of the sample) and
				   *   thread names (COMM, prev_comm); NULL = no stacks */
	struct pl_sched_ring_state *rings; /**< @nrings (owned) */
	size_t nrings;
	size_t ring;		     /**< the ring being walked (set before each pl_ring_walk) */
	struct pl_sched_fork *forks; /**< processes created (owned) */
	size_t nforks, capforks;
	uint64_t bad; /**< samples that could not be decoded (short, unknown tracepoint) */
};

/** Set up @r for @nrings rings whose CPUs are @cpus, decoding with @fmt into @log
 *  (borrowed) and interning callchains into @prof (borrowed, may be NULL). */
void pl_sched_reader_init(struct pl_sched_reader *r, const struct pl_sched_format *fmt,
			  struct pl_sched_log *log, struct pl_profile *prof, const int *cpus,
			  size_t nrings);

/** Decode one record of ring r->ring (a pl_rec_cb; @ctx is the reader): a sample of one
 *  of the three tracepoints (its kind from the raw record's common_type) becomes one
 *  event of the log, with prev_state reduced by pl_task_state_of and the callchain
 *  (PERF_CONTEXT_* markers dropped, leaf first) interned for SWITCH and WAKING;
 *  FORK/EXIT become events; COMM names the thread in the profile; LOST and LOST_SAMPLES
 *  add to the ring's lost count and open a gap that the ring's next event closes.
 *  Always returns 0. */
int pl_sched_reader_record(void *ctx, const struct perf_event_header *rec);

/** After the last drain: count as lost, per ring, what the kernel dropped beyond what was
 *  reported (klost, else fired minus read; a drop is reported only by a record written
 *  after it, so the rest lies after the ring's last event: a gap from there to log->t1), close the
 * open gaps at log->t1 (a gap with no event before it starts at log->t0), sort the events by time
 *  (stable: ties keep ring order) and the gaps by CPU and time, and set log->lost and
 *  the targets: @all, else the processes @seeds (@nseeds) and every process descended
 *  from them through the FORK records (sorted, unique). */
void pl_sched_reader_finish(struct pl_sched_reader *r, const uint32_t *seeds, size_t nseeds,
			    bool all);

/** Free the reader's own arrays (not the log). NULL-safe. */
void pl_sched_reader_free(struct pl_sched_reader *r);

/** The open events and rings (opaque). */
struct pl_sched_collect;

/** Where an open failed, for pl_sched_strerror. */
enum pl_sched_stage {
	PL_SCHED_STAGE_TRACEFS, /**< the tracepoints' id/format files */
	PL_SCHED_STAGE_OPEN,	/**< perf_event_open */
	PL_SCHED_STAGE_MMAP,	/**< the ring's mmap */
};

/** Open the scheduler events on @cpus (@ncpus), disabled, into rings of @ring_pages data
 *  pages (a power of two; 0 = PL_SCHED_RING_PAGES; halved down to 16 pages while the
 *  mmap is refused for the locked-memory limit), decoding into @log (borrowed; zeroed
 *  here) and @prof (borrowed). Returns 0 and *@out, or -errno with *@stage saying
 *  where: -EACCES (tracefs not readable, or perf_event_open refused), -ENOENT (no
 *  tracefs or no such tracepoint), or the open's or mmap's errno. */
int pl_sched_open(struct pl_sched_collect **out, const int *cpus, size_t ncpus, uint32_t ring_pages,
		  struct pl_sched_log *log, struct pl_profile *prof, enum pl_sched_stage *stage);

/** Enable every event; log->t0 is the time just before (CLOCK_MONOTONIC ns). */
void pl_sched_enable(struct pl_sched_collect *c);

/** Disable every event, set log->t1 and read the kernel's counts (for lost events).
 *  Drain once more afterwards. */
void pl_sched_disable(struct pl_sched_collect *c);

/** Move every ring's records into the log. */
void pl_sched_drain(struct pl_sched_collect *c);

/** pl_sched_reader_finish on the collector's reader (after disable and the last drain). */
void pl_sched_finish(struct pl_sched_collect *c, const uint32_t *seeds, size_t nseeds, bool all);

/** Data bytes of each ring as mapped. */
uint64_t pl_sched_ring_bytes(const struct pl_sched_collect *c);

/** Close the events and unmap the rings; the log stays. NULL-safe. */
void pl_sched_close(struct pl_sched_collect *c);

/** One line (no trailing period) for --off-cpu's error: what was refused at @stage with
 *  @err (negative errno) and the fix (root; or CAP_PERFMON with a readable tracefs; or
 *  kernel.perf_event_paranoid=-1 for the raw tracepoint samples of every task). Static
 *  buffer. */
const char *pl_sched_strerror(int err, enum pl_sched_stage stage);

#endif
