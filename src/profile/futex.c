/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `profile --locks`, the analysing half: futex tracepoint records decoded into waits
 * (which operations wait, their fields from the format file), the wait log with its loss
 * gaps, and the analysis pairing enters with exits per thread into waits by call site, by
 * lock address and by thread. Pure: tested from synthetic logs (tests/profile/test_futex.c);
 * the collector is profile/futex_collect.c. */
#include "profile/futex.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13 /* Linux 5.14 */
#endif
/* FUTEX_CMD_MASK of include/uapi/linux/futex.h */
#define CMD_MASK ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)

enum pl_futex_class pl_futex_op_class(uint64_t op)
{
	switch ((int)(op & (uint64_t)(unsigned)CMD_MASK)) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_WAIT_REQUEUE_PI:
		return PL_FUTEX_WAIT;
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
	case FUTEX_WAKE_OP:
	case FUTEX_UNLOCK_PI:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		return PL_FUTEX_WAKE;
	default:
		return PL_FUTEX_OTHER;
	}
}

const char *pl_futex_op_name(uint64_t op)
{
	static const char *const names[] = {
		"FUTEX_WAIT",		"FUTEX_WAKE",	     "FUTEX_FD",
		"FUTEX_REQUEUE",	"FUTEX_CMP_REQUEUE", "FUTEX_WAKE_OP",
		"FUTEX_LOCK_PI",	"FUTEX_UNLOCK_PI",   "FUTEX_TRYLOCK_PI",
		"FUTEX_WAIT_BITSET",	"FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI",
		"FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
	};
	uint64_t c = op & (uint64_t)(unsigned)CMD_MASK;
	return c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* Field @fl of @raw (@size bytes) as an unsigned little-endian value, sign-extended when
 * @sign. Returns 0 or -EINVAL (absent, past the record, or wider than 8 bytes). */
static int field(const uint8_t *raw, uint32_t size, struct pl_futex_field fl, bool sign,
		 uint64_t *v)
{
	*v = 0;
	if (fl.off < 0 || fl.size <= 0 || fl.size > 8 ||
	    (uint64_t)fl.off + (uint64_t)fl.size > size)
		return -EINVAL;
	uint64_t x = 0;
	for (int i = fl.size; i-- > 0;)
		x = x << 8 | raw[fl.off + i];
	if (sign && fl.size < 8 && (x >> (fl.size * 8 - 1)) & 1)
		x |= ~(uint64_t)0 << (fl.size * 8);
	*v = x;
	return 0;
}

int pl_futex_decode(const struct pl_futex_fmt *f, enum pl_futex_call call, bool exit,
		    const uint8_t *raw, uint32_t size, struct pl_futex_ev *e)
{
	e->exit = exit;
	e->cls = PL_FUTEX_OTHER;
	e->cmd = 0;
	e->uaddr = 0;
	e->val = 0;
	e->join = false;
	e->ret = 0;
	if ((unsigned)call >= PL_FUTEX_NCALLS || (!raw && size))
		return -EINVAL;
	uint64_t v;
	if (exit) {
		if (field(raw, size, f->ret, true, &v) < 0)
			return -EINVAL;
		e->ret = (int64_t)v;
		return 0;
	}
	if (call != PL_FUTEX_CALL_WAITV) {
		if (field(raw, size, f->uaddr[call], false, &v) < 0)
			return -EINVAL;
		e->uaddr = v;
	}
	switch (call) {
	case PL_FUTEX_CALL_FUTEX:
		if (field(raw, size, f->op[call], false, &v) < 0) {
			e->uaddr = 0;
			return -EINVAL;
		}
		e->cls = (uint8_t)pl_futex_op_class(v);
		e->cmd = (uint16_t)(v & (uint64_t)(unsigned)CMD_MASK & 0xffff);
		/* the expected value; absent from an older format: no join is seen */
		e->val = field(raw, size, f->val, false, &v) == 0 ? (uint32_t)v : 0;
		break;
	case PL_FUTEX_CALL_WAKE:
		e->cls = PL_FUTEX_WAKE;
		break;
	default:
		e->cls = PL_FUTEX_WAIT;
		break;
	}
	return 0;
}

/* ---- the log ---- */

void pl_futex_log_add(struct pl_futex_log *log, const struct pl_futex_ev *e)
{
	if (log->n == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 4096;
		log->ev = pl_xrealloc(log->ev, log->cap * sizeof(*log->ev));
	}
	log->ev[log->n++] = *e;
}

void pl_futex_log_gap(struct pl_futex_log *log, uint64_t from, uint64_t to)
{
	if (log->ngaps == log->capgaps) {
		log->capgaps = log->capgaps ? log->capgaps * 2 : 64;
		log->gaps = pl_xrealloc(log->gaps, log->capgaps * sizeof(*log->gaps));
	}
	log->gaps[log->ngaps++] = (struct pl_futex_gap){ from, to };
}

void pl_futex_log_free(struct pl_futex_log *log)
{
	if (!log)
		return;
	free(log->ev);
	free(log->gaps);
	memset(log, 0, sizeof(*log));
}

/* ---- pairing ---- */

static int cmp_ev(const void *x, const void *y)
{
	const struct pl_futex_ev *a = x, *b = y;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return (int)a->exit - (int)b->exit; /* an enter before an exit at the same time */
}

static int cmp_gap(const void *x, const void *y)
{
	const struct pl_futex_gap *a = x, *b = y;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* The gaps sorted by start with the running maximum of their ends: whether any gap
 * touches [a, b] is one binary search. */
struct gapidx {
	const struct pl_futex_gap *g;
	uint64_t *maxto;
	size_t n;
};

static bool gap_touches(const struct gapidx *gi, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = gi->n; /* first gap with from > b */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gi->g[mid].from <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && gi->maxto[lo - 1] >= a;
}

/* One wait as paired: what the rows are summed from. */
struct wait {
	uint32_t pid, tid, stack;
	uint64_t uaddr, time, dur;
	int64_t ret;
};

/* A thread's state: its pending enter (an index into the log, or SIZE_MAX) and whether
 * any event of it was seen. */
struct pend {
	uint32_t tid;
	bool used, seen;
	size_t enter;
};

static void stat_add(struct pl_futex_stat *st, const struct wait *w)
{
	int64_t r = w->ret;
	if (r == -EAGAIN) {
		st->retries++;
		return;
	}
	/* -ERESTARTSYS, -ERESTARTNOINTR, -ERESTARTNOHAND, -ERESTART_RESTARTBLOCK
	 * (include/linux/errno.h): interrupted by a signal, as EINTR */
	bool intr = r == -EINTR || r == -512 || r == -513 || r == -514 || r == -516;
	if (r < 0 && r != -ETIMEDOUT && !intr) {
		st->errors++;
		return;
	}
	st->waits++;
	st->total_ns += w->dur;
	if (w->dur > st->max_ns)
		st->max_ns = w->dur;
	st->timeouts += r == -ETIMEDOUT;
	st->eintr += intr;
}

enum key { BY_STACK, BY_LOCK, BY_THREAD };

static enum key sort_key;

static int cmp_wait(const void *x, const void *y)
{
	const struct wait *a = x, *b = y;
	uint64_t ka[2], kb[2];
	switch (sort_key) {
	case BY_STACK:
		ka[0] = a->pid, ka[1] = a->stack, kb[0] = b->pid, kb[1] = b->stack;
		break;
	case BY_LOCK:
		ka[0] = a->pid, ka[1] = a->uaddr, kb[0] = b->pid, kb[1] = b->uaddr;
		break;
	default:
		ka[0] = a->pid, ka[1] = a->tid, kb[0] = b->pid, kb[1] = b->tid;
		break;
	}
	for (int i = 0; i < 2; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return a->time < b->time ? -1 : a->time > b->time;
}

static int cmp_row(const void *x, const void *y)
{
	const struct pl_futex_row *a = x, *b = y;
	if (a->st.total_ns != b->st.total_ns)
		return a->st.total_ns > b->st.total_ns ? -1 : 1;
	if (a->st.waits != b->st.waits)
		return a->st.waits > b->st.waits ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->uaddr < b->uaddr ? -1 : a->uaddr > b->uaddr;
}

static bool same_key(const struct wait *a, const struct wait *b, enum key k)
{
	if (a->pid != b->pid)
		return false;
	return k == BY_STACK  ? a->stack == b->stack
	       : k == BY_LOCK ? a->uaddr == b->uaddr
			      : a->tid == b->tid;
}

/* Rows of @w (@n waits) grouped by @k, sorted by total. */
static struct pl_futex_row *group(struct wait *w, size_t n, enum key k, size_t *nrows)
{
	sort_key = k;
	if (n)
		qsort(w, n, sizeof(*w), cmp_wait);
	struct pl_futex_row *rows = pl_xcalloc(n + 1, sizeof(*rows));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!i || !same_key(&w[i - 1], &w[i], k)) {
			struct pl_futex_row *r = &rows[m++];
			r->pid = w[i].pid;
			r->tid = k == BY_THREAD ? w[i].tid : 0;
			r->stack = k == BY_STACK ? w[i].stack : PL_FUTEX_NO_STACK;
			r->uaddr = k == BY_LOCK ? w[i].uaddr : 0;
			r->time = w[i].time;
		}
		stat_add(&rows[m - 1].st, &w[i]);
	}
	if (m)
		qsort(rows, m, sizeof(*rows), cmp_row);
	*nrows = m;
	return rows;
}

static int cmp_pair(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

void pl_futex_mark_joins(struct pl_futex_log *log, const uint32_t *tids, size_t ntids)
{
	uint32_t *v = pl_xmalloc((ntids + 1) * 2 * sizeof(uint32_t));
	if (ntids)
		memcpy(v, tids, ntids * 2 * sizeof(uint32_t));
	qsort(v, ntids, 2 * sizeof(uint32_t), cmp_pair);
	for (size_t i = 0; i < log->n; i++) {
		struct pl_futex_ev *e = &log->ev[i];
		/* FUTEX_WAIT (0) and FUTEX_WAIT_BITSET (9), futex(2) only */
		e->join = false;
		if (e->exit || e->cls != PL_FUTEX_WAIT || (e->cmd != 0 && e->cmd != 9) ||
		    !e->uaddr || !e->val || e->val == e->tid)
			continue;
		uint32_t key[2] = { e->pid, e->val };
		e->join = ntids && bsearch(key, v, ntids, 2 * sizeof(uint32_t), cmp_pair);
	}
	free(v);
}

void pl_futex_analyze(struct pl_futex_log *log, struct pl_futex_result *out)
{
	memset(out, 0, sizeof(*out));
	out->lost = log->lost;
	if (log->n)
		qsort(log->ev, log->n, sizeof(*log->ev), cmp_ev);
	if (log->ngaps)
		qsort(log->gaps, log->ngaps, sizeof(*log->gaps), cmp_gap);
	struct gapidx gi = { log->gaps, pl_xcalloc(log->ngaps + 1, sizeof(uint64_t)), log->ngaps };
	for (size_t i = 0; i < log->ngaps; i++)
		gi.maxto[i] =
			i && gi.maxto[i - 1] > log->gaps[i].to ? gi.maxto[i - 1] : log->gaps[i].to;
	size_t cap = 1024;
	while (cap < log->n / 2 + 16 && cap < (1u << 24))
		cap *= 2;
	struct pend *tab = pl_xcalloc(cap, sizeof(*tab));
	size_t used = 0;
	struct wait *w = pl_xmalloc((log->n / 2 + 1) * sizeof(*w));
	size_t nw = 0;
	for (size_t i = 0; i < log->n; i++) {
		const struct pl_futex_ev *e = &log->ev[i];
		size_t j = (e->tid * 2654435761u) & (cap - 1);
		while (tab[j].used && tab[j].tid != e->tid)
			j = (j + 1) & (cap - 1);
		if (!tab[j].used) {
			if ((used + 1) * 2 > cap) { /* keep the table at most half full */
				size_t ncap = cap * 2;
				struct pend *nt = pl_xcalloc(ncap, sizeof(*nt));
				for (size_t k = 0; k < cap; k++) {
					if (!tab[k].used)
						continue;
					size_t q = (tab[k].tid * 2654435761u) & (ncap - 1);
					while (nt[q].used)
						q = (q + 1) & (ncap - 1);
					nt[q] = tab[k];
				}
				free(tab);
				tab = nt;
				cap = ncap;
				j = (e->tid * 2654435761u) & (cap - 1);
				while (tab[j].used)
					j = (j + 1) & (cap - 1);
			}
			tab[j] = (struct pend){ e->tid, true, false, SIZE_MAX };
			used++;
		}
		struct pend *p = &tab[j];
		if (!e->exit) {
			if (e->cls == PL_FUTEX_WAKE)
				out->wakes++;
			else if (e->cls == PL_FUTEX_OTHER)
				out->other++;
			if (p->enter != SIZE_MAX && log->ev[p->enter].cls == PL_FUTEX_WAIT)
				out->dropped++; /* its exit is missing */
			p->enter = i;
			p->seen = true;
			continue;
		}
		size_t en = p->enter;
		bool seen = p->seen;
		p->enter = SIZE_MAX;
		p->seen = true;
		if (en == SIZE_MAX) {
			/* an exit without its enter: the enter was lost, or came before the
			 * recording (no loss before this exit, and the thread's first event) */
			if (!seen && !gap_touches(&gi, 0, e->time))
				out->open_start++;
			else
				out->dropped++;
			continue;
		}
		const struct pl_futex_ev *b = &log->ev[en];
		if (b->cls != PL_FUTEX_WAIT)
			continue;
		if (gap_touches(&gi, b->time, e->time)) {
			out->dropped++; /* events of this thread may be missing in between */
			continue;
		}
		if (b->join) {
			/* waiting for a thread to exit: apart from the lock contention */
			stat_add(&out->joins,
				 &(struct wait){ .dur = e->time - b->time, .ret = e->ret });
			continue;
		}
		w[nw++] = (struct wait){ b->pid,   b->tid,  b->stack,
					 b->uaddr, b->time, e->time - b->time,
					 e->ret };
	}
	for (size_t k = 0; k < cap; k++) {
		if (!tab[k].used || tab[k].enter == SIZE_MAX)
			continue;
		const struct pl_futex_ev *b = &log->ev[tab[k].enter];
		if (b->cls != PL_FUTEX_WAIT)
			continue;
		if (gap_touches(&gi, b->time, UINT64_MAX))
			out->dropped++; /* its exit may have been lost */
		else
			out->open_end++;
	}
	for (size_t i = 0; i < nw; i++)
		stat_add(&out->all, &w[i]);
	out->stacks = group(w, nw, BY_STACK, &out->nstacks);
	out->locks = group(w, nw, BY_LOCK, &out->nlocks);
	out->threads = group(w, nw, BY_THREAD, &out->nthreads);
	free(w);
	free(tab);
	free(gi.maxto);
}

void pl_futex_result_free(struct pl_futex_result *r)
{
	if (!r)
		return;
	free(r->stacks);
	free(r->locks);
	free(r->threads);
	memset(r, 0, sizeof(*r));
}
