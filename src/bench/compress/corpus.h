/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in corpora for `perflab bench compress`: generated, not shipped, from a fixed seed
 * so every run and every machine compresses the same bytes. Compressibility is set to
 * resemble real data of each kind (zlib -6 ratio: text ~3x, JSON logs ~5-8x, mixed
 * binary ~1.5-2x), not to flatter any one algorithm. */
#ifndef PERFLAB_BENCH_COMPRESS_CORPUS_H
#define PERFLAB_BENCH_COMPRESS_CORPUS_H
#include <stddef.h>
#include <stdint.h>

/** Corpus kinds. */
enum pl_corpus_kind {
	PL_CORPUS_TEXT,	  /**< HTML-like English-ish text: tags, attributes, Zipf words */
	PL_CORPUS_JSON,	  /**< JSON lines of web-server logs */
	PL_CORPUS_BINARY, /**< mixed binary: random, small integer tables, runs, text */
	PL_CORPUS_COUNT,
};

/** Names in enum order ("text", "json", "binary"), NULL-terminated (an option table's
 *  choices). */
extern const char *const pl_corpus_names[];

/** The default seed of the built-in corpora. */
#define PL_CORPUS_SEED 0x5eed2026u

/** Fill @buf[0..len) with corpus @kind generated from @seed. Deterministic: the same
 *  (kind, len, seed) gives the same bytes on every machine (splitmix64, Steele et al.
 *  2014). */
void pl_corpus_generate(enum pl_corpus_kind kind, uint64_t seed, void *buf, size_t len);

#endif
