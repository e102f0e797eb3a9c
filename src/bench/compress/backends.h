/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compression backends for `perflab bench compress`: one vtable per library, every one
 * producing a gzip stream (RFC 1952) except zstd (listed for reference only). The
 * hardware backend (QAT through QATzip) is loaded at run time with dlopen, so perflab
 * neither links nor needs it. How to add a backend: write the ops below in
 * backends.c and append one entry to the table there. */
#ifndef PERFLAB_BENCH_COMPRESS_BACKENDS_H
#define PERFLAB_BENCH_COMPRESS_BACKENDS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Per-thread (per-process) state of one backend at one level. Opaque. */
struct pl_cz_ctx;

/** One backend. All functions return 0 or -errno; they never log. */
struct pl_cz_backend {
	const char *name;    /**< "zlib", "libdeflate", "isal", "qat", "zstd" */
	const char *library; /**< human name of the library ("ISA-L igzip") */
	const char *cli;     /**< the library's own command-line tool, or NULL */
	const int *levels;   /**< default level sweep, terminated by -1 */
	int min_level, max_level;
	bool gzip;	  /**< true when the output is a gzip stream */
	bool accelerated; /**< hardware offload (QAT) rather than CPU code */
	/** NULL when available; else a static reason ("libqatzip.so.3 not found"). */
	const char *(*unavailable)(void);
	/** Create a context for @level (checked against min/max: -EINVAL). */
	int (*open)(int level, struct pl_cz_ctx **out);
	/** Compress @in[0..inlen) into @out (capacity @cap, at least pl_cz_bound(inlen));
	 *  *outlen gets the size. -ENOSPC when @cap is too small, -EIO on library errors,
	 *  -EBUSY when an accelerator has no free instance. */
	int (*compress)(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			size_t *outlen);
	/** Decompress a stream of this backend into @out (capacity @cap); *outlen gets the
	 *  size. -EBADMSG on a corrupt stream, -ENOSPC when @cap is too small. */
	int (*decompress)(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			  size_t *outlen);
	/** Free the context. NULL-safe. */
	void (*close)(struct pl_cz_ctx *c);
};

/** Number of backends and the table (stable order: zlib, libdeflate, isal, qat, zstd). */
extern const struct pl_cz_backend *const pl_cz_backends[];
extern const size_t pl_cz_nbackends;

/** Find a backend by name; NULL when unknown. */
const struct pl_cz_backend *pl_cz_find(const char *name);

/** An output capacity that is always enough for @inlen bytes of input in any backend
 *  (the largest of the libraries' documented bounds plus the gzip header and trailer). */
size_t pl_cz_bound(size_t inlen);

/** Decompress the gzip stream @gz with zlib (the reference inflater, independent of the
 *  backend that wrote it) and compare it with @orig. Returns 0 when identical, -EBADMSG
 *  when zlib rejects the stream, -EILSEQ when the bytes differ (or the length does). */
int pl_cz_verify_gzip(const void *gz, size_t gzlen, const void *orig, size_t origlen);

#endif
