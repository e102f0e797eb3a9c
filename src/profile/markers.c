/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/markers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/str.h"

int pl_markers_create(struct pl_markers *m, uint32_t nrecs)
{
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (!nrecs || (nrecs & (nrecs - 1)))
		return -EINVAL;
	int fd = memfd_create("perflab-marks", 0); /* no MFD_CLOEXEC: the target inherits it */
	if (fd < 0)
		return -errno;
	size_t len = (size_t)PL_MARK_SIZE(nrecs);
	if (ftruncate(fd, (off_t)len) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;
		close(fd);
		return -e;
	}
	m->fd = fd;
	m->hdr = p;
	m->map_len = len;
	m->hdr->version = 1;
	m->hdr->nrecs = nrecs;
	__atomic_store_n(&m->hdr->magic, PL_MARK_MAGIC, __ATOMIC_RELEASE);
	char num[16];
	snprintf(num, sizeof(num), "%d", fd);
	if (setenv(PL_MARK_ENV, num, 1) < 0)
		return -errno;
	return 0;
}

static int cmp_rec(const void *x, const void *y)
{
	const struct pl_mark_rec *a = x, *b = y;
	if (a->ns != b->ns)
		return a->ns < b->ns ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_win(const void *x, const void *y)
{
	const struct pl_region_win *a = x, *b = y;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->begin != b->begin)
		return a->begin < b->begin ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

static int name_index(struct pl_markers *m, uint32_t id)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (m->ids[i] == id)
			return (int)i;
	const struct pl_mark_name *tab = (const struct pl_mark_name *)(m->hdr + 1);
	char buf[PL_MARK_NAME_MAX + 16];
	snprintf(buf, sizeof(buf), "#%08x", id);
	for (uint32_t i = 0; i < PL_MARK_NAMES; i++) {
		const struct pl_mark_name *n = &tab[(id + i) % PL_MARK_NAMES];
		if (n->id == id && __atomic_load_n(&n->ready, __ATOMIC_ACQUIRE)) {
			snprintf(buf, sizeof(buf), "%.*s", PL_MARK_NAME_MAX - 1, n->name);
			break;
		}
		if (!n->id)
			break;
	}
	m->names = pl_xrealloc(m->names, (m->nnames + 1) * sizeof(char *));
	m->ids = pl_xrealloc(m->ids, (m->nnames + 1) * sizeof(uint32_t));
	m->names[m->nnames] = pl_xstrdup(buf);
	m->ids[m->nnames] = id;
	return (int)m->nnames++;
}

int pl_markers_collect(struct pl_markers *m, uint64_t end_ns)
{
	if (!m->hdr)
		return 0;
	uint64_t head = __atomic_load_n(&m->hdr->head, __ATOMIC_ACQUIRE);
	uint32_t cap = m->hdr->nrecs;
	uint64_t first = head > cap ? head - cap : 0;
	m->dropped = first;
	const struct pl_mark_rec *ring =
		(const struct pl_mark_rec *)((const struct pl_mark_name *)(m->hdr + 1) +
					     PL_MARK_NAMES);
	size_t n = (size_t)(head - first);
	struct pl_mark_rec *recs = pl_xmalloc((n + 1) * sizeof(*recs));
	size_t k = 0;
	for (uint64_t i = first; i < head; i++) {
		const struct pl_mark_rec *r = &ring[i & (cap - 1)];
		if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != i + 1) {
			m->dropped++;
			continue;
		}
		recs[k++] = *r;
	}
	m->nrecords = k;
	qsort(recs, k, sizeof(*recs), cmp_rec);
	/* Open regions per (tid, name): a small stack list. */
	struct open {
		uint32_t tid;
		int name;
		uint64_t begin;
	} *open = NULL;
	size_t nopen = 0, capopen = 0, capw = 0;
	for (size_t i = 0; i < k; i++) {
		const struct pl_mark_rec *r = &recs[i];
		int ni = name_index(m, r->id);
		if (r->kind == PL_MARK_POINT) {
			m->npoints++;
		} else if (r->kind == PL_MARK_BEGIN) {
			if (nopen == capopen) {
				capopen = capopen ? capopen * 2 : 16;
				open = pl_xrealloc(open, capopen * sizeof(*open));
			}
			open[nopen++] = (struct open){ r->tid, ni, r->ns };
		} else if (r->kind == PL_MARK_END) {
			size_t j = nopen;
			while (j-- > 0)
				if (open[j].tid == r->tid && open[j].name == ni)
					break;
			if (j == (size_t)-1) {
				m->unpaired++;
				continue;
			}
			if (m->nwins == capw) {
				capw = capw ? capw * 2 : 64;
				m->wins = pl_xrealloc(m->wins, capw * sizeof(*m->wins));
			}
			m->wins[m->nwins++] = (struct pl_region_win){ r->tid, (uint32_t)ni,
								      open[j].begin, r->ns };
			memmove(&open[j], &open[j + 1], (nopen - j - 1) * sizeof(*open));
			nopen--;
		}
	}
	for (size_t j = 0; j < nopen; j++) {
		m->unpaired++;
		if (m->nwins == capw) {
			capw = capw ? capw * 2 : 64;
			m->wins = pl_xrealloc(m->wins, capw * sizeof(*m->wins));
		}
		m->wins[m->nwins++] = (struct pl_region_win){ open[j].tid, (uint32_t)open[j].name,
							      open[j].begin, end_ns };
	}
	free(open);
	free(recs);
	if (m->nwins)
		qsort(m->wins, m->nwins, sizeof(*m->wins), cmp_win);
	return 0;
}

int pl_markers_find(const struct pl_markers *m, const char *name)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (strcmp(m->names[i], name) == 0)
			return (int)i;
	return -1;
}

bool pl_markers_inside(const struct pl_markers *m, int name_idx, uint32_t tid, uint64_t t)
{
	/* Binary search the first window of @tid, then scan its windows (begin <= t). */
	size_t lo = 0, hi = m->nwins;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->wins[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < m->nwins && m->wins[i].tid == tid && m->wins[i].begin <= t; i++)
		if ((int)m->wins[i].name == name_idx && t < m->wins[i].end)
			return true;
	return false;
}

void pl_markers_free(struct pl_markers *m)
{
	if (!m)
		return;
	if (m->hdr)
		munmap(m->hdr, m->map_len);
	if (m->fd >= 0)
		close(m->fd);
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
	free(m->ids);
	free(m->wins);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}
