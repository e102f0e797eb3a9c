/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Messages and exit codes. Library code returns -errno and never logs on errors it
 * reports to its caller; commands log once at the boundary (systemd's rule). */
#ifndef PERFLAB_UTIL_LOG_H
#define PERFLAB_UTIL_LOG_H
#include <stdbool.h>
#include <stdio.h>

/** Exit status table (documented in perflab(1), EXIT STATUS). */
enum pl_exit {
	PL_EXIT_OK = 0,		   /**< success */
	PL_EXIT_FINDINGS = 1,	   /**< check/verify found problems at or above --fail-on */
	PL_EXIT_USAGE = 2,	   /**< usage or input error: one line on stderr names it */
	PL_EXIT_RUNTIME = 3,	   /**< runtime failure: permission, missing kernel feature */
	PL_EXIT_INTERRUPTED = 130, /**< stopped by SIGINT (128 + 2, the shell's convention): what
				      finished is written */
};

/** Verbosity: -1 quiet (-q), 0 normal, 1+ verbose (-v). Global, set by main. */
extern int pl_verbosity;
/** Name prefixed to messages, e.g. "perflab" or "perflab bench". Not owned. */
extern const char *pl_progname;

/** Where pl_error's messages go instead of stderr, or NULL (the default: perflab prints
 *  every error). A sink gets MSG, formatted, without the "PROG: error: " prefix and the
 *  newline; the text is valid only during the call. perflab-mpi sets one so that every
 *  rank keeps its first error and only the lowest failing rank prints its line. */
typedef void (*pl_error_sink_fn)(const char *msg);
/** The sink of pl_error (see pl_error_sink_fn); NULL prints. */
extern pl_error_sink_fn pl_error_sink;

/** Print "PROG: error: MSG\n" to stderr (always, even with -q), or hand MSG to
 *  pl_error_sink when one is set. */
void pl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Print "PROG: warning: MSG\n" to stderr unless quiet. */
void pl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Print "PROG: note: MSG\n" to stderr unless quiet: where something went, what perflab
 *  does instead (not a problem). */
void pl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Print "MSG\n" to stderr when verbose (-v). */
void pl_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Why @cmd could not be executed, for "cannot run 'CMD': <this>": errno @err (positive)
 *  as strerror, except ENOENT for a name without '/', which execvp looked up in PATH
 *  ("not found in PATH (give its path, or check the spelling)"), ENOENT or ENOTDIR for a
 *  path ("no such file (check the path, ...)"), EACCES ("permission denied (not an
 *  executable file?)") and ENOEXEC: each with its fix. Static string; never NULL. */
const char *pl_exec_strerror(const char *cmd, int err);

/** Colour setting: -1 auto (only on a TTY and without NO_COLOR), 0 never, 1 always. */
extern int pl_color_mode;
/** True when ANSI colour should be written to @stream. */
bool pl_color(FILE *stream);
/** ANSI escape for a named style ("bold", "red", "yellow", "green", "dim", "reset") or
 *  "" when colour is off for @stream. Never NULL. */
const char *pl_style(FILE *stream, const char *name);

#endif
