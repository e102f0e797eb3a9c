/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/markers.h"

bool pl_markers_inside(const struct pl_markring *m, int name_idx, uint32_t tid, uint64_t t)
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
