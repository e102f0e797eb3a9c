/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampling loop of perflab monitor (session.h). */
#include "monitor/session.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "monitor/accel.h"
#include "monitor/output.h"
#include "monitor/rates.h"
#include "monitor/textfile.h"
#include "util/json.h"
#include "util/clock.h"
#include "util/str.h"

extern char **environ;

static volatile sig_atomic_t got_stop, got_chld;

static void on_stop(int sig)
{
	got_stop = sig;
}

static void on_chld(int sig)
{
	(void)sig;
	got_chld = 1;
}

int pl_mon_missing_cpu(const struct pl_mon_snap *s, const struct pl_cpuset *cpus)
{
	for (int c = pl_cpuset_next(cpus, 0); c >= 0; c = pl_cpuset_next(cpus, (unsigned)c + 1))
		if (c >= s->stat.ncpu || !s->stat.online[c])
			return c;
	return -1;
}

int pl_mon_spawn(char **argv, pid_t *pid)
{
	int r = posix_spawnp(pid, argv[0], NULL, NULL, argv, environ);
	return r ? -r : 0;
}

/* ,"key":<value> of the streamed JSON document (steals @v). */
static void jkv(FILE *f, const char *key, json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(8) | JSON_ENCODE_ANY);
	fprintf(f, ",\"%s\":%s", key, s ? s : "null");
	free(s);
	json_decref(v);
}

static void json_head(const struct pl_mon_opts *o)
{
	char ts[32], cpus[256];
	struct utsname u;
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	fprintf(o->out, "{\"kind\":\"monitor\"");
	jkv(o->out, "schema_version", json_integer(1));
	jkv(o->out, "perflab_version", pl_json_string(PERFLAB_VERSION));
	jkv(o->out, "started_at", pl_json_string(pl_iso8601(pl_now_epoch(), ts, sizeof(ts))));
	jkv(o->out, "host",
	    json_pack("{s:o,s:o}", "hostname", pl_json_string(u.nodename), "kernel",
		      pl_json_string(u.release)));
	jkv(o->out, "interval_s", json_real(o->interval_s));
	jkv(o->out, "duration_limit_s", o->duration_s > 0 ? json_real(o->duration_s) : json_null());
	jkv(o->out, "cpus", pl_json_string(pl_cpuset_format(&o->cpus, cpus, sizeof(cpus))));
	json_t *cmd = json_null();
	if (o->argv) {
		cmd = json_array();
		for (char **a = o->argv; *a; a++)
			json_array_append_new(cmd, pl_json_string(*a));
	}
	jkv(o->out, "command", cmd);
	const char *why = NULL;
	bool nv = pl_mon_nvml_available(&why);
	jkv(o->out, "accel",
	    json_pack("{s:{s:b,s:o}}", "nvml", "available", nv, "reason",
		      nv ? json_null() : pl_json_string(why)));
	fputs(",\"samples\":[", o->out);
}

/* Running mean and max of one series for the end-of-run summary (no sample kept). */
struct acc {
	double sum, max;
	size_t n;
};
static void acc_add(struct acc *a, double v)
{
	if (!isfinite(v))
		return;
	a->sum += v;
	a->max = a->n ? fmax(a->max, v) : v;
	a->n++;
}
static double acc_mean(const struct acc *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

/* Reap the command when it ended; true when it did. */
static bool reap(pid_t pid, uint64_t t_start, struct pl_mon_result *res, bool block)
{
	int st;
	struct rusage ru;
	pid_t w;
	do
		w = wait4(pid, &st, block ? 0 : WNOHANG, &ru);
	while (w < 0 && errno == EINTR);
	if (w != pid)
		return false;
	res->cmd_wall_s = (double)(pl_now_ns() - t_start) / 1e9;
	res->cmd_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	res->cmd_system_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (WIFEXITED(st)) {
		res->cmd_exit = WEXITSTATUS(st);
		res->cmd_signal = 0;
	} else {
		res->cmd_exit = -1;
		res->cmd_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	}
	return true;
}

static void ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

/* Write one interval everywhere it goes. */
static void emit(const struct pl_mon_opts *o, const struct pl_mon_rates *r, size_t i,
		 struct pl_mon_result *res)
{
	if (o->format == PL_MON_FMT_JSON) {
		fputs(i ? ",\n" : "\n", o->out);
		pl_mon_sample_json_write(o->out, r);
	} else if (o->format == PL_MON_FMT_CSV) {
		pl_mon_csv_row(o->out, r, &o->cpus);
	} else {
		pl_mon_text_line(o->out, r, false);
	}
	if (o->live) {
		pl_mon_text_line(o->live, r, o->bars);
		fflush(o->live);
	}
	fflush(o->out);
	if (o->prom) {
		int e = pl_mon_prom_write(o->prom, r);
		if (e < 0 && !res->prom_errno)
			res->prom_errno = -e;
	}
}

/* Under the text header, once (from the first snapshot @snap): why the qat/s or gpu%
 * column shows '-' on this machine (no QAT device readable, NVML not loaded or no GPU),
 * so an empty column is explained rather than left to guess. Nothing when both have
 * devices. */
static void accel_note(FILE *f, const struct pl_mon_snap *snap)
{
	const char *gpu_why = NULL;
	bool nv = pl_mon_nvml_available(&gpu_why);
	bool qat = snap->nqat > 0, gpu = nv && snap->ngpu > 0;
	if (qat && gpu)
		return;
	char g[512] = "";
	if (!gpu && nv)
		snprintf(g, sizeof(g), "gpu%%: NVML sees no GPU");
	else if (!gpu)
		snprintf(g, sizeof(g), "gpu%%: NVML unavailable (%s)", gpu_why ? gpu_why : "?");
	fprintf(f, "# '-' in %s%s%s\n",
		qat ? ""
		    : "qat/s: no QAT device (no readable debugfs qat_*/fw_counters: needs "
		      "root and the qat driver)",
		!qat && !gpu ? "; " : "", g);
}

int pl_mon_run(struct pl_mon_snap *first, pid_t pid, const struct pl_mon_opts *o,
	       struct pl_mon_result *res)
{
	memset(res, 0, sizeof(*res));
	res->has_cmd = pid > 0;
	struct sigaction sa = { 0 }, old_int, old_term, old_chld;
	sa.sa_handler = on_stop; /* no SA_RESTART: the sleep returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &old_chld);
	got_stop = got_chld = 0;

	struct pl_mon_snap prev = { 0 }, cur = { 0 };
	pl_mon_snap_move(&prev, first);
	uint64_t t0 = prev.t_ns, step = (uint64_t)(o->interval_s * 1e9);
	uint64_t deadline = o->duration_s > 0 ? t0 + (uint64_t)(o->duration_s * 1e9) : UINT64_MAX;
	uint64_t next = t0 + step;
	bool cmd_done = pid <= 0;
	double cmd_end_t = NAN;
	if (o->format == PL_MON_FMT_JSON)
		json_head(o);
	else if (o->format == PL_MON_FMT_CSV)
		pl_mon_csv_header(o->out, &o->cpus);
	else
		pl_mon_text_header(o->out);
	if (o->live)
		pl_mon_text_header(o->live);
	FILE *lines = o->format == PL_MON_FMT_TEXT ? o->out : o->live;
	if (lines)
		accel_note(lines, &prev);
	struct acc busy = { 0 }, cpumax = { 0 }, load = { 0 }, cs = { 0 };
	int ret = 0;
	for (;;) {
		uint64_t wake = next < deadline ? next : deadline;
		struct timespec ts;
		ns_to_ts(wake, &ts);
		while (!got_stop && !(got_chld && !cmd_done) &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		bool ended = false;
		if (!cmd_done && (got_chld || pl_now_ns() >= wake)) {
			got_chld = 0;
			if (reap(pid, t0, res, false)) {
				cmd_done = ended = true;
				cmd_end_t = (double)(pl_now_ns() - t0) / 1e9;
			}
		}
		uint64_t now = pl_now_ns();
		bool last = got_stop || ended || now >= deadline;
		if (now < wake && !last)
			continue; /* a SIGCHLD from another child: sleep on */
		if (pl_mon_snap_read(&cur) == 0 && cur.t_ns > prev.t_ns + 1000000) {
			struct pl_mon_rates r;
			if (pl_mon_rates_compute(&prev, &cur, &o->cpus, t0, &r) == 0) {
				emit(o, &r, res->nsamples++, res);
				acc_add(&busy, r.all.busy);
				double m = NAN;
				for (size_t i = 0; i < r.ncpu; i++)
					if (isfinite(r.cpu[i].busy) && !(r.cpu[i].busy <= m))
						m = r.cpu[i].busy;
				acc_add(&cpumax, m);
				acc_add(&load, r.load[0]);
				acc_add(&cs, r.ctxt_per_s);
				pl_mon_rates_free(&r);
			}
			pl_mon_snap_move(&prev, &cur);
		} else {
			pl_mon_snap_free(&cur);
		}
		if (ferror(o->out)) {
			ret = -EIO;
			break;
		}
		if (last)
			break;
		next += step;
		if (next <= now) /* overran (a stalled machine): skip, do not catch up */
			next = now + step;
	}
	res->interrupted = got_stop != 0;
	if (!cmd_done) {
		if (got_stop)
			kill(pid, (int)got_stop);
		reap(pid, t0, res, true);
		cmd_end_t = (double)(pl_now_ns() - t0) / 1e9;
	}
	if (o->format == PL_MON_FMT_JSON) {
		fputs("]", o->out);
		json_t *ev = json_array();
		if (res->has_cmd) {
			json_array_append_new(
				ev, json_pack("{s:f,s:s}", "t_s", 0.0, "event", "command_start"));
			json_array_append_new(ev, json_pack("{s:f,s:s}", "t_s", cmd_end_t, "event",
							    "command_end"));
		}
		jkv(o->out, "events", ev);
		jkv(o->out, "command_result",
		    res->has_cmd ? json_pack("{s:o,s:o,s:f,s:f,s:f}", "exit_status",
					     res->cmd_exit >= 0 ? json_integer(res->cmd_exit)
								: json_null(),
					     "signal",
					     res->cmd_signal ? json_integer(res->cmd_signal)
							     : json_null(),
					     "user_s", res->cmd_user_s, "system_s",
					     res->cmd_system_s, "wall_s", res->cmd_wall_s)
				 : json_null());
		jkv(o->out, "interrupted", json_boolean(res->interrupted));
		jkv(o->out, "nsamples", json_integer((json_int_t)res->nsamples));
		jkv(o->out, "elapsed_s", json_real((double)(prev.t_ns - t0) / 1e9));
		jkv(o->out, "summary",
		    json_pack("{s:o,s:o,s:o,s:o,s:o}", "busy_pct_mean",
			      isfinite(acc_mean(&busy)) ? json_real(acc_mean(&busy)) : json_null(),
			      "busy_pct_max", busy.n ? json_real(busy.max) : json_null(),
			      "cpu_busy_pct_max", cpumax.n ? json_real(cpumax.max) : json_null(),
			      "load1_mean",
			      isfinite(acc_mean(&load)) ? json_real(acc_mean(&load)) : json_null(),
			      "ctxt_per_s_mean",
			      isfinite(acc_mean(&cs)) ? json_real(acc_mean(&cs)) : json_null()));
		fputs("}\n", o->out);
	} else if (o->format == PL_MON_FMT_TEXT) {
		fprintf(o->out,
			"# %zu intervals: busy mean %.1f%% max %.1f%%, busiest CPU %.1f%%, "
			"load1 mean %.2f, cs/s mean %.0f%s\n",
			res->nsamples, acc_mean(&busy), busy.max, cpumax.max, acc_mean(&load),
			acc_mean(&cs), res->interrupted ? " (interrupted)" : "");
		if (res->has_cmd)
			fprintf(o->out,
				"# command: %s %d, user %.3f s, system %.3f s, wall %.3f s\n",
				res->cmd_signal ? "signal" : "exit",
				res->cmd_signal ? res->cmd_signal : res->cmd_exit, res->cmd_user_s,
				res->cmd_system_s, res->cmd_wall_s);
	}
	pl_mon_snap_free(&prev);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	if (ferror(o->out))
		ret = -EIO;
	return ret;
}
