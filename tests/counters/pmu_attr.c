/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helper, not a user command: print the perf_event_attr fields perflab's resolver
 * builds for each spelling, over a sysroot, one line per event:
 *     pmu-attr --sysroot DIR SPEC...
 *     SPEC type=4 config=0x13c config1=0x0 config2=0x0 exclude_user=0 exclude_kernel=1
 *     exclude_hv=1 pmu=cpu scale=1 unit=
 * pmu_vs_perf.sh compares these with what `perf stat -vv` prints for the same spelling
 * over the same tree. A spelling that does not resolve prints its error line on stderr
 * and "SPEC error" on stdout, and the exit status is 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/pmu.h"
#include "util/sysroot.h"

int main(int argc, char **argv)
{
	int i = 1, rc = 0;
	if (argc > 2 && strcmp(argv[1], "--sysroot") == 0) {
		if (pl_sysroot_set(argv[2]) < 0) {
			fprintf(stderr, "pmu-attr: cannot use sysroot '%s'\n", argv[2]);
			return 2;
		}
		i = 3;
	}
	static struct pl_cnt_event evs[64];
	for (; i < argc; i++) {
		char err[512];
		int n = pl_pmu_resolve_all(argv[i], evs, 64, err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, "%s\n", err);
			printf("%s error\n", argv[i]);
			rc = 2;
			continue;
		}
		for (int k = 0; k < n; k++) {
			const struct perf_event_attr *a = &evs[k].attr;
			printf("%s type=%u config=0x%llx config1=0x%llx config2=0x%llx "
			       "exclude_user=%u "
			       "exclude_kernel=%u exclude_hv=%u pmu=%s scale=%.10g unit=%s\n",
			       argv[i], a->type, (unsigned long long)a->config,
			       (unsigned long long)a->config1, (unsigned long long)a->config2,
			       a->exclude_user, a->exclude_kernel, a->exclude_hv, evs[k].pmu,
			       evs[k].scale, evs[k].unit);
		}
	}
	return rc;
}
