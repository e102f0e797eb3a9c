/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab tune: tuned-format profiles applied through the crash-safe journal
 * (tune/journal.h) with exact rollback. Subcommands: list, show, diff, apply, verify,
 * rollback, status, hold-latency. This file wires the options to tune/actions.h, where
 * each subcommand's work is (docs/ARCHITECTURE.md). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "tune/actions.h"
#include "tune/hold_latency.h"
#include "tune/journal.h"
#include "tune/profile.h"
#include "tune/recommend.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

struct tune_opts {
	const char *profile_dir;
	const char *state_dir;
	bool dry_run;
	uint64_t to;
	bool all;
	const char *workload;
	bool persist, boot;
};

static const struct pl_opt tune_opts[] = {
	{ "profile-dir", 0, PL_OPT_STR, offsetof(struct tune_opts, profile_dir), "DIR",
	  "look for profiles in DIR first (then bundled, /etc/tuned, /usr/lib/tuned)" },
	{ "state-dir", 0, PL_OPT_STR, offsetof(struct tune_opts, state_dir), "DIR",
	  "journal directory: a writable directory, or a new one in one (apply and rollback: "
	  "else exit 2); with --sysroot ROOT: ROOT" PL_JOURNAL_DEFAULT_DIR ", never the host's",
	  .def = PL_JOURNAL_DEFAULT_DIR },
	{ "dry-run", 0, PL_OPT_FLAG, offsetof(struct tune_opts, dry_run), NULL,
	  "apply: print what would be written, write nothing", .was_short = 'n' },
	{ "to", 0, PL_OPT_U64, offsetof(struct tune_opts, to), "STEP",
	  "rollback: undo only the changes after STEP (default 0: all)" },
	{ "all", 0, PL_OPT_FLAG, offsetof(struct tune_opts, all), NULL,
	  "status: also list changes already rolled back; recommend: list every profile",
	  .was_short = 'a' },
	{ "workload", 'W', PL_OPT_STR, offsetof(struct tune_opts, workload), "W",
	  "recommend: the workload to fit (general, latency, throughput, hpc, network, storage, "
	  "benchmark)",
	  .def = "general" },
	{ "persist", 0, PL_OPT_FLAG, offsetof(struct tune_opts, persist), NULL,
	  "apply: also re-apply the profile at every boot (systemd unit; rollback removes it)" },
	{ "boot", 0, PL_OPT_FLAG, offsetof(struct tune_opts, boot), NULL,
	  "apply: the persisted unit's boot-time run: record the outcome for status" },
	PL_OPT_END,
};

/* The subcommands, in the order of --help (shell completion offers them). */
static const char *const tune_subcommands[] = { "list",	     "show",	 "diff",   "apply",
						"verify",    "rollback", "status", "hold-latency",
						"recommend", "try",	 NULL };

static const struct pl_cmd_info info = {
	.name = "tune",
	.subcommands = tune_subcommands,
	.usage = "perflab tune list|show NAME|diff NAME|apply NAME [--dry-run] [--persist]|\n"
		 "                    verify NAME|rollback [--to STEP]|status|hold-latency USEC|\n"
		 "                    recommend [--workload W] [--all]|\n"
		 "                    try PROFILE... [--runs N] [--warmup N] -- CMD ARGS... "
		 "[options]",
	.summary = "Apply tuned-format profiles with a crash-safe journal and exact rollback.",
	.description =
		"Profiles are tuned's format (<dir>/<name>/tuned.conf): include, [variables],\n"
		"[sysctl] [vm] [cpu] [disk] [sysfs] [bootloader]; other plugins are listed as\n"
		"unsupported; [bootloader] tokens must be plain kernel parameters (letters, "
		"digits,\n"
		"_ - . , = : / + @ %). Every write is journaled (fsync) in --state-dir before it "
		"is\n"
		"made; 'rollback' restores the values from before the first change, also after a\n"
		"crash.\n"
		"  list              profiles along the search path\n"
		"  show NAME         merged profile, with the file and line of every value\n"
		"  diff NAME         current vs wanted per item on this machine\n"
		"  apply NAME        write what differs, all or nothing: every value checked\n"
		"                    first, the whole apply rolled back if the kernel refuses or\n"
		"                    changes one (--dry-run: only check and print; --persist:\n"
		"                    also at every boot, via perflab-tune.service)\n"
		"  verify NAME       exit 0 when every applicable item matches, else 1\n"
		"  rollback          undo the journaled changes, newest first (--to STEP)\n"
		"  status            what is applied, from the journal\n"
		"  hold-latency USEC hold a CPU wakeup latency limit (force_latency) until Ctrl-C\n"
		"  recommend         rank the profiles for this machine and --workload: which\n"
		"                    findings each fixes or works against, what it changes here\n"
		"  try PROFILE... -- CMD  the current state (variant 'baseline') and each profile\n"
		"                    as a variant, interleaved rounds through compare: applied\n"
		"                    before each run, rolled back after it (also on failure and\n"
		"                    Ctrl-C); items needing a reboot are named as not applied\n"
		"--json: docs/schemas/tune-{list,show,items,journal,recommend}.schema.json.",
};

static void hold_ready(int usec)
{
	fprintf(stderr,
		"holding /dev/cpu_dma_latency at %d us (CPUs avoid deeper idle states); Ctrl-C "
		"to release\n",
		usec);
}

static int do_hold(const char *arg)
{
	int64_t us;
	if (pl_parse_i64(arg, &us) < 0 || us < 0 || us > INT32_MAX) {
		pl_error("hold-latency '%s': give the limit in microseconds (e.g. 0, 2, 100)", arg);
		return PL_EXIT_USAGE;
	}
	int r = pl_tune_hold_latency((int)us, hold_ready);
	if (r == -EXDEV) {
		pl_error("hold-latency works on the live system only (not with --sysroot)");
		return PL_EXIT_USAGE;
	}
	if (r < 0) {
		pl_error("cannot hold /dev/cpu_dma_latency: %s%s", strerror(-r),
			 r == -EACCES ? " (run as root)" : "");
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}

/* Whether option word @w of `tune try` takes the next word as its value. */
static bool try_takes_value(const char *w)
{
	static const char *const v[] = { "--runs", "-r",	  "--warmup",
					 "-w",	   "--state-dir", "--profile-dir",
					 "-o",	   "--output",	  "--sysroot" };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(w, v[i]) == 0)
			return true;
	return false;
}

/* tune try PROFILE... [--runs N] [--warmup N] [--state-dir DIR] [--profile-dir DIR] -- CMD:
 * the current state as the baseline and each profile as a compare variant
 * (`--set profile=NAME`), so compare's machinery does the rest: validated all-or-nothing
 * apply before each run and journaled rollback after it, also on failure and on
 * SIGINT/SIGTERM (compare/sysset.h), interleaved rounds, verdicts, --json. @argv is
 * tune's argv (globals included); @ti is the index of the word "try". */
static int do_try(int argc, char **argv, int ti)
{
	int dd = -1;
	for (int i = ti + 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			dd = i;
			break;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			pl_cmd_help(&info, tune_opts); /* tune's help: it documents try */
			return PL_EXIT_OK;
		}
	if (dd < 0) {
		pl_error("tune try: missing '--' before the command (perflab tune try PROFILE... "
			 "-- CMD ARGS...)");
		return PL_EXIT_USAGE;
	}
	if (dd + 1 >= argc) {
		pl_error("tune try: no command after '--' (perflab tune try PROFILE... -- CMD "
			 "ARGS...)");
		return PL_EXIT_USAGE;
	}
	int ncmd = argc - dd - 1;
	/* compare NAME, options (< dd), baseline (3 + ncmd), one variant per profile
	 * (5 + ncmd each, fewer than dd profiles) and the NULL */
	char **nv = pl_xcalloc(((size_t)dd + 1) * ((size_t)ncmd + 6) + 8, sizeof(*nv));
	char **own = pl_xcalloc((size_t)argc + 1, sizeof(*own));
	int n = 0, nown = 0, nprof = 0;
	nv[n++] = "compare";
	for (int i = 1; i < dd; i++) {
		if (i == ti)
			continue;
		const char *w = argv[i];
		if (w[0] == '-') {
			if (strcmp(w, "--profile-dir") == 0 ||
			    strncmp(w, "--profile-dir=", 14) == 0) {
				const char *d =
					w[13] == '=' ? w + 14 : (i + 1 < dd ? argv[++i] : NULL);
				if (!d) {
					pl_error("--profile-dir needs a directory");
					goto usage;
				}
				setenv("PERFLAB_PROFILEDIR", d, 1);
				continue;
			}
			nv[n++] = argv[i];
			if (try_takes_value(w) && i + 1 < dd)
				nv[n++] = argv[++i];
			continue;
		}
		if (!pl_tune_name_ok(w)) {
			pl_error("'%s' is not a profile name (letters, digits, '_', '.', '-'; no "
				 "'/' "
				 "or '..')",
				 w);
			goto usage;
		}
		if (strcmp(w, "baseline") == 0) {
			pl_error("tune try: 'baseline' names the current state; give a profile "
				 "name");
			goto usage;
		}
		nprof++;
	}
	if (!nprof) {
		pl_error(
			"tune try: give at least one profile (perflab tune try PROFILE... -- CMD)");
		goto usage;
	}
	nv[n++] = "-n";
	nv[n++] = "baseline";
	nv[n++] = "--";
	for (int k = dd + 1; k < argc; k++)
		nv[n++] = argv[k];
	for (int i = 1; i < dd; i++) {
		if (i == ti)
			continue;
		const char *w = argv[i];
		if (w[0] == '-') {
			if ((try_takes_value(w) || strcmp(w, "--profile-dir") == 0) && i + 1 < dd)
				i++;
			continue;
		}
		nv[n++] = "-n";
		nv[n++] = argv[i];
		nv[n++] = "--set";
		nv[n++] = own[nown++] = pl_xasprintf("profile=%s", w);
		nv[n++] = "--";
		for (int k = dd + 1; k < argc; k++)
			nv[n++] = argv[k];
	}
	nv[n] = NULL;
	int rc = cmd_compare(n, nv);
	for (int k = 0; k < nown; k++)
		free(own[k]);
	free(own);
	free(nv);
	return rc;
usage:
	free(own);
	free(nv);
	return PL_EXIT_USAGE;
}

/* --state-dir DIR of a subcommand that writes the journal: an existing directory in which
 * a file can be created, or a new one whose parent is such a directory (the journal makes
 * it). A file, a path under a file or /proc/self is bad input (2), found before anything
 * changes, rather than a runtime failure (3) when the journal cannot be opened; a
 * directory this user may not write stays a permission failure (3). Returns
 * -1, or PL_EXIT_USAGE after one error line. */
static int check_state_dir(const char *dir)
{
	struct stat st;
	pl_autofree char *parent = NULL;
	const char *probe_in = dir;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			pl_error("--state-dir '%s': %s (give a writable directory)", dir,
				 strerror(errno));
			return PL_EXIT_USAGE;
		}
		parent = pl_xstrdup(dir);
		char *slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			strcpy(parent, ".");
		probe_in = parent;
		if (stat(parent, &st) < 0 || !S_ISDIR(st.st_mode)) {
			pl_error("--state-dir '%s': its parent '%s' is not a directory (give a "
				 "writable directory, e.g. /var/lib/perflab)",
				 dir, parent);
			return PL_EXIT_USAGE;
		}
	} else if (!S_ISDIR(st.st_mode)) {
		pl_error("--state-dir '%s': not a directory (give a writable directory, e.g. "
			 "/var/lib/perflab)",
			 dir);
		return PL_EXIT_USAGE;
	}
	pl_autofree char *probe = pl_xasprintf("%s/.perflab-probe-XXXXXX", probe_in);
	int fd = mkstemp(probe);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		return -1; /* permission: a runtime failure (3, perflab(1)), said later with
			    * the items that need root */
	if (fd < 0) {
		pl_error("--state-dir '%s': cannot create files in '%s': %s (give a writable "
			 "directory, e.g. /var/lib/perflab)",
			 dir, probe_in, strerror(errno));
		return PL_EXIT_USAGE;
	}
	close(fd);
	unlink(probe);
	return -1;
}

int cmd_tune(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "try") == 0)
			return do_try(argc, argv, i);
		if (argv[i][0] != '-')
			break;
		if (try_takes_value(argv[i]) || strcmp(argv[i], "--profile-dir") == 0)
			i++;
	}
	struct tune_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, tune_opts, &o, &args);
	if (rc >= 0)
		return rc;
	static const struct {
		const char *name;
		int nargs; /* 1: needs NAME/USEC */
	} subs[] = { { "list", 0 },   { "show", 1 },	     { "diff", 1 },
		     { "apply", 1 },  { "verify", 1 },	     { "rollback", 0 },
		     { "status", 0 }, { "hold-latency", 1 }, { "recommend", 0 } };
	int which = -1;
	if (args.npos >= 1)
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			if (strcmp(args.pos[0], subs[i].name) == 0)
				which = (int)i;
	if (which < 0) {
		pl_error("%s '%s' (use list, show, diff, apply, verify, rollback, status, "
			 "hold-latency or recommend; see 'perflab tune --help')",
			 args.npos ? "unknown subcommand" : "missing subcommand",
			 args.npos ? args.pos[0] : "");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (args.npos != 1 + subs[which].nargs) {
		pl_error("'tune %s' takes %s (see 'perflab tune --help')", subs[which].name,
			 subs[which].nargs ? "one argument" : "no argument");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	const char *sub = subs[which].name, *arg = args.npos > 1 ? args.pos[1] : NULL;
	if (arg && which != 7 && !pl_tune_name_ok(arg)) {
		pl_error("'%s' is not a profile name (letters, digits, '_', '.', '-'; no '/' or "
			 "'..')",
			 arg);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	/* A relative --state-dir is made absolute before anything is written: the journal
	 * and a persisted unit name it from wherever they are read later. */
	pl_autofree char *state_abs = NULL;
	if (o.state_dir && o.state_dir[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd))) {
			pl_error("--state-dir '%s': cannot read the current directory: %s (give an "
				 "absolute path)",
				 o.state_dir, strerror(errno));
			pl_args_free(&args);
			return PL_EXIT_USAGE;
		}
		state_abs = pl_xasprintf("%s/%s", cwd, o.state_dir);
	}
	/* Changes to a sysroot are journaled inside it: the host's journal must not hold
	 * (and its rollback must not replay) writes to another tree. */
	if (!o.state_dir && !pl_sysroot_is_live())
		state_abs = pl_xasprintf("%s%s", pl_sysroot(), PL_JOURNAL_DEFAULT_DIR);
	bool writes = (strcmp(sub, "apply") == 0 && !o.dry_run) || strcmp(sub, "rollback") == 0;
	if (writes && pl_g.sysroot_archive) {
		pl_error("--sysroot '%s': tune %s writes to the sysroot, and a snapshot archive is "
			 "read-only (extract it: mkdir DIR && tar --zstd -xf ARCHIVE -C DIR, then "
			 "give --sysroot DIR; or use --dry-run)",
			 pl_g.sysroot_archive, sub);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (writes && o.state_dir && check_state_dir(state_abs ? state_abs : o.state_dir) >= 0) {
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	const struct pl_tune_req q = {
		.profile_dir = o.profile_dir,
		.state_dir = state_abs ? state_abs : o.state_dir,
		.state_in_sysroot = !o.state_dir && !pl_sysroot_is_live(),
		.dry_run = o.dry_run,
		.to = o.to,
		.all = o.all,
		.workload = o.workload,
		.json = pl_g.json,
		.output = pl_g.output,
		.persist = o.persist,
		.boot = o.boot,
	};
	if (strcmp(sub, "list") == 0)
		rc = pl_tune_do_list(&q);
	else if (strcmp(sub, "show") == 0)
		rc = pl_tune_do_show(&q, arg);
	else if (strcmp(sub, "diff") == 0)
		rc = pl_tune_do_diff(&q, arg, false);
	else if (strcmp(sub, "verify") == 0)
		rc = pl_tune_do_diff(&q, arg, true);
	else if (strcmp(sub, "apply") == 0)
		rc = pl_tune_do_apply(&q, arg);
	else if (strcmp(sub, "rollback") == 0)
		rc = pl_tune_do_rollback(&q);
	else if (strcmp(sub, "status") == 0)
		rc = pl_tune_do_status(&q);
	else if (strcmp(sub, "recommend") == 0)
		rc = pl_tune_do_recommend(&q);
	else
		rc = do_hold(arg);
	pl_args_free(&args);
	return rc;
}
