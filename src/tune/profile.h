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
 * `${f:...}` functions are not evaluated: reported as unsupported. A profile file that
 * was already loaded is skipped (tuned does the same; this lets /etc/tuned/NAME include
 * the stock NAME from /usr/lib/tuned); a name that can only resolve to a profile still
 * being loaded is an include loop, an error naming the cycle. */
#ifndef PERFLAB_TUNE_PROFILE_H
#define PERFLAB_TUNE_PROFILE_H
#include <stdbool.h>
#include <stddef.h>

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
};

/** A unit: a section other than [main] (tuned calls these units/instances). */
struct pl_tune_unit {
	char *name;		  /**< section name ("sysctl", "vm.thunderx") */
	char *type;		  /**< plugin: `type=` or the section name */
	bool enabled;		  /**< `enabled=` (default true) */
	char *devices;		  /**< `devices=` (default "*"), expanded */
	char *cpuinfo_regex;	  /**< condition on /proc/cpuinfo, expanded, or NULL */
	char *uname_regex;	  /**< condition on the machine name (uname -m), or NULL */
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
 *  found (names the including file and line), -ELOOP include loop (names the cycle
 *  "a -> b -> a"), -EBADMSG syntax error (names the file and line). */
int pl_tune_profile_load(const struct pl_tune_path *p, const char *name,
			 struct pl_tune_profile **out, char *err, size_t errlen);
/** Free. NULL-safe. */
void pl_tune_profile_free(struct pl_tune_profile *pr);

/** Option @key of @o or NULL. */
const struct pl_tune_opt *pl_tune_opts_get(const struct pl_tune_opts *o, const char *key);

/** List the profiles along @p: a sorted, deduplicated NULL-terminated vector of names
 *  (free with pl_strv_free); *dirs (optional) gets a parallel vector with the directory
 *  each name resolves to (the first in the path). */
char **pl_tune_profile_list(const struct pl_tune_path *p, char ***dirs);

#endif
