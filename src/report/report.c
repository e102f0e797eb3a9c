/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/report.h"

#include <string.h>

#include "config.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/str.h"

static void set_fact(json_t *m, const char *name, const struct pl_facts *f, const char *key)
{
	const json_t *v = pl_facts_value(f, key);
	json_object_set_new(m, name, v ? json_deep_copy(v) : json_null());
}

json_t *pl_report_machine(const struct pl_facts *f)
{
	json_t *m = json_object();
	set_fact(m, "hostname", f, "kernel.hostname");
	set_fact(m, "kernel", f, "kernel.release");
	set_fact(m, "cpu_model", f, "cpu.model");
	set_fact(m, "cpus", f, "cpu.online");
	set_fact(m, "sockets", f, "cpu.sockets");
	set_fact(m, "mem_bytes", f, "mem.total_bytes");
	set_fact(m, "numa_nodes", f, "numa.nodes");
	set_fact(m, "hypervisor", f, "virt.hypervisor");
	set_fact(m, "clocksource", f, "clocksource.current");
	return m;
}

json_t *pl_report_build(const struct pl_facts *f, const struct pl_findings *fs,
			const char *workload, long long epoch)
{
	char ts[32];
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "generated", pl_json_string(pl_iso8601(epoch, ts, sizeof(ts))));
	json_object_set_new(doc, "perflab_version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(doc, "machine", pl_report_machine(f));
	json_object_set_new(doc, "facts", pl_facts_to_json(f, NULL));
	json_object_set_new(doc, "check", pl_findings_to_json(fs, workload));
	return doc;
}

char *pl_report_machine_line(const json_t *report)
{
	const json_t *m = json_object_get(report, "machine");
	struct pl_buf b = { 0 };
	const char *host = pl_json_str(m, "hostname");
	pl_buf_printf(&b, "%s: ", host ? host : "this machine");
	const char *model = pl_json_str(m, "cpu_model");
	pl_buf_puts(&b, model ? model : "unknown CPU");
	const json_t *cpus = json_object_get(m, "cpus");
	if (json_is_integer(cpus))
		pl_buf_printf(&b, ", %lld CPUs", (long long)json_integer_value(cpus));
	const json_t *mem = json_object_get(m, "mem_bytes");
	if (json_is_integer(mem)) {
		char t[32];
		pl_buf_printf(&b, ", %s",
			      pl_fmt_bytes(t, sizeof(t), (double)json_integer_value(mem)));
	}
	const char *hv = pl_json_str(m, "hypervisor");
	pl_buf_printf(&b, ", %s", hv && strcmp(hv, "none") != 0 ? hv : "bare metal");
	const char *k = pl_json_str(m, "kernel");
	if (k)
		pl_buf_printf(&b, ", Linux %s", k);
	const char *cs = pl_json_str(m, "clocksource");
	if (cs)
		pl_buf_printf(&b, ", clocksource %s", cs);
	return pl_buf_steal(&b);
}
