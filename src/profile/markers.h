/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profiler's side of the region markers (include/perflab/mark.h): create the
 * shared-memory ring (a memfd inherited by the target, its number in $PERFLAB_MARKS),
 * read the records after the run, and turn begin/end pairs into per-thread time windows
 * that filter samples. */
#ifndef PERFLAB_PROFILE_MARKERS_H
#define PERFLAB_PROFILE_MARKERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perflab/mark.h"

/** One closed region instance: thread @tid was inside region @name in [begin, end). */
struct pl_region_win {
	uint32_t tid;
	uint32_t name;	     /**< index into pl_markers.names */
	uint64_t begin, end; /**< CLOCK_MONOTONIC ns */
};

/** Markers of a run. */
struct pl_markers {
	int fd; /**< memfd, -1 when not created */
	struct pl_mark_hdr *hdr;
	size_t map_len;
	char **names;  /**< distinct region/mark names (owned) */
	uint32_t *ids; /**< their ids, parallel */
	size_t nnames;
	struct pl_region_win *wins; /**< sorted by (tid, begin) */
	size_t nwins;
	uint64_t npoints;  /**< pl_mark() events */
	uint64_t nrecords; /**< records read */
	uint64_t dropped;  /**< records overwritten before they were read */
	uint64_t unpaired; /**< begin without end (closed at run end) or end without begin */
};

/** Create the ring of @nrecs records (power of two) as a memfd without CLOEXEC and set
 *  $PERFLAB_MARKS in this process' environment (inherited by the exec'd target).
 *  Returns 0 or -errno. */
int pl_markers_create(struct pl_markers *m, uint32_t nrecs);
/** Read the records and build the windows; regions still open close at @end_ns.
 *  Returns 0 or -EINVAL (ring corrupt). */
int pl_markers_collect(struct pl_markers *m, uint64_t end_ns);
/** Index of region @name in m->names, or -1. */
int pl_markers_find(const struct pl_markers *m, const char *name);
/** True when thread @tid is inside an instance of region @name_idx at @t. */
bool pl_markers_inside(const struct pl_markers *m, int name_idx, uint32_t tid, uint64_t t);
/** Unmap, close, free. NULL-safe. */
void pl_markers_free(struct pl_markers *m);

#endif
