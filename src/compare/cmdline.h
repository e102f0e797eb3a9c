/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The variants of compare's command line, before they become an experiment
 * (compare/experiment.h): `-n NAME [--set KEY=VALUE]... -- CMD ARGS...` (words as they
 * are), `-n NAME 'CMD ARGS'` and positional command strings (hyperfine's way, named by
 * their text, a repeat gets " #2"), in command-line order; the first is the baseline. */
#ifndef PERFLAB_COMPARE_CMDLINE_H
#define PERFLAB_COMPARE_CMDLINE_H
#include <stddef.h>

#include "compare/experiment.h"

/** One variant as given on the command line. Strings point into the argv given to
 *  pl_cmp_cli_split (borrowed); the arrays are owned. */
struct pl_cmp_cli_variant {
	const char *name; /**< -n NAME, or NULL for a positional command string */
	char **sets;	  /**< the --set KEY=VALUE words */
	size_t nsets;
	char **argv; /**< the words after '--' (NULL-terminated), or NULL */
	size_t nargv;
	const char *cmd; /**< a command string: positional, or -n NAME 'CMD ARGS' */
	int argi;	 /**< where it started in argv: variants keep the command line's order */
};

/** The variants of a command line and what is left of it for the option parser. */
struct pl_cmp_cli {
	struct pl_cmp_cli_variant *v;
	size_t n;
	char **rest; /**< argv[0] and every word that is not part of a -n variant, NULL-terminated;
		      *   the words are borrowed from argv */
	int nrest;
};

/** Take the variants (-n NAME [--set K=V]... -- CMD... and -n NAME 'CMD') out of the
 *  @argc words of @argv into @c (zeroed first); the rest goes to c->rest. Returns 0 or
 *  -EINVAL with a one-line reason in @err (-n without a name, --set without KEY=VALUE,
 *  nothing after '--'). Free @c with pl_cmp_cli_free in both cases. */
int pl_cmp_cli_split(int argc, char **argv, struct pl_cmp_cli *c, char *err, size_t errlen);

/** Add the @npos positional command strings @pos (pointers into the same @argv) to @c
 *  and order all variants as on the command line. */
void pl_cmp_cli_add_positional(struct pl_cmp_cli *c, char **pos, int npos, int argc, char **argv);

/** Build experiment @e (zeroed, e->shell set): the variants of INI file @ini (NULL: none),
 *  then those of @c in order, then the --param expansion of the NULL-terminated @params
 *  (may be NULL), then pl_cmp_finalize. Returns 0 or -errno with the one-line reason in
 *  @err (prefixed "--experiment: " for the INI file, "variant 'NAME': " for a command-line
 *  variant). Variant notes (e->v[i].note) are left for the caller to print. */
int pl_cmp_cli_build(struct pl_cmp_experiment *e, const char *ini, struct pl_cmp_cli *c,
		     char *const *params, char *err, size_t errlen);

/** Free @c's arrays. NULL-safe; a zeroed @c is fine. */
void pl_cmp_cli_free(struct pl_cmp_cli *c);

#endif
