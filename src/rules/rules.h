/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rules: data plus a small predicate over facts. A rule that fires adds a finding with
 * what was observed, what was expected, why (with a public source) and the fix (a command
 * and the equivalent tuned-format profile line). Rule tables live one file per domain
 * (src/rules/DOMAIN.c) and are listed in registry.c. */
#ifndef PERFLAB_RULES_RULES_H
#define PERFLAB_RULES_RULES_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/facts.h"

/** Finding severity, ordered. */
enum pl_severity { PL_SEV_INFO = 0, PL_SEV_WARN = 1, PL_SEV_CRIT = 2 };

/** Workloads a rule applies to (bit mask). "general" is every machine. */
enum pl_workload {
	PL_WL_GENERAL = 1 << 0,
	PL_WL_LATENCY = 1 << 1,
	PL_WL_THROUGHPUT = 1 << 2,
	PL_WL_HPC = 1 << 3,
	PL_WL_NETWORK = 1 << 4,
	PL_WL_STORAGE = 1 << 5,
	PL_WL_BENCHMARK = 1 << 6,
	PL_WL_ALL = (1 << 7) - 1,
};

/** Workload names in bit order ("general", "latency", ...), NULL-terminated. */
extern const char *const pl_workload_names[];
/** Severity names ("info", "warn", "crit"), NULL-terminated. */
extern const char *const pl_severity_names[];
/** Parse a severity name; returns the severity or -EINVAL. */
int pl_severity_parse(const char *s);
/** Parse a workload name into its bit; returns 0 when unknown. */
unsigned pl_workload_parse(const char *s);

struct pl_findings;
struct pl_rule;

/** The benchmark figure that quantifies a rule's findings (its evidence): which benchmark
 *  to run, which of its metrics to read and the sentence that shows them. `perflab report`
 *  shows the sentence under a finding when its benchmarks section has the metrics, and
 *  `perflab check --measure` runs the benchmark briefly (its quick_argv, then @argv) to
 *  get them. All strings static. */
struct pl_evidence {
	const char *bench;	    /**< a benchmark of src/bench/list.h ("clock") */
	const char *const *argv;    /**< arguments after the benchmark's quick_argv
					 ("--numa-matrix"), NULL-terminated, or NULL */
	const char *const *metrics; /**< metric names, NULL-terminated, 1 to
					 PL_EVIDENCE_MAX_METRICS ("gettimeofday") */
	const char *text;	    /**< the sentence: {1}..{4} = median of metrics[0..3]
					 with its unit ("1.2 us"), {1:via} = that metric's "via"
					 note, {subject} = the finding's subject */
	/** A counter metric (docs/metrics.md, counters/metric.h) counted system-wide while
	 *  the benchmark ran (`check --measure`: the bench document's "counters" row), or
	 *  NULL. Its clause @counter_text ({c} = its value with @counter_unit) follows
	 *  @text after "; "; where it is unavailable the clause says so instead ("dTLB
	 *  misses: unavailable: dTLB-loads not on this PMU"); a document that was not
	 *  counted (saved results, the report's plan) adds nothing. */
	const char *counter;
	const char *counter_unit;  /**< the metric's unit ("%", "GB/s"), as metric.c has it */
	const char *counter_label; /**< what it is, for the unavailable clause ("dTLB misses") */
	const char *counter_text;  /**< "dTLB load misses were {c} of dTLB loads meanwhile" */
};
/** At most this many metrics per evidence. */
#define PL_EVIDENCE_MAX_METRICS 4

/** A rule's predicate: inspect @f and add 0..n findings to @out with pl_finding_add()
 *  (several for per-device rules). Must not fail; missing facts mean "does not apply". */
typedef void (*pl_rule_eval_fn)(const struct pl_rule *r, const struct pl_facts *f,
				struct pl_findings *out);

/** A rule. All strings static. */
struct pl_rule {
	const char *id;		   /**< stable id, "clock.xen-tsc" */
	unsigned workloads;	   /**< enum pl_workload mask */
	enum pl_severity severity; /**< default severity of its findings */
	const char *const *keys;   /**< fact keys read, NULL-terminated ("block.*" patterns
					allowed for per-device rules) */
	pl_rule_eval_fn eval;
	const char *title;	 /**< one line: what is wrong */
	const char *rationale;	 /**< why it matters */
	const char *source;	 /**< public source: kernel doc path or vendor guide URL */
	const char *fix_command; /**< shell command that fixes it (may contain %s for the
				      subject, e.g. the device; see pl_finding.subject) */
	const char *fix_tune;	 /**< tuned-format profile item(s), one "[plugin] key=value"
				      per line ("[sysctl] vm.swappiness=10"; several joined
				      with "\n"); NULL when no profile item fixes it */
	bool risky;		 /**< the *observed* setting is risky (explained in rationale) */
	int64_t limit;		 /**< threshold of the generic predicates (predicates.h), in the
				      unit of keys[0] (bytes, ns, %, a plain count) */
	const char *expect;	 /**< what the rule wants, for humans ("<= 10", "bbr");
				      generic predicates use it as the finding's expected text */
	const struct pl_evidence *evidence; /**< the measurement that quantifies it, or NULL */
};

/** A finding. Strings owned. */
struct pl_finding {
	const struct pl_rule *rule;
	enum pl_severity severity;
	char *subject;	   /**< e.g. "vda" for per-device rules, or NULL */
	char *observed;	   /**< what the facts say */
	char *expected;	   /**< what the rule wants */
	char *fix_command; /**< rendered fix command (subject substituted) */
	char *fix_tune;	   /**< rendered profile line */
	json_t *facts;	   /**< array of the fact keys this finding used */
	json_t *evidence;  /**< pl_evidence_eval() result after `check --measure`, or NULL */
};

/** A list of findings, plus what pl_rules_eval() could not decide. */
struct pl_findings {
	struct pl_finding *v;
	size_t n, cap;
	size_t nrules;	    /**< rules evaluated (those applying to the workload) */
	char **unevaluated; /**< NULL-terminated ids of applying rules whose primary fact
				 (keys[0]) is missing or unavailable, or NULL; owned */
};

/** Add a finding for @r with severity r->severity; @subject may be NULL; observed and
 *  expected are copied. Fact keys default to r->keys with "*" replaced by the subject.
 *  Returns the finding so the caller can adjust severity or fix. */
struct pl_finding *pl_finding_add(struct pl_findings *out, const struct pl_rule *r,
				  const char *subject, const char *observed, const char *expected);
/** Free all findings. NULL-safe. */
void pl_findings_free(struct pl_findings *fs);

/** A rule table of one domain. */
struct pl_rule_table {
	const char *domain;
	const struct pl_rule *rules;
	const size_t *n; /**< points at the table's element count */
};
/** All rule tables (registry.c). */
extern const struct pl_rule_table pl_rule_tables[];
extern const size_t pl_nrule_tables;
/** The sysctl names every rule reads: the keys[] starting with "sysctl." of every table,
 *  prefix stripped, in table order (duplicates and patterns kept), NULL-terminated. Built
 *  on the first call and owned by this module (lives until exit); for
 *  pl_facts_set_sysctl_names(). */
const char *const *pl_rules_sysctl_names(void);
/** The fact keys every rule of every table reads (keys[], duplicates kept), NULL-terminated.
 *  Built on the first call and owned by this module (lives until exit); for
 *  pl_facts_set_wanted(). */
const char *const *pl_rules_keys(void);

/** Evaluate every rule applying to @workload (one bit) over @f into @out (zeroed by the
 *  caller), sorted by severity (crit first) then rule id then subject. Also fills
 *  out->nrules and out->unevaluated. A rule whose facts are missing adds nothing: missing
 *  is not bad. */
void pl_rules_eval(const struct pl_facts *f, unsigned workload, struct pl_findings *out);
/** The fact domains (first key component: "sysctl", "cpufreq", ...) read by the rules
 *  applying to @workload, comma-separated in registry order and limited to names in
 *  @known (NULL-terminated, e.g. the collector names); malloc'd, "" when none. `check`
 *  collects only these, which skips the costly collectors no rule reads. */
char *pl_rules_domains(unsigned workload, const char *const *known);
/** Find a rule by id, or NULL. */
const struct pl_rule *pl_rule_find(const char *id);

/** The evidence of a finding from benchmark results: @benches is an array of bench result
 *  documents (docs/schemas/bench.schema.json); the first one of ev->bench with status "ok"
 *  that has every metric of @ev gives the figures. @subject (may be NULL) fills
 *  {subject}. Returns a new object {"benchmark","argv":[...],"metrics":[{"name","median",
 *  "unit"}...],"text"} (with ev->counter and a document counted while it ran, also
 *  "counter": {"name", "value" or null, "unit", "unavailable" when null}, and its clause
 *  in "text") or, when no document has the figures, {"benchmark","argv",
 *  "unavailable": reason}, with the reason the benchmark gave when it did not run. */
json_t *pl_evidence_eval(const struct pl_evidence *ev, const json_t *benches, const char *subject);
/** @x in @unit as evidence and key numbers show it, into @buf (@len bytes), returning
 *  @buf: "ns" as a duration ("1.2 us", "21.3 ns"), "1/s" as "250/s", anything else as
 *  pl_fmt_unit() does ("5.46 GB/s"). */
char *pl_evidence_fmt_value(char *buf, size_t len, double x, const char *unit);
/** @ev as --list-rules --json shows it: {"benchmark","argv":[...],"metrics":[...],"text"}
 *  and "counter" (the metric's name) when it has one (docs/schemas/rules.schema.json); a
 *  new object. */
json_t *pl_evidence_to_json(const struct pl_evidence *ev);
/** The shell words of @ev's benchmark run: "bench clock", "bench mem --numa-matrix";
 *  malloc'd. */
char *pl_evidence_command(const struct pl_evidence *ev);
/** Add "evidence" (pl_evidence_eval()) to each finding object of the array @findings
 *  (check.schema.json shape) whose rule has evidence and whose figures are in @benches;
 *  an "evidence" member that was there is replaced or removed, so the result depends on
 *  @benches only. Returns the number of findings that got evidence. */
size_t pl_evidence_attach(json_t *findings, const json_t *benches);

/** {"schema_version":1,"workload":W,"findings":[...],"summary":{"total","crit","warn",
 *  "info","rules","unevaluated":[IDS]}} as a new object (docs/schemas/check.schema.json). */
json_t *pl_findings_to_json(const struct pl_findings *fs, const char *workload);

#endif
