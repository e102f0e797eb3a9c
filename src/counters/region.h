/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Counts per marker region (`perflab stat --region NAME`), as likwid-perfctr's marker API
 * gives them: the program's own threads read their counters at every pl_region_begin()
 * and pl_region_end() (lib/mark.c, include/perflab/mark.h), and the counts of a region
 * are the sums over its instances of (end reading - begin reading).
 *
 *   struct pl_cnt_region_ring rr;
 *   pl_cnt_region_create(&rr, events, nevents, 0);   before the command is started
 *   ... fork, exec the command (it inherits the ring, $PERFLAB_MARKS), wait ...
 *   struct pl_cnt_regions rs;
 *   pl_cnt_region_collect(&rr, &rs);                 rs.status, rs.why; per region rs.r[i]
 *   pl_cnt_regions_free(&rs); pl_cnt_region_ring_free(&rr);
 */
#ifndef PL_COUNTERS_REGION_H
#define PL_COUNTERS_REGION_H
#include <stddef.h>
#include <stdint.h>

#include "counters/counters.h"
#include "util/markring.h"

/** Records in a counting ring unless the caller says: 2^18 (with 3 events 22 MiB of
 *  shared memory; begins and ends beyond that before the run ends are dropped). */
#define PL_CNT_REGION_NRECS (1u << 18)

/** A counting ring and the events it was made for. @ev is borrowed (it must outlive the
 *  results, whose values point into it); @slot[i] is event i's place in the ring's group,
 *  or -1 for an event a region cannot count (not a perf_event_open event, or one counted
 *  per package: those are system-wide). */
struct pl_cnt_region_ring {
	struct pl_markring ring;
	const struct pl_cnt_event *ev;
	size_t nev;
	int *slot;
};

/** What the run's markers allow, worst first. */
enum pl_cnt_region_status {
	PL_CNT_REGION_OK = 0,	       /**< readings at begins and ends */
	PL_CNT_REGION_NO_MARKERS = 1,  /**< no begin or end at all */
	PL_CNT_REGION_TOO_OLD = 2,     /**< a library without counting (version 1) wrote them */
	PL_CNT_REGION_OPEN_FAILED = 3, /**< a thread could not open the events */
};

/** One region name over the run. @instances counts its begin/end pairs (per thread, an
 *  end closing the latest open begin of the name, nested instances each counted), @threads
 *  the distinct threads that ran them, @total_ns their summed duration (CLOCK_MONOTONIC).
 *  @unpaired counts begins without an end and ends without a begin (neither is in the
 *  sums: a count is never guessed). @unread counts pairs whose two readings were not both
 *  there (a version 1 library, a group that could not be opened or read); @counted_pairs
 *  = @instances - @unread. @res has one value per event of the ring (in the caller's
 *  order, ev pointing at the caller's array): raw = sum over counted pairs of the
 *  difference, enabled_ns / running_ns the group's summed differences, value scaled as
 *  counters.h says; supported false with @why when no pair could be counted, and a note
 *  in @why when only some were. An instance's counts include part of its own two reads
 *  (the end of the begin's read() and the start of the end's: about one read() of
 *  task-clock, 2 us on a KVM guest, include/perflab/mark.h). */
struct pl_cnt_region {
	char name[PL_MARK_NAME_MAX];
	uint64_t instances, threads, total_ns;
	uint64_t unpaired, unread, counted_pairs;
	struct pl_cnt_result res;
};

/** The regions of a run, in the order their names first appeared. @status and @why (one
 *  line, empty when OK) say what the run's markers allow; @dropped counts records
 *  overwritten before they were read (a ring too small for the run). Owned; free with
 *  pl_cnt_regions_free(). */
struct pl_cnt_regions {
	struct pl_cnt_region *r;
	size_t n;
	enum pl_cnt_region_status status;
	char why[256];
	uint64_t dropped;
};

/** Create a counting ring of @nrecs records (a power of two; 0 for PL_CNT_REGION_NRECS)
 *  for @ev[0..@nev) and put its descriptor into $PERFLAB_MARKS of this process (a command
 *  started afterwards inherits both). The events a region can count go into one group
 *  in their order, the first leading. Returns 0, -EINVAL when no event can be counted in
 *  a region or @nrecs is not a power of two, -E2BIG for more than PL_MARK_COUNTERS_MAX
 *  countable events, or -errno of the memfd. */
int pl_cnt_region_create(struct pl_cnt_region_ring *rr, const struct pl_cnt_event *ev, size_t nev,
			 uint32_t nrecs);

/** After the command has ended: read the ring and fill @out (zeroed first). Returns 0;
 *  what the markers allow is @out->status, never an error. */
int pl_cnt_region_collect(struct pl_cnt_region_ring *rr, struct pl_cnt_regions *out);

/** The region named @name in @rs, or NULL. */
const struct pl_cnt_region *pl_cnt_regions_find(const struct pl_cnt_regions *rs, const char *name);

/** Release @rs (NULL-safe) and zero it. */
void pl_cnt_regions_free(struct pl_cnt_regions *rs);

/** Unmap and close the ring, unset $PERFLAB_MARKS. NULL-safe. */
void pl_cnt_region_ring_free(struct pl_cnt_region_ring *rr);

#endif
