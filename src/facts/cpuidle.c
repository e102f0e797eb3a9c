/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuidle.*: the idle driver and governor and the C-states with their exit latencies
 * (Documentation/admin-guide/pm/cpuidle.rst "Representation of Idle States"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

#define IDLE_DIR "/sys/devices/system/cpu/cpuidle"

static uint64_t state_num(const char *name)
{
	uint64_t n = 0;
	pl_parse_u64(name + 5, &n); /* validated before sorting */
	return n;
}

static int cmp_state(const void *a, const void *b)
{
	/* "state10" after "state9": compare the numbers */
	uint64_t x = state_num(*(char *const *)a), y = state_num(*(char *const *)b);
	return x < y ? -1 : x > y;
}

int pl_cpuidle_read_states(unsigned cpu, struct pl_idle_state **out)
{
	char dir[96];
	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%u/cpuidle", cpu);
	char **names;
	size_t n;
	int r = pl_list_dir(dir, &names, &n);
	if (r < 0)
		return r;
	/* keep only stateN entries (N all digits) so cmp_state sees numbers */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t num;
		if (pl_startswith(names[i], "state") && pl_parse_u64(names[i] + 5, &num) == 0)
			names[k++] = names[i];
		else
			free(names[i]);
	}
	names[k] = NULL;
	qsort(names, k, sizeof(*names), cmp_state);
	struct pl_idle_state *v = pl_xcalloc(k ? k : 1, sizeof(*v));
	for (size_t i = 0; i < k; i++) {
		char *s;
		int64_t x;
		if (pl_read_strf(&s, "%s/%s/name", dir, names[i]) == 0)
			v[i].name = s;
		else
			v[i].name = pl_xstrdup(names[i]);
		char p[160];
		snprintf(p, sizeof(p), "%s/%s/latency", dir, names[i]);
		v[i].latency_us = pl_read_i64(p, &x) == 0 ? x : -1;
		snprintf(p, sizeof(p), "%s/%s/residency", dir, names[i]);
		v[i].residency_us = pl_read_i64(p, &x) == 0 ? x : -1;
		snprintf(p, sizeof(p), "%s/%s/disable", dir, names[i]);
		v[i].disabled = pl_read_i64(p, &x) == 0 && x != 0;
	}
	pl_strv_free(names);
	*out = v;
	return (int)k;
}

void pl_collect_cpuidle(struct pl_facts *f)
{
	char *drv = NULL;
	int r = pl_read_str(IDLE_DIR "/current_driver", &drv);
	if (r < 0)
		pl_fact_unavailable(f, "cpuidle.driver", IDLE_DIR "/current_driver: %s",
				    pl_read_strerror(r));
	else
		pl_fact_str(f, "cpuidle.driver", drv, IDLE_DIR "/current_driver");
	/* current_governor_ro is the read-only file older kernels (< 5.x) have; newer ones
	 * have current_governor (writable) and keep _ro too. */
	if (pl_exists(IDLE_DIR "/current_governor"))
		pl_fact_from_file_str(f, "cpuidle.governor", IDLE_DIR "/current_governor");
	else
		pl_fact_from_file_str(f, "cpuidle.governor", IDLE_DIR "/current_governor_ro");

	struct pl_idle_state *st = NULL;
	int n = pl_cpuidle_read_states(0, &st);
	if (n < 0) {
		pl_fact_unavailable(f, "cpuidle.states",
				    "/sys/devices/system/cpu/cpu0/cpuidle: %s%s",
				    pl_read_strerror(n),
				    drv && strcmp(drv, "none") == 0 ? " (no cpuidle driver)" : "");
	} else {
		json_t *arr = json_array();
		for (int i = 0; i < n; i++) {
			json_t *o = json_object();
			json_object_set_new(o, "name", pl_json_string(st[i].name));
			json_object_set_new(o, "latency_us",
					    st[i].latency_us >= 0 ? json_integer(st[i].latency_us)
								  : json_null());
			json_object_set_new(o, "residency_us",
					    st[i].residency_us >= 0
						    ? json_integer(st[i].residency_us)
						    : json_null());
			json_object_set_new(o, "disabled", json_boolean(st[i].disabled));
			json_array_append_new(arr, o);
			free(st[i].name);
		}
		pl_fact_set(f, "cpuidle.states", arr, "/sys/devices/system/cpu/cpu0/cpuidle");
	}
	free(st);
	free(drv);
	static const char mc[] = "/sys/module/intel_idle/parameters/max_cstate";
	if (pl_exists(mc))
		pl_fact_from_file_int(f, "cpuidle.intel_idle.max_cstate", mc);
}
