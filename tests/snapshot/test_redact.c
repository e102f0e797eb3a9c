/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snapshot/redact: the token scanner's edge cases (IPv6 compressed and embedded-IPv4
 * forms, MACs in either case, addresses inside longer words, dotted version numbers in a
 * kernel version file), the values kept (loopback, netmasks, placeholders), the learnt
 * literals (/etc/passwd, the SMBIOS table, a short hostname), and the pseudonyms: their
 * shapes, the same under one key, different under another, the length kept in a binary
 * member. */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snapshot/redact.h"

static struct pl_redactor *new_r(const char *key)
{
	return pl_redactor_new(key, strlen(key));
}

/* The first token of @s as "kind@off+len", or "none". */
static const char *first(const struct pl_redactor *r, const char *s, bool vf)
{
	static char out[64];
	struct pl_redact_match m;
	if (!pl_redact_next(r, s, strlen(s), 0, false, vf, &m))
		return "none";
	snprintf(out, sizeof(out), "%s@%zu+%zu", pl_redact_kind_names[m.kind], m.off, m.len);
	return out;
}

static void test_scanner(void **state)
{
	(void)state;
	struct pl_redactor *r = new_r("k");
	static const struct {
		const char *in, *want;
	} v[] = {
		/* IPv4 */
		{ "inet 10.1.2.3/24 brd", "ipv4@5+8" },
		{ "ip=192.168.0.10:", "ipv4@3+12" },
		{ "5.10.0.1", "ipv4@0+8" }, /* a dotted quad is an address outside a version file */
		{ "v1.2.3.4", "none" },	    /* inside a word */
		{ "1.2.3.4.5", "none" },    /* a longer dotted number */
		{ "256.1.1.1 01.2.3.4", "none" },
		{ "127.0.0.1 0.0.0.0 255.255.255.0 255.255.255.255 224.0.0.251", "none" },
		/* IPv6 */
		{ "inet6 fe80::fc:ff:fe00:1/64", "ipv6@6+18" },
		{ "[2001:DB8::1]:443", "ipv6@1+11" },
		{ "::ffff:10.0.0.1 x", "ipv6@0+15" },
		{ "fd00::2.", "ipv6@0+7" },
		{ "a 1:2:3:4:5:6:7:8", "ipv6@2+15" },
		{ ":: ::1 fe80:: ff02::1", "none" },
		{ "12:34:56 0000:00:1f.2 std::vector", "none" },
		/* hardware addresses */
		{ "ether 52:54:00:ab:cd:ef brd", "mac@6+17" },
		{ "52:54:00:AB:CD:EF", "mac@0+17" },
		{ "52-54-00-12-34-56", "mac@0+17" },
		{ "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0f:a1:b2", "mac@0+59" },
		{ "00:00:00:00:00:00 ff:ff:ff:ff:ff:ff 52:54:00:12:34", "none" },
		/* UUIDs, instance ids */
		{ "UUID=3f2504e0-4f89-11d3-9a0c-0305e82c3301", "uuid@5+36" },
		{ "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "uuid@0+36" },
		{ "00000000-0000-0000-0000-000000000000", "none" },
		{ "id i-0123456789abcdef0.", "instance_id@3+19" },
		{ "i-0123456 xi-01234567", "none" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		print_message("%s\n", v[i].in);
		assert_string_equal(first(r, v[i].in, false), v[i].want);
	}
	/* a kernel version file: dotted quads are versions */
	assert_string_equal(first(r, "5.10.0.1 #1 SMP", true), "none");
	pl_redactor_free(r);
}

static void test_literals(void **state)
{
	(void)state;
	struct pl_redactor *r = new_r("k");
	assert_true(pl_redactor_literal(r, PL_RK_HOSTNAME, "vm\n"));
	assert_false(pl_redactor_literal(r, PL_RK_SERIAL, "Not Specified"));
	assert_false(pl_redactor_literal(r, PL_RK_SERIAL, "To Be Filled By O.E.M."));
	assert_false(pl_redactor_literal(r, PL_RK_SERIAL, "0000000000"));
	assert_false(pl_redactor_literal(r, PL_RK_SERIAL, "ab1")); /* too short */
	/* a short hostname only as a whole word: not in paths or sysctl names */
	assert_string_equal(first(r, "proc/sys/vm/swappiness vm.max_map_count kvm", false), "none");
	assert_string_equal(first(r, "127.0.1.1 vm", false), "hostname@10+2");
	assert_true(pl_redactor_literal(r, PL_RK_HOSTNAME, "node7.example.com"));
	assert_string_equal(first(r, "at node7.example.com", false), "hostname@3+17");
	assert_string_equal(first(r, "node7.lan", false), "hostname@0+5"); /* the first label */

	static const char pw[] = "root:x:0:0:root:/root:/bin/bash\n"
				 "nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n"
				 "alice:x:1000:1000:Alice:/home/alice:/bin/bash\n";
	pl_redactor_learn(r, "/etc/passwd", pw, strlen(pw));
	size_t n;
	char *o = pl_redact_buf(r, "/x", "root alice /home/alice/.cache /home/alicex nobody",
				strlen("root alice /home/alice/.cache /home/alicex nobody"), &n);
	regex_t re;
	assert_int_equal(regcomp(&re,
				 "^root user-[0-9a-f]{6} /home/user-[0-9a-f]{6}/\\.cache "
				 "/home/alicex nobody$",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	assert_int_equal(regexec(&re, o, 0, NULL, 0), 0);
	regfree(&re);
	free(o);
	assert_int_equal(pl_redactor_count(r, PL_RK_USER), 1);
	assert_int_equal(pl_redactor_count(r, PL_RK_HOME), 1);

	/* SMBIOS: a type 1 structure with its serial (string 2), then the end-of-table one */
	static const uint8_t dmi[] = { 1,   8,	 0,   0,   0,	0,   0,	  2,   'A', 'c',
				       'm', 'e', 0,   'S', 'N', '9', '8', '7', '6', 'X',
				       0,   0,	 127, 4,   0,	0,   0,	  0 };
	pl_redactor_learn(r, "/sys/firmware/dmi/tables/DMI", (const char *)dmi, sizeof(dmi));
	o = pl_redact_buf(r, "/sys/firmware/dmi/tables/DMI", (const char *)dmi, sizeof(dmi), &n);
	assert_int_equal(n, sizeof(dmi)); /* binary: the length kept */
	assert_null(memmem(o, n, "SN9876X", 7));
	assert_memory_equal(o, dmi, 13); /* header and "Acme" kept */
	free(o);
	assert_int_equal(pl_redactor_count(r, PL_RK_SERIAL), 1);
	pl_redactor_free(r);
}

/* pl_redact_buf() of @s under @key, malloc'd. */
static char *redact(const char *key, const char *s)
{
	struct pl_redactor *r = new_r(key);
	size_t n;
	char *o = pl_redact_buf(r, "/x", s, strlen(s), &n);
	pl_redactor_free(r);
	return o;
}

static void test_pseudonyms(void **state)
{
	(void)state;
	static const char in[] = "10.1.2.3 fe80::1:2:3:4 2001:4860::8888 52:54:00:AB:CD:EF "
				 "3f2504e0-4f89-11d3-9a0c-0305e82c3301 i-0123456789abcdef0";
	char *a = redact("key1", in), *b = redact("key1", in), *c = redact("key2", in);
	print_message("%s\n", a);
	regex_t re;
	assert_int_equal(
		regcomp(&re,
			"^(192\\.0\\.2|198\\.51\\.100|203\\.0\\.113)\\.[0-9]+ "
			"fe80::[0-9a-f:]+ 2001:db8:[0-9a-f:]+ [0-9A-F][26AE](:[0-9A-F]{2}){5} "
			"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} "
			"i-[0-9a-f]{17}$",
			REG_EXTENDED | REG_NOSUB),
		0);
	assert_int_equal(regexec(&re, a, 0, NULL, 0), 0);
	regfree(&re);
	assert_string_equal(a, b);	    /* the same key: the same pseudonyms */
	assert_string_not_equal(a, c);	    /* another key: others */
	assert_null(strstr(a, "10.1.2.3")); /* no original left */
	assert_null(strstr(a, "AB:CD:EF"));
	/* the same token twice in one input: the same pseudonym */
	char *d = redact("key1", "10.1.2.3 10.1.2.3");
	char *sp = strchr(d, ' ');
	assert_non_null(sp);
	assert_int_equal(strncmp(d, sp + 1, (size_t)(sp - d)), 0);
	free(a);
	free(b);
	free(c);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scanner),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_pseudonyms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
