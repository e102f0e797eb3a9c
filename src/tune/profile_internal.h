/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the parts of the profile loader (tune/profile.h) share, used inside src/tune/
 * only. The parts follow tuned's own split (tuned/profiles/loader.py, merger.py,
 * variables.py):
 *   opts.c       the option vectors (an ordered map by key);
 *   ini.c        one tuned.conf (or [variables] include file) read into sections;
 *   loader.c     the search path, include chains and pl_tune_profile_load() itself;
 *   merger.c     the loaded files merged into one profile;
 *   variables.c  [variables] and ${...} expansion;
 *   validate.c   the checks of cmdline tokens and condition regexes (tune/validate.h). */
#ifndef PERFLAB_TUNE_PROFILE_INTERNAL_H
#define PERFLAB_TUNE_PROFILE_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>

#include "tune/profile.h"

/* ---- option vectors (opts.c) ---- */

/** Free the options of @o and its index, and zero it. */
void pl_tune_opts_free(struct pl_tune_opts *o);
/** Set key src->key of @o to a copy of @src (OrderedDict semantics: an existing key keeps
 *  its place, a new one goes last). */
void pl_tune_opts_set(struct pl_tune_opts *o, const struct pl_tune_opt *src);
/** Remove the options named in @keys (NULL-terminated) from @o, keeping the order of the
 *  rest; names @o does not hold are ignored. */
void pl_tune_opts_drop(struct pl_tune_opts *o, char *const *keys);
/** pl_tune_opts_set() of every option of @src into @dst, in order. */
void pl_tune_opts_copy(struct pl_tune_opts *dst, const struct pl_tune_opts *src);

/* ---- one file (ini.c) ---- */

/** One [section] of a file, options in file order. Strings owned. */
struct pl_tune_section {
	char *name; /**< as written, blanks included; "" for keys before any header */
	char *file; /**< the file and line of its first header */
	int line;
	struct pl_tune_opts opts;
};

/** One file as read: its sections in first-appearance order. Strings owned. */
struct pl_tune_conf {
	char *name; /**< profile name */
	char *file;
	struct pl_tune_section *s;
	size_t n;
	struct pl_tune_section *last; /**< the section found last (a cache for repeated
					   headers) */
};

/** Read @path as a tuned.conf of profile @name into @c, as tuned's ConfigParser reads
 *  it: keys split at the first '=' only, values continued on indented lines joined with
 *  '\n', '#' and ';' comments, ${i:PROFILE_DIR} replaced by the file's directory and
 *  `script=` resolved against it. @c is always set (free with pl_tune_conf_free(), also
 *  after an error). Returns 0, or -errno with one line in @err (@el bytes): the read
 *  errors of a missing, non-regular or binary file, -EFBIG over PL_TUNE_MAX_FILE,
 *  -EBADMSG a line that is neither "key = value" nor "[section]", -E2BIG a line over
 *  64 KiB, more than PL_TUNE_MAX_SECTIONS sections or a value over PL_TUNE_MAX_VALUE. */
int pl_tune_ini_parse(const char *path, const char *name, struct pl_tune_conf *c, char *err,
		      size_t el);
/** Free the sections of @c and zero it. */
void pl_tune_conf_free(struct pl_tune_conf *c);

/* ---- loading (loader.c) ---- */

/** The state of one pl_tune_profile_load(): the include stack, the files read and the
 *  notes and error line for the caller. */
struct pl_tune_loader {
	const struct pl_tune_path *path;
	char **processed; /**< files loaded (tuned's processed_files) */
	size_t nproc;
	char **stack_names; /**< profile names being loaded (for the cycle message) */
	char **stack_files;
	size_t depth;
	struct pl_tune_conf *confs; /**< in merge order */
	size_t nconfs;
	size_t nsections; /**< in all files loaded */
	size_t expanded;  /**< bytes produced by ${} expansion so far */
	char **notes;
	size_t nnotes;
	char *err; /**< the caller's error line, @el bytes */
	size_t el;
};

/** Add a printf-formatted note for the user to L->notes (the profile's notes). */
void pl_tune_loader_note(struct pl_tune_loader *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** True when the NULL-terminated vector @v (may be NULL) holds the string @s. */
bool pl_tune_in_list(char *const *v, const char *s);

/* ---- merging (merger.c) ---- */

/** Merge the files @confs (@n of them, included files first) into @pr as tuned's Merger
 *  does: [main] options without include= into pr->main, the raw [variables] into
 *  @vars_raw (expanded later, pl_tune_vars_load), every other section into pr->units;
 *  pr->chain gets the files in order. Returns 0, or -EBADMSG with one line in @err
 *  (@errlen bytes) for an option before any [section]. */
int pl_tune_merge(struct pl_tune_profile *pr, const struct pl_tune_conf *confs, size_t n,
		  struct pl_tune_opts *vars_raw, char *err, size_t errlen);
/** Replace *@dst with a copy of @v (NULL allowed), freeing the old string. */
void pl_tune_set_str(char **dst, const char *v);
/** Free the strings and options of @u (not @u itself). */
void pl_tune_unit_free(struct pl_tune_unit *u);

/* ---- variables (variables.c) ---- */

/** The '}' that closes the reference "${..." at @v (references nest), or the
 *  terminating NUL when it is not closed. */
const char *pl_tune_ref_end(const char *v);
/** Expand the ${name} references of @v with @vars (values already expanded) and
 *  evaluate the ${f:...} functions that run no program; \${ stays literal. Unknown
 *  variables and functions perflab does not evaluate stay as written, the first such
 *  ${f:...} or ${i:...} named in *@unsupported (malloc'd; @unsupported may be NULL).
 *  Returns 0 and *@out (malloc'd), -E2BIG when the result would pass PL_TUNE_MAX_VALUE
 *  bytes, or -EINVAL for a failed ${f:assertion}. */
int pl_tune_expand(const char *v, const struct pl_tune_opts *vars, char **unsupported, char **out);
/** pl_tune_expand() for option @what at @file:@line, counting the bytes against
 *  PL_TUNE_MAX_EXPANDED for the whole load. Returns 0, or its error (-E2BIG also for the
 *  total) with one line in L->err. */
int pl_tune_expand_at(struct pl_tune_loader *L, const char *v, const struct pl_tune_opts *vars,
		      char **unsupported, char **out, const char *file, int line, const char *what);
/** Fill pr->variables from the merged @vars_raw: in definition order, each expanded
 *  with the ones before it, `include=FILE` reading more from FILE inside the sysroot
 *  (a note when it cannot). Returns 0, or pl_tune_expand_at()'s error. */
int pl_tune_vars_load(struct pl_tune_loader *L, struct pl_tune_profile *pr,
		      const struct pl_tune_opts *vars_raw);

#endif
