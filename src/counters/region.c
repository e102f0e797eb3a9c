/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "counters/region.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/str.h"

/* An event a thread can count around its own markers: a perf_event_open event that is
 * not system-wide (per-package events and powercap files are). */
static bool region_countable(const struct pl_cnt_event *e)
{
	return e->source == PL_CNT_PERF && !e->per_pkg;
}

int pl_cnt_region_create(struct pl_cnt_region_ring *rr, const struct pl_cnt_event *ev, size_t nev,
			 uint32_t nrecs)
{
	memset(rr, 0, sizeof(*rr));
	rr->ring.fd = -1;
	struct perf_event_attr attrs[PL_MARK_COUNTERS_MAX];
	size_t n = 0;
	for (size_t i = 0; i < nev; i++)
		if (region_countable(&ev[i])) {
			if (n == PL_MARK_COUNTERS_MAX)
				return -E2BIG;
			attrs[n++] = ev[i].attr;
		}
	if (!n)
		return -EINVAL;
	int r = pl_markring_create(&rr->ring, nrecs ? nrecs : PL_CNT_REGION_NRECS, attrs, n);
	if (r < 0) {
		pl_markring_free(&rr->ring);
		return r;
	}
	rr->ev = ev;
	rr->nev = nev;
	rr->slot = pl_xmalloc(nev * sizeof(*rr->slot));
	for (size_t i = 0, k = 0; i < nev; i++)
		rr->slot[i] = region_countable(&ev[i]) ? (int)k++ : -1;
	return 0;
}

/* The caller's event in ring slot @slot. */
static const struct pl_cnt_event *slot_event(const struct pl_cnt_region_ring *rr, uint32_t slot)
{
	for (size_t i = 0; i < rr->nev; i++)
		if (rr->slot[i] == (int)slot)
			return &rr->ev[i];
	return NULL;
}

/* The run-wide status and its line. */
static void run_status(const struct pl_cnt_region_ring *rr, struct pl_cnt_regions *out)
{
	const struct pl_markring *m = &rr->ring;
	uint32_t flags = __atomic_load_n(&m->hdr->flags, __ATOMIC_ACQUIRE);
	if (m->nrecords == m->npoints) {
		out->status = PL_CNT_REGION_NO_MARKERS;
		snprintf(out->why, sizeof(out->why),
			 "the program marked no region (is it linked with libperflab-mark, and did "
			 "it reach pl_region_begin?)");
	} else if (!(flags & PL_MARK_F_COUNTING)) {
		out->status = PL_CNT_REGION_TOO_OLD;
		snprintf(out->why, sizeof(out->why),
			 "the program's libperflab-mark is too old to count regions (it records "
			 "markers without counts): link it with this perflab's libperflab-mark");
	} else if (flags & PL_MARK_F_OPEN_FAILED) {
		out->status = PL_CNT_REGION_OPEN_FAILED;
		int e = m->hdr->open_errno;
		const struct pl_cnt_event *bad = slot_event(rr, m->hdr->open_failed);
		snprintf(out->why, sizeof(out->why),
			 "the program's thread could not open %s for its regions: %s",
			 bad ? bad->name : "the events", strerror(e ? e : EIO));
	}
}

/* Event @e's value over the counted pairs of @reg: @raw etc. summed by the caller. */
static void finish_value(struct pl_cnt_value *v, const struct pl_cnt_region *reg,
			 const struct pl_cnt_regions *out, int slot, uint32_t err)
{
	v->cpu = v->socket = -1;
	v->tid = 0;
	if (slot < 0) {
		v->supported = false;
		snprintf(v->why, sizeof(v->why), "%s",
			 v->ev->source == PL_CNT_PERF
				 ? "counted per package: not per thread in a region"
				 : "read from a file: not per thread in a region");
		return;
	}
	if (!reg->counted_pairs) {
		v->supported = false;
		if (out->status == PL_CNT_REGION_TOO_OLD)
			snprintf(v->why, sizeof(v->why),
				 "the program's libperflab-mark is too old to count regions");
		else if (err && err != PL_MARKRING_NOREAD)
			snprintf(v->why, sizeof(v->why), "the program could not count it: %s",
				 strerror((int)err));
		else if (reg->instances)
			snprintf(v->why, sizeof(v->why), "no pair of readings");
		else
			snprintf(v->why, sizeof(v->why), "no complete instance of the region");
		return;
	}
	v->supported = true;
	v->counted = v->running_ns > 0;
	if (!v->counted) {
		snprintf(v->why, sizeof(v->why), "not counted: the group never ran on the PMU");
		return;
	}
	double scale = v->ev->scale > 0 ? v->ev->scale : 1.0;
	v->value = (double)v->raw * scale;
	if (v->running_ns < v->enabled_ns)
		v->value *= (double)v->enabled_ns / (double)v->running_ns;
	if (reg->unread)
		snprintf(v->why, sizeof(v->why), "from %llu of %llu instances (the others: %s)",
			 (unsigned long long)reg->counted_pairs, (unsigned long long)reg->instances,
			 err == PL_MARKRING_NOREAD ? "no readings"
						   : strerror(err ? (int)err : EIO));
}

int pl_cnt_region_collect(struct pl_cnt_region_ring *rr, struct pl_cnt_regions *out)
{
	memset(out, 0, sizeof(*out));
	struct pl_markring *m = &rr->ring;
	if (!m->hdr) {
		out->status = PL_CNT_REGION_NO_MARKERS;
		snprintf(out->why, sizeof(out->why), "no marker ring was created");
		return 0;
	}
	pl_markring_collect(m, pl_now_ns());
	out->dropped = m->dropped;
	run_status(rr, out);
	out->n = m->nnames;
	out->r = pl_xcalloc(out->n + 1, sizeof(*out->r));
	uint32_t nc = m->ncounters;
	/* Per region: the first non-zero status of an unread pair, the last thread seen
	 * (the windows are sorted by thread), and the per-slot sums. */
	uint32_t *err = pl_xcalloc(out->n + 1, sizeof(*err));
	uint32_t *last_tid = pl_xcalloc(out->n + 1, sizeof(*last_tid));
	bool *seen = pl_xcalloc(out->n + 1, sizeof(*seen));
	uint64_t *sum = pl_xcalloc((out->n + 1) * (2 + (size_t)nc), sizeof(*sum));
	for (size_t i = 0; i < m->nwins; i++) {
		const struct pl_region_win *w = &m->wins[i];
		struct pl_cnt_region *reg = &out->r[w->name];
		if (w->re == PL_MARKRING_NONE) {
			reg->unpaired++;
			continue;
		}
		reg->instances++;
		reg->total_ns += w->end - w->begin;
		if (!seen[w->name] || last_tid[w->name] != w->tid)
			reg->threads++;
		seen[w->name] = true;
		last_tid[w->name] = w->tid;
		uint32_t sb = m->rstat[w->rb], se = m->rstat[w->re];
		if (sb || se) {
			reg->unread++;
			if (!err[w->name])
				err[w->name] = sb ? sb : se;
			continue;
		}
		const uint64_t *b = pl_markring_reading(m, w->rb),
			       *e = pl_markring_reading(m, w->re);
		uint64_t *s = sum + (size_t)w->name * (2 + nc);
		for (uint32_t c = 0; c < 2 + nc; c++)
			s[c] += e[c] - b[c];
		reg->counted_pairs++;
	}
	for (size_t r = 0; r < out->n; r++) {
		struct pl_cnt_region *reg = &out->r[r];
		snprintf(reg->name, sizeof(reg->name), "%s", m->names[r]);
		reg->unpaired += m->orphans[r];
		reg->res.n = rr->nev;
		reg->res.v = pl_xcalloc(rr->nev + 1, sizeof(*reg->res.v));
		reg->res.elapsed_ns = reg->total_ns;
		const uint64_t *s = sum + r * (2 + nc);
		for (size_t i = 0; i < rr->nev; i++) {
			struct pl_cnt_value *v = &reg->res.v[i];
			v->ev = &rr->ev[i];
			int slot = rr->slot[i];
			if (slot >= 0 && reg->counted_pairs) {
				v->enabled_ns = s[0];
				v->running_ns = s[1];
				v->raw = s[2 + slot];
			}
			finish_value(v, reg, out, slot, err[r]);
		}
	}
	free(err);
	free(last_tid);
	free(seen);
	free(sum);
	return 0;
}

const struct pl_cnt_region *pl_cnt_regions_find(const struct pl_cnt_regions *rs, const char *name)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].name, name) == 0)
			return &rs->r[i];
	return NULL;
}

void pl_cnt_regions_free(struct pl_cnt_regions *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		free(rs->r[i].res.v);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

void pl_cnt_region_ring_free(struct pl_cnt_region_ring *rr)
{
	if (!rr)
		return;
	if (rr->ring.hdr)
		unsetenv(PL_MARK_ENV);
	pl_markring_free(&rr->ring);
	free(rr->slot);
	memset(rr, 0, sizeof(*rr));
	rr->ring.fd = -1;
}
