/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab profile: a sampling profiler over perf_event_open with kernel symbols,
 * callchains, region markers, flame graphs and a syscall summary. This file wires the
 * stages (src/profile/) together: open -> read rings -> decode -> aggregate -> symbolize
 * -> print. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/common.h"
#include "out/json.h"
#include "profile/decode.h"
#include "profile/flame.h"
#include "profile/markers.h"
#include "profile/perf_event.h"
#include "profile/profile.h"
#include "profile/report.h"
#include "profile/syscalls.h"
#include "profile/unwind.h"
#include "util/clock.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

static const char *const cg_choices[] = { "fp", "dwarf", "none", NULL };
static const char *const event_choices[] = { "cycles", "cpu-clock", "task-clock", NULL };
enum { VIA_AUTO, VIA_TRACEPOINT, VIA_PTRACE };
static const char *const via_choices[] = { "auto", "tracepoint", "ptrace", NULL };

struct profile_opts {
	int freq;
	uint64_t period;
	int event;
	bool g;
	int cg;
	bool syscalls;
	int via;
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
};

/* perf's limit for --call-graph dwarf,SIZE (tools/perf/util/callchain.c get_stack_size:
 * rounded up to a multiple of 8, at most USHRT_MAX rounded down to one); the kernel
 * refuses sample_stack_user values that are not multiples of 8 or >= USHRT_MAX. */
#define STACK_SIZE_MAX 65528
#define STACK_SIZE_DEFAULT 8192

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
	  .min = 1, .max = STACK_SIZE_MAX, .def = "8192" },
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
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct profile_opts, duration), "S",
	  "stop after S (-p/-a: default until Ctrl-C; -- CMD: stop the command)" },
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
		 "       [--samples]] [--duration S]\n"
		 "       [--cpus LIST] [--region NAME] [--tree] [--folded FILE] [--svg FILE]\n"
		 "       [--timeline MS] [--no-demangle] [--json]\n"
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
		"--call-graph dwarf copies --stack-size bytes (default 8192, at most 65528, as\n"
		"perf's dwarf,SIZE) of user stack per sample; the report says how many samples\n"
		"had a deeper stack than the copy (their outer callers are missing).\n"
		"Output: the report (text or --json) goes to stdout, except with '-- CMD': the\n"
		"command keeps stdout and stderr, and the report goes to stderr (like strace -c\n"
		"and time), so 'perflab profile -- CMD >/dev/null' keeps it; -o FILE writes it to\n"
		"FILE, and '--json -o FILE' is one valid JSON document whatever CMD prints.\n"
		"--json prints docs/schemas/profile.schema.json. Exit: 0 ok, 2 bad usage or a\n"
		"command that cannot be run, 3 perf_event_open unavailable or refused (the\n"
		"message says by what: perf_event_paranoid, a missing capability, or a seccomp\n"
		"filter or security module).",
};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Drain every ring into the profile. */
static void drain(struct pl_pe_session *s, struct pl_profile *p, uint8_t *scratch)
{
	for (size_t i = 0; i < s->nrings; i++) {
		struct pl_pe_ring *r = &s->rings[i];
		uint64_t head = pl_pe_ring_head(r), tail = pl_pe_ring_tail(r);
		bool corrupt = false;
		uint64_t nt = pl_ring_walk(r->data, r->data_size, tail, head, scratch,
					   pl_profile_record, p, &corrupt);
		if (corrupt) {
			p->bad_records++;
			nt = head; /* skip what cannot be parsed rather than stall */
		}
		pl_pe_ring_set_tail(r, nt);
	}
}

/* ---- the target ---- */

struct target {
	pid_t child; /* -- CMD */
	int go_fd;   /* write end: one byte releases the child */
	int err_fd;  /* read end: errno of a failed exec, EOF on success */
	pid_t *pids; /* tasks to open events for */
	size_t npids;
	pid_t *procs; /* -p processes */
	size_t nprocs;
	int status;
	bool exited;
};

/* fork + wait for the go byte + exec: the events are opened on the child between the
 * two, with enable_on_exec, so nothing before the exec is sampled. */
static int start_child(struct target *t, char **argv)
{
	int go[2], err[2];
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	t->child = pid;
	t->go_fd = go[1];
	t->err_fd = err[0];
	t->pids = pl_xmalloc(sizeof(pid_t));
	t->pids[0] = pid;
	t->npids = 1;
	return 0;
}

/* With --syscalls via ptrace (@pt) the child stops at every syscall: drive it through
 * its stops up to the execve (or its exit when the exec failed) before reading the
 * result, which is there once the exec closed the pipe. Logs its error once (@cmd: the
 * command's name). Returns 0 or -errno (-ENOENT/-EACCES: the exec failed). */
static int release_child(struct target *t, struct pl_syscalls *pt, const char *cmd)
{
	char c = 'g';
	if (write(t->go_fd, &c, 1) != 1) {
		int r = -errno;
		pl_error("cannot start '%s': writing to its start pipe failed: %s", cmd,
			 strerror(-r));
		return r;
	}
	close(t->go_fd);
	t->go_fd = -1;
	while (pt && !pl_syscalls_execed(pt) && !pl_syscalls_leader_exited(pt, NULL)) {
		int r = pl_syscalls_wait(pt, true);
		if (r == 0)
			break;
		if (r < 0 && r != -EINTR) {
			pl_error("--syscalls: ptrace while starting '%s': %s", cmd,
				 pl_syscalls_ptrace_strerror(r));
			return r;
		}
	}
	int e = 0;
	ssize_t n = read(t->err_fd, &e, sizeof(e));
	close(t->err_fd);
	t->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		if (pt) {
			while (!pl_syscalls_leader_exited(pt, &t->status))
				if (pl_syscalls_wait(pt, true) == 0)
					break;
		} else {
			waitpid(t->child, &t->status, 0);
		}
		t->exited = true;
		pl_error("cannot run '%s': %s", cmd, pl_exec_strerror(cmd, e));
		return -e;
	}
	return 0;
}

static void kill_child(struct target *t)
{
	if (t->child > 0 && !t->exited) {
		kill(t->child, SIGKILL);
		waitpid(t->child, &t->status, 0);
		t->exited = true;
	}
}

/* -p: stop when every profiled process has exited (like perf record -p). */
static bool any_alive(const struct target *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (kill(t->procs[i], 0) == 0 || errno != ESRCH)
			return true;
	return false;
}

/* -p LIST: every thread of every listed process. */
static int list_tasks(struct target *t, const char *list)
{
	char **v = pl_split(list, ",", NULL);
	int r = 0;
	for (size_t i = 0; v[i]; i++) {
		uint64_t pid;
		if (pl_parse_u64(v[i], &pid) < 0 || pid == 0 || pid > 0x7fffffff) {
			r = -EINVAL;
			break;
		}
		t->procs = pl_xrealloc(t->procs, (t->nprocs + 1) * sizeof(pid_t));
		t->procs[t->nprocs++] = (pid_t)pid;
		char dir[64];
		char **tasks = NULL;
		size_t nt = 0;
		snprintf(dir, sizeof(dir), "/proc/%llu/task", (unsigned long long)pid);
		if (pl_list_dir(dir, &tasks, &nt) < 0) {
			r = -ESRCH;
			break;
		}
		for (size_t k = 0; k < nt; k++) {
			uint64_t tid;
			if (pl_parse_u64(tasks[k], &tid) == 0) {
				t->pids = pl_xrealloc(t->pids, (t->npids + 1) * sizeof(pid_t));
				t->pids[t->npids++] = (pid_t)tid;
			}
		}
		pl_strv_free(tasks);
	}
	pl_strv_free(v);
	return r;
}

/* ---- filters ---- */

struct region_filter {
	const struct pl_markers *m;
	int idx;
};

static bool in_region(void *ctx, const struct pl_psample *s)
{
	const struct region_filter *f = ctx;
	return pl_markers_inside(f->m, f->idx, s->tid, s->time);
}

/* ---- output ---- */

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

struct run_info {
	const char *what; /* "command 'x'", "pid 12", "all CPUs" */
	struct pl_pe_session *s;
	uint64_t wall_ns;
	uint64_t t0, t1; /* CLOCK_MONOTONIC run window */
	int freq;
	uint64_t period;
	const char *cg;
	int child_status;
	bool have_child;
};

struct timeline {
	double bucket_ms;
	size_t nb;
	size_t nthr, ncpu;
	uint64_t *thr; /* nthr x nb */
	uint64_t *cpu; /* ncpu x nb */
	char **thr_labels, **cpu_labels;
	uint32_t *thr_tid;
};

static void timeline_build(struct timeline *tl, const struct pl_profile *p,
			   const struct pl_preport *r, const struct run_info *ri, int ms,
			   pl_sample_filter filter, void *fctx)
{
	memset(tl, 0, sizeof(*tl));
	tl->bucket_ms = ms;
	uint64_t span = ri->t1 > ri->t0 ? ri->t1 - ri->t0 : 1;
	uint64_t bns = (uint64_t)ms * 1000000u;
	tl->nb = (size_t)((span + bns - 1) / bns);
	if (tl->nb == 0)
		tl->nb = 1;
	if (tl->nb > 100000)
		tl->nb = 100000;
	/* Threads with samples, in thread-table order. */
	size_t *row = pl_xcalloc(p->nthreads + 1, sizeof(size_t));
	for (size_t i = 0; i < p->nthreads; i++) {
		if (!r->thread_samples[i])
			continue;
		row[i] = ++tl->nthr;
	}
	tl->ncpu = r->ncpu;
	tl->thr = pl_xcalloc(tl->nthr * tl->nb + 1, sizeof(uint64_t));
	tl->cpu = pl_xcalloc(tl->ncpu * tl->nb + 1, sizeof(uint64_t));
	tl->thr_labels = pl_xcalloc(tl->nthr + 1, sizeof(char *));
	tl->thr_tid = pl_xcalloc(tl->nthr + 1, sizeof(uint32_t));
	tl->cpu_labels = pl_xcalloc(tl->ncpu + 1, sizeof(char *));
	for (size_t i = 0; i < p->nthreads; i++)
		if (row[i]) {
			tl->thr_labels[row[i] - 1] =
				pl_xasprintf("%s/%u", p->threads[i].comm, p->threads[i].tid);
			tl->thr_tid[row[i] - 1] = p->threads[i].tid;
		}
	for (size_t c = 0; c < tl->ncpu; c++)
		tl->cpu_labels[c] = pl_xasprintf("cpu%zu", c);
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pl_psample *s = &p->samples[i];
		if (filter && !filter(fctx, s))
			continue;
		if (s->time < ri->t0)
			continue;
		size_t b = (size_t)((s->time - ri->t0) / bns);
		if (b >= tl->nb)
			b = tl->nb - 1;
		/* thread row */
		for (size_t k = 0; k < tl->nthr; k++)
			if (tl->thr_tid[k] == s->tid) {
				tl->thr[k * tl->nb + b]++;
				break;
			}
		if (s->cpu < tl->ncpu)
			tl->cpu[s->cpu * tl->nb + b]++;
	}
	free(row);
}

static void timeline_free(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nthr; i++)
		free(tl->thr_labels[i]);
	for (size_t i = 0; i < tl->ncpu; i++)
		free(tl->cpu_labels[i]);
	free(tl->thr_labels);
	free(tl->cpu_labels);
	free(tl->thr);
	free(tl->cpu);
	free(tl->thr_tid);
}

/* Time, instances and samples of region @i. */
static void region_stats(const struct pl_markers *mk, const struct pl_profile *p, size_t i,
			 uint64_t *ns, uint64_t *inst, uint64_t *smp)
{
	*ns = *inst = *smp = 0;
	for (size_t k = 0; k < mk->nwins; k++)
		if (mk->wins[k].name == i) {
			*ns += mk->wins[k].end - mk->wins[k].begin;
			(*inst)++;
		}
	if (!*inst)
		return;
	for (size_t k = 0; k < p->nsamples; k++)
		if (pl_markers_inside(mk, (int)i, p->samples[k].tid, p->samples[k].time))
			(*smp)++;
}

/* "command    exited with status 3" when the command did not exit 0. */
static void print_status(FILE *out, const struct run_info *ri)
{
	if (!ri->have_child)
		return;
	if (WIFEXITED(ri->child_status) && WEXITSTATUS(ri->child_status))
		fprintf(out, "command    exited with status %d\n", WEXITSTATUS(ri->child_status));
	else if (WIFSIGNALED(ri->child_status))
		fprintf(out, "command    killed by signal %d\n", WTERMSIG(ri->child_status));
}

/* --call-graph dwarf: the bytes of user stack actually copied per sample (at most). The
 * kernel shrinks a copy that would take the record past 64 KiB (the u16 record size;
 * perf_sample_ustack_size() in kernel/events/core.c), so near 65528 it copies less than
 * asked, by the size of the rest of the record. */
static uint32_t stack_copied(const struct pl_pe_session *s, const struct pl_profile *p)
{
	uint32_t asked = s->attr.sample_stack_user;
	return p->stack_copied_max && p->stack_copied_max < asked ? (uint32_t)p->stack_copied_max
								  : asked;
}

/* The advice for truncated stacks: a larger --stack-size, or, where the kernel already
 * copies all it can, frame pointers. */
static const char *stack_advice(const struct pl_pe_session *s, const struct pl_profile *p)
{
	uint32_t asked = s->attr.sample_stack_user;
	if (asked < STACK_SIZE_MAX && stack_copied(s, p) == asked)
		return "raise --stack-size (at most 65528)";
	return "the kernel copies no more (a record stays under 64 KiB): build with "
	       "-fno-omit-frame-pointer and use --call-graph fp";
}

static void print_text(FILE *out, const struct profile_opts *o, const struct run_info *ri,
		       const struct pl_profile *p, const struct pl_preport *r,
		       const struct pl_markers *mk, const struct timeline *tl,
		       const struct pl_syscalls *sc)
{
	const char *b = pl_style(out, "bold"), *z = pl_style(out, "reset");
	const struct pl_pe_session *s = ri->s;
	fprintf(out, "%sprofile of %s%s\n", b, ri->what, z);
	/* --syscalls asks for the syscall summary: it comes first, and the sampling part
	 * (mostly the tracing's own cost then) only on request */
	bool samples = !sc || o->samples || o->tree || o->timeline_ms || o->region;
	if (!samples) {
		fprintf(out, "duration   %.3f s\n", (double)ri->wall_ns / 1e9);
		print_status(out, ri);
		pl_syscalls_print(sc, out);
		fprintf(out,
			"\n%llu samples taken in parallel are not shown: --samples prints the "
			"sampling tables (they show mostly the cost of the syscall tracing)\n",
			(unsigned long long)p->nsamples);
		return;
	}
	fprintf(out, "event      %s", s->event_name);
	if (s->fell_back)
		fprintf(out, " (no hardware cycles event here: %s; fell back to cpu-clock)",
			strerror(s->fallback_errno));
	if (ri->period)
		fprintf(out, ", every %llu events", (unsigned long long)ri->period);
	else
		fprintf(out, ", %d Hz", ri->freq);
	fprintf(out, ", callchains %s%s\n", ri->cg, s->user_only ? ", user space only" : "");
	fprintf(out, "duration   %.3f s\n", (double)ri->wall_ns / 1e9);
	if (p->unwinder) {
		uint32_t copied = stack_copied(s, p);
		if (copied < s->attr.sample_stack_user)
			fprintf(out,
				"stacks     %u bytes of user stack asked per sample, at most %u "
				"copied (the kernel keeps a record under 64 KiB); ",
				(unsigned)s->attr.sample_stack_user, (unsigned)copied);
		else
			fprintf(out, "stacks     %u bytes of user stack copied per sample; ",
				(unsigned)copied);
		if (p->dwarf_truncated)
			fprintf(out,
				"%llu of %zu samples (%.1f%%) truncated: their stack went on past "
				"the copy, so outer callers are missing (%s)\n",
				(unsigned long long)p->dwarf_truncated, p->nsamples,
				pct(p->dwarf_truncated, p->nsamples), stack_advice(s, p));
		else
			fprintf(out, "no stack was truncated\n");
	}
	uint64_t all = p->nsamples;
	fprintf(out, "samples    %llu", (unsigned long long)all);
	if (o->region)
		fprintf(out, " (%llu in region '%s', %.1f%%)", (unsigned long long)r->nsamples,
			o->region, pct(r->nsamples, all));
	fputc('\n', out);
	fprintf(out, "lost       %llu records, %llu samples (%.2f%% of samples)\n",
		(unsigned long long)p->lost, (unsigned long long)p->lost_samples,
		pct(p->lost + p->lost_samples, all + p->lost + p->lost_samples));
	fprintf(out, "user       %.1f%%   kernel %.1f%%%s\n",
		pct(r->nsamples - r->kernel, r->nsamples), pct(r->kernel, r->nsamples),
		r->kernel_hidden ? "  (kernel symbols hidden: kernel.kptr_restrict or no "
				   "CAP_SYSLOG; kernel samples are one [kernel] bucket)"
				 : "");
	print_status(out, ri);
	if (sc)
		pl_syscalls_print(sc, out);
	if (mk && mk->nnames) {
		fprintf(out, "\n%sregions%s (per thread, CLOCK_MONOTONIC windows)\n", b, z);
		fprintf(out, "  %-24s %10s %10s %9s %7s\n", "name", "time ms", "instances",
			"samples", "%");
		for (size_t i = 0; i < mk->nnames; i++) {
			uint64_t ns, inst, smp;
			region_stats(mk, p, i, &ns, &inst, &smp);
			if (!inst)
				continue;
			fprintf(out, "  %-24s %10.3f %10llu %9llu %6.1f%%\n", mk->names[i],
				(double)ns / 1e6, (unsigned long long)inst, (unsigned long long)smp,
				pct(smp, all));
		}
		if (mk->npoints)
			fprintf(out, "  %llu point marks\n", (unsigned long long)mk->npoints);
		if (mk->dropped)
			fprintf(out, "  %llu marker records dropped (ring full)\n",
				(unsigned long long)mk->dropped);
	}
	if (!r->nsamples)
		fprintf(out, "\nno samples: the target used no CPU while it was profiled%s\n",
			o->pids ? " (an idle process)" : "");
	/* threads with samples, most first, at most --top of them (all are in --json) */
	size_t *ti = pl_xcalloc(p->nthreads + 1, sizeof(size_t)), nt = 0;
	for (size_t i = 0; i < p->nthreads; i++)
		if (r->thread_samples[i])
			ti[nt++] = i;
	for (size_t i = 1; i < nt; i++) /* insertion sort: stable, by samples descending */
		for (size_t k = i; k > 0 && r->thread_samples[ti[k]] > r->thread_samples[ti[k - 1]];
		     k--) {
			size_t x = ti[k];
			ti[k] = ti[k - 1];
			ti[k - 1] = x;
		}
	fprintf(out, "\n%sthreads%s\n  %8s %8s %-16s %9s %7s %8s\n", b, z, "pid", "tid", "comm",
		"samples", "%", "kernel%");
	uint64_t rest = 0;
	for (size_t n = 0; n < nt; n++) {
		size_t i = ti[n];
		if ((int)n >= o->top) {
			rest += r->thread_samples[i];
			continue;
		}
		const struct pl_thread *t = &p->threads[i];
		fprintf(out, "  %8u %8u %-16s %9llu %6.1f%% %7.1f%%\n", t->pid, t->tid, t->comm,
			(unsigned long long)r->thread_samples[i],
			pct(r->thread_samples[i], r->nsamples),
			pct(r->thread_kernel[i], r->thread_samples[i]));
	}
	if (nt > (size_t)o->top)
		fprintf(out, "  ... %zu more threads with %llu samples (%.1f%%; all in --json)\n",
			nt - (size_t)o->top, (unsigned long long)rest, pct(rest, r->nsamples));
	free(ti);
	fprintf(out, "\n%scpus%s\n", b, z);
	for (size_t c = 0; c < r->ncpu; c++)
		if (r->cpu_samples[c])
			fprintf(out, "  cpu%-4zu %9llu %6.1f%%\n", c,
				(unsigned long long)r->cpu_samples[c],
				pct(r->cpu_samples[c], r->nsamples));
	/* On a terminal, long (C++) names in the tables and the tree are shortened so a row
	 * fits the width; to a file or pipe they are printed whole, like perf report. */
	struct winsize ws;
	size_t cols = isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col
			      ? ws.ws_col
			      : 0;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *ord = pl_preport_order(r, pass == 1);
		fprintf(out, "\n%stop functions by %s%s\n  %7s %7s %9s  %s\n", b,
			pass ? "total (with callees)" : "self", z, "self%", "total%", "samples",
			"function [module]");
		size_t rows = 0;
		while (rows < r->nfuncs && (int)rows < o->top &&
		       (pass ? r->funcs[ord[rows]].total : r->funcs[ord[rows]].self))
			rows++;
		/* the rows' names shortened together, so different names stay apart */
		char **nm = NULL;
		if (cols) {
			const char **names = pl_xmalloc((rows + 1) * sizeof(char *));
			size_t *room = pl_xmalloc((rows + 1) * sizeof(size_t));
			for (size_t i = 0; i < rows; i++) {
				const struct pl_func *f = &r->funcs[ord[i]];
				names[i] = f->name;
				/* 29 columns of numbers, then "name [module]" */
				room[i] = cols > 29 + strlen(f->module) + 3 + 40
						  ? cols - 29 - strlen(f->module) - 3
						  : 40;
			}
			nm = pl_names_abbrev(names, room, rows);
			free(room);
			free(names);
		}
		for (size_t i = 0; i < rows; i++) {
			const struct pl_func *f = &r->funcs[ord[i]];
			uint64_t v = pass ? f->total : f->self;
			fprintf(out, "  %6.2f%% %6.2f%% %9llu  %s %s%s%s\n",
				pct(f->self, r->nsamples), pct(f->total, r->nsamples),
				(unsigned long long)v, nm ? nm[i] : f->name,
				f->module[0] == '[' ? "" : "[", f->module,
				f->module[0] == '[' ? "" : "]");
			if (nm)
				free(nm[i]);
		}
		free(nm);
		free(ord);
	}
	if (o->tree) {
		fprintf(out, "\n%scall tree%s (top-down, branches under 1%% pruned)\n", b, z);
		pl_preport_write_tree(r, out, 1.0, cols);
	}
	if (tl) {
		fprintf(out, "\n%stimeline%s (%d ms buckets; samples per bucket)\n", b, z,
			o->timeline_ms);
		for (size_t k = 0; k < tl->nthr + tl->ncpu; k++) {
			bool thr = k < tl->nthr;
			size_t row = thr ? k : k - tl->nthr;
			const uint64_t *v = thr ? tl->thr + row * tl->nb : tl->cpu + row * tl->nb;
			fprintf(out, "  %-22s", thr ? tl->thr_labels[row] : tl->cpu_labels[row]);
			for (size_t i = 0; i < tl->nb; i++)
				fprintf(out, " %llu", (unsigned long long)v[i]);
			fputc('\n', out);
		}
	}
}

static json_t *u64a(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

/* The folded stacks as [{"stack":"comm;f1;f2","count":N}], the same lines as --folded, so
 * `perflab report --from` can draw the flame graph of a saved profile. */
static json_t *folded_json(const struct pl_preport *r)
{
	json_t *a = json_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return a;
	pl_preport_write_folded(r, mem);
	fclose(mem);
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *sp = strrchr(line, ' ');
		uint64_t n;
		if (!sp || pl_parse_u64(sp + 1, &n) < 0)
			continue;
		*sp = '\0';
		json_t *x = json_object();
		json_object_set_new(x, "stack", pl_json_string(line));
		json_object_set_new(x, "count", json_integer((json_int_t)n));
		json_array_append_new(a, x);
	}
	free(buf);
	return a;
}

static json_t *to_json(const struct profile_opts *o, const struct run_info *ri,
		       const struct pl_profile *p, const struct pl_preport *r,
		       const struct pl_markers *mk, const struct timeline *tl,
		       const struct pl_syscalls *sc)
{
	const struct pl_pe_session *s = ri->s;
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "target", pl_json_string(ri->what));
	json_t *ev = json_object();
	json_object_set_new(ev, "name", pl_json_string(s->event_name));
	json_object_set_new(ev, "fallback",
			    s->fell_back ? pl_json_string(strerror(s->fallback_errno))
					 : json_null());
	json_object_set_new(ev, "user_only", json_boolean(s->user_only));
	if (ri->period)
		json_object_set_new(ev, "period", json_integer((json_int_t)ri->period));
	else
		json_object_set_new(ev, "freq_hz", json_integer(ri->freq));
	json_object_set_new(ev, "callchains", pl_json_string(ri->cg));
	json_object_set_new(d, "event", ev);
	if (p->unwinder) {
		json_t *dw = json_object();
		json_object_set_new(dw, "stack_size",
				    json_integer((json_int_t)s->attr.sample_stack_user));
		json_object_set_new(dw, "stack_copied_max",
				    json_integer((json_int_t)p->stack_copied_max));
		json_object_set_new(dw, "unwound", json_integer((json_int_t)p->dwarf_unwound));
		json_object_set_new(dw, "truncated", json_integer((json_int_t)p->dwarf_truncated));
		json_object_set_new(dw, "truncated_pct",
				    json_real(pct(p->dwarf_truncated, p->nsamples)));
		json_object_set_new(d, "dwarf", dw);
	}
	json_object_set_new(d, "duration_s", json_real((double)ri->wall_ns / 1e9));
	json_object_set_new(d, "samples_total", json_integer((json_int_t)p->nsamples));
	json_object_set_new(d, "samples", json_integer((json_int_t)r->nsamples));
	json_object_set_new(d, "region", o->region ? pl_json_string(o->region) : json_null());
	json_object_set_new(d, "lost_records", json_integer((json_int_t)p->lost));
	json_object_set_new(d, "lost_samples", json_integer((json_int_t)p->lost_samples));
	json_object_set_new(
		d, "lost_pct",
		json_real(pct(p->lost + p->lost_samples, p->nsamples + p->lost + p->lost_samples)));
	json_object_set_new(d, "user_pct", json_real(pct(r->nsamples - r->kernel, r->nsamples)));
	json_object_set_new(d, "kernel_pct", json_real(pct(r->kernel, r->nsamples)));
	json_object_set_new(d, "kernel_hidden", json_boolean(r->kernel_hidden));
	if (ri->have_child)
		json_object_set_new(d, "exit_status",
				    json_integer(WIFEXITED(ri->child_status)
							 ? WEXITSTATUS(ri->child_status)
							 : 128 + WTERMSIG(ri->child_status)));
	json_t *th = json_array();
	for (size_t i = 0; i < p->nthreads; i++) {
		if (!r->thread_samples[i])
			continue;
		const struct pl_thread *t = &p->threads[i];
		json_t *x = json_object();
		json_object_set_new(x, "pid", json_integer(t->pid));
		json_object_set_new(x, "tid", json_integer(t->tid));
		json_object_set_new(x, "comm", pl_json_string(t->comm));
		json_object_set_new(x, "samples", json_integer((json_int_t)r->thread_samples[i]));
		json_object_set_new(x, "pct", json_real(pct(r->thread_samples[i], r->nsamples)));
		json_object_set_new(x, "kernel_pct",
				    json_real(pct(r->thread_kernel[i], r->thread_samples[i])));
		json_array_append_new(th, x);
	}
	json_object_set_new(d, "threads", th);
	json_t *cp = json_array();
	for (size_t c = 0; c < r->ncpu; c++) {
		if (!r->cpu_samples[c])
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "cpu", json_integer((json_int_t)c));
		json_object_set_new(x, "samples", json_integer((json_int_t)r->cpu_samples[c]));
		json_object_set_new(x, "pct", json_real(pct(r->cpu_samples[c], r->nsamples)));
		json_array_append_new(cp, x);
	}
	json_object_set_new(d, "cpus", cp);
	json_t *rg = json_array();
	for (size_t i = 0; mk && i < mk->nnames; i++) {
		uint64_t ns, inst, smp;
		region_stats(mk, p, i, &ns, &inst, &smp);
		if (!inst)
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "name", pl_json_string(mk->names[i]));
		json_object_set_new(x, "time_ms", json_real((double)ns / 1e6));
		json_object_set_new(x, "instances", json_integer((json_int_t)inst));
		json_object_set_new(x, "samples", json_integer((json_int_t)smp));
		json_object_set_new(x, "pct", json_real(pct(smp, p->nsamples)));
		json_array_append_new(rg, x);
	}
	json_object_set_new(d, "regions", rg);
	json_object_set_new(d, "marker_points", json_integer(mk ? (json_int_t)mk->npoints : 0));
	json_object_set_new(d, "marker_dropped", json_integer(mk ? (json_int_t)mk->dropped : 0));
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *ord = pl_preport_order(r, pass == 1);
		json_t *a = json_array();
		for (size_t i = 0; i < r->nfuncs && (int)i < o->top; i++) {
			const struct pl_func *f = &r->funcs[ord[i]];
			if (!(pass ? f->total : f->self))
				break;
			json_t *x = json_object();
			json_object_set_new(x, "function", pl_json_string(f->name));
			if (f->mangled)
				json_object_set_new(x, "mangled", pl_json_string(f->mangled));
			json_object_set_new(x, "module", pl_json_string(f->module));
			json_object_set_new(x, "kernel", json_boolean(f->kernel));
			json_object_set_new(x, "self", json_integer((json_int_t)f->self));
			json_object_set_new(x, "total", json_integer((json_int_t)f->total));
			json_object_set_new(x, "self_pct", json_real(pct(f->self, r->nsamples)));
			json_object_set_new(x, "total_pct", json_real(pct(f->total, r->nsamples)));
			json_array_append_new(a, x);
		}
		free(ord);
		json_object_set_new(d, pass ? "top_total" : "top_self", a);
	}
	if (tl) {
		json_t *t = json_object();
		json_object_set_new(t, "bucket_ms", json_integer(o->timeline_ms));
		json_object_set_new(t, "buckets", json_integer((json_int_t)tl->nb));
		json_t *ta = json_array();
		for (size_t k = 0; k < tl->nthr; k++) {
			json_t *x = json_object();
			json_object_set_new(x, "tid", json_integer(tl->thr_tid[k]));
			json_object_set_new(x, "label", pl_json_string(tl->thr_labels[k]));
			json_object_set_new(x, "counts", u64a(tl->thr + k * tl->nb, tl->nb));
			json_array_append_new(ta, x);
		}
		json_object_set_new(t, "threads", ta);
		json_t *ca = json_array();
		for (size_t k = 0; k < tl->ncpu; k++) {
			json_t *x = json_object();
			json_object_set_new(x, "cpu", json_integer((json_int_t)k));
			json_object_set_new(x, "counts", u64a(tl->cpu + k * tl->nb, tl->nb));
			json_array_append_new(ca, x);
		}
		json_object_set_new(t, "cpus", ca);
		json_object_set_new(d, "timeline", t);
	}
	if (sc)
		json_object_set_new(d, "syscalls", pl_syscalls_json(sc));
	json_object_set_new(d, "folded", folded_json(r));
	return d;
}

/* Write folded stacks to memory, then to --folded and/or through the flame graph. */
static int write_outputs(const struct profile_opts *o, const struct pl_preport *r,
			 const struct timeline *tl, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	pl_preport_write_folded(r, mem);
	fclose(mem);
	int rc = 0;
	if (o->folded) {
		struct pl_outfile of;
		int e = pl_outfile_open(&of, o->folded);
		if (e < 0) {
			pl_error("cannot write '%s': %s", o->folded, strerror(-e));
			rc = PL_EXIT_USAGE;
		} else {
			fwrite(buf, 1, len, of.fp);
			if (pl_outfile_close(&of, true) < 0)
				rc = PL_EXIT_RUNTIME;
		}
	}
	if (o->svg) {
		struct pl_flame *fl = pl_flame_new();
		FILE *in = fmemopen(buf, len ? len : 1, "r");
		if (in && len)
			pl_flame_read(fl, in, NULL);
		if (in)
			fclose(in);
		struct pl_flame_timeline ftl = { 0 };
		if (tl) {
			ftl.nrows = tl->nthr;
			ftl.nbuckets = tl->nb;
			ftl.counts = tl->thr;
			ftl.labels = (const char *const *)tl->thr_labels;
			ftl.bucket_ms = tl->bucket_ms;
		}
		struct pl_outfile of;
		int e = pl_outfile_open(&of, o->svg);
		if (e < 0) {
			pl_error("cannot write '%s': %s", o->svg, strerror(-e));
			rc = PL_EXIT_USAGE;
		} else {
			pl_flame_write_svg(fl, of.fp, title, tl ? &ftl : NULL);
			if (pl_outfile_close(&of, true) < 0)
				rc = PL_EXIT_RUNTIME;
		}
		pl_flame_free(fl);
	}
	free(buf);
	return rc;
}

static int from_folded(const struct profile_opts *o)
{
	if (!o->svg) {
		pl_error("--from-folded needs --svg FILE (the flame graph to write)");
		return PL_EXIT_USAGE;
	}
	FILE *in = strcmp(o->from_folded, "-") == 0 ? stdin : fopen(o->from_folded, "r");
	if (!in) {
		pl_error("cannot read '%s': %s", o->from_folded, strerror(errno));
		return PL_EXIT_USAGE;
	}
	struct pl_flame *fl = pl_flame_new();
	size_t bad = 0;
	int r = pl_flame_read(fl, in, &bad);
	int rerr = ferror(in) ? errno : 0;
	if (in != stdin)
		fclose(in);
	if (r == 0 && rerr) {
		pl_error("cannot read '%s': %s", o->from_folded, strerror(rerr));
		pl_flame_free(fl);
		return PL_EXIT_USAGE;
	}
	if (r < 0) {
		pl_error("%s:%zu: %s",
			 strcmp(o->from_folded, "-") == 0 ? "<stdin>" : o->from_folded, bad,
			 pl_flame_strerror(r));
		pl_flame_free(fl);
		return PL_EXIT_USAGE;
	}
	struct pl_outfile of;
	int e = pl_outfile_open(&of, o->svg);
	if (e < 0) {
		pl_error("cannot write '%s': %s", o->svg, strerror(-e));
		pl_flame_free(fl);
		return PL_EXIT_USAGE;
	}
	pl_flame_write_svg(fl, of.fp, "Flame graph", NULL);
	int rc = pl_outfile_close(&of, true) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	pl_flame_free(fl);
	return rc;
}

/* --syscalls: the tracepoints, or ptrace when asked or when the tracepoints are not
 * usable (no tracefs, no permission: the non-root case). Logs its error once. */
static int open_syscalls(struct pl_syscalls **sc, const struct profile_opts *o,
			 const struct target *t, bool command, const int *cpus, size_t ncpus)
{
	char *why = NULL;
	if (o->via != VIA_PTRACE) {
		int r = pl_syscalls_open(sc, t->pids, t->npids, cpus, ncpus, command, !o->all);
		if (r == 0)
			return 0;
		bool unusable = r == -ENOENT || r == -EACCES || r == -EPERM;
		if (o->via == VIA_TRACEPOINT || !unusable || o->all) {
			pl_error("--syscalls: %s%s", pl_syscalls_strerror(r),
				 o->all && unusable && o->via == VIA_AUTO
					 ? "; the ptrace fallback cannot trace -a (system-wide)"
					 : "");
			return r;
		}
		why = pl_xasprintf("tracepoints not usable: %s", pl_syscalls_strerror(r));
	}
	int r = command ? pl_syscalls_open_ptrace(sc, &t->child, 1, true)
			: pl_syscalls_open_ptrace(sc, t->procs, t->nprocs, false);
	if (r < 0) {
		if (why)
			pl_error("--syscalls: %s, and the ptrace fallback failed too: %s", why,
				 pl_syscalls_ptrace_strerror(r));
		else
			pl_error("--syscalls: ptrace: %s", pl_syscalls_ptrace_strerror(r));
		free(why);
		return r;
	}
	if (why) {
		pl_warn("--syscalls: %s; counting with ptrace instead (exact counts, but the "
			"program runs slower)",
			why);
		pl_syscalls_set_fallback(*sc, why);
		free(why);
	}
	return 0;
}

/* Whether @path can be written, without writing it: pl_outfile's checks (a temporary
 * file created and removed beside a new or regular file; an existing symlink, device or
 * FIFO only checked for access, never opened). 0 or -errno. */
static int check_writable(const char *path)
{
	struct pl_outfile of;
	int e = pl_outfile_open(&of, path);
	if (e == 0)
		pl_outfile_close(&of, false);
	return e;
}

static volatile sig_atomic_t tick_flag; /* SIGALRM ticks not yet handled */

static void on_tick(int sig)
{
	(void)sig;
	if (tick_flag < 100)
		tick_flag++;
}

/* ptrace: detach what is left; warn (once) about tasks that could not be detached. */
static void end_ptrace(struct pl_syscalls *sc, bool command)
{
	static bool warned;
	if (pl_syscalls_detach(sc) == 0 || warned)
		return;
	warned = true;
	pid_t tids[8];
	size_t n = pl_syscalls_undetached(sc, tids, 8);
	char list[8 * 12] = "";
	for (size_t i = 0; i < n && i < 8; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "",
			 (int)tids[i]);
	pl_warn("--syscalls: %zu tasks (%s%s) could not be detached within 2 s (a task in a "
		"killable wait, such as a vfork parent, cannot be stopped); the kernel detaches "
		"them when perflab exits%s",
		n, list, n > 8 ? ",..." : "",
		command ? " and kills them (PTRACE_O_EXITKILL: the command's tree does not run on "
			  "untraced)"
			: "");
}

/* --syscalls via ptrace: every stop of the tracees must be answered at once, so the
 * wait for the next stop is the main loop; a 50 ms interval timer interrupts it (SIGALRM
 * without SA_RESTART) to drain the sample rings and check the deadline and Ctrl-C. The
 * rings are drained only when no stop is pending (or after 150 ms without such a
 * moment), so a tracee does not wait at a stop while perflab drains (which would add to
 * its call times). A command is followed, like strace -f, until no traced task is left
 * (children it left running included); at the deadline all are asked to stop (SIGTERM,
 * as without ptrace) and killed 2 s later; on SIGTERM to perflab, or Ctrl-C once the
 * command itself has exited, all are killed (so none runs on untraced after perflab).
 * -p targets are detached at the deadline or on Ctrl-C. Returns 0 or -errno from the
 * backend (logged by the caller). */
static int ptrace_loop(struct target *t, struct pl_syscalls *sc, struct pl_pe_session *s,
		       struct pl_profile *p, uint8_t *scratch, uint64_t deadline, bool command)
{
	struct sigaction sa = { 0 }, old;
	sa.sa_handler = on_tick;
	sigaction(SIGALRM, &sa, &old);
	struct itimerval it = { { 0, 50000 }, { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	uint64_t term_at = 0;
	bool killed = false;
	int r;
	for (;;) {
		bool pending = tick_flag || (stop_flag && !killed);
		r = pl_syscalls_wait(sc, !pending);
		if (r == 0)
			break; /* no tracee left */
		if (r < 0 && r != -EINTR && r != -EAGAIN)
			break;
		bool quiet = r == -EAGAIN;
		r = 0;
		if (command && !t->exited && pl_syscalls_leader_exited(sc, &t->status)) {
			/* the command is done; what it left running is still followed, and
			 * Ctrl-C (ignored so far: the command got it) now ends that */
			t->exited = true;
			struct sigaction si = { 0 };
			si.sa_handler = on_signal;
			sigaction(SIGINT, &si, NULL);
		}
		if (!tick_flag && !(stop_flag && !killed))
			continue;
		if (!quiet && tick_flag < 3 && !stop_flag)
			continue; /* answer the pending stops first */
		tick_flag = 0;
		drain(s, p, scratch);
		uint64_t now = pl_now_ns();
		if (!command) {
			if (stop_flag || (deadline && now >= deadline))
				break;
			continue;
		}
		if (deadline && now >= deadline && !term_at) {
			pl_syscalls_kill(sc, SIGTERM);
			term_at = now;
		}
		if (killed || stop_flag || (term_at && now >= term_at + 2000000000u)) {
			/* again at every tick: a child forked meanwhile goes too */
			size_t n = pl_syscalls_kill(sc, SIGKILL);
			if (!killed && stop_flag && t->exited && n)
				pl_warn("--syscalls: killed %zu traced tasks the command left "
					"running",
					n);
			killed = true;
		}
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &old, NULL);
	if (r < 0 && command)
		pl_syscalls_kill(sc, SIGKILL); /* (error) the tree ends with perflab */
	end_ptrace(sc, command);
	return r;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o = { .freq = 999, .top = 20, .ring_kb = 1024, .via = -1, .cg = -1 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, profile_optv, &o, &args);
	if (rc >= 0)
		return rc;
	if (o.from_folded) {
		pl_args_free(&args);
		return from_folded(&o);
	}
	char **cmdv = args.dashdash >= 0 ? args.pos + args.dashdash : NULL;
	int ntargets = (cmdv && cmdv[0]) + (o.pids != NULL) + o.all;
	if (args.npos > 0 && args.dashdash != 0) {
		pl_error("unexpected argument '%s' (put the command after '--')", args.pos[0]);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (ntargets != 1) {
		pl_error("give exactly one target: '-- CMD ARGS...', '-p PID' or '-a' (see "
			 "'perflab profile --help')");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (o.ring_kb & (o.ring_kb - 1)) {
		pl_error("--ring-kb %d: give a power of two (e.g. 1024)", o.ring_kb);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (!pl_sysroot_is_live()) {
		pl_error("--sysroot: profiling needs the live system (perf_event_open)");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (o.stack_size && (o.g || (o.cg >= 0 && o.cg != 1))) {
		pl_error("--stack-size is for --call-graph dwarf, not --call-graph %s (drop one of "
			 "them)",
			 o.g ? "fp (-g)" : cg_choices[o.cg]);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (o.g || o.cg < 0)
		o.cg = 0;
	if (o.stack_size) {
		o.cg = 1; /* implies --call-graph dwarf, as perf's dwarf,SIZE */
		o.stack_size = (o.stack_size + 7) & ~(uint64_t)7;
	}
	if (o.via >= 0)
		o.syscalls = true; /* --syscalls-via given (auto too) */
	else
		o.via = VIA_AUTO;
	if (o.syscalls && o.via == VIA_PTRACE && o.all) {
		pl_error("--syscalls-via ptrace cannot trace -a (system-wide): use tracepoints "
			 "(root) "
			 "or give '-- CMD' or '-p PID'");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	/* CPUs */
	struct pl_cpuset cs;
	pl_cpuset_clear(&cs);
	if (o.cpus) {
		pl_cpuset_parse(o.cpus, &cs);
	} else {
		char *online = NULL;
		if (pl_read_str("/sys/devices/system/cpu/online", &online) == 0) {
			pl_cpuset_parse(online, &cs);
			free(online);
		} else {
			long n = sysconf(_SC_NPROCESSORS_ONLN);
			for (long c = 0; c < n; c++)
				pl_cpuset_set(&cs, (unsigned)c);
		}
	}
	size_t ncpus = pl_cpuset_count(&cs);
	int *cpus = pl_xmalloc((ncpus + 1) * sizeof(int));
	size_t k = 0;
	for (int c = pl_cpuset_next(&cs, 0); c >= 0; c = pl_cpuset_next(&cs, (unsigned)c + 1))
		cpus[k++] = c;
	if (!ncpus) {
		pl_error("--cpus '%s': no CPUs", o.cpus);
		free(cpus);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}

	/* output paths are checked before the program runs, not after */
	const char *outs[][2] = { { "--folded", o.folded },
				  { "--svg", o.svg },
				  { "-o", pl_g.output } };
	for (size_t i = 0; i < 3; i++) {
		int e = outs[i][1] ? check_writable(outs[i][1]) : 0;
		if (e < 0) {
			pl_error("%s '%s': cannot write there: %s (choose another path)",
				 outs[i][0], outs[i][1], strerror(-e));
			free(cpus);
			pl_args_free(&args);
			return PL_EXIT_USAGE;
		}
	}

	struct target t = { .child = -1, .go_fd = -1, .err_fd = -1 };
	struct pl_markers mk = { .fd = -1 };
	struct run_info ri = { .freq = o.freq, .period = o.period, .cg = cg_choices[o.cg] };
	char *what = NULL;
	int ret = PL_EXIT_OK;
	struct pl_pe_session s = { 0 };
	struct pl_syscalls *sc = NULL;
	struct pl_profile p = { 0 };
	uint8_t *scratch = NULL;
	if (cmdv) {
		int r = pl_markers_create(&mk, 1u << 20);
		if (r < 0)
			pl_warn("region markers unavailable: %s", strerror(-r));
		r = start_child(&t, cmdv);
		if (r < 0) {
			pl_error("cannot start '%s': %s", cmdv[0], strerror(-r));
			ret = PL_EXIT_RUNTIME;
			goto out;
		}
		what = pl_xasprintf("'%s'", cmdv[0]);
		ri.have_child = true;
	} else if (o.pids) {
		int r = list_tasks(&t, o.pids);
		if (r < 0) {
			pl_error("-p '%s': %s (give running process ids, comma-separated)", o.pids,
				 r == -EINVAL ? "not a process id" : "no such process");
			ret = PL_EXIT_USAGE;
			goto out;
		}
		what = pl_xasprintf("pid %s", o.pids);
	} else {
		t.pids = pl_xmalloc(sizeof(pid_t));
		t.pids[0] = -1;
		t.npids = 1;
		what = pl_xasprintf("all CPUs (%zu)", ncpus);
	}
	ri.what = what;

	struct pl_pe_config cfg = {
		.event = event_choices[o.event],
		.freq = (uint64_t)o.freq,
		.period = o.period,
		.cg = (enum pl_callgraph)(o.cg == 0   ? PL_CG_FP
					  : o.cg == 1 ? PL_CG_DWARF
						      : PL_CG_NONE),
		.enable_on_exec = cmdv != NULL,
		.inherit = !o.all,
		.ring_pages = (uint32_t)o.ring_kb / 4,
		.stack_bytes = (uint32_t)(o.stack_size ? o.stack_size : STACK_SIZE_DEFAULT),
	};
	int r = pl_pe_open(&s, &cfg, t.pids, t.npids, cpus, ncpus);
	struct pl_pe_request rq = { .event = s.event_name,
				    .system_wide = o.all,
				    .user_only = s.user_only,
				    .mmap = s.mmap_failed,
				    .pid_target = o.pids != NULL };
	if (r < 0) {
		pl_error("%s: %s", s.mmap_failed ? "perf_event mmap" : "perf_event_open",
			 pl_pe_strerror(-r, &rq));
		kill_child(&t);
		ret = PL_EXIT_RUNTIME;
		goto out;
	}
	ri.s = &s;
	if (s.user_only) {
		rq.user_only = false; /* what was refused: kernel samples */
		pl_warn("kernel samples: %s; sampling user space only",
			pl_pe_strerror(s.user_only_errno, &rq));
	}
	if (o.syscalls) {
		r = open_syscalls(&sc, &o, &t, cmdv != NULL, cpus, ncpus);
		if (r < 0) {
			pl_pe_close(&s);
			kill_child(&t);
			ret = PL_EXIT_RUNTIME;
			goto out;
		}
	}
	pl_profile_init(&p, s.attr.sample_type, s.attr.sample_regs_user, o.debug_root);
	p.live = true;
	p.no_demangle = o.no_demangle;
	if (cfg.cg == PL_CG_DWARF)
		p.unwinder = pl_unwind_new();
	for (size_t i = 0; i < t.nprocs; i++)
		pl_profile_synth_proc(&p, t.procs[i]);
	if (o.all) {
		char **ents = NULL;
		size_t ne = 0;
		if (pl_list_dir("/proc", &ents, &ne) == 0) {
			for (size_t i = 0; i < ne; i++) {
				uint64_t pid;
				if (pl_parse_u64(ents[i], &pid) == 0)
					pl_profile_synth_proc(&p, (pid_t)pid);
			}
			pl_strv_free(ents);
		}
	}
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (cmdv) {
		/* The child gets SIGINT from the terminal too; we keep collecting until it
		 * exits. */
		sa.sa_handler = SIG_IGN;
		sigaction(SIGINT, &sa, NULL);
	}
	scratch = pl_xmalloc(PL_REC_MAX);
	bool ptraced = sc && pl_syscalls_method(sc) == PL_SYSCALLS_PTRACE;
	ri.t0 = pl_now_ns();
	/* --syscalls with the tracepoints counts the command's whole tree, like strace -f:
	 * as a child subreaper perflab inherits the processes the command leaves running
	 * and keeps counting until they have exited too (Ctrl-C or --duration stop it). */
	bool reap_tree = cmdv && sc && !ptraced && prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
	if (cmdv) {
		r = release_child(&t, ptraced ? sc : NULL, cmdv[0]);
		if (r < 0) {
			ret = r == -ENOENT || r == -EACCES ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
			goto close;
		}
	} else {
		pl_pe_enable(&s);
		if (sc)
			pl_syscalls_enable(sc);
	}
	struct pollfd *pf = pl_xcalloc(s.nrings + 1, sizeof(*pf));
	for (size_t i = 0; i < s.nrings; i++)
		pf[i] = (struct pollfd){ .fd = s.rings[i].fd, .events = POLLIN };
	uint64_t deadline = o.duration > 0 ? ri.t0 + (uint64_t)(o.duration * 1e9) : 0;
	if (ptraced) {
		r = ptrace_loop(&t, sc, &s, &p, scratch, deadline, cmdv != NULL);
		if (r < 0) {
			pl_error("--syscalls: ptrace: %s", pl_syscalls_ptrace_strerror(r));
			ret = PL_EXIT_RUNTIME;
			goto close;
		}
	}
	bool left_running = false;
	while (!ptraced && !stop_flag) {
		poll(pf, s.nrings, 50);
		drain(&s, &p, scratch);
		if (sc)
			pl_syscalls_drain(sc);
		if (cmdv && !t.exited && waitpid(t.child, &t.status, WNOHANG) == t.child) {
			t.exited = true;
			if (!reap_tree)
				break;
		}
		if (t.exited && reap_tree) {
			pid_t orphan;
			while ((orphan = waitpid(-1, NULL, WNOHANG)) > 0)
				; /* reap what the command left running, as it exits */
			if (orphan < 0 && errno == ECHILD)
				break;
			if (!left_running) {
				left_running = true;
				pl_warn("'%s' exited; counting the processes it left running until "
					"they "
					"exit (like strace -f; Ctrl-C or --duration to stop)",
					cmdv[0]);
			}
		}
		if (t.nprocs && !any_alive(&t))
			break;
		if (deadline && pl_now_ns() >= deadline) {
			if (cmdv && !t.exited) {
				kill(t.child, SIGTERM);
				waitpid(t.child, &t.status, 0);
				t.exited = true;
			}
			break;
		}
	}
	ri.t1 = pl_now_ns();
	ri.wall_ns = ri.t1 - ri.t0;
	pl_pe_disable(&s);
	drain(&s, &p, scratch);
	if (sc) {
		pl_syscalls_disable(sc);
		pl_syscalls_drain(sc);
	}
	free(pf);
	ri.child_status = t.status;
	if (t.child > 0 && !t.exited) {
		kill_child(&t);
		ri.child_status = t.status;
	}

	/* ---- report ---- */
	/* (/proc/kallsyms is read here, not in a thread during the run: reading it costs
	 * 50-200 ms of CPU that the target would lose on a busy machine.) */
	uint64_t rep0 = pl_now_ns();
	pl_markers_collect(&mk, ri.t1);
	struct region_filter rf = { &mk, -1 };
	pl_sample_filter filter = NULL;
	if (o.region) {
		rf.idx = pl_markers_find(&mk, o.region);
		if (rf.idx < 0) {
			pl_error("--region '%s': the program marked no such region (%s)", o.region,
				 mk.nnames ? "see the regions in the report without --region"
					   : "it marked none; link it with libperflab-mark");
			ret = PL_EXIT_USAGE;
			goto close;
		}
		filter = in_region;
	}
	struct pl_preport rep;
	pl_preport_build(&rep, &p, filter, &rf);
	struct timeline tl;
	bool have_tl = o.timeline_ms > 0;
	if (have_tl)
		timeline_build(&tl, &p, &rep, &ri, o.timeline_ms, filter, &rf);
	/* The output rule (README "Output"): a command keeps stdout and stderr; without -o
	 * the report then goes to stderr, like strace -c and time, so the command's output
	 * can be redirected without losing it. -o - asks for stdout explicitly. */
	bool to_stderr = cmdv && !pl_g.output;
	/* One path for text and --json (README "Exit status"): an -o FILE that cannot be
	 * opened is an input error (2; it was checked before the run), an output that
	 * cannot be written (a full disk, stderr or stdout on /dev/full or a closed pipe)
	 * a runtime failure (3), as main.c's flush of stdout. */
	const char *dest = to_stderr					  ? "stderr"
			   : pl_g.output && strcmp(pl_g.output, "-") != 0 ? pl_g.output
									  : "stdout";
	struct pl_outfile out = { 0 };
	FILE *fp = stderr;
	if (!to_stderr) {
		int e = pl_outfile_open(&out, pl_g.output);
		if (e < 0) {
			pl_error("cannot write '%s': %s", dest, strerror(-e));
			ret = PL_EXIT_USAGE;
		}
		fp = out.fp;
	}
	if (ret == PL_EXIT_OK) {
		int e = 0;
		if (pl_g.json) {
			json_t *doc = to_json(&o, &ri, &p, &rep, mk.hdr ? &mk : NULL,
					      have_tl ? &tl : NULL, sc);
			e = pl_json_write(fp, doc);
			json_decref(doc);
		} else {
			print_text(fp, &o, &ri, &p, &rep, mk.hdr ? &mk : NULL, have_tl ? &tl : NULL,
				   sc);
		}
		if (to_stderr) {
			if (e == 0 && (fflush(stderr) != 0 || ferror(stderr)))
				e = -EIO;
		} else {
			int c = pl_outfile_close(&out, e == 0);
			if (e == 0)
				e = c;
		}
		if (e < 0) {
			pl_error("cannot write '%s': %s", dest, strerror(-e));
			ret = PL_EXIT_RUNTIME;
		}
	}
	if (ret == PL_EXIT_OK && (o.folded || o.svg)) {
		char *title = pl_xasprintf("perflab profile of %s", what);
		ret = write_outputs(&o, &rep, have_tl ? &tl : NULL, title);
		free(title);
	}
	if (p.dwarf_truncated)
		pl_warn("--call-graph dwarf: %llu of %zu samples (%.1f%%) had a deeper user stack "
			"than the %u bytes copied, so their outer callers are missing; %s",
			(unsigned long long)p.dwarf_truncated, p.nsamples,
			pct(p.dwarf_truncated, p.nsamples), (unsigned)stack_copied(&s, &p),
			stack_advice(&s, &p));
	if (p.lost || p.lost_samples)
		pl_warn("%llu records and %llu samples lost (%.2f%%): the ring filled up; raise "
			"--ring-kb or lower -F",
			(unsigned long long)p.lost, (unsigned long long)p.lost_samples,
			pct(p.lost + p.lost_samples, p.nsamples + p.lost + p.lost_samples));
	pl_debug("report: %.3f ms for %zu samples (%.0f ns per sample)",
		 (double)(pl_now_ns() - rep0) / 1e6, p.nsamples,
		 p.nsamples ? (double)(pl_now_ns() - rep0) / (double)p.nsamples : 0.0);
	if (have_tl)
		timeline_free(&tl);
	pl_preport_free(&rep);
close:
	free(scratch);
	if (sc && cmdv && pl_syscalls_kill(sc, SIGKILL)) {
		/* (an error) the command's traced tree ends with perflab: none runs on
		 * untraced; the killed tasks are reaped by the detach */
		end_ptrace(sc, true);
		if (pl_syscalls_leader_exited(sc, &t.status))
			t.exited = true;
	}
	pl_syscalls_close(sc);
	pl_profile_free(&p);
	pl_pe_close(&s);
	kill_child(&t);
out:
	pl_markers_free(&mk);
	free(what);
	free(t.pids);
	free(t.procs);
	free(cpus);
	pl_args_free(&args);
	return ret;
}
