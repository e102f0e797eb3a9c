/* SPDX-License-Identifier: MIT */
/* perflab region markers: tell `perflab profile` where the interesting parts of a program
 * are. Link with libperflab-mark (pkg-config perflab-mark). MIT licensed so any program
 * can use it.
 *
 *   pl_region_begin("inner loop");
 *   ... work ...
 *   pl_region_end("inner loop");
 *   pl_mark("checkpoint");
 *
 * Under `perflab profile`, each call appends {CLOCK_MONOTONIC ns, tid, id, kind} to a
 * shared-memory ring whose file descriptor the profiler passes in the environment
 * variable PERFLAB_MARKS; the profiler's samples use the same clock, so regions are time
 * windows over the samples (`perflab profile --region NAME`). Without the profiler each
 * call is a cheap no-op (one predictable branch after the first call).
 *
 * Names: any NUL-terminated string that stays unchanged at its address (string literals
 * are ideal: the name's id is cached per address and thread); at most PL_MARK_NAME_MAX - 1
 * bytes are kept, at most PL_MARK_NAMES distinct names per run. Thread-safe and async-signal-safe
 * after the first call (when counting, after the thread's first begin or end, which opens its
 * group; a marker in a signal handler that interrupts that open stores no counts). errno is
 * left as the caller had it. Regions nest and may be entered by several threads at once
 * (they pair per thread). Cost: under 100 ns per call under the profiler (vDSO clock_gettime + an
 * atomic add), under 5 ns without (benchmarks/profile-marks.sh).
 *
 * Counting (`perflab stat --region NAME`): when the ring carries counters (version 2,
 * ncounters > 0), each thread opens its own group of those events at its first marker
 * (perf_event_open(attr, pid 0, cpu -1), the first event the group leader, read_format
 * GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING), and every begin and end stores one
 * read() of the group beside its record, as likwid-perfctr's marker API reads the counters
 * in the program's own thread at LIKWID_MARKER_START and _STOP. The counts are the calling
 * thread's own (not those of threads it starts). A child after fork() opens its own group at
 * its next marker; a thread's group is closed when the thread exits. Cost per begin or end:
 * one read() system call, 2.2 us of CPU with one software event and 2.4 us with three on a KVM
 * guest (2 vCPUs, kernel 6.18, under load: markers without counting took 114 ns in the same runs;
 * benchmarks/region-marks.sh), so a region should hold well over 10 us of work; point marks
 * (pl_mark) read nothing. */
#ifndef PERFLAB_MARK_H
#define PERFLAB_MARK_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Start region @name in the calling thread. */
void pl_region_begin(const char *name);
/** End region @name in the calling thread (pairs with the last open begin of @name). */
void pl_region_end(const char *name);
/** Record a point event @name. */
void pl_mark(const char *name);
/** True when a profiler is collecting the markers (the ring is attached). */
int pl_mark_active(void);

/* ---- Shared-memory layout (the ABI between this library and perflab) ---- */

/** Environment variable holding the decimal file descriptor of the ring. */
#define PL_MARK_ENV "PERFLAB_MARKS"
/** Magic at the start of the ring: "PLMARKS1" (every version; @version tells them apart). */
#define PL_MARK_MAGIC 0x31534b52414d4c50ull
/** Distinct names per run (slots of the name table; open addressing by name hash). */
#define PL_MARK_NAMES 256
/** Bytes per name slot including the NUL. */
#define PL_MARK_NAME_MAX 56

/** Record kinds. */
enum pl_mark_kind { PL_MARK_BEGIN = 1, PL_MARK_END = 2, PL_MARK_POINT = 3 };

/** Ring header, at offset 0 of the shared memory. Version 1 rings (and version 1
 *  libraries) know only @magic, @version, @nrecs and @head; the fields after @head were
 *  reserved (zero) there and carry the counting extension of version 2:
 *
 *    offset 0            struct pl_mark_hdr
 *    sizeof(hdr)         struct pl_mark_name[PL_MARK_NAMES]
 *    then                struct pl_mark_rec[nrecs]          (PL_MARK_SIZE(nrecs) ends here)
 *    @attr_off           ncounters attrs, @attr_stride bytes apart: struct perf_event_attr
 *                        with its size field set (the first is the group leader)
 *    @cnt_off            nrecs readings, @cnt_stride bytes apart: struct pl_mark_cnt, slot i
 *                        beside record slot i
 *
 *  Both offsets are multiples of 8 and lie within the shared memory. A library that
 *  attaches to a ring with counters sets PL_MARK_F_COUNTING in @flags; one that cannot
 *  open a thread's group sets PL_MARK_F_OPEN_FAILED and, first time only, @open_errno and
 *  @open_failed (the index of the event the kernel refused). A version 1 library sets
 *  neither and stores no readings, which is how perflab tells that it is too old to count. */
struct pl_mark_hdr {
	uint64_t magic;	      /**< PL_MARK_MAGIC */
	uint32_t version;     /**< 1 (markers only) or 2 (markers and counters) */
	uint32_t nrecs;	      /**< ring capacity in records, a power of two */
	uint64_t head;	      /**< records ever reserved (atomic fetch-add); slot = head % nrecs */
	uint32_t ncounters;   /**< events per reading, 0..PL_MARK_COUNTERS_MAX (0: no counting) */
	uint32_t flags;	      /**< PL_MARK_F_*, set by libraries (atomic or) */
	uint64_t attr_off;    /**< byte offset of the event attributes */
	uint32_t attr_stride; /**< bytes per attribute slot, 64..PL_MARK_ATTR_STRIDE_MAX */
	int32_t open_errno;   /**< errno of the first refused group open (0: none) */
	uint64_t cnt_off;     /**< byte offset of the readings */
	uint32_t cnt_stride;  /**< bytes per reading, >= PL_MARK_CNT_SIZE(ncounters) */
	uint32_t open_failed; /**< index of the event refused at @open_errno */
};
/** Most events in one counting ring (one group per thread). */
#define PL_MARK_COUNTERS_MAX 16
/** Largest attribute slot a library reads. */
#define PL_MARK_ATTR_STRIDE_MAX 256
/** @flags: a library able to count attached to this ring. */
#define PL_MARK_F_COUNTING 1u
/** @flags: some thread could not open its group (its records carry the errno). */
#define PL_MARK_F_OPEN_FAILED 2u
/** One reading, beside the record of the same slot. It belongs to that record only when
 *  @seq equals the record's seq (written before it); anything else means no reading (a
 *  version 1 library, a point mark, or a slot overwritten). @status is 0 when the reading
 *  holds the group's counts, else the errno why not (the group could not be opened or
 *  read). @enabled_ns and @running_ns are the group's times (PERF_FORMAT_TOTAL_TIME_*);
 *  they and the uint64_t counts that follow the struct (ncounters of them, event i at index i)
 *  are as read() returned them: running totals since the group was opened. */
struct pl_mark_cnt {
	uint64_t seq;
	uint32_t status;
	uint32_t pad;
	uint64_t enabled_ns, running_ns;
};
/** Bytes of one reading of @n events. */
#define PL_MARK_CNT_SIZE(n) (sizeof(struct pl_mark_cnt) + (uint64_t)(n) * sizeof(uint64_t))
/** One name: @id is the 32-bit FNV-1a hash of the name (0 = empty slot). */
struct pl_mark_name {
	uint32_t id;
	uint32_t ready; /**< 1 once @name is written */
	char name[PL_MARK_NAME_MAX];
};
/** One record. @seq is written last (release) as reservation index + 1, so a reader
 *  can tell a complete record from one being written or overwritten. */
struct pl_mark_rec {
	uint64_t ns;   /**< CLOCK_MONOTONIC, ns */
	uint32_t tid;  /**< gettid() */
	uint32_t id;   /**< name id */
	uint32_t kind; /**< enum pl_mark_kind */
	uint32_t pad;
	uint64_t seq; /**< reservation index + 1 */
};
/** Total size in bytes of a ring of @nrecs records: header, name table, records. */
#define PL_MARK_SIZE(nrecs)                                                                        \
	(sizeof(struct pl_mark_hdr) + PL_MARK_NAMES * sizeof(struct pl_mark_name) +                \
	 (uint64_t)(nrecs) * sizeof(struct pl_mark_rec))

#ifdef __cplusplus
}
#endif
#endif
