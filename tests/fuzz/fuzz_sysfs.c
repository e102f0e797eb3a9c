/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values as sysfs and /proc/sys print them (facts/collectors.h): bracketed selection
 * lists ("[mq-deadline] none", THP's "always [madvise] never"), sysctl values (one
 * integer, a triple, text), kernel release strings, kernel config text (CONFIG_HZ of
 * /proc/config.gz); and pl_split, which the collectors
 * use to cut such values. Invariant: the active entry of a bracket list is one of all. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

#include "facts/collectors.h"
#include "fuzz.h"
#include "util/json.h"
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
		/* the entries are JSON strings as pl_json_string makes them (\xNN for bytes
		 * that are not UTF-8) */
		bool found = false;
		size_t i;
		json_t *e, *want = pl_json_string(active);
		json_array_foreach(all, i, e) found |= json_equal(e, want);
		json_decref(want);
		FUZZ_ASSERT(found, "the active entry is one of the entries");
	}
	free(active);
	json_decref(all);
	json_t *v = pl_sysctl_value_parse(s);
	FUZZ_ASSERT(v != NULL, "sysctl value never NULL");
	char *text = json_dumps(v, JSON_ENCODE_ANY);
	free(text);
	json_decref(v);
	uint32_t code;
	pl_kernel_version_code(s, &code);
	int64_t hz = 0;
	int kr = pl_kconfig_int(s, "CONFIG_HZ", &hz);
	FUZZ_ASSERT(kr == 0 || kr == -ENOENT || kr == -EINVAL, "kconfig: 0, -ENOENT or -EINVAL");
	size_t n = 0;
	char **w = pl_split(s, " \t\n,", &n);
	for (size_t k = 0; k < n; k++)
		FUZZ_ASSERT(w[k] && *w[k], "pl_split gives no empty field");
	FUZZ_ASSERT(w[n] == NULL, "pl_split vector is NULL-terminated");
	pl_strv_free(w);
	free(s);
	return 0;
}
