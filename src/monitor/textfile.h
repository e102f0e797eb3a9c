/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor --prom: one interval (rates.h) as Prometheus text exposition, written
 * atomically for node_exporter's textfile collector. */
#ifndef PERFLAB_MONITOR_TEXTFILE_H
#define PERFLAB_MONITOR_TEXTFILE_H
#include "monitor/rates.h"

/** Write @r as Prometheus text exposition to @path atomically: a temporary file beside
 *  it renamed over it (node_exporter's textfile collector reads whole files only).
 *  Returns 0 or -errno; on error nothing is left behind. */
int pl_mon_prom_write(const char *path, const struct pl_mon_rates *r);

#endif
