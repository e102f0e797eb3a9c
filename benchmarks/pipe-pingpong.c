/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A context-switch-heavy workload for the off-CPU benchmarks (benchmarks/offcpu-vs-perf.sh,
 * benchmarks/offcpu-agree.sh): two threads ping-pong one byte over two pipes, both pinned
 * to one CPU, so every round trip is two blocking reads, two wakeups and two context
 * switches (the pattern of `perf bench sched pipe`). Prints to stderr its thread ids
 * ("tids MAIN PEER") before the loop and its own CLOCK_MONOTONIC time of the loop after it
 * ("elapsed_ns N round_trips N"), and each thread's /proc/thread-self/schedstat read at
 * the end of its loop ("schedstat TID RUN_NS RUNQ_WAIT_NS SLICES": the kernel's own
 * per-thread on-CPU time and run-queue wait since the thread started).
 *
 * usage: pipe-pingpong [ROUND_TRIPS [CPU [START_DELAY_MS [WORK_US]]]]   (default 200000 on
 *   CPU 0, no delay, no work; the delay lets a profiler attach with -p before the loop;
 *   WORK_US: each thread spins that long per hop, so intervals are long beside a
 *   profiler's cost per event).
 * Build: cc -O2 -pthread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds = 200000;
static int cpu;
static long work_us;

/* Spin @work_us microseconds of CLOCK_MONOTONIC. */
static void work(void)
{
	if (!work_us)
		return;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < work_us);
}

static void pin(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		perror("pipe-pingpong: sched_setaffinity");
		exit(1);
	}
}

/* This thread's schedstat line on stderr (nothing when the kernel has no schedstat). */
static void schedstat(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long run, wait, slices;
	if (!f)
		return;
	if (fscanf(f, "%llu %llu %llu", &run, &wait, &slices) == 3)
		fprintf(stderr, "schedstat %ld %llu %llu %llu\n", (long)syscall(SYS_gettid), run,
			wait, slices);
	fclose(f);
}

static void xread(int fd, char *c)
{
	if (read(fd, c, 1) != 1) {
		perror("pipe-pingpong: read");
		exit(1);
	}
}

static void xwrite(int fd, const char *c)
{
	if (write(fd, c, 1) != 1) {
		perror("pipe-pingpong: write");
		exit(1);
	}
}

/* The peer: answers every ping with a pong. */
static void *peer(void *arg)
{
	long *tid = arg;
	*tid = syscall(SYS_gettid);
	pin();
	char c;
	for (long i = 0; i < rounds; i++) {
		xread(ping[0], &c);
		work();
		xwrite(pong[1], &c);
	}
	schedstat();
	return NULL;
}

static long arg(char **argv, int argc, int i, long def)
{
	if (argc <= i)
		return def;
	char *end;
	long v = strtol(argv[i], &end, 10);
	if (*end || v < 0) {
		fprintf(stderr, "pipe-pingpong: argument %d '%s' is not a non-negative integer\n",
			i, argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	rounds = arg(argv, argc, 1, 200000);
	cpu = (int)arg(argv, argc, 2, 0);
	long delay_ms = arg(argv, argc, 3, 0);
	work_us = arg(argv, argc, 4, 0);
	if (pipe(ping) || pipe(pong)) {
		perror("pipe-pingpong: pipe");
		return 1;
	}
	pin();
	long ptid = 0;
	pthread_t t;
	if (pthread_create(&t, NULL, peer, &ptid)) {
		fprintf(stderr, "pipe-pingpong: pthread_create failed\n");
		return 1;
	}
	/* the peer's tid, before the loop (it blocks in its first read) */
	while (!__atomic_load_n(&ptid, __ATOMIC_ACQUIRE))
		sched_yield();
	fprintf(stderr, "tids %ld %ld\n", (long)syscall(SYS_gettid), ptid);
	if (delay_ms) {
		struct timespec d = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
		nanosleep(&d, NULL);
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	char c = 'x';
	for (long i = 0; i < rounds; i++) {
		xwrite(ping[1], &c);
		xread(pong[0], &c);
		work();
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(t, NULL);
	schedstat();
	long long ns = (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	fprintf(stderr, "elapsed_ns %lld round_trips %ld\n", ns, rounds);
	return 0;
}
