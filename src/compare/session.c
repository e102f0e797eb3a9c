/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/session.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monitor/rates.h"
#include "stats/ttest.h"
#include "util/cleanup.h"
#include "util/str.h"

uint64_t pl_cmp_seed_from_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
			((uint64_t)getpid() << 16);
	return seed & 0xffffffffull; /* MT19937 takes 32 bits */
}

static struct pl_cmp_metric *add_metric(struct pl_cmp_session *s, const char *name,
					const char *unit, enum pl_cmp_src src, bool hb)
{
	s->m = pl_xrealloc(s->m, (s->nm + 1) * sizeof(*s->m));
	struct pl_cmp_metric *m = &s->m[s->nm++];
	memset(m, 0, sizeof(*m));
	m->name = pl_xstrdup(name);
	m->unit = unit;
	m->src = src;
	m->higher_better = hb;
	switch (src) {
	case PL_CMP_SRC_WALL:
		m->up = "slower", m->down = "faster";
		break;
	case PL_CMP_SRC_USER:
	case PL_CMP_SRC_SYS: {
		/* times() and the rusage split count in USER_HZ clock ticks */
		long tck = sysconf(_SC_CLK_TCK);
		m->resolution = tck > 0 ? 1.0 / (double)tck : 0;
		m->up = "more CPU", m->down = "less CPU";
		break;
	}
	case PL_CMP_SRC_RSS:
		m->up = "larger", m->down = "smaller";
		break;
	case PL_CMP_SRC_MONITOR:
	case PL_CMP_SRC_COUNTER:
		m->up = "higher", m->down = "lower";
		break;
	default:
		m->up = hb ? "faster" : "slower";
		m->down = hb ? "slower" : "faster";
	}
	return m;
}

int pl_cmp_session_init(struct pl_cmp_session *s, const struct pl_cmp_config *cfg,
			struct pl_cmp_experiment *exp, char *const *metric_specs,
			bool higher_better, bool geomean, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->exp = exp;
	add_metric(s, "wall", "s", PL_CMP_SRC_WALL, false);
	add_metric(s, "user", "s", PL_CMP_SRC_USER, false);
	add_metric(s, "sys", "s", PL_CMP_SRC_SYS, false);
	add_metric(s, "max_rss", "B", PL_CMP_SRC_RSS, false);
	size_t nregex = 0;
	for (size_t i = 0; metric_specs && metric_specs[i]; i++) {
		const char *spec = metric_specs[i];
		const char *eq = strchr(spec, '=');
		if (!eq || eq == spec || !eq[1]) {
			pl_cmp_seterr(err, errlen,
				      "--metric '%s': use NAME=REGEX with one capture group, e.g. "
				      "'score=score: ([0-9.]+)'",
				      spec);
			return -EINVAL;
		}
		char *name = pl_xasprintf("%.*s", (int)(eq - spec), spec);
		for (size_t k = 0; k < s->nm; k++)
			if (strcmp(s->m[k].name, name) == 0) {
				pl_cmp_seterr(err, errlen, "--metric '%s': the name '%s' is taken",
					      spec, name);
				free(name);
				return -EINVAL;
			}
		struct pl_cmp_metric *m = add_metric(s, name, "", PL_CMP_SRC_REGEX, higher_better);
		free(name);
		m->regex = pl_xstrdup(eq + 1);
		int rc = regcomp(&m->re, m->regex, REG_EXTENDED | REG_NEWLINE);
		if (rc != 0) {
			char msg[256];
			regerror(rc, &m->re, msg, sizeof(msg));
			m->src = PL_CMP_SRC_WALL; /* nothing compiled to free */
			pl_cmp_seterr(err, errlen, "--metric '%s': bad regular expression: %s",
				      spec, msg);
			return -EINVAL;
		}
		if (m->re.re_nsub < 1) {
			pl_cmp_seterr(
				err, errlen,
				"--metric '%s': the regex needs a capture group around the number, "
				"e.g. 'time: ([0-9.]+)'",
				spec);
			return -EINVAL;
		}
		nregex++;
	}
	if (geomean) {
		if (nregex == 0) {
			pl_cmp_seterr(err, errlen,
				      "--aggregate geomean needs at least one --metric");
			return -EINVAL;
		}
		add_metric(s, "geomean", "", PL_CMP_SRC_GEOMEAN, higher_better);
	}
	return 0;
}

void pl_cmp_session_add_monitor(struct pl_cmp_session *s)
{
	static const struct {
		const char *name, *unit, *up, *down;
	} mon[PL_CMP_MON_N] = {
		[PL_CMP_MON_CPU] = { "sys_cpu", "%", "more CPU", "less CPU" },
		[PL_CMP_MON_CPU_MAX] = { "sys_cpu_max", "%", "more CPU", "less CPU" },
		[PL_CMP_MON_LOAD] = { "load1", "", "higher load", "lower load" },
		[PL_CMP_MON_CTXT] = { "ctxt_rate", "/s", "more switches", "fewer switches" },
	};
	for (int i = 0; i < PL_CMP_MON_N; i++) {
		struct pl_cmp_metric *m =
			add_metric(s, mon[i].name, mon[i].unit, PL_CMP_SRC_MONITOR, false);
		m->mon = (enum pl_cmp_mon)i;
		m->up = mon[i].up;
		m->down = mon[i].down;
	}
	s->monitor = true;
}

struct pl_cmp_metric *pl_cmp_session_add_counter(struct pl_cmp_session *s, const char *name,
						 const char *unit)
{
	for (size_t i = 0; i < s->nm; i++)
		if (!strcmp(s->m[i].name, name))
			return NULL;
	return add_metric(s, name, unit, PL_CMP_SRC_COUNTER, false);
}

/* The machine-wide figures of one run from the snapshots @a and @b into @val. */
static void monitor_values(const struct pl_cmp_session *s, const struct pl_mon_snap *a,
			   const struct pl_mon_snap *b, double *val)
{
	struct pl_mon_rates r;
	if (pl_mon_rates_compute(a, b, NULL, a->t_ns, &r) < 0)
		return;
	double f[PL_CMP_MON_N] = { r.all.busy, NAN, r.load[0], r.ctxt_per_s };
	for (size_t i = 0; i < r.ncpu; i++)
		if (isfinite(r.cpu[i].busy) && !(r.cpu[i].busy <= f[PL_CMP_MON_CPU_MAX]))
			f[PL_CMP_MON_CPU_MAX] = r.cpu[i].busy;
	/* The busiest CPU is at least the average by definition; /proc/stat's "cpu" line is
	 * summed in ns and rounded to ticks once, each "cpuN" line on its own, so over a
	 * short run the total can exceed every per-CPU share by a tick's rounding (seen in
	 * tests/compare/monitor.sh once). */
	if (isfinite(f[PL_CMP_MON_CPU]) && !(f[PL_CMP_MON_CPU_MAX] >= f[PL_CMP_MON_CPU]))
		f[PL_CMP_MON_CPU_MAX] = f[PL_CMP_MON_CPU];
	for (size_t i = 0; i < s->nm; i++)
		if (s->m[i].src == PL_CMP_SRC_MONITOR)
			val[i] = f[s->m[i].mon];
	pl_mon_rates_free(&r);
}

void pl_cmp_session_free(struct pl_cmp_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nm; i++) {
		if (s->m[i].src == PL_CMP_SRC_REGEX)
			regfree(&s->m[i].re);
		free(s->m[i].name);
		free(s->m[i].regex);
	}
	free(s->m);
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].val);
	free(s->runs);
	free(s->order);
	if (s->monitor)
		pl_mon_snap_close(); /* the /proc files the snapshots kept open */
	memset(s, 0, sizeof(*s));
}

int pl_cmp_parse_metric(const struct pl_cmp_metric *m, const char *output, double *out)
{
	regmatch_t g[2];
	if (regexec(&m->re, output, 2, g, 0) != 0 || g[1].rm_so < 0)
		return -ENOENT;
	char *num = pl_xasprintf("%.*s", (int)(g[1].rm_eo - g[1].rm_so), output + g[1].rm_so);
	int r = pl_parse_double(num, out);
	free(num);
	return r < 0 ? -EINVAL : 0;
}

double *pl_cmp_values(const struct pl_cmp_session *s, size_t m, size_t v)
{
	size_t nr = s->measured;
	double *x = pl_xmalloc((nr ? nr : 1) * sizeof(double));
	for (size_t i = 0; i < nr; i++)
		x[i] = NAN;
	size_t first = s->nrounds - s->measured; /* warm-up rounds come first */
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pl_cmp_run *r = &s->runs[i];
		if (r->warmup || r->variant != v || r->round < first || r->round - first >= nr)
			continue;
		x[r->round - first] = r->val[m];
	}
	return x;
}

static size_t compact(double *x, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			x[k++] = x[i];
	return k;
}

double pl_cmp_ci_halfwidth(const struct pl_cmp_session *s, size_t m)
{
	size_t nv = s->exp->n;
	double worst = 0;
	double *a = pl_cmp_values(s, m, 0);
	size_t na = compact(a, s->measured);
	for (size_t v = 1; v < nv; v++) {
		double *b = pl_cmp_values(s, m, v);
		size_t nb = compact(b, s->measured);
		double ratio, lo, hi, p;
		if (pl_ratio_geomean(a, na, b, nb, s->cfg->level, &ratio, &lo, &hi, &p) == 0)
			worst = fmax(worst, fmax(hi - ratio, ratio - lo));
		else
			worst = INFINITY;
		free(b);
	}
	free(a);
	return worst;
}

/* The metric the stop rule watches: the first parsed one, else wall time. */
static size_t primary_metric(const struct pl_cmp_session *s)
{
	for (size_t i = 0; i < s->nm; i++)
		if (s->m[i].src == PL_CMP_SRC_REGEX)
			return i;
	return 0;
}

static void fill_usage_metrics(const struct pl_cmp_session *s, struct pl_cmp_run *r)
{
	double gl = 0;
	size_t gn = 0;
	for (size_t i = 0; i < s->nm; i++) {
		switch (s->m[i].src) {
		case PL_CMP_SRC_WALL:
			r->val[i] = r->u.wall_s;
			break;
		case PL_CMP_SRC_USER:
			r->val[i] = r->u.user_s;
			break;
		case PL_CMP_SRC_SYS:
			r->val[i] = r->u.sys_s;
			break;
		case PL_CMP_SRC_RSS:
			r->val[i] = (double)r->u.max_rss_bytes;
			break;
		case PL_CMP_SRC_REGEX:
			if (r->val[i] > 0) {
				gl += log(r->val[i]);
				gn++;
			} else {
				gn = SIZE_MAX / 2; /* geomean undefined for this run */
			}
			break;
		case PL_CMP_SRC_GEOMEAN:
			r->val[i] = gn > 0 && gn < SIZE_MAX / 2 ? exp(gl / (double)gn) : NAN;
			break;
		case PL_CMP_SRC_MONITOR: /* run_round's snapshots */
		case PL_CMP_SRC_COUNTER: /* the executor's count (counting.h) */
			break;
		}
	}
}

/* The arrays that grow by one entry per run hold 16, then twice as many each time they
 * fill (at 0, 16, 32, 64 ... entries used), so n runs cost O(n) copying, not O(n^2). */
static bool grow_now(size_t used)
{
	return used == 0 || (used >= 16 && (used & (used - 1)) == 0);
}

static size_t grown(size_t used)
{
	return used ? 2 * used : 16;
}

/* Run one round: every variant once, in the order @perm (nv entries). Returns 0 or the
 * executor's error; the runs done so far stay in @s. */
static int run_round(struct pl_cmp_session *s, const size_t *perm, bool warm, pl_cmp_exec_fn fn,
		     void *ctx, char *err, size_t errlen)
{
	size_t nv = s->exp->n;
	if (grow_now(s->nrounds))
		s->order = pl_xrealloc(s->order, grown(s->nrounds) * nv * sizeof(size_t));
	memcpy(s->order + s->nrounds * nv, perm, nv * sizeof(size_t));
	for (size_t slot = 0; slot < nv; slot++) {
		if (grow_now(s->nruns))
			s->runs = pl_xrealloc(s->runs, grown(s->nruns) * sizeof(*s->runs));
		struct pl_cmp_run *run = &s->runs[s->nruns];
		memset(run, 0, sizeof(*run));
		run->variant = perm[slot];
		run->round = s->nrounds;
		run->slot = slot;
		run->warmup = warm;
		run->val = pl_xmalloc(s->nm * sizeof(double));
		for (size_t i = 0; i < s->nm; i++)
			run->val[i] = NAN;
		struct pl_mon_snap before = { 0 }, after = { 0 };
		bool mon = s->monitor && pl_mon_snap_read(&before) == 0;
		int r = fn(ctx, s, perm[slot], s->nrounds, &run->u, run->val, err, errlen);
		if (mon && r == 0 && pl_mon_snap_read(&after) == 0)
			monitor_values(s, &before, &after, run->val);
		pl_mon_snap_free(&before);
		pl_mon_snap_free(&after);
		if (r < 0) {
			free(run->val);
			return r;
		}
		fill_usage_metrics(s, run);
		s->nruns++;
	}
	s->nrounds++;
	return 0;
}

PL_DEFINE_CLEANUP(gsl_rng, pl_gsl_rng_free, gsl_rng_free)

int pl_cmp_session_run(struct pl_cmp_session *s, pl_cmp_exec_fn fn, void *ctx,
		       pl_cmp_progress_fn progress, void *pctx, char *err, size_t errlen)
{
	const struct pl_cmp_config *c = s->cfg;
	size_t nv = s->exp->n;
	__attribute__((cleanup(pl_gsl_rng_freep))) gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)c->seed);
	pl_autofree size_t *perm = pl_xmalloc(nv * sizeof(size_t));
	size_t pm = primary_metric(s);
	double t0 = pl_cmp_now();
	int r = 0;
	s->stop_reason = NULL;
	while (!s->stop_reason) {
		bool warm = s->nrounds < c->warmup;
		for (size_t i = 0; i < nv; i++)
			perm[i] = i;
		gsl_ran_shuffle(rng, perm, nv, sizeof(size_t));
		size_t round_start = s->nruns;
		if ((r = run_round(s, perm, warm, fn, ctx, err, errlen)) < 0) {
			if (r == -EINTR) {
				/* keep the completed rounds only: a round cut short would compare
				 * some variants on runs the others lack */
				for (size_t i = round_start; i < s->nruns; i++)
					free(s->runs[i].val);
				s->nruns = round_start;
				s->interrupted = true;
				s->stop_reason = "interrupted";
			}
			break;
		}
		if (warm)
			continue;
		s->measured++;
		s->elapsed_s = pl_cmp_now() - t0;
		double half = INFINITY;
		if (c->runs == 0 || progress)
			half = s->measured >= 2 ? pl_cmp_ci_halfwidth(s, pm) : INFINITY;
		if (progress)
			progress(pctx, s, half);
		if (c->runs) {
			if (s->measured >= c->runs)
				s->stop_reason = "runs";
		} else if (s->measured >= c->min_runs && half < c->precision) {
			s->stop_reason = "precision";
		} else if (s->measured >= c->max_runs) {
			s->stop_reason = "max-runs";
		} else if (c->max_time > 0 && s->elapsed_s >= c->max_time) {
			s->stop_reason = "max-time";
		}
	}
	s->elapsed_s = pl_cmp_now() - t0;
	return r;
}
