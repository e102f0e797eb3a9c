/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench/mem/stream.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

const char *const pl_stream_names[PL_STREAM_NOPS] = { "copy",  "scale",	 "add",
						      "triad", "memcpy", "sum" };
const unsigned pl_stream_bytes[PL_STREAM_NOPS] = { 16, 16, 24, 24, 16, 8 };

void pl_stream_expect_init(struct pl_stream_expect *e)
{
	e->a = 1.0;
	e->b = 2.0;
	e->c = 0.0;
}

void pl_stream_expect_apply(struct pl_stream_expect *e, enum pl_stream_op op)
{
	const double s = PL_STREAM_SCALAR;
	switch (op) {
	case PL_STREAM_COPY:
	case PL_STREAM_MEMCPY:
		e->c = e->a;
		break;
	case PL_STREAM_SCALE:
		e->b = s * e->c;
		break;
	case PL_STREAM_ADD:
		e->c = e->a + e->b;
		break;
	case PL_STREAM_TRIAD:
		e->a = e->b + s * e->c;
		break;
	case PL_STREAM_SUM:
	case PL_STREAM_NOPS:
		break;
	}
}

/* ---- Copy, Scale, Add, Triad ----
 * The portable loops (SSE2 at the x86-64 baseline, whatever the compiler vectorizes
 * elsewhere), and an explicit AVX2 variant used on every CPU that has AVX2, AVX-512 ones
 * included: per iteration 128 B of each stream in four ymm registers (two cache lines),
 * the loads of one input stream grouped, then those of the other, then the four stores,
 * as likwid-bench's stream_avx and copy_avx kernels are written (vmovaps x4, vmulpd,
 * vaddpd with a memory operand, vmovaps x4 to the destination; regular, temporal stores).
 * GCC's target_clones of the loops before issued one vector per stream per iteration
 * (the avx512f clone: one zmm, 64 B, 5 instructions); in one process alternating pass by
 * pass over the same 256 MiB arrays on the AMD EPYC (Zen 5) guest, one thread, this
 * AVX2 loop was 0-7% faster than that clone in five runs of 50-120 passes each (median
 * and mean; the host's load 1.6-12 moved the rate 10-26 GB/s), and an AVX-512 loop of
 * the same shape (256 B per iteration) 6-10% slower. The arithmetic is STREAM's, a
 * multiply then an add (no FMA contraction, -std=c17), so every variant gives the same
 * bits. Unaligned-load instructions: the parts of bench mem start on 64 B boundaries
 * of page-aligned arrays, where they cost the same as aligned ones, and any [lo, hi)
 * stays valid. */
static void k_copy(double *restrict c, const double *restrict a, size_t lo, size_t hi)
{
	for (size_t j = lo; j < hi; j++)
		c[j] = a[j];
}

static void k_scale(double *restrict b, const double *restrict c, size_t lo, size_t hi)
{
	const double s = PL_STREAM_SCALAR;
	for (size_t j = lo; j < hi; j++)
		b[j] = s * c[j];
}

static void k_add(double *restrict c, const double *restrict a, const double *restrict b, size_t lo,
		  size_t hi)
{
	for (size_t j = lo; j < hi; j++)
		c[j] = a[j] + b[j];
}

static void k_triad(double *restrict a, const double *restrict b, const double *restrict c,
		    size_t lo, size_t hi)
{
	const double s = PL_STREAM_SCALAR;
	for (size_t j = lo; j < hi; j++)
		a[j] = b[j] + s * c[j];
}

/* The portable loops, by op. */
static void k_portable(enum pl_stream_op op, double *a, double *b, double *c, size_t lo, size_t hi)
{
	switch (op) {
	case PL_STREAM_COPY:
		k_copy(c, a, lo, hi);
		break;
	case PL_STREAM_SCALE:
		k_scale(b, c, lo, hi);
		break;
	case PL_STREAM_ADD:
		k_add(c, a, b, lo, hi);
		break;
	case PL_STREAM_TRIAD:
		k_triad(a, b, c, lo, hi);
		break;
	default:
		break;
	}
}

#if defined(__x86_64__)
/* Doubles per iteration of the AVX2 loops: 4 ymm = 128 B of each stream. */
#define AVX2_STEP 16

/* The four stores of an iteration, in address order. Without the ordering points GCC 12's
 * scheduler at -O3 moved one store behind the others (Triad stored at +32, +64, +96, +0
 * bytes, Add at +32, +64, +0, +96), and on the Intel Xeon KVM guest (AVX-512, 2 vCPUs,
 * 2026-12-03) a Triad loop whose stores leave address order ran at 0.90x the in-order one
 * (standalone, 256 MiB arrays, one thread, alternated: 14.0 vs 15.5 GB/s), which was the
 * whole of perflab's 0.85x likwid-bench there. likwid-bench's assembly kernels store in
 * order. The empty asm with a memory clobber orders the stores for the compiler only; it
 * emits no instruction. */
__attribute__((target("avx2"), always_inline)) static inline void
store4_in_order(double *d, __m256d x0, __m256d x1, __m256d x2, __m256d x3)
{
	_mm256_storeu_pd(d, x0);
	__asm__ __volatile__("" ::: "memory");
	_mm256_storeu_pd(d + 4, x1);
	__asm__ __volatile__("" ::: "memory");
	_mm256_storeu_pd(d + 8, x2);
	__asm__ __volatile__("" ::: "memory");
	_mm256_storeu_pd(d + 12, x3);
}

__attribute__((target("avx2"))) static void k_avx2(enum pl_stream_op op, double *a, double *b,
						   double *c, size_t lo, size_t hi)
{
	const __m256d vs = _mm256_set1_pd(PL_STREAM_SCALAR);
	size_t j = lo, end = hi > lo ? lo + (hi - lo) / AVX2_STEP * AVX2_STEP : lo;
	switch (op) {
	case PL_STREAM_COPY:
		for (; j < end; j += AVX2_STEP) {
			__m256d x0 = _mm256_loadu_pd(a + j), x1 = _mm256_loadu_pd(a + j + 4);
			__m256d x2 = _mm256_loadu_pd(a + j + 8), x3 = _mm256_loadu_pd(a + j + 12);
			store4_in_order(c + j, x0, x1, x2, x3);
		}
		break;
	case PL_STREAM_SCALE:
		for (; j < end; j += AVX2_STEP) {
			__m256d x0 = _mm256_loadu_pd(c + j), x1 = _mm256_loadu_pd(c + j + 4);
			__m256d x2 = _mm256_loadu_pd(c + j + 8), x3 = _mm256_loadu_pd(c + j + 12);
			store4_in_order(b + j, _mm256_mul_pd(vs, x0), _mm256_mul_pd(vs, x1),
					_mm256_mul_pd(vs, x2), _mm256_mul_pd(vs, x3));
		}
		break;
	case PL_STREAM_ADD:
		for (; j < end; j += AVX2_STEP) {
			__m256d x0 = _mm256_loadu_pd(a + j), x1 = _mm256_loadu_pd(a + j + 4);
			__m256d x2 = _mm256_loadu_pd(a + j + 8), x3 = _mm256_loadu_pd(a + j + 12);
			x0 = _mm256_add_pd(x0, _mm256_loadu_pd(b + j));
			x1 = _mm256_add_pd(x1, _mm256_loadu_pd(b + j + 4));
			x2 = _mm256_add_pd(x2, _mm256_loadu_pd(b + j + 8));
			x3 = _mm256_add_pd(x3, _mm256_loadu_pd(b + j + 12));
			store4_in_order(c + j, x0, x1, x2, x3);
		}
		break;
	case PL_STREAM_TRIAD:
		for (; j < end; j += AVX2_STEP) {
			/* s * c[j] + b[j]: the same two roundings as b[j] + s * c[j] */
			__m256d x0 = _mm256_mul_pd(vs, _mm256_loadu_pd(c + j));
			__m256d x1 = _mm256_mul_pd(vs, _mm256_loadu_pd(c + j + 4));
			__m256d x2 = _mm256_mul_pd(vs, _mm256_loadu_pd(c + j + 8));
			__m256d x3 = _mm256_mul_pd(vs, _mm256_loadu_pd(c + j + 12));
			x0 = _mm256_add_pd(x0, _mm256_loadu_pd(b + j));
			x1 = _mm256_add_pd(x1, _mm256_loadu_pd(b + j + 4));
			x2 = _mm256_add_pd(x2, _mm256_loadu_pd(b + j + 8));
			x3 = _mm256_add_pd(x3, _mm256_loadu_pd(b + j + 12));
			store4_in_order(a + j, x0, x1, x2, x3);
		}
		break;
	default:
		return;
	}
	k_portable(op, a, b, c, j, hi);
}
#endif

/* Copy, Scale, Add or Triad on [lo, hi) by the best variant of this CPU. */
static void k_op(enum pl_stream_op op, double *a, double *b, double *c, size_t lo, size_t hi)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2")) {
		k_avx2(op, a, b, c, lo, hi);
		return;
	}
#endif
	k_portable(op, a, b, c, lo, hi);
}

void pl_stream_init(double *a, double *b, double *c, size_t lo, size_t hi)
{
	for (size_t j = lo; j < hi; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = 0.0;
	}
}

/* Scalar head/tail of the streaming variants, and their fallback. */
static void scalar_op(enum pl_stream_op op, double *a, double *b, double *c, size_t lo, size_t hi)
{
	const double s = PL_STREAM_SCALAR;
	for (size_t j = lo; j < hi; j++)
		switch (op) {
		case PL_STREAM_COPY:
			c[j] = a[j];
			break;
		case PL_STREAM_SCALE:
			b[j] = s * c[j];
			break;
		case PL_STREAM_ADD:
			c[j] = a[j] + b[j];
			break;
		case PL_STREAM_TRIAD:
			a[j] = b[j] + s * c[j];
			break;
		default:
			return;
		}
}

#if defined(__x86_64__)
/* Streaming (non-temporal) stores bypass the caches and avoid the read-for-ownership of
 * the destination line (Intel SDM vol. 1, 10.4.6.2 "Caching of Temporal vs. Non-Temporal
 * Data"); likwid-bench's *_mem kernels use them. Per iteration four vectors of each
 * stream (two cache lines with ymm, four with zmm), the loads of one input stream
 * grouped, then the other's, then the four streaming stores in address order, as
 * likwid-bench's stream_mem_avx and stream_mem_avx512 are written (vmovapd x4, vmulpd,
 * vaddpd, vmovntpd x4). Issuing one vector per stream per iteration kept fewer lines in
 * flight: on the AMD EPYC guest that loop ran at 0.86-0.88x stream_mem_avx. The empty
 * asm between the stores orders them for the compiler only (as store4_in_order above).
 * The head up to the vector alignment and the tail are scalar; the arithmetic is
 * STREAM's, so every variant gives the same bits. One body per vector width. */
#define NT_ORDER() __asm__ __volatile__("" ::: "memory")
#define NT_STORE4(STREAM, W, d, x0, x1, x2, x3)                                                    \
	do {                                                                                       \
		STREAM((d), (x0));                                                                 \
		NT_ORDER();                                                                        \
		STREAM((d) + (W), (x1));                                                           \
		NT_ORDER();                                                                        \
		STREAM((d) + 2 * (W), (x2));                                                       \
		NT_ORDER();                                                                        \
		STREAM((d) + 3 * (W), (x3));                                                       \
	} while (0)
#define NT_FUNC(NAME, TARGET, W, VT, LOAD, STREAM, ADD, MUL, SET1)                                 \
	__attribute__((target(TARGET))) static void NAME(                                          \
		enum pl_stream_op op, double *a, double *b, double *c, size_t lo, size_t hi)       \
	{                                                                                          \
		const VT vs = SET1(PL_STREAM_SCALAR);                                              \
		size_t j = lo;                                                                     \
		while (j < hi && ((uintptr_t)(a + j) % (W * 8) || (uintptr_t)(b + j) % (W * 8) ||  \
				  (uintptr_t)(c + j) % (W * 8)))                                   \
			j++;                                                                       \
		scalar_op(op, a, b, c, lo, j);                                                     \
		size_t end = j + (hi - j) / (4 * W) * (4 * W);                                     \
		switch (op) {                                                                      \
		case PL_STREAM_COPY:                                                               \
			for (; j < end; j += 4 * W) {                                              \
				VT x0 = LOAD(a + j), x1 = LOAD(a + j + W);                         \
				VT x2 = LOAD(a + j + 2 * W), x3 = LOAD(a + j + 3 * W);             \
				NT_STORE4(STREAM, W, c + j, x0, x1, x2, x3);                       \
			}                                                                          \
			break;                                                                     \
		case PL_STREAM_SCALE:                                                              \
			for (; j < end; j += 4 * W) {                                              \
				VT x0 = LOAD(c + j), x1 = LOAD(c + j + W);                         \
				VT x2 = LOAD(c + j + 2 * W), x3 = LOAD(c + j + 3 * W);             \
				NT_STORE4(STREAM, W, b + j, MUL(vs, x0), MUL(vs, x1), MUL(vs, x2), \
					  MUL(vs, x3));                                            \
			}                                                                          \
			break;                                                                     \
		case PL_STREAM_ADD:                                                                \
			for (; j < end; j += 4 * W) {                                              \
				VT x0 = LOAD(a + j), x1 = LOAD(a + j + W);                         \
				VT x2 = LOAD(a + j + 2 * W), x3 = LOAD(a + j + 3 * W);             \
				x0 = ADD(x0, LOAD(b + j));                                         \
				x1 = ADD(x1, LOAD(b + j + W));                                     \
				x2 = ADD(x2, LOAD(b + j + 2 * W));                                 \
				x3 = ADD(x3, LOAD(b + j + 3 * W));                                 \
				NT_STORE4(STREAM, W, c + j, x0, x1, x2, x3);                       \
			}                                                                          \
			break;                                                                     \
		case PL_STREAM_TRIAD:                                                              \
			for (; j < end; j += 4 * W) {                                              \
				/* s * c[j] + b[j]: the same two roundings as b[j] + s * c[j] */   \
				VT x0 = MUL(vs, LOAD(c + j)), x1 = MUL(vs, LOAD(c + j + W));       \
				VT x2 = MUL(vs, LOAD(c + j + 2 * W));                              \
				VT x3 = MUL(vs, LOAD(c + j + 3 * W));                              \
				x0 = ADD(x0, LOAD(b + j));                                         \
				x1 = ADD(x1, LOAD(b + j + W));                                     \
				x2 = ADD(x2, LOAD(b + j + 2 * W));                                 \
				x3 = ADD(x3, LOAD(b + j + 3 * W));                                 \
				NT_STORE4(STREAM, W, a + j, x0, x1, x2, x3);                       \
			}                                                                          \
			break;                                                                     \
		default:                                                                           \
			break;                                                                     \
		}                                                                                  \
		scalar_op(op, a, b, c, j, hi);                                                     \
		_mm_sfence();                                                                      \
	}

NT_FUNC(nt_avx512, "avx512f", 8, __m512d, _mm512_load_pd, _mm512_stream_pd, _mm512_add_pd,
	_mm512_mul_pd, _mm512_set1_pd)
NT_FUNC(nt_avx, "avx", 4, __m256d, _mm256_load_pd, _mm256_stream_pd, _mm256_add_pd, _mm256_mul_pd,
	_mm256_set1_pd)
NT_FUNC(nt_sse2, "sse2", 2, __m128d, _mm_load_pd, _mm_stream_pd, _mm_add_pd, _mm_mul_pd,
	_mm_set1_pd)
#endif

int pl_stream_op_variant(const char *isa, enum pl_stream_op op, double *a, double *b, double *c,
			 size_t lo, size_t hi)
{
	if (op > PL_STREAM_TRIAD)
		return -ENOTSUP;
	if (!strcmp(isa, "scalar")) {
		k_portable(op, a, b, c, lo, hi);
		return 0;
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (!strcmp(isa, "avx2") && __builtin_cpu_supports("avx2")) {
		k_avx2(op, a, b, c, lo, hi);
		return 0;
	}
	if (!strcmp(isa, "nt-avx512") && __builtin_cpu_supports("avx512f")) {
		nt_avx512(op, a, b, c, lo, hi);
		return 0;
	}
	if (!strcmp(isa, "nt-avx") && __builtin_cpu_supports("avx")) {
		nt_avx(op, a, b, c, lo, hi);
		return 0;
	}
	if (!strcmp(isa, "nt-sse2")) {
		nt_sse2(op, a, b, c, lo, hi);
		return 0;
	}
#endif
	return -ENOTSUP;
}

/* ---- the read-only sum ----
 * 32 partial sums: lane k (0..31) adds the elements lo + k, lo + k + 32, ... in index
 * order; at the end the lanes are added pairwise (lane k += lane k + w for w = 16, 8, 4,
 * 2, 1) and the tail (the last (hi - lo) % 32 elements, added in index order) is added
 * last. Every variant keeps this order, so all return the same bits for the same input.
 * Why not a plain loop: a floating-point sum cannot be reordered by the compiler (no
 * -ffast-math), so the former eight scalar accumulators under target_clones became
 * vaddsd chains with lane extractions (GCC 12: 112 instructions per 256 B in the avx2
 * clone, 147 per 512 B in avx512f), and GCC's generic vectors wider than the clone's
 * registers go through the stack. The explicit variants hold the 32 lanes in 4 zmm, 8
 * ymm or 16 xmm accumulators: per 256 B, four (avx512f), eight (avx2) independent vector
 * adds with a memory operand, as likwid-bench's sum_avx kernel (four ymm accumulators,
 * vaddpd ymm, [mem]). */
#define SUM_LANES 32

static double sum_finish(double l[SUM_LANES], const double *a, size_t j, size_t hi)
{
	for (size_t w = SUM_LANES / 2; w >= 1; w /= 2)
		for (size_t k = 0; k < w; k++)
			l[k] += l[k + w];
	double t = 0;
	for (; j < hi; j++)
		t += a[j];
	return l[0] + t;
}

/* The end of the whole 32-element steps of [lo, hi). */
static size_t sum_end(size_t lo, size_t hi)
{
	return hi > lo ? lo + (hi - lo) / SUM_LANES * SUM_LANES : lo;
}

static double sum_scalar(const double *a, size_t lo, size_t hi)
{
	double l[SUM_LANES] = { 0 };
	size_t j = lo, end = sum_end(lo, hi);
	for (; j < end; j += SUM_LANES)
		for (size_t k = 0; k < SUM_LANES; k++)
			l[k] += a[j + k];
	return sum_finish(l, a, j, hi);
}

#if defined(__x86_64__)
/* One body per vector width W (doubles per register): SUM_LANES / W accumulators,
 * unaligned loads (a part may start anywhere). */
#define SUM_BODY(W, VT, LOADU, STOREU, ADD, ZERO)                                                  \
	{                                                                                          \
		VT s[SUM_LANES / W];                                                               \
		for (size_t k = 0; k < SUM_LANES / W; k++)                                         \
			s[k] = ZERO();                                                             \
		size_t j = lo, end = sum_end(lo, hi);                                              \
		for (; j < end; j += SUM_LANES)                                                    \
			for (size_t k = 0; k < SUM_LANES / W; k++)                                 \
				s[k] = ADD(s[k], LOADU(a + j + k * W));                            \
		double l[SUM_LANES];                                                               \
		for (size_t k = 0; k < SUM_LANES / W; k++)                                         \
			STOREU(l + k * W, s[k]);                                                   \
		return sum_finish(l, a, j, hi);                                                    \
	}

__attribute__((target("avx512f"))) static double sum_avx512(const double *a, size_t lo, size_t hi)
	SUM_BODY(8, __m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_add_pd, _mm512_setzero_pd)

		__attribute__((target("avx2"))) static double sum_avx2(const double *a, size_t lo,
								       size_t hi)
			SUM_BODY(4, __m256d, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_add_pd,
				 _mm256_setzero_pd)

				static double sum_sse2(const double *a, size_t lo, size_t hi)
					SUM_BODY(2, __m128d, _mm_loadu_pd, _mm_storeu_pd,
						 _mm_add_pd, _mm_setzero_pd)
#endif

						static double k_sum(const double *a, size_t lo,
								    size_t hi)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return sum_avx512(a, lo, hi);
	if (__builtin_cpu_supports("avx2"))
		return sum_avx2(a, lo, hi);
	return sum_sse2(a, lo, hi);
#else
	return sum_scalar(a, lo, hi);
#endif
}

int pl_stream_sum_variant(const char *isa, const double *a, size_t lo, size_t hi, double *ret)
{
	if (!strcmp(isa, "scalar")) {
		*ret = sum_scalar(a, lo, hi);
		return 0;
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (!strcmp(isa, "avx512f") && __builtin_cpu_supports("avx512f")) {
		*ret = sum_avx512(a, lo, hi);
		return 0;
	}
	if (!strcmp(isa, "avx2") && __builtin_cpu_supports("avx2")) {
		*ret = sum_avx2(a, lo, hi);
		return 0;
	}
	if (!strcmp(isa, "sse2")) {
		*ret = sum_sse2(a, lo, hi);
		return 0;
	}
#endif
	return -ENOTSUP;
}

const char *pl_stream_isa(bool nt)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (nt && __builtin_cpu_supports("avx512f"))
		return "avx512f";
	if (__builtin_cpu_supports("avx2"))
		return nt ? "avx" : "avx2";
	if (nt && __builtin_cpu_supports("avx"))
		return "avx";
	return nt ? "sse2" : "default";
#else
	(void)nt;
	return "default";
#endif
}

const char *pl_stream_sum_isa(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return "avx512f";
	if (__builtin_cpu_supports("avx2"))
		return "avx2";
	return "sse2";
#else
	return "scalar";
#endif
}

static void nt_op(enum pl_stream_op op, double *a, double *b, double *c, size_t lo, size_t hi)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		nt_avx512(op, a, b, c, lo, hi);
	else if (__builtin_cpu_supports("avx"))
		nt_avx(op, a, b, c, lo, hi);
	else
		nt_sse2(op, a, b, c, lo, hi);
#else
	scalar_op(op, a, b, c, lo, hi);
#endif
}

double pl_stream_kernel(enum pl_stream_op op, bool nt, double *a, double *b, double *c, size_t lo,
			size_t hi)
{
	if (nt && op <= PL_STREAM_TRIAD) {
		nt_op(op, a, b, c, lo, hi);
		return 0;
	}
	switch (op) {
	case PL_STREAM_COPY:
	case PL_STREAM_SCALE:
	case PL_STREAM_ADD:
	case PL_STREAM_TRIAD:
		k_op(op, a, b, c, lo, hi);
		break;
	case PL_STREAM_MEMCPY:
		if (hi > lo)
			memcpy(c + lo, a + lo, (hi - lo) * sizeof(double));
		break;
	case PL_STREAM_SUM:
		return k_sum(a, lo, hi);
	case PL_STREAM_NOPS:
		break;
	}
	return 0;
}

void pl_stream_err_sums(const double *a, const double *b, const double *c, size_t lo, size_t hi,
			const struct pl_stream_expect *e, double err[3])
{
	double ea = 0, eb = 0, ec = 0;
	for (size_t j = lo; j < hi; j++) {
		ea += fabs(a[j] - e->a);
		eb += fabs(b[j] - e->b);
		ec += fabs(c[j] - e->c);
	}
	err[0] += ea;
	err[1] += eb;
	err[2] += ec;
}

int pl_stream_verdict(const double err[3], size_t n, const struct pl_stream_expect *e, double eps,
		      char *msg, size_t len)
{
	const double expect[3] = { e->a, e->b, e->c };
	static const char *const names[3] = { "a", "b", "c" };
	for (int k = 0; k < 3; k++) {
		double avg = n ? err[k] / (double)n : 0;
		/* STREAM divides by the expected value; an expected 0 compares absolutely */
		double rel = expect[k] != 0 ? fabs(avg / expect[k]) : avg;
		if (!(rel <= eps)) {
			snprintf(msg, len,
				 "array %s: average relative error %.3g exceeds %.0e (expected "
				 "%.17g "
				 "in every element)",
				 names[k], rel, eps, expect[k]);
			return -EDOM;
		}
	}
	return 0;
}

int pl_stream_check_sum(double sum, size_t n, const struct pl_stream_expect *e)
{
	double want = (double)n * e->a;
	if (want == 0)
		return sum == 0 ? 0 : -EDOM;
	return fabs(sum - want) / fabs(want) <= 1e-6 ? 0 : -EDOM;
}
