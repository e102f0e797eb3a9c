/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PERFLAB_CMD_CHECK_H
#define PERFLAB_CMD_CHECK_H
#include <stdio.h>

#include "rules/rules.h"

/** Print findings for humans, grouped by severity (crit first): title and id, observed vs
 *  expected, the fix command and profile item(s), the rationale (wrapped at 100 columns)
 *  and its source; -q (pl_verbosity < 0) keeps only the title lines. A footer counts the
 *  rules checked and those that could not run (-v lists their ids). */
void pl_check_print(FILE *out, const struct pl_findings *fs, const char *workload);

#endif
