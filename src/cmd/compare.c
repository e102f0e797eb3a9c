/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab compare: repeated, interleaved A/B experiments with confidence intervals and
 * verdicts. Wiring only: the command line's variants (compare/cmdline.h),
 * variants (compare/experiment.h), the live executor and its settings (compare/live.h),
 * rounds (compare/session.h), statistics (compare/analyze.h), outputs (compare/output.h);
 * docs/ARCHITECTURE.md has the map. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/env.h"
#include "cli/common.h"
#include "cmd/commands.h"
#include "compare/cmdline.h"
#include "compare/counting.h"
#include "compare/experiment.h"
#include "compare/live.h"
#include "compare/output.h"
#include "compare/session.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/cleanup.h"
#include "util/str.h"

struct compare_opts {
	int runs;
	int warmup;
	const char *seed;
	const char *precision;
	int max_runs;
	double max_time;
	const char *threshold;
	char **metric;
	bool higher;
	int aggregate;
	const char *experiment;
	char **param;
	bool shell;
	bool ignore_failure;
	bool show_output;
	bool monitor;
	const char *stat;
	const char *md;
	const char *csv;
	const char *state_dir;
	char **name; /* documented here; taken out of argv by pl_cmp_cli_split() */
	char **set;
};

/* The string lists pl_cmd_parse allocated. */
static void compare_opts_free(struct compare_opts *o)
{
	free(o->metric);
	free(o->param);
	free(o->name);
	free(o->set);
}

/* The settings' values before and after (compare/output.h), freed at scope exit. */
struct originals {
	struct pl_cmp_original *v;
	size_t n;
};

static void originals_free(struct originals *o)
{
	pl_cmp_originals_free(o->v, o->n);
}

static const char *const aggregate_names[] = { "none", "geomean", NULL };

static const struct pl_opt compare_opts[] = {
	{ "name", 'n', PL_OPT_STRLIST, offsetof(struct compare_opts, name), "NAME",
	  "start a variant: -n NAME [--set KEY=VALUE]... -- CMD ARGS... or -n NAME 'CMD ARGS' "
	  "(the first variant is the baseline)" },
	{ "set", 0, PL_OPT_STRLIST, offsetof(struct compare_opts, set), "KEY=VALUE",
	  "after -n NAME: a variant key as in the INI file (env.X=1, cwd=tmpfs, cpus=0, "
	  "sysctl.K=V...)" },
	{ "experiment", 0, PL_OPT_STR, offsetof(struct compare_opts, experiment), "FILE",
	  "variants from an INI file: one [section] per variant, the first is the baseline",
	  .was_short = 'e' },
	{ "runs", 'r', PL_OPT_INT, offsetof(struct compare_opts, runs), "N",
	  "measured rounds (each runs every variant once)", .min = 1, .max = 1000000,
	  .def = "10 unless --precision" },
	{ "warmup", 'w', PL_OPT_INT, offsetof(struct compare_opts, warmup), "N",
	  "warm-up rounds, run and discarded", .min = 0, .max = 1000000, .def = "1" },
	{ "seed", 0, PL_OPT_STR, offsetof(struct compare_opts, seed), "N",
	  "seed of the random round order (recorded in the output)", .def = "from the clock" },
	{ "precision", 0, PL_OPT_STR, offsetof(struct compare_opts, precision), "P%",
	  "adaptive: add rounds until every CI half-width is under P% (see --max-runs, "
	  "--max-time)",
	  .was_short = 'p' },
	{ "max-runs", 0, PL_OPT_INT, offsetof(struct compare_opts, max_runs), "N",
	  "adaptive: at most N measured rounds", .min = 5, .max = 1000000, .def = "100" },
	{ "max-time", 0, PL_OPT_DURATION, offsetof(struct compare_opts, max_time), "T",
	  "adaptive: stop after T (e.g. 10m)" },
	{ "threshold", 0, PL_OPT_STR, offsetof(struct compare_opts, threshold), "D%",
	  "smallest change that matters", .def = "1%", .was_short = 't' },
	{ "metric", 'm', PL_OPT_STRLIST, offsetof(struct compare_opts, metric), "NAME=REGEX",
	  "also compare a number parsed from the output (first capture group; repeatable)" },
	{ "higher-is-better", 0, PL_OPT_FLAG, offsetof(struct compare_opts, higher), NULL,
	  "larger --metric values are better (scores, throughput)" },
	{ "aggregate", 0, PL_OPT_ENUM, offsetof(struct compare_opts, aggregate), "HOW",
	  "combine all --metric values of a run into one (SPEC-style geometric mean)",
	  aggregate_names, .def = "none" },
	{ "param", 'P', PL_OPT_STRLIST, offsetof(struct compare_opts, param), "NAME=v1,v2",
	  "expand {NAME} in the variants (cartesian product when repeated)" },
	{ "shell", 0, PL_OPT_FLAG, offsetof(struct compare_opts, shell), NULL,
	  "run commands through /bin/sh -c (default: exec without a shell)" },
	{ "ignore-failure", 'i', PL_OPT_FLAG, offsetof(struct compare_opts, ignore_failure), NULL,
	  "keep going when a command exits non-zero" },
	{ "show-output", 0, PL_OPT_FLAG, offsetof(struct compare_opts, show_output), NULL,
	  "the commands keep perflab's stdin/stdout/stderr (default: /dev/null); the report "
	  "then goes to stderr, or to -o FILE" },
	{ "monitor", 0, PL_OPT_FLAG, offsetof(struct compare_opts, monitor), NULL,
	  "also compare the whole machine during each run: sys_cpu, sys_cpu_max (%), load1, "
	  "ctxt_rate (/s)" },
	{ "stat", 0, PL_OPT_STR, offsetof(struct compare_opts, stat), "METRICS",
	  "also count every run: metrics, metric groups or events as perflab stat -M and -e "
	  "take them, comma-separated (perflab stat --list)" },
	{ "export-markdown", 0, PL_OPT_STR, offsetof(struct compare_opts, md), "FILE",
	  "also write the table and verdicts as Markdown" },
	{ "export-csv", 0, PL_OPT_STR, offsetof(struct compare_opts, csv), "FILE",
	  "also write the statistics as CSV (one row per metric and variant)" },
	{ "state-dir", 0, PL_OPT_STR, offsetof(struct compare_opts, state_dir), "DIR",
	  "where the journal of sysctl/sysfs changes lives", .def = "/var/lib/perflab" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "compare",
	.usage = "perflab compare [options] 'CMD ARGS' 'CMD ARGS'...\n"
		 "       perflab compare [options] -n NAME [--set K=V]... -- CMD... -n NAME -- "
		 "CMD...\n"
		 "       perflab compare [options] --experiment FILE",
	.summary = "Compare variants with repeated, interleaved runs, confidence intervals and "
		   "verdicts.",
	.description =
		"Variants in command-line order, the first is the baseline: a quoted command\n"
		"string is a variant named by its text (hyperfine's habit; a repeat gets ' #2'),\n"
		"-n NAME 'CMD' names one, -n NAME -- CMD ARGS... gives its words as they are.\n"
		"Command strings (and INI command=) are split into words like a shell would,\n"
		"without expansion, and run without a shell, so no shell start-up is measured;\n"
		"one with shell syntax (| > ; $ * ...) is refused unless --shell, which runs\n"
		"every command with /bin/sh -c (hyperfine's default; its -N is our default).\n"
		"Each round runs every variant once in a random order from --seed; warm-up rounds\n"
		"are discarded. Per run: wall time (CLOCK_MONOTONIC), user/sys CPU, max RSS, page\n"
		"faults and context switches of that child (wait4), and --metric values. Variant\n"
		"keys (INI or --set): command, env.NAME, cwd (or cwd=tmpfs), cpus, membind,\n"
		"sysctl.NAME, sysfs./sys/PATH, profile, prepare, cleanup (per run), setup,\n"
		"teardown (per variant). sysctl/sysfs values are applied before each run of the\n"
		"variant and restored after it, also after a failure or Ctrl-C; the output gives\n"
		"each one's value before the first run and after the last, and the environment\n"
		"(kernel, CPU, governor, clocksource, THP, mitigations, load, steal) as bench "
		"does.\n"
		"--stat METRICS counts each run from its exec with its children (perf_event_open,\n"
		"as perflab stat -- CMD does; the child is then started with fork and held until\n"
		"its counters are open): each metric and event gets a median, CI and verdict as\n"
		"the times do; one this machine cannot count says 'unavailable: EVENT not on this\n"
		"PMU' once, never a value.\n"
		"Verdicts (vs the first variant): 'slower/faster by x%' with hyperfine's 'N +- s\n"
		"times faster than BASE' (ratio of means, propagated sd), 'difference detected\n"
		"but below the threshold', 'no difference detected' (with what the CI rules out\n"
		"and the runs needed) or 'equivalent within +-D%'; none below 5 runs per variant.\n"
		"A change needs the Mann-Whitney test and the CI to agree. With a value of 0 the\n"
		"ratio of means gets Fieller's CI, never below -100%; user/sys runs that read 0\n"
		"are named as below the 10 ms clock-tick resolution.\n"
		"Ctrl-C (SIGINT) stops after the running command: the statistics of the\n"
		"completed rounds are written, marked interrupted, and the settings restored.\n"
		"Exit status: 0 done, 2 bad input (before any run), 3 a run failed (settings\n"
		"restored), 130 interrupted.",
};

/* The command-line options into @cfg (its statistics defaults already set). Returns 0, or
 * -EINVAL after logging the bad option. */
static int make_config(const struct compare_opts *o, struct pl_cmp_config *cfg)
{
	if (o->name || o->set) {
		pl_error("-n/--set must be followed by '--' and the command (-n NAME -- CMD...)");
		return -EINVAL;
	}
	if (o->runs && o->precision) {
		pl_error("--runs and --precision exclude each other (fixed or adaptive)");
		return -EINVAL;
	}
	if (o->threshold && pl_opt_parse_pct("threshold", o->threshold, &cfg->threshold) < 0)
		return -EINVAL;
	if (o->precision && pl_opt_parse_pct("precision", o->precision, &cfg->precision) < 0)
		return -EINVAL;
	cfg->runs = o->precision ? 0 : (size_t)(o->runs ? o->runs : 10);
	cfg->warmup = (size_t)o->warmup;
	cfg->max_runs = (size_t)o->max_runs;
	cfg->max_time = o->max_time;
	cfg->shell = o->shell;
	cfg->ignore_failure = o->ignore_failure;
	cfg->show_output = o->show_output;
	if (!o->seed)
		cfg->seed = pl_cmp_seed_from_clock();
	else if (pl_parse_u64(o->seed, &cfg->seed) < 0) {
		pl_error("--seed '%s': give a non-negative integer", o->seed);
		return -EINVAL;
	}
	return 0;
}

/* Warn about every setting whose value after the last run differs from the one found. */
static void warn_changed(const struct pl_cmp_original *orig, size_t norig)
{
	for (size_t i = 0; i < norig; i++)
		if (!orig[i].before || !orig[i].after || strcmp(orig[i].before, orig[i].after) != 0)
			pl_warn("%s: '%s' before the first run, '%s' after the last (changed by "
				"something else, or not restored: see 'perflab tune status')",
				orig[i].key, orig[i].before ? orig[i].before : "(unreadable)",
				orig[i].after ? orig[i].after : "(unreadable)");
}

/* -o and the export files checked before any run, so no measurement is lost to a path
 * that cannot be written. 0, or -1 after one error line naming the path and the fix. */
static int check_outputs(const struct compare_opts *o)
{
	char m[512];
	int r = pl_outfile_check(pl_g.output);
	if (r < 0) {
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
		return -1;
	}
	const char *exp[][2] = { { o->md, "--export-markdown" }, { o->csv, "--export-csv" } };
	for (size_t i = 0; i < 2; i++)
		if (exp[i][0] && (r = pl_outfile_check(exp[i][0])) < 0) {
			pl_error("cannot write '%s': %s (choose another %s FILE)", exp[i][0],
				 strerror(-r), exp[i][1]);
			return -1;
		}
	return 0;
}

/* The report of finished session @s to the output and the exports. */
static int write_outputs(const struct compare_opts *o, const struct pl_cmp_session *s,
			 const json_t *env, const struct pl_cmp_original *orig, size_t norig)
{
	pl_cleanup(pl_cmp_report_free) struct pl_cmp_report rep;
	pl_cmp_report_build(&rep, s);
	rep.environment = env;
	rep.originals = orig;
	rep.noriginals = norig;
	/* the output rule (perflab(1), OUTPUT): with --show-output the commands' output owns
	 * stdout, so the report goes to stderr, like strace -c and time, unless -o FILE */
	struct pl_cmp_dest dest = { .path = pl_g.output,
				    .json = pl_g.json,
				    .to_stderr = pl_cmd_report_to_stderr(
					    s->cfg->show_output ? "the commands (--show-output)"
								: NULL) };
	char err[1024] = "";
	if (pl_cmp_write_report(&rep, &dest, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_RUNTIME;
	}
	int ret = PL_EXIT_OK;
	if (o->md && pl_cmp_export(o->md, &rep, pl_cmp_write_markdown, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		ret = PL_EXIT_RUNTIME;
	}
	if (o->csv && pl_cmp_export(o->csv, &rep, pl_cmp_write_csv, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		ret = PL_EXIT_RUNTIME;
	}
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	pl_cleanup(compare_opts_free) struct compare_opts o = { .warmup = 1, .max_runs = 100 };
	pl_cleanup(pl_cmp_cli_free) struct pl_cmp_cli cli = { 0 };
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	pl_cleanup(pl_cmp_experiment_free) struct pl_cmp_experiment e = { 0 };
	pl_cleanup(pl_cmp_session_free) struct pl_cmp_session s = { 0 };
	pl_cleanup(pl_cmp_live_close) struct pl_cmp_live live = { 0 };
	pl_cleanup(pl_cmp_stat_free) struct pl_cmp_stat stat = { 0 };
	struct pl_cmp_config cfg = {
		.alpha = 0.05,
		.level = 0.95,
		.threshold = 0.01,
		.min_runs = 5,
	};
	char err[1024] = "";
	if (pl_cmp_cli_split(argc, argv, &cli, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	int rc = pl_cmd_parse(cli.nrest, cli.rest, &info, compare_opts, &o, &args);
	if (rc >= 0)
		return rc;
	pl_cmp_cli_add_positional(&cli, args.pos, args.npos, argc, argv);
	if (make_config(&o, &cfg) < 0 || check_outputs(&o) < 0)
		return PL_EXIT_USAGE;
	e.shell = o.shell;
	if (pl_cmp_cli_build(&e, o.experiment, &cli, o.param, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	for (size_t i = 0; i < e.n; i++)
		if (e.v[i].note)
			pl_warn("variant '%s': %s", e.v[i].name, e.v[i].note);
	if (pl_cmp_session_init(&s, &cfg, &e, o.metric, o.higher, o.aggregate == 1, err,
				sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	if (o.monitor)
		pl_cmp_session_add_monitor(&s);
	if (o.stat && pl_cmp_stat_init(&stat, &s, o.stat, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	/* from here on, failures are runtime failures, and everything is restored */
	pl_cmp_exec_signals();
	size_t recovered;
	bool bad_input;
	if (pl_cmp_live_open(&live, &e, o.state_dir, &recovered, &bad_input, err, sizeof(err)) <
	    0) {
		pl_error("%s", err);
		return bad_input ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}
	if (recovered)
		pl_warn("restored %zu setting%s left by an interrupted perflab compare", recovered,
			recovered > 1 ? "s" : "");
	/* the values as found, before anything of ours is written (after the recovery) */
	pl_cleanup(originals_free) struct originals orig = { 0 };
	orig.v = pl_cmp_originals_read(&e, &orig.n);
	/* check every setting once (write, restore) so a refused or missing one is an input
	 * error before any run */
	if (pl_cmp_live_try(&live, &e, &bad_input, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return bad_input ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}
	int r = pl_cmp_make_dirs(&e);
	if (r < 0) {
		pl_error("cannot create a private directory for cwd=tmpfs: %s", strerror(-r));
		return PL_EXIT_RUNTIME;
	}
	/* no progress line between the commands' own output */
	struct pl_cmp_progress prog = { .on = isatty(2) && pl_verbosity >= 0 && !cfg.show_output,
					.target = cfg.runs };
	struct pl_cpuset env_cpus;
	bool env_pinned;
	pl_cmp_experiment_cpus(&e, &env_cpus, &env_pinned);
	struct pl_env_snap snap0, snap1;
	pl_env_snap(&snap0, &env_cpus);
	/* no progress function when no line is shown: the session then skips the CI it
	 * would recompute every round for it (O(runs^2) over a --runs N experiment) */
	r = pl_cmp_session_run(&s, pl_cmp_live_exec, &live, prog.on ? pl_cmp_progress_show : NULL,
			       &prog, err, sizeof(err));
	pl_env_snap(&snap1, &env_cpus);
	pl_cmp_progress_end(&prog);
	/* teardown= still runs after Ctrl-C (a second one interrupts it) */
	int sig = pl_cmp_exec_clear_interrupt();
	char ferr[512] = "";
	int fr = pl_cmp_live_finish(&live, &s, ferr, sizeof(ferr));
	pl_cmp_live_close(&live);
	pl_cmp_originals_reread(orig.v, orig.n);
	warn_changed(orig.v, orig.n);
	pl_cmp_cleanup_dirs(&e);
	if (r < 0 && r != -EINTR) {
		pl_error("%s", err);
		if (fr < 0)
			pl_error("%s", ferr);
		return r == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}
	if (fr < 0) {
		pl_error("%s", ferr);
		return PL_EXIT_RUNTIME;
	}
	struct pl_env_during during;
	pl_env_during(&snap0, &snap1, &during);
	pl_autojson json_t *env = pl_env_json(&during, &env_cpus, env_pinned);
	int ret = write_outputs(&o, &s, env, orig.v, orig.n);
	if (r == -EINTR) {
		/* bench, report and monitor's convention: keep what finished, exit 130 */
		pl_warn("interrupted by signal %d after %zu of %s%zu rounds: system settings "
			"restored, the statistics of the completed rounds written",
			sig, s.measured, cfg.runs ? "" : "at most ",
			cfg.runs ? cfg.runs : cfg.max_runs);
		if (ret == PL_EXIT_OK)
			ret = PL_EXIT_INTERRUPTED;
	}
	return ret;
}
