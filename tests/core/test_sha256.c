/* SPDX-License-Identifier: GPL-3.0-or-later */
/* util/sha256: the example vectors of FIPS 180-4 (NIST's "SHA256.pdf" and
 * "SHA2_Additional.pdf" examples: "abc", the 448-bit message, the empty message and one
 * million 'a'), fed whole and in uneven pieces across block boundaries; HMAC-SHA256
 * with RFC 4231's test cases 1, 2 and 6 (a key longer than the block). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/sha256.h"

static void hex_of(struct pl_sha256 *s, char hex[65])
{
	uint8_t d[32];
	pl_sha256_final(s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void test_vectors(void **state)
{
	(void)state;
	static const struct {
		const char *msg, *hex;
	} v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char hex[65];
		pl_sha256_hex(v[i].msg, strlen(v[i].msg), hex);
		assert_string_equal(hex, v[i].hex);
		/* byte by byte: the same digest */
		struct pl_sha256 s;
		pl_sha256_init(&s);
		for (size_t k = 0; v[i].msg[k]; k++)
			pl_sha256_update(&s, v[i].msg + k, 1);
		hex_of(&s, hex);
		assert_string_equal(hex, v[i].hex);
	}
}

static void test_million_a(void **state)
{
	(void)state;
	size_t n = 1000000;
	char *a = malloc(n);
	assert_non_null(a);
	memset(a, 'a', n);
	char hex[65];
	pl_sha256_hex(a, n, hex);
	assert_string_equal(hex,
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* pieces of 63, 1, 65, ... bytes straddle every block boundary differently */
	struct pl_sha256 s;
	pl_sha256_init(&s);
	size_t off = 0, step = 63;
	while (off < n) {
		size_t take = off + step > n ? n - off : step;
		pl_sha256_update(&s, a + off, take);
		off += take;
		step = step == 63 ? 1 : step == 1 ? 65 : 63;
	}
	hex_of(&s, hex);
	assert_string_equal(hex,
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void test_hmac(void **state)
{
	(void)state;
	uint8_t k1[20], k6[131], d[32];
	memset(k1, 0x0b, sizeof(k1));
	memset(k6, 0xaa, sizeof(k6));
	static const char m6[] = "Test Using Larger Than Block-Size Key - Hash Key First";
	const struct {
		const void *key;
		size_t keylen;
		const char *msg, *hex;
	} v[] = {
		{ k1, sizeof(k1), "Hi There",
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ "Jefe", 4, "what do ya want for nothing?",
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ k6, sizeof(k6), m6,
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		/* the message in two parts: the same digest as whole */
		size_t l = strlen(v[i].msg), h = l / 3;
		const void *parts[] = { v[i].msg, v[i].msg + h };
		size_t lens[] = { h, l - h };
		pl_hmac_sha256(v[i].key, v[i].keylen, 2, parts, lens, d);
		char hex[65];
		for (int j = 0; j < 32; j++)
			snprintf(hex + 2 * j, 3, "%02x", d[j]);
		assert_string_equal(hex, v[i].hex);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_hmac),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
