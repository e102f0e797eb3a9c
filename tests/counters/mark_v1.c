/* SPDX-License-Identifier: MIT */
/* The version 1 marker library, kept as it was released (lib/mark.c of libperflab-mark
 * 1.0): it knows the ring's header up to @head and no counters. The region tests link a
 * program with it to check that perflab tells such a library on a counting ring apart
 * ("too old to count regions") and that it keeps working there. Do not update it. */
#include "perflab/mark.h"

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

static void forget_tid(void)
{
	my_tid = 0;
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
	if (st == 0) {
		attach();
		if (state != 2)
			return;
	}
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
	struct pl_mark_rec *r = &recs[h & (hdr->nrecs - 1)];
	r->ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	r->tid = my_tid;
	r->id = id;
	r->kind = kind;
	__atomic_store_n(&r->seq, h + 1, __ATOMIC_RELEASE);
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
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 0)
		attach();
	return state == 2;
}
