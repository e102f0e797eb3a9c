/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Lock contention with known holds, for `perflab profile --locks`: THREADS threads each
 * take lock A ITERS times in lock_a_site() and hold it HOLD_A_US (sleeping inside the
 * lock), then, once all are done with A (a barrier, so B is contended too), lock B
 * ITERS_B times in lock_b_site() holding HOLD_B_US. Each thread
 * measures its own wait around pthread_mutex_lock (CLOCK_MONOTONIC); at the end the
 * program prints one line per site:
 *   site lock_a_site waited_ns N locks L
 * Arguments: [THREADS [ITERS [HOLD_A_US [ITERS_B [HOLD_B_US]]]]] (4 25 2000 20 500). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int iters = 25, iters_b = 20;
static long hold_a_us = 2000, hold_b_us = 500;
static uint64_t waited_a, waited_b; /* under the locks they measure */
static pthread_barrier_t phase;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void hold(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	while (nanosleep(&ts, &ts) != 0)
		;
}

__attribute__((noinline)) static void lock_a_site(void)
{
	uint64_t t = now_ns();
	pthread_mutex_lock(&lock_a);
	waited_a += now_ns() - t;
	hold(hold_a_us);
	pthread_mutex_unlock(&lock_a);
}

__attribute__((noinline)) static void lock_b_site(void)
{
	uint64_t t = now_ns();
	pthread_mutex_lock(&lock_b);
	waited_b += now_ns() - t;
	hold(hold_b_us);
	pthread_mutex_unlock(&lock_b);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < iters; i++)
		lock_a_site();
	pthread_barrier_wait(&phase);
	for (int i = 0; i < iters_b; i++)
		lock_b_site();
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	if (argc > 2)
		iters = atoi(argv[2]);
	if (argc > 3)
		hold_a_us = atol(argv[3]);
	if (argc > 4)
		iters_b = atoi(argv[4]);
	if (argc > 5)
		hold_b_us = atol(argv[5]);
	if (threads < 1 || threads > 64 || iters < 0 || iters_b < 0 || hold_a_us < 0 ||
	    hold_b_us < 0) {
		fprintf(stderr,
			"usage: locks [THREADS [ITERS [HOLD_A_US [ITERS_B [HOLD_B_US]]]]]\n");
		return 2;
	}
	pthread_t t[64];
	pthread_barrier_init(&phase, NULL, (unsigned)threads);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("site lock_a_site waited_ns %llu locks %d\n", (unsigned long long)waited_a,
	       threads * iters);
	printf("site lock_b_site waited_ns %llu locks %d\n", (unsigned long long)waited_b,
	       threads * iters_b);
	return 0;
}
