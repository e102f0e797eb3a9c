/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A thread join and no lock, for `perflab profile --locks`: the main thread starts one
 * thread that sleeps SLEEP_MS (200) and joins it. pthread_join waits in FUTEX_WAIT on
 * the thread's id word until the thread exits: a join, not lock contention. Prints
 * "joined_ns N" (CLOCK_MONOTONIC around pthread_join). Argument: [SLEEP_MS]. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long sleep_ms = 200;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) != 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		sleep_ms = strtol(argv[1], NULL, 10);
	pthread_t t;
	if (pthread_create(&t, NULL, sleeper, NULL) != 0)
		return 1;
	uint64_t t0 = now_ns();
	pthread_join(t, NULL);
	printf("joined_ns %llu\n", (unsigned long long)(now_ns() - t0));
	return 0;
}
