/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the compress backends, corpora and measuring core. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "bench/compress/compress.h"
#include "bench/compress/corpus.h"

#define LEN (256 * 1024)

static void test_corpus_deterministic(void **state)
{
	(void)state;
	for (int k = 0; k < PL_CORPUS_COUNT; k++) {
		unsigned char *a = malloc(LEN), *b = malloc(LEN);
		memset(a, 0xAA, LEN);
		memset(b, 0x55, LEN);
		pl_corpus_generate(k, PL_CORPUS_SEED, a, LEN);
		pl_corpus_generate(k, PL_CORPUS_SEED, b, LEN);
		assert_memory_equal(a, b, LEN);
		pl_corpus_generate(k, PL_CORPUS_SEED + 1, b, LEN);
		assert_true(memcmp(a, b, LEN) != 0);
		free(a);
		free(b);
	}
}

/* zlib -6 ratio of each corpus lands in the documented band. */
static void test_corpus_ratios(void **state)
{
	(void)state;
	static const double lo[] = { 2.2, 4.0, 1.2 }, hi[] = { 4.5, 12.0, 2.5 };
	unsigned char *in = malloc(LEN);
	uLongf cap = compressBound(LEN);
	unsigned char *out = malloc(cap);
	for (int k = 0; k < PL_CORPUS_COUNT; k++) {
		pl_corpus_generate(k, PL_CORPUS_SEED, in, LEN);
		uLongf n = cap;
		assert_int_equal(compress2(out, &n, in, LEN, 6), Z_OK);
		double ratio = (double)LEN / (double)n;
		print_message("# corpus %s zlib-6 ratio %.2f\n", pl_corpus_names[k], ratio);
		assert_true(ratio > lo[k]);
		assert_true(ratio < hi[k]);
	}
	free(in);
	free(out);
}

/* Every gzip backend's stream inflates with zlib to the input; zstd round-trips. */
static void test_backends_roundtrip(void **state)
{
	(void)state;
	unsigned char *in = malloc(LEN);
	pl_corpus_generate(PL_CORPUS_TEXT, PL_CORPUS_SEED, in, LEN);
	size_t cap = pl_cz_bound(LEN);
	unsigned char *out = malloc(cap), *back = malloc(LEN);
	int tested = 0;
	for (size_t b = 0; b < pl_cz_nbackends; b++) {
		const struct pl_cz_backend *be = pl_cz_backends[b];
		if (be->unavailable()) {
			assert_true(be->accelerated); /* only QAT may be missing here */
			continue;
		}
		for (const int *lv = be->levels; *lv >= 0; lv++) {
			struct pl_cz_ctx *c = NULL;
			assert_int_equal(be->open(*lv, &c), 0);
			size_t n = 0, m = 0;
			assert_int_equal(be->compress(c, in, LEN, out, cap, &n), 0);
			assert_true(n > 100 && n < LEN);
			if (be->gzip) {
				assert_int_equal(out[0], 0x1f);
				assert_int_equal(out[1], 0x8b);
				assert_int_equal(pl_cz_verify_gzip(out, n, in, LEN), 0);
			}
			assert_int_equal(be->decompress(c, out, n, back, LEN, &m), 0);
			assert_int_equal(m, LEN);
			assert_memory_equal(back, in, LEN);
			/* output too small -> -ENOSPC, not a crash or a short stream */
			assert_int_equal(be->compress(c, in, LEN, out, 64, &n), -ENOSPC);
			be->close(c);
			tested++;
		}
	}
	assert_true(tested >= 3 + 3 + 4 + 2);
	free(in);
	free(out);
	free(back);
}

/* The verifier catches a corrupted stream and a stream of other data. */
static void test_verify_catches_corruption(void **state)
{
	(void)state;
	unsigned char *in = malloc(LEN);
	pl_corpus_generate(PL_CORPUS_JSON, PL_CORPUS_SEED, in, LEN);
	const struct pl_cz_backend *be = pl_cz_find("isal");
	assert_non_null(be);
	struct pl_cz_ctx *c = NULL;
	assert_int_equal(be->open(1, &c), 0);
	size_t cap = pl_cz_bound(LEN), n = 0;
	unsigned char *out = malloc(cap);
	assert_int_equal(be->compress(c, in, LEN, out, cap, &n), 0);
	assert_int_equal(pl_cz_verify_gzip(out, n, in, LEN), 0);
	in[1000] ^= 1; /* the input no longer matches */
	assert_int_equal(pl_cz_verify_gzip(out, n, in, LEN), -EILSEQ);
	in[1000] ^= 1;
	out[n / 2] ^= 0xff; /* corrupt the stream: zlib rejects it (bad data or CRC) */
	assert_int_not_equal(pl_cz_verify_gzip(out, n, in, LEN), 0);
	assert_int_equal(pl_cz_verify_gzip(out, n, in, LEN - 1) < 0, 1);
	be->close(c);
	free(in);
	free(out);
}

static void test_bad_level(void **state)
{
	(void)state;
	struct pl_cz_ctx *c = NULL;
	assert_int_equal(pl_cz_find("zlib")->open(0, &c), -EINVAL);
	assert_int_equal(pl_cz_find("isal")->open(4, &c), -EINVAL);
	assert_int_equal(pl_cz_find("libdeflate")->open(13, &c), -EINVAL);
	assert_null(pl_cz_find("gzip"));
	const struct pl_cz_backend *qat = pl_cz_find("qat");
	if (qat->unavailable()) {
		assert_true(strlen(qat->unavailable()) > 10);
		assert_int_equal(qat->open(1, &c), -ENODEV);
	}
}

static void test_measure(void **state)
{
	(void)state;
	unsigned char *in = malloc(LEN);
	pl_corpus_generate(PL_CORPUS_TEXT, PL_CORPUS_SEED, in, LEN);
	struct pl_cz_measure m;
	assert_int_equal(pl_cz_measure(pl_cz_find("zlib"), 1, in, LEN, 64 * 1024, 0.05, &m), 0);
	/* The CPU-time ordering below is asserted on the best of five short rounds: one round
	 * can be inflated by a host preempting this vCPU (guest CPU time that the guest's
	 * steal-time accounting missed), as CI's shared host did once. */
	double best_comp = m.comp_cpu_s_per_gb, best_decomp = m.decomp_cpu_s_per_gb;
	for (int round = 1; round < 5; round++) {
		struct pl_cz_measure again;
		assert_int_equal(
			pl_cz_measure(pl_cz_find("zlib"), 1, in, LEN, 64 * 1024, 0.02, &again), 0);
		if (again.comp_cpu_s_per_gb > 0 && again.comp_cpu_s_per_gb < best_comp)
			best_comp = again.comp_cpu_s_per_gb;
		if (again.decomp_cpu_s_per_gb > 0 && again.decomp_cpu_s_per_gb < best_decomp)
			best_decomp = again.decomp_cpu_s_per_gb;
	}
	print_message("# zlib 1 CPU s/GB, best of 5: deflate %.3f inflate %.3f\n", best_comp,
		      best_decomp);
	assert_true(m.verified);
	assert_int_equal(m.in_bytes, LEN);
	assert_true(m.ratio > 2.0 && m.ratio < 5.0);
	assert_true(m.comp_mbps > 1 && m.comp_mbps < 10000);
	/* inflate costs less CPU per byte than deflate (zlib level 1: about 3x here); CPU
	 * time, not wall MB/s, so another process on the CPU cannot turn it around */
	assert_true(m.decomp_cpu_s_per_gb > 0);
	assert_true(best_decomp < best_comp);
	assert_true(m.comp_passes >= 1);
	assert_true(m.comp_cpu_s_per_gb > 0);
	/* ratio ordering: zlib 9 compresses at least as well as zlib 1 */
	struct pl_cz_measure m9;
	assert_int_equal(pl_cz_measure(pl_cz_find("zlib"), 9, in, LEN, 0, 0.01, &m9), 0);
	assert_true(m9.ratio > m.ratio);
	assert_int_equal(pl_cz_measure(pl_cz_find("zlib"), 10, in, LEN, 0, 0.01, &m9), -EINVAL);
	/* a series: buffers made once; the later runs leave the check out and read the
	 * same sizes and ratio from the timed pass */
	struct pl_cz_reqs *q = pl_cz_reqs_new(in, LEN, 64 * 1024);
	struct pl_cz_measure first, later;
	assert_int_equal(pl_cz_measure_reqs(pl_cz_find("zlib"), 1, q, 0.01, true, &first), 0);
	assert_int_equal(pl_cz_measure_reqs(pl_cz_find("zlib"), 1, q, 0.01, false, &later), 0);
	assert_true(first.verified);
	assert_false(later.verified);
	assert_int_equal(later.out_bytes, first.out_bytes);
	assert_int_equal(later.out_bytes, m.out_bytes);
	assert_true(later.ratio == first.ratio);
	assert_true(later.comp_passes >= 1 && later.decomp_passes >= 1);
	assert_true(later.decomp_cpu_s_per_gb > 0);
	/* another level on the same buffers: its own sizes */
	assert_int_equal(pl_cz_measure_reqs(pl_cz_find("zlib"), 9, q, 0.01, false, &later), 0);
	assert_int_equal(pl_cz_measure_reqs(pl_cz_find("zlib"), 9, q, 0.01, true, &first), 0);
	assert_int_equal(later.out_bytes, first.out_bytes);
	assert_true(later.out_bytes < m.out_bytes);
	pl_cz_reqs_free(q);
	free(in);
}

/* auto with injected failures: zero failed requests, fallbacks counted and plausible. */
static void test_serve_fallback(void **state)
{
	(void)state;
	unsigned char *in = malloc(LEN);
	pl_corpus_generate(PL_CORPUS_JSON, PL_CORPUS_SEED, in, LEN);
	struct pl_cz_serve_params p = {
		.primary = pl_cz_auto_primary(),
		.fallback = pl_cz_find("zlib"),
		.level = 1,
		.workers = 2,
		.seconds = 0.3,
		.req = 16 * 1024,
		.inject_failure = 0.25,
		.seed = 42,
	};
	struct pl_cz_serve_result r;
	assert_int_equal(pl_cz_serve(&p, in, LEN, &r), 0);
	assert_true(r.requests > 20);
	assert_int_equal(r.failed, 0);
	assert_int_equal(r.fallbacks, r.injected); /* only injected failures on software */
	double frac = (double)r.fallbacks / (double)r.requests;
	print_message("# %llu requests, %llu fallbacks (%.3f)\n", (unsigned long long)r.requests,
		      (unsigned long long)r.fallbacks, frac);
	assert_true(frac > 0.10 && frac < 0.40);
	assert_true(r.mbps > 0 && r.cpu_s_per_gb > 0);
	/* without a fallback every injected failure is a failed request */
	p.fallback = NULL;
	p.inject_failure = 1.0;
	p.workers = 1;
	p.seconds = 0.05;
	assert_int_equal(pl_cz_serve(&p, in, LEN, &r), 0);
	assert_true(r.requests > 0);
	assert_int_equal(r.failed, r.requests);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_deterministic),
		cmocka_unit_test(test_corpus_ratios),
		cmocka_unit_test(test_backends_roundtrip),
		cmocka_unit_test(test_verify_catches_corruption),
		cmocka_unit_test(test_bad_level),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_serve_fallback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
