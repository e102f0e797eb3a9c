/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of --locks without a kernel (profile/futex.h): the futex op decoding, the
 * raw tracepoint decoding with its bounds, and the pairing and sums from synthetic
 * events with exact values, including the lost-event rule (a wait cut by a loss is
 * dropped and counted, never invented). */
#include <errno.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profile/futex.h"

static void test_op_class(void **state)
{
	(void)state;
	assert_int_equal(pl_futex_op_class(FUTEX_WAIT), PL_FUTEX_WAIT);
	assert_int_equal(pl_futex_op_class(FUTEX_WAIT | FUTEX_PRIVATE_FLAG), PL_FUTEX_WAIT);
	assert_int_equal(
		pl_futex_op_class(FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME),
		PL_FUTEX_WAIT);
	assert_int_equal(pl_futex_op_class(FUTEX_LOCK_PI), PL_FUTEX_WAIT);
	assert_int_equal(pl_futex_op_class(13 /* FUTEX_LOCK_PI2 */), PL_FUTEX_WAIT);
	assert_int_equal(pl_futex_op_class(FUTEX_WAIT_REQUEUE_PI | FUTEX_PRIVATE_FLAG),
			 PL_FUTEX_WAIT);
	assert_int_equal(pl_futex_op_class(FUTEX_WAKE | FUTEX_PRIVATE_FLAG), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(FUTEX_WAKE_BITSET), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(FUTEX_WAKE_OP), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(FUTEX_UNLOCK_PI), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(FUTEX_CMP_REQUEUE), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(FUTEX_TRYLOCK_PI), PL_FUTEX_OTHER);
	assert_int_equal(pl_futex_op_class(FUTEX_FD), PL_FUTEX_OTHER);
	assert_int_equal(pl_futex_op_class(77), PL_FUTEX_OTHER);
	/* the kernel takes op as an int: the upper half of the 8-byte field is not the op */
	assert_int_equal(pl_futex_op_class(0x100000000ull | FUTEX_WAKE), PL_FUTEX_WAKE);
	assert_int_equal(pl_futex_op_class(0xfffffe00ull), PL_FUTEX_OTHER);
	assert_string_equal(pl_futex_op_name(FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG),
			    "FUTEX_WAIT_BITSET");
	assert_string_equal(pl_futex_op_name(13), "FUTEX_LOCK_PI2");
	assert_string_equal(pl_futex_op_name(99), "?");
}

/* The layout of this kernel's sys_enter_futex / sys_exit_futex format files. */
static struct pl_futex_fmt fmt(void)
{
	struct pl_futex_fmt f;
	for (int c = 0; c < PL_FUTEX_NCALLS; c++) {
		f.uaddr[c] = (struct pl_futex_field){ 16, 8 };
		f.op[c] = (struct pl_futex_field){ -1, -1 };
	}
	f.op[PL_FUTEX_CALL_FUTEX] = (struct pl_futex_field){ 24, 8 };
	f.ret = (struct pl_futex_field){ 16, 8 };
	f.val = (struct pl_futex_field){ -1, -1 };
	return f;
}

static void put(uint8_t *raw, int off, uint64_t v, int size)
{
	for (int i = 0; i < size; i++)
		raw[off + i] = (uint8_t)(v >> (8 * i));
}

static void test_decode(void **state)
{
	(void)state;
	struct pl_futex_fmt f = fmt();
	uint8_t raw[64] = { 0 };
	put(raw, 16, 0x5566294ab100ull, 8);
	put(raw, 24, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 8);
	struct pl_futex_ev e;
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, false, raw, 64, &e), 0);
	assert_int_equal(e.cls, PL_FUTEX_WAIT);
	assert_int_equal(e.cmd, FUTEX_WAIT_BITSET);
	assert_true(e.uaddr == 0x5566294ab100ull);
	assert_false(e.exit);
	put(raw, 24, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 8);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, false, raw, 64, &e), 0);
	assert_int_equal(e.cls, PL_FUTEX_WAKE);
	/* the op past the record: malformed, nothing decoded */
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, false, raw, 30, &e), -EINVAL);
	assert_true(e.uaddr == 0 && e.cls == PL_FUTEX_OTHER);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, false, NULL, 0, &e), -EINVAL);
	/* exits: ret sign-extended from its size */
	put(raw, 16, (uint64_t)-EAGAIN, 8);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, true, raw, 24, &e), 0);
	assert_true(e.exit);
	assert_int_equal(e.ret, -EAGAIN);
	f.ret.size = 4;
	put(raw, 16, (uint32_t)-ETIMEDOUT, 4);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, true, raw, 24, &e), 0);
	assert_int_equal(e.ret, -ETIMEDOUT);
	f.ret.size = 9; /* wider than 8 bytes: malformed */
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, true, raw, 64, &e), -EINVAL);
	f.ret = (struct pl_futex_field){ -1, -1 };
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, true, raw, 64, &e), -EINVAL);
	/* futex_waitv: a wait without a uaddr; futex_wake: a wake */
	f = fmt();
	f.uaddr[PL_FUTEX_CALL_WAITV] = (struct pl_futex_field){ -1, -1 };
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_WAITV, false, raw, 8, &e), 0);
	assert_int_equal(e.cls, PL_FUTEX_WAIT);
	assert_true(e.uaddr == 0);
	put(raw, 16, 0x1000, 8);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_WAKE, false, raw, 24, &e), 0);
	assert_int_equal(e.cls, PL_FUTEX_WAKE);
	assert_true(e.uaddr == 0x1000);
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_NCALLS, false, raw, 24, &e), -EINVAL);
}

/* Events of pid 100. */
static void enter(struct pl_futex_log *l, uint64_t t, uint32_t tid, uint8_t cls, uint64_t uaddr,
		  uint32_t stack)
{
	struct pl_futex_ev e = {
		.time = t, .pid = 100, .tid = tid, .cls = cls, .uaddr = uaddr, .stack = stack
	};
	pl_futex_log_add(l, &e);
}

static void leave(struct pl_futex_log *l, uint64_t t, uint32_t tid, int64_t ret)
{
	struct pl_futex_ev e = { .time = t, .pid = 100, .tid = tid, .exit = true, .ret = ret };
	pl_futex_log_add(l, &e);
}

static const struct pl_futex_row *row_of(const struct pl_futex_row *v, size_t n, uint32_t tid,
					 uint32_t stack, uint64_t uaddr)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid && v[i].stack == stack && v[i].uaddr == uaddr)
			return &v[i];
	return NULL;
}

static void test_pairing(void **state)
{
	(void)state;
	struct pl_futex_log l = { 0 };
	/* out of time order, as two rings deliver them */
	enter(&l, 1000, 11, PL_FUTEX_WAIT, 0xa0, 1);
	enter(&l, 1500, 12, PL_FUTEX_WAIT, 0xa0, 1);
	leave(&l, 5000, 12, 0); /* 12: 3500 ns */
	leave(&l, 3000, 11, 0); /* 11: 2000 ns */
	enter(&l, 6000, 11, PL_FUTEX_WAIT, 0xb0, 2);
	leave(&l, 6100, 11, -EAGAIN); /* a retry: no time */
	enter(&l, 7000, 11, PL_FUTEX_WAIT, 0xb0, 2);
	leave(&l, 17000, 11, -ETIMEDOUT); /* 10000 ns, timed out */
	enter(&l, 18000, 12, PL_FUTEX_WAIT, 0xb0, 2);
	leave(&l, 18500, 12, -EINTR); /* 500 ns, interrupted */
	enter(&l, 19000, 12, PL_FUTEX_WAIT, 0xb0, 2);
	leave(&l, 19100, 12, -EFAULT); /* an error: no time */
	enter(&l, 20000, 11, PL_FUTEX_WAKE, 0xa0, PL_FUTEX_NO_STACK);
	leave(&l, 20100, 11, 1);
	enter(&l, 21000, 11, PL_FUTEX_OTHER, 0xa0, PL_FUTEX_NO_STACK);
	leave(&l, 21100, 11, 0);
	struct pl_futex_result r;
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.all.waits, 4);
	assert_int_equal(r.all.total_ns, 2000 + 3500 + 10000 + 500);
	assert_int_equal(r.all.max_ns, 10000);
	assert_int_equal(r.all.retries, 1);
	assert_int_equal(r.all.timeouts, 1);
	assert_int_equal(r.all.eintr, 1);
	assert_int_equal(r.all.errors, 1);
	assert_int_equal(r.wakes, 1);
	assert_int_equal(r.other, 1);
	assert_int_equal(r.dropped + r.open_start + r.open_end + r.lost, 0);
	/* per stack, sorted by total */
	assert_int_equal(r.nstacks, 2);
	assert_int_equal(r.stacks[0].stack, 2);
	assert_int_equal(r.stacks[0].st.waits, 2);
	assert_int_equal(r.stacks[0].st.total_ns, 10500);
	assert_int_equal(r.stacks[0].st.retries, 1);
	assert_int_equal(r.stacks[0].st.errors, 1);
	assert_int_equal(r.stacks[1].stack, 1);
	assert_int_equal(r.stacks[1].st.total_ns, 5500);
	assert_int_equal(r.stacks[1].st.max_ns, 3500);
	/* per lock */
	assert_int_equal(r.nlocks, 2);
	const struct pl_futex_row *a = row_of(r.locks, r.nlocks, 0, PL_FUTEX_NO_STACK, 0xa0);
	assert_non_null(a);
	assert_int_equal(a->st.waits, 2);
	assert_int_equal(a->pid, 100);
	assert_int_equal(r.locks[0].uaddr, 0xb0);
	/* per thread */
	assert_int_equal(r.nthreads, 2);
	const struct pl_futex_row *t11 = row_of(r.threads, r.nthreads, 11, PL_FUTEX_NO_STACK, 0);
	const struct pl_futex_row *t12 = row_of(r.threads, r.nthreads, 12, PL_FUTEX_NO_STACK, 0);
	assert_non_null(t11);
	assert_non_null(t12);
	assert_int_equal(t11->st.total_ns, 12000);
	assert_int_equal(t11->st.retries, 1);
	assert_int_equal(t12->st.total_ns, 4000);
	assert_int_equal(t12->st.errors, 1);
	/* the sums agree */
	assert_int_equal(t11->st.waits + t12->st.waits, r.all.waits);
	pl_futex_result_free(&r);
	pl_futex_log_free(&l);
}

static void test_boundaries(void **state)
{
	(void)state;
	struct pl_futex_log l = { 0 };
	leave(&l, 500, 11, 0); /* begun before the recording: not counted, not a loss */
	enter(&l, 1000, 11, PL_FUTEX_WAIT, 0xa0, 1);
	leave(&l, 2000, 11, 0);
	enter(&l, 3000, 12, PL_FUTEX_WAIT, 0xa0, 1); /* still waiting at the end */
	struct pl_futex_result r;
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.all.waits, 1);
	assert_int_equal(r.all.total_ns, 1000);
	assert_int_equal(r.open_start, 1);
	assert_int_equal(r.open_end, 1);
	assert_int_equal(r.dropped, 0);
	pl_futex_result_free(&r);
	pl_futex_log_free(&l);
}

/* The lost-event rule: no wait is made of an enter and an exit that a loss separates,
 * and every wait with a missing half is counted as dropped. */
static void test_lost(void **state)
{
	(void)state;
	struct pl_futex_log l = { 0 };
	/* thread 11: enter at 1000, its exit and the next enter lost (gap 1500-2500), an
	 * exit at 3000: pairing them would invent a 2000 ns wait */
	enter(&l, 1000, 11, PL_FUTEX_WAIT, 0xa0, 1);
	leave(&l, 3000, 11, 0);
	pl_futex_log_gap(&l, 1500, 2500);
	/* thread 12: an enter whose exit is lost, then a complete wait after the gap */
	enter(&l, 1200, 12, PL_FUTEX_WAIT, 0xa0, 1);
	enter(&l, 4000, 12, PL_FUTEX_WAIT, 0xa0, 1);
	leave(&l, 4700, 12, 0);
	/* thread 13: an exit whose enter is lost (after its first complete wait) */
	enter(&l, 100, 13, PL_FUTEX_WAIT, 0xa0, 1);
	leave(&l, 300, 13, 0);
	leave(&l, 2600, 13, 0);
	/* thread 14: an enter with a loss after it (from 5000 to the end) */
	enter(&l, 4800, 14, PL_FUTEX_WAIT, 0xa0, 1);
	pl_futex_log_gap(&l, 5000, UINT64_MAX);
	l.lost = 7;
	struct pl_futex_result r;
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.lost, 7);
	assert_int_equal(r.all.waits, 2); /* 12's second (700) and 13's first (200) */
	assert_int_equal(r.all.total_ns, 900);
	assert_int_equal(r.all.max_ns, 700);
	assert_int_equal(r.dropped, 4); /* 11's pair, 12's first, 13's exit, 14's enter */
	assert_int_equal(r.open_start + r.open_end, 0);
	pl_futex_result_free(&r);
	pl_futex_log_free(&l);
}

static void test_empty(void **state)
{
	(void)state;
	struct pl_futex_log l = { 0 };
	struct pl_futex_result r;
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.all.waits + r.nstacks + r.nlocks + r.nthreads + r.dropped, 0);
	pl_futex_result_free(&r);
	pl_futex_log_free(&l);
	pl_futex_log_free(NULL);
	pl_futex_result_free(NULL);
}

/* pthread_join waits in FUTEX_WAIT on the joined thread's id word with its id as the
 * expected value: such waits (another known thread of the same process) are joins, summed
 * apart and left out of the contention; a lock word's wait (val 2), a wait whose value is
 * no thread of the process, the caller's own id, and a PI lock stay contention. The val
 * field is decoded from the enter's raw record. */
static void test_joins(void **state)
{
	(void)state;
	struct pl_futex_fmt f = fmt();
	f.val = (struct pl_futex_field){ 32, 4 };
	uint8_t raw[64] = { 0 };
	put(raw, 16, 0x7f00aa10ull, 8);
	put(raw, 24, FUTEX_WAIT, 8);
	put(raw, 32, 12, 4);
	struct pl_futex_ev d;
	assert_int_equal(pl_futex_decode(&f, PL_FUTEX_CALL_FUTEX, false, raw, 64, &d), 0);
	assert_int_equal(d.val, 12);
	struct pl_futex_log l = { 0 };
	struct pl_futex_ev e = { .time = 1000,
				 .pid = 100,
				 .tid = 11,
				 .cls = PL_FUTEX_WAIT,
				 .cmd = FUTEX_WAIT,
				 .uaddr = 0x7f00aa10,
				 .val = 12,
				 .stack = 1 };
	pl_futex_log_add(&l, &e); /* 11 joins 12: 200000 ns */
	leave(&l, 201000, 11, 0);
	e = (struct pl_futex_ev){ .time = 300000,
				  .pid = 100,
				  .tid = 11,
				  .cls = PL_FUTEX_WAIT,
				  .cmd = FUTEX_WAIT_BITSET,
				  .uaddr = 0xa0,
				  .val = 2,
				  .stack = 2 };
	pl_futex_log_add(&l, &e); /* a mutex wait: 500 ns */
	leave(&l, 300500, 11, 0);
	e.time = 400000, e.val = 99; /* no thread 99 in pid 100: contention, 300 ns */
	pl_futex_log_add(&l, &e);
	leave(&l, 400300, 11, 0);
	e.time = 500000, e.val = 11; /* its own id: not a join, 100 ns */
	pl_futex_log_add(&l, &e);
	leave(&l, 500100, 11, 0);
	e.time = 600000, e.val = 12, e.cmd = FUTEX_LOCK_PI; /* a PI lock: 50 ns */
	pl_futex_log_add(&l, &e);
	leave(&l, 600050, 11, 0);
	e.time = 700000, e.pid = 200, e.tid = 21, e.cmd = FUTEX_WAIT, e.val = 12;
	pl_futex_log_add(&l, &e); /* thread 12 is not in pid 200: 20 ns */
	struct pl_futex_ev x = { .time = 700020, .pid = 200, .tid = 21, .exit = true };
	pl_futex_log_add(&l, &x);
	/* a join that found the thread gone (EAGAIN): a join's retry */
	e = (struct pl_futex_ev){ .time = 800000,
				  .pid = 100,
				  .tid = 13,
				  .cls = PL_FUTEX_WAIT,
				  .cmd = FUTEX_WAIT,
				  .uaddr = 0x7f00bb10,
				  .val = 12,
				  .stack = 1 };
	pl_futex_log_add(&l, &e);
	leave(&l, 800010, 13, -EAGAIN);
	const uint32_t tids[] = { 100, 11, 100, 12, 100, 13, 200, 21, 300, 99 };
	pl_futex_mark_joins(&l, tids, 5);
	struct pl_futex_result r;
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.joins.waits, 1);
	assert_int_equal(r.joins.total_ns, 200000);
	assert_int_equal(r.joins.max_ns, 200000);
	assert_int_equal(r.joins.retries, 1);
	assert_int_equal(r.all.waits, 5);
	assert_int_equal(r.all.total_ns, 500 + 300 + 100 + 50 + 20);
	assert_int_equal(r.all.retries, 0);
	assert_int_equal(r.all.max_ns, 500);
	assert_null(row_of(r.locks, r.nlocks, 0, PL_FUTEX_NO_STACK, 0x7f00aa10));
	assert_null(row_of(r.locks, r.nlocks, 0, PL_FUTEX_NO_STACK, 0x7f00bb10));
	for (size_t i = 0; i < r.nstacks; i++)
		assert_int_not_equal(r.stacks[i].stack, 1);
	pl_futex_result_free(&r);
	/* no threads known: nothing is a join */
	pl_futex_mark_joins(&l, NULL, 0);
	pl_futex_analyze(&l, &r);
	assert_int_equal(r.joins.waits + r.joins.retries, 0);
	assert_int_equal(r.all.waits, 6);
	pl_futex_result_free(&r);
	pl_futex_log_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_class),   cmocka_unit_test(test_decode),
		cmocka_unit_test(test_joins),	   cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_boundaries), cmocka_unit_test(test_lost),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
