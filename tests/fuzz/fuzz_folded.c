/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The folded-stack reader of `profile --from-folded` (profile/flame.h: Brendan Gregg's
 * "frame;frame;leaf COUNT" lines, from any tool) and the flame graph SVG written from
 * it. Invariant: a read that succeeds renders (to /dev/null) without error. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "profile/flame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	/* fmemopen refuses size 0: an empty file is /dev/null */
	FILE *in = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!in)
		abort();
	struct pl_flame *fl = pl_flame_new();
	size_t bad = 0;
	if (pl_flame_read(fl, in, &bad) == 0)
		FUZZ_ASSERT(pl_flame_write_svg(fl, null, "fuzz", NULL) == 0, "SVG written");
	else
		FUZZ_ASSERT(bad >= 1, "a bad line is named");
	fclose(in);
	pl_flame_free(fl);
	return 0;
}
