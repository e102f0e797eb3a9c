/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/tprings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/str.h"

/* mmap the ring of CPU index @c on @fd. Returns 0 or -errno. */
static int map_ring(struct pl_tp_rings *t, int cpu, int fd, size_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct pl_pe_ring *rg = &t->s.rings[t->s.nrings];
	rg->cpu = cpu;
	rg->fd = fd;
	rg->map_len = (pages + 1) * (size_t)pg;
	rg->base = mmap(NULL, rg->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rg->base == MAP_FAILED) {
		rg->base = NULL;
		return -errno;
	}
	rg->data = (uint8_t *)rg->base + pg;
	rg->data_size = pages * (uint64_t)pg;
	t->s.nrings++;
	return 0;
}

int pl_tp_open(struct pl_tp_rings *t, const struct perf_event_attr *base, const uint64_t *configs,
	       const uint64_t *sample_types, size_t nconfigs, const pid_t *pids, size_t npids,
	       const int *cpus, size_t ncpus, size_t pages)
{
	memset(t, 0, sizeof(*t));
	size_t n = npids * ncpus * nconfigs;
	t->s.fds = pl_xcalloc(n + 1, sizeof(int));
	t->s.fd_cpu = pl_xcalloc(n + 1, sizeof(int));
	t->ids = pl_xcalloc(n + 1, sizeof(uint64_t));
	t->ev = pl_xcalloc(n + 1, sizeof(uint32_t));
	t->s.rings = pl_xcalloc(ncpus + 1, sizeof(*t->s.rings));
	struct perf_event_attr a = *base;
	int r = 0;
	for (size_t c = 0; c < ncpus && r == 0; c++) {
		int leader = -1;
		for (size_t p = 0; p < npids && r == 0; p++) {
			for (size_t k = 0; k < nconfigs; k++) {
				a.config = configs[k];
				if (sample_types)
					a.sample_type = sample_types[k];
				int fd = pl_perf_open_hook(&a, pids[p], cpus[c], -1,
							   PERF_FLAG_FD_CLOEXEC);
				if (fd < 0) {
					r = -errno;
					if (r == -ESRCH && npids > 1) {
						r = 0;
						break; /* the task is gone: skip it */
					}
					break;
				}
				size_t i = t->s.nfds++;
				t->s.fds[i] = fd;
				t->ev[i] = (uint32_t)k;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &t->ids[i]) < 0)
					t->ids[i] = UINT64_MAX;
				if (leader < 0) {
					r = map_ring(t, cpus[c], fd, pages);
					leader = fd;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, leader) < 0) {
					r = -errno;
				}
				/* the ring of this CPU is the last one mapped */
				t->s.fd_cpu[i] = (int)t->s.nrings - 1;
				if (r < 0)
					break;
			}
		}
	}
	if (r < 0)
		pl_tp_close(t);
	return r;
}

int pl_tp_event_of(const struct pl_tp_rings *t, uint64_t id)
{
	for (size_t i = 0; i < t->s.nfds; i++)
		if (t->ids[i] == id)
			return (int)t->ev[i];
	return -1;
}

int pl_tp_fired(const struct pl_tp_rings *t, uint64_t *fired)
{
	memset(fired, 0, t->s.nrings * sizeof(uint64_t));
	for (size_t i = 0; i < t->s.nfds; i++) {
		uint64_t v;
		if (read(t->s.fds[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		if ((size_t)t->s.fd_cpu[i] < t->s.nrings)
			fired[t->s.fd_cpu[i]] += v;
	}
	return 0;
}

void pl_tp_close(struct pl_tp_rings *t)
{
	if (!t)
		return;
	pl_pe_close(&t->s);
	free(t->ids);
	free(t->ev);
	memset(t, 0, sizeof(*t));
}
