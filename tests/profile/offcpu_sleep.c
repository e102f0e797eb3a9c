/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sleeps 20 x 10 ms in its one thread and does nothing else: the off-CPU live test
 * (test_sched_live.c) knows where its time went. */
#include <time.h>

int main(void)
{
	const struct timespec ts = { 0, 10 * 1000 * 1000 };
	for (int i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	return 0;
}
