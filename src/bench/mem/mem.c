/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench mem: STREAM Copy, Scale, Add, Triad (McCalpin; kernels, byte counting and
 * validation in stream.c), memcpy and a read-only sum, in GB/s = 10^9 B/s.
 *
 * As STREAM prescribes, each array is at least 4x the total last-level cache (from hwloc;
 * in a VM at most 64 MiB per CPU, as guests often see the host's L3), capped by available
 * memory (the rule: memsize.h); one thread per CPU of the run, pinned, each first-touching
 * and then working on its own contiguous part of the arrays (STREAM's OpenMP static
 * schedule); each kernel is timed from the start of the parallel step to the end of its
 * slowest thread, the threads waiting for the next step by spinning (as OpenMP's do), so
 * that waking a sleeping thread is not in the time (the team, below). The first
 * repetition is a discarded warm-up and "best" is the maximum rate over the others,
 * STREAM's best-of-N; the median is reported too.
 *
 * --numa-matrix measures Copy and Triad for every (CPU node, memory node) pair: threads
 * on the node's CPUs, arrays bound to the memory node with libnuma (numa_alloc_onnode).
 *
 * Above 800 lines on purpose: the thread team, the STREAM run and the NUMA matrix share
 * the pinned first-touch allocation and the timing loop. */
#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/bench.h"
#include "bench/mem/memlat.h"
#include "bench/mem/memsize.h"
#include "bench/mem/stream.h"
#include "facts/collectors.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

struct mem_opts {
	uint64_t size; /* bytes per array, 0 = automatic */
	int threads;   /* 0 = one per CPU of the run */
	bool nt;
	bool numa_matrix;
	const char *only;  /* comma-separated kernel names, NULL = all */
	bool latency;	   /* the pointer-chase curve instead of STREAM */
	bool huge;	   /* chase buffers with madvise(MADV_HUGEPAGE) */
	uint64_t max_size; /* largest working set of --latency, 0 = automatic */
};

/* The array size of --quick (mem_quick), as written and in bytes. */
#define MEM_QUICK_SIZE "64MiB"
#define MEM_QUICK_BYTES (64ull << 20)

static const struct mem_opts mem_defaults = { 0 };

static const struct pl_opt mem_opt_table[] = {
	{ "size", 's', PL_OPT_SIZE, offsetof(struct mem_opts, size), "BYTES",
	  "bytes per array (three arrays), e.g. 1GiB; default: 4x the total last-level cache "
	  "(in a VM at most 64 MiB per CPU), capped at 60% of available memory for the three",
	  .min = 4096, .max = PL_OPT_SIZE_MAX },
	{ "threads", 0, PL_OPT_INT, offsetof(struct mem_opts, threads), "N",
	  "threads, one per CPU of the run (default: all of them)", .min = 1, .max = 8192,
	  .was_short = 't' },
	{ "nt", 0, PL_OPT_FLAG, offsetof(struct mem_opts, nt), NULL,
	  "also measure Copy/Scale/Add/Triad with non-temporal (streaming) stores" },
	{ "only", 0, PL_OPT_STR, offsetof(struct mem_opts, only), "KERNELS",
	  "run only these kernels: copy, scale, add, triad, memcpy, sum (comma-separated)" },
	{ "numa-matrix", 0, PL_OPT_FLAG, offsetof(struct mem_opts, numa_matrix), NULL,
	  "Copy and Triad bandwidth and pointer-chase latency for every (CPU node, memory "
	  "node) pair (libnuma)" },
	{ "latency", 0, PL_OPT_FLAG, offsetof(struct mem_opts, latency), NULL,
	  "load-to-use latency by pointer chasing, working sets 4 KiB to beyond 4x the L3, "
	  "levels named (instead of STREAM)" },
	{ "huge", 0, PL_OPT_FLAG, offsetof(struct mem_opts, huge), NULL,
	  "latency: chase buffers on transparent huge pages (madvise MADV_HUGEPAGE)" },
	{ "max-size", 0, PL_OPT_SIZE, offsetof(struct mem_opts, max_size), "BYTES",
	  "latency: the largest working set (default: the first power of two beyond 4x the "
	  "total L3; in a VM the L3 is taken as at most 64 MiB per CPU)" },
	PL_OPT_END,
};

/* ---- sizing (the rule itself: memsize.h) ---- */

/* The live last-level cache from hwloc: the highest cache level present, summed over its
 * instances, and the PU count. Leaves in->llc 0 when unknown. */
static void llc_hwloc(struct pl_mem_sizing *in)
{
	hwloc_topology_t topo;
	if (hwloc_topology_init(&topo) < 0)
		return;
	if (hwloc_topology_load(topo) == 0) {
		static const hwloc_obj_type_t types[] = { HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE,
							  HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
							  HWLOC_OBJ_L1CACHE };
		for (int i = 0; i < 5 && !in->llc; i++) {
			int n = hwloc_get_nbobjs_by_type(topo, types[i]);
			for (int k = 0; k < n; k++) {
				hwloc_obj_t o = hwloc_get_obj_by_type(topo, types[i], (unsigned)k);
				in->llc += o->attr->cache.size;
			}
			if (in->llc) {
				in->level = 5 - i;
				in->count = (unsigned)n;
			}
		}
		int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
		in->cpus = pus > 0 ? (unsigned)pus : 0;
	}
	hwloc_topology_destroy(topo);
	in->src = "hwloc";
}

/* Another machine's tree (--sysroot, for `report --dry-run`): the cpu facts, which read
 * it through the sysroot helper and a validated hwloc input (facts/cpu.c); the L3, or the
 * L2 where there is none, times its count. */
static void llc_facts(struct pl_mem_sizing *in)
{
	struct pl_facts f;
	pl_facts_init(&f);
	pl_collect_cpu(&f);
	int64_t l3 = 0, l3n = 0, l2 = 0, pus = 0;
	pl_facts_get_int(&f, "cpu.cache.l3_bytes", &l3);
	pl_facts_get_int(&f, "cpu.cache.l3_count", &l3n);
	pl_facts_get_int(&f, "cpu.cache.l2_bytes", &l2);
	pl_facts_get_int(&f, "cpu.pus", &pus);
	if (l3 > 0) {
		in->level = 3;
		in->count = l3n > 0 ? (unsigned)l3n : 0;
		in->llc = (uint64_t)l3 * (l3n > 0 ? (uint64_t)l3n : 1);
	} else if (l2 > 0) {
		in->level = 2;
		in->llc = (uint64_t)l2;
	}
	in->cpus = pus > 0 ? (unsigned)pus : 0;
	in->src = "the cpu facts";
	pl_facts_free(&f);
}

/* MemAvailable of /proc/meminfo in bytes, 0 when unreadable. */
static uint64_t mem_available(void)
{
	char *text;
	unsigned long long kb = 0;
	if (pl_read_file("/proc/meminfo", &text, NULL) < 0)
		return 0;
	const char *p = strstr(text, "MemAvailable:");
	if (p && sscanf(p, "MemAvailable: %llu kB", &kb) != 1)
		kb = 0;
	free(text);
	return (uint64_t)kb * 1024;
}

/* Everything the default size is chosen from (memsize.h), read now. */
static void sizing_read(struct pl_mem_sizing *in)
{
	memset(in, 0, sizeof(*in));
	if (pl_sysroot_is_live())
		llc_hwloc(in);
	else
		llc_facts(in);
	in->avail = mem_available();
	char *cpuinfo;
	if (pl_read_file("/proc/cpuinfo", &cpuinfo, NULL) == 0) {
		in->vm = strstr(cpuinfo, " hypervisor") != NULL;
		free(cpuinfo);
	}
}

/* info / plan members of a sizing: llc_total_bytes (as reported), llc_used_bytes (what
 * the 4x rule used), mem_available_bytes. */
static void sizing_json(json_t *o, const struct pl_mem_sizing *in)
{
	json_object_set_new(o, "llc_total_bytes", json_integer((json_int_t)in->llc));
	json_object_set_new(o, "llc_used_bytes",
			    json_integer((json_int_t)pl_mem_llc_used(in, NULL)));
	json_object_set_new(o, "mem_available_bytes", json_integer((json_int_t)in->avail));
}

/* " (LLC reported ..., likely the host's in a virtual machine; taken as ...)" after a
 * 4x-LLC figure when the VM bound applied, else nothing. Owned by the caller. */
static char *bound_suffix(const struct pl_mem_sizing *in)
{
	bool bounded;
	uint64_t used = pl_mem_llc_used(in, &bounded);
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	if (bounded) {
		pl_buf_puts(&b, ": ");
		pl_mem_llc_bound_text(in, used, &b);
	}
	return b.data;
}

/* Choose the array size; explains the choice in info/notes. -EINVAL with a message when
 * an explicit --size does not fit. */
static int choose_size(struct pl_bench_ctx *ctx, const struct mem_opts *o, uint64_t *out)
{
	char b1[32], b2[32], b3[32], b4[32];
	struct pl_mem_sizing in;
	sizing_read(&in);
	uint64_t avail = in.avail, llc = pl_mem_llc_used(&in, NULL);
	json_t *info = pl_bench_info(ctx);
	sizing_json(info, &in);
	if (o->size) {
		if (avail && 3 * o->size > avail) {
			/* the refusal's own bound, rounded down to a MiB so that the size printed
			 * is accepted as written */
			uint64_t fit_mib = avail / 3 >> 20;
			pl_bench_error(
				ctx,
				"--size %s: the three arrays (%s) do not fit in available memory "
				"(MemAvailable %s in /proc/meminfo); use --size %lluMiB or less "
				"(a third of MemAvailable; without --size perflab takes at most "
				"%.0f%%: %s per array)",
				pl_fmt_bytes(b1, sizeof(b1), (double)o->size),
				pl_fmt_bytes(b2, sizeof(b2), 3.0 * (double)o->size),
				pl_fmt_bytes(b3, sizeof(b3), (double)avail),
				(unsigned long long)fit_mib, PL_MEM_SHARE * 100,
				pl_fmt_bytes(b4, sizeof(b4), (double)avail * PL_MEM_SHARE / 3));
			return -EINVAL;
		}
		*out = o->size;
		/* --quick's own --size (mem_quick) is not the user's */
		bool quick_size = pl_bench_is_quick(ctx) && o->size == MEM_QUICK_BYTES;
		json_object_set_new(info, "size_reason",
				    pl_json_string(quick_size ? "--quick" : "--size"));
		pl_autofree char *bs = bound_suffix(&in);
		if (llc && o->size < 4 * llc && pl_bench_is_quick(ctx))
			pl_bench_note(
				ctx,
				"quick run: arrays smaller than 4x the last-level cache (%s%s); "
				"the figures may include cache bandwidth",
				pl_fmt_bytes(b2, sizeof(b2), 4.0 * (double)llc), bs);
		else if (llc && o->size < 4 * llc)
			pl_bench_warn(ctx,
				      "--size %s is less than 4x the last-level cache (%s%s): the "
				      "figures "
				      "may include cache bandwidth (STREAM's rule is >= 4x)",
				      pl_fmt_bytes(b1, sizeof(b1), (double)o->size),
				      pl_fmt_bytes(b2, sizeof(b2), 4.0 * (double)llc), bs);
		return 0;
	}
	struct pl_buf why = { 0 };
	struct pl_mem_size sz = pl_mem_default_size(&in, &why);
	*out = sz.bytes;
	json_object_set_new(info, "size_reason", pl_json_string(why.data));
	pl_bench_note(ctx, "array size %s each: %s", pl_fmt_bytes(b3, sizeof(b3), (double)sz.bytes),
		      why.data);
	pl_buf_free(&why);
	if (in.vm && !sz.llc_bounded)
		pl_bench_note(ctx, "in a virtual machine the reported last-level cache is often "
				   "the host socket's; choose the size with --size if so");
	return 0;
}

/* ---- arrays ---- */

struct arrays {
	double *a, *b, *c;
	size_t len;   /* elements per array */
	size_t bytes; /* per array, as allocated */
	int node;     /* -1: process policy (mmap) */
	struct pl_stream_expect e;
	bool touched;
};

static int arrays_alloc(struct arrays *ar, uint64_t bytes, int node)
{
	memset(ar, 0, sizeof(*ar));
	ar->node = node;
	ar->len = bytes / sizeof(double);
	ar->bytes = ar->len * sizeof(double);
	double **p[3] = { &ar->a, &ar->b, &ar->c };
	for (int k = 0; k < 3; k++) {
		void *m;
		if (node >= 0) {
			m = numa_alloc_onnode(ar->bytes, node);
		} else {
			m = mmap(NULL, ar->bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				m = NULL;
		}
		if (!m)
			return -ENOMEM;
		*p[k] = m;
	}
	pl_stream_expect_init(&ar->e);
	return 0;
}

static void arrays_free(struct arrays *ar)
{
	double *p[3] = { ar->a, ar->b, ar->c };
	for (int k = 0; k < 3; k++) {
		if (!p[k])
			continue;
		if (ar->node >= 0)
			numa_free(p[k], ar->bytes);
		else
			munmap(p[k], ar->bytes);
	}
	memset(ar, 0, sizeof(*ar));
}

/* ---- the thread team ----
 * Steps are handed to the workers by spinning, not by blocking: the main thread (worker 0)
 * bumps a step counter that the others watch, and watches a count of the workers still
 * in the step. Each kernel is timed from the hand-off to the end of the slowest thread
 * (STREAM's timing around its parallel region), so how long a worker takes to notice a
 * step is inside the figure. A worker asleep in a futex (the former pthread barriers)
 * needs its CPU woken first: on the 2 vCPU KVM guests 1.3 ms on average per 1 ms step
 * and 3.2 ms per 30 ms step at load 2 (an idle vCPU is halted in the host, a busy one
 * runs another task until the scheduler preempts it), 3-10% of a 256 MiB Triad's ~33 ms.
 * likwid-bench times its whole iteration loop inside one parallel step; STREAM's OpenMP
 * threads spin between parallel regions (libgomp's OMP_WAIT_POLICY / GOMP_SPINCOUNT).
 * Here a waiting thread spins (with a pause hint) for up to TEAM_SPIN_NS, then sleeps on
 * a condition variable, so a team waiting through setup, a latency chase or another
 * team's cells does not hold its CPUs. */

enum { OP_INIT = PL_STREAM_NOPS, OP_CHECK, OP_EXIT };

/* How long a waiting thread spins before it sleeps: longer than the gap between the
 * kernels of a repetition and between repetitions (microseconds), and than a slower
 * thread's lag in a step (a few ms on a loaded VM). */
#define TEAM_SPIN_NS 50000000ull

struct team;
struct worker {
	struct team *t;
	unsigned idx, cpu;
	pthread_t tid;
	double partial;
	double err[3];
	int pin_err;
};

struct team {
	unsigned n;
	struct worker *w;
	pthread_mutex_t mu;	  /* guards gate, sleepers, main_waits; the sleeps below */
	pthread_cond_t cv;	  /* start gate, and a new step for sleeping workers */
	pthread_cond_t done_cv;	  /* the step's end for a sleeping main thread */
	int gate;		  /* 0 closed, 1 open, -1 give up */
	_Atomic unsigned step;	  /* bumped by the main thread to start a step */
	_Atomic unsigned pending; /* workers 1..n-1 still in the current step */
	unsigned sleepers;	  /* workers asleep on cv waiting for a step */
	bool main_waits;	  /* the main thread asleep on done_cv */
	int op;			  /* written before step is bumped, read after */
	bool nt;
	struct arrays *ar;
	bool started;
};

/* A spin-wait hint to the CPU (x86 PAUSE, Arm YIELD): less power, and on SMT cores the
 * sibling gets the pipeline. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Spin while (*@v == @x) is @eq (acquire loads), at most TEAM_SPIN_NS; true when the
 * condition ended, false when the time ran out. */
static bool spin_while(_Atomic unsigned *v, unsigned x, bool eq)
{
	uint64_t t0 = 0;
	for (unsigned i = 1;; i++) {
		if ((atomic_load_explicit(v, memory_order_acquire) == x) != eq)
			return true;
		cpu_relax();
		if (i % 256 == 0) {
			uint64_t now = pl_now_ns();
			if (!t0)
				t0 = now;
			else if (now - t0 > TEAM_SPIN_NS)
				return false;
		}
	}
}

/* Elements [lo, hi) of worker i: contiguous parts, boundaries on 64-byte multiples. */
static void part(size_t len, unsigned n, unsigned i, size_t *lo, size_t *hi)
{
	size_t per = (len / n) & ~(size_t)7;
	*lo = per * i;
	*hi = i + 1 == n ? len : per * (i + 1);
}

static void work(struct team *t, struct worker *w)
{
	size_t lo, hi;
	part(t->ar->len, t->n, w->idx, &lo, &hi);
	struct arrays *ar = t->ar;
	if (t->op == OP_INIT)
		pl_stream_init(ar->a, ar->b, ar->c, lo, hi);
	else if (t->op == OP_CHECK) {
		memset(w->err, 0, sizeof(w->err));
		pl_stream_err_sums(ar->a, ar->b, ar->c, lo, hi, &ar->e, w->err);
	} else
		w->partial = pl_stream_kernel((enum pl_stream_op)t->op, t->nt, ar->a, ar->b, ar->c,
					      lo, hi);
}

/* A worker's wait for the step after @seen: spin, then sleep. */
static void wait_step(struct team *t, unsigned seen)
{
	if (spin_while(&t->step, seen, true))
		return;
	pthread_mutex_lock(&t->mu);
	t->sleepers++;
	while (atomic_load_explicit(&t->step, memory_order_acquire) == seen)
		pthread_cond_wait(&t->cv, &t->mu);
	t->sleepers--;
	pthread_mutex_unlock(&t->mu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct team *t = w->t;
	w->pin_err = pl_bench_pin_thread(w->cpu);
	pthread_mutex_lock(&t->mu);
	while (t->gate == 0)
		pthread_cond_wait(&t->cv, &t->mu);
	int gate = t->gate;
	pthread_mutex_unlock(&t->mu);
	if (gate < 0)
		return NULL;
	for (unsigned seen = 0;; seen++) {
		wait_step(t, seen);
		if (t->op == OP_EXIT)
			break;
		work(t, w);
		if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) == 1) {
			/* the last one: wake the main thread if it went to sleep */
			pthread_mutex_lock(&t->mu);
			if (t->main_waits)
				pthread_cond_signal(&t->done_cv);
			pthread_mutex_unlock(&t->mu);
		}
	}
	return NULL;
}

static void open_gate(struct team *t, int how)
{
	pthread_mutex_lock(&t->mu);
	t->gate = how;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

/* Start a team on @cpus[0..n-1]; the calling thread is worker 0. Returns 0 or -errno
 * (then nothing is left running). */
static int team_start(struct team *t, const unsigned *cpus, unsigned n)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->w = pl_xcalloc(n, sizeof(*t->w));
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	pthread_cond_init(&t->done_cv, NULL);
	atomic_init(&t->step, 0);
	atomic_init(&t->pending, 0);
	for (unsigned i = 0; i < n; i++) {
		t->w[i] = (struct worker){ .t = t, .idx = i, .cpu = cpus[i] };
		if (i == 0)
			continue;
		int r = pthread_create(&t->w[i].tid, NULL, worker_main, &t->w[i]);
		if (r) {
			open_gate(t, -1);
			for (unsigned k = 1; k < i; k++)
				pthread_join(t->w[k].tid, NULL);
			return -r;
		}
	}
	open_gate(t, 1);
	t->started = true;
	return pl_bench_pin_thread(cpus[0]);
}

/* Hand step @op to the workers (waking the sleeping ones) without waiting for it. */
static void step_start(struct team *t, int op)
{
	t->op = op;
	atomic_store_explicit(&t->pending, t->n - 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->step, 1, memory_order_release);
	pthread_mutex_lock(&t->mu);
	if (t->sleepers)
		pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

/* Run one step on every worker; returns the elapsed seconds, from the hand-off to the
 * end of the slowest thread. */
static double team_run(struct team *t, int op)
{
	uint64_t t0 = pl_now_ns();
	step_start(t, op);
	work(t, &t->w[0]);
	if (!spin_while(&t->pending, 0, false)) {
		pthread_mutex_lock(&t->mu);
		t->main_waits = true;
		while (atomic_load_explicit(&t->pending, memory_order_acquire))
			pthread_cond_wait(&t->done_cv, &t->mu);
		t->main_waits = false;
		pthread_mutex_unlock(&t->mu);
	}
	return (double)(pl_now_ns() - t0) / 1e9;
}

static void team_stop(struct team *t)
{
	if (!t->w)
		return;
	if (t->started) {
		step_start(t, OP_EXIT);
		for (unsigned i = 1; i < t->n; i++)
			pthread_join(t->w[i].tid, NULL);
	}
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	pthread_cond_destroy(&t->done_cv);
	free(t->w);
	t->w = NULL;
}

/* ---- the benchmark ---- */

struct mem_state {
	struct team *teams; /* one, or one per CPU node with --numa-matrix */
	int *team_node;
	unsigned nteams;
	struct arrays *ars; /* one, or one per memory node */
	unsigned nars;
	int metric[PL_STREAM_NOPS][2]; /* [op][nt] */
	int *cell_metric;	       /* matrix: [team][array][copy, triad, latency] */
	struct pl_chase *chase;	       /* matrix: one per memory node */
	struct pl_memlat *lat;	       /* --latency: the curve */
	bool skip[PL_STREAM_NOPS];     /* not selected by --only */
	bool nt, matrix;
	bool ready; /* setup finished: the arrays hold STREAM values */
};

static void mem_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs);

/* The CPUs of the run on NUMA node @node (all of them for node -1), at most @max. */
static unsigned node_cpus(struct pl_bench_ctx *ctx, int node, unsigned *out, unsigned max)
{
	const struct pl_cpuset *set = pl_bench_cpus(ctx);
	struct bitmask *bm = NULL;
	if (node >= 0) {
		bm = numa_allocate_cpumask();
		if (numa_node_to_cpus(node, bm) < 0) {
			numa_free_cpumask(bm);
			return 0;
		}
	}
	unsigned n = 0;
	for (int c = pl_cpuset_next(set, 0); c >= 0 && n < max;
	     c = pl_cpuset_next(set, (unsigned)c + 1))
		if (!bm || numa_bitmask_isbitset(bm, (unsigned)c))
			out[n++] = (unsigned)c;
	if (bm)
		numa_free_cpumask(bm);
	return n;
}

static int start_team(struct pl_bench_ctx *ctx, struct mem_state *s, unsigned k, int node,
		      int threads)
{
	unsigned cpus[PL_MAX_CPUS];
	unsigned n = node_cpus(ctx, node, cpus, PL_MAX_CPUS);
	if (threads > 0 && (unsigned)threads < n)
		n = (unsigned)threads;
	if (n == 0)
		return -ENOENT;
	s->team_node[k] = node;
	int r = team_start(&s->teams[k], cpus, n);
	if (r < 0)
		pl_bench_error(ctx, "cannot start %u threads: %s", n, strerror(-r));
	return r;
}

static void stream_validate(struct pl_bench_ctx *ctx, struct team *t, struct arrays *ar,
			    const char *where)
{
	t->ar = ar;
	team_run(t, OP_CHECK);
	double err[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < t->n; i++)
		for (int k = 0; k < 3; k++)
			err[k] += t->w[i].err[k];
	char msg[256];
	if (pl_stream_verdict(err, ar->len, &ar->e, PL_STREAM_EPSILON, msg, sizeof(msg)) < 0)
		pl_bench_invalidate(ctx, "STREAM validation failed%s: %s", where, msg);
}

/* info.reference: the DIMMs' theoretical peak (facts dimm.*, read through the sysroot like
 * `inspect`) that the triad is shown against, the same reading as the report's key numbers
 * (pl_dimm_peak_get). {"metric":"triad","name":"DIMM peak","unit":"GB/s","value":V|null,
 * "text":"62.3 GB/s (2 channels x 3200 MT/s x 8 B, SMBIOS)"|"unknown: REASON"}; the runner
 * adds "share_pct" of the metric's median. */
static void dimm_reference(json_t *info)
{
	struct pl_facts f;
	pl_facts_init(&f);
	pl_collect_dimm(&f);
	json_t *fj = pl_facts_to_json(&f, "dimm.");
	struct pl_dimm_peak p;
	bool known = pl_dimm_peak_get(fj, &p);
	pl_autofree char *text = pl_dimm_peak_text(&p);
	json_t *r = json_object();
	json_object_set_new(r, "metric", pl_json_string("triad"));
	json_object_set_new(r, "name", pl_json_string("DIMM peak"));
	json_object_set_new(r, "unit", pl_json_string("GB/s"));
	json_object_set_new(r, "value", known ? json_real(p.gbps) : json_null());
	json_object_set_new(r, "text", pl_json_string(text));
	json_object_set_new(info, "reference", r);
	json_decref(fj);
	pl_facts_free(&f);
}

static int mem_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct mem_opts *o = vo;
	unsigned ncpus = pl_cpuset_count(pl_bench_cpus(ctx));
	if (o->threads > 0 && (unsigned)o->threads > ncpus) {
		pl_bench_error(ctx,
			       "--threads %d: more threads than CPUs of the run (%u); use --cpus "
			       "to choose CPUs, one thread each",
			       o->threads, ncpus);
		return -EINVAL;
	}
	if (o->latency && !o->numa_matrix) {
		/* --quick's own --size (mem_quick) sizes STREAM's arrays; it is not the user's
		 * --size, so --latency --quick runs the curve */
		bool size_given =
			o->size && !(pl_bench_is_quick(ctx) && o->size == MEM_QUICK_BYTES);
		if (o->only || o->nt || size_given || o->threads) {
			pl_bench_error(ctx,
				       "--latency measures one thread's pointer chase: drop "
				       "--only, --nt, --size and --threads (--max-size sets the "
				       "largest working set)");
			return -EINVAL;
		}
		struct mem_state *s = pl_xcalloc(1, sizeof(*s));
		pl_bench_set_summary(ctx, "memory load-to-use latency by pointer chasing, "
					  "working sets from 4 KiB to beyond the L3 (ns)");
		int r = pl_memlat_setup(ctx, o->max_size, o->huge, mem_available(), PL_MEM_SHARE,
					&s->lat);
		if (r < 0) {
			free(s);
			return r;
		}
		*out = s;
		return 0;
	}
	if (o->latency || o->huge || o->max_size) {
		if (!o->numa_matrix) {
			pl_bench_error(ctx, "--huge and --max-size apply to --latency; add it");
			return -EINVAL;
		}
		if (o->max_size) {
			pl_bench_error(ctx, "--max-size applies to the --latency curve, not "
					    "--numa-matrix (its latency buffers are --size)");
			return -EINVAL;
		}
	}
	uint64_t size;
	int r = choose_size(ctx, o, &size);
	if (r < 0)
		return r;
	struct mem_state *s = pl_xcalloc(1, sizeof(*s));
	if (o->only) {
		if (o->numa_matrix) {
			pl_bench_error(ctx,
				       "--only does not apply to --numa-matrix (it measures copy "
				       "and triad); drop one of them");
			free(s);
			return -EINVAL;
		}
		char **v = pl_split(o->only, ",", NULL);
		for (int op = 0; op < PL_STREAM_NOPS; op++)
			s->skip[op] = true;
		for (char **p = v; *p; p++) {
			int op = 0;
			while (op < PL_STREAM_NOPS && strcmp(pl_stream_names[op], *p) != 0)
				op++;
			if (op == PL_STREAM_NOPS) {
				pl_bench_error(ctx,
					       "--only: no kernel named '%s' (one of: copy, scale, "
					       "add, triad, memcpy, sum)",
					       *p);
				pl_strv_free(v);
				free(s);
				return -EINVAL;
			}
			s->skip[op] = false;
		}
		pl_strv_free(v);
	}
	*out = s;
	s->nt = o->nt;
	s->matrix = o->numa_matrix;
	json_t *info = pl_bench_info(ctx);
	json_object_set_new(info, "array_bytes", json_integer((json_int_t)size));
	json_object_set_new(info, "isa", pl_json_string(pl_stream_isa(false)));
	json_object_set_new(info, "isa_sum", pl_json_string(pl_stream_sum_isa()));
	if (o->nt)
		json_object_set_new(info, "isa_nt", pl_json_string(pl_stream_isa(true)));
	if (!o->numa_matrix)
		dimm_reference(info);

	if (o->numa_matrix) {
		if (numa_available() < 0) {
			pl_bench_error(ctx, "--numa-matrix: NUMA is not available on this kernel");
			free(s);
			return -ENOTSUP;
		}
		int maxn = numa_max_node();
		s->teams = pl_xcalloc((size_t)maxn + 1, sizeof(*s->teams));
		s->team_node = pl_xcalloc((size_t)maxn + 1, sizeof(int));
		s->ars = pl_xcalloc((size_t)maxn + 1, sizeof(*s->ars));
		for (int nd = 0; nd <= maxn; nd++) {
			long long freeb = 0;
			if (numa_node_size64(nd, &freeb) <= 0)
				continue; /* no memory on this node */
			if ((uint64_t)freeb < 3 * size) {
				char b1[32], b2[32];
				pl_bench_error(
					ctx,
					"--numa-matrix: node %d has %s free, the three arrays "
					"need %s; use a smaller --size",
					nd, pl_fmt_bytes(b1, sizeof(b1), (double)freeb),
					pl_fmt_bytes(b2, sizeof(b2), 3.0 * (double)size));
				mem_teardown(ctx, vo, s);
				return -EINVAL;
			}
			if (arrays_alloc(&s->ars[s->nars], size, nd) < 0) {
				pl_bench_error(ctx, "cannot allocate the arrays on node %d", nd);
				mem_teardown(ctx, vo, s);
				return -ENOMEM;
			}
			s->nars++;
		}
		for (int nd = 0; nd <= maxn; nd++) {
			r = start_team(ctx, s, s->nteams, nd, o->threads);
			if (r == -ENOENT)
				continue; /* no CPU of the run on this node */
			s->nteams++;
			if (r < 0) {
				mem_teardown(ctx, vo, s);
				return r;
			}
		}
		if (s->nars == 1 && s->nteams == 1)
			pl_bench_note(ctx, "one NUMA node: the matrix is its single (local) cell");
		s->cell_metric = pl_xcalloc((size_t)s->nteams * s->nars * 3, sizeof(int));
		for (unsigned t = 0; t < s->nteams; t++)
			for (unsigned m = 0; m < s->nars; m++)
				for (int k = 0; k < 3; k++) {
					static const char *const kind[3] = { "copy", "triad",
									     "latency" };
					char name[64];
					snprintf(name, sizeof(name), "%s cpu%d mem%d", kind[k],
						 s->team_node[t], s->ars[m].node);
					s->cell_metric[(t * s->nars + m) * 3 + k] = pl_bench_metric(
						ctx, name, k == 2 ? "ns" : "GB/s",
						k == 2 ? PL_LOWER_IS_BETTER : PL_HIGHER_IS_BETTER,
						k == 2 && t == 0 && m == 0
							? "ns per dependent load of a random cycle "
							  "through an array-sized buffer on the "
							  "memory node"
						: t == 0 && m == 0 && k == 0
							? "threads on the CPUs of the first node, "
							  "arrays "
							  "on the memory of the second"
							: NULL);
				}
		json_object_set_new(info, "numa_nodes", json_integer(maxn + 1));
		s->chase = pl_xcalloc(s->nars, sizeof(*s->chase));
		for (unsigned m = 0; m < s->nars; m++)
			if (pl_chase_build(&s->chase[m], size, s->ars[m].node, o->huge,
					   0x5eed + m) < 0) {
				pl_bench_error(ctx, "cannot allocate the latency buffer on node %d",
					       s->ars[m].node);
				mem_teardown(ctx, vo, s);
				return -ENOMEM;
			}
		json_object_set_new(info, "latency_bytes", json_integer((json_int_t)size));
	} else {
		s->teams = pl_xcalloc(1, sizeof(*s->teams));
		s->team_node = pl_xcalloc(1, sizeof(int));
		s->ars = pl_xcalloc(1, sizeof(*s->ars));
		if (arrays_alloc(&s->ars[0], size, -1) < 0) {
			pl_bench_error(ctx, "cannot allocate 3 x %llu bytes",
				       (unsigned long long)size);
			mem_teardown(ctx, vo, s);
			return -ENOMEM;
		}
		s->nars = 1;
		r = start_team(ctx, s, 0, -1, o->threads);
		s->nteams = 1;
		if (r < 0) {
			mem_teardown(ctx, vo, s);
			return r;
		}
		static const char *const help[PL_STREAM_NOPS] = {
			"STREAM Copy c=a, 16 B/element",       "STREAM Scale b=s*c, 16 B/element",
			"STREAM Add c=a+b, 24 B/element",      "STREAM Triad a=b+s*c, 24 B/element",
			"libc memcpy of a to c, 16 B/element", "read-only sum of a, 8 B/element",
		};
		for (int op = 0; op < PL_STREAM_NOPS; op++)
			for (int nt = 0; nt < 2; nt++) {
				s->metric[op][nt] = -1;
				if (s->skip[op] || (nt && (!o->nt || op > PL_STREAM_TRIAD)))
					continue;
				char name[32];
				snprintf(name, sizeof(name), "%s%s", pl_stream_names[op],
					 nt ? "_nt" : "");
				s->metric[op][nt] =
					pl_bench_metric(ctx, name, "GB/s", PL_HIGHER_IS_BETTER,
							nt ? "with non-temporal stores" : help[op]);
			}
	}
	json_object_set_new(info, "threads", json_integer(s->teams[0].n));
	/* first touch by the threads that will use each part (STREAM's parallel init) */
	for (unsigned m = 0; m < s->nars; m++) {
		s->teams[0].ar = &s->ars[m];
		team_run(&s->teams[0], OP_INIT);
	}
	/* the workers pinned themselves before the first step */
	for (unsigned t = 0; t < s->nteams; t++)
		for (unsigned i = 1; i < s->teams[t].n; i++)
			if (s->teams[t].w[i].pin_err < 0) {
				pl_bench_error(ctx, "cannot pin a thread to CPU %u: %s",
					       s->teams[t].w[i].cpu,
					       strerror(-s->teams[t].w[i].pin_err));
				mem_teardown(ctx, vo, s);
				return -EPERM;
			}
	s->ready = true;
	return 0;
}

static double gbps(const struct arrays *ar, enum pl_stream_op op, double secs)
{
	return (double)pl_stream_bytes[op] * (double)ar->len / secs / 1e9;
}

static int run_op(struct pl_bench_ctx *ctx, struct team *t, struct arrays *ar, int op, bool nt,
		  int metric)
{
	if (pl_bench_stopped(ctx))
		return -EINTR;
	t->ar = ar;
	t->nt = nt;
	double secs = team_run(t, op);
	pl_stream_expect_apply(&ar->e, (enum pl_stream_op)op);
	if (op == PL_STREAM_SUM) {
		double sum = 0;
		for (unsigned i = 0; i < t->n; i++)
			sum += t->w[i].partial;
		if (pl_stream_check_sum(sum, ar->len, &ar->e) < 0) {
			pl_bench_invalidate(ctx,
					    "sum validation failed: %.17g, expected %zu x %.17g",
					    sum, ar->len, ar->e.a);
		}
	}
	if (metric >= 0)
		pl_bench_record(ctx, metric, gbps(ar, (enum pl_stream_op)op, secs));
	return 0;
}

static int mem_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct mem_state *s = vs;
	int r = 0;
	if (s->lat)
		return pl_memlat_run(ctx, s->lat);
	if (s->matrix) {
		for (unsigned t = 0; t < s->nteams && r == 0; t++)
			for (unsigned m = 0; m < s->nars && r == 0; m++) {
				int *cm = &s->cell_metric[(t * s->nars + m) * 3];
				/* the calling thread is worker 0 of every team: on this node */
				pl_bench_pin_thread(s->teams[t].w[0].cpu);
				r = run_op(ctx, &s->teams[t], &s->ars[m], PL_STREAM_COPY, false,
					   cm[0]);
				if (r == 0)
					r = run_op(ctx, &s->teams[t], &s->ars[m], PL_STREAM_TRIAD,
						   false, cm[1]);
				if (r == 0)
					pl_bench_record(
						ctx, cm[2],
						pl_chase_ns_per_load(&s->chase[m], 20000000));
			}
		return r;
	}
	struct team *t = &s->teams[0];
	struct arrays *ar = &s->ars[0];
	for (int nt = 0; nt < 2 && r == 0; nt++) {
		if (nt && !s->nt)
			break;
		for (int op = PL_STREAM_COPY; op <= PL_STREAM_TRIAD && r == 0; op++)
			if (!s->skip[op])
				r = run_op(ctx, t, ar, op, nt, s->metric[op][nt]);
	}
	for (int op = PL_STREAM_MEMCPY; op <= PL_STREAM_SUM && r == 0; op++)
		if (!s->skip[op])
			r = run_op(ctx, t, ar, op, false, s->metric[op][0]);
	return r;
}

static void mem_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct mem_state *s = vs;
	/* STREAM validates once, after all repetitions */
	if (s->ready) {
		for (unsigned m = 0; m < s->nars; m++) {
			char where[32] = "";
			if (s->matrix)
				snprintf(where, sizeof(where), " on node %d", s->ars[m].node);
			stream_validate(ctx, &s->teams[0], &s->ars[m], where);
		}
		if (s->nars)
			json_object_set_new(
				pl_bench_info(ctx), "validation",
				pl_json_string("STREAM checkSTREAMresults: average relative "
					       "error of a, b, c <= 1e-13; sum checked"));
	}
	for (unsigned t = 0; t < s->nteams; t++)
		team_stop(&s->teams[t]);
	for (unsigned m = 0; m < s->nars; m++) {
		arrays_free(&s->ars[m]);
		if (s->chase)
			pl_chase_free(&s->chase[m]);
	}
	free(s->chase);
	pl_memlat_free(s->lat);
	free(s->teams);
	free(s->team_node);
	free(s->ars);
	free(s->cell_metric);
	free(s);
}

/* --dry-run of perflab report: the size a run with @vo would use, and why (read through
 * the sysroot, so `report --dry-run --sysroot DIR` plans for that machine's facts). */
static void mem_plan(const void *vo, json_t *plan)
{
	const struct mem_opts *o = vo;
	struct pl_mem_sizing in;
	sizing_read(&in);
	sizing_json(plan, &in);
	if (o->size) {
		json_object_set_new(plan, "array_bytes", json_integer((json_int_t)o->size));
		json_object_set_new(plan, "size_reason", pl_json_string("--size"));
		return;
	}
	struct pl_buf why = { 0 };
	struct pl_mem_size sz = pl_mem_default_size(&in, &why);
	json_object_set_new(plan, "array_bytes", json_integer((json_int_t)sz.bytes));
	json_object_set_new(plan, "size_reason", pl_json_string(why.data));
	pl_buf_free(&why);
}

static const char *const mem_quick[] = { "--size", MEM_QUICK_SIZE, "--runs", "2", "--warmup", "1",
					 NULL };

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const mem_headline[] = { "triad", NULL };

const struct pl_bench pl_bench_mem = {
	.name = "mem",
	.summary = "memory bandwidth: STREAM Copy/Scale/Add/Triad, memcpy, read-only sum (GB/s)",
	.description =
		"McCalpin's STREAM kernels with STREAM's byte counting (GB/s = 10^9 B/s) and\n"
		"validation, plus memcpy and a read-only sum. Arrays default to 4x the total\n"
		"last-level cache (hwloc; in a VM at most 64 MiB per CPU, since guests often\n"
		"see the host's L3), capped by available memory; the size and the reason are\n"
		"printed. One pinned thread per CPU of the run, waiting between kernels by\n"
		"spinning (up to 50 ms, then asleep) so that no wake-up is timed; best (STREAM's\n"
		"best-of-N) and median over the repetitions after a warm-up. Kernels are\n"
		"picked at run time by CPU features (no -march=native): Copy/Scale/Add/Triad in\n"
		"an explicit AVX2 loop, 128 B of each stream per iteration, stored in address\n"
		"order (likwid-bench's stream_avx shape; also on AVX-512 CPUs, where it ran\n"
		"faster), else portable\n"
		"loops; the sum in AVX-512, AVX2 or SSE2 with 32 partial sums, so its additions\n"
		"are not in index order, the same on every ISA; --nt adds streaming stores.\n"
		"--numa-matrix gives the (CPU node, memory node) bandwidth and latency table.\n"
		"--latency instead measures load-to-use latency by pointer chasing a random\n"
		"cycle, working sets 4 KiB to beyond 4x the L3, levels named from the facts.",
	.opts = mem_opt_table,
	.opts_size = sizeof(struct mem_opts),
	.opts_defaults = &mem_defaults,
	.default_runs = 5,
	.default_warmup = 1,
	.uses_all_cpus = true,
	.pins_threads = true,
	.quick_argv = mem_quick,
	.in_report = true,
	.headline = mem_headline,
	.plan = mem_plan,
	.setup = mem_setup,
	.run = mem_run,
	.teardown = mem_teardown,
};
