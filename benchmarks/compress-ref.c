/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Independent reference for benchmarks/compress-vs-cli.sh: the smallest in-memory loop
 * over one library's one-shot gzip API, written without perflab's code, so perflab's
 * measuring loop can be checked against it on the same bytes ("better an in-memory loop
 * over the library", ../shared/PEERS.md).
 *
 *   compress-ref BACKEND LEVEL FILE SECONDS
 *     BACKEND  zlib | libdeflate | isal
 *
 * Prints one number: MB/s (10^6 B of uncompressed input per CPU second, user+sys from
 * getrusage(RUSAGE_SELF)) of whole-input calls repeated until SECONDS of CPU on reused
 * buffers, after one untimed call (what perflab's timed loop measures, and what a server
 * reusing its buffers sees).
 * Link it the way the library's own tool is linked (Debian's libdeflate-gzip uses
 * libdeflate.a; igzip uses libisal.so) so the code measured is the tool's code.
 */
#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <zlib.h>

static void cpu(double *user, double *sys)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	*user = (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec * 1e-6;
	*sys = (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec * 1e-6;
}

static int level;
static struct libdeflate_compressor *ldc;

/* One whole-input gzip member into out (cap bytes); returns its size, 0 on failure. */
static size_t zlib_gz(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream s;
	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	s.next_in = (unsigned char *)in;
	s.avail_in = (uInt)n;
	s.next_out = out;
	s.avail_out = (uInt)cap;
	int r = deflate(&s, Z_FINISH);
	size_t len = s.total_out;
	deflateEnd(&s);
	return r == Z_STREAM_END ? len : 0;
}

static size_t libdeflate_gz(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	return libdeflate_gzip_compress(ldc, in, n, out, cap);
}

static unsigned char *isal_lvlbuf;

static size_t isal_gz(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	static const uint32_t lb[] = { ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
				       ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT };
	struct isal_zstream s;
	isal_deflate_stateless_init(&s);
	s.gzip_flag = IGZIP_GZIP;
	s.level = (uint32_t)level;
	s.level_buf = isal_lvlbuf;
	s.level_buf_size = lb[level];
	s.end_of_stream = 1;
	s.next_in = (uint8_t *)in;
	s.avail_in = (uint32_t)n;
	s.next_out = out;
	s.avail_out = (uint32_t)cap;
	return isal_deflate_stateless(&s) == COMP_OK ? s.total_out : 0;
}

/* Strict number parsing: the whole string, in range; exits 2 naming the argument. */
static double num(const char *what, const char *v, double lo, double hi)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || x < lo || x > hi) {
		fprintf(stderr, "compress-ref: %s '%s' is not a number in %g..%g\n", what, v, lo,
			hi);
		exit(2);
	}
	return x;
}

/* The first output must inflate with zlib to the input: a wrong stream is not measured. */
static int inflates_to(const unsigned char *gz, size_t len, const unsigned char *orig, size_t n)
{
	unsigned char *back = malloc(n + 1);
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (!back || inflateInit2(&z, 15 + 16) != Z_OK) {
		free(back);
		return 0;
	}
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)len;
	z.next_out = back;
	z.avail_out = (uInt)(n + 1);
	int ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == n &&
		 memcmp(back, orig, n) == 0;
	inflateEnd(&z);
	free(back);
	return ok;
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0)
		return NULL;
	long len = ftell(f);
	rewind(f);
	unsigned char *b = len > 0 ? malloc((size_t)len) : NULL;
	if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: compress-ref zlib|libdeflate|isal LEVEL FILE SECONDS\n");
		return 2;
	}
	size_t (*gz)(const unsigned char *, size_t, unsigned char *, size_t);
	level = (int)num("LEVEL", argv[2], 0, 12);
	double secs = num("SECONDS", argv[4], 0.01, 3600);
	if (strcmp(argv[1], "zlib") == 0 && level <= 9) {
		gz = zlib_gz;
	} else if (strcmp(argv[1], "libdeflate") == 0) {
		ldc = libdeflate_alloc_compressor(level);
		gz = libdeflate_gz;
	} else if (strcmp(argv[1], "isal") == 0 && level >= 0 && level <= 3) {
		isal_lvlbuf = malloc(ISAL_DEF_LVL3_LARGE);
		if (!isal_lvlbuf) {
			fprintf(stderr, "compress-ref: out of memory\n");
			return 3;
		}
		gz = isal_gz;
	} else {
		fprintf(stderr, "compress-ref: unknown backend or level '%s %s'\n", argv[1],
			argv[2]);
		return 2;
	}
	if (argv[1][0] == 'l' && !ldc) {
		fprintf(stderr, "compress-ref: libdeflate has no level %d\n", level);
		return 2;
	}
	double u0, s0, u1, s1;
	size_t n;
	unsigned char *in = slurp(argv[3], &n);
	if (!in || n > (1u << 30)) {
		fprintf(stderr, "compress-ref: cannot read '%s' (or larger than 1 GiB)\n", argv[3]);
		return 2;
	}
	size_t cap = n + n / 100 + (1 << 16); /* above every library's bound for this input */
	unsigned char *out = malloc(cap);
	size_t len = out ? gz(in, n, out, cap) : 0;
	if (len == 0 || !inflates_to(out, len, in, n)) {
		fprintf(stderr, "compress-ref: %s level %d wrote no valid gzip stream for '%s'\n",
			argv[1], level, argv[3]);
		return 3;
	}
	unsigned long k = 0;
	cpu(&u0, &s0);
	do {
		if (gz(in, n, out, cap) != len) {
			fprintf(stderr, "compress-ref: output size changed between calls\n");
			return 3;
		}
		k++;
		cpu(&u1, &s1);
	} while ((u1 - u0) + (s1 - s0) < secs);
	double warm = (double)n * (double)k / ((u1 - u0) + (s1 - s0)) / 1e6;
	printf("%.2f\n", warm);
	free(in);
	free(out);
	return 0;
}
