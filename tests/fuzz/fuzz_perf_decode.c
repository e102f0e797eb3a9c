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
 * pointer is an ASan report. The bytes are also read as a tracepoint format file.
 * Invariants: the walk ends between tail and head; a parsed sample's
 * pointers lie inside its record. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "profile/decode.h"
#include "profile/profile.h"
#include "profile/tracefs.h"

struct walk {
	uint64_t st, regs_mask;
	uint64_t sink;
	unsigned nrec;
	struct pl_profile prof;
};

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
	free(scratch);
	free(ring64);
	pl_profile_free(&w.prof);
	return 0;
}
