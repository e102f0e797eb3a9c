/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench io: fio-style storage measurements on a file perflab creates and removes
 * (core.c): sequential/random reads and writes with psync or io_uring, buffered or
 * O_DIRECT, N jobs; or many small files (open+read+close and stat). Page-cache honesty:
 * --cache says which question is asked (hot: cached data; cold: pages dropped with
 * posix_fadvise before every run) and the measured residency (mincore) is reported. */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/io/io.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"

static const char *const pattern_choices[] = { "read",	    "write",	  "randread",
					       "randwrite", "smallfiles", NULL };
enum { PAT_SMALLFILES = 4 };
static const char *const cache_choices[] = { "cold", "hot", "auto", NULL };
enum { CACHE_COLD, CACHE_HOT, CACHE_AUTO };

struct io_opts {
	int pattern;
	uint64_t bs;
	int jobs;
	int iodepth;
	int batch;
	int engine;
	bool direct;
	uint64_t size;
	const char *dir;
	double time;
	int cache;
	bool drop_caches;
	int nfiles;
	uint64_t file_size;
};

static const struct io_opts io_defaults = {
	.pattern = 0,
	.bs = 1u << 20,
	.jobs = 1,
	.iodepth = 1,
	.batch = 1,
	.engine = PL_IO_PSYNC,
	.size = 256u << 20,
	.time = 2,
	.cache = CACHE_COLD,
	.nfiles = 1000,
	.file_size = 16 * 1024,
};

static const struct pl_opt io_opt_table[] = {
	{ "pattern", 0, PL_OPT_ENUM, offsetof(struct io_opts, pattern), "P",
	  "read, write, randread, randwrite (fio's rw=) or smallfiles", pattern_choices,
	  .def = "read", .was_short = 'p' },
	{ "bs", 'b', PL_OPT_SIZE, offsetof(struct io_opts, bs), "BYTES",
	  "block size of each operation (with --direct a multiple of 4 KiB)", .min = 512,
	  .max = 1 << 30, .def = "1MiB" },
	{ "jobs", 'j', PL_OPT_INT, offsetof(struct io_opts, jobs), "N",
	  "threads, each with its own descriptor (sequential: its own slice of the file)", .min = 1,
	  .max = 256, .def = "1" },
	{ "iodepth", 0, PL_OPT_INT, offsetof(struct io_opts, iodepth), "N",
	  "operations in flight per job (io_uring)", .min = 1, .max = 4096, .def = "1",
	  .was_short = 'd' },
	{ "iodepth-batch", 0, PL_OPT_INT, offsetof(struct io_opts, batch), "N",
	  "io_uring: operations submitted per system call and most completions reaped at a time "
	  "(fio's iodepth_batch_submit and iodepth_batch_complete_max); 1 as fio's default, "
	  "above --iodepth = --iodepth (every free slot at once)",
	  .min = 1, .max = 4096, .def = "1" },
	{ "engine", 0, PL_OPT_ENUM, offsetof(struct io_opts, engine), "E",
	  "psync (pread/pwrite) or io_uring (liburing)", pl_io_engine_names, .def = "psync",
	  .was_short = 'e' },
	{ "direct", 0, PL_OPT_FLAG, offsetof(struct io_opts, direct), NULL,
	  "O_DIRECT with aligned buffers (bypass the page cache)" },
	{ "size", 's', PL_OPT_SIZE, offsetof(struct io_opts, size), "BYTES",
	  "size of the test file", .min = 4096, .max = 0x1p50, .def = "256MiB" },
	{ "dir", 'D', PL_OPT_STR, offsetof(struct io_opts, dir), "DIR",
	  "directory of the test file (default: the current directory's file system)" },
	{ "time", 't', PL_OPT_DURATION, offsetof(struct io_opts, time), "S",
	  "length of each measured run (time based, as fio --time_based)", .min = 0.01,
	  .max = 86400, .def = "2s" },
	{ "cache", 0, PL_OPT_ENUM, offsetof(struct io_opts, cache), "C",
	  "cold: drop the file's cached pages before each run and after each pass over it; hot: "
	  "read it into the cache; auto: O_DIRECT where the file system supports it, else cold",
	  cache_choices, .def = "cold" },
	{ "drop-caches", 0, PL_OPT_FLAG, offsetof(struct io_opts, drop_caches), NULL,
	  "with --cache cold, as root: also write 3 to /proc/sys/vm/drop_caches (all files, "
	  "dentries and inodes)" },
	{ "files", 0, PL_OPT_INT, offsetof(struct io_opts, nfiles), "N",
	  "smallfiles: number of files", .min = 1, .max = 1000000, .def = "1000" },
	{ "file-size", 0, PL_OPT_SIZE, offsetof(struct io_opts, file_size), "BYTES",
	  "smallfiles: size of each file", .min = 0, .max = 1 << 30, .def = "16KiB" },
	PL_OPT_END,
};

struct io_state {
	struct pl_io_file f;
	struct pl_io_sf sf;
	char *tmpdir; /* the directory perflab made when --dir was not given */
	int m_mbps, m_iops, m_lat, m_user, m_sys, m_res, m_enters;
	/* smallfiles */
	int m_sf_stat, m_sf_read, m_sf_res, m_sf_stat_warm, m_sf_read_warm;
};

/* The default `perflab report`: the standalone defaults (256 MiB file, 3 runs of 2 s),
 * read with O_DIRECT where the file system allows it. */
static const char *const io_report[] = { "--cache", "auto", NULL };

static const char *const io_quick[] = { "--size", "32MiB",  "--bs", "1MiB", "--time",
					"0.3",	  "--runs", "1",    NULL };

static bool stopped_cb(void *arg)
{
	return pl_bench_stopped(arg);
}

static const char *io_err(int r)
{
	switch (-r) {
	case ENOSPC:
		return "not enough free space (use a smaller --size or another --dir)";
	case EACCES:
	case EPERM:
	case EROFS:
		return "not writable (choose a writable --dir)";
	case ENOENT:
		return "no such directory (create it or choose another --dir)";
	case ENOTDIR:
		return "not a directory (give a directory with --dir)";
	default:
		return strerror(-r);
	}
}

static void io_teardown(struct pl_bench_ctx *ctx, void *opts, void *state);

/* io_uring only matters with --engine io_uring; otherwise its absence is a note. */
static int io_supported(const void *opts, char *reason, size_t len)
{
	const struct io_opts *o = opts;
	int r = pl_io_uring_probe();
	if (r == 0)
		return 0;
	snprintf(reason, len, "io_uring: not available (%s)", strerror(-r));
	return o->engine == PL_IO_URING && o->pattern != PAT_SMALLFILES ? -ENOTSUP : 0;
}

/* What the run does, in fio's terms, for the first line of the text output and
 * info.workload: "randread, bs 4 KiB, io_uring, iodepth 32, batch 1, 2 jobs, direct (O_DIRECT),
 * file 256 MiB" or "read, ..., buffered, cache cold, file 256 MiB". Malloc'd. */
static char *workload(const struct io_opts *o)
{
	char b1[32], b2[32];
	if (o->pattern == PAT_SMALLFILES)
		return pl_xasprintf("smallfiles, %d files of %s, a cold pass then a warm one%s",
				    o->nfiles, pl_fmt_size(b1, sizeof(b1), (double)o->file_size),
				    o->drop_caches ? ", dentries and inodes dropped" : "");
	char batch[32] = "";
	if (o->engine == PL_IO_URING)
		snprintf(batch, sizeof(batch), ", batch %d",
			 o->batch < o->iodepth ? o->batch : o->iodepth);
	return pl_xasprintf(
		"%s, bs %s, %s, iodepth %d%s, %d job%s, %s, file %s", pattern_choices[o->pattern],
		pl_fmt_size(b1, sizeof(b1), (double)o->bs), pl_io_engine_names[o->engine],
		o->engine == PL_IO_URING ? o->iodepth : 1, batch, o->jobs, o->jobs == 1 ? "" : "s",
		o->direct		 ? "direct (O_DIRECT)"
		: o->cache == CACHE_HOT	 ? "buffered, cache hot"
		: o->cache == CACHE_AUTO ? "O_DIRECT if supported, else buffered, cache cold"
					 : "buffered, cache cold",
		pl_fmt_size(b2, sizeof(b2), (double)o->size));
}

/* --cache auto: O_DIRECT when the file system of the test file @path accepts it (and
 * --bs is aligned for it), else cold buffered reads; the choice and its reason are a
 * note. @shown is the directory as the user knows it. */
static void choose_direct(struct pl_bench_ctx *ctx, struct io_opts *o, const char *path,
			  const char *shown)
{
	if (o->bs % 4096) {
		pl_bench_note(ctx,
			      "--cache auto: cold buffered reads, not O_DIRECT (--bs %llu is not a "
			      "multiple of 4096)",
			      (unsigned long long)o->bs);
		return;
	}
	pl_autoclose int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd >= 0) {
		o->direct = true;
		pl_bench_note(ctx,
			      "--cache auto: O_DIRECT (the file system of '%s' supports it): "
			      "reads come from the device, not from the page cache",
			      shown);
		return;
	}
	pl_bench_note(ctx,
		      "--cache auto: the file system of '%s' does not support O_DIRECT (%s): cold "
		      "buffered reads instead, the file's pages dropped before each run and after "
		      "every pass",
		      shown, strerror(errno));
}

static int io_setup(struct pl_bench_ctx *ctx, void *opts, void **state)
{
	struct io_opts *o = opts;
	struct io_state *s = pl_xcalloc(1, sizeof(*s));
	/* the signal-safe cleanup for a second Ctrl-C (the runner's emergency hook) */
	pl_bench_set_emergency(pl_io_cleanup_all);
	int r = 0;
	const char *dir = o->dir;
	json_t *info = pl_bench_info(ctx);
	bool sf = o->pattern == PAT_SMALLFILES;
	if (!sf && o->direct && o->bs % 4096) {
		pl_bench_error(ctx,
			       "--bs %llu with --direct: must be a multiple of 4096 (O_DIRECT "
			       "alignment)",
			       (unsigned long long)o->bs);
		r = -EINVAL;
		goto fail;
	}
	if (!sf && o->bs > o->size) {
		pl_bench_error(ctx, "--bs is larger than --size");
		r = -EINVAL;
		goto fail;
	}
	if (o->drop_caches && geteuid() != 0) {
		pl_bench_error(ctx, "--drop-caches needs root (drop it: --cache cold still drops "
				    "the test file's pages with posix_fadvise)");
		r = -EINVAL;
		goto fail;
	}
	/* the directory the user named (or the default), not the temporary one inside it */
	const char *workdir = pl_bench_workdir(ctx);
	const char *shown = dir ? dir : workdir ? workdir : ".";
	if (!dir) {
		const char *parent = shown;
		r = pl_io_tmpdir_create(parent, &s->tmpdir);
		if (r < 0) {
			pl_bench_error(ctx,
				       "cannot create a temporary directory in '%s': %s (give "
				       "--dir DIR)",
				       parent, io_err(r));
			goto fail_input;
		}
		dir = s->tmpdir;
	}
	json_object_set_new(info, "dir", pl_json_string(dir));
	char *wl = workload(o);
	json_object_set_new(info, "workload", pl_json_string(wl));
	free(wl);
	if (!sf && o->engine == PL_IO_URING && !o->direct && o->iodepth > 1)
		pl_bench_warn(ctx, "io_uring with buffered I/O: reads served by the page cache "
				   "complete inline, so --iodepth has little effect; add --direct");
	if (!sf && o->engine == PL_IO_PSYNC && o->iodepth > 1)
		pl_bench_warn(ctx, "--iodepth has no effect with --engine psync (one operation "
				   "in flight per job)");
	if (!sf && o->engine == PL_IO_PSYNC && o->batch > 1)
		pl_bench_warn(ctx, "--iodepth-batch has no effect with --engine psync (one "
				   "system call per operation)");
	if (sf) {
		r = pl_io_sf_create(dir, (unsigned)o->nfiles, o->file_size, &s->sf, stopped_cb,
				    ctx);
		if (r == -EINTR) {
			pl_bench_error(ctx, "interrupted while creating the small files (removed)");
			goto fail;
		}
		if (r < 0) {
			pl_bench_error(ctx, "--dir '%s': cannot create %d files of %llu bytes: %s",
				       shown, o->nfiles, (unsigned long long)o->file_size,
				       io_err(r));
			goto fail_input;
		}
		s->m_sf_stat =
			pl_bench_metric(ctx, "stat cold", "files/s", PL_HIGHER_IS_BETTER,
					"stat(2) of every file after dropping its data pages");
		pl_bench_hist(ctx, s->m_sf_stat);
		s->m_sf_read =
			pl_bench_metric(ctx, "open+read+close cold", "files/s", PL_HIGHER_IS_BETTER,
					"whole-file reads after dropping the data pages");
		pl_bench_hist(ctx, s->m_sf_read);
		s->m_sf_res = pl_bench_metric(ctx, "residency cold", "%", PL_NEITHER,
					      "data pages cached before the cold pass (mincore)");
		s->m_sf_stat_warm = pl_bench_metric(ctx, "stat warm", "files/s",
						    PL_HIGHER_IS_BETTER, "second pass, cached");
		pl_bench_hist(ctx, s->m_sf_stat_warm);
		s->m_sf_read_warm = pl_bench_metric(ctx, "open+read+close warm", "files/s",
						    PL_HIGHER_IS_BETTER, "second pass, cached");
		pl_bench_hist(ctx, s->m_sf_read_warm);
		json_object_set_new(info, "files", json_integer(o->nfiles));
		json_object_set_new(info, "file_size", json_integer((json_int_t)o->file_size));
		if (!o->drop_caches)
			pl_bench_note(ctx,
				      "cold drops file data only; dentries and inodes stay cached "
				      "(add --drop-caches as root for fully cold metadata)");
		*state = s;
		return 0;
	}
	r = pl_io_file_create(dir, o->size, &s->f, stopped_cb, ctx);
	if (r < 0) {
		if (r == -EINTR) {
			pl_bench_error(ctx, "interrupted while creating the test file (removed)");
			goto fail;
		}
		char sz[64];
		pl_bench_error(ctx, "--dir '%s': cannot create a %s test file: %s", shown,
			       pl_fmt_size(sz, sizeof(sz), (double)o->size), io_err(r));
		goto fail_input;
	}
	json_object_set_new(info, "file", pl_json_string(s->f.path));
	json_object_set_new(info, "file_bytes", json_integer((json_int_t)o->size));
	if (o->cache == CACHE_AUTO && !o->direct) {
		choose_direct(ctx, o, s->f.path, shown);
		pl_autofree char *wl2 = workload(o);
		json_object_set_new(info, "workload", pl_json_string(wl2));
	}
	json_object_set_new(info, "cache",
			    pl_json_string(o->direct		   ? "direct"
					   : o->cache == CACHE_HOT ? "hot"
								   : "cold"));
	s->m_mbps = pl_bench_metric(ctx, "bandwidth", "MB/s", PL_HIGHER_IS_BETTER,
				    "bytes transferred / s (10^6), as fio bw_bytes");
	s->m_iops = pl_bench_metric(ctx, "iops", "1/s", PL_HIGHER_IS_BETTER,
				    "completed operations per second");
	s->m_lat = pl_bench_metric(ctx, "latency", "ns", PL_LOWER_IS_BETTER,
				   "median submission -> completion time (fio clat)");
	pl_bench_hist(ctx, s->m_lat);
	s->m_user = pl_bench_metric(ctx, "cpu user", "%", PL_LOWER_IS_BETTER,
				    "user CPU time / elapsed (100% = one CPU)");
	s->m_sys = pl_bench_metric(ctx, "cpu sys", "%", PL_LOWER_IS_BETTER,
				   "system CPU time / elapsed (100% = one CPU)");
	s->m_res =
		pl_bench_metric(ctx, "residency before", "%", PL_NEITHER,
				"file pages in the page cache at the start of the run (mincore)");
	s->m_enters = o->engine == PL_IO_URING
			      ? pl_bench_metric(ctx, "syscalls/op", "1", PL_NEITHER,
						"io_uring_enter(2) calls per completed operation "
						"(--iodepth-batch 1, fio's default: about 1 at "
						"depth, 2 at --iodepth 1: a submit, then a wait)")
			      : -1;
	if (o->direct)
		pl_bench_note(ctx, "O_DIRECT: the page cache is bypassed; residency is shown for "
				   "the record");
	else if (o->cache != CACHE_HOT &&
		 (o->pattern == PL_IO_READ || o->pattern == PL_IO_RANDREAD))
		pl_bench_note(ctx,
			      "cache cold: the file's pages are dropped before each run and "
			      "after every pass over it within the run, so reads come from the "
			      "device, not from the cache an earlier pass filled");
	*state = s;
	return 0;
fail_input:
	/* a bad --dir or --size is the user's input (exit 2); anything else is runtime */
	if (r == -ENOSPC || r == -EACCES || r == -EPERM || r == -EROFS || r == -ENOENT ||
	    r == -ENOTDIR)
		r = -EINVAL;
fail:
	io_teardown(ctx, opts, s);
	pl_bench_set_emergency(NULL);
	return r;
}

static int prepare_cache(struct pl_bench_ctx *ctx, const struct io_opts *o, const char *path)
{
	int r = 0;
	if (o->cache == CACHE_HOT) {
		r = path ? pl_io_warm_file(path) : 0;
	} else {
		if (o->drop_caches)
			r = pl_io_drop_all_caches();
		if (r == 0 && path)
			r = pl_io_drop_file_cache(path);
	}
	if (r < 0)
		pl_bench_error(ctx, "cannot %s the page cache: %s",
			       o->cache == CACHE_HOT ? "fill" : "drop", strerror(-r));
	return r;
}

static int io_run_smallfiles(struct pl_bench_ctx *ctx, struct io_opts *o, struct io_state *s)
{
	int r = o->drop_caches ? pl_io_drop_all_caches() : 0;
	if (r == 0)
		r = pl_io_sf_drop(&s->sf);
	if (r < 0) {
		pl_bench_error(ctx, "cannot drop the small files' pages: %s", strerror(-r));
		return r;
	}
	struct pl_io_sf_result cold, warm;
	r = pl_io_sf_measure(&s->sf, pl_bench_hist(ctx, s->m_sf_stat),
			     pl_bench_hist(ctx, s->m_sf_read), &cold, stopped_cb, ctx);
	if (r == 0)
		r = pl_io_sf_measure(&s->sf, pl_bench_hist(ctx, s->m_sf_stat_warm),
				     pl_bench_hist(ctx, s->m_sf_read_warm), &warm, stopped_cb, ctx);
	if (r == -EINTR)
		return r;
	if (r < 0) {
		pl_bench_error(ctx, "small-file pass failed: %s", strerror(-r));
		return r;
	}
	pl_bench_record(ctx, s->m_sf_stat, cold.stat_files_per_s);
	pl_bench_record(ctx, s->m_sf_read, cold.read_files_per_s);
	pl_bench_record(ctx, s->m_sf_res, cold.residency);
	pl_bench_record(ctx, s->m_sf_stat_warm, warm.stat_files_per_s);
	pl_bench_record(ctx, s->m_sf_read_warm, warm.read_files_per_s);
	return 0;
}

/* The IORING_SETUP_* flags of the rings, as fio's strace shows them
 * ("COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN"), or "none" (kernels before 5.19). */
static const char *uring_flags_str(unsigned f)
{
	if (f & IORING_SETUP_DEFER_TASKRUN)
		return "COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN";
	if (f & IORING_SETUP_SINGLE_ISSUER)
		return "COOP_TASKRUN|SINGLE_ISSUER";
	if (f & IORING_SETUP_COOP_TASKRUN)
		return "COOP_TASKRUN";
	return "none";
}

static int io_run(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	struct io_opts *o = opts;
	struct io_state *s = state;
	if (o->pattern == PAT_SMALLFILES)
		return io_run_smallfiles(ctx, o, s);
	int r = prepare_cache(ctx, o, s->f.path);
	if (r < 0)
		return r;
	double res = 0;
	pl_io_residency(s->f.path, &res);
	struct pl_io_params p = {
		.rw = (enum pl_io_rw)o->pattern,
		.engine = (enum pl_io_engine)o->engine,
		.bs = o->bs,
		.jobs = (unsigned)o->jobs,
		.iodepth = o->engine == PL_IO_URING ? (unsigned)o->iodepth : 1,
		.batch = (unsigned)o->batch,
		.direct = o->direct,
		.cold = o->cache != CACHE_HOT,
		.seconds = o->time,
		.seed = 0x10 + (uint64_t)time(NULL),
		.first_cpu = -1,
		.stopped = stopped_cb,
		.stopped_arg = ctx,
	};
	struct pl_io_result ir;
	r = pl_io_run(&s->f, &p, pl_bench_hist(ctx, s->m_lat), &ir);
	if (r < 0) {
		if (r == -EOPNOTSUPP)
			pl_bench_error(ctx,
				       "the file system of '%s' does not support O_DIRECT (drop "
				       "--direct or choose another --dir)",
				       o->dir ? o->dir : ".");
		else if (r == -ENOSYS)
			pl_bench_error(ctx,
				       "io_uring is not available here (kernel.io_uring_disabled "
				       "or seccomp); use --engine psync");
		else
			pl_bench_error(ctx, "I/O failed: %s", strerror(-r));
		return r == -EOPNOTSUPP ? -EINVAL : r;
	}
	if (ir.interrupted)
		return -EINTR;
	pl_bench_record(ctx, s->m_mbps, ir.mbps);
	pl_bench_record(ctx, s->m_iops, ir.iops);
	pl_bench_record(ctx, s->m_lat, pl_hist_quantile(pl_bench_hist(ctx, s->m_lat), 0.5));
	pl_bench_record(ctx, s->m_user, 100 * ir.user_s / ir.elapsed_s);
	pl_bench_record(ctx, s->m_sys, 100 * ir.sys_s / ir.elapsed_s);
	pl_bench_record(ctx, s->m_res, res);
	if (ir.ops)
		pl_bench_record(ctx, s->m_enters, (double)ir.enters / (double)ir.ops);
	if (p.engine == PL_IO_URING)
		json_object_set_new(pl_bench_info(ctx), "io_uring_setup",
				    pl_json_string(uring_flags_str(ir.uring_flags)));
	return 0;
}

static void io_teardown(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	(void)ctx;
	(void)opts;
	struct io_state *s = state;
	if (!s)
		return;
	pl_io_file_remove(&s->f);
	pl_io_sf_remove(&s->sf);
	pl_io_tmpdir_remove(&s->tmpdir);
	free(s);
	pl_bench_set_emergency(NULL);
}

/* --dry-run of perflab report: the file and how it is read. */
static void io_plan(const void *opts, json_t *plan)
{
	const struct io_opts *o = opts;
	json_object_set_new(plan, "file_bytes", json_integer((json_int_t)o->size));
	json_object_set_new(plan, "cache",
			    pl_json_string(o->direct		    ? "direct"
					   : o->cache == CACHE_AUTO ? "auto"
					   : o->cache == CACHE_HOT  ? "hot"
								    : "cold"));
	pl_autofree char *wl = workload(o);
	json_object_set_new(plan, "workload", pl_json_string(wl));
}

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const io_headline[] = { "bandwidth", NULL };

const struct pl_bench pl_bench_io = {
	.name = "io",
	.summary = "storage: sequential/random read/write (psync, io_uring, O_DIRECT), small "
		   "files; MB/s, IOPS, latency, page-cache residency",
	.description =
		"Creates a test file of --size in --dir (default: the current directory's file\n"
		"system), filled with random bytes, and removes it at the end, also on Ctrl-C.\n"
		"Each run is --time of fio-like I/O (time based): --pattern read|write|randread|\n"
		"randwrite, --bs, --jobs threads, --engine psync or io_uring with --iodepth,\n"
		"buffered or --direct. --cache cold (default) drops the file's pages with\n"
		"posix_fadvise before every run and after every pass over the file within it\n"
		"(buffered reads), --cache hot reads it into the cache first; the\n"
		"residency measured with mincore is reported, because hot, cold and direct reads\n"
		"answer three different questions. --pattern smallfiles creates --files N files\n"
		"of --file-size and measures stat and open+read+close (files/s, latency), cold\n"
		"then warm. MB/s = 10^6 B/s; latency = submission to completion (fio's clat).",
	.opts = io_opt_table,
	.opts_size = sizeof(struct io_opts),
	.opts_defaults = &io_defaults,
	.default_runs = 3,
	.quick_argv = io_quick,
	.report_argv = io_report,
	.in_report = true,
	.headline = io_headline,
	.plan = io_plan,
	.supported = io_supported,
	.setup = io_setup,
	.run = io_run,
	.teardown = io_teardown,
};
