/* SPDX-License-Identifier: GPL-3.0-or-later */
/* N x (open + close) of /dev/null, for the --syscalls exactness test against strace -c,
 * then M (default 3) failing open() of a missing file (ENOENT), for the errors column:
 * `openclose [N [M]]`. Built without sanitizers: their runtime adds syscalls of its own
 * at exit. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
	long m = argc > 2 ? strtol(argv[2], NULL, 10) : 3;
	for (long i = 0; i < n; i++) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	/* failing calls, for the errors column */
	for (long i = 0; i < m; i++)
		open("/nonexistent/perflab", O_RDONLY);
	return 0;
}
