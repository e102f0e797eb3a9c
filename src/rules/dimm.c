/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DIMM rules: memory bandwidth the board leaves unused. The SPEC CPU field report swapped
 * DIMM kits (258 vs 254 GB/s) and noted that a third DIMM per channel lowers the memory
 * clock. Facts (src/facts/dimm.c): dimm.devices (one object per module: locator, channel,
 * size_bytes, speed_mts, configured_mts, part_number...), dimm.channels (per populated
 * channel: dimms, size_bytes, configured_mts), dimm.channels.{total,populated}. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

/* Evidence: STREAM Triad here, to set beside the theoretical peak in the finding, and
 * the read bandwidth the memory controllers counted meanwhile. */
static const char *const triad_metrics[] = { "triad", NULL };
static const struct pl_evidence stream_evidence = {
	.bench = "mem",
	.argv = NULL,
	.metrics = triad_metrics,
	.text = "STREAM Triad reaches {1} here (the DIMMs' theoretical peak is "
		"dimm.peak_bandwidth_gbps)",
	.counter = "memory_read_bw",
	.counter_unit = "GB/s",
	.counter_label = "memory read bandwidth",
	.counter_text = "the memory controllers read {c} while it ran",
};

static void eval_below_rated(const struct pl_rule *r, const struct pl_facts *f,
			     struct pl_findings *out)
{
	size_t i;
	const json_t *d;
	json_array_foreach(pl_rf_list(f, "dimm.devices"), i, d)
	{
		int64_t rated, conf;
		const char *loc = pl_json_str(d, "locator");
		if (!loc || !pl_rf_member_int(d, "speed_mts", &rated) ||
		    !pl_rf_member_int(d, "configured_mts", &conf) || rated <= 0 || conf <= 0 ||
		    conf >= rated)
			continue;
		char obs[160], exp[64];
		snprintf(obs, sizeof(obs),
			 "%s runs at %" PRId64 " MT/s of its rated %" PRId64 " MT/s", loc, conf,
			 rated);
		snprintf(exp, sizeof(exp), "%" PRId64 " MT/s", rated);
		pl_finding_add(out, r, loc, obs, exp);
	}
}

static void eval_channels_empty(const struct pl_rule *r, const struct pl_facts *f,
				struct pl_findings *out)
{
	int64_t tot, pop;
	if (!pl_rf_int(f, "dimm.channels.total", &tot) ||
	    !pl_rf_int(f, "dimm.channels.populated", &pop) || pop <= 0 || pop >= tot)
		return;
	char obs[96], exp[64];
	snprintf(obs, sizeof(obs), "%" PRId64 " of %" PRId64 " memory channels populated", pop,
		 tot);
	snprintf(exp, sizeof(exp), "all %" PRId64 " channels populated", tot);
	pl_finding_add(out, r, NULL, obs, exp);
}

static void eval_channels_uneven(const struct pl_rule *r, const struct pl_facts *f,
				 struct pl_findings *out)
{
	int64_t lo = INT64_MAX, hi = 0, dlo = INT64_MAX, dhi = 0;
	size_t i, n = 0;
	const json_t *c;
	json_array_foreach(pl_rf_list(f, "dimm.channels"), i, c)
	{
		int64_t b, d;
		if (!pl_rf_member_int(c, "size_bytes", &b) || !pl_rf_member_int(c, "dimms", &d) ||
		    b <= 0)
			continue;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
		dlo = d < dlo ? d : dlo;
		dhi = d > dhi ? d : dhi;
		n++;
	}
	if (n < 2 || (lo == hi && dlo == dhi))
		return;
	char obs[160];
	snprintf(obs, sizeof(obs),
		 "%zu populated channels hold %" PRId64 " to %" PRId64 " GiB (%" PRId64
		 " to %" PRId64 " DIMMs each)",
		 n, lo >> 30, hi >> 30, dlo, dhi);
	pl_finding_add(out, r, NULL, obs, "the same capacity and DIMM count in every channel");
}

static void eval_mixed(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	struct pl_buf parts = { 0 };
	size_t i, n = 0;
	const json_t *d;
	json_t *seen = json_array();
	json_array_foreach(pl_rf_list(f, "dimm.devices"), i, d)
	{
		const char *p = pl_json_str(d, "part_number");
		if (!p || !*p || pl_json_list_has(seen, p))
			continue;
		json_array_append_new(seen, pl_json_string(p));
		pl_buf_printf(&parts, "%s%s", n++ ? ", " : "", p);
	}
	json_decref(seen);
	if (n > 1) {
		char *obs = pl_xasprintf("%zu module part numbers: %s", n, parts.data);
		pl_finding_add(out, r, NULL, obs, "one module part number in every slot");
		free(obs);
	}
	pl_buf_free(&parts);
}

static const char *const below_keys[] = { "dimm.devices", NULL };
static const char *const empty_keys[] = { "dimm.channels.total", "dimm.channels.populated", NULL };
static const char *const uneven_keys[] = { "dimm.channels", NULL };

const struct pl_rule pl_rules_dimm[] = {
	{
		.id = "dimm.below-rated",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = below_keys,
		.eval = eval_below_rated,
		.title = "a memory module runs below its rated speed",
		.rationale = "The memory controller runs a channel at the speed every module on it "
			     "and the CPU support: a slower module, a third DIMM per channel "
			     "(the SPEC CPU field report), a BIOS memory-frequency setting or a "
			     "CPU SKU limit lowers it, and bandwidth falls in proportion "
			     "(peak = channels x MT/s x 8 B). Compare perflab bench mem with "
			     "dimm.peak_bandwidth_gbps.",
		.source = "DMTF DSP0134 (SMBIOS) 7.18 Configured Memory Speed; the vendor's "
			  "memory population guide, e.g. https://www.dell.com/support/kbdoc/"
			  "en-us/000137479",
		.fix_command = NULL,
		.fix_tune = NULL,
		.evidence = &stream_evidence,
	},
	{
		.id = "dimm.channels-empty",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = empty_keys,
		.eval = eval_channels_empty,
		.title = "memory channels are left empty",
		.rationale = "Each channel adds its own bandwidth: a socket with an empty channel "
			     "has at most (populated/total) of its memory bandwidth, and the "
			     "channels it has interleave unevenly. Populate one DIMM in every "
			     "channel before a second in any. The channel count comes from the "
			     "slot names of SMBIOS type 17.",
		.source = "https://www.intel.com/content/www/us/en/support/articles/000058271/"
			  "processors.html (memory population); DMTF DSP0134 7.18",
		.fix_command = NULL,
		.fix_tune = NULL,
		.evidence = &stream_evidence,
	},
	{
		.id = "dimm.channels-uneven",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = uneven_keys,
		.eval = eval_channels_uneven,
		.title = "memory channels are unevenly populated",
		.rationale = "With different capacities per channel the controller interleaves "
			     "only the part every channel has; addresses above it live on fewer "
			     "channels at a fraction of the bandwidth, so results depend on where "
			     "pages land. Two DIMMs per channel in some channels may also lower "
			     "the speed of those channels.",
		.source = "https://www.intel.com/content/www/us/en/support/articles/000058271/"
			  "processors.html (balanced population); DMTF DSP0134 7.18",
		.fix_command = NULL,
		.fix_tune = NULL,
	},
	{
		.id = "dimm.mixed-modules",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_INFO,
		.keys = below_keys,
		.eval = eval_mixed,
		.title = "memory modules of different part numbers are mixed",
		.rationale = "Mixed kits run at the timings of the slowest module and may differ "
			     "in ranks, which changes interleaving; the SPEC CPU field report "
			     "measured two kits at 258 and 254 GB/s. Use one part number per "
			     "machine for comparable results.",
		.source = "https://www.dell.com/support/kbdoc/en-us/000137479 (memory "
			  "population rules); the SPEC CPU field report",
		.fix_command = NULL,
		.fix_tune = NULL,
	},
};
const size_t pl_rules_dimm_n = sizeof(pl_rules_dimm) / sizeof(pl_rules_dimm[0]);
