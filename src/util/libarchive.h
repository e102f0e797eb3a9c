/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libarchive, loaded with dlopen(3) on first use instead of linked: only snapshot
 * archives need it (perflab snapshot writes them, --sysroot FILE.tar.zst and report
 * --fleet read them: util/archive.h, snapshot/snapshot.h), and linked it made every
 * command pay for it at start-up. Debian's libarchive13 brings libxml2, ICU, libstdc++,
 * nettle, acl, lzma, zstd, lz4 and bz2 with it: 12 more shared objects and about 2,000
 * of the dynamic loader's 4,000 symbol relocations, 5.1 M of `perflab check`'s 12.4 M
 * instructions (valgrind callgrind) on the 2-vCPU EPYC guest. Its static archive is no
 * way out: archive_write_set_format.o, which the pax writer needs, names every writer
 * format, and the xar writer needs libxml2.
 *
 * The calls go through the pointers of pl_la, each typed as the function archive.h
 * declares (so the compiler checks every call), after pl_libarchive_load() succeeded. */
#ifndef PERFLAB_UTIL_LIBARCHIVE_H
#define PERFLAB_UTIL_LIBARCHIVE_H
#include <archive.h>
#include <archive_entry.h>
#include <stddef.h>

/** The shared object loaded: libarchive's soname since 3.0 (2011). */
#define PL_LIBARCHIVE_SONAME "libarchive.so.13"

/** The libarchive functions perflab calls, X(name) each. */
#define PL_LIBARCHIVE_FUNCS(X)                                                                     \
	X(archive_error_string)                                                                    \
	X(archive_set_error)                                                                       \
	X(archive_read_new)                                                                        \
	X(archive_read_support_format_tar)                                                         \
	X(archive_read_open)                                                                       \
	X(archive_read_next_header)                                                                \
	X(archive_read_data)                                                                       \
	X(archive_read_free)                                                                       \
	X(archive_write_new)                                                                       \
	X(archive_write_add_filter_zstd)                                                           \
	X(archive_write_set_format_pax_restricted)                                                 \
	X(archive_write_set_bytes_in_last_block)                                                   \
	X(archive_write_open_FILE)                                                                 \
	X(archive_write_header)                                                                    \
	X(archive_write_data)                                                                      \
	X(archive_write_close)                                                                     \
	X(archive_write_free)                                                                      \
	X(archive_entry_new)                                                                       \
	X(archive_entry_free)                                                                      \
	X(archive_entry_clear)                                                                     \
	X(archive_entry_pathname)                                                                  \
	X(archive_entry_filetype)                                                                  \
	X(archive_entry_hardlink)                                                                  \
	X(archive_entry_symlink)                                                                   \
	X(archive_entry_size)                                                                      \
	X(archive_entry_size_is_set)                                                               \
	X(archive_entry_set_pathname)                                                              \
	X(archive_entry_set_filetype)                                                              \
	X(archive_entry_set_perm)                                                                  \
	X(archive_entry_set_uid)                                                                   \
	X(archive_entry_set_gid)                                                                   \
	X(archive_entry_set_mtime)                                                                 \
	X(archive_entry_set_size)                                                                  \
	X(archive_entry_set_symlink)

#define PL_LIBARCHIVE_FIELD(name) __typeof__(name) *name;
/** Pointers to the libarchive functions of PL_LIBARCHIVE_FUNCS, each named and typed as
 *  the function: call pl_la.archive_read_new() where the code would call
 *  archive_read_new(). All NULL until pl_libarchive_load() succeeds. */
struct pl_libarchive {
	PL_LIBARCHIVE_FUNCS(PL_LIBARCHIVE_FIELD)
};
#undef PL_LIBARCHIVE_FIELD

/** The loaded functions (process-wide; filled by pl_libarchive_load()). */
extern struct pl_libarchive pl_la;

/** What to do when pl_libarchive_load() fails (static text). */
#define PL_LIBARCHIVE_FIX "snapshot archives need libarchive 3: install libarchive13"

/** Load PL_LIBARCHIVE_SONAME and every function of PL_LIBARCHIVE_FUNCS into pl_la, once
 *  per process (later calls return the first result; not thread-safe: call it before
 *  starting threads that use it). Returns 0, or -ELIBACC when the library or one of its
 *  functions is missing, with dlerror()'s text (or the function missing) in @why (@wl
 *  bytes); PL_LIBARCHIVE_FIX says what to do. */
int pl_libarchive_load(char *why, size_t wl);

#endif
