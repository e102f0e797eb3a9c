/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values as sysfs and /proc/sys print them (facts/collectors.h): bracketed selection
 * lists ("[mq-deadline] none", THP's "always [madvise] never"), sysctl values (one
 * integer, a triple, text), kernel release strings; and pl_split, which the collectors
 * use to cut such values. Invariant: the active entry of a bracket list is one of all. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "fuzz.h"
#include "util/str.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return -1;
	char *s = fuzz_cstr(data, size);
	json_t *all = NULL;
	char *active = pl_parse_bracket_list(s, &all);
	FUZZ_ASSERT(json_is_array(all), "bracket list gives an array");
	if (active) {
		bool found = false;
		size_t i;
		json_t *e;
		json_array_foreach(all, i, e)
			found |= json_is_string(e) && strcmp(json_string_value(e), active) == 0;
		/* not UTF-8: left out of the array (known, see below) */
		json_t *probe = json_string(active);
		FUZZ_ASSERT(found || !probe, "the active entry is one of the entries");
		json_decref(probe);
	}
	free(active);
	json_decref(all);
	json_t *v = pl_sysctl_value_parse(s);
	/* Known (issue 12, "invalid UTF-8 ... turns into a missing value"): text that is not
	 * UTF-8 gives NULL (jansson refuses it) and the fact goes missing. Until that is
	 * escaped, only this class is let through, so the fuzzer looks past it. */
	json_t *probe = json_string(s);
	FUZZ_ASSERT(v != NULL || probe == NULL, "sysctl value never NULL");
	json_decref(probe);
	char *text = json_dumps(v, JSON_ENCODE_ANY);
	free(text);
	json_decref(v);
	uint32_t code;
	pl_kernel_version_code(s, &code);
	size_t n = 0;
	char **w = pl_split(s, " \t\n,", &n);
	for (size_t k = 0; k < n; k++)
		FUZZ_ASSERT(w[k] && *w[k], "pl_split gives no empty field");
	FUZZ_ASSERT(w[n] == NULL, "pl_split vector is NULL-terminated");
	pl_strv_free(w);
	free(s);
	return 0;
}
