/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Snapshot archives read into a directory: a tar archive (POSIX pax or ustar, as
 * libarchive writes it) compressed with zstd (a plain tar is read too), the format
 * `perflab snapshot` writes (docs/snapshot.md). An archive is outside input: every member
 * is checked before anything is written, and nothing is ever written outside the target
 * directory:
 *
 *  - a member's path is relative ("proc/cpuinfo", "./proc/cpuinfo") without a ".."
 *    component; an absolute path is refused;
 *  - a member is a regular file, a directory or a symlink; a hard link, a device node,
 *    a FIFO or a socket is refused;
 *  - a symlink's target must resolve inside the tree: an absolute target means the tree's
 *    root (it is stored relative to the link's directory, so the kernel resolves it
 *    there, never on the machine running perflab), and once every member is written each
 *    symlink is resolved through the tree's own symlinks, as the kernel would (at most 40
 *    of them), and refused when it climbs out;
 *  - files are created with openat(2) relative to their directory's descriptor, O_EXCL |
 *    O_NOFOLLOW, mode 0600 (directories 0700), through util/beneath.h, so no symlink is
 *    followed while extracting; a member met twice is refused; metadata (owner, mode,
 *    times, extended attributes) is not restored;
 *  - limits: PL_ARCHIVE_MAX_MEMBERS members, PL_ARCHIVE_MAX_MEMBER bytes in one member,
 *    PL_ARCHIVE_MAX_TOTAL bytes in all; the zstd stream is decompressed here and its
 *    output counted as it comes (at most the contents' limit plus 2 KiB of headers per
 *    member allowed), so a compression bomb stops within a buffer of the limit;
 *  - the manifest (PL_ARCHIVE_MANIFEST, when present) must be a JSON object whose
 *    "format", when given, is "perflab-snapshot".
 *
 * The zstd stream is decoded with libzstd rather than libarchive's filters so that no
 * external decompressor program can be started and the decompressed byte count is
 * exact. */
#ifndef PERFLAB_UTIL_ARCHIVE_H
#define PERFLAB_UTIL_ARCHIVE_H
#include <locale.h>
#include <stddef.h>

/** Most members (headers of files, directories and symlinks) an archive may hold. */
#define PL_ARCHIVE_MAX_MEMBERS 100000
/** Largest member, in bytes (16 MiB: PL_READ_MAX, the largest file the sysroot helper
 *  reads). */
#define PL_ARCHIVE_MAX_MEMBER (16ull << 20)
/** Most bytes of member contents in all (256 MiB). */
#define PL_ARCHIVE_MAX_TOTAL (256ull << 20)
/** The manifest's member name. */
#define PL_ARCHIVE_MANIFEST "perflab-snapshot.json"

/** Why an archive was refused, for one error line: "member 'M': WHY (FIX)". */
struct pl_archive_error {
	/** The member at fault as the archive names it, escaped for a terminal (invalid
	 *  UTF-8 and control characters as \xNN) and cut to fit; "" when the fault is the
	 *  archive's as a whole (not an archive, cut short before the first member). */
	char member[320];
	/** What is wrong, lowercase, no final period: "climbs out of the tree with '..'". */
	char why[512];
	/** What to do about it (static text). */
	const char *fix;
};

/** Extract the archive file @path into the directory @dirfd (opened with O_PATH or
 *  O_RDONLY; the caller closes it), which should be empty and private (0700). Returns 0;
 *  -EINVAL when the archive is refused (unreadable, not an archive, damaged, or a member
 *  or limit above is broken), with @err filled; or another -errno when writing the tree
 *  failed (-ENOSPC, -EDQUOT, ...), with @err filled too; -ELIBACC, with @err filled,
 *  when libarchive cannot be loaded (util/libarchive.h). On failure the directory holds
 *  what was written so far: the caller removes it. */
int pl_archive_extract_file(const char *path, int dirfd, struct pl_archive_error *err);

/** The calling thread's locale while it reads or writes an archive: see
 *  pl_archive_utf8_begin(). */
struct pl_archive_locale {
	locale_t utf8; /**< C.UTF-8 for LC_CTYPE, or (locale_t)0 when it could not be made */
	locale_t prev; /**< the thread's locale before, restored by pl_archive_utf8_end() */
};

/** Make the calling thread's LC_CTYPE C.UTF-8 (newlocale(3), uselocale(3)) until
 *  pl_archive_utf8_end(@l): libarchive converts pax names (UTF-8 in the archive) to and
 *  from the locale's character set, and in the "C" locale a program starts in it cannot
 *  convert a name that is not ASCII (it fails the header, or worse). Other threads and the
 *  process locale are untouched. Where C.UTF-8 is missing nothing changes. */
void pl_archive_utf8_begin(struct pl_archive_locale *l);

/** Restore the thread's locale saved by pl_archive_utf8_begin(@l) and free C.UTF-8. */
void pl_archive_utf8_end(struct pl_archive_locale *l);

/** pl_archive_extract_file() of the @len bytes at @buf (the fuzz harness, tests). */
int pl_archive_extract_mem(const void *buf, size_t len, int dirfd, struct pl_archive_error *err);

#endif
