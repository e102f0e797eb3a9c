/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A deep user stack for the --call-graph dwarf truncation tests: deeprec_frame recurses
 * DEPTH times, each frame holding a 1 KiB local buffer, and the innermost call spins
 * until the process has used SECONDS of CPU time. Every sample is then taken about
 * DEPTH KiB below main's frame: more than the default 8192-byte stack copy, less than
 * the largest one (65528 bytes) for DEPTH 40. Built with -fomit-frame-pointer, so the
 * frame-pointer chain cannot stand in for the DWARF unwind.
 * Usage: deeprec [DEPTH [SECONDS]] (defaults 40 and 0.5). */
#include <stdlib.h>
#include <time.h>

volatile unsigned long deeprec_sink;

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void deeprec_spin(double seconds)
{
	double end = cpu_seconds() + seconds;
	do {
		for (unsigned long i = 0; i < 1000000; i++)
			deeprec_sink += i;
	} while (cpu_seconds() < end);
}

/* The buffer is written before and read after the call, so it stays on the stack and
 * the call is not a tail call. */
__attribute__((noinline)) unsigned long deeprec_frame(int depth, double seconds)
{
	volatile unsigned char buf[1024];
	for (size_t i = 0; i < sizeof(buf); i += 64)
		buf[i] = (unsigned char)(depth + i);
	if (depth > 0)
		deeprec_sink += deeprec_frame(depth - 1, seconds);
	else
		deeprec_spin(seconds);
	unsigned long s = 0;
	for (size_t i = 0; i < sizeof(buf); i += 64)
		s += buf[i];
	return s;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 40;
	double seconds = argc > 2 ? strtod(argv[2], NULL) : 0.5;
	deeprec_sink += deeprec_frame(depth, seconds);
	return 0;
}
