/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The off-CPU text sections, JSON member and folded stacks (profile/offcpu_output.h). */
#include "profile/offcpu_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/output.h"
#include "util/json.h"
#include "util/str.h"

/* Frames of a stack shown in the text, leaf first; a waker's on its one line. */
#define TEXT_FRAMES 12
#define WAKER_FRAMES 5

void pl_offcpu_names_build(struct pl_offcpu_names *nm, const struct pl_offcpu *o,
			   struct pl_profile *p)
{
	memset(nm, 0, sizeof(*nm));
	size_t n = o->nstk + o->nwak;
	struct pl_pweight *w = pl_xmalloc((n + 1) * sizeof(*w));
	for (size_t k = 0; k < o->nstk; k++)
		w[k] = (struct pl_pweight){ o->stk[k].pid, o->stk[k].tid, o->stk[k].stack,
					    o->stk[k].time, 1 };
	for (size_t k = 0; k < o->nwak; k++) {
		const struct pl_offcpu_waker *x = &o->wak[k];
		w[o->nstk + k] = (struct pl_pweight){ x->pid, x->tid == UINT32_MAX ? 0 : x->tid,
						      x->stack, x->time, 1 };
	}
	uint32_t *chain = pl_xcalloc(n + 1, sizeof(uint32_t));
	pl_preport_build_weighted(&nm->r, p, w, n, chain);
	nm->stk_chain = pl_xcalloc(o->nstk + 1, sizeof(uint32_t));
	nm->wak_chain = pl_xcalloc(o->nwak + 1, sizeof(uint32_t));
	memcpy(nm->stk_chain, chain, o->nstk * sizeof(uint32_t));
	memcpy(nm->wak_chain, chain + o->nstk, o->nwak * sizeof(uint32_t));
	free(chain);
	free(w);
}

void pl_offcpu_names_free(struct pl_offcpu_names *nm)
{
	if (!nm)
		return;
	pl_preport_free(&nm->r);
	free(nm->stk_chain);
	free(nm->wak_chain);
	memset(nm, 0, sizeof(*nm));
}

/* The name of thread @tid in @p ("" when unknown). */
static const char *comm_of(const struct pl_profile *p, uint32_t tid)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].tid == tid)
			return p->threads[i].comm;
	return "";
}

/* A waker (one seen) as the outputs name it: its interrupt context, "[idle/irq]" for the
 * idle task (an interrupt on an idle CPU), else its thread's comm. */
static const char *waker_name(const struct pl_profile *p, const struct pl_offcpu_waker *w)
{
	const char *ctx = pl_sched_ctx_name((enum pl_sched_ctx)w->ctx);
	if (ctx)
		return ctx;
	return w->tid ? comm_of(p, w->tid) : "[idle/irq]";
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static const char *kind_name(uint8_t kind)
{
	return kind == PL_OFF_PREEMPTED ? "preempted" : "blocked";
}

/* "name [module]" of frame @k (leaf = 0) of chain @c. */
static void print_frame(FILE *out, const struct pl_preport *r, const struct pl_chain *c, uint32_t k)
{
	const struct pl_func *f = &r->funcs[c->frames[c->n - 1 - k]];
	bool br = f->module[0] != '[';
	fprintf(out, "%s %s%s%s", f->name, br ? "[" : "", f->module, br ? "]" : "");
}

/* The lower bound of histogram bucket @k, us. */
static uint64_t bucket_lo(size_t k)
{
	return k ? (uint64_t)1 << k : 0;
}

static void print_hist(FILE *out, const uint64_t *h)
{
	size_t lo = PL_RUNQ_BUCKETS, hi = 0;
	uint64_t mx = 0;
	for (size_t k = 0; k < PL_RUNQ_BUCKETS; k++)
		if (h[k]) {
			if (lo == PL_RUNQ_BUCKETS)
				lo = k;
			hi = k;
			if (h[k] > mx)
				mx = h[k];
		}
	if (!mx) {
		fprintf(out, "  no run-queue waits\n");
		return;
	}
	fprintf(out, "  %19s : %-9s %s\n", "usecs", "count", "distribution");
	for (size_t k = lo; k <= hi; k++) {
		uint64_t a = bucket_lo(k), b = k ? (bucket_lo(k) << 1) - 1 : 1;
		char range[48], bar[41];
		if (k == PL_RUNQ_BUCKETS - 1)
			snprintf(range, sizeof(range), "%llu ->", (unsigned long long)a);
		else
			snprintf(range, sizeof(range), "%llu -> %llu", (unsigned long long)a,
				 (unsigned long long)b);
		size_t stars = (size_t)(40.0 * (double)h[k] / (double)mx + 0.5);
		memset(bar, '*', stars);
		bar[stars] = '\0';
		fprintf(out, "  %19s : %-9llu |%-40s|\n", range, (unsigned long long)h[k], bar);
	}
}

/* Threads by off-CPU time, descending (ties: pid, tid). */
static const struct pl_offcpu *sort_o;
static int cmp_off(const void *x, const void *y)
{
	const struct pl_offcpu_thread *a = &sort_o->thr[*(const size_t *)x];
	const struct pl_offcpu_thread *b = &sort_o->thr[*(const size_t *)y];
	uint64_t oa = a->blocked_ns + a->preempted_ns, ob = b->blocked_ns + b->preempted_ns;
	if (oa != ob)
		return oa > ob ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

static void text_threads(FILE *out, const struct pl_offcpu *o, const struct pl_profile *p, int top)
{
	size_t *ix = pl_xcalloc(o->nthr + 1, sizeof(size_t));
	for (size_t i = 0; i < o->nthr; i++)
		ix[i] = i;
	sort_o = o;
	qsort(ix, o->nthr, sizeof(size_t), cmp_off);
	fprintf(out, "  %7s %7s %-16s %10s %10s %10s %6s %9s %9s %8s %6s\n", "pid", "tid", "comm",
		"run ms", "blocked ms", "preempt ms", "off%", "delay avg", "delay max", "switches",
		"migr");
	for (size_t n = 0; n < o->nthr && (int)n < top; n++) {
		const struct pl_offcpu_thread *t = &o->thr[ix[n]];
		uint64_t off = t->blocked_ns + t->preempted_ns;
		fprintf(out,
			"  %7u %7u %-16s %10.3f %10.3f %10.3f %5.1f%% %7.1fus %7.1fus %8llu "
			"%6llu\n",
			t->pid, t->tid, comm_of(p, t->tid), ms(t->run_ns), ms(t->blocked_ns),
			ms(t->preempted_ns), pct(off, off + t->run_ns),
			t->ndelays ? (double)t->delay_ns / (double)t->ndelays / 1e3 : 0.0,
			(double)t->delay_max_ns / 1e3, (unsigned long long)t->switches,
			(unsigned long long)t->migrations);
	}
	if (o->nthr > (size_t)top)
		fprintf(out, "  ... %zu more threads (all in --json)\n", o->nthr - (size_t)top);
	free(ix);
}

static void text_stacks(FILE *out, const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
			const struct pl_profile *p, int top)
{
	const struct pl_preport *r = &nm->r;
	for (size_t k = 0; k < o->nstk && (int)k < top; k++) {
		const struct pl_offcpu_stack *s = &o->stk[k];
		fprintf(out, "  %10.3f ms %7llu x  max %9.3f ms  %-9s  %s/%u%s\n", ms(s->total_ns),
			(unsigned long long)s->count, ms(s->max_ns), kind_name(s->kind),
			comm_of(p, s->tid), s->tid,
			s->clipped ? "  (some clipped at the edges)" : "");
		const struct pl_chain *c = &r->chains[nm->stk_chain[k]];
		for (uint32_t f = 0; f < c->n && f < TEXT_FRAMES; f++) {
			fprintf(out, "      ");
			print_frame(out, r, c, f);
			fputc('\n', out);
		}
		if (c->n > TEXT_FRAMES)
			fprintf(out, "      ... %u more frames\n", c->n - TEXT_FRAMES);
		for (size_t j = s->waker0; j < s->waker0 + s->nwakers && j < s->waker0 + 3; j++) {
			const struct pl_offcpu_waker *w = &o->wak[j];
			if (w->tid == UINT32_MAX) {
				fprintf(out, "    woken: %llu x %.3f ms, no waking seen\n",
					(unsigned long long)w->count, ms(w->total_ns));
				continue;
			}
			fprintf(out, "    woken by %s/%u: %llu x %.3f ms, at ", waker_name(p, w),
				w->tid, (unsigned long long)w->count, ms(w->total_ns));
			const struct pl_chain *wc = &r->chains[nm->wak_chain[j]];
			for (uint32_t f = 0; f < wc->n && f < WAKER_FRAMES; f++) {
				fputs(f ? " <- " : "", out);
				print_frame(out, r, wc, f);
			}
			fputs(wc->n > WAKER_FRAMES ? " <- ...\n" : "\n", out);
		}
		if (s->nwakers > 3)
			fprintf(out, "    ... %zu more wakers (all in --json)\n", s->nwakers - 3);
	}
	if (o->nstk > (size_t)top)
		fprintf(out, "  ... %zu more stacks (all in --json)\n", o->nstk - (size_t)top);
}

/* "1 interval" or "2 intervals": @n and the noun, plural unless @n is 1. */
static void count_of(FILE *out, uint64_t n, const char *one, const char *many)
{
	fprintf(out, "%llu %s", (unsigned long long)n, n == 1 ? one : many);
}

void pl_offcpu_text_losses(FILE *out, const struct pl_offcpu *o)
{
	if (o->lost || o->ngaps) {
		fputs("  ", out);
		count_of(out, o->lost, "scheduler event", "scheduler events");
		fputs(" lost in ", out);
		count_of(out, o->ngaps, "gap", "gaps");
		fputs("\n", out);
	}
	if (o->dropped) {
		fputs("  ", out);
		count_of(out, o->dropped, "interval", "intervals");
		fprintf(out,
			" dropped (%.3f ms not counted): across lost events or with "
			"contradicting ends\n",
			ms(o->dropped_ns));
	}
	if (o->clipped) {
		fputs("  ", out);
		count_of(out, o->clipped, "interval", "intervals");
		fputs(" clipped at the window's edges\n", out);
	}
}

void pl_offcpu_text(FILE *out, const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
		    const struct pl_profile *p, int top, const char *b, const char *z)
{
	uint64_t off = o->blocked_ns + o->preempted_ns, all = off + o->run_ns;
	fprintf(out,
		"\n%soff-CPU%s (sched_switch, sched_waking; %zu thread%s)\n"
		"  off CPU %.1f%% of the threads' time: %.3f ms of %.3f ms (blocked %.3f ms, "
		"preempted %.3f ms); run-queue wait %.3f ms\n",
		b, z, o->nthr, o->nthr == 1 ? "" : "s", pl_offcpu_share(o), ms(off), ms(all),
		ms(o->blocked_ns), ms(o->preempted_ns), ms(o->delay_ns));
	pl_offcpu_text_losses(out, o);
	fprintf(out,
		"\n%stop off-CPU stacks%s (stack at switch-out, leaf first; blocked: S/D, "
		"preempted: R)\n",
		b, z);
	if (!o->nstk)
		fprintf(out, "  none: no thread of the target was off CPU in the window\n");
	text_stacks(out, o, nm, p, top);
	fprintf(out,
		"\n%sscheduler summary%s (per thread; delay: run-queue wait, waking or "
		"preemption to running)\n",
		b, z);
	text_threads(out, o, p, top);
	fprintf(out, "\n%srun-queue latency%s (all threads; per CPU and thread in --json)\n", b, z);
	print_hist(out, o->hist);
	const struct pl_offcpu_timeline *tl = &o->tl;
	if (!tl->nb)
		return;
	fprintf(out,
		"\n%soff-CPU timeline%s (%d ms buckets; ms running, waiting on the run "
		"queue, blocked)\n",
		b, z, (int)tl->bucket_ms);
	for (size_t i = 0; i < o->nthr; i++) {
		char label[48];
		snprintf(label, sizeof(label), "%s/%u", comm_of(p, o->thr[i].tid), o->thr[i].tid);
		const uint64_t *rows[] = { tl->run, tl->runq, tl->blocked };
		static const char *const names[] = { "run", "runq", "blocked" };
		for (size_t r = 0; r < 3; r++) {
			fprintf(out, "  %-22s %-7s", r ? "" : label, names[r]);
			for (size_t k = 0; k < tl->nb; k++)
				fprintf(out, " %.1f", ms(rows[r][i * tl->nb + k]));
			fputc('\n', out);
		}
	}
}

static json_t *u64a(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *msa(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(ms(v[i])));
	return a;
}

/* Frames of chain @ci, leaf first, as [{"function","module","kernel"}]. */
static json_t *frames_json(const struct pl_preport *r, uint32_t ci)
{
	const struct pl_chain *c = &r->chains[ci];
	json_t *a = json_array();
	for (uint32_t k = 0; k < c->n; k++) {
		const struct pl_func *f = &r->funcs[c->frames[c->n - 1 - k]];
		json_t *x = json_object();
		json_object_set_new(x, "function", pl_json_string(f->name));
		json_object_set_new(x, "module", pl_json_string(f->module));
		json_object_set_new(x, "kernel", json_boolean(f->kernel));
		json_array_append_new(a, x);
	}
	return a;
}

static json_t *thread_json(const struct pl_offcpu_thread *t, const struct pl_profile *p)
{
	uint64_t off = t->blocked_ns + t->preempted_ns;
	json_t *x = json_object();
	json_object_set_new(x, "pid", json_integer(t->pid));
	json_object_set_new(x, "tid", json_integer(t->tid));
	json_object_set_new(x, "comm", pl_json_string(comm_of(p, t->tid)));
	json_object_set_new(x, "run_ms", json_real(ms(t->run_ns)));
	json_object_set_new(x, "blocked_ms", json_real(ms(t->blocked_ns)));
	json_object_set_new(x, "preempted_ms", json_real(ms(t->preempted_ns)));
	json_object_set_new(x, "off_cpu_ms", json_real(ms(off)));
	json_object_set_new(x, "off_cpu_pct", json_real(pct(off, off + t->run_ns)));
	json_object_set_new(x, "runq_wait_ms", json_real(ms(t->delay_ns)));
	json_object_set_new(
		x, "sched_delay_mean_us",
		json_real(t->ndelays ? (double)t->delay_ns / (double)t->ndelays / 1e3 : 0.0));
	json_object_set_new(x, "sched_delay_max_us", json_real((double)t->delay_max_ns / 1e3));
	json_object_set_new(x, "sched_delays", json_integer((json_int_t)t->ndelays));
	json_object_set_new(x, "switches", json_integer((json_int_t)t->switches));
	json_object_set_new(x, "migrations", json_integer((json_int_t)t->migrations));
	json_object_set_new(x, "clipped", json_integer((json_int_t)t->clipped));
	json_object_set_new(x, "dropped", json_integer((json_int_t)t->dropped));
	json_object_set_new(x, "dropped_ms", json_real(ms(t->dropped_ns)));
	json_object_set_new(x, "runq_hist", u64a(t->hist, PL_RUNQ_BUCKETS));
	return x;
}

static json_t *stack_json(const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
			  const struct pl_profile *p, size_t k)
{
	const struct pl_offcpu_stack *s = &o->stk[k];
	json_t *x = json_object();
	json_object_set_new(x, "pid", json_integer(s->pid));
	json_object_set_new(x, "tid", json_integer(s->tid));
	json_object_set_new(x, "comm", pl_json_string(comm_of(p, s->tid)));
	json_object_set_new(x, "kind", pl_json_string(kind_name(s->kind)));
	json_object_set_new(x, "count", json_integer((json_int_t)s->count));
	json_object_set_new(x, "total_ms", json_real(ms(s->total_ns)));
	json_object_set_new(x, "max_ms", json_real(ms(s->max_ns)));
	json_object_set_new(x, "clipped", json_integer((json_int_t)s->clipped));
	json_object_set_new(x, "frames", frames_json(&nm->r, nm->stk_chain[k]));
	json_t *wa = json_array();
	for (size_t j = s->waker0; j < s->waker0 + s->nwakers; j++) {
		const struct pl_offcpu_waker *w = &o->wak[j];
		json_t *y = json_object();
		bool seen = w->tid != UINT32_MAX;
		json_object_set_new(y, "pid", seen ? json_integer(w->pid) : json_null());
		json_object_set_new(y, "tid", seen ? json_integer(w->tid) : json_null());
		json_object_set_new(y, "comm",
				    pl_json_string(seen ? waker_name(p, w) : "[no waking seen]"));
		json_object_set_new(y, "count", json_integer((json_int_t)w->count));
		json_object_set_new(y, "total_ms", json_real(ms(w->total_ns)));
		json_object_set_new(y, "frames",
				    seen ? frames_json(&nm->r, nm->wak_chain[j]) : json_array());
		json_array_append_new(wa, y);
	}
	json_object_set_new(x, "wakers", wa);
	return x;
}

json_t *pl_offcpu_json(const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
		       const struct pl_profile *p, const char *folded, const char *wall)
{
	json_t *d = json_object();
	uint64_t off = o->blocked_ns + o->preempted_ns;
	json_object_set_new(d, "window_s", json_real((double)(o->t1 - o->t0) / 1e9));
	json_object_set_new(d, "run_ms", json_real(ms(o->run_ns)));
	json_object_set_new(d, "blocked_ms", json_real(ms(o->blocked_ns)));
	json_object_set_new(d, "preempted_ms", json_real(ms(o->preempted_ns)));
	json_object_set_new(d, "off_cpu_ms", json_real(ms(off)));
	json_object_set_new(d, "off_cpu_pct", json_real(pl_offcpu_share(o)));
	json_object_set_new(d, "runq_wait_ms", json_real(ms(o->delay_ns)));
	json_object_set_new(d, "lost_events", json_integer((json_int_t)o->lost));
	json_object_set_new(d, "gaps", json_integer((json_int_t)o->ngaps));
	json_object_set_new(d, "dropped", json_integer((json_int_t)o->dropped));
	json_object_set_new(d, "dropped_ms", json_real(ms(o->dropped_ns)));
	json_object_set_new(d, "clipped", json_integer((json_int_t)o->clipped));
	json_object_set_new(
		d, "migrations_from",
		pl_json_string(o->migrate_events ? "sched_migrate_task" : "switch-in CPU changes"));
	json_t *th = json_array();
	for (size_t i = 0; i < o->nthr; i++)
		json_array_append_new(th, thread_json(&o->thr[i], p));
	json_object_set_new(d, "threads", th);
	json_t *st = json_array();
	for (size_t k = 0; k < o->nstk; k++)
		json_array_append_new(st, stack_json(o, nm, p, k));
	json_object_set_new(d, "stacks", st);
	json_t *h = json_object();
	json_t *lo = json_array();
	for (size_t k = 0; k < PL_RUNQ_BUCKETS; k++)
		json_array_append_new(lo, json_integer((json_int_t)bucket_lo(k)));
	json_object_set_new(h, "bucket_lo_us", lo);
	json_object_set_new(h, "all", u64a(o->hist, PL_RUNQ_BUCKETS));
	json_t *cpus = json_array();
	for (size_t c = 0; c < o->ncpu; c++) {
		uint64_t sum = 0;
		for (size_t k = 0; k < PL_RUNQ_BUCKETS; k++)
			sum += o->cpu_hist[c][k];
		if (!sum)
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "cpu", json_integer((json_int_t)c));
		json_object_set_new(x, "counts", u64a(o->cpu_hist[c], PL_RUNQ_BUCKETS));
		json_array_append_new(cpus, x);
	}
	json_object_set_new(h, "cpus", cpus);
	json_object_set_new(d, "runq_hist", h);
	if (o->tl.nb) {
		json_t *t = json_object();
		json_object_set_new(t, "bucket_ms", json_integer((json_int_t)o->tl.bucket_ms));
		json_object_set_new(t, "buckets", json_integer((json_int_t)o->tl.nb));
		json_t *ta = json_array();
		for (size_t i = 0; i < o->nthr; i++) {
			json_t *x = json_object();
			json_object_set_new(x, "tid", json_integer(o->thr[i].tid));
			json_object_set_new(x, "run_ms", msa(o->tl.run + i * o->tl.nb, o->tl.nb));
			json_object_set_new(x, "runq_ms", msa(o->tl.runq + i * o->tl.nb, o->tl.nb));
			json_object_set_new(x, "blocked_ms",
					    msa(o->tl.blocked + i * o->tl.nb, o->tl.nb));
			json_array_append_new(ta, x);
		}
		json_object_set_new(t, "threads", ta);
		json_object_set_new(d, "timeline", t);
	}
	json_object_set_new(d, "folded", pl_pout_folded_json(folded, "us"));
	if (wall)
		json_object_set_new(d, "wall_folded", pl_pout_folded_json(wall, "us"));
	return d;
}

int pl_offcpu_folded(const struct pl_offcpu *o, struct pl_profile *p, bool wall,
		     bool (*keep)(void *ctx, const struct pl_psample *s), void *kctx, char **buf,
		     size_t *len)
{
	*buf = NULL;
	*len = 0;
	struct pl_wall_item *it = NULL;
	size_t n = 0;
	pl_offcpu_wall(o, p, keep, kctx, &it, &n);
	struct pl_pweight *w = pl_xmalloc((n + 1) * sizeof(*w));
	FILE *mem = open_memstream(buf, len);
	if (!mem) {
		int e = -errno;
		free(w);
		free(it);
		return e;
	}
	/* pass 0: on-CPU (only for --wall), pass 1: off-CPU */
	for (int pass = wall ? 0 : 1; pass < 2; pass++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (it[i].off == (pass == 1))
				w[m++] = (struct pl_pweight){ it[i].pid, it[i].tid, it[i].stack,
							      it[i].time, it[i].us };
		struct pl_preport r;
		pl_preport_build_weighted(&r, p, w, m, NULL);
		pl_preport_write_folded_marked(&r, mem, wall && pass == 1 ? "_[o]" : NULL);
		pl_preport_free(&r);
	}
	free(w);
	free(it);
	fclose(mem);
	return 0;
}
