/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profiling session: start or attach, the drain loop, the ptrace loop, stop
 * (profile/session.h). */
#include "profile/session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile/decode.h"
#include "profile/sched_collect.h"
#include "profile/unwind.h"
#include "util/cleanup.h"
#include "util/heldchild.h"
#include "util/clock.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

static volatile sig_atomic_t stop_flag; /* the signal that asked to stop, or 0 */

static void on_signal(int sig)
{
	stop_flag = sig;
}

static volatile sig_atomic_t tick_flag; /* SIGALRM ticks not yet handled */

static void on_tick(int sig)
{
	(void)sig;
	if (tick_flag < 100)
		tick_flag++;
}

/* One warning through the config's callback. */
static void session_warn(const struct pl_psession *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void session_warn(const struct pl_psession *s, const char *fmt, ...)
{
	if (!s->cfg.warn)
		return;
	struct pl_buf b = { 0 };
	va_list ap;
	va_start(ap, fmt);
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	s->cfg.warn(s->cfg.warn_ctx, b.data ? b.data : "");
	pl_buf_free(&b);
}

/* Drain every ring into the profile. */
static void drain(struct pl_psession *s)
{
	for (size_t i = 0; i < s->pe.nrings; i++) {
		struct pl_pe_ring *r = &s->pe.rings[i];
		uint64_t head = pl_pe_ring_head(r), tail = pl_pe_ring_tail(r);
		bool corrupt = false;
		uint64_t nt = pl_ring_walk(r->data, r->data_size, tail, head, s->scratch,
					   pl_profile_record, &s->prof, &corrupt);
		if (corrupt) {
			s->prof.bad_records++;
			nt = head; /* skip what cannot be parsed rather than stall */
		}
		pl_pe_ring_set_tail(r, nt);
	}
	if (s->schc)
		pl_sched_drain(s->schc);
	if (s->locks) /* after the sampling rings: their MMAP2 records come first */
		pl_futex_drain(s->locks, &s->prof);
}

/* ---- the target ---- */

/* fork + wait for the go byte + exec: the events are opened on the child between the
 * two, with enable_on_exec, so nothing before the exec is sampled. */
static int start_child(struct pl_psession *s, char **argv)
{
	pid_t pid;
	int r = pl_held_child_start(argv, &pid, &s->go_fd, &s->err_fd);
	if (r < 0)
		return r;
	s->child = pid;
	s->pids = pl_xmalloc(sizeof(pid_t));
	s->pids[0] = pid;
	s->npids = 1;
	return 0;
}

/* With --syscalls via ptrace (@pt) the child stops at every syscall: drive it through
 * its stops up to the execve (or its exit when the exec failed) before reading the
 * result, which is there once the exec closed the pipe. The error line goes to @err.
 * Returns 0 or -errno (-ENOENT/-EACCES: the exec failed). */
static int release_child(struct pl_psession *s, struct pl_syscalls *pt, char *err, size_t errlen)
{
	const char *cmd = s->cfg.argv[0];
	char c = 'g';
	if (write(s->go_fd, &c, 1) != 1) {
		int r = -errno;
		snprintf(err, errlen, "cannot start '%s': writing to its start pipe failed: %s",
			 cmd, strerror(-r));
		return r;
	}
	close(s->go_fd);
	s->go_fd = -1;
	while (pt && !pl_syscalls_execed(pt) && !pl_syscalls_leader_exited(pt, NULL)) {
		int r = pl_syscalls_wait(pt, true);
		if (r == 0)
			break;
		if (r < 0 && r != -EINTR) {
			snprintf(err, errlen, "--syscalls: ptrace while starting '%s': %s", cmd,
				 pl_syscalls_ptrace_strerror(r));
			return r;
		}
	}
	int e = 0;
	ssize_t n = read(s->err_fd, &e, sizeof(e));
	close(s->err_fd);
	s->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		if (pt) {
			while (!pl_syscalls_leader_exited(pt, &s->child_status))
				if (pl_syscalls_wait(pt, true) == 0)
					break;
		} else {
			waitpid(s->child, &s->child_status, 0);
		}
		s->exited = true;
		snprintf(err, errlen, "cannot run '%s': %s", cmd, pl_exec_strerror(cmd, e));
		return -e;
	}
	return 0;
}

static void kill_child(struct pl_psession *s)
{
	if (s->child > 0 && !s->exited) {
		kill(s->child, SIGKILL);
		waitpid(s->child, &s->child_status, 0);
		s->exited = true;
	}
}

/* -p: stop when every profiled process has exited (like perf record -p). */
static bool any_alive(const struct pl_psession *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (kill(s->procs[i], 0) == 0 || errno != ESRCH)
			return true;
	return false;
}

/* The thread ids in @dir (a /proc/PID/task directory), added to the session's tasks.
 * Returns 0 or -ESRCH (no such process). */
static int add_tasks(struct pl_psession *s, const char *dir)
{
	char **tasks = NULL;
	size_t nt = 0;
	if (pl_list_dir(dir, &tasks, &nt) < 0)
		return -ESRCH;
	for (size_t k = 0; k < nt; k++) {
		uint64_t tid;
		if (pl_parse_u64(tasks[k], &tid) == 0) {
			s->pids = pl_xrealloc(s->pids, (s->npids + 1) * sizeof(pid_t));
			s->pids[s->npids++] = (pid_t)tid;
		}
	}
	pl_strv_free(tasks);
	return 0;
}

/* -p LIST: every thread of every listed process. Returns 0, -EINVAL (not a process id)
 * or -ESRCH. */
static int list_tasks(struct pl_psession *s, const char *list)
{
	char **v = pl_split(list, ",", NULL);
	int r = 0;
	for (size_t i = 0; v[i] && r == 0; i++) {
		uint64_t pid;
		if (pl_parse_u64(v[i], &pid) < 0 || pid == 0 || pid > 0x7fffffff) {
			r = -EINVAL;
			break;
		}
		s->procs = pl_xrealloc(s->procs, (s->nprocs + 1) * sizeof(pid_t));
		s->procs[s->nprocs++] = (pid_t)pid;
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%llu/task", (unsigned long long)pid);
		r = add_tasks(s, dir);
	}
	pl_strv_free(v);
	return r;
}

/* ---- --syscalls ---- */

/* The tracepoints, or ptrace when asked or when the tracepoints are not usable (no
 * tracefs, no permission: the non-root case). The error line goes to @err. */
static int open_syscalls(struct pl_psession *s, char *err, size_t errlen)
{
	const struct pl_psession_config *c = &s->cfg;
	bool command = c->argv != NULL;
	pl_autofree char *why = NULL;
	if (c->via != PL_SYSCALLS_VIA_PTRACE) {
		int r = pl_syscalls_open(&s->sc, s->pids, s->npids, c->cpus, c->ncpus, command,
					 !c->all);
		if (r == 0)
			return 0;
		bool unusable = r == -ENOENT || r == -EACCES || r == -EPERM;
		if (c->via == PL_SYSCALLS_VIA_TRACEPOINT || !unusable || c->all) {
			snprintf(err, errlen, "--syscalls: %s%s", pl_syscalls_strerror(r),
				 c->all && unusable && c->via == PL_SYSCALLS_VIA_AUTO
					 ? "; the ptrace fallback cannot trace -a (system-wide)"
					 : "");
			return r;
		}
		why = pl_xasprintf("tracepoints not usable: %s", pl_syscalls_strerror(r));
	}
	int r = command ? pl_syscalls_open_ptrace(&s->sc, &s->child, 1, true)
			: pl_syscalls_open_ptrace(&s->sc, s->procs, s->nprocs, false);
	if (r < 0) {
		if (why)
			snprintf(err, errlen,
				 "--syscalls: %s, and the ptrace fallback failed too: %s", why,
				 pl_syscalls_ptrace_strerror(r));
		else
			snprintf(err, errlen, "--syscalls: ptrace: %s",
				 pl_syscalls_ptrace_strerror(r));
		return r;
	}
	if (why) {
		session_warn(s,
			     "--syscalls: %s; counting with ptrace instead (exact counts, but the "
			     "program "
			     "runs slower)",
			     why);
		pl_syscalls_set_fallback(s->sc, why);
	}
	return 0;
}

/* ptrace: detach what is left; warn (once) about tasks that could not be detached. */
static void end_ptrace(struct pl_psession *s, bool command)
{
	if (pl_syscalls_detach(s->sc) == 0 || s->ptrace_warned)
		return;
	s->ptrace_warned = true;
	pid_t tids[8];
	size_t n = pl_syscalls_undetached(s->sc, tids, 8);
	char list[8 * 12] = "";
	for (size_t i = 0; i < n && i < 8; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "",
			 (int)tids[i]);
	session_warn(
		s,
		"--syscalls: %zu tasks (%s%s) could not be detached within 2 s (a task in a "
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
 * as without ptrace) and killed 2 s later; SIGTERM or Ctrl-C to perflab is passed to them
 * the same way while the command runs (the run marked interrupted), and once it has
 * exited kills all at once (so none runs on untraced after perflab).
 * -p targets are detached at the deadline or on Ctrl-C. Returns 0 or -errno from the
 * backend. */
static int ptrace_loop(struct pl_psession *s, uint64_t deadline)
{
	struct pl_syscalls *sc = s->sc;
	bool command = s->cfg.argv != NULL;
	struct sigaction sa = { 0 }, old;
	sa.sa_handler = on_tick;
	sigaction(SIGALRM, &sa, &old);
	struct itimerval it = { { 0, 50000 }, { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	uint64_t term_at = 0;
	bool killed = false;
	int r;
	for (;;) {
		/* a stop to act on: not yet passed on (then the ticks check the grace time) */
		bool stopping = stop_flag && !killed && (s->exited || !term_at);
		bool pending = tick_flag || stopping;
		r = pl_syscalls_wait(sc, !pending);
		if (r == 0)
			break; /* no tracee left */
		if (r < 0 && r != -EINTR && r != -EAGAIN)
			break;
		bool quiet = r == -EAGAIN;
		r = 0;
		if (command && !s->exited && pl_syscalls_leader_exited(sc, &s->child_status)) {
			/* the command is done; what it left running is still followed
			 * until it exits too, or Ctrl-C */
			s->exited = true;
		}
		if (!tick_flag && !stopping)
			continue;
		if (!quiet && tick_flag < 3 && !stop_flag)
			continue; /* answer the pending stops first */
		tick_flag = 0;
		drain(s);
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
		if (stop_flag && !s->exited && !term_at) {
			/* the command had not finished: it gets the signal (as from a
			 * terminal), 2 s to exit, then SIGKILL as at the deadline */
			s->interrupted = true;
			pl_syscalls_kill(sc, (int)stop_flag);
			term_at = now;
		}
		if (killed || (stop_flag && s->exited) ||
		    (term_at && now >= term_at + 2000000000u)) {
			/* again at every tick: a child forked meanwhile goes too */
			size_t n = pl_syscalls_kill(sc, SIGKILL);
			if (!killed && stop_flag && s->exited && n)
				session_warn(s,
					     "--syscalls: killed %zu traced tasks the command left "
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
	end_ptrace(s, command);
	return r;
}

/* A pidfd of @pid (pidfd_open(2), Linux 5.3: readable once the process has exited), or
 * -1 where the kernel has none; the caller closes it. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Without ptrace: poll the rings (50 ms), drain them and --syscalls' rings, until the
 * command (and with @reap_tree what it left running) has exited, every -p process is
 * gone, the deadline or Ctrl-C. The command's and the -p processes' pidfds are polled
 * too, so their exit ends the wait at once: a task's sampling event reports it
 * (POLLHUP), but without sampling events (--syscalls alone) only the 50 ms tick would,
 * adding up to 50 ms to the run. An exited process's pidfd stays readable, so it leaves
 * the set (fd -1) once seen. */
static void poll_loop(struct pl_psession *s, uint64_t deadline, bool reap_tree)
{
	bool command = s->cfg.argv != NULL;
	size_t nr = s->pe.nrings, np = (command ? 1 : 0) + s->nprocs;
	struct pollfd *pf = pl_xcalloc(nr + np + 1, sizeof(*pf));
	for (size_t i = 0; i < nr; i++)
		pf[i] = (struct pollfd){ .fd = s->pe.rings[i].fd, .events = POLLIN };
	for (size_t i = 0; i < np; i++)
		pf[nr + i] = (struct pollfd){ .fd = open_pidfd(command ? s->child : s->procs[i]),
					      .events = POLLIN };
	bool left_running = false;
	while (!stop_flag) {
		poll(pf, nr + np, 50);
		for (size_t i = nr; i < nr + np; i++)
			if (pf[i].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))) {
				close(pf[i].fd);
				pf[i].fd = -1;
			}
		drain(s);
		if (s->sc)
			pl_syscalls_drain(s->sc);
		if (command && !s->exited &&
		    waitpid(s->child, &s->child_status, WNOHANG) == s->child) {
			s->exited = true;
			if (!reap_tree)
				break;
		}
		if (s->exited && reap_tree) {
			pid_t orphan;
			while ((orphan = waitpid(-1, NULL, WNOHANG)) > 0)
				; /* reap what the command left running, as it exits */
			if (orphan < 0 && errno == ECHILD)
				break;
			if (!left_running) {
				left_running = true;
				session_warn(
					s,
					"'%s' exited; counting the processes it left running until "
					"they exit (like strace -f; Ctrl-C or --duration to stop)",
					s->cfg.argv[0]);
			}
		}
		if (s->nprocs && !any_alive(s))
			break;
		if (deadline && pl_now_ns() >= deadline) {
			if (command && !s->exited) {
				kill(s->child, SIGTERM);
				waitpid(s->child, &s->child_status, 0);
				s->exited = true;
			}
			break;
		}
	}
	if (stop_flag && command && !s->exited)
		s->interrupted = true; /* the command had not finished */
	for (size_t i = nr; i < nr + np; i++)
		pl_closep(&pf[i].fd);
	free(pf);
}

/* ---- the session ---- */

int pl_psession_cpus(const char *list, int **cpus, size_t *ncpus)
{
	struct pl_cpuset cs;
	pl_cpuset_clear(&cs);
	if (list) {
		pl_cpuset_parse(list, &cs);
	} else {
		pl_autofree char *online = NULL;
		if (pl_read_str("/sys/devices/system/cpu/online", &online) == 0) {
			pl_cpuset_parse(online, &cs);
		} else {
			long n = sysconf(_SC_NPROCESSORS_ONLN);
			for (long c = 0; c < n; c++)
				pl_cpuset_set(&cs, (unsigned)c);
		}
	}
	*ncpus = pl_cpuset_count(&cs);
	*cpus = pl_xmalloc((*ncpus + 1) * sizeof(int));
	size_t k = 0;
	for (int c = pl_cpuset_next(&cs, 0); c >= 0; c = pl_cpuset_next(&cs, (unsigned)c + 1))
		(*cpus)[k++] = c;
	return *ncpus ? 0 : -ENOENT;
}

int pl_psession_open(struct pl_psession *s, const struct pl_psession_config *cfg, char *err,
		     size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->child = -1;
	s->go_fd = s->err_fd = -1;
	s->markers.fd = -1;
	err[0] = '\0';
	const struct pl_psession_config *c = &s->cfg;
	if (c->argv) {
		int r = pl_markring_create(&s->markers, 1u << 20, NULL, 0);
		if (r < 0)
			session_warn(s, "region markers unavailable: %s", strerror(-r));
		r = start_child(s, c->argv);
		if (r < 0) {
			snprintf(err, errlen, "cannot start '%s': %s", c->argv[0], strerror(-r));
			return PL_EXIT_RUNTIME;
		}
		s->what = pl_xasprintf("'%s'", c->argv[0]);
		s->have_child = true;
	} else if (c->pids) {
		int r = list_tasks(s, c->pids);
		if (r < 0) {
			snprintf(err, errlen,
				 "-p '%s': %s (give running process ids, comma-separated)", c->pids,
				 r == -EINVAL ? "not a process id" : "no such process");
			return PL_EXIT_USAGE;
		}
		s->what = pl_xasprintf("pid %s", c->pids);
	} else {
		s->pids = pl_xmalloc(sizeof(pid_t));
		s->pids[0] = -1;
		s->npids = 1;
		s->what = pl_xasprintf("all CPUs (%zu)", c->ncpus);
	}

	struct pl_pe_config pe = c->pe;
	pe.enable_on_exec = c->argv != NULL;
	pe.inherit = !c->all;
	int r = c->no_sampling ? 0 : pl_pe_open(&s->pe, &pe, s->pids, s->npids, c->cpus, c->ncpus);
	struct pl_pe_request rq = { .event = s->pe.event_name,
				    .system_wide = c->all,
				    .user_only = s->pe.user_only,
				    .mmap = s->pe.mmap_failed,
				    .pid_target = c->pids != NULL };
	if (r < 0) {
		/* --off-cpu and --locks need more than the sampling: one line naming the
		 * option, the cause and the fix instead of the sampling's advice */
		struct pl_pe_privs pv;
		pl_pe_privs_read(&pv);
		char tbuf[512];
		const char *opt = c->off_cpu && c->locks ? "--off-cpu --locks"
				  : c->off_cpu		 ? "--off-cpu"
				  : c->locks		 ? "--locks"
							 : NULL;
		const char *t =
			opt ? pl_pe_advice_tracing(opt, -r, &rq, &pv, tbuf, sizeof(tbuf)) : NULL;
		if (t)
			snprintf(err, errlen, "%s", t);
		else
			snprintf(err, errlen, "%s: %s",
				 s->pe.mmap_failed ? "perf_event mmap" : "perf_event_open",
				 pl_pe_strerror(-r, &rq));
		return PL_EXIT_RUNTIME;
	}
	if (c->syscalls && open_syscalls(s, err, errlen) < 0)
		return PL_EXIT_RUNTIME;
	if (c->locks) {
		r = pl_futex_open(&s->locks, s->pids, s->npids, c->cpus, c->ncpus, c->argv != NULL,
				  !c->all, PL_FUTEX_STACK_BYTES);
		if (r < 0) {
			snprintf(err, errlen, "--locks: %s", pl_futex_strerror(r));
			return PL_EXIT_RUNTIME;
		}
	}
	pl_profile_init(&s->prof, s->pe.attr.sample_type, s->pe.attr.sample_regs_user,
			c->debug_root);
	s->prof.live = true;
	s->prof.no_demangle = c->no_demangle;
	/* without samples (no_sampling) there is nothing to symbolize: no unwinder, no
	 * address spaces read */
	if (!c->no_sampling) {
		if (pe.cg == PL_CG_DWARF)
			s->prof.unwinder = pl_unwind_new();
		for (size_t i = 0; i < s->nprocs; i++)
			pl_profile_synth_proc(&s->prof, s->procs[i]);
		if (c->all) {
			char **ents = NULL;
			size_t ne = 0;
			if (pl_list_dir("/proc", &ents, &ne) == 0) {
				for (size_t i = 0; i < ne; i++) {
					uint64_t pid;
					if (pl_parse_u64(ents[i], &pid) == 0)
						pl_profile_synth_proc(&s->prof, (pid_t)pid);
				}
				pl_strv_free(ents);
			}
		}
	}
	s->scratch = pl_xmalloc(PL_REC_MAX);
	if (c->off_cpu) {
		enum pl_sched_stage stage;
		r = pl_sched_open(&s->schc, c->cpus, c->ncpus, 0, &s->sched, &s->prof, &stage);
		if (r < 0) {
			snprintf(err, errlen, "--off-cpu: %s", pl_sched_strerror(r, stage));
			return PL_EXIT_RUNTIME;
		}
	}
	/* warned once everything is open: a run that fails to open says only why */
	if (s->pe.user_only) {
		rq.user_only = false; /* what was refused: kernel samples */
		session_warn(s, "kernel samples: %s; sampling user space only",
			     pl_pe_strerror(s->pe.user_only_errno, &rq));
	}
	return PL_EXIT_OK;
}

/* --off-cpu with -p: every thread of the processes and its state as the window opens
 * (/proc/PID/task/TID/stat, proc(5)), so a thread with no scheduler event in the window
 * is shown in that state throughout instead of not at all. */
static void threads_at_start(struct pl_psession *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%d/task", (int)s->procs[i]);
		char **tids = NULL;
		size_t nt = 0;
		if (pl_list_dir(dir, &tids, &nt) < 0)
			continue;
		for (size_t k = 0; k < nt; k++) {
			uint64_t tid;
			char *stat = NULL;
			if (pl_parse_u64(tids[k], &tid) != 0 || tid > UINT32_MAX ||
			    pl_read_filef(&stat, NULL, "%s/%s/stat", dir, tids[k]) < 0)
				continue;
			const char *rp = strrchr(stat, ')'); /* the comm may hold ')' */
			char st = rp && rp[1] == ' ' ? rp[2] : '?';
			free(stat);
			struct pl_sched_log *log = &s->sched;
			log->threads0 = pl_xrealloc(log->threads0,
						    (log->nthreads0 + 1) * sizeof(*log->threads0));
			log->threads0[log->nthreads0++] = (struct pl_sched_thread0){
				.pid = (uint32_t)s->procs[i],
				.tid = (uint32_t)tid,
				.state = (uint8_t)pl_task_state_of_letter(st),
			};
		}
		pl_strv_free(tids);
	}
}

/* --off-cpu after the run: disable, drain the rest, sort, and name the targets. */
static void end_sched(struct pl_psession *s)
{
	if (!s->schc)
		return;
	pl_sched_disable(s->schc);
	pl_sched_drain(s->schc);
	size_t n = s->cfg.argv ? 1 : s->nprocs;
	uint32_t *seeds = pl_xcalloc(n + 1, sizeof(*seeds));
	for (size_t i = 0; i < n; i++)
		seeds[i] = (uint32_t)(s->cfg.argv ? s->child : s->procs[i]);
	uint64_t f0 = pl_now_ns();
	pl_sched_finish(s->schc, seeds, n, s->cfg.all);
	s->sched_finish_ns = pl_now_ns() - f0;
	free(seeds);
	pl_sched_close(s->schc);
	s->schc = NULL;
}

int pl_psession_run(struct pl_psession *s, char *err, size_t errlen)
{
	const struct pl_psession_config *c = &s->cfg;
	bool command = c->argv != NULL;
	err[0] = '\0';
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	stop_flag = 0;
	bool ptraced = s->sc && pl_syscalls_method(s->sc) == PL_SYSCALLS_PTRACE;
	/* --off-cpu: CPU-wide events cannot be enabled by the command's exec; enabled
	 * before its release, they see its fork and exec (the analysis keeps the targets) */
	if (s->schc) {
		pl_sched_enable(s->schc);
		if (!command && !c->all)
			threads_at_start(s);
	}
	s->t0 = pl_now_ns();
	/* --syscalls with the tracepoints counts the command's whole tree, like strace -f:
	 * as a child subreaper perflab inherits the processes the command leaves running
	 * and keeps counting until they have exited too (Ctrl-C or --duration stop it). */
	bool reap_tree = command && s->sc && !ptraced && prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
	if (command) {
		int r = release_child(s, ptraced ? s->sc : NULL, err, errlen);
		if (r < 0)
			return r == -ENOENT || r == -EACCES ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	} else {
		pl_pe_enable(&s->pe);
		if (s->sc)
			pl_syscalls_enable(s->sc);
		if (s->locks)
			pl_futex_enable(s->locks);
	}
	uint64_t deadline = c->duration_s > 0 ? s->t0 + (uint64_t)(c->duration_s * 1e9) : 0;
	if (ptraced) {
		int r = ptrace_loop(s, deadline);
		if (r < 0) {
			snprintf(err, errlen, "--syscalls: ptrace: %s",
				 pl_syscalls_ptrace_strerror(r));
			return PL_EXIT_RUNTIME;
		}
	} else {
		poll_loop(s, deadline, reap_tree);
	}
	if (s->interrupted && !ptraced) {
		/* Ctrl-C or SIGTERM to perflab while the command ran: the command gets the
		 * same signal (from a terminal it has it already) and 2 s to exit before
		 * kill_child() */
		kill(s->child, (int)stop_flag);
		for (int i = 0; i < 200 && !s->exited; i++) {
			if (waitpid(s->child, &s->child_status, WNOHANG) == s->child)
				s->exited = true;
			else
				usleep(10000);
		}
	}
	s->t1 = pl_now_ns();
	pl_pe_disable(&s->pe);
	if (s->locks)
		pl_futex_disable(s->locks);
	drain(s);
	end_sched(s);
	if (s->locks)
		pl_futex_finish(s->locks, &s->prof, s->t1 - s->t0);
	if (s->sc) {
		pl_syscalls_disable(s->sc);
		pl_syscalls_drain(s->sc);
	}
	kill_child(s);
	return PL_EXIT_OK;
}

void pl_psession_close(struct pl_psession *s)
{
	if (s->sc && s->cfg.argv && pl_syscalls_kill(s->sc, SIGKILL)) {
		/* (an error) the command's traced tree ends with perflab: none runs on
		 * untraced; the killed tasks are reaped by the detach */
		end_ptrace(s, true);
		if (pl_syscalls_leader_exited(s->sc, &s->child_status))
			s->exited = true;
	}
	pl_syscalls_close(s->sc);
	s->sc = NULL;
	pl_sched_close(s->schc);
	s->schc = NULL;
	pl_sched_log_free(&s->sched);
	pl_futex_close(s->locks);
	s->locks = NULL;
	pl_profile_free(&s->prof);
	pl_pe_close(&s->pe);
	kill_child(s);
	pl_closep(&s->go_fd);
	pl_closep(&s->err_fd);
	pl_markring_free(&s->markers);
	free(s->scratch);
	free(s->what);
	free(s->pids);
	free(s->procs);
	s->scratch = NULL;
	s->what = NULL;
	s->pids = s->procs = NULL;
}
