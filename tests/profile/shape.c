/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A program of known shape for the live profile tests:
 *   region "compute" (main thread and one worker thread): ~70% in shape_hot, ~30% in
 *   shape_cold (same loop, 7:3 iterations), in rounds until the thread has used
 *   150 ms x SCALE of CPU time;
 *   region "kernel": open/close of /dev/null in a loop (time in the kernel);
 *   a short-lived child process running shape_child for 50 ms of its CPU time.
 * The phases end on CPU time, not on iteration counts or wall time, so the number of
 * samples in them (cpu-clock counts CPU time) is the same at -O1 and -O2 and on a loaded
 * machine: about 300 in "compute" at SCALE 1 (it was ~60 with fixed iteration counts,
 * so a few odd samples moved a share by 10 points).
 * Usage: shape [SCALE] (SCALE 1 = about 0.6 s of CPU). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perflab/mark.h"

volatile double shape_sink;

__attribute__((noinline)) void shape_hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	shape_sink = x;
}

__attribute__((noinline)) void shape_cold(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.25;
	shape_sink = x;
}

/* CPU time of the calling thread (or process) in ns. */
static long cpu_ns(clockid_t clk)
{
	struct timespec t;
	clock_gettime(clk, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

__attribute__((noinline)) void shape_child(void)
{
	long t0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	do
		shape_cold(100000);
	while (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - t0 < 50000000L);
}

__attribute__((noinline)) void shape_syscalls(int n)
{
	for (int i = 0; i < n; i++) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
}

static double scale = 1.0;

static void compute(void)
{
	pl_region_begin("compute");
	/* Rounds of ~1 ms: the clock read between them is a syscall, ~0.1% of the time. */
	long t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	do {
		shape_hot(210000);
		shape_cold(90000);
	} while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < (long)(150e6 * scale));
	pl_region_end("compute");
}

static void *worker(void *arg)
{
	(void)arg;
	compute();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		scale = strtod(argv[1], NULL);
	pthread_t th;
	pthread_create(&th, NULL, worker, NULL);
	compute();
	pthread_join(th, NULL);
	pl_mark("between");
	pl_region_begin("kernel");
	shape_syscalls((int)(20000 * scale));
	pl_region_end("kernel");
	pid_t c = fork();
	if (c == 0) {
		shape_child();
		_exit(0);
	}
	waitpid(c, NULL, 0);
	return 0;
}
