/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one clock perflab measures with. */
#ifndef PERFLAB_UTIL_CLOCK_H
#define PERFLAB_UTIL_CLOCK_H
#include <stdint.h>
#include <time.h>

/** CLOCK_MONOTONIC now, in ns: every measured interval (never gettimeofday); also the
 *  clock perf_event_open sessions stamp samples with (use_clockid) and markers use. */
static inline uint64_t pl_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
