/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The variants of a compare experiment: what each one runs and how it differs from the
 * baseline (command, environment, working directory, CPU and NUMA binding, sysctl/sysfs
 * values, a tuned-format profile, per-run and per-variant helper commands). Variants come
 * from the command line (-n NAME [--set KEY=VALUE]... -- CMD ...) and/or an INI file
 * (--experiment FILE: one section per variant, keys before the first section apply to
 * all); --param NAME=v1,v2 expands {NAME} into the cartesian product of variants. */
#ifndef PERFLAB_COMPARE_EXPERIMENT_H
#define PERFLAB_COMPARE_EXPERIMENT_H
#include <stdbool.h>
#include <stddef.h>

#include "util/cpuset.h"

/** One sysctl or sysfs value a variant applies before each of its runs. */
struct pl_cmp_setting {
	char *key;   /**< as written: "sysctl.net.core.somaxconn" or "sysfs./sys/kernel/..." */
	char *path;  /**< absolute target: "/proc/sys/net/core/somaxconn", "/sys/..." */
	char *value; /**< value to write */
};

/** A variant. Strings are owned (malloc'd); NULL when unset. */
struct pl_cmp_variant {
	char *name;
	char *command;	 /**< command as one string (INI, or the CLI words joined for display) */
	char **argv;	 /**< words to exec (NULL-terminated; set by pl_cmp_finalize) */
	char *exe;	 /**< resolved executable path of argv[0] (pl_cmp_finalize) */
	bool argv_given; /**< argv came from the command line as words (no splitting) */
	char **env;	 /**< "KEY=VALUE" entries added to the child's environment */
	size_t nenv;
	char *cwd;     /**< working directory, or "tmpfs" for a private directory on /dev/shm */
	char *cpus;    /**< CPU list for sched_setaffinity in the child ("0-1") */
	char *membind; /**< NUMA node list for MPOL_BIND in the child ("0") */
	struct pl_cmp_setting *settings;
	size_t nsettings;
	char *profile; /**< tuned-format profile name whose [sysctl]/[sysfs] items become settings
			*/
	char *prepare, *cleanup; /**< commands run before/after each run (not timed) */
	char *setup, *teardown;	 /**< commands run once before/after all runs of the variant */
	/* resolved by pl_cmp_finalize */
	struct pl_cpuset cpuset;
	bool has_cpus;
	struct pl_cpuset nodes;
	bool has_membind;
	char *workdir;	  /**< directory the child runs in (the private tmpfs dir for "tmpfs") */
	bool workdir_tmp; /**< workdir was created by perflab and is removed by pl_cmp_cleanup_dirs
			   */
	char *note;	  /**< what pl_cmp_finalize could not apply (profile sections it skips),
			       for the command to print; NULL when nothing */
	char **not_applied; /**< the profile's items not applied per run, one string each
			     ("[bootloader] cmdline (needs a reboot)"); owned, n_not_applied */
	size_t n_not_applied;
};

/** A parameter of --param NAME=v1,v2,... */
struct pl_cmp_param {
	char *name;
	char **values; /**< NULL-terminated */
	size_t nvalues;
};

/** All variants; v[0] is the baseline. */
struct pl_cmp_experiment {
	struct pl_cmp_variant *v;
	size_t n;
	struct pl_cmp_variant defaults; /**< INI keys before the first section */
	bool shell;			/**< --shell: commands run through /bin/sh -c */
};

/** Append a new variant called @name (copied) with the INI defaults applied; returns it
 *  (valid until the next append). */
struct pl_cmp_variant *pl_cmp_add_variant(struct pl_cmp_experiment *e, const char *name);

/** Set variant key @key to @value (copied): command, env.NAME, cwd, cpus, membind,
 *  sysctl.NAME, sysfs./sys/PATH, profile, prepare, cleanup, setup, teardown. Returns 0,
 *  or -EINVAL with a one-line reason in @err (unknown key with the list of keys, bad
 *  sysctl name, sysfs path outside /sys). */
int pl_cmp_variant_set(struct pl_cmp_variant *v, const char *key, const char *value, char *err,
		       size_t errlen);

/** Read variants from INI file @path into @e (appending). Returns 0, -errno when the file
 *  cannot be read, or -EINVAL with "FILE:LINE: reason" in @err. */
int pl_cmp_load_ini(struct pl_cmp_experiment *e, const char *path, char *err, size_t errlen);

/** Parse "NAME=v1,v2,..." into @p. Returns 0 or -EINVAL with a reason in @err. */
int pl_cmp_param_parse(const char *spec, struct pl_cmp_param *p, char *err, size_t errlen);
/** Free a parameter. NULL-safe. */
void pl_cmp_param_free(struct pl_cmp_param *p);

/** Expand {NAME} of the @np parameters in every string of every variant: each variant
 *  becomes the cartesian product of the values of the parameters it mentions (the first
 *  parameter varies slowest); a variant whose name does not mention a parameter it uses
 *  gets " NAME=value" appended to its name. Returns 0, or -EINVAL when a parameter is used
 *  nowhere or a name is duplicated. */
int pl_cmp_expand_params(struct pl_cmp_experiment *e, const struct pl_cmp_param *p, size_t np,
			 char *err, size_t errlen);

/** Split @s into words like a shell without expansion: blanks separate, '...' and
 *  "..." quote, backslash escapes. Returns a NULL-terminated malloc'd vector
 *  (pl_strv_free), or NULL when a quote is unterminated. */
char **pl_cmp_split_words(const char *s);

/** The first character of @s that a shell would treat specially outside quotes (one of
 *  | & ; < > ( ) $ ` * ? and ~ or # at the start of a word; $ and ` also inside "..."),
 *  or NULL when none: such a command needs --shell, since pl_cmp_split_words does no
 *  expansion, redirection or pipes. Quotes and backslashes as in pl_cmp_split_words. */
const char *pl_cmp_shell_syntax(const char *s);

/** Find the executable for @word: itself when it contains '/', else the first match on
 *  $PATH. Returns a malloc'd path, or NULL when not found or not executable. */
char *pl_cmp_which(const char *word);

/** Check and resolve every variant before any run: at least 2 variants, unique names, a
 *  command for each, the command (and prepare/cleanup/setup/teardown) found and
 *  executable, CPU and node lists valid, cwd an existing directory. Builds argv (with
 *  --shell: {"/bin/sh", "-c", command}). Returns 0 or -EINVAL/-ENOENT with the reason in
 *  @err naming the variant and the fix. Does not create directories (see
 *  pl_cmp_make_dirs). */
int pl_cmp_finalize(struct pl_cmp_experiment *e, char *err, size_t errlen);

/** Create the private tmpfs directories of cwd=tmpfs variants (mode 0700 under /dev/shm,
 *  or $TMPDIR when /dev/shm is missing). Returns 0 or -errno. */
int pl_cmp_make_dirs(struct pl_cmp_experiment *e);
/** Remove the directories pl_cmp_make_dirs created, with their contents (no shell).
 *  Safe to call more than once. */
void pl_cmp_cleanup_dirs(struct pl_cmp_experiment *e);

/** The CPUs experiment @e runs on, for its environment (bench/env.h): into @set the union
 *  of the variants' cpus= when every variant has one (*pinned true), else the CPUs this
 *  process may use (sched_getaffinity; empty when that fails). */
void pl_cmp_experiment_cpus(const struct pl_cmp_experiment *e, struct pl_cpuset *set, bool *pinned);

/** vsnprintf a one-line error reason into @err (size @len) for the caller to log; the
 *  compare modules report reasons this way (library code does not log). NULL-safe. */
void pl_cmp_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Free everything. NULL-safe. */
void pl_cmp_experiment_free(struct pl_cmp_experiment *e);

#endif
