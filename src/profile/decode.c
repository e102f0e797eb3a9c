/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/decode.h"

#include <errno.h>
#include <string.h>

uint64_t pl_ring_walk(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
		      uint8_t *scratch, pl_rec_cb cb, void *ctx, bool *corrupt)
{
	const uint64_t mask = size - 1;
	if (corrupt)
		*corrupt = false;
	while (head - tail >= sizeof(struct perf_event_header)) {
		uint64_t off = tail & mask;
		struct perf_event_header h;
		/* Even the 8-byte header may straddle the end of the data area. */
		if (off + sizeof(h) <= size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t first = (size_t)(size - off);
			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		/* The kernel pads every record to a multiple of 8 bytes (perf_event.h: the
		 * records of the ring are u64 aligned); another size is corruption, and
		 * would leave the next record and its u64 fields misaligned. */
		if (h.size < sizeof(h) || h.size % 8 != 0 || h.size > head - tail ||
		    h.size > size) {
			if (corrupt)
				*corrupt = true;
			return tail;
		}
		const struct perf_event_header *rec;
		if (off + h.size <= size) {
			rec = (const struct perf_event_header *)(data + off);
		} else {
			size_t first = (size_t)(size - off);
			memcpy(scratch, data + off, first);
			memcpy(scratch + first, data, h.size - first);
			rec = (const struct perf_event_header *)scratch;
		}
		tail += h.size;
		if (cb(ctx, rec))
			break;
	}
	return tail;
}

/* A bounds-checked cursor over one record. */
struct cur {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take_u64(struct cur *c)
{
	uint64_t v = 0;
	if (c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static const uint8_t *take(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *r = c->p;
	c->p += n;
	return r;
}

static void take_tid(struct cur *c, uint32_t *pid, uint32_t *tid)
{
	uint64_t v = take_u64(c);
	*pid = (uint32_t)v;
	*tid = (uint32_t)(v >> 32);
}

int pl_parse_sample(const struct perf_event_header *rec, uint64_t st, uint64_t regs_mask,
		    struct pl_sample *o)
{
	memset(o, 0, sizeof(*o));
	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK))
		return -EINVAL;
	struct cur c = { (const uint8_t *)(rec + 1), (const uint8_t *)rec + rec->size, false };
	uint16_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	o->kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (st & PERF_SAMPLE_IDENTIFIER)
		o->id = take_u64(&c);
	if (st & PERF_SAMPLE_IP)
		o->ip = take_u64(&c);
	if (st & PERF_SAMPLE_TID)
		take_tid(&c, &o->pid, &o->tid);
	if (st & PERF_SAMPLE_TIME)
		o->time = take_u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		take_u64(&c);
	if (st & PERF_SAMPLE_ID)
		o->id = take_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(&c);
	if (st & PERF_SAMPLE_CPU)
		o->cpu = (uint32_t)take_u64(&c);
	if (st & PERF_SAMPLE_PERIOD)
		o->period = take_u64(&c);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		o->nr = take_u64(&c);
		if (o->nr > PL_REC_MAX / 8)
			return -EINVAL;
		o->ips = (const uint64_t *)take(&c, o->nr * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then the data; the whole field is padded to 8 bytes. */
		const uint8_t *p = take(&c, 4);
		if (p) {
			memcpy(&o->raw_size, p, 4);
			/* the kernel pads it (raw_size counts the padding); another size would
			 * misalign the u64 fields after it */
			if ((4 + (uint64_t)o->raw_size) % 8 != 0)
				return -EINVAL;
			o->raw = take(&c, o->raw_size);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		o->regs_abi = take_u64(&c);
		if (o->regs_abi) {
			o->nregs = (uint64_t)__builtin_popcountll(regs_mask);
			o->regs = (const uint64_t *)take(&c, o->nregs * 8);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		o->stack_size = take_u64(&c);
		if (o->stack_size) {
			o->stack = take(&c, o->stack_size);
			o->stack_dyn = take_u64(&c);
			if (o->stack_dyn > o->stack_size)
				o->stack_dyn = o->stack_size;
		}
	}
	return c.bad ? -EINVAL : 0;
}

int pl_parse_sample_id(const struct perf_event_header *rec, uint64_t st, struct pl_sample_id *o)
{
	memset(o, 0, sizeof(*o));
	size_t n = 0;
	if (st & PERF_SAMPLE_TID)
		n++;
	if (st & PERF_SAMPLE_TIME)
		n++;
	if (st & PERF_SAMPLE_ID)
		n++;
	if (st & PERF_SAMPLE_STREAM_ID)
		n++;
	if (st & PERF_SAMPLE_CPU)
		n++;
	if (st & PERF_SAMPLE_IDENTIFIER)
		n++;
	if (rec->size < sizeof(*rec) + n * 8)
		return -EINVAL;
	struct cur c = { (const uint8_t *)rec + rec->size - n * 8, (const uint8_t *)rec + rec->size,
			 false };
	if (st & PERF_SAMPLE_TID)
		take_tid(&c, &o->pid, &o->tid);
	if (st & PERF_SAMPLE_TIME)
		o->time = take_u64(&c);
	if (st & PERF_SAMPLE_ID)
		o->id = take_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(&c);
	if (st & PERF_SAMPLE_CPU)
		o->cpu = (uint32_t)take_u64(&c);
	if (st & PERF_SAMPLE_IDENTIFIER)
		o->id = take_u64(&c);
	return c.bad ? -EINVAL : 0;
}
