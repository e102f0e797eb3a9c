/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perf_event_open(2) for the profiler: one sampling event per CPU (per task for -p),
 * redirected into one mmap'd ring per CPU, with the event fallbacks a VM or an
 * unprivileged user needs (the open_strerror idea of Linux perf's util/evsel.c). */
#ifndef PERFLAB_PROFILE_PERF_EVENT_H
#define PERFLAB_PROFILE_PERF_EVENT_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** The perf_event_open entry point; tests replace it to inject errors (the fault shim).
 *  Same contract as the syscall: returns an fd, or -1 with errno set. */
typedef int (*pl_perf_open_fn)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags);
/** Current opener (default: the raw syscall). Not thread-safe to change while opening. */
extern pl_perf_open_fn pl_perf_open_hook;

/** Callchain mode. */
enum pl_callgraph { PL_CG_NONE, PL_CG_FP, PL_CG_DWARF };

/** What to sample. */
struct pl_pe_config {
	const char *event;   /**< "cycles" (default, falls back), "cpu-clock", "task-clock" */
	uint64_t freq;       /**< samples per second per CPU (when period == 0) */
	uint64_t period;     /**< events per sample; 0 = use freq */
	enum pl_callgraph cg;
	uint32_t stack_bytes; /**< bytes of user stack copied per sample for PL_CG_DWARF */
	bool enable_on_exec; /**< start disabled, enable at the target's exec */
	bool inherit;        /**< follow new threads and children */
	uint32_t ring_pages; /**< data pages per ring (power of two) */
};

/** One per-CPU ring. */
struct pl_pe_ring {
	int cpu;
	int fd;     /**< the fd that owns the mapping */
	void *base; /**< mapping: metadata page + data */
	size_t map_len;
	uint8_t *data;
	uint64_t data_size; /**< bytes, power of two */
};

/** An open sampling session. */
struct pl_pe_session {
	struct perf_event_attr attr; /**< as finally opened (after fallbacks) */
	char event_name[32];         /**< event actually used: "cycles", "cpu-clock"... */
	bool fell_back;              /**< hardware event unavailable -> software clock */
	bool user_only;              /**< EACCES/EPERM -> exclude_kernel */
	int fallback_errno;          /**< errno that caused the event fallback, or 0 */
	int *fds;                    /**< all event fds (nfds) */
	int *fd_cpu;                 /**< index into the cpus array of each fd */
	size_t nfds;
	struct pl_pe_ring *rings;    /**< one per CPU (nrings) */
	size_t nrings;
};

/** Open the sampling events for each CPU in @cpus (@ncpus entries) and each task in
 *  @pids (@npids entries; -1 alone = all tasks, for -a), mmap one ring per CPU and
 *  redirect the other fds of that CPU into it. Fallbacks: "cycles" -> "cpu-clock" on
 *  ENOENT, ENODEV, ENXIO, EOPNOTSUPP; EACCES/EPERM -> exclude_kernel (user only).
 *  Returns 0, or -errno of the last failing open (-EACCES, -ENOENT...) or mmap. Events
 *  are left disabled unless @cfg->enable_on_exec (the exec enables them). */
int pl_pe_open(struct pl_pe_session *s, const struct pl_pe_config *cfg, const pid_t *pids,
	       size_t npids, const int *cpus, size_t ncpus);
/** Enable (ioctl PERF_EVENT_IOC_ENABLE) every event. Returns 0 or -errno. */
int pl_pe_enable(struct pl_pe_session *s);
/** Disable every event. */
void pl_pe_disable(struct pl_pe_session *s);
/** Unmap and close everything. NULL-safe; safe twice. */
void pl_pe_close(struct pl_pe_session *s);

/** A human explanation of why perf_event_open failed with @err (positive errno) for
 *  the advice line: mentions perf_event_paranoid (current value when readable),
 *  kptr_restrict and CAP_PERFMON for EACCES/EPERM. Static buffer. */
const char *pl_pe_strerror(int err);


/** Read the ring's head (acquire) and tail. */
uint64_t pl_pe_ring_head(const struct pl_pe_ring *r);
uint64_t pl_pe_ring_tail(const struct pl_pe_ring *r);
/** Publish the new tail (release) so the kernel can reuse the space. */
void pl_pe_ring_set_tail(struct pl_pe_ring *r, uint64_t tail);

#endif
