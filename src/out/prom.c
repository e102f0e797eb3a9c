/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "out/prom.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "rules/rules.h"

void pl_prom_label_value(FILE *out, const char *s)
{
	fputc('"', out);
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '"')
			fputs("\\\"", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static const char *jstr(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : "";
}

int pl_prom_write_check(FILE *out, const json_t *check)
{
	const char *wl = jstr(check, "workload");
	const json_t *sum = json_object_get(check, "summary");
	fputs("# HELP perflab_check_findings Findings of perflab check by severity.\n"
	      "# TYPE perflab_check_findings gauge\n",
	      out);
	for (int s = PL_SEV_CRIT; s >= PL_SEV_INFO; s--) {
		fputs("perflab_check_findings{workload=", out);
		pl_prom_label_value(out, wl);
		fputs(",severity=", out);
		pl_prom_label_value(out, pl_severity_names[s]);
		fprintf(out, "} %lld\n",
			(long long)json_integer_value(json_object_get(sum, pl_severity_names[s])));
	}
	fputs("# HELP perflab_check_finding A finding of perflab check that is present (always 1).\n"
	      "# TYPE perflab_check_finding gauge\n",
	      out);
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(check, "findings"), i, x)
	{
		fputs("perflab_check_finding{workload=", out);
		pl_prom_label_value(out, wl);
		fputs(",id=", out);
		pl_prom_label_value(out, jstr(x, "id"));
		fputs(",severity=", out);
		pl_prom_label_value(out, jstr(x, "severity"));
		fputs(",subject=", out);
		pl_prom_label_value(out, jstr(x, "subject"));
		fputs("} 1\n", out);
	}
	return ferror(out) ? -EIO : 0;
}
