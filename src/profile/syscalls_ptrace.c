/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --syscalls without tracepoints: count at ptrace syscall stops, like strace -c -f.
 * The tracees are kept in an open-addressing table keyed by thread id (linear probing,
 * backward-shift deletion), because a stop of any thread must find its pending entry
 * in O(1): a syscall-heavy program makes two stops per call. */
#include "profile/syscalls_ptrace.h"

#include <errno.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

#include "profile/perf_event.h"
#include "util/clock.h"
#include "util/str.h"
#include "util/sysroot.h"

struct tracee {
	pid_t tid;  /* 0 = free slot */
	int32_t nr; /* syscall in progress (entry seen), -1 none */
	uint64_t t; /* its entry time, CLOCK_MONOTONIC ns */
};

struct pl_sc_ptrace {
	struct tracee *tab;
	size_t cap, n; /* cap is a power of two, n <= cap / 2 */
	struct pl_sc_row *rows;
	pid_t leader;  /* the command, or 0 (-p) */
	bool counting; /* -p: from the start; command: from its exec on */
	bool execed;
	bool leader_exited;
	int leader_status;
	bool finished; /* pl_sc_ptrace_detach ran (done, or timed out: not repeated) */
	pid_t *gone;   /* tids detached (so a late fork event does not add them again) */
	size_t ngone, capgone;
	size_t detached; /* tasks detached alive (their later calls are not counted) */
	int err;	 /* sticky: -ENOSYS without PTRACE_GET_SYSCALL_INFO */
	uint32_t arch;	 /* AUDIT_ARCH_* of perflab itself (= libseccomp's token) */
	unsigned long long uncounted;
};

static const long trace_opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK |
			       PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;

/* ---- the tracee table ---- */

static size_t home(const struct pl_sc_ptrace *p, pid_t tid)
{
	return ((uint32_t)tid * 2654435761u) & (p->cap - 1);
}

static size_t slot(const struct pl_sc_ptrace *p, pid_t tid)
{
	size_t i = home(p, tid);
	while (p->tab[i].tid && p->tab[i].tid != tid)
		i = (i + 1) & (p->cap - 1);
	return i;
}

static struct tracee *find(struct pl_sc_ptrace *p, pid_t tid)
{
	size_t i = slot(p, tid);
	return p->tab[i].tid ? &p->tab[i] : NULL;
}

static struct tracee *add(struct pl_sc_ptrace *p, pid_t tid)
{
	if ((p->n + 1) * 2 > p->cap) {
		struct tracee *old = p->tab;
		size_t ocap = p->cap;
		p->cap *= 2;
		p->tab = pl_xcalloc(p->cap, sizeof(*p->tab));
		for (size_t i = 0; i < ocap; i++)
			if (old[i].tid)
				p->tab[slot(p, old[i].tid)] = old[i];
		free(old);
	}
	size_t i = slot(p, tid);
	if (!p->tab[i].tid) {
		p->tab[i] = (struct tracee){ .tid = tid, .nr = -1 };
		p->n++;
	}
	return &p->tab[i];
}

/* Knuth's algorithm R: shift later members of the probe run back into the hole. */
static void del(struct pl_sc_ptrace *p, pid_t tid)
{
	size_t mask = p->cap - 1, i = slot(p, tid), j = i;
	if (!p->tab[i].tid)
		return;
	p->n--;
	for (;;) {
		p->tab[i].tid = 0;
		size_t k;
		do {
			j = (j + 1) & mask;
			if (!p->tab[j].tid)
				return;
			k = home(p, p->tab[j].tid);
		} while (i <= j ? (i < k && k <= j) : (i < k || k <= j));
		p->tab[i] = p->tab[j];
		i = j;
	}
}

/* ---- attach ---- */

/* From /proc/TID/status: whether @tid is a zombie (State: Z, e.g. a leader after
 * pthread_exit: PTRACE_SEIZE fails with EPERM) and whether it is already traced by us
 * (auto-attached as a new thread of a seized one before we saw its first stop: EPERM
 * too). */
static void task_state(pid_t tid, bool *zombie, bool *ours)
{
	char *st = NULL;
	*zombie = *ours = false;
	if (pl_read_filef(&st, NULL, "/proc/%d/status", (int)tid) < 0)
		return;
	const char *l = strstr(st, "\nState:");
	if (l) {
		l += 7;
		l += strspn(l, " \t");
		*zombie = *l == 'Z';
	}
	l = strstr(st, "\nTracerPid:");
	if (l) {
		l += 11;
		l += strspn(l, " \t");
		char num[24];
		size_t k = strcspn(l, "\n");
		int64_t v;
		if (k < sizeof(num)) {
			memcpy(num, l, k);
			num[k] = 0;
			*ours = pl_parse_i64(num, &v) == 0 && v == (int64_t)getpid();
		}
	}
	free(st);
}

/* Seize and interrupt every thread of @pid; re-read the task list until no new thread
 * shows up (a thread created between the listing and the seize of its creator). */
static int attach_process(struct pl_sc_ptrace *p, pid_t pid)
{
	bool any = false;
	for (int round = 0; round < 1000; round++) {
		char dir[64];
		char **tasks = NULL;
		size_t nt = 0;
		snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
		int r = pl_list_dir(dir, &tasks, &nt);
		if (r < 0)
			return any ? 0 : r == -ENOENT ? -ESRCH : r;
		bool added = false;
		for (size_t k = 0; k < nt; k++) {
			uint64_t v;
			if (pl_parse_u64(tasks[k], &v) < 0 || v == 0 || v > 0x7fffffff)
				continue;
			pid_t tid = (pid_t)v;
			if (find(p, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0, trace_opts) < 0) {
				int e = errno;
				if (e == ESRCH)
					continue;
				bool zombie = false, ours = false;
				if (e == EPERM)
					task_state(tid, &zombie, &ours);
				if (zombie)
					continue; /* exited thread (leader after pthread_exit) */
				if (ours && any) {
					add(p, tid); /* its first stop is on its way */
					added = true;
					continue;
				}
				r = -e;
				pl_strv_free(tasks);
				return r;
			}
			ptrace(PTRACE_INTERRUPT, tid, 0, 0);
			add(p, tid);
			any = added = true;
		}
		pl_strv_free(tasks);
		if (!added)
			break;
	}
	return any ? 0 : -ESRCH;
}

int pl_sc_ptrace_open(struct pl_sc_ptrace **out, const pid_t *pids, size_t npids, bool command,
		      struct pl_sc_row *rows)
{
	if (!npids)
		return -EINVAL;
	struct pl_sc_ptrace *p = pl_xcalloc(1, sizeof(*p));
	p->cap = 64;
	p->tab = pl_xcalloc(p->cap, sizeof(*p->tab));
	p->rows = rows;
	p->arch = seccomp_arch_native();
	int r = 0;
	if (command) {
		p->leader = pids[0];
		/* EXITKILL: if perflab dies, the command does not run on untraced */
		if (ptrace(PTRACE_SEIZE, pids[0], 0, trace_opts | PTRACE_O_EXITKILL) < 0 ||
		    ptrace(PTRACE_INTERRUPT, pids[0], 0, 0) < 0)
			r = -errno;
		else
			add(p, pids[0]);
	} else {
		p->counting = true;
		for (size_t i = 0; i < npids && r == 0; i++) {
			r = attach_process(p, pids[i]);
			if (r == -ESRCH && npids > 1)
				r = 0; /* exited meanwhile; the others are still worth tracing */
		}
		if (r == 0 && !p->n)
			r = -ESRCH;
	}
	if (r < 0) {
		pl_sc_ptrace_close(p);
		return r;
	}
	*out = p;
	return 0;
}

/* ---- stops ---- */

static void on_syscall(struct pl_sc_ptrace *p, struct tracee *t, uint64_t now)
{
	struct __ptrace_syscall_info si;
	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si) < 0) {
		if (errno != ESRCH)
			p->err = errno == EIO || errno == EINVAL ? -ENOSYS : -errno;
		return;
	}
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
		bool native = si.arch == p->arch && si.entry.nr < PL_SC_MAX_NR;
		t->nr = native ? (int32_t)si.entry.nr : -2;
		t->t = now;
		return;
	}
	if (si.op != PTRACE_SYSCALL_INFO_EXIT)
		return;
	int32_t nr = t->nr;
	t->nr = -1;
	if (!p->counting)
		return;
	if (nr < 0) {
		p->uncounted++;
		return;
	}
	struct pl_sc_row *rw = &p->rows[nr];
	uint64_t d = now - t->t;
	rw->calls++;
	rw->errors += si.exit.is_error != 0;
	rw->total_ns += d;
	rw->timed++;
	if (d > rw->max_ns)
		rw->max_ns = d;
}

/* PTRACE_EVENT_EXEC: a non-leader thread that execs takes the leader's thread id (the
 * other threads, the old leader included, are gone); its pending execve entry moves
 * with it so the exit stop that follows pairs with it. */
static void on_exec(struct pl_sc_ptrace *p, pid_t tid)
{
	unsigned long former = 0;
	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && (pid_t)former != tid) {
		struct tracee *o = find(p, (pid_t)former);
		struct tracee keep = o ? *o : (struct tracee){ .nr = -1 };
		del(p, (pid_t)former);
		struct tracee *t = add(p, tid);
		t->nr = keep.nr;
		t->t = keep.t;
	}
	if (tid == p->leader && !p->execed) {
		p->execed = true;
		p->counting = true; /* this execve's exit stop is the first call counted */
	}
}

/* A tracee exited (reaped by waitpid): forget it; the command's status is kept. */
static void reaped(struct pl_sc_ptrace *p, pid_t tid, int st)
{
	del(p, tid);
	if (tid == p->leader) {
		p->leader_exited = true;
		p->leader_status = st;
	}
}

int pl_sc_ptrace_wait(struct pl_sc_ptrace *p, bool block)
{
	if (p->err)
		return p->err;
	int st;
	pid_t tid = waitpid(-1, &st, __WALL | (block ? 0 : WNOHANG));
	if (tid < 0)
		return errno == ECHILD ? 0 : -errno;
	if (tid == 0)
		return -EAGAIN;
	uint64_t now = pl_now_ns();
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		reaped(p, tid, st);
		return 1;
	}
	if (!WIFSTOPPED(st))
		return 1;
	/* a new thread or child can report its first stop before its parent's event */
	struct tracee *t = add(p, tid);
	int sig = WSTOPSIG(st), inject = 0;
	unsigned event = (unsigned)st >> 16;
	if (sig == (SIGTRAP | 0x80)) {
		on_syscall(p, t, now);
	} else if (event == PTRACE_EVENT_STOP) {
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			/* group-stop: stay stopped (job control) yet report SIGCONT to us */
			if (ptrace(PTRACE_LISTEN, tid, 0, 0) < 0 && errno != ESRCH)
				return -errno;
			return 1;
		}
		/* else PTRACE_INTERRUPT or the first stop of an auto-attached task */
	} else if (event == PTRACE_EVENT_EXEC) {
		on_exec(p, tid);
	} else if (!event) {
		inject = sig; /* signal-delivery-stop: deliver the signal */
	}
	/* (fork, vfork, clone events: the new task is auto-attached and stops on its own) */
	if (ptrace(PTRACE_SYSCALL, tid, 0, (void *)(long)inject) < 0 && errno != ESRCH)
		return -errno;
	return p->err ? p->err : 1;
}

bool pl_sc_ptrace_is_command(const struct pl_sc_ptrace *p)
{
	return p->leader != 0;
}

bool pl_sc_ptrace_execed(const struct pl_sc_ptrace *p)
{
	return p->execed;
}

bool pl_sc_ptrace_leader_exited(const struct pl_sc_ptrace *p, int *status)
{
	if (p->leader_exited && status)
		*status = p->leader_status;
	return p->leader_exited;
}

unsigned long long pl_sc_ptrace_uncounted(const struct pl_sc_ptrace *p)
{
	return p->uncounted;
}

size_t pl_sc_ptrace_kill(struct pl_sc_ptrace *p, int sig)
{
	size_t n = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->tab[i].tid && kill(p->tab[i].tid, sig) == 0)
			n++;
	return n;
}

static bool was_detached(const struct pl_sc_ptrace *p, pid_t tid)
{
	for (size_t i = 0; i < p->ngone; i++)
		if (p->gone[i] == tid)
			return true;
	return false;
}

int pl_sc_ptrace_detach(struct pl_sc_ptrace *p)
{
	if (p->finished)
		return p->n ? -ETIMEDOUT : 0;
	p->finished = true;
	for (size_t i = 0; i < p->cap; i++)
		if (p->tab[i].tid)
			ptrace(PTRACE_INTERRUPT, p->tab[i].tid, 0, 0);
	uint64_t deadline = pl_now_ns() + 2000000000u;
	while (p->n) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL | WNOHANG);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0) {
			/* ECHILD: nothing left to wait for */
			memset(p->tab, 0, p->cap * sizeof(*p->tab));
			p->n = 0;
			break;
		}
		if (tid == 0) {
			if (pl_now_ns() >= deadline)
				return -ETIMEDOUT;
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			continue;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			reaped(p, tid, st);
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), inject = 0;
		unsigned event = (unsigned)st >> 16;
		if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		    event == PTRACE_EVENT_CLONE) {
			unsigned long child = 0;
			/* the new task is traced too: wait for its first stop and detach it,
			 * unless that stop came first and it is already detached */
			if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) == 0 && child &&
			    !was_detached(p, (pid_t)child))
				add(p, (pid_t)child);
		}
		if (sig != (SIGTRAP | 0x80) && !event)
			inject = sig;
		if (ptrace(PTRACE_DETACH, tid, 0, (void *)(long)inject) == 0) {
			if (p->ngone == p->capgone) {
				p->capgone = p->capgone ? p->capgone * 2 : 64;
				p->gone = pl_xrealloc(p->gone, p->capgone * sizeof(*p->gone));
			}
			p->gone[p->ngone++] = tid;
			p->detached++;
		}
		del(p, tid);
	}
	return 0;
}

size_t pl_sc_ptrace_detached(const struct pl_sc_ptrace *p)
{
	return p->detached;
}

size_t pl_sc_ptrace_undetached(const struct pl_sc_ptrace *p, pid_t *tids, size_t max)
{
	if (!p->finished)
		return 0;
	size_t k = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->tab[i].tid) {
			if (k < max)
				tids[k] = p->tab[i].tid;
			k++;
		}
	return k;
}

void pl_sc_ptrace_close(struct pl_sc_ptrace *p)
{
	if (!p)
		return;
	pl_sc_ptrace_detach(p);
	free(p->gone);
	free(p->tab);
	free(p);
}
