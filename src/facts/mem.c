/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mem.*: totals from /proc/meminfo (Documentation/filesystems/proc.rst "meminfo"),
 * transparent huge pages (Documentation/admin-guide/mm/transhuge.rst) and the hugetlb
 * pool (Documentation/admin-guide/mm/hugetlbpage.rst). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/str.h"
#include "util/sysroot.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

int pl_meminfo_get(const char *text, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	for (const char *p = text ? text : ""; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *k = p;
		/* node meminfo: "Node 0 MemTotal:  123 kB" */
		if (pl_startswith(k, "Node ")) {
			k += 5;
			while (k < p + len && *k >= '0' && *k <= '9')
				k++;
			while (k < p + len && *k == ' ')
				k++;
		}
		if ((size_t)(p + len - k) > kl && strncmp(k, key, kl) == 0 && k[kl] == ':') {
			char *v = pl_xasprintf("%.*s", (int)(p + len - (k + kl + 1)), k + kl + 1);
			char *t = pl_trim(v);
			size_t tl = strlen(t);
			uint64_t mult = 1;
			if (tl > 2 && strcmp(t + tl - 2, "kB") == 0) {
				t[tl - 2] = '\0';
				mult = 1024;
			}
			uint64_t n;
			int r = pl_parse_u64(t, &n);
			free(v);
			if (r < 0 || (mult > 1 && n > UINT64_MAX / mult))
				return -EINVAL;
			*out = n * mult;
			return 0;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return -ENOENT;
}

static void meminfo_fact(struct pl_facts *f, const char *text, const char *field, const char *key)
{
	uint64_t v;
	int r = pl_meminfo_get(text, field, &v);
	if (r < 0)
		pl_fact_unavailable(f, key, "/proc/meminfo: %s %s", field,
				    r == -ENOENT ? "missing" : "not a number");
	else
		pl_fact_uint(f, key, v, "/proc/meminfo");
}

static void bracket_fact(struct pl_facts *f, const char *key, const char *path)
{
	char *s;
	int r = pl_read_str(path, &s);
	if (r < 0) {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
		return;
	}
	char *active = pl_parse_bracket_list(s, NULL);
	if (active)
		pl_fact_str(f, key, active, path);
	else
		pl_fact_unavailable(f, key, "%s: no [selected] entry in '%.60s'", path, s);
	free(active);
	free(s);
}

void pl_collect_mem(struct pl_facts *f)
{
	char *mi;
	int r = pl_read_file("/proc/meminfo", &mi, NULL);
	if (r < 0) {
		static const char *const keys[] = {
			"mem.total_bytes",     "mem.available_bytes",	   "mem.swap.total_bytes",
			"mem.hugepages.total", "mem.hugepages.size_bytes", NULL
		};
		for (const char *const *k = keys; *k; k++)
			pl_fact_unavailable(f, *k, "/proc/meminfo: %s", pl_read_strerror(r));
	} else {
		meminfo_fact(f, mi, "MemTotal", "mem.total_bytes");
		meminfo_fact(f, mi, "MemAvailable", "mem.available_bytes");
		meminfo_fact(f, mi, "SwapTotal", "mem.swap.total_bytes");
		meminfo_fact(f, mi, "HugePages_Total", "mem.hugepages.total");
		meminfo_fact(f, mi, "HugePages_Free", "mem.hugepages.free");
		meminfo_fact(f, mi, "Hugepagesize", "mem.hugepages.size_bytes");
		free(mi);
	}
	bracket_fact(f, "mem.thp.enabled", THP_DIR "/enabled");
	bracket_fact(f, "mem.thp.defrag", THP_DIR "/defrag");
}
