/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Holding a PM QoS CPU latency limit until a signal (tune/hold_latency.h). */
#include "tune/hold_latency.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "util/sysroot.h"

static volatile sig_atomic_t stop;
static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

int pl_tune_hold_latency(int usec, void (*ready)(int usec))
{
	if (!pl_sysroot_is_live())
		return -EXDEV;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int32_t v = usec;
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		int e = -errno;
		close(fd);
		return e ? e : -EIO;
	}
	/* Block the signals, then wait for them atomically with sigsuspend(): a signal that
	 * arrives before we sleep is not lost. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	struct sigaction sa = { .sa_handler = on_sig };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ready)
		ready(usec);
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd);
	return 0;
}
