/* SPDX-License-Identifier: GPL-3.0-or-later */
/* util/sha256: the example vectors of FIPS 180-4 (NIST's "SHA256.pdf" and
 * "SHA2_Additional.pdf" examples: "abc", the 448-bit message, the empty message and one
 * million 'a'), fed whole and in uneven pieces across block boundaries. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_million_a),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
