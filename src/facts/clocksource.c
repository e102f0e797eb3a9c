/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocksource.*: Documentation/admin-guide/clocksource.rst (sysfs interface). */
#include <stdlib.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0"

void pl_collect_clocksource(struct pl_facts *f)
{
	pl_fact_from_file_str(f, "clocksource.current", CS_DIR "/current_clocksource");
	char *s;
	int r = pl_read_str(CS_DIR "/available_clocksource", &s);
	if (r < 0) {
		pl_fact_unavailable(f, "clocksource.available", "%s: %s",
				    CS_DIR "/available_clocksource", pl_read_strerror(r));
		return;
	}
	json_t *arr = json_array();
	char **v = pl_split(s, " \t", NULL);
	for (char **p = v; *p; p++)
		json_array_append_new(arr, pl_json_string(*p));
	pl_strv_free(v);
	free(s);
	pl_fact_set(f, "clocksource.available", arr, CS_DIR "/available_clocksource");
}
