/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tracepoints counted at period 1 into one mmap'd ring per CPU: every event of every
 * task in a pid list (or all tasks) on each CPU is opened and redirected
 * (PERF_EVENT_IOC_SET_OUTPUT) into that CPU's ring, as `perf record -e SYS:EV` does. The
 * events may differ in sample_type; PERF_SAMPLE_IDENTIFIER (first in every sample)
 * tells a record's event (pl_tp_event_of). At the end, the kernel's count of every
 * event (read(2)) against the samples read tells the drops that no PERF_RECORD_LOST
 * reported (a drop is reported only before the ring's next record). */
#ifndef PERFLAB_PROFILE_TPRINGS_H
#define PERFLAB_PROFILE_TPRINGS_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile/perf_event.h"

/** The rings and events of a set of tracepoints. Zero-initialise; pl_tp_close frees. */
struct pl_tp_rings {
	struct pl_pe_session s; /**< fds, fd_cpu (= ring index) and rings (one per CPU) */
	uint64_t *ids;		/**< PERF_EVENT_IOC_ID of each fd (s.nfds) */
	uint32_t *ev;		/**< index into the opened events of each fd (s.nfds) */
};

/** Open each tracepoint id in @configs (@nconfigs) with the attributes @base (type,
 *  sample_type, disabled, enable_on_exec, inherit, clock, watermark...; config set per
 *  event, and sample_type replaced by @sample_types[i] when @sample_types is non-NULL)
 *  for every task of @pids (@npids; -1 alone = all tasks) on every CPU of @cpus
 *  (@ncpus), mmap one ring of @pages data pages (a power of two) per CPU and redirect
 *  the rest of that CPU's fds into it. A task gone before its open (ESRCH) is skipped
 *  when there are several. Returns 0, or -errno of the failing open, mmap or ioctl
 *  (-EACCES/-EPERM: no permission); on failure everything opened is closed. */
int pl_tp_open(struct pl_tp_rings *t, const struct perf_event_attr *base, const uint64_t *configs,
	       const uint64_t *sample_types, size_t nconfigs, const pid_t *pids, size_t npids,
	       const int *cpus, size_t ncpus, size_t pages);

/** The index (into the @configs of pl_tp_open) of the event whose PERF_EVENT_IOC_ID is
 *  @id, or -1. */
int pl_tp_event_of(const struct pl_tp_rings *t, uint64_t id);

/** The kernel's count of events fired (samples written or dropped) per ring into
 *  @fired (s.nrings entries, zeroed first), read(2) from every fd: call after
 *  disabling. Returns 0, or -EIO when a count could not be read. */
int pl_tp_fired(const struct pl_tp_rings *t, uint64_t *fired);

/** Unmap and close everything and zero @t. NULL-safe; safe twice. */
void pl_tp_close(struct pl_tp_rings *t);

#endif
