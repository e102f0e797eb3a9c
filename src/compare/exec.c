/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/exec.h"
#include "util/cleanup.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* MPOL_BIND from <numaif.h>; the raw syscall keeps the child free of libnuma state. */
#include <numaif.h>

static volatile sig_atomic_t got_signal;
static volatile pid_t running_child;

static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	pid_t c = running_child;
	if (c > 0)
		kill(c, sig);
}

void pl_cmp_exec_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: wait4 and read return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int pl_cmp_exec_interrupted(void)
{
	return got_signal;
}

int pl_cmp_exec_clear_interrupt(void)
{
	int sig = got_signal;
	got_signal = 0;
	return sig;
}

double pl_cmp_now(void)
{
	return (double)pl_now_ns() * 1e-9;
}

static int devnull_fd(void)
{
	static int fd = -1;
	if (fd < 0)
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	return fd;
}

/* What the child needs, built in the parent: the vfork child shares our memory, so it
 * may only make system calls (no malloc, no putenv) before execve. */
struct child_plan {
	char **envp;
	cpu_set_t *cpus;
	size_t cpus_size;
	unsigned long nodes[PL_MAX_CPUS / (8 * sizeof(unsigned long))];
	unsigned long maxnode; /* set_mempolicy's maxnode argument, 0 = no binding */
};

extern char **environ;

static void plan_build(struct child_plan *p, const struct pl_cmp_variant *v)
{
	memset(p, 0, sizeof(*p));
	size_t n = 0;
	while (environ[n])
		n++;
	size_t nenv = v ? v->nenv : 0;
	p->envp = pl_xcalloc(n + nenv + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool over = false;
		for (size_t j = 0; j < nenv && !over; j++) {
			size_t len = (size_t)(strchr(v->env[j], '=') - v->env[j]) + 1;
			over = strncmp(environ[i], v->env[j], len) == 0;
		}
		if (!over)
			p->envp[k++] = environ[i];
	}
	for (size_t j = 0; j < nenv; j++)
		p->envp[k++] = v->env[j];
	if (v && v->has_cpus) {
		p->cpus = CPU_ALLOC(PL_MAX_CPUS);
		p->cpus_size = CPU_ALLOC_SIZE(PL_MAX_CPUS);
		if (!p->cpus)
			abort();
		CPU_ZERO_S(p->cpus_size, p->cpus);
		for (int c = pl_cpuset_next(&v->cpuset, 0); c >= 0;
		     c = pl_cpuset_next(&v->cpuset, (unsigned)c + 1))
			CPU_SET_S((size_t)c, p->cpus_size, p->cpus);
	}
	if (v && v->has_membind) {
		const size_t bits = 8 * sizeof(unsigned long);
		for (int n2 = pl_cpuset_next(&v->nodes, 0); n2 >= 0;
		     n2 = pl_cpuset_next(&v->nodes, (unsigned)n2 + 1)) {
			p->nodes[(size_t)n2 / bits] |= 1ul << ((size_t)n2 % bits);
			p->maxnode = (unsigned long)n2 + 2;
		}
	}
}

static void plan_free(struct child_plan *p)
{
	free(p->envp);
	if (p->cpus)
		CPU_FREE(p->cpus);
}

/* In the child between vfork and exec: its descriptors, working directory, CPU affinity
 * and NUMA policy. System calls only. Returns 0 or -1 (errno set). */
static int child_setup(const struct pl_cmp_variant *v, const struct pl_cmp_exec_opts *o,
		       const struct child_plan *p, int nul, int outfd)
{
	if (!o->show_output) {
		int out = outfd >= 0 ? outfd : nul;
		if (dup2(nul, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			return -1;
	} else if (outfd >= 0) {
		if (dup2(outfd, 1) < 0 || dup2(outfd, 2) < 0)
			return -1;
	}
	if (v && v->workdir && chdir(v->workdir) < 0)
		return -1;
	if (p->cpus && sched_setaffinity(0, p->cpus_size, p->cpus) < 0)
		return -1;
	if (p->maxnode && syscall(SYS_set_mempolicy, MPOL_BIND, p->nodes, p->maxnode) < 0)
		return -1;
	return 0;
}

/* In a child before exec: SIGINT, SIGTERM and SIGHUP back to their default actions, so
 * the command is stopped by them as it would be when run alone (perflab catches them). */
static void default_signals(void)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
}

/* In the child between vfork and exec: system calls only. A failure is stored in
 * *@err: the vfork child runs in our memory and we are suspended until it execs or exits,
 * so the parent reads it when vfork returns (glibc's posix_spawn reports exec errors the
 * same way) without a pipe to make and close per run. Never returns. */
static void child(const struct pl_cmp_variant *v, const char *exe, char *const argv[],
		  const struct pl_cmp_exec_opts *o, const struct child_plan *p, int nul, int outfd,
		  volatile int *err)
{
	default_signals();
	if (child_setup(v, o, p, nul, outfd) == 0)
		execve(exe, argv, p->envp);
	*err = errno ? errno : EINVAL;
	_exit(127);
}

/* Start the child. vfork: no copy of our page tables, so the harness costs what
 * posix_spawn costs (hyperfine's way) while the child can still apply affinity, NUMA
 * policy and cwd. A function of its own (not inlined) so that no variable of the caller
 * lives across vfork (-Wclobbered). Returns the pid or -1 (errno set); *@err is the
 * child's errno when it could not exec (0 when it did). */
__attribute__((noinline)) static pid_t spawn(const struct pl_cmp_variant *v, const char *exe,
					     char *const argv[], const struct pl_cmp_exec_opts *o,
					     const struct child_plan *p, int nul, int outfd,
					     volatile int *err)
{
	*err = 0;
	pid_t pid = vfork();
	if (pid == 0)
		child(v, exe, argv, o, p, nul, outfd, err);
	return pid;
}

/* Start the child with fork, held before its exec until a byte arrives on a pipe
 * (exec.h: compare --stat opens its counters in between). The child applies its context
 * first, then waits for the byte even when that failed, so the parent never writes to a
 * closed pipe; it reports a failure (of the context or of execve) as its errno on the
 * close-on-exec pipe *@err_r. Returns the pid, *@go_w and *@err_r set; or -1 (errno
 * set). */
static pid_t spawn_held(const struct pl_cmp_variant *v, const char *exe, char *const argv[],
			const struct pl_cmp_exec_opts *o, const struct child_plan *p, int nul,
			int outfd, int *go_w, int *err_r)
{
	int go[2], ep[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		errno = e;
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		default_signals();
		int e = child_setup(v, o, p, nul, outfd) == 0 ? 0 : (errno ? errno : EINVAL);
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (e == 0) {
			execve(exe, argv, p->envp);
			e = errno ? errno : EINVAL;
		}
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	int e = errno;
	close(go[0]);
	close(ep[1]);
	if (pid < 0) {
		close(go[1]);
		close(ep[0]);
		errno = e;
		return -1;
	}
	*go_w = go[1];
	*err_r = ep[0];
	return pid;
}

/* Let a held child go (spawn_held): the byte, then its errno when it could not exec (0
 * when it did: the pipe closed at the exec). */
static int release_held(int go_w, int err_r)
{
	char c = 'g';
	ssize_t w;
	do
		w = write(go_w, &c, 1);
	while (w < 0 && errno == EINTR);
	int we = w == 1 ? 0 : (errno ? errno : EPIPE);
	close(go_w);
	if (we)
		return we;
	int e = 0;
	ssize_t n;
	do
		n = read(err_r, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/* Write @n bytes to our stdout; a closed or full stdout loses the copy, not the run. */
static void pass_on(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

int pl_cmp_exec(const struct pl_cmp_variant *v, const char *exe, char *const argv[],
		const struct pl_cmp_exec_opts *o, struct pl_buf *output, struct pl_cmp_usage *u)
{
	int fds[2];
	pl_autoclose int out_r = -1;
	pl_autoclose int out_w = -1;
	if (o->capture) {
		if (pipe2(fds, O_CLOEXEC) < 0)
			return -errno;
		out_r = fds[0];
		out_w = fds[1];
	}
	if (!o->show_output && devnull_fd() < 0)
		return -errno;
	struct child_plan plan;
	plan_build(&plan, v);
	int nul = devnull_fd(); /* opened here: the child makes no library calls */
	volatile int cerr = 0;
	double t0 = pl_cmp_now();
	pid_t pid;
	if (o->held) {
		pl_autoclose int go_w = -1;
		pl_autoclose int err_r = -1;
		pid = spawn_held(v, exe, argv, o, &plan, nul, out_w, &go_w, &err_r);
		plan_free(&plan);
		if (pid < 0)
			return -errno;
		int hr = o->held(o->held_ctx, pid);
		if (hr < 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			return hr;
		}
		t0 = pl_cmp_now();
		cerr = release_held(pl_steal_fd(&go_w), err_r);
	} else {
		pid = spawn(v, exe, argv, o, &plan, nul, out_w, &cerr);
		plan_free(&plan);
		if (pid < 0)
			return -errno;
	}
	running_child = pid;
	if (got_signal)
		kill(pid, got_signal);
	if (out_w >= 0)
		close(pl_steal_fd(&out_w));
	if (out_r >= 0) {
		char buf[65536];
		for (;;) {
			ssize_t k = read(out_r, buf, sizeof(buf));
			if (k > 0) {
				if (output)
					pl_buf_append(output, buf, (size_t)k);
				/* --show-output with --metric: pass on what was captured */
				if (o->show_output)
					pass_on(buf, (size_t)k);
			} else if (k == 0 || errno != EINTR) {
				break;
			}
		}
		close(pl_steal_fd(&out_r));
	}
	int status = 0;
	struct rusage ru;
	for (;;) {
		pid_t w = wait4(pid, &status, 0, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			int r = -errno;
			running_child = 0;
			return r;
		}
	}
	double t1 = pl_cmp_now();
	running_child = 0;
	if (cerr)
		return -cerr;
	memset(u, 0, sizeof(*u));
	u->wall_s = t1 - t0;
	u->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	u->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	u->max_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
	u->minor_faults = (uint64_t)ru.ru_minflt;
	u->major_faults = (uint64_t)ru.ru_majflt;
	u->vol_ctxsw = (uint64_t)ru.ru_nvcsw;
	u->invol_ctxsw = (uint64_t)ru.ru_nivcsw;
	if (WIFEXITED(status)) {
		u->exit_code = WEXITSTATUS(status);
	} else {
		u->exit_code = -1;
		u->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	if (got_signal)
		return -EINTR;
	return 0;
}

int pl_cmp_exec_helper(const struct pl_cmp_variant *v, const char *cmd, bool shell, bool show,
		       int *status)
{
	char **argv;
	if (shell) {
		argv = pl_xcalloc(4, sizeof(char *));
		argv[0] = pl_xstrdup("/bin/sh");
		argv[1] = pl_xstrdup("-c");
		argv[2] = pl_xstrdup(cmd);
	} else {
		argv = pl_cmp_split_words(cmd);
		if (!argv || !argv[0]) {
			pl_strv_free(argv);
			return -EINVAL;
		}
	}
	char *exe = pl_cmp_which(argv[0]);
	int r;
	if (!exe) {
		r = -ENOENT;
	} else {
		struct pl_cmp_exec_opts o = { .capture = false, .show_output = show };
		struct pl_cmp_usage u;
		r = pl_cmp_exec(v, exe, argv, &o, NULL, &u);
		if (r == 0) {
			*status = u.exit_code;
			if (u.exit_code != 0)
				r = -ECHILD;
		}
	}
	free(exe);
	pl_strv_free(argv);
	return r;
}
