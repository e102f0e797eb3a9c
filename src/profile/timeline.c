/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --timeline: samples counted per bucket of time, per thread and per CPU
 * (profile/timeline.h). */
#include "profile/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/str.h"

void pl_timeline_build(struct pl_timeline *tl, const struct pl_profile *p,
		       const struct pl_preport *r, uint64_t t0, uint64_t t1, int ms,
		       pl_sample_filter filter, void *fctx)
{
	memset(tl, 0, sizeof(*tl));
	tl->bucket_ms = ms;
	uint64_t span = t1 > t0 ? t1 - t0 : 1;
	uint64_t bns = (uint64_t)ms * 1000000u;
	tl->nb = (size_t)((span + bns - 1) / bns);
	if (tl->nb == 0)
		tl->nb = 1;
	if (tl->nb > PL_TIMELINE_MAX_BUCKETS)
		tl->nb = PL_TIMELINE_MAX_BUCKETS;
	/* Threads with samples, in thread-table order. */
	pl_autofree size_t *row = pl_xcalloc(p->nthreads + 1, sizeof(size_t));
	for (size_t i = 0; i < p->nthreads; i++) {
		if (!r->thread_samples[i])
			continue;
		row[i] = ++tl->nthr;
	}
	tl->ncpu = r->ncpu;
	tl->thr = pl_xcalloc(tl->nthr * tl->nb + 1, sizeof(uint64_t));
	tl->cpu = pl_xcalloc(tl->ncpu * tl->nb + 1, sizeof(uint64_t));
	tl->thr_labels = pl_xcalloc(tl->nthr + 1, sizeof(char *));
	tl->thr_tid = pl_xcalloc(tl->nthr + 1, sizeof(uint32_t));
	tl->cpu_labels = pl_xcalloc(tl->ncpu + 1, sizeof(char *));
	for (size_t i = 0; i < p->nthreads; i++)
		if (row[i]) {
			tl->thr_labels[row[i] - 1] =
				pl_xasprintf("%s/%u", p->threads[i].comm, p->threads[i].tid);
			tl->thr_tid[row[i] - 1] = p->threads[i].tid;
		}
	for (size_t c = 0; c < tl->ncpu; c++)
		tl->cpu_labels[c] = pl_xasprintf("cpu%zu", c);
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pl_psample *s = &p->samples[i];
		if (filter && !filter(fctx, s))
			continue;
		if (s->time < t0)
			continue;
		size_t b = (size_t)((s->time - t0) / bns);
		if (b >= tl->nb)
			b = tl->nb - 1;
		/* thread row */
		for (size_t k = 0; k < tl->nthr; k++)
			if (tl->thr_tid[k] == s->tid) {
				tl->thr[k * tl->nb + b]++;
				break;
			}
		if (s->cpu < tl->ncpu)
			tl->cpu[s->cpu * tl->nb + b]++;
	}
}

void pl_timeline_free(struct pl_timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; tl->thr_labels && i < tl->nthr; i++)
		free(tl->thr_labels[i]);
	for (size_t i = 0; tl->cpu_labels && i < tl->ncpu; i++)
		free(tl->cpu_labels[i]);
	free(tl->thr_labels);
	free(tl->cpu_labels);
	free(tl->thr);
	free(tl->cpu);
	free(tl->thr_tid);
	memset(tl, 0, sizeof(*tl));
}
