/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel log text (/dev/kmsg records, syslog(2) / dmesg lines) through pl_kmsg_parse()
 * (facts/collectors.h). Invariants: no event is counted more often than there are
 * records, times are -1 or non-negative, each last message is NUL-terminated. */
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	char *s = fuzz_cstr(data, size);
	struct pl_kmsg_stats st;
	pl_kmsg_parse(s, &st);
	for (int e = 0; e < PL_KMSG_NEVENTS; e++) {
		FUZZ_ASSERT(st.ev[e].count <= st.records, "events <= records");
		FUZZ_ASSERT(st.ev[e].last_s == -1 || st.ev[e].last_s >= 0, "time -1 or >= 0");
		FUZZ_ASSERT(memchr(st.ev[e].last, 0, sizeof(st.ev[e].last)) != NULL,
			    "last message terminated");
	}
	free(s);
	return 0;
}
