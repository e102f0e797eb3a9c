/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Accelerator rules (info): hardware that can take work off the CPU. The web-gateway
 * field report moved gzip to Intel QAT (CPU 48% -> 41% at ~10k QPS) and the GPU-instance
 * report tuned a GPU machine. Facts: accel.qat.devices, accel.gpu.devices: a list of
 * {slot, name, id} (also accepted: a count, a list of names, an object {count, models}). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

/* Count and "model, model" of an accel.*.devices fact; false when unknown. */
static bool accel_devices(const struct pl_facts *f, const char *key, int64_t *count,
			  struct pl_buf *models)
{
	const json_t *v = pl_facts_value(f, key);
	const json_t *list = NULL;
	if (json_is_integer(v)) {
		*count = json_integer_value(v);
	} else if (json_is_array(v)) {
		*count = (int64_t)json_array_size(v);
		list = v;
	} else if (json_is_object(v) && json_is_integer(json_object_get(v, "count"))) {
		*count = json_integer_value(json_object_get(v, "count"));
		list = json_object_get(v, "models");
		if (!json_is_array(list))
			list = json_object_get(v, "names");
	} else {
		return false;
	}
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e)
	{
		const json_t *name = e;
		if (json_is_object(e)) {
			name = json_object_get(e, "name");
			if (!json_is_string(name))
				name = json_object_get(e, "model");
		}
		if (json_is_string(name))
			pl_buf_printf(models, "%s%s", models->len ? ", " : "",
				      json_string_value(name));
	}
	return true;
}

static void eval_accel(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	int64_t n;
	struct pl_buf models = { 0 };
	if (accel_devices(f, r->keys[0], &n, &models) && n > 0) {
		char *obs = pl_xasprintf("%lld device%s%s%s%s", (long long)n, n == 1 ? "" : "s",
					 models.len ? " (" : "", models.len ? models.data : "",
					 models.len ? ")" : "");
		pl_finding_add(out, r, NULL, obs, r->expect);
		free(obs);
	}
	pl_buf_free(&models);
}

static const char *const qat_keys[] = { "accel.qat.devices", NULL };
static const char *const gpu_keys[] = { "accel.gpu.devices", NULL };

const struct pl_rule pl_rules_accel[] = {
	{
		.id = "accel.qat",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_INFO,
		.keys = qat_keys,
		.eval = eval_accel,
		.expect = "used for compression/crypto where it pays off",
		.title = "Intel QuickAssist (QAT) accelerator present",
		.rationale = "QAT offloads deflate compression and crypto. The web-gateway field "
			     "report cut CPU from 48% to 41% at ~10k QPS by moving gzip to QAT, "
			     "after fixing extra open/ioctl/futex syscalls per request, instance "
			     "exhaustion on reload and huge-page leaks, and keeping a software "
			     "fallback. Compare software and QAT first (perflab bench compress).",
		.source = "https://intel.github.io/quickassist/ (QATlib and the QAT zlib/QATzip "
			  "guides); the web-gateway field report",
		.fix_command = NULL,
		.fix_tune = NULL,
	},
	{
		.id = "accel.gpu",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_INFO,
		.keys = gpu_keys,
		.eval = eval_accel,
		.expect = "host tuned for feeding it (clocksource, C-states, network)",
		.title = "GPU present",
		.rationale = "GPU work is fed by the host: the GPU-instance field report tuned "
			     "clocksource, C-states and ~45 network/VM sysctls so the CPUs and the "
			     "MPI traffic between nodes keep the GPUs busy. Check the latency and "
			     "network workloads too (perflab check --workload network).",
		.source = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/"
			  "accelerated-computing-instances.html; the GPU-instance field report",
		.fix_command = NULL,
		.fix_tune = NULL,
	},
};
const size_t pl_rules_accel_n = sizeof(pl_rules_accel) / sizeof(pl_rules_accel[0]);
