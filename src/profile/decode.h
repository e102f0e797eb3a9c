/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The perf ring-buffer record decoder: walks [tail, head) of a ring, copying records
 * that wrap around the end into a scratch buffer, and parses PERF_RECORD_SAMPLE for the
 * sample_type bits perflab uses (layouts from include/uapi/linux/perf_event.h). Pure
 * functions over bytes: tests feed captured ring contents, no kernel needed. */
#ifndef PERFLAB_PROFILE_DECODE_H
#define PERFLAB_PROFILE_DECODE_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Largest record (header.size is 16 bits). */
#define PL_REC_MAX 65536

/** Called for every record; @rec points to the whole record (header first) in contiguous
 *  memory, valid only during the call. Return 0 to go on, non-zero to stop (the record
 *  counts as consumed). */
typedef int (*pl_rec_cb)(void *ctx, const struct perf_event_header *rec);

/** Walk the records of a ring data area @data of @size bytes (a power of two) from
 *  byte counter @tail to @head (free-running counters, as in perf_event_mmap_page).
 *  @scratch (PL_REC_MAX bytes) receives records that wrap. Returns the new tail: @head,
 *  or the position after the record that stopped the walk, or the start of a truncated
 *  or corrupt record (size below 8, not a multiple of 8, or past @head; *corrupt set
 *  when non-NULL). */
uint64_t pl_ring_walk(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
		      uint8_t *scratch, pl_rec_cb cb, void *ctx, bool *corrupt);

/** A decoded PERF_RECORD_SAMPLE. Pointers point into the record. */
struct pl_sample {
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time; /**< ns, the event's clock (CLOCK_MONOTONIC with use_clockid) */
	uint32_t cpu;
	uint64_t period;
	uint64_t nr; /**< callchain entries (PERF_CONTEXT_* markers included) */
	const uint64_t *ips;
	uint32_t raw_size; /**< PERF_SAMPLE_RAW payload */
	const uint8_t *raw;
	uint64_t regs_abi;    /**< PERF_SAMPLE_REGS_USER: 0 = none */
	const uint64_t *regs; /**< one per bit set in the mask, in bit order */
	uint64_t nregs;
	uint64_t stack_size; /**< PERF_SAMPLE_STACK_USER bytes copied */
	uint64_t stack_dyn;  /**< bytes of it that are valid */
	const uint8_t *stack;
	bool kernel; /**< header.misc says kernel mode */
};

/** Parse a PERF_RECORD_SAMPLE record @rec for @sample_type (supported: IDENTIFIER, IP,
 *  TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, CALLCHAIN, RAW, REGS_USER, STACK_USER;
 *  @regs_mask = attr.sample_regs_user). Returns 0, or -EINVAL when the record is shorter
 *  than its fields say, has a RAW size the kernel would have padded (4 + size not a
 *  multiple of 8), or has a read-format/branch-stack field perflab never asks for. */
int pl_parse_sample(const struct perf_event_header *rec, uint64_t sample_type, uint64_t regs_mask,
		    struct pl_sample *out);

/** The sample_id trailer of non-sample records (attr.sample_id_all). */
struct pl_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t id;
};
/** Parse the sample_id trailer at the end of a non-sample record @rec. Returns 0 or
 *  -EINVAL (record too short). */
int pl_parse_sample_id(const struct perf_event_header *rec, uint64_t sample_type,
		       struct pl_sample_id *out);

#endif
