/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What rule files share: tolerant fact readers and generic predicates, so that most rules
 * are pure data (a key, a threshold in pl_rule.limit, the expected text in pl_rule.expect).
 * Every reader returns false when the fact is missing, unavailable or of another type:
 * a rule then does not fire (missing is not bad). */
#ifndef PERFLAB_RULES_PREDICATES_H
#define PERFLAB_RULES_PREDICATES_H
#include <stdbool.h>
#include <stdint.h>

#include "rules/rules.h"

/** Every workload that asks for tuning, i.e. all but "general". */
#define PL_WL_TUNED (PL_WL_ALL & ~PL_WL_GENERAL)

/** Integer value of @key: a JSON integer, a bool (0/1) or a string holding one decimal
 *  integer (sysctl values are read as text). */
bool pl_rf_int(const struct pl_facts *f, const char *key, int64_t *out);
/** Number (integer or real) value of @key. */
bool pl_rf_num(const struct pl_facts *f, const char *key, double *out);
/** Field @idx (0-based) of a whitespace-separated integer vector such as
 *  net.ipv4.tcp_rmem ("4096 131072 6291456"), given as a string or a JSON array. */
bool pl_rf_vec(const struct pl_facts *f, const char *key, unsigned idx, int64_t *out);
/** Whether @service ("irqbalance") runs: services.NAME.running (a bool), or else
 *  services.NAME as a bool or an object with a bool "running". */
bool pl_rf_running(const struct pl_facts *f, const char *service, bool *out);
/** True when the JSON array @arr holds the string @s. */
bool pl_json_list_has(const json_t *arr, const char *s);
/** numa.nodes when known. */
bool pl_rf_numa_nodes(const struct pl_facts *f, int64_t *out);
/** Kernel command line parameter @name from kernel.cmdline.params. Returns false when the
 *  command line is unknown; else true with *present and *value (the string, or NULL for a
 *  bare flag or when absent). */
bool pl_rf_cmdline(const struct pl_facts *f, const char *name, bool *present, const char **value);

/** The name a finding shows for a fact key: "sysctl.vm.swappiness" -> "vm.swappiness". */
const char *pl_rf_name(const char *key);

/* Generic predicates over r->keys[0] (an integer fact) and r->limit. The finding reads
 * "NAME = VALUE" observed and r->expect expected (or a text built from the limit). */
/** Fires when the value is greater than r->limit. */
void pl_pred_above(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out);
/** Fires when the value is less than r->limit. */
void pl_pred_below(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out);
/** Fires when the value equals r->limit (risky settings: tcp_timestamps = 0). */
void pl_pred_equals(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out);
/** Fires when the string value of keys[0] differs from r->expect. */
void pl_pred_str_differs(const struct pl_rule *r, const struct pl_facts *f,
			 struct pl_findings *out);

/** Add a finding whose observed text is "NAME = VALUE" for integer @v of @key. */
struct pl_finding *pl_finding_add_int(struct pl_findings *out, const struct pl_rule *r,
				      const char *key, int64_t v, const char *expected);

/** Replace the fix of finding @x with @command and @tune (malloc'd, stolen; NULL = none):
 *  for fixes built from the facts (a CPU mask, a ring size). */
void pl_finding_set_fix(struct pl_finding *x, char *command, char *tune);

struct pl_cpuset;
/** The CPUs the workload runs on, as far as the facts say: a "workload.cpus" cpulist
 *  fact when one was set, else the CPU list of isolcpus= (flags such as managed_irq,
 *  domain skipped), else nohz_full=. *from gets the name used. False when none is known. */
bool pl_rf_workload_cpus(const struct pl_facts *f, struct pl_cpuset *out, const char **from);
/** The array value of @key, or NULL when missing, unavailable or not an array. */
const json_t *pl_rf_list(const struct pl_facts *f, const char *key);
/** Integer member @field of object @o into *out; false when absent or not an integer. */
bool pl_rf_member_int(const json_t *o, const char *field, int64_t *out);

#endif
