/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every command shares: global options, option parsing with --help, and the
 * command entry point signature. */
#ifndef PERFLAB_CLI_COMMON_H
#define PERFLAB_CLI_COMMON_H
#include <stdbool.h>
#include <stddef.h>

#include "util/log.h"
#include "util/opt.h"

/** Global options, accepted before or after the command name. */
struct pl_global {
	bool json;	     /**< --json: machine output on stdout */
	const char *output;  /**< -o FILE (report: DIR) */
	const char *sysroot; /**< --sysroot DIR or FILE */
	/** The snapshot archive --sysroot named when it was one (then the sysroot is the
	 *  private directory it was read into, removed at exit), else NULL. */
	const char *sysroot_archive;
	bool no_color; /**< --no-color */
	int quiet;     /**< -q count */
	int verbose;   /**< -v count */
	bool help;     /**< -h/--help */
};
/** The parsed global options (main.c owns it). */
extern struct pl_global pl_g;
/** The program the commands belong to, for their errors and --help pointers: "perflab"
 *  (perflab-mpi sets "perflab-mpi"). Not owned. */
extern const char *pl_cmd_program;
/** The global option table. */
extern const struct pl_opt pl_global_opts[];

/** Static description of a command for --help. */
struct pl_cmd_info {
	const char *name;	 /**< "inspect", or "bench clock" */
	const char *usage;	 /**< "perflab inspect [options]" */
	const char *summary;	 /**< one line */
	const char *description; /**< paragraph(s) after the usage, or NULL */
	/* What the global -o and --json mean for this command when not "-o FILE: write
	 * output to FILE instead of stdout" (report: -o DIR, the report directory), shown
	 * under "Global options" in --help; NULL = the global text. */
	const char *output_arg;	 /**< metavariable of -o ("DIR"), or NULL */
	const char *output_help; /**< help of -o, or NULL */
	const char *json_help;	 /**< help of --json, or NULL */
	/** The words that may come first among the positional arguments (tune's list,
	 *  show, ...), NULL-terminated, for shell completion; NULL when none. */
	const char *const *subcommands;
	/** The long name of the flag after which the positional arguments are paths of
	 *  files or directories (report's "fleet": its snapshots), for shell completion;
	 *  NULL when none. */
	const char *paths_after;
};

/** Parse @argv (argv[0] is the command name) against the global options and @opts
 *  (into @base; may be NULL). Handles --help (prints to stdout), --sysroot (checks it is
 *  a directory, or reads a snapshot archive into a private temporary directory: 2 when
 *  the archive is refused), colour and verbosity. Returns -1 when the command should go
 *  on, or an exit code (0 after --help, 2 on a usage error) to return at once. Free @args with
 *  pl_args_free when -1 was returned. */
int pl_cmd_parse(int argc, char **argv, const struct pl_cmd_info *info, const struct pl_opt *opts,
		 void *base, struct pl_args *args);
/** Print the --help text of a command. */
void pl_cmd_help(const struct pl_cmd_info *info, const struct pl_opt *opts);
/** pl_cmd_parse() for commands with several option tables (bench: the runner's and the
 *  benchmark's): @sets (at most 4) are parsed before the global options. */
int pl_cmd_parse_sets(int argc, char **argv, const struct pl_cmd_info *info,
		      const struct pl_optset *sets, size_t nsets, struct pl_args *args);
/** When set, pl_cmd_parse_sets() (and so pl_cmd_parse()) parses nothing: it hands the
 *  command's @info and its option sets, the global options last (as --help shows them),
 *  to this function and returns what it returns (0, or an exit code) with @args empty.
 *  `perflab completion` sets it to read every command's option tables by calling the
 *  command with no arguments (cmd/completion.c); NULL otherwise. The sets live only for
 *  the call: copy what is kept. */
extern int (*pl_cmd_describe)(const struct pl_cmd_info *info, const struct pl_optset *sets,
			      size_t nsets);
/** pl_cmd_help() for several option tables. */
void pl_cmd_help_sets(const struct pl_cmd_info *info, const struct pl_optset *sets, size_t nsets);

/** The output rule (perflab(1), OUTPUT): a report, text or --json, goes to stdout (or
 *  -o FILE), except while perflab runs a program that shares its stdout (@cmd names it
 *  for the note, e.g. "the command"; NULL when none runs): then to stderr unless -o is
 *  given, so the program's output stays apart (as perf stat -o, strace -c). With --json
 *  on stderr one note line says so (unless -q). Returns true for stderr. */
bool pl_cmd_report_to_stderr(const char *cmd);

struct pl_facts;
/** For a --sysroot tree (not the live /): return PL_EXIT_USAGE after one error naming the
 *  directory when the tree holds no readable fact at all (an empty directory, or one a
 *  level too high or low), else -1. @f holds the facts the command collected (any
 *  domains); only when none of them is available is the whole tree collected once more
 *  to decide, so a tree that merely lacks the asked domains is fine. */
int pl_cmd_require_facts(const struct pl_facts *f);

#endif
