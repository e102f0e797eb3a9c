/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/clock.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "util/str.h"

long long pl_now_epoch(void)
{
	const char *s = getenv("PERFLAB_TIMESTAMP");
	int64_t v;
	if (s && pl_parse_i64(s, &v) == 0)
		return v;
	return (long long)time(NULL);
}

char *pl_iso8601(long long epoch, char *buf, size_t len)
{
	time_t t = (time_t)epoch;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}
