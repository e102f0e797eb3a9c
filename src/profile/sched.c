/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler event log's helpers (profile/sched.h): freeing it, its target filter and
 * the classes of sched_switch's prev_state. */
#include "profile/sched.h"

#include <stdlib.h>
#include <string.h>

void pl_sched_log_free(struct pl_sched_log *log)
{
	if (!log)
		return;
	free(log->ev);
	free(log->gaps);
	free(log->pids);
	memset(log, 0, sizeof(*log));
}

bool pl_sched_log_target(const struct pl_sched_log *log, uint32_t pid)
{
	if (log->all)
		return true;
	size_t lo = 0, hi = log->npids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (log->pids[mid] == pid)
			return true;
		if (log->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The TASK_REPORT bits (include/linux/sched.h, __trace_sched_switch_state()): the lowest
 * set bit names the state; none set (0, or only TASK_REPORT_MAX, 0x100 since 4.14, which
 * marks a preemption) is R. */
enum pl_task_state pl_task_state_of(uint64_t raw)
{
	uint64_t bits = raw & 0xff;
	if (!bits)
		return PL_TS_RUNNING;
	if (bits & 0x1)
		return PL_TS_SLEEPING;
	if (bits & 0x2)
		return PL_TS_DISK;
	if (bits & 0xc)
		return PL_TS_STOPPED;
	if (bits & 0x70)
		return PL_TS_DEAD;
	if (bits & 0x80)
		return PL_TS_IDLE;
	return PL_TS_OTHER;
}

char pl_task_state_letter(enum pl_task_state st)
{
	static const char letters[] = {
		[PL_TS_RUNNING] = 'R', [PL_TS_SLEEPING] = 'S', [PL_TS_DISK] = 'D',
		[PL_TS_IDLE] = 'I',    [PL_TS_STOPPED] = 'T',  [PL_TS_DEAD] = 'X',
		[PL_TS_OTHER] = '?'
	};
	return (unsigned)st < sizeof(letters) ? letters[st] : '?';
}
