/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one clock perflab measures with. */
#ifndef PERFLAB_UTIL_CLOCK_H
#define PERFLAB_UTIL_CLOCK_H
#include <stddef.h>
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

/** Unix time used for reports: $PERFLAB_TIMESTAMP (seconds since the epoch, for golden
 *  tests) or the current time. */
long long pl_now_epoch(void);
/** ISO 8601 UTC string of @epoch into @buf ("2026-11-30T14:19:27Z"). */
char *pl_iso8601(long long epoch, char *buf, size_t len);

#endif
