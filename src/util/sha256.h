/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 (FIPS 180-4, "Secure Hash Standard", NIST 2015) for the checksums of a
 * snapshot's manifest (docs/snapshot.md), and HMAC-SHA256 (RFC 2104) for the keyed
 * pseudonyms of snapshot --redact, through Nettle's sha256 and hmac (nettle/sha2.h,
 * nettle/hmac.h; the library libarchive already depends on). Tested with the FIPS 180-4
 * example vectors and the RFC 4231 HMAC vectors (tests/core/test_sha256.c). */
#ifndef PERFLAB_UTIL_SHA256_H
#define PERFLAB_UTIL_SHA256_H
#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

/** An incremental SHA-256 state; start it with pl_sha256_init(). */
struct pl_sha256 {
	struct sha256_ctx ctx; /**< Nettle's state */
};

/** Start a hash. */
void pl_sha256_init(struct pl_sha256 *s);
/** Hash @len more bytes at @data. */
void pl_sha256_update(struct pl_sha256 *s, const void *data, size_t len);
/** Pad, finish and write the 32-byte digest into @out; @s is spent. */
void pl_sha256_final(struct pl_sha256 *s, uint8_t out[32]);
/** The SHA-256 of @len bytes at @data as 64 lowercase hex digits and a NUL in @hex. */
void pl_sha256_hex(const void *data, size_t len, char hex[65]);
/** HMAC-SHA256 (RFC 2104) of the @n byte strings at @parts (@lens bytes each, hashed one
 *  after the other as one message) under the @keylen-byte @key, into @out (32 bytes). */
void pl_hmac_sha256(const void *key, size_t keylen, size_t n, const void *const *parts,
		    const size_t *lens, uint8_t out[32]);

#endif
