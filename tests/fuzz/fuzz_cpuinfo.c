/* SPDX-License-Identifier: GPL-3.0-or-later */
/* /proc/cpuinfo (x86 and arm64 formats, facts/collectors.h pl_cpuinfo_parse).
 * Invariant: a parse that succeeds saw at least one processor; flags are non-empty. */
#include <stdlib.h>

#include "facts/collectors.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	char *s = fuzz_cstr(data, size);
	struct pl_cpuinfo ci;
	if (pl_cpuinfo_parse(s, &ci) == 0) {
		FUZZ_ASSERT(ci.nprocessors >= 1, "a processor entry");
		for (char **f = ci.flags; f && *f; f++) {
			FUZZ_ASSERT(**f, "no empty flag");
			FUZZ_ASSERT(pl_cpuinfo_has_flag(&ci, *f), "has_flag finds every flag");
		}
	}
	pl_cpuinfo_free(&ci);
	free(s);
	return 0;
}
