/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tuned profile loader (tune/profile.h: INI, include chains, [variables] with
 * ${...} and a variables file, unit conditions) and the plan built from what it loaded
 * (tune/plan.h), over a temporary sysroot. The input is several files separated by a
 * form feed byte (\f), in this order:
 *   profiles/main/tuned.conf   the profile loaded (its name is "main")
 *   profiles/a/tuned.conf, profiles/b/tuned.conf, profiles/c/tuned.conf
 *                              profiles it may include ("include=a,-b")
 *   root/vars                  a [variables] include=/vars file
 *   root/proc/cpuinfo          what cpuinfo_regex= and ${f:virt_check:...} read
 * Missing parts are missing files. A first line "@NAME" loads NAME instead of main. Nothing is
 * written outside the temporary directory. Invariants: a failed load says why; a loaded profile has
 * its file first in no chain but last (merge order) and every unit a name. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "util/sysroot.h"

static const char *const files[] = {
	"profiles/main/tuned.conf",
	"profiles/a/tuned.conf",
	"profiles/b/tuned.conf",
	"profiles/c/tuned.conf",
	"root/vars",
	"root/proc/cpuinfo",
};
enum { NFILES = sizeof(files) / sizeof(files[0]) };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return -1;
	/* the files of the input; those it has no part for are removed (the directories
	 * stay: creating them for every input would cost more than the load) */
	static bool dirs_made;
	for (int i = 0; i < NFILES && !dirs_made; i++)
		fuzz_write(files[i], "", 0);
	dirs_made = true;
	/* "@NAME\n" first: load NAME instead of main (a top-level "-name", "../x") */
	char name[64] = "main";
	const uint8_t *p = data, *end = data + size;
	if (size > 1 && data[0] == '@') {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t)(nl - data - 1) : size - 1;
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, data + 1, n);
		name[n] = '\0';
		p = nl ? nl + 1 : end;
	}
	for (int i = 0; i < NFILES; i++) {
		if (!p) {
			fuzz_remove(files[i]);
			continue;
		}
		const uint8_t *ff = memchr(p, '\f', (size_t)(end - p));
		const uint8_t *e = ff ? ff : end;
		fuzz_write(files[i], p, (size_t)(e - p));
		p = ff ? ff + 1 : NULL;
	}
	static char profdir[4096], root[4096];
	snprintf(profdir, sizeof(profdir), "%s/profiles", fuzz_tmpdir());
	if (pl_sysroot_set(root) < 0)
		abort();
	struct pl_tune_path path = { .dirs = { profdir }, .n = 1 };
	struct pl_tune_profile *pr = NULL;
	char err[1024];
	int r = pl_tune_profile_load(&path, name, &pr, err, sizeof(err));
	if (r < 0) {
		FUZZ_ASSERT(err[0], "a failed load says why");
		FUZZ_ASSERT(pr == NULL, "no profile on error");
	} else {
		FUZZ_ASSERT(pr && pr->chain && pr->chain[0], "a chain of files");
		size_t n = 0;
		while (pr->chain[n])
			n++;
		FUZZ_ASSERT(strcmp(pr->chain[n - 1], pr->file) == 0, "the profile is merged last");
		for (size_t u = 0; u < pr->nunits; u++)
			FUZZ_ASSERT(pr->units[u].name && pr->units[u].type, "units have names");
		struct pl_tune_plan plan = { 0 };
		pl_tune_plan_build(pr, &plan, err, sizeof(err));
		pl_tune_plan_free(&plan);
		pl_tune_profile_free(pr);
	}
	pl_sysroot_set(NULL);
	return 0;
}
