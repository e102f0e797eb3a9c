/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A program of known shape for the live profile tests:
 *   region "compute" (main thread and one worker thread): ~70% in shape_hot, ~30% in
 *   shape_cold (same loop, 7:3 iterations);
 *   region "kernel": open/close of /dev/null in a loop (time in the kernel);
 *   a short-lived child process running shape_child for ~50 ms.
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

__attribute__((noinline)) void shape_child(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		shape_cold(100000);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 50000000L);
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
	for (int r = 0; r < 10; r++) {
		shape_hot((long)(2100000 * scale));
		shape_cold((long)(900000 * scale));
	}
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
