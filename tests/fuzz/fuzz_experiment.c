/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The experiment file of `compare --experiment FILE` (compare/experiment.h: INI, one
 * section per variant, keys before the first section for all) with --param expansion
 * and the checks made before the first run (pl_cmp_finalize: word splitting, commands on
 * $PATH, CPU and node lists, cwd, profile=). Leading lines "@NAME=v1,v2" of the input
 * are --param specs (up to 3); the rest is the file. Nothing is run or created.
 * Invariants: a refusal says why; after expansion names stay unique and finalize gives
 * every variant an argv with a resolved executable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/experiment.h"
#include "fuzz.h"
#include "util/str.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return -1;
	char *s = fuzz_cstr(data, size);
	struct pl_cmp_param prm[3];
	size_t np = 0;
	char err[1024] = "";
	char *p = s;
	bool bad_param = false;
	while (*p == '@' && np < 3) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (pl_cmp_param_parse(p + 1, &prm[np], err, sizeof(err)) == 0)
			np++;
		else
			bad_param = true;
		p = nl ? nl + 1 : p + strlen(p);
	}
	FUZZ_ASSERT(!bad_param || err[0], "a bad --param says why");
	const char *path = fuzz_write("experiment.ini", p, strlen(p));
	struct pl_cmp_experiment e = { 0 };
	err[0] = '\0';
	int r = pl_cmp_load_ini(&e, path, err, sizeof(err));
	if (r < 0) {
		FUZZ_ASSERT(err[0], "a refused file says why");
	} else {
		/* a product of more than 4096 variants is the user's to ask for, not ours */
		size_t product = e.n;
		for (size_t i = 0; i < np && product <= 4096; i++)
			product *= prm[i].nvalues;
		if (product <= 4096 && np &&
		    pl_cmp_expand_params(&e, prm, np, err, sizeof(err)) < 0)
			FUZZ_ASSERT(err[0], "a refused expansion says why");
		err[0] = '\0';
		if (product <= 4096 && pl_cmp_finalize(&e, err, sizeof(err)) == 0) {
			for (size_t i = 0; i < e.n; i++) {
				FUZZ_ASSERT(e.v[i].argv && e.v[i].argv[0] && e.v[i].exe,
					    "a finalized variant has an argv and an executable");
				for (size_t j = 0; j < i; j++)
					FUZZ_ASSERT(strcmp(e.v[i].name, e.v[j].name) != 0,
						    "unique names");
			}
		} else if (product <= 4096) {
			FUZZ_ASSERT(err[0], "a refused experiment says why");
		}
	}
	pl_cmp_experiment_free(&e);
	for (size_t i = 0; i < np; i++)
		pl_cmp_param_free(&prm[i]);
	free(s);
	return 0;
}
