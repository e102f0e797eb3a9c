/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Off-CPU analysis of the scheduler event log (profile/offcpu.h): one pass over the
 * events with a small state machine per thread (not seen yet, on CPU since, off CPU
 * since, gone), the aggregates keyed in open-addressing tables. */
#include "profile/offcpu.h"

#include <stdlib.h>
#include <string.h>

#include "profile/timeline.h"
#include "util/str.h"

size_t pl_runq_bucket(uint64_t ns)
{
	uint64_t us = ns / 1000;
	if (us < 2)
		return 0;
	size_t k = (size_t)(63 - __builtin_clzll(us));
	return k < PL_RUNQ_BUCKETS ? k : PL_RUNQ_BUCKETS - 1;
}

/* A map from a key of three u64s to an index (open addressing, linear probing). */
struct kmap {
	struct kent {
		uint64_t k[3];
		uint32_t v; /* index + 1, 0 = empty */
	} * e;
	size_t cap, n;
};

static uint64_t khash(const uint64_t k[3])
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 3; i++) {
		h ^= k[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xbf58476d1ce4e5b9ull;
	}
	return h ^ (h >> 31);
}

/* The slot of @k (v 0 when it is not in the map), the table grown first when needed. */
static struct kent *kmap_slot(struct kmap *m, const uint64_t k[3])
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct kent *e = pl_xcalloc(cap, sizeof(*e));
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->e[i].v)
				continue;
			size_t j = khash(m->e[i].k) & (cap - 1);
			while (e[j].v)
				j = (j + 1) & (cap - 1);
			e[j] = m->e[i];
		}
		free(m->e);
		m->e = e;
		m->cap = cap;
	}
	size_t j = khash(k) & (m->cap - 1);
	while (m->e[j].v && memcmp(m->e[j].k, k, sizeof(m->e[j].k)) != 0)
		j = (j + 1) & (m->cap - 1);
	return &m->e[j];
}

/* The index stored for @k, or UINT32_MAX. */
static uint32_t kmap_get(struct kmap *m, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t k[3] = { a, b, c };
	struct kent *e = kmap_slot(m, k);
	return e->v ? e->v - 1 : UINT32_MAX;
}

static void kmap_put(struct kmap *m, uint64_t a, uint64_t b, uint64_t c, uint32_t v)
{
	uint64_t k[3] = { a, b, c };
	struct kent *e = kmap_slot(m, k);
	if (!e->v)
		m->n++;
	memcpy(e->k, k, sizeof(k));
	e->v = v + 1;
}

enum tstate { T_NEW, T_ON, T_OFF, T_GONE };

/* What the pass keeps per thread besides its totals. */
struct tst {
	uint8_t st;	 /* enum tstate */
	uint8_t kind;	 /* T_OFF: enum pl_offcpu_kind */
	bool clip_start; /* @since is t0, not an event */
	bool have_in;	 /* @in_cpu is set */
	uint32_t cpu;	 /* T_ON: the CPU; T_OFF: the switch-out's (or FORK's) CPU */
	uint32_t in_cpu; /* the CPU of the last switch-in */
	uint32_t stack;	 /* T_OFF: the switch-out stack */
	uint64_t since;	 /* T_ON: switch-in; T_OFF: switch-out */
	uint64_t woken;	 /* T_OFF blocked, T_NEW: the WAKING's time, 0 = none yet */
	uint32_t wpid, wtid, wstack;
	uint8_t wctx; /* enum pl_sched_ctx of the WAKING */
	uint64_t wtime;
};

struct pass {
	const struct pl_sched_log *log;
	struct pl_offcpu *o;
	struct kmap pids; /* tid -> pid + 1 (as the index) */
	struct kmap thr;  /* tid -> thread index */
	struct kmap stk;  /* (tid, stack, kind) -> stack index */
	struct kmap wak;  /* (stack index, waker tid, waker stack) -> waker index */
	struct tst *ts;
	size_t capthr, capstk, capwak;
	struct pl_sched_gap *gaps; /* sorted by cpu, from */
	size_t ngaps;
	uint64_t bucket_ns;
};

static int cmp_gap(const void *x, const void *y)
{
	const struct pl_sched_gap *a = x, *b = y;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* Whether events of @cpu were lost between @a and @b (a gap (from, to) meets (a, b)). */
static bool gap_on(const struct pass *ps, uint32_t cpu, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = ps->ngaps;
	while (lo < hi) { /* the first gap of @cpu that ends after @a */
		size_t mid = lo + (hi - lo) / 2;
		const struct pl_sched_gap *g = &ps->gaps[mid];
		if (g->cpu < cpu || (g->cpu == cpu && g->to <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ps->ngaps && ps->gaps[lo].cpu == cpu && ps->gaps[lo].from < b;
}

/* The pid of thread @tid as the events tell it, or UINT32_MAX. */
static uint32_t pid_of(struct pass *ps, uint32_t tid)
{
	return kmap_get(&ps->pids, tid, 0, 0);
}

/* The thread index of target thread @tid (created on first sight), or SIZE_MAX when it
 * is the idle task, of no known process or not of the target. */
static size_t thread_of(struct pass *ps, uint32_t tid)
{
	if (tid == 0)
		return SIZE_MAX;
	uint32_t i = kmap_get(&ps->thr, tid, 0, 0);
	if (i != UINT32_MAX)
		return i;
	uint32_t pid = pid_of(ps, tid);
	if (pid == UINT32_MAX || !pl_sched_log_target(ps->log, pid))
		return SIZE_MAX;
	struct pl_offcpu *o = ps->o;
	if (o->nthr == ps->capthr) {
		size_t cap = ps->capthr;
		ps->capthr = cap ? cap * 2 : 16;
		o->thr = pl_xrealloc(o->thr, ps->capthr * sizeof(*o->thr));
		ps->ts = pl_xrealloc(ps->ts, ps->capthr * sizeof(*ps->ts));
		uint64_t **rows[] = { &o->tl.run, &o->tl.runq, &o->tl.blocked };
		for (size_t r = 0; o->tl.nb && r < 3; r++) {
			*rows[r] = pl_xrealloc(*rows[r], ps->capthr * o->tl.nb * sizeof(uint64_t));
			memset(*rows[r] + cap * o->tl.nb, 0,
			       (ps->capthr - cap) * o->tl.nb * sizeof(uint64_t));
		}
	}
	o->thr[o->nthr] = (struct pl_offcpu_thread){ .pid = pid, .tid = tid };
	ps->ts[o->nthr] = (struct tst){ .st = T_NEW };
	kmap_put(&ps->thr, tid, 0, 0, (uint32_t)o->nthr);
	return o->nthr++;
}

/* Add [@a, @b) to row @row of timeline array @arr. */
static void tl_add(struct pass *ps, uint64_t *arr, size_t row, uint64_t a, uint64_t b)
{
	struct pl_offcpu_timeline *tl = &ps->o->tl;
	if (!tl->nb || b <= a)
		return;
	uint64_t *v = arr + row * tl->nb;
	uint64_t t0 = ps->o->t0;
	while (a < b) {
		size_t k = (size_t)((a - t0) / ps->bucket_ns);
		if (k >= tl->nb - 1) {
			v[tl->nb - 1] += b - a;
			return;
		}
		uint64_t end = t0 + (uint64_t)(k + 1) * ps->bucket_ns;
		uint64_t e = end < b ? end : b;
		v[k] += e - a;
		a = e;
	}
}

/* One run-queue wait of @ns that ended on @cpu. */
static void add_wait(struct pass *ps, struct pl_offcpu_thread *t, uint32_t cpu, uint64_t ns)
{
	struct pl_offcpu *o = ps->o;
	size_t b = pl_runq_bucket(ns);
	t->delay_ns += ns;
	t->ndelays++;
	if (ns > t->delay_max_ns)
		t->delay_max_ns = ns;
	t->hist[b]++;
	o->hist[b]++;
	if (cpu >= o->ncpu) {
		size_t n = (size_t)cpu + 1;
		o->cpu_hist = pl_xrealloc(o->cpu_hist, n * sizeof(*o->cpu_hist));
		memset(o->cpu_hist + o->ncpu, 0, (n - o->ncpu) * sizeof(*o->cpu_hist));
		o->ncpu = n;
	}
	o->cpu_hist[cpu][b]++;
}

/* The off-CPU interval [@from, @to) of thread @i in state @s, ending on @cpu. */
static void off_interval(struct pass *ps, size_t i, const struct tst *s, uint64_t from, uint64_t to,
			 uint32_t cpu, bool clipped)
{
	struct pl_offcpu *o = ps->o;
	struct pl_offcpu_thread *t = &o->thr[i];
	uint64_t d = to - from;
	if (clipped)
		t->clipped++;
	if (s->kind == PL_OFF_PREEMPTED) {
		t->preempted_ns += d;
		add_wait(ps, t, cpu, d);
		tl_add(ps, o->tl.runq, i, from, to);
	} else {
		t->blocked_ns += d;
		bool woken = s->woken && s->woken >= from && s->woken <= to;
		uint64_t w = woken ? s->woken : to;
		if (woken)
			add_wait(ps, t, cpu, to - w);
		tl_add(ps, o->tl.blocked, i, from, w);
		tl_add(ps, o->tl.runq, i, w, to);
	}
	uint32_t si = kmap_get(&ps->stk, t->tid, s->stack, s->kind);
	if (si == UINT32_MAX) {
		if (o->nstk == ps->capstk) {
			ps->capstk = ps->capstk ? ps->capstk * 2 : 64;
			o->stk = pl_xrealloc(o->stk, ps->capstk * sizeof(*o->stk));
		}
		si = (uint32_t)o->nstk++;
		o->stk[si] = (struct pl_offcpu_stack){ .pid = t->pid,
						       .tid = t->tid,
						       .stack = s->stack,
						       .kind = s->kind,
						       .time = from };
		kmap_put(&ps->stk, t->tid, s->stack, s->kind, si);
	}
	struct pl_offcpu_stack *k = &o->stk[si];
	k->count++;
	k->total_ns += d;
	if (d > k->max_ns)
		k->max_ns = d;
	if (clipped)
		k->clipped++;
	if (s->kind != PL_OFF_BLOCKED)
		return;
	uint32_t wtid = s->woken ? s->wtid : UINT32_MAX;
	uint32_t wstack = s->woken ? s->wstack : PL_SCHED_NO_STACK;
	uint8_t wctx = s->woken ? s->wctx : PL_CTX_TASK;
	/* an interrupt's wakers apart from the idle task's (both have tid 0) */
	uint32_t wkey = wctx != PL_CTX_TASK ? UINT32_MAX - 1 - wctx : wtid;
	uint32_t wi = kmap_get(&ps->wak, si, wkey, wstack);
	if (wi == UINT32_MAX) {
		if (o->nwak == ps->capwak) {
			ps->capwak = ps->capwak ? ps->capwak * 2 : 64;
			o->wak = pl_xrealloc(o->wak, ps->capwak * sizeof(*o->wak));
		}
		wi = (uint32_t)o->nwak++;
		o->wak[wi] = (struct pl_offcpu_waker){ .pid = s->woken ? s->wpid : 0,
						       .tid = wtid,
						       .stack = wstack,
						       .ctx = wctx,
						       .time = s->woken ? s->wtime : from };
		kmap_put(&ps->wak, si, wkey, wstack, wi);
	}
	o->wak[wi].count++;
	o->wak[wi].total_ns += d;
}

/* The on-CPU interval [@from, @to) of thread @i. */
static void on_interval(struct pass *ps, size_t i, uint64_t from, uint64_t to, bool clipped)
{
	struct pl_offcpu_thread *t = &ps->o->thr[i];
	t->run_ns += to - from;
	if (clipped)
		t->clipped++;
	tl_add(ps, ps->o->tl.run, i, from, to);
}

/* An interval of thread @t from @from to @to dropped: its time was neither on nor off CPU
 * as far as the log tells. */
static void drop(struct pl_offcpu_thread *t, uint64_t from, uint64_t to)
{
	t->dropped++;
	t->dropped_ns += to > from ? to - from : 0;
}

static void on_switch(struct pass *ps, const struct pl_sched_ev *e, uint64_t t)
{
	size_t i = thread_of(ps, e->tid);
	if (i != SIZE_MAX) {
		struct tst *s = &ps->ts[i];
		struct pl_offcpu_thread *th = &ps->o->thr[i];
		if (s->st == T_ON || s->st == T_NEW) {
			uint64_t from = s->st == T_ON ? s->since : ps->o->t0;
			bool ok = (s->st == T_NEW || s->cpu == e->cpu) &&
				  !gap_on(ps, e->cpu, from, t);
			if (ok && (s->st == T_ON || t > from))
				on_interval(ps, i, from, t, s->st == T_NEW);
			else if (!ok)
				drop(th, from, t);
		} else if (s->st == T_OFF) {
			drop(th, s->since, t); /* its switch-in was lost */
		}
		th->switches++;
		bool dead = e->prev_state == PL_TS_DEAD;
		*s = (struct tst){ .st = dead ? T_GONE : T_OFF,
				   .kind = e->prev_state == PL_TS_RUNNING ? PL_OFF_PREEMPTED
									  : PL_OFF_BLOCKED,
				   .cpu = e->cpu,
				   .since = t,
				   .stack = e->stack,
				   .have_in = s->have_in,
				   .in_cpu = s->in_cpu };
	}
	i = thread_of(ps, e->other_tid);
	if (i == SIZE_MAX)
		return;
	struct tst *s = &ps->ts[i];
	struct pl_offcpu_thread *th = &ps->o->thr[i];
	if (s->st == T_OFF) {
		if (!gap_on(ps, s->cpu, s->since, t) && !gap_on(ps, e->cpu, s->since, t))
			off_interval(ps, i, s, s->since, t, e->cpu, s->clip_start);
		else
			drop(th, s->since, t);
	} else if (s->st == T_NEW) {
		/* off CPU since before the window, for a reason not seen */
		struct tst u = *s;
		u.kind = PL_OFF_BLOCKED;
		u.stack = PL_SCHED_NO_STACK;
		if (t == ps->o->t0)
			; /* switched in at the window's start: nothing before it */
		else if (!gap_on(ps, e->cpu, ps->o->t0, t))
			off_interval(ps, i, &u, ps->o->t0, t, e->cpu, true);
		else
			drop(th, ps->o->t0, t);
	} else if (s->st == T_ON) {
		drop(th, s->since, t); /* its switch-out was lost */
	}
	if (!ps->o->migrate_events && s->have_in && s->in_cpu != e->cpu)
		th->migrations++;
	*s = (struct tst){
		.st = T_ON, .cpu = e->cpu, .since = t, .have_in = true, .in_cpu = e->cpu
	};
}

static void on_event(struct pass *ps, const struct pl_sched_ev *e)
{
	struct pl_offcpu *o = ps->o;
	uint64_t t = e->time < o->t0 ? o->t0 : e->time > o->t1 ? o->t1 : e->time;
	size_t i;
	switch (e->kind) {
	case PL_SCHED_SWITCH:
		on_switch(ps, e, t);
		break;
	case PL_SCHED_WAKING:
		i = thread_of(ps, e->other_tid);
		if (i == SIZE_MAX)
			break;
		struct tst *s = &ps->ts[i];
		if (!s->woken &&
		    (s->st == T_NEW || (s->st == T_OFF && s->kind == PL_OFF_BLOCKED))) {
			s->woken = t;
			s->wtime = e->time;
			/* from an interrupt, the current task was only interrupted: the
			 * waker is the handler, its kernel stack kept */
			bool irq = e->waker_ctx != PL_CTX_TASK;
			s->wpid = irq ? 0 : e->pid;
			s->wtid = irq ? 0 : e->tid;
			s->wctx = e->waker_ctx;
			s->wstack = e->stack;
		}
		break;
	case PL_SCHED_MIGRATE:
		i = thread_of(ps, e->other_tid);
		if (i != SIZE_MAX)
			o->thr[i].migrations++;
		break;
	case PL_SCHED_FORK:
		i = thread_of(ps, e->tid);
		if (i != SIZE_MAX && (ps->ts[i].st == T_NEW || ps->ts[i].st == T_GONE))
			ps->ts[i] = (struct tst){ .st = T_OFF,
						  .kind = PL_OFF_PREEMPTED,
						  .cpu = e->cpu,
						  .since = t,
						  .stack = PL_SCHED_NO_STACK };
		break;
	default:
		break; /* EXIT: the last switch-out (state X or Z) ends the thread */
	}
}

/* The state a thread without events kept through the window: the one it had at the
 * start (pl_sched_log.threads0), else PL_TS_OTHER. */
static enum pl_task_state state0(const struct pass *ps, uint32_t tid)
{
	for (size_t k = 0; k < ps->log->nthreads0; k++)
		if (ps->log->threads0[k].tid == tid)
			return (enum pl_task_state)ps->log->threads0[k].state;
	return PL_TS_OTHER;
}

/* Close what is open at t1. A thread seen at the start without any event since spent
 * the window as it was then: runnable (R) with no switch in the whole window means it
 * ran throughout; any other state means blocked throughout, at a stack not seen. */
static void close_window(struct pass *ps)
{
	struct pl_offcpu *o = ps->o;
	for (size_t i = 0; i < o->nthr; i++) {
		struct tst *s = &ps->ts[i];
		if (s->st == T_NEW && o->t1 > o->t0) {
			enum pl_task_state st = state0(ps, o->thr[i].tid);
			if (st == PL_TS_RUNNING) {
				on_interval(ps, i, o->t0, o->t1, true);
			} else {
				struct tst u = *s;
				u.kind = PL_OFF_BLOCKED;
				u.stack = PL_SCHED_NO_STACK;
				off_interval(ps, i, &u, o->t0, o->t1, 0, true);
			}
			continue;
		}
		if (s->st == T_ON && s->since < o->t1) {
			if (!gap_on(ps, s->cpu, s->since, o->t1))
				on_interval(ps, i, s->since, o->t1, true);
			else
				drop(&o->thr[i], s->since, o->t1);
		} else if (s->st == T_OFF && s->since < o->t1) {
			if (!gap_on(ps, s->cpu, s->since, o->t1))
				off_interval(ps, i, s, s->since, o->t1, s->cpu, true);
			else
				drop(&o->thr[i], s->since, o->t1);
		}
	}
}

static int cmp_thr(const void *x, const void *y)
{
	const struct pl_offcpu_thread *a = x, *b = y;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_stk(const void *x, const void *y)
{
	const struct pl_offcpu_stack *a = x, *b = y;
	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

/* A waker with its owner's (sorted) stack index, for the grouping sort. */
struct wsort {
	size_t owner;
	struct pl_offcpu_waker w;
};

static int cmp_wsort(const void *x, const void *y)
{
	const struct wsort *a = x, *b = y;
	if (a->owner != b->owner)
		return a->owner < b->owner ? -1 : 1;
	if (a->w.total_ns != b->w.total_ns)
		return a->w.total_ns > b->w.total_ns ? -1 : 1;
	if (a->w.tid != b->w.tid)
		return a->w.tid < b->w.tid ? -1 : 1;
	return a->w.stack < b->w.stack ? -1 : a->w.stack > b->w.stack;
}

/* Sort the threads, the stacks and the wakers (grouped by their sorted stack). */
static void finish(struct pass *ps)
{
	struct pl_offcpu *o = ps->o;
	/* the owner of each waker, from the waker table's keys (stack index before sorting) */
	size_t *owner = pl_xcalloc(o->nwak + 1, sizeof(size_t));
	for (size_t j = 0; j < ps->wak.cap; j++)
		if (ps->wak.e[j].v)
			owner[ps->wak.e[j].v - 1] = (size_t)ps->wak.e[j].k[0];
	/* sort the stacks, remembering where each went */
	size_t *ord = pl_xcalloc(o->nstk + 1, sizeof(size_t));
	struct pl_offcpu_stack *tmp = pl_xmalloc((o->nstk + 1) * sizeof(*tmp));
	for (size_t k = 0; k < o->nstk; k++) {
		tmp[k] = o->stk[k];
		tmp[k].waker0 = k; /* the old index, carried through the sort */
	}
	qsort(tmp, o->nstk, sizeof(*tmp), cmp_stk);
	for (size_t k = 0; k < o->nstk; k++)
		ord[tmp[k].waker0] = k;
	struct wsort *ws = pl_xmalloc((o->nwak + 1) * sizeof(*ws));
	for (size_t j = 0; j < o->nwak; j++)
		ws[j] = (struct wsort){ ord[owner[j]], o->wak[j] };
	qsort(ws, o->nwak, sizeof(*ws), cmp_wsort);
	for (size_t k = 0; k < o->nstk; k++) {
		tmp[k].waker0 = 0;
		tmp[k].nwakers = 0;
	}
	for (size_t j = 0; j < o->nwak; j++) {
		o->wak[j] = ws[j].w;
		struct pl_offcpu_stack *k = &tmp[ws[j].owner];
		if (!k->nwakers)
			k->waker0 = j;
		k->nwakers++;
	}
	if (o->nstk)
		memcpy(o->stk, tmp, o->nstk * sizeof(*tmp));
	free(ws);
	free(tmp);
	free(ord);
	free(owner);
	/* the timeline rows follow their threads */
	size_t *tord = pl_xcalloc(o->nthr + 1, sizeof(size_t));
	struct pl_offcpu_thread *t2 = pl_xmalloc((o->nthr + 1) * sizeof(*t2));
	if (o->nthr) {
		memcpy(t2, o->thr, o->nthr * sizeof(*t2));
		qsort(t2, o->nthr, sizeof(*t2), cmp_thr);
	}
	for (size_t k = 0; k < o->nthr; k++)
		tord[kmap_get(&ps->thr, t2[k].tid, 0, 0)] = k;
	if (o->nthr)
		memcpy(o->thr, t2, o->nthr * sizeof(*t2));
	free(t2);
	if (o->tl.nb) {
		uint64_t **rows[] = { &o->tl.run, &o->tl.runq, &o->tl.blocked };
		for (size_t r = 0; r < 3; r++) {
			uint64_t *n = pl_xcalloc(o->nthr * o->tl.nb + 1, sizeof(uint64_t));
			for (size_t k = 0; k < o->nthr; k++)
				memcpy(n + tord[k] * o->tl.nb, *rows[r] + k * o->tl.nb,
				       o->tl.nb * sizeof(uint64_t));
			free(*rows[r]);
			*rows[r] = n;
		}
	}
	free(tord);
	for (size_t k = 0; k < o->nthr; k++) {
		const struct pl_offcpu_thread *t = &o->thr[k];
		o->run_ns += t->run_ns;
		o->blocked_ns += t->blocked_ns;
		o->preempted_ns += t->preempted_ns;
		o->delay_ns += t->delay_ns;
		o->clipped += t->clipped;
		o->dropped += t->dropped;
		o->dropped_ns += t->dropped_ns;
	}
}

void pl_offcpu_build(struct pl_offcpu *o, const struct pl_sched_log *log, int timeline_ms)
{
	memset(o, 0, sizeof(*o));
	o->t0 = log->t0;
	o->t1 = log->t1 > log->t0 ? log->t1 : log->t0;
	o->lost = log->lost;
	o->ngaps = log->ngaps;
	struct pass ps = { .log = log, .o = o };
	ps.ngaps = log->ngaps;
	ps.gaps = pl_xmalloc((log->ngaps + 1) * sizeof(*ps.gaps));
	if (log->ngaps)
		memcpy(ps.gaps, log->gaps, log->ngaps * sizeof(*ps.gaps));
	qsort(ps.gaps, ps.ngaps, sizeof(*ps.gaps), cmp_gap);
	/* tid -> pid from every event that names both; whether migrations are traced. A
	 * thread's last switch-out can carry pid (u32)-1: the kernel writes -1 for a task
	 * already unhashed (perf_event_pid() of a reaped thread), which must not replace
	 * the pid its other events gave (the whole thread would be left out). */
	for (size_t k = 0; k < log->n; k++) {
		const struct pl_sched_ev *e = &log->ev[k];
		if (e->kind == PL_SCHED_MIGRATE)
			o->migrate_events = true;
		else if (e->tid && e->pid != UINT32_MAX)
			kmap_put(&ps.pids, e->tid, 0, 0, e->pid);
	}
	/* -p: the threads that were there at the start, so one without events shows too */
	for (size_t k = 0; k < log->nthreads0; k++) {
		const struct pl_sched_thread0 *t0 = &log->threads0[k];
		if (pid_of(&ps, t0->tid) == UINT32_MAX)
			kmap_put(&ps.pids, t0->tid, 0, 0, t0->pid);
	}
	if (timeline_ms > 0) {
		ps.bucket_ns = (uint64_t)timeline_ms * 1000000u;
		uint64_t nb = (o->t1 - o->t0 + ps.bucket_ns - 1) / ps.bucket_ns;
		o->tl.nb = nb < 1 ? 1 : nb > PL_TIMELINE_MAX_BUCKETS ? PL_TIMELINE_MAX_BUCKETS : nb;
		o->tl.bucket_ms = timeline_ms;
	}
	for (size_t k = 0; k < log->nthreads0; k++)
		thread_of(&ps, log->threads0[k].tid);
	for (size_t k = 0; k < log->n; k++)
		on_event(&ps, &log->ev[k]);
	close_window(&ps);
	finish(&ps);
	free(ps.gaps);
	free(ps.ts);
	free(ps.pids.e);
	free(ps.thr.e);
	free(ps.stk.e);
	free(ps.wak.e);
}

void pl_offcpu_free(struct pl_offcpu *o)
{
	if (!o)
		return;
	free(o->thr);
	free(o->stk);
	free(o->wak);
	free(o->cpu_hist);
	free(o->tl.run);
	free(o->tl.runq);
	free(o->tl.blocked);
	memset(o, 0, sizeof(*o));
}

const struct pl_offcpu_thread *pl_offcpu_thread(const struct pl_offcpu *o, uint32_t tid)
{
	for (size_t i = 0; i < o->nthr; i++)
		if (o->thr[i].tid == tid)
			return &o->thr[i];
	return NULL;
}

double pl_offcpu_share(const struct pl_offcpu *o)
{
	uint64_t off = o->blocked_ns + o->preempted_ns, all = off + o->run_ns;
	return all ? 100.0 * (double)off / (double)all : 0.0;
}

/* (tid, stack) and its sample count, for the on-CPU half of the wall graph. */
struct tsc {
	uint32_t pid, tid, stack;
	uint64_t time, n;
};

static int cmp_tsc(const void *x, const void *y)
{
	const struct tsc *a = x, *b = y;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->stack < b->stack ? -1 : a->stack > b->stack;
}

void pl_offcpu_wall(const struct pl_offcpu *o, const struct pl_profile *p,
		    bool (*keep)(void *ctx, const struct pl_psample *s), void *kctx,
		    struct pl_wall_item **items, size_t *n)
{
	struct tsc *c = pl_xmalloc((p->nsamples + 1) * sizeof(*c));
	size_t nc = 0;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pl_psample *s = &p->samples[i];
		if (!keep || keep(kctx, s))
			c[nc++] = (struct tsc){ s->pid, s->tid, s->stack, s->time, 1 };
	}
	qsort(c, nc, sizeof(*c), cmp_tsc);
	size_t w = 0;
	for (size_t i = 0; i < nc; i++) {
		if (w && c[w - 1].tid == c[i].tid && c[w - 1].stack == c[i].stack)
			c[w - 1].n++;
		else
			c[w++] = c[i];
	}
	nc = w;
	struct pl_wall_item *it = pl_xmalloc((nc + o->nstk + 1) * sizeof(*it));
	size_t m = 0;
	for (size_t i = 0; i < nc;) {
		size_t j = i;
		uint64_t total = 0;
		while (j < nc && c[j].tid == c[i].tid)
			total += c[j++].n;
		const struct pl_offcpu_thread *t = pl_offcpu_thread(o, c[i].tid);
		uint64_t run = t ? t->run_ns : o->t1 - o->t0;
		for (; i < j; i++) {
			/* run * n / total, in us, to the nearest */
			unsigned __int128 num = (unsigned __int128)run * c[i].n;
			unsigned __int128 den = (unsigned __int128)total * 1000u;
			uint64_t us = (uint64_t)((num + den / 2) / den);
			if (us)
				it[m++] = (struct pl_wall_item){ c[i].pid,  c[i].tid, c[i].stack,
								 c[i].time, us,	      false };
		}
	}
	for (size_t k = 0; k < o->nstk; k++) {
		const struct pl_offcpu_stack *s = &o->stk[k];
		uint64_t us = (s->total_ns + 500) / 1000;
		if (us)
			it[m++] = (struct pl_wall_item){
				s->pid, s->tid, s->stack, s->time, us, true
			};
	}
	free(c);
	*items = it;
	*n = m;
}
