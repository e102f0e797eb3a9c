/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report --from monitor.json's renderer (src/render/monitor.h) over any JSON document
 * that calls itself a monitor document: charts and summary written into the harness's
 * temporary directory. Invariants: it never crashes, and a document with samples gives
 * both files. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "render/monitor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 18)
		return -1;
	json_error_t je;
	json_t *d = json_loadb((const char *)data, size, 0, &je);
	if (!d)
		return 0;
	if (json_is_object(d) && json_is_array(json_object_get(d, "samples"))) {
		const char *path = "fuzz.json";
		char dir[512];
		snprintf(dir, sizeof(dir), "%s/view", fuzz_tmpdir());
		FUZZ_ASSERT(pl_monview_write(dir, &d, &path, 1, NULL, NULL) == 0,
			    "both files written");
		fuzz_remove("view/monitor.html");
		fuzz_remove("view/monitor.md");
	}
	json_decref(d);
	return 0;
}
