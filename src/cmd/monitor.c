/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor: system-wide telemetry over time. This file parses and checks the
 * options and wires the engine (src/monitor/: parsers, rates, outputs, the loop). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "monitor/accel.h"
#include "monitor/session.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct monitor_opts {
	double interval;
	double duration;
	const char *cpus;
	bool csv;
	const char *prom;
};

static const struct pl_opt monitor_opts[] = {
	{ "interval", 'I', PL_OPT_DURATION, offsetof(struct monitor_opts, interval), "S",
	  "time between samples, at least 100ms", .min = PL_MON_INTERVAL_MIN, .max = 3600,
	  .def = "1s" },
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct monitor_opts, duration), "S",
	  "stop after S; 0, the default: when CMD ends, else at Ctrl-C (as sar and vmstat "
	  "without a count)" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct monitor_opts, cpus), "LIST",
	  "CPUs shown one by one (the all-CPU figures are always the whole machine)",
	  .def = "all" },
	{ "csv", 0, PL_OPT_FLAG, offsetof(struct monitor_opts, csv), NULL,
	  "write CSV rows (one per interval) instead of text" },
	{ "prom-textfile", 0, PL_OPT_STR, offsetof(struct monitor_opts, prom), "FILE",
	  "rewrite FILE atomically each interval in Prometheus text format" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "monitor",
	.usage = "perflab monitor [-I S] [-d S] [-C LIST] [--json|--csv] [-o FILE]\n"
		 "                       [--prom-textfile FILE] [-- CMD [ARGS...]]",
	.summary = "Sample the whole machine over time: CPU, interrupts, memory, NUMA, "
		   "pressure, disks, network.",
	.description =
		"Every interval (default 1 s, down to 100 ms) gives per CPU and all CPUs\n"
		"user, nice, system, iowait, irq, softirq, steal, guest and idle % (as mpstat);\n"
		"load average, runnable tasks, context switches and forks per second;\n"
		"interrupts and softirqs per CPU and their top sources; memory levels, page\n"
		"faults, swapping, THP allocations, compaction stalls and NUMA allocations with\n"
		"the remote ratio; pressure stall % (/proc/pressure); per disk IOPS, bytes/s,\n"
		"queue depth, await and utilization (as iostat -x); per interface packets,\n"
		"bytes and drops per second, TCP retransmits and listen overflows per second.\n"
		"A counter that went down (wrapped, reset) or a CPU that went on- or offline\n"
		"marks the interval (flags) instead of giving a negative rate.\n"
		"Sampling ends after -d, when CMD ends (its exit status and own CPU time are\n"
		"recorded, and perflab exits with its status, as time(1) does) or at Ctrl-C\n"
		"(what was sampled is kept; exit 130). Output: one text line per interval,\n"
		"--csv, or --json (docs/schemas/monitor.schema.json; written as it is sampled,\n"
		"so memory stays flat); with -o FILE the live lines still go to the terminal.\n"
		"With '-- CMD' the command keeps stdout: the output goes to stderr unless\n"
		"-o FILE (perflab(1), OUTPUT).\n"
		"'perflab report --from monitor.json' draws the time series.",
};

/* The fix of a --prom-textfile path that cannot be written. */
#define PROM_FIX "give a file path in node_exporter's textfile directory"

/* The output format: --json, --csv, or by -o's extension (.json, .csv). */
static enum pl_mon_format pick_format(const struct monitor_opts *o)
{
	const char *out = pl_g.output;
	size_t n = out ? strlen(out) : 0;
	if (pl_g.json || (n > 5 && strcmp(out + n - 5, ".json") == 0))
		return PL_MON_FMT_JSON;
	if (o->csv || (n > 4 && strcmp(out + n - 4, ".csv") == 0))
		return PL_MON_FMT_CSV;
	return PL_MON_FMT_TEXT;
}

static int parse_cpus(const struct monitor_opts *o, const struct pl_mon_snap *s,
		      struct pl_cpuset *out)
{
	pl_cpuset_clear(out);
	if (!o->cpus || strcmp(o->cpus, "all") == 0) {
		for (int c = 0; c < s->stat.ncpu; c++)
			if (s->stat.online[c])
				pl_cpuset_set(out, (unsigned)c);
		return 0;
	}
	if (pl_cpuset_parse(o->cpus, out) < 0 || pl_cpuset_count(out) == 0) {
		pl_error("--cpus '%s': not a CPU list (give e.g. 0-3,8 or all)", o->cpus);
		return -EINVAL;
	}
	int bad = pl_mon_missing_cpu(s, out);
	if (bad >= 0) {
		struct pl_cpuset on;
		pl_cpuset_clear(&on);
		for (int c = 0; c < s->stat.ncpu; c++)
			if (s->stat.online[c])
				pl_cpuset_set(&on, (unsigned)c);
		char list[256];
		pl_cpuset_format(&on, list, sizeof(list));
		pl_error("--cpus '%s': CPU %d is not online here (online CPUs in /proc/stat: %s; "
			 "give CPUs from that list)",
			 o->cpus, bad, list);
		return -EINVAL;
	}
	return 0;
}

int cmd_monitor(int argc, char **argv)
{
	struct monitor_opts o = { .interval = 1.0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, monitor_opts, &o, &args);
	if (rc >= 0)
		return rc;
	int ret = PL_EXIT_USAGE;
	struct pl_mon_snap first = { 0 };
	struct pl_outfile out = { 0 };
	struct pl_mon_prom prom = { .dirfd = -1 };
	bool opened = false;
	struct pl_mon_opts mo = { .interval_s = o.interval, .duration_s = o.duration };
	if (args.npos > 0 && args.dashdash != 0) {
		pl_error("unexpected argument '%s' (a command goes after '--': perflab monitor "
			 "-- CMD)",
			 args.pos[0]);
		goto done;
	}
	if (pl_g.json && o.csv) {
		pl_error("--json and --csv: choose one output format");
		goto done;
	}
	if (o.prom && (rc = pl_mon_prom_open(&prom, o.prom)) < 0) {
		pl_error("--prom-textfile '%s': %s (" PROM_FIX ")", o.prom, strerror(-rc));
		goto done;
	}
	if (pl_mon_snap_read(&first) < 0) {
		pl_error("cannot read '%s/proc/stat' (give a machine tree with proc/ to "
			 "--sysroot)",
			 pl_sysroot());
		goto done;
	}
	if (parse_cpus(&o, &first, &mo.cpus) < 0)
		goto done;
	if ((rc = pl_outfile_open(&out, pl_g.output)) < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, rc));
		goto done;
	}
	opened = true;
	pid_t pid = 0;
	if (args.dashdash >= 0) {
		mo.argv = args.pos + args.dashdash;
		if ((rc = pl_mon_spawn(mo.argv, &pid)) < 0) {
			pl_error("cannot run '%s': %s", mo.argv[0],
				 pl_exec_strerror(mo.argv[0], -rc));
			goto done;
		}
	}
	mo.format = pick_format(&o);
	/* the output rule (perflab(1), OUTPUT): CMD keeps stdout, the document goes to
	 * stderr unless -o FILE */
	bool to_stderr = pl_cmd_report_to_stderr(mo.argv ? "the command" : NULL);
	mo.out = to_stderr ? stderr : out.fp;
	bool to_file = out.path != NULL;
	if (pl_verbosity >= 0 && !to_stderr && (to_file || mo.format != PL_MON_FMT_TEXT) &&
	    (to_file || isatty(STDERR_FILENO))) {
		/* the document goes elsewhere: live lines on the terminal (stdout when it is
		 * free, else stderr) */
		mo.live = to_file ? stdout : stderr;
		mo.bars = isatty(fileno(mo.live));
	}
	mo.prom = o.prom ? &prom : NULL;
	struct pl_mon_result res;
	rc = pl_mon_run(&first, pid, &mo, &res);
	int c = pl_outfile_close(&out, rc == 0);
	opened = false;
	if (rc < 0 || c < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, rc < 0 ? rc : c));
		ret = PL_EXIT_RUNTIME;
	} else if (res.prom_errno) {
		pl_error("--prom-textfile '%s': %s (" PROM_FIX ")", o.prom,
			 strerror(res.prom_errno));
		ret = PL_EXIT_RUNTIME;
	} else if (res.interrupted) {
		ret = 130;
	} else if (res.has_cmd) {
		ret = res.cmd_signal ? 128 + res.cmd_signal : res.cmd_exit;
	} else {
		ret = PL_EXIT_OK;
	}
done:
	if (opened)
		pl_outfile_close(&out, false);
	pl_mon_prom_close(&prom);
	pl_mon_snap_free(&first);
	pl_mon_snap_close();
	pl_mon_nvml_close();
	pl_args_free(&args);
	return ret;
}
