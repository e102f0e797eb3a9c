/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Building the profile from ring-buffer records (profile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "profile/decode.h"
#include "profile/profile.h"
#include "profile/unwind.h"
#include "util/str.h"
#include "util/sysroot.h"

void pl_profile_init(struct pl_profile *p, uint64_t sample_type, uint64_t regs_mask,
		     const char *debug_root)
{
	memset(p, 0, sizeof(*p));
	p->sample_type = sample_type;
	p->regs_mask = regs_mask;
	p->hash_cap = 1024;
	p->stack_hash = pl_xcalloc(p->hash_cap, sizeof(uint32_t));
	pl_symtab_init(&p->syms, debug_root);
}

void pl_profile_free(struct pl_profile *p)
{
	if (!p)
		return;
	free(p->samples);
	free(p->stacks);
	free(p->ips);
	free(p->stack_hash);
	for (size_t i = 0; i < p->nas; i++)
		free(p->as[i].maps);
	free(p->as);
	free(p->threads);
	free(p->thread_hash);
	pl_unwind_free(p->unwinder);
	pl_symtab_free(&p->syms);
	memset(p, 0, sizeof(*p));
}

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? (cap)*2 : 64;                                              \
			(arr) = pl_xrealloc((arr), (cap) * sizeof(*(arr)));                        \
		}                                                                                  \
	} while (0)

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t stack_hash(uint32_t pid, const uint64_t *ips, uint32_t n)
{
	uint64_t h = mix(0x12345, pid);
	for (uint32_t i = 0; i < n; i++)
		h = mix(h, ips[i]);
	return h * 0x9e3779b97f4a7c15ull;
}

static void rehash(struct pl_profile *p)
{
	size_t cap = p->hash_cap * 2;
	uint32_t *t = pl_xcalloc(cap, sizeof(uint32_t));
	for (size_t i = 0; i < p->nstacks; i++) {
		const struct pl_stack *s = &p->stacks[i];
		size_t j = stack_hash(s->pid, p->ips + s->off, s->n) & (cap - 1);
		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(p->stack_hash);
	p->stack_hash = t;
	p->hash_cap = cap;
}

uint32_t pl_profile_intern_stack(struct pl_profile *p, uint32_t pid, const uint64_t *ips,
				 uint32_t n)
{
	if ((p->nstacks + 1) * 2 > p->hash_cap)
		rehash(p);
	size_t j = stack_hash(pid, ips, n) & (p->hash_cap - 1);
	while (p->stack_hash[j]) {
		const struct pl_stack *s = &p->stacks[p->stack_hash[j] - 1];
		if (s->pid == pid && s->n == n && memcmp(p->ips + s->off, ips, n * 8) == 0)
			return p->stack_hash[j] - 1;
		j = (j + 1) & (p->hash_cap - 1);
	}
	GROW(p->stacks, p->nstacks, p->capstacks);
	while (p->nips + n > p->capips) {
		p->capips = p->capips ? p->capips * 2 : 4096;
		p->ips = pl_xrealloc(p->ips, p->capips * 8);
	}
	memcpy(p->ips + p->nips, ips, n * 8);
	p->stacks[p->nstacks] = (struct pl_stack){ pid, n, p->nips };
	p->nips += n;
	p->stack_hash[j] = (uint32_t)p->nstacks + 1;
	return (uint32_t)p->nstacks++;
}

struct pl_thread *pl_profile_thread(struct pl_profile *p, uint32_t pid, uint32_t tid)
{
	if (p->thread_cap && (p->nthreads + 1) * 2 <= p->thread_cap) {
		size_t j = (tid * 2654435761u) & (p->thread_cap - 1);
		while (p->thread_hash[j]) {
			struct pl_thread *t = &p->threads[p->thread_hash[j] - 1];
			if (t->tid == tid)
				return t;
			j = (j + 1) & (p->thread_cap - 1);
		}
	} else {
		for (size_t i = 0; i < p->nthreads; i++)
			if (p->threads[i].tid == tid)
				return &p->threads[i];
	}
	GROW(p->threads, p->nthreads, p->capthreads);
	struct pl_thread *t = &p->threads[p->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	/* A thread inherits its process' name until COMM says otherwise. */
	for (size_t i = 0; i + 1 < p->nthreads; i++)
		if (p->threads[i].tid == pid) {
			memcpy(t->comm, p->threads[i].comm, sizeof(t->comm));
			break;
		}
	/* Rebuild the index: 4x the threads, power of two. */
	size_t cap = 64;
	while (cap < p->nthreads * 4)
		cap *= 2;
	if (cap != p->thread_cap) {
		free(p->thread_hash);
		p->thread_hash = pl_xcalloc(cap, sizeof(uint32_t));
		p->thread_cap = cap;
		for (size_t i = 0; i < p->nthreads; i++) {
			size_t j = (p->threads[i].tid * 2654435761u) & (cap - 1);
			while (p->thread_hash[j])
				j = (j + 1) & (cap - 1);
			p->thread_hash[j] = (uint32_t)i + 1;
		}
	} else {
		size_t j = (tid * 2654435761u) & (cap - 1);
		while (p->thread_hash[j])
			j = (j + 1) & (cap - 1);
		p->thread_hash[j] = (uint32_t)p->nthreads;
	}
	return t;
}

static struct pl_aspace *new_aspace(struct pl_profile *p, uint32_t pid, uint64_t since)
{
	GROW(p->as, p->nas, p->capas);
	struct pl_aspace *a = &p->as[p->nas++];
	memset(a, 0, sizeof(*a));
	a->pid = pid;
	a->since = since;
	return a;
}

struct pl_aspace *pl_profile_aspace(struct pl_profile *p, uint32_t pid, uint64_t time)
{
	struct pl_aspace *best = NULL;
	for (size_t i = p->nas; i-- > 0;) {
		struct pl_aspace *a = &p->as[i];
		if (a->pid != pid)
			continue;
		if (a->since <= time && (!best || a->since > best->since))
			best = a;
	}
	if (!best) {
		/* Samples before the first exec record seen: the earliest one. */
		for (size_t i = 0; i < p->nas; i++)
			if (p->as[i].pid == pid && (!best || p->as[i].since < best->since))
				best = &p->as[i];
	}
	return best;
}

/* The newest address space of @pid (where MMAP2 records go), created when missing. */
static struct pl_aspace *current_as(struct pl_profile *p, uint32_t pid)
{
	struct pl_aspace *best = NULL;
	for (size_t i = 0; i < p->nas; i++)
		if (p->as[i].pid == pid && (!best || p->as[i].since >= best->since))
			best = &p->as[i];
	return best ? best : new_aspace(p, pid, 0);
}

void pl_profile_add_map(struct pl_profile *p, uint32_t pid, uint64_t time, uint64_t start,
			uint64_t len, uint64_t pgoff, uint64_t dev, uint64_t ino,
			const uint8_t *bid, uint32_t bid_len, const char *path)
{
	(void)time;
	struct pl_module *m = pl_symtab_module(&p->syms, path, dev, ino, bid, bid_len, (pid_t)pid,
					       start, start + len, p->live);
	struct pl_aspace *a = current_as(p, pid);
	GROW(a->maps, a->nmaps, a->capmaps);
	a->maps[a->nmaps++] = (struct pl_map){ start, start + len, pgoff, m };
	a->sorted = false;
}

static int cmp_map(const void *x, const void *y)
{
	const struct pl_map *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return 0;
}

const struct pl_map *pl_aspace_find(struct pl_aspace *as, uint64_t addr)
{
	if (!as || !as->nmaps)
		return NULL;
	if (!as->sorted) {
		qsort(as->maps, as->nmaps, sizeof(*as->maps), cmp_map);
		as->sorted = true;
	}
	size_t lo = 0, hi = as->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (as->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Overlaps are possible after remaps: walk back a little. */
	for (size_t i = lo; i-- > 0 && lo - i <= 8;) {
		if (addr >= as->maps[i].start && addr < as->maps[i].end)
			return &as->maps[i];
	}
	return NULL;
}

uint32_t pl_profile_join_dwarf(struct pl_profile *p, struct pl_unwinder *u,
			       const struct pl_sample *s, uint64_t *buf, uint32_t n, bool *unwound,
			       bool *truncated)
{
	uint64_t user[256];
	struct pl_aspace *as = pl_profile_aspace(p, s->pid, s->time);
	bool cut;
	size_t nu = pl_unwind(u, p, as, s, user, 256, &cut);
	*unwound = false;
	*truncated = cut;
	if (nu < 2)
		return n;
	*unwound = true;
	uint32_t k = 0;
	while (k < n && pl_is_kernel_addr(buf[k]))
		k++;
	uint64_t fp[PL_STACK_MAX];
	uint32_t nfp = n - k;
	memcpy(fp, buf + k, nfp * 8);
	uint32_t w = k;
	for (size_t i = 0; i < nu && w < PL_STACK_MAX; i++)
		buf[w++] = user[i];
	uint64_t last = user[nu - 1];
	for (uint32_t j = 1; j < nfp; j++)
		if (fp[j] == last) {
			for (uint32_t q = j + 1; q < nfp && w < PL_STACK_MAX; q++)
				buf[w++] = fp[q];
			*truncated = false; /* the frame-pointer chain went on from there */
			break;
		}
	return w;
}

/* --call-graph dwarf: pl_profile_join_dwarf with the profile's unwinder, counted. */
static uint32_t join_dwarf(struct pl_profile *p, const struct pl_sample *s, uint64_t *buf,
			   uint32_t n)
{
	bool unwound, cut;
	n = pl_profile_join_dwarf(p, p->unwinder, s, buf, n, &unwound, &cut);
	p->dwarf_unwound += unwound;
	p->dwarf_truncated += cut;
	return n;
}

static void on_sample(struct pl_profile *p, const struct perf_event_header *rec)
{
	struct pl_sample s;
	if (pl_parse_sample(rec, p->sample_type, p->regs_mask, &s) < 0) {
		p->bad_records++;
		return;
	}
	uint64_t buf[PL_STACK_MAX];
	uint32_t n = 0;
	if (s.ips && s.nr) {
		for (uint64_t i = 0; i < s.nr && n < PL_STACK_MAX; i++) {
			if (s.ips[i] >= (uint64_t)PERF_CONTEXT_MAX)
				continue; /* PERF_CONTEXT_KERNEL/USER/... markers */
			buf[n++] = s.ips[i];
		}
	}
	if (!n)
		buf[n++] = s.ip;
	if (s.stack_size > p->stack_copied_max)
		p->stack_copied_max = s.stack_size;
	if (p->unwinder && s.regs)
		n = join_dwarf(p, &s, buf, n);
	GROW(p->samples, p->nsamples, p->capsamples);
	p->samples[p->nsamples++] = (struct pl_psample){
		.time = s.time,
		.pid = s.pid,
		.tid = s.tid,
		.cpu = s.cpu,
		.stack = pl_profile_intern_stack(p, s.pid, buf, n),
		.kernel = s.kernel || pl_is_kernel_addr(s.ip),
	};
	if (!p->t_first || s.time < p->t_first)
		p->t_first = s.time;
	if (s.time > p->t_last)
		p->t_last = s.time;
	struct pl_thread *t = pl_profile_thread(p, s.pid, s.tid);
	t->samples++;
	if (p->samples[p->nsamples - 1].kernel)
		t->kernel++;
	if (!t->first || s.time < t->first)
		t->first = s.time;
	if (s.time > t->last)
		t->last = s.time;
}

int pl_profile_record(void *ctx, const struct perf_event_header *rec)
{
	struct pl_profile *p = ctx;
	struct pl_sample_id sid;
	p->nrecords++;
	const uint8_t *b = (const uint8_t *)(rec + 1);
	size_t blen = rec->size - sizeof(*rec);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(p, rec);
		break;
	case PERF_RECORD_LOST:
		/* { u64 id; u64 lost; sample_id } */
		if (blen >= 16) {
			uint64_t v;
			memcpy(&v, b + 8, 8);
			p->lost += v;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		/* { u64 lost; sample_id } */
		if (blen >= 8) {
			uint64_t v;
			memcpy(&v, b, 8);
			p->lost_samples += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		p->throttles++;
		break;
	case PERF_RECORD_COMM: {
		/* { u32 pid, tid; char comm[]; sample_id } */
		if (blen < 9)
			break;
		uint32_t pid, tid;
		memcpy(&pid, b, 4);
		memcpy(&tid, b + 4, 4);
		if (pl_parse_sample_id(rec, p->sample_type, &sid) < 0)
			sid.time = 0;
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && pid == tid)
			new_aspace(p, pid, sid.time ? sid.time : 1);
		struct pl_thread *t = pl_profile_thread(p, pid, tid);
		if (sid.time && sid.time < t->comm_time)
			break; /* a later name came first (from another CPU's ring) */
		size_t max = blen - 8 < sizeof(t->comm) - 1 ? blen - 8 : sizeof(t->comm) - 1;
		memset(t->comm, 0, sizeof(t->comm));
		strncpy(t->comm, (const char *)b + 8, max);
		t->comm_time = sid.time;
		break;
	}
	case PERF_RECORD_FORK: {
		/* { u32 pid, ppid; u32 tid, ptid; u64 time; sample_id } */
		if (blen < 24)
			break;
		uint32_t pid, ppid, tid;
		uint64_t time;
		memcpy(&pid, b, 4);
		memcpy(&ppid, b + 4, 4);
		memcpy(&tid, b + 8, 4);
		memcpy(&time, b + 16, 8);
		struct pl_thread *parent = NULL;
		for (size_t i = 0; i < p->nthreads; i++)
			if (p->threads[i].tid == ppid)
				parent = &p->threads[i];
		char comm[16] = "";
		if (parent)
			memcpy(comm, parent->comm, sizeof(comm));
		struct pl_thread *t = pl_profile_thread(p, pid, tid);
		if (!t->comm[0])
			memcpy(t->comm, comm, sizeof(comm));
		if (pid != ppid) {
			/* A new process: it starts with a copy of its parent's mappings. */
			struct pl_aspace *src = pl_profile_aspace(p, ppid, time);
			size_t si = src ? (size_t)(src - p->as) : 0;
			struct pl_aspace *a = new_aspace(p, pid, time ? time : 1);
			if (src && p->as[si].nmaps) {
				src = &p->as[si]; /* new_aspace may have moved the array */
				a->maps = pl_xmalloc(src->nmaps * sizeof(*a->maps));
				memcpy(a->maps, src->maps, src->nmaps * sizeof(*a->maps));
				a->nmaps = a->capmaps = src->nmaps;
			}
		}
		break;
	}
	case PERF_RECORD_EXIT:
		break;
	case PERF_RECORD_MMAP2: {
		/* { u32 pid, tid; u64 addr, len, pgoff; union { u32 maj, min; u64 ino;
		 *   u64 ino_generation } | { u8 build_id_size, __reserved_1, __reserved_2;
		 *   u8 build_id[20] }; u32 prot, flags; char filename[]; sample_id } */
		if (blen < 8 + 24 + 24 + 8 + 1)
			break;
		{
			uint32_t pid, prot;
			uint64_t addr, len, pgoff, dev = 0, ino = 0;
			uint8_t bid[20];
			uint32_t bid_len = 0;
			memcpy(&pid, b, 4);
			memcpy(&addr, b + 8, 8);
			memcpy(&len, b + 16, 8);
			memcpy(&pgoff, b + 24, 8);
			if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				bid_len = b[32];
				if (bid_len > 20)
					bid_len = 20;
				memcpy(bid, b + 36, 20);
			} else {
				uint32_t maj, min;
				memcpy(&maj, b + 32, 4);
				memcpy(&min, b + 36, 4);
				memcpy(&ino, b + 40, 8);
				dev = makedev(maj, min);
			}
			memcpy(&prot, b + 56, 4);
			const char *fn = (const char *)b + 64;
			size_t fmax = blen - 64;
			if (!memchr(fn, 0, fmax))
				break;
			if (!(prot & 4 /* PROT_EXEC */))
				break;
			pl_parse_sample_id(rec, p->sample_type, &sid);
			pl_profile_add_map(p, pid, sid.time, addr, len, pgoff, dev, ino, bid,
					   bid_len, fn);
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

int pl_profile_synth_proc(struct pl_profile *p, pid_t pid)
{
	char *maps = NULL;
	int r = pl_read_filef(&maps, NULL, "/proc/%d/maps", (int)pid);
	if (r < 0)
		return r;
	char *comm = NULL;
	if (pl_read_strf(&comm, "/proc/%d/comm", (int)pid) == 0) {
		struct pl_thread *t = pl_profile_thread(p, (uint32_t)pid, (uint32_t)pid);
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
		free(comm);
	}
	char **tasks = NULL;
	size_t nt = 0;
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	if (pl_list_dir(dir, &tasks, &nt) == 0) {
		for (size_t i = 0; i < nt; i++) {
			uint64_t tid;
			if (pl_parse_u64(tasks[i], &tid) < 0)
				continue;
			char *tc = NULL;
			struct pl_thread *t = pl_profile_thread(p, (uint32_t)pid, (uint32_t)tid);
			if (pl_read_strf(&tc, "/proc/%d/task/%llu/comm", (int)pid,
					 (unsigned long long)tid) == 0) {
				snprintf(t->comm, sizeof(t->comm), "%s", tc);
				free(tc);
			}
		}
		pl_strv_free(tasks);
	}
	char *save = NULL;
	for (char *line = strtok_r(maps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* 55d0c4a00000-55d0c4a28000 r-xp 00000000 fd:01 1234   /usr/bin/x */
		unsigned long long s, e, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &s, &e, perms, &off, &maj,
			   &min, &ino, &pos) < 7)
			continue;
		if (perms[2] != 'x')
			continue;
		const char *path = pos ? line + pos : "";
		pl_profile_add_map(p, (uint32_t)pid, 0, s, e - s, off, makedev(maj, min), ino, NULL,
				   0, path);
	}
	free(maps);
	return 0;
}
