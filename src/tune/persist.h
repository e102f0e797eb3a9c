/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab tune apply --persist`: make an applied profile survive reboots. A copy of the
 * profile file is stored in <state_dir>/persist/<name>/tuned.conf (the unit does not
 * depend on a file the user may move; include= still resolves along the search path), a
 * oneshot unit PL_PERSIST_UNIT that runs `perflab tune apply --boot` for the copy early
 * in boot (DefaultDependencies=no, after systemd-sysctl.service and local-fs.target,
 * before sysinit.target, as tuned's own unit orders itself before the services it tunes)
 * is written atomically through the sysroot, and enabled with the symlink in
 * /etc/systemd/system/sysinit.target.wants/. The journal records it first
 * (pl_journal_persist), so `tune rollback` removes the three again. [bootloader] items
 * need nothing more: the grub default file edited by the apply is itself persistent.
 *
 * The boot-time apply (--boot) records its outcome in <state_dir>/tune-boot.json
 * ({"profile","ok","exit","time"}), written atomically, which `tune status` reports. */
#ifndef PERFLAB_TUNE_PERSIST_H
#define PERFLAB_TUNE_PERSIST_H
#include <stdbool.h>
#include <stddef.h>

#include "tune/journal.h"

/** Boot outcome file name inside the state directory. */
#define PL_PERSIST_BOOT_FILE "tune-boot.json"

/** 0 when the sysroot runs systemd (a directory <sysroot>/run/systemd/system, as
 *  sd_booted(3) checks, and <sysroot>/etc/systemd), else -ENOTSUP with the missing
 *  path in @why. Touches nothing. */
int pl_persist_check(char *why, size_t whylen);

/** Check, before anything is written, what pl_persist_write() needs: @exe (the perflab
 *  binary the unit runs) an absolute path of a binary that is still installed (not a
 *  "... (deleted)" name of /proc/self/exe), @exe, @state_dir and @name words a unit's
 *  ExecStart= can carry (no control character; systemd.syntax(7) quoting is done at
 *  write), and below the sysroot's descriptor the unit directory reachable without a
 *  symlink, no unit or enable link in the way and no link or file at the .wants name.
 *  Returns 0 or -errno: -ENOEXEC (the binary), -EINVAL (a control character), -EEXIST (a
 *  unit or link in the way), -ELOOP (a symlink on the way), -ENOENT (no unit directory),
 *  -ENOTDIR; *@what (may be NULL) gets the input or path at fault (borrowed from the
 *  arguments or static). Touches nothing. */
int pl_persist_prepare(const char *state_dir, const char *name, const char *exe, const char **what);

/** Persist profile @name whose file is @file (host path) through journal @j (open for
 *  writing in @state_dir): journal record, copy, unit, symlink; on failure everything
 *  of it is removed again. @exe is the perflab binary the unit runs (absolute host
 *  path). The checks of pl_persist_prepare() are made again first (the tree may have
 *  changed since). Returns 0, or -errno (those of pl_persist_prepare(), the journal's
 *  errors, write errors of the files). */
int pl_persist_write(struct pl_journal *j, const char *state_dir, const char *name,
		     const char *file, const char *exe);

struct pl_tune_profile;

/** 0 when every file of @pr's chain (its includes, `include=` files of [variables]) other
 *  than @pr->file itself lies in a directory the boot-time apply searches too (the
 *  bundled profiles, <sysroot>/etc/tuned, /usr/lib/tuned: pl_tune_path_default without
 *  a --profile-dir), since only @pr->file is copied. Else -ENOENT with the first file
 *  the boot-time apply would not find in @why. Touches nothing. */
int pl_persist_chain_check(const struct pl_tune_profile *pr, char *why, size_t whylen);

/** Record the outcome of a boot-time apply of @name (@exit_status, 0 = applied) in
 *  <@state_dir>/PL_PERSIST_BOOT_FILE, atomically. Returns 0 or -errno. */
int pl_persist_boot_record(const char *state_dir, const char *name, int exit_status);

/** The last boot-time apply recorded in @state_dir: 0 and *profile (malloc'd), *ok,
 *  *time (Unix s), -ENOENT when none, -EBADMSG when the file is not a record. */
int pl_persist_boot_read(const char *state_dir, char **profile, bool *ok, long long *time);

#endif
