/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text parsers of the event resolver, pure functions over strings so the fuzzer and
 * the unit tests reach them without a sysroot: a PMU's format file ("config:0-7,32-35",
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-format), a term list
 * ("event=0x3c,umask=0x1,edge" as in an events/ALIAS file or between a PMU's slashes,
 * sysfs-bus-event_source-devices-events and perf's parse-events.y), a modifier
 * (":u", ":k", ":h", ...; perf's parse-events.c get_event_modifier), and the generic
 * event names of include/uapi/linux/perf_event.h as perf spells them
 * (tools/perf/util/parse-events.l, evsel.c evsel__hw_cache). */
#ifndef PL_COUNTERS_PMU_PARSE_H
#define PL_COUNTERS_PMU_PARSE_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes of a term's name ("offcore_rsp"). */
#define PL_PMU_TERM_MAX 64
/** Most terms one spelling or alias file may hold. */
#define PL_PMU_TERMS_MAX 32

/** Which perf_event_attr field a format fills. */
enum pl_pmu_field { PL_PMU_CONFIG = 0, PL_PMU_CONFIG1 = 1, PL_PMU_CONFIG2 = 2 };

/** One parsed format file: its @field and the @mask of its bits (bit i of the term's
 *  value goes to the i-th set bit of @mask, lowest first, as perf's pmu_format_value
 *  does), @nbits set bits. */
struct pl_pmu_format {
	enum pl_pmu_field field;
	uint64_t mask;
	int nbits;
};

/** One term "name=value" or "name" (@has_value false, value 1 as perf takes it). */
struct pl_pmu_term {
	char name[PL_PMU_TERM_MAX];
	uint64_t value;
	bool has_value;
};

/** Parse format text @text ("config:0-7,21\n", "config1:0-15", "config2:3") into @f.
 *  Returns 0, or -EINVAL for anything else (an unknown field, a bit above 63, a range
 *  that runs backwards, trailing junk). */
int pl_pmu_format_parse(const char *text, struct pl_pmu_format *f);

/** Spread @value over the set bits of @mask (lowest value bit to lowest mask bit). The
 *  caller checks first that @value fits (pl_pmu_format_fits). */
uint64_t pl_pmu_format_place(uint64_t mask, uint64_t value);

/** Whether @value fits in @f's @nbits bits. */
bool pl_pmu_format_fits(const struct pl_pmu_format *f, uint64_t value);

/** Parse the comma-separated term list @text (trailing whitespace and newline allowed;
 *  values decimal or 0x-hex) into @terms (at most @max); *@n gets the count. Returns 0,
 *  or -EINVAL with a reason in @err (@errlen bytes): an empty term, "name=" without a
 *  value, a value that is not a number or overflows 64 bits, a name starting with a dot or not
 *  [A-Za-z0-9_-.]+, more than @max terms. */
int pl_pmu_terms_parse(const char *text, struct pl_pmu_term *terms, size_t max, size_t *n,
		       char *err, size_t errlen);

/** Apply modifier letters @mods (without the ':') to @attr as perf's get_event_modifier:
 *  'u' user only (exclude_kernel, exclude_hv), 'k' kernel only, 'h' hypervisor only,
 *  combinable ("uk"); 'G' guest only (exclude_host), 'H' host only (exclude_guest); 'I'
 *  exclude_idle. Returns 0, or -EINVAL with the first unknown letter in *@bad. */
int pl_pmu_modifiers(const char *mods, struct perf_event_attr *attr, char *bad);

/** A generic event of include/uapi/linux/perf_event.h by perf's name: hardware
 *  ("cycles", "cpu-cycles", "branches", ...), software ("task-clock", "cs", "faults",
 *  ...) or hardware cache ("L1-dcache-load-misses", "LLC-loads", "dTLB-loads",
 *  "branch-loads": type-op-result with perf's aliases; a missing op means read, a missing
 *  result access; an op the cache does not have, as evsel__is_cache_op_valid says, is
 *  not an event). Case matters as in perf's lexer, except for the cache parts, which
 *  perf's parse_aliases compares without case. Returns true and fills *@type and
 *  *@config, else false. */
bool pl_pmu_generic(const char *name, uint32_t *type, uint64_t *config);

/** The first spelling of the fixed generic event (hardware or software) @name names
 *  ("cs" and "context-switches" give "context-switches", "cycles" gives "cpu-cycles"),
 *  compared as pl_pmu_generic compares them; NULL when @name is not one. Static. */
const char *pl_pmu_generic_first(const char *name);

/** Call @fn for each generic name of @type (PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE or
 *  PERF_TYPE_HW_CACHE; the cache names as perf list prints them, "L1-dcache-loads",
 *  "L1-dcache-load-misses"), first spelling only. Returns 0 or @fn's first nonzero. */
int pl_pmu_generic_each(uint32_t type, int (*fn)(const char *name, void *ctx), void *ctx);

#endif
