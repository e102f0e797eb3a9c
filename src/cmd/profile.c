/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab profile: a sampling profiler over perf_event_open with kernel symbols,
 * callchains, region markers, flame graphs and a syscall summary. This file is wiring
 * (docs/ARCHITECTURE.md): the option table and --help, the checks of the command line,
 * then the stages of src/profile/: the session (session.h: start or attach, drain,
 * stop), the aggregation (aggregate.h), the timeline (timeline.h) and the outputs
 * (output.h), with the files and the error lines they need. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "util/json.h"
#include "profile/offcpu.h"
#include "profile/offcpu_output.h"
#include "profile/output.h"
#include "profile/aggregate.h"
#include "profile/session.h"
#include "profile/timeline.h"
#include "util/clock.h"
#include "util/cleanup.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

static const char *const cg_choices[] = { "fp", "dwarf", "none", NULL };
static const char *const event_choices[] = { "cycles", "cpu-clock", "task-clock", NULL };
/* in the order of enum pl_syscalls_via */
static const char *const via_choices[] = { "auto", "tracepoint", "ptrace", NULL };

struct profile_opts {
	int freq;
	uint64_t period;
	int event;
	bool g;
	int cg;
	bool syscalls;
	int via;
	bool locks;
	double duration;
	const char *cpus;
	const char *pids;
	bool all;
	int top;
	const char *folded;
	const char *svg;
	bool tree;
	const char *region;
	int timeline_ms;
	const char *from_folded;
	const char *debug_root;
	int ring_kb;
	bool no_demangle;
	uint64_t stack_size;
	bool samples;
	bool off_cpu;
	bool wall;
};

static const struct pl_opt profile_optv[] = {
	{ "freq", 'F', PL_OPT_INT, offsetof(struct profile_opts, freq), "HZ",
	  "samples per second per CPU", .min = 1, .max = 100000, .def = "999" },
	{ "period", 'c', PL_OPT_U64, offsetof(struct profile_opts, period), "N",
	  "sample every N events instead of -F (cpu-clock: N ns)" },
	{ "event", 'e', PL_OPT_ENUM, offsetof(struct profile_opts, event), "EVENT",
	  "event to sample; cycles falls back to cpu-clock without a PMU", event_choices,
	  .def = "cycles" },
	{ "callgraph-fp", 'g', PL_OPT_FLAG, offsetof(struct profile_opts, g), NULL,
	  "frame-pointer callchains (the default; same as --call-graph fp)" },
	{ "call-graph", 0, PL_OPT_ENUM, offsetof(struct profile_opts, cg), "MODE",
	  "callchains: fp (frame pointers), dwarf (copy user stacks) or none", cg_choices,
	  .def = "fp" },
	{ "stack-size", 0, PL_OPT_SIZE, offsetof(struct profile_opts, stack_size), "BYTES",
	  "user stack bytes copied per sample for dwarf (perf's dwarf,SIZE; rounded up to a "
	  "multiple of 8); implies --call-graph dwarf",
	  .min = 1, .max = PL_PE_STACK_USER_MAX, .def = "8192" },
	{ "syscalls", 0, PL_OPT_FLAG, offsetof(struct profile_opts, syscalls), NULL,
	  "count syscalls exactly with time and errors per name (like strace -c); the text "
	  "report is then the syscall summary (--samples adds the sampling tables)" },
	{ "samples", 0, PL_OPT_FLAG, offsetof(struct profile_opts, samples), NULL,
	  "with --syscalls: print the sampling tables too, after the summary (--tree, "
	  "--timeline and --region imply it)" },
	{ "syscalls-via", 0, PL_OPT_ENUM, offsetof(struct profile_opts, via), "METHOD",
	  "--syscalls by tracepoint (root), ptrace (slower, like strace; not -a) or auto "
	  "(tracepoints, else ptrace); implies --syscalls",
	  via_choices, .def = "auto" },
	{ "locks", 0, PL_OPT_FLAG, offsetof(struct profile_opts, locks), NULL,
	  "lock contention: time blocked in futex waits by call site, lock address and thread "
	  "(like perf lock contention; root)" },
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct profile_opts, duration), "S",
	  "stop after S, more than 0 (-p/-a: default until Ctrl-C; -- CMD: stop the command)" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct profile_opts, cpus), "LIST",
	  "only these CPUs (cpulist, e.g. 0-3)" },
	{ "pid", 'p', PL_OPT_STR, offsetof(struct profile_opts, pids), "PID[,PID]",
	  "profile running processes (all their threads, and new ones)" },
	{ "all-cpus", 'a', PL_OPT_FLAG, offsetof(struct profile_opts, all), NULL,
	  "profile everything on the CPUs (system-wide)" },
	{ "top", 0, PL_OPT_INT, offsetof(struct profile_opts, top), "N",
	  "rows of the top-function and threads tables (the rest is summed; --json has all)",
	  .min = 1, .max = 100000, .def = "20", .was_short = 'n' },
	{ "folded", 0, PL_OPT_STR, offsetof(struct profile_opts, folded), "FILE",
	  "write folded stacks (flamegraph.pl, speedscope)" },
	{ "svg", 0, PL_OPT_STR, offsetof(struct profile_opts, svg), "FILE",
	  "write an interactive flame graph" },
	{ "tree", 0, PL_OPT_FLAG, offsetof(struct profile_opts, tree), NULL,
	  "print the call tree of the hottest paths" },
	{ "region", 0, PL_OPT_STR, offsetof(struct profile_opts, region), "NAME",
	  "report only samples inside marker region NAME (include/perflab/mark.h)",
	  .was_short = 'r' },
	{ "timeline", 0, PL_OPT_INT, offsetof(struct profile_opts, timeline_ms), "MS",
	  "sample density per thread and CPU in MS buckets (text, JSON, SVG)", .min = 1,
	  .max = 3600000 },
	{ "off-cpu", 0, PL_OPT_FLAG, offsetof(struct profile_opts, off_cpu), NULL,
	  "also where the time off CPU goes: blocked and preempted time by stack with their "
	  "wakers, scheduler delay (run-queue latency), per-thread run and wait times "
	  "(sched tracepoints: root or perf_event_paranoid -1)" },
	{ "wall", 0, PL_OPT_FLAG, offsetof(struct profile_opts, wall), NULL,
	  "with --folded/--svg: one wall-clock graph of on-CPU and off-CPU time in microseconds "
	  "(off-CPU frames blue; --json: wall_folded); implies --off-cpu; needs --folded, --svg "
	  "or --json" },
	{ "from-folded", 0, PL_OPT_STR, offsetof(struct profile_opts, from_folded), "FILE",
	  "do not profile: turn folded stacks from FILE ('frame;...;leaf COUNT' lines, - for "
	  "stdin) into --svg" },
	{ "debug-root", 0, PL_OPT_STR, offsetof(struct profile_opts, debug_root), "DIR",
	  "separate debug files (build-id, debuglink) under DIR", .def = "/usr/lib/debug" },
	{ "no-demangle", 0, PL_OPT_FLAG, offsetof(struct profile_opts, no_demangle), NULL,
	  "print C++ and Rust names as in the symbol table (mangled)" },
	{ "ring-kb", 0, PL_OPT_INT, offsetof(struct profile_opts, ring_kb), "KB",
	  "ring buffer per CPU in KiB (power of two)", .min = 8, .max = 1048576, .def = "1024" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "profile",
	.usage = "perflab profile [-F HZ | -c N] [-e EVENT] [-g | --call-graph fp|dwarf|none]\n"
		 "       [--stack-size BYTES] [--syscalls [--syscalls-via auto|tracepoint|ptrace]\n"
		 "       [--samples]] [--locks] [--duration S]\n"
		 "       [--cpus LIST] [--region NAME] [--tree] [--folded FILE] [--svg FILE]\n"
		 "       [--timeline MS] [--off-cpu [--wall]] [--no-demangle] [--json]\n"
		 "       (-- CMD ARGS... | -p PID[,PID] | -a)",
	.summary = "Sample where CPU time goes (user and kernel), with callchains, markers and "
		   "flame graphs.",
	.description =
		"Uses perf_event_open directly: one event per CPU, following new threads and\n"
		"children; a command is started with enable_on_exec so perflab's own start-up is\n"
		"not sampled. Without a hardware PMU (VMs) cycles falls back to cpu-clock; "
		"without\n"
		"permission for kernel samples it samples user space only and says why.\n"
		"Samples use CLOCK_MONOTONIC, the clock of the region markers (pl_region_begin/\n"
		"pl_region_end from libperflab-mark), so --region NAME keeps the samples taken\n"
		"while the sampled thread was inside NAME.\n"
		"C++ and Rust names are demangled (libiberty, as c++filt prints them); the JSON\n"
		"keeps the symbol table's name as \"mangled\". In the tables and --tree on a\n"
		"terminal, long names are shortened to the width, only as far as needed\n"
		"(inner templates to <...> first, the parameter list to (...) last, then the\n"
		"front), different names kept apart; to a file or pipe they are printed whole.\n"
		"--syscalls counts every call through the raw_syscalls tracepoints (root); when\n"
		"they are not usable it falls back to ptrace syscall stops like strace -f (exact\n"
		"counts, but the program runs slower, so times are inflated) and says so; a\n"
		"command is then followed until no traced task is left (like strace -f), and\n"
		"times are wall entry-to-exit, like strace -c -w (strace -c: system time).\n"
		"With --syscalls the text report is the syscall summary; the sampling tables\n"
		"(which then show mostly the tracing's own cost) follow it with --samples.\n"
		"When no output shows samples (text without --samples, --tree, --timeline,\n"
		"--region, --folded or --svg) none are taken, so the program pays only for\n"
		"the counting; the sampling options (-F, -c, -e, --call-graph, --stack-size,\n"
		"--ring-kb) then do nothing, and --syscalls-via ptrace needs no perf_event_open.\n"
		"--call-graph dwarf copies --stack-size bytes (default 8192, at most 65528, as\n"
		"perf's dwarf,SIZE) of user stack per sample; the report says how many samples\n"
		"had a deeper stack than the copy (their outer callers are missing).\n"
		"--locks samples the syscalls:sys_enter_futex/sys_exit_futex tracepoints (and\n"
		"futex_waitv, futex_wait, futex_wake where present; root) with each wait's user\n"
		"stack, pairs enter and exit per thread, and reports the time blocked in futex\n"
		"waits per call site (the first frame outside libc, libpthread and ld.so), per\n"
		"lock address and per thread, like perf lock contention: contended waits, total,\n"
		"max and mean wait, and retries (EAGAIN: the lock word changed, no wait). A wait\n"
		"whose enter or exit was lost to a full ring is dropped and counted, not guessed.\n"
		"A wait for a thread to exit (pthread_join: FUTEX_WAIT on the thread's id word)\n"
		"is not lock contention: it is shown apart, as thread joins, and left out of\n"
		"the totals and the tables.\n"
		"Output: the report (text or --json) goes to stdout, except with '-- CMD': the\n"
		"command keeps stdout and stderr, and the report goes to stderr (like strace -c\n"
		"and time), so 'perflab profile -- CMD >/dev/null' keeps it; -o FILE writes it to\n"
		"FILE, and '--json -o FILE' is one valid JSON document whatever CMD prints.\n"
		"--json prints docs/schemas/profile.schema.json (with '-- CMD' and no -o, a note\n"
		"says it went to stderr). Ctrl-C during '-- CMD' passes the signal to the\n"
		"command, writes what was recorded, marked interrupted, and exits 130.\n"
		"--off-cpu records sched_switch, sched_waking and sched_migrate_task with\n"
		"callchains: each thread's time off CPU from switch-out to switch-in, blocked\n"
		"(left in S or D: sleep, I/O, locks) or preempted (left runnable), summed by the\n"
		"stack at switch-out with the stacks of the wakers that ended the waits (bcc's\n"
		"offcputime and offwaketime); scheduler delay from waking (or preemption) to\n"
		"running, as perf sched timehist's sch delay (schedstat's run_delay does not\n"
		"count a wakeup's latency to a switch it asks for), with runqlat's log2\n"
		"histogram; a per-thread summary like 'perf sched timehist -s'. Intervals open\n"
		"at the window's edges are clipped and counted; intervals across lost events\n"
		"are dropped and counted.\n"
		"With --off-cpu, --folded and --svg write the off-CPU flame graph in\n"
		"microseconds; --wall adds on-CPU time (a thread's on-CPU time from the switch\n"
		"log spread over its sampled stacks by their share of its samples), off-CPU\n"
		"frames marked _[o] and drawn blue. --timeline adds each thread's ms running,\n"
		"waiting on the run queue and blocked per bucket. The sched tracepoints are\n"
		"opened for all tasks on the CPUs (like 'perf sched record -a'; the sampling\n"
		"goes on beside them) and only the target's threads are kept; they need root,\n"
		"or CAP_PERFMON (or kernel.perf_event_paranoid=-1) with a readable tracefs.\n"
		"Events lost to a full ring are counted and reported.\n"
		"Exit: 0 ok, 2 bad usage or a\n"
		"command that cannot be run, 3 perf_event_open unavailable or refused (the\n"
		"message says by what: perf_event_paranoid, a missing capability, or a seccomp\n"
		"filter or security module), or --off-cpu's tracepoints refused.",
};

static void warn_line(void *ctx, const char *msg)
{
	(void)ctx;
	pl_warn("%s", msg);
}

/* -p LIST: process ids (digits, comma-separated, none empty) of processes that exist, so
 * '-p ""' or '-p -d 4' (the option's value taken from the next option) is an input error
 * instead of a profile of nothing. Returns -1, or PL_EXIT_USAGE after one error line. */
static int check_pids(const char *list)
{
	const char *fix = "give running process ids, comma-separated, e.g. -p 1234,5678";
	size_t n = strlen(list);
	if (!n || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,")) {
		pl_error("-p '%s': an empty process id (%s)", list, fix);
		return PL_EXIT_USAGE;
	}
	char **v = pl_split(list, ",", NULL);
	int rc = -1;
	for (size_t i = 0; v[i] && rc < 0; i++) {
		uint64_t pid = 0;
		bool digits = v[i][0] != '\0' && strspn(v[i], "0123456789") == strlen(v[i]);
		if (!digits || pl_parse_u64(v[i], &pid) < 0 || pid == 0 || pid > 0x7fffffff) {
			pl_error("-p '%s': '%s' is not a process id (%s)", list, v[i], fix);
			rc = PL_EXIT_USAGE;
		} else if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			pl_error("-p '%s': no process %s is running (%s)", list, v[i], fix);
			rc = PL_EXIT_USAGE;
		}
	}
	pl_strv_free(v);
	return rc;
}

/* The command line beyond what the option table checks, and what options imply. Returns
 * -1 when it is usable, else the exit code (the error logged). */
static int check_opts(struct profile_opts *o, const struct pl_args *args, char **cmdv)
{
	int ntargets = (cmdv && cmdv[0]) + (o->pids != NULL) + o->all;
	if (o->pids && check_pids(o->pids) >= 0)
		return PL_EXIT_USAGE;
	if (args->npos > 0 && args->dashdash != 0) {
		pl_error("unexpected argument '%s' (put the command after '--')", args->pos[0]);
		return PL_EXIT_USAGE;
	}
	if (ntargets != 1) {
		pl_error("give exactly one target: '-- CMD ARGS...', '-p PID' or '-a' (see "
			 "'perflab profile --help')");
		return PL_EXIT_USAGE;
	}
	if (o->ring_kb & (o->ring_kb - 1)) {
		pl_error("--ring-kb %d: give a power of two (e.g. 1024)", o->ring_kb);
		return PL_EXIT_USAGE;
	}
	if (!pl_sysroot_is_live()) {
		pl_error("--sysroot: profiling needs the live system (perf_event_open)");
		return PL_EXIT_USAGE;
	}
	if (o->stack_size && (o->g || (o->cg >= 0 && o->cg != 1))) {
		pl_error("--stack-size is for --call-graph dwarf, not --call-graph %s (drop one of "
			 "them)",
			 o->g ? "fp (-g)" : cg_choices[o->cg]);
		return PL_EXIT_USAGE;
	}
	if (o->g || o->cg < 0)
		o->cg = 0;
	if (o->stack_size) {
		o->cg = 1; /* implies --call-graph dwarf, as perf's dwarf,SIZE */
		o->stack_size = (o->stack_size + 7) & ~(uint64_t)7;
	}
	/* -d 0 would be a run that never stops on its own: leaving -d out is "until Ctrl-C" */
	if (o->duration == 0) {
		pl_error("-d 0: -d needs a duration > 0 (e.g. -d 5s; leave -d out to run until "
			 "Ctrl-C with -p/-a, or until the command ends)");
		return PL_EXIT_USAGE;
	}
	if (o->duration < 0)
		o->duration = 0; /* not given */
	/* the text report has no wall-clock part: --wall only shapes the graph files and the
	 * JSON's wall_folded */
	if (o->wall && !o->folded && !o->svg && !pl_g.json) {
		pl_error("--wall is for --folded FILE, --svg FILE or --json (the text report "
			 "does not show it: give one of them, or --off-cpu for the off-CPU "
			 "text)");
		return PL_EXIT_USAGE;
	}
	if (o->wall)
		o->off_cpu = true; /* --wall is on-CPU and off-CPU time in one graph */
	/* the option named as the user gave it (--wall implies --off-cpu) */
	if (o->off_cpu && o->region) {
		pl_error("--region with %s: scheduler events are not filtered by region "
			 "(drop one of them)",
			 o->wall ? "--wall" : "--off-cpu");
		return PL_EXIT_USAGE;
	}
	if (o->via >= 0)
		o->syscalls = true; /* --syscalls-via given (auto too) */
	else
		o->via = PL_SYSCALLS_VIA_AUTO;
	if (o->syscalls && o->via == PL_SYSCALLS_VIA_PTRACE && o->all) {
		pl_error("--syscalls-via ptrace cannot trace -a (system-wide): use tracepoints "
			 "(root) or give '-- CMD' or '-p PID'");
		return PL_EXIT_USAGE;
	}
	return -1;
}

/* --folded and --svg: the folded stacks in memory, then each file. */
static int write_files(const struct profile_opts *o, const struct pl_preport *r,
		       const struct pl_timeline *tl, const char *title, const char *off)
{
	pl_autofree char *buf = NULL;
	size_t len = 0;
	char err[4096];
	/* --off-cpu: the off-CPU (or --wall) graph in microseconds instead of samples */
	int e = off ? 0 : pl_pout_folded(r, &buf, &len);
	if (e < 0) {
		pl_error("cannot write the folded stacks: %s", strerror(-e));
		return PL_EXIT_RUNTIME;
	}
	if (off) {
		buf = pl_xstrdup(off);
		len = strlen(buf);
	}
	const char *paths[] = { o->folded, o->svg };
	int rc = PL_EXIT_OK;
	for (int i = 0; i < 2; i++) {
		e = paths[i] ? pl_pout_write_stacks(paths[i], i == 1, buf, len, tl, title,
						    off ? "us" : NULL, err, sizeof(err))
			     : PL_EXIT_OK;
		if (e != PL_EXIT_OK)
			rc = e;
		if (e == PL_EXIT_USAGE)
			pl_error("%s", err);
	}
	return rc;
}

/* After the run: aggregate (filtered by --region), the timeline, the outputs and the
 * warnings. (/proc/kallsyms is read here, not in a thread during the run: reading it
 * costs 50-200 ms of CPU that the target would lose on a busy machine.) */
static int report(const struct profile_opts *o, struct pl_psession *s)
{
	uint64_t rep0 = pl_now_ns();
	pl_markring_collect(&s->markers, s->t1);
	struct pl_region_filter rf = { &s->markers, -1 };
	pl_sample_filter filter = NULL;
	if (o->region) {
		rf.idx = pl_markring_find(&s->markers, o->region);
		if (rf.idx < 0) {
			pl_error("--region '%s': the program marked no such region (%s)", o->region,
				 s->markers.nnames
					 ? "see the regions in the report without --region"
					 : "it marked none; link it with libperflab-mark");
			return PL_EXIT_USAGE;
		}
		filter = pl_region_filter_keep;
	}
	/* --off-cpu first: symbolizing its stacks may add threads to the profile, which
	 * the aggregation's per-thread table must cover */
	struct pl_offcpu off = { 0 };
	struct pl_offcpu_names offn = { 0 };
	pl_autofree char *off_folded = NULL, *wall_folded = NULL;
	if (o->off_cpu) {
		size_t len;
		uint64_t off0 = pl_now_ns();
		pl_offcpu_build(&off, &s->sched, o->timeline_ms);
		pl_offcpu_names_build(&offn, &off, &s->prof);
		if (pl_offcpu_folded(&off, &s->prof, false, NULL, NULL, &off_folded, &len) < 0 ||
		    (o->wall &&
		     pl_offcpu_folded(&off, &s->prof, true, NULL, NULL, &wall_folded, &len) < 0)) {
			pl_error("cannot make the off-CPU folded stacks: %s", strerror(errno));
			pl_offcpu_names_free(&offn);
			pl_offcpu_free(&off);
			return PL_EXIT_RUNTIME;
		}
		/* the analysis: the log's sort after the run, intervals, stacks and wakers,
		 * symbolized, and the folded stacks (the text is printed with the report) */
		double an = (double)(pl_now_ns() - off0 + s->sched_finish_ns);
		size_t nev = s->sched.n;
		pl_debug("off-CPU analysis: %.3f ms for %zu events (%.0f ns per event; sort %.3f "
			 "ms)",
			 an / 1e6, nev, nev ? an / (double)nev : 0.0,
			 (double)s->sched_finish_ns / 1e6);
	}
	struct pl_preport rep;
	pl_preport_build(&rep, &s->prof, filter, &rf);
	struct pl_timeline tl = { 0 };
	if (o->timeline_ms > 0)
		pl_timeline_build(&tl, &s->prof, &rep, s->t0, s->t1, o->timeline_ms, filter, &rf);
	struct pl_pout po;
	pl_pout_init(&po, s, &rep, o->timeline_ms > 0 ? &tl : NULL);
	po.region = o->region;
	po.top = o->top;
	po.tree = o->tree;
	po.samples = o->samples;
	if (o->off_cpu) {
		po.off = &off;
		po.offn = &offn;
		po.off_folded = off_folded;
		po.wall_folded = wall_folded;
	}
	/* The output rule (perflab(1), OUTPUT): a command keeps stdout and stderr; without -o
	 * the report then goes to stderr, like strace -c and time, so the command's output
	 * can be redirected without losing it. -o - asks for stdout explicitly. One path for
	 * text and --json (perflab(1), EXIT STATUS): an -o FILE that cannot be opened is an
	 * input error (2; it was checked before the run), an output that cannot be written
	 * (a full disk, stderr or stdout on /dev/full or a closed pipe) a runtime failure
	 * (3), as main.c's flush of stdout. */
	char err[4096];
	bool to_stderr = pl_cmd_report_to_stderr(s->cfg.argv ? "the command" : NULL);
	int ret = pl_pout_write(&po, pl_g.output, to_stderr, pl_g.json, err, sizeof(err));
	if (ret != PL_EXIT_OK)
		pl_error("%s", err);
	if (ret == PL_EXIT_OK && (o->folded || o->svg)) {
		pl_autofree char *title =
			o->wall	     ? pl_xasprintf("Wall-clock time of %s: on-CPU and off-CPU "
							 "(blue), microseconds",
						    s->what)
			: o->off_cpu ? pl_xasprintf("Off-CPU time of %s (blocked and preempted), "
						    "microseconds",
						    s->what)
				     : pl_xasprintf("perflab profile of %s", s->what);
		ret = write_files(o, &rep, po.tl, title,
				  o->wall      ? wall_folded
				  : o->off_cpu ? off_folded
					       : NULL);
	}
	pl_autofree char *truncated = pl_pout_warn_truncated(&s->pe, &s->prof);
	pl_autofree char *lost = pl_pout_warn_lost(&s->prof);
	if (truncated)
		pl_warn("%s", truncated);
	if (lost)
		pl_warn("%s", lost);
	size_t n = s->prof.nsamples;
	double ns = (double)(pl_now_ns() - rep0);
	pl_debug("report: %.3f ms for %zu samples (%.0f ns per sample)", ns / 1e6, n,
		 n ? ns / (double)n : 0.0);
	pl_timeline_free(&tl);
	pl_preport_free(&rep);
	pl_offcpu_names_free(&offn);
	pl_offcpu_free(&off);
	return ret;
}

/* Check the output paths, run the session, report. */
static int profile(const struct profile_opts *o, char **cmdv)
{
	pl_autofree int *cpus = NULL;
	size_t ncpus = 0;
	if (pl_psession_cpus(o->cpus, &cpus, &ncpus) < 0) {
		pl_error("--cpus '%s': no CPUs", o->cpus);
		return PL_EXIT_USAGE;
	}
	/* output paths are checked before the program runs, not after */
	const char *outs[][2] = { { "--folded", o->folded },
				  { "--svg", o->svg },
				  { "-o", pl_g.output } };
	for (size_t i = 0; i < 3; i++) {
		/* pl_outfile's checks without writing: a temporary file created and removed
		 * beside a new or regular file; a symlink, device or FIFO only checked for
		 * access, never opened */
		struct pl_outfile of;
		int e = outs[i][1] ? pl_outfile_open(&of, outs[i][1]) : 1;
		if (e == 0)
			pl_outfile_close(&of, false);
		if (e < 0) {
			pl_error("%s '%s': cannot write there: %s (choose another path)",
				 outs[i][0], outs[i][1], strerror(-e));
			return PL_EXIT_USAGE;
		}
	}
	const struct pl_psession_config cfg = {
		.argv = cmdv,
		.pids = o->pids,
		.all = o->all,
		.cpus = cpus,
		.ncpus = ncpus,
		.pe = {
			.event = event_choices[o->event],
			.freq = (uint64_t)o->freq,
			.period = o->period,
			.cg = o->cg == 0 ? PL_CG_FP : o->cg == 1 ? PL_CG_DWARF : PL_CG_NONE,
			.ring_pages = (uint32_t)o->ring_kb / 4,
			.stack_bytes = (uint32_t)(o->stack_size ? o->stack_size
								: PL_PE_STACK_USER_DEFAULT),
		},
		.syscalls = o->syscalls,
		.off_cpu = o->off_cpu,
		.locks = o->locks,
		/* the syscall summary alone: nothing shows samples, so none are taken (under
		 * ptrace the sampling timer is switched at each of the tracer's and the
		 * tracee's context switches: 2.2x strace -c's wall time instead of ~1x) */
		.no_sampling = !pl_g.json && !o->folded && !o->svg && !o->off_cpu && !o->locks &&
			       !pl_pout_text_shows_samples(o->syscalls, o->samples, o->tree,
							   o->timeline_ms > 0, o->region != NULL),
		.via = (enum pl_syscalls_via)o->via,
		.duration_s = o->duration,
		.debug_root = o->debug_root,
		.no_demangle = o->no_demangle,
		.warn = warn_line,
	};
	char err[4096];
	struct pl_psession s;
	int ret = pl_psession_open(&s, &cfg, err, sizeof(err));
	if (ret == PL_EXIT_OK)
		ret = pl_psession_run(&s, err, sizeof(err));
	if (ret != PL_EXIT_OK)
		pl_error("%s", err);
	else
		ret = report(o, &s);
	/* Ctrl-C during a command: what was recorded is written, and the exit says the run
	 * was cut short (as bench, report and monitor) */
	if (ret == PL_EXIT_OK && s.interrupted)
		ret = 130;
	pl_psession_close(&s);
	return ret;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o = {
		.freq = 999, .top = 20, .ring_kb = 1024, .via = -1, .cg = -1, .duration = -1
	};
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, profile_optv, &o, &args);
	if (rc >= 0)
		return rc;
	if (o.from_folded) {
		char err[4096];
		rc = pl_pout_from_folded(o.from_folded, o.svg, err, sizeof(err));
		if (rc != PL_EXIT_OK && err[0])
			pl_error("%s", err);
		pl_args_free(&args);
		return rc;
	}
	char **cmdv = args.dashdash >= 0 ? args.pos + args.dashdash : NULL;
	rc = check_opts(&o, &args, cmdv);
	if (rc < 0)
		rc = profile(&o, cmdv);
	pl_args_free(&args);
	return rc;
}
