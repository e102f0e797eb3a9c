/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rules/predicates.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuset.h"
#include "util/str.h"

bool pl_rf_int(const struct pl_facts *f, const char *key, int64_t *out)
{
	if (pl_facts_get_int(f, key, out))
		return true;
	const char *s = pl_facts_get_str(f, key);
	return s && pl_parse_i64(s, out) == 0;
}

bool pl_rf_num(const struct pl_facts *f, const char *key, double *out)
{
	const json_t *v = pl_facts_value(f, key);
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;
	return s && pl_parse_double(s, out) == 0;
}

bool pl_rf_vec(const struct pl_facts *f, const char *key, unsigned idx, int64_t *out)
{
	const json_t *v = pl_facts_value(f, key);
	if (json_is_array(v)) {
		const json_t *e = json_array_get(v, idx);
		if (json_is_integer(e)) {
			*out = json_integer_value(e);
			return true;
		}
		return json_is_string(e) && pl_parse_i64(json_string_value(e), out) == 0;
	}
	if (!json_is_string(v))
		return false;
	size_t n = 0;
	char **fields = pl_split(json_string_value(v), " \t\n", &n);
	bool ok = idx < n && pl_parse_i64(fields[idx], out) == 0;
	pl_strv_free(fields);
	return ok;
}

bool pl_rf_running(const struct pl_facts *f, const char *service, bool *out)
{
	char key[128];
	snprintf(key, sizeof(key), "services.%s.running", service);
	const json_t *v = pl_facts_value(f, key);
	if (!v) { /* also accept services.NAME as a bool or {"running": bool} */
		snprintf(key, sizeof(key), "services.%s", service);
		v = pl_facts_value(f, key);
	}
	if (json_is_object(v))
		v = json_object_get(v, "running");
	if (!json_is_boolean(v))
		return false;
	*out = json_is_true(v);
	return true;
}

bool pl_json_list_has(const json_t *arr, const char *s)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		if (json_is_string(e) && strcmp(json_string_value(e), s) == 0)
			return true;
	}
	return false;
}

bool pl_rf_numa_nodes(const struct pl_facts *f, int64_t *out)
{
	return pl_rf_int(f, "numa.nodes", out);
}

bool pl_rf_cmdline(const struct pl_facts *f, const char *name, bool *present, const char **value)
{
	const json_t *o = pl_facts_value(f, "kernel.cmdline.params");
	if (!json_is_object(o))
		return false;
	const json_t *v = json_object_get(o, name);
	*present = v != NULL;
	*value = json_is_string(v) ? json_string_value(v) : NULL;
	return true;
}

const char *pl_rf_name(const char *key)
{
	return pl_startswith(key, "sysctl.") ? key + strlen("sysctl.") : key;
}

struct pl_finding *pl_finding_add_int(struct pl_findings *out, const struct pl_rule *r,
				      const char *key, int64_t v, const char *expected)
{
	char obs[160];
	snprintf(obs, sizeof(obs), "%s = %" PRId64, pl_rf_name(key), v);
	return pl_finding_add(out, r, NULL, obs, expected);
}

enum cmp { ABOVE, BELOW, EQUALS };

static void pred_cmp(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		     enum cmp op)
{
	int64_t v;
	if (!r->keys || !pl_rf_int(f, r->keys[0], &v))
		return;
	bool fire = op == ABOVE ? v > r->limit : op == BELOW ? v < r->limit : v == r->limit;
	if (!fire)
		return;
	char exp[64];
	if (!r->expect)
		snprintf(exp, sizeof(exp), "%s %" PRId64,
			 op == ABOVE   ? "<="
			 : op == BELOW ? ">="
				       : "not",
			 r->limit);
	pl_finding_add_int(out, r, r->keys[0], v, r->expect ? r->expect : exp);
}

void pl_pred_above(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	pred_cmp(r, f, out, ABOVE);
}

void pl_pred_below(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	pred_cmp(r, f, out, BELOW);
}

void pl_pred_equals(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	pred_cmp(r, f, out, EQUALS);
}

void pl_pred_str_differs(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const char *s = r->keys ? pl_facts_get_str(f, r->keys[0]) : NULL;
	if (!s || !r->expect || strcmp(s, r->expect) == 0)
		return;
	char *obs = pl_xasprintf("%s = %s", pl_rf_name(r->keys[0]), s);
	pl_finding_add(out, r, NULL, obs, r->expect);
	free(obs);
}

void pl_finding_set_fix(struct pl_finding *x, char *command, char *tune)
{
	free(x->fix_command);
	free(x->fix_tune);
	x->fix_command = command;
	x->fix_tune = tune;
}

/* The CPU list of isolcpus= without its flags ("managed_irq,domain,2-7" -> "2-7"). */
static bool cpus_param(const struct pl_facts *f, const char *name, struct pl_cpuset *out)
{
	bool present;
	const char *v;
	if (!pl_rf_cmdline(f, name, &present, &v) || !present || !v)
		return false;
	const char *p = v;
	while (*p && (*p < '0' || *p > '9')) { /* a flag: skip to the next field */
		const char *c = strchr(p, ',');
		if (!c)
			return false;
		p = c + 1;
	}
	return pl_cpuset_parse(p, out) == 0 && pl_cpuset_count(out) > 0;
}

bool pl_rf_workload_cpus(const struct pl_facts *f, struct pl_cpuset *out, const char **from)
{
	static const char *const params[] = { "isolcpus", "nohz_full", NULL };
	const char *s = pl_facts_get_str(f, "workload.cpus");
	if (s && pl_cpuset_parse(s, out) == 0 && pl_cpuset_count(out) > 0) {
		*from = "workload.cpus";
		return true;
	}
	for (const char *const *p = params; *p; p++)
		if (cpus_param(f, *p, out)) {
			*from = *p;
			return true;
		}
	return false;
}

const json_t *pl_rf_list(const struct pl_facts *f, const char *key)
{
	const json_t *v = pl_facts_value(f, key);
	return json_is_array(v) ? v : NULL;
}

bool pl_rf_member_int(const json_t *o, const char *field, int64_t *out)
{
	const json_t *v = json_object_get(o, field);
	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}
