/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/syscalls.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/json.h"
#include "profile/decode.h"
#include "profile/perf_event.h"
#include "profile/syscalls_ptrace.h"
#include "profile/tprings.h"
#include "profile/tracefs.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

#define MAX_NR PL_SC_MAX_NR

/* One tracepoint hit, kept until the end so enter/exit pair in time order even when a
 * thread migrated between the two (they are then in different per-CPU rings). */
struct ev {
	uint64_t time;
	uint32_t tid;
	int32_t nr;
	int64_t ret;
	bool exit;
};

struct pl_syscalls {
	enum pl_syscalls_method method;
	struct pl_sc_ptrace *pt; /* the ptrace backend, or NULL */
	char *fallback;		 /* why tracepoints were not used, or NULL */
	struct pl_tp_rings tp;	 /* the two events on every CPU, into per-CPU rings */
	int off_id_enter, off_id_exit, off_ret;
	struct ev *evs;
	size_t nev, capev;
	uint64_t lost;	   /* events lost: the larger of lost_rec and fired - nev */
	uint64_t lost_rec; /* what PERF_RECORD_LOST / LOST_SAMPLES records reported */
	uint64_t fired;	   /* hits the kernel counted (read() of every event at disable) */
	bool have_fired;   /* fired was read from every event */
	uint8_t *scratch;
	/* results (computed lazily) */
	bool done;
	struct pl_sc_row rows[MAX_NR];
	unsigned long long unpaired;
};

/* Offset of field @name in a format file, or @def when the file does not name it. */
static int field_offset(const char *fmt, const char *name, int def)
{
	int off = def;
	pl_tracefs_field(fmt, name, &off, NULL);
	return off;
}

int pl_syscalls_open(struct pl_syscalls **out, const pid_t *pids, size_t npids, const int *cpus,
		     size_t ncpus, bool on_exec, bool inherit)
{
	const char *dir = pl_tracefs_dir("raw_syscalls");
	if (!dir) /* mounted but not ours to read (non-root): "no permission", not "missing" */
		return pl_tracefs_missing_errno();
	uint64_t id_enter, id_exit;
	char *fe = NULL, *fx = NULL;
	int r = pl_tracefs_event(dir, "raw_syscalls", "sys_enter", &id_enter, &fe);
	if (r == 0)
		r = pl_tracefs_event(dir, "raw_syscalls", "sys_exit", &id_exit, &fx);
	if (r < 0) {
		free(fe);
		free(fx);
		return r;
	}
	struct pl_syscalls *s = pl_xcalloc(1, sizeof(*s));
	s->off_id_enter = field_offset(fe, "id", 8);
	s->off_id_exit = field_offset(fx, "id", 8);
	s->off_ret = field_offset(fx, "ret", 16);
	free(fe);
	free(fx);
	struct perf_event_attr a = { 0 };
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.sample_period = 1;
	a.sample_type =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	a.disabled = 1;
	a.enable_on_exec = on_exec;
	a.inherit = inherit;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = 4096u * 4096u / 4; /* a quarter of the 16 MiB ring */
	const uint64_t configs[2] = { id_enter, id_exit };
	/* 16 MiB per CPU: 100k calls/s stay far from full */
	r = pl_tp_open(&s->tp, &a, configs, NULL, 2, pids, npids, cpus, ncpus, 4096);
	if (r < 0) {
		pl_syscalls_close(s);
		return r;
	}
	s->scratch = pl_xmalloc(PL_REC_MAX);
	*out = s;
	return 0;
}

void pl_syscalls_enable(struct pl_syscalls *s)
{
	pl_pe_enable(&s->tp.s);
}

/* After the disable, each event's count (read(), children included) is every hit the
 * kernel saw; each hit writes one sample or is dropped. The kernel reports a drop only in
 * a PERF_RECORD_LOST written before the ring's next record, so drops in a ring that got
 * no record after them (the task moved to another CPU, or stopped) are never reported:
 * fired minus the samples read is the exact number lost, reported or not. */
void pl_syscalls_disable(struct pl_syscalls *s)
{
	pl_pe_disable(&s->tp.s);
	if (s->method == PL_SYSCALLS_PTRACE)
		return;
	s->fired = 0;
	s->have_fired = true;
	for (size_t i = 0; i < s->tp.s.nfds; i++) {
		uint64_t v;
		if (read(s->tp.s.fds[i], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
			s->have_fired = false;
			break;
		}
		s->fired += v;
	}
}

static bool is_enter(const struct pl_syscalls *s, uint64_t id)
{
	return pl_tp_event_of(&s->tp, id) == 0;
}

static int on_rec(void *ctx, const struct perf_event_header *h)
{
	struct pl_syscalls *s = ctx;
	if (h->type == PERF_RECORD_LOST) { /* { u64 id; u64 lost; sample_id } */
		uint64_t v;
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&v, (const uint8_t *)(h + 1) + 8, 8);
			s->lost_rec += v;
		}
		return 0;
	}
	if (h->type == PERF_RECORD_LOST_SAMPLES) { /* { u64 lost; sample_id } */
		uint64_t v;
		if (h->size >= sizeof(*h) + 8) {
			memcpy(&v, h + 1, 8);
			s->lost_rec += v;
		}
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	struct pl_sample sm;
	if (pl_parse_sample(h,
			    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_RAW,
			    0, &sm) < 0 ||
	    !sm.raw)
		return 0;
	struct ev e = { .time = sm.time, .tid = sm.tid };
	e.exit = !is_enter(s, sm.id);
	int off = e.exit ? s->off_id_exit : s->off_id_enter;
	int64_t nr = -1;
	if ((uint32_t)off + 8 <= sm.raw_size)
		memcpy(&nr, sm.raw + off, 8);
	e.nr = (int32_t)nr;
	if (e.exit && (uint32_t)s->off_ret + 8 <= sm.raw_size)
		memcpy(&e.ret, sm.raw + s->off_ret, 8);
	if (s->nev == s->capev) {
		s->capev = s->capev ? s->capev * 2 : 65536;
		s->evs = pl_xrealloc(s->evs, s->capev * sizeof(*s->evs));
	}
	s->evs[s->nev++] = e;
	return 0;
}

void pl_syscalls_drain(struct pl_syscalls *s)
{
	for (size_t i = 0; i < s->tp.s.nrings; i++) {
		struct pl_pe_ring *r = &s->tp.s.rings[i];
		uint64_t head = pl_pe_ring_head(r), tail = pl_pe_ring_tail(r);
		bool bad;
		uint64_t nt = pl_ring_walk(r->data, r->data_size, tail, head, s->scratch, on_rec, s,
					   &bad);
		pl_pe_ring_set_tail(r, bad ? head : nt);
	}
}

static int cmp_ev(const void *x, const void *y)
{
	const struct ev *a = x, *b = y;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	/* An enter and its exit never share a timestamp in practice; enter first if so. */
	return (int)a->exit - (int)b->exit;
}

/* True for the calls that return twice, in the parent and (with 0) in the new task. */
static bool is_fork_like(int nr)
{
	return nr == SCMP_SYS(clone) || nr == SCMP_SYS(clone3) || nr == SCMP_SYS(fork) ||
	       nr == SCMP_SYS(vfork);
}

/* -ERESTARTSYS, -ERESTARTNOINTR, -ERESTARTNOHAND, -ERESTART_RESTARTBLOCK (kernel-internal
 * codes, include/linux/errno.h): the call was interrupted by a signal. */
static bool is_restart(int64_t ret)
{
	return ret == -512 || ret == -513 || ret == -514 || ret == -516;
}

/* One thread's state while pairing: the call it is in (nr >= 0, entered at t), and an
 * interrupted call's result held back until the thread is seen again (dnr >= 0). */
struct pend {
	uint32_t tid;
	int32_t nr, dnr;
	uint64_t t;
	bool used, derr;
};

static void commit_deferred(struct pl_syscalls *s, struct pend *p)
{
	if (p->dnr >= 0) {
		s->rows[p->dnr].calls++;
		if (p->derr)
			s->rows[p->dnr].errors++;
	}
	p->dnr = -1;
}

/* Pair enter/exit per thread (a thread is in at most one syscall at a time) and count a
 * call when it returns, as strace -c counts syscall-exit stops: exit and exit_group,
 * which never return, and a call whose task was killed inside it (an interrupted call
 * that is the task's last event) are not counted; the child side of clone/fork/vfork
 * (a new task's first event, returning 0) is not a second call; an execve entered by a
 * non-leader thread returns in the leader's tid (the thread takes over the pid, and the
 * old leader's interrupted call is not counted); an execve exit with no entry at all is
 * the one that started the command; rt_sigreturn's value is the interrupted code's
 * register, never an error. */
static void compute(struct pl_syscalls *cs)
{
	struct pl_syscalls *s = cs;
	if (s->done || s->method == PL_SYSCALLS_PTRACE) /* ptrace counts as it goes */
		return;
	s->done = true;
	/* A sample that could not be parsed is not in evs: fired - nev counts it too. */
	s->lost = s->lost_rec;
	if (s->have_fired && s->fired > s->nev && s->fired - s->nev > s->lost)
		s->lost = s->fired - s->nev;
	qsort(s->evs, s->nev, sizeof(*s->evs), cmp_ev);
	size_t cap = 1024;
	while (cap < s->nev / 4 + 16 && cap < (1u << 22))
		cap *= 2;
	struct pend *tab = pl_xcalloc(cap, sizeof(*tab));
	for (size_t i = 0; i < s->nev; i++) {
		const struct ev *e = &s->evs[i];
		size_t j = (e->tid * 2654435761u) & (cap - 1);
		while (tab[j].used && tab[j].tid != e->tid)
			j = (j + 1) & (cap - 1);
		if (!tab[j].used)
			tab[j] = (struct pend){ e->tid, -1, -1, 0, true, false };
		/* rt_sigreturn restores orig_ax: its exit carries id -1 */
		int nr = e->exit && e->nr < 0 && tab[j].nr >= 0 ? tab[j].nr : e->nr;
		if (nr < 0 || nr >= MAX_NR)
			continue;
		bool execve = nr == SCMP_SYS(execve) || nr == SCMP_SYS(execveat);
		if (e->exit && execve && tab[j].nr != nr)
			tab[j].dnr = -1; /* another thread's execve took over this tid: it died */
		commit_deferred(s, &tab[j]); /* the thread lived on after its interrupted call */
		struct pl_sc_row *rw = &s->rows[nr];
		if (!e->exit) {
			if (tab[j].nr >= 0)
				s->unpaired++; /* previous call never returned (exit_group, or lost
						  exit) */
			tab[j].nr = nr;
			tab[j].t = e->time;
			continue;
		}
		uint64_t t0 = 0;
		bool paired = tab[j].nr == nr;
		if (paired) {
			t0 = tab[j].t;
		} else if (e->ret == 0 && is_fork_like(nr)) {
			tab[j].nr = -1; /* the child side: counted at the parent's return */
			continue;
		} else if (execve) {
			for (size_t k = 0; k < cap && !paired; k++) {
				if (tab[k].used && k != j && tab[k].nr == nr) {
					paired = true; /* entered by a thread that took over this
							  tid */
					t0 = tab[k].t;
					tab[k].nr = -1;
				}
			}
		}
		tab[j].nr = -1;
		if (paired) {
			uint64_t d = e->time - t0;
			rw->total_ns += d;
			rw->timed++;
			if (d > rw->max_ns)
				rw->max_ns = d;
		}
		/* rt_sigreturn "returns" the interrupted code's register, not a result */
		bool sigret = nr == SCMP_SYS(rt_sigreturn);
		bool err = !sigret && e->ret < 0 && e->ret > -4096;
		if (!sigret && is_restart(e->ret)) {
			tab[j].dnr = nr; /* counted if the thread is seen again */
			tab[j].derr = err;
			continue;
		}
		rw->calls++;
		if (err)
			rw->errors++;
	}
	free(tab);
}

static char *sc_name(int nr)
{
	char *n = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	return n ? n : pl_xasprintf("syscall_%d", nr);
}

static int *sorted_rows(const struct pl_syscalls *s, size_t *n)
{
	int *v = pl_xmalloc(MAX_NR * sizeof(int));
	*n = 0;
	for (int i = 0; i < MAX_NR; i++)
		if (s->rows[i].calls)
			v[(*n)++] = i;
	for (size_t i = 1; i < *n; i++) { /* insertion sort by calls desc, nr asc */
		int x = v[i];
		size_t j = i;
		while (j && (s->rows[v[j - 1]].calls < s->rows[x].calls ||
			     (s->rows[v[j - 1]].calls == s->rows[x].calls && v[j - 1] > x))) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	return v;
}

/* Every call of the traced tasks counted: nothing lost or left uncounted, no task left
 * attached, and in command mode none detached alive (-p: the calls while attached). */
static bool exact(const struct pl_syscalls *s)
{
	if (!s->pt)
		return s->lost == 0;
	return !pl_sc_ptrace_uncounted(s->pt) && !pl_sc_ptrace_undetached(s->pt, NULL, 0) &&
	       !(pl_sc_ptrace_is_command(s->pt) && pl_sc_ptrace_detached(s->pt));
}

void pl_syscalls_print(const struct pl_syscalls *cs, FILE *out)
{
	struct pl_syscalls *s = (struct pl_syscalls *)cs;
	compute(s);
	size_t n;
	int *v = sorted_rows(s, &n);
	unsigned long long calls = 0, errs = 0;
	uint64_t tot = 0;
	if (s->method == PL_SYSCALLS_PTRACE) {
		fprintf(out,
			"\n%ssyscalls%s (ptrace syscall stops, like strace -c -f; time = entry to "
			"exit stop as seen by perflab, wall, like strace -c -w)\n",
			pl_style(out, "bold"), pl_style(out, "reset"));
		if (s->fallback)
			fprintf(out, "  method ptrace: %s\n", s->fallback);
		fprintf(out,
			"  note: the program ran slower under ptrace (two stops per call, ~20x on "
			"syscall-heavy code, like strace): times are inflated%s\n",
			exact(s) ? ", counts are exact" : "");
	} else {
		fprintf(out,
			"\n%ssyscalls%s (raw_syscalls tracepoints; time = enter to exit, wall)\n",
			pl_style(out, "bold"), pl_style(out, "reset"));
	}
	fprintf(out, "  %-22s %10s %8s %12s %10s %10s\n", "syscall", "calls", "errors", "total ms",
		"mean us", "max us");
	for (size_t i = 0; i < n; i++) {
		const struct pl_sc_row *r = &s->rows[v[i]];
		char *nm = sc_name(v[i]);
		fprintf(out, "  %-22s %10llu %8llu %12.3f %10.3f %10.3f\n", nm, r->calls, r->errors,
			(double)r->total_ns / 1e6,
			r->timed ? (double)r->total_ns / (double)r->timed / 1e3 : 0.0,
			(double)r->max_ns / 1e3);
		free(nm);
		calls += r->calls;
		errs += r->errors;
		tot += r->total_ns;
	}
	fprintf(out, "  %-22s %10llu %8llu %12.3f\n", "total", calls, errs, (double)tot / 1e6);
	if (s->method == PL_SYSCALLS_PTRACE)
		fprintf(out, "  lost events 0 (ptrace stops every call)\n");
	else
		fprintf(out, "  lost events %llu%s\n", (unsigned long long)s->lost,
			s->lost ? " (counts are low by at most this much)" : " (counts are exact)");
	if (s->pt && pl_sc_ptrace_uncounted(s->pt))
		fprintf(out,
			"  %llu calls not counted (exit without a seen entry, or a 32-bit ABI): "
			"counts are low by this much\n",
			pl_sc_ptrace_uncounted(s->pt));
	if (s->pt && pl_sc_ptrace_detached(s->pt))
		fprintf(out,
			"  %zu tasks were detached alive: their calls after that are not counted\n",
			pl_sc_ptrace_detached(s->pt));
	size_t und = s->pt ? pl_sc_ptrace_undetached(s->pt, NULL, 0) : 0;
	if (und)
		fprintf(out,
			"  %zu tasks could not be detached (still traced until perflab exits)\n",
			und);
	free(v);
}

json_t *pl_syscalls_json(const struct pl_syscalls *cs)
{
	struct pl_syscalls *s = (struct pl_syscalls *)cs;
	compute(s);
	size_t n;
	int *v = sorted_rows(s, &n);
	json_t *d = json_object();
	bool pt = s->method == PL_SYSCALLS_PTRACE;
	json_object_set_new(d, "method", pl_json_string(pt ? "ptrace" : "tracepoint"));
	json_object_set_new(
		d, "source",
		pl_json_string(pt ? "ptrace syscall stops" : "raw_syscalls tracepoints"));
	json_object_set_new(d, "fallback", s->fallback ? pl_json_string(s->fallback) : json_null());
	json_object_set_new(d, "lost", json_integer((json_int_t)s->lost));
	json_object_set_new(d, "uncounted",
			    json_integer(s->pt ? (json_int_t)pl_sc_ptrace_uncounted(s->pt) : 0));
	json_object_set_new(d, "detached",
			    json_integer(s->pt ? (json_int_t)pl_sc_ptrace_detached(s->pt) : 0));
	json_object_set_new(
		d, "undetached",
		json_integer(s->pt ? (json_int_t)pl_sc_ptrace_undetached(s->pt, NULL, 0) : 0));
	json_object_set_new(d, "exact", json_boolean(exact(s)));
	json_t *rows = json_array();
	unsigned long long calls = 0, errs = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pl_sc_row *r = &s->rows[v[i]];
		char *nm = sc_name(v[i]);
		json_t *x = json_object();
		json_object_set_new(x, "name", pl_json_string(nm));
		json_object_set_new(x, "nr", json_integer(v[i]));
		json_object_set_new(x, "calls", json_integer((json_int_t)r->calls));
		json_object_set_new(x, "errors", json_integer((json_int_t)r->errors));
		json_object_set_new(x, "total_ms", json_real((double)r->total_ns / 1e6));
		json_object_set_new(
			x, "mean_us",
			json_real(r->timed ? (double)r->total_ns / (double)r->timed / 1e3 : 0));
		json_object_set_new(x, "max_us", json_real((double)r->max_ns / 1e3));
		json_array_append_new(rows, x);
		free(nm);
		calls += r->calls;
		errs += r->errors;
	}
	json_object_set_new(d, "calls", json_integer((json_int_t)calls));
	json_object_set_new(d, "errors", json_integer((json_int_t)errs));
	json_object_set_new(d, "rows", rows);
	free(v);
	return d;
}

unsigned long long pl_syscalls_count(const struct pl_syscalls *cs, const char *name)
{
	struct pl_syscalls *s = (struct pl_syscalls *)cs;
	compute(s);
	int nr = seccomp_syscall_resolve_name(name);
	return nr >= 0 && nr < MAX_NR ? s->rows[nr].calls : 0;
}

const char *pl_syscalls_strerror(int err)
{
	if (err == -ENOENT)
		return "tracefs with the raw_syscalls events is not available (mount it with "
		       "'mount -t tracefs nodev /sys/kernel/tracing' as root)";
	if (err == -EACCES || err == -EPERM)
		return "no permission for tracepoints (needs root or CAP_PERFMON and a "
		       "readable tracefs)";
	return strerror(-err);
}

int pl_syscalls_open_ptrace(struct pl_syscalls **out, const pid_t *pids, size_t npids, bool command)
{
	struct pl_syscalls *s = pl_xcalloc(1, sizeof(*s));
	s->method = PL_SYSCALLS_PTRACE;
	int r = pl_sc_ptrace_open(&s->pt, pids, npids, command, s->rows);
	if (r < 0) {
		free(s);
		return r;
	}
	*out = s;
	return 0;
}

enum pl_syscalls_method pl_syscalls_method(const struct pl_syscalls *s)
{
	return s->method;
}

void pl_syscalls_set_fallback(struct pl_syscalls *s, const char *why)
{
	free(s->fallback);
	s->fallback = why ? pl_xstrdup(why) : NULL;
}

int pl_syscalls_wait(struct pl_syscalls *s, bool block)
{
	return s->pt ? pl_sc_ptrace_wait(s->pt, block) : 0;
}

bool pl_syscalls_execed(const struct pl_syscalls *s)
{
	return s->pt && pl_sc_ptrace_execed(s->pt);
}

bool pl_syscalls_leader_exited(const struct pl_syscalls *s, int *status)
{
	return s->pt && pl_sc_ptrace_leader_exited(s->pt, status);
}

size_t pl_syscalls_kill(struct pl_syscalls *s, int sig)
{
	return s && s->pt ? pl_sc_ptrace_kill(s->pt, sig) : 0;
}

size_t pl_syscalls_undetached(const struct pl_syscalls *s, pid_t *tids, size_t max)
{
	return s->pt ? pl_sc_ptrace_undetached(s->pt, tids, max) : 0;
}

int pl_syscalls_detach(struct pl_syscalls *s)
{
	return s && s->pt ? pl_sc_ptrace_detach(s->pt) : 0;
}

const char *pl_syscalls_ptrace_strerror(int err)
{
	if (err == -EPERM)
		return "not allowed to ptrace (EPERM; the kernel does not say why: another tracer "
		       "such as strace or gdb may be attached, the process may belong to another "
		       "user or be set-user-ID (needs CAP_SYS_PTRACE), or kernel.yama.ptrace_scope "
		       "may forbid it)";
	if (err == -ENOSYS)
		return "the kernel lacks PTRACE_GET_SYSCALL_INFO (needs Linux 5.3 or later)";
	if (err == -ESRCH)
		return "no such process";
	return strerror(-err);
}

void pl_syscalls_close(struct pl_syscalls *s)
{
	if (!s)
		return;
	pl_sc_ptrace_close(s->pt);
	pl_tp_close(&s->tp);
	free(s->fallback);
	free(s->evs);
	free(s->scratch);
	free(s);
}
