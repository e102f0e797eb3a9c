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

/** Most bytes of user stack copied per sample for PL_CG_DWARF: perf's limit for
 *  --call-graph dwarf,SIZE (tools/perf/util/callchain.c get_stack_size: rounded up to a
 *  multiple of 8, at most USHRT_MAX rounded down to one); the kernel refuses
 *  sample_stack_user values that are not multiples of 8 or >= USHRT_MAX. */
#define PL_PE_STACK_USER_MAX 65528
/** Bytes of user stack copied per sample by default (perf's default too). */
#define PL_PE_STACK_USER_DEFAULT 8192

/** Callchain mode. */
enum pl_callgraph { PL_CG_NONE, PL_CG_FP, PL_CG_DWARF };

/** What to sample. */
struct pl_pe_config {
	const char *event; /**< "cycles" (default, falls back), "cpu-clock", "task-clock" */
	uint64_t freq;	   /**< samples per second per CPU (when period == 0) */
	uint64_t period;   /**< events per sample; 0 = use freq */
	enum pl_callgraph cg;
	uint32_t stack_bytes; /**< bytes of user stack copied per sample for PL_CG_DWARF */
	bool enable_on_exec;  /**< start disabled, enable at the target's exec */
	bool inherit;	      /**< follow new threads and children */
	uint32_t ring_pages;  /**< data pages per ring (power of two) */
};

/** One per-CPU ring. */
struct pl_pe_ring {
	int cpu;
	int fd;	    /**< the fd that owns the mapping */
	void *base; /**< mapping: metadata page + data */
	size_t map_len;
	uint8_t *data;
	uint64_t data_size; /**< bytes, power of two */
};

/** An open sampling session. */
struct pl_pe_session {
	struct perf_event_attr attr; /**< as finally opened (after fallbacks) */
	char event_name[32];	     /**< event actually used: "cycles", "cpu-clock"... */
	bool fell_back;		     /**< hardware event unavailable -> software clock */
	bool user_only;		     /**< EACCES/EPERM -> exclude_kernel */
	int fallback_errno;	     /**< errno that caused the event fallback, or 0 */
	int user_only_errno;	     /**< errno that caused the user-only retry, or 0 */
	bool mmap_failed;	     /**< (failure) the ring's mmap failed, not the open */
	int *fds;		     /**< all event fds (nfds) */
	int *fd_cpu;		     /**< index into the cpus array of each fd */
	size_t nfds;
	struct pl_pe_ring *rings; /**< one per CPU (nrings) */
	size_t nrings;
};

/** Open the sampling events for each CPU in @cpus (@ncpus entries) and each task in
 *  @pids (@npids entries; -1 alone = all tasks, for -a), mmap one ring per CPU and
 *  redirect the other fds of that CPU into it. Fallbacks: "cycles" -> "cpu-clock" on
 *  ENOENT, ENODEV, ENXIO, EOPNOTSUPP; EACCES/EPERM -> exclude_kernel (user only).
 *  Returns 0, or -errno of the last failing open (-EACCES, -ENOENT...) or mmap (then
 *  s->mmap_failed; s->event_name and s->attr say what was last asked). Events
 *  are left disabled unless @cfg->enable_on_exec (the exec enables them). */
int pl_pe_open(struct pl_pe_session *s, const struct pl_pe_config *cfg, const pid_t *pids,
	       size_t npids, const int *cpus, size_t ncpus);
/** Enable (ioctl PERF_EVENT_IOC_ENABLE) every event. Returns 0 or -errno. */
int pl_pe_enable(struct pl_pe_session *s);
/** Disable every event. */
void pl_pe_disable(struct pl_pe_session *s);
/** Unmap and close everything. NULL-safe; safe twice. */
void pl_pe_close(struct pl_pe_session *s);

/** What perflab asked of perf_event_open, for the advice when it is refused. */
struct pl_pe_request {
	const char *event; /**< event name ("cpu-clock"...); NULL = not named */
	bool system_wide;  /**< CPU-wide events (-a, pid -1): need paranoid <= 0 unprivileged */
	bool user_only;	   /**< exclude_kernel (the retry): needs paranoid <= 2 unprivileged;
			    *   with kernel samples it needs <= 1 */
	bool mmap;	   /**< the ring's mmap failed, not the open */
	bool pid_target;   /**< tasks perflab did not start (-p PID): the kernel also makes
			    *   the ptrace access mode check (PTRACE_MODE_READ_REALCREDS)
			    *   unless perfmon_capable() (Linux 5.8+) */
};

/** What decides whether the kernel's perf_event_paranoid check lets a request pass. */
struct pl_pe_privs {
	bool have_paranoid; /**< /proc/sys/kernel/perf_event_paranoid was read */
	int64_t paranoid;
	bool root;    /**< effective uid 0 (in this process's user namespace) */
	bool userns;  /**< this process is not in the initial user namespace
		       *   (/proc/self/uid_map), so its capabilities do not count */
	bool perfmon; /**< CAP_PERFMON or CAP_SYS_ADMIN effective in the initial user
		       *   namespace (perfmon_capable(), which is capable() there) */
};

/** Read the privileges of this process and perf_event_paranoid (sysroot helper; profile
 *  runs only on the live system, so /proc/self is this process). capget(2) gives the
 *  capabilities in the process's own user namespace while the kernel checks them in the
 *  initial one, so they count only when /proc/self/uid_map is the initial namespace's
 *  (pl_pe_uid_map_is_initial); a missing uid_map (a kernel without CONFIG_USER_NS) is
 *  the initial namespace. Never fails: what cannot be read is left false. */
void pl_pe_privs_read(struct pl_pe_privs *pv);

/** True when @uid_map (the text of /proc/PID/uid_map) is that of the initial user
 *  namespace: exactly one line mapping the whole range, "0 0 4294967295" (any spacing;
 *  user_namespaces(7)). Any other map, more lines, or garbage: false. */
bool pl_pe_uid_map_is_initial(const char *uid_map);

/** A human explanation, for one error line, of why perf_event_open (or the ring's mmap,
 *  @rq->mmap) failed with @err (positive errno) for request @rq, given @pv; written to
 *  @buf (@len bytes) and returned. EACCES/EPERM: when @pv shows that paranoid did not
 *  refuse it (CAP_PERFMON/CAP_SYS_ADMIN, or a paranoid value that allows @rq: <= 2 user
 *  only, <= 1 with kernel samples, <= 0 system-wide; Documentation/admin-guide/
 *  perf-security.rst) it names a seccomp filter or an LSM and what to check, and never
 *  suggests root to root; EACCES with @rq->pid_target and no CAP_PERFMON names the ptrace
 *  access mode check (another user's or a non-dumpable process) first; otherwise it
 *  explains perf_event_paranoid (and to a root without the capabilities, CAP_PERFMON,
 *  or, in a user namespace, that its capabilities do not count). ENOSYS: no perf
 *  events in the kernel, or, when the paranoid file exists, a seccomp filter answering
 *  ENOSYS. ENOENT, ENODEV, ENXIO, EOPNOTSUPP: the event is not supported. Pure: tests
 *  call it with made-up @pv. */
const char *pl_pe_advice(int err, const struct pl_pe_request *rq, const struct pl_pe_privs *pv,
			 char *buf, size_t len);

/** The one line for a refusal of @opt ("--off-cpu", "--locks": options whose tracepoints
 *  need root, CAP_PERFMON or kernel.perf_event_paranoid=-1) when @err (positive errno) is
 *  EACCES/EPERM and @pv has no CAP_PERFMON (outside a user namespace): the option, the
 *  cause (the paranoid value and the missing capability; with @rq->pid_target and EACCES
 *  where paranoid allows it, the ptrace access check of another user's or a non-dumpable
 *  process) and the fix (root, CAP_PERFMON since Linux 5.8, or paranoid -1). Written to
 *  @buf (@len bytes) and returned; NULL for any other case (the caller uses
 *  pl_pe_advice). Pure: tests call it with made-up @pv. */
const char *pl_pe_advice_tracing(const char *opt, int err, const struct pl_pe_request *rq,
				 const struct pl_pe_privs *pv, char *buf, size_t len);

/** pl_pe_advice with this process' privileges (pl_pe_privs_read). Static buffer. */
const char *pl_pe_strerror(int err, const struct pl_pe_request *rq);

/** Read the ring's head (acquire) and tail. */
uint64_t pl_pe_ring_head(const struct pl_pe_ring *r);
uint64_t pl_pe_ring_tail(const struct pl_pe_ring *r);
/** Publish the new tail (release) so the kernel can reuse the space. */
void pl_pe_ring_set_tail(struct pl_pe_ring *r, uint64_t tail);

#endif
