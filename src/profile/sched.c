/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler event log's helpers (profile/sched.h). */
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
	free(log->threads0);
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

/* The TASK_REPORT bits as sched_switch reports them (include/linux/sched.h,
 * __task_state_index: one bit per state, TASK_REPORT_IDLE as 0x80), from the lowest: the
 * kernel sets one of them. Above them the kernel marks a preempted task with
 * TASK_REPORT_MAX (0x100 on 4.14+; the print fmt of events/sched/sched_switch/format
 * prints "R+" for it); older kernels used TASK_STATE_MAX, a higher single bit. */
#define TS_REPORT_MASK 0xffu

enum pl_sched_ctx pl_sched_ctx_of_flags(uint64_t flags)
{
	if (flags & (0x08 | 0x40)) /* TRACE_FLAG_HARDIRQ, TRACE_FLAG_NMI */
		return PL_CTX_HARDIRQ;
	if (flags & 0x10) /* TRACE_FLAG_SOFTIRQ */
		return PL_CTX_SOFTIRQ;
	return PL_CTX_TASK;
}

const char *pl_sched_ctx_name(enum pl_sched_ctx ctx)
{
	switch (ctx) {
	case PL_CTX_HARDIRQ:
		return "[hardirq]";
	case PL_CTX_SOFTIRQ:
		return "[softirq]";
	default:
		return NULL;
	}
}

enum pl_task_state pl_task_state_of(uint64_t raw)
{
	uint64_t st = raw & TS_REPORT_MASK;
	if (!st) {
		/* 0: runnable when it left (sched_yield, a preemption on kernels without the
		 * marker); a single bit above the states: the preemption marker */
		uint64_t hi = raw & ~(uint64_t)TS_REPORT_MASK;
		return (hi & (hi - 1)) == 0 ? PL_TS_RUNNING : PL_TS_OTHER;
	}
	/* TASK_IDLE before 4.14 was reported raw: TASK_UNINTERRUPTIBLE | TASK_NOLOAD (0x400) */
	if ((raw & 0x402) == 0x402 && !(raw & 0x1))
		return PL_TS_IDLE;
	switch (st & -st) { /* the lowest state bit */
	case 0x1:
		return PL_TS_SLEEPING;
	case 0x2:
		return PL_TS_DISK;
	case 0x4: /* __TASK_STOPPED */
	case 0x8: /* __TASK_TRACED */
		return PL_TS_STOPPED;
	case 0x10: /* EXIT_DEAD */
	case 0x20: /* EXIT_ZOMBIE */
	case 0x40: /* TASK_PARKED */
		return PL_TS_DEAD;
	case 0x80: /* TASK_REPORT_IDLE */
		return PL_TS_IDLE;
	default:
		return PL_TS_OTHER;
	}
}

char pl_task_state_letter(enum pl_task_state st)
{
	switch (st) {
	case PL_TS_RUNNING:
		return 'R';
	case PL_TS_SLEEPING:
		return 'S';
	case PL_TS_DISK:
		return 'D';
	case PL_TS_IDLE:
		return 'I';
	case PL_TS_STOPPED:
		return 'T';
	case PL_TS_DEAD:
		return 'X';
	default:
		return '?';
	}
}

enum pl_task_state pl_task_state_of_letter(char c)
{
	switch (c) {
	case 'R':
		return PL_TS_RUNNING;
	case 'S':
		return PL_TS_SLEEPING;
	case 'D':
		return PL_TS_DISK;
	case 'I':
		return PL_TS_IDLE;
	case 'T':
	case 't':
		return PL_TS_STOPPED;
	case 'X':
	case 'x':
	case 'Z':
	case 'P':
		return PL_TS_DEAD;
	default:
		return PL_TS_OTHER;
	}
}
