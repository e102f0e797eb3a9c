/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The region markers' ring as perflab reads it after a run (util/markring.h): the target
 * program maps the whole ring read-write, so every byte of it (header, name table,
 * records, readings) is outside input. The fuzzer's bytes overwrite a counting ring of 64
 * records; invariants: the pairing stays within the ring perflab created (never the
 * header's geometry), instances index records that exist, and the bounds on open
 * instances and names hold. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util/markring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	struct perf_event_attr attrs[2];
	memset(attrs, 0, sizeof(attrs));
	attrs[0].type = PERF_TYPE_SOFTWARE;
	attrs[0].config = PERF_COUNT_SW_TASK_CLOCK;
	attrs[1].type = PERF_TYPE_SOFTWARE;
	attrs[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	struct pl_markring m;
	FUZZ_ASSERT(pl_markring_create(&m, 64, attrs, 2) == 0, "ring created");
	memcpy(m.hdr, data, size < m.map_len ? size : m.map_len);
	FUZZ_ASSERT(pl_markring_collect(&m, UINT64_MAX / 2) == 0, "collected");
	FUZZ_ASSERT(m.nrecords <= 64, "no more records than the ring holds");
	FUZZ_ASSERT(m.nnames <= PL_MARKRING_MAX_NAMES, "names bounded");
	for (size_t i = 0; i < m.nwins; i++) {
		const struct pl_region_win *w = &m.wins[i];
		FUZZ_ASSERT(w->name < m.nnames, "an instance names a known region");
		FUZZ_ASSERT(w->rb < m.nrecords, "a begin is a record read");
		FUZZ_ASSERT(w->re == PL_MARKRING_NONE || w->re < m.nrecords, "an end too");
		const uint64_t *rd = pl_markring_reading(&m, w->rb);
		FUZZ_ASSERT(rd != NULL, "a counting ring has a reading slot per record");
	}
	for (size_t i = 0; i < m.nnames; i++)
		FUZZ_ASSERT(pl_markring_find(&m, m.names[i]) >= 0, "a name is found");
	pl_markring_free(&m);
	unsetenv(PL_MARK_ENV);
	return 0;
}
