/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench compress: software vs accelerated gzip. For every available backend and level
 * (backends.h): ratio, single-core compress and decompress MB/s and CPU s/GB on
 * the same in-memory data, every gzip output checked by zlib's inflate (at the first run of
 * each backend and level: the later runs time the same stream again); then, with
 * --workers or --backend auto, a web-tier stage: N processes compressing requests, an
 * accelerated backend with a per-request fallback to zlib (compress.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/compress/compress.h"
#include "bench/compress/corpus.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/str.h"

/* choices of --backend: "all", every backend by name, "auto" */
static const char *const backend_choices[] = { "all", "zlib", "libdeflate", "isal",
					       "qat", "zstd", "auto",	    NULL };
enum { BE_ALL = 0, BE_AUTO = 6 };

struct compress_opts {
	int backend;
	int level; /* -1 = the backend's sweep */
	const char *input;
	int corpus;
	uint64_t size;
	uint64_t request;
	double time;
	int workers;
	double inject;
	const char *save_input;
};

static const struct compress_opts compress_defaults = {
	.backend = BE_ALL,
	.level = -1,
	.corpus = PL_CORPUS_TEXT,
	.size = 16u << 20,
	.request = 1u << 20,
	.time = 0.3,
};

static const struct pl_opt compress_opt_table[] = {
	{ "backend", 0, PL_OPT_ENUM, offsetof(struct compress_opts, backend), "B",
	  "all (every available one), one of them, or auto (accelerated with software fallback)",
	  backend_choices, .def = "all", .was_short = 'b' },
	{ "level", 'L', PL_OPT_INT, offsetof(struct compress_opts, level), "N",
	  "one level instead of the sweep (zlib 1,6,9; libdeflate 1,6,12; isal 0-3; zstd 1,3)",
	  .min = -1, .max = 22, .def = "-1 (the sweep)" },
	{ "input", 0, PL_OPT_STR, offsetof(struct compress_opts, input), "FILE",
	  "compress this file (read into memory) instead of a built-in corpus", .was_short = 'i' },
	{ "corpus", 0, PL_OPT_ENUM, offsetof(struct compress_opts, corpus), "KIND",
	  "built-in corpus generated with a fixed seed", pl_corpus_names, .def = "text" },
	{ "size", 's', PL_OPT_SIZE, offsetof(struct compress_opts, size), "BYTES",
	  "size of the built-in corpus", .min = 4096, .max = 4294967295.0, .def = "16MiB" },
	{ "request-size", 0, PL_OPT_SIZE, offsetof(struct compress_opts, request), "BYTES",
	  "compress the input as independent requests of this size (0 = one request)", .min = 0,
	  .max = 4294967295.0, .def = "1MiB" },
	{ "time", 't', PL_OPT_DURATION, offsetof(struct compress_opts, time), "S",
	  "minimum timed duration per backend, level and direction in each run", .min = 0.001,
	  .max = 3600, .def = "0.3s" },
	{ "workers", 0, PL_OPT_INT, offsetof(struct compress_opts, workers), "N",
	  "web-tier stage with N worker processes (default: 1 with --backend auto, else off)",
	  .min = 0, .max = 1024 },
	{ "inject-accel-failure", 0, PL_OPT_DOUBLE, offsetof(struct compress_opts, inject), "RATE",
	  "make this fraction (0..1) of the accelerated backend's requests fail", .min = 0,
	  .max = 1 },
	{ "save-input", 0, PL_OPT_STR, offsetof(struct compress_opts, save_input), "FILE",
	  "also write the input (e.g. the generated corpus) to FILE, for the CLI tools" },
	PL_OPT_END,
};

/* One backend+level measured in every run. */
struct combo {
	const struct pl_cz_backend *be;
	int level;
	int m_comp, m_decomp, m_ratio, m_cpu;
	bool verified; /* a run checked its output with zlib (pl_cz_measure_reqs) */
};

struct compress_state {
	unsigned char *in;
	size_t len;
	struct combo *c;
	size_t nc;
	struct pl_cz_reqs *q; /* the requests' buffers, shared by every combo and run */
	bool serve;
	struct pl_cz_serve_params sp;
	int m_serve, m_serve_cpu, m_fallbacks;
	uint64_t requests, fallbacks, failed;
	double wall_s, cpu_s; /* timed seconds of the measured runs (pl_cz_measure) */
};

static const char *const compress_quick[] = { "--size", "1MiB", "--time", "0.05",
					      "--runs", "1",	NULL };
/* The default `perflab report`: the standalone defaults (16 MiB corpus, 0.3 s per backend,
 * level and direction, 3 runs) at level 1 of every backend, the fast level a web tier
 * uses; the whole sweep of the defaults takes minutes (zlib 9 and libdeflate 12 compress
 * at a few MB/s). Each backend and level is measured on its own, so these rows are the
 * default sweep's rows. */
static const char *const compress_report[] = { "--level", "1", NULL };

/* Below this share of the wall-clock time on a CPU, a note says so. */
#define ON_CPU_MIN_PCT 90

static int read_input(struct pl_bench_ctx *ctx, const char *path, unsigned char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		pl_bench_error(ctx, "cannot read --input '%s': %s (give a readable file)", path,
			       strerror(e));
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size > (off_t)UINT32_MAX) {
		close(fd);
		pl_bench_error(ctx, "--input '%s' must be a regular, non-empty file under 4 GiB",
			       path);
		return -EINVAL;
	}
	size_t n = (size_t)st.st_size, got = 0;
	unsigned char *buf = pl_xmalloc(n);
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;
			close(fd);
			free(buf);
			pl_bench_error(ctx, "cannot read --input '%s': %s", path, strerror(e));
			return -EINVAL;
		}
		got += (size_t)r;
	}
	close(fd);
	*out = buf;
	*len = n;
	return 0;
}

static int save_input(struct pl_bench_ctx *ctx, const char *path, const void *buf, size_t n)
{
	struct pl_outfile o;
	int r = pl_outfile_open(&o, path);
	if (r == 0) {
		r = fwrite(buf, 1, n, o.fp) == n ? 0 : -EIO;
		int c = pl_outfile_close(&o, r == 0);
		r = r < 0 ? r : c;
	}
	if (r < 0)
		pl_bench_error(ctx, "cannot write --save-input '%s': %s (choose another path)",
			       path, strerror(-r));
	return r < 0 ? -EINVAL : 0;
}

static void add_combo(struct pl_bench_ctx *ctx, struct compress_state *s,
		      const struct pl_cz_backend *be, int level)
{
	s->c = pl_xrealloc(s->c, (s->nc + 1) * sizeof(*s->c));
	struct combo *c = &s->c[s->nc++];
	char name[64];
	c->be = be;
	c->level = level;
	c->verified = false;
	snprintf(name, sizeof(name), "%s-%d compress", be->name, level);
	c->m_comp = pl_bench_metric(ctx, name, "MB/s", PL_HIGHER_IS_BETTER,
				    "uncompressed MB (10^6 B) per CPU second of one core");
	snprintf(name, sizeof(name), "%s-%d decompress", be->name, level);
	c->m_decomp =
		pl_bench_metric(ctx, name, "MB/s", PL_HIGHER_IS_BETTER,
				"uncompressed MB (10^6 B) produced per CPU second of one core");
	snprintf(name, sizeof(name), "%s-%d ratio", be->name, level);
	c->m_ratio = pl_bench_metric(ctx, name, "x", PL_HIGHER_IS_BETTER,
				     "input bytes / compressed bytes");
	snprintf(name, sizeof(name), "%s-%d cpu", be->name, level);
	c->m_cpu = pl_bench_metric(ctx, name, "s/GB", PL_LOWER_IS_BETTER,
				   "CPU seconds (user+sys) to compress 10^9 input bytes");
	if (!be->gzip)
		pl_bench_metric_note(ctx, c->m_ratio, "format", "zstd (not gzip; for reference)");
}

static int compress_supported(const void *opts, char *reason, size_t len)
{
	const struct compress_opts *o = opts;
	if (o->backend != BE_ALL && o->backend != BE_AUTO) {
		const struct pl_cz_backend *be = pl_cz_find(backend_choices[o->backend]);
		const char *why = be->unavailable();
		if (why) {
			snprintf(reason, len, "backend %s: %s", be->name, why);
			return -ENOTSUP;
		}
		return 0;
	}
	/* the sweep (and auto) skips what is missing here: name it */
	size_t used = 0;
	for (size_t i = 0; i < pl_cz_nbackends && used < len; i++) {
		const char *why = pl_cz_backends[i]->unavailable();
		if (why) {
			int n = snprintf(reason + used, len - used, "%s%s: not available (%s)",
					 used ? "; " : "", pl_cz_backends[i]->name, why);
			used += n > 0 ? (size_t)n : 0;
		}
	}
	return 0;
}

static void compress_teardown(struct pl_bench_ctx *ctx, void *opts, void *state);

static int compress_setup(struct pl_bench_ctx *ctx, void *opts, void **state)
{
	struct compress_opts *o = opts;
	struct compress_state *s = pl_xcalloc(1, sizeof(*s));
	int r;
	if (o->input) {
		if ((r = read_input(ctx, o->input, &s->in, &s->len)) < 0)
			goto fail;
	} else {
		s->len = (size_t)o->size;
		s->in = pl_xmalloc(s->len);
		pl_corpus_generate((enum pl_corpus_kind)o->corpus, PL_CORPUS_SEED, s->in, s->len);
	}
	if (o->save_input && (r = save_input(ctx, o->save_input, s->in, s->len)) < 0)
		goto fail;

	json_t *info = pl_bench_info(ctx);
	json_object_set_new(info, "input",
			    pl_json_string(o->input ? o->input : pl_corpus_names[o->corpus]));
	json_object_set_new(info, "input_bytes", json_integer((json_int_t)s->len));
	if (!o->input)
		json_object_set_new(info, "corpus_seed", json_integer(PL_CORPUS_SEED));
	json_object_set_new(info, "request_bytes",
			    json_integer((json_int_t)(o->request && o->request < s->len ? o->request
											: s->len)));
	json_t *avail = json_object();
	for (size_t i = 0; i < pl_cz_nbackends; i++) {
		const struct pl_cz_backend *be = pl_cz_backends[i];
		const char *why = be->unavailable();
		json_object_set_new(avail, be->name, pl_json_string(why ? why : "available"));
		if (why && (o->backend == BE_ALL || o->backend == BE_AUTO))
			pl_bench_note(ctx, "%s unavailable: %s", be->name, why);
	}
	json_object_set_new(info, "backends", avail);

	/* the table: every requested backend at its levels */
	if (o->backend != BE_AUTO) {
		for (size_t i = 0; i < pl_cz_nbackends; i++) {
			const struct pl_cz_backend *be = pl_cz_backends[i];
			if (o->backend != BE_ALL &&
			    strcmp(be->name, backend_choices[o->backend]) != 0)
				continue;
			if (be->unavailable())
				continue;
			if (o->level >= 0) {
				if (o->level < be->min_level || o->level > be->max_level) {
					if (o->backend == BE_ALL)
						continue;
					pl_bench_error(
						ctx, "--level %d is out of range for %s (%d..%d)",
						o->level, be->name, be->min_level, be->max_level);
					r = -EINVAL;
					goto fail;
				}
				add_combo(ctx, s, be, o->level);
			} else {
				for (const int *lv = be->levels; *lv >= 0; lv++)
					add_combo(ctx, s, be, *lv);
			}
		}
	}

	/* the web-tier stage */
	s->serve = o->backend == BE_AUTO || o->workers > 0 || o->inject > 0;
	if (s->serve) {
		const struct pl_cz_backend *prim =
			o->backend == BE_AUTO || o->backend == BE_ALL
				? pl_cz_auto_primary()
				: pl_cz_find(backend_choices[o->backend]);
		const struct pl_cz_backend *zl = pl_cz_find("zlib");
		s->sp = (struct pl_cz_serve_params){
			.primary = prim,
			.fallback = prim == zl ? NULL : zl,
			.level = o->level >= 0 ? o->level : 1,
			.workers = o->workers > 0 ? (unsigned)o->workers : 1,
			.seconds = o->time,
			.req = (size_t)o->request,
			.inject_failure = o->inject,
			.seed = PL_CORPUS_SEED,
		};
		json_t *sv = json_object();
		json_object_set_new(sv, "primary", pl_json_string(prim->name));
		json_object_set_new(sv, "fallback",
				    pl_json_string(s->sp.fallback ? "zlib" : "none"));
		json_object_set_new(sv, "level", json_integer(s->sp.level));
		json_object_set_new(sv, "workers", json_integer(s->sp.workers));
		json_object_set_new(sv, "inject_failure_rate", json_real(o->inject));
		json_object_set_new(info, "serve", sv);
		char name[96];
		snprintf(name, sizeof(name), "serve %s x%u", prim->name, s->sp.workers);
		s->m_serve =
			pl_bench_metric(ctx, name, "MB/s", PL_HIGHER_IS_BETTER,
					"compressed input MB/s summed over the worker processes");
		snprintf(name, sizeof(name), "serve %s x%u cpu", prim->name, s->sp.workers);
		s->m_serve_cpu = pl_bench_metric(ctx, name, "s/GB", PL_LOWER_IS_BETTER,
						 "CPU seconds of all workers per 10^9 input bytes");
		s->m_fallbacks = pl_bench_metric(ctx, "serve fallbacks", "%", PL_NEITHER,
						 "requests served by the software fallback");
	}
	if (s->nc > 0)
		s->q = pl_cz_reqs_new(s->in, s->len, (size_t)o->request);
	if (s->nc == 0 && !s->serve) {
		pl_bench_error(ctx, "nothing to measure: no backend accepts --level %d", o->level);
		r = -EINVAL;
		goto fail;
	}
	*state = s;
	return 0;
fail:
	compress_teardown(ctx, opts, s);
	return r;
}

static int compress_run(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	struct compress_opts *o = opts;
	struct compress_state *s = state;
	for (size_t i = 0; i < s->nc; i++) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		struct combo *c = &s->c[i];
		struct pl_cz_measure m;
		/* The first run of a backend and level checks its output; the later ones time
		 * the same stream again (hardware offload is checked every run). */
		bool verify = !c->verified || c->be->accelerated;
		int r = pl_cz_measure_reqs(c->be, c->level, s->q, o->time, verify, &m);
		if (r < 0) {
			if (r == -EILSEQ || r == -EBADMSG)
				pl_bench_error(
					ctx,
					"%s level %d wrote a stream that does not decompress "
					"to the input (zlib check failed): a backend bug",
					c->be->name, c->level);
			else
				pl_bench_error(ctx, "%s level %d failed: %s", c->be->name, c->level,
					       strerror(-r));
			return r == -EINVAL ? -EIO : r;
		}
		c->verified = true;
		pl_bench_record(ctx, c->m_comp, m.comp_mbps);
		pl_bench_record(ctx, c->m_decomp, m.decomp_mbps);
		pl_bench_record(ctx, c->m_ratio, m.ratio);
		pl_bench_record(ctx, c->m_cpu, m.comp_cpu_s_per_gb);
		if (!pl_bench_warming_up(ctx)) {
			s->wall_s += m.wall_s;
			s->cpu_s += m.cpu_s;
		}
	}
	if (s->serve) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		struct pl_cz_serve_result sr;
		int r = pl_cz_serve(&s->sp, s->in, s->len, &sr);
		if (r < 0) {
			pl_bench_error(ctx, "web-tier stage failed: %s", strerror(-r));
			return r == -EINVAL ? -EIO : r;
		}
		if (sr.failed) {
			pl_bench_error(ctx,
				       "web-tier stage: %llu of %llu requests failed (no backend "
				       "produced a correct stream)",
				       (unsigned long long)sr.failed,
				       (unsigned long long)sr.requests);
			return -EIO;
		}
		pl_bench_record(ctx, s->m_serve, sr.mbps);
		pl_bench_record(ctx, s->m_serve_cpu, sr.cpu_s_per_gb);
		pl_bench_record(ctx, s->m_fallbacks,
				sr.requests ? 100.0 * (double)sr.fallbacks / (double)sr.requests
					    : 0);
		if (!pl_bench_warming_up(ctx)) {
			s->requests += sr.requests;
			s->fallbacks += sr.fallbacks;
			s->failed += sr.failed;
			json_t *sv = json_object_get(pl_bench_info(ctx), "serve");
			json_object_set_new(sv, "requests", json_integer((json_int_t)s->requests));
			json_object_set_new(sv, "failed", json_integer((json_int_t)s->failed));
			json_object_set_new(sv, "fallbacks",
					    json_integer((json_int_t)s->fallbacks));
		}
	}
	return 0;
}

static void compress_teardown(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	(void)ctx;
	(void)opts;
	struct compress_state *s = state;
	if (!s)
		return;
	if (s->wall_s > 0) {
		/* MB/s are per CPU second; say how much of the wall clock the thread had */
		double on = 100 * s->cpu_s / s->wall_s;
		json_object_set_new(pl_bench_info(ctx), "on_cpu_pct", json_real(on));
		if (on < ON_CPU_MIN_PCT)
			pl_bench_note(
				ctx,
				"the measuring thread ran %.0f%% of the timed wall-clock time "
				"(other tasks or the hypervisor took the rest): MB/s are per "
				"CPU second of the thread, so they hold for an idle core; a "
				"wall-clock rate here would read that much lower",
				on);
	}
	pl_cz_reqs_free(s->q);
	free(s->in);
	free(s->c);
	free(s);
}

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const compress_headline[] = { "* compress", NULL };

const struct pl_bench pl_bench_compress = {
	.name = "compress",
	.summary = "gzip compression: zlib, libdeflate, ISA-L, QAT (when present), zstd; "
		   "ratio, MB/s per core, CPU s/GB",
	.description =
		"Every available backend at its levels compresses the same in-memory input as\n"
		"requests of --request-size: ratio, compress and decompress MB/s on one core\n"
		"(10^6 B of uncompressed data per CPU second of the measuring thread, getrusage,\n"
		"so a shared CPU does not lower them) and CPU seconds per 10^9 B.\n"
		"Every gzip output is inflated by zlib and compared with the input first (in\n"
		"the first run of each backend and level, and every run of QAT), so a backend\n"
		"writing a wrong stream fails loudly. QAT is loaded at run time (dlopen "
		"of\n"
		"libqatzip) when a device is bound. --backend auto (or --workers N) adds a "
		"web-tier\n"
		"stage: N processes compress requests with the accelerated backend and fall back\n"
		"to zlib per request on failure; --inject-accel-failure RATE simulates failures,\n"
		"and the run fails if any request is left uncompressed.",
	.opts = compress_opt_table,
	.opts_size = sizeof(struct compress_opts),
	.opts_defaults = &compress_defaults,
	.default_runs = 3,
	.quick_argv = compress_quick,
	.report_argv = compress_report,
	.in_report = true,
	.headline = compress_headline,
	.supported = compress_supported,
	.setup = compress_setup,
	.run = compress_run,
	.teardown = compress_teardown,
};
