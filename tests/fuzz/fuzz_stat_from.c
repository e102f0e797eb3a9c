/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab stat --from FILE`: perf stat -j or -x, output (counters/from.h) read into a
 * reading, then every metric of the table evaluated over it. The input is the file's
 * bytes. Invariants: a refused file is explained in one line; an accepted one has at
 * least one reading, each pointing at one of its events, with a finite non-negative
 * value; every metric gives a finite value or says which event is missing or why it
 * has none. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/from.h"
#include "counters/metric.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	const char *path = fuzz_write("stat.txt", data, size);
	struct pl_cnt_result r = { 0 };
	struct pl_cnt_event *evs = NULL;
	size_t nevs = 0;
	char err[512] = "";
	int rc = pl_cnt_from_file(path, &r, &evs, &nevs, err, sizeof(err));
	if (rc != 0) {
		FUZZ_ASSERT(rc == -EINVAL, "a malformed file is -EINVAL");
		FUZZ_ASSERT(err[0] && !strchr(err, '\n'),
			    "a refused file is explained in one line");
		return 0;
	}
	FUZZ_ASSERT(r.n > 0 && nevs > 0, "an accepted file has readings");
	for (size_t i = 0; i < r.n; i++) {
		const struct pl_cnt_value *v = &r.v[i];
		FUZZ_ASSERT(v->ev >= evs && v->ev < evs + nevs, "a reading points at its event");
		FUZZ_ASSERT(isfinite(v->value) && v->value >= 0, "a value is finite, not negative");
		FUZZ_ASSERT(!v->counted || v->supported, "counted implies supported");
		FUZZ_ASSERT(memchr(v->ev->name, '\0', sizeof(v->ev->name)), "names are terminated");
	}
	size_t n;
	const struct pl_metric *t = pl_metric_table(&n);
	for (size_t i = 0; i < n; i++) {
		double val = NAN;
		char missing[128] = "";
		int mrc = pl_metric_eval(&t[i], &r, &val, missing, sizeof(missing));
		if (mrc == 0)
			FUZZ_ASSERT(isfinite(val), "a metric's value is finite");
		else
			FUZZ_ASSERT((mrc == -ENOENT || mrc == -EDOM) && missing[0],
				    "a metric without a value says why");
	}
	free(r.v);
	free(evs);
	return 0;
}
