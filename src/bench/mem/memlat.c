/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Pointer chasing (memlat.h). */
#include "bench/mem/memlat.h"

#include <errno.h>
#include <numa.h>
#include <string.h>
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>

#include "bench/mem/memsize.h"
#include "bench/splitmix.h"
#include "facts/facts.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

int pl_chase_build(struct pl_chase *c, size_t bytes, int node, bool huge, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->node = node;
	c->lines = bytes / PL_CHASE_LINE;
	if (c->lines < 2)
		return -EINVAL;
	c->bytes = c->lines * PL_CHASE_LINE;
	void *m;
	if (node >= 0) {
		m = numa_alloc_onnode(c->bytes, node);
	} else {
		m = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
		if (m == MAP_FAILED)
			m = NULL;
	}
	if (!m)
		return -ENOMEM;
	if (huge)
		madvise(m, c->bytes, MADV_HUGEPAGE);
	c->mem = m;
	/* Sattolo's algorithm on the line indices, kept in the lines themselves: the result
	 * maps every line to its successor in one cycle through all of them. */
	char *base = m;
	for (size_t i = 0; i < c->lines; i++)
		*(size_t *)(base + i * PL_CHASE_LINE) = i;
	uint64_t st = seed;
	for (size_t i = c->lines - 1; i > 0; i--) {
		size_t j = (size_t)(pl_splitmix64(&st) % i);
		size_t *a = (size_t *)(base + i * PL_CHASE_LINE),
		       *b = (size_t *)(base + j * PL_CHASE_LINE);
		size_t t = *a;
		*a = *b;
		*b = t;
	}
	for (size_t i = 0; i < c->lines; i++) {
		size_t *p = (size_t *)(base + i * PL_CHASE_LINE);
		*(void **)p = base + *p * PL_CHASE_LINE;
	}
	c->cursor = base;
	return 0;
}

uint64_t pl_chase_run(struct pl_chase *c, uint64_t steps)
{
	void *p = c->cursor;
	uint64_t t0 = pl_now_ns();
	for (uint64_t i = 0; i < steps / 8; i++) {
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
		p = *(void **)p;
	}
	for (uint64_t i = 0; i < steps % 8; i++)
		p = *(void **)p;
	uint64_t t1 = pl_now_ns();
	c->cursor = p;
	return t1 - t0;
}

void pl_chase_free(struct pl_chase *c)
{
	if (!c || !c->mem)
		return;
	if (c->node >= 0)
		numa_free(c->mem, c->bytes);
	else
		munmap(c->mem, c->bytes);
	c->mem = NULL;
}

bool pl_chase_is_one_cycle(const struct pl_chase *c)
{
	const char *p = c->mem;
	size_t n = 0;
	do {
		p = *(char *const *)p;
		n++;
	} while (p != c->mem && n <= c->lines);
	return n == c->lines;
}

const char *pl_chase_level(uint64_t bytes, uint64_t l1, uint64_t l2, uint64_t l3, uint64_t l3_sure)
{
	if (l1 && bytes <= l1)
		return "L1";
	if (l2 && bytes <= l2)
		return "L2";
	if (l3 && bytes <= l3)
		return l3_sure && bytes > l3_sure ? "L3 or DRAM" : "L3";
	return l1 || l2 || l3 ? "DRAM" : "unknown";
}

static uint64_t chase_loop(void *arg, uint64_t n)
{
	return pl_chase_run(arg, n);
}

double pl_chase_ns_per_load(struct pl_chase *c, uint64_t target_ns)
{
	/* one pass over the lines first: the chase starts warm, as a loaded working set is */
	pl_chase_run(c, c->lines < 1000000 ? c->lines : 1000000);
	uint64_t n = pl_bench_calibrate(chase_loop, c, target_ns);
	return (double)pl_chase_run(c, n) / (double)n;
}

struct pl_memlat {
	struct pl_chase *sets;
	int *metric;
	size_t n;
	unsigned cpu;
};

/* Bytes of a cache fact, 0 when missing. */
static uint64_t fact_bytes(const struct pl_facts *f, const char *key)
{
	int64_t v;
	return pl_facts_get_int(f, key, &v) && v > 0 ? (uint64_t)v : 0;
}

int pl_memlat_setup(struct pl_bench_ctx *ctx, uint64_t max_bytes, bool huge, uint64_t avail,
		    double avail_share, struct pl_memlat **out)
{
	struct pl_facts f;
	pl_facts_init(&f);
	for (size_t i = 0; i < pl_ncollectors; i++)
		if (strcmp(pl_collectors[i].name, "cpu") == 0)
			pl_collectors[i].collect(&f);
	uint64_t l1 = fact_bytes(&f, "cpu.cache.l1d_bytes"),
		 l2 = fact_bytes(&f, "cpu.cache.l2_bytes");
	uint64_t l3 = fact_bytes(&f, "cpu.cache.l3_bytes"),
		 l3n = fact_bytes(&f, "cpu.cache.l3_count");
	uint64_t l3_total = l3 * (l3n ? l3n : 1);
	/* the default largest set follows bench mem's rule for the LLC (memsize.h): in a VM
	 * at most 64 MiB per CPU, as guests often see the host's L3 */
	struct pl_mem_sizing sz = { .llc = l3_total,
				    .level = 3,
				    .count = (unsigned)l3n,
				    .src = "the cpu facts",
				    .cpus = (unsigned)fact_bytes(&f, "cpu.pus") };
	pl_facts_free(&f);
	char *cpuinfo;
	if (pl_read_file("/proc/cpuinfo", &cpuinfo, NULL) == 0) {
		sz.vm = strstr(cpuinfo, " hypervisor") != NULL;
		free(cpuinfo);
	}
	bool bounded;
	uint64_t l3_used = pl_mem_llc_used(&sz, &bounded);
	json_t *info = pl_bench_info(ctx);
	json_object_set_new(info, "l1d_bytes", json_integer((json_int_t)l1));
	json_object_set_new(info, "l2_bytes", json_integer((json_int_t)l2));
	json_object_set_new(info, "l3_total_bytes", json_integer((json_int_t)l3_total));
	json_object_set_new(info, "l3_used_bytes", json_integer((json_int_t)l3_used));
	char b1[32], b2[32];
	if (!max_bytes) {
		uint64_t want = l3_used ? 4 * l3_used : (uint64_t)256 << 20;
		if (bounded) {
			struct pl_buf why = { 0 };
			pl_mem_llc_bound_text(&sz, l3_used, &why);
			pl_bench_note(ctx,
				      "the largest working set: the first power of two beyond 4x "
				      "the L3 (%s)",
				      why.data);
			pl_buf_free(&why);
		}
		max_bytes = 4096;
		while (max_bytes <= want)
			max_bytes *= 2;
		/* all sets together are about twice the largest */
		uint64_t cap = avail ? (uint64_t)((double)avail * avail_share / 2) : 0;
		if (cap && max_bytes > cap) {
			while (max_bytes > cap && max_bytes > 4096)
				max_bytes /= 2;
			pl_bench_warn(
				ctx,
				"the largest working set is %s, capped by available memory: "
				"below 4x the L3 (%s), so the DRAM plateau may not be reached",
				pl_fmt_bytes(b1, sizeof(b1), (double)max_bytes),
				pl_fmt_bytes(b2, sizeof(b2), 4.0 * (double)l3_used));
		}
	}
	if (max_bytes < 4096) {
		pl_bench_error(ctx, "--max-size %s: at least 4 KiB",
			       pl_fmt_bytes(b1, sizeof(b1), (double)max_bytes));
		return -EINVAL;
	}
	if (avail && 2 * max_bytes > avail) {
		pl_bench_error(ctx,
			       "--max-size %s: the working sets (about %s together) do not fit in "
			       "available memory (%s); use a smaller --max-size",
			       pl_fmt_bytes(b1, sizeof(b1), (double)max_bytes),
			       pl_fmt_bytes(b2, sizeof(b2), 2.0 * (double)max_bytes),
			       pl_fmt_bytes(b2, sizeof(b2), (double)avail));
		return -EINVAL;
	}
	json_object_set_new(info, "max_bytes", json_integer((json_int_t)max_bytes));
	json_object_set_new(info, "huge_pages",
			    pl_json_string(huge ? "madvise(MADV_HUGEPAGE)" : "no (4 KiB pages)"));
	struct pl_memlat *m = pl_xcalloc(1, sizeof(*m));
	for (uint64_t b = 4096; b <= max_bytes; b *= 2)
		m->n++;
	m->sets = pl_xcalloc(m->n, sizeof(*m->sets));
	m->metric = pl_xcalloc(m->n, sizeof(int));
	m->cpu = (unsigned)pl_cpuset_next(pl_bench_cpus(ctx), 0);
	int r = pl_bench_pin_thread(m->cpu);
	size_t k = 0;
	for (uint64_t b = 4096; b <= max_bytes && r == 0; b *= 2, k++) {
		r = pl_chase_build(&m->sets[k], b, -1, huge, 0x5eed + b);
		if (r < 0) {
			pl_bench_error(ctx, "cannot allocate a %s working set",
				       pl_fmt_bytes(b1, sizeof(b1), (double)b));
			break;
		}
		char name[48];
		snprintf(name, sizeof(name), "latency %s", pl_fmt_bytes(b1, sizeof(b1), (double)b));
		m->metric[k] = pl_bench_metric(ctx, name, "ns", PL_LOWER_IS_BETTER,
					       k == 0 ? "load-to-use: ns per dependent load of a "
							"random cycle through the working set"
						      : NULL);
		pl_bench_metric_note(ctx, m->metric[k], "level",
				     pl_chase_level(b, l1, l2, l3_total, bounded ? l3_used : 0));
	}
	json_object_set_new(info, "cpu", json_integer(m->cpu));
	if (r < 0) {
		pl_memlat_free(m);
		return r;
	}
	pl_bench_note(ctx,
		      "levels from the facts' cache sizes: a working set is named by the "
		      "smallest level it fits in (L1d and L2 per core, L3 in total)%s",
		      bounded ? "; between the L3 share taken above and the L3 the facts "
				"report, \"L3 or DRAM\""
			      : "");
	*out = m;
	return 0;
}

int pl_memlat_run(struct pl_bench_ctx *ctx, struct pl_memlat *m)
{
	for (size_t k = 0; k < m->n; k++) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		pl_bench_record(ctx, m->metric[k], pl_chase_ns_per_load(&m->sets[k], 20000000));
	}
	return 0;
}

void pl_memlat_free(struct pl_memlat *m)
{
	if (!m)
		return;
	for (size_t k = 0; k < m->n; k++)
		pl_chase_free(&m->sets[k]);
	free(m->sets);
	free(m->metric);
	free(m);
}
