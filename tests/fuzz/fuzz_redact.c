/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snapshot --redact's scanner and rewriter (snapshot/redact.h) over any bytes: the first
 * byte chooses the member's path (a kernel version file, the SMBIOS table or another), the first
 * line is a hostname, and the whole input is also learnt as /etc/passwd and as an SMBIOS table.
 * Invariants: the output is at most PL_REDACT_BOUND(len) bytes, a member holding a NUL
 * keeps its length, the same input under the same key gives the same output, and no
 * token the scanner found in the input is found again in the output (but one that is the
 * pseudonym of another token of the input: a fuzzer sees the pseudonyms its inputs
 * produce and can feed them back, which no one without the key can; and, in a binary
 * member, where positions do not move, one whose bytes there were rewritten: the end of a
 * pseudonym's hex digits and the bytes after it may spell a literal by chance). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "snapshot/redact.h"

/* The input learnt and redacted under a fixed key; the output malloc'd, its length in
 * *outlen; the redactor in *rp (the caller frees it). */
static char *run(const uint8_t *data, size_t size, size_t *outlen, struct pl_redactor **rp)
{
	struct pl_redactor *r = pl_redactor_new("fuzz-key", 8);
	/* the first byte picks the member: a kernel version file, the SMBIOS table (whose
	 * System Information UUID bytes are replaced too) or any other */
	const char *path = !size		? "/proc/cmdline"
			   : (data[0] & 3) == 1 ? "/proc/version"
			   : (data[0] & 3) == 2 ? "/sys/firmware/dmi/tables/DMI"
						: "/proc/cmdline";
	const char *d = size ? (const char *)data + 1 : "";
	size_t n = size ? size - 1 : 0;
	const char *nl = memchr(d, '\n', n);
	char *host = fuzz_cstr((const uint8_t *)d, nl ? (size_t)(nl - d) : n);
	pl_redactor_literal(r, PL_RK_HOSTNAME, host);
	free(host);
	pl_redactor_learn(r, "/etc/passwd", d, n);
	pl_redactor_learn(r, "/sys/firmware/dmi/tables/DMI", d, n);
	char *o = pl_redact_buf(r, path, d, n, outlen);
	*rp = r;
	return o;
}

/* True when the token @m of @d is the pseudonym of another token the scanner finds in @d. */
static bool is_pseudonym(const struct pl_redactor *r, const char *d, size_t n, bool binary, bool vf,
			 const struct pl_redact_match *m)
{
	struct pl_redact_match o;
	char ps[352];
	for (size_t at = 0; pl_redact_next(r, d, n, at, binary, vf, &o); at = o.off + o.len) {
		size_t l = pl_redact_pseudonym(r, o.kind, d + o.off, o.len, binary, ps);
		if (l == m->len && memcmp(ps, d + m->off, l) == 0)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return -1;
	struct pl_redactor *r1, *r2;
	size_t n1, n2;
	char *o1 = run(data, size, &n1, &r1);
	char *o2 = run(data, size, &n2, &r2);
	size_t n = size ? size - 1 : 0;
	const char *d = size ? (const char *)data + 1 : "";
	FUZZ_ASSERT(n1 <= PL_REDACT_BOUND(n), "output bounded");
	FUZZ_ASSERT(n1 == n2 && memcmp(o1, o2, n1) == 0, "same input, same output");
	bool binary = memchr(d, '\0', n) != NULL;
	FUZZ_ASSERT(!binary || n1 == n, "a binary member keeps its length");
	bool compressed =
		n >= 2 && ((uint8_t)d[0] == 0x1f || (uint8_t)d[0] == 0x28 || (uint8_t)d[0] == 0xfd);
	bool vf = size && (data[0] & 3) == 1;
	struct pl_redact_match m, k;
	for (size_t at = 0; !compressed && pl_redact_next(r1, d, n, at, binary, vf, &m);
	     at = m.off + m.len) {
		for (size_t p = 0; pl_redact_next(r1, o1, n1, p, binary, vf, &k); p = k.off + k.len)
			FUZZ_ASSERT(k.len != m.len || memcmp(o1 + k.off, d + m.off, m.len) != 0 ||
					    is_pseudonym(r1, d, n, binary, vf, &m) ||
					    (binary && memcmp(o1 + k.off, d + k.off, k.len) != 0),
				    "no original token left");
	}
	free(o1);
	free(o2);
	pl_redactor_free(r1);
	pl_redactor_free(r2);
	return 0;
}
