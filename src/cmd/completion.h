/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab completion: the command line as the shells see it (every command, its options
 * and what each option's value is, read from the commands' own option tables), and the
 * writers of the bash, zsh and fish scripts made from it. */
#ifndef PERFLAB_CMD_COMPLETION_H
#define PERFLAB_CMD_COMPLETION_H
#include <stddef.h>
#include <stdio.h>

#include "util/opt.h"

/** What an option's value is, for the shells: how to complete it. */
enum pl_comp_value {
	PL_COMP_FLAG,	 /**< no value (PL_OPT_FLAG, PL_OPT_COUNT) */
	PL_COMP_FREE,	 /**< a value with nothing to offer (a number, a name) */
	PL_COMP_FILE,	 /**< a file name (metavariable with FILE in it, or *.json) */
	PL_COMP_DIR,	 /**< a directory (metavariable DIR) */
	PL_COMP_CHOICES, /**< one of a fixed set (PL_OPT_ENUM's choices, the workloads) */
	PL_COMP_DOMAINS, /**< comma-separated fact domains (src/facts/list.h) */
	PL_COMP_PATHS,	 /**< no value, but the positional arguments after it are files or
			      directories (pl_cmd_info.paths_after: report --fleet) */
};

/** One option of one completion key, copied out of a command's option table. */
struct pl_comp_opt {
	const char *name;	    /**< long name without "--" (static storage) */
	char short_name;	    /**< letter or 0 */
	const char *help;	    /**< one line, static storage */
	enum pl_comp_value value;   /**< what its value is */
	const char *const *choices; /**< PL_COMP_CHOICES: NULL-terminated words */
	int global;		    /**< 1 for the global options (any command) */
};

/** A completion key: a command ("check"), or one benchmark ("bench:clock", its own
 *  options only: the runner's are the "bench" key's). */
struct pl_comp_cmd {
	char *key;	     /**< malloc'd */
	const char *summary; /**< one line (static storage) */
	struct pl_comp_opt *opts;
	size_t nopts;
	const char *const *subcommands; /**< pl_cmd_info.subcommands, or NULL */
};

/** The whole command line: every key in order (the commands of src/cmd/list.h, then a
 *  "bench:NAME" per benchmark of src/bench/list.h), and the word lists that the
 *  positional arguments take. */
struct pl_comp_model {
	struct pl_comp_cmd *cmds;
	size_t ncmds;
	const char *version; /**< PERFLAB_VERSION */
};

/** The subcommands of tune that take profile names (the rest take none, or a number). */
extern const char *const pl_comp_profile_subcommands[];

/** `perflab completion bash|zsh|fish`: print the script (exit 0), or one error line
 *  naming the bad argument and the shells (exit 2). `--list profiles [--profile-dir
 *  DIR]` prints the tuned profiles' names, one a line (what the scripts call at a TAB
 *  after `tune show`). src/main.c dispatches it as it does `help`: it is about perflab's
 *  own command line, not a command of src/cmd/list.h. */
int cmd_completion(int argc, char **argv);

/** Write the bash script for @m to @f (shell functions _perflab_options and
 *  _perflab_value, the function _perflab, `complete -F _perflab perflab`). */
void pl_comp_write_bash(FILE *f, const struct pl_comp_model *m);
/** Write the zsh script (`#compdef perflab`, for a directory of $fpath, or sourced after
 *  compinit) for @m to @f. */
void pl_comp_write_zsh(FILE *f, const struct pl_comp_model *m);
/** Write the fish script (`complete -c perflab ...` lines) for @m to @f. */
void pl_comp_write_fish(FILE *f, const struct pl_comp_model *m);

#endif
