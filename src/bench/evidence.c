/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `check --measure`: run the benchmarks that quantify the findings (the rules' evidence,
 * struct pl_evidence in src/rules/) and attach their figures. */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/json.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/str.h"

json_t *pl_bench_measure_findings(struct pl_findings *fs, const struct pl_bench_counting *count)
{
	json_t *docs = json_array();
	/* one run per distinct command: several block findings share bench io */
	pl_autofree char **done = pl_xcalloc(fs->n + 1, sizeof(*done));
	size_t ndone = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const struct pl_evidence *ev = fs->v[i].rule->evidence;
		if (!ev)
			continue;
		pl_autofree char *cmd = pl_evidence_command(ev);
		bool seen = false;
		for (size_t k = 0; k < ndone && !seen; k++)
			seen = strcmp(done[k], cmd) == 0;
		if (seen)
			continue;
		done[ndone++] = pl_steal_ptr(&cmd);
		const struct pl_bench *b = pl_bench_find(ev->bench);
		json_t *d;
		if (b) {
			bool counted = count && ev->counter;
			if (counted)
				count->begin(count->ctx, ev->counter);
			d = pl_bench_run_brief(b, false, ev->argv);
			json_t *row = counted ? count->end(count->ctx, ev->bench) : NULL;
			if (row)
				json_object_set_new(d, "counters", row);
		} else { /* a rule table naming an unknown benchmark; test_rules catches it */
			d = json_object();
			json_object_set_new(d, "benchmark", pl_json_string(ev->bench));
			json_object_set_new(d, "status", pl_json_string("failed"));
			json_object_set_new(d, "reason", pl_json_string("no such benchmark"));
		}
		json_array_append_new(docs, d);
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct pl_evidence *ev = fs->v[i].rule->evidence;
		json_decref(fs->v[i].evidence);
		fs->v[i].evidence = ev ? pl_evidence_eval(ev, docs, fs->v[i].subject) : NULL;
	}
	for (size_t k = 0; k < ndone; k++)
		free(done[k]);
	return docs;
}
