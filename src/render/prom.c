/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/prom.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/escape.h"
#include "util/json.h"
#include "rules/rules.h"

/* Label values: a missing member is the empty string. */
static const char *jstr(const json_t *o, const char *k)
{
	const char *s = pl_json_str(o, k);
	return s ? s : "";
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
	fputs("# HELP perflab_check_finding A finding of perflab check that is present (always "
	      "1).\n"
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

/* The caveat of a --quick run: brief arguments (mem: arrays that may fit in the caches). */
#define QUICK_CAVEAT                                                                               \
	"quick run (--quick): brief arguments, the figures may differ from a full run's"

/* perflab_bench_caveat{benchmark=@name,caveat=@text} 1 */
static void caveat(FILE *out, const char *name, const char *text)
{
	fputs("perflab_bench_caveat{benchmark=", out);
	pl_prom_label_value(out, name);
	fputs(",caveat=", out);
	pl_prom_label_value(out, text);
	fputs("} 1\n", out);
}

int pl_prom_write_bench(FILE *out, const json_t *bench, int header)
{
	const char *name = jstr(bench, "benchmark");
	if (header)
		fputs("# HELP perflab_bench_value A statistic of a perflab benchmark metric, in "
		      "the "
		      "unit of the unit label.\n# TYPE perflab_bench_value gauge\n"
		      "# HELP perflab_bench_runs Measured repetitions of a perflab benchmark.\n"
		      "# TYPE perflab_bench_runs gauge\n"
		      "# HELP perflab_bench_ok 1 when the benchmark completed, 0 when skipped, "
		      "failed "
		      "or interrupted.\n# TYPE perflab_bench_ok gauge\n"
		      "# HELP perflab_bench_caveat A caveat on the figures of a perflab benchmark "
		      "(always 1): each warning of the run, and a --quick run.\n"
		      "# TYPE perflab_bench_caveat gauge\n",
		      out);
	/* statistics over the runs' figures: min and max, not a p99 of a few runs */
	static const char *const stats[] = { "best", "median", "mean", "min", "max", "stddev" };
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(bench, "metrics"), i, m)
	{
		const char *backend = jstr(json_object_get(m, "notes"), "backend");
		for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++) {
			const json_t *v = json_object_get(m, stats[s]);
			if (!json_is_number(v))
				continue;
			fputs("perflab_bench_value{benchmark=", out);
			pl_prom_label_value(out, name);
			fputs(",metric=", out);
			pl_prom_label_value(out, jstr(m, "name"));
			fputs(",unit=", out);
			pl_prom_label_value(out, jstr(m, "unit"));
			fputs(",stat=", out);
			pl_prom_label_value(out, stats[s]);
			if (*backend) {
				fputs(",backend=", out);
				pl_prom_label_value(out, backend);
			}
			fprintf(out, "} %.10g\n", json_number_value(v));
		}
	}
	const json_t *runner = json_object_get(bench, "runner");
	fputs("perflab_bench_runs{benchmark=", out);
	pl_prom_label_value(out, name);
	fprintf(out, "} %lld\n", (long long)json_integer_value(json_object_get(runner, "runs")));
	fputs("perflab_bench_ok{benchmark=", out);
	pl_prom_label_value(out, name);
	fprintf(out, "} %d\n", strcmp(jstr(bench, "status"), "ok") == 0);
	/* the caveats the text and JSON outputs carry, so a dashboard fed from the textfile
	 * sees them beside the figures */
	if (json_is_true(json_object_get(runner, "quick")))
		caveat(out, name, QUICK_CAVEAT);
	json_array_foreach(json_object_get(bench, "warnings"), i, m) if (json_is_string(m))
		caveat(out, name, json_string_value(m));
	return ferror(out) ? -EIO : 0;
}
