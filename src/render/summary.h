/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The terminal summary `perflab report` prints after writing its files: the key numbers,
 * the top findings, the first figure of each benchmark and the changes since a baseline. */
#ifndef PERFLAB_RENDER_SUMMARY_H
#define PERFLAB_RENDER_SUMMARY_H
#include <jansson.h>
#include <stdio.h>

/** Print the short terminal summary (machine line, findings by severity with top fixes,
 *  where the files are) to @out. @dir is where the report was written. */
void pl_report_print_summary(FILE *out, const json_t *report, const char *dir);

#endif
