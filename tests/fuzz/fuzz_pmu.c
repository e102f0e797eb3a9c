/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab stat's event resolver (counters/pmu.h): the input is three lines, an event
 * spelling, a format file's text and an alias file's text. The format and alias go into
 * a PMU "cpu" of a tree in the fuzzer's temporary directory (with a second format, umask
 * "config:8-15", and the tree as sysroot), then the spelling, "cpu/fz/" and
 * "cpu/fz,umask=1/" are resolved over it, and the format and term parsers run on their
 * own. Invariants: a refusal is one line, a success gives at most the room given with
 * the spelling as each event's name, a placed format value stays inside its mask. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counters/pmu.h"
#include "counters/pmu_parse.h"
#include "fuzz.h"
#include "util/sysroot.h"

#define DEV "sys/bus/event_source/devices/cpu"

static void check(const char *spec)
{
	static struct pl_cnt_event evs[4];
	char err[256];
	err[0] = '\0';
	int r = pl_pmu_resolve_all(spec, evs, 4, err, sizeof(err));
	if (r < 0) {
		FUZZ_ASSERT(err[0] != '\0', "a refusal says why");
		FUZZ_ASSERT(strchr(err, '\n') == NULL, "a refusal is one line");
		return;
	}
	FUZZ_ASSERT(r >= 1 && r <= 4, "a success fits the room given");
	for (int i = 0; i < r; i++)
		FUZZ_ASSERT(strcmp(evs[i].name, spec) == 0, "each event is named by the spelling");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	if (size > 4096)
		return -1;
	if (!ready) {
		fuzz_write(DEV "/type", "4\n", 2);
		fuzz_write(DEV "/format/umask", "config:8-15\n", 12);
		FUZZ_ASSERT(pl_sysroot_set(fuzz_tmpdir()) == 0,
			    "the sysroot is the fuzz directory");
		ready = true;
	}
	char *s = fuzz_cstr(data, size);
	char *fmt = strchr(s, '\n');
	char *alias = NULL;
	if (fmt) {
		*fmt++ = '\0';
		alias = strchr(fmt, '\n');
		if (alias)
			*alias++ = '\0';
	}
	fuzz_write(DEV "/format/event", fmt ? fmt : "", fmt ? strlen(fmt) : 0);
	fuzz_write(DEV "/events/fz", alias ? alias : "", alias ? strlen(alias) : 0);

	check(s);
	check("cpu/fz/");
	check("cpu/fz,umask=1/");
	check("fz:u");

	struct pl_pmu_format f;
	if (fmt && pl_pmu_format_parse(fmt, &f) == 0) {
		FUZZ_ASSERT(f.nbits == __builtin_popcountll(f.mask), "nbits counts the mask");
		uint64_t v = (uint64_t)size * 0x9e3779b97f4a7c15ULL;
		FUZZ_ASSERT((pl_pmu_format_place(f.mask, v) & ~f.mask) == 0,
			    "a placed value stays inside its mask");
	}
	struct pl_pmu_term t[PL_PMU_TERMS_MAX];
	size_t n = 0;
	char err[128];
	if (alias && pl_pmu_terms_parse(alias, t, PL_PMU_TERMS_MAX, &n, err, sizeof(err)) == 0)
		FUZZ_ASSERT(n <= PL_PMU_TERMS_MAX, "no more terms than room");
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	char bad = 0;
	if (pl_pmu_modifiers(s, &a, &bad) < 0)
		FUZZ_ASSERT(bad != 0, "a refused modifier is named");
	free(s);
	return 0;
}
