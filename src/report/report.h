/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report document: one JSON object that report.json, report.md and report.html are
 * rendered from (render/), so `report --from` can merge saved results of other commands
 * (report/from.h). */
#ifndef PERFLAB_REPORT_REPORT_H
#define PERFLAB_REPORT_REPORT_H
#include <jansson.h>

#include "facts/facts.h"
#include "rules/rules.h"

/** The report's "machine" object of @f: hostname, kernel, cpu_model, cpus, sockets,
 *  mem_bytes (bytes), numa_nodes, hypervisor, clocksource, each null when its fact is
 *  missing. New reference. */
json_t *pl_report_machine(const struct pl_facts *f);

/** Build the report document: {"schema_version":1,"generated":ISO8601,"perflab_version",
 *  "machine":{...},"facts":{...},"check":{...}}. @epoch is the generation time (seconds).
 *  Returns a new reference. */
json_t *pl_report_build(const struct pl_facts *f, const struct pl_findings *fs,
			const char *workload, long long epoch);

/** The one-line machine summary ("vm: Intel Xeon ... x2, 23.4 GiB, kvm, Linux 6.18") of a
 *  report document, malloc'd. */
char *pl_report_machine_line(const json_t *report);

#endif
