/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sysroot helper: every read of /proc, /sys and /etc goes through here, so tests run
 * against fixture trees of machines we do not have (docs/ARCHITECTURE.md, "The sysroot
 * principle", also for its traps; the idea of Linux perf's tools/lib/api/fs with an
 * override for tests). */
#ifndef PERFLAB_UTIL_SYSROOT_H
#define PERFLAB_UTIL_SYSROOT_H
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Largest file pl_read_file() reads (bytes): 16 MiB. A longer file is refused with
 *  -EFBIG rather than truncated (a cut value would be silently wrong). /proc and /sys
 *  files are at most a page (sysfs attributes) or a few MB (/proc/cpuinfo and
 *  /proc/interrupts on thousands of CPUs); a bigger one in a sysroot is junk. */
#define PL_READ_MAX (16u << 20)

/** The (positive) errno value pl_read_file() returns negated for an entry that is not a
 *  regular file or directory: a FIFO, socket or device, e.g. a symlink to /dev/zero. */
#define PL_ENOTREG EMEDIUMTYPE

/** A snapshot's record of the reads that failed when it was taken (docs/snapshot.md): one
 *  line "ERRNO PATH" per file (ERRNO a positive Linux errno, PATH absolute). In a sysroot,
 *  a file read (pl_read_file(), pl_reader_read()) that finds no file gives the error
 *  recorded for its path instead of -ENOENT, so a sysfs attribute that refused its read
 *  (a down link's speed: -EINVAL) reads the same from the snapshot. */
#define PL_READ_ERRORS "/perflab-live/read-errors"

/** Set the sysroot to @dir (NULL or "/" = the live system). @dir must be an existing
 *  directory. Returns 0, or -errno (-ENOENT missing, -ENOTDIR not a directory). */
int pl_sysroot_set(const char *dir);
/** The sysroot prefix without a trailing slash: "" for the live system. Never NULL. */
const char *pl_sysroot(void);
/** True when reading the live system (sysroot "/"). Live-only probes (cpuid, syscalls,
 *  perf_event_open) must check this and report `unavailable` otherwise. */
bool pl_sysroot_is_live(void);

/** Write "<sysroot><abs>" into @buf of @len bytes. @abs must start with '/'.
 *  Returns 0, -EINVAL (relative path) or -ENAMETOOLONG. */
int pl_sysroot_path(char *buf, size_t len, const char *abs);

/** Read the whole file at @abs (inside the sysroot), at most PL_READ_MAX bytes, into a
 *  malloc'd NUL-terminated buffer (*out, caller frees); *len (optional) gets the length.
 *  Only regular files are read (procfs and sysfs files are regular): the file is opened
 *  with O_NONBLOCK and checked with fstat() before the first read, so a FIFO, socket or
 *  device in a machine tree (a symlink to /dev/zero) never blocks or streams forever.
 *  Returns 0 or -errno: -ENOENT, -EACCES, -EISDIR (a directory), -PL_ENOTREG (not a
 *  regular file), -ELOOP (symlink loop), -EFBIG (longer than PL_READ_MAX); *out untouched
 *  on error. */
int pl_read_file(const char *abs, char **out, size_t *len);
/** A file of the sysroot kept open to be read again and again: a /proc or /sys file
 *  sampled every interval costs one pread() from offset 0 (procfs seq_files and sysfs
 *  attributes produce fresh contents for each read at 0) instead of open, fstat, read
 *  and close, and no allocation once its buffer is large enough. Zero-initialise; close
 *  with pl_reader_close(). The path is opened again when the open file was removed or
 *  replaced (its link count is 0: an fstat per read, much cheaper than the open), when
 *  the sysroot changed, and after a read error (which closes it). */
struct pl_reader {
	char *path; /**< malloc'd: the sysroot path the descriptor is open on, or NULL */
	int fd;	    /**< valid while path is set */
	char *buf;  /**< malloc'd, reused between reads */
	size_t cap; /**< bytes allocated at buf */
};
/** Read the whole file at @abs (inside the sysroot) as pl_read_file() does (regular files
 *  only, at most PL_READ_MAX bytes, the same errors) through @r: *text gets the
 *  NUL-terminated contents, owned by @r and valid until its next read or close; *len
 *  (optional) the length. On error the file is closed and *text untouched. */
int pl_reader_read(struct pl_reader *r, const char *abs, const char **text, size_t *len);
/** Close the file and free the buffer of @r, leaving it zeroed (reusable). NULL-safe. */
void pl_reader_close(struct pl_reader *r);

/** Read the first line of @abs, whitespace-trimmed, as a malloc'd string. Returns 0 or
 *  -errno; -ENODATA when the file is empty. */
int pl_read_str(const char *abs, char **out);
/** Read @abs as one unsigned integer (decimal or 0x hex). Returns 0, -errno from the
 *  read, or -EINVAL when the content is not a number. */
int pl_read_u64(const char *abs, uint64_t *out);
/** Read @abs as one signed integer. Same errors as pl_read_u64(). */
int pl_read_i64(const char *abs, int64_t *out);
/** printf-style path variants of the readers above. */
int pl_read_filef(char **out, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pl_read_strf(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pl_read_u64f(uint64_t *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** True when @abs exists inside the sysroot (any file type; symlinks followed). */
bool pl_exists(const char *abs);
/** opendir() inside the sysroot; NULL with errno set on failure. */
DIR *pl_opendir(const char *abs);
/** Sorted list of the entries of directory @abs (no "." or ".."), as a NULL-terminated
 *  malloc'd vector (free with pl_strv_free). Returns 0 or -errno; *n gets the count. */
int pl_list_dir(const char *abs, char ***out, size_t *n);
/** readlink() inside the sysroot; returns the target as a malloc'd string (not
 *  re-prefixed) in *out. Returns 0 or -errno. */
int pl_readlink(const char *abs, char **out);

/** Short human reason for a -errno from the readers: "not present", "permission
 *  denied", "not a number"... Static string, never NULL. */
const char *pl_read_strerror(int neg_errno);

#endif
