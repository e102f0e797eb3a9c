/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 (FIPS 180-4, "Secure Hash Standard", NIST 2015, sections 4.1.2, 4.2.2, 5.1.1,
 * 5.3.3 and 6.2), for the checksums of a snapshot's manifest (docs/snapshot.md): none of
 * perflab's libraries (jansson, zstd, zlib, libarchive's public API, ...) exports one. Not
 * constant-time; not for secrets. Tested with the FIPS 180-4 example vectors
 * (tests/core/test_sha256.c). */
#ifndef PERFLAB_UTIL_SHA256_H
#define PERFLAB_UTIL_SHA256_H
#include <stddef.h>
#include <stdint.h>

/** An incremental SHA-256 state; zero it with pl_sha256_init(). */
struct pl_sha256 {
	uint32_t h[8];	 /**< the intermediate hash value H(i) */
	uint64_t bits;	 /**< message length so far, in bits */
	uint8_t buf[64]; /**< a partial block */
	size_t nbuf;	 /**< bytes in buf */
};

/** Start a hash (H(0) of FIPS 180-4 5.3.3). */
void pl_sha256_init(struct pl_sha256 *s);
/** Hash @len more bytes at @data. */
void pl_sha256_update(struct pl_sha256 *s, const void *data, size_t len);
/** Pad, finish and write the 32-byte digest into @out; @s is spent. */
void pl_sha256_final(struct pl_sha256 *s, uint8_t out[32]);
/** The SHA-256 of @len bytes at @data as 64 lowercase hex digits and a NUL in @hex. */
void pl_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
