/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel.*: release, version and the boot command line. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "out/json.h"
#include "util/str.h"
#include "util/sysroot.h"

json_t *pl_cmdline_parse(const char *cmdline)
{
	json_t *o = json_object();
	const char *p = cmdline ? cmdline : "";
	struct pl_buf tok = { 0 };
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		bool quoted = false;
		tok.len = 0;
		pl_buf_append(&tok, "", 0);
		while (*p && (quoted || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quoted = !quoted;
			else
				pl_buf_append(&tok, p, 1);
			p++;
		}
		char *t = tok.data;
		if (!quoted && strcmp(t, "--") == 0)
			break; /* the rest are arguments for init, not kernel parameters */
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = '\0';
			if (*t)
				pl_json_set(o, t, pl_json_string(eq + 1));
		} else if (*t) {
			pl_json_set(o, t, json_true());
		}
	}
	pl_buf_free(&tok);
	return o;
}

char *pl_parse_bracket_list(const char *s, json_t **all)
{
	char **v = pl_split(s ? s : "", " \t\n", NULL);
	char *active = NULL;
	json_t *arr = all ? json_array() : NULL;
	for (char **p = v; *p; p++) {
		char *e = *p;
		size_t n = strlen(e);
		if (n >= 2 && e[0] == '[' && e[n - 1] == ']') {
			e[n - 1] = '\0';
			e++;
			if (!active)
				active = pl_xstrdup(e);
		}
		if (arr)
			json_array_append_new(arr, pl_json_string(e));
	}
	pl_strv_free(v);
	if (all)
		*all = arr;
	return active;
}

char *pl_kernel_release(const char **src)
{
	char *s;
	if (pl_read_str("/proc/sys/kernel/osrelease", &s) == 0) {
		if (src)
			*src = "/proc/sys/kernel/osrelease";
		return s;
	}
	/* "Linux version 6.1.0-18-amd64 (debian-kernel@...) ..." */
	if (pl_read_str("/proc/version", &s) < 0)
		return NULL;
	char **w = pl_split(s, " ", NULL);
	char *rel = NULL;
	if (w[0] && w[1] && w[2] && strcmp(w[0], "Linux") == 0 && strcmp(w[1], "version") == 0)
		rel = pl_xstrdup(w[2]);
	pl_strv_free(w);
	free(s);
	if (rel && src)
		*src = "/proc/version";
	return rel;
}

void pl_collect_kernel(struct pl_facts *f)
{
	const char *src = NULL;
	char *rel = pl_kernel_release(&src);
	pl_fact_str_or(f, "kernel.release", rel, src,
		       "/proc/sys/kernel/osrelease and /proc/version: not readable");
	free(rel);
	pl_fact_from_file_str(f, "kernel.version", "/proc/sys/kernel/version");
	if (pl_exists("/proc/sys/kernel/hostname") || !pl_exists("/etc/hostname"))
		pl_fact_from_file_str(f, "kernel.hostname", "/proc/sys/kernel/hostname");
	else
		pl_fact_from_file_str(f, "kernel.hostname", "/etc/hostname");
	char *cmd;
	int r = pl_read_str("/proc/cmdline", &cmd);
	if (r < 0) {
		pl_fact_unavailable(f, "kernel.cmdline", "/proc/cmdline: %s", pl_read_strerror(r));
		pl_fact_unavailable(f, "kernel.cmdline.params", "/proc/cmdline: %s",
				    pl_read_strerror(r));
		return;
	}
	pl_fact_str(f, "kernel.cmdline", cmd, "/proc/cmdline");
	pl_fact_set(f, "kernel.cmdline.params", pl_cmdline_parse(cmd), "/proc/cmdline");
	free(cmd);
}
