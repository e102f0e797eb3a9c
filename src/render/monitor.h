/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab report --from monitor.json`: a perflab monitor document
 * (docs/schemas/monitor.schema.json) as time-series charts (SVG, in one self-contained
 * monitor.html), a summary table (mean, p95, max of each series) in monitor.md and on
 * the terminal, with the command's start and end marked on every chart. */
#ifndef PERFLAB_RENDER_MONITOR_H
#define PERFLAB_RENDER_MONITOR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/** True when the JSON file at @path is a document of kind "monitor" (false for anything
 *  else, also a file that cannot be read: the caller's loader reports that). */
bool pl_monview_is_monitor(const char *path);

/** Load and check the monitor document at @path. Returns it (new reference), or NULL
 *  with one line in @err naming the file (unreadable, not JSON, not a monitor document,
 *  no "samples" array). */
json_t *pl_monview_load(const char *path, char *err, size_t errlen);

/** Write @dir/monitor.html (charts: stacked CPU of all CPUs and of each CPU, interrupts
 *  and softirqs, NUMA remote ratio, disk and network bytes per second, pressure) and
 *  @dir/monitor.md (the summary table and events) for the @n documents @docs (one
 *  section each, titled by @paths) in the output directory @dir (util/outdir.h: created
 *  when missing, refused when another user owns it or may plant names in it), and print
 *  the summary table to @term (NULL: nothing). Each file is written to a temporary name
 *  renamed over its name, so a symlink there is replaced, never followed. Returns 0 or
 *  -errno; *@why (may be NULL) gets pl_outdir_open()'s phrase when @dir is refused. */
int pl_monview_write(const char *dir, json_t *const *docs, const char *const *paths, size_t n,
		     FILE *term, const char **why);

/** report --from's dispatch for monitor documents: when the --from files @from (NULL-
 *  terminated) are all monitor documents, load them, write them with pl_monview_write()
 *  into @dir and return 0; when none is, return 1 (the caller makes its usual report);
 *  when they are mixed or one cannot be loaded, return -EINVAL with one line in @err;
 *  another -errno when writing failed (@err says where). */
int pl_monview_from(char *const *from, const char *dir, FILE *term, char *err, size_t errlen);

#endif
