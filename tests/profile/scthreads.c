/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threads, a forked child and an exec from a non-leader thread, for the --syscalls
 * ptrace tests: `scthreads THREADS CALLS [exec]`. Each of THREADS threads and one forked
 * child make CALLS getppid() and CALLS/10 failing open() (ENOENT); with "exec" a new
 * thread then re-executes the program ("scthreads 0 0"), so the exec happens in a thread
 * that is not the leader (ptrace reports it under the leader's id). SIGINT is reset to
 * the default action (a shell may start background jobs with it ignored).
 * `scthreads 0 0 zleader`: the main thread exits (pthread_exit, a zombie leader) while a
 * thread calls getppid() every millisecond forever. `scthreads 0 0 vfork`: forever
 * vfork() a child that sleeps 5 s and exits, so the parent is mostly in vfork's killable
 * wait, where PTRACE_INTERRUPT cannot stop it. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long calls;
static char **av;

static void work(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (long i = 0; i < n / 10; i++)
		open("/nonexistent/perflab", O_RDONLY);
}

static void *thr(void *arg)
{
	(void)arg;
	work(calls);
	return NULL;
}

static void *exec_thr(void *arg)
{
	(void)arg;
	char *v[] = { av[0], "0", "0", NULL };
	execv(av[0], v);
	_exit(127);
}

static void *tick_thr(void *arg)
{
	(void)arg;
	for (;;) {
		syscall(SYS_getppid);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	signal(SIGINT, SIG_DFL);
	if (argc > 3 && strcmp(argv[3], "zleader") == 0) {
		pthread_t z;
		pthread_create(&z, NULL, tick_thr, NULL);
		pthread_exit(NULL);
	}
	if (argc > 3 && strcmp(argv[3], "vfork") == 0) {
		for (;;) {
			pid_t v = vfork();
			if (v == 0) {
				/* only raw system calls in the vfork child */
				struct timespec ts = { 5, 0 };
				syscall(SYS_nanosleep, &ts, NULL);
				syscall(SYS_exit, 0);
			}
			if (v < 0)
				return 1;
			waitpid(v, NULL, 0);
		}
	}
	long nthr = argc > 1 ? strtol(argv[1], NULL, 10) : 2;
	calls = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	av = argv;
	pthread_t t[64];
	if (nthr > 64)
		nthr = 64;
	for (long i = 0; i < nthr; i++)
		pthread_create(&t[i], NULL, thr, NULL);
	pid_t c = nthr ? fork() : 1;
	if (c == 0) {
		work(calls);
		_exit(0);
	}
	for (long i = 0; i < nthr; i++)
		pthread_join(t[i], NULL);
	if (nthr && c > 0)
		waitpid(c, NULL, 0);
	if (argc > 3 && strcmp(argv[3], "exec") == 0) {
		pthread_t e;
		pthread_create(&e, NULL, exec_thr, NULL);
		pause();
	}
	return 0;
}
