/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counting session (session.h): scopes, opening groups, the wait loop with its
 * intervals and signals, and readings into results. */
#include "counters/session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/heldchild.h"
#include "util/clock.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

pl_cnt_open_fn pl_cnt_open_hook = sys_perf_event_open;

void pl_cnt_scale(struct pl_cnt_value *v)
{
	double scale = v->ev ? v->ev->scale : 1.0;
	if (v->ev && scale == 0)
		scale = 1.0;
	v->counted = v->running_ns > 0;
	if (!v->counted) {
		v->value = 0;
		return;
	}
	v->value = (double)v->raw * scale;
	if (v->running_ns < v->enabled_ns)
		v->value *= (double)v->enabled_ns / (double)v->running_ns;
}

double pl_cnt_pcnt_running(const struct pl_cnt_value *v)
{
	if (v->enabled_ns == 0 || v->running_ns >= v->enabled_ns)
		return 100.0;
	return 100.0 * (double)v->running_ns / (double)v->enabled_ns;
}

/* ---- scopes ---- */

static void add_scope(struct pl_cnt_session *s, int cpu, pid_t tid)
{
	s->scopes = pl_xrealloc(s->scopes, (s->nscopes + 1) * sizeof(*s->scopes));
	struct pl_cnt_scope *sc = &s->scopes[s->nscopes++];
	memset(sc, 0, sizeof(*sc));
	sc->cpu = cpu;
	sc->tid = tid;
	sc->socket = -1;
	if (cpu >= 0) {
		int64_t pkg;
		char p[128];
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		if (pl_read_i64(p, &pkg) == 0 && pkg >= 0 && pkg < 1 << 20)
			sc->socket = (int)pkg;
	}
}

/* -a / -C / --cgroup: the CPUs of @list, or the online ones. */
static int cpu_scopes(struct pl_cnt_session *s, const char *list)
{
	struct pl_cpuset cs;
	pl_cpuset_clear(&cs);
	pl_autofree char *online = NULL;
	if (list) {
		if (pl_cpuset_parse(list, &cs) < 0)
			return -EINVAL;
	} else if (pl_read_str("/sys/devices/system/cpu/online", &online) == 0) {
		if (pl_cpuset_parse(online, &cs) < 0)
			return -EINVAL;
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		for (long c = 0; c < n && c < PL_MAX_CPUS; c++)
			pl_cpuset_set(&cs, (unsigned)c);
	}
	for (int c = pl_cpuset_next(&cs, 0); c >= 0; c = pl_cpuset_next(&cs, (unsigned)c + 1))
		add_scope(s, c, -1);
	s->cpu_scopes = true;
	return s->nscopes ? 0 : -ENOENT;
}

/* -p LIST: every thread of every process, with its name. */
static int thread_scopes(struct pl_cnt_session *s, const char *list)
{
	pl_autostrv char **v = pl_split(list, ",", NULL);
	for (size_t i = 0; v[i]; i++) {
		uint64_t pid;
		if (pl_parse_u64(v[i], &pid) < 0 || pid == 0 || pid > 0x7fffffff)
			return -EINVAL;
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%llu/task", (unsigned long long)pid);
		pl_autostrv char **tasks = NULL;
		size_t nt = 0;
		if (pl_list_dir(dir, &tasks, &nt) < 0)
			return -ESRCH;
		for (size_t k = 0; k < nt; k++) {
			uint64_t tid;
			if (pl_parse_u64(tasks[k], &tid) < 0 || tid > 0x7fffffff)
				continue;
			add_scope(s, -1, (pid_t)tid);
			pl_autofree char *comm = NULL;
			if (pl_read_strf(&comm, "/proc/%llu/task/%llu/comm",
					 (unsigned long long)pid, (unsigned long long)tid) == 0)
				snprintf(s->scopes[s->nscopes - 1].comm, sizeof(s->scopes[0].comm),
					 "%s", pl_trim(comm));
		}
	}
	return s->nscopes ? 0 : -ESRCH;
}

/* The cgroup2 mount point (/proc/self/mounts, the first "cgroup2" line), or NULL. */
static char *cgroup2_mount(void)
{
	pl_autofree char *mounts = NULL;
	if (pl_read_file("/proc/self/mounts", &mounts, NULL) < 0)
		return NULL;
	pl_autostrv char **lines = pl_split(mounts, "\n", NULL);
	for (size_t i = 0; lines[i]; i++) {
		pl_autostrv char **f = pl_split(lines[i], " ", NULL);
		if (f[0] && f[1] && f[2] && !strcmp(f[2], "cgroup2"))
			return pl_xstrdup(f[1]);
	}
	return NULL;
}

/* --cgroup PATH: the directory under the cgroup2 mount, checked through the sysroot,
 * opened for PERF_FLAG_PID_CGROUP. */
static int open_cgroup(struct pl_cnt_session *s, const char *path, char *err, size_t errlen)
{
	pl_autofree char *mnt = cgroup2_mount();
	if (!mnt) {
		snprintf(err, errlen,
			 "--cgroup '%s': no cgroup2 file system is mounted (/proc/self/mounts)",
			 path);
		return -ENOENT;
	}
	size_t ml = strlen(mnt);
	const char *rel = path;
	if (!strncmp(path, mnt, ml) && (path[ml] == '/' || path[ml] == '\0'))
		rel = path + ml;
	while (*rel == '/')
		rel++;
	if (strstr(rel, "..")) {
		snprintf(err, errlen, "--cgroup '%s': give a path under %s without '..'", path,
			 mnt);
		return -ENOENT;
	}
	pl_autofree char *abs = pl_xasprintf("%s/%s", mnt, rel);
	char dir[4096];
	if (!pl_exists(abs) || pl_sysroot_path(dir, sizeof(dir), abs) < 0) {
		snprintf(err, errlen,
			 "--cgroup '%s': no such cgroup under %s (give a path as in "
			 "/proc/PID/cgroup, e.g. /system.slice)",
			 path, mnt);
		return -ENOENT;
	}
	s->cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->cgroup_fd < 0) {
		int e = errno;
		snprintf(err, errlen, "--cgroup '%s': cannot open %s: %s", path, dir, strerror(e));
		return -e;
	}
	return 0;
}

/* fork + wait for the go byte + exec: the counters are opened on the child between the
 * two, with enable_on_exec, so nothing before the exec is counted. */
static int start_child(struct pl_cnt_session *s, char **argv)
{
	pid_t pid;
	int r = pl_held_child_start(argv, &pid, &s->go_fd, &s->err_fd);
	if (r < 0)
		return r;
	s->child = pid;
	return 0;
}

/* ---- opening ---- */

/* Whether event @ev may be opened on CPU scope @cpu: a PMU with a cpumask file (uncore,
 * power, ...) only on the CPUs of its mask; a per-pkg event without one on the first
 * counted CPU of each package (perf's evsel per_pkg rule). */
static bool on_cpu(const struct pl_cnt_session *s, const struct pl_cnt_event *ev, size_t sc,
		   const char *mask)
{
	int cpu = s->scopes[sc].cpu;
	if (mask) {
		struct pl_cpuset cs;
		if (pl_cpuset_parse(mask, &cs) == 0 && pl_cpuset_count(&cs) > 0)
			return pl_cpuset_isset(&cs, (unsigned)cpu);
	}
	if (!ev->per_pkg)
		return true;
	for (size_t k = 0; k < sc; k++)
		if (s->scopes[k].socket == s->scopes[sc].socket)
			return false;
	return true;
}

static const char *open_why(int e)
{
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		return "the kernel or this PMU does not support it";
	case EINVAL:
		return "the kernel refused its attributes (EINVAL)";
	case EACCES:
	case EPERM:
		return "perf_event_open refused (permission)";
	case EMFILE:
		return "too many open files (raise ulimit -n)";
	default:
		return strerror(e);
	}
}

static void fail_event(struct pl_cnt_session *s, size_t ev, int e)
{
	if (!s->ev_errno[ev]) {
		s->ev_errno[ev] = e;
		snprintf(s->ev_why[ev], sizeof(s->ev_why[0]), "%s", open_why(e));
	}
}

/* Open event @ev on scope @sc, in the group led by fds[@leader] (or as a leader when
 * @leader is SIZE_MAX). Returns 0 or -errno. */
static int open_one(struct pl_cnt_session *s, size_t ev, size_t sc, size_t leader)
{
	const struct pl_cnt_config *c = &s->cfg;
	struct perf_event_attr a = c->evs[ev].attr;
	a.size = sizeof(a);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID | (s->group_read ? PERF_FORMAT_GROUP : 0);
	bool lead = leader == SIZE_MAX;
	bool task = !s->cpu_scopes;
	a.disabled = lead;
	a.inherit = task;
	a.enable_on_exec = lead && (c->argv || c->held > 0) && task;
	pid_t pid = task ? s->scopes[sc].tid : (s->cgroup_fd >= 0 ? s->cgroup_fd : -1);
	int cpu = task ? -1 : s->scopes[sc].cpu;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC | (s->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0);
	int gfd = lead ? -1 : s->fds[leader].fd;
	int fd = pl_cnt_open_hook(&a, pid, cpu, gfd, flags);
	if (fd < 0)
		return -errno;
	uint64_t id = 0;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	s->fds = pl_xrealloc(s->fds, (s->nfds + 1) * sizeof(*s->fds));
	struct pl_cnt_fd *f = &s->fds[s->nfds];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->ev = ev;
	f->scope = sc;
	f->id = id;
	f->leader = lead ? s->nfds : leader;
	s->nfds++;
	return 0;
}

/* Every event on scope @sc: each group's first event that opens leads it; an event of a
 * group whose leader failed opens alone. */
static int open_scope(struct pl_cnt_session *s, size_t sc, char (*masks)[256], const bool *hasmask)
{
	const struct pl_cnt_config *c = &s->cfg;
	for (size_t i = 0; i < c->nevs; i++) {
		const struct pl_cnt_event *ev = &c->evs[i];
		if (ev->source != PL_CNT_PERF) {
			fail_event(s, i, EOPNOTSUPP);
			continue;
		}
		if (s->cpu_scopes && !on_cpu(s, ev, sc, hasmask[i] ? masks[i] : NULL))
			continue;
		int g = c->group ? c->group[i] : -1;
		size_t leader = SIZE_MAX;
		/* the group's leader on this scope: the first fd of an earlier event of the
		 * same group */
		for (size_t k = 0; g >= 0 && k < s->nfds && leader == SIZE_MAX; k++) {
			const struct pl_cnt_fd *f = &s->fds[k];
			if (f->scope == sc && f->leader == k && c->group[f->ev] == g)
				leader = k;
		}
		int r = open_one(s, i, sc, leader);
		if (r == -EINVAL && leader == SIZE_MAX && s->group_read && !s->cpu_scopes) {
			/* a kernel that refuses PERF_FORMAT_GROUP with inherit: read every
			 * event on its own (perf's fallback too) */
			s->group_read = false;
			for (size_t k = 0; k < s->nfds; k++)
				close(s->fds[k].fd);
			s->nfds = 0;
			return -EAGAIN;
		}
		if (r < 0 && leader != SIZE_MAX)
			r = open_one(s, i, sc, SIZE_MAX);
		if (r == -EMFILE)
			return r;
		if (r < 0)
			fail_event(s, i, -r);
	}
	return 0;
}

static int open_all(struct pl_cnt_session *s)
{
	const struct pl_cnt_config *c = &s->cfg;
	char(*masks)[256] = pl_xcalloc(c->nevs ? c->nevs : 1, sizeof(*masks));
	bool *hasmask = pl_xcalloc(c->nevs ? c->nevs : 1, sizeof(bool));
	for (size_t i = 0; i < c->nevs; i++) {
		pl_autofree char *m = NULL;
		if (s->cpu_scopes && c->evs[i].pmu[0] &&
		    pl_read_strf(&m, "/sys/bus/event_source/devices/%s/cpumask", c->evs[i].pmu) ==
			    0) {
			snprintf(masks[i], sizeof(masks[0]), "%s", pl_trim(m));
			hasmask[i] = true;
		}
	}
	int r = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		memset(s->ev_errno, 0, c->nevs * sizeof(int));
		r = 0;
		for (size_t sc = 0; sc < s->nscopes && r == 0; sc++)
			r = open_scope(s, sc, masks, hasmask);
		if (r != -EAGAIN)
			break;
	}
	free(masks);
	free(hasmask);
	for (size_t i = 0; i < c->nevs; i++) {
		bool any = false;
		for (size_t k = 0; k < s->nfds && !any; k++)
			any = s->fds[k].ev == i;
		if (any) { /* opened somewhere: counted where it could be */
			s->ev_errno[i] = 0;
			s->ev_why[i][0] = '\0';
		} else if (!s->ev_errno[i]) {
			fail_event(s, i, ENODEV);
		}
	}
	return r;
}

int pl_cnt_session_open(struct pl_cnt_session *s, const struct pl_cnt_config *cfg, char *err,
			size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->child = -1;
	s->go_fd = s->err_fd = s->cgroup_fd = -1;
	s->group_read = true;
	s->ev_errno = pl_xcalloc(cfg->nevs ? cfg->nevs : 1, sizeof(int));
	s->ev_why = pl_xcalloc(cfg->nevs ? cfg->nevs : 1, sizeof(*s->ev_why));
	err[0] = '\0';
	int r = 0;
	if (cfg->cgroup) {
		r = open_cgroup(s, cfg->cgroup, err, errlen);
		if (r < 0)
			return r;
	}
	if (cfg->system_wide || cfg->cpus || cfg->cgroup) {
		r = cpu_scopes(s, cfg->cpus);
		if (r < 0) {
			snprintf(err, errlen, "no CPUs to count on (%s)",
				 cfg->cpus ? cfg->cpus : "/sys/devices/system/cpu/online");
			return r;
		}
	} else if (cfg->pids) {
		r = thread_scopes(s, cfg->pids);
		if (r < 0) {
			snprintf(err, errlen, "-p '%s': a process is gone or not a process id",
				 cfg->pids);
			return r;
		}
	}
	if (cfg->argv) {
		r = start_child(s, cfg->argv);
		if (r < 0) {
			snprintf(err, errlen, "cannot start '%s': %s", cfg->argv[0], strerror(-r));
			return r;
		}
		if (!s->nscopes)
			add_scope(s, -1, s->child);
	} else if (cfg->held > 0 && !s->nscopes) {
		add_scope(s, -1, cfg->held);
	}
	r = open_all(s);
	if (r < 0) {
		snprintf(err, errlen, "cannot open the counters: %s", strerror(-r));
		return r;
	}
	return 0;
}

/* ---- reading ---- */

/* Read every group leader (or every fd without group reads) into fds[].cur. */
static void read_all(struct pl_cnt_session *s)
{
	/* a group read holds 3 words and 2 per member; a group has at most every fd */
	size_t words = 3 + 2 * (s->nfds ? s->nfds : 1);
	pl_autofree uint64_t *buf = pl_xmalloc(words * sizeof(uint64_t));
	for (size_t i = 0; i < s->nfds; i++) {
		struct pl_cnt_fd *f = &s->fds[i];
		if (s->group_read && f->leader != i)
			continue;
		ssize_t n = read(f->fd, buf, words * sizeof(uint64_t));
		if (n < (ssize_t)(4 * sizeof(uint64_t)))
			continue;
		if (!s->group_read) {
			/* value, enabled, running, id */
			f->cur[0] = buf[0];
			f->cur[1] = buf[1];
			f->cur[2] = buf[2];
			continue;
		}
		/* nr, enabled, running, then (value, id) per member */
		uint64_t nr = buf[0];
		size_t most = ((size_t)n / sizeof(uint64_t) - 3) / 2;
		if (nr > most)
			nr = most;
		for (uint64_t k = 0; k < nr; k++) {
			uint64_t val = buf[3 + 2 * k], id = buf[4 + 2 * k];
			for (size_t j = i; j < s->nfds; j++) {
				struct pl_cnt_fd *m = &s->fds[j];
				if (m->leader == i && m->id == id) {
					m->cur[0] = val;
					m->cur[1] = buf[1];
					m->cur[2] = buf[2];
					break;
				}
			}
		}
	}
}

/* The aggregation key of a scope. */
static int scope_key(const struct pl_cnt_session *s, size_t sc)
{
	const struct pl_cnt_scope *p = &s->scopes[sc];
	switch (s->cfg.aggr) {
	case PL_CNT_AGGR_CPU:
		return p->cpu;
	case PL_CNT_AGGR_SOCKET:
		return p->socket;
	case PL_CNT_AGGR_THREAD:
		return p->tid;
	default:
		return 0;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* fds[].cur minus fds[].base, aggregated per key and event, into @r (keys sorted, the
 * events in their order within each key). */
static void make_result(const struct pl_cnt_session *s, struct pl_cnt_result *r)
{
	const struct pl_cnt_config *c = &s->cfg;
	int *keys = pl_xmalloc((s->nscopes + 1) * sizeof(int));
	size_t nk = 0;
	for (size_t sc = 0; sc < s->nscopes; sc++) {
		int k = scope_key(s, sc);
		bool seen = false;
		for (size_t j = 0; j < nk && !seen; j++)
			seen = keys[j] == k;
		if (!seen)
			keys[nk++] = k;
	}
	if (!nk)
		keys[nk++] = 0;
	qsort(keys, nk, sizeof(int), cmp_int);
	pl_cnt_result_free(r);
	r->n = nk * c->nevs;
	r->v = pl_xcalloc(r->n ? r->n : 1, sizeof(*r->v));
	r->ncpus = s->cpu_scopes ? (int)s->nscopes : 0;
	for (size_t k = 0; k < nk; k++)
		for (size_t e = 0; e < c->nevs; e++) {
			struct pl_cnt_value *v = &r->v[k * c->nevs + e];
			v->ev = &c->evs[e];
			v->cpu = c->aggr == PL_CNT_AGGR_CPU ? keys[k] : -1;
			v->socket = c->aggr == PL_CNT_AGGR_SOCKET ? keys[k] : -1;
			v->tid = c->aggr == PL_CNT_AGGR_THREAD ? keys[k] : 0;
			v->supported = s->ev_errno[e] == 0;
			snprintf(v->why, sizeof(v->why), "%s", s->ev_why[e]);
			double value = 0;
			bool counted = false;
			for (size_t i = 0; i < s->nfds; i++) {
				const struct pl_cnt_fd *f = &s->fds[i];
				if (f->ev != e || scope_key(s, f->scope) != keys[k])
					continue;
				struct pl_cnt_value one = { .ev = v->ev };
				one.raw = f->cur[0] - f->base[0];
				one.enabled_ns = f->cur[1] - f->base[1];
				one.running_ns = f->cur[2] - f->base[2];
				pl_cnt_scale(&one);
				v->raw += one.raw;
				v->enabled_ns += one.enabled_ns;
				v->running_ns += one.running_ns;
				value += one.value;
				counted |= one.counted;
			}
			v->value = counted ? value : 0;
			v->counted = counted;
		}
	free(keys);
}

/* ---- the run ---- */

static bool any_alive(const struct pl_cnt_session *s)
{
	pl_autostrv char **v = pl_split(s->cfg.pids, ",", NULL);
	for (size_t i = 0; v[i]; i++) {
		uint64_t pid;
		if (pl_parse_u64(v[i], &pid) == 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			return true;
	}
	return false;
}

static void reap(struct pl_cnt_session *s, bool block)
{
	if (s->child <= 0 || s->exited)
		return;
	if (wait4(s->child, &s->child_status, block ? 0 : WNOHANG, &s->child_ru) == s->child)
		s->exited = true;
}

/* Release the held command: the go byte, then the exec's result (the error pipe closes
 * at a successful exec). */
static int release_child(struct pl_cnt_session *s, char *err, size_t errlen)
{
	const char *cmd = s->cfg.argv[0];
	char c = 'g';
	if (write(s->go_fd, &c, 1) != 1) {
		int e = errno;
		snprintf(err, errlen, "cannot start '%s': %s", cmd, strerror(e));
		return -e;
	}
	pl_closep(&s->go_fd);
	int e = 0;
	ssize_t n = read(s->err_fd, &e, sizeof(e));
	pl_closep(&s->err_fd);
	if (n == (ssize_t)sizeof(e)) {
		reap(s, true);
		snprintf(err, errlen, "cannot run '%s': %s", cmd, pl_exec_strerror(cmd, e));
		return -e;
	}
	return 0;
}

static void interval(struct pl_cnt_session *s, uint64_t now)
{
	read_all(s);
	make_result(s, &s->iv);
	s->iv.start_ns = s->iv_t - s->t0;
	s->iv.elapsed_ns = now - s->iv_t;
	s->iv_t = now;
	if (s->cfg.on_interval)
		s->cfg.on_interval(&s->iv, s->cfg.ctx);
	for (size_t i = 0; i < s->nfds; i++)
		memcpy(s->fds[i].base, s->fds[i].cur, sizeof(s->fds[i].base));
}

int pl_cnt_session_run(struct pl_cnt_session *s, struct pl_cnt_result *total, char *err,
		       size_t errlen)
{
	const struct pl_cnt_config *c = &s->cfg;
	err[0] = '\0';
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	bool task_cmd = c->argv && !s->cpu_scopes;
	/* The wall-clock window holds the counting window, as perf stat's does: t0 before the
	 * first enable, t1 after the last disable, so a count of time (task-clock on every
	 * CPU) never exceeds elapsed x CPUs, however long this process waits between the
	 * ioctls on a busy machine. */
	s->t0 = s->iv_t = pl_now_ns();
	if (!task_cmd)
		for (size_t i = 0; i < s->nfds; i++)
			if (s->fds[i].leader == i)
				ioctl(s->fds[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	int rc = 0;
	if (c->argv) {
		rc = release_child(s, err, errlen);
		if (rc < 0)
			goto out;
	}
	uint64_t step = (uint64_t)c->interval_ms * 1000000ull, next = s->t0 + step;
	for (;;) {
		if (c->argv) {
			reap(s, false);
			if (s->exited)
				break;
		}
		uint64_t now = pl_now_ns();
		if (step && now >= next) {
			interval(s, now);
			while (next <= now)
				next += step;
			continue;
		}
		uint64_t wait_ns = step ? next - now : 0;
		if (c->pids && !c->argv && (!wait_ns || wait_ns > 200000000ull))
			wait_ns = 200000000ull; /* -p: see the processes exit */
		struct timespec ts = { (time_t)(wait_ns / 1000000000ull),
				       (long)(wait_ns % 1000000000ull) };
		siginfo_t si;
		int sig = sigtimedwait(&set, &si, wait_ns ? &ts : NULL);
		if (sig == SIGINT || sig == SIGTERM) {
			s->interrupted = true;
			s->stop_signal = sig;
			break;
		}
		if (sig < 0 && errno == EAGAIN && c->pids && !c->argv && !any_alive(s))
			break;
	}
	if (s->interrupted && c->argv && !s->exited) {
		/* the command gets the same signal (from a terminal it has it already) and
		 * 2 s to exit before SIGKILL */
		kill(s->child, s->stop_signal);
		for (int i = 0; i < 200 && !s->exited; i++) {
			reap(s, false);
			if (!s->exited)
				usleep(10000);
		}
	}
	for (size_t i = 0; i < s->nfds; i++)
		if (s->fds[i].leader == i)
			ioctl(s->fds[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	s->t1 = pl_now_ns();
	if (step && s->t1 > s->iv_t)
		interval(s, s->t1); /* the last, partial interval */
	read_all(s);
	for (size_t i = 0; i < s->nfds; i++)
		memset(s->fds[i].base, 0, sizeof(s->fds[i].base));
	make_result(s, total);
	total->elapsed_ns = s->t1 - s->t0;
	total->start_ns = 0;
out:
	for (size_t i = 0; i < s->nfds; i++)
		if (s->fds[i].leader == i)
			ioctl(s->fds[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	/* signals that came after the loop are answered here, not by the default action */
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void pl_cnt_session_start(struct pl_cnt_session *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		if (s->fds[i].leader == i)
			ioctl(s->fds[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	s->t0 = s->iv_t = pl_now_ns();
}

int pl_cnt_session_read(struct pl_cnt_session *s, struct pl_cnt_result *total, uint64_t elapsed_ns)
{
	read_all(s);
	for (size_t i = 0; i < s->nfds; i++)
		memset(s->fds[i].base, 0, sizeof(s->fds[i].base));
	make_result(s, total);
	total->elapsed_ns = elapsed_ns;
	total->start_ns = 0;
	return 0;
}

void pl_cnt_session_close(struct pl_cnt_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i].fd);
	if (s->child > 0 && !s->exited) {
		kill(s->child, SIGKILL);
		reap(s, true);
	}
	pl_closep(&s->go_fd);
	pl_closep(&s->err_fd);
	pl_closep(&s->cgroup_fd);
	pl_cnt_result_free(&s->iv);
	free(s->fds);
	free(s->scopes);
	free(s->ev_errno);
	free(s->ev_why);
	s->fds = NULL;
	s->scopes = NULL;
	s->ev_errno = NULL;
	s->ev_why = NULL;
	s->nfds = s->nscopes = 0;
}

const char *pl_cnt_session_comm(const struct pl_cnt_session *s, int tid)
{
	for (size_t i = 0; i < s->nscopes; i++)
		if (s->scopes[i].tid == tid)
			return s->scopes[i].comm;
	return "";
}
