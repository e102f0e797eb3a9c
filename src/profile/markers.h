/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profiler's use of the region markers (include/perflab/mark.h): the ring and its
 * region instances come from src/util/markring.h; here a sample is tested against the
 * instances' per-thread time windows. */
#ifndef PERFLAB_PROFILE_MARKERS_H
#define PERFLAB_PROFILE_MARKERS_H
#include <stdbool.h>
#include <stdint.h>

#include "util/markring.h"

/** True when thread @tid is inside an instance of region @name_idx (an index into
 *  m->names, pl_markring_find) at @t (CLOCK_MONOTONIC ns), after pl_markring_collect(). */
bool pl_markers_inside(const struct pl_markring *m, int name_idx, uint32_t tid, uint64_t t);

#endif
