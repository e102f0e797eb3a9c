/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measuring loops of `perflab bench compress` (see compress.h). */
#include "bench/compress/compress.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/splitmix.h"
#include "util/str.h"

static double now_s(void)
{
	return (double)pl_now_ns() * 1e-9;
}

static double cpu_s(int who)
{
	struct rusage ru;
	if (getrusage(who, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The requests of one input and the buffers their outputs go to: offsets are implicit
 * (i * req). */
struct pl_cz_reqs {
	const unsigned char *in;
	size_t len, req, n;
	unsigned char *out; /* n slots of cap bytes */
	size_t cap;
	size_t *outlen;
	unsigned char *back; /* decompression target, req bytes */
};

struct pl_cz_reqs *pl_cz_reqs_new(const void *in, size_t len, size_t req)
{
	struct pl_cz_reqs *q = pl_xcalloc(1, sizeof(*q));
	q->in = in;
	q->len = len;
	q->req = req == 0 || req > len ? len : req;
	q->n = q->req ? (len + q->req - 1) / q->req : 0;
	q->cap = pl_cz_bound(q->req);
	q->out = pl_xmalloc(q->n * q->cap + 1);
	q->outlen = pl_xcalloc(q->n + 1, sizeof(size_t));
	q->back = pl_xmalloc(q->req + 1);
	return q;
}

static size_t reqs_len(const struct pl_cz_reqs *q, size_t i)
{
	size_t off = i * q->req;
	return q->len - off < q->req ? q->len - off : q->req;
}

void pl_cz_reqs_free(struct pl_cz_reqs *q)
{
	if (!q)
		return;
	free(q->out);
	free(q->outlen);
	free(q->back);
	free(q);
}

/* The untimed pass: compress every request, check it with the backend's inflater and,
 * for gzip, with zlib's; the sizes go to q->outlen and m->out_bytes. */
static int verify_pass(const struct pl_cz_backend *be, struct pl_cz_ctx *c, struct pl_cz_reqs *q,
		       struct pl_cz_measure *m)
{
	int r = 0;
	for (size_t i = 0; i < q->n && r == 0; i++) {
		const unsigned char *src = q->in + i * q->req;
		size_t n = reqs_len(q, i), back = 0;
		unsigned char *dst = q->out + i * q->cap;
		r = be->compress(c, src, n, dst, q->cap, &q->outlen[i]);
		if (r == 0)
			r = be->decompress(c, dst, q->outlen[i], q->back, q->req + 1, &back);
		if (r == 0 && (back != n || memcmp(q->back, src, n) != 0))
			r = -EILSEQ;
		if (r == 0 && be->gzip)
			r = pl_cz_verify_gzip(dst, q->outlen[i], src, n);
		m->out_bytes += q->outlen[i];
	}
	return r;
}

int pl_cz_measure_reqs(const struct pl_cz_backend *be, int level, struct pl_cz_reqs *q,
		       double min_seconds, bool verify, struct pl_cz_measure *m)
{
	memset(m, 0, sizeof(*m));
	m->be = be;
	m->level = level;
	if (be->unavailable())
		return -ENODEV;
	if (level < be->min_level || level > be->max_level || q->len == 0)
		return -EINVAL;
	struct pl_cz_ctx *c = NULL;
	int r = be->open(level, &c);
	if (r < 0)
		return r;
	if (verify) {
		if ((r = verify_pass(be, c, q, m)) < 0)
			goto out;
		m->verified = true;
	}

	/* Timed compression: whole passes until min_seconds. Each pass leaves its sizes in
	 * q->outlen: without the untimed pass, the first one gives the output the timed
	 * decompression reads (these backends write the same stream for the same input and
	 * level). */
	double c0 = cpu_s(RUSAGE_THREAD), t0 = now_s(), t = t0;
	do {
		for (size_t i = 0; i < q->n && r == 0; i++)
			r = be->compress(c, q->in + i * q->req, reqs_len(q, i), q->out + i * q->cap,
					 q->cap, &q->outlen[i]);
		m->comp_passes++;
		t = now_s();
	} while (r == 0 && t - t0 < min_seconds);
	double c1 = cpu_s(RUSAGE_THREAD);
	if (r < 0)
		goto out;
	if (!verify)
		for (size_t i = 0; i < q->n; i++)
			m->out_bytes += q->outlen[i];
	m->in_bytes = q->len;
	m->ratio = (double)q->len / (double)m->out_bytes;
	double bytes = (double)q->len * (double)m->comp_passes;
	m->comp_wall_mbps = bytes / (t - t0) / 1e6;
	m->comp_mbps = c1 > c0 ? bytes / (c1 - c0) / 1e6 : m->comp_wall_mbps;
	m->comp_cpu_s_per_gb = (c1 - c0) / (bytes / 1e9);
	m->wall_s = t - t0;
	m->cpu_s = c1 - c0;

	/* Timed decompression with the backend's own inflater. */
	c0 = cpu_s(RUSAGE_THREAD);
	t0 = now_s();
	do {
		for (size_t i = 0; i < q->n && r == 0; i++) {
			size_t back;
			r = be->decompress(c, q->out + i * q->cap, q->outlen[i], q->back,
					   q->req + 1, &back);
		}
		m->decomp_passes++;
		t = now_s();
	} while (r == 0 && t - t0 < min_seconds);
	c1 = cpu_s(RUSAGE_THREAD);
	if (r < 0)
		goto out;
	bytes = (double)q->len * (double)m->decomp_passes;
	m->decomp_wall_mbps = bytes / (t - t0) / 1e6;
	m->decomp_mbps = c1 > c0 ? bytes / (c1 - c0) / 1e6 : m->decomp_wall_mbps;
	m->decomp_cpu_s_per_gb = (c1 - c0) / (bytes / 1e9);
	m->wall_s += t - t0;
	m->cpu_s += c1 - c0;
out:
	be->close(c);
	return r;
}

int pl_cz_measure(const struct pl_cz_backend *be, int level, const void *in, size_t len, size_t req,
		  double min_seconds, struct pl_cz_measure *m)
{
	struct pl_cz_reqs *q = pl_cz_reqs_new(in, len, req);
	int r = pl_cz_measure_reqs(be, level, q, min_seconds, true, m);
	pl_cz_reqs_free(q);
	return r;
}

const struct pl_cz_backend *pl_cz_auto_primary(void)
{
	static const char *const order[] = { "qat", "isal" };
	for (size_t i = 0; i < 2; i++) {
		const struct pl_cz_backend *be = pl_cz_find(order[i]);
		if (be && !be->unavailable())
			return be;
	}
	return pl_cz_find("zlib");
}

static int clamp_level(const struct pl_cz_backend *be, int level)
{
	return level < be->min_level   ? be->min_level
	       : level > be->max_level ? be->max_level
				       : level;
}

/* What one worker sends back through its pipe. */
struct worker_msg {
	int err;
	uint64_t requests, failed, fallbacks, injected, in_bytes, out_bytes;
	double comp_s, cpu_s;
};

static int check_one(const struct pl_cz_backend *be, struct pl_cz_ctx *c, const void *out,
		     size_t outlen, const void *src, size_t n, unsigned char *back, size_t cap)
{
	if (be->gzip)
		return pl_cz_verify_gzip(out, outlen, src, n);
	size_t got = 0;
	int r = be->decompress(c, out, outlen, back, cap, &got);
	if (r == 0 && (got != n || memcmp(back, src, n) != 0))
		r = -EILSEQ;
	return r;
}

static void serve_worker(const struct pl_cz_serve_params *p, unsigned idx, const void *in,
			 size_t len, struct worker_msg *w)
{
	memset(w, 0, sizeof(*w));
	struct pl_cz_ctx *pc = NULL, *fc = NULL;
	int pr = p->primary->open(clamp_level(p->primary, p->level), &pc);
	if (p->fallback &&
	    (w->err = p->fallback->open(clamp_level(p->fallback, p->level), &fc)) < 0)
		goto out;
	if (pr < 0 && !p->fallback) {
		w->err = pr;
		goto out;
	}
	struct pl_cz_reqs *q = pl_cz_reqs_new(in, len, p->req);
	uint64_t seed = p->seed + 0x1000003ull * (idx + 1);
	double c0 = cpu_s(RUSAGE_SELF), t0 = now_s();
	/* Workers start at different requests so they do not walk the input in lockstep. */
	size_t i = q->n ? (idx * 7) % q->n : 0;
	while (now_s() - t0 < p->seconds) {
		const unsigned char *src = q->in + i * q->req;
		size_t n = reqs_len(q, i), ol = 0;
		unsigned char *dst = q->out;
		bool inject = p->inject_failure > 0 && pl_splitmix_unit(&seed) < p->inject_failure;
		double s0 = now_s();
		int r = -EBUSY;
		if (inject)
			w->injected++;
		else if (pc)
			r = p->primary->compress(pc, src, n, dst, q->cap, &ol);
		const struct pl_cz_backend *used = p->primary;
		struct pl_cz_ctx *uc = pc;
		if (r < 0 && fc) {
			w->fallbacks++;
			used = p->fallback;
			uc = fc;
			r = p->fallback->compress(fc, src, n, dst, q->cap, &ol);
		}
		w->comp_s += now_s() - s0;
		if (r == 0)
			r = check_one(used, uc, dst, ol, src, n, q->back, q->req + 1);
		w->requests++;
		if (r < 0)
			w->failed++;
		w->in_bytes += n;
		w->out_bytes += ol;
		i = (i + 1) % q->n;
	}
	w->cpu_s = cpu_s(RUSAGE_SELF) - c0;
	pl_cz_reqs_free(q);
out:
	p->primary->close(pc);
	if (p->fallback)
		p->fallback->close(fc);
}

int pl_cz_serve(const struct pl_cz_serve_params *p, const void *in, size_t len,
		struct pl_cz_serve_result *r)
{
	memset(r, 0, sizeof(*r));
	if (p->workers < 1 || len == 0)
		return -EINVAL;
	unsigned nw = p->workers;
	pid_t *pids = pl_xcalloc(nw, sizeof(pid_t));
	int *fds = pl_xcalloc(nw, sizeof(int));
	int ret = 0;
	double t0 = now_s();
	unsigned started = 0;
	for (; started < nw; started++) {
		int pfd[2];
		if (pipe(pfd) < 0) {
			ret = -errno;
			break;
		}
		pid_t pid = fork();
		if (pid < 0) {
			ret = -errno;
			close(pfd[0]);
			close(pfd[1]);
			break;
		}
		if (pid == 0) {
			close(pfd[0]);
			struct worker_msg w;
			serve_worker(p, started, in, len, &w);
			ssize_t wr = write(pfd[1], &w, sizeof(w));
			_exit(wr == (ssize_t)sizeof(w) ? 0 : 1);
		}
		close(pfd[1]);
		pids[started] = pid;
		fds[started] = pfd[0];
	}
	double comp_mbps = 0, cpu = 0;
	for (unsigned k = 0; k < started; k++) {
		struct worker_msg w;
		size_t got = 0;
		while (got < sizeof(w)) {
			ssize_t n = read(fds[k], (char *)&w + got, sizeof(w) - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		close(fds[k]);
		int st = 0;
		while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR)
			;
		if (got != sizeof(w) || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			if (ret == 0)
				ret = -ECHILD;
			continue;
		}
		if (w.err < 0 && ret == 0)
			ret = w.err;
		r->requests += w.requests;
		r->failed += w.failed;
		r->fallbacks += w.fallbacks;
		r->injected += w.injected;
		r->in_bytes += w.in_bytes;
		r->out_bytes += w.out_bytes;
		if (w.comp_s > 0)
			comp_mbps += (double)w.in_bytes / w.comp_s / 1e6;
		cpu += w.cpu_s;
	}
	r->wall_s = now_s() - t0;
	r->mbps = comp_mbps;
	r->wall_mbps = r->wall_s > 0 ? (double)r->in_bytes / r->wall_s / 1e6 : 0;
	r->cpu_s_per_gb = r->in_bytes ? cpu / ((double)r->in_bytes / 1e9) : 0;
	free(pids);
	free(fds);
	return ret;
}
