/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of a finished profiling run: the text report, the --json document
 * (docs/schemas/profile.schema.json), the folded stacks of --folded and the flame graph
 * of --svg (and of --from-folded). Everything is made from a struct pl_pout, which only
 * points at what the session (profile/session.h), the aggregation (profile/aggregate.h) and
 * the timeline (profile/timeline.h) produced, so the text and the JSON cannot disagree.
 * Nothing here logs; files are opened and errors reported by the command. */
#ifndef PERFLAB_PROFILE_OUTPUT_H
#define PERFLAB_PROFILE_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/markers.h"
#include "profile/perf_event.h"
#include "profile/profile.h"
#include "profile/aggregate.h"
#include "profile/offcpu.h"
#include "profile/offcpu_output.h"
#include "profile/session.h"
#include "profile/syscalls.h"
#include "profile/timeline.h"

/** What the outputs read. Every pointer is borrowed (owned by the caller, alive while the
 *  output is made); the optional ones are NULL when absent. */
struct pl_pout {
	const char *what;		/**< the target: "'cmd'", "pid 12", "all CPUs (2)" */
	const struct pl_pe_session *pe; /**< the sampling events as opened */
	const struct pl_profile *p;	/**< the collected samples */
	const struct pl_preport *r;	/**< their aggregation (filtered by --region) */
	const struct pl_markring *mk;	/**< region markers, or NULL (none created) */
	const struct pl_timeline *tl;	/**< --timeline, or NULL */
	const struct pl_syscalls *sc;	/**< --syscalls, or NULL */
	const struct pl_futex *locks;	/**< --locks (finished), or NULL */
	uint64_t wall_ns;		/**< duration of the run, ns */
	int freq;			/**< -F, Hz (shown when @period is 0) */
	uint64_t period;		/**< -c, events per sample; 0 = by frequency */
	const char *cg;			/**< callchain mode: "fp", "dwarf" or "none" */
	bool have_child;		/**< a command was run (@child_status is valid) */
	int child_status;		/**< its wait status (waitpid(2)) */
	bool interrupted;		/**< the run was ended by Ctrl-C (SIGINT) or SIGTERM
					 *   before the command finished */
	const char *region;		/**< --region NAME, or NULL */
	int top;			/**< rows of the top tables in the text (--top, >= 1); the
					 *   JSON's top lists have as many */
	bool tree;			/**< --tree: the call tree in the text */
	bool samples;			/**< --samples: the sampling tables after the syscall
					 *   summary (implied by --tree, --timeline, --region) */
	bool pid_target;		/**< -p: the "no samples" line says "an idle process" */
	const struct pl_offcpu *off;	/**< --off-cpu: the analysis, or NULL */
	const struct pl_offcpu_names *offn; /**< its symbolized stacks (with @off) */
	const char *off_folded;		    /**< its off-CPU folded stacks, us (with @off) */
	const char *wall_folded;	    /**< --wall: the wall-clock folded stacks, or NULL */
};

/** A --region filter (a pl_sample_filter context): keeps the samples taken while their
 *  thread was inside an instance of region @idx of @m (pl_markers_inside). Borrowed. */
struct pl_region_filter {
	const struct pl_markring *m;
	int idx; /**< index into m->names (pl_markring_find) */
};

/** The pl_sample_filter of a struct pl_region_filter (@ctx). */
bool pl_region_filter_keep(void *ctx, const struct pl_psample *s);

/** Fill @po from a finished session @s (target, events, profile, markers when created,
 *  syscalls, duration, sampling rate, callchain mode, exit status, -p), the aggregation
 *  @r and the timeline @tl (NULL: none); the report options (@po->region, top, tree,
 *  samples) are left zero for the caller to set. @s, @r and @tl are borrowed. */
void pl_pout_init(struct pl_pout *po, const struct pl_psession *s, const struct pl_preport *r,
		  const struct pl_timeline *tl);

/** Print the text report to @out (styles per pl_style(@out): bold headings on a
 *  terminal). With @o->sc and none of samples/tree/timeline/region it is the syscall
 *  summary only; otherwise the event line, duration, stack copy (dwarf), samples, lost,
 *  user/kernel split, exit status, syscalls, regions, threads (at most @o->top), CPUs,
 *  top functions by self and by total, the call tree and the timeline; then with @o->off
 *  the off-CPU sections (pl_offcpu_text). On a terminal
 *  long names are shortened to its width (pl_names_abbrev). Write errors are left in
 *  @out's error flag for the caller to check. */
void pl_pout_text(FILE *out, const struct pl_pout *o);

/** Whether the text report shows the sampling tables: always without --syscalls
 *  (@syscalls false); with it only when asked, by --samples (@samples) or by what implies
 *  it (--tree, --timeline, --region). The one rule behind pl_pout_text() and the
 *  profile command's choice to take no samples when no output shows them. */
bool pl_pout_text_shows_samples(bool syscalls, bool samples, bool tree, bool timeline, bool region);

/** The --json document (docs/schemas/profile.schema.json, schema_version 1), with the
 *  folded stacks under "folded" so `report --from` can draw the flame graph, and with
 *  @o->off the "off_cpu" member (pl_offcpu_json). Returns a
 *  new reference (the caller json_decref()s it). */
json_t *pl_pout_json(const struct pl_pout *o);

/** The folded stacks of @r (pl_preport_write_folded) in memory: *@buf (malloc'd,
 *  NUL-terminated, owned by the caller) of *@len bytes. Returns 0 or -errno (then *@buf
 *  is NULL). */
int pl_pout_folded(const struct pl_preport *r, char **buf, size_t *len);
/** Folded text @text ("frame;frame;leaf N" lines, as pl_pout_folded() writes them; NULL
 *  = none) as a new JSON array [{"stack": "frame;...;leaf", @key: N}] (@key "count" for
 *  samples, "us" for off-CPU microseconds); lines without a trailing count are skipped.
 *  The caller owns the array. */
json_t *pl_pout_folded_json(const char *text, const char *key);

/** Write the report, --json (@json) or text, to stderr (@to_stderr: the report of a
 *  command without -o, flushed and checked) or through pl_outfile to @path (NULL or "-":
 *  stdout). Returns PL_EXIT_OK; PL_EXIT_USAGE when @path cannot be opened, or
 *  PL_EXIT_RUNTIME when the report could not be written (a full disk, a closed pipe),
 *  each with "cannot write 'DEST': REASON" in @err (@errlen bytes; DEST is "stderr",
 *  "stdout" or @path). */
int pl_pout_write(const struct pl_pout *po, const char *path, bool to_stderr, bool json, char *err,
		  size_t errlen);

/** Write the folded stacks @folded (@len bytes, as from pl_pout_folded) to @path, or
 *  with @svg their flame graph titled @title, its counts in @unit (pl_flame_set_unit;
 *  NULL: samples), with the thread rows of @tl as its timeline strip (NULL: none),
 *  through pl_outfile (atomically). Returns PL_EXIT_OK;
 *  PL_EXIT_USAGE with "cannot write 'PATH': REASON" in @err (@errlen bytes) when @path
 *  cannot be opened; PL_EXIT_RUNTIME when writing it failed (@err empty). */
int pl_pout_write_stacks(const char *path, bool svg, const char *folded, size_t len,
			 const struct pl_timeline *tl, const char *title, const char *unit,
			 char *err, size_t errlen);

/** --from-folded: read folded stacks from @path ("-" = stdin) and write their flame graph
 *  to @svg (through pl_outfile, atomically). Returns PL_EXIT_OK; PL_EXIT_USAGE with the
 *  message in @err (@errlen bytes: "--from-folded needs --svg FILE ..." when @svg is
 *  NULL, "cannot read 'PATH': ...", "PATH:LINE: ..." for a
 *  malformed line, "cannot write 'SVG': ...") when the input cannot be read or parsed or
 *  @svg cannot be opened; PL_EXIT_RUNTIME when writing @svg failed (from
 *  pl_outfile_close; @err empty). */
int pl_pout_from_folded(const char *path, const char *svg, char *err, size_t errlen);

/** --call-graph dwarf: the bytes of user stack actually copied per sample (at most): the
 *  size asked (@pe->attr.sample_stack_user), or less where the kernel shrank the copy
 *  to keep a record under 64 KiB (@p->stack_copied_max). */
uint32_t pl_pout_stack_copied(const struct pl_pe_session *pe, const struct pl_profile *p);

/** The advice for truncated dwarf stacks: raise --stack-size, or, where the kernel
 *  already copies all it can, frame pointers. Static string. */
const char *pl_pout_stack_advice(const struct pl_pe_session *pe, const struct pl_profile *p);

/** Why cycles was replaced by cpu-clock, as one sentence for the text header and the
 *  JSON's event.fallback: "no hardware cycles event: this machine exposes no hardware PMU
 *  (as most VMs); sampling cpu-clock instead". @e is perf_event_open's errno for cycles
 *  (positive; perf_event_open(2), ERRORS: ENOENT/ENODEV/ENXIO no such event, EOPNOTSUPP
 *  no overflow interrupt). Returns a malloc'd string; the caller frees it. */
char *pl_pout_fallback_sentence(int e);
/** The warning for samples with truncated dwarf stacks (with what to change), or NULL
 *  when none was truncated. Malloc'd, owned by the caller. */
char *pl_pout_warn_truncated(const struct pl_pe_session *pe, const struct pl_profile *p);
/** The warning for lost records or samples (raise --ring-kb or lower -F), or NULL when
 *  none was lost. Malloc'd, owned by the caller. */
char *pl_pout_warn_lost(const struct pl_profile *p);

#endif
