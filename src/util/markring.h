/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab's side of the region markers' shared-memory ring (include/perflab/mark.h):
 * create the ring (a memfd the target inherits, its number in $PERFLAB_MARKS), with or
 * without counters for the library to read at every begin and end, and after the run read
 * the records and their readings and pair begins with ends per thread into region
 * instances. `perflab profile` filters samples by those instances' time windows
 * (src/profile/markers.c); `perflab stat --region` sums the counts between each instance's
 * two readings (src/counters/region.c). */
#ifndef PERFLAB_UTIL_MARKRING_H
#define PERFLAB_UTIL_MARKRING_H
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "perflab/mark.h"

/** pl_region_win.re of an instance still open when the run ended, and
 *  pl_markring.rstat of a record without a reading. */
#define PL_MARKRING_NONE ((size_t)-1)
#define PL_MARKRING_NOREAD UINT32_MAX

/** One region instance: thread @tid was inside region @name in [begin, end). @rb and @re
 *  index the begin's and the end's readings (pl_markring.rstat, .rvals); @re is
 *  PL_MARKRING_NONE when no end came and @end is the run's end. */
struct pl_region_win {
	uint32_t tid;
	uint32_t name;	     /**< index into pl_markring.names */
	uint64_t begin, end; /**< CLOCK_MONOTONIC ns */
	size_t rb, re;
};

/** A ring and, after pl_markring_collect(), what it held. */
struct pl_markring {
	int fd; /**< memfd, -1 when not created */
	struct pl_mark_hdr *hdr;
	size_t map_len;
	uint32_t ncounters; /**< events per reading; 0 for a ring without counters */
	/** The ring's geometry as created: the target can write the whole shared mapping,
	 *  header included, so the reader never takes these from it. */
	uint32_t nrecs;
	uint32_t cnt_stride;
	uint64_t cnt_off;
	char **names;	   /**< distinct region/mark names (owned) */
	uint32_t *ids;	   /**< their ids, parallel */
	uint64_t *orphans; /**< per name, parallel: ends without an open begin */
	size_t nnames;
	struct pl_region_win *wins; /**< sorted by (tid, begin) */
	size_t nwins;
	/** Per record read (ncounters > 0 only, else NULL): 0 when it has a reading of the
	 *  group, the errno the library stored when it could not read it, or
	 *  PL_MARKRING_NOREAD when no reading belongs to it (a version 1 library, a point
	 *  mark). Owned. */
	uint32_t *rstat;
	/** Per record 2 + ncounters words: time enabled (ns), time running (ns), the raw
	 *  counts in the order of the attributes given to pl_markring_create(). Owned. */
	uint64_t *rvals;
	uint64_t npoints;  /**< pl_mark() events */
	uint64_t nrecords; /**< records read */
	uint64_t dropped;  /**< records overwritten before they were read */
	uint64_t unpaired; /**< begin without end (closed at run end) or end without begin */
};

/** Create the ring of @nrecs records (a power of two) as a memfd without CLOEXEC and set
 *  $PERFLAB_MARKS in this process' environment (inherited by the exec'd target). With
 *  @nattrs > 0 (at most PL_MARK_COUNTERS_MAX) it is a version 2 ring carrying @attrs (each
 *  copied with its size set; the library sets read_format, disabled, inherit and
 *  enable_on_exec itself), else a version 1 ring, as `perflab profile` has always made.
 *  Returns 0 or -errno (-EINVAL for a bad @nrecs, -E2BIG for too many attributes). */
int pl_markring_create(struct pl_markring *m, uint32_t nrecs, const struct perf_event_attr *attrs,
		       size_t nattrs);
/** At most this many region instances open at once (all threads together) and this many
 *  distinct names are kept by pl_markring_collect(): the ring is written by the target,
 *  so a hostile or broken one must not make the pairing quadratic. A begin beyond the
 *  first bound counts as unpaired; ids beyond the second share the name "#other". */
#define PL_MARKRING_MAX_OPEN 4096
#define PL_MARKRING_MAX_NAMES 1024

/** Read the records (and readings) and pair them per thread: an end closes the latest
 *  open begin of its name in its thread; regions still open close at @end_ns (with
 *  re = PL_MARKRING_NONE). Reads only what the ring's records and name table hold, within
 *  the geometry perflab created (never the header's copy of it). Returns 0. */
int pl_markring_collect(struct pl_markring *m, uint64_t end_ns);
/** Index of region @name in m->names, or -1. */
int pl_markring_find(const struct pl_markring *m, const char *name);
/** The reading of record @k (pl_region_win.rb or .re): NULL when the ring has no counters
 *  or @k is PL_MARKRING_NONE, else 2 + ncounters words (see rvals); check rstat[k] first. */
const uint64_t *pl_markring_reading(const struct pl_markring *m, size_t k);
/** Unmap, close, free. NULL-safe. */
void pl_markring_free(struct pl_markring *m);

#endif
