/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/sha256.h"

#include <stdio.h>

#include <nettle/hmac.h>

void pl_sha256_init(struct pl_sha256 *s)
{
	sha256_init(&s->ctx);
}

void pl_sha256_update(struct pl_sha256 *s, const void *data, size_t len)
{
	sha256_update(&s->ctx, len, data);
}

void pl_sha256_final(struct pl_sha256 *s, uint8_t out[32])
{
	sha256_digest(&s->ctx, SHA256_DIGEST_SIZE, out);
}

void pl_sha256_hex(const void *data, size_t len, char hex[65])
{
	struct pl_sha256 s;
	uint8_t d[32];
	pl_sha256_init(&s);
	pl_sha256_update(&s, data, len);
	pl_sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

void pl_hmac_sha256(const void *key, size_t keylen, size_t n, const void *const *parts,
		    const size_t *lens, uint8_t out[32])
{
	struct hmac_sha256_ctx ctx;
	hmac_sha256_set_key(&ctx, keylen, key);
	for (size_t i = 0; i < n; i++)
		hmac_sha256_update(&ctx, lens[i], parts[i]);
	hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}
