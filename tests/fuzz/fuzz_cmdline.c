/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel command line (/proc/cmdline, facts/collectors.h pl_cmdline_parse): words,
 * name=value, double quotes. Invariant: an object whose values are strings or true. */
#include <jansson.h>
#include <stdlib.h>

#include "bench/ticks.h"
#include "facts/collectors.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return -1;
	char *s = fuzz_cstr(data, size);
	json_t *o = pl_cmdline_parse(s);
	FUZZ_ASSERT(json_is_object(o), "cmdline gives an object");
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v)
	{
		FUZZ_ASSERT(json_is_string(v) || json_is_true(v), "values are strings or true");
		struct pl_cpuset set;
		pl_isolation_cpus(json_is_true(v) ? "all" : json_string_value(v), 16, &set);
	}
	char *text = json_dumps(o, 0);
	free(text);
	json_decref(o);
	free(s);
	return 0;
}
