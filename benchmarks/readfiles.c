/* SPDX-License-Identifier: GPL-3.0-or-later */
/* readfiles FILE...: the read floor of `perflab check` for benchmarks/check-vs-read.sh.
 * Opens each FILE, reads it to the end in 64 KiB reads and closes it, nothing else; a
 * file that cannot be opened is skipped (as check skips a missing fact). Prints nothing;
 * exit 0. Built with the same compiler, dynamically linked against libc only. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return 0;
}
