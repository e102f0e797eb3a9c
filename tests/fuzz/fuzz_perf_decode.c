/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The perf ring-buffer decoder (profile/decode.h): what the kernel (or a corrupted
 * ring) leaves in the mmap'd data area. Input layout (little endian):
 *   u64 sample_type   (perflab's bits; READ/BRANCH_STACK exercise the refusal)
 *   u64 regs_mask     (attr.sample_regs_user)
 *   u8  log2 of the ring size minus 3 (8 B .. 64 KiB)
 *   u16 tail offset   (free-running counters: tail may sit anywhere, 8-aligned as the
 *                      kernel keeps them)
 *   ... ring bytes    (copied to the start of the data area; head = tail + their length)
 * Every record is walked and fed to the profile builder (pl_profile_record: samples,
 * COMM, FORK, MMAP2, LOST...), as `perflab profile` does; samples are also parsed here
 * and every field they point to read (ips[], regs[], raw, stack), so an out-of-record
 * pointer is an ASan report. Every record is also fed to the scheduler event reader of
 * --off-cpu (profile/sched_collect.h) with a synthetic sched_switch / sched_waking /
 * sched_migrate_task format (tracepoint ids 1, 2, 3 in the raw record's first two bytes;
 * prev_state `long` or, when the ring-size byte has its top bit set, `unsigned int`).
 * A sample's raw payload is also decoded as a futex tracepoint record (profile/futex.h,
 * with field offsets and sizes taken from the sample, valid or not) and the events
 * paired at the end as --locks does. The bytes are also read as a tracepoint format file.
 * Invariants: the walk ends between tail and head; a parsed sample's
 * pointers lie inside its record; the scheduler log holds at most one event per record,
 * sorted by time after the finish, with valid kinds and states, stacks that exist, gaps
 * that do not run backwards, and sorted unique target pids; a futex record that does not
 * decode leaves nothing decoded; the pairing's per-stack, per-lock and per-thread sums
 * equal its totals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "profile/decode.h"
#include "profile/futex.h"
#include "profile/profile.h"
#include "profile/sched_collect.h"
#include "profile/tracefs.h"

struct walk {
	uint64_t st, regs_mask;
	uint64_t sink;
	unsigned nrec;
	struct pl_profile prof;
	struct pl_sched_reader sched;
	struct pl_futex_log futex;
};

/* The raw payload as a futex tracepoint record, with a layout made from the sample's
 * other fields (offsets past the record, sizes of 0 or above 8 included). */
static void futex_raw(struct walk *w, const struct pl_sample *s)
{
	struct pl_futex_fmt f;
	struct pl_futex_field fl = { (int)(s->id % 72) - 4, (int)((s->id >> 8) % 10) };
	for (int c = 0; c < PL_FUTEX_NCALLS; c++)
		f.uaddr[c] = f.op[c] = fl;
	f.op[PL_FUTEX_CALL_FUTEX] = (struct pl_futex_field){ fl.off + 8, fl.size };
	f.ret = (struct pl_futex_field){ (int)((s->id >> 16) % 72) - 4, (int)((s->id >> 24) % 10) };
	struct pl_futex_ev e = {
		.time = s->time, .pid = s->pid, .tid = s->tid % 64, .stack = (uint32_t)s->nr
	};
	enum pl_futex_call call = (enum pl_futex_call)(s->cpu % (PL_FUTEX_NCALLS + 1));
	int r = pl_futex_decode(&f, call, s->tid & 1, s->raw, s->raw_size, &e);
	FUZZ_ASSERT(r == 0 || r == -EINVAL, "futex decode: 0 or -EINVAL");
	if (r < 0) {
		FUZZ_ASSERT(e.uaddr == 0 && e.ret == 0 && e.cls == PL_FUTEX_OTHER,
			    "a record that does not decode leaves nothing decoded");
		return;
	}
	if (w->futex.n < 4096)
		pl_futex_log_add(&w->futex, &e);
	if (s->period & 1)
		pl_futex_log_gap(&w->futex, s->time, s->time + (s->period >> 1));
}

/* Pair the decoded events: the rows sum to the totals. */
static void futex_pair(struct walk *w)
{
	struct pl_futex_result r;
	pl_futex_analyze(&w->futex, &r);
	const struct pl_futex_row *rows[] = { r.stacks, r.locks, r.threads };
	size_t nrows[] = { r.nstacks, r.nlocks, r.nthreads };
	for (int k = 0; k < 3; k++) {
		uint64_t waits = 0, retries = 0, errors = 0;
		for (size_t i = 0; i < nrows[k]; i++) {
			waits += rows[k][i].st.waits;
			retries += rows[k][i].st.retries;
			errors += rows[k][i].st.errors;
			FUZZ_ASSERT(rows[k][i].st.max_ns <= rows[k][i].st.total_ns,
				    "a row's max is within its total");
		}
		FUZZ_ASSERT(waits == r.all.waits && retries == r.all.retries &&
				    errors == r.all.errors,
			    "the rows sum to the totals");
	}
	pl_futex_result_free(&r);
	pl_futex_log_free(&w->futex);
}

static void inside(const struct perf_event_header *rec, const void *p, uint64_t n)
{
	const uint8_t *b = (const uint8_t *)rec, *q = p;
	FUZZ_ASSERT(q >= b && n <= rec->size && (uint64_t)(q - b) <= rec->size - n,
		    "sample field inside its record");
}

static int on_rec(void *ctx, const struct perf_event_header *rec)
{
	struct walk *w = ctx;
	w->nrec++;
	if (rec->type == PERF_RECORD_SAMPLE) {
		struct pl_sample s;
		if (pl_parse_sample(rec, w->st, w->regs_mask, &s) == 0) {
			if (s.ips) {
				inside(rec, s.ips, s.nr * 8);
				for (uint64_t i = 0; i < s.nr; i++)
					w->sink += s.ips[i];
			}
			if (s.regs) {
				inside(rec, s.regs, s.nregs * 8);
				for (uint64_t i = 0; i < s.nregs; i++)
					w->sink += s.regs[i];
			}
			if (s.raw) {
				inside(rec, s.raw, s.raw_size);
				for (uint32_t i = 0; i < s.raw_size; i++)
					w->sink += s.raw[i];
			}
			futex_raw(w, &s);
			if (s.stack) {
				inside(rec, s.stack, s.stack_size);
				FUZZ_ASSERT(s.stack_dyn <= s.stack_size, "stack_dyn <= stack_size");
				for (uint64_t i = 0; i < s.stack_dyn; i++)
					w->sink += s.stack[i];
			}
		}
	} else {
		struct pl_sample_id id;
		if (pl_parse_sample_id(rec, w->st, &id) == 0)
			w->sink += id.time + id.pid + id.cpu;
	}
	pl_profile_record(&w->prof, rec);
	pl_sched_reader_record(&w->sched, rec);
	return w->nrec > 4096; /* stop a walk over a ring full of tiny records */
}

/* The same bytes as a tracepoint format file (profile/tracefs.h): a field found has an
 * offset and a positive size. */
static void format_text(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "prev_state", "prev_comm", "next_pid", "id", "" };
	char *s = fuzz_cstr(data, size);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int off = -1, sz = -1;
		if (pl_tracefs_field(s, names[i], &off, &sz) == 0)
			FUZZ_ASSERT(off >= 0 && sz > 0, "a field has an offset and a size");
		else
			FUZZ_ASSERT(off == -1 && sz == -1, "a missing field leaves the outputs");
	}
	free(s);
}

/* The three tracepoints as Linux 6.x lays them out, or with a 4-byte prev_state. */
static void sched_format(struct pl_sched_format *f, bool int_state)
{
	const char *sw = int_state ? "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
				     "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\n"
				     "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\n"
				     "\tfield:unsigned int prev_state;\toffset:28;\tsize:4;\n"
				     "\tfield:pid_t next_pid;\toffset:52;\tsize:4;\n"
				   : "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
				     "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\n"
				     "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\n"
				     "\tfield:long prev_state;\toffset:32;\tsize:8;\n"
				     "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\n";
	const char *wk = "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\n"
			 "\tfield:pid_t pid;\toffset:24;\tsize:4;\n"
			 "\tfield:int target_cpu;\toffset:32;\tsize:4;\n";
	const char *mg = "\tfield:pid_t pid;\toffset:12;\tsize:4;\n"
			 "\tfield:int dest_cpu;\toffset:24;\tsize:4;\n";
	const uint64_t ids[3] = { 1, 2, 3 };
	const char *const fmts[3] = { sw, wk, mg };
	FUZZ_ASSERT(pl_sched_format_parse(f, ids, fmts) == 0, "the synthetic format parses");
	FUZZ_ASSERT(f->wk_flags.off == 2 && f->wk_flags.size == 1, "common_flags found");
}

static void sched_check(const struct walk *w, const struct pl_sched_log *log)
{
	FUZZ_ASSERT(log->n <= w->nrec, "at most one scheduler event per record");
	for (size_t i = 0; i < log->n; i++) {
		const struct pl_sched_ev *e = &log->ev[i];
		FUZZ_ASSERT(!i || log->ev[i - 1].time <= e->time, "events sorted by time");
		FUZZ_ASSERT(e->kind <= PL_SCHED_EXIT, "a known kind");
		FUZZ_ASSERT(e->prev_state <= PL_TS_OTHER, "a known state");
		FUZZ_ASSERT(e->waker_ctx <= PL_CTX_SOFTIRQ, "a known waker context");
		FUZZ_ASSERT(e->kind == PL_SCHED_WAKING || e->waker_ctx == PL_CTX_TASK,
			    "a context only on a waking");
		FUZZ_ASSERT(e->stack == PL_SCHED_NO_STACK || e->stack < w->prof.nstacks,
			    "a stack that exists");
	}
	for (size_t i = 0; i < log->ngaps; i++)
		FUZZ_ASSERT(log->gaps[i].from <= log->gaps[i].to, "a gap runs forwards");
	for (size_t i = 1; i < log->npids; i++)
		FUZZ_ASSERT(log->pids[i - 1] < log->pids[i], "targets sorted and unique");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { HDR = 8 + 8 + 1 + 2 };
	if (size <= 65536)
		format_text(data, size);
	if (size < HDR || size > HDR + 65536)
		return -1;
	static struct walk w;
	memset(&w, 0, sizeof(w));
	memcpy(&w.st, data, 8);
	memcpy(&w.regs_mask, data + 8, 8);
	pl_profile_init(&w.prof, w.st, w.regs_mask, "/nonexistent-debug-root");
	struct pl_sched_format sf;
	sched_format(&sf, data[16] & 0x80);
	struct pl_sched_log log = { .t0 = 1, .t1 = UINT64_MAX / 2 };
	const int cpu = 0;
	pl_sched_reader_init(&w.sched, &sf, &log, &w.prof, &cpu, 1);
	uint64_t rsize = 1ull << (3 + data[16] % 14);
	uint16_t t16;
	memcpy(&t16, data + 17, 2);
	const uint8_t *bytes = data + HDR;
	size_t n = size - HDR;
	if (n > rsize)
		n = (size_t)rsize;
	/* an 8-aligned buffer like the kernel's mmap'd pages */
	uint64_t *ring64 = calloc(rsize / 8, 8);
	uint8_t *ring = (uint8_t *)ring64;
	uint64_t tail = ((uint64_t)t16 * 8) & (rsize - 1);
	/* the bytes start at tail's position in the ring and may wrap around its end */
	for (size_t i = 0; i < n; i++)
		ring[(tail + i) & (rsize - 1)] = bytes[i];
	tail += (uint64_t)t16 << 16; /* a counter that has gone round many times */
	uint64_t head = tail + n;
	uint64_t *scratch = malloc(PL_REC_MAX);
	bool corrupt;
	uint64_t end =
		pl_ring_walk(ring, rsize, tail, head, (uint8_t *)scratch, on_rec, &w, &corrupt);
	FUZZ_ASSERT(end >= tail && end <= head, "walk ends between tail and head");
	const uint32_t seed = 1;
	pl_sched_reader_finish(&w.sched, &seed, 1, false);
	sched_check(&w, &log);
	pl_sched_reader_free(&w.sched);
	pl_sched_log_free(&log);
	futex_pair(&w);
	free(scratch);
	free(ring64);
	pl_profile_free(&w.prof);
	return 0;
}
