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
 * after the first call. Regions nest and may be entered by several threads at once (they pair per
 * thread). Cost: under 100 ns per call under the profiler (vDSO clock_gettime + an atomic add),
 * under 5 ns without (benchmarks/profile-marks.sh). */
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
/** Magic at the start of the ring: "PLMARKS1". */
#define PL_MARK_MAGIC 0x31534b52414d4c50ull
/** Distinct names per run (slots of the name table; open addressing by name hash). */
#define PL_MARK_NAMES 256
/** Bytes per name slot including the NUL. */
#define PL_MARK_NAME_MAX 56

/** Record kinds. */
enum pl_mark_kind { PL_MARK_BEGIN = 1, PL_MARK_END = 2, PL_MARK_POINT = 3 };

/** Ring header, at offset 0 of the shared memory. */
struct pl_mark_hdr {
	uint64_t magic;	  /**< PL_MARK_MAGIC */
	uint32_t version; /**< 1 */
	uint32_t nrecs;	  /**< ring capacity in records, a power of two */
	uint64_t head;	  /**< records ever reserved (atomic fetch-add); slot = head % nrecs */
	uint64_t reserved[5];
};
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
