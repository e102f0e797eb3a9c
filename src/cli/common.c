/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli/common.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/archive.h"
#include "util/beneath.h"
#include "util/cpuset.h"
#include "util/outfile.h"
#include "util/str.h"
#include "facts/facts.h"
#include "util/privdir.h"
#include "util/sysroot.h"

struct pl_global pl_g;
const char *pl_cmd_program = "perflab";
int (*pl_cmd_describe)(const struct pl_cmd_info *info, const struct pl_optset *sets, size_t nsets);

const struct pl_opt pl_global_opts[] = {
	{ "json", 0, PL_OPT_FLAG, offsetof(struct pl_global, json), NULL,
	  "machine-readable JSON on stdout, or -o FILE; while perflab runs a command (-- CMD, "
	  "compare --show-output) on stderr, so the command keeps stdout" },
	{ "output", 'o', PL_OPT_STR, offsetof(struct pl_global, output), "FILE",
	  "write output to FILE instead of stdout" },
	{ "sysroot", 0, PL_OPT_STR, offsetof(struct pl_global, sysroot), "DIR|FILE",
	  "read /proc, /sys and /etc under DIR (a machine tree), or from FILE, a snapshot "
	  "archive (FILE.tar.zst of perflab snapshot), read into a private temporary "
	  "directory that is removed when perflab ends",
	  .def = "/" },
	{ "no-color", 0, PL_OPT_FLAG, offsetof(struct pl_global, no_color), NULL,
	  "never colour the output (default: colour only on a terminal)" },
	{ "quiet", 'q', PL_OPT_COUNT, offsetof(struct pl_global, quiet), NULL,
	  "print less (no warnings)" },
	{ "verbose", 'v', PL_OPT_COUNT, offsetof(struct pl_global, verbose), NULL, "print more" },
	{ "help", 'h', PL_OPT_FLAG, offsetof(struct pl_global, help), NULL, "show this help" },
	PL_OPT_END,
};

#define NGLOBAL (sizeof(pl_global_opts) / sizeof(pl_global_opts[0]))

/* The global options into @g (NGLOBAL entries) with @info's own meaning of -o and --json,
 * for --help and for errors ("option '-o' needs a value DIR"): report's -o DIR must not
 * read "write output to FILE instead of stdout". */
static void global_opts(const struct pl_cmd_info *info, struct pl_opt *g)
{
	memcpy(g, pl_global_opts, sizeof(pl_global_opts));
	for (struct pl_opt *o = g; o->name; o++) {
		if (strcmp(o->name, "output") == 0 && info->output_help) {
			o->arg = info->output_arg ? info->output_arg : o->arg;
			o->help = info->output_help;
		} else if (strcmp(o->name, "json") == 0 && info->json_help) {
			o->help = info->json_help;
		}
	}
}

/* The non-empty option sets of @in (at most 4) and then the global options, built in @g
 * and parsed into @gbase (NULL for help), in @sets (room for 5). Returns their count. */
static size_t with_globals(const struct pl_cmd_info *info, const struct pl_optset *in, size_t nin,
			   struct pl_optset *sets, struct pl_opt *g, void *gbase)
{
	size_t n = 0;
	for (size_t i = 0; i < nin && n < 4; i++)
		if (in[i].opts && in[i].opts[0].name)
			sets[n++] = in[i];
	global_opts(info, g);
	sets[n++] = (struct pl_optset){ g, gbase, "Global options" };
	return n;
}

void pl_cmd_help_sets(const struct pl_cmd_info *info, const struct pl_optset *in, size_t nin)
{
	printf("usage: %s\n\n%s\n", info->usage, info->summary);
	if (info->description)
		printf("\n%s\n", info->description);
	struct pl_optset sets[5];
	struct pl_opt g[NGLOBAL];
	pl_opt_help(stdout, sets, with_globals(info, in, nin, sets, g, NULL));
}

void pl_cmd_help(const struct pl_cmd_info *info, const struct pl_opt *opts)
{
	struct pl_optset set = { opts, NULL, "Options" };
	pl_cmd_help_sets(info, &set, 1);
}

int pl_cmd_parse(int argc, char **argv, const struct pl_cmd_info *info, const struct pl_opt *opts,
		 void *base, struct pl_args *args)
{
	struct pl_optset set = { opts, base, "Options" };
	return pl_cmd_parse_sets(argc, argv, info, &set, 1, args);
}

/* Every CPU-list option given (-C/--cpus of check, report, profile, monitor, bench) must
 * name online CPUs, those of the --sysroot tree when one is given: a CPU that is not
 * there would otherwise be ignored quietly by some commands and fail late in others.
 * Returns 0, or -1 after one error line. */
static int check_cpus(const struct pl_optset *in, size_t nin)
{
	for (size_t i = 0; i < nin; i++) {
		if (!in[i].opts || !in[i].base)
			continue;
		for (const struct pl_opt *o = in[i].opts; o->name; o++) {
			if (o->type != PL_OPT_CPUS)
				continue;
			const char *v = *(const char *const *)((const char *)in[i].base + o->off);
			char opt[64], err[512];
			snprintf(opt, sizeof(opt), "--%s", o->name);
			if (v && pl_cpuset_check_online(opt, v, err, sizeof(err)) < 0) {
				pl_error("%s", err);
				return -1;
			}
		}
	}
	return 0;
}

/* --sysroot @file, a snapshot archive: extract it into a private temporary directory
 * (util/privdir.h: removed at exit and on SIGINT, SIGTERM, SIGHUP) and point *@root
 * there. Returns -1 to go on, or PL_EXIT_USAGE (a refused archive) or PL_EXIT_RUNTIME
 * (the directory could not be made or written) after one error line. */
static int archive_sysroot(const char *file, const char **root)
{
	static const char *extracted_from;
	const char *dir;
	if (extracted_from && strcmp(extracted_from, file) == 0)
		return -1; /* a second parse in the same run (report's commands) */
	int r = pl_privdir_create("perflab-sysroot", &dir);
	if (r < 0) {
		pl_error("--sysroot '%s': cannot make a temporary directory to read it into: %s "
			 "(point TMPDIR at a writable directory)",
			 file, strerror(-r));
		return PL_EXIT_RUNTIME;
	}
	int dfd = pl_beneath_root(dir);
	struct pl_archive_error err;
	r = dfd < 0 ? dfd : pl_archive_extract_file(file, dfd, &err);
	if (dfd >= 0)
		close(dfd);
	if (r < 0) {
		pl_privdir_remove();
		if (dfd < 0)
			pl_error("--sysroot '%s': cannot open '%s': %s (point TMPDIR at a writable "
				 "directory)",
				 file, dir, strerror(-dfd));
		else if (err.member[0])
			pl_error("--sysroot '%s': member '%s' %s (%s)", file, err.member, err.why,
				 err.fix);
		else
			pl_error("--sysroot '%s': %s (%s)", file, err.why, err.fix);
		return r == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}
	extracted_from = file;
	pl_g.sysroot_archive = file;
	*root = dir;
	return -1;
}

int pl_cmd_parse_sets(int argc, char **argv, const struct pl_cmd_info *info,
		      const struct pl_optset *in, size_t nin, struct pl_args *args)
{
	static char prog[64];
	snprintf(prog, sizeof(prog), "%s %s", pl_cmd_program, info->name);
	pl_progname = prog;
	struct pl_optset sets[5];
	struct pl_opt g[NGLOBAL];
	size_t n = with_globals(info, in, nin, sets, g, &pl_g);
	if (pl_cmd_describe) {
		*args = (struct pl_args){ .dashdash = -1 };
		return pl_cmd_describe(info, sets, n);
	}
	if (pl_opt_parse(argc, argv, sets, n, prog, args) < 0)
		return PL_EXIT_USAGE;
	if (pl_g.help) {
		pl_cmd_help_sets(info, in, nin);
		pl_args_free(args);
		return pl_flush_stdout() < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	}
	pl_verbosity = pl_g.verbose - pl_g.quiet;
	if (pl_g.no_color)
		pl_color_mode = 0;
	if (pl_g.sysroot) {
		const char *root = pl_g.sysroot;
		struct stat st;
		if (stat(root, &st) == 0 && S_ISREG(st.st_mode)) {
			int rc = archive_sysroot(pl_g.sysroot, &root);
			if (rc >= 0) {
				pl_args_free(args);
				return rc;
			}
		}
		int r = pl_sysroot_set(root);
		if (r < 0) {
			pl_error("--sysroot '%s': %s (give an existing directory, e.g. a fixture "
				 "tree, or a snapshot archive)",
				 pl_g.sysroot, strerror(-r));
			pl_args_free(args);
			return PL_EXIT_USAGE;
		}
	}
	if (check_cpus(in, nin) < 0) {
		pl_args_free(args);
		return PL_EXIT_USAGE;
	}
	return -1;
}

bool pl_cmd_report_to_stderr(const char *cmd)
{
	if (!cmd || pl_g.output) /* -o - asks for stdout explicitly */
		return false;
	if (pl_g.json)
		pl_note("the JSON goes to stderr: stdout is left to %s (give -o FILE to write "
			"the JSON to a file)",
			cmd);
	return true;
}

int pl_cmd_require_facts(const struct pl_facts *f)
{
	if (pl_sysroot_is_live() || pl_facts_navailable(f) > 0)
		return -1;
	struct pl_facts all;
	pl_facts_init(&all);
	pl_facts_collect_all(&all);
	size_t any = pl_facts_navailable(&all);
	pl_facts_free(&all);
	if (any > 0)
		return -1;
	/* Name what the user gave: an archive's private extraction directory means nothing
	 * to them. */
	if (pl_g.sysroot_archive)
		pl_error("--sysroot '%s': no facts found (expected a snapshot archive of a "
			 "machine's "
			 "proc/, sys/ or etc/; make one with perflab snapshot)",
			 pl_g.sysroot_archive);
	else
		pl_error("--sysroot '%s': no facts found (expected a machine tree with proc/, sys/ "
			 "or etc/; make one with perflab snapshot, or give its archive)",
			 pl_g.sysroot ? pl_g.sysroot : pl_sysroot());
	return PL_EXIT_USAGE;
}
