/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuned's ${f:...} functions without programs (tune/functions.h). */
#include "tune/functions.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"
#include "util/sysroot.h"

/* A CPU set: cpu[i] for 0 <= i < PL_TUNE_MAX_CPU. */
struct cpus {
	bool cpu[PL_TUNE_MAX_CPU];
};

/* Python's int(s) for a decimal string: blanks around, an optional sign. */
static bool py_int(const char *s, long *v)
{
	while (isspace((unsigned char)*s))
		s++;
	const char *d = *s == '+' || *s == '-' ? s + 1 : s;
	if (!isdigit((unsigned char)*d))
		return false;
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

/* Set the bits of hex mask @m ("0x" optional, commas ignored) in @c; false when it is
 * not hex. */
static bool hex_into(const char *m, struct cpus *c)
{
	pl_autofree char *t = pl_xstrdup(m);
	size_t w = 0;
	for (size_t i = 0; t[i]; i++)
		if (t[i] != ',')
			t[w++] = t[i];
	t[w] = '\0';
	char *h = pl_trim(t);
	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
		h += 2;
	if (!*h)
		return false;
	size_t n = strlen(h);
	for (size_t i = 0; i < n; i++) {
		char ch = h[n - 1 - i];
		if (!isxdigit((unsigned char)ch))
			return false;
		int v = isdigit((unsigned char)ch) ? ch - '0'
						   : tolower((unsigned char)ch) - 'a' + 10;
		for (int b = 0; b < 4; b++)
			if ((v >> b) & 1) {
				if (i * 4 + (size_t)b >= PL_TUNE_MAX_CPU)
					return false;
				c->cpu[i * 4 + (size_t)b] = true;
			}
	}
	return true;
}

/* Add "A" or "A-B" (B inclusive; a third part is ignored, as tuned does) to @c. */
static bool range_into(const char *v, struct cpus *c, bool on)
{
	char **p = pl_split(v, "-", NULL);
	long a = 0, b = 0;
	bool ok = p[0] && v[0] != '-' && py_int(p[0], &a);
	b = a;
	if (ok && strchr(v, '-'))
		ok = p[1] && py_int(p[1], &b);
	pl_strv_free(p);
	if (!ok || a < 0 || b >= PL_TUNE_MAX_CPU)
		return false;
	for (long i = a; i <= b; i++)
		c->cpu[i] = on;
	return true;
}

/* tuned's cpulist_unpack: comma-separated CPUs and ranges, hex masks ("0x..." up to the
 * next empty field), "^N"/"!N" exclusions applied last, quotes around the whole list
 * removed. Anything that does not parse gives the empty set (as tuned). Malloc'd. */
static struct cpus *unpack(const char *list)
{
	struct cpus *c = pl_xcalloc(1, sizeof(*c));
	struct cpus *neg = pl_xcalloc(1, sizeof(*neg));
	pl_autofree char *l = pl_xstrdup(list ? list : "");
	char *s = l;
	size_t n = strlen(s);
	while (n && (s[n - 1] == '"' || s[n - 1] == '\''))
		s[--n] = '\0';
	while (*s == '"' || *s == '\'')
		s++;
	/* Split on every comma, empty fields kept (they end a hex mask). */
	bool ok = true, hexmask = false;
	struct pl_buf hv = { 0 };
	char *f = s;
	for (bool last = false; !last && ok;) {
		char *comma = strchr(f, ',');
		last = comma == NULL;
		if (comma)
			*comma = '\0';
		if (hexmask) {
			if (!*f) {
				/* A bad mask adds nothing (tuned logs it and goes on). */
				hexmask = false;
				(void)hex_into(hv.data, c);
				pl_buf_free(&hv);
			} else {
				pl_buf_puts(&hv, f);
			}
		} else if ((f[0] == '0') && (f[1] == 'x' || f[1] == 'X')) {
			hexmask = true;
			pl_buf_puts(&hv, f);
		} else if (f[0] == '^' || f[0] == '!') {
			ok = range_into(f + 1, neg, true);
		} else if (*f) {
			ok = range_into(f, c, true);
		}
		f = comma ? comma + 1 : f;
	}
	if (ok && hv.data && hv.len)
		(void)hex_into(hv.data, c);
	pl_buf_free(&hv);
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
		c->cpu[i] = ok && c->cpu[i] && !neg->cpu[i];
	free(neg);
	return c;
}

/* The CPUs of file @path (a kernel CPU list like "0-7"), empty when unreadable. */
static struct cpus *unpack_file(const char *path)
{
	char *v = NULL;
	if (pl_read_file(path, &v, NULL) < 0)
		v = pl_xstrdup("");
	struct cpus *c = unpack(pl_trim(v));
	free(v);
	return c;
}

/* "0,1,5" (with @prefix before each number). */
static char *list_str(const struct cpus *c, const char *prefix)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
		if (c->cpu[i])
			pl_buf_printf(&b, "%s%s%zu", b.len ? "," : "", prefix, i);
	return pl_buf_steal(&b);
}

/* "0-3,5" (tuned's cpulist_pack). */
static char *pack_str(const struct cpus *c)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++) {
		if (!c->cpu[i])
			continue;
		size_t j = i;
		while (j + 1 < PL_TUNE_MAX_CPU && c->cpu[j + 1])
			j++;
		if (j > i)
			pl_buf_printf(&b, "%s%zu-%zu", b.len ? "," : "", i, j);
		else
			pl_buf_printf(&b, "%s%zu", b.len ? "," : "", i);
		i = j;
	}
	return pl_buf_steal(&b);
}

/* "000000ff,ffffffff" (tuned's cpulist2hex: lower case, zero-filled to groups of 8). */
static char *hex_str(const struct cpus *c)
{
	size_t top = 0;
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
		if (c->cpu[i])
			top = i + 1;
	size_t digits = top ? (top + 3) / 4 : 1;
	size_t groups = (digits + 7) / 8;
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (size_t g = groups; g-- > 0;) {
		if (b.len)
			pl_buf_puts(&b, ",");
		for (size_t d = 8; d-- > 0;) {
			size_t base = (g * 8 + d) * 4;
			int v = 0;
			for (int k = 0; k < 4; k++)
				if (base + (size_t)k < PL_TUNE_MAX_CPU && c->cpu[base + (size_t)k])
					v |= 1 << k;
			pl_buf_printf(&b, "%x", v);
		}
	}
	return pl_buf_steal(&b);
}

/* @args joined with @sep. */
static char *join(char *const *args, size_t n, const char *sep)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (size_t i = 0; i < n; i++)
		pl_buf_printf(&b, "%s%s", i ? sep : "", args[i]);
	return pl_buf_steal(&b);
}

/* POSIX extended @re searched in @s (NEWLINE: ^ and $ at lines, like re.MULTILINE). */
static bool search(const char *re, const char *s)
{
	regex_t rx;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
		return false;
	bool ok = regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return ok;
}

static bool is_virtual(void)
{
	if (pl_exists("/sys/hypervisor/type"))
		return true;
	char *ci = NULL;
	bool v = pl_read_file("/proc/cpuinfo", &ci, NULL) == 0 && strstr(ci, " hypervisor");
	free(ci);
	return v;
}

/* calc_isolated_cores: per package, all CPUs but the first @reserve (by number). */
static char *isolated_cores(long reserve)
{
	char **ents = NULL;
	size_t n = 0;
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	if (pl_list_dir("/sys/devices/system/cpu", &ents, &n) < 0)
		return pl_buf_steal(&b);
	long *pkg = pl_xcalloc(PL_TUNE_MAX_CPU, sizeof(*pkg));
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
		pkg[i] = -1;
	for (size_t i = 0; i < n; i++) {
		long id, p;
		if (!pl_startswith(ents[i], "cpu") || !ents[i][3] ||
		    strspn(ents[i] + 3, "0123456789") != strlen(ents[i] + 3) ||
		    !py_int(ents[i] + 3, &id) || id >= PL_TUNE_MAX_CPU)
			continue;
		char path[96], *v = NULL;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/%s/topology/physical_package_id", ents[i]);
		if (pl_read_file(path, &v, NULL) == 0 && strspn(pl_trim(v), "0123456789") &&
		    py_int(v, &p) && p >= 0)
			pkg[id] = p;
		free(v);
	}
	struct cpus *iso = pl_xcalloc(1, sizeof(*iso));
	for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++) {
		if (pkg[i] < 0)
			continue;
		long before = 0;
		for (size_t k = 0; k < i; k++)
			before += pkg[k] == pkg[i];
		iso->cpu[i] = before >= reserve;
	}
	pl_buf_free(&b);
	char *r = list_str(iso, "");
	free(iso);
	free(pkg);
	pl_strv_free(ents);
	return r;
}

int pl_tune_func(const char *name, char *const *args, size_t nargs, char **out, char *why,
		 size_t whylen)
{
	*out = NULL;
	/* Lists: tuned joins the arguments with ",," (an empty field ends a hex mask). */
	pl_autofree char *l2 = join(args, nargs, ",,");
	struct cpus *c = NULL, *m = NULL;
	if (strcmp(name, "cpulist_unpack") == 0 || strcmp(name, "cpulist_pack") == 0 ||
	    strcmp(name, "cpulist2hex") == 0) {
		c = unpack(l2);
		*out = strcmp(name, "cpulist_unpack") == 0 ? list_str(c, "")
		       : strcmp(name, "cpulist_pack") == 0 ? pack_str(c)
							   : hex_str(c);
	} else if (strcmp(name, "cpulist_invert") == 0 || strcmp(name, "cpulist2hex_invert") == 0) {
		c = unpack(l2);
		m = unpack_file("/sys/devices/system/cpu/online");
		for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
			m->cpu[i] = m->cpu[i] && !c->cpu[i];
		*out = name[7] == '_' ? list_str(m, "") : hex_str(m);
	} else if (strcmp(name, "cpulist_present") == 0 || strcmp(name, "cpulist_online") == 0 ||
		   strcmp(name, "cpulist2devs") == 0) {
		pl_autofree char *l1 = join(args, nargs, ",");
		bool present = name[8] == 'p';
		c = unpack(present ? l2 : l1);
		if (name[7] == '2') {
			*out = list_str(c, "cpu");
		} else {
			m = unpack_file(present ? "/sys/devices/system/cpu/present"
						: "/sys/devices/system/cpu/online");
			for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
				m->cpu[i] = m->cpu[i] && c->cpu[i];
			*out = list_str(m, "");
		}
	} else if (strcmp(name, "hex2cpulist") == 0) {
		if (nargs != 1)
			return 1;
		c = pl_xcalloc(1, sizeof(*c));
		if (!hex_into(args[0], c))
			memset(c, 0, sizeof(*c));
		*out = list_str(c, "");
	} else if (strcmp(name, "strip") == 0) {
		if (nargs < 1)
			return 1;
		pl_autofree char *j = join(args, nargs, "");
		*out = pl_xstrdup(pl_trim(j));
	} else if (strcmp(name, "kb2s") == 0 || strcmp(name, "s2kb") == 0) {
		long v;
		if (nargs != 1 || !py_int(args[0], &v) || v > 1000000000000L || v < -1000000000000L)
			return 1;
		/* s2kb: round(v / 2), halves to even (Python's round). */
		long h = v / 2 + ((v % 2 != 0 && (v / 2) % 2 != 0) ? (v > 0 ? 1 : -1) : 0);
		*out = pl_xasprintf("%ld", name[0] == 'k' ? v * 2 : h);
	} else if (strcmp(name, "regex_search_ternary") == 0) {
		if (nargs != 4)
			return 1;
		*out = pl_xstrdup(search(args[1], args[0]) ? args[2] : args[3]);
	} else if (strcmp(name, "cpuinfo_check") == 0) {
		if (nargs < 2)
			return 1;
		char *ci = NULL;
		if (pl_read_file("/proc/cpuinfo", &ci, NULL) < 0)
			ci = pl_xstrdup("");
		for (size_t i = 0; i + 1 < nargs && !*out; i += 2)
			if (search(args[i], ci))
				*out = pl_xstrdup(args[i + 1]);
		if (!*out)
			*out = pl_xstrdup(nargs % 2 ? args[nargs - 1] : "");
		free(ci);
	} else if (strcmp(name, "calc_isolated_cores") == 0) {
		long reserve = 1;
		if (nargs > 1)
			return 1;
		if (nargs == 1 && (!*args[0] || strspn(args[0], "0123456789") != strlen(args[0]) ||
				   !py_int(args[0], &reserve)))
			return 1;
		*out = isolated_cores(reserve);
	} else if (strcmp(name, "virt_check") == 0) {
		if (nargs != 2)
			return 1;
		*out = pl_xstrdup(is_virtual() ? args[0] : args[1]);
	} else if (strcmp(name, "assertion") == 0 || strcmp(name, "assertion_non_equal") == 0) {
		if (nargs != 3)
			return 1;
		bool eq = strcmp(args[1], args[2]) == 0;
		if (eq != (name[9] == '\0')) {
			snprintf(why, whylen, "assertion '%s' failed: '%s' %s '%s'", args[0],
				 args[1], eq ? "==" : "!=", args[2]);
			return -EINVAL;
		}
		return 1;
	} else if (strcmp(name, "check_net_queue_count") == 0) {
		if (nargs < 1)
			return 1;
		if (*args[0] && strspn(args[0], "0123456789") == strlen(args[0])) {
			*out = pl_xstrdup(args[0]);
		} else {
			/* tuned runs nproc and takes its output, newline included; the online
			 * CPUs are what nproc counts when nothing restricts the process. */
			m = unpack_file("/sys/devices/system/cpu/online");
			size_t k = 0;
			for (size_t i = 0; i < PL_TUNE_MAX_CPU; i++)
				k += m->cpu[i];
			*out = pl_xasprintf("%zu\n", k);
		}
	} else if (strcmp(name, "exec") == 0) {
		snprintf(why, whylen, "${f:%s} runs a program; perflab never runs one", name);
		return -ENOTSUP;
	} else {
		snprintf(why, whylen, "${f:%s} is not a function perflab knows", name);
		return -ENOTSUP;
	}
	free(c);
	free(m);
	return 0;
}
