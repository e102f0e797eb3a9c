/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STREAM kernels, byte counting and validation, after John D. McCalpin's STREAM
 * (https://www.cs.virginia.edu/stream/ref.html, stream.c 5.10): Copy c=a, Scale b=s*c,
 * Add c=a+b, Triad a=b+s*c, on arrays of doubles; plus memcpy (c=a through libc) and a
 * read-only sum of a. Bytes are counted as STREAM counts them: each array element read or
 * written once per kernel, no write-allocate traffic (Copy and Scale 16 B per element,
 * Add and Triad 24 B, memcpy 16 B, sum 8 B).
 *
 * Validation is STREAM's checkSTREAMresults(): every element of an array holds the same
 * value, so the expected values are tracked as three scalars updated with the same
 * arithmetic as the kernels, and the average absolute error of each array, relative to
 * the expected value, must stay below epsilon (1e-13 for doubles). */
#ifndef PERFLAB_BENCH_STREAM_H
#define PERFLAB_BENCH_STREAM_H
#include <stdbool.h>
#include <stddef.h>

/** The kernels, in the order a repetition runs them. */
enum pl_stream_op {
	PL_STREAM_COPY,
	PL_STREAM_SCALE,
	PL_STREAM_ADD,
	PL_STREAM_TRIAD,
	PL_STREAM_MEMCPY,
	PL_STREAM_SUM,
	PL_STREAM_NOPS,
};

/** STREAM's scalar for Scale and Triad. */
#define PL_STREAM_SCALAR 3.0
/** STREAM's epsilon for double arrays. */
#define PL_STREAM_EPSILON 1e-13

/** Metric names ("copy", "scale", "add", "triad", "memcpy", "sum"). */
extern const char *const pl_stream_names[PL_STREAM_NOPS];
/** Bytes moved per array element, STREAM's counting. */
extern const unsigned pl_stream_bytes[PL_STREAM_NOPS];

/** Expected values of a, b, c (every element equal). Initial: 1, 2, 0 as STREAM's. */
struct pl_stream_expect {
	double a, b, c;
};
void pl_stream_expect_init(struct pl_stream_expect *e);
/** Apply @op to the expected values (SUM changes nothing). */
void pl_stream_expect_apply(struct pl_stream_expect *e, enum pl_stream_op op);

/** Fill elements [lo, hi) of a, b, c with the initial values (first touch). */
void pl_stream_init(double *a, double *b, double *c, size_t lo, size_t hi);
/** Run @op on elements [lo, hi). @nt: non-temporal (streaming) stores for Copy, Scale,
 *  Add and Triad where the CPU has them (x86 SSE2/AVX/AVX-512; elsewhere regular
 *  stores). Returns the partial sum for PL_STREAM_SUM, else 0. Elements [lo, hi) must
 *  start 64-byte aligned for the streaming stores to be used on the whole range.
 *  PL_STREAM_SUM is the sum of a[lo..hi) but not added in index order: 32 partial sums
 *  (lane k adds a[lo + k], a[lo + k + 32], ...), reduced pairwise, then the tail of the
 *  last (hi - lo) % 32 elements in index order (see pl_stream_sum_variant); so the
 *  result can differ from a left-to-right sum in the last bits, never between ISAs. */
double pl_stream_kernel(enum pl_stream_op op, bool nt, double *a, double *b, double *c, size_t lo,
			size_t hi);
/** The read-only sum of a[lo..hi) by one variant, in the order pl_stream_kernel's
 *  PL_STREAM_SUM documents: @isa "avx512f" (4 zmm accumulators), "avx2" (8 ymm), "sse2"
 *  (16 xmm) on x86-64, "scalar" (32 doubles, the portable fallback) everywhere. All give
 *  the same bits. Writes *@ret and returns 0; -ENOTSUP (nothing written) for an unknown
 *  @isa or one this CPU lacks. For tests and for reading the generated code. */
int pl_stream_sum_variant(const char *isa, const double *a, size_t lo, size_t hi, double *ret);
/** Copy, Scale, Add or Triad (@op) on [lo, hi) by one variant: @isa "avx2" (explicit, four
 *  ymm registers = 128 B of each stream per iteration, stored in address order,
 *  likwid-bench's stream_avx shape; x86-64 with AVX2) or "scalar" (the portable loops,
 *  vectorized by the compiler for the build's baseline) everywhere, or the streaming-store
 *  ones of `bench mem --nt` (x86-64): "nt-avx512" (avx512f), "nt-avx", "nt-sse2" (four
 *  vectors of each stream per iteration, non-temporal stores where all three arrays are
 *  aligned to the vector, scalar elsewhere). All give the same
 *  bits as STREAM's expressions. Returns 0; -ENOTSUP (nothing written) for an unknown
 *  @isa, one this CPU lacks, or another @op. For tests and for reading the generated
 *  code. */
int pl_stream_op_variant(const char *isa, enum pl_stream_op op, double *a, double *b, double *c,
			 size_t lo, size_t hi);
/** The instruction set Copy, Scale, Add and Triad are dispatched to at run time: "avx2"
 *  (the explicit variant, also on AVX-512 CPUs) or "default" (the portable loops); with
 *  @nt the streaming-store variant's: "avx512f", "avx", "sse2". Static strings. */
const char *pl_stream_isa(bool nt);
/** The read-only sum's variant on this CPU: "avx512f", "avx2", "sse2" (x86-64), else
 *  "scalar". A static string. */
const char *pl_stream_sum_isa(void);

/** Sums of |x[j] - expected| over [lo, hi) for a, b, c into err[0..2] (added). */
void pl_stream_err_sums(const double *a, const double *b, const double *c, size_t lo, size_t hi,
			const struct pl_stream_expect *e, double err[3]);
/** STREAM's verdict from the error sums over n elements: 0 when each array's average
 *  absolute error relative to its expected value is <= @eps; else -EDOM with a
 *  one-line explanation in @msg naming the array. */
int pl_stream_verdict(const double err[3], size_t n, const struct pl_stream_expect *e, double eps,
		      char *msg, size_t len);
/** Check a read-only sum of n elements of a: relative error <= 1e-6 (the sum of n equal
 *  values accumulates rounding of order (n / 32) * 2^-53 per lane, 32 lanes; the bound
 *  holds for any order of the additions). 0 or -EDOM. */
int pl_stream_check_sum(double sum, size_t n, const struct pl_stream_expect *e);

#endif
