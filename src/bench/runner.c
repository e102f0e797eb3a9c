/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runner: everything a benchmark gets for free (see bench.h). This file holds the
 * runner's options, the run loop (pinning, --membind, signals, warm-up and repetitions,
 * the progress bar) and the entry points that parse arguments and run; what a benchmark
 * calls during its run is in api.c, the result document and its table in result.c. The
 * shape follows Linux perf's builtin-bench.c (a table of benchmarks with shared
 * repeat/format options) and fio's typed option tables; the statistics come from
 * stats/summary.c. */
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/env.h"
#include "bench/internal.h"
#include "util/json.h"
#include "stats/settle.h"
#include "stats/summary.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

/* ---- runner options (shared by every benchmark) ---- */

static const char *const bench_formats[] = { "text", "json", "prom", NULL };

const struct pl_opt pl_bench_runner_opts[] = {
	{ "runs", 'r', PL_OPT_INT, offsetof(struct pl_bench_run_opts, runs), "N",
	  "measured repetitions (default: per benchmark; with --min-time: at least N)", .min = 1,
	  .max = 1000000, .was_short = 'n' },
	{ "min-time", 0, PL_OPT_DURATION, offsetof(struct pl_bench_run_opts, min_time), "S",
	  "repeat until S of measured time has passed (e.g. 10s)", .min = 0, .max = 86400 },
	{ "precision", 0, PL_OPT_STR, offsetof(struct pl_bench_run_opts, precision_arg), "P%",
	  "repeat until each headline metric's 95% CI of the median is within P% of it "
	  "(0 < P <= 50; leading runs that have not settled are dropped; see --max-time)" },
	{ "max-time", 0, PL_OPT_DURATION, offsetof(struct pl_bench_run_opts, max_time), "S",
	  "start no run after S of runs (--precision: reached or not; bench net --server: the "
	  "longest test a client may ask, 60s by default)",
	  .min = 0.001, .max = 86400, .def = "60s with --precision" },
	{ "warmup", 'w', PL_OPT_INT, offsetof(struct pl_bench_run_opts, warmup), "N",
	  "repetitions run first and discarded (default: per benchmark)", .min = 0, .max = 1000 },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct pl_bench_run_opts, cpus), "LIST",
	  "run on these online CPUs, pinned (default: the allowed CPUs, unpinned)",
	  .was_short = 'c' },
	{ "membind", 0, PL_OPT_STR, offsetof(struct pl_bench_run_opts, membind), "NODES",
	  "allocate memory only on these NUMA nodes (libnuma numa_set_membind)" },
	{ "list", 'l', PL_OPT_FLAG, offsetof(struct pl_bench_run_opts, list), NULL,
	  "list the benchmarks and whether they run here" },
	{ "quick", 0, PL_OPT_FLAG, offsetof(struct pl_bench_run_opts, quick), NULL,
	  "a brief run with the benchmark's quick arguments (later options override them)" },
	{ "histogram", 0, PL_OPT_FLAG, offsetof(struct pl_bench_run_opts, histogram), NULL,
	  "add each latency histogram's non-empty buckets to the JSON (latency_ns.buckets: "
	  "[lowest, highest, count]), to pool runs or recompute any percentile" },
	{ "format", 'f', PL_OPT_ENUM, offsetof(struct pl_bench_run_opts, format), "FMT",
	  "output format; prom = Prometheus text format for node_exporter's textfile collector "
	  "(--json is --format json)",
	  bench_formats, .def = "text" },
	PL_OPT_END,
};

/* ---- signals: SIGINT/SIGTERM during a run ---- */

static volatile sig_atomic_t g_stop;
static void (*volatile g_emergency)(void);

static void on_signal(int sig)
{
	if (g_stop) {
		/* Second signal: the benchmark did not stop; undo system changes and die. */
		if (g_emergency)
			g_emergency();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	g_stop = sig > 0 ? sig : 1;
}

int pl_bench_stop_signal(void)
{
	return g_stop;
}

void pl_bench_set_emergency(void (*fn)(void))
{
	g_emergency = fn;
}

bool pl_bench_stopped(const struct pl_bench_ctx *c)
{
	(void)c;
	return g_stop != 0;
}

/* ---- the metrics of a run ---- */

/* Commit the repetition that just finished (or drop it). */
static void commit(struct pl_bench_ctx *c, bool keep)
{
	for (size_t i = 0; i < c->nm; i++) {
		struct metric *m = &c->m[i];
		if (keep && !isnan(m->cur)) {
			if (m->n == m->cap) {
				m->cap = m->cap ? 2 * m->cap : 16;
				m->v = pl_xrealloc(m->v, m->cap * sizeof(double));
			}
			m->v[m->n++] = m->cur;
		}
		if (keep && m->stage) {
			if (c->hold_lead && m->nlead < PL_BENCH_WARMUP_MAX_DROP) {
				/* held back until the warm-up rule has spoken */
				struct pl_hist *h = pl_xcalloc(1, sizeof(*h));
				pl_hist_init(h, m->stage->bits);
				pl_hist_merge(h, m->stage);
				m->lead[m->nlead++] = h;
			} else {
				pl_hist_merge(m->total, m->stage);
			}
		}
		if (m->stage)
			pl_hist_reset(m->stage);
		m->cur = NAN;
	}
}

static void ctx_free(struct pl_bench_ctx *c)
{
	for (size_t i = 0; i < c->nm; i++) {
		struct metric *m = &c->m[i];
		free(m->name);
		free(m->unit);
		free(m->help);
		free(m->v);
		json_decref(m->notes);
		pl_hist_free(m->stage);
		pl_hist_free(m->total);
		free(m->stage);
		free(m->total);
		for (size_t j = 0; j < m->nlead; j++) {
			pl_hist_free(m->lead[j]);
			free(m->lead[j]);
		}
	}
	free(c->m);
	json_decref(c->info);
	json_decref(c->notes);
	json_decref(c->warnings);
}

/* ---- validation of --cpus and --membind ---- */

static int resolve_cpus(const struct pl_bench_run_opts *ro, struct pl_cpuset *out, char *err,
			size_t errlen)
{
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		snprintf(err, errlen, "cannot read the CPU affinity: %s", strerror(errno));
		return PL_EXIT_RUNTIME;
	}
	struct pl_cpuset a;
	pl_cpuset_clear(&a);
	for (unsigned i = 0; i < CPU_SETSIZE && i < PL_MAX_CPUS; i++)
		if (CPU_ISSET(i, &allowed))
			pl_cpuset_set(&a, i);
	if (!ro->cpus) {
		*out = a;
		return 0;
	}
	struct pl_cpuset want;
	pl_cpuset_parse(ro->cpus, &want); /* syntax checked by the option parser */
	if (pl_cpuset_check_online("--cpus", ro->cpus, err, errlen) < 0)
		return PL_EXIT_USAGE;
	char buf[256];
	for (int c = pl_cpuset_next(&want, 0); c >= 0; c = pl_cpuset_next(&want, (unsigned)c + 1)) {
		if (!pl_cpuset_isset(&a, (unsigned)c)) {
			snprintf(
				err, errlen,
				"--cpus '%s': CPU %d is not allowed for this process (allowed: %s; "
				"see taskset/cgroup cpuset)",
				ro->cpus, c, pl_cpuset_format(&a, buf, sizeof(buf)));
			return PL_EXIT_USAGE;
		}
	}
	*out = want;
	return 0;
}

int pl_bench_cpus_check(const char *list, char *err, size_t errlen)
{
	struct pl_bench_run_opts ro = { .cpus = list };
	struct pl_cpuset set;
	return resolve_cpus(&ro, &set, err, errlen);
}

static int resolve_membind(const char *nodes, struct bitmask **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!nodes)
		return 0;
	struct pl_cpuset set;
	if (pl_cpuset_parse(nodes, &set) < 0 || pl_cpuset_count(&set) == 0) {
		snprintf(err, errlen, "--membind '%s' is not a node list (use e.g. 0 or 0-1)",
			 nodes);
		return PL_EXIT_USAGE;
	}
	if (numa_available() < 0) {
		snprintf(err, errlen,
			 "--membind: NUMA is not available on this kernel (drop the "
			 "option)");
		return PL_EXIT_RUNTIME;
	}
	int maxnode = numa_max_node();
	struct bitmask *bm = numa_allocate_nodemask();
	for (int n = pl_cpuset_next(&set, 0); n >= 0; n = pl_cpuset_next(&set, (unsigned)n + 1)) {
		char path[64];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (n > maxnode || !pl_exists(path)) {
			/* the nodes there are, as a list: "0" on a one-node machine, "0,2" with
			 * a gap */
			struct pl_cpuset have;
			pl_cpuset_clear(&have);
			for (int k = 0; k <= maxnode && k < PL_MAX_CPUS; k++) {
				snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", k);
				if (pl_exists(path))
					pl_cpuset_set(&have, (unsigned)k);
			}
			char list[256];
			pl_cpuset_format(&have, list, sizeof(list));
			snprintf(err, errlen,
				 "--membind '%s': node %d does not exist (nodes: %s; give "
				 "nodes from that list)",
				 nodes, n, list);
			numa_free_nodemask(bm);
			return PL_EXIT_USAGE;
		}
		numa_bitmask_setbit(bm, (unsigned)n);
	}
	*out = bm;
	return 0;
}

/* ---- progress bar ---- */

static void progress(FILE *f, const char *name, bool warm, size_t done, size_t want, double elapsed,
		     double min_time)
{
	/* want 0 (--precision): the share of the time limit @min_time */
	double frac = want ? (double)done / (double)want : min_time > 0 ? elapsed / min_time : 0;
	if (min_time > 0 && elapsed / min_time < frac)
		frac = elapsed / min_time;
	if (frac > 1)
		frac = 1;
	int w = 30, k = (int)(frac * w);
	fprintf(f, "\r%s: %s %zu [", name, warm ? "warm-up" : "run", done + (warm ? 0 : 1));
	for (int i = 0; i < w; i++)
		fputc(i < k ? '#' : '.', f);
	fprintf(f, "] %3.0f%%", frac * 100);
	fflush(f);
}

/* ---- one run of a benchmark ---- */

struct run_args {
	const struct pl_bench *b;
	void *opts;
	const struct pl_bench_run_opts *ro;
	bool quick, show_progress;
	int nargs; /* the arguments the report gave, for runner.args; 0 = none */
	char *const *args;
};

/* What run_bench() changes in the process and puts back. */
struct saved {
	cpu_set_t aff;
	bool aff_saved;
	struct bitmask *membind, *bind; /* --membind's mask; the policy before it */
	struct sigaction old_int, old_term;
};

static void restore(struct saved *rs)
{
	pl_bench_set_emergency(NULL);
	sigaction(SIGINT, &rs->old_int, NULL);
	sigaction(SIGTERM, &rs->old_term, NULL);
	if (rs->bind) {
		numa_set_membind(rs->bind);
		numa_free_nodemask(rs->bind);
	}
	if (rs->membind)
		numa_free_nodemask(rs->membind);
	if (rs->aff_saved)
		sched_setaffinity(0, sizeof(rs->aff), &rs->aff);
}

/* Run @a->b; *out gets the result document (also for skips and after SIGINT, NULL after a
 * usage error). Returns an exit code; @err gets the message for codes 2 and 3. */
static int run_bench(const struct run_args *a, json_t **out, char *err, size_t errlen)
{
	const struct pl_bench *b = a->b;
	*out = NULL;
	err[0] = '\0';
	if (!pl_sysroot_is_live()) {
		snprintf(err, errlen, "benchmarks measure the live system; drop --sysroot");
		return PL_EXIT_USAGE;
	}
	struct pl_bench_ctx c = {
		.b = b, .quick = a->quick, .workdir = a->ro->workdir, .max_time = a->ro->max_time
	};
	int rc = resolve_cpus(a->ro, &c.cpus, err, errlen);
	if (rc)
		return rc;
	c.pinned = a->ro->cpus != NULL;
	struct bitmask *membind = NULL;
	if ((rc = resolve_membind(a->ro->membind, &membind, err, errlen)))
		return rc;

	char reason[256] = "";
	if (b->supported && b->supported(a->opts, reason, sizeof(reason)) < 0) {
		json_t *d = pl_bench_doc_new(b, "skipped");
		json_object_set_new(d, "reason", pl_json_string(reason));
		*out = d;
		snprintf(err, errlen, "%s is not supported here: %s", b->name, reason);
		if (membind)
			numa_free_nodemask(membind);
		return PL_EXIT_RUNTIME;
	}

	c.info = json_object();
	c.notes = json_array();
	c.warnings = json_array();
	struct saved rs = { .membind = membind };
	rs.aff_saved = sched_getaffinity(0, sizeof(rs.aff), &rs.aff) == 0;
	if (!b->uses_all_cpus && c.pinned) {
		cpu_set_t s;
		CPU_ZERO(&s);
		for (int i = pl_cpuset_next(&c.cpus, 0); i >= 0 && i < CPU_SETSIZE;
		     i = pl_cpuset_next(&c.cpus, (unsigned)i + 1))
			CPU_SET(i, &s);
		if (sched_setaffinity(0, sizeof(s), &s) < 0) {
			snprintf(err, errlen, "--cpus '%s': cannot pin: %s", a->ro->cpus,
				 strerror(errno));
			ctx_free(&c);
			if (membind)
				numa_free_nodemask(membind);
			return PL_EXIT_USAGE;
		}
	}
	if (membind) {
		rs.bind = numa_get_membind();
		numa_set_membind(membind);
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	g_stop = 0;
	sigaction(SIGINT, &sa, &rs.old_int);
	sigaction(SIGTERM, &sa, &rs.old_term);

	struct pl_env_snap s0, s1;
	pl_env_snap(&s0, &c.cpus);
	uint64_t t_wall = pl_now_ns();
	bool adaptive = a->ro->precision > 0;
	c.hold_lead = adaptive;
	if (b->standalone) {
		int sr = b->standalone(&c, a->opts);
		if (sr != -ENOENT) {
			restore(&rs);
			snprintf(err, errlen, "%s", c.err[0] ? c.err : "failed");
			ctx_free(&c);
			return sr;
		}
	}
	void *state = NULL;
	int r = b->setup ? b->setup(&c, a->opts, &state) : 0;
	size_t want = pl_bench_planned_runs(b, a->ro);
	size_t warm = pl_bench_planned_warmup(b, a->ro);
	size_t done = 0, dropped = 0;
	bool interrupted = false;
	bool past_share = false; /* went on past max_time on the runs' projection */
	enum pl_bench_stop stop = PL_BENCH_STOP_NONE;
	uint64_t t_first = 0, t_last = 0, t_run0 = 0;
	if (r == 0) {
		if (adaptive)
			pl_bench_mark_headline(&c);
		for (size_t i = 0;; i++) {
			if (g_stop) {
				interrupted = true;
				break;
			}
			c.warming = i < warm;
			double el = t_first ? (double)(pl_now_ns() - t_first) / 1e9 : 0;
			if (a->show_progress && adaptive)
				progress(stderr, b->name, c.warming, done, 0,
					 t_run0 ? (double)(pl_now_ns() - t_run0) / 1e9 : 0,
					 a->ro->max_time);
			else if (a->show_progress)
				progress(stderr, b->name, c.warming, done, want, el,
					 a->ro->min_time);
			if (!t_run0)
				t_run0 = pl_now_ns();
			if (!c.warming && !t_first)
				t_first = pl_now_ns();
			r = b->run(&c, a->opts, state);
			bool stopped = g_stop || r == -EINTR;
			commit(&c, r == 0 && !stopped && !c.warming);
			if (stopped) {
				interrupted = true;
				r = 0;
				break;
			}
			if (r < 0)
				break;
			if (c.warming)
				continue;
			done++;
			t_last = pl_now_ns();
			if (adaptive) {
				/* elapsed since the first run, fixed warm-up included: --max-time
				 * bounds the time the runs take; a share of the report's budget
				 * counts from before setup, so setup is part of it */
				double worst = pl_bench_precision_eval(&c, &dropped);
				uint64_t from = a->ro->max_time_report ? t_wall : t_run0;
				double spent = (double)(t_last - from) / 1e9;
				stop = pl_bench_stop_rule(a->ro, done - dropped, done, worst, spent,
							  (double)(t_last - t_first) / 1e9 /
								  (double)done);
				if (stop != PL_BENCH_STOP_NONE)
					break;
				if (a->ro->max_time > 0 && spent >= a->ro->max_time &&
				    done >= PL_BENCH_PRECISION_FLOOR_RUNS)
					past_share = true;
				continue;
			}
			if (done >= want && (double)(t_last - t_first) / 1e9 >= a->ro->min_time)
				break;
			if (a->ro->max_time > 0 && done < want &&
			    (double)(t_last - t_run0) / 1e9 >= a->ro->max_time) {
				pl_bench_note(&c, "--max-time %g s reached after %zu of %zu runs",
					      a->ro->max_time, done, want);
				break;
			}
		}
		if (adaptive) {
			if (interrupted)
				stop = PL_BENCH_STOP_INTERRUPTED;
			pl_bench_precision_eval(&c, &dropped);
			pl_bench_lead_merge(&c, dropped);
		}
		if (a->show_progress)
			fputs("\r\033[K", stderr);
		if (b->teardown)
			b->teardown(&c, a->opts, state);
	}
	pl_env_snap(&s1, &c.cpus);
	restore(&rs);

	if (r < 0) {
		snprintf(err, errlen, "%s", c.err[0] ? c.err : strerror(-r));
		ctx_free(&c);
		return r == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}

	json_t *d = pl_bench_doc_new(b, c.invalid[0]  ? "failed"
					: interrupted ? "interrupted"
						      : "ok");
	if (c.summary)
		json_object_set_new(d, "summary", pl_json_string(c.summary));
	if (c.invalid[0]) {
		json_object_set_new(d, "reason", pl_json_string(c.invalid));
		snprintf(err, errlen, "%s", c.invalid);
	}
	char buf[256];
	json_t *rj = json_object();
	json_object_set_new(rj, "runs", json_integer((json_int_t)(done - dropped)));
	json_object_set_new(rj, "runs_requested", json_integer((json_int_t)want));
	json_object_set_new(rj, "warmup", json_integer((json_int_t)warm));
	json_object_set_new(rj, "min_time_s", json_real(a->ro->min_time));
	json_object_set_new(rj, "elapsed_s",
			    json_real(t_last > t_first ? (double)(t_last - t_first) / 1e9 : 0));
	json_object_set_new(rj, "cpus",
			    pl_json_string(pl_cpuset_format(&c.cpus, buf, sizeof(buf))));
	/* pinned by --cpus (the runner), or by the benchmark itself, one thread per CPU */
	bool pinned = c.pinned || b->pins_threads || c.self_pinned;
	json_object_set_new(rj, "pinned", json_boolean(pinned));
	double max_cv = b->max_cv > 0 ? b->max_cv : 0.05;
	json_object_set_new(rj, "max_cv", json_real(max_cv));
	json_object_set_new(rj, "membind",
			    a->ro->membind ? pl_json_string(a->ro->membind) : json_null());
	json_object_set_new(rj, "quick", json_boolean(a->quick));
	if (adaptive) {
		json_t *pj = pl_bench_precision_json(&c, a->ro, stop, done - dropped, dropped,
						     (double)(pl_now_ns() - t_wall) / 1e9);
		if (a->ro->max_time_report && a->ro->max_time_cap > 0) {
			/* a share of the report's budget: how far the runs went on past it on
			 * their projection (a last run that ends past it is not that) */
			double spent = t_last > t_wall ? (double)(t_last - t_wall) / 1e9 : 0;
			json_object_set_new(pj, "max_time_cap_s", json_real(a->ro->max_time_cap));
			json_object_set_new(
				pj, "extended_s",
				json_real(past_share ? fmax(0, spent - a->ro->max_time) : 0));
		}
		json_object_set_new(rj, "precision", pj);
	}
	if (a->args) {
		json_t *av = json_array();
		for (int i = 0; i < a->nargs; i++)
			json_array_append_new(av, pl_json_string(a->args[i]));
		json_object_set_new(rj, "args", av);
	}
	json_object_set_new(d, "runner", rj);
	json_object_set_new(d, "options", pl_bench_opts_json(b->opts, a->opts));
	json_object_set(d, "info", c.info);
	json_object_set(d, "notes", c.notes);
	json_t *ms = json_array();
	struct pl_buf wide = { 0 };
	size_t nwide = 0;
	for (size_t i = 0; i < c.nm; i++) {
		json_array_append_new(ms, pl_bench_metric_json(&c.m[i], a->ro->histogram));
		struct pl_summary sm;
		pl_summary_compute(&sm, c.m[i].v, c.m[i].n);
		char *sp = pl_bench_spread_caveat((long long)sm.n, sm.cv, max_cv);
		if (sp) {
			free(sp);
			pl_buf_printf(&wide, "%s%s (%.0f%%)", nwide ? ", " : "", c.m[i].name,
				      sm.cv * 100);
			nwide++;
		}
	}
	/* the caveats the report gives each figure (pl_bench_spread_caveat(),
	 * pl_bench_runs_caveat()), also with --precision: a median's interval can be narrow
	 * while the runs spread wide */
	if (nwide)
		pl_bench_warn(&c,
			      "spread too wide to trust for %zu of %zu metrics (stddev/mean above "
			      "%.0f%%): %s; rerun on an idle machine or with %s",
			      nwide, c.nm, max_cv * 100, wide.data,
			      adaptive ? "a longer --max-time" : "more --runs");
	if (c.nm && !c.invalid[0] && !interrupted) {
		char *few = pl_bench_runs_caveat((long long)(done - dropped), true, NULL);
		if (few)
			pl_bench_warn(&c, "%s", few);
		free(few);
	}
	pl_buf_free(&wide);
	json_object_set_new(d, "metrics", ms);
	pl_bench_reference_share(c.info, ms);
	struct pl_env_during during;
	pl_env_during(&s0, &s1, &during);
	json_object_set_new(d, "environment", pl_env_json(&during, &c.cpus, pinned));
	if (isfinite(during.others_busy_pct) && during.others_busy_pct > 10)
		pl_bench_warn(&c,
			      "machine not idle: other tasks used %.0f%% of CPUs %s during the run "
			      "(load average %.2f -> %.2f)",
			      during.others_busy_pct, pl_cpuset_format(&c.cpus, buf, sizeof(buf)),
			      during.load_start, during.load_end);
	if (isfinite(during.steal_pct) && during.steal_pct > 5)
		pl_bench_warn(&c, "the hypervisor stole %.0f%% of the CPU time during the run",
			      during.steal_pct);
	if (interrupted && adaptive)
		pl_bench_warn(&c, "interrupted: %zu runs measured", done);
	else if (interrupted)
		pl_bench_warn(&c, "interrupted: %zu of %zu runs measured", done, want);
	if (stop == PL_BENCH_STOP_MAX_TIME || stop == PL_BENCH_STOP_MAX_RUNS) {
		char *line = pl_bench_precision_text(json_object_get(rj, "precision"));
		pl_bench_warn(&c, "precision not reached: %s", line);
		free(line);
	}
	json_object_set(d, "warnings", c.warnings);
	bool invalid = c.invalid[0] != '\0';
	ctx_free(&c);
	*out = d;
	return invalid ? PL_EXIT_RUNTIME : interrupted ? PL_BENCH_EXIT_INTERRUPTED : PL_EXIT_OK;
}

int pl_bench_run(const struct pl_bench *b, void *opts, const struct pl_bench_run_opts *ro,
		 bool show_progress, json_t **out, char *err, size_t errlen)
{
	struct run_args ra = { b, opts, ro, ro->quick, show_progress };
	return run_bench(&ra, out, err, errlen);
}

void *pl_bench_opts_new(const struct pl_bench *b)
{
	void *o = pl_xcalloc(1, b->opts_size ? b->opts_size : 1);
	if (b->opts_defaults)
		memcpy(o, b->opts_defaults, b->opts_size);
	return o;
}

void pl_bench_opts_free(const struct pl_bench *b, void *o)
{
	for (const struct pl_opt *t = b->opts; t && t->name; t++)
		if (t->type == PL_OPT_STRLIST)
			free(*(char ***)((char *)o + t->off));
	free(o);
}

int pl_bench_parse_args(const struct pl_bench *b, int argc, char *const *argv, void **opts,
			struct pl_bench_run_opts *ro)
{
	*ro = (struct pl_bench_run_opts){ .warmup = -1 };
	*opts = NULL;
	if (argc < 0 || argc > 62)
		return -EINVAL;
	char *av[64] = { (char *)"bench" };
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	void *o = pl_bench_opts_new(b);
	struct pl_optset sets[2] = { { b->opts, o, "Options" },
				     { pl_bench_runner_opts, ro, "Runner options" } };
	struct pl_args args;
	if (pl_opt_parse(argc + 1, av, sets, 2, "perflab report", &args) != 0) {
		pl_bench_opts_free(b, o);
		return -EINVAL;
	}
	bool extra = args.npos > 0;
	pl_args_free(&args);
	if (extra || pl_bench_run_opts_check(ro, true) < 0) {
		pl_bench_opts_free(b, o);
		return -EINVAL;
	}
	*opts = o;
	return 0;
}

unsigned pl_bench_planned_runs(const struct pl_bench *b, const struct pl_bench_run_opts *ro)
{
	return ro->precision > 0  ? PL_SETTLE_MIN_RUNS
	       : ro->runs > 0	  ? (unsigned)ro->runs
	       : ro->min_time > 0 ? 1
	       : b->default_runs  ? b->default_runs
				  : 5;
}

unsigned pl_bench_planned_warmup(const struct pl_bench *b, const struct pl_bench_run_opts *ro)
{
	return ro->warmup >= 0 ? (unsigned)ro->warmup : b->default_warmup;
}

/* pl_bench_run_args(), with max_time @share_s counted from before setup when > 0, and
 * past it up to @cap_s while the runs project the precision (0: not past). */
static json_t *run_args_share(const struct pl_bench *b, int argc, char *const *argv, bool quick,
			      const char *workdir, double share_s, double cap_s)
{
	struct pl_bench_run_opts ro;
	void *opts = NULL;
	json_t *doc = NULL;
	char err[512] = "the report's arguments for it do not parse (a perflab bug)";
	if (pl_bench_parse_args(b, argc, argv, &opts, &ro) == 0) {
		ro.workdir = workdir;
		if (share_s > 0) {
			ro.max_time = share_s;
			ro.max_time_default = false;
			ro.max_time_report = true;
			ro.max_time_cap = cap_s > share_s ? cap_s : 0;
		}
		static char *const none[] = { NULL }; /* runner.args: [] for the defaults */
		struct run_args ra = { b, opts, &ro, quick, false, argc, argv ? argv : none };
		run_bench(&ra, &doc, err, sizeof(err));
		pl_bench_opts_free(b, opts);
	}
	if (!doc) {
		doc = pl_bench_doc_new(b, "failed");
		json_object_set_new(doc, "reason", pl_json_string(err));
	}
	return doc;
}

json_t *pl_bench_run_args(const struct pl_bench *b, int argc, char *const *argv, bool quick,
			  const char *workdir)
{
	return run_args_share(b, argc, argv, quick, workdir, 0, 0);
}

json_t *pl_bench_run_share(const struct pl_bench *b, int argc, char *const *argv, bool quick,
			   const char *workdir, double share_s, double cap_s)
{
	int n = argc;
	const char *v[argc + 3];
	char t[32];
	for (int k = 0; k < argc; k++)
		v[k] = argv[k];
	snprintf(t, sizeof(t), "%.3fs", share_s < 0.001 ? 0.001 : share_s);
	v[n++] = "--max-time";
	v[n++] = t;
	v[n] = NULL;
	return run_args_share(b, n, (char *const *)v, quick, workdir,
			      share_s < 0.001 ? 0.001 : share_s, cap_s);
}

json_t *pl_bench_run_brief(const struct pl_bench *b, bool full, const char *const *extra)
{
	int argc = 0;
	char *argv[63];
	for (const char *const *p = b->quick_argv; !full && p && *p && argc < 62; p++)
		argv[argc++] = (char *)*p;
	for (const char *const *p = extra; p && *p && argc < 62; p++)
		argv[argc++] = (char *)*p;
	argv[argc] = NULL;
	return pl_bench_run_args(b, argc, argv, !full, NULL);
}
