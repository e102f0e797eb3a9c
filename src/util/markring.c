/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/markring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/str.h"

/* Bytes per attribute slot: the attr this perflab was built with, rounded up to 8. */
#define ATTR_STRIDE ((sizeof(struct perf_event_attr) + 7) & ~(size_t)7)
_Static_assert(ATTR_STRIDE <= PL_MARK_ATTR_STRIDE_MAX,
	       "attribute slot larger than a library reads");

int pl_markring_create(struct pl_markring *m, uint32_t nrecs, const struct perf_event_attr *attrs,
		       size_t nattrs)
{
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (!nrecs || (nrecs & (nrecs - 1)) || (nattrs && !attrs))
		return -EINVAL;
	if (nattrs > PL_MARK_COUNTERS_MAX)
		return -E2BIG;
	uint64_t attr_off = PL_MARK_SIZE(nrecs);
	uint64_t cnt_off = attr_off + nattrs * ATTR_STRIDE;
	uint64_t cnt_stride = PL_MARK_CNT_SIZE(nattrs);
	uint64_t len64 = nattrs ? cnt_off + (uint64_t)nrecs * cnt_stride : attr_off;
	if (len64 > SIZE_MAX / 2)
		return -E2BIG;
	int fd = memfd_create("perflab-marks", 0); /* no MFD_CLOEXEC: the target inherits it */
	if (fd < 0)
		return -errno;
	size_t len = (size_t)len64;
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
	m->hdr->version = nattrs ? 2 : 1;
	m->hdr->nrecs = nrecs;
	m->nrecs = nrecs;
	if (nattrs) {
		m->ncounters = (uint32_t)nattrs;
		m->hdr->ncounters = (uint32_t)nattrs;
		m->hdr->attr_off = attr_off;
		m->hdr->attr_stride = (uint32_t)ATTR_STRIDE;
		m->hdr->cnt_off = cnt_off;
		m->hdr->cnt_stride = (uint32_t)cnt_stride;
		m->cnt_off = cnt_off;
		m->cnt_stride = (uint32_t)cnt_stride;
		for (size_t i = 0; i < nattrs; i++) {
			struct perf_event_attr a = attrs[i];
			a.size = sizeof(a);
			memcpy((char *)p + attr_off + i * ATTR_STRIDE, &a, sizeof(a));
		}
	}
	__atomic_store_n(&m->hdr->magic, PL_MARK_MAGIC, __ATOMIC_RELEASE);
	char num[16];
	snprintf(num, sizeof(num), "%d", fd);
	if (setenv(PL_MARK_ENV, num, 1) < 0)
		return -errno;
	return 0;
}

/* A record and the index of its reading. */
struct item {
	struct pl_mark_rec r;
	size_t k;
};

static int cmp_item(const void *x, const void *y)
{
	const struct pl_mark_rec *a = &((const struct item *)x)->r,
				 *b = &((const struct item *)y)->r;
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

static int name_index(struct pl_markring *m, uint32_t id)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (m->ids[i] == id)
			return (int)i;
	if (m->nnames == PL_MARKRING_MAX_NAMES) {
		for (size_t i = 0; i < m->nnames; i++)
			if (strcmp(m->names[i], "#other") == 0)
				return (int)i;
		free(m->names[m->nnames - 1]);
		m->names[m->nnames - 1] = pl_xstrdup("#other");
		m->ids[m->nnames - 1] = 0;
		return (int)m->nnames - 1;
	}
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
	m->orphans = pl_xrealloc(m->orphans, (m->nnames + 1) * sizeof(uint64_t));
	m->orphans[m->nnames] = 0;
	m->names[m->nnames] = pl_xstrdup(buf);
	m->ids[m->nnames] = id;
	return (int)m->nnames++;
}

/* Copy the reading beside ring slot @slot into record @k's when it belongs to the record
 * published as @seq. */
static void copy_reading(struct pl_markring *m, uint64_t slot, uint64_t seq, size_t k)
{
	const struct pl_mark_cnt *c =
		(const struct pl_mark_cnt *)((const char *)m->hdr + m->cnt_off +
					     slot * m->cnt_stride);
	uint64_t *dst = m->rvals + k * (2 + m->ncounters);
	m->rstat[k] = PL_MARKRING_NOREAD;
	if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != seq)
		return;
	m->rstat[k] = c->status == PL_MARKRING_NOREAD ? EIO : c->status;
	if (c->status)
		return;
	dst[0] = c->enabled_ns;
	dst[1] = c->running_ns;
	memcpy(dst + 2, c + 1, m->ncounters * sizeof(uint64_t));
}

static void add_win(struct pl_markring *m, size_t *capw, struct pl_region_win w)
{
	if (m->nwins == *capw) {
		*capw = *capw ? *capw * 2 : 64;
		m->wins = pl_xrealloc(m->wins, *capw * sizeof(*m->wins));
	}
	m->wins[m->nwins++] = w;
}

int pl_markring_collect(struct pl_markring *m, uint64_t end_ns)
{
	if (!m->hdr)
		return 0;
	uint64_t head = __atomic_load_n(&m->hdr->head, __ATOMIC_ACQUIRE);
	uint32_t cap = m->nrecs;
	uint64_t first = head > cap ? head - cap : 0;
	m->dropped = first;
	const struct pl_mark_rec *ring =
		(const struct pl_mark_rec *)((const struct pl_mark_name *)(m->hdr + 1) +
					     PL_MARK_NAMES);
	size_t n = (size_t)(head - first);
	struct item *items = pl_xmalloc((n + 1) * sizeof(*items));
	if (m->ncounters) {
		m->rstat = pl_xmalloc((n + 1) * sizeof(*m->rstat));
		m->rvals = pl_xcalloc((n + 1) * (2 + (size_t)m->ncounters), sizeof(uint64_t));
	}
	size_t k = 0;
	for (uint64_t i = first; i < head; i++) {
		const struct pl_mark_rec *r = &ring[i & (cap - 1)];
		if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != i + 1) {
			m->dropped++;
			continue;
		}
		items[k].r = *r;
		items[k].k = k;
		if (m->ncounters)
			copy_reading(m, i & (cap - 1), i + 1, k);
		k++;
	}
	m->nrecords = k;
	qsort(items, k, sizeof(*items), cmp_item);
	/* Open regions per (tid, name): a small stack list. */
	struct open {
		uint32_t tid;
		int name;
		uint64_t begin;
		size_t rb;
	} *open = NULL;
	size_t nopen = 0, capopen = 0, capw = 0;
	for (size_t i = 0; i < k; i++) {
		const struct pl_mark_rec *r = &items[i].r;
		int ni = name_index(m, r->id);
		if (r->kind == PL_MARK_POINT) {
			m->npoints++;
		} else if (r->kind == PL_MARK_BEGIN) {
			if (nopen == PL_MARKRING_MAX_OPEN) {
				m->unpaired++;
				continue;
			}
			if (nopen == capopen) {
				capopen = capopen ? capopen * 2 : 16;
				open = pl_xrealloc(open, capopen * sizeof(*open));
			}
			open[nopen++] = (struct open){ r->tid, ni, r->ns, items[i].k };
		} else if (r->kind == PL_MARK_END) {
			size_t j = nopen;
			while (j-- > 0)
				if (open[j].tid == r->tid && open[j].name == ni)
					break;
			if (j == (size_t)-1) {
				m->unpaired++;
				m->orphans[ni]++;
				continue;
			}
			add_win(m, &capw,
				(struct pl_region_win){ r->tid, (uint32_t)ni, open[j].begin, r->ns,
							open[j].rb, items[i].k });
			memmove(&open[j], &open[j + 1], (nopen - j - 1) * sizeof(*open));
			nopen--;
		}
	}
	for (size_t j = 0; j < nopen; j++) {
		m->unpaired++;
		add_win(m, &capw,
			(struct pl_region_win){ open[j].tid, (uint32_t)open[j].name, open[j].begin,
						end_ns, open[j].rb, PL_MARKRING_NONE });
	}
	free(open);
	free(items);
	if (m->nwins)
		qsort(m->wins, m->nwins, sizeof(*m->wins), cmp_win);
	return 0;
}

int pl_markring_find(const struct pl_markring *m, const char *name)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (strcmp(m->names[i], name) == 0)
			return (int)i;
	return -1;
}

const uint64_t *pl_markring_reading(const struct pl_markring *m, size_t k)
{
	if (!m->ncounters || !m->rvals || k == PL_MARKRING_NONE || k >= m->nrecords)
		return NULL;
	return m->rvals + k * (2 + m->ncounters);
}

void pl_markring_free(struct pl_markring *m)
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
	free(m->orphans);
	free(m->wins);
	free(m->rstat);
	free(m->rvals);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}
