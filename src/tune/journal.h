/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune journal: every change perflab makes to /proc/sys, /sys or the grub default
 * file is recorded on disk BEFORE it is made, so `perflab tune rollback` restores the
 * original values even after Ctrl-C, a crash or kill -9 (tuned keeps them only in memory;
 * bpftune's rollback test is the model for proving it).
 *
 * Protocol of one change (pl_journal_write):
 *   1. read the current value of the target (its raw bytes and the value to write back);
 *   2. append a "set" record {step, target, sysroot, old, old_raw, new, profile, time}
 *      to the journal file and fsync the file and its directory;
 *   3. write the new value to the target (one write(2), never through a shell);
 *   4. read the target back and append an "accepted" record with what the kernel kept
 *      (status "ok", "changed" when it rounded or rewrote the value, "refused" with the
 *      errno when the write failed).
 * A crash between 2 and 4 leaves a "set" record without "accepted": rollback still
 * writes the old value back, which is right whether or not the write happened.
 *
 * Rollback (pl_journal_rollback) walks the live "set" records in reverse order and writes
 * each old value back, appending an "undo" record (fsync'd) after each; so after a
 * rollback every target holds the value it had before the first change. On procfs and
 * sysfs the old value is written as the kernel prints it (for selection files such as
 * ".../queue/scheduler" = "[mq-deadline] none" the selected word); on a regular file (a
 * fixture tree, the grub file) the old bytes are restored exactly. Stacked profiles
 * share the journal: steps keep increasing.
 *
 * File format: <state_dir>/tune-journal.jsonl, JSON Lines (one compact object per line),
 * directory mode 0700, file mode 0600. A torn last line (crash while appending) is
 * ignored and cut off when the journal is next opened for writing. A journal opened for
 * writing is locked (flock LOCK_EX) so `tune apply` and `compare` cannot interleave.
 *
 * Loading checks every record before using any of it: a "set" record needs
 * an integer step >= 1 above every earlier one, string target (a writable name of
 * tune/safepath.h), sysroot, new, profile and an integer time; old and old_raw are
 * strings, null (both) only for the grub file (rollback then removes it: no /proc or
 * /sys file is ever removed). "accepted" and "undo" records name an existing step;
 * status is ok/changed/refused, value a string or null, errno 1..4095. A "persist" record
 * (pl_journal_persist) has the step rules of "set", strings unit (PL_PERSIST_UNIT), link,
 * copy (pl_journal_persist_paths_ok), sysroot and profile, a boolean made_dir and an
 * integer time; an "undo" record may name it. A complete line
 * that fails is damage: the journal is refused with FILE:LINE and the reason, and
 * nothing is rolled back from it (inspect it by hand). Steps stop at INT64_MAX
 * (-EOVERFLOW) rather than wrap.
 *
 * Fault injection for tests: with PERFLAB_TUNE_FAULT_AFTER=K the process calls _exit(137)
 * right after the K-th target write through one journal handle (before the "accepted"
 * record); with
 * PERFLAB_TUNE_FAULT_AFTER=Kj it writes half of the K-th "set" record and exits (a torn
 * record, no target write). A simulated kernel, for tests over a fixture tree only (both
 * are ignored when the sysroot is "/"): PERFLAB_TUNE_TEST_KEEP="TARGET=VALUE" makes the
 * write of TARGET leave VALUE in the file (as a kernel that clamps or accepts a triple in
 * part), PERFLAB_TUNE_TEST_REFUSE="TARGET" makes it fail with EINVAL (as a kernel that
 * refuses the value).
 *
 * Usage (e.g. `compare` applying a variant, then restoring it):
 *     struct pl_journal *j;
 *     int r = pl_journal_open("/var/lib/perflab", PL_JOURNAL_WRITE, &j);
 *     unsigned long mark = pl_journal_last_step(j);
 *     r = pl_journal_write(j, "/proc/sys/net/core/somaxconn", "4096", "compare:B", NULL);
 *     ... run ...
 *     r = pl_journal_rollback(j, mark, NULL, NULL);
 *     pl_journal_close(j);
 * Targets are absolute paths as seen inside the current sysroot (util/sysroot.h); they
 * are resolved with tune/safepath.h, so only /proc/sys, /sys and the grub file can be
 * written. */
#ifndef PERFLAB_TUNE_JOURNAL_H
#define PERFLAB_TUNE_JOURNAL_H
#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"

/** Default state directory (--state-dir). */
#define PL_JOURNAL_DEFAULT_DIR "/var/lib/perflab"
/** The systemd unit a persisted profile installs (inside the sysroot). */
#define PL_PERSIST_UNIT "/etc/systemd/system/perflab-tune.service"
/** Journal file name inside the state directory. */
#define PL_JOURNAL_FILE "tune-journal.jsonl"

/** Open modes of pl_journal_open(). */
enum pl_journal_mode {
	PL_JOURNAL_READ = 0,  /**< read only; a missing journal reads as empty */
	PL_JOURNAL_WRITE = 1, /**< create the directory (0700) and file (0600), lock it */
	PL_JOURNAL_PEEK = 2,  /**< read only without waiting: -EBUSY while a writer holds
				   the lock (PL_JOURNAL_READ waits for it) */
};

/** Result of the read back after a write ("accepted" record). */
enum pl_journal_status {
	PL_JS_UNKNOWN = 0, /**< no "accepted" record (crash between write and read back) */
	PL_JS_OK,	   /**< the target reads back as the value written (normalised) */
	PL_JS_CHANGED,	   /**< the write succeeded but the kernel kept another value (rounded,
				clamped or rewritten): see accepted */
	PL_JS_REFUSED,	   /**< the write failed: see error; the target kept its old value */
};

/** One change, as recorded. All strings are owned by the journal. */
struct pl_journal_entry {
	unsigned long step; /**< 1, 2, 3... in the order the changes were made */
	char *target;	    /**< absolute path inside the sysroot ("/proc/sys/vm/swappiness") */
	char *sysroot;	    /**< sysroot prefix at the time ("" = live system) */
	char *old;	    /**< value to write back (kernel form), NULL when the file did
				 not exist (grub file only: rollback removes it) */
	char *old_raw;	    /**< exact previous bytes (NUL-terminated text), NULL if absent */
	char *new_value;    /**< value written */
	char *profile;	    /**< who asked: profile name, "compare:VARIANT"... */
	long long time;	    /**< Unix seconds of the "set" record */
	enum pl_journal_status status;
	char *accepted; /**< value read back after the write (NULL when unknown) */
	int error;	/**< errno of a refused write, else 0 */
	bool undone;	/**< an "undo" record exists: rolled back */
	/* A "persist" record (tune/persist.h): target is PL_PERSIST_UNIT, new_value the
	 * enable symlink (both inside the sysroot), old and old_raw NULL. */
	bool persist;  /**< this entry is a persisted profile, not a value change */
	char *copy;    /**< persist: the stored profile copy (host path in the state dir) */
	bool made_dir; /**< persist: the .wants directory was created for the symlink */
};

/** An open journal (opaque). */
struct pl_journal;

/** Open the journal in directory @state_dir (NULL = PL_JOURNAL_DEFAULT_DIR) and read all
 *  records. With PL_JOURNAL_WRITE the directory is created with mode 0700 (parents must
 *  exist), the file with 0600, a torn last line is cut off, and the file is locked
 *  exclusively. Returns 0 and *out (free with pl_journal_close), or -errno: -EACCES
 *  (not allowed to create/open: needs root for /var/lib/perflab), -EBUSY (another perflab
 *  holds the lock), -EBADMSG (a complete line is not a valid record: damaged; see the
 *  file comment). A last line without its newline (torn append) is ignored. */
int pl_journal_open(const char *state_dir, enum pl_journal_mode mode, struct pl_journal **out);
/** pl_journal_open() that also says why a journal is refused: for -EBADMSG @why gets
 *  "journal FILE:LINE: reason" (e.g. "... step 3: \"old\" is not a string (a rollback
 *  would write garbage or remove /proc/sys/vm/swappiness)"). @why may be NULL. */
int pl_journal_open_why(const char *state_dir, enum pl_journal_mode mode, struct pl_journal **out,
			char *why, size_t whylen);
/** Close and free. NULL-safe. */
void pl_journal_close(struct pl_journal *j);
/** pl_journal_closep(&j): close @j at scope exit, as
 *  `__attribute__((cleanup(pl_journal_closep))) struct pl_journal *j = NULL;`. */
PL_DEFINE_CLEANUP(struct pl_journal, pl_journal_close, pl_journal_close)
/** Path of the journal file (owned by @j). */
const char *pl_journal_path(const struct pl_journal *j);

/** All recorded changes in step order (undone ones included); *n gets the count.
 *  The array belongs to @j and stays valid until the next write/rollback/close. */
const struct pl_journal_entry *pl_journal_entries(const struct pl_journal *j, size_t *n);
/** Highest step recorded (0 when empty): pass it to pl_journal_rollback() later to undo
 *  only what comes after. */
unsigned long pl_journal_last_step(const struct pl_journal *j);
/** Number of live (not undone) changes. */
size_t pl_journal_live(const struct pl_journal *j);
/** The live entry with the highest step for @target in the current sysroot, or NULL:
 *  tells whether perflab has changed this target and what it was before. */
const struct pl_journal_entry *pl_journal_find(const struct pl_journal *j, const char *target);

/** Record-then-write @new_value to @target (protocol in the file comment), tagged with
 *  @who (profile name). On success *out (optional) points to the new entry (valid until
 *  the next call); check its status for rounding or refusal. Returns 0 when the change
 *  was journaled and attempted (even if the kernel refused it: see status/error), or
 *  -errno when nothing was written: path errors of tune/safepath.h (-EINVAL traversal,
 *  -EPERM outside /proc/sys, /sys and the grub file, -EXDEV symlink escape, -EMLINK hard
 *  link in a sysroot), -ENOENT target missing, -EACCES/-EPERM from open(2) (needs
 *  root), -EBADF journal opened read-only, -EOVERFLOW step numbers exhausted, or the
 *  error of writing/fsyncing the journal itself. The read back compares with
 *  pl_tune_value_match() (whitespace-separated fields). */
int pl_journal_write(struct pl_journal *j, const char *target, const char *new_value,
		     const char *who, const struct pl_journal_entry **out);

/** Record that profile @who is made persistent (tune/persist.h) BEFORE its files are
 *  written: an fsync'd "persist" record {step, unit, link, copy, made_dir, sysroot,
 *  profile, time}. @unit and @link are paths inside the sysroot (PL_PERSIST_UNIT and
 *  "/etc/systemd/system/<target>.wants/perflab-tune.service" of a target of
 *  pl_persist_link_ok()), @copy a host path "<state_dir>/persist/<name>/tuned.conf".
 *  Rollback of the entry removes the symlink (and the .wants directory when @made_dir
 *  and it is empty), the unit and the copy with its directory; files already missing
 *  are no error. Returns 0 and *step, or the errors of pl_journal_write() for the
 *  journal itself (-EBADF, -EOVERFLOW, write/fsync errors), -EINVAL for bad paths. */
int pl_journal_persist(struct pl_journal *j, const char *unit, const char *link, const char *copy,
		       bool made_dir, const char *who, unsigned long *step);

/** True when @link is a persist record's symlink name (see pl_journal_persist) and @copy
 *  a copy path under a "/persist/" directory ending in "/tuned.conf" without "..", so a
 *  rollback of a journal written by hand can remove nothing else. */
bool pl_journal_persist_paths_ok(const char *link, const char *copy);

/** Called by pl_journal_rollback() after each entry it restores (@err 0) or fails to
 *  restore (@err -errno, the entry stays live). */
typedef void (*pl_journal_undo_fn)(const struct pl_journal_entry *e, int err, void *ud);

/** Undo every live change with step > @to_step, newest first, writing old values back
 *  and appending an fsync'd "undo" record after each. @to_step 0 restores everything.
 *  Nothing to undo is a no-op returning 0. Entries that fail are reported through @fn
 *  and skipped; the return value is then the first error. Returns -EXDEV without
 *  writing anything when a live entry to undo belongs to another sysroot (run with that
 *  --sysroot), -EBADF for a read-only journal. */
int pl_journal_rollback(struct pl_journal *j, unsigned long to_step, pl_journal_undo_fn fn,
			void *ud);

/** Undo the live changes an interrupted run of one owner left (entries whose profile
 *  starts with @who_prefix: "compare:", "bench:clock"), when they are the newest live
 *  entries, newest first. *restored gets their count. Returns 0 (also when there is
 *  nothing to undo), -EBUSY without writing when a live change of another owner is newer
 *  (`perflab tune rollback` must undo it first), or the error of pl_journal_rollback(). */
int pl_journal_recover(struct pl_journal *j, const char *who_prefix, size_t *restored);

/** Name of a status ("unknown", "ok", "changed", "refused"). */
const char *pl_journal_status_name(enum pl_journal_status s);

#endif
