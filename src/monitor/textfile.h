/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor --prom-textfile: one interval (rates.h) as Prometheus text exposition
 * (format 0.0.4), written atomically for node_exporter's textfile collector. The
 * collector's directory is often writable by others (a group of exporters, a shared
 * spool), so the file's directory is opened once and every write goes through it: a
 * temporary made O_CREAT | O_EXCL | O_NOFOLLOW under a random name, renamed over the
 * file (util/beneath.h pl_beneath_write_atomic). A symlink planted at any name there is
 * never followed, and a failed write leaves the previous file and no temporary. */
#ifndef PERFLAB_MONITOR_TEXTFILE_H
#define PERFLAB_MONITOR_TEXTFILE_H
#include <stddef.h>

#include "monitor/rates.h"

/** An open textfile target. Zero it, or pl_mon_prom_open() it; release with
 *  pl_mon_prom_close(). */
struct pl_mon_prom {
	int dirfd;  /**< O_PATH | O_DIRECTORY descriptor of the file's directory, or -1 */
	char *name; /**< malloc'd: the file's name in that directory (no '/') */
};

/** Open the directory of @path (its part before the last '/'; "." when none; the
 *  directory may be reached through symlinks, it is the user's choice) once and keep the
 *  file's name. Returns 0, or -errno with @p closed: -EISDIR when @path names no file
 *  (ends in '/', ".", "..", or names an existing directory), -ENOTDIR or -ENOENT for the directory,
 * -EACCES (or another access(2) error) when it is not writable. */
int pl_mon_prom_open(struct pl_mon_prom *p, const char *path);

/** Close what pl_mon_prom_open() opened (dirfd -1, name NULL). Safe on a zeroed or
 *  closed @p. */
void pl_mon_prom_close(struct pl_mon_prom *p);

/** @r as Prometheus text: every family gets its # HELP and # TYPE lines once, metric
 *  names perflab_monitor_*, label values escaped (pl_prom_label_escape: whole device
 *  and counter names, any length), samples without a finite value left out. Returns the
 *  malloc'd text, its length in *@len, or NULL when memory ran out. */
char *pl_mon_prom_text(const struct pl_mon_rates *r, size_t *len);

/** Replace @p's file with pl_mon_prom_text(@r), mode 0644, atomically. Returns 0 or
 *  -errno; on error the previous file stays as it was and no temporary is left. */
int pl_mon_prom_write(const struct pl_mon_prom *p, const struct pl_mon_rates *r);

#endif
