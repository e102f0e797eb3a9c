/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab: git-style dispatch over the commands of src/cmd/list.h (the registry: adding a
 * command is its file src/cmd/NAME.c and one line there; docs/EXTENDING.md lists the man
 * page and tests, and tests/core/docs-sync.sh checks README and the man pages against
 * the list). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "cmd/completion.h"
#include "cmd/version.h"
#include "util/outfile.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
#define PL_COMMAND(name, summary) { #name, cmd_##name, summary },
#include "cmd/list.h"
#undef PL_COMMAND
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static int usage(FILE *f)
{
	fprintf(f,
		"usage: perflab [--version [--json]] [--help] <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-10s %s\n", "help", "show help for a command ('perflab help bench')");
	fprintf(f, "  %-10s %s\n", "completion",
		"print the shell completion script ('perflab completion bash|zsh|fish')");
	fprintf(f, "\nGlobal options (any command): --json, -o FILE, --sysroot DIR, --no-color, "
		   "-q, -v, -h\n");
	fprintf(f, "Output: reports and --json go to stdout (or -o FILE); while perflab runs a "
		   "command\n(profile/monitor -- CMD, compare --show-output) they go to stderr, "
		   "so its stdout\nstays its own.\n");
	fprintf(f, "Exit status: 0 ok, 1 problems found (check/verify), 2 usage or input "
		   "error, 3 runtime\nfailure, 130 interrupted by Ctrl-C (what was measured is "
		   "written).\n");
	return 0;
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* True when @arg ("--name", "--name=VALUE" or "-x") is one of pl_global_opts. */
static bool is_global(const char *arg)
{
	for (const struct pl_opt *o = pl_global_opts; o->name; o++) {
		if (arg[1] != '-') {
			if (o->short_name && arg[1] == o->short_name && arg[2] == '\0')
				return true;
			continue;
		}
		size_t n = strlen(o->name);
		if (strncmp(arg + 2, o->name, n) == 0 && (arg[2 + n] == '\0' || arg[2 + n] == '='))
			return true;
	}
	return false;
}

static int finish(int code)
{
	/* A full disk or closed pipe is an error, not exit 0 (git's rule). */
	if (pl_flush_stdout() < 0 && code == 0) {
		fprintf(stderr, "perflab: error: cannot write standard output\n");
		return PL_EXIT_RUNTIME;
	}
	return code;
}

int main(int argc, char **argv)
{
	pl_stdfds_reserve();
	/* Global options may come before the command: "perflab --sysroot D inspect". They
	 * are moved after the command name so one parser handles both places. */
	int i = 1;
	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--version") == 0) {
			/* Only --json may follow: anything else (an option, -o FILE, a
			 * word) would be silently ignored by the version printer. */
			for (int k = i + 1; k < argc; k++) {
				if (strcmp(argv[k], "--json") != 0) {
					fprintf(stderr,
						"perflab: error: unexpected '%s' after --version "
						"(it "
						"takes only --json; see 'perflab --help')\n",
						argv[k]);
					return PL_EXIT_USAGE;
				}
			}
			bool json = false;
			for (int k = 1; k < argc; k++)
				json = json || strcmp(argv[k], "--json") == 0;
			return finish(pl_version_print(json));
		}
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return finish(0);
		}
		if (!is_global(argv[i])) {
			fprintf(stderr,
				"perflab: error: unknown option '%s' before the command (only the "
				"global options go there; see 'perflab --help')\n",
				argv[i]);
			return PL_EXIT_USAGE;
		}
		/* global options with a separate value */
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 ||
		    strcmp(argv[i], "--sysroot") == 0)
			i++;
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return PL_EXIT_USAGE;
	}
	const char *name = argv[i];
	if (strcmp(name, "help") == 0) {
		if (i + 1 >= argc) {
			usage(stdout);
			return finish(0);
		}
		if (strcmp(argv[i + 1], "completion") == 0) {
			char *cargv[] = { "completion", "--help", NULL };
			return finish(cmd_completion(2, cargv));
		}
		const struct command *c = find(argv[i + 1]);
		if (!c) {
			fprintf(stderr,
				"perflab: error: unknown command '%s' (see 'perflab --help')\n",
				argv[i + 1]);
			return PL_EXIT_USAGE;
		}
		char *hargv[] = { (char *)c->name, "--help", NULL };
		return finish(c->fn(2, hargv));
	}
	if (strcmp(name, "completion") == 0)
		return finish(cmd_completion(argc - i, argv + i));
	const struct command *c = find(name);
	if (!c) {
		fprintf(stderr, "perflab: error: unknown command '%s' (see 'perflab --help')\n",
			name);
		return PL_EXIT_USAGE;
	}
	/* Rebuild argv as: NAME, <globals before it>, <its own args>. */
	char *nargv[argc + 1];
	int n = 0;
	nargv[n++] = argv[i];
	for (int k = 1; k < i; k++)
		nargv[n++] = argv[k];
	for (int k = i + 1; k < argc; k++)
		nargv[n++] = argv[k];
	nargv[n] = NULL;
	return finish(c->fn(n, nargv));
}
