/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The off-CPU analysis (profile/offcpu.h) on synthetic scheduler logs with exact
 * expected values: a sleeper with known intervals at two stacks, two threads
 * ping-ponging on one CPU (each one's waker is the other), preemption and migration, a
 * gap that cuts an interval, clipping at the window's edges, the runqlat buckets, the
 * timeline buckets, the --wall weights, a log without target threads, switch-ins the
 * kernel never wrote and an exiting thread's pid of -1, wakers in interrupt context,
 * and the folded and JSON outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/offcpu.h"
#include "profile/offcpu_output.h"
#include "util/str.h"

#define US 1000ull
#define MS 1000000ull

/* A log under construction: events appended in time order. */
static void ev(struct pl_sched_log *l, uint64_t t, uint32_t cpu, enum pl_sched_kind kind,
	       enum pl_task_state st, uint32_t pid, uint32_t tid, uint32_t other, uint32_t stack)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->ev = pl_xrealloc(l->ev, l->cap * sizeof(*l->ev));
	}
	l->ev[l->n++] = (struct pl_sched_ev){ .time = t,
					      .cpu = cpu,
					      .kind = (uint8_t)kind,
					      .prev_state = (uint8_t)st,
					      .pid = pid,
					      .tid = tid,
					      .other_tid = other,
					      .target_cpu = cpu,
					      .stack = stack };
}

/* switch from @prev (pid @pid, leaving in @st at @stack) to @next on @cpu */
static void sw(struct pl_sched_log *l, uint64_t t, uint32_t cpu, uint32_t pid, uint32_t prev,
	       enum pl_task_state st, uint32_t stack, uint32_t next)
{
	ev(l, t, cpu, PL_SCHED_SWITCH, st, pid, prev, next, stack);
}

static void wake(struct pl_sched_log *l, uint64_t t, uint32_t cpu, uint32_t pid, uint32_t waker,
		 uint32_t stack, uint32_t woken)
{
	ev(l, t, cpu, PL_SCHED_WAKING, PL_TS_RUNNING, pid, waker, woken, stack);
}

static void target(struct pl_sched_log *l, uint32_t pid)
{
	l->pids = pl_xrealloc(l->pids, (l->npids + 1) * sizeof(uint32_t));
	l->pids[l->npids++] = pid;
}

static const struct pl_offcpu_stack *find_stack(const struct pl_offcpu *o, uint32_t tid,
						uint32_t stack, int kind)
{
	for (size_t k = 0; k < o->nstk; k++)
		if (o->stk[k].tid == tid && o->stk[k].stack == stack && o->stk[k].kind == kind)
			return &o->stk[k];
	return NULL;
}

/* Thread 100 sleeps 100 x 10 ms at stack 1 and 50 x 4 ms at stack 2, running 1 ms between
 * sleeps; thread 200 (another process, not a target) wakes it 50 us before each
 * switch-in from stack 7. */
static void sleeper(struct pl_sched_log *l)
{
	memset(l, 0, sizeof(*l));
	target(l, 100);
	uint64_t t = 1000 * MS;
	l->t0 = t;
	sw(l, t, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 100);
	for (int i = 0; i < 150; i++) {
		uint64_t sleep = i < 100 ? 10 * MS : 4 * MS;
		t += MS;
		sw(l, t, 0, 100, 100, PL_TS_SLEEPING, i < 100 ? 1 : 2, 0);
		wake(l, t + sleep - 50 * US, 0, 200, 200, 7, 100);
		t += sleep;
		sw(l, t, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 100);
	}
	l->t1 = t + MS;
}

static void test_sleeper_totals(void **state)
{
	(void)state;
	struct pl_sched_log l;
	sleeper(&l);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(o.nthr, 1);
	const struct pl_offcpu_thread *t = &o.thr[0];
	assert_int_equal(t->pid, 100);
	assert_int_equal(t->blocked_ns, 1200 * MS);
	assert_int_equal(t->preempted_ns, 0);
	assert_int_equal(t->run_ns, 151 * MS); /* 150 full, the last clipped at t1 */
	assert_int_equal(t->clipped, 1);
	assert_int_equal(t->switches, 150);
	assert_int_equal(t->ndelays, 150);
	assert_int_equal(t->delay_ns, 150 * 50 * US);
	assert_int_equal(t->delay_max_ns, 50 * US);
	assert_int_equal(t->hist[5], 150); /* 50 us: 32 -> 63 */
	assert_int_equal(o.hist[5], 150);
	assert_int_equal(o.ncpu, 1);
	assert_int_equal(o.cpu_hist[0][5], 150);
	assert_int_equal(o.nstk, 2);
	const struct pl_offcpu_stack *a = &o.stk[0], *b = &o.stk[1];
	assert_int_equal(a->stack, 1);
	assert_int_equal(a->count, 100);
	assert_int_equal(a->total_ns, 1000 * MS);
	assert_int_equal(a->max_ns, 10 * MS);
	assert_int_equal(b->stack, 2);
	assert_int_equal(b->count, 50);
	assert_int_equal(b->total_ns, 200 * MS);
	assert_int_equal(b->max_ns, 4 * MS);
	assert_int_equal(a->nwakers, 1);
	assert_int_equal(o.wak[a->waker0].tid, 200);
	assert_int_equal(o.wak[a->waker0].stack, 7);
	assert_int_equal(o.wak[a->waker0].count, 100);
	assert_int_equal(o.wak[a->waker0].total_ns, 1000 * MS);
	assert_int_equal(o.wak[b->waker0].count, 50);
	/* off-CPU share: 1200 of 1351 ms */
	assert_true(pl_offcpu_share(&o) > 88.82 && pl_offcpu_share(&o) < 88.83);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* Threads 11 and 12 of process 10 on CPU 0: each runs 100 us, wakes the other (11 from
 * stack 21, 12 from stack 22) 10 us before it blocks (11 at stack 31, 12 at 32). */
static void test_ping_pong(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 10);
	uint64_t t = 0;
	l.t0 = 0;
	sw(&l, t, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 11);
	uint32_t cur = 11;
	for (int i = 0; i < 20; i++) {
		uint32_t other = cur == 11 ? 12 : 11;
		t += 90 * US;
		wake(&l, t, 0, 10, cur, cur == 11 ? 21 : 22, other);
		t += 10 * US;
		sw(&l, t, 0, 10, cur, PL_TS_SLEEPING, cur == 11 ? 31 : 32, other);
		cur = other;
	}
	l.t1 = t + 50 * US;
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(o.nthr, 2);
	const struct pl_offcpu_stack *s11 = find_stack(&o, 11, 31, PL_OFF_BLOCKED);
	const struct pl_offcpu_stack *s12 = find_stack(&o, 12, 32, PL_OFF_BLOCKED);
	assert_non_null(s11);
	assert_non_null(s12);
	/* 11 blocks 10 times, each for 12's 100 us run; 12's first block is after its
	 * first run (its time before is clipped, with no stack) */
	assert_int_equal(s11->count, 10);
	assert_int_equal(s11->total_ns, 10 * 100 * US);
	assert_int_equal(s11->nwakers, 1);
	assert_int_equal(o.wak[s11->waker0].tid, 12);
	assert_int_equal(o.wak[s11->waker0].stack, 22);
	/* 12's last block is open at t1: clipped, with no waking seen */
	assert_int_equal(s12->nwakers, 2);
	assert_int_equal(o.wak[s12->waker0].tid, 11);
	assert_int_equal(o.wak[s12->waker0].stack, 21);
	assert_int_equal(o.wak[s12->waker0].count, 9);
	assert_int_equal(o.wak[s12->waker0 + 1].tid, UINT32_MAX);
	assert_int_equal(s12->clipped, 1);
	const struct pl_offcpu_thread *t11 = pl_offcpu_thread(&o, 11);
	assert_int_equal(t11->ndelays, 10);
	assert_int_equal(t11->delay_ns, 10 * 10 * US);
	assert_int_equal(t11->run_ns, 10 * 100 * US + 50 * US); /* the last run clipped */
	assert_int_equal(t11->migrations, 0);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* Thread 300 is preempted (R) on CPU 0 at 1 ms and runs again at 3 ms on CPU 1. */
static void test_preemption_migration(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 300);
	l.t0 = 0;
	l.t1 = 4 * MS;
	sw(&l, 1 * MS, 0, 300, 300, PL_TS_RUNNING, 5, 0);
	sw(&l, 3 * MS, 1, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 300);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	const struct pl_offcpu_thread *t = pl_offcpu_thread(&o, 300);
	assert_non_null(t);
	assert_int_equal(t->preempted_ns, 2 * MS);
	assert_int_equal(t->blocked_ns, 0);
	assert_int_equal(t->delay_ns, 2 * MS);
	assert_int_equal(t->hist[10], 1); /* 2000 us: 1024 -> 2047 */
	assert_int_equal(o.cpu_hist[1][10], 1);
	assert_int_equal(t->run_ns, 2 * MS); /* [0, 1] and [3, 4] ms, both clipped */
	assert_int_equal(t->clipped, 2);
	const struct pl_offcpu_stack *s = find_stack(&o, 300, 5, PL_OFF_PREEMPTED);
	assert_non_null(s);
	assert_int_equal(s->total_ns, 2 * MS);
	assert_int_equal(s->nwakers, 0);
	/* no sched_migrate_task in the log: the switch-in on another CPU is not a
	 * migration here, as there is no earlier switch-in */
	assert_int_equal(t->migrations, 0);
	pl_offcpu_free(&o);
	/* with an earlier switch-in on CPU 0 it is one */
	pl_sched_log_free(&l);
	memset(&l, 0, sizeof(l));
	target(&l, 300);
	l.t1 = 4 * MS;
	sw(&l, 0, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 300);
	sw(&l, 1 * MS, 0, 300, 300, PL_TS_RUNNING, 5, 0);
	sw(&l, 3 * MS, 1, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 300);
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(pl_offcpu_thread(&o, 300)->migrations, 1);
	pl_offcpu_free(&o);
	/* sched_migrate_task events, when there are any, are what counts */
	ev(&l, 3 * MS + 1, 1, PL_SCHED_MIGRATE, 0, 0, 0, 300, PL_SCHED_NO_STACK);
	ev(&l, 3 * MS + 2, 1, PL_SCHED_MIGRATE, 0, 0, 0, 300, PL_SCHED_NO_STACK);
	pl_offcpu_build(&o, &l, 0);
	assert_true(o.migrate_events);
	assert_int_equal(pl_offcpu_thread(&o, 300)->migrations, 2);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* A gap on CPU 0 inside a blocked interval drops it; one on CPU 1 does not. */
static void test_gap_drops(void **state)
{
	(void)state;
	for (uint32_t gcpu = 0; gcpu < 2; gcpu++) {
		struct pl_sched_log l = { 0 };
		target(&l, 50);
		l.t1 = 10 * MS;
		sw(&l, 0, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 50);
		sw(&l, 1 * MS, 0, 50, 50, PL_TS_SLEEPING, 3, 0);
		sw(&l, 5 * MS, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 50);
		l.gaps = pl_xmalloc(sizeof(*l.gaps));
		l.gaps[0] = (struct pl_sched_gap){ gcpu, 2 * MS, 3 * MS };
		l.ngaps = 1;
		l.lost = 7;
		struct pl_offcpu o;
		pl_offcpu_build(&o, &l, 0);
		const struct pl_offcpu_thread *t = pl_offcpu_thread(&o, 50);
		assert_int_equal(o.lost, 7);
		assert_int_equal(t->dropped, gcpu == 0 ? 1 : 0);
		assert_int_equal(t->dropped_ns, gcpu == 0 ? 4 * MS : 0);
		assert_int_equal(o.dropped_ns, t->dropped_ns);
		assert_int_equal(t->blocked_ns, gcpu == 0 ? 0 : 4 * MS);
		assert_int_equal(o.nstk, gcpu == 0 ? 0 : 1);
		assert_int_equal(t->run_ns, 1 * MS + 5 * MS);
		pl_offcpu_free(&o);
		pl_sched_log_free(&l);
	}
}

/* First seen switching out at 2 ms, never back: on CPU [0, 2], blocked [2, 10],
 * both clipped; a thread of another process is left out; a dead thread has nothing
 * after its last switch-out. */
static void test_window_clipping(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 60);
	l.t1 = 10 * MS;
	sw(&l, 2 * MS, 0, 60, 60, PL_TS_DISK, 4, 999);
	ev(&l, 3 * MS, 0, PL_SCHED_FORK, 0, 60, 61, 60, PL_SCHED_NO_STACK);
	sw(&l, 3 * MS, 0, 999, 999, PL_TS_SLEEPING, 8, 61);
	sw(&l, 4 * MS, 0, 60, 61, PL_TS_DEAD, 9, 0);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(o.nthr, 2);
	const struct pl_offcpu_thread *t = pl_offcpu_thread(&o, 60);
	assert_int_equal(t->run_ns, 2 * MS);
	assert_int_equal(t->blocked_ns, 8 * MS);
	assert_int_equal(t->clipped, 2);
	const struct pl_offcpu_stack *s = find_stack(&o, 60, 4, PL_OFF_BLOCKED);
	assert_int_equal(s->clipped, 1);
	assert_int_equal(s->total_ns, 8 * MS);
	assert_null(pl_offcpu_thread(&o, 999));
	const struct pl_offcpu_thread *d = pl_offcpu_thread(&o, 61);
	assert_int_equal(d->run_ns, 1 * MS);
	assert_int_equal(d->blocked_ns + d->preempted_ns, 0);
	assert_int_equal(d->clipped, 0);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* Switch-ins the kernel never wrote (a switch from a task whose sched_switch is not
 * recorded: two switch-outs in a row) drop the interval and keep its time apart: run +
 * blocked + preempted + dropped is the time the thread was seen. The last switch-out of
 * an exiting thread carries pid (u32)-1 (the kernel's -1 for a task already unhashed);
 * the thread stays a thread of its process. */
static void test_uncounted_loss(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 80);
	l.t1 = 20 * MS;
	ev(&l, 0, 0, PL_SCHED_FORK, 0, 80, 81, 80, PL_SCHED_NO_STACK);
	sw(&l, 1 * MS, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 81);
	sw(&l, 2 * MS, 0, 80, 81, PL_TS_SLEEPING, 5, 0); /* on [1, 2] */
	/* switched in again at about 6 ms: not in the log */
	sw(&l, 7 * MS, 0, 80, 81, PL_TS_SLEEPING, 5, 0); /* [2, 7] dropped */
	sw(&l, 10 * MS, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 81);
	sw(&l, 12 * MS, 0, UINT32_MAX, 81, PL_TS_DEAD, 6, 0); /* off [7, 10], on [10, 12] */
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	const struct pl_offcpu_thread *t = pl_offcpu_thread(&o, 81);
	assert_non_null(t);
	assert_int_equal(t->pid, 80);
	assert_int_equal(t->dropped, 1);
	assert_int_equal(t->dropped_ns, 5 * MS);
	assert_int_equal(t->run_ns, 3 * MS);
	assert_int_equal(t->preempted_ns, 1 * MS); /* fork to first run */
	assert_int_equal(t->blocked_ns, 3 * MS);
	assert_int_equal(t->run_ns + t->blocked_ns + t->preempted_ns + t->dropped_ns, 12 * MS);
	const struct pl_offcpu_stack *k = find_stack(&o, 81, 5, PL_OFF_BLOCKED);
	assert_int_equal(k->count, 1);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* No thread of the target in the log (a command that ended before the events were on,
 * or a -p process that never ran): an empty analysis, no undefined behaviour. */
static void test_no_target_thread(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 70);
	l.t1 = 10 * MS;
	sw(&l, 1 * MS, 0, 999, 999, PL_TS_SLEEPING, 3, 0);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 5);
	assert_int_equal(o.nthr, 0);
	assert_int_equal(o.nstk, 0);
	assert_int_equal(o.run_ns + o.blocked_ns + o.preempted_ns, 0);
	assert_true(pl_offcpu_share(&o) == 0.0);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

static void test_runq_buckets(void **state)
{
	(void)state;
	assert_int_equal(pl_runq_bucket(0), 0);
	assert_int_equal(pl_runq_bucket(1999), 0);
	assert_int_equal(pl_runq_bucket(2000), 1);
	assert_int_equal(pl_runq_bucket(3999), 1);
	assert_int_equal(pl_runq_bucket(4000), 2);
	assert_int_equal(pl_runq_bucket(1000 * US), 9);
	assert_int_equal(pl_runq_bucket(1024 * US), 10);
	assert_int_equal(pl_runq_bucket(UINT64_MAX), PL_RUNQ_BUCKETS - 1);
}

/* 1 ms buckets over [0, 4) ms: running [0, 1.5) and [3, 4), blocked [1.5, 2.5), on the run
 * queue [2.5, 3). */
static void test_timeline_buckets(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 70);
	l.t1 = 4 * MS;
	sw(&l, 1500 * US, 0, 70, 70, PL_TS_SLEEPING, 1, 0);
	wake(&l, 2500 * US, 1, 0, 0, PL_SCHED_NO_STACK, 70);
	sw(&l, 3 * MS, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 70);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 1);
	assert_int_equal(o.tl.nb, 4);
	uint64_t run[] = { MS, 500 * US, 0, MS }, blk[] = { 0, 500 * US, 500 * US, 0 },
		 rq[] = { 0, 0, 500 * US, 0 };
	for (int k = 0; k < 4; k++) {
		assert_int_equal(o.tl.run[k], run[k]);
		assert_int_equal(o.tl.blocked[k], blk[k]);
		assert_int_equal(o.tl.runq[k], rq[k]);
	}
	/* woken by the idle task (an interrupt): waker tid 0 */
	assert_int_equal(o.wak[o.stk[0].waker0].tid, 0);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* A profile with three stacks of 1, 2 and 3 user frames (unresolvable: "[unknown]") and
 * thread 400 ("t"): 2 samples at stack 1, 1 at stack 2. */
static void profile_of(struct pl_profile *p)
{
	memset(p, 0, sizeof(*p));
	pl_profile_init(p, 0, 0, NULL);
	p->ips = pl_xcalloc(6, sizeof(uint64_t));
	p->stacks = pl_xcalloc(3, sizeof(*p->stacks));
	for (uint32_t k = 0; k < 6; k++)
		p->ips[k] = 0x1000 + 16 * k;
	p->nips = p->capips = 6;
	p->stacks[0] = (struct pl_stack){ 400, 1, 0 };
	p->stacks[1] = (struct pl_stack){ 400, 2, 1 };
	p->stacks[2] = (struct pl_stack){ 400, 3, 3 };
	p->nstacks = p->capstacks = 3;
	snprintf(pl_profile_thread(p, 400, 400)->comm, 16, "t");
	p->samples = pl_xcalloc(3, sizeof(*p->samples));
	p->samples[0] = (struct pl_psample){ .time = 1 * MS, .pid = 400, .tid = 400, .stack = 1 };
	p->samples[1] = (struct pl_psample){ .time = 2 * MS, .pid = 400, .tid = 400, .stack = 1 };
	p->samples[2] = (struct pl_psample){ .time = 2 * MS, .pid = 400, .tid = 400, .stack = 2 };
	p->nsamples = p->capsamples = 3;
}

/* On CPU [0, 3) ms (clipped), blocked at stack 0 [3, 10) ms. */
static void wall_log(struct pl_sched_log *l)
{
	memset(l, 0, sizeof(*l));
	target(l, 400);
	l->t1 = 10 * MS;
	sw(l, 3 * MS, 0, 400, 400, PL_TS_SLEEPING, 0, 0);
}

static void test_wall_weights(void **state)
{
	(void)state;
	struct pl_sched_log l;
	wall_log(&l);
	struct pl_profile p;
	profile_of(&p);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	struct pl_wall_item *it;
	size_t n;
	pl_offcpu_wall(&o, &p, NULL, NULL, &it, &n);
	assert_int_equal(n, 3);
	/* 3 ms on CPU over 2:1 samples, then the 7 ms off CPU */
	assert_int_equal(it[0].stack, 1);
	assert_int_equal(it[0].us, 2000);
	assert_false(it[0].off);
	assert_int_equal(it[1].stack, 2);
	assert_int_equal(it[1].us, 1000);
	assert_int_equal(it[2].stack, 0);
	assert_int_equal(it[2].us, 7000);
	assert_true(it[2].off);
	free(it);
	/* the folded stacks: off-CPU alone, and the wall graph with its marks */
	char *buf;
	size_t len;
	assert_int_equal(pl_offcpu_folded(&o, &p, false, NULL, NULL, &buf, &len), 0);
	assert_string_equal(buf, "t;[unknown] 7000\n");
	free(buf);
	assert_int_equal(pl_offcpu_folded(&o, &p, true, NULL, NULL, &buf, &len), 0);
	/* (the unresolved frames of the two on-CPU stacks are runs of "[unknown]": one
	 * frame each, so the two stacks are one line) */
	assert_string_equal(buf, "t;[unknown] 3000\n"
				 "t;[unknown]_[o] 7000\n");
	/* the JSON member */
	struct pl_offcpu_names nm;
	pl_offcpu_names_build(&nm, &o, &p);
	json_t *j = pl_offcpu_json(&o, &nm, &p, "t;[unknown] 7000\n", buf);
	free(buf);
	assert_int_equal(json_array_size(json_object_get(j, "stacks")), 1);
	json_t *s0 = json_array_get(json_object_get(j, "stacks"), 0);
	assert_string_equal(json_string_value(json_object_get(s0, "kind")), "blocked");
	assert_string_equal(json_string_value(json_object_get(s0, "comm")), "t");
	assert_true(json_real_value(json_object_get(s0, "total_ms")) == 7.0);
	assert_int_equal(json_array_size(json_object_get(s0, "frames")), 1);
	json_t *w0 = json_array_get(json_object_get(s0, "wakers"), 0);
	assert_true(json_is_null(json_object_get(w0, "tid")));
	json_t *t0 = json_array_get(json_object_get(j, "threads"), 0);
	assert_true(json_real_value(json_object_get(t0, "run_ms")) == 3.0);
	assert_true(json_real_value(json_object_get(t0, "off_cpu_pct")) == 70.0);
	assert_int_equal(json_array_size(json_object_get(j, "wall_folded")), 2);
	json_t *f0 = json_array_get(json_object_get(j, "folded"), 0);
	assert_int_equal(json_integer_value(json_object_get(f0, "us")), 7000);
	/* OFFCPU_JSON=FILE: the member as a document, for a schema check by hand */
	if (getenv("OFFCPU_JSON"))
		json_dump_file(j, getenv("OFFCPU_JSON"), JSON_INDENT(1));
	/* the text */
	char *txt = NULL;
	size_t tlen = 0;
	FILE *m = open_memstream(&txt, &tlen);
	pl_offcpu_text(m, &o, &nm, &p, 20, "", "");
	fclose(m);
	assert_non_null(strstr(txt, "off CPU 70.0% of the threads' time: 7.000 ms of 10.000 ms"));
	assert_non_null(
		strstr(txt, "       7.000 ms       1 x  max     7.000 ms  blocked    t/400"));
	assert_non_null(strstr(txt, "no waking seen"));
	free(txt);
	json_decref(j);
	pl_offcpu_names_free(&nm);
	pl_offcpu_free(&o);
	pl_profile_free(&p);
	pl_sched_log_free(&l);
}

/* A waking from an interrupt (common_flags' hardirq or softirq bit) blames the interrupt,
 * not the task it interrupted: thread 400 sleeps at stack 0 four times, woken by a hard
 * interrupt over task 29288 ("cc1" in the report that found it), a softirq over it, task
 * 500, and a hard interrupt over the idle task; each wait lasts 1.1 ms. */
static void test_irq_wakers(void **state)
{
	(void)state;
	static const enum pl_sched_ctx ctx[4] = { PL_CTX_HARDIRQ, PL_CTX_SOFTIRQ, PL_CTX_TASK,
						  PL_CTX_HARDIRQ };
	static const uint32_t waker[4] = { 29288, 29288, 500, 0 };
	struct pl_sched_log l;
	memset(&l, 0, sizeof(l));
	target(&l, 400);
	l.t1 = 10 * MS;
	for (int i = 0; i < 4; i++) {
		uint64_t t = (uint64_t)(1 + 2 * i) * MS;
		sw(&l, t, 0, 400, 400, PL_TS_SLEEPING, 0, 0);
		wake(&l, t + MS, 0, waker[i], waker[i], ctx[i] == PL_CTX_TASK ? 2 : 1, 400);
		l.ev[l.n - 1].waker_ctx = (uint8_t)ctx[i];
		sw(&l, t + MS + 100 * US, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 400);
	}
	struct pl_profile p;
	profile_of(&p);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(o.nstk, 1);
	const struct pl_offcpu_stack *s = &o.stk[0];
	assert_int_equal(s->count, 4);
	assert_int_equal(s->nwakers, 3);
	const struct pl_offcpu_waker *w = &o.wak[s->waker0];
	/* by total: the two hard interrupts, then the softirq and task 500 (1.1 ms each) */
	assert_int_equal(w[0].ctx, PL_CTX_HARDIRQ);
	assert_int_equal(w[0].tid, 0);
	assert_int_equal(w[0].pid, 0);
	assert_int_equal(w[0].stack, 1); /* the kernel stack kept */
	assert_int_equal(w[0].count, 2);
	assert_int_equal(w[0].total_ns, 2200 * US);
	bool soft = false, task = false;
	for (int k = 1; k < 3; k++) {
		assert_int_not_equal(w[k].tid, 29288);
		assert_int_equal(w[k].count, 1);
		if (w[k].ctx == PL_CTX_SOFTIRQ) {
			soft = true;
			assert_int_equal(w[k].tid, 0);
			assert_int_equal(w[k].stack, 1);
		} else {
			task = true;
			assert_int_equal(w[k].ctx, PL_CTX_TASK);
			assert_int_equal(w[k].tid, 500);
			assert_int_equal(w[k].stack, 2);
		}
	}
	assert_true(soft && task);
	/* the outputs name the context in place of the interrupted task */
	struct pl_offcpu_names nm;
	pl_offcpu_names_build(&nm, &o, &p);
	json_t *j = pl_offcpu_json(&o, &nm, &p, "", "");
	json_t *wa = json_object_get(json_array_get(json_object_get(j, "stacks"), 0), "wakers");
	assert_int_equal(json_array_size(wa), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(wa, 0), "comm")),
			    "[hardirq]");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(wa, 0), "tid")), 0);
	assert_int_equal(json_array_size(json_object_get(json_array_get(wa, 0), "frames")), 2);
	bool jsoft = false;
	for (size_t k = 0; k < 3; k++)
		jsoft = jsoft ||
			strcmp(json_string_value(json_object_get(json_array_get(wa, k), "comm")),
			       "[softirq]") == 0;
	assert_true(jsoft);
	char *txt = NULL;
	size_t tlen = 0;
	FILE *m = open_memstream(&txt, &tlen);
	pl_offcpu_text(m, &o, &nm, &p, 20, "", "");
	fclose(m);
	assert_non_null(strstr(txt, "woken by [hardirq]/0: 2 x 2.200 ms, at "));
	assert_non_null(strstr(txt, "woken by [softirq]/0: 1 x 1.100 ms, at "));
	assert_null(strstr(txt, "/29288"));
	free(txt);
	json_decref(j);
	pl_offcpu_names_free(&nm);
	pl_offcpu_free(&o);
	pl_profile_free(&p);
	pl_sched_log_free(&l);
}

static void test_task_states(void **state)
{
	(void)state;
	assert_int_equal(pl_task_state_of(0), PL_TS_RUNNING);
	assert_int_equal(pl_task_state_of(0x100), PL_TS_RUNNING);
	assert_int_equal(pl_task_state_of(0x1), PL_TS_SLEEPING);
	assert_int_equal(pl_task_state_of(0x2), PL_TS_DISK);
	assert_int_equal(pl_task_state_of(0x80), PL_TS_IDLE);
	assert_int_equal(pl_task_state_of(0x20), PL_TS_DEAD);
	assert_int_equal(pl_task_state_letter(PL_TS_DISK), 'D');
}

/* -p of threads that never switch in the window: the one asleep at the start (S) is
 * off CPU throughout, the one runnable (R) on CPU throughout, both clipped; a thread of
 * the start list that does switch follows its events. */
static void test_threads_at_start(void **state)
{
	(void)state;
	struct pl_sched_log l;
	memset(&l, 0, sizeof(l));
	target(&l, 300);
	l.t0 = 1000 * MS;
	l.t1 = 1300 * MS;
	struct pl_sched_thread0 t0[] = { { 300, 300, PL_TS_SLEEPING },
					 { 300, 301, PL_TS_RUNNING },
					 { 300, 302, PL_TS_SLEEPING } };
	l.threads0 = pl_xmalloc(sizeof(t0));
	memcpy(l.threads0, t0, sizeof(t0));
	l.nthreads0 = 3;
	sw(&l, 1100 * MS, 1, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 302);
	sw(&l, 1150 * MS, 1, 300, 302, PL_TS_SLEEPING, 5, 0);
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	assert_int_equal(o.nthr, 3);
	const struct pl_offcpu_thread *a = pl_offcpu_thread(&o, 300);
	const struct pl_offcpu_thread *b = pl_offcpu_thread(&o, 301);
	const struct pl_offcpu_thread *c = pl_offcpu_thread(&o, 302);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(a->blocked_ns, 300 * MS);
	assert_int_equal(a->run_ns, 0);
	assert_int_equal(b->run_ns, 300 * MS);
	assert_int_equal(b->blocked_ns + b->preempted_ns, 0);
	assert_int_equal(c->run_ns, 50 * MS);
	assert_int_equal(c->blocked_ns, 250 * MS);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* An exiting thread's last switch-out: the kernel has unhashed it, so the sample's pid
 * reads -1 (perf_event_pid of a dead task) while prev_pid names the thread. The pid its
 * other events gave it still holds: the thread and its run time are kept. */
static void test_exit_pid_unknown(void **state)
{
	(void)state;
	struct pl_sched_log l = { 0 };
	target(&l, 40);
	l.t0 = 0;
	ev(&l, 0, 0, PL_SCHED_FORK, PL_TS_RUNNING, 40, 41, 40, PL_SCHED_NO_STACK);
	sw(&l, 10 * US, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 41);
	sw(&l, 110 * US, 0, 40, 41, PL_TS_SLEEPING, 5, 0);
	wake(&l, 200 * US, 0, 0, 0, PL_SCHED_NO_STACK, 41);
	sw(&l, 210 * US, 0, 0, 0, PL_TS_RUNNING, PL_SCHED_NO_STACK, 41);
	sw(&l, 260 * US, 0, UINT32_MAX, 41, PL_TS_DEAD, 6, 0);
	l.t1 = 300 * US;
	struct pl_offcpu o;
	pl_offcpu_build(&o, &l, 0);
	const struct pl_offcpu_thread *t = pl_offcpu_thread(&o, 41);
	assert_non_null(t);
	assert_int_equal(t->pid, 40);
	assert_int_equal(t->run_ns, 150 * US);
	pl_offcpu_free(&o);
	pl_sched_log_free(&l);
}

/* The losses lines: nothing when nothing was lost, dropped or clipped; "1 interval"
 * singular; the gaps apart from the dropped intervals (a drop with no gap: ends that
 * contradict each other). */
static char *losses_text(uint64_t lost, size_t ngaps, uint64_t dropped, uint64_t clipped)
{
	struct pl_offcpu o = { 0 };
	o.lost = lost;
	o.ngaps = ngaps;
	o.dropped = dropped;
	o.dropped_ns = dropped * 2 * MS;
	o.clipped = clipped;
	char *txt = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&txt, &len);
	pl_offcpu_text_losses(m, &o);
	fclose(m);
	return txt;
}

static void test_losses_text(void **state)
{
	(void)state;
	char *t = losses_text(0, 0, 0, 0);
	assert_string_equal(t, "");
	free(t);
	t = losses_text(0, 0, 0, 1);
	assert_string_equal(t, "  1 interval clipped at the window's edges\n");
	free(t);
	t = losses_text(0, 0, 1, 0);
	assert_string_equal(t, "  1 interval dropped (2.000 ms not counted): across lost events "
			       "or with contradicting ends\n");
	free(t);
	t = losses_text(7, 1, 3, 2);
	assert_string_equal(t, "  7 scheduler events lost in 1 gap\n"
			       "  3 intervals dropped (6.000 ms not counted): across lost events "
			       "or with contradicting ends\n"
			       "  2 intervals clipped at the window's edges\n");
	free(t);
	t = losses_text(1, 2, 0, 0);
	assert_string_equal(t, "  1 scheduler event lost in 2 gaps\n");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeper_totals),
		cmocka_unit_test(test_ping_pong),
		cmocka_unit_test(test_preemption_migration),
		cmocka_unit_test(test_gap_drops),
		cmocka_unit_test(test_window_clipping),
		cmocka_unit_test(test_runq_buckets),
		cmocka_unit_test(test_timeline_buckets),
		cmocka_unit_test(test_wall_weights),
		cmocka_unit_test(test_irq_wakers),
		cmocka_unit_test(test_task_states),
		cmocka_unit_test(test_threads_at_start),
		cmocka_unit_test(test_exit_pid_unknown),
		cmocka_unit_test(test_no_target_thread),
		cmocka_unit_test(test_uncounted_loss),
		cmocka_unit_test(test_losses_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
