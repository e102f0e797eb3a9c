/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A program with regions of known counts, for the region counting tests (test_region.c).
 * usage: region-prog PAGES SLEEPS
 *   outside any region   4 x PAGES fresh pages touched (their faults belong to no region)
 *   "outer"              holds "pages" and "sleeps" of the main thread
 *   "pages"              PAGES fresh pages touched, once in the main thread and once in a
 *                        second thread (which also touches 4 x PAGES outside it)
 *   "sleeps"             SLEEPS nanosleeps of 1 ms; the thread's CPU time around the
 *                        region is printed as "sleeps_cpu_ns N"
 *   "child"              PAGES fresh pages touched in a forked child
 *   "orphan"             an end without a begin; "open" a begin without an end
 * Exits 3 when a marker call changed errno.
 * Built with the marker library (perflab_mark_dep) and with tests/counters/mark_v1.c. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perflab/mark.h"

static long pages;

/* One write to each of @n fresh pages: one minor fault each (no transparent huge pages;
 * no sanitizer shadow access, whose own pages would fault too). */
__attribute__((no_sanitize_address)) static void touch(long n)
{
	long ps = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * ps), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED) {
		perror("region-prog: mmap");
		exit(1);
	}
	madvise(p, (size_t)(n * ps), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * ps] = 1;
	munmap(p, (size_t)(n * ps));
}

static void *worker(void *arg)
{
	(void)arg;
	touch(4 * pages);
	pl_region_begin("pages");
	touch(pages);
	pl_region_end("pages");
	return NULL;
}

static unsigned long long thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: region-prog PAGES SLEEPS\n");
		return 2;
	}
	pages = strtol(argv[1], NULL, 10);
	long sleeps = strtol(argv[2], NULL, 10);
	/* the markers leave errno alone: at the first call (attach) and at the thread's
	 * first begin (its group opened) */
	errno = EDOM;
	pl_mark("start");
	if (errno != EDOM) {
		fprintf(stderr, "region-prog: a marker changed errno\n");
		return 3;
	}
	touch(4 * pages);
	errno = EDOM;
	pl_region_begin("outer");
	if (errno != EDOM) {
		fprintf(stderr, "region-prog: a marker changed errno\n");
		return 3;
	}
	pl_region_begin("pages");
	touch(pages);
	pl_region_end("pages");
	unsigned long long c0 = thread_cpu_ns();
	pl_region_begin("sleeps");
	for (long i = 0; i < sleeps; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	pl_region_end("sleeps");
	unsigned long long c1 = thread_cpu_ns();
	pl_region_end("outer");
	printf("sleeps_cpu_ns %llu\n", c1 - c0);
	fflush(stdout);

	pthread_t t;
	if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;

	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		pl_region_begin("child");
		touch(pages);
		pl_region_end("child");
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;

	pl_region_end("orphan");
	pl_region_begin("open");
	return 0;
}
