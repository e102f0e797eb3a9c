/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runstat CMD [ARGS...]: run CMD once with stdout/stderr to /dev/null and print
 * "WALL_NS MAXRSS_KIB EXIT CPU_NS" on stdout. WALL_NS is CLOCK_MONOTONIC around fork, exec
 * and wait; MAXRSS_KIB is the child's ru_maxrss and CPU_NS its user+system time, both from
 * wait4(2). ru_maxrss also counts the
 * child's memory before exec (a copy of this tiny program, ~0.1-1 MiB), which is why the
 * benchmarks use this and not a Python parent (whose ~10 MiB would be counted). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: runstat CMD [ARGS...]\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("runstat: fork");
		return 3;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("runstat: wait4");
		return 3;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long long ns =
		(long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
			(long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
	printf("%lld %ld %d %lld\n", ns, ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128, cpu);
	return 0;
}
