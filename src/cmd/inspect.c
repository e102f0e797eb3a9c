/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab inspect: collect and print platform facts. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "cli/node.h"
#include "facts/facts.h"
#include "util/json.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct inspect_opts {
	const char *domains;
	bool all;
};

static const struct pl_opt inspect_opts[] = {
	{ "domain", 0, PL_OPT_STR, offsetof(struct inspect_opts, domains), "LIST",
	  "only these comma-separated domains (virt, kernel, cpu, ...)", .was_short = 'd' },
	{ "all", 0, PL_OPT_FLAG, offsetof(struct inspect_opts, all), NULL,
	  "also list unavailable facts with the reason (always in --json)", .was_short = 'a' },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "inspect",
	.usage = "perflab inspect [--domain LIST] [--all] [--json] [--sysroot DIR]",
	.summary = "Collect platform facts from /proc, /sys, /etc and cpuid.",
	.description =
		"Facts have dotted keys (clocksource.current, cpu.model, ...), a typed\n"
		"value and the path they were read from, or are unavailable with a reason.\n"
		"--json prints {\"schema_version\":1,\"facts\":{KEY:{\"value\":V,\"source\":P}|\n"
		"{\"unavailable\":REASON}}} (docs/schemas/inspect.schema.json).",
};

static bool same_domain(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");
	return la == lb && strncmp(a, b, la) == 0;
}

/** Print facts grouped by domain (first key component, in order of first appearance:
 *  cpu.N.cpufreq.governor from the cpufreq collector lands under "cpu") for humans. */
static void print_human(FILE *out, const struct pl_facts *f, bool all)
{
	const char *b = pl_style(out, "bold"), *d = pl_style(out, "dim"),
		   *r = pl_style(out, "reset");
	pl_autofree bool *done = pl_xcalloc(f->n ? f->n : 1, sizeof(*done));
	bool first = true;
	for (size_t i = 0; i < f->n; i++) {
		if (done[i])
			continue;
		const char *dom = f->v[i].key;
		int width = 0;
		bool any = false;
		for (size_t j = i; j < f->n; j++)
			if (same_domain(dom, f->v[j].key) && (all || !f->v[j].unavailable)) {
				int l = (int)strlen(f->v[j].key);
				width = l > width ? l : width;
				any = true;
			}
		width = width > 44 ? 44 : width;
		if (any) {
			pl_autofree char *de = pl_str_escape(dom, PL_ESC_TERM);
			fprintf(out, "%s%s%.*s%s\n", first ? "" : "\n", b, (int)strcspn(de, "."),
				de, r);
			first = false;
		}
		for (size_t j = i; j < f->n; j++) {
			const struct pl_fact *x = &f->v[j];
			if (!same_domain(dom, x->key))
				continue;
			done[j] = true;
			if (x->unavailable && !all)
				continue;
			/* keys and values come from the machine tree: no control
			 * characters or invalid UTF-8 reach the terminal */
			pl_autofree char *k = pl_str_escape(x->key, PL_ESC_TERM);
			if (x->unavailable) {
				pl_autofree char *u = pl_str_escape(x->unavailable, PL_ESC_TERM);
				fprintf(out, "  %-*s  %sunavailable: %s%s\n", width, k, d, u, r);
			} else if (json_is_array(x->value) && json_array_size(x->value) > 0 &&
				   json_is_object(json_array_get(x->value, 0))) {
				/* a list of objects (PCIe devices, C-states, IRQs): one per line */
				fprintf(out, "  %s\n", k);
				size_t n;
				json_t *e;
				json_array_foreach(x->value, n, e)
				{
					pl_autofree char *v = pl_fact_value_text(e);
					pl_autofree char *t = pl_str_escape(v, PL_ESC_TERM);
					fprintf(out, "    - %s\n", t);
				}
			} else {
				pl_autofree char *v = pl_fact_value_human(x->key, x->value);
				pl_autofree char *t = pl_str_escape(v, PL_ESC_TERM);
				fprintf(out, "  %-*s  %s\n", width, k, *t ? t : "(none)");
			}
		}
	}
}

int pl_inspect_collect(const char *domains, struct pl_facts *f)
{
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	if (pl_facts_collect(f, domains) < 0) {
		struct pl_buf b = { 0 };
		for (size_t i = 0; i < pl_ncollectors; i++)
			pl_buf_printf(&b, "%s%s", i ? ", " : "", pl_collectors[i].name);
		pl_error("--domain '%s': unknown domain (one or more of: %s, comma-separated)",
			 domains, b.data ? b.data : "");
		pl_buf_free(&b);
		return PL_EXIT_USAGE;
	}
	/* A tree without one readable fact is the wrong directory: say so instead of
	 * printing nothing and succeeding. */
	return pl_cmd_require_facts(f);
}

json_t *pl_inspect_doc(const struct pl_facts *f)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "facts", pl_facts_to_json(f, NULL));
	return doc;
}

int cmd_inspect(int argc, char **argv)
{
	struct inspect_opts o = { 0 };
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	int rc = pl_cmd_parse(argc, argv, &info, inspect_opts, &o, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab inspect --help')", args.pos[0]);
		return PL_EXIT_USAGE;
	}

	pl_cleanup(pl_facts_free) struct pl_facts f;
	pl_facts_init(&f);
	rc = pl_inspect_collect(o.domains, &f);
	if (rc >= 0)
		return rc;
	int ret = PL_EXIT_OK;
	if (pl_g.json) {
		pl_autojson json_t *doc = pl_inspect_doc(&f);
		int r = pl_json_write_path(pl_g.output, doc);
		if (r < 0) {
			char m[512];
			pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
			ret = PL_EXIT_USAGE;
		}
	} else {
		struct pl_outfile out;
		int r = pl_outfile_open(&out, pl_g.output);
		if (r < 0) {
			char m[512];
			pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
			ret = PL_EXIT_USAGE;
		} else {
			print_human(out.fp, &f, o.all);
			if (pl_facts_navailable(&f) == 0 && !o.all)
				fprintf(out.fp,
					"no facts available (--all lists each with the reason)\n");
			if (pl_outfile_close(&out, true) < 0)
				ret = PL_EXIT_RUNTIME;
		}
	}
	return ret;
}
