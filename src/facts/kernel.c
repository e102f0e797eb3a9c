/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel.*: release, version, the boot command line and the timer tick rate CONFIG_HZ
 * (from /proc/config.gz, CONFIG_IKCONFIG_PROC, else /boot/config-RELEASE as Debian ships
 * it). */
#include <ctype.h>
#include <errno.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
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

int pl_kconfig_int(const char *text, const char *name, int64_t *out)
{
	size_t nl = strlen(name);
	int r = -ENOENT;
	char pat[128];
	if (!nl || !text || nl + 2 >= sizeof(pat))
		return r;
	/* the lines "NAME=..." found by memmem(3) of "\nNAME=" (and a test of the first
	 * line) instead of a comparison at every line: 0.28 M -> 0.15 M instructions for
	 * a 100 KB config (valgrind callgrind); strstr(3) was 0.17 M, as its SSE2 search
	 * stops at every "\nC" of the config's "\nCONFIG_" lines */
	pat[0] = '\n';
	memcpy(pat + 1, name, nl);
	pat[nl + 1] = '=';
	size_t pl = nl + 2;
	const char *p = text, *stop = text + strlen(text);
	if (strncmp(p, pat + 1, pl - 1) != 0) {
		p = memmem(p, (size_t)(stop - p), pat, pl);
		p = p ? p + 1 : NULL;
	}
	while (p) {
		const char *eol = memchr(p, '\n', (size_t)(stop - p));
		size_t len = eol ? (size_t)(eol - p) : (size_t)(stop - p);
		/* kconfig's loader (scripts/kconfig/confdata.c) lets a later line override an
		 * earlier one: keep scanning, the last one decides */
		char v[32];
		size_t vl = len - nl - 1;
		r = -EINVAL;
		if (vl > 0 && vl < sizeof(v)) {
			memcpy(v, p + nl + 1, vl);
			v[vl] = '\0';
			/* int options are decimal, hex ones 0x...: a leading 0 is not octal
			 * (strtoll base 0 would read CONFIG_HZ=0250 as 168) */
			int hex = (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'));
			const char *d = hex ? v + 2 : v;
			char *end;
			errno = 0;
			long long x = strtoll(d, &end, hex ? 16 : 10);
			if (!errno && end != d && !*end &&
			    (isxdigit((unsigned char)*d) || (!hex && *d == '-'))) {
				*out = x;
				r = 0;
			}
		}
		if (!eol)
			break;
		p = memmem(eol, (size_t)(stop - eol), pat, pl);
		p = p ? p + 1 : NULL;
	}
	return r;
}

/* Largest kernel config text inflated from /proc/config.gz (bytes): real ones are
 * 100-300 KB; a bigger one in a sysroot is junk. */
#define KCONFIG_MAX (8u << 20)

/* The gunzipped text of gzip data @gz (@n bytes) into *out (malloc'd, NUL-terminated).
 * Returns 0, -EINVAL (not gzip, or corrupt), -EFBIG (inflates past KCONFIG_MAX) or
 * -ENOMEM. libdeflate decompresses the whole buffer in one call: on the 2-vCPU EPYC
 * guest a 23 KB config.gz (100 KB of text) took zlib's streaming inflate() and its crc32
 * 1.68 M instructions (valgrind callgrind), libdeflate 0.67 M. The output buffer is
 * KCONFIG_MAX bytes, never the trailer's ISIZE, which only a whole single-member file
 * states: like inflate(), this reads the first member and ignores what follows it. The
 * untouched part of the buffer costs no page. */
static int gunzip_text(const char *gz, size_t n, char **out)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	if (!d)
		return -ENOMEM;
	char *buf = pl_xmalloc((size_t)KCONFIG_MAX + 1);
	size_t len = 0;
	enum libdeflate_result lr = libdeflate_gzip_decompress(d, gz, n, buf, KCONFIG_MAX, &len);
	libdeflate_free_decompressor(d);
	if (lr != LIBDEFLATE_SUCCESS) {
		free(buf);
		return lr == LIBDEFLATE_INSUFFICIENT_SPACE ? -EFBIG : -EINVAL;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* kernel.config_hz: CONFIG_HZ, the tick rate an ordinary CPU takes (bench ticks compares
 * its count with it). */
static void collect_config_hz(struct pl_facts *f, const char *release)
{
	char *gz, *text = NULL, src[300];
	size_t n;
	int r = pl_read_file("/proc/config.gz", &gz, &n);
	snprintf(src, sizeof(src), "/proc/config.gz");
	if (r == 0) {
		r = gunzip_text(gz, n, &text);
		free(gz);
		if (r < 0) {
			pl_fact_unavailable(f, "kernel.config_hz",
					    r == -EFBIG ? "/proc/config.gz: inflates past %u MiB: "
							  "not a kernel config"
					    : r == -ENOMEM ? "/proc/config.gz: out of memory"
							   : "/proc/config.gz: not gzip data",
					    KCONFIG_MAX >> 20);
			return;
		}
	} else if (release) {
		int r2 = pl_read_filef(&text, NULL, "/boot/config-%s", release);
		if (r2 == 0)
			snprintf(src, sizeof(src), "/boot/config-%s", release);
		else {
			pl_fact_unavailable(f, "kernel.config_hz",
					    "/proc/config.gz: %s; /boot/config-%s: %s",
					    pl_read_strerror(r), release, pl_read_strerror(r2));
			return;
		}
	} else {
		pl_fact_unavailable(f, "kernel.config_hz", "/proc/config.gz: %s",
				    pl_read_strerror(r));
		return;
	}
	int64_t hz;
	r = pl_kconfig_int(text, "CONFIG_HZ", &hz);
	free(text);
	if (r == 0 && hz > 0 && hz <= 100000)
		pl_fact_int(f, "kernel.config_hz", hz, src);
	else
		pl_fact_unavailable(f, "kernel.config_hz", "%s: CONFIG_HZ %s", src,
				    r == -ENOENT ? "not set" : "not a tick rate");
}

void pl_collect_kernel(struct pl_facts *f)
{
	const char *src = NULL;
	char *rel = pl_kernel_release(&src);
	pl_fact_str_or(f, "kernel.release", rel, src,
		       "/proc/sys/kernel/osrelease and /proc/version: not readable");
	/* perflab check reads no kernel.config_hz: decompressing the config was 0.83 M of
	 * its 5.5 M instructions (valgrind callgrind, 2-vCPU EPYC guest) */
	if (pl_facts_wanted("kernel.config_hz"))
		collect_config_hz(f, rel);
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
