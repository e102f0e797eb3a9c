/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab snapshot's archive (docs/snapshot.md, format version 1): what the sysroot
 * helper recorded (util/record.h) written as one POSIX pax tar compressed with zstd
 * through libarchive, with the manifest perflab-snapshot.json as its first member. */
#ifndef PERFLAB_SNAPSHOT_SNAPSHOT_H
#define PERFLAB_SNAPSHOT_SNAPSHOT_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/** The manifest's member name and "format" value, and the format version written. */
#define PL_SNAPSHOT_MANIFEST "perflab-snapshot.json"
#define PL_SNAPSHOT_FORMAT "perflab-snapshot"
#define PL_SNAPSHOT_VERSION 1

struct pl_redactor;

/** The manifest of the current recording (docs/snapshot.md; docs/schemas/snapshot.schema.json):
 *  format, format_version, perflab_version, created (@created, Unix seconds, as RFC 3339
 *  UTC), argv (@argc strings of @argv), hostname_redacted (whether @redactions is given),
 *  members (each recorded file with size and sha256, each symlink with its target;
 *  directories are members of the archive without an entry here), unreadable (path and
 *  error), live (path and what) and, with @redactions (borrowed; NULL without --redact),
 *  redactions (replacements per kind). New reference. */
json_t *pl_snapshot_manifest(long long created, int argc, char *const *argv,
			     const json_t *redactions);

/** Redact the current recording in memory (snapshot --redact, snapshot/redact.h): learn
 *  the literal tokens of every entry first, then rewrite every file's bytes, path, link
 *  target and problem through @r, which counts the replacements. */
void pl_snapshot_redact(struct pl_redactor *r);

/** Write the current recording as a snapshot archive to @fp (left open): the manifest
 *  (pl_snapshot_manifest() of @created, @argc, @argv and @redactions), then every recorded
 *  entry under its path without the leading '/' (files 0644, links, directories 0755;
 *  owner 0, mtime @created). Returns 0, or -EIO with a one-line reason (libarchive's) in
 *  @why (@whylen bytes), or -ELIBACC when libarchive cannot be loaded (util/libarchive.h),
 *  with the reason and the fix in @why. */
int pl_snapshot_write(FILE *fp, long long created, int argc, char *const *argv,
		      const json_t *redactions, char *why, size_t whylen);

#endif
