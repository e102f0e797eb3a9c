/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runner: everything a benchmark gets for free (see bench.h). The shape follows Linux
 * perf's builtin-bench.c (a table of benchmarks with shared repeat/format options) and
 * fio's typed option tables; the statistics come from stats/summary.c. */
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/env.h"
#include "config.h"
#include "facts/facts.h"
#include "util/json.h"
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
	{ "warmup", 0, PL_OPT_INT, offsetof(struct pl_bench_run_opts, warmup), "N",
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

/* ---- context ---- */

struct metric {
	char *name, *unit, *help;
	enum pl_better better;
	double *v; /* committed values, one per measured repetition */
	size_t n, cap;
	double cur; /* value of the repetition in progress, NaN when unset */
	json_t *notes;
	struct pl_hist *stage, *total; /* per-op latencies: this repetition, committed */
};

struct pl_bench_ctx {
	const struct pl_bench *b;
	struct metric *m;
	size_t nm, capm;
	json_t *info, *notes, *warnings;
	char err[512];
	char invalid[512]; /* pl_bench_invalidate(): non-empty = status failed */
	struct pl_cpuset cpus;
	bool pinned, quick, warming;
	bool self_pinned; /* pl_bench_pinned_by_bench() */
};

volatile uint64_t pl_bench_sink;

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

int pl_bench_metric(struct pl_bench_ctx *c, const char *name, const char *unit,
		    enum pl_better better, const char *help)
{
	if (c->nm == c->capm) {
		c->capm = c->capm ? 2 * c->capm : 16;
		c->m = pl_xrealloc(c->m, c->capm * sizeof(*c->m));
	}
	struct metric *m = &c->m[c->nm];
	memset(m, 0, sizeof(*m));
	m->name = pl_xstrdup(name);
	m->unit = pl_xstrdup(unit);
	m->help = help ? pl_xstrdup(help) : NULL;
	m->better = better;
	m->cur = NAN;
	return (int)c->nm++;
}

void pl_bench_metric_note(struct pl_bench_ctx *c, int i, const char *key, const char *value)
{
	if (i < 0 || (size_t)i >= c->nm)
		return;
	if (!c->m[i].notes)
		c->m[i].notes = json_object();
	json_object_set_new(c->m[i].notes, key, pl_json_string(value));
}

void pl_bench_record(struct pl_bench_ctx *c, int i, double value)
{
	if (i >= 0 && (size_t)i < c->nm)
		c->m[i].cur = value;
}

struct pl_hist *pl_bench_hist(struct pl_bench_ctx *c, int i)
{
	if (i < 0 || (size_t)i >= c->nm)
		return NULL;
	struct metric *m = &c->m[i];
	if (!m->stage) {
		m->stage = pl_xcalloc(1, sizeof(*m->stage));
		m->total = pl_xcalloc(1, sizeof(*m->total));
		pl_hist_init(m->stage, PL_HIST_BITS);
		pl_hist_init(m->total, PL_HIST_BITS);
	}
	return m->stage;
}

json_t *pl_bench_info(struct pl_bench_ctx *c)
{
	return c->info;
}

static void append_fmt(json_t *arr, const char *fmt, va_list ap)
{
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	json_array_append_new(arr, pl_json_string(b.data ? b.data : ""));
	pl_buf_free(&b);
}

void pl_bench_note(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append_fmt(c->notes, fmt, ap);
	va_end(ap);
}

void pl_bench_warn(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append_fmt(c->warnings, fmt, ap);
	va_end(ap);
}

void pl_bench_error(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

void pl_bench_invalidate(struct pl_bench_ctx *c, const char *fmt, ...)
{
	if (c->invalid[0])
		return; /* the first reason is the one to fix */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->invalid, sizeof(c->invalid), fmt, ap);
	va_end(ap);
}

bool pl_bench_stopped(const struct pl_bench_ctx *c)
{
	(void)c;
	return g_stop != 0;
}

bool pl_bench_warming_up(const struct pl_bench_ctx *c)
{
	return c->warming;
}

const struct pl_cpuset *pl_bench_cpus(const struct pl_bench_ctx *c)
{
	return &c->cpus;
}

bool pl_bench_pinned(const struct pl_bench_ctx *c)
{
	return c->pinned;
}

void pl_bench_pinned_by_bench(struct pl_bench_ctx *c)
{
	c->self_pinned = true;
}

bool pl_bench_is_quick(const struct pl_bench_ctx *c)
{
	return c->quick;
}

int pl_bench_pin_thread(unsigned cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	int r = sched_setaffinity(0, sizeof(s), &s);
	return r < 0 ? -errno : 0;
}

uint64_t pl_bench_calibrate(pl_bench_loop_fn loop, void *arg, uint64_t target_ns)
{
	uint64_t n = 1;
	for (;;) {
		uint64_t t = loop(arg, n);
		if (t >= target_ns / 8 || n >= (UINT64_C(1) << 40)) {
			/* the fastest of three: a preempted loop would make the count too small */
			for (int k = 0; k < 2; k++) {
				uint64_t t2 = loop(arg, n);
				t = t2 < t ? t2 : t;
			}
			double k = (double)target_ns / (double)(t ? t : 1) * (double)n;
			return k < 1 ? 1 : (uint64_t)k;
		}
		n *= t < target_ns / 100 ? 10 : 2;
	}
}

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
		if (keep && m->stage)
			pl_hist_merge(m->total, m->stage);
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
	}
	free(c->m);
	json_decref(c->info);
	json_decref(c->notes);
	json_decref(c->warnings);
}

/* ---- JSON of a result ---- */

/* A finite number, or null when undefined (schema: "num"). */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *better_name(enum pl_better b)
{
	return b == PL_HIGHER_IS_BETTER ? "higher" : b == PL_LOWER_IS_BETTER ? "lower" : "neither";
}

/* info.reference (a benchmark's reference figure, mem: the DIMM peak): its "share_pct",
 * the named metric's median over the reference value x 100, when both are known. */
static void reference_share(json_t *info, const json_t *ms)
{
	json_t *r = json_object_get(info, "reference");
	const json_t *v = json_object_get(r, "value");
	const char *name = pl_json_str(r, "metric");
	size_t i;
	const json_t *m;
	json_array_foreach(ms, i, m)
	{
		const json_t *med = json_object_get(m, "median");
		if (name && json_is_number(v) && json_number_value(v) > 0 &&
		    strcmp(pl_json_str(m, "name"), name) == 0 && json_is_number(med))
			json_object_set_new(
				r, "share_pct",
				json_real(json_number_value(med) / json_number_value(v) * 100));
	}
}

static json_t *metric_json(const struct metric *m, bool buckets)
{
	struct pl_summary s;
	pl_summary_compute(&s, m->v, m->n);
	json_t *o = json_object();
	json_object_set_new(o, "name", pl_json_string(m->name));
	json_object_set_new(o, "unit", pl_json_string(m->unit));
	json_object_set_new(o, "better", pl_json_string(better_name(m->better)));
	if (m->help)
		json_object_set_new(o, "help", pl_json_string(m->help));
	double best = m->better == PL_HIGHER_IS_BETTER	? s.max
		      : m->better == PL_LOWER_IS_BETTER ? s.min
							: s.median;
	json_object_set_new(o, "best", num_or_null(best));
	json_object_set_new(o, "median", num_or_null(s.median));
	json_object_set_new(o, "mean", num_or_null(s.mean));
	json_object_set_new(o, "stddev", num_or_null(s.stddev));
	json_object_set_new(o, "min", num_or_null(s.min));
	json_object_set_new(o, "max", num_or_null(s.max));
	json_object_set_new(o, "p99", num_or_null(s.p99));
	json_object_set_new(o, "cv", num_or_null(s.cv));
	json_object_set_new(o, "n", json_integer((json_int_t)s.n));
	json_t *arr = json_array();
	for (size_t i = 0; i < m->n; i++)
		json_array_append_new(arr, num_or_null(m->v[i]));
	json_object_set_new(o, "samples", arr);
	if (m->notes)
		json_object_set(o, "notes", m->notes);
	if (m->total && m->total->n) {
		json_t *l = pl_hist_to_json(m->total);
		if (buckets)
			json_object_set_new(l, "buckets", pl_hist_buckets_json(m->total));
		json_object_set_new(o, "latency_ns", l);
	}
	return o;
}

/* The values of a benchmark's options, by name, for the "options" object. */
static json_t *opts_json(const struct pl_opt *t, const void *base)
{
	json_t *o = json_object();
	for (; t && t->name; t++) {
		const char *p = (const char *)base + t->off;
		json_t *v = NULL;
		switch (t->type) {
		case PL_OPT_FLAG:
			v = json_boolean(*(const bool *)p);
			break;
		case PL_OPT_COUNT:
		case PL_OPT_INT:
			v = json_integer(*(const int *)p);
			break;
		case PL_OPT_ENUM: {
			int i = *(const int *)p;
			v = t->choices ? pl_json_string(t->choices[i]) : json_integer(i);
			break;
		}
		case PL_OPT_U64:
		case PL_OPT_SIZE:
			v = json_integer((json_int_t) * (const uint64_t *)p);
			break;
		case PL_OPT_DOUBLE:
		case PL_OPT_DURATION:
			v = json_real(*(const double *)p);
			break;
		case PL_OPT_STR:
		case PL_OPT_CPUS: {
			const char *s = *(const char *const *)p;
			v = s ? pl_json_string(s) : json_null();
			break;
		}
		case PL_OPT_STRLIST: {
			char *const *sv = *(char *const *const *)p;
			v = json_array();
			for (; sv && *sv; sv++)
				json_array_append_new(v, pl_json_string(*sv));
			break;
		}
		}
		json_object_set_new(o, t->name, v);
	}
	return o;
}

static json_t *doc_new(const struct pl_bench *b, const char *status)
{
	char ts[32];
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "benchmark", pl_json_string(b->name));
	json_object_set_new(d, "summary", pl_json_string(b->summary));
	json_object_set_new(d, "status", pl_json_string(status));
	json_object_set_new(d, "generated",
			    pl_json_string(pl_iso8601(pl_now_epoch(), ts, sizeof(ts))));
	json_object_set_new(d, "perflab_version", pl_json_string(PERFLAB_VERSION));
	return d;
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
	struct pl_cpuset want, online;
	pl_cpuset_parse(ro->cpus, &want); /* syntax checked by the option parser */
	char *s = NULL;
	bool have_online = pl_read_str("/sys/devices/system/cpu/online", &s) == 0 &&
			   pl_cpuset_parse(s, &online) == 0;
	free(s);
	char buf[256];
	for (int c = pl_cpuset_next(&want, 0); c >= 0; c = pl_cpuset_next(&want, (unsigned)c + 1)) {
		if (have_online && !pl_cpuset_isset(&online, (unsigned)c)) {
			snprintf(err, errlen,
				 "--cpus '%s': CPU %d is offline or does not exist (online CPUs: "
				 "%s)",
				 ro->cpus, c, pl_cpuset_format(&online, buf, sizeof(buf)));
			return PL_EXIT_USAGE;
		}
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
			snprintf(err, errlen,
				 "--membind '%s': node %d does not exist (nodes: 0-%d)", nodes, n,
				 maxnode);
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
	double frac = want ? (double)done / (double)want : 0;
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
	struct pl_bench_ctx c = { .b = b, .quick = a->quick };
	int rc = resolve_cpus(a->ro, &c.cpus, err, errlen);
	if (rc)
		return rc;
	c.pinned = a->ro->cpus != NULL;
	struct bitmask *membind = NULL;
	if ((rc = resolve_membind(a->ro->membind, &membind, err, errlen)))
		return rc;

	char reason[256] = "";
	if (b->supported && b->supported(a->opts, reason, sizeof(reason)) < 0) {
		json_t *d = doc_new(b, "skipped");
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
	size_t done = 0;
	bool interrupted = false;
	uint64_t t_first = 0, t_last = 0;
	if (r == 0) {
		for (size_t i = 0;; i++) {
			if (g_stop) {
				interrupted = true;
				break;
			}
			c.warming = i < warm;
			double el = t_first ? (double)(pl_now_ns() - t_first) / 1e9 : 0;
			if (a->show_progress)
				progress(stderr, b->name, c.warming, done, want, el,
					 a->ro->min_time);
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
			if (done >= want && (double)(t_last - t_first) / 1e9 >= a->ro->min_time)
				break;
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

	json_t *d = doc_new(b, c.invalid[0] ? "failed" : interrupted ? "interrupted" : "ok");
	if (c.invalid[0]) {
		json_object_set_new(d, "reason", pl_json_string(c.invalid));
		snprintf(err, errlen, "%s", c.invalid);
	}
	char buf[256];
	json_t *rj = json_object();
	json_object_set_new(rj, "runs", json_integer((json_int_t)done));
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
	if (a->args) {
		json_t *av = json_array();
		for (int i = 0; i < a->nargs; i++)
			json_array_append_new(av, pl_json_string(a->args[i]));
		json_object_set_new(rj, "args", av);
	}
	json_object_set_new(d, "runner", rj);
	json_object_set_new(d, "options", opts_json(b->opts, a->opts));
	json_object_set(d, "info", c.info);
	json_object_set(d, "notes", c.notes);
	json_t *ms = json_array();
	struct pl_buf wide = { 0 };
	size_t nwide = 0;
	for (size_t i = 0; i < c.nm; i++) {
		json_array_append_new(ms, metric_json(&c.m[i], a->ro->histogram));
		struct pl_summary sm;
		pl_summary_compute(&sm, c.m[i].v, c.m[i].n);
		if (sm.n >= 3 && isfinite(sm.cv) && sm.cv > max_cv) {
			pl_buf_printf(&wide, "%s%s (%.0f%%)", nwide ? ", " : "", c.m[i].name,
				      sm.cv * 100);
			nwide++;
		}
	}
	if (nwide)
		pl_bench_warn(&c,
			      "spread too wide to trust for %zu of %zu metrics (stddev/mean above "
			      "%.0f%%): %s; rerun on an idle machine or with more --runs",
			      nwide, c.nm, max_cv * 100, wide.data);
	pl_buf_free(&wide);
	json_object_set_new(d, "metrics", ms);
	reference_share(c.info, ms);
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
	if (interrupted)
		pl_bench_warn(&c, "interrupted: %zu of %zu runs measured", done, want);
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

/* ---- human output ---- */

static void fmt_num(char *buf, size_t len, const json_t *v)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double x = json_number_value(v), ax = fabs(x);
	if (ax >= 1e12 || (ax > 0 && ax < 0.001))
		snprintf(buf, len, "%.3g", x);
	else if (ax >= 1e5)
		snprintf(buf, len, "%.0f", x);
	else if (ax >= 100)
		snprintf(buf, len, "%.1f", x);
	else if (ax >= 10)
		snprintf(buf, len, "%.2f", x);
	else
		snprintf(buf, len, "%.3f", x);
}

/* The unit to show a time of @ns nanoseconds in (ns, us, ms, s) and its size in ns. */
static const char *time_unit(double ns, double *div)
{
	static const struct {
		const char *u;
		double ns;
	} units[] = {
		{ "s", 1e9 },
		{ "ms", 1e6 },
		{ "us", 1e3 },
		{ "ns", 1 },
	};
	size_t i = 0;
	while (i + 1 < sizeof(units) / sizeof(units[0]) && fabs(ns) < units[i].ns)
		i++;
	*div = units[i].ns;
	return units[i].u;
}

/* A time in ns, scaled with its unit: "247.3 us", "11.57 ms", "812 ns"; "-" when absent. */
static void fmt_ns(char *buf, size_t len, const json_t *v)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double div, x = json_number_value(v);
	const char *u = time_unit(x, &div);
	snprintf(buf, len, "%.4g %s", x / div, u);
}

bool pl_bench_metric_has_spread(const json_t *m)
{
	return pl_json_int(m, "n") >= 2;
}

const char *pl_bench_metric_tail(const json_t *m, double *value)
{
	*value = NAN;
	const char *better = pl_json_str(m, "better");
	if (!better || !pl_bench_metric_has_spread(m))
		return NULL;
	if (strcmp(better, "lower") == 0) {
		*value = pl_json_num(m, "p99");
		return "p99";
	}
	if (strcmp(better, "higher") != 0)
		return NULL;
	const json_t *s = json_object_get(m, "samples");
	size_t n = 0, i;
	double *v = pl_xcalloc(json_array_size(s) + 1, sizeof(double));
	json_t *x;
	json_array_foreach(s, i, x) if (json_is_number(x)) v[n++] = json_number_value(x);
	if (n >= 2) {
		pl_sort_doubles(v, n);
		*value = pl_quantile_sorted(v, n, 0.01);
	}
	free(v);
	return "p1";
}

const char *pl_bench_info_word(const char *key, const json_t *v)
{
	size_t kl = strlen(key);
	if (json_is_integer(v) && json_integer_value(v) < 0 && kl > 7 &&
	    strcmp(key + kl - 7, "_pinned") == 0)
		return "not pinned";
	return NULL;
}

void pl_bench_print_table(FILE *f, const json_t *d)
{
	const char *B = pl_style(f, "bold"), *D = pl_style(f, "dim"), *R = pl_style(f, "reset");
	const json_t *rj = json_object_get(d, "runner");
	fprintf(f, "%sbench %s%s: %s\n", B, pl_json_str(d, "benchmark"), R,
		pl_json_str(d, "summary"));
	const json_t *info = json_object_get(d, "info");
	const char *workload = pl_json_str(info, "workload");
	if (workload)
		fprintf(f, "%sworkload:%s %s\n", B, R, workload);
	long long runs = (long long)json_integer_value(json_object_get(rj, "runs"));
	fprintf(f, "%lld run%s (+%lld warm-up) in %.2f s on CPUs %s (%s)%s\n", runs,
		runs == 1 ? "" : "s", (long long)json_integer_value(json_object_get(rj, "warmup")),
		json_number_value(json_object_get(rj, "elapsed_s")), pl_json_str(rj, "cpus"),
		json_is_true(json_object_get(rj, "pinned")) ? "pinned" : "unpinned",
		strcmp(pl_json_str(d, "status"), "interrupted") == 0 ? ", INTERRUPTED" : "");
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)info, k, v)
	{
		if (strcmp(k, "workload") == 0 || strcmp(k, "reference") == 0)
			continue;
		const char *w = pl_bench_info_word(k, v);
		char *t = w ? pl_xstrdup(w) : pl_fact_value_text(v);
		fprintf(f, "  %s%s:%s %s\n", D, k, R, t);
		free(t);
	}
	const json_t *ms = json_object_get(d, "metrics");
	size_t i, w = 6;
	json_t *m;
	json_array_foreach(ms, i, m)
	{
		size_t l = strlen(pl_json_str(m, "name"));
		if (l > w)
			w = l;
	}
	fprintf(f, "\n%s  %-*s %-6s %10s %10s %10s %9s %13s %4s  %s%s\n", B, (int)w, "metric",
		"unit", "best", "median", "mean", "stddev", "tail", "n", "notes", R);
	bool any_lat = false, any_tail = false;
	json_array_foreach(ms, i, m)
	{
		char c[5][32];
		static const char *const cols[] = { "best", "median", "mean", "stddev" };
		/* times in the unit of their median (a 250 us latency, not 250000 ns) */
		const char *unit = pl_json_str(m, "unit");
		double div = 1;
		if (strcmp(unit, "ns") == 0)
			unit = time_unit(json_number_value(json_object_get(m, "median")), &div);
		for (int j = 0; j < 4; j++) {
			const json_t *x = json_object_get(m, cols[j]);
			json_t *sc =
				json_is_number(x) ? json_real(json_number_value(x) / div) : NULL;
			fmt_num(c[j], sizeof(c[j]), sc ? sc : x);
			json_decref(sc);
		}
		/* the tail that matters: the slow end of a time, the low end of a rate */
		double t;
		const char *tn = pl_bench_metric_tail(m, &t);
		snprintf(c[4], sizeof(c[4]), "-");
		if (tn && isfinite(t)) {
			json_t *sc = json_real(t / div);
			char tv[24];
			fmt_num(tv, sizeof(tv), sc);
			json_decref(sc);
			snprintf(c[4], sizeof(c[4]), "%.23s %.4s", tv, tn);
			any_tail = true;
		}
		fprintf(f, "  %-*s %-6s %10s %10s %10s %9s %13s %4lld  ", (int)w,
			pl_json_str(m, "name"), unit, c[0], c[1], c[2], c[3], c[4],
			(long long)json_integer_value(json_object_get(m, "n")));
		const json_t *notes = json_object_get(m, "notes");
		json_object_foreach((json_t *)notes, k, v)
			fprintf(f, "%s=%s ", k, json_string_value(v));
		fputc('\n', f);
		if (json_object_get(m, "latency_ns"))
			any_lat = true;
	}
	if (any_tail)
		fprintf(f,
			"  %s(tail: over the runs' figures, p99 of a lower-is-better metric, its "
			"slow end, p1 of a higher-is-better one, its low end; percentiles of "
			"single operations are in the latency table)%s\n",
			D, R);
	if (any_lat) {
		fprintf(f, "\n%s  %-*s %10s %10s %10s %10s %10s %10s%s\n", B, (int)w, "latency",
			"p50", "p90", "p99", "p99.9", "max", "ops", R);
		json_array_foreach(ms, i, m)
		{
			const json_t *l = json_object_get(m, "latency_ns");
			if (!l)
				continue;
			char c[5][32];
			static const char *const cols[] = { "p50", "p90", "p99", "p99.9", "max" };
			for (int j = 0; j < 5; j++)
				fmt_ns(c[j], sizeof(c[j]), json_object_get(l, cols[j]));
			fprintf(f, "  %-*s %10s %10s %10s %10s %10s %10lld\n", (int)w,
				pl_json_str(m, "name"), c[0], c[1], c[2], c[3], c[4],
				(long long)json_integer_value(json_object_get(l, "n")));
		}
	}
	const json_t *ref = json_object_get(info, "reference");
	if (ref) {
		const json_t *sh = json_object_get(ref, "share_pct");
		const json_t *rm = NULL, *x;
		json_array_foreach(ms, i, x) if (strcmp(pl_json_str(x, "name"),
							pl_json_str(ref, "metric")) == 0) rm = x;
		if (json_is_number(sh) && rm)
			fprintf(f, "\n%s %.1f %s = %.1f%% of %s %s\n", pl_json_str(ref, "metric"),
				json_number_value(json_object_get(rm, "median")),
				pl_json_str(rm, "unit"), json_number_value(sh),
				pl_json_str(ref, "name"), pl_json_str(ref, "text"));
		else
			fprintf(f, "\n%s %s\n", pl_json_str(ref, "name"), pl_json_str(ref, "text"));
	}
	const json_t *notes = json_object_get(d, "notes");
	if (json_array_size(notes))
		fputc('\n', f);
	json_array_foreach(notes, i, v) fprintf(f, "note: %s\n", json_string_value(v));
	char *env = pl_env_text(json_object_get(d, "environment"));
	fprintf(f, "\n%senvironment:%s %s\n", D, R, env);
	free(env);
}

void *pl_bench_opts_new(const struct pl_bench *b)
{
	void *o = pl_xcalloc(1, b->opts_size ? b->opts_size : 1);
	if (b->opts_defaults)
		memcpy(o, b->opts_defaults, b->opts_size);
	return o;
}

/* The benchmarks, whether each runs here (its supported() with default options) and what
 * it measures; a reason or note from supported() follows on its own line. */
void pl_bench_print_list(FILE *f)
{
	fprintf(f, "%-10s %-5s %s\n", "benchmark", "here", "measures");
	for (size_t i = 0; i < pl_nbenches; i++) {
		const struct pl_bench *b = pl_benches[i];
		char reason[256] = "";
		void *o = pl_bench_opts_new(b);
		bool ok = !b->supported || b->supported(o, reason, sizeof(reason)) == 0;
		free(o);
		fprintf(f, "%-10s %-5s %s\n", b->name, ok ? "yes" : "no", b->summary);
		if (*reason)
			fprintf(f, "%-16s %s%s\n", "", ok ? "note: " : "not here: ", reason);
	}
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
	if (extra) {
		pl_bench_opts_free(b, o);
		return -EINVAL;
	}
	*opts = o;
	return 0;
}

unsigned pl_bench_planned_runs(const struct pl_bench *b, const struct pl_bench_run_opts *ro)
{
	return ro->runs > 0	  ? (unsigned)ro->runs
	       : ro->min_time > 0 ? 1
	       : b->default_runs  ? b->default_runs
				  : 5;
}

unsigned pl_bench_planned_warmup(const struct pl_bench *b, const struct pl_bench_run_opts *ro)
{
	return ro->warmup >= 0 ? (unsigned)ro->warmup : b->default_warmup;
}

json_t *pl_bench_run_args(const struct pl_bench *b, int argc, char *const *argv, bool quick)
{
	struct pl_bench_run_opts ro;
	void *opts = NULL;
	json_t *doc = NULL;
	char err[512] = "the report's arguments for it do not parse (a perflab bug)";
	if (pl_bench_parse_args(b, argc, argv, &opts, &ro) == 0) {
		static char *const none[] = { NULL }; /* runner.args: [] for the defaults */
		struct run_args ra = { b, opts, &ro, quick, false, argc, argv ? argv : none };
		run_bench(&ra, &doc, err, sizeof(err));
		pl_bench_opts_free(b, opts);
	}
	if (!doc) {
		doc = doc_new(b, "failed");
		json_object_set_new(doc, "reason", pl_json_string(err));
	}
	return doc;
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
	return pl_bench_run_args(b, argc, argv, !full);
}

json_t *pl_bench_result_skipped(const struct pl_bench *b, const char *reason)
{
	json_t *d = doc_new(b, "skipped");
	json_object_set_new(d, "reason", pl_json_string(reason));
	return d;
}

const char *pl_bench_workdir;
