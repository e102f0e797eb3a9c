/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Known off-CPU time at known stacks, for the accuracy test of perflab profile --off-cpu
 * (profile_offcpu_acc.sh). It measures its own time and prints it; the test compares
 * that with the profile of the same run, so the expectations hold under any load.
 *
 *   profile-offcpu-acc sleeps    four threads at once: one sleeps 100 x 10 ms in
 *                                acc_sleep_10ms, one 50 x 4 ms in acc_sleep_4ms, and two
 *                                spin 150 ms of CPU each in acc_spin, both pinned to one
 *                                CPU so that they preempt each other (long run-queue waits)
 *   profile-offcpu-acc pingpong  two threads pinned to one CPU pass a byte back and forth
 *                                over two pipes 2000 times (acc_ping writes first)
 *
 * Output, one line per fact (stdout):
 *   stack NAME count N ns T      N sleeps at function NAME took T ns in all, measured
 *                                with CLOCK_MONOTONIC around each call (nanosleep
 *                                oversleeps: T is what was slept, not what was asked)
 *   thread NAME tid TID wall_ns W run_ns R delay_ns D
 *                                the thread's life W from its creation to its last act,
 *                                and R and D the first and second fields of
 *                                /proc/self/task/TID/schedstat read as that last act
 *                                (on-CPU time and run-queue wait since the task was
 *                                created); only its exit path, microseconds, lies after.
 *                                The thread reads schedstat and the clock first thing,
 *                                before anything that could block: it was created the
 *                                two fields of that first reading before it
 *   pair TID TID                 pingpong: the two threads, ping first
 * The schedstat file is opened before the thread's work so that the last act is one
 * clock read and one pread; the threads are detached and the main thread is woken
 * before their last readings, so nothing wakes it (and preempts them) as they exit. Frame pointers
 * are on (meson.build), and the functions the test looks for are noinline and call nanosleep
 * through acc_nap, so a frame-pointer unwind that skips the leaf's caller (libc's syscall wrappers
 * keep no frame) still shows them. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct worker {
	const char *name;
	void *(*fn)(void *);
	pthread_t th;
	int cpu;      /* pinned to this CPU, or -1 */
	int rfd, wfd; /* pingpong: the pipe ends it reads and writes */
	int tid;
	int statfd;
	uint64_t t0, run0, delay0; /* the clock and schedstat at the thread's start */
	uint64_t wall, run, delay;
	uint64_t count, slept;
	atomic_bool done; /* its figures are in */
};

/* Posted by each thread before its last reading: the main thread is woken then, inside
 * the windows, never by a thread's exit (the threads are detached: nobody joins them). */
static sem_t ending;

/* Every thread waits here before its last reading, so that none ends its window while
 * another still works (a spinner on its CPU would preempt its exit path, a time the
 * profile counts and its window does not). */
static pthread_barrier_t all_done;

/* The clock and the first two schedstat fields of @w's thread now. */
static void read_stat(struct worker *w, uint64_t *t, uint64_t *run, uint64_t *delay)
{
	char buf[128];
	*t = now_ns(CLOCK_MONOTONIC);
	ssize_t n = pread(w->statfd, buf, sizeof(buf) - 1, 0);
	if (n <= 0) {
		perror("schedstat");
		exit(2);
	}
	buf[n] = 0;
	unsigned long long a, b;
	if (sscanf(buf, "%llu %llu", &a, &b) != 2) {
		fprintf(stderr, "schedstat: cannot parse '%s'\n", buf);
		exit(2);
	}
	*run = a;
	*delay = b;
}

/* The thread's start: its tid, its schedstat file and its first reading, then its
 * pinning (which may block while the thread moves: inside the window). */
static void worker_begin(struct worker *w)
{
	w->tid = gettid();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", w->tid);
	w->statfd = open(path, O_RDONLY | O_CLOEXEC);
	if (w->statfd < 0) {
		perror(path);
		exit(2);
	}
	read_stat(w, &w->t0, &w->run0, &w->delay0);
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			perror("sched_setaffinity");
			exit(2);
		}
	}
}

/* The thread's last act: the end of its wall time and its schedstat. Its life began
 * run0 + delay0 before t0 (it ran or waited to run from its creation to its first
 * reading; it never blocked before it). */
static void worker_end(struct worker *w)
{
	uint64_t t1;
	pthread_barrier_wait(&all_done);
	sem_post(&ending);
	read_stat(w, &t1, &w->run, &w->delay);
	w->wall = t1 - w->t0 + w->run0 + w->delay0;
	atomic_store(&w->done, true);
}

NOINLINE static void acc_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

NOINLINE static void acc_sleep_10ms(struct worker *w)
{
	for (int i = 0; i < 100; i++) {
		uint64_t a = now_ns(CLOCK_MONOTONIC);
		acc_nap(10 * 1000 * 1000);
		w->slept += now_ns(CLOCK_MONOTONIC) - a;
		w->count++;
	}
}

NOINLINE static void acc_sleep_4ms(struct worker *w)
{
	for (int i = 0; i < 50; i++) {
		uint64_t a = now_ns(CLOCK_MONOTONIC);
		acc_nap(4 * 1000 * 1000);
		w->slept += now_ns(CLOCK_MONOTONIC) - a;
		w->count++;
	}
}

static volatile uint64_t sink;

NOINLINE static void acc_spin(void)
{
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + 150 * 1000 * 1000;
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
}

static void *run_10ms(void *arg)
{
	struct worker *w = arg;
	worker_begin(w);
	acc_sleep_10ms(w);
	worker_end(w);
	return NULL;
}

static void *run_4ms(void *arg)
{
	struct worker *w = arg;
	worker_begin(w);
	acc_sleep_4ms(w);
	worker_end(w);
	return NULL;
}

static void *run_spin(void *arg)
{
	struct worker *w = arg;
	worker_begin(w);
	acc_spin();
	worker_end(w);
	return NULL;
}

#define ROUNDS 2000

NOINLINE static void acc_ping(struct worker *w)
{
	char c = 'x';
	for (int i = 0; i < ROUNDS; i++)
		if (write(w->wfd, &c, 1) != 1 || read(w->rfd, &c, 1) != 1)
			exit(2);
}

NOINLINE static void acc_pong(struct worker *w)
{
	char c;
	for (int i = 0; i < ROUNDS; i++)
		if (read(w->rfd, &c, 1) != 1 || write(w->wfd, &c, 1) != 1)
			exit(2);
}

static void *run_ping(void *arg)
{
	struct worker *w = arg;
	worker_begin(w);
	acc_ping(w);
	worker_end(w);
	return NULL;
}

static void *run_pong(void *arg)
{
	struct worker *w = arg;
	worker_begin(w);
	acc_pong(w);
	worker_end(w);
	return NULL;
}

/* The first CPU this process may run on. */
static int first_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return 0;
}

/* Start the threads detached, wait until each is at its last reading, then poll (every
 * 20 ms) until their figures are in. */
static void start_all(struct worker *w, size_t n)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sem_init(&ending, 0, 0);
	pthread_barrier_init(&all_done, NULL, (unsigned)n);
	for (size_t i = 0; i < n; i++) {
		if (pthread_create(&w[i].th, &attr, w[i].fn, &w[i]) != 0) {
			perror("pthread_create");
			exit(2);
		}
	}
	for (size_t i = 0; i < n; i++)
		while (sem_wait(&ending) != 0)
			;
	const struct timespec poll = { 0, 20 * 1000 * 1000 };
	for (size_t i = 0; i < n; i++)
		while (!atomic_load(&w[i].done))
			nanosleep(&poll, NULL);
	pthread_attr_destroy(&attr);
}

static void print_threads(const struct worker *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("thread %s tid %d wall_ns %llu run_ns %llu delay_ns %llu\n", w[i].name,
		       w[i].tid, (unsigned long long)w[i].wall, (unsigned long long)w[i].run,
		       (unsigned long long)w[i].delay);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int cpu = first_cpu();
	if (strcmp(mode, "sleeps") == 0) {
		struct worker w[] = {
			{ .name = "sleep10", .fn = run_10ms, .cpu = -1 },
			{ .name = "sleep4", .fn = run_4ms, .cpu = -1 },
			{ .name = "spin1", .fn = run_spin, .cpu = cpu },
			{ .name = "spin2", .fn = run_spin, .cpu = cpu },
		};
		start_all(w, 4);
		printf("stack acc_sleep_10ms count %llu ns %llu\n", (unsigned long long)w[0].count,
		       (unsigned long long)w[0].slept);
		printf("stack acc_sleep_4ms count %llu ns %llu\n", (unsigned long long)w[1].count,
		       (unsigned long long)w[1].slept);
		print_threads(w, 4);
		return 0;
	}
	if (strcmp(mode, "pingpong") == 0) {
		int a[2], b[2];
		if (pipe(a) != 0 || pipe(b) != 0) {
			perror("pipe");
			return 2;
		}
		struct worker w[] = {
			{ .name = "ping", .fn = run_ping, .cpu = cpu, .wfd = a[1], .rfd = b[0] },
			{ .name = "pong", .fn = run_pong, .cpu = cpu, .wfd = b[1], .rfd = a[0] },
		};
		start_all(w, 2);
		printf("pair %d %d\n", w[0].tid, w[1].tid);
		print_threads(w, 2);
		return 0;
	}
	fprintf(stderr, "usage: profile-offcpu-acc sleeps|pingpong\n");
	return 2;
}
