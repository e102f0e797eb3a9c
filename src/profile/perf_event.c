/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/perf_event.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/str.h"
#include "util/sysroot.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

pl_perf_open_fn pl_perf_open_hook = sys_perf_event_open;

/* x86-64 user registers for DWARF unwinding: AX BX CX DX SI DI BP SP IP and R8-R15
 * (arch/x86/include/uapi/asm/perf_regs.h). */
#define PL_REGS_MASK_X86_64 0x00ff01ffull

static bool is_missing_event(int e)
{
	return e == ENOENT || e == ENODEV || e == ENXIO || e == EOPNOTSUPP;
}

static void set_event(struct perf_event_attr *a, const char *name)
{
	if (strcmp(name, "cycles") == 0) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
	} else if (strcmp(name, "task-clock") == 0) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
	}
}

static void fill_attr(struct perf_event_attr *a, const struct pl_pe_config *cfg)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	set_event(a, cfg->event ? cfg->event : "cycles");
	if (cfg->period) {
		a->sample_period = cfg->period;
	} else {
		a->freq = 1;
		a->sample_freq = cfg->freq ? cfg->freq : 999;
	}
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (cfg->cg != PL_CG_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (cfg->cg == PL_CG_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = PL_REGS_MASK_X86_64;
		a->sample_stack_user = cfg->stack_bytes ? cfg->stack_bytes : 8192;
	}
	a->disabled = 1;
	a->enable_on_exec = cfg->enable_on_exec;
	a->inherit = cfg->inherit;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->exclude_hv = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->build_id = 1;
	/* Wake the reader when a quarter of the ring is full, not per record: a wakeup per
	 * sample costs the target a context switch on a busy CPU. */
	a->watermark = 1;
	a->wakeup_watermark = (cfg->ring_pages ? cfg->ring_pages : 256) * 4096u / 4;
}

static void close_fds(struct pl_pe_session *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	s->nfds = 0;
}

/* Open the whole set with the current attr; on failure close what was opened. */
static int open_all(struct pl_pe_session *s, const pid_t *pids, size_t npids, const int *cpus,
		    size_t ncpus)
{
	s->fds = pl_xrealloc(s->fds, npids * ncpus * sizeof(int));
	s->fd_cpu = pl_xrealloc(s->fd_cpu, npids * ncpus * sizeof(int));
	for (size_t c = 0; c < ncpus; c++) {
		for (size_t p = 0; p < npids; p++) {
			int fd = pl_perf_open_hook(&s->attr, pids[p], cpus[c], -1,
						   PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				int e = errno ? errno : EIO;
				/* A task that exited between listing and opening is fine. */
				if (e == ESRCH && npids > 1)
					continue;
				close_fds(s);
				return -e;
			}
			s->fd_cpu[s->nfds] = (int)c;
			s->fds[s->nfds++] = fd;
		}
	}
	return s->nfds ? 0 : -ESRCH;
}

int pl_pe_open(struct pl_pe_session *s, const struct pl_pe_config *cfg, const pid_t *pids,
	       size_t npids, const int *cpus, size_t ncpus)
{
	memset(s, 0, sizeof(*s));
	const char *ev = cfg->event ? cfg->event : "cycles";
	fill_attr(&s->attr, cfg);
	snprintf(s->event_name, sizeof(s->event_name), "%s", ev);
	int r = open_all(s, pids, npids, cpus, ncpus);
	if (r < 0 && is_missing_event(-r) && strcmp(ev, "cycles") == 0) {
		s->fell_back = true;
		s->fallback_errno = -r;
		set_event(&s->attr, "cpu-clock");
		snprintf(s->event_name, sizeof(s->event_name), "cpu-clock");
		r = open_all(s, pids, npids, cpus, ncpus);
	}
	if (r == -EACCES || r == -EPERM) {
		s->user_only = true;
		s->user_only_errno = -r;
		s->attr.exclude_kernel = 1;
		r = open_all(s, pids, npids, cpus, ncpus);
		if (r < 0 && is_missing_event(-r) && !s->fell_back && strcmp(ev, "cycles") == 0) {
			s->fell_back = true;
			s->fallback_errno = -r;
			set_event(&s->attr, "cpu-clock");
			snprintf(s->event_name, sizeof(s->event_name), "cpu-clock");
			r = open_all(s, pids, npids, cpus, ncpus);
		}
	}
	if (r < 0) {
		free(s->fds);
		free(s->fd_cpu);
		s->fds = NULL;
		s->fd_cpu = NULL;
		return r;
	}
	/* One ring per CPU: the first fd of each CPU owns it, the others are redirected. */
	uint32_t pages = cfg->ring_pages ? cfg->ring_pages : 256;
	long pg = sysconf(_SC_PAGESIZE);
	s->rings = pl_xcalloc(ncpus, sizeof(*s->rings));
	for (size_t c = 0; c < ncpus; c++) {
		struct pl_pe_ring *rg = NULL;
		for (size_t i = 0; i < s->nfds; i++) {
			if (s->fd_cpu[i] != (int)c)
				continue;
			if (!rg) {
				rg = &s->rings[s->nrings];
				rg->cpu = cpus[c];
				rg->fd = s->fds[i];
				rg->map_len = (size_t)(pages + 1) * (size_t)pg;
				rg->base = mmap(NULL, rg->map_len, PROT_READ | PROT_WRITE,
						MAP_SHARED, rg->fd, 0);
				if (rg->base == MAP_FAILED) {
					int e = errno;
					rg->base = NULL;
					pl_pe_close(s);
					s->mmap_failed = true;
					return -e;
				}
				rg->data = (uint8_t *)rg->base + pg;
				rg->data_size = (uint64_t)pages * (uint64_t)pg;
				s->nrings++;
			} else if (ioctl(s->fds[i], PERF_EVENT_IOC_SET_OUTPUT, rg->fd) < 0) {
				int e = errno;
				pl_pe_close(s);
				return -e;
			}
		}
	}
	return 0;
}

int pl_pe_enable(struct pl_pe_session *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	return 0;
}

void pl_pe_disable(struct pl_pe_session *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

void pl_pe_close(struct pl_pe_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nrings; i++)
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->rings[i].map_len);
	free(s->rings);
	s->rings = NULL;
	s->nrings = 0;
	close_fds(s);
	free(s->fds);
	free(s->fd_cpu);
	s->fds = NULL;
	s->fd_cpu = NULL;
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38 /* Linux 5.8 */
#endif

void pl_pe_privs_read(struct pl_pe_privs *pv)
{
	memset(pv, 0, sizeof(*pv));
	pv->have_paranoid = pl_read_i64("/proc/sys/kernel/perf_event_paranoid", &pv->paranoid) == 0;
	pv->root = geteuid() == 0;
	/* capget answers for this process's own user namespace; perfmon_capable() asks
	 * about the initial one, where a process inside `unshare -r` or a rootless container
	 * has no capabilities at all. The sysroot helper reads the live file: profile
	 * refuses --sysroot. Unreadable (no CONFIG_USER_NS: no file): the initial one. */
	char *map = NULL;
	if (pl_read_file("/proc/self/uid_map", &map, NULL) == 0) {
		pv->userns = !pl_pe_uid_map_is_initial(map);
		free(map);
	}
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof(data));
	if (!pv->userns && syscall(SYS_capget, &hdr, data) == 0) {
		uint64_t eff = (uint64_t)data[0].effective | (uint64_t)data[1].effective << 32;
		pv->perfmon = (eff >> CAP_PERFMON & 1) || (eff >> CAP_SYS_ADMIN & 1);
	}
}

bool pl_pe_uid_map_is_initial(const char *uid_map)
{
	unsigned long long v[3];
	const char *p = uid_map;
	for (int i = 0; i < 3; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		char *end;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return false;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return *p == '\0' && v[0] == 0 && v[1] == 0 && v[2] == 4294967295ull;
}

/* The request in words: "cpu-clock sampling (user and kernel, system-wide)". */
static void describe(char *buf, size_t len, const struct pl_pe_request *rq)
{
	snprintf(buf, len, "%s%s%s (%s%s)", rq->mmap ? "the ring buffer of " : "",
		 rq->event ? rq->event : "event", rq->event ? " sampling" : "",
		 rq->user_only ? "user space only" : "user and kernel",
		 rq->system_wide ? ", system-wide" : ", per task");
}

/* The perf_event_paranoid value at or below which an unprivileged user may open @rq
 * (Documentation/admin-guide/perf-security.rst; Debian's 3 forbids everything). */
static int64_t paranoid_needed(const struct pl_pe_request *rq)
{
	if (rq->system_wide)
		return 0;
	return rq->user_only ? 2 : 1;
}

static const char seccomp_lsm_checks[] =
	"check the container's seccomp profile (the default profiles of Docker and Podman "
	"refuse perf_event_open: run with a profile that allows it, e.g. --security-opt "
	"seccomp=PROFILE.json, or --privileged), a systemd SystemCallFilter= on the service, "
	"and LSM denials (SELinux: 'ausearch -m avc -c perflab', the perf_event class; "
	"AppArmor: 'dmesg | grep -i apparmor'; kernel lockdown: /sys/kernel/security/lockdown)";

const char *pl_pe_advice(int err, const struct pl_pe_request *rq, const struct pl_pe_privs *pv,
			 char *buf, size_t len)
{
	char what[128];
	describe(what, sizeof(what), rq);
	const char *ename = err == EPERM    ? "EPERM"
			    : err == EACCES ? "EACCES"
			    : err == ENOSYS ? "ENOSYS"
					    : NULL;
	if (rq->mmap && (err == EPERM || err == ENOMEM)) {
		snprintf(buf, len,
			 "mmap of %s refused (%s): the rings are locked memory, limited by "
			 "kernel.perf_event_mlock_kb per user plus RLIMIT_MEMLOCK ('ulimit -l') "
			 "without CAP_IPC_LOCK; lower --ring-kb or raise the limits",
			 what, strerror(err));
	} else if (err == EACCES || err == EPERM) {
		char pv_s[32] = "unreadable";
		if (pv->have_paranoid)
			snprintf(pv_s, sizeof(pv_s), "%lld", (long long)pv->paranoid);
		int64_t need = paranoid_needed(rq);
		if (pv->perfmon) {
			snprintf(buf, len,
				 "%s refused with %s (%s) although perflab runs %s, which "
				 "kernel.perf_event_paranoid (%s) does not restrict: a seccomp "
				 "filter or "
				 "a Linux security module (SELinux, AppArmor, lockdown) refused "
				 "it; %s",
				 what, ename, strerror(err),
				 pv->root ? "as root with CAP_PERFMON/CAP_SYS_ADMIN"
					  : "with CAP_PERFMON/CAP_SYS_ADMIN",
				 pv_s, seccomp_lsm_checks);
		} else if (pv->have_paranoid && pv->paranoid <= need && rq->pid_target &&
			   err == EACCES) {
			/* perf_check_permission(): ptrace_may_access(PTRACE_MODE_READ_REALCREDS)
			 * unless perfmon_capable(); EACCES */
			snprintf(buf, len,
				 "%s refused with %s (%s): -p PID: the process belongs to another "
				 "user or is not dumpable (ptrace access mode check; see "
				 "Documentation/admin-guide/perf-security.rst): profile it as its "
				 "user, as root, or with CAP_PERFMON (Linux 5.8+); "
				 "kernel.perf_event_paranoid is %s, which allows it (<= %lld), so "
				 "if "
				 "the process is yours and dumpable, a seccomp filter or a Linux "
				 "security module refused it; %s",
				 what, ename, strerror(err), pv_s, (long long)need,
				 seccomp_lsm_checks);
		} else if (pv->have_paranoid && pv->paranoid <= need) {
			snprintf(buf, len,
				 "%s refused with %s (%s) although kernel.perf_event_paranoid is "
				 "%s, "
				 "which allows it (<= %lld) without privileges: a seccomp filter "
				 "or a "
				 "Linux security module (SELinux, AppArmor, lockdown) refused it; "
				 "%s",
				 what, ename, strerror(err), pv_s, (long long)need,
				 seccomp_lsm_checks);
		} else if (pv->root && pv->userns) {
			snprintf(
				buf, len,
				"%s refused with %s (%s): kernel.perf_event_paranoid is %s (allows "
				"this only <= %lld without privileges) and perflab runs as root of "
				"a "
				"user namespace (/proc/self/uid_map is not the initial one: "
				"unshare "
				"-r, a rootless container), whose capabilities do not count: the "
				"kernel checks CAP_PERFMON in the initial user namespace; lower it "
				"on "
				"the host with 'sysctl kernel.perf_event_paranoid=%lld', or run "
				"perflab outside the namespace as root or with CAP_PERFMON",
				what, ename, strerror(err), pv_s, (long long)need, (long long)need);
		} else if (pv->root) {
			snprintf(
				buf, len,
				"%s refused with %s (%s): kernel.perf_event_paranoid is %s (allows "
				"this only <= %lld without privileges) and perflab runs as root "
				"but "
				"without CAP_PERFMON and CAP_SYS_ADMIN (dropped, as in a "
				"container): "
				"grant CAP_PERFMON (e.g. docker run --cap-add PERFMON; Linux 5.8+) "
				"or "
				"lower it on the host with 'sysctl "
				"kernel.perf_event_paranoid=%lld'; "
				"if neither helps, a seccomp filter or LSM refuses it: %s",
				what, ename, strerror(err), pv_s, (long long)need, (long long)need,
				seccomp_lsm_checks);
		} else {
			snprintf(buf, len,
				 "%s refused with %s (%s): kernel.perf_event_paranoid is %s (2 = "
				 "user "
				 "space only for unprivileged users, 3+ = no perf_event_open at "
				 "all; "
				 "this needs <= %lld); %srun as root, grant CAP_PERFMON (Linux "
				 "5.8+: "
				 "setcap cap_perfmon+ep), or lower it with 'sysctl "
				 "kernel.perf_event_paranoid=%lld'%s",
				 what, ename, strerror(err), pv_s, (long long)need,
				 pv->userns ? "capabilities in this user namespace do not count: "
					      "outside it "
					    : "",
				 (long long)need,
				 rq->user_only ? ""
					       : "; kernel addresses also need "
						 "kernel.kptr_restrict=0 or CAP_SYSLOG");
		}
	} else if (err == ENOSYS) {
		if (pv->have_paranoid)
			snprintf(buf, len,
				 "%s: perf_event_open answered ENOSYS (%s), but this kernel has "
				 "perf "
				 "events (/proc/sys/kernel/perf_event_paranoid exists), so a "
				 "seccomp "
				 "filter answers ENOSYS for it; %s",
				 what, strerror(err), seccomp_lsm_checks);
		else
			snprintf(buf, len,
				 "%s: the kernel has no perf events (ENOSYS, %s; built without "
				 "CONFIG_PERF_EVENTS, no /proc/sys/kernel/perf_event_paranoid): "
				 "use a "
				 "kernel with perf events",
				 what, strerror(err));
	} else if (is_missing_event(err)) {
		snprintf(buf, len,
			 "%s: %s: the event is not supported here (no hardware PMU, e.g. in a VM); "
			 "try -e cpu-clock",
			 what, strerror(err));
	} else if (err == EMFILE) {
		snprintf(buf, len,
			 "too many open files: raise 'ulimit -n' (one fd per CPU "
			 "and task)");
	} else if (err == ESRCH) {
		snprintf(buf, len, "no such process");
	} else {
		snprintf(buf, len, "%s: %s", what, strerror(err));
	}
	return buf;
}

const char *pl_pe_advice_tracing(const char *opt, int err, const struct pl_pe_request *rq,
				 const struct pl_pe_privs *pv, char *buf, size_t len)
{
	if ((err != EACCES && err != EPERM) || rq->mmap || pv->perfmon || pv->userns)
		return NULL;
	char pv_s[32] = "unreadable";
	if (pv->have_paranoid)
		snprintf(pv_s, sizeof(pv_s), "%lld", (long long)pv->paranoid);
	const char *ename = err == EPERM ? "EPERM" : "EACCES";
	if (rq->pid_target && err == EACCES && pv->have_paranoid &&
	    pv->paranoid <= paranoid_needed(rq))
		snprintf(buf, len,
			 "%s -p: perf_event_open refused (%s): the process belongs to another "
			 "user or is not dumpable, which needs CAP_PERFMON whatever "
			 "kernel.perf_event_paranoid (%s) says; run perflab as root or grant "
			 "CAP_PERFMON (Linux 5.8+: setcap cap_perfmon+ep)",
			 opt, ename, pv_s);
	else
		snprintf(buf, len,
			 "%s: perf_event_open refused (%s): kernel.perf_event_paranoid is %s and "
			 "perflab has no CAP_PERFMON (the tracepoints need -1 or the capability); "
			 "run perflab as root, grant CAP_PERFMON (Linux 5.8+: setcap "
			 "cap_perfmon+ep), or 'sysctl kernel.perf_event_paranoid=-1'",
			 opt, ename, pv_s);
	return buf;
}

const char *pl_pe_strerror(int err, const struct pl_pe_request *rq)
{
	static char buf[1024];
	struct pl_pe_privs pv;
	pl_pe_privs_read(&pv);
	return pl_pe_advice(err, rq, &pv, buf, sizeof(buf));
}

uint64_t pl_pe_ring_head(const struct pl_pe_ring *r)
{
	const struct perf_event_mmap_page *m = r->base;
	return __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
}

uint64_t pl_pe_ring_tail(const struct pl_pe_ring *r)
{
	const struct perf_event_mmap_page *m = r->base;
	return m->data_tail;
}

void pl_pe_ring_set_tail(struct pl_pe_ring *r, uint64_t tail)
{
	struct perf_event_mmap_page *m = r->base;
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}
