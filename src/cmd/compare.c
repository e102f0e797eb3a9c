/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab compare: repeated, interleaved A/B experiments with confidence intervals and
 * verdicts (issue 7). Wiring only: variants (compare/experiment.h), the live executor
 * (compare/live.h), rounds (compare/session.h), statistics (compare/analyze.h), outputs
 * (compare/output.h). */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/env.h"
#include "cmd/common.h"
#include "compare/experiment.h"
#include "compare/live.h"
#include "compare/output.h"
#include "compare/session.h"
#include "out/json.h"
#include "util/outfile.h"
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
	const char *md;
	const char *csv;
	const char *state_dir;
	char **name; /* documented here; taken out of argv by split_variants() */
	char **set;
};

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
		"Verdicts (vs the first variant): 'slower/faster by x%', 'difference detected but\n"
		"below the threshold', 'no difference detected' (with what the CI rules out and\n"
		"the runs needed) or 'equivalent within +-D%'; none below 5 runs per variant.\n"
		"Exit status: 0 done, 2 bad input (before any run), 3 a run failed or was\n"
		"interrupted (settings restored).",
};

/* -n NAME [--set K=V]... -- CMD... : is argv[i] the start of such a variant? */
static bool variant_start(int argc, char **argv, int i)
{
	if (strcmp(argv[i], "-n") != 0 && strcmp(argv[i], "--name") != 0)
		return false;
	int k = i + 2;
	if (k > argc)
		return false;
	while (k < argc && strcmp(argv[k], "--set") == 0)
		k += 2;
	return k < argc && strcmp(argv[k], "--") == 0;
}

struct cli_variant {
	const char *name;
	char **sets;
	size_t nsets;
	char **argv;
	size_t nargv;
	const char *cmd; /* a command string: positional, or -n NAME 'CMD' (hyperfine's way) */
	int argi;	 /* where it started in argv: variants keep the command line's order */
	char *auto_name; /* owned: the name of a positional string that is used twice */
};

/* Take the variants (-n NAME [--set K=V]... -- CMD...) out of argv; the rest goes to the
 * option parser in *rest. */
static int split_variants(int argc, char **argv, struct cli_variant **out, size_t *nout,
			  char ***rest, int *nrest)
{
	*rest = pl_xcalloc((size_t)argc + 1, sizeof(char *));
	*nrest = 0;
	(*rest)[(*nrest)++] = argv[0];
	*out = NULL;
	*nout = 0;
	int i = 1;
	while (i < argc) {
		bool named = (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "--name") == 0);
		if (!named) {
			(*rest)[(*nrest)++] = argv[i++];
			continue;
		}
		if (i + 1 >= argc) {
			pl_error("-n needs a variant name: -n NAME -- CMD...");
			return -EINVAL;
		}
		*out = pl_xrealloc(*out, (*nout + 1) * sizeof(**out));
		struct cli_variant *cv = &(*out)[(*nout)++];
		memset(cv, 0, sizeof(*cv));
		cv->name = argv[i + 1];
		cv->argi = i;
		i += 2;
		while (i < argc && strcmp(argv[i], "--set") == 0) {
			if (i + 1 >= argc) {
				pl_error("--set needs KEY=VALUE (e.g. --set "
					 "env.MALLOC_ARENA_MAX=2)");
				return -EINVAL;
			}
			cv->sets = pl_xrealloc(cv->sets, (cv->nsets + 1) * sizeof(char *));
			cv->sets[cv->nsets++] = argv[i + 1];
			i += 2;
		}
		if (i < argc && strcmp(argv[i], "--") == 0) {
			i++;
			while (i < argc && !variant_start(argc, argv, i)) {
				cv->argv = pl_xrealloc(cv->argv, (cv->nargv + 2) * sizeof(char *));
				cv->argv[cv->nargv++] = argv[i++];
				cv->argv[cv->nargv] = NULL;
			}
			if (cv->nargv == 0) {
				pl_error("variant '%s': nothing after '--' (give the command to "
					 "run)",
					 cv->name);
				return -EINVAL;
			}
		} else if (i < argc && argv[i][0] != '-') {
			cv->cmd = argv[i++]; /* -n NAME 'CMD ARGS' */
		}
	}
	(*rest)[*nrest] = NULL;
	return 0;
}

static int cmp_argi(const void *a, const void *b)
{
	const struct cli_variant *x = a, *y = b;
	return (x->argi > y->argi) - (x->argi < y->argi);
}

/* Add the positional command strings @pos (pointers into @argv) to the variants, named by
 * their text (" #2", " #3" for repeats), and order all variants as on the command line. */
static void add_positional(struct cli_variant **cv, size_t *ncv, char **pos, int npos, int argc,
			   char **argv)
{
	for (int k = 0; k < npos; k++) {
		int at = argc;
		for (int i = 1; i < argc; i++)
			if (argv[i] == pos[k]) {
				at = i;
				break;
			}
		*cv = pl_xrealloc(*cv, (*ncv + 1) * sizeof(**cv));
		struct cli_variant *v = &(*cv)[(*ncv)++];
		memset(v, 0, sizeof(*v));
		v->cmd = pos[k];
		v->argi = at;
	}
	if (*ncv > 1)
		qsort(*cv, *ncv, sizeof(**cv), cmp_argi);
}

static void free_cli(struct cli_variant *cv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(cv[i].sets);
		free(cv[i].argv);
		free(cv[i].auto_name);
	}
	free(cv);
}

/* "2%", "2" or "0.5%" -> 0.02 / 0.005; in (0, 100]. */
static int parse_pct(const char *opt, const char *s, double *out)
{
	char *t = pl_xstrdup(s);
	size_t len = strlen(t);
	if (len && t[len - 1] == '%')
		t[len - 1] = '\0';
	double v;
	int r = pl_parse_double(t, &v);
	free(t);
	if (r < 0 || !(v > 0) || v > 100) {
		pl_error("--%s '%s': give a percentage above 0, e.g. 1%%", opt, s);
		return -EINVAL;
	}
	*out = v / 100;
	return 0;
}

struct progress {
	bool on;
	size_t target;
};

static void show_progress(void *ctx, const struct pl_cmp_session *s, double half)
{
	struct progress *p = ctx;
	if (!p->on)
		return;
	char ci[32];
	if (isinf(half) || isnan(half))
		snprintf(ci, sizeof(ci), "n/a");
	else
		snprintf(ci, sizeof(ci), "+-%.2f%%", half * 100);
	if (p->target)
		fprintf(stderr, "\r\033[Kround %zu/%zu  CI half-width %s  %.1f s", s->measured,
			p->target, ci, s->elapsed_s);
	else
		fprintf(stderr,
			"\r\033[Kround %zu (target +-%.2f%%, max %zu)  CI half-width %s  %.1f s",
			s->measured, s->cfg->precision * 100, s->cfg->max_runs, ci, s->elapsed_s);
	fflush(stderr);
}

/* The CPUs the experiment runs on, for its environment: the union of the variants' cpus=
 * when every variant has one (pinned), else the CPUs this process may use. */
static void experiment_cpus(const struct pl_cmp_experiment *e, struct pl_cpuset *set, bool *pinned)
{
	pl_cpuset_clear(set);
	*pinned = e->n > 0;
	for (size_t i = 0; i < e->n; i++)
		*pinned &= e->v[i].has_cpus;
	if (*pinned) {
		for (size_t i = 0; i < e->n; i++)
			for (int c = pl_cpuset_next(&e->v[i].cpuset, 0); c >= 0;
			     c = pl_cpuset_next(&e->v[i].cpuset, (unsigned)c + 1))
				pl_cpuset_set(set, (unsigned)c);
		return;
	}
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return;
	for (unsigned c = 0; c < CPU_SETSIZE && c < PL_MAX_CPUS; c++)
		if (CPU_ISSET(c, &allowed))
			pl_cpuset_set(set, c);
}

static int write_export(const char *path, const struct pl_cmp_report *rep,
			void (*fn)(FILE *, const struct pl_cmp_report *))
{
	struct pl_outfile o;
	int r = pl_outfile_open(&o, path);
	if (r < 0) {
		pl_error("cannot write '%s': %s", path, strerror(-r));
		return r;
	}
	fn(o.fp, rep);
	r = pl_outfile_close(&o, true);
	if (r < 0)
		pl_error("cannot write '%s': %s", path, strerror(-r));
	return r;
}

static int build_experiment(struct compare_opts *o, struct cli_variant *cv, size_t ncv,
			    struct pl_cmp_experiment *e)
{
	char err[1024] = "";
	e->shell = o->shell;
	if (o->experiment && pl_cmp_load_ini(e, o->experiment, err, sizeof(err)) < 0) {
		pl_error("--experiment: %s", err);
		return -EINVAL;
	}
	for (size_t i = 0; i < ncv; i++) {
		if (!cv[i].name) {
			/* a positional string is named by its text; a repeat (A/A) gets " #N" */
			size_t same = 1;
			for (size_t k = 0; k < i; k++)
				same += !cv[k].name && strcmp(cv[k].cmd, cv[i].cmd) == 0;
			if (same > 1)
				cv[i].auto_name = pl_xasprintf("%s #%zu", cv[i].cmd, same);
		}
		const char *name = cv[i].name	     ? cv[i].name
				   : cv[i].auto_name ? cv[i].auto_name
						     : cv[i].cmd;
		struct pl_cmp_variant *v = pl_cmp_add_variant(e, name);
		if (cv[i].cmd &&
		    pl_cmp_variant_set(v, "command", cv[i].cmd, err, sizeof(err)) < 0) {
			pl_error("variant '%s': %s", name, err);
			return -EINVAL;
		}
		if (cv[i].nargv) {
			pl_strv_free(v->argv);
			free(v->command);
			v->command = NULL;
			v->argv = pl_xcalloc(cv[i].nargv + 1, sizeof(char *));
			for (size_t k = 0; k < cv[i].nargv; k++)
				v->argv[k] = pl_xstrdup(cv[i].argv[k]);
			v->argv_given = true;
		}
		for (size_t k = 0; k < cv[i].nsets; k++) {
			const char *kv = cv[i].sets[k];
			const char *eq = strchr(kv, '=');
			if (!eq || eq == kv) {
				pl_error("variant '%s': --set '%s': use KEY=VALUE", name, kv);
				return -EINVAL;
			}
			char *key = pl_xasprintf("%.*s", (int)(eq - kv), kv);
			int r = pl_cmp_variant_set(v, key, eq + 1, err, sizeof(err));
			free(key);
			if (r < 0) {
				pl_error("variant '%s': %s", name, err);
				return r;
			}
		}
	}
	size_t np = 0;
	while (o->param && o->param[np])
		np++;
	struct pl_cmp_param *p = pl_xcalloc(np ? np : 1, sizeof(*p));
	int r = 0;
	for (size_t i = 0; i < np && r == 0; i++)
		if ((r = pl_cmp_param_parse(o->param[i], &p[i], err, sizeof(err))) < 0)
			pl_error("%s", err);
	if (r == 0 && np && (r = pl_cmp_expand_params(e, p, np, err, sizeof(err))) < 0)
		pl_error("%s", err);
	for (size_t i = 0; i < np; i++)
		pl_cmp_param_free(&p[i]);
	free(p);
	if (r < 0)
		return r;
	if ((r = pl_cmp_finalize(e, err, sizeof(err))) < 0) {
		pl_error("%s", err);
		return r;
	}
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i].note)
			pl_warn("variant '%s': %s", e->v[i].name, e->v[i].note);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .warmup = 1, .max_runs = 100 };
	struct cli_variant *cv = NULL;
	size_t ncv = 0;
	char **rest = NULL;
	int nrest = 0;
	int ret = PL_EXIT_USAGE;
	struct pl_args args = { 0 };
	struct pl_cmp_experiment e = { 0 };
	struct pl_cmp_session s = { 0 };
	struct pl_cmp_live live = { 0 };
	struct pl_cmp_original *orig = NULL;
	size_t norig = 0;
	json_t *env = NULL;
	struct pl_cmp_config cfg = {
		.alpha = 0.05,
		.level = 0.95,
		.threshold = 0.01,
		.min_runs = 5,
	};
	if (split_variants(argc, argv, &cv, &ncv, &rest, &nrest) < 0)
		goto out;
	int rc = pl_cmd_parse(nrest, rest, &info, compare_opts, &o, &args);
	if (rc >= 0) {
		ret = rc;
		goto out;
	}
	add_positional(&cv, &ncv, args.pos, args.npos, argc, argv);
	if (o.name || o.set) {
		pl_error("-n/--set must be followed by '--' and the command (-n NAME -- CMD...)");
		goto out;
	}
	if (o.runs && o.precision) {
		pl_error("--runs and --precision exclude each other (fixed or adaptive)");
		goto out;
	}
	if (o.threshold && parse_pct("threshold", o.threshold, &cfg.threshold) < 0)
		goto out;
	if (o.precision && parse_pct("precision", o.precision, &cfg.precision) < 0)
		goto out;
	cfg.runs = o.precision ? 0 : (size_t)(o.runs ? o.runs : 10);
	cfg.warmup = (size_t)o.warmup;
	cfg.max_runs = (size_t)o.max_runs;
	cfg.max_time = o.max_time;
	cfg.shell = o.shell;
	cfg.ignore_failure = o.ignore_failure;
	cfg.show_output = o.show_output;
	if (o.seed) {
		if (pl_parse_u64(o.seed, &cfg.seed) < 0) {
			pl_error("--seed '%s': give a non-negative integer", o.seed);
			goto out;
		}
	} else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		cfg.seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
			   ((uint64_t)getpid() << 16);
		cfg.seed &= 0xffffffffull; /* MT19937 takes 32 bits */
	}
	if (build_experiment(&o, cv, ncv, &e) < 0)
		goto out;
	char err[1024] = "";
	if (pl_cmp_session_init(&s, &cfg, &e, o.metric, o.higher, o.aggregate == 1, err,
				sizeof(err)) < 0) {
		pl_error("%s", err);
		goto out;
	}
	bool settings = false;
	for (size_t i = 0; i < e.n; i++)
		settings |= e.v[i].nsettings > 0;
	/* from here on, failures are runtime failures, and everything is restored */
	ret = PL_EXIT_RUNTIME;
	pl_cmp_exec_signals();
	size_t recovered = 0;
	/* every value checked (type, range, shape) before anything is written */
	if (settings && pl_cmp_sys_check(&e, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		ret = PL_EXIT_USAGE;
		goto out;
	}
	if (settings) {
		int k = pl_cmp_sys_open(o.state_dir, &live.sys, &recovered, err, sizeof(err));
		if (k < 0) {
			pl_error("%s", err);
			ret = k == -EROFS ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
			goto out;
		}
		if (recovered)
			pl_warn("restored %zu setting%s left by an interrupted perflab compare",
				recovered, recovered > 1 ? "s" : "");
	}
	/* the values as found, before anything of ours is written (after the recovery) */
	orig = pl_cmp_originals_read(&e, &norig);
	/* check every setting once (write, restore) so a refused or missing one is an input
	 * error before any run */
	for (size_t i = 0; settings && i < e.n; i++) {
		if (!e.v[i].nsettings)
			continue;
		int k = pl_cmp_sys_apply(live.sys, &e.v[i], err, sizeof(err));
		char rerr[512];
		int k2 = pl_cmp_sys_restore(live.sys, rerr, sizeof(rerr));
		if (k < 0 || k2 < 0) {
			pl_error("%s", k < 0 ? err : rerr);
			ret = k == -ENOENT || k == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
			goto out;
		}
	}
	int r = pl_cmp_make_dirs(&e);
	if (r < 0) {
		pl_error("cannot create a private directory for cwd=tmpfs: %s", strerror(-r));
		goto out;
	}
	/* no progress line between the commands' own output */
	struct progress prog = { .on = isatty(2) && pl_verbosity >= 0 && !cfg.show_output,
				 .target = cfg.runs };
	struct pl_cpuset env_cpus;
	bool env_pinned;
	experiment_cpus(&e, &env_cpus, &env_pinned);
	struct pl_env_snap snap0, snap1;
	pl_env_snap(&snap0, &env_cpus);
	r = pl_cmp_session_run(&s, pl_cmp_live_exec, &live, show_progress, &prog, err, sizeof(err));
	pl_env_snap(&snap1, &env_cpus);
	if (prog.on)
		fputs("\r\033[K", stderr);
	/* teardown= still runs after Ctrl-C (a second one interrupts it) */
	int sig = pl_cmp_exec_clear_interrupt();
	char ferr[512] = "";
	int fr = pl_cmp_live_finish(&live, &s, ferr, sizeof(ferr));
	pl_cmp_sys_close(live.sys);
	live.sys = NULL;
	pl_cmp_originals_reread(orig, norig);
	for (size_t i = 0; i < norig; i++)
		if (!orig[i].before || !orig[i].after || strcmp(orig[i].before, orig[i].after) != 0)
			pl_warn("%s: '%s' before the first run, '%s' after the last (changed by "
				"something else, or not restored: see 'perflab tune status')",
				orig[i].key, orig[i].before ? orig[i].before : "(unreadable)",
				orig[i].after ? orig[i].after : "(unreadable)");
	pl_cmp_cleanup_dirs(&e);
	if (r < 0) {
		if (r == -EINTR)
			pl_error("interrupted by signal %d after %zu rounds: system settings "
				 "restored, "
				 "nothing written",
				 sig, s.measured);
		else
			pl_error("%s", err);
		if (fr < 0)
			pl_error("%s", ferr);
		ret = r == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
		goto out;
	}
	if (fr < 0) {
		pl_error("%s", ferr);
		goto out;
	}
	struct pl_cmp_report rep;
	pl_cmp_report_build(&rep, &s);
	struct pl_env_during during;
	pl_env_during(&snap0, &snap1, &during);
	env = pl_env_json(&during, &env_cpus, env_pinned);
	rep.environment = env;
	rep.originals = orig;
	rep.noriginals = norig;
	/* the output rule (README): with --show-output the commands' output owns stdout, so
	 * the report goes to stderr, like strace -c and time, unless -o FILE */
	bool to_stderr = cfg.show_output && !pl_g.output;
	struct pl_outfile out = { .fp = stderr };
	r = to_stderr ? 0 : pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		pl_error("cannot write '%s': %s", pl_g.output, strerror(-r));
		pl_cmp_report_free(&rep);
		goto out;
	}
	if (pl_g.json) {
		json_t *doc = pl_cmp_to_json(&rep);
		r = pl_json_write(out.fp, doc);
		json_decref(doc);
	} else {
		pl_cmp_print_table(out.fp, &rep);
	}
	if (to_stderr)
		r = fflush(stderr) != 0 || ferror(stderr) || r < 0 ? -EIO : 0;
	if ((!to_stderr && pl_outfile_close(&out, r == 0) < 0) || r < 0) {
		pl_error("cannot write '%s'", pl_g.output ? pl_g.output
					      : to_stderr ? "standard error"
							  : "standard output");
		pl_cmp_report_free(&rep);
		goto out;
	}
	ret = PL_EXIT_OK;
	if (o.md && write_export(o.md, &rep, pl_cmp_write_markdown) < 0)
		ret = PL_EXIT_RUNTIME;
	if (o.csv && write_export(o.csv, &rep, pl_cmp_write_csv) < 0)
		ret = PL_EXIT_RUNTIME;
	pl_cmp_report_free(&rep);
out:
	if (live.sys)
		pl_cmp_sys_close(live.sys);
	pl_cmp_originals_free(orig, norig);
	json_decref(env);
	pl_cmp_session_free(&s); /* zeroed or half-built: both fine */
	pl_cmp_experiment_free(&e);
	pl_args_free(&args);
	free(o.metric);
	free(o.param);
	free(o.name);
	free(o.set);
	free(rest);
	free_cli(cv, ncv);
	return ret;
}
