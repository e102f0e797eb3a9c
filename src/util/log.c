/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pl_verbosity;
int pl_color_mode = -1;
const char *pl_progname = "perflab";
pl_error_sink_fn pl_error_sink;

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (kind)
		fprintf(stderr, "%s: %s: ", pl_progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pl_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (pl_error_sink) {
		char msg[1024];
		vsnprintf(msg, sizeof(msg), fmt, ap);
		pl_error_sink(msg);
	} else {
		vmsg("error", fmt, ap);
	}
	va_end(ap);
}

void pl_warn(const char *fmt, ...)
{
	if (pl_verbosity < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void pl_note(const char *fmt, ...)
{
	if (pl_verbosity < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmsg("note", fmt, ap);
	va_end(ap);
}

void pl_debug(const char *fmt, ...)
{
	if (pl_verbosity < 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

bool pl_color(FILE *stream)
{
	if (pl_color_mode >= 0)
		return pl_color_mode == 1;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	return isatty(fileno(stream));
}

const char *pl_style(FILE *stream, const char *name)
{
	static const struct {
		const char *name, *esc;
	} styles[] = {
		{ "bold", "\033[1m" },	 { "red", "\033[31m" }, { "yellow", "\033[33m" },
		{ "green", "\033[32m" }, { "dim", "\033[2m" },	{ "reset", "\033[0m" },
	};
	if (!pl_color(stream))
		return "";
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (strcmp(styles[i].name, name) == 0)
			return styles[i].esc;
	return "";
}

const char *pl_exec_strerror(const char *cmd, int err)
{
	if (err == ENOENT && cmd && !strchr(cmd, '/'))
		return "not found in PATH (give its path, or check the spelling)";
	if (err == ENOENT || err == ENOTDIR)
		return "no such file (check the path, or give a command name found in PATH)";
	if (err == EACCES)
		return "permission denied (not an executable file?)";
	if (err == ENOEXEC)
		return "not a program this system can run (a script needs a #! line)";
	return strerror(err);
}
