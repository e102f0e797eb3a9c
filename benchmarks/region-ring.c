/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs a command with a region marker ring of its own making, as perflab creates it
 * (include/perflab/mark.h, the shared-memory layout): version 1 (markers only) with
 * NEVENTS 0, else version 2 with the first NEVENTS of task-clock, page-faults,
 * context-switches counted by the command's threads at every begin and end. After the
 * command: "region-ring: records R readings C flags F" on stderr, where C counts the
 * records with a reading of the group (status 0).
 * usage: region-ring NEVENTS CMD [ARG...]   (for benchmarks/region-marks.sh) */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perflab/mark.h"

#define NRECS (1u << 20)

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[1], NULL, 10) : -1;
	if (n < 0 || n > 3) {
		fprintf(stderr, "usage: region-ring NEVENTS(0..3) CMD [ARG...]\n");
		return 2;
	}
	static const uint64_t cfg[3] = { PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
					 PERF_COUNT_SW_CONTEXT_SWITCHES };
	uint64_t attr_off = PL_MARK_SIZE(NRECS),
		 stride = (sizeof(struct perf_event_attr) + 7) & ~7ul;
	uint64_t cnt_off = attr_off + (uint64_t)n * stride, cnt_stride = PL_MARK_CNT_SIZE(n);
	size_t len = n ? (size_t)(cnt_off + NRECS * cnt_stride) : (size_t)attr_off;
	int fd = memfd_create("region-ring", 0);
	if (fd < 0 || ftruncate(fd, (off_t)len) < 0) {
		perror("region-ring: memfd");
		return 1;
	}
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("region-ring: mmap");
		return 1;
	}
	struct pl_mark_hdr *h = (struct pl_mark_hdr *)p;
	h->version = n ? 2 : 1;
	h->nrecs = NRECS;
	if (n) {
		h->ncounters = (uint32_t)n;
		h->attr_off = attr_off;
		h->attr_stride = (uint32_t)stride;
		h->cnt_off = cnt_off;
		h->cnt_stride = (uint32_t)cnt_stride;
		for (long i = 0; i < n; i++) {
			struct perf_event_attr *a =
				(struct perf_event_attr *)(p + attr_off + i * stride);
			a->type = PERF_TYPE_SOFTWARE;
			a->size = sizeof(*a);
			a->config = cfg[i];
		}
	}
	h->magic = PL_MARK_MAGIC;
	char num[16];
	snprintf(num, sizeof(num), "%d", fd);
	setenv(PL_MARK_ENV, num, 1);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("region-ring: exec");
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	uint64_t recs = h->head < NRECS ? h->head : NRECS, readings = 0;
	for (uint64_t i = 0; n && i < recs; i++) {
		const struct pl_mark_cnt *c =
			(const struct pl_mark_cnt *)(p + cnt_off + i * cnt_stride);
		readings += c->seq && c->status == 0;
	}
	fprintf(stderr, "region-ring: records %llu readings %llu flags %u\n",
		(unsigned long long)recs, (unsigned long long)readings, h->flags);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
