/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recording what the sysroot helper reads (perflab snapshot, docs/snapshot.md): while
 * recording is on, every path that util/sysroot.c reads, lists, finds or readlinks
 * successfully is kept with its bytes (files), its target (symlinks) or as a directory,
 * together with every symlink met on the way to it; live-only readings (cpuid, the kernel
 * log, ethtool) are kept as the files under /perflab-live/ that the collectors read in
 * their place when not live. A symlink is recorded but not followed when it leads out of
 * the top-level directory the path started in (/proc, /sys, /etc, ...), and a path with
 * more than 40 links on the way is not recorded (the kernel's MAXSYMLINKS). What could not
 * be read (anything but "not present") is kept with its reason. One recording per process,
 * not thread-safe (the collectors run on one thread). */
#ifndef PERFLAB_UTIL_RECORD_H
#define PERFLAB_UTIL_RECORD_H
#include <stdbool.h>
#include <stddef.h>

/** Kind of a recorded entry. */
enum pl_rec_type {
	PL_REC_FILE, /**< a regular file: data, len */
	PL_REC_LINK, /**< a symbolic link: target as readlink(2) returned it */
	PL_REC_DIR,  /**< a directory (listed, found, or an entry of a listed one) */
};

/** One recorded path. All strings owned by the recording. */
struct pl_rec_entry {
	char *path; /**< absolute inside the sysroot, no trailing '/': "/proc/cpuinfo" */
	enum pl_rec_type type;
	char *data;   /**< PL_REC_FILE: the bytes read (NUL-terminated), else NULL */
	size_t len;   /**< PL_REC_FILE: bytes at data */
	char *target; /**< PL_REC_LINK: the link's target, else NULL */
};

/** One path or probe that could not be read, with why (for the manifest). */
struct pl_rec_problem {
	char *path; /**< "/sys/..." or a probe such as "syslog(2)"; owned */
	char *why;  /**< "permission denied", ...; owned */
};

/** Start recording (dropping any earlier recording). */
void pl_record_start(void);
/** Stop recording and free everything recorded. */
void pl_record_stop(void);
/** True while recording is on and not paused. */
bool pl_record_on(void);
/** Pause (@paused true) or resume recording; returns the previous paused state, to be
 *  handed back. Reads made while paused are not recorded. */
bool pl_record_pause(bool paused);

/** The sysroot helper's hooks (util/sysroot.c): @abs was read (@data, @len bytes), listed
 *  (@names, NULL-terminated), found (any type), or readlink'd successfully; or failed with
 *  @neg_errno (-ENOENT and -ENOTDIR are not problems and are ignored). No-ops when
 *  recording is off. */
void pl_record_file(const char *abs, const char *data, size_t len);
void pl_record_dir(const char *abs, char *const *names);
void pl_record_exists(const char *abs);
void pl_record_link(const char *abs);
void pl_record_failure(const char *abs, int neg_errno);

/** Append @len bytes at @data to the live reading @abs ("/perflab-live/cpuid"), created
 *  empty on first use (docs/snapshot.md names each). No-op when off. */
void pl_record_live(const char *abs, const void *data, size_t len);
/** Note that the live probe @probe ("syslog(2)") failed with @neg_errno (not -ENOENT),
 *  and record the error for its file @abs ("/perflab-live/kmsg") in PL_READ_ERRORS, so
 *  reading @abs from the snapshot fails the same way. No-op when off. */
void pl_record_probe_failure(const char *probe, const char *abs, int neg_errno);

/** The recorded entries sorted by path (a parent directory before what is inside it):
 *  *out points into the recording, valid until the next record call. Returns the count. */
size_t pl_record_entries(const struct pl_rec_entry **out);
/** A rewrite of recorded bytes: a malloc'd replacement of @len bytes at @data (with a
 *  NUL after its *outlen bytes). @path is the entry's absolute path when @data is a
 *  file's bytes, NULL for a path, a link target or a problem's text. */
typedef char *(*pl_record_rewrite_fn)(void *ctx, const char *path, const char *data, size_t len,
				      size_t *outlen);
/** Rewrite everything recorded through @fn (perflab snapshot --redact): each file's bytes,
 *  each entry's path, each link's target, each problem's path and reason; then the
 *  entries are sorted again, and of two that came to the same path the first stays. */
void pl_record_rewrite(pl_record_rewrite_fn fn, void *ctx);
/** The problems in the order they were met; *out valid as for pl_record_entries(). */
size_t pl_record_problems(const struct pl_rec_problem **out);

#endif
