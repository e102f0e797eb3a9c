/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the scheduler event log without a kernel (profile/sched.h,
 * profile/sched_collect.h): prev_state classes (every letter, the preemption marker),
 * synthetic sched_switch / sched_waking / sched_migrate_task records decoded with
 * synthetic formats (prev_state as `long` and as `unsigned int`, fields at other
 * offsets), LOST records as gaps, the stable sort and the target processes from FORK
 * records, a thread's latest name whichever ring brings it last; and --off-cpu refused through the
 * fault shim (pl_perf_open_hook): the session's error is exit 3 with the line naming what was
 * refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/decode.h"
#include "profile/perf_event.h"
#include "profile/profile.h"
#include "profile/sched.h"
#include "profile/sched_collect.h"
#include "profile/session.h"
#include "util/log.h"

/* ---- prev_state ---- */

static void test_task_state(void **state)
{
	(void)state;
	static const struct {
		uint64_t raw;
		enum pl_task_state st;
		char letter;
	} cases[] = {
		{ 0x0, PL_TS_RUNNING, 'R' },	/* runnable when it left */
		{ 0x100, PL_TS_RUNNING, 'R' },	/* TASK_REPORT_MAX: preempted ("R+") */
		{ 0x1000, PL_TS_RUNNING, 'R' }, /* an older kernel's TASK_STATE_MAX */
		{ 0x1, PL_TS_SLEEPING, 'S' },	{ 0x2, PL_TS_DISK, 'D' },
		{ 0x4, PL_TS_STOPPED, 'T' },	{ 0x8, PL_TS_STOPPED, 'T' },
		{ 0x10, PL_TS_DEAD, 'X' },	{ 0x20, PL_TS_DEAD, 'X' },
		{ 0x40, PL_TS_DEAD, 'X' },	{ 0x80, PL_TS_IDLE, 'I' },
		{ 0x402, PL_TS_IDLE, 'I' },	/* TASK_IDLE before 4.14: D | NOLOAD */
		{ 0x101, PL_TS_SLEEPING, 'S' }, /* a state with the marker: the state */
		{ 0x1100, PL_TS_OTHER, '?' },	/* two bits above the states */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum pl_task_state st = pl_task_state_of(cases[i].raw);
		assert_int_equal(st, cases[i].st);
		assert_int_equal(pl_task_state_letter(st), cases[i].letter);
	}
	assert_int_equal(pl_task_state_letter((enum pl_task_state)99), '?');
}

/* ---- synthetic formats and records ---- */

/* sched_switch as on Linux 6.x (prev_state long at 32) or with an unsigned int
 * prev_state at 28 (older layouts move the fields after it too). */
static const char *switch_fmt(bool long_state)
{
	return long_state ? "name: sched_switch\nID: 11\nformat:\n"
			    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
			    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
			    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
			    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
			    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
			    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
			    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
			  : "name: sched_switch\nID: 11\nformat:\n"
			    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
			    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
			    "\tfield:unsigned int prev_state;\toffset:28;\tsize:4;\tsigned:0;\n"
			    "\tfield:int prev_prio;\toffset:32;\tsize:4;\tsigned:1;\n"
			    "\tfield:char next_comm[16];\toffset:36;\tsize:16;\tsigned:0;\n"
			    "\tfield:pid_t next_pid;\toffset:52;\tsize:4;\tsigned:1;\n"
			    "\tfield:int next_prio;\toffset:56;\tsize:4;\tsigned:1;\n";
}

static const char waking_fmt[] =
	"name: sched_waking\nID: 12\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n";

static const char migrate_fmt[] =
	"name: sched_migrate_task\nID: 13\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n";

static void format_for(struct pl_sched_format *f, bool long_state)
{
	const uint64_t ids[3] = { 11, 12, 13 };
	const char *const fmts[3] = { switch_fmt(long_state), waking_fmt, migrate_fmt };
	assert_int_equal(pl_sched_format_parse(f, ids, fmts), 0);
}

struct rb {
	uint8_t b[8192];
	size_t n;
};

static void put(struct rb *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

static void u64(struct rb *r, uint64_t v)
{
	put(r, &v, 8);
}

static void fix_size(struct rb *r, size_t start)
{
	uint16_t sz = (uint16_t)(r->n - start);
	memcpy(r->b + start + 6, &sz, 2);
}

static void hdr(struct rb *r, uint32_t type)
{
	struct perf_event_header h = { type, 0, 0 };
	put(r, &h, sizeof(h));
}

static void setf(uint8_t *raw, struct pl_sched_field f, uint64_t v)
{
	memcpy(raw + f.off, &v, (size_t)f.size); /* little endian: the low bytes */
}

/* A tracepoint sample: identifier, tid, time, cpu, callchain (@n ips after a
 * PERF_CONTEXT_KERNEL marker), raw (@raw of 68 or 60 bytes, padded so 4 + size is a
 * multiple of 8). */
static void tp_sample(struct rb *r, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
		      const uint64_t *ips, size_t n, const uint8_t *raw, uint32_t raw_size)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_SAMPLE);
	u64(r, 42);
	u64(r, (uint64_t)tid << 32 | pid);
	u64(r, time);
	u64(r, cpu);
	u64(r, n ? n + 1 : 0);
	if (n) {
		u64(r, (uint64_t)PERF_CONTEXT_KERNEL);
		for (size_t i = 0; i < n; i++)
			u64(r, ips[i]);
	}
	uint32_t padded = raw_size;
	while ((4 + padded) % 8)
		padded++;
	put(r, &padded, 4);
	uint8_t buf[256] = { 0 };
	memcpy(buf, raw, raw_size);
	put(r, buf, padded);
	fix_size(r, s);
}

static void sw(struct rb *r, const struct pl_sched_format *f, uint32_t pid, uint32_t prev,
	       uint64_t state, uint32_t next, uint64_t time, uint32_t cpu, const char *comm)
{
	uint8_t raw[64] = { 0 };
	setf(raw, f->common_type, f->id_switch);
	memcpy(raw + f->prev_comm.off, comm, strlen(comm));
	setf(raw, f->prev_pid, prev);
	setf(raw, f->prev_state, state);
	setf(raw, f->next_pid, next);
	const uint64_t ips[3] = { 0xffffffff81000010ull, 0xffffffff81000020ull, 0x401000 + prev };
	tp_sample(r, pid, prev, time, cpu, ips, 3, raw, 64);
}

static void wk(struct rb *r, const struct pl_sched_format *f, uint32_t pid, uint32_t waker,
	       uint32_t woken, uint32_t target, uint64_t time, uint32_t cpu)
{
	uint8_t raw[40] = { 0 };
	setf(raw, f->common_type, f->id_waking);
	setf(raw, f->wk_pid, woken);
	setf(raw, f->wk_target_cpu, target);
	const uint64_t ips[2] = { 0xffffffff81000030ull, 0x402000 };
	tp_sample(r, pid, waker, time, cpu, ips, 2, raw, 36);
}

/* A sched_waking fired in interrupt context: common_flags @flags (TRACE_FLAG_*). */
static void wk_flags(struct rb *r, const struct pl_sched_format *f, uint32_t pid, uint32_t current,
		     uint32_t woken, uint64_t time, uint32_t cpu, uint8_t flags)
{
	uint8_t raw[40] = { 0 };
	setf(raw, f->common_type, f->id_waking);
	setf(raw, f->wk_flags, flags);
	setf(raw, f->wk_pid, woken);
	setf(raw, f->wk_target_cpu, cpu);
	const uint64_t ips[2] = { 0xffffffff81000040ull, 0xffffffff81000050ull };
	tp_sample(r, pid, current, time, cpu, ips, 2, raw, 36);
}

static void task_rec(struct rb *r, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
		     uint32_t ptid, uint64_t time, uint32_t cpu)
{
	size_t s = r->n;
	hdr(r, type);
	uint32_t v[4] = { pid, ppid, tid, ptid };
	put(r, v, 16);
	u64(r, time);
	u64(r, (uint64_t)tid << 32 | pid); /* sample_id: tid, time, cpu, identifier */
	u64(r, time);
	u64(r, cpu);
	u64(r, 42);
	fix_size(r, s);
}

static void comm_rec(struct rb *r, uint32_t pid, uint32_t tid, const char *comm, uint64_t time,
		     uint32_t cpu)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_COMM);
	uint32_t v[2] = { pid, tid };
	put(r, v, 8);
	char name[16] = { 0 };
	snprintf(name, sizeof(name), "%s", comm);
	put(r, name, 16);
	u64(r, (uint64_t)tid << 32 | pid); /* sample_id: tid, time, cpu, identifier */
	u64(r, time);
	u64(r, cpu);
	u64(r, 42);
	fix_size(r, s);
}

static void lost_rec(struct rb *r, uint64_t n)
{
	size_t s = r->n;
	hdr(r, PERF_RECORD_LOST);
	u64(r, 42);
	u64(r, n);
	u64(r, 0);
	u64(r, 0);
	u64(r, 0);
	u64(r, 42);
	fix_size(r, s);
}

static void walk(struct pl_sched_reader *rd, size_t ring, struct rb *r)
{
	uint8_t *scratch = malloc(PL_REC_MAX);
	bool corrupt = true;
	rd->ring = ring;
	uint64_t end = pl_ring_walk(r->b, sizeof(r->b), 0, r->n, scratch, pl_sched_reader_record,
				    rd, &corrupt);
	assert_false(corrupt);
	assert_int_equal(end, r->n);
	free(scratch);
}

static void decode_layout(bool long_state)
{
	struct pl_sched_format f;
	format_for(&f, long_state);
	assert_int_equal(f.prev_state.size, long_state ? 8 : 4);
	assert_int_equal(f.prev_state.off, long_state ? 32 : 28);
	assert_int_equal(f.next_pid.off, long_state ? 56 : 52);
	struct pl_profile prof;
	pl_profile_init(&prof, PL_SCHED_SAMPLE_TYPE, 0, "/nonexistent");
	struct pl_sched_log log = { 0 };
	log.t0 = 1000;
	log.t1 = 9000;
	const int cpus[2] = { 0, 3 };
	struct pl_sched_reader rd;
	pl_sched_reader_init(&rd, &f, &log, &prof, cpus, 2);
	struct rb r0 = { .n = 0 }, r1 = { .n = 0 };
	/* ring 0 (CPU 0): 100 forks 101, 101 runs and sleeps, is woken by 102 on CPU 3 */
	task_rec(&r0, PERF_RECORD_FORK, 101, 100, 101, 100, 2000, 0);
	sw(&r0, &f, 100, 100, 0x100, 101, 2100, 0, "parent"); /* preempted: R+ */
	sw(&r0, &f, 101, 101, 0x1, 0, 2500, 0, "child");      /* sleeps: S */
	/* ring 1 (CPU 3): the waker, a migration, then a loss and more */
	wk(&r1, &f, 102, 102, 101, 0, 2400, 3); /* earlier than ring 0's last event */
	uint8_t mg[28] = { 0 };
	setf(mg, f.common_type, f.id_migrate);
	setf(mg, f.mg_pid, 101);
	setf(mg, f.mg_dest_cpu, 3);
	tp_sample(&r1, 102, 102, 2600, 3, NULL, 0, mg, 28);
	lost_rec(&r1, 5);
	sw(&r1, &f, 102, 102, 0x2, 101, 3000, 3, "waker");	      /* D, and 101 runs on CPU 3 */
	task_rec(&r1, PERF_RECORD_FORK, 103, 101, 103, 101, 3100, 3); /* a grandchild */
	task_rec(&r1, PERF_RECORD_FORK, 101, 101, 104, 101, 3200, 3); /* a thread */
	task_rec(&r1, PERF_RECORD_EXIT, 103, 101, 103, 101, 3300, 3);
	/* a sample of an unknown tracepoint and one too short for its fields: bad */
	uint8_t junk[12] = { 99, 0 };
	tp_sample(&r1, 1, 1, 3400, 3, NULL, 0, junk, 12);
	junk[0] = 11;
	tp_sample(&r1, 1, 1, 3500, 3, NULL, 0, junk, 12);
	walk(&rd, 0, &r0);
	walk(&rd, 1, &r1);
	assert_int_equal(rd.bad, 2);
	const uint32_t seed = 100;
	pl_sched_reader_finish(&rd, &seed, 1, false);

	assert_int_equal(log.n, 9);
	for (size_t i = 1; i < log.n; i++)
		assert_true(log.ev[i - 1].time <= log.ev[i].time);
	const struct pl_sched_ev *e = log.ev;
	assert_int_equal(e[0].kind, PL_SCHED_FORK);
	assert_int_equal(e[0].pid, 101);
	assert_int_equal(e[0].tid, 101);
	assert_int_equal(e[0].other_tid, 100);
	assert_int_equal(e[1].kind, PL_SCHED_SWITCH);
	assert_int_equal(e[1].tid, 100);
	assert_int_equal(e[1].other_tid, 101);
	assert_int_equal(e[1].prev_state, PL_TS_RUNNING);
	assert_int_equal(e[1].cpu, 0);
	assert_int_equal(e[2].kind, PL_SCHED_WAKING);
	assert_int_equal(e[2].tid, 102);
	assert_int_equal(e[2].other_tid, 101);
	assert_int_equal(e[2].target_cpu, 0);
	assert_int_equal(e[2].cpu, 3);
	assert_int_equal(e[3].kind, PL_SCHED_SWITCH);
	assert_int_equal(e[3].tid, 101);
	assert_int_equal(e[3].prev_state, PL_TS_SLEEPING);
	assert_int_equal(e[3].other_tid, 0);
	assert_int_equal(e[4].kind, PL_SCHED_MIGRATE);
	assert_int_equal(e[4].other_tid, 101);
	assert_int_equal(e[4].target_cpu, 3);
	assert_int_equal(e[4].stack, PL_SCHED_NO_STACK);
	assert_int_equal(e[5].prev_state, PL_TS_DISK);
	assert_int_equal(e[5].other_tid, 101);
	assert_int_equal(e[8].kind, PL_SCHED_EXIT);
	assert_int_equal(e[8].tid, 103);
	/* the callchains, markers dropped, interned with the sample's pid */
	assert_int_not_equal(e[3].stack, PL_SCHED_NO_STACK);
	const struct pl_stack *st = &prof.stacks[e[3].stack];
	assert_int_equal(st->pid, 101);
	assert_int_equal(st->n, 3);
	assert_int_equal(prof.ips[st->off + 2], 0x401000 + 101);
	assert_int_equal(prof.stacks[e[2].stack].n, 2);
	/* names from prev_comm */
	assert_string_equal(pl_profile_thread(&prof, 101, 101)->comm, "child");
	/* the loss: a gap on CPU 3 between the events around it */
	assert_int_equal(log.lost, 5);
	assert_int_equal(log.ngaps, 1);
	assert_int_equal(log.gaps[0].cpu, 3);
	assert_int_equal(log.gaps[0].from, 2600);
	assert_int_equal(log.gaps[0].to, 3000);
	/* the targets: 100, its child 101 and grandchild 103 (104 is a thread of 101) */
	assert_int_equal(log.npids, 3);
	assert_int_equal(log.pids[0], 100);
	assert_int_equal(log.pids[1], 101);
	assert_int_equal(log.pids[2], 103);
	assert_true(pl_sched_log_target(&log, 103));
	assert_false(pl_sched_log_target(&log, 102));
	pl_sched_reader_free(&rd);
	pl_sched_log_free(&log);
	assert_null(log.ev);
	assert_int_equal(log.n, 0);
	pl_sched_log_free(NULL);
	pl_profile_free(&prof);
}

static void test_decode_long_state(void **state)
{
	(void)state;
	decode_layout(true);
}

static void test_decode_int_state(void **state)
{
	(void)state;
	decode_layout(false);
}

/* The log as drained: sorted chunks (one per drain of each ring) concatenated, an odd
 * number of them, with ties across chunks: sorted by time, ties in drain order. */
/* A waking's common_flags say whether an interrupt fired it: hardirq (and NMI, and a hard
 * interrupt over a softirq) and softirq are told apart from the task it interrupted, whose
 * pid and tid the record still carries; the kernel stack is kept. */
static void test_waking_context(void **state)
{
	(void)state;
	assert_int_equal(pl_sched_ctx_of_flags(0x00), PL_CTX_TASK);
	assert_int_equal(pl_sched_ctx_of_flags(0x01 | 0x04), PL_CTX_TASK); /* irqs off, resched */
	assert_int_equal(pl_sched_ctx_of_flags(0x08), PL_CTX_HARDIRQ);
	assert_int_equal(pl_sched_ctx_of_flags(0x10), PL_CTX_SOFTIRQ);
	assert_int_equal(pl_sched_ctx_of_flags(0x18), PL_CTX_HARDIRQ);
	assert_int_equal(pl_sched_ctx_of_flags(0x40), PL_CTX_HARDIRQ);
	assert_string_equal(pl_sched_ctx_name(PL_CTX_HARDIRQ), "[hardirq]");
	assert_string_equal(pl_sched_ctx_name(PL_CTX_SOFTIRQ), "[softirq]");
	assert_null(pl_sched_ctx_name(PL_CTX_TASK));

	struct pl_sched_format f;
	format_for(&f, true);
	assert_int_equal(f.wk_flags.off, 2);
	assert_int_equal(f.wk_flags.size, 1);
	struct pl_profile prof;
	pl_profile_init(&prof, PL_SCHED_SAMPLE_TYPE, 0, "/nonexistent");
	struct pl_sched_log log = { .t0 = 1000, .t1 = 9000 };
	const int cpus[1] = { 0 };
	struct pl_sched_reader rd;
	pl_sched_reader_init(&rd, &f, &log, &prof, cpus, 1);
	struct rb r0 = { .n = 0 };
	wk_flags(&r0, &f, 29288, 29288, 101, 2000, 0, 0x08 | 0x01); /* hrtimer: cc1 interrupted */
	wk_flags(&r0, &f, 29288, 29288, 101, 2100, 0, 0x10);
	wk_flags(&r0, &f, 29288, 29288, 101, 2200, 0, 0x00);
	walk(&rd, 0, &r0);
	assert_int_equal(rd.bad, 0);
	pl_sched_reader_finish(&rd, NULL, 0, true);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.ev[0].waker_ctx, PL_CTX_HARDIRQ);
	assert_int_equal(log.ev[1].waker_ctx, PL_CTX_SOFTIRQ);
	assert_int_equal(log.ev[2].waker_ctx, PL_CTX_TASK);
	assert_int_equal(log.ev[0].tid, 29288);
	assert_int_not_equal(log.ev[0].stack, PL_SCHED_NO_STACK);

	/* a format without common_flags: every waker a task, nothing refused */
	static const char old_waking[] =
		"name: sched_waking\nID: 12\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n";
	const uint64_t ids[3] = { 11, 12, 13 };
	const char *const fmts[3] = { switch_fmt(true), old_waking, migrate_fmt };
	struct pl_sched_format g;
	assert_int_equal(pl_sched_format_parse(&g, ids, fmts), 0);
	assert_int_equal(g.wk_flags.off, -1);
	uint64_t v = 7;
	uint8_t raw[40] = { 0x08, 0x08, 0x08 };
	assert_false(pl_sched_raw_field(raw, sizeof(raw), g.wk_flags, &v));
	assert_int_equal(v, 7);
	pl_sched_reader_free(&rd);
	pl_sched_log_free(&log);
	pl_profile_free(&prof);
}

static void test_sort_chunks(void **state)
{
	(void)state;
	struct pl_sched_format f;
	format_for(&f, true);
	struct pl_sched_log log = { .t0 = 0, .t1 = 1000 };
	const int cpus[2] = { 0, 1 };
	struct pl_sched_reader rd;
	pl_sched_reader_init(&rd, &f, &log, NULL, cpus, 2);
	/* (time, prev) per chunk, the chunks alternating between the rings: prev numbers
	 * the expected order among equal times */
	static const uint32_t chunks[][4][2] = {
		{ { 10, 1 }, { 30, 1 }, { 50, 1 }, { 0, 0 } },
		{ { 25, 1 }, { 0, 0 } },
		{ { 20, 1 }, { 30, 2 }, { 40, 1 }, { 0, 0 } },
		{ { 5, 1 }, { 30, 3 }, { 0, 0 } },
		{ { 60, 1 }, { 70, 1 }, { 0, 0 } },
	};
	for (size_t c = 0; c < 5; c++) {
		struct rb r = { .n = 0 };
		for (size_t k = 0; k < 4 && chunks[c][k][0]; k++)
			sw(&r, &f, chunks[c][k][1], chunks[c][k][1], 0x1, 9, chunks[c][k][0],
			   (uint32_t)(c % 2), "x");
		walk(&rd, c % 2, &r);
	}
	pl_sched_reader_finish(&rd, NULL, 0, true);
	static const uint64_t want_t[] = { 5, 10, 20, 25, 30, 30, 30, 40, 50, 60, 70 };
	static const uint32_t want_prev[] = { 1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 1 };
	assert_int_equal(log.n, 11);
	for (size_t k = 0; k < 11; k++) {
		assert_int_equal(log.ev[k].time, want_t[k]);
		assert_int_equal(log.ev[k].tid, want_prev[k]);
	}
	pl_sched_reader_free(&rd);
	pl_sched_log_free(&log);
}

/* Losses the kernel counted but never reported (no record after them), and one at the
 * start: gaps from the ring's last event to t1, from t0 to its first; ties keep ring
 * order; -a makes every process a target. */
static void test_unreported_loss(void **state)
{
	(void)state;
	struct pl_sched_format f;
	format_for(&f, true);
	struct pl_sched_log log = { .t0 = 100, .t1 = 900 };
	const int cpus[2] = { 0, 1 };
	struct pl_sched_reader rd;
	pl_sched_reader_init(&rd, &f, &log, NULL, cpus, 2);
	struct rb r0 = { .n = 0 }, r1 = { .n = 0 };
	lost_rec(&r0, 2);
	sw(&r0, &f, 5, 5, 0x1, 6, 300, 0, "a");
	sw(&r1, &f, 7, 7, 0x1, 8, 300, 1, "b");
	sw(&r1, &f, 8, 8, 0x1, 7, 400, 1, "c");
	walk(&rd, 0, &r0);
	walk(&rd, 1, &r1);
	for (size_t i = 0; i < 2; i++)
		rd.rings[i].have_fired = rd.rings[i].have_klost = true;
	rd.rings[1].klost = 3; /* dropped after the ring's last record */
	pl_sched_reader_finish(&rd, NULL, 0, true);
	assert_int_equal(log.lost, 5);
	assert_int_equal(log.ngaps, 2);
	assert_int_equal(log.gaps[0].cpu, 0);
	assert_int_equal(log.gaps[0].from, 100);
	assert_int_equal(log.gaps[0].to, 300);
	assert_int_equal(log.gaps[1].cpu, 1);
	assert_int_equal(log.gaps[1].from, 400);
	assert_int_equal(log.gaps[1].to, 900);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.ev[0].tid, 5); /* a tie at 300: ring 0 first */
	assert_int_equal(log.ev[1].tid, 7);
	assert_int_equal(log.ev[0].stack, PL_SCHED_NO_STACK); /* no profile */
	assert_true(log.all);
	assert_true(pl_sched_log_target(&log, 12345));
	pl_sched_reader_free(&rd);
	pl_sched_log_free(&log);
}

/* A command started through a wrapper ('taskset -c 0 CMD') execs twice, on two CPUs:
 * the wrapper's COMM lands in one ring, the command's in the other, and the rings are
 * read in CPU order. The thread keeps the latest name whichever ring is read last; a
 * switch's prev_comm does not undo it either. */
static void test_latest_comm(void **state)
{
	(void)state;
	struct pl_sched_format f;
	format_for(&f, true);
	for (int order = 0; order < 2; order++) {
		struct pl_profile prof;
		pl_profile_init(&prof, PL_SCHED_SAMPLE_TYPE, 0, "/nonexistent");
		struct pl_sched_log log = { 0 };
		const int cpus[2] = { 0, 1 };
		struct pl_sched_reader rd;
		pl_sched_reader_init(&rd, &f, &log, &prof, cpus, 2);
		struct rb r0 = { .n = 0 }, r1 = { .n = 0 };
		comm_rec(&r0, 300, 300, "taskset", 1000, 0);
		comm_rec(&r1, 300, 300, "server", 2000, 1);
		sw(&r0, &f, 300, 300, 0x1, 0, 1500, 0, "taskset");
		if (order == 0) {
			walk(&rd, 1, &r1);
			walk(&rd, 0, &r0);
		} else {
			walk(&rd, 0, &r0);
			walk(&rd, 1, &r1);
		}
		assert_string_equal(pl_profile_thread(&prof, 300, 300)->comm, "server");
		pl_sched_reader_finish(&rd, NULL, 0, true);
		pl_sched_reader_free(&rd);
		pl_sched_log_free(&log);
		pl_profile_free(&prof);
	}
}

static void test_format_missing(void **state)
{
	(void)state;
	struct pl_sched_format f;
	const uint64_t ids[3] = { 1, 2, 3 };
	const char *const bad[3] = { waking_fmt, waking_fmt, migrate_fmt };
	assert_int_equal(pl_sched_format_parse(&f, ids, bad), -ENOENT);
	/* a prev_state of 3 bytes is no integer the decoder reads */
	const char odd[] = "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
			   "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\n"
			   "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\n"
			   "\tfield:long prev_state;\toffset:32;\tsize:3;\n"
			   "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\n";
	const char *const odd3[3] = { odd, waking_fmt, migrate_fmt };
	assert_int_equal(pl_sched_format_parse(&f, ids, odd3), -ENOENT);
	uint64_t v = 7;
	uint8_t raw[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	assert_false(pl_sched_raw_field(raw, 8, (struct pl_sched_field){ 6, 4 }, &v));
	assert_int_equal(v, 7);
	assert_true(pl_sched_raw_field(raw, 8, (struct pl_sched_field){ 4, 4 }, &v));
	assert_int_equal(v, 0x08070605u);
}

/* ---- refused through the fault shim ---- */

static int refuse_tracepoints(struct perf_event_attr *a, pid_t pid, int cpu, int g,
			      unsigned long fl)
{
	if (a->type == PERF_TYPE_TRACEPOINT) {
		errno = EACCES;
		return -1;
	}
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, g, fl);
}

static void test_refused(void **state)
{
	(void)state;
	pl_perf_open_hook = refuse_tracepoints;
	const int cpu = 0;
	struct pl_psession_config cfg = {
		.all = true, .cpus = &cpu, .ncpus = 1, .no_sampling = true, .off_cpu = true
	};
	struct pl_psession s;
	char err[2048];
	int rc = pl_psession_open(&s, &cfg, err, sizeof(err));
	pl_psession_close(&s);
	assert_int_equal(rc, PL_EXIT_RUNTIME);
	assert_non_null(strstr(err, "--off-cpu: "));
	struct pl_pe_privs pv;
	pl_pe_privs_read(&pv);
	if (getuid() == 0) {
		/* tracefs readable: the open was what was refused, with the advice */
		assert_non_null(strstr(err, "sched tracepoints on every CPU were refused"));
		assert_non_null(strstr(err, "EACCES"));
		if (pv.perfmon) /* not paranoid's doing: a filter or an LSM, never "be root" */
			assert_null(strstr(err, "run as root"));
		else
			assert_non_null(strstr(err, "perf_event_paranoid=-1"));
	} else {
		assert_non_null(strstr(err, "tracing"));
	}
	assert_null(strchr(err, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_state),	 cmocka_unit_test(test_decode_long_state),
		cmocka_unit_test(test_decode_int_state), cmocka_unit_test(test_unreported_loss),
		cmocka_unit_test(test_format_missing),	 cmocka_unit_test(test_refused),
		cmocka_unit_test(test_latest_comm),	 cmocka_unit_test(test_sort_chunks),
		cmocka_unit_test(test_waking_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
