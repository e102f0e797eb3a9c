/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab snapshot: run every fact collector (what inspect runs) with the sysroot
 * helper recording (util/record.h), then write what they read, and the live-only
 * readings as perflab-live/ files, into one tar + zstd archive (snapshot/snapshot.h,
 * docs/snapshot.md). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/node.h"
#include "cmd/commands.h"
#include "facts/facts.h"
#include "snapshot/snapshot.h"
#include "util/clock.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/record.h"
#include "util/str.h"

static const struct pl_opt snapshot_opts[] = {
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "snapshot",
	.usage = "perflab snapshot [-o FILE] [--json] [--sysroot DIR]",
	.summary = "Capture what perflab reads of this machine into one archive.",
	.description =
		"Runs every fact collector (what inspect runs) while the sysroot helper\n"
		"records each file it reads, lists, finds or readlinks under /proc, /sys,\n"
		"/etc, ... (with the symlinks on the way; a link leading out of the tree it\n"
		"starts in is kept, not followed), and the live-only readings (cpuid leaves,\n"
		"the kernel log through syslog(2), ethtool ioctl results) as files under\n"
		"perflab-live/. Writes them as one tar (pax) compressed with zstd, with the\n"
		"manifest perflab-snapshot.json first: perflab's version, the time, the\n"
		"command line, every member with size and sha256, what could not be read and\n"
		"why (docs/snapshot.md). Other processes' /proc files are left out, except the\n"
		"comm of PID 1 and of the daemons the facts look for. Extracted, the archive\n"
		"is a --sysroot tree: `perflab inspect --sysroot DIR` gives the facts taken.",
	.output_arg = "FILE",
	.output_help = "write the archive to FILE, atomically; - for standard output "
		       "[default: ./perflab-snapshot-HOSTNAME-DATE.tar.zst]",
	.json_help = "also print the manifest on standard output (not with -o -)",
};

/* The default file name: perflab-snapshot-HOSTNAME-YYYYMMDDTHHMMSSZ.tar.zst, with the
 * machine's kernel.hostname (bytes other than letters, digits, '.', '_', '-' as '_'). */
static char *default_name(const struct pl_facts *f, long long created)
{
	const json_t *h = pl_facts_value(f, "kernel.hostname");
	const char *host =
		json_is_string(h) && *json_string_value(h) ? json_string_value(h) : "unknown";
	char *clean = pl_xstrdup(host);
	for (char *c = clean; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
			*c = '_';
	if (strlen(clean) > 64)
		clean[64] = '\0';
	char when[32];
	time_t t = (time_t)created;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
	char *name = pl_xasprintf("perflab-snapshot-%s-%s.tar.zst", clean, when);
	free(clean);
	return name;
}

int cmd_snapshot(int argc, char **argv)
{
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	int rc = pl_cmd_parse(argc, argv, &info, snapshot_opts, NULL, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab snapshot --help')", args.pos[0]);
		return PL_EXIT_USAGE;
	}
	bool to_stdout = pl_g.output && strcmp(pl_g.output, "-") == 0;
	if (to_stdout && pl_g.json) {
		pl_error("--json and -o - both write standard output (give -o FILE)");
		return PL_EXIT_USAGE;
	}
	if (to_stdout && isatty(STDOUT_FILENO)) {
		pl_error("-o -: standard output is a terminal (redirect it, or give -o FILE)");
		return PL_EXIT_USAGE;
	}
	int r = pl_outfile_check(pl_g.output);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
		return PL_EXIT_USAGE;
	}

	long long created = pl_now_epoch();
	pl_record_start();
	pl_cleanup(pl_facts_free) struct pl_facts f;
	pl_facts_init(&f);
	rc = pl_inspect_collect(NULL, &f);
	pl_record_pause(true);
	if (rc >= 0) {
		pl_record_stop();
		return rc;
	}

	pl_autofree char *name = pl_g.output ? NULL : default_name(&f, created);
	const char *path = pl_g.output ? pl_g.output : name;
	struct pl_outfile out;
	r = pl_outfile_open(&out, path);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), path, r));
		pl_record_stop();
		return PL_EXIT_USAGE;
	}
	/* the command line as it was given: the program and the command's own argv */
	pl_autofree char **av = pl_xcalloc((size_t)argc + 1, sizeof(*av));
	av[0] = "perflab";
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	char why[512];
	r = pl_snapshot_write(out.fp, created, argc + 1, av, why, sizeof(why));
	int ret = PL_EXIT_OK;
	if (r < 0) {
		pl_outfile_close(&out, false);
		pl_error("cannot write the snapshot to '%s': %s", to_stdout ? "-" : path, why);
		ret = PL_EXIT_RUNTIME;
	} else if (pl_outfile_close(&out, true) < 0) {
		pl_error("cannot write the snapshot to '%s' (check the space left)",
			 to_stdout ? "-" : path);
		ret = PL_EXIT_RUNTIME;
	} else {
		const struct pl_rec_entry *v;
		size_t n = pl_record_entries(&v);
		if (!to_stdout)
			pl_note("snapshot of %zu paths written to %s", n, path);
		if (pl_g.json) {
			pl_autojson json_t *doc = pl_snapshot_manifest(created, argc + 1, av);
			if (pl_json_write(stdout, doc) < 0 || pl_flush_stdout() < 0)
				ret = PL_EXIT_RUNTIME;
		}
	}
	pl_record_stop();
	return ret;
}
