/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SMBIOS structure tables (/sys/firmware/dmi/tables/DMI) through pl_smbios_dimms() and
 * the channel heuristic (facts/collectors.h). Invariants: every read stays inside the
 * buffer (ASan), a result has at most one DIMM per 4 input bytes, sizes fit 2^31 MB. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	/* an exact-size heap copy, so ASan sees a read one byte past the table */
	uint8_t *buf = malloc(size ? size : 1);
	if (size)
		memcpy(buf, data, size);
	struct pl_dimm *d = NULL;
	size_t n = 0;
	int r = pl_smbios_dimms(buf, size, &d, &n);
	FUZZ_ASSERT(r == 0 || r == -EINVAL, "0 or -EINVAL");
	FUZZ_ASSERT(n <= size / 4, "at most one structure per 4 bytes");
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(d[i].type != NULL, "a type name");
		FUZZ_ASSERT(d[i].size_bytes <= (uint64_t)0x7fffffff << 20, "size bounded");
		FUZZ_ASSERT(d[i].rank <= 15, "rank is 4 bits");
		free(pl_dimm_channel(&d[i]));
	}
	pl_dimms_free(d, n);
	free(buf);
	return 0;
}
