/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The QAT backend of bench compress against a stand-in QATzip (fake_qatzip.c, found as
 * libqatzip.so.3 through LD_LIBRARY_PATH) and a sysroot with a QAT device bound to the
 * c6xx driver: the dlopen path, a verified gzip stream, `--backend auto` choosing QAT,
 * and the per-request fallback when the device has no free instance.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/compress/compress.h"
#include "bench/compress/corpus.h"
#include "util/sysroot.h"

#define LEN (512 * 1024)

static char root[] = "/tmp/perflab-qat.XXXXXX";
static unsigned char *in;

static int mkdirs(const char *base, const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (char *s = p + strlen(base) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	return mkdir(p, 0755);
}

static int group_teardown(void **state);

static int group_setup(void **state)
{
	if (!mkdtemp(root))
		return -1;
	in = malloc(LEN);
	if (!in || mkdirs(root, "sys/bus/pci/drivers/c6xx/0000:3d:00.0") < 0 ||
	    pl_sysroot_set(root) < 0) {
		group_teardown(state);
		return -1;
	}
	pl_corpus_generate(PL_CORPUS_TEXT, PL_CORPUS_SEED, in, LEN);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	char p[600];
	static const char *const dirs[] = { "sys/bus/pci/drivers/c6xx/0000:3d:00.0",
					    "sys/bus/pci/drivers/c6xx",
					    "sys/bus/pci/drivers",
					    "sys/bus/pci",
					    "sys/bus",
					    "sys",
					    "" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		rmdir(p);
	}
	free(in);
	return 0;
}

/* With a device and the library, QAT is available, chosen by auto, and its gzip stream
 * inflates with zlib to the input (pl_cz_measure verifies every request). */
static void test_qat_available_and_verified(void **state)
{
	(void)state;
	const struct pl_cz_backend *be = pl_cz_find("qat");
	assert_non_null(be);
	const char *why = be->unavailable();
	if (why)
		print_message("# qat unavailable: %s\n", why);
	assert_null(why);
	assert_ptr_equal(pl_cz_auto_primary(), be);
	struct pl_cz_measure m;
	assert_int_equal(pl_cz_measure(be, 1, in, LEN, 64 * 1024, 0.02, &m), 0);
	assert_true(m.verified);
	assert_int_equal(m.in_bytes, LEN);
	assert_true(m.ratio > 2.0); /* zlib level 1 on the text corpus */
	assert_true(m.comp_passes >= 1 && m.comp_mbps > 0);
}

/* A device with no free instance on every 4th request: every such request is served by
 * the software fallback, none fails, and the count is exactly one in four per worker. */
static int busy_setup(void **state)
{
	(void)state;
	return setenv("FAKE_QZ_BUSY_EVERY", "4", 1);
}

static int busy_teardown(void **state)
{
	(void)state;
	return unsetenv("FAKE_QZ_BUSY_EVERY");
}

static void test_qat_busy_falls_back(void **state)
{
	(void)state;
	struct pl_cz_serve_params p = { .primary = pl_cz_find("qat"),
					.fallback = pl_cz_find("zlib"),
					.level = 1,
					.workers = 2,
					.seconds = 0.3,
					.req = 64 * 1024,
					.seed = 42 };
	struct pl_cz_serve_result r;
	assert_int_equal(pl_cz_serve(&p, in, LEN, &r), 0);
	print_message("# %llu requests, %llu fell back\n", (unsigned long long)r.requests,
		      (unsigned long long)r.fallbacks);
	assert_true(r.requests >= 8);
	assert_int_equal(r.failed, 0);
	assert_int_equal(r.injected, 0);
	/* each worker is a forked process with its own call counter in the fake:
	 * floor(requests_w / 4) each, summed over 2 workers */
	assert_true(r.fallbacks <= r.requests / 4);
	assert_true(r.fallbacks + 2 >= r.requests / 4);
}

/* Injected failures on top of a healthy device: fallbacks equal the injected count. */
static void test_qat_injected_failures(void **state)
{
	(void)state;
	struct pl_cz_serve_params p = { .primary = pl_cz_find("qat"),
					.fallback = pl_cz_find("zlib"),
					.level = 1,
					.workers = 1,
					.seconds = 0.2,
					.req = 64 * 1024,
					.inject_failure = 0.3,
					.seed = 7 };
	struct pl_cz_serve_result r;
	assert_int_equal(pl_cz_serve(&p, in, LEN, &r), 0);
	assert_int_equal(r.failed, 0);
	assert_true(r.injected > 0);
	assert_int_equal(r.fallbacks, r.injected);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qat_available_and_verified),
		cmocka_unit_test_setup_teardown(test_qat_busy_falls_back, busy_setup,
						busy_teardown),
		cmocka_unit_test(test_qat_injected_failures),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
