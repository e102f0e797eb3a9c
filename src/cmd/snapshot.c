/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab snapshot: run every fact collector (what inspect runs) with the sysroot
 * helper recording (util/record.h), then write what they read, and the live-only
 * readings as perflab-live/ files, into one tar + zstd archive (snapshot/snapshot.h,
 * docs/snapshot.md). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/node.h"
#include "cmd/commands.h"
#include "facts/facts.h"
#include "snapshot/redact.h"
#include "snapshot/snapshot.h"
#include "util/clock.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/record.h"
#include "util/str.h"

struct snapshot_opts {
	bool redact;
	const char *key;
};

static const struct pl_opt snapshot_opts[] = {
	{ "redact", 0, PL_OPT_FLAG, offsetof(struct snapshot_opts, redact), NULL,
	  "replace hostnames, addresses, serials, UUIDs, user names and instance ids with "
	  "keyed pseudonyms" },
	{ "redact-key", 0, PL_OPT_STR, offsetof(struct snapshot_opts, key), "FILE",
	  "the pseudonyms' secret key, read from FILE (implies --redact) [default: random]" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "snapshot",
	.usage = "perflab snapshot [-o FILE] [--redact] [--redact-key FILE] [--json] [--sysroot "
		 "DIR|FILE]",
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
		"is a --sysroot tree: `perflab inspect --sysroot DIR` gives the facts taken.\n"
		"\n"
		"--redact replaces, in memory before anything is written, every hostname,\n"
		"IPv4/IPv6 and MAC address, serial number, UUID, user name and home, and cloud\n"
		"instance id in the members, their names, link targets and the manifest with\n"
		"a pseudonym of the same shape (host-3f9a2c, 192.0.2.17, 02:5e:..., a UUID):\n"
		"HMAC-SHA256 under a random key, or under the key in --redact-key FILE, so the\n"
		"same value gives the same pseudonym in every snapshot taken with that key.\n"
		"The manifest counts the replacements per kind (docs/snapshot.md).",
	.output_arg = "FILE",
	.output_help = "write the archive to FILE, atomically; - for standard output "
		       "[default: ./perflab-snapshot-HOSTNAME-DATE.tar.zst]",
	.json_help = "also print the manifest on standard output (not with -o -)",
};

/* The default file name: perflab-snapshot-HOSTNAME-YYYYMMDDTHHMMSSZ.tar.zst, with the
 * machine's kernel.hostname (bytes other than letters, digits, '.', '_', '-' as '_'),
 * through @red's pseudonyms when redacting (NULL otherwise). */
static char *default_name(const struct pl_facts *f, long long created, struct pl_redactor *red)
{
	const json_t *h = pl_facts_value(f, "kernel.hostname");
	const char *host =
		json_is_string(h) && *json_string_value(h) ? json_string_value(h) : "unknown";
	char *clean = red ? pl_redact_str(red, host) : pl_xstrdup(host);
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

/* The largest --redact-key file read (bytes). */
#define KEY_MAX 4096

/* The key in the file @path into @key (KEY_MAX bytes; one final newline dropped), its
 * length in *len. Returns 0, or prints one line naming the file and returns exit 2. */
static int read_key(const char *path, uint8_t *key, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	const char *why = NULL;
	ssize_t n = -1;
	if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if ((n = read(fd, key, KEY_MAX + 1)) < 0)
		why = strerror(errno);
	else if (n > KEY_MAX)
		why = "longer than 4096 bytes";
	if (fd >= 0)
		close(fd);
	if (!why && n > 0 && key[n - 1] == '\n')
		n--;
	if (!why && n <= 0)
		why = "empty";
	if (why) {
		pl_error("--redact-key '%s': %s (give a file holding the secret, such as one "
			 "made by head -c 32 /dev/urandom)",
			 path, why);
		return PL_EXIT_USAGE;
	}
	*len = (size_t)n;
	return 0;
}

/* The invoking user's name and home as literals of @r, unless a system account (uid
 * below 1000): $USER (or $LOGNAME) and $HOME, and $SUDO_USER under sudo. */
static void invoking_user(struct pl_redactor *r)
{
	if (getuid() >= 1000) {
		const char *u = getenv("USER") ? getenv("USER") : getenv("LOGNAME");
		pl_redactor_literal(r, PL_RK_USER, u);
		pl_redactor_literal(r, PL_RK_HOME, getenv("HOME"));
	}
	const char *su = getenv("SUDO_UID");
	if (su && strtoul(su, NULL, 10) >= 1000)
		pl_redactor_literal(r, PL_RK_USER, getenv("SUDO_USER"));
}

int cmd_snapshot(int argc, char **argv)
{
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	struct snapshot_opts o = { 0 };
	int rc = pl_cmd_parse(argc, argv, &info, snapshot_opts, &o, &args);
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

	uint8_t key[KEY_MAX + 1];
	size_t keylen = 32;
	if (o.key && (rc = read_key(o.key, key, &keylen)) != 0)
		return rc;
	if (!o.key && o.redact && getrandom(key, keylen, 0) != (ssize_t)keylen) {
		pl_error("--redact: cannot draw a random key: %s", strerror(errno));
		return PL_EXIT_RUNTIME;
	}
	struct pl_redactor *red = o.redact || o.key ? pl_redactor_new(key, keylen) : NULL;
	memset(key, 0, sizeof(key));

	long long created = pl_now_epoch();
	pl_record_start();
	pl_cleanup(pl_facts_free) struct pl_facts f;
	pl_facts_init(&f);
	rc = pl_inspect_collect(NULL, &f);
	pl_record_pause(true);
	if (rc >= 0) {
		pl_record_stop();
		pl_redactor_free(red);
		return rc;
	}
	/* redacted in memory, before the output is opened */
	if (red) {
		invoking_user(red);
		pl_snapshot_redact(red);
	}
	/* the command line as it was given: the program and the command's own argv */
	pl_autofree char **av = pl_xcalloc((size_t)argc + 2, sizeof(*av));
	av[0] = pl_xstrdup("perflab");
	for (int i = 0; i < argc; i++)
		av[i + 1] = red ? pl_redact_str(red, argv[i]) : pl_xstrdup(argv[i]);
	pl_autojson json_t *counts = red ? pl_redactor_counts(red) : NULL;

	int ret = PL_EXIT_OK;
	pl_autofree char *name = pl_g.output ? NULL : default_name(&f, created, red);
	const char *path = pl_g.output ? pl_g.output : name;
	struct pl_outfile out;
	r = pl_outfile_open(&out, path);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), path, r));
		ret = PL_EXIT_USAGE;
		goto out;
	}
	char why[512];
	r = pl_snapshot_write(out.fp, created, argc + 1, av, counts, why, sizeof(why));
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
			pl_autojson json_t *doc =
				pl_snapshot_manifest(created, argc + 1, av, counts);
			if (pl_json_write(stdout, doc) < 0 || pl_flush_stdout() < 0)
				ret = PL_EXIT_RUNTIME;
		}
	}
out:
	pl_record_stop();
	pl_redactor_free(red);
	for (int i = 0; i <= argc; i++)
		free(av[i]);
	return ret;
}
