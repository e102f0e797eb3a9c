/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor's QAT fw_counters parser (src/monitor/accel.h) on two texts (split at
 * the first "\n====\n", the earlier and the later reading of one device) and the rates
 * between them, and the telemetry parser (device_data, rp_<A-D>_data) on both texts.
 * Invariants: a parse that succeeds has responses and RAS events only when it says so,
 * no rate is negative, whatever the texts (a counter that goes down gives NaN and marks
 * the interval); telemetry keeps at most PL_MON_QAT_TL_MAX counters, each a non-empty
 * NUL-terminated name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "monitor/accel.h"
#include "monitor/rates.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 18)
		return -1;
	char *s = fuzz_cstr(data, size);
	char *sep = strstr(s, "\n====\n");
	const char *second = s;
	if (sep) {
		*sep = '\0';
		second = sep + 6;
	}
	struct pl_mon_qat q[2] = { { .name = "qat_x" }, { .name = "qat_x" } };
	int r0 = pl_mon_parse_qat_fw_counters(s, &q[0].requests, &q[0].responses, &q[0].ras_events,
					      &q[0].has_ras);
	int r1 = pl_mon_parse_qat_fw_counters(second, &q[1].requests, &q[1].responses,
					      &q[1].ras_events, &q[1].has_ras);
	FUZZ_ASSERT(r0 == 0 || r0 == -22, "0 or -EINVAL");
	for (int k = 0; k < 2; k++) {
		struct pl_mon_qat_tl *t = k ? &q[1].rp[0] : &q[0].tl;
		int rt = pl_mon_parse_qat_telemetry(k ? second : s, t);
		FUZZ_ASSERT(rt == 0 || rt == -22, "telemetry: 0 or -EINVAL");
		FUZZ_ASSERT(rt != 0 || t->n > 0, "telemetry: a success has a counter");
		FUZZ_ASSERT(t->n <= PL_MON_QAT_TL_MAX, "telemetry: within the table");
		for (size_t i = 0; i < t->n; i++)
			FUZZ_ASSERT(t->name[i][0] && memchr(t->name[i], 0, sizeof(t->name[i])),
				    "telemetry: a name");
		FUZZ_ASSERT(memchr(t->service, 0, sizeof(t->service)), "telemetry: service");
		q[k].has_tl = k == 0 && rt == 0;
		q[k].has_rp[0] = k == 1 && rt == 0;
	}
	if (r0 == 0 && !q[0].has_ras)
		FUZZ_ASSERT(q[0].ras_events == 0, "no RAS rows, no RAS events");
	if (r0 == 0 && r1 == 0) {
		struct pl_mon_snap a = { .t_ns = 1000000000ull, .qat = &q[0], .nqat = 1 };
		struct pl_mon_snap b = { .t_ns = 2000000000ull, .qat = &q[1], .nqat = 1 };
		struct pl_mon_rates r;
		FUZZ_ASSERT(pl_mon_rates_compute(&a, &b, NULL, 0, &r) == 0, "rates");
		FUZZ_ASSERT(r.nqat == 1, "the device at both ends");
		const double v[] = { r.qat[0].requests_per_s, r.qat[0].responses_per_s,
				     r.qat[0].ras_events_per_s };
		for (size_t i = 0; i < 3; i++)
			FUZZ_ASSERT(isnan(v[i]) || v[i] >= 0, "never a negative rate");
		if (isnan(v[0]))
			FUZZ_ASSERT(r.reset_groups & (1u << PL_MON_G_ACCEL), "a reset is marked");
		pl_mon_rates_free(&r);
	}
	free(s);
	return 0;
}
