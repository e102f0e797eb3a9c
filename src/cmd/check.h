/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PERFLAB_CMD_CHECK_H
#define PERFLAB_CMD_CHECK_H
#include <stdio.h>

#include "rules/rules.h"

/** Print findings for humans, grouped by severity (crit first), with observed vs
 *  expected and the fix; -v adds rationale and source. Used by check and report. */
void pl_check_print(FILE *out, const struct pl_findings *fs, const char *workload);

#endif
