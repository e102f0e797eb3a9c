/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the io core: file creation and cleanup, residency, the psync and
 * io_uring windows, small files. Files go to a directory under the build tree (a real
 * disk file system, unlike /tmp on some machines), removed at the end. */
#include <dirent.h>
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
#include <linux/io_uring.h>

#include "bench/io/io.h"

static char dir[4096];

static int count_entries(const char *d)
{
	DIR *dp = opendir(d);
	if (!dp)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

static int setup(void **state)
{
	(void)state;
	const char *b = getenv("PERFLAB_BUILDDIR");
	snprintf(dir, sizeof(dir), "%s/perflab-io-test.XXXXXX", b ? b : ".");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir); /* fails (and so the group fails) when anything was left behind */
}

static void test_create_remove(void **state)
{
	(void)state;
	struct pl_io_file f;
	assert_int_equal(pl_io_file_create(dir, 1 << 20, &f, NULL, NULL), 0);
	struct stat st;
	assert_int_equal(stat(f.path, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	assert_int_equal(count_entries(dir), 1);
	pl_io_file_remove(&f);
	pl_io_file_remove(&f); /* idempotent */
	assert_int_equal(count_entries(dir), 0);

	/* bad inputs: nothing left behind */
	assert_int_equal(pl_io_file_create("/nonexistent-perflab", 4096, &f, NULL, NULL), -ENOENT);
	assert_int_equal(pl_io_file_create("/etc/hostname", 4096, &f, NULL, NULL), -ENOTDIR);
	assert_int_equal(pl_io_file_create(dir, 1ull << 60, &f, NULL, NULL), -ENOSPC);
	assert_int_equal(pl_io_file_create(dir, 0, &f, NULL, NULL), -EINVAL);
	assert_true(pl_io_file_create("/proc", 4096, &f, NULL, NULL) < 0);
	assert_int_equal(count_entries(dir), 0);

	/* the signal-safe cleanup removes what is still registered */
	struct pl_io_file g;
	struct pl_io_sf sf;
	assert_int_equal(pl_io_file_create(dir, 8192, &g, NULL, NULL), 0);
	assert_int_equal(pl_io_sf_create(dir, 20, 100, &sf, NULL, NULL), 0);
	assert_int_equal(count_entries(dir), 2);
	pl_io_cleanup_all();
	assert_int_equal(count_entries(dir), 0);
	free(g.path);
	free(sf.dir);
}

static void test_residency(void **state)
{
	(void)state;
	struct pl_io_file f;
	assert_int_equal(pl_io_file_create(dir, 8 << 20, &f, NULL, NULL), 0);
	double hot = -1, cold = -1;
	assert_int_equal(pl_io_warm_file(f.path), 0);
	assert_int_equal(pl_io_residency(f.path, &hot), 0);
	assert_int_equal(pl_io_drop_file_cache(f.path), 0);
	assert_int_equal(pl_io_residency(f.path, &cold), 0);
	print_message("# residency hot %.1f%% cold %.1f%%\n", hot, cold);
	assert_true(hot > 99.0);
	assert_true(cold < 10.0);
	pl_io_file_remove(&f);
}

static void window(const struct pl_io_file *f, enum pl_io_rw rw, enum pl_io_engine e, bool direct,
		   uint64_t bs, unsigned jobs, unsigned depth)
{
	struct pl_io_params p = { .rw = rw,
				  .engine = e,
				  .bs = bs,
				  .jobs = jobs,
				  .iodepth = depth,
				  .direct = direct,
				  .seconds = 0.2,
				  .seed = 1,
				  .first_cpu = -1 };
	struct pl_hist h;
	pl_hist_init(&h, 0);
	struct pl_io_result r;
	int rc = pl_io_run(f, &p, &h, &r);
	if (rc == -EOPNOTSUPP && direct) {
		print_message("# O_DIRECT not supported here\n");
		pl_hist_free(&h);
		return;
	}
	assert_int_equal(rc, 0);
	print_message("# %s %s%s bs=%llu jobs=%u depth=%u: %.0f MB/s %.0f IOPS p50 %.0f ns\n",
		      pl_io_rw_names[rw], pl_io_engine_names[e], direct ? " direct" : "",
		      (unsigned long long)bs, jobs, depth, r.mbps, r.iops,
		      pl_hist_quantile(&h, 0.5));
	assert_true(r.ops > 10);
	assert_int_equal(r.bytes, r.ops * bs); /* every operation complete, none short */
	assert_int_equal(h.n, r.ops);	       /* one latency per operation */
	assert_true(r.elapsed_s >= 0.19 && r.elapsed_s < 5);
	assert_true(r.user_s + r.sys_s > 0);
	assert_true(pl_hist_quantile(&h, 0.5) > 100); /* > 100 ns: a real syscall happened */
	pl_hist_free(&h);
}

static void test_windows(void **state)
{
	(void)state;
	struct pl_io_file f;
	assert_int_equal(pl_io_file_create(dir, 16 << 20, &f, NULL, NULL), 0);
	window(&f, PL_IO_READ, PL_IO_PSYNC, false, 1 << 20, 1, 1);
	window(&f, PL_IO_READ, PL_IO_PSYNC, true, 1 << 20, 2, 1);
	window(&f, PL_IO_RANDREAD, PL_IO_URING, true, 4096, 1, 16);
	window(&f, PL_IO_RANDREAD, PL_IO_URING, false, 4096, 2, 4);
	window(&f, PL_IO_WRITE, PL_IO_PSYNC, false, 65536, 1, 1);
	window(&f, PL_IO_RANDWRITE, PL_IO_URING, true, 4096, 1, 8);
	/* bad parameters */
	struct pl_io_params p = { .rw = PL_IO_READ,
				  .bs = 1000,
				  .jobs = 1,
				  .direct = true,
				  .seconds = 0.1,
				  .first_cpu = -1 };
	struct pl_io_result r;
	assert_int_equal(pl_io_run(&f, &p, NULL, &r), -EINVAL); /* unaligned direct */
	p.bs = 32 << 20;
	assert_int_equal(pl_io_run(&f, &p, NULL, &r), -EINVAL); /* bigger than the file */
	pl_io_file_remove(&f);
}

/* --iodepth-batch: every batch completes every operation with one latency each; each
 * io_uring_enter(2) submits at most @batch operations, so the loop makes at least
 * ops / batch calls that do not wait, and with batch 1 (fio's default) at least one per
 * operation; the rings' setup flags are fio's, or a prefix of them a kernel accepted. */
static void test_uring_batch(void **state)
{
	(void)state;
	if (pl_io_uring_probe() < 0) {
		print_message("# skipped: io_uring not available\n");
		return;
	}
	struct pl_io_file f;
	assert_int_equal(pl_io_file_create(dir, 8 << 20, &f, NULL, NULL), 0);
	const unsigned batches[] = { 1, 4, 16, 0, 1000 }; /* 0 and 1000: every free slot */
	for (size_t k = 0; k < sizeof(batches) / sizeof(batches[0]); k++) {
		struct pl_io_params p = { .rw = PL_IO_RANDREAD,
					  .engine = PL_IO_URING,
					  .bs = 4096,
					  .jobs = 1,
					  .iodepth = 16,
					  .batch = batches[k],
					  .direct = true,
					  .seconds = 0.15,
					  .seed = 1,
					  .first_cpu = -1 };
		struct pl_hist h;
		pl_hist_init(&h, 0);
		struct pl_io_result r;
		int rc = pl_io_run(&f, &p, &h, &r);
		if (rc == -EOPNOTSUPP) {
			print_message("# skipped: O_DIRECT not supported here\n");
			pl_hist_free(&h);
			break;
		}
		assert_int_equal(rc, 0);
		unsigned eff = batches[k] == 0 || batches[k] > 16 ? 16 : batches[k];
		print_message("# batch %u: %llu ops, %llu io_uring_enter calls (%llu waited), "
			      "flags %#x\n",
			      batches[k], (unsigned long long)r.ops, (unsigned long long)r.enters,
			      (unsigned long long)r.waits, r.uring_flags);
		assert_true(r.ops > 10);
		assert_int_equal(r.bytes, r.ops * 4096);
		assert_int_equal(h.n, r.ops);
		assert_true(r.enters * eff >= r.ops);
		if (eff == 1)
			assert_true(r.enters >= r.ops);
		/* as fio's loop: the calls that submit do not wait, and a call waits only
		 * when the CQ ring was empty, so at least ops / batch calls did not wait */
		assert_true(r.waits < r.enters);
		assert_true((r.enters - r.waits) * eff >= r.ops);
		const unsigned coop = IORING_SETUP_COOP_TASKRUN,
			       single = coop | IORING_SETUP_SINGLE_ISSUER,
			       all = single | IORING_SETUP_DEFER_TASKRUN;
		assert_true(r.uring_flags == 0 || r.uring_flags == coop ||
			    r.uring_flags == single || r.uring_flags == all);
		pl_hist_free(&h);
	}
	/* psync: no ring, no io_uring_enter */
	struct pl_io_params p = { .rw = PL_IO_RANDREAD,
				  .engine = PL_IO_PSYNC,
				  .bs = 4096,
				  .jobs = 1,
				  .iodepth = 1,
				  .batch = 4,
				  .seconds = 0.05,
				  .seed = 1,
				  .first_cpu = -1 };
	struct pl_io_result r;
	assert_int_equal(pl_io_run(&f, &p, NULL, &r), 0);
	assert_int_equal(r.enters, 0);
	assert_int_equal(r.waits, 0);
	assert_int_equal(r.uring_flags, 0);
	pl_io_file_remove(&f);
}

/* Cold buffered reads stay cold: a time-based run wraps around a small file many times;
 * each job drops its range after every pass (one drop per pass: bytes / range; the
 * residency after the run is that of the last, unfinished pass, so it is only printed).
 * Without cold, no drop and the file ends up cached. */
static void test_cold_passes(void **state)
{
	(void)state;
	struct pl_io_file f;
	assert_int_equal(pl_io_file_create(dir, 4 << 20, &f, NULL, NULL), 0);
	assert_int_equal(pl_io_drop_file_cache(f.path), 0);
	struct pl_io_params p = { .rw = PL_IO_READ,
				  .engine = PL_IO_PSYNC,
				  .bs = 1 << 20,
				  .jobs = 1,
				  .iodepth = 1,
				  .cold = true,
				  .seconds = 0.3,
				  .seed = 1,
				  .first_cpu = -1 };
	struct pl_io_result r;
	assert_int_equal(pl_io_run(&f, &p, NULL, &r), 0);
	double res = -1;
	assert_int_equal(pl_io_residency(f.path, &res), 0);
	print_message("# cold: %llu bytes, %llu drops, residency after %.0f%%\n",
		      (unsigned long long)r.bytes, (unsigned long long)r.drops, res);
	assert_true(r.bytes >= 2 * (4u << 20)); /* wrapped at least once */
	assert_true(r.drops >= 1);
	/* a drop after every full pass, except a pass cut short by the deadline */
	assert_true(r.drops == r.bytes / (4u << 20) || r.drops + 1 == r.bytes / (4u << 20));
	p.cold = false;
	assert_int_equal(pl_io_run(&f, &p, NULL, &r), 0);
	assert_int_equal(r.drops, 0);
	assert_int_equal(pl_io_residency(f.path, &res), 0);
	assert_true(res > 99.0); /* a warm pass leaves the whole file cached */
	pl_io_file_remove(&f);
}

static void test_smallfiles(void **state)
{
	(void)state;
	struct pl_io_sf sf;
	assert_int_equal(pl_io_sf_create(dir, 200, 3000, &sf, NULL, NULL), 0);
	assert_int_equal(count_entries(sf.dir), 200);
	struct pl_hist hs, hr;
	pl_hist_init(&hs, 0);
	pl_hist_init(&hr, 0);
	struct pl_io_sf_result cold, warm;
	assert_int_equal(pl_io_sf_drop(&sf), 0);
	assert_int_equal(pl_io_sf_measure(&sf, &hs, &hr, &cold, NULL, NULL), 0);
	assert_int_equal(hs.n, 200);
	assert_int_equal(hr.n, 200);
	assert_int_equal(pl_io_sf_measure(&sf, NULL, NULL, &warm, NULL, NULL), 0);
	print_message(
		"# smallfiles cold %.0f files/s (res %.0f%%), warm %.0f files/s (res %.0f%%)\n",
		cold.read_files_per_s, cold.residency, warm.read_files_per_s, warm.residency);
	assert_true(cold.residency < 20);
	assert_true(warm.residency > 99);
	assert_true(warm.read_files_per_s > 0 && warm.stat_files_per_s > 0);
	assert_true(warm.mbps > 0);
	pl_hist_free(&hs);
	pl_hist_free(&hr);
	pl_io_sf_remove(&sf);
	assert_int_equal(count_entries(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_remove), cmocka_unit_test(test_residency),
		cmocka_unit_test(test_windows),	      cmocka_unit_test(test_uring_batch),
		cmocka_unit_test(test_cold_passes),   cmocka_unit_test(test_smallfiles),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
