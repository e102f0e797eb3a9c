/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab stat: count events and compute metrics from them, as perf stat does, over
 * perf_event_open. This file is wiring (docs/ARCHITECTURE.md): the option table and
 * --help, the checks of the command line, the events and metrics resolved
 * (counters/pmu.h, counters/metric.h), the session (counters/session.h) and the output
 * (counters/output.h), with the error lines and exit codes. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "counters/from.h"
#include "counters/metric.h"
#include "counters/output.h"
#include "counters/plan.h"
#include "counters/region.h"
#include "counters/pmu.h"
#include "counters/session.h"
#include "profile/perf_event.h"
#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct stat_opts {
	char **events;
	const char *metrics;
	int interval_ms;
	bool all;
	const char *cpus;
	const char *pids;
	const char *cgroup;
	bool per_cpu, per_socket, per_thread;
	const char *from;
	bool list;
	const char *region;
};

static const struct pl_opt stat_optv[] = {
	{ "event", 'e', PL_OPT_STRLIST, offsetof(struct stat_opts, events), "EVENT,...",
	  "events to count (perf's spellings; {a,b} counts a and b as one group; repeatable)" },
	{ "metrics", 'M', PL_OPT_STR, offsetof(struct stat_opts, metrics), "METRIC|GROUP",
	  "metrics or metric groups to compute, comma-separated (--list shows them)" },
	{ "interval", 'I', PL_OPT_INT, offsetof(struct stat_opts, interval_ms), "MS",
	  "print the counts of every MS milliseconds (at least 10)", .min = 10, .max = 3600000 },
	{ "all-cpus", 'a', PL_OPT_FLAG, offsetof(struct stat_opts, all), NULL,
	  "count everything on every online CPU (system-wide)" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct stat_opts, cpus), "LIST",
	  "count everything on these CPUs (cpulist, e.g. 0-3)" },
	{ "pid", 'p', PL_OPT_STR, offsetof(struct stat_opts, pids), "PID[,PID]",
	  "count running processes (every thread, and new ones), until they exit or Ctrl-C" },
	{ "cgroup", 0, PL_OPT_STR, offsetof(struct stat_opts, cgroup), "PATH",
	  "count the tasks of this cgroup (a path under the cgroup2 mount) on every CPU" },
	{ "per-cpu", 0, PL_OPT_FLAG, offsetof(struct stat_opts, per_cpu), NULL,
	  "counts per CPU (with -a, -C or --cgroup)" },
	{ "per-socket", 0, PL_OPT_FLAG, offsetof(struct stat_opts, per_socket), NULL,
	  "counts per socket (physical package; with -a, -C or --cgroup)" },
	{ "per-thread", 0, PL_OPT_FLAG, offsetof(struct stat_opts, per_thread), NULL,
	  "counts per thread (with -p)" },
	{ "from", 0, PL_OPT_STR, offsetof(struct stat_opts, from), "FILE",
	  "do not count: compute the metrics from perf stat -j or -x, output in FILE" },
	{ "region", 0, PL_OPT_STR, offsetof(struct stat_opts, region), "NAME",
	  "count only inside the command's marker region NAME (libperflab-mark; NAME,NAME...)" },
	{ "list", 'l', PL_OPT_FLAG, offsetof(struct stat_opts, list), NULL,
	  "list this machine's events and every metric, then exit" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "stat",
	.usage = "perflab stat [-e EVENT,...] [-M METRIC|GROUP] [-I MS]\n"
		 "       [-a | -C CPUS | -p PID[,PID] | --cgroup PATH]\n"
		 "       [--per-cpu | --per-socket | --per-thread] [--region NAME]\n"
		 "       [--from FILE] [--list]\n"
		 "       [--json] [-o FILE] [-- CMD ARGS...]",
	.summary = "Count events (perf_event_open) and compute metrics from them, like perf "
		   "stat.",
	.description =
		"Without -e and -M: perf stat's default events (task-clock, context-switches,\n"
		"cpu-migrations, page-faults, and cycles, instructions, branches and\n"
		"branch-misses where a core PMU exists) and the software metrics. Events of one\n"
		"group ({a,b}, or one metric's events) are opened as one perf group and read\n"
		"at once; a count that was multiplexed is scaled as perf scales it (raw *\n"
		"enabled / running) and its percentage running is shown; '<not counted>' when\n"
		"it never ran, '<not supported>' with the reason once.\n"
		"'-- CMD' counts the command from its exec, with its children and threads; -a,\n"
		"-C and --cgroup count on CPUs, for the command's run or until Ctrl-C; -p counts\n"
		"running processes until they exit or Ctrl-C. A metric whose events this PMU\n"
		"lacks says 'unavailable: EVENT not on this PMU', never a value.\n"
		"--region NAME also counts inside the command's regions NAME, as marked with\n"
		"libperflab-mark (pl_region_begin/pl_region_end): per thread, the sum over the\n"
		"region's instances of end minus begin; needs '-- CMD' and at most 16 events.\n"
		"Output: the table (text or --json, docs/schemas/stat.schema.json) goes to\n"
		"stdout, or to stderr while a command runs (it keeps stdout), or to -o FILE;\n"
		"with -I one block of lines (--json: one JSON object per line) per interval.\n"
		"The command's exit status is reported; perflab's own exit is 0 ok, 2 bad usage\n"
		"or an unknown event, PMU or metric, 3 an event given with -e that cannot be\n"
		"opened (the reason, or why perf_event_open was refused) or whose core PMU this\n"
		"machine lacks, 130 interrupted (the counts so far are written).",
};

/* ---- events ---- */

/* The events and metrics of the command line (or perf's default set), each error one
 * line and exit 2. */
static int make_plan(struct pl_cnt_plan *p, const struct stat_opts *o, bool core)
{
	char err[512];
	int r = 0;
	for (size_t i = 0; o->events && o->events[i] && r == 0; i++)
		r = pl_cnt_plan_events(p, o->events[i], err, sizeof(err));
	if (r == 0 && !o->events && !o->metrics)
		r = pl_cnt_plan_default(p, core, err, sizeof(err));
	if (r < 0) {
		pl_error("%s", err);
		/* a core PMU event on a machine without one: well spelled, not countable here */
		return r == -ENODEV ? PL_EXIT_RUNTIME : PL_EXIT_USAGE;
	}
	/* -M, or the software metrics whose events are counted anyway */
	r = pl_cnt_plan_metrics(p, o->metrics ? o->metrics : "software", pl_cnt_pmu_kind(core),
				!o->metrics, err, sizeof(err));
	if (r < 0) {
		pl_error("-M: %s", err);
		return PL_EXIT_USAGE;
	}
	return 0;
}

/* ---- the command line ---- */

/* -p LIST: process ids of running processes. Returns -1, or PL_EXIT_USAGE. */
static int check_pids(const char *list)
{
	const char *fix = "give running process ids, comma-separated, e.g. -p 1234,5678";
	size_t n = strlen(list);
	if (!n || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,")) {
		pl_error("-p '%s': an empty process id (%s)", list, fix);
		return PL_EXIT_USAGE;
	}
	pl_autostrv char **v = pl_split(list, ",", NULL);
	for (size_t i = 0; v[i]; i++) {
		uint64_t pid = 0;
		bool digits = v[i][0] != '\0' && strspn(v[i], "0123456789") == strlen(v[i]);
		if (!digits || pl_parse_u64(v[i], &pid) < 0 || pid == 0 || pid > 0x7fffffff) {
			pl_error("-p '%s': '%s' is not a process id (%s)", list, v[i], fix);
			return PL_EXIT_USAGE;
		}
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			pl_error("-p '%s': no process %s is running (%s)", list, v[i], fix);
			return PL_EXIT_USAGE;
		}
	}
	return -1;
}

static int check_opts(const struct stat_opts *o, const struct pl_args *args, char **cmdv)
{
	if (args->npos > 0 && args->dashdash != 0) {
		pl_error("unexpected argument '%s' (put the command after '--')", args->pos[0]);
		return PL_EXIT_USAGE;
	}
	if (cmdv && !cmdv[0]) {
		pl_error("'--' without a command (give '-- CMD ARGS...')");
		return PL_EXIT_USAGE;
	}
	if (o->region) {
		if (!o->region[0] || o->region[0] == ',' || strstr(o->region, ",,") ||
		    o->region[strlen(o->region) - 1] == ',') {
			pl_error("--region '%s': an empty region name (give NAME or NAME,NAME)",
				 o->region);
			return PL_EXIT_USAGE;
		}
		if (o->from || !cmdv || o->all || o->cpus || o->pids || o->cgroup ||
		    o->interval_ms || o->per_cpu || o->per_socket || o->per_thread) {
			pl_error(
				"--region counts the regions of a command's threads: give '-- CMD' "
				"and drop -a, -C, -p, --cgroup, -I, --per-* and --from");
			return PL_EXIT_USAGE;
		}
	}
	if (o->from) {
		if (cmdv || o->all || o->cpus || o->pids || o->cgroup || o->interval_ms) {
			pl_error(
				"--from FILE computes from saved counts: drop the command, -a, -C, "
				"-p, --cgroup and -I");
			return PL_EXIT_USAGE;
		}
		return -1;
	}
	int cpuwide = o->all || o->cpus || o->cgroup;
	if ((o->all && o->cgroup) || (o->cpus && o->cgroup)) {
		pl_error("--cgroup counts on every CPU: drop -a or -C");
		return PL_EXIT_USAGE;
	}
	if (o->pids && (cpuwide || cmdv)) {
		pl_error("-p counts running processes: drop %s",
			 cmdv ? "the command after '--'" : "-a, -C and --cgroup");
		return PL_EXIT_USAGE;
	}
	if (!cmdv && !o->pids && !cpuwide) {
		pl_error("give what to count: '-- CMD ARGS...', '-p PID', '-a', '-C CPUS' or "
			 "'--cgroup PATH' (see 'perflab stat --help')");
		return PL_EXIT_USAGE;
	}
	if (o->pids && check_pids(o->pids) >= 0)
		return PL_EXIT_USAGE;
	if (o->per_cpu + o->per_socket + o->per_thread > 1) {
		pl_error("give one of --per-cpu, --per-socket and --per-thread");
		return PL_EXIT_USAGE;
	}
	if ((o->per_cpu || o->per_socket) && !cpuwide) {
		pl_error("--per-%s needs counting on CPUs: add -a, -C CPUS or --cgroup PATH",
			 o->per_cpu ? "cpu" : "socket");
		return PL_EXIT_USAGE;
	}
	if (o->per_thread && !o->pids) {
		pl_error("--per-thread needs -p PID (the threads of running processes)");
		return PL_EXIT_USAGE;
	}
	if (o->cpus) {
		char err[512];
		if (pl_cpuset_repeated(o->cpus) >= 0) {
			pl_error("-C '%s': CPU %d given twice (name each CPU once)", o->cpus,
				 pl_cpuset_repeated(o->cpus));
			return PL_EXIT_USAGE;
		}
		if (pl_cpuset_check_online("-C", o->cpus, err, sizeof(err)) < 0) {
			pl_error("%s", err);
			return PL_EXIT_USAGE;
		}
	}
	if (o->cgroup && !o->cgroup[0]) {
		pl_error("--cgroup '': give a path under the cgroup2 mount, e.g. /system.slice");
		return PL_EXIT_USAGE;
	}
	if (!pl_sysroot_is_live()) {
		pl_error("--sysroot: counting needs the live system (perf_event_open; --list and "
			 "--from read a tree)");
		return PL_EXIT_USAGE;
	}
	return -1;
}

/* ---- --list ---- */

static int list_one(const char *kind, const char *name, const char *desc, void *ctx)
{
	FILE *out = ctx;
	pl_autofree char *n = pl_str_escape(name, PL_ESC_TERM);
	pl_autofree char *d = pl_str_escape(desc, PL_ESC_TERM);
	fprintf(out, "  %-40s %-10s %s\n", n, kind, d);
	return 0;
}

struct jlist {
	json_t *arr;
};

static int list_json(const char *kind, const char *name, const char *desc, void *ctx)
{
	struct jlist *l = ctx;
	json_t *o = json_object();
	json_object_set_new(o, "name", pl_json_string(name));
	json_object_set_new(o, "kind", pl_json_string(kind));
	json_object_set_new(o, "desc", pl_json_string(desc));
	json_array_append_new(l->arr, o);
	return 0;
}

static int do_list(FILE *out)
{
	char why[256];
	bool core = pl_pmu_have_core(why, sizeof(why));
	size_t nm;
	const struct pl_metric *mt = pl_metric_table(&nm);
	if (pl_g.json) {
		pl_autojson json_t *doc = json_object();
		struct jlist l = { json_array() };
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "core_pmu", json_boolean(core));
		if (!core)
			json_object_set_new(doc, "core_pmu_reason", pl_json_string(why));
		pl_pmu_list(list_json, &l);
		json_object_set_new(doc, "list_events", l.arr);
		json_t *ms = json_array();
		for (size_t i = 0; i < nm; i++) {
			json_t *o = json_object();
			json_object_set_new(o, "metric", pl_json_string(mt[i].name));
			json_object_set_new(o, "group", pl_json_string(mt[i].group));
			json_object_set_new(o, "pmu_kind", pl_json_string(mt[i].pmu_kind));
			json_object_set_new(o, "expr", pl_json_string(mt[i].expr));
			json_object_set_new(o, "unit", pl_json_string(mt[i].unit));
			json_object_set_new(o, "desc", pl_json_string(mt[i].desc));
			json_object_set_new(o, "source", pl_json_string(mt[i].source));
			json_array_append_new(ms, o);
		}
		json_object_set_new(doc, "list_metrics", ms);
		return pl_json_write(out, doc);
	}
	fprintf(out, "Events:\n");
	if (!core)
		fprintf(out, "  (%s: no hardware events)\n", why);
	pl_pmu_list(list_one, out);
	fprintf(out, "\nMetrics (-M NAME or GROUP):\n");
	for (size_t i = 0; i < nm; i++)
		fprintf(out, "  %-28s %-9s %-12s %s = %s [%s]\n", mt[i].name, mt[i].group,
			mt[i].pmu_kind, mt[i].desc, mt[i].expr, mt[i].unit);
	return ferror(out) ? -EIO : 0;
}

/* ---- the run ---- */

struct out_ctx {
	FILE *fp;
	struct pl_cnt_report *rep;
	bool first;
	int err;
};

static void on_interval(const struct pl_cnt_result *delta, void *ctx)
{
	struct out_ctx *c = ctx;
	c->rep->r = delta;
	if (pl_g.json) {
		pl_autojson json_t *doc = pl_cnt_json(c->rep, true);
		char *s = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (!s || fprintf(c->fp, "%s\n", s) < 0)
			c->err = -EIO;
		free(s);
	} else if (pl_cnt_write_interval(c->fp, c->rep, c->first) < 0) {
		c->err = -EIO;
	}
	fflush(c->fp);
	c->first = false;
}

static const char *comm_of(const void *ctx, int tid)
{
	return pl_cnt_session_comm(ctx, tid);
}

/* The exit code for events given with -e that could not be opened: 3 with the event and
 * the reason (pl_pe_strerror's advice for a refusal), or -1 when all opened. */
static int check_opened(const struct pl_cnt_session *s, const struct pl_cnt_plan *p, bool core,
			const char *core_why, const struct stat_opts *o)
{
	for (size_t i = 0; i < p->n; i++) {
		int e = s->ev_errno[i];
		if (!e || !p->explicit_ev[i])
			continue;
		pl_autofree char *name = pl_str_escape(p->evs[i].name, PL_ESC_TERM);
		if (e == EACCES || e == EPERM) {
			struct pl_pe_request rq = { .event = p->evs[i].name,
						    .system_wide = o->all || o->cpus || o->cgroup,
						    .pid_target = o->pids != NULL };
			pl_error("cannot count '%s': %s", name, pl_pe_strerror(e, &rq));
		} else if (!core && !strcmp(p->evs[i].pmu, "cpu")) {
			pl_error("cannot count '%s': %s (perflab stat --list shows what can be "
				 "counted here)",
				 name, core_why);
		} else {
			pl_error("cannot count '%s': %s (perflab stat --list shows what can be "
				 "counted here)",
				 name, s->ev_why[i]);
		}
		return PL_EXIT_RUNTIME;
	}
	return -1;
}

/* --region: the counting ring the command inherits, for the plan's events (at most
 * PL_MARK_COUNTERS_MAX, one group read at every marker). Returns 0, or the exit code
 * after one line. */
static int make_ring(struct pl_cnt_region_ring *rr, const struct pl_cnt_plan *p)
{
	if (p->n > PL_MARK_COUNTERS_MAX) {
		pl_error("--region: %zu events (with the metrics' events), at most %d can be "
			 "counted in a region (count fewer)",
			 p->n, PL_MARK_COUNTERS_MAX);
		return PL_EXIT_USAGE;
	}
	int e = pl_cnt_region_create(rr, p->evs, p->n, 0);
	if (e == -EINVAL) {
		pl_error("--region: none of the events can be counted per thread (per-package "
			 "and powercap events cannot): add a software or core event");
		return PL_EXIT_USAGE;
	}
	if (e < 0) {
		pl_error("--region: cannot make the marker ring: %s", strerror(-e));
		return PL_EXIT_RUNTIME;
	}
	return 0;
}

/* The "#slots" reading the metrics of @p read (metric.h: Arm's top-down): the core PMU's
 * caps/slots as a constant reading into @v (event @ev). Returns 1, or 0 when no metric
 * reads it or the core PMU does not say (the metric then says "#slots" is missing). */
static size_t slots_reading(const struct pl_cnt_plan *p, struct pl_cnt_event *ev,
			    struct pl_cnt_value *v)
{
	bool need = false;
	for (size_t i = 0; i < p->nmetrics; i++)
		need |= strstr(p->metrics[i]->expr, "#slots") != NULL;
	uint64_t n = 0;
	if (!need || pl_pmu_core_slots(&n) < 0)
		return 0;
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "#slots");
	snprintf(ev->pmu, sizeof(ev->pmu), "cpu");
	ev->scale = 1;
	*v = (struct pl_cnt_value){ .ev = ev,
				    .raw = n,
				    .value = (double)n,
				    .counted = true,
				    .supported = true,
				    .cpu = -1,
				    .socket = -1 };
	return 1;
}

static char *describe(const struct stat_opts *o, char **cmdv)
{
	if (cmdv && !o->all && !o->cpus && !o->cgroup) {
		struct pl_buf b = { 0 };
		for (size_t i = 0; cmdv[i]; i++)
			pl_buf_printf(&b, "%s%s", i ? " " : "'", cmdv[i]);
		pl_buf_puts(&b, "'");
		return pl_buf_steal(&b);
	}
	if (o->pids)
		return pl_xasprintf("process id%s '%s'", strchr(o->pids, ',') ? "s" : "", o->pids);
	if (o->cgroup)
		return pl_xasprintf("cgroup '%s'", o->cgroup);
	if (o->cpus)
		return pl_xasprintf("CPU(s) %s", o->cpus);
	return pl_xstrdup("system wide");
}

static int run(const struct stat_opts *o, char **cmdv)
{
	char why[256] = "";
	bool core = pl_pmu_have_core(why, sizeof(why));
	struct pl_cnt_plan p = { 0 };
	int rc = make_plan(&p, o, core);
	if (rc) {
		pl_cnt_plan_free(&p);
		return rc;
	}
	/* -o is checked before anything runs */
	int e = pl_outfile_check(pl_g.output);
	if (e < 0) {
		char buf[512];
		pl_error("%s", pl_outfile_strerror(buf, sizeof(buf), pl_g.output, e));
		pl_cnt_plan_free(&p);
		return PL_EXIT_USAGE;
	}
	pl_autofree char *what = describe(o, cmdv);
	struct pl_cnt_report rep = {
		.nevs = p.n,
		.metrics = p.metrics,
		.nmetrics = p.nmetrics,
		.what = what,
		.target = cmdv && !o->all && !o->cpus && !o->cgroup ? "command"
			  : o->pids				    ? "pids"
			  : o->cgroup				    ? "cgroup"
								    : "cpus",
		.per = o->per_cpu      ? "cpu"
		       : o->per_socket ? "socket"
		       : o->per_thread ? "thread"
				       : NULL,
		.core = core,
		.core_why = why,
		.command = cmdv != NULL,
		.default_set = !o->events && !o->metrics,
	};
	struct pl_cnt_event slots_ev;
	struct pl_cnt_value slots_v;
	rep.nconsts = slots_reading(&p, &slots_ev, &slots_v);
	rep.consts = rep.nconsts ? &slots_v : NULL;
	struct pl_outfile of = { 0 };
	bool to_stderr = pl_cmd_report_to_stderr(cmdv ? "the command" : NULL);
	struct out_ctx oc = { .rep = &rep, .first = true };
	struct pl_cnt_config cfg = {
		.evs = p.evs,
		.nevs = p.n,
		.group = p.group,
		.argv = cmdv,
		.pids = o->pids,
		.system_wide = o->all,
		.cpus = o->cpus,
		.cgroup = o->cgroup,
		.aggr = o->per_cpu	? PL_CNT_AGGR_CPU
			: o->per_socket ? PL_CNT_AGGR_SOCKET
			: o->per_thread ? PL_CNT_AGGR_THREAD
					: PL_CNT_AGGR_NONE,
		.interval_ms = (unsigned)(o->interval_ms > 0 ? o->interval_ms : 0),
		.on_interval = on_interval,
		.ctx = &oc,
	};
	char err[4096];
	struct pl_cnt_region_ring rr = { 0 };
	struct pl_cnt_regions regs = { 0 };
	if (o->region) {
		rc = make_ring(&rr, &p);
		if (rc) {
			pl_cnt_plan_free(&p);
			return rc;
		}
	}
	struct pl_cnt_session s;
	struct pl_cnt_result total = { 0 };
	e = pl_cnt_session_open(&s, &cfg, err, sizeof(err));
	if (e < 0) {
		pl_error("%s", err);
		rc = e == -ENOENT || e == -ESRCH || e == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
		goto out;
	}
	rc = check_opened(&s, &p, core, why, o);
	if (rc >= 0)
		goto out;
	rep.comm = comm_of;
	rep.comm_ctx = &s;
	rep.group_fallback = !s.group_read;
	if (to_stderr) {
		oc.fp = stderr;
	} else {
		e = pl_outfile_open(&of, pl_g.output);
		if (e < 0) {
			char buf[512];
			pl_error("%s", pl_outfile_strerror(buf, sizeof(buf), pl_g.output, e));
			rc = PL_EXIT_USAGE;
			goto out;
		}
		oc.fp = of.fp;
	}
	e = pl_cnt_session_run(&s, &total, err, sizeof(err));
	if (e < 0) {
		pl_error("%s", err);
		rc = e == -ENOENT || e == -EACCES ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
		goto out;
	}
	rep.r = &total;
	rep.interrupted = s.interrupted;
	rep.wait_status = s.child_status;
	rep.user_s = (double)s.child_ru.ru_utime.tv_sec + s.child_ru.ru_utime.tv_usec / 1e6;
	rep.sys_s = (double)s.child_ru.ru_stime.tv_sec + s.child_ru.ru_stime.tv_usec / 1e6;
	if (o->region)
		pl_cnt_region_collect(&rr, &regs);
	if (!o->interval_ms) {
		if (pl_g.json) {
			pl_autojson json_t *doc = pl_cnt_json(&rep, false);
			if (o->region)
				json_object_set_new(doc, "regions",
						    pl_cnt_regions_json(&rep, &regs, o->region));
			e = pl_json_write(oc.fp, doc);
		} else {
			e = pl_cnt_write_text(oc.fp, &rep);
			if (e == 0 && o->region)
				e = pl_cnt_write_regions(oc.fp, &rep, &regs, o->region);
		}
		if (e < 0)
			oc.err = e;
	}
	rc = s.interrupted ? 130 : PL_EXIT_OK;
	if (oc.err) {
		pl_error("cannot write the counts: %s", strerror(-oc.err));
		rc = PL_EXIT_RUNTIME;
	}
out:
	if (of.fp) {
		int ce = pl_outfile_close(&of, rc == PL_EXIT_OK || rc == 130);
		if (ce < 0 && (rc == PL_EXIT_OK || rc == 130)) {
			char buf[512];
			pl_error("%s", pl_outfile_strerror(buf, sizeof(buf), pl_g.output, ce));
			rc = PL_EXIT_RUNTIME;
		}
	}
	pl_cnt_result_free(&total);
	pl_cnt_session_close(&s);
	pl_cnt_regions_free(&regs);
	if (o->region)
		pl_cnt_region_ring_free(&rr);
	pl_cnt_plan_free(&p);
	return rc;
}

/* --from FILE: the metrics over counts taken elsewhere. */
static int from_file(const struct stat_opts *o)
{
	char err[4096], why[256] = "";
	struct pl_cnt_result r = { 0 };
	struct pl_cnt_event *evs = NULL;
	size_t nevs = 0;
	int e = pl_cnt_from_file(o->from, &r, &evs, &nevs, err, sizeof(err));
	if (e < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	bool core = pl_pmu_have_core(why, sizeof(why));
	struct pl_cnt_plan p = { 0 };
	const char *spec = o->metrics ? o->metrics : "software";
	int rc = pl_cnt_plan_metrics(&p, spec, pl_cnt_pmu_kind_of(&r), false, err, sizeof(err));
	if (rc < 0) {
		pl_error("-M: %s", err);
		rc = PL_EXIT_USAGE;
	} else {
		struct pl_cnt_report rep = {
			.r = &r,
			.nevs = r.n,
			.metrics = p.metrics,
			.nmetrics = p.nmetrics,
			.what = o->from,
			.target = "file",
			.core = core,
			.core_why = why,
		};
		struct pl_outfile of;
		e = pl_outfile_open(&of, pl_g.output);
		if (e < 0) {
			char buf[512];
			pl_error("%s", pl_outfile_strerror(buf, sizeof(buf), pl_g.output, e));
			rc = PL_EXIT_USAGE;
		} else {
			pl_autojson json_t *doc = pl_g.json ? pl_cnt_json(&rep, false) : NULL;
			e = doc ? pl_json_write(of.fp, doc) : pl_cnt_write_text(of.fp, &rep);
			e = pl_outfile_close(&of, e == 0) ?: e;
			rc = e < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
		}
	}
	pl_cnt_plan_free(&p);
	pl_cnt_result_free(&r);
	free(evs);
	return rc;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, stat_optv, &o, &args);
	if (rc >= 0)
		return rc;
	char **cmdv = args.dashdash >= 0 ? args.pos + args.dashdash : NULL;
	if (o.list) {
		struct pl_outfile of;
		int e = pl_outfile_open(&of, pl_g.output);
		if (e < 0) {
			char buf[512];
			pl_error("%s", pl_outfile_strerror(buf, sizeof(buf), pl_g.output, e));
			rc = PL_EXIT_USAGE;
		} else {
			e = do_list(of.fp);
			e = pl_outfile_close(&of, e == 0) ?: e;
			rc = e < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
		}
	} else {
		rc = check_opts(&o, &args, cmdv);
		if (rc < 0)
			rc = o.from ? from_file(&o) : run(&o, cmdv);
	}
	free(o.events);
	pl_args_free(&args);
	return rc;
}
