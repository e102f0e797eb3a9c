/* SPDX-License-Identifier: MIT */
/* perflab region markers (see include/perflab/mark.h). Self-contained: libc only. */
#include "perflab/mark.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* 0 = not yet looked at the environment, 1 = no profiler, 2 = attached. */
static int state;
static struct pl_mark_hdr *hdr;
static struct pl_mark_name *names;
static struct pl_mark_rec *recs;
static __thread uint32_t my_tid;
/* Per-thread cache name pointer -> id (direct-mapped): string literals at a call site
 * keep their address, so the hash is computed once per site and thread. */
#define ID_CACHE 16
static __thread struct {
	const char *name;
	uint32_t id;
} id_cache[ID_CACHE];

_Static_assert(sizeof(struct pl_mark_hdr) == 64, "the ring header is 64 bytes in every version");

/* Counting (ring version 2 with counters): the ring's layout, set once by attach(). */
static uint32_t cnt_n;
static const unsigned char *cnt_attrs;
static uint32_t cnt_attr_stride;
static unsigned char *cnt_base;
static uint32_t cnt_stride;
static pthread_key_t grp_key;
static pthread_once_t grp_key_once = PTHREAD_ONCE_INIT;
/* This thread's counter group: GRP_NONE until its first begin or end, GRP_OPENING while
 * it opens (a marker from a signal handler then stores no counts), GRP_OPEN, GRP_FAILED
 * (grp_err says why). */
enum { GRP_NONE, GRP_OPENING, GRP_OPEN, GRP_FAILED };
static __thread int grp_state;
static __thread int grp_err;
static __thread int grp_fd[PL_MARK_COUNTERS_MAX];

static void group_close(void)
{
	if (grp_state == GRP_OPEN)
		for (uint32_t i = 0; i < cnt_n; i++)
			close(grp_fd[i]);
	grp_state = GRP_NONE;
}

/* Thread exit: the group's descriptors go with the thread. */
static void group_key_dtor(void *unused)
{
	(void)unused;
	group_close();
}

static void group_key_make(void)
{
	if (pthread_key_create(&grp_key, group_key_dtor) != 0)
		grp_key = (pthread_key_t)-1;
}

/* The forked child's only thread: its tid and its group were the parent's (the inherited
 * descriptors count the parent's thread), so it looks up its tid and opens its own group
 * at its next marker. */
static void forget_tid(void)
{
	my_tid = 0;
	group_close();
}

static void note_open_failure(uint32_t idx, int err)
{
	__atomic_fetch_or(&hdr->flags, PL_MARK_F_OPEN_FAILED, __ATOMIC_RELAXED);
	int32_t zero = 0;
	if (__atomic_compare_exchange_n(&hdr->open_errno, &zero, err, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		__atomic_store_n(&hdr->open_failed, idx, __ATOMIC_RELAXED);
}

/* Open this thread's group from the ring's attributes: the first event leads, every one
 * counts this thread only (pid 0, cpu -1, no inherit) from now on, and a read() of the
 * leader returns {nr, time enabled, time running, value[nr]}. */
static void group_open(void)
{
	grp_state = GRP_OPENING;
	for (uint32_t i = 0; i < cnt_n; i++) {
		union {
			struct perf_event_attr a;
			unsigned char b[PL_MARK_ATTR_STRIDE_MAX];
		} u;
		memset(&u, 0, sizeof(u));
		memcpy(u.b, cnt_attrs + (size_t)i * cnt_attr_stride, cnt_attr_stride);
		if (u.a.size < PERF_ATTR_SIZE_VER0 || u.a.size > cnt_attr_stride)
			u.a.size = PERF_ATTR_SIZE_VER0;
		u.a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING;
		u.a.disabled = 0;
		u.a.inherit = 0;
		u.a.enable_on_exec = 0;
		long fd = syscall(SYS_perf_event_open, &u.a, 0, -1, i ? grp_fd[0] : -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			grp_err = errno;
			note_open_failure(i, grp_err);
			while (i-- > 0)
				close(grp_fd[i]);
			grp_state = GRP_FAILED;
			return;
		}
		grp_fd[i] = (int)fd;
	}
	if (grp_key != (pthread_key_t)-1)
		pthread_setspecific(grp_key, (void *)1);
	grp_state = GRP_OPEN;
}

/* One group read into @rd (3 + cnt_n words): 0, or the errno why there is no reading. */
static uint32_t group_read(uint64_t *rd)
{
	if (grp_state == GRP_NONE)
		group_open();
	if (grp_state == GRP_OPENING)
		return EBUSY;
	if (grp_state == GRP_FAILED)
		return (uint32_t)grp_err;
	size_t want = (3 + (size_t)cnt_n) * sizeof(uint64_t);
	ssize_t got = read(grp_fd[0], rd, want);
	if (got < 0)
		return (uint32_t)errno;
	if ((size_t)got != want || rd[0] != cnt_n)
		return EIO;
	return 0;
}

/* The counting layout of a version 2 ring of @size bytes: 1 when it has counters and
 * they lie within the ring, 0 when it has none, -1 when it is malformed. */
static int counting_layout(struct pl_mark_hdr *h, uint64_t size)
{
	if (h->version < 2 || h->ncounters == 0)
		return 0;
	uint64_t n = h->ncounters, as = h->attr_stride, cs = h->cnt_stride;
	if (n > PL_MARK_COUNTERS_MAX || as < PERF_ATTR_SIZE_VER0 || as > PL_MARK_ATTR_STRIDE_MAX ||
	    as % 8 || cs < PL_MARK_CNT_SIZE(n) || cs % 8 || h->attr_off % 8 || h->cnt_off % 8 ||
	    h->attr_off < PL_MARK_SIZE(h->nrecs) || h->cnt_off < PL_MARK_SIZE(h->nrecs) ||
	    h->attr_off > size || n * as > size - h->attr_off || h->cnt_off > size ||
	    (uint64_t)h->nrecs * cs > size - h->cnt_off)
		return -1;
	cnt_attrs = (const unsigned char *)h + h->attr_off;
	cnt_attr_stride = (uint32_t)as;
	cnt_base = (unsigned char *)h + h->cnt_off;
	cnt_stride = (uint32_t)cs;
	cnt_n = (uint32_t)n;
	return 1;
}

static void attach(void)
{
	const char *s = getenv(PL_MARK_ENV);
	int next = 1;
	if (s && *s) {
		char *end;
		long fd = strtol(s, &end, 10);
		struct stat st;
		if (*end == '\0' && fd >= 0 && fd < 1 << 20 && fstat((int)fd, &st) == 0 &&
		    (uint64_t)st.st_size >= PL_MARK_SIZE(1)) {
			/* MAP_POPULATE: fault the ring in once here, not on the first record of
			 * each page (a minor fault per 128 records doubled the cost per call). */
			void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_POPULATE, (int)fd, 0);
			if (p != MAP_FAILED) {
				struct pl_mark_hdr *h = p;
				if (h->magic == PL_MARK_MAGIC && h->nrecs &&
				    PL_MARK_SIZE(h->nrecs) <= (uint64_t)st.st_size) {
					names = (struct pl_mark_name *)(h + 1);
					recs = (struct pl_mark_rec *)(names + PL_MARK_NAMES);
					hdr = h;
					int c = counting_layout(h, (uint64_t)st.st_size);
					if (c > 0) {
						pthread_once(&grp_key_once, group_key_make);
						__atomic_fetch_or(&h->flags, PL_MARK_F_COUNTING,
								  __ATOMIC_RELAXED);
					} else if (c < 0) {
						note_open_failure(0, EINVAL);
					}
					pthread_atfork(NULL, NULL, forget_tid);
					next = 2;
				} else {
					munmap(p, (size_t)st.st_size);
				}
			}
		}
	}
	/* Racing first calls may both attach; the loser's mapping is a harmless leak of
	 * address space, and both see a usable ring. */
	__atomic_store_n(&state, next, __ATOMIC_RELEASE);
}

/* FNV-1a, 32 bit (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/). */
static uint32_t name_id(const char *name)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; name[i] && i < PL_MARK_NAME_MAX - 1; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h ? h : 1;
}

static void intern(uint32_t id, const char *name)
{
	for (uint32_t i = 0; i < PL_MARK_NAMES; i++) {
		struct pl_mark_name *n = &names[(id + i) % PL_MARK_NAMES];
		uint32_t cur = __atomic_load_n(&n->id, __ATOMIC_ACQUIRE);
		if (cur == id)
			return;
		if (cur == 0) {
			uint32_t zero = 0;
			if (__atomic_compare_exchange_n(&n->id, &zero, id, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				size_t len = strnlen(name, PL_MARK_NAME_MAX - 1);
				memcpy(n->name, name, len);
				n->name[len] = '\0';
				__atomic_store_n(&n->ready, 1, __ATOMIC_RELEASE);
				return;
			}
			if (zero == id)
				return;
		}
	}
	/* Table full: records still carry the id; the profiler shows it as a hash. */
}

static void put(const char *name, uint32_t kind)
{
	int st = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	if (__builtin_expect(st == 1, 1))
		return;
	int saved_errno = errno; /* the caller's, and it stays so */
	if (st == 0) {
		attach();
		if (state != 2) {
			errno = saved_errno;
			return;
		}
	}
	/* A reading: an end reads before its timestamp, a begin after its record is filled,
	 * so neither counts the other's bookkeeping. */
	uint64_t rd[3 + PL_MARK_COUNTERS_MAX];
	uint32_t rst = 0;
	bool counting = cnt_n && kind != PL_MARK_POINT;
	if (counting && kind == PL_MARK_END)
		rst = group_read(rd);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!my_tid)
		my_tid = (uint32_t)syscall(SYS_gettid);
	size_t slot = ((uintptr_t)name >> 3) % ID_CACHE;
	uint32_t id;
	if (id_cache[slot].name == name) {
		id = id_cache[slot].id;
	} else {
		/* Cached only after interning, so a cached id is always in the name table.
		 * (A caller reusing one buffer for different names must not rely on the cache:
		 * documented in mark.h.) */
		id = name_id(name);
		intern(id, name);
		id_cache[slot].name = name;
		id_cache[slot].id = id;
	}
	uint64_t h = __atomic_fetch_add(&hdr->head, 1, __ATOMIC_RELAXED);
	uint64_t ri = h & (hdr->nrecs - 1);
	struct pl_mark_rec *r = &recs[ri];
	r->ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	r->tid = my_tid;
	r->id = id;
	r->kind = kind;
	if (counting) {
		if (kind == PL_MARK_BEGIN)
			rst = group_read(rd);
		struct pl_mark_cnt *c = (struct pl_mark_cnt *)(cnt_base + ri * cnt_stride);
		c->status = rst;
		if (!rst) {
			c->enabled_ns = rd[1];
			c->running_ns = rd[2];
			memcpy(c + 1, rd + 3, cnt_n * sizeof(uint64_t));
		}
		__atomic_store_n(&c->seq, h + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&r->seq, h + 1, __ATOMIC_RELEASE);
	errno = saved_errno;
}

void pl_region_begin(const char *name)
{
	put(name, PL_MARK_BEGIN);
}

void pl_region_end(const char *name)
{
	put(name, PL_MARK_END);
}

void pl_mark(const char *name)
{
	put(name, PL_MARK_POINT);
}

int pl_mark_active(void)
{
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 0) {
		int saved_errno = errno;
		attach();
		errno = saved_errno;
	}
	return state == 2;
}
