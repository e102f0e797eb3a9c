/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compression backends: zlib, libdeflate, ISA-L igzip, QAT (QATzip via dlopen), zstd.
 * Each wraps the library's one-shot (whole buffer) API, the way a web tier compresses a
 * response; the libraries' own documentation is the source of each bound and flag. */
#include "bench/compress/backends.h"

#include <dlfcn.h>
#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "util/dl.h"
#include "util/str.h"
#include "util/sysroot.h"

struct pl_cz_ctx {
	int level;
	/* zlib */
	z_stream zs;
	bool zs_ready;
	/* libdeflate */
	struct libdeflate_compressor *ldc;
	struct libdeflate_decompressor *ldd;
	/* ISA-L */
	uint8_t *isal_lvlbuf;
	uint32_t isal_lvlbuf_size;
	struct isal_zstream *isal_zs;
	struct inflate_state *isal_inf;
	/* zstd */
	ZSTD_CCtx *zc;
	ZSTD_DCtx *zd;
	/* QAT */
	void *qat_sess;
};

size_t pl_cz_bound(size_t inlen)
{
	/* zlib's deflateBound() for the default window and memLevel is about inlen +
	 * inlen/4096*5 + 13; ISA-L stored blocks add 5 bytes per 64 KiB; zstd's
	 * ZSTD_COMPRESSBOUND adds inlen/256. Take inlen/128 + 1 KiB for all plus gzip's
	 * 18-byte header and trailer. */
	return inlen + inlen / 128 + 1024 + 18;
}

static struct pl_cz_ctx *ctx_new(int level)
{
	struct pl_cz_ctx *c = pl_xcalloc(1, sizeof(*c));
	c->level = level;
	return c;
}

/* ---- zlib (RFC 1950-1952 reference implementation) ---- */

static const int zlib_levels[] = { 1, 6, 9, -1 };

static const char *always_available(void)
{
	return NULL;
}

static int zlib_open(int level, struct pl_cz_ctx **out)
{
	if (level < 1 || level > 9)
		return -EINVAL;
	struct pl_cz_ctx *c = ctx_new(level);
	/* windowBits 15 + 16 = gzip wrapper (zlib.h, deflateInit2); memLevel 8 as gzip(1). */
	if (deflateInit2(&c->zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(c);
		return -ENOMEM;
	}
	c->zs_ready = true;
	*out = c;
	return 0;
}

static int zlib_compress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			 size_t *outlen)
{
	if (deflateReset(&c->zs) != Z_OK)
		return -EIO;
	c->zs.next_in = (Bytef *)in;
	c->zs.avail_in = (uInt)inlen;
	c->zs.next_out = out;
	c->zs.avail_out = (uInt)cap;
	int r = deflate(&c->zs, Z_FINISH);
	if (r == Z_OK || r == Z_BUF_ERROR)
		return -ENOSPC;
	if (r != Z_STREAM_END)
		return -EIO;
	*outlen = c->zs.total_out;
	return 0;
}

/* zlib inflate of a gzip stream; shared by the zlib backend and the verifier. */
static int zlib_inflate_gzip(const void *in, size_t inlen, void *out, size_t cap, size_t *outlen)
{
	z_stream s = { 0 };
	if (inflateInit2(&s, 15 + 16) != Z_OK)
		return -ENOMEM;
	s.next_in = (Bytef *)in;
	s.avail_in = (uInt)inlen;
	s.next_out = out;
	s.avail_out = (uInt)cap;
	int r = inflate(&s, Z_FINISH);
	int ret = 0;
	if (r == Z_STREAM_END) {
		*outlen = s.total_out;
		/* trailing garbage after the member is a malformed stream for our purpose */
		if (s.avail_in != 0)
			ret = -EBADMSG;
	} else if (r == Z_BUF_ERROR && s.avail_out == 0) {
		ret = -ENOSPC;
	} else {
		ret = -EBADMSG;
	}
	inflateEnd(&s);
	return ret;
}

static int zlib_decompress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			   size_t *outlen)
{
	(void)c;
	return zlib_inflate_gzip(in, inlen, out, cap, outlen);
}

static void zlib_close(struct pl_cz_ctx *c)
{
	if (!c)
		return;
	if (c->zs_ready)
		deflateEnd(&c->zs);
	free(c);
}

static const struct pl_cz_backend be_zlib = {
	.name = "zlib",
	.library = "zlib " ZLIB_VERSION,
	.cli = "gzip",
	.levels = zlib_levels,
	.min_level = 1,
	.max_level = 9,
	.gzip = true,
	.unavailable = always_available,
	.open = zlib_open,
	.compress = zlib_compress,
	.decompress = zlib_decompress,
	.close = zlib_close,
};

/* ---- libdeflate (whole-buffer DEFLATE, levels 0-12) ---- */

static const int ld_levels[] = { 1, 6, 12, -1 };

static int ld_open(int level, struct pl_cz_ctx **out)
{
	if (level < 0 || level > 12)
		return -EINVAL;
	struct pl_cz_ctx *c = ctx_new(level);
	c->ldc = libdeflate_alloc_compressor(level);
	c->ldd = libdeflate_alloc_decompressor();
	if (!c->ldc || !c->ldd) {
		libdeflate_free_compressor(c->ldc);
		libdeflate_free_decompressor(c->ldd);
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

static int ld_compress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
		       size_t *outlen)
{
	size_t n = libdeflate_gzip_compress(c->ldc, in, inlen, out, cap);
	if (n == 0)
		return -ENOSPC; /* libdeflate.h: 0 means "did not fit" */
	*outlen = n;
	return 0;
}

static int ld_decompress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			 size_t *outlen)
{
	enum libdeflate_result r = libdeflate_gzip_decompress(c->ldd, in, inlen, out, cap, outlen);
	if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
		return -ENOSPC;
	return r == LIBDEFLATE_SUCCESS ? 0 : -EBADMSG;
}

static void ld_close(struct pl_cz_ctx *c)
{
	if (!c)
		return;
	libdeflate_free_compressor(c->ldc);
	libdeflate_free_decompressor(c->ldd);
	free(c);
}

static const struct pl_cz_backend be_libdeflate = {
	.name = "libdeflate",
	.library = "libdeflate " LIBDEFLATE_VERSION_STRING " (static, as libdeflate-gzip)",
	.cli = "libdeflate-gzip",
	.levels = ld_levels,
	.min_level = 0,
	.max_level = 12,
	.gzip = true,
	.unavailable = always_available,
	.open = ld_open,
	.compress = ld_compress,
	.decompress = ld_decompress,
	.close = ld_close,
};

/* ---- ISA-L igzip (levels 0-3; each level >= 1 needs a level buffer, igzip_lib.h) ----
 * libisal is loaded with dlopen(3) when this backend is first asked for (util/dl.h):
 * linked, it cost every command's start-up 0.14 M instructions (valgrind callgrind). */

static const int isal_levels[] = { 0, 1, 2, 3, -1 };

static struct {
	bool tried;
	const char *why; /* NULL: loaded */
	__typeof__(isal_deflate_stateless_init) *deflate_stateless_init;
	__typeof__(isal_deflate_stateless) *deflate_stateless;
	__typeof__(isal_inflate_init) *inflate_init;
	__typeof__(isal_inflate) *inflate;
} li;

static const char *isal_unavailable(void)
{
	if (li.tried)
		return li.why;
	li.tried = true;
	static const char *const names[] = { "isal_deflate_stateless_init",
					     "isal_deflate_stateless", "isal_inflate_init",
					     "isal_inflate" };
	void *fns[4];
	static char why[300];
	if (!pl_dl_open("libisal.so.2", names, fns, 4, why, sizeof(why))) {
		li.why = why;
		return li.why;
	}
	li.deflate_stateless_init = (__typeof__(isal_deflate_stateless_init) *)fns[0];
	li.deflate_stateless = (__typeof__(isal_deflate_stateless) *)fns[1];
	li.inflate_init = (__typeof__(isal_inflate_init) *)fns[2];
	li.inflate = (__typeof__(isal_inflate) *)fns[3];
	return NULL;
}

static int isal_open(int level, struct pl_cz_ctx **out)
{
	if (level < 0 || level > ISAL_DEF_MAX_LEVEL)
		return -EINVAL;
	if (isal_unavailable()) /* loads libisal; callers ask first, this is the guard */
		return -ENOSYS;
	static const uint32_t lvlbuf[] = { ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
					   ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT };
	struct pl_cz_ctx *c = ctx_new(level);
	c->isal_lvlbuf_size = lvlbuf[level];
	if (c->isal_lvlbuf_size)
		c->isal_lvlbuf = pl_xmalloc(c->isal_lvlbuf_size);
	c->isal_zs = pl_xcalloc(1, sizeof(*c->isal_zs));
	c->isal_inf = pl_xcalloc(1, sizeof(*c->isal_inf));
	*out = c;
	return 0;
}

static int isal_compress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			 size_t *outlen)
{
	if (inlen > UINT32_MAX || cap > UINT32_MAX)
		return -EFBIG;
	struct isal_zstream *s = c->isal_zs;
	li.deflate_stateless_init(s);
	s->level = (uint32_t)c->level;
	s->level_buf = c->isal_lvlbuf;
	s->level_buf_size = c->isal_lvlbuf_size;
	s->gzip_flag = IGZIP_GZIP;
	s->next_in = (uint8_t *)in;
	s->avail_in = (uint32_t)inlen;
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	s->end_of_stream = 1;
	s->flush = NO_FLUSH;
	int r = li.deflate_stateless(s);
	if (r == STATELESS_OVERFLOW)
		return -ENOSPC;
	if (r != COMP_OK)
		return r == ISAL_INVALID_LEVEL || r == ISAL_INVALID_LEVEL_BUF ? -EINVAL : -EIO;
	*outlen = s->total_out;
	return 0;
}

static int isal_decompress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			   size_t *outlen)
{
	if (inlen > UINT32_MAX || cap > UINT32_MAX)
		return -EFBIG;
	struct inflate_state *s = c->isal_inf;
	li.inflate_init(s);
	s->crc_flag = ISAL_GZIP;
	s->next_in = (uint8_t *)in;
	s->avail_in = (uint32_t)inlen;
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	int r = li.inflate(s);
	if (r == ISAL_OUT_OVERFLOW)
		return -ENOSPC;
	if (r != ISAL_DECOMP_OK || s->block_state != ISAL_BLOCK_FINISH)
		return s->avail_out == 0 ? -ENOSPC : -EBADMSG;
	*outlen = s->total_out;
	return 0;
}

static void isal_close(struct pl_cz_ctx *c)
{
	if (!c)
		return;
	free(c->isal_lvlbuf);
	free(c->isal_zs);
	free(c->isal_inf);
	free(c);
}

static const struct pl_cz_backend be_isal = {
	.name = "isal",
	.library = "ISA-L igzip",
	.cli = "igzip",
	.levels = isal_levels,
	.min_level = 0,
	.max_level = ISAL_DEF_MAX_LEVEL,
	.gzip = true,
	.unavailable = isal_unavailable,
	.open = isal_open,
	.compress = isal_compress,
	.decompress = isal_decompress,
	.close = isal_close,
};

/* ---- QAT through QATzip, loaded at run time ----
 * QATzip's qatzip.h: QzSession_T is { signed long hw_session_stat; int thd_sess_stat;
 * void *internal; unsigned long total_in, total_out; } (40 bytes on LP64; QATzip writes
 * total_in/total_out on every call, so the layout must match); qzInit(sess, sw_backup),
 * qzSetupSession(sess, NULL = defaults), qzCompress/qzDecompress(sess, src, &srclen, dst,
 * &dstlen, last), qzTeardownSession, qzClose. QZ_OK = 0, QZ_NO_INST_ATTACH /
 * QZ_NOSW_NO_INST_ATTACH mean "no free instance". With NULL params QATzip uses its
 * default level and gzip-ext format (a valid gzip stream). sw_backup is 0 so a failure
 * is reported to us and the fallback is ours, measurable. */

struct qz_session {
	signed long hw_session_stat;
	int thd_sess_stat;
	void *internal;
	unsigned long total_in, total_out;
};
_Static_assert(sizeof(void *) != 8 || sizeof(struct qz_session) == 40,
	       "struct qz_session must match QATzip's QzSession_T");

static struct {
	bool tried;
	const char *why;
	void *dl;
	int (*init)(struct qz_session *, unsigned char);
	int (*setup)(struct qz_session *, void *);
	int (*comp)(struct qz_session *, const unsigned char *, unsigned int *, unsigned char *,
		    unsigned int *, unsigned int);
	int (*decomp)(struct qz_session *, const unsigned char *, unsigned int *, unsigned char *,
		      unsigned int *);
	int (*teardown)(struct qz_session *);
	int (*close)(struct qz_session *);
} qz;

static bool qat_device_present(void)
{
	static const char *const drivers[] = { "4xxx",	       "c6xx",	   "c3xxx",    "dh895xcc",
					       "420xx",	       "qat_4xxx", "qat_c62x", "qat_c3xxx",
					       "qat_dh895xcc", "qat_420xx" };
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s", drivers[i]);
		char **ents = NULL;
		size_t n = 0;
		if (pl_list_dir(path, &ents, &n) < 0)
			continue;
		bool dev = false;
		for (size_t j = 0; j < n && !dev; j++)
			dev = strchr(ents[j], ':') != NULL; /* a PCI address "0000:6b:00.0" */
		pl_strv_free(ents);
		if (dev)
			return true;
	}
	return false;
}

static const char *qat_unavailable(void)
{
	if (qz.tried)
		return qz.why;
	qz.tried = true;
	if (!qat_device_present()) {
		qz.why = "no QAT device bound to a qat driver in /sys/bus/pci/drivers";
		return qz.why;
	}
	static const char *const names[] = { "libqatzip.so.3", "libqatzip.so" };
	for (size_t i = 0; i < 2 && !qz.dl; i++)
		qz.dl = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!qz.dl) {
		qz.why = "QAT device present but the QATzip library (libqatzip.so.3) is not "
			 "installed";
		return qz.why;
	}
	*(void **)&qz.init = dlsym(qz.dl, "qzInit");
	*(void **)&qz.setup = dlsym(qz.dl, "qzSetupSession");
	*(void **)&qz.comp = dlsym(qz.dl, "qzCompress");
	*(void **)&qz.decomp = dlsym(qz.dl, "qzDecompress");
	*(void **)&qz.teardown = dlsym(qz.dl, "qzTeardownSession");
	*(void **)&qz.close = dlsym(qz.dl, "qzClose");
	if (!qz.init || !qz.setup || !qz.comp || !qz.decomp || !qz.teardown || !qz.close) {
		qz.why = "libqatzip lacks the qzInit/qzCompress API";
		return qz.why;
	}
	struct qz_session probe = { 0 };
	int r = qz.init(&probe, 0);
	if (r != 0 && r != 1 /* QZ_DUPLICATE */) {
		qz.why = "qzInit failed: no usable QAT instance (is qat_service running?)";
		return qz.why;
	}
	qz.close(&probe);
	return NULL;
}

static const int qat_levels[] = { 1, -1 };

static int qat_open(int level, struct pl_cz_ctx **out)
{
	if (qat_unavailable())
		return -ENODEV;
	struct pl_cz_ctx *c = ctx_new(level);
	struct qz_session *s = pl_xcalloc(1, sizeof(*s));
	int r = qz.init(s, 0);
	if ((r == 0 || r == 1) && qz.setup(s, NULL) == 0) {
		c->qat_sess = s;
		*out = c;
		return 0;
	}
	free(s);
	free(c);
	return -EBUSY;
}

static int qat_compress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			size_t *outlen)
{
	if (inlen > UINT32_MAX || cap > UINT32_MAX)
		return -EFBIG;
	unsigned int sl = (unsigned int)inlen, dl = (unsigned int)cap;
	int r = qz.comp(c->qat_sess, in, &sl, out, &dl, 1);
	if (r != 0)
		return -EBUSY;
	*outlen = dl;
	return 0;
}

static int qat_decompress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			  size_t *outlen)
{
	if (inlen > UINT32_MAX || cap > UINT32_MAX)
		return -EFBIG;
	unsigned int sl = (unsigned int)inlen, dl = (unsigned int)cap;
	if (qz.decomp(c->qat_sess, in, &sl, out, &dl) != 0)
		return -EBADMSG;
	*outlen = dl;
	return 0;
}

static void qat_close(struct pl_cz_ctx *c)
{
	if (!c)
		return;
	if (c->qat_sess) {
		qz.teardown(c->qat_sess);
		qz.close(c->qat_sess);
		free(c->qat_sess);
	}
	free(c);
}

static const struct pl_cz_backend be_qat = {
	.name = "qat",
	.library = "Intel QAT (QATzip)",
	.cli = "qzip",
	.levels = qat_levels,
	.min_level = 1,
	.max_level = 9,
	.gzip = true,
	.accelerated = true,
	.unavailable = qat_unavailable,
	.open = qat_open,
	.compress = qat_compress,
	.decompress = qat_decompress,
	.close = qat_close,
};

/* ---- zstd (reference only: not gzip) ---- */

static const int zstd_levels[] = { 1, 3, -1 };

static int zstd_open(int level, struct pl_cz_ctx **out)
{
	if (level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	struct pl_cz_ctx *c = ctx_new(level);
	c->zc = ZSTD_createCCtx();
	c->zd = ZSTD_createDCtx();
	if (!c->zc || !c->zd) {
		ZSTD_freeCCtx(c->zc);
		ZSTD_freeDCtx(c->zd);
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

static int zstd_compress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			 size_t *outlen)
{
	size_t n = ZSTD_compressCCtx(c->zc, out, cap, in, inlen, c->level);
	if (ZSTD_isError(n))
		return ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall ? -ENOSPC : -EIO;
	*outlen = n;
	return 0;
}

static int zstd_decompress(struct pl_cz_ctx *c, const void *in, size_t inlen, void *out, size_t cap,
			   size_t *outlen)
{
	size_t n = ZSTD_decompressDCtx(c->zd, out, cap, in, inlen);
	if (ZSTD_isError(n))
		return ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall ? -ENOSPC : -EBADMSG;
	*outlen = n;
	return 0;
}

static void zstd_close(struct pl_cz_ctx *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->zc);
	ZSTD_freeDCtx(c->zd);
	free(c);
}

static const struct pl_cz_backend be_zstd = {
	.name = "zstd",
	.library = "zstd",
	.cli = "zstd",
	.levels = zstd_levels,
	.min_level = 1,
	.max_level = 19,
	.gzip = false,
	.unavailable = always_available,
	.open = zstd_open,
	.compress = zstd_compress,
	.decompress = zstd_decompress,
	.close = zstd_close,
};

const struct pl_cz_backend *const pl_cz_backends[] = { &be_zlib, &be_libdeflate, &be_isal, &be_qat,
						       &be_zstd };
const size_t pl_cz_nbackends = sizeof(pl_cz_backends) / sizeof(pl_cz_backends[0]);

const struct pl_cz_backend *pl_cz_find(const char *name)
{
	for (size_t i = 0; i < pl_cz_nbackends; i++)
		if (strcmp(pl_cz_backends[i]->name, name) == 0)
			return pl_cz_backends[i];
	return NULL;
}

int pl_cz_verify_gzip(const void *gz, size_t gzlen, const void *orig, size_t origlen)
{
	size_t cap = origlen + 1; /* one spare byte catches a stream that is too long */
	unsigned char *buf = pl_xmalloc(cap);
	size_t n = 0;
	int r = zlib_inflate_gzip(gz, gzlen, buf, cap, &n);
	if (r == -ENOSPC)
		r = -EILSEQ;
	else if (r == 0 && (n != origlen || memcmp(buf, orig, origlen) != 0))
		r = -EILSEQ;
	free(buf);
	return r;
}
