/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for the reader of from.h: refuses every file. */
#include "counters/from.h"

#include <errno.h>
#include <stdio.h>

int pl_cnt_from_file(const char *path, struct pl_cnt_result *r, struct pl_cnt_event **evs,
		     size_t *nevs, char *err, size_t errlen)
{
	(void)r;
	*evs = NULL;
	*nevs = 0;
	snprintf(err, errlen, "--from '%s': reading perf stat output is not yet supported", path);
	return -EINVAL;
}
