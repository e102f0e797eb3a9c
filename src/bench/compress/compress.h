/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measuring core of `perflab bench compress`: per backend and level, ratio and
 * single-core compress/decompress throughput; and a web-tier stage where N worker
 * processes compress requests with one backend (or `auto`: an accelerated backend with a
 * per-request software fallback). Units: MB/s = 10^6 bytes of *uncompressed* data per
 * second (the convention of gzip benchmarks and of the peers' tools), single-core rates per
 * CPU second of the measuring thread; CPU seconds per GB = (user + sys) / (uncompressed
 * bytes / 10^9). */
#ifndef PERFLAB_BENCH_COMPRESS_H
#define PERFLAB_BENCH_COMPRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/compress/backends.h"

/** One backend at one level, measured on one thread. */
struct pl_cz_measure {
	const struct pl_cz_backend *be;
	int level;
	uint64_t in_bytes;  /**< uncompressed bytes of one pass over the input */
	uint64_t out_bytes; /**< compressed bytes of one pass */
	double ratio;	    /**< in_bytes / out_bytes */
	/** compress MB/s (10^6 B of input) per CPU second of the measuring thread (user+sys,
	 *  getrusage RUSAGE_THREAD): one core's rate, whatever share of the wall-clock time
	 *  other tasks took (wall-clock when the CPU time read 0) */
	double comp_mbps;
	double decomp_mbps;	  /**< decompress MB/s (10^6 B of output), per CPU second */
	double comp_wall_mbps;	  /**< compress MB/s over the wall-clock time (CLOCK_MONOTONIC) */
	double decomp_wall_mbps;  /**< decompress MB/s over the wall-clock time */
	double comp_cpu_s_per_gb; /**< CPU s (user+sys, getrusage RUSAGE_THREAD) per 10^9 B */
	double decomp_cpu_s_per_gb;
	uint64_t comp_passes, decomp_passes; /**< whole passes over the input timed */
	double wall_s, cpu_s; /**< timed wall and thread CPU seconds, both directions summed:
				   cpu_s / wall_s is the share of the time the thread ran */
	bool verified;	      /**< every gzip request was inflated by zlib and matched the input */
};

/** Measure @be at @level on @in[0..len), cut into requests of @req bytes (0 = one request
 *  of the whole input). A first, untimed pass compresses every request, checks that the
 *  backend's own decompressor and (for gzip backends) zlib give back the input; then
 *  compression and decompression are each timed over whole passes for at least
 *  @min_seconds of wall-clock time (CLOCK_MONOTONIC), the rates taken over the thread's
 *  CPU time in them (a shared CPU slows the wall clock, not the work). Returns 0; -ENODEV when the
 * backend is unavailable; -EINVAL for a bad level; -EILSEQ/-EBADMSG when a stream does not
 * decompress to the input (m->verified false); other -errno from the backend. */
int pl_cz_measure(const struct pl_cz_backend *be, int level, const void *in, size_t len, size_t req,
		  double min_seconds, struct pl_cz_measure *m);

/** The requests of one input (@len bytes cut into requests of @req, 0 = one request of
 *  the whole input) with the buffers their compressed outputs and decompressions go to:
 *  about len + len/128 + 1 KiB per request + req bytes. Made once and reused by every
 *  backend, level and run of a series, so later measurements write to pages already
 *  mapped (no page faults inside the timed passes). @in is borrowed and must outlive it.
 *  Free with pl_cz_reqs_free() (NULL-safe). */
struct pl_cz_reqs;
struct pl_cz_reqs *pl_cz_reqs_new(const void *in, size_t len, size_t req);
void pl_cz_reqs_free(struct pl_cz_reqs *q);

/** pl_cz_measure() over requests and buffers made by pl_cz_reqs_new(). With @verify
 *  false, the untimed pass (compress, backend and zlib check) is left out and the first
 *  timed compression pass gives the output the timed decompression reads and the ratio:
 *  for the later runs of a backend and level whose first run was verified (the software
 *  backends write the same stream for the same input and level); m->verified is then
 *  false. Returns as pl_cz_measure(). */
int pl_cz_measure_reqs(const struct pl_cz_backend *be, int level, struct pl_cz_reqs *q,
		       double min_seconds, bool verify, struct pl_cz_measure *m);

/** The web-tier stage. */
struct pl_cz_serve_params {
	const struct pl_cz_backend *primary;  /**< backend tried first */
	const struct pl_cz_backend *fallback; /**< software backend on failure, or NULL */
	int level;			      /**< used for both (clamped to each's range) */
	unsigned workers;		      /**< processes (fork), >= 1 */
	double seconds;			      /**< how long each worker serves */
	size_t req;			      /**< request size in bytes (0 = whole input) */
	double inject_failure;		      /**< 0..1: probability the primary "fails" */
	uint64_t seed;			      /**< of the failure injection */
};

/** Results of the web-tier stage, summed over workers. */
struct pl_cz_serve_result {
	uint64_t requests;  /**< compressed requests */
	uint64_t failed;    /**< requests that neither backend compressed correctly */
	uint64_t fallbacks; /**< requests served by the fallback after the primary failed */
	uint64_t injected;  /**< of which the failure was injected */
	uint64_t in_bytes, out_bytes;
	double mbps;	     /**< sum over workers of input bytes / time spent compressing */
	double wall_mbps;    /**< total input bytes / wall time of the stage (with checks) */
	double cpu_s_per_gb; /**< (user+sys of all workers) per 10^9 input bytes */
	double wall_s;
};

/** Run the web-tier stage: fork p->workers processes; each compresses the requests of
 *  @in in turn for p->seconds, every output checked with zlib (pl_cz_verify_gzip, untimed)
 *  or, for non-gzip backends, with the backend's decompressor. When the primary fails
 *  (or an injected failure fires) the request is compressed by the fallback.
 *  Returns 0 or -errno (-ECHILD when a worker died). */
int pl_cz_serve(const struct pl_cz_serve_params *p, const void *in, size_t len,
		struct pl_cz_serve_result *r);

/** The backend `--backend auto` chooses: the first available of qat, isal. */
const struct pl_cz_backend *pl_cz_auto_primary(void);

#endif
