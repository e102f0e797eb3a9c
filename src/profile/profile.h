/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile being collected: samples (time, task, CPU, interned stack), address spaces
 * built from MMAP2/COMM/FORK/EXIT records (so exec'd and short-lived processes resolve),
 * thread names, and the lost-record counters. Fed record by record from the decoder;
 * symbolized once after collection (aggregate.c). */
#ifndef PERFLAB_PROFILE_PROFILE_H
#define PERFLAB_PROFILE_PROFILE_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile/symbols.h"

/** One sample as kept after decoding. */
struct pl_psample {
	uint64_t time; /**< CLOCK_MONOTONIC ns */
	uint32_t pid, tid, cpu;
	uint32_t stack; /**< index into pl_profile.stacks */
	bool kernel;	/**< taken in kernel mode */
};

/** An interned stack: ips leaf first (PERF_CONTEXT_* markers removed). */
struct pl_stack {
	uint32_t pid;
	uint32_t n;
	uint64_t off; /**< into pl_profile.ips */
};

/** A mapping of an executable file or of anonymous executable memory. */
struct pl_map {
	uint64_t start, end, pgoff;
	struct pl_module *mod;
};

/** One address space: a pid between an exec and the next (or from a fork). */
struct pl_aspace {
	uint32_t pid;
	uint64_t since; /**< ns of the exec/fork that created it, 0 = from the start */
	struct pl_map *maps;
	size_t nmaps, capmaps;
	bool sorted;
};

/** A thread's name and counts. */
struct pl_thread {
	uint32_t pid, tid;
	char comm[16];
	uint64_t comm_time; /**< ns of the record that gave @comm (0: none or untimed); a
			     *   name from an older record is ignored, so the latest one
			     *   stays whichever ring delivers it last (an exec's COMM on one
			     *   CPU, an earlier exec's on another) */
	uint64_t samples;
	uint64_t kernel;
	uint64_t first, last; /**< ns of first and last sample */
};

/** The whole profile. Zero-initialise and call pl_profile_init(). */
struct pl_profile {
	uint64_t sample_type;
	uint64_t regs_mask;
	bool live;	  /**< the tasks are alive while records arrive (open map_files) */
	bool no_demangle; /**< report names as in the symbol table (--no-demangle) */

	struct pl_psample *samples;
	size_t nsamples, capsamples;
	struct pl_stack *stacks;
	size_t nstacks, capstacks;
	uint64_t *ips;
	size_t nips, capips;
	uint32_t *stack_hash; /**< open addressing: stack index + 1, 0 = empty */
	size_t hash_cap;

	struct pl_aspace *as;
	size_t nas, capas;
	struct pl_thread *threads;
	size_t nthreads, capthreads;
	uint32_t *thread_hash; /**< tid index: thread index + 1, 0 = empty */
	size_t thread_cap;

	uint64_t lost;	       /**< records lost (PERF_RECORD_LOST) */
	uint64_t lost_samples; /**< samples lost (PERF_RECORD_LOST_SAMPLES) */
	uint64_t throttles;
	uint64_t bad_records; /**< undecodable records */
	uint64_t nrecords;
	uint64_t t_first, t_last; /**< ns of the first and last sample */

	struct pl_symtab syms;
	struct pl_unwinder *unwinder; /**< set for --call-graph dwarf (owned), else NULL */
	uint64_t dwarf_unwound;	      /**< samples whose user stack libdwfl unwound */
	uint64_t dwarf_truncated;     /**< samples whose user stack went on past the copied
				       *   bytes (pl_unwind's *truncated), not continued by the
				       *   frame-pointer chain */
	uint64_t stack_copied_max;    /**< largest PERF_SAMPLE_STACK_USER size of any sample:
				       *   bytes the kernel set aside for the copy, less than
				       *   asked where the whole record would pass 64 KiB
				       *   (perf_sample_ustack_size()); 0 = no stack copied */
};

/** Initialise for @sample_type and @regs_mask (the attr used), @debug_root as in
 *  pl_symtab_init. */
void pl_profile_init(struct pl_profile *p, uint64_t sample_type, uint64_t regs_mask,
		     const char *debug_root);
/** Free everything. NULL-safe. */
void pl_profile_free(struct pl_profile *p);

/** Feed one record (a pl_rec_cb: @ctx is the profile). Always returns 0. */
int pl_profile_record(void *ctx, const struct perf_event_header *rec);

/** Add the existing mappings, name and threads of process @pid from /proc/PID/maps,
 *  /proc/PID/comm and /proc/PID/task (perf's "synthesized" events, for -p and -a).
 *  Returns 0 or -errno (-ENOENT: the process is gone). */
int pl_profile_synth_proc(struct pl_profile *p, pid_t pid);

/** Record a mapping directly (what MMAP2 does). */
void pl_profile_add_map(struct pl_profile *p, uint32_t pid, uint64_t time, uint64_t start,
			uint64_t len, uint64_t pgoff, uint64_t dev, uint64_t ino,
			const uint8_t *bid, uint32_t bid_len, const char *path);

/** The address space of @pid at @time (NULL when none was seen). */
struct pl_aspace *pl_profile_aspace(struct pl_profile *p, uint32_t pid, uint64_t time);
/** The mapping containing @addr in @as, or NULL. */
const struct pl_map *pl_aspace_find(struct pl_aspace *as, uint64_t addr);
/** The index into @p->stacks of the stack @ips (@n addresses, leaf first, no
 *  PERF_CONTEXT_* markers) of process @pid, interned: an equal (pid, ips) stack added
 *  before gets the same index. The addresses are copied. */
uint32_t pl_profile_intern_stack(struct pl_profile *p, uint32_t pid, const uint64_t *ips,
				 uint32_t n);

/** Most addresses of one stack as the collectors build it. */
#define PL_STACK_MAX 512

struct pl_unwinder;
struct pl_sample;
/** Replace the user part of the frame-pointer chain @buf (@n addresses, leaf first, kernel
 *  ones first; room for PL_STACK_MAX) by what @u unwinds by CFI from the registers and
 *  stack copy of sample @s (profile/unwind.h) in its address space in @p, continued by
 *  the frame-pointer chain where that reaches the last unwound pc (libc frames without
 *  frame pointers are then not skipped). *@unwound: the CFI unwind gave at least two
 *  frames (else @buf is unchanged); *@truncated: it stopped at the end of the copy and
 *  the frame-pointer chain did not go on. Returns the new length. */
uint32_t pl_profile_join_dwarf(struct pl_profile *p, struct pl_unwinder *u,
			       const struct pl_sample *s, uint64_t *buf, uint32_t n, bool *unwound,
			       bool *truncated);

/** The thread record of @tid (created when missing). */
struct pl_thread *pl_profile_thread(struct pl_profile *p, uint32_t pid, uint32_t tid);

#endif
