/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler events of --off-cpu: the reader (ring records -> log) and the collector
 * (events, rings, drain) (profile/sched_collect.h). */
#include "profile/sched_collect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "profile/decode.h"
#include "profile/perf_event.h"
#include "profile/tracefs.h"
#include "util/clock.h"
#include "util/str.h"

/* ---- formats ---- */

static bool int_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* Field @name of @fmt into *@f; @any_size: any positive size (char arrays). */
static int field(const char *fmt, const char *name, struct pl_sched_field *f, bool any_size)
{
	int off = -1, size = -1;
	if (pl_tracefs_field(fmt, name, &off, &size) < 0 || (!any_size && !int_size(size)))
		return -ENOENT;
	f->off = off;
	f->size = size;
	return 0;
}

int pl_sched_format_parse(struct pl_sched_format *f, const uint64_t ids[3],
			  const char *const fmt[3])
{
	memset(f, 0, sizeof(*f));
	f->id_switch = ids[0];
	f->id_waking = ids[1];
	f->id_migrate = ids[2];
	int r = 0;
	r |= field(fmt[0], "common_type", &f->common_type, false);
	r |= field(fmt[0], "prev_comm", &f->prev_comm, true);
	r |= field(fmt[0], "prev_pid", &f->prev_pid, false);
	r |= field(fmt[0], "prev_state", &f->prev_state, false);
	r |= field(fmt[0], "next_pid", &f->next_pid, false);
	r |= field(fmt[1], "pid", &f->wk_pid, false);
	r |= field(fmt[1], "target_cpu", &f->wk_target_cpu, false);
	/* optional: without it a waking from an interrupt is blamed on the interrupted task */
	if (field(fmt[1], "common_flags", &f->wk_flags, false) < 0)
		f->wk_flags = (struct pl_sched_field){ .off = -1, .size = 0 };
	r |= field(fmt[2], "pid", &f->mg_pid, false);
	r |= field(fmt[2], "dest_cpu", &f->mg_dest_cpu, false);
	return r ? -ENOENT : 0;
}

bool pl_sched_raw_field(const uint8_t *raw, uint32_t raw_size, struct pl_sched_field f, uint64_t *v)
{
	if (f.off < 0 || !int_size(f.size) || (uint64_t)f.off + (uint64_t)f.size > raw_size)
		return false;
	uint8_t b[8] = { 0 };
	memcpy(b, raw + f.off, (size_t)f.size);
	uint64_t x = 0;
	/* host order (the record is the running kernel's): assemble as the host stores it */
	switch (f.size) {
	case 1:
		x = b[0];
		break;
	case 2: {
		uint16_t y;
		memcpy(&y, b, 2);
		x = y;
		break;
	}
	case 4: {
		uint32_t y;
		memcpy(&y, b, 4);
		x = y;
		break;
	}
	default:
		memcpy(&x, b, 8);
		break;
	}
	*v = x;
	return true;
}

/* ---- the reader ---- */

void pl_sched_reader_init(struct pl_sched_reader *r, const struct pl_sched_format *fmt,
			  struct pl_sched_log *log, struct pl_profile *prof, const int *cpus,
			  size_t nrings)
{
	memset(r, 0, sizeof(*r));
	r->fmt = *fmt;
	r->log = log;
	r->prof = prof;
	r->nrings = nrings ? nrings : 1;
	r->rings = pl_xcalloc(r->nrings, sizeof(*r->rings));
	for (size_t i = 0; i < nrings; i++)
		r->rings[i].cpu = (uint32_t)cpus[i];
}

void pl_sched_reader_free(struct pl_sched_reader *r)
{
	if (!r)
		return;
	free(r->rings);
	free(r->forks);
	r->rings = NULL;
	r->forks = NULL;
	r->nrings = r->nforks = r->capforks = 0;
}

static struct pl_sched_ring_state *cur_ring(struct pl_sched_reader *r)
{
	return &r->rings[r->ring < r->nrings ? r->ring : 0];
}

static void add_gap(struct pl_sched_log *log, uint32_t cpu, uint64_t from, uint64_t to)
{
	if (log->ngaps == log->capgaps) {
		log->capgaps = log->capgaps ? log->capgaps * 2 : 16;
		log->gaps = pl_xrealloc(log->gaps, log->capgaps * sizeof(*log->gaps));
	}
	log->gaps[log->ngaps++] = (struct pl_sched_gap){ cpu, from, to };
}

/* An event read from the current ring at @time: closes the ring's open gap, unless it
 * is older than the gap's start (an event written out of order from an interrupt): the
 * next one at or after the start closes it, so a gap never runs backwards. */
static void ring_saw(struct pl_sched_reader *r, uint64_t time)
{
	struct pl_sched_ring_state *rs = cur_ring(r);
	uint64_t from = rs->last ? rs->last : r->log->t0;
	if (rs->gap_open && time >= from) {
		add_gap(r->log, rs->cpu, from, time);
		rs->gap_open = false;
	}
	if (time > rs->last)
		rs->last = time;
}

static struct pl_sched_ev *push(struct pl_sched_log *log)
{
	if (log->n == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 65536;
		log->ev = pl_xrealloc(log->ev, log->cap * sizeof(*log->ev));
	}
	struct pl_sched_ev *e = &log->ev[log->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* The sample's callchain without the PERF_CONTEXT_* markers, interned for @pid. */
static uint32_t intern(struct pl_sched_reader *r, const struct pl_sample *s)
{
	if (!r->prof || !s->ips || !s->nr)
		return PL_SCHED_NO_STACK;
	uint64_t buf[512];
	uint32_t n = 0;
	for (uint64_t i = 0; i < s->nr && n < 512; i++)
		if (s->ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			buf[n++] = s->ips[i];
	return n ? pl_profile_intern_stack(r->prof, s->pid, buf, n) : PL_SCHED_NO_STACK;
}

/* A thread's name in the profile as of @time (ns; 0: untimed), when it has none yet
 * (@force: unless it has one from a later record, pl_thread.comm_time). */
static void name_thread(struct pl_sched_reader *r, uint32_t pid, uint32_t tid, const char *comm,
			size_t max, bool force, uint64_t time)
{
	if (!r->prof || !tid)
		return;
	struct pl_thread *t = pl_profile_thread(r->prof, pid, tid);
	if (t->comm[0] && (!force || (time && time < t->comm_time)))
		return;
	size_t n = strnlen(comm, max < sizeof(t->comm) - 1 ? max : sizeof(t->comm) - 1);
	memset(t->comm, 0, sizeof(t->comm));
	memcpy(t->comm, comm, n);
	t->comm_time = time;
}

static void on_sample(struct pl_sched_reader *r, const struct perf_event_header *rec)
{
	struct pl_sample s;
	uint64_t type;
	const struct pl_sched_format *f = &r->fmt;
	if (pl_parse_sample(rec, PL_SCHED_SAMPLE_TYPE, 0, &s) < 0 || !s.raw ||
	    !pl_sched_raw_field(s.raw, s.raw_size, f->common_type, &type)) {
		r->bad++;
		return;
	}
	struct pl_sched_ev e = { .time = s.time,
				 .cpu = s.cpu,
				 .pid = s.pid,
				 .tid = s.tid,
				 .target_cpu = s.cpu,
				 .stack = PL_SCHED_NO_STACK };
	uint64_t a = 0, b = 0, c = 0;
	if (type == f->id_switch && type != f->id_waking && type != f->id_migrate) {
		if (!pl_sched_raw_field(s.raw, s.raw_size, f->prev_pid, &a) ||
		    !pl_sched_raw_field(s.raw, s.raw_size, f->prev_state, &b) ||
		    !pl_sched_raw_field(s.raw, s.raw_size, f->next_pid, &c)) {
			r->bad++;
			return;
		}
		e.kind = PL_SCHED_SWITCH;
		e.tid = (uint32_t)a; /* prev: the task current when it fired */
		e.prev_state = (uint8_t)pl_task_state_of(b);
		e.other_tid = (uint32_t)c;
		e.stack = intern(r, &s);
		if (f->prev_comm.off >= 0 && f->prev_comm.size > 0 &&
		    (uint64_t)f->prev_comm.off + (uint64_t)f->prev_comm.size <= s.raw_size)
			name_thread(r, e.pid, e.tid, (const char *)s.raw + f->prev_comm.off,
				    (size_t)f->prev_comm.size, false, e.time);
	} else if (type == f->id_waking && type != f->id_migrate) {
		if (!pl_sched_raw_field(s.raw, s.raw_size, f->wk_pid, &a) ||
		    !pl_sched_raw_field(s.raw, s.raw_size, f->wk_target_cpu, &b)) {
			r->bad++;
			return;
		}
		e.kind = PL_SCHED_WAKING;
		uint64_t flags = 0;
		if (pl_sched_raw_field(s.raw, s.raw_size, f->wk_flags, &flags))
			e.waker_ctx = (uint8_t)pl_sched_ctx_of_flags(flags);
		e.other_tid = (uint32_t)a;
		e.target_cpu = (uint32_t)b;
		e.stack = intern(r, &s);
	} else if (type == f->id_migrate) {
		if (!pl_sched_raw_field(s.raw, s.raw_size, f->mg_pid, &a) ||
		    !pl_sched_raw_field(s.raw, s.raw_size, f->mg_dest_cpu, &b)) {
			r->bad++;
			return;
		}
		e.kind = PL_SCHED_MIGRATE;
		e.other_tid = (uint32_t)a;
		e.target_cpu = (uint32_t)b;
	} else {
		r->bad++;
		return;
	}
	ring_saw(r, e.time);
	cur_ring(r)->read++;
	*push(r->log) = e;
}

/* FORK and EXIT: { u32 pid, ppid; u32 tid, ptid; u64 time; sample_id }. */
static void on_task(struct pl_sched_reader *r, const struct perf_event_header *rec)
{
	const uint8_t *b = (const uint8_t *)(rec + 1);
	if (rec->size < sizeof(*rec) + 24)
		return;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	memcpy(&pid, b, 4);
	memcpy(&ppid, b + 4, 4);
	memcpy(&tid, b + 8, 4);
	memcpy(&ptid, b + 12, 4);
	memcpy(&time, b + 16, 8);
	struct pl_sample_id sid;
	uint32_t cpu = cur_ring(r)->cpu;
	if (rec->size >= sizeof(*rec) + 24 + 4 * 8 &&
	    pl_parse_sample_id(rec, PL_SCHED_SAMPLE_TYPE, &sid) == 0)
		cpu = sid.cpu;
	bool fork = rec->type == PERF_RECORD_FORK;
	struct pl_sched_ev *e = push(r->log);
	*e = (struct pl_sched_ev){ .time = time,
				   .cpu = cpu,
				   .kind = fork ? PL_SCHED_FORK : PL_SCHED_EXIT,
				   .pid = pid,
				   .tid = tid,
				   .other_tid = fork ? ptid : 0,
				   .target_cpu = cpu,
				   .stack = PL_SCHED_NO_STACK };
	ring_saw(r, time);
	if (fork && pid != ppid) {
		if (r->nforks == r->capforks) {
			r->capforks = r->capforks ? r->capforks * 2 : 64;
			r->forks = pl_xrealloc(r->forks, r->capforks * sizeof(*r->forks));
		}
		r->forks[r->nforks++] = (struct pl_sched_fork){ pid, ppid, time };
	}
}

int pl_sched_reader_record(void *ctx, const struct perf_event_header *rec)
{
	struct pl_sched_reader *r = ctx;
	const uint8_t *b = (const uint8_t *)(rec + 1);
	size_t blen = rec->size - sizeof(*rec);
	uint64_t v;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(r, rec);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		on_task(r, rec);
		break;
	case PERF_RECORD_COMM: /* { u32 pid, tid; char comm[]; sample_id } */
		if (blen > 8) {
			uint32_t pid, tid;
			memcpy(&pid, b, 4);
			memcpy(&tid, b + 4, 4);
			struct pl_sample_id sid = { 0 };
			if (pl_parse_sample_id(rec, PL_SCHED_SAMPLE_TYPE, &sid) < 0)
				sid.time = 0;
			name_thread(r, pid, tid, (const char *)b + 8, blen - 8, true, sid.time);
		}
		break;
	case PERF_RECORD_LOST: /* { u64 id; u64 lost; sample_id } */
	case PERF_RECORD_LOST_SAMPLES: /* { u64 lost; sample_id } */ {
		size_t at = rec->type == PERF_RECORD_LOST ? 8 : 0;
		if (blen < at + 8)
			break;
		memcpy(&v, b + at, 8);
		struct pl_sched_ring_state *rs = cur_ring(r);
		rs->lost += v;
		if (v)
			rs->gap_open = true;
		break;
	}
	default:
		break;
	}
	return 0;
}

/* Stable sort of the events by time: a natural merge sort (qsort is not stable, and ties
 * keep ring order). The log is a concatenation of sorted chunks (each drain of each ring
 * is in time order but for the odd event written from an interrupt), so merging the runs
 * already there takes a few passes where a plain bottom-up merge takes log2(n). */
static void sort_events(struct pl_sched_log *log)
{
	size_t n = log->n;
	if (n < 2)
		return;
	/* the run boundaries: run k is [b[k], b[k + 1]) */
	size_t nb = 1, capb = 64;
	size_t *b = pl_xmalloc(capb * sizeof(*b));
	b[0] = 0;
	for (size_t i = 1; i <= n; i++) {
		if (i < n && log->ev[i].time >= log->ev[i - 1].time)
			continue;
		if (nb == capb) {
			capb *= 2;
			b = pl_xrealloc(b, capb * sizeof(*b));
		}
		b[nb++] = i;
	}
	if (nb == 2) { /* already sorted */
		free(b);
		return;
	}
	struct pl_sched_ev *a = log->ev, *t = pl_xmalloc(n * sizeof(*t));
	while (nb > 2) {
		size_t out = 1;
		for (size_t k = 0; k + 1 < nb; k += 2) {
			size_t lo = b[k], mid = b[k + 1], hi = k + 2 < nb ? b[k + 2] : mid;
			size_t i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				t[o++] = a[j].time < a[i].time ? a[j++] : a[i++];
			memcpy(t + o, a + i, (mid - i) * sizeof(*a));
			o += mid - i;
			memcpy(t + o, a + j, (hi - j) * sizeof(*a));
			b[out++] = hi;
		}
		nb = out;
		struct pl_sched_ev *x = a;
		a = t;
		t = x;
	}
	free(b);
	if (a != log->ev) {
		memcpy(log->ev, a, n * sizeof(*a));
		t = a;
	}
	free(t);
}

static int cmp_gap(const void *x, const void *y)
{
	const struct pl_sched_gap *a = x, *b = y;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static int cmp_fork(const void *x, const void *y)
{
	const struct pl_sched_fork *a = x, *b = y;
	return (a->time > b->time) - (a->time < b->time);
}

static bool has_pid(const uint32_t *v, size_t n, uint32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* The seeds and their descendants: the forks in time order, so a child's own children
 * follow it (repeated until nothing is added, for forks that share a timestamp). */
static void targets(struct pl_sched_reader *r, const uint32_t *seeds, size_t nseeds)
{
	struct pl_sched_log *log = r->log;
	size_t cap = nseeds + 16;
	uint32_t *v = pl_xmalloc(cap * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < nseeds; i++)
		if (!has_pid(v, n, seeds[i]))
			v[n++] = seeds[i];
	if (r->nforks > 1)
		qsort(r->forks, r->nforks, sizeof(*r->forks), cmp_fork);
	for (bool added = true; added;) {
		added = false;
		for (size_t i = 0; i < r->nforks; i++) {
			const struct pl_sched_fork *fk = &r->forks[i];
			if (!has_pid(v, n, fk->ppid) || has_pid(v, n, fk->pid))
				continue;
			if (n == cap) {
				cap *= 2;
				v = pl_xrealloc(v, cap * sizeof(*v));
			}
			v[n++] = fk->pid;
			added = true;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u32);
	log->pids = v;
	log->npids = n;
}

void pl_sched_reader_finish(struct pl_sched_reader *r, const uint32_t *seeds, size_t nseeds,
			    bool all)
{
	struct pl_sched_log *log = r->log;
	uint64_t lost = 0;
	for (size_t i = 0; i < r->nrings; i++) {
		struct pl_sched_ring_state *rs = &r->rings[i];
		uint64_t ring_lost = rs->lost;
		/* unreported drops: the kernel reports a drop only in a record written after
		 * it, so those it did not report lie after the ring's last record */
		uint64_t dropped = rs->have_klost	  ? rs->klost
				   : rs->fired > rs->read ? rs->fired - rs->read
							  : 0;
		if (rs->have_fired && dropped > rs->lost) {
			ring_lost = dropped;
			rs->gap_open = true;
		}
		if (rs->gap_open) {
			uint64_t from = rs->last ? rs->last : log->t0;
			add_gap(log, rs->cpu, from, log->t1 > from ? log->t1 : from);
			rs->gap_open = false;
		}
		lost += ring_lost;
	}
	log->lost = lost;
	sort_events(log);
	if (log->ngaps > 1)
		qsort(log->gaps, log->ngaps, sizeof(*log->gaps), cmp_gap);
	free(log->pids);
	log->pids = NULL;
	log->npids = 0;
	log->all = all;
	if (!all)
		targets(r, seeds, nseeds);
}

/* ---- the collector ---- */

struct pl_sched_collect {
	struct pl_sched_reader rd;
	struct pl_pe_session s; /* fds and rings (the session struct reused) */
	int *fd_ring;		/* the ring of each fd */
	uint8_t *scratch;
	bool klost; /* the events read PERF_FORMAT_LOST */
};

static int open_one(struct pl_sched_collect *c, struct perf_event_attr *a, int cpu, size_t ring)
{
	int fd = pl_perf_open_hook(a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -(errno ? errno : EIO);
	c->s.fds[c->s.nfds] = fd;
	c->fd_ring[c->s.nfds] = (int)ring;
	c->s.nfds++;
	return fd;
}

/* mmap the ring of @fd with @pages data pages, halving while the locked-memory limit
 * refuses it (EPERM: perf_event_mlock_kb and RLIMIT_MEMLOCK for an unprivileged user). */
static int map_ring(struct pl_pe_ring *rg, int fd, uint32_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	for (;;) {
		rg->fd = fd;
		rg->map_len = (size_t)(pages + 1) * (size_t)pg;
		rg->base = mmap(NULL, rg->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (rg->base != MAP_FAILED)
			break;
		int e = errno;
		rg->base = NULL;
		if ((e != EPERM && e != ENOMEM) || pages <= 16)
			return -e;
		pages /= 2;
	}
	rg->data = (uint8_t *)rg->base + pg;
	rg->data_size = (uint64_t)pages * (uint64_t)pg;
	return 0;
}

/* The three tracepoints' ids and formats. */
static int read_format(struct pl_sched_format *f)
{
	const char *dir = pl_tracefs_dir("sched");
	if (!dir)
		return pl_tracefs_missing_errno();
	static const char *const evs[3] = { "sched_switch", "sched_waking", "sched_migrate_task" };
	uint64_t ids[3];
	char *fmt[3] = { NULL, NULL, NULL };
	int r = 0;
	for (int i = 0; i < 3 && r == 0; i++)
		r = pl_tracefs_event(dir, "sched", evs[i], &ids[i], &fmt[i]);
	if (r == 0)
		r = pl_sched_format_parse(f, ids, (const char *const *)fmt);
	for (int i = 0; i < 3; i++)
		free(fmt[i]);
	return r;
}

int pl_sched_open(struct pl_sched_collect **out, const int *cpus, size_t ncpus, uint32_t ring_pages,
		  struct pl_sched_log *log, struct pl_profile *prof, enum pl_sched_stage *stage)
{
	*out = NULL;
	memset(log, 0, sizeof(*log));
	*stage = PL_SCHED_STAGE_TRACEFS;
	struct pl_sched_format f;
	int r = read_format(&f);
	if (r < 0)
		return r;
	struct pl_sched_collect *c = pl_xcalloc(1, sizeof(*c));
	pl_sched_reader_init(&c->rd, &f, log, prof, cpus, ncpus);
	c->s.fds = pl_xcalloc(ncpus * 3, sizeof(int));
	c->fd_ring = pl_xcalloc(ncpus * 3, sizeof(int));
	c->s.rings = pl_xcalloc(ncpus, sizeof(*c->s.rings));
	c->scratch = pl_xmalloc(PL_REC_MAX);
	c->klost = true;
	uint32_t pages = ring_pages ? ring_pages : PL_SCHED_RING_PAGES;
	const uint64_t ids[3] = { f.id_switch, f.id_waking, f.id_migrate };
	for (size_t i = 0; i < ncpus; i++) {
		int leader = -1;
		for (int k = 0; k < 3; k++) {
			struct perf_event_attr a = { 0 };
			a.size = sizeof(a);
			a.type = PERF_TYPE_TRACEPOINT;
			a.config = ids[k];
			a.sample_period = 1;
			a.sample_type = PL_SCHED_SAMPLE_TYPE;
			/* Callchains only where the analysis reads them (profile/offcpu.c): the
			 * switch-out stack (kernel and user) and the waker's kernel path; the
			 * waker's user frames cost the target as much again per wakeup (a pipe
			 * ping-pong pinned to one CPU: 0.27 s of 1.47 s overhead per 10^5 round
			 * trips, benchmarks/offcpu-vs-perf.sh), a migration's none is read. With
			 * both halves excluded the kernel writes an empty callchain (nr 0, no
			 * unwinding), so every event keeps one record layout. */
			a.exclude_callchain_user = k != 0;
			a.exclude_callchain_kernel = k == 2;
			a.disabled = 1;
			a.use_clockid = 1;
			a.clockid = CLOCK_MONOTONIC;
			a.sample_id_all = 1; /* LOST records carry the time and CPU too */
			a.read_format = c->klost ? PERF_FORMAT_LOST : 0;
			/* the fork, exit and name of every task on this CPU, once */
			a.task = k == 0;
			a.comm = k == 0;
			/* wake the reader at a quarter of the ring, not per record (a wakeup
			 * per event would double the context switches it records) */
			a.watermark = 1;
			a.wakeup_watermark = pages * 4096u / 4;
			*stage = PL_SCHED_STAGE_OPEN;
			int fd = open_one(c, &a, cpus[i], i);
			if (fd == -EINVAL && c->klost && i == 0 && k == 0) {
				c->klost = false; /* before Linux 6.0 */
				a.read_format = 0;
				fd = open_one(c, &a, cpus[i], i);
			}
			if (fd < 0) {
				pl_sched_close(c);
				return fd;
			}
			if (leader < 0) {
				*stage = PL_SCHED_STAGE_MMAP;
				struct pl_pe_ring *rg = &c->s.rings[c->s.nrings];
				rg->cpu = cpus[i];
				r = map_ring(rg, fd, pages);
				if (r < 0) {
					pl_sched_close(c);
					return r;
				}
				c->s.nrings++;
				leader = fd;
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, leader) < 0) {
				r = -errno;
				*stage = PL_SCHED_STAGE_OPEN;
				pl_sched_close(c);
				return r;
			}
		}
	}
	*out = c;
	return 0;
}

void pl_sched_enable(struct pl_sched_collect *c)
{
	c->rd.log->t0 = pl_now_ns();
	pl_pe_enable(&c->s);
}

void pl_sched_disable(struct pl_sched_collect *c)
{
	pl_pe_disable(&c->s);
	c->rd.log->t1 = pl_now_ns();
	/* PERF_FORMAT_LOST (Linux 6.0): the samples the kernel could not write (ring full),
	 * reported or not. Without it, each event's count (every hit on its CPU) minus the
	 * samples read: an upper bound, as this kernel counts about 1 in 10^3 sched_waking
	 * hits that it never writes nor counts as lost. */
	for (size_t i = 0; i < c->rd.nrings; i++) {
		c->rd.rings[i].fired = c->rd.rings[i].klost = 0;
		c->rd.rings[i].have_fired = true;
		c->rd.rings[i].have_klost = c->klost;
	}
	for (size_t i = 0; i < c->s.nfds; i++) {
		struct pl_sched_ring_state *rs = &c->rd.rings[c->fd_ring[i]];
		uint64_t v[2] = { 0, 0 };
		size_t want = c->klost ? 16 : 8;
		if (read(c->s.fds[i], v, want) == (ssize_t)want) {
			rs->fired += v[0];
			rs->klost += v[1];
		} else {
			rs->have_fired = false;
		}
	}
}

void pl_sched_drain(struct pl_sched_collect *c)
{
	for (size_t i = 0; i < c->s.nrings; i++) {
		struct pl_pe_ring *rg = &c->s.rings[i];
		uint64_t head = pl_pe_ring_head(rg), tail = pl_pe_ring_tail(rg);
		bool bad = false;
		c->rd.ring = i;
		uint64_t nt = pl_ring_walk(rg->data, rg->data_size, tail, head, c->scratch,
					   pl_sched_reader_record, &c->rd, &bad);
		if (bad)
			c->rd.bad++;
		pl_pe_ring_set_tail(rg, bad ? head : nt);
	}
}

void pl_sched_finish(struct pl_sched_collect *c, const uint32_t *seeds, size_t nseeds, bool all)
{
	pl_sched_reader_finish(&c->rd, seeds, nseeds, all);
}

uint64_t pl_sched_ring_bytes(const struct pl_sched_collect *c)
{
	return c && c->s.nrings ? c->s.rings[0].data_size : 0;
}

void pl_sched_close(struct pl_sched_collect *c)
{
	if (!c)
		return;
	pl_pe_close(&c->s);
	pl_sched_reader_free(&c->rd);
	free(c->fd_ring);
	free(c->scratch);
	free(c);
}

const char *pl_sched_strerror(int err, enum pl_sched_stage stage)
{
	static char buf[1024];
	const char *fix = "run as root, or make tracefs readable ('mount -o remount,mode=755 "
			  "/sys/kernel/tracing') and give perflab CAP_PERFMON or set "
			  "kernel.perf_event_paranoid=-1";
	if (stage == PL_SCHED_STAGE_TRACEFS) {
		if (err == -EACCES || err == -EPERM)
			snprintf(buf, sizeof(buf),
				 "reading the sched tracepoints' ids under /sys/kernel/tracing was "
				 "refused (tracefs is readable by root only here): %s",
				 fix);
		else if (err == -ENOENT)
			snprintf(buf, sizeof(buf),
				 "tracefs with the sched:sched_switch, sched_waking and "
				 "sched_migrate_task tracepoints is not available (mount it as "
				 "root: 'mount -t tracefs nodev /sys/kernel/tracing')");
		else
			snprintf(buf, sizeof(buf), "reading the sched tracepoints' formats: %s",
				 strerror(-err));
		return buf;
	}
	struct pl_pe_request rq = { .event = "sched:sched_switch",
				    .system_wide = true,
				    .mmap = stage == PL_SCHED_STAGE_MMAP };
	struct pl_pe_privs pv;
	pl_pe_privs_read(&pv);
	/* no CAP_PERFMON: the short line (the caller puts "--off-cpu: " before it) */
	char tbuf[512];
	const char *t =
		pl_pe_advice_tracing("the sched tracepoints", -err, &rq, &pv, tbuf, sizeof(tbuf));
	if (t) {
		snprintf(buf, sizeof(buf), "%s", t);
		return buf;
	}
	const char *why = pl_pe_strerror(-err, &rq);
	/* with CAP_PERFMON the advice names what else refused it (never "run as root") */
	if ((err == -EACCES || err == -EPERM) && !pv.perfmon)
		snprintf(buf, sizeof(buf),
			 "the sched tracepoints on every CPU (raw samples of all tasks) were "
			 "refused: %s; they need root, CAP_PERFMON, or "
			 "kernel.perf_event_paranoid=-1",
			 why);
	else
		snprintf(buf, sizeof(buf), "the sched tracepoints on every CPU were refused: %s",
			 why);
	return buf;
}
