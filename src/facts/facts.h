/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Facts: what perflab knows about a machine. A fact has a dotted key
 * ("clocksource.current"), a typed JSON value (string, integer, bool, list, object) and the
 * source path it came from; or it is `unavailable` with a reason. Collectors (one file per
 * domain, listed in registry.c) never fail: a missing or malformed file becomes an
 * unavailable fact. */
#ifndef PERFLAB_FACTS_FACTS_H
#define PERFLAB_FACTS_FACTS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One fact. Exactly one of value / unavailable is non-NULL. All strings owned. */
struct pl_fact {
	char *key;
	json_t *value;	   /**< owned reference, or NULL when unavailable */
	char *source;	   /**< path read (sysroot-relative, e.g. "/proc/cmdline"), or a
				method name ("cpuid", "hwloc"); may be NULL */
	char *unavailable; /**< reason, or NULL */
};

/** A set of facts in insertion order, keys unique (a later set replaces). */
struct pl_facts {
	struct pl_fact *v;
	size_t n, cap;
	/* Index of v by key: open addressing with linear probing over FNV-1a hashes, each slot
	 * the fact's position + 1 (0 = empty), at most half full; owned, rebuilt as v grows.
	 * Fill v only through the pl_fact_* setters, which keep it in step. */
	size_t *idx;
	size_t idx_cap; /* a power of two, or 0 before the first fact */
};

/** Initialise an empty set. */
void pl_facts_init(struct pl_facts *f);
/** Free all facts. NULL-safe. */
void pl_facts_free(struct pl_facts *f);
/** How many of @f's facts have a value (are not unavailable). */
size_t pl_facts_navailable(const struct pl_facts *f);

/** Set @key to @value (reference stolen; NULL means JSON null) read from @source. */
void pl_fact_set(struct pl_facts *f, const char *key, json_t *value, const char *source);
void pl_fact_str(struct pl_facts *f, const char *key, const char *value, const char *source);
void pl_fact_int(struct pl_facts *f, const char *key, int64_t value, const char *source);
void pl_fact_bool(struct pl_facts *f, const char *key, bool value, const char *source);
/** Mark @key unavailable with a printf-style reason ("/sys/...: not present"). */
void pl_fact_unavailable(struct pl_facts *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Set @key to the string @value from @source when @value is non-NULL, else mark it
 *  unavailable with the printf-style reason. */
void pl_fact_str_or(struct pl_facts *f, const char *key, const char *value, const char *source,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/** Read the first line of @path into a string fact, or mark it unavailable with the
 *  path and the read error. Returns 0 or the -errno of the read. */
int pl_fact_from_file_str(struct pl_facts *f, const char *key, const char *path);
/** Read @path as an integer fact (unavailable when missing or not a number). */
int pl_fact_from_file_int(struct pl_facts *f, const char *key, const char *path);
/** Set @key to the count or size @value, or mark it unavailable ("@source: out of range")
 *  when it does not fit a JSON integer (> INT64_MAX): a machine tree may say 2^64-1. */
void pl_fact_uint(struct pl_facts *f, const char *key, uint64_t value, const char *source);
/** Read @path as a non-negative integer fact (a count, size or frequency): unavailable
 *  when missing, not a number, negative ("not a number, or negative") or above INT64_MAX.
 *  Returns 0 or -errno. */
int pl_fact_from_file_uint(struct pl_facts *f, const char *key, const char *path);

/** The fact for @key, or NULL when never collected. */
const struct pl_fact *pl_facts_get(const struct pl_facts *f, const char *key);
/** The value for @key when available, else NULL. Borrowed reference. */
const json_t *pl_facts_value(const struct pl_facts *f, const char *key);
/** The string value of @key, or NULL when missing, unavailable or not a string. */
const char *pl_facts_get_str(const struct pl_facts *f, const char *key);
/** Integer value of @key into *out; false when missing, unavailable or not an integer
 *  (a bool counts as 0/1). */
bool pl_facts_get_int(const struct pl_facts *f, const char *key, int64_t *out);
/** Bool value of @key into *out; false when missing or not a bool. */
bool pl_facts_get_bool(const struct pl_facts *f, const char *key, bool *out);

/** {"KEY":{"value":V,"source":"PATH"}|{"unavailable":"REASON"},...} as a new object.
 *  When @prefix is non-NULL only keys starting with it. */
json_t *pl_facts_to_json(const struct pl_facts *f, const char *prefix);
/** Render a value for humans: strings bare, numbers as JSON writes them but reals to 9
 *  significant digits ("2.453117", not 2.4531170000000002), lists of scalars
 *  comma-separated ("0, 2"), objects as "key=value, key=value" (in braces when nested),
 *  lists of objects one object after another separated by "; " ("slot=0000:3d:00.0,
 *  id=8086:37c8; slot=..."); booleans and null as JSON writes them. Returns a malloc'd
 *  string ("" for an empty list or object). */
char *pl_fact_value_text(const json_t *v);
/** The terminal's text of the value @v of key @key (a fact or a benchmark's info entry):
 *  as pl_fact_value_text, except that a whole number of bytes (a key ending in "_bytes")
 *  is a size ("508 MiB", pl_fmt_size: exact, else with the byte count) and a real is
 *  rounded to 5 significant digits ("2095.9"), so no raw byte count or long float
 *  reaches a human; the JSON keeps the exact value. Returns a malloc'd string. */
char *pl_fact_value_human(const char *key, const json_t *v);

/** A collector: fills facts of one domain. Never fails; never exits. */
struct pl_collector {
	const char *name;    /**< domain, the first key component ("cpu", "clocksource") */
	const char *summary; /**< one line for docs and -v */
	void (*collect)(struct pl_facts *f);
};

/** All collectors in run order (registry.c). */
extern const struct pl_collector pl_collectors[];
extern const size_t pl_ncollectors;

/** Sysctls the sysctl collector reads after its base list: @names is a NULL-terminated
 *  array of sysctl names ("vm.swappiness"; names with '*' are skipped), borrowed until the
 *  next call (NULL, the default: the base list only). Commands that evaluate rules
 *  (check, report, inspect) pass pl_rules_sysctl_names(), so facts need not know rules. */
void pl_facts_set_sysctl_names(const char *const *names);

/** The facts a command will read, for one that prints none (perflab check): @keys is a
 *  NULL-terminated array of fact keys ("kernel.cmdline.params"), borrowed until the next
 *  call; NULL (the default) wants every fact. A collector may then skip a fact that is
 *  costly to read and that pl_facts_wanted() says nothing reads (kernel.config_hz: the
 *  kernel config decompressed). The set of facts changes, so a command that prints facts
 *  or builds a report from them never sets it. */
void pl_facts_set_wanted(const char *const *keys);

/** Whether fact @key is wanted: no list set, or a key of the list equals @key, or one is
 *  @key's parent ("kernel" for "kernel.config_hz") or child ("kernel.config_hz.x"). */
bool pl_facts_wanted(const char *key);

/** Run every collector against the current sysroot into @f. */
void pl_facts_collect_all(struct pl_facts *f);
/** Run only collectors whose name is in the comma-separated @domains (NULL = all).
 *  Returns 0, or -EINVAL naming no collector (then nothing is collected). */
int pl_facts_collect(struct pl_facts *f, const char *domains);

#endif
