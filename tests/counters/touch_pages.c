/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Touch N fresh pages (argv[1], default 1000) of an anonymous mapping, one write each:
 * at least N page faults, for comparing perflab stat's page-faults with perf stat's. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	long page = sysconf(_SC_PAGESIZE);
	if (n <= 0 || page <= 0)
		return 2;
	volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}
