/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuned-format profiles: <dir>/<name>/tuned.conf, INI read with inih. Loading follows
 * tuned's loader and merger (tuned/profiles/loader.py, merger.py; read, not copied):
 * `include=` in [main] names profiles (comma or semicolon separated, `-name` = include
 * only when present) that are loaded depth-first before the including profile; then all
 * are merged in order, later over earlier: [main] options replace, a unit (section) with
 * `replace=1` replaces the earlier unit, otherwise its options update the earlier ones key
 * by key after `drop=` (comma-separated keys) removed the named earlier options.
 * [variables] is merged like a unit, then `${name}` is expanded in every option value
 * (a variable may use earlier variables; `include=FILE` inside [variables] reads more
 * variables from FILE inside the sysroot). `${i:PROFILE_DIR}` is the profile's directory.
 * `${f:...}` functions that run no program are evaluated as tuned does (tune/functions.h),
 * also in `include=`; `${f:exec}` and unknown functions stay as written and are reported.
 * A failed ${f:assertion} refuses the profile (-EINVAL), as in tuned. A profile file that
 * was already loaded is skipped (tuned does the same; this lets /etc/tuned/NAME include
 * the stock NAME from /usr/lib/tuned); a name that can only resolve to a profile still
 * being loaded is an include loop, an error naming the cycle.
 *
 * Input is bounded (tuned has no such limits; a profile written to exhaust memory or the
 * stack is refused with the file and line instead): PL_TUNE_MAX_FILE bytes per file,
 * PL_TUNE_MAX_SECTIONS sections per profile and its includes, PL_TUNE_MAX_INCLUDE_DEPTH
 * nested includes, PL_TUNE_MAX_VALUE bytes per option after ${} expansion and
 * PL_TUNE_MAX_EXPANDED bytes for all of them, PL_TUNE_MAX_REGEX bytes and
 * PL_TUNE_MAX_REGEX_NODES elements (after repetitions are multiplied out) per condition
 * regex. [bootloader] cmdline tokens are checked with pl_tune_cmdline_check() at load
 * (tune/validate.h). */
#ifndef PERFLAB_TUNE_PROFILE_H
#define PERFLAB_TUNE_PROFILE_H
#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"

/** Largest tuned.conf or [variables] include file read (bytes); stock profiles are
 *  under 3 KiB. */
#define PL_TUNE_MAX_FILE (1u << 20)
/** Most sections in a profile and its includes together (stock profiles: 11). */
#define PL_TUNE_MAX_SECTIONS 1024
/** Most profiles nested by include= (the named profile counts as 1; stock profiles nest
 *  3 deep). */
#define PL_TUNE_MAX_INCLUDE_DEPTH 32
/** Largest option value after ${} expansion (bytes). */
#define PL_TUNE_MAX_VALUE (64u << 10)
/** Most bytes all expanded values of one profile add up to. */
#define PL_TUNE_MAX_EXPANDED (4u << 20)
/** Longest cpuinfo_regex / uname_regex after expansion (bytes). */
#define PL_TUNE_MAX_REGEX 1024
/** Most elements a condition regex may have once its repetitions are multiplied out:
 *  glibc's regcomp copies the repeated part (`x+` = `xx*`, `x{m,n}` = n copies), so
 *  `a+++...` doubles per '+' (pl_tune_regex_cost). */
#define PL_TUNE_MAX_REGEX_NODES 4096

/** One option of a unit (or [main], [variables]) after merging. Strings owned. */
struct pl_tune_opt {
	char *key;
	char *value;	/**< as written (before ${} expansion) */
	char *expanded; /**< after variable expansion (set by pl_tune_profile_load) */
	char *file;	/**< the tuned.conf it came from */
	char *profile;	/**< the profile name it came from */
	int line;	/**< 1-based line in @file */
};

/** A vector of options, in first-definition order (as Python's OrderedDict.update). */
struct pl_tune_opts {
	struct pl_tune_opt *v;
	size_t n, cap;
	size_t *slot; /**< private hash index by key (index + 1, 0 = empty), nslot a power of
			   2, or NULL: pl_tune_opts_get then scans */
	size_t nslot;
};

/** A unit: a section other than [main] (tuned calls these units/instances). */
struct pl_tune_unit {
	char *name;		  /**< section name ("sysctl", "vm.thunderx") */
	char *type;		  /**< plugin: `type=` or the section name */
	bool enabled;		  /**< `enabled=` (default true) */
	char *devices;		  /**< `devices=` (default "*"), expanded */
	char *cpuinfo_regex;	  /**< condition on /proc/cpuinfo, expanded, or NULL */
	char *uname_regex;	  /**< condition on the machine name (uname -m), or NULL */
	char *cpuinfo_regex_at;	  /**< "FILE:LINE" of cpuinfo_regex, or NULL */
	char *uname_regex_at;	  /**< "FILE:LINE" of uname_regex, or NULL */
	char **unsupported_keys;  /**< devices_udev_regex, script_pre, script_post: not used */
	struct pl_tune_opts opts; /**< plugin options */
	char *file;		  /**< file and line of the section header that defined it */
	int line;
};

/** A loaded, merged profile. */
struct pl_tune_profile {
	char *name;
	char *file;		  /**< its tuned.conf */
	char *summary;		  /**< [main] summary or "" */
	char **chain;		  /**< the files loaded, in merge order (NULL-terminated) */
	char **notes;		  /**< notes for the user (optional include not found, unsupported
				       function...), NULL-terminated */
	struct pl_tune_opts main; /**< merged [main] options (without include) */
	struct pl_tune_opts variables; /**< merged [variables], values expanded */
	struct pl_tune_unit *units;
	size_t nunits;
};

/** Search path: up to 8 directories, highest priority first. */
struct pl_tune_path {
	const char *dirs[8];
	size_t n;
};

/** Build the default search path: @profile_dir (may be NULL), the bundled profiles
 *  (PERFLAB_PROFILEDIR env, else PERFLAB_SRCDATADIR/profiles when it exists (build tree),
 *  else PERFLAB_DATADIR/profiles), then <sysroot>/etc/tuned and <sysroot>/usr/lib/tuned.
 *  Strings are static or borrowed from @profile_dir. */
void pl_tune_path_default(struct pl_tune_path *p, const char *profile_dir);

/** True when @name is a valid profile name ([A-Za-z0-9_.-]+, not "." or ".."), the
 *  rule of tuned's loader; a name with '/' or ".." is refused. */
bool pl_tune_name_ok(const char *name);

/** Find the tuned.conf of @name along @p, skipping files in @skip (NULL-terminated, may
 *  be NULL). Returns a malloc'd path or NULL. */
char *pl_tune_locate(const struct pl_tune_path *p, const char *name, char *const *skip);

/** Load and merge profile @name. On success returns 0 and *out (free with
 *  pl_tune_profile_free). On error returns -errno and writes one line naming the problem
 *  into @err (size @errlen): -EINVAL bad name (traversal), -ENOENT profile or include not
 *  found (names the including file and line; a top-level "-name" that is not found too:
 *  the '-' only makes an include optional), -ELOOP include loop (names the cycle
 *  "a -> b -> a"), -EBADMSG syntax error (names the file and line), -E2BIG a limit above
 *  exceeded (names the file, line and limit), -EFBIG a file over PL_TUNE_MAX_FILE,
 *  -EINVAL also for a [bootloader] cmdline token outside pl_tune_cmdline_check()'s set
 *  or a condition regex that does not compile. */
int pl_tune_profile_load(const struct pl_tune_path *p, const char *name,
			 struct pl_tune_profile **out, char *err, size_t errlen);
/** Free. NULL-safe. */
void pl_tune_profile_free(struct pl_tune_profile *pr);
/** pl_tune_profile_freep(&pr): free @pr at scope exit, as
 *  `__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr = NULL;`. */
PL_DEFINE_CLEANUP(struct pl_tune_profile, pl_tune_profile_free, pl_tune_profile_free)

/** Option @key of @o or NULL. */
const struct pl_tune_opt *pl_tune_opts_get(const struct pl_tune_opts *o, const char *key);

/** List the profiles along @p: a sorted, deduplicated NULL-terminated vector of names
 *  (free with pl_strv_free); *dirs (optional) gets a parallel vector with the directory
 *  each name resolves to (the first in the path). */
char **pl_tune_profile_list(const struct pl_tune_path *p, char ***dirs);

#endif
