/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [bootloader]: kernel command line tokens of the cmdline* options, merged as tuned's
 * bootloader plugin does and written into GRUB_CMDLINE_LINUX of the grub defaults file;
 * the plan keeps the new file (grub_new) and the command that regenerates grub.cfg. */
#include "tune/plugins/plugin.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tune/safepath.h"
#include "tune/validate.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* The value of the last GRUB_CMDLINE_LINUX= line in @file (the one the shell keeps when
 * update-grub sources the file), quotes removed, or NULL when absent; *line_start and
 * *line_end delimit that line. *safe is false when the value cannot be rewritten as
 * "TOKENS" with the same meaning to the shell: more than one quoted string, a comment
 * or code after it, or inside the quotes a character that double quotes would read
 * differently (a quote, a backslash, a backquote, $(...) or ${...}; any '$' in single
 * quotes or unquoted). perflab then leaves the line to the user. */
static char *grub_cmdline(const char *file, size_t *line_start, size_t *line_end, bool *safe)
{
	const char *p = file, *found = NULL;
	size_t flen = 0;
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, "GRUB_CMDLINE_LINUX=", 19) == 0) {
			found = p;
			flen = len;
		}
		p = e ? e + 1 : NULL;
	}
	if (!found)
		return NULL;
	*line_start = (size_t)(found - file);
	*line_end = *line_start + flen;
	size_t n = flen - 19;
	char *v = pl_xmalloc(n + 1);
	memcpy(v, found + 19, n);
	v[n] = '\0';
	/* Trailing blanks (and a CR) after the value do not change it. */
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		v[--n] = '\0';
	char q = n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0] ? v[0] : 0;
	if (q) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	/* Re-joined with single spaces; in double quotes a plain $NAME means the same, a
	 * $(...) or ${...} might not. */
	const char *bad = q == '"' ? "\"'\\`(){}" : q == '\'' ? "'\"\\`$" : "'\"\\`$ \t;&|<>()#";
	*safe = strpbrk(v, bad) == NULL;
	return v;
}

static size_t tok_keylen(const char *t)
{
	return strcspn(t, "=");
}

static bool tok_in(char *const *v, const char *t)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcmp(v[i], t) == 0)
			return true;
	return false;
}

/* pl_tune_cmdline_token_ok, allowing a double quote at the start and at the end of the
 * token (tuned's quoting of the whole value; pl_tune_plugin_bootloader decides on them). */
static bool cmdline_token_ok_quoted(const char *tok)
{
	pl_autofree char *t = pl_xstrdup(tok);
	char *p = t[0] == '"' ? t + 1 : t;
	size_t l = strlen(p);
	if (l && p[l - 1] == '"')
		p[l - 1] = '\0';
	return !*p || pl_tune_cmdline_token_ok(p);
}

int pl_tune_plugin_bootloader(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
{
	/* Accumulate the cmdline* options in their merged order (tuned's bootloader plugin,
	 * _get_effective_options): "+tokens" and plain tokens are appended, so a profile's
	 * cmdline_NAME adds to those of the profiles it includes; "-tokens" removes every
	 * earlier occurrence of each token. */
	char **want = pl_xcalloc(1, sizeof(char *));
	size_t nw = 0;
	const struct pl_tune_opt *last = NULL;
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		if (!pl_startswith(o->key, "cmdline")) {
			struct pl_tune_item *it = pl_tune_add_item(c, "bootloader", u, o, NULL);
			pl_tune_set_reason(
				it, PL_TI_UNSUPPORTED,
				"[bootloader] option '%s' is not supported by perflab (only "
				"cmdline)",
				o->key);
			continue;
		}
		const char *v = pl_tune_opt_value(o);
		if (strstr(v, "${")) {
			struct pl_tune_item *it = pl_tune_add_item(c, "bootloader", u, o, NULL);
			pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
					   "uses an undefined variable or a function");
			continue;
		}
		last = o;
		char op = v[0] == '+' || v[0] == '-' ? v[0] : 0;
		char **toks = pl_split(op ? v + 1 : v, " \t\n", NULL);
		for (size_t k = 0; toks[k]; k++) {
			/* The loader refused such tokens already (pl_tune_cmdline_check); never
			 * write one that a caller built some other way. */
			if (!cmdline_token_ok_quoted(toks[k])) {
				pl_strv_free(toks);
				pl_strv_free(want);
				return pl_tune_bad_value(
					c, u, o,
					"has a token that is not a plain kernel parameter "
					"(letters, digits and _ - . , = : / + @ %)");
			}
			if (op == '-') {
				for (size_t m = 0; m < nw;) {
					if (strcmp(want[m], toks[k]) != 0) {
						m++;
						continue;
					}
					free(want[m]);
					memmove(&want[m], &want[m + 1], (nw - m) * sizeof(char *));
					nw--;
				}
				continue;
			}
			want = pl_xrealloc(want, (nw + 2) * sizeof(char *));
			want[nw++] = pl_xstrdup(toks[k]);
			want[nw] = NULL;
		}
		pl_strv_free(toks);
	}
	if (!last) {
		pl_strv_free(want);
		return 0;
	}
	/* tuned unquotes the merged cmdline as one string (commands.unquote: ^"(.*)"$), so
	 * cmdline="a b" means a b. A quote it would keep is refused: it would land in the
	 * kernel command line. */
	size_t wl = nw ? strlen(want[nw - 1]) : 0;
	if (nw && want[0][0] == '"' && wl && want[nw - 1][wl - 1] == '"' && (nw > 1 || wl >= 2)) {
		want[nw - 1][wl - 1] = '\0';
		memmove(want[0], want[0] + 1, strlen(want[0]));
		for (size_t m = 0; m < nw;) {
			if (want[m][0]) {
				m++;
				continue;
			}
			free(want[m]);
			memmove(&want[m], &want[m + 1], (nw - m) * sizeof(char *));
			nw--;
		}
	}
	for (size_t k = 0; k < nw; k++) {
		if (strchr(want[k], '"')) {
			pl_strv_free(want);
			return pl_tune_bad_value(
				c, u, last,
				"has quotes that tuned keeps (it removes only one pair "
				"around the whole merged cmdline): they would be written "
				"into the kernel command line");
		}
	}
	char *file = NULL, *cmd = NULL;
	int rf = pl_read_file(PL_TUNE_GRUB_FILE, &file, NULL);
	(void)pl_read_str("/proc/cmdline", &cmd);
	char **running = cmd ? pl_split(cmd, " \t", NULL) : pl_xcalloc(1, sizeof(char *));
	size_t ls = 0, le = 0;
	bool safe = true;
	char *cur = rf == 0 ? grub_cmdline(file, &ls, &le, &safe) : NULL;
	char **have = cur ? pl_split(cur, " \t", NULL) : pl_xcalloc(1, sizeof(char *));
	size_t nh = 0;
	while (have[nh])
		nh++;
	bool changed = false;
	for (size_t k = 0; k < nw; k++) {
		struct pl_tune_item *it = pl_tune_add_item(c, "bootloader", u, last, NULL);
		free(it->key);
		it->key = pl_xstrdup("cmdline");
		free(it->value);
		it->value = pl_xstrdup(want[k]);
		it->target = pl_xstrdup(PL_TUNE_GRUB_FILE);
		if (rf < 0) {
			pl_tune_set_reason(it, PL_TI_NA,
					   "no %s on this machine (not booted with GRUB)",
					   PL_TUNE_GRUB_FILE);
			continue;
		}
		it->current = pl_xstrdup(cur ? cur : "");
		bool in_grub = tok_in(have, want[k]);
		bool in_running = tok_in(running, want[k]);
		it->match = in_running;
		if (in_grub && !in_running) {
			it->pending_reboot = true;
			it->reason = pl_xstrdup(
				"pending reboot: in the grub file, not yet in /proc/cmdline");
		}
		if (in_grub)
			continue;
		if (!safe) {
			pl_tune_set_reason(
				it, PL_TI_MANUAL,
				"GRUB_CMDLINE_LINUX in %s is quoted or built in a way perflab does "
				"not rewrite: add '%s' to it by hand",
				PL_TUNE_GRUB_FILE, want[k]);
			continue;
		}
		it->want = pl_xstrdup(want[k]);
		/* Replace a token with the same key (e.g. intel_idle.max_cstate=), else append. */
		size_t kl = tok_keylen(want[k]);
		bool done = false;
		for (size_t m = 0; m < nh && !done; m++)
			if (tok_keylen(have[m]) == kl && strncmp(have[m], want[k], kl) == 0 &&
			    strchr(want[k], '=')) {
				free(have[m]);
				have[m] = pl_xstrdup(want[k]);
				done = true;
			}
		if (!done) {
			have = pl_xrealloc(have, (nh + 2) * sizeof(char *));
			have[nh++] = pl_xstrdup(want[k]);
			have[nh] = NULL;
		}
		changed = true;
	}
	if (changed) {
		struct pl_buf b = { 0 };
		struct pl_buf line = { 0 };
		pl_buf_puts(&line, "GRUB_CMDLINE_LINUX=\"");
		for (size_t m = 0; m < nh; m++)
			pl_buf_printf(&line, "%s%s", m ? " " : "", have[m]);
		pl_buf_puts(&line, "\"");
		if (cur) {
			pl_buf_append(&b, file, ls);
			pl_buf_puts(&b, line.data);
			pl_buf_puts(&b, file + le);
		} else {
			pl_buf_puts(&b, file);
			if (b.len && b.data[b.len - 1] != '\n')
				pl_buf_puts(&b, "\n");
			pl_buf_printf(&b, "%s\n", line.data);
		}
		pl_buf_free(&line);
		free(c->plan->grub_new);
		c->plan->grub_new = pl_buf_steal(&b);
	}
	char *osr = NULL;
	(void)pl_read_file("/etc/os-release", &osr, NULL);
	bool deb = osr && (strstr(osr, "ID=debian") || strstr(osr, "ID=ubuntu") ||
			   strstr(osr, "ID_LIKE=debian") || strstr(osr, "ID_LIKE=ubuntu"));
	free(c->plan->grub_update);
	c->plan->grub_update =
		pl_xstrdup(deb || !osr ? "update-grub" : "grub2-mkconfig -o /boot/grub2/grub.cfg");
	free(osr);
	free(file);
	free(cmd);
	free(cur);
	pl_strv_free(running);
	pl_strv_free(have);
	pl_strv_free(want);
	return 0;
}
