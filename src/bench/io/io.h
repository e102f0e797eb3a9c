/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measuring core of `perflab bench io`: fio-style sequential/random reads and writes
 * on a file perflab creates, with psync or io_uring, buffered or O_DIRECT, and the
 * small-file pattern (open+read+close and stat of many small files). Units: MB/s =
 * 10^6 B/s (fio's "bw_bytes"/10^6), IOPS = operations per second, latency in ns from
 * submission to completion (fio's "clat"), page-cache residency in % of the file's pages
 * (mincore(2)).
 *
 * perflab writes only files it created: every file and directory made here is listed in
 * a signal-safe registry and removed by pl_io_cleanup_all(), which a SIGINT/SIGTERM
 * handler may call. */
#ifndef PERFLAB_BENCH_IO_H
#define PERFLAB_BENCH_IO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

/** Access patterns (fio's rw=read|write|randread|randwrite). */
enum pl_io_rw { PL_IO_READ, PL_IO_WRITE, PL_IO_RANDREAD, PL_IO_RANDWRITE };
/** Names in enum order, NULL-terminated ("read", "write", "randread", "randwrite"). */
extern const char *const pl_io_rw_names[];
/** Engines (fio's ioengine=psync|io_uring). */
enum pl_io_engine { PL_IO_PSYNC, PL_IO_URING };
extern const char *const pl_io_engine_names[];

/** A test file created by perflab. */
struct pl_io_file {
	char *path;    /**< owned */
	uint64_t size; /**< bytes */
};

/** Create a file of @size bytes (filled with pseudo-random bytes, then fsync'd) in @dir
 *  with a unique name "perflab-io.XXXXXX", registered for cleanup. Returns 0 or -errno:
 *  -ENOENT/-ENOTDIR (no such directory), -EACCES/-EROFS (not writable), -ENOSPC (the
 *  file system has less than @size plus 1% free: nothing is created), -EINVAL (size 0).
 *  @stopped (optional) is polled while filling: returns -EINTR when it says so. */
int pl_io_file_create(const char *dir, uint64_t size, struct pl_io_file *f, bool (*stopped)(void *),
		      void *arg);
/** Create an empty directory "@parent/perflab-io.XXXXXX" registered for cleanup (the
 *  default --dir). *out gets the malloc'd path. Returns 0 or -errno. */
int pl_io_tmpdir_create(const char *parent, char **out);
/** Remove that directory (must be empty by then), forget it and free *dir. NULL-safe. */
void pl_io_tmpdir_remove(char **dir);
/** Remove the file and forget it. NULL-safe, idempotent. */
void pl_io_file_remove(struct pl_io_file *f);

/** Percentage (0..100) of the pages of @path resident in the page cache (mmap + mincore;
 *  the method of fincore(1) and vmtouch). Returns 0 or -errno. */
int pl_io_residency(const char *path, double *pct);
/** Can this process set up an io_uring (kernel support, kernel.io_uring_disabled, seccomp)?
 *  Returns 0, or -errno of io_uring_queue_init (-ENOSYS, -EPERM, ...). */
int pl_io_uring_probe(void);
/** Drop the file's clean pages from the page cache: fdatasync, then
 *  posix_fadvise(POSIX_FADV_DONTNEED) over the whole file. Returns 0 or -errno. */
int pl_io_drop_file_cache(const char *path);
/** Read the whole file once through the page cache (makes it "hot"). Returns 0 or -errno. */
int pl_io_warm_file(const char *path);
/** Write "3" to /proc/sys/vm/drop_caches after sync() (root only): drops all clean page
 *  cache, dentries and inodes. Returns 0 or -errno (-EACCES when not root). */
int pl_io_drop_all_caches(void);

/** One measured window. */
struct pl_io_params {
	enum pl_io_rw rw;
	enum pl_io_engine engine;
	uint64_t bs;	  /**< block size, bytes; with direct a multiple of 4096 */
	unsigned jobs;	  /**< threads, each with its own descriptor, >= 1 */
	unsigned iodepth; /**< in-flight operations per job (io_uring; psync is always 1) */
	unsigned batch;	  /**< io_uring: operations submitted per io_uring_enter and most
			   *   completions reaped per pass (fio's iodepth_batch_submit and
			   *   iodepth_batch_complete_max); 1 = fio's default, one system call
			   *   per operation; 0 or above iodepth = iodepth (every free slot) */
	bool direct;	  /**< O_DIRECT with 4096-aligned buffers */
	bool cold;	  /**< buffered reads: each job drops its range's cached pages
			   *   (posix_fadvise DONTNEED) after every range-size of reads, so a
			   *   time-based run that wraps around still reads from the device,
			   *   not from the cache its first pass filled; the drops' time counts
			   *   in the window */
	double seconds;	  /**< length of the window (time based, like fio --time_based) */
	uint64_t seed;	  /**< random offsets */
	int first_cpu;	  /**< pin job i to CPU first_cpu + i (mod ncpus), -1 = no pinning */
	unsigned ncpus;
	bool (*stopped)(void *arg); /**< polled every few ms; ends the window early */
	void *stopped_arg;
};

/** Results of one window, summed over jobs. */
struct pl_io_result {
	uint64_t ops, bytes;
	double elapsed_s;
	double mbps;	      /**< bytes / elapsed / 10^6 */
	double iops;	      /**< ops / elapsed */
	double user_s, sys_s; /**< CPU time of the process during the window (getrusage) */
	uint64_t drops;	      /**< cold: page-cache drops done inside the window, all jobs */
	uint64_t enters;      /**< io_uring: io_uring_enter(2) calls of the loops, all jobs
			       *   (each submits at most batch operations) */
	uint64_t waits;	      /**< io_uring: of those, the calls that waited for a completion
			       *   because the CQ ring was empty, io_uring_enter(0, 1, GETEVENTS)
			       *   (fio's getevents); the others only submitted, without waiting */
	unsigned uring_flags; /**< io_uring: the IORING_SETUP_* flags the rings got (the first
			       *   job's; 0 for psync or a kernel that refused them all) */
	bool interrupted;
};

/** Run one window on @f. Per-operation latencies go to @lat (ns; may be NULL). Returns 0
 *  or -errno: -EINVAL (bs not aligned for direct, bs > file size), -EOPNOTSUPP (the file
 *  system refuses O_DIRECT), -ENOSYS (io_uring not available), -EIO. */
int pl_io_run(const struct pl_io_file *f, const struct pl_io_params *p, struct pl_hist *lat,
	      struct pl_io_result *r);

/** The small-file set: N files of S bytes under a directory perflab creates. */
struct pl_io_sf {
	char *dir; /**< "DIR/perflab-sf.XXXXXX", owned */
	unsigned nfiles;
	uint64_t file_size;
};

/** Create the set in @dir (registered for cleanup). Returns 0 or -errno as
 *  pl_io_file_create (space is checked for nfiles * max(size, 4096)). */
int pl_io_sf_create(const char *dir, unsigned nfiles, uint64_t file_size, struct pl_io_sf *sf,
		    bool (*stopped)(void *), void *arg);
/** Remove every file and the directory. NULL-safe, idempotent. */
void pl_io_sf_remove(struct pl_io_sf *sf);
/** Drop the set's data pages (pl_io_drop_file_cache on each file). */
int pl_io_sf_drop(const struct pl_io_sf *sf);

/** One pass over the set. */
struct pl_io_sf_result {
	double stat_files_per_s; /**< stat(2) of every file */
	double read_files_per_s; /**< open + read whole + close of every file */
	double mbps;		 /**< bytes read / read time / 10^6 */
	double residency;	 /**< % of the set's data pages cached before the pass */
	double user_s, sys_s;
};

/** Measure one pass: stat every file (latency into @stat_lat), then open+read+close
 *  every file (latency into @read_lat), in a shuffled order. Histograms may be NULL.
 *  Returns 0 or -errno (-EINTR when stopped). */
int pl_io_sf_measure(const struct pl_io_sf *sf, struct pl_hist *stat_lat, struct pl_hist *read_lat,
		     struct pl_io_sf_result *r, bool (*stopped)(void *), void *arg);

/** Remove every file and directory this process created and has not removed yet.
 *  Async-signal-safe (unlink/rmdir only), for SIGINT handlers. */
void pl_io_cleanup_all(void);

#endif
