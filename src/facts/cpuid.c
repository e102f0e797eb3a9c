/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "facts/cpuid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/record.h"
#include "util/str.h"
#include "util/sysroot.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

/* One line of PL_CPUID_FILE: "LEAF SUBLEAF EAX EBX ECX EDX", each 0x and 8 hex digits. */
struct line {
	unsigned leaf, sub, r[4];
};

/* The lines of PL_CPUID_FILE of the current sysroot (parsed once per sysroot), or of
 * what was recorded live (to write each (leaf, subleaf) once). */
static struct {
	char *root; /* the sysroot they were read for; NULL: not read */
	bool have;  /* the file was readable */
	struct line *v;
	size_t n;
} file, live_seen;

static void add_line(struct line **v, size_t *n, const struct line *l)
{
	*v = pl_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = *l;
}

static const struct line *lookup(const struct line *v, size_t n, unsigned leaf, unsigned sub)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].leaf == leaf && v[i].sub == sub)
			return &v[i];
	return NULL;
}

/* Read PL_CPUID_FILE of the current sysroot into `file` (once per sysroot). Lines that
 * do not parse are skipped. */
static void load(void)
{
	if (file.root && strcmp(file.root, pl_sysroot()) == 0)
		return;
	free(file.root);
	free(file.v);
	memset(&file, 0, sizeof(file));
	file.root = pl_xstrdup(pl_sysroot());
	pl_autofree char *text = NULL;
	if (pl_read_file(PL_CPUID_FILE, &text, NULL) < 0)
		return;
	file.have = true;
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		struct line l;
		if (sscanf(p, "%x %x %x %x %x %x", &l.leaf, &l.sub, &l.r[0], &l.r[1], &l.r[2],
			   &l.r[3]) == 6)
			add_line(&file.v, &file.n, &l);
	}
}

bool pl_cpuid_available(void)
{
	if (pl_sysroot_is_live())
		return HAVE_CPUID;
	load();
	return file.have;
}

bool pl_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	memset(r, 0, 4 * sizeof(*r));
	if (!pl_sysroot_is_live()) {
		load();
		const struct line *l = lookup(file.v, file.n, leaf, sub);
		if (l)
			memcpy(r, l->r, sizeof(l->r));
		return file.have;
	}
#if HAVE_CPUID
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	if (pl_record_on() && !lookup(live_seen.v, live_seen.n, leaf, sub)) {
		struct line l = { leaf, sub, { r[0], r[1], r[2], r[3] } };
		add_line(&live_seen.v, &live_seen.n, &l);
		char buf[96];
		int n = snprintf(buf, sizeof(buf), "0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x\n",
				 leaf, sub, r[0], r[1], r[2], r[3]);
		pl_record_live(PL_CPUID_FILE, buf, (size_t)n);
	}
	return true;
#else
	(void)leaf;
	(void)sub;
	return false;
#endif
}
