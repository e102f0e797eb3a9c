/* SPDX-License-Identifier: GPL-3.0-or-later */
/* K nanosleeps of 1 ms (argv[1], default 200): each blocks, so at least K context
 * switches, for comparing perflab stat's context-switches with perf stat's. Exits with
 * argv[2] (default 0), for the exit status test. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long k = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	int status = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec ts = { 0, 1000000 };
	for (long i = 0; i < k; i++)
		nanosleep(&ts, NULL);
	return status;
}
